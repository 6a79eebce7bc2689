"""The two-player round as a decision problem, solved by backward induction with card removal.

**Information.** At her turn the hero knows her hand (five cards), her face-up cards, the opponent's
face-up cards and how many cards the opponent has played; every other card of the deck is *unseen*
(the opponent's hidden hand, her face-down card and the deck).

**The opponent.** The solver gives the hero's best response to a fixed opponent, the *blind rider*:
she never folds and shows her cards in random order.  Then her cards carry no information beyond
what is face up, and by exchangeability each card she shows, her face-down card, the rest of her
hand and every refill the hero draws are uniform draws without replacement from the unseen cards.
That makes the hero's problem a single-player problem with chance nodes, solved here **exactly**:

* decision nodes: fold (pay the fold price for her face-up cards, capped at her chips: the free
  ride) or play one of her hand cards (the fifth face down);
* chance nodes: her refill (uniform over the unseen cards), then the opponent's next card (shown if
  it is her second to fourth, hidden if it is her fifth);
* leaves: her five played cards against every completion of the opponent's five from the unseen
  cards (exact enumeration): a win takes ``min(showdown_loss, opponent chips)``, a loss pays
  ``min(showdown_loss, her chips)``, a tie moves nothing (the pot of a two-player round holds only
  the loser's payment).

Values are in chips for the hero.  What is approximated, and where:

* the opponent model: the blind rider is a fixed, exploitable opponent, not an equilibrium; a
  best response to a folding opponent would have to track what her folds and shows reveal;
* ``samples``: on the full deck the tree from the second card on is too large to enumerate
  (about 40 x 39 chance outcomes per turn), so chance nodes after which the hero would have fewer than
  ``exact_from`` cards face up average over ``samples`` (refill, opponent card) pairs taken
  systematically (evenly spaced from an offset fixed by the state and ``seed``) instead of all of them.
  With the default ``exact_from=4`` the last decision's chance node is exact; ``samples=None`` is exact
  everywhere (0.04 s from three cards face up on the full deck; from two, 40 samples take about 7 s;
  from one, ``samples=12, exact_from=5`` about 2.5 s, all measured under load).  Sampled values are
  estimates, biased upward by the maximum over sampled continuations.  Small decks are exact from any
  state.

The kernel (:func:`kernel_solve`) and the readable recursion (:func:`state_value`) give the same values.

>>> from ricochet_math.games.freeride.solver import solve_state
>>> s = solve_state("7s 8h Kd Qc 2s", face_up="Ad 9s 3c", opp_up="2c 7d 9h", samples=None)
>>> s.best_action, round(s.value, 3)
('Kd', 5.287)
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
import pandas as pd

from ricochet_math._numba import njit
from ricochet_math.arguments import check_seed, check_whole
from ricochet_math.errors import CardError, RuleError
from ricochet_math.evaluator.cards import format_card, parse_cards
from ricochet_math.evaluator.evaluation import eval5, reference_value
from ricochet_math.evaluator.subsets import next_subset
from ricochet_math.games.freeride.rules import FreeRideRules
from ricochet_math.solvers.executors import call_interruptibly

__all__ = ["Solution", "solve_state", "showdown_value", "reference_showdown_value", "state_value", "kernel_solve", "LastCardStudy", "last_card_study"]


@njit
def _showdown_counts(hero_value, opp_up, n_up, pool, m):
    """(wins, losses, completions) of a hero value against the opponent's ``opp_up[:n_up]`` completed
    with every ``m``-subset of ``pool``."""
    cards = np.empty(5, dtype=np.int64)
    for i in range(n_up):
        cards[i] = opp_up[i]
    n = pool.shape[0]
    idx = np.empty(5, dtype=np.int64)
    for i in range(m):
        idx[i] = i
    wins = 0
    losses = 0
    total = 0
    if m == 0:
        v = eval5(cards[0], cards[1], cards[2], cards[3], cards[4])
        return (1 if hero_value > v else 0), (1 if hero_value < v else 0), 1
    while True:
        for i in range(m):
            cards[n_up + i] = pool[idx[i]]
        v = eval5(cards[0], cards[1], cards[2], cards[3], cards[4])
        total += 1
        if hero_value > v:
            wins += 1
        elif hero_value < v:
            losses += 1
        if not next_subset(idx, m, n):
            break
    return wins, losses, total


def showdown_value(final, opp_up, unseen, win: int, loss: int) -> float:
    """The hero's expected chips with ``final`` (her five played cards) against the opponent's
    ``opp_up`` completed uniformly from ``unseen``."""
    v = int(eval5(*final))
    m = 5 - len(opp_up)
    up = np.zeros(5, dtype=np.int64)
    up[:len(opp_up)] = opp_up
    w, lo, t = _showdown_counts(v, up, len(opp_up), np.array(sorted(unseen), dtype=np.int64), m)
    return (win * w - loss * lo) / t


def reference_showdown_value(final, opp_up, unseen, win: int, loss: int) -> float:
    """Readable twin of :func:`showdown_value` (the evaluator's brute-force reference values)."""
    v = reference_value(final)
    total = 0.0
    combos = list(combinations(sorted(unseen), 5 - len(opp_up)))
    for c in combos:
        w = reference_value(list(opp_up) + list(c))
        total += win if v > w else (-loss if v < w else 0)
    return total / len(combos)


@dataclass(frozen=True)
class _Setup:
    rules: FreeRideRules
    win: int
    loss: int
    hero_chips: int
    samples: int | None
    exact_from: int
    seed: int


def _fold_value(k: int, s: _Setup) -> float:
    return -min(s.rules.fold_cost(k), s.hero_chips)


def state_value(hand, face_up, opp_up, opp_played, unseen, setup: _Setup, memo: dict) -> tuple[float, dict]:
    """(value, {action: value}) of the hero's decision; actions are cards and -1 (fold)."""
    key = (frozenset(hand), tuple(face_up), frozenset(opp_up), opp_played)
    if key in memo:
        return memo[key]
    k = len(face_up)
    values = {-1: _fold_value(k, setup)}
    unseen = tuple(sorted(unseen))
    for c in sorted(hand):
        rest = tuple(x for x in hand if x != c)
        if k == 4:  # the last card, face down: the opponent plays out blind, the leaf is exact
            values[c] = showdown_value(tuple(face_up) + (c,), opp_up, unseen, setup.win, setup.loss)
            continue
        values[c] = _chance(rest, tuple(face_up) + (c,), opp_up, opp_played, unseen, setup, memo)
    best = max(values.values())
    memo[key] = (best, values)
    return best, values


def _offset(seed: int, hand, face_up, opp_up) -> float:
    """The systematic sample's offset in [0, 1): a fixed function of the node (so the kernel picks the same)."""
    return ((seed + sum(hand) + 3 * sum(face_up) + 5 * sum(opp_up)) % 1000) / 1000.0


def _chance(hand, face_up, opp_up, opp_played, unseen, setup: _Setup, memo: dict) -> float:
    """Average over the hero's refill and the opponent's next card, then the hero's next decision."""
    pairs = []
    opp_acts = opp_played < 5
    shows = opp_played < 4
    for r in unseen:
        if not opp_acts or not shows:
            pairs.append((r, None))
        else:
            for o in unseen:
                if o != r:
                    pairs.append((r, o))
    if setup.samples is not None and len(face_up) < setup.exact_from and len(pairs) > setup.samples:
        u = _offset(setup.seed, hand, face_up, opp_up)
        pairs = [pairs[int((t + u) * len(pairs) / setup.samples)] for t in range(setup.samples)]
    total = 0.0
    for r, o in pairs:
        h = tuple(sorted(hand + (r,)))
        ou = opp_up + ((o,) if o is not None else ())
        un = tuple(x for x in unseen if x != r and x != o)
        v, _ = state_value(h, face_up, ou, opp_played + (1 if opp_acts else 0), un, setup, memo)
        total += v
    return total / len(pairs)


# ------------------------------------------------------------------ the kernel twin of state_value

@njit
def _kernel_value(hand, up, k, opp, nopp, opp_played, unseen, nun, win, loss, fold, samples, exact_from, seed,
                  out):
    """The hero's decision value (numba twin of :func:`state_value`): ``hand[:5]`` sorted, ``up[:k]``,
    ``opp[:nopp]`` face up, ``unseen[:nun]`` sorted; ``fold[k]`` the capped fold value; ``samples`` < 0 for
    exact.  Writes each hand card's value to ``out[:5]`` (in hand order) and returns the best action's."""
    best = fold[k]
    cards = np.empty(5, dtype=np.int64)
    sub = np.empty(6, dtype=np.float64)
    for i in range(5):
        c = hand[i]
        if k == 4:
            for j in range(4):
                cards[j] = up[j]
            cards[4] = c
            v = eval5(cards[0], cards[1], cards[2], cards[3], cards[4])
            w, lo, t = _showdown_counts(v, opp, nopp, unseen[:nun], 5 - nopp)
            val = (win * w - loss * lo) / t
        else:
            rest = np.empty(4, dtype=np.int64)
            j = 0
            hsum = 0
            for x in range(5):
                if x != i:
                    rest[j] = hand[x]
                    hsum += hand[x]
                    j += 1
            up2 = up.copy()
            up2[k] = c
            usum = 0
            for x in range(k + 1):
                usum += up2[x]
            osum = 0
            for x in range(nopp):
                osum += opp[x]
            acts = opp_played < 5
            shows = opp_played < 4
            npairs = nun * (nun - 1) if (acts and shows) else nun
            m = npairs
            sampled = samples >= 0 and k + 1 < exact_from and npairs > samples
            if sampled:
                m = samples
            u = ((seed + hsum + 3 * usum + 5 * osum) % 1000) / 1000.0
            total = 0.0
            h2 = np.empty(5, dtype=np.int64)
            un2 = np.empty(nun, dtype=np.int64)
            opp2 = opp.copy()
            for t in range(m):
                p = int((t + u) * npairs / samples) if sampled else t
                if acts and shows:
                    ri = p // (nun - 1)
                    oi = p % (nun - 1)
                    if oi >= ri:
                        oi += 1
                else:
                    ri = p
                    oi = -1
                r = unseen[ri]
                # the hero's new hand: rest + r, sorted
                a = 0
                placed = False
                for x in range(4):
                    if not placed and r < rest[x]:
                        h2[a] = r
                        a += 1
                        placed = True
                    h2[a] = rest[x]
                    a += 1
                if not placed:
                    h2[a] = r
                n2 = 0
                for x in range(nun):
                    if x != ri and x != oi:
                        un2[n2] = unseen[x]
                        n2 += 1
                nopp2 = nopp
                if oi >= 0:
                    opp2[nopp] = unseen[oi]
                    nopp2 = nopp + 1
                total += _kernel_value(h2, up2, k + 1, opp2, nopp2, opp_played + (1 if acts else 0), un2, n2,
                                       win, loss, fold, samples, exact_from, seed, sub)
            val = total / m
        out[i] = val
        if val > best:
            best = val
    return best


def kernel_solve(hand, face_up, opp_up, opp_played, unseen, setup: _Setup) -> dict:
    """{action: value} from the kernel (cards in hand order, -1 = fold), as :func:`state_value` gives."""
    hand = sorted(hand)
    up = np.zeros(5, dtype=np.int64)
    up[:len(face_up)] = face_up
    opp = np.zeros(5, dtype=np.int64)
    opp[:len(opp_up)] = opp_up
    fold = np.array([_fold_value(j, setup) for j in range(5)], dtype=np.float64)
    out = np.zeros(6, dtype=np.float64)
    un = np.array(sorted(unseen), dtype=np.int64)
    _kernel_value(np.array(hand, dtype=np.int64), up, len(face_up), opp, len(opp_up), opp_played, un, len(un),
                  float(setup.win), float(setup.loss), fold, -1 if setup.samples is None else setup.samples,
                  setup.exact_from, setup.seed, out)
    return {-1: float(fold[len(face_up)]), **{c: float(out[i]) for i, c in enumerate(hand)}}


@dataclass(frozen=True)
class Solution:
    """The hero's decision at one state: each action's value in chips (fold and every card), the best,
    the state and how it was computed (``exact`` or the sample count)."""

    hand: tuple[int, ...]
    face_up: tuple[int, ...]
    opp_up: tuple[int, ...]
    opp_played: int
    actions: dict = field(repr=False)
    method: str = "exact"

    @property
    def value(self) -> float:
        return max(self.actions.values())

    @property
    def best_action(self) -> str:
        a = max(self.actions, key=lambda x: (self.actions[x], -x))
        return "fold" if a == -1 else format_card(a)

    def to_frame(self) -> pd.DataFrame:
        rows = [{"action": "fold" if a == -1 else ("play " + format_card(a)), "value": v}
                for a, v in sorted(self.actions.items(), key=lambda kv: -kv[1])]
        return pd.DataFrame(rows)

    def summary(self) -> str:
        return (f"best: {self.best_action} worth {self.value:+.4f} chips ({self.method}); fold "
                f"{self.actions[-1]:+.0f}")


def _cards(text, what: str) -> tuple[int, ...]:
    if text is None or (isinstance(text, str) and not text.strip()):
        return ()
    if not isinstance(text, str) and hasattr(text, "__len__") and len(text) == 0:
        return ()
    return tuple(int(c) for c in parse_cards(text, where=what))  # ints too: 0..51, checked


#: the most chance outcomes a solve may evaluate (an exact solve from two cards up on the full deck, 2.4 million,
#: took 332 s at load 5 on 2 cores: about 140 microseconds each); beyond it the solve is refused before any work
MAX_SOLVE_NODES = 10**6
#: the most sampled pairs per chance node (the exact node has at most 47 x 46)
MAX_SAMPLES = 47 * 46


def projected_nodes(face_up: int, unseen: int, opp_played: int, samples: int | None, exact_from: int) -> int:
    """About how many chance outcomes a solve from ``face_up`` hero cards up evaluates: the product, over
    the chance nodes down to the last decision, of the (refill, opponent card) pairs each averages
    (``samples`` of them where sampled)."""
    total, n = 1, unseen
    for k in range(face_up, 4):
        opp_shows = opp_played < 4
        pairs = n * (n - 1) if opp_shows else n
        if samples is not None and k + 1 < exact_from and pairs > samples:  # the kernel's rule
            pairs = samples
        total *= max(pairs, 1)
        n -= 2 if opp_shows else 1
        opp_played += 1
    return total


def _check_solve_arguments(samples, exact_from, hero_chips, opp_chips, opp_played, seed):
    """The numeric arguments of :func:`solve_state`, checked before any work (one RicochetError line)."""
    if samples is not None:
        samples = check_whole(samples, "samples", high=MAX_SAMPLES)
    exact_from = check_whole(exact_from, "exact_from", low=1, high=5)
    hero_chips = None if hero_chips is None else check_whole(hero_chips, "hero_chips", low=0, high=10**9)
    opp_chips = None if opp_chips is None else check_whole(opp_chips, "opp_chips", low=0, high=10**9)
    opp_played = None if opp_played is None else check_whole(opp_played, "opp_played", low=1, high=5)
    return samples, exact_from, hero_chips, opp_chips, opp_played, check_seed(seed, allow_none=False)


def solve_state(hand, *, face_up=(), opp_up=(), opp_played: int | None = None, rules: FreeRideRules | None = None,
                hero_chips: int | None = None, opp_chips: int | None = None, deck: Sequence[int] | None = None,
                samples: int | None = 40, exact_from: int = 4, seed: int = 2026, reference: bool = False) -> Solution:
    """The hero's best response to the blind rider at a two-player state (see the module docstring).

    ``hand``: her five cards; ``face_up``: her face-up cards (1..4); ``opp_up``: the opponent's face-up
    cards; ``opp_played``: cards the opponent has played (default: as many as face up; 5 once she has
    played her face-down card).  The opponent has played as many cards as the hero, or one more when
    she started.  ``deck``: the cards in play (default all 52; a smaller deck for exact checks).
    ``hero_chips``/``opp_chips``: cap what each can pay (the free ride; default: enough).
    ``reference``: use the readable recursion instead of the kernel (the same values; for tests).
    """
    samples, exact_from, hero_chips, opp_chips, opp_played, seed = _check_solve_arguments(
        samples, exact_from, hero_chips, opp_chips, opp_played, seed)
    rules = rules or FreeRideRules()
    if not isinstance(rules, FreeRideRules):
        raise RuleError(f"rules must be FreeRideRules, got {type(rules).__name__}")
    hand, up, ou = _cards(hand, "hand"), _cards(face_up, "face_up"), _cards(opp_up, "opp_up")
    played = len(ou) if opp_played is None else opp_played
    deck_cards = tuple(range(52)) if deck is None else _cards(deck, "deck")
    seen = hand + up + ou
    if len(hand) != 5 or len(set(seen)) != len(seen) or not set(seen) <= set(deck_cards):
        raise CardError("the hero needs five hand cards, and all cards must be distinct and in the deck")
    if not 1 <= len(up) <= 4 or not len(up) <= played <= len(up) + 1 or len(ou) != min(played, 4):
        raise RuleError("a two-player state: the hero has 1..4 cards face up, the opponent has played as many "
                        "or one more (her fifth face down)")
    unseen = tuple(c for c in deck_cards if c not in set(seen))
    nodes = projected_nodes(len(up), len(unseen), played, samples, exact_from)
    if nodes > MAX_SOLVE_NODES:
        raise RuleError(f"this solve would evaluate about {nodes:.1e} chance outcomes (more than "
                        f"{MAX_SOLVE_NODES:.0e}, minutes to days): give samples (e.g. 40), more cards face up "
                        "or a smaller deck")
    big = 10**9
    setup = _Setup(rules, min(rules.showdown_loss, opp_chips if opp_chips is not None else big),
                   min(rules.showdown_loss, hero_chips if hero_chips is not None else big),
                   hero_chips if hero_chips is not None else big, samples, exact_from, seed)
    if reference:  # the readable recursion (slow; the kernel's test twin)
        _, actions = state_value(hand, up, ou, played, unseen, setup, {})
    else:
        actions = call_interruptibly(kernel_solve, hand, up, ou, played, unseen, setup)  # Ctrl-C: at once
    method = ("exact" if samples is None or len(up) + 1 >= exact_from else
              f"sampled: {samples} pairs per chance node before {exact_from} cards face up")
    return Solution(hand, up, ou, played, dict(actions), method)

@dataclass(frozen=True)
class LastCardStudy:
    """The hero's last decision (four cards face up) in random two-player rounds against the blind rider:
    per state, the exact best value, the value of the strategy's own action, and whether each folds."""

    strategy: str
    seed: int
    table: pd.DataFrame = field(repr=False)

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    def summary(self) -> str:
        t = self.table
        regret = t["best"] - t["strategy_value"]
        se = regret.std(ddof=1) / np.sqrt(len(t)) if len(t) > 1 else float("nan")
        return (f"{len(t):,} last decisions (seed {self.seed}): the exact best folds {100 * t['best_folds'].mean():.1f}%, "
                f"{self.strategy} folds {100 * t['strategy_folds'].mean():.1f}%; {self.strategy} gives up "
                f"{regret.mean():.3f} ± {1.96 * se:.3f} chips per decision to the best play (95%)")


def last_card_study(states: int = 500, strategy="computer", *, seed: int = 2026,
                    rules: FreeRideRules | None = None) -> LastCardStudy:
    """Random two-player rounds (the hero plays ``always`` until her last card; the opponent is the blind
    rider, dealt a real hand): at the hero's last decision, the exact values of every action against
    what ``strategy`` would do there."""
    from ricochet_math.games.freeride.engine import Round  # the engine sits beside the solver; only here
    from ricochet_math.games.freeride.strategies import FOLD, get_strategy

    rules = rules or FreeRideRules()
    strat, always = get_strategy(strategy), get_strategy("always")
    rng = np.random.default_rng(seed)
    setup = _Setup(rules, rules.showdown_loss, rules.showdown_loss, 10**9, None, 4, seed)
    rows = []
    while len(rows) < states:
        rnd = Round(rules, [rules.start_chips] * 2, [int(c) for c in rng.permutation(52)])
        while not rnd.is_terminal():
            s = rnd.current_seat()
            view = rnd.view(s)
            if s == 1:
                rnd.apply(int(rng.choice(view.hand)))
                continue
            if not view.opening and len(view.face_up) == 4:
                unseen = [c for c in range(52) if c not in set(view.hand) | set(view.face_up) | set(rnd.up[1])]
                acts = kernel_solve(view.hand, view.face_up, rnd.up[1], rnd.played(1), unseen, setup)
                own = strat.decide(view)
                best = max(acts.values())
                rows.append({"best": best, "strategy_value": acts[own], "best_folds": acts[-1] >= best,
                             "strategy_folds": own == FOLD, "play_value": max(v for a, v in acts.items() if a != -1)})
                break
            rnd.apply(always.decide(view))
    return LastCardStudy(strat.name, seed, pd.DataFrame(rows))
