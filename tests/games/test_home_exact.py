"""The compiled exact solver for two live hands (games/home/exact.py) against the readable expectimax
(games/home/solver.py): equal to 1e-12 on every action of random and constructed endgames, under every
rule option, two-player tables and the endgame of larger ones (dead cards)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ricochet_math.errors import RicochetError, TableStateError
from ricochet_math.evaluator.cards import parse_cards
from ricochet_math.games.home.exact import ExactSolver, solve_deals, solve_exact
from ricochet_math.games.home.rules import HomeRules
from ricochet_math.games.home.solver import (
    Position,
    TreeTooLarge,
    HomeSolver,
    position,
    solve,
)

TOL = 1e-12


def _random_positions(rules, rng, count, sizes, extra_pot=3, dead=0):
    """Random positions of two live hands (plus ``dead`` folded cards on larger tables) that are not over."""
    out = []
    n = rules.players
    while len(out) < count:
        deck = [int(c) for c in rng.permutation(rules.deck_size)]
        na, nb = (int(rng.choice(sizes)) for _ in range(2))
        a, b, gone = deck[:na], deck[na:na + nb], deck[na + nb:na + nb + dead]
        seats = [None] * n
        s1, s2 = rng.choice(n, size=2, replace=False)
        seats[s1], seats[s2] = tuple(sorted(a)), tuple(sorted(b))
        unseen = ((1 << rules.deck_size) - 1) & ~sum(1 << c for c in a + b + gone)
        pot = n + na + nb - 2 + int(rng.integers(0, extra_pot + 1))
        pos = Position(tuple(seats), pot, unseen)
        if HomeSolver(rules, 1).settle(pos.hands, pos.unseen)[1] is not None:  # else already over
            out.append(pos)
    return out


def _same(rules, pos, budget=20_000):
    try:
        slow = solve(rules, pos, budget=budget)
    except TreeTooLarge:
        return False
    fast = solve_exact(rules, pos, solver=ExactSolver(rules, _dead(rules, pos), capacity=1 << 16))
    assert fast.actor == slow.actor and fast.best == slow.best
    assert len(fast.values) == len(slow.values)
    for vf, vs in zip(fast.values, slow.values):
        assert np.allclose(vf, vs, rtol=0, atol=TOL), (pos, vf, vs)
    return True


def _dead(rules, pos):
    live = 0
    for h in pos.hands:
        for c in h or ():
            live |= 1 << c
    return ((1 << rules.deck_size) - 1) & ~pos.unseen & ~live


@pytest.mark.parametrize("rules, sizes, count", [
    (HomeRules(players=2), [3, 4, 5], 15),
    (HomeRules(players=2, tie_ends=True), [4, 5], 10),
    (HomeRules(players=2, stuck="showdown"), [4, 5], 10),
    (HomeRules(players=2, hand_limit=6), [5, 6], 10),
    (HomeRules(players=2, jokers=True), [4, 5], 10),
    (HomeRules(players=2, variant="ricochet2"), [4, 5], 5),
])
def test_exact_equals_the_readable_solver_two_players(rules, sizes, count):
    rng = np.random.default_rng(15)
    done = sum(_same(rules, pos) for pos in _random_positions(rules, rng, count, sizes))
    assert done >= count * 0.6  # most fit the readable budget


def test_exact_equals_the_readable_solver_endgame_of_larger_tables():
    """Two hands left of four: the folded hands' cards are dead for the rest of the game."""
    rules = HomeRules(players=4)
    rng = np.random.default_rng(16)
    positions = _random_positions(rules, rng, 12, [4, 5], dead=int(rng.integers(2, 9)))
    assert sum(_same(rules, pos) for pos in positions) >= 8


def test_identical_ranks_use_the_suit_tie_break():
    """K-7-3-2 against K-7-3-2: the king of spades is the higher hand, the diamond king's hand acts; swapping the
    kings' suits swaps who acts (the tie-break is not suit-symmetric: the solver keeps suits as dealt)."""
    rules = HomeRules(players=2)
    acts = []
    for hands in (["Kd 7c 2h 3c", "Ks 7h 2s 3d"], ["Ks 7c 2h 3c", "Kd 7h 2s 3d"], ["Kc 7c 2c 3c", "Kh 7h 2s 3h"]):
        pos = position(rules, hands, 8)
        assert _same(rules, pos, budget=400_000)
        acts.append(solve_exact(rules, pos).actor)
    assert acts == [0, 1, 0]
    for options in ({"tie_ends": True}, {"stuck": "showdown"}):
        r = HomeRules(players=2, **options)
        assert _same(r, position(r, ["Kd 7c 2h 3c", "Ks 7h 2s"], 7), budget=400_000)


def test_table_reuse_and_growth():
    """One table serves many positions and grows (re-solving) without changing a digit."""
    rules = HomeRules(players=2)
    rng = np.random.default_rng(17)
    positions = _random_positions(rules, rng, 6, [3, 4])
    small = ExactSolver(rules, capacity=16)
    big = ExactSolver(rules, capacity=1 << 18)
    for pos in positions:
        a, b = solve_exact(rules, pos, solver=small), solve_exact(rules, pos, solver=big)
        assert a.values == b.values
    assert small.capacity > 16  # grown; a full table is dropped and re-solved (its last values are unsound)
    with pytest.raises(RicochetError, match="full"):
        solve_exact(rules, positions[0], solver=ExactSolver(rules, capacity=16, max_capacity=64))


def test_refusals():
    rules = HomeRules(players=3)
    pos = position(rules, ["Kd 7c", "Ks 7h", "2c 3c"], 3)
    with pytest.raises(TableStateError, match="two live hands"):
        solve_exact(rules, pos)
    with pytest.raises(RicochetError, match="two-player"):
        solve_deals(rules)


def test_deal_values_add_to_zero_and_match_the_readable_solver():
    """:func:`solve_deals` on hand-picked deals (dealt as if they were the starting cards, pot 2): each seat's
    EV is its readable-solver value less the ante, and the two add up to zero."""
    rules = HomeRules(players=2)
    deals = [((0, 13, 26, 39), (4, 21, 38)), ((12, 25, 50, 3), (11, 24, 51, 1)), ((5, 9, 44, 30), (6, 10, 45, 31))]
    table = solve_deals(rules, deals)
    assert len(table.to_frame()) == 3 and "first to act" in table.summary()
    assert len(table.by_order()) == 2 and len(table.by_seat()) == 2 and len(table.by_start_card()) >= 2
    for d in table.deals:
        assert d.ev_first + d.ev_second == pytest.approx(0, abs=TOL)
        pos = Position((d.first, d.second), 2, ((1 << 52) - 1) & ~sum(1 << c for c in d.first + d.second))
        slow = solve(rules, pos, budget=400_000)
        assert (slow.actor == 0) == d.first_acts
        assert slow.values[slow.best][0] - 1 == pytest.approx(d.ev_first, abs=TOL)
        assert slow.values[slow.best][1] - 1 == pytest.approx(d.ev_second, abs=TOL)


def test_optimal_strategy_uses_the_exact_solver_with_two_live_hands():
    """Along a two-player game, the optimal strategy's buy at room <= 4 is the exact solver's, which is the
    readable solver's where that one fits; shortcut_error scores the exact pick itself at zero regret."""
    from ricochet_math.games.home.deal import deal_deck
    from ricochet_math.games.home.engine import HomeGame
    from ricochet_math.games.home.exact import exact_buy
    from ricochet_math.games.home.shortcuts import game_positions, shortcut_error
    from ricochet_math.games.home.solver import best_buy
    from ricochet_math.games.home.strategies import parse_strategy

    rules = HomeRules(players=2)
    optimal, checked = parse_strategy("optimal"), 0
    for seed in range(10):
        game = HomeGame(rules, deal_deck(rules, seed=seed))
        rng = [seed]
        while not game.is_terminal():
            room = sum(5 - len(game.hands[s]) for s in game.live())
            k = optimal.decide(game.view(), list(rng))
            if room <= 4:
                assert k == exact_buy(game)
            if room <= 3:
                slow = best_buy(game, budget=100_000)
                if slow is not None:
                    assert k == slow
                    checked += 1
            game.apply(k)
    assert checked >= 3
    positions = game_positions(rules, 12, 3, max_room=4)
    assert len(positions) >= 3
    frame = shortcut_error(rules, positions, depths=(1,), rules_names=("pot-odds", "min-lift"))
    assert list(frame.method) == ["depth 1", "pot-odds", "min-lift"]
    assert (frame.positions + frame.left_out == len(positions)).all()
    assert (frame.mean_regret >= -TOL).all() and (frame.agree <= 1).all()


def test_optimal_two_player_games_same_on_any_number_of_threads():
    """The optimal strategy's exact tables are per thread: 1 and 2 workers give the same figures."""
    from ricochet_math.games.home.analysis import simulate_games
    rules = HomeRules(players=2)
    one = simulate_games(rules, "optimal", 8, 5, batch_size=4, workers=1).by_order()
    two = simulate_games(rules, "optimal", 8, 5, batch_size=4, workers=2).by_order()
    pd.testing.assert_frame_equal(one, two)


def test_the_shared_table_is_emptied_when_full(monkeypatch):
    """Positions solved one after another in this thread's shared table: when it fills up it is emptied and
    the position solved again from empty, with the same values as a fresh table."""
    import ricochet_math.games.home.exact as exact
    monkeypatch.setattr(exact, "SHARED_CAPACITY", 1 << 12)
    monkeypatch.setattr(exact, "DEFAULT_CAPACITY", 1 << 12)
    monkeypatch.setattr(exact, "_LOCAL", exact.threading.local())
    rules = HomeRules(players=2)
    rng = np.random.default_rng(19)
    for pos in _random_positions(rules, rng, 8, [3, 4]):
        try:
            fresh = solve_exact(rules, pos, solver=ExactSolver(rules, capacity=1 << 18))
        except RicochetError:
            continue
        if fresh.nodes * 4 > (1 << 12) * 3:
            continue  # larger than the small shared table itself
        assert solve_exact(rules, pos).values == fresh.values
    assert exact.exact_solver(rules).positions > 0


def test_bad_masks_are_refused_in_one_line():
    """A mask built with a narrow integer type (``1 << c`` on int8 cards) used to send the kernel
    round an endless loop; every malformed position is now refused before the kernel runs."""
    solver = ExactSolver(HomeRules(), capacity=1 << 10)
    kd, ks = 1 << 45, 1 << 47  # K♦, K♠ (card = rank * 4 + suit)
    a, b = (sum(1 << int(c) for c in parse_cards(t)) for t in ("Kd 5h 8d 8s", "2h 2d 9c 7s"))
    assert np.isfinite(solver.values([a], [b], [15])[0])  # two cards of room: 18 positions
    bad = np.int64(np.int8(1) << np.int8(7))  # what an int8 shift gives: -128
    for a, b, pot, match in ((int(bad), ks, 2, "not a set of live cards"), (kd, 1 << 60, 2, "not a set"),
                             (kd, kd, 2, "share cards"), (0b111111, ks, 2, "over the limit"),
                             (kd, ks, -1, "pot")):
        with pytest.raises(RicochetError, match=match):
            solver.values([a], [b], [pot])
    with pytest.raises(RicochetError, match="share cards"):
        solver.action_values(kd, kd | ks, 2)
