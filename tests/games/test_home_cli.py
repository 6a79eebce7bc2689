"""``ricochet home simulate|play|solve|report``: the examples run, tables fit 100 columns, CSV keeps full precision,
user errors are one line with exit status 2."""
from __future__ import annotations

import io
import shlex

import pandas as pd
import pytest
from cli_run import run_cli

from ricochet_math.cli.app import TABLE_WIDTH
from ricochet_math.cli.home import _EXAMPLES


def run(*argv: str) -> tuple[int, str, str]:
    """``ricochet ARGV`` in-process (tests/cli_run.py): status, stdout, stderr."""
    done = run_cli(*argv)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("action", sorted(_EXAMPLES))
def test_each_action_example_runs_and_fits(action, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the report's example writes a folder
    argv = shlex.split(_EXAMPLES[action])[1:]
    if action == "simulate":
        argv += ["--games", "3000"]
    status, out, err = run(*argv)
    assert status == 0, err
    if action != "play":  # a hand history's lines are as long as their hands
        assert all(len(line) <= TABLE_WIDTH for line in out.splitlines()), out


def test_play_replays_the_rulebook_deal():
    status, out, _ = run("home", "play", "--players", "4", "--start", "Kd", "Jc", "8h", "7s", "--then",
                         "2h 9c 2d", "--strategy", "limit", "--seed", "3")
    assert status == 0
    assert "Deal: seat 1 K♦, seat 2 J♣, seat 3 8♥, seat 4 7♠" in out
    assert "Seat 4 (7♠) buys 4, gets 2♥ 9♣: no longer lowest" in out


def test_solve_gives_the_value_of_each_action():
    status, out, _ = run("home", "solve", "--players", "2", "--hands", "Kd 5h 8d 8s", "2h 2d 9c 7s", "--pot", "15",
                         "--format", "csv")
    assert status == 0
    frame = pd.read_csv(io.StringIO(out))
    assert list(frame.action) == ["fold", "buy 1"] and frame.best.tolist() == [False, True]
    assert frame.actor_ev[0] == 0 and frame.actor_ev[1] > 1.5


def test_solve_exact_and_readable_agree():
    """Two live hands: the compiled exact solver (auto) and the readable one give the same values."""
    argv = ["home", "solve", "--players", "3", "--hands", "Kd 7c 2h 3c", "-", "Ks 7h 2s", "--pot", "9",
            "--dead", "4c 5c", "--format", "csv"]
    a, b = run(*argv), run(*argv, "--solver", "readable")
    assert a[0] == b[0] == 0
    fa, fb = pd.read_csv(io.StringIO(a[1])), pd.read_csv(io.StringIO(b[1]))
    assert (fa.best == fb.best).all() and (fa.actor_ev - fb.actor_ev).abs().max() < 1e-12


def test_simulate_csv_is_full_precision_and_seeded():
    a = run("home", "simulate", "--players", "3", "--games", "2000", "--seed", "5", "--table", "seat", "--format", "csv")
    b = run("home", "simulate", "--players", "3", "--games", "2000", "--seed", "5", "--table", "seat", "--format", "csv",
            "--workers", "1")
    assert a[0] == 0 and a[1] == b[1]
    frame = pd.read_csv(io.StringIO(a[1]))
    assert {"ev", "ev_low", "ev_high", "win_rate"} <= set(frame.columns) and len(frame) == 3


@pytest.mark.parametrize("argv, fragment", [
    (["home", "simulate", "--jokers", "--variant", "ricochet2"], "no jokers"),
    (["home", "simulate", "--players", "9"], "players"),
    (["home", "simulate", "--variant", "ricochet2", "--limit", "7"], "Ricochet Poker II"),
    (["home", "simulate", "--strategy", "always"], "unknown home strategy"),
    (["home", "play", "--start", "Kd", "Kd"], "Kd"),
    (["home", "solve", "--hands", "Kd", "2h", "--pot", "2", "--budget", "100"], "positions"),
    (["home", "solve", "--hands", "Kd", "2h", "--pot", "2", "--budget", "100", "--solver", "readable"], "positions"),
    (["home", "solve", "--hands", "Kd", "2h", "--pot", "2", "--depth", "1", "--solver", "exact"], "--depth"),
    (["home", "solve", "--hands", "Kd", "-", "--pot", "2"], "two live hands"),
])
def test_user_errors_are_one_line(argv, fragment):
    status, out, err = run(*argv)
    assert status == 2 and fragment in err and err.count("\n") == 1 and "Traceback" not in err
