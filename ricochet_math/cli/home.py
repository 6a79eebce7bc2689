"""``ricochet home simulate|play|solve|report``: the home game and Ricochet Poker II (thin shells).

``simulate`` runs :func:`ricochet_math.games.home.analysis.simulate` (the numba kernel;
the readable engine for the optimal strategy), ``play`` deals one game on the readable
engine and prints its hand history, ``report`` writes the fairness report, ``solve`` asks the expectimax at a face-up position (the compiled exact solver
of :mod:`ricochet_math.games.home.exact` when two hands are live, the readable one otherwise).
"""
from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from ricochet_math.cli.app import number, whole
from ricochet_math.cli.app import (
    add_progress_option, add_workers_option,
    add_action,
    add_format_option,
    add_seed_option,
    print_frame,
    print_wrapped,
    subcommand,
    writable_folder,
)
from ricochet_math.errors import RicochetError

if TYPE_CHECKING:
    from ricochet_math.games.home.rules import HomeRules

# The game loads in the handlers: building the parser stays light (issue 26).  The parser's choices and
# defaults below are the game's own, copied because importing them loads numba (tests/cli/test_cli_startup.py
# checks each copy agrees): games.home.rules.VARIANTS and STUCK_RULES, games.home.solver.DEFAULT_BUDGET.
VARIANTS = ("home", "ricochet2")
STUCK_RULES = ("out", "showdown")
DEFAULT_BUDGET = 200_000
DEFAULT_SEED = 2026
TABLES = ("order", "seat", "start", "summary")
SOLVERS = ("auto", "exact", "readable")
#: the home report's sizes (games.home.report.HOME_SIZES, not imported here: it loads the report machinery)
REPORT_SIZES = ("tiny", "small", "full")
#: the exact solver's default most positions (a 2**24-slot table, 0.9 GB at limit 5)
EXACT_BUDGET = 12_000_000

_EXAMPLES = {
    "simulate": "ricochet home simulate --players 4 --games 20000 --seed 1 --table order",
    "play": 'ricochet home play --players 4 --start Kd Jc 8h 7s --then "2h 9c 2d 9h Qd 5h 8d 8s" --seed 3',
    "solve": 'ricochet home solve --players 2 --hands "Kd 5h 8d 8s" "2h 2d 9c 7s" --pot 15',
    "report": "ricochet home report --size tiny --out reports/home-tiny",
}


def _rules_options(parser, players_default: int = 4) -> None:
    parser.add_argument("--players", type=whole(2, 8), default=players_default, metavar="N",
                        help=f"players 2..8 (default {players_default})")
    parser.add_argument("--variant", choices=VARIANTS, default="home",
                        help="home (default) or ricochet2 (Ricochet Poker II: 1 card, limit 5, no jokers)")
    parser.add_argument("--start-cards", type=whole(1, 2), default=1, choices=(1, 2), help="starting cards (default 1)")
    parser.add_argument("--limit", type=whole(5, 7), default=5, choices=(5, 6, 7), help="hand limit (default 5)")
    parser.add_argument("--stuck", choices=STUCK_RULES, default="out",
                        help="a lowest hand that cannot receive a card: out (default) or showdown")
    parser.add_argument("--tie-ends", action="store_true",
                        help="end the game as soon as every hand left is identical in rank")
    parser.add_argument("--jokers", action="store_true", help="two jokers in the deck, used as bugs (home game only)")


def _rules(args) -> HomeRules:
    from ricochet_math.games.home.rules import HomeRules

    return HomeRules(players=args.players, start_cards=args.start_cards, hand_limit=args.limit, jokers=args.jokers,
                     variant=args.variant, stuck=args.stuck, tie_ends=args.tie_ends)


def _strategy_option(parser, default: str) -> None:
    parser.add_argument("--strategy", nargs="+", default=[default], metavar="NAME",
                        help=f"one strategy for every seat or one per seat (default {default}): one, limit, "
                             "min-lift, pot-odds[:THETA], optimal[:ROOM] (optimal: readable engine, slow)")


def _arguments(parser: argparse.ArgumentParser) -> None:
    subs = parser.add_subparsers(dest="home_command", metavar="ACTION", required=True)

    def action(name: str, help: str, description: str) -> argparse.ArgumentParser:
        return add_action(subs, name, help, _EXAMPLES[name], description)

    sim = action("simulate", "win rate and EV by order of play, seat or starting card",
                "Monte Carlo run of home games on the numba kernel (the readable engine for the optimal strategy): "
                "win rate and EV (chips per game, 95% intervals) by order of play, seat (from 1) or starting card, "
                "with the Wald tests of equal EV.")
    _rules_options(sim)
    _strategy_option(sim, "pot-odds")
    sim.add_argument("--games", type=whole(1, 10**10), default=100_000, help="games to simulate (default 100,000)")
    sim.add_argument("--table", choices=TABLES, default="order",
                     help="order (of play, default), seat, start (starting card) or summary (with the tests)")
    add_workers_option(sim)
    add_progress_option(sim)
    add_seed_option(sim)
    add_format_option(sim)
    sim.set_defaults(_home=_simulate)

    play = action("play", "deal and play one game, printed as a hand history",
                 "Deal one game (chosen starting cards and next cards, the rest from the seed) and play it on the "
                 "readable engine, printed as a hand history.")
    _rules_options(play)
    _strategy_option(play, "min-lift")
    play.add_argument("--start", nargs="+", default=None, metavar="CARDS",
                      help='each seat\'s starting card(s) in seat order ("?" for random)')
    play.add_argument("--then", default=None, metavar="CARDS", help="the next cards the dealer gives, in order")
    add_seed_option(play, help="seed for the other cards (default: fresh entropy, printed)")
    add_format_option(play)
    play.set_defaults(_home=_play)

    sol = action("solve", "expectimax at a face-up position: the value of each action",
                "The expectimax at a face-up position: the EV of each action for the hand to act (the compiled exact "
                "solver when two hands are live).")
    _rules_options(sol, players_default=2)
    sol.add_argument("--hands", nargs="+", required=True, metavar="CARDS",
                     help='each seat\'s hand in seat order ("-" for a seat that is out)')
    sol.add_argument("--pot", type=whole(0, 10**6), required=True, help="chips in the pot")
    sol.add_argument("--dead", default=None, metavar="CARDS", help="face-up discards of folded or beaten hands")
    sol.add_argument("--depth", type=whole(1, 100), default=None, help="cut after this many decisions (default: exact)")
    sol.add_argument("--budget", type=whole(1, 10**9), default=None,
                     help=f"the most positions to visit (default {DEFAULT_BUDGET:,} for the readable solver, "
                          f"{EXACT_BUDGET:,} for the exact one: a minute or two)")
    sol.add_argument("--solver", choices=SOLVERS, default="auto",
                     help="auto (default: the compiled exact solver when two hands are live and no --depth, "
                          "else the readable one), exact (two live hands only) or readable")
    add_format_option(sol)
    sol.set_defaults(_home=_solve)

    rep = action("report", "the fairness report (HTML, CSV, workbook) into a folder",
                "Is every seat fair? EV by order of play and by seat for 2..8 players and four rule variations, "
                "against casino Ricochet by position, and the solver's shortcuts against the exact solver.")
    rep.add_argument("--out", type=writable_folder, required=True, metavar="DIR",
                     help="the report folder (replaced only if the toolkit wrote it)")
    rep.add_argument("--size", choices=tuple(REPORT_SIZES), default="small",
                     help="tiny (seconds), small (default) or full")
    add_workers_option(rep)
    add_progress_option(rep)
    add_seed_option(rep, default=DEFAULT_SEED, help=f"seed (default {DEFAULT_SEED})")
    rep.set_defaults(_home=_report)


@subcommand("home", help="the home game and Ricochet Poker II: simulate, play one game, solve a position, report",
            example=_EXAMPLES["simulate"], arguments=_arguments)
def _home(args) -> int:
    return args._home(args)


def _simulate(args) -> int:
    from ricochet_math.progress import status

    with status("home simulate: loading numba and the game's kernels", args.progress):
        import numpy as np
        import pandas as pd

        from ricochet_math.games.home.analysis import simulate, simulate_games
        from ricochet_math.solvers.stats import Estimate

    rules = _rules(args)
    names = args.strategy
    if any(n.startswith("optimal") for n in names):
        sim = simulate_games(rules, names, args.games, args.seed, workers=args.workers)
    else:
        sim = simulate(rules, names, args.games, args.seed, workers=args.workers, progress=args.progress)
    if args.table == "summary":
        s = sim.summary()  # every figure by name: an Estimate, or a plain value
        frame = pd.DataFrame([{"figure": k, "value": v.estimate if isinstance(v, Estimate) else v,
                               "low": v.low if isinstance(v, Estimate) else np.nan,
                               "high": v.high if isinstance(v, Estimate) else np.nan}
                              for k, v in s.items()])
        if args.format != "table":
            print_frame(frame, args.format)
        else:
            for k, v in s.items():
                print_wrapped(f"{k}: {v:.4g}" if isinstance(v, Estimate) else f"{k}: {v}")
        return 0
    frame = {"order": sim.by_order, "seat": sim.by_seat, "start": sim.by_start}[args.table]()
    if args.format == "table":
        frame = frame[[c for c in frame.columns if not c.endswith("_rate") or c == "win_rate"
                       or c == "fold_rate"]]
        print(f"{rules.name}, {', '.join(sorted(set(sim.strategies)))}: {sim.games:,} games, seed {sim.seed}; "
              "EV in chips per game")
    print_frame(frame, args.format, wide=args.wide)  # read through the column schema
    if args.format == "table":
        print(sim.seat_test().summary())
        print(sim.order_test().summary())
    return 0


def _play(args) -> int:
    from ricochet_math.evaluator.cards import format_cards
    from ricochet_math.games.home.deal import deal_deck
    from ricochet_math.games.home.engine import format_history, play_game
    from ricochet_math.games.home.strategies import parse_strategies
    from ricochet_math.random_streams import resolve_seed

    rules = _rules(args)
    seed = resolve_seed(args.seed)
    deck = deal_deck(rules, start=args.start, then=args.then, seed=seed)
    record = play_game(rules, parse_strategies(args.strategy, rules.players), deck=deck, rng_seed=seed)
    if args.format == "table":
        print(format_history(record))
        print(f"(seed {seed}; deck {format_cards(record.deck, jokers=True)})")
    elif args.format == "csv":
        print_frame(record.to_frame(), "csv")
    else:
        print(json.dumps({"rules": rules.name, "seed": seed, "pot": record.pot, "actions": record.actions,
                          "end": record.end, "log": [e.text for e in record.log],
                          "seats": record.to_frame().to_dict(orient="records")}, indent=2, ensure_ascii=False))
    return 0


def _report(args) -> int:
    from ricochet_math.games.home.report import build_report  # the report machinery only for this action

    result = build_report(args.out, args.size, args.seed, workers=args.workers, progress=args.progress)
    print_wrapped(result.summary())
    return 0


def _solve(args) -> int:
    from ricochet_math.games.home.exact import exact_applies, solve_exact
    from ricochet_math.games.home.solver import position, solve
    from ricochet_math.reports.tables import Number

    rules = _rules(args)
    hands = [None if h.strip() in ("-", "") else h for h in args.hands]
    pos = position(rules, hands, args.pot, dead=args.dead)
    use_exact = args.solver == "exact" or (args.solver == "auto" and args.depth is None
                                            and exact_applies(rules, pos))
    if use_exact and args.depth is not None:
        raise RicochetError("--depth cuts the readable solver's search: give --solver readable (or auto)")
    if use_exact:
        sol = solve_exact(rules, pos, max_positions=args.budget or EXACT_BUDGET)
    else:
        sol = solve(rules, pos, depth=args.depth, budget=args.budget or DEFAULT_BUDGET)
    if args.format == "table":
        print(sol.summary())
    print_frame(sol.to_frame(), args.format, formats={c: Number(4) for c in sol.to_frame().columns if "ev" in c},
                wide=args.wide)
    return 0
