"""The look-ahead's two continuation kernels bound together: ``_continuation_perfect`` (later seats that
play perfectly, computed only where it is read) equals the dense ``_continuation`` under the perfect reading,
bit for bit, at every entry the acting seat's EV reads (strategies/perfect.py)."""
import sys
from pathlib import Path

import numpy as np
import pytest

from ricochet_math.rules.arrays import bonus_by_value
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.strategies import perfect as P
from ricochet_math.strategies.draws import count_rows, row_workspace, rows_union, unseen_cards

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from bench_perfect_accuracy import first_seat_state, random_state  # noqa: E402

RULES = load_rules("publisher")
BONUS = bonus_by_value(RULES)


def _both(st, use_bonus):
    deck, hole, order, pos, best, din, nt, pot, kicked, opts = st
    seats = order[pos:]
    n = seats.shape[0]
    rd = P.Readings(int(P.Reading.perfect), use_bonus, int(P.Reading.perfect), use_bonus)
    ws = row_workspace(unseen_cards(deck), n)
    lo = P._grid_lo(rd, best, opts)
    count_rows(hole, seats, 0, n, ws, BONUS, lo)
    values, index, prob, length = rows_union(ws, n, best, lo)
    K, n_later, first = values.shape[0], n - 1, ws.first
    bonuses, below0 = ws.sums[0, 1:], ws.sums[1, 1:]
    hists = np.zeros((max(n_later, 1), K))
    for k in range(n_later):
        for j in range(first[k + 1], length[k + 1]):
            hists[k, index[k + 1, j]] = prob[k + 1, j]
    active = np.ones(max(n_later, 1), dtype=np.bool_)
    tie = 0 if best >= 0 else -1
    sparse = P._continuation_perfect(use_bonus, index, prob, length, first, K, bonuses, below0, n_later,
                                     pot + 1, active, tie)
    dense = P._continuation(int(P.Reading.perfect), use_bonus, hists, bonuses, below0, n_later, pot + 1, K,
                            kicked, active)
    read = [index[0, j] for j in range(first[0], length[0])]
    return sparse, dense, read, tie


@pytest.mark.parametrize("players", [2, 3, 5, 7])
def test_continuation_perfect_equals_the_dense_continuation(players):
    rng = np.random.default_rng(20261202 + players)
    checked = 0
    for i in range(6):
        st = first_seat_state(rng, players, RULES) if i % 2 == 0 else random_state(rng, players, RULES, BONUS)
        for use_bonus in (True, False):
            sparse, dense, read, tie = _both(st, use_bonus)
            for g in read:
                assert sparse[0, 0, g] == dense[0, 0, g]  # bit for bit, no tolerance
                checked += 1
            if tie >= 0:
                for m in range(P.MAX_TIED):
                    assert sparse[m, 0, tie] == dense[m, 0, tie]
    assert checked > 0
