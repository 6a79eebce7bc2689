"""``ricochet play``, ``ricochet simulate`` and ``ricochet rtp``: thin shells over the engines.

``play`` deals one round with the reference engine (:mod:`ricochet_math.engine.round`)
and prints its hand history; ``simulate`` and ``rtp`` run the fast engine
through :mod:`ricochet_math.solvers.montecarlo`.
"""
from __future__ import annotations

import json

import numpy as np
import pandas as pd

from ricochet_math.cli.app import add_format_option, add_rules_option, load_rules_option, print_frame, subcommand
from ricochet_math.engine.deal import deal_deck, parse_players
from ricochet_math.engine.records import format_history
from ricochet_math.engine.round import play_round
from ricochet_math.evaluator.cards import format_cards
from ricochet_math.solvers.montecarlo import rtp_table, simulate
from ricochet_math.solvers.stats import Estimate

DEFAULT_RTP_SEED = 2026


def _strategy_option(parser, default, help_default: str) -> None:
    parser.add_argument(
        "--strategy", nargs="+", default=default, metavar="NAME",
        help=f"strategy for every seat, or one per seat (default: {help_default}); names: always, never, pair, "
             "beats:A9, timid, chaser, dealer-only, bonus-hunter, perfect, perfect-no-bonus, myopic, "
             "pot-odds-now, pot-odds-final (and -no-bonus), READING-vs-READING",
    )


def _pct(est) -> str:
    return f"{100 * est.estimate:.3f} ± {100 * est.half_width:.3f}"


# --------------------------------------------------------------------------
# play
# --------------------------------------------------------------------------

def _play_arguments(parser) -> None:
    add_rules_option(parser)
    add_format_option(parser)
    parser.add_argument("-n", "--num-players", type=int, default=None, metavar="N",
                        help="players 1..7 (default: the number of --players hands, else 3)")
    parser.add_argument("--dealer", default=None, metavar="CARDS",
                        help='the dealer\'s cards, up to 5 (e.g. "Ks Kd 7c 4h 2s"); missing ones are dealt at random')
    parser.add_argument("--players", nargs="+", default=None, metavar="HAND",
                        help='each seat\'s two cards in seat order (e.g. "Ad 9c" "7s 7h"; "?" for a random hand)')
    parser.add_argument("--draws", nargs="+", default=None, metavar="CARDS",
                        help="cards the drawing seats receive, three each, in acting order (the rest random)")
    parser.add_argument("--seed", type=int, default=None, metavar="INT",
                        help="seed for the random cards (default: fresh entropy, printed)")
    _strategy_option(parser, ["always"], "always")


@subcommand("play", help="deal and play one round, printed as a hand history",
            example='ricochet play --dealer "Ks Kd 7c 4h 2s" --players "Ad 9c" "7s 7h" --strategy pair',
            arguments=_play_arguments)
def _play(args) -> int:
    rules = load_rules_option(args)
    hands = [None if h.strip() in ("?", "") else h for h in (args.players or [])]
    n = args.num_players if args.num_players is not None else (len(hands) or 3)
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**63)
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
    parser.add_argument("--players", type=int, default=4, metavar="N", help="players 1..7 (default: 4)")
    _strategy_option(parser, ["always"], "always")
    parser.add_argument("--rounds", type=int, default=1_000_000, metavar="R", help="rounds (default: 1,000,000)")
    parser.add_argument("--seed", type=int, default=None, metavar="INT",
                        help="random seed (default: fresh entropy, printed with the results)")
    parser.add_argument("--workers", type=int, default=None, metavar="K",
                        help="threads (default: every core); the result does not depend on it")
    parser.add_argument("--checkpoint", default=None, metavar="FILE",
                        help="keep finished chunks in FILE, so a stopped run resumes where it was")
    parser.add_argument("--table", choices=("summary", "seats", "positions", "hands"), default="summary",
                        help="what to print: the figures (default), per seat, per acting position, final hands")


@subcommand("simulate", help="Monte Carlo run of one table: RTP, fold and win frequencies with 95 percent intervals",
            example="ricochet simulate --players 4 --strategy pair --rounds 2000000 --seed 1",
            arguments=_simulate_arguments)
def _simulate(args) -> int:
    res = simulate(load_rules_option(args), args.players, args.strategy, args.rounds, args.seed,
                   workers=args.workers, checkpoint=args.checkpoint, progress=True)
    if args.table == "seats":
        frame = res.seat_frame("seat")
    elif args.table == "positions":
        frame = res.seat_frame("position")
    elif args.table == "hands":
        frame = res.hands_frame()
    elif args.format == "table":
        rows = [(k, v.estimate, v.low, v.high) if isinstance(v, Estimate) else (k, v, None, None)
                for k, v in res.summary().items() if k not in ("rules", "players", "strategy", "rounds")]
        frame = pd.DataFrame(rows, columns=["figure", "estimate", "low_95", "high_95"])
        frame["estimate"] = frame["estimate"].map(lambda x: f"{x:.6g}")
        frame["low_95"] = frame["low_95"].map(lambda x: "" if x is None or x != x else f"{x:.6g}")
        frame["high_95"] = frame["high_95"].map(lambda x: "" if x is None or x != x else f"{x:.6g}")
    else:
        frame = res.to_frame()
    if args.format == "table":
        print(res.describe())
        print(f"  run time {res.run_time:.1f} s, chunk size {res.chunk_size}, version {res.version}\n")
    print_frame(frame, args.format)
    return 0


# --------------------------------------------------------------------------
# rtp: the main job
# --------------------------------------------------------------------------

def _rtp_arguments(parser) -> None:
    add_rules_option(parser)
    add_format_option(parser)
    parser.add_argument("--players", default="1-7", metavar="RANGE",
                        help="player counts: 1-7 (default), 4, or 2,4,7")
    _strategy_option(parser, None, "perfect")
    parser.add_argument("--rounds", type=int, default=None, metavar="R",
                        help="rounds per player count (default: 2,000,000; 4,000 with the perfect-play kernel)")
    parser.add_argument("--seed", type=int, default=DEFAULT_RTP_SEED, metavar="INT",
                        help=f"random seed, the same for every player count (default: {DEFAULT_RTP_SEED})")
    parser.add_argument("--workers", type=int, default=None, metavar="K", help="threads (default: every core)")


@subcommand("rtp", help="the main job: RTP by player count on a rule set, with 95 percent confidence intervals",
            example="ricochet rtp --players 1-7 --strategy always --rounds 1000000",
            arguments=_rtp_arguments)
def _rtp(args) -> int:
    rules = load_rules_option(args)
    players = list(parse_players(args.players))
    strategy = args.strategy or ["perfect"]
    results, frame = rtp_table(rules, players, strategy, args.rounds, args.seed, workers=args.workers,
                               progress=True)
    if args.format != "table":
        print_frame(frame, args.format)
        return 0
    first = results[0]
    print(f"RTP of rule set {rules.name} (sha256 {rules.sha256[:12]}), strategy {first.strategy}, "
          f"seed {args.seed}; Monte Carlo, 95% confidence intervals")
    rows = []
    for res in results:
        m = res.summary()
        rows.append({
            "players": res.players, "rounds": f"{res.rounds:,}",
            "RTP/wagered %": _pct(m["rtp_wagered"]), "RTP/initial bet %": _pct(m["rtp_initial"]),
            **({"RTP/wagered, controlled %": _pct(m["rtp_wagered_cv"]),
                "RTP/initial, controlled %": _pct(m["rtp_initial_cv"])} if "rtp_initial_cv" in m else {}),
            # from the controlled RTPs when the run kept them, so they match the controlled columns
            "house edge %": f"{100 * (1 - m['rtp_initial_cv'].estimate if 'rtp_initial_cv' in m else m['house_edge'].estimate):.3f}",
            "element of risk %": f"{100 * (1 - m['rtp_wagered_cv'].estimate if 'rtp_wagered_cv' in m else m['element_of_risk'].estimate):.3f}",
            "fold %": _pct(m["fold_frequency"]), "win %": _pct(m["win_frequency"]),
            "kickout %": _pct(m["kickout_rate"]), "avg pot": f"{m['average_pot'].estimate:.3f}",
            "sd net": f"{m['sd_net']:.3f}", "time s": f"{res.run_time:.1f}",
        })
    print_frame(pd.DataFrame(rows), "table")
    print("RTP/wagered = returned / (ante + play bets); RTP/initial bet = 1 + E[net] per ante; "
          "win % = rounds a seat wins or shares the pot.")
    if any(res.controlled is not None for res in results):
        print("controlled = the same RTP estimated with control variates of exactly known mean "
              "(ricochet_math.solvers.variance): same rounds, unbiased, a narrower interval.")
    return 0
