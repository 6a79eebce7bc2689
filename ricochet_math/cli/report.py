"""``ricochet report`` and ``ricochet bench``: thin shells over :mod:`ricochet_math.reports.build` and the
library's own kernels (load the inputs, call the library, print or write)."""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time

import numba
import numpy as np

from ricochet_math.cli.app import add_format_option, add_rules_option, load_rules_option, print_frame, subcommand
from ricochet_math.errors import RicochetError
from ricochet_math.evaluator.cards import random_deals
from ricochet_math.evaluator.evaluation import all_five_card_values, evaluate
from ricochet_math.reports.build import SIZES, build_report, parse_players
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.solvers.advise import advise, table_state
from ricochet_math.solvers.montecarlo import default_workers, simulate

__all__ = ["bench_frame"]


# --------------------------------------------------------------------------- report

def _players(text: str):
    try:
        return parse_players(text)
    except RicochetError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _positive(text: str) -> int:
    try:
        value = int(text.replace(",", "").replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


def _report_arguments(parser: argparse.ArgumentParser) -> None:
    add_rules_option(parser)
    add_format_option(parser)
    parser.add_argument("--players", type=_players, default=tuple(range(1, 8)), metavar="RANGE",
                        help="player counts: 1-7 (default), 4, or 2,4,7")
    parser.add_argument("--size", choices=tuple(SIZES), default="small",
                        help="Monte Carlo effort: small (default; minutes on 2 cores once the exact N = 1 "
                             "analyses are cached, wide intervals at N >= 2), full (a lab's run: hours), "
                             "tiny (tests only: the figures mean nothing)")
    parser.add_argument("--rounds", type=_positive, default=None, metavar="R",
                        help="Monte Carlo rounds per player count for perfect play and each strategy reading "
                             "(default: the size's, 2,000 small / 200,000 full)")
    parser.add_argument("--seed", type=_seed, default=2026, metavar="INT",
                        help="the one seed of every Monte Carlo run (default: 2026)")
    parser.add_argument("--out", default=None, metavar="DIR",
                        help="folder to write (default: reports/<rule set name>); replaced when complete")
    parser.add_argument("--reproducible", action="store_true",
                        help="leave the build date and run times out, so every file is byte-identical "
                             "between builds")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")


@subcommand(
    "report",
    help="certification-style report (HTML, PDF and CSV tables) of a rule set for player counts 1-7",
    example="ricochet report --rules publisher --players 1-7 --size small --seed 2026 --out reports/publisher",
    arguments=_report_arguments,
)
def _report(args: argparse.Namespace) -> int:
    # pandas loads here, not at the top: every `ricochet` command imports this module, and pandas would add
    # 1.0 s to each (measured: `import ricochet_math` 2.1 s -> 3.1 s)
    import pandas as pd

    rules = load_rules_option(args)
    result = build_report(rules, args.players, rounds=args.rounds, seed=args.seed, out_dir=args.out,
                          size=args.size, progress=not args.quiet, reproducible=args.reproducible)
    main = result.main_game()
    if args.format != "table":
        print_frame(main, args.format)
        return 0
    print(result.summary())
    print(f"Main game, rule set {rules.name}, perfect play (N = 1 exact, N >= 2 Monte Carlo, 95% intervals):")
    rows = []
    for r in main.itertuples():
        ci = "exact" if r.rtp_initial_cv_low == r.rtp_initial_cv_high else \
            f"{100 * r.rtp_initial_cv_low:.2f} to {100 * r.rtp_initial_cv_high:.2f}"
        rows.append({"players": r.players, "method": r.method,
                     "RTP/initial bet %": f"{100 * r.rtp_initial_cv:.3f}", "95% CI": ci,
                     "RTP/wagered %": f"{100 * r.rtp_wagered_cv:.3f}", "fold %": f"{100 * r.fold_frequency:.2f}",
                     "win %": f"{100 * r.win_frequency:.2f}", "sd net": f"{r.sd_net:.3f}"})
    print_frame(pd.DataFrame(rows), "table")
    print(f"Open {result.html} in a browser (no network needed), or {result.pdf}.")
    return 0


# --------------------------------------------------------------------------- bench

def bench_frame(rules=None, repeat: int = 5, *, seven_hands: int = 1_000_000, engine_rounds: int = 262_144,
                decisions: int = 20, seed: int = 1, progress: bool = False):
    """Time the library's hot paths; one row per benchmark with the median and best of ``repeat`` runs.

    Each benchmark runs once untimed first (numba compilation or cache load),
    then ``repeat`` timed runs.  Rows: the evaluator over all 2,598,960
    five-card hands; ``seven_hands`` random seven-card hands in one batch; the
    engine's always-play rounds at N = 1, 4, 7 (``engine_rounds`` rounds,
    every core); one perfect-play decision for the first seat to act at a
    seven-player table (the mean over ``decisions`` random tables).
    """
    import pandas as pd  # here, not at the top: see _report

    rules = load_rules(rules)
    rng = np.random.default_rng(seed)
    seven = random_deals(rng, seven_hands, 7)
    tables = random_deals(rng, decisions, 7 * 2 + 5)
    states = [table_state(t[14:19], [t[2 * i:2 * i + 2] for i in range(7)]) for t in tables]

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
    if s >= 1:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.2f} ms"
    if s >= 1e-6:
        return f"{s * 1e6:.2f} us"
    return f"{s * 1e9:.1f} ns"


def _bench_arguments(parser: argparse.ArgumentParser) -> None:
    add_rules_option(parser)
    add_format_option(parser)
    parser.add_argument("--repeat", type=_positive, default=5, metavar="K",
                        help="timed runs per benchmark; the median is printed (default: 5)")


@subcommand(
    "bench",
    help="quick timings of the evaluator, the engine and the perfect-play solver on this machine (medians)",
    example="ricochet bench --repeat 7 --format csv",
    arguments=_bench_arguments,
)
def _bench(args: argparse.Namespace) -> int:
    frame = bench_frame(load_rules_option(args), args.repeat, progress=args.format == "table")
    if args.format != "table":
        print_frame(frame, args.format)
        return 0
    print(f"ricochet bench: median of {args.repeat} timed runs after one warm-up; {platform.machine()}, "
          f"{frame.attrs['cores']} cores usable of {os.cpu_count()}, numba {numba.__version__} "
          f"({numba.config.NUMBA_NUM_THREADS} threads)")
    shown = frame.copy()
    shown["median_s"] = [f"{v:.4f}" for v in shown["median_s"]]
    shown["best_s"] = [f"{v:.4f}" for v in shown["best_s"]]
    shown["rate"] = [f"{v:,.0f} {u}" for v, u in zip(frame["rate"], frame["unit"])]
    print_frame(shown.drop(columns="unit"), "table")
    return 0
