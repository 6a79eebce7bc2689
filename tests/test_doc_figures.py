"""Every figure that docs/home-game.md, docs/rules.md and docs/methods/*.md quote from a committed table is
checked here against that table (issues 25 and 27): the test formats the figure from the CSV and requires the
exact text in the doc (whitespace-normalised), as ``tests/test_doc_claims.py`` does for the other games.

Sources: ``reports/home/tables/*.csv`` (the home game's short report, size ``small``, seed 2026),
``reports/claims/home-depth-error-room5.csv``, ``reports/publisher/tables/*.csv`` (the casino report),
``reports/*.csv`` and ``benchmarks/README.md``'s profile table.  A regenerated table that moves a figure
fails here until the prose is updated from it.
"""
from __future__ import annotations

import math
import re
from functools import lru_cache
from pathlib import Path

import pandas as pd
import pytest

from ricochet_math.reports.published import PUBLISHED

ROOT = Path(__file__).resolve().parents[1]
HOME = ROOT / "reports" / "home" / "tables"
PUB = ROOT / "reports" / "publisher" / "tables"
MAIN = "limit 5, 1 card (Ricochet II)"  # the report's main variation
SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
MACHINE_GB = 23  # the machine's memory as the page states it (the multiples are checked against it)


@lru_cache(maxsize=None)
def csv(path: str) -> pd.DataFrame:
    return pd.read_csv(ROOT / path)


#: the benchmarks' tables the home page quotes (reports/claims/: a report rebuild replaces its own folder)
_CLAIMS = ("home-tree-size.csv", "home-tree-size-by-deal.csv", "home-deal-error.csv")


def home(name: str) -> pd.DataFrame:
    return csv(f"reports/claims/{name}" if name in _CLAIMS else f"reports/home/tables/{name}")


@lru_cache(maxsize=None)
def doc(name: str) -> str:
    return " ".join((ROOT / "docs" / name).read_text(encoding="utf-8").split())


def minus(text: str) -> str:
    """The page's typographic minus for a leading or spaced ASCII one."""
    return re.sub(r"(?<![\w-])-(?=\d)", "−", text)


def ev(v, lo, hi, d=2) -> str:
    """``−0.82 ± 0.08``: a signed estimate and half its 95% interval."""
    return minus(f"{v:+.{d}f} ± {(hi - lo) / 2:.{d}f}")


def cards(text: str) -> str:
    """``Kd 5h`` -> ``K♦5♥`` (the page's card text)."""
    return "".join(c[0] + SUITS[c[1]] for c in text.split())


def gb(x: float) -> str:
    return f"{x:.0f} GB" if x < 999.5 else f"{x / 1e3:.1f} TB" if x < 999_500 else f"{x / 1e6:.2f} PB"


def pct0(x: float) -> str:
    return minus(f"{100 * x:.0f}")


# ---------------------------------------------------------------------------------------------- home-game.md

def _home_speed() -> list[tuple[str, str]]:
    t = home("home-tests.csv").set_index(["variation", "strategy", "players"])
    ml, po = t.loc[(MAIN, "min-lift", 4)], t.loc[(MAIN, "pot-odds", 4)]
    return [("home-game.md", f"{int(ml.games):,} four-player games in {ml.run_time_s:.2f} s with `min-lift` and "
                             f"{po.run_time_s:.2f} s with `pot-odds`")]


def _home_by_order() -> list[tuple[str, str]]:
    o, t = home("home-by-order.csv"), home("home-tests.csv").set_index(["variation", "strategy", "players"])
    part = o[(o.variation == MAIN) & (o.strategy == "pot-odds")]
    assert set(part.games) == {20_000}  # "20,000 games per cell"
    out = []
    for n in (2, 4, 6, 8):
        rows = part[part.players == n].sort_values("position")
        evs = ", ".join(ev(r.ev, r.ev_low, r.ev_high) for r in rows.itertuples())
        out.append(("home-game.md", f"| {n} | {evs} | {t.loc[(MAIN, 'pot-odds', n)].seat_p_value:.2f} |"))
    return out


def _home_vs_casino() -> list[tuple[str, str]]:
    c = home("home-vs-casino.csv")
    out = []
    for n in (2, 4, 7):
        part = c[c.players == n].set_index("position")
        first, last = part.loc[1], part.loc[n]

        def cell(r, col):
            return f"{pct0(r[col])}% ({pct0(r[col + '_low'])} to {pct0(r[col + '_high'])})"

        out.append(("home-game.md", f"| {n} | {cell(first, 'casino_return')} | {cell(first, 'home_return_by_order')} | "
                                    f"{cell(last, 'casino_return')} | {cell(last, 'home_return_by_order')} |"))
    return out


def _home_spread() -> list[tuple[str, str]]:
    o, t = home("home-by-order.csv"), home("home-tests.csv")
    plain = o[o.strategy != "optimal"]
    spread = {k: g.sort_values("position").ev.iloc[-1] - g.sort_values("position").ev.iloc[0]
              for k, g in plain.groupby(["variation", "strategy", "players"])}
    ml = [s for (v, st, n), s in spread.items() if st == "min-lift"]
    ml_half = ((plain.ev_high - plain.ev_low) / 2)[plain.strategy == "min-lift"].max()
    r7 = o[(o.variation == "limit 7, 2 cards") & (o.strategy == "pot-odds") & (o.players == 8)
           & (o.position == 8)].iloc[0]
    opt = t[t.strategy == "optimal"].set_index("players")
    others = t[t.strategy != "optimal"]
    bound = math.floor(math.log10(others.order_p_value.max()))  # every rejection is below 10^bound
    sup = str(bound).replace("-", "⁻").translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
    p3 = f"{opt.loc[3].order_p_value:.1e}".split("e")
    runs = t[t.strategy != "optimal"]
    return [
        ("home-game.md", f"widens it: {ev(r7.ev, r7.ev_low, r7.ev_high)} chips for the last of eight"),
        ("home-game.md", f"still {min(ml):.1f} to {max(ml):.1f} chips between the first and the last (the point "
                         f"estimates; each position's EV is within ± {ml_half:.2f})"),
        # the optimal strategy's two runs of 100 games support no finding (issue 36): left out of the count
        ("home-game.md", f"the 5% level shared over the {len(runs)} runs of `min-lift` and `pot-odds` (smallest "
                         f"p-value {runs.seat_p_value.min():.3f}; 0.05/{len(runs)} = {0.05 / len(runs):.5f};"),
        ("home-game.md", f"as expected of {len(runs)} uniform p-values"),
        ("home-game.md", f"rejects with p below 10{sup}; of the optimal strategy's two small runs "
                         f"({int(opt.loc[2].games)} games each), the two-player one does not "
                         f"(p = {opt.loc[2].order_p_value:.2f}) and the three-player one does "
                         f"(p = {p3[0]} × 10{str(int(p3[1])).replace('-', '⁻').translate(str.maketrans('0123456789', '⁰¹²³⁴⁵⁶⁷⁸⁹'))})"),
        ("home-game.md", f"the lowest card is, by {min(spread.values()):.1f} to {max(spread.values()):.1f} chips "
                         "per game against the highest"),
    ]


def _home_by_start() -> list[tuple[str, str]]:
    s = home("home-by-start-4p.csv").set_index("start_card")

    def e(card):
        r = s.loc[card]
        return ev(r.ev, r.ev_low, r.ev_high)

    assert list(s.index) == list("23456789TJQKA")  # no joker row: the page quotes none
    return [("home-game.md", f"from {e('2')} to {e('4')} chips for a two to a four, to {e('A')} for an ace")]


def _home_solver_reach() -> list[tuple[str, str]]:
    t = home("home-tree-size.csv")
    v = t[t.kind == "validation"]
    out = []
    for r in v.itertuples():
        out.append(("home-game.md", f"| {cards(r.first)} v {cards(r.second)} ({r.pot}) | {r.room} | "
                                    f"{int(r.solver_positions):,} | {r.solver_seconds:.2f}"))
    d2 = t[(t.kind == "deal, 2 card(s)") & (t["first"] == "4c 5d")].iloc[0]
    d1 = t[(t.kind == "deal, 1 card(s)") & (t["first"] == "7s")].iloc[0]
    full25 = 3 * 2 ** 25 // 4  # a 2^25-slot table at most 3/4 full
    assert d2.estimate > full25
    out += [
        ("home-game.md", f"| the deal {cards(d2.first)} v {cards(d2.second)} ({d2.pot}) | {d2.room} | estimated "
                         f"{d2.estimate / 1e6:.1f} million ({d2.low / 1e6:.1f} to {d2.high / 1e6:.1f}): more than "
                         f"the {full25 / 1e6:.1f} million a {2 ** 25 * 56 / 1e9:.1f} GB table holds | not run |"),
        ("home-game.md", f"| the deal {cards(d1.first)} v {cards(d1.second)} ({d1.pot}) | {d1.room} | estimated "
                         f"{d1.estimate / 1e9:.2f} billion ({d1.low / 1e9:.2f} to {d1.high / 1e9:.2f}) | not run |"),
        ("home-game.md", f"in up to {v[v.room == 5].solver_seconds.max():.1f} s, and one at six, in "
                         f"{v[v.room == 6].solver_seconds.max():.0f} s"),
        ("home-game.md", f"(`strategies.EXACT_TWO_HAND_ROOM`: the four-card position above, "
                         f"{int(v[v.room == 4].solver_positions.iloc[0]):,} positions, took "
                         f"{v[v.room == 4].solver_seconds.iloc[0]:.2f} s; `optimal:5` or `optimal:6` go further, at the "
                         f"solve times above for a decision: five cards {v[v.room == 5].solver_seconds.min():.1f} to "
                         f"{v[v.room == 5].solver_seconds.max():.1f} s, six {v[v.room == 6].solver_seconds.max():.0f} s)"),
    ]
    # 56 bytes a position at limit 5: the memo column is the estimate times 56
    assert (t.memo_gb * 1e9 / t.estimate).round(6).eq(56).all()
    return out


def _home_validation() -> list[tuple[str, str]]:
    t, d = home("home-tree-size.csv"), home("home-deal-error.csv")
    v = t[(t.kind == "validation") & (t.room >= 3)]
    out = []
    for r in v.itertuples():
        counted = f"{int(r.counted):,}" if not math.isnan(r.counted) else ""
        assert r.low <= r.solver_positions <= r.high  # "every interval holds the solver's count"
        out.append(("home-game.md", f"| {cards(r.first)} v {cards(r.second)} ({r.pot}) | {r.room} | "
                                    f"{int(r.solver_positions):,} | {counted} | {r.estimate:,.0f} "
                                    f"({r.low:,.0f} to {r.high:,.0f}) |"))
    for r in d.itertuples():
        assert r.estimate_low <= r.positions <= r.estimate_high
        out.append(("home-game.md", f"| deal {cards(r.first)} v {cards(r.second)} ({r.pot}) | 6 | {r.positions:,} | | "
                                    f"{r.estimate:,.0f} ({r.estimate_low:,.0f} to {r.estimate_high:,.0f}) |"))
    four = t[(t.kind == "validation") & (t.room == 4)].iloc[0]
    six = t[(t.kind == "validation") & (t.room == 6)].iloc[0]
    deal = t[(t.kind == "deal, 1 card(s)") & (t["first"] == "7s")].iloc[0]
    out += [
        ("home-game.md", f"The tree without a memo: {four.tree_nodes:,.0f} nodes at four cards of room (estimated from "
                         f"the sampled pairs; Knuth {four.knuth_nodes:,.0f}, {four.knuth_low:,.0f} to "
                         f"{four.knuth_high:,.0f}), {deal.tree_nodes / 1e12:.2f} × 10¹² for the deal 7♠ v K♦ (Knuth "
                         f"{deal.knuth_nodes / 1e12:.2f} × 10¹², {deal.knuth_low / 1e12:.2f} to "
                         f"{deal.knuth_high / 1e12:.2f})"),
        ("home-game.md", f"the memo merges {four.merge_ratio:.1f} tree nodes into one position at four cards of room, "
                         f"{six.merge_ratio:.0f} at six, {deal.merge_ratio:.0f} at the deal"),
    ]
    return out


def _home_deals() -> list[tuple[str, str]]:
    t = home("home-tree-size.csv")
    one = t[t.kind == "deal, 1 card(s)"]
    assert (one.sampled_pairs.round(-4) == 500_000).all()  # "500,000 sampled pairs a deal"
    rate = t.solver_rate.iloc[0]
    assert t.solver_rate.nunique() == 1
    out = [("home-game.md", f"{rate:,.0f} positions a second for the 16-million-position solve above")]
    for r in one.itertuples():
        tag = " (the suit tie-break)" if (r.first, r.second) == ("Ks", "Kh") else ""
        out.append(("home-game.md", f"| {cards(r.first)} v {cards(r.second)}{tag} | {r.estimate / 1e9:.2f} billion "
                                    f"({r.low / 1e9:.2f} to {r.high / 1e9:.2f}) | {gb(r.memo_gb)} | {gb(r.table_gb)} | "
                                    f"{r.hours_at_rate:.1f} |"))
    s = t[t.kind.str.startswith("all 1,326")].iloc[0]
    mean = t[t.kind == "mean deal"].iloc[0]
    small = t[t.kind.str.startswith("smallest deal")].iloc[0]
    large = t[t.kind.str.startswith("largest deal")].iloc[0]
    assert int(s.sampled_pairs) == 1000
    years = s.hours_at_rate / (24 * 365.25)

    def named(r):  # "smallest deal Kd v As" -> "K♦ v A♠"
        return " v ".join(cards(x) for x in r.kind.split("deal ")[1].split(" v "))

    out += [
        ("home-game.md", f"| every one of the 1,326 unordered deals, summed (1,000 sampled pairs a deal, a seed each) | "
                         f"{s.estimate / 1e12:.2f} trillion ({s.low / 1e12:.2f} to {s.high / 1e12:.2f}) | "
                         f"{gb(s.memo_gb)} | | {s.hours_at_rate:,.0f} ({years:.1f} years) |"),
        ("home-game.md", f"| the mean deal | {mean.estimate / 1e9:.2f} billion ({mean.low / 1e9:.2f} to "
                         f"{mean.high / 1e9:.2f}) | {gb(mean.memo_gb)} | | {mean.hours_at_rate:.1f} |"),
        ("home-game.md", f"| the smallest in that scan (a minimum of noisy estimates: low): {named(small)} | "
                         f"{small.estimate / 1e9:.1f} billion ({small.low / 1e9:.1f} to {small.high / 1e9:.1f}) | "
                         f"{gb(small.memo_gb)} | {gb(small.table_gb)} | {small.hours_at_rate:.1f} |"),
        ("home-game.md", f"| the largest in that scan: {named(large)} | {large.estimate / 1e9:.1f} billion "
                         f"({large.low / 1e9:.1f} to {large.high / 1e9:.1f}) | {gb(large.memo_gb)} | "
                         f"{gb(large.table_gb)} | {large.hours_at_rate:.1f} |"),
    ]
    kc = one[(one["first"] == "Kc") & (one.second == "Ac")].iloc[0]
    out.append(("home-game.md", f"(a king against an ace: {kc.estimate / 1e9:.2f} billion for K♣ v A♣, "
                                f"{small.estimate / 1e9:.1f} for {named(small)}) and largest where the two cards are "
                                f"low and close ({named(large)}: {large.estimate / 1e9:.1f} billion)"))
    two = t[t.kind == "deal, 2 card(s)"]
    assert len(two) == 4
    parts = [f"{cards(r.first)} v {cards(r.second)} {r.estimate / 1e6:.2f} ({r.low / 1e6:.2f} to {r.high / 1e6:.2f})"
             for r in two.itertuples()]
    biggest = two.loc[two.estimate.idxmax()]
    deals2 = math.comb(52, 2) * math.comb(50, 2) // 2
    d = home("home-deal-error.csv")
    out += [
        ("home-game.md", f"has {two.estimate.min() / 1e6:.1f} to {two.estimate.max() / 1e6:.0f} million positions "
                         f"(estimates and 95% intervals, millions: {'; '.join(parts)}; the last "
                         f"{biggest.memo_gb:.1f} GB of memo)"),
        ("home-game.md", f"the four solved below took {d.solve_and_score_seconds.min():.0f} to "
                         f"{d.solve_and_score_seconds.max():.0f} s each with their scoring, but all "
                         f"{deals2:,} unordered two-card deals"),
        ("home-game.md", f"one deal needs {gb(small.memo_gb)} to {gb(large.memo_gb)} of memo, "
                         f"{small.memo_gb / MACHINE_GB:.0f} to {large.memo_gb / MACHINE_GB:.0f} times the machine's "
                         f"memory, and {small.hours_at_rate:.1f} to {large.hours_at_rate:.1f} hours of one thread"),
        ("home-game.md", f"every deal, about {s.estimate / 1e12:.0f} trillion positions ({gb(s.memo_gb)}, "
                         f"{years:.1f} years)"),
        ("home-game.md", f"of this machine** ({MACHINE_GB} GB, shared)"),
    ]
    return out


def _home_deal_error() -> list[tuple[str, str]]:
    d = home("home-deal-error.csv")
    out = []

    def v(x):
        return minus(f"{x:.4f}".rstrip("0").rstrip(".")) if x != -1 else "−1"

    def regret(x):
        return "0" if x == 0 else f"{x:.3f}"

    for r in d.itertuples():
        assert r.draws == 256 and r.seed == 2026 and r.first_best_response == -1
        out.append(("home-game.md", f"| {cards(r.first)} v {cards(r.second)} | {r.positions:,} | {v(r.exact)} | "
                                    f"{v(r.both)} | {v(r.both_exact_pk)} | {v(r.second_best_response)} | "
                                    f"{r.decisions}: {100 * r.agree:.0f}%, {regret(r.mean_regret)} / {regret(r.max_regret)} |"))
    assert (d.exact == -1).all()  # "in all four deals the exact first move is to fold at once"
    # "the pot-odds rule sometimes buys there (at 7♠8♦, K♥Q♠ and K♥J♠ ...)": a first move that always folds is
    # worth exactly -1, so a lower value means it bought in some generator states
    assert list(d.loc[d.both < -1, "first"]) == ["7s 8d", "Kh Qs", "Kh Js"]
    same = d.exact - d.both
    br = d.exact - d.second_best_response
    more = br - same
    kj = (d["first"] == "Kh Js")
    assert (more[~kj] < 1e-4).all()
    out += [
        ("home-game.md", f"gives up {same.min():.0f} to {same.max():.3f} chips a game against an opponent who plays "
                         f"the same abstraction, and {br.min():.0f} to {br.max():.3f} against one who best-responds "
                         f"to it ({more[kj].iloc[0]:.3f} more at K♥J♠, under 0.0001 more at the others)"),
    ]
    assert d.optimal_mc_inside.all() and set(d.games) == {4000} and set(d.kernel_games) == {500_000}
    z = 1.959963984540054
    sims = ", ".join(f"{minus(f'{r.optimal_mc:.{4 if r.optimal_mc_se < 0.01 else 3}f}')} ± "
                     f"{z * r.optimal_mc_se:.{4 if r.optimal_mc_se < 0.01 else 3}f} at {cards(r.first)}"
                     for r in d.itertuples() if r.optimal_mc_se > 0)
    half = [z * s for s in d.pot_odds_mc_se if s > 0]
    kern = ", ".join(v(x) if x == -1 else minus(f"{x:.4f}") for x in d.pot_odds_mc)
    out += [
        ("home-game.md", f"interval of the computed value at every deal ({sims})"),
        ("home-game.md", f"500,000 games: {kern} (± {min(half):.4f} to {max(half):.4f})"),
    ]
    return out


def _home_depth_error() -> list[tuple[str, str]]:
    t = home("home-depth-error.csv")
    label = {"depth 1": "depth 1 (showdown at the cut)", "depth 2": "depth 2", "pot-odds": "pot-odds rule",
             "min-lift": "min-lift"}
    out = []

    def num(x, d):
        return "0" if x == 0 else f"{x:#.{d}g}"

    for endgame, part in t.groupby("endgame", sort=False):
        head = "2 players, room ≤ 4" if endgame.startswith("2 players") else "4 v 4 v 4 cards"
        for i, r in enumerate(part.itertuples()):
            name = label[r.method] if head.startswith("2") else label[r.method].split(" (")[0]
            left = f" ({int(r.left_out)} left out)" if r.left_out else ""
            agree = f"{100 * r.agree:.1f}".rstrip("0").rstrip(".")
            out.append(("home-game.md", f"| {head if i == 0 else ''} | {name} | {r.positions}{left} | {agree}% | "
                                        f"{num(r.mean_regret, 2)} | {num(r.max_regret, 2)} |"))
    two = t[t.endgame.str.startswith("2 players")].set_index("method")
    three = t[~t.endgame.str.startswith("2 players")].set_index("method")
    assert two.loc["pot-odds"].positions == 70
    out += [("home-game.md", f"the pot-odds rule gives up {two.loc['pot-odds'].mean_regret:.3f} chips a decision at "
                             f"two players ({three.loc['pot-odds'].mean_regret:.2f} at three"),
            ("home-game.md", f"gives up {two.loc['min-lift'].mean_regret:.1f} chips a decision")]
    r5 = csv("reports/claims/home-depth-error-room5.csv").set_index("method")
    d1, po, ml = r5.loc["depth 1"], r5.loc["pot-odds"], r5.loc["min-lift"]
    assert r5.seed.iloc[0] == 2027 and po.positions == d1.positions + d1.left_out
    out.append(("home-game.md", f"(`reports/claims/home-depth-error-room5.csv`: the {int(po.positions)} such decisions of {r5.games.iloc[0]} two-player pot-odds games, "
                                f"seed {r5.seed.iloc[0]}, {r5.seconds.iloc[0]:.0f} s under load) the same measures give: "
                                f"depth 1 agrees on {100 * d1.agree:.1f}% of {int(d1.positions)} ({int(d1.left_out)} over "
                                f"its budget), mean regret {d1.mean_regret:.3f}, max {d1.max_regret:.2f}; the pot-odds "
                                f"rule {100 * po.agree:.1f}% of {int(po.positions)}, mean {po.mean_regret:.3f}, max "
                                f"{po.max_regret:.2f}; min-lift {100 * ml.agree:.0f}%, mean {ml.mean_regret:.2f}, max "
                                f"{ml.max_regret:.2f} chips"))
    return out


def _home_optimal() -> list[tuple[str, str]]:
    o, s = home("home-by-order.csv"), home("home-by-seat.csv")
    t = home("home-tests.csv").set_index(["variation", "strategy", "players"])
    oo = o[(o.strategy == "optimal") & (o.players == 2)].set_index("position")
    so = s[(s.strategy == "optimal") & (s.players == 2)].set_index("seat")
    po = o[(o.strategy == "pot-odds") & (o.players == 2) & (o.variation == MAIN)].set_index("position")
    opt = t.loc[(MAIN, "optimal", 2)]
    f, pf = oo.loc[1], po.loc[1]
    # the pot-odds run's first-to-act EV lies inside the optimal run's interval: "no detectable difference"
    assert f.ev_low < pf.ev < f.ev_high
    return [("home-game.md",
             f"(the report at size `small`: readable engine, {int(opt.games)} games, seed 2026): by order of play the "
             f"first to act {ev(f.ev, f.ev_low, f.ev_high)} chips per game, the second "
             f"{ev(oo.loc[2].ev, oo.loc[2].ev_low, oo.loc[2].ev_high)} (Wald test of equal EV by order "
             f"p = {opt.order_p_value:.2f}); by seat {ev(so.loc[1].ev, so.loc[1].ev_low, so.loc[1].ev_high)} and "
             f"{ev(so.loc[2].ev, so.loc[2].ev_low, so.loc[2].ev_high)} (p = {opt.seat_p_value:.2f}). The pot-odds rule "
             f"at both seats (kernel, {int(pf.games):,} games, seed 2026) gives {ev(pf.ev, pf.ev_low, pf.ev_high)} and "
             f"{ev(po.loc[2].ev, po.loc[2].ev_low, po.loc[2].ev_high)}")]


# ----------------------------------------------------------------------------------- rules.md, methods/*.md

def _rules_sidebets() -> list[tuple[str, str]]:
    b = csv("reports/publisher/tables/sidebets_summary.csv")
    q = b[b.bet == "Quickdraw"].set_index("reading")
    k, tc = q.loc["kicker, 5 to 1"], q.loc["top-cards, 5 to 1"]
    cover = b[b.bet == "Cover"].iloc[0]
    assert k.deals == tc.deals

    def row(name, r):
        return (f"| `{name}` | {100 * r.hit_frequency:.4f}% | {100 * r.rtp:.3f}% | {100 * r.house_edge:.3f}% |")

    return [
        ("rules.md", f"over all {k.deals:,} deals of two player cards and five dealer cards"),
        ("rules.md", row("kicker", k)),
        ("rules.md", row("top-cards", tc)),
        ("rules.md", f"Its {100 * tc.house_edge:.1f}% house edge is also in the usual range for casino side bets, "
                     f"while {100 * k.house_edge:.1f}% is at the steep end"),
        # break-even pays b: hit x (1 + b) = 1
        ("rules.md", f"(break-even would be about {1 / tc.hit_frequency - 1:.2f} to 1 under `top-cards` and "
                     f"{1 / k.hit_frequency - 1:.2f} to 1 under `kicker`)"),
        ("rules.md", f"Exactly over the {cover.deals:,} dealer hands, this table has RTP {100 * cover.rtp:.4f}%, hit "
                     f"frequency {100 * cover.hit_frequency:.4f}% and standard deviation {cover.std_dev:.4f} per unit."),
    ]


def _rules_solo_fold() -> list[tuple[str, str]]:
    r = csv("reports/publisher/tables/strategy_readings.csv")
    one = r[r.players == 1].set_index("strategy")
    pub = {p[0]: p[2] for p in PUBLISHED}
    return [("rules.md", f"So the solo fold frequency is {100 * one.loc['perfect'].fold_frequency:.2f}% with the "
                         f"bonus in the decision and {100 * one.loc['perfect-no-bonus'].fold_frequency:.2f}% without "
                         f"it, and {100 * pub['fold_1']:.1f}% is the publisher's figure. No reading reproduces the "
                         f"published seven-player fold frequency of {100 * pub['fold_7']:.2f}%")]


def _rules_variance_ratios() -> list[tuple[str, str]]:
    t = csv("reports/readings-time-to-precision.csv")
    dealer = t[t.reading.str.contains("dealer")]
    best = t[~t.reading.str.contains("dealer")]
    return [("rules.md", f"On the same rounds they cut the fold frequency's variance "
                         f"{dealer.fold_variance_ratio.min():.1f} to {dealer.fold_variance_ratio.max():.0f} times for the "
                         f"dealer-target members, {best.fold_variance_ratio.min():.1f} to "
                         f"{best.fold_variance_ratio.max():.1f} times for the best-hand ones, and the win frequency's "
                         f"{t.win_variance_ratio.min():.1f} to {t.win_variance_ratio.max():.1f} times "
                         "(`reports/readings-time-to-precision.csv`, every player count measured)")]


def _published_figures() -> list[tuple[str, str]]:
    """The publisher's own figures, as declared once in ``ricochet_math/reports/published.py``."""
    pub = {p[0]: p[2] for p in PUBLISHED}
    lo, hi = (100 * x for x in pub["rtp_range"])
    page = (f"RTP {lo:.2f}% to {hi:.2f}% with perfect play over one to seven players; fold frequency "
            f"{100 * pub['fold_1']:.1f}% solo and {100 * pub['fold_7']:.2f}% with seven players; one perfect player's "
            f"win frequency {100 * pub['win_3']:.2f}% with three players; weak players \"closer to "
            f"{100 * pub['weak_rtp']:.0f}%\"")
    return [("methods/published.md", page),
            ("methods/rule-set-design.md", f"ricochet design --band {lo:.2f} {hi:.2f} --reading perfect"),
            ("methods/rule-set-design.md", f"N = 1..7 in {lo:.2f}-{hi:.2f}% under perfect play")]


def _methods() -> list[tuple[str, str]]:
    m = csv("reports/publisher/tables/main_game.csv").set_index("players")
    p = csv("reports/perfect-play-rtp.csv").set_index("players")
    readme = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")
    early = dict(re.findall(r"^\| (\d) \| (\d+ of \d+) \|", readme, re.M))
    identical = re.search(r"`check_perfect_identical.py` (0 of [\d,]+) pairs differ", readme).group(1)
    return [
        ("methods/solo.md", f"There are $\\binom{{52}}{{2}}\\binom{{50}}{{5}} = "
                            f"{math.comb(52, 2) * math.comb(50, 5):,}".replace(",", "{,}") + "$ deals and "
                            f"{math.comb(45, 3):,} draws per deal"),
        ("rules.md", f"(`ricochet solo` counts all {math.comb(52, 2) * math.comb(50, 5):,} deals and their "
                     f"{math.comb(45, 3):,} draws each)"),
        ("methods/solo.md", f"({100 * m.loc[1].rtp_initial:.7f}% per initial bet for the `publisher` rule set)"),
        ("methods/kickout.md", f"(a variance ratio of {p.loc[3].variance_ratio:.0f} at three players in the "
                               "perfect-play RTP run, `reports/perfect-play-rtp.csv`)"),
        ("methods/control-variates.md", f"Perfect play runs at {p.rounds_per_s.min():,.0f} (seven players) to "
                                        f"{p.rounds_per_s.max():,.0f} (two players) rounds a second "
                                        "(`reports/perfect-play-rtp.csv`)"),
        ("methods/perfect-lookahead.md", f"finds {identical} state/reading pairs different in any bit"),
        ("methods/perfect-lookahead.md", f"For the first seat to act, {early['4']} random tables at four players "
                                         f"and {early['7']} at seven are decided this way"),
    ]


def all_figures() -> list[tuple[str, str]]:
    return (_home_speed() + _home_by_order() + _home_vs_casino() + _home_spread() + _home_by_start()
            + _home_solver_reach() + _home_validation() + _home_deals() + _home_deal_error() + _home_depth_error()
            + _home_optimal() + _rules_sidebets() + _rules_solo_fold() + _rules_variance_ratios()
            + _published_figures() + _methods())


@pytest.mark.parametrize("page, text", all_figures())
def test_prose_figure_matches_its_table(page, text):
    text = " ".join(text.split())
    assert text in doc(page), f"docs/{page} should say: {text}"


def test_room5_table_has_its_command():
    readme = (ROOT / "reports" / "claims" / "README.md").read_text(encoding="utf-8")
    assert "home-depth-error-room5.csv" in readme and "benchmarks/claims_home.py" in readme
    for name in _CLAIMS:  # the benchmarks' tables moved out of the report folder each name their command too
        assert f"`{name}`" in readme, name
    assert "benchmarks/bench_home_tree.py" in readme and "benchmarks/bench_home_deal_error.py" in readme


def test_design_timing_sentence_matches_its_table():
    """docs/methods/rule-set-design.md quotes the last row of benchmarks/design-timing.csv."""
    t = pd.read_csv(ROOT / "benchmarks" / "design-timing.csv").iloc[-1]
    text = " ".join((ROOT / "docs" / "methods" / "rule-set-design.md").read_text(encoding="utf-8").split())
    want = (f"the default band objective with {t.resolves} re-solves and the five other player models, took "
            f"{t.seconds:.0f} s on the 2-core machine at load {t.load_average_1min_start:.1f}-"
            f"{t.load_average_1min_end:.1f} ({t.cells_evaluated} cells, confirmation at {t.confirm_pp:g} points)")
    assert t.objective == "band" and t.players == "1 2 3 4 5 6 7" and t["vary"] == "kickout,bonus"
    assert want in text, want
