"""``ricochet play``, ``ricochet simulate`` and ``ricochet rtp``: thin shells over the engines.

``play`` deals one round with the reference engine (:mod:`ricochet_math.engine.round`)
and prints its hand history; ``simulate`` and ``rtp`` run the fast engine
through :mod:`ricochet_math.solvers.montecarlo`.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ricochet_math.cli.app import number, whole
from ricochet_math.cli.app import (
    add_format_option, add_progress_option, add_rules_option, add_scheduler_option, add_seed_option,
    load_rules_option, print_frame, subcommand, writable_file,
)

if TYPE_CHECKING:
    import pandas as pd

# The library loads in the handlers: building the parser stays light (issue 26).

DEFAULT_RTP_SEED = 2026


def _strategy_option(parser, default, help_default: str) -> None:
    parser.add_argument(
        "--strategy", nargs="+", default=default, metavar="NAME",
        help=f"strategy for every seat, or one per seat (default: {help_default}); names: always, never, pair, "
             "beats:A9, timid, chaser, dealer-only, bonus-hunter, perfect, perfect-no-bonus, myopic, "
             "pot-odds-now, pot-odds-final (and -no-bonus), READING-vs-READING",
    )


# --------------------------------------------------------------------------
# play
# --------------------------------------------------------------------------

def _play_arguments(parser) -> None:
    add_rules_option(parser)
    add_format_option(parser)
    parser.add_argument("-n", "--num-players", type=whole(1, 7), default=None, metavar="N",
                        help="players 1..7 (default: the number of --players hands, else 3)")
    parser.add_argument("--dealer", default=None, metavar="CARDS",
                        help='the dealer\'s cards, up to 5 (e.g. "Ks Kd 7c 4h 2s"); missing ones are dealt at random')
    parser.add_argument("--players", nargs="+", default=None, metavar="HAND",
                        help='each seat\'s two cards in seat order (e.g. "Ad 9c" "7s 7h"; "?" for a random hand)')
    parser.add_argument("--draws", nargs="+", default=None, metavar="CARDS",
                        help="cards the drawing seats receive, three each, in acting order (the rest random)")
    add_seed_option(parser, help="seed for the random cards (default: fresh entropy, printed)")
    _strategy_option(parser, ["always"], "always")


@subcommand("play", help="deal and play one round, printed as a hand history",
            example='ricochet play --dealer "Ks Kd 7c 4h 2s" --players "Ad 9c" "7s 7h" --strategy pair',
            arguments=_play_arguments)
def _play(args) -> int:
    from ricochet_math.engine.deal import deal_deck
    from ricochet_math.engine.records import format_history
    from ricochet_math.engine.round import play_round
    from ricochet_math.evaluator.cards import format_cards
    from ricochet_math.random_streams import resolve_seed

    rules = load_rules_option(args)
    hands = [None if h.strip() in ("?", "") else h for h in (args.players or [])]
    n = args.num_players if args.num_players is not None else (len(hands) or 3)
    seed = resolve_seed(args.seed)
    deck = deal_deck(n, dealer=args.dealer, hands=hands, draws=args.draws, seed=seed)
    record = play_round(rules, args.strategy, players=n, deck=deck)
    if args.format == "table":
        print(format_history(record))
        print(f"(seed {seed}; deck {format_cards(record.deck[:5 * n + 5])})")
    elif args.format == "csv":
        print_frame(record.to_frame(), "csv")
    else:
        out = {
            "rules": record.rules_name, "players": n, "seed": seed,
            "dealer": format_cards(record.dealer_cards), "dealer_value": record.dealer_value,
            "kicked": record.kicked, "pot": record.pot, "house_net": record.house_net, "cover": record.cover,
            "order": [s + 1 for s in record.order], "seats": record.to_frame().to_dict(orient="records"),
            "log": [{"step": e.kind, "seat": None if e.seat is None else e.seat + 1, "text": e.text, "pot": e.pot}
                    for e in record.log],
        }
        print(json.dumps(out, indent=2, ensure_ascii=False))
    return 0


# --------------------------------------------------------------------------
# simulate
# --------------------------------------------------------------------------

def _simulate_arguments(parser) -> None:
    add_rules_option(parser)
    add_format_option(parser)
    parser.add_argument("--players", type=whole(1, 7), default=4, metavar="N", help="players 1..7 (default: 4)")
    _strategy_option(parser, ["always"], "always")
    parser.add_argument("--rounds", type=whole(1, 10**12), default=1_000_000, metavar="R", help="rounds (default: 1,000,000)")
    parser.add_argument("--precision", type=number(0, 100, above=True), default=None, metavar="PP",
                        help="instead of --rounds: run until the RTP's 95%% interval is +/- PP percentage points "
                             "(a pilot run on its own seed sizes the run; the figures come from the main run only)")
    add_seed_option(parser)
    add_scheduler_option(parser)
    parser.add_argument("--workers", type=whole(1, 4096), default=None, metavar="K",
                        help="threads (default: every core); the result does not depend on it")
    parser.add_argument("--checkpoint", type=writable_file, default=None, metavar="FILE",
                        help="keep finished chunks in FILE, so a stopped run resumes where it was")
    parser.add_argument("--table", choices=("summary", "seats", "positions", "hands"), default="summary",
                        help="what to print: the figures (default), per seat, per acting position, final hands")
    add_progress_option(parser)


@subcommand("simulate", help="Monte Carlo run of one table: RTP, fold and win frequencies with 95 percent intervals",
            example="ricochet simulate --players 4 --strategy pair --rounds 2000000 --seed 1",
            arguments=_simulate_arguments)
def _simulate(args) -> int:
    from ricochet_math.progress import status

    with status("ricochet simulate: loading numba and the kernels", args.progress):
        from ricochet_math.reports.tables import Number, Percent
        from ricochet_math.solvers.montecarlo import simulate, simulate_to_precision

    run = dict(workers=args.workers, checkpoint=args.checkpoint, progress=args.progress, executor=args.scheduler)
    if args.precision is not None:
        res = simulate_to_precision(load_rules_option(args), args.players, args.strategy, args.precision,
                                    args.seed, **run)
    else:
        res = simulate(load_rules_option(args), args.players, args.strategy, args.rounds, args.seed, **run)
    if args.format != "table":
        frames = {"seats": lambda: res.seat_frame("seat"), "positions": lambda: res.seat_frame("position"),
                  "hands": res.hands_frame, "summary": res.to_frame}
        print_frame(frames[args.table](), args.format)
        return 0
    print(res.describe())
    print(f"  run time {res.run_time:.1f} s, chunk size {res.chunk_size}, version {res.version}\n")
    if args.table == "summary":
        rates, amounts = _summary_frames(res.summary())
        print_frame(rates, formats={"estimate": Percent(3, title="estimate %")}, wide=args.wide)
        print()
        print_frame(amounts, formats={"estimate": Number(4, interval=True, title="value")}, wide=args.wide)
    elif args.table == "hands":
        print_frame(res.hands_frame(), formats={"frequency": Percent(4), "bonus_frequency": Percent(4)},
                    wide=args.wide)
    else:
        by = "seat" if args.table == "seats" else "position"
        formats = {name: Percent(2) for name in ("rtp_initial", "rtp_initial_cv", "rtp_wagered", "fold_frequency",
                                                 "win_frequency", "hit_frequency")}
        formats.update(mean_net=Number(4), sd_net=Number(3))
        print_frame(res.seat_frame(by), formats=formats, keys=2 if by == "seat" else 1, wide=args.wide)
    return 0


#: the summary figures that are amounts in ante units per round (every other estimate is a rate or an RTP)
_AMOUNTS = ("average_wagered", "average_bonus", "average_pot_share", "average_pot", "house_net_per_round", "sd_net")


def _summary_frames(summary: dict):
    """The run's figures as two tables: rates and RTPs (fractions), and amounts (ante units per round) and
    ratios."""
    import pandas as pd

    from ricochet_math.solvers.stats import Estimate

    rates, amounts = [], []
    for name, value in summary.items():
        if name in ("rules", "players", "strategy", "rounds"):
            continue
        est = value if isinstance(value, Estimate) else Estimate(float(value), 0.0, float(value), float(value))
        row = {"figure": name, "estimate": est.estimate, "estimate_low": est.low, "estimate_high": est.high}
        if name in _AMOUNTS:
            amounts.append({**row, "unit": "ante units"})
        elif isinstance(value, Estimate):
            rates.append(row)
        else:  # variance_ratio: the controlled variance over the plain one
            amounts.append({**row, "unit": "ratio"})
    return pd.DataFrame(rates), pd.DataFrame(amounts)


# --------------------------------------------------------------------------
# rtp: the main job
# --------------------------------------------------------------------------

def _rtp_arguments(parser) -> None:
    add_rules_option(parser)
    add_format_option(parser)
    parser.add_argument("--players", default="1-7", metavar="RANGE",
                        help="player counts: 1-7 (default), 4, or 2,4,7")
    _strategy_option(parser, None, "perfect")
    parser.add_argument("--rounds", type=whole(1, 10**12), default=None, metavar="R",
                        help="rounds per player count (default: 2,000,000; 4,000 with the perfect-play kernel)")
    parser.add_argument("--precision", type=number(0, 100, above=True), default=None, metavar="PP",
                        help="instead of --rounds: run until the RTP's 95%% interval is +/- PP percentage points "
                             "(a pilot run on its own seed sizes the run; the figures come from the main run only)")
    add_seed_option(parser, DEFAULT_RTP_SEED,
                    help=f"random seed, the same for every player count (default: {DEFAULT_RTP_SEED})")
    add_scheduler_option(parser)
    parser.add_argument("--workers", type=whole(1, 4096), default=None, metavar="K", help="threads (default: every core)")
    add_progress_option(parser)


@subcommand("rtp", help="the main job: RTP by player count on a rule set (N = 1 exact under perfect play, "
                        "N >= 2 Monte Carlo with 95 percent confidence intervals)",
            example="ricochet rtp --players 1-7 --strategy always --rounds 100000",
            arguments=_rtp_arguments)
def _rtp(args) -> int:
    from ricochet_math.progress import say, status

    # the first line within a second of the start, before numba and pandas load (seconds on a cold machine)
    say(f"ricochet rtp: players {args.players}; a first run compiles the kernels (and solves N = 1 exactly)"
        "\n(minutes on 2 cores, then cached: later runs take seconds)", args.progress)
    with status("ricochet rtp: loading numba, pandas and the kernels", args.progress):
        import pandas as pd

        from ricochet_math.engine.deal import parse_players
        from ricochet_math.solvers.exact_row import exact_rtp_row
        from ricochet_math.solvers.montecarlo import rtp_table

        rules = load_rules_option(args)
        players = list(parse_players(args.players))
        strategy = args.strategy or ["perfect"]
        exact = _exact_reading(strategy) if 1 in players else None
    sampled = [n for n in players if not (n == 1 and exact is not None)]
    results, frame = rtp_table(rules, sampled, strategy, args.rounds, args.seed, workers=args.workers,
                               progress=args.progress, executor=args.scheduler,
                               precision=args.precision) if sampled else ([], None)
    if frame is not None:
        frame["method"] = [_method(res) for res in results]
    if exact is not None:
        with status(f"N = 1 exact, {exact}: the solo analysis (cached after the first run)", args.progress):
            row = exact_rtp_row(rules, reading=exact, progress=args.progress)
        # the Monte Carlo columns' order, "method" last; the exact row leaves the figures it lacks empty
        frame = row if frame is None else pd.concat([row, frame], ignore_index=True)[list(frame.columns)]
        frame["rounds"] = frame["rounds"].astype("Int64")
    if args.format != "table":
        print_frame(frame, args.format)
        return 0
    label = results[0].strategy if results else exact
    view = _rtp_view(frame, args.wide)
    print(f"RTP of rule set {rules.name} (sha256 {rules.sha256[:12]}), strategy {label}, seed {args.seed}")
    if exact is not None:
        print("N = 1 exact: every deal of the one-player game.")
    if results:
        print(_rtp_sample_text(results, view, exact is not None))
    print_frame(view, formats=_rtp_formats(), wide=args.wide)
    # notes as separate short lines: the table format keeps to 100 columns
    print("RTP/initial = 1 + E[net] per ante; RTP/wagered = returned / (ante + play bets);")
    print("fold % = rounds a seat folds; win % = rounds a seat wins or shares the pot;")
    print("kickout % = rounds the dealer is kicked out (her hand at or above the kickout threshold for")
    print("the player count: she folds, her ante stays in the pot).")
    if any(res.controlled is not None for res in results):
        print("controlled = the RTPs estimated with control variates of exactly known mean")
        print("(ricochet_math.solvers.variance): same rounds, unbiased, a narrower interval.")
    if results:
        print("A narrower interval: --rounds R (the width falls as 1/sqrt(R)) or --precision PP (each run")
        print("sized to +/- PP percentage points on RTP/initial).")
    if not args.wide:
        print("--wide adds house edge, element of risk, average pot, sd of a seat's net, rounds, run time")
        print("and the RTPs without control variates; --format csv or json gives every figure.")
    return 0


def _rtp_sample_text(results, view, after_exact: bool) -> str:
    """What the Monte Carlo rows are: their rounds and the widest 95% half-width of RTP/initial."""
    rounds = sorted({res.rounds for res in results})
    rounds_text = (f"{rounds[0]:,} rounds per player count" if len(rounds) == 1
                   else f"{rounds[0]:,} to {rounds[-1]:,} rounds per player count")
    sampled = view["players"].isin([res.players for res in results])
    half = ((view.loc[sampled, "rtp_initial_high"] - view.loc[sampled, "rtp_initial_low"]) / 2).max()
    return (f"{'N >= 2: ' if after_exact else ''}Monte Carlo, {rounds_text}, 95% confidence intervals\n"
            f"(RTP/initial within ± {100 * half:.2f} percentage points).")


def _exact_reading(strategy) -> str | None:
    """``perfect`` or ``perfect-no-bonus`` when the lone seat of N = 1 plays that reading, else None."""
    from ricochet_math.solvers.exact_row import EXACT_READINGS
    from ricochet_math.strategies.registry import resolve_strategies

    if len(strategy) != 1:
        return None
    (seat,) = resolve_strategies(strategy, 1)
    return seat.name if seat.name in EXACT_READINGS else None


def _method(res) -> str:
    return "monte carlo, control variates" if res.controlled is not None else "monte carlo"


def _rtp_formats() -> dict:
    """How the rtp table reads each column."""
    from ricochet_math.reports.tables import Number, Percent, Text, Whole

    return {
        "method": Text(), "rtp_initial": Percent(3, title="RTP/initial %"),
        "rtp_wagered": Percent(3, title="RTP/wagered %"), "fold_frequency": Percent(2, title="fold %"),
        "win_frequency": Percent(2, title="win %"), "kickout_rate": Percent(2, title="kickout %"),
        "house_edge": Percent(3, interval=False, title="house edge %"),
        "element_of_risk": Percent(3, interval=False, title="element of risk %"),
        "average_pot": Number(3, title="avg pot"), "sd_net": Number(3, title="sd net"),
        "rounds": Whole(), "run_time_s": Number(1, title="time s"),
        "rtp_initial_plain": Percent(3, title="RTP/initial, plain %"),
        "rtp_wagered_plain": Percent(3, title="RTP/wagered, plain %"),
    }


def _rtp_view(frame: pd.DataFrame, wide: bool) -> pd.DataFrame:
    """The columns the table shows: the RTPs with control variates where the run kept them (else the plain
    ones), house edge and element of risk from those same RTPs; more with ``wide``."""
    import pandas as pd

    view = pd.DataFrame({"players": frame["players"],
                         "method": frame["method"].replace({"monte carlo, control variates": "controlled"})})
    for name in ("rtp_initial", "rtp_wagered"):
        controlled = frame[f"{name}_cv"].notna() if f"{name}_cv" in frame else pd.Series(False, index=frame.index)
        for end in ("", "_low", "_high"):
            view[name + end] = frame[name + end]
            if controlled.any():
                view.loc[controlled, name + end] = frame.loc[controlled, f"{name}_cv{end}"]
    for name in ("fold_frequency", "win_frequency", "kickout_rate"):
        for end in ("", "_low", "_high"):
            view[name + end] = frame[name + end]
    if wide:
        view["house_edge"] = 1.0 - view["rtp_initial"]
        view["element_of_risk"] = 1.0 - view["rtp_wagered"]
        view["average_pot"] = frame["average_pot"] if "average_pot" in frame else float("nan")
        view["sd_net"] = frame["sd_net"]
        view["rounds"] = frame["rounds"]
        view["run_time_s"] = frame["run_time_s"]
        for name in ("rtp_initial", "rtp_wagered"):
            for end in ("", "_low", "_high"):
                view[f"{name}_plain{end}"] = frame[name + end]
    return view
