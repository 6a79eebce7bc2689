"""The numba batch kernel of the home game: the readable engine's rules over integer arrays.

:func:`play_batch` plays ``G`` games from given decks (``decks[g]`` is game ``g``'s
dealing order) and per-game generator seeds (the pot-odds draws), and fills a
:class:`Records` bundle, one row per game.  ``tests/games/test_home_kernel.py`` plays
the same decks on :mod:`ricochet_math.games.home.engine` and compares every field.

The decks come from :func:`ricochet_math.games.home.deal.batch_decks`: full shuffles
from numpy's PCG64 on the batch's seed sequence, so every strategy and rule option sees
the same deals for the same seed (common random numbers).
"""
from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass, fields

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.games.home.engine import BEATEN, FOLDED, LOST, SPLIT, STUCK, WON
from ricochet_math.games.home.hands import hand_keys
from ricochet_math.games.home.rules import HomeRules
from ricochet_math.games.home.strategies import decide, kernel_strategies

__all__ = ["Records", "play_batch", "MAX_CARDS", "Game", "Deals", "RecordArrays"]

MAX_CARDS = 8  # a hand's slots: the limit (7) and one spare

# The kernel's arguments: small bundles (namedtuples of arrays and scalars, which numba types field by
# field), as the casino's kernel (:mod:`ricochet_math.engine.kernel`) takes them.

#: The game (:class:`~ricochet_math.games.home.rules.HomeRules`): ``players``, ``start_cards``,
#: ``hand_limit``, ``showdown`` (1 where ``stuck`` is ``"showdown"``, else 0), ``tie_ends``, and the
#: strategies' ``codes`` int64[N] and ``params`` float64[N]
#: (:func:`~ricochet_math.games.home.strategies.kernel_strategies`).
Game = namedtuple("Game", ("players", "start_cards", "hand_limit", "showdown", "tie_ends", "codes", "params"))
#: The deals: ``decks`` int64[G, deck size] (game ``g``'s dealing order) and ``seeds`` uint64[G] (its
#: pot-odds draws' generator).
Deals = namedtuple("Deals", ("decks", "seeds"))


@dataclass(frozen=True)
class Records:
    """One row per game (chips; seats 0-based; ``order`` 0 = the lowest hand at the deal, which acts first)."""

    net: np.ndarray       # float64[G, N]
    share: np.ndarray     # float64[G, N]: 1 for the winner, 1/k for k tied winners, else 0
    order: np.ndarray     # int8[G, N]
    status: np.ndarray    # int8[G, N]: engine.WON .. engine.LOST
    bought: np.ndarray    # int16[G, N]: cards paid for
    received: np.ndarray  # int16[G, N]
    turns: np.ndarray     # int16[G, N]: decisions taken
    paid: np.ndarray      # int16[G, N]: ante and buys
    cards: np.ndarray     # int8[G, N, MAX_CARDS]: final hands in the order received (-1 = empty)
    pot: np.ndarray       # int32[G]
    actions: np.ndarray   # int32[G]: decisions in the game

    @classmethod
    def empty(cls, games: int, players: int) -> Records:
        def z(dtype, *shape):
            return np.zeros((games, *shape), dtype=dtype)
        return cls(z(np.float64, players), z(np.float64, players), z(np.int8, players), z(np.int8, players),
                   z(np.int16, players), z(np.int16, players), z(np.int16, players), z(np.int16, players),
                   np.full((games, players, MAX_CARDS), -1, dtype=np.int8), z(np.int32), z(np.int32))

    def arrays(self) -> RecordArrays:
        """The same arrays as the kernel fills them (:data:`RecordArrays`)."""
        return RecordArrays(**{f: getattr(self, f) for f in RecordArrays._fields})


#: :class:`Records`' arrays as one kernel argument (a namedtuple, field for field).
RecordArrays = namedtuple("RecordArrays", tuple(f.name for f in fields(Records)))


def play_batch(rules: HomeRules, strategies, decks: np.ndarray, seeds: np.ndarray) -> Records:
    """Play ``len(decks)`` games (``decks``: int[G, deck size]; ``seeds``: uint64[G]) with one strategy per seat."""
    codes, params = kernel_strategies(strategies)
    decks = np.ascontiguousarray(decks, dtype=np.int64)
    out = Records.empty(len(decks), rules.players)
    game = Game(rules.players, rules.start_cards, rules.hand_limit, 1 if rules.stuck == "showdown" else 0,
                rules.tie_ends, codes, params)
    _play_kernel(game, Deals(decks, np.ascontiguousarray(seeds, dtype=np.uint64)), out.arrays())
    return out


@njit
def _finish(live, n, winners_mask, pot, rec, g):
    """Game ``g`` ends: the pot is shared among ``winners_mask``; ``rec``: :data:`RecordArrays`."""
    w = 0
    for s in range(n):
        if winners_mask[s]:
            w += 1
    for s in range(n):
        if winners_mask[s]:
            rec.share[g, s] = 1.0 / w
            rec.status[g, s] = WON if w == 1 else SPLIT
        elif live[s]:
            rec.status[g, s] = LOST
        live[s] = False
    for s in range(n):
        rec.net[g, s] = pot * rec.share[g, s] - rec.paid[g, s]


@njit
def _play_kernel(game, deals, rec):
    """Play every game of ``deals`` (:data:`Deals`) under ``game`` (:data:`Game`) into ``rec``
    (:data:`RecordArrays`), one row per game."""
    n = game.players
    limit = game.hand_limit
    codes, params = game.codes, game.params
    decks = deals.decks
    deck_size = decks.shape[1]
    hands = np.empty((n, MAX_CARDS), dtype=np.int64)
    nc = np.zeros(n, dtype=np.int64)
    rkey = np.zeros(n, dtype=np.int64)
    okey = np.zeros(n, dtype=np.int64)
    live = np.zeros(n, dtype=np.bool_)
    winners = np.zeros(n, dtype=np.bool_)
    scratch = np.empty(MAX_CARDS, dtype=np.int64)
    unseen = np.empty(deck_size, dtype=np.int64)
    present = np.zeros(deck_size, dtype=np.bool_)
    work = np.empty(64, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    for g in range(decks.shape[0]):
        deck = decks[g]
        rng[0] = deals.seeds[g]
        for s in range(n):
            nc[s] = 0
            live[s] = True
            rec.paid[g, s] = 1
        for r in range(game.start_cards):
            for s in range(n):
                hands[s, nc[s]] = deck[r * n + s]
                nc[s] += 1
        pos = n * game.start_cards
        pot = n
        actions = 0
        for s in range(n):
            rkey[s], okey[s] = hand_keys(hands[s], nc[s])
        for s in range(n):
            below = 0
            for t in range(n):
                if okey[t] < okey[s]:
                    below += 1
            rec.order[g, s] = below
        while True:
            n_live = 0
            low = -1
            best_rank = np.int64(-1)
            worst_rank = np.int64(1) << 62
            for s in range(n):
                if live[s]:
                    n_live += 1
                    if low < 0 or okey[s] < okey[low]:
                        low = s
                    best_rank = max(best_rank, rkey[s])
                    worst_rank = min(worst_rank, rkey[s])
            if n_live == 1 or (game.tie_ends and best_rank == worst_rank):
                for s in range(n):
                    winners[s] = live[s]
                _finish(live, n, winners, pot, rec, g)
                break
            room = min(limit - nc[low], deck_size - pos)
            if room == 0:
                if rkey[low] == best_rank or game.showdown:
                    for s in range(n):
                        winners[s] = live[s] and rkey[s] == best_rank
                    _finish(live, n, winners, pot, rec, g)
                    break
                live[low] = False
                rec.status[g, low] = STUCK
                continue
            target = np.int64(1) << 62
            for s in range(n):
                if live[s] and s != low and okey[s] < target:
                    target = okey[s]
            code = codes[low]
            n_unseen = 0
            if code >= 2:  # min-lift and pot-odds read the unseen cards, sorted
                for c in range(deck_size):
                    present[c] = False
                for i in range(pos, deck_size):
                    present[deck[i]] = True
                for c in range(deck_size):
                    if present[c]:
                        unseen[n_unseen] = c
                        n_unseen += 1
            for i in range(nc[low]):
                scratch[i] = hands[low, i]
            k = decide(code, params[low], scratch, nc[low], target, pot, room, n_live, unseen, n_unseen, rng, work)
            actions += 1
            rec.turns[g, low] += 1
            if k == 0:
                live[low] = False
                rec.status[g, low] = FOLDED
                continue
            rec.paid[g, low] += k
            pot += k
            rec.bought[g, low] += k
            lifted = False
            for _ in range(k):
                hands[low, nc[low]] = deck[pos]
                pos += 1
                nc[low] += 1
                rec.received[g, low] += 1
                rkey[low], okey[low] = hand_keys(hands[low], nc[low])
                if okey[low] > target:
                    lifted = True
                    break
            if not lifted:
                live[low] = False
                rec.status[g, low] = BEATEN
        for s in range(n):
            for i in range(nc[s]):
                rec.cards[g, s, i] = hands[s, i]
        rec.pot[g] = pot
        rec.actions[g] = actions
