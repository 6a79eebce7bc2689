"""``ricochet advise``, ``solo``, ``published`` and ``kickout``: thin shells over
:func:`~ricochet_math.solvers.advise.advise`, :func:`~ricochet_math.solvers.solo.solo_analysis`,
:mod:`ricochet_math.reports.published` and :mod:`ricochet_math.design.kickout`."""
from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

from ricochet_math.cli.app import number, whole
from ricochet_math.cli.app import (
    add_format_option, add_progress_option, add_rules_option, add_scheduler_option, add_seed_option, load_rules_option,
    print_frame, subcommand, writable_folder,
)
from ricochet_math.errors import RuleError

# The library loads in the handlers: building the parser stays light (issue 26).


def _advise_arguments(parser):
    add_rules_option(parser)
    add_format_option(parser)
    parser.add_argument("--dealer", required=True, metavar="CARDS", help="the dealer's five cards")
    parser.add_argument("--players", required=True, nargs="+", metavar="CARDS",
                        help="each player's two cards, in seat order")
    parser.add_argument("--actions", nargs="+", metavar="ACTION", default=None,
                        help="per seat, in seat order: '-' (not acted yet), 'fold', or the three cards drawn")
    parser.add_argument("--reading", default="perfect",
                        help="strategy reading: perfect (default), perfect-no-bonus, myopic, pot-odds-now, ...")


@subcommand("advise", help="EV(play), EV(fold), P(win) and the perfect decision for the seat to act",
            example='ricochet advise --dealer "Ks Kd 7c 4h 2s" --players "Ad 9c" "7s 7h" --actions fold -',
            arguments=_advise_arguments)
def _advise(args) -> int:
    from ricochet_math.solvers.advise import advise

    a = advise(load_rules_option(args), args.dealer, args.players, args.actions, reading=args.reading)
    if args.format == "table":
        print(a.summary())
    else:
        print_frame(a.to_frame(), args.format, wide=args.wide)
    return 0


def _solo_arguments(parser):
    add_rules_option(parser)
    add_progress_option(parser)
    add_format_option(parser)
    parser.add_argument("--sample", type=whole(1, 169), default=None, metavar="K",
                        help="analyse only K evenly spread starting-hand classes (quick check; figures cover those only)")
    parser.add_argument("--table", choices=("summary", "returns", "strategy"), default="summary",
                        help="what to print (default: summary)")
    parser.add_argument("--no-bonus-decisions", action="store_true",
                        help="the reading 'perfect play that ignores the bonus when deciding'")


@subcommand("solo", help="exact solo (one player) analysis under perfect play: RTP, return table, strategy chart",
            example="ricochet solo --table returns --format csv",
            arguments=_solo_arguments)
def _solo(args) -> int:
    import numpy as np

    from ricochet_math.reports.tables import Number, OneIn, Percent, Text
    from ricochet_math.solvers.solo import solo_analysis

    classes = None
    if args.sample is not None:
        if not 1 <= args.sample <= 169:
            raise RuleError(f"--sample must be 1..169 starting-hand classes, got {args.sample}")
        classes = np.unique(np.linspace(0, 168, args.sample).round().astype(int))
    a = solo_analysis(load_rules_option(args), classes=classes, use_bonus=not args.no_bonus_decisions,
                      progress=args.progress)
    if args.table == "summary":
        if args.format == "table":
            print(a.summary())
        else:
            print_frame(a.to_frame(), args.format)
    elif args.table == "returns":
        if args.format == "table":
            print("net and contribution in ante units per round (contribution = probability x net)")
        print_frame(a.return_table(), args.format, keys=2, wide=args.wide, formats={
            "probability": OneIn(), "contribution": Number(6)})
    else:
        print_frame(a.strategy_chart(), args.format, wide=args.wide, formats={
            "plays_up_to_value": Text(), "fold_frequency_dealer_in": Percent(2, interval=False)})
    return 0


def _published_arguments(parser):
    add_rules_option(parser)
    add_progress_option(parser)
    add_format_option(parser)
    parser.add_argument("--rounds", type=whole(1, 10**12), default=5_000, help="Monte Carlo rounds per player count and reading")
    add_seed_option(parser, 2026, help="seed (one for every reading: common random numbers; default 2026)")
    add_scheduler_option(parser)
    parser.add_argument("--readings", nargs="+", default=None, metavar="READING",
                        help="strategy readings to compute (default: the spec's eight; a publisher-like "
                             "pub-POT-TARGET[-no-bonus] reading too)")
    parser.add_argument("--write", metavar="DIR", type=writable_folder, default=None,
                        help="also write DIR/published-figures.md and .csv (e.g. reports)")
    parser.add_argument("--best-response", metavar="READING", default=None,
                        help="instead: the RTP of one perfect seat at a table of READING players "
                             "(e.g. pot-odds-final), per player count")
    parser.add_argument("--precision", type=number(0, 100, above=True), nargs="+", metavar="PP", default=None,
                        help="instead of --rounds: run each player count until the 95%% half-width is PP "
                             "percentage points on RTP (a second PP: on the fold and win frequencies; "
                             "default the same), e.g. --precision 0.05 0.03; cells are kept in a store and "
                             "resumed (see --store)")
    parser.add_argument("--search", action="store_true",
                        help="also rank the publisher-like readings (pub-...; those of --readings, else all 32) "
                             "by goodness of fit to the page, run to the precision policy (every row at 0.05 "
                             "pts on RTP and 0.03 on fold and win, or rejected at z >= 5 in size and firmly outside "
                             "the --top best; resumable, see --seconds); with --write, writes "
                             "DIR/publisher-readings.csv and a section of the report")
    parser.add_argument("--search-only", action="store_true",
                        help="--search without recomputing the main table: with --write, writes "
                             "DIR/publisher-readings.csv and replaces the search's section of "
                             "DIR/published-figures.md")
    parser.add_argument("--screen-rounds", type=whole(256, 10**10), default=10_240, metavar="R",
                        help="--search: rounds per reading and player count in the screen (default 10,240)")
    parser.add_argument("--top", type=whole(1, 1000), default=5, metavar="K",
                        help="--search: the K best rows (and every row not rejected) are run to the target "
                             "precision (default 5)")
    parser.add_argument("--seconds", type=number(0, 10**7, above=True), default=None, metavar="S",
                        help="--search: start no new chunk after S seconds (the store keeps the work: run "
                             "again to continue)")
    parser.add_argument("--store", metavar="DIR", type=writable_folder, default=None,
                        help="folder of the Monte Carlo cells of --precision and --search (default: the "
                             "toolkit's cache folder, reading-search)")


@subcommand("published", help="the publisher's RTP, fold and win figures next to ours, reading by reading",
            example="ricochet published --rounds 2000 --readings perfect pot-odds-now --write reports",
            arguments=_published_arguments)
def _published(args) -> int:
    if (args.search or args.precision is not None) and args.store is None:
        # the store lives in the cache folder: one that is not usable is refused here, in one line, before
        # anything loads the hand tables (whose cache it is too: that would add a warning line)
        from ricochet_math.evaluator.tables import require_cache_dir

        require_cache_dir("the reading search's store")
    from ricochet_math.reports.published import (
        READINGS, best_response, check_readings, published_figures, write_best_response,
    )
    from ricochet_math.reports.reading_search import CHUNK_ROUNDS, search_readings
    from ricochet_math.reports.tables import Percent, Text
    from ricochet_math.strategies.readings import FAMILY_NAMES

    readings = check_readings(args.readings) if args.readings else READINGS
    if args.rounds < 1:
        raise RuleError(f"--rounds must be positive, got {args.rounds}")
    if args.best_response:
        check_readings(args.best_response)
        frame = best_response(load_rules_option(args), reading=args.best_response, rounds=args.rounds,
                              seed=args.seed, progress=args.progress, executor=args.scheduler)
        view = frame.rename(columns={"best_response_low": "best_response_rtp_low",
                                     "best_response_high": "best_response_rtp_high",
                                     "same_seat_low": "same_seat_playing_reading_rtp_low",
                                     "same_seat_high": "same_seat_playing_reading_rtp_high"})
        print_frame(frame if args.format != "table" else view, args.format, wide=args.wide, formats={
            "best_response_rtp": Percent(2, title="best response RTP %"),
            "same_seat_playing_reading_rtp": Percent(2, title="playing the reading %"),
            "gain": Percent(2, interval=False, title="gain pts")})
        if args.write:
            print(f"wrote {write_best_response(frame, args.write)}")
        return 0
    if args.precision is not None and not 1 <= len(args.precision) <= 2:
        raise RuleError(f"--precision takes one or two numbers, got {len(args.precision)}")
    search_result = None
    if args.search:
        if args.screen_rounds < 256 or args.top < 0:
            raise RuleError("--screen-rounds must be at least 256 and --top at least 0")
        family = tuple(r for r in readings if r in FAMILY_NAMES) if args.readings else FAMILY_NAMES
        if not family:
            raise RuleError("--search ranks publisher-like readings (pub-...): name some with --readings, "
                            "or leave --readings out for all 32")
        search_result = search_readings(family, seed=args.seed, screen_chunks=-(-args.screen_rounds // CHUNK_ROUNDS),
                                        top=args.top, seconds=args.seconds, store=args.store, progress=args.progress,
                                        wait=False)
    if args.search_only:
        if search_result is None:
            raise RuleError("--search-only goes with --search")
        print(search_result.to_markdown(top=args.top))
        if args.write:
            out = search_result.write(Path(args.write) / "publisher-readings.csv")
            md = search_result.update_report(Path(args.write) / "published-figures.md")
            print(f"wrote {out} and the search's section of {md}")
        return 0
    res = published_figures(load_rules_option(args), rounds=args.rounds, seed=args.seed, readings=readings,
                            weak_rounds=args.rounds, progress=args.progress, executor=args.scheduler,
                            precision=args.precision, store=args.store)
    if search_result is not None:
        res = dataclasses.replace(res, search=search_result)
    frame = res.to_frame()
    if args.format == "table":
        # "figure" is the publisher's figure (its label is the publisher's, e.g. "with perfect play");
        # "reading" is the strategy reading it was computed under
        frame = frame.rename(columns={"ci_low": "computed_low", "ci_high": "computed_high"})
    print_frame(frame, args.format, keys=2, wide=args.wide, formats={
        "figure": Text(title="published figure"), "published": Percent(2, interval=False),
        "computed": Percent(2), "difference": Percent(2, interval=False, title="difference pts")})
    if search_result is not None:
        print(search_result.to_markdown(top=args.top))
    if args.write:
        md, csv = res.write(args.write)
        print(f"wrote {md} and {csv}" + (" and publisher-readings.csv" if search_result is not None else ""))
    return 0


def _kickout_arguments(parser):
    add_rules_option(parser)
    add_progress_option(parser)
    add_format_option(parser)
    parser.add_argument("--players", default="1", help="player counts: 1, a range such as 2-4 or 1,3,7, or 'all'")
    parser.add_argument("--target", type=number(0, 200, above=True), default=None,
                        help="target RTP per initial bet as a fraction (0.965) or percent (96.5)")
    parser.add_argument("--grid", default=None, help="thresholds, e.g. '99 KKQ TTxx 222 A2345 flush'")
    parser.add_argument("--rounds", type=whole(1, 10**12), default=20_000, help="Monte Carlo rounds per threshold (N >= 2)")
    add_seed_option(parser, 2026, help="seed of the Monte Carlo runs (N >= 2; default 2026)")
    add_scheduler_option(parser)
    parser.add_argument("--strategy", default="perfect", help="strategy for N >= 2 (default perfect)")


@subcommand("kickout", help="RTP against the dealer's kickout threshold, and the threshold for a target RTP",
            example="ricochet kickout --players 1 --target 96.5",
            arguments=_kickout_arguments)
def _kickout(args) -> int:
    import pandas as pd

    from ricochet_math.design.kickout import DEFAULT_GRID, find_kickout, kickout_curve
    from ricochet_math.engine.deal import parse_players

    rules = load_rules_option(args)
    counts = list(parse_players("1-7" if args.players == "all" else args.players))
    target = args.target
    if target is not None and target > 2:
        target = target / 100.0
    grid = args.grid if args.grid else DEFAULT_GRID
    frames = []
    for n in counts:
        curve = kickout_curve(rules, players=n, grid=grid, rounds=args.rounds, seed=args.seed,
                              strategy=args.strategy, progress=args.progress, executor=args.scheduler)
        frame = curve.to_frame()
        if args.format == "table":
            print(f"# {n} player(s): {curve.method}")
            frame = frame.rename(columns={"rtp_ci_low": "rtp_per_initial_bet_low",
                                          "rtp_ci_high": "rtp_per_initial_bet_high",
                                          "rtp_plain_ci_low": "rtp_per_initial_bet_plain_low",
                                          "rtp_plain_ci_high": "rtp_per_initial_bet_plain_high"})
            print_frame(frame, wide=args.wide, formats=_kickout_formats())
        else:
            frames.append(frame.assign(players=n, method=curve.method))
        if target is not None:
            found = find_kickout(rules, players=n, target_rtp=target, curve=curve)
            # beside the table; on stderr when stdout carries csv or json
            print(f"{n} player(s): closest to {target:.4%}: {found['closest']} ({found['closest_rtp']:.4%}); "
                  f"bracket {found['bracket_low_threshold']} ({found['bracket_low_rtp']:.4%}) .. "
                  f"{found['bracket_high_threshold']} ({found['bracket_high_rtp']:.4%})",
                  file=sys.stdout if args.format == "table" else sys.stderr)
    if frames:
        print_frame(pd.concat(frames, ignore_index=True), args.format)
    return 0


def _kickout_formats() -> dict:
    """How the kickout table reads each column."""
    from ricochet_math.reports.tables import Number, Percent, Text

    return {
        "value": Text(), "rtp_per_initial_bet": Percent(3, title="RTP/initial %"),
        "rtp_per_initial_bet_plain": Percent(3, title="plain RTP/initial %"),
        "variance_ratio": Number(1, title="var. ratio"),
        "rtp_per_wagered": Percent(3, interval=False, title="RTP/wagered %"),
        "kickout_rate": Percent(2, interval=False, title="kickout %"),
        "fold_frequency": Percent(2, interval=False, title="fold %"),
        "win_frequency": Percent(2, interval=False, title="win %"),
    }
