"""What paytable tuning returns: the ranked candidates, and a candidate written as a rule set.

:class:`TuningResult` holds the best candidates of
:func:`~ricochet_math.design.optimiser.tune_paytable` with how they were
found; when the pays belong to a rule set's paytable (``rules`` and
``section``) it turns a candidate into that rule set (:meth:`~TuningResult.to_rules`)
or a file that ``extends`` it (:func:`override_toml`), written with the rules
layer's TOML writer.
"""
from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ricochet_math.errors import RuleError, quote
from ricochet_math.design.optimiser_problem import plain_number
from ricochet_math.rules.checks import check_name, name_from_stem
from ricochet_math.rules.files import paytables_dir
from ricochet_math.rules.ruleset import CATEGORY_PATTERNS, Paytable, RuleSet
from ricochet_math.rules.toml_writer import paytable_line, toml_value
from ricochet_math.storage import atomic_write_text, check_writable_file

__all__ = ["Candidate", "TuningResult", "override_toml", "extends_parent"]


@dataclass(frozen=True)
class Candidate:
    """One candidate paytable: every line's pays and its figures (per unit staked)."""

    rank: int
    pays: tuple[tuple[str, int | float], ...]
    rtp: float
    distance: float
    changes: float
    hit_frequency: float = math.nan
    std_dev: float = math.nan

    def pays_dict(self) -> dict[str, int | float]:
        return dict(self.pays)


@dataclass(frozen=True, eq=False)
class TuningResult:
    """The best candidates of :func:`tune_paytable`, ranked, with how they were found.

    ``window`` is the RTP interval candidates had to reach; ``target`` the
    point (or range) they were ranked against.  ``rules`` and ``section``
    (when tuning a rule set's paytable) let :meth:`to_rules` and
    :meth:`write_toml` turn a candidate into a rule set.
    """

    candidates: tuple[Candidate, ...]
    base_pays: tuple[tuple[str, int | float], ...]
    free_lines: tuple[str, ...]
    target: float | tuple[float, float]
    window: tuple[float, float]
    steps: tuple[tuple[str, float], ...]
    method: str
    evaluations: int
    rules: RuleSet | None = None
    section: str | None = None

    @property
    def best(self) -> dict[str, int | float]:
        """The top candidate's pays."""
        return self.candidates[0].pays_dict()

    def to_frame(self):
        """One row per candidate: ``rank, rtp, distance, hit_frequency, std_dev, changes``, then each line's pays."""

        keys = [k for k, _ in self.base_pays]
        rows = []
        for c in self.candidates:
            pays = c.pays_dict()
            rows.append([c.rank, c.rtp, c.distance, c.hit_frequency, c.std_dev, c.changes]
                        + [pays[k] for k in keys])
        return pd.DataFrame(rows, columns=["rank", "rtp", "distance", "hit_frequency", "std_dev", "changes"] + keys)

    def to_rules(self, rank: int = 1, *, name: str | None = None, description: str | None = None) -> RuleSet:
        """The tuned rule set (candidate ``rank``, 1 = best)."""
        if self.rules is None or self.section is None:
            raise RuleError("this tuning result is not tied to a rule set (tune_paytable was given bare pays)")
        pays = self._candidate(rank).pays_dict()
        table = getattr(self.rules, self.section).with_pays(**pays)
        out = self.rules.replace(**{self.section: table})
        if name is not None or description is not None:
            out = out.replace(name=name if name is not None else out.name,
                              description=description if description is not None else out.description)
        return out

    def write_toml(self, path: str | Path, rank: int = 1, *, name: str | None = None,
                   description: str | None = None) -> Path:
        """Write candidate ``rank`` as a rule-set file that ``extends`` the tuned rule set.

        See :func:`override_toml`.  The file is written whole or not at all (a unique temporary name,
        then a rename); a path that is a folder or in an unwritable folder is one
        :class:`~ricochet_math.errors.RicochetError` line (check it before tuning with
        :func:`ricochet_math.storage.check_writable_file`).  Returns the path written.
        """
        if self.rules is None or self.section is None:
            raise RuleError("this tuning result is not tied to a rule set (tune_paytable was given bare pays)")
        c = self._candidate(rank)
        path = check_writable_file(path, "tuned rule-set file")
        text = override_toml(self.rules, self.section, c.pays_dict(), path=path, name=name,
                             description=description, note=_figures_note(c, self))
        atomic_write_text(path, text, "tuned rule-set file")
        return path

    def _candidate(self, rank: int) -> Candidate:
        if not 1 <= rank <= len(self.candidates):
            raise RuleError(f"candidate rank must be 1..{len(self.candidates)}, got {rank}")
        return self.candidates[rank - 1]

    def summary(self) -> str:
        target = (f"{self.target:.4%} (window {self.window[0]:.4%}..{self.window[1]:.4%})"
                  if not isinstance(self.target, tuple) else f"{self.target[0]:.4%}..{self.target[1]:.4%}")
        best = self.candidates[0]
        changed = ", ".join(f"{k} {dict(self.base_pays)[k]:g}->{v:g}" for k, v in best.pays
                            if v != dict(self.base_pays)[k]) or "none"
        return (
            f"Paytable tuning: target RTP {target}; free lines {', '.join(self.free_lines)}\n"
            f"  method: {self.method}; {self.evaluations} RTP evaluations\n"
            f"  best: RTP {best.rtp:.4%} (distance {best.distance:.2e}); changes {changed}"
        )


def _figures_note(c: Candidate, result: TuningResult) -> str:
    """The header comment of a written candidate: its figures and how it was found."""
    parts = [f"RTP {c.rtp:.4%} per unit staked"]
    if not math.isnan(c.hit_frequency):
        parts.append(f"hit frequency {c.hit_frequency:.4%}")
    if not math.isnan(c.std_dev):
        parts.append(f"std dev {c.std_dev:.4f}")
    return ", ".join(parts) + f" (ricochet tune, {result.method})"


def override_toml(rules: RuleSet, section: str, pays: Mapping[str, float], *, path: str | Path | None = None,
                  name: str | None = None, description: str | None = None, note: str = "") -> str:
    """TOML text of a rule set that ``extends`` ``rules`` and sets ``[section]`` pays.

    Every line of the section is written (changed ones marked ``# was N``), so
    the figures in the header hold even if the parent's other lines change.
    ``extends`` names a shipped rule set by its bare name, any other file by a
    path relative to ``path``'s folder.
    """
    table: Paytable = getattr(rules, section)
    unknown = [k for k in pays if k not in table]
    if unknown:
        raise RuleError(f"[{section}] has no line {quote(unknown[0])}")
    parent = extends_parent(rules, path)
    stem = Path(path).stem if path is not None else f"{rules.name}-tuned"
    name = check_name(name, "", "name") if name else name_from_stem(stem)
    description = description or f"{rules.name} with a tuned [{section}] paytable"
    out = [f"# {description}.",
           f"# Generated by ricochet_math.design.tuning from {rules.name} (sha256 {rules.sha256[:12]})."]
    if note:
        out.append(f"# {note}")
    out += ["", f"extends = {toml_value(str(parent))}", f"name = {toml_value(str(name))}",
            f"description = {toml_value(str(description))}", "", f"[{section}]"]
    for line in table:
        new = plain_number(pays.get(line.key, line.pays))
        was = "" if float(new) == float(line.pays) else f"   # was {plain_number(line.pays)}"
        # the line as RuleSet.to_toml writes it, with the old pays in a comment
        out.append(paytable_line(line.key, line.hand_pattern, new,
                                 category_pattern=CATEGORY_PATTERNS.get(line.key)) + was)
    return "\n".join(out) + "\n"


def extends_parent(rules: RuleSet, path: str | Path | None = None) -> str:
    """What a file at ``path`` that extends ``rules`` writes as ``extends``: a shipped rule set's bare
    name, any other file's path relative to ``path``'s folder.  A rule set changed in code or without a
    file cannot be extended: one :class:`~ricochet_math.errors.RuleError` line."""
    src = Path(rules.source.replace(" (modified)", "")) if rules.source else None
    if rules.source.endswith("(modified)") or src is None or not src.is_file():
        raise RuleError(f"rule set {rules.name} was changed in code or has no file; "
                        "write it whole with RuleSet.to_toml() instead")
    if src.resolve().parent == paytables_dir().resolve():
        return src.stem
    base_dir = Path(path).resolve().parent if path is not None else Path.cwd()
    return os.path.relpath(src.resolve(), base_dir)
