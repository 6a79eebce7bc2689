"""Nothing touched, nothing crashes (issue 30): output folders, caches, the PDF and the environment.

Every case is one the issue found: a folder of the user's own that looks like a report
(``report.html``, ``tables/mydata.csv``, no marker) given as ``--out``; ``--out`` a symbolic link; an
empty folder of mode 700; ``NUMBA_CACHE_DIR`` shared with other packages; a staging folder left by a
killed run; an output folder whose parent can never be written (``/proc``); a cache with a correct
hash but forged content; two ``--reproducible`` PDFs; environment variables that broke numpy and
numba.  Each test snapshots the tree (bytes and modes) around the call.
"""
from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ricochet_math as rm
from ricochet_math import _numba, storage
from ricochet_math.errors import RicochetError
from ricochet_math.reports import build as rp
from ricochet_math.reports.document import Section
from ricochet_math.engine.sums import ROUND_FIELDS, SEAT_FIELDS, ChunkSums
from ricochet_math.reports.folder import write_report_folder

ROOT = Path(__file__).resolve().parents[1]


def snapshot(root: Path) -> dict[str, tuple[int, bytes | None]]:
    """Every path under ``root`` (links not followed): its mode and, for a file, its bytes."""
    out = {}
    for p in sorted(root.rglob("*")):
        st = p.lstat()
        out[str(p.relative_to(root))] = (st.st_mode, p.read_bytes() if stat.S_ISREG(st.st_mode) else
                                         (os.readlink(p).encode() if stat.S_ISLNK(st.st_mode) else None))
    return out


def _lookalike(folder: Path) -> Path:
    """A user's own folder holding exactly what an old report held: no marker."""
    (folder / "tables").mkdir(parents=True)
    (folder / "report.html").write_text("<p>my own analysis</p>\n")
    (folder / "tables" / "mydata.csv").write_text("a,b\n1,2\n")
    return folder


def _ricochet(*args, env=None, timeout=300, cwd=None):
    full = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    return subprocess.run([sys.executable, "-m", "ricochet_math", *args], capture_output=True, text=True,
                          timeout=timeout, env=full, cwd=cwd)


# Each report's library call, with its smallest arguments; every one must refuse a bad target
# before any work.
REPORTS = {
    "casino": lambda out: rp.build_report(out_dir=out, players=[1], size="tiny", seed=7, progress=False,
                                          reproducible=True),
    "home": lambda out: rm.home.build_report(out, size="tiny", seed=1),
    "ring": lambda out: rm.ring.build_report(out, games=10, pair_games=10, seed=1, timing_holdings=1),
    "rococo": lambda out: rm.rococo.build_report(out, size="tiny", seed=1),
    "freeride": lambda out: rm.freeride.build_report(out, games=10, rounds=10, seed=1),
}


def _refused_quickly(call, out, match):
    t0 = time.perf_counter()
    with pytest.raises(RicochetError, match=match) as info:
        call(out)
    assert time.perf_counter() - t0 < 15, "refused before the work"
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("report", sorted(REPORTS))
def test_a_users_folder_that_looks_like_a_report_is_refused(tmp_path, report):
    user = _lookalike(tmp_path / "mine")
    before = snapshot(tmp_path)
    _refused_quickly(REPORTS[report], user, "not written by ricochet_math")
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("report", sorted(REPORTS))
def test_a_link_given_as_the_output_folder_is_never_followed(tmp_path, report):
    target = tmp_path / "target"
    target.mkdir(mode=0o700)
    (tmp_path / "link").symlink_to(target)
    before = snapshot(tmp_path)
    _refused_quickly(REPORTS[report], tmp_path / "link", "symbolic link")
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("report", sorted(REPORTS))
def test_an_output_folder_that_can_never_be_written_is_refused_before_the_work(report):
    _refused_quickly(REPORTS[report], Path("/proc/x"), "cannot write in folder")


def test_cli_ring_report_in_proc_is_one_line():
    r = _ricochet("ring", "report", "--out", "/proc/x", "--games", "100", timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "/proc" in r.stderr


def test_cli_casino_report_keeps_a_users_lookalike_folder(tmp_path):
    user = _lookalike(tmp_path / "mine")
    before = snapshot(tmp_path)
    r = _ricochet("report", "--size", "tiny", "--players", "2", "--out", str(user), "--quiet")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert snapshot(tmp_path) == before


def _tiny_sections():
    s = Section("1", "Numbers")
    s.table("Numbers", ["x", "y"], [["1", "2"]], csv="numbers", data=pd.DataFrame({"x": [1], "y": [2]}))
    return [s]


def _write(out):
    return write_report_folder(out, _tiny_sections(), {}, "T", ["sub"], "2026-01-01", "test-report", {"seed": 1})


def test_an_empty_folder_keeps_its_mode_and_a_new_one_gets_the_umask(tmp_path):
    out = tmp_path / "private"
    out.mkdir()
    out.chmod(0o700)
    out = storage.prepare_output_folder(out, "test-report")
    _write(out)
    assert stat.S_IMODE(out.stat().st_mode) == 0o700, "the user's 700 was widened"
    assert (out / "report.html").is_file() and (out / storage.MARKER_NAME).is_file()
    _write(out)  # our own folder now: replaced, mode still kept
    assert stat.S_IMODE(out.stat().st_mode) == 0o700
    old = os.umask(0o027)
    try:
        fresh = storage.prepare_output_folder(tmp_path / "new", "test-report")
        _write(fresh)
    finally:
        os.umask(old)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o750
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new", "private"], "no staging folder left"


def test_staging_folders_of_killed_runs_are_removed_and_nothing_else(tmp_path):
    out = tmp_path / "rep"
    # a run killed while writing (os._exit: no clean-up), its staging folder proven ours by name and marker
    code = ("import os, sys; from ricochet_math import storage; "
            "p = storage.staging_folder(sys.argv[1], 'test-report'); (p / 'report.html').write_text('half'); "
            "os._exit(9)")
    subprocess.run([sys.executable, "-c", code, str(out)], env=dict(os.environ, PYTHONPATH=str(ROOT)),
                   check=False, timeout=120)
    killed = [p for p in tmp_path.iterdir() if p.name.startswith(".rep.tmp-")]
    assert len(killed) == 1
    live = storage.staging_folder(out, "test-report")      # this process: still writing
    lookalike = tmp_path / ".rep.tmp-users"                  # named alike, no marker
    lookalike.mkdir()
    (lookalike / "notes.txt").write_text("mine\n")
    other = storage.staging_folder(tmp_path / "other", "test-report")  # another target's
    link = tmp_path / ".rep.tmp-link"                         # a link to a staging folder: never followed
    link.symlink_to(killed[0])
    keep = {p.name: snapshot(p) if p.is_dir() and not p.is_symlink() else None
            for p in (live, lookalike, other, link)}
    storage.prepare_output_folder(out, "test-report")
    assert not killed[0].exists() or killed[0].is_symlink()
    for p in (live, lookalike, other):
        assert snapshot(p) == keep[p.name]
    assert link.is_symlink()


def test_a_killed_report_leaves_nothing_after_the_next_run(tmp_path):
    out = tmp_path / "rep"
    code = ("import os, sys; from ricochet_math.reports import folder; from ricochet_math import storage; "
            "folder.replace_folder = lambda *a, **k: os._exit(9); "   # killed just before the move
            "from tests.test_reliability import _write; _write(storage.prepare_output_folder(sys.argv[1], "
            "'test-report'))")
    subprocess.run([sys.executable, "-c", code, str(out)], env=dict(os.environ, PYTHONPATH=str(ROOT)),
                   cwd=ROOT, check=False, timeout=300)
    assert [p.name[:9] for p in tmp_path.iterdir()] == [".rep.tmp-"]
    _write(storage.prepare_output_folder(out, "test-report"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep"]


def test_a_missing_parent_is_made_and_a_file_in_the_way_refused(tmp_path):
    out = storage.prepare_output_folder(tmp_path / "a" / "b" / "rep", "test-report")
    assert out.parent.is_dir() and not out.exists()
    (tmp_path / "f").write_text("x")
    with pytest.raises(RicochetError, match="is a file, not a folder"):
        storage.prepare_output_folder(tmp_path / "f" / "rep", "test-report")
    with pytest.raises(RicochetError, match="root of the file system"):
        storage.prepare_output_folder("/", "test-report")


# ---------------------------------------------------------------- numba's kernel caches
def test_cache_subfolder_rule_is_numbas():
    from numba.core.caching import _CacheLocator

    source = ROOT / "ricochet_math" / "engine" / "kernel.py"
    assert _numba.numba_cache_subfolder(source.parent) == _CacheLocator.get_suitable_cache_subpath(str(source))


def test_stale_cache_guard_drops_only_the_packages_own_kernels(tmp_path, monkeypatch):
    import numba

    src = tmp_path / "venv-inside-checkout" / "pkg"
    (src / "sub").mkdir(parents=True)
    (src / "sub" / "k.py").write_text("from ricochet_math._numba import njit\n")
    (src / "__init__.py").write_text("")
    cache = tmp_path / "numba-cache"
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(cache))
    ours = cache / _numba.numba_cache_subfolder(src / "sub")
    ours.mkdir(parents=True)
    for name in ("k.f-1.py311.nbi", "k.f-1.py311.1.nbc"):
        (ours / name).write_text("stale")
    # another package's caches, in the places the old guard swept: under the checkout's path and beside ours
    theirs = [cache / _numba.numba_cache_subfolder(tmp_path / "venv-inside-checkout" / "site-packages" / "other"),
              cache / "venv-inside-checkout" / "lib", cache / tmp_path.relative_to(tmp_path.anchor)]
    for folder in theirs:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "other.g-3.py311.nbi").write_text("theirs")
        (folder / "other.g-3.py311.1.nbc").write_text("theirs")
    before = snapshot(cache)
    assert _numba.drop_stale_caches(src, stamp_dir=tmp_path / "stamp")
    assert list(ours.iterdir()) == [], "the package's own stale kernels are dropped"
    after = snapshot(cache)
    assert ({k: v for k, v in before.items() if not k.startswith(ours.name + "/")}
            == {k: v for k, v in after.items() if not k.startswith(ours.name + "/")}), \
        "another package's caches were touched"


# ---------------------------------------------------------------- caches validated on load
def _fresh_python(code, env):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(ROOT), **env))


#: the forged caches, by what is wrong with them (the fast suite tries the first; -m slow every one)
FORGED_CASES = ("forged 5-card value", "offsets5 shape", "values dtype", "out-of-range offset", "category")


@pytest.mark.parametrize("cases", [FORGED_CASES[:1], pytest.param(FORGED_CASES, marks=pytest.mark.slow)],
                         ids=["one", "every"])
def test_a_tables_cache_with_wrong_content_is_refused_by_name(tmp_path, cases):
    """Each forged cache costs two fresh processes (about 3 s on 2 cores): issue 37's fast suite tries one."""
    from ricochet_math.evaluator import tables

    env = {"RICOCHET_CACHE_DIR": str(tmp_path)}
    # the first hand evaluated builds the cache (the package itself loads its parts on first use)
    r = _fresh_python("import ricochet_math as rm; rm.hand_value(rm.parse_cards('As Ks Qs Js Ts'))", env)
    assert r.returncode == 0, r.stderr
    [path] = tmp_path.glob("tables-*.npz")
    good = tables.build_tables()
    forgeries = {
        "offsets5 shape": {"offsets5": good.offsets5[:10]},
        "values dtype": {"values7": good.values7.astype(np.int64)},
        "forged 5-card value": {"values5": np.where(good.values5 == 5000, 5001, good.values5).astype(np.int16)},
        "out-of-range offset": {"offsets6": np.full_like(good.offsets6, 10**6)},
        "category": {"category": np.zeros_like(good.category)},
    }
    assert set(forgeries) == set(FORGED_CASES)
    for name in cases:
        forged = forgeries[name]
        arrays = {f: getattr(good, f) for f in tables.Tables.__dataclass_fields__} | forged
        np.savez(path, **arrays)
        r = _ricochet("hands", "As Ks Qs Js Ts", env=env, timeout=300)
        assert r.returncode == 0 and "Royal flush" in r.stdout, (name, r.stderr)
        notes = [line for line in r.stderr.splitlines() if line]
        assert len(notes) == 1 and str(path) in notes[0] and "not valid" in notes[0], (name, r.stderr)
        assert tables.check_tables(tables.Tables(**arrays)) is not None, name
        r = _ricochet("hands", "As Ks Qs Js Ts", env=env, timeout=300)  # rebuilt over it
        assert r.returncode == 0 and r.stderr == "", (name, r.stderr)
    assert tables.check_tables(good) is None


@pytest.mark.slow
def test_a_forged_rococo_cache_is_refused(tmp_path, monkeypatch):
    """The issue's forgery: a cache with a correct hash whose keeps are not the fixed point changed
    ``rococo simulate``'s games per pot from 242% to 557%, silently."""
    from ricochet_math.evaluator import tables
    from ricochet_math.games.rococo import solver

    monkeypatch.setenv("RICOCHET_CACHE_DIR", str(tmp_path))
    solver.solve_draws.cache_clear()
    good = solver.solve_draws(1)
    assert solver.check_solution(good) is None
    path = solver._cache_path(1)
    assert path.is_file()
    head, arrays = storage.load_arrays(path, solver._CACHE_SCHEMA)
    forged = dict(arrays, hand_keep=np.zeros_like(arrays["hand_keep"]),
                  class_keep=np.zeros_like(arrays["class_keep"]))  # everybody keeps the first two cards
    extra = {k: v for k, v in head.items() if k not in ("tool", "schema", "sha256")}
    storage.save_arrays(path, solver._CACHE_SCHEMA, forged, extra, compressed=True)
    solver.solve_draws.cache_clear()
    again = solver.solve_draws(1)
    assert np.array_equal(again.hand_keep, good.hand_keep)
    for name, change in {"share": lambda a: a * 2, "final": lambda a: a[::-1].copy()}.items():
        storage.save_arrays(path, solver._CACHE_SCHEMA, dict(arrays, **{name: change(arrays[name])}), extra,
                            compressed=True)
        solver.solve_draws.cache_clear()
        assert np.array_equal(solver.solve_draws(1).final, good.final), name
    solver.solve_draws.cache_clear()
    del tables


# ---------------------------------------------------------------- the PDF, the environment
def test_two_pdfs_of_the_same_html_are_equal_bytes(tmp_path, monkeypatch):
    from ricochet_math.reports import render

    if render.pdf_available():
        pytest.skip(render.pdf_available())
    html = tmp_path / "r.html"
    render.render_html(html, _tiny_sections(), "T", ["sub ± 1"], "2026-01-01", pdf=True)
    render.render_pdf(html, tmp_path / "a.pdf")
    time.sleep(1.1)  # the font timestamp had one-second resolution
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "junk")  # ignored for the fonts, no ValueError
    render.render_pdf(html, tmp_path / "b.pdf")
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    assert os.environ["SOURCE_DATE_EPOCH"] == "junk"


@pytest.mark.parametrize("name, value", [("SOURCE_DATE_EPOCH", "junk"), ("SOURCE_DATE_EPOCH", "-5"),
                                         ("NUMBA_NUM_THREADS", "0"), ("NUMBA_NUM_THREADS", "-1"),
                                         ("NUMBA_NUM_THREADS", "100000")])
def test_environment_that_broke_the_libraries_is_one_line(name, value):
    r = _ricochet("hands", "As Ks Qs Js Ts", env={name: value}, timeout=300)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1 and name in r.stderr, r.stderr


def test_library_import_survives_a_bad_environment():
    r = _fresh_python("import ricochet_math as rm, ricochet_math.environment as e; "
                      "print(rm.hand_value('As Ks Qs Js Ts'), len(e.PROBLEMS))",
                      {"SOURCE_DATE_EPOCH": "junk", "NUMBA_NUM_THREADS": "0"})
    assert r.returncode == 0 and r.stdout.split() == ["7461", "2"], r.stderr


def test_output_to_a_full_device_and_an_ascii_terminal():
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "ricochet_math", "rules"], stdout=full, stderr=subprocess.PIPE,
                           text=True, timeout=300, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "No space left" in r.stderr, r.stderr
    r = _ricochet("home", "play", "--players", "3", "--seed", "1", env={"PYTHONIOENCODING": "ascii"})
    assert r.returncode == 0 and "Traceback" not in r.stderr and "\\u2660" in r.stdout, r.stderr


# ---------------------------------------------------------------- checkpoints a hostile file can forge
def _forge(ck: Path, out: Path, *, head=None, **arrays):
    """``ck`` re-saved as ``out`` with some arrays or header fields replaced, under a correct hash."""
    from ricochet_math.solvers import montecarlo as mc

    h, a = storage.load_arrays(ck, mc._CHECKPOINT_SCHEMA)
    extra = {k: v for k, v in h.items() if k not in ("tool", "schema", "sha256")} | (head or {})
    storage.save_arrays(out, mc._CHECKPOINT_SCHEMA, a | arrays, extra)
    return out


def test_forged_checkpoints_are_refused_and_a_true_one_resumes_exactly(tmp_path):
    from ricochet_math.solvers import montecarlo as mc
    from ricochet_math.storage import DamagedFileError

    run = dict(players=2, seed=3, chunk_size=1024, progress=False)
    ck = tmp_path / "ck.npz"
    half = mc.simulate(rounds=2048, checkpoint=ck, **run)          # two chunks, in the prefix
    _, a = storage.load_arrays(ck, mc._CHECKPOINT_SCHEMA)
    seat = a["prefix_seat"]

    one_chunk = {f"chunks_{k}": (a[f"prefix_{k}"] / 2)[None] for k in ChunkSums.KEYS}
    net = SEAT_FIELDS.index("net")
    win = SEAT_FIELDS.index("win")
    rounds_col = ROUND_FIELDS.index("rounds")
    forged = {
        "nan sum": dict(prefix_seat=np.where(np.arange(seat.size).reshape(seat.shape) == net, np.nan, seat)),
        "wrong shape": dict(prefix_seat=seat[:1]),
        "negative prefix": dict(head={"prefix_chunks": -1, "prefix_rounds": -1024}),
        "rounds do not add up": dict(prefix_round=np.where(np.arange(a["prefix_round"].size) == rounds_col, 4096.0,
                                                           a["prefix_round"])),
        "more wins than rounds": dict(prefix_seat=seat + np.where(np.arange(seat.shape[1]) == win, 5000.0, 0)),
        "money beyond the rules": dict(prefix_seat=seat + np.where(np.arange(seat.shape[1]) == net, 1e30, 0)),
        "chunk index below the prefix": dict(index=np.array([1]), lengths=np.array([1024]), **one_chunk),
        "chunk index out of range": dict(index=np.array([9]), lengths=np.array([1024]), **one_chunk),
        "chunk repeated": dict(index=np.array([2, 2]), lengths=np.array([1024, 1024]),
                               **{k: np.concatenate([v, v]) for k, v in one_chunk.items()}),
        "chunk of the wrong length": dict(index=np.array([2]), lengths=np.array([512]), **one_chunk),
        "index of the wrong type": dict(index=np.array([2.0]), lengths=np.array([1024]), **one_chunk),
    }
    for name, change in forged.items():
        bad = _forge(ck, tmp_path / f"{name}.npz", **change)
        before = bad.read_bytes()
        with pytest.raises(RicochetError) as info:
            mc.simulate(rounds=4096, checkpoint=bad, **run)
        assert "\n" not in str(info.value) and str(bad) in str(info.value), (name, info.value)
        assert isinstance(info.value, DamagedFileError) or "do not fit" in str(info.value), (name, info.value)
        assert bad.read_bytes() == before, "a refused checkpoint was changed"
    # the true checkpoint resumes to the uninterrupted run's sums, bit for bit
    resumed = mc.simulate(rounds=4096, checkpoint=ck, **run)
    whole = mc.simulate(rounds=4096, **run)
    for key in ChunkSums.KEYS:
        assert np.array_equal(getattr(resumed.sums, key), getattr(whole.sums, key)), key
    assert half.rounds == 2048
