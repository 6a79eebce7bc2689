"""One game of Rococo Poker, played readably, with a hand history.

:class:`RococoGame` is the state machine of the six phases of the seed, from a shuffled deck: the ante; the first player's
blind option; the display; one exchange of 0..3 cards per player in turn; the replacement deal; the
betting round; the showdown (or the all-check carry-over); :func:`play_dealt` plays it with the policies.
It is the readable twin of the batch kernel (:mod:`~ricochet_math.games.rococo.kernel`); the tests replay the kernel's games here and compare them record for record.

Dealing: the first player (seat ``first``) and the others clockwise (seat numbers increasing, modulo
the number of players) take five cards each, in turn, from the top of the deck; replacements are dealt
from the next cards, to each exchanging player in the same order.  ``u`` is the game's uniform number
in [0, 1) that decides a blind game (blind when ``u < blind_rate`` of the first player).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from ricochet_math.arguments import check_finite, check_instance, check_whole
from ricochet_math.errors import CardError, StrategyError, quote
from ricochet_math.evaluator.cards import format_cards
from ricochet_math.evaluator.evaluation import reference_value
from ricochet_math.errors import TableStateError
from ricochet_math.evaluator.names import describe
from ricochet_math.games.rococo.betting import Slot, keep_tables, policy, policy_rows
from ricochet_math.games.rococo.draw import KEEPS, N_HANDS, hand_index
from ricochet_math.games.rococo.rules import RococoRules
from ricochet_math.random_streams import Xoshiro256, resolve_seed

__all__ = ["GameRecord", "RococoGame", "PHASES", "policy_action", "play_game", "play_dealt", "CARRY", "SHOWDOWN",
           "FOLD"]

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
        self.log(f"  seat {s + 1} calls {self.level - self.stake[s]} (stake {self.level})")
        self.stake[s] = self.level

    def raise_(self, s: int, amount: int) -> None:
        self.level += amount
        self.raises += 1
        self.record.raises += 1
        self.log(f"  seat {s + 1} raises {amount} (stake {self.level})")
        self.stake[s] = self.level

    def fold(self, s: int) -> None:
        self.active[s] = False
        self.log(f"  seat {s + 1} folds")


#: the phases in which a seat decides (:attr:`RococoGame.phase`)
PHASES = ("blind", "blind-facing", "exchange", "open", "facing")


class RococoGame:
    """One game of Rococo Poker as a readable state machine (the casino ``Round`` is the model).

    ``current_seat()`` decides in ``phase`` (:data:`PHASES`): ``blind`` (the first player, not having
    looked: ``("blind", amount)`` or ``"look"``), ``blind-facing`` (a seat facing the blind or a raise
    over it: ``"fold"``, ``"call"`` or ``("raise", amount)``; the blind player himself only calls or
    folds), ``exchange`` (the keep: a 5-bit mask over the sorted hand, one of
    :data:`~ricochet_math.games.rococo.draw.KEEPS`), ``open`` (``"check"`` or ``("raise", amount)``),
    ``facing`` (``"fold"``, ``"call"`` or ``("raise", amount)``).  ``legal_actions()`` lists them
    (amounts ``min_bet..max_bet``; no raise once ``max_raises`` are made), ``apply(action)`` plays one,
    ``history`` is the hand history so far and ``record`` the :class:`GameRecord` (complete once
    ``is_terminal()``).  ``deck``: its first ``5 * players`` cards are dealt (the first player first),
    the next ones replace the discards in turn.
    """

    def __init__(self, rules: RococoRules, deck, first: int, carried: float = 0.0, force_showdown: bool = False):
        self.rules = rules
        self.deck = [int(c) for c in deck]
        self.record = GameRecord(first=first, carried=float(carried))
        self._t = _Table(rules, first, carried, self.record)
        self._force = force_showdown
        self._flow = self._phases()
        self._decision: tuple[int, str] | None = next(self._flow, None)

    # ---- the state a seat sees
    @property
    def history(self) -> list[str]:
        return self.record.history

    @property
    def phase(self) -> str | None:
        return None if self._decision is None else self._decision[1]

    def current_seat(self) -> int | None:
        return None if self._decision is None else self._decision[0]

    def is_terminal(self) -> bool:
        return self._decision is None

    def hand(self, seat: int) -> list[int]:
        """The cards ``seat`` holds now (dealt, or after its exchange)."""
        return list(self._hands[seat])

    def dealt_value(self, seat: int) -> int:
        return self._dealt[seat]

    def final_value(self, seat: int) -> int:
        return self._final[seat]

    @property
    def active_players(self) -> int:
        return self._t.n_active()

    def legal_actions(self) -> list:
        if self._decision is None:
            return []
        seat, phase = self._decision
        r, t = self.rules, self._t
        amounts = range(r.min_bet, r.max_bet + 1)
        can_raise = t.raises < r.max_raises
        if phase == "blind":
            return ["look"] + [("blind", b) for b in amounts]
        if phase == "exchange":
            return list(KEEPS)
        if phase == "open":
            return ["check"] + ([("raise", a) for a in amounts] if can_raise else [])
        if phase == "blind-facing" and seat == self.record.first:  # still blind: defend or give up
            return ["fold", "call"]
        return ["fold", "call"] + ([("raise", a) for a in amounts] if can_raise else [])

    def apply(self, action) -> None:
        if action not in self.legal_actions():
            raise TableStateError(f"seat {self.current_seat() + 1} cannot {quote(action)} in the {self.phase} phase "
                                  f"(legal: {self.legal_actions()})")
        try:
            self._decision = self._flow.send(action)
        except StopIteration:  # the game is over
            self._decision = None

    # ---- the game: a generator that yields (seat, phase) for each decision and receives the action
    def _phases(self):
        rules, t, rec, deck = self.rules, self._t, self.record, self.deck
        P, first = rules.players, rec.first
        self._hands = {s: deck[5 * i: 5 * i + 5] for i, s in enumerate(t.order)}
        hands = self._hands
        self._dealt = {s: reference_value(hands[s]) for s in hands}
        self._final = {}
        t.log(f"ante {rules.ante} each, pot {rec.carried + P * rules.ante:g} (carried {rec.carried:g}); "
              f"first player seat {first + 1}")

        # phase 2: the blind option (the first player has not looked)
        blind = "look"
        if rules.blind:
            blind = yield first, "blind"
        if blind != "look":
            b = int(blind[1])
            rec.blind = b
            t.level += b
            t.stake[first] = t.level
            t.log(f"blind: seat {first + 1} declares a blind game of {b}")
            yield from self._facing(1, "blind-facing")
            if t.n_active() == 1:
                return self._end(FOLD, {})
        else:
            t.log(f"display: seat {first + 1} looks at his cards")
        for s in t.order:
            if t.active[s]:
                t.log(f"  seat {s + 1}: {format_cards(sorted(hands[s])[::-1])}")

        # phases 3-4: the exchange, in turn, then the replacements in the same order
        top = 5 * P
        keeps = {}
        for s in t.order:
            if not t.active[s]:
                continue
            k = int((yield s, "exchange"))
            cards = sorted(hands[s])
            kept = [cards[i] for i in range(5) if k >> i & 1]
            new = deck[top: top + 5 - len(kept)]
            top += 5 - len(kept)
            keeps[s] = k
            hands[s] = kept + new
            gone = [cards[i] for i in range(5) if not k >> i & 1]
            t.log(f"exchange: seat {s + 1} stands pat" if not gone else
                  f"exchange: seat {s + 1} discards {format_cards(gone[::-1])}, receives {format_cards(new)}")
        self._keeps = keeps
        self._final = {s: reference_value(hands[s]) for s in keeps}

        # phase 5: the betting round
        t.raises = 0
        t.log("betting:")
        opened = -1
        for pos, s in enumerate(t.order):
            if not t.active[s]:
                continue
            act = yield s, "open"
            if act != "check":
                t.raise_(s, int(act[1]))
                opened = pos
                break
            t.log(f"  seat {s + 1} checks")
        if opened < 0:
            if not self._force:
                t.log(f"everybody checks: the pot of {rec.carried + sum(t.stake):g} stays for the next game")
                return self._end(CARRY, keeps)
            t.log("everybody checks at the carry limit: showdown")
        else:
            yield from self._facing(opened + 1, "facing")
            if t.n_active() == 1:
                return self._end(FOLD, keeps)
        return self._end(SHOWDOWN, keeps)

    def _facing(self, start_pos: int, phase: str):
        """Players from order position ``start_pos`` on, cyclically, act on a raise until every player
        still in has matched the level or one is left."""
        t = self._t
        pending = [t.active[s] and t.stake[s] < t.level for s in range(t.players)]
        pos = start_pos
        while any(pending) and t.n_active() > 1:
            s = t.order[pos % t.players]
            pos += 1
            if not pending[s]:
                continue
            pending[s] = False
            act = yield s, phase
            if isinstance(act, tuple):
                t.raise_(s, int(act[1]))
                pending = [t.active[u] and u != s for u in range(t.players)]
            elif act == "call":
                t.call(s)
            else:
                t.fold(s)

    def _end(self, outcome: int, keeps) -> None:
        _finish(self.record, self._t, self._hands, keeps, self.rules.players, outcome, self._final)


def _check_game_arguments(rules, rows, rates, tables, deck, u, first, carried) -> None:
    """:func:`play_dealt`'s arguments, checked before the game reads them (one RicochetError line)."""
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


def policy_action(game: RococoGame, rows: np.ndarray, rates: np.ndarray, tables: np.ndarray, u: float):
    """The action the kernel's policies take at ``game``'s decision: ``rows``/``rates`` the players'
    policy rows and blind rates (:func:`~ricochet_math.games.rococo.betting.policy_rows`), ``tables`` the keep
    tables (:func:`~ricochet_math.games.rococo.betting.keep_tables`), ``u`` the game's uniform number (blind
    when ``u < rates[first]``).  A raise the cap forbids becomes a call."""
    s, phase = game.current_seat(), game.phase
    legal = game.legal_actions()
    if phase == "blind":
        return ("blind", int(rows[s, Slot.BLIND_AMOUNT])) if u < rates[s] else "look"
    if phase == "exchange":
        row = 0 if rows[s, Slot.NAIVE] else game.active_players - 1
        return KEEPS[int(tables[row, hand_index(game.hand(s))])]
    if phase == "open":
        act = ("raise", int(rows[s, Slot.RAISE_AMOUNT])) if game.final_value(s) >= rows[s, Slot.OPEN] else "check"
        return act if act in legal else "check"
    if phase == "blind-facing":
        if s == game.record.first:  # still blind: defend or give up
            return "call" if rows[s, Slot.BLIND_DEFEND] else "fold"
        v, raise_at, call_at = game.dealt_value(s), Slot.BLIND_RAISE, Slot.BLIND_CALL
    else:
        v, raise_at, call_at = game.final_value(s), Slot.RERAISE, Slot.CALL
    if v >= rows[s, raise_at]:
        act = ("raise", int(rows[s, Slot.RAISE_AMOUNT]))
        return act if act in legal else "call"
    return "call" if v >= rows[s, call_at] else "fold"


def play_game(rules: RococoRules | None = None, strategies=("standard", "standard"), seed=None) -> GameRecord:
    """Play one game with one betting policy per seat (names or :class:`~.betting.BettingPolicy`), dealt from
    ``seed`` (None: fresh entropy) exactly as the kernel deals the first game of its first pot from
    ``SeedSequence(seed)`` (:func:`~.play.play_pot` replays that pot): the first seat drawn, the first
    ``8 * players`` cards shuffled, then the blind decision's uniform ``u``."""
    check_instance(rules, RococoRules, "rules", allow_none=True)
    if isinstance(strategies, (str, bytes)) or not hasattr(strategies, "__iter__"):
        raise StrategyError(f"strategies must be a list of one policy per seat, got {quote(strategies)}")
    ps = [policy(p) for p in strategies]
    rules = replace(rules or RococoRules(players=len(ps)), players=len(ps))
    rows, rates = policy_rows(ps, rules)
    rng = Xoshiro256(np.random.SeedSequence(resolve_seed(seed)))
    first = (rng.next64() >> 11) % rules.players  # the kernel's first seat of a pot (a bias below 1e-15)
    deck = list(range(52))
    rng.shuffle_prefix(deck, 8 * rules.players)
    return play_dealt(rules, rows, rates, keep_tables(rules.players), deck, rng.uniform(), first)


def play_dealt(rules: RococoRules, rows: np.ndarray, rates: np.ndarray, tables: np.ndarray, deck, u: float,
               first: int, carried: float = 0.0, force_showdown: bool = False) -> GameRecord:
    """Play one game from ``deck`` (its first ``8 * players`` cards are used) on :class:`RococoGame` with the
    kernel's policies (:func:`policy_action`) and return its record.

    ``rows``/``rates``: the players' policy rows and blind rates (:func:`~ricochet_math.games.rococo.betting.policy_rows`);
    ``tables``: the keep tables (:func:`~ricochet_math.games.rococo.betting.keep_tables`); ``carried``: the pot carried from
    all-check games; ``force_showdown``: the carry limit is reached, so an all-check game is shown down.
    """
    _check_game_arguments(rules, rows, rates, tables, deck, u, first, carried)
    game = RococoGame(rules, deck, first, carried, force_showdown)
    while not game.is_terminal():
        game.apply(policy_action(game, rows, rates, tables, u))
    return game.record


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
        t.log(f"seat {alive[0] + 1} is the last player in and takes {pot:g}")
        return rec
    best = max(final[s] for s in alive)
    winners = [s for s in alive if final[s] == best]
    for s in alive:
        t.log(f"  seat {s + 1} shows {format_cards(sorted(hands[s])[::-1])}: {describe(final[s])}")
    for s in winners:
        rec.payouts[s] = pot / len(winners)
    t.log(f"showdown: seat(s) {', '.join(map(str, winners))} take {pot:g}"
          + (f", split {len(winners)} ways" if len(winners) > 1 else ""))
    return rec
