"""Layer 2: the rules as data (rule sets, paytables, their kernel arrays and named layouts).

Imports only :mod:`ricochet_math.evaluator` and the foundation modules.
"""
from ricochet_math.rules.ruleset import *  # noqa: F401,F403  (the public names of ruleset)
from ricochet_math.rules.ruleset import __all__  # noqa: F401
