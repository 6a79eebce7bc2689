"""The report's job runner and its work folder: finished work is kept, so a stopped report resumes.

Work in progress lives in ``<out_dir's parent>/.<name>.work/``: every Monte
Carlo run checkpoints its finished chunks there (``simulate(checkpoint=...)``)
and every finished job keeps its result there as a pickle named by a hash of
the job's label, arguments and the package version; the folder is removed
when the report is complete.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import pickle
import shutil
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

from ricochet_math._version import __version__
from ricochet_math.reports.document import slug

__all__ = ["Job", "job_key", "run_jobs", "work_folder", "remove_work_folder"]


@dataclass
class Job:
    """One piece of work: ``run()`` returns a picklable result; ``cost`` orders the progress bar (seconds, rough)."""

    key: str
    label: str
    cost: float
    run: Callable[[], Any]


def job_key(label: str, params: Mapping[str, Any]) -> str:
    """A file-name-safe key that changes with the label, the arguments and the package version."""
    text = json.dumps({"label": label, "version": __version__, **params}, sort_keys=True, default=str)
    return f"{slug(label)}-{hashlib.sha256(text.encode()).hexdigest()[:12]}"


def work_folder(out: Path) -> Path:
    """``<out's parent>/.<out's name>.work``, created (with ``out``'s parent) if missing."""
    out.parent.mkdir(parents=True, exist_ok=True)
    work = out.parent / f".{out.name}.work"
    work.mkdir(exist_ok=True)
    return work


def remove_work_folder(work: Path) -> None:
    shutil.rmtree(work, ignore_errors=True)


def run_jobs(jobs: Sequence[Job], work: Path, progress: bool,
             timer: Callable[[], float]) -> tuple[dict[str, Any], dict[str, float]]:
    """Run the jobs one after another (each Monte Carlo run uses every core itself).

    Returns the results and the seconds each took, by job key (NaN for a job
    read back).  A finished job's result is pickled in ``work`` and read back
    instead of running the job again, so a stopped report resumes; a job
    stopped midway resumes from its own checkpoint.
    """
    results: dict[str, Any] = {}
    seconds: dict[str, float] = {}
    pending = []
    for job in jobs:
        path = work / f"job-{job.key}.pkl"
        if path.exists():
            try:
                with open(path, "rb") as fh:
                    results[job.key] = pickle.load(fh)
                seconds[job.key] = math.nan
                continue
            except Exception:  # a damaged file: run the job again
                path.unlink(missing_ok=True)
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
            path = work / f"job-{job.key}.pkl"
            tmp = path.with_name(path.name + ".tmp")
            with open(tmp, "wb") as fh:
                pickle.dump(out, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
            bar.update(round(job.cost, 1))
    finally:
        bar.close()
    return results, seconds
