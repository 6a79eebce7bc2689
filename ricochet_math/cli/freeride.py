"""``ricochet freeride simulate|play|solve|report``: Free Ride Poker (thin shells over :mod:`ricochet_math.games.freeride`)."""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ricochet_math.cli.app import number, whole
from ricochet_math.cli.app import (
    add_progress_option, add_workers_option, strategy_words, warn_deprecated_list,
    add_action, add_format_option, add_seed_option, print_frame, print_wrapped, subcommand, writable_folder,
)
from ricochet_math.arguments import split_items
from ricochet_math.errors import RuleError, StrategyError

if TYPE_CHECKING:
    from ricochet_math.games.freeride.rules import FreeRideRules

# The game loads in the handler: building the parser stays light (issue 26).
#: who starts a round (games.freeride.rules.OPENINGS, copied: importing it loads numba;
#: tests/cli/test_cli_startup.py checks the copy agrees)
OPENINGS = ("card", "hand", "rotate")


def _formats() -> dict:
    """How the Free Ride tables read each column."""
    from ricochet_math.reports.tables import Number, Percent, Text, Whole

    return {
        "strategy": Text(wrap=28), "win": Percent(2), "chips": Number(2, interval=True), "out": Percent(2, interval=False),
        "starts": Percent(2, interval=False), "free_rides_per_game": Number(3, title="free rides/game"),
        "free_ride_wins_per_game": Number(3, title="free-ride wins/game"), "net": Number(3, interval=True),
        "net_at_position": Number(3, interval=True, title="net at position"), "rounds": Number(3, interval=True), "swing": Number(2),
        "seat1_win": Percent(2, interval=False, title="seat 1 win %"), "value": Number(4), "share": Percent(3),
        "fair": Percent(1, interval=False, title="fair %"), "seats": Whole(), "seat": Whole(), "position": Whole(),
        **{f"fold_{k}": Percent(1, interval=False, title=f"fold@{k} %") for k in range(5)},
        "to_the_end": Percent(1, interval=False, title="to end %"),
    }
TABLES = ("seats", "rounds", "length", "swings", "best", "free-ride")


def _rules(args: argparse.Namespace) -> FreeRideRules:
    from ricochet_math.games.freeride.rules import FreeRideRules

    return FreeRideRules(opening=args.opening, free_ride=not args.no_free_ride, odd_chips=args.odd_chips)


def _strategies(args: argparse.Namespace) -> list[str]:
    """The seats' strategies from ``--strategy A B`` (one word a seat, as every game spells it), or from the
    older ``--strategies 'A;B'`` (kept for one release, with a warning on stderr)."""
    if args.strategies is not None:
        if args.strategy is not None:
            raise StrategyError("give --strategy A B (one strategy a word) or the older --strategies 'A;B', "
                                "not both")
        names = split_items(args.strategies, "--strategies", sep=";", error=StrategyError)
        warn_deprecated_list("--strategies 'A;B'", names)
    elif args.strategy is not None:
        names = strategy_words(args.strategy)
    else:
        names = ["computer"]
    if args.players is not None:
        if not 1 <= args.players <= 6:
            raise RuleError(f"--players must be 1..6, got {args.players}")
        names = (names * args.players)[:args.players] if len(names) < args.players else names[:args.players]
    return names


#: one example per action, shown in its --help (tests/cli/test_cli_help.py runs each)
EXAMPLES = {
    "simulate": "ricochet freeride simulate --strategy computer bold --players 4 --games 2000 --seed 1",
    "play": "ricochet freeride play --players 4 --seed 7",
    "solve": "ricochet freeride solve --hand '7s 8h Kd Qc 2s' --up 'Ad 9s 3c' --opp-up '2c 7d 9h'",
    "report": "ricochet freeride report --games 200 --rounds 2000 --out reports/freeride-small",
}


def _rules_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--opening", choices=OPENINGS, default="card",
                   help="who starts a round (default card: every player shows an opening card, the "
                        "lowest starts; see docs/rules.md)")
    p.add_argument("--no-free-ride", action="store_true", help="the counterfactual rule without the free ride")
    p.add_argument("--odd-chips", choices=("first", "carry"), default="first",
                   help="odd chips of a split pot: to the first winners in turn order, or left in the middle")


def _table_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--strategy", nargs="+", default=None, metavar="NAME",
                   help="one strategy per seat, or one for every seat with --players (default computer): "
                        "always, computer, cautious, bold, hider, or t:P1,P2,P3,P4[:strong|weak|hide][:wary] with "
                        "hand patterns such as 88, TT, x; tables are filled with computer players to four seats")
    p.add_argument("--strategies", default=None, metavar="S1;S2;...",
                   help="deprecated (goes in the next release): the strategies separated by ';'; write "
                        "--strategy S1 S2 instead")
    p.add_argument("--players", type=whole(1, 6), default=None, metavar="N",
                   help="players (1..6): the strategies repeated or cut to N (default: as many as given)")


def _arguments(parser: argparse.ArgumentParser) -> None:
    subs = parser.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(parser))

    def action(name: str, help: str, description: str) -> argparse.ArgumentParser:
        return add_action(subs, name, help, EXAMPLES[name], description)

    sim = action("simulate", "games or rounds by Monte Carlo: wins and chips by seat, best responses",
                 "Monte Carlo run of Free Ride Poker: whole games (wins, chips and free rides by seat from 1), "
                 "single rounds (net chips by seat and by position after the starter), game lengths, chip "
                 "swings, the best response among the candidates, or games with and without the free ride "
                 "(95% intervals).")
    _table_options(sim)
    _rules_options(sim)
    sim.add_argument("--games", type=whole(1, 10**10), default=10_000, help="games to simulate (default 10,000)")
    sim.add_argument("--rounds", type=whole(1, 10**10), default=100_000, help="rounds for --table rounds (default 100,000)")
    sim.add_argument("--table", choices=TABLES, default="seats",
                     help="seats (win rates, chips), rounds (net chips by seat and by position after the "
                          "starter), length, swings, best (best response among the candidates for 2..6 seats), "
                          "free-ride (games with and without it)")
    sim.add_argument("--field", default="computer", metavar="STRATEGY",
                     help="--table best: the strategy of the other seats (default computer)")
    add_workers_option(sim)
    add_progress_option(sim)
    add_seed_option(sim)
    add_format_option(sim)

    play = action("play", "play one game and print its hand history",
                  "Deal one game from the seed and play it on the readable engine, printed round by round.")
    _table_options(play)
    _rules_options(play)
    add_seed_option(play)

    solve = action("solve", "the best play at a two-player state (backward induction)",
                   "The best play of the hero against the blind rider at a two-player state, by backward "
                   "induction with card removal (values in chips).")
    _rules_options(solve)
    solve.add_argument("--hand", required=True, help="the hero's five hand cards, e.g. '7s 8h Kd Qc 2s'")
    solve.add_argument("--up", required=True, help="the hero's face-up cards (2..4; with 1 use a small deck)")
    solve.add_argument("--opp-up", default=None, help="the opponent's face-up cards")
    solve.add_argument("--opp-played", type=whole(1, 5), default=None,
                       help="cards the opponent has played (default: her face-up count; 5 once her face-down "
                            "card is played)")
    solve.add_argument("--samples", type=whole(0, 47 * 46), default=40,
                       help="sampled chance outcomes per node before the last decision (0: exact)")
    solve.add_argument("--hero-chips", type=whole(0, 10**9), default=None, help="the hero's chips (caps her losses)")
    solve.add_argument("--opp-chips", type=whole(0, 10**9), default=None, help="the opponent's chips")
    add_seed_option(solve, default=2026)
    add_format_option(solve)

    rep = action("report", "the short report (HTML, CSV, workbook) into a folder",
                 "Seats, game length, chip swings, best responses, the free ride's value and two-player "
                 "decisions, written as HTML, CSV, a workbook and (with the pdf extra) a PDF.")
    _rules_options(rep)
    rep.add_argument("--out", type=writable_folder, required=True, metavar="DIR",
                     help="the report folder (new, empty, or a Free Ride report folder)")
    rep.add_argument("--games", type=whole(1, 10**8), default=4_000, help="games per configuration (default 4,000)")
    rep.add_argument("--rounds", type=whole(1, 10**10), default=100_000, help="rounds for the starting-player effect "
                                                                  "(default 100,000)")
    rep.add_argument("--reproducible", action="store_true", help="leave the build date out")
    add_workers_option(rep)
    add_seed_option(rep, default=2026)
    add_progress_option(rep)


@subcommand(
    "freeride",
    help="Free Ride Poker: simulate games and rounds, play one game with its history, solve a two-player state",
    example=EXAMPLES["simulate"],
    arguments=_arguments,
)
def _freeride(args: argparse.Namespace) -> int:
    from ricochet_math.progress import status

    with status(f"freeride {args.action}: loading numba and the game's kernels", getattr(args, "progress", True)):
        from ricochet_math.games.freeride.analysis import (
            CANDIDATES, best_response, free_ride_value, simulate, simulate_rounds, table_strategies,
        )
        from ricochet_math.games.freeride.engine import play_game
        from ricochet_math.games.freeride.solver import solve_state
        from ricochet_math.random_streams import resolve_seed

    rules = _rules(args)
    formats = _formats()
    show = lambda frame: print_frame(frame, args.format, formats=formats, wide=args.wide)  # noqa: E731
    if args.action == "solve":
        sol = solve_state(args.hand, face_up=args.up, opp_up=args.opp_up or (), opp_played=args.opp_played,
                          rules=rules, hero_chips=args.hero_chips, opp_chips=args.opp_chips,
                          samples=None if args.samples == 0 else args.samples, seed=args.seed)
        if args.format == "table":
            print_wrapped("Two players, the hero against the blind rider (never folds, shows random cards); "
                          "values in chips. " + sol.summary())
        show(sol.to_frame())
        return 0
    if args.action == "report":
        from ricochet_math.games.freeride.report import build_report  # the report machinery only here

        result = build_report(args.out, rules=rules, games=args.games, rounds=args.rounds, seed=args.seed,
                              reproducible=args.reproducible, workers=args.workers, progress=args.progress)
        print_wrapped(result.summary())
        return 0
    strategies = _strategies(args)
    if args.action == "play":
        seed = resolve_seed(args.seed)
        game = play_game(rules, table_strategies(strategies, rules), seed=seed)
        print(game.history())
        print(f"(seed {seed})")
        return 0
    args.seed = resolve_seed(args.seed)  # printed with the results
    table = args.table
    if table == "rounds":
        r = simulate_rounds(strategies, rules, rounds=args.rounds, seed=args.seed, workers=args.workers)
        if args.format == "table":
            print_wrapped(r.describe())
        show(r.to_frame())
    elif table == "best":
        br = best_response(CANDIDATES, field=args.field, rules=rules, games=args.games, seed=args.seed,
                           workers=args.workers)
        if args.format == "table":
            print_wrapped(br.summary())
        show(br.to_frame())
    elif table == "free-ride":
        fr = free_ride_value(table_strategies(strategies, rules), rules, games=args.games, seed=args.seed,
                             workers=args.workers)
        if args.format == "table":
            print_wrapped(fr.summary())
        show(fr.to_frame())
    else:
        g = simulate(rules, strategies, args.games, args.seed, workers=args.workers, progress=args.progress)
        if args.format == "table":
            print_wrapped(g.describe())
        show({"seats": g.to_frame, "length": g.length_distribution, "swings": g.net_distribution}[table]())
        if args.format == "table" and table == "seats":
            print("win % = games the seat ends with the most chips (a tie shares the win); chips = its chips at")
            print("the end; out % = games it ends with none (the game ends when a seat has none); starts % =")
            print("rounds it starts; free rides/game = rounds it plays on without the chips to cover its bets")
            print("(the free ride); free-ride wins/game = those rounds it wins or shares.")
    return 0
