"""Kuhn poker (Kuhn 1950), the smallest poker with bluffing: a reference game of the equilibrium layer.

``players + 1`` cards of distinct ranks (two players: J, Q, K); each player antes 1 chip and is dealt one
card; the players act in turn from player 0 with ``p`` (pass: check, or fold facing a bet) or ``b`` (bet
1 chip, or call a bet).  Until someone bets, each player may check or bet; once a player bets, every
other player in turn after her acts once, calling or folding.  The hand ends when everyone has checked
(showdown among all) or when everyone after the bettor has acted (showdown among the bettor and the
callers); the highest card shown takes the pot.  This is OpenSpiel's ``kuhn_poker`` (any player count)
history for history: cards dealt one by one to player 0, 1, ..., the same actions and payoffs.

Two players: the first player's value is -1/18 chip, and her equilibria form the one-parameter family of
Kuhn's paper (the jack bets with probability alpha in [0, 1/3], the king with 3 alpha, the queen always
checks and calls a bet with probability alpha + 1/3); the second player's equilibrium is unique.
"""
from __future__ import annotations

from ricochet_math.arguments import check_whole
from ricochet_math.equilibrium.game import CHANCE, TERMINAL, Game, History

__all__ = ["KuhnPoker", "KUHN_VALUE"]

#: the first player's value of two-player Kuhn poker, in chips (Kuhn 1950)
KUHN_VALUE = -1.0 / 18.0
_NAMES = "JQKA"


class KuhnPoker(Game):
    """Kuhn poker for ``players`` (2 to 10) players; card labels J, Q, K, A for up to three players, else
    ``c0``, ``c1``, ... in rank order."""

    def __init__(self, players: int = 2) -> None:
        self.num_players = check_whole(players, "players", low=2, high=10)
        self.name = "kuhn" if players == 2 else f"kuhn(players={players})"
        n = self.num_players + 1
        self.cards = tuple(_NAMES[:n]) if n <= len(_NAMES) else tuple(f"c{i}" for i in range(n))
        self._rank = {c: i for i, c in enumerate(self.cards)}

    def _split(self, history: History) -> tuple[History, str]:
        return history[:self.num_players], "".join(history[self.num_players:])

    def _done(self, moves: str) -> bool:
        n = self.num_players
        if "b" not in moves:
            return len(moves) == n
        return len(moves) - moves.index("b") == n  # everyone after the first bet has acted once

    def player(self, history: History) -> int:
        dealt, moves = self._split(history)
        if len(dealt) < self.num_players:
            return CHANCE
        return TERMINAL if self._done(moves) else len(moves) % self.num_players

    def infoset(self, history: History) -> str:
        dealt, moves = self._split(history)
        return f"{dealt[len(moves) % self.num_players]}:{moves}"

    def actions(self, history: History) -> tuple[str, ...]:
        return ("p", "b")

    def chance_outcomes(self, history: History) -> list[tuple[str, float]]:
        left = [c for c in self.cards if c not in history]
        return [(c, 1.0 / len(left)) for c in left]

    def utilities(self, history: History) -> list[float]:
        dealt, moves = self._split(history)
        n = self.num_players
        first = moves.find("b")
        # who put chips in beyond the ante: the bettor and every caller after her (players in turn order)
        bettors = [] if first < 0 else [i % n for i in range(first, len(moves)) if moves[i] == "b"]
        contenders = bettors or list(range(n))
        winner = max(contenders, key=lambda p: self._rank[dealt[p]])
        paid = [1.0 + (1.0 if p in bettors else 0.0) for p in range(n)]
        pot = sum(paid)
        return [(pot if p == winner else 0.0) - paid[p] for p in range(n)]
