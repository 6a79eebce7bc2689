"""CFR+ for one level of heads-up Rococo's betting game, range against range over the betting histories:
the layer's whole-tree CFR (:mod:`~ricochet_math.equilibrium.cfr_kernel`) without the tree.

The betting tree of :mod:`~ricochet_math.games.rococo.betting_game` repeats the same betting histories
under every deal.  With every raise size 1..10 there are 6,663 histories a deal; at ``default`` (2,601
deals) the tree would have about 17 million nodes.  Under the draw model's independence a deal is a
public pair of discard counts ``(dA, dB)`` and two private buckets drawn independently, so CFR can run,
for each public pair, over the *histories* alone with every bucket of both players at once as vectors
(range against range, the "public tree" form of vanilla CFR):

* forward: each player's own reach ``pi_A(h, bA)``, ``pi_B(h, bB)`` (the product of her strategy's
  probabilities along ``h``, per bucket);
* backward, for the updated player ``p`` against ``q``: at a terminal her counterfactual value is
  ``cf(h, b) = c(b) sum_b' U(h, b, b') prior_q(b') pi_q(h, b')`` with ``c(b)`` the chance weight of the
  pair and of her bucket (``U`` the level's zero-sum utility: a fold, the exact pot share of the two
  buckets at a showdown, the carry's value); at her move ``cf(h, b) = sum_a sigma(h, b, a) cf(ha, b)`` and
  her regret for ``a`` grows by ``cf(ha, b) - cf(h, b)``, her average by ``weight pi_p(h, b)
  sigma(h, b, a)``; at the opponent's move ``cf(h, b) = sum_a cf(ha, b)`` (his probabilities are in
  ``pi_q`` at the terminals already).

That is the arithmetic of the layer's CFR information set by information set (the information set
``p, dA.dB, b | h`` sums the same terms over the opponent's buckets), with the same schedules
(:mod:`~ricochet_math.equilibrium.schedules`) and alternating updates, so the iterates are the layer's
to rounding (a test on ``tiny``, both ways).  The same walk with ``max`` at the player's own move is her
exact best response, with ``sigma`` mixed at both moves the profile's value.  Cost per iteration: a few
thousand histories times the buckets per public pair; memory: two arrays of entries times buckets per
pair (about 12 MB each at ``default`` with every raise size), no tree.

:class:`PublicTree` lays the histories out once from the game's readable methods (player, actions,
stakes); :func:`level_cfr` runs a level's iterations; :class:`RangeProfile` holds a strategy in this
layout (per pair, entry, bucket).  The readable twin is the layer's CFR in the tree
(:func:`~ricochet_math.equilibrium.solving.solve`), tested equal; the best response is also checked
against the Python walk of :mod:`~ricochet_math.games.rococo.range_response`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ricochet_math._numba import njit, pnjit, prange
from ricochet_math.equilibrium.cfr_kernel import discounted
from ricochet_math.equilibrium.game import TERMINAL
from ricochet_math.equilibrium.schedules import Schedule
from ricochet_math.games.rococo.betting_game import (
    KIND_CARRY, KIND_FOLD_A, KIND_FOLD_B, KIND_SHOWDOWN, RococoBettingGame,
)

__all__ = ["PublicTree", "public_tree", "RangeLevel", "range_level", "RangeProfile", "level_cfr", "average_profile",
           "level_best_response", "level_value", "level_carry_probability", "MODE_UPDATE", "MODE_VALUE",
           "MODE_BEST", "regret_matching", "forward_reach", "backward_walk", "average_strategy"]

#: what a backward walk does at the updated player's own move: regret update (CFR), mix (the value), max
MODE_UPDATE, MODE_VALUE, MODE_BEST = range(3)


@dataclass(frozen=True, eq=False)
class PublicTree:
    """The betting histories of ``game`` (the same under every deal), breadth first (parents first).

    Per node: ``moves`` (the history), ``player`` (0, 1, or ``TERMINAL``), ``first_child`` and
    ``num_children`` (children are consecutive), ``entry`` (the first action entry of a decision node,
    -1 at a terminal), ``kind`` (how a terminal ended: ``KIND_*``, -1 at a decision node), ``stake_a`` and
    ``stake_b`` (chips after the moves); ``actions`` per node; ``index`` from moves to node."""

    game: RococoBettingGame
    moves: tuple
    actions: tuple
    player: np.ndarray
    first_child: np.ndarray
    num_children: np.ndarray
    entry: np.ndarray
    kind: np.ndarray
    stake_a: np.ndarray
    stake_b: np.ndarray
    index: dict = field(repr=False)

    @property
    def num_nodes(self) -> int:
        return len(self.player)

    @property
    def carry_limit(self) -> int:
        return self.game.rules.carry_limit

    @property
    def num_entries(self) -> int:
        return int(self.num_children[self.player != TERMINAL].sum())


def public_tree(game: RococoBettingGame) -> PublicTree:
    """Lay out the betting histories of ``game`` from its readable methods (``player``, ``actions``,
    ``stakes``), breadth first."""
    deal = ("0.0.0.0",)  # any deal: the moves decide who acts and what is legal
    moves_of, actions_of, player = [()], [], []
    first, count, entry, kind, sa, sb = [], [], [], [], [], []
    n_entries = 0
    i = 0
    while i < len(moves_of):
        moves = moves_of[i]
        who = game.player(deal + moves)
        s = game.stakes(moves)
        sa.append(s[0]), sb.append(s[1])
        player.append(who)
        if who == TERMINAL:
            actions_of.append(())
            first.append(-1), count.append(0), entry.append(-1)
            if moves[-1] == "f":
                kind.append(KIND_FOLD_A if len(moves) % 2 == 1 else KIND_FOLD_B)
            else:
                kind.append(KIND_CARRY if tuple(moves) == ("c", "c") else KIND_SHOWDOWN)
        else:
            acts = tuple(game.actions(deal + moves))
            actions_of.append(acts)
            first.append(len(moves_of)), count.append(len(acts)), entry.append(n_entries)
            kind.append(-1)
            n_entries += len(acts)
            moves_of.extend(moves + (a,) for a in acts)
        i += 1
    as_int = lambda x: np.asarray(x, np.int64)  # noqa: E731
    return PublicTree(game, tuple(moves_of), tuple(actions_of), as_int(player), as_int(first), as_int(count),
                      as_int(entry), as_int(kind), np.asarray(sa, float), np.asarray(sb, float),
                      {m: n for n, m in enumerate(moves_of)})


@dataclass(frozen=True, eq=False)
class RangeLevel:
    """What one level's walk needs besides the tree: per public pair ``(dA, dB)`` (16, in ``dA * 4 + dB``
    order) the bucket counts ``n_a``, ``n_b``, the chance weights ``chance_a[pair, bA]`` (the pair's
    probability times A's bucket's, over the deal total) and ``prior_b[pair, bB]`` (B's bucket's
    probability), and the showdown share ``share[pair, bA, bB]`` (A's expected pot share).  Padded to the
    most buckets of any discard count (the padding has probability 0)."""

    n_a: np.ndarray
    n_b: np.ndarray
    chance_a: np.ndarray
    prior_b: np.ndarray
    share: np.ndarray
    buckets: int


def range_level(game: RococoBettingGame) -> RangeLevel:
    """The pairs' bucket counts, chance weights and showdown shares of ``game`` (see :class:`RangeLevel`);
    the weights are those of the game's deals (so their sum is 1, as the layer's chance node's)."""
    bk, pd = game.buckets, game.model.discard_prob
    width = max(len(p) for p in bk.prob)
    n_a, n_b = np.zeros(16, np.int64), np.zeros(16, np.int64)
    chance_a, prior_b = np.zeros((16, width)), np.zeros((16, width))
    share = np.zeros((16, width, width))
    total = sum(p for _, p in _raw_deals(game))
    for da in range(4):
        for db in range(4):
            k = da * 4 + db
            na, nb = len(bk.prob[da]), len(bk.prob[db])
            n_a[k], n_b[k] = na, nb
            if na == 0 or nb == 0:
                continue
            chance_a[k, :na] = pd[da] * np.asarray(bk.prob[da]) * pd[db] / total
            prior_b[k, :nb] = bk.prob[db]
            for ba in range(na):
                for bb in range(nb):
                    share[k, ba, bb] = game.share[f"{da}.{ba}.{db}.{bb}"]
    return RangeLevel(n_a, n_b, chance_a, prior_b, share, width)


def _raw_deals(game: RococoBettingGame):
    """The deals' probabilities before the game normalised them (the same products, for the same total)."""
    bk, pd = game.buckets, game.model.discard_prob
    for da in range(4):
        for ba in range(len(bk.prob[da])):
            for db in range(4):
                for bb in range(len(bk.prob[db])):
                    yield None, pd[da] * bk.prob[da][ba] * pd[db] * bk.prob[db][bb]


@njit
def regret_matching(player, num_children, entry, regret, sigma):
    """Regret matching into ``sigma`` at every decision node and bucket (uniform where no regret is
    positive), as :func:`~ricochet_math.equilibrium.cfr_kernel.current_strategy` entry set by entry set."""
    width = regret.shape[1]
    for n in range(len(player)):
        if player[n] < 0:
            continue
        e0, m = entry[n], num_children[n]
        for b in range(width):
            total = 0.0
            for j in range(m):
                if regret[e0 + j, b] > 0.0:
                    total += regret[e0 + j, b]
            for j in range(m):
                if total > 0.0:
                    sigma[e0 + j, b] = regret[e0 + j, b] / total if regret[e0 + j, b] > 0.0 else 0.0
                else:
                    sigma[e0 + j, b] = 1.0 / m


@njit
def forward_reach(player, first_child, num_children, entry, sigma_a, sigma_b, n_a, n_b, reach_a, reach_b, root_a,
                  root_b):
    """Each player's own reach per node and bucket, A playing ``sigma_a`` and B ``sigma_b`` (entry arrays),
    from ``root_a``, ``root_b`` at the root (ones, or what the blind round left: :mod:`~.range_blind`)."""
    for b in range(n_a):
        reach_a[0, b] = root_a[b]
    for b in range(n_b):
        reach_b[0, b] = root_b[b]
    for n in range(len(player)):
        who = player[n]
        if who < 0:
            continue
        c0, e0 = first_child[n], entry[n]
        for j in range(num_children[n]):
            c = c0 + j
            for b in range(n_a):
                reach_a[c, b] = reach_a[n, b] * sigma_a[e0 + j, b] if who == 0 else reach_a[n, b]
            for b in range(n_b):
                reach_b[c, b] = reach_b[n, b] * sigma_b[e0 + j, b] if who == 1 else reach_b[n, b]


@njit
def backward_walk(p, mode, player, first_child, num_children, entry, kind, stake_a, stake_b, carried, carry_a, last,
          n_a, n_b, chance_a, prior_b, share, sigma, reach_a, reach_b, cf, regret, cumulative, weight):
    """Player ``p``'s backward walk (module text) after :func:`forward_reach`; ``mode``: update her regrets and
    average (``MODE_UPDATE``), mix (``MODE_VALUE``) or take the best action (``MODE_BEST``) at her moves;
    ``sigma``: her strategy (entries at her nodes).  Returns her value: the sum over her buckets of her
    counterfactual values at the root (chance weights included).  ``carry_a``: a carry's value to A
    (``last``: two checks are a showdown instead)."""
    n_own = n_a if p == 0 else n_b
    n_opp = n_b if p == 0 else n_a
    sign = 1.0 if p == 0 else -1.0
    opp = np.empty(n_opp)
    for n in range(len(player) - 1, -1, -1):  # children before parents
        who = player[n]
        if who < 0:
            t = kind[n]
            if t == KIND_CARRY and last:
                t = KIND_SHOWDOWN
            sa, sb = stake_a[n], stake_b[n]
            pot = carried + sa + sb
            total = 0.0
            for o in range(n_opp):  # the opponent's buckets: chance (his part of it) times his reach
                opp[o] = prior_b[o] * reach_b[n, o] if p == 0 else chance_a[o] * reach_a[n, o]
                total += opp[o]
            for b in range(n_own):
                if t == KIND_FOLD_A:
                    u = (-sa - carried / 2) * total
                elif t == KIND_FOLD_B:
                    u = (pot - sa - carried / 2) * total
                elif t == KIND_CARRY:
                    u = carry_a * total
                else:
                    s = 0.0
                    for o in range(n_opp):
                        s += (share[b, o] if p == 0 else share[o, b]) * opp[o]
                    u = pot * s - (sa + carried / 2) * total
                cf[n, b] = sign * u * (chance_a[b] if p == 0 else prior_b[b])
            continue
        c0, e0 = first_child[n], entry[n]
        m = num_children[n]
        if who != p:
            for b in range(n_own):
                v = 0.0
                for j in range(m):
                    v += cf[c0 + j, b]
                cf[n, b] = v
            continue
        reach = reach_a if p == 0 else reach_b
        for b in range(n_own):
            if mode == MODE_BEST:
                v = cf[c0, b]
                for j in range(1, m):
                    if cf[c0 + j, b] > v:
                        v = cf[c0 + j, b]
                cf[n, b] = v
                continue
            v = 0.0
            for j in range(m):
                v += sigma[e0 + j, b] * cf[c0 + j, b]
            cf[n, b] = v
            if mode == MODE_UPDATE:
                own = reach[n, b]
                for j in range(m):
                    regret[e0 + j, b] += cf[c0 + j, b] - v
                    cumulative[e0 + j, b] += weight * own * sigma[e0 + j, b]
    out = 0.0
    for b in range(n_own):
        out += cf[0, b]
    return out


@pnjit
def _iterations(player, first_child, num_children, entry, kind, stake_a, stake_b, carried, carry_a, last,
                n_a, n_b, chance_a, prior_b, share, regret, cumulative, positive, negative, weight, clip):
    """``len(weight)`` iterations of a schedule with alternating updates over every pair, in place on
    ``regret`` and ``cumulative`` (``[pairs, entries, buckets]``); the factors as in
    :func:`~ricochet_math.equilibrium.cfr_kernel.cfr_iterations`.  The pairs are independent games (no
    information set spans two), so they run in parallel, each on its own scratch arrays: the same digits
    on any thread count."""
    pairs, n_entries, width = regret.shape
    n_nodes = len(player)
    sigma = np.empty((pairs, n_entries, width))
    reach_a = np.empty((pairs, n_nodes, width))
    reach_b = np.empty((pairs, n_nodes, width))
    cf = np.empty((pairs, n_nodes, width))
    ones = np.ones(width)
    for x in prange(pairs):
        if n_a[x] == 0 or n_b[x] == 0:
            continue
        for k in range(len(weight)):
            for p in range(2):
                regret_matching(player, num_children, entry, regret[x], sigma[x])
                forward_reach(player, first_child, num_children, entry, sigma[x], sigma[x], n_a[x], n_b[x],
                              reach_a[x], reach_b[x], ones, ones)
                backward_walk(p, MODE_UPDATE, player, first_child, num_children, entry, kind, stake_a, stake_b,
                              carried, carry_a, last, n_a[x], n_b[x], chance_a[x], prior_b[x], share[x], sigma[x],
                              reach_a[x], reach_b[x], cf[x], regret[x], cumulative[x], weight[k])
                for n in range(n_nodes):
                    if player[n] != p:
                        continue
                    for e in range(entry[n], entry[n] + num_children[n]):
                        for b in range(width):
                            regret[x, e, b] = discounted(regret[x, e, b], positive[k], negative[k], clip)


@njit
def _pairs_walk(p, mode, player, first_child, num_children, entry, kind, stake_a, stake_b, carried, carry_a, last,
                n_a, n_b, chance_a, prior_b, share, sigma_a, sigma_b):
    """Player ``p``'s value summed over the pairs, A playing ``sigma_a`` and B ``sigma_b``
    (``[pairs, entries, buckets]``), ``mode`` ``MODE_VALUE`` or ``MODE_BEST`` (then ``p``'s own part is unused)."""
    pairs, n_entries, width = sigma_a.shape
    n_nodes = len(player)
    reach_a = np.empty((n_nodes, width))
    reach_b = np.empty((n_nodes, width))
    cf = np.empty((n_nodes, width))
    dummy = np.zeros((1, 1))
    ones = np.ones(width)
    total = 0.0
    for x in range(pairs):
        if n_a[x] == 0 or n_b[x] == 0:
            continue
        forward_reach(player, first_child, num_children, entry, sigma_a[x], sigma_b[x], n_a[x], n_b[x], reach_a,
                      reach_b, ones, ones)
        total += backward_walk(p, mode, player, first_child, num_children, entry, kind, stake_a, stake_b, carried,
                               carry_a, last, n_a[x], n_b[x], chance_a[x], prior_b[x], share[x],
                               sigma_a[x] if p == 0 else sigma_b[x], reach_a, reach_b, cf, dummy, dummy, 0.0)
    return total


@njit
def average_strategy(player, num_children, entry, cumulative):
    """The average strategy (``[pairs, entries, buckets]``): the cumulative strategy normalised per node and
    bucket, uniform where it is all zero (regret matching of a non-negative array is exactly that)."""
    out = np.empty_like(cumulative)
    for x in range(cumulative.shape[0]):
        regret_matching(player, num_children, entry, cumulative[x], out[x])
    return out


@njit
def _carry_reach(node, n_a, n_b, chance_a, prior_b, first_child, num_children, entry, player, sigma_a, sigma_b):
    """The probability of reaching ``node`` (summed over the pairs and both players' buckets)."""
    pairs, _, width = sigma_a.shape
    reach_a = np.empty((len(player), width))
    reach_b = np.empty((len(player), width))
    ones = np.ones(width)
    out = 0.0
    for x in range(pairs):
        if n_a[x] == 0 or n_b[x] == 0:
            continue
        forward_reach(player, first_child, num_children, entry, sigma_a[x], sigma_b[x], n_a[x], n_b[x], reach_a,
                      reach_b, ones, ones)
        ra, rb = 0.0, 0.0
        for b in range(n_a[x]):
            ra += chance_a[x, b] * reach_a[node, b]
        for b in range(n_b[x]):
            rb += prior_b[x, b] * reach_b[node, b]
        out += ra * rb
    return out


def _arrays(pt: PublicTree) -> tuple:
    return pt.player, pt.first_child, pt.num_children, pt.entry, pt.kind, pt.stake_a, pt.stake_b


def _terms(rl: RangeLevel) -> tuple:
    return rl.n_a, rl.n_b, rl.chance_a, rl.prior_b, rl.share


@dataclass(frozen=True, eq=False)
class RangeProfile:
    """A strategy of one level in the range layout: ``sigma[pair, entry, bucket]`` (pair ``dA * 4 + dB``;
    at a node of player ``p`` the rows are her buckets given her own discard count)."""

    tree: PublicTree
    level: RangeLevel
    sigma: np.ndarray

    def at(self, p: int, da: int, db: int, moves) -> tuple[tuple[str, ...], np.ndarray]:
        """``(actions, float[her buckets, actions])``: player ``p``'s strategy after ``moves`` at the pair."""
        n = self.tree.index[tuple(moves)]
        if self.tree.player[n] != p:
            raise ValueError(f"moves {'.'.join(moves)!r} are not player {p}'s to move")
        x = da * 4 + db
        rows = (self.level.n_a if p == 0 else self.level.n_b)[x]
        e0 = self.tree.entry[n]
        acts = self.tree.actions[n]
        return acts, self.sigma[x, e0:e0 + len(acts), :rows].T.copy()

    def combine(self, other: RangeProfile) -> RangeProfile:
        """A at this profile's moves, B at ``other``'s."""
        a_nodes = np.repeat(self.tree.player[self.tree.player >= 0] == 0, self.tree.num_children[self.tree.player >= 0])
        sigma = np.where(a_nodes[None, :, None], self.sigma, other.sigma)
        return RangeProfile(self.tree, self.level, sigma)


def level_cfr(pt: PublicTree, rl: RangeLevel, level: int, carry_a: float | None, schedule: Schedule,
              iterations: int, *, every: int | None = None, state=None, on_chunk=None):
    """Run ``iterations`` iterations of ``schedule`` at ``level`` (carried chips ``2 level ante``; a carry
    worth ``carry_a`` to A, None: the last level, shown down).  ``state``: ``(regret, cumulative, done)``
    to continue from; ``every``: after each chunk of that many iterations ``on_chunk(done, state)`` is
    called (the exploitability curve).  Returns ``(regret, cumulative, done)``."""
    width = rl.buckets
    if state is None:
        shape = (16, pt.num_entries, width)
        state = (np.zeros(shape), np.zeros(shape), 0)
    regret, cumulative, done = state
    carried = 2.0 * level * pt.game.rules.ante
    last = carry_a is None
    step = every or iterations
    while done < iterations:
        count = min(step, iterations - done)
        pos, neg, w = schedule.factors(done, count)
        _iterations(*_arrays(pt), carried, 0.0 if last else float(carry_a), last, *_terms(rl), regret, cumulative,
                    pos, neg, w, schedule.clip)
        done += count
        if on_chunk is not None:
            on_chunk(done, (regret, cumulative, done))
    return regret, cumulative, done


def average_profile(pt: PublicTree, rl: RangeLevel, cumulative: np.ndarray) -> RangeProfile:
    """The average strategy of a solve (its cumulative strategy normalised)."""
    return RangeProfile(pt, rl, average_strategy(pt.player, pt.num_children, pt.entry, cumulative))


def level_best_response(profile: RangeProfile, p: int, level: int, carry: float | None) -> float:
    """Player ``p``'s exact best-response value (antes per pot, from this level on) against the opponent's
    part of ``profile`` at ``level``, in the profile's own betting tree; a carry is worth ``carry`` to her
    (None: the last level, shown down)."""
    pt, rl = profile.tree, profile.level
    carried = 2.0 * level * pt.game.rules.ante
    carry_a = 0.0 if carry is None else (carry if p == 0 else -carry)
    return float(_pairs_walk(p, MODE_BEST, *_arrays(pt), carried, carry_a, carry is None, *_terms(rl),
                             profile.sigma, profile.sigma))


def level_value(first: RangeProfile, second: RangeProfile, level: int, carry_a: float | None) -> float:
    """A's value at ``level`` when A plays ``first`` and B plays ``second``; a carry worth ``carry_a`` to A."""
    pt, rl = first.tree, first.level
    carried = 2.0 * level * pt.game.rules.ante
    return float(_pairs_walk(0, MODE_VALUE, *_arrays(pt), carried, 0.0 if carry_a is None else float(carry_a),
                             carry_a is None, *_terms(rl), first.sigma, second.sigma))


def level_carry_probability(first: RangeProfile, second: RangeProfile) -> float:
    """The probability that the level's game is all checks, A playing ``first`` and B ``second``."""
    pt, rl = first.tree, first.level
    node = pt.index[("c", "c")]
    return float(_carry_reach(node, rl.n_a, rl.n_b, rl.chance_a, rl.prior_b, pt.first_child, pt.num_children,
                              pt.entry, pt.player, first.sigma, second.sigma))
