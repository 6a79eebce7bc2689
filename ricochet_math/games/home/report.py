"""A short report on the home game and Ricochet Poker II: is every seat equally fair?

:func:`home_report_tables` computes the figures (as DataFrames); :func:`build_home_report`
writes them as a self-contained HTML page and CSV tables through the casino report's
machinery (:mod:`ricochet_math.reports.document`, :mod:`ricochet_math.reports.folder`)
with the same provenance rows (package, git commit and state, libraries, machine, rule
set and its digest, arguments: size, players, games, seed; the build date and run time).
"""
from __future__ import annotations

import hashlib
import json
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from ricochet_math.arguments import check_seed
from ricochet_math.errors import RicochetError, quote
from ricochet_math.games.home.analysis import contrast_table, simulate, simulate_games
from ricochet_math.games.home.rules import HomeRules
from ricochet_math.games.home.shortcuts import game_positions, shortcut_error
from ricochet_math.games.home.solver import Position, depth_error
from ricochet_math.games.home.strategies import EXACT_TWO_HAND_ROOM, parse_strategy
from ricochet_math.reports.build import ReportResult
from ricochet_math.reports.columns import Column, document_table, p_text
from ricochet_math.reports.plots import axes_in
from ricochet_math.reports.document import Section, Volatile
from ricochet_math.reports.folder import write_report_folder
from ricochet_math.reports.front_page import game_front
from ricochet_math.reports.glossary import HOME_TERMS, glossary_section
from ricochet_math.reports.provenance import build_date, rules_provenance_rows
from ricochet_math.progress import step_bar
from ricochet_math.storage import prepare_output_folder

__all__ = ["HOME_SIZES", "Variations", "home_report_tables", "build_report", "build_home_report", "CASINO_BY_POSITION"]

#: report sizes: games per table cell, player counts, optimal-strategy games, endgame positions for the depth error
HOME_SIZES = {
    "tiny": {"games": 2_000, "players": (2, 4), "optimal_games": 10, "positions": 4, "shortcut_games": 10},
    "small": {"games": 20_000, "players": tuple(range(2, 9)), "optimal_games": 100, "positions": 30,
              "shortcut_games": 100},
    "full": {"games": 200_000, "players": tuple(range(2, 9)), "optimal_games": 1_000, "positions": 40,
             "shortcut_games": 1_000},
}
#: casino Ricochet under perfect play, by position (the toolkit's own figures, committed with the repository)
CASINO_BY_POSITION = Path(__file__).resolve().parents[3] / "reports" / "perfect-play-by-position.csv"
#: the rule variations the report compares (label, rules without the player count)
VARIATIONS = (("limit 5, 1 card (Ricochet II)", HomeRules()),
              ("limit 6, 1 card", HomeRules(hand_limit=6)),
              ("limit 7, 2 cards", HomeRules(hand_limit=7, start_cards=2)),
              ("limit 5, 1 card, jokers", HomeRules(jokers=True)))
KIND = "home-report"


#: the endgames the solver's shortcuts are measured on: cards in each live hand (the exact trees are small)
ENDGAMES = ((4, 4, 4),)


def _endgame_positions(sizes: tuple[int, ...], count: int, seed: int) -> list[Position]:
    """Random positions with hands of ``sizes`` cards and a pot of ``players`` to 24 chips."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        cards = [int(c) for c in rng.choice(52, sum(sizes), replace=False)]
        hands, i = [], 0
        for k in sizes:
            hands.append(tuple(sorted(cards[i:i + k])))
            i += k
        unseen = ((1 << 52) - 1) & ~sum(1 << c for c in cards)
        out.append(Position(tuple(hands), int(rng.integers(len(sizes), 25)), unseen))
    return out


def home_report_tables(size: str = "small", seed: int = 2026, *, workers: int | None = None,
                       strategies=("min-lift", "pot-odds"), progress: bool = False) -> dict[str, pd.DataFrame]:
    """Every figure of the report: by order of play and by seat (with the Wald tests) for each rule variation,
    strategy and player count; by starting card; the game's shape; the optimal strategy at two and three
    players; the contrast with casino Ricochet; the solver's depth error.  ``progress``: a bar on stderr over
    the runs (with the rate and the time left; none when stderr is not a terminal)."""
    if size not in HOME_SIZES:
        raise RicochetError(f"report size must be one of {', '.join(HOME_SIZES)}, got {quote(size)}")
    seed = check_seed(seed, allow_none=False)
    spec = HOME_SIZES[size]
    order_rows, seat_rows, tests, shape, start = [], [], [], [], None
    runs = [(label, rules, s) for label, rules in VARIATIONS for s in strategies]
    runs += [("limit 5, 1 card (Ricochet II)", HomeRules(), "optimal")]
    steps = sum(1 for _, _, s in runs for n in spec["players"] if s != "optimal" or n <= 3) + 1 + len(ENDGAMES)
    bar = step_bar(steps, "home report", progress)
    for label, base, strategy in runs:
        for n in spec["players"]:
            rules = base.with_players(n)
            if strategy == "optimal":
                if n > 3:
                    continue
                sim = simulate_games(rules, strategy, spec["optimal_games"], seed, batch_size=spec["optimal_games"])
            else:
                sim = simulate(rules, strategy, spec["games"], seed, workers=workers)
            key = {"variation": label, "strategy": strategy, "players": n}
            o, s = sim.by_order(), sim.by_seat()
            order_rows += [{**key, "position": i + 1, **o.iloc[i].drop("order").to_dict()} for i in range(n)]
            seat_rows += [{**key, "seat": i + 1, **s.iloc[i][["games", "win_rate", "win_rate_low", "win_rate_high", "ev",
                                                            "ev_low", "ev_high"]].to_dict()} for i in range(n)]
            st, ot = sim.seat_test(), sim.order_test()
            tests.append({**key, "games": sim.games, "seat_wald": st.statistic, "seat_df": st.df,
                          "seat_p_value": st.p_value, "seat_largest_gap": st.largest_gap, "order_wald": ot.statistic,
                          "order_p_value": ot.p_value, "order_largest_gap": ot.largest_gap, "run_time_s": sim.run_time})
            ov = sim.overall()
            shape.append({**key, **{f: ov[f].estimate for f in ov}})
            if strategy == "pot-odds" and n == 4 and label == VARIATIONS[0][0]:
                start = sim.by_start()
            bar.update()
    by_order = pd.DataFrame(order_rows)
    tables = {"by_order": by_order, "by_seat": pd.DataFrame(seat_rows), "tests": pd.DataFrame(tests),
              "shape": pd.DataFrame(shape), "by_start_4p": start}
    if CASINO_BY_POSITION.exists():
        main = VARIATIONS[0][0]
        home = by_order[(by_order.strategy == "pot-odds") & (by_order.variation == main)]
        home = home.rename(columns={"ev": "ev_by_order", "ev_low": "ev_by_order_low", "ev_high": "ev_by_order_high"})
        seats = tables["by_seat"]
        seats = seats[(seats.strategy == "pot-odds") & (seats.variation == main)].rename(
            columns={"seat": "position", "ev": "ev_by_seat", "ev_low": "ev_by_seat_low", "ev_high": "ev_by_seat_high"})
        home = home.merge(seats[["players", "position", "ev_by_seat", "ev_by_seat_low", "ev_by_seat_high"]],
                          on=["players", "position"])
        tables["contrast"] = contrast_table(home, CASINO_BY_POSITION).dropna(subset=["home_return_by_order"])
    pot_odds = parse_strategy("pot-odds")
    errors = []
    # two players: every decision real games reach once the hands have at most 4 cards of room between them,
    # against the compiled exact solver
    two = HomeRules(players=2)
    positions = game_positions(two, spec["shortcut_games"], seed, max_room=EXACT_TWO_HAND_ROOM)
    frame = shortcut_error(two, positions, depths=(1, 2))
    frame.insert(0, "endgame", f"2 players, pot-odds games, room <= {EXACT_TWO_HAND_ROOM} (exact: compiled)")
    errors.append(frame)
    bar.update()
    for sizes in ENDGAMES:
        rules = HomeRules(players=len(sizes))
        frame = depth_error(rules, _endgame_positions(sizes, spec["positions"], seed), depths=(1, 2),
                            others={"pot-odds": _pot_odds_rule(rules, pot_odds)})
        frame.insert(0, "endgame", " vs ".join(map(str, sizes)) + " cards (exact: readable)")
        errors.append(frame)
        bar.update()
    bar.close()
    tables["depth_error"] = pd.concat(errors, ignore_index=True).fillna({"left_out": 0})
    return tables


def _pot_odds_rule(rules: HomeRules, strategy):
    """The pot-odds rule at a solver position (its 128 draws from a fixed splitmix64 stream, as the kernel runs it)."""
    from ricochet_math.games.home.solver import keys_of, HomeSolver
    from ricochet_math.games.home.strategies import View

    def pick(pos: Position) -> int:
        low, room = HomeSolver(rules, 10).settle(pos.hands, pos.unseen)
        target = min(keys_of(h)[1] for s, h in enumerate(pos.hands) if h is not None and s != low)
        live = sum(h is not None for h in pos.hands)
        view = View(pos.hands[low], target, pos.pot, room, live, tuple(pos.unseen_cards()))
        return strategy.decide(view, [12345])
    return pick


class Variations:
    """The rules the report compares, as one rule object for the provenance rows: it describes itself and
    gives its digest (the SHA-256 of the variations' canonical options), like any game's rules."""

    def describe(self) -> str:
        return "home game (" + ", ".join(label for label, _ in VARIATIONS) + ")"

    @property
    def sha256(self) -> str:
        return hashlib.sha256(json.dumps([r.to_dict() for _, r in VARIATIONS], sort_keys=True).encode()).hexdigest()


#: what the optimal rows can carry (issue 36: at size small they are 100 games a player count)
_OPTIMAL_NOTE = ("The optimal strategy is played by the readable engine, {games:,} games per player count at size "
                 "{size} (size full: {full:,}): its rows check that the exact strategy runs and where its EVs lie "
                 "(intervals of about a chip), and support no finding of their own; the seat and order findings "
                 "are read from min-lift and pot-odds, {many:,} games per run.")


def _label(strategy: str, size: str) -> str:
    """A strategy's name in a table, the optimal rows with their game count (they are few: _OPTIMAL_NOTE)."""
    if strategy == "optimal":
        return f"optimal ({HOME_SIZES[size]['optimal_games']:,} games)"
    return strategy


def provenance_rows(size: str, seed: int, date: str, run_time: float | None) -> list[tuple[str, str, bool]]:
    """The report's provenance rows (every report's, :func:`~ricochet_math.reports.provenance.rules_provenance_rows`),
    with the run time."""
    rows = rules_provenance_rows(Variations(), {"size": size, "players": ",".join(map(str, HOME_SIZES[size]["players"])),
                                                "games": HOME_SIZES[size]["games"], "seed": seed}, date)
    rows.append(("run time", "not recorded" if run_time is None else f"{run_time:.1f} s", True))
    return rows


def _sections(tables: dict, size: str, seed: int, date: str, run_time: float) -> list[Section]:
    t = tables["tests"]
    found = t[t.strategy != "optimal"]  # the runs that carry findings (_OPTIMAL_NOTE)
    sec1 = Section("1", "The claim, and the answer")
    sec1.p("The rulebook says the action 'bounces to the lowest hand' and that this 'makes all table positions "
           "equally fair, so you can never be in a bad spot'; Ricochet Poker II adds 'each player has the same "
           "odds ... no advantage for any position'. By seat, that is true, and exactly so: the deck is a uniform "
           "shuffle and the action follows the cards, not the chairs, so under any strategy every seat plays "
           "every seat uses, the seats are exchangeable and every seat's EV is zero. The simulations agree: the "
           f"smallest p-value of the Wald test of equal seat EVs over the {len(found)} runs of min-lift and "
           f"pot-odds players is {p_text(found.seat_p_value.min())} (the optimal rows are a check: see Section 2).")
    sec1.p("By order of play it is false, and by a lot: the order of play is set by the cards, and the player "
           "dealt the lowest card acts first because she holds the worst hand. She loses on average; the highest "
           "card wins. That is not a seat, but it is the 'bad spot' a player can be dealt into, and it is the "
           "casino game's position effect in another form.")
    sec1.blocks.append(_summary_table(tables))
    order = tables["by_order"]
    sec2 = Section("2", "EV by order of play and by seat")
    sec2.plot("home-ev-by-position", "EV by order of play and by seat",
              "Pot-odds players, the first rule variation: chips per game by position in the order of play "
              "(1 = acts first, the lowest card) and by seat, each with its 95% interval; one line per player "
              "count.", lambda fig, box: _plot_positions(fig, box, tables))
    for label in order.variation.unique():
        part = order[(order.variation == label)]
        rows = []
        for (strategy, n), g in part.groupby(["strategy", "players"], sort=False):
            tt = t[(t.variation == label) & (t.strategy == strategy) & (t.players == n)].iloc[0]
            rows.append([_label(strategy, size), str(n), "  ".join(f"{x:+.2f}" for x in g.ev),
                         p_text(tt.seat_p_value), p_text(tt.order_p_value)])
        sec2.table(f"EV (chips per game) by position in the order of play, first to act first: {label}",
                   ["strategy", "players", "EV by order of play", "seat test p", "order test p"], rows,
                   csv=None, note="Wald tests on the covariance of the per-game nets (chi-square, N-1 df); "
                                  "p-values below 0.0001 are shown as < 0.0001 (the exact value is in the "
                                  "home-tests CSV).")
    sec2.p(_OPTIMAL_NOTE.format(games=HOME_SIZES[size]["optimal_games"], size=size,
                                full=HOME_SIZES["full"]["optimal_games"], many=HOME_SIZES[size]["games"]))
    sec2.p("Every position and every seat with its 95% interval, and every test, for each rule variation, "
           "strategy and player count, are in the appendix: the workbook report.xlsx (sheets home-by-order, "
           "home-by-seat, home-tests, home-shape) and the same tables as CSV under tables/.")
    sec3 = Section("3", "Against casino Ricochet")
    if "contrast" in tables:
        sec3.p("Return per one-chip ante by position: casino Ricochet under perfect play (the toolkit's "
               "reports/perfect-play-by-position.csv; position 1 acts first) and the home game under the pot-odds "
               "strategy, by order of play (1 = the lowest card) and by seat. The casino player who acts last "
               "returns far more than the one who acts first; in the home game the same is true of the order of "
               "play, while the seats are equal.")
        sec3.blocks.append(_frame_table("Casino and home game by position", tables["contrast"], "home-vs-casino"))
    sec4 = Section("4", "Starting card, the game's shape, the solver")
    if tables.get("by_start_4p") is not None:
        sec4.blocks.append(_frame_table("Four players, pot-odds: by starting card", tables["by_start_4p"],
                                        "home-by-start-4p"))
    sec4.p("The game's shape (average pot, decisions, cards bought, fold and split rates) for every run is the "
           "appendix table home-shape (workbook and CSV).")
    sec4.p("The optimal strategy solves each decision exactly (expectimax to the end of the game): with two live "
           f"hands by the compiled solver once they have at most {EXACT_TWO_HAND_ROOM} cards of room between them, "
           "with more by the readable solver once they have at most two, and by the pot-odds rule before that. "
           "The whole two-player game from the deal (8 cards of room) is beyond both: by an unbiased estimate "
           "(games/home/tree_size.py, checked against the solver's counts where it finishes) one deal's tree "
           "has 5 to 36 billion positions (7\u2660 v K\u2666: 10.9 billion; all 1,326 deals: 24 trillion), 0.25 to "
           "2 TB of memo at 56 bytes a position, where the compiled solver finishes 16 million (6 cards of room) "
           "in under a minute. With "
           "two starting cards a deal's tree (6 cards of room) has 6.5 to 61 million positions and is solved "
           "(docs/home-game.md, 'How far the exact solver reaches'). The shortcuts are "
           "measured against the exact solver on every two-player decision that pot-odds games reach within "
           f"{EXACT_TWO_HAND_ROOM} cards of room, and on random three-player endgames of four cards each (pots of "
           "3 to 24 chips): the share of decisions that agree and the regret, the EV (chips) the acting player "
           "gives up by the shortcut's choice. A cut search whose tree exceeds its budget is left out of its row "
           "(left_out).")
    sec4.blocks.append(_frame_table("Depth-limited search and the pot-odds rule against the exact solver",
                                    tables["depth_error"], "home-depth-error"))
    sec5 = Section("5", "Provenance")
    rows = provenance_rows(size, seed, date, run_time)
    sec5.table("Where these figures come from", ["item", "value"],
               [[k, Volatile(v) if vol else v] for k, v, vol in rows], csv=None, align=["l", "l"])
    sec5.p("Rules: docs/rules.md, 'The home game and Ricochet Poker II'. Every run uses the same seed, so the "
           "strategies and variations are compared on the same deals.")
    return [sec1, sec2, sec3, sec4, sec5, glossary_section("6", HOME_TERMS)]


#: the long tables: every run's rows, in the workbook and CSV appendix rather than pages of the PDF
APPENDIX = {"home-by-order": "by_order", "home-by-seat": "by_seat", "home-tests": "tests", "home-shape": "shape"}


def _appendix(tables: dict) -> dict[str, pd.DataFrame]:
    return {stem: tables[key] for stem, key in APPENDIX.items() if tables.get(key) is not None}


def _plot_positions(fig, box, tables: dict) -> None:
    """Two panels: EV by order of play and by seat, with 95% intervals, one line per player count."""
    x0, y0, w, h = box
    main = tables["tests"].variation.iloc[0]
    for k, (key, column, label) in enumerate((("by_order", "position", "position in the order of play"),
                                              ("by_seat", "seat", "seat"))):
        ax = axes_in(fig, (x0 + k * w / 2, y0, w / 2, h), right=0.25)  # panel k of two
        frame = tables[key]
        frame = frame[(frame.variation == main) & (frame.strategy == "pot-odds")]
        for n, g in frame.groupby("players"):
            ax.errorbar(g[column], g.ev, yerr=[g.ev - g.ev_low, g.ev_high - g.ev], marker="o", ms=3, capsize=2,
                        lw=1, label=f"{n} players")
        ax.axhline(0, color="0.6", lw=0.8)
        ax.set_xlabel(label)
        ax.set_ylabel("EV (chips per game)")
        if k == 0:
            ax.legend(fontsize=6, ncol=2)


def _summary_table(tables: dict):
    """One row per strategy and player count of the main variation: the seat test, the order test, and the
    EV of the first and the last to act (the claim and the answer at a glance)."""
    t, order = tables["tests"], tables["by_order"]
    main = t.variation.iloc[0]
    rows = []
    for r in t[t.variation == main].itertuples():
        part = order[(order.variation == main) & (order.strategy == r.strategy) & (order.players == r.players)]
        first, last = part.iloc[0], part.iloc[-1]
        rows.append({"strategy": r.strategy, "players": r.players, "games": r.games,
                     "seat_p_value": r.seat_p_value, "order_p_value": r.order_p_value,
                     "ev_first": first.ev, "ev_first_low": first.ev_low, "ev_first_high": first.ev_high,
                     "ev_last": last.ev, "ev_last_low": last.ev_low, "ev_last_high": last.ev_high})
    frame = pd.DataFrame(rows)
    declared = {"ev_first": Column("ev_first", "EV, first to act", "chips per game", "number", 2),
                "ev_last": Column("ev_last", "EV, last to act", "chips per game", "number", 2)}
    # the optimal rows name their game count in the table (they are few: _OPTIMAL_NOTE); the CSV keeps the name
    shown = frame.assign(strategy=[f"{s} ({g:,} games)" if s == "optimal" else s
                                   for s, g in zip(frame.strategy, frame.games)])
    table = document_table(f"Summary: {main}, seat and order tests and the EV of the first and last to act",
                           shown, "home-summary", declared=declared,
                           note="Wald tests of equal EV (chi-square, N-1 df): by seat, and by order of play.")
    return replace(table, data=frame)


def document(tables: dict, size: str, seed: int, date: str, run_time: float | None) -> list[Section]:
    """The whole report: page 1 (the document control and the headline: the two claims in figures, issue
    36), then the numbered sections."""
    front = game_front(Variations(), provenance_rows(size, seed, date, run_time), document="home",
                       size=f"{size} ({HOME_SIZES[size]['games']:,} games per run)", seed=seed,
                       run_time=run_time, summary=_headline(tables, size), paragraphs=2)
    return front + _sections(tables, size, seed, date, run_time)


def _headline(tables: dict, size: str) -> Section:
    """Page 1's headline: the seat claim and the order-of-play answer in figures, and the pot-odds rows of the
    summary (the first and last to act by player count)."""
    t, order = tables["tests"], tables["by_order"]
    main = t.variation.iloc[0]
    runs = t[t.strategy != "optimal"]
    s = Section("1", "The claim, and the answer")
    level = 0.05 / len(runs)  # the 5% level shared over the runs (Bonferroni)
    seat_ok = bool(runs.seat_p_value.min() >= level)
    s.p(f"By seat: over the {len(runs)} runs of min-lift and pot-odds players "
        f"({HOME_SIZES[size]['games']:,} games each, every rule variation and player count) the smallest p-value "
        f"of the Wald test of equal seat EVs is {p_text(runs.seat_p_value.min())}, "
        + ("above" if seat_ok else "BELOW") + f" the 5% level shared over the runs (0.05 / {len(runs)} = "
        f"{level:.4f}): " + ("no seat is shown to differ, as the rulebook says." if seat_ok else
                             "a seat differs, against the rulebook."))
    pot = t[(t.variation == main) & (t.strategy == "pot-odds")]
    first, last = [], []
    for r in pot.itertuples():
        part = order[(order.variation == main) & (order.strategy == "pot-odds") & (order.players == r.players)]
        first.append(part.iloc[0].ev)
        last.append(part.iloc[-1].ev)
    order_differs = bool(pot.order_p_value.max() < level)
    s.p(f"By order of play, pot-odds players, {main}: the first to act (the lowest card) "
        f"{min(first):+.2f} to {max(first):+.2f} chips per game, the last {min(last):+.2f} to {max(last):+.2f}, "
        f"at {int(pot.players.min())} to {int(pot.players.max())} players; the largest order-test p-value is "
        f"{p_text(pot.order_p_value.max())}"
        + (": the order of play matters at every player count, against the rulebook's 'no advantage for any "
           "position'." if order_differs else ": not every player count shows an order effect at this size."))
    table = _summary_table(tables)
    keep = [i for i, row in enumerate(table.rows) if row[0] == "pot-odds"]
    s.blocks.append(replace(table, title=f"Pot-odds players, {main}: seat and order tests, first and last to act",
                            rows=[table.rows[i] for i in keep], data=table.data.iloc[keep]))
    return s


def _frame_table(title: str, frame: pd.DataFrame, csv: str):
    """A report table of ``frame``, read through the one column schema (headers in words, percent, counts)."""
    return document_table(title, frame, csv)


def build_report(out_dir, size: str = "small", seed: int = 2026, *, workers: int | None = None,
                 progress: bool = False) -> ReportResult:
    """Compute the figures and write ``out_dir`` through :func:`~ricochet_math.reports.folder.write_report_folder`
    (``report.html``, ``report.xlsx``, ``tables/*.csv``, the PDF where WeasyPrint is installed), replacing only
    a folder the toolkit wrote; returns the casino report's :class:`~ricochet_math.reports.build.ReportResult`
    (its ``tables`` are the computed frames by name)."""
    folder = prepare_output_folder(out_dir, KIND)  # refused before any work
    start = time.perf_counter()
    tables = home_report_tables(size, seed, workers=workers, progress=progress)
    run_time = time.perf_counter() - start
    date = build_date(False)
    sections = document(tables, size, seed, date, run_time)
    folder.parent.mkdir(parents=True, exist_ok=True)
    written = write_report_folder(folder, sections, _appendix(tables),
                                  "Ricochet home game and Ricochet Poker II: is every seat fair?",
                                  [f"size {size}, seed {seed}"], date, KIND, {"size": size, "seed": seed})
    return ReportResult(out_dir=folder, files=written.files, tables=tables, size=size,
                        seconds=time.perf_counter() - start, notes=written.notes,
                        kept=written.kept)


#: the name before the game contract (issue 26)
build_home_report = build_report
