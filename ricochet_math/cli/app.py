"""The ``ricochet`` command: a thin shell over the library.

Each subcommand loads its inputs, calls one library function and prints the
result; no mathematics lives here (style guide, item 12).

Adding a subcommand
-------------------
Subcommands are registered, not listed in one big function.  Write them in a
module of :mod:`ricochet_math.cli` and add that module to the explicit list in
``ricochet_math/cli/__init__.py``::

    from ricochet_math.cli.app import add_format_option, add_rules_option, load_rules_option, print_frame, subcommand

    def _exact_row_arguments(parser):
        add_rules_option(parser)
        add_format_option(parser)

    @subcommand("exact-row", help="the exact one-player RTP row of a rule set",
                example="ricochet exact-row --rules publisher-4p-tens",
                arguments=_exact_row_arguments)
    def _exact_row(args) -> int:
        from ricochet_math.solvers.exact_row import exact_rtp_row  # the library loads in the handler

        print_frame(exact_rtp_row(load_rules_option(args)), args.format)
        return 0

``run`` returns the exit status.  User errors are raised as
:class:`~ricochet_math.errors.RicochetError`; :func:`main` prints them as one
line ``ricochet: error: ...`` on stderr and exits with status 2, without a
traceback (argparse usage errors look and exit the same).
"""
from __future__ import annotations

import argparse
import errno
import math
import os
import sys
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

# Only light modules here: building the parser (``ricochet --help``, a usage error) must not load numba,
# pandas or scipy (issue 26; tests/cli/test_cli_startup.py).  The handlers import the library.
from ricochet_math import environment
from ricochet_math._version import __version__
from ricochet_math.arguments import check_seed, number_from_text, whole_from_text
from ricochet_math.errors import RicochetError, quote, shorten

if TYPE_CHECKING:
    import pandas as pd

    from ricochet_math.rules.ruleset import RuleSet

__all__ = [
    "Subcommand",
    "subcommand",
    "registry",
    "build_parser",
    "main",
    "add_action",
    "add_rules_option",
    "add_seed_option",
    "add_format_option",
    "load_rules_option",
    "print_frame",
    "print_wrapped",
    "seed_argument",
    "strategy_words",
    "warn_deprecated_list",
    "writable_file",
    "writable_folder",
    "whole",
    "number",
    "range_text",
    "RangeHelpFormatter",
    "FORMATS",
    "TABLE_WIDTH",
]

PROG = "ricochet"
FORMATS = ("table", "csv", "json")
#: the terminal width the table format keeps to unless --wide
TABLE_WIDTH = 100


@dataclass(frozen=True)
class Subcommand:
    """A registered subcommand: ``arguments(parser)`` adds its options, ``run(args)`` returns the exit status."""

    name: str
    help: str
    example: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


_REGISTRY: dict[str, Subcommand] = {}


def subcommand(
    name: str,
    *,
    help: str,
    example: str,
    arguments: Callable[[argparse.ArgumentParser], None] | None = None,
) -> Callable[[Callable[[argparse.Namespace], int]], Callable[[argparse.Namespace], int]]:
    """Register the decorated ``run(args) -> int`` as ``ricochet NAME``.

    ``help`` is the one-line description, ``example`` a full command line
    shown in the subcommand's ``--help`` epilog, ``arguments(parser)`` adds its
    options.  Registering a name twice is a programming error.
    """

    def decorate(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
        if name in _REGISTRY and _REGISTRY[name].run is not run:
            raise ValueError(f"subcommand {quote(name)} is registered twice")
        _REGISTRY[name] = Subcommand(name, help, example, arguments or (lambda parser: None), run)
        return run

    return decorate


def registry() -> dict[str, Subcommand]:
    """Every registered subcommand by name (:mod:`ricochet_math.cli` imports each command module)."""
    return dict(_REGISTRY)


# --------------------------------------------------------------------------
# Options shared by subcommands
# --------------------------------------------------------------------------

def add_rules_option(parser: argparse.ArgumentParser) -> None:
    """``--rules FILE``: a rule-set file or shipped name (default ``publisher``)."""
    parser.add_argument(
        "--rules", metavar="FILE", default=None,
        help="rule-set TOML file or shipped name such as publisher-4p-tens (default: publisher)",
    )


def seed_argument(text: str) -> int:
    """``--seed`` as argparse reads it: a whole number from 0 to 2**128 - 1 in ASCII digits, else a one-line
    usage error."""
    try:
        return check_seed(whole_from_text(text), "the seed", allow_none=False)
    except RicochetError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def whole(low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` to ``high`` in ASCII digits (``1_000`` and ``1,000``
    read as 1000; ``'１２'``, ``'٣'`` and ``'0x10'`` are refused), else a one-line usage error naming the
    range.  Every whole-number option has one (a fixed choice too: ``type=whole(1, 2), choices=(1, 2)``)."""
    def parse(text: str) -> int:
        try:
            value = whole_from_text(text)
        except RicochetError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be a whole number from {low:,} to {high:,}, got {shorten(text)}")
        return value

    parse.__name__ = "whole number"
    parse.low, parse.high, parse.above = low, high, False  # read by the help (RangeHelpFormatter)
    return parse


def number(low: float, high: float, *, above: bool = False) -> Callable[[str], float]:
    """An argparse ``type``: a finite number from ``low`` (excluded when ``above``) to ``high`` in ASCII
    digits, else a one-line usage error naming the range (``nan`` and ``inf`` are refused)."""
    def parse(text: str) -> float:
        try:
            value = number_from_text(text)
        except RicochetError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        if not math.isfinite(value) or value > high or value < low or (above and value == low):
            raise argparse.ArgumentTypeError(f"must be a finite number in {'(' if above else '['}{low:g}, {high:g}], "
                                             f"got {shorten(text)}")
        return value

    parse.__name__ = "number"
    parse.low, parse.high, parse.above = low, high, above  # read by the help (RangeHelpFormatter)
    return parse


def _figure(x: float) -> str:
    """A bound as the help writes it: 1,000,000 for a whole one, 0.5 otherwise."""
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


def range_text(parse: Callable[[str], object]) -> str | None:
    """What the help says of a :func:`whole` or :func:`number` option's range ("from 1 to 7", "above 0, up
    to 100"); None for any other ``type``."""
    if not hasattr(parse, "low"):
        return None
    low, high = _figure(parse.low), _figure(parse.high)
    return f"above {low}, up to {high}" if parse.above else f"from {low} to {high}"


class RangeHelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Every parser's help: descriptions and epilogs as written (the examples keep their lines), option help
    wrapped to the terminal, and each :func:`whole` or :func:`number` option's range appended as "(from A to
    B)", or inside a closing "(default ...)", unless its help states it already ("players 1..7"): declared
    once, in the ``type``."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        stated = range_text(action.type)
        if text is None or stated is None or text == argparse.SUPPRESS:
            return text
        if stated in text or f"{_figure(action.type.low)}..{_figure(action.type.high)}" in text:
            return text
        last = text.rfind("(")
        if text.endswith(")") and text.startswith("(default", last) and ")" not in text[last:-1]:
            return f"{text[:-1]}; {stated})"
        return f"{text} ({stated})"


def add_workers_option(parser: argparse.ArgumentParser) -> None:
    """``--workers K``: threads for a game run (default every core; the figures do not depend on it)."""
    parser.add_argument("--workers", type=whole(1, 4096), default=None, metavar="K",
                        help="threads (default: every core; the figures do not depend on it)")


def add_progress_option(parser: argparse.ArgumentParser) -> None:
    """``--quiet`` (also spelt ``--no-progress``): no progress bar or status line on stderr.  They are shown
    by default when stderr is a terminal, never on stdout, so a table, CSV or JSON is the same either way
    (:mod:`ricochet_math.progress`; ``RICOCHET_PROGRESS=1`` shows them on any stderr)."""
    parser.add_argument("--quiet", "--no-progress", dest="progress", action="store_false",
                        help="no progress bar or status line on stderr (shown by default when stderr is a "
                             "terminal: what the run is doing, the rate and the time left; RICOCHET_PROGRESS=1 "
                             "shows them on any stderr)")


def strategy_words(words: list[str], flag: str = "--strategy") -> list[str]:
    """The strategies of ``--strategy A B`` (every game's spelling: one strategy a word), each word checked
    as the list grammar checks an item (:func:`~ricochet_math.arguments.split_items`): an empty one, or
    one holding a separator or a space (``'A;B'``, ``'A,B'``, ``'A B'`` quoted as one word), is refused with
    one line."""
    from ricochet_math.errors import StrategyError

    names = []
    for word in words:
        name = word.strip()
        if not name or ";" in name or any(ch.isspace() for ch in name):
            raise StrategyError(f"{flag} takes one strategy a word ({flag} A B), got {quote(word)}")
        names.append(name)
    return names


def warn_deprecated_list(old: str, names: list[str], new: str = "--strategy") -> None:
    """The one warning line of a list option kept for one release under its older spelling (issue 37:
    every game spells its seats' strategies ``--strategy A B``)."""
    sys.stderr.write(f"{PROG}: warning: {old} is deprecated and goes in the next release; write "
                     f"{new} {' '.join(names)}"[:300] + "\n")


def add_seed_option(parser: argparse.ArgumentParser, default: int | None = None, help: str | None = None) -> None:
    """``--seed INT``: the random seed (recorded with the results), checked when the line is parsed.  The
    default help says what the default is: fresh entropy (resolved by
    :func:`~ricochet_math.random_streams.resolve_seed`, printed with the results) or the fixed seed."""
    if help is None:
        help = ("random seed (default: fresh entropy, printed with the results)" if default is None
                else f"random seed (default {default})")
    parser.add_argument("--seed", type=seed_argument, default=default, metavar="INT", help=help)


def add_scheduler_option(parser: argparse.ArgumentParser) -> None:
    """``--scheduler tcp://HOST:PORT``: run the Monte Carlo chunks on a Dask cluster (same figures, bit for bit)."""
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="run the Monte Carlo chunks on the Dask cluster at ADDRESS (tcp://HOST:PORT; needs "
                             "ricochet_math[distributed]); the figures are identical to a local run")


def writable_file(text: str) -> str:
    """An output file path that can be written (:func:`~ricochet_math.storage.check_writable_file`),
    checked when the command line is parsed, so a bad path costs a line, not the work before the write."""
    from ricochet_math.storage import check_writable_file  # only when the option is given (it loads numpy)

    try:
        check_writable_file(text)
    except RicochetError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    except OSError as exc:  # a name the system refuses to look at (too long: ENAMETOOLONG)
        raise argparse.ArgumentTypeError(f"cannot use the path {quote(text)}: {exc.strerror or exc}") from None
    return text


def writable_folder(text: str) -> str:
    """An output folder that can be created or written (:func:`~ricochet_math.storage.check_writable_folder`),
    checked when the command line is parsed."""
    from ricochet_math.storage import check_writable_folder  # only when the option is given (it loads numpy)

    try:
        check_writable_folder(text)
    except RicochetError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    except OSError as exc:  # a name the system refuses to look at (too long: ENAMETOOLONG)
        raise argparse.ArgumentTypeError(f"cannot use the path {quote(text)}: {exc.strerror or exc}") from None
    return text


def add_action(subs, name: str, help: str, example: str, description: str | None = None) -> argparse.ArgumentParser:
    """One action of a command with subcommands (``ricochet ring simulate``): its one-line ``help``, its
    ``description`` (default: the help) wrapped for the terminal, and its ``example`` shown after the
    options (tests/cli/test_cli_help.py parses every one)."""
    return subs.add_parser(name, help=help, description=textwrap.fill(description or help, 79),
                           epilog=f"example:\n  {example}", formatter_class=RangeHelpFormatter)


def add_format_option(parser: argparse.ArgumentParser) -> None:
    """``--format table|csv|json`` and ``--wide`` for :func:`print_frame`."""
    parser.add_argument("--format", choices=FORMATS, default="table",
                        help=f"output format: table (default; rounded for reading, percentages, at most "
                             f"{TABLE_WIDTH} columns wide), csv or json (every column at full precision, "
                             "rates as fractions, intervals as _low/_high columns)")
    parser.add_argument("--wide", action="store_true",
                        help=f"with --format table: one table however wide, instead of splitting it at "
                             f"{TABLE_WIDTH} columns")


def print_wrapped(text: str, file=None) -> None:
    """Print a library's summary text with each line wrapped at :data:`TABLE_WIDTH` (continuations indented)."""
    out = sys.stdout if file is None else file
    for line in text.splitlines() or [""]:
        indent = " " * (len(line) - len(line.lstrip()))
        out.write(textwrap.fill(line, TABLE_WIDTH, subsequent_indent=indent + "  ", break_long_words=False,
                                break_on_hyphens=False) + "\n" if line.strip() else "\n")


def load_rules_option(args: argparse.Namespace) -> RuleSet:
    """The :class:`~ricochet_math.rules.ruleset.RuleSet` named by ``--rules`` (default publisher)."""
    from ricochet_math.rules.ruleset import load_rules

    return load_rules(getattr(args, "rules", None))


def print_frame(frame: pd.DataFrame, fmt: str = "table", file=None, *, formats: Mapping[str, object] | None = None,
                keys: int = 1, wide: bool = False) -> None:
    """Print a ``pandas.DataFrame`` as a readable table, CSV or JSON records.

    The table reads each column through the column schema
    (:mod:`ricochet_math.reports.columns`) and ``formats`` where a command refines it (see
    :mod:`ricochet_math.reports.tables`), split into tables of at most
    :data:`TABLE_WIDTH` characters led by the first ``keys`` columns unless
    ``wide``; a footnote explains ``±`` where one is shown.  CSV and JSON write
    the frame as it is, at full precision.
    """
    from ricochet_math.reports.columns import text_formats
    from ricochet_math.reports.tables import INTERVAL_NOTE, has_interval, text_table

    out = sys.stdout if file is None else file
    if fmt == "table":
        # the one column schema reads every column; a command's own formats refine a few of them
        formats = {**text_formats(frame), **(formats or {})}
        out.write(text_table(frame, formats, keys=keys, width=TABLE_WIDTH, wide=wide) + "\n")
        if has_interval(frame, formats):
            out.write(INTERVAL_NOTE + "\n")
    elif fmt == "csv":
        from ricochet_math.storage import exact_seed_columns  # lazy: storage loads numpy

        out.write(exact_seed_columns(frame).to_csv(index=False))
    elif fmt == "json":
        import json

        from ricochet_math.storage import frame_records  # lazy: storage loads numpy
        # full precision and exact integers (a 64-bit seed), not to_json's 10 significant digits
        out.write(json.dumps(frame_records(frame), indent=2, ensure_ascii=False) + "\n")
    else:
        raise ValueError(f"unknown format {quote(fmt)}; choose one of {', '.join(FORMATS)}")


# --------------------------------------------------------------------------
# The parser and main
# --------------------------------------------------------------------------

class _Parser(argparse.ArgumentParser):
    """Usage errors as one line, like every other user error; the help shows each numeric option's range."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", RangeHelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str):  # noqa: D401 - argparse API
        raise SystemExit(_report(f"{message} (see '{self.prog} --help')"))


#: the longest error line :func:`_report` prints, and the longest word in it (a message quotes values through
#: errors.quote; this is the backstop for one that does not, such as argparse's "invalid choice:
#: '<100,000 characters>'"; a word as long as a deep path is left whole)
MAX_ERROR_LINE, MAX_ERROR_WORD = 1000, 300


def _capped(text: str) -> str:
    """``text`` with every word longer than :data:`MAX_ERROR_WORD` cut as :func:`~ricochet_math.errors.shorten`
    cuts it, and the whole to about :data:`MAX_ERROR_LINE` characters."""
    line = " ".join(w if len(w) <= MAX_ERROR_WORD else shorten(w) for w in text.split())
    return line if len(line) <= MAX_ERROR_LINE else shorten(line, MAX_ERROR_LINE - 30)


def _report(message: object, status: int = 2) -> int:
    """Print ``ricochet: error: MESSAGE`` as one line of at most about :data:`MAX_ERROR_LINE` characters on
    stderr; return ``status``."""
    one_line = _capped(str(message)) or type(message).__name__
    sys.stderr.write(f"{PROG}: error: {one_line}\n")
    return status


def build_parser() -> argparse.ArgumentParser:
    """The full ``ricochet`` parser with every registered subcommand."""
    commands = registry()
    parser = _Parser(
        prog=PROG,
        description="Mathematics of the casino table game Ricochet Poker.",
        epilog="Run 'ricochet COMMAND --help' for a command's options and an example.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subs = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in sorted(commands):
        cmd = commands[name]
        sub = subs.add_parser(
            name, help=cmd.help, description=textwrap.fill(cmd.help, 79),  # raw: wrapped here for a terminal
            epilog=f"example:\n  {cmd.example}",
            formatter_class=RangeHelpFormatter,
        )
        cmd.arguments(sub)
        sub.set_defaults(_run=cmd.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``ricochet`` and ``python -m ricochet_math``; returns the exit status."""
    _tolerant_streams()
    if environment.PROBLEMS:
        return _report(environment.PROBLEMS[0])
    try:
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # a usage error, already one line on stderr: its status (--help: exits)
            if exc.code in (0, None):
                raise
            return int(exc.code)
        if getattr(args, "_run", None) is None:
            parser.print_help(sys.stderr)
            return 2
        status = int(args._run(args) or 0)
        sys.stdout.flush()  # a full disk or /dev/full shows here, not in the interpreter's exit
        return status
    except (RicochetError, FileNotFoundError) as exc:
        return _report(exc)
    except KeyboardInterrupt:
        status = _report("interrupted", 130)
        if argv is not None:  # called from Python (a test, a notebook): return, never end its process
            return status
        # As the program, leave now: threads still finishing a chunk of numba work (abandoned, their results unused)
        # would otherwise hold the interpreter's exit for up to a chunk's time (measured: 25 s).
        # Everything the toolkit writes is renamed into place whole or removed on the way out here.
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        os._exit(130)
    except BrokenPipeError:
        # The reader went away (``ricochet rules | head``): not an error.
        _silence_stdout()
        sys.stderr.close()
        return 0
    except OSError as exc:
        if exc.errno not in (errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EROFS, errno.EBADF):
            raise
        _silence_stdout()
        return _report(f"cannot write the output: {exc.strerror or exc}")


def _tolerant_streams() -> None:
    """Characters the terminal's encoding lacks (``PYTHONIOENCODING=ascii``: the ± and the rule lines of
    the tables) are written as escapes instead of ending the run in a UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError, OSError):  # a stream replaced by the caller, or closed
            pass


def _silence_stdout() -> None:
    """Point stdout at the null device, so the interpreter's final flush of what could not be written
    raises nothing more."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


# --------------------------------------------------------------------------
# Subcommands
# --------------------------------------------------------------------------

def _rules_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", default=None, metavar="FILE",
                        help="rule-set TOML file or shipped name (default: publisher)")
    parser.add_argument("--list", action="store_true", help="list the shipped rule sets and exit")
    parser.add_argument("--toml", action="store_true",
                        help="print the resolved rule set as standalone TOML instead of a table")
    add_format_option(parser)


@subcommand(
    "rules",
    help="show a rule set: kickout table, bonus and side-bet paytables, options",
    example="ricochet rules publisher-4p-tens --format csv",
    arguments=_rules_arguments,
)
def _rules(args: argparse.Namespace) -> int:
    import pandas as pd

    from ricochet_math.rules.files import paytables_dir, shipped_rule_sets
    from ricochet_math.rules.ruleset import load_rules

    if args.list:
        if args.file is not None:  # not silently ignored
            raise RicochetError(f"--list shows the shipped rule sets and takes no FILE, got {quote(args.file)}")
        frame = pd.DataFrame(
            [(name, load_rules(name).description) for name in shipped_rule_sets()],
            columns=["name", "description"],
        )
        print_frame(frame, args.format, wide=args.wide)
        print(f"(in {paytables_dir()})", file=sys.stderr)
        return 0
    rules = load_rules(args.file)
    if args.toml:
        sys.stdout.write(rules.to_toml())
        return 0
    frame = rules.to_frame(describe=True)
    if args.format == "table":
        print_wrapped(f"rule set {rules.name}: {rules.description}")
        print(f"source: {rules.source} (sha256 {rules.sha256[:12]})\n")
        frame = frame[frame.section != "rule set"]
    print_frame(frame, args.format, wide=args.wide)
    return 0


def _hands_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hands", nargs="+", metavar="HAND",
                        help='5 to 7 cards, space-separated and quoted: "As Ks Qs Js Ts" (the best five count)')
    add_format_option(parser)


@subcommand(
    "hands",
    help="evaluate and describe 5- to 7-card hands",
    example='ricochet hands "As Ks Qs Js Ts" "Td Tc 2h 2s 3d" "Ah 8c 8d 8h 2s 2c 3d"',
    arguments=_hands_arguments,
)
def _hands(args: argparse.Namespace) -> int:
    import pandas as pd

    from ricochet_math.evaluator.cards import format_cards, parse_cards
    from ricochet_math.evaluator.evaluation import hand_value
    from ricochet_math.evaluator.names import category_name, describe
    from ricochet_math.reports.tables import Text

    rows = []
    for i, text in enumerate(args.hands, start=1):
        cards = parse_cards(text, count=(5, 6, 7), where=f"hand {i}")
        value = int(hand_value(cards))
        rows.append((format_cards(cards), value, category_name(value), describe(value)))
    print_frame(pd.DataFrame(rows, columns=["hand", "value", "category", "description"]), args.format,
                formats={"value": Text()}, wide=args.wide)
    return 0
