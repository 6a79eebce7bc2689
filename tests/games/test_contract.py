"""The game contract's shared parts on a toy game (no kernel): rules from TOML with one-line errors, a result
that merges, describes itself and shows in a notebook (docs/adding-a-game.md)."""
from __future__ import annotations

import enum
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pytest

from ricochet_math.errors import RicochetError, RuleError
from ricochet_math.game_rules import GameRules
from ricochet_math.solvers.game_result import GameResult


class Colour(enum.IntEnum):
    RED = 0
    BLACK = 1


@dataclass(frozen=True)
class ToyRules(GameRules):
    GAME = "Toy Poker"

    players: int = 2
    colour: Colour = Colour.RED
    costs: tuple[int, int] = (1, 2)

    def __post_init__(self):
        if self.players not in (2, 3):
            raise RuleError(f"Toy Poker is played by 2 or 3 players, got players={self.players!r}")


@dataclass(frozen=True, repr=False)
class ToyResult(GameResult):
    rules: ToyRules
    strategies: tuple[str, ...]
    games: int
    seed: int
    run_time: float
    sums: dict = field(repr=False)
    merged_seeds: tuple[int, ...] = ()

    def summary(self) -> dict[str, object]:
        return {"games": self.games, "win": self.sums["win"] / self.games}

    def describe(self) -> str:
        return f"Toy Poker, {self.games:,} games, seeds {list(self.seeds)}\nseat 1 wins {self.sums['win'][0]:g}"

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame({"seat": [1, 2], "win": self.sums["win"] / self.games})


def test_rules_round_trip_through_toml(tmp_path):
    rules = ToyRules(players=3, colour=Colour.BLACK, costs=(2, 5))
    path = tmp_path / "toy.toml"
    path.write_text(rules.to_toml())
    assert ToyRules.from_toml(path) == rules
    assert rules.to_dict() == {"players": 3, "colour": "black", "costs": [2, 5]}
    assert rules.sha256 != ToyRules().sha256 and len(rules.sha256) == 64
    assert rules.describe().startswith("Toy Poker: players 3")


@pytest.mark.parametrize("text, message", [
    ("plyers = 3", "toy.toml: unknown Toy Poker rule option 'plyers' (did you mean 'players'?)"),
    ("players = 5", "toy.toml: Toy Poker is played by 2 or 3 players, got players=5"),
    ('colour = "green"', "toy.toml: colour: unknown value 'green': choose red, black"),
    ("players = ", "toy.toml: not valid TOML"),
])
def test_rules_file_errors_are_one_line(tmp_path, text, message):
    path = tmp_path / "toy.toml"
    path.write_text(text + "\n")
    with pytest.raises(RuleError) as err:
        ToyRules.from_toml(path)
    assert str(err.value).startswith(str(tmp_path / message.split(":")[0]) + ":")
    assert message.split(": ", 1)[1] in str(err.value) and "\n" not in str(err.value)


def test_missing_rules_file_is_one_line(tmp_path):
    with pytest.raises(RicochetError, match="cannot read the rules file"):
        ToyRules.from_toml(tmp_path / "none.toml")


def _run(seed, win):
    return ToyResult(ToyRules(), ("a", "b"), 10, seed, 1.5, {"win": np.array(win, dtype=float)})


def test_results_merge_add_their_sums_and_keep_their_seeds():
    a, b = _run(1, [6, 4]), _run(2, [3, 7])
    m = a.merge(b)
    assert m.games == 20 and m.seeds == (1, 2) and m.run_time == 3.0
    assert m.sums["win"].tolist() == [9.0, 11.0] and a.sums["win"].tolist() == [6.0, 4.0]
    assert m.merge(_run(3, [1, 1])).seeds == (1, 2, 3)
    with pytest.raises(RicochetError, match="same seed"):
        m.merge(_run(2, [1, 1]))
    with pytest.raises(RicochetError, match="same rules"):
        a.merge(ToyResult(ToyRules(players=3), ("a", "b"), 10, 9, 1.0, {"win": np.zeros(2)}))


def test_results_read_in_a_terminal_and_a_notebook():
    r = _run(1, [6, 4])
    assert repr(r) == "Toy Poker, 10 games, seeds [1]\nseat 1 wins 6"
    page = r._repr_html_()
    assert page.startswith("<p><b>Toy Poker, 10 games, seeds [1]</b></p>") and "<table" in page
