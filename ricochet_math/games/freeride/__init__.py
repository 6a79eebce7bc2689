"""Free Ride Poker (the publisher's home game for 1-6 players): rules as data, a readable engine with
hand histories, a numba kernel tested equal to it, parametrised strategies, simulations through the
game-neutral batch driver, the two-player round solved by backward induction, and a short report.

Modules: :mod:`.rules`, :mod:`.strategies`, :mod:`.engine`, :mod:`.kernel`, :mod:`.analysis`,
:mod:`.solver`, :mod:`.report`.  The rules and our readings: ``docs/rules.md`` ("Free Ride Poker");
the analysis: ``docs/free-ride-poker.md``.
"""
