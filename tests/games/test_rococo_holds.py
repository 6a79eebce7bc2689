"""The draw solver for any paytable and up to five discards, checked against a published figure.

Full-pay (9/6) Jacks or Better, played optimally with up to five discards, returns 99.5439% (the figure
published for the game, e.g. by the Wizard of Odds); the toolkit's exact counting must reproduce it.
"""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest

from ricochet_math.errors import PatternError, RuleError
from ricochet_math.evaluator.cards import parse_cards
from ricochet_math.evaluator.evaluation import reference_value
from ricochet_math.games.rococo.draw import KEEPS, N_HANDS, five_card_hands
from ricochet_math.games.rococo.holds import (
    HOLD_DRAWS, HOLDS, JACKS_OR_BETTER_9_6, DrawPaytable, hold_text, hold_values,
    hold_values_by_enumeration, holds_allowed, optimal_return,
)

SAMPLE = np.random.default_rng(27).integers(0, N_HANDS, 4)


def test_full_pay_jacks_or_better_returns_the_published_99_5439_percent():
    result = optimal_return(JACKS_OR_BETTER_9_6, max_discards=5)
    # published to four decimals of a percent: 99.5439% (the exact figure is 99.543904...%)
    assert abs(100 * result.expected_pay - 99.5439) < 0.00005
    assert abs(result.best_hold_share.sum() - 1) < 1e-12
    assert "99.5439%" in result.summary()


def test_holds_are_the_32_subsets_and_extend_rococos_keeps():
    assert sorted(HOLDS) == list(range(32)) and HOLDS[:26] == KEEPS
    assert [holds_allowed(d) for d in range(6)] == [1, 6, 16, 26, 31, 32]
    assert sorted(HOLD_DRAWS) == sorted(d for d in range(6) for _ in range(comb(5, d)))


def test_four_to_a_royal_by_hand_count():
    # Ah Kh Qh Jh + 9c, draw one of 47: 1 royal (800), 8 other hearts but Th (flush, 6),
    # 3 non-heart tens (straight, 4), 12 cards pairing A/K/Q/J (jacks or better, 1): 872 / 47
    hv = hold_values("Ah Kh Qh Jh 9c")
    assert hold_text(hv.hand, HOLDS[hv.best]) == "hold Ah Kh Qh Jh, draw 1"
    assert hv.values[hv.best] == pytest.approx(872 / 47, abs=1e-12)
    assert hv.values[0] == 0  # standing pat on ace-high pays nothing


@pytest.mark.parametrize("h", SAMPLE)
def test_counting_equals_brute_force_enumeration(h):
    hands, _ = five_card_hands()
    hand = hands[h].astype(np.int64)
    counted = hold_values(hand).values
    brute = hold_values_by_enumeration(hand)
    assert counted.shape == brute.shape == (32,)
    assert np.abs(counted - brute).max() < 1e-9


def _readable_pay(cards, lines) -> Fraction:
    v = reference_value(list(cards))
    return max((Fraction(pays) for threshold, pays in lines if v >= threshold), default=Fraction(0))


def test_small_draws_equal_a_readable_listing():
    # the readable evaluator and the paytable's thresholds, every final hand listed, exact fractions
    from ricochet_math.evaluator.names import pattern_value

    lines = [(pattern_value(p), x) for p, x in JACKS_OR_BETTER_9_6.lines]
    hand = sorted(int(c) for c in parse_cards("Qs Qd 7h 6h 5h", count=5))
    unseen = [c for c in range(52) if c not in hand]
    counted = hold_values(hand, max_discards=2).values
    for i in range(holds_allowed(2)):
        kept = [hand[p] for p in range(5) if HOLDS[i] >> p & 1]
        draws = list(combinations(unseen, 5 - len(kept)))
        want = sum(_readable_pay(kept + list(d), lines) for d in draws) / len(draws)
        assert counted[i] == pytest.approx(float(want), abs=1e-12)


def test_fewer_discards_never_pay_more_and_zero_discards_is_the_dealt_hand():
    returns = [optimal_return(max_discards=d).expected_pay for d in range(6)]
    assert all(a <= b + 1e-15 for a, b in zip(returns, returns[1:]))
    # standing pat on every deal: the paytable's mean over the 2,598,960 hands
    _, values = five_card_hands()
    assert returns[0] == pytest.approx(JACKS_OR_BETTER_9_6.scores()[values].mean(), abs=1e-12)


def test_bad_paytables_and_discard_counts_are_refused():
    with pytest.raises(RuleError, match="max_discards"):
        hold_values("Ah Kh Qh Jh 9c", max_discards=6)
    with pytest.raises(RuleError, match="pays"):
        DrawPaytable("bad", (("flush", -1),))
    with pytest.raises(PatternError):
        DrawPaytable("bad", (("QQQQQ", 1),))
