"""The solver's shortcuts (depth-limited search, the pot-odds and min-lift rules) against the exact
two-live-hand solver, on the positions real two-player games reach.

Separate from :mod:`ricochet_math.games.home.exact` because it plays games on the engine, and the engine's
strategies call the exact solver.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ricochet_math.arguments import check_instance, check_seed, check_whole
from ricochet_math.errors import RicochetError, quote
from ricochet_math.games.home.deal import batch_decks
from ricochet_math.games.home.engine import HomeGame
from ricochet_math.games.home.exact import solve_exact
from ricochet_math.games.home.rules import HomeRules
from ricochet_math.games.home.solver import (
    Position,
    TreeTooLarge,
    keys_of,
    HomeSolver,
    position_of_game,
    solve,
)
from ricochet_math.games.home.strategies import View, parse_strategies, parse_strategy

__all__ = ["game_positions", "shortcut_error"]

def game_positions(rules: HomeRules, games: int, seed: int, *, strategy: str = "pot-odds",
                   max_room: int = 5) -> list[Position]:
    """The decision positions of ``games`` two-live-hand games (readable engine, ``strategy`` at every seat,
    decks from ``seed``) whose two hands have at most ``max_room`` cards of room between them: the positions
    real play reaches, where the exact solver runs in seconds."""

    check_instance(rules, HomeRules, "rules")
    games = check_whole(games, "games", high=10**6)
    seed = check_seed(seed, allow_none=False)
    max_room = check_whole(max_room, "max_room", high=2 * rules.hand_limit)
    strategies = parse_strategies(strategy, rules.players)
    decks, seeds = batch_decks(np.random.SeedSequence(seed), games, rules.deck_size)
    out = []
    for g in range(games):
        game = HomeGame(rules, decks[g])
        rng = [int(seeds[g])]
        while not game.is_terminal():
            live = game.live()
            room = sum(rules.hand_limit - len(game.hands[s]) for s in live)
            if len(live) == 2 and room <= max_room:
                out.append(position_of_game(game))
            game.apply(int(strategies[game.current].decide(game.view(), rng)))
    return out


def _rule_pick(rules: HomeRules, name: str):
    """A kernel strategy's buy at a position (the pot-odds draws from a fixed splitmix64 state)."""
    strategy = parse_strategy(name)

    def pick(pos: Position) -> int:
        low, room = HomeSolver(rules, 10).settle(pos.hands, pos.unseen)
        target = min(keys_of(h)[1] for s, h in enumerate(pos.hands) if h is not None and s != low)
        live = sum(h is not None for h in pos.hands)
        view = View(pos.hands[low], target, pos.pot, room, live, tuple(pos.unseen_cards()))
        return int(strategy.decide(view, [12345]))
    return pick


def shortcut_error(rules: HomeRules, positions, *, depths=(1, 2), rules_names=("pot-odds", "min-lift"),
                   budget: int = 50_000) -> pd.DataFrame:
    """Each shortcut's decisions against the exact solver's on ``positions`` (two live hands): the share that
    agree, and the mean and largest regret (the acting seat's exact EV of the best action less that of the
    shortcut's, chips).  Shortcuts: the readable solver cut at each of ``depths`` (a showdown at the cut;
    positions whose cut tree exceeds ``budget`` are left out of that row and counted) and the kernel rules."""
    check_instance(rules, HomeRules, "rules")
    budget = check_whole(budget, "budget", high=10**9)
    if isinstance(depths, (str, bytes)) or not hasattr(depths, "__iter__") or not len(depths := tuple(depths)):
        raise RicochetError(f"depths must be a list of whole numbers 1..100, got {quote(depths)}")
    depths = tuple(check_whole(d, "a depth", high=100) for d in depths)
    positions = list(positions) if hasattr(positions, "__iter__") and not isinstance(positions, str) else None
    if positions is None or not all(isinstance(p, Position) for p in positions):
        raise RicochetError("positions must be a list of Position (rm.home.position)")
    picks = {f"depth {d}": (lambda pos, d=d: solve(rules, pos, depth=d, budget=budget).best) for d in depths}
    picks.update({name: _rule_pick(rules, name) for name in rules_names})
    rows: dict = {name: [] for name in picks}
    skipped = dict.fromkeys(picks, 0)
    for pos in positions:
        exact = solve_exact(rules, pos)
        ev = [v[exact.actor] for v in exact.values]
        for name, fn in picks.items():
            try:
                k = min(fn(pos), len(ev) - 1)
            except TreeTooLarge:
                skipped[name] += 1
                continue
            rows[name].append((k == exact.best, ev[exact.best] - ev[k]))
    return pd.DataFrame([{"method": name, "positions": len(r), "left_out": skipped[name],
                          "agree": np.mean([a for a, _ in r]) if r else np.nan,
                          "mean_regret": np.mean([x for _, x in r]) if r else np.nan,
                          "max_regret": np.max([x for _, x in r]) if r else np.nan} for name, r in rows.items()])
