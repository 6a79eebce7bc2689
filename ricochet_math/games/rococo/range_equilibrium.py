"""Heads-up Rococo at equilibrium solved range against range (:mod:`~.range_cfr`): the whole pot, level by
level, in a betting tree that may have every raise size 1..10 (no action abstraction, so nothing to
translate), at any card abstraction; the same measurements as :func:`~.equilibrium.solve_equilibrium`.

``solve_equilibrium(..., solver="ranges")`` comes here.  The carried pot's recursion is the same
(:mod:`~ricochet_math.games.rococo.equilibrium`: levels backward from ``carry_limit``, a carry worth ``-v(k + 1)`` to the level's first
player); each level runs CFR+ (or another schedule) over the betting histories with every bucket at once;
the exploitability is the exact best response of the same walk, backward over the levels.  With every raise
size in the tree the exploitability in the unabstracted betting game *is* the tree's (no off-tree raise is
left to read); with fewer sizes it is measured as :mod:`~.range_response` measures the tree solver's.  A
best response that knows its exact final value (the card abstraction's cost) is
:func:`~.range_response.range_best_response` with exact-value rows, reading this layout.

The named policies are laid onto the same histories (:func:`policy_range_profile`: a bucket's lowest value
decides, as :func:`~.equilibrium.policy_profile`), so their exploitability and their values against the
equilibrium come from the same walks.
"""
from __future__ import annotations

import time

import numpy as np

from ricochet_math.errors import RicochetError
from ricochet_math.equilibrium.schedules import schedule_named
from ricochet_math.games.rococo.betting_game import Abstraction, RococoBettingGame
from ricochet_math.games.rococo.range_cfr import (
    PublicTree, RangeLevel, RangeProfile, average_profile, level_best_response, level_carry_probability,
    level_cfr, level_value, public_tree, range_level,
)
from ricochet_math.games.rococo.rules import RococoRules

#: the regret schedules the range solver runs (the layer's CFR+ and Discounted CFR 1.5, 0, 2)
RANGE_SCHEDULES = ("cfr+", "dcfr")

__all__ = ["RANGE_SCHEDULES", "solve_range_equilibrium", "policy_range_profile", "pot_range_kernel_best_responses",
           "range_pot_value", "range_strategy_frame"]


def policy_range_profile(pt: PublicTree, rl: RangeLevel, spec) -> RangeProfile:
    """The threshold policy ``spec`` in both seats on the histories of ``pt`` (the rule of
    :func:`~.equilibrium.policy_profile`: a bucket's lowest value decides for all of it); a raise size the
    tree lacks is refused."""
    from ricochet_math.games.rococo.equilibrium_result import policy_betting

    _, action = policy_betting(pt.game, spec)
    sigma = np.zeros((16, pt.num_entries, rl.buckets))
    for n in np.flatnonzero(pt.player >= 0):
        p, e0, acts = int(pt.player[n]), int(pt.entry[n]), pt.actions[n]
        for da in range(4):
            for db in range(4):
                x = da * 4 + db
                own = da if p == 0 else db
                for b in range((rl.n_a if p == 0 else rl.n_b)[x]):
                    sigma[x, e0 + acts.index(action({"own": own, "bucket": b}, acts)), b] = 1.0
    return RangeProfile(pt, rl, sigma)


def pot_range_kernel_best_responses(profiles) -> tuple[np.ndarray, np.ndarray]:
    """``(BRF, BRS)`` per level against ``profiles`` (one :class:`~.range_cfr.RangeProfile` per level), in
    their own betting tree, backward over the levels as :func:`~.equilibrium.pot_best_responses`."""
    levels = len(profiles)
    brf, brs = np.zeros(levels), np.zeros(levels)
    for k in range(levels - 1, -1, -1):
        last = k == levels - 1
        brf[k] = level_best_response(profiles[k], 0, k, None if last else brs[k + 1])
        brs[k] = level_best_response(profiles[k], 1, k, None if last else brf[k + 1])
    return brf, brs


def range_pot_value(x, y) -> float:
    """The value per pot to a player who plays ``x[k]`` and starts as first player against ``y`` (profiles
    per level); the seats alternate from level to level (:func:`~.equilibrium.pot_value`)."""
    levels = len(x)
    e = 0.0
    for k in range(levels - 1, -1, -1):
        first, second = (x, y) if k % 2 == 0 else (y, x)
        e = level_value(first[k], second[k], k, None if k == levels - 1 else -e)
    return e


def _carry_probabilities(x, y) -> np.ndarray:
    """Each level's probability of two checks, the first player at level ``k`` playing ``x[k]``."""
    return np.array([level_carry_probability(a, b) for a, b in zip(x, y)])


def range_strategy_frame(profile: RangeProfile, level: int = 0):
    """One level's strategy as :func:`~.equilibrium._strategy_frame`'s rows: the information-set key (as the
    tree solver's), player, discard counts, bucket and its lowest final value, moves, action, probability."""
    import pandas as pd

    pt, rl = profile.tree, profile.level
    starts = pt.game.buckets.start
    cols = {k: [] for k in ("infoset", "player", "discards", "other_discards", "bucket", "bucket_from", "moves", "action")}
    probs = []
    for da in range(4):
        for db in range(4):
            x = da * 4 + db
            for n in np.flatnonzero(pt.player >= 0):
                p, e0, acts = int(pt.player[n]), int(pt.entry[n]), pt.actions[n]
                own, other = (da, db) if p == 0 else (db, da)
                moves = ".".join(pt.moves[n])
                for b in range((rl.n_a if p == 0 else rl.n_b)[x]):
                    for j, a in enumerate(acts):
                        cols["infoset"].append(f"{'AB'[p]}{da}.{db}:{b}|{moves}")
                        cols["player"].append("AB"[p]), cols["discards"].append(own)
                        cols["other_discards"].append(other), cols["bucket"].append(b)
                        cols["bucket_from"].append(int(starts[own][b])), cols["moves"].append(moves)
                        cols["action"].append(a)
                        probs.append(profile.sigma[x, e0 + j, b])
    frame = pd.DataFrame(cols)
    frame.insert(0, "level", level)
    frame["probability"] = probs
    return frame


def solve_range_equilibrium(spec: Abstraction, iterations: int, *, rules: RococoRules, every: int | None,
                            policies, model, progress: bool, exact_cards: bool, full_betting: bool,
                            solver: str = "cfr+", translation=None):
    """The pot solved range against range (module text); arguments as
    :func:`~.equilibrium.solve_equilibrium` (already checked there).  ``full_betting``: also measure with
    every raise size when the tree lacks some (with every size in the tree it is the tree's figure), an
    off-tree raise read by ``translation`` (default: the nearest size)."""
    import pandas as pd

    from ricochet_math.games.rococo.equilibrium_result import RococoEquilibrium, games_per_pot
    from ricochet_math.games.rococo.range_response import pot_range_best_responses
    from ricochet_math.progress import step_bar

    if solver not in RANGE_SCHEDULES:
        raise RicochetError(f"unknown schedule {solver!r:.20} for the range solver; choose one of "
                            f"{', '.join(RANGE_SCHEDULES)}")
    schedule = schedule_named(solver)
    seconds = {}
    start = time.perf_counter()
    game = RococoBettingGame(rules, model, spec)
    pt, rl = public_tree(game), range_level(game)
    seconds["build"] = time.perf_counter() - start
    levels = rules.carry_limit + 1
    pol_profiles = {p.name: [policy_range_profile(pt, rl, p)] * levels for p in policies}
    every_size = tuple(game.sizes) == tuple(range(rules.min_bet, rules.max_bet + 1))
    values = np.zeros(levels)
    profiles: list = [None] * levels
    curves = []
    start = time.perf_counter()
    with step_bar(levels * iterations, f"{game.name} {solver}, range against range", progress) as bar:
        for k in range(levels - 1, -1, -1):
            carry_a = None if k == levels - 1 else -values[k + 1]
            rows = []

            def measure(done, state, k=k, carry_a=carry_a, rows=rows):
                prof = average_profile(pt, rl, state[1])
                to_b = None if carry_a is None else -carry_a
                nc = level_best_response(prof, 0, k, carry_a) + level_best_response(prof, 1, k, to_b)
                rows.append((k, done, nc, nc / 2))
                bar.update(done - (rows[-2][1] if len(rows) > 1 else 0))
                bar.set_description_str(f"level {k}: {done:,} iterations, NashConv {nc:.3g}")

            state = level_cfr(pt, rl, k, carry_a, schedule, iterations, every=every, on_chunk=measure)
            profiles[k] = average_profile(pt, rl, state[1])
            values[k] = level_value(profiles[k], profiles[k], k, carry_a)
            curves.append(pd.DataFrame(rows, columns=["level", "iteration", "nash_conv", "openspiel_exploitability"]))
    seconds["solve"] = time.perf_counter() - start
    start = time.perf_counter()
    brf, brs = pot_range_kernel_best_responses(profiles)
    carry_prob = _carry_probabilities(profiles, profiles)
    table = {}
    for name, prof in pol_profiles.items():
        f, s = pot_range_kernel_best_responses(prof)
        as_first = range_pot_value(prof, profiles)
        as_second = -range_pot_value(profiles, prof)
        table[name] = {"policy": name, "exploitability": (f[0] + s[0]) / 2,
                       "vs_equilibrium": (as_first + as_second) / 2,
                       "vs_equilibrium_as_first": as_first, "vs_equilibrium_as_second": as_second,
                       "self_first_player_value": range_pot_value(prof, prof),
                       "self_games_per_pot": games_per_pot(_carry_probabilities(prof, prof)),
                       "exploitability_full": (f[0] + s[0]) / 2 if every_size else np.nan,
                       "exploitability_exact_cards": np.nan}
    nash = float(brf[0] + brs[0])
    nash_full = nash if every_size else None
    nash_cards = nash_cards_full = None
    if exact_cards:
        fx, sx = pot_range_best_responses(pt, profiles, cards="exact", every_raise_size=False)
        nash_cards = float(fx[0] + sx[0])
        nash_cards_full = nash_cards if every_size else None
        for name, prof in pol_profiles.items():
            fx, sx = pot_range_best_responses(pt, prof, cards="exact", every_raise_size=False)
            table[name]["exploitability_exact_cards"] = (fx[0] + sx[0]) / 2
    seconds["measure"] = time.perf_counter() - start
    if full_betting and not every_size:
        start = time.perf_counter()
        read = {} if translation is None else {"translation": translation}
        f, s = pot_range_best_responses(pt, profiles, **read)
        nash_full = float(f[0] + s[0])
        for name, prof in pol_profiles.items():
            f, s = pot_range_best_responses(pt, prof, **read)
            table[name]["exploitability_full"] = (f[0] + s[0]) / 2
        if exact_cards:
            fx, sx = pot_range_best_responses(pt, profiles, cards="exact", **read)
            nash_cards_full = float(fx[0] + sx[0])
        seconds["full"] = time.perf_counter() - start
    histories = pt.num_nodes
    sizes = {"abstract": (f"range against range: {histories:,} betting histories ({pt.num_entries:,} entries) "
                          f"x 16 discard pairs x up to {rl.buckets} buckets a player "
                          f"({16 * pt.num_entries * rl.buckets:,} regret entries), raise sizes "
                          f"{','.join(map(str, game.sizes))}")}
    strategy = range_strategy_frame(profiles[0], 0)
    return RococoEquilibrium(
        spec, rules, iterations, values, carry_prob, nash, (float(-brs[0]), float(brf[0])), nash_full,
        pd.DataFrame(list(table.values())), pd.concat(curves[::-1], ignore_index=True), strategy, sizes, seconds,
        tuple(profiles), nash_cards, nash_cards_full, solver="ranges", schedule=schedule.name)


def check_range_options(spec: Abstraction, checkpoint) -> None:
    """What the range solver does not do, refused with one line before any work."""
    if checkpoint is not None:
        raise RicochetError("--checkpoint is for --solver tree (the range solver keeps no checkpoints: a level "
                            "takes seconds to minutes)")
