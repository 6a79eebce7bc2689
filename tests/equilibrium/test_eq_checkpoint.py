"""Long solves: checkpoint and resume give the digits of an uninterrupted solve (also after kill -9), and a
foreign or damaged checkpoint is one line, exit 2, with nothing overwritten."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from cli_run import run_cli
from ricochet_math.equilibrium import KuhnPoker, LeducPoker, solve
from ricochet_math.equilibrium.checkpoint import SCHEMA
from ricochet_math.errors import RicochetError
from ricochet_math.storage import load_arrays

ROOT = Path(__file__).resolve().parents[2]


def _one_line_error(done, *fragments):
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ricochet: error: ") and "Traceback" not in done.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


@pytest.mark.parametrize("solver", ["cfr+", "dcfr", "mccfr"])
def test_resume_gives_the_digits_of_one_solve(tmp_path, solver):
    whole = solve(KuhnPoker(), solver, 600, seed=4, every=100)
    path = tmp_path / "kuhn.npz"
    first = solve(KuhnPoker(), solver, 300, seed=4, every=100, checkpoint=path)
    assert first.iterations == 300 and load_arrays(path, SCHEMA)[0]["iterations"] == 300
    rest = solve(KuhnPoker(), solver, 600, seed=4, every=100, checkpoint=path)
    assert rest.resumed_from == 300
    assert np.array_equal(rest.average, whole.average)
    assert np.array_equal(rest.curve_iterations, whole.curve_iterations)
    assert np.array_equal(rest.curve_nash_conv, whole.curve_nash_conv)


def test_a_sampled_solve_resumed_without_its_seed_takes_the_checkpoints(tmp_path):
    path = tmp_path / "fresh.npz"
    first = solve(KuhnPoker(), "mccfr", 100, checkpoint=path)  # fresh entropy, recorded
    rest = solve(KuhnPoker(), "mccfr", 200, checkpoint=path)
    assert rest.seed == first.seed and rest.resumed_from == 100
    assert np.array_equal(rest.average, solve(KuhnPoker(), "mccfr", 200, seed=first.seed).average)


def test_a_checkpoint_of_another_game_solver_or_seed_is_refused(tmp_path):
    path = tmp_path / "kuhn.npz"
    solve(KuhnPoker(), "mccfr", 100, seed=1, checkpoint=path)
    before = path.read_bytes()
    with pytest.raises(RicochetError, match="another game or abstraction"):
        solve(LeducPoker(), "mccfr", 200, seed=1, checkpoint=path)
    with pytest.raises(RicochetError, match="written by solver"):
        solve(KuhnPoker(), "cfr+", 200, checkpoint=path)
    with pytest.raises(RicochetError, match="seed 1, not 2"):
        solve(KuhnPoker(), "mccfr", 200, seed=2, checkpoint=path)
    with pytest.raises(RicochetError, match="holds 100 iterations, more than the 50"):
        solve(KuhnPoker(), "mccfr", 50, seed=1, checkpoint=path)
    assert path.read_bytes() == before
    # another abstraction of the same game: Leduc's information sets named by rank only
    leduc = tmp_path / "leduc.npz"
    solve(LeducPoker(), "cfr+", 2, checkpoint=leduc)
    before = leduc.read_bytes()
    with pytest.raises(RicochetError, match="another game or abstraction"):
        solve(LeducPoker(suits=False), "cfr+", 4, checkpoint=leduc)
    assert leduc.read_bytes() == before


def test_cli_foreign_damaged_or_not_ours_checkpoint_is_one_line_exit_2(tmp_path):
    path = tmp_path / "run.npz"
    assert run_cli("equilibrium", "solve", "--game", "kuhn", "--iterations", "50", "--checkpoint", str(path)).returncode == 0
    before = path.read_bytes()
    _one_line_error(run_cli("equilibrium", "solve", "--game", "leduc", "--iterations", "60", "--checkpoint", str(path)),
                    "another game or abstraction", "nothing was written")
    assert path.read_bytes() == before
    damaged = tmp_path / "damaged.npz"
    damaged.write_bytes(before[: len(before) // 2])
    _one_line_error(run_cli("equilibrium", "solve", "--game", "kuhn", "--iterations", "60", "--checkpoint",
                            str(damaged)), "damaged")
    assert damaged.read_bytes() == before[: len(before) // 2]
    flipped = tmp_path / "flipped.npz"
    flipped.write_bytes(before[:200] + bytes([before[200] ^ 1]) + before[201:])
    _one_line_error(run_cli("equilibrium", "solve", "--game", "kuhn", "--iterations", "60", "--checkpoint",
                            str(flipped)))
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    _one_line_error(run_cli("equilibrium", "solve", "--iterations", "60", "--checkpoint", str(notes)),
                    "not a ricochet_math data file")
    assert notes.read_text() == "my notes\n"


@pytest.mark.parametrize("count", ["-5", "0", "10000000000", "1.5", "many"])
def test_cli_a_negative_or_absurd_iteration_count_is_one_line_exit_2(count):
    _one_line_error(run_cli("equilibrium", "solve", "--iterations", count), "--iterations")


@pytest.mark.slow  # a Python process of its own and two Leduc solves: 3 s quiet, 8 s at load 6
def test_cli_kill_9_and_resume_gives_the_digits_of_an_uninterrupted_solve(tmp_path):
    args = ["equilibrium", "solve", "--game", "leduc", "--solver", "cfr+", "--iterations", "6000", "--every", "300",
            "--no-progress"]
    whole = tmp_path / "whole.csv"
    assert run_cli(*args, "--out", str(whole)).returncode == 0
    checkpoint, resumed = tmp_path / "run.npz", tmp_path / "resumed.csv"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-m", "ricochet_math", *args, "--checkpoint", str(checkpoint),
                                "--out", str(resumed)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while not checkpoint.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    process.send_signal(signal.SIGKILL)
    process.wait()
    held = load_arrays(checkpoint, SCHEMA)[0]["iterations"]
    assert process.returncode == -signal.SIGKILL and 0 < held < 6000 and not resumed.exists(), held
    assert run_cli(*args, "--checkpoint", str(checkpoint), "--out", str(resumed)).returncode == 0
    assert resumed.read_bytes() == whole.read_bytes()
    assert load_arrays(checkpoint, SCHEMA)[0]["iterations"] == 6000
