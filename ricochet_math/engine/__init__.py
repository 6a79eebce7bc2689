"""Layer 4: the casino game's engines: the readable :class:`~ricochet_math.engine.round.Round`
and the numba batch kernel, tested equal record for record.

Imports the evaluator, the rules and the policies; never a solver, report or CLI module.
"""
