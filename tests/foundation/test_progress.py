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
