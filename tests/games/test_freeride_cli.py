"""``ricochet freeride`` and the short report: outputs, one-line errors, the report's folder rules."""
from __future__ import annotations

import json

import pytest
from cli_run import run_cli

from ricochet_math.errors import RicochetError
from ricochet_math.games.freeride.report import freeride_report


def run(*argv: str) -> tuple[int, str, str]:
    """``ricochet ARGV`` in-process (tests/cli_run.py): status, stdout, stderr."""
    done = run_cli(*argv)
    return done.returncode, done.stdout, done.stderr


def test_simulate_json_has_full_precision_and_intervals():
    code, out, _ = run("freeride", "simulate", "--players", "2", "--games", "500", "--seed", "3", "--format", "json")
    rows = json.loads(out)
    assert code == 0 and len(rows) == 4  # two players, filled with computer players to four seats
    assert {"win", "win_low", "win_high", "chips"} <= set(rows[0])
    assert sum(r["win"] for r in rows) == pytest.approx(1.0, abs=1e-12)


def test_play_prints_a_history_and_solve_a_table():
    code, out, _ = run("freeride", "play", "--players", "1", "--seed", "7")
    assert code == 0 and "round 1" in out and "game over after" in out
    code, out, _ = run("freeride", "solve", "--hand", "7s 8h Kd Qc 2s", "--up", "Ad 9s 3c", "--opp-up", "2c 7d 9h",
                       "--samples", "0", "--format", "csv")
    assert code == 0 and out.splitlines()[0] == "action,value" and out.splitlines()[1].startswith("play Kd,5.28")


@pytest.mark.parametrize("argv, words", [
    (("freeride", "simulate", "--strategy", "nonsense"), "unknown Free Ride strategy"),
    (("freeride", "solve", "--hand", "7s 8h Kd Qc", "--up", "Ad"), "five hand cards"),
    (("freeride", "simulate", "--players", "9"), "players"),
    (("freeride", "report"), "--out"),
])
def test_errors_are_one_line(argv, words):
    code, _, err = run(*argv)
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1


def test_report_writes_its_folder_and_refuses_a_foreign_one(tmp_path):
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me")
    with pytest.raises(RicochetError, match="not written by ricochet_math"):
        freeride_report(foreign, games=50, rounds=500, seats=(2,), candidates=("always",))
    assert (foreign / "notes.txt").read_text() == "keep me"
    out = tmp_path / "report"
    kw = dict(games=200, rounds=2000, seats=(2, 3), candidates=("always", "computer"), reproducible=True)
    first = freeride_report(out, **kw)
    html = (out / "report.html").read_bytes()
    assert {str(p) for p in first.files} >= {"report.html", "report.pdf", "tables/best_response.csv",
                                             "tables/provenance.csv", "tables/seats.csv", "tables/solver.csv"}
    assert (out / ".ricochet-output.json").exists()
    freeride_report(out, **kw)  # its own folder is replaced, byte for byte the same
    assert (out / "report.html").read_bytes() == html


def test_one_strategy_spelling_and_the_old_one_with_a_warning():
    """issue 37: every game spells it ``--strategy A B`` (one strategy a word); Free Ride's older
    ``--strategies 'A;B'`` still reads, for one release, with a warning on stderr and the same figures."""
    argv = ("freeride", "simulate", "--players", "2", "--games", "300", "--seed", "5", "--format", "csv")
    code, new, err = run(*argv, "--strategy", "computer", "bold")
    assert code == 0 and err == "" and ",computer," in new and ",bold," in new
    code, old, err = run(*argv, "--strategies", "computer;bold")
    assert code == 0 and old == new
    [line] = err.strip().splitlines()
    assert line.startswith("ricochet: warning: --strategies") and "deprecated" in line
    assert line.endswith("write --strategy computer bold")
    code, _, err = run(*argv, "--strategy", "computer", "--strategies", "bold")
    assert code == 2 and "not both" in err and len(err.strip().splitlines()) == 1
