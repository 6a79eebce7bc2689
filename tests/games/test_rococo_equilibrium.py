"""Rococo heads-up on the equilibrium layer: the betting game, the carried-pot recursion against the whole
pot as one tree, exploitability, the named policies on the tree, translation to every raise size, errors.

Fast: the games here use a small draw model (one discard count, a few final values) and small tables
(bets 1..2 or 1..3, one or two raises, a carry limit of 2) so that every tree has at most a few thousand
nodes and the exact sequence-form LP is a second path to every value.  The real draw model is used by the
slow tests at the bottom.
"""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from cli_run import run_cli

from ricochet_math.errors import RicochetError, StrategyError
from ricochet_math.equilibrium.best_response import best_response, exploitability, profile_from_mapping
from ricochet_math.equilibrium.cfr_kernel import expected_values
from ricochet_math.equilibrium.sequence_lp import solve_sequence_form
from ricochet_math.equilibrium.tree import build_tree
from ricochet_math.evaluator.evaluation import NUM_VALUES
from ricochet_math.evaluator.names import pattern_value
from ricochet_math.games.rococo.betting_game import (
    KIND_CARRY, Abstraction, DrawModel, RococoBettingGame, RococoPotGame, abstraction, buckets,
    build_betting_tree, showdown_share, translate_history,
)
from ricochet_math.games.rococo.equilibrium import (
    policy_profile, pot_best_responses, pot_value, solve_equilibrium, terminal_reach, translate_profile,
)
from ricochet_math.games.rococo.rules import RococoRules


def small_model() -> DrawModel:
    """Everybody discards 3; the final value is one of six values spread over the policies' thresholds
    (a pair of sixes, of nines, of kings, two pair, trips, a flush), fixed probabilities."""
    final = np.zeros((4, NUM_VALUES))
    points = [pattern_value(p) for p in ("66", "99", "KK", "two pair", "three of a kind", "flush")]
    for v, w in zip(points, (0.3, 0.2, 0.2, 0.15, 0.1, 0.05)):
        final[3, v + 5] = w
    return DrawModel(np.array([0.0, 0.0, 0.0, 1.0]), final, "test-model")


def two_count_model() -> DrawModel:
    """Discards 1 (probability 0.4) or 3, each with its own three-value final distribution."""
    final = np.zeros((4, NUM_VALUES))
    final[1, [100, 4200, 6000]] = (0.2, 0.5, 0.3)
    final[3, [10, 2500, 3300]] = (0.5, 0.3, 0.2)
    return DrawModel(np.array([0.0, 0.4, 0.0, 0.6]), final, "test-model-2")


TINY_RULES = RococoRules(max_bet=2, max_raises=1, carry_limit=2)
SPEC = Abstraction("test", quantiles=2, raise_sizes=(1, 2), policy_edges=False)


def test_showdown_share_is_the_double_sum():
    rng = np.random.default_rng(5)
    for _ in range(5):
        a, b = rng.random(NUM_VALUES) ** 8, rng.random(NUM_VALUES) ** 8
        a[rng.random(NUM_VALUES) < 0.99] = 0
        b[rng.random(NUM_VALUES) < 0.99] = 0
        a, b = a / a.sum(), b / b.sum()
        ia, ib = np.flatnonzero(a), np.flatnonzero(b)
        brute = sum(a[i] * b[j] * (1.0 if i > j else 0.5 if i == j else 0.0) for i in ia for j in ib)
        assert showdown_share(a, b) == pytest.approx(brute, abs=1e-13)
    same = small_model().final[3]
    assert showdown_share(same, same) == pytest.approx(0.5, abs=1e-15)


def test_buckets_are_cut_at_every_policy_threshold():
    model = small_model()
    bk = buckets(model, Abstraction("t", quantiles=1))
    assert len(bk.start[3]) == 6 and [len(s) for s in bk.start[:3]] == [0, 0, 0]  # one value per bucket here
    assert bk.prob[3].sum() == pytest.approx(1.0, abs=1e-15)
    for t in ("77", "99", "JJ", "two pair", "three of a kind", "flush"):
        v = pattern_value(t)  # no bucket holds values on both sides of a threshold
        for row in bk.dist[3]:
            support = np.flatnonzero(row)
            assert (support >= v).all() or (support < v).all()
    # two slices, no policy edges: the second starts at the first value whose cumulative mass passes 1/2
    # (masses 0.3, 0.2 | 0.2, 0.15, 0.1, 0.05)
    q = buckets(model, Abstraction("q", quantiles=2, policy_edges=False))
    assert q.prob[3] == pytest.approx([0.5, 0.5], abs=1e-15)
    assert q.start[3][1] == pattern_value("KK") + 5


def test_betting_game_moves_stakes_and_terminals():
    g = RococoBettingGame(RococoRules(max_bet=3, max_raises=2), small_model(), Abstraction("t", 1, (1, 3)))
    deal = g.deals[0][0]
    assert g.actions((deal,)) == ("c", "r1", "r3")
    assert g.actions((deal, "c", "r3")) == ("f", "k", "r1", "r3")
    assert g.actions((deal, "r1", "r3")) == ("f", "k")  # the cap: two raises
    assert g.stakes(("c", "r3", "r1", "k")) == [5.0, 5.0]  # 1 + 3 + 1, called
    assert g.stakes(("r3", "f")) == [4.0, 1.0]
    bt = build_betting_tree(g)
    t = bt.tree
    assert sum(p for _, p in g.deals) == pytest.approx(1.0, abs=1e-15)
    assert np.allclose(t.utility.sum(axis=1), 0.0)  # zero-sum
    assert (bt.kind == KIND_CARRY).sum() == len(g.deals)  # one all-check per deal
    # a fold after A's raise of 3: B loses her ante, whatever the carried pot (level 2: 4 chips carried)
    u = bt.utility(2, (0.25, -0.25))
    fold = [n for n, kind, a, b in zip(bt.terminals, bt.kind, bt.stake_a, bt.stake_b) if kind == 1 and a == 4]
    assert np.allclose(u[fold, 0], 2.0 + 1.0)  # half the carried 4, and B's ante
    carry = bt.terminals[bt.kind == KIND_CARRY]
    assert np.all(u[carry, 0] == 0.25)
    assert t.keys[0].startswith("A3.3:") and t.keys[0].endswith("|")


def _lp_recursion(bt):
    """The level values by the exact LP, level by level (the recursion's second path)."""
    levels = bt.carry_limit + 1
    v = np.zeros(levels)
    for k in range(levels - 1, -1, -1):
        carry = None if k == levels - 1 else (-v[k + 1], v[k + 1])
        v[k] = solve_sequence_form(bt.level_tree(k, carry)).value
    return v


def _pot_profile(pot_tree, profiles):
    """The per-level profiles on the whole-pot tree: each information set plays its last level's set."""
    mapping = {}
    for key in pot_tree.keys:
        seat, *levels = key.split("/")
        k = len(levels) - 1
        role = "A" if int(seat[-1]) == k % 2 else "B"
        mapping[key] = profiles[k][1][f"{role}{levels[-1]}"]
    return profile_from_mapping(pot_tree, mapping)


def test_the_carried_pot_recursion_equals_the_pot_as_one_tree():
    spec = Abstraction("test3", quantiles=3, raise_sizes=(1, 2), policy_edges=False)
    bt = build_betting_tree(RococoBettingGame(TINY_RULES, small_model(), spec))
    v = _lp_recursion(bt)
    assert v == pytest.approx([-0.0577869, -0.03, 0.0066667], abs=1e-7)  # measured (levels 0, 1, 2)
    pot = build_tree(RococoPotGame(bt.game))  # 12,286 nodes
    whole = solve_sequence_form(pot)
    assert whole.value == pytest.approx(v[0], abs=1e-12)  # measured: 8e-17 apart
    # a pot strategy (one profile per level): its exploitability by the recursion and on the whole tree
    res = solve_equilibrium(spec, 60, rules=TINY_RULES, model=small_model(), policies=())
    from ricochet_math.equilibrium.best_response import profile_to_mapping

    profs = [(k, profile_to_mapping(bt.tree, s)) for k, s in enumerate(res.profiles)]
    sigma = _pot_profile(pot, profs)
    e = exploitability(pot, sigma)
    assert res.nash_conv == pytest.approx(e.nash_conv, abs=1e-12)
    assert res.values[0] == pytest.approx(e.values[0], abs=1e-12)
    lo, hi = res.value_bounds
    assert lo - 1e-12 <= v[0] <= hi + 1e-12
    # and the carry probability of level 0 from the reach of its carry terminals
    reach = terminal_reach(bt, res.profiles[0])
    assert reach.sum() == pytest.approx(1.0, abs=1e-12)
    assert res.carry[0] == pytest.approx(reach[bt.kind == KIND_CARRY].sum(), abs=1e-15)


def test_terminal_reach_against_a_recursion():
    bt = build_betting_tree(RococoBettingGame(TINY_RULES, two_count_model(), SPEC))
    t = bt.tree
    rng = np.random.default_rng(3)
    sigma = rng.random(t.num_entries)
    for i in range(t.num_infosets):
        sigma[t.offset[i]:t.offset[i + 1]] /= sigma[t.offset[i]:t.offset[i + 1]].sum()
    want = np.zeros(t.num_nodes)

    def walk(n, r):
        want[n] = r
        for j in range(t.num_children[n]):
            c = t.first_child[n] + j
            p = t.chance_prob[c] if t.player[n] == -1 else sigma[t.offset[t.infoset[n]] + j]
            walk(c, r * p)

    walk(0, 1.0)
    assert np.allclose(terminal_reach(bt, sigma), want[bt.terminals], rtol=0, atol=1e-15)


def test_cfr_plus_converges_on_the_levels():
    res = solve_equilibrium(SPEC, 400, rules=TINY_RULES, model=two_count_model(), every=100, policies=())
    curve = res.curves[res.curves.level == 0].nash_conv.to_numpy()
    assert len(curve) == 4 and curve[-1] < curve[0]
    assert res.nash_conv < 2e-4  # measured 4.7e-5 after 400 iterations a level
    bt = build_betting_tree(RococoBettingGame(TINY_RULES, two_count_model(), SPEC))
    assert res.values[0] == pytest.approx(_lp_recursion(bt)[0], abs=res.nash_conv)
    assert res.games_per_pot == pytest.approx(1 + res.carry[0] + res.carry[0] * res.carry[1], abs=1e-15)
    frame = res.to_frame()
    assert set(frame.level) == {0, 1, 2}
    sums = frame.groupby(["level", "infoset"]).probability.sum()
    assert np.allclose(sums, 1.0)
    assert "exploitability" in res.summary()


def test_named_policies_on_the_tree():
    rules = RococoRules(max_bet=3, max_raises=2, carry_limit=1)
    bt = build_betting_tree(RococoBettingGame(rules, small_model(), Abstraction("t", 1, (1, 3))))
    sigma = policy_profile(bt, "standard")
    t = bt.tree
    two_pair = bt.game.buckets.bucket_of(3, pattern_value("two pair") + 5)
    kk = bt.game.buckets.bucket_of(3, pattern_value("KK") + 5)
    sixes = bt.game.buckets.bucket_of(3, pattern_value("66") + 5)

    def act(key):
        i = t.index[key]
        return t.actions[i][int(np.argmax(sigma[t.offset[i]:t.offset[i + 1]]))]

    assert act(f"A3.3:{two_pair}|") == "r1"  # standard opens two pair
    assert act(f"A3.3:{kk}|") == "c"
    assert act(f"B3.3:{kk}|r1") == "k"  # calls with JJ or better
    assert act(f"B3.3:{sixes}|r1") == "f"
    assert act(f"A3.3:{two_pair}|c.r3") == "k"  # never re-raises
    loose = policy_profile(bt, "loose")
    i = t.index[f"B3.3:{bt.game.buckets.bucket_of(3, pattern_value('three of a kind') + 5)}|r1"]
    assert t.actions[i][int(np.argmax(loose[t.offset[i]:t.offset[i + 1]]))] == "r3"  # re-raises trips by 3
    # a policy's exploitability by the recursion: a best response as either seat, every level
    prof = [sigma] * 2
    f, s = pot_best_responses(bt, prof)
    assert f[0] >= pot_value(bt, prof, prof) - 1e-12 and s[0] >= -pot_value(bt, prof, prof) - 1e-12
    pot = build_tree(RococoPotGame(bt.game))
    from ricochet_math.equilibrium.best_response import profile_to_mapping

    whole = _pot_profile(pot, [(k, profile_to_mapping(t, sigma)) for k in range(2)])
    assert f[0] + s[0] == pytest.approx(exploitability(pot, whole).nash_conv, abs=1e-12)
    with pytest.raises(StrategyError, match="raises 3, which abstraction 'u' lacks"):
        policy_profile(build_betting_tree(RococoBettingGame(rules, small_model(), Abstraction("u", 1, (1, 2)))),
                       "loose")


def test_translation_to_every_raise_size():
    assert translate_history(("r2", "r7", "r10", "k"), (1, 3, 10)) == ("r1", "r10", "r10", "k")
    assert translate_history(("c", "r5"), (1, 3, 10)) == ("c", "r3")
    rules = RococoRules(max_bet=3, max_raises=2, carry_limit=1)
    spec = Abstraction("t", 1, (1, 3))
    bt = build_betting_tree(RococoBettingGame(rules, small_model(), spec))
    fb = build_betting_tree(RococoBettingGame(rules, small_model(), spec.unabstracted_betting()))
    assert fb.game.sizes == (1, 2, 3)
    res = solve_equilibrium(spec, 200, rules=rules, model=small_model(), full_betting=True,
                            policies=("standard", "loose"))
    full = [translate_profile(bt, s, fb) for s in res.profiles]
    # played against itself the translated strategy never raises 2: the same values
    assert pot_value(fb, full, full) == pytest.approx(pot_value(bt, res.profiles, res.profiles), abs=1e-12)
    # more ways to respond: never less exploitable
    assert res.nash_conv_full >= res.nash_conv - 1e-12
    # the named policies raise only 1 or 3: their exploitability is the same in both trees? Not in general
    # (a best response may raise 2 against them), never smaller
    p = res.policies.set_index("policy")
    assert (p.exploitability_full >= p.exploitability - 1e-12).all()
    assert (p.exploitability > 0).all()


def test_errors_are_one_line():
    with pytest.raises(RicochetError, match="unknown Rococo abstraction 'huge'"):
        abstraction("huge")
    for bad in (0, -5, 10**12, 2.5, True):
        with pytest.raises(RicochetError, match="iterations"):
            solve_equilibrium(SPEC, bad, rules=TINY_RULES, model=small_model())
    with pytest.raises(RicochetError, match="heads-up"):
        RococoBettingGame(RococoRules(players=3), small_model(), SPEC)
    with pytest.raises(StrategyError, match="unknown Rococo policy"):
        solve_equilibrium(SPEC, 10, rules=TINY_RULES, model=small_model(), policies=("nope",))
    with pytest.raises(RicochetError, match="no raise size"):
        RococoBettingGame(RococoRules(max_bet=2), small_model(), Abstraction("big", 1, (5, 10)))
    bt = build_betting_tree(RococoBettingGame(TINY_RULES, small_model(), SPEC))
    with pytest.raises(RicochetError, match="does not cover information set 'A3.3:0|'"):
        profile_from_mapping(bt.tree, {})


def _cli(*args):
    """``ricochet rococo equilibrium ARGS`` in this process (tests/cli_run.py: the entry point's parser and
    handler, without a Python start-up per call; tests/cli/test_cli.py checks the installed entry point)."""
    return run_cli("rococo", "equilibrium", *args)


def _cli_process(*args):
    """The same in a process of its own: the folder records the command line the process was given."""
    return subprocess.run([sys.executable, "-m", "ricochet_math", "rococo", "equilibrium", *args],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args, message", [
    (["--abstraction", "huge"], "invalid choice: 'huge'"),
    (["--iterations", "0"], "--iterations"),
    (["--iterations", "-3"], "--iterations"),
    (["--iterations", "10000000000000"], "--iterations"),
])
def test_cli_refuses_bad_arguments(args, message):
    r = _cli(*args)
    assert r.returncode == 2
    assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_cli_choices_are_the_library_s():
    from ricochet_math.cli import rococo as cli
    from ricochet_math.equilibrium.solving import MAX_ITERATIONS
    from ricochet_math.games.rococo.betting_game import ABSTRACTIONS

    assert cli.ABSTRACTION_NAMES == tuple(ABSTRACTIONS) and cli.MAX_ITERATIONS == MAX_ITERATIONS


def test_cli_solves_and_writes_a_folder_and_refuses_a_foreign_one(tmp_path):
    """The real draw model at ``tiny`` on a short table (bets 1..3, two raises, carry limit 1): a few
    seconds, most of them the draw solver's table."""
    out = tmp_path / "eq"
    r = _cli_process("--iterations", "50", "--carry-limit", "1", "--max-bet", "3", "--max-raises", "2", "--out",
                     str(out))
    assert r.returncode == 0, r.stderr
    assert "exploitability" in r.stdout and "standard" in r.stdout and "carry_probability" in r.stdout
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == [
        "curves.csv", "levels.csv", "policies.csv", "strategy.csv", "summary.txt"]
    assert "command: ricochet rococo equilibrium --iterations 50" in (out / "summary.txt").read_text()
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me")
    r = _cli("--iterations", "5", "--carry-limit", "0", "--out", str(foreign))
    assert r.returncode == 2 and "was not written by ricochet_math" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert [p.name for p in foreign.iterdir()] == ["notes.txt"] and (foreign / "notes.txt").read_text() == "keep me"


def test_cli_refuses_bad_raise_sizes():
    r = _cli("--raise-sizes", "1,x")
    assert r.returncode == 2 and "--raise-sizes" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    # sizes outside the table's bets: refused by the game (test_errors_are_one_line), after the draw model loads


def test_a_policy_the_tree_cannot_play_is_refused_before_the_solve(monkeypatch):
    import ricochet_math.games.rococo.equilibrium as eq

    def no_solve(*args, **kwargs):
        raise AssertionError("solved before the policies were checked")

    monkeypatch.setattr(eq, "solve", no_solve)
    with pytest.raises(StrategyError, match="policy 'loose' raises 3"):
        eq.solve_equilibrium(Abstraction("u", 1, (1, 2)), 10, rules=RococoRules(max_bet=3, carry_limit=1),
                             model=small_model())


def test_checkpoint_folder_resumes_with_the_same_digits_and_refuses_what_is_not_its_own(tmp_path):
    from ricochet_math.equilibrium.solving import solve

    kw = dict(rules=TINY_RULES, model=small_model(), policies=("standard",), every=20)
    straight = solve_equilibrium(SPEC, 60, **kw)
    folder = tmp_path / "ck"
    done = solve_equilibrium(SPEC, 60, checkpoint=folder, **kw)
    assert sorted(p.name for p in folder.glob("level-*.npz")) == ["level-00.npz", "level-01.npz", "level-02.npz"]
    assert np.array_equal(done.values, straight.values)
    # killed during level 0 after 40 of its 60 iterations: levels 1 and 2 done, level 0 part-way
    bt = build_betting_tree(RococoBettingGame(TINY_RULES, small_model(), SPEC))
    (folder / "level-00.npz").unlink()
    solve(bt.level_tree(0, (-done.values[1], done.values[1])), "cfr+", 40, every=20,
          checkpoint=folder / "level-00.npz")
    resumed = solve_equilibrium(SPEC, 60, checkpoint=folder, **kw)
    assert np.array_equal(resumed.values, straight.values) and resumed.nash_conv == straight.nash_conv
    assert all(np.array_equal(a, b) for a, b in zip(resumed.profiles, straight.profiles))
    assert resumed.curves.equals(straight.curves)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    # another count, another abstraction, a damaged level: one line each, nothing written
    with pytest.raises(RicochetError, match="of a solve of 60 iterations a level, not 80"):
        solve_equilibrium(SPEC, 80, checkpoint=folder, **kw)
    other = Abstraction("other", quantiles=1, raise_sizes=(1, 2), policy_edges=False)
    with pytest.raises(RicochetError, match="level-02.npz is of .*another game or abstraction") as err:
        solve_equilibrium(other, 60, checkpoint=folder, **kw)
    assert "\n" not in str(err.value)
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    (folder / "level-02.npz").write_bytes(b"not a checkpoint")
    with pytest.raises(RicochetError, match="level-02.npz"):
        solve_equilibrium(SPEC, 60, checkpoint=folder, **kw)
    assert (folder / "level-02.npz").read_bytes() == b"not a checkpoint"
    # a folder the toolkit did not write
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep")
    with pytest.raises(RicochetError, match="was not written by ricochet_math"):
        solve_equilibrium(SPEC, 20, checkpoint=mine, **kw)
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]


def test_the_guide_quotes_the_committed_tables():
    """docs/rococo-poker.md's equilibrium figures are those of reports/rococo-equilibrium/ (rounded)."""
    import re
    from pathlib import Path

    import pandas as pd

    root = Path(__file__).resolve().parents[2]
    guide = (root / "docs" / "rococo-poker.md").read_text(encoding="utf-8")
    for folder, raises in (("tiny", "1, 3, 10"), ("tiny-raises-1-2-3-5-10", "1, 2, 3, 5, 10")):
        here = root / "reports" / "rococo-equilibrium" / folder
        levels = pd.read_csv(here / "levels.csv")
        summary = (here / "summary.txt").read_text(encoding="utf-8")
        nash = float(re.search(r"exploitability \(NashConv\) ([0-9.e-]+) in the abstract", summary).group(1))
        full = float(re.search(r"tree, ([0-9.e-]+) antes per pot with every raise size", summary).group(1))
        lo, hi = (float(x) for x in re.search(r"within \[([-0-9.]+), ([-0-9.]+)\]", summary).groups())
        row = (f"| {raises} | {{}} nodes | {nash:.3g} | {full:.3g} | {levels.first_player_value[0]:.4f} "
               f"[{lo:.4f}, {hi:.4f}] | {levels.carry_probability[0]:.1%} |")
        nodes = re.search(r"2 players, ([0-9,]+) nodes", summary).group(1)
        assert row.format(nodes) in guide, row.format(nodes)
    policies = pd.read_csv(root / "reports" / "rococo-equilibrium" / "tiny" / "policies.csv").set_index("policy")
    for name, label in (("standard", "standard (and naive)"), ("loose", "loose"), ("tight", "tight"),
                        ("passive", "passive")):
        r = policies.loc[name]
        line = (f"| {label} | {r.exploitability:.3f} | {r.exploitability_full:.3f} | "
                f"{r.exploitability_exact_cards:.3f} | {r.vs_equilibrium:.3f} | "
                f"{r.vs_equilibrium_as_first:.3f} | {r.vs_equilibrium_as_second:.3f} | {r.self_games_per_pot:.3f} |")
        assert line in guide, line
    summary = (root / "reports" / "rococo-equilibrium" / "tiny" / "summary.txt").read_text(encoding="utf-8")
    cards, both = re.search(r"; ([0-9.]+) against best responses that know their exact final value \(([0-9.]+) with",
                            summary).groups()
    assert f"**{float(cards):.3f}** against best responses that know their exact final value" in guide
    assert f"**{float(both):.3f}** with both" in guide


@pytest.mark.slow
def test_the_draw_model_is_the_draw_solver_s_final_distribution():
    """The discard-count mixture of the conditional final distributions is the optimal drawer's final
    distribution of the draw solver, exactly up to float rounding (its whole-number counts normalised)."""
    from ricochet_math.games.rococo.betting_game import draw_model
    from ricochet_math.games.rococo.solver import solve_draws

    m = draw_model()
    final = solve_draws(1).final.astype(float)
    assert m.discard_prob @ m.final == pytest.approx(final / final.sum(), abs=1e-15)
    assert m.discard_prob == pytest.approx([0.0074630, 0.0699018, 0.1054914, 0.8171438], abs=1e-7)


def test_the_exact_card_best_response():
    from ricochet_math.games.rococo.exact_cards import exact_card_best_response, pot_exact_card_best_responses

    rules = RococoRules(max_bet=3, max_raises=2, carry_limit=1)
    # buckets of one value each: knowing the value is knowing the bucket, so it is the layer's best response
    bt = build_betting_tree(RococoBettingGame(rules, small_model(), Abstraction("t", 1, (1, 3))))
    assert all(np.count_nonzero(row) == 1 for row in bt.game.buckets.dist[3])
    rng = np.random.default_rng(11)
    sigma = rng.random(bt.tree.num_entries)
    for i in range(bt.tree.num_infosets):
        sigma[bt.tree.offset[i]:bt.tree.offset[i + 1]] /= sigma[bt.tree.offset[i]:bt.tree.offset[i + 1]].sum()
    for p in (0, 1):
        for level, carry in ((0, (0.3, -0.2)), (1, None)):
            want = best_response(bt.level_tree(level, carry), sigma, p)[0]
            got = exact_card_best_response(bt, sigma, p, level, None if carry is None else carry[p])
            assert got == pytest.approx(want, abs=1e-12)
    # coarse buckets: knowing the value is worth something, never less than nothing
    coarse = build_betting_tree(RococoBettingGame(rules, two_count_model(),
                                                  Abstraction("q", 1, (1, 3), policy_edges=False)))
    res = solve_equilibrium(coarse.game.spec, 100, rules=rules, model=two_count_model(), policies=())
    f, s = pot_best_responses(coarse, res.profiles)
    fx, sx = pot_exact_card_best_responses(coarse, res.profiles)
    assert fx[0] >= f[0] - 1e-12 and sx[0] >= s[0] - 1e-12
    assert fx[0] + sx[0] > f[0] + s[0] + 0.1  # one bucket per discard count: the cards matter a lot


def test_solve_measures_the_card_abstraction_when_asked():
    rules = RococoRules(max_bet=3, max_raises=2, carry_limit=1)
    spec = Abstraction("q", 2, (1, 3))
    res = solve_equilibrium(spec, 100, rules=rules, model=two_count_model(), policies=("standard",),
                            exact_cards=True, full_betting=True)
    assert res.nash_conv_exact_cards >= res.nash_conv - 1e-12
    assert res.nash_conv_exact_cards_full >= max(res.nash_conv_full, res.nash_conv_exact_cards) - 1e-12
    p = res.policies.set_index("policy").loc["standard"]
    assert p.exploitability_exact_cards >= p.exploitability - 1e-12
    assert "exact final value" in res.summary()
