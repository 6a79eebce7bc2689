"""Layer 7: reports: the certification-style report and the published-figures comparison.

:func:`build_report` (:mod:`.build`) writes the report of a rule set; the
modules behind it, in reading order: :mod:`.sizes`, :mod:`.compute` and
:mod:`.jobs`, :mod:`.figures`, :mod:`.document` and :mod:`.sections`,
:mod:`.plots`, :mod:`.render`, :mod:`.provenance`.  :mod:`.published`
compares the publisher's figures with ours under every strategy reading.
"""
from ricochet_math.reports.build import SIZES, ReportResult, ReportSize, build_report, parse_players

__all__ = ["build_report", "ReportResult", "ReportSize", "SIZES", "parse_players"]
