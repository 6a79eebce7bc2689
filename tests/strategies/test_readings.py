"""The publisher-like reading family (ricochet_math.strategies.readings): the kernel against the readable
rule, the two members that are the spec's pot-odds readings against those, and the names."""
from __future__ import annotations

import numpy as np
import pytest

from ricochet_math.engine.kernel import play_decks
from ricochet_math.evaluator.evaluation import NUM_VALUES, ORDER_KEY, eval5
from ricochet_math.rules.arrays import bonus_by_value, options_array
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.strategies.readings import (FAMILY_NAMES, family_code, parse_family, reference_decision)
from ricochet_math.strategies.registry import TableState, get_strategy, strategy_names

RULES = load_rules("publisher")


def _random_states(rng, count):
    """Table states with a real bonus table: a dealer, N seats, earlier seats' draws gone, a hand to beat."""
    bonus = np.asarray(RULES_BONUS, dtype=np.float64)
    for _ in range(count):
        n = int(rng.integers(1, 8))
        cards = rng.permutation(52)
        holes = tuple((int(cards[2 * i]), int(cards[2 * i + 1])) for i in range(n))
        dealer = tuple(int(c) for c in cards[2 * n: 2 * n + 5])
        dv = int(eval5(*dealer))
        order = tuple(sorted(range(n), key=lambda i: ORDER_KEY[holes[i][0] * 52 + holes[i][1]]))
        pos = int(rng.integers(0, n))
        kicked = bool(rng.random() < 0.25)
        unseen = np.ones(52, np.uint8)
        unseen[cards[: 2 * n + 5 + 3 * pos]] = 0
        mode = int(rng.integers(0, 3))
        if not kicked and mode == 0:
            best, dealer_in, tied = dv, True, 0
        elif mode >= 1 and pos > 0:  # a player stands, often near the typical hands
            best, dealer_in, tied = int(rng.integers(3000, NUM_VALUES)), False, int(rng.integers(1, 4))
        else:
            best, dealer_in, tied = (-1, False, 0) if kicked else (dv, True, 0)
        opts = options_array(RULES, dv)
        yield TableState(n_players=n, seat=order[pos], position=pos, order=order, holes=holes, dealer_cards=dealer,
                         dealer_value=dv, dealer_kicked=kicked, dealer_in=dealer_in, best_value=best, n_tied=tied,
                         standing=(), pot=n + 1 + int(rng.integers(0, pos + 1)), unseen=unseen,
                         bonus_by_value=bonus, options=opts)


RULES_BONUS = None


@pytest.fixture(scope="module", autouse=True)
def _bonus():
    global RULES_BONUS
    RULES_BONUS = bonus_by_value(RULES)


def test_names_parse_and_register():
    assert len(FAMILY_NAMES) == 32 and len(set(FAMILY_NAMES)) == 32
    assert parse_family("pub-prob-best-no-bonus") == ("prob", "best", False)
    assert len({family_code(n) for n in FAMILY_NAMES}) == 16
    for name in FAMILY_NAMES:
        assert name not in strategy_names()  # listed as one pattern, resolved by name
        s = get_strategy(name)
        assert s.uses_look_ahead and s.readings[0] == family_code(name)
    with pytest.raises(KeyError):
        parse_family("pub-later-dealer")


@pytest.mark.parametrize("name", [n for n in FAMILY_NAMES if not n.endswith("-no-bonus")] + [
    "pub-final-best-no-bonus", "pub-prob-dealer-no-bonus"])
def test_kernel_agrees_with_the_readable_rule(name):
    strategy = get_strategy(name)
    rng = np.random.default_rng(sum(map(ord, name)))
    plays = 0
    for st in _random_states(rng, 120):
        want = reference_decision(name, st)
        assert strategy.decide(st) is want, (name, st.n_players, st.position, st.best_value, st.dealer_in)
        plays += want
    assert 0 < plays < 120  # the states test both branches


@pytest.mark.parametrize("family, spec", [("pub-now-dealer", "pot-odds-now"),
                                          ("pub-final-dealer-no-bonus", "pot-odds-final-no-bonus"),
                                          ("pub-final-dealer", "pot-odds-final")])
def test_dealer_members_are_the_spec_pot_odds_readings(family, spec):
    """Same decisions on the same 300 seven-player decks: every seat's status and value agree."""
    decks = np.stack([np.random.default_rng(7).permutation(52) for _ in range(1)] +
                     [np.random.default_rng(100 + i).permutation(52) for i in range(299)])
    a = play_decks(RULES, decks, family, players=7)
    b = play_decks(RULES, decks, spec, players=7)
    assert np.array_equal(a.status, b.status) and np.array_equal(a.final_value, b.final_value)
    assert np.array_equal(a.net, b.net)


def test_members_differ_where_they_should():
    """On the same 400 seven-player decks: pot 'all' folds least, 'now' most; bonus out folds more."""
    decks = np.stack([np.random.default_rng(500 + i).permutation(52) for i in range(400)])
    folds = {}
    for name in ("pub-now-dealer", "pub-final-dealer", "pub-all-dealer", "pub-all-dealer-no-bonus"):
        folds[name] = int((play_decks(RULES, decks, name, players=7).status == 0).sum())
    assert folds["pub-all-dealer"] <= folds["pub-final-dealer"] <= folds["pub-now-dealer"]
    assert folds["pub-all-dealer"] < folds["pub-now-dealer"]
    assert folds["pub-all-dealer-no-bonus"] >= folds["pub-all-dealer"]
