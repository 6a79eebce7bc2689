"""Heads-up Rococo at equilibrium with the blind decision: the carried-pot recursion on the pot's *carried
amount* as well as its level, and the value of the blind option.

**The recursion.**  With a blind game the chips a carry adds depend on the blind round (``2 S``, ``S`` the
equal stakes it left: :attr:`~.betting_game.BettingTree.carry_stakes`), so a game is a *state* ``(C, k)``:
``C`` chips carried in, ``k`` games carried so far.  Its value to its first player is ``v(C, k)``; a carry
terminal of the state is worth ``-v(C + 2 S, k + 1)`` to him (the seats swap); at ``k = carry_limit`` two
checks are a showdown.  The amounts reachable at level ``k`` are the sums of ``k`` carries' chips
(:func:`carried_amounts`).  With ``carry_points=None`` every reachable amount is solved: the recursion is
**exact** (a test builds the whole pot as one tree and finds the same value by the sequence-form LP).  With
``carry_points=n`` each level solves ``n`` of its amounts (the smallest, the largest and others evenly spaced
among them; level 0 has one) and a carry into an amount between two solved ones is valued by linear
interpolation between them: an **approximation** of the continuation value (the game's utilities are affine in
``C`` for fixed strategies, its value is not), whose size :func:`solve_blind_equilibrium` measures by solving
a level-1 amount the grid skips directly (``RococoEquilibrium.blind.interpolation_error``).

Every measurement (best responses, a strategy against another, games per pot) runs the same backward
recursion over the states, the continuation read off the same grid.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ricochet_math.errors import RicochetError, StrategyError
from ricochet_math.equilibrium.best_response import best_response, profile_from_mapping
from ricochet_math.equilibrium.cfr_kernel import expected_values
from ricochet_math.equilibrium.solving import solve
from ricochet_math.games.rococo.betting import BettingPolicy, policy
from ricochet_math.games.rococo.betting_game import KIND_CARRY, BettingTree
from ricochet_math.games.rococo.blind_game import parse_key

__all__ = ["carried_amounts", "carry_grid", "continuation", "interpolation_check_amount", "StateSolve",
           "solve_states", "state_best_responses", "state_value", "state_games_per_pot", "blind_round_rule", "blind_policy_profile",
           "BlindAnswer", "blind_frames", "check_blind_options"]


def carried_amounts(bt: BettingTree, levels: int) -> list[np.ndarray]:
    """Per level ``k``, every carried amount (chips) a pot can bring into its ``k``-th game: the sums of
    ``k`` carries' chips."""
    steps = np.unique(bt.carry_stakes)
    out = [np.array([0.0])]
    for _ in range(1, levels):
        out.append(np.unique((out[-1][:, None] + steps[None, :]).ravel()))
    return out


def carry_grid(bt: BettingTree, levels: int, points: int | None) -> list[np.ndarray]:
    """The amounts solved at each level: all reachable ones (``points=None``: exact), or ``points`` of them
    (the smallest and the largest always; the others evenly spaced by rank)."""
    every = carried_amounts(bt, levels)
    if points is None:
        return every
    if points < 2:
        raise RicochetError(f"carry_points must be at least 2 (the smallest and largest amounts), got {points}")
    return [a if len(a) <= points else a[np.unique(np.round(np.linspace(0, len(a) - 1, points)).astype(int))]
            for a in every]


def continuation(bt: BettingTree, grid_next: np.ndarray, values_next: np.ndarray, carried: float) -> np.ndarray:
    """Per carry terminal, ``values_next`` (one per amount of ``grid_next``) at the amount the carry brings
    (exact at a solved amount, linear between two)."""
    at = carried + bt.carry_stakes
    lo, hi = grid_next[0], grid_next[-1]
    if at.min() < lo - 1e-9 or at.max() > hi + 1e-9:  # never: the grid spans every reachable amount
        raise RicochetError(f"a carry to {at.min():g}..{at.max():g} chips is outside the solved {lo:g}..{hi:g}")
    return np.interp(at, grid_next, values_next)


def interpolation_check_amount(every: list, grid: list) -> float | None:
    """The level-1 carried amount the interpolation check solves directly: the middle one of those the grid
    skips (None when the grid holds every level-1 amount, or there is no level 1)."""
    if len(grid) < 2:
        return None
    skipped = np.setdiff1d(every[1], grid[1])
    return float(skipped[len(skipped) // 2]) if len(skipped) else None


@dataclass(frozen=True, eq=False)
class StateSolve:
    """The states' equilibrium: ``grid[k]`` the solved amounts of level ``k``, ``values[k]`` the first
    player's value at each, ``profiles[k][i]`` the average strategy there, ``curves`` the CFR+ curves
    (one frame with level and carried columns)."""

    grid: list
    values: list
    profiles: list
    curves: object


def solve_states(bt: BettingTree, levels: int, iterations: int, grid, *, every=None, progress=False,
                 checkpoint=None) -> StateSolve:
    """CFR+ at every state of ``grid``, backward from the last level (module text)."""
    import pandas as pd

    values = [None] * levels
    profiles = [None] * levels
    curves = []
    for k in range(levels - 1, -1, -1):
        vals, profs = [], []
        for i, c in enumerate(grid[k]):
            carry = None
            if k < levels - 1:
                v = continuation(bt, grid[k + 1], values[k + 1], c)
                carry = np.stack([-v, v], axis=1)
            path = None if checkpoint is None else checkpoint / f"level-{k:02d}-carried-{int(round(c)):05d}.npz"
            res = solve(bt.state_tree(c, k, carry), "cfr+", iterations, every=every, progress=progress,
                        checkpoint=path)
            vals.append(res.values[0])
            profs.append(res.average)
            frame = res.curve_frame()
            frame.insert(0, "carried", float(c))
            frame.insert(0, "level", k)
            curves.append(frame)
        values[k], profiles[k] = np.array(vals), profs
    return StateSolve(grid, values, profiles, pd.concat(curves[::-1], ignore_index=True))


def _profile_at(profiles, k, i):
    """A pot strategy's profile at state ``(k, i)``: per-state lists, or one array for every state."""
    p = profiles[k] if isinstance(profiles, (list, tuple)) else profiles
    return p[i] if isinstance(p, (list, tuple)) else p


def state_best_responses(bt: BettingTree, grid, profiles) -> tuple[list, list]:
    """``(BRF, BRS)`` per state: a best responder's value as first and as second player from that state on,
    against ``profiles`` (per-state lists, or one entry array for every state); a carry is worth ``BRS`` of
    the next state to a first player and ``BRF`` to a second."""
    levels = len(grid)
    brf, brs = [None] * levels, [None] * levels
    for k in range(levels - 1, -1, -1):
        f, s = [], []
        for i, c in enumerate(grid[k]):
            carry = None
            if k < levels - 1:
                carry = np.stack([continuation(bt, grid[k + 1], brs[k + 1], c),
                                  continuation(bt, grid[k + 1], brf[k + 1], c)], axis=1)
            tree = bt.state_tree(c, k, carry)
            sigma = _profile_at(profiles, k, i)
            f.append(best_response(tree, sigma, 0)[0])
            s.append(best_response(tree, sigma, 1)[0])
        brf[k], brs[k] = np.array(f), np.array(s)
    return brf, brs


def state_value(bt: BettingTree, grid, x, y) -> float:
    """The value per pot to a player who plays ``x`` and starts as first player, against ``y`` (each
    per-state lists or one entry array); the seats alternate from level to level."""
    levels = len(grid)
    seat = np.where(bt.tree.entry_player == 0, 0, 1)
    e = None
    for k in range(levels - 1, -1, -1):
        out = []
        for i, c in enumerate(grid[k]):
            carry = None
            if k < levels - 1:
                v = continuation(bt, grid[k + 1], e, c)
                carry = np.stack([-v, v], axis=1)
            first, second = (x, y) if k % 2 == 0 else (y, x)
            sigma = np.where(seat == 0, _profile_at(first, k, i), _profile_at(second, k, i))
            tree = bt.state_tree(c, k, carry)
            out.append(float(expected_values(*tree.kernel_arrays(), sigma)[0]))
        e = np.array(out)
    return float(e[0])


def state_games_per_pot(bt: BettingTree, grid, profiles, reach) -> tuple[float, float]:
    """``(carry probability of a fresh pot's first game, expected games per pot)`` under ``profiles``;
    ``reach(sigma)`` gives each terminal's reach probability."""
    levels = len(grid)
    carry = bt.kind == KIND_CARRY
    g = None
    first_carry = 0.0
    for k in range(levels - 1, -1, -1):
        out = []
        for i, c in enumerate(grid[k]):
            r = reach(_profile_at(profiles, k, i))[carry]
            if k == 0:
                first_carry = float(r.sum())
            out.append(1.0 if k == levels - 1 else 1.0 + float(r @ continuation(bt, grid[k + 1], g, c)))
        g = np.array(out)
    return first_carry, float(g[0])


def blind_round_rule(game, spec):
    """The blind round of the threshold policy ``spec`` in the blind game ``game``: ``(decision, answer,
    defends)``: ``decision`` the first player's probability of each blind-round action (``d``, and
    ``b<blind_amount>`` with ``blind_rate``); ``answer(g, actions)`` the second player's action facing a
    blind with dealt bucket ``g`` (by its lowest value: raises ``raise_amount`` with ``blind_raise`` or
    better, calls with ``blind_call`` or better, else folds); ``defends``: whether the blind player, still
    blind, calls a raise.  A blind or raise size the game lacks is refused."""
    pol: BettingPolicy = policy(spec)
    rules = game.rules
    clip = lambda x: min(max(int(x), rules.min_bet), rules.max_bet)  # noqa: E731
    blind, raise_ = clip(pol.blind_amount), clip(pol.raise_amount)
    if pol.blind_rate > 0 and blind not in game.blind:
        raise StrategyError(f"policy {pol.name!r} blinds {blind}, which abstraction {game.spec.name!r} lacks (blind "
                            f"sizes {', '.join(map(str, game.blind))})")
    b_call, b_raise = pol.threshold("blind_call"), pol.threshold("blind_raise")
    if b_raise < 10 ** 9 and pol.blind_raise is not None and raise_ not in game.blind_raises:
        raise StrategyError(f"policy {pol.name!r} raises {raise_} in the blind round, which abstraction "
                            f"{game.spec.name!r} lacks")
    rate = float(pol.blind_rate)
    decision = {a: q for a, q in {"d": 1.0 - rate, f"b{blind}": rate}.items() if q > 0}

    def answer(g: int, actions) -> str:
        lo = int(game.law.start[g])
        if pol.blind_raise is not None and lo >= b_raise and f"r{raise_}" in actions:
            return f"r{raise_}"
        return "k" if lo >= b_call else "f"

    return decision, answer, bool(pol.blind_defend)


def blind_policy_profile(bt: BettingTree, spec, betting_action) -> np.ndarray:
    """The threshold policy ``spec`` in both seats on a blind game's tree: the blind round by
    :func:`blind_round_rule`, the betting round by ``betting_action(parsed key, actions)``
    (:func:`~.equilibrium.policy_profile`'s rule).  A blind or raise size the tree lacks is refused."""
    decision, answer, defends = blind_round_rule(bt.game, spec)
    mapping = {}
    for key, actions in zip(bt.tree.keys, bt.tree.actions):
        k = parse_key(key)
        if key == "A:blind|":
            mapping[key] = decision
        elif key.startswith("A:blind|"):
            mapping[key] = {"k" if defends else "f": 1.0}
        elif key.startswith("B:g"):
            mapping[key] = {answer(k["dealt"], actions): 1.0}
        else:
            mapping[key] = {betting_action(k, actions): 1.0}
    return profile_from_mapping(bt.tree, mapping)


@dataclass(frozen=True, eq=False)
class BlindAnswer:
    """What the blind decision is worth at equilibrium (antes per pot; exact for the model when
    ``exact``, else with the carry interpolation of the module text).

    ``value``: the first player's value per pot with the blind available; ``value_without``: the same game
    without it (the first version's, same cards, table and iterations); ``option_value`` their difference
    (what adding the blind to the rules is worth to the player who moves first in a pot; over the two seats
    it is 0, as every figure per seat); ``nash_conv`` and ``nash_conv_without`` the two solves' exploitability
    (each value is within its NashConv of its abstract game's value, so the difference is known to within
    their sum: :attr:`option_bounds`); ``decision``: the first player's blind decision in a fresh pot (the
    probability of displaying and of each blind size; from the range solver also ``best_value_if_chosen``, the most
    that choice can bring him per pot, playing best after it against the second player's equilibrium); ``response``: the second player's blind-round
    response per blind size and dealt bucket (fold, call, each raise) with the bucket's probability, and the
    blind player's call probability facing each raise; ``states`` the solved states per level; ``exact``;
    ``interpolation_error`` (None when exact): at level 1, the interpolated value at an amount the grid
    skips minus its direct solve; ``nash_conv_every_blind_size`` (None: not measured): the pot strategy's
    NashConv when the best responses may blind and raise the blind every size ``min_bet..max_bet`` and the
    strategy reads a size its blind round lacks as the nearest one (:func:`~.range_blind.translate_state_profile`)."""

    value: float
    value_without: float
    nash_conv: float
    nash_conv_without: float
    decision: object
    response: object
    states: tuple
    exact: bool
    interpolation_error: float | None
    nash_conv_every_blind_size: float | None = None

    @property
    def option_value(self) -> float:
        return self.value - self.value_without

    @property
    def option_bounds(self) -> tuple[float, float]:
        """The interval the blind option's value (of the abstract games) lies in, from the two NashConvs."""
        half = self.nash_conv + self.nash_conv_without
        return self.option_value - half, self.option_value + half

    def to_frame(self):
        return self.response.copy()

    def answer_frame(self):
        """One row: the values with and without the blind, the option's value and its bounds, the NashConvs,
        how often the first player blinds, and how the continuation was valued."""
        import pandas as pd

        d = self.decision.set_index("action").probability
        lo, hi = self.option_bounds
        return pd.DataFrame([{"value_with_blind": self.value, "value_without_blind": self.value_without,
                              "option_value": self.option_value, "option_low": lo, "option_high": hi,
                              "nash_conv": self.nash_conv, "nash_conv_without": self.nash_conv_without,
                              "blind_probability": 1.0 - float(d.get("d", 0.0)), "exact": self.exact,
                              "interpolation_error": self.interpolation_error,
                              "states": " ".join(map(str, self.states)),
                              "nash_conv_every_blind_size": self.nash_conv_every_blind_size}])

    def summary(self) -> str:
        d = self.decision.set_index("action").probability
        blind = 1.0 - float(d.get("d", 0.0))
        sizes = ", ".join(f"{a[1:]}: {p:.1%}" for a, p in d.items() if a != "d" and p > 5e-4) or "none"
        how = ("exact for the model" if self.exact else
               f"carry continuation interpolated, level-1 check {self.interpolation_error:+.2g}")
        lo, hi = self.option_bounds
        every = ("" if self.nash_conv_every_blind_size is None else
                 f"; NashConv {self.nash_conv_every_blind_size:.3g} with every blind and blind-round raise size")
        return (f"the blind option is worth {self.option_value:+.4f} antes per pot to the first player, within "
                f"[{lo:+.4f}, {hi:+.4f}] ({self.value:+.4f} with it, {self.value_without:+.4f} without, NashConvs "
                f"{self.nash_conv:.3g} and {self.nash_conv_without:.3g}; {how}; states solved per level "
                f"{', '.join(map(str, self.states))}{every}); he blinds {blind:.1%} of fresh pots (by size: {sizes})")


def blind_frames(bt: BettingTree, sigma: np.ndarray):
    """``(decision, response)`` frames of a blind game's profile ``sigma`` (see :class:`BlindAnswer`)."""
    import pandas as pd

    t, game = bt.tree, bt.game

    def probs(key):
        i = t.index[key]
        return dict(zip(t.actions[i], sigma[t.offset[i]:t.offset[i + 1]]))

    decision = pd.DataFrame([{"action": a, "probability": float(p)} for a, p in probs("A:blind|").items()])
    rows = []
    for b in game.blind:
        for g, pg in enumerate(game.law.prob):
            key = f"B:g{g}|b{b}"
            if key not in t.index:
                continue
            row = {"blind": b, "dealt_bucket": g, "dealt_from": int(game.law.start[g]), "bucket_probability": float(pg)}
            row.update({{"f": "fold", "k": "call"}.get(a, f"raise_{a[1:]}"): float(p) for a, p in probs(key).items()})
            for r in game.blind_raises:
                row[f"blind_calls_{r}"] = float(probs(f"A:blind|b{b}.r{r}")["k"])
            rows.append(row)
    return decision, pd.DataFrame(rows)


def check_blind_options(spec, full_betting: bool, exact_cards: bool) -> None:
    """The measurements not yet built for the blind game are refused before any work (one line)."""
    if spec.blind_sizes is not None and (full_betting or exact_cards):
        raise RicochetError(f"abstraction {spec.name!r}: with the blind decision the exploitability with every raise "
                            "size and with exact cards are not measured yet (leave out full_betting and exact_cards)")
