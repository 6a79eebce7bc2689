"""Hands with jokers (``ricochet_math.evaluator.jokers``) and joker text (``evaluator.cards``).

Where each check's truth comes from:

* **The rulebook** (``shared/seeds/000``: "use them as bugs, which can only be Aces,
  or to complete a straight or flush"): the hand-picked cases below.
* **The readable twin** ``reference_joker_key``: every joker tried as every card the
  rule allows, every five-card subset classified by ``tables.classify``; the kernel
  must agree with it exactly on every hand of up to three cards and on seeded
  samples of four to seven cards (drawn from small decks, so straights, flushes and
  repeated ranks are common), for all three rules.
* **A substitution oracle on the plain evaluator**: the jokers replaced by every pair
  of cards not held, each hand valued by ``evaluate`` / ``partial_key`` (kernels
  this module does not touch), a bug's non-ace choice kept only when the hand is a
  straight or a flush.  Exhaustive for every five-card hand with one joker.
* **Combinatorics**: the category counts of the 2,869,685 five-card hands of the
  53-card deck.  Wild joker: the published table (fennaixelphox, "poker hands with
  a joker", dreamwidth 2024-10-03: five of a kind 13, straight flush 204, four of a
  kind 3,120, full house 6,552, flush 7,804, straight 20,532, three of a kind
  137,280, two pair 123,552, pair 1,268,088, high card 1,302,540).  Bug: derived
  below by hand (its straight flush, flush and straight rows equal the wild ones;
  five aces 1, royal flush 24 as the standard 53-card draw-poker tables give).
* **Plain hands**: with no joker the key is ``partial_key`` / ``FIVE_CARD_KEY[value]``.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from ricochet_math._numba import njit
from ricochet_math.errors import CardError
from ricochet_math.evaluator.cards import (
    format_card, format_cards, parse_card, parse_cards,
)
from ricochet_math.evaluator.evaluation import (
    FIVE_CARD_KEY, ROYAL_FLUSH_VALUE, evaluate, partial_key, partial_key_of,
)
from ricochet_math.evaluator.jokers import (
    FIVE_OF_A_KIND, FIVE_OF_A_KIND_KEY, JOKERS, N_CARDS, JokerRule, describe_joker_hand, is_joker, joker_deck,
    joker_key, joker_key_of, joker_keys, key_category, key_name, reference_joker_key,
)
from ricochet_math.evaluator.tables import (
    FLUSH_CAT, FOUR_OF_A_KIND, FULL_HOUSE, HIGH_CARD, PAIR, STRAIGHT, STRAIGHT_FLUSH, THREE_OF_A_KIND,
    TWO_PAIR,
)

RULES = (JokerRule.BUG, JokerRule.WILD, JokerRule.DEAD)
ROYAL_KEY = int(FIVE_CARD_KEY[ROYAL_FLUSH_VALUE])


def key(text, rule="bug"):
    return joker_key_of(text, rule)


def plain(text):
    """The key of a hand without jokers by the existing evaluator."""
    cards = parse_cards(text)
    if len(cards) <= 5:
        return partial_key_of(cards)
    return int(FIVE_CARD_KEY[evaluate(cards)[0]])


# ------------------------------------------------------------------ card text
def test_joker_codes_and_deck():
    assert JOKERS == (52, 53) and N_CARDS == 54
    assert is_joker(52) and is_joker(53) and not is_joker(51) and not is_joker(0)
    deck = joker_deck()
    assert deck.dtype == np.int64 and deck.tolist() == list(range(54))
    assert joker_deck(1).tolist() == list(range(53))
    assert joker_deck(0).tolist() == list(range(52))
    for bad in (3, -1, True, 1.0):
        with pytest.raises(CardError, match="0, 1 or 2 jokers"):
            joker_deck(bad)


def test_joker_text_is_read_with_jokers_true():
    assert parse_cards("As Jk", jokers=True).tolist() == [51, 52]
    # the jokers are alike: each joker token takes the next free joker
    for text in ("Jk JK", "X joker", "\U0001F0CF jk", "jkr, x"):
        assert parse_cards(text, jokers=True).tolist() == [52, 53]
    assert parse_cards([52, "Jk"], jokers=True).tolist() == [52, 53]
    assert parse_cards(["Jk", 52], jokers=True).tolist() == [53, 52]
    assert parse_cards("Jk", jokers=True, dead=[52]).tolist() == [53]
    assert parse_card("Jk", jokers=True) == 52 and parse_card(53, jokers=True) == 53
    assert parse_cards("As Kd", jokers=True).dtype == np.int8


def test_joker_text_errors_name_the_place():
    with pytest.raises(CardError, match=r"joker 'Jk' in seat 2: this game is played without jokers"):
        parse_cards("As Jk", where="seat 2")
    with pytest.raises(CardError, match="joker"):
        parse_card("X")
    with pytest.raises(CardError, match=r"card number 52 is a joker, outside 0\.\.51"):
        parse_card(52)
    with pytest.raises(CardError, match=r"a third joker 'x' in hand 1: the deck has only two"):
        parse_cards("Jk Jk x", jokers=True, where="hand 1")
    with pytest.raises(CardError, match=r"a third joker 'Jk'.*one already in seat 3"):
        parse_cards("Jk Jk", jokers=True, dead={52: "seat 3"})
    with pytest.raises(CardError, match="duplicate card"):
        parse_cards([52, 52], jokers=True)
    with pytest.raises(CardError, match=r"outside 0\.\.53"):
        parse_card(54, jokers=True)


def test_joker_text_is_written():
    assert format_cards([51, 52, 53], jokers=True) == "As Jk Jk"
    assert format_cards([51, 52], symbols=True, jokers=True) == "A♠ \U0001F0CF"
    assert format_card(52, jokers=True) == "Jk"
    with pytest.raises(CardError):  # a single card keeps refusing a joker unless asked
        format_card(52)
    assert parse_cards(format_cards([3, 52, 53], jokers=True), jokers=True).tolist() == [3, 52, 53]


# ------------------------------------------------------------------ the rulebook's bug
@pytest.mark.parametrize(
    "hand, rule, expected",
    [
        # a bug completes a straight or a flush ...
        ("As Ks Qs Js Jk", "bug", "As Ks Qs Js Ts"),
        ("Jk 2c 3d 4h 5s", "bug", "6c 2c 3d 4h 5s"),       # the best straight: six high, not the wheel
        ("Jk 2c 3d 4h 6s", "bug", "5c 2c 3d 4h 6s"),       # an inside straight
        ("Ac 2c 3c Jk Jk", "bug", "Ac 2c 3c 4c 5c"),       # two bugs: the wheel straight flush
        ("2s 5s 9s Js Jk", "bug", "2s 5s 9s Js As"),       # a flush: the best card of the suit missing
        ("As 5s 9s Js Jk", "bug", "As 5s 9s Js Ks"),
        ("As Ks Qs Js 7h 7d Jk", "bug", "As Ks Qs Js Ts"),
        # ... and is an ace otherwise
        ("7s 7h 7d Jk", "bug", "7s 7h 7d Ac"),
        ("7s 7h 7d Jk 2c", "bug", "7s 7h 7d Ac 2c"),
        ("Kh Kd 7c 7s Jk", "bug", "Kh Kd 7c 7s Ac"),       # two pair, ace kicker, not a full house
        ("Kh Kd 7c 2s Jk", "bug", "Kh Kd 7c 2s Ac"),
        ("Ah Kd 7c 2s Jk", "bug", "Ah Ac Kd 7c 2s"),       # a pair of aces
        ("Ah Ad Kd Kc Jk", "bug", "Ah Ad Ac Kd Kc"),       # aces full
        ("Kh Kd Kc Jk Jk", "bug", "Kh Kd Kc Ac As"),       # kings full of aces
        ("Jk", "bug", "As"),
        ("Jk Jk", "bug", "As Ah"),
        ("Ah 8d Jk", "bug", "Ah As 8d"),
        ("Ah Ad Jk Jk", "bug", "Ah Ad Ac As"),
        ("Jk 9h", "bug", "Ah 9h"),
        # a wild card is any card
        ("7s 7h 7d Jk", "wild", "7s 7h 7d 7c"),
        ("Kh Kd 7c 7s Jk", "wild", "Kh Kd Kc 7c 7s"),
        ("Kh Kd 7c 2s Jk", "wild", "Kh Kd Kc 7c 2s"),
        ("Jk 9h", "wild", "9c 9h"),
        ("Jk 2c 3d 4h 5s", "wild", "6c 2c 3d 4h 5s"),
        ("Jk Jk 9h 9d 2c", "wild", "9h 9d 9c 9s 2c"),
        ("Jk Jk 9h 9d 2c", "bug", "Ah Ad 9h 9d 2c"),
        # a dead joker is nothing
        ("Kh Kd 7c 7s Jk", "dead", "Kh Kd 7c 7s"),
        ("As Ks Qs Js Jk", "dead", "As Ks Qs Js"),
        ("As Ks Qs Js Jk 9d Jk", "dead", "As Ks Qs Js 9d"),
        ("Jk 9h", "dead", "9h"),
    ],
)
def test_rulebook_cases(hand, rule, expected):
    assert key(hand, rule) == plain(expected)


def test_five_of_a_kind_is_above_every_hand():
    assert key("As Ah Ad Ac Jk", "bug") == FIVE_OF_A_KIND_KEY[12]            # five aces
    assert key("As Ah Ad Jk Jk", "bug") == FIVE_OF_A_KIND_KEY[12]            # a bug is an ace
    assert key("Ks Kh Kd Kc Jk", "bug") == plain("Ks Kh Kd Kc Ac")          # ... never a fifth king
    assert key("Ks Kh Kd Kc Jk", "wild") == FIVE_OF_A_KIND_KEY[11]
    assert key("Ks Kh Kd Jk Jk 2c 2d", "wild") == FIVE_OF_A_KIND_KEY[11]
    assert key("2s 2h 2d Jk Jk", "wild") == FIVE_OF_A_KIND_KEY[0]
    assert key("As Ah Ad Ac Jk", "dead") == plain("As Ah Ad Ac")
    assert FIVE_OF_A_KIND_KEY[0] > ROYAL_KEY == FIVE_CARD_KEY.max()
    assert np.all(np.diff(FIVE_OF_A_KIND_KEY) > 0)
    assert key_category(FIVE_OF_A_KIND_KEY[5]) == FIVE_OF_A_KIND
    assert key_category(ROYAL_KEY) == STRAIGHT_FLUSH


def test_partial_hands_keep_the_kicker_rule():
    # "an Ace-8 is higher than Ace alone": a bug is an ace, so joker-8 beats a lone ace
    assert key("Jk 8d") > key("As") == key("Jk")
    assert key("Jk", "dead") == 0 < partial_key_of("2c")
    assert key("Jk 8d", "dead") == partial_key_of("8d")
    # a two-card pair of aces is below a five-card pair of aces with kickers
    assert key("Jk Ah") < key("Jk Ah 9c 5d 2s")


# ------------------------------------------------------------------ plain hands
@pytest.mark.parametrize("rule", RULES)
def test_plain_hands_equal_the_existing_keys(rule):
    rng = np.random.default_rng(20261130)
    for n in range(1, 8):
        hands = np.argsort(rng.random((3000, 52)), axis=1)[:, :n].astype(np.int64)
        got = joker_keys(hands, rule)
        if n <= 5:
            want = np.array([partial_key(h, n) for h in hands])
        else:
            want = FIVE_CARD_KEY[evaluate(hands)]
        assert np.array_equal(got, want), n


@njit
def _combos(n, k, out):
    """All k-subsets of range(n) in lexicographic order into out (C(n, k), k) int8."""
    idx = np.arange(k)
    row = 0
    while True:
        out[row, :] = idx
        row += 1
        i = k - 1
        while i >= 0 and idx[i] == n - k + i:
            i -= 1
        if i < 0:
            return row
        idx[i] += 1
        for t in range(i + 1, k):
            idx[t] = idx[t - 1] + 1


def combos(n, k):
    out = np.empty((math.comb(n, k), k), dtype=np.int8)
    _combos(n, k, out)
    return out


def test_every_five_card_hand_without_a_joker():
    """All 2,598,960 plain five-card hands: the joker kernel is FIVE_CARD_KEY[eval5]."""
    hands = combos(52, 5)
    assert np.array_equal(joker_keys(hands, "wild"), FIVE_CARD_KEY[evaluate(hands)])


# ------------------------------------------------------------------ readable twin
def _all_hands_with_jokers(n):
    for jokers in (1, 2):
        if jokers > n:
            continue
        for real in itertools.combinations(range(52), n - jokers):
            yield list(real) + list(JOKERS[:jokers])


@pytest.mark.parametrize("rule", RULES)
def test_every_hand_of_up_to_three_cards_matches_the_reference(rule):
    for n in (1, 2, 3):
        hands = list(_all_hands_with_jokers(n))
        got = joker_keys(np.array(hands, dtype=np.int64), rule)
        want = [reference_joker_key(h, rule) for h in hands]
        assert got.tolist() == want, n


def _rich_hands(rng, count, n, jokers):
    """Hands from small decks (few ranks, or few suits) so that jokers meet straights, flushes and
    repeated ranks often; the jokers at random places."""
    out = []
    for _ in range(count):
        kind = rng.integers(3)
        if kind == 0:    # five or six neighbouring ranks, all suits
            low = rng.integers(-1, 9)
            ranks = [(r % 13) for r in range(low, low + int(rng.integers(5, 7)))]
            deck = [r * 4 + s for r in ranks for s in range(4)]
        elif kind == 1:  # one or two suits
            suits = rng.choice(4, size=int(rng.integers(1, 3)), replace=False)
            deck = [r * 4 + s for r in range(13) for s in suits]
        else:            # three ranks (pairs, trips, quads)
            deck = [r * 4 + s for r in rng.choice(13, 3, replace=False) for s in range(4)]
        real = list(rng.choice(deck, size=n - jokers, replace=False))
        hand = real + list(JOKERS[:jokers])
        out.append([int(c) for c in rng.permutation(hand)])
    return out


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("n, jokers, count", [
    (4, 1, 200), (4, 2, 100), (5, 1, 200), (5, 2, 40), (6, 1, 100), (6, 2, 8), (7, 1, 60), (7, 2, 4),
])
def test_kernel_matches_the_reference_on_rich_hands(rule, n, jokers, count):
    rng = np.random.default_rng([n, jokers, int(rule), 7])
    hands = _rich_hands(rng, count if rule != JokerRule.DEAD else 4 * count, n, jokers)
    got = joker_keys(np.array(hands, dtype=np.int64), rule)
    want = [reference_joker_key(h, rule) for h in hands]
    bad = [(format_cards(h), g, w) for h, g, w in zip(hands, got.tolist(), want) if g != w]
    assert not bad, bad[:5]


# ------------------------------------------------------------------ substitution oracle
@njit
def _partial_rows(hands, out):
    for i in range(hands.shape[0]):
        out[i] = partial_key(hands[i], hands.shape[1])


_ACES = np.arange(48, 52)


def oracle_keys(real: np.ndarray, jokers: int, rule: JokerRule) -> np.ndarray:
    """Keys of ``real`` (int64 (m, k)) plus ``jokers`` jokers by trying every set of distinct cards not
    held, valued by the plain evaluator.  Five of a kind (which needs a card twice) by its rule."""
    m, k = real.shape
    n = k + jokers
    best = np.full(m, -1, dtype=np.int64)
    if rule == JokerRule.DEAD:
        if k >= 5:
            return FIVE_CARD_KEY[evaluate(real)]
        _partial_rows(real, best)
        return best
    pool = _ACES if (rule == JokerRule.BUG and n < 5) else np.arange(52)
    for sub in itertools.combinations(pool.tolist(), jokers):
        ok = ~np.isin(real, sub).any(axis=1)
        hands = np.hstack([real[ok], np.tile(sub, (int(ok.sum()), 1))])
        if n >= 5:
            keys = FIVE_CARD_KEY[evaluate(hands)]
            if rule == JokerRule.BUG and not set(sub) <= set(_ACES.tolist()):
                cats = keys // 15 ** 5
                keys = np.where(np.isin(cats, [STRAIGHT, FLUSH_CAT, STRAIGHT_FLUSH]), keys, -1)
        else:
            keys = np.empty(hands.shape[0], dtype=np.int64)
            _partial_rows(hands, keys)
        best[ok] = np.maximum(best[ok], keys)
    counts = np.stack([(real >> 2 == r).sum(axis=1) for r in range(13)], axis=1)
    if rule == JokerRule.BUG:
        five = counts[:, 12] + jokers >= 5
        best[five] = FIVE_OF_A_KIND_KEY[12]
    else:
        for r in range(13):  # the highest rank wins: later ranks overwrite
            best[counts[:, r] + jokers >= 5] = FIVE_OF_A_KIND_KEY[r]
    return best


@pytest.mark.parametrize("rule", RULES)
def test_every_five_card_hand_with_one_joker_matches_the_oracle(rule):
    real = combos(52, 4).astype(np.int64)
    hands = np.hstack([real, np.full((real.shape[0], 1), 52)])
    assert np.array_equal(joker_keys(hands, rule), oracle_keys(real, 1, rule))


@pytest.mark.parametrize("rule", RULES)
def test_every_four_card_hand_with_one_joker_matches_the_oracle(rule):
    real = np.array(list(itertools.combinations(range(52), 3)), dtype=np.int64)
    hands = np.hstack([np.full((real.shape[0], 1), 53), real])
    assert np.array_equal(joker_keys(hands, rule), oracle_keys(real, 1, rule))


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_random_hands_with_two_jokers_match_the_oracle(rule, n):
    rng = np.random.default_rng([n, int(rule), 2])
    real = np.sort(np.argsort(rng.random((400, 52)), axis=1)[:, : n - 2], axis=1).astype(np.int64)
    hands = np.hstack([real, np.tile(JOKERS, (real.shape[0], 1))])
    assert np.array_equal(joker_keys(hands, rule), oracle_keys(real, 2, rule))


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("n", [6, 7])
def test_random_hands_with_one_joker_match_the_oracle(rule, n):
    rng = np.random.default_rng([n, int(rule), 1])
    real = np.argsort(rng.random((3000, 52)), axis=1)[:, : n - 1].astype(np.int64)
    hands = np.hstack([real, np.full((real.shape[0], 1), 52)])
    assert np.array_equal(joker_keys(hands, rule), oracle_keys(real, 1, rule))


@pytest.mark.slow
@pytest.mark.parametrize("rule", [JokerRule.BUG, JokerRule.WILD])
def test_every_five_card_hand_with_two_jokers_matches_the_oracle(rule):
    real = np.array(list(itertools.combinations(range(52), 3)), dtype=np.int64)
    hands = np.hstack([real, np.tile(JOKERS, (real.shape[0], 1))])
    assert np.array_equal(joker_keys(hands, rule), oracle_keys(real, 2, rule))


# ------------------------------------------------------------------ counts, 53-card deck
def _categories_53(rule):
    keys = joker_keys(combos(53, 5), rule)
    cats = np.array([key_category(k) for k in np.unique(keys)])
    per_key = dict(zip(*np.unique(keys, return_counts=True)))
    counts = {c: 0 for c in range(10)}
    for k, c in zip(per_key, cats):
        counts[c] += per_key[k]
    return counts, per_key


def test_wild_joker_counts_match_the_published_table():
    counts, _ = _categories_53("wild")
    assert counts == {
        FIVE_OF_A_KIND: 13, STRAIGHT_FLUSH: 204, FOUR_OF_A_KIND: 3_120, FULL_HOUSE: 6_552,
        FLUSH_CAT: 7_804, STRAIGHT: 20_532, THREE_OF_A_KIND: 137_280, TWO_PAIR: 123_552,
        PAIR: 1_268_088, HIGH_CARD: 1_302_540,
    }


def test_bug_counts_match_the_combinatorics():
    """The 53-card deck under the bug: the 2,598,960 hands without the joker keep their
    categories; the 270,725 with it are counted from the shape of their four other cards."""
    counts, per_key = _categories_53("bug")
    # four distinct ranks that some straight window holds: 10 windows x 5 subsets, less the 9
    # runs of four that lie in two windows (2345 .. TJQK)
    windows = [set(range(t - 4, t + 1)) for t in range(4, 13)] + [{12, 0, 1, 2, 3}]
    fits = [s for s in itertools.combinations(range(13), 4) if any(set(s) <= w for w in windows)]
    assert len(fits) == 41
    with_ace = sum(1 for s in itertools.combinations(range(13), 4) if 12 in s and s not in fits)
    assert with_ace == 212
    offsuit = 4 ** 4 - 4
    expected = {
        FIVE_OF_A_KIND: 1,                                            # AAAA + joker
        STRAIGHT_FLUSH: 40 + 4 * 41,                                  # 204
        FOUR_OF_A_KIND: 624 + 12 + 4 * 48,                            # XXXX+J (ace kicker), AAA+J+x
        FULL_HOUSE: 3_744 + 12 * 4 * 4 + 12 * 6 * 6,                  # XXX+A+J, AA+XX+J
        FLUSH_CAT: 5_108 + 4 * (715 - 41),                            # 7,804
        STRAIGHT: 10_200 + offsuit * 41,                              # 20,532
        THREE_OF_A_KIND: 54_912 + 12 * 4 * 44 + 6 * 66 * 16,          # XXX+y+J, AA+y+z+J
        TWO_PAIR: 123_552 + 66 * 36 + 12 * 6 * 4 * 44,                # XX+YY+J, XX+A+y+J
        PAIR: 1_098_240 + 12 * 6 * 55 * 16 + offsuit * with_ace,      # XX+y+z+J, A+x+y+z+J
        HIGH_CARD: 1_302_540 + offsuit * (715 - 41 - with_ace),       # x+y+z+w+J, no ace
    }
    assert counts == expected
    assert sum(expected.values()) == math.comb(53, 5)
    assert per_key[ROYAL_KEY] == 24
    assert per_key[FIVE_OF_A_KIND_KEY[12]] == 1


# ------------------------------------------------------------------ orderings between the rules
def test_wild_is_never_below_bug_and_bug_never_below_dead():
    rng = np.random.default_rng(11)
    for n in range(1, 8):
        for jokers in (1, 2):
            if jokers > n:
                continue
            real = np.argsort(rng.random((5000, 52)), axis=1)[:, : n - jokers]
            hands = np.hstack([real, np.tile(JOKERS[:jokers], (real.shape[0], 1))])
            bug, wild, dead = (joker_keys(hands, r) for r in RULES)
            assert (wild >= bug).all() and (bug >= dead).all()
            if n <= 5:  # a bug adds at least an ace to the partial hand (a joker among 6-7 may add nothing)
                assert (bug > dead).all()


def test_order_of_cards_does_not_matter():
    rng = np.random.default_rng(5)
    hands = np.array(_rich_hands(rng, 2000, 7, 2), dtype=np.int64)
    for rule in RULES:
        base = joker_keys(hands, rule)
        shuffled = rng.permuted(hands, axis=1)
        assert np.array_equal(joker_keys(shuffled, rule), base)


# ------------------------------------------------------------------ entry points
def test_checked_entry_points_reject_bad_input():
    with pytest.raises(CardError, match="unknown joker rule"):
        joker_key_of("As Jk", "semi")
    with pytest.raises(CardError, match="unknown joker rule"):
        joker_key_of("As Jk", True)
    with pytest.raises(CardError, match="expected"):
        joker_key_of("As Ks Qs Js Ts 9s 8s Jk")
    with pytest.raises(CardError, match="duplicate"):
        joker_key_of("As As Jk")
    with pytest.raises(CardError, match="third joker"):
        joker_key_of("Jk Jk Jk")
    with pytest.raises(CardError, match="row 1 of the hands repeats a card"):
        joker_keys([[1, 2, 52], [52, 3, 52]])
    with pytest.raises(CardError, match=r"0\.\.53"):
        joker_keys([[1, 2, 54]])
    with pytest.raises(CardError, match="shape"):
        joker_keys(np.zeros((2, 8), dtype=np.int64))
    with pytest.raises(CardError, match="integer"):
        joker_keys(np.zeros((2, 3)))


def test_rule_spellings_and_the_scalar_kernel():
    cards = np.array([24, 25, 26, 52], dtype=np.int64)  # 8c 8d 8h and a joker
    assert joker_key_of(cards, JokerRule.WILD) == joker_key_of(cards, 1) == joker_key_of(cards, " Wild ")
    # numba callers may pass the enum member or its value
    assert joker_key(cards, 4, JokerRule.WILD) == joker_key(cards, 4, 1) == joker_key_of(cards, "wild")
    assert joker_key(cards, 3, 0) == partial_key(cards, 3)


def test_parallel_batches_equal_serial():
    rng = np.random.default_rng(3)
    real = np.argsort(rng.random((60_000, 53)), axis=1)[:, :7]  # 0..52: one joker sometimes
    hands = np.where(real == 52, 53, real)
    assert np.array_equal(joker_keys(hands, "bug"), joker_keys(hands, "bug", parallel=False))


@pytest.mark.parametrize(
    "hand, rule, name",
    [
        ("As Ks Qs Js Jk", "bug", "Royal flush (joker as T♠)"),
        ("7s 7h 7d Jk", "bug", "Three Sevens, A (joker as A♣)"),
        ("7s 7h 7d Jk", "wild", "Four Sevens (joker as 7♣)"),
        ("Jk 2c 3d 4h 5s", "bug", "Straight, six high (joker as 6♣)"),
        ("2s 5s 9s Js Jk", "bug", "Flush, A-J-9-5-2 (joker as A♠)"),
        ("As Ah Ad Ac Jk", "bug", "Five Aces"),
        ("Kh Kd 7c 7s Jk", "dead", "Two pair, Kings and Sevens (joker dead)"),
        ("Jk Jk", "bug", "Pair of Aces (jokers as A♣ and A♦)"),
        ("Jk 8d", "bug", "High card, A-8 (joker as A♣)"),
        ("Jk", "dead", "No cards (joker dead)"),
        ("Ac 2c 3c Jk Jk", "bug", "Straight flush, five high (jokers as 4♣ and 5♣)"),
        ("Ah Kd 9c", "bug", "High card, A-K-9"),
        ("Ah Kd 9c 5s 2d Jk", "bug", "Pair of Aces, K-9-5 (joker as A♣)"),
    ],
)
def test_describe_joker_hand(hand, rule, name):
    assert describe_joker_hand(hand, rule) == name


def test_describe_finds_a_substitution_for_every_kind_of_hand():
    rng = np.random.default_rng(8)
    for rule in ("bug", "wild"):
        for n, jokers in ((3, 1), (5, 1), (5, 2), (7, 1), (7, 2)):
            for hand in _rich_hands(rng, 40, n, jokers):
                text = describe_joker_hand(hand, rule)
                assert "joker" in text or text.startswith("Five"), (format_cards(hand), rule, text)


def test_key_names():
    assert key_name(FIVE_OF_A_KIND_KEY[12], 5) == "Five Aces"
    assert key_name(ROYAL_KEY, 7) == "Royal flush"
    assert key_name(partial_key_of("As 8d"), 2) == "High card, A-8"
    assert key_name(partial_key_of("As Ad Ac 8d"), 4) == "Three Aces, 8"
