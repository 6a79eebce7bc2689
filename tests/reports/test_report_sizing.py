"""Issue 14: the report reuses its runs and sizes them to a stated precision."""
from __future__ import annotations

import pytest

from ricochet_math.reports import compute, published
from ricochet_math.reports.sizes import SIZES
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.solvers.montecarlo import simulate

RULES = load_rules()


def _jobs(size, players, rounds, tmp_path):
    jobs, keys, _ = compute._plan(RULES, size, players, rounds, 7, tmp_path, False, None, None)
    return {j.key: j for j in jobs}, keys


def test_published_perfect_rows_reuse_the_perfect_runs(tmp_path, monkeypatch):
    """The published figures' perfect-play reading at N = 2 reads the report's own perfect-play run
    (the same rounds and seed): with simulate taken away from the published module it still builds,
    and its row equals a fresh simulate's."""
    size = SIZES["tiny"]
    jobs, keys = _jobs(size, (2,), 200, tmp_path)
    perfect = jobs[keys[("perfect", 2)]].run()
    fresh = simulate(RULES, 2, "perfect", 200, 7, progress=False)
    assert perfect.to_frame().drop(columns="run_time_s").equals(fresh.to_frame().drop(columns="run_time_s"))

    def refuse(*args, **kwargs):
        raise AssertionError("the published figures ran perfect play again")

    monkeypatch.setattr(published, "simulate", refuse)
    pub = jobs[keys[("published", "perfect")]].run()
    row = pub.by_players[pub.by_players.players == 2].iloc[0]
    want = fresh.to_frame().iloc[0]
    assert row.rtp_initial == want["rtp_initial_cv"] and row.method == "monte carlo 200 rounds, control variates"


def test_full_size_is_sized_to_a_precision():
    full = SIZES["full"]
    assert (full.precision, full.reading_precision) == (0.05, 0.1)
    assert "0.05 percentage points" in full.note and "0.1 points" in full.note
    assert SIZES["tiny"].precision is None and SIZES["small"].precision is None


def test_sized_jobs_use_simulate_to_precision(tmp_path, monkeypatch):
    """With a size's precision (and its own rounds) the perfect-play job asks simulate_to_precision for that
    half-width; a build given other rounds plays them fixed."""
    calls = []

    def fake(rules, n, strategy, precision, seed, **kwargs):
        calls.append((n, strategy, precision, seed))
        return simulate(rules, n, strategy, 64, seed, progress=False)

    monkeypatch.setattr(compute, "simulate_to_precision", fake)
    size = SIZES["full"]
    jobs, keys = _jobs(size, (2,), size.rounds, tmp_path)
    jobs[keys[("perfect", 2)]].run()
    assert calls == [(2, "perfect", 0.05, 7)]
    jobs[keys[("published", "perfect-no-bonus")]].run()
    assert calls[-1] == (2, "perfect-no-bonus", 0.1, 7)
    jobs, keys = _jobs(size, (2,), 100, tmp_path)
    assert keys[("perfect", 2)] != _jobs(size, (2,), size.rounds, tmp_path)[1][("perfect", 2)]


@pytest.mark.parametrize("name", ["tiny", "small"])
def test_fixed_sizes_keep_their_job_keys(name, tmp_path):
    """Sizes without a precision play fixed rounds: no precision in their keys (their work folders resume)."""
    size = SIZES[name]
    _, keys = _jobs(size, (2,), size.rounds, tmp_path)
    from ricochet_math.reports.jobs import job_key
    want = job_key("perfect N=2", {"rules": RULES.sha256, "seed": 7, "players": 2, "strategy": "perfect",
                                   "rounds": size.rounds})
    assert keys[("perfect", 2)] == want


@pytest.mark.parametrize("rounds, sized", [(200_000, True), (50_000, False)])
def test_method_table_says_how_the_rounds_were_chosen(rounds, sized):
    """The report's Method table names the precision a sized build aimed at (not the nominal 200,000),
    and the fixed count where the build fixed it."""
    from types import SimpleNamespace

    from ricochet_math.reports import sections
    d = SimpleNamespace(size=SIZES["full"], rounds=rounds, seed=7, solo=SimpleNamespace(complete=True),
                        perfect={}, response={}, weak={}, distribution=(4,))
    sec = sections._method(d)
    frame = next(b.data for b in sec.blocks if getattr(b, "csv", None) == "method")
    text = dict(zip(frame["item"], frame["detail"]))
    main, readings = text["Main game, 2-7 players"], text["Strategy readings, published figures"]
    if sized:
        assert "95% half-width of 0.05 points" in main and "200,000" not in main
        assert "95% half-width of 0.1 points" in readings and "200,000" not in readings
    else:
        assert main.startswith("50,000 rounds per player count") and "half-width" not in main
        assert readings.startswith("50,000 rounds per player count and reading")
