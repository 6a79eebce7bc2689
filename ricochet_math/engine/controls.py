"""Control variates recorded by the batch kernel: the controls, their layout and their exact means.

The engine's instrumentation for :mod:`ricochet_math.solvers.variance`, which
turns these sums into an estimate.  Perfect play costs about a millisecond per
decision, so a precise RTP for N >= 2 cannot come from more rounds alone.  The
kernel can record, for every round, the round's total net result ``X`` (ante
units, summed over seats) and a few *controls* ``Z`` whose expectation is
known **exactly**; the estimate is then ``mean(X) - beta . (mean(Z) - E[Z])``,
unbiased for any fixed ``beta`` and much less noisy when ``Z`` tracks ``X``.

The controls (:func:`control_names`)
------------------------------------
Draw-level (martingale differences, exact mean 0): when a seat draws its
three cards, the engine knows the exact distribution of its final hand (all
``C(n, 3)`` draws from the cards still unseen, the same histogram the solver
uses).  So

* ``z_bonus``: the bonus the seat was paid minus its expected bonus over those
  draws (also for the automatic winner's free cards when they pay a bonus);
* ``z_stand``: while the dealer still holds the pot, 1 if the drawn hand beat
  her minus the probability that it would;
* ``z_stand_pot``: the same difference times the pot after the play;
* ``z_stand_last``: the same difference times the chance that no later seat
  would reach her hand, ``prod (1 - q_j)`` over the seats still to act (``q``
  as below): a beaten dealer matters most when nobody after could beat her.
  The weight is fixed before the draw, so this too has mean 0.

Each has conditional mean zero given everything before the draw, whatever the
strategies are, so its mean is exactly 0.

Deal-level (functions of the cards dealt, exact means from enumeration): the
dealer's hand value bucket (``bucket_0`` .. ``bucket_{B-2}``: equal-probability
buckets of the hands she keeps; ``bucket_{B-1}``: kicked out), and, while she
is not kicked out, ``s_reach = sum over seats of q`` and ``s_reach2 = sum of
q^2`` where ``q = Q[two-card class, dealer value]`` is the probability that the
seat's two cards plus three of the other 50 cards reach the dealer's value.
Their means come from :func:`dealer_value_counts_by_class` (for each of the
169 two-card classes, the values of all C(50, 5) dealer hands) and the five-card
value counts.

Per seat, the kernel also keeps the seat's own net and its own controls:
its draws' ``z_bonus``, ``z_stand`` and ``z_stand_last``; ``z_take``, the pot
times the chance that no later seat reaches the hand it drew if that hand took
the pot (from the dealer or from the player holding it), minus the expectation
of the same over all its draws; ``z_lose``, for another seat's draw while this
seat holds the pot, 1 if the draw took it minus the probability, times the pot
and the chance that no later seat reaches the holder's hand; and its ``q``,
whose mean is ``E[s_reach] / N`` because the seats are exchangeable at the
deal.  So one seat's RTP, a best response's for instance, gets the same
treatment (``controlled_estimate(..., target=seat_index(i))``).  Every weight
is fixed before the draw it multiplies, so these too have mean 0.

The layout
----------
Each round's vector ``u`` is the shared part :data:`U` (a constant 1, the
round's total net and total wagered, the table-wide controls, the buckets),
then :data:`SeatU` per seat (its net and its own controls); the kernel adds
``u u^T`` to its sums (:func:`add_outer`).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from math import comb

import numpy as np

from ricochet_math._numba import njit, prange
from ricochet_math.evaluator.classes import class_index_table, player_classes
from ricochet_math.evaluator.evaluation import NUM_VALUES, draw_histogram, eval5, value_counts_5
from ricochet_math.rules.layout import layout
from ricochet_math.strategies.draws import sorted_counts, unseen_cards

__all__ = ["N_BUCKETS", "U_FIELDS", "U", "SEAT_U_FIELDS", "SeatU", "N_SHARED", "PER_SEAT", "CONTROL_NAMES",
           "n_u", "seat_index", "control_indices", "control_names", "ControlSetup", "control_setup",
           "dealer_value_counts_by_class", "reach_table", "record_deal", "record_draw", "record_loss",
           "later_classes", "add_outer"]

#: dealer-value buckets (the last one: kicked out)
N_BUCKETS = 16

#: The shared part of u: a constant 1 (the round count), the round's total net and total wagered,
#: then the table-wide controls and the dealer-value buckets.
U_FIELDS = ("one", "x", "w", "z_bonus", "z_stand", "z_stand_pot", "z_stand_last", "s_reach", "s_reach2") + tuple(
    f"bucket_{b}" for b in range(N_BUCKETS))
U = layout("U", U_FIELDS, module=__name__)
N_SHARED = len(U)
#: Per seat, after the shared part: the seat's net and its own controls (``q``: its reach).
SEAT_U_FIELDS = ("x", "z_bonus", "z_stand", "z_stand_last", "q", "z_take", "z_lose")
SeatU = layout("SeatU", SEAT_U_FIELDS, module=__name__)
PER_SEAT = len(SeatU)
#: the table-wide controls (:func:`control_names` lists every control for N seats)
CONTROL_NAMES = U_FIELDS[U.z_bonus:]


def n_u(players: int) -> int:
    """Length of the per-round vector u for ``players`` seats."""
    return N_SHARED + PER_SEAT * players


def seat_index(seat: int, entry: int = SeatU.x) -> int:
    """Index in u of a seat's net (``SeatU.x``) or one of its own controls."""
    return N_SHARED + PER_SEAT * seat + entry


def control_indices(length: int, target: int | None = None) -> np.ndarray:
    """Indices of u that are controls: every one (``target`` None or a seat's net), or only the
    table-wide ones for the round total (``U.x``: the seats' own controls add nothing measurable to
    it, and fewer coefficients fit better on small runs)."""
    players = (length - N_SHARED) // PER_SEAT
    seats = [] if target == U.x else range(players)
    own = [seat_index(i, e) for i in seats for e in range(1, PER_SEAT)]
    return np.array(list(range(U.z_bonus, N_SHARED)) + own, dtype=np.int64)


def control_names(players: int) -> list[str]:
    """Names of the controls, in :func:`control_indices` order."""
    return list(CONTROL_NAMES) + [f"seat{i + 1}_{nm}" for i in range(players) for nm in SEAT_U_FIELDS[1:]]


# --------------------------------------------------------------------------- exact tables
@functools.lru_cache(maxsize=1)
def reach_table() -> np.ndarray:
    """``float64[169, 7462]``: ``Q[c, v]`` = probability that class ``c``'s cards plus three of the
    other 50 cards make a hand of value >= ``v``."""
    reps, _, _ = player_classes()
    out = np.empty((len(reps), NUM_VALUES))
    h = np.zeros(NUM_VALUES)
    for c, (a, b) in enumerate(reps):
        rest = np.array([x for x in range(52) if x not in (a, b)], dtype=np.int64)
        h[:] = 0.0
        n = draw_histogram(int(a), int(b), rest, h)
        out[c] = np.cumsum(h[::-1])[::-1] / n
    return out


@njit(parallel=True)
def _dealer_counts(reps, out):
    for c in prange(reps.shape[0]):
        a, b = reps[c, 0], reps[c, 1]
        rest = np.empty(50, dtype=np.int64)
        k = 0
        for x in range(52):
            if x != a and x != b:
                rest[k] = x
                k += 1
        for i in range(50):
            for j in range(i + 1, 50):
                for l in range(j + 1, 50):
                    for m in range(l + 1, 50):
                        for o in range(m + 1, 50):
                            out[c, eval5(rest[i], rest[j], rest[l], rest[m], rest[o])] += 1


@functools.lru_cache(maxsize=1)
def dealer_value_counts_by_class() -> np.ndarray:
    """``int64[169, 7462]``: for a representative of each two-card class, how many of the
    C(50, 5) = 2,118,760 dealer hands from the other cards have each value (exact; ~2 s)."""
    reps, _, _ = player_classes()
    out = np.zeros((len(reps), NUM_VALUES), dtype=np.int64)
    _dealer_counts(np.ascontiguousarray(reps, dtype=np.int64), out)
    return out


@dataclass(frozen=True, eq=False)
class ControlSetup:
    """What the kernel needs to record the controls, and their exact means.

    ``bucket``: ``int64[7462]`` dealer value -> bucket; ``reach``/``klass``:
    :func:`reach_table`, :func:`~ricochet_math.evaluator.classes.class_index_table`; ``means``: ``float64[n_u(players)]``, the exact
    expectation of each control (entries that are not controls hold 0).
    """

    players: int
    kick_value: int
    bucket: np.ndarray
    reach: np.ndarray
    klass: np.ndarray
    means: np.ndarray


@functools.lru_cache(maxsize=32)
def control_setup(players: int, kick_value: int) -> ControlSetup:
    """Buckets and exact control means for ``players`` seats and a dealer kicked out at ``kick_value``."""
    counts5 = value_counts_5().astype(np.float64)
    p5 = counts5 / comb(52, 5)
    kept = np.arange(NUM_VALUES) < kick_value
    # equal-probability buckets over the hands she keeps, by cumulative probability
    cum = np.cumsum(np.where(kept, p5, 0.0))
    kept_total = cum[-1] if kept.any() else 1.0
    bucket = np.minimum((cum - p5 * 0.5) / kept_total * (N_BUCKETS - 1), N_BUCKETS - 2).astype(np.int64)
    bucket[~kept] = N_BUCKETS - 1
    bucket_means = np.bincount(bucket, weights=p5, minlength=N_BUCKETS)

    _, weights, _ = player_classes()
    q = reach_table()
    joint = dealer_value_counts_by_class() * (weights[:, None] / 1326.0 / comb(50, 5))  # P(class, dealer value)
    s1 = players * float((joint[:, kept] * q[:, kept]).sum())
    s2 = players * float((joint[:, kept] * q[:, kept] ** 2).sum())
    means = np.zeros(n_u(players))  # E[u] at the controls (the other entries are not used)
    means[U.s_reach], means[U.s_reach2] = s1, s2
    means[U.bucket_0:N_SHARED] = bucket_means
    for i in range(players):  # the seats are exchangeable at the deal: each holds 1/N of s_reach
        means[seat_index(i, SeatU.q)] = s1 / players
    return ControlSetup(players, kick_value, bucket, q, class_index_table(), means)


# --------------------------------------------------------------------------- recording, in the kernel
@njit
def record_deal(u, hole, n, dealer_value, kicked, bucket, reach, klass):
    """Start a round's vector ``u``: the deal-level controls."""
    for i in range(u.shape[0]):
        u[i] = 0.0
    u[U.one] = 1.0
    u[U.bucket_0 + bucket[dealer_value]] = 1.0
    if not kicked:
        for s in range(n):
            q = reach[klass[hole[s, 0] * 52 + hole[s, 1]], dealer_value]
            u[U.s_reach] += q
            u[U.s_reach2] += q * q
            u[N_SHARED + PER_SEAT * s + SeatU.q] = q


@njit
def record_draw(u, seat, c0, c1, unseen, value, bonus_tab, best, dealer_in, ties_dealer, pot_after,
                later, reach_tab):
    """Add one seat's draw-level controls and return its ``beat - P(beat)``: hole ``c0, c1`` drew to
    ``value`` from the cards flagged in ``unseen`` (before the draw), against ``best`` (the dealer's
    hand while ``dealer_in``, else the best player's, -1 for nothing); ``later``: the two-card
    classes of the seats still to act (rows of ``reach_tab``, :func:`reach_table`), whose
    ``prod (1 - q_j)`` at ``best`` weighs the stand and loss differences."""
    values, counts, cnt = sorted_counts(c0, c1, unseen_cards(unseen))
    if best < 0:
        reach = NUM_VALUES  # nothing to beat: every draw stands, no difference to record
    elif dealer_in:
        reach = best if ties_dealer else best + 1
    else:
        reach = best + 1  # taking the pot from a player (a tie only shares it)
    eb = 0.0
    pb = 0.0
    take = 0.0  # E[pot x prod (1 - Q[later, v]) over the draws that take the pot]: z_take's mean
    for i in range(values.shape[0]):  # the values the draw reaches, ascending: the dense sums' order
        v = values[i]
        h = counts[i]
        eb += h * bonus_tab[v]
        if v >= reach:
            pb += h
            take += h * _survival(later, reach_tab, v)
    own = N_SHARED + PER_SEAT * seat
    zb = bonus_tab[value] - eb / cnt
    u[U.z_bonus] += zb
    u[own + SeatU.z_bonus] += zb
    if best < 0:
        return 0.0
    no_later_reach = _survival(later, reach_tab, best)  # fixed before the draw
    d = (1.0 if value >= reach else 0.0) - pb / cnt
    if dealer_in:
        u[U.z_stand] += d
        u[U.z_stand_pot] += d * pot_after
        u[U.z_stand_last] += d * no_later_reach
        u[own + SeatU.z_stand] += d
        u[own + SeatU.z_stand_last] += d * no_later_reach
    took = _survival(later, reach_tab, value) if value >= reach else 0.0
    u[own + SeatU.z_take] += pot_after * (took - take / cnt)
    return d


@njit
def _survival(later, reach_tab, v):
    """prod over the later seats' classes of (1 - Q[class, v]): nobody after reaches ``v``."""
    w = 1.0
    for k in range(later.shape[0]):
        w *= 1.0 - reach_tab[later[k], v]
    return w


@njit
def record_loss(u, holder, d, pot_after, later, reach_tab, best):
    """A seat holding the pot at ``best`` faced another seat's draw with ``beat - P(beat)`` = ``d``."""
    u[N_SHARED + PER_SEAT * holder + SeatU.z_lose] += d * pot_after * _survival(later, reach_tab, best)


@njit
def later_classes(order, pos, hole, klass):
    """The two-card classes of the seats after position ``pos``."""
    out = np.empty(order.shape[0] - pos - 1, dtype=np.int64)
    for p in range(pos + 1, order.shape[0]):
        s = order[p]
        out[p - pos - 1] = klass[hole[s, 0] * 52 + hole[s, 1]]
    return out


@njit
def add_outer(cross, u):
    """``cross += u u^T`` (rows of zero entries skipped: most controls are 0 in most rounds)."""
    for i in range(u.shape[0]):
        ui = u[i]
        if ui != 0.0:
            for j in range(u.shape[0]):
                cross[i, j] += ui * u[j]
