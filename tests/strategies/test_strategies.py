"""Strategies: the registry, the key tables, and the readable rules against their numba twins.

Truth: the evaluator's own partial_key / order_key (pinned by tests/evaluator/test_evaluation.py),
the side-bet module's readable Quickdraw rule, and each strategy's documented
rule (ricochet_math/strategies/registry.py docstring); the readable rule
(strategies.simple.play through Strategy.decide) and the kernel's
(strategies.dispatch.decide) must agree on every sampled table state.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from ricochet_math.errors import StrategyError
from ricochet_math.evaluator.cards import parse_cards
from ricochet_math.evaluator.evaluation import eval5, order_key, partial_key, partial_key_of
from ricochet_math.evaluator.tables import NUM_VALUES
from ricochet_math.rules.layout import Option
from ricochet_math.strategies.dispatch import decide, decide_table_free
from ricochet_math.strategies.perfect import READING_NAMES, Reading, Readings, perfect_decision, readings
from ricochet_math.strategies.policy import Code, PolicySlot
from ricochet_math.strategies.registry import (
    FIVE_CARD_KEY, ORDER_KEY, Strategy, TWO_CARD_KEY, TableState, get_strategy, policy_array, resolve_strategies, strategy_names,
)
from ricochet_math.strategies.simple import top_cards_key
from ricochet_math.strategies.simple import simple_decide

SIMPLE = ("always", "never", "pair", "beats:A9", "beats:77", "beats:K", "timid", "chaser", "dealer-only",
          "bonus-hunter")
READINGS = READING_NAMES


# ---------------------------------------------------------------- registry

def test_every_listed_name_resolves():
    for name in strategy_names():
        if name in ("beats:XY", "READING-vs-READING"):
            continue
        s = get_strategy(name)
        assert s.name == name
        assert s.description


def test_aliases_and_case():
    assert get_strategy("Always-Play") == get_strategy("always")
    assert get_strategy("fold") == get_strategy("never")
    assert get_strategy("pair-or-better") == get_strategy("pair")
    s = get_strategy("pair")
    assert get_strategy(s) is s


def test_unknown_name_says_did_you_mean():
    with pytest.raises(StrategyError, match="unknown strategy 'perfec'; did you mean 'perfect'"):
        get_strategy("perfec")
    with pytest.raises(StrategyError, match="did you mean 'dealer-only'"):
        get_strategy("dealer_only")
    with pytest.raises(StrategyError, match="unknown strategy 'zzz'"):
        get_strategy("zzz")
    with pytest.raises(StrategyError):
        get_strategy("")


def test_beats_patterns():
    ace9 = get_strategy("beats:a9")
    assert ace9.name == "beats:A9" and ace9.code == Code.beats
    assert ace9.key == partial_key_of("Ac 9d")
    assert get_strategy("beats:10").key == partial_key_of("Tc")
    assert get_strategy("beats:77").key == partial_key_of("7c 7d")
    for bad in ("beats:AKQ", "beats:A1", "beats:xx"):
        with pytest.raises(StrategyError, match="bad hand pattern"):
            get_strategy(bad)
    # the spec grammar (ricochet_math.arguments.spec_parts) refuses these before the pattern is read (issue 35)
    for bad, why in (("beats:", "empty parameter list"), ("beats:A9:", "empty parameter"), ("beats: A9", "space"),
                     ("always:", "empty parameter list"), ("beats::A9", "empty parameter"), (":A9", "no name")):
        with pytest.raises(StrategyError, match=why):
            get_strategy(bad)


def test_best_response_names():
    s = get_strategy("perfect-vs-pot-odds-final-no-bonus")
    assert s.code == Code.look_ahead and s.uses_look_ahead
    assert s.readings == Readings(Reading.perfect, True, Reading.pot_odds_final, False)
    row = s.policy_row()
    assert list(row[[PolicySlot.mine, PolicySlot.mine_bonus, PolicySlot.others, PolicySlot.others_bonus]]) == [
        Reading.perfect, 1, Reading.pot_odds_final, 0]
    with pytest.raises(StrategyError):
        get_strategy("perfect-vs-nobody")


def test_reading_names():
    assert [readings(name) for name in READINGS] == [
        Readings(r, b, r, b) for r in Reading for b in (True, False)]
    with pytest.raises(KeyError):
        readings("perfect-no-bonus-no-bonus")


def test_resolve_strategies():
    assert resolve_strategies("pair", 3) == (get_strategy("pair"),) * 3
    assert resolve_strategies(["pair"], 2) == (get_strategy("pair"),) * 2
    mixed = resolve_strategies(["pair", "always", "timid"], 3)
    assert [s.name for s in mixed] == ["pair", "always", "timid"]
    with pytest.raises(StrategyError, match="2 strategies given for 3 players"):
        resolve_strategies(["pair", "always"], 3)
    policy = policy_array(mixed)
    assert policy.dtype == np.int64 and policy.shape == (3, len(PolicySlot))
    assert list(policy[:, PolicySlot.code]) == [Code.pair, Code.always, Code.timid]


# ---------------------------------------------------------------- key tables

def test_two_card_tables_match_the_evaluator_on_every_pair():
    pair = np.empty(2, dtype=np.int64)
    for a, b in itertools.permutations(range(52), 2):
        pair[0], pair[1] = a, b
        assert TWO_CARD_KEY[a * 52 + b] == partial_key(pair, 2)
        assert ORDER_KEY[a * 52 + b] == order_key(a, b)


def test_five_card_key_table_matches_partial_key():
    rng = np.random.default_rng(11)
    seen = set()
    for _ in range(20_000):
        h = rng.choice(52, 5, replace=False).astype(np.int64)
        v = int(eval5(*h))
        seen.add(v)
        assert FIVE_CARD_KEY[v] == partial_key(h, 5)
    assert len(seen) > 3_000
    assert np.all(np.diff(FIVE_CARD_KEY) > 0), "keys must rise with the hand value"
    assert FIVE_CARD_KEY.shape == (NUM_VALUES,)


def test_top_cards_cut_matches_the_side_bet_module():
    """top_cards_key against sidebets.reference_quickdraw_win (tuple-prefix comparison)."""
    sidebets = pytest.importorskip("ricochet_math.design.sidebets")
    rng = np.random.default_rng(5)
    for _ in range(3_000):
        c = rng.choice(52, 7, replace=False)
        hole, dealer = c[:2], c[2:]
        k2 = int(TWO_CARD_KEY[hole[0] * 52 + hole[1]])
        k5 = int(FIVE_CARD_KEY[int(eval5(*dealer))])
        assert (k2 >= top_cards_key(k5, k2)) == sidebets.reference_quickdraw_win(hole, dealer, "top-cards")
        assert (k2 >= k5) == sidebets.reference_quickdraw_win(hole, dealer, "kicker")


def test_spec_top_cards_example():
    # spec, "Side bets": player A-K ties, and beats, dealer A-K-Q-9-7
    k2 = partial_key_of("Ah Kd")
    k5 = partial_key_of("Ac Ks Qh 9d 7c")
    assert k2 >= top_cards_key(k5, k2)
    assert k2 < k5  # the kicker reading: the dealer's extra cards count


# ---------------------------------------------------------------- the rules themselves

def _state(hole, *, best_value=-1, dealer="2c 3d 5h 8s Jc", kicked=False, dealer_in=None) -> TableState:
    h = tuple(int(c) for c in parse_cards(hole, count=2))
    d = tuple(int(c) for c in parse_cards(dealer, count=5))
    dv = int(eval5(*d))
    unseen = np.ones(52, np.uint8)
    unseen[list(h + d)] = 0
    if dealer_in is None:
        dealer_in = not kicked and best_value == dv
    return TableState(n_players=1, seat=0, position=0, order=(0,), holes=(h,), dealer_cards=d, dealer_value=dv,
                      dealer_kicked=kicked, dealer_in=dealer_in, best_value=best_value, n_tied=0, standing=(),
                      pot=2, unseen=unseen, bonus_by_value=np.zeros(NUM_VALUES),
                      options=np.zeros(len(Option), np.int64))


@pytest.mark.parametrize("name,hole,plays", [
    ("always", "2c 7d", True),
    ("never", "Ac Ad", False),
    ("pair", "2c 2d", True),
    ("pair", "Ac Kd", False),
    ("beats:A9", "Ac 9d", False),   # ties the pattern: does not beat it
    ("beats:A9", "Ac Td", True),
    ("beats:A9", "2c 2d", True),    # any pair beats A-9
    ("beats:77", "7c 7d", False),
    ("beats:77", "8c 8d", True),
    ("timid", "Ac Qd", True),
    ("timid", "Ac Jd", False),
    ("timid", "3c 3d", True),
    ("bonus-hunter", "Ac 2d", True),    # A-2 can share a wheel
    ("bonus-hunter", "Ac 6d", False),
    ("bonus-hunter", "9c 5d", True),
    ("bonus-hunter", "Kc 3c", True),    # suited
    ("bonus-hunter", "Kc 3d", False),
])
def test_hand_only_rules(name, hole, plays):
    assert get_strategy(name).decide(_state(hole)) is plays


def test_chaser_folds_only_long_shots():
    chaser = get_strategy("chaser")
    trips = int(eval5(*parse_cards("7c 7d 7h 2s 3c")))
    two_pair = int(eval5(*parse_cards("7c 7d 3h 3s Ac")))
    assert chaser.decide(_state("Ac Kd", best_value=two_pair))
    assert not chaser.decide(_state("Ac Kd", best_value=trips))
    assert chaser.decide(_state("4c 4d", best_value=trips))
    assert chaser.decide(_state("Ac Kd"))


def test_dealer_only_compares_with_the_dealers_top_cards():
    s = get_strategy("dealer-only")
    dealer = "Ac Ks Qh 9d 7c"
    assert s.decide(_state("Ah Kd", dealer=dealer))       # ties A-K: plays
    assert not s.decide(_state("Ah Qd", dealer=dealer))
    assert s.decide(_state("2h 2d", dealer=dealer))       # a pair beats A-K high
    assert s.decide(_state("2h 3d", dealer=dealer, kicked=True))


# ---------------------------------------------------------------- readable vs kernel

def _random_states(rng, count):
    """Plausible table states: a dealer, N seats, some seats already drawn, a best value."""
    for _ in range(count):
        n = int(rng.integers(1, 8))
        cards = rng.permutation(52)
        holes = tuple((int(cards[2 * i]), int(cards[2 * i + 1])) for i in range(n))
        dealer = tuple(int(c) for c in cards[2 * n: 2 * n + 5])
        dv = int(eval5(*dealer))
        order = tuple(sorted(range(n), key=lambda i: ORDER_KEY[holes[i][0] * 52 + holes[i][1]]))
        pos = int(rng.integers(0, n))
        kicked = bool(rng.random() < 0.3)
        unseen = np.ones(52, np.uint8)
        unseen[cards[: 2 * n + 5 + 3 * pos]] = 0
        mode = rng.integers(0, 3)
        if not kicked and mode == 0:
            best, dealer_in, tied = dv, True, 0
        elif mode == 1 and pos > 0:
            best, dealer_in, tied = int(rng.integers(0, NUM_VALUES)), False, int(rng.integers(1, 3))
        else:
            best, dealer_in, tied = (-1, False, 0) if kicked else (dv, True, 0)
        opts = np.zeros(len(Option), dtype=np.int64)
        opts[[Option.automatic_win, Option.dealer_loses_ties, Option.bonus_on_automatic_win]] = 1
        opts[Option.dealer_value] = dv
        yield TableState(n_players=n, seat=order[pos], position=pos, order=order, holes=holes, dealer_cards=dealer,
                         dealer_value=dv, dealer_kicked=kicked, dealer_in=dealer_in, best_value=best, n_tied=tied,
                         standing=(), pot=n + 1 + pos, unseen=unseen, bonus_by_value=np.zeros(NUM_VALUES),
                         options=opts)


def _decide_args(st, strategy):
    """The dispatch arguments of a table state, every seat playing ``strategy``."""
    return (policy_array([strategy] * st.n_players), st.position, st.unseen, st.hole_array(), st.order_array(),
            st.best_value, st.dealer_in, st.n_tied, st.pot, st.dealer_kicked, st.dealer_key(), st.bonus_by_value,
            st.options)


@pytest.mark.parametrize("name", SIMPLE)
def test_readable_and_kernel_decisions_agree(name):
    strategy = get_strategy(name)
    rng = np.random.default_rng(hash(name) % 2**32)
    for st in _random_states(rng, 400):
        mine = strategy.decide(st)
        c0, c1 = st.hole
        assert bool(simple_decide(strategy.code, strategy.key, c0, c1, st.best_value, st.dealer_kicked,
                                  st.dealer_key())) is mine
        assert bool(decide(*_decide_args(st, strategy))) is mine
        assert bool(decide_table_free(*_decide_args(st, strategy))) is mine


@pytest.mark.parametrize("name", ["perfect", "myopic", "pot-odds-final-no-bonus", "perfect-vs-myopic"])
def test_look_ahead_readings_call_the_perfect_kernel(name):
    strategy = get_strategy(name)
    rng = np.random.default_rng(3)
    for st in _random_states(rng, 6):
        want = bool(perfect_decision(strategy.readings, st.unseen, st.hole_array(), st.order_array(),
                                     st.position, st.best_value, st.dealer_in, st.n_tied, st.pot,
                                     st.dealer_kicked, st.bonus_by_value, st.options))
        assert strategy.decide(st) is want
        assert bool(decide(*_decide_args(st, strategy))) is want


def test_decide_cards_illustration():
    assert get_strategy("beats:A9").decide_cards(("Ah", "Tc"))
    assert not get_strategy("pair").decide_cards("Ah Tc")
    assert Strategy("x", Code.always).decide_cards("2c 3d")
