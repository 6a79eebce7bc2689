"""One game of Ring Poker, readable: the deal, the ring, the moves and the history.

The deck (54 cards: ``rank*4 + suit``, the jokers 52 and 53) is dealt into six piles of
nine in deck order: pile ``p`` holds ``deck[9p : 9p+9]``, its top card first.  Round
``r`` turns up card ``r`` of every pile.  The positions 0..5 go round the ring; position 5
is next to position 0.  A move is the position ``p`` of the pair (p, p+1 mod 6); a taken
position is a gap, and the cards either side of a gap are not adjacent.  Seats are
numbered to the left: the player to the left of seat ``s`` is ``s + 1 mod players``.

:class:`RingGame` is the state machine (``current_seat``, ``legal_moves``, ``apply``,
``is_terminal``), :func:`play_game` plays one with strategies, and the batch kernel
(:mod:`ricochet_math.games.ring.kernel`) is tested equal to it move for move.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ricochet_math.arguments import check_instance, check_whole
from ricochet_math.errors import CardError, RicochetError, quote
from ricochet_math.games.ring.arrangement import (
    OBJECTIVES,
    Arrangement,
    OpponentModel,
    arrange,
    key_category,
)
from ricochet_math.games.ring.future import value_model
from ricochet_math.games.ring.hands import N_CARDS, cards_text, parse_ring_cards
from ricochet_math.games.ring.rules import PILES, ROUNDS, RingRules
from ricochet_math.games.ring.scoring import reference_score
from ricochet_math.games.ring.strategies import (
    RANDOM_DRAWS,
    STRATEGIES,
    legal_pairs,
    reference_choose,
    strategy_code,
)
from ricochet_math.random_streams import resolve_seed

__all__ = ["GameRecord", "RingGame", "Take", "deal_piles", "deal_batch", "deal_game", "play_game"]


def deal_piles(deck) -> np.ndarray:
    """``int64[6, 9]``: pile p, depth d (0 = top) of a 54-card deck order."""
    deck = np.asarray(deck, dtype=np.int64)
    if deck.shape != (N_CARDS,) or np.unique(deck).size != N_CARDS or deck.min() < 0 or deck.max() >= N_CARDS:
        raise RicochetError("a Ring Poker deck is an order of the 54 cards 0..53")
    return deck.reshape(PILES, ROUNDS)


@dataclass(frozen=True)
class Take:
    """One entry of the history: in ``round`` (1..9) ``seat`` took ``cards`` from ring
    ``positions``; ``how`` is ``pair`` (a chosen adjacent pair), ``leftover`` (3 players: the
    last two cards) or ``discard`` (2 players: nobody takes them, ``seat`` is -1)."""

    round: int
    seat: int
    positions: tuple[int, int]
    cards: tuple[int, int]
    how: str


@dataclass
class RingGame:
    """The state of one game.  ``ring[p]`` is the face-up card at position p (-1 a gap)."""

    rules: RingRules
    deck: np.ndarray
    round: int = 0
    ring: list[int] = field(default_factory=list)
    taken_this_round: int = 0
    holdings: list[list[int]] = field(default_factory=list)
    history: list[Take] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.piles = deal_piles(self.deck)
        self.holdings = [[] for _ in range(self.rules.players)]
        self._turn_up()

    def _turn_up(self) -> None:
        self.ring = [int(c) for c in self.piles[:, self.round]] if self.round < ROUNDS else [-1] * PILES
        self.taken_this_round = 0

    def is_terminal(self) -> bool:
        return self.round >= ROUNDS

    def current_seat(self) -> int:
        """The seat choosing a pair now: the round's first player, then the player to its left."""
        return (self.rules.first_player(self.round) + self.taken_this_round) % self.rules.players

    def legal_moves(self) -> list[int]:
        return legal_pairs(self.ring) if not self.is_terminal() else []

    def legal_actions(self) -> list[int]:
        """The ring positions ``p`` of the pairs ``(p, p + 1)`` the current seat may take (the contract's name)."""
        return self.legal_moves()

    def apply(self, p: int) -> None:
        """Take the pair at ring position ``p``; after the second pair, the last two cards go to
        the player who took no pair (3 players) or are discarded (2), and the next round starts."""
        if p not in self.legal_moves():
            raise RicochetError(f"position {p} is not the start of an adjacent pair in round {self.round + 1}: "
                                f"legal {self.legal_moves()}")
        seat, q = self.current_seat(), (p + 1) % PILES
        cards = (self.ring[p], self.ring[q])
        self.holdings[seat].extend(cards)
        self.history.append(Take(self.round + 1, seat, (p, q), cards, "pair"))
        self.ring[p] = self.ring[q] = -1
        self.taken_this_round += 1
        if self.taken_this_round == 2:
            left = [i for i in range(PILES) if self.ring[i] >= 0]
            rest = tuple(self.ring[i] for i in left)
            if self.rules.players == 3:
                third = (self.rules.first_player(self.round) + 2) % 3
                self.holdings[third].extend(rest)
                self.history.append(Take(self.round + 1, third, tuple(left), rest, "leftover"))
            else:
                self.history.append(Take(self.round + 1, -1, tuple(left), rest, "discard"))
            self.round += 1
            self._turn_up()


@dataclass(frozen=True)
class GameRecord:
    """A finished game: the deck, the history, each seat's arrangement, points and win share."""

    rules: RingRules
    strategies: tuple[str, ...]
    deck: tuple[int, ...]
    history: tuple[Take, ...]
    arrangements: tuple[Arrangement, ...]
    points: tuple[int, ...]
    shares: tuple[float, ...]

    def to_frame(self) -> pd.DataFrame:
        """The history, one row per take, then nothing else (see :meth:`hands_frame` for the showdown)."""
        return pd.DataFrame([{"round": t.round, "seat": t.seat + 1 if t.seat >= 0 else "discard", "how": t.how,
                              "positions": f"{t.positions[0]}-{t.positions[1]}", "cards": cards_text(t.cards)}
                             for t in self.history])

    def hands_frame(self) -> pd.DataFrame:
        rows = []
        for seat, a in enumerate(self.arrangements):
            for slot, (h, k) in enumerate(zip(a.hands, a.keys)):
                rows.append({"seat": seat + 1, "slot": ("strongest", "middle", "weakest")[slot],
                             "hand": cards_text(h), "category": key_category(k)})
            rows.append({"seat": seat + 1, "slot": "spares", "hand": cards_text(a.spares), "category": ""})
        return pd.DataFrame(rows)

    def summary(self) -> str:
        lines = [self.rules.summary()]
        for r in range(1, ROUNDS + 1):
            takes = [t for t in self.history if t.round == r]
            ring = [""] * PILES
            for t in takes:
                for pos, c in zip(t.positions, t.cards):
                    ring[pos] = cards_text([c])
            parts = [(f"seat {t.seat + 1} takes" if t.how == "pair" else
                      f"seat {t.seat + 1} gets" if t.how == "leftover" else "discard") + f" {cards_text(t.cards)}"
                     for t in takes]
            lines.append(f"round {r}: ring {' '.join(ring)}; " + "; ".join(parts))
        for seat, a in enumerate(self.arrangements):
            lines.append(f"seat {seat + 1} ({self.strategies[seat]}): {a.summary()}")
        winners = [s for s, w in enumerate(self.shares) if w > 0]
        lines.append(f"points {list(self.points)}; " + ("winner seat " if len(winners) == 1 else "shared win, seats ")
                     + ", ".join(str(w + 1) for w in winners))
        return "\n".join(lines)


def deal_batch(seed: np.random.SeedSequence, length: int) -> tuple[np.ndarray, np.ndarray]:
    """The deals of one batch: ``int64[length, 54]`` deck orders and ``int64[length, 18]`` random draws 0..59."""
    rng = np.random.default_rng(seed)
    decks = rng.permuted(np.tile(np.arange(N_CARDS, dtype=np.int64), (length, 1)), axis=1)
    draws = rng.integers(0, RANDOM_DRAWS, size=(length, 2 * ROUNDS), dtype=np.int64)
    return decks, draws


def deal_game(seed=None) -> tuple[np.ndarray, np.ndarray]:
    """One game's deck (54 cards) and random draws from ``seed`` (:func:`deal_batch` of one game)."""
    decks, draws = deal_batch(np.random.SeedSequence(resolve_seed(seed)), 1)
    return decks[0], draws[0]


def play_game(rules: RingRules | None = None, strategies=None, seed=None, *, deck=None, draws=None,
              objective: str = "strongest", opponent=None, model=None) -> GameRecord:
    """Play one game with readable code: ``strategies`` (one name per seat, default ``greedy-fast``),
    dealt from ``seed`` (the deck and the random draws of game 0 of :func:`~ricochet_math.games.ring.analysis.simulate`'s first
    batch with that seed, so the kernel plays the same game) or from a given ``deck`` (54 cards) and
    ``draws`` (the random draws 0..59 of the 18 choices in order, needed only by ``random``; default
    zeros).  Each seat arranges its 18 cards with ``objective`` (``opponent``: the model for
    ``"points"``); ``model``: the ``greedy`` value's opponent model (default :func:`~.future.value_model`
    of the rules)."""
    rules = check_instance(rules, RingRules, "rules", allow_none=True) or RingRules()
    if strategies is not None and (isinstance(strategies, (str, bytes)) or not hasattr(strategies, "__iter__")):
        raise RicochetError(f"strategies must be one strategy name per seat, got {quote(strategies)}")
    # only None takes the default: an empty list is no strategy for any seat
    strategies = ["greedy-fast"] * rules.players if strategies is None else list(strategies)
    if deck is None:
        deck, dealt = deal_game(seed)
        draws = dealt if draws is None else draws
    names = tuple(STRATEGIES[strategy_code(s)] for s in strategies)
    if len(names) != rules.players:
        raise RicochetError(f"{rules.players} players need {rules.players} strategies, got {len(names)}")
    if not isinstance(objective, str) or objective not in OBJECTIVES:
        raise RicochetError(f"unknown objective {quote(objective, 40)}")
    check_instance(opponent, OpponentModel, "opponent", allow_none=True)
    deck = np.asarray(parse_ring_cards(deck, where="the deck"))
    if len(deck) != N_CARDS:
        raise CardError(f"a Ring Poker deck holds each of the {N_CARDS} cards once, got {len(deck)} cards")
    try:
        draws = [0] * (2 * ROUNDS) if draws is None else [check_whole(d, "a draw", low=0, high=59) for d in draws]
    except TypeError:
        raise RicochetError(f"draws must be whole numbers 0..59, got {quote(draws)}") from None
    if model is None and "greedy" in names:
        model = value_model(rules)
    game = RingGame(rules, np.asarray(deck))
    k = 0
    while not game.is_terminal():
        seat = game.current_seat()
        seen = game.piles[:, :game.round + 1].ravel()  # every card turned up so far
        p = reference_choose(names[seat], game.ring, game.holdings, seat, game.taken_this_round == 1, draws[k],
                             seen, rules, model)
        game.apply(p)
        k += 1
    arr = tuple(arrange(h, rules=rules, objective=objective, opponent=opponent) for h in game.holdings)
    points, shares = reference_score([a.keys for a in arr])
    return GameRecord(rules, names, tuple(int(c) for c in game.deck), tuple(game.history), arr,
                      tuple(points), tuple(shares))
