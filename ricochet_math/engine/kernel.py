"""The fast engine: casino Ricochet in numba, for batches of rounds.

The same rules as the readable :mod:`ricochet_math.engine.round` (whose docstring
states them, with the deal order from a deck), over integer arrays.  The
tests check that both engines give identical records on random rounds for
every built-in strategy, N = 1..7 and every rule option.

Two entry points:

* :func:`play_decks` plays given deck orders and returns every per-round
  number (:class:`FastRecords`), for the differential tests and for analyses
  that bring their own decks (common random numbers).
* :func:`run_chunk` deals ``rounds`` random rounds in the kernel and returns
  only running sums (:class:`ChunkSums`); :mod:`ricochet_math.solvers.montecarlo`
  builds Monte Carlo runs from chunks.

Random decks
------------
The chunk kernel shuffles with xoshiro256** (Blackman and Vigna), seeded with
four 64-bit words from a ``numpy.random.SeedSequence``; a uniform integer
below ``m`` takes the top 32 bits of one output through Lemire's
multiply-and-reject, so it is exactly uniform.  Each round shuffles exactly
the first ``5N + 5`` deck positions (a partial Fisher-Yates on a deck that is
not reset between rounds, which is still a uniform shuffle), so the cards of a
round never depend on the strategies: two runs with the same seed see the
same deals (common random numbers across strategies and rule sets).
:func:`xoshiro_decks` is the pure-Python twin of that dealing.

Arrays (``N`` players, ``R`` rounds)
------------------------------------
Seat status codes are :data:`STATUS_CODES` (``folded, played, beaten, won,
auto-win`` = 0..4).  Money is ``float64`` in ante units.

>>> from ricochet_math.rules.ruleset import load_rules
>>> import numpy as np
>>> rec = play_decks(load_rules(), np.array([np.random.default_rng(1).permutation(52)]), "always", players=2)
>>> float(rec.net.sum() + rec.house_net.sum())
0.0
"""
from __future__ import annotations

import hashlib
import types
from dataclasses import dataclass, field, replace
from pathlib import Path

import numba
import numpy as np

from ricochet_math.strategies import perfect

from ricochet_math.solvers import variance
from ricochet_math._numba import njit
from ricochet_math.engine.round import (
    AUTO_WIN, BEATEN, FOLDED, PLAYED, WON, bonus_by_value, cards_needed, check_players, cover_by_value,
    options_array,
)
from ricochet_math.errors import CardError, RuleError
from ricochet_math.evaluator.evaluation import NUM_VALUES, category_of, eval5
from ricochet_math.rules.ruleset import RuleSet, load_rules
from ricochet_math.strategies.registry import (
    FIVE_CARD_KEY, ORDER_KEY, SOLVER, TWO_CARD_KEY, Strategy, kernel_strategy_arrays, resolve_strategies,
    simple_decide, top_cards_key,
)
from ricochet_math.strategies.perfect import OPT_DEALER_VALUE
from ricochet_math.evaluator.tables import ROYAL_FLUSH_VALUE

__all__ = [
    "STATUS_CODES", "S_FOLDED", "S_PLAYED", "S_BEATEN", "S_WON", "S_AUTO_WIN",
    "SEAT_FIELDS", "ROUND_FIELDS", "N_CATEGORIES",
    "KernelSetup", "prepare", "FastRecords", "play_decks", "ChunkSums", "run_chunk",
    "seed_state", "xoshiro_decks",
]

S_FOLDED, S_PLAYED, S_BEATEN, S_WON, S_AUTO_WIN = range(5)
#: status code -> the reference engine's status word
STATUS_CODES = (FOLDED, PLAYED, BEATEN, WON, AUTO_WIN)
#: final five-card categories counted: 0..8 as the evaluator, 9 = royal flush
N_CATEGORIES = 10

# Per-seat sums (one row per seat, one per acting position, and the per-round
# totals over seats): the column names, in order.
SEAT_FIELDS = (
    "wagered", "returned", "net", "net_sq", "pot_share", "bonus",
    "fold", "play", "win", "auto_win", "beaten", "hit", "bonus_hit", "split_win",
    "quickdraw", "quickdraw_win", "returned_sq", "wagered_sq", "returned_wagered",
) + tuple(f"hand_{c}" for c in range(N_CATEGORIES)) + tuple(f"bonus_{c}" for c in range(N_CATEGORIES))
(F_WAG, F_RET, F_NET, F_NET_SQ, F_SHARE, F_BONUS, F_FOLD, F_PLAY, F_WIN, F_AUTO, F_BEATEN, F_HIT,
 F_BONUS_HIT, F_SPLIT, F_QD, F_QD_WIN, F_RET_SQ, F_WAG_SQ, F_RET_WAG) = range(19)
F_HAND0 = 19
F_BONUS0 = F_HAND0 + N_CATEGORIES
N_SEAT_FIELDS = len(SEAT_FIELDS)

# Per-round sums.
ROUND_FIELDS = (
    "rounds", "kicked", "pot", "pot_sq", "house_takes_pot", "house_net", "house_net_sq",
    "auto_win", "all_fold", "split", "cover", "cover_sq", "cover_win", "total_returned_wagered",
)
(R_ROUNDS, R_KICKED, R_POT, R_POT_SQ, R_HOUSE_TAKES, R_HOUSE_NET, R_HOUSE_NET_SQ, R_AUTO, R_ALL_FOLD,
 R_SPLIT, R_COVER, R_COVER_SQ, R_COVER_WIN, R_TOT_RET_WAG) = range(14)
N_ROUND_FIELDS = len(ROUND_FIELDS)


# ----------------------------------------------------------------------------
# Rule set and strategies as kernel arguments
# ----------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class KernelSetup:
    """Everything a kernel needs about the game, as arrays and scalars.

    ``codes``/``params``: each seat's strategy (:mod:`ricochet_math.strategies.registry`);
    ``bonus``/``cover``: ``float64[7462]`` payouts by value; ``options``:
    ``int64[5]`` (``perfect.OPT_*``); ``qd_top``: Quickdraw compares top cards
    only; ``qd_pays``: Quickdraw pays to 1.
    """

    rules: RuleSet
    players: int
    strategies: tuple[Strategy, ...]
    kick_value: int
    codes: np.ndarray
    params: np.ndarray
    bonus: np.ndarray
    cover: np.ndarray
    options: np.ndarray
    qd_top: bool
    qd_pays: float
    controls: variance.ControlSetup | None = None

    def args(self):
        return (self.players, self.kick_value, self.codes, self.params, self.bonus, self.cover, self.options,
                self.qd_top, self.qd_pays)


def prepare(rules: RuleSet | str | None, players: int, strategies, *,
            control_variates: bool = False) -> KernelSetup:
    """Validate and convert a rule set, a player count and strategies (one, or one per seat);
    ``control_variates``: record the controls of :mod:`ricochet_math.solvers.variance`."""
    rules = load_rules(rules)
    n = check_players(players)
    seat_strategies = resolve_strategies(strategies, n)
    codes, params = kernel_strategy_arrays(seat_strategies)
    kick = int(rules.kickout_value(n))
    return KernelSetup(
        rules=rules, players=n, strategies=seat_strategies, kick_value=kick,
        codes=codes, params=params, bonus=bonus_by_value(rules).copy(), cover=cover_by_value(rules).copy(),
        options=options_array(rules), qd_top=rules.quickdraw.comparison == "top-cards",
        qd_pays=float(rules.quickdraw.pays),
        controls=variance.control_setup(n, kick) if control_variates else None,
    )


@dataclass(frozen=True, eq=False)
class ChunkSums:
    """Running sums of a block of rounds (see :data:`SEAT_FIELDS`, :data:`ROUND_FIELDS`).

    ``seat``/``position``: ``float64[N, len(SEAT_FIELDS)]`` by seat and by
    acting position; ``total``/``total_sq``: the per-round sum over seats and
    its square, summed over rounds (for confidence intervals of pooled rates);
    ``round``: ``float64[len(ROUND_FIELDS)]``.  Sums add exactly for counts;
    money sums are float64 and added in chunk order by :mod:`ricochet_math.solvers.montecarlo`.
    """

    seat: np.ndarray
    position: np.ndarray
    total: np.ndarray
    total_sq: np.ndarray
    round: np.ndarray
    controls: np.ndarray = field(default_factory=lambda: np.zeros((2, 0, 0)))

    KEYS = ("seat", "position", "total", "total_sq", "round", "controls")

    @classmethod
    def zeros(cls, players: int, controls: bool = False) -> ChunkSums:
        k = variance.n_u(players) if controls else 0
        return cls(np.zeros((players, N_SEAT_FIELDS)), np.zeros((players, N_SEAT_FIELDS)),
                   np.zeros(N_SEAT_FIELDS), np.zeros(N_SEAT_FIELDS), np.zeros(N_ROUND_FIELDS), np.zeros((2, k, k)))

    def __add__(self, other: ChunkSums) -> ChunkSums:
        if self.controls.shape != other.controls.shape:
            raise ValueError("cannot add sums recorded with and without control variates")
        return ChunkSums(self.seat + other.seat, self.position + other.position, self.total + other.total,
                         self.total_sq + other.total_sq, self.round + other.round, self.controls + other.controls)

    def in_half(self, half: int) -> ChunkSums:
        """The same sums with the control-variate sums moved to ``half`` (0: even chunks, 1: odd chunks)."""
        c = np.zeros_like(self.controls)
        c[half] = self.controls.sum(axis=0)
        return replace(self, controls=c)

    def to_arrays(self) -> dict[str, np.ndarray]:
        return {k: getattr(self, k) for k in self.KEYS}

    @classmethod
    def from_arrays(cls, arrays) -> ChunkSums:
        return cls(*(np.array(arrays[k], dtype=np.float64) for k in cls.KEYS))


def seed_state(seed_sequence: np.random.SeedSequence) -> np.ndarray:
    """The xoshiro256** state (``uint64[4]``, never all zero) for a seed sequence."""
    state = seed_sequence.generate_state(4, np.uint64)
    if not state.any():
        state[0] = 1
    return state


# ----------------------------------------------------------------------------
# Random decks: xoshiro256**
# ----------------------------------------------------------------------------

_M64 = (1 << 64) - 1


@njit(inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(inline="always")
def _xoshiro(s0, s1, s2, s3):
    """One xoshiro256** step on a state held in four uint64 locals: (output, new state...)."""
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@njit(inline="always")
def _shuffle_prefix(deck, n_cards, s0, s1, s2, s3):
    """Partial Fisher-Yates of ``deck[:n_cards]`` with Lemire's unbiased bounded integers
    from xoshiro256** state ``s0..s3``; returns the advanced state (the one shuffle both
    the rounds kernel and its dealing twin use)."""
    for i in range(n_cards):
        m = np.uint64(52 - i)
        while True:
            x, s0, s1, s2, s3 = _xoshiro(s0, s1, s2, s3)
            prod = (x >> np.uint64(32)) * m
            low = prod & np.uint64(0xFFFFFFFF)
            if low >= m or low >= (np.uint64(0x100000000) - m) % m:
                break
        j = i + np.int64(prod >> np.uint64(32))
        c = deck[i]
        deck[i] = deck[j]
        deck[j] = c
    return s0, s1, s2, s3


@njit
def _xoshiro_decks_kernel(state, n_cards, out):
    """The kernel's dealing alone (the same loop as in :func:`_rounds_kernel`): out[r] = round r's deck."""
    deck = np.arange(52, dtype=np.int64)
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    for r in range(out.shape[0]):
        s0, s1, s2, s3 = _shuffle_prefix(deck, n_cards, s0, s1, s2, s3)
        for i in range(52):
            out[r, i] = deck[i]
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3


# ----------------------------------------------------------------------------
# The rounds kernel (the kernel twin of engine.Round)
# ----------------------------------------------------------------------------
# The whole round sits in the loop body on purpose: numba increments and
# decrements a reference count (an atomic instruction) for every array passed
# to a function, even an inlined one, and with a dozen per-seat arrays that
# cost more than the round itself.  Helpers called inside the loop take
# scalars only (eval5, simple_decide, ...); the solver call is the exception
# and only runs for SOLVER seats.

@njit(inline="always")
def _final_category(v):
    """Category 0..8 of a value, 9 for the royal flush."""
    return 9 if v == ROYAL_FLUSH_VALUE else category_of(v)


_WITH_SOLVER = True  # replaced by a constant in each compiled variant (below)


def _rounds_impl(state, rounds, decks, n, kick_value, codes, params, bonus_tab, cover_tab, options_in, qd_top,
                 qd_pays, acc, total_sums, total_sq, round_sums, decks_out,
                 r_status, r_wagered, r_share, r_bonus, r_value, r_quickdraw, r_position, r_order,
                 r_dealer, r_kicked, r_pot, r_house_takes, r_house_net, r_cover, r_winners,
                 cv_bucket, cv_reach, cv_klass, cv_cross):
    """Play ``rounds`` rounds and add them up: the source of :func:`_rounds_kernel` and
    :func:`_rounds_kernel_solver`.

    Decks: the rows of ``decks`` (int64[R, >= 5n+5]) when it has rows, else
    random decks from xoshiro256** ``state`` (uint64[4], advanced in place;
    each round shuffles deck positions 0..5n+4).  ``decks_out`` (int64[R or 0, 52])
    receives the decks played when it has rows.

    Sums: ``acc`` float64[2n+1, N_SEAT_FIELDS]: rows 0..n-1 by seat, n..2n-1
    by acting position, row 2n scratch (the round's total over seats, added to
    ``total_sums`` and, squared, to ``total_sq``); ``round_sums``
    float64[N_ROUND_FIELDS].  Records: the ``r_*`` arrays ([R, n] per seat, [R]
    per round) when they have rows (see :class:`FastRecords`).

    Control variates (:mod:`ricochet_math.solvers.variance`): when ``cv_cross`` has
    rows, each round's vector ``u`` (its total net and the controls) is
    recorded and ``u u^T`` added to ``cv_cross``.
    """
    from_decks = decks.shape[0] > 0
    keep_decks = decks_out.shape[0] > 0
    record = r_status.shape[0] > 0
    deck = np.arange(52, dtype=np.int64)
    hole = np.empty((n, 2), dtype=np.int64)
    order = np.empty(n, dtype=np.int64)
    unseen = np.empty(52, dtype=np.uint8)
    options = options_in.copy()
    status = np.empty(n, dtype=np.int64)
    wagered = np.empty(n)
    share = np.empty(n)
    bonus = np.empty(n)
    value = np.empty(n, dtype=np.int64)
    quickdraw = np.empty(n)
    position = np.empty(n, dtype=np.int64)
    auto_opt = options[0] != 0
    fractional = options[1] != 0
    dealer_loses_ties = options[2] != 0
    bonus_on_auto = options[3] != 0
    n_cards = 5 * n + 5
    tot = 2 * n
    cv_on = cv_cross.shape[0] > 0
    track_unseen = _WITH_SOLVER or cv_on
    cv_u = np.zeros(cv_cross.shape[0])
    cv_scratch = np.zeros(NUM_VALUES if cv_on else 0)
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]

    for r in range(rounds):
        # ---- the deck: given, or shuffled (partial Fisher-Yates, Lemire's bounded integers)
        if from_decks:
            for i in range(n_cards):
                deck[i] = decks[r, i]
        else:
            s0, s1, s2, s3 = _shuffle_prefix(deck, n_cards, s0, s1, s2, s3)
        if keep_decks:
            for i in range(52):
                decks_out[r, i] = deck[i]

        # ---- 1-2. Antes and deal: seat i gets deck[2i], deck[2i+1]; the dealer deck[2n:2n+5]
        for i in range(n):
            hole[i, 0] = deck[2 * i]
            hole[i, 1] = deck[2 * i + 1]
        d = 2 * n
        dealer_value = eval5(deck[d], deck[d + 1], deck[d + 2], deck[d + 3], deck[d + 4])
        dealer_key = FIVE_CARD_KEY[dealer_value]
        if track_unseen:  # what the solver reads: the unseen cards, the dealer's own value
            for i in range(52):
                unseen[i] = 1
            for i in range(d + 5):
                unseen[deck[i]] = 0
            options[OPT_DEALER_VALUE] = dealer_value

        # ---- side bets: Quickdraw per seat (top-cards: the dealer's key cut to
        # one ranked card against a pair, two against unpaired cards)
        for i in range(n):
            k2 = TWO_CARD_KEY[hole[i, 0] * 52 + hole[i, 1]]
            th = top_cards_key(dealer_key, k2) if qd_top else dealer_key
            quickdraw[i] = qd_pays if k2 >= th else -1.0

        # ---- 3. Kickout
        kicked = dealer_value >= kick_value
        if cv_on:
            variance.record_deal(cv_u, hole, n, dealer_value, kicked, cv_bucket, cv_reach, cv_klass)

        # ---- 4. Order of play: insertion sort on the order key (held in ``position`` meanwhile)
        for i in range(n):
            k = ORDER_KEY[hole[i, 0] * 52 + hole[i, 1]]
            position[i] = k
            j = i
            while j > 0 and position[order[j - 1]] > k:
                order[j] = order[j - 1]
                j -= 1
            order[j] = i
        for p in range(n):
            position[order[p]] = p
            status[p] = S_FOLDED
            wagered[p] = 1.0
            share[p] = 0.0
            bonus[p] = 0.0
            value[p] = -1

        # ---- 5-6. Each seat once: fold, or play and face elimination
        pot = n + 1
        nxt = d + 5
        dealer_in = not kicked
        best = dealer_value if dealer_in else -1
        n_tied = 0
        n_played = 0
        auto_seat = -1
        for p in range(n):
            s = order[p]
            # 8. Automatic win: dealer kicked out, every earlier seat folded, last seat.
            if auto_opt and kicked and p == n - 1 and n_played == 0:
                auto_seat = s
                status[s] = S_AUTO_WIN
                if bonus_on_auto:
                    v = eval5(hole[s, 0], hole[s, 1], deck[nxt], deck[nxt + 1], deck[nxt + 2])
                    value[s] = v
                    bonus[s] = bonus_tab[v]
                    if cv_on:
                        variance.record_draw(cv_u, cv_scratch, s, hole[s, 0], hole[s, 1], unseen, v,
                                             bonus_tab, -1, False, dealer_loses_ties, 0.0,
                                             np.empty(0, np.int64), cv_reach)
                share[s] = float(pot)
                break
            code = codes[s]
            if _WITH_SOLVER and code == SOLVER:  # strategies.decide, spelled out
                play = perfect.perfect_decision(np.int64(params[s, 0]), unseen, hole, order, p, best, dealer_in,
                                                n_tied, pot, kicked, bonus_tab, options)
            else:
                play = simple_decide(code, params[s, 0], hole[s, 0], hole[s, 1], best, kicked, dealer_key)
            if not play:
                continue  # status stays S_FOLDED
            # Play: one more unit, three cards.
            n_played += 1
            pot += 1
            wagered[s] = 2.0
            c0 = deck[nxt]
            c1 = deck[nxt + 1]
            c2 = deck[nxt + 2]
            nxt += 3
            v = eval5(hole[s, 0], hole[s, 1], c0, c1, c2)
            value[s] = v
            bonus[s] = bonus_tab[v]
            if cv_on:  # before the draw leaves the unseen cards
                later = variance.later_classes(order, p, hole, cv_klass)
                d_beat = variance.record_draw(cv_u, cv_scratch, s, hole[s, 0], hole[s, 1], unseen, v, bonus_tab,
                                              best, dealer_in, dealer_loses_ties, float(pot), later, cv_reach)
                if not dealer_in and best >= 0:
                    for q in range(p):  # the seats holding the pot may lose it to this draw
                        if status[order[q]] == S_PLAYED:
                            variance.record_loss(cv_u, order[q], d_beat, float(pot), later, cv_reach, best)
            if track_unseen:
                unseen[c0] = 0
                unseen[c1] = 0
                unseen[c2] = 0
            # 6. Elimination.
            if best < 0:
                status[s] = S_PLAYED
                best = v
                n_tied = 1
            elif dealer_in:
                if v > best or (v == best and dealer_loses_ties):
                    dealer_in = False
                    status[s] = S_PLAYED
                    best = v
                    n_tied = 1
                else:
                    status[s] = S_BEATEN
            elif v > best:
                for q in range(p):
                    if status[order[q]] == S_PLAYED:
                        status[order[q]] = S_BEATEN
                status[s] = S_PLAYED
                best = v
                n_tied = 1
            elif v == best:
                status[s] = S_PLAYED
                n_tied += 1
            else:
                status[s] = S_BEATEN

        # ---- 7. Award
        house_takes = False
        n_winners = 1
        if auto_seat < 0:
            if dealer_in or n_tied == 0:
                house_takes = True
                n_winners = 0
            elif fractional:
                n_winners = n_tied
                each = pot / n_tied
                for q in range(n):
                    if status[q] == S_PLAYED:
                        status[q] = S_WON
                        share[q] = each
            else:
                n_winners = n_tied
                base = pot // n_tied
                odd = pot - base * n_tied
                j = 0
                for p in range(n - 1, -1, -1):  # the tied seats that acted last get the odd units
                    s = order[p]
                    if status[s] == S_PLAYED:
                        status[s] = S_WON
                        share[s] = float(base + 1) if j < odd else float(base)
                        j += 1
        paid = 0.0  # the house: -1 (ante) + the pot if it takes it - the bonuses (seat order, as the reference)
        for i in range(n):
            paid += bonus[i]
        house_net = -1.0 + (float(pot) if house_takes else 0.0) - paid
        cover = cover_tab[dealer_value] if cover_tab[dealer_value] > 0 else -1.0

        # ---- records
        if record:
            for i in range(n):
                r_status[r, i] = status[i]
                r_wagered[r, i] = wagered[i]
                r_share[r, i] = share[i]
                r_bonus[r, i] = bonus[i]
                r_value[r, i] = value[i]
                r_quickdraw[r, i] = quickdraw[i]
                r_position[r, i] = position[i]
                r_order[r, i] = order[i]
            r_dealer[r] = dealer_value
            r_kicked[r] = kicked
            r_pot[r] = pot
            r_house_takes[r] = house_takes
            r_house_net[r] = house_net
            r_cover[r] = cover
            r_winners[r] = n_winners

        # ---- sums: each seat into its seat row, its position row and the round's total row
        for f in range(N_SEAT_FIELDS):
            acc[tot, f] = 0.0
        for s in range(n):
            st = status[s]
            wag = wagered[s]
            ret = share[s] + bonus[s]
            net = ret - wag
            cat = _final_category(value[s]) if value[s] >= 0 else -1
            for k in range(3):
                row = s if k == 0 else (n + position[s] if k == 1 else tot)
                acc[row, F_WAG] += wag
                acc[row, F_RET] += ret
                acc[row, F_NET] += net
                acc[row, F_NET_SQ] += net * net
                acc[row, F_SHARE] += share[s]
                acc[row, F_BONUS] += bonus[s]
                acc[row, F_RET_SQ] += ret * ret
                acc[row, F_WAG_SQ] += wag * wag
                acc[row, F_RET_WAG] += ret * wag
                acc[row, F_QD] += quickdraw[s]
                if quickdraw[s] > 0:
                    acc[row, F_QD_WIN] += 1.0
                if st == S_FOLDED:
                    acc[row, F_FOLD] += 1.0
                elif st == S_AUTO_WIN:
                    acc[row, F_WIN] += 1.0
                    acc[row, F_AUTO] += 1.0
                else:
                    acc[row, F_PLAY] += 1.0
                    if st == S_WON:
                        acc[row, F_WIN] += 1.0
                        if n_winners > 1:
                            acc[row, F_SPLIT] += 1.0
                    else:
                        acc[row, F_BEATEN] += 1.0
                if net > 0:
                    acc[row, F_HIT] += 1.0
                if cat >= 0:
                    acc[row, F_HAND0 + cat] += 1.0
                    if bonus[s] > 0:
                        acc[row, F_BONUS_HIT] += 1.0
                        acc[row, F_BONUS0 + cat] += 1.0
        for f in range(N_SEAT_FIELDS):
            total_sums[f] += acc[tot, f]
            total_sq[f] += acc[tot, f] * acc[tot, f]
        round_sums[R_ROUNDS] += 1.0
        if kicked:
            round_sums[R_KICKED] += 1.0
        round_sums[R_POT] += pot
        round_sums[R_POT_SQ] += pot * pot
        if house_takes:
            round_sums[R_HOUSE_TAKES] += 1.0
        round_sums[R_HOUSE_NET] += house_net
        round_sums[R_HOUSE_NET_SQ] += house_net * house_net
        if auto_seat >= 0:
            round_sums[R_AUTO] += 1.0
        if acc[tot, F_FOLD] == n:
            round_sums[R_ALL_FOLD] += 1.0
        if n_winners > 1:
            round_sums[R_SPLIT] += 1.0
        round_sums[R_COVER] += cover
        round_sums[R_COVER_SQ] += cover * cover
        if cover > 0:
            round_sums[R_COVER_WIN] += 1.0
        round_sums[R_TOT_RET_WAG] += acc[tot, F_RET] * acc[tot, F_WAG]
        if cv_on:
            cv_u[variance.U_X] = acc[tot, F_NET]
            cv_u[variance.U_W] = acc[tot, F_WAG]
            for i in range(n):
                cv_u[variance.N_SHARED + variance.PER_SEAT * i + variance.SEAT_X] = share[i] + bonus[i] - wagered[i]
            variance.add_outer(cv_cross, cv_u)

    state[0], state[1], state[2], state[3] = s0, s1, s2, s3


def _variant(fn, name: str, **constants):
    """A copy of ``fn`` named ``name`` whose globals hold ``constants`` (numba freezes globals as
    compile-time constants and prunes the branches they decide; the distinct name gives the
    copy its own cache file)."""
    scope = dict(fn.__globals__)
    scope.update(constants)
    copy = types.FunctionType(fn.__code__, scope, name, fn.__defaults__, fn.__closure__)
    copy.__qualname__ = name
    copy.__module__ = fn.__module__
    copy.__doc__ = fn.__doc__
    return copy


# Two compiled variants of the same source.  The one for table-free strategies
# leaves the SOLVER branch out before typing: it neither compiles nor links the
# perfect-play solver, which halves its compile time; the solver variant is
# compiled only when a seat uses the solver.
_rounds_kernel = njit(_variant(_rounds_impl, "_rounds_kernel", _WITH_SOLVER=False))
_rounds_kernel_solver = njit(_variant(_rounds_impl, "_rounds_kernel_solver", _WITH_SOLVER=True))


# ----------------------------------------------------------------------------
# Given decks: per-round records
# ----------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class FastRecords:
    """Per-round results of :func:`play_decks` (``R`` rounds, ``N`` seats).

    Per seat ``[R, N]``: ``status`` (codes, :data:`STATUS_CODES`), ``wagered``,
    ``pot_share``, ``bonus``, ``net`` (float64, ante units), ``final_value``
    (int64, -1 without a five-card hand), ``quickdraw`` (per unit staked),
    ``position`` (0 = acted first).  ``order`` ``[R, N]``: seats in acting order.
    Per round ``[R]``: ``dealer_value``, ``kicked``, ``pot``, ``house_takes_pot``,
    ``house_net``, ``cover`` (per unit staked), ``n_winners``.  ``sums``: the
    same rounds added up as :func:`run_chunk` adds them.
    """

    status: np.ndarray
    wagered: np.ndarray
    pot_share: np.ndarray
    bonus: np.ndarray
    net: np.ndarray
    final_value: np.ndarray
    quickdraw: np.ndarray
    position: np.ndarray
    order: np.ndarray
    dealer_value: np.ndarray
    kicked: np.ndarray
    pot: np.ndarray
    house_takes_pot: np.ndarray
    house_net: np.ndarray
    cover: np.ndarray
    n_winners: np.ndarray
    sums: ChunkSums

    def __len__(self) -> int:
        return self.status.shape[0]

    def status_words(self) -> np.ndarray:
        """``status`` as the reference engine's words."""
        return np.array(STATUS_CODES, dtype=object)[self.status]


def play_decks(rules: RuleSet | str | None, decks, strategies="always", *, players: int | None = None) -> FastRecords:
    """Play one round per deck order (rows of ``decks``, at least ``5N + 5`` distinct cards each).

    ``players`` defaults to the number of strategies when one per seat is given.
    """
    if players is None:
        if isinstance(strategies, (str, Strategy)):
            raise RuleError("give the number of players (players=N) or one strategy per seat")
        players = len(strategies)
    setup = prepare(rules, players, strategies)
    n = setup.players
    decks = np.ascontiguousarray(np.atleast_2d(np.asarray(decks)), dtype=np.int64)
    need = cards_needed(n)
    if decks.ndim != 2 or decks.shape[1] < need:
        raise CardError(f"each deck for {n} players needs at least {need} cards, got shape {decks.shape}")
    if decks.size and (decks.min() < 0 or decks.max() > 51):
        raise CardError("deck cards must be kernel integers 0..51")
    used = np.sort(decks[:, :need], axis=1)
    twice = np.any(used[:, 1:] == used[:, :-1], axis=1)
    if twice.any():
        raise CardError(f"deck {int(np.flatnonzero(twice)[0])} holds a card twice")
    r = decks.shape[0]
    rec = dict(
        status=np.empty((r, n), np.int64), wagered=np.empty((r, n)), pot_share=np.empty((r, n)),
        bonus=np.empty((r, n)), final_value=np.empty((r, n), np.int64), quickdraw=np.empty((r, n)),
        position=np.empty((r, n), np.int64), order=np.empty((r, n), np.int64),
        dealer_value=np.empty(r, np.int64), kicked=np.empty(r, np.bool_), pot=np.empty(r, np.int64),
        house_takes_pot=np.empty(r, np.bool_), house_net=np.empty(r), cover=np.empty(r),
        n_winners=np.empty(r, np.int64),
    )
    sums = _run(setup, np.zeros(4, np.uint64), r, decks, np.empty((0, 52), np.int64), rec)
    net = (rec["pot_share"] + rec["bonus"]) - rec["wagered"]
    return FastRecords(net=net, sums=sums, **rec)


def _no_records(n: int) -> dict[str, np.ndarray]:
    e2 = lambda dt=np.float64: np.empty((0, n), dt)  # noqa: E731
    e1 = lambda dt=np.float64: np.empty(0, dt)  # noqa: E731
    return dict(status=e2(np.int64), wagered=e2(), pot_share=e2(), bonus=e2(), final_value=e2(np.int64),
                quickdraw=e2(), position=e2(np.int64), order=e2(np.int64), dealer_value=e1(np.int64),
                kicked=e1(np.bool_), pot=e1(np.int64), house_takes_pot=e1(np.bool_), house_net=e1(), cover=e1(),
                n_winners=e1(np.int64))


def _run(setup: KernelSetup, state: np.ndarray, rounds: int, decks: np.ndarray, decks_out: np.ndarray,
         rec: dict[str, np.ndarray]) -> ChunkSums:
    n = setup.players
    acc = np.zeros((2 * n + 1, N_SEAT_FIELDS))
    total = np.zeros(N_SEAT_FIELDS)
    total_sq = np.zeros(N_SEAT_FIELDS)
    round_sums = np.zeros(N_ROUND_FIELDS)
    cv = setup.controls
    k = variance.n_u(n) if cv is not None else 0
    cv_cross = np.zeros((k, k))
    if cv is None:
        cv_args = (np.zeros(1, np.int64), np.zeros((1, 1)), np.zeros(1, np.int64), cv_cross)
    else:
        cv_args = (cv.bucket, cv.reach, cv.klass, cv_cross)
    kernel = _rounds_kernel_solver if any(st.uses_solver for st in setup.strategies) else _rounds_kernel
    kernel(
        state, int(rounds), decks, n, setup.kick_value, setup.codes, setup.params, setup.bonus, setup.cover,
        setup.options, setup.qd_top, setup.qd_pays, acc, total, total_sq, round_sums, decks_out,
        rec["status"], rec["wagered"], rec["pot_share"], rec["bonus"], rec["final_value"], rec["quickdraw"],
        rec["position"], rec["order"], rec["dealer_value"], rec["kicked"], rec["pot"], rec["house_takes_pot"],
        rec["house_net"], rec["cover"], rec["n_winners"], *cv_args,
    )
    return ChunkSums(acc[:n].copy(), acc[n:2 * n].copy(), total, total_sq, round_sums,
                     np.stack([cv_cross, np.zeros_like(cv_cross)]))


def run_chunk(setup: KernelSetup, seed_sequence: np.random.SeedSequence, rounds: int, *,
              keep_decks: bool = False) -> tuple[ChunkSums, np.ndarray | None]:
    """``rounds`` random rounds dealt from ``seed_sequence``: the sums, and the decks when ``keep_decks``."""
    decks_out = np.empty((rounds if keep_decks else 0, 52), dtype=np.int64)
    sums = _run(setup, seed_state(seed_sequence), rounds, np.empty((0, 52), np.int64), decks_out,
                _no_records(setup.players))
    return sums, (decks_out if keep_decks else None)


def xoshiro_decks(seed_sequence: np.random.SeedSequence, rounds: int, players: int, *,
                  use_kernel: bool = False) -> np.ndarray:
    """The decks :func:`run_chunk` plays, ``int64[rounds, 52]``: readable pure Python, or the kernel.

    The Python twin (xoshiro256**, Lemire's bounded integer, partial
    Fisher-Yates over ``5N + 5`` positions) is what the kernel must match.
    """
    state = seed_state(seed_sequence)
    k = cards_needed(players)
    if use_kernel:
        out = np.empty((rounds, 52), dtype=np.int64)
        _xoshiro_decks_kernel(state.copy(), k, out)
        return out
    s = [int(x) for x in state]

    def next64() -> int:
        rotl = lambda x, r: ((x << r) | (x >> (64 - r))) & _M64  # noqa: E731
        result = (rotl((s[1] * 5) & _M64, 7) * 9) & _M64
        t = (s[1] << 17) & _M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def below(m: int) -> int:
        prod = (next64() >> 32) * m
        if (prod & 0xFFFFFFFF) < m:
            t = ((1 << 32) - m) % m
            while (prod & 0xFFFFFFFF) < t:
                prod = (next64() >> 32) * m
        return prod >> 32

    deck = list(range(52))
    out = np.empty((rounds, 52), dtype=np.int64)
    for r in range(rounds):
        for i in range(k):
            j = i + below(52 - i)
            deck[i], deck[j] = deck[j], deck[i]
        out[r] = deck
    return out
