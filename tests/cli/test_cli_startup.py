"""``ricochet --help`` starts fast (issue 26): building the parser, every ``--help`` and a usage error load
none of numba, pandas, scipy and matplotlib, and no layer of the library; the handlers import it.

Deterministic checks of what is imported, not timings (benchmarks/bench_cli_startup.py times it).  The
few choices and defaults the parser shows that the library also defines are copied into the CLI modules
(importing them would load numba); the last test checks every copy against the library's.
"""
from __future__ import annotations

import subprocess
import sys

HEAVY = ("numba", "pandas", "scipy", "matplotlib")


def _python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)


def test_building_the_parser_loads_no_heavy_library():
    done = _python("import sys, ricochet_math.cli as c; c.build_parser(); "
                   "print(sorted(m for m in ('numba','pandas','scipy','matplotlib') if m in sys.modules))")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == "[]\n"


#: walks every parser, asks each for --help through main (as the command does), then makes usage errors
#: (a bad whole number, an unknown option, a missing action); prints what got imported
_EVERY_HELP = r"""
import argparse, contextlib, io, sys
from ricochet_math.cli import build_parser, main

def subs(parser):
    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            yield from a.choices.items()

lines = [[]]
for name, sub in subs(build_parser()):
    lines.append([name])
    lines.extend([name, inner] for inner, _ in subs(sub))
statuses = set()
for argv in [*(line + ["--help"] for line in lines),
             ["simulate", "--rounds", "0"], ["rtp", "--no-such-option"], ["ring"], ["home", "simulate", "--games", "x"]]:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            statuses.add(main(argv))
        except SystemExit as exc:
            statuses.add(exc.code)
print(len(lines), sorted(statuses, key=str))
print(sorted(m for m in ('numba', 'pandas', 'scipy', 'matplotlib') if m in sys.modules))
light = {'ricochet_math', 'ricochet_math.environment', 'ricochet_math._version', 'ricochet_math.arguments',
         'ricochet_math.errors'}
print(sorted(m for m in sys.modules if m.startswith('ricochet_math') and m not in light
             and not m.startswith('ricochet_math.cli')))
"""


def test_every_help_and_usage_error_loads_no_layer_of_the_library():
    done = _python(_EVERY_HELP)
    assert done.returncode == 0, done.stderr[-2000:]
    count, heavy, layers = done.stdout.splitlines()
    # the root, 19 commands, the 17 actions of the four games and the 2 of equilibrium; --help exits 0,
    # usage errors 2
    assert count == "39 [0, 2]"
    assert heavy == "[]"
    assert layers == "[]"


def test_python_m_ricochet_math_help_exits_0():
    done = subprocess.run([sys.executable, "-m", "ricochet_math", "--help"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("usage: ricochet ") and done.stderr == ""


def _copies():
    """(the CLI's copy, the library's value) of each parse-time choice or default the CLI keeps itself."""
    from ricochet_math.cli import design, equilibrium, freeride, home, report, ring
    from ricochet_math.design.kickout import DEFAULT_GRID
    from ricochet_math.design.rule_set import DEFAULT_OTHERS, DEFAULT_RESOLVES, MAX_RESOLVES
    from ricochet_math.equilibrium.solving import GAME_NAMES, MAX_ITERATIONS, SOLVER_NAMES
    from ricochet_math.games.freeride.rules import OPENINGS
    from ricochet_math.games.home.report import HOME_SIZES
    from ricochet_math.games.home.rules import STUCK_RULES, VARIANTS
    from ricochet_math.games.home.solver import DEFAULT_BUDGET
    from ricochet_math.games.ring.analysis import DEFAULT_STRATEGY
    from ricochet_math.games.ring.arrangement import OBJECTIVES
    from ricochet_math.games.ring.strategies import ISSUE_STRATEGIES, STRATEGIES
    from ricochet_math.reports.build import SIZES

    return {
        "design.DEFAULT_GRID": (design.DEFAULT_GRID, DEFAULT_GRID),
        "design.DEFAULT_OTHERS": (design.DEFAULT_OTHERS, DEFAULT_OTHERS),
        "design.MAX_RESOLVES": (design.MAX_RESOLVES, MAX_RESOLVES),
        "design.DEFAULT_RESOLVES": (design.DEFAULT_RESOLVES, DEFAULT_RESOLVES),
        "report.SIZES": (report.SIZES, tuple(SIZES)),
        "home.VARIANTS": (home.VARIANTS, VARIANTS),
        "home.STUCK_RULES": (home.STUCK_RULES, STUCK_RULES),
        "home.DEFAULT_BUDGET": (home.DEFAULT_BUDGET, DEFAULT_BUDGET),
        "home.REPORT_SIZES": (home.REPORT_SIZES, tuple(HOME_SIZES)),
        "ring.STRATEGIES": (ring.STRATEGIES, STRATEGIES),
        "ring.ISSUE_STRATEGIES": (ring.ISSUE_STRATEGIES, ISSUE_STRATEGIES),
        "ring.DEFAULT_STRATEGY": (ring.DEFAULT_STRATEGY, DEFAULT_STRATEGY),
        "ring.OBJECTIVES": (ring.OBJECTIVES, OBJECTIVES),
        "freeride.OPENINGS": (freeride.OPENINGS, OPENINGS),
        "equilibrium.GAME_NAMES": (equilibrium.GAME_NAMES, GAME_NAMES),
        "equilibrium.SOLVER_NAMES": (equilibrium.SOLVER_NAMES, SOLVER_NAMES),
        "equilibrium.MAX_ITERATIONS": (equilibrium.MAX_ITERATIONS, MAX_ITERATIONS),
    }


def test_each_parse_time_copy_agrees_with_the_library():
    copies = _copies()
    assert len(copies) == 17
    assert {name: pair for name, pair in copies.items() if pair[0] != pair[1]} == {}
