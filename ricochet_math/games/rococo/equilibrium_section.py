"""The Rococo report's section "Equilibrium play": a committed heads-up equilibrium solve read back
(:func:`~ricochet_math.games.rococo.equilibrium_compare.read_equilibrium_folder`; the report does not solve, so every size of the
report stays fast) with its convergence on log axes, the strategy as a chart, the value per seat, the carry
probability, the named policies' exploitability and the comparison with the report's own simulations
(:func:`~ricochet_math.games.rococo.equilibrium_compare.threshold_comparison`, 95% intervals).

The folder is ``reports/rococo-equilibrium/default`` of the source tree (:data:`EQUILIBRIUM_FOLDER`), the
solve of ``ricochet rococo equilibrium --abstraction default ...`` (its command is quoted in the section);
without it the section says so and how to make it.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from ricochet_math.reports.columns import Column, document_table
from ricochet_math.reports.document import Section
from ricochet_math.reports.plots import axes_in

__all__ = ["EQUILIBRIUM_FOLDER", "equilibrium_section", "plot_convergence", "plot_opening", "TITLE"]

#: the committed solve the section reads
EQUILIBRIUM_FOLDER = Path(__file__).resolve().parents[3] / "reports" / "rococo-equilibrium" / "default"
#: the committed solve with the blind decision (``--blind``), read for the section's blind part
BLIND_FOLDER = EQUILIBRIUM_FOLDER.parent / "tiny-blind-ranges"  # the rule book's carry limit of 10
TITLE = "Equilibrium play"

_FIGURES = {c.name: c for c in (
    Column("figure", "figure", "", "text", 0),
    Column("value", "value", "", "number", 6),
)}
_LEVELS = {c.name: c for c in (
    Column("level", "pots carried", "", "count", 0),
    Column("carried", "carried chips", "chips", "count", 0),
    Column("first_player_value", "first player's value per pot", "antes", "number", 4),
    Column("carry_probability", "game all checks (carries)", "fraction", "percent", 2),
)}
_POLICIES = {c.name: c for c in (
    Column("policy", "policy", "", "text", 0),
    Column("exploitability", "exploitability", "antes", "number", 3, "a best response's gain per pot"),
    Column("exploitability_full", "with every raise size", "antes", "number", 3),
    Column("exploitability_exact_cards", "with exact cards", "antes", "number", 3),
    Column("vs_equilibrium", "against the equilibrium", "antes", "number", 3, "per pot, from a random seat"),
    Column("vs_equilibrium_as_first", "as first player", "antes", "number", 3),
    Column("vs_equilibrium_as_second", "as second player", "antes", "number", 3),
    Column("self_first_player_value", "against itself: first player's value", "antes", "number", 3),
    Column("self_games_per_pot", "against itself: games per pot", "games", "number", 3),
)}
_BLIND = {c.name: c for c in (
    Column("value_with_blind", "first player's value, with the option", "antes", "number", 4),
    Column("value_without_blind", "without it", "antes", "number", 4),
    Column("option_value", "value of the option", "antes", "number", 4),
    Column("option_low", "lowest", "antes", "number", 4, "the two values each within their exploitability"),
    Column("option_high", "highest", "antes", "number", 4),
    Column("nash_conv", "exploitability, with", "antes", "number", 4),
    Column("nash_conv_without", "exploitability, without", "antes", "number", 4),
    Column("blind_probability", "fresh pots blinded", "fraction", "percent", 2),
    Column("nash_conv_every_blind_size", "exploitability, every blind size", "antes", "number", 4,
           "best responses may blind and raise the blind any size 1..10"),
)}
_COMPARISON = {c.name: c for c in (
    Column("figure", "question", "", "text", 0),
    Column("equilibrium", "equilibrium (exact, model)", "", "number", 4),
    Column("model_policies", "threshold policies (exact, model)", "", "number", 4),
    Column("simulated", "threshold policies (simulated)", "", "number", 4),
    Column("equilibrium_outside", "equilibrium outside the interval", "", "text", 0),
    Column("model_outside", "model outside the interval", "", "text", 0),
    Column("note", "note", "", "text", 0),
)}


def plot_convergence(fig, box, curves: pd.DataFrame) -> None:
    """Each level's NashConv against CFR+ iterations, both axes logarithmic (the points at iteration 0 or
    NashConv 0 are left out: a log axis has no 0)."""
    from matplotlib import colormaps

    ax = axes_in(fig, box, left=0.8, bottom=0.5, top=0.3, right=1.1)
    part = curves[(curves.iteration > 0) & (curves.nash_conv > 0)]
    levels = sorted(part.level.unique())
    cmap = colormaps["viridis"]
    for i, k in enumerate(levels):
        c = part[part.level == k]
        ax.plot(c.iteration, c.nash_conv, marker="o", ms=2, lw=1, color=cmap(i / max(len(levels) - 1, 1)),
                label=f"{k} carried")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("CFR+ iterations at the level")
    ax.set_ylabel("NashConv (antes)")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=5, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0), title="level",
              title_fontsize=6)
    ax.tick_params(labelsize=6)


def _bucket_label(value: int) -> str:
    from ricochet_math.evaluator.names import describe

    text = describe(int(value))  # the whole name: several buckets may start in one category (high card)
    return text if len(text) <= 30 else text[:29] + "…"


#: the chart's panels: (player, her moves so far, title)
_PANELS = (("A", "", "first player opens"), ("B", "c", "second player after a check"),
           ("B", "r1", "second player facing a raise of 1"))


def opening_frame(strategy: pd.DataFrame, discards: int = 3) -> pd.DataFrame:
    """The chart's data: for both players having exchanged ``discards`` cards (the commonest deal), each
    panel's action probabilities by the player's bucket (its lowest final value)."""
    s = strategy.assign(moves=strategy.moves.fillna("").astype(str))
    s = s[(s.discards == discards) & (s.other_discards == discards)]
    parts = []
    for who, moves, title in _PANELS:
        p = s[(s.player == who) & (s.moves == moves)]
        parts.append(p.assign(panel=title)[["panel", "bucket", "bucket_from", "action", "probability"]])
    return pd.concat(parts, ignore_index=True)


def plot_opening(fig, box, strategy: pd.DataFrame) -> None:
    """Stacked bars, one per bucket: the probability of each action at the three commonest decisions."""
    from matplotlib import colormaps

    data = opening_frame(strategy)
    x0, y0, w, h = box
    each = (w - 1.9) / len(_PANELS)
    colours = colormaps["tab10"]
    order = ["f", "k", "c", "r1", "r3", "r10"]
    names = {"f": "fold", "k": "call", "c": "check", "r1": "raise 1", "r3": "raise 3", "r10": "raise 10"}
    seen = set()
    for j, (_, _, title) in enumerate(_PANELS):
        ax = axes_in(fig, (x0 + 1.9 + j * each, y0, each, h), left=0.05 if j else 0.05, right=0.1, bottom=0.55,
                     top=0.3)
        part = data[data.panel == title]
        buckets = sorted(part.bucket.unique())
        left = np.zeros(len(buckets))
        for a in order:
            col = part[part.action == a].set_index("bucket").reindex(buckets).probability.fillna(0).to_numpy()
            if not col.any():
                continue
            ax.barh(range(len(buckets)), col, left=left, color=colours(order.index(a)),
                    label=names[a] if a not in seen else None)
            seen.add(a)
            left += col
        ax.set_xlim(0, 1)
        ax.set_ylim(len(buckets) - 0.5, -0.5)
        if j == 0:
            froms = part.drop_duplicates("bucket").set_index("bucket").reindex(buckets).bucket_from
            ax.set_yticks(range(len(buckets)), [f"from {_bucket_label(v)}" for v in froms], fontsize=5)
        else:
            ax.set_yticks([])
        ax.set_title(title, fontsize=6)
        ax.tick_params(axis="x", labelsize=5)
        ax.set_xlabel("probability", fontsize=6)
    fig.legend(fontsize=5, frameon=False, ncol=6, loc="lower center", bbox_to_anchor=(
        (x0 + w / 2) / fig.get_size_inches()[0], y0 / fig.get_size_inches()[1]))


def figures_frame(eq) -> pd.DataFrame:
    """The equilibrium's main figures, one row each (antes per pot unless named)."""
    lo, hi = eq.value_bounds
    rows = [("first player's value per pot (antes)", float(eq.levels.first_player_value[0])),
            ("the abstract game's value lies above (antes)", lo),
            ("... and below (antes)", hi),
            ("each seat's value per pot (a pot starts at either seat alike; antes)", 0.0),
            ("probability that a fresh game is all checks (the pot carries)", float(eq.levels.carry_probability[0])),
            ("games per pot", eq.games_per_pot),
            ("exploitability (NashConv) in the abstract tree (antes per pot)", eq.nash_conv)]
    if eq.nash_conv_full is not None:
        rows.append(("exploitability with every raise size 1 to 10 (antes per pot)", eq.nash_conv_full))
    import re

    m = re.search(r"; ([0-9.e-]+) against best responses that know their exact final value", eq.summary)
    if m:
        rows.append(("exploitability against responders who know their exact final value (antes per pot)",
                     float(m.group(1))))
    return pd.DataFrame(rows, columns=["figure", "value"])


def equilibrium_section(number: str, rules, pots: int, seed: int, sim, blind, *,
                        folder=None, blind_folder=None) -> tuple[Section, dict]:
    """Section ``number``, "Equilibrium play", and its tables by CSV name; ``sim``: the report's standard
    against loose simulation, ``blind``: its blind-value runs (``blind.without``: standard against standard, no
    blind), whose figures the comparison quotes; a run of ``pots`` pots on ``seed`` gives the carry rates'
    batch-means intervals (the same pots as ``blind.without``)."""
    from ricochet_math.errors import RicochetError
    from ricochet_math.games.rococo.equilibrium_compare import (
        carry_rates, model_policy_values, read_equilibrium_folder, threshold_comparison,
    )

    s = Section(number, TITLE)
    folder = Path(folder or EQUILIBRIUM_FOLDER)
    try:
        eq = read_equilibrium_folder(folder)
    except RicochetError as exc:
        s.p(f"No committed equilibrium solve was found ({exc}); `ricochet rococo equilibrium --abstraction default "
            f"--iterations 1500 --every 100 --out {folder}` makes it (docs/rococo-poker.md, 'Equilibrium, "
            "heads-up').")
        return s, {}
    base = blind.without.policies[0]
    rates = carry_rates(rules.with_players(2), [base, "standard"], pots, seed, batch_size=blind.without.batch_size)
    model = model_policy_values(rules)
    comparison = threshold_comparison(eq, model, sim.net[0], blind.without.net[0], rates, blind.value)
    figures = figures_frame(eq)
    v0 = float(eq.levels.first_player_value[0])
    lo, hi = eq.value_bounds
    full = ("" if eq.nash_conv_full is None else f" and {eq.nash_conv_full:.3g} with every raise size (an off-tree "
            "raise read as the nearest abstract size)")
    s.p("Heads-up Rococo's betting round solved by counterfactual regret minimisation (CFR+) on an abstraction, "
        "read from the committed solve in reports/rococo-equilibrium/" + folder.name + f" (command: `{eq.command}`; "
        "method, model and what it leaves out: docs/rococo-poker.md, 'Equilibrium, heads-up'). The model holds "
        "the exchange at the draw solver's table, has no blind decision (solved apart, at the end of this "
        "section), and buckets the final hands; every "
        "figure is exact for the model, the solver's own error bounded by its exploitability.")
    s.p(f"Moving first in a pot is worth {v0:+.4f} antes per pot under equilibrium play (the abstract game's value "
        f"lies in [{lo:+.4f}, {hi:+.4f}]); since a pot starts at either seat alike, each seat's value is 0 over "
        f"many pots. A fresh game is all checks (the pot carries) with probability "
        f"{100 * float(eq.levels.carry_probability[0]):.1f}%, {eq.games_per_pot:.3f} games per pot. The "
        f"exploitability of the solved strategy is {eq.nash_conv:.2g} antes per pot in the abstract tree{full}.")
    curves = eq.curves
    s.plot("rococo-equilibrium-convergence", "Convergence of the equilibrium solve",
           "NashConv (the sum of both players' best-response gains, antes) against CFR+ iterations, each level of "
           "the carried-pot recursion (the next level's value fixed), log axes.",
           lambda f, box: plot_convergence(f, box, curves), height=3.2)
    strategy = eq.strategy
    s.plot("rococo-equilibrium-strategy", "The equilibrium strategy at the commonest deal",
           "Both players exchanged three cards (67% of deals): the probability of each action by the player's "
           "bucket (named by its lowest final hand), the first player's opening, the second player's answer to a "
           "check and to a raise of 1.", lambda f, box: plot_opening(f, box, strategy), height=3.6)
    tables = {"equilibrium_figures": figures, "equilibrium_levels": eq.levels, "equilibrium_policies": eq.policies,
              "equilibrium_comparison": comparison}
    s.blocks.append(document_table("The equilibrium: value, carries, exploitability", figures, "equilibrium_figures",
                                   declared=_FIGURES))
    s.blocks.append(document_table("By pots carried (level of the recursion)", eq.levels, "equilibrium_levels",
                                   declared=_LEVELS))
    s.blocks.append(document_table(
        "The named policies: exploitability and value against the equilibrium (antes per pot)", eq.policies,
        "equilibrium_policies", declared=_POLICIES,
        note="Exploitability: what a best response wins per pot from a random seat against the policy in both "
             "seats; naive bets as standard (the exchange is held at the table for both)."))
    s.p(f"Beside today's threshold answers: the simulated figures are the report's own (section 1; the carry "
        f"rates from {rates.pots:,} pots of standard against standard without a blind on seed {seed}, 95% "
        f"intervals from {rates.batches} batch means). 'Outside' marks a model figure the simulated interval "
        "does not hold: for the threshold policies in the model, what the model leaves out (card removal, the "
        "policies' own draw and blind); for the equilibrium, that it plays differently.")
    s.blocks.append(document_table("The equilibrium beside the simulated threshold policies", comparison,
                                   "equilibrium_comparison", declared=_COMPARISON,
                                   names=["figure", "equilibrium", "model_policies", "simulated",
                                          "equilibrium_outside", "model_outside", "note"]))
    blind_table = _blind_part(s, Path(blind_folder) if blind_folder is not None else BLIND_FOLDER)
    if blind_table is not None:
        tables["equilibrium_blind"] = blind_table
    return s, tables


def _blind_part(s: Section, folder: Path) -> pd.DataFrame | None:
    """The blind decision under equilibrium play, from the committed ``--blind`` solve in ``folder``
    (``blind.csv`` and the command in ``summary.txt``); without it a sentence says so."""
    try:
        table = pd.read_csv(folder / "blind.csv")[list(_BLIND)]
        command = (folder / "summary.txt").read_text(encoding="utf-8").splitlines()[0].removeprefix("command: ")
    except (OSError, KeyError, ValueError, IndexError) as exc:
        s.p(f"The blind decision has no committed solve here ({type(exc).__name__}); `ricochet rococo equilibrium "
            f"--abstraction tiny --solver ranges --schedule dcfr --blind 1,3,10 --carry-limit 10 --carry-points 3 "
            f"--iterations 2000 --every 500 --every-blind-size --out {folder}` "
            "makes one.")
        return None
    r = table.iloc[0]
    # how the solve was made, as its own command says: carry limit, iterations, schedule, solver
    limit = re.search(r"--carry-limit (\d+)", command)
    limit = f"a carry limit of {limit.group(1)}" if limit else "the default carry limit"
    count = re.search(r"--iterations (\d+)", command)
    count = f"{int(count.group(1)):,}" if count else "1,000"
    how = "DCFR" if "--schedule dcfr" in command else "CFR+"
    how += " range against range" if "--solver ranges" in command else " in the laid-out tree"
    if r.option_low <= 0 <= r.option_high:
        verdict = "no detectable value at this precision"
    else:
        verdict = f"a {'gain' if r.option_low > 0 else 'loss'} detectable at this precision"
    every = ""
    if pd.notna(r.nash_conv_every_blind_size):
        every = (f" With every blind and blind-round raise size 1 to 10 open to a best response (a size the solve "
                 f"lacks read as the nearest one it has), the pot strategy's exploitability is "
                 f"{r.nash_conv_every_blind_size:.4f} antes per pot, against {r.nash_conv:.4f} in its own sizes (a "
                 "figure that leans on the interpolation of the carried amounts after an off-tree blind; the Rococo "
                 "guide compares a finer grid).")
    s.p(f"The blind decision (a first player may declare a blind game before looking at his cards) solved apart, "
        f"as an option of the model: `{command}` (reports/rococo-equilibrium/{folder.name}). It is an "
        f"approximation: the tiny abstraction, {limit}, {count} {how} iterations a state and the "
        f"carried amounts between the solved ones interpolated. Having the option is worth "
        f"{r.option_value:+.4f} antes per pot to the first player, within [{r.option_low:+.4f}, "
        f"{r.option_high:+.4f}] (each game's value within its exploitability): {verdict}; he blinds "
        f"{100 * r.blind_probability:.1f}% of fresh pots.{every} The blind's value in section 1 "
        "answers another question: seat 1 blinding 1 every time against threshold players who fold hands "
        "that would have won.")
    s.blocks.append(document_table("The blind decision under equilibrium play (tiny abstraction)", table,
                                   "equilibrium_blind", declared=_BLIND))
    return table


def report_comparison(pots: int = 400_000, seed: int = 2026, rules=None, folder=None) -> pd.DataFrame:
    """The section's comparison table as :func:`~ricochet_math.games.rococo.report.build_report` makes it with ``pots`` pots a
    simulation (``REPORT_SIZES[size][0]``: 400,000 at ``full``) and ``seed`` (the same simulations: standard
    against loose, the blind-value runs, the carry rates), without the rest of the report: the table
    ``docs/rococo-poker.md`` quotes, checked against it where the committed report does not have it yet
    (seconds at ``full``)."""
    from ricochet_math.games.rococo.analysis import blind_value, simulate
    from ricochet_math.games.rococo.rules import RococoRules

    rules = rules or RococoRules()
    sim = simulate(rules.with_players(2), ["standard", "loose"], pots, seed)
    blind = blind_value("standard", "standard", 2, pots, seed)
    _, tables = equilibrium_section("7", rules.with_players(2), pots, seed, sim, blind, folder=folder)
    return tables["equilibrium_comparison"]
