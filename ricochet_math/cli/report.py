"""``ricochet report`` and ``ricochet bench``: thin shells over :mod:`ricochet_math.reports.build` and the
library's own kernels (load the inputs, call the library, print or write)."""
from __future__ import annotations

import argparse
import os
import platform
import sys

from ricochet_math.cli.app import (
    add_format_option, add_rules_option, add_scheduler_option, add_seed_option, load_rules_option, print_frame,
    subcommand, writable_folder,
)
from ricochet_math.arguments import whole_from_text
from ricochet_math.errors import RicochetError

# The library loads in the handlers: building the parser stays light (issue 26).
#: the report's sizes (reports.build.SIZES, copied: importing it loads numba; tests/cli/test_cli_startup.py
#: checks the copy agrees)
SIZES = ("tiny", "small", "full")

# --------------------------------------------------------------------------- report

def _players(text: str):
    from ricochet_math.reports.build import parse_players  # only when --players is given

    try:
        return parse_players(text)
    except RicochetError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _positive(text: str) -> int:
    try:
        value = whole_from_text(text)
    except RicochetError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
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
    add_seed_option(parser, 2026, help="the one seed of every Monte Carlo run (default: 2026)")
    add_scheduler_option(parser)
    parser.add_argument("--out", type=writable_folder, default=None, metavar="DIR",
                        help="folder to write (default: reports/<rule set name>); replaced when complete")
    parser.add_argument("--reproducible", action="store_true",
                        help="leave the build date and run times out, so every file is byte-identical "
                             "between builds")
    parser.add_argument("--quiet", "--no-progress", action="store_true", help="no progress bars")
    parser.add_argument("--alternative", action="append", default=[], metavar="FILE",
                        help="a rule-set file whose bonus and Cover tables the appendix prices (N = 1 exact) "
                             "beside the shipped ones; repeat for several")


@subcommand(
    "report",
    help="certification-style report (HTML, PDF, Excel workbook and CSV tables) of a rule set for player counts 1-7",
    example="ricochet report --rules publisher --players 1-7 --size small --seed 2026 --out reports/publisher",
    arguments=_report_arguments,
)
def _report(args: argparse.Namespace) -> int:
    import pandas as pd

    from ricochet_math.reports.build import build_report
    from ricochet_math.reports.tables import Number, Percent

    rules = load_rules_option(args)
    result = build_report(rules, args.players, rounds=args.rounds, seed=args.seed, out_dir=args.out,
                          size=args.size, progress=not args.quiet, reproducible=args.reproducible,
                          executor=args.scheduler, alternatives=args.alternative)
    main = result.main_game()
    for note in result.notes:  # e.g. the PDF left out without the pdf extra: one line, the rest is written
        print(f"ricochet: note: {note}", file=sys.stderr)
    if args.format != "table":
        print_frame(main, args.format)
        return 0
    print(result.summary())
    print(f"Main game, rule set {rules.name}, perfect play (N = 1 exact, N >= 2 Monte Carlo):")
    # the report's RTPs: the control-variate estimates where the run kept them (main_game's rtp_* columns)
    view = pd.DataFrame({"players": main["players"],
                         "method": main["method"].replace({"monte carlo, control variates": "controlled"})})
    for name in ("rtp_initial", "rtp_wagered"):
        for end in ("", "_low", "_high"):
            view[name + end] = main[name + end]
    for name in ("fold_frequency", "win_frequency", "sd_net"):
        view[name] = main[name]
    print_frame(view, keys=1, wide=args.wide, formats={
        "rtp_initial": Percent(3, title="RTP/initial %"), "rtp_wagered": Percent(3, title="RTP/wagered %"),
        "fold_frequency": Percent(2, interval=False, title="fold %"),
        "win_frequency": Percent(2, interval=False, title="win %"), "sd_net": Number(3, title="sd net")})
    print("controlled = Monte Carlo with control variates of exactly known mean (a narrower interval).")
    also = [str(p) for p in (result.pdf, result.workbook) if p.relative_to(result.out_dir) in result.files]
    print(f"Open {result.html} in a browser (no network needed)" + (f", or {' / '.join(also)}." if also else "."))
    return 0


# --------------------------------------------------------------------------- bench

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
    import numba

    from ricochet_math.solvers.timing import bench

    frame = bench(load_rules_option(args), args.repeat, progress=args.format == "table")
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
    print_frame(shown.drop(columns="unit"), "table", wide=args.wide)
    return 0
