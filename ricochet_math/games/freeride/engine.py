"""The readable Free Ride Poker engine: a round as a state machine, a game as rounds, and a hand history.

This is the reference the numba kernel (:mod:`~ricochet_math.games.freeride.kernel`) is tested equal to, and the one to read when
checking the rules (:mod:`~ricochet_math.games.freeride.rules` lists the readings where the seed is silent).  Cards are kernel
integers (``rank*4 + suit``); a deck is any sequence of distinct cards, dealt from the front: seat ``s``
gets ``deck[5s:5s+5]``, refills come from ``deck[5*seats:]`` in the order the cards are played.

>>> from ricochet_math.games.freeride.engine import play_game
>>> game = play_game(None, ["computer"] * 4, seed=7)
>>> game.rounds > 0 and sum(game.chips) == 4 * 50
True
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ricochet_math.arguments import check_whole
from ricochet_math.errors import RuleError, quote
from ricochet_math.evaluator.cards import format_card, format_cards
from ricochet_math.evaluator.evaluation import eval5
from ricochet_math.evaluator.names import describe
from ricochet_math.games.freeride.rules import HAND, MAX_SEATS, PLAYS, FreeRideRules
from ricochet_math.games.freeride.strategies import FOLD, View, get_strategy
from ricochet_math.random_streams import Xoshiro256, resolve_seed

__all__ = ["Round", "RoundRecord", "GameRecord", "play_round", "play_game", "game_decks", "player_leaves"]

Decider = Callable[[View], int]


@dataclass
class RoundRecord:
    """What one round did: chips before and after, who started, who folded with how many cards face up
    (-1: reached the showdown or won alone), the showdown values (-1: none), the winners, the pot left in
    the middle (odd chips carried), free rides taken, and the readable history lines."""

    chips_before: list[int]
    chips_after: list[int]
    starter: int
    fold_stage: list[int]
    values: list[int]
    winners: list[int]
    carry: int
    free_rides: list[int]
    history: list[str] = field(default_factory=list)

    @property
    def net(self) -> list[int]:
        return [a - b for a, b in zip(self.chips_after, self.chips_before)]


class Round:
    """One round of Free Ride Poker (readable state machine).

    ``chips``: each seat's chips before the round (all in the game); ``deck``: the cards in dealing
    order; ``carry``: chips left in the middle by the last round; ``index``: the round's number in the
    game (the ``rotate`` opening starts seat ``index mod seats``).  Drive it with :meth:`current_seat`,
    :meth:`view` and :meth:`apply` until :meth:`is_terminal`; :meth:`record` gives the result.
    """

    def __init__(self, rules: FreeRideRules, chips: Sequence[int], deck: Sequence[int], *, carry: int = 0,
                 index: int = 0) -> None:
        n = len(chips)
        if n < 2:
            raise RuleError(f"a round needs at least 2 seats, got {n}")
        try:
            deck = [int(c) for c in deck]
        except (TypeError, ValueError, OverflowError):
            raise RuleError(f"a deck is a list of card numbers 0..51, got {quote(deck)}") from None
        if len(set(deck)) != len(deck) or len(deck) < HAND * n or not all(0 <= c <= 51 for c in deck):
            raise RuleError(f"a deck of distinct cards with at least {HAND * n} cards is needed")
        self.rules, self.n = rules, n
        self.chips_before = [int(c) for c in chips]
        self.chips = list(self.chips_before)
        self.deck, self.next_card = deck, HAND * n
        self.hands = [sorted(deck[HAND * s:HAND * s + HAND]) for s in range(n)]
        self.up: list[list[int]] = [[] for _ in range(n)]
        self.down: list[int | None] = [None] * n
        self.active = [True] * n
        self.fold_stage = [-1] * n
        self.free_rides = [0] * n
        self.pot = int(carry)
        self.history: list[str] = [
            "deal: " + "; ".join(f"seat {s + 1} {format_cards(self.hands[s])}" for s in range(n))]
        self.opening = rules.opening == "card"
        self.opening_cards: list[int | None] = [None] * n
        self.turn = 0
        self.starter = -1
        self.values = [-1] * n
        self.winners: list[int] = []
        self.finished = False
        if not self.opening:
            if rules.opening == "hand":
                low = min(range(n), key=lambda s: self.hands[s][0])
                self.history.append(f"seat {low + 1} holds the lowest card, {format_card(self.hands[low][0])}, and starts")
            else:
                low = index % n
                self.history.append(f"seat {low + 1} starts (rotation)")
            self.starter = self.turn = low

    # ------------------------------------------------------------------ the state machine
    def played(self, s: int) -> int:
        return len(self.up[s]) + (self.down[s] is not None)

    def current_seat(self) -> int:
        """The seat to act: during the opening, the next seat to choose its opening card."""
        return self.turn

    def view(self, s: int | None = None) -> View:
        """What seat ``s`` (default: the current one) sees.  During the opening no board is shown yet."""
        s = self.turn if s is None else s
        boards = tuple(() for _ in range(self.n)) if self.opening else tuple(tuple(u) for u in self.up)
        return View(s, tuple(self.hands[s]), tuple(self.up[s]), boards, tuple(self.active), self.chips[s],
                    self.opening)

    def is_terminal(self) -> bool:
        return self.finished

    def exposure(self, s: int) -> int:
        """What seat ``s`` would risk by playing her next card: the next fold price or the showdown loss."""
        k = len(self.up[s])
        return self.rules.showdown_loss if k + 1 >= PLAYS else self.rules.fold_cost(k + 1)

    def forced_fold(self, s: int) -> bool:
        """Without the free ride, a seat that could not pay what her next card exposes her to must fold."""
        return not self.rules.free_ride and not self.opening and self.chips[s] < self.exposure(s)

    def legal_actions(self) -> list[int]:
        s = self.turn
        if self.opening:
            return list(self.hands[s])
        if self.forced_fold(s):
            return [FOLD]
        cards = list(self.hands[s])
        return cards + [FOLD]

    def apply(self, action: int) -> None:
        """Play card ``action`` (0..51) of the current seat's hand, or fold (:data:`FOLD`)."""
        s = self.turn
        if self.finished:
            raise RuleError("the round is over")
        if action not in self.legal_actions():
            raise RuleError(f"seat {s} cannot {'fold' if action == FOLD else 'play ' + format_card(action)} now")
        if self.opening:
            self.opening_cards[s] = action
            if s + 1 < self.n:
                self.turn = s + 1
                return
            for t in range(self.n):  # shown at once, refilled in seat order
                c = self.opening_cards[t]
                self.hands[t].remove(c)
                self.up[t].append(c)
                drawn = self._refill(t)
                self.history.append(f"seat {t + 1} opens {format_card(c)}" + (f", draws {format_card(drawn)}"
                                                                         if drawn is not None else ""))
            self.opening = False
            low = min(range(self.n), key=lambda t: self.up[t][0])
            self.history.append(f"seat {low + 1} shows the lowest card and starts")
            self.starter = self.turn = low
            return
        if action == FOLD:
            k = len(self.up[s])
            paid = min(self.rules.fold_cost(k), self.chips[s])
            self.chips[s] -= paid
            self.pot += paid
            self.active[s] = False
            self.fold_stage[s] = k
            forced = " (no free ride: cannot cover the next card)" if self.forced_fold(s) else ""
            self.history.append(f"seat {s + 1} folds with {k} face up, pays {paid}{forced}"
                                + (" and is out" if self.chips[s] == 0 else ""))
        else:
            if self.chips[s] < self.exposure(s):
                self.free_rides[s] += 1
            self.hands[s].remove(action)
            if len(self.up[s]) + 1 == PLAYS:
                self.down[s] = action
                what = "plays the last card face down"
            else:
                self.up[s].append(action)
                what = f"plays {format_card(action)}"
            drawn = self._refill(s) if self.played(s) < PLAYS or self.rules.refill_after_last else None
            free = " (free ride)" if self.chips[s] < self.exposure_after(s) else ""
            self.history.append(f"seat {s + 1} {what}{free}" + (f", draws {format_card(drawn)}" if drawn is not None else ""))
        self._advance()

    def exposure_after(self, s: int) -> int:
        """What seat ``s`` now risks (the fold price with her face-up cards, or the showdown loss)."""
        return self.rules.showdown_loss if self.played(s) >= PLAYS else self.rules.fold_cost(len(self.up[s]))

    def _refill(self, s: int) -> int | None:
        if self.next_card >= len(self.deck):
            return None  # the deck is empty: no refill (rules: "stop")
        c = self.deck[self.next_card]
        self.next_card += 1
        self.hands[s].append(c)
        self.hands[s].sort()
        return c

    def _advance(self) -> None:
        live = [t for t in range(self.n) if self.active[t]]
        if len(live) == 1:
            self._settle([live[0]], alone=True)
            return
        waiting = [t for t in live if self.played(t) < PLAYS]
        if not waiting:
            self._showdown(live)
            return
        t = (self.turn + 1) % self.n
        while not (self.active[t] and self.played(t) < PLAYS):
            t = (t + 1) % self.n
        self.turn = t

    def _showdown(self, live: list[int]) -> None:
        for t in live:
            cards = self.up[t] + [self.down[t]]
            self.values[t] = int(eval5(*cards))
            self.history.append(f"showdown: seat {t + 1} {format_cards(cards)}, {describe(self.values[t])}")
        best = max(self.values[t] for t in live)
        winners = [t for t in self._from_starter() if t in live and self.values[t] == best]
        for t in live:
            if self.values[t] < best:
                paid = min(self.rules.showdown_loss, self.chips[t])
                self.chips[t] -= paid
                self.pot += paid
                self.history.append(f"seat {t + 1} loses the showdown, pays {paid}"
                                    + (" and is out" if self.chips[t] == 0 else ""))
        self._settle(winners, alone=False)

    def _from_starter(self) -> list[int]:
        return [(self.starter + i) % self.n for i in range(self.n)]

    def _settle(self, winners: list[int], alone: bool) -> None:
        share, odd = divmod(self.pot, len(winners))
        for t in winners:
            self.chips[t] += share
        carry = odd
        if self.rules.odd_chips == "first":
            for t in winners[:odd]:  # winners are in turn order from the starter
                self.chips[t] += 1
            carry = 0
        self.winners = winners
        how = "is the last player in" if alone else "has the best hand"
        if len(winners) == 1:
            self.history.append(f"seat {winners[0] + 1} {how} and takes {self.pot - carry}")
        else:
            self.history.append(f"seats {', '.join(map(str, winners))} tie and split {self.pot - carry}"
                                + (f"; {carry} left in the middle" if carry else ""))
        self.pot = carry
        self.finished = True

    def record(self) -> RoundRecord:
        if not self.finished:
            raise RuleError("the round is not over")
        return RoundRecord(self.chips_before, list(self.chips), self.starter, list(self.fold_stage),
                           list(self.values), list(self.winners), self.pot, list(self.free_rides),
                           list(self.history))


def play_round(rules: FreeRideRules, deciders: Sequence[Decider], chips: Sequence[int], deck: Sequence[int], *,
               carry: int = 0, index: int = 0) -> RoundRecord:
    """Play one round with each seat's ``decide(view) -> card or FOLD``; return its record."""
    rnd = Round(rules, chips, deck, carry=carry, index=index)
    while not rnd.is_terminal():
        s = rnd.current_seat()
        rnd.apply(FOLD if rnd.forced_fold(s) else deciders[s](rnd.view(s)))
    return rnd.record()


@dataclass
class GameRecord:
    """A whole game: the rounds played, the chips at the end, the winners (most chips), whether it
    finished within ``max_rounds``, the chips left in the middle, and every round's record."""

    rounds: int
    chips: list[int]
    winners: list[int]
    finished: bool
    carry: int
    round_records: list[RoundRecord]

    def history(self) -> str:
        lines = []
        for i, r in enumerate(self.round_records):
            lines.append(f"round {i + 1} (chips {r.chips_before})")
            lines += ["  " + h for h in r.history]
        lines.append(f"game over after {self.rounds} rounds: chips {self.chips}; winner"
                     f"{'s' if len(self.winners) > 1 else ''} seat {', '.join(str(w + 1) for w in self.winners)}")
        return "\n".join(lines)


def player_leaves(chips: Sequence[int], seat: int, middle: int = 0) -> list[int]:
    """The chips when ``seat`` leaves the game (which then ends): her chips and the ``middle`` are split
    equally among the others, the odd chips one each in seat order from her left (our reading)."""
    chips = [int(c) for c in chips]
    n = len(chips)
    if not 0 <= seat < n or n < 2:
        raise RuleError(f"seat {seat} is not at a table of {n}")
    others = [(seat + i) % n for i in range(1, n)]
    share, odd = divmod(chips[seat] + int(middle), len(others))
    for i, t in enumerate(others):
        chips[t] += share + (1 if i < odd else 0)
    chips[seat] = 0
    return chips


def game_decks(seed_sequence: np.random.SeedSequence):
    """The decks a game is dealt, round after round: xoshiro256** seeded from ``seed_sequence``, a full
    Fisher-Yates of a deck that is not reset between rounds (pure Python; the kernel's twin)."""
    rng = Xoshiro256(seed_sequence)
    deck = list(range(52))
    while True:
        rng.shuffle_prefix(deck, 52)
        yield list(deck)


def play_game(rules: FreeRideRules | None = None, strategies: Sequence = ("computer",) * 4, seed=None, *,
              decks=None, chips: Sequence[int] | None = None) -> GameRecord:
    """Play a whole game, one strategy per seat (names, :class:`~.strategies.Threshold` or any
    ``decide(view)`` callable), from ``seed`` (a whole number or a ``SeedSequence``; None: fresh entropy)
    or an iterable of ``decks``.  The game ends after the round in which a player runs out of chips."""
    rules = rules or FreeRideRules()
    if not isinstance(rules, FreeRideRules):
        raise RuleError(f"rules must be FreeRideRules or None, got {type(rules).__name__}")
    if isinstance(strategies, (str, bytes)) or not hasattr(strategies, "__len__"):
        raise RuleError(f"strategies must be a list of one strategy per seat, got {quote(strategies)}")
    if not 2 <= len(strategies) <= MAX_SEATS:
        raise RuleError(f"a game needs 2 to {MAX_SEATS} seats (fill it with computer players: rules.seats_for), "
                        f"got {len(strategies)}")
    deciders = [s if callable(s) and not hasattr(s, "decide") else get_strategy(s).decide for s in strategies]
    if decks is None:
        ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(resolve_seed(seed))
        decks = game_decks(ss)
    elif isinstance(decks, (str, bytes)) or not hasattr(decks, "__iter__"):
        raise RuleError(f"decks must be an iterable of decks (one per round), got {quote(decks)}")
    decks = iter(decks)
    if chips is None:
        chips = [rules.start_chips] * len(strategies)
    elif isinstance(chips, (str, bytes)) or not hasattr(chips, "__len__") or len(chips) != len(strategies):
        raise RuleError(f"chips must give one whole number per seat ({len(strategies)}), got {quote(chips)}")
    chips = [check_whole(c, "a seat's chips", low=0, high=10**9) for c in chips]
    carry, records = 0, []
    for index in range(rules.max_rounds):
        deck = next(decks, None)
        if deck is None:
            raise RuleError(f"the decks ran out after {index} round(s): give one deck per round, or a seed")
        rec = play_round(rules, deciders, chips, deck, carry=carry, index=index)
        records.append(rec)
        chips, carry = list(rec.chips_after), rec.carry
        if min(chips) == 0:
            break
    best = max(chips)
    return GameRecord(len(records), chips, [s for s in range(len(chips)) if chips[s] == best], min(chips) == 0,
                      carry, records)
