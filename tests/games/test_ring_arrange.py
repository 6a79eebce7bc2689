"""The arrangement solver against brute force: every way to split the cards, without pruning.

Two references: the readable :func:`reference_best` (itertools over every split, small cases), and
a numba enumeration of every split (every top hand, every middle hand from the rest, every weakest
hand from what is left; no order, no bounds) for full 18-card holdings.  Both objectives.
"""
from __future__ import annotations

from itertools import combinations

import numba
import numpy as np
import pytest

from ricochet_math.errors import CardError, RicochetError
from ricochet_math.games.ring.arrangement import (
    SUBSET_MASKS,
    arrange,
    opponent_model,
    reference_best,
    solve_indices,
)
from ricochet_math.games.ring.hands import hand_key_of, parse_ring_cards
from ricochet_math.games.ring.rules import Joker, RingRules

_C13 = np.array(list(combinations(range(13), 5)), dtype=np.int64)
_C8 = np.array(list(combinations(range(8), 5)), dtype=np.int64)


_NONE = np.full(3, -1, dtype=np.int64)


@numba.njit(cache=False)
def _brute(keys, n, weights, objective, exclude):
    """Best value over every ordered split of n (15..18) cards into three hands (no pruning); points
    skips the splits whose sorted keys are slot by slot no stronger than ``exclude`` (the runner-up)."""
    index = np.full(1 << 18, -1, dtype=np.int64)
    for i in range(keys.shape[0]):
        index[SUBSET_MASKS[i]] = i
    full = (1 << n) - 1
    best_lex = np.full(3, -1, dtype=np.int64)
    best_pts = -1.0
    rest13 = np.empty(13, dtype=np.int64)
    rest8 = np.empty(8, dtype=np.int64)
    for i in range(keys.shape[0]):
        r = full ^ SUBSET_MASKS[i]
        k = 0
        for b in range(n):
            if r >> b & 1:
                rest13[k] = b
                k += 1
        for x in range(_C13.shape[0]):
            if _C13[x, 4] >= k:
                continue
            mm = 0
            for y in range(5):
                mm |= 1 << rest13[_C13[x, y]]
            j = index[mm]
            r2 = r ^ mm
            k2 = 0
            for b in range(n):
                if r2 >> b & 1:
                    rest8[k2] = b
                    k2 += 1
            for z in range(_C8.shape[0]):
                if _C8[z, 4] >= k2:
                    continue
                lm = 0
                for y in range(5):
                    lm |= 1 << rest8[_C8[z, y]]
                l = index[lm]
                x0, x1, x2 = keys[i], keys[j], keys[l]  # sorted strongest first by three swaps
                if x1 > x0:
                    x0, x1 = x1, x0
                if x2 > x1:
                    x1, x2 = x2, x1
                if x1 > x0:
                    x0, x1 = x1, x0
                if objective == 0:
                    if (x0 > best_lex[0] or (x0 == best_lex[0] and (x1 > best_lex[1] or (
                            x1 == best_lex[1] and x2 > best_lex[2])))):
                        best_lex[0], best_lex[1], best_lex[2] = x0, x1, x2
                elif not (x0 <= exclude[0] and x1 <= exclude[1] and x2 <= exclude[2]):
                    v = _w(weights, 0, x0) + _w(weights, 1, x1) + _w(weights, 2, x2)
                    best_pts = max(best_pts, v)
    return best_lex, best_pts


@numba.njit(cache=False)
def _w(samples, s, key):
    row = samples[s, 1:]
    return np.searchsorted(row, key, side="right") * samples[s, 0] / row.shape[0]


def _holding(rng, n, jokers):
    plain = rng.choice(52, n - jokers, replace=False)
    return np.concatenate([plain, [52, 53][:jokers]]).astype(np.int64)


@pytest.fixture(scope="module")
def model():
    return opponent_model(RingRules(players=3), samples=300, seed=7)


@pytest.mark.parametrize("rule", list(Joker))
def test_two_hands_against_readable_brute_force(rule, model):
    rng = np.random.default_rng(20 + int(rule))
    rules = RingRules(players=3, joker=rule)
    for case in range(12):
        n = 10 + case % 3
        cards = _holding(rng, n, case % 3)
        a = arrange(cards, rules=rules, hands=2)
        assert a.keys == reference_best(cards, 2, rule)
        b = arrange(cards, rules=rules, hands=2, objective="points", opponent=model)
        ref = reference_best(cards, 2, rule, "points", model)
        assert b.value == pytest.approx(ref, abs=1e-12)
        assert model.expected_points(b.keys) == pytest.approx(b.value, abs=1e-12)
        assert sorted(a.cards) == sorted(sum(a.hands, ()) + a.spares)


def test_three_hands_fifteen_cards_against_readable_brute_force(model):
    rng = np.random.default_rng(5)
    cards = _holding(rng, 15, 1)
    a = arrange(cards, rules=RingRules(joker="dead"), objective="strongest")
    assert a.keys == reference_best(cards, 3, Joker.DEAD)
    assert a.spares == ()


@pytest.mark.parametrize("n,seed", [(16, 1)])
def test_three_hands_against_full_enumeration(n, seed, model):
    rng = np.random.default_rng(seed)
    cards = _holding(rng, n, seed % 3)
    keys, idx, _ = solve_indices(cards, 3, int(Joker.BUG))
    samples = model.samples_array()
    lex, _ = _brute(keys, n, samples, 0, _NONE)
    assert tuple(keys[idx]) == tuple(lex)
    _, pts = _brute(keys, n, samples, 1, _NONE)
    _, idx, value = solve_indices(cards, 3, int(Joker.BUG), 1, samples)
    assert value == pytest.approx(pts, abs=1e-12)
    # the runner-up: the best split not dominated slot by slot by the chosen one
    best = keys[idx].copy()
    _, ru = _brute(keys, n, samples, 1, best)
    _, idx2, value2 = solve_indices(cards, 3, int(Joker.BUG), 1, samples, exclude=best)
    assert value2 == pytest.approx(ru, abs=1e-12) and value2 <= value
    assert not all(keys[idx2] <= best)


def test_runner_up_two_hands_against_readable_brute_force(model):
    rng = np.random.default_rng(31)
    for case in range(8):
        cards = _holding(rng, 10 + case % 3, case % 3)
        a = arrange(cards, rules=RingRules(players=3), hands=2, objective="points", opponent=model)
        key = {c5: int(hand_key_of(list(c5), 0)) for c5 in combinations([int(c) for c in cards], 5)}
        values = []
        for t, kt in key.items():
            rest = [c for c in cards if c not in t]
            for m in combinations(rest, 5):
                ks = tuple(sorted((kt, key[m]), reverse=True))
                if not (ks[0] <= a.keys[0] and ks[1] <= a.keys[1]):
                    values.append(model.expected_points(ks))
        if not values:
            assert a.runner_up_keys == ()
            continue
        assert model.expected_points(a.runner_up_keys) == pytest.approx(max(values), abs=1e-12)
        assert a.advantage == pytest.approx(a.value - max(values), abs=1e-12) and a.advantage >= 0


def test_points_standard_errors(model):
    cards = np.random.default_rng(12).choice(54, 18, replace=False)
    a = arrange(cards, objective="points", opponent=model)
    x = 2 * (model.slot_keys <= np.array(a.keys)).sum(axis=1)  # players=3: 2 points a slot not beaten
    assert a.value == pytest.approx(x.mean(), abs=1e-12)
    assert a.std_error == pytest.approx(x.std(ddof=1) / np.sqrt(300), rel=1e-12) and a.opponents == 300
    if a.runner_up_keys:
        y = 2 * (model.slot_keys <= np.array(a.runner_up_keys)).sum(axis=1)
        assert a.advantage_se == pytest.approx((x - y).std(ddof=1) / np.sqrt(300), rel=1e-12)
        assert "runner-up" in a.summary()


@pytest.mark.slow
def test_full_enumeration_many_holdings(model):
    rng = np.random.default_rng(99)
    samples = model.samples_array()
    for case in range(6):  # 17 or 18 cards: 35 s each under load (up to 617 million ordered splits)
        cards = _holding(rng, 17 + case % 2, case % 3)
        keys, idx, _ = solve_indices(cards, 3, case % 3)
        lex, _ = _brute(keys, cards.size, samples, 0, _NONE)
        assert tuple(keys[idx]) == tuple(lex)
        _, _, value = solve_indices(cards, 3, case % 3, 1, samples)
        assert value == pytest.approx(_brute(keys, cards.size, samples, 1, _NONE)[1], abs=1e-12)


def test_known_holding():
    with pytest.raises(CardError):
        arrange("As Ks Qs Js Ts Kc Kd Kh Kx")
    # the royal flush takes the king of spades: then kings full of queens, then a pair of jacks
    a = arrange("As Ks Qs Js Ts Kc Kd Kh 2c 3d Qc Qd Qh Jc Jd 7h 8h 4c", rules=RingRules(joker="dead"))
    cats = a.to_frame().category.tolist()
    assert cats[:3] == ["Straight flush", "Full house", "Pair"]
    assert a.seconds > 0 and "Straight flush" in a.summary()


def test_arrange_errors():
    with pytest.raises(CardError, match="need 15 to 18 cards"):
        arrange(list(range(14)))
    with pytest.raises(CardError):
        arrange([0, 0] + list(range(2, 17)))
    with pytest.raises(RicochetError, match="unknown objective"):
        arrange(list(range(18)), objective="fun")
    assert parse_ring_cards("Jk JK As").tolist() == [52, 53, 51]


def test_points_objective_beats_strongest_on_its_own_measure(model):
    rng = np.random.default_rng(8)
    for _ in range(20):
        cards = rng.choice(54, 18, replace=False)
        s = arrange(cards, objective="strongest")
        p = arrange(cards, objective="points", opponent=model)
        assert p.value >= model.expected_points(s.keys) - 1e-12
        assert s.keys >= p.keys  # the strongest arrangement is lexicographically first
