"""The strategy table: the best exchange of every suit-pattern class for N = 1..5 opponents, and where it
differs from the naive rule "keep the made hand".

The **naive rule** keeps the cards that make the dealt category and exchanges the rest: a pair keeps
the pair (draws 3), two pair keep both pairs (draws 1), three of a kind keep the three (draws 2),
four of a kind keep the four (draws 1), a straight, flush, full house or straight flush stands pat,
and a high-card hand keeps its two highest cards (draws 3, the most the rules allow).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

from ricochet_math._numba import njit
from ricochet_math.arguments import check_whole
from ricochet_math.errors import CardError, quote
from ricochet_math.evaluator.evaluation import NUM_VALUES, eval5
from ricochet_math.evaluator.cards import format_card
from ricochet_math.evaluator.tables import CATEGORY_NAMES
from ricochet_math.games.rococo.draw import KEEPS, N_HANDS, five_card_hands, sorted_hand, suit_classes
from ricochet_math.games.rococo.solver import MAX_OPPONENTS, solve_draws

__all__ = ["naive_keep", "naive_keeps_all", "keep_shape", "StrategyTable", "strategy_table"]

_KEEP_POS = np.full(32, -1, dtype=np.int64)
_KEEP_POS[list(KEEPS)] = np.arange(len(KEEPS))
# category codes of the evaluator (0 high card .. 8 straight flush)
_HIGH, _PAIR, _TWO_PAIR, _TRIPS, _QUADS = (CATEGORY_NAMES.index(n) for n in (
    "High card", "Pair", "Two pair", "Three of a kind", "Four of a kind"))


def _category(value: int) -> int:
    from ricochet_math.evaluator.evaluation import CATEGORY_BY_VALUE

    return int(CATEGORY_BY_VALUE[int(value)])


def naive_keep(cards, value: int) -> int:
    """The naive rule's keep (a position mask over the sorted ``cards``) for a dealt hand of ``value`` (the
    hand's own value 0..7461; another value is refused)."""
    cards = sorted_hand(cards)
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value < NUM_VALUES:
        raise CardError(f"value must be a hand value 0..{NUM_VALUES - 1}, got {quote(value, 40)}")
    own = int(eval5(*cards.tolist()))
    if value != own:  # the rule reads the category from the value: another hand's would keep nonsense
        raise CardError(f"value: {format_cards(cards[::-1])} has value {own}, got {value}")
    return _naive_mask(cards, int(value))


def _naive_mask(cards: np.ndarray, value: int) -> int:
    """:func:`naive_keep` on checked input (sorted cards and their own value)."""
    cat = CATEGORY_NAMES[_category(value)]
    ranks = (cards >> 2).tolist()
    count = Counter(ranks)
    if cat in ("Straight", "Flush", "Full house", "Straight flush"):
        return 31
    if cat == "High card":
        return 0b11000  # the two highest (positions 3 and 4 of the ascending hand)
    need = 4 if cat == "Four of a kind" else (3 if cat == "Three of a kind" else 2)
    return sum(1 << i for i, r in enumerate(ranks) if count[r] >= need)


@njit
def _naive_kernel(hands, values, category, out):
    """``out[h]``: the naive keep of hand ``h`` as a position in ``KEEPS`` (twin of :func:`naive_keep`)."""
    for h in range(hands.shape[0]):
        cat = category[values[h]]
        if cat == _HIGH:
            mask = 0b11000
        elif cat == _PAIR or cat == _TWO_PAIR or cat == _TRIPS or cat == _QUADS:
            need = 4 if cat == _QUADS else (3 if cat == _TRIPS else 2)
            mask = 0
            for i in range(5):
                n = 0
                for j in range(5):
                    if hands[h, j] >> 2 == hands[h, i] >> 2:
                        n += 1
                if n >= need:
                    mask |= 1 << i
        else:
            mask = 31
        out[h] = _KEEP_POS[mask]


def naive_keeps_all() -> np.ndarray:
    """``uint8[2,598,960]``: the naive keep of every hand (positions in ``KEEPS``)."""
    from ricochet_math.evaluator.evaluation import CATEGORY_BY_VALUE

    hands, values = five_card_hands()
    out = np.empty(N_HANDS, dtype=np.uint8)
    _naive_kernel(hands, values, np.asarray(CATEGORY_BY_VALUE, dtype=np.int64), out)
    return out


def _straight_possible(ranks: list[int]) -> bool:
    """Whether distinct ``ranks`` fit in one five-rank window (the ace also plays low)."""
    for rs in (ranks, [-1 if r == 12 else r for r in ranks]):
        if max(rs) - min(rs) <= 4:
            return True
    return False


def keep_shape(cards, keep: int) -> str:
    """A readable shape of the kept cards: ``pair``, ``4-flush``, ``3 to a straight flush``, ``2 cards``..."""
    cards = np.sort(np.asarray(cards, dtype=np.int64))
    return _shape_of([int(cards[i]) for i in range(5) if keep >> i & 1])


def _shape_of(kept: list) -> str:
    """:func:`keep_shape` of the kept cards themselves (ascending): their ranks and whether one suit."""
    return _shape(tuple(c >> 2 for c in kept), len({c & 3 for c in kept}) == 1)


@lru_cache(maxsize=None)
def _shape(ranks: tuple, suited: bool) -> str:
    """The shape of kept cards with these ranks (ascending), all of one suit or not: a shape depends on
    nothing else, so the strategy table's 134,459 x 5 keeps need a few hundred of these."""
    n = len(ranks)
    if n == 5:
        return "stand pat"
    counts = sorted(Counter(ranks).values(), reverse=True)
    if counts[0] == 4:
        return "four of a kind"
    if counts[0] == 3:
        return "three of a kind" + (" + kicker" if n == 4 else "")
    if counts[:2] == [2, 2]:
        return "two pair"
    if counts[0] == 2:
        return "pair" + {2: "", 3: " + kicker", 4: " + 2 kickers"}[n]
    run = _straight_possible(list(ranks))
    if suited and run:
        return f"{n} to a straight flush"
    if suited:
        return f"{n}-flush"
    if run and n >= 3:
        return f"{n}-straight"
    return f"{n} high cards" if n < 4 else "4 cards"


#: each card's text, and each keep's kept positions of the sorted hand, highest card first (as keep_text
#: writes them): the table's half a million texts are joined from these, not formatted card by card
_CARD_TEXT = tuple(format_card(c) for c in range(52))
_KEPT_DOWN = {m: tuple(i for i in range(4, -1, -1) if m >> i & 1) for m in KEEPS}


def _hand_texts(sorted_cards: list) -> list[str]:
    """``format_cards(hand[::-1])`` of each sorted hand (highest card first)."""
    return [" ".join(_CARD_TEXT[c] for c in reversed(h)) for h in sorted_cards]


def _keep_texts(sorted_cards: list, masks) -> list[str]:
    """:func:`~ricochet_math.games.rococo.draw.keep_text` of each sorted hand and keep in :data:`KEEPS`, the
    same text (tests/games/test_rococo_draw.py compares them hand by hand)."""
    out = []
    for h, m in zip(sorted_cards, masks):
        pos = _KEPT_DOWN[int(m)]
        out.append("stand pat" if len(pos) == 5 else
                   "keep " + " ".join(_CARD_TEXT[h[i]] for i in pos) + f", draw {5 - len(pos)}")
    return out


def _keep_shapes(sorted_cards: list, masks) -> list[str]:
    """:func:`keep_shape` of each sorted hand and keep."""
    out = []
    for h, m in zip(sorted_cards, masks):
        out.append(_shape_of([h[i] for i in _KEPT_DOWN[int(m)][::-1]]))
    return out


@dataclass(frozen=True)
class StrategyTable:
    """Best and naive keeps of the 134,459 suit-pattern classes for each number of opponents.

    ``classes``: one row per class (representative hand, hands in the class, dealt category, naive keep);
    ``best``: one row per (class, opponents) with the best keep, its shape and pot share, the naive
    keep's pot share and the gain.
    """

    classes: pd.DataFrame
    best: pd.DataFrame

    def to_frame(self) -> pd.DataFrame:
        return self.best.merge(self.classes, on="class")

    def by_shape(self) -> pd.DataFrame:
        """Share of all hands by dealt category and best-keep shape, one column per number of opponents."""
        frame = self.to_frame()
        frame["weight"] = frame["hands"] / N_HANDS
        table = frame.pivot_table(index=["dealt", "best_shape"], columns="opponents", values="weight",
                                  aggfunc="sum", fill_value=0.0)
        table.columns = [f"N={n}" for n in table.columns]
        return table.reset_index()

    def versus_naive(self) -> pd.DataFrame:
        """Per number of opponents: the share of hands whose best keep beats the naive keep, and the mean
        pot share of optimal and naive drawing against optimal opponents."""
        frame = self.to_frame()
        rows = []
        for n, g in frame.groupby("opponents"):
            w = g["hands"].to_numpy() / N_HANDS
            differs = (g["gain"] > 1e-9).to_numpy()
            rows.append((int(n), float(w[differs].sum()), float(w @ g["share"]), float(w @ g["naive_share"]),
                         float(w @ g["gain"])))
        return pd.DataFrame(rows, columns=["opponents", "hands_differ", "optimal_share", "naive_share", "gain"])

    def summary(self) -> str:
        v = self.versus_naive()
        lines = [f"Rococo strategy table: {len(self.classes):,} suit-pattern classes"]
        for r in v.itertuples():
            lines.append(f"  N={r.opponents}: best keep beats the naive rule on {r.hands_differ:.2%} of hands; "
                         f"pot share {r.optimal_share:.4f} optimal vs {r.naive_share:.4f} naive")
        return "\n".join(lines)


def strategy_table(opponents=range(1, MAX_OPPONENTS + 1)) -> StrategyTable:
    """The strategy table for the given numbers of opponents (solves each fixed point; seconds each)."""
    if isinstance(opponents, (str, bytes)) or not hasattr(opponents, "__iter__"):
        opponents = [opponents]
    opponents = [check_whole(n, "opponents", high=MAX_OPPONENTS) for n in opponents]
    if not opponents:
        raise CardError("opponents must name at least one number of opponents (1..5)")
    hands, values = five_card_hands()
    classes = suit_classes()
    reps = classes.representative
    rep_cards = hands[reps].astype(np.int64)
    rep_values = values[reps]
    rep_list = np.sort(rep_cards, axis=1).tolist()  # ascending (as keep_text reads them), plain ints
    naive = np.array([_naive_mask(np.sort(c), int(v)) for c, v in zip(rep_cards, rep_values)])
    naive_pos = np.array([KEEPS.index(int(m)) for m in naive])
    cls = pd.DataFrame({
        "class": np.arange(len(reps)),
        "hand": _hand_texts(rep_list),
        "hands": classes.size,
        "dealt": [CATEGORY_NAMES[_category(v)] for v in rep_values],
        "naive_keep": _keep_texts(rep_list, naive),
    })
    parts = []
    from ricochet_math.games.rococo.draw import keep_scores
    from ricochet_math.games.rococo.solver import sums_for

    for n in opponents:
        sol = solve_draws(int(n))
        scores = np.empty((len(reps), len(KEEPS)))
        keep_scores(hands, reps, sums_for(int(n)), scores)
        naive_share = scores[np.arange(len(reps)), naive_pos]
        best_masks = [KEEPS[i] for i in sol.class_keep]
        parts.append(pd.DataFrame({
            "class": np.arange(len(reps)),
            "opponents": int(n),
            "best_keep": _keep_texts(rep_list, best_masks),
            "best_shape": _keep_shapes(rep_list, best_masks),
            "share": sol.class_share,
            "naive_share": naive_share,
            "gain": sol.class_share - naive_share,
        }))
    return StrategyTable(cls, pd.concat(parts, ignore_index=True))
