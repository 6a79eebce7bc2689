"""The two-player solver: the exact showdown leaf against the evaluator's reference, and the backward
induction against a Monte Carlo play-out in which the opponent holds a real hidden hand."""
from __future__ import annotations

import numpy as np
import pytest

from ricochet_math.errors import RuleError
from ricochet_math.evaluator.cards import parse_cards
from ricochet_math.games.freeride.rules import FreeRideRules
from ricochet_math.games.freeride.solver import (
    _Setup, last_card_study, reference_showdown_value, showdown_value, solve_state, state_value,
)

#: a small deck (nines to aces, 24 cards) on which the tree is exact from three cards face up
SMALL = tuple(c for c in range(52) if c >> 2 >= 7)


def test_showdown_leaf_matches_reference():
    rng = np.random.default_rng(3)
    for trial in range(6):
        cards = [int(c) for c in rng.permutation(52)]
        final, opp = cards[:5], cards[5:5 + 2 + trial % 3]
        unseen = cards[12:40]
        assert showdown_value(final, opp, unseen, 10, 10) == pytest.approx(
            reference_showdown_value(final, opp, unseen, 10, 10), abs=1e-12)


def test_last_card_against_a_visible_pair():
    # her board A-J-9-5 with A-A-K-Q-3 in hand: playing an ace makes aces; the opponent shows T-T-4-8
    s = solve_state("As Ah Kd Qc 3s", face_up="2d 5s 9c Jh", opp_up="Tc Td 4h 8s", samples=None)
    assert s.best_action == "fold" and s.value == -5  # 2-5-9-J + any card loses to tens: fold pays 5
    s = solve_state("As Ah Kd Qc 3s", face_up="Ad 5s 9c Jh", opp_up="Tc Td 4h 8s", samples=None)
    assert s.best_action in ("As", "Ah") and s.value > 5


def test_free_ride_caps_the_loss():
    full = solve_state("As Ah Kd Qc 3s", face_up="2d 5s 9c Jh", opp_up="Tc Td 4h 8s", samples=None)
    poor = solve_state("As Ah Kd Qc 3s", face_up="2d 5s 9c Jh", opp_up="Tc Td 4h 8s", samples=None, hero_chips=2)
    assert full.value == -5 and poor.value == -2  # with 2 chips she loses 2 however she ends


def _playout(hand, up, opp_up, opp_played, deck, rng, setup, memo):
    """One round from the state: the opponent holds a real hidden hand and plays random cards."""
    seen = set(hand) | set(up) | set(opp_up)
    unseen = [c for c in deck if c not in seen]
    rng.shuffle(unseen)
    opp_hand, stock = unseen[:5], unseen[5:]
    hand, up, opp_up, opp_down = list(hand), list(up), list(opp_up), []
    while True:
        un = [c for c in deck if c not in set(hand) | set(up) | set(opp_up)]
        _, actions = state_value(tuple(sorted(hand)), tuple(up), tuple(opp_up), opp_played, tuple(un), setup, memo)
        a = max(actions, key=lambda x: (actions[x], -x))
        if a == -1:
            return actions[-1]
        hand.remove(a)
        up.append(a)
        if len(up) == 5:
            break
        hand.append(stock.pop())
        if opp_played < 5:
            o = opp_hand.pop(rng.integers(len(opp_hand)))
            (opp_up if opp_played < 4 else opp_down).append(o)
            opp_hand.append(stock.pop())
            opp_played += 1
    while opp_played < 5:
        o = opp_hand.pop(rng.integers(len(opp_hand)))
        (opp_up if opp_played < 4 else opp_down).append(o)
        opp_hand.append(stock.pop())
        opp_played += 1
    from ricochet_math.evaluator.evaluation import eval5
    v, w = eval5(*up), eval5(*(opp_up + opp_down))
    return 10 if v > w else (-10 if v < w else 0)


def test_exact_value_matches_a_playout_with_hidden_hands():
    hand = tuple(int(c) for c in parse_cards("9s Th Jd Qc Kc"))
    up, opp_up = tuple(int(c) for c in parse_cards("Ac 9d Td")), tuple(int(c) for c in parse_cards("Jh Qh Ks"))
    sol = solve_state(hand, face_up=up, opp_up=opp_up, deck=SMALL, samples=None)
    setup = _Setup(FreeRideRules(), 10, 10, 10**9, None, 4, 0)
    memo: dict = {}
    rng = np.random.default_rng(2026)
    x = np.array([_playout(hand, up, opp_up, 3, SMALL, rng, setup, memo) for _ in range(3000)], float)
    se = x.std(ddof=1) / np.sqrt(len(x))
    # seed 2026, 3000 play-outs: within 4 standard errors of the exact value
    assert abs(x.mean() - sol.value) < 4 * se, (x.mean(), sol.value, se)


def test_sampled_value_is_close_to_exact_late():
    kw = dict(face_up="Ac 9d", opp_up="Jh Qh", deck=SMALL)
    hand = "9s Th Jd Qc Kc"
    exact = solve_state(hand, samples=None, **kw)
    sampled = solve_state(hand, samples=40, exact_from=4, **kw)  # 40 of 210 pairs at the first chance node
    assert abs(sampled.value - exact.value) < 1.0 and sampled.method != "exact"


def test_bad_states_are_refused():
    with pytest.raises(RuleError):
        solve_state("As Ah Kd Qc 3s", face_up="2d 5s 9c Jh", opp_up="Tc")


@pytest.mark.parametrize("kw", [dict(samples=None, deck=SMALL, face_up="Ac 9d Td", opp_up="Jh Qh Ks"),
                                dict(samples=None, face_up="Ad 9s 3c", opp_up="2c 7d 9h"),
                                dict(samples=4, exact_from=5, face_up="Ad 9s", opp_up="2c 7d"),
                                dict(samples=5, exact_from=5, face_up="Ad 9s", opp_up="2c 7d 4h", opp_played=3)],
                         ids=["small-exact", "full-exact-3up", "sampled-2up", "sampled-opp-ahead"])
def test_kernel_recursion_equals_the_readable_one(kw):
    hand = "9s Th Jd Qc Kc" if kw.get("deck") else "7s 8h Kd Qc 2s"
    fast = solve_state(hand, **kw)
    slow = solve_state(hand, reference=True, **kw)
    assert fast.actions.keys() == slow.actions.keys()
    for a in fast.actions:
        assert fast.actions[a] == pytest.approx(slow.actions[a], abs=1e-12)


def test_last_card_study_never_beats_the_best():
    study = last_card_study(40, "computer", seed=5)
    t = study.to_frame()
    assert len(t) == 40 and (t["best"] >= t["strategy_value"] - 1e-12).all()
    assert not last_card_study(20, "always", seed=5).to_frame()["strategy_folds"].any()


def test_free_ride_turns_a_losing_ride_into_a_winning_one():
    # 7s 8h 4d Qc 2s in hand, 5d 9s 3c up, the opponent shows Kc 6d 9h: exact values (this solver, full deck)
    kw = dict(face_up="5d 9s 3c", opp_up="Kc 6d 9h", samples=None)
    full = solve_state("7s 8h 4d Qc 2s", **kw)
    poor = solve_state("7s 8h 4d Qc 2s", hero_chips=3, **kw)
    assert full.best_action == poor.best_action == "Qc"
    assert full.value == pytest.approx(-1.52775, abs=1e-5) and poor.value == pytest.approx(0.38455, abs=1e-5)
