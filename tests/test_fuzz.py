"""Bad inputs are refused with one line, never a traceback, never a partly written file (issue 12).

The corpus lives in ``tests/fuzz/`` (its README lists it): rule-set files,
files given as checkpoints, library calls with bad arguments and ``ricochet``
command lines.  Every library case must raise a
:class:`~ricochet_math.errors.RicochetError` whose message is one line, and
leave the scratch folder and the corpus as they were; every command line must
exit with status 2 and print exactly one ``ricochet: error:`` line and no
traceback.  Hypothesis feeds the rule-file text parser and the card parser
arbitrary input: each answer is a valid result or a ``RicochetError``, never
another exception.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ricochet_math as rm
from ricochet_math import storage
from ricochet_math.errors import CardError, RicochetError
from ricochet_math.evaluator.cards import format_cards
from ricochet_math.evaluator.evaluation import evaluate
from ricochet_math.reports.published import check_published_folder
from ricochet_math.rules.files import paytables_dir
from ricochet_math.rules.ruleset import RuleSet
from ricochet_math.solvers.montecarlo import simulate

FUZZ = Path(__file__).parent / "fuzz"
ROOT = Path(__file__).resolve().parents[1]
LIBRARY = json.loads((FUZZ / "library.json").read_text())
CLI = json.loads((FUZZ / "cli.json").read_text())
RULE_FILES = sorted((FUZZ / "rules").glob("*.toml"))
CHECKPOINT_FILES = sorted((FUZZ / "checkpoints").glob("*"))
#: what ``{big}`` in the corpus stands for: a 100,000-character argument (issue 35)
BIG = "A" * 100_000
#: the longest refusal line a command may print, whatever its input (values are quoted to 60 characters)
LONGEST_LINE = 1000

#: library functions the corpus calls, by name: the public API and the output-path checks
CALLS = {name: getattr(rm, name) for name in rm.__all__ if callable(getattr(rm, name))} | {
    "evaluate": evaluate, "format_cards": format_cards, "check_published_folder": check_published_folder,
    "check_writable_file": storage.check_writable_file, "check_writable_folder": storage.check_writable_folder,
}


def _tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` and its bytes: what a refused call must leave unchanged."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    """A working folder holding one file and one (empty) folder, and the placeholders that name them."""
    (tmp_path / "a-file.txt").write_text("not a folder\n")
    (tmp_path / "a-folder").mkdir()
    monkeypatch.chdir(tmp_path)
    names = {"{tmp}": str(tmp_path), "{file}": str(tmp_path / "a-file.txt"),
             "{dir}": str(tmp_path / "a-folder"), "{fuzz}": str(FUZZ), "{big}": BIG}
    return tmp_path, names


def _fill(value, names):
    if isinstance(value, str):
        for key, text in names.items():
            value = value.replace(key, text)
        return value
    if isinstance(value, list):
        return [_fill(v, names) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, names) for k, v in value.items()}
    return value


def assert_one_line_refusal(call, *args, **kwargs) -> RicochetError:
    """``call`` raises a RicochetError with a one-line message (any other exception fails the test)."""
    try:
        result = call(*args, **kwargs)
    except RicochetError as exc:
        text = str(exc)
        assert text.strip() and "\n" not in text, f"message is not one line: {text!r}"
        assert "Traceback" not in text
        return exc
    except Exception as exc:  # noqa: BLE001 - the point: anything else is a traceback for the user
        pytest.fail(f"{type(exc).__name__} instead of a RicochetError: {exc}")
    pytest.fail(f"wrongly accepted: returned {type(result).__name__}")


# ---------------------------------------------------------------- the library corpus

@pytest.mark.parametrize("case", LIBRARY, ids=lambda c: f"{c['call']}-{json.dumps(c['args'] or c['kwargs'])[:60]}")
def test_library_refuses_bad_arguments(case, scratch):
    tmp, names = scratch
    before, corpus = _tree(tmp), _tree(FUZZ)
    assert_one_line_refusal(CALLS[case["call"]], *_fill(case["args"], names), **_fill(case["kwargs"], names))
    assert _tree(tmp) == before, "a refused call wrote or changed files"
    assert _tree(FUZZ) == corpus


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.name)
def test_rule_files_are_refused_in_one_line(path):
    exc = assert_one_line_refusal(rm.load_rules, path)
    assert str(path) in str(exc) or path.name in str(exc), exc


def test_deep_nesting_and_huge_payouts_name_the_problem():
    assert "nested too deeply" in str(assert_one_line_refusal(rm.load_rules, FUZZ / "rules" / "deep-array.toml"))
    msg = str(assert_one_line_refusal(rm.load_rules, FUZZ / "rules" / "pays-1e308.toml"))
    assert "cover.pair" in msg and "1,000,000,000" in msg and "1e+308" in msg


@pytest.mark.parametrize("path", CHECKPOINT_FILES, ids=lambda p: p.name)
def test_files_that_are_not_checkpoints(path, tmp_path):
    ck = tmp_path / path.name
    ck.write_bytes(path.read_bytes())
    exc = assert_one_line_refusal(simulate, rounds=10, seed=1, checkpoint=ck, progress=False)
    assert str(ck) in str(exc) and "pickled" not in str(exc)
    assert ck.read_bytes() == path.read_bytes(), "a refused checkpoint was changed"


def _real_checkpoint(tmp_path) -> Path:
    ck = tmp_path / "ck.npz"
    simulate(players=2, rounds=2048, seed=3, chunk_size=1024, checkpoint=ck, progress=False)
    return ck


def _damaged_checkpoints(ck: Path):
    """(name, bytes) of checkpoints damaged in the ways a crash, a full disk or a bad copy leave them."""
    data = ck.read_bytes()
    yield "truncated", data[: len(data) // 2]
    yield "truncated-tail", data[:-30]
    yield "one-byte", data[:1]
    with zipfile.ZipFile(ck) as z:  # one member's bytes changed: the zip is fine, the hash is not
        members = {n: z.read(n) for n in z.namelist()}
    name = next(n for n in members if n.startswith("prefix_seat"))
    raw = bytearray(members[name])
    raw[-1] ^= 0x40
    members[name] = bytes(raw)
    out = ck.with_name("flipped.npz")
    with zipfile.ZipFile(out, "w") as z:
        for n, b in members.items():
            z.writestr(n, b)
    yield "bit-flipped", out.read_bytes()
    foreign = ck.with_name("foreign.npz")
    np.savez(foreign, seat=np.zeros(3))
    yield "foreign", foreign.read_bytes()
    storage.save_arrays(foreign, "some.other.schema/1", {"x": np.arange(3)})
    yield "other-schema", foreign.read_bytes()


def test_damaged_checkpoints_are_refused_in_one_line(tmp_path):
    ck = _real_checkpoint(tmp_path)
    for name, data in _damaged_checkpoints(ck):
        bad = tmp_path / f"bad-{name}.npz"
        bad.write_bytes(data)
        exc = assert_one_line_refusal(simulate, players=2, rounds=4096, seed=3, chunk_size=1024, checkpoint=bad,
                                      progress=False)
        assert str(bad) in str(exc), (name, exc)
        assert isinstance(exc, storage.DamagedFileError), (name, exc)
        assert bad.read_bytes() == data, f"{name}: a refused checkpoint was changed"


def test_checkpoint_of_another_run_and_too_short_a_run(tmp_path):
    ck = _real_checkpoint(tmp_path)
    data = ck.read_bytes()
    assert "another run" in str(assert_one_line_refusal(
        simulate, players=3, rounds=2048, seed=3, chunk_size=1024, checkpoint=ck, progress=False))
    assert "do not fit" in str(assert_one_line_refusal(
        simulate, players=2, rounds=1024, seed=3, chunk_size=1024, checkpoint=ck, progress=False))
    assert ck.read_bytes() == data


def test_unreadable_paths_are_checked_before_work(tmp_path):
    (tmp_path / "f").write_text("x")
    for bad in (tmp_path, tmp_path / "f" / "ck.npz"):
        assert str(bad) in str(assert_one_line_refusal(storage.check_writable_file, bad))
    assert storage.check_writable_file(tmp_path / "new" / "deeper" / "ck.npz") == tmp_path / "new" / "deeper" / "ck.npz"
    assert storage.check_writable_folder(tmp_path / "new") == tmp_path / "new"
    assert not (tmp_path / "new").exists(), "a check makes nothing"


# ---------------------------------------------------------------- hypothesis: the two text parsers

_PUBLISHER = (paytables_dir() / "publisher.toml").read_text(encoding="utf-8")
_TOML_BITS = ["[", "]", "{", "}", "=", '"', "'", ",", ".", "\n", " ", "#", "[[", "]]", "extends", "name", "kickout",
              "bonus", "cover", "quickdraw", "options", "pays", "hand", "1", "7", "8", "-1", "1e308", "nan", "inf",
              "true", "KKQ", "AAxx", "flush", "royal_flush", '"publisher"', "²", "\x00", "\\u0000", "0x10", "1_000"]


@st.composite
def mutated_rule_text(draw):
    """The shipped rule set with a few fragments inserted, or a document made of TOML fragments."""
    if draw(st.booleans()):
        text = _PUBLISHER
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, len(text)))
            cut = draw(st.integers(0, 20))
            bit = draw(st.one_of(st.sampled_from(_TOML_BITS), st.text(max_size=8)))
            text = text[:at] + bit + text[at + cut:]
        return text
    return "".join(draw(st.lists(st.sampled_from(_TOML_BITS), max_size=40)))


def _rules_or_error(text: str) -> None:
    try:
        assert isinstance(rm.rules_from_toml(text), RuleSet)
    except RicochetError as exc:
        assert "\n" not in str(exc), str(exc)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_rule_text())
def test_rule_text_parser_never_raises_anything_else(text):
    _rules_or_error(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_rule_text_parser_on_any_text(text):
    _rules_or_error(text)


_CARD_TOKEN = st.one_of(
    st.text(max_size=4), st.sampled_from(["As", "10h", "K♦", "♠️A", "A♠️", "1s", "Ax", "", " ", ","]),
    st.integers(-2**70, 2**70), st.integers(-1, 53), st.booleans(), st.none(), st.floats(), st.binary(max_size=3),
    st.builds(np.int64, st.integers(-5, 60)), st.builds(np.bool_, st.booleans()),
)


def _cards_or_error(call, value) -> None:
    try:
        call(value)
    except CardError as exc:
        assert "\n" not in str(exc), str(exc)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=40), st.lists(_CARD_TOKEN, max_size=8), _CARD_TOKEN))
def test_card_parsers_never_raise_anything_else(value):
    _cards_or_error(rm.parse_cards, value)
    _cards_or_error(rm.hand_value, value)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.integers(-3, 60), min_size=4, max_size=8), min_size=1, max_size=4))
def test_evaluate_refuses_anything_but_hands(rows):
    if len({len(r) for r in rows}) != 1:
        return  # a ragged list is not an array: numpy refuses it before evaluate sees it
    try:
        values = evaluate(np.array(rows))
    except CardError:
        return
    assert all(5 <= len(r) <= 7 and len(set(r)) == len(r) and min(r) >= 0 and max(r) <= 51 for r in rows)
    assert values.min() >= 0 and values.max() <= rm.evaluate.__globals__["ROYAL_FLUSH_VALUE"]


# ---------------------------------------------------------------- the command line

def _cli_case(case):
    marks = [pytest.mark.xfail(reason=case["xfail"], strict=False)] if case["xfail"] else []
    name = " ".join(case["argv"])[:70] + "".join(f" [{k}={v}]" for k, v in case.get("env", {}).items())
    return pytest.param(case["argv"], case.get("env", {}), bool(case["xfail"]), marks=marks, id=name)


@pytest.fixture(scope="module")
def guard():
    """One worker process for the module's command lines (tests/fuzz/guard.py): a crash or a hang fails its
    case, and the package is imported once, not once a command (about 1.3 s each on 2 cores: issue 37)."""
    from fuzz.guard import Guard

    with Guard() as g:
        yield g


@pytest.mark.parametrize("argv,extra_env,known_gap", [_cli_case(c) for c in CLI])
def test_cli_refuses_in_one_line(argv, extra_env, known_gap, scratch, guard):
    tmp, names = scratch
    before = _tree(tmp)
    # a known gap may refuse only after minutes of work (published --write): a refusal checked up front takes
    # seconds, so a minute is plenty to tell
    timeout = 60 if known_gap else 300
    if extra_env:  # the environment is read at the package's import: a process of its own
        env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_NUM_THREADS": "1", **_fill(extra_env, names)}
        proc = subprocess.run([sys.executable, "-m", "ricochet_math", *_fill(argv, names)], cwd=tmp, env=env,
                              capture_output=True, text=True, timeout=timeout)
    else:  # in the guard's worker, in this folder, as the entry point runs it (tests/cli_run.py)
        [r] = guard.run([f"cli_here({_fill(argv, names)!r})"], timeout=timeout, tmp=tmp)
        assert r["outcome"] == "accepted", r
        proc = subprocess.CompletedProcess(argv, r["value"]["status"], r["value"]["stdout"], r["value"]["stderr"])
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert proc.returncode == 2, (proc.returncode, proc.stdout[-500:], proc.stderr[-500:])
    assert len(lines) == 1 and lines[0].startswith("ricochet: error: "), lines
    assert len(lines[0]) <= LONGEST_LINE, f"a {len(lines[0]):,}-character line: {lines[0][:200]}"
    assert _tree(tmp) == before, "a refused command wrote or changed files"
