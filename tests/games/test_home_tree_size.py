"""The size of the exact two-player tree (games/home/tree_size.py): the per-pair programme summed over every
pair equals the compiled solver's memo count and a readable walk of the tree; the stratified estimate and
Knuth's probes are within a few standard errors of the exact counts (seeded)."""
from __future__ import annotations

import numpy as np
import pytest

from ricochet_math.errors import RicochetError
from ricochet_math.evaluator.cards import parse_cards
from ricochet_math.games.home.exact import ExactSolver, card_mask
from ricochet_math.games.home.rules import HomeRules
from ricochet_math.games.home.solver import keys_of
from ricochet_math.games.home.tree_size import (
    MAX_ENUMERATED,
    bytes_per_position,
    count_positions,
    estimate_positions,
    knuth_tree,
    pair_positions,
    table_bytes,
)

RULES = HomeRules(players=2)
#: the ladder of benchmarks/bench_home_exact.py (2, 3 and 4 cards of room): ExactSolver.values() counts
LADDER = [("Kd 5h 8d 8s", "2h 2d 9c 7s", 15, 18), ("Kd 7c 2h 3c", "Ks 7h 2s", 7, 3_630),
          ("2c 3d 4h", "Qs 9h 7d", 8, 48_566)]
#: the unmemoised tree's nodes at the same rungs (the readable walk below agrees at the first two)
LADDER_TREE = [18, 4_839, 71_399]
#: ExactSolver.values() at 2c3d v Qs9h7d, pot 6 (5 cards of room; 2 s to solve, not rerun here)
ROOM5 = ("2c 3d", "Qs 9h 7d", 6, 1_515_700)


def _solver_count(rules, a, b, pot, dead=()):
    s = ExactSolver(rules, card_mask(dead), capacity=1 << 16)
    s.values([card_mask(a)], [card_mask(b)], [pot])
    return s.positions


def _walk(rules, a, b, pot, dead=()):
    """A readable walk of the exact solver's tree without a memo: (distinct positions, calls).  A position
    is (lower hand, other hand, pot): the hand to act or receiving, as exact.subgame_value keys it."""
    live = set(range(rules.deck_size)) - set(dead)
    seen, calls = set(), [0]

    def unseen(h, o):
        return sorted(live - set(h) - set(o))

    def node(h, o, pot, r):
        calls[0] += 1
        seen.add((frozenset(h), frozenset(o), pot))
        rest = unseen(h, o)
        if r == 0:
            for k in range(1, min(rules.hand_limit - len(h), len(rest)) + 1):
                node(h, o, pot + k, k)
            return
        for c in rest:
            h2 = tuple(sorted(h + (c,)))
            if keys_of(h2)[1] > keys_of(o)[1]:  # lifted: the other hand acts, if the game goes on
                if rules.tie_ends and keys_of(h2)[0] == keys_of(o)[0]:
                    continue
                if min(rules.hand_limit - len(o), len(rest) - 1) > 0:
                    node(o, h2, pot, 0)
            elif r > 1 and len(rest) > 1:
                node(h2, o, pot, r - 1)

    a, b = tuple(sorted(a)), tuple(sorted(b))
    if rules.tie_ends and keys_of(a)[0] == keys_of(b)[0]:
        return 0, 0
    low, other = (a, b) if keys_of(a)[1] < keys_of(b)[1] else (b, a)
    if min(rules.hand_limit - len(low), len(unseen(a, b))) > 0:
        node(low, other, pot, 0)
    return len(seen), calls[0]


@pytest.mark.parametrize("rung", range(3))
def test_count_equals_the_solver_on_the_ladder(rung):
    a, b, pot, n = LADDER[rung]
    got = count_positions(RULES, a, b, pot)
    assert got.exact and got.sampled_pairs == 0
    assert got.positions.estimate == n == _solver_count(RULES, parse_cards(a), parse_cards(b), pot)
    assert got.positions.std_error == 0
    assert got.tree_nodes.estimate == LADDER_TREE[rung]


@pytest.mark.parametrize("rung", range(2))
def test_count_equals_a_readable_walk(rung):
    a, b, pot, n = LADDER[rung]
    assert _walk(RULES, parse_cards(a), parse_cards(b), pot) == (n, LADDER_TREE[rung])


OPTIONS = [HomeRules(players=2, tie_ends=True), HomeRules(players=2, hand_limit=6),
           HomeRules(players=2, jokers=True), HomeRules(players=2, stuck="showdown"),
           HomeRules(players=3)]


@pytest.mark.parametrize("rules", OPTIONS, ids=lambda r: r.name)
def test_count_equals_solver_and_walk_under_the_options(rules):
    """Random positions of 2 to 3 cards of room (dead cards on a three-seat table: a folded hand)."""
    rng = np.random.default_rng(7)
    done = 0
    while done < 4:
        deck = [int(c) for c in rng.permutation(rules.deck_size)]
        na = int(rng.integers(rules.hand_limit - 2, rules.hand_limit))
        nb = int(rng.integers(rules.hand_limit - 2, rules.hand_limit))
        if 2 * rules.hand_limit - na - nb > 3:
            continue
        a, b = deck[:na], deck[na:na + nb]
        dead = deck[na + nb:na + nb + 2] if rules.players == 3 else []
        pot = na + nb + int(rng.integers(0, 4))
        want = _solver_count(rules, a, b, pot, dead)
        got = count_positions(rules, a, b, pot, dead=dead)
        assert got.positions.estimate == want, (a, b, pot, dead)
        assert (got.positions.estimate, got.tree_nodes.estimate) == _walk(rules, a, b, pot, dead)
        done += want > 0


def test_pair_positions_adds_up_to_the_count():
    """Kd7c2h3c (one card of room) v Ks7h2s (two): the pairs of extra cards one by one."""
    a, b, pot, n = LADDER[1]
    unseen = sorted(set(range(52)) - set(parse_cards(a)) - set(parse_cards(b)))
    total = pair_positions(RULES, a, b, pot, "", "")[0]
    total += sum(pair_positions(RULES, a, b, pot, [c], "")[0] + pair_positions(RULES, a, b, pot, "", [c])[0]
                 for c in unseen)
    total += sum(pair_positions(RULES, a, b, pot, [c], [d])[0] + pair_positions(RULES, a, b, pot, "", [c, d])[0]
                 for c in unseen for d in unseen if c < d)
    total += sum(pair_positions(RULES, a, b, pot, [c], [d])[0] for c in unseen for d in unseen if c > d)
    # both hands full: never a position (the hand that acts or receives has room)
    assert all(pair_positions(RULES, a, b, pot, [c], unseen[k:k + 2])[0] == 0 for k, c in enumerate(unseen[2:]))
    assert total == n


@pytest.mark.parametrize("which", ["room4", "room5"])
def test_estimate_within_its_interval(which):
    """Every stratum sampled (exact_below 0): the estimate within 3 standard errors of the exact count, and
    the 95% interval's half-width a few percent at 20,000 pairs (seed 11)."""
    a, b, pot, n = LADDER[2] if which == "room4" else ROOM5
    est = estimate_positions(RULES, a, b, pot, samples=20_000, seed=11, exact_below=0, floor=200)
    assert est.sampled_pairs >= 18_000 and not est.exact
    assert abs(est.positions.estimate - n) < 3 * est.positions.std_error
    assert est.positions.half_width < 0.05 * n
    again = estimate_positions(RULES, a, b, pot, samples=20_000, seed=11, exact_below=0, floor=200)
    assert again.positions.estimate == est.positions.estimate  # seeded: the same digits


def test_estimate_of_the_tree_nodes_and_knuth_agree_with_the_count():
    a, b, pot, n = LADDER[2]
    est = estimate_positions(RULES, a, b, pot, samples=20_000, seed=12, exact_below=0, floor=200)
    assert abs(est.tree_nodes.estimate - LADDER_TREE[2]) < 3 * est.tree_nodes.std_error
    k = knuth_tree(RULES, a, b, pot, probes=20_000, seed=12)
    assert abs(k.nodes.estimate - LADDER_TREE[2]) < 3 * k.nodes.std_error
    assert k.nodes.half_width < 0.03 * LADDER_TREE[2]
    assert knuth_tree(RULES, *LADDER[0][:3], probes=100, seed=1).nodes.estimate == 18  # a tree of one path


def test_the_deal_is_large():
    """7s v Kd from the deal: around 1.1e10 positions (benchmarks/bench_home_tree.py), over 600 GB."""
    est = estimate_positions(RULES, "7s", "Kd", 2, samples=20_000, seed=2026, tree=False)
    assert 0.95e10 < est.positions.estimate < 1.25e10
    assert est.positions.half_width < 0.05 * est.positions.estimate
    assert est.memory_bytes() > 500e9
    assert est.to_frame().shape[0] == 1 and "positions" in est.summary()


def test_sizes_and_errors():
    assert bytes_per_position(RULES) == 56 and bytes_per_position(HomeRules(players=2, hand_limit=7)) == 72
    assert table_bytes(RULES, 48_566) == (1 << 16) * 56  # 3/4 of 2**16 holds it
    assert table_bytes(RULES, 50_000) == (1 << 17) * 56
    with pytest.raises(RicochetError, match="distinct"):
        count_positions(RULES, "7s", "7s", 2)
    with pytest.raises(RicochetError, match="pot"):
        estimate_positions(RULES, "7s", "Kd", 60)
    with pytest.raises(RicochetError, match="samples"):
        estimate_positions(RULES, "7s", "Kd", 2, samples=100)
    with pytest.raises(RicochetError, match="extra cards"):
        pair_positions(RULES, "7s", "Kd", 2, "Kd", "")


def test_counts_too_large_to_enumerate_are_refused_before_any_work():
    """A one-card deal leaves 7,853,852,401 pairs of extra cards (hours): refused at once, in one line naming
    the hands and pointing to the estimate; two-card v three-card hands (1,901,574 pairs) are counted."""
    import time

    t0 = time.perf_counter()
    with pytest.raises(RicochetError) as err:
        count_positions(RULES, "7s", "Kd", 2)
    msg = str(err.value)
    assert "\n" not in msg and msg.startswith("first, second: 7s v Kd leave 7,853,852,401 pairs")
    assert "estimate_positions" in msg and f"{MAX_ENUMERATED:,}" in msg
    with pytest.raises(RicochetError, match=r"first, second: .* 27,950,621 pairs"):
        count_positions(RULES, "2c 3c 4c", "Kc", 4)  # room 6: just over the limit
    with pytest.raises(RicochetError, match=r"^exact_below: 1,000,000,000 enumerates 861,944,401 pairs"):
        estimate_positions(RULES, "7s", "Kd", 2, samples=20_000, exact_below=10**9)
    assert time.perf_counter() - t0 < 1.0
    assert MAX_ENUMERATED == 10_000_000
