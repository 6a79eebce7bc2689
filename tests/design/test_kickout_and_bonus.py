"""Design tools on top of the solver: kickout finder, bonus tuning, published figures.

Truth: the exact solo counts (a sampled set of starting-hand classes keeps
these tests fast; the full analysis is pinned in test_solver's slow test),
monotonicity of RTP in the threshold, and linearity of RTP in the pays."""
import numpy as np
import pytest

from ricochet_math.solvers import solo
from ricochet_math.errors import PatternError, RuleError
from ricochet_math.design.kickout import find_kickout, kickout_curve, parse_grid
from ricochet_math.reports.published import published_figures
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.design.tuning import bonus_rtp_function, tune_bonus

RULES = load_rules()
SAMPLE = [0, 60, 167]


@pytest.fixture(scope="module")
def analysis():
    return solo.solo_analysis(RULES, classes=SAMPLE)


@pytest.fixture(scope="module")
def analysis_no_bonus():
    return solo.solo_analysis(RULES, classes=SAMPLE, use_bonus=False)


def test_grid_parses_and_sorts():
    pts = parse_grid("A2345 99 KKQ flush")
    assert [p for p, _ in pts] == ["99", "KKQ", "A2345", "flush"]
    with pytest.raises(PatternError, match="threshold grid: bad hand pattern 'ZZ'"):
        parse_grid(["99", "ZZ"])


def test_exact_curve_and_finder(analysis):
    curve = kickout_curve(RULES, players=1, grid=["99", "KKQ", "AAxx", "flush"], solo=analysis)
    rtp = curve.frame["rtp_per_initial_bet"].to_numpy()
    assert np.all(np.diff(rtp) < 0)
    # the curve at the rule set's own threshold is the analysis itself
    assert rtp[1] == pytest.approx(analysis.at_threshold()["rtp_per_initial_bet"], abs=1e-15)
    mid = (rtp[1] + rtp[2]) / 2
    found = find_kickout(RULES, players=1, target_rtp=mid, curve=curve)
    assert {found["bracket_low_threshold"], found["bracket_high_threshold"]} == {"KKQ", "AAxx"}


def test_finder_says_when_no_threshold_reaches(analysis):
    curve = kickout_curve(RULES, players=1, grid=["KKQ", "AAxx"], solo=analysis)
    with pytest.raises(RuleError, match="no threshold in the grid reaches RTP"):
        find_kickout(RULES, players=1, target_rtp=1.9, curve=curve)
    with pytest.raises(RuleError, match=r"target RTP must be a fraction in \(0, 2\)"):
        find_kickout(RULES, players=1, target_rtp=2.5, curve=curve)
    with pytest.raises(RuleError, match="players must be 1..7"):
        kickout_curve(RULES, players=9)


def test_bonus_rtp_function_is_exact_at_the_current_pays(analysis):
    f = bonus_rtp_function(RULES, analysis)
    pays = {ln.key: ln.pays for ln in RULES.bonus}
    assert f(pays) == pytest.approx(analysis.at_threshold()["rtp_per_initial_bet"], abs=1e-12)
    # linear: one more unit on the royal adds exactly P(royal paid)
    more = dict(pays, royal_flush=pays["royal_flush"] + 1)
    vec = np.array([0.0] + [float(more[k]) for k in analysis.line_names[1:]])
    assert f(more) == pytest.approx(analysis.rtp_with_pays(vec)["rtp_per_initial_bet"], abs=1e-12)


def test_tune_bonus_hits_window(analysis):
    target = analysis.at_threshold()["rtp_per_initial_bet"] - 0.002
    res = tune_bonus(RULES, target, ["straight", "flush", "full_house"], analysis=analysis, n_best=3)
    best = res.candidates[0]
    assert abs(best.rtp - target) <= 0.001
    p = best.pays_dict()
    assert p["straight"] <= p["flush"] <= p["full_house"] <= p["four_of_a_kind"]


def test_published_figures_tiny(analysis, analysis_no_bonus, tmp_path):
    res = published_figures(RULES, rounds=300, seed=1, readings=("perfect", "pot-odds-now-no-bonus"),
                            players=(2,), weak_profiles=("always",), solo=analysis, solo_no_bonus=analysis_no_bonus)
    t = res.to_frame()
    assert set(t["reading"]) >= {"perfect", "pot-odds-now-no-bonus", "always"}
    row = t[(t["reading"] == "perfect") & (t["figure"].str.startswith("Fold frequency, perfect play, 1"))].iloc[0]
    assert row["computed"] == pytest.approx(analysis.at_threshold()["fold_frequency"], abs=1e-15)
    assert row["published"] == 0.229
    md, csv = res.write(tmp_path)
    assert md.read_text().startswith("# Published figures vs computed")
    assert csv.read_text().splitlines()[0].startswith("figure,published,reading,computed")


def test_bonus_rtp_function_mc_reproduces_its_run():
    """At several players the linear model, at the current pays, is the run's own RTP."""
    from ricochet_math.solvers.montecarlo import simulate
    from ricochet_math.design.tuning import bonus_rtp_function_mc
    r = simulate(RULES, players=2, strategy="pot-odds-now", rounds=2000, seed=3, progress=False)
    f = bonus_rtp_function_mc(RULES, 2, result=r)
    pays = {ln.key: ln.pays for ln in RULES.bonus}
    assert f(pays) == pytest.approx(r.summary()["rtp_initial"].estimate, abs=1e-12)
    with pytest.raises(RuleError, match="players must be 1..7"):
        tune_bonus(RULES, 0.96, players=8)
