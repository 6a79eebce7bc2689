"""How far the exact two-player solver of the home game reaches: positions and seconds by position size.

    PYTHONPATH=. python benchmarks/bench_home_exact.py                       # the standard ladder
    PYTHONPATH=. python benchmarks/bench_home_exact.py --hands "7s" "Kd" --pot 2 --log2-capacity 29 \
        --seconds 480                                                        # one deal, with progress

Each line is JSON: the two hands (the first listed need not act first), the pot, positions in the memo,
the table's slots, seconds, and the first hand's exact value (future net, chips) when it finished.
The solve runs in a thread (the kernel releases the GIL) and the main thread prints the memo's size every
``--every`` seconds, so a run stopped by ``--seconds`` still reports how far it got (a lower bound on the
positions of that tree, not an estimate of its size).
"""
from __future__ import annotations

import argparse
import json
import threading
import time

from ricochet_math.evaluator.cards import parse_cards
from ricochet_math.games.home.exact import ExactSolver, card_mask
from ricochet_math.games.home.rules import HomeRules

#: (hand, hand, pot): from the endgame back towards the deal (both orders of play occur)
LADDER = [("Kd 5h 8d 8s", "2h 2d 9c 7s", 15), ("Kd 7c 2h 3c", "Ks 7h 2s", 7), ("2c 3d 4h", "Qs 9h 7d", 8),
          ("2c 3c 4c", "Kc", 4), ("4c 5d", "9s 3h", 4)]


def run(a: str, b: str, pot: int, log2: int, seconds: float, every: float, rules: HomeRules) -> dict:
    x, y = (card_mask(parse_cards(t)) for t in (a, b))
    solver = ExactSolver(rules, capacity=1 << log2, max_capacity=1 << log2)
    out: dict = {}

    def work():
        try:
            out["value"] = float(solver.values([x], [y], [pot])[0])
        except Exception as exc:  # the table is full: report how far it got
            out["error"] = str(exc)

    t0 = time.perf_counter()
    th = threading.Thread(target=work, daemon=True)
    th.start()
    while th.is_alive() and time.perf_counter() - t0 < seconds:
        th.join(every)
        if th.is_alive():
            print(json.dumps({"hands": [a, b], "pot": pot, "positions_so_far": solver.positions,
                              "seconds": round(time.perf_counter() - t0, 1)}), flush=True)
    row = {"hands": [a, b], "pot": pot, "positions": solver.positions, "slots": solver.capacity,
           "seconds": round(time.perf_counter() - t0, 2), "finished": "value" in out, **out}
    print(json.dumps(row), flush=True)
    return row


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", nargs=2, help="two hands (card text); default: the ladder")
    p.add_argument("--pot", type=int, default=2)
    p.add_argument("--log2-capacity", type=int, default=24, help="hash slots = 2**N (56 bytes each at limit 5)")
    p.add_argument("--seconds", type=float, default=600.0, help="stop waiting after this many seconds")
    p.add_argument("--every", type=float, default=30.0, help="progress line every this many seconds")
    args = p.parse_args(argv)
    rules = HomeRules(players=2)
    ExactSolver(rules, capacity=1 << 10).values([card_mask([0, 1, 2, 3])], [card_mask([40, 44])], [6])  # compile
    todo = [(args.hands[0], args.hands[1], args.pot)] if args.hands else LADDER
    for a, b, pot in todo:
        row = run(a, b, pot, args.log2_capacity, args.seconds, args.every, rules)
        if not row["finished"] and not args.hands:
            break  # the next rung is larger still


if __name__ == "__main__":
    main()
