"""Strategies of the home game: how many cards the lowest hand buys (0 = fold).

A strategy sees what every player sees (the game is face up): its own hand, the
hand it must beat (the lowest of the others, by order key), the pot, the most it
may buy (``room``: the hand limit less its cards, and no more than the deck holds),
the number of hands left and the unseen cards (the deck; folded hands are face-up
discards).  Each has a numba twin (:func:`decide`) that the batch kernel calls, and
a readable ``decide`` here; the tests check they agree decision by decision.

* ``one``: always buy one card (the cheapest try).
* ``limit``: always buy up to the hand limit (the surest escape).
* ``min-lift``: buy the fewest cards with which *some* draw from the unseen cards lifts
  the hand; fold if even ``room`` cards cannot.
* ``pot-odds`` (``pot-odds:THETA``, default 1): buy the ``k`` that maximises
  ``THETA * p_k * (pot + k) / (hands left - 1) - k`` and fold when no ``k`` makes it
  positive: ``p_k`` is the chance that ``k`` cards lift the hand, from 128 random draws
  of the unseen cards (a splitmix64 stream seeded per game, the same in both twins),
  and ``(pot + k) / (hands left - 1)`` values an escape as an equal share of the pot
  among the survivors.  A depth-one look-ahead; the solver's expectimax is the exact
  version.
* ``optimal`` (``optimal:ROOM``, default 2): the exact expectimax when the live hands have at
  most ROOM cards of room between them (the endgame, where the tree is small): with two live
  hands (every two-player position) the compiled solver of :mod:`ricochet_math.games.home.exact`,
  which takes room up to ``max(ROOM, EXACT_TWO_HAND_ROOM)`` (4); with more, the readable
  :mod:`ricochet_math.games.home.solver`; else the pot-odds rule (THETA 1); readable engine only.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.arguments import number_from_text, spec_parts, whole_from_text
from ricochet_math.errors import RicochetError, StrategyError, quote
from ricochet_math.games.home.hands import hand_keys, next_combination
from ricochet_math.random_streams import py_splitmix_next, splitmix_next

__all__ = ["pot_odds_buy", "ONE", "LIMIT", "MIN_LIFT", "POT_ODDS", "OPTIMAL", "CODES", "HomeStrategy", "View", "parse_strategy",
           "parse_strategies", "decide", "SAMPLES", "EXACT_TWO_HAND_ROOM", "splitmix64", "kernel_strategies"]

ONE, LIMIT, MIN_LIFT, POT_ODDS, OPTIMAL = 0, 1, 2, 3, 4
CODES = {"one": ONE, "limit": LIMIT, "min-lift": MIN_LIFT, "pot-odds": POT_ODDS, "optimal": OPTIMAL}
#: draws of the unseen cards behind each pot-odds decision
SAMPLES = 128
#: the optimal strategy with two live hands: the compiled exact solver (games/home/exact.py) decides whenever
#: the two hands have at most this many cards of room between them (a two-player game's whole tree from the
#: deal has room 8 and is far beyond one decision's time; room 4 takes about 0.1 s, room 5 1-20 s under load,
#: room 6 over a minute: docs/home-game.md; optimal:ROOM raises it)
EXACT_TWO_HAND_ROOM = 4


@dataclass(frozen=True)
class View:
    """What the lowest hand sees when it must act (order keys: :mod:`ricochet_math.games.home.hands`)."""

    hand: tuple[int, ...]
    target: int          # the order key to beat: the lowest of the other hands
    pot: int             # chips in the pot before this buy
    room: int            # the most cards it may buy (>= 1)
    active: int          # hands still in, this one included
    unseen: tuple[int, ...]  # the deck's cards, sorted
    state: object = None  # the readable engine's game, for the optimal strategy


@dataclass(frozen=True)
class HomeStrategy:
    """A named strategy: ``code`` (the kernel's), ``param`` (pot-odds' THETA, optimal's depth)."""

    name: str
    code: int
    param: float = 1.0

    def decide(self, view: View, rng: list[int]) -> int:
        """Cards to buy (0 = fold); ``rng`` is the per-game splitmix64 state (a one-item list, advanced)."""
        if self.code == ONE:
            return 1
        if self.code == LIMIT:
            return view.room
        if self.code == MIN_LIFT:
            for k in range(1, view.room + 1):
                if any(_lifts(view.hand + extra, view.target) for extra in combinations(view.unseen, k)):
                    return k
            return 0
        if self.code == POT_ODDS:
            return pot_odds_buy(view, self.param, rng)
        if self.code == OPTIMAL:
            # deferred imports: the solvers read the engine's game
            from ricochet_math.games.home.exact import exact_buy
            from ricochet_math.games.home.solver import best_buy
            game = view.state
            live = game.live()
            room = sum(game.rules.hand_limit - len(game.hands[s]) for s in live)
            if len(live) == 2 and room <= max(self.param, EXACT_TWO_HAND_ROOM):
                k = exact_buy(game)
            else:
                k = best_buy(game) if room <= self.param else None
            return pot_odds_buy(view, 1.0, rng) if k is None else k
        raise AssertionError(self.code)

    @property
    def in_kernel(self) -> bool:
        return self.code != OPTIMAL


def _lifts(cards, target: int) -> bool:
    return int(hand_keys(np.asarray(cards, dtype=np.int64), len(cards))[1]) > target


def splitmix64(rng: list[int]) -> int:
    """One splitmix64 output (:func:`~ricochet_math.random_streams.py_splitmix_next`); ``rng[0]`` is the
    state (advanced)."""
    rng[0], out = py_splitmix_next(rng[0])
    return out


def pot_odds_buy(view: View, theta: float, rng: list[int]) -> int:
    room = view.room
    hits = [0] * (room + 2)  # hits[L]: draws whose first lifting prefix has L cards (room + 1: none)
    pool = list(view.unseen)
    for _ in range(SAMPLES):
        draw = pool[:]
        first = room + 1
        for j in range(room):
            m = len(draw) - j
            pick = j + (((splitmix64(rng) >> 32) * m) >> 32)
            draw[j], draw[pick] = draw[pick], draw[j]
            if first > room and _lifts(view.hand + tuple(draw[:j + 1]), view.target):
                first = j + 1
        hits[first] += 1
    best, best_value, escaped = 0, 0.0, 0
    for k in range(1, room + 1):
        escaped += hits[k]
        value = theta * (escaped / SAMPLES) * (view.pot + k) / (view.active - 1) - k
        if value > best_value:
            best, best_value = k, value
    return best


def parse_strategy(text: str) -> HomeStrategy:
    """``one``, ``limit``, ``min-lift``, ``pot-odds[:THETA]`` or ``optimal[:ROOM]``."""
    name, args = spec_parts(text, "home strategy", error=StrategyError)  # 'pot-odds:' is refused, not the default
    if name not in CODES:
        raise StrategyError(f"unknown home strategy {quote(text)}: choose one of {', '.join(CODES)} "
                            "(pot-odds:THETA, optimal:ROOM)")
    code = CODES[name]
    param = 1.0 if code == POT_ODDS else 2.0 if code == OPTIMAL else 0.0
    if args:
        if code not in (POT_ODDS, OPTIMAL):
            raise StrategyError(f"home strategy {quote(name)} takes no parameter, got {quote(text)}")
        if len(args) > 1:
            raise StrategyError(f"home strategy {quote(text)}: {name} takes one parameter, got {len(args)}")
        what = f"home strategy {quote(text)}: {'THETA' if code == POT_ODDS else 'ROOM'}"
        try:
            param = (number_from_text(args[0], what) if code == POT_ODDS
                     else float(whole_from_text(args[0], what, grouping=False)))
        except RicochetError as exc:
            raise StrategyError(str(exc)) from None
        if code == POT_ODDS and not 0.0 < param <= 100.0:
            raise StrategyError(f"home strategy {quote(text)}: THETA must be above 0 and at most 100")
        if code == OPTIMAL and not 0 <= param <= 8:
            raise StrategyError(f"home strategy {quote(text)}: ROOM must be a whole number from 0 to 8")
    return HomeStrategy(text.strip(), code, param)


def parse_strategies(names, players: int) -> tuple[HomeStrategy, ...]:
    """One strategy for every seat (one name) or one per seat."""
    if isinstance(names, HomeStrategy):
        names = [names]
    elif not isinstance(names, str) and not isinstance(names, (list, tuple)):
        raise StrategyError(f"give one home strategy name or one per seat ({players}), got {quote(names)}")
    names = [names] if isinstance(names, str) else list(names)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise StrategyError(f"give one home strategy or one per seat ({players}), got {len(names)}")
    return tuple(parse_strategy(n) for n in names)


def kernel_strategies(strategies) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's ``(codes int64[N], params float64[N])``; the optimal strategy is refused."""
    if any(not s.in_kernel for s in strategies):
        raise StrategyError("the optimal strategy runs on the readable engine only (use play_games or "
                            "simulate_optimal)")
    return (np.array([s.code for s in strategies], dtype=np.int64),
            np.array([s.param for s in strategies], dtype=np.float64))


# ------------------------------------------------------------------ kernel twins
@njit(inline="always")
def _splitmix(rng):
    rng[0], out = splitmix_next(rng[0])
    return out


@njit(inline="always")
def _lifts_k(hand, n, target):
    return hand_keys(hand, n)[1] > target


@njit
def _can_lift(hand, n, k, target, unseen, n_unseen, idx):
    """Whether some ``k`` of the unseen cards lift the hand (combinations in order, early exit)."""
    for i in range(k):
        idx[i] = i
    while True:
        for i in range(k):
            hand[n + i] = unseen[idx[i]]
        if _lifts_k(hand, n + k, target):
            return True
        if not next_combination(idx, k, n_unseen):
            return False


@njit
def decide(code, param, hand, n, target, pot, room, active, unseen, n_unseen, rng, work):
    """The numba twin of :meth:`HomeStrategy.decide`.  ``hand``: int64[>= n + room] (its tail is scratch);
    ``unseen``: int64 sorted, first ``n_unseen``; ``rng``: uint64[1]; ``work``: int64 scratch >= 64."""
    if code == ONE:
        return 1
    if code == LIMIT:
        return room
    if code == MIN_LIFT:
        for k in range(1, room + 1):
            if _can_lift(hand, n, k, target, unseen, n_unseen, work):
                return k
        return 0
    # POT_ODDS
    hits = np.zeros(room + 2, dtype=np.int64)
    draw = work
    for _ in range(SAMPLES):
        for i in range(n_unseen):
            draw[i] = unseen[i]
        first = room + 1
        for j in range(room):
            m = np.uint64(n_unseen - j)
            pick = j + np.int64(((_splitmix(rng) >> np.uint64(32)) * m) >> np.uint64(32))
            c = draw[j]
            draw[j] = draw[pick]
            draw[pick] = c
            if first > room:
                hand[n + j] = draw[j]
                if _lifts_k(hand, n + j + 1, target):
                    first = j + 1
            # once lifted the rest of the draw only advances the generator, as in the readable twin
        hits[first] += 1
    best, best_value, escaped = 0, 0.0, 0
    for k in range(1, room + 1):
        escaped += hits[k]
        value = param * (escaped / SAMPLES) * (pot + k) / (active - 1) - k
        if value > best_value:
            best, best_value = k, value
    return best
