"""Files the toolkit writes: atomic writes, folders it owns, and results kept as data.

Three rules keep an analyst's files safe:

* **Atomic writes under unique names.** A file is written to a temporary name
  unique to this process and call, then renamed over the target: a reader sees
  the old file or the new one, never half of one, and two writers never share a
  temporary file.
* **Only our own folders are replaced.** A folder the toolkit writes whole (a
  report) carries a marker file; an existing folder is replaced only when it
  carries the marker, or is empty.  Only the marker proves ownership: a folder
  holding files that look like a report's (a ``report.html``, ``tables/*.csv``)
  may be a user's own, so it is refused too.  A symbolic link is never
  followed, an empty folder keeps its permissions, and anything else is
  refused before any work starts, with nothing deleted.
* **Only our own files in them are replaced.** The marker records every file
  the toolkit wrote there with its SHA-256.  A rebuild replaces exactly those
  and keeps every other file (a reviewer's notes, a spreadsheet beside the
  tables), carried into the new folder before the atomic swap; a recorded file
  that was edited since is refused, named, before any work.
* **Work in progress is ours by name and marker.** A report is written in a
  staging folder ``.<name>.tmp-*`` beside its target that carries a staging
  marker from its first moment (with the writer's process id); a later run
  removes such folders whose writer is gone (a killed run) and nothing else.
* **Data, never code.** Finished work is stored as ``.npz`` arrays with a JSON
  header (a schema name and the SHA-256 of the arrays) and read back with
  ``allow_pickle=False``; a damaged or foreign file is reported, never executed.
"""
from __future__ import annotations

import contextlib
import functools
import glob
import inspect
import hashlib
import json
import os
import shutil
import stat
import tempfile
from dataclasses import dataclass
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import BinaryIO

import numpy as np

from ricochet_math.errors import RicochetError, quote, shorten

__all__ = [
    "MARKER_NAME", "DamagedFileError", "check_writable_file", "check_writable_folder",
    "atomic_write", "atomic_write_text", "save_arrays", "load_arrays",
    "is_owned_folder", "check_output_folder", "prepare_output_folder", "staging_folder", "STAGING_MARKER", "write_marker",
    "replace_folder", "remove_owned_folder", "remove_stale_staging", "file_sha256", "FolderContents",
    "folder_contents", "copy_to_owned_folder", "frame_records", "seed_values", "is_seed_column", "exact_seed_columns",
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


def _refused_by_system(check: Callable) -> Callable:
    """``check`` with the operating system's refusals (a name too long, a path it cannot look at) turned into
    one :class:`RicochetError` line naming the path (cut to a readable length) and the reason."""
    signature = inspect.signature(check)

    @functools.wraps(check)
    def checked(path, *args, **kwargs):
        try:
            return check(path, *args, **kwargs)
        except OSError as exc:
            bound = signature.bind(path, *args, **kwargs)
            bound.apply_defaults()
            what = bound.arguments.get("what", "path")
            raise RicochetError(f"{what} {shorten(str(path))}: {exc.strerror or exc}") from None
    return checked


@_refused_by_system
def check_writable_file(path: str | os.PathLike, what: str = "output file") -> Path:
    """``path`` as a :class:`~pathlib.Path` if a file can be written there; else one :class:`RicochetError`
    line naming the path and the problem (a folder, a file in the way of its folder, an unwritable folder,
    a name the system refuses).

    Call it before the work whose result goes there; missing folders above it are allowed (made later).
    """
    try:
        path = Path(path).expanduser()
    except (TypeError, ValueError) as exc:
        raise RicochetError(f"{what} {quote(path)} is not a file path ({exc})") from None
    if str(path) in ("", "."):
        raise RicochetError(f"{what} must name a file, got {str(path)!r}")
    if path.is_dir():
        raise RicochetError(f"{what} {path} is a folder: give a file name")
    if path.exists() and not path.is_file():
        raise RicochetError(f"{what} {path} exists and is not a regular file")
    _check_can_write_in(_existing_ancestor(path.parent, what, path), what, path)
    return path


@_refused_by_system
def check_writable_folder(path: str | os.PathLike, what: str = "output folder") -> Path:
    """``path`` as a :class:`~pathlib.Path` if files can be written in it (it exists as a writable folder, or
    can be made); else one :class:`RicochetError` line naming the path and the problem."""
    try:
        path = Path(path).expanduser()
    except (TypeError, ValueError) as exc:
        raise RicochetError(f"{what} {quote(path)} is not a folder path ({exc})") from None
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

def _marker(folder: Path, name: str = MARKER_NAME) -> dict | None:
    try:
        data = json.loads((folder / name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("tool") == _TOOL else None


def is_owned_folder(folder: str | os.PathLike, kind: str) -> bool:
    """Whether ``folder`` was written by the toolkit as a ``kind`` folder: a real folder (not a link)
    carrying the toolkit's marker of that kind.  Nothing else proves it: files that look like the
    toolkit's own may be a user's."""
    folder = Path(folder)
    if not folder.is_dir() or folder.is_symlink():
        return False
    mark = _marker(folder)
    return mark is not None and mark.get("kind") == kind


def file_sha256(path: str | os.PathLike) -> str:
    """The SHA-256 (hex) of the bytes of the file at ``path``."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


#: the marker of a staging folder (beside the final marker, which is written before the move): removed
#: only by :func:`replace_folder` just before the folder takes its place
STAGING_MARKER = ".ricochet-staging.json"
_MARKERS = frozenset({MARKER_NAME, STAGING_MARKER})


def _entries(folder: Path) -> tuple[list[str], list[str]]:
    """``(files, empty folders)`` below ``folder``, as POSIX paths relative to it, the markers left out.

    A link (to a file or a folder) counts as a file and is never followed."""
    files, empty = [], []
    for root, dirs, names in os.walk(folder, followlinks=False):
        here = Path(root)
        rel = here.relative_to(folder)
        links = [d for d in dirs if (here / d).is_symlink()]
        dirs[:] = sorted(d for d in dirs if d not in links)
        for name in sorted([*names, *links]):
            r = (rel / name).as_posix()
            if r not in _MARKERS:
                files.append(r)
        if rel != Path(".") and not names and not dirs and not links:
            empty.append(rel.as_posix())
    return files, empty


def _recorded(mark: Mapping | None) -> dict[str, str] | None:
    """The marker's record of the files the toolkit wrote (path -> SHA-256), or None for a marker of a
    version that kept no record."""
    files = (mark or {}).get("files")
    if isinstance(files, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
        return files
    return None


def _is_unchanged(folder: Path, rel: str, sha: str) -> bool:
    path = folder / rel
    return path.is_file() and not path.is_symlink() and file_sha256(path) == sha


@dataclass(frozen=True)
class FolderContents:
    """An owned folder sorted into the toolkit's files and the rest (paths relative to the folder).

    ``ours``: recorded files still as written; ``edited``: recorded files changed since (or now a link or a
    folder); ``foreign``: files (and links) the toolkit did not write; ``empty``: empty folders a user made;
    ``recorded``: whether the marker holds a record (markers of older versions do not: then every file is
    ``foreign`` and only a file the new folder writes again counts as the toolkit's)."""

    ours: tuple[str, ...]
    edited: tuple[str, ...]
    foreign: tuple[str, ...]
    empty: tuple[str, ...]
    recorded: bool


def folder_contents(folder: str | os.PathLike) -> FolderContents:
    """Sort the files of a toolkit folder by its marker's record (:class:`FolderContents`)."""
    folder = Path(folder)
    record = _recorded(_marker(folder))
    files, empty = _entries(folder)
    ours, edited, foreign = [], [], []
    for rel in files:
        if record is None or rel not in record:
            foreign.append(rel)
        elif _is_unchanged(folder, rel, record[rel]):
            ours.append(rel)
        else:
            edited.append(rel)
    return FolderContents(tuple(ours), tuple(edited), tuple(foreign), tuple(empty), record is not None)


def _edited_refusal(folder: Path, rel: str, what: str) -> RicochetError:
    return RicochetError(
        f"{what} {folder}: {rel} was changed since ricochet_math wrote it (it differs from the folder's "
        f"record in {MARKER_NAME}); nothing was changed: rename it (a renamed file is kept as yours) or "
        "move it away, or choose another folder")


def check_output_folder(folder: str | os.PathLike, kind: str, what: str = "output folder") -> Path:
    """Refuse (one line, :class:`~ricochet_math.errors.RicochetError`) a target folder the toolkit may not
    rebuild: a file, a link, a non-empty folder it did not write, or a folder of its own in which a file it
    wrote was edited since (the first such file is named).  Files a user added to a toolkit folder are no
    reason to refuse: a rebuild keeps them (:func:`replace_folder`).  Returns the path."""
    folder = Path(folder)
    if folder.is_symlink():
        raise RicochetError(f"{what} {folder} is a symbolic link: give the folder itself")
    if folder.exists() and not folder.is_dir():
        raise RicochetError(f"{what} {folder} exists and is not a folder")
    if folder.is_dir() and any(folder.iterdir()):
        if not is_owned_folder(folder, kind):
            raise RicochetError(
                f"{what} {folder} exists and was not written by ricochet_math (no {MARKER_NAME}); "
                "nothing was changed: choose a new or empty folder")
        edited = folder_contents(folder).edited
        if edited:
            raise _edited_refusal(folder, edited[0], what)
    return folder


def write_marker(folder: str | os.PathLike, kind: str, *, record_files: bool = False, **info) -> None:
    """Mark ``folder`` as a ``kind`` folder written by the toolkit (``info``: JSON-able facts about it).

    ``record_files``: record every file now in the folder with its SHA-256 (``files`` in the marker), so a
    rebuild replaces exactly those and keeps whatever a user adds later."""
    folder = Path(folder)
    if record_files:
        info["files"] = {rel: file_sha256(folder / rel) for rel in _entries(folder)[0]}
    text = json.dumps({"tool": _TOOL, "kind": kind, **info}, indent=1, sort_keys=True) + "\n"
    atomic_write(folder / MARKER_NAME, lambda fh: fh.write(text.encode("utf-8")))


def _carry(src: Path, dst: Path) -> None:
    """Put the file (or link) ``src`` at ``dst`` too, leaving ``src`` as it is: a hard link where the file
    system allows it (no copy of the bytes), else a copy with its times and mode."""
    if src.is_symlink():
        os.symlink(os.readlink(src), dst)
        return
    try:
        os.link(src, dst, follow_symlinks=False)
    except OSError:
        shutil.copy2(src, dst, follow_symlinks=False)


def _make_folders(rel: Path, target: Path, new: Path) -> None:
    """Make ``new / rel`` and the folders above it, each with the mode of its twin in ``target``."""
    for part in reversed([rel, *rel.parents][:-1]):
        d = new / part
        if not d.exists():
            d.mkdir()
            with contextlib.suppress(OSError):
                d.chmod(stat.S_IMODE((target / part).stat().st_mode))


def _clash(new: Path, rel: str) -> bool:
    """Whether the user's ``rel`` cannot sit in ``new``: the new folder writes that path, or a file of it
    stands where one of ``rel``'s folders would be."""
    p = Path(rel)
    return (new / p).exists() or (new / p).is_symlink() or any(
        (new / q).exists() and not (new / q).is_dir() for q in p.parents if q != Path("."))


def replace_folder(new: str | os.PathLike, target: str | os.PathLike, kind: str,
                   what: str = "output folder") -> tuple[str, ...]:
    """Move the finished folder ``new`` to ``target``, replacing an empty folder or an older ``kind`` folder
    there, and keep every file in it that the toolkit did not write.  Returns the kept files.

    The rule for a rebuild: the old folder's marker records each file the toolkit wrote with its
    SHA-256; exactly those are replaced.  A file a user added (a reviewer's notes, a spreadsheet beside the
    tables) is carried into the new folder at the same path, and so is an empty folder a user made; a file
    of the toolkit's that was edited since is refused (:func:`check_output_folder`), and so is a user's file
    at a path the new folder writes itself, in one line naming it, with nothing changed.  (An old marker
    without a record: every file the new folder does not write again is kept.)

    ``target`` is checked again here (it may have changed while the work ran); a folder the toolkit did not
    write is never moved or deleted.  The swap is atomic: the user's files are linked into ``new`` first
    (never moved), then ``target`` and ``new`` change places; the old folder is removed only after, and
    only what it holds of the toolkit's (a file added in between is moved over, never deleted).  The new
    folder takes the permissions of the folder it replaces (an analyst's ``chmod 700`` stays), or the
    default for a new folder (``0o777`` less the umask).
    """
    new, target = Path(new), Path(target)
    check_output_folder(target, kind, what)
    kept: tuple[str, ...] = ()
    if target.is_dir():
        contents = folder_contents(target)
        kept = contents.foreign
        if not contents.recorded:  # a marker of an older version: the files the new folder writes were ours
            kept = tuple(rel for rel in kept if not (new / rel).is_file())
        for rel in kept:
            if _clash(new, rel):
                raise RicochetError(
                    f"{what} {target}: {rel} is not a file ricochet_math wrote, and the new folder writes a "
                    "file of that name; nothing was changed: rename or move it and run again")
        for rel in kept:
            _make_folders(Path(rel).parent, target, new)
            _carry(target / rel, new / rel)
        for rel in contents.empty:
            _make_folders(Path(rel), target, new)
    new.chmod(stat.S_IMODE(target.stat().st_mode) if target.is_dir() else 0o777 & ~_umask())
    (new / STAGING_MARKER).unlink(missing_ok=True)
    old = None
    if target.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
        os.replace(target, old)  # onto the fresh empty folder: atomic on POSIX
    os.replace(new, target)
    if old is not None:
        _remove_old(old, target, set(kept))
    return kept


def _remove_old(old: Path, target: Path, kept: set[str]) -> None:
    """Remove the replaced folder ``old``: the toolkit's files in it, and the user's files already carried
    into ``target``.  A file that is neither (one added in the instant of the swap) is moved into
    ``target``; if that cannot be done, ``old`` stays where it is, with that file in it."""
    record = _recorded(_marker(old))
    stay = False
    for rel in _entries(old)[0]:
        path = old / rel
        if rel in kept and (target / rel).exists():
            path.unlink()  # carried: the new folder holds it
        elif record is not None and rel in record and _is_unchanged(old, rel, record[rel]):
            path.unlink()
        elif record is None and rel not in kept and (target / rel).is_file():
            path.unlink()  # an old marker without a record: a file the new folder wrote again
        elif not _clash(target, rel):
            _make_folders(Path(rel).parent, old, target)
            os.replace(path, target / rel)
        else:
            stay = True
    if stay:
        return
    _remove_markers_and_folders(old)


def _remove_markers_and_folders(folder: Path) -> None:
    """Remove the markers of ``folder`` and its folders, deepest first, once no file is left in them."""
    for name in _MARKERS:
        (folder / name).unlink(missing_ok=True)
    for root, _dirs, _files in sorted(os.walk(folder), key=lambda w: -len(w[0])):
        with contextlib.suppress(OSError):
            Path(root).rmdir()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def remove_owned_folder(folder: str | os.PathLike, kind: str, ours: Callable[[str], bool] | None = None) -> bool:
    """Delete the toolkit's files in ``folder`` if (and only if) the toolkit wrote it as a ``kind`` folder,
    then the folder itself if nothing else is left in it; returns whether the folder is gone.

    The toolkit's files are those its marker records, unchanged; in a folder that grows file by file (a
    report's work folder, whose marker keeps no record) those whose relative path ``ours`` accepts.  A file
    a user put there stays, and so does the folder around it."""
    folder = Path(folder)
    if not is_owned_folder(folder, kind):
        return False
    record = _recorded(_marker(folder))
    for rel in _entries(folder)[0]:
        mine = (_is_unchanged(folder, rel, record[rel]) if record is not None and rel in record
                else record is None and ours is not None and ours(rel) and not (folder / rel).is_symlink())
        if mine:
            (folder / rel).unlink()
    if _entries(folder)[0]:
        return False
    _remove_markers_and_folders(folder)
    return not folder.exists()


# ----------------------------------------------------------------------------
# Preparing an output folder, and the staging folders of killed runs
# ----------------------------------------------------------------------------

_STAGING = "staging"


@_refused_by_system
def prepare_output_folder(folder: str | os.PathLike, kind: str, what: str = "output folder") -> Path:
    """Check ``folder`` before any work: the absolute path (a link is never resolved) if the toolkit may
    write a ``kind`` folder there, else one :class:`RicochetError` line.

    Refused: a symbolic link, a file, a non-empty folder without the toolkit's ``kind`` marker, a parent
    that is a file or cannot be written (a read-only folder, ``/proc``).  Missing folders above it are made
    (as every report did) and a staging folder is made and removed there, so a parent that refuses writes
    is found now, not after the work.  Staging folders of killed runs for this target are removed
    (:func:`remove_stale_staging`)."""
    try:
        folder = Path(os.path.abspath(Path(folder).expanduser()))  # abspath, not resolve: links stay links
    except (TypeError, ValueError) as exc:
        raise RicochetError(f"{what} {folder!r} is not a folder path ({exc})") from None
    if folder == Path(folder.anchor):
        raise RicochetError(f"{what} {folder} is the root of the file system: give a folder below it")
    check_output_folder(folder, kind, what)
    _check_can_write_in(_existing_ancestor(folder.parent, what, folder), what, folder)
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        Path(tempfile.mkdtemp(prefix=f".{folder.name}.probe-", dir=folder.parent)).rmdir()
    except OSError as exc:
        raise RicochetError(f"{what} {folder}: cannot write in folder {folder.parent} "
                            f"({exc.strerror or exc})") from None
    remove_stale_staging(folder)
    return folder


def staging_folder(target: str | os.PathLike, kind: str) -> Path:
    """A new private folder ``.<target name>.tmp-*`` beside ``target`` to write a ``kind`` folder in,
    marked from its first moment as this process's staging folder (so a later run can prove it ours)."""
    target = Path(target)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.tmp-", dir=target.parent))
    try:
        text = json.dumps({"tool": _TOOL, "kind": _STAGING, "target": target.name, "target_kind": kind,
                           "pid": os.getpid(), "host": _host()}, sort_keys=True)
        atomic_write(tmp / STAGING_MARKER, lambda fh: fh.write(text.encode("utf-8")))
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return tmp


def copy_to_owned_folder(sources: Mapping[str, str | os.PathLike], target: str | os.PathLike, kind: str,
                         what: str = "output folder") -> tuple[str, ...]:
    """Write ``target`` as a ``kind`` folder holding a copy of each file of ``sources`` (relative path in
    the folder -> file to copy), by the rules of every folder the toolkit writes: checked first
    (:func:`prepare_output_folder`), staged beside it, marked with its record, then swapped in, keeping the
    files a user added (:func:`replace_folder`).  Returns those kept files."""
    target = prepare_output_folder(target, kind, what)
    tmp = staging_folder(target, kind)
    try:
        for rel, src in sources.items():
            dst = tmp / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)
        write_marker(tmp, kind, record_files=True)
        return replace_folder(tmp, target, kind, what)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _host() -> str:
    try:
        return os.uname().nodename
    except AttributeError:  # pragma: no cover - not POSIX
        return ""


def _process_alive(pid: object) -> bool:
    if isinstance(pid, bool) or not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # a live process of another user (or unknown): leave its folder alone
    return True


def remove_stale_staging(target: str | os.PathLike) -> list[Path]:
    """Remove the staging folders that killed runs left beside ``target``; returns what was removed.

    A folder is removed only when all of these prove it the toolkit's own and abandoned: its name is
    ``.<target name>.tmp-*``, it is a real folder (not a link), it carries the toolkit's staging marker
    for this target, and the process that wrote it (same host) no longer runs.  A concurrent writer's
    folder and anything merely named alike are left alone."""
    target = Path(target)
    removed = []
    try:
        candidates = sorted(target.parent.glob(f".{glob.escape(target.name)}.tmp-*"))
    except OSError:
        return removed
    for p in candidates:
        mark = _marker(p, STAGING_MARKER) if p.is_dir() and not p.is_symlink() else None
        if (mark is None or mark.get("kind") != _STAGING or mark.get("target") != target.name
                or mark.get("host") != _host() or _process_alive(mark.get("pid"))):
            continue
        shutil.rmtree(p, ignore_errors=True)
        removed.append(p)
    return removed


# ---------------------------------------------------------------------------- tables as data

def is_seed_column(name) -> bool:
    """Whether a table column holds seeds (``seed``, ``selection_seed``, ``seeds``): whole numbers of up to
    128 bits that must be stored exactly, never as a float (issue 36)."""
    n = str(name).lower()
    return n in ("seed", "seeds") or n.endswith("_seed") or n.endswith("_seeds")


def seed_values(values) -> list:
    """Seeds as exact Python integers (a missing one as None), for a table column of ``dtype=object``: a
    column of seeds with a gap would otherwise become float64 and keep 16 of a 64-bit seed's 20 digits
    (``8.175740789505897e+17`` for 817574078950589720), and a run could not be repeated from it."""
    out = []
    for v in values:
        if v is None or (isinstance(v, float) and v != v) or type(v).__name__ == "NAType":
            out.append(None)
        elif isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"a seed must be a whole number stored as an integer, got {v!r}")
        else:
            out.append(int(v))
    return out


#: floats hold every whole number up to this exactly; a float seed above it has lost digits
_FLOAT_EXACT = 2 ** 53


def exact_seed_columns(frame):
    """``frame`` with every seed column (:func:`is_seed_column`) as exact integers, what every CSV, JSON and
    workbook writer of the toolkit writes.  A float seed column (pandas makes one of a column with a gap) is
    turned back into integers when its values are whole and below 2**53, where a float is still exact; a
    float seed above that has already lost digits, and writing it would record a run nobody can repeat: a
    RuntimeError (a bug in the code that made the table, not the user's input).  Text seeds (several seeds
    joined) are kept as they are."""
    cols = [c for c in frame.columns if is_seed_column(c) and frame[c].dtype.kind == "f"]
    if not cols:
        return frame
    frame = frame.copy()
    for c in cols:
        v = frame[c].to_numpy()
        ok = np.isnan(v) | ((v == np.floor(v)) & (np.abs(v) < _FLOAT_EXACT))
        if not ok.all():
            raise RuntimeError(f"column {c!r} holds seeds as floats that have lost digits (e.g. {v[~ok][0]!r}): "
                               "keep them as integers where the table is made (storage.seed_values)")
        frame[c] = _object_column(None if x != x else int(x) for x in v)
    return frame


def frame_records(frame) -> list[dict]:
    """A table as JSON records at full precision: floats as Python writes them (17 significant digits, where
    ``DataFrame.to_json`` keeps 10), integers exact (a seed of 64 or 128 bits stays whole), NaN and NA as
    null, numpy scalars as Python ones."""
    def native(v):
        if v is None or type(v).__name__ == "NAType":
            return None
        if isinstance(v, (bool, np.bool_)):
            return bool(v)
        if isinstance(v, (int, np.integer)):
            return int(v)
        if isinstance(v, (float, np.floating)):
            return float(v) if np.isfinite(v) else None  # as to_json: NaN and infinities are null
        if isinstance(v, np.ndarray):
            return [native(x) for x in v.tolist()]
        if isinstance(v, (list, tuple)):
            return [native(x) for x in v]
        if hasattr(v, "isoformat"):
            return v.isoformat()
        return v
    frame = exact_seed_columns(frame)
    return [{str(k): native(v) for k, v in row.items()} for row in frame.to_dict(orient="records")]


def _object_column(values):
    """``values`` as a pandas column of ``dtype=object`` (Python integers and None kept as they are)."""
    import pandas as pd  # lazy: storage is imported by modules that never touch a table

    return pd.Series(list(values), dtype=object).to_numpy()
