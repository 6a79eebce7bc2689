"""Decks for the home game: random dealing orders, and a deck with chosen cards first.

A game reads its deck from the front: the deal (seat 1 first, ``start_cards``
rounds), then the cards as they are bought.  :func:`batch_decks` shuffles the whole
deck for each game with numpy's PCG64 on the batch's seed sequence, and draws each
game's seed for the pot-odds strategy's draws; the same seed gives the same deals
whatever the strategies (common random numbers).
"""
from __future__ import annotations

import numpy as np

from ricochet_math.arguments import check_seed
from ricochet_math.errors import CardError
from ricochet_math.evaluator.cards import parse_cards
from ricochet_math.games.home.rules import HomeRules

__all__ = ["batch_decks", "deal_deck"]


def batch_decks(seed_sequence: np.random.SeedSequence, games: int, deck_size: int = 52
                ) -> tuple[np.ndarray, np.ndarray]:
    """``(decks int8[games, deck_size], seeds uint64[games])`` from one seed sequence."""
    rng = np.random.Generator(np.random.PCG64(seed_sequence))
    decks = rng.permuted(np.tile(np.arange(deck_size, dtype=np.int8), (games, 1)), axis=1)
    seeds = rng.integers(0, 2**64, size=games, dtype=np.uint64, endpoint=False)
    return decks, seeds


def deal_deck(rules: HomeRules, *, start=None, then: str | None = None, seed: int | None = None) -> np.ndarray:
    """A deck for one game: ``start`` (each seat's starting cards in seat order, text such as
    ``["Kd", "Jc", "8h", "7s"]``; ``"?"`` for a random hand), ``then`` (the next cards dealt, text),
    the rest shuffled from ``seed``."""
    seed = check_seed(seed)
    n, k = rules.players, rules.start_cards
    start = list(start or [])
    if len(start) > n:
        raise CardError(f"{len(start)} starting hands for {n} players")
    used: dict[int, str] = {}
    fixed = [[None] * k for _ in range(n)]
    for s, text in enumerate(start):
        if text is None or str(text).strip() in ("", "?"):
            continue
        cards = parse_cards(text, count=k, where=f"seat {s + 1}", dead=used, jokers=rules.jokers)
        for i, c in enumerate(cards):
            fixed[s][i] = int(c)
            used[int(c)] = f"seat {s + 1}"
    after = ([int(c) for c in parse_cards(then, where="the cards dealt next", dead=used, jokers=rules.jokers)]
             if then else [])
    for c in after:
        used[c] = "the cards dealt next"
    rest = [c for c in np.random.default_rng(seed).permutation(rules.deck_size).tolist() if c not in used]
    deck = []
    for r in range(k):
        for s in range(n):
            deck.append(fixed[s][r] if fixed[s][r] is not None else rest.pop(0))
    deck += after + rest
    return np.array(deck, dtype=np.int64)
