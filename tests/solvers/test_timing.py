"""rm.bench: the hot-path timings behind ``ricochet bench`` (ricochet_math.solvers.timing)."""
from __future__ import annotations

from ricochet_math.solvers.timing import bench


def test_bench_times_every_hot_path_once_per_repeat():
    frame = bench(repeat=2, seven_hands=2_000, engine_rounds=512, decisions=1)
    assert list(frame["benchmark"]) == [
        "evaluator: all five-card hands", "evaluator: random seven-card hands",
        "engine: always play, N = 1", "engine: always play, N = 4", "engine: always play, N = 7",
        "solver: one perfect decision, N = 7 (first to act)",
    ]
    assert (frame["best_s"] <= frame["median_s"]).all() and (frame["rate"] > 0).all()
    assert list(frame["work"][:2]) == ["2,598,960 hands", "2,000 hands"]
    assert frame.attrs["cores"] >= 1
