"""Side bets, exact: Quickdraw and Cover counts, pinned figures, and where each truth comes from.

Truths used here:
* exhaustive counts, pinned below (computed by ricochet_math.design.sidebets and
  cross-checked in this file by independent routes);
* the slow twin ``quickdraw_brute_force`` (partial keys compared deal by deal)
  against the fast inclusion-exclusion count, exactly, on chosen player hands;
* the readable rule ``reference_quickdraw_win`` (tuples of
  ``reference_partial_key``) on seeded random deals (Monte Carlo, within 4
  standard errors);
* invariants: every deal counted once, each dealer hand meets C(47,2) player
  hands, probabilities sum to 1;
* the game engine (``ricochet_math.engine.round.Round``) settling side bets on
  seeded random deals, within 4 standard errors;
* the rulebook (shared/seeds/000, second casino page): Quickdraw "wins 5:1
  ... ties are a win for the player"; Cover "starting at 1:1 for a pair of
  fives or better ... to a large jackpot for a Royal Flush".
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from ricochet_math.evaluator.cards import parse_cards, random_deals
from ricochet_math.errors import RuleError
from ricochet_math.evaluator.evaluation import (
    FIVE_CARD_KEY,
    NUM_VALUES, evaluate, partial_key, value_counts_5,
)
from ricochet_math.rules.ruleset import Paytable, PayLine, load_rules
from ricochet_math.design.cover import cover, cover_lines, cover_progressive
from ricochet_math.design.quickdraw import player_classes, quickdraw, quickdraw_both, quickdraw_table
from ricochet_math.design.quickdraw_count import (
    quickdraw_brute_force, quickdraw_counts_for, reference_quickdraw_win,
)
from ricochet_math.design.sidebets import DEALS_COVER, DEALS_QUICKDRAW, sidebets_summary
from ricochet_math.evaluator.tables import hand_classes

# ---------------------------------------------------------------- pinned exact figures
# Computed by exhaustive counting over C(52,2) x C(50,5) deals (Quickdraw) and
# C(52,5) dealer hands (Cover); the checks below re-derive them other ways.
QD_WINS = {"kicker": 405_665_460, "top-cards": 418_486_560}          # of 2,809,475,760 deals
QD_RTP_5_TO_1 = {"kicker": 0.8663512227633529, "top-cards": 0.8937323452828082}
QD_STD_5_TO_1 = {"kicker": 2.1089198409130114, "top-cards": 2.136266969901501}
# Default Cover table (paytables/publisher.toml): 1, 2, 3, 5, 7, 10, 50, 200, 2000.
COVER_DEFAULT = {"pair_of_fives": 1, "two_pair": 2, "three_of_a_kind": 3, "straight": 5, "flush": 7,
                 "full_house": 10, "four_of_a_kind": 50, "straight_flush": 200, "royal_flush": 2000}
COVER_RTP = Fraction(44111, 46410)          # 0.9504632622279681
COVER_HITS = 1_042_980                      # hands at or above a pair of fives
COVER_STD = 2.9917719967823184
SEED_QD_MC = 20261130                       # Monte Carlo seeds, stated so reruns match
SEED_COVER_MC = 5112026
SEED_ENGINE = 777


def test_deal_counts():
    assert DEALS_QUICKDRAW == math.comb(52, 2) * math.comb(50, 5) == 2_809_475_760
    assert DEALS_COVER == 2_598_960


# ---------------------------------------------------------------- keys

def test_five_card_keys_match_partial_key_and_increase():
    keys = FIVE_CARD_KEY
    assert np.all(np.diff(keys) > 0), "the fast count needs keys increasing with the value"
    rng = np.random.default_rng(1)
    hands = random_deals(rng, 3000, 5).astype(np.int64)
    values = evaluate(hands)
    for h, v in zip(hands, values):
        assert keys[v] == partial_key(h, 5)


def test_player_classes():
    labels, groups, hands, class_of = player_classes()
    assert len(labels) == 169 and len(groups) == 25 and len(hands) == 1326
    weights = np.bincount(class_of, minlength=169)
    assert {labels[i]: int(weights[i]) for i in (0, 13, 14)} == {"AA": 6, "AKs": 4, "AKo": 12}
    assert sorted(set(weights.tolist())) == [4, 6, 12]


@pytest.mark.parametrize("player, dealer, kicker, top", [
    ("As Kd", "Ah Kh Qc 9d 7s", False, True),    # spec example: A-K ties (and beats) A-K-Q-9-7 under top-cards
    ("As Kd", "Ah Qh Jc 9d 7s", True, True),
    ("As Kd", "Ah Kh Qc 9d 9s", False, False),   # a dealer pair beats any non-pair
    ("9s 9d", "9h 9c Ad Kc Qs", False, True),    # brief's example: pair of nines vs 99-A-K-Q
    ("9s 9d", "8h 8c Ad Kc Qs", True, True),
    ("9s 9d", "Th Tc 2d 3c 4s", False, False),
    ("2c 2d", "Ah Kh Qc 9d 7s", True, True),     # any pair beats any high-card hand
    ("7c 6d", "7h 5c 4d 3s 2h", True, True),     # 7-6 beats the lowest high-card hand
    ("7c 5d", "7h 5c 4d 3s 2h", False, True),
    ("Ac Kc", "2h 3h 4h 5h 7c", True, True),
    ("Ac Kc", "2h 3c 4h 5h 6h", False, False),   # a straight is a five-card category
])
def test_comparison_examples(player, dealer, kicker, top):
    p, d = parse_cards(player), parse_cards(dealer)
    assert reference_quickdraw_win(p, d, "kicker") is kicker
    assert reference_quickdraw_win(p, d, "top-cards") is top


# ---------------------------------------------------------------- Quickdraw exact

def test_quickdraw_pinned_figures():
    for comparison, r in quickdraw_both().items():
        assert r.comparison == comparison and r.pays == 5
        assert r.win_combinations == QD_WINS[comparison]
        assert r.win_fraction == Fraction(QD_WINS[comparison], DEALS_QUICKDRAW)
        assert r.rtp_fraction == 6 * r.win_fraction
        assert r.rtp == pytest.approx(QD_RTP_5_TO_1[comparison], abs=1e-15)
        assert r.hit_frequency == r.win_probability
        assert r.std_dev == pytest.approx(QD_STD_5_TO_1[comparison], rel=1e-12)
        assert r.combinations.sum() == DEALS_QUICKDRAW
        assert r.rtp_at(r.break_even_pays) == pytest.approx(1.0)


def test_quickdraw_default_reading_has_a_house_edge():
    rules = load_rules()
    r = quickdraw(rules)
    assert rules.quickdraw.comparison == "top-cards"  # the documented default
    assert 0.05 < r.house_edge < 0.15


def test_quickdraw_each_dealer_hand_meets_c47_2_player_hands():
    # Every five-card dealer hand is paired with C(47,2) = 1081 player hands.
    r = quickdraw(comparison="kicker")
    cats = np.array([hc.category for hc in hand_classes()])
    per_cat = np.bincount(cats, weights=value_counts_5(), minlength=9).astype(np.int64)
    assert np.array_equal(r.combinations.sum(axis=0), 1081 * per_cat)


def test_quickdraw_player_can_only_beat_high_card_and_pair():
    for r in quickdraw_both().values():
        assert r.wins[:, 2:].sum() == 0
        assert np.all(r.wins <= r.combinations)


def test_top_cards_adds_exactly_the_ties():
    k, t = quickdraw(comparison="kicker"), quickdraw(comparison="top-cards")
    assert np.all(t.wins >= k.wins)
    # pairs: ties only against a dealer pair of the same rank; non-pairs only against high card
    labels = k.classes
    extra = t.wins - k.wins
    for i, lab in enumerate(labels):
        if lab[0] == lab[1]:
            assert extra[i, 0] == 0
        else:
            assert extra[i, 1] == 0


@pytest.mark.parametrize("player", ["As Kd", "9s 9d", "7c 6d"])
def test_fast_count_equals_brute_force(player):
    fast, slow = quickdraw_counts_for(player), quickdraw_brute_force(player)
    for key in ("combinations", "kicker", "top-cards"):
        assert np.array_equal(fast[key], slow[key]), key
    assert fast["combinations"].sum() == math.comb(50, 5)


@pytest.mark.slow
@pytest.mark.parametrize("player", ["Ac Ad", "2c 2d", "Ah 2h", "Kc Qc", "Th 9s", "3c 2c", "Jd Jc", "8s 3s"])
def test_fast_count_equals_brute_force_more_hands(player):
    fast, slow = quickdraw_counts_for(player), quickdraw_brute_force(player)
    for key in ("combinations", "kicker", "top-cards"):
        assert np.array_equal(fast[key], slow[key]), key


def test_quickdraw_frames():
    r = quickdraw(comparison="top-cards")
    for by in ("class", "group", "category"):
        frame = r.to_frame(by=by)
        assert frame["combinations"].sum() == DEALS_QUICKDRAW
        assert frame["probability"].sum() == pytest.approx(1.0)
        assert frame["rtp_contribution"].sum() == pytest.approx(r.rtp)
        assert frame["wins"].sum() == r.win_combinations
        per_player = r.by_player(by)
        assert per_player["rtp_contribution"].sum() == pytest.approx(r.rtp)
    assert r.by_dealer()["combinations"].sum() == DEALS_QUICKDRAW
    table = quickdraw_table()
    assert table["rtp_contribution_kicker"].sum() == pytest.approx(QD_RTP_5_TO_1["kicker"])
    assert table["rtp_contribution_top_cards"].sum() == pytest.approx(QD_RTP_5_TO_1["top-cards"])
    assert "RTP 89.3732%" in r.summary()
    with pytest.raises(ValueError):
        r.to_frame(by="suit")


def test_quickdraw_pays_and_errors():
    r = quickdraw(comparison="kicker", pays=4)
    assert r.rtp == pytest.approx(5 * QD_WINS["kicker"] / DEALS_QUICKDRAW)
    with pytest.raises(RuleError, match="comparison"):
        quickdraw(comparison="kickers")
    with pytest.raises(RuleError, match="payout"):
        quickdraw(pays=-1)


def _quickdraw_mc(comparison, n, seed):
    rng = np.random.default_rng(seed)
    deals = random_deals(rng, n, 7)
    wins = np.array([reference_quickdraw_win(d[:2], d[2:], comparison) for d in deals], dtype=float)
    return wins.mean(), wins.std(ddof=1) / math.sqrt(n)


@pytest.mark.parametrize("comparison", ["kicker", "top-cards"])
def test_quickdraw_monte_carlo_readable_rule(comparison):
    # 30,000 seeded deals judged by the readable rule; within 4 standard errors.
    p, se = _quickdraw_mc(comparison, 30_000, SEED_QD_MC)
    exact = QD_WINS[comparison] / DEALS_QUICKDRAW
    assert abs(p - exact) < 4 * se


@pytest.mark.slow
@pytest.mark.parametrize("comparison", ["kicker", "top-cards"])
def test_quickdraw_monte_carlo_large(comparison):
    p, se = _quickdraw_mc(comparison, 600_000, SEED_QD_MC + 1)
    exact = QD_WINS[comparison] / DEALS_QUICKDRAW
    assert abs(p - exact) < 4 * se


# ---------------------------------------------------------------- Cover exact

def test_cover_default_table_pinned():
    rules = load_rules()
    assert {l.key: l.pays for l in rules.cover} == COVER_DEFAULT
    assert rules.cover["pair_of_fives"].hand_pattern == "55"  # rulebook: 1:1 for a pair of fives or better
    r = cover(rules)
    assert r.rtp_fraction == COVER_RTP
    assert 0.93 <= r.rtp <= 0.97
    assert round(r.hit_frequency * DEALS_COVER) == COVER_HITS
    assert r.std_dev == pytest.approx(COVER_STD, rel=1e-12)
    assert r.losing + sum(l.combinations for l in r.lines) == DEALS_COVER
    assert [l.combinations for l in r.lines] == [844_800, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 36, 4]


def test_cover_equals_value_count_sums():
    counts = value_counts_5()
    for table in (load_rules().cover,
                  Paytable((PayLine("jacks", "JJ", 1), PayLine("trips", "three of a kind", 4),
                            PayLine("flush", "flush", 9), PayLine("royal", "royal flush", 500)))):
        r = cover(table)
        pays = np.array([table.payout(v) for v in range(NUM_VALUES)])
        ret = np.where(pays > 0, 1.0 + pays, 0.0)
        assert r.rtp == pytest.approx(float(counts @ ret) / DEALS_COVER, rel=1e-14)
        assert r.hit_frequency == pytest.approx(counts[pays > 0].sum() / DEALS_COVER)
        frame = r.to_frame()
        assert frame["combinations"].sum() == DEALS_COVER
        assert frame["probability"].sum() == pytest.approx(1.0)
        assert frame["rtp_contribution"].sum() == pytest.approx(r.rtp)


def test_cover_lines_follow_paytable_payout():
    # Lines sharing a threshold: the later one pays (Paytable.payout); out of order lines are sorted.
    table = Paytable((PayLine("flush", "flush", 8), PayLine("pair", "pair", 1),
                      PayLine("also_flush", "flush", 9), PayLine("royal", "royal flush", 100)))
    line_of = cover_lines(table)
    for v in range(NUM_VALUES):
        expect = table.payout(v)
        got = table.lines[line_of[v]].pays if line_of[v] >= 0 else 0.0
        assert got == expect
    r = cover(table)
    assert [l.key for l in r.lines] == ["pair", "flush", "also_flush", "royal"]
    assert dict((l.key, l.combinations) for l in r.lines)["flush"] == 0


def test_cover_zero_pay_line_loses():
    r = cover(load_rules(), two_pair=0)
    base = cover(load_rules())
    assert r.rtp == pytest.approx(base.rtp - 3 * 123_552 / DEALS_COVER)
    assert r.hit_frequency == pytest.approx(base.hit_frequency - 123_552 / DEALS_COVER)


def test_cover_monte_carlo():
    # 200,000 seeded dealer hands evaluated and paid by Paytable.payout; within 4 standard errors.
    rules = load_rules()
    rng = np.random.default_rng(SEED_COVER_MC)
    values = evaluate(random_deals(rng, 200_000, 5))
    pays = np.array([rules.cover.payout(v) for v in range(NUM_VALUES)])
    ret = np.where(pays[values] > 0, 1.0 + pays[values], 0.0)
    exact = cover(rules)
    assert abs(ret.mean() - exact.rtp) < 4 * ret.std(ddof=1) / math.sqrt(ret.size)
    hits = (pays[values] > 0).astype(float)
    assert abs(hits.mean() - exact.hit_frequency) < 4 * hits.std(ddof=1) / math.sqrt(hits.size)


def test_cover_errors():
    with pytest.raises(RuleError, match="no lines"):
        cover(Paytable())
    with pytest.raises(RuleError, match="no line 'royal'"):
        cover(load_rules(), royal=5)


# ---------------------------------------------------------------- progressive

def test_progressive():
    rules = load_rules()
    p = cover_progressive(rules, reset=2000, meter_rate=0.02)
    base = cover(rules)
    assert p.line == "royal_flush"
    assert p.p_jackpot == 4 / DEALS_COVER
    assert p.rtp_at(2000) == pytest.approx(base.rtp, abs=1e-15)  # the meter at 2000 is the fixed table
    assert p.rtp_at(p.break_even_meter) == pytest.approx(1.0, abs=1e-12)
    assert round(p.break_even_meter) == 34186
    assert p.rtp_at(p.break_even_meter + 1000) > 1.0
    assert p.mean_meter_at_hit == pytest.approx(2000 + 0.02 * DEALS_COVER / 4)
    assert p.long_run_rtp == pytest.approx(base.rtp + 0.02)
    assert np.allclose(p.rtp_at([2000, 5000]), [p.rtp_at(2000), p.rtp_at(5000)])
    frame = p.to_frame()
    assert frame["rtp"].is_monotonic_increasing and frame["rtp"].iloc[-1] > 1.0
    assert "break-even meter 34,186" in p.summary()


def test_progressive_errors():
    rules = load_rules()
    no_royal = Paytable(tuple(l for l in rules.cover if l.key != "royal_flush"))
    with pytest.raises(RuleError, match="no royal flush line"):
        cover_progressive(no_royal, reset=1000, meter_rate=0.01)
    with pytest.raises(RuleError, match="meter rate"):
        cover_progressive(rules, reset=1000, meter_rate=1.5)
    with pytest.raises(RuleError, match="reset"):
        cover_progressive(rules, reset=-1, meter_rate=0.01)
    with pytest.raises(RuleError, match="no line 'jackpot'"):
        cover_progressive(rules, reset=1000, meter_rate=0.01, line="jackpot")
    # a named line works too
    p = cover_progressive(rules, reset=100, meter_rate=0.0, line="straight_flush")
    assert p.p_jackpot == 36 / DEALS_COVER


# ---------------------------------------------------------------- summary table

def test_sidebets_summary():
    frame = sidebets_summary()
    assert list(frame["bet"]) == ["Quickdraw", "Quickdraw", "Cover"]
    assert list(frame["in_rules"]) == [False, True, True]
    assert frame["rtp"].iloc[2] == pytest.approx(float(COVER_RTP))
    assert frame["wins"].iloc[2] == COVER_HITS


# ---------------------------------------------------------------- through the game engine

def test_side_bets_through_the_engine():
    """Seeded random rounds settled by the game engine (7 seats) agree with the exact figures.

    Per round: the mean Quickdraw result of the seven seats (they share the
    dealer's hand, so rounds, not seats, are the independent samples) and the
    Cover result.  Within 4 standard errors.
    """
    engine = pytest.importorskip("ricochet_math.engine.round")
    rules = load_rules()
    rng = np.random.default_rng(SEED_ENGINE)
    n_rounds = 4000
    qd, cv = np.empty(n_rounds), np.empty(n_rounds)
    for i in range(n_rounds):
        rnd = engine.Round(rules, 7, rng.permutation(52))
        qd[i] = np.mean(rnd.quickdraw)
        cv[i] = rnd.cover
    exact_qd = quickdraw(rules).rtp - 1.0  # net per unit staked
    exact_cv = cover(rules).rtp - 1.0
    assert abs(qd.mean() - exact_qd) < 4 * qd.std(ddof=1) / math.sqrt(n_rounds)
    assert abs(cv.mean() - exact_cv) < 4 * cv.std(ddof=1) / math.sqrt(n_rounds)
