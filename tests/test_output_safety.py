"""Nothing lost, nothing overwritten, nothing executed (issue 12, the data-loss items).

Truth comes from the issue's cases: an existing folder that is not a report
given as ``--out`` (with ``precious.txt`` and ``sub/``), ``--out .`` inside a
project, and a pickle planted in the report's work folder.  Each must leave
the user's files exactly as they were; a planted file must never run.
"""
from __future__ import annotations

import json
import pickle
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest
from cli_run import run_cli

from ricochet_math.errors import RicochetError, RuleError
from ricochet_math.reports import build as rp
from ricochet_math.reports import jobs
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.storage import (
    MARKER_NAME, DamagedFileError, atomic_write, check_output_folder, is_owned_folder, load_arrays,
    save_arrays,
)

TINY = dict(players=[1], size="tiny", seed=7, progress=False, reproducible=True)


def _snapshot(root: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None) for p in sorted(root.rglob("*"))}


def _user_folder(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "precious.txt").write_text("three years of notes\n")
    (root / "sub").mkdir(exist_ok=True)
    (root / "sub" / "thesis.txt").write_text("chapter 1\n")
    return root


def _ricochet(*args, cwd=None):
    """``ricochet ARGS`` in this process (tests/cli_run.py), in ``cwd``."""
    return run_cli(*args, cwd=cwd)


# ---------------------------------------------------------------- storage
def test_arrays_round_trip_and_damage_is_named(tmp_path):
    path = tmp_path / "x.npz"
    a = {"sums": np.arange(6.0).reshape(2, 3), "names": np.array(["a", "bb"])}
    save_arrays(path, "test/1", a, {"note": "hi"})
    head, back = load_arrays(path, "test/1")
    assert head["note"] == "hi" and set(back) == set(a)
    assert np.array_equal(back["sums"], a["sums"]) and back["sums"].dtype == a["sums"].dtype
    with pytest.raises(DamagedFileError, match="expected 'other/1'"):
        load_arrays(path, "other/1")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])  # truncated
    with pytest.raises(DamagedFileError, match=r"x\.npz: cannot be read"):
        load_arrays(path, "test/1")
    path.write_bytes(b"")  # empty
    with pytest.raises(DamagedFileError):
        load_arrays(path, "test/1")
    path.write_text("just some text\n")  # a text file
    with pytest.raises(DamagedFileError):
        load_arrays(path, "test/1")


def test_tampered_arrays_fail_their_hash(tmp_path):
    path = tmp_path / "x.npz"
    save_arrays(path, "test/1", {"v": np.zeros(4)})
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["v"] = np.ones(4)
    np.savez(path, **arrays)
    with pytest.raises(DamagedFileError, match="does not match its hash"):
        load_arrays(path, "test/1")


def test_object_arrays_are_neither_stored_nor_loaded(tmp_path):
    with pytest.raises(TypeError):
        save_arrays(tmp_path / "x.npz", "test/1", {"o": np.array([object()], dtype=object)})
    planted = tmp_path / "planted.npz"
    np.savez(planted, x=np.array([{"a": 1}], dtype=object))  # pickled inside
    with pytest.raises(DamagedFileError):
        load_arrays(planted, "test/1")


def test_atomic_write_leaves_the_old_file_on_error(tmp_path):
    path = tmp_path / "f.bin"
    path.write_bytes(b"old")

    def fail(fh):
        fh.write(b"half")
        raise OSError("disk full")

    with pytest.raises(OSError):
        atomic_write(path, fail)
    assert path.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["f.bin"]


def test_output_folder_rules(tmp_path):
    user = _user_folder(tmp_path / "user")
    with pytest.raises(RicochetError, match="not written by ricochet_math"):
        check_output_folder(user, "report")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert check_output_folder(empty, "report") == empty
    legacy = tmp_path / "legacy"
    (legacy / "tables").mkdir(parents=True)
    for name in ("report.html", "report.pdf", "tables/main_game.csv"):
        (legacy / name).write_text("x")
    # files that look like a report's are no proof (issue 30: a user's report.html and tables/*.csv were
    # deleted): only the marker is
    assert not is_owned_folder(legacy, "report")
    with pytest.raises(RicochetError, match="not written by ricochet_math"):
        check_output_folder(legacy, "report")
    file = tmp_path / "file.txt"
    file.write_text("x")
    with pytest.raises(RicochetError, match="is not a folder"):
        check_output_folder(file, "report")
    link = tmp_path / "link"
    link.symlink_to(user)
    with pytest.raises(RicochetError, match="symbolic link"):
        check_output_folder(link, "report")


# ---------------------------------------------------------------- the report
def test_report_refuses_a_folder_it_did_not_write_before_any_work(tmp_path):
    user = _user_folder(tmp_path / "mine")
    before = _snapshot(tmp_path)
    t0 = time.perf_counter()
    with pytest.raises(RicochetError, match="not written by ricochet_math"):
        rp.build_report(out_dir=user, **TINY)
    assert time.perf_counter() - t0 < 10, "refused before the computations"
    assert _snapshot(tmp_path) == before, "nothing created, changed or deleted"


def test_cli_report_out_refused_with_one_line(tmp_path):
    user = _user_folder(tmp_path / "project")
    before = _snapshot(tmp_path)
    r = _ricochet("report", "--players", "1", "--size", "tiny", "--out", str(user), "--quiet")
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ricochet: error:") and str(user) in lines[0], r.stderr
    assert "Traceback" not in r.stderr
    assert _snapshot(tmp_path) == before


def test_cli_report_out_dot_inside_a_project(tmp_path):
    project = _user_folder(tmp_path / "project")
    (project / "src").mkdir()
    (project / "src" / "main.py").write_text("print('hi')\n")
    before = _snapshot(tmp_path)
    r = _ricochet("report", "--players", "1", "--size", "tiny", "--out", ".", "--quiet", cwd=project)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert _snapshot(tmp_path) == before


@pytest.fixture(scope="module")
def kept_work(tmp_path_factory):
    """A tiny report built with its work folder kept (as a stopped build would leave it)."""
    root = tmp_path_factory.mktemp("kept")
    mp = pytest.MonkeyPatch()
    mp.setattr(jobs, "remove_work_folder", lambda work: None)
    try:
        first = rp.build_report(out_dir=root / "a", **TINY)
    finally:
        mp.undo()
    work = root / ".a.work"
    assert not list(work.glob("*.pkl"))
    saved = root / "saved-work"  # a copy: the tests below rebuild "a", which removes its work folder
    saved.mkdir()
    for p in work.iterdir():
        (saved / p.name).write_bytes(p.read_bytes())
    stored = sorted(saved.glob("job-*.npz"))
    assert stored, "finished jobs are stored as data"
    return root, first, stored


def test_report_marks_its_folder_and_replaces_only_its_own(kept_work):
    root, first, _ = kept_work
    assert (root / "a" / MARKER_NAME).is_file()
    again = rp.build_report(out_dir=root / "a", **TINY)  # its own folder: replaced
    assert (root / "a" / "report.html").is_file() and again.out_dir == first.out_dir


def test_resumed_report_is_identical(kept_work, tmp_path):
    root, first, stored = kept_work
    copy = tmp_path / ".b.work"
    copy.mkdir()
    for p in stored[0].parent.iterdir():
        (copy / p.name).write_bytes(p.read_bytes())
    resumed = rp.build_report(out_dir=tmp_path / "b", **TINY)
    names = sorted(p.name for p in (first.out_dir / "tables").glob("*.csv") if p.name != "provenance.csv")
    assert len(names) > 10
    for name in names:  # every figure read back from the stored jobs equals the computed one, to the bit
        assert (resumed.out_dir / "tables" / name).read_bytes() == (first.out_dir / "tables" / name).read_bytes()
    assert not copy.exists(), "the work folder is removed when the report is complete"


class _Payload:
    """Unpickling this touches a file: proof that a pickle ran."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (Path.touch, (Path(self.path),))


def test_planted_pickles_never_run(kept_work, tmp_path, capsys):
    root, first, stored = kept_work
    sentinel = tmp_path / "pwned"
    work = tmp_path / ".c.work"  # a work folder of ours (its marker), with every stored job replaced
    work.mkdir()
    (work / MARKER_NAME).write_bytes((stored[0].parent / MARKER_NAME).read_bytes())
    for p in stored:  # every stored job replaced by a pickle, as raw file and inside an npz
        (work / p.name).write_bytes(pickle.dumps(_Payload(sentinel)))
    (work / "job-extra.pkl").write_bytes(pickle.dumps(_Payload(sentinel)))
    inner = work / stored[0].name
    np.savez(inner, x=np.array([_Payload(sentinel)], dtype=object))
    out = rp.build_report(out_dir=tmp_path / "c", **TINY)
    assert not sentinel.exists(), "a planted pickle was executed"
    assert (out.out_dir / "tables" / "main_game.csv").read_bytes() == \
        (first.out_dir / "tables" / "main_game.csv").read_bytes()
    assert "running that job again" in capsys.readouterr().err


def test_damaged_job_file_is_recomputed(kept_work, tmp_path):
    root, first, stored = kept_work
    work = tmp_path / ".d.work"
    work.mkdir()
    (work / MARKER_NAME).write_bytes((stored[0].parent / MARKER_NAME).read_bytes())
    for p in stored:
        data = p.read_bytes()
        (work / p.name).write_bytes(data[: len(data) // 3])
    with zipfile.ZipFile(stored[0]) as z:  # a real archive, but not ours
        assert "__header__.npy" in z.namelist()
    out = rp.build_report(out_dir=tmp_path / "d", **TINY)
    assert (out.out_dir / "tables" / "main_game.csv").read_bytes() == \
        (first.out_dir / "tables" / "main_game.csv").read_bytes()


def test_foreign_work_folder_is_refused_untouched(tmp_path):
    work = tmp_path / ".e.work"
    work.mkdir()
    (work / "notes.txt").write_text("mine\n")
    before = _snapshot(tmp_path)
    with pytest.raises(RicochetError, match="work folder"):
        rp.build_report(out_dir=tmp_path / "e", **TINY)
    assert _snapshot(tmp_path) == before


# ---------------------------------------------------------------- names that become paths
@pytest.mark.parametrize("name", ["../../victim3", "a/b", "..", ".hidden", "", "x" * 101, "a\\b", "name with space",
                                  "C:evil", "~root"])
def test_rule_set_names_are_plain(tmp_rules, name):
    path = tmp_rules(f'extends = "publisher"\nname = {json.dumps(name)}\n')
    with pytest.raises(RuleError, match=r"key 'name': must be a plain name"):
        load_rules(path)


def test_a_name_from_the_file_stem_is_made_plain(tmp_rules, default_rules):
    assert load_rules(tmp_rules('extends = "publisher"\n', name="my rules (v2).toml")).name == "my-rules-v2"
    assert load_rules(tmp_rules('extends = "publisher"\n', name="..weird..toml")).name == "weird"
    with pytest.raises(RuleError, match="plain name"):
        default_rules.replace(name="../x")


def test_cli_report_with_a_hostile_rule_name_writes_nothing(tmp_path):
    project = tmp_path / "project"
    (project / "reports").mkdir(parents=True)
    evil = project / "evil.toml"
    evil.write_text('extends = "publisher"\nname = "../../victim3"\n')
    victim = tmp_path / "victim3"
    victim.mkdir()
    (victim / "keep.txt").write_text("mine\n")
    before = _snapshot(tmp_path)
    r = _ricochet("report", "--rules", str(evil), "--players", "1", "--size", "tiny", "--quiet", cwd=project)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "key 'name'" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert _snapshot(tmp_path) == before


@pytest.mark.parametrize("check", ["file", "folder", "report folder"])
def test_a_name_the_system_refuses_is_one_short_line_from_the_library(tmp_path, check):
    """A 100,000-character name (the system refuses it) from a library call: one short RicochetError line,
    not the OSError that quoted the whole name (issue 35)."""
    from ricochet_math.storage import check_writable_file, check_writable_folder, prepare_output_folder

    call = {"file": check_writable_file, "folder": check_writable_folder,
            "report folder": lambda p: prepare_output_folder(p, "report")}[check]
    with pytest.raises(RicochetError, match="File name too long") as info:
        call(tmp_path / ("A" * 100_000))
    assert "\n" not in str(info.value) and len(str(info.value)) < 300
    import ricochet_math as rm
    with pytest.raises(RicochetError, match="checkpoint .*File name too long"):
        rm.simulate(rounds=10, checkpoint="A" * 100_000)
