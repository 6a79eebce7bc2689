"""Environment variables that would break the libraries under the toolkit, checked at import.

Some settings end in a traceback deep inside a dependency, before any of our code runs:
``SOURCE_DATE_EPOCH=junk`` (numpy's f2py and fontTools call ``int()`` on it), ``NUMBA_NUM_THREADS=0``
(numba refuses it while compiling the first kernel).  :func:`sanitise` runs first thing in
``import ricochet_math``: it takes each bad value out of ``os.environ`` (so the libraries use their
defaults) and keeps one line per problem in :data:`PROBLEMS`.  The ``ricochet`` command refuses to run
with any (``ricochet: error: ...``, exit status 2); a library user finds them there.
"""
from __future__ import annotations

import os

__all__ = ["PROBLEMS", "sanitise"]

#: one line per environment variable that was set to a value the toolkit cannot use (and was removed)
PROBLEMS: list[str] = []

#: the most threads NUMBA_NUM_THREADS may ask for (numba starts them all at the first parallel kernel)
MAX_THREADS = 1024


def _whole(text: str) -> int | None:
    """The whole number ``text`` writes in ASCII digits (numpy and numba read no other: ``int('٣')`` is 3
    to Python, not to them), else None."""
    try:
        return int(text.strip()) if text.strip().isascii() else None
    except ValueError:
        return None


def sanitise(environ=os.environ) -> list[str]:
    """Remove the unusable settings from ``environ`` and return one line for each (also kept in
    :data:`PROBLEMS`)."""
    found = []
    epoch = environ.get("SOURCE_DATE_EPOCH")
    if epoch is not None and (_whole(epoch) is None or not 0 <= _whole(epoch) < 2**33):
        found.append(f"environment variable SOURCE_DATE_EPOCH={epoch!r} is not a whole number of seconds "
                     "since 1970 (0 .. 2**33); unset it or give one")
        del environ["SOURCE_DATE_EPOCH"]
    threads = environ.get("NUMBA_NUM_THREADS")
    if threads is not None and (_whole(threads) is None or not 1 <= _whole(threads) <= MAX_THREADS):
        found.append(f"environment variable NUMBA_NUM_THREADS={threads!r} must be a whole number of threads "
                     f"1 .. {MAX_THREADS}; unset it or give one")
        del environ["NUMBA_NUM_THREADS"]
    PROBLEMS.extend(found)
    return found


sanitise()
