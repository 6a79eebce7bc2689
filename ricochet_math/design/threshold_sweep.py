"""Every kickout threshold of a grid and every bonus paytable at once, for one player count.

The RTP a rule-set designer needs is a surface over (kickout threshold, bonus pays).  This module
gives it for one player count ``N`` as a linear model per threshold::

    RTP(t, pays) = constant[t] + sum_l coefficients[t, l] * pays[l]      (per initial bet)

exact for the decisions the players made in the run (which depend on the pays the run was made
with: see :func:`sweep_players`), from **one** Monte Carlo run plus a partial replay:

* **One run at the reference threshold** ``tA`` (the rule set's own), seeded as
  :func:`~ricochet_math.solvers.montecarlo.simulate` seeds it (chunk ``i`` from
  ``SeedSequence(seed, spawn_key=(i,))``, 256 rounds per chunk), with the engine's control variates:
  ``simulate(rules, N, reading, rounds, seed, chunk_size=256)`` reproduces its sums digit for digit.
* **The dealer's face-up hand decides everything the threshold does.**  Under a threshold ``t`` a
  round is played with the dealer in when her value ``dv < t`` and kicked out otherwise, and nothing
  else in the round depends on ``t``.  So each round needs at most two plays: the one it had (``tA``)
  and, for the rounds whose treatment some grid threshold flips (``dv`` between the grid's lowest
  value and ``tA``: kicked out instead of in; between ``tA`` and the grid's highest: in instead of
  out), a replay of the same deck under the lowest or highest grid threshold
  (:func:`~ricochet_math.engine.chunks.replay_records`).  Every grid threshold's round is then one of
  the two plays, round for round: the same deals for every threshold (common random numbers), and a
  threshold's figure is the run's figure plus the mean of the rounds it changes.
* **The bonus enters linearly for fixed decisions.**  Each seat that drew (or took the automatic
  win's free cards, when those pay) is paid the line its final hand reaches, so a round's net is its
  net without the bonus plus ``sum_l count_l * pays_l``; the sweep keeps, per threshold, the sums of
  the vector ``w = (1, xnb_t - xnb_A, count_t, count_A)`` and of ``w w^T`` (``xnb``: the round's net
  over the seats without the bonus), which give the mean and the variance of the change for any pays.

The estimate at threshold ``t`` and pays ``p`` is ``1 + (E_cv[X_A] + mean(D_t(p))) / N``: the run's
control-variate estimate of its total net per round ``X_A`` and the plain mean of the change ``D_t``
(0 for every round when ``t = tA`` and ``p`` the run's pays).  Its half-width is the sum of the two
half-widths, a bound (the two errors may be correlated; adding standard errors is the worst case).

The chunks run in a thread pool or on a Dask cluster (:func:`sweep_chunk` is the task) and are added
in chunk order, so the figures do not depend on where they ran.
"""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ricochet_math._version import __version__
from ricochet_math.engine.chunks import replay_records, run_chunk_records
from ricochet_math.engine.kernel import Status, prepare
from ricochet_math.engine.sums import ChunkSums
from ricochet_math.evaluator.names import pattern_value
from ricochet_math.rules.ruleset import RuleSet
from ricochet_math.solvers.batches import InOrderSums
from ricochet_math.solvers.executors import DaskExecutor, chunk_seed, default_workers
from ricochet_math.solvers.linear import gram
from ricochet_math.solvers.montecarlo import SOLVER_CHUNK_ROUNDS, SimulationResult, simulate
from ricochet_math.solvers.solo_kernel import bonus_lines
from ricochet_math.solvers.stats import rounds_for_half_width, z_value

__all__ = ["ThresholdSweep", "sweep_players", "sweep_chunk", "bonus_counts"]

#: rounds per chunk (the look-ahead's chunk size of simulate, so simulate reproduces the reference run)
CHUNK = SOLVER_CHUNK_ROUNDS


@dataclass(frozen=True, eq=False)
class ThresholdSweep:
    """RTP per initial bet at every grid threshold of one player count, linear in the bonus pays.

    ``patterns``/``values``: the grid (ascending values); ``line_keys``: the bonus lines (weakest
    first) the ``coefficients`` columns follow; ``run_pays``: the pays the run was played with (the
    decisions are theirs); ``reference``: the control-variate run at the rule set's own threshold;
    ``moments[t]``: the sums of ``w w^T`` of threshold ``t`` (see the module docstring; the first row and
    column are the round counts and sums).  RTPs are fractions.
    """

    players: int
    reading: str
    rules: RuleSet
    seed: int
    rounds: int
    patterns: tuple[str, ...]
    values: np.ndarray
    line_keys: tuple[str, ...]
    run_pays: np.ndarray
    reference_pattern: str
    reference: SimulationResult
    moments: np.ndarray
    replayed: int
    seconds: float
    level: float = 0.95

    @property
    def _cv(self):
        s = self.reference.summary()
        return s["rtp_initial_cv"] if "rtp_initial_cv" in s else s["rtp_initial"]

    def _lin(self):
        """Per threshold: ``k0`` (the constant part of the mean change), ``kc`` (per line, new counts),
        ``kA`` (per line, the run's counts), each per round."""
        n = self.moments[:, 0, 0]
        mean = self.moments[:, 0, :] / n[:, None]
        L = len(self.line_keys)
        return n, mean[:, 1], mean[:, 2:2 + L], mean[:, 2 + L:2 + 2 * L]

    def constant(self, *, plain: bool = False) -> np.ndarray:
        """``float64[T]``: the RTP with every bonus line paying 0, the run's decisions held (``plain``: from
        the reference run's plain mean instead of its controlled one: the tests' exact comparison)."""
        _, d0, _, cA = self._lin()
        ref = self.reference.summary()["rtp_initial"] if plain else self._cv
        return ref.estimate + (d0 - cA @ self.run_pays) / self.players

    def coefficients(self) -> np.ndarray:
        """``float64[T, L]``: the RTP added per ante unit a line pays (its paid hands per player-round)."""
        _, _, ct, _ = self._lin()
        return ct / self.players

    def rtp(self, pays=None, *, plain: bool = False) -> np.ndarray:
        """``float64[T]``: the RTP at every grid threshold with ``pays`` (default: the run's)."""
        p = self.run_pays if pays is None else np.asarray(pays, dtype=np.float64)
        return self.constant(plain=plain) + self.coefficients() @ p

    def half_width(self, pays=None) -> np.ndarray:
        """``float64[T]``: the 95% half-width (at ``level``) of :meth:`rtp`: the reference run's controlled
        half-width plus that of the mean change (a bound, see the module docstring)."""
        p = self.run_pays if pays is None else np.asarray(pays, dtype=np.float64)
        g = np.concatenate([[0.0, 1.0], p, -self.run_pays])
        n = self.moments[:, 0, 0]
        m1 = self.moments[:, 0, :] / n[:, None]
        second = np.einsum("i,tij,j->t", g, self.moments, g) / n
        var = np.maximum(second - (m1 @ g) ** 2, 0.0) * n / np.maximum(n - 1.0, 1.0)
        se_change = np.sqrt(var / n) / self.players
        cv = self._cv
        return z_value(self.level) * (cv.std_error + se_change)

    def to_frame(self, pays=None) -> pd.DataFrame:
        """One row per grid threshold: pattern, value, rtp, its interval (fractions)."""
        r, h = self.rtp(pays), self.half_width(pays)
        return pd.DataFrame({"players": self.players, "pattern": list(self.patterns), "value": self.values,
                             "rtp": r, "rtp_low": r - h, "rtp_high": r + h})

    def summary(self) -> str:
        return (f"Threshold sweep, {self.players} players, reading {self.reading}: {self.rounds:,} rounds "
                f"(seed {self.seed}), {self.replayed:,} replayed, {len(self.patterns)} thresholds, "
                f"{self.seconds:.1f} s")


def bonus_counts(records, line_of_value: np.ndarray, n_lines: int, bonus_on_automatic_win: bool) -> np.ndarray:
    """``float64[R, n_lines]``: per round, how many seats are paid each bonus line (1..n_lines).

    A seat is paid on its final hand when it played (won or beaten) and, with
    ``bonus_on_automatic_win``, when it took the automatic win (its three free cards)."""
    status = records.status
    paid = (status == Status.played) | (status == Status.beaten) | (status == Status.won)
    if bonus_on_automatic_win:
        paid |= status == Status.auto_win
    line = np.where(paid, line_of_value[np.clip(records.final_value, 0, len(line_of_value) - 1)], 0)
    out = np.zeros((status.shape[0], n_lines))
    for ln in range(1, n_lines + 1):
        out[:, ln - 1] = (line == ln).sum(axis=1)
    return out


# ---------------------------------------------------------------------------- one chunk

_SETUPS: dict[tuple, object] = {}


def _setup(rules: RuleSet, players: int, reading: str, pattern: str, controls: bool):
    key = (rules.sha256, players, reading, pattern, controls)
    s = _SETUPS.get(key)
    if s is None:
        r = rules if rules.kickout[players] == pattern else rules.with_kickout(players, pattern)
        s = _SETUPS[key] = prepare(r, players, reading, control_variates=controls)
    return s


def sweep_chunk(rules: RuleSet, players: int, reading: str, entropy: int, i: int, length: int,
                patterns: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Chunk ``i`` of a sweep (the task a Dask worker runs): the reference run's chunk at the rule set's
    own threshold (with its control variates), the replays of the rounds some grid threshold flips, and
    per grid threshold the sums of ``w w^T`` (module docstring).  Returns plain arrays."""
    ref = rules.kickout[players]
    t_ref = pattern_value(ref)
    values = np.array([pattern_value(p) for p in patterns], dtype=np.int64)
    lo_pat = patterns[int(values.argmin())] if values.min() < t_ref else ref
    hi_pat = patterns[int(values.argmax())] if values.max() > t_ref else ref
    t_lo, t_hi = pattern_value(lo_pat), pattern_value(hi_pat)
    line_of_value, pays, _ = bonus_lines(rules.bonus)
    n_lines = len(pays) - 1
    auto_bonus = bool(rules.options.bonus_on_automatic_win)

    chunk = run_chunk_records(_setup(rules, players, reading, ref, True), chunk_seed(entropy, i), length)
    rec = chunk.records
    dv = rec.dealer_value
    cnt_a = bonus_counts(rec, line_of_value, n_lines, auto_bonus)
    if not np.array_equal(cnt_a @ pays[1:], rec.bonus.sum(axis=1)):
        raise AssertionError("sweep: the bonus counts do not give the kernel's bonus (a rule the sweep misses)")
    xnb_a = (rec.pot_share - rec.wagered).sum(axis=1)
    xnb_alt, cnt_alt = xnb_a.copy(), cnt_a.copy()
    replayed = 0
    for pat, sel in ((lo_pat, (dv >= t_lo) & (dv < t_ref)), (hi_pat, (dv >= t_ref) & (dv < t_hi))):
        idx = np.flatnonzero(sel)
        if idx.size:
            other = replay_records(_setup(rules, players, reading, pat, False), chunk.decks[idx])
            xnb_alt[idx] = (other.pot_share - other.wagered).sum(axis=1)
            cnt_alt[idx] = bonus_counts(other, line_of_value, n_lines, auto_bonus)
            replayed += idx.size
    in_ref = dv < t_ref
    moments = np.empty((len(values), 2 + 2 * n_lines, 2 + 2 * n_lines))
    for k, t in enumerate(values):
        flip = (dv < t) != in_ref
        w = np.empty((length, 2 + 2 * n_lines))
        w[:, 0] = 1.0
        w[:, 1] = np.where(flip, xnb_alt - xnb_a, 0.0)
        w[:, 2:2 + n_lines] = np.where(flip[:, None], cnt_alt, cnt_a)
        w[:, 2 + n_lines:] = cnt_a
        moments[k] = gram(w)
    out = {f"sums_{k}": v for k, v in chunk.sums.in_half(i % 2).to_arrays().items()}
    out["moments"] = moments
    out["replayed"] = np.array(replayed)
    return out


# ---------------------------------------------------------------------------- the run

def sweep_players(rules: RuleSet, players: int, reading: str, patterns, *, seed: int,
                  precision: float | None = 0.1, rounds: int | None = None, executor=None,
                  workers: int | None = None, progress=None) -> ThresholdSweep:
    """The :class:`ThresholdSweep` of ``players`` (>= 1; Monte Carlo) over the grid ``patterns``.

    ``rounds``: fixed; else sized by a pilot (8 chunks, on a seed derived from ``seed`` as
    :func:`~ricochet_math.solvers.montecarlo.simulate_to_precision` derives it) for a 95% half-width of
    ``precision`` percentage points at the reference threshold.  The decisions are those of ``rules``'
    bonus pays: a sweep for other pays is another sweep (same ``seed``: the same deals).  ``executor``:
    None (local threads), a Dask ``Client``, a :class:`~ricochet_math.solvers.executors.DaskExecutor`, or
    a scheduler address; the figures do not depend on it.  ``progress``: a callable given
    ``(chunks done, chunks)``.
    """
    patterns = tuple(patterns)
    values = np.array([pattern_value(p) for p in patterns], dtype=np.int64)
    order = np.argsort(values, kind="stable")
    patterns, values = tuple(patterns[k] for k in order), values[order]
    t0 = time.perf_counter()
    if rounds is None:
        pilot_seed = int(np.random.SeedSequence(seed, spawn_key=(2 ** 32 - 1,)).generate_state(1, np.uint64)[0])
        pilot = simulate(rules, players, reading, 8 * CHUNK, pilot_seed, chunk_size=CHUNK, progress=False,
                         executor=executor)
        s = pilot.summary()
        fig = s["rtp_initial_cv"] if "rtp_initial_cv" in s else s["rtp_initial"]
        rounds = rounds_for_half_width(fig.std_error, pilot.rounds, precision / 100.0)
    entropy = int(np.random.SeedSequence(seed).entropy)
    n_chunks = -(-rounds // CHUNK)
    lengths = [min(CHUNK, rounds - i * CHUNK) for i in range(n_chunks)]
    setup = _setup(rules, players, reading, rules.kickout[players], True)
    sums = InOrderSums(ChunkSums.zeros(players, controls=True), rounds, CHUNK)
    moments = np.zeros((len(values), 2 + 2 * (len(rules.bonus)), 2 + 2 * len(rules.bonus)))
    replayed = 0
    results = _run_chunks(rules, players, reading, entropy, lengths, patterns, executor, workers, progress)
    for i, out in enumerate(results):  # chunk order: the same sums wherever the chunks ran
        sums.add(i, ChunkSums.from_arrays({k: out[f"sums_{k}"] for k in ChunkSums.KEYS}))
        moments = moments + out["moments"]
        replayed += int(out["replayed"])
    line_of_value, pays, names = bonus_lines(rules.bonus)
    ref = SimulationResult(
        rules_name=rules.name, rules_sha256=rules.sha256, players=players, strategies=(reading,) * players,
        seeds=(entropy,), rounds=rounds, chunk_size=CHUNK, sums=sums.total(n_chunks), version=__version__,
        run_time=time.perf_counter() - t0,
        control_means=tuple(map(float, setup.controls.means)) if setup.controls is not None else ())
    return ThresholdSweep(players=players, reading=reading, rules=rules, seed=entropy, rounds=rounds,
                          patterns=patterns, values=values, line_keys=tuple(names[1:]), run_pays=pays[1:].copy(),
                          reference_pattern=rules.kickout[players], reference=ref, moments=moments,
                          replayed=replayed, seconds=time.perf_counter() - t0)


def _run_chunks(rules, players, reading, entropy, lengths, patterns, executor, workers, progress):
    """The chunks' outputs in chunk order, run on local threads or on Dask."""
    args = (rules, players, reading, entropy)
    n = len(lengths)
    pool = runner = None
    if executor is None:
        sweep_chunk(*args, 0, 1, patterns)  # compile (or load) the kernels once, before the threads
        pool = ThreadPoolExecutor(max_workers=min(workers or default_workers(), max(n, 1)))
        submit = pool.submit
    else:
        runner = executor if isinstance(executor, DaskExecutor) else DaskExecutor(executor)

        def submit(*a):
            return runner.client.submit(*a, pure=False)
    try:
        futures = [submit(sweep_chunk, *args, i, lengths[i], patterns) for i in range(n)]
        out = []
        for k, f in enumerate(futures):
            out.append(f.result())
            if progress is not None:
                progress(k + 1, n)
        return out
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        if runner is not None and runner is not executor:
            runner.close()
