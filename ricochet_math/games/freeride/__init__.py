"""Free Ride Poker (the publisher's home game for 1-6 players): rules as data, a readable engine with
hand histories, a numba kernel tested equal to it, parametrised strategies, simulations through the
game-neutral batch driver, the two-player round solved by backward induction, and a short report.

Modules: :mod:`~ricochet_math.games.freeride.rules`, :mod:`~ricochet_math.games.freeride.strategies`, :mod:`~ricochet_math.games.freeride.engine`, :mod:`~ricochet_math.games.freeride.kernel`, :mod:`~ricochet_math.games.freeride.analysis`,
:mod:`~ricochet_math.games.freeride.solver`, :mod:`~ricochet_math.games.freeride.report`.  The rules and our readings: ``docs/rules.md`` ("Free Ride Poker");
the analysis: ``docs/free-ride-poker.md``.
"""
