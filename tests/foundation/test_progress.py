"""ricochet_math.progress.step_bar: the bar over a long job's steps (issue 26: every run longer than a few
seconds shows its progress), and nothing at all when it is not asked for or stderr is not a terminal."""
from __future__ import annotations

import io
import sys

import pytest

from ricochet_math.progress import step_bar


def test_no_bar_when_not_asked(capsys):
    bar = step_bar(3, "job", progress=False)
    for _ in range(3):
        bar.update()
    bar.close()
    assert capsys.readouterr() == ("", "")


def test_a_bar_with_rate_and_time_left_on_a_terminal(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setenv("COLUMNS", "100")
    bar = step_bar(4, "ring report")
    text = err.getvalue()  # drawn at once (later redraws are throttled to ten a second)
    bar.close()
    assert "ring report" in text and "0/4 [" in text and "steps/s" in text  # steps done of all, time, rate


@pytest.mark.parametrize("game", ["home", "ring", "rococo", "freeride"])
def test_every_game_report_takes_progress(game):
    import inspect

    import ricochet_math as rm

    assert "progress" in inspect.signature(getattr(rm, game).build_report).parameters


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("setting, terminal, shown", [
    (None, False, False), (None, True, True),    # the default: only on a terminal
    ("1", False, True), ("always", False, True),  # forced on: a log that should say what the run did
    ("0", True, False), ("never", True, False),   # forced off, even on a terminal
])
def test_the_environment_decides_where_bars_show(monkeypatch, setting, terminal, shown):
    from ricochet_math.progress import PROGRESS_ENV, shown as is_shown, status

    if setting is None:
        monkeypatch.delenv(PROGRESS_ENV, raising=False)
    else:
        monkeypatch.setenv(PROGRESS_ENV, setting)
    err = _Terminal() if terminal else io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    assert is_shown() is shown
    with status("compiling the kernel"):
        pass
    assert ("compiling the kernel" in err.getvalue()) is shown
    assert is_shown(progress=False) is False  # --quiet wins over everything


def test_the_elapsed_time_ticks_while_a_step_runs(monkeypatch):
    """A bar that no step updates is still redrawn every TICK_SECONDS (a kernel compiling for a minute
    is not a silent minute)."""
    import time

    from ricochet_math import progress

    monkeypatch.setattr(sys, "stderr", _Terminal())
    monkeypatch.setattr(progress, "TICK_SECONDS", 0.05)
    with progress.status("one long step") as line:
        time.sleep(1.3)
        drawn = sys.stderr.getvalue()
    assert line.disable  # closed with the block
    assert drawn.count("one long step") >= 3 and "(00:01)" in drawn, drawn
