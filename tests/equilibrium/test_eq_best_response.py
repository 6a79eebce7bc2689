"""Exact best responses and NashConv: the kernel against the readable recursion, known figures, hand-written
strategies mapped onto the tree."""
from __future__ import annotations

import numpy as np
import pytest

from ricochet_math.equilibrium import (
    KUHN_VALUE, KuhnPoker, LeducPoker, best_response, build_tree, exploitability, profile_from_mapping,
    profile_to_mapping, uniform_profile,
)
from ricochet_math.equilibrium.best_response import readable_best_response
from ricochet_math.errors import RicochetError


def _random_profile(tree, seed):
    rng = np.random.default_rng(seed)
    raw = rng.random(tree.num_entries) ** 3  # some near-zero probabilities
    sums = np.add.reduceat(raw, tree.offset[:-1])
    return raw / np.repeat(sums, np.diff(tree.offset))


@pytest.mark.parametrize("game", [KuhnPoker(), KuhnPoker(3), LeducPoker()], ids=lambda g: g.name)
@pytest.mark.parametrize("seed", [None, 1, 2])
def test_the_kernel_is_the_readable_recursion(game, seed):
    tree = build_tree(game)
    sigma = uniform_profile(tree) if seed is None else _random_profile(tree, seed)
    by_key = {k: list(v.values()) for k, v in profile_to_mapping(tree, sigma).items()}
    for p in range(game.num_players):
        value, response = best_response(tree, sigma, p)
        assert value == pytest.approx(readable_best_response(game, by_key, p), abs=1e-12)
        # the response is pure for p, leaves the others, and achieves the value
        mine = tree.entry_player == p
        assert set(np.unique(response[mine])) <= {0.0, 1.0} and np.array_equal(response[~mine], sigma[~mine])
        assert exploitability(tree, response).values[p] == pytest.approx(value, abs=1e-12)


def test_known_nash_conv_of_the_uniform_profile():
    # two-player Kuhn: best responses 1/2 and 5/12 against the uniform strategy; OpenSpiel's nash_conv agrees
    assert exploitability(build_tree(KuhnPoker()), uniform_profile(build_tree(KuhnPoker()))).nash_conv == \
        pytest.approx(11 / 12, abs=1e-15)
    three = exploitability(build_tree(KuhnPoker(3)), uniform_profile(build_tree(KuhnPoker(3))))
    assert three.nash_conv == pytest.approx(2.0625, abs=1e-14)  # OpenSpiel: 2.0624999999999996
    assert three.openspiel == pytest.approx(2.0625 / 3, abs=1e-14)


def _kuhn_equilibrium(alpha):
    """Kuhn's family, written by hand: {key: {action: probability of the action}}."""
    bet = {"J:": alpha, "Q:": 0.0, "K:": 3 * alpha, "J:pb": 0.0, "Q:pb": alpha + 1 / 3, "K:pb": 1.0,
           "J:p": 1 / 3, "Q:p": 0.0, "K:p": 1.0, "J:b": 0.0, "Q:b": 1 / 3, "K:b": 1.0}
    return {k: {"p": 1.0 - b, "b": b} for k, b in bet.items()}


@pytest.mark.parametrize("alpha", [0.0, 0.1, 1 / 6, 1 / 3])
def test_a_hand_written_equilibrium_is_unexploitable(alpha):
    tree = build_tree(KuhnPoker())
    sigma = profile_from_mapping(tree, _kuhn_equilibrium(alpha))
    e = exploitability(tree, sigma)
    assert e.nash_conv == pytest.approx(0.0, abs=1e-15)
    assert e.values[0] == pytest.approx(KUHN_VALUE, abs=1e-15)


def test_outside_the_family_it_is_exploitable():
    tree = build_tree(KuhnPoker())
    strategy = _kuhn_equilibrium(1 / 3)
    strategy["J:"] = {"p": 0.5, "b": 0.5}  # the jack bluffs more than alpha = 1/3 allows
    assert exploitability(tree, profile_from_mapping(tree, strategy)).nash_conv > 0.01


def test_an_uncovered_information_set_is_refused_naming_it():
    tree = build_tree(KuhnPoker())
    strategy = _kuhn_equilibrium(0.1)
    del strategy["Q:pb"]
    with pytest.raises(RicochetError, match=r"does not cover information set 'Q:pb' of player 0"):
        profile_from_mapping(tree, strategy)
    # one player's strategy alone, the other's from a base profile
    mine = {k: v for k, v in _kuhn_equilibrium(0.1).items() if k.count(":") and len(k.split(":")[1]) != 1}
    sigma = profile_from_mapping(tree, mine, players=[0])
    assert best_response(tree, sigma, 1)[0] == pytest.approx(-KUHN_VALUE, abs=1e-15)


@pytest.mark.parametrize("strategy, words", [
    ({"J:": {"p": 0.5, "b": 0.6}}, "sum to 1"),
    ({"J:": {"p": 1.5, "b": -0.5}}, "non-negative"),
    ({"J:": {"x": 1.0}}, "unknown action 'x'"),
    ({"J:": [1.0]}, "gives 1 probabilities for 2 actions"),
    ({"Z:": [1.0, 0.0]}, "information set 'Z:', which kuhn does not have"),
])
def test_a_bad_mapped_strategy_is_one_line(strategy, words):
    tree = build_tree(KuhnPoker())
    full = {**_kuhn_equilibrium(0.1), **strategy}
    with pytest.raises(RicochetError, match=words) as info:
        profile_from_mapping(tree, full)
    assert "\n" not in str(info.value)
