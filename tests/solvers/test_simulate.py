"""Monte Carlo runs: reproducibility, checkpoints, merging, the figures, and statistical checks.

Truth for the statistical checks: exact probabilities counted over all
2,598,960 five-card hands by the evaluator (``value_counts_5``), compared with
fixed-seed runs within a few standard errors (tolerances stated in each test;
with the seeds fixed the tests are deterministic).  The interval helpers are
checked against numpy on data and by coverage.
"""
from __future__ import annotations

import json
import re
import math

import numpy as np
import pytest

import ricochet_math.solvers.montecarlo as simulate_module
from ricochet_math.cli.app import main
from ricochet_math.errors import RicochetError, RuleError, StrategyError
from ricochet_math.evaluator.evaluation import category_of, value_counts_5
from ricochet_math.engine.sums import RoundSum, SeatSum
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.solvers.montecarlo import CHUNK_ROUNDS, SOLVER_CHUNK_ROUNDS, rtp_table, simulate
from ricochet_math.solvers.stats import mean_ci, proportion_ci, ratio_ci, sample_std, wilson_ci, z_value
from ricochet_math.evaluator.tables import ROYAL_FLUSH_VALUE

RULES = load_rules()
HANDS = 2_598_960


def same_sums(a, b) -> bool:
    return all(np.array_equal(getattr(a.sums, k), getattr(b.sums, k))
               for k in ("seat", "position", "total", "total_sq", "round"))


# ---------------------------------------------------------------- reproducibility

def test_same_seed_same_result_with_any_number_of_workers():
    kw = dict(players=3, strategy="pair", rounds=6 * 2048 + 123, seed=9, chunk_size=2048, progress=False)
    one = simulate(RULES, workers=1, **kw)
    two = simulate(RULES, workers=2, **kw)
    four = simulate(RULES, workers=4, **kw)
    assert same_sums(one, two) and same_sums(one, four)
    assert one.rounds == kw["rounds"] and one.sums.round[0] == kw["rounds"]
    assert one.summary()["rtp_wagered"] == two.summary()["rtp_wagered"]


def test_seeds_are_recorded_and_matter():
    a = simulate(RULES, 2, "always", 5000, seed=1, progress=False)
    b = simulate(RULES, 2, "always", 5000, seed=2, progress=False)
    assert a.seed == 1 and not same_sums(a, b)
    fresh = simulate(RULES, 2, "always", 5000, progress=False)
    again = simulate(RULES, 2, "always", 5000, seed=fresh.seed, progress=False)
    assert same_sums(fresh, again)
    assert a.rules_sha256 == RULES.sha256 and a.version and a.run_time > 0 and a.chunk_size == CHUNK_ROUNDS


def test_chunk_size_follows_the_strategy():
    assert simulate(RULES, 2, "perfect", 10, seed=1, progress=False).chunk_size == SOLVER_CHUNK_ROUNDS
    assert simulate(RULES, 2, ["always", "perfect"], 10, seed=1, progress=False).chunk_size == SOLVER_CHUNK_ROUNDS


def test_checkpoint_resumes_without_redoing_chunks(tmp_path, monkeypatch):
    path = tmp_path / "run.npz"
    kw = dict(players=2, strategy="chaser", seed=4, chunk_size=1024, progress=False)
    simulate(RULES, rounds=3 * 1024, checkpoint=path, **kw)
    assert path.exists()
    calls = []
    real = simulate_module.run_chunk

    def counting(setup, ss, rounds, **k):
        calls.append(rounds)
        return real(setup, ss, rounds, **k)

    monkeypatch.setattr(simulate_module, "run_chunk", counting)
    resumed = simulate(RULES, rounds=5 * 1024 + 10, checkpoint=path, **kw)
    assert sorted(r for r in calls if r) == [10, 1024, 1024]  # only the chunks not yet done
    monkeypatch.setattr(simulate_module, "run_chunk", real)
    fresh = simulate(RULES, rounds=5 * 1024 + 10, **kw)
    assert same_sums(resumed, fresh)
    with pytest.raises(RicochetError, match="belongs to another run .*seed"):
        simulate(RULES, rounds=1024, checkpoint=path, **{**kw, "seed": 5})
    (tmp_path / "bad.npz").write_bytes(b"not a checkpoint")
    with pytest.raises(RicochetError, match="cannot be read"):
        simulate(RULES, rounds=1024, checkpoint=tmp_path / "bad.npz", **kw)


def test_merge():
    a = simulate(RULES, 2, "pair", 4000, seed=1, progress=False)
    b = simulate(RULES, 2, "pair", 6000, seed=2, progress=False)
    m = a.merge(b)
    assert m.rounds == 10_000 and m.seeds == (1, 2)
    assert np.array_equal(m.sums.total, a.sums.total + b.sums.total)
    assert m.summary()["rounds"] == 10_000
    with pytest.raises(RicochetError, match="same seed"):
        a.merge(a)
    with pytest.raises(RicochetError, match="same rule set, player count and strategies"):
        a.merge(simulate(RULES, 3, "pair", 100, seed=3, progress=False))


# ---------------------------------------------------------------- the figures

def test_frames_and_figures():
    res = simulate(RULES, 4, "pair", 20_000, seed=3, progress=False)
    row = res.to_frame().iloc[0]
    # columns other modules read (kickout finder, published figures)
    for col in ("rtp_initial", "rtp_initial_low", "rtp_initial_high", "rtp_wagered", "kickout_rate",
                "fold_frequency", "fold_frequency_low", "fold_frequency_high", "win_frequency",
                "win_frequency_low", "win_frequency_high", "element_of_risk", "house_edge", "average_pot",
                "sd_net", "bonus_royal_flush", "seed", "rules_sha256", "version"):
        assert col in row.index, col
    m = res.summary()
    assert m["rtp_initial"].estimate == pytest.approx(1 - m["house_edge"].estimate)
    assert m["rtp_wagered"].estimate == pytest.approx(1 - m["element_of_risk"].estimate)
    s = res.sums
    assert m["rtp_wagered"].estimate == pytest.approx(s.total[1] / s.total[0])
    # the house's result is the players' loss, round by round and so in total
    assert s.round[RoundSum.house_net] + s.total[SeatSum.net] == pytest.approx(0.0, abs=1e-6)
    # a seat folds, plays, or (the last seat, dealer kicked out, all others folded) wins automatically
    assert m["fold_frequency"].estimate + m["play_frequency"].estimate + m["automatic_win_rate"].estimate / 4 \
        == pytest.approx(1.0)
    seats = res.seat_frame()
    assert list(seats["seat"]) == [1, 2, 3, 4] and (seats["strategy"] == "pair").all()
    assert seats["fold_frequency"].mean() == pytest.approx(m["fold_frequency"].estimate)
    positions = res.seat_frame("position")
    assert positions["win_frequency"].mean() == pytest.approx(m["win_frequency"].estimate)
    hands = res.hands_frame()
    assert len(hands) == 10 and hands["bonus_hits"].sum() == round(s.total[12])
    assert "RTP per total wagered" in res.describe()
    assert res.with_level(0.99).summary()["rtp_wagered"].half_width > m["rtp_wagered"].half_width


def test_per_seat_strategies():
    res = simulate(RULES, 3, ["never", "always", "pair"], 20_000, seed=5, progress=False)
    seats = res.seat_frame()
    assert list(seats["strategy"]) == ["never", "always", "pair"]
    assert seats.loc[0, "fold_frequency"] == 1.0 and seats.loc[1, "fold_frequency"] == 0.0
    assert res.strategy == "never/always/pair"


def test_bad_arguments():
    with pytest.raises(RicochetError, match="rounds must be a positive"):
        simulate(RULES, 2, "always", 0, progress=False)
    with pytest.raises(RicochetError, match="workers"):
        simulate(RULES, 2, "always", 10, workers=0, progress=False)
    with pytest.raises(RicochetError, match="chunk_size"):
        simulate(RULES, 2, "always", 10, chunk_size=0, progress=False)
    with pytest.raises(RuleError, match="number of players"):
        simulate(RULES, 0, "always", 10, progress=False)
    with pytest.raises(StrategyError):
        simulate(RULES, 2, "sometimes", 10, progress=False)


# ---------------------------------------------------------------- statistical checks

def exact_at_or_above(value: int) -> float:
    counts = value_counts_5()
    return counts[value:].sum() / HANDS


@pytest.mark.parametrize("n", range(1, 8))
def test_kickout_rate_against_the_exact_probability(n):
    """The dealer's five cards are a uniform hand: P(kickout) = #hands at or above the threshold / 2,598,960.
    200,000 rounds, seed 2026 + N; tolerance 4 standard errors."""
    p = exact_at_or_above(RULES.kickout_value(n))
    res = simulate(RULES, n, "never", 200_000, seed=2026 + n, progress=False)
    got = res.summary()["kickout_rate"].estimate
    se = math.sqrt(p * (1 - p) / res.rounds)
    assert abs(got - p) < 4 * se, (n, got, p)


def exact_categories() -> np.ndarray:
    """P(final hand category) for a uniform five-card hand, 0..8 and 9 = royal flush."""
    counts = value_counts_5()
    cats = np.array([category_of(v) for v in range(len(counts))])
    out = np.array([counts[cats == c].sum() for c in range(10)], dtype=float)
    out[8] -= counts[ROYAL_FLUSH_VALUE]
    out[9] = counts[ROYAL_FLUSH_VALUE]
    return out / HANDS


def test_bonus_frequencies_of_an_always_play_seat():
    """An always-play seat alone ends every round with five cards (played, or the automatic
    winner's free cards): a uniform five-card hand, whatever the dealer holds.  So its final
    hand categories, and the bonus paid on them, follow the exact five-card probabilities.
    2,000,000 rounds, seed 7; tolerance 4 standard errors (royal flush: a Poisson bound)."""
    exact = exact_categories()
    res = simulate(RULES, 1, "always", 2_000_000, seed=7, progress=False)
    hands = res.hands_frame()
    r = res.rounds
    assert hands["count"].sum() == r
    for c, p in enumerate(exact):
        count = hands.loc[c, "count"]
        if p * r >= 20:
            assert abs(count / r - p) < 4 * math.sqrt(p * (1 - p) / r), (hands.loc[c, "hand"], count / r, p)
        else:  # royal flush: expected 3.1 in 2,000,000; P(X > 14) < 1e-5
            assert count <= 14
    # default bonus table: every straight or better is paid, nothing below
    assert (hands.loc[:3, "bonus_hits"] == 0).all()
    assert (hands.loc[4:, "bonus_hits"] == hands.loc[4:, "count"]).all()
    m = res.summary()
    expected_bonus = sum(exact[c] * RULES.bonus.pays(k) for c, k in
                         zip(range(4, 10), ("straight", "flush", "full_house", "four_of_a_kind", "straight_flush",
                                            "royal_flush")))
    assert abs(m["average_bonus"].estimate - expected_bonus) < 4 * m["average_bonus"].std_error + 1e-12


def test_every_seat_of_a_full_table_sees_uniform_hands():
    """Seven always-play seats: each seat's five cards are uniform (card removal links the seats of
    a round, which the round-level intervals account for).  800,000 rounds, seed 11; 4 standard errors."""
    exact = exact_categories()
    res = simulate(RULES, 7, "always", 800_000, seed=11, progress=False)
    m = res.summary()
    for c, name in enumerate(("high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush",
                              "full_house", "four_of_a_kind")):
        hands = res.hands_frame()
        got = hands.loc[c, "frequency"]
        se = (hands.loc[c, "frequency_high"] - hands.loc[c, "frequency_low"]) / (2 * z_value())
        assert abs(got - exact[c]) < 4 * se + 1e-12, (name, got, exact[c])
    assert m["fold_frequency"].estimate == 0.0 and m["average_pot"].estimate == 15.0


def test_pooled_win_frequency_and_kickout_relation():
    """With everyone always playing, exactly one seat or the house takes each pot (ties split):
    win frequency x N + house-takes rate = 1 + (extra winners of split pots) / rounds."""
    res = simulate(RULES, 5, "always", 100_000, seed=12, progress=False)
    m = res.summary()
    s = res.sums
    extra = s.total[13] - s.round[9]  # split-pot winners beyond one per split round
    assert m["win_frequency"].estimate * 5 + m["house_takes_pot"].estimate == pytest.approx(
        1 + extra / res.rounds, abs=1e-12)


# ---------------------------------------------------------------- interval helpers

def test_interval_helpers_against_numpy():
    rng = np.random.default_rng(0)
    x = rng.normal(2.0, 3.0, 10_000)
    y = rng.uniform(1.0, 2.0, 10_000) + 0.3 * x
    est = mean_ci(x.sum(), (x * x).sum(), len(x))
    assert est.estimate == pytest.approx(x.mean())
    assert est.std_error == pytest.approx(x.std(ddof=1) / math.sqrt(len(x)))
    assert sample_std(x.sum(), (x * x).sum(), len(x)) == pytest.approx(x.std(ddof=1))
    rat = ratio_ci(x.sum(), y.sum(), (x * x).sum(), (y * y).sum(), (x * y).sum(), len(x))
    r = x.sum() / y.sum()
    resid = x - r * y
    assert rat.estimate == pytest.approx(r)
    assert rat.std_error == pytest.approx(resid.std(ddof=1) / (math.sqrt(len(x)) * y.mean()), rel=1e-6)
    p = proportion_ci(30, 100)
    assert p.estimate == 0.3 and p.low > 0.2 and p.high < 0.4
    assert proportion_ci(0, 100).low == 0.0
    w = wilson_ci(0, 100)
    assert w.low == pytest.approx(0.0, abs=1e-12) and 0.02 < w.high < 0.05
    assert z_value(0.95) == pytest.approx(1.959964, abs=1e-6)


def test_ratio_interval_covers():
    """Coverage of the delta-method ratio interval: about 95% of 400 samples of 2,000 pairs."""
    rng = np.random.default_rng(1)
    hits = 0
    for _ in range(400):
        w = rng.choice([1.0, 2.0], 2000)
        ret = np.where(rng.random(2000) < 0.45, 2.0 * w, 0.0)
        est = ratio_ci(ret.sum(), w.sum(), (ret * ret).sum(), (w * w).sum(), (ret * w).sum(), len(w))
        hits += est.low <= 0.9 <= est.high
    assert 0.92 <= hits / 400 <= 0.98


# ---------------------------------------------------------------- the commands

def test_rtp_table_function():
    results, frame = rtp_table(RULES, [1, 4], "always", 20_000, seed=2026, progress=False)
    assert list(frame["players"]) == [1, 4] and len(results) == 2
    again = simulate(RULES, 4, "always", 20_000, seed=2026, progress=False)
    assert same_sums(results[1], again)  # a row is reproducible with simulate and the same seed


def test_cli_rtp_table(capsys):
    assert main(["rtp", "--strategy", "always", "--rounds", "20000", "--players", "1-3"]) == 0
    out = capsys.readouterr().out
    for fragment in ("RTP of rule set publisher", "strategy always", "seed 2026", "RTP/wagered %", "kickout %"):
        assert fragment in out
    rows = [line.split()[0] for line in out.splitlines() if line.strip()[:1].isdigit()]
    # one row per player count in each part of the table (a table wider than the terminal is split; the
    # fold rate of 'always' is never seen, so it carries its exact binomial interval [0.00, 0.02])
    assert rows == ["1", "2", "3"] * (len(rows) // 3) and rows
    # the table states its rounds and its precision (issue 37: the default size was named only in --help),
    # the widest half-width being that of the rows printed
    assert "Monte Carlo, 20,000 rounds per player count, 95% confidence intervals" in out
    first = [re.search(r"± (\d+\.\d{3})", line) for line in out.split("RTP/initial %")[1].split("a ±")[0].splitlines()
             if line.strip()[:1].isdigit()]  # each row's first interval: RTP/initial's
    widest = max(float(m.group(1)) for m in first if m)
    assert f"(RTP/initial within ± {widest:.2f} percentage points)." in out
    for legend in ("fold % = ", "win % = ", "kickout % = "):
        assert legend in out


def test_cli_rtp_csv_and_json(capsys):
    assert main(["rtp", "--strategy", "pair", "--rounds", "5000", "--players", "2,5", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["players"] for r in rows] == [2, 5] and all(r["strategy"] == "pair" for r in rows)
    assert main(["rtp", "--strategy", "pair", "--rounds", "5000", "--players", "3", "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("rules,players,strategy,rounds,rtp_initial") and len(lines) == 2


def test_cli_rtp_default_strategy(capsys):
    assert main(["rtp", "--rounds", "20", "--players", "2"]) == 0
    assert "strategy perfect" in capsys.readouterr().out


def test_cli_simulate(capsys, tmp_path):
    assert main(["simulate", "--players", "2", "--rounds", "20000", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "20,000 rounds, 2 player(s)" in out and "rtp_wagered" in out and "kickout_rate" in out
    assert main(["simulate", "--players", "3", "--rounds", "5000", "--seed", "1", "--table", "seats",
                 "--format", "csv", "--checkpoint", str(tmp_path / "c.npz")]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("seat,strategy,rtp_initial")
    assert main(["simulate", "--players", "3", "--rounds", "5000", "--table", "hands", "--strategy", "chaser"]) == 0
    assert "Royal flush" in capsys.readouterr().out


@pytest.mark.parametrize("argv,fragment", [
    (["rtp", "--players", "0-3"], "number of players must be 1..7, got 0"),
    (["rtp", "--players", "x"], "--players must be a count or a range"),
    (["rtp", "--players", "5-2"], "runs backwards"),
    (["rtp", "--strategy", "perfectt", "--rounds", "10"], "did you mean 'perfect'"),
    (["simulate", "--players", "9"], "argument --players: must be a whole number from 1 to 7, got 9"),
    (["simulate", "--rounds", "0"], "argument --rounds: must be a whole number from 1"),
    (["simulate", "--strategy", "a", "b", "--players", "3"], "unknown strategy"),
    (["simulate", "--strategy", "always", "pair", "--players", "3"], "2 strategies given for 3 players"),
])
def test_cli_errors_are_one_line(argv, fragment, capsys):
    assert main(argv) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1 and err[0].startswith("ricochet: error: ") and fragment in err[0], err


def test_simulate_to_precision_sizes_a_fixed_run_from_a_pilot():
    """The pilot (its own seed) only sizes the run: the figures are those of a plain run of that many rounds
    with the caller's seed, so the stopping rule cannot bias them; the same seed gives the same size."""
    from ricochet_math.solvers.montecarlo import simulate_to_precision

    a = simulate_to_precision(RULES, 2, "perfect", precision=0.5, seed=21, progress=False)
    b = simulate_to_precision(RULES, 2, "perfect", precision=0.5, seed=21, progress=False)
    plain = simulate(RULES, 2, "perfect", a.rounds, 21, progress=False)
    assert a.rounds == b.rounds and a.rounds >= 2048
    for key in ("seat", "total", "round"):
        assert np.array_equal(getattr(a.sums, key), getattr(plain.sums, key))
    # the controlled estimate tracks the target closely (seeded; a few tenths of the target at most)
    assert a.summary()["rtp_initial_cv"].half_width <= 0.005 * 1.3
    finer = simulate_to_precision(RULES, 2, "perfect", precision=0.25, seed=21, progress=False)
    assert finer.rounds > 3 * a.rounds  # a quarter of the variance needs about four times the rounds


def test_simulate_to_precision_refuses_what_cannot_be_reached():
    from ricochet_math.solvers.montecarlo import simulate_to_precision

    with pytest.raises(RicochetError, match="precision"):
        simulate_to_precision(RULES, 2, "always", precision=0.0, seed=1, progress=False)
    with pytest.raises(RicochetError, match="beyond the limit"):
        simulate_to_precision(RULES, 2, "always", precision=1e-6, seed=1, progress=False)
