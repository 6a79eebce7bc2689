"""How the cards reach the table: player counts, deck orders, and a table dealt face up.

A round is dealt either from a **deck order** (kernel integers ``rank*4 + suit``,
read front to back as :mod:`ricochet_math.engine.round` describes: two cards
per seat, five for the dealer, then three per draw in acting order) or
**face up**, as a :class:`FaceUpTable`: the dealer's five cards, every
seat's two cards, and what the seats that have acted did (fold, or the three
cards drawn), as an observer at the table records them.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ricochet_math.arguments import check_seed, split_items, whole_from_text
from ricochet_math.errors import CardError, RicochetError, RuleError, TableStateError, quote
from ricochet_math.evaluator.cards import format_cards, parse_cards
from ricochet_math.evaluator.evaluation import ORDER_KEY
from ricochet_math.rules.ruleset import MAX_PLAYERS

__all__ = [
    "check_players", "parse_players", "cards_needed", "check_deck", "deal_deck", "acting_order",
    "FaceUpTable", "face_up_table",
]


def check_players(n) -> int:
    """``n`` as an int in ``1..7`` or :class:`RuleError`."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= int(n) <= MAX_PLAYERS:
        raise RuleError(f"number of players must be 1..{MAX_PLAYERS}, got {quote(n)}")
    return int(n)


def parse_players(spec) -> tuple[int, ...]:
    """Player counts from ``"1-7"``, ``"1,3,5"``, ``"2-4,7"``, an int or an iterable of ints.

    Raises :class:`~ricochet_math.errors.RuleError` (one line) for anything outside 1..7.
    """
    if isinstance(spec, str):
        out: list[int] = []
        # an empty item ("2,,4", "2,") is refused, not skipped; counts are ASCII digits ("٣" is not 3)
        for part in split_items(spec, "player counts", error=RuleError):
            lo, sep, hi = part.partition("-")
            try:
                a = whole_from_text(lo, "a player count", grouping=False)
                b = whole_from_text(hi, "a player count", grouping=False) if sep else a
            except RicochetError:
                raise RuleError(f"bad player counts {quote(spec)}: --players must be a count or a range in ASCII digits "
                                "such as 1-7, 2,4,7 or 3") from None
            if a > b:
                raise RuleError(f"bad player counts {quote(spec)}: range {part} runs backwards")
            out.extend(range(a, b + 1))
        values = out
    elif isinstance(spec, (int, np.integer)) and not isinstance(spec, bool):
        values = [int(spec)]
    else:
        try:
            values = list(spec)
        except TypeError:
            raise RuleError(f"bad player counts {quote(spec)}") from None
    if not values:
        raise RuleError("no player counts given")
    return tuple(sorted({check_players(n) for n in values}))


def cards_needed(players: int) -> int:
    """Deck cards a round with ``players`` seats can use: ``5N + 5`` (2 + 3 per seat, 5 for the dealer)."""
    return 5 * check_players(players) + 5


def check_deck(deck: Sequence[int], n: int) -> tuple[int, ...]:
    """``deck`` as a tuple of distinct kernel cards, long enough for ``n`` players, or :class:`CardError`."""
    cards = [int(c) for c in np.asarray(deck).ravel()]
    if any(not 0 <= c < 52 for c in cards):
        raise CardError("deck cards must be kernel integers 0..51")
    if len(set(cards)) != len(cards):
        raise CardError("the deck holds a card twice")
    need = cards_needed(n)
    if len(cards) < need:
        raise CardError(f"a deck for {n} players needs at least {need} cards (2 per seat, 5 for the dealer, "
                        f"3 per draw), got {len(cards)}")
    return tuple(cards)


def deal_deck(players: int, *, dealer=None, hands: Sequence | None = None, draws=None,
              rng: np.random.Generator | None = None, seed: int | None = None) -> np.ndarray:
    """A full 52-card deck order with some cards fixed, the rest shuffled.

    ``dealer``: up to 5 cards (text or kernel integers); ``hands``: up to
    ``players`` hands of up to 2 cards each (``None`` or ``""`` for a random
    hand); ``draws``: cards for the draws in acting order, three per drawing
    seat.  Missing cards are dealt at random from the rest.
    Raises :class:`CardError` for unreadable, duplicate or too many cards.
    """
    n = check_players(players)
    fixed: dict[int, int] = {}
    used: dict[int, str] = {}  # card -> where it already is, for duplicate messages

    def place(text, start: int, room: int, where: str) -> None:
        if text is None or (isinstance(text, str) and not text.strip()):
            return
        cards = parse_cards(text if isinstance(text, str) else list(text), where=where, dead=used)
        if len(cards) > room:
            raise CardError(f"too many cards for {where}: at most {room}, got {len(cards)}: {format_cards(cards)}")
        for i, c in enumerate(cards):
            fixed[start + i] = int(c)
            used[int(c)] = where

    hands = list(hands or [])
    if len(hands) > n:
        raise CardError(f"{len(hands)} hands given for {n} players")
    for i, h in enumerate(hands):
        place(h, 2 * i, 2, f"seat {i + 1}'s hand")
    place(dealer, 2 * n, 5, "the dealer's hand")
    if draws is not None:
        text = " ".join(draws) if (not isinstance(draws, str) and all(isinstance(d, str) for d in draws)) else draws
        place(text, 2 * n + 5, 52 - (2 * n + 5), "the draws")
    if rng is not None and not isinstance(rng, np.random.Generator):
        raise CardError(f"rng must be a numpy Generator (np.random.default_rng(seed)) or None, "
                        f"got {type(rng).__name__}: give seed= for a whole-number seed")
    rng = rng if rng is not None else np.random.default_rng(check_seed(seed))
    rest = [c for c in rng.permutation(52).tolist() if c not in set(used)]
    deck = []
    for pos in range(52):
        deck.append(fixed[pos] if pos in fixed else rest.pop(0))
    return np.array(deck, dtype=np.int64)


def acting_order(holes: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """Seats in order of play: lowest two-card hand first, ties by the suit of the higher card
    (:func:`~ricochet_math.evaluator.evaluation.order_key`; no two hands share a key)."""
    return tuple(sorted(range(len(holes)), key=lambda i: int(ORDER_KEY[holes[i][0] * 52 + holes[i][1]])))


# ----------------------------------------------------------------------------
# A table dealt face up
# ----------------------------------------------------------------------------

_NOT_ACTED = ("", "-", "none", "wait")


@dataclass(frozen=True)
class FaceUpTable:
    """A table as an observer records it, cards as kernel integers.

    ``dealer``: the dealer's five cards; ``players``: each seat's two cards, in
    seat order; ``actions[i]``: ``None`` (seat ``i`` has not acted yet),
    ``"fold"``, or the three cards it drew.  Build it with
    :func:`face_up_table`, which checks the cards; play it with
    :meth:`ricochet_math.engine.round.Round.face_up`, which checks the order of play.
    """

    dealer: tuple[int, ...]
    players: tuple[tuple[int, int], ...]
    actions: tuple

    def __post_init__(self) -> None:
        # Built directly (not through face_up_table), its integers reach kernels that index tables with
        # them unchecked: a card 52..63 or a negative one read outside them (a segmentation fault).
        dealer, players, actions = _checked_table(self.dealer, self.players, self.actions)
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "actions", actions)

    @property
    def n_players(self) -> int:
        return len(self.players)


def face_up_table(dealer, players, actions=None) -> FaceUpTable:
    """Parse and check a face-up table: cards as text or kernel ints; ``actions`` per seat,
    in seat order, as ``None`` (or ``""``, ``"-"``, ``"none"``, ``"wait"``), ``"fold"``
    or the three drawn cards (text or ints).

    Raises one-line :class:`~ricochet_math.errors.CardError` /
    :class:`~ricochet_math.errors.TableStateError` for duplicate or missing cards,
    a player count outside 1..7 and a number of actions other than one per seat.
    """
    return FaceUpTable(*_checked_table(dealer, players, actions))


def _checked_table(dealer, players, actions) -> tuple[tuple, tuple, tuple]:
    """``face_up_table``'s checks: the table as ``(dealer, players, actions)`` of kernel integers."""
    seen: dict[int, str] = {}  # card -> where it is, for duplicate messages
    if isinstance(players, (str, bytes)) or not hasattr(players, "__iter__"):
        raise TableStateError(f"players must be a sequence of two-card hands, got {quote(players)}")
    players = list(players)
    d = parse_cards(dealer, count=5, where="the dealer's hand")
    seen.update({int(c): "the dealer's hand" for c in d})
    if not 1 <= len(players) <= MAX_PLAYERS:
        raise TableStateError(f"a table has 1 to {MAX_PLAYERS} players, got {len(players)}")
    hands = []
    for i, p in enumerate(players):
        h = parse_cards(p, count=2, where=f"player {i + 1}'s hand", dead=seen)
        seen.update({int(c): f"player {i + 1}'s hand" for c in h})
        hands.append((int(h[0]), int(h[1])))
    acts = list(actions) if actions is not None else [None] * len(players)
    if len(acts) != len(players):
        raise TableStateError(f"{len(acts)} actions given for {len(players)} players")
    parsed = []
    for i, a in enumerate(acts):
        if a is None or (isinstance(a, str) and a.strip().lower() in _NOT_ACTED):
            parsed.append(None)
        elif isinstance(a, str) and a.strip().lower() == "fold":
            parsed.append("fold")
        else:
            drawn = parse_cards(a, count=3, where=f"player {i + 1}'s draw", dead=seen)
            seen.update({int(c): f"player {i + 1}'s draw" for c in drawn})
            parsed.append(tuple(int(c) for c in drawn))
    return tuple(int(c) for c in d), tuple(hands), tuple(parsed)
