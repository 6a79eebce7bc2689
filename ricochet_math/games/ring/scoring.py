"""Slot-by-slot scoring of Ring Poker and the winner (``shared/seeds/002``, "Scoring").

Hands are compared slot by slot (strongest with strongest, middle with middle, weakest
with weakest).  A hand scores the points of its place: 2 players (1, 0), 3 players
(2, 1, 0); tied hands score the place they share and use up the places they fill, so a
hand's points are ``players - 1`` less the number of hands in its slot that are strictly
stronger.  Most points wins; a tie on points goes to the stronger weakest hand; if those
are equal too the tied players share the win (each gets 1/k of it).
"""
from __future__ import annotations

import numpy as np

from ricochet_math._numba import njit

__all__ = ["reference_score", "score"]


@njit
def score(keys, points, shares):
    """``keys``: int64[players, 3] hand keys strongest first -> ``points`` int64[players] and
    ``shares`` float64[players] (1 for a sole winner, 1/k for each of k who share)."""
    players = keys.shape[0]
    for i in range(players):
        pts = 0
        for s in range(3):
            above = 0
            for j in range(players):
                if keys[j, s] > keys[i, s]:
                    above += 1
            pts += players - 1 - above
        points[i] = pts
    top = points.max()
    best_low = np.int64(-1)
    for i in range(players):
        if points[i] == top and keys[i, 2] > best_low:
            best_low = keys[i, 2]
    k = 0
    for i in range(players):
        if points[i] == top and keys[i, 2] == best_low:
            k += 1
    for i in range(players):
        shares[i] = 1.0 / k if points[i] == top and keys[i, 2] == best_low else 0.0


def reference_score(keys) -> tuple[list[int], list[float]]:
    """Readable twin of :func:`score`: places by sorting, points by place, the tie-breaks in order."""
    players = len(keys)
    place_points = [1, 0] if players == 2 else [2, 1, 0]
    points = [0] * players
    for s in range(3):
        ranked = sorted(range(players), key=lambda i: -keys[i][s])
        for i in range(players):
            place = sum(1 for j in ranked if keys[j][s] > keys[i][s])  # hands strictly above
            points[i] += place_points[place]
    top = max(points)
    leaders = [i for i in range(players) if points[i] == top]
    low = max(keys[i][2] for i in leaders)
    winners = [i for i in leaders if keys[i][2] == low]
    return points, [1 / len(winners) if i in winners else 0.0 for i in range(players)]
