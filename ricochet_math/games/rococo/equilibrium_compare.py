"""Heads-up Rococo's equilibrium beside today's threshold answers (the simulations of ``reports/rococo/``),
with the simulations' 95% intervals.

Three kinds of figure answer each question:

* **equilibrium**: from a committed solve (:func:`~ricochet_math.games.rococo.equilibrium.write_equilibrium`'s folder), exact for
  the equilibrium's model (the exchange at the draw solver's table, final values independent, no blind
  decision, the card and raise abstractions; the solver's own error is bounded by its exploitability);
* **model, threshold policies**: the named policies played in that same model, exact (the tree of the
  ``tiny`` abstraction: its buckets are cut at the policies' thresholds, so the policies are exact there);
* **simulated**: the threshold policies played on real deals by the Rococo engine (card removal, each
  policy's own draw, the blind decision as the policy plays it), with its 95% interval.

A simulated interval that does not hold the model's figure for the *same* policies measures the model's
own error (what it leaves out); one that does not hold the equilibrium's figure says the equilibrium
plays differently from the policies, which is the point of solving it.

The carry rates of a simulation have no per-pot sums of squares in the kernel's counters, so their
interval comes from **batch means**: the run's batches (the seeding of
:func:`~ricochet_math.solvers.batches.run_batches`, so the totals are those of
:func:`~ricochet_math.games.rococo.analysis.simulate` with the same seed and batch size, a test) are independent, and the spread of
their games per pot gives a Student-t interval.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ricochet_math.arguments import check_seed, check_whole
from ricochet_math.errors import RicochetError
from ricochet_math.solvers.stats import Estimate

__all__ = ["MIN_BATCHES", "CarryRates", "carry_rates", "threshold_comparison", "read_equilibrium_folder", "model_policy_values",
           "EquilibriumFolder"]


#: the fewest batches a batch-means interval is made from
MIN_BATCHES = 10


@dataclass(frozen=True)
class CarryRates:
    """Games per pot and the share of games carried in a simulation, each with a batch-means 95% interval
    (Student t, ``batches - 1`` degrees of freedom); ``counts``: the kernel's counters summed."""

    games_per_pot: Estimate
    carried_share: Estimate
    pots: int
    batches: int
    counts: dict


def _batch_interval(total: float, parts: np.ndarray, level: float = 0.95) -> Estimate:
    from scipy.stats import t

    k = len(parts)
    se = float(np.std(parts, ddof=1) / math.sqrt(k)) if k > 1 else math.nan
    q = float(t.ppf(0.5 + level / 2, k - 1)) if k > 1 else math.nan
    return Estimate(total, se, total - q * se, total + q * se, level)


def carry_rates(rules, policies, pots: int, seed: int, *, batch_size: int = 20_000) -> CarryRates:
    """Play ``pots`` pots of ``policies`` (one per seat) as :func:`~ricochet_math.games.rococo.analysis.simulate` does (the same
    seed and batch size: the same pots) and measure games per pot and the share of games carried, with
    batch-means intervals; with fewer than :data:`MIN_BATCHES` batches of ``batch_size`` the batches are made
    smaller (then the pots are not ``simulate``'s)."""
    from ricochet_math.games.rococo.betting import policy
    from ricochet_math.games.rococo.kernel import SUM_FIELDS, batch_player
    from ricochet_math.random_streams import chunk_seed, resolve_seed

    ps = tuple(policy(p) for p in policies)
    pots = check_whole(pots, "pots", low=2)
    batch_size = check_whole(batch_size, "batch_size", low=1)
    if pots < MIN_BATCHES * batch_size:
        batch_size = -(-pots // MIN_BATCHES)  # batch means need batches enough for their spread
    entropy = resolve_seed(check_seed(seed, allow_none=False))
    play = batch_player(rules.with_players(len(ps)), ps)
    n = -(-pots // batch_size)
    counts = np.zeros(len(SUM_FIELDS), np.int64)
    per_pot, carried = [], []
    for i in range(n):
        length = min(batch_size, pots - i * batch_size)
        c = np.asarray(play(chunk_seed(entropy, i), length)["counts"])
        counts += c
        g = dict(zip(SUM_FIELDS, c))
        per_pot.append(g["games"] / length)
        carried.append(g["carries"] / g["games"])
    total = dict(zip(SUM_FIELDS, (int(x) for x in counts)))
    gpp = _batch_interval(total["games"] / pots, np.array(per_pot))
    share = _batch_interval(total["carries"] / total["games"], np.array(carried))
    return CarryRates(gpp, share, pots, n, total)


@dataclass(frozen=True)
class EquilibriumFolder:
    """A committed equilibrium solve read back: its ``levels``, ``curves``, ``policies`` and ``strategy``
    tables (``strategy`` None where the folder is committed without it), the ``summary`` text and the
    command that wrote it."""

    path: Path
    levels: pd.DataFrame
    curves: pd.DataFrame
    policies: pd.DataFrame
    strategy: pd.DataFrame | None
    summary: str

    @property
    def command(self) -> str:
        first = self.summary.splitlines()[0]
        return first.split("command: ", 1)[1] if first.startswith("command: ") else "(not recorded)"

    def figure(self, pattern: str) -> float:
        """A figure of the summary text: the number after ``pattern`` (a regular expression's prefix)."""
        import re

        m = re.search(pattern + r"\s*([-+]?[0-9.]+(?:e-?[0-9]+)?)", self.summary)
        if m is None:
            raise RicochetError(f"{self.path / 'summary.txt'}: no figure after {pattern!r}")
        return float(m.group(1))

    @property
    def nash_conv(self) -> float:
        return self.figure(r"exploitability \(NashConv\)")

    @property
    def nash_conv_full(self) -> float | None:
        import re

        m = re.search(r"tree, ([0-9.e-]+) antes per pot with every raise size", self.summary)
        return float(m.group(1)) if m else None

    @property
    def value_bounds(self) -> tuple[float, float]:
        import re

        m = re.search(r"within \[([-+0-9.]+), ([-+0-9.]+)\]", self.summary)
        return float(m.group(1)), float(m.group(2))

    @property
    def games_per_pot(self) -> float:
        carry = self.levels.carry_probability.to_numpy()
        return float(np.sum(np.concatenate([[1.0], np.cumprod(carry[:-1])])))


def read_equilibrium_folder(path) -> EquilibriumFolder:
    """Read a folder :func:`~ricochet_math.games.rococo.equilibrium.write_equilibrium` wrote (refused, one line, if it is not one)."""
    from ricochet_math.games.rococo.equilibrium import FOLDER_KIND
    from ricochet_math.storage import is_owned_folder

    path = Path(path)
    if not is_owned_folder(path, FOLDER_KIND):
        raise RicochetError(f"{path}: not a Rococo equilibrium folder (written by ricochet rococo equilibrium --out)")
    try:
        tables = {n: pd.read_csv(path / f"{n}.csv") for n in ("levels", "curves", "policies")}
        # a folder may be committed without its strategy (large; its command writes it again)
        strategy = path / "strategy.csv"
        tables["strategy"] = pd.read_csv(strategy) if strategy.exists() else None
        summary = (path / "summary.txt").read_text(encoding="utf-8")
    except (OSError, ValueError) as exc:
        raise RicochetError(f"{path}: cannot read the equilibrium folder ({exc})") from None
    return EquilibriumFolder(path, tables["levels"], tables["curves"], tables["policies"], tables["strategy"], summary)


def model_policy_values(rules=None, model=None) -> dict[str, float]:
    """The named policies in the equilibrium's model, exact (the ``tiny`` tree, cut at their thresholds):
    ``standard_vs_loose`` (standard's net per pot from a random first seat against loose),
    ``standard_self_first`` (the first player's value, standard in both seats) and
    ``standard_self_games`` (games per pot, standard in both seats)."""
    from ricochet_math.games.rococo.betting_game import RococoBettingGame, build_betting_tree
    from ricochet_math.games.rococo.equilibrium import carry_probabilities, games_per_pot, policy_profile, pot_value
    from ricochet_math.games.rococo.rules import RococoRules

    bt = build_betting_tree(RococoBettingGame(rules or RococoRules(), model, "tiny"))
    levels = bt.carry_limit + 1
    std, loose = ([policy_profile(bt, p)] * levels for p in ("standard", "loose"))
    return {"standard_vs_loose": (pot_value(bt, std, loose) - pot_value(bt, loose, std)) / 2,
            "standard_self_first": pot_value(bt, std, std),
            "standard_self_games": games_per_pot(carry_probabilities(bt, std))}


def threshold_comparison(eq: EquilibriumFolder, model: dict, standard_vs_loose: Estimate, fair: Estimate,
                         rates: CarryRates, blind: Estimate) -> pd.DataFrame:
    """One row per question: the equilibrium's figure, the threshold policies' figure in the same model,
    the simulated figure with its 95% interval, and whether each of the first two lies outside it.

    ``standard_vs_loose``: standard's net per pot in seat 1 against loose (simulated); ``fair``: seat 1's
    net per pot with standard in both seats and no blind; ``rates``: that run's carry rates; ``blind``: the
    blind option's value to seat 1 (standard against standard)."""
    g_eq = eq.games_per_pot
    g_model = model["standard_self_games"]
    rows = [
        ("seat 1's net per pot, the same play in both seats (fairness between the seats)", 0.0, 0.0, fair,
         "equilibrium: 0 by symmetry (a pot starts at either seat alike); simulated: standard in both seats, "
         "no blind"),
        ("standard (seat 1) against loose: net per pot", math.nan, model["standard_vs_loose"], standard_vs_loose,
         "the equilibrium plays neither policy"),
        ("games per pot", g_eq, g_model, rates.games_per_pot, "simulated: standard in both seats, no blind"),
        ("share of games carried (all checks)", (g_eq - 1) / g_eq, (g_model - 1) / g_model, rates.carried_share,
         "every game of a pot but its last carried; simulated: standard in both seats, no blind"),
        ("value of the blind option to seat 1 (standard against standard)", math.nan, math.nan, blind,
         "this equilibrium has no blind decision: the blind game is solved apart (the blind part of this section)"),
    ]
    out = []
    for figure, e, m, sim, note in rows:
        out.append({"figure": figure, "equilibrium": e, "model_policies": m, "simulated": sim.estimate,
                    "simulated_low": sim.low, "simulated_high": sim.high,
                    "equilibrium_outside": None if math.isnan(e) else not sim.contains(e),
                    "model_outside": None if math.isnan(m) else not sim.contains(m), "note": note})
    return pd.DataFrame(out)
