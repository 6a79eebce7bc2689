"""The solvers: the numba kernels equal to their readable twins, convergence to stated bounds, Kuhn's value
and equilibrium family, Leduc's value from the sequence-form LP."""
from __future__ import annotations

import numpy as np
import pytest

from ricochet_math.equilibrium import (
    KUHN_VALUE, KuhnPoker, LeducPoker, build_tree, cfr_plus, dcfr, vanilla_cfr, exploitability, solve, solve_sequence_form,
)
from ricochet_math.equilibrium.cfr import ReadableCFR
from ricochet_math.equilibrium.cfr_kernel import average_strategy, cfr_iterations
from ricochet_math.equilibrium.mccfr import ReadableExternalSampling, external_sampling_iterations, seed_key
from ricochet_math.errors import RicochetError

#: the game value of Leduc hold'em for player 0 (chips), from the sequence-form LP (HiGHS, 1e-10 tolerances);
#: the literature quotes -0.0856
LEDUC_VALUE = -0.085606424078


def _entries(tree, by_key):
    return np.concatenate([np.asarray(by_key.get(k, [0.0] * len(tree.actions[i])), float)
                           for i, k in enumerate(tree.keys)])


@pytest.mark.parametrize("schedule", [cfr_plus(), dcfr(), vanilla_cfr(), cfr_plus(delay=3)], ids=lambda s: s.name)
@pytest.mark.parametrize("game, iterations", [(KuhnPoker(), 40), (KuhnPoker(3), 15), (LeducPoker(), 2)],
                         ids=["kuhn", "kuhn3", "leduc"])
def test_the_kernel_is_its_readable_twin(game, iterations, schedule):
    tree = build_tree(game)
    twin = ReadableCFR(game, schedule)
    for _ in range(iterations):
        twin.iterate()
    regret, cumulative = np.zeros(tree.num_entries), np.zeros(tree.num_entries)
    cfr_iterations(*tree.kernel_arrays(), tree.post_order, tree.infoset_player, regret, cumulative, *schedule.factors(0, iterations),
                   schedule.clip)
    scale = max(1.0, np.abs(regret).max(), np.abs(cumulative).max())
    assert np.abs(regret - _entries(tree, twin.regret)).max() <= 1e-12 * scale
    assert np.abs(cumulative - _entries(tree, twin.cumulative)).max() <= 1e-12 * scale
    assert np.abs(average_strategy(cumulative, tree.offset) - _entries(tree, twin.average_strategy())).max() <= 1e-12


@pytest.mark.parametrize("game, iterations", [(KuhnPoker(), 300), (KuhnPoker(3), 100), (LeducPoker(), 30)],
                         ids=["kuhn", "kuhn3", "leduc"])
def test_external_sampling_kernel_draws_the_twins_numbers(game, iterations):
    tree = build_tree(game)
    twin = ReadableExternalSampling(game, seed=11)
    for _ in range(iterations):
        twin.iterate()
    regret, cumulative = np.zeros(tree.num_entries), np.zeros(tree.num_entries)
    external_sampling_iterations(*tree.kernel_arrays(), regret, cumulative, np.uint64(seed_key(11)), 0, iterations)
    assert np.array_equal(regret, _entries(tree, twin.regret))  # the same draws, the same sums: every digit
    assert np.array_equal(cumulative, _entries(tree, twin.cumulative))


# exploitability (NashConv, chips) after the iterations: deterministic figures, bounds a little above them
# (measured: the figure after the iterations; the fall: from the first tenth of the iterations to the end)
@pytest.mark.parametrize("game, solver, iterations, bound, fall", [
    ("kuhn", "cfr+", 1000, 2e-4, 10),     # 1.747e-4, from 2.39e-3
    ("kuhn", "dcfr", 1000, 3.5e-4, 10),   # 2.930e-4, from 3.33e-3
    ("leduc", "cfr+", 1000, 5.5e-4, 50),  # 5.143e-4 from 2.68e-2; OpenSpiel's (half of it): 2.572e-4
    ("leduc", "dcfr", 1000, 3.5e-4, 50),  # 2.869e-4 from 1.55e-2
    ("kuhn", "mccfr", 20000, 1.5e-2, 1.5),  # seed 1: 1.19e-2 from 1.98e-2
    ("leduc", "mccfr", 20000, 0.4, 4),    # seed 1: 0.369 from 1.77
])
def test_exploitability_falls_to_a_stated_bound(game, solver, iterations, bound, fall):
    g = KuhnPoker() if game == "kuhn" else LeducPoker()
    result = solve(g, solver, iterations, seed=1, every=iterations // 10)
    curve = result.curve_nash_conv
    assert result.exploitability < bound
    assert curve[-1] < curve[0] / fall and len(curve) == 10
    # the value of the average strategy is the game's within the exploitability (two-player zero-sum)
    value = KUHN_VALUE if game == "kuhn" else LEDUC_VALUE
    assert abs(result.values[0] - value) <= result.exploitability


def test_cfr_falls_at_its_published_rate_and_cfr_plus_faster():
    """Vanilla CFR's exploitability is O(1/sqrt(T)) (Zinkevich et al. 2007); CFR+ falls about as 1/T."""
    curve = solve(KuhnPoker(), "cfr", 10000, every=100).curve_frame().set_index("iteration").nash_conv
    scaled = [curve[t] * np.sqrt(t) for t in (100, 1000, 10000)]
    assert max(scaled) < 1.0 and scaled[2] < scaled[0]  # within a constant of 1/sqrt(T), and below it
    plus = solve(KuhnPoker(), "cfr+", 10000, every=100).curve_frame().set_index("iteration").nash_conv
    assert plus[10000] < curve[10000] / 10 and plus[10000] * 10000 < 5.0


def test_kuhn_value_and_equilibrium_from_the_lp():
    tree = build_tree(KuhnPoker())
    lp = solve_sequence_form(tree)
    assert lp.value == pytest.approx(KUHN_VALUE, abs=1e-12) and lp.value_dual == pytest.approx(-KUHN_VALUE, abs=1e-12)
    assert exploitability(tree, lp.profile).nash_conv < 1e-12


def test_leduc_value_from_the_lp():
    tree = build_tree(LeducPoker())
    lp = solve_sequence_form(tree)
    assert lp.value == pytest.approx(LEDUC_VALUE, abs=1e-11)
    assert lp.value_dual == pytest.approx(-LEDUC_VALUE, abs=1e-11)
    assert exploitability(tree, lp.profile).nash_conv < 1e-9
    assert solve_sequence_form(build_tree(LeducPoker(suits=False))).value == pytest.approx(LEDUC_VALUE, abs=1e-11)


def test_the_lp_refuses_more_than_two_players():
    with pytest.raises(RicochetError, match="two-player"):
        solve_sequence_form(build_tree(KuhnPoker(3)))


def test_kuhn_equilibrium_is_in_the_alpha_family():
    """Kuhn (1950): player 0's jack bets with alpha in [0, 1/3], her king with 3 alpha, her queen checks and
    calls a bet with alpha + 1/3; player 1 bets a jack after a check 1/3, calls a queen 1/3, king always."""
    result = solve(KuhnPoker(), "cfr+", 20000)
    s = {k: v["b"] for k, v in result.strategy().items()}
    tol = 5e-3  # NashConv 1e-5 here: every probability within a few thousandths of the family
    alpha = s["J:"]
    assert -tol <= alpha <= 1 / 3 + tol
    assert s["K:"] == pytest.approx(3 * alpha, abs=tol)
    assert s["Q:"] == pytest.approx(0.0, abs=tol)
    assert s["Q:pb"] == pytest.approx(alpha + 1 / 3, abs=tol)
    assert s["J:pb"] == pytest.approx(0.0, abs=tol) and s["K:pb"] == pytest.approx(1.0, abs=tol)
    assert s["J:p"] == pytest.approx(1 / 3, abs=tol) and s["Q:p"] == pytest.approx(0.0, abs=tol)
    assert s["K:p"] == pytest.approx(1.0, abs=tol) and s["Q:b"] == pytest.approx(1 / 3, abs=tol)
    assert s["J:b"] == pytest.approx(0.0, abs=tol) and s["K:b"] == pytest.approx(1.0, abs=tol)
    assert result.values[0] == pytest.approx(KUHN_VALUE, abs=result.exploitability)


def test_mccfr_seed_decides_the_digits():
    a = solve(KuhnPoker(), "mccfr", 2000, seed=5)
    b = solve(KuhnPoker(), "mccfr", 2000, seed=5)
    c = solve(KuhnPoker(), "mccfr", 2000, seed=6)
    assert np.array_equal(a.average, b.average) and not np.array_equal(a.average, c.average)


@pytest.mark.parametrize("iterations", [0, -1, 10 ** 10, 2.5, True])
def test_an_absurd_iteration_count_is_refused(iterations):
    with pytest.raises(RicochetError, match="iterations must be"):
        solve(KuhnPoker(), "cfr+", iterations)


def test_an_unknown_solver_is_refused():
    with pytest.raises(RicochetError, match="unknown solver 'cfr-'"):
        solve(KuhnPoker(), "cfr-", 10)


def test_the_same_digits_on_any_thread_count():
    """The kernels are sequential: numba's thread count does not enter (checked, not assumed)."""
    import numba

    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = [solve(LeducPoker(), solver, 50, seed=9).average for solver in ("cfr+", "mccfr")]
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = [solve(LeducPoker(), solver, 50, seed=9).average for solver in ("cfr+", "mccfr")]
    finally:
        numba.set_num_threads(before)
    assert all(np.array_equal(a, b) for a, b in zip(one, many))


def test_a_solve_shows_its_progress_on_a_terminal(monkeypatch):
    import io
    import sys

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    result = solve(KuhnPoker(), "cfr+", 200, every=50, progress=True)
    assert result.iterations == 200 and "kuhn cfr+" in err.getvalue()
