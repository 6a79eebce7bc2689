"""The exact expectimax for two live hands, compiled: the whole two-player game from the deal.

:mod:`ricochet_math.games.home.solver` is the readable reference (Python, memo on the full
position); this module solves the same backward induction in numba for positions with
**two live hands**, which is every position of a two-player game and the endgame of a
larger one.  It is tested equal to the readable solver (1e-12) where both run.

What the value of a position depends on (and the honest reduction of the state):

* Two live hands ``a`` (the lowest, to act) and ``b``.  Every other card is either dead
  (folded or beaten hands of a larger table: they never come back, fixed for the whole
  solve) or unseen, so the unseen cards are ``deck - dead - a - b``: the pair of card masks
  is the position, no separate deck state.  With two players from the deal nothing is
  ever dead.
* The **pot** ``P``.  Everything already paid is sunk, but the pot is not: it is what the
  survivor takes, and the lowest hand's choice depends on it (pot odds).  The pot is not a
  function of the hands (a buy can stop before the paid cards have all arrived: no refund),
  so it is part of the key.  The values are *future* nets: the two seats' values always add
  up to ``P`` (every future chip paid goes into the pot that one of them takes), so only the
  acting seat's value is stored.
* Which seat is which does not matter (the rules do not look at chairs), so the key is
  (hand to act, other hand, pot); the seat of the first hand to act only labels the result.
* **No suit relabelling.**  Flushes are suit-symmetric, but the suit tie-break (clubs <
  diamonds < hearts < spades, between hands of identical rank) is not: a permutation of
  the suits can reverse who of two identical hands is lowest, in this position or any later
  one.  So no suit isomorphism is used; every position is solved as dealt.

The memo is an open-addressing hash table in numpy arrays (keys: the two masks, the pot in
the top byte of the second; values: for ``r = 0`` the acting hand's value before it acts,
for ``r >= 1`` its value with ``r`` paid cards still to come, so the dealer's one-card-at-a-
time stops share the table).  The table lives in an :class:`ExactSolver`, reused across
positions of the same rules and dead cards (a whole table of deals in one run).
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from enum import IntEnum

import numpy as np
import pandas as pd

from ricochet_math.arguments import check_instance, check_whole
from ricochet_math._numba import njit
from ricochet_math.errors import RicochetError, TableStateError
from ricochet_math.evaluator.cards import format_cards
from ricochet_math.games.home.hands import hand_keys
from ricochet_math.games.home.rules import HomeRules
from ricochet_math.games.home.solver import Position, Solution

__all__ = ["subgame_value", "MAX_LEVELS", "Stat", "Param", "card_mask", "popcount", "ExactSolver", "exact_solver", "solve_exact", "exact_buy", "DealValue", "DealTable", "solve_deals",
           "exact_applies", "TableFull", "DEFAULT_CAPACITY", "SHARED_CAPACITY"]

class TableFull(RicochetError):
    """The exact solver's table reached its largest size before the tree was solved."""


#: initial hash-table slots (doubled and re-solved when 3/4 full)
DEFAULT_CAPACITY = 1 << 20
_MAX_CAPACITY = 1 << 31
_FILL_NUM, _FILL_DEN = 3, 4
_EMPTY = np.uint64(0xFFFFFFFFFFFFFFFF)


class Stat(IntEnum):
    """Slots of the solver's counters ``stats``, ``int64[len(Stat)]`` (numba reads them as constants)."""

    COUNT = 0  # memo entries
    OVERFLOW = 1  # 1 once the table is 3/4 full: the solve stops (and is redone in a larger table)
    PROBES = 2  # not counted yet (0)


class Param(IntEnum):
    """Slots of the rules as the solver reads them, ``params``, ``int64[len(Param)]``
    (:meth:`ExactSolver.__init__`; numba reads them as constants)."""

    LIMIT = 0  # hand limit
    DECK = 1  # deck size (cards 0 .. DECK - 1)
    TIE_ENDS = 2  # 1: the hand ends when the two hands are identical in rank
    SHOWDOWN = 3  # 1: a stuck lowest hand forces a showdown (with two live hands it loses either way)


#: scratch rows, one per recursion level (a card is dealt at least every second level: <= 2 x 12 + 2)
MAX_LEVELS = 48


@njit(inline="always")
def popcount(m):
    m = m - ((m >> np.uint64(1)) & np.uint64(0x5555555555555555))
    m = (m & np.uint64(0x3333333333333333)) + ((m >> np.uint64(2)) & np.uint64(0x3333333333333333))
    m = (m + (m >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((m * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(inline="always")
def _keys(m, deck, buf):
    """``(cards, rank key, order key)`` of the hand whose card mask is ``m`` (hands.hand_keys)."""
    n = 0
    for c in range(deck):
        if (m >> np.uint64(c)) & np.uint64(1):
            buf[n] = c
            n += 1
    k, o = hand_keys(buf, n)
    return n, k, o


@njit(inline="always")
def _slot(keys, a, b2):
    mask = np.uint64(keys.shape[0] - 1)
    h = (a * np.uint64(0x9E3779B97F4A7C15)) ^ (b2 * np.uint64(0xC2B2AE3D27D4EB4F))
    h ^= h >> np.uint64(29)
    i = np.int64(h & mask)
    while True:
        if keys[i, 0] == _EMPTY or (keys[i, 0] == a and keys[i, 1] == b2):
            return i
        i = np.int64((np.uint64(i) + np.uint64(1)) & mask)


@njit(cache=False)  # a recursive kernel: numba's cache cannot reload it
def subgame_value(a, b, pot, r, lvl, keys, vals, stats, params, live_mask, buf):
    """The acting hand ``a``'s expected future net (chips) against ``b`` at pot ``pot``:
    ``r = 0`` before it chooses (fold or buy k), ``r >= 1`` with ``r`` paid cards still to come
    one at a time (``a`` is the lowest hand, the caller has settled that it may act)."""
    if stats[Stat.OVERFLOW] != 0:
        return 0.0
    b2 = b | (np.uint64(pot) << np.uint64(56))
    i = _slot(keys, a, b2)
    if keys[i, 0] == a and keys[i, 1] == b2:
        v = vals[i, r]
        if v == v:  # not NaN: solved already
            return v
    else:
        if (stats[Stat.COUNT] + 1) * _FILL_DEN > keys.shape[0] * _FILL_NUM:
            stats[Stat.OVERFLOW] = 1
            return 0.0
        keys[i, 0] = a
        keys[i, 1] = b2
        stats[Stat.COUNT] += 1
    limit, deck = params[Param.LIMIT], params[Param.DECK]
    unseen = live_mask & ~a & ~b
    n_unseen = popcount(unseen)
    if r == 0:
        na = popcount(a)
        room = min(limit - na, n_unseen)
        best = 0.0  # fold: the other hand takes the pot, nothing more paid
        for k in range(1, room + 1):
            v = subgame_value(a, b, pot + k, k, lvl + 1, keys, vals, stats, params, live_mask, buf) - k
            if v > best:  # ties to the cheaper action
                best = v
        vals[i, 0] = best  # slot i stays valid: the table never moves during a solve
        return best
    row = buf[lvl]
    nb, kb, ob = _keys(b, deck, row)
    na = 0
    for c in range(deck):  # a's cards, then each unseen card in the last place (the keys ignore order)
        if (a >> np.uint64(c)) & np.uint64(1):
            row[na] = c
            na += 1
    total = 0.0
    for c in range(deck):
        bit = np.uint64(1) << np.uint64(c)
        if not (unseen & bit):
            continue
        h = a | bit
        row[na] = c
        kh, oh = hand_keys(row, na + 1)
        if oh > ob:
            # lifted: b is the lowest now (engine._advance for two live hands)
            if params[Param.TIE_ENDS] != 0 and kh == kb:
                total += pot * 0.5
                continue
            room_b = min(limit - nb, n_unseen - 1)
            if room_b > 0:
                total += pot - subgame_value(b, h, pot, 0, lvl + 1, keys, vals, stats, params, live_mask, buf)
            elif kb == kh:
                total += pot * 0.5  # identical hands, the lowest stuck: split
            else:
                total += pot  # the stuck lowest hand is out, or loses the showdown: h takes the pot
        elif r > 1 and n_unseen > 1:
            total += subgame_value(h, b, pot, r - 1, lvl + 1, keys, vals, stats, params, live_mask, buf)
        # else: every paid card arrived and a is still the lowest: out, value 0
    v = total / n_unseen
    vals[i, r] = v
    return v


@njit(cache=False)
def _settled(a, b, pot, keys, vals, stats, params, live_mask, buf):
    """Value of hand ``a`` at a position of two live hands before anyone acts (either may be lowest)."""
    deck, limit = params[Param.DECK], params[Param.LIMIT]
    na, ka, oa = _keys(a, deck, buf[0])
    nb, kb, ob = _keys(b, deck, buf[0])
    if params[Param.TIE_ENDS] != 0 and ka == kb:
        return pot * 0.5
    n_unseen = popcount(live_mask & ~a & ~b)
    if oa < ob:
        room = min(limit - na, n_unseen)
        if room > 0:
            return subgame_value(a, b, pot, 0, 1, keys, vals, stats, params, live_mask, buf)
        return pot * 0.5 if ka == kb else 0.0
    room = min(limit - nb, n_unseen)
    if room > 0:
        return pot - subgame_value(b, a, pot, 0, 1, keys, vals, stats, params, live_mask, buf)
    return pot * 0.5 if ka == kb else float(pot)


@njit(cache=False)
def _solve_roots(a_masks, b_masks, pots, keys, vals, stats, params, live_mask, out):
    """``out[j]``: the value of hand ``a_masks[j]`` at the settled position (a, b, pot) (NaN on overflow)."""
    buf = np.zeros((MAX_LEVELS, 8), dtype=np.int64)
    for j in range(a_masks.shape[0]):
        v = _settled(a_masks[j], b_masks[j], pots[j], keys, vals, stats, params, live_mask, buf)
        out[j] = np.nan if stats[Stat.OVERFLOW] != 0 else v


@njit(cache=False)
def _action_values(a, b, pot, keys, vals, stats, params, live_mask, out):
    """``out[k]``: the acting hand ``a``'s value of each action (0 = fold, k = buy k) at pot ``pot``."""
    buf = np.zeros((MAX_LEVELS, 8), dtype=np.int64)
    unseen = live_mask & ~a & ~b
    room = min(params[Param.LIMIT] - popcount(a), popcount(unseen))
    out[0] = 0.0
    for k in range(1, room + 1):
        out[k] = subgame_value(a, b, pot + k, k, 1, keys, vals, stats, params, live_mask, buf) - k
    return room


def card_mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def exact_applies(rules: HomeRules, pos: Position) -> bool:
    """Whether :func:`solve_exact` takes ``pos``: exactly two live hands (any table size, the rest dead)."""
    return sum(h is not None for h in pos.hands) == 2


class ExactSolver:
    """A memo table of two-live-hand positions for one set of rules and one set of dead cards.

    ``capacity``: initial hash slots (a power of two); the table doubles and the solve is redone
    when it is 3/4 full, up to ``max_capacity`` (then :class:`RicochetError`).  Memory: 16 + 8 x hand
    limit bytes a slot (two uint64 keys, one float64 value per r = 0 .. limit - 1).
    """

    def __init__(self, rules: HomeRules, dead: int = 0, *, capacity: int = DEFAULT_CAPACITY,
                 max_capacity: int = _MAX_CAPACITY) -> None:
        check_instance(rules, HomeRules, "rules")
        max_capacity = check_whole(max_capacity, "max_capacity", low=16, high=_MAX_CAPACITY)
        capacity = check_whole(capacity, "capacity", low=16, high=max_capacity)
        if capacity & (capacity - 1) or max_capacity & (max_capacity - 1):
            raise RicochetError(f"capacity and max_capacity must be powers of two from 16 to {_MAX_CAPACITY:,} "
                                f"(2**31), got {capacity:,} and {max_capacity:,}")
        dead = check_whole(dead, "dead (a bit mask of cards)", low=0, high=(1 << rules.deck_size) - 1)
        self.rules, self.dead = rules, int(dead)
        self.max_capacity = max_capacity
        self.live_mask = np.uint64(((1 << rules.deck_size) - 1) & ~self.dead)
        self.params = np.zeros(len(Param), dtype=np.int64)
        self.params[Param.LIMIT] = rules.hand_limit
        self.params[Param.DECK] = rules.deck_size
        self.params[Param.TIE_ENDS] = int(rules.tie_ends)
        self.params[Param.SHOWDOWN] = int(rules.stuck == "showdown")
        self._allocate(capacity)

    def _allocate(self, capacity: int) -> None:
        self.keys = np.full((capacity, 2), _EMPTY, dtype=np.uint64)
        self.vals = np.full((capacity, self.rules.hand_limit), np.nan)
        self.stats = np.zeros(len(Stat), dtype=np.int64)

    @property
    def positions(self) -> int:
        """Memo entries: distinct (hand to act, other hand, pot)."""
        return int(self.stats[Stat.COUNT])

    @property
    def capacity(self) -> int:
        return int(self.keys.shape[0])

    def clear(self) -> None:
        """Empty the table (its slots stay allocated)."""
        self.keys.fill(_EMPTY)
        self.vals.fill(np.nan)
        self.stats[:] = 0

    def _run(self, fn, *args):
        while True:
            result = fn(*args, self.keys, self.vals, self.stats, self.params, self.live_mask, *self._out)
            if self.stats[Stat.OVERFLOW] == 0:
                return result
            if 2 * self.capacity > self.max_capacity:
                raise TableFull(f"the exact solver's table is full ({self.positions:,} positions, "
                                    f"{self.capacity:,} slots; max_capacity {self.max_capacity:,})")
            self._allocate(2 * self.capacity)  # the partial table is dropped: redo with room

    def _check_hands(self, a: int, b: int, pot: int, where: str) -> None:
        """One line naming the problem (RicochetError) for a position the kernel cannot take: a mask
        built with a narrow integer type (``1 << c`` on int8 cards overflows) would otherwise send the
        kernel round a loop that never ends."""
        limit, live = self.rules.hand_limit, int(self.live_mask)
        for name, m in (("a", a), ("b", b)):
            if m <= 0 or m & ~live:
                raise RicochetError(f"{where}: hand {name} mask {m:#x} is not a set of live cards of this deck "
                                    f"(cards 0..{self.rules.deck_size - 1}, none dead; build masks from Python ints)")
            if bin(m).count("1") > limit:
                raise RicochetError(f"{where}: hand {name} holds {bin(m).count('1')} cards, over the limit {limit}")
        if a & b:
            raise RicochetError(f"{where}: the two hands share cards (masks {a:#x}, {b:#x})")
        if pot < 0:
            raise RicochetError(f"{where}: the pot must be >= 0, got {pot}")

    def values(self, a_masks, b_masks, pots) -> np.ndarray:
        """Hand ``a``'s value (future net, chips) at each settled two-hand position (either may act)."""
        for i, (x, y, q) in enumerate(zip(a_masks, b_masks, pots)):
            self._check_hands(int(x), int(y), int(q), f"position {i}")
        a = np.asarray(a_masks, dtype=np.uint64)
        b = np.asarray(b_masks, dtype=np.uint64)
        p = np.asarray(pots, dtype=np.int64)
        out = np.empty(a.shape[0])
        self._out = (out,)
        self._run(_solve_roots, a, b, p)
        return out

    def action_values(self, a: int, b: int, pot: int) -> np.ndarray:
        """The acting (lowest) hand ``a``'s value of fold (index 0) and of buying k (index k)."""
        self._check_hands(int(a), int(b), int(pot), "action_values")
        out = np.full(8, np.nan)
        self._out = (out,)
        room = self._run(_action_values, np.uint64(a), np.uint64(b), np.int64(pot))
        return out[:room + 1].copy()


#: one set of shared tables per thread: the kernel releases the GIL, and two threads must never write
#: one table (simulate_games runs batches on threads)
_LOCAL = threading.local()
#: the shared tables' largest size (slots): 2**24 x 56 bytes = 0.94 GB at limit 5; when full they are emptied
SHARED_CAPACITY = 1 << 24


def exact_solver(rules: HomeRules, dead: int = 0) -> ExactSolver:
    """This thread's shared :class:`ExactSolver` for ``rules`` and ``dead`` (kept for reuse; the last 2)."""
    solvers = getattr(_LOCAL, "solvers", None)
    if solvers is None:
        solvers = _LOCAL.solvers = {}
    key = (rules, int(dead))
    solver = solvers.get(key)
    if solver is None:
        if len(solvers) >= 2:
            solvers.pop(next(iter(solvers)))
        # the module's capacities read now, not when ExactSolver was defined (tests shrink them)
        solver = solvers[key] = ExactSolver(rules, dead, capacity=min(DEFAULT_CAPACITY, SHARED_CAPACITY),
                                            max_capacity=SHARED_CAPACITY)
    return solver


def exact_buy(game) -> int | None:
    """The exact solver's buy (0 = fold) for the seat to act in a readable-engine game with two live hands
    (None when the tree does not fit the shared table even emptied)."""
    from ricochet_math.games.home.solver import position_of_game
    pos = position_of_game(game)
    if not exact_applies(game.rules, pos):
        return None
    try:
        return solve_exact(game.rules, pos).best  # the shared table, emptied once if earlier games filled it
    except TableFull:
        return None


def _dead_of(rules: HomeRules, pos: Position) -> int:
    live = 0
    for h in pos.hands:
        live |= card_mask(h or ())
    return ((1 << rules.deck_size) - 1) & ~pos.unseen & ~live


def _lowest(hand_a, hand_b) -> bool:
    oa = int(hand_keys(np.asarray(hand_a, dtype=np.int64), len(hand_a))[1])
    ob = int(hand_keys(np.asarray(hand_b, dtype=np.int64), len(hand_b))[1])
    return oa < ob


def solve_exact(rules: HomeRules, pos: Position, *, solver: ExactSolver | None = None,
                max_positions: int | None = None) -> Solution:
    """The exact expectimax at a position with two live hands (:func:`exact_applies`), in numba: the same
    :class:`~ricochet_math.games.home.solver.Solution` as :func:`~ricochet_math.games.home.solver.solve`.
    ``solver``: a table to use (default: this thread's shared one, :func:`exact_solver`, emptied and tried
    once more if earlier positions filled it); ``max_positions``:
    solve in a fresh table that holds at least that many positions and no more than twice as many
    (:class:`TableFull` beyond)."""
    check_instance(rules, HomeRules, "rules")
    from ricochet_math.games.home.solver import Position
    check_instance(pos, Position, "pos")
    check_instance(solver, ExactSolver, "solver", allow_none=True)
    if max_positions is not None:
        max_positions = check_whole(max_positions, "max_positions", high=_MAX_CAPACITY // 2)
    if not exact_applies(rules, pos):
        raise TableStateError("the exact solver takes positions with exactly two live hands")
    live = [s for s, h in enumerate(pos.hands) if h is not None]
    dead = _dead_of(rules, pos)
    shared = solver is None and max_positions is None
    if solver is None and max_positions is not None:
        slots = 16
        while slots * _FILL_NUM < max_positions * _FILL_DEN:
            slots *= 2
        solver = ExactSolver(rules, dead, capacity=min(slots, DEFAULT_CAPACITY), max_capacity=slots)
    elif solver is None:
        solver = exact_solver(rules, dead)
    elif solver.rules != rules or solver.dead != dead:
        raise TableStateError("the exact solver's table was built for other rules or other dead cards")
    s, o = live if _lowest(pos.hands[live[0]], pos.hands[live[1]]) else live[::-1]
    before = solver.positions
    # what the engine settles first (stuck, tie_ends) is refused as in solver.solve
    from ricochet_math.games.home.solver import HomeSolver
    who, room = HomeSolver(rules, 1).settle(pos.hands, pos.unseen)
    if room is None:
        raise TableStateError("the position is already over: nobody acts")
    assert who == s
    try:
        acts = solver.action_values(card_mask(pos.hands[s]), card_mask(pos.hands[o]), pos.pot)
    except TableFull:
        if not shared or before == 0:
            raise
        solver.clear()  # the shared table filled up with earlier positions: once more, from empty
        before = 0
        acts = solver.action_values(card_mask(pos.hands[s]), card_mask(pos.hands[o]), pos.pot)
    values = []
    for k, v in enumerate(acts):
        seat = [0.0] * rules.players
        seat[s], seat[o] = float(v), float(pos.pot - v)
        values.append(tuple(seat))
    best = max(range(len(values)), key=lambda k: (values[k][s], -k))
    return Solution(pos, s, tuple(values), best, solver.positions - before, True, None)


# ------------------------------------------------------------------ the game from the deal
@dataclass(frozen=True)
class DealValue:
    """One deal of a two-player game: the first seat's and second seat's cards, who acts first, and the
    exact value (expected net, chips, antes included) of each seat under optimal play by both."""

    first: tuple[int, ...]
    second: tuple[int, ...]
    first_acts: bool
    ev_first: float
    ev_second: float


@dataclass(frozen=True)
class DealTable:
    """The exact two-player game from the deal: every deal of ``start_cards`` cards to each of 2 seats,
    each deal's exact value under optimal play, and the table's size and time."""

    rules: HomeRules
    deals: tuple[DealValue, ...]
    positions: int
    seconds: float

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame([{"seat_1": format_cards(d.first), "seat_2": format_cards(d.second),
                              "first_to_act": 1 if d.first_acts else 2, "ev_seat_1": d.ev_first,
                              "ev_seat_2": d.ev_second} for d in self.deals])

    def _arrays(self):
        f = np.array([d.ev_first for d in self.deals])
        s = np.array([d.ev_second for d in self.deals])
        acts = np.array([d.first_acts for d in self.deals])
        return f, s, acts

    def by_order(self) -> pd.DataFrame:
        """Exact EV (chips per game, ante included) of the first and second to act, over all deals (equally
        likely), and each one's return per chip of ante (1 + EV)."""
        f, s, acts = self._arrays()
        first = np.where(acts, f, s).mean()
        second = np.where(acts, s, f).mean()
        return pd.DataFrame([{"order": "first to act", "ev": first, "return": 1 + first},
                             {"order": "second to act", "ev": second, "return": 1 + second}])

    def by_seat(self) -> pd.DataFrame:
        """Exact EV of seat 1 and seat 2 (dealing order) over all deals."""
        f, s, _ = self._arrays()
        return pd.DataFrame([{"seat": 1, "ev": f.mean()}, {"seat": 2, "ev": s.mean()}])

    def by_start_card(self) -> pd.DataFrame:
        """Exact EV of a seat by the rank of its (highest) starting card, over the deals solved, and how often
        that hand acts first."""
        rows = []
        for d in self.deals:
            for mine, other, ev, first in ((d.first, d.second, d.ev_first, d.first_acts),
                                           (d.second, d.first, d.ev_second, not d.first_acts)):
                rows.append({"rank": max(mine) >> 2, "ev": ev, "acts_first": first})
        df = pd.DataFrame(rows)
        out = df.groupby("rank").agg(ev=("ev", "mean"), acts_first=("acts_first", "mean")).reset_index()
        out["rank"] = out["rank"].map(lambda r: "23456789TJQKA"[r])
        return out

    def summary(self) -> str:
        o = self.by_order()
        return (f"{self.rules.summary()}\nExact optimal play over all {len(self.deals):,} deals "
                f"({self.positions:,} positions, {self.seconds:.0f} s): first to act EV {o.ev[0]:+.6f} chips, "
                f"second {o.ev[1]:+.6f} (return per chip of ante {o['return'][0]:.4%} vs {o['return'][1]:.4%})")


def solve_deals(rules: HomeRules, deals=None, *, solver: ExactSolver | None = None,
                progress=None) -> DealTable:
    """Solve two-player deals exactly.  ``deals``: pairs ``(seat 1 cards, seat 2 cards)``; default every
    ordered deal of one starting card each (52 x 51), or of two (as unordered pairs per seat).  The seats'
    values add up to 0 (the antes are in: EV = value at pot 2 less the ante)."""
    if rules.players != 2:
        raise RicochetError("solve_deals solves two-player games (rules.players = 2)")
    if deals is None:
        if rules.start_cards != 1:
            raise RicochetError("give the deals to solve for two starting cards (there are 1.6 million)")
        deals = [((a,), (b,)) for a in range(rules.deck_size) for b in range(rules.deck_size) if a != b]
    solver = solver or ExactSolver(rules)
    t0 = time.perf_counter()
    out = []
    for j, (x, y) in enumerate(deals):
        v = float(solver.values([card_mask(x)], [card_mask(y)], [2])[0])
        out.append(DealValue(tuple(x), tuple(y), _lowest(x, y), v - 1.0, (2 - v) - 1.0))
        if progress is not None:
            progress(j, len(deals), solver.positions, time.perf_counter() - t0)
    return DealTable(rules, tuple(out), solver.positions, time.perf_counter() - t0)

