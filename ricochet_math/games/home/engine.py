"""The readable home game: a state machine over a shuffled deck, and its hand history.

One game, step by step (rulebook, "Basic Rules" and "Ricochet Poker II"):

1. Everyone antes one chip; the dealer deals ``start_cards`` cards face up to each
   seat, one at a time, seat 1 first (seat order = dealing order, from the dealer's left).
2. The **lowest hand** acts (order keys: :mod:`ricochet_math.games.home.hands`):
   it folds, or declares ``k`` cards, pays ``k`` chips and receives cards one at a time,
   the dealer stopping as soon as it is no longer the lowest.  No refund.  If all ``k``
   arrive and it is still the lowest, it is out.  ``k`` is at most the hand limit less
   its cards and at most the cards left in the deck [reading].
3. The action goes to the lowest hand again, possibly the same player.
4. The game ends when one hand is left (it takes the pot), or, [reading], when the
   lowest hand cannot receive a card (it is at the limit, or the deck is empty):
   with ``stuck="out"`` it is out (its only move is to fold), with ``stuck="showdown"``
   the best hand takes the pot; either way, if the stuck hand is identical in rank to the
   best hand, every hand left is identical and they split the pot.  With ``tie_ends``,
   the game also ends as soon as every hand left is identical in rank.

The numba kernel (:mod:`ricochet_math.games.home.kernel`) plays the same rules and is
tested equal to this engine record for record.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ricochet_math.arguments import check_instance, check_seed
from ricochet_math.errors import TableStateError
from ricochet_math.games.home.deal import deal_deck
from ricochet_math.games.home.hands import describe_hand, hand_keys, show
from ricochet_math.games.home.rules import HomeRules
from ricochet_math.games.home.strategies import HomeStrategy, View, parse_strategies
from ricochet_math.random_streams import resolve_seed

__all__ = ["WON", "SPLIT", "FOLDED", "BEATEN", "STUCK", "LOST", "STATUS_NAMES", "HomeGame", "GameRecord",
           "SeatResult", "LogEntry", "play_game", "play_deck", "format_history"]

# seat statuses at the end (the kernel's codes)
WON, SPLIT, FOLDED, BEATEN, STUCK, LOST = 0, 1, 2, 3, 4, 5
STATUS_NAMES = ("won", "split", "folded", "beaten", "stuck", "lost")
#: why a seat is out, for the history
_REASONS = {FOLDED: "folds", BEATEN: "got every card and is still lowest: out",
            STUCK: "is lowest and cannot receive a card: out", LOST: "loses at the showdown"}


@dataclass(frozen=True)
class LogEntry:
    """One step: ``kind`` (ante, deal, buy, fold, out, end), the seat (0-based, None for the table), a line,
    the pot after it."""

    kind: str
    seat: int | None
    text: str
    pot: int


class HomeGame:
    """The game as a state machine (``current_seat``, ``legal_actions``, ``apply``, ``is_terminal``, ``history``,
    ``net``).

    ``deck``: the dealing order (the first ``players * start_cards`` cards are the deal).
    Money in chips.  Folded and beaten hands keep their cards face up (``hands``) but are out.
    """

    def __init__(self, rules: HomeRules, deck) -> None:
        check_instance(rules, HomeRules, "rules")
        try:
            deck = [int(c) for c in deck]
        except (TypeError, ValueError):
            deck = None
        if deck is None or sorted(deck) != list(range(rules.deck_size)):
            raise TableStateError(f"a home-game deck must hold each of the {rules.deck_size} cards once")
        self.rules, self.deck = rules, deck
        n = rules.players
        self.hands: list[list[int]] = [[] for _ in range(n)]
        for r in range(rules.start_cards):
            for s in range(n):
                self.hands[s].append(deck[r * n + s])
        self.next_card = n * rules.start_cards
        self.active = [True] * n
        self.paid = [1] * n
        self.pot = n
        self.status = [-1] * n
        self.bought = [0] * n
        self.received = [0] * n
        self.turns = [0] * n
        self.share = [0.0] * n  # of the pot, set at the end
        self.actions = 0
        self.end = ""
        self.log: list[LogEntry] = [LogEntry("ante", None, f"{n} players ante one chip each", self.pot)]
        self.log.append(LogEntry("deal", None, "Deal: " + ", ".join(
            f"seat {s + 1} {show(self.hands[s])}" for s in range(n)), self.pot))
        keys = [self.keys(s)[1] for s in range(n)]
        #: order of play at the deal: 0 = the lowest hand, which acts first
        self.order = [sorted(keys).index(k) for k in keys]
        self.current: int | None = None
        self._advance()

    # ------------------------------------------------------------ reading the table
    def keys(self, seat: int) -> tuple[int, int]:
        """``(rank key, order key)`` of a seat's hand."""
        h = self.hands[seat]
        k, o = hand_keys(np.asarray(h, dtype=np.int64), len(h))
        return int(k), int(o)

    def live(self) -> list[int]:
        return [s for s in range(self.rules.players) if self.active[s]]

    def lowest(self) -> int:
        return min(self.live(), key=lambda s: self.keys(s)[1])

    def target(self, seat: int) -> int:
        """The order key ``seat`` must pass: the lowest of the other live hands."""
        return min(self.keys(s)[1] for s in self.live() if s != seat)

    def unseen(self) -> tuple[int, ...]:
        return tuple(sorted(self.deck[self.next_card:]))

    def max_buy(self) -> int:
        """The most cards the current seat may buy (0 only when the game is over)."""
        if self.current is None:
            return 0
        return min(self.rules.hand_limit - len(self.hands[self.current]), len(self.deck) - self.next_card)

    def is_terminal(self) -> bool:
        return self.current is None

    def current_seat(self) -> int | None:
        """The seat to act (the lowest live hand), None once the game is over."""
        return self.current

    def legal_actions(self) -> list[int]:
        """Cards the current seat may buy: 0 (fold) to :meth:`max_buy`."""
        return [] if self.current is None else list(range(self.max_buy() + 1))

    @property
    def history(self) -> list[LogEntry]:
        """The hand history so far (ante, deal, every buy, who is out and why, the end)."""
        return self.log

    def view(self) -> View:
        s = self.current
        return View(tuple(self.hands[s]), self.target(s), self.pot, self.max_buy(), len(self.live()), self.unseen(),
                    self)

    @property
    def net(self) -> list[float]:
        """Chips won less chips paid, by seat (valid at the end)."""
        return [self.pot * self.share[s] - self.paid[s] for s in range(self.rules.players)]

    # ------------------------------------------------------------ playing
    def apply(self, k: int) -> None:
        """The current seat folds (``k = 0``) or buys ``k`` cards."""
        s = self.current
        if s is None:
            raise TableStateError("the home game is over: nobody acts")
        if not 0 <= k <= self.max_buy():
            raise TableStateError(f"seat {s + 1} may buy 0 to {self.max_buy()} cards, not {k}")
        self.actions += 1
        self.turns[s] += 1
        before = show(self.hands[s])
        if k == 0:
            self._out(s, FOLDED, f"Seat {s + 1} ({before}) folds")
        else:
            self.paid[s] += k
            self.pot += k
            self.bought[s] += k
            target = self.target(s)
            got = []
            lifted = False
            for _ in range(k):
                c = self.deck[self.next_card]
                self.next_card += 1
                self.hands[s].append(c)
                got.append(c)
                self.received[s] += 1
                if self.keys(s)[1] > target:
                    lifted = True
                    break
            hand = f"{show(self.hands[s])}, {describe_hand(self.hands[s])}"
            text = f"Seat {s + 1} ({before}) buys {k}, gets {show(got)}: "
            if lifted:
                self.log.append(LogEntry("buy", s, text + f"no longer lowest ({hand})", self.pot))
            else:
                self.log.append(LogEntry("buy", s, text + f"still lowest ({hand})", self.pot))
                self._out(s, BEATEN, f"Seat {s + 1} is out")
        self._advance()

    def _out(self, s: int, status: int, text: str) -> None:
        self.active[s] = False
        self.status[s] = status
        self.log.append(LogEntry("fold" if status == FOLDED else "out", s, text, self.pot))

    def _finish(self, winners: list[int], end: str, losers_status: int = LOST) -> None:
        for s in self.live():
            if s not in winners:
                self.active[s] = False
                self.status[s] = losers_status
        for s in winners:
            self.status[s] = WON if len(winners) == 1 else SPLIT
        self.share = [1.0 / len(winners) if s in winners else 0.0 for s in range(self.rules.players)]
        self.winners, self.end, self.current = winners, end, None
        names = ", ".join(f"seat {w + 1} ({show(self.hands[w])}, {describe_hand(self.hands[w])})"
                          for w in winners)
        verb = "takes" if len(winners) == 1 else "split"
        self.log.append(LogEntry("end", None, f"{names} {verb} the pot of {self.pot} ({end})", self.pot))

    def _advance(self) -> None:
        """Settle whatever needs no decision; leave ``current`` on the seat to act, or end the game."""
        while True:
            live = self.live()
            if len(live) == 1:
                return self._finish(live, "last hand left")
            ranks = [self.keys(s)[0] for s in live]
            if self.rules.tie_ends and min(ranks) == max(ranks):
                return self._finish(live, "every hand left is identical")
            low = self.lowest()
            room = min(self.rules.hand_limit - len(self.hands[low]), len(self.deck) - self.next_card)
            if room > 0:
                self.current = low
                return
            if self.keys(low)[0] == max(ranks):
                return self._finish(live, "the lowest hand cannot buy and every hand left is identical")
            if self.rules.stuck == "showdown":
                best = max(ranks)
                return self._finish([s for s in live if self.keys(s)[0] == best],
                                    "showdown: the lowest hand cannot buy")
            self._out(low, STUCK, f"Seat {low + 1} ({show(self.hands[low])}) is lowest and cannot receive a card: out")


@dataclass(frozen=True)
class SeatResult:
    """One seat's game.  Chips: ``paid`` (ante and buys), ``share`` of the pot (1, 1/k, 0), ``net``."""

    seat: int
    strategy: str
    start: tuple[int, ...]
    order: int
    status: int
    cards: tuple[int, ...]
    bought: int
    received: int
    turns: int
    paid: int
    share: float
    net: float

    @property
    def status_name(self) -> str:
        return STATUS_NAMES[self.status]


@dataclass(frozen=True)
class GameRecord:
    """A finished game: the seats, the pot, the number of decisions (``actions``), how it ended, the log."""

    rules: HomeRules
    deck: tuple[int, ...]
    seats: tuple[SeatResult, ...]
    pot: int
    actions: int
    end: str
    log: tuple[LogEntry, ...] = field(repr=False)

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame([{
            "seat": s.seat + 1, "strategy": s.strategy, "start": show(s.start), "order": s.order + 1,
            "status": s.status_name, "hand": show(s.cards), "name": describe_hand(s.cards), "bought": s.bought,
            "received": s.received, "turns": s.turns, "paid": s.paid, "share": s.share, "net": s.net,
        } for s in self.seats])

    def summary(self) -> str:
        return format_history(self)


def play_game(rules: HomeRules | None = None, strategies="pot-odds", seed=None, *, deck=None,
              rng_seed: int | None = None) -> GameRecord:
    """Play one game with one strategy per seat (names or :class:`HomeStrategy`), dealt from ``seed``
    (:func:`~ricochet_math.games.home.deal.deal_deck`; None: fresh entropy) or from a given ``deck`` (the dealing order);
    ``rng_seed`` seeds the pot-odds draws (default: the seed)."""
    rules = check_instance(rules, HomeRules, "rules", allow_none=True) or HomeRules()
    seed = resolve_seed(seed)
    if deck is None:
        deck = deal_deck(rules, seed=seed)
    return play_deck(rules, strategies, deck, seed if rng_seed is None else rng_seed)


def play_deck(rules: HomeRules, strategies, deck, rng_seed: int = 0) -> GameRecord:
    """Play one game from ``deck`` (the dealing order) with one strategy per seat (names or
    :class:`HomeStrategy`); ``rng_seed`` seeds the pot-odds draws (the kernel's per-game seed, so the
    kernel's batch replays here game for game)."""
    check_instance(rules, HomeRules, "rules")
    rng_seed = check_seed(rng_seed, "rng_seed", allow_none=False)
    if isinstance(strategies, str) or not isinstance(strategies, (list, tuple)) or \
            not all(isinstance(s, HomeStrategy) for s in strategies):
        strategies = parse_strategies(strategies, rules.players)
    if len(strategies) != rules.players:
        raise TableStateError(f"{len(strategies)} strategies for {rules.players} seats")
    game = HomeGame(rules, deck)
    rng = [int(rng_seed) & ((1 << 64) - 1)]
    while not game.is_terminal():
        game.apply(int(strategies[game.current].decide(game.view(), rng)))
    return _record(game, strategies)


def _record(game: HomeGame, strategies) -> GameRecord:
    seats = tuple(SeatResult(
        seat=s, strategy=strategies[s].name, start=tuple(game.hands[s][:game.rules.start_cards]),
        order=game.order[s], status=game.status[s], cards=tuple(game.hands[s]), bought=game.bought[s],
        received=game.received[s], turns=game.turns[s], paid=game.paid[s], share=game.share[s], net=game.net[s],
    ) for s in range(game.rules.players))
    return GameRecord(game.rules, tuple(game.deck), seats, game.pot, game.actions, game.end, tuple(game.log))


def format_history(record: GameRecord) -> str:
    """The game as a hand history: the deal, every buy with the cards and the pot, who is out and why, the end."""
    title = f"{'Ricochet Poker II' if record.rules.variant == 'ricochet2' else 'Ricochet home game'}, " \
            f"{record.rules.players} players, rules {record.rules.name}"
    lines = [title, "=" * len(title)]
    for e in record.log:
        lines.append(f"  {e.text}" + (f"   [pot {e.pot}]" if e.kind in ("ante", "buy") else ""))
    lines += ["", "Results (chips):"]
    width = max(len(s.strategy) for s in record.seats)
    for s in record.seats:
        lines.append(f"  Seat {s.seat + 1} [{s.strategy:<{width}}] {s.status_name:<6} paid {s.paid:>2}, "
                     f"share {s.share:g}, net {s.net:+g}  | {show(s.cards)} ({describe_hand(s.cards)})")
    return "\n".join(lines)
