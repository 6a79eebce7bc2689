"""The reference engine: hand-made rounds for every branch of the rules, the deal order, records, errors.

Truth: the rules as the spec states them (shared/spec/ricochet-casino.md, "A round",
"High-hand bonus", "Side bets") and the rulebook's casino pages
(shared/seeds/000_abac4787580a1767.txt); each round below is worked out by
hand in its comment.  The default rule set is paytables/publisher.toml
(kickout 1 KKQ, 2 AAQ, 3 TTxx, ...; bonus straight 2, flush 5, ..., royal 1000).
"""
from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from ricochet_math.rules.layout import Option
from ricochet_math.evaluator.cards import format_cards, parse_cards
from ricochet_math.cli.app import main
from ricochet_math.engine.deal import face_up_table
from ricochet_math.engine.deal import cards_needed, check_players, deal_deck
from ricochet_math.engine.records import format_history
from ricochet_math.engine.records import AUTO_WIN, BEATEN, FOLDED, WON
from ricochet_math.engine.round import Round, play_round, quickdraw_result
from ricochet_math.rules.arrays import options_array
from ricochet_math.errors import CardError, RuleError, StrategyError, TableStateError
from ricochet_math.evaluator.evaluation import hand_value
from ricochet_math.evaluator.names import describe
from ricochet_math.rules.ruleset import load_rules

RULES = load_rules()


def rnd(n, strategies, *, dealer, hands, draws="", rules=RULES, seed=0):
    """Play a hand-made round: the given cards, the rest of the deck shuffled from ``seed``."""
    deck = deal_deck(n, dealer=dealer, hands=hands, draws=draws or None, seed=seed)
    return play_round(rules, strategies, players=n, deck=deck)


def cards(text):
    return tuple(int(c) for c in parse_cards(text))


def conserved(rec):
    return abs(sum(s.net for s in rec.seats) + rec.house_net) < 1e-12


# ---------------------------------------------------------------- the deal

def test_deal_order_convention():
    """seat i gets deck[2i], deck[2i+1]; the dealer deck[2N:2N+5]; draws from deck[2N+5:] in acting order."""
    deck = np.random.default_rng(1).permutation(52)
    rec = play_round(RULES, "always", players=3, deck=deck)
    for s in rec.seats:
        assert s.hole == (deck[2 * s.seat], deck[2 * s.seat + 1])
    assert rec.dealer_cards == tuple(deck[6:11])
    for k, seat in enumerate(rec.order):
        assert rec.seats[seat].draw == tuple(deck[11 + 3 * k: 14 + 3 * k])
    assert cards_needed(3) == 20 and cards_needed(7) == 40


def test_draws_only_go_to_seats_that_play():
    rec = rnd(3, ["never", "always", "always"], dealer="2h 4h 6s 8c Td",
              hands=["Kc Kd", "2c 3c", "Ac 5d"], draws="5s 7c 9d Qd Jd 9s")
    # acting order: seat 2 (2c 3c), seat 3, seat 1 (K-K, folds)
    assert rec.order == (1, 2, 0)
    assert rec.seats[1].draw == cards("5s 7c 9d")
    assert rec.seats[2].draw == cards("Qd Jd 9s")
    assert rec.seats[0].draw == ()


def test_deal_deck_places_given_cards():
    deck = deal_deck(2, dealer="Ks Kd 7c", hands=["Ad 9c", None], draws="2c 3c",
                     seed=4)
    assert sorted(deck.tolist()) == list(range(52))
    assert tuple(deck[0:2]) == cards("Ad 9c")
    assert tuple(deck[4:7]) == cards("Ks Kd 7c")
    assert tuple(deck[9:11]) == cards("2c 3c")


def test_rulebook_order_of_play_example():
    """Rulebook, "An Example of Play": starting cards K♦, J♣, 8♥, 7♠ act 7♠, 8♥, J♣, K♦ (lowest first).

    In the casino game each seat holds two cards; with a deuce beside each card
    the order is the rulebook's: player 4, 3, 2, 1.  And ties between equal
    hands go by the suit of the higher card (clubs < diamonds < hearts < spades).
    """
    rec = rnd(4, "never", dealer="Ac Ah As 3d 3h", hands=["Kd 2c", "Jc 2d", "8h 2h", "7s 2s"])
    assert rec.order == (3, 2, 1, 0)
    assert rec.log[0].pot == 5  # four antes and the dealer's
    rec = rnd(3, "never", dealer="2c 4d 6h 8s Tc", hands=["As Kc", "Ah Kd", "Ad Ks"])
    assert rec.order == (2, 1, 0)  # three A-K: by the ace's suit, Ad (seat 3) < Ah (seat 2) < As (seat 1)


# ---------------------------------------------------------------- kickout

def test_kickout_at_and_above_the_threshold():
    # 2 players: AAQ, i.e. AAQ32 or better kicks the dealer out
    at = rnd(2, "never", dealer="Ac Ad Qh 3s 2c", hands=["5c 6d", "7h 8s"])
    assert at.kicked and at.dealer_value == RULES.kickout_value(2)
    below = rnd(2, "never", dealer="Ac Ad Jh 9s 8c", hands=["5c 6d", "7h 8s"])
    assert not below.kicked
    assert "kicked out" in " ".join(e.text for e in at.log)


def test_all_players_fold_house_takes_the_pot():
    rec = rnd(3, "never", dealer="2c 4d 6h 8s Tc", hands=["Ac Kc", "Ad Kd", "5s 5h"])
    assert not rec.kicked and rec.house_takes_pot and rec.winners == ()
    assert [s.status for s in rec.seats] == [FOLDED] * 3
    assert [s.net for s in rec.seats] == [-1.0] * 3
    assert rec.house_net == 3.0 and rec.pot == 4
    assert conserved(rec)


def test_dealer_kicked_and_all_fold_except_one_is_an_automatic_win_with_free_cards():
    # 3 players: TTxx; the dealer's T-T-9-9 is kicked out.  The two low seats fold, so
    # the last seat (A-K of hearts) wins the 4 antes without a play bet and is dealt
    # three free cards for the bonus: Q-J-T of hearts, a royal flush, 1000 units.
    kw = dict(dealer="Tc Td 9h 9s 2c", hands=["2d 3d", "4c 5d", "Ah Kh"], draws="Qh Jh Th")
    rec = rnd(3, ["never", "never", "always"], **kw)
    auto = rec.seats[2]
    assert rec.kicked and auto.status == AUTO_WIN and auto.action == "auto"
    assert auto.wagered == 1.0 and auto.pot_share == 4.0 and auto.bonus == 1000.0
    assert auto.draw == cards("Qh Jh Th") and describe(auto.final_value) == "Royal flush"
    assert auto.net == 4.0 + 1000.0 - 1.0
    assert rec.house_net == -1.0 - 1000.0 and conserved(rec)
    # the automatic winner's own strategy is never asked: even 'never' wins
    assert rnd(3, "never", **kw).seats[2].status == AUTO_WIN

    no_bonus = rnd(3, ["never", "never", "always"], rules=RULES.with_options(bonus_on_automatic_win=False), **kw)
    seat = no_bonus.seats[2]
    assert seat.status == AUTO_WIN and seat.bonus == 0.0 and seat.draw == () and seat.final_value == -1
    assert seat.net == 3.0

    off = RULES.with_options(automatic_win=False)
    plays = rnd(3, ["never", "never", "always"], rules=off, **kw).seats[2]
    assert plays.status == WON and plays.wagered == 2.0 and plays.pot_share == 5.0 and plays.bonus == 1000.0
    folds = rnd(3, "never", rules=off, **kw)
    assert folds.house_takes_pot and folds.seats[2].status == FOLDED


def test_automatic_win_needs_the_dealer_kicked_out():
    rec = rnd(2, ["never", "always"], dealer="2c 4d 6h 8s Tc", hands=["2d 3d", "Ah Kh"], draws="Qh Jh 9c")
    assert not rec.kicked and rec.seats[1].status == WON and rec.seats[1].wagered == 2.0


def test_solo_automatic_win():
    # 1 player: KKQ.  K-K-Q-3-2 kicks the dealer out: the one seat wins at once.
    rec = rnd(1, "never", dealer="Kc Kd Qh 3s 2c", hands=["7c 2d"], draws="9h 9d 4s")
    seat = rec.seats[0]
    assert rec.kicked and seat.status == AUTO_WIN and seat.net == 1.0  # pot 2 - ante 1
    assert seat.final_value == hand_value("7c 2d 9h 9d 4s") and seat.bonus == 0.0


def test_nothing_to_beat_the_first_player_stands():
    # dealer kicked out (2 players: AAQ); seat 1 plays first and stands with anything;
    # seat 2 must reach it.
    rec = rnd(2, "always", dealer="Ac Ad Ah 3s 2c", hands=["2d 3d", "Ks Kh"], draws="2h 8c 9s Js 4d 6d")
    assert rec.kicked
    first, second = rec.seats
    assert describe(first.final_value).startswith("Pair of Twos")
    assert describe(second.final_value).startswith("Pair of Kings")
    assert first.status == BEATEN and "knocked out by seat 2" in first.reason
    assert second.status == WON and second.pot_share == 5.0


# ---------------------------------------------------------------- elimination and ties

def test_tie_with_the_dealer():
    # 2 players: the dealer's K-K-7-4-2 stands (below AAQ).  The seat with K-K draws
    # 7-4-2 of other suits: exactly the dealer's hand.  The dealer loses ties.  (Seat 1
    # folds, so seat 2 receives the first three draw cards.)
    kw = dict(dealer="Kc Kd 7h 4s 2c", hands=["3c 5d", "Kh Ks"], draws="7c 4d 2h")
    rec = rnd(2, ["never", "always"], **kw)
    seat = rec.seats[1]
    assert seat.final_value == rec.dealer_value
    assert seat.status == WON and seat.pot_share == 4.0 and not rec.house_takes_pot
    assert any("ties the dealer" in e.text for e in rec.log)
    # Option: ties go to the dealer.
    rec = rnd(2, ["never", "always"], rules=RULES.with_options(dealer_loses_ties=False), **kw)
    assert rec.seats[1].status == BEATEN and "dealer wins ties" in rec.seats[1].reason
    assert rec.house_takes_pot and rec.house_net == 3.0 and conserved(rec)


def test_tie_between_players_with_an_odd_pot():
    # 3 players, dealer T-8-6-4-2 stands.  Acting order: 2c3c, AcKc, AdKd.
    # Seat 1 draws to 9-7-5-3-2 (below the dealer: out); seat 2 draws to A-K-Q-J-9
    # (beats the dealer); seat 3 draws to the same A-K-Q-J-9 and stands beside it.
    # Pot 4 antes + 3 play bets = 7: 3 and 4, the odd unit to seat 3, who acted last.
    kw = dict(dealer="2h 4h 6s 8c Td", hands=["2c 3c", "Ac Kc", "Ad Kd"],
              draws="5d 7c 9d Qd Jd 9s Qh Jh 9c")
    rec = rnd(3, "always", **kw)
    s1, s2, s3 = rec.seats
    assert rec.order == (0, 1, 2)
    assert s1.status == BEATEN and s2.status == WON and s3.status == WON
    assert s2.final_value == s3.final_value
    assert (s2.pot_share, s3.pot_share) == (3.0, 4.0) and rec.pot == 7
    assert rec.winners == (1, 2) and conserved(rec)
    frac = rnd(3, "always", rules=RULES.with_options(split="fractional"), **kw)
    assert (frac.seats[1].pot_share, frac.seats[2].pot_share) == (3.5, 3.5)
    assert conserved(frac)


def test_three_way_split_odd_units_go_to_the_last_two():
    # Four seats, the second page's four-player kickout TTxx: T-T-3-3 is kicked out.
    # The low seat (4-2) folds; three seats reach the same A-K-Q-J-9 high card.
    # Pot 5 antes + 3 play bets = 8 = 2 + 3 + 3: the two odd units go to the two
    # tied seats that acted last.  (Under the default AAxx the dealer would stand.)
    kw = dict(dealer="Tc Th 3c 3h 7s", hands=["Ac Kc", "Ad Kd", "Ah Ks", "2d 4d"],
              draws="Qd Jd 9s Qh Jh 9c Qs Js 9h")
    assert not rnd(4, ["always", "always", "always", "never"], **kw).kicked
    rules = RULES.with_kickout(4, "TTxx")
    rec = rnd(4, ["always", "always", "always", "never"], rules=rules, **kw)
    assert rec.kicked and rec.order == (3, 0, 1, 2) and rec.pot == 8
    assert [s.pot_share for s in rec.seats[:3]] == [2.0, 3.0, 3.0]
    assert conserved(rec)


def test_higher_hand_knocks_out_every_holder():
    # Seats 1 and 2 tie at A-K-Q-J-9; seat 3 (a pair) knocks both out.
    rec = rnd(3, "always", dealer="Tc Th 3c 3h 7s",
              hands=["Ac Kc", "Ad Kd", "Ah As"], draws="Qd Jd 9s Qh Jh 9c 2c 5d 6d")
    a, b, c = rec.seats
    assert rec.kicked
    assert a.status == BEATEN and b.status == BEATEN and c.status == WON
    assert "knocked out by seat 3" in a.reason and "knocked out by seat 3" in b.reason
    assert c.pot_share == 7.0


def test_bonus_while_losing_the_pot():
    # Seat 1 (6-5) makes a nine-high straight (bonus 2) and beats the dealer; seat 2
    # makes a flush (bonus 5) and knocks seat 1 out.  Seat 1 still gets its bonus.
    rec = rnd(2, "always", dealer="2c 7d Td Js Qs", hands=["5c 6d", "Ah Kh"], draws="7h 8s 9c 2h 3h 4h")
    s1, s2 = rec.seats
    assert s1.status == BEATEN and s1.bonus == 2.0 and s1.net == 0.0
    assert s2.status == WON and s2.bonus == 5.0 and s2.pot_share == 5.0 and s2.net == 8.0
    assert rec.house_net == -8.0 and conserved(rec)
    assert any("while losing the pot" in e.text for e in rec.log)


def test_player_below_the_dealer_is_out():
    rec = rnd(1, "always", dealer="Qc Qd 7h 4s 2c", hands=["Ac Kd"], draws="9h 8d 3s")
    assert rec.seats[0].status == BEATEN and rec.house_takes_pot and rec.seats[0].net == -2.0


# ---------------------------------------------------------------- side bets

def test_quickdraw_readings():
    # spec: player A-K ties (and so beats) dealer A-K-Q-9-7 under top-cards, loses under kicker
    kw = dict(dealer="Ac Ks Qh 9d 7c", hands=["Ah Kd"])
    top = rnd(1, "never", rules=RULES.with_quickdraw(comparison="top-cards"), **kw)
    kick = rnd(1, "never", rules=RULES.with_quickdraw(comparison="kicker"), **kw)
    assert top.seats[0].quickdraw == RULES.quickdraw.pays and kick.seats[0].quickdraw == -1.0
    dv = hand_value("Ac Ks Qh 9d 7c")
    assert quickdraw_result(RULES.with_quickdraw(comparison="kicker"), cards("Ac Ad"), dv) == 5.0
    assert quickdraw_result(RULES, cards("Qc Jd"), dv) == -1.0


def test_cover_pays_on_the_dealers_hand():
    pair5 = rnd(1, "never", dealer="5c 5d 9h 8s 2c", hands=["Ac Kd"])
    assert pair5.cover == RULES.cover.payout(pair5.dealer_value) > 0
    pair4 = rnd(1, "never", dealer="4c 4d 9h 8s 2c", hands=["Ac Kd"])
    assert pair4.cover == -1.0


# ---------------------------------------------------------------- records, history, state machine

def test_record_and_history():
    rec = rnd(2, "always", dealer="2c 7d Td Js Qs", hands=["5c 6d", "Ah Kh"], draws="7h 8s 9c 2h 3h 4h")
    pots = [e.pot for e in rec.log if e.kind in ("play", "fold")]
    assert pots == [4, 5]
    text = format_history(rec)
    for fragment in ("♥", "Seat 1 plays, pays 1", "[pot 5]", "knocked out by seat 2", "bonus of 2", "House: net"):
        assert fragment in text
    frame = rec.to_frame()
    assert list(frame["status"]) == [BEATEN, WON]
    assert rec.seats[1].final_cards == cards("Ah Kh 2h 3h 4h")
    assert format_cards(rec.seats[1].final_cards) == "Ah Kh 2h 3h 4h"


def test_state_machine_interface():
    deck = deal_deck(3, dealer="2h 4h 6s 8c Td", hands=["2c 3c", "Ac Kc", "Ad Kd"], seed=2)
    r = Round(RULES, 3, deck)
    assert r.current_seat() == 0 and r.legal_actions() == ("fold", "play")
    st = r.table_state()
    assert st.best_value == r.dealer_value and st.dealer_in and st.n_tied == 0 and st.pot == 4
    assert int(st.unseen.sum()) == 52 - 11
    assert list(st.options) == list(options_array(RULES, r.dealer_value))
    assert st.to_act == (1, 2)
    r.apply("play")
    assert int(r.table_state().unseen.sum()) == 52 - 14
    with pytest.raises(RuleError, match="'fold' or 'play'"):
        r.apply("raise")
    r.apply("fold")
    r.apply("fold")
    assert r.is_terminal() and r.current_seat() is None and r.legal_actions() == ()
    with pytest.raises(RuleError, match="over"):
        r.apply("play")
    assert len(r.returns()) == 3


def test_options_array_layout():
    opts = options_array(RULES.with_options(split="fractional", dealer_loses_ties=False), 123)
    assert opts[Option.automatic_win] == 1
    assert opts[Option.split_fractional] == 1
    assert opts[Option.dealer_loses_ties] == 0
    assert opts[Option.bonus_on_automatic_win] == 1
    assert opts[Option.dealer_value] == 123


@pytest.mark.parametrize("strategy", ["always", "never", "pair", "beats:A9", "timid", "chaser", "dealer-only",
                                      "bonus-hunter"])
def test_conservation_on_random_rounds(strategy):
    """Players' nets plus the house's are zero every round (spec, "Money")."""
    rng = np.random.default_rng(17)
    for n in range(1, 8):
        for _ in range(25):
            rec = play_round(RULES, strategy, players=n, rng=rng)
            assert conserved(rec)
            assert sum(s.pot_share for s in rec.seats) + (rec.pot if rec.house_takes_pot else 0) == rec.pot
            assert rec.pot == n + 1 + sum(s.action == "play" for s in rec.seats)


# ---------------------------------------------------------------- a table dealt face up

def _recorded(rec):
    """The face-up table an observer of ``rec`` writes down: each seat's fold, draw or free cards."""
    actions = [None if s.action == "auto" and not s.draw else ("fold" if s.action == "fold" else s.draw)
               for s in rec.seats]
    return face_up_table(rec.dealer_cards, [s.hole for s in rec.seats], actions)


@pytest.mark.parametrize("strategy", ["always", "never", "pair", "chaser", "beats:A9"])
def test_face_up_replay_gives_the_deck_rounds_record(strategy):
    """Told the same folds and draws in order of play, a face-up round ends with the deck round's record;
    its deck is the deck round's cards as far as they were dealt."""
    rng = np.random.default_rng(23)
    rules = RULES.with_kickout(2, "22").with_kickout(3, "22")  # the dealer often kicked out: automatic wins
    for n in range(1, 8):
        for _ in range(6):
            rec = play_round(rules, strategy, players=n, rng=rng)
            face = Round.face_up(rules, _recorded(rec), [strategy] * n)
            if not face.is_terminal():  # an automatic win without free cards waits to be told
                assert face.legal_actions() == ("auto",)
                face.apply("auto")
            got = face.record()
            assert got.deck == rec.deck[:len(got.deck)]
            assert got == dataclasses.replace(rec, deck=got.deck)


def test_face_up_round_plays_what_it_is_told():
    table = face_up_table("Ks Kd 7c 4h 2s", ["Ad 9c", "7s 7h"], ["fold", None])
    r = Round.face_up(RULES, table)
    assert r.current_seat() == 1 and r.position == 1 and r.pot == 3
    with pytest.raises(RuleError, match="has no deck: give the three cards seat 2 drew"):
        r.apply("play")
    with pytest.raises(CardError, match="duplicate card Ad .* in seat 2's draw .already in seat 1's hand."):
        r.apply("Ad 8c 3s")
    r.apply("Ac 8c 3s")
    assert r.is_terminal() and r.record().deck == cards("Ad 9c 7s 7h Ks Kd 7c 4h 2s Ac 8c 3s")
    with pytest.raises(TableStateError, match="player 2 has acted before player 1, who is lower and acts first"):
        Round.face_up(RULES, face_up_table("Ks Kd 7c 4h 2s", ["Ad 9c", "7s 7h"], [None, "fold"]))


def test_face_up_automatic_win_waits_to_be_told():
    # 3 players, TTxx: the dealer's T-T-9-9 is kicked out; the two low seats fold.
    kw = dict(dealer="Tc Td 9h 9s 2c", players=["2d 3d", "4c 5d", "Ah Kh"], actions=["fold", "fold", None])
    r = Round.face_up(RULES, face_up_table(**kw))
    assert r.current_seat() == 2 and r.legal_actions() == ("auto",) and r.automatic_win_due()
    st = r.table_state()
    assert st.position == 2 and st.best_value == -1 and not st.dealer_in and st.pot == 4
    with pytest.raises(TableStateError, match="wins automatically .* give the three free cards"):
        r.apply("fold")
    r.apply("Qh Jh Th")
    seat = r.record().seats[2]
    assert seat.status == AUTO_WIN and seat.bonus == 1000.0 and seat.wagered == 1.0 and seat.net == 1003.0

    no_bonus = Round.face_up(RULES.with_options(bonus_on_automatic_win=False), face_up_table(**kw))
    with pytest.raises(TableStateError, match="dealt no free cards: apply 'auto'"):
        no_bonus.apply("Qh Jh Th")
    no_bonus.apply("auto")
    assert no_bonus.record().seats[2].net == 3.0


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize("n", [0, 8, -1, "3", True, 2.5])
def test_player_count_checked(n):
    with pytest.raises(RuleError, match="number of players must be 1..7"):
        check_players(n)


def test_bad_decks_and_cards():
    with pytest.raises(CardError, match="twice"):
        play_round(RULES, "always", players=1, deck=[0, 0, 1, 2, 3, 4, 5, 6, 7, 8])
    with pytest.raises(CardError, match="needs at least 10 cards"):
        play_round(RULES, "always", players=1, deck=list(range(9)))
    with pytest.raises(CardError, match="duplicate card Ad"):
        deal_deck(2, dealer="Ad Kd 7c", hands=["Ad 9c"])
    with pytest.raises(CardError, match="too many cards for the dealer's hand"):
        deal_deck(2, dealer="Ks Kd 7c 4h 2s 3s")
    with pytest.raises(CardError, match="too many cards for the draws: at most 33"):
        deal_deck(7, draws=format_cards(range(34)))
    with pytest.raises(CardError, match="3 hands given for 2 players"):
        deal_deck(2, hands=["Ac Kd", "2c 3c", "4c 5c"])
    with pytest.raises(StrategyError):
        play_round(RULES, "nope", players=2, seed=1)
    with pytest.raises(RuleError, match="give the number of players"):
        play_round(RULES, "always", seed=1)


# ---------------------------------------------------------------- ricochet play

def test_cli_play_history(capsys):
    assert main(["play", "--dealer", "Ks Kd 7c 4h 2s", "--players", "Ad 9c", "7s 7h", "--strategy", "pair",
                 "--seed", "3"]) == 0
    out = capsys.readouterr().out
    for fragment in ("K♠ K♦ 7♣ 4♥ 2♠", "Seat 1 (A♦ 9♣) folds", "[pot 3]", "Seat 2 plays", "Payouts", "seed 3"):
        assert fragment in out


def test_cli_play_json_and_random_hand(capsys):
    assert main(["play", "--players", "Ad 9c", "?", "--format", "json", "--seed", "5"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["players"] == 2 and data["seats"][0]["hole"] == "Ad 9c" and len(data["log"]) > 4


@pytest.mark.parametrize("argv,fragment", [
    (["play", "-n", "8"], "argument -n/--num-players: must be a whole number from 1 to 7, got 8"),
    (["play", "--players", "Ad 9c", "Ad 7h"], "duplicate card Ad"),
    (["play", "--strategy", "perfct"], "did you mean 'perfect'"),
    (["play", "--dealer", "Ks Kd 7c 4h 2s 3s"], "too many cards for the dealer's hand"),
    (["play", "--dealer", "Zz"], "unknown rank 'Z'"),
    (["play", "-n", "7", "--draws", format_cards(range(34))], "too many cards for the draws"),
])
def test_cli_play_errors_are_one_line(argv, fragment, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("ricochet: error: ") and fragment in err[0]
