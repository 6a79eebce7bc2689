"""The numba batch kernel of Rococo Poker: whole pots (a game and its carried-over games) over integer arrays.

The same rules as the readable :func:`~ricochet_math.games.rococo.engine.play_game`, tested equal game for game: the kernel
records the first games of a batch (deck, ``u``, first player, carried pot) and the tests replay them
on the readable engine.

A **pot** is the unit of the analysis: games are played until one is won (by showdown or because
everybody else folded); an all-check game carries its whole pot into the next game, for which every
seat antes again.  The first player moves one seat clockwise after every game (carried ones too); a
pot's first game starts at a seat drawn uniformly, so every seat is first equally often.

Randomness: xoshiro256** (:mod:`ricochet_math.random_streams`): each game shuffles the first
``8 * players`` positions of a deck that is not reset between games (still a uniform shuffle), then
draws one uniform ``u`` (53 bits) for the blind decision; a pot's first seat is one output modulo the
number of players (a bias below 1e-15, irrelevant here).
"""
from __future__ import annotations

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.evaluator.evaluation import eval5
from ricochet_math.games.rococo.betting import Slot, keep_tables, policy_rows
from ricochet_math.games.rococo.draw import BINOM, KEEP_MASKS
from ricochet_math.random_streams import seed_state, shuffle_prefix, xoshiro_next, xoshiro_uniform

__all__ = ["play_pots", "batch_player", "SUM_FIELDS", "RECORD_WIDTH"]

_BLIND_AMOUNT, _BLIND_CALL, _BLIND_RAISE, _BLIND_DEFEND = Slot.BLIND_AMOUNT, Slot.BLIND_CALL, Slot.BLIND_RAISE, Slot.BLIND_DEFEND
_OPEN, _CALL, _RERAISE, _RAISE_AMOUNT, _NAIVE = Slot.OPEN, Slot.CALL, Slot.RERAISE, Slot.RAISE_AMOUNT, Slot.NAIVE
_SHOWDOWN, _FOLD, _CARRY = 0, 1, 2

#: counters of a batch (int64[len]): games, pots, carried games, blind games, showdowns, pots won by
#: a fold, forced showdowns at the carry limit
SUM_FIELDS = ("games", "pots", "carries", "blinds", "showdowns", "fold_wins", "forced")
#: a recorded game: first, carried, force, u, blind, outcome, then per seat stake, payout, keep, value,
#: then the first 48 deck cards
RECORD_WIDTH = 6 + 4 * 6 + 48


@njit(inline="always")
def _below(m, s0, s1, s2, s3):
    x, s0, s1, s2, s3 = xoshiro_next(s0, s1, s2, s3)
    return np.int64((x >> np.uint64(11)) % np.uint64(m)), s0, s1, s2, s3


@njit
def _facing(P, order, start_pos, stake, active, level, raises, max_raises, blind_phase, first, strength,
            rows):
    """Players act on a raise from order position ``start_pos`` on until all still in match ``level``
    or one is left (the twin of ``_Table.facing``); returns (level, raises, raises made)."""
    pending = np.zeros(P, dtype=np.bool_)
    n_active = 0
    for s in range(P):
        pending[s] = active[s] and stake[s] < level
        n_active += active[s]
    made = 0
    pos = start_pos
    while n_active > 1:
        any_pending = False
        for s in range(P):
            if pending[s]:
                any_pending = True
        if not any_pending:
            break
        s = order[pos % P]
        pos += 1
        if not pending[s]:
            continue
        pending[s] = False
        # decide: 0 fold, 1 call, 2 raise
        if blind_phase and s == first:
            act = 1 if rows[s, _BLIND_DEFEND] else 0
        elif blind_phase:
            if strength[s] >= rows[s, _BLIND_RAISE]:
                act = 2
            elif strength[s] >= rows[s, _BLIND_CALL]:
                act = 1
            else:
                act = 0
        else:
            if strength[s] >= rows[s, _RERAISE]:
                act = 2
            elif strength[s] >= rows[s, _CALL]:
                act = 1
            else:
                act = 0
        if act == 2 and raises < max_raises:
            level += rows[s, _RAISE_AMOUNT]
            raises += 1
            made += 1
            stake[s] = level
            for t in range(P):
                pending[t] = active[t] and t != s
        elif act >= 1:
            stake[s] = level
        else:
            active[s] = False
            n_active -= 1
    return level, raises, made


@njit
def _hand_number(c):
    """Colex number of five cards (sorts ``c`` in place)."""
    c.sort()
    return BINOM[c[0], 1] + BINOM[c[1], 2] + BINOM[c[2], 3] + BINOM[c[3], 4] + BINOM[c[4], 5]


@njit
def _play_game(P, opts, rows, rates, tables, deck, u, first, carried, force, stake, payout, keep, value):
    """One game; fills ``stake``, ``payout``, ``keep``, ``value`` (per seat) and returns
    (outcome, blind amount, raises)."""
    ante, max_raises, blind_on = opts[0], opts[3], opts[4]
    order = np.empty(P, dtype=np.int64)
    active = np.ones(P, dtype=np.bool_)
    hands = np.empty((P, 5), dtype=np.int64)
    dealt = np.empty(P, dtype=np.int64)
    tmp = np.empty(5, dtype=np.int64)
    for i in range(P):
        s = (first + i) % P
        order[i] = s
        for j in range(5):
            hands[s, j] = deck[5 * i + j]
        dealt[s] = eval5(hands[s, 0], hands[s, 1], hands[s, 2], hands[s, 3], hands[s, 4])
        stake[s] = ante
        payout[s] = 0.0
        keep[s] = -1
        value[s] = -1
    level = ante
    n_raises = 0
    blind = 0
    if blind_on and u < rates[first]:
        blind = rows[first, _BLIND_AMOUNT]
        level += blind
        stake[first] = level
        level, _, made = _facing(P, order, 1, stake, active, level, 0, max_raises, True, first, dealt, rows)
        n_raises += made
    n_active = 0
    for s in range(P):
        n_active += active[s]
    if n_active == 1:
        return _settle(P, active, stake, payout, value, carried, _FOLD), blind, n_raises
    top = 5 * P
    opponents = n_active - 1
    for i in range(P):
        s = order[i]
        if not active[s]:
            continue
        for j in range(5):
            tmp[j] = hands[s, j]
        h = _hand_number(tmp)  # tmp is now sorted
        row = 0 if rows[s, _NAIVE] else opponents
        kp = tables[row, h]
        k = KEEP_MASKS[kp]
        keep[s] = kp
        m = 0
        for j in range(5):
            if k >> j & 1:
                hands[s, m] = tmp[j]
                m += 1
        for j in range(m, 5):
            hands[s, j] = deck[top]
            top += 1
        value[s] = eval5(hands[s, 0], hands[s, 1], hands[s, 2], hands[s, 3], hands[s, 4])
    opened = -1
    for i in range(P):
        s = order[i]
        if not active[s]:
            continue
        if value[s] >= rows[s, _OPEN] and max_raises > 0:
            level += rows[s, _RAISE_AMOUNT]
            stake[s] = level
            n_raises += 1
            opened = i
            break
    if opened < 0:
        if not force:
            return _CARRY, blind, n_raises
        return _settle(P, active, stake, payout, value, carried, _SHOWDOWN), blind, n_raises
    level, _, made = _facing(P, order, opened + 1, stake, active, level, 1, max_raises, False, first, value,
                             rows)
    n_raises += made
    n_active = 0
    for s in range(P):
        n_active += active[s]
    outcome = _FOLD if n_active == 1 else _SHOWDOWN
    return _settle(P, active, stake, payout, value, carried, outcome), blind, n_raises


@njit
def _settle(P, active, stake, payout, value, carried, outcome):
    pot = carried
    for s in range(P):
        pot += stake[s]
    best = -1
    for s in range(P):
        if active[s] and value[s] > best:
            best = value[s]
    winners = 0
    for s in range(P):
        if active[s] and (outcome == _FOLD or value[s] == best):
            winners += 1
    for s in range(P):
        if active[s] and (outcome == _FOLD or value[s] == best):
            payout[s] = pot / winners
    return outcome


@njit(nogil=True)
def play_pots(state, pots, P, opts, rows, rates, tables, net, net_sq, counts, records):
    """Play ``pots`` pots; add each seat's net result per pot to ``net`` and its square to ``net_sq``;
    add the :data:`SUM_FIELDS` counters to ``counts``; write the first ``records.shape[0]`` games into
    ``records`` (see :data:`RECORD_WIDTH`).  ``opts``: ante, min bet, max bet, max raises, blind on,
    carry limit.  ``state``: the xoshiro256** state (advanced in place)."""
    deck = np.arange(52, dtype=np.int64)
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    stake = np.zeros(P, dtype=np.int64)
    payout = np.zeros(P)
    keep = np.zeros(P, dtype=np.int64)
    value = np.zeros(P, dtype=np.int64)
    pot_net = np.zeros(P)
    n_rec = 0
    carry_limit = opts[5]
    for _ in range(pots):
        start, s0, s1, s2, s3 = _below(P, s0, s1, s2, s3)
        carried = 0.0
        n_carry = 0
        g = 0
        for s in range(P):
            pot_net[s] = 0.0
        while True:
            s0, s1, s2, s3 = shuffle_prefix(deck, 8 * P, s0, s1, s2, s3)
            u, s0, s1, s2, s3 = xoshiro_uniform(s0, s1, s2, s3)
            first = (start + g) % P
            force = n_carry >= carry_limit
            outcome, blind, _ = _play_game(P, opts, rows, rates, tables, deck, u, first, carried, force,
                                                  stake, payout, keep, value)
            if n_rec < records.shape[0]:
                r = records[n_rec]
                r[0] = first
                r[1] = carried
                r[2] = force
                r[3] = u
                r[4] = blind
                r[5] = outcome
                for s in range(P):
                    r[6 + 4 * s] = stake[s]
                    r[7 + 4 * s] = payout[s]
                    r[8 + 4 * s] = keep[s]
                    r[9 + 4 * s] = value[s]
                for j in range(8 * P):
                    r[30 + j] = deck[j]
                n_rec += 1
            counts[0] += 1
            counts[3] += blind > 0
            for s in range(P):
                pot_net[s] += payout[s] - stake[s]
            g += 1
            if outcome == _CARRY:
                for s in range(P):
                    carried += stake[s]
                n_carry += 1
                counts[2] += 1
                continue
            counts[4] += outcome == _SHOWDOWN
            counts[5] += outcome == _FOLD
            counts[6] += force and outcome == _SHOWDOWN
            break
        counts[1] += 1
        for s in range(P):
            net[s] += pot_net[s]
            net_sq[s] += pot_net[s] * pot_net[s]
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    return n_rec


def options_array(rules) -> np.ndarray:
    return np.array([rules.ante, rules.min_bet, rules.max_bet, rules.max_raises, int(rules.blind),
                     rules.carry_limit], dtype=np.int64)


def batch_player(rules, policies, *, record: int = 0):
    """``play(seed_sequence, pots) -> sums`` for :func:`~ricochet_math.solvers.batches.run_batches`
    (``record > 0``: also return the first ``record`` games under ``"records"``)."""
    rows, rates = policy_rows(policies, rules)
    tables = keep_tables(rules.players)
    opts = options_array(rules)
    P = rules.players

    def play(seed_sequence, pots: int):
        state = seed_state(seed_sequence)
        net = np.zeros(P)
        net_sq = np.zeros(P)
        counts = np.zeros(len(SUM_FIELDS), dtype=np.int64)
        records = np.zeros((record, RECORD_WIDTH))
        n = play_pots(state, pots, P, opts, rows, rates, tables, net, net_sq, counts, records)
        out = {"net": net, "net_sq": net_sq, "counts": counts}
        if record:
            out["records"] = records[:n]
        return out

    return play
