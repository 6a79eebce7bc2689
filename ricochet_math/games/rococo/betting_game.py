"""Rococo Poker heads-up as an extensive-form game for the equilibrium layer: the betting round after the
exchange, with a card abstraction (final-hand buckets per discard count) and an action abstraction (raise
sizes), one *level* of the carried-pot recursion at a time.

**The game** (first version; ``docs/rococo-poker.md``, "Equilibrium"): two seats, the first player ``A``
(player 0) and the second ``B`` (player 1), each antes ``ante``.  There is no blind game (the first player
displays: the blind decision is not yet a decision of this tree) and the exchange is *held at the draw
solver's table*: each player keeps the heads-up fixed-point best keep (:func:`~.solver.solve_draws` with one
opponent), so chance deals a public pair of discard counts ``(dA, dB)`` (0 to 3 cards each, seen by both:
the replacements are dealt openly) and each player's private final value, drawn independently from the
optimal drawer's final-value distribution given her own discard count (the draw solver's independence
model: no card removal between the two hands).  Then the betting round of ``docs/rules.md``: ``A`` checks
(``c``) or raises (``r<n>``, ``n`` in the abstraction's raise sizes within ``min_bet..max_bet``); after a
check ``B`` checks or raises; facing a raise a player folds (``f``), calls (``k``) or re-raises while fewer
than ``max_raises`` raises have been made.  A call ends the round at a showdown (the better final value
takes the pot, equal values split it); a fold gives the pot to the other player; two checks carry the pot.

**Card abstraction.** A player's information set names her *bucket*, not her exact final value: for each
discard count the final values are cut at the thresholds of the named betting policies (77, 99, JJ, two
pair, three of a kind, flush: so every named policy is a strategy of the abstract tree, exactly) and, with
``quantiles = q``, also into ``q`` slices of equal probability.  Showdowns pay the exact expected pot share
of the two buckets (the abstraction merges information, it does not approximate payoffs).

**Carried pot.** A pot that carries is played on as the next game, the seats swapped (the first player
moves on), both ante again, the pot grown by the two antes; after ``carry_limit`` carries an all-check game
is shown down.  Utilities are each player's net over the whole pot (zero-sum: the carried chips count as
half staked by each, which they were), so a carry is worth the next level's value to the player who will
then be second: the game at level ``k`` (carried pot ``2 k ante``) has carry terminals worth ``-v(k + 1)``
to ``A``, where ``v`` is the first player's value; :func:`~ricochet_math.games.rococo.equilibrium.solve_equilibrium`
solves the levels backward from ``carry_limit`` (whose all-check is a showdown) to 0.  Without a blind game
every carried pot at level ``k`` is the same, so the recursion is exact.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

from ricochet_math.errors import RicochetError
from ricochet_math.evaluator.evaluation import NUM_VALUES
from ricochet_math.equilibrium.game import CHANCE, TERMINAL, Game, History
from ricochet_math.equilibrium.tree import GameTree, build_tree
from ricochet_math.games.rococo.rules import RococoRules

__all__ = ["DrawModel", "draw_model", "Abstraction", "ABSTRACTIONS", "abstraction", "Buckets", "buckets",
           "RococoBettingGame", "BettingTree", "build_betting_tree", "POLICY_THRESHOLDS", "translate_history",
           "RococoPotGame", "showdown_share", "pot_net", "KIND_FOLD_A", "KIND_FOLD_B", "KIND_SHOWDOWN", "KIND_CARRY"]

#: what ended a game: the first player folded, the second folded, a showdown after a call, two checks
KIND_FOLD_A, KIND_FOLD_B, KIND_SHOWDOWN, KIND_CARRY = range(4)
#: the betting-round thresholds of the named policies (``betting.POLICIES``): bucket edges, so every named
#: policy acts alike on every final value of a bucket
POLICY_THRESHOLDS = ("77", "99", "JJ", "two pair", "three of a kind", "flush")


@dataclass(frozen=True)
class DrawModel:
    """The exchange held at a keep table: ``discard_prob[d]`` the probability of discarding ``d`` cards
    (0..3), ``final[d]`` the distribution of the final value (7,462) given ``d`` (rows of probability 0
    are zeros); ``source`` names where it came from (it enters the tree's name, hence checkpoints)."""

    discard_prob: np.ndarray
    final: np.ndarray
    source: str

    def __post_init__(self) -> None:
        p, f = np.asarray(self.discard_prob, float), np.asarray(self.final, float)
        if p.shape != (4,) or f.shape != (4, NUM_VALUES) or p.min() < 0 or abs(p.sum() - 1) > 1e-12 \
                or f.min() < 0 or not all(abs(f[d].sum() - 1) < 1e-12 for d in range(4) if p[d] > 0):
            raise RicochetError("a Rococo draw model needs 4 discard probabilities summing to 1 and, for each "
                                f"discard count that occurs, a final-value distribution over {NUM_VALUES:,} values")


@lru_cache(maxsize=1)
def draw_model() -> DrawModel:
    """Heads-up, each player keeping the draw solver's best keep against one optimal drawer: the exact
    discard-count probabilities and final-value distributions (counting, not sampling; seconds)."""
    from ricochet_math.games.rococo.draw import KEEPS, N_HANDS, suit_classes
    from ricochet_math.games.rococo.solver import final_distribution, solve_draws

    sol = solve_draws(1)
    classes = suit_classes()
    discards = np.array([5 - bin(m).count("1") for m in KEEPS])[sol.class_keep]
    prob = np.zeros(4)
    final = np.zeros((4, NUM_VALUES))
    for d in range(4):
        sel = discards == d
        prob[d] = classes.size[sel].sum() / N_HANDS
        if prob[d] > 0:
            q = final_distribution(sol.class_keep[sel], rows=classes.representative[sel],
                                   counts=classes.size[sel]).astype(float)
            final[d] = q / q.sum()
    return DrawModel(prob, final, "draw-solver(N=1)")


@dataclass(frozen=True)
class Abstraction:
    """A card and action abstraction: ``quantiles`` equal-probability slices of the final values per
    discard count (cut further at :data:`POLICY_THRESHOLDS` when ``policy_edges``), and the raise sizes of
    the tree (``None``: every size ``min_bet..max_bet``, the unabstracted betting)."""

    name: str
    quantiles: int = 1
    raise_sizes: tuple[int, ...] | None = (1, 3, 10)
    policy_edges: bool = True
    #: the blind decision (:mod:`~ricochet_math.games.rococo.blind_game`): the blind sizes the first player
    #: may declare (``None``: he always displays, the first version's game), the second player's raise
    #: sizes in the blind round (``None``: every size) and the edges of her dealt-hand buckets
    blind_sizes: tuple[int, ...] | None = None
    blind_raise_sizes: tuple[int, ...] | None = (1, 3, 10)
    dealt_thresholds: tuple[str, ...] = ("22", "99", "JJ", "two pair")

    def unabstracted_betting(self) -> Abstraction:
        """The same cards with every raise size: the game a best response is measured in."""
        return replace(self, name=f"{self.name}/all-raises", raise_sizes=None)

    def with_blind(self, sizes: tuple[int, ...] = (1, 3, 10), raise_sizes: tuple[int, ...] | None = (1, 3, 10),
                   ) -> Abstraction:
        """The same abstraction with the blind decision: blinds of ``sizes``, blind-round raises of
        ``raise_sizes``."""
        tag = f"blind={','.join(map(str, sizes))}"
        if raise_sizes != (1, 3, 10):
            tag += f";blind-raises={'all' if raise_sizes is None else ','.join(map(str, raise_sizes))}"
        return replace(self, name=f"{self.name}+{tag}", blind_sizes=tuple(sizes), blind_raise_sizes=raise_sizes)


#: the named abstractions (``ricochet rococo equilibrium --abstraction NAME``)
ABSTRACTIONS = {
    "tiny": Abstraction("tiny", 1),
    "small": Abstraction("small", 3),
    "default": Abstraction("default", 8),
}


def abstraction(spec) -> Abstraction:
    """An abstraction by name (``tiny``, ``small``, ``default``) or the :class:`Abstraction` itself."""
    if isinstance(spec, Abstraction):
        return spec
    if isinstance(spec, str) and spec in ABSTRACTIONS:
        return ABSTRACTIONS[spec]
    raise RicochetError(f"unknown Rococo abstraction {spec!r:.40}; choose one of {', '.join(ABSTRACTIONS)}")


@dataclass(frozen=True)
class Buckets:
    """Per discard count ``d``: ``start[d]`` the lowest final value of each bucket (ascending),
    ``prob[d]`` each bucket's probability given ``d``, ``dist[d]`` its final-value distribution
    (``float[buckets, 7462]``, rows summing to 1).  Empty buckets are dropped."""

    start: tuple[np.ndarray, ...]
    prob: tuple[np.ndarray, ...]
    dist: tuple[np.ndarray, ...]

    def bucket_of(self, d: int, value: int) -> int:
        return int(np.searchsorted(self.start[d], value, side="right") - 1)


def buckets(model: DrawModel, spec: Abstraction) -> Buckets:
    """Cut each discard count's final values into buckets (see :class:`Abstraction`)."""
    from ricochet_math.evaluator.names import pattern_value

    thresholds = sorted({int(pattern_value(t)) for t in POLICY_THRESHOLDS}) if spec.policy_edges else []
    starts, probs, dists = [], [], []
    values = np.arange(NUM_VALUES)
    for d in range(4):
        q = np.asarray(model.final[d], float)
        if model.discard_prob[d] <= 0:
            starts.append(np.zeros(0, np.int64)), probs.append(np.zeros(0)), dists.append(np.zeros((0, NUM_VALUES)))
            continue
        cum = np.cumsum(q)
        edges = {0, *thresholds}
        for j in range(1, spec.quantiles):  # a new slice at the first value where the mass passes j / q
            edges.add(int(np.searchsorted(cum, j / spec.quantiles, side="right")))
        edges = np.array(sorted(e for e in edges if e < NUM_VALUES), np.int64)
        ids = np.searchsorted(edges, values, side="right") - 1
        mass = np.bincount(ids, weights=q, minlength=len(edges))
        keep = mass > 0
        kept = edges[keep]
        ids = np.searchsorted(kept, values, side="right") - 1
        dist = np.zeros((len(kept), NUM_VALUES))
        dist[ids, values] = q
        m = dist.sum(axis=1)
        starts.append(kept), probs.append(m), dists.append(dist / m[:, None])
    return Buckets(tuple(starts), tuple(probs), tuple(dists))


def showdown_share(a: np.ndarray, b: np.ndarray) -> float:
    """The first player's expected pot share at a showdown: ``P(vA > vB) + P(vA = vB) / 2`` for independent
    final values of distributions ``a`` and ``b``."""
    below = np.concatenate([[0.0], np.cumsum(b)[:-1]])
    return float(a @ (below + 0.5 * b))


def _sizes(rules: RococoRules, spec: Abstraction) -> tuple[int, ...]:
    every = range(rules.min_bet, rules.max_bet + 1)
    if spec.raise_sizes is None:
        return tuple(every)
    sizes = tuple(sorted({int(s) for s in spec.raise_sizes if rules.min_bet <= s <= rules.max_bet}))
    if not sizes:
        raise RicochetError(f"abstraction {spec.name!r}: no raise size of {spec.raise_sizes} is within the table's "
                            f"{rules.min_bet}..{rules.max_bet}")
    return sizes


def translate_history(moves, sizes: tuple[int, ...]) -> tuple[str, ...]:
    """``moves`` with every raise ``r<n>`` replaced by the nearest size of ``sizes`` (ties: the smaller):
    how an abstract strategy reads a history of the unabstracted betting."""
    out = []
    for m in moves:
        if m.startswith("r"):
            n = int(m[1:])
            m = f"r{min(sizes, key=lambda s: (abs(s - n), s))}"
        out.append(m)
    return tuple(out)


class RococoBettingGame(Game):
    """One level of the heads-up betting game (module text) under ``rules`` (heads-up only) and ``spec``.

    Histories: the deal label ``"dA.bA.dB.bB"`` (discard counts and buckets), then the betting moves.
    Information-set keys: ``"A3.0:1|c.r3"`` is player A (B), the discard counts ``dA dB`` (here 3 and 0),
    her bucket (1) and the moves.  :meth:`utilities` are those of level 0 with a carry worth 0; the tree
    built from the game records what every terminal is (:class:`BettingTree`) so that any level's
    utilities follow without rebuilding it.
    """

    num_players = 2

    def __init__(self, rules: RococoRules | None = None, model: DrawModel | None = None,
                 spec: Abstraction | str = "tiny") -> None:
        self.rules = rules or RococoRules()
        if self.rules.players != 2:
            raise RicochetError(f"the Rococo equilibrium is heads-up: rules have {self.rules.players} players")
        self.spec = abstraction(spec)
        self.model = model or draw_model()
        self.sizes = _sizes(self.rules, self.spec)
        self.buckets = buckets(self.model, self.spec)
        r = self.rules
        self.name = (f"rococo-betting(abstraction={self.spec.name}, quantiles={self.spec.quantiles}, "
                     f"raises={','.join(map(str, self.sizes))}, ante={r.ante}, bets={r.min_bet}..{r.max_bet}, "
                     f"max_raises={r.max_raises}, draws={self.model.source})")
        self.deals: list[tuple[str, float]] = []
        self.share: dict[str, float] = {}
        bk = self.buckets
        for da in range(4):
            for ba in range(len(bk.prob[da])):
                for db in range(4):
                    for bb in range(len(bk.prob[db])):
                        label = f"{da}.{ba}.{db}.{bb}"
                        pd = self.model.discard_prob
                        p = pd[da] * bk.prob[da][ba] * pd[db] * bk.prob[db][bb]
                        self.deals.append((label, float(p)))
                        self.share[label] = showdown_share(bk.dist[da][ba], bk.dist[db][bb])
        total = sum(p for _, p in self.deals)
        self.deals = [(label, p / total) for label, p in self.deals]  # float dust: the layer wants a sum of 1
        self.terminal_log: list[tuple[int, float, float, float]] = []

    # ---- the readable interface
    @staticmethod
    def _raises(moves) -> int:
        return sum(1 for m in moves if m.startswith("r"))

    def player(self, history: History) -> int:
        if not history:
            return CHANCE
        moves = history[1:]
        if moves and (moves[-1] in ("f", "k") or tuple(moves) == ("c", "c")):
            return TERMINAL
        return len(moves) % 2

    def infoset(self, history: History) -> str:
        moves = history[1:]
        p = len(moves) % 2
        da, ba, db, bb = history[0].split(".")
        return f"{'AB'[p]}{da}.{db}:{(ba, bb)[p]}|{'.'.join(moves)}"

    def actions(self, history: History) -> tuple[str, ...]:
        moves = history[1:]
        n = self._raises(moves)
        raises = tuple(f"r{s}" for s in self.sizes) if n < self.rules.max_raises else ()
        return (("c",) + raises) if n == 0 else (("f", "k") + raises)

    def chance_outcomes(self, history: History) -> list[tuple[str, float]]:
        return self.deals

    def stakes(self, moves, start: float | None = None) -> list[float]:
        """The two stakes (chips) after the betting moves ``moves``, from ``start`` each (the ante; after a
        blind round, the equal stakes it left)."""
        stake = [float(self.rules.ante if start is None else start)] * 2
        for i, m in enumerate(moves):
            p = i % 2
            if m.startswith("r"):
                stake[p] = max(stake) + int(m[1:])
            elif m == "k":
                stake[p] = max(stake)
        return stake

    def utilities(self, history: History) -> list[float]:
        moves = history[1:]
        s = self.stakes(moves)
        share = self.share[history[0]]
        kind = KIND_CARRY if tuple(moves) == ("c", "c") else KIND_SHOWDOWN
        if moves[-1] == "f":
            kind = KIND_FOLD_A if len(moves) % 2 == 1 else KIND_FOLD_B
        self.terminal_log.append((kind, s[0], s[1], share))
        u = _zero_sum(np.array([kind]), np.array([s[0]]), np.array([s[1]]), np.array([share]), 0.0)[0]
        if kind == KIND_CARRY:
            u = 0.0
        return [u, -u]


def _zero_sum(kind, sa, sb, share, carried):
    """The first player's net over the pot (the carried chips counted as half hers) at terminals that are
    not carried: a fold, or a showdown paying her expected share of the pot."""
    pot = carried + sa + sb
    won = np.where(kind == KIND_FOLD_B, 1.0, np.where(kind == KIND_FOLD_A, 0.0, share))
    return won * pot - sa - carried / 2


#: the same, public: the blind game (:mod:`~.blind_game`) pays its terminals by it too
pot_net = _zero_sum


@dataclass(frozen=True, eq=False)
class BettingTree:
    """A :class:`RococoBettingGame` laid out once, with what each terminal is, for every level.

    ``terminals``: the terminal nodes (in node order); ``kind``, ``stake_a``, ``stake_b``, ``share``: per
    terminal, how the game ended, the two stakes (chips) and the first player's showdown share of the two
    buckets."""

    game: RococoBettingGame
    tree: GameTree
    terminals: np.ndarray
    kind: np.ndarray
    stake_a: np.ndarray
    stake_b: np.ndarray
    share: np.ndarray
    _levels: dict = field(default_factory=dict, repr=False)

    @property
    def carry_limit(self) -> int:
        return self.game.rules.carry_limit

    def utility(self, level: int, carry: tuple[float, float] | None) -> np.ndarray:
        """``float[nodes, 2]``: the utilities at level ``level`` (carried pot ``2 level ante``); a carry
        terminal is worth ``carry = (to A, to B)``, or is a showdown when ``carry`` is None (the last level)."""
        kind = self.kind if carry is not None else np.where(self.kind == KIND_CARRY, KIND_SHOWDOWN, self.kind)
        carried = 2.0 * level * self.game.rules.ante
        u0 = _zero_sum(kind, self.stake_a, self.stake_b, self.share, carried)
        u = np.zeros((self.tree.num_nodes, 2))
        u[self.terminals, 0] = u0
        u[self.terminals, 1] = -u0
        if carry is not None:
            c = self.terminals[kind == KIND_CARRY]
            u[c, 0], u[c, 1] = carry
        return u

    @property
    def carry_terminals(self) -> np.ndarray:
        """The carry terminals (node numbers), in terminal order."""
        return self.terminals[self.kind == KIND_CARRY]

    @property
    def carry_stakes(self) -> np.ndarray:
        """Per carry terminal, the chips the game adds to the carried pot (both stakes: ``2 ante`` without a
        blind game, ``2 S`` after a blind round that left stakes ``S``)."""
        c = self.kind == KIND_CARRY
        return self.stake_a[c] + self.stake_b[c]

    def utility_at(self, carried: float, carry: np.ndarray | None) -> np.ndarray:
        """``float[nodes, 2]``: the utilities with ``carried`` chips carried into the game; ``carry``
        (``float[carry terminals, 2]``, in :attr:`carry_terminals` order) what each carry terminal is worth
        to A and to B, or None: two checks are a showdown (the last level)."""
        kind = self.kind if carry is not None else np.where(self.kind == KIND_CARRY, KIND_SHOWDOWN, self.kind)
        u0 = _zero_sum(kind, self.stake_a, self.stake_b, self.share, float(carried))
        u = np.zeros((self.tree.num_nodes, 2))
        u[self.terminals, 0] = u0
        u[self.terminals, 1] = -u0
        if carry is not None:
            u[self.carry_terminals] = carry
        return u

    def state_tree(self, carried: float, level: int, carry: np.ndarray | None) -> GameTree:
        """The tree of one state (carried chips, level) with its utilities (:meth:`utility_at`), named by
        both and by a digest of the carry values (for checkpoints)."""
        import hashlib

        what = "showdown" if carry is None else hashlib.sha256(np.ascontiguousarray(carry, float)).hexdigest()[:16]
        name = f"{self.tree.game}[level {level}, carried {float(carried):g}, carry {what}]"
        return replace(self.tree, game=name, utility=self.utility_at(carried, carry))

    def level_tree(self, level: int, carry: tuple[float, float] | None) -> GameTree:
        """The tree of one level with its utilities (named by level and carry value, for checkpoints)."""
        what = "showdown" if carry is None else repr(tuple(map(float, carry)))
        name = f"{self.tree.game}[level {level}, carry {what}]"
        return replace(self.tree, game=name, utility=self.utility(level, carry))


def build_betting_tree(game: RococoBettingGame) -> BettingTree:
    """Lay ``game`` out (the layer's :func:`~ricochet_math.equilibrium.tree.build_tree`) and keep what each
    terminal is.  The builder asks each terminal's utilities once, in node order; that the record matches
    the tree is checked (every terminal's level-0 utility recomputed from it, to the last digit)."""
    game.terminal_log = []
    tree = build_tree(game)
    terminals = np.flatnonzero(tree.player == TERMINAL)
    log = np.array(game.terminal_log, float).reshape(-1, 4)
    if len(log) != len(terminals):
        raise RicochetError(f"{game.name}: {len(log):,} terminal records for {len(terminals):,} terminals")
    bt = BettingTree(game, tree, terminals, log[:, 0].astype(np.int64), log[:, 1], log[:, 2], log[:, 3])
    check = bt.utility(0, (0.0, 0.0))
    if not np.array_equal(check[terminals], tree.utility[terminals]):
        raise RicochetError(f"{game.name}: the terminal records do not match the tree's utilities")
    return bt


class RococoPotGame(Game):
    """A whole pot as one tree: the readable twin of the level recursion (small games only, for tests).

    The levels of ``level_game`` are played one after another in a single game, the next level's deal
    following two checks, the seats swapped at each level (player 0 is the first player of level 0 and the
    second of level 1, ...), until ``carry_limit`` carries, after which two checks are shown down.  A
    player remembers every level she played (her earlier buckets and every move), so the game has perfect
    recall; the utilities are each seat's net over the pot.  Its size is the levels' product: only a
    game of a few deals and moves fits."""

    num_players = 2

    def __init__(self, level_game: RococoBettingGame) -> None:
        self.g = level_game
        self.limit = level_game.rules.carry_limit
        self.name = f"pot({level_game.name}, carry_limit={self.limit})"

    @staticmethod
    def _segments(history: History) -> list[tuple[str, ...]]:
        out: list[list[str]] = []
        for h in history:
            if "." in h:  # a deal label starts a level
                out.append([h])
            else:
                out[-1].append(h)
        return [tuple(s) for s in out]

    def player(self, history: History) -> int:
        if not history:
            return CHANCE
        segs = self._segments(history)
        k, seg = len(segs) - 1, segs[-1]
        p = self.g.player(seg)
        if p == TERMINAL:
            return CHANCE if seg[1:] == ("c", "c") and k < self.limit else TERMINAL
        return (p + k) % 2

    def infoset(self, history: History) -> str:
        segs = self._segments(history)
        k = len(segs) - 1
        seat = (self.g.player(segs[-1]) + k) % 2
        parts = []
        for j, seg in enumerate(segs):
            role = 0 if seat == j % 2 else 1
            da, ba, db, bb = seg[0].split(".")
            parts.append(f"{da}.{db}:{(ba, bb)[role]}|{'.'.join(seg[1:])}")
        return f"seat{seat}/" + "/".join(parts)

    def actions(self, history: History) -> tuple[str, ...]:
        return self.g.actions(self._segments(history)[-1])

    def chance_outcomes(self, history: History) -> list[tuple[str, float]]:
        return self.g.deals

    def utilities(self, history: History) -> list[float]:
        segs = self._segments(history)
        k, seg = len(segs) - 1, segs[-1]
        moves = seg[1:]
        s = self.g.stakes(moves)
        kind = KIND_SHOWDOWN
        if moves[-1] == "f":
            kind = KIND_FOLD_A if len(moves) % 2 == 1 else KIND_FOLD_B
        u = float(_zero_sum(np.array([kind]), np.array([s[0]]), np.array([s[1]]),
                            np.array([self.g.share[seg[0]]]), 2.0 * k * self.g.rules.ante)[0])
        u0 = u if k % 2 == 0 else -u  # level k's first player is seat k % 2
        return [u0, -u0]
