"""Every long first run says what it is doing on stderr within seconds, and nothing else changes.

issue 37: `ricochet rtp` showed nothing for its first 43 s, and the N = 2..7 Monte Carlo never. Each
command below is started with ``RICOCHET_PROGRESS=1`` (bars and status lines on a stderr that is not a
terminal: the tests' pipe) and must write a line naming its phase within FIRST_LINE_SECONDS of its start;
it is then stopped (its work is not what is tested).  One run of the main job at a tiny size checks that
stdout, the machine-readable table, is the same byte for byte with the progress shown and with --quiet,
and that --quiet writes nothing on stderr.
"""
from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: the promise of issue 37: the first line on stderr within this many seconds of the start
FIRST_LINE_SECONDS = 5.0


def _env(progress: str) -> dict:
    env = dict(os.environ, RICOCHET_PROGRESS=progress, COLUMNS="100")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def _first_stderr_text(argv: list[str], limit: float) -> tuple[float, str]:
    """Start ``ricochet ARGV`` with the progress forced on; the seconds until stderr's first text and that
    text (read for a moment more), then the process group is killed."""
    proc = subprocess.Popen([sys.executable, "-m", "ricochet_math", *argv], cwd=ROOT, env=_env("1"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    start = time.monotonic()
    try:
        sel = selectors.DefaultSelector()
        sel.register(proc.stderr, selectors.EVENT_READ)
        text, first = b"", None
        while time.monotonic() - start < (limit if first is None else first + 0.5):
            if not sel.select(timeout=0.1):
                continue
            chunk = os.read(proc.stderr.fileno(), 4096)
            if not chunk:
                break
            if first is None:
                first = time.monotonic() - start
            text += chunk
        return (first if first is not None else float("inf")), text.decode("utf-8", "replace")
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        proc.stderr.close()


@pytest.mark.parametrize("argv, phase", [
    (["rtp"], "ricochet rtp:"),
    (["rtp", "--players", "3"], "ricochet rtp:"),
    (["simulate", "--players", "4", "--rounds", "100000"], "ricochet simulate:"),
    (["home", "simulate", "--players", "4", "--games", "20000", "--seed", "1"], "home simulate:"),
    (["ring", "simulate", "--games", "2000", "--seed", "1"], "ring simulate:"),
    (["rococo", "draw", "Kh Kd 7c 4s 2h", "--opponents", "2"], "rococo draw:"),
    (["freeride", "simulate", "--players", "4", "--games", "20000", "--seed", "1"], "freeride simulate:"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_a_first_run_names_its_phase_within_seconds(argv, phase):
    seconds, text = _first_stderr_text(argv, limit=60)
    assert phase in text, f"ricochet {' '.join(argv)}: stderr began {text[:200]!r}"
    assert seconds < FIRST_LINE_SECONDS, f"ricochet {' '.join(argv)}: first line after {seconds:.1f} s"


def test_progress_changes_nothing_on_stdout_and_quiet_is_quiet():
    argv = [sys.executable, "-m", "ricochet_math", "rtp", "--players", "2", "--rounds", "512", "--format", "csv"]
    shown = subprocess.run(argv, cwd=ROOT, env=_env("1"), capture_output=True, text=True, timeout=600)
    quiet = subprocess.run([*argv, "--quiet"], cwd=ROOT, env=_env("1"), capture_output=True, text=True, timeout=600)
    assert shown.returncode == quiet.returncode == 0, shown.stderr[-2000:] + quiet.stderr[-2000:]
    # every phase of the run named on stderr: the start, the loading, the Monte Carlo of N = 2
    for phase in ("ricochet rtp: players 2", "loading numba", "N = 2 perfect, Monte Carlo"):
        assert phase in shown.stderr, shown.stderr[:2000]
    assert quiet.stderr == ""
    # the same figures to the last digit; only the run time differs between two runs
    header = shown.stdout.splitlines()[0].split(",")
    keep = [i for i, name in enumerate(header) if name != "run_time_s"]
    rows = lambda text: [[cell for i, cell in enumerate(line.split(",")) if i in keep]  # noqa: E731
                         for line in text.splitlines()]
    assert rows(shown.stdout) == rows(quiet.stdout) and len(rows(shown.stdout)) == 2


#: every command that can run for more than a couple of seconds, and so shows progress on a terminal
LONG_RUNNING = [["rtp"], ["simulate"], ["solo"], ["kickout"], ["published"], ["design"], ["report"],
                ["home", "simulate"], ["home", "report", "--out", "r"], ["ring", "simulate"],
                ["ring", "report", "--out", "r"], ["rococo", "draw", "Kh Kd 7c 4s 2h"], ["rococo", "simulate"],
                ["rococo", "report", "--out", "r"], ["rococo", "equilibrium"], ["freeride", "simulate"],
                ["freeride", "report", "--out", "r"], ["equilibrium", "solve", "--game", "kuhn"]]


@pytest.mark.parametrize("argv", LONG_RUNNING, ids=lambda a: " ".join(a[:2]))
@pytest.mark.parametrize("flag", ["--quiet", "--no-progress"])
def test_every_long_command_takes_both_spellings_of_quiet(argv, flag):
    """One flag set for every command (issue 37): ``--quiet`` and its spelling ``--no-progress`` both turn
    the progress off wherever a run can last."""
    from ricochet_math.cli.app import build_parser

    args = build_parser().parse_args([*argv, flag])
    assert getattr(args, "progress", True) is False or getattr(args, "quiet", False) is True
