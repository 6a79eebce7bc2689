"""The perfect-play kernel against its frozen pre-issue-14 copy, bit for bit (issue 14).

2,550 seeded states (425 for each N = 2..7: random rounds with the first k seats in
order of play folding or playing, every other state under a rule set that kicks the
dealer out on a pair of twos and lets her win ties) x the eleven readings of
:data:`perfect_states.CHECK_READINGS` = 28,050 state/reading pairs.  For each pair:
``seat_values`` (EV(play), EV(fold), P(win), E[bonus], play?), ``model_shares``
(float64[7462]) and ``perfect_decision`` of the current kernel and of
``perfect_reference.py``.  Prints the number of pairs that differ in any bit and the
largest absolute difference; exits 1 if any differs.

    PYTHONPATH=. python benchmarks/check_perfect_identical.py            # 28,050 pairs (about 1 minute)
    PYTHONPATH=. python benchmarks/check_perfect_identical.py --per-players 50
    PYTHONPATH=. python benchmarks/check_perfect_identical.py --write-golden  # tests/golden/perfect-kernel.json
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import perfect_reference as old  # noqa: E402
from perfect_states import CHECK_READINGS, states  # noqa: E402

from ricochet_math.strategies import perfect as new  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-players", type=int, default=425, help="states per player count N = 2..7")
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--write-golden", action="store_true",
                    help="write tests/golden/perfect-kernel.json from the frozen reference kernel, and stop")
    a = ap.parse_args(argv)
    if a.write_golden:
        root = Path(__file__).resolve().parents[1]
        sys.path.insert(0, str(root / "tests" / "strategies"))
        from test_perfect_kernel import GOLDEN, kernel_figures
        fig = kernel_figures(old)
        rows = ",\n  ".join(json.dumps(r) for r in fig.pop("rows"))
        head = json.dumps(fig)[1:-1]
        GOLDEN.write_text("{" + head + ',\n "rows": [\n  ' + rows + "\n ]\n}\n")
        print(f"wrote {GOLDEN}")
        return 0
    t0 = time.perf_counter()
    sts = states(a.seed, a.per_players)
    pairs = differ = 0
    worst = 0.0
    for st in sts:
        for name in CHECK_READINGS:
            rd = new.readings(name)
            x = new.seat_values(rd, *st)
            y = old.seat_values(old.readings(name), *st)
            sx = new.model_shares(rd, *st)
            sy = old.model_shares(old.readings(name), *st)
            dx = bool(new.perfect_decision(rd, *st))
            dy = bool(old.perfect_decision(old.readings(name), *st))
            pairs += 1
            same = (np.array(x[:4]).tobytes() == np.array(y[:4]).tobytes() and x[4] == y[4]
                    and sx.tobytes() == sy.tobytes() and dx == dy)
            if not same:
                differ += 1
                worst = max(worst, float(np.max(np.abs(np.array(x[:4]) - np.array(y[:4])))),
                            float(np.max(np.abs(sx - sy))))
                if differ <= 5:
                    print("differs:", name, x, y, dx, dy, st[3:9])
    print(f"{pairs:,} state/reading pairs ({len(sts):,} states x {len(CHECK_READINGS)} readings, seed {a.seed}): "
          f"{differ} differ in any bit; largest |difference| {worst:.3g}; {time.perf_counter() - t0:.0f} s")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
