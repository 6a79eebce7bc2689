"""The four games' libraries refuse bad input in one line: never a traceback, a crash or a hang (issue 30).

Every call runs in a worker process behind :mod:`tests.fuzz.guard`, so a segmentation fault or a hang
fails its case instead of killing the test run.  Two sources of calls:

* the corpus (:mod:`tests.fuzz.games`): every public function of ``rm.home``, ``rm.ring``,
  ``rm.rococo`` and ``rm.freeride`` with each argument replaced by values outside its documented range,
  and the issue's own cases.  The fast part takes one bad value per argument and the issue's cases; the
  whole corpus is behind ``slow``;
* hypothesis: rule objects, positions, cards and numeric arguments drawn at random (integers of any
  size and sign, floats with NaN and infinities, text), each call answered by a valid result or a
  RicochetError line.

The counts (inputs tried, refused, and every other outcome) are printed; every other outcome fails.
"""
from __future__ import annotations

import collections

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz import games
from tests.fuzz.guard import run_cases


def _run(cases, tmp_path, timeout=90.0):
    (tmp_path / "a-file.txt").write_text("not a folder\n")
    results = run_cases(cases, timeout=timeout, tmp=tmp_path)
    counts = collections.Counter(r["outcome"] for r in results)
    print(f"{len(results)} inputs tried: {dict(counts)}")
    return results, counts


def _bad(results, allowed=("refused",)):
    return [f'{r["outcome"]}: {r["call"][:140]} -> {r["error"]} {r["message"][:120]}'
            for r in results if r["outcome"] not in allowed]


def test_the_issues_cases_are_refused(tmp_path):
    results, _ = _run(games.ISSUE, tmp_path)
    assert not _bad(results), "\n".join(_bad(results))


def test_one_bad_value_per_argument_is_refused(tmp_path):
    cases = [base.replace("{}", games.BAD[kind][0]) for base, kind, _ in games.BASES]
    results, _ = _run(cases, tmp_path)
    assert not _bad(results), "\n".join(_bad(results))


@pytest.mark.slow
def test_the_whole_corpus_is_refused(tmp_path):
    results, counts = _run(games.cases(), tmp_path)
    assert not _bad(results), f"{dict(counts)}\n" + "\n".join(_bad(results))


# ---------------------------------------------------------------- hypothesis: calls drawn at random
numbers = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.integers(min_value=-3, max_value=60),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["'x'", "None", "True", "[]"]),
).map(lambda v: v if isinstance(v, str) else repr(v).replace("nan", "float('nan')").replace(
    "inf", "float('inf')"))
card_ints = st.lists(st.integers(min_value=-5, max_value=60), min_size=0, max_size=9)
card_text = st.text(alphabet="AKQJT98765432shdcxZ 10", max_size=20)
cards = st.one_of(card_ints.map(repr), card_text.map(repr))

RULES = {
    "home": ("rm.home.HomeRules", ["players", "start_cards", "hand_limit"]),
    "ring": ("rm.ring.RingRules", ["players"]),
    "rococo": ("rm.rococo.RococoRules", ["players", "ante", "min_bet", "max_bet", "max_raises", "carry_limit"]),
    "freeride": ("rm.freeride.FreeRideRules", ["start_chips", "showdown_loss", "min_seats", "max_rounds"]),
}


@st.composite
def rule_objects(draw):
    game = draw(st.sampled_from(sorted(RULES)))
    cls, fields = RULES[game]
    chosen = draw(st.lists(st.sampled_from(fields), min_size=1, max_size=3, unique=True))
    return f"{cls}({', '.join(f'{f}={draw(numbers)}' for f in chosen)})"


@st.composite
def positions(draw):
    hands = draw(st.lists(st.one_of(st.none(), st.lists(st.integers(-2, 56), min_size=0, max_size=9).map(tuple)),
                          min_size=0, max_size=9))
    return (f"rm.home.solve(rm.home.HomeRules(players=2), rm.home.Position({tuple(hands)!r}, {draw(numbers)}, "
            f"{draw(numbers)}), budget=2000)")


@st.composite
def numeric_calls(draw):
    base, kind, _ = draw(st.sampled_from([b for b in games.BASES if b[1] in ("count", "count0", "seed",
                                                                             "fraction")]))
    return base.replace("{}", draw(numbers))


@st.composite
def card_calls(draw):
    base, _, _ = draw(st.sampled_from([b for b in games.BASES if b[1] == "cards"]))
    return base.replace("{}", draw(cards))


def _collect(strategy, n, seed_text):
    """``n`` calls drawn from ``strategy`` (hypothesis runs in this process; the calls run in the guard)."""
    out = []

    @settings(max_examples=n, database=None, derandomize=True, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def draw(call):
        out.append(call)

    draw()
    return list(dict.fromkeys(out))


@pytest.mark.parametrize("name, strategy, n", [
    ("rule objects", rule_objects(), 60), ("positions", positions(), 40), ("numbers", numeric_calls(), 60),
    ("cards", card_calls(), 40)])
def test_random_calls_give_a_result_or_one_line(tmp_path, name, strategy, n):
    """Drawn at random, a call may be valid (accepted) or refused; never anything else."""
    results, counts = _run(_collect(strategy, n, name), tmp_path)
    assert not _bad(results, ("refused", "accepted")), "\n".join(_bad(results, ("refused", "accepted")))
