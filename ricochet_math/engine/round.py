"""One round of casino Ricochet, readable: the reference engine and its round record.

This is the slow, readable statement of the rules (``shared/spec/ricochet-casino.md``,
"A round" and "High-hand bonus"); :mod:`ricochet_math.engine.kernel` plays the
same rules in numba and the tests check the two give identical records.

The deal, from a deck order
---------------------------
A deck is a sequence of distinct cards (kernel integers ``rank*4 + suit``),
at least ``5N + 5`` long for ``N`` players, read front to back:

1. seat ``i`` (``0..N-1``) gets ``deck[2i]`` and ``deck[2i+1]``;
2. the dealer gets ``deck[2N : 2N+5]``;
3. the draws come from ``deck[2N+5:]`` three cards at a time, in acting
   order: the ``k``-th seat to receive cards (a seat that plays, or the
   automatic winner's three free cards) gets ``deck[2N+5+3k : 2N+5+3k+3]``.

So ``5N + 5`` cards always suffice, and a given deck order fixes every card
any seat could receive, whatever the strategies decide.  A table dealt face
up (:meth:`Round.face_up`) is the same deal with the draws told one by one
as the seats act, instead of read from a deck.

A round, step by step
---------------------
1. Antes: each player and the dealer put 1 unit in the pot (``N + 1``).
2. Deal (above).  Side bets are settled on these cards, per unit staked:
   Quickdraw wins ``pays`` (else loses 1) when the seat's two cards reach the
   dealer's five (``rules.quickdraw.comparison``: ``kicker`` compares full
   kicker-rule keys, ``top-cards`` only the dealer's top ranked cards; ties
   win for the player); Cover wins ``rules.cover.payout(dealer_value)`` on the
   dealer's hand (a line paying 0, or no line, loses 1).
3. Kickout: the dealer folds when her value is at or above
   ``rules.kickout_value(N)``; her ante stays in the pot.
4. Seats act once each, lowest two-card hand first
   (:func:`~ricochet_math.evaluator.evaluation.order_key`).  If the option
   ``automatic_win`` is on, the dealer is kicked out and every earlier seat
   folded, the last seat wins the pot without acting or paying a play bet
   (and with ``bonus_on_automatic_win`` is dealt three free cards for the
   bonus).  Otherwise the seat folds, or plays: 1 more unit, three cards.
5. Elimination after a play: the seat must reach the best five-card hand
   standing: the dealer's while she stands (she loses ties when
   ``dealer_loses_ties``; otherwise the tying seat is out), else the best
   standing players' (a tie stands beside them; a higher hand knocks them all
   out).  Nothing standing: the seat stands.
6. Award: the pot goes to the standing players (all tied at the best value),
   split in whole units with the odd units one each to the tied seats that
   acted last (``split = "odd-units-last"``) or exactly (``"fractional"``).
   The dealer standing, or nobody standing: the house takes the pot.
7. High-hand bonus: every seat with a five-card hand (played, or automatic
   winner with free cards) is paid ``rules.bonus.payout(value)``, win or lose.

Per seat: ``wagered`` = ante + play bet, ``net = pot_share + bonus - wagered``.
The house: ``-1`` (its ante) ``+ pot`` if it takes it ``- bonuses``; the
players' nets and the house's always sum to zero.

>>> from ricochet_math.rules.ruleset import load_rules
>>> rec = play_round(load_rules(), "always", players=2, seed=7)
>>> round(sum(s.net for s in rec.seats) + rec.house_net, 12)
0.0
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ricochet_math.arguments import check_seed
from ricochet_math.errors import CardError, RicochetError, RuleError, TableStateError, quote
from ricochet_math.evaluator.cards import parse_cards
from ricochet_math.evaluator.evaluation import FIVE_CARD_KEY, TWO_CARD_KEY, eval5
from ricochet_math.evaluator.names import describe
from ricochet_math.engine.deal import (
    FaceUpTable, acting_order, cards_needed, check_deck, check_players,
)
from ricochet_math.engine.records import (
    AUTO_WIN, BEATEN, FOLDED, PLAYED, WON, LogEntry, RoundRecord, SeatRecord, show,
)
from ricochet_math.rules.arrays import bonus_by_value, options_array
from ricochet_math.rules.layout import Option
from ricochet_math.rules.ruleset import RuleSet, load_rules
from ricochet_math.strategies.registry import Strategy, TableState, resolve_strategies
from ricochet_math.strategies.simple import top_cards_key

__all__ = ["Round", "play_round", "quickdraw_result"]

_WAITING = "waiting"


def quickdraw_result(rules: RuleSet, hole: Sequence[int], dealer_value: int) -> float:
    """Quickdraw result per unit staked: ``+pays`` when the two cards reach the dealer's five, else ``-1``.

    ``kicker``: the seat's kicker-rule key against the dealer's full key (the
    dealer's extra cards count, so ties cannot happen); ``top-cards``: against
    the dealer's key cut to as many ranked cards as the seat holds.  Ties win.
    """
    mine = int(TWO_CARD_KEY[int(hole[0]) * 52 + int(hole[1])])
    theirs = int(FIVE_CARD_KEY[dealer_value])
    if rules.quickdraw.comparison == "top-cards":
        theirs = int(top_cards_key(theirs, mine))
    return float(rules.quickdraw.pays) if mine >= theirs else -1.0


# ----------------------------------------------------------------------------
# The round as a state machine
# ----------------------------------------------------------------------------

class Round:
    """A round in progress.  Construction does the antes, the deal, the side
    bets and the kickout check; then, while not :meth:`is_terminal`, the seat
    :meth:`current_seat` chooses one of :meth:`legal_actions` (``"fold"``,
    ``"play"``) and :meth:`apply` plays it.  :meth:`record` gives the result;
    :meth:`table_state` is what the acting seat sees.

    ``Round(rules, players, deck)`` deals from a deck order (module
    docstring); :meth:`Round.face_up` deals a recorded face-up table, whose
    draws the caller tells as the seats act.  ``strategy_names`` only labels
    the seats in the record.
    """

    def __init__(self, rules: RuleSet, players: int, deck: Sequence[int],
                 strategy_names: Sequence[str] | None = None) -> None:
        n = check_players(players)
        self._start(rules, n, check_deck(deck, n), strategy_names, dealt_face_up=False)

    @classmethod
    def face_up(cls, rules: RuleSet | str | None, table: FaceUpTable,
                strategy_names: Sequence[str] | None = None) -> Round:
        """The round at a face-up table, its recorded actions played in order of play.

        ``table``: a :class:`~ricochet_math.engine.deal.FaceUpTable` (from
        :func:`~ricochet_math.engine.deal.face_up_table`, which checks its
        cards).  The seats' two cards and the dealer's five are the deck's
        first ``2N + 5`` cards; each recorded draw follows as its seat plays.
        Raises :class:`~ricochet_math.errors.TableStateError` when a seat has
        acted while a seat before it in the order of play has not.  The round
        then waits for the next seat: :meth:`apply` ``"fold"`` or the three
        cards drawn; an automatic win waits too (:meth:`apply`).
        """
        n = len(table.players)
        rnd = cls.__new__(cls)
        deck = tuple(c for hole in table.players for c in hole) + tuple(table.dealer)
        rnd._start(load_rules(rules), n, deck, strategy_names, dealt_face_up=True)
        acted = [table.actions[s] is not None for s in rnd.order]
        if False in acted and any(acted[acted.index(False):]):
            first_waiting = acted.index(False)
            late = rnd.order[first_waiting + acted[first_waiting:].index(True)]
            raise TableStateError(
                f"player {late + 1} has acted before player {rnd.order[first_waiting] + 1}, "
                "who is lower and acts first (order of play: lowest two-card hand first)"
            )
        for seat in rnd.order[:acted.count(True)]:
            rnd.apply(table.actions[seat])
        return rnd

    def _start(self, rules: RuleSet, n: int, deck: tuple[int, ...], strategy_names: Sequence[str] | None, *,
               dealt_face_up: bool) -> None:
        """Steps 1 to 3 and the order of play.  ``deck`` holds at least the deal (``2N + 5`` cards)."""
        self.rules = rules
        self.n = n
        self.deck = deck
        self.dealt_face_up = dealt_face_up  # True: the draws are told through apply, not read from the deck
        self.strategy_names = tuple(strategy_names) if strategy_names else ("",) * n
        self.bonus_table = bonus_by_value(rules).copy()  # writable: the kernels are compiled for writable arrays
        self.log: list[LogEntry] = []

        # 1. Antes.
        self.pot = n + 1
        self._log("ante", None, f"{n} player(s) and the dealer ante 1 each")

        # 2. Deal: seat i gets deck[2i], deck[2i+1]; the dealer deck[2N:2N+5].
        self.holes = tuple((self.deck[2 * i], self.deck[2 * i + 1]) for i in range(n))
        self.dealer_cards = tuple(self.deck[2 * n: 2 * n + 5])
        self.next_card = 2 * n + 5
        self.dealer_value = int(eval5(*self.dealer_cards))
        self.options = options_array(rules, self.dealer_value)
        self.unseen = np.ones(52, dtype=np.uint8)
        for c in self.dealer_cards + tuple(c for h in self.holes for c in h):
            self.unseen[c] = 0
        for i, h in enumerate(self.holes):
            self._log("deal", i, f"Seat {i + 1} is dealt {show(h)}")
        self._log("deal", None, f"Dealer is dealt {show(self.dealer_cards)}: {describe(self.dealer_value)}")

        # Side bets, settled on the deal.
        self.quickdraw = tuple(quickdraw_result(rules, h, self.dealer_value) for h in self.holes)
        cover_pays = float(rules.cover.payout(self.dealer_value))
        self.cover = cover_pays if cover_pays > 0 else -1.0
        qd = ", ".join(f"seat {i + 1} {'wins' if r > 0 else 'loses'}" for i, r in enumerate(self.quickdraw))
        self._log("sidebets", None, f"Side bets: Quickdraw {qd}; Cover "
                  + (f"pays {cover_pays:g} to 1" if cover_pays > 0 else "loses"))

        # 3. Kickout.
        self.kickout_value = int(rules.kickout_value(n))
        self.kicked = self.dealer_value >= self.kickout_value
        if self.kicked:
            self._log("kickout", None, f"Dealer's {describe(self.dealer_value)} is at or above the kickout "
                      f"hand ({rules.kickout[n]}): she is kicked out, her ante stays in the pot")
        else:
            self._log("kickout", None, f"Dealer stands with {describe(self.dealer_value)} "
                      f"(kickout hand for {n}: {rules.kickout[n]})")

        # 4. Order of play: lowest two-card hand first, suit tie-break.
        self.order = acting_order(self.holes)
        self._log("order", None, "Order of play: " + ", ".join(f"seat {i + 1}" for i in self.order))

        self.position = 0
        self.dealer_in = not self.kicked
        self.best_value = self.dealer_value if self.dealer_in else -1
        self.status = [_WAITING] * n
        self.action = [""] * n
        self.reason = [""] * n
        self.draw: list[tuple[int, ...]] = [()] * n
        self.value = [-1] * n
        self.wagered = [1.0] * n
        self.share = [0.0] * n
        self.bonus = [0.0] * n
        self.terminal = False
        self._advance()

    # ---- the interface a solver or a driver uses -------------------------

    def current_seat(self) -> int | None:
        """The seat to act, or ``None`` when the round is over."""
        return None if self.terminal else self.order[self.position]

    def legal_actions(self) -> tuple[str, ...]:
        """``("fold", "play")``; ``("auto",)`` while a face-up round waits at an automatic win; ``()`` at the end."""
        if self.terminal:
            return ()
        return ("auto",) if self.automatic_win_due() else ("fold", "play")

    def is_terminal(self) -> bool:
        return self.terminal

    def standing(self) -> tuple[int, ...]:
        """Seats that played and still stand."""
        return tuple(i for i in range(self.n) if self.status[i] == PLAYED)

    def automatic_win_due(self) -> bool:
        """Step 4: the option is on, the dealer is kicked out and every earlier seat folded; only the last seat is left."""
        return (not self.terminal and bool(self.options[Option.automatic_win]) and self.kicked
                and self.position == self.n - 1
                and all(self.status[s] == FOLDED for s in self.order[:-1]))

    def table_state(self) -> TableState:
        """What the acting seat sees (a :class:`~ricochet_math.strategies.registry.TableState`)."""
        seat = self.current_seat()
        if seat is None:
            raise RuleError("the round is over: no seat is to act")
        standing = self.standing()
        return TableState(
            n_players=self.n, seat=seat, position=self.position, order=self.order, holes=self.holes,
            dealer_cards=self.dealer_cards, dealer_value=self.dealer_value, dealer_kicked=self.kicked,
            dealer_in=self.dealer_in, best_value=self.best_value,
            n_tied=0 if self.dealer_in else len(standing), standing=standing, pot=self.pot,
            unseen=self.unseen.copy(), bonus_by_value=self.bonus_table, options=self.options,
        )

    def apply(self, action) -> None:
        """The acting seat folds (``"fold"``) or plays: ``"play"`` deals it the deck's next
        three cards; at a round dealt face up, give the three cards it drew instead
        (text or kernel integers).

        A face-up round also waits at an automatic win: give ``"auto"``, or with
        ``bonus_on_automatic_win`` the three free cards the seat is dealt.
        """
        seat = self.current_seat()
        if seat is None:
            raise RuleError("the round is over: no seat is to act")
        if self.automatic_win_due():  # only a face-up round stops here (_advance)
            self._told_automatic_win(seat, action)
            return
        if isinstance(action, str) and action == "fold":
            self.action[seat] = "fold"
            self.status[seat] = FOLDED
            self.reason[seat] = "folded"
            self._log("fold", seat, f"Seat {seat + 1} ({show(self.holes[seat])}) folds")
        else:
            if self.dealt_face_up:
                if isinstance(action, str) and action.strip().lower() == "play":
                    raise RuleError(f"a round dealt face up has no deck: give the three cards seat {seat + 1} drew")
                self._tell_cards(action, f"seat {seat + 1}'s draw")
            elif not (isinstance(action, str) and action == "play"):
                raise RuleError(f"action must be 'fold' or 'play', got {quote(action)}")
            self.action[seat] = "play"
            self.pot += 1
            self.wagered[seat] = 2.0
            v = self._deal_three(seat)
            self._log("play", seat, f"Seat {seat + 1} plays, pays 1 and draws {show(self.draw[seat])}: "
                      f"{show(self.holes[seat] + self.draw[seat])}, {describe(v)}")
            self._eliminate(seat, v)
        self.position += 1
        self._advance()

    # ---- the rules -------------------------------------------------------

    def _tell_cards(self, cards, where: str) -> None:
        """A face-up round: three cards the caller tells, checked unseen, become the deck's next cards."""
        placed = {c: "the dealer's hand" for c in self.dealer_cards}
        for i in range(self.n):
            placed.update({c: f"seat {i + 1}'s hand" for c in self.holes[i]})
            placed.update({c: f"seat {i + 1}'s cards" for c in self.draw[i]})
        drawn = parse_cards(cards, count=3, where=where, dead=placed)
        self.deck = self.deck + tuple(int(c) for c in drawn)

    def _deal_three(self, seat: int) -> int:
        """The next three deck cards to ``seat``; returns its five-card value (bonus noted)."""
        if self.next_card + 3 > len(self.deck):
            raise CardError(f"the deck ran out: {len(self.deck)} cards given, {self.n} players need up to {cards_needed(self.n)}")
        cards = tuple(self.deck[self.next_card: self.next_card + 3])
        self.next_card += 3
        for c in cards:
            self.unseen[c] = 0
        self.draw[seat] = cards
        v = int(eval5(*(self.holes[seat] + cards)))
        self.value[seat] = v
        self.bonus[seat] = float(self.bonus_table[v])
        return v

    def _eliminate(self, seat: int, v: int) -> None:
        """Step 6: after a play, any five-card hand beaten by another is out."""
        who = f"Seat {seat + 1}"
        if self.best_value < 0:
            self.status[seat] = PLAYED
            self.best_value = v
            self._log("stand", seat, f"{who} stands: nothing to beat")
        elif self.dealer_in:
            ties_ok = bool(self.options[Option.dealer_loses_ties])
            if v > self.best_value or (v == self.best_value and ties_ok):
                self.dealer_in = False
                self.status[seat] = PLAYED
                self.best_value = v
                verb = "ties" if v == self.dealer_value else "beats"
                self._log("out", None, f"{who} {verb} the dealer's {describe(self.dealer_value)}: the dealer is out")
            else:
                self.status[seat] = BEATEN
                tie = " (the dealer wins ties)" if v == self.best_value else ""
                self.reason[seat] = f"did not beat the dealer's {describe(self.dealer_value)}{tie}"
                self._log("out", seat, f"{who} is out: {self.reason[seat]}")
        else:
            holders = self.standing()
            if v > self.best_value:
                for h in holders:
                    self.status[h] = BEATEN
                    self.reason[h] = f"knocked out by seat {seat + 1}'s {describe(v)}"
                    self._log("out", h, f"Seat {h + 1} is out: {self.reason[h]}")
                self.status[seat] = PLAYED
                self.best_value = v
            elif v == self.best_value:
                self.status[seat] = PLAYED
                self._log("stand", seat, f"{who} ties " + ", ".join(f"seat {h + 1}" for h in holders)
                          + f" at {describe(v)}: they stand together")
            else:
                self.status[seat] = BEATEN
                self.reason[seat] = ("did not reach " + ", ".join(f"seat {h + 1}" for h in holders)
                                     + f"'s {describe(self.best_value)}")
                self._log("out", seat, f"{who} is out: {self.reason[seat]}")

    def _advance(self) -> None:
        """The automatic win if it is due (a face-up round waits to be told it), and the award once every seat has acted."""
        if self.automatic_win_due():
            if not self.dealt_face_up:
                self._automatic_win(self.order[self.position])
            return
        if self.position >= self.n and not self.terminal:
            self._finish(winners=self.standing())

    def _told_automatic_win(self, seat: int, action) -> None:
        """A face-up round at an automatic win: ``"auto"``, or the free cards when the option deals them."""
        said = action.strip().lower() if isinstance(action, str) else None
        why = f"seat {seat + 1} wins automatically (the dealer is kicked out and every other seat folded)"
        if self.options[Option.bonus_on_automatic_win]:
            if said in ("auto", "fold", "play"):
                raise TableStateError(f"{why}: give the three free cards it is dealt for the bonus")
            self._tell_cards(action, f"seat {seat + 1}'s free cards")
        elif said != "auto":
            raise TableStateError(f"{why} and is dealt no free cards: apply 'auto'")
        self._automatic_win(seat)

    def _automatic_win(self, seat: int) -> None:
        """Step 4: the last seat wins the pot without a play bet (free cards for the bonus if the option says so)."""
        self.action[seat] = "auto"
        self.status[seat] = AUTO_WIN
        self._log("auto-win", seat, f"Seat {seat + 1}: the dealer is kicked out and everyone else folded, "
                  f"so seat {seat + 1} wins automatically without a play bet")
        if self.options[Option.bonus_on_automatic_win]:
            v = self._deal_three(seat)
            self._log("auto-win", seat, f"Seat {seat + 1} is dealt 3 free cards for the bonus: "
                      f"{show(self.draw[seat])}: {show(self.holes[seat] + self.draw[seat])}, {describe(v)}")
        self.share[seat] = float(self.pot)
        self.position = self.n
        self._finish(winners=(seat,))

    def _finish(self, winners: tuple[int, ...]) -> None:
        """Step 7: the award, then the bonuses."""
        self.winners = tuple(winners)
        self.house_takes_pot = not self.winners
        if self.house_takes_pot:
            why = "the dealer's hand stands" if self.dealer_in else "no player is left"
            self._log("award", None, f"The house takes the pot of {self.pot}: {why}")
        elif self.status[self.winners[0]] == AUTO_WIN:
            self._log("award", self.winners[0], f"Seat {self.winners[0] + 1} takes the pot of {self.pot}")
        else:
            shares = _split_pot(self.pot, [self.order.index(w) for w in self.winners],
                                fractional=bool(self.options[Option.split_fractional]))
            for w, share in zip(self.winners, shares):
                self.status[w] = WON
                self.share[w] = share
            if len(self.winners) == 1:
                self._log("award", self.winners[0], f"Seat {self.winners[0] + 1} wins the pot of {self.pot} "
                          f"with {describe(self.best_value)}")
            else:
                parts = ", ".join(f"seat {w + 1} gets {s:g}" for w, s in zip(self.winners, shares))
                self._log("award", None, f"Seats tie with {describe(self.best_value)} and split the pot of "
                          f"{self.pot}: {parts}")
        for i in range(self.n):
            if self.bonus[i] > 0:
                self._log("bonus", i, f"Seat {i + 1} is paid a bonus of {self.bonus[i]:g} for "
                          f"{describe(self.value[i])}" + ("" if self.status[i] in (WON, AUTO_WIN) else " (while losing the pot)"))
        self.terminal = True

    # ---- the result -------------------------------------------------------

    def returns(self) -> tuple[float, ...]:
        """Each seat's net result (ante units); only once the round is over."""
        if not self.terminal:
            raise RuleError("the round is not over")
        return tuple(self.share[i] + self.bonus[i] - self.wagered[i] for i in range(self.n))

    def record(self) -> RoundRecord:
        nets = self.returns()
        seats = tuple(
            SeatRecord(
                seat=i, hole=self.holes[i], position=self.order.index(i), strategy=self.strategy_names[i],
                action=self.action[i], status=self.status[i], wagered=self.wagered[i], pot_share=self.share[i],
                bonus=self.bonus[i], net=nets[i], draw=self.draw[i], final_value=self.value[i],
                quickdraw=self.quickdraw[i], reason=self.reason[i],
            )
            for i in range(self.n)
        )
        house_net = -1.0 + (float(self.pot) if self.house_takes_pot else 0.0) - sum(self.bonus)
        return RoundRecord(
            rules_name=self.rules.name, n_players=self.n, deck=tuple(self.deck), dealer_cards=self.dealer_cards,
            dealer_value=self.dealer_value, kickout_value=self.kickout_value, kicked=self.kicked,
            order=self.order, seats=seats, pot=self.pot, winners=self.winners,
            house_takes_pot=self.house_takes_pot, house_net=house_net, cover=self.cover, log=tuple(self.log),
        )

    def _log(self, kind: str, seat: int | None, text: str) -> None:
        self.log.append(LogEntry(kind, seat, text, self.pot))


def _split_pot(pot: int, positions: Sequence[int], *, fractional: bool) -> list[float]:
    """Shares of ``pot`` for tied seats acting at ``positions``: whole units with the
    ``pot mod k`` odd units one each to the seats that acted last, or ``pot / k`` each."""
    k = len(positions)
    if fractional:
        return [pot / k] * k
    base, odd = divmod(pot, k)
    last = sorted(positions, reverse=True)[:odd]
    return [float(base + (1 if p in last else 0)) for p in positions]


# ----------------------------------------------------------------------------
# Playing a round
# ----------------------------------------------------------------------------

def play_round(rules: RuleSet | str | None = None, strategies: str | Strategy | Sequence = "always", *,
               players: int | None = None, deck: Sequence[int] | None = None,
               rng: np.random.Generator | None = None, seed: int | None = None) -> RoundRecord:
    """Play one round with the reference engine.

    ``strategies``: one strategy (name or object) for every seat, or one per
    seat (then ``players`` defaults to their number).  ``deck``: a deck order
    (see the module docstring); otherwise a shuffled deck from ``rng`` (or a
    fresh ``numpy.random.default_rng(seed)``; ``seed``: a whole number from 0 to 2**128 - 1, or ``None``).
    """
    rules = load_rules(rules)
    seed = check_seed(seed)
    if rng is not None and not isinstance(rng, np.random.Generator):
        raise RicochetError(f"rng must be a numpy.random.Generator, got a {type(rng).__name__}")
    if players is None:
        if isinstance(strategies, (str, Strategy)):
            raise RuleError("give the number of players (players=N) or one strategy per seat")
        players = len(strategies)
    n = check_players(players)
    seat_strategies = resolve_strategies(strategies, n)
    if deck is None:
        rng = rng if rng is not None else np.random.default_rng(seed)
        deck = rng.permutation(52)
    rnd = Round(rules, n, deck, [s.name for s in seat_strategies])
    while not rnd.is_terminal():
        seat = rnd.current_seat()
        rnd.apply("play" if seat_strategies[seat].decide(rnd.table_state()) else "fold")
    return rnd.record()
