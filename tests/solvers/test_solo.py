"""Solo exact analysis, the perfect-play kernel and advice.

Truth comes from: direct enumeration of a deal's 14,190 draws (solo_deal),
exact nested enumeration for the last two seats (nested.brute_one_later), and
counting identities (every deal x draw combination is accounted for once).
"""
from math import comb

import numpy as np
import pytest

from ricochet_math.solvers import nested
from ricochet_math.strategies import perfect as P
from ricochet_math.evaluator.classes import player_classes
from ricochet_math.solvers import solo, solo_kernel
from ricochet_math.solvers.advise import advise
from ricochet_math.rules.arrays import bonus_by_value as _bonus_by_value, options_array
from ricochet_math.rules.layout import Option
from ricochet_math.errors import CardError, TableStateError
from ricochet_math.evaluator.names import pattern_value
from ricochet_math.rules.ruleset import load_rules

RULES = load_rules()


def _rule_arrays(n):
    """Bonus by value (a writable copy), options (dealer value to be set) and kickout value for N = ``n``."""
    return _bonus_by_value(RULES).copy(), options_array(RULES, 0), RULES.kickout_value(n)


SAMPLE = [0, 60, 167]  # AA, a middle class, 32o


@pytest.fixture(scope="module")
def sample_analysis():
    return solo.solo_analysis(RULES, classes=SAMPLE)


def test_player_classes_cover_all_two_card_hands():
    reps, weights, labels = player_classes()
    assert len(labels) == 169 and weights.sum() == comb(52, 2)
    assert labels[0] == "AA" and labels[167] == "32o" and labels[-1] == "22"


def test_inclusion_exclusion_matches_direct_enumeration():
    """Per-deal counts from the class tables equal a direct walk over the 14,190 draws."""
    reps, _, _ = player_classes()
    lov, pays, names = solo_kernel.bonus_lines(RULES.bonus)
    rng = np.random.default_rng(20261129)
    for k in SAMPLE:
        p0, p1 = reps[k]
        levels = solo_kernel.build_levels(p0, p1, lov, len(names) - 1)
        deck = levels[0]
        for _ in range(8):
            pos = np.sort(rng.choice(50, 5, replace=False)).astype(np.int64)
            w, cnt, v = solo_kernel.deal_counts(p0, p1, pos, levels, lov, len(names) - 1)
            d = solo.solo_deal(RULES, [p0, p1], deck[pos])
            assert cnt.sum() == solo_kernel.N_DRAWS
            assert float((cnt * pays).sum()) / solo_kernel.N_DRAWS == pytest.approx(d.expected_bonus, abs=1e-12)
            if not d.kicked_out:
                assert w / solo_kernel.N_DRAWS == pytest.approx(d.p_win, abs=1e-12)


@pytest.mark.parametrize("label, ties", [("AA", True), ("AKs", True), ("72o", True), ("T9s", False)])
def test_suit_symmetry_matches_every_dealer_hand(label, ties):
    """The kernel visits one dealer hand per class of suit permutations fixing the player's cards
    (a pair, a suited and an offsuit class); every count equals the walk over all 2,118,760 hands."""
    reps, _, labels = player_classes()
    p0, p1 = reps[labels.index(label)]
    lov, pays, names = solo_kernel.bonus_lines(RULES.bonus)
    n_lines = len(names) - 1
    line_lo = np.zeros(n_lines + 1, dtype=np.int64)
    for ln in range(1, n_lines + 1):
        line_lo[ln] = int(np.flatnonzero(lov == ln).min())
    ncol = solo_kernel.count_columns(n_lines)[-1]
    out = np.empty((2, 7462, ncol), dtype=np.int64)
    for k, sym in enumerate((True, False)):
        solo_kernel._solo_class(p0, p1, lov, line_lo, pays, n_lines, ties, True, out[k], sym)
    assert out[1, :, :2].sum() == solo_kernel.N_DEALER
    assert np.array_equal(out[0], out[1])


def test_sample_analysis_accounts_for_every_combination(sample_analysis):
    a = sample_analysis
    _, weights, _ = player_classes()
    table = a.return_table()
    expected = int(weights[SAMPLE].sum()) * solo_kernel.N_DEALER * solo_kernel.N_DRAWS
    assert int(table["combinations"].sum()) == expected
    assert table["probability"].sum() == pytest.approx(1.0, abs=1e-12)


def test_sample_decisions_agree_with_direct_enumeration(sample_analysis):
    """AA never folds; 32o folds 40.54% of the deals where the dealer is in (exhaustive
    count over its 2,118,760 dealer hands, pinned), and its decision on sampled deals
    agrees with direct enumeration of the draws."""
    chart = sample_analysis.strategy_chart().set_index("hand")
    assert chart.loc["AA", "fold_frequency_dealer_in"] == 0.0
    assert chart.loc["32o", "fold_frequency_dealer_in"] == pytest.approx(0.4054211583, abs=1e-9)
    top = int(chart.loc["32o", "plays_up_to_value"])
    d = solo.solo_deal(RULES, "3c 2d", "Kh Kd 8s 5h 4c")  # pair of kings: above anything 32o plays into
    assert top < pattern_value("KK") and d.decision == "fold"


def test_strategy_grid_and_heatmap(sample_analysis):
    """The chart on the 13 x 13 grid: pairs on the diagonal, suited above, offsuit below; the heatmap
    draws that grid."""
    import matplotlib

    matplotlib.use("Agg")
    chart = sample_analysis.strategy_chart().set_index("hand")
    grid = sample_analysis.strategy_grid()
    assert grid.shape == (13, 13) and list(grid.index) == list("AKQJT98765432")
    assert grid.loc["A", "A"] == chart.loc["AA", "plays_up_to_value"]
    assert grid.loc["2", "3"] == chart.loc["32o", "plays_up_to_value"]  # offsuit: below the diagonal
    assert int(grid.notna().to_numpy().sum()) == int((chart["plays_up_to_value"] >= 0).sum())
    folds = sample_analysis.strategy_grid("fold_frequency_dealer_in")
    assert folds.loc["A", "A"] == 0.0
    ax = sample_analysis.plot_strategy("fold_frequency_dealer_in")
    assert ax.images[0].get_array().shape == (13, 13)


def test_solo_deal_examples():
    d = solo.solo_deal(RULES, "7s 7h", "Ks Kd 7c 4h 2s")
    # 3,432 of the 14,190 draws reach the kings; 3 x 0.2419 + E[bonus] 0.0698 - 2 < -1: fold
    assert not d.kicked_out and d.decision == "fold"
    assert d.p_win == pytest.approx(3432 / 14190, abs=1e-15)
    assert d.ev_play == pytest.approx(3 * 3432 / 14190 + d.expected_bonus - 2, abs=1e-12)
    assert d.ev_fold == -1.0
    k = solo.solo_deal(RULES, "2c 3d", "As Ad Ac 4h 2s")  # trips: above KKQ, kicked out
    assert k.kicked_out and k.ev_play > 1.0


def test_threshold_curve_is_monotone(sample_analysis):
    """A higher kickout threshold keeps the dealer in more often: RTP falls."""
    curve = sample_analysis.threshold_curve(["99", "KKQ", "AAxx", "A2345"])
    assert np.all(np.diff(curve["rtp_per_initial_bet"].to_numpy()) < 0)
    assert np.all(np.diff(curve["kickout_rate"].to_numpy()) < 0)


@pytest.mark.slow
def test_full_solo_analysis_pinned():
    """Exhaustive solo figures for publisher.toml (about 10 s on 2 cores, cold cache)."""
    a = solo.solo_analysis(RULES)
    s = a.at_threshold()
    assert int(a.return_table()["combinations"].sum()) == solo_kernel.N_DEALS * solo_kernel.N_DRAWS
    assert s["rtp_per_initial_bet"] == pytest.approx(0.9694752031, abs=1e-9)
    assert s["fold_frequency"] == pytest.approx(0.2140712, abs=1e-6)


# ---------------------------------------------------------------- perfect kernel
def _state(rng, n):
    cards = rng.permutation(52)
    hole = cards[:2 * n].reshape(n, 2).astype(np.int64)
    dealer = cards[2 * n:2 * n + 5]
    from ricochet_math.evaluator.evaluation import eval_cards, order_key
    dv = int(eval_cards(dealer.astype(np.int64)))
    order = np.argsort([order_key(int(a), int(b)) for a, b in hole]).astype(np.int64)
    deck = np.ones(52, dtype=np.uint8)
    deck[cards[:2 * n + 5]] = 0
    return deck, hole, order, dv


def test_perfect_solo_matches_direct_enumeration():
    """With one player there is no look-ahead: the kernel's EV is exact."""
    bonus_by_value, opts, threshold = _rule_arrays(1)
    rng = np.random.default_rng(11)
    for _ in range(10):
        deck, hole, order, dv = _state(rng, 1)
        opts[Option.dealer_value] = dv
        kicked = dv >= threshold
        ev, _, pw, b, play = P.seat_values(P.readings("perfect"), deck, hole, order, 0, -1 if kicked else dv, not kicked, 0, 2,
                                           kicked, bonus_by_value, opts)
        d = solo.solo_deal(RULES, hole[0], [c for c in range(52) if not deck[c] and c not in hole[0]])
        assert ev == pytest.approx(d.ev_play, abs=1e-12)
        assert play == (d.decision in ("play", "automatic win"))


def test_look_ahead_close_to_exact_nested_enumeration():
    """N = 2, first seat: the documented look-ahead approximation stays within 0.05 ante of exact."""
    bonus_by_value, opts, threshold = _rule_arrays(2)
    rng = np.random.default_rng(5)
    deck, hole, order, dv = _state(rng, 2)
    opts[Option.dealer_value] = dv
    kicked = dv >= threshold
    best, din = (-1, False) if kicked else (dv, True)
    ev_a = P.seat_values(P.readings("perfect"), deck, hole, order, 0, best, din, 0, 3, kicked, bonus_by_value, opts)[0]
    ev_x, _ = nested.brute_one_later(deck, hole, order, 0, best, din, 0, 3, bonus_by_value, opts)
    assert abs(ev_a - ev_x) < 0.05


def test_last_seat_is_exact():
    """The last seat has nothing to look ahead to: kernel EV == exact enumeration of its draws."""
    bonus_by_value, opts, threshold = _rule_arrays(3)
    rng = np.random.default_rng(3)
    deck, hole, order, dv = _state(rng, 3)
    opts[Option.dealer_value] = dv
    ev, _, pw, b, play = P.seat_values(P.readings("perfect"), deck, hole, order, 2, dv, True, 0, 4, False, bonus_by_value, opts)
    # direct: the last seat wins pot 5 when it reaches the dealer
    from itertools import combinations
    from ricochet_math.evaluator.evaluation import evaluate
    rest = np.flatnonzero(deck)
    s = order[2]
    tri = np.array(list(combinations(rest, 3)))
    vals = evaluate(np.concatenate([np.broadcast_to(hole[s], (len(tri), 2)), tri], axis=1))
    direct = (5.0 * (vals >= dv) + bonus_by_value[vals]).mean() - 2.0
    assert ev == pytest.approx(direct, abs=1e-12)


def test_readings_all_run():
    bonus_by_value, opts, threshold = _rule_arrays(4)
    rng = np.random.default_rng(8)
    deck, hole, order, dv = _state(rng, 4)
    opts[Option.dealer_value] = dv
    for name in P.READING_NAMES:
        out = P.seat_values(P.readings(name), deck, hole, order, 0, dv, True, 0, 5, False, bonus_by_value, opts)
        assert out[1] == -1.0 and 0.0 <= out[2] <= 1.0
    out = P.seat_values(P.readings("perfect-vs-pot-odds-now"), deck, hole, order, 0, dv, True, 0, 5,
                        False, bonus_by_value, opts)
    assert 0.0 <= out[2] <= 1.0


# ---------------------------------------------------------------- advise
def test_advise_example():
    a = advise(RULES, dealer="Ks Kd 7c 4h 2s", players=["Ad 9c", "7s 7h"])
    assert a.seat == 0 and a.position == 0 and a.pot == 3
    assert a.decision == "fold" and a.ev_fold == -1.0
    b = advise(RULES, dealer="Ks Kd 7c 4h 2s", players=["Ad 9c", "7s 7h"], actions=["fold", None])
    assert b.seat == 1 and b.decision == "play"


def test_advise_after_a_play_faces_the_player():
    a = advise(RULES, dealer="Ks Kd 7c 4h 2s", players=["Ad 9c", "7s 7h"], actions=["Ah As 3d", None])
    assert "Three Aces" in a.to_beat and a.pot == 4


@pytest.mark.parametrize("kwargs, message", [
    (dict(dealer="Ks Kd 7c 4h 2s", players=["Ks 9c"]), "duplicate card Ks"),
    (dict(dealer="Ks Kd 7c 4h", players=["Ad 9c"]), "expected 5 cards"),
    (dict(dealer="Ks Kd 7c 4h 2s", players=["Ad 9c", "7s 7h"], actions=[None, "fold"]), "acts first"),
    (dict(dealer="Ks Kd 7c 4h 2s", players=["Ad 9c", "7s 7h"], actions=["fold", "fold"]), "no decision left"),
    (dict(dealer="Ks Kd 7c 4h 2s", players=["Ad 9c"] * 0 + [f"{r}c {r}d" for r in "23456789"]), "1 to 7 players"),
])
def test_advise_bad_input(kwargs, message):
    with pytest.raises((CardError, TableStateError), match=message):
        advise(RULES, **kwargs)


def test_decision_shortcuts_agree_with_full_values():
    """perfect_decision's shortcuts (the exact fold bound, the cheap readings) never
    change a decision: compare with seat_values on random tables, every reading."""
    rng = np.random.default_rng(4)
    for n in (2, 3, 5, 7):
        bonus_by_value, opts, threshold = _rule_arrays(n)
        for _ in range(12):
            deck, hole, order, dv = _state(rng, n)
            opts[Option.dealer_value] = dv
            kicked = dv >= threshold
            best, din = (-1, False) if kicked else (dv, True)
            for name in P.READING_NAMES:
                rd = P.readings(name)
                fast = P.perfect_decision(rd, deck, hole, order, 0, best, din, 0, n + 1, kicked,
                                          bonus_by_value, opts)
                full = P.seat_values(rd, deck, hole, order, 0, best, din, 0, n + 1, kicked,
                                     bonus_by_value, opts)[4]
                assert fast == full, (n, name)


def test_exhaustive_solo_totals_match_monte_carlo_with_the_same_decisions():
    """Exact solo figures (all 2,809,475,760 deals, publisher.toml: RTP 96.947520%, fold
    21.40712%) against the fast engine playing the same perfect decisions (seed 20261130,
    40,000 rounds): within 4 standard errors."""
    from ricochet_math.solvers.montecarlo import simulate
    r = simulate(RULES, players=1, strategy="perfect", rounds=40_000, seed=20261130, progress=False)
    s = r.summary()
    for key, exact in (("rtp_initial", 0.9694752031), ("fold_frequency", 0.2140712116)):
        est = s[key]
        assert abs(est.estimate - exact) < 4 * est.std_error, (key, est, exact)


def test_draw_histogram_matches_batch_evaluation():
    """The solvers' incremental histogram of hole + 3 drawn cards equals evaluating every draw."""
    from itertools import combinations
    from ricochet_math.evaluator.evaluation import draw_histogram, evaluate
    rng = np.random.default_rng(12)
    for size in (3, 20, 45):
        cards = rng.permutation(52)
        hole, rest = cards[:2], np.sort(cards[2:2 + size]).astype(np.int64)
        h = np.zeros(7462)
        n = draw_histogram(int(hole[0]), int(hole[1]), rest, h)
        tri = np.array(list(combinations(rest, 3)))
        v = evaluate(np.concatenate([np.broadcast_to(hole, (len(tri), 2)), tri], axis=1))
        assert n == len(tri) and np.array_equal(h, np.bincount(v, minlength=7462).astype(float))
