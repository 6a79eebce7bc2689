"""The four further games' golden figures (``tests/golden/games.json``, written by
``python tests/golden_games.py --write``): small seeded runs, bit for bit."""
from __future__ import annotations

import json

import pytest

import golden_games as GG
from test_golden import _check

EXPECTED = json.loads(GG.GAMES_FILE.read_text()) if GG.GAMES_FILE.exists() else {}


@pytest.mark.parametrize("game", sorted(GG.SECTIONS))
def test_game_golden_figures(game):
    assert game in EXPECTED, "generate tests/golden/games.json with: python tests/golden_games.py --write"
    _check(GG.SECTIONS[game](), EXPECTED[game])
