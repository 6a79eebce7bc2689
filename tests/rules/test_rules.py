"""Rule sets as data: loading, inheritance, validation messages, TOML round trip.

Truth: the rulebook (shared/seeds/000_abac4787580a1767.txt), first casino
page ("Dealer Kickout" and "Bonus Hands" tables) and second casino page
("with four players, the dealer must fold two pair, tens up"), as read in
shared/spec/ricochet-casino.md.
"""
from __future__ import annotations

import re

import pytest

from ricochet_math.errors import RuleError
from ricochet_math.rules.ruleset import (
    CATEGORY_PATTERNS,
    KickoutTable,
    Paytable,
    PayLine,
    RuleSet,
    load_rules,
    rules_from_toml,
)
from ricochet_math.rules.files import paytables_dir, resolve_rules_path, shipped_rule_sets

# First casino page, "Dealer Kickout".
PUBLISHED_KICKOUT = {1: "KKQ", 2: "AAQ", 3: "TTxx", 4: "AAxx", 5: "222", 6: "QQQ", 7: "A2345"}
# First casino page, "Bonus Hands" (chips = ante units).
PUBLISHED_BONUS = {"straight": 2, "flush": 5, "full_house": 10, "four_of_a_kind": 25,
                   "straight_flush": 100, "royal_flush": 1000}


def one_line_error(excinfo) -> str:
    message = str(excinfo.value)
    assert "\n" not in message
    return message


# ---------------------------------------------------------------- defaults

def test_default_is_publisher(default_rules):
    assert default_rules.name == "publisher"
    assert default_rules.source == str(paytables_dir() / "publisher.toml")
    assert re.fullmatch(r"[0-9a-f]{64}", default_rules.sha256)


def test_default_kickout_is_first_casino_page(default_rules):
    assert dict(default_rules.kickout) == PUBLISHED_KICKOUT
    assert default_rules.kickout == PUBLISHED_KICKOUT
    assert list(default_rules.kickout) == list(range(1, 8))


def test_default_bonus_is_published(default_rules):
    assert {line.key: line.pays for line in default_rules.bonus} == PUBLISHED_BONUS
    assert default_rules.bonus["straight"].hand_pattern == "straight"


def test_default_quickdraw_and_options(default_rules):
    assert default_rules.quickdraw.pays == 5
    # default reading chosen from the exact side-bet analysis (sidebets.py): top-cards, 89.37% RTP
    assert default_rules.quickdraw.comparison == "top-cards"
    o = default_rules.options
    assert (o.automatic_win, o.split, o.dealer_loses_ties, o.bonus_on_automatic_win) == (
        True, "odd-units-last", True, True)


def test_default_cover_table(default_rules):
    """The documented default Cover table (exact RTP 95.0463%, sidebets.py)."""
    cover = default_rules.cover
    assert cover["pair_of_fives"].hand_pattern == "55"
    assert cover.pays("pair_of_fives") == 1
    assert cover.pays("royal_flush") == 2000


@pytest.mark.parametrize("ref", [None, "publisher", "publisher.toml"])
def test_bare_names_resolve_to_shipped(ref):
    assert resolve_rules_path(ref) == paytables_dir() / "publisher.toml"


def test_shipped_rule_sets_listed():
    assert shipped_rule_sets()[:1] == ("publisher",)
    assert "publisher-4p-tens" in shipped_rule_sets()


def test_load_rules_passes_a_rule_set_through(default_rules):
    assert load_rules(default_rules) is default_rules


# ---------------------------------------------------------------- hand values

def test_kickout_values_follow_the_patterns(default_rules):
    from ricochet_math.evaluator.names import pattern_value

    for n, pattern in PUBLISHED_KICKOUT.items():
        assert default_rules.kickout_value(n) == pattern_value(pattern)
    values = [default_rules.kickout_value(n) for n in range(1, 8)]
    assert values == sorted(values), "the published thresholds rise with the player count"


def test_category_patterns_are_the_weakest_of_each_category():
    from ricochet_math.evaluator.names import category_name, pattern_value
    from ricochet_math.evaluator.tables import NUM_VALUES

    values = [pattern_value(p) for p in CATEGORY_PATTERNS.values()]
    assert values == sorted(values)
    for key, pattern in CATEGORY_PATTERNS.items():
        v = pattern_value(pattern)
        if key == "royal_flush":
            assert v == NUM_VALUES - 1, "the royal flush is the top hand"
            continue
        assert category_name(v) != category_name(v - 1), f"{key}: {pattern} is not its category's weakest hand"


def test_paytable_payout_pays_the_highest_line_reached(default_rules):
    from ricochet_math.evaluator.names import pattern_value

    bonus = default_rules.bonus
    assert bonus.payout(pattern_value("A2345") - 1) == 0
    assert bonus.payout(pattern_value("A2345")) == 2
    assert bonus.payout(pattern_value("royal flush")) == 1000
    thresholds, pays = bonus.to_arrays()
    assert list(pays) == [2, 5, 10, 25, 100, 1000]
    assert list(thresholds) == sorted(thresholds)


# ---------------------------------------------------------------- inheritance

def test_four_player_tens_inherits_everything_else(default_rules):
    tens = load_rules("publisher-4p-tens")
    assert tens.name == "publisher-4p-tens"
    assert tens.kickout[4] == "TTxx"
    assert {n: tens.kickout[n] for n in (1, 2, 3, 5, 6, 7)} == {
        n: PUBLISHED_KICKOUT[n] for n in (1, 2, 3, 5, 6, 7)}
    assert tens.bonus == default_rules.bonus and tens.cover == default_rules.cover
    assert tens.options == default_rules.options and tens.quickdraw == default_rules.quickdraw
    assert tens.sha256 != default_rules.sha256


def test_extends_deep_merges_tables_and_names_leaf(tmp_rules):
    path = tmp_rules("""
        extends = "publisher"
        [bonus]
        flush = 6
        [options]
        split = "fractional"
    """, name="mine.toml")
    rules = load_rules(path)
    assert rules.name == "mine"
    assert rules.bonus.pays("flush") == 6
    assert rules.bonus.pays("royal_flush") == 1000
    assert rules.options.split == "fractional"
    assert rules.options.automatic_win is True


def test_extends_relative_path_and_chain(tmp_rules):
    tmp_rules('extends = "publisher-4p-tens.toml"\nname = "a"\n[quickdraw]\npays = 4\n', name="a.toml")
    path = tmp_rules('extends = "a.toml"\n[kickout]\n1 = "AAQ"\n', name="b.toml")
    rules = load_rules(path)
    assert (rules.name, rules.kickout[1], rules.kickout[4], rules.quickdraw.pays) == ("b", "AAQ", "TTxx", 4)


def test_sha256_covers_the_parent(tmp_rules, tmp_path):
    tmp_rules('extends = "publisher"\n[quickdraw]\npays = 4\n', name="parent.toml")
    child = tmp_rules('extends = "parent.toml"\n', name="child.toml")
    before = load_rules(child).sha256
    tmp_rules('extends = "publisher"\n[quickdraw]\npays = 4  # same rules, new bytes\n', name="parent.toml")
    assert load_rules(child).sha256 != before


def test_custom_paytable_line(tmp_rules):
    rules = load_rules(tmp_rules("""
        extends = "publisher"
        [cover]
        jacks = { hand = "JJ", pays = 0.5 }
        pair_of_fives = { pays = 2 }
    """))
    assert rules.cover["jacks"] == PayLine("jacks", "JJ", 0.5)
    assert rules.cover["pair_of_fives"] == PayLine("pair_of_fives", "55", 2)


# ---------------------------------------------------------------- validation

def expect_error(tmp_rules, text, *fragments, name="rules.toml"):
    path = tmp_rules(text, name=name)
    with pytest.raises(RuleError) as excinfo:
        load_rules(path)
    message = one_line_error(excinfo)
    assert str(path) in message
    for fragment in fragments:
        assert fragment in message, message
    return message


def test_misspelt_top_key_did_you_mean(tmp_rules):
    expect_error(tmp_rules, 'extends = "publisher"\n[bonnus]\nflush = 5\n',
                 "key 'bonnus'", "unknown key", "did you mean 'bonus'?")


def test_misspelt_option_did_you_mean(tmp_rules):
    expect_error(tmp_rules, 'extends = "publisher"\n[options]\nautomatic_wins = false\n',
                 "key 'options.automatic_wins'", "did you mean 'automatic_win'?")


def test_misspelt_category_did_you_mean(tmp_rules):
    expect_error(tmp_rules, 'extends = "publisher"\n[bonus]\nflsh = 5\n',
                 "key 'bonus.flsh'", "did you mean 'flush'?")


def test_missing_required_table(tmp_rules):
    text = load_rules().to_toml()
    text = re.sub(r"\[quickdraw\]\n(.*\n)*?\n", "", text)
    expect_error(tmp_rules, text, "key 'quickdraw'", "missing required")


def test_missing_kickout_player_count(tmp_rules):
    text = load_rules().to_toml().replace('5 = "222"\n', "")
    expect_error(tmp_rules, text, "key 'kickout.5'", "missing required key")


def test_missing_quickdraw_pays(tmp_rules):
    text = load_rules().to_toml().replace("pays = 5\n", "")
    expect_error(tmp_rules, text, "key 'quickdraw.pays'", "missing required key")


def test_negative_payout(tmp_rules):
    expect_error(tmp_rules, 'extends = "publisher"\n[bonus]\nflush = -5\n',
                 "key 'bonus.flush'", ">= 0", "-5")


def test_non_numeric_payout(tmp_rules):
    expect_error(tmp_rules, 'extends = "publisher"\n[cover]\nflush = "seven"\n',
                 "key 'cover.flush'", "must be a number", '"seven"')


def test_boolean_is_not_a_payout(tmp_rules):
    expect_error(tmp_rules, 'extends = "publisher"\n[quickdraw]\npays = true\n',
                 "key 'quickdraw.pays'", "must be a number")


@pytest.mark.parametrize("count", ["9", "0"])
def test_player_count_out_of_range(tmp_rules, count):
    expect_error(tmp_rules, f'extends = "publisher"\n[kickout]\n{count} = "AAA"\n',
                 f"key 'kickout.{count}'", "player count must be 1..7")


def test_player_count_not_a_number(tmp_rules):
    expect_error(tmp_rules, 'extends = "publisher"\n[kickout]\nfour = "AAxx"\n',
                 "key 'kickout.four'", "not a player count")


def test_unparseable_threshold(tmp_rules):
    expect_error(tmp_rules, 'extends = "publisher"\n[kickout]\n3 = "TTzz"\n',
                 "key 'kickout.3'", "'TTzz' does not parse")


def test_unparseable_paytable_hand(tmp_rules):
    expect_error(tmp_rules, 'extends = "publisher"\n[cover]\nodd = { hand = "banana", pays = 1 }\n',
                 "key 'cover.odd.hand'", "does not parse")


def test_bad_option_value_lists_allowed(tmp_rules):
    expect_error(tmp_rules, 'extends = "publisher"\n[options]\nsplit = "even"\n',
                 "key 'options.split'", '"even" is not allowed', '"odd-units-last", "fractional"')


def test_bad_comparison_lists_allowed(tmp_rules):
    expect_error(tmp_rules, 'extends = "publisher"\n[quickdraw]\ncomparison = "suits"\n',
                 "key 'quickdraw.comparison'", '"kicker", "top-cards"')


def test_bad_boolean_option(tmp_rules):
    expect_error(tmp_rules, 'extends = "publisher"\n[options]\nautomatic_win = "yes"\n',
                 "key 'options.automatic_win'", "true or false")


def test_toml_syntax_error_keeps_line_number(tmp_rules):
    expect_error(tmp_rules, 'extends = "publisher"\n\n[bonus]\nflush = = 5\n',
                 "invalid TOML", "line 4")


def test_missing_file():
    with pytest.raises(RuleError) as excinfo:
        load_rules("no/such/rules.toml")
    assert one_line_error(excinfo).startswith("rule-set file not found: 'no/such/rules.toml'")


def test_missing_bare_name():
    with pytest.raises(RuleError, match="rule-set file not found"):
        load_rules("publisherr")


def test_missing_parent(tmp_rules):
    expect_error(tmp_rules, 'extends = "nowhere.toml"\n', "key 'extends'", "parent rule-set file not found", "nowhere.toml")


def test_extends_cycle(tmp_rules):
    tmp_rules('extends = "b.toml"\n', name="a.toml")
    b = tmp_rules('extends = "a.toml"\n', name="b.toml")
    c = tmp_rules('extends = "a.toml"\n', name="c.toml")
    with pytest.raises(RuleError) as excinfo:
        load_rules(c)
    # The file whose `extends` closes the loop is named.
    assert one_line_error(excinfo) == (
        f"{b}: key 'extends': inheritance cycle: c.toml -> a.toml -> b.toml -> a.toml")


def test_error_in_parent_names_the_parent(tmp_rules):
    parent = tmp_rules('extends = "publisher"\n[bonus]\nflush = -1\n', name="parent.toml")
    child = tmp_rules('extends = "parent.toml"\n[bonus]\nstraight = 3\n', name="child.toml")
    with pytest.raises(RuleError) as excinfo:
        load_rules(child)
    assert one_line_error(excinfo).startswith(f"{parent}: key 'bonus.flush': payout")


def test_self_extends_is_a_cycle(tmp_rules):
    expect_error(tmp_rules, 'extends = "self.toml"\n', "inheritance cycle", name="self.toml")


# ---------------------------------------------------------------- editing and output

@pytest.mark.parametrize("name", ["publisher", "publisher-4p-tens"])
def test_round_trip_to_toml(name):
    rules = load_rules(name)
    again = rules_from_toml(rules.to_toml())
    assert again == rules


def test_round_trip_of_edited_rules(default_rules, tmp_rules):
    edited = (default_rules.with_kickout(4, "TTxx").with_bonus(royal_flush=500.5)
              .with_options(split="fractional", automatic_win=False)
              .with_quickdraw(comparison="top-cards")
              .replace(cover=default_rules.cover.with_line("jacks", "JJ", 0.5),
                       description='with "quotes" and \\ backslash'))
    assert load_rules(tmp_rules(edited.to_toml())) == edited


def test_edits_are_marked_and_validated(default_rules):
    edited = default_rules.with_kickout(4, "TTxx")
    assert edited.kickout[4] == "TTxx" and default_rules.kickout[4] == "AAxx"
    assert edited.source.endswith("(modified)")
    assert edited.sha256 != default_rules.sha256
    with pytest.raises(RuleError, match="kickout.4"):
        default_rules.with_kickout(4, "TTzz")
    with pytest.raises(RuleError, match="1..7"):
        default_rules.with_kickout(8, "AAA")
    with pytest.raises(RuleError, match="did you mean 'flush'"):
        default_rules.with_bonus(flsh=3)
    with pytest.raises(RuleError, match=">= 0"):
        default_rules.with_bonus(flush=-1)
    with pytest.raises(RuleError, match="options.split"):
        default_rules.with_options(split="even")


def test_to_frame_lists_every_key(default_rules):
    frame = default_rules.to_frame()
    assert list(frame.columns) == ["section", "key", "value", "detail"]
    kick = frame[frame.section == "kickout"]
    assert dict(zip(kick.key, kick.value)) == {str(n): p for n, p in PUBLISHED_KICKOUT.items()}
    assert len(frame[frame.section == "bonus"]) == 6
    assert set(frame[frame.section == "options"].key) == {
        "automatic_win", "split", "dealer_loses_ties", "bonus_on_automatic_win"}
    assert list(default_rules.bonus.to_frame().columns) == ["key", "hand", "pays"]


def test_summary_names_the_rules(default_rules):
    text = default_rules.summary()
    assert "publisher" in text and "4: AAxx" in text and "royal_flush 1000" in text


def test_rule_set_is_hashable_and_frozen(default_rules):
    assert hash(default_rules) == hash(load_rules())
    with pytest.raises(AttributeError):
        default_rules.name = "x"  # type: ignore[misc]


def test_direct_construction(default_rules):
    rules = RuleSet(
        name="direct", description="",
        kickout=dict(PUBLISHED_KICKOUT), bonus=default_rules.bonus,
        quickdraw=default_rules.quickdraw, cover=Paytable(),
    )
    assert isinstance(rules.kickout, KickoutTable)
    assert rules.options == default_rules.options


def test_module_doctest():
    import doctest

    import ricochet_math.rules.ruleset

    result = doctest.testmod(ricochet_math.rules.ruleset)
    assert result.attempted > 0 and result.failed == 0


def test_toml_writer_keys_values_and_lines():
    """The one TOML writer (rules.toml_writer): what tomllib reads back is what was written."""
    import tomllib

    from ricochet_math.rules.toml_writer import paytable_line, toml_key, toml_value

    assert toml_key("flush") == "flush" and toml_key("pair of 5s") == '"pair of 5s"'
    assert [toml_value(v) for v in (True, 3, 2.5, float("inf"), 'a "b"')] == ["true", "3", "2.5", "inf", '"a \\"b\\""']
    with pytest.raises(TypeError):
        toml_value(None)
    assert paytable_line("flush", "flush", 6, category_pattern="flush") == "flush = 6"
    line = paytable_line("my line", "QQQ", 3.5, category_pattern=None)
    assert tomllib.loads(line) == {"my line": {"hand": "QQQ", "pays": 3.5}}
