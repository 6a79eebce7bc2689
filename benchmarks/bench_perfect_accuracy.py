"""How far the perfect-play look-ahead is from exact nested enumeration.

The look-ahead in :mod:`ricochet_math.perfect` takes each later seat's draws
from the deck as it is at the decision (ignoring the cards the acting seat's
own draw removes) and splits tied pots fractionally.  Here, on random table
states where exactly one seat is still to act (N = 2, acting first; N = 3,
acting second after a seat that played or folded), its EV(play) is compared
with :func:`ricochet_math.perfect.exact_ev_one_later`, which enumerates every
draw of the acting seat and, for each, the last seat's exact perfect reply.

    python benchmarks/bench_perfect_accuracy.py --states 300 --seed 7
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from ricochet_math import perfect as P
from ricochet_math.evaluation import eval_cards, order_key
from ricochet_math.rules import load_rules
from ricochet_math.solo import bonus_lines


def random_state(rng, n_players, rules, bonus_by_value):
    """A random table at the decision of the seat in position n_players - 2."""
    cards = rng.permutation(52)
    hole = cards[: 2 * n_players].reshape(n_players, 2).astype(np.int64)
    dealer = cards[2 * n_players: 2 * n_players + 5].astype(np.int64)
    used = list(cards[: 2 * n_players + 5])
    dv = int(eval_cards(dealer))
    order = np.argsort([order_key(int(a), int(b)) for a, b in hole]).astype(np.int64)
    kicked = dv >= rules.kickout_value(n_players)
    best, dealer_in, n_tied, pot = (-1, False, 0, n_players + 1) if kicked else (dv, True, 0, n_players + 1)
    nxt = 2 * n_players + 5
    for pos in range(n_players - 2):  # earlier seats: play with a pair, else fold (a plausible history)
        s = order[pos]
        if (hole[s, 0] >> 2) == (hole[s, 1] >> 2):
            draw = cards[nxt:nxt + 3].astype(np.int64)
            nxt += 3
            used += list(draw)
            f = int(eval_cards(np.concatenate([hole[s], draw])))
            pot += 1
            if best < 0 or f > best or (f == best and dealer_in):
                best, dealer_in, n_tied = f, False, 1
            elif f == best:
                n_tied += 1
    deck = np.ones(52, dtype=np.uint8)
    deck[np.array(used)] = 0
    opts = np.array([int(rules.options.automatic_win), int(rules.options.split == "fractional"),
                     int(rules.options.dealer_loses_ties), int(rules.options.bonus_on_automatic_win), dv],
                    dtype=np.int64)
    return deck, hole, order, n_players - 2, best, dealer_in, n_tied, pot, kicked, opts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--states", type=int, default=300)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--players", type=int, nargs="*", default=[2, 3])
    args = ap.parse_args()
    rules = load_rules()
    lov, pays, _ = bonus_lines(rules.bonus)
    bonus_by_value = pays[lov].astype(np.float64)
    rng = np.random.default_rng(args.seed)
    print(f"{'N':>2} {'states':>6} {'mean |dEV|':>11} {'max |dEV|':>10} {'decision changes':>17} {'s/state':>8}")
    for n in args.players:
        errs, flips, t0 = [], 0, time.perf_counter()
        for _ in range(args.states):
            deck, hole, order, pos, best, din, nt, pot, kicked, opts = random_state(rng, n, rules, bonus_by_value)
            ev_a, _, _, _, play_a = P.seat_values(0, deck, hole, order, pos, best, din, nt, pot, kicked,
                                                  bonus_by_value, opts)
            ev_x, _ = P.exact_ev_one_later(deck, hole, order, pos, best, din, nt, pot, bonus_by_value, opts)
            errs.append(abs(ev_a - ev_x))
            flips += (ev_x > -1.0) != play_a
        dt = (time.perf_counter() - t0) / args.states
        print(f"{n:>2} {args.states:>6} {np.mean(errs):>11.5f} {np.max(errs):>10.5f} "
              f"{flips:>8} ({flips / args.states:.2%}) {dt:>8.3f}")


if __name__ == "__main__":
    main()
