"""Rococo Poker's draw solver: counting against enumeration, the fixed point, the strategy table."""
from __future__ import annotations

from math import comb

import numpy as np
import pytest

from ricochet_math.evaluator.evaluation import NUM_VALUES, value_counts_5
from ricochet_math.games.rococo.draw import (
    DRAW_DENOMINATOR, DRAW_WEIGHT, KEEPS, N_CLASSES, N_HANDS, brute_force_keep_sets, draw_distribution,
    enumerate_hand, five_card_hands, hand_index, keep_scores_by_enumeration, suit_classes,
)
from ricochet_math.games.rococo.solver import final_distribution, share_by_value, solve_draws
from ricochet_math.games.rococo.strategy import naive_keep, naive_keeps_all

SAMPLE = np.random.default_rng(17).integers(0, N_HANDS, 12)


def test_keeps_are_the_26_exchanges_of_zero_to_three_cards():
    assert len(KEEPS) == 26 and KEEPS[0] == 31
    assert sorted(5 - bin(k).count("1") for k in KEEPS) == [0] + [1] * 5 + [2] * 10 + [3] * 10
    assert list(DRAW_WEIGHT * [comb(47, d) for d in range(4)]) == [DRAW_DENOMINATOR] * 4


def test_hand_numbers_values_and_suit_classes():
    hands, values = five_card_hands()
    assert np.array_equal(np.bincount(values, minlength=NUM_VALUES), value_counts_5())
    for h in SAMPLE:
        assert hand_index(hands[h]) == h
    classes = suit_classes()
    assert len(classes.size) == N_CLASSES == 134_459 and classes.size.sum() == N_HANDS
    assert set(np.unique(classes.size)) <= {4, 6, 12, 24}


def test_enumeration_matches_the_readable_listing():
    hand = "Kh Kd 7c 4s 2h"
    dist = draw_distribution(hand)
    listing = brute_force_keep_sets(dist.hand)
    from ricochet_math.evaluator.evaluation import reference_value
    for i, k in enumerate(KEEPS[:8]):  # the small keeps: every final hand evaluated by the readable evaluator
        want = np.bincount([reference_value(f) for f in listing[k]], minlength=NUM_VALUES)
        assert np.array_equal(dist.counts[i], want)
    assert list(dist.draws) == [comb(47, 5 - bin(k).count("1")) for k in KEEPS]


@pytest.mark.parametrize("opponents", [1, 3])
def test_counting_equals_enumeration_on_sampled_hands(opponents):
    sol = solve_draws(opponents)
    hands, _ = five_card_hands()
    for h in SAMPLE[:6]:
        brute = keep_scores_by_enumeration(hands[h].astype(np.int64), sol.share)
        counted = sol.keep_shares(hands[h])
        assert np.abs(brute - counted).max() < 1e-12
        # the solver's choice is the brute-force best (up to float ties)
        assert brute[sol.hand_keep[h]] >= brute.max() - 1e-12


def test_final_distribution_by_counting_equals_enumeration():
    hands, _ = five_card_hands()
    rows = SAMPLE[:5]
    keeps = np.array([3, 9, 17, 25, 0])
    counted = final_distribution(keeps, rows=rows, counts=np.ones(len(rows), dtype=np.int64))
    want = np.zeros(NUM_VALUES, dtype=np.int64)
    for h, k in zip(rows, keeps):
        want += enumerate_hand(hands[h])[k] * DRAW_WEIGHT[5 - bin(KEEPS[k]).count("1")]
    assert np.array_equal(counted, want)
    stand_pat = final_distribution(np.zeros(N_CLASSES, dtype=np.int64))
    assert np.array_equal(stand_pat, value_counts_5() * DRAW_DENOMINATOR)


def test_share_by_value_small_case():
    # opponents' values uniform over {0, 1, 2}; ties with t of them pay 1 / (t + 1)
    q = np.zeros(NUM_VALUES)
    q[:3] = 1
    s = share_by_value(q, 2)
    below, eq = 1 / 3, 1 / 3
    assert s[1] == pytest.approx(below**2 + 2 * below * eq / 2 + eq**2 / 3, abs=1e-15)
    assert s[2] == pytest.approx(4 / 9 + 2 * (2 / 9) / 2 + (1 / 9) / 3, abs=1e-15)
    assert s[3] == pytest.approx(1.0)


@pytest.mark.parametrize("opponents", [1, 2])
def test_fixed_point_converges_and_is_symmetric(opponents):
    sol = solve_draws(opponents)
    assert sol.converged and sol.iterations.hands_changed.iloc[-1] == 0
    assert sol.final.sum() == N_HANDS * DRAW_DENOMINATOR
    # at the fixed point everybody draws alike: the mean pot share is exactly 1 / (N + 1)
    assert sol.win_probability == pytest.approx(1 / (opponents + 1), abs=1e-9)
    # the final distribution is the one the strategy gives
    assert np.array_equal(final_distribution(sol.class_keep), sol.final)


def test_known_keeps_against_one_opponent():
    sol = solve_draws(1)
    cases = {"Kh Kd 7c 4s 2h": "Kh Kd", "9c 8c 7c 6c 2d": "9c 8c 7c 6c", "As Ks Qs Js Ts": "As Ks Qs Js Ts"}
    from ricochet_math.evaluator.cards import parse_cards
    from ricochet_math.games.rococo.draw import keep_cards
    for hand, want in cases.items():
        cards = parse_cards(hand)
        got = keep_cards(cards, KEEPS[sol.hand_keep[hand_index(cards)]])
        assert sorted(got.tolist()) == sorted(parse_cards(want).tolist()), hand


def test_naive_kernel_equals_readable_rule():
    hands, values = five_card_hands()
    table = naive_keeps_all()
    for h in np.random.default_rng(3).integers(0, N_HANDS, 3000):
        assert KEEPS[table[h]] == naive_keep(hands[h], values[h])


def test_optimal_drawing_beats_naive_drawing_on_average():
    from ricochet_math.games.rococo.strategy import strategy_table
    v = strategy_table([1]).versus_naive()
    assert v.optimal_share[0] == pytest.approx(0.5, abs=1e-9)
    assert v.naive_share[0] < 0.5 and v.hands_differ[0] > 0.05


def test_strategy_table_texts_equal_keep_text_and_keep_shape():
    """The table's joined texts and cached shapes (strategy.py) against the readable keep_text / keep_shape on
    4,000 random hands, each with every keep."""
    from ricochet_math.evaluator.cards import format_cards
    from ricochet_math.games.rococo import strategy as st
    from ricochet_math.games.rococo.draw import keep_text

    hands, _ = five_card_hands()
    rows = hands[np.random.default_rng(11).integers(0, N_HANDS, 4000)].astype(np.int64)
    as_lists = rows.tolist()
    assert st._hand_texts(as_lists) == [format_cards(h[::-1]) for h in rows]
    for m in KEEPS:
        masks = [m] * len(rows)
        assert st._keep_texts(as_lists, masks) == [keep_text(h, m) for h in rows], m
        assert st._keep_shapes(as_lists, masks) == [st.keep_shape(h, m) for h in rows], m


def test_class_shortcut_equals_every_hand_scattered():
    # the solver scatters one representative per suit-pattern class, weighted by the class size; scattering
    # all 2,598,960 hands with their own best keeps must give the same distribution, exactly
    sol = solve_draws(1)
    every = final_distribution(sol.hand_keep, rows=np.arange(N_HANDS), counts=np.ones(N_HANDS, dtype=np.int64))
    assert np.array_equal(every, sol.final)
    # and every hand's keep is as good as its class representative's (suit symmetry)
    classes = suit_classes()
    hands, _ = five_card_hands()
    for h in SAMPLE:
        rep = classes.representative[classes.of_hand[h]]
        a, b = sol.keep_shares(hands[h]), sol.keep_shares(hands[rep])
        assert a.max() == pytest.approx(b.max(), abs=1e-12)
        assert a[sol.hand_keep[h]] == pytest.approx(a.max(), abs=1e-12)


@pytest.mark.slow
def test_disk_cache_round_trip(tmp_path, monkeypatch):
    from ricochet_math.games.rococo.solver import compute_draws

    monkeypatch.setenv("RICOCHET_CACHE_DIR", str(tmp_path))
    solve_draws.cache_clear()
    try:
        first = solve_draws(2)           # solved and stored
        solve_draws.cache_clear()
        again = solve_draws(2)           # read back
        assert list(tmp_path.glob("rococo-draws-2-*.npz"))
        fresh = compute_draws(2)
        for name in ("final", "share", "class_keep", "class_share", "hand_keep"):
            assert np.array_equal(getattr(again, name), getattr(fresh, name)), name
            assert np.array_equal(getattr(first, name), getattr(fresh, name)), name
        assert again.iterations.equals(fresh.iterations.astype(again.iterations.dtypes))
    finally:
        solve_draws.cache_clear()


def test_card_removal_simulation():
    from ricochet_math.games.rococo.removal import simulate_share, simulate_share_difference

    sol = solve_draws(1)
    cards = np.sort(parse("As Ks Qs Js Ts"))
    share, se = simulate_share(cards, 31, sol.hand_keep, 1, 2_000, 1)
    assert share == 1.0 and se == 0.0  # a royal flush can only tie another royal (none in these deals)
    kk = np.sort(parse("Kh Kd 7c 4s 2h"))
    a, _ = simulate_share(kk, 0b11000, sol.hand_keep, 1, 5_000, 9)
    b, _ = simulate_share(kk, 0b11100, sol.hand_keep, 1, 5_000, 9)
    d, d_se = simulate_share_difference(kk, 0b11000, 0b11100, sol.hand_keep, 1, 5_000, 9)
    assert d == pytest.approx(a - b, abs=1e-12) and 0 < d_se < 0.01  # the same deals for both keeps
    # the independence model is close on average: pair of kings drawing three, 5,000 deals, seed 9
    model = sol.keep_shares(kk)[KEEPS.index(0b11000)]
    assert abs(a - model) < 0.03


def parse(text):
    from ricochet_math.evaluator.cards import parse_cards

    return parse_cards(text).astype(np.int64)
