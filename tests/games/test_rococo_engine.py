"""Rococo Poker's game: the numba kernel against the readable engine, the driver's reproducibility,
the money, the rules' checks and the CLI."""
from __future__ import annotations

import numpy as np
import pytest

from ricochet_math.errors import RicochetError, StrategyError
from ricochet_math.games.rococo.analysis import simulate
from ricochet_math.games.rococo.betting import BettingPolicy, keep_tables, policy_rows
from ricochet_math.games.rococo.engine import CARRY, RococoGame, play_dealt, play_game
from ricochet_math.games.rococo.kernel import batch_player
from ricochet_math.games.rococo.play import play_pot
from ricochet_math.games.rococo.rules import RococoRules


def _replay(rules, policies, seed, pots):
    out = batch_player(rules, policies, record=400)(np.random.SeedSequence(seed), pots)
    rows, rates = policy_rows(policies, rules)
    tables = keep_tables(rules.players)
    P = rules.players
    outcomes = set()
    for r in out["records"]:
        g = play_dealt(rules, rows, rates, tables, r[30:30 + 8 * P].astype(np.int64), float(r[3]), int(r[0]),
                       float(r[1]), bool(r[2]))
        assert g.contributions == [r[6 + 4 * s] for s in range(P)]
        assert g.payouts == pytest.approx([r[7 + 4 * s] for s in range(P)], abs=1e-12)
        assert g.keeps == [r[8 + 4 * s] for s in range(P)]
        assert g.values == [r[9 + 4 * s] for s in range(P)]
        assert (g.outcome, g.blind) == (r[5], r[4])
        outcomes.add(g.outcome)
    return out, outcomes


@pytest.mark.parametrize("players,policies,options", [
    (2, ["loose", "blinder"], {}),
    (3, ["loose", "blinder", "tight"], {"max_raises": 1}),
    (4, ["blinder", "naive", "tight", "loose"], {"carry_limit": 0}),
])
def test_kernel_equals_readable_engine_game_for_game(players, policies, options):
    rules = RococoRules(players=players, **options)
    out, outcomes = _replay(rules, policies, 11 + players, 300)
    assert outcomes >= {0, 1}  # showdowns and fold wins both replayed
    assert abs(out["net"].sum()) < 1e-9  # no rake: what one seat wins the others lose


@pytest.mark.slow
def test_kernel_equals_readable_engine_six_players():
    rules = RococoRules(players=6)
    _replay(rules, ["blinder", "loose", "tight", "standard", "naive", "passive"], 5, 300)


def test_carry_over_keeps_the_pot_and_every_seat_antes_again():
    rules = RococoRules(players=2)
    never = BettingPolicy("never", open=None, call=None)
    out = batch_player(rules, [never, never], record=50)(np.random.SeedSequence(1), 3)
    recs = out["records"]
    # nobody ever bets: carry_limit carried games, then a forced showdown, each pot
    assert out["counts"][0] == 3 * (rules.carry_limit + 1) and out["counts"][2] == 3 * rules.carry_limit
    assert recs[0][5] == CARRY and recs[1][1] == 2 * rules.ante
    assert recs[rules.carry_limit][1] == 2 * rules.ante * rules.carry_limit and recs[rules.carry_limit][2] == 1


def test_same_seed_same_digits_for_any_number_of_workers():
    a = simulate(None, ["standard", "loose"], 30_000, 7, batch_size=5_000, workers=1)
    b = simulate(None, ["standard", "loose"], 30_000, 7, batch_size=5_000, workers=2)
    assert np.array_equal([e.estimate for e in a.net], [e.estimate for e in b.net]) and a.counts == b.counts


def test_loose_beats_passive_heads_up():
    r = simulate(None, ["loose", "passive"], 20_000, 2026)
    assert r.net[0].low > 0 and r.net[0].estimate == pytest.approx(-r.net[1].estimate)


def test_play_pot_history_reads():
    text = play_pot(["blinder", "passive"], 3).text()
    assert "blind: seat" in text and "net:" in text and "exchange:" in text


def test_rules_and_policies_are_checked():
    with pytest.raises(RicochetError, match="players"):
        RococoRules(players=7)
    with pytest.raises(StrategyError, match="open"):
        BettingPolicy("bad", open="QQQQQ")
    with pytest.raises(StrategyError, match="unknown Rococo policy"):
        simulate(None, ["standard", "nope"], 10)


def test_cli_draw_simulate_play(capsys):
    from ricochet_math.cli import main

    assert main(["rococo", "draw", "Kh Kd 7c 4s 2h", "--format", "csv"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("keep,draw,pot_share") and out[1].startswith('"keep Kh Kd, draw 3"')
    assert main(["rococo", "simulate", "--strategy", "standard", "loose", "--pots", "2000", "--format", "json"]) == 0
    assert '"policy":"loose"' in capsys.readouterr().out.replace(" ", "")
    assert main(["rococo", "play", "--seed", "4"]) == 0
    assert "net:" in capsys.readouterr().out
    assert main(["rococo", "draw", "Kh Kd 7c 4s"]) == 2


def test_cli_one_strategy_spelling_and_the_old_one_with_a_warning(capsys):
    """issue 37: Rococo's seats take ``--strategy A B`` as every game's do; ``--policies A,B`` still reads for
    one release, with a warning on stderr and the same figures; the table of draw keeps is one table, the
    final categories behind ``--final-hands``."""
    from ricochet_math.cli import main

    argv = ["rococo", "simulate", "--pots", "1000", "--seed", "3", "--format", "csv"]
    assert main([*argv, "--strategy", "tight", "loose"]) == 0
    new = capsys.readouterr()
    assert new.err == "" and ",tight," in new.out and ",loose," in new.out
    assert main([*argv, "--policies", "tight,loose"]) == 0
    old = capsys.readouterr()
    assert old.out == new.out
    assert old.err.strip() == ("ricochet: warning: --policies A,B is deprecated and goes in the next release; "
                               "write --strategy tight loose")
    assert main([*argv, "--strategy", "tight", "--players", "3"]) == 0  # one for every seat
    assert capsys.readouterr().out.count(",tight,") == 3
    assert main(["rococo", "draw", "Kh Kd 7c 4s 2h", "--quiet"]) == 0
    short = capsys.readouterr().out
    assert short.count("keep Kh Kd, draw 3") == 1 and "Pair %" not in short and "--final-hands" in short
    assert main(["rococo", "draw", "Kh Kd 7c 4s 2h", "--quiet", "--final-hands"]) == 0
    assert "Pair %" in capsys.readouterr().out


def test_every_rococo_action_has_an_example_that_parses():
    import shlex

    from ricochet_math.cli import build_parser
    from ricochet_math.cli.rococo import EXAMPLES

    parser = build_parser()
    for action, example in EXAMPLES.items():
        argv = shlex.split(example)[1:]
        assert argv[:2] == ["rococo", action]
        if action == "report":
            continue  # parsing checks the folder is writable; the report test builds one
        assert parser.parse_args(argv).action == action


def test_play_game_is_the_first_game_of_play_pot():
    # play_game(seed) deals as the kernel deals the first game of a pot from SeedSequence(seed)
    for seed in (1, 2, 3, 7):
        g = play_game(None, ["blinder", "loose"], seed)
        first = play_pot(["blinder", "loose"], seed).games[0]
        assert (g.contributions, g.payouts, g.keeps, g.outcome, g.first) == (
            first.contributions, first.payouts, first.keeps, first.outcome, first.first)


def test_the_state_machine_steps_a_game_by_hand():
    from ricochet_math.errors import TableStateError
    from ricochet_math.games.rococo.rules import RococoRules

    rules = RococoRules(players=3, max_raises=1)
    game = RococoGame(rules, list(range(52)), first=1)
    assert (game.current_seat(), game.phase) == (1, "blind") and game.legal_actions()[0] == "look"
    game.apply(("blind", 2))
    assert (game.current_seat(), game.phase) == (2, "blind-facing")
    assert game.legal_actions() == ["fold", "call", *[("raise", a) for a in range(1, 11)]]
    game.apply(("raise", 3))  # the one raise allowed
    assert game.legal_actions() == ["fold", "call"]
    with pytest.raises(TableStateError, match="cannot"):
        game.apply(("raise", 1))
    game.apply("fold")  # seat 0
    assert game.current_seat() == 1 and game.legal_actions() == ["fold", "call"]  # the blind player defends
    game.apply("call")
    for _ in range(2):
        assert game.phase == "exchange"
        game.apply(31)  # stand pat
    assert game.phase == "open"
    game.apply("check")
    game.apply("check")
    assert game.is_terminal() and game.record.outcome == CARRY
    assert game.record.contributions == [1, 6, 6] and "seat 3 raises 3 (stake 6)" in "\n".join(game.history)
