"""The reference games and their layout: Kuhn and Leduc as OpenSpiel plays them, the tree's arrays and checks."""
from __future__ import annotations

import numpy as np
import pytest

from eq_helpers import openspiel_pair, walk_both
from ricochet_math.equilibrium import CHANCE, TERMINAL, Game, KuhnPoker, LeducPoker, build_tree
from ricochet_math.errors import RicochetError


@pytest.mark.parametrize("game, nodes, terminal, chance, infosets, entries", [
    (KuhnPoker(), 58, 30, 4, 12, 24),
    (KuhnPoker(3), 617, 312, 17, 48, 96),
    (LeducPoker(), 9457, 5520, 157, 936, 2184),  # OpenSpiel: 3,780 decision nodes, 936 information states
    (LeducPoker(suits=False), 9457, 5520, 157, 288, 672),
])
def test_tree_sizes(game, nodes, terminal, chance, infosets, entries):
    tree = build_tree(game)
    assert (tree.num_nodes, int((tree.player == TERMINAL).sum()), int((tree.player == CHANCE).sum()),
            tree.num_infosets, tree.num_entries) == (nodes, terminal, chance, infosets, entries)
    # breadth first: every child after its parent, children consecutive
    kids = tree.first_child[tree.player != TERMINAL]
    assert (kids > np.flatnonzero(tree.player != TERMINAL)).all()
    assert tree.digest != build_tree(LeducPoker(suits=not getattr(game, "suits", True))).digest


@pytest.mark.parametrize("name, players", [("kuhn", 2), ("kuhn", 3), ("leduc", 2)])
def test_the_games_are_openspiels_history_for_history(name, players):
    pytest.importorskip("pyspiel")
    ours, theirs, ids = openspiel_pair(name, players)
    count = [0]

    def visit(h, s):
        if ours.player(h) == TERMINAL:
            assert list(ours.utilities(h)) == list(s.returns()), h
            count[0] += 1

    walk_both(ours, theirs, ids, visit)
    assert count[0] == int((build_tree(ours).player == TERMINAL).sum())


def test_leduc_utilities_by_hand():
    g = LeducPoker()
    assert g.utilities(("J1", "Q1", "r", "f")) == [1.0, -1.0]
    assert g.utilities(("J1", "Q1", "r", "r", "c", "J2", "r", "c")) == [9.0, -9.0]  # pair of jacks: 1+2+2+4
    assert g.utilities(("K1", "Q1", "c", "r", "r", "c", "J2", "r", "r", "c")) == [13.0, -13.0]  # 1+2+2 +4+4
    assert g.utilities(("Q2", "Q1", "c", "c", "J2", "c", "c")) == [0.0, 0.0]
    assert g.actions(("K1", "Q1", "c", "r", "r")) == ("f", "c")  # two raises: no third
    assert g.infoset(("K1", "Q1", "c", "r", "c", "J2")) == "K1|J2:crc/"


class _Broken(Game):
    """A two-move game whose second player's information set is broken in the way ``kind`` says."""

    name = "broken"

    def __init__(self, kind):
        self.kind = kind

    def player(self, h):
        return TERMINAL if len(h) == 2 else len(h)

    def infoset(self, h):
        return "x" if self.kind in ("actions", "recall") else str(h)

    def actions(self, h):
        if self.kind == "actions" and h == ("b",):
            return ("a", "b", "c")
        return ("a", "b")

    def chance_outcomes(self, h):
        return []

    def utilities(self, h):
        return [1.0, -1.0]


@pytest.mark.parametrize("kind, words", [("actions", "different players or legal actions"),
                                         ("recall", "different players or legal actions")])  # recall: two players share it
def test_a_broken_information_set_is_refused_naming_it(kind, words):
    with pytest.raises(RicochetError, match=words) as info:
        build_tree(_Broken(kind))
    assert "'x'" in str(info.value) and "\n" not in str(info.value)


class _Forgetful(Game):
    """Player 0 moves twice, forgetting her first move: imperfect recall."""

    name = "forgetful"

    def player(self, h):
        return [0, 1, 0][len(h)] if len(h) < 3 else TERMINAL

    def infoset(self, h):
        return {0: "start", 1: "reply"}.get(len(h), "again")

    def actions(self, h):
        return ("a", "b")

    def chance_outcomes(self, h):
        return []

    def utilities(self, h):
        return [0.0, 0.0]


def test_imperfect_recall_is_refused():
    with pytest.raises(RicochetError, match="perfect recall.*'again'|'again'.*perfect recall"):
        build_tree(_Forgetful())


def test_kuhn_players_are_checked():
    with pytest.raises(RicochetError, match="players"):
        KuhnPoker(1)
