"""``ricochet equilibrium solve|lp``: equilibria of the reference games (thin shells over
:mod:`ricochet_math.equilibrium`)."""
from __future__ import annotations

import argparse

from ricochet_math.cli.app import (
    add_action, add_format_option, add_progress_option, add_seed_option, print_frame, print_wrapped, subcommand,
    whole, writable_file,
)

# The layer loads in the handler: building the parser stays light (issue 26).  Copies of the library's
# choices (tests/cli/test_cli_startup.py checks they agree):
#: equilibrium.solve.GAME_NAMES, SOLVER_NAMES and MAX_ITERATIONS
GAME_NAMES = ("kuhn", "leduc")
SOLVER_NAMES = ("cfr+", "dcfr", "cfr", "mccfr")
MAX_ITERATIONS = 10 ** 9

EXAMPLES = {
    "solve": "ricochet equilibrium solve --game leduc --solver cfr+ --iterations 1000 --every 100",
    "lp": "ricochet equilibrium lp --game leduc",
}


def _arguments(parser: argparse.ArgumentParser) -> None:
    subs = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))
    sol = add_action(subs, "solve", "solve a reference game by CFR+, DCFR, CFR or external-sampling MCCFR",
                     EXAMPLES["solve"],
                     "Iterate a solver on Kuhn poker or Leduc hold'em and print the exploitability (NashConv, chips: "
                     "the sum of every player's best-response gain) of the average strategy every K iterations. "
                     "With --checkpoint FILE the state is kept there every K iterations and a run killed at any "
                     "moment resumes from it with the same digits.")
    sol.add_argument("--game", choices=GAME_NAMES, default="kuhn", help="the reference game (default kuhn)")
    sol.add_argument("--players", type=whole(2, 10), default=2, metavar="N", help="players (kuhn only; default 2)")
    sol.add_argument("--solver", choices=SOLVER_NAMES, default="cfr+",
                     help="cfr+ (OpenSpiel's schedule), dcfr (alpha 1.5, beta 0, gamma 2), cfr, or mccfr (external "
                          "sampling, seeded); default cfr+")
    sol.add_argument("--iterations", type=whole(1, MAX_ITERATIONS), default=1000, metavar="N",
                     help="iterations in all, counting those a resumed checkpoint holds (default 1,000)")
    sol.add_argument("--every", type=whole(1, MAX_ITERATIONS), default=None, metavar="K",
                     help="measure the exploitability and write the checkpoint every K iterations (default: at "
                          "the end only)")
    sol.add_argument("--checkpoint", type=writable_file, default=None, metavar="FILE",
                     help="resume from FILE if it exists (same game, solver and seed), and keep the state there")
    sol.add_argument("--out", type=writable_file, default=None, metavar="CSV",
                     help="write the average strategy (infoset, player, action, probability) to CSV")
    sol.add_argument("--curve", type=writable_file, default=None, metavar="CSV",
                     help="write the exploitability curve to CSV")
    add_seed_option(sol, help="random seed of mccfr (default: fresh entropy, printed with the results; a resumed "
                              "checkpoint's own)")
    add_progress_option(sol)
    add_format_option(sol)
    lp = add_action(subs, "lp", "the exact value of a two-player reference game (sequence-form LP)",
                    EXAMPLES["lp"],
                    "Solve the sequence-form linear program of Kuhn poker or Leduc hold'em (HiGHS): the game value "
                    "for player 0 in chips and the exploitability of the equilibrium it gives.")
    lp.add_argument("--game", choices=GAME_NAMES, default="kuhn", help="the reference game (default kuhn)")
    add_format_option(lp)


@subcommand("equilibrium", help="equilibria of Kuhn poker and Leduc hold'em: CFR+, DCFR, MCCFR, exploitability, LP",
            example=EXAMPLES["solve"], arguments=_arguments)
def _equilibrium(args: argparse.Namespace) -> int:
    from ricochet_math.equilibrium.best_response import exploitability
    from ricochet_math.equilibrium.sequence_lp import solve_sequence_form
    from ricochet_math.equilibrium.solving import reference_game, solve
    from ricochet_math.equilibrium.tree import build_tree
    from ricochet_math.storage import atomic_write_text

    if args.action == "lp":
        tree = build_tree(reference_game(args.game))
        sol = solve_sequence_form(tree)
        if args.format == "table":
            print_wrapped(sol.summary())
            print_wrapped(exploitability(tree, sol.profile).summary())
        else:
            print_frame(sol.to_frame(), args.format)
        return 0
    result = solve(reference_game(args.game, args.players), args.solver, args.iterations, args.seed,
                   every=args.every, checkpoint=args.checkpoint, progress=args.progress)
    if args.out is not None:
        atomic_write_text(args.out, result.to_frame().to_csv(index=False, float_format="%.17g"), "--out")
    if args.curve is not None:
        atomic_write_text(args.curve, result.curve_frame().to_csv(index=False, float_format="%.17g"), "--curve")
    if args.format == "table":
        print_wrapped(result.summary())
    from ricochet_math.reports.tables import Number

    small = {name: Number(9) for name in ("nash_conv", "openspiel_exploitability")}  # chips, down to 1e-9
    print_frame(result.curve_frame(), args.format, formats=small, wide=args.wide)
    return 0
