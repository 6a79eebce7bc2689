"""Control variates: the recorded controls and their exact means (ricochet_math.engine.controls), unbiasedness,
and the estimator (ricochet_math.solvers.variance)."""
from math import comb

import numpy as np
import pytest

from ricochet_math.engine import controls as C
from ricochet_math.solvers import variance as V
from ricochet_math.evaluator.evaluation import eval5, value_counts_5
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.solvers.montecarlo import simulate
from ricochet_math.evaluator.classes import class_index_table, player_classes

SOLO_EXACT_RTP = 0.9694752031  # tests/solvers/test_solo.py: the exhaustive solo analysis, publisher rules


def test_dealer_counts_by_class_add_up_to_the_five_card_counts():
    """Summed over all 1,326 hole-card pairs, each dealer hand is counted once per pair it misses:
    sum_c weight_c * H[c, v] = count5[v] * C(47, 2) exactly."""
    _, weights, _ = player_classes()
    h = C.dealer_value_counts_by_class()
    assert h.shape == (169, 7462)
    assert np.all(h.sum(axis=1) == comb(50, 5))
    assert np.array_equal((weights[:, None] * h).sum(axis=0), value_counts_5() * comb(47, 2))


def test_reach_table_against_direct_enumeration():
    reps, _, labels = player_classes()
    q = C.reach_table()
    assert np.allclose(q[:, 0], 1.0) and np.all(np.diff(q, axis=1) <= 1e-15)
    c = labels.index("T9s")
    a, b = (int(x) for x in reps[c])
    rest = [x for x in range(52) if x not in (a, b)]
    vals = np.array([eval5(a, b, rest[i], rest[j], rest[k]) for i in range(50) for j in range(i + 1, 50)
                     for k in range(j + 1, 50)])
    for v in (0, 3000, 5000, 5900, 7000):
        assert q[c, v] == pytest.approx((vals >= v).mean(), abs=1e-15)


def test_two_card_class_is_symmetric_and_covers_every_class():
    k = class_index_table().reshape(52, 52)
    assert np.array_equal(k, k.T)
    _, weights, _ = player_classes()
    off = k[~np.eye(52, dtype=bool)]
    assert np.array_equal(np.bincount(off, minlength=169), 2 * weights)


def test_bucket_means_are_dealer_hand_probabilities():
    rules = load_rules("publisher")
    for n in (1, 4, 7):
        kick = rules.kickout_value(n)
        cs = C.control_setup(n, kick)
        buckets = cs.means[C.U.bucket_0:C.N_SHARED]
        assert cs.means.shape == (C.n_u(n),)
        assert sum(cs.means[C.seat_index(i, C.SeatU.q)] for i in range(n)) == pytest.approx(
            cs.means[C.U.s_reach], rel=1e-12)
        assert buckets.sum() == pytest.approx(1.0, abs=1e-12)
        p_kicked = value_counts_5()[kick:].sum() / comb(52, 5)
        assert buckets[-1] == pytest.approx(p_kicked, rel=1e-12)
        assert np.all(buckets[:-1] > 0.8 / (C.N_BUCKETS - 1))  # roughly equal halves of what she keeps


def test_controls_have_their_exact_means_in_a_simulation():
    """Seed 4, 30,000 rounds of 4 always-play seats: each control's sample mean within 4.5 standard
    errors of its exact mean (38 controls, so a 4.5-sigma band keeps the family's false alarms < 3e-4);
    the per-seat controls add up to the shared ones round by round."""
    r = simulate("publisher", 4, "always", 30_000, seed=4, progress=False, control_variates=True)
    c = r.sums.controls.sum(axis=0)
    n = c[C.U.one, C.U.one]
    mean = c[C.U.one] / n
    var = np.diag(c) / n - mean ** 2
    ctl = C.control_indices(c.shape[0])
    z = (mean[ctl] - np.array(r.control_means)[ctl]) / np.sqrt(var[ctl] / n)
    assert n == 30_000
    assert np.all(np.abs(z) < 4.5), dict(zip(C.control_names(4), np.round(z, 2)))
    for shared, own in ((C.U.z_bonus, C.SeatU.z_bonus), (C.U.z_stand, C.SeatU.z_stand),
                        (C.U.z_stand_last, C.SeatU.z_stand_last), (C.U.s_reach, C.SeatU.q),
                        (C.U.x, C.SeatU.x)):
        assert sum(mean[C.seat_index(i, own)] for i in range(4)) == pytest.approx(mean[shared], abs=1e-9)


def test_solo_perfect_play_with_controls_hits_the_exact_rtp():
    """N = 1, perfect play, seed 20261130, 40,000 rounds: the controlled estimate lies within 4 of its
    standard errors of the exhaustive 96.9475203% and its variance is at least 50x smaller."""
    r = simulate("publisher", 1, "perfect", 40_000, seed=20261130, progress=False)
    m = r.summary()
    est = m["rtp_initial_cv"]
    assert abs(est.estimate - SOLO_EXACT_RTP) < 4 * est.std_error
    assert m["variance_ratio"] > 50
    assert est.std_error < 0.001
    assert r.controlled.cross_fitted
    # per total wagered too (exact 98.1638056%, tests/solvers/test_solo.py)
    wag = m["rtp_wagered_cv"]
    assert abs(wag.estimate - 0.981638056) < 4 * wag.std_error and wag.std_error < 0.001


def test_controlled_estimate_on_known_data():
    """A synthetic run: X = 3 + 2 Z1 - Z2 + noise with E[Z] known; the estimate recovers 3."""
    rng = np.random.default_rng(0)
    k = C.n_u(0)
    cross = np.zeros((2, k, k))
    means = np.zeros(k)
    means[C.U.s_reach] = 5.0
    for h in range(2):
        for _ in range(20):
            u = np.zeros((500, k))
            u[:, C.U.one] = 1.0
            z1 = rng.normal(size=500)
            s = rng.normal(5.0, 1.0, size=500)
            u[:, C.U.z_bonus] = z1
            u[:, C.U.s_reach] = s
            u[:, C.U.x] = 3.0 + 2.0 * z1 - (s - 5.0) + 0.1 * rng.normal(size=500)
            cross[h] += u.T @ u
    est = V.controlled_estimate(cross, means)
    assert est.cross_fitted
    assert est.controlled.estimate == pytest.approx(3.0, abs=4 * est.controlled.std_error)
    assert est.controlled.std_error == pytest.approx(0.1 / np.sqrt(20_000), rel=0.05)
    assert est.variance_ratio > 100
    one_half = cross.copy()
    one_half[1] = 0.0
    assert not V.controlled_estimate(one_half, means).cross_fitted


def test_seat_estimates_with_controls():
    """Seed 21, 6,000 rounds of 3 perfect seats: each seat's controlled RTP agrees with its plain
    estimate within the plain interval, is far narrower, and the seats' mean is the table's."""
    r = simulate("publisher", 3, "perfect", 6_000, seed=21, progress=False)
    frame = r.seat_frame()
    assert {"rtp_initial_cv", "rtp_initial_cv_low", "rtp_initial_cv_high"} <= set(frame.columns)
    for row in frame.itertuples():
        assert row.rtp_initial_low <= row.rtp_initial_cv <= row.rtp_initial_high
        assert (row.rtp_initial_cv_high - row.rtp_initial_cv_low) < 0.5 * (row.rtp_initial_high - row.rtp_initial_low)
    assert frame["rtp_initial_cv"].mean() == pytest.approx(r.summary()["rtp_initial_cv"].estimate, abs=0.003)


def test_controls_do_not_depend_on_workers():
    a = simulate("publisher", 2, "perfect", 600, seed=9, chunk_size=100, workers=1, progress=False)
    b = simulate("publisher", 2, "perfect", 600, seed=9, chunk_size=100, workers=2, progress=False)
    assert np.array_equal(a.sums.controls, b.sums.controls)
    assert a.summary()["rtp_initial_cv"] == b.summary()["rtp_initial_cv"]
    assert a.sums.controls[0, C.U.one, C.U.one] == 300 and a.sums.controls[1, C.U.one, C.U.one] == 300
    assert a.sums.controls.shape == (2, C.n_u(2), C.n_u(2))


def test_runs_with_and_without_controls_do_not_merge():
    from ricochet_math.errors import RicochetError

    a = simulate("publisher", 2, "always", 1000, seed=1, progress=False, control_variates=True)
    b = simulate("publisher", 2, "always", 1000, seed=2, progress=False)
    with pytest.raises(RicochetError, match="control variates"):
        a.merge(b)
    assert "rtp_initial_cv" not in b.summary()


def test_checkpoint_keeps_the_controls(tmp_path):
    """A run resumed from its checkpoint gives the same control sums as the run itself."""
    ck = tmp_path / "ck.npz"
    a = simulate("publisher", 2, "perfect", 500, seed=12, chunk_size=100, progress=False, checkpoint=ck)
    b = simulate("publisher", 2, "perfect", 500, seed=12, chunk_size=100, progress=False, checkpoint=ck)
    assert np.array_equal(a.sums.controls, b.sums.controls)
    assert a.sums.controls[1, C.U.one, C.U.one] == 200  # chunks 1 and 3 are the odd half
