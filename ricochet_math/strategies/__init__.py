"""Layer 3: policies, the seat's play-or-fold decision (simple policies, the perfect-play look-ahead).

The engine reaches every policy through one dispatch function; policies import
only the evaluator and the rules.
"""
