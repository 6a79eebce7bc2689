"""One game of Rococo Poker, played readably, with a hand history.

:func:`play_game` plays the six phases of the seed from a shuffled deck: the ante; the first player's
blind option; the display; one exchange of 0..3 cards per player in turn; the replacement deal; the
betting round; the showdown (or the all-check carry-over).  It is the readable twin of the batch
kernel (:mod:`~ricochet_math.games.rococo.kernel`); the tests replay the kernel's games here and compare them record for record.

Dealing: the first player (seat ``first``) and the others clockwise (seat numbers increasing, modulo
the number of players) take five cards each, in turn, from the top of the deck; replacements are dealt
from the next cards, to each exchanging player in the same order.  ``u`` is the game's uniform number
in [0, 1) that decides a blind game (blind when ``u < blind_rate`` of the first player).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ricochet_math.arguments import check_finite, check_instance, check_whole
from ricochet_math.errors import CardError, StrategyError
from ricochet_math.evaluator.cards import format_cards
from ricochet_math.evaluator.evaluation import reference_value
from ricochet_math.evaluator.names import describe
from ricochet_math.games.rococo.betting import Slot
from ricochet_math.games.rococo.draw import KEEPS, N_HANDS, hand_index
from ricochet_math.games.rococo.rules import RococoRules

__all__ = ["GameRecord", "play_game", "CARRY", "SHOWDOWN", "FOLD"]

SHOWDOWN, FOLD, CARRY = 0, 1, 2
OUTCOMES = ("showdown", "fold", "carry")


@dataclass
class GameRecord:
    """What one game did: each seat's stake this game, what it was paid, its keep and final value
    (``-1`` for a seat that folded before the exchange), the outcome and the readable history."""

    first: int
    carried: float
    blind: int = 0
    contributions: list = field(default_factory=list)
    payouts: list = field(default_factory=list)
    keeps: list = field(default_factory=list)
    values: list = field(default_factory=list)
    outcome: int = SHOWDOWN
    raises: int = 0
    history: list = field(default_factory=list)

    @property
    def pot(self) -> float:
        return self.carried + sum(self.contributions)

    def text(self) -> str:
        return "\n".join(self.history)


class _Table:
    """The money of one game: stakes, the level to match, who is still in, the raise count."""

    def __init__(self, rules: RococoRules, first: int, carried: float, record: GameRecord):
        self.rules, self.record = rules, record
        self.players = rules.players
        self.order = [(first + i) % self.players for i in range(self.players)]
        self.stake = [rules.ante] * self.players
        self.level = rules.ante
        self.active = [True] * self.players
        self.raises = 0

    def log(self, text: str) -> None:
        self.record.history.append(text)

    def n_active(self) -> int:
        return sum(self.active)

    def call(self, s: int) -> None:
        self.log(f"  seat {s} calls {self.level - self.stake[s]} (stake {self.level})")
        self.stake[s] = self.level

    def raise_(self, s: int, amount: int) -> None:
        self.level += amount
        self.raises += 1
        self.record.raises += 1
        self.log(f"  seat {s} raises {amount} (stake {self.level})")
        self.stake[s] = self.level

    def fold(self, s: int) -> None:
        self.active[s] = False
        self.log(f"  seat {s} folds")

    def facing(self, start_pos: int, decide) -> None:
        """Players from order position ``start_pos`` on, cyclically, act on a raise until every player
        still in has matched the level or one is left.  ``decide(s)`` returns 'raise', 'call' or 'fold'."""
        pending = [self.active[s] and self.stake[s] < self.level for s in range(self.players)]
        pos = start_pos
        while any(pending) and self.n_active() > 1:
            s = self.order[pos % self.players]
            pos += 1
            if not pending[s]:
                continue
            pending[s] = False
            act = decide(s)
            if act == "raise" and self.raises < self.rules.max_raises:
                self.raise_(s, self.amount(s))
                pending = [self.active[t] and t != s for t in range(self.players)]
            elif act in ("call", "raise"):
                self.call(s)
            else:
                self.fold(s)

    amount = None  # set per game: the raise size of a seat


def _check_game_arguments(rules, rows, rates, tables, deck, u, first, carried) -> None:
    """:func:`play_game`'s arguments, checked before the game reads them (one RicochetError line)."""
    check_instance(rules, RococoRules, "rules")
    p = rules.players
    if not (isinstance(rows, np.ndarray) and rows.shape == (p, Slot.WIDTH) and rows.dtype.kind == "i"):
        raise StrategyError(f"rows must be int64[{p}, {Slot.WIDTH}] (betting.policy_rows), got "
                            f"{getattr(rows, 'shape', type(rows).__name__)}")
    if not (isinstance(rates, np.ndarray) and rates.shape == (p,) and np.all((rates >= 0) & (rates <= 1))):
        raise StrategyError(f"rates must be {p} blind rates in [0, 1] (betting.policy_rows)")
    if not (isinstance(tables, np.ndarray) and tables.ndim == 2 and tables.shape[1] == N_HANDS
            and tables.shape[0] >= p):
        raise StrategyError(f"tables must be the keep tables, uint8[6, {N_HANDS:,}] (betting.keep_tables)")
    try:
        cards = np.asarray(deck)
    except (TypeError, ValueError):
        cards = None
    if cards is None or cards.ndim != 1 or cards.dtype.kind not in "iu" or len(cards) < 8 * p \
            or cards.min(initial=0) < 0 or cards.max(initial=0) > 51 or len(np.unique(cards)) != len(cards):
        raise CardError(f"deck must be distinct cards 0..51, at least {8 * p} of them")
    check_finite(u, "u (the blind's uniform draw)", low=0.0, high=1.0)
    check_whole(first, "first (the first player's seat)", low=0, high=p - 1)
    check_finite(carried, "carried (chips)", low=0.0, high=1e9)


def play_game(rules: RococoRules, rows: np.ndarray, rates: np.ndarray, tables: np.ndarray, deck, u: float,
              first: int, carried: float = 0.0, force_showdown: bool = False) -> GameRecord:
    """Play one game from ``deck`` (its first ``8 * players`` cards are used) and return its record.

    ``rows``/``rates``: the players' policy rows and blind rates (:func:`~ricochet_math.games.rococo.betting.policy_rows`);
    ``tables``: the keep tables (:func:`~ricochet_math.games.rococo.betting.keep_tables`); ``carried``: the pot carried from
    all-check games; ``force_showdown``: the carry limit is reached, so an all-check game is shown down.
    """
    _check_game_arguments(rules, rows, rates, tables, deck, u, first, carried)
    P = rules.players
    rec = GameRecord(first=first, carried=float(carried))
    t = _Table(rules, first, carried, rec)
    t.amount = lambda s: int(rows[s, Slot.RAISE_AMOUNT])
    hands = {s: [int(c) for c in deck[5 * i: 5 * i + 5]] for i, s in enumerate(t.order)}
    dealt = {s: reference_value(hands[s]) for s in hands}
    t.log(f"ante {rules.ante} each, pot {carried + P * rules.ante:g} (carried {carried:g}); first player seat {first}")

    # phase 2: the blind option (the first player has not looked)
    if rules.blind and u < rates[first]:
        b = int(rows[first, Slot.BLIND_AMOUNT])
        rec.blind = b
        t.level += b
        t.stake[first] = t.level
        t.log(f"blind: seat {first} declares a blind game of {b}")

        def blind_decide(s: int) -> str:
            if s == first:  # still blind: defend or give up
                return "call" if rows[s, Slot.BLIND_DEFEND] else "fold"
            if dealt[s] >= rows[s, Slot.BLIND_RAISE]:
                return "raise"
            return "call" if dealt[s] >= rows[s, Slot.BLIND_CALL] else "fold"

        t.facing(1, blind_decide)
        if t.n_active() == 1:
            return _finish(rec, t, hands, {}, P, FOLD)
    else:
        t.log(f"display: seat {first} looks at his cards")
    for s in t.order:
        if t.active[s]:
            t.log(f"  seat {s}: {format_cards(sorted(hands[s])[::-1])}")

    # phases 3-4: the exchange, in turn, then the replacements in the same order
    top = 5 * P
    keeps = {}
    opponents = t.n_active() - 1
    for s in t.order:
        if not t.active[s]:
            continue
        row = 0 if rows[s, Slot.NAIVE] else opponents
        k = KEEPS[int(tables[row, hand_index(hands[s])])]
        cards = sorted(hands[s])
        kept = [cards[i] for i in range(5) if k >> i & 1]
        new = [int(c) for c in deck[top: top + 5 - len(kept)]]
        top += 5 - len(kept)
        keeps[s] = k
        hands[s] = kept + new
        gone = [cards[i] for i in range(5) if not k >> i & 1]
        t.log(f"exchange: seat {s} stands pat" if not gone else
              f"exchange: seat {s} discards {format_cards(gone[::-1])}, receives {format_cards(new)}")
    final = {s: reference_value(hands[s]) for s in keeps}

    # phase 5: the betting round
    t.raises = 0
    t.log("betting:")
    opened = -1
    for pos, s in enumerate(t.order):
        if not t.active[s]:
            continue
        if final[s] >= rows[s, Slot.OPEN] and t.raises < rules.max_raises:
            t.raise_(s, t.amount(s))
            opened = pos
            break
        t.log(f"  seat {s} checks")
    if opened < 0:
        if not force_showdown:
            t.log(f"everybody checks: the pot of {rec.carried + sum(t.stake):g} stays for the next game")
            return _finish(rec, t, hands, keeps, P, CARRY, final)
        t.log("everybody checks at the carry limit: showdown")
    else:
        def bet_decide(s: int) -> str:
            if final[s] >= rows[s, Slot.RERAISE]:
                return "raise"
            return "call" if final[s] >= rows[s, Slot.CALL] else "fold"

        t.facing(opened + 1, bet_decide)
        if t.n_active() == 1:
            return _finish(rec, t, hands, keeps, P, FOLD, final)
    return _finish(rec, t, hands, keeps, P, SHOWDOWN, final)


def _finish(rec: GameRecord, t: _Table, hands, keeps, P: int, outcome: int, final=None) -> GameRecord:
    final = final or {}
    rec.contributions = list(t.stake)
    rec.keeps = [KEEPS.index(keeps[s]) if s in keeps else -1 for s in range(P)]
    rec.values = [int(final[s]) if s in final else -1 for s in range(P)]
    rec.outcome = outcome
    pot = rec.pot
    rec.payouts = [0.0] * P
    if outcome == CARRY:
        return rec
    alive = [s for s in range(P) if t.active[s]]
    if outcome == FOLD:
        rec.payouts[alive[0]] = pot
        t.log(f"seat {alive[0]} is the last player in and takes {pot:g}")
        return rec
    best = max(final[s] for s in alive)
    winners = [s for s in alive if final[s] == best]
    for s in alive:
        t.log(f"  seat {s} shows {format_cards(sorted(hands[s])[::-1])}: {describe(final[s])}")
    for s in winners:
        rec.payouts[s] = pot / len(winners)
    t.log(f"showdown: seat(s) {', '.join(map(str, winners))} take {pot:g}"
          + (f", split {len(winners)} ways" if len(winners) > 1 else ""))
    return rec
