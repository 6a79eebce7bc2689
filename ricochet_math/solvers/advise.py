"""Advice for the acting seat at a face-up table: EV(play), EV(fold), P(win), bonus.

A face-up table is what anyone at the table can see: the dealer's five cards,
every player's two cards (in seat order), and for the seats that have already
acted, whether they folded or which three cards they drew
(:func:`~ricochet_math.engine.deal.face_up_table`).  :func:`advise` deals it
to the readable engine (:meth:`~ricochet_math.engine.round.Round.face_up`),
which plays the recorded actions by the rules and says which seat is to act
and what it sees (:class:`~ricochet_math.strategies.registry.TableState`);
the perfect-play kernel (:func:`ricochet_math.strategies.perfect.seat_values`)
then values that seat's two choices.

>>> from ricochet_math.solvers.advise import advise
>>> a = advise(None, dealer="Ks Kd 7c 4h 2s", players=["Ad 9c", "7s 7h"])
>>> a.seat, a.decision in ("play", "fold")  # A-9 is below 7-7: seat 0 acts first
(0, True)
"""
from __future__ import annotations

import difflib
from dataclasses import asdict, dataclass

import pandas as pd

from ricochet_math.engine.deal import FaceUpTable, face_up_table
from ricochet_math.engine.round import Round
from ricochet_math.errors import TableStateError, quote
from ricochet_math.evaluator.cards import format_cards
from ricochet_math.evaluator.names import describe
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.strategies.perfect import READING_NAMES, seat_values

__all__ = ["Advice", "advise"]


@dataclass(frozen=True)
class Advice:
    """The acting seat's figures (ante units; EV = expected net result of the round).

    ``position``: 0 = acts first; ``pot``: before the seat acts; ``to_beat``: the
    five-card hand standing and who holds it; ``decision``: ``play``, ``fold`` or
    ``automatic win`` (the seat wins without acting; the EVs are still the kernel's).
    """

    seat: int
    position: int
    hand: str
    to_beat: str
    pot: int
    dealer_kicked_out: bool
    ev_play: float
    ev_fold: float
    p_win: float
    expected_bonus: float
    decision: str
    reading: str

    def summary(self) -> str:
        return (
            f"Player {self.seat + 1} ({self.hand}) acts {self.position + 1}; to beat: {self.to_beat}; pot {self.pot}.\n"
            f"  EV(play) {self.ev_play:+.4f}  EV(fold) {self.ev_fold:+.4f}  P(win) {self.p_win:.4f}  "
            f"E[bonus] {self.expected_bonus:.4f}  ->  {self.decision.upper()} ({self.reading})"
        )

    def to_frame(self):
        return pd.DataFrame([asdict(self)])


def advise(rules, dealer=None, players=None, actions=None, *, state: FaceUpTable | None = None,
           reading: str = "perfect") -> Advice:
    """Perfect-play advice for the next seat to act (spec, "Perfect play").

    Give either ``state`` (a :class:`~ricochet_math.engine.deal.FaceUpTable`) or
    ``dealer``/``players``/``actions`` (see :func:`~ricochet_math.engine.deal.face_up_table`).  ``reading``
    names a strategy reading from :data:`ricochet_math.strategies.perfect.READING_NAMES`.
    Raises :class:`~ricochet_math.errors.TableStateError` when every player has acted.
    """
    rules = load_rules(rules)
    _check_reading(reading)
    if state is None:
        if dealer is None or players is None:
            raise TableStateError("advise needs the dealer's cards and every player's two cards")
        state = face_up_table(dealer, players, actions)
    elif not isinstance(state, FaceUpTable):
        raise TableStateError(f"state must be a FaceUpTable (see face_up_table), got a {type(state).__name__}")
    rnd = Round.face_up(rules, state)
    seat = rnd.current_seat()
    if seat is None:
        raise TableStateError("every player has acted: there is no decision left")
    st = rnd.table_state()
    ev_play, ev_fold, p_win, bonus, play = seat_values(
        reading, st.unseen, st.hole_array(), st.order_array(), st.position, st.best_value, st.dealer_in,
        st.n_tied, st.pot, st.dealer_kicked, st.bonus_by_value, st.options)
    if rnd.automatic_win_due():
        decision = "automatic win"
    else:
        decision = "play" if play else "fold"
    if st.best_value < 0:
        to_beat = "nothing (dealer kicked out, no hand stands)"
    else:
        who = "dealer" if st.dealer_in else ("player" if st.n_tied == 1 else f"{st.n_tied} players")
        to_beat = f"{describe(st.best_value)} ({who})"
    return Advice(
        seat=seat, position=st.position, hand=format_cards(st.hole, symbols=True), to_beat=to_beat,
        pot=st.pot, dealer_kicked_out=bool(st.dealer_kicked), ev_play=float(ev_play), ev_fold=float(ev_fold),
        p_win=float(p_win), expected_bonus=float(bonus), decision=decision, reading=reading,
    )


def _check_reading(reading: str) -> None:
    """A one-line error, with the closest name, for a name that is not a strategy reading."""
    if not isinstance(reading, str):
        raise TableStateError(f"reading must be a strategy reading name ({', '.join(READING_NAMES)}), "
                              f"got a {type(reading).__name__}")
    if reading not in READING_NAMES:
        close = difflib.get_close_matches(reading, READING_NAMES, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise TableStateError(f"unknown strategy reading {quote(reading)}{hint}; choose from {', '.join(READING_NAMES)}")
