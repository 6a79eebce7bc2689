"""Golden figures of the four further games: small seeded runs of every game, pinned to the last bit.

Generated once after the game contract and the one random module (issue 26); ``tests/test_golden_games.py``
compares them with ``tests/golden/games.json``.  Regenerate (only when a game's figures are meant to change,
and say why in the commit)::

    python tests/golden_games.py --write

The same canonical form as the casino's golden figures (:func:`golden_figures.canon`): floats as ``repr``,
arrays as dtype, shape and SHA-256 of their bytes.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

import ricochet_math as rm
from golden_figures import GOLDEN, canon

GAMES_FILE = GOLDEN / "games.json"


def _sums(result) -> dict:
    return {k: canon(np.asarray(v)) for k, v in sorted(result.sums.items())}


def ring_figures() -> dict:
    two = rm.ring.simulate(rm.ring.Rules(players=2), None, 400, seed=1, batch_size=200, workers=1)
    three = rm.ring.simulate(rm.ring.Rules(players=3, joker="wild"), ["greedy-fast", "lookahead", "random"], 120,
                             seed=2, batch_size=60, workers=1)
    game = rm.ring.play_game(rm.ring.Rules(players=3), ["greedy-fast", "denial", "random"], seed=7)
    return {"simulate_2p": _sums(two), "simulate_3p_wild": _sums(three), "seats_2p": canon(two.to_frame()),
            "play_game": {"deck": canon(list(game.deck)), "points": canon(list(game.points)),
                          "shares": canon(list(game.shares))}}


def home_figures() -> dict:
    four = rm.home.simulate(rm.home.Rules(players=4), "pot-odds", 2_000, seed=3, batch_size=1_000, workers=1)
    two = rm.home.simulate(rm.home.Rules(players=2, hand_limit=7, start_cards=2), ["min-lift", "limit"], 1_000,
                           seed=4, batch_size=500, workers=1)
    game = rm.home.play_game(rm.home.Rules(players=3), "min-lift", seed=5)
    return {"simulate_4p": _sums(four), "simulate_2p_limit7": _sums(two), "by_order_4p": canon(four.by_order()),
            "play_game": {"deck": canon(list(game.deck)), "pot": canon(game.pot), "net": canon([s.net for s in game.seats])}}


def rococo_figures() -> dict:
    sim = rm.rococo.simulate(None, ["standard", "loose"], 2_000, seed=5, batch_size=1_000, workers=1)
    three = rm.rococo.simulate(None, ["blinder", "tight", "passive"], 1_000, seed=6, batch_size=500, workers=1)
    game = rm.rococo.play_game(None, ["blinder", "loose"], seed=3)
    from ricochet_math.evaluator.cards import parse_cards
    from ricochet_math.games.rococo.removal import simulate_share

    sol = rm.rococo.solve_draws(1)
    cards = np.sort(parse_cards("Kh Kd 7c 4s 2h").astype(np.int64))
    share = simulate_share(cards, 0b11000, sol.hand_keep, 1, 2_000, 9)
    return {"simulate_2p": _sums(sim), "simulate_3p": _sums(three),
            "play_game": {"contributions": canon(list(game.contributions)), "payouts": canon(list(game.payouts)),
                          "keeps": canon(list(game.keeps)), "outcome": canon(game.outcome)},
            "removal_share": canon(list(share))}


def freeride_figures() -> dict:
    games = rm.freeride.simulate(None, ["computer", "bold"], 400, seed=9, batch_size=200, workers=1)
    rounds = rm.freeride.simulate_rounds(["computer"] * 4, rounds=2_000, seed=1, workers=1, batch_size=1_000)
    game = rm.freeride.play_game(None, ["computer", "bold", "hider", "cautious"], seed=3)
    return {"simulate_games": _sums(games), "simulate_rounds": _sums(rounds),
            "play_game": {"rounds": canon(game.rounds), "chips": canon(list(game.chips))}}


SECTIONS = {"ring": ring_figures, "home": home_figures, "rococo": rococo_figures, "freeride": freeride_figures}


def compute() -> dict:
    return {name: fn() for name, fn in SECTIONS.items()}


def main(argv) -> int:
    if "--write" not in argv:
        print(__doc__)
        return 2
    GAMES_FILE.write_text(json.dumps(compute(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {GAMES_FILE}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    sys.exit(main(sys.argv[1:]))
