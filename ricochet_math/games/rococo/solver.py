"""The exchange that wins the showdown most often against N opponents who also exchange best.

The target ("win probability") is the player's **expected share of the pot at the showdown**: a
sole best hand takes 1, a tie among ``t + 1`` players takes ``1 / (t + 1)`` each; betting and folding
are left out (everybody stays to the showdown).  Against ``N`` opponents whose final values are
independent draws from a distribution ``q``, a final value ``v`` is worth

    share_N(v) = sum over t of C(N, t) q(=v)^t q(<v)^(N - t) / (t + 1)

and the best keep of a hand is the one whose draws have the highest mean ``share_N``.  The opponents'
``q`` is the final-value distribution when *they* keep best, which depends on ``share_N``: the answer
is a **fixed point**, found by iterating

    q  ->  share_N  ->  best keep of every hand  ->  the q those keeps give  ->  ...

from ``q_0`` = everybody stands pat (the dealt distribution) until no hand changes its keep (then q
repeats exactly).  Each step is counting, never sampling (:mod:`~ricochet_math.games.rococo.draw`): the best keeps are decided
on the 134,459 suit-pattern class representatives, and the final distribution comes out as exact
whole numbers (units of 1/16,215 of a draw, summing to 2,598,960 x 16,215).

**Card removal.**  ``q`` is the distribution of an opponent's final hand over *all* deals; it ignores
that the player's own five cards are not in the opponents' hands or draws (the independence model of
video-poker-style analysis).  :func:`removal_check` measures what that costs by simulating real deals.
"""
from __future__ import annotations

import hashlib
import sys
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from ricochet_math.arguments import check_whole
from ricochet_math.evaluator import evaluation as evaluation_module
from ricochet_math.evaluator.evaluation import NUM_VALUES, value_counts_5
from ricochet_math.evaluator.tables import cache_dir, usable_cache_dir
from ricochet_math.errors import RicochetError, quote
from ricochet_math.storage import DamagedFileError, load_arrays, save_arrays
from ricochet_math.games.rococo.draw import (
    DRAW_DENOMINATOR, KEEPS, N_HANDS, N_SETS, best_keeps, five_card_hands, gather_values, keep_scores,
    scatter_strategy, suit_classes, superset_sums,
)

__all__ = ["sums_for", "share_by_value", "final_distribution", "DrawSolution", "solve_draws", "compute_draws",
           "check_solution", "MAX_OPPONENTS"]

MAX_OPPONENTS = 5
#: a keep replaces an earlier one (in KEEPS order) only when better by more than this (float noise)
TIE_TOLERANCE = 1e-12


def share_by_value(q: np.ndarray, opponents: int) -> np.ndarray:
    """``float64[7462]``: expected pot share of final value ``v`` against ``opponents`` independent
    opponents whose final values follow ``q`` (counts or probabilities over the 7,462 values)."""
    opponents = check_whole(opponents, "opponents", low=1, high=MAX_OPPONENTS)
    try:
        p = np.asarray(q, dtype=np.float64)
    except (TypeError, ValueError):
        p = None
    if p is None or p.shape != (NUM_VALUES,) or not np.isfinite(p).all() or p.min() < 0 or p.sum() <= 0:
        raise RicochetError(f"q must be {NUM_VALUES:,} non-negative finite counts or probabilities with a "
                            f"positive sum, got {str(q)[:60]}")
    p = p / p.sum()
    below = np.concatenate([[0.0], np.cumsum(p)[:-1]])
    out = np.zeros(NUM_VALUES)
    for t in range(opponents + 1):  # t opponents tie, the rest are below
        binom = float(np.prod(np.arange(opponents - t + 1, opponents + 1)) / np.prod(np.arange(1, t + 1)))
        out += binom * p**t * below ** (opponents - t) / (t + 1)
    return out


def final_distribution(keep_pos: np.ndarray, *, rows: np.ndarray | None = None,
                       counts: np.ndarray | None = None) -> np.ndarray:
    """``int64[7462]``: the exact distribution of a player's final value when hand number ``rows[r]``
    (standing for ``counts[r]`` hands; default every class representative and its class size) keeps
    ``KEEPS[keep_pos[r]]``; in units of 1/16,215 of a draw (total 2,598,960 x 16,215)."""
    hands, values = five_card_hands()
    if rows is None:
        classes = suit_classes()
        rows, counts = classes.representative, classes.size
    coef = np.zeros(N_SETS, dtype=np.int64)
    scatter_strategy(hands, np.asarray(rows, dtype=np.int64), np.asarray(counts, dtype=np.int64),
                     np.asarray(keep_pos, dtype=np.int64), coef)
    q = np.zeros(NUM_VALUES, dtype=np.int64)
    gather_values(hands, values, coef, q)
    return q


def _score_sums(score: np.ndarray) -> np.ndarray:
    hands, values = five_card_hands()
    sums = np.zeros(N_SETS)
    superset_sums(hands, values, np.asarray(score, dtype=np.float64), sums)
    return sums


@dataclass(frozen=True)
class DrawSolution:
    """The fixed point for ``opponents`` opponents.

    * ``final``: ``int64[7462]`` an optimal drawer's final-value distribution (units 1/16,215 draw);
    * ``share``: ``float64[7462]`` pot share of each final value against the opponents;
    * ``class_keep`` / ``class_share``: per suit-pattern class, the best keep (position in ``KEEPS``)
      and its expected pot share;
    * ``hand_keep``: ``uint8[2,598,960]`` the best keep of every hand (the engine's table);
    * ``iterations``: one row per step (keeps changed, total-variation change of ``q``, mean share).
    """

    opponents: int
    final: np.ndarray
    share: np.ndarray
    class_keep: np.ndarray
    class_share: np.ndarray
    hand_keep: np.ndarray
    iterations: pd.DataFrame
    converged: bool
    seconds: float

    @property
    def win_probability(self) -> float:
        """Mean pot share of a random hand drawing optimally (``1 / (N + 1)`` when all draw alike)."""
        size = suit_classes().size
        return float(self.class_share @ size / N_HANDS)

    def keep_shares(self, hand) -> np.ndarray:
        """``float64[26]``: the pot share of each keep of ``hand`` (five cards) against these opponents."""
        from ricochet_math.games.rococo.draw import sorted_hand

        cards = sorted_hand(hand).astype(np.int8)[None, :]
        out = np.empty((1, len(KEEPS)))
        keep_scores(cards, np.zeros(1, dtype=np.int64), sums_for(self.opponents), out)
        return out[0]

    def to_frame(self) -> pd.DataFrame:
        return self.iterations.copy()

    def summary(self) -> str:
        state = "converged" if self.converged else "NOT converged"
        return (f"Rococo draw fixed point, {self.opponents} opponent(s): {state} after "
                f"{len(self.iterations)} steps in {self.seconds:.1f} s; optimal drawer's pot share "
                f"{self.win_probability:.6f}")


@lru_cache(maxsize=MAX_OPPONENTS)
def sums_for(opponents: int) -> np.ndarray:
    return _score_sums(solve_draws(opponents).share)


_CACHE_SCHEMA = "ricochet_math.rococo.draws/1"


def _cache_path(opponents: int) -> Path:
    """The disk cache of one solution, keyed by the source of the modules that decide it."""
    h = hashlib.sha256()
    for module in ("draw.py", "solver.py"):
        h.update((Path(__file__).parent / module).read_bytes())
    h.update(Path(evaluation_module.__file__).read_bytes())
    return cache_dir() / f"rococo-draws-{opponents}-{h.hexdigest()[:16]}.npz"


def solve_draws(opponents: int, *, cache: bool = True) -> DrawSolution:
    """The draw fixed point against ``opponents`` (1..5) opponents: from the disk cache
    (``$RICOCHET_CACHE_DIR`` or ``~/.cache/ricochet_math``) when there, else solved (seconds to a
    minute under load) and stored; a damaged cache file is noted and recomputed.  Kept in memory too
    (``solve_draws.cache_clear()`` forgets it)."""
    # checked before the memo: a list is unhashable and True would hit the entry for 1
    opponents = check_whole(opponents, "opponents", low=1, high=MAX_OPPONENTS)
    if not isinstance(cache, bool):
        raise RicochetError(f"cache must be True or False, got {quote(cache, 40)}")
    return _solve_draws(opponents, cache)


@lru_cache(maxsize=MAX_OPPONENTS)
def _solve_draws(opponents: int, cache: bool) -> DrawSolution:
    cache = cache and usable_cache_dir() is not None  # a cache folder that is not usable: one warning line
    path = _cache_path(opponents)
    if cache and path.exists():
        try:
            head, z = load_arrays(path, _CACHE_SCHEMA)
            frame = pd.DataFrame({c: z["it_" + c] for c in _ITER_COLUMNS})
            loaded = DrawSolution(opponents, z["final"], z["share"], z["class_keep"], z["class_share"],
                                  z["hand_keep"], frame, head["converged"] is True, float(head["seconds"]))
            reason = check_solution(loaded)
            if reason is None:
                return loaded
            print(f"ricochet_math: note: Rococo draw cache {path} is not valid ({reason}); recomputing "
                  "and replacing it (delete that file if this note repeats)", file=sys.stderr)
        except (DamagedFileError, KeyError, TypeError, ValueError) as exc:
            print(f"ricochet_math: note: Rococo draw cache {exc}; recomputing", file=sys.stderr)
    sol = compute_draws(opponents)
    if cache and sol.converged:  # only a fixed point is stored: check_solution can prove it one
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            arrays = {"final": sol.final, "share": sol.share, "class_keep": sol.class_keep,
                      "class_share": sol.class_share, "hand_keep": sol.hand_keep}
            arrays |= {"it_" + c: sol.iterations[c].to_numpy() for c in _ITER_COLUMNS}
            save_arrays(path, _CACHE_SCHEMA, arrays, {"converged": sol.converged, "seconds": sol.seconds},
                        compressed=True)
        except OSError:
            pass
    return sol


_ITER_COLUMNS = ("step", "hands_changed", "q_change", "mean_share")
solve_draws.cache_clear = _solve_draws.cache_clear  # type: ignore[attr-defined]


def check_solution(sol: DrawSolution) -> str | None:
    """Why ``sol`` (read from a cache) cannot be the converged fixed point for its opponents (``None`` when
    it can).  A hash only detects damage; this checks the content, in about a second and a half:

    * every array has its dtype, shape and range (keeps are positions in :data:`KEEPS`, shares in [0, 1]);
    * ``final`` is exactly the distribution the class keeps give (:func:`final_distribution`) and
      ``share`` exactly :func:`share_by_value` of it;
    * the class keeps are the best keeps against that share (the fixed-point condition, recomputed on
      the 134,459 class representatives), with the shares they score;
    * ``hand_keep`` agrees with them on every representative (other hands: range only; recomputing all
      2,598,960 would cost about three seconds more per load).
    """
    classes = suit_classes()
    n_classes = len(classes.representative)
    shapes = {"final": (sol.final, np.int64, NUM_VALUES), "share": (sol.share, np.float64, NUM_VALUES),
              "class_keep": (sol.class_keep, np.int64, n_classes),
              "class_share": (sol.class_share, np.float64, n_classes),
              "hand_keep": (sol.hand_keep, np.uint8, N_HANDS)}
    for name, (a, dtype, n) in shapes.items():
        if not isinstance(a, np.ndarray) or a.dtype != dtype or a.shape != (n,):
            return f"array {name!r} is not {np.dtype(dtype).name}[{n}]"
    if not sol.converged:
        return "it is not marked converged (only fixed points are stored)"
    if (sol.class_keep.min() < 0 or sol.class_keep.max() >= len(KEEPS) or sol.hand_keep.max() >= len(KEEPS)):
        return "a keep outside the table of keeps"
    if not (np.isfinite(sol.class_share).all() and sol.class_share.min() >= 0 and sol.class_share.max() <= 1):
        return "a pot share outside [0, 1]"
    if sol.final.min() < 0 or int(sol.final.sum()) != N_HANDS * DRAW_DENOMINATOR:
        return "the final distribution does not count every draw of every hand once"
    if not np.array_equal(sol.final, final_distribution(sol.class_keep)):
        return "the final distribution is not the one its keeps give"
    if not np.array_equal(sol.share, share_by_value(sol.final, sol.opponents)):
        return "the pot shares are not those of its final distribution"
    if not np.array_equal(sol.hand_keep[classes.representative], sol.class_keep):
        return "the keep of a hand differs from its class's"
    hands, _ = five_card_hands()
    keep = np.empty(n_classes, dtype=np.int64)
    score = np.empty(n_classes)
    best_keeps(hands, classes.representative, _score_sums(sol.share), keep, score, TIE_TOLERANCE)
    if not (np.array_equal(keep, sol.class_keep) and np.array_equal(score, sol.class_share)):
        return "its keeps are not the best against its own final distribution (not a fixed point)"
    if not all(np.isfinite(sol.iterations[c].to_numpy(dtype=float)).all() for c in _ITER_COLUMNS):
        return "a step of its iteration log is not a finite number"
    return None


def compute_draws(opponents: int, *, max_steps: int = 60) -> DrawSolution:
    """Solve the draw fixed point (no cache): iterate from everybody standing pat until no keep changes."""
    opponents = check_whole(opponents, "opponents", low=1, high=MAX_OPPONENTS)
    start = time.perf_counter()
    hands, values = five_card_hands()
    classes = suit_classes()
    rows, counts = classes.representative, classes.size
    q = value_counts_5() * DRAW_DENOMINATOR  # step 0: everybody stands pat
    keep = np.zeros(len(rows), dtype=np.int64)
    share_of_class = np.empty(len(rows))
    log = []
    converged = False
    for step in range(1, max_steps + 1):
        share = share_by_value(q, opponents)
        sums = _score_sums(share)
        new_keep = np.empty(len(rows), dtype=np.int64)
        best_keeps(hands, rows, sums, new_keep, share_of_class, TIE_TOLERANCE)
        changed = int(counts[new_keep != keep].sum())
        new_q = final_distribution(new_keep, rows=rows, counts=counts)
        tv = 0.5 * float(np.abs(new_q - q).sum()) / (N_HANDS * DRAW_DENOMINATOR)
        log.append((step, changed, tv, float(share_of_class @ counts / N_HANDS)))
        keep, q = new_keep, new_q
        if changed == 0 and step > 1:
            converged = True
            break
    share = share_by_value(q, opponents)
    sums = _score_sums(share)
    # the final keeps and shares against the converged q (unchanged when converged)
    best_keeps(hands, rows, sums, keep, share_of_class, TIE_TOLERANCE)
    hand_keep = np.empty(N_HANDS, dtype=np.int64)
    hand_share = np.empty(N_HANDS)
    best_keeps(hands, np.arange(N_HANDS, dtype=np.int64), sums, hand_keep, hand_share, TIE_TOLERANCE)
    frame = pd.DataFrame(log, columns=list(_ITER_COLUMNS))
    out = DrawSolution(opponents, q, share, keep, share_of_class.copy(), hand_keep.astype(np.uint8),
                       frame, converged, time.perf_counter() - start)
    return out
