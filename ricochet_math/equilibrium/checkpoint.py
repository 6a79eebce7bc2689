"""Checkpoints of a long solve: the regrets and the average, written atomically, refused when foreign.

A checkpoint is a :func:`~ricochet_math.storage.save_arrays` file (``.npz`` with a JSON header, never a
pickle) holding the regret and cumulative-strategy entry arrays, the exploitability curve so far, and in
its header the game, the tree's digest, the solver and its parameters, the seed and the iterations done.
Resuming checks every one of them against the solve asked for: a checkpoint of another game, tree
(abstraction), solver or seed, or a damaged file, is one :class:`~ricochet_math.errors.RicochetError`
line and nothing is written.  Because each iteration's update depends only on the state and, for the
sampled solver, on ``(seed, iteration)``, a solve killed at any moment and resumed from its last
checkpoint ends with the same digits as one never stopped.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from ricochet_math.errors import RicochetError
from ricochet_math.storage import load_arrays, save_arrays

__all__ = ["SCHEMA", "SolveState", "save_checkpoint", "load_checkpoint"]

SCHEMA = "ricochet_math.equilibrium.checkpoint/1"


@dataclass
class SolveState:
    """A solve between iterations (mutable: the driver advances it)."""

    game: str
    digest: str
    parameters: dict
    seed: int | None
    iterations: int
    regret: np.ndarray
    cumulative: np.ndarray
    curve_iterations: list
    curve_nash_conv: list
    solve_seconds: float = 0.0


def save_checkpoint(path: str | os.PathLike, state: SolveState) -> None:
    """Write ``state`` to ``path`` atomically (the old checkpoint stays whole until the new one replaces it)."""
    header = {"game": state.game, "digest": state.digest, "parameters": state.parameters,
              "seed": None if state.seed is None else str(state.seed), "iterations": state.iterations,
              "solve_seconds": state.solve_seconds}
    arrays = {"regret": state.regret, "cumulative": state.cumulative,
              "curve_iterations": np.asarray(state.curve_iterations, np.int64),
              "curve_nash_conv": np.asarray(state.curve_nash_conv, np.float64)}
    try:
        save_arrays(path, SCHEMA, arrays, header)
    except OSError as exc:
        raise RicochetError(f"checkpoint {path} could not be written: {exc.strerror or exc}") from None


def load_checkpoint(path: str | os.PathLike, game: str, digest: str, parameters: dict, seed: int | None,
                    entries: int, *, any_seed: bool = False) -> SolveState:
    """The state in ``path``, checked against the solve asked for (one line naming what differs);
    ``any_seed``: take the checkpoint's seed (a sampled solve resumed without naming its seed)."""
    head, arrays = load_arrays(path, SCHEMA)
    if head.get("game") != game or head.get("digest") != digest:
        raise RicochetError(f"checkpoint {path} is of {head.get('game')!r} (tree {str(head.get('digest'))[:12]}), not "
                            f"of {game!r} (tree {digest[:12]}): another game or abstraction; nothing was written")
    if head.get("parameters") != parameters:
        raise RicochetError(f"checkpoint {path} was written by solver {head.get('parameters')}, not "
                            f"{parameters}; nothing was written")
    stored_seed = head.get("seed")
    if any_seed and isinstance(stored_seed, str) and stored_seed.isdigit():
        seed = int(stored_seed)
    if stored_seed != (None if seed is None else str(seed)):
        raise RicochetError(f"checkpoint {path} was written with seed {stored_seed}, not {seed}; nothing was written")
    iterations = head.get("iterations")
    if not isinstance(iterations, int) or iterations < 0 or any(
            arrays.get(k, np.empty(0)).shape != (entries,) for k in ("regret", "cumulative")):
        raise RicochetError(f"checkpoint {path}: damaged (its arrays do not fit the tree); nothing was written")
    return SolveState(game, digest, parameters, seed, iterations, arrays["regret"].astype(np.float64),
                      arrays["cumulative"].astype(np.float64), [int(x) for x in arrays["curve_iterations"]],
                      [float(x) for x in arrays["curve_nash_conv"]], float(head.get("solve_seconds", 0.0)))
