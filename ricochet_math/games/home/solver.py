"""Expectimax over the face-up home game: exact values and best buys for any table.

Every card in play is face up, so a position is known to everyone: the live hands,
the pot and the unseen cards (the deck, in uniformly random order).  Each player, when
lowest, chooses fold or a number of cards to maximise **her own** expected future net
(chips won less chips paid from now on; what she has paid is sunk).  The values are
the backward induction of that perfect-information game with chance (a subgame-perfect
equilibrium; zero-sum minimax with chance for two players).  Ties between actions go
to the cheaper one (fold first), [reading].

* **Exact** (``depth=None``): the tree to the end of the game, memoised on the position
  (live hands, pot, unseen cards).  It is small near the end (few cards of room left)
  and grows fast with room: a node ``budget`` stops it (:class:`TreeTooLarge`).
* **Depth-limited** (``depth=D``): the same tree cut after ``D`` decisions, a cut position
  valued as a **showdown now** (the best hand takes the pot, no more payments).  Its
  error against the exact solver is measured by :func:`depth_error` where both run.

The ``optimal`` strategy (:mod:`ricochet_math.games.home.strategies`) solves each
decision exactly when the tree fits the budget and otherwise uses the pot-odds rule
(a sampled depth-one look-ahead); :func:`depth_error` measures that fallback too.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

from ricochet_math.arguments import check_instance, check_whole
from ricochet_math.errors import RicochetError, TableStateError, quote
from ricochet_math.evaluator.cards import parse_cards
from ricochet_math.games.home.hands import hand_keys, show
from ricochet_math.games.home.rules import HomeRules

__all__ = ["HomeSolver", "keys_of", "TreeTooLarge", "Position", "Solution", "solve", "best_buy", "position_of_game", "position",
           "DEFAULT_BUDGET", "depth_error"]

#: positions (memo entries) an exact solve may visit before giving up
DEFAULT_BUDGET = 200_000


#: the largest pot a position may hold (chips): far beyond any game's, small enough for the kernels' integers
MAX_POT = 10**6


def _check_position(pos) -> None:
    """A position's hands, pot and unseen mask, checked before any solver reads them (a negative mask made
    the solvers loop for ever): one :class:`TableStateError` line naming what is wrong."""
    hands = pos.hands
    if not isinstance(hands, tuple) or not 2 <= len(hands) <= 8:
        raise TableStateError(f"a position's hands must be a tuple of 2 to 8 seats, got {quote(hands, 80)}")
    seen = 0
    for s, h in enumerate(hands):
        if h is None:
            continue
        if not isinstance(h, tuple) or not 1 <= len(h) <= 8 or not all(
                isinstance(c, (int, np.integer)) and not isinstance(c, bool) and 0 <= c < 54 for c in h):
            raise TableStateError(f"seat {s + 1}'s hand must be a tuple of 1 to 8 cards 0..53, got {quote(h, 80)}")
        for c in h:
            if seen >> int(c) & 1:
                raise TableStateError(f"card {c} is in two hands of the position")
            seen |= 1 << int(c)
    if isinstance(pos.pot, bool) or not isinstance(pos.pot, (int, np.integer)) or not 0 <= pos.pot <= MAX_POT:
        raise TableStateError(f"a position's pot must be a whole number of chips from 0 to {MAX_POT:,}, "
                              f"got {quote(pos.pot)}")
    u = pos.unseen
    if isinstance(u, bool) or not isinstance(u, (int, np.integer)) or not 0 <= u < 1 << 54:
        raise TableStateError(f"a position's unseen cards must be a bit mask from 0 to 2**54 - 1, got {quote(u)}")
    if int(u) & seen:
        raise TableStateError("a card of a hand is also among the position's unseen cards")


class TreeTooLarge(RicochetError):
    """The exact tree of a position has more positions than the budget allows."""


@lru_cache(maxsize=1 << 20)
def keys_of(hand: tuple[int, ...]) -> tuple[int, int]:
    k, o = hand_keys(np.asarray(hand, dtype=np.int64), len(hand))
    return int(k), int(o)


@dataclass(frozen=True)
class Position:
    """A face-up position: ``hands[s]`` (sorted cards, or None for a seat that is out), the pot (chips) and
    the unseen cards as a bit mask (bit ``c`` set: card ``c`` is still in the deck)."""

    hands: tuple[tuple[int, ...] | None, ...]
    pot: int
    unseen: int

    def __post_init__(self) -> None:
        _check_position(self)

    def unseen_cards(self) -> list[int]:
        m, out = self.unseen, []
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        return out


@dataclass(frozen=True)
class Solution:
    """The acting seat's choices at a position: the expected future net of every seat for each action
    (``values[k]``: 0 = fold, k = buy k), the best action, positions visited, and whether it is exact."""

    position: Position
    actor: int
    values: tuple[tuple[float, ...], ...]
    best: int
    nodes: int
    exact: bool
    depth: int | None

    def to_frame(self) -> pd.DataFrame:
        rows = []
        for k, v in enumerate(self.values):
            row = {"action": "fold" if k == 0 else f"buy {k}", "actor_ev": v[self.actor],
                   "best": k == self.best}
            row.update({f"seat_{s + 1}_ev": x for s, x in enumerate(v) if self.position.hands[s] is not None})
            rows.append(row)
        return pd.DataFrame(rows)

    def summary(self) -> str:
        kind = "exact" if self.exact else f"depth {self.depth} (showdown at the cut)"
        best = "fold" if self.best == 0 else f"buy {self.best}"
        return (f"Seat {self.actor + 1} ({show(self.position.hands[self.actor])}) acts, pot {self.position.pot}: "
                f"best {best}, EV {self.values[self.best][self.actor]:+.4f} chips from here ({kind}, "
                f"{self.nodes:,} positions)")


class HomeSolver:
    def __init__(self, rules: HomeRules, budget: int) -> None:
        self.rules, self.budget = rules, budget
        self.memo: dict = {}
        self.buy_memo: dict = {}
        self.n = rules.players

    # what the engine settles without a decision (engine._advance)
    def settle(self, hands, unseen: int):
        live = [s for s in range(self.n) if hands[s] is not None]
        if len(live) == 1:
            return live, None
        ranks = {s: keys_of(hands[s])[0] for s in live}
        best = max(ranks.values())
        if self.rules.tie_ends and min(ranks.values()) == best:
            return live, None
        low = min(live, key=lambda s: keys_of(hands[s])[1])
        room = min(self.rules.hand_limit - len(hands[low]), unseen.bit_count())
        if room > 0:
            return low, room
        if ranks[low] == best or self.rules.stuck == "showdown":
            return [s for s in live if ranks[s] == best], None
        return self.settle(hands[:low] + (None,) + hands[low + 1:], unseen)

    def showdown(self, hands, pot):
        live = [s for s in range(self.n) if hands[s] is not None]
        best = max(keys_of(hands[s])[0] for s in live)
        win = [s for s in live if keys_of(hands[s])[0] == best]
        return tuple(pot / len(win) if s in win else 0.0 for s in range(self.n))

    def value(self, hands, pot: int, unseen: int, depth):
        key = (hands, pot, unseen, depth)
        got = self.memo.get(key)
        if got is not None:
            return got[0]
        if len(self.memo) + len(self.buy_memo) >= self.budget:
            raise TreeTooLarge(f"the position needs more than {self.budget:,} positions to solve exactly")
        who, room = self.settle(hands, unseen)
        if room is None:
            v = tuple(pot / len(who) if s in who else 0.0 for s in range(self.n))
            self.memo[key] = (v, None, None)
            return v
        if depth == 0:
            v = self.showdown(hands, pot)
            self.memo[key] = (v, None, None)
            return v
        values = self.choices(hands, pot, unseen, depth, who, room)
        best = max(range(len(values)), key=lambda k: (values[k][who], -k))
        self.memo[key] = (values[best], best, values)
        return values[best]

    def choices(self, hands, pot, unseen, depth, low, room):
        nxt = None if depth is None else depth - 1
        target = min(keys_of(hands[s])[1] for s in range(self.n) if hands[s] is not None and s != low)
        out = [self.value(hands[:low] + (None,) + hands[low + 1:], pot, unseen, nxt)]
        for k in range(1, room + 1):
            v = self.deal(hands, low, hands[low], k, pot + k, unseen, target, nxt)
            out.append(tuple(x - k if s == low else x for s, x in enumerate(v)))
        return out

    def deal(self, hands, low, hand, left: int, pot: int, unseen: int, target: int, depth):
        """Expected future values while the dealer gives ``low`` up to ``left`` more cards (paid already)."""
        key = (hands, low, hand, left, pot, unseen, target, depth)
        got = self.buy_memo.get(key)
        if got is not None:
            return got
        total = np.zeros(self.n)
        m, count = unseen, unseen.bit_count()
        while m:
            bit = m & -m
            c = bit.bit_length() - 1
            m ^= bit
            h = tuple(sorted(hand + (c,)))
            rest = unseen ^ bit
            if keys_of(h)[1] > target:
                v = self.value(hands[:low] + (h,) + hands[low + 1:], pot, rest, depth)
            elif left > 1 and rest:
                v = self.deal(hands, low, h, left - 1, pot, rest, target, depth)
            else:
                v = self.value(hands[:low] + (None,) + hands[low + 1:], pot, rest, depth)
            total += v
        v = tuple(total / count)
        self.buy_memo[key] = v
        return v


def position(rules: HomeRules, hands, pot: int, dead=()) -> Position:
    """A position from card text: ``hands`` one per seat (None or ``""`` for a seat that is out), ``dead``
    the face-up discards (folded or beaten hands), ``pot`` in chips."""
    check_instance(rules, HomeRules, "rules")
    if isinstance(hands, (str, bytes)) or not isinstance(hands, (list, tuple)):
        raise TableStateError(f"hands must be a list of one hand per seat (card text), got {quote(hands)}")
    used: dict[int, str] = {}
    out = []
    for s, text in enumerate(hands):
        if text is None or not str(text).strip():
            out.append(None)
            continue
        cards = parse_cards(text, count=range(1, rules.hand_limit + 1), where=f"seat {s + 1}", dead=used,
                            jokers=rules.jokers)
        for c in cards:
            used[int(c)] = f"seat {s + 1}"
        out.append(tuple(sorted(int(c) for c in cards)))
    for c in (parse_cards(dead, where="the dead cards", dead=used, jokers=rules.jokers) if dead else []):
        used[int(c)] = "the dead cards"
    if len(out) != rules.players:
        raise TableStateError(f"{len(out)} hands for {rules.players} players (give \"\" for a seat that is out)")
    if sum(h is not None for h in out) < 2:
        raise TableStateError("a position needs at least two live hands")
    if isinstance(pot, bool) or not isinstance(pot, int) or not rules.players <= pot <= MAX_POT:
        raise TableStateError(f"the pot holds at least the {rules.players} antes and at most {MAX_POT:,} chips, "
                              f"got {quote(pot)}")
    unseen = ((1 << rules.deck_size) - 1) & ~sum(1 << c for c in used)
    return Position(tuple(out), pot, unseen)


def position_of_game(game) -> Position:
    """The position of a readable-engine game (:class:`~ricochet_math.games.home.engine.HomeGame`)."""
    hands = tuple(tuple(sorted(game.hands[s])) if game.active[s] else None for s in range(game.rules.players))
    unseen = sum(1 << c for c in game.deck[game.next_card:])
    return Position(hands, game.pot, unseen)


def solve(rules: HomeRules, pos: Position, *, depth: int | None = None, budget: int = DEFAULT_BUDGET) -> Solution:
    """Expectimax at ``pos``: exact (``depth=None``) or cut after ``depth`` decisions (module docstring).
    ``depth``: 1 to 100 decisions; ``budget``: 1 to 10**9 positions (the memo's size: about 200 bytes each)."""
    check_instance(rules, HomeRules, "rules")
    check_instance(pos, Position, "pos")
    if depth is not None:
        depth = check_whole(depth, "depth", high=100)
    budget = check_whole(budget, "budget", high=10**9)
    if len(pos.hands) != rules.players or sum(h is not None for h in pos.hands) < 2:
        raise TableStateError(f"a position to solve has {rules.players} seats and at least two live hands")
    solver = HomeSolver(rules, budget)
    who, room = solver.settle(pos.hands, pos.unseen)
    if room is None:
        raise TableStateError("the position is already over: nobody acts")
    values = solver.choices(pos.hands, pos.pot, pos.unseen, depth, who, room)
    best = max(range(len(values)), key=lambda k: (values[k][who], -k))
    return Solution(pos, who, tuple(values), best, len(solver.memo) + len(solver.buy_memo), depth is None, depth)


def best_buy(game, depth: int | None = None, budget: int = DEFAULT_BUDGET) -> int | None:
    """The solver's buy for the seat to act in ``game`` (None when the exact tree exceeds the budget)."""
    try:
        return solve(game.rules, position_of_game(game), depth=depth, budget=budget).best
    except TreeTooLarge:
        return None


def depth_error(rules: HomeRules, positions, depths=(1, 2), *, budget: int = DEFAULT_BUDGET,
                others=None) -> pd.DataFrame:
    """How far a cut search (and any ``others``: name -> function(position) -> buy) is from the exact
    solver on ``positions`` where the exact tree fits: the share of decisions that agree, and the mean and
    largest **regret** (the acting seat's exact EV of the best action less that of the chosen one, chips)."""
    rows = {}
    for pos in positions:
        try:
            exact = solve(rules, pos, budget=budget)
        except TreeTooLarge:
            continue
        ev = [v[exact.actor] for v in exact.values]
        picks = {f"depth {d}": solve(rules, pos, depth=d, budget=budget).best for d in depths}
        for name, fn in (others or {}).items():
            picks[name] = min(fn(pos), len(ev) - 1)
        for name, k in picks.items():
            rows.setdefault(name, []).append((k == exact.best, ev[exact.best] - ev[k]))
    return pd.DataFrame([{"method": name, "positions": len(r), "agree": np.mean([a for a, _ in r]),
                          "mean_regret": np.mean([x for _, x in r]), "max_regret": np.max([x for _, x in r])}
                         for name, r in rows.items()])
