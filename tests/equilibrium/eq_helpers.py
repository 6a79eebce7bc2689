"""Shared pieces of the equilibrium tests: OpenSpiel's game beside ours, walked history for history."""
from __future__ import annotations

from ricochet_math.equilibrium.game import CHANCE, TERMINAL
from ricochet_math.equilibrium.kuhn import KuhnPoker
from ricochet_math.equilibrium.leduc import LEDUC_CARDS, LeducPoker

#: OpenSpiel's player actions by our labels
OPENSPIEL_ACTIONS = {"kuhn": {"p": 0, "b": 1}, "leduc": {"f": 0, "c": 1, "r": 2}}


def openspiel_pair(name: str, players: int = 2):
    """(our game, OpenSpiel's game, label -> OpenSpiel action id)."""
    import pyspiel

    if name == "kuhn":
        ours = KuhnPoker(players)
        theirs = pyspiel.load_game("kuhn_poker", {"players": players})
        ids = {**OPENSPIEL_ACTIONS["kuhn"], **{c: i for i, c in enumerate(ours.cards)}}
    else:
        ours, theirs = LeducPoker(), pyspiel.load_game("leduc_poker")
        ids = {**OPENSPIEL_ACTIONS["leduc"], **{c: i for i, c in enumerate(LEDUC_CARDS)}}
    return ours, theirs, ids


def walk_both(ours, theirs, ids, visit):
    """Walk both games together; ``visit(history, state)`` at every node.  Asserts they agree on who moves,
    the legal actions and the chance probabilities."""
    stack = [(ours.initial(), theirs.new_initial_state())]
    while stack:
        h, s = stack.pop()
        visit(h, s)
        who = ours.player(h)
        if who == TERMINAL:
            assert s.is_terminal(), h
            continue
        if who == CHANCE:
            assert s.is_chance_node(), h
            theirs_outcomes = dict(s.chance_outcomes())
            for label, p in ours.chance_outcomes(h):
                assert abs(theirs_outcomes[ids[label]] - p) < 1e-15, h
                stack.append((ours.next(h, label), s.child(ids[label])))
            assert len(theirs_outcomes) == len(ours.chance_outcomes(h)), h
            continue
        assert s.current_player() == who, h
        assert sorted(ids[a] for a in ours.actions(h)) == sorted(s.legal_actions()), h
        for a in ours.actions(h):
            stack.append((ours.next(h, a), s.child(ids[a])))


def infoset_pairs(ours, theirs, ids) -> dict[str, str]:
    """Our information-set key -> OpenSpiel's information-state string (asserted one to one)."""
    pairs: dict[str, str] = {}

    def visit(h, s):
        who = ours.player(h)
        if who >= 0:
            key, text = ours.infoset(h), s.information_state_string(who)
            assert pairs.setdefault(key, text) == text, key

    walk_both(ours, theirs, ids, visit)
    assert len(set(pairs.values())) == len(pairs)
    return pairs


def to_openspiel_policy(result_strategy: dict, ours, theirs, ids):
    """Our ``{key: {action: probability}}`` as OpenSpiel's TabularPolicy."""
    from open_spiel.python import policy as ospolicy

    table = ospolicy.TabularPolicy(theirs)
    for key, text in infoset_pairs(ours, theirs, ids).items():
        row = table.policy_for_key(text)
        row[:] = 0.0
        for label, p in result_strategy[key].items():
            row[ids[label]] = p
    return table
