"""Write the analysis notebooks (without outputs) from the cell texts below.

    python notebooks/make_notebooks.py            # (re)write notebooks/*.ipynb
    python notebooks/make_notebooks.py --check    # exit 1 if a committed notebook differs

The notebooks are generated so that they stay reproducible and reviewable: edit
the cells here, run this script, commit both.  Cell ids are fixed (not random)
so regenerating an unchanged notebook gives the same bytes.  Every notebook
reads one size parameter, ``RICOCHET_NB_SIZE`` (``tiny`` for the test suite,
``moderate`` by default, ``full`` for an analyst's long run), in its first code
cell, and calls only the public ``ricochet_math`` API.
"""
from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent

SIZE_CELL = '''\
# The one size parameter: "tiny" (the test suite: seconds, the figures mean nothing),
# "moderate" (the default: a few minutes on 2 cores once the exact N = 1 analysis is cached)
# or "full" (an analyst's run: long).  Set RICOCHET_NB_SIZE in the environment or edit this line.
import os

SIZE = os.environ.get("RICOCHET_NB_SIZE", "moderate")
assert SIZE in ("tiny", "moderate", "full"), f"RICOCHET_NB_SIZE must be tiny, moderate or full, not {SIZE!r}"
RULES = "publisher"          # a shipped rule-set name or a path to a rule-set TOML file
SEED = 2026                  # one seed for every Monte Carlo run (common random numbers)
# The exact one-player analysis covers all 169 starting-hand classes (about 3 minutes the first time
# for a rule set, then read from the disk cache in a second); "tiny" samples two classes only.
SOLO_CLASSES = [0, 84] if SIZE == "tiny" else None
'''


def md(text: str):
    return nbformat.v4.new_markdown_cell(textwrap.dedent(text).strip())


def code(text: str):
    return nbformat.v4.new_code_cell(textwrap.dedent(text).strip())


# ---------------------------------------------------------------------------------------------- 01
NB01 = [
    md("""
    # 01 - The publisher's figures, reproduced side by side

    The second casino page of the rulebook publishes five figures (RTP 95.97% to 96.91% with perfect
    play over 1-7 players; fold frequency 22.9% solo and 10.94% with seven players; one perfect player's
    win frequency 25.79% with three players; weak players "closer to 90%").  It does not say which
    strategy model, RTP convention or paytable produced them, so
    `ricochet_math.reports.published.published_figures` computes each figure under every strategy reading of
    the spec.  N = 1 is exact; N >= 2 is Monte Carlo with 95% intervals.
    """),
    code(SIZE_CELL),
    code("""
    ROUNDS = {"tiny": 300, "moderate": 5_000, "full": 200_000}[SIZE]      # per player count and reading
    PLAYERS = [3, 7] if SIZE == "tiny" else list(range(2, 8))
    READINGS = ("perfect", "myopic", "pot-odds-final") if SIZE == "tiny" else None   # None: every reading
    """),
    code("""
    import matplotlib.pyplot as plt
    import pandas as pd

    from ricochet_math.reports.published import PUBLISHED, READINGS as ALL_READINGS, published_figures
    from ricochet_math.rules.ruleset import load_rules
    from ricochet_math.solvers.solo import solo_analysis

    rules = load_rules(RULES)
    print(rules.summary())
    pd.DataFrame(PUBLISHED, columns=["id", "figure", "published", "source"])
    """),
    md("The exact one-player analyses (perfect play, and perfect play ignoring the bonus when deciding):"),
    code("""
    solo = solo_analysis(rules, classes=SOLO_CLASSES, progress=SIZE != "tiny")
    solo_no_bonus = solo_analysis(rules, classes=SOLO_CLASSES, use_bonus=False, progress=SIZE != "tiny")
    print(solo.summary())
    """),
    code("""
    figures = published_figures(rules, rounds=ROUNDS, seed=SEED, players=PLAYERS,
                                readings=READINGS or ALL_READINGS, solo=solo, solo_no_bonus=solo_no_bonus,
                                progress=SIZE == "full")
    table = figures.to_frame()
    table.style.format({c: "{:.2%}" for c in ("published", "computed", "ci_low", "ci_high", "difference")})
    """),
    md("Figures as rows, readings as columns (computed values):"),
    code("""
    figures.wide().round(4)
    """),
    md("Which reading comes closest to each published figure:"),
    code("""
    closest = (table.assign(gap=table["difference"].abs())
                    .sort_values("gap").groupby("figure", sort=False).head(1)
                    [["figure", "published", "reading", "computed", "ci_low", "ci_high", "difference"]])
    closest.style.format({c: "{:.2%}" for c in ("published", "computed", "ci_low", "ci_high", "difference")})
    """),
    code("""
    by = figures.by_players
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for reading, g in by.groupby("reading", sort=False):
        axes[0].plot(g["players"], g["rtp_initial"], "o-", ms=3, label=reading)
        axes[1].plot(g["players"], g["fold_frequency"], "o-", ms=3, label=reading)
    axes[0].axhspan(0.9597, 0.9691, color="0.85", label="published range")
    axes[1].plot([1, 7], [0.229, 0.1094], "kx", ms=9, mew=2, label="published")
    axes[0].set(xlabel="players", ylabel="RTP per initial bet", title="RTP by reading")
    axes[1].set(xlabel="players", ylabel="fold frequency", title="Fold frequency by reading")
    for ax in axes:
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7)
    plt.show()
    """),
    md("Where the gaps come from, in the module's own words:"),
    code("""
    from IPython.display import Markdown

    Markdown(figures.to_markdown())
    """),
]

# ---------------------------------------------------------------------------------------------- 02
NB02 = [
    md("""
    # 02 - RTP, fold and win frequency by player count

    Perfect play for N = 1..7 players.  N = 1 is exact (`solo_analysis`); N >= 2 is Monte Carlo
    (`rtp_table`, one `simulate` run per player count, the same seed for each) with 95% intervals.
    Both RTP conventions are shown: per initial bet (1 + E[net] per ante) and per total wagered.
    """),
    code(SIZE_CELL),
    code("""
    ROUNDS = {"tiny": 300, "moderate": 5_000, "full": 200_000}[SIZE]      # per player count
    WEAK_ROUNDS = {"tiny": 20_000, "moderate": 200_000, "full": 5_000_000}[SIZE]
    """),
    code("""
    import matplotlib.pyplot as plt
    import pandas as pd

    from ricochet_math.rules.ruleset import load_rules
    from ricochet_math.solvers.montecarlo import rtp_table
    from ricochet_math.solvers.solo import solo_analysis

    rules = load_rules(RULES)
    solo = solo_analysis(rules, classes=SOLO_CLASSES, progress=SIZE != "tiny")
    exact = solo.at_threshold()
    one = {"players": 1, "method": "exact", "rounds": None,
           "rtp_initial": exact["rtp_per_initial_bet"], "rtp_initial_low": exact["rtp_per_initial_bet"],
           "rtp_initial_high": exact["rtp_per_initial_bet"], "rtp_wagered": exact["rtp_per_wagered"],
           "fold_frequency": exact["fold_frequency"], "win_frequency": exact["win_frequency"],
           "kickout_rate": exact["kickout_rate"], "sd_net": exact["std_net"]}
    results, frame = rtp_table(rules, range(2, 8), "perfect", ROUNDS, SEED, progress=SIZE == "full")
    frame = frame.assign(method="monte carlo")
    cols = list(one)
    table = pd.concat([pd.DataFrame([one]), frame[cols]], ignore_index=True)
    table.style.format({c: "{:.3%}" for c in cols if c not in ("players", "method", "rounds", "sd_net")})
    """),
    code("""
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    n = table["players"]
    err = [table["rtp_initial"] - table["rtp_initial_low"], table["rtp_initial_high"] - table["rtp_initial"]]
    axes[0].errorbar(n, table["rtp_initial"], yerr=err, fmt="o-", capsize=3, label="per initial bet")
    axes[0].plot(n, table["rtp_wagered"], "s--", label="per total wagered")
    axes[0].axhspan(0.9597, 0.9691, color="0.85", label="published range")
    axes[0].set(title="RTP", xlabel="players")
    axes[0].legend(fontsize=8)
    axes[1].plot(n, table["fold_frequency"], "o-")
    axes[1].plot([1, 7], [0.229, 0.1094], "kx", ms=9, mew=2, label="published")
    axes[1].set(title="Fold frequency", xlabel="players")
    axes[1].legend(fontsize=8)
    axes[2].plot(n, table["win_frequency"], "o-")
    axes[2].plot([3], [0.2579], "kx", ms=9, mew=2, label="published (3 players)")
    axes[2].set(title="Win frequency", xlabel="players")
    axes[2].legend(fontsize=8)
    for ax in axes:
        ax.grid(alpha=0.3)
    plt.show()
    """),
    md("For comparison: every seat playing every hand (`always`), cheap enough for many more rounds."),
    code("""
    _, always = rtp_table(rules, range(1, 8), "always", WEAK_ROUNDS, SEED, progress=False)
    always[["players", "rounds", "rtp_initial", "rtp_initial_low", "rtp_initial_high", "rtp_wagered",
            "win_frequency"]].round(5)
    """),
]

# ---------------------------------------------------------------------------------------------- 03
NB03 = [
    md("""
    # 03 - Paytable tuning: change the bonus and Cover tables, watch the RTP move, save a rule set

    Edit the two plain cells below (`BONUS`, `COVER`) and re-run the notebook from there.  Cover is
    exact (all 2,598,960 dealer hands).  The bonus is part of the main game: its one-player effect is
    exact for the current strategy (`SoloAnalysis.rtp_with_pays`; re-solve with `RESOLVE = True`), and a
    multi-player table is a Monte Carlo run on the same deals as the base rule set.
    """),
    code(SIZE_CELL),
    code("""
    ROUNDS = {"tiny": 300, "moderate": 5_000, "full": 100_000}[SIZE]      # the N = 4 comparison
    RESOLVE = False            # True: re-solve perfect play for the new bonus table (exact, minutes)
    OUT = "my-rules.toml"      # where the edited rule set is saved
    """),
    code("""
    import pandas as pd

    from ricochet_math.rules.ruleset import load_rules
    from ricochet_math.design.sidebets import cover
    from ricochet_math.solvers.montecarlo import simulate
    from ricochet_math.solvers.solo import solo_analysis
    from ricochet_math.design.tuning import tune_cover, tune_paytable

    rules = load_rules(RULES)
    print(rules.summary())
    print("BONUS =", {l.key: l.pays for l in rules.bonus})
    print("COVER =", {l.key: l.pays for l in rules.cover})
    """),
    md("## Edit these two tables (ante units for the bonus, 'to 1' for Cover)"),
    code("""
    # The shipped tables with two lines changed as an example (the shipped value in the comment).
    BONUS = {"straight": 2, "flush": 5, "full_house": 10, "four_of_a_kind": 25, "straight_flush": 100,
             "royal_flush": 500}                                              # royal_flush was 1000
    COVER = {"pair_of_fives": 1, "two_pair": 2, "three_of_a_kind": 3, "straight": 5, "flush": 7,
             "full_house": 10, "four_of_a_kind": 60, "straight_flush": 200,   # four_of_a_kind was 50
             "royal_flush": 2000}
    """),
    code("""
    new = rules.with_bonus(**BONUS).with_cover(**COVER).replace(name="my-rules",
                                                                description="publisher with an edited paytable")
    before, after = cover(rules), cover(new)
    print(f"Cover RTP {before.rtp:.4%} -> {after.rtp:.4%}  (hit frequency {after.hit_frequency:.4%}, "
          f"std dev {after.std_dev:.4f})")
    pd.concat({"before": before.to_frame().set_index("key")[["pays", "probability", "rtp_contribution"]],
               "after": after.to_frame().set_index("key")[["pays", "rtp_contribution"]]}, axis=1).round(6)
    """),
    md("The bonus, one player (exact):"),
    code("""
    solo = solo_analysis(rules, classes=SOLO_CLASSES, progress=SIZE != "tiny")
    pays = [0.0] + [float(BONUS[name]) for name in solo.line_names[1:]]
    base = solo.at_threshold()
    fixed = solo.rtp_with_pays(pays)
    print(f"N = 1 RTP per initial bet {base['rtp_per_initial_bet']:.4%} -> {fixed['rtp_per_initial_bet']:.4%} "
          "(same decisions)")
    if RESOLVE:
        resolved = solo_analysis(new, classes=SOLO_CLASSES, progress=True).at_threshold()
        print(f"  re-solved perfect play: {resolved['rtp_per_initial_bet']:.4%}")
    """),
    md("The bonus at a four-player table (Monte Carlo, the same deals for both rule sets):"),
    code("""
    a = simulate(rules, 4, "perfect", ROUNDS, SEED, progress=False)
    b = simulate(new, 4, "perfect", ROUNDS, SEED, progress=False)
    ra, rb = a.summary()["rtp_initial"], b.summary()["rtp_initial"]
    print(f"N = 4 RTP per initial bet {ra.estimate:.3%} -> {rb.estimate:.3%} "
          f"(difference {rb.estimate - ra.estimate:+.3%}; common random numbers)")
    """),
    md("""
    ## Let the tuner find tables for a target

    `tune_cover` solves the exact integer problem for Cover.  For the bonus, any RTP function plugs
    into `tune_paytable`; here the exact one-player RTP with the current decisions.
    """),
    code("""
    cover_target = round(before.rtp + 0.005, 3)
    tuned_cover = tune_cover(rules, target=cover_target, free_lines=["four_of_a_kind", "straight_flush",
                                                                      "royal_flush"],
                             step={"straight_flush": 50, "royal_flush": 500}, n_best=3)
    print(tuned_cover.summary())
    tuned_cover.to_frame().round(6)
    """),
    code("""
    def bonus_rtp(p):
        return solo.rtp_with_pays([0.0] + [float(p[name]) for name in solo.line_names[1:]])["rtp_per_initial_bet"]

    bonus_target = round(base["rtp_per_initial_bet"] - 0.002, 4)
    tuned_bonus = tune_paytable(bonus_rtp, rules.bonus, ["flush", "full_house", "four_of_a_kind"],
                                target=bonus_target, tolerance=0.0005, n_best=3, rules=rules, section="bonus")
    print(tuned_bonus.summary())
    tuned_bonus.to_frame().round(6)
    """),
    md("## Save the edited rule set and load it back"),
    code("""
    from pathlib import Path

    Path(OUT).write_text(new.to_toml(), encoding="utf-8")
    again = load_rules(OUT)
    print(again.summary())
    assert again.bonus == new.bonus and again.cover == new.cover
    """),
]

# ---------------------------------------------------------------------------------------------- 04
NB04 = [
    md("""
    # 04 - Kickout thresholds: RTP against the dealer's threshold, and the finder

    The dealer folds ("is kicked out") when her five-card hand is at or above the threshold for the
    number of players.  One player is exact for every threshold at once (the decision while she is in
    does not depend on it); more players are Monte Carlo with common random numbers (every threshold
    on the same deals).
    """),
    code(SIZE_CELL),
    code("""
    ROUNDS = {"tiny": 200, "moderate": 5_000, "full": 100_000}[SIZE]      # per threshold, N >= 2
    GRID_MC = (["AA", "TTxx", "222"] if SIZE == "tiny" else
               ["KK", "AA", "AAQ", "66xx", "TTxx", "AAxx", "222", "QQQ", "A2345"])
    MC_PLAYERS = 3
    """),
    code("""
    import matplotlib.pyplot as plt

    from ricochet_math.errors import RuleError
    from ricochet_math.design.kickout import DEFAULT_GRID, find_kickout, kickout_curve
    from ricochet_math.rules.ruleset import load_rules
    from ricochet_math.solvers.solo import solo_analysis

    rules = load_rules(RULES)
    solo = solo_analysis(rules, classes=SOLO_CLASSES, progress=SIZE != "tiny")
    curve1 = kickout_curve(rules, players=1, grid=DEFAULT_GRID, solo=solo)
    print(curve1.method, "- the rule set's threshold:", rules.kickout[1])
    curve1.to_frame()[["pattern", "hand", "rtp_per_initial_bet", "rtp_per_wagered", "kickout_rate",
                       "fold_frequency", "win_frequency"]].round(5)
    """),
    code("""
    f = curve1.to_frame()
    fig, ax = plt.subplots(figsize=(10, 4))
    ax.plot(f["pattern"], f["rtp_per_initial_bet"], "o-", label="RTP per initial bet")
    ax.plot(f["pattern"], f["rtp_per_wagered"], "s--", label="RTP per total wagered")
    if rules.kickout[1] in list(f["pattern"]):
        ax.axvline(list(f["pattern"]).index(rules.kickout[1]), color="C3", ls="--", label="rule set")
    ax.set(xlabel="kickout threshold", ylabel="RTP", title="One player, exact")
    ax.tick_params(axis="x", rotation=45)
    ax.grid(alpha=0.3)
    ax.legend()
    plt.show()
    """),
    md("The finder: the threshold whose RTP is closest to a target, and the two that bracket it."),
    code("""
    lo, hi = f["rtp_per_initial_bet"].min(), f["rtp_per_initial_bet"].max()
    TARGET = 0.965 if lo <= 0.965 <= hi else round((lo + hi) / 2, 4)   # a sampled (tiny) run has other RTPs
    find_kickout(rules, players=1, target_rtp=TARGET, curve=curve1)
    """),
    md("More players: Monte Carlo, perfect play, the same deals at every threshold."),
    code("""
    curve3 = kickout_curve(rules, players=MC_PLAYERS, grid=GRID_MC, rounds=ROUNDS, seed=SEED,
                           progress=SIZE == "full")
    print(curve3.method)
    g = curve3.to_frame()
    fig, ax = plt.subplots(figsize=(10, 4))
    ax.errorbar(g["pattern"], g["rtp_per_initial_bet"],
                yerr=[g["rtp_per_initial_bet"] - g["rtp_ci_low"], g["rtp_ci_high"] - g["rtp_per_initial_bet"]],
                fmt="o-", capsize=3)
    ax.set(xlabel="kickout threshold", ylabel="RTP per initial bet (95% CI)", title=f"{MC_PLAYERS} players")
    ax.grid(alpha=0.3)
    plt.show()
    try:
        print(find_kickout(rules, players=MC_PLAYERS, target_rtp=0.965, curve=curve3))
    except RuleError as exc:
        print("finder:", exc)
    """),
]

# ---------------------------------------------------------------------------------------------- 05
NB05 = [
    md("""
    # 05 - What perfect play looks like, and what weak play costs

    The exact one-player strategy chart (for each two-card hand, the strongest dealer hand still played
    against), the advice for single tables, and the RTP of the weak-player profiles next to perfect play.
    """),
    code(SIZE_CELL),
    code("""
    ROUNDS = {"tiny": 300, "moderate": 5_000, "full": 100_000}[SIZE]      # perfect play, N = 4
    WEAK_ROUNDS = {"tiny": 20_000, "moderate": 500_000, "full": 5_000_000}[SIZE]
    PROFILES = ["always", "pair", "timid", "chaser", "dealer-only", "bonus-hunter"]
    """),
    code("""
    import matplotlib.pyplot as plt
    import numpy as np
    import pandas as pd

    from ricochet_math.solvers.advise import advise
    from ricochet_math.rules.ruleset import load_rules
    from ricochet_math.solvers.montecarlo import simulate
    from ricochet_math.solvers.solo import solo_analysis, solo_deal

    rules = load_rules(RULES)
    solo = solo_analysis(rules, classes=SOLO_CLASSES, progress=SIZE != "tiny")
    chart = solo.strategy_chart()
    chart.sort_values("fold_frequency_dealer_in", ascending=False).head(15)
    """),
    md("The chart as a grid: pairs on the diagonal, suited hands above it, offsuit below; the colour is "
       "the strongest dealer hand value still played against (blank: never plays or not analysed)."),
    code("""
    solo.plot_strategy()
    plt.show()
    solo.strategy_grid().iloc[:6, :6]
    """),
    md("Single decisions: one solo deal, exact over its 14,190 draws, and a two-player table under each "
       "strategy reading."),
    code("""
    print(solo_deal(rules, "Ah Kd", "Qs Qd 7c 4h 2s"))
    readings = ["perfect", "perfect-no-bonus", "myopic", "pot-odds-now", "pot-odds-final"]
    pd.DataFrame([advise(rules, dealer="Ks Kd 7c 4h 2s", players=["Ad 9c", "7s 7h"], reading=r).to_frame().iloc[0]
                  for r in readings])[["reading", "hand", "to_beat", "ev_play", "ev_fold", "p_win", "decision"]]
    """),
    md("What weak play costs: every seat playing the profile, the same deals as perfect play."),
    code("""
    rows = [{"players": 1, "strategy": "perfect", "rtp": solo.at_threshold()["rtp_per_initial_bet"]}]
    perfect4 = simulate(rules, 4, "perfect", ROUNDS, SEED, progress=False).summary()["rtp_initial"]
    rows.append({"players": 4, "strategy": "perfect", "rtp": perfect4.estimate})
    for n in (1, 4):
        for p in PROFILES:
            r = simulate(rules, n, p, WEAK_ROUNDS, SEED, progress=False).summary()["rtp_initial"]
            rows.append({"players": n, "strategy": p, "rtp": r.estimate})
    cost = pd.DataFrame(rows)
    cost["cost_vs_perfect"] = cost["rtp"] - cost.groupby("players")["rtp"].transform("first")
    cost.round(4)
    """),
    code("""
    fig, ax = plt.subplots(figsize=(10, 4))
    wide = cost.pivot(index="strategy", columns="players", values="rtp").loc[["perfect"] + PROFILES]
    wide.plot.bar(ax=ax)
    ax.axhline(0.90, color="k", ls=":", label="published 'closer to 90%'")
    ax.set(ylabel="RTP per initial bet", title="Perfect play and the weak profiles")
    ax.legend()
    ax.grid(alpha=0.3, axis="y")
    plt.show()
    """),
]

def ring_poker_notebook() -> list:
    """07: Ring Poker (``ricochet_math.games.ring``): arrangements, seats and order, strategies."""
    return [
        md("""
        # 07 - Ring Poker: arrangements, seats and order, drafting strategies

        Ring Poker (`shared/seeds/002`): 2 or 3 players take adjacent pairs from a ring of six piles over
        nine rounds, then build three five-card hands from 18 cards, scored slot by slot.  The rules and
        our readings are in `docs/rules.md` ("Ring Poker"); the methods in `docs/ring-poker.md`.  Jokers
        are bugs by default (the publisher's advice for its home game).
        """),
        code("""
        # The one size parameter: "tiny" (the test suite: seconds, the figures mean nothing),
        # "moderate" (the default: minutes on 2 cores) or "full" (long).
        import os
        import time

        import numpy as np
        import ricochet_math as rm

        SIZE = os.environ.get("RICOCHET_NB_SIZE", "moderate")
        assert SIZE in ("tiny", "moderate", "full"), f"RICOCHET_NB_SIZE must be tiny, moderate or full, not {SIZE!r}"
        GAMES = {"tiny": 200, "moderate": 20_000, "full": 100_000}[SIZE]
        PAIR_GAMES = {"tiny": 100, "moderate": 2_000, "full": 10_000}[SIZE]
        SEED = 2026
        """),
        md("""
        ## The arrangement solver

        The best three hands from 18 cards, exact, for two objectives: `strongest` (lexicographic) and
        `points` (expected slot points against opponents dealt from the cards not held).  The two can
        differ a lot: the strongest-first arrangement spends the jokers on the top hand.
        """),
        code("""
        cards = "As Ad Ah Ac Jk Jk Ks Qs Js Ts 2c 3c 4c 5c 7d 8d 9d Td"
        for objective in ("strongest", "points"):
            a = rm.arrange(cards, objective=objective, samples=200 if SIZE == "tiny" else 1000, seed=SEED)
            print(f"{objective:9}: {a.summary()}")
        a.to_frame()
        """),
        code("""
        # time per arrangement on random holdings (one thread; a shared machine is slower)
        rng = np.random.default_rng(SEED)
        model = rm.opponent_model(rm.RingRules(), samples=500, seed=SEED)
        for objective in ("strongest", "points"):
            secs = [rm.arrange(rng.choice(54, 18, replace=False), objective=objective, opponent=model).seconds
                    for _ in range(50 if SIZE == "tiny" else 500)]
            print(f"{objective:9}: mean {1e3 * np.mean(secs):.3f} ms, max {1e3 * np.max(secs):.3f} ms")
        """),
        md("## One game, round by round"),
        code("""
        deck = np.random.default_rng(SEED).permutation(54)
        game = rm.play_ring_game(rm.RingRules(players=3), deck, ["greedy", "lookahead", "denial"])
        print(game.summary())
        """),
        md("""
        ## Seat and order

        Every seat greedy.  Seat 0 chooses first in round 1; the rule rotates the first player, so with
        two players seat 0 chooses first in five rounds of nine.  The variant without rotation keeps seat
        0 first every round.  The test of equal chances is a Wald test of equal win shares.
        """),
        code("""
        rows = []
        for players in (2, 3):
            for rotate in (True, False):
                sim = rm.simulate_ring(rm.RingRules(players=players, rotate=rotate), None, GAMES, SEED)
                f = sim.to_frame()
                f.insert(0, "rotate", rotate)
                f.insert(0, "players", players)
                f["equal chances p"] = sim.equal_chances().p_value
                rows.append(f)
        import pandas as pd
        seats = pd.concat(rows, ignore_index=True)
        seats
        """),
        md("## Hand categories by slot (two players, greedy)"),
        code("""
        rm.simulate_ring(rm.RingRules(players=2), None, GAMES, SEED).category_frame()
        """),
        md("""
        ## Strategy pairings and best responses

        Each strategy at each seat against every other strategy at the other seats, on the same deals.
        """),
        code("""
        for players in (2, 3):
            table = rm.ring_pairings(rm.RingRules(players=players), games=PAIR_GAMES, seed=SEED)
            print(table.summary())
            display(table.best_responses())
        """),
    ]


def rococo_notebook() -> list:
    """08: Rococo Poker (ricochet_math.games.rococo): the draw solver, the strategy table, the betting policies."""
    return [
        md("""
        # 08 - Rococo Poker: the best exchange and the betting policies

        Rococo Poker (the publisher's five-card draw: ante 1, an optional blind game, one exchange of 0-3
        cards, one betting round, split pots, all-check carry-over; our reading in `docs/rules.md`) lives in
        `rm.rococo`.  This notebook solves the exchange against N opponents who also draw optimally (a
        fixed point, by counting over all 2,598,960 hands), prints the strategy table and where it differs
        from "keep the made hand", then simulates the betting policies.
        """),
        code("""
        # The one size parameter: "tiny" (the test suite: seconds once the solutions are cached on disk),
        # "moderate" (the default) or "full".  Set RICOCHET_NB_SIZE in the environment or edit this line.
        import os

        SIZE = os.environ.get("RICOCHET_NB_SIZE", "moderate")
        assert SIZE in ("tiny", "moderate", "full"), f"RICOCHET_NB_SIZE must be tiny, moderate or full, not {SIZE!r}"
        SEED = 2026
        OPPONENTS = [1] if SIZE == "tiny" else [1, 2, 3, 4, 5]
        POTS = {"tiny": 2_000, "moderate": 100_000, "full": 1_000_000}[SIZE]
        """),
        md("""
        ## One hand: the 26 keeps

        The exact final-hand distribution of every keep (by enumeration of the 47 unseen cards) and each
        keep's pot share against one opponent who draws optimally.
        """),
        code("""
        import ricochet_math as rm

        hand = "Kh Kd 7c 4s 2h"
        dist = rm.rococo.draw_distribution(hand)
        solution = rm.rococo.solve_draws(1)
        frame = dist.to_frame()
        frame.insert(2, "pot_share", solution.keep_shares(dist.hand))
        frame.sort_values("pot_share", ascending=False).head(8)
        """),
        md("""
        ## The fixed point converges

        Each step: the opponents' final-hand distribution -> the value of each final hand -> the best keep of
        every hand -> the distribution those keeps give.  `hands_changed` falls to zero; at the fixed point
        the mean pot share is exactly 1 / (N + 1), as it must be when everybody draws alike.
        """),
        code("""
        for n in OPPONENTS:
            s = rm.rococo.solve_draws(n)
            print(s.summary())
            display(s.iterations)
        """),
        md("""
        ## The strategy table, and where it beats the naive rule
        """),
        code("""
        table = rm.rococo.strategy_table(OPPONENTS)
        print(table.summary())
        display(table.versus_naive())
        table.by_shape()
        """),
        md("""
        ## Betting policies, the blind option, a best response
        """),
        code("""
        result = rm.rococo.simulate(["standard", "loose"], POTS, SEED)
        print(result.summary())
        display(result.rates())
        print(rm.rococo.blind_value("standard", "standard", players=2, pots=POTS, seed=SEED).summary())
        """),
        code("""
        grid = {} if SIZE != "tiny" else {"opens": ("KK", None), "calls": ("JJ",), "blind_rates": (0.0,)}
        response = rm.rococo.best_response("standard", 2, max(POTS // 4, 1_000), SEED, **grid)
        print(response.summary())
        response.to_frame().head(10)
        """),
        code("""
        print(rm.rococo.play_pot(["blinder", "loose"], SEED).text())
        """),
    ]


NOTEBOOKS = {
    "01-published-figures": NB01,
    "02-rtp-by-players": NB02,
    "03-paytable-tuning": NB03,
    "04-kickout-thresholds": NB04,
    "05-strategy": NB05,
    "07-ring-poker": ring_poker_notebook(),
    "08-rococo-poker": rococo_notebook(),
}


def build(name: str, cells) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata = {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    }
    for i, cell in enumerate(cells):
        cell = nbformat.from_dict(dict(cell))
        cell["id"] = f"{name[:2]}-{i:02d}"
        nb.cells.append(cell)
    nbformat.validate(nb)
    return nb


def text_of(nb) -> str:
    return nbformat.writes(nb) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare instead of writing; exit 1 on a difference")
    parser.add_argument("--out", default=str(HERE), help="folder to write (default: this folder)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    stale = []
    for name, cells in NOTEBOOKS.items():
        path = out / f"{name}.ipynb"
        text = text_of(build(name, cells))
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path.name)
        else:
            out.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    if stale:
        print("out of date (run python notebooks/make_notebooks.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
