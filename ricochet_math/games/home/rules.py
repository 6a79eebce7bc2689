"""The home game and Ricochet Poker II as data: one frozen dataclass of options.

The rulebook's first section ("Basic Rules", "Variations") describes the home
game; its last ("Ricochet Poker II: Table Game Rules") the same game at a poker
table: one deck without jokers, one starting card, a five-card limit.  The two
differ only in which options they allow, so one engine plays both
(``variant="ricochet2"`` refuses the home game's variations).

Every option and every reading where the rulebook is silent is in
``docs/rules.md`` ("The home game and Ricochet Poker II").
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, replace

import pandas as pd

from ricochet_math.errors import RuleError, quote
from ricochet_math.game_rules import GameRules

__all__ = ["HomeRules", "VARIANTS", "STUCK_RULES", "MIN_PLAYERS", "MAX_PLAYERS"]

VARIANTS = ("home", "ricochet2")
#: what happens when the lowest hand can receive no card (at the hand limit, or the deck is empty)
STUCK_RULES = ("out", "showdown")
MIN_PLAYERS, MAX_PLAYERS = 2, 8


@dataclass(frozen=True)
class HomeRules(GameRules):
    """The options of one home game (all amounts in chips: one chip = one ante); ``HomeRules.from_toml(path)``
    reads them from a file (:class:`~ricochet_math.game_rules.GameRules`).

    * ``players``: 2..8 (rulebook, both sections).
    * ``start_cards``: 1 (rulebook) or 2 (the rulebook's advice for seven-card limits).
    * ``hand_limit``: 5 (rulebook), 6 or 7 (home-game variation; best five of the hand counts).
    * ``jokers``: two jokers in the deck, used as bugs (home-game variation; :mod:`ricochet_math.evaluator.jokers`).
    * ``variant``: ``"home"`` or ``"ricochet2"`` (Ricochet Poker II: 1 card, limit 5, no jokers only).
    * ``stuck``: the lowest hand cannot receive a card (at the limit, or the deck is empty):
      ``"out"`` (default: its only move is to fold) or ``"showdown"`` (the hand ends; the best
      hand takes the pot).  Either way, a stuck lowest hand identical in rank to the best hand
      means every hand left is identical, and they split the pot.
    * ``tie_ends``: ``False`` (default: suits order identical hands until the end, so the
      suit-lower one acts) or ``True`` (the hand ends as soon as every hand left is identical
      in rank, and they split).
    """

    GAME = "Home game"

    players: int = 4
    start_cards: int = 1
    hand_limit: int = 5
    jokers: bool = False
    variant: str = "home"
    stuck: str = "out"
    tie_ends: bool = False

    def __post_init__(self) -> None:
        def whole(name, allowed):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
                raise RuleError(f"home rules: {name} must be one of {', '.join(map(str, allowed))}, got {quote(value)}")
        whole("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
        whole("start_cards", (1, 2))
        whole("hand_limit", (5, 6, 7))
        for name in ("jokers", "tie_ends"):
            if not isinstance(getattr(self, name), bool):
                raise RuleError(f"home rules: {name} must be true or false, got {getattr(self, name)!r}")
        if self.variant not in VARIANTS:
            raise RuleError(f"home rules: variant must be one of {', '.join(VARIANTS)}, got {quote(self.variant)}")
        if self.stuck not in STUCK_RULES:
            raise RuleError(f"home rules: stuck must be one of {', '.join(STUCK_RULES)}, got {quote(self.stuck)}")
        if self.variant == "ricochet2" and (self.start_cards, self.hand_limit, self.jokers) != (1, 5, False):
            raise RuleError("home rules: Ricochet Poker II is played with one starting card, a five-card limit "
                            "and no jokers (variant = \"home\" for the variations)")

    @property
    def deck_size(self) -> int:
        """Cards in the deck: 52, or 54 with the two jokers."""
        return 54 if self.jokers else 52

    @property
    def name(self) -> str:
        """A short label: ``home-4p-1c-limit5`` (with ``-jokers``, ``-stuck-showdown``, ``-tie-ends``)."""
        base = "ricochet2" if self.variant == "ricochet2" else "home"
        label = f"{base}-{self.players}p-{self.start_cards}c-limit{self.hand_limit}"
        if self.jokers:
            label += "-jokers"
        if self.stuck != "out":
            label += f"-stuck-{self.stuck}"
        if self.tie_ends:
            label += "-tie-ends"
        return label

    def with_players(self, players: int) -> HomeRules:
        return replace(self, players=players)

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame([{"option": k, "value": v} for k, v in asdict(self).items()])

    def summary(self) -> str:
        return (f"{'Ricochet Poker II' if self.variant == 'ricochet2' else 'Home game'}: {self.players} players, "
                f"{self.start_cards} starting card(s), hand limit {self.hand_limit}, "
                f"{'two jokers as bugs' if self.jokers else 'no jokers'}, stuck lowest hand: {self.stuck}, "
                f"identical hands end the game: {'yes' if self.tie_ends else 'only when stuck'}")
