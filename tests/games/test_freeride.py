"""Free Ride Poker: rules, the readable engine, the numba kernel (tested equal), strategies, simulations."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from ricochet_math.errors import RuleError, StrategyError
from ricochet_math.evaluator.cards import parse_cards
from ricochet_math.games.freeride.analysis import best_response, free_ride_value, simulate_games, simulate_rounds
from ricochet_math.games.freeride.engine import Round, game_decks, play_game, play_round, player_leaves
from ricochet_math.games.freeride.kernel import game_trajectory, play_games
from ricochet_math.games.freeride.rules import FreeRideRules
from ricochet_math.games.freeride.strategies import FOLD, View, get_strategy, kernel_decide, plan_of

STRATS = ["computer", "cautious", "bold", "hider", "always", "t:x,88,TT,KK:weak"]
RULES = [FreeRideRules(), FreeRideRules(opening="hand"), FreeRideRules(opening="rotate", odd_chips="carry"),
         FreeRideRules(free_ride=False), FreeRideRules(refill_after_last=True, start_chips=12)]


def deck_with(front: str) -> list[int]:
    """A deck whose first cards are ``front`` (in order), the rest in card order."""
    head = [int(c) for c in parse_cards(front)]
    return head + [c for c in range(52) if c not in head]


# ------------------------------------------------------------------ rules read from the seed

def test_lowest_opening_card_starts_suits_break_ties():
    # seat 0 opens 2s, seat 1 opens 2c: same rank, clubs is the lowest suit (spades highest) -> seat 1
    deck = deck_with("2s 9s Ts Js Qs  2c 9c Tc Jc Qc")
    rnd = Round(FreeRideRules(), [50, 50], deck)
    weak = get_strategy("t:x,x,x,x:weak")
    while rnd.opening:
        rnd.apply(weak.decide(rnd.view()))
    assert rnd.up == [[int(parse_cards("2s")[0])], [int(parse_cards("2c")[0])]]
    assert rnd.starter == 1 and rnd.current_seat() == 1


def test_fold_prices_and_showdown_loss():
    rules = FreeRideRules()
    deck = deck_with("2c 3d 4h 5s 7c  As Ah Ad Ac Kc")  # seat 1 holds four aces
    fold_at = {}
    for k in (1, 2, 3, 4):
        rnd = Round(rules, [50, 50], deck)
        while not rnd.is_terminal():
            s = rnd.current_seat()
            v = rnd.view()
            if s == 0 and not v.opening and len(v.face_up) == k:
                rnd.apply(FOLD)
            else:
                rnd.apply(get_strategy("always").decide(v))
        fold_at[k] = rnd.record().net
    assert fold_at == {1: [-1, 1], 2: [-2, 2], 3: [-3, 3], 4: [-5, 5]}
    rec = play_round(rules, [get_strategy("always").decide] * 2, [50, 50], deck)
    assert rec.net == [-10, 10] and rec.fold_stage == [-1, -1]


def test_free_ride_loser_pays_what_she_has_and_is_out():
    deck = deck_with("2c 3d 4h 5s 7c  As Ah Ad Ac Kc")
    always = get_strategy("always").decide
    rec = play_round(FreeRideRules(), [always, always], [3, 50], deck)
    assert rec.chips_after == [0, 53] and rec.free_rides[0] == 2  # cards 4 and 5 expose her to 5 and 10 chips
    no_ride = play_round(FreeRideRules(free_ride=False), [always, always], [3, 50], deck)
    assert no_ride.fold_stage[0] == 3 and no_ride.chips_after == [0, 53]  # she must fold before the 4th card
    game = play_game(None, ["always", "always"], decks=[deck] * 3, chips=[3, 50])
    assert game.rounds == 1 and game.winners == [1]


def test_tie_splits_and_odd_chips():
    # both play the same straight; seat 2 folds at once and leaves 1 chip
    deck = deck_with("2c 3c 4c 5c 6d  2d 3d 4d 5d 6h  Kh 9s 7s Jd Qh")
    deciders = [get_strategy("always").decide] * 2 + [lambda v: FOLD if not v.opening else min(v.hand)]
    first = play_round(FreeRideRules(), deciders, [50, 50, 50], deck)
    assert sum(first.chips_after) == 150 and first.carry == 0 and sorted(first.net) == [-1, 0, 1]
    carry = play_round(FreeRideRules(odd_chips="carry"), deciders, [50, 50, 50], deck)
    assert carry.chips_after == [50, 50, 49] and carry.carry == 1


def test_a_player_leaving_splits_her_chips_and_the_middle():
    assert player_leaves([10, 20, 30, 40], 1, middle=3) == [10 + 7, 0, 30 + 8, 40 + 8]  # 23 = 8, 8, 7 from her left


def test_rules_are_checked():
    with pytest.raises(RuleError, match="opening"):
        FreeRideRules(opening="dealer")
    with pytest.raises(RuleError, match="fold_costs"):
        FreeRideRules(fold_costs=(1, 2, 3))
    with pytest.raises(RuleError, match="players"):
        FreeRideRules().seats_for(7)
    assert FreeRideRules().seats_for(1) == 4  # the seed's computer players fill a table to four
    with pytest.raises(StrategyError):
        get_strategy("t:x,x,x")


# ------------------------------------------------------------------ the kernel against the engine

@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.opening}-{r.free_ride}-{r.odd_chips}-{r.start_chips}")
def test_kernel_plays_the_engines_games(rules):
    for seed in range(12):
        n = 2 + seed % 5
        strats = [STRATS[(seed + i) % len(STRATS)] for i in range(n)]
        game = play_game(rules, strats, seed=seed)
        decks = np.array(list(itertools.islice(game_decks(np.random.SeedSequence(seed)), game.rounds)))
        kernel = game_trajectory(strats, rules, decks)
        assert np.array_equal(kernel, np.array([r.chips_after for r in game.round_records])), (seed, strats)
        assert sum(game.chips) + game.carry == rules.start_chips * n  # chips are conserved


def test_batch_sums_match_the_engine():
    strats = ["computer", "bold", "hider"]
    ss = np.random.SeedSequence(11)
    sums = play_games(strats, None, ss, 25)
    decks = game_decks(ss)  # one stream of decks for the whole batch, as the kernel deals
    rounds, chips, win = 0, np.zeros(3, int), np.zeros(3)
    for _ in range(25):
        g = play_game(None, strats, decks=decks)
        rounds += g.rounds
        chips += g.chips
        for w in g.winners:
            win[w] += 1.0 / len(g.winners)
    assert sums["rounds"][0] == rounds and np.array_equal(sums["chips"], chips) and np.array_equal(sums["win"], win)


def test_strategy_twins_agree():
    rng = np.random.default_rng(5)
    for trial in range(400):
        cards = rng.permutation(52)
        k = trial % 5
        n = 2 + trial % 4
        boards = [tuple(int(c) for c in cards[10 + 5 * s:10 + 5 * s + rng.integers(0, 5)]) for s in range(n)]
        boards[0] = tuple(int(c) for c in cards[5:5 + k])
        hand = tuple(sorted(int(c) for c in cards[:5]))
        active = tuple(bool(x) for x in rng.integers(0, 2, n))
        strat = get_strategy(STRATS[trial % len(STRATS)])
        opening = k == 0 and trial % 2 == 0
        view = View(0, hand, boards[0], tuple(boards), active, 50, opening)
        ups = np.zeros((n, 5), np.int64)
        nup = np.array([len(b) for b in boards], np.int64)
        for s, b in enumerate(boards):
            ups[s, :len(b)] = b
        got = kernel_decide(0, np.array(hand + (0,), np.int64), 5, ups, nup, np.array(active), strat.row(), opening)
        assert got == strat.decide(view), (trial, strat.name)


def test_plan_is_the_best_finish():
    value, plan = plan_of(parse_cards("As Ad"), parse_cards("Ah 2c 7d 9s Ks"))
    assert set(plan) == set(int(c) for c in parse_cards("Ah Ks 9s"))  # trips of aces, K-9 kickers


def test_six_seats_run_the_deck_dry_and_still_agree():
    strats = ["always"] * 6  # 30 cards dealt, 22 refills for 24 plays: the deck runs out
    game = play_game(None, strats, seed=3)
    assert any("draws" not in h for h in game.round_records[0].history if "plays 4" in h) or game.rounds >= 1
    decks = np.array(list(itertools.islice(game_decks(np.random.SeedSequence(3)), game.rounds)))
    assert np.array_equal(game_trajectory(strats, None, decks), np.array([r.chips_after for r in game.round_records]))


# ------------------------------------------------------------------ simulations

def test_games_same_digits_for_any_workers():
    a = simulate_games(["computer", "bold"], games=3000, seed=9, workers=1, batch_size=500)
    b = simulate_games(["computer", "bold"], games=3000, seed=9, workers=2, batch_size=500)
    assert all(np.array_equal(a.sums[k], b.sums[k]) for k in a.sums)
    assert a.strategies == ("computer", "bold", "computer", "computer")  # filled to four seats
    assert abs(a.to_frame()["win"].sum() - 1.0) < 1e-12


def test_identical_players_share_the_wins():
    r = simulate_games(["computer"] * 4, games=4000, seed=2026)
    for s in range(4):  # seed 2026, 4000 games: each seat within a few standard errors of 1/4
        w = r.win(s)
        assert abs(w.estimate - 0.25) < 4 * w.std_error
    assert 10 < r.length.estimate < 16 and r.sums["unfinished"][0] == 0


def test_rounds_by_position_sum_to_zero():
    r = simulate_rounds(["computer"] * 4, rounds=20_000, seed=1)
    assert r.sums["net"].sum() == 0 and r.sums["net_pos"].sum() == 0
    assert r.sums["fold_stage"].sum() == 4 * 20_000


def test_best_response_and_free_ride_value_run():
    br = best_response(["always", "computer"], seats=(2, 3), games=400, seed=1)
    assert set(br.best()) == {2, 3} and len(br.to_frame()) == 4
    fr = free_ride_value(games=500, seed=1)
    t = fr.to_frame()
    assert t.loc[1, "free_rides_per_game"] == 0 and t.loc[0, "free_rides_per_game"] > 0
