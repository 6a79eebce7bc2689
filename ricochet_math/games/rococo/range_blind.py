"""One state of heads-up Rococo's blind game (:mod:`~.blind_game`) solved range against range: CFR over the
blind round and, below it, the betting histories of :mod:`~.range_cfr` with every bucket at once.

**The lines.**  The blind round ends in a *line*: ``d`` (A displays: the first version's betting round
follows, stakes ``ante`` each), ``b<s>.k`` (a blind of ``s`` called: stakes ``ante + s``) or ``b<s>.r<r>.k``
(raised ``r`` and called: ``ante + s + r``).  Each line is the betting round of the
:class:`~.range_cfr.PublicTree` from its equal stakes ``S``: the same histories with both stakes lifted by
``S - ante``, which pays exactly as ``2 (S - ante)`` more carried chips would (the lifted chips are staked
alike, half each: :func:`~.betting_game.pot_net`), and a carry brings ``C + 2 S`` chips into the next game.
In a blind line B's rows are her (dealt bucket ``g``, final bucket) pairs: she knew ``g`` when she answered
the blind (perfect recall, as the tree's keys ``B3.0:2/4|b3.k|c``); A's rows are his final buckets (he was
blind).  Chance weights: A's row ``pd(dA) P(bA | dA)`` and B's ``P(g) P(dB | g) P(bB | g, dB)`` (the dealt
law) in a blind line; the first version's in the display line.

**The blind round** has three kinds of information set, all small: A's choice (``d`` or a blind), B's answer
per blind and dealt bucket (``f``, ``k``, a raise), A's call per blind and raise.  Their counterfactual values
come from the lines' roots: A's value of a line is the sum of his rows' counterfactual values at its root (B's
reach through the blind round, by ``g``, is in her rows' root reach), B's value of a line for ``g`` the sum of
her rows of that ``g``; the folds pay at once.  One iteration, per player in turn (alternating updates, as the
layer's CFR): regret matching everywhere; the lines forward from the blind round's reaches and backward for
the player (regrets and average per line, pair, row), the lines and pairs in parallel on their own arrays;
then the blind round's regrets and average; then the schedule's discount.  That is the layer's CFR on the
tree of :class:`~.blind_game.RococoBlindGame` information set by information set (a test, to rounding); with
``max`` at the player's own sets the same pass is her exact best response, with her strategy mixed her value.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ricochet_math._numba import njit, pnjit, prange
from ricochet_math.equilibrium.cfr_kernel import discounted
from ricochet_math.equilibrium.schedules import Schedule
from ricochet_math.games.rococo.betting_game import RococoBettingGame
from ricochet_math.games.rococo.blind_game import RococoBlindGame
from ricochet_math.games.rococo.range_cfr import (
    MODE_BEST, MODE_UPDATE, MODE_VALUE, PublicTree, backward_walk, forward_reach, public_tree, range_level,
    regret_matching,
)

__all__ = ["BlindRanges", "blind_ranges", "BlindRangeProfile", "state_cfr", "average_state_profile",
           "state_best_response", "state_value_of", "state_carry_reach", "policy_state_profile",
           "translate_state_profile", "choice_values"]


@dataclass(frozen=True, eq=False)
class BlindRanges:
    """The blind game's layout for the range solver (module text).

    ``lines``: the names (``d``, ``b3.k``, ``b3.r3.k``, ...): the display line first, then per blind size
    its called line and its raised-and-called lines in raise order; per line ``lift`` (its stakes less the
    ante), ``terms`` (0: the display line's chance terms, 1: a blind line's), ``blind_of`` and ``raise_of``
    (the indices of its blind and raise, -1 where none).  Per terms and public pair ``dA * 4 + dB``: ``n_a``,
    ``n_b`` rows, ``chance_a``, ``prior_b`` (as :class:`~.range_cfr.RangeLevel`), ``share``; ``row_g`` and
    ``row_bucket``: a blind line's B row's dealt and final bucket (-1 padding); ``p_g`` the dealt buckets'
    probabilities; ``blind``, ``raises`` the sizes (chips)."""

    game: RococoBlindGame
    tree: PublicTree
    lines: tuple[str, ...]
    lift: np.ndarray
    terms: np.ndarray
    blind_of: np.ndarray
    raise_of: np.ndarray
    n_a: np.ndarray
    n_b: np.ndarray
    chance_a: np.ndarray
    prior_b: np.ndarray
    share: np.ndarray
    row_g: np.ndarray
    row_bucket: np.ndarray
    p_g: np.ndarray
    blind: np.ndarray
    raises: np.ndarray

    @property
    def width(self) -> int:
        return self.chance_a.shape[2]

    @property
    def carry_stakes(self) -> np.ndarray:
        """Per line, the chips a carry adds to the pot (``2 S``): the duck type of
        :attr:`~.betting_game.BettingTree.carry_stakes` that :mod:`~.blind_equilibrium`'s grid reads."""
        return 2.0 * (self.game.rules.ante + self.lift)

    def line(self, i: int, j: int = -1) -> int:
        """The line of blind ``i`` called (``j = -1``) or raised by raise ``j`` and called."""
        return 1 + i * (1 + len(self.raises)) + 1 + j

    def describe(self) -> str:
        g = len(self.p_g)
        return (f"range against range: the blind round ({len(self.blind)} blind sizes x {len(self.raises)} raises, "
                f"{g} dealt buckets) over {len(self.lines)} lines x {self.tree.num_nodes:,} betting histories "
                f"({self.tree.num_entries:,} entries) x 16 discard pairs x up to {self.width} rows a player "
                f"({len(self.lines) * 16 * self.tree.num_entries * self.width:,} regret entries)")


def blind_ranges(game: RococoBlindGame) -> BlindRanges:
    """Lay out ``game`` for the range solver (:class:`BlindRanges`); the betting histories are those of the
    same game without the blind round."""
    from dataclasses import replace

    plain = RococoBettingGame(game.rules, game.model, replace(game.spec, blind_sizes=None))
    pt, rl = public_tree(plain), range_level(plain)
    bk, pd, law = game.buckets, game.model.discard_prob, game.law
    n_g = len(law.prob)
    rows_b = [[(g, bb) for g in range(n_g) if law.discard[g, db] > 0
               for bb in np.flatnonzero(game.final_given[g, db] > 0)] for db in range(4)]
    width = max(rl.buckets, max(len(r) for r in rows_b))
    n_a, n_b = np.zeros((2, 16), np.int64), np.zeros((2, 16), np.int64)
    chance_a, prior_b = np.zeros((2, 16, width)), np.zeros((2, 16, width))
    share = np.zeros((2, 16, width, width))
    row_g, row_bucket = np.full((16, width), -1, np.int64), np.full((16, width), -1, np.int64)
    n_a[0], n_b[0] = rl.n_a, rl.n_b
    chance_a[0, :, :rl.buckets], prior_b[0, :, :rl.buckets] = rl.chance_a, rl.prior_b
    share[0, :, :rl.buckets, :rl.buckets] = rl.share
    for da in range(4):
        for db in range(4):
            x = da * 4 + db
            na = len(bk.prob[da])
            if na == 0 or not rows_b[db] or pd[da] <= 0:
                continue
            n_a[1, x], n_b[1, x] = na, len(rows_b[db])
            chance_a[1, x, :na] = pd[da] * np.asarray(bk.prob[da])
            for r, (g, bb) in enumerate(rows_b[db]):
                row_g[x, r], row_bucket[x, r] = g, bb
                prior_b[1, x, r] = law.prob[g] * law.discard[g, db] * game.final_given[g, db][bb]
                for ba in range(na):
                    share[1, x, ba, r] = game.share_given[g][f"{da}.{ba}.{db}.{bb}"]
    lines, lift, blind_of, raise_of = ["d"], [0.0], [-1], [-1]
    for i, s in enumerate(game.blind):
        lines.append(f"b{s}.k"), lift.append(float(s)), blind_of.append(i), raise_of.append(-1)
        for j, r in enumerate(game.blind_raises):
            lines.append(f"b{s}.r{r}.k"), lift.append(float(s + r)), blind_of.append(i), raise_of.append(j)
    as_int = lambda v: np.asarray(v, np.int64)  # noqa: E731
    terms = as_int([0] + [1] * (len(lines) - 1))
    return BlindRanges(game, pt, tuple(lines), np.asarray(lift), terms, as_int(blind_of), as_int(raise_of), n_a, n_b,
                       chance_a, prior_b, share, row_g, row_bucket, np.asarray(law.prob, float),
                       np.asarray(game.blind, float), np.asarray(game.blind_raises, float))


@dataclass(frozen=True, eq=False)
class BlindRangeProfile:
    """A strategy of one state: ``sigma[line, pair, entry, row]`` in the betting round (at a node of player
    ``p`` the rows are hers), ``decision`` A's blind-round choice (``d``, then each blind size), ``answer[blind,
    g, action]`` B's answer (``f``, ``k``, each raise) and ``call[blind, raise, action]`` A's (``f``, ``k``)."""

    ranges: BlindRanges
    sigma: np.ndarray
    decision: np.ndarray
    answer: np.ndarray
    call: np.ndarray

    def combine(self, other: BlindRangeProfile) -> BlindRangeProfile:
        """A at this profile's moves, B at ``other``'s."""
        pt = self.ranges.tree
        a_nodes = np.repeat(pt.player[pt.player >= 0] == 0, pt.num_children[pt.player >= 0])
        sigma = np.where(a_nodes[None, None, :, None], self.sigma, other.sigma)
        return BlindRangeProfile(self.ranges, sigma, self.decision, other.answer, self.call)

    def at(self, line: str, p: int, da: int, db: int, moves) -> tuple[tuple[str, ...], np.ndarray]:
        """``(actions, float[her rows, actions])``: player ``p``'s betting strategy in ``line`` after ``moves``."""
        br = self.ranges
        n = br.tree.index[tuple(moves)]
        if br.tree.player[n] != p:
            raise ValueError(f"moves {'.'.join(moves)!r} are not player {p}'s to move")
        l, x = br.lines.index(line), da * 4 + db
        t = br.terms[l]
        rows = (br.n_a if p == 0 else br.n_b)[t, x]
        e0, acts = br.tree.entry[n], br.tree.actions[n]
        return acts, self.sigma[l, x, e0:e0 + len(acts), :rows].T.copy()


def _arrays(br: BlindRanges) -> tuple:
    pt = br.tree
    return (pt.player, pt.first_child, pt.num_children, pt.entry, pt.kind, pt.stake_a, pt.stake_b, br.lift, br.terms,
            br.blind_of, br.raise_of, br.n_a, br.n_b, br.chance_a, br.prior_b, br.share, br.row_g, br.p_g, br.blind,
            float(br.game.rules.ante))


@njit
def _match(regret, out):
    """Regret matching of one small set (uniform where no regret is positive)."""
    m = len(regret)
    total = 0.0
    for a in range(m):
        if regret[a] > 0.0:
            total += regret[a]
    for a in range(m):
        if total > 0.0:
            out[a] = regret[a] / total if regret[a] > 0.0 else 0.0
        else:
            out[a] = 1.0 / m


@njit
def _unit(u, p, mode, player, first_child, num_children, entry, kind, stake_a, stake_b, lift, terms, blind_of,
          raise_of, n_a, n_b, chance_a, prior_b, share, row_g, carried, carry_a, last, sig_a, sig_b, decision, answer,
          call, regret, cumulative, weight, reach_a, reach_b, cf, root_a, root_b, root_cf):
    """Line ``u // 16``, pair ``u % 16``: forward from the blind round's reaches, then player ``p``'s backward
    walk (:func:`~.range_cfr.backward_walk`); her rows' counterfactual values at the line's root into ``root_cf``."""
    l, x = u // 16, u % 16
    t = terms[l]
    if n_a[t, x] == 0 or n_b[t, x] == 0:
        return
    i, j = blind_of[l], raise_of[l]
    width = root_a.shape[1]
    if i < 0:
        a = decision[0]
    else:
        a = decision[1 + i] * (call[i, j, 1] if j >= 0 else 1.0)
    for b in range(width):
        root_a[u, b] = a
        if i < 0:
            root_b[u, b] = 1.0
        else:
            g = row_g[x, b]
            root_b[u, b] = 0.0 if g < 0 else answer[i, g, 2 + j if j >= 0 else 1]
    forward_reach(player, first_child, num_children, entry, sig_a[l, x], sig_b[l, x], n_a[t, x], n_b[t, x],
                  reach_a[u], reach_b[u], root_a[u], root_b[u])
    own = sig_a[l, x] if p == 0 else sig_b[l, x]
    backward_walk(p, mode, player, first_child, num_children, entry, kind, stake_a, stake_b, carried + 2.0 * lift[l],
                  carry_a[l], last, n_a[t, x], n_b[t, x], chance_a[t, x], prior_b[t, x], share[t, x], own, reach_a[u],
                  reach_b[u], cf[u], regret[l, x], cumulative[l, x], weight)
    for b in range((n_a if p == 0 else n_b)[t, x]):
        root_cf[l, x, b] = cf[u, 0, b]


@njit
def _pick(mode, sigma, values, regret, cumulative, own_reach, weight):
    """At one of the player's blind-round sets: her value (mixed, or the best action's), and in
    ``MODE_UPDATE`` her regrets and average updated (``own_reach``: her own reach to the set)."""
    m = len(values)
    v = 0.0
    if mode == MODE_BEST:
        v = values[0]
        for a in range(1, m):
            if values[a] > v:
                v = values[a]
        return v
    for a in range(m):
        v += sigma[a] * values[a]
    if mode == MODE_UPDATE:
        for a in range(m):
            regret[a] += values[a] - v
            cumulative[a] += weight * own_reach * sigma[a]
    return v


@njit
def _blind_round(p, mode, lift, terms, n_a, n_b, row_g, p_g, blind, ante, carried, decision, answer, call, root_cf,
                 r_dec, c_dec, r_ans, c_ans, r_call, c_call, weight, root_values):
    """Player ``p``'s values at the blind round from the lines' roots (module text); updates her blind-round
    regrets and average in ``MODE_UPDATE``.  Returns her value of the state; for A, ``root_values`` receives his
    value of each first choice (display, each blind)."""
    n_lines = len(lift)
    nb, n_g, nr = answer.shape[0], answer.shape[1], call.shape[1]
    per = 1 + nr  # lines per blind size
    if p == 0:
        line_value = np.zeros(n_lines)
        for l in range(n_lines):
            t = terms[l]
            for x in range(16):
                if n_b[t, x] > 0:
                    for b in range(n_a[t, x]):
                        line_value[l] += root_cf[l, x, b]
        values = np.empty(1 + nb)
        values[0] = line_value[0]
        for i in range(nb):
            folds = 0.0
            for g in range(n_g):
                folds += p_g[g] * answer[i, g, 0]
            v = folds * (ante + carried / 2.0) + line_value[1 + i * per]
            for j in range(nr):
                raised = 0.0
                for g in range(n_g):
                    raised += p_g[g] * answer[i, g, 2 + j]
                calls = np.array([raised * (-(ante + blind[i]) - carried / 2.0), line_value[1 + i * per + 1 + j]])
                v += _pick(mode, call[i, j], calls, r_call[i, j], c_call[i, j], decision[1 + i], weight)
            values[1 + i] = v
        root_values[:] = values
        return _pick(mode, decision, values, r_dec, c_dec, 1.0, weight)
    total = 0.0
    for x in range(16):  # the display line: B's own sets are in the walk
        for b in range(n_b[0, x]):
            total += root_cf[0, x, b]
    for i in range(nb):
        reach = decision[1 + i]
        for g in range(n_g):
            values = np.zeros(2 + nr)
            values[0] = p_g[g] * reach * (-ante - carried / 2.0)
            for x in range(16):
                if n_a[1, x] == 0:
                    continue
                for b in range(n_b[1, x]):
                    if row_g[x, b] == g:
                        values[1] += root_cf[1 + i * per, x, b]
                        for j in range(nr):
                            values[2 + j] += root_cf[1 + i * per + 1 + j, x, b]
            for j in range(nr):
                values[2 + j] += p_g[g] * reach * call[i, j, 0] * (ante + blind[i] + carried / 2.0)
            total += _pick(mode, answer[i, g], values, r_ans[i, g], c_ans[i, g], 1.0, weight)
    return total


@pnjit
def _state_pass(p, mode, player, first_child, num_children, entry, kind, stake_a, stake_b, lift, terms, blind_of,
                raise_of, n_a, n_b, chance_a, prior_b, share, row_g, p_g, blind, ante, carried, carry_a, last, sig_a,
                sig_b, decision, answer, call, regret, cumulative, r_dec, c_dec, r_ans, c_ans, r_call, c_call, weight,
                reach_a, reach_b, cf, root_a, root_b, root_cf, root_values):
    """One pass of player ``p`` over the state: the lines and pairs in parallel, then the blind round.  A
    plays ``sig_a`` in the betting round and ``decision``/``call`` in the blind round, B ``sig_b`` and
    ``answer``.  Returns her value (counterfactual values summed at the root)."""
    units = len(lift) * 16
    for u in prange(units):
        _unit(u, p, mode, player, first_child, num_children, entry, kind, stake_a, stake_b, lift, terms, blind_of,
              raise_of, n_a, n_b, chance_a, prior_b, share, row_g, carried, carry_a, last, sig_a, sig_b, decision,
              answer, call, regret, cumulative, weight, reach_a, reach_b, cf, root_a, root_b, root_cf)
    return _blind_round(p, mode, lift, terms, n_a, n_b, row_g, p_g, blind, ante, carried, decision, answer, call,
                        root_cf, r_dec, c_dec, r_ans, c_ans, r_call, c_call, weight, root_values)


@pnjit
def _iterations(player, first_child, num_children, entry, kind, stake_a, stake_b, lift, terms, blind_of, raise_of,
                n_a, n_b, chance_a, prior_b, share, row_g, p_g, blind, ante, carried, carry_a, last, regret,
                cumulative, r_dec, c_dec, r_ans, c_ans, r_call, c_call, positive, negative, weight, clip, sigma,
                decision, answer, call, reach_a, reach_b, cf, root_a, root_b, root_cf, root_values):
    """``len(weight)`` iterations of a schedule with alternating updates, in place on the regrets and the
    cumulative strategies; the factors as in :func:`~ricochet_math.equilibrium.cfr_kernel.cfr_iterations`."""
    units = len(lift) * 16
    nb, n_g, nr = answer.shape[0], answer.shape[1], call.shape[1]
    for k in range(len(weight)):
        for p in range(2):
            _match(r_dec, decision)
            for i in range(nb):
                for g in range(n_g):
                    _match(r_ans[i, g], answer[i, g])
                for j in range(nr):
                    _match(r_call[i, j], call[i, j])
            for u in prange(units):
                regret_matching(player, num_children, entry, regret[u // 16, u % 16], sigma[u // 16, u % 16])
            for u in prange(units):
                _unit(u, p, MODE_UPDATE, player, first_child, num_children, entry, kind, stake_a, stake_b, lift, terms,
                      blind_of, raise_of, n_a, n_b, chance_a, prior_b, share, row_g, carried, carry_a, last, sigma,
                      sigma, decision, answer, call, regret, cumulative, weight[k], reach_a, reach_b, cf, root_a,
                      root_b, root_cf)
            _blind_round(p, MODE_UPDATE, lift, terms, n_a, n_b, row_g, p_g, blind, ante, carried, decision, answer,
                         call, root_cf, r_dec, c_dec, r_ans, c_ans, r_call, c_call, weight[k], root_values)
            for u in prange(units):
                for n in range(len(player)):
                    if player[n] != p:
                        continue
                    for e in range(entry[n], entry[n] + num_children[n]):
                        for b in range(regret.shape[3]):
                            regret[u // 16, u % 16, e, b] = discounted(regret[u // 16, u % 16, e, b], positive[k],
                                                                       negative[k], clip)
            if p == 0:
                for a in range(len(r_dec)):
                    r_dec[a] = discounted(r_dec[a], positive[k], negative[k], clip)
                for i in range(nb):
                    for j in range(nr):
                        for a in range(2):
                            r_call[i, j, a] = discounted(r_call[i, j, a], positive[k], negative[k], clip)
            else:
                for i in range(nb):
                    for g in range(n_g):
                        for a in range(r_ans.shape[2]):
                            r_ans[i, g, a] = discounted(r_ans[i, g, a], positive[k], negative[k], clip)


def _scratch(br: BlindRanges) -> tuple:
    """The per-unit work arrays of a pass (reaches, counterfactual values, root reaches and values)."""
    units, n, w = len(br.lines) * 16, br.tree.num_nodes, br.width
    return (np.empty((units, n, w)), np.empty((units, n, w)), np.empty((units, n, w)), np.empty((units, w)),
            np.empty((units, w)), np.zeros((len(br.lines), 16, w)), np.zeros(1 + len(br.blind)))


def _zeros(br: BlindRanges) -> tuple:
    """Zero arrays in the shape of a state's strategy: lines, decision, answer, call."""
    nb, nr, g = len(br.blind), len(br.raises), len(br.p_g)
    return (np.zeros((len(br.lines), 16, br.tree.num_entries, br.width)), np.zeros(1 + nb), np.zeros((nb, g, 2 + nr)),
            np.zeros((nb, nr, 2)))


def _carry_a(br: BlindRanges, carry_a) -> tuple[np.ndarray, bool]:
    if carry_a is None:
        return np.zeros(len(br.lines)), True
    return np.asarray(carry_a, float) * np.ones(len(br.lines)), False


def state_cfr(br: BlindRanges, carried: float, carry_a, schedule: Schedule, iterations: int, *,
              every: int | None = None, state=None, on_chunk=None):
    """Run ``iterations`` iterations of ``schedule`` at the state with ``carried`` chips carried in; a carry in
    line ``l`` is worth ``carry_a[l]`` to A (None: the last level, two checks shown down).  ``state``:
    ``(regrets, cumulatives, done)`` to continue (each a tuple lines, decision, answer, call); ``every``: after
    each chunk of that many iterations ``on_chunk(done, state)``.  Returns ``(regrets, cumulatives, done)``."""
    if state is None:
        state = (_zeros(br), _zeros(br), 0)
    regrets, cumulatives, done = state
    carry, last = _carry_a(br, carry_a)
    sigma, decision, answer, call = _zeros(br)
    scratch = _scratch(br)
    step = every or iterations
    while done < iterations:
        count = min(step, iterations - done)
        pos, neg, w = schedule.factors(done, count)
        (r_lines, r_dec, r_ans, r_call), (c_lines, c_dec, c_ans, c_call) = regrets, cumulatives
        _iterations(*_arrays(br), float(carried), carry, last, r_lines, c_lines, r_dec, c_dec, r_ans, c_ans, r_call,
                    c_call, pos, neg, w, schedule.clip, sigma, decision, answer, call, *scratch)
        done += count
        if on_chunk is not None:
            on_chunk(done, (regrets, cumulatives, done))
    return regrets, cumulatives, done


def _normalised(c: np.ndarray) -> np.ndarray:
    """Each last-axis set normalised; uniform where it is all zero (as regret matching of it)."""
    total = c.sum(axis=-1, keepdims=True)
    return np.where(total > 0, c / np.where(total > 0, total, 1.0), 1.0 / max(c.shape[-1], 1))


def average_state_profile(br: BlindRanges, cumulatives) -> BlindRangeProfile:
    """The average strategy of a solve (its cumulative strategies normalised)."""
    from ricochet_math.games.rococo.range_cfr import average_strategy

    lines, dec, ans, call = cumulatives
    pt = br.tree
    sigma = np.stack([average_strategy(pt.player, pt.num_children, pt.entry, lines[l]) for l in range(len(br.lines))])
    return BlindRangeProfile(br, sigma, _normalised(dec), _normalised(ans), _normalised(call))


def _pass(p: int, mode: int, first: BlindRangeProfile, second: BlindRangeProfile, carried: float, carry_a,
          root_values: np.ndarray | None = None) -> float:
    """One pass of player ``p`` (``MODE_VALUE`` or ``MODE_BEST``), A playing ``first`` and B ``second``; with
    ``root_values`` (and ``p = 0``) A's value of each first choice is written there."""
    br = first.ranges
    carry, last = _carry_a(br, carry_a)
    dummy = _zeros(br)
    scratch = _scratch(br)
    out = float(_state_pass(p, mode, *_arrays(br), float(carried), carry, last, first.sigma, second.sigma,
                            first.decision, second.answer, first.call, dummy[0], dummy[0], dummy[1].copy(),
                            dummy[1].copy(), dummy[2].copy(), dummy[2].copy(), dummy[3].copy(), dummy[3].copy(), 0.0,
                            *scratch))
    if root_values is not None:
        root_values[:] = scratch[-1]
    return out


def state_best_response(profile: BlindRangeProfile, p: int, carried: float, carry) -> float:
    """Player ``p``'s exact best-response value (antes per pot, from this state on) against the opponent's part
    of ``profile``; a carry in line ``l`` is worth ``carry[l]`` to her (None: the last level, shown down)."""
    carry_a = None if carry is None else (np.asarray(carry, float) if p == 0 else -np.asarray(carry, float))
    return _pass(p, MODE_BEST, profile, profile, carried, carry_a)


def choice_values(profile: BlindRangeProfile, carried: float, carry) -> np.ndarray:
    """A's best-response value (antes per pot, from this state on) after each first choice (display, each blind
    size) against B's part of ``profile``: the most each choice can bring him; a carry in line ``l`` is worth
    ``carry[l]`` to him (None: shown down)."""
    out = np.zeros(1 + len(profile.ranges.blind))
    _pass(0, MODE_BEST, profile, profile, carried, None if carry is None else np.asarray(carry, float), out)
    return out


def state_value_of(first: BlindRangeProfile, second: BlindRangeProfile, carried: float, carry_a) -> float:
    """A's value at the state when A plays ``first`` and B plays ``second``; a carry in line ``l`` worth
    ``carry_a[l]`` to A (None: shown down)."""
    return _pass(0, MODE_VALUE, first, second, carried, carry_a)


def state_carry_reach(first: BlindRangeProfile, second: BlindRangeProfile) -> np.ndarray:
    """Per line, the probability that the game reaches it and is all checks (A playing ``first``, B ``second``)."""
    br = first.ranges
    pt = br.tree
    node = pt.index[("c", "c")]
    reach_a, reach_b = _scratch(br)[:2]
    out = np.zeros(len(br.lines))
    for l in range(len(br.lines)):
        i, j, t = br.blind_of[l], br.raise_of[l], br.terms[l]
        for x in range(16):
            if br.n_a[t, x] == 0 or br.n_b[t, x] == 0:
                continue
            if i < 0:
                ra, rb = first.decision[0], np.ones(br.width)
            else:
                ra = first.decision[1 + i] * (first.call[i, j, 1] if j >= 0 else 1.0)
                g = br.row_g[x]
                rb = np.where(g >= 0, second.answer[i, np.maximum(g, 0), 2 + j if j >= 0 else 1], 0.0)
            forward_reach(pt.player, pt.first_child, pt.num_children, pt.entry, first.sigma[l, x],
                          second.sigma[l, x], br.n_a[t, x], br.n_b[t, x], reach_a[0], reach_b[0],
                          np.full(br.width, float(ra)), rb)
            na, nb = br.n_a[t, x], br.n_b[t, x]
            out[l] += float(br.chance_a[t, x, :na] @ reach_a[0, node, :na]) * float(
                br.prior_b[t, x, :nb] @ reach_b[0, node, :nb])
    return out


def policy_state_profile(br: BlindRanges, spec) -> BlindRangeProfile:
    """The threshold policy ``spec`` in both seats on the layout: the blind round by
    :func:`~.blind_equilibrium.blind_round_rule`, the betting round by its thresholds (a bucket's lowest value
    decides; in a blind line B's final bucket, as the tree's policy profile reads her key).  A size the game
    lacks is refused."""
    from ricochet_math.games.rococo.blind_equilibrium import blind_round_rule
    from ricochet_math.games.rococo.equilibrium_result import policy_betting

    game, pt = br.game, br.tree
    _, action = policy_betting(game, spec)
    choice, answer_of, defends = blind_round_rule(game, spec)
    sigma, decision, answer, call = _zeros(br)
    acts0 = ("d",) + tuple(f"b{s}" for s in game.blind)
    for a, q in choice.items():
        decision[acts0.index(a)] = q
    b_acts = ("f", "k") + tuple(f"r{r}" for r in game.blind_raises)
    for i in range(len(br.blind)):
        call[i, :, 1 if defends else 0] = 1.0
        for g in range(len(br.p_g)):
            answer[i, g, b_acts.index(answer_of(g, b_acts))] = 1.0
    for n in np.flatnonzero(pt.player >= 0):
        p, e0, acts = int(pt.player[n]), int(pt.entry[n]), pt.actions[n]
        for l in range(len(br.lines)):
            t = br.terms[l]
            for da in range(4):
                for db in range(4):
                    x = da * 4 + db
                    for b in range((br.n_a if p == 0 else br.n_b)[t, x]):
                        bucket = br.row_bucket[x, b] if (p == 1 and t == 1) else b
                        a = action({"own": da if p == 0 else db, "bucket": int(bucket)}, acts)
                        sigma[l, x, e0 + acts.index(a), b] = 1.0
    return BlindRangeProfile(br, sigma, decision, answer, call)


def _nearest(sizes, n: int) -> int:
    """The index in ``sizes`` of the size nearest ``n`` (ties: the smaller), as
    :func:`~.betting_game.translate_history` reads an off-tree raise."""
    return min(range(len(sizes)), key=lambda i: (abs(sizes[i] - n), sizes[i]))


def translate_state_profile(profile: BlindRangeProfile, full: BlindRanges) -> BlindRangeProfile:
    """``profile`` (a state's strategy in its abstract blind round) played in ``full``, the same game with more
    blind and blind-round raise sizes: a blind or raise the abstraction lacks is read as its nearest abstract
    size (ties: the smaller), and the abstract strategy never makes one (its decision and answers give them
    probability 0).  The betting round is the same tree in both."""
    br = profile.ranges
    blind, raises = tuple(int(s) for s in br.blind), tuple(int(r) for r in br.raises)
    fb, fr = tuple(int(s) for s in full.blind), tuple(int(r) for r in full.raises)
    if not (set(blind) <= set(fb) and set(raises) <= set(fr)) or full.tree.num_entries != br.tree.num_entries:
        raise ValueError("the full game must hold the abstract blind and raise sizes and the same betting round")
    sigma, decision, answer, call = _zeros(full)
    decision[0] = profile.decision[0]
    for i, s in enumerate(blind):
        decision[1 + fb.index(s)] = profile.decision[1 + i]
    sigma[0] = profile.sigma[0]
    for i2, s in enumerate(fb):
        i = _nearest(blind, s)
        answer[i2, :, :2] = profile.answer[i, :, :2]
        for j, r in enumerate(raises):
            answer[i2, :, 2 + fr.index(r)] = profile.answer[i, :, 2 + j]
        sigma[full.line(i2)] = profile.sigma[br.line(i)]
        for j2, r in enumerate(fr):
            j = _nearest(raises, r)
            call[i2, j2] = profile.call[i, j]
            sigma[full.line(i2, j2)] = profile.sigma[br.line(i, j)]
    return BlindRangeProfile(full, sigma, decision, answer, call)
