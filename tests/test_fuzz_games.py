"""The four games' libraries refuse bad input in one line: never a traceback, a crash or a hang (issue 30).

Every call runs in a worker process behind :mod:`tests.fuzz.guard`, so a segmentation fault or a hang
fails its case instead of killing the test run; one worker serves the whole module (restarted after a
crash or a hang), so the package is imported and its kernels loaded once, not once a test.  Three
sources of calls:

* the corpus (:mod:`tests.fuzz.games`): every public function of ``rm.home``, ``rm.ring``,
  ``rm.rococo`` and ``rm.freeride`` with each argument replaced by values outside its documented range,
  and the issue's own cases.  The fast part takes one bad value per argument and the issue's cases; the
  whole corpus is behind ``slow``;
* hypothesis: rule objects, positions, cards and numeric arguments drawn at random (integers of any
  size and sign, floats with NaN and infinities, text), each call answered by a valid result or a
  RicochetError line.

* the game commands: ``ricochet`` command lines the issue found wrongly handled, each run in the
  worker as tests/cli_run.py runs a command (the parser and the handlers in process; the installed entry
  point itself is tests/cli/test_cli.py's), in an empty folder of its own.

The counts (inputs tried, refused, and every other outcome) are printed, with the slowest calls; every
other outcome fails.
"""
from __future__ import annotations

import collections
import os
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz import games  # tests/ is on sys.path (rootdir conftest), as for cli_run
from fuzz.guard import Guard


@pytest.fixture(scope="module")
def guard():
    with Guard() as g:
        yield g


def _run(guard, cases, tmp_path, timeout=90.0):
    (tmp_path / "a-file.txt").write_text("not a folder\n")
    t0 = time.perf_counter()
    results = guard.run(cases, timeout=timeout, tmp=tmp_path)
    counts = collections.Counter(r["outcome"] for r in results)
    print(f"{len(results)} inputs tried: {dict(counts)} in {time.perf_counter() - t0:.1f} s (load average "
          f"{os.getloadavg()[0]:.1f}); slowest: " + "; ".join(
              f'{r["seconds"]:.1f} s {r["call"][:70]}' for r in sorted(results, key=lambda r: -r["seconds"])[:3]))
    return results, counts


def _bad(results, allowed=("refused",)):
    return [f'{r["outcome"]}: {r["call"][:140]} -> {r["error"]} {r["message"][:120]}'
            for r in results if r["outcome"] not in allowed]


def test_the_guard_turns_a_crash_and_a_hang_into_outcomes(tmp_path):
    """A segmentation fault and a hang fail their own case; the cases after each run in a fresh worker."""
    with Guard() as g:
        got = g.run(["1", "__import__('ctypes').string_at(0)", "{'a': 1}", "__import__('time').sleep(60)",
                     "rm.home.HomeRules(players=0)", "print('noise')"], timeout=2, tmp=tmp_path)
    assert [r["outcome"] for r in got] == ["accepted", "crash", "accepted", "hang", "refused", "accepted"]
    assert got[1]["error"] == "crash (exit status -11)" and got[2]["value"] == {"a": 1}


def test_the_issues_cases_are_refused(guard, tmp_path):
    results, _ = _run(guard, games.ISSUE, tmp_path)
    assert not _bad(results), "\n".join(_bad(results))


def test_one_bad_value_per_argument_is_refused(guard, tmp_path):
    cases = [base.replace("{}", games.BAD[kind][0]) for base, kind, _ in games.BASES]
    results, _ = _run(guard, cases, tmp_path)
    assert not _bad(results), "\n".join(_bad(results))


@pytest.mark.slow
def test_the_whole_corpus_is_refused(guard, tmp_path):
    results, counts = _run(guard, games.cases(), tmp_path)
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
    ("rule objects", rule_objects(), 60), ("positions", positions(), 40), ("numbers", numeric_calls(), 12),
    # an accepted numeric call runs a real simulation: 60 of them took 40 to 75 s (issue 37)
    pytest.param("numbers", numeric_calls(), 60, marks=pytest.mark.slow),
    ("cards", card_calls(), 40)])
def test_random_calls_give_a_result_or_one_line(guard, tmp_path, name, strategy, n):
    """Drawn at random, a call may be valid (accepted) or refused; never anything else."""
    # an accepted call does real work (a kernel's first compilation too): minutes on a loaded machine
    results, counts = _run(guard, _collect(strategy, n, name), tmp_path, timeout=300)
    assert not _bad(results, ("refused", "accepted")), "\n".join(_bad(results, ("refused", "accepted")))


# ---------------------------------------------------------------- memory: flat as the runs grow
SOAK = {  # (call with {} for the size, small size, large size): each game's largest documented run, shrunk
    "home": ("rm.home.simulate(rm.home.HomeRules(players=8), 'pot-odds', {}, seed=1)", 20_000, 400_000),
    "ring": ("rm.ring.simulate(rm.ring.RingRules(players=3), None, {}, seed=1)", 2_000, 40_000),
    "rococo": ("rm.rococo.simulate(None, ['standard'] * 6, {}, 1)", 20_000, 400_000),
    "freeride": ("rm.freeride.simulate(None, ['computer'] * 6, {}, 1)", 2_000, 40_000),
}


def _peak_mib(call: str) -> float:
    import os
    import subprocess
    import sys

    from fuzz.guard import ROOT

    code = (f"import resource, ricochet_math as rm; {call}; "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=1800,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 0, r.stderr[-2000:]
    return float(r.stdout.split()[-1])


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(SOAK))
def test_memory_stays_flat_as_a_run_grows(game):
    """Peak resident memory of a run 20 times larger stays within 10% (and 64 MiB) of the smaller one's:
    the batch driver keeps sums, never games."""
    call, small, large = SOAK[game]
    a, b = _peak_mib(call.format(small)), _peak_mib(call.format(large))
    print(f"{game}: peak {a:.0f} MiB at {small:,}, {b:.0f} MiB at {large:,}")
    assert b <= a * 1.10 + 64, f"{game}: peak memory grew from {a:.0f} MiB to {b:.0f} MiB"


# ---------------------------------------------------------------- the game commands
CLI = [
    ["home", "solve", "--hands", "Kd 5h 8d 8s", "2h 2d 9c 7s", "--pot", "1000000000000000000000000000000"],
    ["home", "solve", "--hands", "Kd 5h 8d 8s", "2h 2d 9c 7s", "--pot", "15", "--depth", "-1"],
    ["home", "solve", "--hands", "Kd 5h 8d 8s", "2h 2d 9c 7s", "--pot", "15", "--budget", "0"],
    ["home", "simulate", "--games", "-5"],
    ["home", "simulate", "--workers", "0"],
    ["ring", "simulate", "--games", "nan"],
    ["ring", "arrange", "As Ad Ah Ac Jk Jk Ks Qs Js Ts 2c 3c 4c 5c 7d 8d 9d Td", "--samples", "0"],
    ["ring", "report", "--out", "/proc/x", "--games", "100"],
    ["rococo", "simulate", "--pots", "0"],
    ["rococo", "simulate", "--strategy", "standard", "loose", "tight", "--blind-value"],
    ["rococo", "equilibrium", "--iterations", "-1"],
    ["rococo", "equilibrium", "--iterations", "10000000000"],
    ["rococo", "equilibrium", "--abstraction", "huge"],
    ["rococo", "equilibrium", "--raise-sizes", "0,3"],
    ["rococo", "equilibrium", "--out", "/proc/x"],
    ["rococo", "equilibrium", "--checkpoint", "/proc/x"],
    ["freeride", "solve", "--hand", "7s 8h Kd Qc 2s", "--up", "Ad 9s", "--opp-up", "2c 7d", "--samples", "-1"],
    ["freeride", "solve", "--hand", "7s 8h Kd Qc 2s", "--up", "Ad 9s", "--opp-up", "2c 7d", "--hero-chips", "-1"],
    ["freeride", "solve", "--hand", "7s 8h Kd Qc 2s", "--up", "Ad 9s", "--opp-up", "2c 7d", "--opp-chips", "-5"],
    ["freeride", "solve", "--hand", "7s 8h Kd Qc 2s", "--up", "Ad 9s", "--opp-up", "2c 7d", "--samples", "0"],
    ["freeride", "simulate", "--players", "9"],
    ["published", "--search", "--seconds", "-1"],
    ["published", "--search", "--seconds", "nan"],
    ["published", "--search", "--top", "0"],
    ["tune", "--bet", "cover", "--target", "0.96", "--n-best", "1000000000"],
    ["tune", "--bet", "cover", "--target", "0.96", "--bounds", "junk"],
    ["kickout", "--players", "1", "--target", "0"],
    # issue 35, wrongly accepted: specs with an empty or repeated part, other scripts' digits, 100,000 characters
    ["home", "simulate", "--seed", "1", "--games", "50", "--strategy", "pot-odds:"],
    ["home", "simulate", "--seed", "1", "--games", "50", "--strategy", "one", "pot-odds:", "limit", "min-lift"],
    ["home", "play", "--seed", "١"],
    ["home", "simulate", "--games", "50", "--limit", "٥"],
    ["ring", "simulate", "--games", "10", "--players", "٣"],
    ["ring", "simulate", "--games", "10", "--strategy", "A" * 100_000],
    ["rococo", "simulate", "--pots", "10", "--policies", "standard,loose,"],
    ["rococo", "draw", "Kh Kd 7c 4s 2h", "--opponents", "٢"],
    ["freeride", "simulate", "--games", "5", "--strategy", "t:x,x,88,TT:wary:wary"],
    ["freeride", "simulate", "--games", "5", "--strategies", "computer;"],
    ["freeride", "play", "--seed", "０"],
]


@pytest.mark.parametrize("argv", CLI, ids=lambda a: " ".join(a)[:60])
def test_game_commands_refuse_in_one_line(guard, argv, tmp_path):
    # in the guard's worker (a crash or a hang fails this case), in a folder of its own that must stay empty
    [r] = guard.run([f"cli({argv!r}, tmp / 'cwd')"], timeout=120, tmp=tmp_path)
    assert r["outcome"] == "accepted", r
    r = r["value"]
    lines = [line for line in r["stderr"].splitlines() if line.strip()]
    assert r["status"] == 2 and "Traceback" not in r["stderr"], r["stderr"][-1500:]
    assert len(lines) == 1 and lines[0].startswith("ricochet: error: "), lines
    assert r["files"] == [], "a refused command wrote files"
