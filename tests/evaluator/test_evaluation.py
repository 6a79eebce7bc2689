"""The hand evaluator (``ricochet_math.evaluator.evaluation``) and its tables.

Where each check's truth comes from:

* **Exhaustive counts** over all C(52,5) = 2,598,960 five-card hands: the
  standard category counts (40 straight flushes of which 4 royal, 624 quads,
  3,744 full houses, 5,108 flushes, 10,200 straights, 54,912 trips, 123,552
  two pair, 1,098,240 pairs, 1,302,540 high cards; 7,462 distinct hands) are
  textbook combinatorics (e.g. Wikipedia "Poker probability"); the sha256 of
  the value array pins the whole ordering against regressions.
* **Peer evaluators** (test-only dependencies): ``phevaluator`` (lower rank is
  better) and ``eval7`` (higher is better).  Our value -> peer rank must be a
  strictly monotone map on the 7,462 classes, and every hand (all five-card
  hands; seeded samples of six- and seven-card hands) must land on that map.
* **Readable twins**: ``reference_value`` / ``reference_partial_key`` are
  built on ``tables.classify``, the ranking rules written out; the kernels must
  agree with them exactly.
* **The rulebook** (``shared/seeds/000``): the example of play, "an Ace-8 is
  higher than Ace alone", the order-of-play suit tie-break; the kickout
  thresholds of ``shared/spec/ricochet-casino.md``.
* **Properties** (hypothesis): permutations, adding a card, name and pattern
  round trips.

Heavy versions (a million seven-card hands, every pattern round trip) are
marked ``slow``: ``pytest -m slow``.
"""
from __future__ import annotations

import hashlib
import itertools
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ricochet_math.evaluator.cards import format_cards, parse_card, parse_cards, random_deals
from ricochet_math.errors import CardError, PatternError
from ricochet_math.evaluator.evaluation import _evaluate_kernel, _evaluate_serial
from ricochet_math.evaluator.evaluation import (
    NUM_VALUES,
    ROYAL_FLUSH_VALUE,
    all_five_card_values,
    category_of,
    eval5,
    eval6,
    eval7,
    eval_cards,
    evaluate,
    hand_value,
    order_key,
    order_key_of,
    partial_key,
    partial_key_of,
    reference_partial_key,
    reference_value,
    value_counts_5,
)
from ricochet_math.evaluator.names import (
    bonus_category,
    category_name,
    describe,
    pattern_of,
    pattern_value,
    value_from_name,
)
from ricochet_math.evaluator.tables import (
    CATEGORY_NAMES,
    FLUSH_CAT,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    hand_classes,
)

N_FIVE = 2_598_960

# sha256 of all_five_card_values() as little-endian int16, lexicographic card
# order.  Regression pin: the ordering it encodes is proven right by the
# category counts and the peer agreement below; a change here means the
# enumeration order or the dense values changed.
FIVE_CARD_DIGEST = "915368d8101d00b07f992aa5df74de3677e75b25e89d7e8d087e24e1fad77ef2"

HYP = settings(deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow])


def v(text: str) -> int:
    return hand_value(text)


def pk(text: str) -> int:
    return partial_key_of(text)


# ------------------------------------------------------------------ peers
def _phevaluator_raw():
    """phevaluator's C entry points (ints in, rank out; ids are rank*4+suit, cdhs, like ours)."""
    try:
        from phevaluator import _pheval  # the C module: about 5x faster than the public wrappers

        return _pheval.evaluate_5cards, _pheval.evaluate_6cards, _pheval.evaluate_7cards
    except ImportError:  # pragma: no cover - a future phevaluator layout
        from phevaluator.evaluator import evaluate_5cards, evaluate_6cards, evaluate_7cards

        return evaluate_5cards, evaluate_6cards, evaluate_7cards


PH5, PH6, PH7 = _phevaluator_raw()
PH = {5: PH5, 6: PH6, 7: PH7}


def phevaluator_ranks(hands: np.ndarray) -> np.ndarray:
    f = PH[hands.shape[1]]
    return np.fromiter(itertools.starmap(f, hands.tolist()), dtype=np.int64, count=hands.shape[0])


def eval7_values(hands: np.ndarray) -> np.ndarray:
    import eval7 as e7

    deck = [e7.Card(format_cards([c])) for c in range(52)]
    return np.array([e7.evaluate([deck[c] for c in row]) for row in hands.tolist()], dtype=np.int64)


# ------------------------------------------------------------------ shared data
@pytest.fixture(scope="module")
def five_values() -> np.ndarray:
    return all_five_card_values()


@pytest.fixture(scope="module")
def five_hands() -> np.ndarray:
    """All 2,598,960 five-card hands, (n, 5) int8, in the same order as all_five_card_values."""
    flat = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(52), 5)), dtype=np.int8, count=5 * N_FIVE
    )
    return flat.reshape(N_FIVE, 5)


@pytest.fixture(scope="module")
def class_reps(five_values, five_hands) -> np.ndarray:
    """One five-card hand for each of the 7,462 values (row i has value i)."""
    vals, first = np.unique(five_values, return_index=True)
    assert vals.tolist() == list(range(NUM_VALUES))
    return five_hands[first]


@pytest.fixture(scope="module")
def peer_rank_of(class_reps) -> np.ndarray:
    """``int64[7462]``: phevaluator's rank of each of our values (checked monotone below)."""
    return phevaluator_ranks(class_reps)


def seeded_hands(seed: int, n: int, k: int) -> np.ndarray:
    return random_deals(np.random.default_rng(seed), n, k)


def flush_heavy_hands(seed: int, n: int, k: int) -> np.ndarray:
    """Hands from two suits only, so flushes and straight flushes are common."""
    rng = np.random.default_rng(seed)
    deck = np.array([c for c in range(52) if c & 3 in (1, 3)], dtype=np.int8)
    return random_deals(rng, n, k, dead=[c for c in range(52) if c not in deck.tolist()])


def paired_heavy_hands(seed: int, n: int, k: int) -> np.ndarray:
    """Hands from five ranks only (20 cards): quads, full houses, trips, two pair."""
    ranks = (0, 3, 8, 11, 12)
    live = [r * 4 + s for r in ranks for s in range(4)]
    return random_deals(np.random.default_rng(seed), n, k, dead=[c for c in range(52) if c not in live])


# ================================================================== five cards, exhaustively
def test_category_counts_over_all_five_card_hands(five_values):
    assert five_values.shape == (N_FIVE,)
    assert five_values.dtype == np.int16
    cats = np.asarray([category_of(x) for x in range(NUM_VALUES)])[five_values]
    counts = np.bincount(cats, minlength=9)
    expected = {
        STRAIGHT_FLUSH: 40,
        FOUR_OF_A_KIND: 624,
        FULL_HOUSE: 3_744,
        FLUSH_CAT: 5_108,
        STRAIGHT: 10_200,
        THREE_OF_A_KIND: 54_912,
        TWO_PAIR: 123_552,
        PAIR: 1_098_240,
        HIGH_CARD: 1_302_540,
    }
    assert {c: int(counts[c]) for c in expected} == expected
    assert int((five_values == ROYAL_FLUSH_VALUE).sum()) == 4
    assert ROYAL_FLUSH_VALUE == 7461
    assert np.unique(five_values).size == NUM_VALUES == 7462
    assert five_values.min() == 0 and five_values.max() == 7461


def test_five_card_digest_is_pinned(five_values):
    digest = hashlib.sha256(five_values.astype("<i2").tobytes()).hexdigest()
    assert digest == FIVE_CARD_DIGEST


def test_value_counts_5(five_values):
    counts = value_counts_5()
    assert counts.shape == (NUM_VALUES,) and counts.dtype == np.int64
    assert counts.sum() == N_FIVE
    assert np.array_equal(counts, np.bincount(five_values, minlength=NUM_VALUES))
    # textbook class sizes: a high-card rank set occurs 4^5 - 4 times, a flush 4 times
    assert counts[0] == 1020  # 7-5-4-3-2 offsuit
    assert counts[ROYAL_FLUSH_VALUE] == 4


def test_categories_are_contiguous_value_ranges():
    cats = np.asarray([category_of(x) for x in range(NUM_VALUES)])
    assert (np.diff(cats) >= 0).all()
    sizes = np.bincount(cats, minlength=9).tolist()
    # distinct classes per category: 1277 high card, 2860 pair, 858 two pair,
    # 858 trips, 10 straights, 1277 flushes, 156 full houses, 156 quads, 10 straight flushes
    assert sizes == [1277, 2860, 858, 858, 10, 1277, 156, 156, 10]
    assert [hc.category for hc in hand_classes()] == cats.tolist()


def test_batch_evaluate_matches_the_enumeration(five_values, five_hands):
    assert np.array_equal(evaluate(five_hands), five_values)
    assert np.array_equal(evaluate(five_hands, parallel=False), five_values)


# ================================================================== against peer evaluators
def test_peer_order_on_the_7462_classes(peer_rank_of, class_reps):
    # phevaluator: 1 = royal flush ... 7462 = 7-5-4-3-2; ours: the reverse.
    assert np.array_equal(peer_rank_of, NUM_VALUES - np.arange(NUM_VALUES))
    assert (np.diff(peer_rank_of) < 0).all()  # strictly monotone, which is what matters
    # eval7: higher is better, a different scale; must be strictly increasing in our value.
    e7 = eval7_values(class_reps)
    assert (np.diff(e7) > 0).all()


def test_peer_order_on_all_five_card_hands(five_values, peer_rank_of):
    # Every hand's peer rank is the one its value maps to: value -> peer rank is
    # a function, and (with the class check) a strictly monotone one.
    # (straight from itertools.combinations: the order of five_hands, about 1 s)
    peer = np.fromiter(itertools.starmap(PH5, itertools.combinations(range(52), 5)), dtype=np.int64, count=N_FIVE)
    assert np.array_equal(peer, peer_rank_of[five_values])


def _check_sample_against_peer(hands: np.ndarray, peer_rank_of: np.ndarray, with_eval7: int = 0):
    ours = evaluate(hands)
    assert np.array_equal(evaluate(hands, parallel=False), ours)
    peer = phevaluator_ranks(hands)
    bad = np.flatnonzero(peer != peer_rank_of[ours])
    assert bad.size == 0, [format_cards(h) for h in hands[bad[:5]]]
    if with_eval7:
        # a second oracle on a prefix: eval7's value must order hands as ours do
        sub = hands[:with_eval7]
        e7 = eval7_values(sub)
        o = ours[:with_eval7].astype(np.int64)
        order = np.argsort(o, kind="stable")
        assert (np.diff(e7[order]) >= 0).all()
        same = np.diff(o[order]) == 0
        assert np.array_equal(np.diff(e7[order]) == 0, same)


def test_seven_card_sample_agrees_with_peer(peer_rank_of):
    _check_sample_against_peer(seeded_hands(7, 20_000, 7), peer_rank_of, with_eval7=5_000)
    _check_sample_against_peer(flush_heavy_hands(71, 5_000, 7), peer_rank_of, with_eval7=2_000)
    _check_sample_against_peer(paired_heavy_hands(72, 5_000, 7), peer_rank_of, with_eval7=2_000)


def test_six_card_sample_agrees_with_peer(peer_rank_of):
    _check_sample_against_peer(seeded_hands(6, 10_000, 6), peer_rank_of, with_eval7=3_000)
    _check_sample_against_peer(flush_heavy_hands(61, 3_000, 6), peer_rank_of)
    _check_sample_against_peer(paired_heavy_hands(62, 3_000, 6), peer_rank_of)


@pytest.mark.slow
def test_seven_card_million_agrees_with_peer(peer_rank_of):
    for chunk in range(10):  # 10 x 100,000 = one million, in bounded memory
        _check_sample_against_peer(seeded_hands(1000 + chunk, 100_000, 7), peer_rank_of)
    _check_sample_against_peer(flush_heavy_hands(1100, 200_000, 7), peer_rank_of, with_eval7=50_000)
    _check_sample_against_peer(paired_heavy_hands(1101, 200_000, 7), peer_rank_of, with_eval7=50_000)


@pytest.mark.slow
def test_six_card_large_sample_agrees_with_peer(peer_rank_of):
    for chunk in range(4):
        _check_sample_against_peer(seeded_hands(2000 + chunk, 100_000, 6), peer_rank_of)
    _check_sample_against_peer(flush_heavy_hands(2100, 100_000, 6), peer_rank_of)


@pytest.mark.slow
def test_all_six_card_hands_from_a_small_deck_agree_with_peer(peer_rank_of):
    # Exhaustive on every 6-card hand of 24 cards (ranks 2,3,4,5,T,J,Q,A in three suits):
    # wheels, broadway, flushes, full houses, in all 134,596 combinations.
    live = [r * 4 + s for r in (0, 1, 2, 3, 8, 9, 10, 12) for s in (0, 2, 3)]
    hands = np.array(list(itertools.combinations(live, 6)), dtype=np.int8)
    _check_sample_against_peer(hands, peer_rank_of)


# ================================================================== fast kernels vs readable twins
@pytest.mark.parametrize("k", [5, 6, 7])
def test_kernels_agree_with_the_readable_twin(k):
    hands = np.concatenate([
        seeded_hands(100 + k, 600, k),
        flush_heavy_hands(200 + k, 300, k),
        paired_heavy_hands(300 + k, 300, k),
    ])
    ref = np.array([reference_value(h) for h in hands], dtype=np.int16)
    assert np.array_equal(evaluate(hands), ref)
    assert np.array_equal(evaluate(hands, parallel=False), ref)
    scalar = {5: eval5, 6: eval6, 7: eval7}[k]
    for h, r in zip(hands[:300].tolist(), ref[:300].tolist()):
        assert scalar(*h) == r
        assert eval_cards(np.array(h, dtype=np.int64)) == r
        assert hand_value(h) == r
        assert hand_value(format_cards(h)) == r


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.int64, np.intp])
def test_evaluate_accepts_any_integer_dtype(dtype):
    hands = np.concatenate([seeded_hands(5, 2000, 7), flush_heavy_hands(6, 500, 7)])
    ref = evaluate(hands)
    assert np.array_equal(evaluate(hands.astype(dtype)), ref)
    assert np.array_equal(evaluate(hands.astype(dtype), parallel=False), ref)
    assert np.array_equal(evaluate(hands[:, :5].astype(dtype)), evaluate(hands[:, :5]))
    # non-contiguous input and a single 1-D hand
    assert np.array_equal(evaluate(np.asfortranarray(hands.astype(dtype))), ref)
    assert evaluate(hands[0].astype(dtype)).tolist() == [ref[0]]


def test_evaluate_rejects_bad_input():
    with pytest.raises(CardError) as excinfo:
        evaluate(np.zeros((3, 4), dtype=np.int8))
    assert "(3, 4)" in str(excinfo.value)
    with pytest.raises(CardError):
        evaluate(np.array([[0, 1, 2, 3, 52]]))
    with pytest.raises(CardError):
        evaluate(np.array([[0, 1, 2, 3, -1]], dtype=np.int8))
    assert evaluate(np.zeros((0, 7), dtype=np.int8)).shape == (0,)
    assert eval_cards(np.arange(4, dtype=np.int64)) == -1
    with pytest.raises(CardError):
        hand_value("As Ks Qs Js")
    with pytest.raises(CardError):
        hand_value("As Ks Qs Js Ts 9s 8s 7s")
    with pytest.raises(CardError) as excinfo:
        hand_value("As Ks Qs Js As")
    assert "duplicate" in str(excinfo.value)
    with pytest.raises(CardError):
        hand_value([51, 50, 49, 48, 52])
    with pytest.raises(CardError):
        reference_value([1, 2, 3, 4])


def test_repeated_cards_never_read_outside_the_tables():
    # evaluate() refuses a row with a repeated card (CardError naming the row); the
    # unchecked kernels behind it give such rows an unspecified value, but must not
    # crash or read outside the tables.
    rng = np.random.default_rng(5)
    for k in (5, 6, 7):
        rows = np.concatenate([
            rng.integers(0, 52, (20_000, k)),
            np.full((1, k), 51), np.full((1, k), 48), np.full((1, k), 0),
            np.array([[51, 47, 51, 47, 51, 47, 51][:k]]),
        ]).astype(np.uint8)
        vals = np.empty(len(rows), dtype=np.int16)
        _evaluate_kernel(rows, vals)
        assert vals.min() >= -1 and vals.max() <= ROYAL_FLUSH_VALUE
        serial = np.empty_like(vals)
        _evaluate_serial(rows, serial)
        assert np.array_equal(serial, vals)
        with pytest.raises(CardError, match="row 0 of the hands repeats a card: 51 51 51 51 51"):
            evaluate(rows[20_000:])
        first = next(i for i, r in enumerate(rows) if len(set(r)) < k)
        with pytest.raises(CardError, match=f"row {first} of the hands repeats a card"):
            evaluate(rows)


def _all_partial_hands_by_class() -> list[list[int]]:
    """One hand per partial-key class: every rank multiset of 1..4 cards (suits
    don't matter below five cards) and every five-card class, flushes included."""
    hands = []
    for n in range(1, 5):
        for ranks in itertools.combinations_with_replacement(range(13), n):
            hands.append(_suited(ranks))
    for hc in hand_classes():
        ranks = [r for c, r in hc.groups for _ in range(c)]
        if hc.flush:
            hands.append([r * 4 + 2 for r in ranks])
        else:
            hands.append(_suited(tuple(ranks), avoid_flush=True))
    return hands


def _suited(ranks: tuple[int, ...], avoid_flush: bool = False) -> list[int]:
    """Cards with the given ranks: the j-th card of a rank gets suit j (no duplicates)."""
    seen: dict[int, int] = {}
    cards = []
    for r in ranks:
        s = seen.get(r, 0)
        seen[r] = s + 1
        cards.append(r * 4 + s)
    if avoid_flush and len(cards) == 5 and len({c & 3 for c in cards}) == 1:
        cards[-1] += 1
    return cards


def _assert_same_order(keys: list[int], tuples: list[tuple]):
    """sign(key_i - key_j) == sign(tuple_i vs tuple_j) for every pair i, j."""
    order = sorted(range(len(tuples)), key=lambda i: tuples[i])
    for a, b in zip(order, order[1:]):
        if tuples[a] == tuples[b]:
            assert keys[a] == keys[b], (tuples[a], keys[a], keys[b])
        else:
            assert keys[a] < keys[b], (tuples[a], tuples[b], keys[a], keys[b])


def test_partial_key_orders_every_class_like_the_twin():
    hands = _all_partial_hands_by_class()
    assert len(hands) == 13 + 91 + 455 + 1820 + NUM_VALUES
    keys = [partial_key(np.array(h, dtype=np.int64), len(h)) for h in hands]
    tuples = [reference_partial_key(h) for h in hands]
    _assert_same_order(keys, tuples)


def test_partial_key_orders_random_hands_like_the_twin():
    rng = np.random.default_rng(99)
    hands = []
    for n in range(1, 6):
        hands += [h.tolist() for h in random_deals(rng, 800, n)]
        hands += [h.tolist() for h in flush_heavy_hands(500 + n, 200, n)]
        hands += [h.tolist() for h in paired_heavy_hands(600 + n, 200, n)]
    keys = [partial_key(np.array(h, dtype=np.int8), len(h)) for h in hands]
    tuples = [reference_partial_key(h) for h in hands]
    _assert_same_order(keys, tuples)
    # the kernel only reads the first n cards
    padded = np.array([51, 50, 49, 48, 47, 46, 45], dtype=np.int64)
    assert partial_key(padded, 2) == partial_key(padded[:2], 2)


def test_partial_key_of_five_cards_is_monotone_in_the_value(class_reps):
    keys = np.array([partial_key(h.astype(np.int64), 5) for h in class_reps])
    assert (np.diff(keys) > 0).all()


# ================================================================== the rulebook
def test_example_of_play():
    # shared/seeds/000, "An Example of Play": starting hands K♦, J♣, 8♥, 7♠.
    start = {1: "K♦", 2: "J♣", 3: "8♥", 4: "7♠"}
    lowest = min(start, key=lambda p: pk(start[p]))
    assert lowest == 4  # "Player 4 is lowest with the 7♠"
    # He receives 2♥ (still lowest) then 9♣, "at which point ... no longer the lowest".
    assert pk("7♠ 2♥") < pk("8♥")
    assert pk("9♣ 7♠ 2♥") > pk("8♥")
    # Player 3 folds; Player 4 must beat J♣: 2♦ "gives him a pair".
    assert pk("9♣ 7♠ 2♥") < pk("J♣")
    assert pk("2♥ 2♦ 9♣ 7♠") > pk("K♦") > pk("J♣")
    # Player 2 buys 9♥ and Q♦: "not enough to beat the next-lowest hand, the K♦".
    assert pk("J♣ 9♥") < pk("K♦")
    assert pk("J♣ 9♥ Q♦") < pk("K♦")
    # Player 1 buys until she beats the pair of 2s: 5♥, 8♦ are not enough, 8♠ is.
    assert pk("K♦ 5♥") < pk("K♦ 5♥ 8♦") < pk("2♥ 2♦ 9♣ 7♠") < pk("8♠ 8♦ K♦ 5♥")


def test_kicker_rule_ace_eight_beats_ace_alone():
    # rulebook: "an Ace-8 is higher than Ace alone"
    assert pk("As 8d") > pk("Ac")
    assert pk("Ah 8c 2d") > pk("As 8d")
    # compare category first: any pair beats any high-card hand of any size
    assert pk("2c 2d") > pk("Ac Kd Qh Js 9c")
    # two-card aces are below five-card aces with kickers, below AAKQJ
    assert pk("As Ah") < pk("Ac Ad 2s")
    assert pk("As Ah") < pk("Ac Ad Ks Qh Jd")
    assert pk("As Ah") < v_key("Ac Ad Ks Qh Jd")
    # equal ranked cards: equal keys, whatever the suits
    assert pk("As 8d") == pk("Ac 8h")
    # straights and flushes exist only with five cards
    assert pk("5s 4h 3d 2c") < pk("6c 2d")
    assert pk("Ks Qs Js Ts") < pk("2c 2d")
    assert pk("Ks Qs Js Ts 9s") > pk("Ac Ad Ah As Kd")


def v_key(text: str) -> int:
    cards = parse_cards(text).astype(np.int64)
    return int(partial_key(cards, len(cards)))


def test_order_of_play_suit_tie_break():
    # casino rules: "For order of play only, ties are broken by the suit of the higher card."
    assert order_key_of("Kd 7s") < order_key_of("Kh 7c")  # Kd7s acts first
    assert order_key_of("7s Kd") == order_key_of("Kd 7s")
    # pairs: the higher of the two suits decides; hearts < spades
    assert order_key_of("8h 8c") < order_key_of("8d 8s")
    assert order_key_of("8c 8h") < order_key_of("8s 8d")
    # the suit never overrides the hand: a higher hand acts later whatever its suits
    assert order_key_of("Ks 7s") < order_key_of("Kc 8c") < order_key_of("2c 2d")
    assert order_key(parse_card("Kd"), parse_card("7s")) == order_key_of("Kd 7s")
    with pytest.raises(CardError):
        order_key_of("Kd 7s 2c")
    with pytest.raises(CardError):
        order_key_of("Kd Kd")


def test_order_key_is_a_total_order_on_disjoint_two_card_hands():
    hands = list(itertools.combinations(range(52), 2))
    ok = np.array([order_key(a, b) for a, b in hands])
    pkeys = np.array([partial_key(np.array(h, dtype=np.int64), 2) for h in hands])
    # refines the hand order: sorted by order key, the partial keys never go down
    assert (np.diff(pkeys[np.argsort(ok, kind="stable")]) >= 0).all()
    assert np.unique(pkeys).size == 13 + 78  # pairs and unpaired rank combinations
    # two hands that can be dealt together (no shared card) never tie
    by_key: dict[int, list[tuple[int, int]]] = {}
    for h, k in zip(hands, ok):
        by_key.setdefault(k, []).append(h)
    for group in by_key.values():
        for a, b in itertools.combinations(group, 2):
            assert set(a) & set(b), (format_cards(a), format_cards(b))


# ================================================================== patterns and names
SPEC_THRESHOLDS = {
    # shared/spec/ricochet-casino.md, "Kickout thresholds"
    "KKQ": "Kc Kd Qh 3s 2c",
    "AAQ": "Ac Ad Qh 3s 2c",
    "TTxx": "Tc Td 2h 2s 3c",
    "AAxx": "Ac Ad 2h 2s 3c",
    "222": "2c 2d 2h 3s 4c",
    "QQQ": "Qc Qd Qh 2s 3c",
    "A2345": "Ac 2d 3h 4s 5c",
}


@pytest.mark.parametrize("pattern, hand", sorted(SPEC_THRESHOLDS.items()))
def test_spec_thresholds(pattern, hand):
    assert pattern_value(pattern) == v(hand)
    assert pattern_value(pattern.lower()) == v(hand)


@pytest.mark.parametrize(
    "pattern, hand",
    [
        ("high card", "7c 5d 4h 3s 2c"),
        ("pair", "2c 2d 5h 4s 3c"),
        ("one pair", "2c 2d 5h 4s 3c"),
        ("two pair", "3c 3d 2h 2s 4c"),
        ("three of a kind", "2c 2d 2h 4s 3c"),
        ("trips", "2c 2d 2h 4s 3c"),
        ("straight", "Ac 2d 3h 4s 5c"),
        ("flush", "7c 5c 4c 3c 2c"),
        ("full house", "2c 2d 2h 3s 3c"),
        ("Four of a Kind", "2c 2d 2h 2s 3c"),
        ("quads", "2c 2d 2h 2s 3c"),
        ("straight flush", "Ac 2c 3c 4c 5c"),
        ("royal flush", "As Ks Qs Js Ts"),
        ("  Royal   Flush ", "As Ks Qs Js Ts"),
        ("99", "9c 9d 4h 3s 2c"),
        ("KKQ32", "Kc Kd Qh 3s 2c"),
        ("10 10 x x", "Tc Td 2h 2s 3c"),
        ("KKKx", "Kc Kd Kh 3s 2c"),
        ("KKKxx", "Kc Kd Kh 2s 2c"),  # x runs merge: a pair of anything
        ("KKK22", "Kc Kd Kh 2s 2c"),
        ("JJJJ", "Jc Jd Jh Js 2c"),
        ("9TJQK", "9c Td Jh Qs Kc"),
        ("AKQJ9", "Ac Kd Qh Js 9c"),
        ("Pair of Kings, Q-3-2", "Kc Kd Qh 3s 2c"),
    ],
)
def test_category_words_and_other_patterns(pattern, hand):
    assert pattern_value(pattern) == v(hand)


@pytest.mark.parametrize(
    "pattern, fragment",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("KKZ", "bad hand pattern"),
        ("KKQ3210", "bad hand pattern"),
        ("KKKKK", "more than four"),
        ("KQK", "two groups"),
        ("KQQ", "larger group first"),
        ("QQKK", "no five-card hand matches"),
        ("pair of jokers", "bad hand pattern"),
        ("flushes", "bad hand pattern"),
    ],
)
def test_bad_patterns_raise_one_line_pattern_errors(pattern, fragment):
    with pytest.raises(PatternError) as excinfo:
        pattern_value(pattern)
    msg = str(excinfo.value)
    assert "\n" not in msg
    assert fragment in msg
    if pattern.strip():
        assert repr(pattern) in msg


def test_pattern_value_rejects_non_strings():
    with pytest.raises(PatternError):
        pattern_value(None)
    with pytest.raises(PatternError):
        value_from_name("Pair of Jokers, 3-2")
    # a hand value is checked as evaluate checks cards: a CardError (issue 35), with the pattern errors' one line
    with pytest.raises(CardError, match="outside 0..7461"):
        describe(NUM_VALUES)
    with pytest.raises(CardError, match="outside 0..7461"):
        describe(-1)
    with pytest.raises(PatternError, match="hand pattern is text"):
        pattern_value(["KKQ"])  # a list: refused before the memo (unhashable)
    with pytest.raises(PatternError, match="hand name is text"):
        value_from_name(5)


@pytest.mark.parametrize("bad", [True, False, np.bool_(True), np.array([1, 2]), np.array(5), float("nan"), float("inf"),
                                 3.0, np.float64(4.0), "As Ks Qs Js Ts", "5", "", None, [1, 2, 3, 4, 5], b"x", {}, 1j])
@pytest.mark.parametrize("call", [describe, category_name, pattern_of, bonus_category])
def test_every_hand_value_entry_point_refuses_anything_but_a_hand_value(call, bad):
    """One check (names.check_hand_value) for every public function that takes a hand value: a CardError line."""
    with pytest.raises(CardError, match="hand value") as exc:
        call(bad)
    assert "\n" not in str(exc.value)
    assert call(np.int16(7461)) == call(7461)


@pytest.mark.parametrize("bad", [True, 3.0, 3.5, "5", None, -1, 10**30, {1: 2}, {1, 2}, np.array(5), np.zeros((2, 2), int)])
def test_card_entry_points_refuse_what_is_not_cards(bad):
    for call in (format_cards, lambda cards: parse_cards(cards, count=5), hand_value):
        with pytest.raises(CardError):
            call(bad)


@pytest.mark.parametrize(
    "hand, name",
    [
        ("Kc Kd Qh 3s 2c", "Pair of Kings, Q-3-2"),
        ("Ac 2d 3h 4s 5c", "Straight, five high"),
        ("As Ks Qs Js Ts", "Royal flush"),
        ("Ks Qs Js Ts 9s", "Straight flush, king high"),
        ("5h 4h 3h 2h Ah", "Straight flush, five high"),
        ("7c 5d 4h 3s 2c", "High card, 7-5-4-3-2"),
        ("Ac Jc 9c 4c 2c", "Flush, A-J-9-4-2"),
        ("Tc Td 2h 2s 3c", "Two pair, Tens and Twos, 3"),
        ("Qc Qd Qh 2s 3c", "Three Queens, 3-2"),
        ("6c 6d 6h Ks Kc", "Full house, Sixes full of Kings"),
        ("9c 9d 9h 9s Ac", "Four Nines, A"),
    ],
)
def test_describe_examples(hand, name):
    assert describe(v(hand)) == name
    assert value_from_name(name) == v(hand)
    assert value_from_name(name.upper()) == v(hand)


def test_category_names():
    assert category_name(ROYAL_FLUSH_VALUE) == "Royal flush"
    assert category_name(ROYAL_FLUSH_VALUE - 1) == "Straight flush"
    assert category_name(0) == "High card"
    assert bonus_category(ROYAL_FLUSH_VALUE) == 9
    assert bonus_category(ROYAL_FLUSH_VALUE - 1) == STRAIGHT_FLUSH
    assert [category_name(pattern_value(w)) for w in ("pair", "flush", "quads")] == [
        CATEGORY_NAMES[PAIR], CATEGORY_NAMES[FLUSH_CAT], CATEGORY_NAMES[FOUR_OF_A_KIND]
    ]


def test_every_name_round_trips():
    names = [describe(x) for x in range(NUM_VALUES)]
    assert len(set(names)) == NUM_VALUES
    assert all(value_from_name(n) == x for x, n in enumerate(names))
    # describe() names are accepted as patterns too
    for x in range(0, NUM_VALUES, 7):
        assert pattern_value(names[x]) == x


@pytest.mark.slow
def test_every_pattern_round_trips():
    for x in range(NUM_VALUES):
        p = pattern_of(x)
        if hand_classes()[x].flush:
            assert p == describe(x)
        assert pattern_value(p) == x, (x, p)


# ================================================================== properties (hypothesis)
def hands_of(sizes):
    return st.integers(min(sizes), max(sizes)).flatmap(
        lambda n: st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True)
    )


@HYP
@given(hands_of((5, 6, 7)).flatmap(lambda h: st.tuples(st.just(h), st.permutations(h))))
def test_permutations_keep_the_value(pair):
    hand, perm = pair
    a = evaluate(np.array(hand, dtype=np.int8))[0]
    assert evaluate(np.array(perm, dtype=np.int8))[0] == a
    assert eval_cards(np.array(perm, dtype=np.int64)) == a
    assert hand_value(perm) == a
    assert reference_value(perm) == a


@HYP
@given(hands_of((1, 2, 3, 4, 5)).flatmap(lambda h: st.tuples(st.just(h), st.permutations(h))))
def test_permutations_keep_the_partial_key(pair):
    hand, perm = pair
    assert partial_key_of(hand) == partial_key_of(perm)


@HYP
@given(hands_of((1, 2, 3, 4)), st.integers(0, 51))
def test_adding_a_card_never_lowers_the_partial_key(hand, extra):
    if extra in hand:
        extra = next(c for c in range(52) if c not in hand)
    before = partial_key_of(hand)
    after = partial_key_of(hand + [extra])
    assert after > before  # strictly: the new hand has the old one as a prefix or beats it
    assert reference_partial_key(hand + [extra]) > reference_partial_key(hand)


@HYP
@given(st.integers(0, NUM_VALUES - 1))
def test_pattern_of_round_trips(x):
    p = pattern_of(x)
    assert pattern_value(p) == x
    assert value_from_name(describe(x)) == x


@HYP
@given(st.text(alphabet="23456789TJQKAx", min_size=1, max_size=5))
def test_any_pattern_parses_or_fails_cleanly_and_round_trips(p):
    try:
        x = pattern_value(p)
    except PatternError as e:
        assert "\n" not in str(e)
        return
    # pattern -> value -> name -> value -> pattern -> value
    name = describe(x)
    y = value_from_name(name)
    assert y == x
    assert pattern_value(pattern_of(y)) == x
    assert pattern_value(name) == x


@HYP
@given(st.sampled_from(sorted(SPEC_THRESHOLDS)), st.sampled_from(["", " ", "  "]))
def test_thresholds_round_trip(p, pad):
    x = pattern_value(pad + p + pad)
    assert pattern_value(pattern_of(x)) == x
    assert pattern_value(describe(x)) == x


def test_royal_flush_count_and_describe_via_patterns():
    x = pattern_value("royal flush")
    assert x == ROYAL_FLUSH_VALUE and describe(x) == "Royal flush"
    assert math.comb(52, 5) == N_FIVE


# ================================================================== tables and their cache
def _same_tables(a, b):
    from ricochet_math.evaluator.tables import Tables

    for f in Tables.__dataclass_fields__:
        x, y = getattr(a, f), getattr(b, f)
        assert x.dtype == y.dtype and np.array_equal(x, y), f


def test_tables_shapes_and_sizes():
    from ricochet_math.evaluator.tables import load_tables, table_sizes

    t = load_tables()
    assert t.card_keys.shape == (52,) and t.card_bits.shape == (52,)
    assert t.flush.shape == (8192,) and t.category.shape == (NUM_VALUES,)
    sizes = table_sizes()
    assert sizes["total"] == t.nbytes() == sum(v for k, v in sizes.items() if k != "total")
    assert sizes["total"] < 512 * 1024  # "stay small": fits a typical L2 cache


def test_tables_cache_round_trip(tmp_path, monkeypatch):
    from ricochet_math.evaluator.tables import build_tables, load_tables

    monkeypatch.setenv("RICOCHET_CACHE_DIR", str(tmp_path))
    built = load_tables.__wrapped__()  # not cached yet: builds and writes
    files = sorted(p.name for p in tmp_path.iterdir())
    assert len(files) == 1 and files[0].startswith("tables-") and files[0].endswith(".npz")
    _same_tables(load_tables.__wrapped__(), built)  # now read back
    _same_tables(built, build_tables())
    _same_tables(built, load_tables())  # what the kernels were compiled with


def test_tables_survive_unwritable_and_corrupt_caches(tmp_path, monkeypatch):
    from ricochet_math.evaluator import tables

    reference = tables.build_tables()
    # A cache directory that cannot be created (its parent is a file; this holds even for root).
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    monkeypatch.setenv("RICOCHET_CACHE_DIR", str(blocker / "cache"))
    _same_tables(tables.load_tables.__wrapped__(), reference)
    # A truncated or garbage cache file is rebuilt over.
    for junk in (b"PK\x03\x04 truncated zip", b"not a zip at all", b""):
        monkeypatch.setenv("RICOCHET_CACHE_DIR", str(tmp_path / "c"))
        path = tables._cache_path()
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(junk)
        _same_tables(tables.load_tables.__wrapped__(), reference)
        _same_tables(tables.load_tables.__wrapped__(), reference)  # and the rewrite reads back
    assert not list((tmp_path / "c").glob("*.tmp.npz"))


def test_import_with_an_unwritable_cache_dir(tmp_path):
    import os
    import subprocess
    import sys

    blocker = tmp_path / "file"
    blocker.write_text("x")
    env = dict(os.environ, RICOCHET_CACHE_DIR=str(blocker / "cache"))
    code = "from ricochet_math.evaluator.evaluation import hand_value; print(hand_value('As Ks Qs Js Ts'))"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(ROYAL_FLUSH_VALUE)


def test_stale_kernel_caches_are_dropped_once(tmp_path, monkeypatch):
    # numba keys cached machine code by each kernel's own file only; the package
    # stamps every kernel source beside the caches and drops them all once on a change.
    import numba

    from ricochet_math import _numba

    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    src = tmp_path / "pkg"
    cache = src / "sub" / "__pycache__"
    cache.mkdir(parents=True)
    kernel = src / "sub" / "k.py"
    kernel.write_text("from ricochet_math._numba import njit\n")
    for name in ("k.f-1.py311.nbi", "k.f-1.py311.1.nbc", "keep.cpython-311.pyc"):
        (cache / name).write_text("x")
    assert _numba.drop_stale_caches(src)  # no stamp yet: drop
    assert sorted(p.name for p in cache.iterdir()) == ["keep.cpython-311.pyc"]
    assert (src / "__pycache__" / _numba.STAMP_NAME).is_file()
    (cache / "k.g-2.py311.nbi").write_text("x")
    assert not _numba.drop_stale_caches(src)  # same sources: keep
    assert (cache / "k.g-2.py311.nbi").exists()
    kernel.write_text("from ricochet_math._numba import njit\n# changed\n")
    assert _numba.drop_stale_caches(src)  # a kernel source changed: drop again
    assert not (cache / "k.g-2.py311.nbi").exists()
