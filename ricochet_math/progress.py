"""A progress bar over the steps of a long job (a game's report): tqdm with the rate and the time left.

The Monte Carlo runs draw their own bar per run (``solvers.batches``); a report is many runs of unequal
length, so its bar counts the report's steps.  ``disable=None`` shows no bar when stderr is not a
terminal (logs, pipes, captured test output), so a report's files never depend on it.
"""
from __future__ import annotations

__all__ = ["step_bar"]


class _NoBar:
    """What :func:`step_bar` returns when no bar is asked for: ``update`` and ``close`` do nothing."""

    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def step_bar(total: int, desc: str, progress: bool = True):
    """A bar of ``total`` steps named ``desc`` on stderr (``progress`` False: one that shows nothing)."""
    if not progress:
        return _NoBar()
    from tqdm.auto import tqdm  # lazy: only a run that shows a bar pays for it

    return tqdm(total=total, desc=desc, unit=" steps", leave=False, dynamic_ncols=True, disable=None)
