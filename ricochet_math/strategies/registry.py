"""Strategies: who folds and who plays, readable for the reference engine, integers for numba.

A strategy decides **fold or play** for the acting seat from the whole table,
which is face up (spec, "A round", step 5): the dealer's five cards and
whether she is kicked out, the five-card hand the seat must reach, the pot,
every seat's two cards and the acting order, the cards already seen.  That
view is a :class:`TableState`.

Every strategy exists twice and the tests check both agree on every decision:

* a :class:`Strategy` object with a readable :meth:`Strategy.decide` for the
  reference engine (:mod:`ricochet_math.engine.round`);
* its ``int64`` policy row (:mod:`ricochet_math.strategies.policy`), which the
  batch kernel (:mod:`ricochet_math.engine.kernel`) hands to the one dispatch
  function :func:`ricochet_math.strategies.dispatch.decide`.

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
                            figures"), the look-ahead of
                            :func:`ricochet_math.strategies.perfect.perfect_decision`.
``perfect-no-bonus``,       the other readings of the spec's "Strategy
``myopic``, ...             readings", the same kernel with other
                            :class:`~ricochet_math.strategies.perfect.Readings`: ``myopic``, ``pot-odds-now``,
                            ``pot-odds-final``, each also ``-no-bonus``.
``pub-POT-TARGET``,         the publisher-like readings
``pub-...-no-bonus``        (:mod:`ricochet_math.strategies.readings`): pot odds
                            on the pot ``now``, the ``final`` pot, the pot if
                            ``all`` later seats play or each with its probability (``prob``),
                            against the ``dealer`` or the ``best`` hand standing
                            (``best-ties-win``/``-lose``: how player ties count).
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

from ricochet_math.arguments import spec_parts
from ricochet_math.errors import StrategyError, quote
from ricochet_math.evaluator.cards import RANKS, parse_cards
from ricochet_math.evaluator.evaluation import FIVE_CARD_KEY, ORDER_KEY, TWO_CARD_KEY, partial_key
from ricochet_math.evaluator.tables import NUM_VALUES
from ricochet_math.rules.layout import Option
from ricochet_math.strategies import simple
from ricochet_math.strategies.perfect import READING_NAMES, Readings, perfect_decision, readings
from ricochet_math.strategies.policy import Code, PolicySlot
from ricochet_math.strategies.readings import FAMILY_NAMES, describe_family, family_reading
from ricochet_math.strategies.simple import top_cards_key

__all__ = [
    "TableState",
    "Strategy",
    "get_strategy",
    "strategy_names",
    "resolve_strategies",
    "policy_array",
    "top_cards_key",
    "TWO_CARD_KEY",
    "ORDER_KEY",
    "FIVE_CARD_KEY",
]


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
      ``options``: ``int64[len(Option)]`` in the
      :data:`~ricochet_math.rules.layout.Option` layout (with the dealer's own value).
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

@dataclass(frozen=True)
class Strategy:
    """A named fold-or-play rule with its kernel form (:meth:`policy_row`).

    ``code``: a :data:`~ricochet_math.strategies.policy.Code`; ``key``: the
    two-card key a ``beats:XY`` hand must beat; ``readings``: the look-ahead's
    :class:`~ricochet_math.strategies.perfect.Readings` (``Code.look_ahead`` only).
    ``decide(state)`` is the readable rule the reference engine calls.
    """

    name: str
    code: int
    key: int = 0
    readings: Readings | None = None
    description: str = field(default="", compare=False)

    @property
    def uses_look_ahead(self) -> bool:
        """Whether the seat calls the look-ahead (milliseconds per decision, against nanoseconds)."""
        return self.code == Code.look_ahead


    def policy_row(self) -> np.ndarray:
        """The kernel's row, ``int64[len(PolicySlot)]``."""
        row = np.zeros(len(PolicySlot), dtype=np.int64)
        row[PolicySlot.code] = self.code
        row[PolicySlot.key] = self.key
        if self.readings is not None:
            row[[PolicySlot.mine, PolicySlot.mine_bonus, PolicySlot.others, PolicySlot.others_bonus]] = self.readings
        return row

    def decide(self, state: TableState) -> bool:
        """True to play, False to fold: the readable decision (the kernel reaches the same
        rules through :func:`ricochet_math.strategies.dispatch.decide`)."""
        if self.code == Code.look_ahead:
            return bool(perfect_decision(
                self.readings, state.unseen, state.hole_array(), state.order_array(),
                state.position, state.best_value, state.dealer_in, state.n_tied, state.pot,
                state.dealer_kicked, state.bonus_by_value, state.options,
            ))
        c0, c1 = state.hole
        return simple.play(self.code, self.key, c0, c1, state.best_value, state.dealer_kicked, state.dealer_key())

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
            options=np.zeros(len(Option), np.int64),
        )
        return self.decide(state)


def _two_rank_key(text: str, where: str) -> int:
    """Kicker-rule key of a rank pattern of one or two ranks (``A9``, ``77``, ``A``, ``10``)."""
    t = text.strip().upper().replace("10", "T")
    if not 1 <= len(t) <= 2 or any(ch not in RANKS for ch in t):
        raise StrategyError(
            f"bad hand pattern {quote(text)} in {where}: write one or two ranks from {RANKS}, e.g. beats:A9 or beats:77"
        )
    ranks = [RANKS.index(ch) for ch in t]
    cards = np.array([r * 4 + i for i, r in enumerate(ranks)], dtype=np.int64)
    return int(partial_key(cards, len(cards)))


_FIXED = {
    "always": Strategy("always", Code.always, description="always play"),
    "never": Strategy("never", Code.never, description="always fold (test device)"),
    "pair": Strategy("pair", Code.pair, description="play a pair or better"),
    "timid": Strategy("timid", Code.timid, description="weak, too tight: plays only a pair, A-K or A-Q"),
    "chaser": Strategy(
        "chaser", Code.chaser,
        description="weak, too loose: plays unless the hand to beat is three of a kind or better and her cards "
                    "are unpaired",
    ),
    "dealer-only": Strategy(
        "dealer-only", Code.dealer_only,
        description="weak, dealer-fixated: plays when the dealer is kicked out or her two cards match or beat the "
                    "dealer's top two",
    ),
    "bonus-hunter": Strategy(
        "bonus-hunter", Code.bonus_hunter,
        description="weak, bonus-fixated: plays pairs, suited cards and straight-connected cards (ranks at most 4 "
                    "apart)",
    ),
}
for _name in READING_NAMES:
    _FIXED[_name] = Strategy(_name, Code.look_ahead, readings=readings(_name),
                             description=f"perfect-play look-ahead, reading {_name}")
#: the publisher-like readings (:mod:`ricochet_math.strategies.readings`), listed as one pattern
_FAMILY = {name: Strategy(name, Code.look_ahead, readings=Readings(*family_reading(name)),
                          description=f"publisher-like reading: {describe_family(name)}") for name in FAMILY_NAMES}
_ALIASES = {"always-play": "always", "fold": "never", "pair-or-better": "pair"}
_PARAMETERISED = ("beats:",)
#: how :func:`strategy_names` lists the publisher-like family
FAMILY_PATTERN = "pub-{now|final|all|prob}-{dealer|best|best-ties-win|best-ties-lose}[-no-bonus]"


def strategy_names() -> tuple[str, ...]:
    """Names :func:`get_strategy` accepts (``beats:XY`` stands for every pattern); the publisher-like
    readings (:data:`FAMILY_PATTERN`, :data:`~ricochet_math.strategies.readings.FAMILY_NAMES`) are accepted
    too and left out of this list (32 names)."""
    return tuple(_FIXED) + ("beats:XY", "READING-vs-READING")


def get_strategy(name: str | Strategy) -> Strategy:
    """The strategy called ``name`` (a :class:`Strategy` is returned as it is).

    Raises :class:`~ricochet_math.errors.StrategyError` for unknown names,
    with the closest known name.
    """
    if isinstance(name, Strategy):
        return name
    if not isinstance(name, str) or not name.strip():
        raise StrategyError(f"strategy must be a name such as 'always' or 'perfect', got {quote(name)}")
    # the one spec grammar: 'beats:' (an empty parameter list), 'beats:A9:' and 'beats: A9' are refused here
    head, params = spec_parts(name, "strategy", error=StrategyError)
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key in _FIXED:
        return _FIXED[key]
    if key in _FAMILY:
        return _FAMILY[key]
    if "-vs-" in key:
        mine, _, others = key.partition("-vs-")
        if mine in READING_NAMES and others in READING_NAMES:
            return Strategy(key, Code.look_ahead, readings=readings(key),
                            description=f"reading {mine} for this seat, modelling every later seat as {others}")
    if head.lower() == "beats" and len(params) == 1:
        pattern = params[0]
        threshold = _two_rank_key(pattern, f"strategy {quote(name)}")
        canonical = "beats:" + pattern.strip().upper().replace("10", "T")
        return Strategy(canonical, Code.beats, key=threshold,
                        description=f"play when the two cards beat {pattern.strip().upper()}")
    known = list(_FIXED) + list(_ALIASES) + ["beats:A9"] + list(_FAMILY)
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.5)
    hint = f"; did you mean '{_ALIASES.get(close[0], close[0])}'?" if close else ""
    raise StrategyError(f"unknown strategy {quote(name)}{hint} (known: {', '.join(strategy_names())})")


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
    raise StrategyError(f"strategy must be a name, a Strategy or a list of them, got {quote(spec)}")


def policy_array(strategies: Sequence[Strategy]) -> np.ndarray:
    """``int64[N, len(PolicySlot)]``: every seat's :meth:`Strategy.policy_row`, for the batch kernel."""
    rows = [s.policy_row() for s in strategies]
    return np.ascontiguousarray(np.stack(rows) if rows else np.zeros((0, len(PolicySlot)), np.int64))
