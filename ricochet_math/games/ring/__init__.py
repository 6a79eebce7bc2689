"""Ring Poker (``shared/seeds/002``): pairs taken from a ring of six piles, three five-card hands
from 18 cards, scored slot by slot.

Modules, one idea each: ``rules`` (the options), ``hands`` (the one hand value, jokers included),
``engine`` (the readable game and its history), ``strategies`` (drafting: kernel and readable twin),
``scoring``, ``kernel`` (the batch kernel, tested equal to the engine), ``arrange`` (the exact
arrangement solver), ``analysis`` (Monte Carlo: seats, order, pairings, best responses) and
``report``.  See ``docs/ring-poker.md``.
"""
