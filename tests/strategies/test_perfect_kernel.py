"""Issue 14's faster perfect-play kernel against what it replaced, bit for bit.

* :func:`draw_counts` (draws counted by the ranks drawn) against the draw-by-draw
  enumeration, on random hole cards (pairs, suited, offsuit) and decks of 3..50 cards.
* :func:`table_draws` (sparse, several seats) against the dense :func:`final_distribution`,
  and :func:`table_rows` (one compact row per seat) against :func:`table_draws`.
* The kernel's figures on 330 seeded state/reading pairs against the values the
  pre-issue-14 kernel gave (stored as exact hex floats in ``tests/golden/perfect-kernel.json``,
  written by ``benchmarks/check_perfect_identical.py --write-golden`` from the frozen copy
  ``benchmarks/perfect_reference.py``; the full 28,050-pair comparison is that script).
* The bounds that decide before the look-ahead, read independently off the dense histograms,
  against the look-ahead's EV.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from ricochet_math.evaluator.evaluation import (
    MAX_DRAW_ENTRIES, NUM_VALUES, draw_counts, draw_histogram, draw_histogram_enumerated,
)
from ricochet_math.strategies import perfect as P
from ricochet_math.strategies.draws import final_distribution, table_draws, table_rows, unseen_cards

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "perfect-kernel.json"


def _random_case(rng, kind):
    perm = rng.permutation(52)
    c0 = int(perm[0])
    if kind == "pair":
        c1 = next(int(c) for c in perm[1:] if c >> 2 == c0 >> 2)
    elif kind == "suited":
        c1 = next(int(c) for c in perm[1:] if c & 3 == c0 & 3)
    else:
        c1 = next(int(c) for c in perm[1:] if c & 3 != c0 & 3 and c >> 2 != c0 >> 2)
    rest = np.array([c for c in perm if c not in (c0, c1)], dtype=np.int64)
    size = int(rng.integers(3, 51))
    return c0, c1, np.sort(rest[:size])


@pytest.mark.parametrize("kind", ["pair", "suited", "offsuit"])
def test_draw_counts_equal_the_enumeration(kind):
    rng = np.random.default_rng({"pair": 1, "suited": 2, "offsuit": 3}[kind])
    vals = np.empty(MAX_DRAW_ENTRIES, dtype=np.int64)
    counts = np.empty(MAX_DRAW_ENTRIES)
    for _ in range(400):
        c0, c1, cards = _random_case(rng, kind)
        want = np.zeros(NUM_VALUES)
        n_want = draw_histogram_enumerated(c0, c1, cards, want)
        got = np.zeros(NUM_VALUES)
        assert draw_histogram(c0, c1, cards, got) == n_want
        assert np.array_equal(got, want)
        e, total = draw_counts(c0, c1, cards, vals, counts)
        assert total == n_want and len(set(vals[:e].tolist())) == e and (counts[:e] > 0).all()
        assert counts[:e].sum() == n_want


def test_draw_counts_full_deck_flush_count():
    """A suited hole pair with all 50 other cards unseen: C(11, 3) = 165 draws make a flush
    (straight flushes included), and every draw is counted once (C(50, 3) = 19,600)."""
    vals = np.empty(MAX_DRAW_ENTRIES, dtype=np.int64)
    counts = np.empty(MAX_DRAW_ENTRIES)
    cards = np.array([c for c in range(52) if c not in (48, 44)], dtype=np.int64)  # hole: As Ks... (ranks 12, 11)
    e, total = draw_counts(48, 44, cards, vals, counts)
    assert total == 19_600 and counts[:e].sum() == 19_600
    from ricochet_math.evaluator.evaluation import category_of
    flushes = sum(counts[i] for i in range(e) if category_of(vals[i]) in (5, 8))
    assert flushes == 165


def test_table_draws_equal_the_dense_distributions():
    rng = np.random.default_rng(7)
    for n in (1, 3, 7):
        for _ in range(20):
            perm = rng.permutation(52)
            hole = perm[:2 * n].reshape(n, 2).astype(np.int64)
            unseen = np.ones(52, dtype=np.uint8)
            unseen[perm[:2 * n + 5 + 3 * int(rng.integers(0, n))]] = 0
            cards = unseen_cards(unseen)
            seats = rng.permutation(n).astype(np.int64)
            extra = int(rng.integers(-1, NUM_VALUES))
            values, probs = table_draws(hole, seats, cards, extra)
            assert (np.diff(values) > 0).all()
            union = np.zeros(NUM_VALUES, dtype=bool)
            for k, s in enumerate(seats):
                dense = final_distribution(hole[s, 0], hole[s, 1], cards)
                assert np.array_equal(probs[k], dense[values])  # bit for bit
                assert dense[values].sum() == pytest.approx(1.0, abs=1e-12)
                union |= dense > 0
            if extra >= 0:
                union[extra] = True
            assert np.array_equal(values, np.flatnonzero(union))


def test_table_rows_equal_table_draws():
    """The compact rows hold each seat's nonzero entries of table_draws, ascending, bit for bit."""
    rng = np.random.default_rng(8)
    for n in (1, 2, 3, 7):
        for i in range(40):
            perm = [int(c) for c in rng.permutation(52)]
            hole = np.empty((n, 2), dtype=np.int64)
            for k in range(n):
                hole[k, 0] = perm.pop(0)
                # every other table: suited hole cards (a seat's flushes merged into its row)
                hole[k, 1] = perm.pop(next((j for j, c in enumerate(perm) if c & 3 == hole[k, 0] & 3), 0)
                                      if i % 2 == 0 else 0)
            rest = np.array(perm, dtype=np.int64)
            # decks from empty (no draw) and tiny to everything but the hole cards
            size = int(rng.choice([0, 2, 3, 4, 7, len(rest)])) if i % 5 == 1 else int(rng.integers(20, 45))
            unseen = np.zeros(52, dtype=np.uint8)
            unseen[rest[:size]] = 1
            cards = unseen_cards(unseen)
            seats = rng.permutation(n).astype(np.int64)
            extra = int(rng.integers(-1, NUM_VALUES))
            values, probs = table_draws(hole, seats, cards, extra)
            values2, index, prob, length = table_rows(hole, seats, cards, extra)
            assert np.array_equal(values2, values)
            for k in range(n):
                idx = index[k, :length[k]]
                assert np.array_equal(idx, np.flatnonzero(probs[k]))  # ascending, every value it reaches
                assert np.array_equal(prob[k, :length[k]], probs[k, idx])  # bit for bit


def _states(seed, count):
    """Seeded table states of every kind the kernel sees (the golden file's inputs)."""
    from ricochet_math.engine.round import Round
    from ricochet_math.rules.ruleset import load_rules
    base = load_rules()
    low = base.with_options(dealer_loses_ties=False, bonus_on_automatic_win=False)
    for n in range(1, 8):
        low = low.with_kickout(n, "22")
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        n = int(rng.integers(2, 8))
        rnd = Round(low if len(out) % 2 else base, n, rng.permutation(52))
        for _ in range(int(rng.integers(0, n))):
            if rnd.is_terminal() or rnd.automatic_win_due():
                break
            rnd.apply("fold" if rng.random() < 0.4 else "play")
        if rnd.is_terminal() or rnd.automatic_win_due():
            continue
        st = rnd.table_state()
        out.append((st.unseen.copy(), np.asarray(st.holes, dtype=np.int64), np.asarray(st.order, dtype=np.int64),
                    st.position, st.best_value, st.dealer_in, st.n_tied, st.pot, st.dealer_kicked,
                    st.bonus_by_value, st.options.copy()))
    return out


GOLDEN_READINGS = P.READING_NAMES + ("perfect-vs-myopic", "perfect-vs-pot-odds-final-no-bonus", "myopic-vs-perfect")


def kernel_figures(module, seed=20261201, count=30):
    """Every figure of ``module``'s kernel (``seat_values``, ``model_shares``, ``perfect_decision``)
    on ``count`` states x the eleven readings, as exact hex floats and a digest of the shares."""
    rows = []
    shares = hashlib.sha256()
    for st in _states(seed, count):
        for name in GOLDEN_READINGS:
            rd = module.readings(name)
            ev, fold, p_win, bonus, play = module.seat_values(rd, *st)
            shares.update(module.model_shares(rd, *st).tobytes())
            rows.append([name, float(ev).hex(), float(fold).hex(), float(p_win).hex(), float(bonus).hex(), bool(play),
                         bool(module.perfect_decision(rd, *st))])
    return {"seed": seed, "count": count, "rows": rows, "shares_sha256": shares.hexdigest()}


def test_kernel_figures_equal_the_pre_issue_14_kernel():
    want = json.loads(GOLDEN.read_text())
    got = kernel_figures(P, want["seed"], want["count"])
    assert len(got["rows"]) == len(want["rows"]) == 330
    for g, w in zip(got["rows"], want["rows"]):
        assert g == w
    assert got["shares_sha256"] == want["shares_sha256"]


def _readable_bounds(reading, st):
    """The bounds of :func:`perfect._early_decision` on EV(play) (with the reading's bonus term), read
    off the dense histograms: over my standing values s, P(s) times (pot + 1 + n_sure(s)) / holders
    prod_k f_k(s) (lower) and (pot + 1 + later seats - n_fold(s)) / holders prod_{k plays surely}
    P_k(final <= s) (upper), with f_k(s) = P_k(final < s), or 1 where a perfect later seat folds
    surely facing s (its mass at and above s times the largest pot, plus its bonus, minus 2, is below
    -1; n_fold(s) such seats); a perfect later seat plays surely (n_sure(s) such seats) where
    (pot + 2) P_k(final > s) prod_{j > k} f_j(s) + bonus - 2 > -1."""
    from ricochet_math.rules.layout import Option
    unseen, hole, order, pos, best, dealer_in, n_tied, pot, _, bonus, options = st
    rd = P.readings(reading)
    perfect_others = rd.others == P.Reading.perfect
    cards = unseen_cards(unseen)
    hs = [final_distribution(hole[s, 0], hole[s, 1], cards) for s in order[pos:]]
    bonuses = [float(h @ bonus) if rd.others_bonus else 0.0 for h in hs]
    pot_max = pot + 1.0 + len(hs) - 1
    lower = upper = 0.0
    for s in np.flatnonzero(hs[0]):
        if best < 0 or s > best:
            holders = 1
        elif s == best and not dealer_in:
            holders = min(n_tied, P.MAX_TIED - 1) + 1
        elif s == best and options[Option.dealer_loses_ties]:
            holders = 1
        else:
            continue
        folds = [perfect_others and h[s:].sum() * pot_max + b - 2.0 < -1.0 - 1e-9
                 for h, b in zip(hs[1:], bonuses[1:])]
        f = [1.0 if fold else h[:s].sum() for h, fold in zip(hs[1:], folds)]
        cap = 1.0
        n_sure = 0
        for k, (h, b) in enumerate(zip(hs[1:], bonuses[1:])):
            if perfect_others and (pot + 2.0) * h[s + 1:].sum() * np.prod(f[k + 1:]) + b - 2.0 > -1.0 + 1e-9:
                cap *= h[:s + 1].sum()
                n_sure += 1
        lower += hs[0][s] * (pot + 1.0 + n_sure) / holders * np.prod(f)
        upper += hs[0][s] * (pot_max - sum(folds)) / holders * cap
    b_me = float(hs[0] @ bonus) if rd.mine_bonus else 0.0
    return lower + b_me - 2.0, upper + b_me - 2.0


@pytest.mark.parametrize("reading", ["perfect", "perfect-no-bonus", "perfect-vs-myopic",
                                     "perfect-vs-pot-odds-final-no-bonus"])
def test_early_decision_bounds_hold_the_look_ahead(reading):
    """The shortcut that decides before the look-ahead (``perfect._early_decision``): its two bounds,
    computed here independently from the dense histograms, hold the look-ahead's EV(play) (with the
    reading's bonus term) between them, and wherever the shortcut decides the look-ahead decides the
    same.  On these 120 seeded states it decides 116 of the 120 under perfect play (104 for the
    best responses, where the later seats' sure plays and folds are not used)."""
    from ricochet_math.rules.layout import Option
    from ricochet_math.strategies.draws import count_rows, row_workspace
    rd = P.readings(reading)
    decided = seen = 0
    for st in _states(20261202, 120):
        unseen, hole, order, pos, best, dealer_in, n_tied, pot, kicked, bonus, options = st
        ev, _, _, b, play = P.seat_values(rd, *st)
        decide = ev - (0.0 if rd.mine_bonus else b)  # the reading's own EV(play): bonus term as it counts it
        lower, upper = _readable_bounds(reading, st)
        assert lower <= decide + 1e-12 and decide <= upper + 1e-12
        seats = order[pos:]
        ws = row_workspace(unseen_cards(unseen), seats.shape[0])
        count_rows(hole, seats, 0, seats.shape[0], ws, bonus, P._grid_lo(rd, best, options))
        auto = kicked and best < 0 and seats.shape[0] == 1 and options[Option.automatic_win] != 0
        early = P._early_decision(ws, seats.shape[0], best, dealer_in, n_tied, pot,
                                  options[Option.dealer_loses_ties] != 0, rd.mine_bonus,
                                  rd.others == P.Reading.perfect, rd.others_bonus)
        if early > 0:
            assert play and lower > -1.0
        if early < 0:
            assert not play and upper < -1.0
        if not auto:
            decided += early != 0
            seen += 1
        assert bool(P.perfect_decision(rd, *st)) == play
    assert seen == 120 and decided >= 0.8 * seen
