"""The short Ring Poker report: seat and order effects, strategy pairings, arrangement statistics,
with every report's provenance rows (:func:`~ricochet_math.reports.provenance.rules_provenance_rows`: rules,
seed, size, version, run time, git state).

One folder: ``report.html`` (self-contained) and ``tables/*.csv`` at full precision, written through
:mod:`ricochet_math.reports.render` from one list of :class:`~ricochet_math.reports.document.Section`,
and the toolkit's marker file: an existing folder is replaced only if the toolkit wrote it.
"""
from __future__ import annotations

import time
from dataclasses import replace
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from ricochet_math.arguments import check_seed, check_whole
from ricochet_math.evaluator.evaluation import PARTIAL_BASE
from ricochet_math.evaluator.tables import STRAIGHT_FLUSH
from ricochet_math.games.ring.analysis import CONFIRM_SEED_OFFSET, DEFAULT_STRATEGY, pairings, simulate
from ricochet_math.games.ring.arrangement import arrange, opponent_model
from ricochet_math.games.ring.rules import JOKER_WORDS, Joker, RingRules
from ricochet_math.games.ring.strategies import FAST_STRATEGIES, ISSUE_STRATEGIES
from ricochet_math.reports.build import ReportResult
from ricochet_math.reports.columns import Column, cell, document_table, estimate_text
from ricochet_math.reports.columns import p_text as p_value_text
from ricochet_math.reports.plots import axes_in
from ricochet_math.reports.document import Section, Volatile, num, pct
from ricochet_math.reports.folder import write_report_folder
from ricochet_math.reports.front_page import game_front
from ricochet_math.reports.glossary import RING_TERMS, glossary_section
from ricochet_math.progress import step_bar
from ricochet_math.storage import prepare_output_folder

__all__ = ["REPORT_KIND", "build_report", "ring_report"]

#: the marker kind of a Ring Poker report folder
REPORT_KIND = "ring-report"


#: a hand key's category is key // 15**5 (the evaluator's partial-key digits, as ring.analysis reads it)
_CATEGORY_BASE = PARTIAL_BASE ** 5


#: the reading shown beside the rule set's own: dead jokers beside bugs (the default), bugs beside any other
def _other_reading(joker: Joker) -> Joker:
    return Joker.DEAD if joker == Joker.BUG else Joker.BUG


#: the confirmation table's own columns (reports/columns.py declares the shared ones)
_CONFIRMATION = {c.name: c for c in (
    Column("selected", "selected", "", "text", 0, "the best response of the selection"),
    Column("runner_up", "runner-up", "", "text", 0, "the second best of the selection"),
    Column("win", "fresh win share, selected", "fraction", "percent", 2, "on the fresh seed"),
    Column("runner_up_win", "fresh win share, runner-up", "fraction", "percent", 2, "on the fresh seed"),
    Column("verdict", "lead (points)", "", "text", 0, "the paired lead, or no detectable difference"),
)}


def _joker_section(base: RingRules, games: int, pair_games: int, seed: int) -> tuple[Section, pd.DataFrame]:
    """The figures the joker reading moves, the rule set's reading and the other side by side (the seed's
    hand-rankings section is blank: docs/rules.md, "Ring Poker", says why bugs are the default); the section
    and its frame."""
    readings = (base.joker, _other_reading(base.joker))
    rows = []
    for joker in readings:
        name = joker.name.lower()
        for players in (2, 3):
            sim = simulate(RingRules(players=players, joker=joker), None, games, seed)
            w = sim.win_share(0)
            rows.append({"figure": f"first seat win share, {players} players", "joker": name, "value": w.estimate,
                         "value_low": w.low, "value_high": w.high, "p_value": sim.equal_chances().p_value})
            if players == 2:
                cats = sim.category_frame().set_index("category")["strongest"]
                for cat in ("Straight flush", "Five of a kind", "Four of a kind"):
                    rows.append({"figure": f"strongest hand: {cat.lower()}", "joker": name,
                                 "value": float(cats.get(cat, 0.0)), "value_low": float("nan"),
                                 "value_high": float("nan"), "p_value": float("nan")})
        table = pairings(RingRules(players=2, joker=joker), FAST_STRATEGIES, games=pair_games, seed=seed)
        pf = table.to_frame()
        pf = pf[pf.strategy != pf.against]
        means = pf.groupby("strategy", sort=False)["win"].mean().sort_values(ascending=False)
        for rank, (strategy, v) in enumerate(means.items(), start=1):
            rows.append({"figure": f"strategy ranked {rank} (2 players, mean win share against the others)",
                         "joker": name, "value": float(v), "value_low": float("nan"), "value_high": float("nan"),
                         "p_value": float("nan"), "strategy": strategy})
        model = opponent_model(RingRules(players=2, joker=joker), samples=500, seed=seed)
        sf = float(np.mean(model.slot_keys[:, 0] // _CATEGORY_BASE >= STRAIGHT_FLUSH))  # five of a kind is above
        h = 1.959964 * float(np.sqrt(sf * (1 - sf) / 500))
        rows.append({"figure": "random 18-card holdings with a straight flush or better", "joker": name,
                     "value": sf, "value_low": max(sf - h, 0.0), "value_high": min(sf + h, 1.0),
                     "p_value": float("nan")})
    frame = pd.DataFrame(rows)
    s = Section("5", "The joker reading")
    s.p("The seed's hand-rankings section is blank, so what a joker is worth is our reading: bugs (an ace, or "
        "any card that completes a straight or a flush), borrowed from the publisher's own advice for its home "
        "game, are the default; dead jokers (no rank, no suit) are the plainest alternative. The reading changes "
        "the game's hands far more than its seats: the figures it moves, side by side (every seat greedy-fast, "
        f"{games:,} games per seat run, {pair_games:,} games per pairing seating, seed {seed}).")
    figures = list(dict.fromkeys(frame.figure))
    cells = []
    for fig in figures:
        part = frame[frame.figure == fig].set_index("joker")
        row = [fig]
        for joker in readings:
            r = part.loc[joker.name.lower()]
            text = (f"{r.strategy} {100 * r.value:.1f}" if isinstance(r.get("strategy"), str) else
                    f"{100 * r.value:.2f}" if np.isnan(r.value_low) else
                    f"{100 * r.value:.2f} ± {50 * (r.value_high - r.value_low):.2f}")
            if not np.isnan(r.p_value):
                text += f" (equal chances {p_value_text(r.p_value, prefix=True)})"
            row.append(text)
        cells.append(row)
    s.table("What the joker reading moves (percent)", ["figure"] + [f"{j.name.lower()} jokers" +
                                                                      (" (default)" if j == Joker.BUG else "")
                                                                      for j in readings],
            cells, csv="joker_readings", data=frame,
            note="a ± b: the estimate and half the width of its 95% confidence interval.")
    return s, frame


def build_report(out_dir, *, games: int = 20_000, seed: int = 2026, rules: RingRules | None = None,
                 pair_games: int | None = None, strategies: Sequence[str] = ISSUE_STRATEGIES, timing_holdings: int = 200,
                 reproducible: bool = False, progress: bool = False) -> ReportResult:
    """Write the report into ``out_dir`` and return what was written (the casino report's
    :class:`~ricochet_math.reports.build.ReportResult`: ``html`` is the report's path).

    ``games``: games per seat-and-order run; ``pair_games``: games per seating of the strategy pairings
    (default a fortieth of ``games``, at least 100: ``greedy`` costs about a hundred times ``greedy-fast``)
    among ``strategies``; ``timing_holdings``: random holdings the solver is timed on; ``rules``: the joker
    rule is read from it (players and rotation are varied by the report).
    """
    # deferred like build_report's: jinja2, matplotlib and scipy (render, provenance) would double the
    # start-up of every ``ricochet`` command (docs/architecture.md)
    from ricochet_math.reports import provenance

    games = check_whole(games, "games", low=10, high=10**8)
    timing_holdings = check_whole(timing_holdings, "timing_holdings", high=10**6)
    seed = check_seed(seed, allow_none=False)
    base = rules or RingRules()
    out = prepare_output_folder(out_dir, REPORT_KIND)  # refused before any work
    start = time.perf_counter()
    timer = (lambda: 0.0) if reproducible else time.perf_counter
    sections = []
    # the nine timed steps: four seat runs, the pairings and their confirmation at 2 and 3 players, the jokers
    bar = step_bar(9, "ring report", progress)

    timings = []

    def done(step: tuple[str, float]) -> None:
        """Record a timed step and move the bar."""
        timings.append(step)
        bar.update()

    # ---- 1. seat and order
    s1 = Section("2", "Seat and order")
    s1.p(f"Every seat plays the {DEFAULT_STRATEGY} drafting strategy (the fast heuristic: the seat runs are "
         "large) and arranges its hands strongest first. Seat 1 "
         "chooses first in round 1; with the rule's rotation the first player moves one seat left each "
         "round, so with two players seat 1 chooses first in five rounds of nine and seat 2 in four. The "
         "variant without rotation keeps seat 1 first in every round. Win share: a win counts 1, a win "
         "shared by k players 1/k. The test of equal chances is a Wald test that every seat's expected win "
         "share is 1/players.")
    seat_frames = []
    tests = []
    for players in (2, 3):
        for rotate in (True, False):
            r = RingRules(players=players, joker=base.joker, rotate=rotate)
            t0 = timer()
            sim = simulate(r, None, games, seed)
            done((f"seats, {players} players, rotate={rotate}", timer() - t0))
            f = sim.to_frame()
            f.insert(0, "rotate", rotate)
            f.insert(0, "players", players)
            seat_frames.append(f)
            eq = sim.equal_chances()
            tests.append({"players": players, "rotate": rotate, "chi_square": eq.statistic, "df": eq.df,
                          "p_value": eq.p_value})
            if players == 2 and rotate:
                cat_frame = sim.category_frame()
    seats = pd.concat(seat_frames, ignore_index=True)
    s1.blocks.append(document_table("Win share and points by seat (95% intervals)", seats, "seats",
                                    names=["players", "rotate", "seat", "starts", "win", "points", "outright"]))
    tests = pd.DataFrame(tests)
    s1.blocks.append(document_table("Test of equal chances by seat", tests, "equal_chances"))
    s1.plot("ring-seats", "Win share by seat",
            "Every seat greedy-fast: each seat's win share with its 95% interval, with the rule's rotation and "
            "without, and the fair share 1/players (dashed).", lambda fig, box: _plot_seats(fig, box, seats))
    sections.append(s1)

    # ---- 2. strategies
    s2 = Section("3", "Drafting strategies: pairings and best responses")
    pair_games = max(100, games // 40) if pair_games is None else check_whole(pair_games, "pair_games")
    s2.p("greedy takes the pair with the largest expected value of the best arrangement of the cards held, the "
         "pair and the pairs still to come (four completions drawn from the unseen cards, each arranged strongest "
         "first and scored against 2,000 random opponents); greedy-fast, lookahead and denial use the fast "
         "integer potential (docs/ring-poker.md).")
    s2.p(f"Each strategy at each seat against every other strategy at the other seats, {pair_games:,} games "
         "per seating on the same deals (common random numbers); the focal strategy's win share is the mean "
         "over its seats. A best response is the focal strategy with the largest win share against an "
         "opponent strategy; equal chances would be 1/players.")
    s2.p(f"A best of {len(strategies)} candidates on the seed that picked it is biased toward luck, so against "
         "each opponent strategy the selected best response and the runner-up are played again, "
         f"{pair_games:,} games per seating on a fresh seed (seed {seed} + {CONFIRM_SEED_OFFSET} + the "
         "opponent's place in the list: no pairing of the selection used it), both on the same deals. The "
         "table shows their fresh win shares and the paired lead with its 95% interval; where that interval "
         "contains zero it says no detectable difference.")
    confirmations = {}
    for players in (2, 3):
        t0 = timer()
        table = pairings(RingRules(players=players, joker=base.joker), strategies, games=pair_games, seed=seed)
        done((f"pairings, {players} players", timer() - t0))
        pf = table.to_frame()
        t0 = timer()
        confirmed = table.confirm(pair_games).to_frame()
        done((f"confirmation, {players} players", timer() - t0))
        confirmations[players] = confirmed
        s2.blocks.append(document_table(f"{players} players: focal strategy against the others", pf,
                                        f"pairings_{players}p"))
        shown = document_table(f"{players} players: best responses confirmed on fresh seeds",
                               exact_shares(confirmed, players), f"best_responses_{players}p",
                               declared=_CONFIRMATION,
                               names=["against", "selected", "runner_up", "win", "runner_up_win", "verdict"],
                               note="'exact': the strategy plays every seat, so its mean win share is 1/players "
                                    "by symmetry (the shares of a game add up to 1), whatever the deals.")
        s2.blocks.append(replace(shown, data=confirmed))  # the CSV keeps the run's own figures
    sections.append(s2)

    # ---- 3. arrangements
    s3 = Section("4", "Arrangement statistics")
    s3.p(f"Hand categories of the three slots (two players, {DEFAULT_STRATEGY} drafting, strongest-first "
         "arrangement), "
         "as fractions of hands. The arrangement solver is exact for its objective; its time per "
         "arrangement is measured below on random 18-card holdings (one thread, on a shared machine).")
    s3.blocks.append(document_table("Slot categories (share of hands)", cat_frame, "slot_categories"))
    rng = np.random.default_rng(seed)
    model = opponent_model(base, samples=500, seed=seed)
    speed = []
    for objective in ("strongest", "points"):
        arrs = [arrange(rng.choice(54, 18, replace=False), rules=base, objective=objective, opponent=model)
                for _ in range(timing_holdings)]
        secs = [a.seconds for a in arrs]
        row = {"objective": objective, "holdings": timing_holdings, "mean_ms": 1e3 * float(np.mean(secs)),
               "max_ms": 1e3 * float(np.max(secs)), "mean_se": float("nan"), "beyond_2se": float("nan")}
        if objective == "points":
            z = [a.advantage_z for a in arrs]
            row["mean_se"] = float(np.mean([a.std_error for a in arrs]))
            row["beyond_2se"] = float(np.mean(np.array(z) > 2))
        speed.append(row)
    speed = pd.DataFrame(speed)
    s3.p(f"Objective points plays against {model.slot_keys.shape[0]} sampled opponents (seed {seed}): its value "
         "is an estimate, with a standard error; the runner-up is the best arrangement not dominated slot by "
         "slot by the chosen one (only such an arrangement could be better against the true distribution), and "
         "'advantage beyond 2 s.e.' is the share of holdings whose chosen arrangement beats the runner-up by more "
         "than two paired standard errors on the same opponents.")
    s3.table("Time per arrangement (varies between machines and loads)",
             ["objective", "holdings", "mean ms", "max ms", "mean s.e. of the value", "advantage beyond 2 s.e."],
             [[r.objective, str(r.holdings), Volatile(num(r.mean_ms, 3)), Volatile(num(r.max_ms, 3)),
               "" if r.objective == "strongest" else num(r.mean_se, 4),
               "" if r.objective == "strongest" else pct(r.beyond_2se, 1)]
              for r in speed.itertuples()])
    sections.append(s3)

    # ---- 4. the joker reading
    t0 = timer()
    joker_section, jokers = _joker_section(base, games, pair_games, seed)
    sections.append(joker_section)
    done(("the joker readings", timer() - t0))
    bar.close()
    sections.insert(0, _summary_section(_summary_frame(seats, tests, confirmations, jokers, base.joker), games,
                                        pair_games))

    # ---- 5. provenance
    s4 = Section("6", "Provenance")
    date = provenance.build_date(reproducible)
    raw = provenance.rules_provenance_rows(base, {"games": games, "seed": seed, "pair_games": pair_games,
                                                  "varied": "players 2 and 3, rotation on and off as stated"}, date)
    prov = [(k, Volatile(v) if volatile else v) for k, v, volatile in raw]
    for name, sec in timings:
        prov.append((f"run time: {name}", Volatile("not recorded" if reproducible else f"{sec:.1f} s")))
    prov.append(("run time: whole report",
                 Volatile("not recorded" if reproducible else f"{time.perf_counter() - start:.1f} s")))
    s4.table("Provenance", ["item", "value"], [[a, b] for a, b in prov], align=["l", "l"])
    sections.append(s4)
    sections.append(glossary_section("7", RING_TERMS))
    # page 1: the document control and the summary's figures (issue 36)
    sections[:0] = game_front(base, raw, document="ring", size=f"{games:,} games per seat run, {pair_games:,} per "
                              "seating", seed=seed, run_time=None if reproducible else time.perf_counter() - start,
                              summary=sections[0], paragraphs=0)

    # the rule in words: "jokers bug" read as a software bug (issue 37); the option's value stays ``bug``
    title = f"Ring Poker: seat, order and strategy report ({JOKER_WORDS[base.joker]})"
    subtitle = [f"{games:,} games per seat run, seed {seed}; Monte Carlo with 95% confidence intervals.",
                f"{JOKER_WORDS[base.joker].capitalize()} (option --joker {base.joker.name.lower()}): "
                f"{_JOKER_WORDS[base.joker]} (the glossary at the end defines "
                "every term)."]
    written = write_report_folder(out, sections, {}, title, subtitle, date, REPORT_KIND,
                                  {"joker": base.joker.name.lower(), "seed": seed, "games": games})
    return ReportResult(out_dir=out, files=written.files, tables=written.tables, size=f"{games:,} games",
                        seconds=time.perf_counter() - start, notes=written.notes,
                        kept=written.kept)


#: the joker readings in words, for the subtitle (the title names the reading in force)
_JOKER_WORDS = {Joker.BUG: "a joker counts as an ace, or as any card that completes a straight or a flush",
                Joker.WILD: "a joker is any card", Joker.DEAD: "a joker has no rank and no suit"}


def exact_shares(confirmed: pd.DataFrame, players: int) -> pd.DataFrame:
    """The confirmation table for display: a strategy played against itself (``selected`` or ``runner_up``
    equal to ``against``: every seat plays it) has a mean win share of exactly 1/players, by symmetry, so its
    cell says "exact" instead of a Monte Carlo interval of width 0 (issue 36: "33.33 ± 0.00")."""
    out = confirmed.copy()
    for who, col in (("selected", "win"), ("runner_up", "runner_up_win")):
        same = out[who] == out["against"]
        if same.any():
            out[col] = out[col].astype(object)
            out.loc[same, col] = f"{100 / players:.2f} (exact)"
    return out


#: the summary table's own columns (reports/columns.py declares edge and p_value)
_SUMMARY = {c.name: c for c in (
    Column("figure", "figure", "", "text", 0),
    Column("estimate", "estimate", "fraction", "percent", 2, "a win share or a share of holdings"),
    Column("lead", "lead over the runner-up", "fraction", "percent", 2, "fresh seed, paired"),
)}


def _summary_frame(seats: pd.DataFrame, tests: pd.DataFrame, confirmations: dict, jokers: pd.DataFrame,
                   joker: Joker) -> pd.DataFrame:
    """The main figures, one row each with its 95% interval: seat 1's win share and edge over 1/players with
    the equal-chances p-value (2 and 3 players, rotation on and off); each confirmed best response's fresh
    win share and paired lead; the other joker reading's seat-1 win shares and straight-flush holdings beside
    the default's."""
    rows = []
    for t in tests.itertuples():
        r = seats[(seats.players == t.players) & (seats.rotate == t.rotate) & (seats.seat == 1)].iloc[0]
        fair = 1 / t.players
        rows.append({"figure": f"seat 1, {t.players} players, rotation {'on' if t.rotate else 'off'}",
                     "estimate": r.win, "estimate_low": r.win_low, "estimate_high": r.win_high,
                     "edge": 100 * (r.win - fair), "edge_low": 100 * (r.win_low - fair),
                     "edge_high": 100 * (r.win_high - fair), "p_value": t.p_value})
    for players, conf in confirmations.items():
        for c in conf.itertuples():
            # a strategy against itself plays every seat: its mean share is 1/players exactly, by symmetry
            same = c.selected == c.against
            win, low, high = (1 / players,) * 3 if same else (c.win, c.win_low, c.win_high)
            rows.append({"figure": f"{players} players, best response to {c.against}: {c.selected} "
                                   f"(runner-up {c.runner_up}), fresh seed" + (" (its share exact: self-play)"
                                                                               if same else ""),
                         "estimate": win, "estimate_low": low, "estimate_high": high, "lead": c.lead,
                         "lead_low": c.lead_low, "lead_high": c.lead_high, "p_value": c.p_value})
    # the default reading's seat figures are the rotation-on rows above: only the other reading's are added
    keep = jokers[(jokers.figure.str.startswith("first seat") & (jokers.joker != joker.name.lower()))
                  | jokers.figure.str.startswith("random 18-card")]
    for r in keep.itertuples():
        rows.append({"figure": f"{r.figure}, {r.joker} jokers" + (" (default)" if r.joker == joker.name.lower()
                                                                   else ""),
                     "estimate": r.value, "estimate_low": r.value_low, "estimate_high": r.value_high,
                     "p_value": r.p_value})
    return pd.DataFrame(rows, columns=["figure", "estimate", "estimate_low", "estimate_high", "edge", "edge_low",
                                       "edge_high", "lead", "lead_low", "lead_high", "p_value"])


def _within(value: float, low: float, high: float, col: Column, unit: str = "") -> str:
    """``value ± h`` in ``col``'s format, or "no detectable difference (± h)" where [low, high] holds zero."""
    return estimate_text(col, value, low, high, unit)


def _summary_section(summary: pd.DataFrame, games: int, pair_games: int) -> Section:
    """Section 1: the main findings in prose, every figure formatted from ``summary``, and the summary table."""
    pc, edge = _SUMMARY["estimate"], Column("edge", "edge", "points", "number", 2)

    def p_text(value: float) -> str:
        return p_value_text(value, prefix=True)  # the one format, as the summary table shows it

    seat = summary.dropna(subset=["edge"])
    s = Section("1", "Summary")
    s.p(f"Every seat greedy-fast, {games:,} games per run: seat 1's win share and its edge over the fair "
        "1/players (points), with the Wald test of equal chances: "
        + "; ".join(f"{r.figure.replace('seat 1, ', '')}: {cell(pc, r.estimate, r.estimate_low, r.estimate_high)}%, "
                    f"edge: {_within(r.edge, r.edge_low, r.edge_high, edge, ' points')}, {p_text(r.p_value)}"
                    for r in seat.itertuples()) + ".")
    best = summary.dropna(subset=["lead"])
    if len(best):
        s.p(f"Best responses picked on one seed and played again on a fresh one ({pair_games:,} games per "
            "seating), lead over the runner-up in points: "
            + "; ".join(f"{r.figure.replace(', fresh seed', '')}: "
                        f"{_within(r.lead, r.lead_low, r.lead_high, pc)} ({p_text(r.p_value)})"
                        for r in best.itertuples()) + ".")
    joker = summary[summary.figure.str.contains("jokers")]
    s.p("The joker reading, the default's figures beside the other's: " + "; ".join(
        f"{r.figure}: {cell(pc, r.estimate, r.estimate_low, r.estimate_high)}%"
        + ("" if np.isnan(r.p_value) else f" (equal chances {p_text(r.p_value)})") for r in joker.itertuples()) + ".")
    s.blocks.append(document_table("Summary: seat 1, the confirmed best responses and the joker readings "
                                   "(95% intervals)", summary, "summary", declared=_SUMMARY))
    return s


def _plot_seats(fig, box, seats: pd.DataFrame) -> None:
    """One panel per player count: each seat's win share with its 95% interval, rotation on and off, and the
    fair share 1/players."""
    from matplotlib.ticker import PercentFormatter

    x0, y0, w, h = box
    for k, (players, g) in enumerate(seats.groupby("players", sort=True)):
        ax = axes_in(fig, (x0 + k * w / 2, y0, w / 2, h), right=0.25)  # panel k of two
        for j, (rotate, part) in enumerate(g.groupby("rotate", sort=False)):
            ax.errorbar(part.seat + (j - 0.5) * 0.15, part.win, yerr=[part.win - part.win_low,
                                                                     part.win_high - part.win],
                        fmt="o", ms=4, capsize=3, color=f"C{j}", label=f"rotation {'on' if rotate else 'off'}")
        ax.axhline(1 / players, color="0.4", lw=0.8, ls="--", label=f"1/{players}")
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.set_xticks(sorted(g.seat.unique()))
        ax.set_xlabel(f"seat ({players} players)")
        ax.set_ylabel("win share")
        ax.grid(alpha=0.3)
        if k == 0:
            ax.legend(fontsize=6, frameon=False)


#: the name before the game contract (issue 26)
ring_report = build_report
