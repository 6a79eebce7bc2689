"""The fast engine against the reference engine: identical records on random rounds.

Truth: ricochet_math.engine.round (the readable rules, pinned by tests/engine/test_engine.py).
Every built-in strategy, N = 1..7, each rule option: the numba kernel must give
exactly the same record, number for number.  The default run uses a fixed
sample (300 rounds per N for each table-free strategy, fewer for the solver
readings, which cost milliseconds per decision); ``-m slow`` runs over 100,000
rounds.  Also: the in-kernel dealing against its pure-Python twin, and the
kernel's running sums against sums taken from the per-round records.
"""
from __future__ import annotations

import numpy as np
import pytest

from ricochet_math.engine.round import play_round
from ricochet_math.errors import CardError, RuleError
from ricochet_math.engine.shuffle import xoshiro_decks
from ricochet_math.engine.kernel import (
    N_ROUND_FIELDS, N_SEAT_FIELDS, ROUND_FIELDS, SEAT_FIELDS, STATUS_CODES, Status, play_decks, prepare, run_chunk,
)
from ricochet_math.engine.sums import RoundSum, SeatSum
from ricochet_math.evaluator.evaluation import category_of
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.evaluator.tables import ROYAL_FLUSH_VALUE

RULES = load_rules()
SIMPLE = ("always", "never", "pair", "beats:A9", "timid", "chaser", "dealer-only", "bonus-hunter")
SOLVER = ("perfect", "perfect-no-bonus", "myopic", "myopic-no-bonus", "pot-odds-now", "pot-odds-now-no-bonus",
          "pot-odds-final", "pot-odds-final-no-bonus", "perfect-vs-pot-odds-final")
VARIANTS = {
    "fractional split": RULES.with_options(split="fractional"),
    "dealer wins ties": RULES.with_options(dealer_loses_ties=False),
    "no automatic win": RULES.with_options(automatic_win=False),
    "no bonus on automatic win": RULES.with_options(bonus_on_automatic_win=False),
    "kicker Quickdraw": RULES.with_quickdraw(comparison="kicker"),
    "low kickouts": RULES.with_kickout(1, "99").with_kickout(3, "JJ").with_kickout(5, "22"),
}


def decks_for(seed: int, rounds: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.array([rng.permutation(52) for _ in range(rounds)], dtype=np.int64)


def assert_same(rules, strategies, n, decks):
    """Fast records == reference records, every field, every round."""
    fast = play_decks(rules, decks, strategies, players=n)
    for r, deck in enumerate(decks):
        ref = play_round(rules, strategies, players=n, deck=deck)
        where = f"round {r} (N={n}, {strategies}, rules {rules.name}): deck {deck[:5 * n + 5].tolist()}"
        assert fast.dealer_value[r] == ref.dealer_value, where
        assert bool(fast.kicked[r]) == ref.kicked, where
        assert tuple(fast.order[r]) == ref.order, where
        assert fast.pot[r] == ref.pot, where
        assert bool(fast.house_takes_pot[r]) == ref.house_takes_pot, where
        assert fast.house_net[r] == ref.house_net, where
        assert fast.cover[r] == ref.cover, where
        assert fast.n_winners[r] == len(ref.winners), where
        for s in ref.seats:
            got = (STATUS_CODES[fast.status[r, s.seat]], fast.wagered[r, s.seat], fast.pot_share[r, s.seat],
                   fast.bonus[r, s.seat], fast.net[r, s.seat], fast.final_value[r, s.seat],
                   fast.quickdraw[r, s.seat], fast.position[r, s.seat])
            want = (s.status, s.wagered, s.pot_share, s.bonus, s.net, s.final_value, s.quickdraw, s.position)
            assert got == want, f"{where}, seat {s.seat}"
    return fast


@pytest.mark.parametrize("strategy", SIMPLE)
@pytest.mark.parametrize("n", range(1, 8))
def test_fast_equals_reference(strategy, n):
    assert_same(RULES, strategy, n, decks_for(1000 * n + SIMPLE.index(strategy), 300))


@pytest.mark.parametrize("strategy", SOLVER)
def test_fast_equals_reference_solver_readings(strategy):
    for n in range(1, 8):
        assert_same(RULES, strategy, n, decks_for(77 * n + SOLVER.index(strategy), 12 if n <= 4 else 5))


@pytest.mark.parametrize("variant", VARIANTS)
def test_fast_equals_reference_rule_options(variant):
    rules = VARIANTS[variant]
    for n in range(1, 8):
        for strategy in ("always", "pair", "chaser", "never"):
            assert_same(rules, strategy, n, decks_for(n * 31 + len(variant), 40))


def test_fast_equals_reference_mixed_tables():
    rng = np.random.default_rng(8)
    for n in range(2, 8):
        for _ in range(4):
            seats = [str(x) for x in rng.choice(SIMPLE, n)]
            assert_same(RULES, seats, n, decks_for(int(rng.integers(1 << 30)), 60))
    assert_same(RULES, ["perfect", "always", "pair"], 3, decks_for(4, 10))


def tie_decks(seed: int, rounds: int, n: int) -> np.ndarray:
    """Decks where the first two seats and their draws hold the same ranks in other suits.

    With every seat playing, the two seats that draw first and second (whoever
    they are) get the same five ranks: ties between players, splits and odd
    units happen often instead of once in thousands of rounds.
    """
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < rounds:
        ranks = rng.choice(13, 5, replace=True)
        if np.bincount(ranks).max() > 2:
            continue
        hands = [[4 * r + (i + 2 * k) % 4 for k, r in enumerate(ranks)] for i in (0, 1)]
        used = set(hands[0]) | set(hands[1])
        if len(used) < 10:
            continue
        rest = [c for c in rng.permutation(52).tolist() if c not in used]
        # seats 0 and 1 get the hole cards; the dealer and other seats random; both draw groups mirrored
        deck = hands[0][:2] + hands[1][:2] + rest[: 2 * (n - 2) + 5] + hands[0][2:] + hands[1][2:]
        deck += [c for c in rest if c not in deck]
        out.append(deck)
    return np.array(out, dtype=np.int64)


@pytest.mark.parametrize("variant", ["default", "fractional split", "dealer wins ties"])
def test_fast_equals_reference_on_ties(variant):
    rules = RULES if variant == "default" else VARIANTS[variant]
    splits = 0
    for n in (2, 3, 4, 7):
        # the two mirrored seats act first only if their hands are the lowest: give the
        # others 'never' and kick the dealer out often, so ties reach the award
        strategies = ["always", "always"] + ["never"] * (n - 2)
        fast = assert_same(rules.with_kickout(n, "22"), strategies, n, tie_decks(n, 150, n))
        splits += int((fast.n_winners > 1).sum())
    assert splits > 50
@pytest.mark.slow
@pytest.mark.parametrize("strategy", SIMPLE)
def test_fast_equals_reference_100k(strategy):
    """Over 100,000 rounds in all: 1,800 per N for each table-free strategy (slow)."""
    for n in range(1, 8):
        assert_same(RULES, strategy, n, decks_for(500_000 + 1000 * n + SIMPLE.index(strategy), 1_800))


@pytest.mark.slow
@pytest.mark.parametrize("strategy", SOLVER)
def test_fast_equals_reference_solver_readings_slow(strategy):
    for n in range(1, 8):
        assert_same(RULES, strategy, n, decks_for(900_000 + 77 * n + SOLVER.index(strategy), 150))


# ---------------------------------------------------------------- conservation

@pytest.mark.parametrize("strategy", SIMPLE)
def test_conservation_every_round(strategy):
    for n in range(1, 8):
        fast = play_decks(RULES, decks_for(n, 2000), strategy, players=n)
        assert np.array_equal(fast.net.sum(axis=1) + fast.house_net, np.zeros(len(fast)))
    frac = play_decks(RULES.with_options(split="fractional"), decks_for(9, 3000), "always", players=7)
    assert np.abs(frac.net.sum(axis=1) + frac.house_net).max() < 1e-12


# ---------------------------------------------------------------- dealing

def test_kernel_dealing_matches_its_python_twin():
    for n in (1, 4, 7):
        ss = np.random.SeedSequence(123 + n)
        py = xoshiro_decks(ss, 200, n)
        nb = xoshiro_decks(ss, 200, n, use_kernel=True)
        assert np.array_equal(py, nb)
        _, kept = run_chunk(prepare(RULES, n, "always"), ss, 200, keep_decks=True)
        assert np.array_equal(kept, nb)
        for row in nb:
            assert sorted(row.tolist()) == list(range(52))


def test_dealing_is_uniform_enough():
    """Each card is equally likely at each dealt position (chi-square, 52 cells, 20,000 decks)."""
    decks = xoshiro_decks(np.random.SeedSequence(7), 20_000, 7, use_kernel=True)
    for pos in (0, 13, 39):
        counts = np.bincount(decks[:, pos], minlength=52)
        expected = len(decks) / 52
        chi2 = ((counts - expected) ** 2 / expected).sum()
        assert chi2 < 110  # 51 degrees of freedom: P(chi2 > 110) < 1e-5


def test_deals_do_not_depend_on_strategies():
    ss = np.random.SeedSequence(5)
    _, a = run_chunk(prepare(RULES, 4, "always"), ss, 300, keep_decks=True)
    _, b = run_chunk(prepare(RULES.with_kickout(4, "22"), 4, "never"), ss, 300, keep_decks=True)
    assert np.array_equal(a, b)


# ---------------------------------------------------------------- running sums

def expected_sums(fast, n):
    """The kernel's sums recomputed with numpy from the per-round records."""
    rounds = len(fast)
    ret = fast.pot_share + fast.bonus
    net = ret - fast.wagered
    seat = np.zeros((rounds, n, N_SEAT_FIELDS))
    seat[..., SeatSum.wagered] = fast.wagered
    seat[..., SeatSum.returned] = ret
    seat[..., SeatSum.net] = net
    seat[..., SeatSum.net_sq] = net * net
    seat[..., SeatSum.pot_share] = fast.pot_share
    seat[..., SeatSum.bonus] = fast.bonus
    seat[..., SeatSum.returned_sq] = ret * ret
    seat[..., SeatSum.wagered_sq] = fast.wagered ** 2
    seat[..., SeatSum.returned_wagered] = ret * fast.wagered
    seat[..., SeatSum.quickdraw] = fast.quickdraw
    seat[..., SeatSum.quickdraw_win] = fast.quickdraw > 0
    seat[..., SeatSum.fold] = fast.status == Status.folded
    seat[..., SeatSum.play] = (fast.status != Status.folded) & (fast.status != Status.auto_win)
    seat[..., SeatSum.win] = (fast.status == Status.won) | (fast.status == Status.auto_win)
    seat[..., SeatSum.auto_win] = fast.status == Status.auto_win
    seat[..., SeatSum.beaten] = (fast.status != Status.folded) & (fast.status != Status.auto_win) & (fast.status != Status.won)
    seat[..., SeatSum.split_win] = (fast.status == Status.won) & (fast.n_winners[:, None] > 1)
    seat[..., SeatSum.hit] = net > 0
    seat[..., SeatSum.bonus_hit] = fast.bonus > 0
    has = fast.final_value >= 0
    cat = np.where(has, np.array([category_of(v) if v >= 0 else -1 for v in fast.final_value.ravel()]).reshape(
        fast.final_value.shape), -1)
    cat = np.where(fast.final_value == ROYAL_FLUSH_VALUE, 9, cat)
    for c in range(10):
        seat[..., SeatSum.hand_0 + c] = cat == c
        seat[..., SeatSum.bonus_0 + c] = (cat == c) & (fast.bonus > 0)
    by_position = np.zeros_like(seat)
    for r in range(rounds):
        by_position[r, fast.position[r]] = seat[r]
    total = seat.sum(axis=1)
    rnd = np.zeros(N_ROUND_FIELDS)
    rnd[RoundSum.rounds] = rounds
    rnd[RoundSum.kicked] = fast.kicked.sum()
    rnd[RoundSum.pot] = fast.pot.sum()
    rnd[RoundSum.pot_sq] = (fast.pot.astype(float) ** 2).sum()
    rnd[RoundSum.house_takes_pot] = fast.house_takes_pot.sum()
    rnd[RoundSum.house_net] = fast.house_net.sum()
    rnd[RoundSum.house_net_sq] = (fast.house_net ** 2).sum()
    rnd[RoundSum.auto_win] = (fast.status == Status.auto_win).any(axis=1).sum()
    rnd[RoundSum.all_fold] = (fast.status == Status.folded).all(axis=1).sum()
    rnd[RoundSum.split] = (fast.n_winners > 1).sum()
    rnd[RoundSum.cover] = fast.cover.sum()
    rnd[RoundSum.cover_sq] = (fast.cover ** 2).sum()
    rnd[RoundSum.cover_win] = (fast.cover > 0).sum()
    rnd[RoundSum.total_returned_wagered] = (total[:, SeatSum.returned] * total[:, SeatSum.wagered]).sum()
    return seat.sum(axis=0), by_position.sum(axis=0), total.sum(axis=0), (total ** 2).sum(axis=0), rnd


@pytest.mark.parametrize("strategy,n", [("always", 1), ("pair", 3), ("chaser", 7), ("bonus-hunter", 5)])
def test_kernel_sums_match_the_records(strategy, n):
    rules = RULES.with_kickout(n, "99")  # plenty of automatic wins and splits
    ss = np.random.SeedSequence(42)
    sums, decks = run_chunk(prepare(rules, n, strategy), ss, 3000, keep_decks=True)
    fast = play_decks(rules, decks, strategy, players=n)
    seat, pos, total, total_sq, rnd = expected_sums(fast, n)
    np.testing.assert_allclose(sums.seat, seat, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(sums.position, pos, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(sums.total, total, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(sums.total_sq, total_sq, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(sums.round, rnd, rtol=1e-12, atol=1e-9)
    np.testing.assert_array_equal(fast.sums.round, sums.round)


# ---------------------------------------------------------------- bad input

def test_bad_decks():
    with pytest.raises(CardError, match="needs at least 15 cards"):
        play_decks(RULES, np.zeros((2, 10), dtype=np.int64), "always", players=2)
    with pytest.raises(CardError, match="holds a card twice"):
        play_decks(RULES, np.zeros((2, 52), dtype=np.int64), "always", players=2)
    with pytest.raises(CardError, match="0..51"):
        play_decks(RULES, np.full((1, 52), 60), "always", players=2)
    with pytest.raises(RuleError, match="number of players"):
        play_decks(RULES, decks_for(1, 2), "always", players=8)
    with pytest.raises(RuleError, match="give the number of players"):
        play_decks(RULES, decks_for(1, 2), "always")


def test_sum_layouts_follow_the_field_names():
    """The kernel's column indices are generated from the one tuple of names each."""
    assert [f.name for f in SeatSum] == list(SEAT_FIELDS) and len(SeatSum) == N_SEAT_FIELDS
    assert [f.name for f in RoundSum] == list(ROUND_FIELDS) and len(RoundSum) == N_ROUND_FIELDS
    assert [STATUS_CODES[s] for s in Status] == ["folded", "played", "beaten", "won", "auto-win"]
