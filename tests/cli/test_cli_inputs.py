"""Inputs the command line used to accept wrongly (issue 35, "Wrongly accepted"): strategy specs with an empty,
trailing or repeated part, whole numbers in other scripts' digits, 100,000-character arguments, and a cache
folder that is not a folder.  Each is one line on stderr and exit status 2 (the cache: one warning line)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli_run import run_cli as ricochet  # in-process: the parser and handlers as the entry point runs them

ROOT = Path(__file__).resolve().parents[2]
BIG = "A" * 100_000


def refused(result, *fragments: str, longest: int = 400) -> str:
    """The one ``ricochet: error:`` line of a refusal (exit 2), at most ``longest`` characters."""
    assert result.returncode == 2, (result.returncode, result.stdout[-300:], result.stderr[-600:])
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("ricochet: error: "), lines
    assert len(lines[0]) <= longest, f"{len(lines[0])} characters: {lines[0][:300]}"
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


# ---------------------------------------------------------------- strategy specs
@pytest.mark.parametrize("argv, fragment", [
    (["home", "simulate", "--seed", "1", "--games", "50", "--strategy", "pot-odds:"], "empty parameter list"),
    (["home", "simulate", "--seed", "1", "--games", "50", "--strategy", "optimal:"], "empty parameter list"),
    (["home", "simulate", "--seed", "1", "--games", "50", "--strategy", "pot-odds:1:2"], "takes one parameter"),
    (["home", "simulate", "--seed", "1", "--games", "50", "--strategy", "pot-odds::1"], "empty parameter"),
    (["home", "simulate", "--seed", "1", "--games", "50", "--strategy", "pot-odds:２"], "ASCII digits"),
    (["home", "simulate", "--seed", "1", "--games", "50", "--strategy", "optimal:٣"], "ASCII digits"),
    (["home", "simulate", "--seed", "1", "--games", "50", "--strategy", "limit:"], "empty parameter list"),
    (["simulate", "--rounds", "10", "--strategy", "beats:"], "empty parameter list"),
    (["simulate", "--rounds", "10", "--strategy", "beats:A9:"], "empty parameter"),
    (["simulate", "--rounds", "10", "--strategy", "always:"], "empty parameter list"),
    (["freeride", "simulate", "--games", "5", "--strategy", "t:x,x,88,"], "trailing ','"),
    (["freeride", "simulate", "--games", "5", "--strategy", "t:x,,88,TT"], "empty item"),
    (["freeride", "simulate", "--games", "5", "--strategy", "t:x,x,88,TT:"], "empty parameter"),
    (["freeride", "simulate", "--games", "5", "--strategy", "t:x,x,88,TT:wary:wary"], "each once"),
    (["freeride", "simulate", "--games", "5", "--strategy", "t:x,x,88,TT:weak:hide"], "each once"),
    (["freeride", "simulate", "--games", "5", "--strategies", "computer;;bold"], "empty item"),
    (["freeride", "simulate", "--games", "5", "--strategies", "computer;"], "trailing ';'"),
    (["freeride", "simulate", "--games", "5", "--strategy", "computer", ""], "one strategy a word"),
    (["freeride", "simulate", "--games", "5", "--strategy", "computer;bold"], "one strategy a word"),
    (["rococo", "simulate", "--pots", "10", "--policies", "standard,,loose"], "empty item"),
    (["rococo", "simulate", "--pots", "10", "--policies", "standard,loose,"], "trailing ','"),
    (["rococo", "simulate", "--pots", "10", "--strategy", "standard", ""], "one strategy a word"),
    (["rococo", "simulate", "--pots", "10", "--strategy", "standard,loose"], "2 to 6 policies, one a word"),
    (["tune", "--bet", "cover", "--target", "0.96", "--step", "royal_flush=500", "--step", "royal_flush=600"],
     "twice"),
    (["tune", "--bet", "cover", "--target", "0.96", "--lines", "royal_flush,,straight_flush"], "empty item"),
    (["rtp", "--players", "2,", "--rounds", "10"], "trailing ','"),
    (["kickout", "--players", "2", "--grid", "99,,KK"], "empty pattern"),
    (["kickout", "--players", "2", "--grid", "99,KK,"], "empty pattern"),
])
def test_bad_specs_are_refused(argv, fragment, tmp_path):
    refused(ricochet(*argv, cwd=tmp_path), fragment)
    assert not list(tmp_path.iterdir())


def test_good_specs_still_run(tmp_path):
    for argv in (["home", "simulate", "--seed", "1", "--games", "50", "--strategy", "pot-odds:1.5"],
                 ["home", "simulate", "--seed", "1", "--games", "50", "--strategy", "pot-odds", "one", "limit", "pot-odds:0.5"],
                 ["freeride", "simulate", "--games", "5", "--seed", "1", "--strategy", "t:x,x,88,TT:hide:wary", "bold"],
                 ["simulate", "--rounds", "100", "--seed", "1", "--strategy", "beats:A9"]):
        result = ricochet(*argv, cwd=tmp_path)
        assert result.returncode == 0, (argv, result.stderr[-500:])


# ---------------------------------------------------------------- digits
@pytest.mark.parametrize("argv", [
    ["play", "--seed", "１２"], ["play", "-n", "٣"], ["play", "--seed", "0x10"], ["play", "--seed", "٠"],
    ["simulate", "--rounds", "１０"], ["simulate", "--rounds", "10", "--players", "²"],
    ["simulate", "--rounds", "10", "--workers", "١"], ["rtp", "--players", "٣", "--rounds", "10"],
    ["home", "simulate", "--games", "50", "--start-cards", "٢"], ["home", "simulate", "--games", "50", "--limit", "٥"],
    ["ring", "simulate", "--games", "10", "--players", "٣"], ["rococo", "draw", "Kh Kd 7c 4s 2h", "--opponents", "٢"],
    ["report", "--rounds", "１０"], ["kickout", "--players", "2", "--target", "０.９６"],
    ["tune", "--bet", "cover", "--target", "0.96", "--step", "royal_flush=５００"],
])
def test_whole_numbers_are_ascii_digits(argv, tmp_path):
    refused(ricochet(*argv, cwd=tmp_path), "ASCII digits")


def test_ascii_digits_still_read():
    result = ricochet("play", "--seed", "12")
    assert result.returncode == 0 and "(seed 12;" in result.stdout
    assert ricochet("play", "--seed", "1_2").stdout == result.stdout


# ---------------------------------------------------------------- 100,000 characters
@pytest.mark.parametrize("argv", [
    ["hands", BIG], ["hands", "As " * 30_000], ["rules", BIG], ["play", "--seed", BIG], ["play", "--seed", "9" * 100_000],
    ["simulate", "--rounds", "10", "--strategy", BIG], ["home", "simulate", "--strategy", f"pot-odds:{BIG}"],
    ["home", "simulate", "--strategy", BIG], ["freeride", "simulate", "--strategy", BIG],
    ["rococo", "simulate", "--strategy", "standard", BIG], ["ring", "simulate", "--strategy", BIG],
    ["play", "--format", BIG], ["simulate", "--rounds", "10", "--checkpoint", BIG], ["report", "--out", BIG],
    ["simulate", "--rules", BIG, "--rounds", "10"], ["rtp", "--players", BIG], ["advise", "--dealer", BIG],
    [BIG], ["rules", "--list", BIG],
])
def test_an_error_line_quotes_at_most_a_few_hundred_characters(argv, tmp_path):
    refused(ricochet(*argv, cwd=tmp_path), longest=400)


# ---------------------------------------------------------------- RICOCHET_CACHE_DIR
def _process(env_cache: str, *argv: str, cwd) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RICOCHET_CACHE_DIR": env_cache}
    return subprocess.run([sys.executable, "-m", "ricochet_math", *argv], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=300)


def _bad_cache_folders(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "a-file").write_text("not a folder\n")
    return {"a regular file": str(tmp_path / "a-file"), "under a file": str(tmp_path / "a-file" / "cache"),
            "not writable": "/proc/ricochet-cache"}  # /proc refuses a new folder even to root


def test_a_cache_folder_that_is_not_usable_is_one_warning_line(tmp_path):
    for why, folder in _bad_cache_folders(tmp_path).items():
        result = _process(folder, "hands", "As Ks Qs Js Ts", cwd=tmp_path)
        assert result.returncode == 0, (why, result.stderr)
        assert "Royal flush" in result.stdout
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("ricochet_math: warning: the cache folder "
                                                      "(RICOCHET_CACHE_DIR="), (why, lines)
        assert "not usable" in lines[0] and "running without the cache" in lines[0], lines
    assert (tmp_path / "a-file").read_text() == "not a folder\n"


def test_a_command_that_needs_the_cache_refuses(tmp_path):
    (tmp_path / "a-file").write_text("x")
    result = _process(str(tmp_path / "a-file"), "published", "--search", "--seconds", "1", cwd=tmp_path)
    refused(result, "reading search's store needs the cache folder", "is not a folder")
    assert (tmp_path / "a-file").read_text() == "x"


def test_library_cache_checks(tmp_path, monkeypatch, capsys):
    from ricochet_math.evaluator import tables

    folders = _bad_cache_folders(tmp_path)
    for why, folder in folders.items():
        monkeypatch.setenv("RICOCHET_CACHE_DIR", folder)
        assert tables.cache_problem() is not None, why
        assert tables.usable_cache_dir() is None
        assert tables.usable_cache_dir() is None  # warned once a process, not once a call
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == len(folders), err
    monkeypatch.setenv("RICOCHET_CACHE_DIR", str(tmp_path / "fine"))
    assert tables.usable_cache_dir() == tmp_path / "fine" and not list((tmp_path / "fine").iterdir())
    monkeypatch.setenv("RICOCHET_CACHE_DIR", folders["a regular file"])
    with pytest.raises(tables.RicochetError, match="needs the cache folder"):
        tables.require_cache_dir("the store")
