"""The PAR-sheet items of the casino report (issue 28): cycles, maximum win and liability, return by
acting position, the combined return of every bet, and the alternative paytables' RTP.

Every function returns a ``pandas.DataFrame`` at full precision (a CSV under
``tables/``); :mod:`~ricochet_math.reports.par_sections` formats them.  Amounts
are in ante units; a side bet's are per unit staked.

* **Cycle**: the number of equally likely outcomes an exactly computed figure
  is counted over (a PAR sheet's "cycle"): a deal, or a deal and its draw.
* **Maximum win per seat**: the most one seat can net in one round under the
  rules (any decisions): every seat plays, so the pot holds the dealer's ante
  and each seat's ante and play bet (1 + 2N), and the seat wins it alone
  holding the best-paid bonus hand: ``2N - 1 + top bonus``.  The weaker seats
  lose to it, so the hand that wins is the hand that pays.
* **Maximum liability per table**: the most the house can pay out in one round
  of the main game: its ante, lost to the winning seat, plus the bonuses of
  all N seats.  The seats' final hands must be disjoint five-card hands (there
  are four royal flushes), so the bonuses are packed greedily over every
  five-card hand, best-paid first, and each hand is checked with the
  evaluator.  The side bets' largest payouts are listed per unit staked beside
  it; they are not added to it (a Cover win needs a strong dealer hand, a
  Quickdraw win a weak one).
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd

from ricochet_math.evaluator.cards import format_cards
from ricochet_math.evaluator.evaluation import all_five_card_values, evaluate
from ricochet_math.evaluator.names import describe

__all__ = ["N_DEALS", "N_DRAWS", "N_DEALER_HANDS", "cycles", "max_outcomes", "pack_bonus_hands",
           "by_position", "combined_return", "alternative_paytables"]

N_DEALER_HANDS = math.comb(52, 5)                 # 2,598,960
N_DEALS = math.comb(52, 2) * math.comb(50, 5)     # 2,809,475,760: two player cards, five dealer cards
N_DRAWS = math.comb(45, 3)                        # 14,190 three-card draws from the 45 unseen cards
#: what a bonus table's RTP in the appendix is: the whole main game's, with that bonus table
MAIN_GAME_UNIT = "main game with this bonus, per initial bet, 1 player, perfect play"


def cycles(d) -> pd.DataFrame:
    """The cycle of every exactly computed part of the report: what is counted and how many equally likely
    outcomes.  ``complete`` is False where the build sampled the N = 1 classes (test sizes)."""
    solo_done = bool(d.solo.complete)
    rows = [
        ("Main game, 1 player (perfect play), its return table and the high-hand bonus",
         "a deal (2 player cards, 5 dealer cards) and the player's 3-card draw", N_DEALS * N_DRAWS, solo_done),
        ("Perfect play ignoring the bonus, 1 player (published-figures reading)",
         "a deal and the player's 3-card draw", N_DEALS * N_DRAWS, solo_done),
        ("RTP against the kickout threshold, 1 player", "a deal and the player's 3-card draw",
         N_DEALS * N_DRAWS, solo_done),
        ("Quickdraw (both comparisons)", "a deal (the player's 2 cards and the dealer's 5)", N_DEALS, True),
        ("Cover", "the dealer's 5 cards", N_DEALER_HANDS, True),
        ("Kickout rate, each player count", "the dealer's 5 cards", N_DEALER_HANDS, True),
    ]
    return pd.DataFrame([{"part": p, "outcome": o, "cycle_count": int(c), "complete": done} for p, o, c, done in rows])


def _pays_by_value(table) -> np.ndarray:
    """``float64[7462]``: what ``table`` (a :class:`~ricochet_math.rules.ruleset.Paytable`) pays per hand value."""
    thresholds, pays = table.to_arrays()
    values = np.arange(7462)
    i = np.searchsorted(thresholds, values, side="right") - 1
    return np.where(i >= 0, pays[np.maximum(i, 0)], 0.0)


_ALL_HANDS: np.ndarray | None = None


def _all_hands() -> np.ndarray:
    """``int8[2_598_960, 5]``: every five-card hand in the lexicographic order of ``all_five_card_values``."""
    global _ALL_HANDS
    if _ALL_HANDS is None:
        _ALL_HANDS = np.array(list(itertools.combinations(range(52), 5)), dtype=np.int8)
    return _ALL_HANDS


def pack_bonus_hands(table, seats: int) -> list[tuple[int, ...]]:
    """``seats`` disjoint five-card hands, best-paid first, taken greedily over every five-card hand
    (best pay first, then the lexicographic order of the cards).  Each hand is a tuple of card numbers."""
    pay = _pays_by_value(table)[all_five_card_values()]
    order = np.argsort(-pay, kind="stable")
    hands, used = [], set()
    cards = _all_hands()
    for i in order[: 200_000]:  # far more than 7 seats ever need; stops at the first unpaid hand
        if pay[i] <= 0 or len(hands) == seats:
            break
        h = tuple(int(c) for c in cards[i])
        if used.isdisjoint(h):
            hands.append(h)
            used.update(h)
    return hands


def max_outcomes(rules, players=range(1, 8)) -> pd.DataFrame:
    """Per player count: the largest net win of one seat and the largest payout of the house in one round
    of the main game, with the hands that produce them, and the side bets' largest payouts per unit staked
    (see the module docstring for the rules behind each)."""
    pay = _pays_by_value(rules.bonus)
    top_value = int(np.flatnonzero(pay == pay.max())[-1])  # the strongest of the best-paid hands
    top = float(pay.max())
    qd_pays = float(rules.quickdraw.pays)
    cover_pays = max((float(line.pays) for line in rules.cover), default=0.0)
    cover_line = max(rules.cover, key=lambda ln: (float(ln.pays), ln.value())).key if len(rules.cover) else ""
    rows = []
    for n in players:
        packed = pack_bonus_hands(rules.bonus, n)
        values = evaluate(np.array(packed, dtype=np.int64), parallel=False) if packed else np.array([], int)
        bonuses = [float(pay[int(v)]) for v in values]
        seat_max = 2 * n - 1 + top
        rows.append({
            "players": n,
            "largest_net_win": seat_max,
            "largest_net_win_hand": f"{describe(top_value)} winning a pot of {1 + 2 * n} antes alone (every seat played)",
            "largest_house_payout": 1.0 + sum(bonuses),
            "largest_house_payout_hands": "; ".join(f"{format_cards(h)} ({describe(int(v)).split(',')[0]}, pays {b:g})"
                                         for h, v, b in zip(packed, values, bonuses)),
            "quickdraw_largest_win_per_unit": qd_pays,
            "cover_largest_win_per_unit": cover_pays,
            "cover_largest_line": cover_line,
            "every_bet_upper_bound": seat_max + qd_pays + cover_pays,
        })
    return pd.DataFrame(rows)


def by_position(perfect: dict) -> pd.DataFrame:
    """RTP per initial bet and hit frequency by acting position (1 = acts first: the lowest two-card hand)
    for each simulated player count, perfect play, with 95% intervals (plain sample means: the control
    variates are kept per table, not per position)."""
    frames = []
    for n in sorted(k for k in perfect if k >= 2):
        r = perfect[n]
        f = r.seat_frame("position")
        f.insert(0, "players", n)
        f.insert(2, "rounds", r.rounds)
        frames.append(f[["players", "position", "rounds", "rtp_initial", "rtp_initial_low", "rtp_initial_high",
                         "hit_frequency", "hit_frequency_low", "hit_frequency_high", "fold_frequency",
                         "fold_frequency_low", "fold_frequency_high"]])
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def combined_return(main, quickdraw, cover) -> pd.DataFrame:
    """A player who makes every bet: the main game (perfect play: ante and play bets) plus one unit on
    Quickdraw and one on Cover each round.  Per player count: the amount wagered per round, the expected
    net of each bet, the combined RTP per total wagered (its 95% interval from the main game's; the side
    bets are exact) and each bet's share of the hold (expected loss).  ``main``:
    :func:`~ricochet_math.reports.figures.main_rows`; ``quickdraw``/``cover``: the exact side-bet results."""
    qd_net, cv_net = float(quickdraw.rtp) - 1.0, float(cover.rtp) - 1.0
    rows = []
    for r in main.itertuples():
        wagered = float(r.average_wagered) + 2.0
        nets = {"main": float(r.rtp_initial) - 1.0, "quickdraw": qd_net, "cover": cv_net}
        total = sum(nets.values())
        side = qd_net + cv_net
        hold = -total
        row = {"players": int(r.players), "method": r.method, "wagered_per_round": wagered,
               "main_net": nets["main"], "quickdraw_net": qd_net, "cover_net": cv_net, "total_net": total,
               "rtp_combined": 1.0 + total / wagered,
               "rtp_combined_low": 1.0 + (float(r.rtp_initial_low) - 1.0 + side) / wagered,
               "rtp_combined_high": 1.0 + (float(r.rtp_initial_high) - 1.0 + side) / wagered}
        for k, v in nets.items():
            row[f"{k}_hold_share"] = (-v / hold) if hold > 0 else math.nan
        rows.append(row)
    return pd.DataFrame(rows)


def alternative_paytables(rules, alternatives, solo_classes=None, progress: bool = False) -> pd.DataFrame:
    """One line per alternative bonus or Cover table: its RTP with everything else of ``rules`` kept, N = 1
    exact (the bonus under perfect play for that bonus table; Cover per unit staked).  ``alternatives``:
    (label, rule set) pairs; a rule set's bonus table is an alternative where it differs from ``rules``',
    and so is its Cover table.  ``solo_classes``: the sampled N = 1 classes of a test size (None: all)."""
    from ricochet_math.design.cover import cover
    from ricochet_math.solvers.exact_row import exact_figures
    from ricochet_math.solvers.solo import solo_analysis

    classes = None if solo_classes is None else np.asarray(solo_classes, dtype=np.int64)
    rows = []

    def table_text(table) -> str:
        return ", ".join(f"{ln.key} {float(ln.pays):g}" for ln in table)

    base = solo_analysis(rules, classes=classes, progress=False)
    rows.append({"table": "bonus", "source": f"{rules.name} (in force)", "paytable": table_text(rules.bonus),
                 "rtp": float(exact_figures(base)["rtp_per_initial_bet"]), "unit": MAIN_GAME_UNIT,
                 "complete": bool(base.complete)})
    rows.append({"table": "Cover", "source": f"{rules.name} (in force)", "paytable": table_text(rules.cover),
                 "rtp": float(cover(rules).rtp), "unit": "unit staked", "complete": True})
    for label, alt in alternatives:
        if alt.bonus != rules.bonus:
            a = solo_analysis(rules.replace(bonus=alt.bonus), classes=classes, progress=progress)
            rows.append({"table": "bonus", "source": label, "paytable": table_text(alt.bonus),
                         "rtp": float(exact_figures(a)["rtp_per_initial_bet"]),
                         "unit": MAIN_GAME_UNIT, "complete": bool(a.complete)})
        if alt.cover != rules.cover:
            rows.append({"table": "Cover", "source": label, "paytable": table_text(alt.cover),
                         "rtp": float(cover(rules.replace(cover=alt.cover)).rtp), "unit": "unit staked",
                         "complete": True})
    return pd.DataFrame(rows)
