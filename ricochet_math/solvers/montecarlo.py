"""Monte Carlo runs of casino Ricochet: RTP, fold and win frequencies with confidence intervals.

:func:`simulate` plays ``rounds`` random rounds with the fast engine
(:mod:`ricochet_math.engine.kernel`) and returns a :class:`SimulationResult`
that keeps the raw sums, so results merge, and derives every figure from them.

Reproducibility
---------------
The rounds are cut into chunks of ``chunk_size`` (default 65,536).  Chunk ``i``
deals from ``numpy.random.SeedSequence(seed).spawn(n)[i]``: its cards depend
only on the seed, the chunk size, the chunk's index and the number of players,
never on how many threads ran it or in what order.  Chunks run on an
executor (:mod:`ricochet_math.solvers.executors`: local threads, or a Dask
cluster) and their sums are added in chunk order, so a run gives
bit-identical results on any executor with any number of workers.  The
deals do not depend on the strategies or the rule set either (each round
shuffles a fixed ``5N + 5`` cards), so two runs with the same seed compare
strategies or rule sets with common random numbers.

Figures (all per player-round unless said; money in ante units)
---------------------------------------------------------------
* ``rtp_initial`` = 1 + E[net] (return per initial bet), ``house_edge`` = -E[net];
* ``rtp_wagered`` = sum returned / sum wagered (return per total wagered, a
  ratio estimator with a delta-method interval), ``element_of_risk`` = 1 - it;
* ``fold_frequency``, ``win_frequency`` (won or shared the pot, automatic wins
  included), ``hit_frequency`` (net > 0), ``bonus_frequency`` and per final
  hand, ``average_wagered``, ``sd_net`` (standard deviation of one seat's
  net per round); per round: ``kickout_rate``, ``average_pot``,
  ``house_takes_pot``, ``automatic_win_rate``; side bets per unit staked:
  ``quickdraw_rtp``, ``cover_rtp``.

Confidence intervals are normal approximations with the sample standard
deviation (:mod:`ricochet_math.solvers.stats`), computed with the **round** as the
independent sample (the seats of one round share a pot and a deck), at 95%
unless another ``level`` is asked for.

>>> res = simulate(players=2, strategy="always", rounds=20_000, seed=1, progress=False)
>>> 0.5 < res.summary()["rtp_initial"].estimate < 1.5
True
"""
from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd

from ricochet_math._version import __version__
from ricochet_math.arguments import check_finite, check_level, check_seed, check_whole
from ricochet_math.engine.kernel import prepare, run_chunk
from ricochet_math.engine.sums import N_CATEGORIES, ROUND_FIELDS, SEAT_FIELDS, ChunkSums, RoundSum, SeatSum
from ricochet_math.engine.deal import check_players
from ricochet_math.errors import RicochetError, quote
from ricochet_math.progress import bar as progress_bar, status as progress_status
from ricochet_math.random_streams import resolve_seed
from ricochet_math.evaluator.names import BONUS_CATEGORY_NAMES
from ricochet_math.rules.checks import MAX_PAYS
from ricochet_math.rules.ruleset import RuleSet, load_rules
from ricochet_math.storage import DamagedFileError, check_writable_file, load_arrays, save_arrays
from ricochet_math.solvers.batches import InOrderSums
from ricochet_math.solvers.executors import (
    MAX_WORKERS, ChunkJob, DaskExecutor, LocalExecutor, chunk_seed, default_workers, executor_for_run,
)
from ricochet_math.solvers.stats import (
    Estimate, mean_ci, proportion_ci, rate_ci, ratio_ci, rounds_for_half_width, sample_std,
)
from ricochet_math.engine.controls import seat_index
from ricochet_math.solvers.variance import controlled_estimate, controlled_ratio
from ricochet_math.strategies.registry import resolve_strategies

__all__ = ["CHUNK_ROUNDS", "SOLVER_CHUNK_ROUNDS", "MAX_ROUNDS", "MAX_CHUNK_ROUNDS", "MAX_WORKERS",
           "SimulationResult", "simulate", "simulate_to_precision", "rtp_table", "chunk_seed",
           "default_workers", "default_chunk_size", "RTP_ROUNDS", "RTP_ROUNDS_SOLVER"]

#: rounds per chunk: the unit of seeding, parallel work and checkpointing
CHUNK_ROUNDS = 1 << 16
#: rounds per chunk when a seat calls the perfect-play kernel (milliseconds per round,
#: so smaller chunks keep every core busy on short runs)
SOLVER_CHUNK_ROUNDS = 256
#: the most rounds one run may ask for: 10**12 (days of work on a large machine; a larger number is a typo)
MAX_ROUNDS = 10 ** 12
#: the largest chunk: its decks' state and sums are per chunk, and 2**24 rounds keep Ctrl-C and
#: checkpoints within seconds
MAX_CHUNK_ROUNDS = 1 << 24


def default_chunk_size(strategies) -> int:
    """:data:`SOLVER_CHUNK_ROUNDS` if any seat uses the solver, else :data:`CHUNK_ROUNDS`."""
    return SOLVER_CHUNK_ROUNDS if any(s.uses_look_ahead for s in strategies) else CHUNK_ROUNDS


#: default rounds per player count of ``ricochet rtp`` (about a minute on 2 cores)
RTP_ROUNDS = 2_000_000
RTP_ROUNDS_SOLVER = 4_000


# ----------------------------------------------------------------------------
# The result
# ----------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class SimulationResult:
    """A Monte Carlo run: what was run, and the raw sums every figure comes from.

    ``sums`` (:class:`~ricochet_math.engine.kernel.ChunkSums`) holds the totals
    by seat, by acting position and per round; ``rounds`` is their count.
    ``seeds`` are the root seeds (entropy of the ``SeedSequence``), one per
    run merged in.  ``run_time`` is in seconds.
    """

    rules_name: str
    rules_sha256: str
    players: int
    strategies: tuple[str, ...]
    seeds: tuple[int, ...]
    rounds: int
    chunk_size: int
    sums: ChunkSums = field(repr=False)
    version: str = ""
    run_time: float = 0.0
    level: float = 0.95
    control_means: tuple[float, ...] = ()

    @property
    def controlled(self):
        """The control-variate estimate (:class:`~ricochet_math.solvers.variance.ControlledEstimate`) of the
        total net per round, or None when the run did not record controls."""
        if not self.control_means or self.sums.controls.size == 0:
            return None
        return controlled_estimate(self.sums.controls, np.array(self.control_means), self.level)

    def controlled_seat(self, seat: int):
        """The control-variate estimate of seat ``seat``'s (0-based) mean net per round, or None."""
        if not self.control_means or self.sums.controls.size == 0:
            return None
        return controlled_estimate(self.sums.controls, np.array(self.control_means), self.level,
                                   target=seat_index(seat))

    @property
    def seed(self) -> int:
        """The root seed of a single run."""
        return self.seeds[0]

    @property
    def strategy(self) -> str:
        """The strategy name, or the per-seat names joined with ``/`` when they differ."""
        return self.strategies[0] if len(set(self.strategies)) == 1 else "/".join(self.strategies)

    def merge(self, other: SimulationResult) -> SimulationResult:
        """The pooled result of two independent runs of the same game (same rules, players, strategies)."""
        same = (self.rules_sha256, self.players, self.strategies) == (other.rules_sha256, other.players,
                                                                      other.strategies)
        if not same:
            raise RicochetError("can only merge runs of the same rule set, player count and strategies")
        if self.control_means != other.control_means:
            raise RicochetError("can only merge runs that both recorded control variates, or neither")
        if set(self.seeds) & set(other.seeds):
            raise RicochetError(f"runs with the same seed ({sorted(set(self.seeds) & set(other.seeds))}) "
                                "repeat the same rounds and cannot be merged")
        return replace(self, seeds=self.seeds + other.seeds, rounds=self.rounds + other.rounds,
                       sums=self.sums + other.sums, run_time=self.run_time + other.run_time)

    def with_level(self, level: float) -> SimulationResult:
        """The same result with confidence intervals at another level."""
        return replace(self, level=level)

    # ---- figures -----------------------------------------------------------

    def summary(self) -> dict[str, Estimate | float | int | str]:
        """Every figure by name: :class:`~ricochet_math.solvers.stats.Estimate` for estimates, plain numbers otherwise."""
        s, n, r, lv = self.sums, self.players, self.rounds, self.level
        tot, sq, rd = s.total, s.total_sq, s.round

        def per_seat(f: int, rate: bool = False) -> Estimate:  # per player-round, the round as the sample
            if rate:  # an exact binomial interval where nothing (or everything) was seen: never a bare "exact"
                return rate_ci(tot[f], sq[f], n * r, r, lv)
            est = mean_ci(tot[f] / n, sq[f] / (n * n), r, lv)
            # the estimate is one division of the stored sum, so a CSV shows its shortest repr, not the
            # noise of (sum / n) / r
            return replace(est, estimate=float(tot[f] / (n * r))) if r > 0 else est

        def per_round(f: int, f_sq: int | None = None) -> Estimate:
            if f_sq is None:  # a yes/no per round
                return proportion_ci(rd[f], r, lv)
            return mean_ci(rd[f], rd[f_sq], r, lv)

        net = per_seat(SeatSum.net)
        rtp_w = ratio_ci(tot[SeatSum.returned], tot[SeatSum.wagered], sq[SeatSum.returned], sq[SeatSum.wagered], rd[RoundSum.total_returned_wagered], r, lv)
        out: dict[str, Estimate | float | int | str] = {
            "rules": self.rules_name,
            "players": n,
            "strategy": self.strategy,
            "rounds": r,
            "rtp_initial": _one_plus(net, tot[SeatSum.net], n * r),
            "rtp_wagered": rtp_w,
            "house_edge": net.shifted(0.0, -1.0),
            "element_of_risk": rtp_w.shifted(1.0, -1.0),
            "fold_frequency": per_seat(SeatSum.fold, rate=True),
            "play_frequency": per_seat(SeatSum.play, rate=True),
            "win_frequency": per_seat(SeatSum.win, rate=True),
            "hit_frequency": per_seat(SeatSum.hit, rate=True),
            "bonus_frequency": per_seat(SeatSum.bonus_hit, rate=True),
            "average_wagered": per_seat(SeatSum.wagered),
            "average_bonus": per_seat(SeatSum.bonus),
            "average_pot_share": per_seat(SeatSum.pot_share),
            "kickout_rate": per_round(RoundSum.kicked),
            "average_pot": per_round(RoundSum.pot, RoundSum.pot_sq),
            "house_takes_pot": per_round(RoundSum.house_takes_pot),
            "automatic_win_rate": per_round(RoundSum.auto_win),
            "split_rate": per_round(RoundSum.split),
            "all_fold_rate": per_round(RoundSum.all_fold),
            "house_net_per_round": per_round(RoundSum.house_net, RoundSum.house_net_sq),
            "sd_net": sample_std(float(s.seat[:, SeatSum.net].sum()), float(s.seat[:, SeatSum.net_sq].sum()), r * n),
            "quickdraw_rtp": _one_plus(per_seat(SeatSum.quickdraw), tot[SeatSum.quickdraw], n * r),
            "quickdraw_hit_frequency": per_seat(SeatSum.quickdraw_win, rate=True),
            "cover_rtp": _one_plus(per_round(RoundSum.cover, RoundSum.cover_sq), rd[RoundSum.cover], r),
            "cover_hit_frequency": per_round(RoundSum.cover_win),
        }
        for c in range(N_CATEGORIES):
            out[f"bonus_{_cat_key(c)}"] = per_seat(SeatSum.bonus_0 + c, rate=True)
        cv = self.controlled
        if cv is not None:  # the same RTP per initial bet, with the control variates (ricochet_math.solvers.variance)
            out["rtp_initial_cv"] = cv.controlled.shifted(1.0, 1.0 / n)
            out["rtp_wagered_cv"] = controlled_ratio(self.sums.controls, np.array(self.control_means), lv)
            out["variance_ratio"] = cv.variance_ratio
        return out

    def to_frame(self):
        """One row (pandas): the run's identity, every figure, and ``_low``/``_high`` interval columns."""
        row: dict[str, object] = {}
        for name, value in self.summary().items():
            if isinstance(value, Estimate):
                row[name] = value.estimate
                row[f"{name}_low"] = value.low
                row[f"{name}_high"] = value.high
            else:
                row[name] = value
        row.update({"seed": self.seeds[0] if len(self.seeds) == 1 else " ".join(map(str, self.seeds)),
                    "rules_sha256": self.rules_sha256, "version": self.version,
                    "run_time_s": round(self.run_time, 3)})
        return pd.DataFrame([row])

    def seat_frame(self, by: str = "seat"):
        """Per seat (``by="seat"``) or per acting position (``by="position"``, 1 = acted first):
        RTP both ways, mean net and its standard deviation, fold and win frequency, with 95% intervals."""
        table = self.sums.seat if by == "seat" else self.sums.position
        r, lv = self.rounds, self.level
        rows = []
        for i in range(self.players):
            t = table[i]
            net = mean_ci(t[SeatSum.net], t[SeatSum.net_sq], r, lv)
            rtp_w = ratio_ci(t[SeatSum.returned], t[SeatSum.wagered], t[SeatSum.returned_sq], t[SeatSum.wagered_sq], t[SeatSum.returned_wagered], r, lv)
            row = {by: i + 1}
            if by == "seat":
                row["strategy"] = self.strategies[i]
            for name, est in (("rtp_initial", _one_plus(net, t[SeatSum.net], r)), ("rtp_wagered", rtp_w),
                              ("fold_frequency", proportion_ci(t[SeatSum.fold], r, lv)),
                              ("win_frequency", proportion_ci(t[SeatSum.win], r, lv)),
                              ("hit_frequency", proportion_ci(t[SeatSum.hit], r, lv))):
                row[name], row[f"{name}_low"], row[f"{name}_high"] = est.estimate, est.low, est.high
            if by == "seat" and self.control_means:  # the seat's RTP with the control variates
                cv = self.controlled_seat(i).controlled.shifted(1.0)
                row["rtp_initial_cv"], row["rtp_initial_cv_low"], row["rtp_initial_cv_high"] = (
                    cv.estimate, cv.low, cv.high)
            row["mean_net"] = net.estimate
            row["sd_net"] = sample_std(t[SeatSum.net], t[SeatSum.net_sq], r)
            row["automatic_wins"] = int(t[SeatSum.auto_win])
            row["beaten"] = int(t[SeatSum.beaten])
            row["split_wins"] = int(t[SeatSum.split_win])
            rows.append(row)
        return pd.DataFrame(rows)

    def hands_frame(self):
        """Final five-card hands of the seats that have one: count and frequency per player-round, and the
        bonus paid on them (frequency with its 95% interval)."""
        s, n, r = self.sums, self.players, self.rounds
        rows = []
        for c in range(N_CATEGORIES):
            hand = rate_ci(s.total[SeatSum.hand_0 + c], s.total_sq[SeatSum.hand_0 + c], n * r, r, self.level)
            bonus = rate_ci(s.total[SeatSum.bonus_0 + c], s.total_sq[SeatSum.bonus_0 + c], n * r, r, self.level)
            rows.append({"hand": BONUS_CATEGORY_NAMES[c], "count": int(s.total[SeatSum.hand_0 + c]),
                         "frequency": hand.estimate, "frequency_low": hand.low, "frequency_high": hand.high,
                         "bonus_hits": int(s.total[SeatSum.bonus_0 + c]), "bonus_frequency": bonus.estimate,
                         "bonus_frequency_low": bonus.low, "bonus_frequency_high": bonus.high})
        return pd.DataFrame(rows)

    def describe(self) -> str:
        """A few readable lines: what ran and the headline figures."""
        m = self.summary()
        return "\n".join([
            f"{self.rounds:,} rounds, {self.players} player(s), strategy {self.strategy}, rules {self.rules_name} "
            f"(sha256 {self.rules_sha256[:12]}), seed {self.seeds[0] if len(self.seeds) == 1 else self.seeds}",
            f"  RTP per total wagered {_pct(m['rtp_wagered'])}; per initial bet {_pct(m['rtp_initial'])}",
            f"  fold {_pct(m['fold_frequency'])}; win {_pct(m['win_frequency'])}; kickout {_pct(m['kickout_rate'])}",
            f"  sd of a seat's net per round {_num(m['sd_net'])}; average pot {_num(m['average_pot'].estimate)}",
        ])


def _one_plus(mean: Estimate, total: float, trials: float) -> Estimate:
    """``1 + mean`` (RTP per initial bet from the mean net), the estimate as one division
    ``(trials + total) / trials`` of the stored sum rather than 1 plus an already rounded mean."""
    est = mean.shifted(1.0)
    return replace(est, estimate=float((trials + total) / trials)) if trials > 0 else est


#: what :meth:`SimulationResult.describe` prints for a figure a one-round run cannot give
NOT_AVAILABLE = "n/a (needs 2 rounds)"


def _num(x: float) -> str:
    return NOT_AVAILABLE if math.isnan(x) else f"{x:.4f}"


def _pct(e: Estimate) -> str:
    """``12.345% [12.300, 12.390]``; a NaN estimate or interval (fewer than 2 rounds, nothing wagered) is
    printed as n/a, never as ``nan%``."""
    if math.isnan(e.estimate):
        return NOT_AVAILABLE
    interval = NOT_AVAILABLE if math.isnan(e.low) else f"{100 * e.low:.3f}, {100 * e.high:.3f}"
    return f"{100 * e.estimate:.3f}% [{interval}]"


def _cat_key(c: int) -> str:
    return BONUS_CATEGORY_NAMES[c].lower().replace(" ", "_")


# ----------------------------------------------------------------------------
# Running
# ----------------------------------------------------------------------------

def simulate(rules: RuleSet | str | None = None, players: int = 1, strategy="always", rounds: int = 1_000_000,
             seed: int | None = None, *, workers: int | None = None, chunk_size: int | None = None,
             progress: bool = True, checkpoint: str | os.PathLike | None = None,
             level: float = 0.95, control_variates: bool | None = None, executor=None) -> SimulationResult:
    """Play ``rounds`` random rounds and return the sums and figures.

    ``rounds``: 1 to :data:`MAX_ROUNDS` (10**12); intervals and standard
    deviations need at least 2 rounds (with 1 they are NaN and
    :meth:`SimulationResult.describe` says "n/a").  ``strategy``: a name or
    :class:`~ricochet_math.strategies.registry.Strategy` for every seat, or one
    per seat.  ``seed``: a whole number from 0 to 2**128 - 1 (``None``: fresh
    entropy, recorded on the result).  ``workers``: threads (default: every
    core this process may use); the result does not depend on it.
    ``chunk_size``: rounds per chunk (default :func:`default_chunk_size`); part
    of the seeding, so recorded on the result.  ``progress``: a ``tqdm`` bar on
    stderr for runs of several chunks on a terminal.  ``checkpoint``: a file
    that keeps every finished chunk's sums; a run stopped (Ctrl-C, a kill) and
    restarted with the same arguments resumes from it (a file from another
    game, seed or chunk size is refused).  ``level``: of the confidence
    intervals, strictly between 0 and 1.  ``control_variates``: also record the
    controls of :mod:`ricochet_math.solvers.variance` and report
    ``rtp_initial_cv`` (the same RTP with a smaller interval, same rounds);
    default: on when a seat uses the perfect-play kernel (whose cost dwarfs
    theirs), off otherwise.  ``executor``: where the chunks run (None: local
    threads; a :class:`~ricochet_math.solvers.executors.LocalExecutor`, a
    :class:`~ricochet_math.solvers.executors.DaskExecutor`, a
    ``dask.distributed.Client`` or a scheduler address ``tcp://HOST:PORT``);
    the result does not depend on it, and ``checkpoint`` is written here in
    the driver whichever executor ran the chunks.

    Every argument is checked before any round is played.  Chunks are seeded
    and handed out only as workers become free, so memory does not
    grow with ``rounds``.  Ctrl-C stops within about one chunk's time, saves
    every finished chunk to ``checkpoint`` and raises ``KeyboardInterrupt``.
    """
    rules = load_rules(rules)
    n = check_players(players)
    rounds = check_whole(rounds, "rounds", high=MAX_ROUNDS)
    seed = check_seed(seed)
    level = check_level(level)
    if workers is not None:
        workers = check_whole(workers, "workers", high=MAX_WORKERS)
    if chunk_size is not None:
        chunk_size = check_whole(chunk_size, "chunk_size", high=MAX_CHUNK_ROUNDS)
    if checkpoint is not None:
        checkpoint = check_writable_file(checkpoint, "checkpoint")
    if workers is not None and executor is not None:
        raise RicochetError("give workers (local threads) or executor, not both: "
                            "LocalExecutor(workers) sets the threads of a local executor")
    if control_variates is None:
        control_variates = any(s.uses_look_ahead for s in resolve_strategies(strategy, n))
    # the strategies' tables (the perfect-play solver's are built or loaded here) before the first chunk
    with progress_status(f"N = {n}: preparing the strategies' tables", progress):
        setup = prepare(rules, n, strategy, control_variates=bool(control_variates))
    if chunk_size is None:
        chunk_size = default_chunk_size(setup.strategies)
    entropy = resolve_seed(seed)
    n_chunks = -(-rounds // chunk_size)
    names = tuple(s.name for s in setup.strategies)

    meta = {"rules_sha256": rules.sha256, "players": n, "strategies": list(names), "seed": entropy,
            "chunk_size": chunk_size,
            # the controls' layout length (0: none), so a checkpoint from another layout is refused
            "control_variates": int(setup.controls.means.shape[0]) if setup.controls is not None else 0}
    sums = InOrderSums(ChunkSums.zeros(n, controls=bool(control_variates)), rounds, chunk_size)
    if checkpoint is not None and checkpoint.exists():
        _load_checkpoint(checkpoint, meta, sums)

    start = time.perf_counter()
    job = ChunkJob(rules, n, names, bool(control_variates), entropy,
                   # looked up at call time, so tests can wrap this module's run_chunk
                   local=lambda i, length: run_chunk(setup, chunk_seed(entropy, i), length)[0])
    todo = ((i, sums.length(i)) for i in range(sums.prefix_chunks, n_chunks) if i not in sums.waiting)
    remaining = n_chunks - sums.prefix_chunks - len(sums.waiting)
    # a Client or an address becomes a DaskExecutor here, after every check, so a refused run opens no client
    runner = (LocalExecutor(workers) if executor is None else executor
              if isinstance(executor, (LocalExecutor, DaskExecutor)) else DaskExecutor(executor))
    # a bar for every run but the tiniest (its elapsed time ticks while the first chunk compiles or loads
    # the kernel, and while one perfect-play chunk runs for seconds)
    what = f"N = {n} {_strategy_label(names)}, Monte Carlo"
    bar = progress_bar(rounds, f"{what}: loading the kernel (compiled on the first run)" if isinstance(
                           runner, LocalExecutor) else what,
                       unit=" rounds", unit_scale=True, initial=sums.rounds_done, progress=progress and remaining >= 2)
    last_save = time.monotonic()

    def done(i: int, chunk: ChunkSums) -> None:
        nonlocal last_save
        sums.add(i, chunk.in_half(i % 2))  # even / odd chunks: cross-fitted controls
        bar.update(sums.length(i))
        if checkpoint is not None and time.monotonic() - last_save > _SAVE_EVERY_S:
            _save_checkpoint(checkpoint, meta, sums)
            last_save = time.monotonic()

    try:
        if isinstance(runner, LocalExecutor):
            run_chunk(setup, chunk_seed(entropy, 0), 0)  # compile (or load) the kernel once, before the threads
            bar.set_description_str(what)
        runner.run(job, todo, remaining, done)
    finally:
        bar.close()
        if runner is not executor and isinstance(runner, DaskExecutor):
            runner.close()  # the client this run opened from an address
        if checkpoint is not None and sums.rounds_done:
            _save_checkpoint(checkpoint, meta, sums)
    return SimulationResult(
        rules_name=rules.name, rules_sha256=rules.sha256, players=n, strategies=names, seeds=(entropy,),
        rounds=rounds, chunk_size=chunk_size, sums=sums.total(n_chunks), version=__version__,
        run_time=time.perf_counter() - start, level=level,
        control_means=tuple(map(float, setup.controls.means)) if setup.controls is not None else (),
    )


def _strategy_label(names: Sequence[str]) -> str:
    """The strategy of every seat (``perfect``), or each seat's in seat order (``pair/always``)."""
    return names[0] if len(set(names)) == 1 else "/".join(names)


#: seconds between checkpoint saves during a run
_SAVE_EVERY_S = 5.0


# ----------------------------------------------------------------------------
# Checkpoints: the in-order sum of the first finished chunks, and each later finished chunk, saved atomically
# ----------------------------------------------------------------------------

_CHECKPOINT_SCHEMA = "ricochet_math.simulate.checkpoint/2"


def _save_checkpoint(path: Path, meta: dict, sums: InOrderSums) -> None:
    idx = sorted(sums.waiting)
    arrays = {"index": np.array(idx, dtype=np.int64),
              "lengths": np.array([sums.length(i) for i in idx], dtype=np.int64)}
    for key in ChunkSums.KEYS:
        first = getattr(sums.prefix, key)
        arrays[f"prefix_{key}"] = first
        arrays[f"chunks_{key}"] = (np.stack([getattr(sums.waiting[i], key) for i in idx]) if idx
                                   else np.zeros((0, *first.shape)))
    prefix_rounds = sum(sums.length(i) for i in range(sums.prefix_chunks))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        save_arrays(path, _CHECKPOINT_SCHEMA, arrays,
                    {"meta": meta, "prefix_chunks": sums.prefix_chunks, "prefix_rounds": prefix_rounds})
    except OSError as exc:
        raise RicochetError(f"checkpoint {path} could not be written: {exc.strerror or exc}") from None


def _load_checkpoint(path: Path, meta: dict, sums: InOrderSums) -> None:
    """Fill ``sums`` from the checkpoint at ``path``: its chunks that belong to this run."""
    try:
        head, arrays = load_arrays(path, _CHECKPOINT_SCHEMA)
    except DamagedFileError as exc:
        raise DamagedFileError(f"checkpoint {exc}; remove it or choose another file") from None
    saved = head.get("meta")
    if saved != meta:
        diff = ", ".join(k for k in meta if not isinstance(saved, dict) or saved.get(k) != meta[k])
        raise RicochetError(f"checkpoint {path} belongs to another run (different {diff}); "
                            "remove it or choose another file")
    try:
        k, k_rounds = head["prefix_chunks"], head["prefix_rounds"]
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (k, k_rounds)):
            raise ValueError("the prefix's chunk and round counts are not whole numbers")
        prefix = ChunkSums.from_arrays({key: arrays[f"prefix_{key}"] for key in ChunkSums.KEYS})
        index, lengths = arrays["index"], arrays["lengths"]
        if index.dtype != np.int64 or lengths.dtype != np.int64 or index.shape != lengths.shape or index.ndim != 1:
            raise ValueError("the chunk index and lengths are not two int64 lists of one length")
        stacked = {key: arrays[f"chunks_{key}"] for key in ChunkSums.KEYS}
        if any(a.shape[:1] != index.shape for a in stacked.values()):
            raise ValueError("the stored chunks do not match their index")
        later = [(int(i), int(length), ChunkSums.from_arrays({key: stacked[key][j] for key in ChunkSums.KEYS}))
                 for j, (i, length) in enumerate(zip(index, lengths))]
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise DamagedFileError(f"checkpoint {path}: cannot be read: malformed content ({exc})") from None
    n_chunks = -(-sums.rounds // sums.chunk_size)
    if not 0 <= k <= n_chunks or sum(sums.length(i) for i in range(k)) != k_rounds:
        raise RicochetError(f"checkpoint {path} holds {k_rounds:,} rounds in {k} chunks, which do not fit "
                            f"a run of {sums.rounds:,} rounds: run at least as many rounds, or remove it")
    refuse = lambda why: DamagedFileError(  # noqa: E731
        f"checkpoint {path}: refused: {why} (a hash detects damage, not forgery); remove it or choose another file")
    reason = _check_sums(prefix, sums.prefix, k_rounds, "the prefix")
    if reason:
        raise refuse(reason)
    seen = set()
    for i, length, chunk in later:
        if i in seen or not k <= i < n_chunks or length != sums.length(i):
            raise refuse(f"chunk {i} (of {length:,} rounds) is repeated, out of range or of the wrong length")
        seen.add(i)
        reason = _check_sums(chunk, sums.prefix, length, f"chunk {i}")
        if reason:
            raise refuse(reason)
    sums.prefix, sums.prefix_chunks = prefix, k
    for i, _, chunk in later:
        sums.add(i, chunk)


#: the counts among the per-seat sums (each at most one per round) and among the per-round sums
_SEAT_COUNTS = [SEAT_FIELDS.index(f) for f in SEAT_FIELDS if f in (
    "fold", "play", "win", "auto_win", "beaten", "hit", "bonus_hit", "split_win", "quickdraw_win")
    or f.startswith(("hand_", "bonus_"))]
_ROUND_COUNTS = [ROUND_FIELDS.index(f) for f in ("kicked", "house_takes_pot", "auto_win", "all_fold", "split",
                                                "cover_win")]
#: the most a seat's money can move in one round, in ante units: every bet paid at the largest payout a
#: rule set may hold (:data:`~ricochet_math.rules.checks.MAX_PAYS`) several times over
_MONEY_PER_ROUND = 16 * MAX_PAYS


def _check_sums(chunk: ChunkSums, template: ChunkSums, rounds: int, what: str) -> str | None:
    """Why ``chunk`` (read from a checkpoint) cannot be the sums of ``rounds`` rounds of this run (None when it
    can): its shapes are the run's (``template``), every sum is finite, the round count is ``rounds``, every
    count lies in 0..``rounds`` (per seat), squares are not negative and money stays within what the rules
    allow per round."""
    for key in ChunkSums.KEYS:
        if getattr(chunk, key).shape != getattr(template, key).shape:
            return f"{what}: {key} sums of shape {getattr(chunk, key).shape}, not {getattr(template, key).shape}"
        if not np.isfinite(getattr(chunk, key)).all():
            return f"{what}: a {key} sum is not a finite number"
    if chunk.round[ROUND_FIELDS.index("rounds")] != rounds:
        return f"{what}: records {chunk.round[ROUND_FIELDS.index('rounds')]:,.0f} rounds, not {rounds:,}"
    counts = np.concatenate([chunk.seat[:, _SEAT_COUNTS].ravel(), chunk.position[:, _SEAT_COUNTS].ravel(),
                             chunk.round[_ROUND_COUNTS]])
    if counts.size and (counts.min() < 0 or counts.max() > rounds):
        return f"{what}: a count outside 0..{rounds:,} (the rounds it records)"
    squares = [SEAT_FIELDS.index(f) for f in SEAT_FIELDS if f.endswith("_sq")]
    if (chunk.seat[:, squares] < 0).any() or (chunk.total_sq < 0).any():
        return f"{what}: a sum of squares is negative"
    bound = _MONEY_PER_ROUND * max(rounds, 1) * max(len(chunk.seat), 1)
    if np.abs(chunk.seat).max(initial=0) > bound ** 2 or np.abs(chunk.round).max(initial=0) > bound ** 2:
        return f"{what}: a sum beyond what {rounds:,} rounds can hold"
    money = [SEAT_FIELDS.index(f) for f in ("wagered", "returned", "net", "bonus")]
    if np.abs(chunk.seat[:, money]).max(initial=0) > bound:
        return f"{what}: money beyond what {rounds:,} rounds can move"
    return None


def simulate_to_precision(rules: RuleSet | str | None = None, players: int = 1, strategy="always",
                          precision: float = 0.05, seed: int | None = None, *, pilot_rounds: int | None = None,
                          guarantee: bool = False, **kwargs) -> SimulationResult:
    """A :func:`simulate` run sized to reach a 95% half-width of ``precision`` percentage points on the
    RTP per initial bet (the controlled estimate where the run keeps control variates).

    A pilot run on its own seed (derived from ``seed``; default 8 chunks) measures the estimator's
    standard error; the main run then plays the fixed number of rounds that reaches the target with a 10%
    margin (:func:`~ricochet_math.solvers.stats.rounds_for_half_width`).  The figures come from the main
    run alone, so the stopping rule does not bias them, and ``simulate(..., rounds=result.rounds,
    seed=seed)`` reproduces them.  ``kwargs`` go to both runs (workers, executor, checkpoint for the
    main run only, ...).  More than :data:`MAX_ROUNDS` rounds needed: one :class:`RicochetError` line.

    ``guarantee``: when the main run's own interval is still wider than ``precision`` (the pilot
    underestimated the error: it happens by chance), play the run again with the rounds the main run's
    error asks for, the same seed (so its first chunks are the same deals), until the half-width is
    reached; the returned run then states a half-width of at most ``precision`` (what a report sized
    for a lab promises).  The second size depends on the first run's error, a two-stage rule; the
    result is still reproduced by ``simulate(..., rounds=result.rounds, seed=seed)``.
    """
    check_finite(precision, "precision (percentage points)", low=1e-6, high=100.0)
    seed = check_seed(seed)
    if seed is None:
        seed = resolve_seed(None)
    n = check_players(players)
    if pilot_rounds is None:
        pilot_rounds = 8 * default_chunk_size(resolve_strategies(strategy, n))
    pilot_kwargs = {k: v for k, v in kwargs.items() if k != "checkpoint"} | {"progress": False}
    # the pilot's seed: a fixed function of the main seed whose chunk streams are independent of it
    pilot_seed = int(np.random.SeedSequence(seed, spawn_key=(2 ** 32 - 1,)).generate_state(1, np.uint64)[0])
    # the pilot's own bar is off (its rounds are not the run's); a status line says what it is doing
    with progress_status(f"N = {n}: a pilot run sizes the run for ± {precision:g} percentage points",
                         kwargs.get("progress", True)):
        pilot = simulate(rules, n, strategy, check_whole(pilot_rounds, "pilot_rounds", high=MAX_ROUNDS),
                         pilot_seed, **pilot_kwargs)
    s = pilot.summary()
    figure = s["rtp_initial_cv"] if "rtp_initial_cv" in s else s["rtp_initial"]
    rounds = rounds_for_half_width(figure.std_error, pilot.rounds, precision / 100.0, kwargs.get("level", 0.95))
    if rounds > MAX_ROUNDS:
        raise RicochetError(f"precision {precision} pp needs about {rounds:,} rounds at {n} players, beyond the "
                            f"limit of {MAX_ROUNDS:,}: ask for a wider interval")
    out = simulate(rules, n, strategy, rounds, seed, **kwargs)
    while guarantee:
        s = out.summary()
        figure = s["rtp_initial_cv"] if "rtp_initial_cv" in s else s["rtp_initial"]
        if not figure.half_width > precision / 100.0:
            break
        more = rounds_for_half_width(figure.std_error, out.rounds, precision / 100.0, kwargs.get("level", 0.95))
        more = max(more, out.rounds + 1)
        if more > MAX_ROUNDS:
            raise RicochetError(f"precision {precision} pp needs about {more:,} rounds at {n} players, beyond the "
                                f"limit of {MAX_ROUNDS:,}: ask for a wider interval")
        again = dict(kwargs)
        if again.get("checkpoint") is not None:  # a checkpoint of its own: the first run's may end mid-chunk
            ck = Path(again["checkpoint"])
            again["checkpoint"] = ck.with_name(f"{ck.stem}-{more}{ck.suffix}")
        out = simulate(rules, n, strategy, more, seed, **again)
    return out


def rtp_table(rules: RuleSet | str | None = None, players: Sequence[int] = range(1, 8), strategy="perfect",
              rounds: int | None = None, seed: int | None = 2026, *, workers: int | None = None,
              progress: bool = True, level: float = 0.95, executor=None,
              precision: float | None = None) -> tuple[list[SimulationResult], object]:
    """The main job: one :func:`simulate` run per player count, and their figures as one table.

    ``rounds`` per player count defaults to :data:`RTP_ROUNDS` (or
    :data:`RTP_ROUNDS_SOLVER` when a seat uses the perfect-play kernel).  Every
    player count uses the same ``seed``, so ``simulate(players=N, seed=seed)``
    reproduces its row.  ``executor``: where the chunks run (see
    :func:`simulate`; an address opens one client for the whole table).  ``precision``: instead of
    fixed rounds, size each player count's run to that 95% half-width in percentage points
    (:func:`simulate_to_precision`).  Returns the results and the ``pandas`` table (one row per
    player count: :meth:`SimulationResult.to_frame`).
    """
    rules = load_rules(rules)
    if isinstance(players, (int, np.integer)) and not isinstance(players, bool):
        players = [players]
    try:
        counts = [check_players(n) for n in players]
    except TypeError:
        raise RicochetError(f"players must be a player count or a list of them, got {quote(players)}") from None
    if not counts:
        raise RicochetError("players must name at least one player count")
    if rounds is not None:
        check_whole(rounds, "rounds", high=MAX_ROUNDS)
    check_seed(seed)
    check_level(level)
    if workers is not None:
        check_whole(workers, "workers", high=MAX_WORKERS)
    results = []
    with executor_for_run(executor) as runner:
        for n in counts:
            r = rounds
            if r is None:
                r = (RTP_ROUNDS_SOLVER if any(s.uses_look_ahead for s in resolve_strategies(strategy, n))
                     else RTP_ROUNDS)
            if precision is not None:
                results.append(simulate_to_precision(rules, n, strategy, precision, seed, workers=workers,
                                                     progress=progress, level=level, executor=runner))
                continue
            results.append(simulate(rules, n, strategy, r, seed, workers=workers, progress=progress, level=level,
                                    executor=runner))
    return results, pd.concat([res.to_frame() for res in results], ignore_index=True)
