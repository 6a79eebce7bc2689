"""A rebuild keeps what the user put in the toolkit's folder (issue 35, the data-loss item).

Truth comes from the issue's case: ``ricochet ring report ... --out r1``, then ``r1/mine.txt`` and
``r1/tables/mine.csv`` added by hand, then the same command again: both files must survive, byte for
byte.  The rule chosen (``ricochet_math.storage.replace_folder``): the marker records every file the
toolkit wrote with its SHA-256; a rebuild replaces exactly those and keeps every other file (and empty
folder); a file of the toolkit's edited since, or a user's file where the new folder writes one, is
refused in one line before anything changes.  Every writer is checked: the casino report and the four
game reports (library), the Ring report from the CLI (the issue's command), ``ricochet design --write``
with its ``.design.json``, and the documentation's copy of the casino report.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ricochet_math import storage
from ricochet_math.errors import RicochetError, RuleError
from ricochet_math.storage import MARKER_NAME

from test_reliability import REPORTS, snapshot

ROOT = Path(__file__).resolve().parents[1]
#: each report's folder kind (its marker's ``kind``)
KINDS = {"casino": "report", "home": "home-report", "ring": "ring-report", "rococo": "rococo-report",
         "freeride": "freeride-report"}


def _write_owned(target: Path, files: dict[str, str], kind: str = "report", record: bool = True) -> tuple[str, ...]:
    """Write ``files`` as a ``kind`` folder at ``target`` the way every report does."""
    storage.prepare_output_folder(target, kind)
    tmp = storage.staging_folder(target, kind)
    try:
        for rel, text in files.items():
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp / rel).write_text(text)
        storage.write_marker(tmp, kind, record_files=record)
        return storage.replace_folder(tmp, target, kind)
    except BaseException:
        shutil.rmtree(tmp)
        raise


def _add_user_files(folder: Path) -> dict[str, bytes]:
    (folder / "mine.txt").write_text("a reviewer's notes\n")
    (folder / "tables" / "mine.csv").write_text("x,y\n1,2\n")
    return {"mine.txt": b"a reviewer's notes\n", "tables/mine.csv": b"x,y\n1,2\n"}


# ---------------------------------------------------------------- the rule, on the storage functions
def test_a_rebuild_replaces_its_own_files_and_keeps_the_users(tmp_path):
    out = tmp_path / "r"
    assert _write_owned(out, {"report.html": "v1", "tables/a.csv": "1", "tables/old.csv": "gone"}) == ()
    mark = json.loads((out / MARKER_NAME).read_text())
    assert sorted(mark["files"]) == ["report.html", "tables/a.csv", "tables/old.csv"]
    user = _add_user_files(out)
    (out / "drafts").mkdir()                        # an empty folder of the user's
    (out / "link-to-notes").symlink_to("mine.txt")  # a link of the user's: kept as a link
    os.chmod(out / "mine.txt", 0o600)
    kept = _write_owned(out, {"report.html": "v2", "tables/a.csv": "2"})
    assert sorted(kept) == ["link-to-notes", "mine.txt", "tables/mine.csv"]
    assert (out / "report.html").read_text() == "v2" and (out / "tables" / "a.csv").read_text() == "2"
    assert not (out / "tables" / "old.csv").exists(), "a file the toolkit wrote and no longer writes goes"
    for rel, data in user.items():
        assert (out / rel).read_bytes() == data
    assert (out / "mine.txt").stat().st_mode & 0o777 == 0o600
    assert (out / "drafts").is_dir() and os.readlink(out / "link-to-notes") == "mine.txt"
    # the new record holds the toolkit's files only: the user's stay the user's in every later rebuild
    assert sorted(json.loads((out / MARKER_NAME).read_text())["files"]) == ["report.html", "tables/a.csv"]
    assert [p.name for p in tmp_path.iterdir()] == ["r"], "no staging or old folder left beside it"


def test_a_toolkit_file_edited_since_is_refused_before_any_work(tmp_path):
    out = tmp_path / "r"
    _write_owned(out, {"report.html": "v1", "tables/a.csv": "1"})
    (out / "tables" / "a.csv").write_text("my correction")
    before = snapshot(tmp_path)
    with pytest.raises(RicochetError, match=r"tables/a\.csv was changed since ricochet_math wrote it") as info:
        storage.prepare_output_folder(out, "report")
    assert "\n" not in str(info.value)
    with pytest.raises(RicochetError, match="changed since"):
        _write_owned(out, {"report.html": "v2"})
    assert snapshot(tmp_path) == before, "nothing changed, no staging folder left"


def test_a_users_file_where_the_new_folder_writes_one_is_refused(tmp_path):
    out = tmp_path / "r"
    _write_owned(out, {"report.html": "v1"})
    (out / "tables").mkdir()
    (out / "tables" / "new.csv").write_text("mine")
    before = snapshot(tmp_path)
    with pytest.raises(RicochetError, match=r"tables/new\.csv is not a file ricochet_math wrote"):
        _write_owned(out, {"report.html": "v2", "tables/new.csv": "the toolkit's"})
    assert snapshot(tmp_path) == before


def test_a_marker_of_an_older_version_keeps_every_file_not_written_again(tmp_path):
    out = tmp_path / "r"
    _write_owned(out, {"report.html": "v1", "tables/a.csv": "1"}, record=False)  # as before issue 35
    user = _add_user_files(out)
    kept = _write_owned(out, {"report.html": "v2", "tables/a.csv": "2"})
    assert sorted(kept) == ["mine.txt", "tables/mine.csv"]
    for rel, data in user.items():
        assert (out / rel).read_bytes() == data


def test_a_file_added_during_the_swap_is_moved_over_never_deleted(tmp_path):
    """The old folder is removed file by file: what is neither the toolkit's nor carried over is moved."""
    old, target = tmp_path / "old", tmp_path / "target"
    _write_owned(old, {"report.html": "v1"})
    _write_owned(target, {"report.html": "v2"})
    (old / "late.txt").write_text("written in the instant of the swap")
    storage._remove_old(old, target, set())
    assert not old.exists() and (target / "late.txt").read_text() == "written in the instant of the swap"
    # an edited toolkit file cannot be moved over (the new folder has its name): the old folder stays with it
    _write_owned(old, {"report.html": "v1"})
    (old / "report.html").write_text("edited in the instant of the swap")
    storage._remove_old(old, target, set())
    assert (old / "report.html").read_text() == "edited in the instant of the swap"


def test_removing_an_owned_folder_removes_only_the_toolkits_files(tmp_path):
    out = tmp_path / "r"
    _write_owned(out, {"report.html": "v1"})
    (out / "mine.txt").write_text("keep")
    assert not storage.remove_owned_folder(out, "report")
    assert sorted(p.name for p in out.iterdir()) == [MARKER_NAME, "mine.txt"]
    (out / "mine.txt").unlink()
    assert storage.remove_owned_folder(out, "report") and not out.exists()


def test_a_report_work_folder_keeps_a_users_file(tmp_path):
    from ricochet_math.reports import jobs

    work = jobs.work_folder(tmp_path / "rep")
    (work / "job-x-0123456789ab.npz").write_bytes(b"PK")
    (work / "sim-x-0123456789ab.npz").write_bytes(b"PK")
    (work / "notes.txt").write_text("mine")
    jobs.remove_work_folder(work)
    assert sorted(p.name for p in work.iterdir()) == [MARKER_NAME, "notes.txt"]


def test_the_docs_report_copy_follows_the_rule(tmp_path):
    src = tmp_path / "src"
    (src / "tables").mkdir(parents=True)
    (src / "report.html").write_text("v1")
    (src / "tables" / "a.csv").write_text("1")
    copy = {"report.html": src / "report.html", "tables/a.csv": src / "tables" / "a.csv"}
    dst = tmp_path / "_report" / "report"
    storage.copy_to_owned_folder(copy, dst, "docs-report-copy")
    (dst / "mine.txt").write_text("mine")
    (src / "report.html").write_text("v2")
    assert storage.copy_to_owned_folder(copy, dst, "docs-report-copy") == ("mine.txt",)
    assert (dst / "report.html").read_text() == "v2" and (dst / "mine.txt").read_text() == "mine"
    (dst / "report.html").write_text("edited")
    with pytest.raises(RicochetError, match="report.html was changed since"):
        storage.copy_to_owned_folder(copy, dst, "docs-report-copy")
    # docs/conf.py makes its copy with this function (and so by this rule), not by copying files itself
    conf = (ROOT / "docs" / "conf.py").read_text()
    assert "copy_to_owned_folder(" in conf and "shutil.copyfile(_src, _to)" not in conf


# ---------------------------------------------------------------- every report writer
# every writer in process; the Ring report also as the issue's own command, below, from the CLI (slow)
@pytest.mark.parametrize("report", sorted(REPORTS))
def test_every_report_rebuild_keeps_the_users_files(tmp_path, report):
    """Each writer rebuilds a folder of its kind that holds its own (recorded) files and the user's."""
    out = tmp_path / "r"
    _write_owned(out, {"report.html": "an older build", "tables/gone.csv": "a table no longer written"},
                 kind=KINDS[report])
    user = _add_user_files(out)
    result = REPORTS[report](out)
    for rel, data in user.items():
        assert (out / rel).read_bytes() == data, f"{report}: {rel} lost"
    assert not (out / "tables" / "gone.csv").exists() and (out / "report.html").read_text() != "an older build"
    assert set(result.kept) == set(user) and "kept 2 files of yours" in result.summary()
    html = (out / "report.html").read_bytes()
    (out / "report.html").write_bytes(html + b"<!-- my note -->")
    before = snapshot(tmp_path)
    with pytest.raises(RicochetError, match="report.html was changed since"):
        REPORTS[report](out)
    assert snapshot(tmp_path) == before


@pytest.mark.slow  # three Ring reports in fresh processes: about a minute (issue 37)
def test_the_issues_ring_command_keeps_both_files(tmp_path):
    """The issue's own command, twice, with the user's two files added in between."""
    cmd = [sys.executable, "-m", "ricochet_math", "ring", "report", "--games", "10", "--pair-games", "10",
           "--seed", "1", "--no-progress", "--out", "r1"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    first = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env)
    assert first.returncode == 0, first.stderr
    user = _add_user_files(tmp_path / "r1")
    again = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env)
    assert again.returncode == 0, again.stderr
    for rel, data in user.items():
        assert (tmp_path / "r1" / rel).read_bytes() == data
    assert "kept 2 files of yours in it: mine.txt, tables/mine.csv" in again.stdout
    (tmp_path / "r1" / "tables" / "mine.csv").rename(tmp_path / "r1" / "tables" / "seats.csv.mine")
    (tmp_path / "r1" / "tables" / "seats.csv").write_text("edited")
    refused = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.strip().splitlines() == [refused.stderr.strip()] and "tables/seats.csv" in refused.stderr


# ---------------------------------------------------------------- ricochet design --write
@pytest.fixture(scope="module")
def tiny_design():
    from ricochet_math.design.rule_set import design_rule_set
    from ricochet_math.rules.ruleset import load_rules

    return design_rule_set(load_rules("publisher"), (0.95, 0.97), reading="pot-odds-final", vary="kickout",
                           players=(2,), grid=("KK", "AAQ"), search_precision=2.0,
                           confirm_precision=2.0, others=(), seed=9)


def test_design_write_replaces_only_its_own_unedited_pair(tiny_design, tmp_path):
    from ricochet_math.design.rule_set import check_design_files

    path = tiny_design.write_toml(tmp_path / "d.toml")
    side = tmp_path / "d.design.json"
    tiny_design.write_toml(path)  # its own pair, unedited: rewritten
    record = json.loads(side.read_text())
    assert record["rules_file_sha256"] == storage.file_sha256(path) and "record_sha256" in record
    path.write_text(path.read_text() + "# my change\n")
    before = snapshot(tmp_path)
    with pytest.raises(RuleError, match="was not written by ricochet design .or was edited since"):
        tiny_design.write_toml(path)
    assert snapshot(tmp_path) == before
    # a user's file of that name with no record beside it, and a record edited by hand: refused too
    mine = tmp_path / "mine.toml"
    mine.write_text('extends = "publisher"\n')
    with pytest.raises(RuleError, match="mine.toml exists and was not written"):
        check_design_files(mine)
    tiny_design.write_toml(tmp_path / "e.toml")
    rec = json.loads((tmp_path / "e.design.json").read_text())
    rec["band"] = [0.9, 1.0]
    (tmp_path / "e.design.json").write_text(json.dumps(rec))
    with pytest.raises(RuleError, match="e.design.json exists and is not a design record"):
        check_design_files(tmp_path / "e.toml")


def test_cli_design_write_refuses_a_users_file_before_the_run(tmp_path):
    mine = tmp_path / "mine.toml"
    mine.write_text('extends = "publisher"\n')
    before = snapshot(tmp_path)
    r = subprocess.run([sys.executable, "-m", "ricochet_math", "design", "--band", "95.97", "96.91",
                        "--write", str(mine)], capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "mine.toml exists and was not written" in r.stderr
    assert snapshot(tmp_path) == before
