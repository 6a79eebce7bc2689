"""Card text, kernel integers and deck helpers (``ricochet_math.evaluator.cards``).

Truth comes from the spec (``shared/spec/ricochet-casino.md``, "Cards and
hands"): ranks ``23456789TJQKA`` (also ``10``), suits ``cdhs`` (also
``♣♦♥♠``), case-insensitive; suit order clubs < diamonds < hearts < spades;
a card is ``rank * 4 + suit`` inside kernels.  Errors a user can cause are
:class:`~ricochet_math.errors.CardError` with a one-line message naming the
offending token.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from ricochet_math.evaluator.cards import (
    RANKS,
    SUITS,
    card,
    deck_without,
    format_card,
    format_cards,
    full_deck,
    parse_card,
    parse_cards,
    random_deals,
    rank_of,
    suit_of,
)
from ricochet_math.errors import CardError, RicochetError


def one_line_error(excinfo, *fragments: str) -> str:
    """The message of a raised error: one line, containing every fragment."""
    msg = str(excinfo.value)
    assert "\n" not in msg, msg
    for fragment in fragments:
        assert fragment in msg, (fragment, msg)
    return msg


# ------------------------------------------------------------------ kernel integers
def test_card_integers_are_rank_times_four_plus_suit():
    for r, s in itertools.product(range(13), range(4)):
        c = card(r, s)
        assert c == r * 4 + s
        assert rank_of(c) == r and suit_of(c) == s
    assert card(0, 0) == 0 and card(12, 3) == 51


def test_suit_order_is_clubs_diamonds_hearts_spades():
    # spec: "Suit order, lowest to highest: clubs, diamonds, hearts, spades"
    suits = [suit_of(parse_card(t)) for t in ("2c", "2d", "2h", "2s")]
    assert suits == [0, 1, 2, 3]
    assert SUITS == "cdhs"
    assert RANKS == "23456789TJQKA"


# ------------------------------------------------------------------ parsing
def test_parse_spec_example():
    # spec: "As Td 10h K♦ 2c"
    assert parse_cards("As Td 10h K♦ 2c").tolist() == [51, 33, 34, 45, 0]
    assert parse_cards("As Td 10h K♦ 2c").dtype == np.int8


@pytest.mark.parametrize(
    "text",
    [
        "as td 10H k♦ 2C",
        "AS TD 10h K♦ 2c",
        "A♠ T♦ 10♥ K♦ 2♣",
        "A♠️ T♦️ 10♥️ K♦️ 2♣️",  # emoji variation selectors after the symbols
        "As,Td,10h,Kd,2c",
        "  As  Td\t10h\nKd   2c ",
        "As, Td, 10h, Kd, 2c",
    ],
)
def test_parse_is_case_insensitive_and_accepts_symbols_and_separators(text):
    assert parse_cards(text).tolist() == [51, 33, 34, 45, 0]


def test_parse_every_card_round_trips_through_text():
    for c in range(52):
        assert parse_card(format_card(c)) == c
        assert parse_card(format_card(c, symbols=True)) == c
        assert parse_card(format_card(c).lower()) == c
        assert parse_card(format_card(c).upper()) == c
    assert format_cards(range(52)).split()[:5] == ["2c", "2d", "2h", "2s", "3c"]
    assert format_cards([51, 34, 45]) == "As Th Kd"
    assert format_cards([51, 34, 45], symbols=True) == "A♠ T♥ K♦"


def test_parse_accepts_iterables_of_tokens_and_integers():
    assert parse_cards(["As", "Kd"]).tolist() == [51, 45]
    assert parse_cards([51, 45]).tolist() == [51, 45]
    assert parse_cards(np.array([51, 45], dtype=np.int8)).tolist() == [51, 45]
    assert parse_cards("").tolist() == []


@pytest.mark.parametrize(
    "text, fragments",
    [
        ("As Xd", ["unknown rank", "'X'", "'Xd'"]),
        ("As 1d", ["unknown rank", "'1d'"]),
        ("As 11d", ["unknown rank", "'11d'"]),
        ("As Kx", ["unknown suit", "'x'", "'Kx'"]),
        ("As K★", ["unknown suit", "'K★'"]),
        ("As K", ["malformed card", "'K'"]),
        ("As as", ["duplicate card", "As", "'as'"]),
        ("As 10s Ts", ["duplicate card", "Ts", "'Ts'"]),
        ("A♠ As", ["duplicate card", "As"]),
    ],
)
def test_parse_errors_are_one_line_card_errors_naming_the_token(text, fragments):
    with pytest.raises(CardError) as excinfo:
        parse_cards(text)
    one_line_error(excinfo, *fragments)


def test_card_error_is_a_ricochet_value_error():
    with pytest.raises(RicochetError):
        parse_card("Zz")
    with pytest.raises(ValueError):
        parse_card("Zz")


def test_wrong_count_names_the_cards_and_the_place():
    with pytest.raises(CardError) as excinfo:
        parse_cards("As Kd", count=5)
    one_line_error(excinfo, "expected 5 cards", "got 2", "As Kd")
    with pytest.raises(CardError) as excinfo:
        parse_cards("As Kd Qh", count=(5, 6, 7), where="seat 3")
    one_line_error(excinfo, "expected 5 or 6 or 7 cards", "in seat 3", "got 3", "As Kd Qh")
    with pytest.raises(CardError) as excinfo:
        parse_cards("", count=2)
    one_line_error(excinfo, "got 0")
    assert parse_cards("As Kd", count=(1, 2)).tolist() == [51, 45]


def test_dead_cards_count_as_duplicates():
    with pytest.raises(CardError) as excinfo:
        parse_cards("Qh Kd", dead=[parse_card("Kd")], where="the dealer's hand")
    one_line_error(excinfo, "duplicate card Kd", "the dealer's hand")
    assert parse_cards("Qh Kd", dead=[parse_card("As")]).tolist() == [42, 45]


@pytest.mark.parametrize("number", [-1, 52, 100])
def test_card_numbers_outside_the_deck_are_rejected(number):
    with pytest.raises(CardError) as excinfo:
        parse_card(number)
    one_line_error(excinfo, str(number), "0..51")
    with pytest.raises(CardError):
        format_card(number)


# ------------------------------------------------------------------ deck helpers
def test_full_deck():
    deck = full_deck()
    assert deck.dtype == np.int8
    assert deck.tolist() == list(range(52))


def test_deck_without_dead_cards():
    dead = parse_cards("As 2c Kd")
    deck = deck_without(dead)
    assert deck.dtype == np.int8
    assert deck.size == 49
    assert set(deck.tolist()) == set(range(52)) - set(dead.tolist())
    assert deck.tolist() == sorted(deck.tolist())
    assert deck_without([]).tolist() == list(range(52))
    assert deck_without(range(52)).size == 0


@pytest.mark.parametrize("dead, fragment", [([5, 5], "duplicate"), ([52], "0..51"), ([-1], "0..51")])
def test_deck_without_rejects_bad_dead_cards(dead, fragment):
    with pytest.raises(CardError) as excinfo:
        deck_without(dead)
    one_line_error(excinfo, fragment)


# ------------------------------------------------------------------ random deals
@pytest.mark.parametrize("k", [1, 2, 5, 7, 47, 52])
def test_random_deals_rows_are_distinct_cards(k):
    deals = random_deals(np.random.default_rng(7), 500, k)
    assert deals.shape == (500, k)
    assert deals.dtype == np.int8
    assert deals.min() >= 0 and deals.max() <= 51
    s = np.sort(deals, axis=1)
    assert (np.diff(s, axis=1) > 0).all()


def test_random_deals_avoid_dead_cards():
    dead = parse_cards("As Ks Qs Js Ts 2c")
    deals = random_deals(np.random.default_rng(3), 2000, 7, dead=dead)
    assert not np.isin(deals, dead).any()
    # all 46 live cards turn up
    assert np.unique(deals).size == 46
    # exactly the whole live deck when k equals its size
    whole = random_deals(np.random.default_rng(3), 4, 46, dead=dead)
    assert (np.sort(whole, axis=1) == deck_without(dead)).all()


def test_random_deals_are_reproducible_from_a_seed():
    a = random_deals(np.random.default_rng(12345), 1000, 7)
    b = random_deals(np.random.default_rng(12345), 1000, 7)
    c = random_deals(np.random.default_rng(12346), 1000, 7)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)
    # a generator carries on where it stopped: two draws differ
    rng = np.random.default_rng(12345)
    assert not np.array_equal(random_deals(rng, 10, 5), random_deals(rng, 10, 5))


def test_random_deals_are_roughly_uniform():
    # 40,000 five-card deals: each card is expected 40000*5/52 = 3846 times,
    # sd about 60; a fixed seed keeps this deterministic, the bound is 6 sd.
    deals = random_deals(np.random.default_rng(2024), 40_000, 5)
    counts = np.bincount(deals.ravel(), minlength=52)
    expected = 40_000 * 5 / 52
    assert np.abs(counts - expected).max() < 6 * np.sqrt(expected)
    # every position in a row is uniform too (rows come in random order)
    first = np.bincount(deals[:, 0], minlength=52)
    assert np.abs(first - 40_000 / 52).max() < 6 * np.sqrt(40_000 / 52)


def test_random_deals_reject_impossible_requests():
    with pytest.raises(CardError) as excinfo:
        random_deals(np.random.default_rng(0), 5, 53)
    one_line_error(excinfo, "53", "52")
    with pytest.raises(CardError) as excinfo:
        random_deals(np.random.default_rng(0), 5, 48, dead=parse_cards("As Ks Qs Js Ts"))
    one_line_error(excinfo, "48", "47")
    with pytest.raises(CardError):
        random_deals(np.random.default_rng(0), -1, 5)
    assert random_deals(np.random.default_rng(0), 0, 5).shape == (0, 5)


def test_duplicate_across_places_names_both():
    """A card already on the table elsewhere is reported with where it already is."""
    from ricochet_math.evaluator.cards import parse_cards
    from ricochet_math.errors import CardError
    with pytest.raises(CardError, match=r"duplicate card Ks \('Ks'\) in seat 2's hand \(already in seat 1's hand\)"):
        parse_cards("Ks 9c", where="seat 2's hand", dead={int(parse_cards("Ks")[0]): "seat 1's hand"})
