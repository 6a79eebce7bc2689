"""Every process a test starts ends when the test run ends, however it ends (issue 37).

An interrupted run (Ctrl-C, a kill of pytest, even ``kill -9``) used to leave ``tests/kernels.py`` and its
notebook kernel running: kernels.py runs in a session of its own (so that a hung notebook can be killed
with its group), so the terminal's Ctrl-C never reached it, and nothing told it that pytest was gone.

:func:`install` (called by ``tests/conftest.py`` in pytest and in every pytest-xdist worker):

* on Linux, every child started through ``subprocess.Popen`` (``subprocess.run`` too) from the main thread
  asks the kernel for ``SIGKILL`` when its parent dies (``prctl(PR_SET_PDEATHSIG)``, set between fork and
  exec); the kernel delivers it whatever way the parent ended, ``kill -9`` included.  (Only from the main
  thread: the signal follows the death of the *thread* that forked, and pytest runs the tests in the
  main thread, pytest-xdist's workers too.)
* a pytest-xdist worker asks the same for itself, so a killed pytest takes its workers, and so their
  children, with it.
* a notebook kernel started by kernels.py exits by itself within a second of kernels.py's death
  (ipykernel's parent poller: ``JPY_PARENT_PID``).
* elsewhere (no ``prctl``), the children still running at exit are killed with their process group
  (``atexit``; a ``kill -9`` cannot be caught there).
"""
from __future__ import annotations

import atexit
import ctypes
import ctypes.util
import os
import signal
import subprocess
import sys
import threading
import weakref

#: prctl option: the signal a process receives when its parent dies (linux/prctl.h)
PR_SET_PDEATHSIG = 1

_ORIGINAL_POPEN = subprocess.Popen
_children: weakref.WeakSet = weakref.WeakSet()


def _prctl():
    """libc's ``prctl``, or None off Linux."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return libc.prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _prctl()


def die_with_parent(parent: int) -> None:
    """In a process: be killed when the process ``parent`` dies (and at once when it is already gone)."""
    if _PRCTL is not None:
        _PRCTL(PR_SET_PDEATHSIG, int(signal.SIGKILL))
    if os.getppid() != parent:  # the parent died before the request: the kernel will never send it
        os._exit(1)


class TiedPopen(_ORIGINAL_POPEN):
    """``subprocess.Popen`` whose child dies with the test process (see the module)."""

    def __init__(self, *args, **kwargs):
        if _PRCTL is not None and threading.current_thread() is threading.main_thread():
            parent, theirs = os.getpid(), kwargs.get("preexec_fn")

            def tie() -> None:  # in the child, between fork and exec
                die_with_parent(parent)
                if theirs is not None:
                    theirs()

            kwargs["preexec_fn"] = tie
        super().__init__(*args, **kwargs)
        _children.add(self)


def _kill_children() -> None:
    for child in list(_children):
        if child.poll() is None:
            try:
                if _own_group(child):
                    os.killpg(child.pid, signal.SIGKILL)
                else:
                    child.kill()
            except OSError:
                pass


def _own_group(child) -> bool:
    """Whether ``child`` leads a process group of its own (``start_new_session``: kernels.py)."""
    try:
        return os.getpgid(child.pid) == child.pid
    except OSError:
        return False


def install() -> None:
    """Tie every child of this process to it, and this process to its parent when it is a pytest-xdist
    worker.  Idempotent."""
    if subprocess.Popen is not TiedPopen:
        subprocess.Popen = TiedPopen
        atexit.register(_kill_children)
    if os.environ.get("PYTEST_XDIST_WORKER") and _PRCTL is not None:
        # the worker's parent is the pytest process that started it (execnet's popen gateway)
        die_with_parent(os.getppid())
