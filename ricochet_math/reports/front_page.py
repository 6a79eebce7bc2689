"""The first page of every report: the document control and the headline figures (issue 36).

One builder for the casino report and the four game reports, so that a reviewer finds the same block on
page 1 of each: the document id and revision, the rules and their SHA-256, the toolkit's version and commit,
the size and seed, the run time and the build date, and empty sign-off fields; then the headline figures
(the report's summary in a few rows), so that the first page answers what the report is about.

:func:`control_rows` builds the block from the report's own provenance rows
(:func:`~ricochet_math.reports.provenance.rules_provenance_rows`), so the two cannot disagree;
:func:`front_sections` returns the unnumbered front sections the template shows before the contents.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

from ricochet_math._version import __version__
from ricochet_math.reports.document import Para, Section, Table, Volatile
from ricochet_math.reports.provenance import rules_text

__all__ = ["REVIEW_FIELDS", "control_rows", "document_control", "front_sections", "game_front", "run_time_text",
           "band_place", "counts_text"]

#: the sign-off fields a reviewer fills in (left empty by the toolkit)
REVIEW_FIELDS = ("Reviewed by (name, laboratory)", "Review date", "Signature", "Approved for release by")


def run_time_text(seconds: float | None) -> str:
    """A run time for the block: '125 s (2 min 5 s)', or 'not recorded' (a reproducible build)."""
    if seconds is None:
        return "not recorded"
    minutes, rest = divmod(round(seconds), 60)
    return f"{seconds:,.0f} s" + (f" ({minutes} min {rest} s)" if minutes else "")


def control_rows(rules, provenance: Sequence[tuple[str, str, bool]], *, document: str, size: str, seed,
                 run_time: float | None = None, rules_label: str | None = None) -> list[tuple[str, str]]:
    """(item, value) rows of the document-control block; the date and run time are :class:`Volatile`.

    ``rules``: any rule object (a casino rule set, a game's rules: :func:`~ricochet_math.reports.provenance.
    rules_text`); ``provenance``: the report's provenance rows (the commit, its state and the build date
    are read from them); ``document``: the report's short name in the document id (the rule set's name for
    the casino report, the game's for a game report); ``rules_label``: the "Rule set" row (default: the
    rules' own description).  The document id names what the report is about (the document and the rules'
    hash); the revision names the code that computed it (the toolkit's version and commit), so a rebuild of
    the same rules by later code is a new revision of the same document.
    """
    prov = {k: v for k, v, _ in provenance}
    commit = prov.get("git commit", "unknown")
    dirty = prov.get("uncommitted changes to tracked files", "unknown")
    described, digest = rules_text(rules)
    short = commit[:12] if len(commit) >= 12 and " " not in commit else commit
    revision = f"{__version__}+g{short}" + ("" if dirty == "none" else " (built with uncommitted changes)")
    return [
        ("Document id", f"RICOCHET-MATH-{document.upper()}-{digest[:8].upper()}"),
        ("Revision", revision),
        ("Rule set", rules_label if rules_label is not None else described),
        ("Rule-set SHA-256", digest),
        ("Toolkit", f"ricochet_math {__version__}"),
        ("Toolkit commit", commit + ("" if dirty == "none" else f" (uncommitted changes: {dirty})")),
        ("Size and seed", f"size {size}, seed {seed}"),
        ("Run time", Volatile(run_time_text(run_time))),
        ("Date", Volatile(prov.get("built", ""))),
    ] + [(name, "") for name in REVIEW_FIELDS]


def document_control(rows: list[tuple[str, str]]) -> Section:
    """The first-page block (a front section: shown before the contents, not numbered)."""
    s = Section("0", "Document control", front=True)
    s.table("Document control", ["item", "value"], [[k, v] for k, v in rows], csv=None, align=["l", "l"],
            note="The sign-off fields are left empty for the reviewing laboratory.")
    return s


def front_sections(rows: list[tuple[str, str]], headline: Iterable = (),
                   title: str = "Headline figures") -> list[Section]:
    """The report's front sections: the document control, then the ``headline`` blocks (paragraphs and
    tables, :mod:`~ricochet_math.reports.document`) under ``title``; both on page 1, before the contents."""
    out = [document_control(rows)]
    blocks = list(headline)
    if blocks:
        s = Section("00", title, front=True)
        s.h3(title)
        s.blocks.extend(blocks)
        out.append(s)
    return out


def band_place(low: float, high: float, band: tuple[float, float]) -> str:
    """Where an interval [low, high] lies against a band: "inside", "above", "below", or "across the lower
    (upper) edge" or "across the band" (wider than it) when the interval cannot tell (the verdict an RTP's
    whole 95% interval supports)."""
    lo, hi = band
    if low >= lo and high <= hi:
        return "inside"
    if low > hi:
        return "above"
    if high < lo:
        return "below"
    if low < lo and high > hi:
        return "across the band"
    return "across the lower edge" if low < lo else "across the upper edge"


def counts_text(ns: Sequence[int]) -> str:
    """Player counts in words: [3, 4, 5, 6, 7] -> '3 to 7', [2] -> '2', [1, 3] -> '1 and 3'."""
    ns = list(ns)
    if len(ns) > 2 and ns == list(range(ns[0], ns[-1] + 1)):
        return f"{ns[0]} to {ns[-1]}"
    return " and ".join(map(str, ns)) if len(ns) <= 2 else ", ".join(map(str, ns[:-1])) + f" and {ns[-1]}"


def game_front(rules, provenance: Sequence[tuple[str, str, bool]], *, document: str, size: str, seed,
               run_time: float | None, summary: Section, paragraphs: int = 1) -> list[Section]:
    """A game report's front sections: the document control (:func:`control_rows`) and, as its headline,
    the first ``paragraphs`` paragraphs and every table of its ``summary`` section (the tables as views of
    the summary's own CSV: the same rows, no second file), then a pointer to the section."""
    rows = control_rows(rules, provenance, document=document, size=size, seed=seed, run_time=run_time)
    said = [b for b in summary.blocks if isinstance(b, Para) and b.kind == "p"][:paragraphs]
    tables = [dataclasses.replace(b, csv=None) for b in summary.blocks if isinstance(b, Table)]
    pointer = Para(f"Section {summary.number} ({summary.title}) gives every headline figure in words with its "
                   "interval; the glossary at the end defines the terms.")
    return front_sections(rows, [*said, *tables, pointer])
