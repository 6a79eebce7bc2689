"""The ``optimal`` strategy's error from the deal, where the exact solver solves the whole game.

The ``optimal`` strategy (:mod:`ricochet_math.games.home.strategies`) is exact once the two live hands
have at most ``EXACT_TWO_HAND_ROOM`` (4) cards of room between them and plays the pot-odds rule before.
With one starting card the tree from the deal is far too large to solve (:mod:`ricochet_math.games.home.
tree_size`: about 10**10 positions a deal); with **two starting cards** (8 to 60 million positions) it is
solved, so the abstraction can be scored from the deal exactly.  Given a solved table, every value below
is an exact expectation (no sampling of the cards):

* ``exact``: the first to act's EV (chips, ante included) when both play the exact expectimax.
* ``both``: both play the abstraction.  Its pot-odds rule estimates its lift chances from 128 random
  draws (a per-game generator), so its choice at a position is random: each pot-odds decision is valued
  as the average over ``draws`` generator states of the value of the choice they give ("as played");
  ``both_exact_pk`` is the same with the rule's chances computed exactly (the rule's noiseless version).
* ``first_best_response`` / ``second_best_response``: the first to act's EV when it (resp. the other
  player) plays the best response to the abstraction: how much each player's abstraction gives away
  against an opponent who knows it (``exact`` lies between the two: the game is zero-sum).

Where the live hands have at most ``exact_room`` cards of room (and in a card being dealt from a total
of ``exact_room + 1``) every profile plays the exact subgame, so its value is read from the solver's
table; above it a small recursion over the chance nodes and the abstraction's decisions remains (at two
starting cards: the first decision, and the second player's first decision after a one-card lift).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ricochet_math._numba import njit
from ricochet_math.arguments import check_finite, check_instance, check_seed, check_whole
from ricochet_math.errors import RicochetError
from ricochet_math.evaluator.cards import format_cards, parse_cards
from ricochet_math.games.home import exact as _exact
from ricochet_math.games.home.exact import ExactSolver, card_mask
from ricochet_math.games.home.hands import hand_keys
from ricochet_math.games.home.rules import HomeRules
from ricochet_math.games.home.solver import MAX_POT
from ricochet_math.games.home.strategies import EXACT_TWO_HAND_ROOM, View, pot_odds_buy

__all__ = ["DealError", "deal_error", "lift_chances", "pot_odds_exact"]


# ------------------------------------------------------------------ the pot-odds rule without sampling
@njit(cache=False)  # recursive: numba's cache cannot reload it
def _lift_walk(hand, n, target, unseen, n_unseen, used, depth, room, prob, out):
    """``out[L]`` += the chance that the first lifting prefix of a random deal has ``L`` cards (L <= room)."""
    share = prob / (n_unseen - (depth - 1))
    for i in range(n_unseen):
        if used[i]:
            continue
        hand[n] = unseen[i]
        if hand_keys(hand, n + 1)[1] > target:
            out[depth] += share
        elif depth < room:
            used[i] = True
            _lift_walk(hand, n + 1, target, unseen, n_unseen, used, depth + 1, room, share, out)
            used[i] = False


def lift_chances(hand, target: int, unseen, room: int) -> np.ndarray:
    """``p[k]`` (k = 0..room): the exact chance that at most ``k`` cards dealt one at a time from ``unseen``
    lift ``hand`` past the order key ``target`` (what the pot-odds rule estimates from 128 draws)."""
    h = np.zeros(len(hand) + room + 1, dtype=np.int64)
    h[:len(hand)] = hand
    u = np.asarray(unseen, dtype=np.int64)
    first = np.zeros(room + 2)
    if room > 0:
        _lift_walk(h, len(hand), int(target), u, len(u), np.zeros(len(u), dtype=np.bool_), 1, room, 1.0, first)
    return np.cumsum(first[:room + 1])


def pot_odds_exact(view: View, theta: float = 1.0) -> int:
    """The pot-odds rule (``strategies.pot_odds_buy``) with its lift chances exact instead of sampled."""
    p = lift_chances(view.hand, view.target, view.unseen, view.room)
    best, best_value = 0, 0.0
    for k in range(1, view.room + 1):
        value = theta * p[k] * (view.pot + k) / (view.active - 1) - k
        if value > best_value:
            best, best_value = k, value
    return best


# ------------------------------------------------------------------ result
@dataclass(frozen=True)
class DealError:
    """The abstraction against the exact solve from one root (two live hands), the first to act's EV in chips
    (ante included when the root is a deal: ``ante`` is subtracted from every value)."""

    rules: HomeRules
    first: tuple[int, ...]    # the hand that acts first at the root
    second: tuple[int, ...]
    pot: int
    exact_room: int
    draws: int
    seed: int
    positions: int
    seconds: float
    exact: float
    both: float
    both_exact_pk: float
    first_best_response: float
    second_best_response: float
    decisions: pd.DataFrame   # every abstraction (pot-odds) decision of the top of the tree

    @property
    def first_gives_away(self) -> float:
        """What the first to act's abstraction concedes to a best-responding opponent (chips a game)."""
        return self.exact - self.second_best_response

    @property
    def second_gives_away(self) -> float:
        return self.first_best_response - self.exact

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame([{
            "first": format_cards(self.first), "second": format_cards(self.second), "pot": self.pot,
            "exact_room": self.exact_room, "positions": self.positions, "exact": self.exact, "both": self.both,
            "both_exact_pk": self.both_exact_pk, "first_best_response": self.first_best_response,
            "second_best_response": self.second_best_response, "decisions": len(self.decisions),
            "agree": float(self.decisions.agree.mean()) if len(self.decisions) else np.nan,
            "mean_regret": float(self.decisions.regret.mean()) if len(self.decisions) else np.nan,
            "max_regret": float(self.decisions.regret.max()) if len(self.decisions) else np.nan,
            "draws": self.draws, "seed": self.seed, "seconds": self.seconds}])

    def summary(self) -> str:
        d = self.decisions
        return (f"{format_cards(self.first)} v {format_cards(self.second)} (pot {self.pot}; {self.positions:,} "
                f"positions, {self.seconds:.0f} s): first to act EV exact {self.exact:+.5f}, both optimal:"
                f"{self.exact_room} {self.both:+.5f} (exact chances {self.both_exact_pk:+.5f}); best responses "
                f"{self.first_best_response:+.5f} / {self.second_best_response:+.5f}; {len(d)} pot-odds "
                f"decisions, {d.agree.mean():.1%} agree, mean regret {d.regret.mean():.4f} chips")


# ------------------------------------------------------------------ evaluation
class _Evaluator:
    """Values of the top of the tree under a profile: ``prof[seat]`` is "br" (best response), "rule" (the
    abstraction as played) or "exact-pk" (the abstraction with exact chances); seat 0 acts first."""

    def __init__(self, rules, solver: ExactSolver, exact_room: int, states: np.ndarray):
        self.rules, self.solver, self.exact_room, self.states = rules, solver, exact_room, states
        self.buf = np.zeros((_exact.MAX_LEVELS, 8), dtype=np.int64)
        self.memo: dict = {}
        self.dists: dict = {}
        self.decisions: dict = {}
        self.limit = rules.hand_limit

    def keys(self, m: int):
        cards = np.array([c for c in range(64) if m >> c & 1], dtype=np.int64)
        k, o = hand_keys(cards, len(cards))
        return len(cards), int(k), int(o)

    def room_total(self, h: int, o: int) -> int:
        return 2 * self.limit - h.bit_count() - o.bit_count()

    def exact_value(self, h: int, o: int, pot: int, r: int) -> float:
        s = self.solver
        v = _exact.subgame_value(np.uint64(h), np.uint64(o), np.int64(pot), np.int64(r), 1, s.keys, s.vals, s.stats,
                          s.params, s.live_mask, self.buf)
        if s.stats[_exact.Stat.OVERFLOW]:
            raise RicochetError("deal error: the solver's table filled up (solve the root first, in a table "
                                "large enough)")
        return float(v)

    def unseen(self, h: int, o: int) -> list[int]:
        live = int(self.solver.live_mask)
        return [c for c in range(self.rules.deck_size) if live >> c & 1 and not (h | o) >> c & 1]

    def view(self, h: int, o: int, pot: int) -> View:
        unseen = self.unseen(h, o)
        room = min(self.limit - h.bit_count(), len(unseen))
        return View(tuple(c for c in range(64) if h >> c & 1), self.keys(o)[2], pot, room, 2, tuple(unseen))

    def rule_dist(self, h: int, o: int, pot: int) -> dict:
        """The abstraction's choice at a pot-odds decision: {k: share of the generator states}."""
        key = (h, o, pot)
        if key not in self.dists:
            view = self.view(h, o, pot)
            ks = [pot_odds_buy(view, 1.0, [int(s)]) for s in self.states]
            self.dists[key] = {k: ks.count(k) / len(ks) for k in sorted(set(ks))}
            self.dists[key, "exact-pk"] = pot_odds_exact(view)
        return self.dists[key]

    def decide(self, h: int, o: int, pot: int, seat: int, prof) -> float:
        """The acting (lowest) hand ``h``'s future net at its decision."""
        if self.room_total(h, o) <= self.exact_room:
            return self.exact_value(h, o, pot, 0)
        key = (h, o, pot, 0, seat, prof)
        if key in self.memo:
            return self.memo[key]
        room = min(self.limit - h.bit_count(), len(self.unseen(h, o)))
        av = [0.0] + [self.deal(h, o, pot + k, k, seat, prof) - k for k in range(1, room + 1)]
        mode = prof[seat]
        dist = self.rule_dist(h, o, pot)
        if mode == "br":
            v = max(av)
        elif mode == "exact-pk":
            v = av[self.dists[(h, o, pot), "exact-pk"]]
        else:
            v = sum(p * av[k] for k, p in dist.items())
        if (h, o, pot) not in self.decisions:  # the decision's regret with exact play afterwards
            ex = [0.0] + [self.exact_value(h, o, pot + k, k) - k for k in range(1, room + 1)]
            best = max(range(len(ex)), key=lambda k: (ex[k], -k))
            self.decisions[h, o, pot] = {
                "hand": format_cards([c for c in range(64) if h >> c & 1]),
                "other": format_cards([c for c in range(64) if o >> c & 1]), "pot": pot,
                "room": self.room_total(h, o), "exact_best": best,
                "rule": " ".join(f"{k}:{p:.2f}" for k, p in dist.items()),
                "rule_exact_pk": self.dists[(h, o, pot), "exact-pk"],
                "agree": dist.get(best, 0.0), "regret": ex[best] - sum(p * ex[k] for k, p in dist.items())}
        self.memo[key] = v
        return v

    def deal(self, h: int, o: int, pot: int, r: int, seat: int, prof) -> float:
        """``h``'s future net with ``r`` paid cards to come (exact.subgame_value's chance node)."""
        if self.room_total(h, o) - 1 <= self.exact_room:
            return self.exact_value(h, o, pot, r)
        key = (h, o, pot, r, seat, prof)
        if key in self.memo:
            return self.memo[key]
        unseen = self.unseen(h, o)
        n_o, k_o, o_o = self.keys(o)
        total = 0.0
        for c in unseen:
            h2 = h | (1 << c)
            _, k_h, o_h = self.keys(h2)
            if o_h > o_o:
                if self.rules.tie_ends and k_h == k_o:
                    total += pot / 2
                elif min(self.limit - n_o, len(unseen) - 1) > 0:
                    total += pot - self.decide(o, h2, pot, 1 - seat, prof)
                elif k_h == k_o:
                    total += pot / 2
                else:
                    total += pot
            elif r > 1 and len(unseen) > 1:
                total += self.deal(h2, o, pot, r - 1, seat, prof)
        v = total / len(unseen)
        self.memo[key] = v
        return v


def deal_error(rules: HomeRules, first, second, pot: int | None = None, *, exact_room: int = EXACT_TWO_HAND_ROOM,
               draws: int = 256, seed: int = 2026, solver: ExactSolver | None = None, ante: float | None = None,
               progress=None) -> DealError:
    """Score the ``optimal:``-style abstraction (exact at ``exact_room`` cards of room or less, the pot-odds
    rule above) against the exact solve from the root ``(first, second, pot)`` (two hands, card text or
    cards; ``pot`` defaults to the deal's, ``rules.players``).  ``draws`` generator states (seeded) value each
    pot-odds decision as played.  ``solver``: a table to use (default: a fresh one that doubles as needed);
    ``ante``: subtracted from every value (default 1 at the deal's pot, else 0)."""
    check_instance(rules, HomeRules, "rules")
    check_whole(exact_room, "exact_room", low=0, high=2 * rules.hand_limit)
    check_whole(draws, "draws", high=10**6)
    seed = check_seed(seed, allow_none=False)
    check_instance(solver, ExactSolver, "solver", allow_none=True)
    a, b = (tuple(int(c) for c in parse_cards(x, where=w, jokers=rules.jokers))
            for x, w in ((first, "the first hand"), (second, "the second hand")))
    pot = rules.players if pot is None else check_whole(pot, "pot", high=MAX_POT)
    if ante is not None:
        check_finite(ante, "ante", low=0, high=MAX_POT)
    ante = (1.0 if pot == rules.players else 0.0) if ante is None else float(ante)
    solver = solver or ExactSolver(rules, capacity=1 << 20, max_capacity=1 << 28)
    if solver.dead:
        raise RicochetError("deal error: two live hands and no dead cards")
    ma, mb = card_mask(a), card_mask(b)
    t0 = time.perf_counter()
    root = float(solver.values([ma], [mb], [pot])[0])
    solved = time.perf_counter() - t0
    if progress:
        progress(f"solved {solver.positions:,} positions in {solved:.0f} s")
    states = np.random.Generator(np.random.PCG64(seed)).integers(0, 2**64, size=draws, dtype=np.uint64)
    ev = _Evaluator(rules, solver, exact_room, states)
    if ev.keys(ma)[2] > ev.keys(mb)[2]:
        a, b, ma, mb = b, a, mb, ma
        root = pot - root
    n_u = len(ev.unseen(ma, mb))
    if min(rules.hand_limit - len(a), n_u) <= 0:
        raise RicochetError("deal error: the hand to act cannot buy (the position is over)")
    values = {}
    for name, prof in (("both", ("rule", "rule")), ("both_exact_pk", ("exact-pk", "exact-pk")),
                       ("first_best_response", ("br", "rule")), ("second_best_response", ("rule", "br"))):
        values[name] = ev.decide(ma, mb, pot, 0, prof) - ante
    decisions = pd.DataFrame(list(ev.decisions.values()), columns=[
        "hand", "other", "pot", "room", "exact_best", "rule", "rule_exact_pk", "agree", "regret"])
    return DealError(rules, a, b, pot, exact_room, draws, seed, solver.positions, time.perf_counter() - t0,
                     root - ante, **values, decisions=decisions)
