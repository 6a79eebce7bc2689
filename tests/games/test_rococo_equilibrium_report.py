"""Rococo's equilibrium measured with every raise size range against range, the raise translations, the
comparison with the threshold simulations and the report's "Equilibrium play" section.

The games are the small ones of ``test_rococo_equilibrium`` (a few values, bets 1..4): every range
figure has a second path, the layer's exact best response in the tree with every raise size."""
from __future__ import annotations

import math
import numpy as np
import pandas as pd
import pytest

from ricochet_math.errors import RicochetError
from ricochet_math.equilibrium.best_response import best_response
from ricochet_math.games.rococo.betting_game import (
    Abstraction, RococoBettingGame, build_betting_tree, translate_history,
)
from ricochet_math.games.rococo.equilibrium import pot_best_responses, solve_equilibrium, translate_profile
from ricochet_math.games.rococo.exact_cards import pot_exact_card_best_responses
from ricochet_math.games.rococo.every_raise_size import measure_every_raise_size
from ricochet_math.games.rococo.range_response import pot_range_best_responses, range_best_response
from ricochet_math.games.rococo.rules import RococoRules
from ricochet_math.games.rococo.translation import (
    NEAREST, PSEUDO_HARMONIC, pseudo_harmonic, translated_profile, translation,
)

from test_rococo_equilibrium import _cli, two_count_model

RULES = RococoRules(max_bet=4, max_raises=2, carry_limit=2)
SPEC = Abstraction("q", 2, (1, 4), policy_edges=False)


@pytest.fixture(scope="module")
def solved():
    m = two_count_model()
    bt = build_betting_tree(RococoBettingGame(RULES, m, SPEC))
    fb = build_betting_tree(RococoBettingGame(RULES, m, SPEC.unabstracted_betting()))
    res = solve_equilibrium(SPEC, 100, rules=RULES, model=m, policies=())
    return m, bt, fb, res


def test_range_best_response_is_the_tree_s(solved):
    """Bucket rows in the abstract tree: the layer's best response; with every raise size: the layer's in the
    tree with every size (the profile translated); exact-value rows: the exact-card best response."""
    _, bt, fb, res = solved
    want = pot_best_responses(bt, res.profiles)
    got = pot_range_best_responses(bt, res.profiles, every_raise_size=False)
    assert np.allclose(got, want, atol=1e-12, rtol=0)
    full = [translate_profile(bt, s, fb) for s in res.profiles]
    want = pot_best_responses(fb, full)
    assert np.allclose(pot_range_best_responses(bt, res.profiles), want, atol=1e-12, rtol=0)
    assert np.allclose(pot_range_best_responses(bt, res.profiles, cards="exact", every_raise_size=False),
                       pot_exact_card_best_responses(bt, res.profiles), atol=1e-12, rtol=0)
    assert np.allclose(pot_range_best_responses(bt, res.profiles, cards="exact"),
                       pot_exact_card_best_responses(fb, full), atol=1e-12, rtol=0)
    # more raise sizes and more knowledge never help the strategy
    f, s = pot_range_best_responses(bt, res.profiles)
    fa, sa = pot_best_responses(bt, res.profiles)
    assert f[0] + s[0] >= fa[0] + sa[0] - 1e-12
    with pytest.raises(RicochetError, match="cards must be one of buckets, exact"):
        range_best_response(bt, res.profiles[0], 0, 0, 0.0, cards="hands")


def test_pseudo_harmonic_mapping():
    # the endpoints and the formula (Ganzfried and Sandholm 2013): A = 1/4, B = 1 of the pot, x = 1/2
    assert pseudo_harmonic(0.25, 1.0, 0.25) == 1.0 and pseudo_harmonic(0.25, 1.0, 1.0) == 0.0
    assert pseudo_harmonic(0.25, 1.0, 0.5) == pytest.approx((1 - 0.5) * 1.25 / (0.75 * 1.5), abs=1e-15)
    ys = np.linspace(0.25, 1.0, 11)
    assert np.all(np.diff([pseudo_harmonic(0.25, 1.0, y) for y in ys]) < 0)
    # in chips: a raise of 2 between 1 and 3 with a pot of 4 (fractions 1/4, 3/4, 1/2)
    (lo, p), (hi, q) = PSEUDO_HARMONIC.read(2, (1, 3, 10), 4.0)
    assert (lo, hi) == (1, 3) and p == pytest.approx(0.25 * 1.25 / (0.5 * 1.5), abs=1e-15) and p + q == 1.0
    assert PSEUDO_HARMONIC.read(3, (1, 3, 10), 4.0) == ((3, 1.0),)
    # nearest is the tree's translation
    for x in range(1, 11):
        assert NEAREST.read(x, (1, 3, 10), 9.0) == ((int(translate_history((f"r{x}",), (1, 3, 10))[0][1:]), 1.0),)
    with pytest.raises(RicochetError, match="unknown raise translation 'harmonic'"):
        translation("harmonic")
    with pytest.raises(RicochetError, match="a <= y <= b"):
        pseudo_harmonic(0.5, 1.0, 0.25)


def test_the_randomised_translation_by_two_paths(solved):
    """The range walk carries the readings as a hidden state; the mixed behaviour strategy in the tree
    with every raise size (Kuhn's theorem, realisation weights) read by the layer's best response gives the
    same values; with the nearest size it is the tree's translate_profile."""
    _, bt, fb, res = solved
    for k in range(3):
        carry = None if k == 2 else (0.3, -0.2)
        near = translated_profile(bt, res.profiles[k], fb, NEAREST, level=k)
        assert np.allclose(near, translate_profile(bt, res.profiles[k], fb), atol=1e-15, rtol=0)
        mixed = translated_profile(bt, res.profiles[k], fb, PSEUDO_HARMONIC, level=k)
        for p in (0, 1):
            want = best_response(fb.level_tree(k, carry), mixed, p)[0]
            got = range_best_response(bt, res.profiles[k], p, k, None if carry is None else carry[p],
                                      translation=PSEUDO_HARMONIC)
            assert got == pytest.approx(want, abs=1e-12)
    # here the randomised reading is the less exploitable one (measured: 0.0105 against 0.0350)
    f, s = pot_range_best_responses(bt, res.profiles, translation=PSEUDO_HARMONIC)
    fn, sn = pot_range_best_responses(bt, res.profiles)
    assert f[0] + s[0] == pytest.approx(0.010497, abs=1e-5) and fn[0] + sn[0] == pytest.approx(0.034970, abs=1e-5)


def test_measure_every_raise_size_is_solve_s_full_betting():
    rules = RococoRules(max_bet=3, max_raises=2, carry_limit=1)
    spec = Abstraction("q", 2, (1, 3))
    m = two_count_model()
    tree = solve_equilibrium(spec, 100, rules=rules, model=m, policies=("standard", "loose"), full_betting=True,
                             exact_cards=True)
    plain = solve_equilibrium(spec, 100, rules=rules, model=m, policies=("standard", "loose"))
    ranged = measure_every_raise_size(plain, model=m, exact_cards=True)
    assert ranged.nash_conv_full == pytest.approx(tree.nash_conv_full, abs=1e-12)
    assert ranged.nash_conv_exact_cards_full == pytest.approx(tree.nash_conv_exact_cards_full, abs=1e-12)
    assert np.allclose(ranged.policies.exploitability_full, tree.policies.exploitability_full, atol=1e-12)
    assert "range against range" in ranged.tree_sizes["full"] and "with every raise size" in ranged.summary()


def test_cli_refuses_translation_without_the_range_measure():
    for args, message in ((["--translation", "pseudo-harmonic"], "needs --full-betting-ranges"),
                          (["--full-betting", "--full-betting-ranges"], "not both")):
        r = _cli(*args)
        assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1


def test_carry_rates_are_simulate_s_pots_with_batch_means():
    from ricochet_math.games.rococo.analysis import simulate
    from ricochet_math.games.rococo.equilibrium_compare import carry_rates

    rules = RococoRules(players=2)
    sim = simulate(rules, ["standard", "standard"], 10_000, 7, batch_size=1000)
    rates = carry_rates(rules, ["standard", "standard"], 10_000, 7, batch_size=1000)
    assert rates.counts == sim.counts and rates.batches == 10
    assert carry_rates(rules, ["standard", "standard"], 3000, 7, batch_size=1000).batches == 10
    g = rates.games_per_pot
    assert g.estimate == sim.counts["games"] / 10_000 and g.low < g.estimate < g.high
    assert rates.carried_share.estimate == sim.counts["carries"] / sim.counts["games"]


def test_threshold_comparison_marks_what_lies_outside():
    from ricochet_math.games.rococo.equilibrium_compare import CarryRates, threshold_comparison
    from ricochet_math.solvers.stats import Estimate

    class Eq:  # the two figures the comparison reads of a solve
        games_per_pot = 1.25

    est = lambda x, h: Estimate(x, h / 2, x - h, x + h)  # noqa: E731
    rates = CarryRates(est(2.4, 0.05), est(0.58, 0.01), 1000, 10, {})
    model = {"standard_vs_loose": -0.25, "standard_self_first": 0.0, "standard_self_games": 2.42}
    t = threshold_comparison(Eq(), model, est(-0.30, 0.01), est(0.002, 0.01), rates, est(0.82, 0.01))
    by = t.set_index("figure")
    assert by.loc["games per pot"].equilibrium == 1.25 and bool(by.loc["games per pot"].equilibrium_outside)
    assert not by.loc["games per pot"].model_outside
    assert by.loc["share of games carried (all checks)"].equilibrium == pytest.approx(0.2, abs=1e-15)
    row = by.loc["standard (seat 1) against loose: net per pot"]
    assert math.isnan(row.equilibrium) and row.equilibrium_outside is None and bool(row.model_outside)
    assert not by.iloc[0].equilibrium_outside


def test_the_report_section_reads_the_committed_solve(rococo_tiny_report):
    """Built at size tiny over the committed solve: the section is there, its tables are the solve's, the
    convergence plot has log axes and no point at 0."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    from ricochet_math.games.rococo.equilibrium_compare import read_equilibrium_folder
    from ricochet_math.games.rococo.equilibrium_section import EQUILIBRIUM_FOLDER, TITLE, plot_convergence

    out, rep = rococo_tiny_report
    html = (out / "report.html").read_text(encoding="utf-8")
    assert TITLE in html and "rococo-equilibrium-convergence" in html
    eq = read_equilibrium_folder(EQUILIBRIUM_FOLDER)
    pol = pd.read_csv(out / "tables" / "equilibrium_policies.csv")
    pd.testing.assert_frame_equal(pol, eq.policies, rtol=0, atol=0)
    levels = pd.read_csv(out / "tables" / "equilibrium_levels.csv")
    pd.testing.assert_frame_equal(levels, eq.levels, rtol=0, atol=0)
    figures = pd.read_csv(out / "tables" / "equilibrium_figures.csv").set_index("figure").value
    assert figures["first player's value per pot (antes)"] == eq.levels.first_player_value[0]
    assert figures["exploitability (NashConv) in the abstract tree (antes per pot)"] == eq.nash_conv
    comp = rep.tables["equilibrium_comparison"].set_index("figure")
    assert comp.loc["games per pot"].equilibrium == pytest.approx(eq.games_per_pot, abs=1e-15)
    fig = Figure(figsize=(7.2, 3.2))
    plot_convergence(fig, (0, 0, 7.2, 3.2), eq.curves)
    ax = fig.axes[0]
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    xs = np.concatenate([line.get_xdata() for line in ax.get_lines()])
    assert xs.min() > 0 and len(ax.get_lines()) == eq.levels.shape[0]


def _comparison_rows(table: pd.DataFrame) -> list[str]:
    """The guide's comparison table, row by row, from the section's table."""
    def num(x):
        return "n/a" if pd.isna(x) else f"{x:.4f}"

    def outside(x):
        return "n/a" if x is None or pd.isna(x) else ("**yes**" if str(x) == "True" else "no")

    rows = []
    for r in table.itertuples():
        half = (r.simulated_high - r.simulated_low) / 2
        rows.append(f"| {r.figure} | {num(r.equilibrium)} | {num(r.model_policies)} | {r.simulated:.4f} ± {half:.4f} "
                    f"| {outside(r.equilibrium_outside)} | {outside(r.model_outside)} |")
    return rows


def _guide():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    return root, (root / "docs" / "rococo-poker.md").read_text(encoding="utf-8")


def test_the_guide_quotes_the_default_solve_and_the_translation():
    import re

    from ricochet_math.games.rococo.equilibrium_compare import read_equilibrium_folder

    root, guide = _guide()
    eq = read_equilibrium_folder(root / "reports" / "rococo-equilibrium" / "default")
    lo, hi = eq.value_bounds
    cards = float(re.search(r"; ([0-9.e-]+) against best responses that know their exact final value",
                            eq.summary).group(1))
    both = float(re.search(r"\(([0-9.e-]+) with every raise size too\)", eq.summary).group(1))
    for text in (f"**{eq.levels.first_player_value[0]:.4f} antes per pot** (bracket [{lo:.4f}, {hi:.4f}])",
                 f"**{eq.levels.carry_probability[0]:.1%}**", f"**{eq.games_per_pot:.3f} games**",
                 f"**{eq.nash_conv:.3g}** in the abstract tree", f"**{cards:.3f}** against best responses",
                 f"**{eq.nash_conv_full:.3f}** with every raise size", f"**{both:.3f}** with both"):
        assert text in guide, text
    for r in eq.policies.itertuples():
        if r.policy == "naive":
            continue
        line = (f"| {r.exploitability:.3f} | {r.exploitability_full:.3f} | {r.exploitability_exact_cards:.3f} | "
                f"{r.vs_equilibrium:.3f} | {r.vs_equilibrium_as_first:.3f} | {r.vs_equilibrium_as_second:.3f} |")
        assert line in guide, line
    ph = read_equilibrium_folder(root / "reports" / "rococo-equilibrium" / "tiny-pseudo-harmonic")
    near = read_equilibrium_folder(root / "reports" / "rococo-equilibrium" / "tiny")
    assert ph.nash_conv == near.nash_conv  # the same solve, read otherwise only with every raise size
    assert f"**{ph.nash_conv_full:.3f}** with the pseudo-harmonic reading" in guide
    assert f"against **{near.nash_conv_full:.3f}** with the nearest size" in guide
    assert f"{near.nash_conv_full / ph.nash_conv_full:.0f} times less exploitable" in guide


def test_the_guide_quotes_the_comparison_with_the_threshold_answers():
    """The guide's comparison table is the report's (reports/rococo/tables/equilibrium_comparison.csv once
    the committed report has the section; until then the same table made by the same simulations at size
    full, seed 2026: seconds)."""
    root, guide = _guide()
    committed = root / "reports" / "rococo" / "tables" / "equilibrium_comparison.csv"
    if committed.exists():
        table = pd.read_csv(committed)
    else:
        from ricochet_math.games.rococo.equilibrium_section import report_comparison
        from ricochet_math.games.rococo.report import REPORT_SIZES

        table = report_comparison(REPORT_SIZES["full"][0], 2026)
    for row in _comparison_rows(table):
        assert row in guide, row


def test_the_report_section_reads_the_committed_blind_solve(rococo_tiny_report, tmp_path):
    """Section 7's blind part is the committed --blind solve's blind.csv, figure for figure, and without that
    folder the section says how to make it (nothing else changes)."""
    from ricochet_math.games.rococo.equilibrium_section import BLIND_FOLDER, _blind_part
    from ricochet_math.reports.document import Section

    out, _ = rococo_tiny_report
    committed = pd.read_csv(BLIND_FOLDER / "blind.csv")
    written = pd.read_csv(out / "tables" / "equilibrium_blind.csv")
    pd.testing.assert_frame_equal(written, committed[list(written.columns)], rtol=0, atol=0)
    r = committed.iloc[0]
    html = " ".join((out / "report.html").read_text(encoding="utf-8").split())
    assert (f"worth {r.option_value:+.4f} antes per pot to the first player, within [{r.option_low:+.4f}, "
            f"{r.option_high:+.4f}]") in html.replace("&#43;", "+")
    verdict = ("no detectable value at this precision" if r.option_low <= 0 <= r.option_high else
               f"a {'gain' if r.option_low > 0 else 'loss'} detectable at this precision")
    assert verdict in html
    assert f"(reports/rococo-equilibrium/{BLIND_FOLDER.name})" in html and "a carry limit of 10" in html
    assert "2,000 DCFR range against range iterations a state" in html
    assert (f"the pot strategy's exploitability is {r.nash_conv_every_blind_size:.4f} antes per pot, against "
            f"{r.nash_conv:.4f} in its own sizes") in html.replace("&#39;", "'")
    s = Section("7", "x")
    assert _blind_part(s, tmp_path / "missing") is None
    assert "has no committed solve here" in s.blocks[0].text and "--blind 1,3,10" in s.blocks[0].text
