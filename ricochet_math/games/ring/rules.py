"""The rules of Ring Poker as data: a small frozen dataclass of options.

The game (``shared/seeds/002``): 54 cards (52 and two jokers) dealt face down into six
piles of nine around a ring; nine rounds; each round turns the top card of every pile
up; the round's first player takes two adjacent face-up cards, then the player to the
left takes an adjacent pair from the four left (a taken position is a gap and breaks
adjacency); with two players the last two cards are discarded, with three the player
who took no pair takes them; the first player moves one seat left each round.  Each
player then builds three five-card hands from 18 cards (three spares), compared slot
by slot.  See ``docs/rules.md`` ("Ring Poker") for every reading where the seed is silent.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import pandas as pd

from ricochet_math.errors import RuleError, quote
from ricochet_math.evaluator.jokers import JokerRule
from ricochet_math.game_rules import GameRules

__all__ = ["HANDS", "HAND_SIZE", "PILES", "ROUNDS", "Joker", "RingRules"]

#: positions in the ring (piles)
PILES = 6
#: rounds of a game (nine cards per pile)
ROUNDS = 9
#: hands each player builds
HANDS = 3
#: cards per hand
HAND_SIZE = 5


#: What a joker is worth in a five-card hand: the evaluator's :class:`~ricochet_math.evaluator.jokers.JokerRule`.
#: BUG (Ring Poker's default): an ace, or any card that completes a straight or a flush (the publisher's
#: own advice for its home game, ``shared/seeds/000``: "use them as bugs ... If you use the Joker as a pure
#: wild card, it becomes way too strong"); WILD: any card (five of a kind above a straight flush);
#: DEAD: no rank and no suit (the hand is valued as its other cards under the kicker rule).
Joker = JokerRule


#: how a summary names each joker rule: "jokers bug" read as a software bug (issue 37); the rule's name
#: (``--joker bug``) stays the option's value
JOKER_WORDS = {Joker.BUG: "jokers as bugs", Joker.WILD: "jokers wild", Joker.DEAD: "jokers dead"}


@dataclass(frozen=True)
class RingRules(GameRules):
    """The options of a Ring Poker game (``RingRules.from_toml(path)`` reads them from a file:
    :class:`~ricochet_math.game_rules.GameRules`).

    * ``players``: 2 or 3.
    * ``joker``: :class:`Joker` rule (default BUG, see the class).
    * ``rotate``: the first player moves one seat left each round (the seed's rule 5);
      ``False`` keeps seat 0 first every round (a variant, to measure what the rotation balances).
    """

    GAME = "Ring Poker"

    players: int = 2
    joker: Joker = Joker.BUG
    rotate: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or self.players not in (2, 3):
            raise RuleError(f"Ring Poker is played by 2 or 3 players, got players={quote(self.players)}")
        try:
            object.__setattr__(self, "joker", Joker(self.joker) if not isinstance(self.joker, str)
                               else Joker[self.joker.upper()])
        except (KeyError, ValueError):
            raise RuleError(f"unknown joker rule {quote(self.joker)}: choose bug, wild or dead") from None
        if not isinstance(self.rotate, bool):
            raise RuleError(f"rotate must be true or false, got {quote(self.rotate)}")

    @property
    def pairs_per_round(self) -> int:
        """Pairs taken by choice each round (always two; with 3 players the third takes the last two cards)."""
        return 2

    def first_player(self, round_index: int) -> int:
        """Seat that takes first in round ``round_index`` (0-based); seat 0 starts the game."""
        return round_index % self.players if self.rotate else 0

    def points(self) -> tuple[int, ...]:
        """Slot points by place: 2 players (1, 0), 3 players (2, 1, 0)."""
        return (1, 0) if self.players == 2 else (2, 1, 0)

    def to_frame(self) -> pd.DataFrame:
        d = asdict(self)
        d["joker"] = self.joker.name.lower()
        return pd.DataFrame({"option": list(d), "value": [str(v) for v in d.values()]})

    def summary(self) -> str:
        rot = "rotating first player" if self.rotate else "seat 1 always first (variant)"
        return f"Ring Poker, {self.players} players, {JOKER_WORDS[self.joker]}, {rot}"
