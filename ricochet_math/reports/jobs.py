"""The report's job runner and its work folder: finished work is kept, so a stopped report resumes.

Work in progress lives in ``<out_dir's parent>/.<name>.work/`` (a folder the
toolkit marks as its own): every Monte Carlo run checkpoints its finished
chunks there (``simulate(checkpoint=...)``) and every finished job keeps its
result there as data (``job-<key>.npz``: arrays and a JSON header with a
schema name and a hash, see :mod:`ricochet_math.storage`), named by a hash of
the job's label, arguments and the package version.  Nothing is ever
unpickled: a planted or damaged file is reported and the job runs again.  The
folder is removed when the report is complete.
"""
from __future__ import annotations

import hashlib
import json
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ricochet_math._version import __version__
from ricochet_math.engine.sums import ChunkSums
from ricochet_math.errors import RicochetError, quote
from ricochet_math.reports.document import slug
from ricochet_math.reports.published import PublishedFigures
from ricochet_math.solvers.montecarlo import SimulationResult
from ricochet_math.storage import (
    DamagedFileError, check_output_folder, load_arrays, remove_owned_folder, save_arrays, write_marker,
)

__all__ = ["Job", "job_key", "run_jobs", "work_folder", "remove_work_folder", "save_result", "load_result"]

WORK_KIND = "report-work"
SCHEMA = "ricochet_math.report-job/1"


@dataclass
class Job:
    """One piece of work: ``run()`` returns a result :func:`save_result` can store (a
    :class:`SimulationResult`, :class:`PublishedFigures` or a numeric array); ``cost`` orders the progress
    bar (seconds, rough)."""

    key: str
    label: str
    cost: float
    run: Callable[[], Any]


def job_key(label: str, params: Mapping[str, Any]) -> str:
    """A file-name-safe key that changes with the label, the arguments and the package version."""
    text = json.dumps({"label": label, "version": __version__, **params}, sort_keys=True, default=str)
    return f"{slug(label)}-{hashlib.sha256(text.encode()).hexdigest()[:12]}"


def work_folder(out: Path) -> Path:
    """``<out's parent>/.<out's name>.work``, created and marked (with ``out``'s parent) if missing.

    An existing folder of that name that the toolkit did not write is refused, untouched.
    """
    out.parent.mkdir(parents=True, exist_ok=True)
    work = out.parent / f".{out.name}.work"
    check_output_folder(work, WORK_KIND, what="report work folder")
    work.mkdir(exist_ok=True)
    write_marker(work, WORK_KIND, report=out.name)
    return work


def remove_work_folder(work: Path) -> None:
    """Delete the work folder, only if it is the toolkit's own."""
    remove_owned_folder(work, WORK_KIND, ours=_is_work_file)


#: what the toolkit writes in a work folder: stored jobs (``job-*``) and Monte Carlo checkpoints (``sim-*``,
#: :mod:`~ricochet_math.reports.compute`)
_WORK_PREFIXES = ("job-", "sim-")


def _is_work_file(rel: str) -> bool:
    """Whether ``rel`` (a path in a work folder) is a file the toolkit writes there: a stored job or
    checkpoint, or a killed write's temporary file of one.  A file a user put there stays, and the folder."""
    if "/" in rel:
        return False
    if rel.endswith(".npz"):
        return rel.startswith(_WORK_PREFIXES)
    return rel.endswith(".tmp") and rel.startswith(tuple("." + p for p in _WORK_PREFIXES))


# ----------------------------------------------------------------------------
# Results as data
# ----------------------------------------------------------------------------

def _frame_arrays(prefix: str, frame: pd.DataFrame) -> tuple[dict[str, np.ndarray], dict]:
    """A data frame as arrays (numeric columns) and JSON (every other column, values as they are)."""
    arrays, spec = {}, []
    for i, name in enumerate(frame.columns):
        col = frame[name]
        if pd.api.types.is_numeric_dtype(col.dtype) and not pd.api.types.is_bool_dtype(col.dtype):
            arrays[f"{prefix}/{i}"] = col.to_numpy()
            spec.append({"name": name, "dtype": str(col.dtype), "array": True})
        else:
            values = [None if (isinstance(v, float) and math.isnan(v)) or v is None else
                      (v.item() if isinstance(v, np.generic) else v) for v in col.tolist()]
            spec.append({"name": name, "dtype": str(col.dtype), "array": False, "values": values})
    return arrays, {"columns": spec, "rows": len(frame)}


def _frame_from(prefix: str, spec: dict, arrays: Mapping[str, np.ndarray]) -> pd.DataFrame:
    data = {}
    for i, col in enumerate(spec["columns"]):
        if col["array"]:
            data[col["name"]] = pd.Series(arrays[f"{prefix}/{i}"], dtype=col["dtype"])
        else:
            values = [np.nan if v is None else v for v in col["values"]]
            data[col["name"]] = pd.Series(values, dtype=col["dtype"] if col["dtype"] != "object" else object)
    return pd.DataFrame(data, index=pd.RangeIndex(spec["rows"]))


def save_result(path: Path, result: Any) -> None:
    """Store a job's result as data (see the module docstring)."""
    if isinstance(result, SimulationResult):
        head = {f.name: getattr(result, f.name) for f in fields(result) if f.name != "sums"}
        arrays = {f"sums/{k}": v for k, v in result.sums.to_arrays().items()}
        save_arrays(path, SCHEMA, arrays, {"type": "simulation", "fields": head})
    elif isinstance(result, PublishedFigures):
        arrays, head = {}, {"rules_name": result.rules_name, "rounds": result.rounds, "seed": result.seed,
                            "seconds": result.seconds}
        for name in ("table", "by_players"):
            a, spec = _frame_arrays(name, getattr(result, name))
            arrays.update(a)
            head[name] = spec
        save_arrays(path, SCHEMA, arrays, {"type": "published", "fields": head})
    elif isinstance(result, np.ndarray) and not result.dtype.hasobject:
        save_arrays(path, SCHEMA, {"value": result}, {"type": "array"})
    else:
        raise TypeError(f"a report job returned {type(result).__name__}, which cannot be stored as data")


def load_result(path: Path) -> Any:
    """Read back what :func:`save_result` stored; :class:`DamagedFileError` for anything else."""
    head, arrays = load_arrays(path, SCHEMA)
    kind, f = head.get("type"), head.get("fields", {})
    try:
        if kind == "simulation":
            sums = ChunkSums.from_arrays({k.split("/", 1)[1]: v for k, v in arrays.items()})
            tuples = {k: tuple(f[k]) for k in ("strategies", "seeds", "control_means")}
            return SimulationResult(**{**f, **tuples, "sums": sums})
        if kind == "published":
            return PublishedFigures(table=_frame_from("table", f["table"], arrays),
                                    by_players=_frame_from("by_players", f["by_players"], arrays),
                                    rules_name=f["rules_name"], rounds=f["rounds"], seed=f["seed"],
                                    seconds=f["seconds"])
        if kind == "array":
            return arrays["value"]
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise DamagedFileError(f"{path}: stored result does not fit its schema ({exc})") from None
    raise DamagedFileError(f"{path}: unknown stored result type {quote(kind)}")


# ----------------------------------------------------------------------------
# Running
# ----------------------------------------------------------------------------

def run_jobs(jobs: Sequence[Job], work: Path, progress: bool,
             timer: Callable[[], float]) -> tuple[dict[str, Any], dict[str, float]]:
    """Run the jobs one after another (each Monte Carlo run uses every core itself).

    Returns the results and the seconds each took, by job key (NaN for a job
    read back).  A finished job's result is stored in ``work`` and read back
    instead of running the job again, so a stopped report resumes; a job
    stopped midway resumes from its own checkpoint.  A stored result that
    cannot be read (damaged, planted, another version's) is said so on stderr
    and the job runs again.
    """
    results: dict[str, Any] = {}
    seconds: dict[str, float] = {}
    pending = []
    for job in jobs:
        path = work / f"job-{job.key}.npz"
        if path.exists():
            try:
                results[job.key] = load_result(path)
                seconds[job.key] = math.nan
                continue
            except RicochetError as exc:
                print(f"ricochet: note: {exc}; running that job again", file=sys.stderr)
        pending.append(job)
    total = sum(j.cost for j in jobs)
    done = sum(j.cost for j in jobs if j not in pending)
    bar = tqdm(total=round(total, 1), initial=round(done, 1), desc="report", file=sys.stderr,
               bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining}{postfix}",
               disable=not progress, leave=False)
    try:
        for job in pending:
            bar.set_postfix_str(job.label)
            t0 = timer()
            out = job.run()
            seconds[job.key] = timer() - t0
            results[job.key] = out
            save_result(work / f"job-{job.key}.npz", out)
            bar.update(round(job.cost, 1))
    finally:
        bar.close()
    return results, seconds
