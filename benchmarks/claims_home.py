"""The home game: the shortcuts against the exact solver at five cards of room (docs/home-game.md).

    PYTHONPATH=. nice python benchmarks/claims_home.py [--out reports/claims]

Writes ``home-depth-error-room5.csv``: every decision of ``--games`` two-player pot-odds games (readable
engine, seed 2027: not the report's 2026, so other deals) whose two live hands have exactly five cards of
room between them, each shortcut's choice (the readable solver cut at depth 1 and 2, budget 50,000
positions; the kernel's pot-odds and min-lift rules) scored against the compiled exact solver: positions
scored, positions left out (cut tree over budget), share that agree, mean and largest regret (chips).
``tests/test_doc_figures.py`` checks the docs' figures against this table.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from ricochet_math.games.home.rules import HomeRules
from ricochet_math.games.home.shortcuts import game_positions, shortcut_error

ROOM = 5


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2027)
    ap.add_argument("--out", default="reports/claims")
    a = ap.parse_args()
    t = time.perf_counter()
    rules = HomeRules(players=2)
    # room <= 5 from the engine, then only the room-5 decisions: room <= 4 is the report's own table
    positions = [p for p in game_positions(rules, a.games, a.seed, max_room=ROOM)
                 if sum(rules.hand_limit - len(h) for h in p.hands if h is not None) == ROOM]
    frame = shortcut_error(rules, positions, depths=(1, 2))
    frame.insert(0, "room", ROOM)
    frame.insert(0, "seed", a.seed)
    frame.insert(0, "games", a.games)
    frame["seconds"] = round(time.perf_counter() - t, 1)
    out = Path(a.out) / "home-depth-error-room5.csv"
    frame.to_csv(out, index=False)
    print(frame.to_string(index=False))
    print(f"wrote {out} in {time.perf_counter() - t:.0f} s")


if __name__ == "__main__":
    main()
