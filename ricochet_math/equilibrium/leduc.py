"""Leduc hold'em (Southey et al. 2005), the standard six-card game: a reference game of the equilibrium layer.

Six cards, two each of J, Q, K (labels ``J1 J2 Q1 Q2 K1 K2``); two players ante 1 chip and are dealt one
private card each.  Two betting rounds, player 0 first in each: ``c`` checks or calls, ``r`` raises
(2 chips in the first round, 4 in the second; at most two raises a round), ``f`` folds (only facing a
raise).  A round ends on two checks or on a call of a raise; between the rounds one public card is turned.
At the showdown a private card that pairs the public card wins, else the higher rank; equal ranks split.
This is OpenSpiel's ``leduc_poker`` history for history (cards dealt one by one to player 0, then 1,
then the public card; its actions fold 0, call 1, raise 2 are ``f c r`` here), with the same utilities,
so its values and exploitabilities compare with ours to the last digits.

Information-set keys: ``"K1|Q2:rrc/c"`` is the private card, the public card (empty before it is
turned) and each round's actions.  By default the keys name the card with its suit, as OpenSpiel does
(936 information sets); ``suits=False`` names ranks only (288), the same game with merged symmetric
information sets (the same equilibrium value).
"""
from __future__ import annotations

from ricochet_math.equilibrium.game import CHANCE, TERMINAL, Game, History

__all__ = ["LeducPoker", "LEDUC_CARDS"]

LEDUC_CARDS = ("J1", "J2", "Q1", "Q2", "K1", "K2")
_RAISE = (2.0, 4.0)
_MAX_RAISES = 2


def _round_over(moves: str) -> bool:
    """Two checks, or a call (or fold) after a raise."""
    return moves == "cc" or (len(moves) >= 2 and "r" in moves and moves[-1] in "cf")


class LeducPoker(Game):
    """Leduc hold'em; ``suits``: information-set keys name the card with its suit (OpenSpiel's game)."""

    num_players = 2

    def __init__(self, suits: bool = True) -> None:
        self.suits = bool(suits)
        self.name = "leduc" if self.suits else "leduc(suits=False)"

    @staticmethod
    def _parse(history: History) -> tuple[tuple[str, ...], str, str, str | None]:
        """(dealt private cards, round-1 moves, round-2 moves, public card or None)."""
        dealt = history[:2]
        rest = history[2:]
        one, two, public = "", "", None
        for h in rest:
            if public is None and h in LEDUC_CARDS:
                public = h
            elif public is None:
                one += h
            else:
                two += h
        return dealt, one, two, public

    def player(self, history: History) -> int:
        if len(history) < 2:
            return CHANCE
        _, one, two, public = self._parse(history)
        if one.endswith("f") or two.endswith("f"):
            return TERMINAL
        if public is None:
            return CHANCE if _round_over(one) else len(one) % 2
        return TERMINAL if _round_over(two) else len(two) % 2

    def infoset(self, history: History) -> str:
        dealt, one, two, public = self._parse(history)
        p = len(two if public is not None else one) % 2
        name = (lambda c: c) if self.suits else (lambda c: c[0])
        return f"{name(dealt[p])}|{name(public) if public else ''}:{one}/{two}"

    def actions(self, history: History) -> tuple[str, ...]:
        _, one, two, public = self._parse(history)
        moves = two if public is not None else one
        facing = moves.endswith("r")
        raises = moves.count("r")
        return (("f",) if facing else ()) + ("c",) + (("r",) if raises < _MAX_RAISES else ())

    def chance_outcomes(self, history: History) -> list[tuple[str, float]]:
        left = [c for c in LEDUC_CARDS if c not in history]
        return [(c, 1.0 / len(left)) for c in left]

    def utilities(self, history: History) -> list[float]:
        dealt, one, two, public = self._parse(history)
        paid = [1.0, 1.0]
        folder = None
        for size, moves in zip(_RAISE, (one, two)):
            for i, m in enumerate(moves):
                p = i % 2  # player 0 opens each round
                if m == "r":
                    paid[p] = max(paid) + size
                elif m == "c":
                    paid[p] = max(paid)
                else:
                    folder = p
        if folder is not None:
            winner = 1 - folder
        else:
            strength = [(dealt[p][0] == public[0], "JQK".index(dealt[p][0])) for p in (0, 1)]
            if strength[0] == strength[1]:
                return [0.0, 0.0]
            winner = 0 if strength[0] > strength[1] else 1
        return [paid[1 - winner] if p == winner else -paid[p] for p in (0, 1)]
