"""Ring Poker analyses and surfaces: the Monte Carlo driver's guarantees, the seat table and its test,
pairings, the CLI (``ricochet ring ...``) and the report."""
from __future__ import annotations

import json

import numpy as np
import pytest

from ricochet_math.cli.app import main
from ricochet_math.errors import RicochetError
from ricochet_math.games.ring.analysis import CONFIRM_SEED_OFFSET, deal_batch, pairings, simulate
from ricochet_math.games.ring.engine import play_game
from ricochet_math.games.ring.report import build_report
from ricochet_math.games.ring.rules import RingRules

CARDS = "As Ad Ah Ac Jk Jk Ks Qs Js Ts 2c 3c 4c 5c 7d 8d 9d Td"


def test_same_digits_for_any_number_of_workers():
    rules = RingRules(players=3)
    a = simulate(rules, ["greedy-fast", "random", "denial"], 600, seed=11, batch_size=200, workers=1)
    b = simulate(rules, ["greedy-fast", "random", "denial"], 600, seed=11, batch_size=200, workers=2)
    assert all(np.array_equal(a.sums[k], b.sums[k]) for k in a.sums)
    assert a.seed == b.seed
    # greedy (sampled futures, a seed per decision): the same digits too
    a = simulate(RingRules(), ["greedy", "random"], 24, seed=11, batch_size=8, workers=1)
    b = simulate(RingRules(), ["greedy", "random"], 24, seed=11, batch_size=8, workers=2)
    assert all(np.array_equal(a.sums[k], b.sums[k]) for k in a.sums)
    # seed 11, 24 games in batches of 8: greedy wins 23 and scores 62 slot points to random's 12
    assert a.sums["share"].tolist() == [23.0, 1.0] and a.sums["points"].tolist() == [62, 12]


def test_seeded_figures():
    # the default seat strategy (greedy-fast), two players, rotation, seed 1: the first 2,000 games of the
    # report's 20,000 (seat 1 wins 1,050: 52.50 ± 2.19%; the 20,000 give 53.20 ± 0.69%)
    sim = simulate(RingRules(), None, 2000, seed=1)
    assert sim.sums["share"].tolist() == [1050.0, 950.0] and sim.sums["points"].tolist() == [3093, 2917]
    assert sim.win_share(0).half_width == pytest.approx(0.0219, abs=5e-5)
    # greedy against greedy-fast, seed 2, 40 games in batches of 20: greedy wins 31 of 40
    sim = simulate(RingRules(), ["greedy", "greedy-fast"], 40, seed=2, batch_size=20)
    assert sim.sums["share"].tolist() == [31.0, 9.0] and sim.sums["points"].tolist() == [87, 35]


def test_sums_agree_with_readable_games():
    # the first batch's games replayed one by one on the readable engine give the same sums
    rules = RingRules(players=2)
    sim = simulate(rules, ["lookahead", "random"], 40, seed=5, batch_size=40, workers=1)
    from ricochet_math.solvers.executors import chunk_seed
    decks, draws = deal_batch(chunk_seed(sim.seed, 0), 40)
    recs = [play_game(rules, ["lookahead", "random"], deck=decks[g], draws=draws[g]) for g in range(40)]
    assert sim.sums["points"].tolist() == [sum(r.points[s] for r in recs) for s in range(2)]
    assert sim.sums["share"].tolist() == pytest.approx([sum(r.shares[s] for r in recs) for s in range(2)], abs=0)
    assert sim.sums["share"].sum() == pytest.approx(40.0, abs=1e-9)  # one win (or its shares) per game


def test_seat_table_and_equal_chances():
    sim = simulate(RingRules(players=2, rotate=False), None, 1000, seed=3)
    f = sim.to_frame()
    assert f.starts.tolist() == [9, 0]
    assert (f.win_low <= f.win).all() and (f.win <= f.win_high).all()
    eq = sim.equal_chances()
    assert eq.df == 1 and 0.0 <= eq.p_value <= 1.0
    # the seat that always chooses first wins far more than half (seed 3, 1,000 games: about 70%)
    assert sim.win_share(0).estimate > 0.6 and eq.p_value < 1e-6
    cats = sim.category_frame()
    assert np.allclose(cats[["strongest", "middle", "weakest"]].sum(), 1.0)
    assert sim.length_frame().value.iloc[0] == 9
    assert "equal chances" in sim.describe() and sim.summary()["equal chances p"] == eq.p_value


def test_three_players_equal_chances_statistic_is_a_wald_test():
    sim = simulate(RingRules(players=3), None, 400, seed=2)
    n = sim.games
    mean = sim.sums["share"] / n
    cov = (sim.sums["share_x"] - n * np.outer(mean, mean)) / (n - 1)
    d = mean[:2] - 1 / 3
    assert sim.equal_chances().statistic == pytest.approx(float(d @ np.linalg.solve(cov[:2, :2] / n, d)))


def test_pairings_symmetric_and_best_responses():
    table = pairings(RingRules(players=2), ["random", "greedy-fast"], games=200, seed=1)
    f = table.to_frame()
    # a strategy against itself, averaged over both seats, wins exactly half (shares sum to one)
    same = f[f.strategy == f.against]
    assert np.allclose(same.win, 0.5)
    br = table.best_responses().set_index("against")
    assert br.loc["random", "best response"] == "greedy-fast"  # greedy beats random by far
    assert "best responses" in table.summary()


def test_best_responses_are_confirmed_on_fresh_seeds_on_the_same_deals():
    rules = RingRules(players=2)
    table = pairings(rules, ("random", "greedy-fast", "denial"), games=60, seed=5, batch_size=30)
    conf = table.confirm(games=40, batch_size=20)
    f = conf.to_frame()
    assert list(f.against) == ["random", "greedy-fast", "denial"] and len(f.columns) == 19
    # one fresh seed per opponent, seed + 1000 + its index: none is the selection's seed 5
    assert conf.seeds == (1005, 1006, 1007) and CONFIRM_SEED_OFFSET == 1000 and table.seed not in conf.seeds
    assert (f.games == 40).all() and conf.selection_seed == 5
    chosen = table.best_responses().set_index("against")["best response"]
    for r in f.itertuples():
        assert r.selected == chosen[r.against] and [r.selected, r.runner_up] == table.ranked(r.against)[:2]
        # each candidate replayed seating by seating with simulate on the fresh seed: the same deals, so the
        # paired lead is exactly selected minus runner-up
        def fresh(name, r=r):
            return sum(simulate(rules, [name if t == s else r.against for t in range(2)], 40, r.seed,
                                batch_size=20).win_share(s).estimate for s in range(2)) / 2
        a, b = fresh(r.selected), fresh(r.runner_up)
        assert (r.win, r.runner_up_win) == (pytest.approx(a, abs=1e-12), pytest.approx(b, abs=1e-12))
        assert r.lead == pytest.approx(a - b, abs=1e-12) and r.lead_low <= r.lead <= r.lead_high
        assert r.verdict.startswith("no detectable difference") == (r.lead_low <= 0 <= r.lead_high)
    # seed 5's selection and the fresh deals give other figures
    assert (f.win != f.selection_win).any()
    first = f.iloc[0]  # against random: greedy-fast over denial on seed 1005's 40 deals
    assert (first.selected, first.runner_up, first.win, first.lead) == ("greedy-fast", "denial", 0.875, 0.3125)
    assert first.verdict == "+31.25 ± 10.92"


def test_cli_best_response_prints_the_confirmation(capsys):
    assert main(["ring", "simulate", "--table", "best-response", "--games", "40", "--seed", "1", "--strategy",
                 "random", "greedy-fast", "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = lines[0].split(",")
    assert {"selected", "runner_up", "lead", "lead_low", "verdict"} <= set(header) and len(lines) == 3
    assert [line.split(",")[header.index("seed")] for line in lines[1:]] == ["1001", "1002"]


def test_confirmation_refuses_its_selection_seed_and_a_single_strategy():
    table = pairings(RingRules(players=2), ("random", "greedy-fast"), games=20, seed=2000)
    with pytest.raises(RicochetError, match="selection's seed"):
        table.confirm(seed=1000)
    with pytest.raises(RicochetError, match="at least two strategies"):
        pairings(RingRules(players=2), ("random",), games=20, seed=1).confirm()


def test_cli_arrange_play_simulate(capsys):
    assert main(["ring", "arrange", CARDS, "--joker", "dead", "--format", "csv"]) == 0
    out = capsys.readouterr().out
    assert "Straight flush" in out and out.startswith("slot,cards")
    assert main(["ring", "play", "--players", "3", "--strategy", "greedy", "random", "denial", "--seed", "4",
                 "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seed"] == 4 and len(data["history"]) == 27 and len(data["points"]) == 3
    assert main(["ring", "play", "--seed", "4"]) == 0
    assert "round 9:" in capsys.readouterr().out
    assert main(["ring", "simulate", "--games", "100", "--seed", "1", "--format", "csv"]) == 0
    assert capsys.readouterr().out.startswith("seat,strategy,starts,win")
    assert main(["ring", "simulate", "--games", "100", "--seed", "1", "--table", "categories"]) == 0
    assert "weakest" in capsys.readouterr().out


def test_cli_errors_are_one_line(capsys):
    assert main(["ring", "arrange", "As Ks"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ricochet: error:") and err.count("\n") == 1
    assert main(["ring", "simulate", "--players", "3", "--strategy", "greedy", "random"]) == 2
    assert "3 players need 3 strategies" in capsys.readouterr().err
    assert main(["ring", "simulate", "--strategy", "bluff"]) == 2
    assert "unknown Ring Poker strategy" in capsys.readouterr().err


def test_report_writes_a_marked_folder(tmp_path):
    out = tmp_path / "ring"
    result = build_report(out, games=60, pair_games=20, strategies=("random", "greedy-fast"), timing_holdings=5,
                          seed=1, reproducible=True)
    path = result.html
    assert path.exists() and (out / ".ricochet-output.json").exists()
    html = path.read_text(encoding="utf-8")
    assert "Provenance" in html and "git commit" in html and "seed=1" in html
    assert {p.name for p in (out / "tables").iterdir()} >= {"seats.csv", "equal_chances.csv", "slot_categories.csv"}
    # a folder the toolkit did not write is never replaced
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("keep")
    with pytest.raises(Exception, match="not written by ricochet_math"):
        build_report(other, games=60)  # refused before any work
    assert (other / "notes.txt").read_text() == "keep"
