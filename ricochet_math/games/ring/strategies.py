"""Drafting strategies of Ring Poker: which adjacent pair to take from the ring.

Every strategy reads what a seat sees: the face-up ring (six positions, a gap is -1),
every player's cards so far (taken cards are seen by all), the cards turned up so far,
whether it chooses first or second this round, and for ``random`` one uniform draw.  A
move is the ring position ``p`` of the pair (p, p+1 mod 6).

The strategies:

* ``random``: a uniform legal pair (draw ``u`` in 0..59, pair ``u mod k`` of the ``k`` legal ones);
* ``greedy`` (the issue's "greedy by hand potential"): the pair with the largest expected value of
  the best arrangement of the cards held, the pair and the pairs still to come, the future drawn
  from the unseen cards (:mod:`.future`: the model, its seeding and its cost);
* ``lookahead``: one round ahead: own fast-potential gain minus the mean gain of the opponents over
  the rest of the round, when each later chooser plays ``greedy-fast`` (and with 3 players the third
  player takes the last two cards);
* ``denial``: the pair worth most to the next player on the left (their fast-potential gain),
  ties by own gain;
* ``greedy-fast``: the largest gain in the **fast potential**, an integer heuristic (no look at
  the future, about a thousand times cheaper than ``greedy``)::

    potential = sum over ranks r (0 = deuce .. 12 = ace) of G[count_r] * (12 + r)
              + sum over suits of F(count_s)            F(n) = 9 * max(0, min(n, 10) - 2)
              + 18 * jokers                             G = (0, 0, 1, 3, 6)

  i.e. a pair of deuces is worth 12, trips three times a pair, quads six times; every
  suited card past the second counts towards a flush (up to two flushes' worth); a joker
  is worth 1.5 pairs of deuces.  (This was ``greedy`` before the future-pairs value.)

Ties go to the lowest ring position.  Strategy codes 0..3 are the issue's four, in the order above
(:data:`ISSUE_STRATEGIES`); ``greedy-fast`` is 4.
"""
from __future__ import annotations

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.errors import StrategyError, quote
from ricochet_math.games.ring.future import (
    FUTURE_SAMPLES,
    future_values,
    reference_future_values,
)

__all__ = [
    "DENIAL",
    "FAST_STRATEGIES",
    "GREEDY",
    "GREEDY_FAST",
    "ISSUE_STRATEGIES",
    "LOOKAHEAD",
    "RANDOM",
    "RANDOM_DRAWS",
    "STRATEGIES",
    "choose_pair",
    "legal_pairs",
    "potential",
    "reference_choose",
    "reference_potential",
    "strategy_code",
]

STRATEGIES = ("random", "greedy", "lookahead", "denial", "greedy-fast")
RANDOM, GREEDY, LOOKAHEAD, DENIAL, GREEDY_FAST = range(5)
#: the four strategies the issue names (what the report and ``ricochet ring simulate --table best-response`` pair)
ISSUE_STRATEGIES = STRATEGIES[:4]
#: the same four with ``greedy-fast`` for ``greedy``: :func:`~.analysis.pairings`'s default, which runs in seconds
FAST_STRATEGIES = ("random", "greedy-fast", "lookahead", "denial")
#: a random move draws u uniform in 0..RANDOM_DRAWS-1 (60 is a multiple of 1..6: exactly uniform)
RANDOM_DRAWS = 60
_G = np.array([0, 0, 1, 3, 6], dtype=np.int64)
_JOKER_WORTH = 18
_SUIT_WORTH = 9


def strategy_code(name) -> int:
    """The code of a strategy name (``random``, ``greedy``, ``lookahead``, ``denial``, ``greedy-fast``)."""
    if isinstance(name, (int, np.integer)) and not isinstance(name, (bool, np.bool_)) and \
            0 <= int(name) < len(STRATEGIES):  # True is not a strategy code
        return int(name)
    if isinstance(name, str) and name.strip().lower() in STRATEGIES:
        return STRATEGIES.index(name.strip().lower())
    raise StrategyError(f"unknown Ring Poker strategy {quote(name)}: choose one of {', '.join(STRATEGIES)}")


# ------------------------------------------------------------------------------------ kernel
@njit
def potential(held, n):
    """Fast hand potential (module docstring) of the cards ``held[:n]`` (0..53)."""
    ranks = np.zeros(13, dtype=np.int64)
    suits = np.zeros(4, dtype=np.int64)
    jokers = 0
    for i in range(n):
        c = held[i]
        if c >= 52:
            jokers += 1
        else:
            ranks[c >> 2] += 1
            suits[c & 3] += 1
    return _score(ranks, suits, jokers)


@njit(inline="always")
def _score(ranks, suits, jokers):
    total = 0
    for r in range(13):
        total += _G[min(ranks[r], 4)] * (12 + r)
    for s in range(4):
        total += _SUIT_WORTH * max(0, min(suits[s], 10) - 2)
    return total + _JOKER_WORTH * jokers


@njit
def _gain(held, n, c1, c2):
    """Potential of ``held[:n]`` plus two cards, less its potential (``held`` has room for two more)."""
    before = potential(held, n)
    held[n] = c1
    held[n + 1] = c2
    after = potential(held, n + 2)
    return after - before


@njit
def _greedy_pick(ring, held, n, seat):
    """(position, gain) of seat's greedy pair from ``ring`` (-1, 0 if none)."""
    best_p, best_g = -1, np.int64(-1)
    for p in range(6):
        q = (p + 1) % 6
        if ring[p] < 0 or ring[q] < 0:
            continue
        g = _gain(held[seat], n[seat], ring[p], ring[q])
        if best_p < 0 or g > best_g:
            best_p, best_g = p, g
    return best_p, best_g


@njit
def choose_pair(code, ring, held, n, seat, players, second, draw, seen, rule, model):
    """Ring position p of the pair (p, p+1 mod 6) seat ``seat`` takes.

    ``ring``: int64[6] face-up cards (-1 a gap); ``held``: int64[players, 20] cards so far
    (two spare cells each), ``n``: int64[players] their counts; ``second``: 1 if another
    player took a pair first this round; ``draw``: the random draw 0..59; for ``greedy``:
    ``seen`` the mask of cards turned up so far (ring included), ``rule`` the joker rule and
    ``model`` the value's opponent model (:func:`~.future.value_model`).
    """
    if code == RANDOM:
        k = 0
        for p in range(6):
            if ring[p] >= 0 and ring[(p + 1) % 6] >= 0:
                k += 1
        j = draw % k
        for p in range(6):
            if ring[p] >= 0 and ring[(p + 1) % 6] >= 0:
                if j == 0:
                    return p
                j -= 1
    if code == GREEDY_FAST:
        p, _ = _greedy_pick(ring, held, n, seat)
        return p
    if code == GREEDY:
        values = np.empty(6, dtype=np.int64)
        future_values(ring, held[seat], n[seat], seen, rule, model, FUTURE_SAMPLES, values)
        best_p = -1
        for p in range(6):
            if values[p] >= 0 and (best_p < 0 or values[p] > values[best_p]):
                best_p = p
        return best_p
    if code == DENIAL:
        target = (seat + 1) % players
        best_p, best_t, best_m = -1, np.int64(0), np.int64(0)
        for p in range(6):
            q = (p + 1) % 6
            if ring[p] < 0 or ring[q] < 0:
                continue
            t = _gain(held[target], n[target], ring[p], ring[q])
            m = _gain(held[seat], n[seat], ring[p], ring[q])
            if best_p < 0 or t > best_t or (t == best_t and m > best_m):
                best_p, best_t, best_m = p, t, m
        return best_p
    # LOOKAHEAD: own gain minus the opponents' mean gain over the rest of the round
    best_p, best_v = -1, np.int64(0)
    for p in range(6):
        q = (p + 1) % 6
        if ring[p] < 0 or ring[q] < 0:
            continue
        mine = _gain(held[seat], n[seat], ring[p], ring[q])
        rest = ring.copy()
        rest[p] = -1
        rest[q] = -1
        others = np.int64(0)
        nxt = (seat + 1) % players
        if second == 0:
            p2, g2 = _greedy_pick(rest, held, n, nxt)
            others += g2
            rest[p2] = -1
            rest[(p2 + 1) % 6] = -1
            nxt = (nxt + 1) % players
        if players == 3 and nxt != seat:
            left = np.empty(2, dtype=np.int64)
            j = 0
            for i in range(6):
                if rest[i] >= 0:
                    left[j] = rest[i]
                    j += 1
            others += _gain(held[nxt], n[nxt], left[0], left[1])
        # compare mine - others / (players - 1) without division: scale by players - 1
        v = mine * (players - 1) - others
        if best_p < 0 or v > best_v:
            best_p, best_v = p, v
    return best_p


# ------------------------------------------------------------------------------------ readable twin
def legal_pairs(ring) -> list[int]:
    """Ring positions p whose pair (p, p+1 mod 6) is still whole (both cards face up), ascending."""
    return [p for p in range(6) if ring[p] >= 0 and ring[(p + 1) % 6] >= 0]


def reference_potential(cards) -> int:
    """Readable twin of :func:`potential` (the module docstring's formula)."""
    cards = [int(c) for c in cards]
    total = 0
    for r in range(13):
        total += [0, 0, 1, 3, 6][min(sum(1 for c in cards if c < 52 and c // 4 == r), 4)] * (12 + r)
    for s in range(4):
        total += 9 * max(0, min(sum(1 for c in cards if c < 52 and c % 4 == s), 10) - 2)
    return total + 18 * sum(1 for c in cards if c >= 52)


def reference_choose(name: str, ring, holdings, seat: int, second: bool, draw: int, seen=(), rules=None,
                     model=None) -> int:
    """Readable twin of :func:`choose_pair`: ``holdings`` is a list of each seat's cards; for ``greedy``
    ``seen`` lists the cards turned up so far, ``rules`` gives the joker rule, ``model`` the value model."""
    code = strategy_code(name)
    players = len(holdings)
    legal = legal_pairs(ring)

    def gain(s, p):
        pair = [ring[p], ring[(p + 1) % 6]]
        return reference_potential(list(holdings[s]) + pair) - reference_potential(holdings[s])

    if code == RANDOM:
        return legal[draw % len(legal)]
    if code == GREEDY_FAST:
        return max(legal, key=lambda p: (gain(seat, p), -p))
    if code == GREEDY:
        values = reference_future_values(ring, holdings[seat], seen, rules, model)
        return max(legal, key=lambda p: (values[p], -p))
    if code == DENIAL:
        target = (seat + 1) % players
        return max(legal, key=lambda p: (gain(target, p), gain(seat, p), -p))

    def value(p):
        rest = list(ring)
        rest[p] = rest[(p + 1) % 6] = -1
        others, nxt = 0, (seat + 1) % players
        if not second:
            later = legal_pairs(rest)
            gains = [reference_potential(list(holdings[nxt]) + [rest[x], rest[(x + 1) % 6]])
                     - reference_potential(holdings[nxt]) for x in later]
            x = later[gains.index(max(gains))]
            others += max(gains)
            rest[x] = rest[(x + 1) % 6] = -1
            nxt = (nxt + 1) % players
        if players == 3 and nxt != seat:
            left = [c for c in rest if c >= 0]
            others += reference_potential(list(holdings[nxt]) + left) - reference_potential(holdings[nxt])
        return gain(seat, p) * (players - 1) - others

    return max(legal, key=lambda p: (value(p), -p))
