"""The rules of Free Ride Poker as data: one frozen dataclass of options, each with the seed's rule or our reading.

Source: the publisher's "How to Play" (``shared/seeds/004_084d797bfc548b15.txt``).  Where the text is
silent we chose a reading and made it an option (``docs/rules.md``, "Free Ride Poker", gives the reasons):

* ``opening``: who starts a round.  The seed says "the player with the lowest value card *in front of
  her* starts", but at the start of a round nothing is in front of anyone, and the fold prices start at
  "1 chip for 1 card".  ``"card"`` (default): every player first shows one card of her choice face up at
  once (and refills); the lowest shown card starts, so a fold always costs at least 1.  ``"hand"``: no
  opening card; the player *holding* the lowest card starts, and folding before any card is shown costs
  ``fold_costs[0]`` (0).  ``"rotate"``: no opening card; seat ``round mod seats`` starts.
* "lowest value card": rank first (deuce lowest, ace highest), then the suit, spades highest, clubs lowest,
  so the lowest card is simply the smallest kernel card ``rank*4 + suit``.
* A showdown loser (or a folder) who cannot pay pays all she has and is out (the free ride, as the seed
  says for a player riding free; we read it for every payment).  ``free_ride=False`` is the counterfactual
  used to price the free ride: a player may only play a card if she could pay the loss it exposes her to
  (the next fold price, or the showdown loss for the last card); otherwise she folds.
* ``refill_after_last``: after the fifth (last) card no refill is drawn (the hand is finished).
* The deck running out (six players): no refill once the deck is empty; a hand of five always holds
  enough cards for the plays left, so nothing else changes.
* ``odd_chips``: a tied showdown splits the pot; ``"first"`` (default) gives the odd chips one each to the
  tied winners in turn order from the round's starter; ``"carry"`` leaves them in the middle for the
  next round's winner (and, at the end of the game, unclaimed).
* A player leaving: her chips and the pot are split equally among the others (odd chips one each in
  seat order from her left), and the game ends.
* The game ends after the round in which a player runs out of chips (the round is finished first and
  its pot paid); the most chips wins, ties share the win.  ``max_rounds`` caps a game for the kernels
  (counted as unfinished; never reached by the shipped strategies in our runs).
* ``min_seats``: "Computer players will be provided if you don't have at least 4 players": a game with
  fewer players than this is filled with computer players (a one-player game is one player and three
  computer players).
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import IntEnum

import numpy as np

from ricochet_math.errors import RuleError, quote
from ricochet_math.game_rules import GameRules

__all__ = ["FreeRideRules", "OPENINGS", "ODD_CHIPS", "MAX_SEATS", "MAX_CHIPS", "MAX_ROUNDS", "HAND", "PLAYS", "rules_vector", "RuleSlot"]

OPENINGS = ("card", "hand", "rotate")
ODD_CHIPS = ("first", "carry")
#: the most seats: the seed's 1-6 players (6 x 5 cards dealt, 22 left for refills)
MAX_SEATS = 6
#: the most chips a start, a fold or a showdown may be (the kernels keep chips in int64; a million is far
#: beyond any table and keeps six seats' sums exact)
MAX_CHIPS = 10**6
#: the most rounds a game may be capped at (a game's length is the kernels' loop bound)
MAX_ROUNDS = 10**6
#: cards in a hand, and cards each player plays in a round (the fifth face down)
HAND = 5
PLAYS = 5


def _whole_in(v, low: int, high: int) -> bool:
    return not isinstance(v, bool) and isinstance(v, (int, np.integer)) and low <= v <= high


@dataclass(frozen=True)
class FreeRideRules(GameRules):
    """Options of a Free Ride Poker game (chips are whole numbers; defaults: the seed and our readings).

    ``fold_costs[k]``: chips a fold costs with ``k`` cards face up (0..4; the seed's 1, 2, 3, 5 for 1..4
    cards; index 0 is used only by the ``hand`` and ``rotate`` openings), each 0 to ``MAX_CHIPS``.
    ``showdown_loss``: what each showdown loser pays (10), 1 to ``MAX_CHIPS`` (at 0 a showdown moves no chip
    and a game could only end at ``max_rounds``).  ``start_chips``: 1 to ``MAX_CHIPS``; ``min_seats``: 1 to
    ``MAX_SEATS``; ``max_rounds``: 1 to ``MAX_ROUNDS``.
    """

    GAME = "Free Ride Poker"

    start_chips: int = 50
    fold_costs: tuple[int, int, int, int, int] = (0, 1, 2, 3, 5)
    showdown_loss: int = 10
    opening: str = "card"
    free_ride: bool = True
    refill_after_last: bool = False
    odd_chips: str = "first"
    min_seats: int = 4
    max_rounds: int = 10_000

    def __post_init__(self) -> None:
        if self.opening not in OPENINGS:
            raise RuleError(f"unknown opening {quote(self.opening)}; choose one of {', '.join(OPENINGS)}")
        if self.odd_chips not in ODD_CHIPS:
            raise RuleError(f"unknown odd_chips {quote(self.odd_chips)}; choose one of {', '.join(ODD_CHIPS)}")
        try:
            costs = () if isinstance(self.fold_costs, (str, bytes)) else tuple(self.fold_costs)
        except TypeError:  # not a sequence: refused below
            costs = ()
        if len(costs) != 5 or any(not _whole_in(c, 0, MAX_CHIPS) for c in costs):
            raise RuleError(f"fold_costs must be five whole numbers from 0 to {MAX_CHIPS:,} (0..4 cards face up), "
                            f"got {quote(self.fold_costs)}")
        object.__setattr__(self, "fold_costs", tuple(int(c) for c in costs))
        for name, low, high in (("start_chips", 1, MAX_CHIPS), ("showdown_loss", 1, MAX_CHIPS),
                                ("min_seats", 1, MAX_SEATS), ("max_rounds", 1, MAX_ROUNDS)):
            v = getattr(self, name)
            if not _whole_in(v, low, high):
                raise RuleError(f"{name} must be a whole number from {low:,} to {high:,}, got {quote(v, 40)}")

    def seats_for(self, players: int) -> int:
        """Seats at the table for ``players`` players: filled with computer players up to ``min_seats``."""
        if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or not 1 <= players <= MAX_SEATS:
            raise RuleError(f"players must be 1..{MAX_SEATS}, got {quote(players)}")
        return max(int(players), self.min_seats)

    def fold_cost(self, face_up: int) -> int:
        """Chips a fold costs with ``face_up`` cards face up."""
        return self.fold_costs[face_up]

    def with_options(self, **changes) -> FreeRideRules:
        """A copy with some options changed (checked again)."""
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise RuleError(f"unknown Free Ride option(s): {', '.join(sorted(unknown))}")
        return replace(self, **changes)

    def to_frame(self):
        import pandas as pd  # pandas only when a table is asked for (rules are built by every import)
        return pd.DataFrame({"option": [f.name for f in fields(self)],
                             "value": [str(getattr(self, f.name)) for f in fields(self)]})

    def summary(self) -> str:
        return ("Free Ride Poker: " + ", ".join(f"{f.name}={getattr(self, f.name)}" for f in fields(self)))


class RuleSlot(IntEnum):
    """Slots of the kernel's rule vector (:func:`rules_vector`; numba reads them as constants)."""

    START = 0
    SHOWDOWN = 1
    OPENING = 2
    FREE_RIDE = 3
    REFILL_LAST = 4
    ODD_CARRY = 5
    MAX_ROUNDS = 6
    FOLD0 = 7  # fold costs 0..4 at 7..11
    SIZE = 12


def rules_vector(rules: FreeRideRules) -> np.ndarray:
    """The rules as an ``int64`` vector the kernel reads (slots :class:`RuleSlot`)."""
    v = np.zeros(RuleSlot.SIZE, dtype=np.int64)
    v[RuleSlot.START] = rules.start_chips
    v[RuleSlot.SHOWDOWN] = rules.showdown_loss
    v[RuleSlot.OPENING] = OPENINGS.index(rules.opening)
    v[RuleSlot.FREE_RIDE] = int(rules.free_ride)
    v[RuleSlot.REFILL_LAST] = int(rules.refill_after_last)
    v[RuleSlot.ODD_CARRY] = int(rules.odd_chips == "carry")
    v[RuleSlot.MAX_ROUNDS] = rules.max_rounds
    v[RuleSlot.FOLD0:RuleSlot.FOLD0 + 5] = rules.fold_costs
    return v
