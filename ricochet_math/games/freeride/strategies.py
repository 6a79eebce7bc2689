"""Strategies for Free Ride Poker: a parametrised family (fold thresholds by cards shown, which card to
show, whether to read the other boards), a readable ``decide`` and its numba twin ``kernel_decide``.

A player's **plan** is the best five-card hand she can finish with from what she holds now: her
face-up cards plus the best ``5 - k`` cards of her hand (no better refill assumed).  Its dense value
(0..7461, :func:`~ricochet_math.evaluator.evaluation.eval5`) is her strength.  A :class:`Threshold`
strategy, at a turn with ``k`` cards face up:

* folds when the plan's value is below ``thresholds[k]`` (or, ``wary``, when some other active
  player's face-up cards alone already beat her whole plan, compared by the kicker-rule partial key);
* otherwise plays one card of the plan: ``strong`` the highest card, ``weak`` the lowest, ``hide`` the
  one that leaves her face-up cards looking weakest (the lowest partial key of the cards then showing;
  ties to the lowest card).  The fifth card is the plan's last one (played face down).

The opening card (``opening = "card"``) is chosen the same way and cannot be folded.  Ties between plans
of equal value go to the first in :func:`itertools.combinations` order of the hand sorted by card.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.arguments import spec_parts, split_items
from ricochet_math.errors import StrategyError, quote
from ricochet_math.evaluator.evaluation import FIVE_CARD_KEY, eval5, partial_key
from ricochet_math.evaluator.names import describe, pattern_value
from ricochet_math.evaluator.subsets import next_subset

__all__ = ["Threshold", "SHOWS", "FOLD", "PRESETS", "get_strategy", "plan_of", "kernel_decide", "strategy_rows",
           "View"]

#: the action value of a fold (a play is the card, 0..51)
FOLD = -1
SHOWS = ("strong", "weak", "hide")


@dataclass(frozen=True)
class View:
    """What a seat sees at its turn: its hand (sorted), its own face-up cards in order (``played``
    counts the face-down fifth too), every seat's face-up cards, who is still in, and her chips."""

    seat: int
    hand: tuple[int, ...]
    face_up: tuple[int, ...]
    boards: tuple[tuple[int, ...], ...]
    active: tuple[bool, ...]
    chips: int
    opening: bool = False


@dataclass(frozen=True)
class Threshold:
    """Fold below ``thresholds[k]`` (dense hand values, by cards face up 0..4); show ``show``; ``wary``:
    also fold when another board alone beats the plan.  ``name`` is how tables call it."""

    thresholds: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)
    show: str = "strong"
    wary: bool = False
    name: str = "always"

    def __post_init__(self) -> None:
        if self.show not in SHOWS:
            raise StrategyError(f"unknown show rule {quote(self.show)}; choose one of {', '.join(SHOWS)}")
        t = tuple(int(x) for x in self.thresholds)
        if len(t) != 5 or any(not 0 <= x <= 7462 for x in t):
            raise StrategyError(f"thresholds must be five hand values 0..7462, got {quote(self.thresholds)}")
        object.__setattr__(self, "thresholds", t)

    def decide(self, view: View) -> int:
        """The card to play (0..51) or :data:`FOLD` (readable twin of :func:`kernel_decide`)."""
        k = len(view.face_up)
        value, plan = plan_of(view.face_up, view.hand)
        if not view.opening:
            if value < self.thresholds[k]:
                return FOLD
            if self.wary:
                mine = int(FIVE_CARD_KEY[value])
                for s, board in enumerate(view.boards):
                    if s != view.seat and view.active[s] and board and _key(board) > mine:
                        return FOLD
        if k == 4 or len(plan) == 1:
            return plan[0]
        if self.show == "strong":
            return max(plan)
        if self.show == "weak":
            return min(plan)
        return min(plan, key=lambda c: (_key(view.face_up + (c,)), c))

    def row(self) -> np.ndarray:
        """The kernel's parameter row: thresholds 0..4, show code, wary."""
        return np.array(list(self.thresholds) + [SHOWS.index(self.show), int(self.wary)], dtype=np.int64)

    def describe(self) -> str:
        names = ", ".join(f"{k} up: {describe(t) if t else 'any'}" for k, t in enumerate(self.thresholds) if k)
        return f"{self.name}: play on with at least ({names}); show {self.show}" + ("; wary" if self.wary else "")


def _key(cards) -> int:
    arr = np.array(cards, dtype=np.int64)
    return int(partial_key(arr, len(arr)))


def plan_of(face_up, hand) -> tuple[int, tuple[int, ...]]:
    """(value, plan cards from the hand) of the best finish from ``face_up`` plus ``5 - k`` hand cards
    (the hand read in sorted order; the first best in combinations order)."""
    up = tuple(face_up)
    hand = tuple(sorted(hand))
    best, plan = -1, ()
    for combo in combinations(hand, 5 - len(up)):
        v = int(eval5(*(up + combo)))
        if v > best:
            best, plan = v, combo
    return best, plan


def _pattern(text: str, where: str) -> int:
    text = text.strip()
    if text.lower() in ("any", "x", "0"):  # an empty threshold is refused by the spec grammar first
        return 0
    try:
        return int(pattern_value(text))
    except Exception as exc:  # the pattern parser's one-line message, with where it was
        raise StrategyError(f"{where}: {exc}") from None


#: named strategies: ``computer`` is our stand-in for the seed's computer players (a plan of a pair
#: of eights by the third card, tens by the fourth), the others span the family
PRESETS = {
    "always": ("x,x,x,x", "strong", False),
    "computer": ("x,x,88,TT", "strong", False),
    "cautious": ("A,88,TT,QQ", "strong", True),
    "bold": ("x,x,x,88", "hide", False),
    "hider": ("x,x,88,TT", "hide", True),
}


def get_strategy(name) -> Threshold:
    """A strategy by name: a preset (:data:`PRESETS`) or ``t:P1,P2,P3,P4[:show][:wary]`` with hand
    patterns (``88``, ``TTxx``, ``flush``, ``x`` = any) for the decisions with 1..4 cards face up (the
    decision with none face up, in the ``hand``/``rotate`` openings, uses P1)."""
    if isinstance(name, Threshold):
        return name
    if not isinstance(name, str):
        raise StrategyError(f"a strategy is a name, got {quote(name)}")
    # the one spec grammar (an empty or trailing part refused); patterns may be words ("full house")
    head, params = spec_parts(name, "Free Ride strategy", spaces=True, error=StrategyError)
    key = name.strip()
    if head.lower() in PRESETS and not params:
        spec, show, wary = PRESETS[head.lower()]
        label = head.lower()
    elif head.lower() in ("t", "threshold") and params:
        spec, flags, label = params[0], [f.lower() for f in params[1:]], key
        shows = [f for f in flags if f in SHOWS]
        if any(f not in SHOWS and f != "wary" for f in flags) or len(shows) > 1 or flags.count("wary") > 1:
            raise StrategyError(f"Free Ride strategy {quote(name)}: after the thresholds come at most one of "
                                f"{', '.join(SHOWS)} and wary, each once")
        show, wary = shows[0] if shows else "strong", "wary" in flags
    else:
        raise StrategyError(f"unknown Free Ride strategy {quote(name)}; use one of {', '.join(PRESETS)} "
                            "or t:P1,P2,P3,P4[:strong|weak|hide][:wary]")
    parts = split_items(spec, f"Free Ride strategy {quote(name)}: the thresholds", error=StrategyError)
    if len(parts) != 4:
        raise StrategyError(f"strategy {quote(name)}: give four thresholds (1..4 cards face up), got {len(parts)}")
    t = [_pattern(p, f"strategy {quote(name)}") for p in parts]
    return Threshold((t[0], *t), show, wary, label)


def strategy_rows(strategies) -> np.ndarray:
    """``int64[seats, 7]``: each seat's :meth:`Threshold.row`."""
    return np.stack([get_strategy(s).row() for s in strategies])


# ------------------------------------------------------------------ the kernel twin

@njit
def kernel_plan(up, k, hand, hcount, chosen):
    """Best finish of ``up[:k]`` with ``5 - k`` of ``hand[:hcount]`` (sorted): its value; the hand
    indices used go to ``chosen[:5-k]`` (combinations order, first best, as :func:`plan_of`)."""
    r = 5 - k
    idx = np.empty(5, dtype=np.int64)
    cards = np.empty(5, dtype=np.int64)
    for i in range(k):
        cards[i] = up[i]
    for i in range(r):
        idx[i] = i
    best = -1
    while True:
        for i in range(r):
            cards[k + i] = hand[idx[i]]
        v = eval5(cards[0], cards[1], cards[2], cards[3], cards[4])
        if v > best:
            best = v
            for i in range(r):
                chosen[i] = idx[i]
        if not next_subset(idx, r, hcount):
            break
    return best


@njit
def kernel_decide(seat, hand, hcount, ups, nup, active, params, opening):
    """The card to play or -1 (fold) for ``seat``: ``hand[:hcount]`` sorted, ``ups[s, :nup[s]]`` the
    face-up cards of every seat, ``params`` its :meth:`Threshold.row`.  Twin of :meth:`Threshold.decide`."""
    k = nup[seat]
    chosen = np.empty(5, dtype=np.int64)
    up = ups[seat]
    value = kernel_plan(up, k, hand, hcount, chosen)
    r = 5 - k
    if not opening:
        if value < params[k]:
            return -1
        if params[6]:
            mine = FIVE_CARD_KEY[value]
            for s in range(nup.shape[0]):
                if s != seat and active[s] and nup[s] > 0:
                    if partial_key(ups[s], nup[s]) > mine:
                        return -1
    if k == 4 or r == 1:
        return hand[chosen[0]]
    show = params[5]
    best = hand[chosen[0]]
    if show == 0:
        for i in range(1, r):
            if hand[chosen[i]] > best:
                best = hand[chosen[i]]
        return best
    if show == 1:
        for i in range(1, r):
            if hand[chosen[i]] < best:
                best = hand[chosen[i]]
        return best
    tmp = np.empty(5, dtype=np.int64)
    for i in range(k):
        tmp[i] = up[i]
    best_key = np.int64(-1)
    for i in range(r):
        c = hand[chosen[i]]
        tmp[k] = c
        key = partial_key(tmp, k + 1)
        if best_key < 0 or key < best_key or (key == best_key and c < best):
            best_key = key
            best = c
    return best
