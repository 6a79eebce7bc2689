"""What a long job shows on stderr while it runs: a bar over its steps, or a status line naming its phase.

Every bar and status line of the toolkit comes from here, so they all follow one rule:

* on stderr only, never stdout: a table, CSV or JSON on stdout is the same with or without them, and no
  figure depends on them;
* ``progress=False`` (the commands' ``--quiet``) shows nothing;
* by default they show only when stderr is a terminal (logs, pipes and captured test output stay clean);
  ``RICOCHET_PROGRESS=1`` shows them on any stderr (a log that should say what the run was doing, the tests
  of this module), ``RICOCHET_PROGRESS=0`` hides them everywhere;
* a bar's elapsed time ticks every second even while one step runs for long (a kernel compiling on the
  first run, one chunk of the perfect-play solver), so a run is never silent for more than a second.

The Monte Carlo runs draw a bar per run (:mod:`ricochet_math.solvers.montecarlo`,
:mod:`ricochet_math.solvers.batches`), the exact solo analysis one over its hand classes, a report one over
its steps (:func:`step_bar`), and a phase without steps to count a status line (:func:`status`).
"""
from __future__ import annotations

import contextlib
import os
import sys
import threading

__all__ = ["PROGRESS_ENV", "TICK_SECONDS", "tqdm_disable", "shown", "bar", "step_bar", "status", "say"]

#: the environment variable that shows (``1``) or hides (``0``) every bar whatever stderr is
PROGRESS_ENV = "RICOCHET_PROGRESS"
#: seconds between two refreshes of a bar's elapsed time while no step ends
TICK_SECONDS = 1.0

_ON = ("1", "yes", "on", "always", "true")
_OFF = ("0", "no", "off", "never", "false")


def _forced() -> bool | None:
    """``RICOCHET_PROGRESS``: True (always show), False (never), None (unset or anything else: when stderr is
    a terminal)."""
    value = os.environ.get(PROGRESS_ENV, "").strip().lower()
    return True if value in _ON else False if value in _OFF else None


def tqdm_disable(progress: bool = True) -> bool | None:
    """tqdm's ``disable`` for a bar asked for with ``progress``: True (hidden), False (shown on any stderr)
    or None (tqdm's rule: shown when stderr is a terminal)."""
    if not progress:
        return True
    forced = _forced()
    return None if forced is None else not forced


def shown(progress: bool = True) -> bool:
    """Whether a bar asked for with ``progress`` is shown on this process's stderr."""
    disable = tqdm_disable(progress)
    if disable is None:
        stream = sys.stderr
        return bool(stream is not None and hasattr(stream, "isatty") and stream.isatty())
    return not disable


class _NoBar:
    """What the functions here return when no bar is shown: every method does nothing."""

    def update(self, n: int = 1) -> None:
        pass

    def set_description_str(self, desc: str | None = None, refresh: bool = True) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        pass


_TICKING = None


def _ticking_class():
    """tqdm (``tqdm.auto``: the notebook widget in Jupyter) with a daemon thread that refreshes it every
    :data:`TICK_SECONDS`, so its elapsed time moves while a long step runs; built on first use (importing
    tqdm costs the runs that show no bar nothing)."""
    global _TICKING
    if _TICKING is None:
        from tqdm.auto import tqdm

        class TickingBar(tqdm):
            def __init__(self, *args, **kwargs):
                self._stop_ticks = threading.Event()
                super().__init__(*args, **kwargs)
                if not self.disable:
                    threading.Thread(target=self._tick, name="ricochet-progress", daemon=True).start()

            def _tick(self) -> None:
                while not self._stop_ticks.wait(TICK_SECONDS):
                    if self.disable:
                        return
                    self.refresh()

            def close(self) -> None:
                stop = getattr(self, "_stop_ticks", None)
                if stop is not None:
                    stop.set()
                super().close()

        _TICKING = TickingBar
    return _TICKING


def bar(total: int | None, desc: str, *, unit: str = " steps", progress: bool = True, **kwargs):
    """A bar of ``total`` steps (``None``: no total, a count and the elapsed time) named ``desc`` on stderr,
    or one that shows nothing (see the module's rule).  ``kwargs`` go to tqdm (``unit_scale``, ``initial``,
    ``bar_format``); the bar is left off the screen when it closes (``leave=False``)."""
    if not shown(progress):
        return _NoBar()
    kwargs.setdefault("leave", False)
    kwargs.setdefault("dynamic_ncols", True)
    return _ticking_class()(total=total, desc=desc, unit=unit, file=sys.stderr, disable=False, **kwargs)


def step_bar(total: int, desc: str, progress: bool = True):
    """A bar of ``total`` steps named ``desc`` on stderr (``progress`` False: one that shows nothing)."""
    return bar(total, desc, progress=progress)


@contextlib.contextmanager
def status(desc: str, progress: bool = True):
    """A status line ``desc (elapsed)`` on stderr while the ``with`` block runs: a phase with no steps to
    count (loading a table, compiling a kernel, a cache lookup that may become a long computation)."""
    line = bar(None, desc, progress=progress, bar_format="{desc} ({elapsed})")
    try:
        yield line
    finally:
        line.close()


def say(text: str, progress: bool = True) -> None:
    """One line on stderr that stays (what a run is about to do), under the same rule as the bars."""
    if shown(progress):
        print(text, file=sys.stderr, flush=True)
