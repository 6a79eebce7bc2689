"""Rococo's range-against-range CFR (ricochet_math/games/rococo/range_cfr.py, range_equilibrium.py) against
the layer's CFR over the laid-out tree: the same iterates to rounding, the same best responses, the same
policies' exploitability, the exact LP's level values within the exploitability; the same digits on any
thread count; errors in one line.

Fast: small draw models (one or two discard counts, a few final values) and short tables, trees of a few
thousand nodes.  The real draw model with every raise size is the slow test at the bottom (its figures are
checked against the tree solver's committed `tiny/` folder).
"""
from __future__ import annotations

from dataclasses import replace

import numba
import numpy as np
import pytest
from cli_run import run_cli

from ricochet_math.errors import RicochetError
from ricochet_math.equilibrium.best_response import best_response
from ricochet_math.equilibrium.schedules import cfr_plus, dcfr
from ricochet_math.equilibrium.sequence_lp import solve_sequence_form
from ricochet_math.equilibrium.solving import solve
from ricochet_math.evaluator.evaluation import NUM_VALUES
from ricochet_math.evaluator.names import pattern_value
from ricochet_math.games.rococo.betting_game import Abstraction, DrawModel, RococoBettingGame, build_betting_tree
from ricochet_math.games.rococo.equilibrium import policy_profile, pot_best_responses, pot_value, solve_equilibrium
from ricochet_math.games.rococo.range_cfr import (
    average_profile, level_best_response, level_carry_probability, level_cfr, level_value, public_tree, range_level,
)
from ricochet_math.games.rococo.range_equilibrium import (
    policy_range_profile, pot_range_kernel_best_responses, range_pot_value,
)
from ricochet_math.games.rococo.range_response import range_best_response
from ricochet_math.games.rococo.rules import RococoRules


def two_count_model() -> DrawModel:
    """Discards 1 (probability 0.4) or 3, each with three final values across the policies' thresholds."""
    final = np.zeros((4, NUM_VALUES))
    at = [int(pattern_value(p)) + 3 for p in ("66", "JJ", "two pair", "99", "three of a kind", "flush")]
    final[1, at[:3]] = (0.2, 0.5, 0.3)
    final[3, at[3:]] = (0.5, 0.3, 0.2)
    return DrawModel(np.array([0.0, 0.4, 0.0, 0.6]), final, "test-model-2")


def six_value_model() -> DrawModel:
    """Everybody discards 3; six final values, fixed probabilities (as test_rococo_equilibrium's)."""
    final = np.zeros((4, NUM_VALUES))
    points = [pattern_value(p) for p in ("66", "99", "KK", "two pair", "three of a kind", "flush")]
    for v, w in zip(points, (0.3, 0.2, 0.2, 0.15, 0.1, 0.05)):
        final[3, v + 5] = w
    return DrawModel(np.array([0.0, 0.0, 0.0, 1.0]), final, "test-model")


RULES = RococoRules(max_bet=3, max_raises=2, carry_limit=2)
#: every raise size of the table (1, 2, 3), buckets at the policies' edges
SPEC = Abstraction("every", quantiles=1, raise_sizes=None)


def _game():
    game = RococoBettingGame(RULES, two_count_model(), SPEC)
    return game, build_betting_tree(game), public_tree(game), range_level(game)


def _on_tree(bt, prof) -> np.ndarray:
    """A range profile as an entry array of the laid-out tree (information set by information set)."""
    tree = bt.tree
    out = np.zeros(tree.num_entries)
    for i, key in enumerate(tree.keys):
        head, moves = key.split("|")
        p = "AB".index(head[0])
        da, db = (int(x) for x in head[1:].split(":")[0].split("."))
        acts, rows = prof.at(p, da, db, tuple(m for m in moves.split(".") if m))
        assert acts == tree.actions[i]
        out[tree.offset[i]:tree.offset[i + 1]] = rows[int(head.split(":")[1])]
    return out


def test_the_public_tree_is_the_tree_s_betting_histories():
    game, bt, pt, rl = _game()
    assert game.sizes == (1, 2, 3)
    per_deal = (bt.tree.num_nodes - 1) // len(game.deals)  # the chance root, then the same histories a deal
    assert pt.num_nodes == per_deal
    assert pt.index[("c", "c")] > 0 and pt.actions[0] == ("c", "r1", "r2", "r3")
    # the chance weights are the deals': A's part times B's prior, summed, is 1
    assert float((rl.chance_a.sum(axis=1) * rl.prior_b.sum(axis=1)).sum()) == pytest.approx(1.0, abs=1e-14)


@pytest.fixture(scope="module")
def tiny_real():
    """The real draw model at ``tiny`` (raises 1, 3, 10): 125,374 nodes laid out, 237 histories."""
    game = RococoBettingGame(spec="tiny")
    return game, build_betting_tree(game), public_tree(game), range_level(game)


@pytest.mark.parametrize("level, carry", [(10, None), (3, 0.05)])
def test_the_iterates_are_the_layer_s_cfr(tiny_real, level, carry):
    """CFR+ with alternating updates, 30 iterations: the same average strategy, value and best responses
    as the layer's over the laid-out tree, to rounding (measured 2.7e-11 and 1.3e-11 on the strategy).
    The real model has no exact ties; on a toy model with repeated values the regret-matching step (uniform
    where every regret of a set is 0) can switch on a last-digit difference, so the toy games below are
    compared by what the solves converge to."""
    game, bt, pt, rl = tiny_real
    tree = bt.level_tree(level, None if carry is None else (carry, -carry))
    layer = solve(tree, "cfr+", 30)
    prof = average_profile(pt, rl, level_cfr(pt, rl, level, carry, cfr_plus(), 30)[1])
    assert np.abs(_on_tree(bt, prof) - layer.average).max() < 1e-9
    assert level_value(prof, prof, level, carry) == pytest.approx(layer.values[0], abs=1e-11)
    for p in (0, 1):  # the exact best response of the walk against the tree's
        to_p = None if carry is None else (carry if p == 0 else -carry)
        assert level_best_response(prof, p, level, to_p) == pytest.approx(best_response(tree, layer.average, p)[0],
                                                                          abs=1e-11)


@pytest.mark.parametrize("schedule", [cfr_plus(), dcfr()], ids=["cfr+", "dcfr"])
def test_cfr_plus_and_dcfr_converge_to_the_layer_s_value(schedule):
    game, bt, pt, rl = _game()
    tree = bt.level_tree(1, (0.3, -0.3))
    layer = solve(tree, schedule.name, 400, every=400)
    prof = average_profile(pt, rl, level_cfr(pt, rl, 1, 0.3, schedule, 400)[1])
    ours = level_best_response(prof, 0, 1, 0.3) + level_best_response(prof, 1, 1, -0.3)
    assert ours < 5e-3 and layer.exploitability < 5e-3
    assert level_value(prof, prof, 1, 0.3) == pytest.approx(layer.values[0], abs=ours + layer.exploitability)
    lp = solve_sequence_form(tree).value
    assert level_value(prof, prof, 1, 0.3) == pytest.approx(lp, abs=ours)


def test_the_best_response_is_the_python_walk_s():
    """The kernel's best response against the Python walk of range_response (bucket rows, the tree's own
    raise sizes) and against the layer's exact best response, on one profile to the last digits."""
    game, bt, pt, rl = _game()
    prof = average_profile(pt, rl, level_cfr(pt, rl, 1, 0.25, cfr_plus(), 15)[1])
    sigma = _on_tree(bt, prof)
    tree = bt.level_tree(1, (0.25, -0.25))
    for p in (0, 1):
        to_p = 0.25 if p == 0 else -0.25
        kernel = level_best_response(prof, p, 1, to_p)
        walk = range_best_response(pt, prof, p, 1, to_p, cards="buckets", every_raise_size=False)
        assert kernel == pytest.approx(walk, abs=1e-13)
        assert kernel == pytest.approx(best_response(tree, sigma, p)[0], abs=1e-13)
        assert walk == pytest.approx(range_best_response(bt, sigma, p, 1, to_p, every_raise_size=False), abs=1e-13)


def test_the_same_digits_on_any_thread_count():
    game, bt, pt, rl = _game()
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = level_cfr(pt, rl, 0, 0.1, dcfr(), 30)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = level_cfr(pt, rl, 0, 0.1, dcfr(), 30)
    finally:
        numba.set_num_threads(threads)
    assert np.array_equal(one[0], many[0]) and np.array_equal(one[1], many[1])


def test_the_policies_on_the_histories_are_the_tree_s():
    """Each named policy laid onto the histories plays as on the tree: the same exploitability per level
    (best responses as either seat), the same values against each other and the same carry probability."""
    game, bt, pt, rl = _game()
    levels = RULES.carry_limit + 1
    std_t, loose_t = ([policy_profile(bt, p)] * levels for p in ("standard", "loose"))
    std_r, loose_r = ([policy_range_profile(pt, rl, p)] * levels for p in ("standard", "loose"))
    for t, r in ((std_t, std_r), (loose_t, loose_r)):
        f, s = pot_best_responses(bt, t)
        fr, sr = pot_range_kernel_best_responses(r)
        assert np.allclose(f, fr, atol=1e-13, rtol=0) and np.allclose(s, sr, atol=1e-13, rtol=0)
    assert range_pot_value(std_r, loose_r) == pytest.approx(pot_value(bt, std_t, loose_t), abs=1e-13)
    from ricochet_math.games.rococo.equilibrium import carry_probabilities

    assert level_carry_probability(std_r[0], loose_r[0]) == pytest.approx(
        float(carry_probabilities(bt, [np.where(bt.tree.entry_player == 0, std_t[0], loose_t[0])])[0]), abs=1e-14)


def test_the_pot_solved_by_ranges_has_the_exact_lp_value():
    """The whole pot by the range solver: each level's value within its exploitability of the exact LP's
    (the levels solved by the sequence-form LP with the LP's deeper values), and the tree solver's."""
    spec = Abstraction("test3", quantiles=3, raise_sizes=(1, 2), policy_edges=False)
    rules = RococoRules(max_bet=2, max_raises=1, carry_limit=2)
    res = solve_equilibrium(spec, 400, rules=rules, model=six_value_model(), every=100, solver="ranges",
                            policies=("standard",))
    assert res.solver == "ranges" and "range against range" in res.summary()
    assert res.values == pytest.approx([-0.0577869, -0.03, 0.0066667], abs=max(res.nash_conv, 1e-6))
    bt = build_betting_tree(RococoBettingGame(rules, six_value_model(), spec))
    v = np.zeros(3)
    for k in (2, 1, 0):
        v[k] = solve_sequence_form(bt.level_tree(k, None if k == 2 else (-v[k + 1], v[k + 1]))).value
    assert res.values[0] == pytest.approx(v[0], abs=res.nash_conv)
    assert res.nash_conv < 2e-3  # measured 2.6e-4 after 400 iterations a level
    tree = solve_equilibrium(spec, 400, rules=rules, model=six_value_model(), policies=("standard",))
    assert res.values[0] == pytest.approx(tree.values[0], abs=res.nash_conv + tree.nash_conv)
    cols = ["exploitability", "self_first_player_value", "self_games_per_pot"]
    assert np.allclose(res.policies[cols].to_numpy(), tree.policies[cols].to_numpy(), atol=1e-12, rtol=0)
    frame = res.to_frame()
    assert np.allclose(frame.groupby("infoset").probability.sum(), 1.0)
    curve = res.curves[res.curves.level == 0]
    assert list(curve.iteration) == [100, 200, 300, 400] and curve.nash_conv.iloc[-1] < curve.nash_conv.iloc[0]


def test_with_every_raise_size_in_the_tree_nothing_is_left_to_translate():
    res = solve_equilibrium(SPEC, 60, rules=RULES, model=two_count_model(), solver="ranges", exact_cards=True,
                            policies=("standard",))
    assert res.nash_conv_full == res.nash_conv and res.nash_conv_exact_cards_full == res.nash_conv_exact_cards
    assert res.nash_conv_exact_cards >= res.nash_conv - 1e-12  # knowing more never wins less
    p = res.policies.set_index("policy")
    assert p.exploitability_full.iloc[0] == p.exploitability.iloc[0]
    # with fewer sizes in the tree the every-size figure is measured (never below the tree's)
    few = solve_equilibrium(replace(SPEC, raise_sizes=(1, 3)), 60, rules=RULES, model=two_count_model(),
                            solver="ranges", full_betting=True, policies=("standard",))
    assert few.nash_conv_full >= few.nash_conv - 1e-12


def test_errors_are_one_line(tmp_path):
    with pytest.raises(RicochetError, match="unknown Rococo equilibrium solver 'fast'"):
        solve_equilibrium(SPEC, 10, rules=RULES, model=two_count_model(), solver="fast")
    with pytest.raises(RicochetError, match="exact cards are not measured yet"):  # the blind game: not yet
        solve_equilibrium(SPEC, 10, rules=RULES, model=two_count_model(), solver="ranges", blind=True,
                          exact_cards=True)
    with pytest.raises(RicochetError, match="--checkpoint is for --solver tree"):
        solve_equilibrium(SPEC, 10, rules=RULES, model=two_count_model(), solver="ranges", checkpoint=tmp_path / "c")
    assert not (tmp_path / "c").exists()
    with pytest.raises(RicochetError, match="schedule 'dcfr' is for solver='ranges'"):
        solve_equilibrium(SPEC, 10, rules=RULES, model=two_count_model(), schedule="dcfr")
    with pytest.raises(RicochetError, match="unknown schedule 'cfr' for the range solver"):
        solve_equilibrium(SPEC, 10, rules=RULES, model=two_count_model(), solver="ranges", schedule="cfr")
    for bad in (0, -5, 10**12):
        with pytest.raises(RicochetError, match="iterations"):
            solve_equilibrium(SPEC, bad, rules=RULES, model=two_count_model(), solver="ranges")


@pytest.mark.parametrize("args, message", [
    (["--solver", "ranges", "--blind", "1,3", "--exact-cards"], "exact cards are not measured yet"),
    (["--solver", "ranges", "--checkpoint", "CK"], "--checkpoint is for --solver tree"),
    (["--schedule", "dcfr"], "--schedule is for --solver ranges"),
    (["--solver", "fast"], "invalid choice: 'fast'"),
    (["--raise-sizes", "al"], "--raise-sizes"),
])
def test_cli_refuses_in_one_line(tmp_path, args, message):
    r = run_cli("rococo", "equilibrium", *args, "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert r.returncode == 2, r.stdout
    assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    assert not (tmp_path / "out").exists() and not (tmp_path / "CK").exists()


def test_cli_choices_are_the_library_s():
    from ricochet_math.cli import rococo as cli
    from ricochet_math.games.rococo.equilibrium import SOLVER_NAMES
    from ricochet_math.games.rococo.range_equilibrium import RANGE_SCHEDULES

    assert cli.SOLVER_NAMES == SOLVER_NAMES and cli.SCHEDULE_NAMES == RANGE_SCHEDULES


@pytest.mark.slow
def test_every_raise_size_at_tiny_against_the_tree_solver_s_folder():
    """The real draw model at ``tiny`` with every raise size 1..10 in the range solver's tree: the named
    policies' exploitability equals the tree solver's committed measurement in its tree with every raise
    size (reports/rococo-equilibrium/tiny/policies.csv, 3.5 million nodes), to 1e-12; and the solve is an
    equilibrium of the betting game with every raise size (its NashConv falls)."""
    from pathlib import Path

    import pandas as pd

    from ricochet_math.games.rococo.betting_game import ABSTRACTIONS

    spec = replace(ABSTRACTIONS["tiny"], name="tiny(raises=all)", raise_sizes=None)
    res = solve_equilibrium(spec, 200, every=100, solver="ranges")
    committed = pd.read_csv(Path(__file__).resolve().parents[2] / "reports" / "rococo-equilibrium" / "tiny" /
                            "policies.csv").set_index("policy")
    ours = res.policies.set_index("policy")
    assert np.allclose(ours.exploitability, committed.exploitability_full.loc[ours.index], atol=1e-12, rtol=0)
    assert res.nash_conv_full == res.nash_conv < 0.2
    curve = res.curves[res.curves.level == 0].nash_conv.to_numpy()
    assert curve[-1] < curve[0]


def test_the_guide_quotes_the_committed_every_raise_size_solve():
    """docs/rococo-poker.md's figures for reports/rococo-equilibrium/default-every-raise/ are its tables'."""
    import re
    from pathlib import Path

    import pandas as pd

    root = Path(__file__).resolve().parents[2]
    here = root / "reports" / "rococo-equilibrium" / "default-every-raise"
    guide = (root / "docs" / "rococo-poker.md").read_text(encoding="utf-8")
    summary = (here / "summary.txt").read_text(encoding="utf-8")
    command = summary.splitlines()[0].removeprefix("command: ")
    assert f"    {command}\n" in guide
    nash = float(re.search(r"exploitability \(NashConv\) ([0-9.e-]+) in the abstract", summary).group(1))
    cards = float(re.search(r"; ([0-9.e-]+) against best responses that know", summary).group(1))
    lo, hi = (float(x) for x in re.search(r"within \[([-0-9.]+), ([-0-9.]+)\]", summary).groups())
    assert f"NashConv is **{nash:.3g}** antes per" in guide and f"final value: **{cards:.3g}**" in guide
    levels = pd.read_csv(here / "levels.csv")
    assert (f"**{levels.first_player_value[0]:.4f} antes per pot** (bracket [{lo:.4f}, {hi:.4f}])" in guide)
    assert f"all checks with probability **{levels.carry_probability[0]:.1%}**" in guide
    seconds = eval(summary.split("seconds: ", 1)[1].splitlines()[0], {"__builtins__": {}})  # a dict of floats
    assert f"{seconds['solve']:,.0f} s solving, {seconds['measure']:,.0f} s measuring" in guide
    curve = pd.read_csv(here / "curves.csv")
    first = curve[curve.level == 0].set_index("iteration").nash_conv
    assert (f"{first[500]:.3g} after 500 iterations, {first[1000]:.3g} after 1,000, {first[2500]:.3g} after "
            f"2,500, {first[8000]:.3g} after\n  8,000") in guide
    policies = pd.read_csv(here / "policies.csv").set_index("policy")
    assert f"standard (and naive) **{policies.vs_equilibrium['standard']:.3f}**, loose " \
           f"{policies.vs_equilibrium['loose']:.3f}, tight {policies.vs_equilibrium['tight']:.3f}" in guide
    default = pd.read_csv(here.parent / "default" / "policies.csv").set_index("policy")
    assert np.allclose(policies.exploitability, default.exploitability_full.loc[policies.index], atol=1e-12, rtol=0)
