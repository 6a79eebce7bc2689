"""Files the toolkit writes: atomic writes, folders it owns, and results kept as data.

Three rules keep an analyst's files safe:

* **Atomic writes under unique names.** A file is written to a temporary name
  unique to this process and call, then renamed over the target: a reader sees
  the old file or the new one, never half of one, and two writers never share a
  temporary file.
* **Only our own folders are replaced.** A folder the toolkit writes whole (a
  report) carries a marker file; an existing folder is replaced only when it
  carries the marker (or holds nothing but a report's own files, as reports
  written before the marker did), or is empty.  Anything else is refused
  before any work starts, and nothing is deleted.
* **Data, never code.** Finished work is stored as ``.npz`` arrays with a JSON
  header (a schema name and the SHA-256 of the arrays) and read back with
  ``allow_pickle=False``; a damaged or foreign file is reported, never executed.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import BinaryIO

import numpy as np

from ricochet_math.errors import RicochetError

__all__ = [
    "MARKER_NAME", "DamagedFileError", "check_writable_file", "check_writable_folder",
    "atomic_write", "atomic_write_text", "save_arrays", "load_arrays",
    "is_owned_folder", "check_output_folder", "write_marker", "replace_folder", "remove_owned_folder",
]

#: The marker file in every folder the toolkit writes whole.
MARKER_NAME = ".ricochet-output.json"
_TOOL = "ricochet_math"
_HEADER = "__header__"


class DamagedFileError(RicochetError):
    """A stored file that cannot be read back: truncated, foreign, of another schema, or failing its hash."""


# ----------------------------------------------------------------------------
# Output paths, checked before any work starts
# ----------------------------------------------------------------------------

def _existing_ancestor(path: Path, what: str, original: Path) -> Path:
    """The nearest folder at or above ``path`` that exists (the one the missing ones will be made in)."""
    for p in (path, *path.parents):
        if p.exists():
            if not p.is_dir():
                raise RicochetError(f"{what} {original}: {p} is a file, not a folder")
            return p
    return Path.cwd()


def _check_can_write_in(folder: Path, what: str, original: Path) -> None:
    if not os.access(folder, os.W_OK | os.X_OK):
        raise RicochetError(f"{what} {original}: cannot write in folder {folder} (permission denied or read-only)")


def check_writable_file(path: str | os.PathLike, what: str = "output file") -> Path:
    """``path`` as a :class:`~pathlib.Path` if a file can be written there; else one :class:`RicochetError`
    line naming the path and the problem (a folder, a file in the way of its folder, an unwritable folder).

    Call it before the work whose result goes there; missing folders above it are allowed (made later).
    """
    try:
        path = Path(path).expanduser()
    except (TypeError, ValueError) as exc:
        raise RicochetError(f"{what} {path!r} is not a file path ({exc})") from None
    if str(path) in ("", "."):
        raise RicochetError(f"{what} must name a file, got {str(path)!r}")
    if path.is_dir():
        raise RicochetError(f"{what} {path} is a folder: give a file name")
    if path.exists() and not path.is_file():
        raise RicochetError(f"{what} {path} exists and is not a regular file")
    _check_can_write_in(_existing_ancestor(path.parent, what, path), what, path)
    return path


def check_writable_folder(path: str | os.PathLike, what: str = "output folder") -> Path:
    """``path`` as a :class:`~pathlib.Path` if files can be written in it (it exists as a writable folder, or
    can be made); else one :class:`RicochetError` line naming the path and the problem."""
    try:
        path = Path(path).expanduser()
    except (TypeError, ValueError) as exc:
        raise RicochetError(f"{what} {path!r} is not a folder path ({exc})") from None
    if path.exists() and not path.is_dir():
        raise RicochetError(f"{what} {path} exists and is not a folder")
    _check_can_write_in(_existing_ancestor(path, what, path), what, path)
    return path


# ----------------------------------------------------------------------------
# Atomic writes
# ----------------------------------------------------------------------------

def atomic_write(path: str | os.PathLike, write: Callable[[BinaryIO], None]) -> None:
    """Write ``path`` through ``write(fh)`` on a unique temporary file in the same folder, then rename it
    over ``path``; on any error the temporary file is removed and ``path`` is left as it was."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: str | os.PathLike, text: str, what: str = "output file") -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically (:func:`atomic_write`), making missing folders above it.

    A failure (disk full, permission denied) is one :class:`RicochetError` line naming the path; the
    old file, if any, is left as it was and no partial file remains.
    """
    path = Path(path)
    data = text.encode("utf-8")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, lambda fh: fh.write(data))
    except OSError as exc:
        raise RicochetError(f"{what} {path} could not be written: {exc.strerror or exc}") from None


# ----------------------------------------------------------------------------
# Arrays with a header: results as data
# ----------------------------------------------------------------------------

def _digest(arrays: Mapping[str, np.ndarray]) -> str:
    h = hashlib.sha256()
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(json.dumps([name, a.dtype.str, list(a.shape)]).encode())
        h.update(a.tobytes())
    return h.hexdigest()


def save_arrays(path: str | os.PathLike, schema: str, arrays: Mapping[str, np.ndarray],
                header: Mapping | None = None, *, compressed: bool = False) -> None:
    """Store ``arrays`` (numeric or fixed-width text; no objects) and a JSON-able ``header`` atomically.

    The header records ``schema`` and the SHA-256 of the arrays, both checked by :func:`load_arrays`.
    ``compressed``: deflate the arrays (for large, mostly-zero caches; slower to write).
    """
    arrays = {k: np.asarray(v) for k, v in arrays.items()}
    for name, a in arrays.items():
        if a.dtype.hasobject or name == _HEADER:
            raise TypeError(f"cannot store array {name!r} of dtype {a.dtype}")
    head = {"tool": _TOOL, "schema": schema, "sha256": _digest(arrays), **(header or {})}
    blob = np.frombuffer(json.dumps(head, sort_keys=True).encode("utf-8"), dtype=np.uint8)
    save = np.savez_compressed if compressed else np.savez
    atomic_write(path, lambda fh: save(fh, **arrays, **{_HEADER: blob}))


def load_arrays(path: str | os.PathLike, schema: str) -> tuple[dict, dict[str, np.ndarray]]:
    """``(header, arrays)`` of a file written by :func:`save_arrays` with the same ``schema``.

    Raises :class:`DamagedFileError` (naming the file and the problem) for a
    file that is truncated, not ours, of another schema or failing its hash.
    Object arrays are never loaded (``allow_pickle=False``).
    """
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            magic = fh.read(4)
    except FileNotFoundError:
        raise DamagedFileError(f"{path}: cannot be read: no such file") from None
    except IsADirectoryError:
        raise DamagedFileError(f"{path}: cannot be read: it is a folder") from None
    except OSError as exc:
        raise DamagedFileError(f"{path}: cannot be read: {exc.strerror}") from None
    if not magic:
        raise DamagedFileError(f"{path}: cannot be read: the file is empty (a crash or a full disk while writing?)")
    if magic != b"PK\x03\x04":  # what np.load would otherwise try as a pickle
        raise DamagedFileError(f"{path}: cannot be read: not a ricochet_math data file (.npz archive)")
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except Exception as exc:  # noqa: BLE001 - a damaged zip fails deep in numpy/zipfile/zlib in many ways
        reason = " ".join(str(exc).split())[:200]
        raise DamagedFileError(f"{path}: cannot be read as stored data (truncated, damaged or not a "
                               f"ricochet_math file: {type(exc).__name__}: {reason})") from None
    blob = arrays.pop(_HEADER, None)
    try:
        head = json.loads(bytes(blob).decode("utf-8")) if blob is not None and blob.dtype == np.uint8 else None
    except (UnicodeDecodeError, json.JSONDecodeError):
        head = None
    if not isinstance(head, dict) or head.get("tool") != _TOOL:
        raise DamagedFileError(f"{path}: not a file written by ricochet_math (no header)")
    if head.get("schema") != schema:
        raise DamagedFileError(f"{path}: holds {head.get('schema')!r}, expected {schema!r}")
    if head.get("sha256") != _digest(arrays):
        raise DamagedFileError(f"{path}: content does not match its hash (damaged)")
    return head, arrays


# ----------------------------------------------------------------------------
# Folders the toolkit owns
# ----------------------------------------------------------------------------

def _marker(folder: Path) -> dict | None:
    try:
        data = json.loads((folder / MARKER_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("tool") == _TOOL else None


def _only_files_like(folder: Path, layout: Iterable[str]) -> bool:
    """Whether every file under ``folder`` matches one of the glob ``layout`` patterns (relative paths)."""
    patterns = tuple(layout)
    if not patterns:
        return False
    for p in folder.rglob("*"):
        if p.is_symlink() or not (p.is_dir() or p.is_file()):
            return False
        if p.is_file() and not any(p.relative_to(folder).match(pat) for pat in patterns):
            return False
    return True


def is_owned_folder(folder: str | os.PathLike, kind: str, legacy_layout: Iterable[str] = ()) -> bool:
    """Whether ``folder`` was written by the toolkit as a ``kind`` folder: it carries the marker, or (for
    folders written before the marker) holds only files matching ``legacy_layout``."""
    folder = Path(folder)
    if not folder.is_dir() or folder.is_symlink():
        return False
    mark = _marker(folder)
    if mark is not None:
        return mark.get("kind") == kind
    return not (folder / MARKER_NAME).exists() and _only_files_like(folder, legacy_layout)


def check_output_folder(folder: str | os.PathLike, kind: str, legacy_layout: Iterable[str] = (),
                        what: str = "output folder") -> Path:
    """Refuse (one line, :class:`~ricochet_math.errors.RicochetError`) a target folder the toolkit may not
    replace: a file, a link, or a non-empty folder it did not write.  Returns the path."""
    folder = Path(folder)
    if folder.is_symlink():
        raise RicochetError(f"{what} {folder} is a symbolic link: give the folder itself")
    if folder.exists() and not folder.is_dir():
        raise RicochetError(f"{what} {folder} exists and is not a folder")
    if folder.is_dir() and any(folder.iterdir()) and not is_owned_folder(folder, kind, legacy_layout):
        raise RicochetError(
            f"{what} {folder} exists and was not written by ricochet_math (no {MARKER_NAME}); "
            "nothing was changed: choose a new or empty folder")
    return folder


def write_marker(folder: str | os.PathLike, kind: str, **info) -> None:
    """Mark ``folder`` as a ``kind`` folder written by the toolkit (``info``: JSON-able facts about it)."""
    text = json.dumps({"tool": _TOOL, "kind": kind, **info}, indent=1, sort_keys=True) + "\n"
    atomic_write(Path(folder) / MARKER_NAME, lambda fh: fh.write(text.encode("utf-8")))


def replace_folder(new: str | os.PathLike, target: str | os.PathLike, kind: str,
                   legacy_layout: Iterable[str] = ()) -> None:
    """Move the finished folder ``new`` to ``target``, replacing an older ``kind`` folder there.

    ``target`` is checked again here (it may have changed while the work ran); a
    folder the toolkit did not write is never moved or deleted.
    """
    new, target = Path(new), Path(target)
    check_output_folder(target, kind, legacy_layout)
    new.chmod(0o755)
    old = None
    if target.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
        os.replace(target, old)  # onto the fresh empty folder: atomic on POSIX
    os.replace(new, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def remove_owned_folder(folder: str | os.PathLike, kind: str, legacy_layout: Iterable[str] = ()) -> bool:
    """Delete ``folder`` if (and only if) the toolkit wrote it as a ``kind`` folder; returns whether it did."""
    folder = Path(folder)
    if not is_owned_folder(folder, kind, legacy_layout):
        return False
    shutil.rmtree(folder, ignore_errors=True)
    return True
