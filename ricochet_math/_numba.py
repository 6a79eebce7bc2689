"""The one place that decides how ricochet_math compiles its kernels.

Every reused kernel is compiled with ``cache=True`` so a second import loads
machine code from ``__pycache__`` instead of recompiling.  ``fastmath`` is
never used: the kernels count combinations and money exactly.

numba keys a cached kernel by its own source file only: a change in a kernel it
calls from another file, or in a global table frozen into its machine code,
would leave the old code in use.  So a digest of every kernel source of the
package (and numba's version) is stamped beside the caches; when it differs, the
package's cached kernels are all dropped once and recompile
(:func:`drop_stale_caches`, run when this module is first imported, before any
kernel is loaded).
"""
from __future__ import annotations

import hashlib
import itertools
import os
import types
from pathlib import Path

import numba

__all__ = ["njit", "pnjit", "prange", "specialise", "drop_stale_caches"]

prange = numba.prange

PACKAGE_ROOT = Path(__file__).resolve().parent
STAMP_NAME = "ricochet-kernels.stamp"


def njit(*args, **kwargs):
    """``numba.njit`` with the project defaults (``cache=True``, no fastmath)."""
    kwargs.setdefault("cache", True)
    kwargs.setdefault("nogil", True)
    return numba.njit(*args, **kwargs)


def pnjit(*args, **kwargs):
    """Parallel variant of :func:`njit` for batch kernels over independent items."""
    kwargs.setdefault("parallel", True)
    return njit(*args, **kwargs)


def specialise(fn, name: str, **constants):
    """A copy of ``fn`` named ``name`` whose globals hold ``constants`` (numba freezes globals as
    compile-time constants and prunes the branches they decide; the distinct name gives the
    copy its own cache file)."""
    scope = dict(fn.__globals__)
    scope.update(constants)
    copy = types.FunctionType(fn.__code__, scope, name, fn.__defaults__, fn.__closure__)
    copy.__qualname__ = name
    copy.__module__ = fn.__module__
    copy.__doc__ = fn.__doc__
    return copy


def kernel_sources(root: Path = PACKAGE_ROOT) -> list[Path]:
    """The package's source files that compile kernels or hold tables frozen into them."""
    return sorted(p for p in root.rglob("*.py") if "ricochet_math._numba import" in p.read_text(encoding="utf-8")
                  or p.name == "tables.py")


def _digest(root: Path) -> str:
    digest = hashlib.sha256(numba.__version__.encode())
    for source in kernel_sources(root):
        digest.update(source.relative_to(root).as_posix().encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()


def numba_cache_subfolder(source_dir: Path) -> str:
    """The folder under ``NUMBA_CACHE_DIR`` where numba keeps the kernels of the sources in ``source_dir``.

    numba's rule (``numba.core.caching._CacheLocator.get_suitable_cache_subpath``, numba 0.5x-0.6x):
    ``<folder name>_<SHA-1 of the folder's absolute path>``; tested against numba's own function."""
    path = os.path.abspath(source_dir)
    return "_".join([os.path.split(path)[-1], hashlib.sha1(path.encode()).hexdigest()])


def _cache_dirs(root: Path) -> list[Path]:
    """Where numba keeps this package's cached kernels: the ``__pycache__`` folder of each package folder,
    or its folder under ``NUMBA_CACHE_DIR``.  Each holds only the caches of the sources in that one
    package folder, so nothing of another package is ever among them."""
    folders = sorted({source.parent for source in root.rglob("*.py")})
    if numba.config.CACHE_DIR:
        base = Path(numba.config.CACHE_DIR)
        return [base / numba_cache_subfolder(folder) for folder in folders]
    return [folder / "__pycache__" for folder in folders]


def drop_stale_caches(root: Path = PACKAGE_ROOT, stamp_dir: Path | None = None) -> bool:
    """Delete every cached kernel (``*.nbi``/``*.nbc``) of the package if its kernel sources changed
    (only the package's own: the caches beside its kernel sources, or their folders under
    ``NUMBA_CACHE_DIR``; never another package's).

    Returns whether anything was dropped.  A read-only install has nothing to
    drop and nothing we could write: it is left alone.
    """
    stamp_dir = stamp_dir or root / "__pycache__"
    try:
        stamp = _digest(root)
        mark = stamp_dir / STAMP_NAME
        if mark.is_file() and mark.read_text() == stamp:
            return False
        for folder in _cache_dirs(root):
            if not folder.is_dir() or folder.is_symlink():
                continue
            # the folder's own files only (no recursion): numba keeps one flat folder per source folder
            for f in itertools.chain(folder.glob("*.nbi"), folder.glob("*.nbc")):
                f.unlink(missing_ok=True)
        stamp_dir.mkdir(parents=True, exist_ok=True)
        tmp = mark.with_name(f"{STAMP_NAME}.{os.getpid()}.tmp")
        tmp.write_text(stamp)
        tmp.replace(mark)
        return True
    except OSError:
        return False


drop_stale_caches()
