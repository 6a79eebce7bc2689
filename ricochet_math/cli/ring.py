"""``ricochet ring simulate|play|arrange|report``: Ring Poker from the command line (a thin shell over
:mod:`ricochet_math.games.ring`)."""
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

if TYPE_CHECKING:
    from ricochet_math.games.ring.rules import RingRules

# The game loads in the handlers: building the parser stays light (issue 26).  The parser's choices and
# help below name the game's own, copied because importing them loads numba (tests/cli/test_cli_startup.py
# checks each copy agrees): games.ring.strategies.STRATEGIES and ISSUE_STRATEGIES,
# games.ring.analysis.DEFAULT_STRATEGY, games.ring.arrangement.OBJECTIVES.
STRATEGIES = ("random", "greedy", "lookahead", "denial", "greedy-fast")
ISSUE_STRATEGIES = STRATEGIES[:4]
DEFAULT_STRATEGY = "greedy-fast"
OBJECTIVES = ("strongest", "points")


def _rules_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=whole(2, 3), default=2, choices=(2, 3), help="2 or 3 players (default: 2)")
    p.add_argument("--joker", default="bug", choices=("bug", "wild", "dead"),
                   help="what a joker is worth (default: bug, the publisher's advice for its home game)")
    p.add_argument("--no-rotate", action="store_true",
                   help="variant: seat 1 chooses first every round (the rules rotate the first player)")


def _rules(args) -> RingRules:
    from ricochet_math.games.ring.rules import RingRules

    return RingRules(players=args.players, joker=args.joker, rotate=not args.no_rotate)


def _strategy_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--strategy", nargs="+", default=None, metavar="NAME",
                   help=f"one per seat, or one for every seat: {', '.join(STRATEGIES)} (default: "
                        f"{DEFAULT_STRATEGY}, the fast heuristic; greedy values the expected future pairs and "
                        "costs milliseconds a move); with --table pairings or best-response: the strategies "
                        f"to compare (default: {' '.join(ISSUE_STRATEGIES)})")


def _strategies(args) -> list[str]:
    s = args.strategy or [DEFAULT_STRATEGY]
    return s * args.players if len(s) == 1 else s


def _objective_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--objective", choices=OBJECTIVES, default="strongest",
                   help="how hands are arranged: strongest (lexicographic, default) or points (expected slot "
                        "points against random opponents)")


#: one example per action, shown in its --help (tests/cli/test_cli_help.py runs each)
EXAMPLES = {
    "simulate": "ricochet ring simulate --players 3 --strategy greedy-fast lookahead denial --games 500 --seed 1",
    "play": "ricochet ring play --players 3 --strategy greedy-fast lookahead denial --seed 7",
    "arrange": 'ricochet ring arrange "As Ks Qs Js Ts 9h 9d 9c 2s 2h 3c 4d 5h 6s 7c Jk 8d 8h"',
    "report": "ricochet ring report --games 200 --pair-games 20 --out reports/ring-small",
}


def _arguments(parser: argparse.ArgumentParser) -> None:
    subs = parser.add_subparsers(dest="ring_action", metavar="ACTION", parser_class=type(parser), required=True)

    def action(name: str, help: str, description: str) -> argparse.ArgumentParser:
        return add_action(subs, name, help, EXAMPLES[name], description)

    sim = action("simulate", "Monte Carlo: win share and points by seat, categories, pairings",
                 "Monte Carlo run of Ring Poker games: win share and points by seat (seats from 1; 95% "
                 "intervals), slot categories, game length, or every strategy against every other "
                 "(pairings, best responses).")
    _rules_options(sim)
    _strategy_option(sim)
    _objective_option(sim)
    sim.add_argument("--games", type=whole(1, 10**10), default=10_000, help="games (default: 10,000; per seating for pairings)")
    add_seed_option(sim)
    add_workers_option(sim)
    add_progress_option(sim)
    sim.add_argument("--table", choices=("seats", "categories", "length", "pairings", "best-response"),
                     default="seats", help="what to print (pairings and best-response run every strategy "
                                           "against every other at every seat; best-response then replays "
                                           "each selected strategy and its runner-up on fresh seeds)")
    add_format_option(sim)

    play = action("play", "deal and play one game, printed round by round",
                  "Deal one game from the seed and play it on the readable engine, printed round by round "
                  "with each seat's three hands and the points.")
    _rules_options(play)
    _strategy_option(play)
    _objective_option(play)
    add_seed_option(play, help="seed of the deal (default: fresh entropy, printed)")
    add_format_option(play)

    arr = action("arrange", "the best three hands from 15 to 18 cards",
                 "The best three five-card hands from 15 to 18 cards (strongest first, or the most expected "
                 "slot points against sampled opponents).")
    arr.add_argument("cards", metavar="CARDS", help='the cards, quoted: "As Ks Qs ... Jk" (Jk / JK / X: a joker)')
    _rules_options(arr)
    _objective_option(arr)
    arr.add_argument("--samples", type=whole(1, 10**7), default=1000,
                     help="opponents sampled for --objective points (default: 1,000)")
    add_seed_option(arr, default=0, help="seed of the sampled opponents (default: 0)")
    add_format_option(arr)

    rep = action("report", "the short Ring Poker report (HTML and CSV) into a folder",
                 "Seat and order effects, strategy pairings and arrangement statistics, written as HTML, "
                 "CSV, a workbook and (with the pdf extra) a PDF.")
    rep.add_argument("--out", type=writable_folder, required=True, metavar="DIR",
                     help="the report folder (replaced only if the toolkit wrote it)")
    rep.add_argument("--games", type=whole(10, 10**8), default=20_000, help="games per seat run (default: 20,000)")
    rep.add_argument("--pair-games", type=whole(1, 10**8), default=None,
                     help="games per seating of the strategy pairings (default: a fortieth of --games, at least 100)")
    add_seed_option(rep, default=2026, help="seed (default 2026, as every report)")
    add_progress_option(rep)
    rep.add_argument("--joker", default="bug", choices=("bug", "wild", "dead"))


@subcommand("ring", help="Ring Poker: simulate, play one game, arrange 18 cards, report",
            example=EXAMPLES["simulate"],
            arguments=_arguments)
def _ring(args) -> int:
    return {"simulate": _simulate, "play": _play, "arrange": _arrange, "report": _report}[args.ring_action](args)


def _simulate(args) -> int:
    from ricochet_math.progress import status

    with status("ring simulate: loading numba and the game's kernels", args.progress):
        from ricochet_math.games.ring.analysis import pairings, simulate
        from ricochet_math.reports.tables import Number, Percent

    rules = _rules(args)
    if args.table in ("pairings", "best-response"):
        table = pairings(rules, args.strategy or ISSUE_STRATEGIES, games=args.games, seed=args.seed,
                         workers=args.workers)
        # a best of K on one seed is confirmed on fresh seeds before it is reported (docs/ring-poker.md)
        conf = table.confirm(workers=args.workers) if args.table == "best-response" else None
        frame = table.to_frame() if conf is None else conf.to_frame()
        if args.format == "table":
            print(table.summary() if conf is None else conf.summary())
        print_frame(frame, args.format, keys=2, wide=args.wide,  # read through the column schema
                    formats=None if conf is None else {  # the confirmation's shares and lead, in percent
                        c: Percent(2, title=t) for c, t in (
                            ("selection_win", "selection win %"),
                            ("selection_runner_up_win", "selection runner-up win %"), ("win", "fresh win %"),
                            ("runner_up_win", "fresh runner-up win %"), ("lead", "lead (points)"))})
        return 0
    res = simulate(rules, _strategies(args), args.games, args.seed, objective=args.objective, workers=args.workers,
                   progress=args.progress)
    frame = {"seats": res.to_frame, "categories": res.category_frame, "length": res.length_frame}[args.table]()
    if args.format == "table":
        print(res.describe())
        seat_formats = {"win": Percent(2), "points": Number(3, interval=True), "outright": Percent(2, interval=False)}
        fmt = seat_formats if args.table == "seats" else {c: Percent(2) for c in ("strongest", "middle", "weakest")}
        print_frame(frame, formats=fmt if args.table != "length" else {"value": Number(4)}, wide=args.wide)
        if args.table == "seats":
            print("starts first = rounds of the nine in which the seat chooses first; win % = the seat's share")
            print("of the games (a win shared by k counts 1/k); points = slot points a game; outright % = games")
            print("it wins alone." + (" Jokers as bugs: a joker is an ace, or any card that completes a"
                                      if rules.joker.name == "BUG" else ""))
            if rules.joker.name == "BUG":
                print("straight or a flush (the publisher's advice; --joker wild or dead for the others).")
    else:
        print_frame(frame, args.format)
    return 0


def _play(args) -> int:
    from ricochet_math.games.ring.engine import play_game
    from ricochet_math.random_streams import resolve_seed

    rules = _rules(args)
    seed = resolve_seed(args.seed)
    rec = play_game(rules, _strategies(args), seed, objective=args.objective)
    if args.format == "table":
        print(rec.summary())
        print(f"(seed {seed})")
    elif args.format == "csv":
        print_frame(rec.to_frame(), "csv")
    else:
        print(json.dumps({"seed": seed, "rules": rules.summary(), "strategies": list(rec.strategies),
                          "history": rec.to_frame().to_dict(orient="records"),
                          "hands": rec.hands_frame().to_dict(orient="records"),
                          "points": list(rec.points), "shares": list(rec.shares)}, indent=2, ensure_ascii=False))
    return 0


def _arrange(args) -> int:
    from ricochet_math.games.ring.arrangement import arrange
    from ricochet_math.games.ring.hands import cards_text

    a = arrange(args.cards, rules=_rules(args), objective=args.objective, samples=args.samples, seed=args.seed)
    if args.format == "table":
        print(f"{cards_text(a.cards)}: {a.summary()}  ({a.seconds * 1e3:.2f} ms)")
    print_frame(a.to_frame(), args.format, wide=getattr(args, "wide", False))
    return 0


def _report(args) -> int:
    from ricochet_math.games.ring.report import (
        build_report,  # matplotlib and jinja2 only for this action
    )
    from ricochet_math.games.ring.rules import RingRules

    result = build_report(args.out, games=args.games, seed=args.seed, rules=RingRules(joker=args.joker),
                          pair_games=args.pair_games, progress=args.progress)
    print_wrapped(result.summary())
    return 0
