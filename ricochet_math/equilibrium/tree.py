"""A game laid out as flat arrays, once, for the numba kernels.

:func:`build_tree` walks a :class:`~ricochet_math.equilibrium.game.Game` breadth first, so every node's
children are consecutive and every parent comes before its children: a kernel reaches every node's
probability going *forward* through the node numbers and every node's value going *backward*, without
recursion or a stack.  Per node: who moves (:data:`CHANCE`, :data:`TERMINAL` or a player), the
information set, the first child and the number of children, the chance probability of the edge into it,
the terminal utilities per player and each player's own last action (her *sequence*, for the sequence
form and the best response).  Per information set: the player, its actions, its place in the flat
*entry* arrays (one entry per information set and action: regrets, strategies, average strategies all
use this one layout), the entry of the player's previous action and the number of her actions before it.

The digest (SHA-256 of every array and key) names the tree in checkpoints, so a checkpoint of another
game or abstraction is refused.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.errors import RicochetError
from ricochet_math.equilibrium.game import CHANCE, TERMINAL, Game

__all__ = ["GameTree", "build_tree", "CHANCE", "TERMINAL"]

#: chance probabilities at a node must sum to 1 within this
_PROBABILITY_SUM_TOLERANCE = 1e-9


@dataclass(frozen=True, eq=False)
class GameTree:
    """A game's tree as arrays (nodes in breadth-first order; node 0 is the root).

    ``player[n]``: the player to move, ``CHANCE`` (-1) or ``TERMINAL`` (-2); ``infoset[n]``: the information
    set of a player's node (-1 otherwise); ``first_child[n]``, ``num_children[n]``: the children
    ``first_child[n] + j`` in the order of the infoset's actions or the chance outcomes;
    ``chance_prob[n]``: the probability of the chance outcome leading to ``n`` (1 after a player's
    action); ``utility[n, p]``: player ``p``'s utility at a terminal node (0 elsewhere);
    ``sequence[n, p]``: the entry of player ``p``'s last action on the path to ``n`` (-1: none yet).
    Per information set ``i``: ``infoset_player[i]``, its entries ``offset[i]..offset[i+1]-1`` (one per
    action), ``infoset_parent[i]`` (the entry of the player's previous action, -1 for none),
    ``infoset_depth[i]`` (how many actions of hers came before), ``keys[i]`` and ``actions[i]``.
    """

    game: str
    num_players: int
    player: np.ndarray
    infoset: np.ndarray
    first_child: np.ndarray
    num_children: np.ndarray
    chance_prob: np.ndarray
    utility: np.ndarray
    sequence: np.ndarray
    infoset_player: np.ndarray
    offset: np.ndarray
    infoset_parent: np.ndarray
    infoset_depth: np.ndarray
    keys: tuple[str, ...]
    actions: tuple[tuple[str, ...], ...]
    index: dict = field(repr=False)
    #: the nodes in depth-first post-order (every node after its children, children in order): the order
    #: in which a recursive CFR finishes the histories, so the kernels add regrets in the same order
    post_order: np.ndarray = field(repr=False, default=None)

    @property
    def num_nodes(self) -> int:
        return len(self.player)

    @property
    def num_infosets(self) -> int:
        return len(self.keys)

    @property
    def num_entries(self) -> int:
        """Information sets times their actions: the length of every regret or strategy array."""
        return int(self.offset[-1])

    @property
    def entry_player(self) -> np.ndarray:
        """The player of each entry."""
        return np.repeat(self.infoset_player, np.diff(self.offset))

    @property
    def digest(self) -> str:
        """SHA-256 of the game's name, every array and every key: the tree's identity in checkpoints."""
        h = hashlib.sha256(json.dumps([self.game, self.num_players, self.keys, self.actions]).encode())
        for name in ("player", "infoset", "first_child", "num_children", "chance_prob", "utility", "offset"):
            a = np.ascontiguousarray(getattr(self, name))
            h.update(name.encode())
            h.update(a.tobytes())
        return h.hexdigest()

    def describe(self) -> str:
        return (f"{self.game}: {self.num_players} players, {self.num_nodes:,} nodes "
                f"({int((self.player == TERMINAL).sum()):,} terminal, {int((self.player == CHANCE).sum()):,} "
                f"chance), {self.num_infosets:,} information sets, {self.num_entries:,} entries")

    def kernel_arrays(self) -> tuple:
        """The arrays every kernel takes, in its argument order."""
        return (self.player, self.infoset, self.first_child, self.num_children, self.chance_prob, self.utility,
                self.offset)


@njit
def depth_first_post_order(first_child, num_children):
    """The nodes in depth-first post-order from the root, children in order (an explicit stack)."""
    n_nodes = len(first_child)
    out = np.empty(n_nodes, np.int32)
    stack = np.empty(n_nodes, np.int64)
    next_child = np.zeros(n_nodes, np.int64)
    top, done = 0, 0
    stack[0] = 0
    while top >= 0:
        n = stack[top]
        if next_child[n] < num_children[n]:
            next_child[n] += 1
            top += 1
            stack[top] = first_child[n] + next_child[n] - 1
        else:
            out[done] = n
            done += 1
            top -= 1
    return out


def build_tree(game: Game) -> GameTree:
    """Walk ``game`` breadth first into a :class:`GameTree`.

    Refused with one :class:`RicochetError` line naming the information set or history: an information
    set whose histories differ in their legal actions or in the player's own earlier actions (imperfect
    recall), a chance node whose probabilities are not positive or do not sum to 1, a terminal history
    without one utility per player.
    """
    n_players = game.num_players
    player, infoset, first_child, num_children, chance_prob = [], [], [], [], []
    utility_rows, sequence = {}, []
    index: dict[str, int] = {}
    keys, actions, inf_player, inf_parent, inf_depth, offsets = [], [], [], [], [], [0]
    queue = [(game.initial(), tuple([-1] * n_players), tuple([0] * n_players), 1.0)]
    head = 0
    while head < len(queue):
        history, seq, depth, prob = queue[head]
        queue[head] = None  # a large tree keeps only its frontier of histories, not every one
        n = head
        head += 1
        who = game.player(history)
        player.append(who)
        chance_prob.append(prob)
        sequence.append(seq)
        if who == TERMINAL:
            u = [float(x) for x in game.utilities(history)]
            if len(u) != n_players:
                raise RicochetError(f"{game.name}: terminal history {history!r} has {len(u)} utilities, "
                                    f"expected {n_players}")
            utility_rows[n] = u
            infoset.append(-1)
            first_child.append(-1)
            num_children.append(0)
            continue
        first_child.append(len(queue))
        if who == CHANCE:
            outcomes = list(game.chance_outcomes(history))
            ps = [p for _, p in outcomes]
            if not outcomes or min(ps) <= 0 or abs(sum(ps) - 1.0) > _PROBABILITY_SUM_TOLERANCE:
                raise RicochetError(f"{game.name}: chance probabilities at history {history!r} must be positive "
                                    f"and sum to 1, got {ps}")
            infoset.append(-1)
            num_children.append(len(outcomes))
            for outcome, p in outcomes:
                queue.append((game.next(history, outcome), seq, depth, float(p)))
            continue
        if not 0 <= who < n_players:
            raise RicochetError(f"{game.name}: player {who!r} at history {history!r} is not 0..{n_players - 1}, "
                                "CHANCE or TERMINAL")
        key = game.infoset(history)
        legal = tuple(game.actions(history))
        i = index.get(key)
        if i is None:
            i = index[key] = len(keys)
            keys.append(key)
            actions.append(legal)
            inf_player.append(who)
            inf_parent.append(seq[who])
            inf_depth.append(depth[who])
            offsets.append(offsets[-1] + len(legal))
        elif actions[i] != legal or inf_player[i] != who:
            raise RicochetError(f"{game.name}: information set {key!r} has different players or legal actions "
                                f"at different histories ({actions[i]} and {legal} at {history!r})")
        elif inf_parent[i] != seq[who]:
            raise RicochetError(f"{game.name}: information set {key!r} is reached after different earlier actions "
                                f"of player {who} (the game must have perfect recall; at {history!r})")
        infoset.append(i)
        num_children.append(len(legal))
        deeper = tuple(d + 1 if p == who else d for p, d in enumerate(depth))
        for j, a in enumerate(legal):
            queue.append((game.next(history, a), tuple(offsets[i] + j if p == who else s for p, s in enumerate(seq)),
                          deeper, 1.0))
    utility = np.zeros((len(player), n_players))
    for n, u in utility_rows.items():
        utility[n] = u
    first_child = np.array(first_child, np.int32)
    num_children = np.array(num_children, np.int32)
    return GameTree(
        game=game.name, num_players=n_players,
        player=np.array(player, np.int8), infoset=np.array(infoset, np.int32),
        first_child=first_child, num_children=num_children,
        chance_prob=np.array(chance_prob, np.float64), utility=utility,
        sequence=np.array(sequence, np.int32).reshape(len(player), n_players),
        infoset_player=np.array(inf_player, np.int8), offset=np.array(offsets, np.int32),
        infoset_parent=np.array(inf_parent, np.int32), infoset_depth=np.array(inf_depth, np.int32),
        keys=tuple(keys), actions=tuple(actions), index=index,
        post_order=depth_first_post_order(first_child, num_children))
