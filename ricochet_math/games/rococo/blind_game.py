"""Heads-up Rococo with the blind decision: the blind round before the exchange, then the betting round of
:mod:`~ricochet_math.games.rococo.betting_game`, one game of the carried-pot recursion at a time.

**The blind round** (``docs/rules.md``, "Rococo Poker", phase 2, and its readings): the first player ``A``,
before looking at his cards, *displays* (``d``: no money moves; the game is then the first version's
betting game exactly) or declares a blind of ``b`` (``b<n>``, ``n`` in the abstraction's blind sizes within
``min_bet..max_bet``), staking ``ante + b``.  The second player ``B``, having seen her five dealt cards
(her *dealt bucket* ``g``), folds (``f``: ``A`` takes the pot at once, before the exchange), calls (``k``:
she matches ``ante + b``) or raises ``r`` (``r<n>``, the abstraction's blind-round raise sizes; offered
while ``max_raises`` >= 1, the blind itself is not a raise); ``A``, still blind, then calls or folds (he may
not re-raise blind: rules.md).  Both still in, the stakes are equal, ``S`` each; ``A`` looks at his cards,
both exchange by the draw solver's table, and the betting round starts from ``S`` with its own
``max_raises``.  Two checks carry a pot of ``C + 2 S`` chips (``C`` the pot carried into this game).

**What each player knows.**  ``A`` never knows ``B``'s cards; his final value is drawn from the optimal
drawer's law given his discard count, independent of everything in the blind round (he was blind).  ``B``
knows her dealt bucket from the blind round on: in the blind branch chance deals ``g`` first, and her
discard count and final value come from the *joint law* of (dealt bucket, discard count, final value) of
the draw solver's table (:func:`dealt_law`: exact counting, one ``final_distribution`` per dealt bucket
and discard count); her betting-round information set names ``g`` beside her final bucket (perfect
recall).  In the display branch the dealt bucket enters nothing (it is not in her information there: the
card abstraction of the first version, so that branch *is* the first version's game).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ricochet_math.errors import RicochetError
from ricochet_math.evaluator.evaluation import NUM_VALUES
from ricochet_math.equilibrium.game import CHANCE, TERMINAL, Game, History
from ricochet_math.games.rococo.betting_game import (
    KIND_CARRY, KIND_FOLD_A, KIND_FOLD_B, KIND_SHOWDOWN, Abstraction, DrawModel, RococoBettingGame, pot_net,
    showdown_share,
)
from ricochet_math.games.rococo.rules import RococoRules

__all__ = ["DEALT_THRESHOLDS", "DealtLaw", "dealt_law", "RococoBlindGame", "parse_key", "blind_sizes",
           "RococoBlindPotGame"]

#: dealt-hand bucket edges: the blind-round call thresholds of the named policies (``loose`` 22, ``standard``
#: 99, ``tight`` JJ: each is then a strategy of the tree exactly) and two pair
DEALT_THRESHOLDS = ("22", "99", "JJ", "two pair")


@dataclass(frozen=True)
class DealtLaw:
    """The joint law of a player's dealt bucket, discard count and final value under a keep table.

    ``start[g]``: the lowest dealt value of bucket ``g`` (ascending); ``prob[g]``: its probability;
    ``discard[g, d]``: ``P(d | g)``; ``final[g, d]``: ``P(final value | g, d)`` (``float[7462]``, zeros
    where ``P(d | g) = 0``); ``source`` names the table."""

    start: np.ndarray
    prob: np.ndarray
    discard: np.ndarray
    final: np.ndarray
    source: str

    def __post_init__(self) -> None:
        g = len(self.prob)
        if (self.discard.shape != (g, 4) or self.final.shape != (g, 4, NUM_VALUES) or self.prob.min() < 0
                or abs(self.prob.sum() - 1) > 1e-12 or np.abs(self.discard.sum(axis=1) - 1).max() > 1e-12
                or not all(abs(self.final[i, d].sum() - 1) < 1e-12 for i in range(g) for d in range(4)
                           if self.discard[i, d] > 0)):
            raise RicochetError("a Rococo dealt law needs bucket probabilities summing to 1, discard-count laws "
                                f"per bucket and a final-value law over {NUM_VALUES:,} values per bucket and count")

    def model(self, source: str | None = None) -> DrawModel:
        """The marginal law (discard count, final value): the first version's :class:`DrawModel`."""
        joint = self.prob[:, None] * self.discard  # [g, d]
        prob = joint.sum(axis=0)
        final = np.einsum("gd,gdv->dv", joint, self.final)
        final = np.where(prob[:, None] > 0, final / np.where(prob > 0, prob, 1)[:, None], 0.0)
        return DrawModel(prob, final, source or self.source)

    def check_model(self, model: DrawModel, tolerance: float = 1e-12) -> None:
        """Refuse a draw model that is not this law's marginal (one line)."""
        m = self.model()
        gap = max(float(np.abs(m.discard_prob - model.discard_prob).max()),
                  float(np.abs(m.discard_prob[:, None] * m.final - model.discard_prob[:, None] * model.final).max()))
        if gap > tolerance:
            raise RicochetError(f"the dealt law {self.source!r} is not the draw model {model.source!r}'s: their "
                                f"marginal laws differ by {gap:.3g}")


@lru_cache(maxsize=4)
def dealt_law(thresholds: tuple[str, ...] = DEALT_THRESHOLDS) -> DealtLaw:
    """Heads-up, each player keeping the draw solver's best keep against one optimal drawer: the exact
    joint law of the dealt bucket (cut at ``thresholds``), the discard count and the final value (counting
    over the 134,459 suit-pattern classes, one ``final_distribution`` per bucket and count: seconds)."""
    from ricochet_math.evaluator.names import pattern_value
    from ricochet_math.games.rococo.draw import KEEPS, N_HANDS, five_card_hands, suit_classes
    from ricochet_math.games.rococo.solver import final_distribution, solve_draws

    sol = solve_draws(1)
    classes = suit_classes()
    _, values = five_card_hands()
    dealt = values[classes.representative].astype(np.int64)
    edges = np.array(sorted({0, *(int(pattern_value(t)) for t in thresholds)}), np.int64)
    g_of = np.searchsorted(edges, dealt, side="right") - 1
    discards = np.array([5 - bin(m).count("1") for m in KEEPS])[sol.class_keep]
    mass = np.bincount(g_of, weights=classes.size, minlength=len(edges))
    keep = np.flatnonzero(mass > 0)
    prob = np.zeros(len(keep))
    discard = np.zeros((len(keep), 4))
    final = np.zeros((len(keep), 4, NUM_VALUES))
    for i, g in enumerate(keep):
        in_g = g_of == g
        prob[i] = classes.size[in_g].sum() / N_HANDS
        for d in range(4):
            sel = in_g & (discards == d)
            discard[i, d] = classes.size[sel].sum() / classes.size[in_g].sum()
            if sel.any():
                q = final_distribution(sol.class_keep[sel], rows=classes.representative[sel],
                                       counts=classes.size[sel]).astype(float)
                final[i, d] = q / q.sum()
    return DealtLaw(edges[keep], prob, discard, final, f"draw-solver(N=1), dealt at {','.join(thresholds)}")


def blind_sizes(rules: RococoRules, sizes, what: str, name: str) -> tuple[int, ...]:
    """The sizes of ``sizes`` within the table's ``min_bet..max_bet`` (``None``: every one); refused when none is."""
    every = range(rules.min_bet, rules.max_bet + 1)
    if sizes is None:
        return tuple(every)
    out = tuple(sorted({int(s) for s in sizes if rules.min_bet <= s <= rules.max_bet}))
    if not out:
        raise RicochetError(f"abstraction {name!r}: no {what} of {tuple(sizes)} is within the table's "
                            f"{rules.min_bet}..{rules.max_bet}")
    return out


def parse_key(key: str) -> dict:
    """The parts of an information-set key of either game: ``player`` (0 = A, 1 = B), ``own`` and ``other``
    discard counts and ``bucket`` (-1 in the blind round), ``dealt`` (B's dealt bucket, -1 where she has
    none in her key), ``line`` (the blind round's moves, ``"d"`` for a display) and ``moves``."""
    if key.startswith("A:blind|") or key.startswith("B:g"):  # the blind round
        head, line = key.split("|")
        dealt = int(head[3:]) if head.startswith("B:g") else -1
        return {"player": "AB".index(head[0]), "own": -1, "other": -1, "bucket": -1, "dealt": dealt,
                "line": line, "moves": ()}
    parts = key.split("|")
    head, moves = parts[0], parts[-1]
    line = parts[1] if len(parts) == 3 else "d"
    who, rest = head[0], head[1:]
    counts, bucket = rest.split(":")
    da, db = (int(x) for x in counts.split("."))
    p = "AB".index(who)
    dealt = -1
    if "/" in bucket:
        g, bucket = bucket.split("/")
        dealt = int(g)
    own, other = (da, db) if p == 0 else (db, da)
    return {"player": p, "own": own, "other": other, "bucket": int(bucket), "dealt": dealt, "line": line,
            "moves": tuple(m for m in moves.split(".") if m)}


class RococoBlindGame(RococoBettingGame):
    """One game of heads-up Rococo with the blind round (module text) under ``rules`` and ``spec`` (whose
    ``blind_sizes`` must be set); ``law``: the joint dealt law (default :func:`dealt_law` at the
    abstraction's dealt thresholds), whose marginal must be ``model``.

    Histories: ``("d", deal, moves...)`` in the display branch (the first version's game after the
    ``d``); ``("b3", "g2", blind moves..., deal, moves...)`` in the blind branch (a blind of 3, B's dealt
    bucket 2, her ``f``/``k``/``r<n>`` and A's ``f``/``k`` to a raise, then the deal of discard counts and
    final buckets given ``g`` and the betting round).  Keys: ``"A:blind|"`` (A's choice), ``"B:g2|b3"``,
    ``"A:blind|b3.r3"``; in the display branch the first version's keys (``"A3.0:1|c.r3"``); in the blind
    branch ``"A3.0:1|b3.k|c.r3"`` and ``"B3.0:2/4|b3.k|c"`` (B's dealt bucket 2, final bucket 4).
    """

    def __init__(self, rules: RococoRules | None = None, model: DrawModel | None = None,
                 spec: Abstraction | str = "tiny", law: DealtLaw | None = None) -> None:
        super().__init__(rules, model, spec)
        if self.spec.blind_sizes is None:
            raise RicochetError(f"abstraction {self.spec.name!r} has no blind sizes: use RococoBettingGame")
        r = self.rules
        self.blind = blind_sizes(r, self.spec.blind_sizes, "blind size", self.spec.name)
        self.blind_raises = (blind_sizes(r, self.spec.blind_raise_sizes, "blind-round raise size", self.spec.name)
                             if r.max_raises >= 1 else ())
        self.law = law or dealt_law(tuple(self.spec.dealt_thresholds))
        self.law.check_model(self.model)
        self.name = (f"rococo-blind({self.name}, blinds={','.join(map(str, self.blind))}, "
                     f"blind-raises={','.join(map(str, self.blind_raises))}, dealt={self.law.source})")
        self.dealt_outcomes = [(f"g{g}", float(p)) for g, p in enumerate(self.law.prob) if p > 0]
        bk, pd, law = self.buckets, self.model.discard_prob, self.law
        self.deals_given: dict[int, list[tuple[str, float]]] = {}
        self.share_given: dict[int, dict[str, float]] = {}
        #: ``(g, dB)`` -> ``P(B's final bucket | g, dB)`` per bucket of ``dB`` (the range solver's B rows)
        self.final_given: dict[tuple[int, int], np.ndarray] = {}
        for g in range(len(law.prob)):
            deals, share = [], {}
            for db in range(4):
                if law.discard[g, db] <= 0:
                    continue
                # B's final buckets given (g, db): the law's final values cut at the (marginal) bucket edges
                # (values below the lowest bucket have no mass in the marginal, hence none given g)
                ids = np.maximum(np.searchsorted(bk.start[db], np.arange(NUM_VALUES), side="right") - 1, 0)
                q = law.final[g, db]
                mass = np.bincount(ids, weights=q, minlength=len(bk.start[db]))
                self.final_given[g, db] = mass
                for bb in np.flatnonzero(mass > 0):
                    dist_b = np.where(ids == bb, q, 0.0) / mass[bb]
                    for da in range(4):
                        for ba in range(len(bk.prob[da])):
                            p = pd[da] * bk.prob[da][ba] * law.discard[g, db] * mass[bb]
                            if p <= 0:
                                continue
                            label = f"{da}.{ba}.{db}.{bb}"
                            deals.append((label, float(p)))
                            share[label] = showdown_share(bk.dist[da][ba], dist_b)
            total = sum(p for _, p in deals)
            self.deals_given[g] = [(label, p / total) for label, p in deals]
            self.share_given[g] = share

    # ---- the parts of a history
    @staticmethod
    def _split(history: History):
        """``(blind size or None, dealt bucket or None, blind moves, deal label or None, betting moves)``."""
        if history[0] == "d":
            return None, None, (), (history[1] if len(history) > 1 else None), tuple(history[2:])
        b = int(history[0][1:])
        g = int(history[1][1:]) if len(history) > 1 else None
        i = 2
        while i < len(history) and "." not in history[i]:
            i += 1
        label = history[i] if i < len(history) else None
        return b, g, tuple(history[2:i]), label, tuple(history[i + 1:])

    def player(self, history: History) -> int:
        if not history:
            return 0
        b, g, line, label, moves = self._split(history)
        if label is not None:
            return super().player((label, *moves))
        if b is None or g is None:
            return CHANCE  # the display's deal, or B's dealt bucket
        if not line:
            return 1
        if line[-1] == "f":
            return TERMINAL
        return CHANCE if line[-1] == "k" else 0

    def infoset(self, history: History) -> str:
        if not history:
            return "A:blind|"
        b, g, line, label, moves = self._split(history)
        if b is None:
            return super().infoset(history[1:])
        if label is None:
            return f"B:g{g}|b{b}" if not line else f"A:blind|b{b}.{'.'.join(line)}"
        p = len(moves) % 2
        da, ba, db, bb = label.split(".")
        bucket = ba if p == 0 else f"{g}/{bb}"
        return f"{'AB'[p]}{da}.{db}:{bucket}|b{b}.{'.'.join(line)}|{'.'.join(moves)}"

    def actions(self, history: History) -> tuple[str, ...]:
        if not history:
            return ("d",) + tuple(f"b{s}" for s in self.blind)
        b, g, line, label, moves = self._split(history)
        if label is not None:
            return super().actions((label, *moves))
        if not line:
            return ("f", "k") + tuple(f"r{s}" for s in self.blind_raises)
        return ("f", "k")  # A, still blind, facing a raise

    def chance_outcomes(self, history: History) -> list[tuple[str, float]]:
        b, g, line, label, moves = self._split(history)
        if b is None:
            return self.deals
        if g is None:
            return self.dealt_outcomes
        return self.deals_given[g]

    def blind_stake(self, b: int, line) -> list[float]:
        """The two stakes after the blind round ``line`` (B's move, then A's) on a blind of ``b``."""
        a = float(self.rules.ante + b)
        stake = [a, float(self.rules.ante)]
        if line and line[0] == "k":
            stake[1] = a
        elif line and line[0].startswith("r"):
            stake[1] = a + int(line[0][1:])
            if len(line) > 1 and line[1] == "k":
                stake[0] = stake[1]
        return stake

    def terminal(self, history: History) -> tuple[int, float, float, float]:
        """``(kind, stake of A, stake of B, A's showdown share)`` at a terminal history."""
        b, g, line, label, moves = self._split(history)
        if b is None:
            s = self.stakes(moves)
            kind = KIND_CARRY if tuple(moves) == ("c", "c") else KIND_SHOWDOWN
            if moves[-1] == "f":
                kind = KIND_FOLD_A if len(moves) % 2 == 1 else KIND_FOLD_B
            return kind, s[0], s[1], self.share[label]
        stake = self.blind_stake(b, line)
        if label is None:  # a fold in the blind round
            return (KIND_FOLD_B if len(line) == 1 else KIND_FOLD_A), stake[0], stake[1], 0.5
        sa, sb = self.stakes(moves, start=stake[0])
        kind = KIND_CARRY if tuple(moves) == ("c", "c") else KIND_SHOWDOWN
        if moves[-1] == "f":
            kind = KIND_FOLD_A if len(moves) % 2 == 1 else KIND_FOLD_B
        return kind, sa, sb, self.share_given[g][label]

    def utilities(self, history: History) -> list[float]:
        b, g, line, label, moves = self._split(history)
        if b is None:
            return super().utilities(history[1:])
        stake = self.blind_stake(b, line)
        if label is None:  # a fold in the blind round
            kind, share = (KIND_FOLD_B if len(line) == 1 else KIND_FOLD_A), 0.5
            sa, sb = stake
        else:
            s = self.stakes(moves, start=stake[0])
            sa, sb = s
            share = self.share_given[g][label]
            kind = KIND_CARRY if tuple(moves) == ("c", "c") else KIND_SHOWDOWN
            if moves[-1] == "f":
                kind = KIND_FOLD_A if len(moves) % 2 == 1 else KIND_FOLD_B
        self.terminal_log.append((kind, sa, sb, share))
        u = 0.0 if kind == KIND_CARRY else float(
            pot_net(np.array([kind]), np.array([sa]), np.array([sb]), np.array([share]), 0.0)[0])
        return [u, -u]


class RococoBlindPotGame(Game):
    """A whole pot of the blind game as one tree: the readable twin of the states' recursion (small games
    only, for tests), as :class:`~.betting_game.RococoPotGame` is of the levels'.

    The games of ``level_game`` are played one after another, the next after two checks, the seats swapped
    each game, until ``carry_limit`` carries (then two checks are shown down).  A player's information is
    everything she saw in every game: the public moves, her own dealt bucket (B's, in a blind branch) and
    her own final bucket, both discard counts; the pot carried in follows from the public moves.  Keys:
    ``"seat0|k1|C4|<views>#<the level game's key>"`` (the level key and ``C`` add nothing she does not
    know: they make the per-state profile easy to map)."""

    num_players = 2

    def __init__(self, level_game: RococoBlindGame) -> None:
        self.g = level_game
        self.limit = level_game.rules.carry_limit
        self.name = f"pot({level_game.name}, carry_limit={self.limit})"

    def _carries(self, seg) -> bool:
        return bool(seg) and self.g.player(tuple(seg)) == TERMINAL and self.g.terminal(tuple(seg))[0] == KIND_CARRY

    def _segments(self, history: History) -> list[tuple[str, ...]]:
        """The games of ``history``; an empty last one when the last game carried into a next one."""
        segs: list[list[str]] = [[]]
        for h in history:
            if self._carries(segs[-1]):
                segs.append([])
            segs[-1].append(h)
        if self._carries(segs[-1]) and len(segs) - 1 < self.limit:
            segs.append([])
        return [tuple(s) for s in segs]

    def _carried(self, segs) -> float:
        return float(sum(self.g.terminal(s)[1] + self.g.terminal(s)[2] for s in segs[:-1]))

    def player(self, history: History) -> int:
        segs = self._segments(history)
        k, seg = len(segs) - 1, segs[-1]
        p = self.g.player(seg)
        return p if p < 0 else (p + k) % 2

    @staticmethod
    def _view(seg, role: int) -> str:
        out = []
        for h in seg:
            if h.startswith("g"):  # B's dealt bucket
                h = h if role == 1 else "g?"
            elif "." in h:  # a deal: discard counts are public, each sees her own final bucket
                da, ba, db, bb = h.split(".")
                h = f"{da}.{ba if role == 0 else '?'}.{db}.{bb if role == 1 else '?'}"
            out.append(h)
        return ",".join(out)

    def infoset(self, history: History) -> str:
        segs = self._segments(history)
        k, seg = len(segs) - 1, segs[-1]
        seat = (self.g.player(seg) + k) % 2
        views = "/".join(self._view(s, 0 if seat == j % 2 else 1) for j, s in enumerate(segs))
        return f"seat{seat}|k{k}|C{self._carried(segs):g}|{views}#{self.g.infoset(seg)}"

    def actions(self, history: History) -> tuple[str, ...]:
        return self.g.actions(self._segments(history)[-1])

    def chance_outcomes(self, history: History) -> list[tuple[str, float]]:
        return self.g.chance_outcomes(self._segments(history)[-1])

    def utilities(self, history: History) -> list[float]:
        segs = self._segments(history)
        k, seg = len(segs) - 1, segs[-1]
        kind, sa, sb, share = self.g.terminal(seg)
        if kind == KIND_CARRY:  # at the carry limit: a showdown
            kind = KIND_SHOWDOWN
        u = float(pot_net(np.array([kind]), np.array([sa]), np.array([sb]), np.array([share]),
                            self._carried(segs))[0])
        u0 = u if k % 2 == 0 else -u  # game k's first player is seat k % 2
        return [u0, -u0]
