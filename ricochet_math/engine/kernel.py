"""The batch kernel: casino Ricochet in numba, for batches of rounds.

The same rules as the readable :mod:`ricochet_math.engine.round` (whose docstring
states them, with the deal order from a deck), over integer arrays.  The
tests check that both engines give identical records on random rounds for
every built-in strategy, N = 1..7 and every rule option.

Two entry points:

* :func:`play_decks` plays given deck orders and returns every per-round
  number (:class:`FastRecords`), for the differential tests and for analyses
  that bring their own decks (common random numbers).
* :func:`run_chunk` deals ``rounds`` random rounds in the kernel
  (:mod:`ricochet_math.engine.shuffle`) and returns only running sums
  (:class:`ChunkSums`); :mod:`ricochet_math.solvers.montecarlo` builds Monte
  Carlo runs from chunks.

The seats decide through the one policy interface
:func:`ricochet_math.strategies.dispatch.decide`; with ``control_variates`` the
kernel also records the controls of :mod:`ricochet_math.engine.controls`.

Arrays (``N`` players, ``R`` rounds)
------------------------------------
Seat status codes are :data:`Status` (``folded, played, beaten, won,
auto_win`` = 0..4; the reference engine's words in :data:`STATUS_CODES`).
Money is ``float64`` in ante units.  Sums are read by name: the columns
:data:`SEAT_FIELDS` (layout :data:`SeatSum`) and :data:`ROUND_FIELDS`
(layout :data:`RoundSum`).

>>> from ricochet_math.rules.ruleset import load_rules
>>> import numpy as np
>>> rec = play_decks(load_rules(), np.array([np.random.default_rng(1).permutation(52)]), "always", players=2)
>>> float(rec.net.sum() + rec.house_net.sum())
0.0
"""
from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from ricochet_math._numba import njit, specialise
from ricochet_math.engine import controls as cv
from ricochet_math.engine.controls import SeatU, U
from ricochet_math.engine.shuffle import xoshiro_decks
from ricochet_math.engine.sums import (
    N_CATEGORIES, N_ROUND_FIELDS, N_SEAT_FIELDS, ROUND_FIELDS, SEAT_FIELDS, ChunkSums, RoundSum, SeatSum,
)
from ricochet_math.engine.deal import cards_needed, check_players
from ricochet_math.engine.records import AUTO_WIN, BEATEN, FOLDED, PLAYED, WON
from ricochet_math.rules.arrays import bonus_by_value, cover_by_value, options_array
from ricochet_math.errors import CardError, RuleError
from ricochet_math.random_streams import seed_state, shuffle_prefix
from ricochet_math.evaluator.evaluation import FIVE_CARD_KEY, ORDER_KEY, TWO_CARD_KEY, category_of, eval5
from ricochet_math.evaluator.tables import ROYAL_FLUSH_VALUE
from ricochet_math.rules.layout import Option, layout
from ricochet_math.rules.ruleset import RuleSet, load_rules
from ricochet_math.strategies.dispatch import decide, decide_table_free
from ricochet_math.strategies.registry import Strategy, policy_array, resolve_strategies
from ricochet_math.strategies.simple import top_cards_key

__all__ = ["record_buffers", "run_decks", 
    "STATUS_CODES", "Status", "SEAT_FIELDS", "SeatSum", "N_SEAT_FIELDS", "ROUND_FIELDS", "RoundSum",
    "N_ROUND_FIELDS", "N_CATEGORIES", "RECORD_FIELDS",
    "KernelSetup", "prepare", "FastRecords", "play_decks", "ChunkSums", "run_chunk",
    "seed_state", "xoshiro_decks",
]

#: the reference engine's status words, by :data:`Status` code
STATUS_CODES = (FOLDED, PLAYED, BEATEN, WON, AUTO_WIN)
Status = layout("Status", ("folded", "played", "beaten", "won", "auto_win"), module=__name__)
# ----------------------------------------------------------------------------
# The kernel's arguments: small bundles (namedtuples of arrays and scalars,
# which numba types field by field and caches like any argument)
# ----------------------------------------------------------------------------

#: The game: ``players``, ``kick_value`` (the dealer is kicked out at or above it),
#: ``policy`` int64[N, len(PolicySlot)] (:func:`~ricochet_math.strategies.registry.policy_array`),
#: ``bonus``/``cover`` float64[7462] payouts by value, ``options`` int64[len(Option)],
#: ``qd_top`` (Quickdraw compares top cards only), ``qd_pays`` (Quickdraw pays to 1).
Game = namedtuple("Game", ("players", "kick_value", "policy", "bonus", "cover", "options", "qd_top", "qd_pays"))
#: The decks: ``state`` uint64[4] xoshiro256** (advanced in place); ``given`` int64[R or 0, >= 5N+5]
#: deck orders to play instead of random ones; ``kept`` int64[R or 0, 52] receives the decks played.
Decks = namedtuple("Decks", ("state", "given", "kept"))
#: The running sums: ``acc`` float64[2N+1, N_SEAT_FIELDS] (rows by seat, by acting position, and a
#: scratch row for the round's total over seats), ``total``/``total_sq`` float64[N_SEAT_FIELDS]
#: (that total and its square, summed over rounds), ``round`` float64[N_ROUND_FIELDS].
Sums = namedtuple("Sums", ("acc", "total", "total_sq", "round"))
#: Per-round records (see :class:`FastRecords`), each with R rows or none.
RECORD_FIELDS = ("status", "wagered", "pot_share", "bonus", "final_value", "quickdraw", "position", "order",
                 "dealer_value", "kicked", "pot", "house_takes_pot", "house_net", "cover", "n_winners")
Records = namedtuple("Records", RECORD_FIELDS)
#: The control variates (:mod:`ricochet_math.engine.controls`): ``bucket``, ``reach``, ``klass``
#: from :class:`~ricochet_math.engine.controls.ControlSetup`, and ``cross`` float64[n_u, n_u]
#: (no rows: not recorded), to which each round adds ``u u^T``.
Controls = namedtuple("Controls", ("bucket", "reach", "klass", "cross"))


# ----------------------------------------------------------------------------
# Rule set and strategies as kernel arguments
# ----------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class KernelSetup:
    """A rule set, a player count and the seats' strategies, as the kernel reads them (``game``),
    with the control-variate tables when they are recorded (``controls``)."""

    rules: RuleSet
    players: int
    strategies: tuple[Strategy, ...]
    game: Game
    controls: cv.ControlSetup | None = None

    @property
    def uses_look_ahead(self) -> bool:
        return any(s.uses_look_ahead for s in self.strategies)


def prepare(rules: RuleSet | str | None, players: int, strategies, *,
            control_variates: bool = False) -> KernelSetup:
    """Validate and convert a rule set, a player count and strategies (one, or one per seat);
    ``control_variates``: record the controls of :mod:`ricochet_math.engine.controls`."""
    rules = load_rules(rules)
    n = check_players(players)
    seat_strategies = resolve_strategies(strategies, n)
    kick = int(rules.kickout_value(n))
    game = Game(
        players=n, kick_value=kick, policy=policy_array(seat_strategies), bonus=bonus_by_value(rules).copy(),
        cover=cover_by_value(rules).copy(), options=options_array(rules),
        qd_top=rules.quickdraw.comparison == "top-cards", qd_pays=float(rules.quickdraw.pays),
    )
    return KernelSetup(rules=rules, players=n, strategies=seat_strategies, game=game,
                       controls=cv.control_setup(n, kick) if control_variates else None)


# ----------------------------------------------------------------------------
# The rounds kernel (the kernel twin of engine.round.Round), in named steps
# ----------------------------------------------------------------------------
# Each step is inlined into the round loop.  The decisions stay in the loop
# body itself: they update half a dozen of the round's scalars (the pot, what
# stands, who holds it), which a numba function could only hand back as a
# tuple, and that loop is the one readers check against the rules.

@njit(inline="always")
def _final_category(v):
    """Category 0..8 of a value, 9 for the royal flush."""
    return 9 if v == ROYAL_FLUSH_VALUE else category_of(v)


@njit(inline="always")
def _next_deck(decks, r, deck, n_cards, s0, s1, s2, s3):
    """Round ``r``'s deck into ``deck``: the given one, or ``n_cards`` positions shuffled from the
    xoshiro256** state ``s0..s3`` (returned advanced); kept when ``decks.kept`` has rows."""
    if decks.given.shape[0] > 0:
        for i in range(n_cards):
            deck[i] = decks.given[r, i]
    else:
        s0, s1, s2, s3 = shuffle_prefix(deck, n_cards, s0, s1, s2, s3)
    if decks.kept.shape[0] > 0:
        for i in range(52):
            decks.kept[r, i] = deck[i]
    return s0, s1, s2, s3


@njit(inline="always")
def _quickdraw(hole, n, dealer_key, qd_top, qd_pays, quickdraw):
    """The Quickdraw side bet per seat, per unit staked (top-cards: the dealer's key cut to one
    ranked card against a pair, two against unpaired cards)."""
    for i in range(n):
        k2 = TWO_CARD_KEY[hole[i, 0] * 52 + hole[i, 1]]
        th = top_cards_key(dealer_key, k2) if qd_top else dealer_key
        quickdraw[i] = qd_pays if k2 >= th else -1.0


@njit(inline="always")
def _order_of_play(hole, n, order, position):
    """Step 4: seats by rising order key (insertion sort; ``position`` holds the keys meanwhile),
    then each seat's position in that order."""
    for i in range(n):
        k = ORDER_KEY[hole[i, 0] * 52 + hole[i, 1]]
        position[i] = k
        j = i
        while j > 0 and position[order[j - 1]] > k:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    for p in range(n):
        position[order[p]] = p


@njit(inline="always")
def _award(n, order, status, share, pot, dealer_in, n_tied, fractional):
    """Step 7 when nobody won automatically: (house takes the pot, number of winners); the
    standing seats become ``won`` with their ``share`` (odd units to the tied seats that acted last)."""
    if dealer_in or n_tied == 0:
        return True, 0
    if fractional:
        each = pot / n_tied
        for q in range(n):
            if status[q] == Status.played:
                status[q] = Status.won
                share[q] = each
    else:
        base = pot // n_tied
        odd = pot - base * n_tied
        j = 0
        for p in range(n - 1, -1, -1):
            s = order[p]
            if status[s] == Status.played:
                status[s] = Status.won
                share[s] = float(base + 1) if j < odd else float(base)
                j += 1
    return False, n_tied


@njit(inline="always")
def _add_seat_sums(acc, n, status, wagered, share, bonus, value, quickdraw, position, n_winners):
    """Each seat into its seat row, its position row and the round's total row (row 2n, zeroed first)."""
    tot = 2 * n
    for f in range(N_SEAT_FIELDS):
        acc[tot, f] = 0.0
    for s in range(n):
        st = status[s]
        wag = wagered[s]
        ret = share[s] + bonus[s]
        net = ret - wag
        cat = _final_category(value[s]) if value[s] >= 0 else -1
        for k in range(3):
            row = s if k == 0 else (n + position[s] if k == 1 else tot)
            acc[row, SeatSum.wagered] += wag
            acc[row, SeatSum.returned] += ret
            acc[row, SeatSum.net] += net
            acc[row, SeatSum.net_sq] += net * net
            acc[row, SeatSum.pot_share] += share[s]
            acc[row, SeatSum.bonus] += bonus[s]
            acc[row, SeatSum.returned_sq] += ret * ret
            acc[row, SeatSum.wagered_sq] += wag * wag
            acc[row, SeatSum.returned_wagered] += ret * wag
            acc[row, SeatSum.quickdraw] += quickdraw[s]
            if quickdraw[s] > 0:
                acc[row, SeatSum.quickdraw_win] += 1.0
            if st == Status.folded:
                acc[row, SeatSum.fold] += 1.0
            elif st == Status.auto_win:
                acc[row, SeatSum.win] += 1.0
                acc[row, SeatSum.auto_win] += 1.0
            else:
                acc[row, SeatSum.play] += 1.0
                if st == Status.won:
                    acc[row, SeatSum.win] += 1.0
                    if n_winners > 1:
                        acc[row, SeatSum.split_win] += 1.0
                else:
                    acc[row, SeatSum.beaten] += 1.0
            if net > 0:
                acc[row, SeatSum.hit] += 1.0
            if cat >= 0:
                acc[row, SeatSum.hand_0 + cat] += 1.0
                if bonus[s] > 0:
                    acc[row, SeatSum.bonus_hit] += 1.0
                    acc[row, SeatSum.bonus_0 + cat] += 1.0


@njit(inline="always")
def _add_round_sums(sums, n, kicked, pot, house_takes, house_net, auto, n_winners, cover):
    """The round's total row into ``total``/``total_sq``, and the per-round sums."""
    tot = 2 * n
    acc = sums.acc
    for f in range(N_SEAT_FIELDS):
        sums.total[f] += acc[tot, f]
        sums.total_sq[f] += acc[tot, f] * acc[tot, f]
    rs = sums.round
    rs[RoundSum.rounds] += 1.0
    if kicked:
        rs[RoundSum.kicked] += 1.0
    rs[RoundSum.pot] += pot
    rs[RoundSum.pot_sq] += pot * pot
    if house_takes:
        rs[RoundSum.house_takes_pot] += 1.0
    rs[RoundSum.house_net] += house_net
    rs[RoundSum.house_net_sq] += house_net * house_net
    if auto:
        rs[RoundSum.auto_win] += 1.0
    if acc[tot, SeatSum.fold] == n:
        rs[RoundSum.all_fold] += 1.0
    if n_winners > 1:
        rs[RoundSum.split] += 1.0
    rs[RoundSum.cover] += cover
    rs[RoundSum.cover_sq] += cover * cover
    if cover > 0:
        rs[RoundSum.cover_win] += 1.0
    rs[RoundSum.total_returned_wagered] += acc[tot, SeatSum.returned] * acc[tot, SeatSum.wagered]


_LOOK_AHEAD = True  # a compile-time constant in each compiled variant (below)


def _rounds_impl(rounds, decks, game, sums, records, controls):
    """Play ``rounds`` rounds (:data:`Decks`: given or random), add them to :data:`Sums`, and
    fill :data:`Records` and the :data:`Controls` sums when they have rows.  The source of
    :func:`_rounds_kernel` and :func:`_rounds_kernel_look_ahead`."""
    n = game.players
    bonus_tab = game.bonus
    record = records.status.shape[0] > 0
    deck = np.arange(52, dtype=np.int64)
    hole = np.empty((n, 2), dtype=np.int64)
    order = np.empty(n, dtype=np.int64)
    unseen = np.empty(52, dtype=np.uint8)
    options = game.options.copy()
    status = np.empty(n, dtype=np.int64)
    wagered = np.empty(n)
    share = np.empty(n)
    bonus = np.empty(n)
    value = np.empty(n, dtype=np.int64)
    quickdraw = np.empty(n)
    position = np.empty(n, dtype=np.int64)
    auto_opt = options[Option.automatic_win] != 0
    dealer_loses_ties = options[Option.dealer_loses_ties] != 0
    bonus_on_auto = options[Option.bonus_on_automatic_win] != 0
    n_cards = 5 * n + 5
    cv_on = controls.cross.shape[0] > 0
    track_unseen = _LOOK_AHEAD or cv_on  # what the look-ahead and the controls read
    cv_u = np.zeros(controls.cross.shape[0])
    state = decks.state
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]

    for r in range(rounds):
        s0, s1, s2, s3 = _next_deck(decks, r, deck, n_cards, s0, s1, s2, s3)

        # ---- 1-2. Antes and deal: seat i gets deck[2i], deck[2i+1]; the dealer deck[2n:2n+5]
        for i in range(n):
            hole[i, 0] = deck[2 * i]
            hole[i, 1] = deck[2 * i + 1]
        d = 2 * n
        dealer_value = eval5(deck[d], deck[d + 1], deck[d + 2], deck[d + 3], deck[d + 4])
        dealer_key = FIVE_CARD_KEY[dealer_value]
        if track_unseen:
            for i in range(52):
                unseen[i] = 1
            for i in range(d + 5):
                unseen[deck[i]] = 0
            options[Option.dealer_value] = dealer_value
        _quickdraw(hole, n, dealer_key, game.qd_top, game.qd_pays, quickdraw)

        # ---- 3. Kickout
        kicked = dealer_value >= game.kick_value
        if cv_on:
            cv.record_deal(cv_u, hole, n, dealer_value, kicked, controls.bucket, controls.reach, controls.klass)

        # ---- 4. Order of play
        _order_of_play(hole, n, order, position)
        for p in range(n):
            status[p] = Status.folded
            wagered[p] = 1.0
            share[p] = 0.0
            bonus[p] = 0.0
            value[p] = -1

        # ---- 5-6. Each seat once: fold, or play and face elimination
        pot = n + 1
        nxt = d + 5
        dealer_in = not kicked
        best = dealer_value if dealer_in else -1
        n_tied = 0
        n_played = 0
        auto_seat = -1
        for p in range(n):
            s = order[p]
            # 8. Automatic win: dealer kicked out, every earlier seat folded, last seat.
            if auto_opt and kicked and p == n - 1 and n_played == 0:
                auto_seat = s
                status[s] = Status.auto_win
                if bonus_on_auto:
                    v = eval5(hole[s, 0], hole[s, 1], deck[nxt], deck[nxt + 1], deck[nxt + 2])
                    value[s] = v
                    bonus[s] = bonus_tab[v]
                    if cv_on:
                        cv.record_draw(cv_u, s, hole[s, 0], hole[s, 1], unseen, v, bonus_tab, -1, False,
                                       dealer_loses_ties, 0.0, np.empty(0, np.int64), controls.reach)
                share[s] = float(pot)
                break
            if not decide(game.policy, p, unseen, hole, order, best, dealer_in, n_tied, pot, kicked, dealer_key,
                          bonus_tab, options):
                continue  # status stays folded
            # Play: one more unit, three cards.
            n_played += 1
            pot += 1
            wagered[s] = 2.0
            c0 = deck[nxt]
            c1 = deck[nxt + 1]
            c2 = deck[nxt + 2]
            nxt += 3
            v = eval5(hole[s, 0], hole[s, 1], c0, c1, c2)
            value[s] = v
            bonus[s] = bonus_tab[v]
            if cv_on:  # before the draw leaves the unseen cards
                later = cv.later_classes(order, p, hole, controls.klass)
                d_beat = cv.record_draw(cv_u, s, hole[s, 0], hole[s, 1], unseen, v, bonus_tab, best,
                                        dealer_in, dealer_loses_ties, float(pot), later, controls.reach)
                if not dealer_in and best >= 0:
                    for q in range(p):  # the seats holding the pot may lose it to this draw
                        if status[order[q]] == Status.played:
                            cv.record_loss(cv_u, order[q], d_beat, float(pot), later, controls.reach, best)
            if track_unseen:
                unseen[c0] = 0
                unseen[c1] = 0
                unseen[c2] = 0
            # 6. Elimination.
            if best < 0:
                status[s] = Status.played
                best = v
                n_tied = 1
            elif dealer_in:
                if v > best or (v == best and dealer_loses_ties):
                    dealer_in = False
                    status[s] = Status.played
                    best = v
                    n_tied = 1
                else:
                    status[s] = Status.beaten
            elif v > best:
                for q in range(p):
                    if status[order[q]] == Status.played:
                        status[order[q]] = Status.beaten
                status[s] = Status.played
                best = v
                n_tied = 1
            elif v == best:
                status[s] = Status.played
                n_tied += 1
            else:
                status[s] = Status.beaten

        # ---- 7. Award
        house_takes = False
        n_winners = 1
        if auto_seat < 0:
            house_takes, n_winners = _award(n, order, status, share, pot, dealer_in, n_tied,
                                            options[Option.split_fractional] != 0)
        paid = 0.0  # the house: -1 (ante) + the pot if it takes it - the bonuses (seat order, as the reference)
        for i in range(n):
            paid += bonus[i]
        house_net = -1.0 + (float(pot) if house_takes else 0.0) - paid
        cover = game.cover[dealer_value] if game.cover[dealer_value] > 0 else -1.0

        # ---- records and sums
        if record:
            for i in range(n):
                records.status[r, i] = status[i]
                records.wagered[r, i] = wagered[i]
                records.pot_share[r, i] = share[i]
                records.bonus[r, i] = bonus[i]
                records.final_value[r, i] = value[i]
                records.quickdraw[r, i] = quickdraw[i]
                records.position[r, i] = position[i]
                records.order[r, i] = order[i]
            records.dealer_value[r] = dealer_value
            records.kicked[r] = kicked
            records.pot[r] = pot
            records.house_takes_pot[r] = house_takes
            records.house_net[r] = house_net
            records.cover[r] = cover
            records.n_winners[r] = n_winners
        _add_seat_sums(sums.acc, n, status, wagered, share, bonus, value, quickdraw, position, n_winners)
        _add_round_sums(sums, n, kicked, pot, house_takes, house_net, auto_seat >= 0, n_winners, cover)
        if cv_on:
            tot = 2 * n
            cv_u[U.x] = sums.acc[tot, SeatSum.net]
            cv_u[U.w] = sums.acc[tot, SeatSum.wagered]
            for i in range(n):
                cv_u[cv.N_SHARED + cv.PER_SEAT * i + SeatU.x] = share[i] + bonus[i] - wagered[i]
            cv.add_outer(controls.cross, cv_u)

    state[0], state[1], state[2], state[3] = s0, s1, s2, s3


# Two compiled variants of the same source.  The one for table-free strategies
# calls decide_table_free, which leaves the look-ahead out before typing: it
# neither compiles nor links it (half the compile time) and skips tracking the
# unseen cards; the look-ahead variant is compiled only when a seat uses it.
_rounds_kernel = njit(specialise(_rounds_impl, "_rounds_kernel", _LOOK_AHEAD=False, decide=decide_table_free))
_rounds_kernel_look_ahead = njit(specialise(_rounds_impl, "_rounds_kernel_look_ahead", _LOOK_AHEAD=True,
                                            decide=decide))


# ----------------------------------------------------------------------------
# Running the kernel
# ----------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class FastRecords:
    """Per-round results of :func:`play_decks` (``R`` rounds, ``N`` seats).

    Per seat ``[R, N]``: ``status`` (:data:`Status` codes), ``wagered``,
    ``pot_share``, ``bonus``, ``net`` (float64, ante units), ``final_value``
    (int64, -1 without a five-card hand), ``quickdraw`` (per unit staked),
    ``position`` (0 = acted first).  ``order`` ``[R, N]``: seats in acting order.
    Per round ``[R]``: ``dealer_value``, ``kicked``, ``pot``, ``house_takes_pot``,
    ``house_net``, ``cover`` (per unit staked), ``n_winners``.  ``sums``: the
    same rounds added up as :func:`run_chunk` adds them.
    """

    status: np.ndarray
    wagered: np.ndarray
    pot_share: np.ndarray
    bonus: np.ndarray
    net: np.ndarray
    final_value: np.ndarray
    quickdraw: np.ndarray
    position: np.ndarray
    order: np.ndarray
    dealer_value: np.ndarray
    kicked: np.ndarray
    pot: np.ndarray
    house_takes_pot: np.ndarray
    house_net: np.ndarray
    cover: np.ndarray
    n_winners: np.ndarray
    sums: ChunkSums

    def __len__(self) -> int:
        return self.status.shape[0]


def play_decks(rules: RuleSet | str | None, decks, strategies="always", *, players: int | None = None) -> FastRecords:
    """Play one round per deck order (rows of ``decks``, at least ``5N + 5`` distinct cards each).

    ``players`` defaults to the number of strategies when one per seat is given.
    """
    if players is None:
        if isinstance(strategies, (str, Strategy)):
            raise RuleError("give the number of players (players=N) or one strategy per seat")
        players = len(strategies)
    setup = prepare(rules, players, strategies)
    n = setup.players
    decks = np.ascontiguousarray(np.atleast_2d(np.asarray(decks)), dtype=np.int64)
    need = cards_needed(n)
    if decks.ndim != 2 or decks.shape[1] < need:
        raise CardError(f"each deck for {n} players needs at least {need} cards, got shape {decks.shape}")
    if decks.size and (decks.min() < 0 or decks.max() > 51):
        raise CardError("deck cards must be kernel integers 0..51")
    used = np.sort(decks[:, :need], axis=1)
    twice = np.any(used[:, 1:] == used[:, :-1], axis=1)
    if twice.any():
        raise CardError(f"deck {int(np.flatnonzero(twice)[0])} holds a card twice")
    records = record_buffers(n, decks.shape[0])
    sums = run_decks(setup, Decks(np.zeros(4, np.uint64), decks, np.empty((0, 52), np.int64)), decks.shape[0], records)
    net = (records.pot_share + records.bonus) - records.wagered
    return FastRecords(net=net, sums=sums, **records._asdict())


def record_buffers(n: int, rounds: int) -> Records:
    """Empty per-round records for ``rounds`` rounds (none: the kernel records nothing)."""
    per_seat = dict(status=np.int64, wagered=np.float64, pot_share=np.float64, bonus=np.float64,
                    final_value=np.int64, quickdraw=np.float64, position=np.int64, order=np.int64)
    per_round = dict(dealer_value=np.int64, kicked=np.bool_, pot=np.int64, house_takes_pot=np.bool_,
                     house_net=np.float64, cover=np.float64, n_winners=np.int64)
    return Records(**{k: np.empty((rounds, n), dt) for k, dt in per_seat.items()},
                   **{k: np.empty(rounds, dt) for k, dt in per_round.items()})


def run_decks(setup: KernelSetup, decks: Decks, rounds: int, records: Records) -> ChunkSums:
    n = setup.players
    sums = Sums(np.zeros((2 * n + 1, N_SEAT_FIELDS)), np.zeros(N_SEAT_FIELDS), np.zeros(N_SEAT_FIELDS),
                np.zeros(N_ROUND_FIELDS))
    c = setup.controls
    k = cv.n_u(n) if c is not None else 0
    cross = np.zeros((k, k))
    if c is None:  # placeholders of the right types: the kernel records no controls
        controls = Controls(np.zeros(1, np.int64), np.zeros((1, 1)), np.zeros(1, np.int64), cross)
    else:
        controls = Controls(c.bucket, c.reach, c.klass, cross)
    kernel = _rounds_kernel_look_ahead if setup.uses_look_ahead else _rounds_kernel
    kernel(int(rounds), decks, setup.game, sums, records, controls)
    return ChunkSums(sums.acc[:n].copy(), sums.acc[n:2 * n].copy(), sums.total, sums.total_sq, sums.round,
                     np.stack([cross, np.zeros_like(cross)]))


def run_chunk(setup: KernelSetup, seed_sequence: np.random.SeedSequence, rounds: int, *,
              keep_decks: bool = False) -> tuple[ChunkSums, np.ndarray | None]:
    """``rounds`` random rounds dealt from ``seed_sequence``: the sums, and the decks when ``keep_decks``."""
    kept = np.empty((rounds if keep_decks else 0, 52), dtype=np.int64)
    decks = Decks(seed_state(seed_sequence), np.empty((0, 52), np.int64), kept)
    sums = run_decks(setup, decks, rounds, record_buffers(setup.players, 0))
    return sums, (kept if keep_decks else None)
