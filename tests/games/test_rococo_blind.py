"""Rococo heads-up with the blind decision: the blind round's moves and stakes, the dealt law, the states'
recursion against the whole pot as one tree (sequence-form LP), the blind option's value, the policies on
the blind tree, refusals.

Fast: a small draw model (everybody discards 3, six final values) with a two-bucket dealt law whose
marginal is that model, short tables (bets 1..2, one raise a phase) and carry limits 0 or 1, so every tree
has at most a few thousand nodes.  The real dealt law is checked by the slow test at the bottom.
"""
from __future__ import annotations


import numpy as np
import pytest
from cli_run import run_cli

from ricochet_math.errors import RicochetError, StrategyError
from ricochet_math.equilibrium.best_response import exploitability, profile_from_mapping, profile_to_mapping
from ricochet_math.equilibrium.sequence_lp import solve_sequence_form
from ricochet_math.equilibrium.tree import build_tree
from ricochet_math.evaluator.evaluation import NUM_VALUES
from ricochet_math.evaluator.names import pattern_value
from ricochet_math.games.rococo.betting_game import KIND_CARRY, Abstraction, build_betting_tree
from ricochet_math.games.rococo.blind_equilibrium import (
    carried_amounts, carry_grid, state_best_responses, state_value,
)
from ricochet_math.games.rococo.blind_game import DealtLaw, RococoBlindGame, RococoBlindPotGame, parse_key
from ricochet_math.games.rococo.equilibrium import policy_profile, solve_equilibrium
from ricochet_math.games.rococo.rules import RococoRules

from test_rococo_equilibrium import small_model

POINTS = [pattern_value(p) + 5 for p in ("66", "99", "KK", "two pair", "three of a kind", "flush")]


def small_law() -> DealtLaw:
    """Two dealt buckets of probability 1/2 (below 99, 99 or better), everybody discarding 3; the weak
    bucket's final values lean low, the strong one's high, and their mixture is :func:`small_model`'s
    (0.3, 0.2, 0.2, 0.15, 0.1, 0.05)."""
    final = np.zeros((2, 4, NUM_VALUES))
    final[0, 3, POINTS] = (0.4, 0.3, 0.2, 0.05, 0.05, 0.0)
    final[1, 3, POINTS] = (0.2, 0.1, 0.2, 0.25, 0.15, 0.1)
    discard = np.zeros((2, 4))
    discard[:, 3] = 1.0
    return DealtLaw(np.array([0, pattern_value("99")]), np.array([0.5, 0.5]), discard, final, "test-law")


RULES = RococoRules(max_bet=2, max_raises=1, carry_limit=1)
SPEC = Abstraction("t", 2, (1, 2), policy_edges=False).with_blind((1, 2), (2,))


def _tree(rules=RULES, spec=SPEC):
    return build_betting_tree(RococoBlindGame(rules, small_model(), spec, small_law()))


def test_the_dealt_law_and_its_marginal():
    law = small_law()
    m = law.model()
    assert m.discard_prob == pytest.approx([0, 0, 0, 1], abs=1e-15)
    assert np.abs(m.final - small_model().final).max() < 1e-15
    law.check_model(small_model())
    other = small_model().final.copy()
    other[3, POINTS[0]], other[3, POINTS[1]] = 0.25, 0.25
    from ricochet_math.games.rococo.betting_game import DrawModel

    with pytest.raises(RicochetError, match="marginal laws differ by 0.05"):
        law.check_model(DrawModel(np.array([0, 0, 0, 1.0]), other, "other"))
    with pytest.raises(RicochetError, match="dealt law needs"):
        DealtLaw(law.start, np.array([0.5, 0.6]), law.discard, law.final, "bad")


def test_blind_round_moves_stakes_and_keys():
    g = RococoBlindGame(RococoRules(max_bet=3, max_raises=2), small_model(),
                        Abstraction("t", 1, (1, 3)).with_blind((1, 3), (1, 3)), small_law())
    assert g.actions(()) == ("d", "b1", "b3")
    assert g.player(()) == 0 and g.player(("b3",)) == -1 and g.player(("b3", "g1")) == 1
    assert g.actions(("b3", "g1")) == ("f", "k", "r1", "r3")
    assert g.actions(("b3", "g1", "r3")) == ("f", "k")  # still blind: no re-raise
    assert g.blind_stake(3, ("k",)) == [4.0, 4.0]
    assert g.blind_stake(3, ("r3", "k")) == [7.0, 7.0]
    assert g.blind_stake(3, ("r3", "f")) == [4.0, 7.0]
    assert g.blind_stake(3, ("f",)) == [4.0, 1.0]
    deal = g.deals_given[1][0][0]
    h = ("b3", "g1", "r3", "k", deal, "c", "r1", "k")
    assert g.terminal(h)[1:3] == (8.0, 8.0)  # 7 each after the blind round, then a raise of 1 called
    assert g.terminal(("b3", "g1", "f"))[:3] == (1, 4.0, 1.0)  # B folds: A takes her ante
    assert g.infoset(("b3", "g1")) == "B:g1|b3"
    assert g.infoset(("b3", "g1", "r3")) == "A:blind|b3.r3"
    assert g.infoset(("b3", "g1", "k", deal, "c")).startswith("B3.3:1/")
    assert g.infoset(("b3", "g1", "k", deal)).endswith("|b3.k|")
    assert parse_key("B3.3:1/4|b3.r3.k|c") == {"player": 1, "own": 3, "other": 3, "bucket": 4, "dealt": 1,
                                                 "line": "b3.r3.k", "moves": ("c",)}
    assert parse_key("A3.3:2|c")["line"] == "d"  # the display branch keeps the first version's keys
    # the deals given a dealt bucket: probabilities sum to 1, each a valid showdown share
    for gg in (0, 1):
        assert sum(p for _, p in g.deals_given[gg]) == pytest.approx(1.0, abs=1e-15)
    bt = build_betting_tree(g)
    assert np.allclose(bt.tree.utility.sum(axis=1), 0.0)
    assert sorted(set(bt.carry_stakes)) == [2.0, 4.0, 6.0, 8.0, 10.0, 14.0]  # 2 S, S = 1, 2, 3, 4, 5, 7


def test_no_raise_in_the_blind_round_without_raises():
    g = RococoBlindGame(RococoRules(max_bet=2, max_raises=0), small_model(), SPEC, small_law())
    assert g.actions(("b2", "g0")) == ("f", "k")


def _lp_states(bt, grid):
    """The states' values by the exact LP, state by state (the recursion's second path)."""
    levels = len(grid)
    v = [None] * levels
    for k in range(levels - 1, -1, -1):
        out = []
        for c in grid[k]:
            carry = None
            if k < levels - 1:
                w = np.interp(c + bt.carry_stakes, grid[k + 1], v[k + 1])
                carry = np.stack([-w, w], axis=1)
            out.append(solve_sequence_form(bt.state_tree(c, k, carry)).value)
        v[k] = np.array(out)
    return v


def _pot_profile(pot, bt, grid, profiles):
    """The per-state profiles on the whole-pot tree: each information set plays its state's set."""
    mapping = {}
    maps = [[profile_to_mapping(bt.tree, p) for p in level] for level in profiles]
    for key in pot.keys:
        head, level_key = key.split("#")
        _, k, c = head.split("|")[:3]
        k, c = int(k[1:]), float(c[1:])
        i = int(np.flatnonzero(np.isclose(grid[k], c))[0])
        mapping[key] = maps[k][i][level_key]
    return profile_from_mapping(pot, mapping)


#: three slices: a game whose value is not 0 (with two the small model's game is worth exactly 0)
SPEC3 = Abstraction("t3", 3, (1, 2), policy_edges=False).with_blind((1, 2), (2,))


def test_the_states_recursion_equals_the_pot_as_one_tree():
    bt = _tree(spec=SPEC3)
    grid = carry_grid(bt, 2, None)
    assert [list(a) for a in grid] == [[0.0], [2.0, 4.0, 6.0, 8.0, 10.0]]
    v = _lp_states(bt, grid)
    # measured: the values at level 1 grow with the carried pot (the first player's dead money)
    assert v[0][0] == pytest.approx(-0.0577869, abs=1e-7)
    assert v[1] == pytest.approx([-0.03, 0.0066667, 0.075, 0.11, 0.1333333], abs=1e-7)
    pot = build_tree(RococoBlindPotGame(bt.game))
    whole = solve_sequence_form(pot)
    assert whole.value == pytest.approx(v[0][0], abs=1e-9)
    # a pot strategy (one profile per state): its exploitability and value by the recursion and on the tree
    res = solve_equilibrium(SPEC3, 150, rules=RULES, model=small_model(), law=small_law(), policies=("standard",))
    from ricochet_math.games.rococo.blind_equilibrium import solve_states

    ss = solve_states(bt, 2, 150, grid)
    assert np.all(np.diff(ss.values[1]) != 0)
    assert np.array_equal(ss.values[0], [res.first_player_value])
    sigma = _pot_profile(pot, bt, grid, ss.profiles)
    e = exploitability(pot, sigma)
    assert res.nash_conv == pytest.approx(e.nash_conv, abs=1e-9)
    assert res.values[0] == pytest.approx(e.values[0], abs=1e-9)
    lo, hi = res.value_bounds
    assert lo - 1e-12 <= v[0][0] <= hi + 1e-12
    # a policy's best responses by the recursion and on the whole tree
    pol = policy_profile(bt, "standard")
    f, s = state_best_responses(bt, grid, pol)
    whole_pol = _pot_profile(pot, bt, grid, [[pol] * len(a) for a in grid])
    assert f[0][0] + s[0][0] == pytest.approx(exploitability(pot, whole_pol).nash_conv, abs=1e-9)
    assert state_value(bt, grid, pol, pol) == pytest.approx(0.0, abs=1e-12)  # the same policy in both seats
    # the games per pot: 1 + the carry probability (carry limit 1)
    carry = bt.kind == KIND_CARRY
    from ricochet_math.games.rococo.equilibrium import terminal_reach

    assert res.games_per_pot == pytest.approx(1 + terminal_reach(bt, ss.profiles[0][0])[carry].sum(), abs=1e-15)


def test_interpolated_continuation_is_exact_when_the_grid_holds_every_amount():
    bt = _tree()
    assert [len(a) for a in carried_amounts(bt, 3)] == [1, 5, 9]
    assert [list(a) for a in carry_grid(bt, 3, 3)] == [[0.0], [2.0, 6.0, 10.0], [4.0, 12.0, 20.0]]
    with pytest.raises(RicochetError, match="at least 2"):
        carry_grid(bt, 3, 1)
    rules = RococoRules(max_bet=2, max_raises=1, carry_limit=2)
    exact = solve_equilibrium(SPEC, 100, rules=rules, model=small_model(), law=small_law(), policies=())
    rough = solve_equilibrium(SPEC, 100, rules=rules, model=small_model(), law=small_law(), policies=(),
                              carry_points=3)
    assert exact.blind.exact and exact.blind.interpolation_error is None and exact.blind.states == (1, 5, 9)
    assert not rough.blind.exact and rough.blind.states == (1, 3, 3)
    # measured: the interpolated continuation moves the value by about 1e-4; the check is of that size
    assert abs(rough.first_player_value - exact.first_player_value) < 5e-3
    assert abs(rough.blind.interpolation_error) < 5e-3


def test_the_blind_option_s_value():
    # one game (carry limit 0): the first player may always display, so the blind option is worth at least
    # nothing, up to the two solves' precision
    rules = RococoRules(max_bet=2, max_raises=1, carry_limit=0)
    res = solve_equilibrium(SPEC, 400, rules=rules, model=small_model(), law=small_law(), policies=())
    b = res.blind
    assert b.option_value >= -(res.nash_conv + b.nash_conv_without)
    assert b.option_value == pytest.approx(b.value - b.value_without, abs=1e-15)
    assert b.nash_conv == res.nash_conv
    lo, hi = b.option_bounds
    assert lo <= b.option_value <= hi and hi - lo == pytest.approx(2 * (res.nash_conv + b.nash_conv_without))
    assert b.answer_frame().option_value[0] == b.option_value
    # by the exact LP, on the same trees: the blind game's value, the display-only game's value
    bt = _tree(rules)
    with_blind = solve_sequence_form(bt.state_tree(0.0, 0, None)).value
    from ricochet_math.games.rococo.betting_game import RococoBettingGame

    plain = build_betting_tree(RococoBettingGame(rules, small_model(), Abstraction("t", 2, (1, 2), policy_edges=False)))
    without = solve_sequence_form(plain.level_tree(0, None)).value
    assert with_blind >= without - 1e-12
    assert b.value == pytest.approx(with_blind, abs=res.nash_conv + 1e-12)
    assert b.value_without == pytest.approx(without, abs=b.nash_conv_without + 1e-12)
    # a blind the second player sees through: the weak dealt bucket folds or calls, the strong one raises
    r = b.response.set_index(["blind", "dealt_bucket"])
    assert r.loc[(1, 1), "raise_2"] > 0.9  # measured 0.998
    d = b.decision.set_index("action").probability
    assert d.sum() == pytest.approx(1.0, abs=1e-12) and set(d.index) == {"d", "b1", "b2"}
    assert "blind option is worth" in res.summary()


def test_policies_on_the_blind_tree():
    bt = _tree()
    t = bt.tree
    sigma = policy_profile(bt, "standard")

    def act(key):
        i = t.index[key]
        return dict(zip(t.actions[i], sigma[t.offset[i]:t.offset[i + 1]]))

    assert act("A:blind|") == {"d": 1.0, "b1": 0.0, "b2": 0.0}  # standard never blinds
    assert act("B:g1|b1")["k"] == 1.0 and act("B:g0|b1")["f"] == 1.0  # calls a blind with 99 or better
    assert act("A:blind|b2.r2")["k"] == 1.0  # defends
    blinder = policy_profile(bt, "blinder")  # blinds 2
    i = t.index["A:blind|"]
    assert list(blinder[t.offset[i]:t.offset[i + 1]]) == [0.0, 0.0, 1.0]
    with pytest.raises(StrategyError, match="blinds 2, which abstraction"):
        policy_profile(_tree(spec=Abstraction("t", 2, (1, 2), policy_edges=False).with_blind((1,), (2,))), "blinder")


def test_errors_are_one_line():
    with pytest.raises(RicochetError, match="no blind size of \\(5, 7\\) is within the table's 1..2"):
        RococoBlindGame(RULES, small_model(), Abstraction("t", 1, (1, 2)).with_blind((5, 7)), small_law())
    with pytest.raises(RicochetError, match="no blind sizes"):
        RococoBlindGame(RULES, small_model(), Abstraction("t", 1, (1, 2)), small_law())
    with pytest.raises(RicochetError, match="not measured yet"):
        solve_equilibrium(SPEC, 10, rules=RULES, model=small_model(), law=small_law(), full_betting=True)
    with pytest.raises(RicochetError, match="not measured yet"):
        solve_equilibrium(SPEC, 10, rules=RULES, model=small_model(), law=small_law(), exact_cards=True)
    with pytest.raises(RicochetError, match="carry_points is for the blind game"):
        solve_equilibrium("tiny", 10, rules=RULES, model=small_model(), carry_points=3)
    with pytest.raises(RicochetError, match="carry_points"):
        solve_equilibrium(SPEC, 10, rules=RULES, model=small_model(), law=small_law(), carry_points=1)
    with pytest.raises(RicochetError, match="has its blind sizes already"):
        solve_equilibrium(SPEC, 10, rules=RULES, model=small_model(), law=small_law(), blind=True)


def _cli(*args):
    """``ricochet rococo equilibrium ARGS`` in this process (tests/cli_run.py: the entry point's parser and
    handler, without a Python start-up per call; tests/cli/test_cli.py checks the installed entry point)."""
    return run_cli("rococo", "equilibrium", *args)


@pytest.mark.parametrize("args, message", [
    (["--blind", "1,x"], "--blind"),
    (["--blind", "0"], "--blind"),
    (["--blind-raises", "3"], "--blind-raises needs --blind"),
    (["--carry-points", "3"], "--carry-points needs --blind"),
    (["--blind", "1", "--carry-points", "1"], "--carry-points"),
    (["--blind", "1", "--full-betting"], "not measured yet"),
    (["--blind", "1", "--full-betting-ranges"], "not measured yet"),
])
def test_cli_refuses_bad_blind_options(args, message):
    r = _cli(*args)
    assert r.returncode == 2, r.stderr
    assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_cli_solves_the_blind_game_and_writes_its_tables(tmp_path):
    """The real draw model and dealt law at ``tiny`` on a short table (bets 1..3, one raise a phase, carry
    limit 1, two carried amounts solved): under a minute, most of it the draw solver's tables."""
    out = tmp_path / "eq"
    r = _cli("--blind", "1,3", "--blind-raises", "3", "--max-bet", "3", "--max-raises", "1", "--carry-limit", "1",
             "--carry-points", "2", "--iterations", "20", "--out", str(out))
    assert r.returncode == 0, r.stderr
    text = " ".join(r.stdout.split())
    assert "blind option is worth" in text and "dealt bucket" in text
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == [
        "blind-decision.csv", "blind-response.csv", "blind.csv", "curves.csv", "levels.csv", "policies.csv",
        "strategy.csv",
        "summary.txt"]
    import pandas as pd

    response = pd.read_csv(out / "blind-response.csv")
    assert list(response.dealt_from[:5]) == [pattern_value(t) if t else 0 for t in (None, "22", "99", "JJ", "two pair")]
    assert response.bucket_probability[:5].sum() == pytest.approx(1.0, abs=1e-12)
    strategy = pd.read_csv(out / "strategy.csv")
    assert {"line", "dealt_bucket"} <= set(strategy.columns)


@pytest.mark.parametrize("folder, responses", [("tiny-blind", True), ("tiny-blind-carry10", False)])
def test_the_guide_quotes_the_committed_blind_tables(folder, responses):
    """docs/rococo-poker.md's blind figures are those of reports/rococo-equilibrium/<folder>/ (rounded): the
    answer row and the named policies of both solves (carry limits 2 and 10), the blind-round responses of
    the first.  Each folder is written by the command the guide gives (about 14 to 15 minutes on 2 cores)."""
    from pathlib import Path

    import pandas as pd

    root = Path(__file__).resolve().parents[2]
    here = root / "reports" / "rococo-equilibrium" / folder
    if not (here / "blind.csv").exists():
        pytest.skip(f"reports/rococo-equilibrium/{folder}/ is not written yet (docs/rococo-poker.md gives "
                    "its command)")
    guide = " ".join((root / "docs" / "rococo-poker.md").read_text(encoding="utf-8").split())
    assert f"--out reports/rococo-equilibrium/{folder}" in guide
    b = pd.read_csv(here / "blind.csv").iloc[0]
    row = (f"| {b.value_with_blind:+.4f} | {b.value_without_blind:+.4f} | **{b.option_value:+.4f}** | "
           f"[{b.option_low:+.4f}, {b.option_high:+.4f}] | {b.nash_conv:.4f} | {b.nash_conv_without:.4f} | "
           f"{b.blind_probability:.2%} | {b.interpolation_error:+.1e} |")
    assert row in guide, row
    if responses:
        response = pd.read_csv(here / "blind-response.csv")
        for r in response.itertuples():
            line = (f"| {r.blind} | {r.dealt_bucket} | {r.bucket_probability:.1%} | {r.fold:.1%} | {r.call:.1%} | "
                    f"{r.raise_3:.1%} | {r.blind_calls_3:.1%} |")
            assert line in guide, line
    policies = pd.read_csv(here / "policies.csv").set_index("policy")
    for name in ("standard", "loose", "tight", "passive", "grid-best-vs-standard-blind-1"):
        r = policies.loc[name]
        line = (f"| {name} | {r.exploitability:.3f} | {r.vs_equilibrium:.3f} | {r.vs_equilibrium_as_first:.3f} | "
                f"{r.vs_equilibrium_as_second:.3f} | {r.self_games_per_pot:.3f} |")
        assert line in guide, line


def test_a_blind_solve_resumes_from_its_checkpoint_folder(tmp_path):
    kw = dict(rules=RULES, model=small_model(), law=small_law(), policies=(), every=20)
    straight = solve_equilibrium(SPEC3, 40, **kw)
    folder = tmp_path / "ck"
    first = solve_equilibrium(SPEC3, 40, checkpoint=folder, **kw)
    names = sorted(p.name for p in folder.glob("level-*.npz"))
    assert names[0] == "level-00-carried-00000.npz" and len(names) == 1 + 5  # one file per state
    again = solve_equilibrium(SPEC3, 40, checkpoint=folder, **kw)  # every state read back
    for res in (first, again):
        assert np.array_equal(res.values, straight.values) and res.nash_conv == straight.nash_conv
    with pytest.raises(RicochetError, match="of a solve of 40 iterations a level, not 60"):
        solve_equilibrium(SPEC3, 60, checkpoint=folder, **kw)


@pytest.mark.slow
def test_the_dealt_law_is_the_draw_solver_s():
    """The real dealt law's marginal is the draw model of the first version (two countings of the same
    keep table), and every dealt bucket's discard counts are those of its hands' best keeps."""
    from ricochet_math.games.rococo.betting_game import draw_model
    from ricochet_math.games.rococo.blind_game import dealt_law

    law = dealt_law()
    law.check_model(draw_model())
    assert list(law.start) == [0] + [pattern_value(t) for t in ("22", "99", "JJ", "two pair")]
    assert law.prob == pytest.approx([0.5011774, 0.2275372, 0.0650106, 0.1300212, 0.0762536], abs=1e-7)
    # two pair or better never draws 3; a high-card hand never stands pat
    assert law.discard[4, 3] == 0.0 and law.discard[0, 0] == 0.0
