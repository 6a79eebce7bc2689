"""A Rococo equilibrium's exploitability with every raise size, measured range against range
(:mod:`~ricochet_math.games.rococo.range_response`) instead of in the tree with every raise size: the
equilibrium's and each named policy's, filled into the result ``solve_equilibrium`` gave
(``ricochet rococo equilibrium --full-betting-ranges``)."""
from __future__ import annotations

from ricochet_math.errors import RicochetError
from ricochet_math.games.rococo.betting_game import RococoBettingGame
from ricochet_math.games.rococo.range_response import pot_range_best_responses
from ricochet_math.games.rococo.translation import NEAREST, Translation

__all__ = ["measure_every_raise_size"]


def measure_every_raise_size(result, *, model=None, exact_cards: bool = False,
                             translation: Translation = NEAREST):
    """``result`` (a :class:`~ricochet_math.games.rococo.equilibrium.RococoEquilibrium`) with its
    exploitability with every raise size measured range against range (this module), not in a tree with
    every raise size: the pot's NashConv (``nash_conv_full``), each named policy's (``exploitability_full``,
    the policy in both seats) and, with ``exact_cards``, the NashConv against responders who know their
    exact final value too (``nash_conv_exact_cards_full``).  Equal to ``solve_equilibrium(...,
    full_betting=True)``'s figures (a test) at a fraction of the memory: the way at ``default``, whose tree
    with every raise size has about 17 million nodes.  ``model``: the draw model the result was solved
    with (default: the draw solver's).  The abstract tree is built again (seconds)."""
    import time
    from dataclasses import replace

    from ricochet_math.games.rococo.betting_game import build_betting_tree
    from ricochet_math.games.rococo.equilibrium import policy_profile

    if result.abstraction.blind_sizes is not None:  # the walk does not know the blind round yet
        raise RicochetError("the exploitability with every raise size is not measured yet for the blind game "
                            "(leave out --full-betting-ranges with --blind)")
    start = time.perf_counter()
    bt = build_betting_tree(RococoBettingGame(result.rules, model, result.abstraction))
    levels = bt.carry_limit + 1
    f, s = pot_range_best_responses(bt, result.profiles, translation=translation)
    policies = result.policies.copy()
    if len(policies):
        full = []
        for name in policies.policy:
            pf, ps = pot_range_best_responses(bt, [policy_profile(bt, _named(name))] * levels,
                                              translation=translation)
            full.append((pf[0] + ps[0]) / 2)
        policies["exploitability_full"] = full
    cards = None
    if exact_cards:
        fx, sx = pot_range_best_responses(bt, result.profiles, cards="exact", translation=translation)
        cards = float(fx[0] + sx[0])
    seconds = dict(result.seconds, full=time.perf_counter() - start)
    sizes = dict(result.tree_sizes, full=f"every raise size {bt.game.rules.min_bet}..{bt.game.rules.max_bet}, "
                 f"range against range over the betting histories (no tree), off-tree raises read by "
                 f"{translation.name}")
    return replace(result, nash_conv_full=float(f[0] + s[0]), policies=policies, seconds=seconds,
                   tree_sizes=sizes, nash_conv_exact_cards_full=cards if exact_cards
                   else result.nash_conv_exact_cards_full)


def _named(name: str):
    """A named policy of :data:`~ricochet_math.games.rococo.equilibrium.NAMED_POLICIES` by its name."""
    from ricochet_math.games.rococo.equilibrium import NAMED_POLICIES
    from ricochet_math.games.rococo.betting import policy

    for p in NAMED_POLICIES:
        if policy(p).name == name:
            return policy(p)
    return policy(name)
