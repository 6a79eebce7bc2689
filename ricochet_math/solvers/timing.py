"""Timings of the library's hot paths on this machine (``ricochet bench``, ``rm.bench``).

Each benchmark runs once untimed first (numba compilation or cache load), then
``repeat`` timed runs; the table gives the median and the best, in seconds.
The careful per-component benchmarks live in ``benchmarks/``.
"""
from __future__ import annotations

import statistics
import sys
import time

import numpy as np
import pandas as pd

from ricochet_math.arguments import check_seed, check_whole
from ricochet_math.evaluator.cards import random_deals
from ricochet_math.evaluator.evaluation import all_five_card_values, evaluate
from ricochet_math.rules.ruleset import RuleSet, load_rules
from ricochet_math.engine.deal import face_up_table
from ricochet_math.solvers.advise import advise
from ricochet_math.solvers.montecarlo import default_workers, simulate

__all__ = ["bench"]


def bench(rules: RuleSet | str | None = None, repeat: int = 5, *, seven_hands: int = 1_000_000,
          engine_rounds: int = 262_144, decisions: int = 20, seed: int = 1, progress: bool = False) -> pd.DataFrame:
    """Time the library's hot paths; one row per benchmark with the median and best of ``repeat`` runs.

    Rows: the evaluator over all 2,598,960 five-card hands; ``seven_hands``
    random seven-card hands in one batch; the engine's always-play rounds at
    N = 1, 4, 7 (``engine_rounds`` rounds, every core); one perfect-play
    decision for the first seat to act at a seven-player table (the mean over
    ``decisions`` random tables).  Columns: ``median_s`` and ``best_s``
    (seconds per run), ``per_item`` (the median per hand, round or decision, as
    text), ``rate`` (items per second at the median) and its ``unit``.
    ``frame.attrs["cores"]`` is the number of cores the process may use.
    ``progress`` names each benchmark on stderr as it starts.
    """
    repeat = check_whole(repeat, "repeat", high=1000)
    seven_hands = check_whole(seven_hands, "seven_hands", high=10**8)
    engine_rounds = check_whole(engine_rounds, "engine_rounds", high=10**10)
    decisions = check_whole(decisions, "decisions", high=10**6)
    seed = check_seed(seed, allow_none=False)
    rules = load_rules(rules)
    rng = np.random.default_rng(seed)
    seven = random_deals(rng, seven_hands, 7)
    tables = random_deals(rng, decisions, 7 * 2 + 5)
    states = [face_up_table(t[14:19], [t[2 * i:2 * i + 2] for i in range(7)]) for t in tables]

    def decide_all():
        for st in states:
            advise(rules, state=st)

    cases = [
        ("evaluator: all five-card hands", "2,598,960 hands", 2_598_960, "hands/s", all_five_card_values),
        ("evaluator: random seven-card hands", f"{seven_hands:,} hands", seven_hands, "hands/s",
         lambda: evaluate(seven)),
    ]
    for n in (1, 4, 7):
        cases.append((f"engine: always play, N = {n}", f"{engine_rounds:,} rounds", engine_rounds, "rounds/s",
                      lambda n=n: simulate(rules, n, "always", engine_rounds, seed, progress=False)))
    cases.append(("solver: one perfect decision, N = 7 (first to act)", f"{decisions} tables", decisions,
                  "decisions/s", decide_all))
    rows = []
    for name, work, count, unit, fn in cases:
        if progress:
            print(f"  {name} ...", file=sys.stderr, flush=True)
        fn()  # warm-up: compile or load the kernels
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        med = statistics.median(times)
        per = med / count
        rows.append({"benchmark": name, "work": work, "median_s": med, "best_s": min(times),
                     "per_item": _seconds(per), "rate": count / med, "unit": unit})
    frame = pd.DataFrame(rows)
    frame.attrs["cores"] = default_workers()
    return frame


def _seconds(s: float) -> str:
    """A duration as text in the unit that reads best (s, ms, us, ns)."""
    if s >= 1:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.2f} ms"
    if s >= 1e-6:
        return f"{s * 1e6:.2f} us"
    return f"{s * 1e9:.1f} ns"
