"""Strategies: who folds and who plays, readable for the reference engine, integers for numba.

A strategy decides **fold or play** for the acting seat from the whole table,
which is face up (spec, "A round", step 5): the dealer's five cards and
whether she is kicked out, the five-card hand the seat must reach, the pot,
every seat's two cards and the acting order, the cards already seen.  That
view is a :class:`TableState`.

Every strategy exists twice and the tests check both agree on every decision:

* a :class:`Strategy` object with a readable :meth:`Strategy.decide` for the
  reference engine (:mod:`ricochet_math.engine.round`);
* an integer ``code`` plus a ``float64`` parameter row, dispatched by the
  numba kernel :func:`decide` inside the fast engine
  (:mod:`ricochet_math.engine.kernel`).

Built-in strategies (resolve a name with :func:`get_strategy`; the list with
:func:`strategy_names`):

==========================  ===================================================
``always``                  always play.
``never``                   always fold (a test device: every branch where the
                            house takes the pot or a seat wins automatically).
``pair``                    play a pair or better, fold everything else.
``beats:XY``                play when the two-card hand strictly beats the
                            pattern ``XY`` (two ranks such as ``A9`` or ``77``,
                            or one rank such as ``A``), by the kicker rule:
                            ``beats:A9`` plays A-T, A-J, ..., A-K and any pair.
``timid``                   weak player, too tight: plays only a pair, A-K or
                            A-Q, whatever the table shows.
``chaser``                  weak player, too loose: plays everything except
                            when the hand to beat is three of a kind or better
                            and her two cards are unpaired.
``dealer-only``             weak player who thinks the game is against the
                            dealer: plays when the dealer is kicked out, else
                            only when her two cards match or beat the dealer's
                            top two ranked cards (the Quickdraw "top-cards"
                            comparison); ignores the other players entirely.
``bonus-hunter``            weak player who plays for the bonus table, not the
                            pot: plays pairs, suited cards and cards that can
                            share a straight (ranks at most 4 apart, the ace
                            also low); folds everything else.
``perfect``                 perfect play (spec, "Money, strategy and the
                            figures"), from :func:`ricochet_math.strategies.perfect.perfect_decision`.
``perfect-no-bonus``,       the other readings of the spec's "Strategy
``myopic``, ...             readings", the same kernel with another
                            ``variant``: ``myopic``, ``pot-odds-now``,
                            ``pot-odds-final``, each also ``-no-bonus``.
``A-vs-B``                  best response: this seat decides by reading ``A``
                            while modelling every later seat as reading ``B``
                            (``perfect-vs-pot-odds-final``: the skilled seat at
                            a table of publisher-like players).
==========================  ===================================================

The weak-player profiles are models of typical mistakes, not measured
behaviour: ``timid`` folds too much, ``chaser`` plays too much, ``dealer-only``
and ``bonus-hunter`` look at the wrong thing.

>>> get_strategy("beats:A9").decide_cards(("Ah", "Tc"))
True
>>> get_strategy("nevr")
Traceback (most recent call last):
...
ricochet_math.errors.StrategyError: unknown strategy 'nevr'; did you mean 'never'? ...
"""
from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ricochet_math.strategies import perfect
from ricochet_math._numba import njit
from ricochet_math.evaluator.cards import RANKS, parse_cards
from ricochet_math.errors import StrategyError
from ricochet_math.evaluator.evaluation import (
    FIVE_CARD_KEY, ORDER_KEY, PARTIAL_BASE, TWO_CARD_KEY, category_of, partial_key,
)
from ricochet_math.evaluator.tables import NUM_VALUES, THREE_OF_A_KIND

__all__ = [
    "TableState",
    "Strategy",
    "get_strategy",
    "strategy_names",
    "resolve_strategies",
    "decide",
    "simple_decide",
    "kernel_strategy_arrays",
    "solver_ready",
    "top_cards_key",
    "TWO_CARD_KEY",
    "ORDER_KEY",
    "FIVE_CARD_KEY",
    "N_PARAMS",
    "ALWAYS", "NEVER", "PAIR", "BEATS", "TIMID", "CHASER", "DEALER_ONLY", "BONUS_HUNTER", "SOLVER",
]

# ----------------------------------------------------------------------------
# The Quickdraw comparison on the evaluator's key tables
# ----------------------------------------------------------------------------

_PK_UNIT1 = PARTIAL_BASE ** 4  # the place value of the first ranked card's digit
_PK_UNIT2 = PARTIAL_BASE ** 3  # ... and of the second's


@njit(inline="always")
def top_cards_key(key5, key2):
    """``key5`` (a five-card key) cut to as many ranked cards as the two-card hand ``key2`` holds.

    A two-card pair is one rank group, two unpaired cards are two (its second
    digit is then non-zero); the rest of the five-card hand's ranked cards are
    dropped, so two-card A-K ties A-K-Q-9-7 (spec, "Side bets", Quickdraw
    ``top-cards``).
    """
    unit = _PK_UNIT1 if (key2 // _PK_UNIT2) % PARTIAL_BASE == 0 else _PK_UNIT2
    return (key5 // unit) * unit


# ----------------------------------------------------------------------------
# What a strategy sees
# ----------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class TableState:
    """The face-up table when ``seat`` must fold or play (spec, "A round", step 5).

    Cards are kernel integers (``rank*4 + suit``); values are dense five-card
    values ``0..7461``; money is in ante units.

    * ``order``: seats in acting order (lowest two-card hand first);
      ``position``: index of ``seat`` in ``order``.
    * ``best_value``: the five-card value the seat must reach, ``-1`` when
      nothing stands (dealer kicked out and no player standing).
      ``dealer_in``: the dealer holds it (she loses ties when the option
      ``dealer_loses_ties`` is on); otherwise ``n_tied`` players hold it.
    * ``unseen``: ``uint8[52]``, 1 for a card nobody has seen (the deck the
      draws come from), 0 for cards on the table or folded.
    * ``bonus_by_value``: ``float64[7462]`` bonus by final value;
      ``options``: ``int64[5]`` in :mod:`ricochet_math.strategies.perfect`'s ``OPT_*``
      layout (the last entry is the dealer's own value, ``dealer_value``).
    """

    n_players: int
    seat: int
    position: int
    order: tuple[int, ...]
    holes: tuple[tuple[int, int], ...]
    dealer_cards: tuple[int, ...]
    dealer_value: int
    dealer_kicked: bool
    dealer_in: bool
    best_value: int
    n_tied: int
    standing: tuple[int, ...]
    pot: int
    unseen: np.ndarray
    bonus_by_value: np.ndarray
    options: np.ndarray

    @property
    def hole(self) -> tuple[int, int]:
        """The acting seat's two cards."""
        return self.holes[self.seat]

    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats still to act after this one, in order."""
        return self.order[self.position + 1:]

    def hole_array(self) -> np.ndarray:
        """``int64[N, 2]`` two-card hands by seat (the kernels' ``hole``)."""
        return np.array(self.holes, dtype=np.int64).reshape(self.n_players, 2)

    def order_array(self) -> np.ndarray:
        """``int64[N]`` seats in acting order (the kernels' ``order``)."""
        return np.array(self.order, dtype=np.int64)

    def dealer_key(self) -> int:
        """Kicker-rule key of the dealer's five cards."""
        return int(FIVE_CARD_KEY[self.dealer_value])


# ----------------------------------------------------------------------------
# Strategy objects and the registry
# ----------------------------------------------------------------------------

ALWAYS, NEVER, PAIR, BEATS, TIMID, CHASER, DEALER_ONLY, BONUS_HUNTER, SOLVER = range(9)
N_PARAMS = 2  # float64 parameters per seat in the kernels' params rows

# The readings of the perfect-play kernel by name (perfect.READING_NAMES order).
_SOLVER_READINGS = {name: code for code, name in enumerate(perfect.READING_NAMES)}


@dataclass(frozen=True)
class Strategy:
    """A named fold-or-play rule with its kernel form (``code``, ``params``).

    ``decide(state)`` is the readable rule the reference engine calls;
    ``params`` fill the seat's ``float64[N_PARAMS]`` row for :func:`decide`.
    ``uses_solver`` marks the readings that call the perfect-play kernel
    (slow per decision compared with the table-free rules).
    """

    name: str
    code: int
    params: tuple[float, ...] = ()
    description: str = field(default="", compare=False)

    @property
    def uses_solver(self) -> bool:
        return self.code == SOLVER

    def param_row(self) -> np.ndarray:
        """The kernel parameter row, ``float64[N_PARAMS]``."""
        row = np.zeros(N_PARAMS, dtype=np.float64)
        row[: len(self.params)] = self.params
        return row

    def decide(self, state: TableState) -> bool:
        """True to play, False to fold: the readable twin of :func:`decide`."""
        c0, c1 = state.hole
        pair = (c0 >> 2) == (c1 >> 2)
        key = int(TWO_CARD_KEY[c0 * 52 + c1])
        code = self.code
        if code == ALWAYS:
            return True
        if code == NEVER:
            return False
        if code == PAIR:
            return pair
        if code == BEATS:
            return key > self.params[0]
        if code == TIMID:
            return pair or key >= _TIMID_KEY
        if code == CHASER:
            hopeless = state.best_value >= 0 and int(category_of(state.best_value)) >= THREE_OF_A_KIND
            return pair or not hopeless
        if code == DEALER_ONLY:
            if state.dealer_kicked:
                return True
            return key >= int(top_cards_key(state.dealer_key(), key))
        if code == BONUS_HUNTER:
            return pair or (c0 & 3) == (c1 & 3) or _can_share_straight(c0 >> 2, c1 >> 2)
        if code == SOLVER:
            return bool(perfect.perfect_decision(
                int(self.params[0]), state.unseen, state.hole_array(), state.order_array(),
                state.position, state.best_value, state.dealer_in, state.n_tied, state.pot,
                state.dealer_kicked, state.bonus_by_value, state.options,
            ))
        raise StrategyError(f"strategy {self.name!r} has unknown code {code}")

    def decide_cards(self, hole) -> bool:
        """The decision with nothing else on the table known to matter: a dealer
        kicked out, nothing to beat.  Only for the hand-only rules (``always``,
        ``pair``, ``beats:..``, ``timid``, ``bonus-hunter``); for illustration."""
        cards = parse_cards(list(hole) if not isinstance(hole, str) else hole, count=2)
        c0, c1 = int(cards[0]), int(cards[1])
        state = TableState(
            n_players=1, seat=0, position=0, order=(0,), holes=((c0, c1),), dealer_cards=(),
            dealer_value=0, dealer_kicked=True, dealer_in=False, best_value=-1, n_tied=0,
            standing=(), pot=2, unseen=np.ones(52, np.uint8), bonus_by_value=np.zeros(NUM_VALUES),
            options=np.zeros(5, np.int64),
        )
        return self.decide(state)


def _can_share_straight(r0: int, r1: int) -> bool:
    """Two ranks 0..12 (deuce..ace) that fit in one five-card straight (ace high or low)."""
    if r0 == r1:
        return False
    if abs(r0 - r1) <= 4:
        return True
    low0 = -1 if r0 == 12 else r0  # the ace as a one
    low1 = -1 if r1 == 12 else r1
    return abs(low0 - low1) <= 4


def _two_rank_key(text: str, where: str) -> int:
    """Kicker-rule key of a rank pattern of one or two ranks (``A9``, ``77``, ``A``, ``10``)."""
    t = text.strip().upper().replace("10", "T")
    if not 1 <= len(t) <= 2 or any(ch not in RANKS for ch in t):
        raise StrategyError(
            f"bad hand pattern {text!r} in {where}: write one or two ranks from {RANKS}, e.g. beats:A9 or beats:77"
        )
    ranks = [RANKS.index(ch) for ch in t]
    cards = np.array([r * 4 + i for i, r in enumerate(ranks)], dtype=np.int64)
    return int(partial_key(cards, len(cards)))


_TIMID_KEY = _two_rank_key("AQ", "timid")

_FIXED = {
    "always": Strategy("always", ALWAYS, (), "always play"),
    "never": Strategy("never", NEVER, (), "always fold (test device)"),
    "pair": Strategy("pair", PAIR, (), "play a pair or better"),
    "timid": Strategy("timid", TIMID, (), "weak, too tight: plays only a pair, A-K or A-Q"),
    "chaser": Strategy(
        "chaser", CHASER, (),
        "weak, too loose: plays unless the hand to beat is three of a kind or better and her cards are unpaired",
    ),
    "dealer-only": Strategy(
        "dealer-only", DEALER_ONLY, (),
        "weak, dealer-fixated: plays when the dealer is kicked out or her two cards match or beat the dealer's top two",
    ),
    "bonus-hunter": Strategy(
        "bonus-hunter", BONUS_HUNTER, (),
        "weak, bonus-fixated: plays pairs, suited cards and straight-connected cards (ranks at most 4 apart)",
    ),
}
for _name, _variant in _SOLVER_READINGS.items():
    _FIXED[_name] = Strategy(_name, SOLVER, (float(_variant),), f"perfect-play kernel, reading {_name}")
_ALIASES = {"always-play": "always", "fold": "never", "pair-or-better": "pair"}
_PARAMETERISED = ("beats:",)


def strategy_names() -> tuple[str, ...]:
    """Names :func:`get_strategy` accepts (``beats:XY`` stands for every pattern)."""
    return tuple(_FIXED) + ("beats:XY", "READING-vs-READING")


def solver_ready() -> bool:
    """Whether :mod:`ricochet_math.strategies.perfect` holds the real solver rather than the stub.

    The lead marks the landed solver with ``SOLVER_READY = True`` in
    ``perfect.py``; failing that, a module docstring without ``STUB`` counts.
    """
    flag = getattr(perfect, "SOLVER_READY", None)
    if flag is not None:
        return bool(flag)
    return "STUB" not in (perfect.__doc__ or "")


def get_strategy(name: str | Strategy) -> Strategy:
    """The strategy called ``name`` (a :class:`Strategy` is returned as it is).

    Raises :class:`~ricochet_math.errors.StrategyError` for unknown names,
    with the closest known name.
    """
    if isinstance(name, Strategy):
        return name
    if not isinstance(name, str) or not name.strip():
        raise StrategyError(f"strategy must be a name such as 'always' or 'perfect', got {name!r}")
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key in _FIXED:
        return _FIXED[key]
    if "-vs-" in key:
        mine, _, others = key.partition("-vs-")
        if mine in _SOLVER_READINGS and others in _SOLVER_READINGS:
            code = perfect.best_response_code(_SOLVER_READINGS[mine], _SOLVER_READINGS[others])
            return Strategy(key, SOLVER, (float(code),),
                            f"reading {mine} for this seat, modelling every later seat as {others}")
    if key.startswith("beats:"):
        pattern = name.strip()[len("beats:"):]
        threshold = _two_rank_key(pattern, f"strategy {name!r}")
        canonical = "beats:" + pattern.strip().upper().replace("10", "T")
        return Strategy(canonical, BEATS, (float(threshold),),
                        f"play when the two cards beat {pattern.strip().upper()}")
    known = list(_FIXED) + list(_ALIASES) + ["beats:A9"]
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.5)
    hint = f"; did you mean '{_ALIASES.get(close[0], close[0])}'?" if close else ""
    raise StrategyError(f"unknown strategy {name!r}{hint} (known: {', '.join(strategy_names())})")


def resolve_strategies(spec, players: int) -> tuple[Strategy, ...]:
    """One :class:`Strategy` per seat from a name, a strategy, or a sequence of ``players`` of them."""
    if isinstance(spec, (str, Strategy)):
        return (get_strategy(spec),) * players
    if isinstance(spec, Sequence):
        items = [get_strategy(s) for s in spec]
        if len(items) == 1:
            return tuple(items) * players
        if len(items) != players:
            raise StrategyError(f"{len(items)} strategies given for {players} players: give one, or one per seat")
        return tuple(items)
    raise StrategyError(f"strategy must be a name, a Strategy or a list of them, got {spec!r}")


def kernel_strategy_arrays(strategies: Sequence[Strategy]) -> tuple[np.ndarray, np.ndarray]:
    """``(codes int64[N], params float64[N, N_PARAMS])`` for the fast engine."""
    codes = np.array([s.code for s in strategies], dtype=np.int64)
    params = np.stack([s.param_row() for s in strategies]) if strategies else np.zeros((0, N_PARAMS))
    return codes, np.ascontiguousarray(params, dtype=np.float64)


# ----------------------------------------------------------------------------
# The numba dispatch
# ----------------------------------------------------------------------------

@njit(inline="always")
def _straight_connected(r0, r1):
    if r0 == r1:
        return False
    if abs(r0 - r1) <= 4:
        return True
    low0 = -1 if r0 == 12 else r0
    low1 = -1 if r1 == 12 else r1
    return abs(low0 - low1) <= 4


@njit(inline="always")
def simple_decide(code, p0, c0, c1, best_value, dealer_kicked, dealer_key):
    """Fold (False) or play (True) for the table-free strategies (every code but ``SOLVER``).

    Scalars only, so the engine's inner loop stays free of array traffic:
    code int64, p0 float64 the seat's first parameter, c0/c1 the seat's two
    cards, best_value (-1: nothing to beat), dealer_kicked, dealer_key (the
    dealer's kicker-rule key).
    """
    pair = (c0 >> 2) == (c1 >> 2)
    key = TWO_CARD_KEY[c0 * 52 + c1]
    if code == ALWAYS:
        return True
    if code == NEVER:
        return False
    if code == PAIR:
        return pair
    if code == BEATS:
        return key > p0
    if code == TIMID:
        return pair or key >= _TIMID_KEY
    if code == CHASER:
        hopeless = best_value >= 0 and category_of(best_value) >= THREE_OF_A_KIND
        return pair or not hopeless
    if code == DEALER_ONLY:
        if dealer_kicked:
            return True
        return key >= top_cards_key(dealer_key, key)
    if code == BONUS_HUNTER:
        return pair or (c0 & 3) == (c1 & 3) or _straight_connected(c0 >> 2, c1 >> 2)
    return False


@njit
def decide(code, params, deck, hole, order, pos, best_value, dealer_in, n_tied, pot,
           dealer_kicked, dealer_key, bonus_by_value, options):
    """Fold (False) or play (True) for seat ``order[pos]``: the kernel twin of :meth:`Strategy.decide`.

    code: int64 strategy code; params: float64[N_PARAMS] the seat's row;
    dealer_key: int64 kicker-rule key of the dealer's five cards; the other
    arguments are exactly those of :func:`ricochet_math.strategies.perfect.perfect_decision`
    (deck: uint8[52] 1 = unseen; hole: int64[N, 2]; order: int64[N]; ...).
    ``SOLVER`` calls that kernel with the reading ``params[0]``; every other
    code is :func:`simple_decide`.  (The fast engine spells out these two
    branches in its loop: a call to a function that *may* call the solver
    costs about 100 ns even when it does not.)
    """
    s = order[pos]
    if code == SOLVER:
        return perfect.perfect_decision(np.int64(params[0]), deck, hole, order, pos, best_value, dealer_in,
                                        n_tied, pot, dealer_kicked, bonus_by_value, options)
    return simple_decide(code, params[0], hole[s, 0], hole[s, 1], best_value, dealer_kicked, dealer_key)
