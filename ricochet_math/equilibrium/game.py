"""An extensive-form game with chance, described once by a small readable interface.

A game is written as a few methods on *histories*: a history is the tuple of every action taken so far,
the chance outcomes among them (each an action label, a short string), so it is hashable and reads as
what happened (``("K", "J", "b", "p")``: the cards dealt, a bet, a fold).  :mod:`ricochet_math.equilibrium.tree`
walks these methods once into flat arrays for the numba kernels; the readable solvers
(:mod:`~ricochet_math.equilibrium.cfr`, :mod:`~ricochet_math.equilibrium.best_response`) walk the same
methods directly, so every figure has two paths.

The interface assumes *perfect recall* (a player never forgets what she saw or did; the tree builder checks
it) and the same legal actions at every history of an information set (checked too).  Utilities are in the
game's own unit (chips for the poker games), one per player, at terminal histories.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

__all__ = ["CHANCE", "TERMINAL", "History", "Game"]

#: :meth:`Game.player` of a chance history and of a terminal history
CHANCE = -1
TERMINAL = -2

History = tuple[str, ...]


class Game(ABC):
    """The readable description of a game: who moves, what they know, what they may do, what it pays.

    Subclasses set :attr:`name` (with the parameters that change the tree, e.g. ``"kuhn(players=3)"``) and
    :attr:`num_players`, and implement the six methods below.  Nothing else is needed for every solver of
    the layer: the tree is laid out from these calls alone.
    """

    #: the game and the parameters that shape its tree: recorded in results and checkpoints
    name: str = "game"
    #: players, numbered 0..num_players-1
    num_players: int = 2

    def initial(self) -> History:
        """The empty history, where the game starts."""
        return ()

    @abstractmethod
    def player(self, history: History) -> int:
        """Who moves at ``history``: a player ``0..num_players-1``, :data:`CHANCE` or :data:`TERMINAL`."""

    @abstractmethod
    def infoset(self, history: History) -> str:
        """The information-set key of the player to move: the same string for every history she cannot tell
        apart (her own cards, the public cards, every bet), a different one otherwise."""

    @abstractmethod
    def actions(self, history: History) -> Sequence[str]:
        """The legal actions at a player's history, in a fixed order (the same at every history of one
        information set)."""

    @abstractmethod
    def chance_outcomes(self, history: History) -> Sequence[tuple[str, float]]:
        """``(outcome, probability)`` pairs at a chance history; probabilities positive, summing to 1."""

    @abstractmethod
    def utilities(self, history: History) -> Sequence[float]:
        """What each player wins (negative: loses) at a terminal history, in the game's unit."""

    def next(self, history: History, action: str) -> History:
        """The history after ``action`` (a player's action or a chance outcome)."""
        return (*history, action)
