"""Layer 1: cards and the hand evaluator (tables, numba kernels, partial and order keys, names).

Imports nothing of ricochet_math but :mod:`ricochet_math.errors` and :mod:`ricochet_math._numba`.
"""
