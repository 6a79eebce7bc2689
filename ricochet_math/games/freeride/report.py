"""A short Free Ride Poker report: HTML, PDF and CSV tables in one folder, with the casino report's
provenance rules.

It reuses the casino report's machinery: the document model (:mod:`ricochet_math.reports.document`),
the renderers (:mod:`ricochet_math.reports.render`), the provenance rows
(:mod:`ricochet_math.reports.provenance`: package, commit, libraries, machine, arguments, the build
date marked volatile and left out of reproducible builds) and the output-folder rules
(:mod:`ricochet_math.storage`): the report is written into a temporary folder and moved into place
whole; the target may be new, empty, or a folder this report wrote (its marker file); anything else
is refused with one line before any work.

Sections: the rules in force and our readings; the method; game length and chip swings by table
size; seat and starting-player effects; the best response among the strategies; the value of the free
ride; two-player decisions from the solver; provenance.
"""
from __future__ import annotations

import os
import time
from dataclasses import fields, replace
from pathlib import Path

import pandas as pd

from ricochet_math.arguments import check_seed, check_whole
from ricochet_math.errors import RuleError, quote
from ricochet_math.games.freeride.analysis import (
    CANDIDATES, best_response, free_ride_value, simulate_games, simulate_rounds,
)
from ricochet_math.games.freeride.rules import FreeRideRules
from ricochet_math.games.freeride.solver import last_card_study, solve_state
from ricochet_math.reports.build import ReportResult
from ricochet_math.reports.columns import Column, cell, column, document_table, estimate_text
from ricochet_math.reports.plots import axes_in
from ricochet_math.reports.document import Section
from ricochet_math.reports.folder import write_report_folder
from ricochet_math.reports.front_page import game_front
from ricochet_math.reports.glossary import FREERIDE_TERMS, glossary_section
from ricochet_math.progress import step_bar
from ricochet_math.storage import prepare_output_folder

__all__ = ["build_report", "freeride_report", "REPORT_KIND"]

REPORT_KIND = "freeride-report"

#: what each option means and why its default (the readings where the seed is silent: docs/rules.md)
_READINGS = {
    "start_chips": "chips each player starts with (seed: 50)",
    "fold_costs": "fold price by cards face up 0..4 (seed: 1, 2, 3, 5 for 1..4; 0 face up only without an "
                  "opening card)",
    "showdown_loss": "what each showdown loser pays into the middle (seed: 10)",
    "opening": "reading: every player first shows an opening card; the lowest (rank, then suit, spades "
               "highest) starts, so 'the lowest card in front of her' has a card to read",
    "free_ride": "seed: a player short of chips may still play; losing she pays all she has and is out",
    "refill_after_last": "reading: no refill after the fifth card (the hand is finished)",
    "odd_chips": "reading: a split pot's odd chips go one each to the tied winners in turn order from the starter",
    "min_seats": "seed: computer players fill a table to four",
    "max_rounds": "a cap for the kernels (never reached in these runs)",
}


#: the report's own columns (the one column schema, reports/columns.py, declares the shared ones: seats, seat,
#: win, net_per_round, ...); the CSV keeps every column at full precision
_COLUMNS = {c.name: c for c in (
    Column("rounds_per_game", "game length", "rounds", "number", 2, "mean rounds per game"),
    Column("swing_rms", "swing, rms", "chips", "number", 2, "root mean square of a seat's net chips in a round"),
    Column("free_rides_per_game", "free rides", "per game", "number", 3, "rounds ridden free per game"),
    Column("free_ride_wins_per_game", "free-ride wins", "per game", "number", 3, "pots won riding free per game"),
    Column("win", "game win rate", "fraction", "percent", 2, "share of games won (a shared win counts 1/k)"),
    Column("position", "position after the starter", "position", "count", 0, "0 = the starter"),
    Column("refill_after_last", "refill after the fifth card", "", "text", 0, "the refill reading"),
    Column("starter", "starter", "chips", "number", 3, "the starter's net chips per round"),
    Column("last", "last position", "chips", "number", 3, "the last position's net chips per round"),
    Column("chips", "final stack", "chips", "number", 1, "chips at the end of the game"),
    Column("fair", "fair share", "fraction", "percent", 1, "the win rate of equal chances, 1 / seats"),
    Column("runner_up", "runner-up", "", "text", 0, "the second best of the selection"),
    Column("runner_up_win", "fresh win rate, runner-up", "fraction", "percent", 2, "on a fresh seed"),
    Column("verdict", "lead (points)", "", "text", 0, "the fresh lead, or no detectable difference"),
    Column("face_up", "face up", "", "text", 0, "the hero's cards face up"),
    Column("opp_up", "opponent shows", "", "text", 0, "the opponent's cards face up"),
    Column("value", "value", "chips", "number", 3, "the best action's expected chips"),
    Column("fold", "fold", "chips", "number", 0, "the chips of folding now"),
    Column("best_folds", "best play folds", "fraction", "percent", 1, "share of decisions the exact best folds"),
    Column("strategy_folds", "strategy folds", "fraction", "percent", 1, "share of decisions the strategy folds"),
    Column("regret", "given up", "chips", "number", 3, "chips per decision given up to the best play"),
)}


def _table(s: Section, title: str, frame: pd.DataFrame, csv: str | None, **kw):
    """A report table of ``frame`` read through the one column schema and the report's own columns."""
    t = document_table(title, frame, csv, declared=_COLUMNS, **kw)
    s.blocks.append(t)
    return t


def _rules_section(rules: FreeRideRules) -> Section:
    s = Section("2", "Rules in force and our readings")
    s.p("Free Ride Poker (the publisher's 'How to Play'): 1-6 players (computer players fill a table to four), "
        "50 chips each, five cards each; every player plays five cards one at a time face up (the fifth face "
        "down), refilling her hand from the deck after each; folding costs 1, 2, 3 or 5 chips by the cards "
        "face up; at the showdown every player but the best pays 10 and the best takes the middle (ties split). "
        "A player short of chips rides free: losing, she pays what she has and is out, and the game ends after "
        "that round; the most chips wins.")
    frame = pd.DataFrame([{"option": f.name, "value": str(getattr(rules, f.name)),
                           "meaning": _READINGS.get(f.name, "")} for f in fields(rules)])
    # text only: the report's own columns (a numeric "value" among them) do not apply
    s.blocks.append(document_table("Every option in force", frame, "rules", titles={"meaning": "meaning and reason"}))
    return s


def _lead_text(r) -> str:
    """The confirmed lead in points, or "no detectable difference (± x)" when its interval holds zero."""
    half = 50 * (r.lead_high - r.lead_low)
    if r.lead_low <= 0 <= r.lead_high:
        return f"no detectable difference (± {half:.2f})"
    return f"{100 * r.lead:+.2f} ± {half:.2f}"


def _confirm_best(bt: pd.DataFrame, rules: FreeRideRules, games: int, seed: int, workers) -> pd.DataFrame:
    """The two best candidates of each table size, each played again on its own fresh seed (``seed + 1000 *
    seats + rank``: none took part in the selection) against computer players: win rates and the lead."""
    rows = []
    for n, g in bt.groupby("seats", sort=True):
        top = g.sort_values("win", ascending=False).head(2)
        if len(top) < 2:
            continue
        fresh = []
        for rank, strategy in enumerate(top.strategy, start=1):
            r = simulate_games([strategy] + ["computer"] * (int(n) - 1), rules, games=games,
                               seed=seed + 1000 * int(n) + rank, workers=workers)
            fresh.append(r.win(0))
        a, b = fresh
        d = a.estimate - b.estimate
        half = 1.959964 * (a.std_error ** 2 + b.std_error ** 2) ** 0.5
        rows.append({"seats": int(n), "selected": top.strategy.iloc[0], "runner_up": top.strategy.iloc[1],
                     "win": a.estimate, "win_low": a.low, "win_high": a.high, "runner_up_win": b.estimate,
                     "runner_up_win_low": b.low, "runner_up_win_high": b.high, "lead": d, "lead_low": d - half,
                     "lead_high": d + half, "confirmed": bool(d - half > 0)})
        rows[-1]["verdict"] = _lead_text(pd.Series(rows[-1]))
    return pd.DataFrame(rows, columns=["seats", "selected", "runner_up", "win", "win_low", "win_high",
                                       "runner_up_win", "runner_up_win_low", "runner_up_win_high", "lead",
                                       "lead_low", "lead_high", "confirmed", "verdict"])


def _position_readings(rules: FreeRideRules, rounds: int, seed: int, workers) -> pd.DataFrame:
    """Six computer players under each opening reading and each refill reading: the starter's and the last
    position's net chips per round (same seed for every reading: the same decks)."""
    rows = []
    for opening in ("card", "hand", "rotate"):
        for refill in (False, True):
            r = simulate_rounds(["computer"] * 6, rules.with_options(opening=opening, refill_after_last=refill),
                                rounds=rounds, seed=seed, workers=workers)
            first, last = r.net_by_position(0), r.net_by_position(5)
            rows.append({"opening": opening, "refill_after_last": refill, "starter": first.estimate,
                         "starter_low": first.low, "starter_high": first.high, "last": last.estimate,
                         "last_low": last.low, "last_high": last.high})
    return pd.DataFrame(rows)


def build_report(out_dir: str | os.PathLike, *, rules: FreeRideRules | None = None, games: int = 4_000,
                 rounds: int = 100_000, seed: int = 2026, seats=(2, 3, 4, 5, 6), candidates=CANDIDATES,
                 reproducible: bool = False, workers: int | None = None, progress: bool = False) -> ReportResult:
    """Compute and write the short report (see the module docstring) into ``out_dir``; returns the casino
    report's :class:`~ricochet_math.reports.build.ReportResult`.

    ``games``: games per simulated configuration; ``rounds``: rounds for the starting-player effect;
    ``seed``: the one seed of every run (common random numbers); ``reproducible``: leave the date out so
    every file is byte-identical between builds.
    """
    # matplotlib, jinja2 and the PDF backend load here, not at the top: `import ricochet_math` imports
    # this module's package, and the casino report measured them at more than doubling that import
    from ricochet_math.reports import provenance

    t0 = time.perf_counter()
    rules = rules or FreeRideRules()
    games, rounds = check_whole(games, "games", high=10**8), check_whole(rounds, "rounds", high=10**10)
    seed = check_seed(seed, allow_none=False)
    for what, values in (("seats", seats), ("candidates", candidates)):
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__") or not len(values):
            raise RuleError(f"{what} must be a non-empty list, got {quote(values)}")
    seats = tuple(check_whole(n, "seats", low=2, high=6) for n in seats)
    out = prepare_output_folder(out_dir, REPORT_KIND)  # refused before any work

    table_rules = rules.with_options(min_seats=1)
    bar = step_bar(5, "free ride report", progress)  # sections 4 to 8, each its own runs
    sections = [_rules_section(rules)]
    m = Section("3", "Method")
    m.p(f"Every figure is a Monte Carlo estimate from the numba kernel (tested equal, chip for chip, to the "
        f"readable engine), played in seeded batches through the toolkit's batch driver: {games:,} games per "
        f"configuration, {rounds:,} rounds for the position effects, seed {seed} for every run, so strategies "
        f"are compared on the same deals. Intervals are 95% normal intervals. A game's win is shared among the "
        f"players tied for most chips. The computer players are our stand-in strategy 'computer' (play on with "
        f"a plan of at least a pair of eights at three cards face up and tens at four; show the highest card).")
    sections.append(m)

    s3 = Section("4", "Game length and chip swings")
    rows = []
    for n in seats:
        g = simulate_games(["computer"] * n, table_rules, games=games, seed=seed, workers=workers)
        L = g.length
        rows.append({"seats": n, "rounds_per_game": L.estimate, "rounds_per_game_low": L.low,
                     "rounds_per_game_high": L.high,
                     "swing_rms": g.swing, "unfinished": int(g.sums["unfinished"][0]),
                     "free_rides_per_game": float(g.sums["free_rides"].sum()) / games})
    length = pd.DataFrame(rows)
    s3.p("Rounds per game and the chip swing (root mean square of a seat's net chips in a round), computer "
         "players at every seat.")
    _table(s3, "Game length by table size", length, "game_length",
           names=["seats", "rounds_per_game", "swing_rms", "free_rides_per_game"])
    sections.append(s3)
    bar.update()

    s4 = Section("5", "Seat and starting-player effects")
    g4 = simulate_games(["computer"] * 4, table_rules, games=games, seed=seed, workers=workers)
    r4 = simulate_rounds(["computer"] * 4, table_rules, rounds=rounds, seed=seed, workers=workers)
    seat_rows = []
    for s in range(4):
        w, p = g4.win(s), r4.net_by_position(s)
        seat_rows.append({"seat": s + 1, "win": w.estimate, "win_low": w.low, "win_high": w.high,
                          "position": s, "net_per_round": p.estimate, "net_per_round_low": p.low,
                          "net_per_round_high": p.high})
    seat_frame = pd.DataFrame(seat_rows)
    s4.p("Four computer players. Seats differ only through ties (the odd chips go in turn order) and chance: "
         "the game win rate by seat should be 25%. Within a round the starter (position 0) loses chips, mostly "
         "by selection: she is the player who opened with the lowest card, and the computer opens with its "
         "highest, so hers is the weakest hand at the table (docs/free-ride-poker.md compares the readings).")
    _table(s4, "Win rate by seat (games) and net chips per round by position after the starter (rounds)",
           seat_frame, "seats")
    readings = _position_readings(rules, rounds, seed, workers)
    default = readings[(readings.opening == rules.opening) & (readings.refill_after_last == rules.refill_after_last)]
    s4.plot("freeride-seats", "Win rate by seat and net chips by position",
            "Four computer players: the game win rate by seat with the fair 25% (left), and net chips per round "
            "by position after the starter (right; six seats under the default readings as open marks); every "
            "point with its 95% interval.", lambda fig, box: _plot_seats(fig, box, seat_frame, default))
    s4.p("Two readings could move the position figures (docs/rules.md, 'Free Ride Poker'): how a round opens (our "
         "default 'card': everyone shows an opening card, the lowest starts; 'hand': the holder of the lowest "
         "card starts with no opening card; 'rotate': the start moves round the table) and whether a player "
         "draws a refill after playing her fifth card (default no: the seed draws a card 'after playing your "
         "card', but her hand is finished). Six computer players, net chips per round of the starter and of "
         "the last position after her, under each pair of readings, on the same seed. The refill reading moves "
         "nothing: a refill after the fifth card is drawn after every other refill of the round and is never "
         "played, so its rows repeat the default's digit for digit. What the last position loses at six seats "
         "comes from the deck running dry (30 cards dealt, 22 left for up to 24 refills), under every opening.")
    _table(s4, "Six seats: the starter and the last position under each reading (net chips per round)",
           readings, "position_readings",
           note=f"The defaults: opening '{rules.opening}', refill after the fifth card "
                f"'{'yes' if rules.refill_after_last else 'no'}'.")
    sections.append(s4)
    bar.update()

    s5 = Section("6", "Best response among the strategies")
    br = best_response(candidates, seats, rules=rules, games=games, seed=seed, workers=workers)
    bt = br.to_frame()
    s5.p("Each candidate strategy in seat 1 against computer players in the other seats; the table shows the "
         "three best by win rate at each table size (all candidates in the CSV). Strategies: thresholds on the "
         "plan (the best hand she can finish with from what she holds) by cards face up, which card to show "
         "(strong, weak, hide) and 'wary' (fold when a visible board alone beats the plan). A name "
         "t:P1,P2,P3,P4 lists the thresholds with 1 to 4 cards face up ('x': no threshold, '88': a pair of "
         "eights), then the card shown and ':wary' (the glossary spells out every named strategy).")
    top = bt.sort_values(["seats", "win"], ascending=[True, False]).groupby("seats").head(3)
    # the table shows the three best; its CSV and workbook sheet hold every candidate
    shown = document_table("Best responses to computer players", top, "best_response", declared=_COLUMNS,
                           names=["seats", "strategy", "win", "chips", "fair"])
    s5.blocks.append(replace(shown, data=bt))
    conf = _confirm_best(bt, table_rules, games, seed, workers)
    s5.p("A best of many candidates on one seed is biased toward luck, so the two best of each table size are "
         "played again on fresh seeds that took no part in the selection (one seed per cell, independent "
         "cells); the confirmed lead is the difference of the fresh win rates with its 95% interval. Where "
         "that interval contains zero the table says so: no detectable difference.")
    _table(s5, "The selection confirmed on fresh seeds", conf, "best_response_confirmed",
           names=["seats", "selected", "runner_up", "win", "runner_up_win", "verdict"],
           titles={"win": "fresh win rate, selected (%)"})
    sections.append(s5)
    bar.update()

    s6 = Section("7", "The value of the free ride")
    fr_rows = []
    for n in seats:
        fr = free_ride_value(["computer"] * n, table_rules, games=games, seed=seed, workers=workers)
        f = fr.to_frame().rename(columns={"rounds": "rounds_per_game", "rounds_low": "rounds_per_game_low",
                                          "rounds_high": "rounds_per_game_high"})
        f.insert(0, "seats", n)
        fr_rows.append(f)
    frt = pd.concat(fr_rows, ignore_index=True)
    s6.p("The same games with the free ride and without it (a player who cannot pay what her next card exposes "
         "her to must fold). The free ride lengthens the game: a short-stacked player keeps a chance to win a "
         "pot instead of bleeding fold prices.")
    _table(s6, "With and without the free ride", frt, "free_ride",
           names=["seats", "rule", "rounds_per_game", "free_rides_per_game", "free_ride_wins_per_game"])
    sections.append(s6)
    bar.update()

    s7 = Section("8", "Two-player decisions (exact)")
    s7.p("The hero's best response to the blind rider (an opponent who never folds and shows random cards), by "
         "backward induction over every unseen card (exact from three cards face up). Values in chips.")
    sol_rows = []
    for hand, up, opp in (("7s 8h Kd Qc 2s", "Ad 9s 3c", "2c 7d 9h"), ("As Ah Kd Qc 3s", "Ad 5s 9c Jh", "Tc Td 4h 8s"),
                          ("As Ah Kd Qc 3s", "2d 5s 9c Jh", "Tc Td 4h 8s")):
        sol = solve_state(hand, face_up=up, opp_up=opp, samples=None)
        sol_rows.append({"hand": hand, "face_up": up, "opp_up": opp, "best": sol.best_action, "value": sol.value,
                         "fold": sol.actions[-1]})
    sf = pd.DataFrame(sol_rows)
    _table(s7, "Best actions", sf, "solver")
    n_states = max(50, min(2_000, games // 2))
    study = [last_card_study(n_states, st, seed=seed, rules=rules) for st in ("computer", "always", "t:x,x,x,88")]
    lf = pd.DataFrame([{"strategy": st.strategy, "states": len(st.table),
                        "best_folds": float(st.table["best_folds"].mean()),
                        "strategy_folds": float(st.table["strategy_folds"].mean()),
                        "regret": float((st.table["best"] - st.table["strategy_value"]).mean())} for st in study])
    s7.p(f"The last decision in {n_states:,} random two-player rounds (the hero played every card so far; the "
         "opponent is the blind rider with a real hidden hand): how often the exact best play folds, how often "
         "each strategy folds, and the chips per decision it gives up to the best play. Against an opponent who "
         "never folds, the computer's threshold (a pair of tens) folds far too often.")
    _table(s7, "The last card against the blind rider", lf, "last_card",
           names=["strategy", "best_folds", "strategy_folds", "regret"])
    sections.append(s7)
    bar.update()
    bar.close()
    sections.insert(0, _summary_section(_summary_frame(seat_frame, default, conf), games, rounds))

    date = provenance.build_date(reproducible)
    digest = rules.sha256
    prov = provenance.rules_provenance_rows(rules, {"games": games, "rounds": rounds, "seed": seed,
                                                    "seats": ",".join(map(str, seats))}, date)
    s8 = Section("9", "Provenance")
    from ricochet_math.reports.document import Volatile
    s8.table("Provenance", ["item", "value"], [[k, Volatile(v) if vol else v] for k, v, vol in prov], csv=None,
             align=["l", "l"])
    sections.append(s8)
    sections.append(glossary_section("10", FREERIDE_TERMS))
    # page 1: the document control and the summary's figures (issue 36)
    sections[:0] = game_front(rules, prov, document="free-ride", size=f"{games:,} games per configuration, "
                              f"{rounds:,} rounds", seed=seed, run_time=None if reproducible else
                              time.perf_counter() - t0, summary=sections[0], paragraphs=0)
    prov_frame = pd.DataFrame([{"item": k, "value": v, "volatile": vol} for k, v, vol in prov])

    title = "Free Ride Poker: a short mathematics report"
    subtitle = [f"{games:,} games per configuration, seed {seed}; 95% confidence intervals."]
    written = write_report_folder(out, sections, {"provenance": prov_frame}, title, subtitle, date, REPORT_KIND,
                                  {"seed": seed, "games": games, "rules_sha256": digest})
    return ReportResult(out_dir=out, files=written.files, tables=written.tables, size=f"{games:,} games",
                        seconds=time.perf_counter() - t0, notes=written.notes,
                        kept=written.kept)


#: the summary table's own columns (the shared schema and _COLUMNS declare the others)
_SUMMARY = {**_COLUMNS, **{c.name: c for c in (
    Column("figure", "figure", "", "text", 0),
    Column("lead", "lead over the runner-up", "fraction", "percent", 2, "fresh seeds, percentage points"),
)}}


def _summary_frame(seat_frame: pd.DataFrame, six: pd.DataFrame, conf: pd.DataFrame) -> pd.DataFrame:
    """The main figures, one row each with its 95% interval: the win rate by seat (four seats), the starter's
    and the last position's net chips per round (four seats, and six under the default readings), and each
    table size's selected best response on its fresh seed with its lead over the runner-up."""
    rows = [{"figure": f"seat {r.seat} of 4, game win rate", "win": r.win, "win_low": r.win_low,
             "win_high": r.win_high} for r in seat_frame.itertuples()]
    for label, r in (("starter", seat_frame.iloc[0]), ("last position", seat_frame.iloc[-1])):
        rows.append({"figure": f"4 seats, {label}, net per round", "net_per_round": r.net_per_round,
                     "net_per_round_low": r.net_per_round_low, "net_per_round_high": r.net_per_round_high})
    if len(six):
        r = six.iloc[0]
        for label, key in (("starter", "starter"), ("last position", "last")):
            rows.append({"figure": f"6 seats, {label}, net per round", "net_per_round": r[key],
                         "net_per_round_low": r[f"{key}_low"], "net_per_round_high": r[f"{key}_high"]})
    for r in conf.itertuples():
        rows.append({"figure": f"{r.seats} seats, best response {r.selected} (runner-up {r.runner_up}), fresh seed",
                     "win": r.win, "win_low": r.win_low, "win_high": r.win_high, "lead": r.lead,
                     "lead_low": r.lead_low, "lead_high": r.lead_high, "seats": r.seats, "selected": r.selected,
                     "runner_up": r.runner_up})
    frame = pd.DataFrame(rows, columns=["figure", "seats", "selected", "runner_up", "win", "win_low", "win_high",
                                        "lead", "lead_low", "lead_high", "net_per_round", "net_per_round_low",
                                        "net_per_round_high"])
    frame["seats"] = frame["seats"].astype("Int64")  # blank on the rows that are not a table size's
    return frame


def _chips(r) -> str:
    """Net chips per round with its 95% half-width, or "no detectable difference (± x)" from zero."""
    return estimate_text(column("net_per_round"), r.net_per_round, r.net_per_round_low, r.net_per_round_high)


def _summary_section(summary: pd.DataFrame, games: int, rounds: int) -> Section:
    """Section 1: the main findings in prose, every figure formatted from ``summary``, and the summary table."""
    pc = Column("win", "win", "fraction", "percent", 2)
    seats = summary[summary.figure.str.startswith("seat ")]  # the four seats' win rates
    off = [r for r in seats.itertuples() if not r.win_low <= 0.25 <= r.win_high]
    half = max((r.win_high - r.win_low) / 2 for r in seats.itertuples())
    text = (f"Four computer players, {games:,} games: the game win rate by seat runs from "
            f"{cell(pc, seats.win.min())}% to {cell(pc, seats.win.max())}% against the fair 25%; ")
    text += ("every seat's 95% interval holds 25%: no detectable difference between the seats "
             f"(± {cell(pc, half)} points at most)." if not off else
             "outside the 95% interval of " + ", ".join(f"{r.figure.split(',')[0]} "
                                                         f"({cell(pc, r.win, r.win_low, r.win_high)}%)"
                                                         for r in off) + ".")
    s = Section("1", "Summary")
    s.p(text)
    pos = summary[summary.figure.str.contains("net per round")]
    s.p(f"Net chips per round by position after the starter, against zero ({rounds:,} rounds): "
        + "; ".join(f"{r.figure.replace(', net per round', '')}: {_chips(r)}" for r in pos.itertuples()) + ".")
    best = summary[summary.figure.str.contains("best response")]
    if len(best):
        s.p("The best response to computer players, picked on one seed and played again on fresh seeds: "
            + "; ".join(f"{int(r.seats)} seats: {r.selected}, fresh win rate "
                        f"{cell(pc, r.win, r.win_low, r.win_high)}%, lead over {r.runner_up} "
                        + estimate_text(pc, r.lead, r.lead_low, r.lead_high, " points")
                        for r in best.itertuples()) + ".")
    s.blocks.append(document_table("Summary: seats, positions and the confirmed best response (95% intervals)",
                                   summary, "summary", declared=_SUMMARY,
                                   names=["figure", "win", "lead", "net_per_round"]))
    return s


def _plot_seats(fig, box, seat_frame: pd.DataFrame, six: pd.DataFrame) -> None:
    """Two panels: win rate by seat with the fair share, and net chips per round by position after the
    starter (four seats; six seats' starter and last position under the default readings), 95% intervals."""
    import numpy as np

    from ricochet_math.reports.plots import fit_limits, percent_ticks

    x0, y0, w, h = box
    ax = axes_in(fig, (x0, y0, w / 2, h), right=0.25)
    f = seat_frame
    ax.errorbar(f.seat, f.win, yerr=[f.win - f.win_low, f.win_high - f.win], fmt="o", color="k", capsize=3)
    ax.axhline(0.25, color="C3", lw=0.8, ls="--", label="fair share, 25%")
    fit_limits(ax, f.win_low, f.win_high, also=(0.25,))  # every error bar inside the frame (issue 36)
    percent_ticks(ax.yaxis)                              # decimals enough for distinct ticks
    ax.set_xticks(list(f.seat))
    ax.set_xlabel("seat (4 computer players)")
    ax.set_ylabel("game win rate")
    ax.legend(fontsize=6, frameon=False)
    ax.grid(alpha=0.3)
    ax = axes_in(fig, (x0 + w / 2, y0, w / 2, h), right=0.25)
    ax.errorbar(f.position, f.net_per_round, yerr=[f.net_per_round - f.net_per_round_low,
                                                   f.net_per_round_high - f.net_per_round],
                fmt="o", color="k", capsize=3, label="4 seats")
    if len(six):
        r = six.iloc[0]
        est = [r.starter, r["last"]]
        ax.errorbar([0.12, 5], est,  # beside the four-seat starter
                    yerr=[[r.starter - r.starter_low, r["last"] - r.last_low],
                          [r.starter_high - r.starter, r.last_high - r["last"]]],
                    fmt="o", mfc="none", color="C0", capsize=3, label="6 seats")
    ax.axhline(0, color="0.6", lw=0.8)
    lows = [f.net_per_round_low] + ([[six.iloc[0].starter_low, six.iloc[0].last_low]] if len(six) else [])
    highs = [f.net_per_round_high] + ([[six.iloc[0].starter_high, six.iloc[0].last_high]] if len(six) else [])
    fit_limits(ax, np.concatenate([np.ravel(v) for v in lows]), np.concatenate([np.ravel(v) for v in highs]),
               also=(0.0,))
    ax.set_xlabel("position after the starter (0 = the starter)")
    ax.set_ylabel("net chips per round")
    ax.legend(fontsize=6, frameon=False)
    ax.grid(alpha=0.3)


#: the name before the game contract (issue 26)
freeride_report = build_report
