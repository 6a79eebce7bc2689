"""The design record beside a designed rule set (``NAME.design.json`` beside ``NAME.toml``), and which
of the two files ``ricochet design --write`` may replace.

The record holds the design's inputs and tables (what the report's "Design rationale" section reads), the
SHA-256 of the rule-set file as written (its bytes, and the rule set with the files it extends), and a
digest of its own content.  A rewrite replaces the pair only when both are the toolkit's and unchanged: a
file a user wrote or edited there is never overwritten (issue 35).
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path

from ricochet_math.errors import RuleError
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.storage import check_writable_file, file_sha256

__all__ = ["DESIGN_SCHEMA", "design_sidecar_path", "record_digest", "check_design_files"]

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
