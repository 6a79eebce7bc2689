"""Paytable tuning: candidates in range, monotone and on the grid; the MILP against its slow twin
(every grid paytable enumerated); the generic path; every error; writing a rule set; the CLI.

Truths: ``enumerate_paytables`` (brute force over the whole grid, ranked by
the same key) for the exact MILP; the exact Cover RTP
(``ricochet_math.design.sidebets.cover``) for every candidate's figures.
"""
from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from ricochet_math.cli.app import main
from ricochet_math.errors import RuleError
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.design.cover import cover
from ricochet_math.design.optimiser import enumerate_paytables, tune_paytable
from ricochet_math.design.optimiser_problem import LinearRTP
from ricochet_math.design.optimiser_result import override_toml
from ricochet_math.design.tuning import cover_rtp_function, tune_cover

SMALL = dict(free_lines=["flush", "full_house", "four_of_a_kind"],
             bounds={"flush": (1, 20), "full_house": (1, 30), "four_of_a_kind": (10, 80)})


@pytest.fixture(scope="module")
def rules():
    return load_rules()


@pytest.fixture(scope="module")
def cover_rtp(rules):
    return cover_rtp_function(rules.cover)


def _is_monotone(pays: dict, keys) -> bool:
    return all(pays[b] >= pays[a] for a, b in zip(keys, keys[1:]))


# ---------------------------------------------------------------- the linear RTP of Cover

def test_cover_rtp_function_is_exact(rules, cover_rtp):
    base = {l.key: l.pays for l in rules.cover}
    assert cover_rtp(base) == pytest.approx(cover(rules).rtp, abs=1e-14)
    changed = dict(base, flush=9, royal_flush=5000)
    assert cover_rtp(changed) == pytest.approx(cover(rules, flush=9, royal_flush=5000).rtp, abs=1e-14)
    m = cover_rtp.metrics(changed)
    assert m["std_dev"] == pytest.approx(cover(rules, flush=9, royal_flush=5000).std_dev)


# ---------------------------------------------------------------- candidates

@pytest.mark.parametrize("target", [0.95, 0.96, (0.955, 0.965)])
def test_candidates_are_in_range_monotone_on_grid(rules, target):
    step = {"straight_flush": 10, "royal_flush": 100}
    result = tune_cover(rules, target, step=step, n_best=5)
    keys = [k for k, _ in result.base_pays]
    lo, hi = result.window
    assert len(result.candidates) == 5
    assert [c.rank for c in result.candidates] == [1, 2, 3, 4, 5]
    previous = (-1, -1)
    for c in result.candidates:
        pays = c.pays_dict()
        assert lo - 1e-12 <= c.rtp <= hi + 1e-12
        assert _is_monotone(pays, keys)
        assert c.rtp == pytest.approx(cover(rules, **pays).rtp, abs=1e-13)  # figures are true evaluations
        assert c.std_dev == pytest.approx(cover(rules, **pays).std_dev)
        for k, s in step.items():
            assert pays[k] % s == 0
        assert all(float(v).is_integer() for v in pays.values())
        bucket = math.floor(c.distance / 1e-4 + 1e-9)
        assert (bucket, c.changes) >= previous  # ranked: distance bucket, then steps moved
        previous = (bucket, c.changes)
    frame = result.to_frame()
    assert list(frame.columns[:6]) == ["rank", "rtp", "distance", "hit_frequency", "std_dev", "changes"]
    assert list(frame.columns[6:]) == keys
    assert "best: RTP" in result.summary()


def test_base_in_range_is_the_best_candidate(rules):
    # The shipped table (95.0463%) already lies in 95%..96%: zero changes wins.
    result = tune_cover(rules, (0.95, 0.96), ["four_of_a_kind", "straight_flush"], n_best=3)
    assert result.best == {l.key: l.pays for l in rules.cover}
    assert result.candidates[0].changes == 0


@pytest.mark.parametrize("target, monotonic", [
    (0.955, True), (0.955, False), ((0.952, 0.953), True),
    pytest.param(0.97, True, marks=pytest.mark.slow), pytest.param(0.97, False, marks=pytest.mark.slow),
    pytest.param((0.952, 0.953), False, marks=pytest.mark.slow),
])
def test_milp_equals_enumeration(rules, cover_rtp, target, monotonic):
    fast = tune_paytable(cover_rtp, rules.cover, target=target, monotonic=monotonic, n_best=5, **SMALL)
    slow = enumerate_paytables(cover_rtp, rules.cover, target=target, monotonic=monotonic, n_best=5, **SMALL)
    assert [c.pays_dict() for c in fast.candidates] == [pays for pays, _ in slow]
    assert [c.rtp for c in fast.candidates] == pytest.approx([rtp for _, rtp in slow], abs=1e-14)


def test_milp_equals_enumeration_with_steps(rules, cover_rtp):
    options = dict(free_lines=["two_pair", "straight", "royal_flush"], step={"royal_flush": 100},
                   bounds={"royal_flush": (100, 10000)}, target=0.96, n_best=4)
    fast = tune_paytable(cover_rtp, rules.cover, **options)
    slow = enumerate_paytables(cover_rtp, rules.cover, **options)
    assert [c.pays_dict() for c in fast.candidates] == [pays for pays, _ in slow]


def test_non_monotonic_search_may_break_order(rules, cover_rtp):
    # Without the order constraint a cheaper hand may out-pay a better one; with it, never.
    free = dict(free_lines=["straight", "flush"], bounds={"straight": (1, 40), "flush": (1, 40)})
    loose = tune_paytable(cover_rtp, rules.cover, target=0.9662, monotonic=False, n_best=5, **free)
    tight = tune_paytable(cover_rtp, rules.cover, target=0.9662, monotonic=True, n_best=5, **free)
    assert any(c.pays_dict()["straight"] > c.pays_dict()["flush"] for c in loose.candidates)
    assert all(c.pays_dict()["straight"] <= c.pays_dict()["flush"] for c in tight.candidates)


def test_generic_callable_matches_linear_path(rules, cover_rtp):
    def plain(pays):  # the same RTP, hidden behind an ordinary function
        return {"rtp": cover_rtp(pays), **cover_rtp.metrics(pays)}

    exact = tune_paytable(cover_rtp, rules.cover, target=0.958, n_best=3, **SMALL)
    generic = tune_paytable(plain, rules.cover, target=0.958, n_best=3, **SMALL)
    assert generic.best == exact.best
    assert "linearisation" in generic.method and "exact MILP" in exact.method
    assert generic.candidates[0].hit_frequency == pytest.approx(exact.candidates[0].hit_frequency)


def test_generic_nonlinear_function():
    # A made-up RTP with diminishing returns in each pay (like a strategy that adapts to the table).
    base = {"low": 1, "mid": 5, "high": 40}
    weights = {"low": 0.30, "mid": 0.05, "high": 0.004}

    def rtp(pays):
        return 0.4 + sum(w * 3 * math.log1p(pays[k] / 3) for k, w in weights.items())

    result = tune_paytable(rtp, base, target=1.02, n_best=3, tolerance=0.002,
                           bounds={"low": (1, 5), "mid": (1, 40), "high": (10, 400)})
    for c in result.candidates:
        assert abs(c.rtp - 1.02) <= 0.002 + 1e-12
        assert c.rtp == pytest.approx(rtp(c.pays_dict()))
        assert _is_monotone(c.pays_dict(), list(base))
    assert math.isnan(result.candidates[0].std_dev)
    assert result.evaluations < 60


def test_linear_rtp_object():
    f = LinearRTP(constant=0.5, coefficients={"a": 0.1, "b": 0.01})
    assert f({"a": 2, "b": 10}) == pytest.approx(0.8)
    # 0.1 a + 0.01 b = 0.4 with 1 <= a <= b: (3, 10), (2, 20), (1, 30); fewest steps from (1, 5) first.
    result = tune_paytable(f, {"a": 1, "b": 5}, target=0.9, tolerance=0, n_best=5)
    assert [c.pays_dict() for c in result.candidates] == [{"a": 3, "b": 10}, {"a": 2, "b": 20}, {"a": 1, "b": 30}]
    assert [c.changes for c in result.candidates] == [7, 16, 25]
    assert result.candidates[0].distance == pytest.approx(0, abs=1e-12)


# ---------------------------------------------------------------- errors (one line each)

def _one_line(excinfo) -> str:
    message = str(excinfo.value)
    assert "\n" not in message
    return message


def test_error_not_monotonic(cover_rtp):
    with pytest.raises(RuleError) as e:
        tune_paytable(cover_rtp, {"pair_of_fives": 1, "two_pair": 3, "three_of_a_kind": 2}, target=0.9)
    msg = _one_line(e)
    assert "not monotonic" in msg and "three_of_a_kind pays 2" in msg and "two_pair" in msg
    # allowed when monotonic=False
    f = LinearRTP(0.5, {"a": 0.1, "b": 0.01})
    assert tune_paytable(f, {"a": 3, "b": 2}, target=0.9, monotonic=False).candidates


@pytest.mark.parametrize("target", [0, 2, 2.5, -0.1, 95, float("nan"), "0.95", (0.9,), (0.97, 0.95)])
def test_error_bad_target(rules, target):
    with pytest.raises(RuleError) as e:
        tune_cover(rules, target)
    msg = _one_line(e)
    assert "target RTP" in msg


def test_error_unreachable_says_so(rules):
    with pytest.raises(RuleError) as e:
        tune_cover(rules, (0.90, 0.91), ["royal_flush"])
    msg = _one_line(e)
    assert "unreachable" in msg and "94.7693%" in msg and "97.8167%" in msg
    with pytest.raises(RuleError, match="unreachable"):
        tune_cover(rules, 1.5, ["royal_flush"], bounds={"royal_flush": (1000, 3000)})


def test_error_unreachable_on_the_grid(rules):
    # Royal flush in steps of 1000 moves the RTP by 0.154% per step (94.89%, 95.05%, 95.20%, ...):
    # the window 95.12% +/- 0.05% lies between two of them.
    with pytest.raises(RuleError) as e:
        tune_cover(rules, 0.9512, ["royal_flush"], step=1000, bounds={"royal_flush": (1000, 5000)},
                   tolerance=0.0005)
    msg = _one_line(e)
    assert "unreachable on the step grid" in msg


@pytest.mark.parametrize("kwargs, fragment", [
    (dict(free_lines=["quads"]), "unknown paytable line 'quads'"),
    (dict(step=0), "step of line"),
    (dict(step={"royal": 5}), "not a free line"),
    (dict(bounds=(5, 1)), "0 <= lo <= hi"),
    (dict(bounds={"flush": (0, 10)}), "Cover pays must stay above 0"),
    (dict(free_lines=["flush"], bounds={"flush": (8.5, 8.9)}), "no multiple of step"),
    (dict(n_best=0), "n_best"),
    (dict(tolerance=-1), "tolerance"),
])
def test_error_bad_options(rules, kwargs, fragment):
    with pytest.raises(RuleError) as e:
        tune_cover(rules, 0.95, **kwargs)
    assert fragment in _one_line(e)


def test_error_zero_pay_cover_line(rules):
    with pytest.raises(RuleError, match="pays 0"):
        tune_cover(rules.with_cover(two_pair=0), 0.95)


# ---------------------------------------------------------------- writing a rule set

def test_write_toml_round_trip(rules, tmp_path):
    result = tune_cover(rules, 0.96, ["four_of_a_kind", "straight_flush", "royal_flush"],
                        step={"straight_flush": 50, "royal_flush": 500}, n_best=2)
    path = result.write_toml(tmp_path / "cover-96.toml", rank=2)
    text = path.read_text()
    assert 'extends = "publisher"' in text and 'name = "cover-96"' in text and "# was" in text
    loaded = load_rules(path)
    assert loaded.name == "cover-96"
    assert {l.key: l.pays for l in loaded.cover} == result.candidates[1].pays_dict()
    assert cover(loaded).rtp == pytest.approx(result.candidates[1].rtp, abs=1e-14)
    assert loaded.kickout == rules.kickout and loaded.bonus == rules.bonus
    assert result.to_rules(2).cover == loaded.cover
    with pytest.raises(RuleError, match="rank"):
        result.write_toml(tmp_path / "x.toml", rank=3)


def test_override_toml_of_a_local_parent(rules, tmp_path):
    parent = tmp_path / "mine.toml"
    parent.write_text('extends = "publisher"\n[cover]\nflush = 8\n')
    mine = load_rules(parent)
    text = override_toml(mine, "cover", {"flush": 9}, path=tmp_path / "sub" / "child.toml")
    assert 'extends = "../mine.toml"' in text
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "child.toml").write_text(text)
    assert load_rules(tmp_path / "sub" / "child.toml").cover.pays("flush") == 9
    with pytest.raises(RuleError, match="changed in code"):
        override_toml(rules.with_cover(flush=8), "cover", {"flush": 9})


def test_bare_result_cannot_write(cover_rtp, tmp_path):
    base = {"pair_of_fives": 1, "two_pair": 2, "three_of_a_kind": 3, "straight": 5, "flush": 7,
            "full_house": 10, "four_of_a_kind": 50, "straight_flush": 200, "royal_flush": 2000}
    result = tune_paytable(cover_rtp, base, ["flush"], (0.95, 0.96), n_best=1)
    assert result.best == base
    with pytest.raises(RuleError, match="not tied to a rule set"):
        result.write_toml(tmp_path / "x.toml")


# ---------------------------------------------------------------- the CLI (in process: main() is what the command runs)

def ricochet(capsys, *args: str) -> tuple[int, str, str]:
    try:
        status = main(list(args))
    except SystemExit as exc:  # argparse usage errors exit from the parser
        status = exc.code
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_tune_writes_a_rule_set(capsys, tmp_path):
    out = tmp_path / "cover-96.toml"
    status, stdout, stderr = ricochet(capsys, "tune", "--bet", "cover", "--target", "96%", "--lines",
                                      "four_of_a_kind,straight_flush,royal_flush", "--step", "royal_flush=500",
                                      "--format", "json", "--write", str(out))
    assert status == 0, stderr
    rows = json.loads(stdout)
    assert len(rows) == 5 and rows[0]["rank"] == 1
    assert all(0.959 <= r["rtp"] <= 0.961 for r in rows)
    assert cover(load_rules(out)).rtp == pytest.approx(rows[0]["rtp"], abs=1e-9)  # JSON keeps 10 digits
    assert "wrote candidate 1" in stderr


@pytest.mark.parametrize("args, fragment", [
    (("--target", "95"), "outside (0, 2)"),
    (("--range", "0.90", "0.91", "--lines", "royal_flush"), "unreachable"),
    (("--target", "0.95", "--lines", "quads"), "unknown paytable line"),
    (("--target", "0.95", "--step", "royal_flush=x"), "not a number"),
    (("--target", "0.95", "--bounds", "flush=3"), "LINE=LO:HI"),
    (("--target", "x"), "not a number"),
])
def test_cli_tune_errors(capsys, args, fragment):
    status, _, stderr = ricochet(capsys, "tune", *args)
    assert status == 2, stderr
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ricochet: error: ") and fragment in lines[0], lines


def test_cli_help_has_examples(capsys):
    for command, example in (("tune", "ricochet tune --bet cover --target 0.96"),
                             ("sidebets", "ricochet sidebets --rules publisher")):
        with pytest.raises(SystemExit) as e:
            main([command, "--help"])
        assert e.value.code == 0
        assert example in capsys.readouterr().out


def test_cli_sidebets_outputs(capsys):
    status, out, err = ricochet(capsys, "sidebets", "--format", "csv")
    assert status == 0, err
    lines = out.strip().splitlines()
    assert lines[0].startswith("bet,reading,in_rules,rtp") and len(lines) == 4
    status, out, _ = ricochet(capsys, "sidebets", "--show", "cover", "--format", "json")
    assert sum(r["combinations"] for r in json.loads(out)) == 2_598_960
    status, out, err = ricochet(capsys, "sidebets", "--reset", "2000", "--meter-rate", "0.02")
    assert status == 0, err
    for text in ("kicker", "top-cards", "<- rule set", "Cover return table", "break-even meter 34,186"):
        assert text in out
    status, _, err = ricochet(capsys, "sidebets", "--reset", "2000")
    assert status == 2 and "--meter-rate" in err
    status, _, err = ricochet(capsys, "sidebets", "--show", "cover", "--show", "summary", "--format", "csv")
    assert status == 2 and "one --show" in err


def test_cli_subprocess_smoke(tmp_path):
    # One real process: the subcommands register through the cli_* discovery.
    result = subprocess.run([sys.executable, "-m", "ricochet_math", "sidebets", "--show", "cover", "--format", "csv"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("key,hand,from,combinations")
