"""``ricochet sidebets`` and ``ricochet tune``: thin shells over :mod:`ricochet_math.design.sidebets` and
:mod:`ricochet_math.design.tuning` (load the rule set, call one library function, print or write)."""
from __future__ import annotations

import argparse
import math
import sys

from ricochet_math.cli.app import number, whole
from ricochet_math.cli.app import (
    add_format_option, add_rules_option, add_scheduler_option, add_seed_option, load_rules_option, print_frame,
    print_wrapped, subcommand, writable_file,
)
from ricochet_math.arguments import named_values, number_from_text, split_items
from ricochet_math.errors import RicochetError, RuleError, quote

# The library loads in the handlers: building the parser stays light (issue 26).


def _formats() -> dict:
    """How the side-bet tables read (fractions shown in percent, probabilities of a hand as 1 in N)."""
    from ricochet_math.reports.tables import Number, OneIn, Percent, Text

    return {
        "reading": Text(wrap=40), "rtp": Percent(3, interval=False, title="RTP %"),
        "house_edge": Percent(3, interval=False, title="edge %"), "hit_frequency": Percent(3, interval=False, title="hit %"), "std_dev": Number(4), "probability": OneIn(),
        "rtp_contribution": Percent(3, interval=False), "meter": Number(0), "distance": Percent(3, interval=False),
        **{f"{what}_{comparison}": Percent(digits, interval=False, title=f"{title} % {short}")
           for comparison, short in (("kicker", "kicker"), ("top_cards", "top"))
           for what, title, digits in (("win_rate", "win", 2), ("rtp_contribution", "RTP", 3))},
    }


def _show(frame, args: argparse.Namespace) -> None:
    """Print a frame in the chosen format; the table format reads it through :func:`_formats`."""
    print_frame(frame, args.format, formats=_formats(), wide=args.wide)


SHOW_CHOICES = ("summary", "quickdraw", "quickdraw-dealer", "quickdraw-classes", "cover", "progressive")


# --------------------------------------------------------------------------- sidebets

def _sidebets_arguments(parser: argparse.ArgumentParser) -> None:
    add_rules_option(parser)
    add_format_option(parser)
    parser.add_argument(
        "--show", choices=SHOW_CHOICES, action="append", default=None, metavar="TABLE",
        help="table(s) to print: " + ", ".join(SHOW_CHOICES)
             + " (repeatable; default: all but quickdraw-classes with --format table, summary otherwise)",
    )
    parser.add_argument("--reset", type=number(1, 10**9), default=None, metavar="UNITS",
                        help="progressive Cover: the royal flush pays a meter restarting at UNITS (to 1)")
    parser.add_argument("--meter-rate", type=number(0, 1, above=True), default=None, metavar="FRACTION",
                        help="progressive Cover: fraction of each wager added to the meter (e.g. 0.02)")


@subcommand(
    "sidebets",
    help="exact Quickdraw (both comparison readings) and Cover figures and return tables",
    example="ricochet sidebets --rules publisher --reset 2000 --meter-rate 0.02",
    arguments=_sidebets_arguments,
)
def _sidebets(args: argparse.Namespace) -> int:
    from ricochet_math.design import sidebets as sb

    rules = load_rules_option(args)
    progressive = args.reset is not None or args.meter_rate is not None
    if progressive and (args.reset is None or args.meter_rate is None):
        raise RuleError("a progressive Cover needs both --reset and --meter-rate")
    show = args.show
    if show is None:
        if args.format == "table":
            show = ["summary", "quickdraw", "quickdraw-dealer", "cover"] + (["progressive"] if progressive else [])
        else:
            show = ["summary"]
    if "progressive" in show and not progressive:
        raise RuleError("--show progressive needs --reset and --meter-rate")
    if args.format != "table" and len(show) > 1:
        raise RuleError(f"--format {args.format} prints one table: give one --show")
    titled = args.format == "table"
    for i, what in enumerate(show):
        if titled and i:
            print()
        if what == "summary":
            if titled:
                print(f"Side bets of rule set {rules.name} (per unit staked; exact counts)")
                for comparison, r in sb.quickdraw_both(rules).items():
                    print_wrapped(r.summary() + ("   <- rule set" if comparison == rules.quickdraw.comparison else ""))
                print_wrapped(sb.cover(rules).summary())
                print()
            _show(sb.sidebets_summary(rules), args)
        elif what == "quickdraw":
            if titled:
                print("Quickdraw by player hand: win rate and RTP contribution under each comparison")
            _show(sb.quickdraw_table(rules, "group"), args)
        elif what == "quickdraw-dealer":
            if titled:
                print("Quickdraw by dealer category: win rate and RTP contribution under each comparison")
            _show(sb.quickdraw_table(rules, dealer=True), args)
        elif what == "quickdraw-classes":
            if titled:
                print(f"Quickdraw return table, comparison {rules.quickdraw.comparison}: player class x dealer category")
            _show(sb.quickdraw(rules).to_frame(by="class"), args)
        elif what == "cover":
            if titled:
                print(f"Cover return table of rule set {rules.name}")
            _show(sb.cover(rules).to_frame(), args)
        elif what == "progressive":
            p = sb.cover_progressive(rules, reset=args.reset, meter_rate=args.meter_rate)
            if titled:
                print_wrapped(p.summary())
            _show(p.to_frame(), args)
    return 0


# --------------------------------------------------------------------------- tune

def _tune_arguments(parser: argparse.ArgumentParser) -> None:
    add_rules_option(parser)
    add_format_option(parser)
    parser.add_argument("--bet", choices=("cover", "bonus"), default="cover",
                        help="paytable to tune: the Cover side bet, or the main game's high-hand bonus "
                             "(one-player RTP, exact; default: cover)")
    parser.add_argument("--players", type=whole(1, 7), default=1,
                        help="with --bet bonus: player count (1 exact; 2..7 from one Monte Carlo run)")
    parser.add_argument("--rounds", type=whole(1, 10**12), default=20_000,
                        help="with --bet bonus and --players >= 2: Monte Carlo rounds (default 20,000)")
    add_seed_option(parser, 2026, help="with --players >= 2: seed (default 2026)")
    add_scheduler_option(parser)
    parser.add_argument("--resolve", action="store_true",
                        help="with --bet bonus: re-solve the best candidate's perfect play exactly (minutes)")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--target", type=_fraction, metavar="RTP",
                        help="target RTP as a fraction (0.95) or percent (95%%)")
    target.add_argument("--range", type=_fraction, nargs=2, metavar=("LO", "HI"),
                        help="target RTP range instead of a point")
    parser.add_argument("--tolerance", type=_fraction, default=0.001, metavar="RTP",
                        help="half-width of the window around --target (default 0.001)")
    parser.add_argument("--lines", default=None, metavar="KEY,KEY",
                        help="comma-separated lines that may change (default: all)")
    parser.add_argument("--step", action="append", default=None, metavar="[LINE=]N",
                        help="pays are multiples of N (default 1); LINE=N for one line (repeatable)")
    parser.add_argument("--bounds", action="append", default=None, metavar="LINE=LO:HI",
                        help="allowed pays of a line (repeatable; default step .. 10 x current)")
    parser.add_argument("--no-monotonic", action="store_true",
                        help="allow a better hand to pay less than a worse one")
    parser.add_argument("--n-best", type=whole(1, 1000), default=5, metavar="N", help="candidates to show (default 5)")
    parser.add_argument("--write", type=writable_file, default=None, metavar="FILE",
                        help="write the chosen candidate as a rule set extending --rules")
    parser.add_argument("--rank", type=whole(1, 1000), default=1, metavar="K", help="candidate to write (default 1, the best)")
    parser.add_argument("--name", default=None, help="name of the written rule set (default: the file's stem)")


def _fraction(text: str) -> float:
    t = text.strip()
    try:
        return float(t[:-1]) / 100.0 if t.endswith("%") else float(t)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {quote(text)}") from None


def _line_values(items, what: str):
    """``["N", "line=N"]`` -> (default or None, {line: N}); a line given twice is refused, not the last kept."""
    return named_values(items, what, error=RuleError)


def grid_options(args: argparse.Namespace, table) -> tuple[list[str], dict, dict]:
    """``--lines``, ``--step`` and ``--bounds`` (as ``ricochet tune`` and ``ricochet design`` take them) for a
    paytable: the free lines, their steps and their bounds (``{}``: the defaults)."""
    free = split_items(args.lines, "--lines", error=RuleError) if args.lines else list(table.keys())
    default_step, step_lines = _line_values(args.step, "--step")
    step = {k: _number(default_step, "--step") if default_step is not None else 1 for k in free}
    for k, v in step_lines.items():
        if k not in free:
            raise RuleError(f"--step names line {quote(k)}, which is not among the free lines ({', '.join(free)})")
        step[k] = _number(v, "--step")
    bounds = {}
    bound_default, bound_lines = _line_values(args.bounds, "--bounds")
    if bound_default is not None:  # "--bounds junk": a bound names its line, or it would be silently dropped
        raise RuleError(f"bad --bounds {quote(bound_default)}: write LINE=LO:HI")
    for k, v in bound_lines.items():
        if k not in free:
            raise RuleError(f"--bounds names line {quote(k)}, which is not among the free lines ({', '.join(free)})")
        lo, sep, hi = v.partition(":")
        if not sep:
            raise RuleError(f"bad --bounds {k}={quote(v)}: write LINE=LO:HI")
        bounds[k] = (_number(lo, "--bounds"), _number(hi, "--bounds"))
    return free, step, bounds


def _number(text: str, what: str) -> float:
    try:
        x = number_from_text(text, what)
    except RicochetError as exc:
        raise RuleError(str(exc)) from None
    if not math.isfinite(x) or x < 0 or x > 1e9:
        raise RuleError(f"bad {what} {quote(text)}: give a finite number from 0 to 1e9")
    return int(x) if x.is_integer() else x


@subcommand(
    "tune",
    help="tune a side-bet paytable to a target RTP: the best few candidates, optionally written as a rule set",
    example="ricochet tune --bet cover --target 0.96 --lines four_of_a_kind,straight_flush,royal_flush "
            "--step royal_flush=500 --write paytables/cover-96.toml",
    arguments=_tune_arguments,
)
def _tune(args: argparse.Namespace) -> int:
    from ricochet_math.design.tuning import tune_bonus, tune_cover

    rules = load_rules_option(args)
    table = rules.bonus if args.bet == "bonus" else rules.cover
    free, step, bounds = grid_options(args, table)
    target = tuple(args.range) if args.range else args.target
    if args.bet == "bonus":
        result = tune_bonus(rules, target, free, step=step, bounds=bounds or None, n_best=args.n_best,
                            tolerance=args.tolerance, monotonic=not args.no_monotonic, resolve=args.resolve,
                            players=args.players, rounds=args.rounds, seed=args.seed, executor=args.scheduler)
    else:
        result = tune_cover(rules, target, free, step=step, bounds=bounds or None, n_best=args.n_best,
                            tolerance=args.tolerance, monotonic=not args.no_monotonic)
    if args.format == "table":
        print_wrapped(result.summary())
        print()
    _show(result.to_frame(), args)
    if args.write:
        path = result.write_toml(args.write, args.rank, name=args.name)
        print(f"wrote candidate {args.rank} to {path}", file=sys.stderr)
    return 0
