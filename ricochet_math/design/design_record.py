"""The design record beside a designed rule set (``NAME.design.json`` beside ``NAME.toml``), and which
of the two files ``ricochet design --write`` may replace.

The record holds the design's inputs and tables (what the report's "Design rationale" section reads), the
SHA-256 of the rule-set file as written (its bytes, and the rule set with the files it extends), and a
digest of its own content.  A rewrite replaces the pair only when both are the toolkit's and unchanged: a
file a user wrote or edited there is never overwritten (issue 35).
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from ricochet_math.errors import RuleError
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.storage import atomic_write_text, check_writable_file, file_sha256

__all__ = ["DESIGN_SCHEMA", "design_sidecar_path", "record_digest", "check_design_files", "SEARCH", "CONFIRM",
           "OTHERS", "role_seed", "confirmation_seed", "rederive_seeds", "verdict_text", "record_verdict", "NOT_MET",
           "add_verdict_header"]

#: what a designed rule set's description adds when the design is not feasible, confirmed and converged
NOT_MET = " (not met: see the header)"

#: the schema name of the design record written beside a designed rule set (:func:`design_sidecar_path`)
DESIGN_SCHEMA = "ricochet_math.design/1"


def design_sidecar_path(rules_path: str | Path) -> Path:
    """The design record written beside a designed rule set: ``NAME.design.json``."""
    p = Path(rules_path)
    return p.with_name(p.stem + ".design.json")


def record_digest(record: Mapping) -> str:
    """The SHA-256 of a design record's content (every key but the digest itself), as written canonically."""
    body = {k: v for k, v in record.items() if k != "record_sha256"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode("utf-8")).hexdigest()


def check_design_files(path: str | Path) -> tuple[Path, Path]:
    """``(rules file, design record)`` if :meth:`RuleSetDesign.write_toml` may write them, else one
    :class:`~ricochet_math.errors.RuleError` line naming the file; call it before the design runs.

    Either may be new.  An existing one is replaced only when it is the toolkit's and unchanged: the record
    must be a design record whose content matches its own digest, and the rules file must be the one that
    record names, with the bytes it recorded (a record of an older version, without those digests: the rule
    set it recorded).  A file a user wrote or edited there is never overwritten."""
    path = check_writable_file(path, "designed rule-set file")
    side = check_writable_file(design_sidecar_path(path), "design record")
    record = None
    if side.exists():
        try:
            record = json.loads(side.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            record = None
        if (not isinstance(record, dict) or record.get("schema") != DESIGN_SCHEMA
                or record.get("record_sha256", record_digest(record)) != record_digest(record)):
            raise RuleError(f"design record {side} exists and is not a design record ricochet_math wrote (or was "
                            "edited since); nothing was written: choose another --write file or move it away")
    if path.exists() and not _is_designed_file(path, record):
        raise RuleError(f"designed rule-set file {path} exists and was not written by ricochet design (or was "
                        f"edited since, or its {side.name} is missing); nothing was written: choose another "
                        "--write file or move it away")
    return path, side


def _is_designed_file(path: Path, record: Mapping | None) -> bool:
    if record is None or record.get("rules_file") != path.name:
        return False
    if "rules_file_sha256" in record:
        return file_sha256(path) == record["rules_file_sha256"]
    try:  # a record of an older version: it kept the rule set's SHA-256 only
        return load_rules(path).sha256 == record.get("designed_sha256")
    except RuleError:
        return False


# ---------------------------------------------------------------------------- seeds of older records

#: seed roles of a design's runs (:func:`role_seed`)
SEARCH, CONFIRM, OTHERS = 0, 1, 2


def role_seed(seed: int, role: int, players: int) -> int:
    """The seed of one role (``SEARCH``, ``CONFIRM``, ``OTHERS``) at ``players`` seats: the first 64
    bits of ``SeedSequence(seed, spawn_key=(role, players))``.  Each is the root of its own chunk
    streams (chunk ``i`` from ``SeedSequence(role_seed, spawn_key=(i,))``), so the confirmation's deals
    are independent of the search's.  It lives beside the record, which stores the seeds it gives."""
    return int(np.random.SeedSequence(seed, spawn_key=(role, players)).generate_state(1, np.uint64)[0])


def confirmation_seed(master: int, players: int) -> int:
    """The seed of the confirmation run at ``players`` seats of a design with master seed ``master``
    (:func:`role_seed` of the ``CONFIRM`` role): what a record's ``table[i].seed`` holds."""
    return role_seed(master, CONFIRM, players)


def _agrees(stored: str, exact: int) -> bool:
    """Whether ``stored`` (a seed written as a float, ``8.17574079e+17``, or as digits) is ``exact`` to every
    digit it shows: the float's decimal text rounded to its own significant digits."""
    text = stored.strip()
    if re.fullmatch(r"\d+", text):
        return int(text) == exact
    m = re.fullmatch(r"(\d)(?:\.(\d*))?[eE]\+?(\d+)", text) or re.fullmatch(r"(\d+)\.(0*)", text)
    if m is None:
        return False
    digits = len(m.group(1)) + len(m.group(2) or "")
    return f"{exact:.{digits - 1}e}" == f"{float(text):.{digits - 1}e}"


def _method_seed(method: str) -> int | None:
    """The exact seed the method text names (``monte carlo, 230,466 rounds, seed 817574078950589720, ...``)."""
    m = re.search(r"\bseed (\d+)", method or "")
    return int(m.group(1)) if m else None


def rederive_seeds(record_path: str | Path, csv_path: str | Path | None = None, *, write: bool = False) -> list[str]:
    """Rewrite the confirmation seeds of a design record written before issue 36 (and of its ``--csv``
    table), where pandas had stored them as floats (``8.17574079e+17`` in the record, 10 significant
    digits; ``8.175740789505897e+17`` in the CSV, 16): each is re-derived from the record's master seed
    (:func:`confirmation_seed`) and checked, before anything is written, against every digit the stored
    float shows and against the exact seed the row's method text names; any disagreement stops with a
    RuntimeError and nothing written.  Every other byte of both files is kept; the record's digest is
    recomputed where it has one.  Returns one line per seed; ``write=False`` only checks."""
    record_path = Path(record_path)
    raw = record_path.read_text(encoding="utf-8")
    # the stored seeds as written (a float's text is lost once parsed): "seed": <text> in table order
    stored = re.findall(r'"seed": ([^,\n}]+)', raw.split('"table": [', 1)[1].split('"others":', 1)[0])
    record = json.loads(raw)
    master = int(record["seed"])
    rows = record["table"]
    if len(stored) != len(rows):
        raise RuntimeError(f"{record_path}: {len(stored)} seed fields for {len(rows)} table rows")
    lines = []
    for row, text in zip(rows, stored):
        n = int(row["players"])
        if text.strip() == "null":
            if row.get("rounds"):
                raise RuntimeError(f"{record_path}: N = {n} ran {row['rounds']} rounds but has no seed")
            continue
        exact = confirmation_seed(master, n)
        named = _method_seed(row.get("method", ""))
        if not _agrees(text, exact) or named not in (None, exact):
            raise RuntimeError(f"{record_path}: N = {n}: stored seed {text.strip()} (method text: {named}) is not "
                               f"the derivation's {exact}: left as it is")
        row["seed"] = exact
        lines.append(f"{record_path.name}: N = {n}: {text.strip()} -> {exact}")
    out_csv = None
    if csv_path is not None:
        out_csv = _rederive_csv(Path(csv_path), master, lines)
    if write:
        if "record_sha256" in record:  # a record of an older version has none: none is added
            record["record_sha256"] = record_digest(record)
        text = json.dumps(record, indent=1) + "\n"
        atomic_write_text(record_path, text, "design record")
        if out_csv is not None:
            atomic_write_text(Path(csv_path), out_csv, "design table")
    return lines


def _rederive_csv(path: Path, master: int, lines: list[str]) -> str:
    """The design table CSV with its ``seed`` column re-derived (the checks of :func:`rederive_seeds`)."""
    text = path.read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    head = rows[0]
    k, kp, km = head.index("seed"), head.index("players"), head.index("method")
    for row in rows[1:]:
        if not row[k]:
            continue
        n = int(row[kp])
        exact = confirmation_seed(master, n)
        named = _method_seed(row[km])
        if not _agrees(row[k], exact) or named not in (None, exact):
            raise RuntimeError(f"{path}: N = {n}: stored seed {row[k]} is not the derivation's {exact}: left as it is")
        lines.append(f"{path.name}: N = {n}: {row[k]} -> {exact}")
        row[k] = str(exact)
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)  # pandas' own CSV dialect: minimal quoting, \n
    return buf.getvalue()


# ---------------------------------------------------------------------------- the verdict

def verdict_text(feasible: bool, miss: float, confirmed: bool, confirmed_miss: float, outside, converged: bool) -> str:
    """The design's verdict in one line (issue 36): "feasible and confirmed" (every player count's 95%
    interval inside the band, in the search and again on fresh seeds), or what failed: the search's ``miss``
    (fraction), "not confirmed" with the worst confirmed interval's miss and the player counts ``outside``,
    and a search that did not converge."""
    if feasible and confirmed:
        text = "feasible and confirmed: every player count's 95% interval inside the band, on fresh seeds too"
    else:
        parts = ["feasible in the search" if feasible else
                 f"NOT in the band: the closest design misses it by {miss * 100:.3f} points"]
        parts.append("confirmed on fresh seeds" if confirmed else
                     f"not confirmed on fresh seeds (the worst interval lies {confirmed_miss * 100:.3f} points "
                     f"outside the band, N = {', '.join(map(str, outside))})")
        text = "; ".join(parts)
    return text + ("" if converged else "; the search did NOT converge")


def record_verdict(record: Mapping) -> tuple[str, bool]:
    """(:func:`verdict_text`, whether the design is met) of a design record: its band, search verdict,
    confirmation table and convergence."""
    lo, hi = record["band"]
    rows = record["table"]
    outside = [int(r["players"]) for r in rows if not r["in_band"]]
    confirmed_miss = max([0.0] + [lo - r["rtp_low"] for r in rows] + [r["rtp_high"] - hi for r in rows])
    converged = bool(record.get("converged", True))
    text = verdict_text(bool(record["feasible"]), float(record["miss"]), bool(record["confirmed"]),
                        float(confirmed_miss), outside, converged)
    return text, bool(record["feasible"] and record["confirmed"] and converged)


def add_verdict_header(record_path: str | Path, *, write: bool = False) -> str | None:
    """Add the verdict to a designed rule set written before issue 36 (its header said only "designed for
    RTP a..b"): the ``# Verdict:`` line after the first, and :data:`NOT_MET` in the ``description`` of a
    design that is not met; the record's digests of the file (``designed_sha256``, ``rules_file_sha256``)
    and its own are brought up to date, so the pair stays the toolkit's.  Nothing else of either file
    changes.  Returns the verdict line, or None when the file has one already."""
    record_path = Path(record_path)
    record = json.loads(record_path.read_text(encoding="utf-8"))
    path = record_path.with_name(record["rules_file"])
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    if any(line.startswith("# Verdict:") for line in lines):
        return None
    text, met = record_verdict(record)
    line = f"# Verdict: {text}.\n"
    first = lines[0]
    if not met and NOT_MET not in first:  # as the writer's own first line: "# <description>."
        first = first.rstrip().removesuffix(".") + NOT_MET + ".\n"
    out = [first, line]
    for old in lines[1:]:
        if not met and old.startswith("description = ") and NOT_MET not in old:
            value = json.loads(old[len("description = "):])  # a TOML basic string is a JSON string here
            old = f"description = {json.dumps(value + NOT_MET)}\n"
        out.append(old)
    if write:
        atomic_write_text(path, "".join(out), "designed rule-set file")
        record["designed_sha256"] = load_rules(path).sha256
        if "rules_file_sha256" in record:
            record["rules_file_sha256"] = file_sha256(path)
        if "record_sha256" in record:
            record["record_sha256"] = record_digest(record)
        atomic_write_text(record_path, json.dumps(record, indent=1) + "\n", "design record")
    return line.strip()
