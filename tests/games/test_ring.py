"""Ring Poker: the rules (the seed's three examples), the readable engine against the batch kernel,
the strategies' kernel against their readable twins, and the scoring against its readable twin."""
from __future__ import annotations

import numpy as np
import pytest

from ricochet_math.errors import RicochetError, RuleError, StrategyError
from ricochet_math.games.ring.arrangement import OpponentModel, arrange
from ricochet_math.games.ring.engine import RingGame, play_game
from ricochet_math.games.ring.future import (
    FUTURE_SAMPLES,
    decision_seed,
    future_values,
    reference_future_values,
    value_model,
)
from ricochet_math.games.ring.hands import parse_ring_cards
from ricochet_math.games.ring.kernel import play_batch
from ricochet_math.games.ring.rules import Joker, RingRules
from ricochet_math.games.ring.scoring import reference_score, score
from ricochet_math.games.ring.strategies import (
    STRATEGIES,
    choose_pair,
    legal_pairs,
    potential,
    reference_choose,
    reference_potential,
    strategy_code,
)


def _deck_with_first_ring(ring_text: str) -> np.ndarray:
    """A deck whose first face-up ring (depth 0 of piles 0..5) is ``ring_text``; the rest in order."""
    first = list(parse_ring_cards(ring_text))
    rest = [c for c in range(54) if c not in first]
    piles = np.array(rest).reshape(6, 8)
    return np.concatenate([np.concatenate([[first[p]], piles[p]]) for p in range(6)])


# The seed's ring (shared/seeds/002, "Examples"): Q♦ 7♥ 7♣ K♠ 5♠ 9♠ around the circle.
SEED_RING = "Qd 7h 7c Ks 5s 9s"


def test_seed_example_six_adjacent_pairs():
    # "the 7♥ is adjacent to the Q♦ and the 7♣": every card to both neighbours, all the way round
    game = RingGame(RingRules(players=2), _deck_with_first_ring(SEED_RING))
    assert game.ring == list(parse_ring_cards(SEED_RING))
    assert game.legal_moves() == [0, 1, 2, 3, 4, 5]  # six pairs; pair 5 is (9s, Qd) across the join
    assert {0, 1} <= {p for p in game.legal_moves()}  # Qd-7h and 7h-7c


def test_seed_example_three_pairs_left():
    # "Once the 7♥ and the 7♣ are taken ... the Q♦ and the K♠ ... aren't adjacent, so 3 pairs are left"
    game = RingGame(RingRules(players=2), _deck_with_first_ring(SEED_RING))
    game.apply(1)  # 7h 7c
    assert game.ring[1] == game.ring[2] == -1
    assert game.legal_moves() == [3, 4, 5]  # Ks-5s, 5s-9s, 9s-Qd
    assert 0 not in game.legal_moves() and 2 not in game.legal_moves()  # Qd and Ks are not a pair


def test_seed_example_two_cards_left():
    # "You take the 7♥ and the 7♣ first.  Your opponent ... the 5♠ and the 9♠ ... That leaves the Q♦
    # and the K♠, and the round ends."
    game = RingGame(RingRules(players=2), _deck_with_first_ring(SEED_RING))
    game.apply(1)
    assert game.current_seat() == 1
    game.apply(4)
    h = game.history
    assert [t.how for t in h] == ["pair", "pair", "discard"]
    assert set(h[2].cards) == set(parse_ring_cards("Qd Ks"))
    assert game.round == 1 and game.current_seat() == 1  # the first player moved one seat left
    assert sorted(game.holdings[0]) == sorted(parse_ring_cards("7h 7c"))
    assert sorted(game.holdings[1]) == sorted(parse_ring_cards("5s 9s"))


def test_three_players_leftover_and_rotation():
    rules = RingRules(players=3)
    game = RingGame(rules, np.arange(54))
    for r in range(9):
        assert game.current_seat() == r % 3
        first = game.current_seat()
        game.apply(game.legal_moves()[0])
        game.apply(game.legal_moves()[0])
        last = game.history[-1]
        assert last.how == "leftover" and last.seat == (first + 2) % 3
    assert game.is_terminal() and [len(h) for h in game.holdings] == [18, 18, 18]
    assert sorted(c for h in game.holdings for c in h) == list(range(54))


def test_two_players_discard_eighteen_cards_and_no_rotation_variant():
    game = RingGame(RingRules(players=2, rotate=False), np.arange(54))
    while not game.is_terminal():
        assert game.current_seat() in (0, 1)
        game.apply(game.legal_moves()[-1])
    assert [len(h) for h in game.holdings] == [18, 18]
    assert all(t.seat == 0 for t in game.history[0::3])  # seat 0 first every round
    assert sum(1 for t in game.history if t.how == "discard") == 9


def test_illegal_move_and_bad_options():
    game = RingGame(RingRules(), np.arange(54))
    game.apply(0)
    with pytest.raises(RicochetError, match="not the start of an adjacent pair"):
        game.apply(5)  # (5, 0): position 0 is a gap
    with pytest.raises(RuleError, match="2 or 3 players"):
        RingRules(players=4)
    with pytest.raises(RuleError, match="joker rule"):
        RingRules(joker="purple")
    with pytest.raises(StrategyError, match="unknown Ring Poker strategy"):
        strategy_code("bluff")
    assert RingRules(joker="wild").joker == Joker.WILD and RingRules().joker == Joker.BUG


def test_potential_kernel_equals_readable():
    rng = np.random.default_rng(3)
    for _ in range(300):
        n = int(rng.integers(0, 19))
        cards = rng.choice(54, n, replace=False)
        assert potential(cards.astype(np.int64), n) == reference_potential(cards)
    # the formula on one holding: a pair of aces (24), three hearts (9), a joker (18)
    assert reference_potential(parse_ring_cards("Ah Ac 2h 3h Jk")) == 24 + 9 + 18


@pytest.mark.parametrize("players", [2, 3])
def test_choose_pair_kernel_equals_readable(players):
    rng = np.random.default_rng(10 + players)
    model = value_model(RingRules())
    for i in range(200):
        deck = rng.permutation(54)
        ring = deck[:6].copy()
        holdings = [list(deck[6 + 8 * s: 6 + 8 * s + int(rng.integers(0, 9))]) for s in range(players)]
        gaps = int(rng.integers(0, 2))
        if gaps:
            p = int(rng.integers(0, 6))
            ring[p] = ring[(p + 1) % 6] = -1
        held = np.zeros((players, 20), dtype=np.int64)
        n = np.array([len(h) for h in holdings], dtype=np.int64)
        for s, h in enumerate(holdings):
            held[s, :len(h)] = h
        seat, draw = int(rng.integers(0, players)), int(rng.integers(0, 60))
        # cards turned up so far: the ring, every holding, and (2 players) some discards
        seen = list(deck[:6 + 8 * players + int(rng.integers(0, 4))])
        mask = np.int64(sum(1 << int(c) for c in seen))
        for code, name in enumerate(STRATEGIES):
            if name == "greedy" and i % 4:
                continue  # the readable greedy arranges 4 x 6 holdings with the public solver: 50 cases
            got = choose_pair(code, ring.astype(np.int64), held, n, seat, players, gaps, draw, mask, 0, model)
            assert got == reference_choose(name, list(ring), holdings, seat, bool(gaps), draw, seen, RingRules(),
                                           model)
            assert got in legal_pairs(ring)


@pytest.mark.parametrize("joker", [Joker.BUG, Joker.WILD, Joker.DEAD])
def test_future_values_kernel_equals_readable(joker):
    rules = RingRules(joker=joker)
    model = value_model(rules)
    rng = np.random.default_rng(int(joker) + 20)
    for held_n in (0, 6, 12, 16):  # 16: the last round, one exact evaluation
        deck = rng.permutation(54)
        ring = deck[:6].astype(np.int64)
        if held_n % 12 == 6:
            ring[2] = ring[3] = -1
        holding = deck[6:6 + held_n]
        seen = list(deck[:6 + held_n + held_n // 2])
        held = np.zeros(20, np.int64)
        held[:held_n] = holding
        values = np.empty(6, np.int64)
        future_values(ring, held, held_n, np.int64(sum(1 << int(c) for c in seen)), int(joker), model,
                      FUTURE_SAMPLES, values)
        ref = reference_future_values(list(ring), list(holding), seen, rules, model)
        assert values.tolist() == [ref.get(p, -1) for p in range(6)]
        # a value is summed counts of model rows not above each slot: at most 3 x samples x 2,000
        samples = FUTURE_SAMPLES if held_n < 16 else 1
        assert all(0 < v <= 3 * samples * (model.shape[1] - 1) for v in ref.values())


def test_greedy_values_the_whole_arrangement_in_the_last_round():
    # last round (16 cards held, no future): the value is exact, the arrangement of the 18 cards scored
    # by the opponent model.  Five aces held; (Kc 2d) would make quads of kings in the middle slot, but
    # (6h 3s) makes a full house and a straight (the weakest slot rises from a pair), worth more points
    # against a random opponent: greedy takes it.  Cross-checked with OpponentModel.expected_points.
    rules = RingRules()
    model = value_model(rules)
    holding = list(parse_ring_cards("As Ah Ad Ac Jk Ks Kh Kd 2c 3d 5h 7s 8c 9d Td Qh"))
    ring = list(parse_ring_cards("Kc 2d 4s 6c 6h 3s"))
    p = reference_choose("greedy", ring, [holding, []], 0, False, 0, holding + ring, rules, model)
    assert p == 4
    opp = OpponentModel(np.sort(model[:, 1:].T, axis=0), 2, "value model")
    points = [opp.expected_points(arrange(holding + [ring[q], ring[(q + 1) % 6]]).keys) for q in range(6)]
    assert int(np.argmax(points)) == 4
    assert arrange(holding + ring[4:6]).summary().count("Straight") == 1


def test_scoring_against_readable_and_the_seed():
    # "two hands tied for strongest score 2 each and the third scores 0"
    pts, shares = reference_score([(5, 1, 1), (5, 1, 1), (4, 1, 1)])
    assert pts == [2 + 2 + 2, 2 + 2 + 2, 0 + 2 + 2]
    assert shares == [0.5, 0.5, 0.0]
    # a tie on points goes to the stronger weakest hand
    pts, shares = reference_score([(9, 1, 3), (8, 2, 2)])
    assert pts == [1 + 0 + 1, 0 + 1 + 0] and shares == [1.0, 0.0]
    # equal points (a tied slot scores the shared place for both) and equal weakest hands: a shared win
    pts, shares = reference_score([(9, 1, 3), (8, 2, 3)])
    assert pts == [1 + 0 + 1, 0 + 1 + 1] and shares == [0.5, 0.5]
    rng = np.random.default_rng(4)
    for players in (2, 3):
        for _ in range(500):
            keys = np.sort(rng.integers(0, 4, size=(players, 3)), axis=1)[:, ::-1].copy()
            points, sh = np.empty(players, np.int64), np.empty(players)
            score(keys, points, sh)
            ref_p, ref_s = reference_score(keys.tolist())
            assert points.tolist() == ref_p and sh.tolist() == ref_s
            assert sh.sum() == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("players,rotate", [(2, True), (3, True), (2, False)])
def test_kernel_equals_readable_game(players, rotate):
    rules = RingRules(players=players, rotate=rotate)
    rng = np.random.default_rng(100 + players)
    games = 6
    decks = np.array([rng.permutation(54) for _ in range(games)], dtype=np.int64)
    draws = rng.integers(0, 60, (games, 18)).astype(np.int64)
    seatings = [list(STRATEGIES[:players]), list(STRATEGIES[-players:]), ["greedy"] * players]
    model = value_model(rules)
    for seating in seatings:
        codes = np.array([strategy_code(s) for s in seating], dtype=np.int64)
        moves = np.empty((games, 18), np.int64)
        keys = np.empty((games, players, 3), np.int64)
        pts = np.empty((games, players), np.int64)
        sh = np.empty((games, players))
        play_batch(decks, draws, codes, int(rules.joker), rotate, 0, np.zeros((3, 2), np.int64), model, moves, keys,
                   pts, sh)
        for g in range(games):
            rec = play_game(rules, seating, deck=decks[g], draws=draws[g])
            assert [t.positions[0] for t in rec.history if t.how == "pair"] == moves[g].tolist()
            assert [list(a.keys) for a in rec.arrangements] == keys[g].tolist()
            assert list(rec.points) == pts[g].tolist() and list(rec.shares) == sh[g].tolist()
            cards = sorted(c for a in rec.arrangements for c in a.cards)
            assert len(cards) == 18 * players and len(set(cards)) == len(cards)


def test_game_record_reads():
    rec = play_game(RingRules(players=3), ["greedy", "random", "denial"], deck=np.random.default_rng(1).permutation(54),
                    draws=np.random.default_rng(2).integers(0, 60, 18))
    text = rec.summary()
    assert text.count("round ") == 9 and "gets" in text and "points" in text
    frame = rec.to_frame()
    assert len(frame) == 27 and set(frame.how) == {"pair", "leftover"}
    assert len(rec.hands_frame()) == 12
