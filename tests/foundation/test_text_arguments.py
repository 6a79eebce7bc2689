"""Numbers and lists written as text, read by one grammar (ricochet_math/arguments.py), and error messages that
quote at most 60 characters of a value (ricochet_math/errors.py quote): issue 35, "Wrongly accepted"."""
from __future__ import annotations

import numpy as np
import pytest

from ricochet_math.arguments import named_values, number_from_text, spec_parts, split_items, whole_from_text
from ricochet_math.errors import QUOTE_LIMIT, RicochetError, StrategyError, quote, shorten


@pytest.mark.parametrize("text, value", [("12", 12), ("1_000", 1000), ("1,000", 1000), ("-3", -3), (" 7 ", 7),
                                         ("+5", 5), ("0", 0)])
def test_whole_numbers_in_ascii_digits(text, value):
    assert whole_from_text(text, "--seed") == value


@pytest.mark.parametrize("text", ["１２", "٣", "0x10", "1.0", "", " ", "_1", "1__0", "²", "1e3", "٣٣", "1,٣", "junk",
                                  "+-1", "12\u00a0"])
def test_anything_else_is_refused_naming_the_option(text):
    with pytest.raises(RicochetError, match="--seed: not a whole number in ASCII digits 0-9") as exc:
        whole_from_text(text, "--seed")
    assert "\n" not in str(exc.value)


def test_grouping_commas_only_where_asked():
    with pytest.raises(RicochetError):
        whole_from_text("1,000", "a player count", grouping=False)
    with pytest.raises(RicochetError, match="written as text"):
        whole_from_text(12, "--seed")


@pytest.mark.parametrize("text, value", [("0.5", 0.5), ("-2", -2.0), ("1e-3", 1e-3), ("1_000", 1000.0)])
def test_numbers_in_ascii_digits(text, value):
    assert number_from_text(text, "--target") == value


def test_numbers_nan_and_inf_are_left_to_the_range_check():
    assert np.isnan(number_from_text("nan", "x")) and number_from_text("inf", "x") == float("inf")


@pytest.mark.parametrize("text", ["１.５", "٠.٥", "0.٥", "", "0x1p3", "1,5"])
def test_numbers_in_other_digits_are_refused(text):
    with pytest.raises(RicochetError, match="--target: not a number in ASCII digits"):
        number_from_text(text, "--target")


def test_split_items_refuses_empty_items():
    assert split_items("standard,loose", "--policies") == ["standard", "loose"]
    assert split_items(" standard , loose ", "--policies") == ["standard", "loose"]
    assert split_items("computer;bold", "--strategies", sep=";") == ["computer", "bold"]
    for text, why in [("a,,b", "empty item between two ','"), ("a,b,", "trailing ','"), (",a", "leading ','"),
                      ("", "is empty"), ("  ", "is empty"), (",", "leading")]:
        with pytest.raises(RicochetError, match=why):
            split_items(text, "--policies")
    with pytest.raises(StrategyError):
        split_items("a;;b", "--strategies", sep=";", error=StrategyError)


def test_spec_parts_refuses_empty_duplicate_separators_and_spaces():
    assert spec_parts("pot-odds", "home strategy") == ("pot-odds", [])
    assert spec_parts(" pot-odds:1.5 ", "home strategy") == ("pot-odds", ["1.5"])
    assert spec_parts("t:x,x,full house,x:wary", "s", spaces=True) == ("t", ["x,x,full house,x", "wary"])
    for text, why in [("pot-odds:", "empty parameter list"), ("a::b", "empty parameter"), ("a:b:", "empty parameter"),
                      (":x", "no name"), ("pot-odds: 2", "space inside"), ("pot odds", "space inside"),
                      ("", "is empty")]:
        with pytest.raises(StrategyError, match=why) as exc:
            spec_parts(text, "home strategy", error=StrategyError)
        assert "home strategy" in str(exc.value)


def test_named_values_refuse_a_key_given_twice():
    assert named_values(["5", "royal_flush=500"], "--step") == ("5", {"royal_flush": "500"})
    for items, why in [(["royal_flush=500", "royal_flush=600"], "gives 'royal_flush' twice"),
                       (["5", "6"], "two values without a key"), (["=5"], "write N or KEY=N"),
                       (["royal_flush="], "write N or KEY=N")]:
        with pytest.raises(RicochetError, match=why):
            named_values(items, "--step")


def test_quote_cuts_long_values():
    assert quote("As Ks") == "'As Ks'"
    long = quote("A" * 100_000)
    assert long.startswith("'AAA") and "A...A" in long and long.endswith("' (100,000 characters)")
    assert len(long) < QUOTE_LIMIT + 40
    path = quote("/tmp/" + "d" * 100 + "/rules.toml")  # a long path keeps its file name
    assert path.endswith("/rules.toml' (116 characters)") and path.startswith("'/tmp/ddd")
    assert quote(10**5000).endswith("-bit integer")  # repr() refuses an integer of more than 4,300 digits
    assert len(quote(list(range(10_000)))) < 120
    assert shorten("x" * 10) == "x" * 10 and shorten("x" * 1000).endswith("(1,000 characters)")

    class Broken:
        def __repr__(self):
            raise RuntimeError("no")

    assert quote(Broken()) == "a Broken"


def test_a_huge_value_in_a_library_message_is_quoted():
    from ricochet_math.arguments import check_whole

    with pytest.raises(RicochetError) as exc:
        check_whole("A" * 100_000, "rounds")
    assert len(str(exc.value)) < 200
    with pytest.raises(RicochetError) as exc:
        check_whole(10**5000, "rounds", high=10)
    assert len(str(exc.value)) < 200


def test_environment_numbers_are_ascii_digits_too(monkeypatch):
    """NUMBA_NUM_THREADS='٣' is 3 to int() but not to numba: taken out with one line, as 'junk' is."""
    from ricochet_math import environment

    monkeypatch.setattr(environment, "PROBLEMS", [])
    environ = {"NUMBA_NUM_THREADS": "٣", "SOURCE_DATE_EPOCH": "１２"}
    found = environment.sanitise(environ)
    assert len(found) == 2 and environ == {}, found
    assert environment.sanitise({"NUMBA_NUM_THREADS": "3"}) == []
