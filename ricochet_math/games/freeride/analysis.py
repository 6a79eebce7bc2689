"""Free Ride Poker by simulation: whole games and single rounds through the game-neutral driver
:func:`~ricochet_math.solvers.batches.run_batches` (seeded batches summed in order: the same digits for
any number of workers), a best-response search over the strategy family, and the value of the free ride.

Every figure comes with a 95% normal interval from its sums (:mod:`ricochet_math.solvers.stats`); a
game's win is shared among the players tied for most chips.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

import numpy as np
import pandas as pd

from ricochet_math.arguments import check_instance, check_seed, check_whole
from ricochet_math.errors import RuleError, quote
from ricochet_math.games.freeride.kernel import NET_OFFSET, play_games, play_rounds
from ricochet_math.games.freeride.rules import MAX_SEATS, FreeRideRules
from ricochet_math.games.freeride.strategies import get_strategy
from ricochet_math.solvers.batches import run_batches
from ricochet_math.solvers.game_result import GameResult
from ricochet_math.solvers.stats import Estimate, mean_ci

__all__ = ["GameStats", "RoundStats", "BestResponse", "FreeRideValue", "simulate", "simulate_games", "simulate_rounds",
           "best_response", "free_ride_value", "CANDIDATES", "table_strategies"]

#: the strategies the best-response search tries by default (presets and a small grid of the family)
CANDIDATES = ("always", "computer", "cautious", "bold", "hider",
              "t:x,x,x,TT", "t:x,x,88,QQ", "t:x,88,TT,KK", "t:x,x,TT,AA", "t:x,x,88,TT:weak",
              "t:x,x,88,TT:hide", "t:x,x,x,88:wary")


def _names(strategies) -> list[str]:
    return [get_strategy(s).name for s in strategies]


def table_strategies(strategies, rules: FreeRideRules) -> list[str]:
    """The seats of a table: the given strategies, filled with ``computer`` players up to ``min_seats``."""
    if isinstance(strategies, (str, bytes)) or not hasattr(strategies, "__iter__"):
        raise RuleError(f"strategies must be a list of one strategy per seat, got {quote(strategies)}")
    strategies = list(strategies)
    if not 1 <= len(strategies) <= MAX_SEATS:
        raise RuleError(f"give 1..{MAX_SEATS} strategies, got {len(strategies)}")
    return strategies + ["computer"] * (rules.seats_for(len(strategies)) - len(strategies))


@dataclass(frozen=True, repr=False)
class GameStats(GameResult):
    """Whole games: the summed arrays of the run (``sums``, :data:`~ricochet_math.games.freeride.kernel.GAME_FIELDS`), the seats'
    strategies, the rules and the seed (the game contract: :class:`~ricochet_math.solvers.game_result.GameResult`)."""

    SAME = ("strategies",)

    strategies: tuple[str, ...]
    rules: FreeRideRules
    games: int
    seed: int
    sums: dict = field(repr=False)
    run_time: float = 0.0
    batch_size: int = 0
    merged_seeds: tuple[int, ...] = ()

    @property
    def length(self) -> Estimate:
        """Rounds per game."""
        return mean_ci(float(self.sums["rounds"][0]), float(self.sums["rounds_sq"][0]), self.games)

    def win(self, seat: int) -> Estimate:
        return mean_ci(float(self.sums["win"][seat]), float(self.sums["win_sq"][seat]), self.games)

    def chips(self, seat: int) -> Estimate:
        return mean_ci(float(self.sums["chips"][seat]), float(self.sums["chips_sq"][seat]), self.games)

    @property
    def swing(self) -> float:
        """Root mean square of a seat's net chips in a round (the chip swing per round)."""
        return float(np.sqrt(self.sums["net_sq"][0] / max(self.sums["seat_rounds"][0], 1)))

    def to_frame(self) -> pd.DataFrame:
        rows = []
        for s, name in enumerate(self.strategies):
            w, c = self.win(s), self.chips(s)
            fr = self.sums["free_rides"][s]
            rows.append({"seat": s + 1, "strategy": name, "win": w.estimate, "win_low": w.low, "win_high": w.high,
                         "chips": c.estimate, "chips_low": c.low, "chips_high": c.high,
                         "out": self.sums["out"][s] / self.games,
                         "starts": self.sums["starts"][s] / max(int(self.sums["rounds"][0]), 1),
                         "free_rides_per_game": fr / self.games,
                         "free_ride_wins_per_game": self.sums["free_ride_wins"][s] / self.games})
        return pd.DataFrame(rows)

    def net_distribution(self) -> pd.DataFrame:
        """Share of seat-rounds by net chips (the chip swings)."""
        h = self.sums["net_hist"]
        nz = np.nonzero(h)[0]
        return pd.DataFrame({"net": nz - NET_OFFSET, "share": h[nz] / h.sum()})

    def length_distribution(self) -> pd.DataFrame:
        h = self.sums["length_hist"]
        nz = np.nonzero(h)[0]
        return pd.DataFrame({"rounds": nz, "share": h[nz] / h.sum()})

    def summary(self) -> dict[str, object]:
        """Every figure by name: the run, rounds per game, the chip swing, then each seat's (from 1) share
        of wins and final chips (:class:`~ricochet_math.solvers.stats.Estimate`)."""
        out: dict[str, object] = {"rules": self.rules.describe(), "rules_sha256": self.rules.sha256,
                                  "strategies": list(self.strategies), "games": self.games,
                                  "seed": self.seed if not self.merged_seeds else list(self.seeds),
                                  "batch_size": self.batch_size, "run_time": self.run_time,
                                  "rounds per game": self.length, "chip swing per round": self.swing,
                                  "unfinished games": int(self.sums["unfinished"][0])}
        for s in range(len(self.strategies)):
            out[f"seat {s + 1} win"] = self.win(s)
            out[f"seat {s + 1} chips"] = self.chips(s)
        return out

    def describe(self) -> str:
        L = self.length
        seeds = f"seed {self.seed}" if not self.merged_seeds else f"seeds {', '.join(map(str, self.seeds))}"
        lines = [f"{self.games:,} games of Free Ride Poker, {seeds}: {len(self.strategies)} seats "
                 f"({', '.join(self.strategies)})",
                 f"rounds per game {L.estimate:.3f} ± {L.half_width:.3f}; chip swing per round (rms) "
                 f"{self.swing:.2f}; unfinished games {int(self.sums['unfinished'][0])}"]
        for s, name in enumerate(self.strategies):
            w = self.win(s)
            lines.append(f"  seat {s + 1} {name}: wins {100 * w.estimate:.2f} ± {100 * w.half_width:.2f} %")
        return "\n".join(lines)


@dataclass(frozen=True)
class RoundStats:
    """Independent rounds from fresh chips: net chips by seat and by position after the starter."""

    strategies: tuple[str, ...]
    rules: FreeRideRules
    rounds: int
    seed: int
    sums: dict = field(repr=False)

    def net(self, seat: int) -> Estimate:
        return mean_ci(float(self.sums["net"][seat]), float(self.sums["net_sq"][seat]), self.rounds)

    def net_by_position(self, pos: int) -> Estimate:
        """Net chips per round of the player ``pos`` seats after the starter (0: the starter)."""
        return mean_ci(float(self.sums["net_pos"][pos]), float(self.sums["net_pos_sq"][pos]), self.rounds)

    def to_frame(self) -> pd.DataFrame:
        rows = []
        n = self.rounds
        for s, name in enumerate(self.strategies):
            e, p = self.net(s), self.net_by_position(s)
            fs = self.sums["fold_stage"][s] / n
            rows.append({"seat": s + 1, "strategy": name, "net": e.estimate, "net_low": e.low, "net_high": e.high,
                         "win": self.sums["win"][s] / n, "position": s, "net_at_position": p.estimate,
                         "net_at_position_low": p.low, "net_at_position_high": p.high,
                         **{f"fold_{k}": fs[k] for k in range(5)}, "to_the_end": fs[5]})
        return pd.DataFrame(rows)

    def summary(self) -> dict[str, object]:
        """Every figure by name: the run, the showdown rate, each seat's (from 1) net chips per round and the
        net chips by position after the starter (:class:`~ricochet_math.solvers.stats.Estimate`)."""
        out: dict[str, object] = {"rules": self.rules.describe(), "strategies": list(self.strategies),
                                  "rounds": self.rounds, "seed": self.seed,
                                  "showdowns per round": self.sums["showdowns"][0] / self.rounds}
        for s in range(len(self.strategies)):
            out[f"seat {s + 1} net"] = self.net(s)
        for p in range(len(self.strategies)):
            out[f"position {p} net"] = self.net_by_position(p)
        return out

    def describe(self) -> str:
        lines = [f"{self.rounds:,} rounds, seed {self.seed}; showdowns {self.sums['showdowns'][0] / self.rounds:.3f}"]
        for p in range(len(self.strategies)):
            e = self.net_by_position(p)
            lines.append(f"  position {p} after the starter: {e.estimate:+.3f} ± {e.half_width:.3f} chips per round")
        return "\n".join(lines)


def _check(strategies, rules):
    rules = rules or FreeRideRules()
    check_instance(rules, FreeRideRules, "rules")
    if isinstance(strategies, (str, bytes)) or not hasattr(strategies, "__iter__"):
        raise RuleError(f"strategies must be a list of one strategy per seat, got {quote(strategies)}")
    strategies = tuple(_names(table_strategies(strategies, rules)))
    if len(strategies) < 2:
        raise RuleError("a game needs at least 2 seats")
    return strategies, rules


def simulate(rules: FreeRideRules | None = None, strategies: Sequence = ("computer",), games: int = 10_000,
             seed: int | None = None, *, workers: int | None = None, executor=None, progress: bool = False,
             batch_size: int = 2_000) -> GameStats:
    """Play ``games`` whole games (one strategy per seat, filled with computer players up to the rules'
    ``min_seats``) and return their :class:`GameStats`.  ``seed``: None for fresh entropy (recorded);
    ``workers`` / ``executor`` (a ``LocalExecutor``) do not change a digit."""
    strategies, rules = _check(strategies, rules)
    games = check_whole(games, "games")
    run = run_batches(partial(play_games, strategies, rules), games, seed, batch_size=batch_size, workers=workers,
                      executor=executor, progress=progress, desc="Free Ride Poker, Monte Carlo")
    return GameStats(strategies, rules, games, run.seed, dict(run.sums), run.run_time, run.batch_size)


def simulate_games(strategies: Sequence, rules: FreeRideRules | None = None, *, games: int = 10_000,
                   seed: int | None = 2026, workers: int | None = None, batch_size: int = 2_000) -> GameStats:
    """:func:`simulate` with the arguments in their order before the game contract (strategies first)."""
    return simulate(rules, strategies, games, seed, workers=workers, batch_size=batch_size)


def simulate_rounds(strategies: Sequence, rules: FreeRideRules | None = None, *, rounds: int = 100_000,
                    seed: int | None = 2026, workers: int | None = None, batch_size: int = 20_000) -> RoundStats:
    """Play ``rounds`` independent rounds from fresh chips and return their :class:`RoundStats`."""
    strategies, rules = _check(strategies, rules)
    rounds = check_whole(rounds, "rounds")
    run = run_batches(partial(play_rounds, strategies, rules), rounds, seed, batch_size=batch_size, workers=workers)
    return RoundStats(strategies, rules, rounds, run.seed, dict(run.sums))


@dataclass(frozen=True)
class BestResponse:
    """For each table size, every candidate's win rate in seat 0 against a field of ``field``, and the best."""

    field: str
    games: int
    seed: int
    table: pd.DataFrame = field(repr=False)

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    def best(self) -> dict[int, str]:
        t = self.table
        return {int(n): str(g.sort_values("win", ascending=False).iloc[0]["strategy"]) for n, g in t.groupby("seats")}

    def summary(self) -> str:
        fair = self.table.groupby("seats")["fair"].first()
        return "\n".join(f"{n} seats against {self.field}: best {b} (a fair share is {100 * fair[n]:.1f} %)"
                         for n, b in self.best().items())


def best_response(candidates: Sequence = CANDIDATES, seats: Sequence[int] = (2, 3, 4, 5, 6), *,
                  field: str = "computer", rules: FreeRideRules | None = None, games: int = 4_000,
                  seed: int | None = 2026, workers: int | None = None) -> BestResponse:
    """Each candidate in seat 0 against ``seats - 1`` players of ``field``: win rate and final chips
    with intervals, every candidate on the same seed (common random numbers for the deals)."""
    rules = (check_instance(rules, FreeRideRules, "rules", allow_none=True) or FreeRideRules()).with_options(
        min_seats=1)
    check_whole(games, "games")
    seed = check_seed(seed)
    for what, values in (("seats", seats), ("candidates", candidates)):
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__") or not len(values):
            raise RuleError(f"{what} must be a non-empty list, got {quote(values)}")
    seats = [check_whole(n, "seats", low=2, high=MAX_SEATS) for n in seats]
    for c in (*candidates, field):
        get_strategy(c)  # an unknown name is refused before any game is played
    rows = []
    used = None
    for n in seats:
        for c in candidates:
            r = simulate_games([c] + [field] * (n - 1), rules, games=games, seed=seed, workers=workers)
            used = r.seed
            w, ch = r.win(0), r.chips(0)
            rows.append({"seats": n, "strategy": get_strategy(c).name, "win": w.estimate, "win_low": w.low,
                         "win_high": w.high, "chips": ch.estimate, "chips_low": ch.low, "chips_high": ch.high,
                         "rounds": r.length.estimate, "fair": 1.0 / n})
    return BestResponse(field, games, used, pd.DataFrame(rows))


@dataclass(frozen=True)
class FreeRideValue:
    """The same games with and without the free ride (same seed): what the rule changes."""

    with_ride: GameStats
    without: GameStats

    def to_frame(self) -> pd.DataFrame:
        rows = []
        for label, r in (("free ride", self.with_ride), ("no free ride", self.without)):
            L = r.length
            rows.append({"rule": label, "rounds": L.estimate, "rounds_low": L.low, "rounds_high": L.high,
                         "swing": r.swing,
                         "free_rides_per_game": float(r.sums["free_rides"].sum()) / r.games,
                         "free_ride_wins_per_game": float(r.sums["free_ride_wins"].sum()) / r.games,
                         "seat1_win": r.win(0).estimate})
        return pd.DataFrame(rows)

    def summary(self) -> str:
        a, b = self.with_ride.length, self.without.length
        return (f"free ride: {a.estimate:.2f} ± {a.half_width:.2f} rounds per game; without it "
                f"{b.estimate:.2f} ± {b.half_width:.2f}")


def free_ride_value(strategies: Sequence = ("computer",) * 4, rules: FreeRideRules | None = None, *,
                    games: int = 10_000, seed: int | None = 2026, workers: int | None = None) -> FreeRideValue:
    """Games with the free ride (the seed's rule) against the same games without it."""
    rules = check_instance(rules, FreeRideRules, "rules", allow_none=True) or FreeRideRules()
    a = simulate_games(strategies, rules.with_options(free_ride=True), games=games, seed=seed, workers=workers)
    b = simulate_games(strategies, rules.with_options(free_ride=False), games=games, seed=a.seed, workers=workers)
    return FreeRideValue(a, b)
