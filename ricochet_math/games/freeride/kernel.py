"""The numba Free Ride Poker kernel: the rules of :mod:`~ricochet_math.games.freeride.engine` over integer arrays, for batches of
rounds and of whole games.  Tested equal to the readable engine chip for chip (``tests/games``).

Dealing: each batch seeds xoshiro256** from its ``SeedSequence``
(:func:`~ricochet_math.random_streams.seed_state`) and every round fully shuffles a deck that is not
reset between rounds (:func:`~ricochet_math.random_streams.shuffle_prefix` over 52 cards), so the cards
of the ``r``-th round of a batch never depend on the strategies.  :func:`~ricochet_math.games.freeride.engine.game_decks` is the
pure-Python twin of that dealing.

Sums a batch leaves (``numpy`` arrays by name; :data:`GAME_FIELDS`, :data:`ROUND_FIELDS`) add up over
batches; :mod:`~ricochet_math.games.freeride.analysis` turns them into estimates.
"""
from __future__ import annotations

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.errors import RuleError
from ricochet_math.evaluator.evaluation import eval5
from ricochet_math.games.freeride.rules import FreeRideRules, RuleSlot, rules_vector
from ricochet_math.games.freeride.strategies import kernel_decide, strategy_rows
from ricochet_math.random_streams import seed_state, shuffle_prefix

__all__ = ["GAME_FIELDS", "ROUND_FIELDS", "NET_OFFSET", "NET_BINS", "LENGTH_BINS", "play_games", "play_rounds",
           "game_chips_kernel", "game_trajectory"]

#: per-round net chips are histogrammed at ``net + NET_OFFSET`` (clipped to the bins)
NET_OFFSET = 60
NET_BINS = 400
#: game lengths are histogrammed at ``rounds`` (clipped to the last bin)
LENGTH_BINS = 501
GAME_FIELDS = ("games", "rounds", "rounds_sq", "unfinished", "win", "win_sq", "chips", "chips_sq", "out",
               "free_rides", "free_ride_wins", "starts", "length_hist", "net_hist", "net_sq", "seat_rounds")
ROUND_FIELDS = ("rounds", "net", "net_sq", "net_pos", "net_pos_sq", "win", "win_pos", "fold_stage", "showdowns",
                "free_rides")


@njit
def _refill(hands, hcount, s, deck, nxt):
    """Draw ``deck[nxt]`` into seat ``s``'s sorted hand; the new ``nxt`` (unchanged when the deck is empty)."""
    if nxt >= 52:
        return nxt
    c = deck[nxt]
    i = hcount[s]
    while i > 0 and hands[s, i - 1] > c:
        hands[s, i] = hands[s, i - 1]
        i -= 1
    hands[s, i] = c
    hcount[s] += 1
    return nxt + 1


@njit
def _remove(hands, hcount, s, c):
    j = 0
    for i in range(hcount[s]):
        if hands[s, i] != c:
            hands[s, j] = hands[s, i]
            j += 1
    hcount[s] = j


@njit
def _exposure(rv, nup, played, s):
    if nup[s] + 1 >= 5:
        return rv[RuleSlot.SHOWDOWN]
    return rv[RuleSlot.FOLD0 + nup[s] + 1]


@njit
def play_round_kernel(rv, params, chips, deck, carry, index, fold_stage, values, win_share, free_rides):
    """One round on ``deck`` (``int64[52]``) from ``chips`` (changed in place); returns
    ``(carry, starter)``.  Writes each seat's fold stage (-1: not folded), showdown value (-1: none), share
    of the win and free rides taken.  Twin of :class:`~ricochet_math.games.freeride.engine.Round`."""
    n = chips.shape[0]
    hands = np.zeros((n, 6), dtype=np.int64)
    hcount = np.zeros(n, dtype=np.int64)
    ups = np.zeros((n, 5), dtype=np.int64)
    nup = np.zeros(n, dtype=np.int64)
    played = np.zeros(n, dtype=np.int64)
    down = np.full(n, -1, dtype=np.int64)
    active = np.ones(n, dtype=np.bool_)
    for s in range(n):
        fold_stage[s] = -1
        values[s] = -1
        win_share[s] = 0.0
        free_rides[s] = 0
        for i in range(5):
            hands[s, i] = deck[5 * s + i]
        hcount[s] = 5
        hands[s, :5].sort()
    nxt = 5 * n
    pot = carry
    opening = rv[RuleSlot.OPENING]
    if opening == 0:
        picks = np.empty(n, dtype=np.int64)
        for s in range(n):
            picks[s] = kernel_decide(s, hands[s], hcount[s], ups, nup, active, params[s], True)
        for s in range(n):
            _remove(hands, hcount, s, picks[s])
            ups[s, 0] = picks[s]
            nup[s] = 1
            played[s] = 1
            nxt = _refill(hands, hcount, s, deck, nxt)
        starter = 0
        for s in range(1, n):
            if ups[s, 0] < ups[starter, 0]:
                starter = s
    elif opening == 1:
        starter = 0
        for s in range(1, n):
            if hands[s, 0] < hands[starter, 0]:
                starter = s
    else:
        starter = index % n
    turn = starter
    free = rv[RuleSlot.FREE_RIDE] != 0
    while True:
        s = turn
        forced = (not free) and chips[s] < _exposure(rv, nup, played, s)
        if forced:
            action = -1
        else:
            action = kernel_decide(s, hands[s], hcount[s], ups, nup, active, params[s], False)
        if action < 0:
            k = nup[s]
            paid = min(rv[RuleSlot.FOLD0 + k], chips[s])
            chips[s] -= paid
            pot += paid
            active[s] = False
            fold_stage[s] = k
        else:
            if chips[s] < _exposure(rv, nup, played, s):
                free_rides[s] += 1
            _remove(hands, hcount, s, action)
            if nup[s] + 1 == 5:
                down[s] = action
            else:
                ups[s, nup[s]] = action
                nup[s] += 1
            played[s] += 1
            if played[s] < 5 or rv[RuleSlot.REFILL_LAST] != 0:
                nxt = _refill(hands, hcount, s, deck, nxt)
        # advance
        live = 0
        last = -1
        waiting = 0
        for t in range(n):
            if active[t]:
                live += 1
                last = t
                if played[t] < 5:
                    waiting += 1
        if live == 1:
            chips[last] += pot
            win_share[last] = 1.0
            return 0, starter
        if waiting == 0:
            break
        t = (turn + 1) % n
        while not (active[t] and played[t] < 5):
            t = (t + 1) % n
        turn = t
    # showdown
    best = -1
    for t in range(n):
        if active[t]:
            values[t] = eval5(ups[t, 0], ups[t, 1], ups[t, 2], ups[t, 3], down[t])
            if values[t] > best:
                best = values[t]
    nwin = 0
    for t in range(n):
        if active[t]:
            if values[t] < best:
                paid = min(rv[RuleSlot.SHOWDOWN], chips[t])
                chips[t] -= paid
                pot += paid
            else:
                nwin += 1
    share = pot // nwin
    odd = pot - share * nwin
    for i in range(n):
        t = (starter + i) % n
        if active[t] and values[t] == best:
            chips[t] += share
            win_share[t] = 1.0 / nwin
            if rv[RuleSlot.ODD_CARRY] == 0 and odd > 0:
                chips[t] += 1
                odd -= 1
    return odd, starter


@njit
def _state(st):
    return st[0], st[1], st[2], st[3]


@njit
def _games_kernel(rv, params, st, n_games, games, rounds, rounds_sq, unfinished, win, win_sq, chips_sum,
                  chips_sq, out, free_rides, free_ride_wins, starts, length_hist, net_hist, net_sq, seat_rounds):
    n = params.shape[0]
    deck = np.arange(52, dtype=np.int64)
    s0, s1, s2, s3 = _state(st)
    chips = np.empty(n, dtype=np.int64)
    before = np.empty(n, dtype=np.int64)
    fold_stage = np.empty(n, dtype=np.int64)
    values = np.empty(n, dtype=np.int64)
    share = np.empty(n, dtype=np.float64)
    fr = np.empty(n, dtype=np.int64)
    for g in range(n_games):
        for s in range(n):
            chips[s] = rv[RuleSlot.START]
        carry = 0
        r = 0
        while r < rv[RuleSlot.MAX_ROUNDS]:
            s0, s1, s2, s3 = shuffle_prefix(deck, 52, s0, s1, s2, s3)
            for s in range(n):
                before[s] = chips[s]
            carry, starter = play_round_kernel(rv, params, chips, deck, carry, r, fold_stage, values, share, fr)
            r += 1
            starts[starter] += 1
            low = chips[0]
            for s in range(n):
                d = chips[s] - before[s]
                net_sq[0] += d * d
                seat_rounds[0] += 1
                b = min(max(d + NET_OFFSET_K, 0), NET_BINS_K - 1)
                net_hist[b] += 1
                free_rides[s] += fr[s]
                if fr[s] > 0 and share[s] > 0.0:
                    free_ride_wins[s] += 1
                if chips[s] < low:
                    low = chips[s]
            if low == 0:
                break
        games[0] += 1
        rounds[0] += r
        rounds_sq[0] += r * r
        length_hist[min(r, LENGTH_BINS_K - 1)] += 1
        best = chips[0]
        lowest = chips[0]
        for s in range(n):
            if chips[s] > best:
                best = chips[s]
            if chips[s] < lowest:
                lowest = chips[s]
        if lowest > 0:
            unfinished[0] += 1
        nb = 0
        for s in range(n):
            if chips[s] == best:
                nb += 1
        for s in range(n):
            chips_sum[s] += chips[s]
            chips_sq[s] += chips[s] * chips[s]
            if chips[s] == 0:
                out[s] += 1
            if chips[s] == best:
                win[s] += 1.0 / nb
                win_sq[s] += 1.0 / (nb * nb)
    st[0], st[1], st[2], st[3] = s0, s1, s2, s3


NET_OFFSET_K = NET_OFFSET
NET_BINS_K = NET_BINS
LENGTH_BINS_K = LENGTH_BINS


@njit
def _rounds_kernel(rv, params, st, n_rounds, rounds, net, net_sq, net_pos, net_pos_sq, win, win_pos, fold_stage_c,
                   showdowns, free_rides):
    n = params.shape[0]
    deck = np.arange(52, dtype=np.int64)
    s0, s1, s2, s3 = _state(st)
    chips = np.empty(n, dtype=np.int64)
    fold_stage = np.empty(n, dtype=np.int64)
    values = np.empty(n, dtype=np.int64)
    share = np.empty(n, dtype=np.float64)
    fr = np.empty(n, dtype=np.int64)
    for r in range(n_rounds):
        s0, s1, s2, s3 = shuffle_prefix(deck, 52, s0, s1, s2, s3)
        for s in range(n):
            chips[s] = rv[RuleSlot.START]
        carry, starter = play_round_kernel(rv, params, chips, deck, 0, r, fold_stage, values, share, fr)
        rounds[0] += 1
        sd = 0
        for s in range(n):
            d = chips[s] - rv[RuleSlot.START]
            pos = (s - starter) % n
            net[s] += d
            net_sq[s] += d * d
            net_pos[pos] += d
            net_pos_sq[pos] += d * d
            win[s] += share[s]
            win_pos[pos] += share[s]
            fold_stage_c[s, fold_stage[s] if fold_stage[s] >= 0 else 5] += 1
            free_rides[s] += fr[s]
            if values[s] >= 0:
                sd = 1
        showdowns[0] += sd
    st[0], st[1], st[2], st[3] = s0, s1, s2, s3


def _prepare(strategies, rules: FreeRideRules | None):
    rules = rules or FreeRideRules()
    params = strategy_rows(strategies)
    if not 2 <= params.shape[0] <= 6:
        raise RuleError(f"a table has 2..6 seats, got {params.shape[0]}")
    return rules_vector(rules), params


def play_games(strategies, rules: FreeRideRules | None, seed_sequence: np.random.SeedSequence, n_games: int) -> dict:
    """Play ``n_games`` whole games (one strategy per seat) from ``seed_sequence``; their sums by name
    (:data:`GAME_FIELDS`): ``win`` shares the win among the players tied for most chips."""
    rv, params = _prepare(strategies, rules)
    n = params.shape[0]
    st = seed_state(seed_sequence)
    sums = {"games": np.zeros(1, np.int64), "rounds": np.zeros(1, np.int64), "rounds_sq": np.zeros(1, np.int64),
            "unfinished": np.zeros(1, np.int64), "win": np.zeros(n), "win_sq": np.zeros(n),
            "chips": np.zeros(n, np.int64), "chips_sq": np.zeros(n, np.int64), "out": np.zeros(n, np.int64),
            "free_rides": np.zeros(n, np.int64), "free_ride_wins": np.zeros(n, np.int64),
            "starts": np.zeros(n, np.int64), "length_hist": np.zeros(LENGTH_BINS, np.int64),
            "net_hist": np.zeros(NET_BINS, np.int64), "net_sq": np.zeros(1, np.int64),
            "seat_rounds": np.zeros(1, np.int64)}
    _games_kernel(rv, params, st, int(n_games), *(sums[k] for k in GAME_FIELDS))
    return sums


def play_rounds(strategies, rules: FreeRideRules | None, seed_sequence: np.random.SeedSequence,
                n_rounds: int) -> dict:
    """Play ``n_rounds`` independent rounds, every seat starting with ``start_chips`` (so no free ride
    unless the fold prices exceed it); their sums by name (:data:`ROUND_FIELDS`): net chips by seat
    and by position after the starter (0 = the starter), win shares, fold stages (``fold_stage[s, k]``:
    folds with ``k`` face up, ``k = 5``: never folded)."""
    rv, params = _prepare(strategies, rules)
    n = params.shape[0]
    st = seed_state(seed_sequence)
    sums = {"rounds": np.zeros(1, np.int64), "net": np.zeros(n, np.int64), "net_sq": np.zeros(n, np.int64),
            "net_pos": np.zeros(n, np.int64), "net_pos_sq": np.zeros(n, np.int64), "win": np.zeros(n),
            "win_pos": np.zeros(n), "fold_stage": np.zeros((n, 6), np.int64), "showdowns": np.zeros(1, np.int64),
            "free_rides": np.zeros(n, np.int64)}
    _rounds_kernel(rv, params, st, int(n_rounds), *(sums[k] for k in ROUND_FIELDS))
    return sums


@njit
def game_chips_kernel(rv, params, decks, trajectory):
    """A game on the given decks (``int64[rounds, 52]``): ``trajectory[r]`` = chips after round ``r``;
    returns the rounds played (the test twin of :func:`~ricochet_math.games.freeride.engine.play_game`)."""
    n = params.shape[0]
    chips = np.full(n, rv[RuleSlot.START], dtype=np.int64)
    fold_stage = np.empty(n, dtype=np.int64)
    values = np.empty(n, dtype=np.int64)
    share = np.empty(n, dtype=np.float64)
    fr = np.empty(n, dtype=np.int64)
    carry = 0
    for r in range(min(decks.shape[0], rv[RuleSlot.MAX_ROUNDS])):
        carry, starter = play_round_kernel(rv, params, chips, decks[r], carry, r, fold_stage, values, share, fr)
        trajectory[r] = chips
        if chips.min() == 0:
            return r + 1
    return min(decks.shape[0], rv[RuleSlot.MAX_ROUNDS])


def game_trajectory(strategies, rules: FreeRideRules | None, decks) -> np.ndarray:
    """Chips after each round of a game played by the kernel on ``decks`` (rows of 52 cards)."""
    rv, params = _prepare(strategies, rules)
    decks = np.ascontiguousarray(decks, dtype=np.int64)
    traj = np.zeros((decks.shape[0], params.shape[0]), dtype=np.int64)
    r = game_chips_kernel(rv, params, decks, traj)
    return traj[:r]
