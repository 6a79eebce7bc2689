"""Publisher-like readings of "perfect play": a parametrised family of pot-odds rules.

The rulebook's figures assume a "perfect strategy" it never defines (docs/rules.md,
"Publisher-like readings").  Every member of this family decides the same way,

    play  iff  P(my final hand reaches the target) x (the pot I weigh) + E[bonus] > 1,

(EV(play) = P x pot + E[bonus] - 2 against EV(fold) = -1) and the members differ in
three things, each a small choice a publisher's analyst could have made:

* **pot**: which pot the seat weighs

  - ``now``: the pot right after its own play (``pot + 1``);
  - ``final``: the final pot when every later seat follows the same rule with its
    own odds (exact, backward over pot sizes: all cards are face up);
  - ``all``: the final pot if every later seat plays (``pot + 1 + later seats``);
  - ``prob``: the expected final pot when each later seat plays with its own
    probability of reaching the target (``pot + 1 + sum of their reach``);

* **target**: which hand the seat must reach

  - ``dealer``: the dealer's five cards, even after a player has beaten her
    (always play when she is kicked out);
  - ``best``: the hand to beat now (the dealer's while she is in, else the best
    standing player's; always play when nothing stands);

* **ties** with standing players (``best`` only; a tie with the dealer always
  counts as the rules pay it, a win when she loses ties): ``share`` (1/(m+1) of
  the pot with m standing players, as paid), ``win`` (counted as a whole win) or
  ``lose`` (counted as a loss);
* **bonus**: E[bonus] in the decision or not (the bonus is always paid).

Names (:data:`FAMILY_NAMES`, usable wherever a strategy name is):
``pub-{now|final|all|prob}-{dealer|best|best-ties-win|best-ties-lose}[-no-bonus]``.
``pub-now-dealer`` and ``pub-final-dealer`` are the spec's ``pot-odds-now`` and
``pot-odds-final`` (the tests check they make the same decisions).

Kernel codes: a member is the look-ahead's ``Readings.mine`` code
``FAMILY_BASE + 4 * pot + target`` (:func:`family_code`), with ``mine_bonus`` its bonus
flag; :func:`ricochet_math.strategies.perfect.perfect_decision` hands such codes to
:func:`family_decision`.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.evaluator.evaluation import NUM_VALUES
from ricochet_math.rules.layout import Option
from ricochet_math.strategies.draws import expected_bonus, final_distribution, unseen_cards

__all__ = ["FAMILY_BASE", "POTS", "TARGETS", "FamilyReading", "FAMILY_NAMES", "family_code", "family_reading",
           "parse_family", "family_decision", "reference_decision", "describe_family"]

#: first kernel code of the family (the spec's readings use 0..3)
FAMILY_BASE = 16
#: which pot the seat weighs, in kernel-code order
POTS = ("now", "final", "all", "prob")
#: target and tie counting, in kernel-code order
TARGETS = ("dealer", "best", "best-ties-win", "best-ties-lose")
_POT_NOW, _POT_FINAL, _POT_ALL, _POT_PROB = range(4)
_T_DEALER, _T_SHARE, _T_WIN, _T_LOSE = range(4)

FamilyReading = namedtuple("FamilyReading", ("pot", "target", "bonus"))
FamilyReading.__doc__ = """One member: ``pot`` (:data:`POTS`), ``target`` (:data:`TARGETS`), ``bonus`` (in the decision)."""


def _name(pot: str, target: str, bonus: bool) -> str:
    return f"pub-{pot}-{target}" + ("" if bonus else "-no-bonus")


#: every member's name: pots x targets x (bonus, no bonus)
FAMILY_NAMES = tuple(_name(p, t, b) for p in POTS for t in TARGETS for b in (True, False))


def parse_family(name: str) -> FamilyReading:
    """The :class:`FamilyReading` of a member's name; KeyError if ``name`` is not one.

    >>> parse_family("pub-final-best-ties-lose-no-bonus")
    FamilyReading(pot='final', target='best-ties-lose', bonus=False)
    """
    if name not in FAMILY_NAMES:
        raise KeyError(f"unknown publisher-like reading {name!r}")
    bonus = not name.endswith("-no-bonus")
    body = name.removeprefix("pub-").removesuffix("-no-bonus")
    pot, _, target = body.partition("-")
    return FamilyReading(pot, target, bonus)


def family_code(name: str) -> int:
    """The kernel code (``Readings.mine``) of a member."""
    r = parse_family(name)
    return FAMILY_BASE + 4 * POTS.index(r.pot) + TARGETS.index(r.target)


def family_reading(name: str) -> tuple[int, bool, int, bool]:
    """``(mine, mine_bonus, others, others_bonus)`` for the look-ahead's policy row."""
    code = family_code(name)
    bonus = parse_family(name).bonus
    return code, bonus, code, bonus


def describe_family(name: str) -> str:
    """One line saying what a member weighs (for ``ricochet strategies`` and the reports)."""
    r = parse_family(name)
    pot = {"now": "the pot after its play", "final": "the final pot, later seats following the same rule",
           "all": "the final pot if every later seat plays",
           "prob": "the final pot expected from each later seat's chance of reaching the target"}[r.pot]
    target = {"dealer": "the dealer's hand only", "best": "the hand to beat now, tied pots shared",
              "best-ties-win": "the hand to beat now, a tie with players counted as a win",
              "best-ties-lose": "the hand to beat now, a tie with players counted as a loss"}[r.target]
    return f"pot odds on {pot}; target {target}; bonus {'in' if r.bonus else 'not in'} the decision"


@njit
def _reach(h, best_value, dealer_in, n_tied, ties, ties_dealer, dealer_value, target):
    """Expected fraction of the pot a final-value distribution ``h`` reaches against the target:
    P(beat) plus the tie's weight (see the module docstring).  -1.0: nothing to reach (always play)."""
    if target == _T_DEALER:
        reach = dealer_value if ties_dealer else dealer_value + 1
        w_tie = 0.0
    else:
        if best_value < 0:
            return -1.0
        if dealer_in:
            reach = best_value if ties_dealer else best_value + 1
            w_tie = 0.0
        else:
            reach = best_value + 1
            if ties == _T_SHARE:
                w_tie = 1.0 / (n_tied + 1)
            elif ties == _T_WIN:
                w_tie = 1.0
            else:
                w_tie = 0.0
    p = 0.0
    for v in range(max(reach, 0), NUM_VALUES):
        p += h[v]
    if w_tie > 0.0 and reach >= 1:
        p += w_tie * h[reach - 1]
    return p


@njit
def family_decision(code, use_bonus, t):
    """True to play, False to fold, for seat ``t.order[t.pos]`` under family member ``code``
    (:func:`family_code`), counting the bonus if ``use_bonus``; ``t``: the
    :class:`~ricochet_math.strategies.policy.Table` at the decision.  The later seats' chances are
    taken against the same target as the acting seat's (the hand to beat now), from the deck
    as it is at the decision."""
    order, pos, options = t.order, t.pos, t.options
    n_later = order.shape[0] - pos - 1
    if t.dealer_kicked and t.best_value < 0 and n_later == 0 and options[Option.automatic_win] != 0:
        return True
    k = code - FAMILY_BASE
    pot_rule = k // 4
    target = k % 4
    if target == _T_DEALER and t.dealer_kicked:
        return True
    ties_dealer = options[Option.dealer_loses_ties] != 0
    dv = options[Option.dealer_value]
    cards = unseen_cards(t.unseen)
    seat = order[pos]
    h = final_distribution(t.hole[seat, 0], t.hole[seat, 1], cards)
    pr = _reach(h, t.best_value, t.dealer_in, t.n_tied, target, ties_dealer, dv, target)
    if pr < 0.0:
        return True  # nothing stands: any draw stands
    b = expected_bonus(h, t.bonus_by_value) if use_bonus else 0.0
    pot1 = t.pot + 1.0
    if pot_rule == _POT_NOW or n_later == 0:
        return pr * pot1 + b - 2.0 > -1.0
    if pot_rule == _POT_ALL:
        return pr * (pot1 + n_later) + b - 2.0 > -1.0
    q = np.empty(n_later, dtype=np.float64)
    bl = np.zeros(n_later, dtype=np.float64)
    for j in range(n_later):
        s2 = order[pos + 1 + j]
        h2 = final_distribution(t.hole[s2, 0], t.hole[s2, 1], cards)
        q[j] = _reach(h2, t.best_value, t.dealer_in, t.n_tied, target, ties_dealer, dv, target)
        if use_bonus:
            bl[j] = expected_bonus(h2, t.bonus_by_value)
    if pot_rule == _POT_PROB:
        final = pot1
        for j in range(n_later):
            final += q[j]
        return pr * final + b - 2.0 > -1.0
    # final pot, later seats following the same rule: F[j, dp] = final pot when later seat j faces pot1 + dp
    F = np.zeros((n_later + 1, n_later + 1), dtype=np.float64)
    for dp in range(n_later + 1):
        F[n_later, dp] = pot1 + dp
    for j in range(n_later - 1, -1, -1):
        for dp in range(j + 1):
            play_pot = F[j + 1, dp + 1]
            if q[j] * play_pot + bl[j] - 2.0 > -1.0:
                F[j, dp] = play_pot
            else:
                F[j, dp] = F[j + 1, dp]
    return pr * F[0, 0] + b - 2.0 > -1.0


def reference_decision(name: str, state) -> bool:
    """The same rule, readable, from a :class:`~ricochet_math.strategies.registry.TableState` (the
    tests' second path: plain Python over the draw histograms, no kernel code shared but the
    distributions)."""
    r = parse_family(name)
    n_later = len(state.order) - state.position - 1
    if state.dealer_kicked and state.best_value < 0 and n_later == 0 and state.options[Option.automatic_win]:
        return True
    if r.target == "dealer" and state.dealer_kicked:
        return True
    cards = unseen_cards(state.unseen)
    ties_dealer = bool(state.options[Option.dealer_loses_ties])

    def dist(seat):
        c0, c1 = state.holes[seat]
        return final_distribution(c0, c1, cards)

    def reach(h):
        values = np.arange(NUM_VALUES)
        if r.target == "dealer":
            target, tie_w = state.dealer_value, (1.0 if ties_dealer else 0.0)
        elif state.best_value < 0:
            return None
        elif state.dealer_in:
            target, tie_w = state.best_value, (1.0 if ties_dealer else 0.0)
        else:
            target = state.best_value
            tie_w = {"best": 1.0 / (state.n_tied + 1), "best-ties-win": 1.0, "best-ties-lose": 0.0}[r.target]
        return float(h[values > target].sum() + tie_w * h[target])

    h = dist(state.seat)
    p = reach(h)
    if p is None:
        return True
    bonus = float(h @ state.bonus_by_value) if r.bonus else 0.0
    pot_after = state.pot + 1
    later = state.order[state.position + 1:]
    if r.pot == "now" or not later:
        weighed = pot_after
    elif r.pot == "all":
        weighed = pot_after + len(later)
    else:
        qs = [reach(dist(s)) for s in later]
        bs = [float(dist(s) @ state.bonus_by_value) if r.bonus else 0.0 for s in later]
        if r.pot == "prob":
            weighed = pot_after + sum(qs)
        else:
            def final(j, pot_now):  # later seat j faces pot_now
                if j == len(later):
                    return pot_now
                if_play = final(j + 1, pot_now + 1)
                return if_play if qs[j] * if_play + bs[j] > 1.0 else final(j + 1, pot_now)
            weighed = final(0, pot_after)
    return p * weighed + bonus > 1.0
