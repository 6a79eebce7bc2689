"""Rococo Poker heads-up at equilibrium: the betting game (:mod:`~.betting_game`) solved level by level of
the carried-pot recursion, its exploitability in the abstract tree and with every raise size, and the named
policies measured against it.

**The recursion.** Level ``k`` is a game with ``k`` pots carried (carried chips ``2 k ante``).  At the last
level (``carry_limit``) an all-check game is shown down, so it is an ordinary game; each level below has
carry terminals worth ``-v(k + 1)`` to its first player, ``v(k + 1)`` the first player's equilibrium value
of the next level (the seats swap).  :func:`solve_equilibrium` solves the levels from the last to the
first by CFR+ (the layer's :func:`~ricochet_math.equilibrium.solving.solve`).  ``v(0)`` is the first
player's value of a pot, in antes.

**Exploitability of a pot strategy** (a profile per level): a best responder plays every level, as first
player at one and second at the next; her values ``BRF(k)`` (first at level ``k``) and ``BRS(k)`` come
backward too, the carry worth ``BRS(k + 1)`` to a first player and ``BRF(k + 1)`` to a second.  The pot's
NashConv is ``BRF(0) + BRS(0)`` (antes; 0 exactly at an equilibrium), and ``[-BRS(0), BRF(0)]`` brackets
the game's value for the first player.  A *policy's* exploitability is what a best response gains against
it per pot from a random seat, ``(BRF(0) + BRS(0)) / 2`` with the policy in both seats (its value
against itself is zero over the two seats).  Measured in the abstract tree and in the tree with every raise
size ``min_bet..max_bet`` (the abstract strategy reads an off-tree raise as the nearest abstract size:
:func:`~.betting_game.translate_history`).
"""
from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from ricochet_math.arguments import check_whole
from ricochet_math.errors import RicochetError
from ricochet_math.equilibrium.best_response import best_response, profile_from_mapping
from ricochet_math.equilibrium.cfr_kernel import expected_values
from ricochet_math.equilibrium.game import CHANCE
from ricochet_math.equilibrium.solving import MAX_ITERATIONS, solve
from ricochet_math.games.rococo.betting import BettingPolicy, policy
from ricochet_math.games.rococo.betting_game import (
    KIND_CARRY, Abstraction, BettingTree, RococoBettingGame, abstraction, build_betting_tree, translate_history,
)
from ricochet_math.games.rococo.blind_equilibrium import (
    BlindAnswer, blind_frames, blind_policy_profile, carried_amounts, carry_grid, check_blind_options,
    interpolation_check_amount, solve_states,
    state_best_responses, state_games_per_pot, state_value, continuation,
)
from ricochet_math.games.rococo.equilibrium_result import (
    RococoEquilibrium, games_per_pot, levels_frame, policy_betting,
)
from ricochet_math.games.rococo.exact_cards import pot_exact_card_best_responses
from ricochet_math.games.rococo.rules import RococoRules

__all__ = ["RococoEquilibrium", "solve_equilibrium", "SOLVER_NAMES", "write_equilibrium", "levels_frame", "FOLDER_KIND",
           "policy_profile", "translate_profile", "pot_best_responses",
           "pot_value", "terminal_reach", "carry_probabilities", "games_per_pot", "NAMED_POLICIES", "GRID_BEST"]

#: the policies measured against the equilibrium (``naive`` bets as ``standard``: in this first version the
#: exchange is held at the draw solver's table for both players, so its naive draw does not enter)
#: the grid best response to ``standard`` (docs/rococo-poker.md, "A best response": open two pair, call two
#: pair, always blind), its betting thresholds only (there is no blind game in this version)
GRID_BEST = BettingPolicy("grid-best-vs-standard", open="two pair", call="two pair")
NAMED_POLICIES = ("standard", "loose", "naive", "tight", "passive", GRID_BEST)
#: in the blind game the grid best response blinds 1 every time, as it does in the simulations
GRID_BEST_BLIND = BettingPolicy("grid-best-vs-standard-blind-1", open="two pair", call="two pair", blind_rate=1.0)
#: how :func:`solve_equilibrium` solves: the layer's CFR+ over the laid-out tree, or range against range
SOLVER_NAMES = ("tree", "ranges")
#: the policies measured in the blind game (by default those whose blind size the tree holds)
BLIND_POLICIES = ("standard", "loose", "naive", "tight", "passive", "blinder", GRID_BEST_BLIND)


def _parse_key(key: str) -> tuple[int, int, int, int, tuple[str, ...]]:
    """``(player, own discards, other's discards, bucket, moves)`` of an information-set key."""
    head, moves = key.split("|")
    who, rest = head[0], head[1:]
    counts, bucket = rest.split(":")
    da, db = (int(x) for x in counts.split("."))
    p = "AB".index(who)
    own, other = (da, db) if p == 0 else (db, da)
    return p, own, other, int(bucket), tuple(m for m in moves.split(".") if m)


def policy_profile(bt: BettingTree, spec) -> np.ndarray:
    """The threshold policy ``spec`` (a name or :class:`~.betting.BettingPolicy`) in both seats, as an entry
    array of ``bt``'s tree: facing no raise it raises ``raise_amount`` with ``open`` or better, else checks;
    facing a raise it re-raises with ``reraise`` or better while raises remain, else calls with ``call`` or
    better, else folds (:func:`~.engine.policy_action`).  The buckets are cut at the policies' thresholds,
    so a bucket's lowest value decides for all of it; a raise size the tree lacks is refused."""
    pol, action = policy_betting(bt.game, spec)
    game = bt.game
    if getattr(game, "blind", None) is not None:  # a blind game's tree: the blind round too
        return blind_policy_profile(bt, pol, action)
    mapping = {}
    for key, actions in zip(bt.tree.keys, bt.tree.actions):
        p, own, _, bucket, moves = _parse_key(key)
        mapping[key] = {action({"own": own, "bucket": bucket}, actions): 1.0}
    return profile_from_mapping(bt.tree, mapping)


def translate_profile(abstract: BettingTree, sigma: np.ndarray, full: BettingTree) -> np.ndarray:
    """An abstract tree's profile played in a tree with more raise sizes: at each information set of
    ``full`` the strategy of the abstract set whose moves are the same with every raise read as the nearest
    abstract size; the abstract sizes keep their probabilities, the others get none."""
    sizes = abstract.game.sizes
    at, ft = abstract.tree, full.tree
    out = np.zeros(ft.num_entries)
    for i, key in enumerate(ft.keys):
        head, moves = key.split("|")
        moves = tuple(m for m in moves.split(".") if m)
        akey = f"{head}|{'.'.join(translate_history(moves, sizes))}"
        j = at.index.get(akey)
        if j is None:
            raise RicochetError(f"the abstract strategy has no information set {akey!r} for {key!r}")
        actions = ft.actions[i]
        for a, prob in zip(at.actions[j], sigma[at.offset[j]:at.offset[j + 1]]):
            out[ft.offset[i] + actions.index(a)] = prob
    return out


def pot_best_responses(bt: BettingTree, profiles) -> tuple[np.ndarray, np.ndarray]:
    """``(BRF, BRS)``: a best responder's value per level as first and as second player against
    ``profiles[k]`` at every level (module text), in antes."""
    levels = bt.carry_limit + 1
    brf, brs = np.zeros(levels), np.zeros(levels)
    for k in range(levels - 1, -1, -1):
        carry = None if k == levels - 1 else (brs[k + 1], brf[k + 1])
        tree = bt.level_tree(k, carry)
        brf[k] = best_response(tree, profiles[k], 0)[0]
        brs[k] = best_response(tree, profiles[k], 1)[0]
    return brf, brs


def _combine(bt: BettingTree, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    return np.where(bt.tree.entry_player == 0, first, second)


def pot_value(bt: BettingTree, x, y) -> float:
    """The value per pot to a player who plays ``x[k]`` (profiles per level, her seat's part) and starts as
    first player, against ``y``; the seats alternate from level to level."""
    levels = bt.carry_limit + 1
    e = 0.0
    for k in range(levels - 1, -1, -1):
        first, second = (x, y) if k % 2 == 0 else (y, x)
        tree = bt.level_tree(k, None if k == levels - 1 else (-e, e))
        e = float(expected_values(*tree.kernel_arrays(), _combine(bt, first[k], second[k]))[0])
    return e


def terminal_reach(bt: BettingTree, sigma: np.ndarray) -> np.ndarray:
    """The probability of reaching each terminal of ``bt`` (in the order of ``bt.terminals``) under ``sigma``.

    The tree is breadth first, so the children of the nodes in order are the nodes 1, 2, ... in order and
    one pass per depth multiplies the reach down."""
    t = bt.tree
    n = t.num_nodes
    parents = np.repeat(np.arange(n), t.num_children)
    edge = np.empty(n)
    edge[0] = 1.0
    child = np.arange(1, n)
    j = child - t.first_child[parents]
    chance = t.player[parents] == CHANCE
    entry = np.where(chance, 0, t.offset[np.maximum(t.infoset[parents], 0)] + j)
    edge[1:] = np.where(chance, t.chance_prob[1:], sigma[entry])
    reach = np.empty(n)
    reach[0] = 1.0
    lo, hi = 0, 1
    while hi < n:
        width = int(t.num_children[lo:hi].sum())
        block = np.arange(hi, hi + width)
        reach[block] = reach[parents[block - 1]] * edge[block]
        lo, hi = hi, hi + width
    return reach[bt.terminals]


def carry_probabilities(bt: BettingTree, profiles) -> np.ndarray:
    """The probability that each level's game is all checks (its pot carries) under ``profiles``."""
    carry = bt.kind == KIND_CARRY
    return np.array([float(terminal_reach(bt, s)[carry].sum()) for s in profiles])


def _strategy_frame(bt: BettingTree, profiles) -> object:
    import pandas as pd

    t = bt.tree
    counts = np.diff(t.offset)
    parsed = [_parse_key(k) for k in t.keys]
    base = pd.DataFrame({
        "infoset": np.repeat(np.array(t.keys, dtype=object), counts),
        "player": np.repeat(["AB"[p[0]] for p in parsed], counts),
        "discards": np.repeat([p[1] for p in parsed], counts),
        "other_discards": np.repeat([p[2] for p in parsed], counts),
        "bucket": np.repeat([p[3] for p in parsed], counts),
        "bucket_from": np.repeat([int(bt.game.buckets.start[p[1]][p[3]]) for p in parsed], counts),
        "moves": np.repeat([".".join(p[4]) for p in parsed], counts),
        "action": [a for acts in t.actions for a in acts],
    })
    parts = []
    for k, sigma in enumerate(profiles):
        f = base.copy()
        f.insert(0, "level", k)
        f["probability"] = sigma
        parts.append(f)
    return pd.concat(parts, ignore_index=True)


#: the marker kind of a checkpoint folder of :func:`solve_equilibrium`
CHECKPOINT_KIND = "rococo-equilibrium-checkpoint"


def _checkpoint_folder(path, iterations: int):
    """The checkpoint folder, made and marked if new (with the iterations a level it is for); refused (one
    line) if it holds anything the toolkit did not write as one, or was written for another count."""
    import json
    from pathlib import Path

    from ricochet_math.storage import MARKER_NAME, check_output_folder, is_owned_folder, write_marker

    folder = check_output_folder(Path(path), CHECKPOINT_KIND, "checkpoint folder")
    if is_owned_folder(folder, CHECKPOINT_KIND):
        held = json.loads((folder / MARKER_NAME).read_text(encoding="utf-8")).get("iterations")
        if held != iterations:
            raise RicochetError(f"checkpoint folder {folder} is of a solve of {held!r} iterations a level, not "
                                f"{iterations:,} (each level's game depends on the deeper levels' values, so a "
                                "solve resumes only to its own count); nothing was written")
        return folder
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RicochetError(f"checkpoint folder {folder}: cannot be made ({exc.strerror or exc})") from None
    write_marker(folder, CHECKPOINT_KIND, iterations=iterations)
    return folder


def solve_equilibrium(abstraction_spec: Abstraction | str = "tiny", iterations: int = 1000, *,
                      rules: RococoRules | None = None, every: int | None = None, full_betting: bool = False,
                      policies=None, model=None, progress: bool = False,
                      checkpoint=None, exact_cards: bool = False, blind=None, blind_raises=(1, 3, 10),
                      carry_points: int | None = None, law=None, solver: str = "tree",
                      translation=None, schedule: str = "cfr+", every_blind_size: bool = False) -> RococoEquilibrium:
    """Solve heads-up Rococo's betting game (:mod:`~.betting_game`) at ``abstraction_spec`` (``tiny``,
    ``small``, ``default`` or an :class:`~.betting_game.Abstraction`) by CFR+ for ``iterations`` iterations at
    each level of the carried-pot recursion (``rules.carry_limit + 1`` levels), measuring every level's
    exploitability every ``every`` iterations; then the pot's exploitability, and that of each of
    ``policies``, in the abstract tree and (``full_betting``: a tree 28 times larger, about a minute to
    build at ``tiny``) with every raise size.  ``model``: the draw model (default: the draw solver's).
    ``exact_cards``: also measure with a best response that knows its exact final value
    (:mod:`~ricochet_math.games.rococo.exact_cards`: the card abstraction's cost), in the abstract tree and,
    with ``full_betting``, with every raise size too (the equilibrium only; minutes at ``tiny``).
    ``checkpoint``: a folder that keeps one layer checkpoint per level (``level-00.npz`` ...), written every
    ``every`` iterations and at the end of each level; a killed run given the same folder and count resumes
    (finished levels are read back, not solved again) with the uninterrupted digits.  Refused with one line
    and nothing written: a folder the toolkit did not write as a checkpoint folder, one written for another
    iteration count (a level's game depends on the deeper levels' values), a level checkpoint of another
    game, abstraction or table, or a damaged one (the layer's checks).

    **The blind decision** (:mod:`~.blind_game`, :mod:`~.blind_equilibrium`): ``blind=True`` (blind sizes 1,
    3, 10) or a tuple of blind sizes adds it (or an abstraction whose ``blind_sizes`` is set), with the second
    player's blind-round raises ``blind_raises`` (None: every size); the levels become states (carried amount,
    level), every reachable amount solved (exact) or, with ``carry_points=n``, ``n`` per level and the
    continuation interpolated between them; ``law``: the dealt law (default the draw solver's).  The result's
    ``blind`` holds the blind option's value against the same game without it (solved too) and the blind
    round's strategy.  ``policies`` default: :data:`NAMED_POLICIES` (:data:`BLIND_POLICIES` with the blind).

    ``solver``: ``"tree"`` (the layer's CFR+ over the laid-out tree) or ``"ranges"`` (CFR+ range against range
    over the betting histories, :mod:`~.range_equilibrium`: no tree, so every raise size 1..10 fits in the
    abstraction at ``default``, and with the blind decision each state range against range too,
    :mod:`~.range_blind_equilibrium`; no checkpoints, refused with one line);
    ``translation``: with it and ``full_betting``, how an off-tree raise is read
    (:mod:`~.translation`; default the nearest size); ``schedule``: ``"cfr+"`` or (ranges only) ``"dcfr"``
    (Discounted CFR 1.5, 0, 2); ``every_blind_size`` (the blind game range against range): also measure the
    exploitability when a best response may blind and raise the blind any size of the table
    (:func:`~.range_blind_equilibrium.solve_range_blind`).
    """
    spec = abstraction(abstraction_spec)
    if blind is not None and blind is not False:
        if spec.blind_sizes is not None:
            raise RicochetError(f"abstraction {spec.name!r} has its blind sizes already: leave out blind")
        spec = spec.with_blind((1, 3, 10) if blind is True else tuple(blind), blind_raises)
    iterations = check_whole(iterations, "iterations", low=1, high=MAX_ITERATIONS)
    rules = rules or RococoRules()
    if not isinstance(rules, RococoRules):
        raise RicochetError(f"rules must be RococoRules, got {type(rules).__name__}")
    if policies is None:
        policies = NAMED_POLICIES
        if spec.blind_sizes is not None:  # those whose blind size the tree holds (a named one blinds 1 or 2)
            held = {s for s in spec.blind_sizes if rules.min_bet <= s <= rules.max_bet}
            policies = tuple(p for p in BLIND_POLICIES if policy(p).blind_rate == 0
                             or min(max(policy(p).blind_amount, rules.min_bet), rules.max_bet) in held)
    policies = tuple(policy(p) for p in policies)  # an unknown name is refused before any work
    if solver not in SOLVER_NAMES:
        raise RicochetError(f"unknown Rococo equilibrium solver {solver!r:.40}; choose one of {', '.join(SOLVER_NAMES)}")
    if every_blind_size and (solver != "ranges" or spec.blind_sizes is None):
        raise RicochetError("every_blind_size is for the blind game solved range against range (blind=..., "
                            "solver='ranges')")
    if solver == "ranges":
        from ricochet_math.games.rococo.range_equilibrium import check_range_options, solve_range_equilibrium

        check_range_options(spec, checkpoint)
        if spec.blind_sizes is not None:
            from ricochet_math.games.rococo.range_blind_equilibrium import solve_range_blind

            check_blind_options(spec, full_betting, exact_cards)
            if carry_points is not None:
                check_whole(carry_points, "carry_points", low=2, high=10 ** 6)
            return solve_range_blind(spec, iterations, rules=rules, every=every, policies=policies, model=model,
                                     progress=progress, carry_points=carry_points, law=law, schedule=schedule,
                                     every_blind_size=every_blind_size)
        if carry_points is not None:
            raise RicochetError("carry_points is for the blind game (without it every carried pot of a level is the same)")
        return solve_range_equilibrium(spec, iterations, rules=rules, every=every, policies=policies, model=model,
                                       progress=progress, exact_cards=exact_cards, full_betting=full_betting,
                                       translation=translation, solver=schedule)
    if schedule != "cfr+":
        raise RicochetError(f"schedule {schedule!r:.20} is for solver='ranges' (the tree solver runs CFR+)")
    if translation is not None:
        raise RicochetError("translation is for solver='ranges' (the tree solver's every-raise-size measurement "
                            "reads the nearest size; measure_every_raise_size takes a translation)")
    if spec.blind_sizes is not None:
        check_blind_options(spec, full_betting, exact_cards)
        if carry_points is not None:
            check_whole(carry_points, "carry_points", low=2, high=10 ** 6)
        folder = None if checkpoint is None else _checkpoint_folder(checkpoint, iterations)
        return _solve_blind(spec, iterations, rules, every, policies, model, progress, folder, carry_points, law)
    if carry_points is not None:
        raise RicochetError("carry_points is for the blind game (without it every carried pot of a level is the same)")
    folder = None if checkpoint is None else _checkpoint_folder(checkpoint, iterations)
    seconds = {}
    start = time.perf_counter()
    bt = build_betting_tree(RococoBettingGame(rules, model, spec))
    seconds["build"] = time.perf_counter() - start
    levels = rules.carry_limit + 1
    # the policies on the tree before the solve: one the tree cannot play is refused before any work
    pol_profiles = {p.name: [policy_profile(bt, p)] * levels for p in policies}
    values = np.zeros(levels)
    profiles: list = [None] * levels
    curves = []
    start = time.perf_counter()
    for k in range(levels - 1, -1, -1):
        carry = None if k == levels - 1 else (-values[k + 1], values[k + 1])
        res = solve(bt.level_tree(k, carry), "cfr+", iterations, every=every, progress=progress,
                    checkpoint=None if folder is None else folder / f"level-{k:02d}.npz")
        values[k] = res.values[0]
        profiles[k] = res.average
        frame = res.curve_frame()
        frame.insert(0, "level", k)
        curves.append(frame)
    seconds["solve"] = time.perf_counter() - start
    start = time.perf_counter()
    brf, brs = pot_best_responses(bt, profiles)
    carry_prob = carry_probabilities(bt, profiles)
    rows = {}
    for name, prof in pol_profiles.items():
        f, s = pot_best_responses(bt, prof)
        as_first = pot_value(bt, prof, profiles)
        as_second = -pot_value(bt, profiles, prof)
        rows[name] = {"policy": name, "exploitability": (f[0] + s[0]) / 2,
                      "vs_equilibrium": (as_first + as_second) / 2,
                      "vs_equilibrium_as_first": as_first, "vs_equilibrium_as_second": as_second,
                      "self_first_player_value": pot_value(bt, prof, prof),
                      "self_games_per_pot": games_per_pot(carry_probabilities(bt, prof)),
                      "exploitability_full": np.nan, "exploitability_exact_cards": np.nan}
        if exact_cards:
            fx, sx = pot_exact_card_best_responses(bt, prof)
            rows[name]["exploitability_exact_cards"] = (fx[0] + sx[0]) / 2
    nash_cards = nash_cards_full = None
    if exact_cards:
        fx, sx = pot_exact_card_best_responses(bt, profiles)
        nash_cards = float(fx[0] + sx[0])
    seconds["measure"] = time.perf_counter() - start
    sizes = {"abstract": bt.tree.describe().split(": ", 1)[1]}
    nash_full = None
    if full_betting:
        start = time.perf_counter()
        fb = build_betting_tree(RococoBettingGame(rules, bt.game.model, spec.unabstracted_betting()))
        sizes["full"] = fb.tree.describe().split(": ", 1)[1]
        full_profiles = [translate_profile(bt, s, fb) for s in profiles]
        f, s = pot_best_responses(fb, full_profiles)
        nash_full = float(f[0] + s[0])
        for p in policies:
            name = p.name
            prof = [policy_profile(fb, p)] * levels
            f, s = pot_best_responses(fb, prof)
            rows[name]["exploitability_full"] = (f[0] + s[0]) / 2
        if exact_cards:
            fx, sx = pot_exact_card_best_responses(fb, full_profiles)
            nash_cards_full = float(fx[0] + sx[0])
        seconds["full"] = time.perf_counter() - start
    import pandas as pd

    return RococoEquilibrium(
        spec, rules, iterations, values, carry_prob, float(brf[0] + brs[0]), (float(-brs[0]), float(brf[0])),
        nash_full, pd.DataFrame(list(rows.values())), pd.concat(curves[::-1], ignore_index=True),
        _strategy_frame(bt, profiles), sizes, seconds, tuple(profiles), nash_cards, nash_cards_full)


def _blind_strategy_frame(bt: BettingTree, sigma: np.ndarray):
    """A blind game's strategy at one state (a fresh pot's): one row per information set and action."""
    import pandas as pd
    from ricochet_math.games.rococo.blind_game import parse_key

    t = bt.tree
    counts = np.diff(t.offset)
    parsed = [parse_key(k) for k in t.keys]
    start = bt.game.buckets.start
    frame = pd.DataFrame({
        "infoset": np.repeat(np.array(t.keys, dtype=object), counts),
        "player": np.repeat(["AB"[p["player"]] for p in parsed], counts),
        "line": np.repeat([p["line"] for p in parsed], counts),
        "dealt_bucket": np.repeat([p["dealt"] for p in parsed], counts),
        "discards": np.repeat([p["own"] for p in parsed], counts),
        "other_discards": np.repeat([p["other"] for p in parsed], counts),
        "bucket": np.repeat([p["bucket"] for p in parsed], counts),
        "bucket_from": np.repeat([int(start[p["own"]][p["bucket"]]) if p["bucket"] >= 0 else -1 for p in parsed],
                                 counts),
        "moves": np.repeat([".".join(p["moves"]) for p in parsed], counts),
        "action": [a for acts in t.actions for a in acts],
        "probability": sigma,
    })
    frame.insert(0, "carried", 0.0)
    frame.insert(0, "level", 0)
    return frame


def _solve_blind(spec, iterations, rules, every, policies, model, progress, folder, carry_points, law):
    """:func:`solve_equilibrium` with the blind decision (its text; :mod:`~.blind_equilibrium`)."""
    from ricochet_math.games.rococo.blind_game import RococoBlindGame

    seconds = {}
    start = time.perf_counter()
    bt = build_betting_tree(RococoBlindGame(rules, model, spec, law))
    seconds["build"] = time.perf_counter() - start
    levels = rules.carry_limit + 1
    pol_profiles = {p.name: policy_profile(bt, p) for p in policies}  # refused before the solve
    grid = carry_grid(bt, levels, carry_points)
    every_amount = carried_amounts(bt, levels)
    exact = all(len(g) == len(a) for g, a in zip(grid, every_amount))
    start = time.perf_counter()
    ss = solve_states(bt, levels, iterations, grid, every=every, progress=progress, checkpoint=folder)
    seconds["solve"] = time.perf_counter() - start
    start = time.perf_counter()
    baseline = solve_equilibrium(replace(spec, name=spec.name.split("+")[0], blind_sizes=None), iterations,
                                 rules=rules, model=bt.game.model, policies=())
    seconds["without_blind"] = time.perf_counter() - start
    start = time.perf_counter()
    interpolation_error = None
    c = interpolation_check_amount(every_amount, grid)
    if c is not None:
        carry = None
        if levels > 2:
            v = continuation(bt, grid[2], ss.values[2], c)
            carry = np.stack([-v, v], axis=1)
        direct = solve(bt.state_tree(c, 1, carry), "cfr+", iterations).values[0]
        interpolation_error = float(np.interp(c, grid[1], ss.values[1]) - direct)
    seconds["interpolation_check"] = time.perf_counter() - start
    start = time.perf_counter()
    brf, brs = state_best_responses(bt, grid, ss.profiles)
    reach = lambda s: terminal_reach(bt, s)  # noqa: E731
    carry_kind = bt.kind == KIND_CARRY
    carry_prob = np.array([float(reach(ss.profiles[k][0])[carry_kind].sum()) for k in range(levels)])
    _, pot_games = state_games_per_pot(bt, grid, ss.profiles, reach)
    rows = {}
    for name, prof in pol_profiles.items():
        f, s = state_best_responses(bt, grid, prof)
        as_first = state_value(bt, grid, prof, ss.profiles)
        as_second = -state_value(bt, grid, ss.profiles, prof)
        rows[name] = {"policy": name, "exploitability": (f[0][0] + s[0][0]) / 2,
                      "vs_equilibrium": (as_first + as_second) / 2,
                      "vs_equilibrium_as_first": as_first, "vs_equilibrium_as_second": as_second,
                      "self_first_player_value": state_value(bt, grid, prof, prof),
                      "self_games_per_pot": state_games_per_pot(bt, grid, prof, reach)[1],
                      "exploitability_full": np.nan, "exploitability_exact_cards": np.nan}  # not built yet
    seconds["measure"] = time.perf_counter() - start
    import pandas as pd

    decision, response = blind_frames(bt, ss.profiles[0][0])
    answer = BlindAnswer(float(ss.values[0][0]), baseline.first_player_value, float(brf[0][0] + brs[0][0]),
                         baseline.nash_conv, decision,
                         response, tuple(len(g) for g in grid), exact, interpolation_error)
    values = np.array([v[0] for v in ss.values])
    return RococoEquilibrium(
        spec, rules, iterations, values, carry_prob, float(brf[0][0] + brs[0][0]),
        (float(-brs[0][0]), float(brf[0][0])), None, pd.DataFrame(list(rows.values())), ss.curves,
        _blind_strategy_frame(bt, ss.profiles[0][0]), {"abstract": bt.tree.describe().split(": ", 1)[1]}, seconds,
        tuple(p[0] for p in ss.profiles), blind=answer, pot_games=pot_games)


#: the marker kind of a folder :func:`write_equilibrium` writes
FOLDER_KIND = "rococo-equilibrium"


def write_equilibrium(result: RococoEquilibrium, out, command: str | None = None) -> tuple[str, ...]:
    """Write ``result`` into the folder ``out`` (checked first: a folder the toolkit did not write is never
    replaced; everything is written beside it and moved into place when complete): ``strategy.csv`` (the
    first level's strategy, a fresh pot's: player, discard counts, bucket, moves, action, probability; the
    information-set key is those columns joined), ``curves.csv``, ``levels.csv``, ``policies.csv`` (full
    precision) and ``summary.txt`` (with ``command``).  Returns the file names."""
    import shutil

    from ricochet_math.storage import (
        STAGING_MARKER, atomic_write_text, prepare_output_folder, replace_folder, staging_folder, write_marker,
    )

    out = prepare_output_folder(out, FOLDER_KIND)
    tmp = staging_folder(out, FOLDER_KIND)
    strategy = result.to_frame()
    strategy = strategy[strategy.level == 0].drop(columns=["level", "infoset"])
    frames = {"strategy": strategy, "curves": result.curves, "levels": levels_frame(result),
              "policies": result.policies}
    if result.blind is not None:
        frames["blind"] = result.blind.answer_frame()
        frames["blind-decision"] = result.blind.decision
        frames["blind-response"] = result.blind.response
    try:
        for name, frame in frames.items():
            atomic_write_text(tmp / f"{name}.csv", frame.to_csv(index=False, float_format="%.17g"))
        lines = [result.summary(), f"seconds: {result.seconds}", f"trees: {result.tree_sizes}"]
        if command:
            lines.insert(0, f"command: {command}")
        atomic_write_text(tmp / "summary.txt", "\n".join(lines) + "\n")
        files = tuple(sorted(p.name for p in tmp.iterdir() if p.name != STAGING_MARKER))
        write_marker(tmp, FOLDER_KIND, abstraction=result.abstraction.name, iterations=result.iterations)
        replace_folder(tmp, out, FOLDER_KIND)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return files
