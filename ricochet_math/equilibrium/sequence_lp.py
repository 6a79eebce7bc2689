"""The exact solution of a two-player zero-sum game as a sequence-form linear program (Koller, Megiddo
and von Stengel 1994; von Stengel 1996), solved by HiGHS through ``scipy.optimize.linprog``.

A player's *sequence* is an information set and one of its actions (the entry of the tree arrays), plus
the empty sequence; her *realisation plan* ``x`` gives each sequence the product of her probabilities
along it, with ``x[empty] = 1`` and, at each information set, the plan of the action before it equal to
the sum of the plans of its actions (``E x = e``).  The expected utility of player 0 is ``x^T A y``, with
``A[s0, s1]`` the sum over the terminal nodes reached by sequences ``s0`` and ``s1`` of chance's
probability times player 0's utility.  Player 0's equilibrium and the game value solve

    maximise q[0]  over x >= 0 and q free,  subject to  E x = e,  F^T q <= A^T x

(the inner minimisation over player 1's plans ``F y = f`` replaced by its dual), and player 1's the
same program with the roles exchanged.  This is an independent path to the value that the iterative
solvers converge to: an exact linear program against sampled or iterated regrets.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ricochet_math.errors import RicochetError
from ricochet_math.equilibrium.tree import TERMINAL, CHANCE, GameTree

__all__ = ["SequenceFormSolution", "solve_sequence_form"]


@dataclass(frozen=True)
class SequenceFormSolution:
    """The game value for player 0 (``value``; from player 1's program: ``value_dual``, which is -value),
    an equilibrium ``profile`` (entry array) and the size of the programs."""

    game: str
    value: float
    value_dual: float
    profile: np.ndarray
    sequences: tuple[int, int]
    run_time: float

    def summary(self) -> str:
        return (f"{self.game}: game value for player 0 {self.value:.12g} chips (sequence-form LP, HiGHS; player 1's "
                f"program: {-self.value_dual:.12g}); {self.sequences[0]:,} + {self.sequences[1]:,} sequences, "
                f"{self.run_time:.2f} s")

    def to_frame(self):
        import pandas as pd

        return pd.DataFrame({"player": [0, 1], "value": [self.value, self.value_dual]})


def _chance_reach(tree: GameTree) -> np.ndarray:
    reach = np.ones(tree.num_nodes)
    for n in range(tree.num_nodes):
        if tree.player[n] == TERMINAL:
            continue
        kids = slice(tree.first_child[n], tree.first_child[n] + tree.num_children[n])
        reach[kids] = reach[n] * (tree.chance_prob[kids] if tree.player[n] == CHANCE else 1.0)
    return reach


def _plan_constraints(tree: GameTree, p: int):
    """(sequence number of each of ``p``'s entries, the sparse ``E`` of her plans, its right-hand side)."""
    from scipy import sparse

    mine = np.flatnonzero(tree.infoset_player == p)
    number = np.full(tree.num_entries, -1, np.int64)
    count = 1
    for i in mine:
        lo, hi = tree.offset[i], tree.offset[i + 1]
        number[lo:hi] = np.arange(count, count + hi - lo)
        count += hi - lo
    rows, cols, vals = [0], [0], [1.0]
    for r, i in enumerate(mine, start=1):
        parent = tree.infoset_parent[i]
        rows.append(r)
        cols.append(0 if parent < 0 else number[parent])
        vals.append(-1.0)
        for e in range(tree.offset[i], tree.offset[i + 1]):
            rows.append(r)
            cols.append(number[e])
            vals.append(1.0)
    e_matrix = sparse.csr_matrix((vals, (rows, cols)), shape=(len(mine) + 1, count))
    rhs = np.zeros(len(mine) + 1)
    rhs[0] = 1.0
    return number, e_matrix, rhs


def _solve(a_matrix, e_matrix, e_rhs, f_matrix):
    """max q[0] s.t. E x = e, F^T q - A^T x <= 0, x >= 0: (value, x)."""
    from scipy import sparse
    from scipy.optimize import linprog  # deferred: scipy.optimize takes 0.6 s to import

    n_x, m_q = e_matrix.shape[1], f_matrix.shape[0]
    cost = np.zeros(n_x + m_q)
    cost[n_x] = -1.0
    a_eq = sparse.hstack([e_matrix, sparse.csr_matrix((e_matrix.shape[0], m_q))]).tocsr()
    a_ub = sparse.hstack([-a_matrix.T, f_matrix.T]).tocsr()
    bounds = [(0, None)] * n_x + [(None, None)] * m_q
    done = linprog(cost, A_ub=a_ub, b_ub=np.zeros(a_ub.shape[0]), A_eq=a_eq, b_eq=e_rhs, bounds=bounds,
                   method="highs", options={"primal_feasibility_tolerance": 1e-10,
                                            "dual_feasibility_tolerance": 1e-10})
    if done.status != 0:
        raise RicochetError(f"the sequence-form linear program did not solve: {done.message}")
    return float(-done.fun), done.x[:n_x]


def solve_sequence_form(tree: GameTree) -> SequenceFormSolution:
    """The value and an equilibrium of a two-player zero-sum ``tree`` by the sequence-form LP (moderate
    trees: the program has one variable per sequence and one row per sequence and information set).

    Refused (one line): more than two players, or a terminal node whose utilities do not sum to 0."""
    import time

    from scipy import sparse

    start = time.perf_counter()
    if tree.num_players != 2:
        raise RicochetError(f"the sequence-form LP solves two-player zero-sum games; {tree.game} has "
                            f"{tree.num_players} players (use exploitability, which is NashConv for any number)")
    terminal = np.flatnonzero(tree.player == TERMINAL)
    if np.abs(tree.utility[terminal].sum(axis=1)).max() > 1e-12:
        raise RicochetError(f"the sequence-form LP solves zero-sum games; {tree.game} is not zero-sum at a terminal node")
    numbers, plans = [], []
    for p in (0, 1):
        number, e_matrix, rhs = _plan_constraints(tree, p)
        numbers.append(number)
        plans.append((e_matrix, rhs))
    reach = _chance_reach(tree)
    seq = [np.where(tree.sequence[terminal, p] < 0, 0, numbers[p][np.maximum(tree.sequence[terminal, p], 0)])
           for p in (0, 1)]
    a = sparse.csr_matrix((reach[terminal] * tree.utility[terminal, 0], (seq[0], seq[1])),
                          shape=(plans[0][0].shape[1], plans[1][0].shape[1]))  # duplicates are summed
    value0, x0 = _solve(a, plans[0][0], plans[0][1], plans[1][0])
    value1, x1 = _solve(-a.T.tocsr(), plans[1][0], plans[1][1], plans[0][0])
    profile = np.empty(tree.num_entries)
    for p, x in ((0, x0), (1, x1)):
        for i in np.flatnonzero(tree.infoset_player == p):
            lo, hi = tree.offset[i], tree.offset[i + 1]
            parent = tree.infoset_parent[i]
            above = x[0 if parent < 0 else numbers[p][parent]]
            row = np.maximum(x[numbers[p][lo:hi]], 0.0)
            profile[lo:hi] = row / row.sum() if above > 1e-12 and row.sum() > 0 else 1.0 / (hi - lo)
    return SequenceFormSolution(tree.game, value0, value1, profile,
                                (plans[0][0].shape[1], plans[1][0].shape[1]), time.perf_counter() - start)
