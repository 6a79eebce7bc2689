"""Further games of the publisher, one package each (``games/<name>/``).

Each reuses the layers below instead of copying them: the evaluator
(:mod:`ricochet_math.evaluator`), the Monte Carlo driver and result objects
(:mod:`ricochet_math.solvers`), the report machinery (:mod:`ricochet_math.reports`)
and the CLI conventions (:mod:`ricochet_math.cli`).  See ``docs/architecture.md``.
"""
