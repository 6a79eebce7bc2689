"""How far the perfect-play look-ahead is from exact nested enumeration.

The look-ahead in :mod:`ricochet_math.strategies.perfect` takes each later seat's draws
from the deck as it is at the decision (ignoring the cards earlier draws
remove) and splits tied pots fractionally.  Compared here with the exact
references of :mod:`ricochet_math.solvers.nested` on random table states:

* one seat still to act (N = 2 acting first; N = 3 acting second after a seat
  that played with a pair or folded): EV(play) exact over every draw of the
  acting seat and the last seat's exact reply to each (``--states``);
* two seats still to act (N = 3, acting first): the middle seat's exact
  decision over all its draws, each answered by the last seat's exact reply,
  for ``--samples`` randomly chosen standing draws of the acting seat per
  state (``--two-states``); the EV error is estimated from the draw-by-draw
  differences with the look-ahead's own share (exact EV - look-ahead EV =
  P(stand) x mean difference), with its standard error.

Reports the mean and largest |EV error| (ante units) and how often the
decision changes (for sampled states: how many changes are outside two
standard errors, i.e. real, and how many within the noise).

    python benchmarks/bench_perfect_accuracy.py --states 2000 --two-states 200 --samples 200 --seed 7
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from ricochet_math.solvers import nested
from ricochet_math.strategies import perfect as P
from ricochet_math.evaluator.evaluation import eval_cards, order_key
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.solvers.solo_kernel import bonus_lines

PERFECT = P.readings("perfect")  # the look-ahead's own reading, for every seat


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


def first_seat_state(rng, n_players, rules):
    """A random table at the first seat's decision (nothing has happened yet)."""
    cards = rng.permutation(52)
    hole = cards[: 2 * n_players].reshape(n_players, 2).astype(np.int64)
    dv = int(eval_cards(cards[2 * n_players: 2 * n_players + 5].astype(np.int64)))
    order = np.argsort([order_key(int(a), int(b)) for a, b in hole]).astype(np.int64)
    kicked = dv >= rules.kickout_value(n_players)
    deck = np.ones(52, dtype=np.uint8)
    deck[cards[: 2 * n_players + 5]] = 0
    opts = np.array([int(rules.options.automatic_win), int(rules.options.split == "fractional"),
                     int(rules.options.dealer_loses_ties), int(rules.options.bonus_on_automatic_win), dv],
                    dtype=np.int64)
    best, dealer_in = (-1, False) if kicked else (dv, True)
    return deck, hole, order, 0, best, dealer_in, 0, n_players + 1, kicked, opts


def one_later(rng, n, states, rules, bonus_by_value):
    errs, flips, t0 = [], 0, time.perf_counter()
    for _ in range(states):
        deck, hole, order, pos, best, din, nt, pot, kicked, opts = random_state(rng, n, rules, bonus_by_value)
        ev_a, _, _, _, play_a = P.seat_values(PERFECT, deck, hole, order, pos, best, din, nt, pot, kicked,
                                              bonus_by_value, opts)
        ev_x, _ = nested.exact_one_later(deck, hole, order, pos, best, din, nt, pot, bonus_by_value, opts)
        errs.append(abs(ev_a - ev_x))
        flips += (ev_x > -1.0) != play_a
    dt = (time.perf_counter() - t0) / states
    return {"players": n, "position": n - 1, "later seats": 1, "states": states, "mean |dEV|": np.mean(errs),
            "max |dEV|": np.max(errs), "decision changes": flips, "changes within noise": 0,
            "mean s.e.": 0.0, "s/state": dt}


def two_later(rng, states, samples, rules, bonus_by_value):
    errs, ses, real, noisy, t0 = [], [], 0, 0, time.perf_counter()
    for _ in range(states):
        st = first_seat_state(rng, 3, rules)
        deck, hole, order, pos, best, din, nt, pot, kicked, opts = st
        ev_a, _, _, _, play_a = P.seat_values(PERFECT, *st[:9], bonus_by_value, opts)
        shares = P.model_shares(PERFECT, *st[:9], bonus_by_value, opts)
        draws, total = nested.standing_draws(deck, hole, order, pos, best, din, nt, opts)
        if len(draws) == 0:  # nothing stands: both EVs are the bonus alone
            errs.append(0.0)
            ses.append(0.0)
            continue
        k = min(samples, len(draws))
        pick = draws[np.sort(rng.choice(len(draws), size=k, replace=False))]
        values, exact = nested.exact_two_later_shares(deck, hole, order, pos, best, din, nt, pot,
                                                      bonus_by_value, opts, pick)
        diff = exact - shares[values]
        p_stand = len(draws) / total
        fpc = 1.0 - k / len(draws)  # sampled without replacement from the standing draws
        se = p_stand * (diff.std(ddof=1) if k > 1 else 0.0) / np.sqrt(k) * np.sqrt(max(fpc, 0.0))
        d_ev = p_stand * diff.mean()
        errs.append(abs(d_ev))
        ses.append(se)
        ev_x = ev_a + d_ev
        if (ev_x > -1.0) != play_a:
            if abs(ev_x + 1.0) > 2.0 * se:
                real += 1
            else:
                noisy += 1
    dt = (time.perf_counter() - t0) / states
    return {"players": 3, "position": 1, "later seats": 2, "states": states, "mean |dEV|": np.mean(errs),
            "max |dEV|": np.max(errs), "decision changes": real, "changes within noise": noisy,
            "mean s.e.": np.mean(ses), "s/state": dt}


def main(argv=None):
    import pandas as pd

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--states", type=int, default=2000, help="states per one-later configuration")
    ap.add_argument("--two-states", type=int, default=200, help="N = 3 first-seat states (two later seats)")
    ap.add_argument("--samples", type=int, default=200, help="sampled acting-seat draws per two-later state")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--players", type=int, nargs="*", default=[2, 3])
    ap.add_argument("--write", default=None, help="CSV file for the table")
    args = ap.parse_args(argv)
    rules = load_rules()
    lov, pays, _ = bonus_lines(rules.bonus)
    bonus_by_value = pays[lov].astype(np.float64)
    rng = np.random.default_rng(args.seed)
    rows = [one_later(rng, n, args.states, rules, bonus_by_value) for n in args.players if args.states > 0]
    if args.two_states > 0:
        rows.append(two_later(rng, args.two_states, args.samples, rules, bonus_by_value))
    table = pd.DataFrame(rows)
    print(table.to_string(index=False, float_format=lambda x: f"{x:.5f}"))
    if args.write:
        table.to_csv(args.write, index=False)


if __name__ == "__main__":
    main()
