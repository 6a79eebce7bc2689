"""Readings where the sources are silent, shown side by side in the games' reports (issue 27)."""
from __future__ import annotations

import pandas as pd

from ricochet_math.games.ring.report import ring_report
from ricochet_math.games.ring.rules import Joker, RingRules
from ricochet_math.reports.columns import overflowing_tables


def test_ring_report_shows_both_joker_readings_side_by_side(tmp_path):
    out = tmp_path / "ring"
    ring_report(out, games=60, pair_games=20, strategies=("random", "greedy-fast"), timing_holdings=5, seed=1,
                reproducible=True)
    frame = pd.read_csv(out / "tables" / "joker_readings.csv")
    assert set(frame.joker) == {"bug", "dead"}
    for fig in ("first seat win share, 2 players", "first seat win share, 3 players",
                "random 18-card holdings with a straight flush or better"):
        assert set(frame[frame.figure == fig].joker) == {"bug", "dead"}, fig
    sf = frame[frame.figure == "random 18-card holdings with a straight flush or better"].set_index("joker")
    # bugs make straight flushes common (about 42% of holdings against about 8% with dead jokers)
    assert sf.value["bug"] > sf.value_high["dead"]
    ranked = frame[frame.figure.str.startswith("strategy ranked")]
    assert len(ranked) == 8 and ranked.strategy.notna().all()
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "bug jokers (default)" in html and "dead jokers" in html
    assert overflowing_tables(html) == []
    # the best responses are reported as confirmed on fresh seeds (seed 1 + 1000 + the opponent's place)
    assert "best responses confirmed on fresh seeds" in html and "fresh win share, runner-up (%)" in html
    for players in (2, 3):
        conf = pd.read_csv(out / "tables" / f"best_responses_{players}p.csv")
        assert list(conf.against) == ["random", "greedy-fast"] and list(conf.seed) == [1001, 1002]
        assert (conf.selected == "greedy-fast").all() and (conf.games == 20).all()
        assert ((conf.lead - (conf.win - conf.runner_up_win)).abs() < 1e-12).all()


def test_bug_jokers_are_the_default_reading():
    assert RingRules().joker == Joker.BUG


def test_freeride_report_shows_the_refill_and_opening_readings_and_confirms_its_selection(tmp_path):
    from ricochet_math.games.freeride.report import _lead_text, freeride_report

    out = tmp_path / "freeride"
    freeride_report(out, games=200, rounds=2000, seats=(2, 3), candidates=("always", "computer", "cautious"),
                    reproducible=True)
    pos = pd.read_csv(out / "tables" / "position_readings.csv")
    assert len(pos) == 6 and set(pos.opening) == {"card", "hand", "rotate"}
    assert set(pos.refill_after_last) == {False, True}
    conf = pd.read_csv(out / "tables" / "best_response_confirmed.csv")
    assert list(conf.seats) == [2, 3]
    sel = pd.read_csv(out / "tables" / "best_response.csv")
    for r in conf.itertuples():
        assert r.selected == sel[sel.seats == r.seats].sort_values("win").strategy.iloc[-1]
        assert r.lead_low < r.lead < r.lead_high
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "The selection confirmed on fresh seeds" in html and "refill after the fifth card" in html
    assert overflowing_tables(html) == []
    # a lead whose interval holds zero is written as no detectable difference
    row = pd.Series({"lead": 0.004, "lead_low": -0.01, "lead_high": 0.018})
    assert _lead_text(row) == "no detectable difference (± 1.40)"
    assert _lead_text(pd.Series({"lead": 0.05, "lead_low": 0.03, "lead_high": 0.07})) == "+5.00 ± 2.00"


def test_the_refill_after_the_fifth_card_changes_no_figure():
    # the refill after the fifth card comes after every other refill of the round and is never played:
    # the same seed gives the same sums under both readings (rounds and whole games, four and six seats)
    from ricochet_math.games.freeride.analysis import simulate_games, simulate_rounds
    from ricochet_math.games.freeride.rules import FreeRideRules

    for seats in (4, 6):
        for opening in ("card", "rotate"):
            a = simulate_rounds(["computer"] * seats, FreeRideRules(opening=opening), rounds=3000, seed=11)
            b = simulate_rounds(["computer"] * seats, FreeRideRules(opening=opening, refill_after_last=True),
                                rounds=3000, seed=11)
            assert all((a.sums[k] == b.sums[k]).all() for k in a.sums), (seats, opening)
    a = simulate_games(["computer"] * 6, FreeRideRules(), games=300, seed=12)
    b = simulate_games(["computer"] * 6, FreeRideRules(refill_after_last=True), games=300, seed=12)
    assert all((a.sums[k] == b.sums[k]).all() for k in a.sums)
