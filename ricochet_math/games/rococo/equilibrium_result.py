"""The result of a Rococo heads-up equilibrium solve (:class:`RococoEquilibrium`) and what both solvers share:
the games per pot from the carry probabilities, the levels' table, a threshold policy's betting rule.  Its
own module so that the tree solver (:mod:`~ricochet_math.games.rococo.equilibrium`) and the range solver (:mod:`~.range_equilibrium`)
both build the same result without importing each other."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ricochet_math.errors import StrategyError
from ricochet_math.games.rococo.betting import BettingPolicy, policy
from ricochet_math.games.rococo.betting_game import Abstraction
from ricochet_math.games.rococo.blind_equilibrium import BlindAnswer
from ricochet_math.games.rococo.rules import RococoRules

__all__ = ["RococoEquilibrium", "games_per_pot", "levels_frame", "policy_betting"]


def policy_betting(game, spec):
    """``(policy, its betting-round rule)`` (:func:`_threshold_betting`) in ``game``; a raise size the
    game's tree lacks is refused."""
    pol: BettingPolicy = policy(spec)
    rules = game.rules
    amount = min(max(int(pol.raise_amount), rules.min_bet), rules.max_bet)
    if amount not in game.sizes:
        raise StrategyError(f"policy {pol.name!r} raises {amount}, which abstraction {game.spec.name!r} lacks "
                            f"(raise sizes {', '.join(map(str, game.sizes))})")
    return pol, _threshold_betting(pol, game, amount)


def _threshold_betting(pol: BettingPolicy, game, amount: int):
    """The betting-round rule of a threshold policy as a function of a parsed key (its ``own`` discard count
    and ``bucket``) and the legal actions: facing no raise it raises ``amount`` with ``open`` or better, else
    checks; facing a raise it re-raises with ``reraise`` or better while raises remain, else calls with
    ``call`` or better, else folds.  A bucket's lowest value decides for all of it."""
    opens, calls, reraises = (pol.threshold(f) for f in ("open", "call", "reraise"))
    raise_ = f"r{amount}"

    def action(key: dict, actions) -> str:
        lo = int(game.buckets.start[key["own"]][key["bucket"]])
        if "c" == actions[0]:  # nobody has raised
            return raise_ if lo >= opens and raise_ in actions else "c"
        if lo >= reraises and raise_ in actions:
            return raise_
        return "k" if lo >= calls else "f"

    return action


def games_per_pot(carry: np.ndarray) -> float:
    """Expected games per pot, ``1 + c0 + c0 c1 + ...``, from each level's carry probability (the last
    level's is a showdown, not a carry)."""
    return float(np.sum(np.concatenate([[1.0], np.cumprod(carry[:-1])])))


@dataclass(frozen=True, eq=False)
class RococoEquilibrium:
    """An equilibrium of heads-up Rococo's betting game at an abstraction (antes per pot throughout).

    ``values[k]``: the first player's value at level ``k`` (``values[0]``: per pot); ``carry[k]``: the
    probability that the game at level ``k`` is all checks (the pot carries); ``nash_conv``: the pot
    profile's exploitability in the abstract tree (``BRF(0) + BRS(0)``), ``value_bounds`` the bracket of the
    abstract game's value it gives; ``nash_conv_full``: in the tree with every raise size (None when not
    measured); ``policies``: one row per named policy (its exploitability in both trees, its value per pot
    against the equilibrium from a random seat, as first and as second player, and with the policy in both
    seats the first player's value per pot and the games per pot); ``curves``: each level's
    CFR+ exploitability (NashConv of that level with the next level's value fixed) against iterations;
    ``strategy``: the average strategy of every level.
    """

    abstraction: Abstraction
    rules: RococoRules
    iterations: int
    values: np.ndarray
    carry: np.ndarray
    nash_conv: float
    value_bounds: tuple[float, float]
    nash_conv_full: float | None
    policies: object
    curves: object
    strategy: object
    tree_sizes: dict
    seconds: dict
    profiles: tuple = field(repr=False)
    #: NashConv against best responses that know their exact final values: in the abstract raise tree, and
    #: with every raise size (None: not measured)
    nash_conv_exact_cards: float | None = None
    nash_conv_exact_cards_full: float | None = None
    #: with the blind decision (:mod:`~.blind_equilibrium`): the blind option's value and the blind round's
    #: strategy (None: the first version's game); ``values`` and ``carry`` are then those of each level's
    #: smallest carried amount (every game displayed), and the games per pot come from the states' recursion
    blind: BlindAnswer | None = None
    pot_games: float | None = None
    #: how it was solved: ``"tree"`` (the layer's CFR+ over the laid-out tree) or ``"ranges"`` (range
    #: against range over the betting histories, :mod:`~.range_equilibrium`; ``profiles`` then hold
    #: :class:`~.range_cfr.RangeProfile` s)
    solver: str = "tree"
    #: the regret schedule of each level's solve (``"cfr+"``; the range solver also ``"dcfr"``)
    schedule: str = "cfr+"

    @property
    def first_player_value(self) -> float:
        return float(self.values[0])

    @property
    def games_per_pot(self) -> float:
        """Expected games per pot: ``1 + c0 + c0 c1 + ...`` (the carry probability of each level; with the
        blind, of each state the pot reaches)."""
        return self.pot_games if self.pot_games is not None else games_per_pot(self.carry)

    def to_frame(self):
        """The strategy table: level, information set, player, discard counts, bucket, moves, action and
        its probability (with the blind: also the blind round's line and B's dealt bucket, a fresh pot's
        states only)."""
        return self.strategy.copy()

    def blind_frame(self):
        """The blind round at equilibrium in a fresh pot: the second player's response per blind size and
        dealt bucket, and the blind player's call facing each raise (None without the blind)."""
        return None if self.blind is None else self.blind.to_frame()

    def levels(self):
        """One row per level: the carried pot (chips), the first player's value and the carry probability."""
        return levels_frame(self)

    def summary(self) -> str:
        full = ("not measured with every raise size" if self.nash_conv_full is None
                else f"{self.nash_conv_full:.4g} antes per pot with every raise size")
        cards = ""
        if self.nash_conv_exact_cards is not None:
            cards = f"; {self.nash_conv_exact_cards:.4g} against best responses that know their exact final value"
            if self.nash_conv_exact_cards_full is not None:
                cards += f" ({self.nash_conv_exact_cards_full:.4g} with every raise size too)"
        lo, hi = self.value_bounds
        how = {"cfr+": "CFR+", "dcfr": "DCFR"}.get(self.schedule, self.schedule)
        how += "" if self.solver == "tree" else " range against range"
        return (f"Rococo heads-up equilibrium, abstraction {self.abstraction.name} "
                f"({self.tree_sizes['abstract']}), {how} {self.iterations:,} iterations per level, "
                f"{len(self.values)} levels: first player's value {self.values[0]:+.4f} antes per pot (the abstract "
                f"game's value within [{lo:+.4f}, {hi:+.4f}]); exploitability (NashConv) {self.nash_conv:.4g} "
                f"in the abstract tree, {full}{cards}; a pot carries with probability {self.carry[0]:.4f}, "
                f"{self.games_per_pot:.4f} games per pot" + ("" if self.blind is None else f"; {self.blind.summary()}"))


def levels_frame(result: RococoEquilibrium):
    """One row per level: the carried pot (chips), the first player's value and the carry probability."""
    import pandas as pd

    k = np.arange(len(result.values))
    return pd.DataFrame({"level": k, "carried": 2.0 * k * result.rules.ante, "first_player_value": result.values,
                         "carry_probability": result.carry})
