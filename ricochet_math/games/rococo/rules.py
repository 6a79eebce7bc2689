"""Rococo Poker's rules as data: the options a table could set differently, with our readings as defaults.

The publisher's text (``shared/seeds/003_266d472255d5a8cb.txt``) fixes the ante (1), the bet sizes
(1 to 10 per blind or raise), the exchange (once, 0 to 3 cards), the order of play (clockwise from the
first player), split pots and the all-check carry-over.  It is silent on the rest; our readings are the
defaults below and are written out in ``docs/rules.md`` ("Rococo Poker").
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ricochet_math.arguments import check_whole
from ricochet_math.errors import RuleError, quote
from ricochet_math.game_rules import GameRules

__all__ = ["RococoRules", "MAX_PLAYERS", "MIN_PLAYERS"]

MIN_PLAYERS = 2
#: six players: 30 dealt cards plus at most 18 replacements fit in 52 (seven could run out: 35 + 21)
MAX_PLAYERS = 6


@dataclass(frozen=True)
class RococoRules(GameRules):
    """The options of a Rococo table (``RococoRules.from_toml(path)`` reads them from a file:
    :class:`~ricochet_math.game_rules.GameRules`).

    * ``players``: seated players, 2..6 (the seed names no number; six is the most that can never run
      out of cards).
    * ``ante``: each player's automatic stake at the start of every game (seed: 1).
    * ``min_bet`` / ``max_bet``: the size of a blind or of one raise (seed: 1 to 10).
    * ``max_raises``: raises allowed in one betting phase, the blind phase and the betting round each
      (the seed sets no cap; reading: 3, a common card-room cap; after it a player may only call or fold).
      The blind itself is not a raise.
    * ``blind``: whether the first player may declare a blind game (seed: yes).
    * ``carry_limit``: after this many consecutive all-check games the next all-check game is shown down
      among its players instead of carrying again (the seed has no limit; a finite one keeps every pot
      finite for the analysis; it is reached only by policies that rarely bet).
    """

    GAME = "Rococo Poker"

    players: int = 2
    ante: int = 1
    min_bet: int = 1
    max_bet: int = 10
    max_raises: int = 3
    blind: bool = True
    carry_limit: int = 10

    def __post_init__(self) -> None:
        check = lambda v, name, lo, hi: check_whole(v, f"Rococo rules: {name}", low=lo, high=hi)  # noqa: E731
        check(self.players, "players", 2, MAX_PLAYERS)
        check(self.ante, "ante", 1, 1000)
        check(self.min_bet, "min_bet", 1, 1000)
        check(self.max_bet, "max_bet", self.min_bet, 1000)
        check(self.max_raises, "max_raises", 0, 100)
        check(self.carry_limit, "carry_limit", 0, 1000)
        if not isinstance(self.blind, bool):
            raise RuleError(f"Rococo rules: blind must be true or false, got {quote(self.blind)}")

    def with_players(self, players: int) -> RococoRules:
        return replace(self, players=players)

    def summary(self) -> str:
        return (f"Rococo Poker, {self.players} players, ante {self.ante}, bets {self.min_bet}..{self.max_bet}, "
                f"{self.max_raises} raises a phase, blind {'on' if self.blind else 'off'}, carry limit "
                f"{self.carry_limit}")

    def option_rows(self) -> list[tuple[str, str, str]]:
        """(option, value, meaning) rows for tables and the report."""
        return [
            ("players", str(self.players), "seated players (2..6)"),
            ("ante", str(self.ante), "every player, every game"),
            ("bets", f"{self.min_bet}..{self.max_bet}", "size of a blind or of one raise"),
            ("max_raises", str(self.max_raises), "raises per betting phase (our reading)"),
            ("blind", "yes" if self.blind else "no", "first player may declare a blind game"),
            ("carry_limit", str(self.carry_limit), "all-check games carried before a showdown (our reading)"),
        ]
