"""ricochet_math: the mathematics of the casino table game Ricochet Poker.

``import ricochet_math as rm`` gives the names a notebook uses: rule loading and
editing, cards and hand values, the readable round and the Monte Carlo driver,
the exact solo analysis, advice, the side bets, the kickout finder, paytable
tuning and the report.  The other games are one namespace each, ``rm.home``,
``rm.ring``, ``rm.rococo`` and ``rm.freeride``, with the same verbs where they do
the same thing (``simulate``, ``play_game``, ``build_report``, ...).
``rm.__all__`` lists the names section by section, in the order of the layers
they come from (``docs/architecture.md``); code inside the package imports each
name from the module that defines it, never from here.

The names are declared once, in the stub ``__init__.pyi`` beside this file, and
each is imported on first use (``lazy_loader``): ``import ricochet_math`` loads
neither numba nor pandas, so ``ricochet --help`` starts in a fraction of a second,
while ``rm.simulate``, ``from ricochet_math import simulate``, ``dir(rm)`` and tab
completion see every name as before; the package's parts (``rm.games``, ``rm.solvers``)
load on first use too.
"""
from __future__ import annotations

import ricochet_math.environment  # noqa: F401  (first: bad settings would break numpy and numba at import)
from ricochet_math._version import __version__

import lazy_loader


def _public_names() -> list[str]:
    """``__all__`` of the stub, in its order (``lazy_loader`` gives the names sorted)."""
    import ast
    import os

    with open(os.path.splitext(__file__)[0] + ".pyi", encoding="utf-8") as stub:
        tree = ast.parse(stub.read())
    return next(ast.literal_eval(node.value) for node in tree.body
                if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["__all__"])


__getattr__, _lazy_dir, _ = lazy_loader.attach_stub(__name__, __file__)
__all__ = _public_names()


def __dir__() -> list[str]:
    """Every public name and part of the package, loaded or not, and whatever the module holds already (tab
    completion)."""
    return sorted({*globals(), *_lazy_dir()})
