"""Monte Carlo analyses of Ring Poker: seat and order effects, strategy pairings, best responses and
their confirmation on fresh seeds.

Every figure comes from :func:`~ricochet_math.solvers.batches.run_batches`: batch ``i`` deals its
games (54-card deck orders and the random draws of the ``random`` strategy) from its own seed with
``numpy.random.default_rng``, plays them in the batch kernel and returns sums.  So a run is the same
bit for bit for any number of threads, and runs with the same seed and batch size see the same
deals whatever the strategies (common random numbers across pairings).
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ricochet_math.arguments import check_instance, check_seed, check_whole
from ricochet_math.errors import RicochetError, quote
from ricochet_math.evaluator.evaluation import PARTIAL_BASE
from ricochet_math.games.ring.arrangement import OBJECTIVES, OpponentModel, opponent_model
from ricochet_math.games.ring.engine import deal_batch
from ricochet_math.games.ring.future import value_model
from ricochet_math.games.ring.kernel import play_batch
from ricochet_math.games.ring.rules import ROUNDS, RingRules
from ricochet_math.games.ring.strategies import (
    FAST_STRATEGIES,
    STRATEGIES,
    strategy_code,
)
from ricochet_math.solvers.batches import run_batches
from ricochet_math.solvers.game_result import GameResult
from ricochet_math.solvers.linear import gram, wald_statistic
from ricochet_math.solvers.stats import Estimate, mean_ci

__all__ = [
    "BestResponseConfirmation",
    "CATEGORY_LABELS",
    "CONFIRM_SEED_OFFSET",
    "DEFAULT_STRATEGY",
    "EqualChances",
    "PairingTable",
    "RingSimulation",
    "confirm_best_responses",
    "deal_batch",
    "pairings",
    "simulate",
]

#: slot categories as counted (key // 15**5): the nine of the evaluator, then five of a kind
CATEGORY_LABELS = ("High card", "Pair", "Two pair", "Three of a kind", "Straight", "Flush", "Full house",
                   "Four of a kind", "Straight flush", "Five of a kind")
_CAT = PARTIAL_BASE ** 5  # a key's category: key // 15**5 (the evaluator's partial-key digits)
_SLOTS = ("strongest", "middle", "weakest")
#: the strategy of every seat when none is given: the fast heuristic, so a default run takes seconds
DEFAULT_STRATEGY = "greedy-fast"


def _batch_sums(keys: np.ndarray, points: np.ndarray, shares: np.ndarray) -> dict[str, np.ndarray]:
    players = points.shape[1]
    cats = np.minimum(keys // _CAT, len(CATEGORY_LABELS) - 1)
    category = np.zeros((players, 3, len(CATEGORY_LABELS)), dtype=np.int64)
    for s in range(players):
        for h in range(3):
            category[s, h] = np.bincount(cats[:, s, h], minlength=len(CATEGORY_LABELS))
    return {
        "games": np.array([points.shape[0]], dtype=np.int64),
        "share": shares.sum(axis=0),
        "share_x": gram(shares),  # fixed order: the same digits on any CPU
        "points": points.sum(axis=0),
        "points_sq": (points.astype(np.int64) ** 2).sum(axis=0),
        "outright": (shares == 1.0).sum(axis=0),
        "shared": np.array([int(((shares > 0) & (shares < 1)).any(axis=1).sum())], dtype=np.int64),
        "category": category,
        "points_hist": np.stack([np.bincount(points[:, s], minlength=3 * (players - 1) + 1)
                                 for s in range(players)]),
    }


@dataclass(frozen=True)
class EqualChances:
    """Wald test that every seat's expected win share is 1/players: ``statistic`` ~ chi-square with
    ``df`` = players - 1 degrees of freedom under equal chances; ``p_value`` its upper tail."""

    statistic: float
    df: int
    p_value: float

    def summary(self) -> str:
        return f"chi-square {self.statistic:.3f} on {self.df} df, p = {self.p_value:.4g}"


def _chi2_sf(x: float, df: int) -> float:
    """Upper tail of the chi-square distribution with 1 or 2 degrees of freedom (closed forms)."""
    if df == 1:
        return math.erfc(math.sqrt(max(x, 0.0) / 2.0))
    if df == 2:
        return math.exp(-max(x, 0.0) / 2.0)
    raise ValueError(df)


@dataclass(frozen=True, repr=False)
class RingSimulation(GameResult):
    """A Monte Carlo run of one seating: the sums, and what reproduces them (the game contract:
    :class:`~ricochet_math.solvers.game_result.GameResult`).

    ``strategies``: one per seat (seat 1 chooses first in round 1); ``objective``: how every seat
    arranges its 18 cards; ``sums``: the kernel's batch sums (``share``: win shares, a shared win
    split equally; ``points``; ``category``: slot categories by seat and slot, ...).  Seats are
    numbered from 1 in every output; the ``seat`` arguments of the methods count from 0.
    """

    SAME = ("strategies", "objective", "opponent_source")

    rules: RingRules
    strategies: tuple[str, ...]
    objective: str
    games: int
    seed: int
    batch_size: int
    run_time: float
    sums: Mapping[str, np.ndarray] = field(repr=False)
    opponent_source: str = ""
    merged_seeds: tuple[int, ...] = ()

    def win_share(self, seat: int, level: float = 0.95) -> Estimate:
        """Mean win share of ``seat`` (a win counts 1, a win shared by k counts 1/k)."""
        return mean_ci(self.sums["share"][seat], self.sums["share_x"][seat, seat], self.games, level)

    def mean_points(self, seat: int, level: float = 0.95) -> Estimate:
        return mean_ci(self.sums["points"][seat], self.sums["points_sq"][seat], self.games, level)

    def equal_chances(self) -> EqualChances:
        """Wald test of equal win shares by seat (the share vector sums to 1: the first players - 1 seats)."""
        p, n = self.rules.players, self.games
        mean = self.sums["share"] / n
        cov = (self.sums["share_x"] - n * np.outer(mean, mean)) / (n - 1)
        d = mean[: p - 1] - 1.0 / p
        c = cov[: p - 1, : p - 1] / n
        stat = wald_statistic(d, c)
        return EqualChances(stat, p - 1, _chi2_sf(stat, p - 1))

    def starts(self, seat: int) -> int:
        """Rounds in which ``seat`` chooses first."""
        return sum(1 for r in range(ROUNDS) if self.rules.first_player(r) == seat)

    def to_frame(self, level: float = 0.95) -> pd.DataFrame:
        """One row per seat: strategy, rounds it starts, win share and mean points with intervals,
        outright wins."""
        rows = []
        for s in range(self.rules.players):
            w, pts = self.win_share(s, level), self.mean_points(s, level)
            rows.append({"seat": s + 1, "strategy": self.strategies[s], "starts": self.starts(s),
                         "win": w.estimate, "win_low": w.low, "win_high": w.high,
                         "points": pts.estimate, "points_low": pts.low, "points_high": pts.high,
                         "outright": self.sums["outright"][s] / self.games})
        return pd.DataFrame(rows)

    def category_frame(self) -> pd.DataFrame:
        """Distribution of the three slots' hand categories over every seat (fractions of hands)."""
        counts = self.sums["category"].sum(axis=0)  # [3, categories]
        frame = pd.DataFrame(counts.T / counts.sum(axis=1), columns=list(_SLOTS))
        frame.insert(0, "category", CATEGORY_LABELS)
        return frame[(counts.sum(axis=0) > 0)].reset_index(drop=True)

    def length_frame(self) -> pd.DataFrame:
        """Game length: fixed by the rules (nine rounds, two chosen pairs a round), and shared wins."""
        p = self.rules.players
        return pd.DataFrame({"figure": ["rounds", "choices per game", "choices per seat",
                                        "cards per seat", "games with a shared win"],
                             "value": [ROUNDS, 2 * ROUNDS, 2 * ROUNDS / p, 18,
                                       self.sums["shared"][0] / self.games]})

    def summary(self) -> dict[str, object]:
        """Every figure by name: the run, then per seat (from 1) ``seat N win`` and ``seat N points``
        (:class:`~ricochet_math.solvers.stats.Estimate`), then the test of equal chances."""
        out: dict[str, object] = {"rules": self.rules.describe(), "rules_sha256": self.rules.sha256,
                                  "strategies": list(self.strategies), "objective": self.objective,
                                  "games": self.games, "seed": self.seed if not self.merged_seeds else list(self.seeds),
                                  "batch_size": self.batch_size, "run_time": self.run_time}
        for s in range(self.rules.players):
            out[f"seat {s + 1} win"] = self.win_share(s)
            out[f"seat {s + 1} points"] = self.mean_points(s)
        eq = self.equal_chances()
        out["equal chances statistic"], out["equal chances p"] = eq.statistic, eq.p_value
        return out

    def describe(self) -> str:
        seeds = f"seed {self.seed}" if not self.merged_seeds else f"seeds {', '.join(map(str, self.seeds))}"
        lines = [(f"{self.rules.summary()}; {self.games:,} games, {seeds}, arrangement "
                  f"{self.objective}, {self.run_time:.1f} s")]
        for s in range(self.rules.players):
            w, pts = self.win_share(s), self.mean_points(s)
            lines.append(f"seat {s + 1} ({self.strategies[s]}): win {100 * w.estimate:.2f} ± "
                         f"{100 * w.half_width:.2f} %, points {pts.estimate:.3f} ± {pts.half_width:.3f}")
        lines.append(f"equal chances: {self.equal_chances().summary()}")
        return "\n".join(lines)


def simulate(rules: RingRules | None = None, strategies: Sequence[str] | None = None, games: int = 10_000,
             seed: int | None = None, *, workers: int | None = None, executor=None, progress: bool = False,
             objective: str = "strongest", opponent: OpponentModel | None = None,
             batch_size: int = 1000) -> RingSimulation:
    """Play ``games`` games with ``strategies`` (one per seat, default all ``greedy-fast``, so a default run takes
    seconds: ``greedy`` costs about 100 times as much, some 10 ms a decision under load, docs/ring-poker.md)
    and sum the results.

    ``objective``: how each seat arranges its 18 cards (``strongest`` or ``points``; ``points`` plays
    against ``opponent``, by default an :func:`opponent_model` of 2,000 random holdings, seed 0).
    ``seed`` (None: fresh entropy, recorded) and ``batch_size`` fix the games; ``workers`` (threads) or
    ``executor`` (a ``LocalExecutor``) do not change a digit; ``progress``: a progress bar on stderr.
    """
    games = check_whole(games, "games", high=10**9)
    rules = check_instance(rules, RingRules, "rules", allow_none=True) or RingRules()
    check_instance(opponent, OpponentModel, "opponent", allow_none=True)
    batch_size = check_whole(batch_size, "batch_size", high=10**7)
    if workers is not None:
        workers = check_whole(workers, "workers", high=4096)
    if strategies is not None and (isinstance(strategies, (str, bytes)) or not hasattr(strategies, "__iter__")
                                   or not len(strategies)):
        raise RicochetError(f"strategies must be one strategy name per seat, got {quote(strategies)}")
    if not isinstance(objective, str):
        raise RicochetError(f"objective must be one of {', '.join(OBJECTIVES)}, got {quote(objective, 40)}")
    names = tuple(STRATEGIES[strategy_code(s)] for s in (strategies or [DEFAULT_STRATEGY] * rules.players))
    if len(names) != rules.players:
        raise RicochetError(f"{rules.players} players need {rules.players} strategies, got {len(names)}: "
                            f"{', '.join(names)}")
    if objective not in OBJECTIVES:
        raise RicochetError(f"unknown objective {quote(objective)}: choose {' or '.join(OBJECTIVES)}")
    seating, source = _seating(rules, names, objective, opponent)

    def play(seed_seq: np.random.SeedSequence, length: int) -> dict[str, np.ndarray]:
        return _batch_sums(*seating(*deal_batch(seed_seq, length)))

    run = run_batches(play, games, seed, batch_size=min(batch_size, games), workers=workers, executor=executor,
                      progress=progress, desc="Ring Poker, Monte Carlo")
    return RingSimulation(rules, names, objective, games, run.seed, run.batch_size, run.run_time,
                          run.sums, source)


def _seating(rules: RingRules, names: Sequence[str], objective: str = "strongest",
             opponent: OpponentModel | None = None):
    """The batch kernel of one seating (checked ``names``, one per seat): ``play(decks, draws)`` returns the
    games' ``keys``, ``points`` and win ``shares``; the decks and draws are only read, so several seatings can
    play the same deals.  Also returns the opponent model's source (``objective`` points) or ``""``."""
    codes = np.array([strategy_code(s) for s in names], dtype=np.int64)
    source = ""
    samples = np.zeros((3, 2), dtype=np.int64)
    if objective == "points":
        opponent = opponent or opponent_model(rules, samples=2000, seed=0)
        samples, source = opponent.samples_array(), opponent.source
    obj = OBJECTIVES.index(objective)
    model = value_model(rules) if "greedy" in names else np.zeros((3, 2), dtype=np.int64)

    def play(decks: np.ndarray, draws: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        length, p = decks.shape[0], rules.players
        moves = np.empty((length, 2 * ROUNDS), dtype=np.int64)
        keys = np.empty((length, p, 3), dtype=np.int64)
        points = np.empty((length, p), dtype=np.int64)
        shares = np.empty((length, p))
        play_batch(decks, draws, codes, int(rules.joker), rules.rotate, obj, samples, model, moves, keys, points,
                   shares)
        return keys, points, shares

    return play, source


@dataclass(frozen=True)
class PairingTable:
    """Win shares of every strategy against every other, over every seat, with common random numbers.

    ``runs[(focal, opponent, seat)]``: the simulation with ``focal`` at ``seat`` and ``opponent`` at
    every other seat.  :meth:`to_frame` averages over the seats (each seat equally often);
    :meth:`best_responses` names the focal strategy with the largest mean win share against each
    opponent strategy (a best of ``len(strategies)`` on one seed); :meth:`confirm` plays it and the
    runner-up again on fresh seeds.
    """

    rules: RingRules
    strategies: tuple[str, ...]
    games: int
    seed: int
    runs: Mapping[tuple[str, str, int], RingSimulation] = field(repr=False)

    def _focal(self, a: str, b: str) -> tuple[float, float, float]:
        sims = [self.runs[(a, b, s)] for s in range(self.rules.players)]
        shares = [sim.win_share(s) for s, sim in enumerate(sims)]
        pts = [sim.mean_points(s) for s, sim in enumerate(sims)]
        est = sum(w.estimate for w in shares) / len(shares)
        se = math.sqrt(sum(w.std_error ** 2 for w in shares)) / len(shares)
        return est, se, sum(p.estimate for p in pts) / len(pts)

    def to_frame(self) -> pd.DataFrame:
        """One row per (focal, opponent): the focal seat's mean win share over the seats, its 95%
        interval and mean points (equal chances would be 1/players)."""
        rows = []
        for a in self.strategies:
            for b in self.strategies:
                est, se, pts = self._focal(a, b)
                rows.append({"strategy": a, "against": b, "win": est, "win_low": est - 1.959964 * se,
                             "win_high": est + 1.959964 * se, "points": pts})
        return pd.DataFrame(rows)

    def best_responses(self) -> pd.DataFrame:
        """For each opponent strategy: the focal strategy with the largest win share, and that share."""
        frame = self.to_frame()
        best = frame.loc[frame.groupby("against", sort=False)["win"].idxmax()]
        return best.rename(columns={"strategy": "best response"})[["against", "best response", "win", "win_low",
                                                                   "win_high", "points"]].reset_index(drop=True)

    def ranked(self, against: str) -> list[str]:
        """The focal strategies against ``against``, largest win share first (ties in the table's order, so
        the first is :meth:`best_responses`' choice)."""
        frame = self.to_frame()
        part = frame[frame.against == against]
        order = sorted(range(len(part)), key=lambda i: (-part.win.iloc[i], i))
        return [str(part.strategy.iloc[i]) for i in order]

    def confirm(self, games: int | None = None, seed: int | None = None, *, batch_size: int = 1000,
                workers: int | None = None) -> BestResponseConfirmation:
        """:func:`confirm_best_responses` of this table."""
        return confirm_best_responses(self, games, seed, batch_size=batch_size, workers=workers)

    def summary(self) -> str:
        br = self.best_responses()
        eq = [r["against"] for _, r in br.iterrows() if r["best response"] == r["against"]]
        return (f"{self.rules.summary()}; {self.games:,} games per seating, seed {self.seed}; best responses: "
                + ", ".join(f"{r['against']} -> {r['best response']}" for _, r in br.iterrows())
                + (f"; symmetric equilibria among these: {', '.join(eq)}" if eq else "; no symmetric equilibrium "
                   "among these"))


def pairings(rules: RingRules | None = None, strategies: Sequence[str] = FAST_STRATEGIES, games: int = 2000,
             seed: int | None = 0, *, batch_size: int = 1000, workers: int | None = None) -> PairingTable:
    """Every focal strategy at every seat against every opponent strategy at the other seats
    (``len(strategies)**2 * players`` runs of ``games`` games, all on the same deals).  The default set is
    :data:`~.strategies.FAST_STRATEGIES` (seconds); pass :data:`~.strategies.ISSUE_STRATEGIES` for the
    issue's four with ``greedy`` (about a hundred times slower per greedy move; docs/ring-poker.md)."""
    rules = check_instance(rules, RingRules, "rules", allow_none=True) or RingRules()
    games = check_whole(games, "games", high=10**9)
    seed = check_seed(seed)
    if isinstance(strategies, (str, bytes)) or not hasattr(strategies, "__iter__") or not len(strategies):
        raise RicochetError(f"strategies must be a non-empty list of strategy names, got {quote(strategies)}")
    names = tuple(STRATEGIES[strategy_code(s)] for s in strategies)
    runs = {}
    for a in names:
        for b in names:
            for s in range(rules.players):
                seating = [b] * rules.players
                seating[s] = a
                runs[(a, b, s)] = simulate(rules, seating, games, seed, batch_size=batch_size, workers=workers)
    return PairingTable(rules, names, games, next(iter(runs.values())).seed, runs)


#: the confirmation's fresh seeds: the opponent strategy of index ``i`` (in the table's order) is played
#: on ``seed + CONFIRM_SEED_OFFSET + i`` (``seed``: the selection's unless given); a table's pairings all
#: use its one seed, so these took no part in the selection
CONFIRM_SEED_OFFSET = 1000


@dataclass(frozen=True)
class BestResponseConfirmation:
    """A :class:`PairingTable`'s best responses played again on fresh seeds (:func:`confirm_best_responses`).

    ``table``: one row per opponent strategy (``against``): the ``selected`` best response and the
    ``runner_up`` with their win shares in the selection (``selection_win``, ``selection_runner_up_win``,
    fractions), the fresh ``seed`` and ``games`` per seating, each one's fresh win share with its 95%
    interval (``win``, ``runner_up_win`` and their ``_low``/``_high``; a focal strategy's share is the
    mean over its seats), the paired difference ``lead`` = win - runner_up_win on the same deals with its
    interval, ``p_value`` (two-sided, of no difference), ``confirmed`` (the interval lies above zero) and
    ``verdict`` in words: the lead in points (``+5.00 ± 2.00``), or "no detectable difference (± x)" where
    the interval holds zero.
    """

    rules: RingRules
    games: int
    selection_seed: int
    batch_size: int
    table: pd.DataFrame = field(repr=False)

    @property
    def seeds(self) -> tuple[int, ...]:
        """The fresh seeds, one per opponent strategy."""
        return tuple(int(s) for s in self.table.seed)

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    def summary(self) -> str:
        return (f"{self.rules.summary()}; selection seed {self.selection_seed}, fresh seeds "
                f"{', '.join(map(str, self.seeds))}, {self.games:,} games per seating; lead in points: "
                + "; ".join(f"against {r.against}: {r.selected} over {r.runner_up}, {r.verdict}"
                            for r in self.table.itertuples()))


def _verdict(lead: Estimate) -> str:
    """The lead in points with its half-width, or "no detectable difference (± x)" when its interval holds 0."""
    half = f"{100 * lead.half_width:.2f}"
    if lead.low <= 0 <= lead.high:
        return f"no detectable difference (± {half})"
    return f"{100 * lead.estimate:+.2f} ± {half}"


def confirm_best_responses(table: PairingTable, games: int | None = None, seed: int | None = None, *,
                           batch_size: int = 1000, workers: int | None = None) -> BestResponseConfirmation:
    """Play each opponent strategy's selected best response and its runner-up again on a fresh seed.

    A best of K candidates on the seed that picked it is biased toward luck; this confirmation plays, for
    the opponent strategy of index ``i``, the two at every seat against that opponent at the other seats,
    ``games`` games per seating (default the table's) on seed ``seed + CONFIRM_SEED_OFFSET + i`` (``seed``
    default the table's: every pairing of the table used that one seed, so the fresh seeds took no part in
    the selection; a fresh seed equal to it is refused).  Both candidates play the same deals at every seat
    (common random numbers): the lead is the mean over games of the paired difference of their win shares
    (each the mean over the seats), with a 95% normal interval from that difference's own spread.
    """
    check_instance(table, PairingTable, "table")
    games = table.games if games is None else check_whole(games, "games", high=10**9)
    seed = table.seed if seed is None else check_seed(seed, allow_none=False)
    batch_size = check_whole(batch_size, "batch_size", high=10**7)
    if len(table.strategies) < 2:
        raise RicochetError("a confirmation needs at least two strategies (a selected one and a runner-up)")
    players = table.rules.players
    rows = []
    for i, against in enumerate(table.strategies):
        fresh = seed + CONFIRM_SEED_OFFSET + i
        if fresh == table.seed:
            raise RicochetError(f"fresh seed {fresh} is the selection's seed: give another seed")
        pair = table.ranked(against)[:2]
        kernels = []
        for focal in pair:
            for s in range(players):
                names = [against] * players
                names[s] = focal
                kernels.append((s, _seating(table.rules, names)[0]))

        def play(seed_seq: np.random.SeedSequence, length: int, kernels=kernels) -> dict[str, np.ndarray]:
            decks, draws = deal_batch(seed_seq, length)
            focal = np.zeros((2, length))
            for k, (s, kernel) in enumerate(kernels):
                focal[k // players] += kernel(decks, draws)[2][:, s]
            focal /= players
            d = focal[0] - focal[1]
            return {"win": focal.sum(axis=1), "win_sq": (focal ** 2).sum(axis=1),
                    "lead": np.array([d.sum()]), "lead_sq": np.array([(d ** 2).sum()])}

        run = run_batches(play, games, fresh, batch_size=min(batch_size, games), workers=workers)
        w = [mean_ci(run.sums["win"][k], run.sums["win_sq"][k], games) for k in range(2)]
        lead = mean_ci(run.sums["lead"][0], run.sums["lead_sq"][0], games)
        z = lead.estimate / lead.std_error if lead.std_error > 0 else (0.0 if lead.estimate == 0 else math.inf)
        sel = table.to_frame()
        sel = sel[sel.against == against].set_index("strategy")["win"]
        rows.append({"against": against, "selected": pair[0], "runner_up": pair[1],
                     "selection_win": float(sel[pair[0]]), "selection_runner_up_win": float(sel[pair[1]]),
                     "seed": fresh, "games": games,
                     "win": w[0].estimate, "win_low": w[0].low, "win_high": w[0].high,
                     "runner_up_win": w[1].estimate, "runner_up_win_low": w[1].low, "runner_up_win_high": w[1].high,
                     "lead": lead.estimate, "lead_low": lead.low, "lead_high": lead.high,
                     "p_value": math.erfc(abs(z) / math.sqrt(2.0)), "confirmed": bool(lead.low > 0),
                     "verdict": _verdict(lead)})
    return BestResponseConfirmation(table.rules, games, table.seed, min(batch_size, games), pd.DataFrame(rows))
