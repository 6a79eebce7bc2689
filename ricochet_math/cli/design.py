"""``ricochet design``: a thin shell over :func:`ricochet_math.design.rule_set.design_rule_set` (load the
rule set, call it, print the tables, write the designed rule set)."""
from __future__ import annotations

import argparse
import sys

from ricochet_math.cli.app import (
    add_format_option, add_rules_option, add_scheduler_option, add_seed_option, load_rules_option, number,
    print_frame, print_wrapped, subcommand, whole, writable_file,
)
from ricochet_math.arguments import number_from_text, split_items
from ricochet_math.cli.sidebets import grid_options
from ricochet_math.errors import RicochetError

# The library loads in the handler: building the parser stays light (issue 26).  The defaults and the bound the
# help shows are the library's (design.kickout.DEFAULT_GRID, design.rule_set.DEFAULT_OTHERS, MAX_RESOLVES and
# DEFAULT_RESOLVES),
# copied here because importing them loads numba; tests/cli/test_cli_startup.py checks the copies agree.
DEFAULT_GRID = (
    "99", "TT", "JJ", "QQ", "KK", "KKQ", "AA", "AAQ", "33xx", "66xx", "TTxx", "QQxx", "AAxx",
    "222", "777", "QQQ", "AAA", "A2345", "TJQKA", "flush",
)
DEFAULT_OTHERS = ("pub-final-dealer-no-bonus", "pot-odds-final", "chaser", "timid", "perfect-vs-pot-odds-final")
MAX_RESOLVES = 20
DEFAULT_RESOLVES = 8


def _formats() -> dict:
    """How the design tables read each column."""
    from ricochet_math.reports.tables import Percent, Text, Whole

    return {
        "threshold": Text(), "was": Text(), "reading": Text(), "search": Text(),
        "search_rtp": Percent(3, interval=False, title="search RTP %"),
        "search_half_width": Percent(3, interval=False, title="search ±"),
        "rtp": Percent(3, title="confirmed RTP %"), "rounds": Whole(), "seed": Text(), "method": Text(wrap=30),
        "predicted": Percent(3, interval=False, title="linear %"), "resolved": Percent(3, interval=False, title="re-solved %"),
        "difference": Percent(3, interval=False, title="error (points)"),
        "difference_plain": Percent(3, interval=False, title="paired error"),
        "half_width": Percent(3, interval=False, title="bound ±"), "resolve": Whole(), "exact": Text(),
        "in_band": Text(), "iteration": Whole(), "pays": Text(wrap=30), "linear": Percent(3, interval=False, title="linear %"),
        "gap": Percent(3, interval=False, title="cut error (points)"),
        "linear_error": Percent(3, interval=False, title="linear error (points)"),
        "linear_error_paired": Percent(3, interval=False, title="paired linear error"),
        "gap_paired": Percent(3, interval=False, title="paired cut error"), "radius": Text(), "step": Text(wrap=20),
        "worst_over_prediction": Percent(3, interval=False, title="worst cut - re-solved (points)"),
        "worst_over_prediction_paired": Percent(3, interval=False, title="paired"), "cuts_checked": Whole(),
        "lower_bound": Text(),
    }


def _percent_or_fraction(text: str) -> float:
    """95.97 (percent), 95.97% or 0.9597 -> 0.9597."""
    t = text.strip()
    try:
        x = number_from_text(t[:-1] if t.endswith("%") else t)
    except RicochetError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return x / 100.0 if t.endswith("%") or x > 2.0 else x


def _design_arguments(parser: argparse.ArgumentParser) -> None:
    add_rules_option(parser)
    add_format_option(parser)
    parser.add_argument("--band", nargs=2, type=_percent_or_fraction, metavar=("LO", "HI"), default=(0.9597, 0.9691),
                        help="RTP band per initial bet, percent (95.97 96.91) or fractions (default 95.97 96.91)")
    parser.add_argument("--reading", default="perfect", help="player model of the design (default perfect)")
    parser.add_argument("--vary", default="kickout,bonus", metavar="PARTS",
                        help="what may change: kickout, bonus or kickout,bonus (default both)")
    parser.add_argument("--objective", choices=("band", "target", "flat"), default="band",
                        help="band: every interval inside the band (default); target: smallest worst deviation "
                             "from --target; flat: the flattest RTP over N (inside the band when it can be)")
    parser.add_argument("--target", type=_percent_or_fraction, default=None, metavar="RTP",
                        help="with --objective target: the target RTP (percent or fraction)")
    parser.add_argument("--players", default="1-7", help="player counts: 1-7 (default), 2-4, 1,3,7")
    parser.add_argument("--grid", default=None, help=f"kickout patterns allowed (default: {' '.join(DEFAULT_GRID)})")
    parser.add_argument("--lines", default=None, metavar="KEY,KEY", help="bonus lines that may change (default all)")
    parser.add_argument("--step", action="append", default=None, metavar="[LINE=]N",
                        help="bonus pays are multiples of N (default 1); LINE=N for one line (repeatable)")
    parser.add_argument("--bounds", action="append", default=None, metavar="LINE=LO:HI",
                        help="allowed pays of a bonus line (repeatable; default step .. 10 x current)")
    parser.add_argument("--no-monotonic", action="store_true", help="allow a better hand to pay less")
    parser.add_argument("--search-precision", type=number(0, 10, above=True), default=0.1, metavar="PP",
                        help="95%% half-width of the search's Monte Carlo sweeps, points (default 0.1)")
    parser.add_argument("--confirm-precision", type=number(0, 10, above=True), default=0.05, metavar="PP",
                        help="95%% half-width of the confirmation on fresh seeds, points (default 0.05)")
    parser.add_argument("--others", default=",".join(DEFAULT_OTHERS), metavar="READING,...",
                        help="other player models to show the design under ('' for none; A-vs-B: one seat "
                             f"best-responding to B; default {','.join(DEFAULT_OTHERS)})")
    parser.add_argument("--other-precision", type=number(0, 10, above=True), default=0.2, metavar="PP",
                        help="95%% half-width of the other models' runs, points (default 0.2)")
    parser.add_argument("--max-resolves", type=whole(0, MAX_RESOLVES), default=DEFAULT_RESOLVES, metavar="K",
                        help="most re-solves of the decisions while the bonus moves (default "
                             f"{DEFAULT_RESOLVES}); a search that has not converged by then says so")
    add_seed_option(parser, 2026, help="seed of the design (search, confirmation and other runs each get their "
                                       "own streams from it; default 2026)")
    add_scheduler_option(parser)
    parser.add_argument("--write", type=writable_file, default=None, metavar="FILE",
                        help="write the designed rule set (TOML extending --rules) and FILE's .design.json record")
    parser.add_argument("--csv", type=writable_file, default=None, metavar="FILE",
                        help="write the confirmed RTP-by-N table as CSV (full precision)")
    parser.add_argument("--name", default=None, help="name of the written rule set (default: the file's stem)")
    parser.add_argument("--quiet", "--no-progress", action="store_true", help="no progress lines on stderr")


@subcommand(
    "design",
    help="design a kickout table and bonus that put every player count in an RTP band",
    example="ricochet design --band 95.97 96.91 --reading perfect --vary kickout,bonus --write my-design.toml",
    arguments=_design_arguments,
)
def _design(args: argparse.Namespace) -> int:
    from ricochet_math.design.rule_set import check_design_files, convexity_by_players, design_rule_set
    from ricochet_math.reports.tables import Percent
    from ricochet_math.engine.deal import parse_players
    from ricochet_math.storage import atomic_write_text, exact_seed_columns

    rules = load_rules_option(args)
    if args.write:  # refused before the design runs: a file the toolkit did not write is never replaced
        check_design_files(args.write)
    free, step, bounds = grid_options(args, rules.bonus)
    others = split_items(args.others, "--others") if args.others.strip() else []  # '': none
    result = design_rule_set(
        rules, tuple(args.band), reading=args.reading, vary=args.vary, objective=args.objective, target=args.target,
        players=parse_players(args.players), grid=args.grid if args.grid else DEFAULT_GRID, lines=free, step=step,
        bounds=bounds or None, monotonic=not args.no_monotonic, seed=args.seed,
        search_precision=args.search_precision, confirm_precision=args.confirm_precision, others=others,
        other_precision=args.other_precision, max_resolves=args.max_resolves, executor=args.scheduler,
        progress=not args.quiet)
    if args.format == "table":
        print_wrapped(result.summary())
        print()
        print("RTP per initial bet by player count (confirmation on fresh seeds):")
    # the table format keeps to the terminal: the seeds and the method text are in csv / json and the record
    table = result.table if args.format != "table" else result.table.drop(columns=["seed", "method"])
    formats = _formats()
    print_frame(table, args.format, formats=formats, wide=args.wide)
    if args.format == "table" and len(result.others):
        print("\nThe same design under other player models:")
        print_frame(result.others.drop(columns=["method"]), args.format, formats=formats, keys=2, wide=args.wide)
    if args.format == "table" and result.iterations is not None and len(result.iterations):
        print("\nThe iterations: at each proposed design, the linear shortcut (the centre's decisions), the cut model "
              "(every re-solved surface kept) and the re-solved figure:")
        cols = ["iteration", "players", "threshold", "pays", "linear", "predicted", "resolved", "gap", "gap_paired",
                "radius", "step"]
        print_frame(result.iterations[cols].rename(columns={"predicted": "cut model"}), args.format,
                    formats=formats | {"cut model": Percent(3, interval=False, title="cut model %")}, keys=2,
                    wide=args.wide)
        print("\nConvexity: every earlier cut against the re-solved figure at the next designs (a cut of a convex "
              "RTP never over-predicts):")
        print_frame(convexity_by_players(result.convexity), args.format, formats=formats, wide=args.wide)
    if args.csv:
        atomic_write_text(args.csv, exact_seed_columns(result.table).to_csv(index=False), "design table")
        print(f"wrote {args.csv}", file=sys.stderr)
    if args.write:
        path = result.write_toml(args.write, name=args.name)
        print(f"wrote {path}", file=sys.stderr)
    return 0

