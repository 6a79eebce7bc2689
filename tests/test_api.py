"""The public API (``import ricochet_math as rm``) and the layer rule of docs/architecture.md.

A module may import only its own layer and the layers below it; a game (``games/<name>/``)
imports only the foundation, the evaluator, ``solvers`` and ``reports`` besides its own package,
never the casino game's ``rules``, ``strategies``, ``engine`` or ``design``, nor another game; no
module imports the package root (the façade) or another module's private (``_name``) names; and no
chain of imports between modules leads back to where it started.
Imports are read from the source with :mod:`ast`, wherever they sit in a module
(an import inside a function is a dependency all the same).
"""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import ricochet_math as rm

PACKAGE = "ricochet_math"
ROOT = Path(rm.__file__).resolve().parent

# Known edges that break the layer rule or close a cycle today, in files other helpers are moving.
ALLOWED: set[tuple[str, str]] = set()  # (importer, imported) pairs allowed against the rule: none

# Layer of each top-level part of the package, bottom up (docs/architecture.md).
LAYERS = {
    "errors": 0, "environment": 0, "_numba": 0, "_version": 0, "storage": 0, "arguments": 0, "random_streams": 0, "game_rules": 0,
    "progress": 0,
    "equilibrium": 0.5,  # in the foundation's reach: imports only the foundation (see EQUILIBRIUM_MAY_IMPORT)
    "evaluator": 1,
    "rules": 2,
    "strategies": 3,
    "engine": 4,
    "solvers": 5,
    "design": 6,
    "reports": 7,
    "games": 7.5,  # above reports (a game builds its report), below cli; see GAME_MAY_IMPORT
    "cli": 8, "__main__": 8,
}
FACADE = 9  # the package root: imports everything, imported by nothing inside the package
#: the parts of the package a game may import besides its own package (docs/architecture.md)
GAME_MAY_IMPORT = {"errors", "_numba", "_version", "storage", "arguments", "random_streams", "game_rules",
                   "progress", "equilibrium", "evaluator", "solvers", "reports"}
#: the foundation modules the equilibrium layer may import besides its own package (docs/architecture.md)
EQUILIBRIUM_MAY_IMPORT = {"errors", "arguments", "_numba", "storage", "random_streams", "progress"}
#: layer packages the façade exposes whole, as one namespace each (``from . import equilibrium``)
NAMESPACES = {"equilibrium"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _layer(module: str) -> float:
    parts = module.split(".")
    return FACADE if len(parts) == 1 else LAYERS[parts[1]]


def _imports(module: str) -> set[str]:
    """The package's modules that ``module`` names in an import statement (anywhere in it)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the importing module's package
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            # ``from pkg import sub`` imports the submodule ``pkg.sub``; any other name comes from ``pkg``
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        found.update(t for t in targets if t == PACKAGE or t.startswith(PACKAGE + "."))
    return found


GRAPH = {m: _imports(m) for m in MODULES}


def test_every_module_is_in_a_layer():
    assert all(isinstance(_layer(m), (int, float)) for m in MODULES)
    unknown = [t for targets in GRAPH.values() for t in targets if t not in MODULES]
    assert not unknown, f"imports of modules that do not exist: {unknown}"


def test_no_module_imports_a_higher_layer_or_the_package_root():
    bad = sorted((m, t) for m, targets in GRAPH.items() for t in targets
                 if m != PACKAGE and _layer(t) > _layer(m) and (m, t) not in ALLOWED)
    assert not bad, "imports against the layer order:\n" + "\n".join(f"  {m} -> {t}" for m, t in bad)


def test_a_game_imports_only_the_foundation_evaluator_solvers_and_reports():
    bad = []
    for m, targets in GRAPH.items():
        parts = m.split(".")
        if len(parts) < 3 or parts[1] != "games":
            continue
        own = ".".join(parts[:3])  # ricochet_math.games.<name> (or the games package itself)
        for t in targets:
            tp = t.split(".")
            if t == own or t.startswith(own + ".") or (len(tp) > 1 and tp[1] in GAME_MAY_IMPORT):
                continue
            bad.append((m, t))
    assert not bad, "a game imports more than the foundation, evaluator, solvers and reports:\n" + "\n".join(
        f"  {m} -> {t}" for m, t in sorted(bad))


def test_the_equilibrium_layer_imports_only_the_foundation():
    bad = sorted((m, t) for m, targets in GRAPH.items() if m.split(".")[1:2] == ["equilibrium"] for t in targets
                 if t.split(".")[1] not in EQUILIBRIUM_MAY_IMPORT | {"equilibrium"})
    assert not bad, "the equilibrium layer imports more than the foundation:\n" + "\n".join(
        f"  {m} -> {t}" for m, t in bad)
    assert any(m.startswith(f"{PACKAGE}.equilibrium.") for m in GRAPH), "the layer is there"


def _private_imports(module: str) -> list[str]:
    """``module.name`` of each private name (``_x``, not ``__x__``) that ``module`` takes from another module
    of the package: ``from pkg.mod import _x`` or ``alias._x`` on a module imported as ``alias``."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found, aliases = [], {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(PACKAGE):
            for a in node.names:
                full = f"{node.module}.{a.name}"
                if full in MODULES:
                    aliases[a.asname or a.name] = full
                elif a.name.startswith("_") and not a.name.startswith("__"):
                    found.append(full)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith(PACKAGE + ".") and a.asname:
                    aliases[a.asname] = a.name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases \
                and node.attr.startswith("_") and not node.attr.startswith("__") and aliases[node.value.id] != module:
            found.append(f"{aliases[node.value.id]}.{node.attr}")
    return found


def test_no_module_imports_another_modules_private_names():
    bad = sorted(f"{m}: {name}" for m in MODULES for name in _private_imports(m))
    assert not bad, "private names used outside their module (make them public or move them):\n  " + "\n  ".join(bad)


def test_no_import_cycles():
    graph = {m: {t for t in targets if (m, t) not in ALLOWED} for m, targets in GRAPH.items()}
    cycles = [c for c in _strongly_connected(graph) if len(c) > 1 or c[0] in graph[c[0]]]
    assert not cycles, "import cycles:\n" + "\n".join("  " + " <-> ".join(sorted(c)) for c in cycles)


def test_allow_list_is_still_needed():
    stale = sorted(edge for edge in ALLOWED if edge[1] not in GRAPH.get(edge[0], ()))
    assert not stale, f"allow-listed imports that are gone (remove them from ALLOWED): {stale}"


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm (iterative): the strongly connected components of ``graph``."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    out.append(component)
    return out


# ------------------------------------------------------------------ the public names
def _facade_imports() -> list[tuple[str, list[str]]]:
    """``(module, names)`` of each ``from .module import`` in ``ricochet_math/__init__.pyi``, in order: the stub
    that declares the façade's names, which ``__init__.py`` loads from there on first use (lazy_loader)."""
    tree = ast.parse((ROOT / "__init__.pyi").read_text(encoding="utf-8"))
    return [(f"{PACKAGE}.{n.module or n.names[0].name}", [a.asname or a.name for a in n.names]) for n in tree.body
            if isinstance(n, ast.ImportFrom) and n.level == 1
            and (n.module or [a.name for a in n.names] in ([name] for name in NAMESPACES))]


def test_every_public_name_exists():
    missing = [name for name in rm.__all__ if not hasattr(rm, name)]
    assert not missing
    assert len(set(rm.__all__)) == len(rm.__all__), "a name is listed twice"


@pytest.mark.parametrize("name", [n for n in rm.__all__ if n != "__version__"])
def test_public_name_comes_from_its_defining_module(name):
    obj = getattr(rm, name)
    module = getattr(obj, "__module__", None)
    if module is not None and module.startswith(PACKAGE):
        assert getattr(importlib.import_module(module), name, None) is obj


def test_all_follows_the_imports_section_by_section():
    """``__all__`` names every imported name once, in the order of the imports, which go up the layers."""
    imports = _facade_imports()
    layers = [_layer(module) for module, _ in imports]
    assert layers == sorted(layers), "the façade imports go up the layers"
    statement = {name: i for i, (_, names) in enumerate(imports) for name in names}
    assert set(statement) == set(rm.__all__), "imported but not listed, or listed but not imported"
    order = [statement[name] for name in rm.__all__]
    assert order == sorted(order), "rm.__all__ lists the names in the order they are imported"


# ------------------------------------------------------------------ the other games: one namespace each
GAMES = ("home", "ring", "rococo", "freeride")
#: the verbs every game namespace has (the same name where the games do the same thing), its rules class
#: and its solver (``solve`` where it solves one position, the game's own word where it solves more)
VERBS = ("play_game", "GameRecord", "simulate", "build_report")
RULES = {"home": "HomeRules", "ring": "RingRules", "rococo": "RococoRules", "freeride": "FreeRideRules"}
SOLVER = {"home": "solve", "ring": "arrange", "rococo": "solve_draws", "freeride": "solve"}
#: the flat names the façade exported before the namespaces (issue: one convention for the games)
OLD_FLAT = ("RingRules", "RingGame", "play_ring_game", "Arrangement", "OpponentModel", "arrange", "opponent_model",
            "RingSimulation", "ring_pairings", "simulate_ring", "ring_report", "FreeRideRules", "freeride_game",
            "freeride_best_response", "freeride_games", "freeride_rounds", "freeride_value_of_free_ride",
            "freeride_solve", "HomeRules", "home_rules", "HomeGame", "play_game", "HomeSimulation", "simulate_home",
            "simulate_home_games", "home_position", "solve_home")


@pytest.mark.parametrize("game", GAMES)
def test_each_game_is_a_namespace_with_the_agreed_verbs(game):
    ns = getattr(rm, game)
    package = f"{PACKAGE}.games.{game}"
    assert ns is importlib.import_module(package) and game in rm.__all__
    assert ns.__doc__ and "Modules" in ns.__doc__, "the package docstring lists its modules"
    for name in (*VERBS, RULES[game], SOLVER[game]):
        assert name in ns.__all__ and callable(getattr(ns, name)), name
    assert [n for n in ns.__all__ if not hasattr(ns, n)] == []
    assert len(set(ns.__all__)) == len(ns.__all__), "a name is listed twice"
    assert [n for n in ns.__all__ if n.startswith(f"{game}_")] == [], "no prefixed functions inside the namespace"
    # each verb is the game's own: simulations from analysis, the readable game from engine, the report
    assert ns.simulate.__module__ == f"{package}.analysis"
    assert ns.play_game.__module__ == ns.GameRecord.__module__ == f"{package}.engine"
    assert ns.build_report.__module__ == f"{package}.report"


def test_no_game_name_leaks_to_the_top_level():
    leaked = sorted(name for name, obj in vars(rm).items() if not name.startswith("_")
                    and (getattr(obj, "__module__", None) or "").startswith(f"{PACKAGE}.games"))
    assert leaked == []
    assert [n for n in OLD_FLAT if hasattr(rm, n)] == []
    for game in GAMES:  # the casino game's names that a game shares (simulate, best_response, ...) stay its own
        ns = getattr(rm, game)
        assert [n for n in ns.__all__ if getattr(rm, n, None) is getattr(ns, n)] == [], game


# ------------------------------------------------------------------ the game contract (docs/adding-a-game.md)
#: what each game's simulate counts (its third argument): games, rounds or pots
COUNT = {"home": "games", "ring": "games", "rococo": "pots", "freeride": "games"}
#: each game's readable state machine
STATE_MACHINE = {"home": "HomeGame", "ring": "RingGame", "rococo": "RococoGame", "freeride": "Round"}


def _hints(fn):
    import typing

    return typing.get_type_hints(fn)


@pytest.mark.parametrize("game", GAMES)
def test_each_game_keeps_the_contract(game):
    import dataclasses
    import inspect

    from ricochet_math.game_rules import GameRules
    from ricochet_math.reports.build import ReportResult
    from ricochet_math.solvers.game_result import GameResult

    ns = getattr(rm, game)
    # Rules: a frozen dataclass that reads TOML, describes itself and gives its digest
    assert ns.Rules is getattr(ns, RULES[game]) and issubclass(ns.Rules, GameRules)
    assert dataclasses.is_dataclass(ns.Rules) and ns.Rules.__dataclass_params__.frozen
    rules = ns.Rules()
    assert ns.Rules.from_dict(rules.to_dict()) == rules and isinstance(rules.describe(), str)
    assert len(rules.sha256) == 64
    # a readable state machine
    machine = getattr(ns, STATE_MACHINE[game])
    assert machine.__module__ == f"{PACKAGE}.games.{game}.engine"
    for name in ("current_seat", "legal_actions", "apply", "is_terminal"):
        assert callable(getattr(machine, name, None)), name
    # play_game(rules, strategies, seed) -> the engine's GameRecord
    assert list(inspect.signature(ns.play_game).parameters)[:3] == ["rules", "strategies", "seed"]
    assert _hints(ns.play_game)["return"] is ns.GameRecord
    # simulate(rules, strategies, games|rounds|pots, seed, *, workers, executor, progress) -> a GameResult
    params = inspect.signature(ns.simulate).parameters
    assert list(params)[:4] == ["rules", "strategies", COUNT[game], "seed"]
    for name in ("workers", "executor", "progress"):
        assert params[name].kind is inspect.Parameter.KEYWORD_ONLY, name
    assert params["seed"].default is None, "the same default seed in every game: fresh entropy, recorded"
    result = _hints(ns.simulate)["return"]
    assert issubclass(result, GameResult) and result.COUNT == COUNT[game]
    assert dataclasses.is_dataclass(result) and result.__dataclass_params__.frozen
    assert result.__dataclass_params__.repr is False, "the readable __repr__ of GameResult, not the dataclass's"
    fields = {f.name for f in dataclasses.fields(result)}
    assert {"rules", "seed", "run_time", "sums", "merged_seeds", COUNT[game]} <= fields, "raw sums kept"
    assert _hints(result.summary)["return"] == dict[str, object]
    assert _hints(result.describe)["return"] is str
    assert callable(result.to_frame) and callable(result.merge) and callable(result._repr_html_)
    # build_report(out_dir, ...) -> the casino report's ReportResult
    assert list(inspect.signature(ns.build_report).parameters)[0] == "out_dir"
    assert _hints(ns.build_report)["return"] is ReportResult


# ------------------------------------------------------------------ the façade loads each name on first use (issue 26)
def test_import_loads_no_layer_until_a_name_is_used():
    """``import ricochet_math`` loads the environment check and the version only; the first use of a name
    loads its module (and what that needs), as a plain import would have."""
    import subprocess
    import sys

    code = ("import sys, ricochet_math as rm\n"
            "heavy = lambda: sorted(m for m in ('numba', 'numpy', 'pandas', 'scipy', 'matplotlib', "
            "'ricochet_math.solvers', 'ricochet_math.games.home') if m in sys.modules)\n"
            "print(heavy(), 'ricochet_math.environment' in sys.modules)\n"
            "from ricochet_math import simulate\n"
            "print(simulate.__module__, 'ricochet_math.games.home' in sys.modules, rm.home.__name__)\n"
            "print(rm.games.rococo.engine.__name__, rm.solvers.__name__)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          cwd=ROOT.parent)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines() == ["[] True", "ricochet_math.solvers.montecarlo False ricochet_math.games.home",
                                        "ricochet_math.games.rococo.engine ricochet_math.solvers"]


def test_dir_lists_every_public_name_loaded_or_not():
    assert set(rm.__all__) <= set(dir(rm))
    assert {"environment", "__version__", "games", "solvers", "reports"} <= set(dir(rm))
