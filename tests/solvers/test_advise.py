"""advise against the readable engine, on random face-up tables.

Truth: :class:`ricochet_math.engine.round.Round` dealt from a deck order and
played seat by seat (its rules are pinned by tests/engine/test_engine.py), and the
perfect-play kernel :func:`ricochet_math.strategies.perfect.seat_values` run
on that Round's own table state.  advise sees only the face-up table an
observer would write down (cards as text), so these tests check that the
face-up path reaches the same seat, pot and hand to beat, and the same figures
to the last bit.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from ricochet_math.engine.records import AUTO_WIN
from ricochet_math.engine.round import Round
from ricochet_math.errors import TableStateError
from ricochet_math.evaluator.cards import format_cards
from ricochet_math.evaluator.names import describe
from ricochet_math.rules.arrays import options_array
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.solvers.advise import advise
from ricochet_math.strategies.perfect import READING_NAMES, seat_values

RULES = load_rules()
# The dealer kicked out on a pair of twos or better, ties to the dealer, no free cards:
# automatic wins and the other branch of every option.
LOW_KICKOUT = RULES.with_options(dealer_loses_ties=False, bonus_on_automatic_win=False)
for _n in range(1, 8):
    LOW_KICKOUT = LOW_KICKOUT.with_kickout(_n, "22")


def _face_up(deck, n, rnd):
    """(dealer, players, actions) as text, as an observer of ``rnd`` records them."""
    dealer = format_cards(deck[2 * n: 2 * n + 5])
    players = [format_cards(deck[2 * i: 2 * i + 2]) for i in range(n)]
    actions = [None] * n
    for seat in range(n):
        if rnd.action[seat] == "fold":
            actions[seat] = "fold"
        elif rnd.action[seat] == "play":
            actions[seat] = format_cards(rnd.draw[seat])
    return dealer, players, actions


def _state_to_act(rules, deck, n, moves):
    """The deck Round after ``moves`` ("fold"/"play" in order of play) and the acting seat's table state.

    At an automatic win the deck Round has finished the round; the seat then
    decides nothing but sees what it would see with the option off (a fold
    changes nothing but whose turn it is), under the real options.
    """
    rnd = Round(rules, n, deck)
    for m in moves:
        rnd.apply(m)
    if not rnd.is_terminal():
        return rnd, rnd.table_state(), False
    assert rnd.status[rnd.order[-1]] == AUTO_WIN
    off = Round(rules.with_options(automatic_win=False), n, deck)
    for m in moves:
        off.apply(m)
    st = off.table_state()
    return rnd, dataclasses.replace(st, options=options_array(rules, st.dealer_value)), True


@pytest.mark.parametrize("rules", [RULES, LOW_KICKOUT], ids=["publisher", "low-kickout"])
def test_advise_equals_the_round_on_random_states(rules):
    rng = np.random.default_rng(20260717)
    automatic = 0
    for n in range(1, 8):
        for _ in range(5):
            deck = rng.permutation(52)
            # a legal prefix: the first k seats in order of play fold or play, k = 0..N-1
            probe = Round(rules, n, deck)
            moves = []
            for _ in range(int(rng.integers(0, n))):
                if probe.is_terminal():
                    break
                moves.append("fold" if rng.random() < 0.5 else "play")
                probe.apply(moves[-1])
            rnd, st, auto = _state_to_act(rules, deck, n, moves)
            automatic += auto
            reading = READING_NAMES[int(rng.integers(len(READING_NAMES)))]
            a = advise(rules, *_face_up(deck, n, rnd), reading=reading)

            assert (a.seat, a.position, a.pot) == (st.seat, st.position, st.pot)
            assert a.dealer_kicked_out == st.dealer_kicked
            if st.best_value < 0:
                assert a.to_beat.startswith("nothing")
            else:
                holder = "dealer" if st.dealer_in else ("player" if st.n_tied == 1 else f"{st.n_tied} players")
                assert a.to_beat == f"{describe(st.best_value)} ({holder})"
            ev_play, ev_fold, p_win, bonus, play = seat_values(
                reading, st.unseen, st.hole_array(), st.order_array(), st.position,
                st.best_value, st.dealer_in, st.n_tied, st.pot, st.dealer_kicked, st.bonus_by_value, st.options)
            assert (a.ev_play, a.ev_fold, a.p_win, a.expected_bonus) == (ev_play, ev_fold, p_win, bonus)
            assert a.decision == ("automatic win" if auto else ("play" if play else "fold"))
    if rules is LOW_KICKOUT:
        assert automatic > 0  # the automatic-win branch was exercised


def test_advise_when_every_player_has_acted():
    rules = RULES.with_options(automatic_win=False)  # every seat acts
    rng = np.random.default_rng(3)
    for n in (1, 3, 7):
        deck = rng.permutation(52)
        rnd = Round(rules, n, deck)
        while not rnd.is_terminal():
            rnd.apply("play" if rng.random() < 0.5 else "fold")
        with pytest.raises(TableStateError, match="every player has acted: there is no decision left"):
            advise(rules, *_face_up(deck, n, rnd))
