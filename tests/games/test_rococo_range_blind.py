"""Rococo's blind game range against range (ricochet_math/games/rococo/range_blind.py,
range_blind_equilibrium.py) against the layer's CFR over the laid-out blind tree (blind_game.py,
blind_equilibrium.py): the same iterates, values, best responses and carry probabilities to rounding at a
state; the same pot solve (levels, NashConv, the blind option's value, the interpolation check, the named
policies, the strategy table, the curves); the same digits on one thread or two; refusals in one line.

Fast: the small draw model and two-bucket dealt law of test_rococo_blind (trees of a few hundred nodes)."""
from __future__ import annotations

import re
from dataclasses import replace

import numba
import numpy as np
import pytest
from cli_run import run_cli

from ricochet_math.errors import RicochetError
from ricochet_math.equilibrium.best_response import best_response
from ricochet_math.equilibrium.schedules import cfr_plus, dcfr
from ricochet_math.equilibrium.solving import solve
from ricochet_math.games.rococo.betting_game import KIND_CARRY, Abstraction, build_betting_tree
from ricochet_math.games.rococo.blind_game import RococoBlindGame, parse_key
from ricochet_math.games.rococo.equilibrium import policy_profile, solve_equilibrium, terminal_reach
from ricochet_math.games.rococo.range_blind import (
    average_state_profile, blind_ranges, policy_state_profile, state_best_response, state_carry_reach, state_cfr,
    state_value_of, translate_state_profile,
)
from ricochet_math.games.rococo.rules import RococoRules

from test_rococo_blind import RULES, SPEC, small_law
from test_rococo_equilibrium import small_model


@pytest.fixture(scope="module")
def blind():
    game = RococoBlindGame(RULES, small_model(), SPEC, small_law())
    return game, build_betting_tree(game), blind_ranges(game)


def _on_tree(bt, br, prof) -> np.ndarray:
    """A state's range profile as an entry array of the laid-out blind tree, information set by information set."""
    t, game = bt.tree, bt.game
    out = np.zeros(t.num_entries)
    for i, key in enumerate(t.keys):
        k, sl = parse_key(key), slice(t.offset[i], t.offset[i + 1])
        if key == "A:blind|":
            assert t.actions[i] == ("d",) + tuple(f"b{s}" for s in game.blind)
            out[sl] = prof.decision
        elif key.startswith("A:blind|"):
            b, r = key.split("|")[1].split(".")
            out[sl] = prof.call[game.blind.index(int(b[1:])), game.blind_raises.index(int(r[1:]))]
        elif key.startswith("B:g"):
            out[sl] = prof.answer[game.blind.index(int(key.split("|")[1][1:])), k["dealt"]]
        else:
            p = k["player"]
            da, db = (k["own"], k["other"]) if p == 0 else (k["other"], k["own"])
            acts, rows = prof.at(k["line"], p, da, db, k["moves"])
            assert acts == t.actions[i]
            r = k["bucket"]
            if p == 1 and k["line"] != "d":  # B's row in a blind line: her (dealt, final) bucket pair
                x = da * 4 + db
                r = int(np.flatnonzero((br.row_g[x] == k["dealt"]) & (br.row_bucket[x] == k["bucket"]))[0])
            out[sl] = rows[r]
    return out


def test_the_layout_is_the_blind_game_s(blind):
    game, bt, br = blind
    assert br.lines == ("d", "b1.k", "b1.r2.k", "b2.k", "b2.r2.k")
    assert list(br.lift) == [0, 1, 3, 2, 4] and list(br.carry_stakes) == [2, 4, 8, 6, 10]
    # the chance weights of each kind of line are a distribution; a blind line's B rows carry P(g)
    for t in (0, 1):
        total = sum(float(br.chance_a[t, x].sum() * br.prior_b[t, x].sum()) for x in range(16))
        assert total == pytest.approx(1.0, abs=1e-14)
    x = 3 * 4 + 3
    for g, pg in enumerate(game.law.prob):
        assert br.prior_b[1, x, br.row_g[x] == g].sum() == pytest.approx(pg, abs=1e-15)
    # the tree's carry stakes are the lines' (every line has a carry)
    assert set(np.unique(bt.carry_stakes)) == set(br.carry_stakes)


@pytest.mark.parametrize("carried, carry, schedule", [(0.0, False, cfr_plus()), (6.0, True, cfr_plus()),
                                                      (6.0, True, dcfr())], ids=["showdown", "carry", "dcfr"])
def test_the_iterates_are_the_layer_s_cfr(blind, carried, carry, schedule):
    """40 iterations with alternating updates: the same average strategy, value, best responses and carry
    probability as the layer's CFR over the laid-out blind tree (measured 2.7e-14 and 5.3e-14 on the strategy).
    The carry's continuation is a line in the carried amount, as the recursion's interpolation gives."""
    game, bt, br = blind
    cont = lambda amount: 0.1 - 0.01 * amount  # noqa: E731  (the next state's value to its first player)
    tree_carry = np.stack([-cont(carried + bt.carry_stakes), cont(carried + bt.carry_stakes)], axis=1) if carry else None
    carry_a = -cont(carried + br.carry_stakes) if carry else None
    tree = bt.state_tree(carried, 0, tree_carry)
    layer = solve(tree, schedule.name, 40)
    prof = average_state_profile(br, state_cfr(br, carried, carry_a, schedule, 40)[1])
    assert np.abs(_on_tree(bt, br, prof) - layer.average).max() < 1e-9
    assert state_value_of(prof, prof, carried, carry_a) == pytest.approx(layer.values[0], abs=1e-12)
    for p in (0, 1):
        to_p = None if carry_a is None else (carry_a if p == 0 else -carry_a)
        assert state_best_response(prof, p, carried, to_p) == pytest.approx(best_response(tree, layer.average, p)[0],
                                                                             abs=1e-12)
    carried_reach = terminal_reach(bt, layer.average)[bt.kind == KIND_CARRY].sum()
    assert state_carry_reach(prof, prof).sum() == pytest.approx(carried_reach, abs=1e-14)


@pytest.mark.parametrize("name", ["standard", "loose", "blinder"])
def test_the_policies_are_the_tree_s(blind, name):
    game, bt, br = blind
    assert np.array_equal(_on_tree(bt, br, policy_state_profile(br, name)), policy_profile(bt, name))


@pytest.mark.parametrize("carry_limit, points", [(1, None), (2, 2)], ids=["exact", "interpolated"])
def test_the_pot_solve_is_the_tree_solver_s(carry_limit, points):
    """The whole solve both ways (CFR+, 60 iterations a state): every figure of the result to rounding."""
    rules = RococoRules(max_bet=2, max_raises=1, carry_limit=carry_limit)
    kw = dict(rules=rules, model=small_model(), law=small_law(), carry_points=points, every=30)
    tree, ranges = (solve_equilibrium(SPEC, 60, solver=s, **kw) for s in ("tree", "ranges"))
    assert ranges.solver == "ranges" and "range against range" in ranges.summary()
    assert np.abs(tree.values - ranges.values).max() < 1e-12
    assert np.abs(tree.carry - ranges.carry).max() < 1e-14
    assert ranges.nash_conv == pytest.approx(tree.nash_conv, abs=1e-12)
    assert ranges.games_per_pot == pytest.approx(tree.games_per_pot, abs=1e-12)
    a, b = tree.blind, ranges.blind
    assert b.option_value == pytest.approx(a.option_value, abs=1e-12) and b.exact == a.exact and b.states == a.states
    if points is not None:
        assert b.interpolation_error == pytest.approx(a.interpolation_error, abs=1e-12)
    assert np.abs(a.response.to_numpy(float) - b.response.to_numpy(float)).max() < 1e-12
    assert np.abs(a.decision.probability.to_numpy() - b.decision.probability.to_numpy()).max() < 1e-12
    cols = ["exploitability", "vs_equilibrium", "vs_equilibrium_as_first", "vs_equilibrium_as_second",
            "self_first_player_value", "self_games_per_pot"]
    pa, pb = tree.policies.set_index("policy")[cols], ranges.policies.set_index("policy")[cols]
    assert list(pa.index) == list(pb.index) and np.abs(pa.to_numpy() - pb.to_numpy()).max() < 1e-12
    sa = tree.strategy.set_index(["infoset", "action"]).probability
    sb = ranges.strategy.set_index(["infoset", "action"]).probability
    assert set(sa.index) == set(sb.index) and (sa - sb.reindex(sa.index)).abs().max() < 1e-12
    assert list(tree.curves.columns) == list(ranges.curves.columns)
    assert np.abs(tree.curves.to_numpy(float) - ranges.curves.to_numpy(float)).max() < 1e-12


def test_the_same_digits_on_one_thread_or_two(blind):
    game, bt, br = blind
    carry_a = np.linspace(-0.2, 0.2, len(br.lines))
    try:
        numba.set_num_threads(1)
        one = state_cfr(br, 4.0, carry_a, dcfr(), 30)
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    two = state_cfr(br, 4.0, carry_a, dcfr(), 30)
    for x, y in zip(one[1], two[1]):
        assert np.array_equal(x, y)


def test_refusals_are_one_line():
    kw = dict(rules=RULES, model=small_model(), law=small_law(), solver="ranges")
    with pytest.raises(RicochetError, match="not measured yet"):
        solve_equilibrium(SPEC, 10, exact_cards=True, **kw)
    with pytest.raises(RicochetError, match="carry_points"):
        solve_equilibrium(SPEC, 10, carry_points=1, **kw)
    with pytest.raises(RicochetError, match="--checkpoint is for --solver tree"):
        solve_equilibrium(SPEC, 10, checkpoint="ck", **kw)


def test_cli_solves_the_blind_game_range_against_range(tmp_path):
    """The real draw model and dealt law at ``tiny`` on a short table, as the tree solver's CLI test."""
    out = tmp_path / "eq"
    r = run_cli("rococo", "equilibrium", "--solver", "ranges", "--schedule", "dcfr", "--blind", "1,3",
                "--blind-raises", "3", "--max-bet", "3", "--max-raises", "1", "--carry-limit", "1",
                "--carry-points", "2", "--iterations", "20", "--out", str(out))
    assert r.returncode == 0, r.stderr
    text = " ".join(r.stdout.split())
    assert "DCFR range against range" in text and "blind option is worth" in text
    assert {"blind.csv", "blind-decision.csv", "blind-response.csv", "strategy.csv"} <= {p.name for p in out.iterdir()}


RULES3 = RococoRules(max_bet=3, max_raises=1, carry_limit=1)
SPEC3 = Abstraction("t3", 2, (1, 3), policy_edges=False).with_blind((1, 3), (1, 3))


def _translated_key(key: str, blind: tuple, raises: tuple) -> str:
    """A key of the game with every blind size read in the abstract game (nearest size, ties to the smaller):
    the translation written again on the tree's keys, independently of translate_state_profile."""
    near = lambda n, sizes: min(sizes, key=lambda s: (abs(s - n), s))  # noqa: E731
    return re.sub(r"\b(b|r)(\d+)(?=[.|]|$)", lambda m: m.group(1) + str(near(int(m.group(2)),
                                                                            blind if m.group(1) == "b" else raises)),
                  key) if ("|b" in key or key.startswith("B:g")) else key


def test_every_blind_size_is_the_tree_s_best_response_to_the_translated_strategy():
    """A state's strategy solved with blinds and blind-round raises of 1 and 3 only, played in the game with
    every size 1..3 (the size 2 read as 1): the range best response in the full layout equals the layer's
    exact best response in the full tree against the same strategy translated key by key, and is never below
    the abstract game's."""
    model, law = small_model(), small_law()
    game = RococoBlindGame(RULES3, model, SPEC3, law)
    full_game = RococoBlindGame(RULES3, model, replace(SPEC3, blind_sizes=(1, 2, 3), blind_raise_sizes=None), law)
    br, full = blind_ranges(game), blind_ranges(full_game)
    bt, fbt = build_betting_tree(game), build_betting_tree(full_game)
    assert full.lines[:4] == ("d", "b1.k", "b1.r1.k", "b1.r2.k") and len(full.lines) == 1 + 3 * 4
    carry_a = np.linspace(-0.1, 0.3, len(br.lines))
    prof = average_state_profile(br, state_cfr(br, 2.0, carry_a, dcfr(), 50)[1])
    abstract = _on_tree(bt, br, prof)
    # the full tree's strategy, key by key: an off-tree blind is never made, every other set read translated
    t, at = fbt.tree, bt.tree
    sigma = np.zeros(t.num_entries)
    for i, key in enumerate(t.keys):
        j = at.index[_translated_key(key, game.blind, game.blind_raises)]
        got = dict(zip(at.actions[j], abstract[at.offset[j]:at.offset[j + 1]]))
        sigma[t.offset[i]:t.offset[i + 1]] = [got.get(a, 0.0) for a in t.actions[i]]
    cont = lambda amount: -(0.05 + 0.01 * amount)  # noqa: E731  (a carry's value to A, by the amount)
    carry_full = cont(2.0 + full.carry_stakes)
    tree = fbt.state_tree(2.0, 0, np.stack([cont(2.0 + fbt.carry_stakes), -cont(2.0 + fbt.carry_stakes)], axis=1))
    translated = translate_state_profile(prof, full)
    assert np.array_equal(_on_tree(fbt, full, translated), sigma)
    for p in (0, 1):
        to_p = carry_full if p == 0 else -carry_full
        got = state_best_response(translated, p, 2.0, to_p)
        assert got == pytest.approx(best_response(tree, sigma, p)[0], abs=1e-12)
        own = cont(2.0 + br.carry_stakes)
        assert got >= state_best_response(prof, p, 2.0, own if p == 0 else -own) - 1e-12


def test_the_pot_s_exploitability_with_every_blind_size():
    kw = dict(rules=RULES3, model=small_model(), law=small_law(), solver="ranges", policies=("standard", "loose"))
    res = solve_equilibrium(SPEC3, 40, every_blind_size=True, **kw)
    every = res.blind.nash_conv_every_blind_size
    assert every >= res.nash_conv - 1e-12 and "with every blind and blind-round raise size" in res.summary()
    assert "nash_conv_every_blind_size" in res.blind.answer_frame().columns
    pol = res.policies.set_index("policy")
    # a named policy answers a blind or a raise whatever its size, so a best response's value is convex in the
    # size (its utilities are affine in the stakes) and the smallest and largest sizes, in the tree, are enough
    assert np.abs(pol.exploitability_every_blind_size - pol.exploitability).max() < 1e-12
    with pytest.raises(RicochetError, match="include the table's smallest and largest"):
        solve_equilibrium(replace(SPEC3, blind_sizes=(1, 2)), 5, every_blind_size=True, **kw)
    with pytest.raises(RicochetError, match="every_blind_size is for the blind game solved range against range"):
        solve_equilibrium(SPEC3, 5, every_blind_size=True, rules=RULES3, model=small_model(), law=small_law())


@pytest.mark.parametrize("args, message", [
    (["--every-blind-size"], "--every-blind-size needs --blind"),
    (["--blind", "1,3", "--every-blind-size"], "--every-blind-size is for --solver ranges"),
    (["--solver", "ranges", "--blind", "1,3", "--full-betting"], "not measured yet"),
])
def test_cli_refuses_in_one_line(tmp_path, args, message):
    r = run_cli("rococo", "equilibrium", *args, "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert r.returncode == 2, r.stdout
    assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    assert not (tmp_path / "out").exists()


def test_the_value_of_each_blind_round_choice():
    """The most each first choice at a fresh pot can bring the first player against the equilibrium: the best of
    them is his best response's value (the top of the value's bracket), and the choices he makes are within the
    exploitability of it."""
    res = solve_equilibrium(SPEC3, 200, rules=RULES3, model=small_model(), law=small_law(), solver="ranges",
                            schedule="dcfr", policies=())
    d = res.blind.decision
    assert list(d.action) == ["d", "b1", "b3"]
    assert d.best_value_if_chosen.max() == pytest.approx(res.value_bounds[1], abs=1e-12)
    made = d.probability > 0.05
    assert (d.best_value_if_chosen[made] >= res.value_bounds[1] - res.nash_conv - 1e-12).all()


def test_the_guide_quotes_the_committed_range_blind_solve():
    """docs/rococo-poker.md's figures for the blind game solved range against range are those of
    reports/rococo-equilibrium/tiny-blind-ranges/ (rounded): the answer, the value of each blind-round choice, the
    second player's answers and the blind player's calls, the named policies.  The folder is written by the
    command the guide gives (about 12 minutes on 2 cores)."""
    from pathlib import Path

    import pandas as pd

    root = Path(__file__).resolve().parents[2]
    here = root / "reports" / "rococo-equilibrium" / "tiny-blind-ranges"
    guide = " ".join((root / "docs" / "rococo-poker.md").read_text(encoding="utf-8").split())
    assert "--out reports/rococo-equilibrium/tiny-blind-ranges" in guide
    b = pd.read_csv(here / "blind.csv").iloc[0]
    row = (f"| {b.value_with_blind:+.4f} | {b.value_without_blind:+.4f} | **{b.option_value:+.4f}** | "
           f"[{b.option_low:+.4f}, {b.option_high:+.4f}] | {b.nash_conv:.6f} | {b.nash_conv_without:.6f} | "
           f"{b.nash_conv_every_blind_size:.6f} | {b.blind_probability:.1e} | {b.interpolation_error:+.4f} |")
    assert row in guide, row
    decision = pd.read_csv(here / "blind-decision.csv")
    for r in decision.itertuples():
        line = f"| {r.action} | {r.probability:.2g} | {r.best_value_if_chosen:+.4f} |"
        assert line in guide, line
    # the prose: the option worth nothing within its bracket, and the margin by which displaying wins
    assert b.option_low <= 0 <= b.option_high
    assert (f"worth nothing: {b.option_value:+.4f} antes per pot, within [{b.option_low:+.4f}, "
            f"{b.option_high:+.4f}]") in guide
    best = decision.set_index("action").best_value_if_chosen
    assert f"blinding costs at least {best['d'] - best.drop('d').max():.2f} antes per pot" in guide
    # the same solve with 5 carried amounts a level: what it says beside the 3-amount one
    five = here.parent / "tiny-blind-ranges-points5"
    b5 = pd.read_csv(five / "blind.csv").iloc[0]
    best5 = pd.read_csv(five / "blind-decision.csv").set_index("action").best_value_if_chosen
    for text in (f"the option {b5.option_value:+.4f} within [{b5.option_low:+.4f}, {b5.option_high:+.4f}] (NashConvs "
                 f"{b5.nash_conv:.6f} and {b5.nash_conv_without:.6f}), the fresh pot's value {b5.value_with_blind:+.4f}",
                 f"the level-1 check {b5.interpolation_error:+.4f}",
                 f"rises from {best['b1']:+.4f} to {best5['b1']:+.4f} (displaying {best5['d']:+.4f} in both)",
                 f"every blind size is {b5.nash_conv_every_blind_size:.4f} against "
                 f"{b.nash_conv_every_blind_size:.4f} with 3 amounts",
                 f"({best5['d'] - best5.drop('d').max():.2f} with 5 carried amounts a level"):
        assert text in guide, text
    response = pd.read_csv(here / "blind-response.csv")
    for r in response.itertuples():
        line = (f"| {r.blind} | {r.dealt_bucket} | {r.bucket_probability:.1%} | {r.fold:.1%} | {r.call:.1%} | "
                f"{r.raise_1:.1%} | {r.raise_3:.1%} | {r.raise_10:.1%} |")
        assert line in guide, line
    for r in response.drop_duplicates("blind").itertuples():
        line = f"| {r.blind} | {r.blind_calls_1:.1%} | {r.blind_calls_3:.1%} | {r.blind_calls_10:.1%} |"
        assert line in guide, line
    policies = pd.read_csv(here / "policies.csv").set_index("policy")
    for name in ("standard", "loose", "tight", "passive", "grid-best-vs-standard-blind-1"):
        r = policies.loc[name]
        line = (f"| {name} | {r.exploitability:.3f} | {r.exploitability_every_blind_size:.3f} | {r.vs_equilibrium:.3f} | "
                f"{r.vs_equilibrium_as_first:.3f} | {r.vs_equilibrium_as_second:.3f} | {r.self_games_per_pot:.3f} |")
        assert line in guide, line
