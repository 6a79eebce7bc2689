"""Kernel-level timing of perfect-play decisions (issue 14): a numba loop over packed table
states, so the figure is the decision kernel's alone, not Python's call overhead.

:func:`pack` stacks states of :mod:`perfect_states` into arrays; :func:`decision_loop` compiles
a loop over them for one kernel (the current one or the frozen :mod:`perfect_reference`);
:func:`time_per_decision` returns the CPU seconds per decision of that loop (thread time, so
other processes on a shared machine slow the figure less than wall time: they still share the
caches and the memory bus).
"""
from __future__ import annotations

import time

import numba
import numpy as np

__all__ = ["pack", "decision_loop", "time_per_decision"]


def pack(states):
    """States (tuples of the kernel's arguments) of one player count as stacked arrays."""
    cols = list(zip(*states))
    return (np.stack(cols[0]), np.stack(cols[1]), np.stack(cols[2]), np.array(cols[3], np.int64),
            np.array(cols[4], np.int64), np.array(cols[5], np.bool_), np.array(cols[6], np.int64),
            np.array(cols[7], np.int64), np.array(cols[8], np.bool_), cols[9][0], np.stack(cols[10]))


def decision_loop(decision):
    """A compiled loop calling ``decision`` (a perfect_decision kernel) on every packed state;
    returns the number of plays."""
    @numba.njit
    def loop(rd, unseen, hole, order, pos, best, dealer_in, n_tied, pot, kicked, bonus, options):
        plays = 0
        for i in range(unseen.shape[0]):
            plays += decision(rd, unseen[i], hole[i], order[i], pos[i], best[i], dealer_in[i], n_tied[i], pot[i],
                              kicked[i], bonus, options[i])
        return plays
    return loop


def time_per_decision(loop, rd, packed, repeat: int = 5):
    """Median CPU seconds per decision over ``repeat`` runs of ``loop`` (after one warm-up run)."""
    loop(rd, *packed)
    times = []
    for _ in range(repeat):
        t0 = time.thread_time()
        loop(rd, *packed)
        times.append((time.thread_time() - t0) / packed[0].shape[0])
    return float(np.median(times))
