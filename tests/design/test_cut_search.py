"""The rule-set design's cut search (issue 34): every re-solved surface kept as a plane, a trust region, the
convergence label, and the relaxation's certificate.

Truths: brute force over small grids (``enumerate_designs`` scores every design with the same key; the
relaxation's miss by enumeration here); at N = 1 the exact solo analysis at **every** grid paytable (a
restricted set of starting-hand classes keeps it fast: the RTP over any set of hands is still the maximum of
linear functions of the pays, so the same argument holds, exactly); ``ricochet solo`` of the written rule set
for the figures a design reports at N = 1.
"""
from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

import ricochet_math.design.rule_set as rule_set_module
from ricochet_math.cli.app import main
from ricochet_math.design.optimiser_problem import make_problem
from ricochet_math.design.rule_set import design_rule_set
from ricochet_math.design.rule_set_search import DesignModel, enumerate_designs, relaxed_miss, search_design
from ricochet_math.reports.design_rationale import answer_markdown, rationale_section
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.solvers.solo import solo_analysis

KEYS = ("straight", "flush", "full_house")
BASE = {"straight": 2, "flush": 5, "full_house": 10}
#: a few starting-hand classes (indices of the 169), among them suited connectors whose draws pay the bonus
CLASSES = (0, 12, 40, 77, 100, 130, 150, 168)
GRID = ("KK", "KKQ", "AAQ")


@pytest.fixture(scope="module")
def rules():
    return load_rules()


# ---------------------------------------------------------------- the program with planes, against brute force

def _convex_model(rng, n_cuts, trust):
    """Player counts 1..3, four thresholds, every plane a tangent of a convex function of the pays."""
    players = (1, 2, 3)
    pats = {n: ("a", "b", "c", "d") for n in players}
    const = {n: np.sort(rng.uniform(0.90, 0.99, 4))[::-1] for n in players}
    coef = {n: rng.uniform(0.001, 0.01, (4, 3)) for n in players}
    half = {n: rng.uniform(0, 0.002, 4) * (n > 1) for n in players}
    cuts = {n: tuple((const[n] - rng.uniform(0.0, 0.01, 4), coef[n] * rng.uniform(0.7, 1.4, (4, 3)))
                     for _ in range(n_cuts)) for n in players}
    prob = make_problem(BASE, None, (0.95, 0.97), {"straight": 1, "flush": 1, "full_house": 2}, True,
                        {"straight": (1, 4), "flush": (2, 7), "full_house": (6, 14)}, None, 0.001, 1)
    box = {"straight": (1, 3), "flush": (3, 6), "full_house": (4, 6)} if trust else None
    return DesignModel(players, pats, const, coef, half, {1: "a", 2: "b", 3: "c"}, KEYS, BASE, prob,
                       cuts=cuts, trust=box)


@pytest.mark.parametrize("objective", ("band", "target", "flat"))
@pytest.mark.parametrize("trial", range(4))
def test_search_with_cuts_and_trust_is_the_best_of_the_grid(objective, trial):
    """The largest plane is the RTP the program sees: its design has the brute-force optimum's key, inside the
    trust region."""
    model = _convex_model(np.random.default_rng(200 + trial), n_cuts=1 + trial % 3, trust=trial % 2 == 1)
    band = (0.955, 0.965)
    target = 0.96 if objective == "target" else None
    got = search_design(model, band, objective, target)
    assert got.key == enumerate_designs(model, band, objective, target).key
    for k, (lo, hi) in model.index_bounds().items():
        assert lo <= got.pays[k] / model.problem.step[k] <= hi
    # the figures are the largest plane's
    for n in model.players:
        t = model.patterns[n].index(got.thresholds[n])
        vec = np.array([float(got.pays[k]) for k in KEYS])
        assert got.rtp[n] == pytest.approx(max(c[t] + a[t] @ vec for c, a in model.planes(n)), abs=1e-12)


def _relaxed_by_brute_force(model, band, lower):
    """The relaxation's smallest worst miss by enumeration (module docstring of rule_set_search)."""
    lo, hi = band
    p = model.problem
    best = np.inf
    for idx in itertools.product(*(range(p.lo[k], p.hi[k] + 1) for k in p.free)):
        pays = dict(model.base_pays) | {k: i * p.step[k] for k, i in zip(p.free, idx)}
        if any(pays[b] < pays[a] for a, b in zip(p.keys, p.keys[1:])):
            continue
        worst = 0.0
        for n in model.players:
            per_t = []
            for pat in model.patterns[n]:
                r, h = model.rtp(n, pat, pays), model.half(n, pat)
                per_t.append(max(0.0, r - hi) if n in lower else max(0.0, lo - (r + h), (r - h) - hi))
            worst = max(worst, min(per_t))
        best = min(best, worst)
    return best


@pytest.mark.parametrize("trial", range(4))
def test_relaxation_is_the_brute_force_one(trial):
    """N = 1 held from below only (any RTP at or above its largest plane), the others' intervals read leniently;
    the whole grid (the trust region dropped)."""
    model = _convex_model(np.random.default_rng(300 + trial), n_cuts=2, trust=True)
    for band in ((0.955, 0.965), (0.90, 0.905), (0.995, 0.999)):
        r = relaxed_miss(model, band, lower_bounds=(1,))
        assert r.miss == pytest.approx(_relaxed_by_brute_force(model, band, {1}), abs=1e-8)
        pair = relaxed_miss(model, band, lower_bounds=(1,), players=(1, 3))
        sub = DesignModel((1, 3), *({n: d[n] for n in (1, 3)} for d in (model.patterns, model.constant,
                                                                       model.coefficients, model.half_width,
                                                                       model.current)),
                          KEYS, BASE, model.problem, cuts={n: model.cuts[n] for n in (1, 3)})
        assert pair.miss == pytest.approx(_relaxed_by_brute_force(sub, band, {1}), abs=1e-8)
        assert pair.miss <= r.miss + 1e-9  # fewer player counts: a weaker condition


# ---------------------------------------------------------------- N = 1: the cuts against the exact RTP

@pytest.fixture(scope="module")
def few_classes():
    """``solo_analysis`` on CLASSES only, as the design calls it (the figures cover those hands)."""
    mp = pytest.MonkeyPatch()
    mp.setattr(rule_set_module, "solo_analysis",
               lambda rules, use_bonus=True, progress=False: solo_analysis(rules, classes=CLASSES,
                                                                            use_bonus=use_bonus))
    yield
    mp.undo()


@pytest.fixture(scope="module")
def solo_design(rules, few_classes):
    """A design at N = 1 on CLASSES: the band set where the bonus must move, a trust region to cross."""
    shipped = solo_analysis(rules, classes=CLASSES).at_threshold()["rtp_per_initial_bet"]
    band = (shipped + 0.005, shipped + 0.0065)
    return design_rule_set(rules, band, reading="perfect", players=(1,), grid=GRID, lines="straight,flush",
                           bounds={"straight": (1, 6), "flush": (2, 12)}, others=(), max_resolves=6, seed=2)


def _pays_of(text: str) -> dict:
    """The iterations table's "bonus" text back to pays (the lines not named are the shipped ones)."""
    moved = {} if text == "shipped" else {k: float(v) for k, v in (item.rsplit(" ", 1) for item in text.split(", "))}
    return {k: float(v) for k, v in BASE.items()} | moved


def test_a_cut_never_over_predicts_the_exact_rtp(solo_design, rules):
    """Brute force at N = 1: the exact solo RTP at every paytable of the grid and every threshold is at least
    every plane the search kept, and equals the largest plane at every paytable it re-solved (the cut model is
    exact there)."""
    d = solo_design
    assert d.resolves >= 2 and len(d.cut_model.planes(1)) == d.resolves + 1
    p = d.cut_model.problem
    visited = [_pays_of("shipped")] + [_pays_of(t) for t in d.iterations.pays]
    checked = 0
    for s, f in itertools.product(range(p.lo["straight"], p.hi["straight"] + 1),
                                  range(p.lo["flush"], p.hi["flush"] + 1)):
        if f < s:
            continue
        pays = dict(d.cut_model.base_pays) | {"straight": s, "flush": f}
        exact = solo_analysis(rules.with_bonus(straight=s, flush=f), classes=CLASSES)
        was_visited = any(v["straight"] == s and v["flush"] == f for v in visited)
        for pat in d.cut_model.patterns[1]:
            truth = exact.at_threshold(rules.with_kickout(1, pat).kickout_value(1))["rtp_per_initial_bet"]
            model = d.cut_model.rtp(1, pat, pays)
            assert model <= truth + 1e-12, (s, f, pat)
            if was_visited:
                assert model == pytest.approx(truth, abs=1e-12), (s, f, pat)
            checked += 1
    assert checked > 40
    assert d.convexity[d.convexity.players == 1].lower_bound.all()
    assert (d.convexity.over_prediction <= 1e-12).all()


def test_the_cut_search_converges_where_the_shortcut_would_jump(solo_design):
    """The trust region bounds each step (a factor, or one grid step, from a paytable already re-solved), the
    search ends converged, and the iterations table has one row per re-solve with its gap; the exact N = 1 cut
    error is never positive."""
    d = solo_design
    assert d.converged and "converged after" in d.summary()
    it = d.iterations
    assert list(it.iteration) == list(range(1, d.resolves + 1))
    assert (it.gap <= 1e-12).all() and it.exact.all()
    seen = [_pays_of("shipped")]
    for text, radius in zip(it.pays, it.radius):
        pays = _pays_of(text)
        assert any(all(pays[k] <= max(c[k] * radius, c[k] + 1) + 1e-9 and pays[k] >= min(c[k] / radius, c[k] - 1) - 1e-9
                       for k in ("straight", "flush")) for c in seen), text
        seen.append(pays)
    assert d.feasible == (d.choice.miss <= 0)


def test_design_figures_at_one_player_are_the_solo_analysis(solo_design):
    """Every N = 1 figure the design reports (search, confirmation, the iteration at its pays) is the exact
    analysis of the designed rule set, to the printed digits and to rounding."""
    d = solo_design
    fresh = solo_analysis(d.designed, classes=CLASSES).at_threshold()["rtp_per_initial_bet"]
    row = d.table.iloc[0]
    assert row.rtp == pytest.approx(fresh, abs=1e-12) and row.search_rtp == pytest.approx(fresh, abs=1e-12)
    assert f"{100 * row.rtp:.3f}" == f"{100 * fresh:.3f}"
    designed = {l.key: float(l.pays) for l in d.designed.bonus}
    same = [r for r in d.iterations.itertuples() if r.threshold == d.designed.kickout[1]
            and all(_pays_of(r.pays)[k] == designed[k] for k in ("straight", "flush"))]
    for r in same:
        assert r.resolved == pytest.approx(fresh, abs=1e-12)


# ---------------------------------------------------------------- the labels

@pytest.fixture(scope="module")
def unconverged(rules):
    """No re-solve allowed while the search moves the pays: not converged."""
    return design_rule_set(rules, (0.93, 0.99), reading="pot-odds-final", objective="target", target=0.935,
                           players=(2,), grid=GRID, lines="straight,flush", search_precision=2.0,
                           confirm_precision=2.0, others=(), max_resolves=0, seed=4)


def test_not_converged_is_a_labelled_result(unconverged, tmp_path):
    d = unconverged
    assert not d.converged and d.resolves == 0
    assert "NOT converged after 0 re-solve(s)" in d.summary()
    assert set(d.table["search"]) == {"NOT converged"}
    path = d.write_toml(tmp_path / "d.toml")
    header = [line for line in path.read_text().splitlines() if line.startswith("#")]
    assert any(line.startswith("# Search: NOT converged") for line in header)
    record = json.loads((tmp_path / "d.design.json").read_text())
    assert record["converged"] is False and record["convergence"].startswith("NOT converged")
    section = rationale_section(load_rules(path))
    assert "Search: NOT converged" in section.blocks[1].text
    assert [row[-1] for row in section.blocks[2].rows] == ["NOT converged"]
    md = answer_markdown("x", "ricochet design ...", record)
    assert "**Search**: NOT converged" in md and "| NOT converged |" in md


def test_converged_is_labelled_too(solo_design, tmp_path):
    d = solo_design
    path = d.write_toml(tmp_path / "c.toml")
    assert "# Search: converged after" in path.read_text()
    assert set(d.table["search"]) == {"converged"}
    record = json.loads((tmp_path / "c.design.json").read_text())
    assert record["iterations"] and record["convexity"] and record["converged"] is True
    md = answer_markdown("x", "ricochet design ...", record)
    assert "**Search**: converged after" in md and "| iteration | players |" in md


def test_out_of_reach_band_gets_a_certificate(rules, few_classes, tmp_path):
    """A band N = 1 cannot reach on the grid: the relaxation's proof (N = 1 held from below only), the binding
    player count and lines; exit 0 from the CLI with the certificate printed."""
    d = design_rule_set(rules, (0.50, 0.51), reading="perfect", players=(1,), grid=GRID, lines="straight,flush",
                        bounds={"straight": (1, 3), "flush": (4, 6)}, others=(), seed=1)
    assert not d.feasible and d.certificate is not None
    c = d.certificate
    assert c["relaxed_miss"] > 0.05 and c["proved"] and c["binding"][0]["players"] == [1]
    assert c["binding"][0]["at_bound"] == {"straight": "lower", "flush": "lower"}
    assert "out of reach on this grid" in d.summary()
    # the relaxed miss is the exact RTP's at the lowest pays and the highest threshold: nothing on the grid is lower
    low = solo_analysis(rules.with_bonus(straight=1, flush=4), classes=CLASSES)
    best = min(low.at_threshold(rules.with_kickout(1, pat).kickout_value(1))["rtp_per_initial_bet"] for pat in GRID)
    assert c["relaxed_miss"] == pytest.approx(best - 0.51, abs=1e-9)
    # the record carries it to the report's "Design rationale" section and to the markdown answer
    path = d.write_toml(tmp_path / "out.toml")
    record = json.loads((tmp_path / "out.design.json").read_text())
    assert record["certificate"]["binding"][0]["players"] == [1]
    assert "Certificate: out of reach on this grid" in rationale_section(load_rules(path)).blocks[1].text
    assert answer_markdown("x", "ricochet design ...", record).count("**Out of reach on this grid**") == 1


def test_cli_prints_the_iterations_and_convexity(capsys, few_classes):
    status = main(["design", "--band", "50", "51", "--reading", "perfect", "--players", "1", "--grid", "KK KKQ",
                   "--lines", "straight,flush", "--bounds", "straight=1:3", "--bounds", "flush=4:6", "--others", "",
                   "--quiet"])
    assert status == 0
    out = capsys.readouterr().out
    assert "out of reach on this grid" in out and "The iterations" in out and "Convexity" in out


@pytest.mark.slow
def test_design_at_one_player_is_a_fresh_ricochet_solo(rules, tmp_path, capsys):
    """Full solo analyses (every hand), a small grid: the N = 1 figure the design prints (table, record, TOML
    header) is what `ricochet solo` of the written rule set prints, to its digits."""
    shipped = solo_analysis(rules).at_threshold()["rtp_per_initial_bet"]
    d = design_rule_set(rules, (shipped + 0.004, shipped + 0.006), reading="perfect", players=(1,), grid=GRID,
                        lines="straight,flush", bounds={"straight": (1, 4), "flush": (3, 10)}, others=(), seed=3)
    assert d.resolves >= 1 and (d.convexity.over_prediction <= 1e-12).all()
    path = d.write_toml(tmp_path / "solo-design.toml")
    capsys.readouterr()
    assert main(["solo", "--rules", str(path)]) == 0
    out = capsys.readouterr().out
    row = d.table.iloc[0]
    assert f"RTP per initial bet {row.rtp:.6%}" in out and f"{row.search_rtp:.6%}" in out
    assert f"#   N = 1: {row.rtp:.3%} (exact)" in path.read_text()


# ---------------------------------------------------------------- the integer program's time limit

def test_a_tie_break_stage_out_of_time_keeps_the_earlier_stage_s_design(monkeypatch):
    """A later stage that returns no solution within its time keeps the first stage's design (it satisfies
    every row so far) and is counted; a first stage that finds nothing is the SearchTimeLimit error."""
    import scipy.optimize

    from ricochet_math.design import rule_set_search as rs

    model = _convex_model(np.random.default_rng(3), 2, trust=False)
    band = (0.95, 0.97)
    full = search_design(model, band, "band")
    assert full.unfinished_stages == 0
    real, calls = scipy.optimize.milp, []

    def stages_after_the_first_out_of_time(*args, **kwargs):
        calls.append(kwargs["options"]["time_limit"])
        res = real(*args, **kwargs)
        if len(calls) > 1:
            res.x = None
            res.message = "Time limit reached."
        return res

    monkeypatch.setattr(scipy.optimize, "milp", stages_after_the_first_out_of_time)
    kept = search_design(model, band, "band")
    assert calls == [rs.STAGE_SECONDS, rs.STAGE_SECONDS] and kept.unfinished_stages == 1
    assert kept.miss == pytest.approx(full.miss, abs=1e-9)  # the first stage's optimum: the worst miss
    calls.clear()
    monkeypatch.setattr(scipy.optimize, "milp", lambda *a, **k: type("R", (), {"x": None, "message": "Time limit"})())
    with pytest.raises(rs.SearchTimeLimit, match="found no solution"):
        search_design(model, band, "band")


def test_a_search_out_of_time_after_a_re_solve_is_a_labelled_result(rules, few_classes, monkeypatch):
    """The first search after a re-solve finding nothing in time ends the search, not converged, with the
    best re-solved design reported (exit 0 in the CLI: non-convergence is a result)."""
    from ricochet_math.design import rule_set_search as rs

    real = rule_set_module.search_design

    def out_of_time_with_cuts(model, *args, **kwargs):  # the cut model's search after a re-solve
        if model.cuts and any(model.cuts.values()):
            raise rs.SearchTimeLimit("the design search found no solution (Time limit reached.)")
        return real(model, *args, **kwargs)

    monkeypatch.setattr(rule_set_module, "search_design", out_of_time_with_cuts)
    shipped = solo_analysis(rules, classes=CLASSES).at_threshold()["rtp_per_initial_bet"]
    d = design_rule_set(rules, (shipped + 0.005, shipped + 0.0065), reading="perfect", players=(1,), grid=GRID,
                        lines="straight,flush", bounds={"straight": (1, 6), "flush": (2, 12)}, others=(),
                        max_resolves=6, seed=2)
    assert not d.converged and d.resolves == 1
    assert "integer program found no design within its time limit" in d.convergence_text()
    assert set(d.table["search"]) == {"NOT converged"}
