"""The optimal abstraction scored against the exact solve (games/home/deal_error.py): on endgames of four cards
of room, with the abstraction's exact region cut to two so that the pot-odds rule decides above it, the
values equal a readable recursion (the compiled exact solver below the cut, the rule's exact chances by
brute force), the best responses bracket the exact value, and a cut at the root's room is exact."""
from __future__ import annotations

from itertools import permutations

import numpy as np
import pytest

from ricochet_math.errors import RicochetError
from ricochet_math.evaluator.cards import parse_cards
from ricochet_math.games.home.deal_error import deal_error, lift_chances, pot_odds_exact
from ricochet_math.games.home.exact import ExactSolver, card_mask, solve_exact
from ricochet_math.games.home.rules import HomeRules
from ricochet_math.games.home.solver import Position, keys_of
from ricochet_math.games.home.strategies import View, pot_odds_buy

RULES = HomeRules(players=2)
#: four cards of room; the rule disagrees with the exact solver at some decisions of each
CASES = [("2c 3d 4h", "As Kd Qh", 3), ("7c 8d 9h", "7s 8h Td", 6)]
TOL = 1e-12


def _brute_chances(hand, target, unseen, room):
    """p[k]: the share of ordered deals of ``room`` cards whose first lifting prefix has at most k cards."""
    first = [0] * (room + 2)
    seqs = list(permutations(unseen, room))
    for seq in seqs:
        L = next((j + 1 for j in range(room) if keys_of(tuple(sorted(hand + seq[:j + 1])))[1] > target), room + 1)
        first[L] += 1
    return np.cumsum(first[:room + 1]) / len(seqs)


def test_lift_chances_against_brute_force():
    hand, other = tuple(parse_cards("2c 3d 4h")), tuple(parse_cards("7s 8h Td"))
    target = keys_of(other)[1]
    unseen = [c for c in range(52) if c not in hand + other][::3]  # 15 cards: 2,730 ordered pairs
    for room in (1, 2):
        got = lift_chances(hand, target, unseen, room)
        assert np.allclose(got, _brute_chances(hand, target, unseen, room), rtol=0, atol=TOL)


def _reference(rules, a, b, pot, exact_room, pick):
    """Both players play ``pick(view)`` (``{buy: chance}``) above ``exact_room`` cards of room and the exact solver at or below
    it: the first to act's future net, by full enumeration of the chance nodes (no shortcut)."""
    solver = ExactSolver(rules, capacity=1 << 16)

    def unseen(h, o):
        return [c for c in range(52) if c not in h + o]

    def dec(h, o, pot):
        u = unseen(h, o)
        if 2 * rules.hand_limit - len(h) - len(o) <= exact_room:
            sol = solve_exact(rules, Position((h, o), pot, sum(1 << c for c in u)), solver=solver)
            return sol.values[sol.best][sol.actor]
        view = View(h, keys_of(o)[1], pot, min(rules.hand_limit - len(h), len(u)), 2, tuple(u))
        return sum(p * (0.0 if k == 0 else deal(h, o, pot + k, k) - k) for k, p in pick(view).items())

    def deal(h, o, pot, r):
        u = unseen(h, o)
        total = 0.0
        for c in u:
            h2 = tuple(sorted(h + (c,)))
            if keys_of(h2)[1] > keys_of(o)[1]:
                if min(rules.hand_limit - len(o), len(u) - 1) > 0:
                    total += pot - dec(o, h2, pot)
                else:
                    total += pot / 2 if keys_of(h2)[0] == keys_of(o)[0] else pot
            elif r > 1:
                total += deal(h2, o, pot, r - 1)
        return total / len(u)

    a, b = tuple(sorted(a)), tuple(sorted(b))
    return dec(a, b, pot) if keys_of(a)[1] < keys_of(b)[1] else pot - dec(b, a, pot)


def _brute_rule(view):
    p = _brute_chances(view.hand, view.target, list(view.unseen), view.room)
    values = [0.0] + [p[k] * (view.pot + k) - k for k in range(1, view.room + 1)]
    return {max(range(len(values)), key=lambda k: (values[k], -k)): 1.0}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0] + " v " + c[1])
def test_values_against_a_readable_recursion(case):
    a, b, pot = case
    got = deal_error(RULES, a, b, pot, exact_room=2, draws=8, seed=5)
    cards_a, cards_b = tuple(parse_cards(a)), tuple(parse_cards(b))
    assert abs(got.both_exact_pk - _reference(RULES, cards_a, cards_b, pot, 2, _brute_rule)) < 1e-9
    # the rule as played: each decision's choice over the same 8 generator states (seed 5)
    states = np.random.Generator(np.random.PCG64(5)).integers(0, 2**64, size=8, dtype=np.uint64)

    def sampled(view):
        ks = [pot_odds_buy(view, 1.0, [int(s)]) for s in states]
        return {k: ks.count(k) / len(ks) for k in set(ks)}

    assert abs(got.both - _reference(RULES, cards_a, cards_b, pot, 2, sampled)) < 1e-9
    for row in got.decisions.itertuples():
        h, o = tuple(parse_cards(row.hand)), tuple(parse_cards(row.other))
        u = tuple(c for c in range(52) if c not in h + o)
        view = View(h, keys_of(o)[1], row.pot, min(5 - len(h), len(u)), 2, u)
        assert row.rule_exact_pk == pot_odds_exact(view) == next(iter(_brute_rule(view)))
        assert abs(row.agree - sampled(view).get(row.exact_best, 0.0)) < TOL
    assert got.positions > 10_000 and len(got.decisions) > 10


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0] + " v " + c[1])
def test_best_responses_bracket_the_exact_value(case):
    got = deal_error(RULES, *case, exact_room=2, draws=8, seed=5)
    assert got.second_best_response <= got.exact + TOL <= got.first_best_response + 2 * TOL
    assert got.second_best_response <= got.both + TOL and got.both <= got.first_best_response + TOL
    assert got.first_gives_away >= -TOL and got.second_gives_away >= -TOL
    assert (got.decisions.regret >= -TOL).all() and (got.decisions.agree <= 1 + TOL).all()
    assert got.decisions.agree.mean() < 1  # the rule disagrees somewhere: the cases are not trivial
    assert got.to_frame().shape[0] == 1 and "agree" in got.summary()


def test_a_cut_at_the_root_is_exact():
    a, b, pot = CASES[0]
    got = deal_error(RULES, a, b, pot, exact_room=4, draws=4)
    assert len(got.decisions) == 0
    for v in (got.both, got.both_exact_pk, got.first_best_response, got.second_best_response):
        assert abs(v - got.exact) < TOL
    # the exact value is the solver's at the root, for the hand that acts first (2c3d4h is the lower)
    s = ExactSolver(RULES, capacity=1 << 16)
    v = s.values([card_mask(parse_cards(a))], [card_mask(parse_cards(b))], [pot])[0]
    assert abs(got.exact - v) < TOL and got.first == tuple(parse_cards(a))


def test_a_deal_subtracts_the_ante_and_errors():
    rules = HomeRules(players=2, start_cards=2)
    with pytest.raises(RicochetError, match="over"):
        deal_error(RULES, "2c 3d 4h 5s 7c", "As Kd Qh", 10, draws=2)
    with pytest.raises(RicochetError):
        deal_error(rules, "2c 3d", "As Kd", draws=0)
