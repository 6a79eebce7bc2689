"""The method page's convergence table is the committed ``benchmarks/equilibrium-curves.csv``, and that table is
what the solvers compute today; ``rm.equilibrium`` is the layer's namespace."""
from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import ricochet_math as rm
from ricochet_math.equilibrium import KuhnPoker, LeducPoker, solve

ROOT = Path(__file__).resolve().parents[2]
CURVES = ROOT / "benchmarks" / "equilibrium-curves.csv"
PAGE = ROOT / "docs" / "methods" / "equilibrium.md"


def _cell(v: float) -> str:
    return f"{v:.2e}" if v < 1 else f"{v:.3g}"


def test_the_page_quotes_the_committed_curves():
    table = pd.read_csv(CURVES)
    text = PAGE.read_text(encoding="utf-8")
    for (game, solver), rows in table.groupby(["game", "solver"], sort=False):
        line = (f"| {game.capitalize()} | {solver.upper()} | "
                + " | ".join(_cell(v) for v in rows.sort_values("iteration").nash_conv) + " |")
        assert line in text, line


@pytest.mark.parametrize("game", ["kuhn", "leduc"])
def test_the_committed_curves_are_what_the_solvers_compute(game):
    table = pd.read_csv(CURVES)
    for solver in ("cfr+", "dcfr"):
        rows = table[(table.game == game) & (table.solver == solver)]
        result = solve(KuhnPoker() if game == "kuhn" else LeducPoker(), solver, int(rows.iteration.max()), every=10)
        mine = dict(zip(result.curve_iterations.tolist(), result.curve_nash_conv.tolist()))
        for t, value in zip(rows.iteration, rows.nash_conv):
            assert mine[t] == pytest.approx(value, rel=1e-12), (solver, t)


def test_rm_equilibrium_is_the_layers_namespace():
    assert "equilibrium" in rm.__all__ and rm.equilibrium.__name__ == "ricochet_math.equilibrium"
    for name in rm.equilibrium.__all__:
        assert hasattr(rm.equilibrium, name), name
    assert callable(rm.equilibrium.solve) and rm.equilibrium.solve.__module__ == "ricochet_math.equilibrium.solving"
