"""Further games of the publisher, one package each (``games/<name>/``).

Each reuses the layers below instead of copying them: the evaluator
(:mod:`ricochet_math.evaluator`), the Monte Carlo driver and result objects
(:mod:`ricochet_math.solvers`), the report machinery (:mod:`ricochet_math.reports`)
and the CLI conventions (:mod:`ricochet_math.cli`).  See ``docs/architecture.md``.
"""
from __future__ import annotations

import lazy_loader

# Each game loads on first use (``ricochet_math.games.home``, ``rm.home``), so that ``import
# ricochet_math`` and ``ricochet --help`` pay for none of them.
__getattr__, __dir__, __all__ = lazy_loader.attach(__name__, submodules=["freeride", "home", "ring", "rococo"])
