"""``ricochet advise`` and ``ricochet solo``: thin shells over :mod:`advise` and :mod:`solo`."""
from __future__ import annotations

from .cli import add_format_option, add_rules_option, load_rules_option, print_frame, subcommand


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
            example='ricochet advise --dealer "Ks Kd 7c 4h 2s" --players "Ad 9c" "7s 7h" --actions - fold',
            arguments=_advise_arguments)
def _advise(args) -> int:
    from .advise import advise
    a = advise(load_rules_option(args), args.dealer, args.players, args.actions, reading=args.reading)
    if args.format == "table":
        print(a.summary())
    else:
        print_frame(a.to_frame(), args.format)
    return 0


def _solo_arguments(parser):
    add_rules_option(parser)
    add_format_option(parser)
    parser.add_argument("--sample", type=int, default=None, metavar="K",
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

    from .errors import RuleError
    from .solo import solo_analysis
    classes = None
    if args.sample is not None:
        if not 1 <= args.sample <= 169:
            raise RuleError(f"--sample must be 1..169 starting-hand classes, got {args.sample}")
        classes = np.unique(np.linspace(0, 168, args.sample).round().astype(int))
    a = solo_analysis(load_rules_option(args), classes=classes, use_bonus=not args.no_bonus_decisions,
                      progress=True)
    if args.table == "summary":
        if args.format == "table":
            print(a.summary())
        else:
            print_frame(a.to_frame(), args.format)
    elif args.table == "returns":
        print_frame(a.return_table(), args.format)
    else:
        print_frame(a.strategy_chart(), args.format)
    return 0
