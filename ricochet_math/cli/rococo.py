"""``ricochet rococo draw|simulate|play``: Rococo Poker's draw solver, policy simulations and a hand history."""
from __future__ import annotations

import argparse

from ricochet_math.cli.app import number, whole
from ricochet_math.cli.app import (
    add_progress_option, add_workers_option, strategy_words, warn_deprecated_list,
    add_action, add_format_option, add_seed_option, print_frame, print_wrapped, subcommand, writable_folder,
)
from ricochet_math.arguments import split_items
from ricochet_math.errors import RicochetError, quote

# The game loads in the handlers: building the parser stays light (issue 26).


def _seated(args: argparse.Namespace) -> list[str]:
    """The betting policies, one per seat, from ``--strategy A B`` (every game's spelling: one a word) or the
    older ``--policies A,B`` (kept for one release, with a warning on stderr); repeated or cut to
    ``--players`` when it is given."""
    n = args.players
    if args.policies is not None:
        if args.strategy is not None:
            raise RicochetError("give --strategy A B (one policy a word) or the older --policies A,B, not both")
        pols = list(args.policies)
        warn_deprecated_list("--policies A,B", pols)
    elif args.strategy is not None:
        pols = strategy_words(args.strategy)
        if not (2 if n is None else 1) <= len(pols) <= 6:
            raise RicochetError(f"--strategy: give 2 to 6 policies, one a word (or one for every seat with "
                                f"--players), got {len(pols)}")
    else:
        pols = list(args.default_policies)
    if n is None:
        return pols
    if not 2 <= n <= 6:
        raise RicochetError(f"--players must be 2..6, got {n}")
    return (pols * n)[:n]


def _policies(text: str) -> list[str]:
    try:
        names = split_items(text, "the policies")
    except RicochetError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if not 2 <= len(names) <= 6:
        raise argparse.ArgumentTypeError(f"give 2 to 6 comma-separated policies, got {quote(text)}")
    return names


def _policy_options(parser: argparse.ArgumentParser, default: list[str]) -> None:
    """``--strategy`` (the seats' betting policies, as every game spells its strategies) and the deprecated
    ``--policies A,B``."""
    parser.add_argument("--strategy", nargs="+", default=None, metavar="POLICY",
                        help=f"the betting policy of each seat, or one for every seat with --players: passive, "
                             f"tight, standard, loose, blinder, naive (default {' '.join(default)})")
    parser.add_argument("--policies", type=_policies, default=None, metavar="P1,P2,...",
                        help="deprecated (goes in the next release): the policies separated by ','; write "
                             "--strategy P1 P2 instead")
    parser.set_defaults(default_policies=default)


def _raise_sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(sorted({int(t) for t in text.split(",") if t.strip()}))
    except ValueError:
        sizes = ()
    if not sizes or min(sizes) < 1 or max(sizes) > 1000:
        raise argparse.ArgumentTypeError(f"give comma-separated whole raise sizes 1..1000, got {text!r}")
    return sizes


def _tree_raises(text: str):
    """``"all"`` (every size from the table's smallest to its largest bet) or comma-separated sizes."""
    return "all" if text.strip() == "all" else _raise_sizes(text)


def _blind_raises(text: str):
    """``"all"`` (every size) or comma-separated sizes."""
    return "all" if text.strip() == "all" else _raise_sizes(text)


#: one example per action, shown in its --help (tests parse each)
EXAMPLES = {
    "draw": 'ricochet rococo draw "Kh Kd 7c 4s 2h" --opponents 2',
    "simulate": "ricochet rococo simulate --strategy standard loose --pots 100000 --seed 2026",
    "report": "ricochet rococo report --size tiny --out reports/rococo-tiny",
    "play": "ricochet rococo play --strategy blinder loose --seed 7",
    "equilibrium": "ricochet rococo equilibrium --abstraction tiny --iterations 1000 --every 100 --out eq-tiny",
}
#: copies of the library's choices (the parser stays light; tests check they agree):
#: betting_game.ABSTRACTIONS and equilibrium.solving.MAX_ITERATIONS
ABSTRACTION_NAMES = ("tiny", "small", "default")
#: translation.TRANSLATIONS
TRANSLATION_NAMES = ("nearest", "pseudo-harmonic")
#: equilibrium.SOLVER_NAMES
SOLVER_NAMES = ("tree", "ranges")
#: range_equilibrium.RANGE_SCHEDULES
SCHEDULE_NAMES = ("cfr+", "dcfr")
MAX_ITERATIONS = 10 ** 9


def _arguments(parser: argparse.ArgumentParser) -> None:
    subs = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))

    def action(name: str, help: str) -> argparse.ArgumentParser:
        return add_action(subs, name, help, EXAMPLES[name])

    d = action("draw", help="the 26 keeps of a hand: pot share against N optimal drawers, "
                                     "final-hand odds; or --table: the strategy table")
    d.add_argument("hand", nargs="?", default=None, help='five cards, quoted: "Kh Kd 7c 4s 2h"')
    d.add_argument("--opponents", type=whole(1, 5), default=1, choices=range(1, 6), metavar="N",
                   help="opponents who also draw optimally (1..5, default 1)")
    d.add_argument("--table", action="store_true",
                   help="the strategy table for N = 1..5 instead: by dealt category and best keep (table), or "
                        "every suit-pattern class with its best keep and pot share (csv, json)")
    d.add_argument("--iterations", action="store_true", help="also print the fixed point's steps")
    d.add_argument("--final-hands", action="store_true",
                   help="also print each keep's chance of every final category (a second table; --format "
                        "csv or json always gives them)")
    add_progress_option(d)
    add_format_option(d)
    s = action("simulate", help="play policies against each other (pots; net per pot in antes)")
    s.add_argument("--players", type=whole(2, 6), default=None, metavar="N",
                   help="players (2..6): the policies repeated or cut to N (default: as many as given)")
    _policy_options(s, ["standard", "standard"])
    s.add_argument("--pots", type=whole(1, 10**10), default=100_000, help="pots to play (default 100,000)")
    s.add_argument("--blind-value", action="store_true",
                   help="the value of the blind option to seat 1 against the other seats' policy")
    s.add_argument("--best-response", action="store_true",
                   help="search threshold policies for seat 1 against the other seats' policy")
    add_progress_option(s)
    add_seed_option(s)
    add_format_option(s)
    r = action("report", help="write the short report (report.html, report.xlsx, report.pdf and one CSV per table) into a folder")
    r.add_argument("--out", type=writable_folder, required=True, metavar="DIR",
                   help="the report folder (created; replaced only if the toolkit wrote it)")
    r.add_argument("--size", choices=("tiny", "small", "full"), default="small",
                   help="tiny (seconds), small (default, minutes) or full")
    r.add_argument("--reproducible", action="store_true", help="leave the build date and run times out")
    add_seed_option(r, default=2026)
    add_progress_option(r)
    p = action("play", help="play one pot and print its hand history")
    p.add_argument("--players", type=whole(2, 6), default=None, metavar="N",
                   help="players (2..6): the policies repeated or cut to N (default: as many as given)")
    _policy_options(p, ["standard", "loose"])
    add_seed_option(p)
    e = action("equilibrium", help="heads-up equilibrium of the betting round (CFR+ on an abstraction), its "
                                   "exploitability and the named policies against it")
    e.add_argument("--abstraction", choices=ABSTRACTION_NAMES, default="tiny",
                   help="card and raise-size abstraction: tiny (the policies' thresholds), small (3 slices), "
                        "default (8 slices); raises 1, 3, 10 (default tiny)")
    e.add_argument("--iterations", type=whole(1, MAX_ITERATIONS), default=1000, metavar="N",
                   help="CFR+ iterations at each level of the carried-pot recursion (default 1,000)")
    e.add_argument("--every", type=whole(1, MAX_ITERATIONS), default=None, metavar="K",
                   help="measure each level's exploitability every K iterations (default: at the end)")
    e.add_argument("--raise-sizes", type=_tree_raises, default=None, metavar="A,B,...",
                   help="the abstract tree's raise sizes instead of the abstraction's 1,3,10 (each 1..1000, within "
                        "the table's bets; all: every size, no action abstraction)")
    e.add_argument("--solver", choices=SOLVER_NAMES, default="tree",
                   help="tree: the layer's CFR+ over the laid-out tree (default); ranges: CFR+ range against range "
                        "over the betting histories (no tree: every raise size fits at default; with --blind each state "
                        "range against range too; no --checkpoint)")
    e.add_argument("--schedule", choices=SCHEDULE_NAMES, default="cfr+",
                   help="with --solver ranges: the regret schedule, CFR+ (default) or Discounted CFR (1.5, 0, 2)")
    e.add_argument("--full-betting", action="store_true",
                   help="also measure the exploitability with every raise size 1..10 (a tree about 28 times larger)")
    e.add_argument("--full-betting-ranges", action="store_true",
                   help="measure the exploitability with every raise size range against range over the betting "
                        "histories instead of in the larger tree (the same figures, far less memory: the way at "
                        "default)")
    e.add_argument("--translation", choices=TRANSLATION_NAMES, default="nearest",
                   help="how the abstract strategy reads an off-tree raise in --full-betting-ranges: the nearest "
                        "size, or Ganzfried and Sandholm's randomised pseudo-harmonic mapping (default nearest)")
    e.add_argument("--exact-cards", action="store_true",
                   help="also measure with best responses that know their exact final value (the card abstraction's "
                        "cost; with --full-betting also with every raise size: minutes)")
    e.add_argument("--blind", type=_raise_sizes, default=None, metavar="A,B,...",
                   help="add the blind decision: the first player may blind these sizes before looking (e.g. 1,3,10); "
                        "the levels become states (carried chips, level) and the blind option's value is measured "
                        "against the game without it")
    e.add_argument("--blind-raises", type=_blind_raises, default=None, metavar="A,B,...",
                   help="with --blind: the second player's raise sizes in the blind round (default 1,3,10; all: every "
                        "size)")
    e.add_argument("--carry-points", type=whole(2, 10 ** 6), default=None, metavar="N",
                   help="with --blind: solve N carried amounts per level and interpolate the carry's value between "
                        "them (default: every reachable amount, exact)")
    e.add_argument("--every-blind-size", action="store_true",
                   help="with --blind and --solver ranges: also measure the exploitability when a best response may "
                        "blind and raise the blind any size 1..10 (a size the blind round lacks read as the nearest)")
    e.add_argument("--carry-limit", type=whole(0, 1000), default=None, metavar="N",
                   help="all-check games carried before a showdown (the rules' reading, default 10)")
    e.add_argument("--max-bet", type=whole(1, 1000), default=None, metavar="N", help="largest raise (default 10)")
    e.add_argument("--max-raises", type=whole(0, 100), default=None, metavar="N",
                   help="raises a betting round (default 3)")
    e.add_argument("--checkpoint", type=writable_folder, default=None, metavar="DIR",
                   help="keep one checkpoint per level there (every K iterations and at each level's end); a killed "
                        "run given the same DIR and --iterations resumes with the same digits")
    e.add_argument("--out", type=writable_folder, default=None, metavar="DIR",
                   help="write strategy.csv, curves.csv, levels.csv, policies.csv and summary.txt there (created; "
                        "replaced only if the toolkit wrote it)")
    add_progress_option(e)
    add_format_option(e)


@subcommand("rococo", help="Rococo Poker: draw solver (draw), policy simulations (simulate), a hand history (play), "
                           "report, heads-up equilibrium (equilibrium)",
            example='ricochet rococo draw "Kh Kd 7c 4s 2h" --opponents 2', arguments=_arguments)
def _rococo(args: argparse.Namespace) -> int:
    return {"draw": _draw, "simulate": _simulate, "play": _play, "report": _report,
            "equilibrium": _equilibrium}[args.action](args)


def _draw(args: argparse.Namespace) -> int:
    from ricochet_math.progress import status

    with status("rococo draw: loading numba and the hand tables", args.progress):
        from ricochet_math.games.rococo.draw import draw_distribution
        from ricochet_math.games.rococo.solver import solve_draws
        from ricochet_math.games.rococo.strategy import strategy_table
        from ricochet_math.reports.tables import Percent, Text

    solving = ("rococo draw: the draw fixed point over all 2,598,960 hands against {} optimal drawer(s) "
               "(a minute on the first run, then cached)")
    if args.table:
        with status(solving.format("1..5"), args.progress):
            table = strategy_table()
        if args.format != "table":  # every class and number of opponents, full precision
            print_frame(table.to_frame(), args.format)
            return 0
        frame = table.by_shape()
        print_frame(frame, "table", formats={c: Percent(3) for c in frame.columns[2:]}, keys=2, wide=args.wide)
        print()
        print_frame(table.versus_naive(), "table", formats={"hands_differ": Percent(2), "optimal_share": Percent(3),
                                                       "naive_share": Percent(3), "gain": Percent(3)})
        return 0
    if args.hand is None:
        raise RicochetError("rococo draw: give a hand (five cards, quoted) or --table")
    dist = draw_distribution(args.hand)
    with status(solving.format(args.opponents), args.progress):
        sol = solve_draws(args.opponents)
    shares = sol.keep_shares(dist.hand)
    frame = dist.to_frame()
    frame.insert(2, "pot_share", shares)
    frame = frame.sort_values("pot_share", ascending=False, kind="stable").reset_index(drop=True)
    if args.format != "table":  # every column, full precision
        print_frame(frame, args.format)
        return 0
    print_wrapped(f"{dist.summary()}; pot share against {args.opponents} opponent(s) drawing optimally "
                  f"(independence model, ties split)")
    if args.iterations:
        print_frame(sol.iterations, "table")
    # one table of the 26 keeps: the categories (a table too wide for one screen) only when asked for
    print_frame(frame[["keep", "pot_share"]], formats={"keep": Text(), "pot_share": Percent(2, title="pot share %")},
                wide=args.wide)
    if args.final_hands:
        print()
        odds = frame.drop(columns=["draw", "draws", "pot_share"])
        print_frame(odds, formats={c: Percent(2) for c in odds.columns if c != "keep"} | {"keep": Text()},
                    wide=args.wide)
    else:
        print("--final-hands adds each keep's chance of every final category; --format csv or json gives "
              "every figure.")
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from ricochet_math.progress import status

    pols = _seated(args)
    with status("rococo simulate: loading numba and the game's kernels", args.progress):
        from ricochet_math.games.rococo.analysis import best_response, blind_value, simulate
        from ricochet_math.random_streams import resolve_seed
        from ricochet_math.reports.tables import Percent

    args.seed = resolve_seed(args.seed)  # printed in each table's first line
    if args.blind_value or args.best_response:
        flag = "--blind-value" if args.blind_value else "--best-response"
        if args.blind_value and args.best_response:
            raise RicochetError("give --blind-value or --best-response, not both")
        if len(set(pols[1:])) > 1:  # seat 0's policy against one policy for every other seat
            raise RicochetError(f"{flag} compares seat 0 with one policy for the other seats: give "
                                f"--strategy {pols[0]} {pols[1]} {pols[1]}... (got {' '.join(pols)})")
    if args.blind_value:
        res = blind_value(pols[0], pols[1], players=len(pols), pots=args.pots, seed=args.seed)
        if args.format == "table":
            print_wrapped(res.summary())
        print_frame(res.to_frame(), args.format, wide=args.wide)
        return 0
    if args.best_response:
        res = best_response(pols[1], players=len(pols), pots=args.pots, seed=args.seed)
        if args.format == "table":
            print_wrapped(res.summary())
        print_frame(res.to_frame(), args.format, wide=args.wide)
        return 0
    res = simulate(None, pols, args.pots, args.seed, progress=args.progress)
    if args.format == "table":
        print_wrapped(res.describe().splitlines()[0])
    print_frame(res.to_frame(), args.format, wide=args.wide)
    if args.format == "table":
        print()
        print_frame(res.rates(), "table", formats={"value": Percent(2)})
    return 0


def _report(args: argparse.Namespace) -> int:
    from ricochet_math.games.rococo.report import build_report

    print_wrapped(build_report(args.out, size=args.size, seed=args.seed, reproducible=args.reproducible,
                               progress=args.progress).summary())
    return 0


def _play(args: argparse.Namespace) -> int:
    from ricochet_math.games.rococo.play import play_pot
    from ricochet_math.random_streams import resolve_seed

    seed = resolve_seed(args.seed)
    print(play_pot(_seated(args), seed).text())
    print(f"(seed {seed})")
    return 0


def _equilibrium(args: argparse.Namespace) -> int:
    import shlex
    import sys
    from dataclasses import replace

    from ricochet_math.games.rococo.betting_game import ABSTRACTIONS
    from ricochet_math.games.rococo.equilibrium import levels_frame, solve_equilibrium, write_equilibrium
    from ricochet_math.games.rococo.rules import RococoRules
    from ricochet_math.reports.tables import Number, Percent
    from ricochet_math.storage import prepare_output_folder

    for flag, value in (("--blind-raises", args.blind_raises), ("--carry-points", args.carry_points),
                        ("--every-blind-size", args.every_blind_size or None)):
        if value is not None and args.blind is None:
            raise RicochetError(f"{flag} needs --blind")
    if args.every_blind_size and args.solver != "ranges":
        raise RicochetError("--every-blind-size is for --solver ranges (the tree solver's blind game is measured in "
                            "its own blind sizes)")
    if args.blind is not None and args.full_betting_ranges:  # refused before the solve, not after it
        raise RicochetError("the exploitability with every raise size is not measured yet for the blind game "
                            "(leave out --full-betting-ranges with --blind)")
    if args.full_betting and args.full_betting_ranges:
        raise RicochetError("give --full-betting or --full-betting-ranges, not both (the same measurement)")
    ranges = args.solver == "ranges"
    if args.schedule != "cfr+" and not ranges:
        raise RicochetError("--schedule is for --solver ranges (the tree solver runs CFR+)")
    if ranges and args.checkpoint is not None:
        raise RicochetError("--checkpoint is for --solver tree (the range solver keeps no checkpoints: a level "
                            "takes seconds to minutes)")
    if args.translation != "nearest" and not (args.full_betting_ranges or (ranges and args.full_betting)):
        raise RicochetError(f"--translation {args.translation} needs --full-betting-ranges (--full-betting reads "
                            "an off-tree raise as the nearest size)")
    if args.out is not None:  # refused before the solve, not after it
        prepare_output_folder(args.out, "rococo-equilibrium")
    changes = {k: v for k, v in (("carry_limit", args.carry_limit), ("max_bet", args.max_bet),
                                 ("max_raises", args.max_raises)) if v is not None}
    rules = replace(RococoRules(), **changes)
    spec = ABSTRACTIONS[args.abstraction]
    if args.raise_sizes == "all":
        spec = replace(spec, name=f"{spec.name}(raises=all)", raise_sizes=None)
    elif args.raise_sizes is not None:
        spec = replace(spec, name=f"{spec.name}(raises={','.join(map(str, args.raise_sizes))})",
                       raise_sizes=args.raise_sizes)
    blind = {}
    if args.blind is not None:
        raises = {None: (1, 3, 10), "all": None}.get(args.blind_raises, args.blind_raises)
        blind = {"blind": args.blind, "carry_points": args.carry_points, "blind_raises": raises}
        if args.every_blind_size:
            blind["every_blind_size"] = True
    if ranges:  # no tree: the measurement with every raise size is range against range either way
        from ricochet_math.games.rococo.translation import translation

        blind["translation"] = translation(args.translation)
    res = solve_equilibrium(spec, args.iterations, rules=rules, every=args.every,
                            full_betting=args.full_betting or (ranges and args.full_betting_ranges),
                            progress=args.progress, checkpoint=args.checkpoint,
                            exact_cards=args.exact_cards, solver=args.solver, schedule=args.schedule, **blind)
    if args.full_betting_ranges and not ranges:
        from ricochet_math.games.rococo.every_raise_size import measure_every_raise_size
        from ricochet_math.games.rococo.translation import translation

        res = measure_every_raise_size(res, exact_cards=args.exact_cards, translation=translation(args.translation))
    if args.out is not None:
        write_equilibrium(res, args.out, "ricochet " + shlex.join(sys.argv[1:]))
    if args.format == "table":
        print_wrapped(res.summary())
        print()
        print_frame(levels_frame(res), "table", formats={"level": Number(0), "carried": Number(0),
                                                         "first_player_value": Number(6),
                                                         "carry_probability": Percent(2)}, wide=args.wide)
        print()
    drop = [c for c, on in (("exploitability_full", args.full_betting or args.full_betting_ranges),
                            ("exploitability_every_blind_size", args.every_blind_size),
                            ("exploitability_exact_cards", args.exact_cards)) if not on]
    policies = res.policies.drop(columns=drop, errors="ignore")
    small = {c: Number(6) for c in policies.columns if c != "policy"}
    print_frame(policies, args.format, formats=small if args.format == "table" else None, wide=args.wide)
    if res.blind is not None and args.format == "table":
        print()
        print_frame(res.blind.decision, "table", formats={"probability": Percent(2), "best_value_if_chosen": Number(6)},
                    wide=args.wide)
        print()
        frame = res.blind.response
        print_frame(frame, "table", formats={c: Percent(2) for c in frame.columns
                                             if c not in ("blind", "dealt_bucket", "dealt_from")}, wide=args.wide)
    return 0


__all__: list[str] = []
