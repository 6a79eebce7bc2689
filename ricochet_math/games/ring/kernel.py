"""The numba batch kernel of Ring Poker: the same rules as :class:`~ricochet_math.games.ring.engine.RingGame`
over integer arrays, tested equal to it move for move and hand for hand.

Arguments (public function prepares, the kernel loops):

* ``decks``: int64[games, 54] deck orders (pile p, depth d = ``deck[9p + d]``);
* ``draws``: int64[games, 18] the random draws 0..59 of the 18 choices, in order;
* ``codes``: int64[players] strategy code per seat; ``joker``, ``rotate`` (0/1): the rules;
* ``objective``: 0 strongest, 1 expected points against ``samples`` (the solver's form);
* ``model``: the ``greedy`` value's opponent model (:func:`~ricochet_math.games.ring.future.value_model`;
  any ``int64[3, k]`` when no seat plays ``greedy``);
* outputs: ``moves`` int64[games, 18] ring positions chosen; ``keys`` int64[games, players, 3]
  each seat's hand keys strongest first; ``points`` int64[games, players]; ``shares`` float64[games, players].
"""
from __future__ import annotations

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.games.ring.arrangement import arrange_kernel
from ricochet_math.games.ring.scoring import score
from ricochet_math.games.ring.strategies import choose_pair

__all__ = ["play_batch"]


@njit
def play_batch(decks, draws, codes, joker, rotate, objective, samples, model, moves, keys, points, shares):
    games = decks.shape[0]
    players = codes.shape[0]
    held = np.empty((players, 20), dtype=np.int64)
    n = np.zeros(players, dtype=np.int64)
    ring = np.empty(6, dtype=np.int64)
    subset = np.empty(8568, dtype=np.int64)
    out = np.empty(3, dtype=np.int64)
    for g in range(games):
        n[:] = 0
        k = 0
        seen = np.int64(0)  # mask of the cards turned up so far (every seat sees them)
        for r in range(9):
            for p in range(6):
                ring[p] = decks[g, 9 * p + r]
                seen |= np.int64(1) << ring[p]
            first = r % players if rotate else 0
            for t in range(2):
                seat = (first + t) % players
                p = choose_pair(codes[seat], ring, held, n, seat, players, t, draws[g, k], seen, joker, model)
                q = (p + 1) % 6
                held[seat, n[seat]] = ring[p]
                held[seat, n[seat] + 1] = ring[q]
                n[seat] += 2
                ring[p] = -1
                ring[q] = -1
                moves[g, k] = p
                k += 1
            if players == 3:
                third = (first + 2) % 3
                for p in range(6):
                    if ring[p] >= 0:
                        held[third, n[third]] = ring[p]
                        n[third] += 1
        for s in range(players):
            arrange_kernel(held[s, :18], 18, 3, joker, objective, samples, subset, out)
            for h in range(3):
                keys[g, s, h] = subset[out[h]]
        score(keys[g], points[g], shares[g])
