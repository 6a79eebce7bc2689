"""The one place that decides how ricochet_math compiles its kernels.

Every reused kernel is compiled with ``cache=True`` so a second import loads
machine code from ``__pycache__`` instead of recompiling.  ``fastmath`` is
never used: the kernels count combinations and money exactly.
"""
from __future__ import annotations

import numba

__all__ = ["njit", "pnjit", "prange"]

prange = numba.prange


def njit(*args, **kwargs):
    """``numba.njit`` with the project defaults (``cache=True``, no fastmath)."""
    kwargs.setdefault("cache", True)
    kwargs.setdefault("nogil", True)
    return numba.njit(*args, **kwargs)


def pnjit(*args, **kwargs):
    """Parallel variant of :func:`njit` for batch kernels over independent items."""
    kwargs.setdefault("parallel", True)
    return njit(*args, **kwargs)
