"""The one entry point of a solve: :func:`solve` runs a solver on a game, measures, checkpoints, resumes.

``solve(game, "cfr+", 1000, every=10)`` lays the game out once (:func:`~ricochet_math.equilibrium.tree.build_tree`),
runs the iterations in the numba kernels, measures the exploitability (NashConv) of the average
strategy every ``every`` iterations, shows a progress bar (iterations, the last exploitability, the
time left) and, with ``checkpoint``, stores the state there every ``every`` iterations and at the end;
a ``checkpoint`` file that exists is resumed from (the same game, tree, solver and seed, else one line).
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from ricochet_math.arguments import check_whole
from ricochet_math.errors import RicochetError
from ricochet_math.equilibrium.best_response import exploitability
from ricochet_math.equilibrium.cfr_kernel import average_strategy, cfr_iterations, expected_values
from ricochet_math.equilibrium.checkpoint import SolveState, load_checkpoint, save_checkpoint
from ricochet_math.equilibrium.game import Game
from ricochet_math.equilibrium.kuhn import KuhnPoker
from ricochet_math.equilibrium.leduc import LeducPoker
from ricochet_math.equilibrium.mccfr import external_sampling_iterations, seed_key
from ricochet_math.equilibrium.results import SolveResult
from ricochet_math.equilibrium.schedules import cfr_plus, dcfr, vanilla_cfr
from ricochet_math.equilibrium.tree import GameTree, build_tree
from ricochet_math.progress import step_bar
from ricochet_math.random_streams import resolve_seed
from ricochet_math.storage import check_writable_file

__all__ = ["solve", "SOLVER_NAMES", "MAX_ITERATIONS", "reference_game", "GAME_NAMES"]

SOLVER_NAMES = ("cfr+", "dcfr", "cfr", "mccfr")
#: more iterations than any solve here needs (a billion): a larger count is a typing error
MAX_ITERATIONS = 10 ** 9
GAME_NAMES = ("kuhn", "leduc")


def reference_game(name: str, players: int = 2) -> Game:
    """The reference game ``name`` (``kuhn`` for any ``players``, ``leduc`` for two)."""
    if name == "kuhn":
        return KuhnPoker(players)
    if name == "leduc":
        if players != 2:
            raise RicochetError(f"leduc is a two-player game, got players={players}")
        return LeducPoker()
    raise RicochetError(f"unknown reference game {name!r}; choose one of {', '.join(GAME_NAMES)}")


def _schedule(solver: str, delay: int, alpha: float, beta: float, gamma: float):
    if solver == "cfr+":
        return cfr_plus(delay)
    if solver == "dcfr":
        return dcfr(alpha, beta, gamma)
    if solver == "cfr":
        return vanilla_cfr()
    return None


def solve(game: Game | GameTree, solver: str = "cfr+", iterations: int = 1000, seed: int | None = None, *,
          every: int | None = None, checkpoint: str | Path | None = None, progress: bool = False,
          delay: int = 0, alpha: float = 1.5, beta: float = 0.0, gamma: float = 2.0) -> SolveResult:
    """Solve ``game`` (a :class:`Game` or its :class:`GameTree`) by ``solver`` for ``iterations`` in all.

    ``solver``: ``cfr+`` (regret matching+, linear averaging after ``delay``; OpenSpiel's CFR+ for
    ``delay=0``), ``dcfr`` (Discounted CFR(``alpha``, ``beta``, ``gamma``), published defaults 1.5, 0, 2),
    ``cfr`` (vanilla), all over the whole tree with alternating updates; or ``mccfr`` (external
    sampling, seeded by ``seed``: fresh entropy when None, recorded).  ``every``: measure the
    exploitability (and write the checkpoint) every ``every`` iterations; it is always measured at the
    end.  ``checkpoint``: a file to resume from if it exists and to keep the state in.
    """
    if solver not in SOLVER_NAMES:
        raise RicochetError(f"unknown solver {solver!r}; choose one of {', '.join(SOLVER_NAMES)}")
    iterations = check_whole(iterations, "iterations", low=1, high=MAX_ITERATIONS)
    every = None if every is None else check_whole(every, "every", low=1, high=MAX_ITERATIONS)
    schedule = _schedule(solver, delay, alpha, beta, gamma)
    tree = game if isinstance(game, GameTree) else build_tree(game)
    parameters = schedule.parameters if schedule is not None else {"solver": "mccfr", "sampling": "external"}
    if checkpoint is not None:
        checkpoint = check_writable_file(checkpoint, "checkpoint")
    resuming = checkpoint is not None and checkpoint.exists()
    # a sampled solve resumed without its seed takes the checkpoint's (a fresh one would be refused)
    any_seed = solver == "mccfr" and seed is None and resuming
    seed = resolve_seed(seed) if solver == "mccfr" else None
    digest = tree.digest
    if resuming:
        state = load_checkpoint(checkpoint, tree.game, digest, parameters, seed, tree.num_entries, any_seed=any_seed)
        seed = state.seed
        if state.iterations > iterations:
            raise RicochetError(f"checkpoint {checkpoint} holds {state.iterations:,} iterations, more than the "
                                f"{iterations:,} asked for; nothing was written")
    else:
        state = SolveState(tree.game, digest, parameters, seed, 0, np.zeros(tree.num_entries),
                           np.zeros(tree.num_entries), [], [])
    resumed_from = state.iterations
    arrays = tree.kernel_arrays()
    key = np.uint64(seed_key(seed) if seed is not None else 0)
    step = every or max(1, min(iterations, 1000))
    solve_seconds = measure_seconds = 0.0
    bar = step_bar(iterations, f"{tree.game} {solver}", progress)
    bar.update(state.iterations)

    def measure() -> None:
        nonlocal measure_seconds
        start = time.perf_counter()
        value = exploitability(tree, average_strategy(state.cumulative, tree.offset)).nash_conv
        state.curve_iterations.append(state.iterations)
        state.curve_nash_conv.append(value)
        measure_seconds += time.perf_counter() - start
        if hasattr(bar, "set_postfix_str"):
            bar.set_postfix_str(f"exploitability {value:.3g}")

    # load (or compile) the kernel before the clock starts: zero iterations change nothing
    if schedule is None:
        external_sampling_iterations(*arrays, state.regret, state.cumulative, key, state.iterations, 0)
    else:
        cfr_iterations(*arrays, tree.post_order, tree.infoset_player, state.regret, state.cumulative, *schedule.factors(0, 0),
                       schedule.clip)
    try:
        while state.iterations < iterations:
            count = min(step - state.iterations % step, iterations - state.iterations)
            start = time.perf_counter()
            if schedule is None:
                external_sampling_iterations(*arrays, state.regret, state.cumulative, key, state.iterations, count)
            else:
                positive, negative, weight = schedule.factors(state.iterations, count)
                cfr_iterations(*arrays, tree.post_order, tree.infoset_player, state.regret, state.cumulative, positive, negative,
                               weight, schedule.clip)
            elapsed = time.perf_counter() - start
            solve_seconds += elapsed
            state.solve_seconds += elapsed
            state.iterations += count
            bar.update(count)
            if every is not None and state.iterations % every == 0:
                measure()
                if checkpoint is not None and state.iterations < iterations:
                    save_checkpoint(checkpoint, state)
        if not state.curve_iterations or state.curve_iterations[-1] != state.iterations:
            measure()
        if checkpoint is not None:
            save_checkpoint(checkpoint, state)
    finally:
        bar.close()
    average = average_strategy(state.cumulative, tree.offset)
    values = tuple(float(v) for v in expected_values(*arrays, average))
    return SolveResult(tree.game, solver, parameters, seed, state.iterations, average, values,
                       np.asarray(state.curve_iterations, np.int64), np.asarray(state.curve_nash_conv),
                       solve_seconds, measure_seconds, resumed_from, tree)
