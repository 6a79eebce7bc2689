"""Advice for the acting seat at a face-up table: EV(play), EV(fold), P(win), bonus.

A :class:`TableState` is what anyone at the table can see: the dealer's five
cards, every player's two cards (in seat order), and for the seats that have
already acted, whether they folded or which three cards they drew.  The seat
to act is the next one in the order of play (lowest two-card hand first);
:func:`advise` replays the earlier actions by the rules to find what stands
and the pot, then runs the perfect-play kernel (:mod:`ricochet_math.strategies.perfect`).

>>> from ricochet_math.solvers.advise import advise
>>> a = advise(None, dealer="Ks Kd 7c 4h 2s", players=["Ad 9c", "7s 7h"])
>>> a.seat, a.decision in ("play", "fold")
(1, True)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ricochet_math.evaluator.cards import format_cards, parse_cards
from ricochet_math.errors import TableStateError
from ricochet_math.evaluator.evaluation import describe, eval_cards, order_key
from ricochet_math.strategies.perfect import READING_NAMES, seat_values

__all__ = ["TableState", "Advice", "advise", "table_state", "rule_arrays"]


@dataclass(frozen=True)
class TableState:
    """Face-up table: ``dealer`` int8[5]; ``players`` int8[N, 2] in seat order;
    ``actions[i]`` is ``None`` (not acted yet), ``"fold"`` or int8[3] drawn cards."""

    dealer: np.ndarray
    players: np.ndarray
    actions: tuple

    @property
    def n_players(self) -> int:
        return int(self.players.shape[0])

    def order(self) -> np.ndarray:
        """Seats in order of play (lowest two-card hand first, suit tie-break)."""
        keys = [order_key(int(a), int(b)) for a, b in self.players]
        return np.argsort(keys, kind="stable").astype(np.int64)


def table_state(dealer, players, actions=None) -> TableState:
    """Parse and check a table: cards as text or kernel ints; ``actions`` per seat
    as ``None``, ``"fold"`` or the three drawn cards (text or ints).

    Raises one-line :class:`~ricochet_math.errors.CardError` /
    :class:`~ricochet_math.errors.TableStateError` for duplicate or missing cards,
    a player count outside 1..7 and seats acting out of order.
    """
    from ricochet_math.rules.ruleset import MAX_PLAYERS
    seen: dict[int, str] = {}  # card -> where it is, for duplicate messages
    d = parse_cards(dealer, count=5, where="the dealer's hand")
    seen.update({int(c): "the dealer's hand" for c in d})
    if not 1 <= len(players) <= MAX_PLAYERS:
        raise TableStateError(f"a table has 1 to {MAX_PLAYERS} players, got {len(players)}")
    hands = []
    for i, p in enumerate(players):
        h = parse_cards(p, count=2, where=f"player {i + 1}'s hand", dead=seen)
        seen.update({int(c): f"player {i + 1}'s hand" for c in h})
        hands.append(h)
    acts = list(actions) if actions is not None else [None] * len(players)
    if len(acts) != len(players):
        raise TableStateError(f"{len(acts)} actions given for {len(players)} players")
    parsed = []
    for i, a in enumerate(acts):
        if a is None or (isinstance(a, str) and a.strip().lower() in ("", "-", "none", "wait")):
            parsed.append(None)
        elif isinstance(a, str) and a.strip().lower() == "fold":
            parsed.append("fold")
        else:
            drawn = parse_cards(a, count=3, where=f"player {i + 1}'s draw", dead=seen)
            seen.update({int(c): f"player {i + 1}'s draw" for c in drawn})
            parsed.append(drawn)
    state = TableState(d, np.array(hands, dtype=np.int8), tuple(parsed))
    order = state.order()
    acted = [state.actions[s] is not None for s in order]
    if False in acted:
        first_waiting = acted.index(False)
        if any(acted[first_waiting:]):
            late = int(order[first_waiting + acted[first_waiting:].index(True)])
            raise TableStateError(
                f"player {late + 1} has acted before player {int(order[first_waiting]) + 1}, "
                "who is lower and acts first (order of play: lowest two-card hand first)"
            )
    return state


def rule_arrays(rules, n_players: int):
    """(bonus_by_value float64[7462], options int64[5] without the dealer value, threshold)."""
    from ricochet_math.solvers.solo import bonus_lines
    lov, pays, _ = bonus_lines(rules.bonus)
    o = rules.options
    opts = np.array([int(o.automatic_win), int(o.split == "fractional"), int(o.dealer_loses_ties),
                     int(o.bonus_on_automatic_win), 0], dtype=np.int64)
    return pays[lov].astype(np.float64), opts, rules.kickout_value(n_players)


@dataclass(frozen=True)
class Advice:
    """The acting seat's figures (ante units; EV = expected net result of the round)."""

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
        import pandas as pd
        from dataclasses import asdict
        return pd.DataFrame([asdict(self)])


def advise(rules, dealer=None, players=None, actions=None, *, state: TableState | None = None,
           reading: str = "perfect") -> Advice:
    """Perfect-play advice for the next seat to act (spec, "Perfect play").

    Give either ``state`` or ``dealer``/``players``/``actions`` (see
    :func:`table_state`).  ``reading`` names a strategy reading from
    :data:`ricochet_math.strategies.perfect.READING_NAMES`.
    """
    from ricochet_math.rules.ruleset import load_rules
    rules = load_rules(rules)
    if state is None:
        if dealer is None or players is None:
            raise TableStateError("advise needs the dealer's cards and every player's two cards")
        state = table_state(dealer, players, actions)
    if reading not in READING_NAMES:
        import difflib
        close = difflib.get_close_matches(reading, READING_NAMES, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise TableStateError(f"unknown strategy reading {reading!r}{hint}; choose from {', '.join(READING_NAMES)}")
    n = state.n_players
    bonus_by_value, opts, threshold = rule_arrays(rules, n)
    dv = int(eval_cards(state.dealer.astype(np.int64)))
    opts[4] = dv
    kicked = dv >= threshold
    order = state.order()
    deck = np.ones(52, dtype=np.uint8)
    deck[state.dealer.astype(np.int64)] = 0
    deck[state.players.reshape(-1).astype(np.int64)] = 0
    best, dealer_in, n_tied, pot = (-1, False, 0, n + 1) if kicked else (dv, True, 0, n + 1)
    pos = 0
    ties_dealer = rules.options.dealer_loses_ties
    while pos < n and state.actions[order[pos]] is not None:
        s = int(order[pos])
        a = state.actions[s]
        if not isinstance(a, str):
            deck[a.astype(np.int64)] = 0
            f = int(eval_cards(np.concatenate([state.players[s], a]).astype(np.int64)))
            pot += 1
            if best < 0 or f > best or (f == best and dealer_in and ties_dealer):
                best, dealer_in, n_tied = f, False, 1
            elif f == best and not dealer_in:
                n_tied += 1
        pos += 1
    if pos == n:
        raise TableStateError("every player has acted: there is no decision left")
    seat = int(order[pos])
    code = READING_NAMES.index(reading)
    ev_play, ev_fold, p_win, bonus, play = seat_values(
        code, deck, state.players.astype(np.int64), order, pos, best, dealer_in, n_tied, pot,
        kicked, bonus_by_value, opts)
    if kicked and best < 0 and pos == n - 1 and rules.options.automatic_win:
        decision = "automatic win"
    else:
        decision = "play" if play else "fold"
    if best < 0:
        to_beat = "nothing (dealer kicked out, no hand stands)"
    else:
        who = "dealer" if dealer_in else ("player" if n_tied == 1 else f"{n_tied} players")
        to_beat = f"{describe(best)} ({who})"
    return Advice(
        seat=seat, position=pos, hand=format_cards(state.players[seat], symbols=True), to_beat=to_beat,
        pot=pot, dealer_kicked_out=bool(kicked), ev_play=float(ev_play), ev_fold=float(ev_fold),
        p_win=float(p_win), expected_bonus=float(bonus), decision=decision, reading=reading,
    )
