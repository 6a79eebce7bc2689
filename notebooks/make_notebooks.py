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
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # the sibling generator modules, however this file is loaded

from nb_cells import code, md  # noqa: E402
from game_notebooks import (  # noqa: E402
    equilibrium_notebook, freeride_notebook, home_game_cells, ring_poker_notebook, rococo_notebook,
)

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
    from matplotlib.ticker import PercentFormatter

    from ricochet_math.reports.published import PUBLISHED, READINGS as ALL_READINGS, published_figures
    from ricochet_math.rules.ruleset import load_rules
    from ricochet_math.solvers.solo import solo_analysis

    rules = load_rules(RULES)
    print(rules.summary())
    published = pd.DataFrame(PUBLISHED, columns=["id", "figure", "published", "source"])
    published.style.format(lambda v: " to ".join(f"{x:.2%}" for x in v) if isinstance(v, tuple) else f"{v:.2%}",
                           subset=["published"]).hide(axis="index")
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
    wide = figures.wide()
    wide.style.format("{:.2%}", subset=list(wide.columns[1:])).hide(axis="index")
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
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
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

    Perfect play for N = 1..7 players.  N = 1 is exact (`exact_rtp_row`, from the exact solo analysis);
    N >= 2 is Monte Carlo (`rtp_table`, one `simulate` run per player count, the same seed for each) with
    95% intervals.  The Monte Carlo RTPs are the **controlled** estimates (control variates of exactly known
    mean: the same rounds, unbiased, a narrower interval; `ricochet rtp` shows the same figures); the plain
    sample means stay beside them as a check.  Both RTP conventions are shown: per initial bet
    (1 + E[net] per ante) and per total wagered.  Everything is in percent.
    """),
    code(SIZE_CELL),
    code("""
    ROUNDS = {"tiny": 150, "moderate": 4_000, "full": 100_000}[SIZE]      # per player count
    WEAK_ROUNDS = {"tiny": 4_000, "moderate": 200_000, "full": 5_000_000}[SIZE]
    """),
    code("""
    import matplotlib.pyplot as plt
    import pandas as pd
    from matplotlib.ticker import PercentFormatter

    from ricochet_math import exact_rtp_row, load_rules, rtp_table

    rules = load_rules(RULES)
    one = exact_rtp_row(rules, classes=SOLO_CLASSES, progress=SIZE != "tiny")      # N = 1: exact, one call
    results, mc = rtp_table(rules, range(2, 8), "perfect", ROUNDS, SEED, progress=SIZE == "full")
    mc["method"] = "monte carlo, control variates"
    for name in ("rtp_initial", "rtp_wagered"):          # the controlled RTPs, the plain ones kept beside them
        for end in ("", "_low", "_high"):
            mc[f"{name}_plain{end}"] = mc[name + end]
            mc[name + end] = mc[f"{name}_cv{end}"]
    table = pd.concat([one, mc], ignore_index=True)
    percent = ["rtp_initial", "rtp_initial_low", "rtp_initial_high", "rtp_wagered", "rtp_initial_plain",
               "rtp_initial_plain_low", "rtp_initial_plain_high", "fold_frequency", "win_frequency", "kickout_rate"]
    table[["players", "method"] + percent + ["sd_net"]].style.format("{:.3%}", subset=percent).format(
        "{:.3f}", subset=["sd_net"]).hide(axis="index")
    """),
    code("""
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    n = table["players"]
    err = [table["rtp_initial"] - table["rtp_initial_low"], table["rtp_initial_high"] - table["rtp_initial"]]
    axes[0].errorbar(n, table["rtp_initial"], yerr=err, fmt="o-", capsize=3, label="per initial bet (95% CI)")
    axes[0].plot(n, table["rtp_wagered"], "s--", label="per total wagered")
    axes[0].axhspan(0.9597, 0.9691, color="0.85", label="published range")
    axes[0].set(title="RTP (N = 1 exact, N >= 2 controlled)", xlabel="players")
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
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
        ax.grid(alpha=0.3)
    plt.show()
    """),
    md("For comparison: every seat playing every hand (`always`), cheap enough for many more rounds "
       "(RTP per initial bet, percent: the controlled estimate where the run keeps control variates, the "
       "plain mean otherwise)."),
    code("""
    _, always = rtp_table(rules, range(1, 8), "always", WEAK_ROUNDS, SEED, progress=False)
    rtp = "rtp_initial_cv" if "rtp_initial_cv" in always else "rtp_initial"
    cols = [rtp, f"{rtp}_low", f"{rtp}_high", "win_frequency"]
    always[["players", "rounds"] + cols].style.format("{:.3%}", subset=cols).format("{:,}", subset=["rounds"])
    """),
]

# ---------------------------------------------------------------------------------------------- 03
NB03 = [
    md("""
    # 03 - Paytable tuning: move the bonus and Cover pays, watch the RTP move, save a rule set

    The sliders below move the bonus pays (ante units), the Cover pays ("to 1") and the one-player
    kickout threshold; the exact figures update at once.  That is exact and instant because, with the
    players' decisions held fixed, the one-player RTP is linear in the pays and the analysis keeps its
    counts per dealer hand value (`SoloAnalysis.rtp_with_pays`), and Cover's RTP is linear in its pays
    (`cover_rtp_function`).  The button re-solves perfect play for the new table exactly
    (`solo_analysis`; minutes for a new bonus table at the moderate size, then cached).  Below the
    sliders the same functions are called without a browser, a multi-player table is compared on the
    same deals, the tuner finds tables for a target, and the edited rule set is saved.
    """),
    code(SIZE_CELL),
    code("""
    ROUNDS = {"tiny": 300, "moderate": 4_000, "full": 100_000}[SIZE]      # the N = 4 comparison
    OUT = "my-rules.toml"      # where the edited rule set is saved
    """),
    code("""
    import ipywidgets as widgets
    import pandas as pd
    from IPython.display import display

    from ricochet_math import cover, load_rules, pattern_value, simulate, solo_analysis
    from ricochet_math.design.kickout import DEFAULT_GRID
    from ricochet_math.design.tuning import bonus_rtp_function, cover_rtp_function, tune_cover, tune_paytable

    rules = load_rules(RULES)
    solo = solo_analysis(rules, classes=SOLO_CLASSES, progress=SIZE != "tiny")
    cover_rtp = cover_rtp_function(rules)        # exact, linear in the Cover pays
    print(rules.summary())
    """),
    md("## The exact figures for any pays (plain functions: the sliders call them, so can you)"),
    code("""
    def exact_figures(bonus, cover_pays, kickout):
        \"\"\"One player's main game (decisions held fixed) and Cover, exact, in percent, for bonus pays
        ``{line: ante units}``, Cover pays ``{line: to 1}`` and the one-player kickout pattern.\"\"\"
        pays = [0.0] + [float(bonus[name]) for name in solo.line_names[1:]]
        main = solo.rtp_with_pays(pays, threshold=pattern_value(kickout))
        return pd.Series({"main game N = 1, RTP per initial bet %": 100 * main["rtp_per_initial_bet"],
                          "main game N = 1, RTP per total wagered %": 100 * main["rtp_per_wagered"],
                          "main game N = 1, bonus hit frequency %": 100 * main["bonus_hit_frequency"],
                          "main game N = 1, sd of the net (antes)": main["std_net"],
                          "Cover RTP %": 100 * cover_rtp(cover_pays)}).round(4)


    def resolved_figures(bonus, kickout):
        \"\"\"Perfect play re-solved exactly for these bonus pays and kickout pattern (one player, percent).\"\"\"
        edited = rules.with_bonus(**bonus).with_kickout(1, kickout)
        s = solo_analysis(edited, classes=SOLO_CLASSES, progress=SIZE != "tiny").at_threshold()
        return pd.Series({"re-solved RTP per initial bet %": 100 * s["rtp_per_initial_bet"],
                          "re-solved RTP per total wagered %": 100 * s["rtp_per_wagered"],
                          "re-solved fold frequency %": 100 * s["fold_frequency"]}).round(4)


    SHIPPED = ({l.key: l.pays for l in rules.bonus}, {l.key: l.pays for l in rules.cover}, rules.kickout[1])
    exact_figures(*SHIPPED)
    """),
    md("## Sliders: the exact figures move at once; the button re-solves the decisions"),
    code("""
    def slider(line, low):
        kind = widgets.IntSlider if float(line.pays).is_integer() else widgets.FloatSlider
        top = max(10, 4 * int(line.pays))
        return kind(value=line.pays, min=low, max=top, step=max(1, top // 200), description=line.key,
                    continuous_update=False, style={"description_width": "120px"})


    bonus_sliders = {l.key: slider(l, 0) for l in rules.bonus}
    cover_sliders = {l.key: slider(l, 1) for l in rules.cover}      # Cover pays stay above 0 (linear)
    grid = sorted(set(DEFAULT_GRID) | {rules.kickout[1]}, key=pattern_value)
    kickout_slider = widgets.SelectionSlider(options=grid, value=rules.kickout[1], description="kickout N = 1",
                                             continuous_update=False, style={"description_width": "120px"})
    resolve_button = widgets.Button(description="re-solve decisions exactly", layout={"width": "220px"})
    figures_out, resolved_out = widgets.Output(), widgets.Output()


    def current():
        return ({k: s.value for k, s in bonus_sliders.items()}, {k: s.value for k, s in cover_sliders.items()},
                kickout_slider.value)


    def on_change(change=None):
        figures_out.clear_output(wait=True)
        with figures_out:
            display(pd.concat({"shipped": exact_figures(*SHIPPED), "sliders": exact_figures(*current())}, axis=1))


    def on_resolve(button=None):
        bonus, _, kickout = current()
        resolved_out.clear_output(wait=True)
        with resolved_out:
            display(resolved_figures(bonus, kickout))


    for s in [*bonus_sliders.values(), *cover_sliders.values(), kickout_slider]:
        s.observe(on_change, names="value")
    resolve_button.on_click(on_resolve)
    on_change()
    display(widgets.HBox([widgets.VBox([widgets.HTML("<b>bonus, ante units</b>"), *bonus_sliders.values()]),
                          widgets.VBox([widgets.HTML("<b>Cover, to 1</b>"), *cover_sliders.values()]),
                          widgets.VBox([kickout_slider, resolve_button])]),
            figures_out, resolved_out)
    """),
    md("""
    ## An example edit, without the sliders

    The shipped tables with three lines changed (the shipped value in the comment): a flush pays
    6 instead of 5 (a frequent line: the effect shows even in a short run), a royal flush 500 instead
    of 1000, four of a kind on Cover 60 instead of 50.
    """),
    code("""
    BONUS = {**SHIPPED[0], "flush": 6, "royal_flush": 500}          # flush was 5, royal_flush was 1000
    COVER = {**SHIPPED[1], "four_of_a_kind": 60}                   # four_of_a_kind was 50
    new = rules.with_bonus(**BONUS).with_cover(**COVER).replace(name="my-rules",
                                                                description="publisher with an edited paytable")
    pd.concat({"shipped": exact_figures(*SHIPPED), "edited": exact_figures(BONUS, COVER, rules.kickout[1]),
               "edited, re-solved": resolved_figures(BONUS, rules.kickout[1])}, axis=1)
    """),
    code("""
    before, after = cover(rules), cover(new)
    print(f"Cover RTP {before.rtp:.4%} -> {after.rtp:.4%}  (hit frequency {after.hit_frequency:.4%}, "
          f"std dev {after.std_dev:.4f})")
    lines = pd.concat({"before": before.to_frame().set_index("key")[["pays", "probability", "rtp_contribution"]],
                       "after": after.to_frame().set_index("key")[["pays", "rtp_contribution"]]}, axis=1)
    lines.style.format("{:.4%}", subset=[c for c in lines.columns if c[1] != "pays"])
    """),
    md("The bonus at a four-player table (Monte Carlo, controlled estimates, the same deals for both rule sets):"),
    code("""
    a = simulate(rules, 4, "perfect", ROUNDS, SEED, progress=False).summary()["rtp_initial_cv"]
    b = simulate(new, 4, "perfect", ROUNDS, SEED, progress=False).summary()["rtp_initial_cv"]
    print(f"N = 4 RTP per initial bet {a.estimate:.3%} ± {a.half_width:.3%} -> {b.estimate:.3%} ± {b.half_width:.3%} "
          f"(difference {b.estimate - a.estimate:+.3%}; common random numbers)")
    """),
    md("""
    ## Let the tuner find tables for a target

    `tune_cover` solves the exact integer problem for Cover.  For the bonus, any RTP function plugs
    into `tune_paytable`; here the exact one-player RTP with the current decisions
    (`bonus_rtp_function`, linear in the pays, so the search is exact too).
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
    bonus_rtp = bonus_rtp_function(rules, solo)
    bonus_target = round(bonus_rtp(SHIPPED[0]) - 0.002, 4)
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
    does not depend on it), so the curve and the finder answer at once when the target moves; more
    players are Monte Carlo with common random numbers (every threshold on the same deals), run by a
    button because they take a while.  Everything is in percent.
    """),
    code(SIZE_CELL),
    code("""
    ROUNDS = {"tiny": 200, "moderate": 5_000, "full": 100_000}[SIZE]      # per threshold, N >= 2
    GRID_MC = (["AA", "TTxx", "222"] if SIZE == "tiny" else
               ["KK", "AA", "AAQ", "66xx", "TTxx", "AAxx", "222", "QQQ", "A2345"])
    MC_PLAYERS = 3
    """),
    code("""
    import ipywidgets as widgets
    import matplotlib.pyplot as plt
    from IPython.display import display
    from matplotlib.ticker import PercentFormatter

    from ricochet_math import find_kickout, kickout_curve, load_rules, solo_analysis
    from ricochet_math.design.kickout import DEFAULT_GRID
    from ricochet_math.errors import RuleError

    rules = load_rules(RULES)
    solo = solo_analysis(rules, classes=SOLO_CLASSES, progress=SIZE != "tiny")
    curve1 = kickout_curve(rules, players=1, grid=DEFAULT_GRID, solo=solo)
    print(curve1.method, "- the rule set's threshold:", rules.kickout[1])
    PERCENT = ["rtp_per_initial_bet", "rtp_per_wagered", "kickout_rate", "fold_frequency", "win_frequency"]
    curve1.to_frame()[["pattern", "hand"] + PERCENT].style.format("{:.3%}", subset=PERCENT).hide(axis="index")
    """),
    md("## The curve and the finder (plain functions; the widgets below call them)"),
    code("""
    def plot_curve(curve, target=None, found=None, ax=None):
        \"\"\"RTP per initial bet against the threshold (95% interval where Monte Carlo), the target and the
        finder's closest threshold.\"\"\"
        f = curve.to_frame()
        if ax is None:
            _, ax = plt.subplots(figsize=(10, 3.8))
        x = list(f["pattern"])
        err = [f["rtp_per_initial_bet"] - f["rtp_ci_low"], f["rtp_ci_high"] - f["rtp_per_initial_bet"]]
        ax.errorbar(x, f["rtp_per_initial_bet"], yerr=err, fmt="o-", capsize=3, label="RTP per initial bet")
        if curve.players == 1:
            ax.plot(x, f["rtp_per_wagered"], "s--", label="RTP per total wagered")
        if rules.kickout[curve.players] in x:
            ax.axvline(x.index(rules.kickout[curve.players]), color="C3", ls="--", label="rule set")
        if target is not None:
            ax.axhline(target, color="0.4", ls=":", label=f"target {target:.2%}")
        if found is not None:
            ax.plot([x.index(found["closest"])], [found["closest_rtp"]], "k*", ms=14, label="closest")
        ax.set(xlabel="kickout threshold", ylabel="RTP", title=f"{curve.players} player(s): {curve.method}")
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
        ax.tick_params(axis="x", rotation=45)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        return ax


    def finder(curve, target):
        \"\"\"find_kickout's answer, or its one-line reason when no threshold in the grid reaches the target.\"\"\"
        try:
            return find_kickout(rules, players=curve.players, target_rtp=target, curve=curve)
        except RuleError as exc:
            print("finder:", exc)
            return None


    f = curve1.to_frame()
    lo, hi = f["rtp_per_initial_bet"].min(), f["rtp_per_initial_bet"].max()
    TARGET = 0.965 if lo <= 0.965 <= hi else round((lo + hi) / 2, 4)   # a sampled (tiny) run has other RTPs
    found = finder(curve1, TARGET)
    plot_curve(curve1, TARGET, found)
    plt.show()
    found
    """),
    md("""
    ## Interactive: move the target (one player answers at once), or run the Monte Carlo curve

    The target slider redraws the exact one-player curve and the finder's answer at once.  The button
    runs the Monte Carlo curve for the chosen player count (perfect play, `ROUNDS` per threshold, the
    same deals at every threshold) and applies the finder to it.
    """),
    code("""
    target_slider = widgets.FloatSlider(value=100 * TARGET, min=round(100 * lo, 2), max=round(100 * hi, 2),
                                        step=0.01, description="target RTP %", continuous_update=False,
                                        readout_format=".2f")
    players_box = widgets.Dropdown(options=list(range(2, 8)), value=MC_PLAYERS, description="players")
    run_button = widgets.Button(description="run the Monte Carlo curve", layout={"width": "220px"})
    exact_out, mc_out = widgets.Output(), widgets.Output()


    def on_target(change=None):
        exact_out.clear_output(wait=True)
        with exact_out:
            target = target_slider.value / 100
            plot_curve(curve1, target, finder(curve1, target))
            plt.show()


    def on_run(button=None):
        mc_out.clear_output(wait=True)
        with mc_out:
            curve = kickout_curve(rules, players=players_box.value, grid=GRID_MC, rounds=ROUNDS, seed=SEED)
            target = target_slider.value / 100
            plot_curve(curve, target, finder(curve, target))
            plt.show()


    target_slider.observe(on_target, names="value")
    run_button.on_click(on_run)
    on_target()
    display(widgets.VBox([target_slider, exact_out, widgets.HBox([players_box, run_button]), mc_out]))
    """),
    md("More players without the widgets: Monte Carlo, perfect play, the same deals at every threshold."),
    code("""
    curve3 = kickout_curve(rules, players=MC_PLAYERS, grid=GRID_MC, rounds=ROUNDS, seed=SEED,
                           progress=SIZE == "full")
    plot_curve(curve3, 0.965, finder(curve3, 0.965))
    plt.show()
    """),
]

# ---------------------------------------------------------------------------------------------- 05
NB05 = [
    md("""
    # 05 - What perfect play looks like, and what weak play costs

    The exact one-player strategy chart (for each two-card hand, how much of the dealer's range below
    the kickout it still plays against), the strategy in words, the advice for single tables, and the RTP
    of the weak-player profiles next to perfect play (percent; Monte Carlo RTPs are the controlled
    estimates).
    """),
    code(SIZE_CELL),
    code("""
    ROUNDS = {"tiny": 300, "moderate": 4_000, "full": 100_000}[SIZE]      # perfect play, N = 4
    WEAK_ROUNDS = {"tiny": 4_000, "moderate": 500_000, "full": 5_000_000}[SIZE]
    PROFILES = ["always", "pair", "timid", "chaser", "dealer-only", "bonus-hunter"]
    """),
    code("""
    import matplotlib.pyplot as plt
    import pandas as pd
    from matplotlib.ticker import PercentFormatter

    from ricochet_math import advise, load_rules, simulate, solo_analysis, solo_deal
    from ricochet_math.reports.plots import plot_strategy
    from ricochet_math.reports.strategy_text import hand_grid_names, strategy_chart, strategy_grid, strategy_words

    rules = load_rules(RULES)
    solo = solo_analysis(rules, classes=SOLO_CLASSES, progress=SIZE != "tiny")
    chart = strategy_chart(solo)     # one row per analysed two-card class
    cols = ["hand", "limit", "folds_below_that", "play_frequency_dealer_in"]
    chart.sort_values("play_frequency_dealer_in")[cols].head(15).style.format(
        "{:.2%}", subset=["play_frequency_dealer_in"]).hide(axis="index")
    """),
    md("The chart as the usual 13 x 13 grid: pairs on the diagonal, suited hands above it, offsuit below; "
       "each cell is labelled with its hand and the share of the dealer's hands (below the kickout) it plays "
       "against; grey cells were not analysed (the tiny size analyses two classes)."),
    code("""
    fig = plt.figure(figsize=(8, 7))
    plot_strategy(fig, (0, 0, 8, 7), strategy_grid(chart), hand_grid_names())
    plt.show()
    print("\\n\\n".join(strategy_words(chart, rules.kickout[1], solo.complete)))
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
    def rtp(players, strategy, rounds):
        \"\"\"The controlled RTP per initial bet of a run (the plain one if the run kept no controls).\"\"\"
        s = simulate(rules, players, strategy, rounds, SEED, progress=False).summary()
        return s.get("rtp_initial_cv", s["rtp_initial"]).estimate


    rows = [{"players": 1, "strategy": "perfect", "rtp": solo.at_threshold()["rtp_per_initial_bet"]},
            {"players": 4, "strategy": "perfect", "rtp": rtp(4, "perfect", ROUNDS)}]
    rows += [{"players": n, "strategy": p, "rtp": rtp(n, p, WEAK_ROUNDS)} for n in (1, 4) for p in PROFILES]
    cost = pd.DataFrame(rows)
    cost["cost_vs_perfect"] = cost["rtp"] - cost.groupby("players")["rtp"].transform("first")
    cost.style.format("{:.3%}", subset=["rtp", "cost_vs_perfect"]).hide(axis="index")
    """),
    code("""
    fig, ax = plt.subplots(figsize=(10, 4))
    wide = cost.pivot(index="strategy", columns="players", values="rtp").loc[["perfect"] + PROFILES]
    wide.plot.bar(ax=ax)
    ax.axhline(0.90, color="k", ls=":", label="published 'closer to 90%'")
    ax.set(ylabel="RTP per initial bet", title="Perfect play and the weak profiles")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.legend()
    ax.grid(alpha=0.3, axis="y")
    plt.show()
    """),
]

# ---------------------------------------------------------------------------------------------- 10
NB10 = [
    md("""
    # 10 - Designing a rule set for every player count at once

    The publisher sets one kickout threshold per player count and one bonus table for all of them, and
    claims an RTP band "for 1 to 7 players".  `rm.design_rule_set` chooses them together: every
    threshold of the kickout finder's pattern grid and the bonus pays on `ricochet tune`'s grid, so that
    every player count's RTP lands in the band under the chosen player model.  N = 1 is exact; N >= 2
    is one Monte Carlo sweep per player count (every threshold on the same deals); the chosen design is
    confirmed on fresh seeds, and shown under other player models.  Everything is in percent.
    """),
    code(SIZE_CELL),
    code("""
    PLAYERS = [2, 3] if SIZE == "tiny" else list(range(1, 8))
    READING = "pot-odds-final" if SIZE == "tiny" else "perfect"     # the player model of the design
    GRID = (["KK", "AAQ", "TTxx", "AAxx", "222"] if SIZE == "tiny" else
            ["KK", "KKQ", "AA", "AAQ", "AAK", "66xx", "TTxx", "QQxx", "KKxx", "AAxx", "222", "777", "QQQ",
             "AAA", "A2345", "TJQKA", "flush"])
    SEARCH_PP, CONFIRM_PP, OTHER_PP = {"tiny": (2.0, 2.0, 3.0), "moderate": (0.2, 0.1, 0.3),
                                       "full": (0.1, 0.05, 0.2)}[SIZE]   # 95% half-widths, points
    OTHERS = ("chaser",) if SIZE == "tiny" else ("pub-final-dealer-no-bonus", "chaser", "perfect-vs-pot-odds-final")
    BAND = (0.9597, 0.9691)                                             # the publisher's claim
    """),
    code("""
    import ipywidgets as widgets
    import matplotlib.pyplot as plt
    from IPython.display import display
    from matplotlib.ticker import PercentFormatter

    import ricochet_math as rm
    from ricochet_math.design.rule_set_search import search_design

    rules = rm.load_rules(RULES)
    design = rm.design_rule_set(rules, BAND, reading=READING, vary=("kickout", "bonus"), players=PLAYERS,
                                grid=GRID, lines="straight,flush,full_house", seed=SEED,
                                search_precision=SEARCH_PP, confirm_precision=CONFIRM_PP, others=OTHERS,
                                other_precision=OTHER_PP, progress=SIZE == "full")
    print(design.summary())
    """),
    md("""
    ## The confirmed RTP by player count against the band

    The search's own estimates are biased towards the band (it picks the luckiest of many candidates),
    so the table and the plot show the **confirmation**: new runs on seeds the search never used.
    """),
    code("""
    def plot_design(d, ax=None):
        \"\"\"Confirmed RTP per player count with its 95% interval, the other models' figures, the band.\"\"\"
        if ax is None:
            _, ax = plt.subplots(figsize=(9, 4))
        t = d.table
        ax.axhspan(*d.band, color="C2", alpha=0.15, label=f"band {d.band[0]:.2%}..{d.band[1]:.2%}")
        ax.errorbar(t.players, t.rtp, yerr=[t.rtp - t.rtp_low, t.rtp_high - t.rtp], fmt="o-", capsize=4,
                    label=f"{d.reading} (confirmed)")
        for k, (name, g) in enumerate(d.others.groupby("reading", sort=False)):
            ax.errorbar(g.players + 0.08 * (k + 1), g.rtp, yerr=[g.rtp - g.rtp_low, g.rtp_high - g.rtp], fmt=".:",
                        capsize=2, alpha=0.7, label=name)
        ax.set(xlabel="players", ylabel="RTP per initial bet", title=", ".join(
            f"{int(r.players)}: {r.threshold}" for r in t.itertuples()))
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        return ax


    plot_design(design)
    plt.show()
    design.table.drop(columns=["seed", "method"]).style.format(
        "{:.3%}", subset=["search_rtp", "search_half_width", "rtp", "rtp_low", "rtp_high"]).hide(axis="index")
    """),
    md("""
    ## Interactive: move the band

    The search is an integer program over the RTP surface already built, so it answers at once; the
    slider shows its choice with the **search** estimates (not confirmed: run the design again with the
    new band for that).  An infeasible band gives the closest design and its miss.
    """),
    code("""
    lo_slider = widgets.FloatSlider(value=100 * BAND[0], min=90.0, max=99.0, step=0.01, description="band low %",
                                    continuous_update=False, readout_format=".2f")
    hi_slider = widgets.FloatSlider(value=100 * BAND[1], min=90.0, max=99.0, step=0.01, description="band high %",
                                    continuous_update=False, readout_format=".2f")
    band_out = widgets.Output()


    def on_band(change=None):
        band_out.clear_output(wait=True)
        with band_out:
            lo, hi = lo_slider.value / 100, hi_slider.value / 100
            if lo >= hi:
                print("the band is empty or inverted")
                return
            c = search_design(design.model, (lo, hi))
            state = "inside" if c.miss <= 0 else f"missing by {100 * c.miss:.3f} points"
            print(f"search: {state}; kickout", ", ".join(f"{n}: {c.thresholds[n]}" for n in design.model.players),
                  "; bonus", ", ".join(f"{k} {c.pays[k]:g}" for k in design.model.line_keys))
            _, ax = plt.subplots(figsize=(9, 3.5))
            ns = list(design.model.players)
            r = [c.rtp[n] for n in ns]
            h = [c.half_width[n] for n in ns]
            ax.axhspan(lo, hi, color="C2", alpha=0.15)
            ax.errorbar(ns, r, yerr=h, fmt="o-", capsize=4)
            ax.yaxis.set_major_formatter(PercentFormatter(1.0))
            ax.set(xlabel="players", ylabel="RTP (search estimate)")
            plt.show()


    lo_slider.observe(on_band, names="value")
    hi_slider.observe(on_band, names="value")
    on_band()
    display(widgets.VBox([widgets.HBox([lo_slider, hi_slider]), band_out]))
    """),
    md("""
    ## What the decisions' re-solve changed, and the rule set to ship

    When the search moves the bonus, perfect players decide differently: the surface is rebuilt with the
    new pays (same seeds) and the linear shortcut's error is measured.  `write_toml` writes the design as a
    rule set that extends the input (every changed key marked `# was`).
    """),
    code("""
    print(design.shortcut.to_string(index=False) if len(design.shortcut) else "the bonus did not move: no re-solve")
    print(design.to_toml())
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
    "09-free-ride-poker": freeride_notebook(),
    "06-home-game": home_game_cells(),
    "10-rule-set-design": NB10,
    "11-equilibrium": equilibrium_notebook(),
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
