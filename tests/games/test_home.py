"""The home game and Ricochet Poker II: rules, hand keys, the rulebook's example, kernel = readable engine,
the simulation's sums and tests, the expectimax solver."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from ricochet_math.errors import RicochetError, StrategyError, TableStateError
from ricochet_math.evaluator.cards import parse_cards
from ricochet_math.games.home.analysis import simulate, simulate_games
from ricochet_math.games.home.deal import batch_decks, deal_deck
from ricochet_math.games.home.engine import BEATEN, FOLDED, HomeGame, play_deck
from ricochet_math.games.home.hands import hand_keys, reference_order_key, reference_rank_key
from ricochet_math.games.home.kernel import play_batch
from ricochet_math.games.home.rules import HomeRules
from ricochet_math.games.home.solver import TreeTooLarge, depth_error, position, solve
from ricochet_math.games.home.strategies import parse_strategies, parse_strategy


# ---------------------------------------------------------------- rules
@pytest.mark.parametrize("options, fragment", [
    ({"players": 1}, "players"), ({"players": 9}, "players"), ({"start_cards": 3}, "start_cards"),
    ({"hand_limit": 8}, "hand_limit"), ({"variant": "casino"}, "variant"), ({"stuck": "refund"}, "stuck"),
    ({"variant": "ricochet2", "hand_limit": 7}, "Ricochet Poker II"), ({"variant": "ricochet2", "jokers": True}, "II"),
    ({"jokers": 1}, "jokers"),
    ({"tie_ends": 1}, "tie_ends"),
])
def test_bad_rules_are_one_line_errors(options, fragment):
    with pytest.raises(RicochetError, match=fragment):
        HomeRules(**options)


def test_strategy_names():
    assert parse_strategy("pot-odds:1.5").param == 1.5
    assert parse_strategy("optimal").param == 2
    for bad in ("always", "one:2", "pot-odds:x", "pot-odds:0", "optimal:1.5"):
        with pytest.raises(StrategyError):
            parse_strategy(bad)
    with pytest.raises(StrategyError, match="one per seat"):
        parse_strategies(["one", "limit"], 3)


# ---------------------------------------------------------------- hand keys
def _random_hands(rng, count, sizes, deck=52):
    for _ in range(count):
        n = int(rng.choice(sizes))
        yield [int(c) for c in rng.choice(deck, size=n, replace=False)]


def test_keys_order_hands_as_the_readable_twin():
    """Kernel keys sort 1..7-card hands exactly as the readable tuples (kicker rule, best five, tie suit)."""
    rng = np.random.default_rng(11)
    hands = list(_random_hands(rng, 300, [1, 2, 3, 4, 5, 6, 7]))
    # with jokers (bugs): every hand holds one or both, so the joker paths meet the plain ones
    hands += [h + [52 + (i % 2)] + ([53 - (i % 2)] if i % 5 == 0 else []) for i, h in
              enumerate(_random_hands(rng, 60, [0, 1, 2, 3, 4]))]
    fast = [hand_keys(np.array(h, dtype=np.int64), len(h)) for h in hands]
    slow = [(reference_rank_key(h), reference_order_key(h)) for h in hands]  # (rank tuple, (rank tuple, suit))
    for i, j in itertools.combinations(range(len(hands)), 2):
        (fa, fb), (sa, sb) = (fast[i], fast[j]), (slow[i], slow[j])
        assert (fa[0] < fb[0]) == (sa[0] < sb[0]) and (fa[0] == fb[0]) == (sa[0] == sb[0])
        assert (fa[1] < fb[1]) == (sa[1] < sb[1]), (hands[i], hands[j])


@pytest.mark.parametrize("low, high", [
    ("Kd", "Jk"), ("Jk", "As"), ("Jk", "Ac 2d"), ("7c 7d 7h Jk", "7s 7c 7d 7h"),  # a bug is an ace, never a 4th seven
    ("Ks Kd 7c 7h Jk", "Ks Kd Kh 7c 7h"), ("9h 9d 8s 6c Jk", "Ts 9c 8d 7h 6s"),  # two pair + ace; a straight
    ("As", "As 8d"),              # the rulebook: an ace-eight beats an ace alone
    ("Kd", "Ac"), ("Ac", "2c 2d"), ("7c 2d", "7h 2s"),  # clubs < diamonds < hearts < spades on identical hands
    ("8c 8s", "8d 8h 2c"), ("Kd 5h 8d 8s", "Kd 5h 8d 8s 2c"),
])
def test_comparisons_from_the_rulebook(low, high):
    key = lambda text: hand_keys(np.array(parse_cards(text, jokers=True), dtype=np.int64),  # noqa: E731
                                 len(parse_cards(text, jokers=True)))[1]
    assert key(low) < key(high)


# ---------------------------------------------------------------- the rulebook's example
def test_the_rulebooks_four_player_example():
    """'An Example of Play' (rulebook, first section), as far as it goes: pots 4, 7, 9, 11, 15, and the
    player with the pair of twos is then lowest and may buy one card."""
    first = [int(c) for c in parse_cards("Kd Jc 8h 7s 2h 9c 2d 9h Qd 5h 8d 8s")]
    game = HomeGame(HomeRules(players=4), first + [c for c in range(52) if c not in first])
    assert game.pot == 4 and game.current == 3  # the 7♠ acts first
    steps = [(3, 3, 7, 2), (2, 0, 7, 3), (3, 2, 9, 1), (1, 2, 11, 0), (0, 4, 15, 3)]
    for seat, buy, pot, nxt in steps:
        assert game.current == seat
        game.apply(buy)
        assert game.pot == pot and game.current == nxt
    assert game.hands[3] == [int(c) for c in parse_cards("7s 2h 9c 2d")]  # stopped on the 2♦
    assert game.hands[0] == [int(c) for c in parse_cards("Kd 5h 8d 8s")]  # three of the four cards
    assert game.status[2] == FOLDED and game.status[1] == BEATEN
    assert game.max_buy() == 1
    # the solver's advice at that point: buy the one card (2 nines, 3 sevens and 2 twos lift it)
    pos = position(HomeRules(players=4), ["Kd 5h 8d 8s", "", "", "2h 2d 9c 7s"], 15, dead="8h Jc 9h Qd")
    assert solve(HomeRules(players=4), pos).best == 1


# ---------------------------------------------------------------- kernel = readable engine
@pytest.mark.parametrize("rules", [
    HomeRules(players=2), HomeRules(players=4), HomeRules(players=8, hand_limit=7, start_cards=2),
    HomeRules(players=5, hand_limit=6), HomeRules(players=3, stuck="showdown"), HomeRules(players=6, tie_ends=True),
    HomeRules(players=8, hand_limit=7), HomeRules(players=3, variant="ricochet2"),
    HomeRules(players=4, jokers=True), HomeRules(players=8, hand_limit=7, start_cards=2, jokers=True),
], ids=lambda r: r.name)
@pytest.mark.parametrize("strategy", ["one", "limit", "min-lift", "pot-odds", ["pot-odds:0.5", "one", "limit"]],
                         ids=str)
def test_kernel_equals_the_readable_engine_record_for_record(rules, strategy):
    if isinstance(strategy, list):
        strategy = (strategy * 3)[:rules.players]
    strategies = parse_strategies(strategy, rules.players)
    decks, seeds = batch_decks(np.random.SeedSequence(20261130), 60, rules.deck_size)
    rec = play_batch(rules, strategies, decks, seeds)
    for g in range(len(decks)):
        game = play_deck(rules, strategies, decks[g], int(seeds[g]))
        assert (game.pot, game.actions) == (rec.pot[g], rec.actions[g])
        for s in game.seats:
            assert (s.net, s.share, s.order, s.status, s.bought, s.received, s.turns, s.paid) == (
                rec.net[g, s.seat], rec.share[g, s.seat], rec.order[g, s.seat], rec.status[g, s.seat],
                rec.bought[g, s.seat], rec.received[g, s.seat], rec.turns[g, s.seat], rec.paid[g, s.seat])
            assert tuple(rec.cards[g, s.seat, :len(s.cards)]) == s.cards
        assert abs(sum(s.net for s in game.seats)) < 1e-9  # chips are conserved


def test_readable_simulation_has_the_kernels_sums():
    a = simulate(HomeRules(players=3), "min-lift", 400, seed=3, batch_size=150)
    b = simulate_games(HomeRules(players=3), "min-lift", 400, seed=3, batch_size=150)
    assert a.sums.keys() == b.sums.keys()
    assert all(np.array_equal(a.sums[k], b.sums[k]) for k in a.sums)


def test_same_digits_for_any_number_of_workers():
    one = simulate(HomeRules(players=4), "pot-odds", 3000, seed=9, batch_size=500, workers=1)
    two = simulate(HomeRules(players=4), "pot-odds", 3000, seed=9, batch_size=500, workers=2)
    assert all(np.array_equal(one.sums[k], two.sums[k]) for k in one.sums)


def test_ricochet2_is_the_home_game_with_its_defaults():
    a = simulate(HomeRules(players=4), "one", 2000, seed=5)
    b = simulate(HomeRules(players=4, variant="ricochet2"), "one", 2000, seed=5)
    assert all(np.array_equal(a.sums[k], b.sums[k]) for k in a.sums)


# ---------------------------------------------------------------- figures
def test_seats_are_fair_and_the_order_of_play_is_not():
    """Seat 20,000 games, seed 2026, 4 players, min-lift: seat EVs within 4 standard errors of 0 (they are
    exactly 0 by symmetry), the Wald test does not reject at 0.1%; the last to act (the highest card)
    wins more than the first by far."""
    sim = simulate(HomeRules(players=4), "min-lift", 20_000, seed=2026)
    seat = sim.by_seat()
    assert np.all(np.abs(seat.ev) < 4 * (seat.ev_high - seat.ev) / 1.96)
    assert sim.seat_test().p_value > 0.001
    order = sim.by_order()
    assert order.ev.iloc[-1] - order.ev.iloc[0] > 1.0
    assert sim.order_test().p_value < 1e-6
    assert abs(order.ev.sum()) < 1e-9 and abs(seat.win_rate.sum() - 1.0) < 1e-9
    start = sim.by_start()
    assert start.games.sum() == 4 * 20_000
    assert start.ev.iloc[-1] > start.ev.iloc[0]  # an ace starts better than a two


def test_min_lift_pot_matches_hand_count():
    """Every chip in the pot is an ante or a bought card."""
    sim = simulate(HomeRules(players=5), "limit", 2000, seed=4)
    assert sim.sums["pot"][0] == 5 * 2000 + sim.sums["bought"][0]


# ---------------------------------------------------------------- solver
def test_exact_solver_one_card_endgame_by_hand():
    """Two players, each at four cards: the lowest (2♥2♦9♣7♠ against K♦8♦8♠5♥) may buy one card.  It lifts
    with 7 of the 44 unseen cards (two 9s, three 7s, two 2s); then the other, lowest with room 1, and so on.
    Folding is worth 0; the solver's value of buying must equal a Monte Carlo of the same play
    (500 playouts, seed 1, within 4 standard errors)."""
    rules = HomeRules(players=2)
    pos = position(rules, ["Kd 5h 8d 8s", "2h 2d 9c 7s"], 15)
    sol = solve(rules, pos)
    assert sol.actor == 1 and sol.exact and sol.best == 1 and sol.values[1][1] > 0
    # the values of one seat's actions: each action's values over the seats add up to the pot + the buy
    for k, v in enumerate(sol.values):
        assert abs(sum(v) - (pos.pot + k) + k) < 1e-9 if k else abs(sum(v) - pos.pot) < 1e-9
    # second path: play it out on the readable engine with the exact strategy
    first = [int(c) for c in parse_cards("Kd 2h 5h 8d 8s 2d 9c 7s")]
    rng = np.random.default_rng(1)
    nets = []
    for _ in range(500):
        rest = [c for c in rng.permutation(52).tolist() if c not in first]
        game = HomeGame(rules, first + rest)
        # set the table to the position: four cards each, the antes and a pot of 15 as in the rulebook
        game.hands = [first[0:1] + first[2:5], first[1:2] + first[5:8]]
        game.next_card, game.pot, game.paid = 8, 15, [0, 0]  # paid from here on
        game._advance()
        while not game.is_terminal():
            game.apply(solve(rules, _pos(game)).best)
        nets.append(game.pot * game.share[1] - game.paid[1])
    mean, se = np.mean(nets), np.std(nets) / np.sqrt(len(nets))
    assert abs(mean - sol.values[sol.best][1]) < 4 * se


def _pos(game):
    from ricochet_math.games.home.solver import position_of_game
    return position_of_game(game)


def test_depth_limited_search_against_exact():
    rules = HomeRules(players=2)
    rng = np.random.default_rng(3)
    positions = []
    for _ in range(6):
        cards = [int(c) for c in rng.choice(52, 7, replace=False)]
        hands = [tuple(sorted(cards[:3])), tuple(sorted(cards[3:7]))]
        unseen = ((1 << 52) - 1) & ~sum(1 << c for c in cards)
        from ricochet_math.games.home.solver import Position
        positions.append(Position(tuple(hands), 6, unseen))
    table = depth_error(rules, positions, depths=(1,))
    row = table.set_index("method").loc["depth 1"]
    assert row.positions == 6 and 0 <= row.mean_regret <= row.max_regret
    assert row.agree >= 0.5


def test_solver_budget_and_errors():
    rules = HomeRules(players=2)
    with pytest.raises(TreeTooLarge):
        solve(rules, position(rules, ["Kd", "2h"], 2), budget=1000)
    with pytest.raises(TableStateError):
        position(rules, ["Kd", ""], 2)
    with pytest.raises(RicochetError):
        position(rules, ["Kd", "Kd"], 2)


def test_deal_deck_puts_chosen_cards_first():
    rules = HomeRules(players=3)
    deck = deal_deck(rules, start=["Kd", "?", "7s"], then="2h 9c", seed=1)
    assert deck[0] == parse_cards("Kd")[0] and deck[2] == parse_cards("7s")[0]
    assert list(deck[3:5]) == list(parse_cards("2h 9c")) and sorted(deck) == list(range(52))


def test_jokers_are_bugs_in_the_game():
    """Two jokers in a 54-card deck (bugs): the deck is checked, a joker start is read, and a seeded run
    of 20,000 four-player games (seed 1) has fair seats and the joker as the best start."""
    rules = HomeRules(players=3, jokers=True)
    deck = deal_deck(rules, start=["Jk", "Kd", "?"], seed=2)
    assert len(deck) == 54 and deck[0] in (52, 53)
    with pytest.raises(TableStateError):
        HomeGame(rules, list(range(52)))
    sim = simulate(HomeRules(players=4, jokers=True), "min-lift", 20_000, seed=1)
    start = sim.by_start().set_index("start_card")
    assert start.loc["joker", "games"] > 0 and start.loc["joker", "ev"] > start.loc["K", "ev"]
    assert sim.seat_test().p_value > 0.001
