"""Every figure pinned before the re-layout (issue 10) comes out bit-identical.

The expected values live in ``tests/golden/`` and were written by
``python tests/golden_figures.py --write`` from the code before the move.
Floats are compared as ``repr`` strings and arrays by the SHA-256 of their
bytes: no tolerance, a single changed bit fails.
"""
from __future__ import annotations

import json

import pytest

import golden_figures as G

EXPECTED = json.loads(G.FIGURES.read_text())


def _diff(path, got, want, out, limit=20):
    """The first ``limit`` places where two canonical trees differ."""
    if len(out) >= limit:
        return out
    if isinstance(want, dict) and isinstance(got, dict):
        for k in sorted(set(want) | set(got)):
            _diff(f"{path}/{k}", got.get(k), want.get(k), out, limit)
    elif isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        for i, (g, w) in enumerate(zip(got, want)):
            _diff(f"{path}[{i}]", g, w, out, limit)
    elif got != want:
        out.append(f"{path}: got {got!r}, want {want!r}")
    return out


def _check(got, want):
    got = json.loads(json.dumps(got))  # the same canonical form as the stored file
    problems = _diff("", got, want, [])
    assert not problems, "\n".join(problems)


def test_solo_sample_classes():
    _check(G.solo_figures(), EXPECTED["solo"])


def test_sidebets():
    _check(G.sidebet_figures(), EXPECTED["sidebets"])


def test_simulation_every_builtin_strategy():
    _check(G.simulation_figures(), EXPECTED["simulate"])


def test_advise_tables():
    _check(G.advise_figures(), EXPECTED["advise"])


def test_report_tables_tiny(tmp_path):
    got = G.build_report_tables(tmp_path / "report")
    want = {p.name: p.read_text(encoding="utf-8") for p in sorted(G.REPORT_DIR.glob("*.csv"))}
    assert sorted(got) == sorted(want)
    changed = [name for name in want if got[name] != want[name]]
    assert not changed, f"report tables changed: {changed}"


@pytest.mark.slow
def test_solo_full():
    _check(G.full_solo_figures(), EXPECTED["solo_full"])
