"""The publisher's figures (second casino page) next to ours, reading by reading.

Published (rulebook, "Ricochet Poker Rules"): RTP 95.97% to 96.91% with perfect
play over the player counts; fold frequency 22.9% solo and 10.94% with seven
players; one perfect player's win frequency 25.79% with three perfect players
and the dealer; weak players "closer to 90%".  The page does not say which
RTP convention, which strategy model or which paytable produced them, so each
figure is computed under every strategy reading of the spec (perfect,
perfect ignoring the bonus, myopic, dealer-only pot odds now / final, each with
and without the bonus) and shown in its own column:

* N = 1 is exact (:mod:`ricochet_math.solvers.solo`).  With one player every reading
  is the same rule except the no-bonus ones (there is no later seat, and the
  pot odds 3 x P(reach) + bonus > 1 is exactly EV(play) > EV(fold)).
* N >= 2 is Monte Carlo with common random numbers (one seed for every
  reading), with 95% confidence intervals.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ricochet_math.arguments import check_finite, check_seed, check_whole
from ricochet_math.engine.deal import check_players
from ricochet_math.errors import RuleError, quote
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.solvers.montecarlo import MAX_ROUNDS, simulate
from ricochet_math.reports.reading_search import cell_figures, default_store, extend_to_precision
from ricochet_math.solvers.solo import solo_analysis
from ricochet_math.solvers.stats import z_value
from ricochet_math.storage import atomic_write_text, check_writable_file, check_writable_folder, exact_seed_columns
from ricochet_math.strategies.perfect import READING_NAMES
from ricochet_math.strategies.readings import FAMILY_NAMES

__all__ = ["PUBLISHED", "READINGS", "ALL_READINGS", "FIGURE_LABELS", "figure_label", "figure_key", "WEAK_PROFILES", "GAP_EXPLANATION", "PublishedFigures", "published_figures",
           "best_response", "write_best_response", "check_published_folder"]

# (figure id, text, published value as a fraction or (low, high), source)
PUBLISHED = (
    ("rtp_range", "RTP with perfect play, over player counts 1-7", (0.9597, 0.9691),
     "second casino page, 'House Advantage'"),
    ("fold_1", "Fold frequency, perfect play, 1 player", 0.229, "second casino page, 'Win and Fold Frequency'"),
    ("fold_7", "Fold frequency, perfect play, 7 players", 0.1094, "second casino page, 'Win and Fold Frequency'"),
    ("win_3", "Win frequency of one perfect player, 3 perfect players + dealer", 0.2579,
     "second casino page, 'Win and Fold Frequency'"),
    ("weak_rtp", "RTP of weak players", 0.90, "second casino page: 'closer to 90%'"),
)
#: the strategy readings, in the solver's order (one list: :data:`ricochet_math.strategies.perfect.READING_NAMES`)
READINGS = READING_NAMES
#: every reading the published figures can be computed under: the spec's and the publisher-like family's
ALL_READINGS = READING_NAMES + FAMILY_NAMES

#: the row label of each published figure, by the reading it was computed under: ``{play}`` is
#: "perfect play" or "reading NAME", ``{who}`` "perfect" or the reading's name (issue 11: a row
#: computed under another reading must not say "perfect play")
FIGURE_LABELS = {
    "rtp_low": "RTP with {play}, over player counts 1-7 (lowest)",
    "rtp_high": "RTP with {play}, over player counts 1-7 (highest)",
    "fold_1": "Fold frequency, {play}, 1 player",
    "fold_7": "Fold frequency, {play}, 7 players",
    "win_3": "Win frequency of one {who} player, 3 {who} players + dealer",
}


def figure_label(figure: str, reading: str) -> str:
    """The label of published figure ``figure`` (a key of :data:`FIGURE_LABELS`) computed under ``reading``.

    >>> figure_label("fold_7", "pot-odds-final")
    'Fold frequency, reading pot-odds-final, 7 players'
    >>> figure_label("fold_7", "perfect")
    'Fold frequency, perfect play, 7 players'
    """
    play = "perfect play" if reading == "perfect" else f"reading {reading}"
    who = "perfect" if reading == "perfect" else reading
    return FIGURE_LABELS[figure].format(play=play, who=who)


def figure_key(label: str) -> str | None:
    """The published figure (a key of :data:`FIGURE_LABELS`) a row label names, whatever its reading;
    None for a label of no such figure (the weak-player rows)."""
    for key, template in FIGURE_LABELS.items():
        pattern = re.escape(template).replace(re.escape("{play}"), "(perfect play|reading [a-z0-9-]+)")
        pattern = pattern.replace(re.escape("{who}"), "([a-z0-9-]+)")
        if re.fullmatch(pattern, label):
            return key
    return None


#: the weak-player profiles compared with the publisher's "closer to 90%" (registry names)
WEAK_PROFILES = ("always", "pair", "timid", "chaser", "dealer-only", "bonus-hunter")


@dataclass(frozen=True)
class PublishedFigures:
    """Computed vs published, one row per figure and reading; plus per-N detail.

    ``table``: figure, published, reading, computed, ci_low, ci_high, difference
    (computed - published, fractions), method.  ``by_players``: RTP (both
    conventions), fold and win frequency per N and reading with 95% intervals.
    """

    table: "object"
    by_players: "object"
    rules_name: str
    rounds: int
    seed: int
    seconds: float
    #: the half-widths asked for (fractions by kind: rtp, fold, win), None for a fixed ``rounds``
    precision: dict | None = None
    #: the reading search (:class:`~ricochet_math.reports.reading_search.SearchResult`) to report beside them
    search: object = None

    def to_frame(self):
        return self.table.copy()

    def wide(self):
        """Figures as rows, readings as columns (computed value)."""
        t = self.table.copy()
        t["figure_text"] = t["figure"]
        return t.pivot_table(index=["figure", "published"], columns="reading", values="computed",
                             aggfunc="first").reset_index()

    def to_markdown(self) -> str:
        lines = [
            f"# Published figures vs computed ({self.rules_name})",
            "",
            "Published: rulebook, second casino page. Computed: N = 1 exact over all 2,809,475,760 deals; "
            + (f"N >= 2 Monte Carlo, {self.rounds:,} rounds per player count and reading, seed {self.seed}, "
               "common random numbers across readings, 95% confidence intervals; the solver readings' RTP uses "
               "control variates of exactly known mean (ricochet_math.solvers.variance: unbiased, same rounds, a "
               "narrower interval)." if self.precision is None else
               "N >= 2 Monte Carlo, each player count and reading run until its 95% half-width reaches "
               f"{100 * self.precision['rtp']:.3g} points on RTP and {100 * self.precision['fold']:.3g} points on "
               "the fold and win frequencies (rounds and seed of each row in the CSV's method column; common "
               "random numbers across readings); RTP with the engine's control variates, the frequencies with "
               "deal-level control variates of exactly known mean (ricochet_math.reports.reading_search).")
            + " RTP here is per initial bet (1 + E[net] per ante); per-total-wagered figures are in the CSV.",
            "",
            "| figure | published | reading | computed | 95% CI | difference |",
            "|---|---|---|---|---|---|",
        ]
        d = 2 if self.precision is None else 3  # decimals that the precision supports
        for _, r in self.table.iterrows():
            pub = r["published"]
            ci = "exact" if r["ci_low"] == r["ci_high"] else f"{r['ci_low']:.{d}%} to {r['ci_high']:.{d}%}"
            lines.append(f"| {r['figure']} | {pub:.2%} | {r['reading']} | {r['computed']:.{d}%} | {ci} | "
                         f"{r['difference']:+.{d}%} |")
        lines += ["", "## RTP per initial bet by player count", "",
                  "| reading | " + " | ".join(f"N={n}" for n in sorted(self.by_players["players"].unique())) + " |",
                  "|---|" + "---|" * self.by_players["players"].nunique()]
        for reading, g in self.by_players.groupby("reading", sort=False):
            cells = []
            for _, r in g.sort_values("players").iterrows():
                half = (r["rtp_initial_high"] - r["rtp_initial_low"]) / 2
                cells.append(f"{r['rtp_initial']:.{d}%}" + ("" if half == 0 else f" ± {half:.{d}%}"))
            lines.append(f"| {reading} | " + " | ".join(cells) + " |")
        if self.search is not None:
            lines += ["", self.search.to_markdown()]
        lines += ["", "## Where the gaps come from", "", _EXPLANATION, "",
                  f"Run time {self.seconds:.0f} s."]
        return "\n".join(lines) + "\n"

    def write(self, directory="reports") -> tuple[Path, Path]:
        """Write ``published-figures.md``, ``.csv`` and ``published-figures-by-players.csv``
        (complete files only: each is written to a temp name, then renamed)."""
        d = check_published_folder(directory)
        md, csv = d / "published-figures.md", d / "published-figures.csv"
        per_n = d / "published-figures-by-players.csv"
        for path, text in ((md, self.to_markdown()), (csv, exact_seed_columns(self.table).to_csv(index=False)),
                           (per_n, exact_seed_columns(self.by_players).to_csv(index=False))):
            atomic_write_text(path, text)
        if self.search is not None:
            self.search.write(d / "publisher-readings.csv")
        return md, csv


#: where the gaps between the published and the computed figures come from (markdown, one item each)
GAP_EXPLANATION = (
    "**Strategy reading.** The publisher's 'perfect play' is not defined. Game-theoretic perfect play "
    "(each seat maximises its EV knowing later seats do the same) folds far more often with many players "
    "than 10.94%: early seats with weak cards rarely survive six later seats. Readings that ignore the later "
    "seats (myopic, dealer-only pot odds) fold much less; compare the columns.",
    "**Paytable.** The page says 'we offer a set of pay tables' for its RTP range: the figures need not "
    "come from the shipped bonus table, so an RTP gap of a few tenths of a percent is within that freedom.",
    "**RTP convention.** Unknown: both conventions are in the CSV; per total wagered is higher whenever "
    "players play (the play bet counts as wagered).",
    "**Fold frequency definition.** Ours is folds / player-rounds, kicked-out rounds included (no fold "
    "then). Counting only the rounds where the dealer stays in raises the solo figure by about 1/(1-0.1235).",
    "**Precision.** Monte Carlo rows carry their 95% interval; differences inside it are noise.",
    "**Look-ahead model.** Perfect play for N >= 2 uses the documented look-ahead of "
    "`ricochet_math.strategies.perfect` (later seats' draws from the deck at the decision); its EV error against "
    "exact nested enumeration (`ricochet_math.solvers.nested`) is measured in `benchmarks/bench_perfect_accuracy.py` "
    "(`reports/perfect-lookahead-accuracy.csv`: mean 0.007-0.009 ante, at most 0.044, about one decision "
    "in 1,000 changed, all near indifference).",
    "**Which reading the publisher used.** Two readings differ in a column only where their intervals "
    "(printed beside each figure) do not overlap. The section 'Which reading did the "
    "publisher compute?' ranks the publisher-like readings at a precision that can fail, and its verdict "
    "is generated from its own table (`reports/publisher-readings.csv`).",
)
_EXPLANATION = "\n".join(f"* {item}" for item in GAP_EXPLANATION)


def published_figures(rules=None, *, rounds: int = 5_000, seed: int = 2026, readings=READINGS,
                      players=range(2, 8), weak_profiles=WEAK_PROFILES, weak_players: int = 4,
                      weak_rounds: int | None = None, progress: bool = False, solo=None,
                      solo_no_bonus=None, executor=None, precision=None, store=None, runs=None) -> PublishedFigures:
    """Compute every published figure under each strategy reading (see the module docstring).

    ``rounds``: Monte Carlo rounds per player count and reading (N >= 2).
    ``weak_rounds``: rounds of each weak-player profile's run (default: ``rounds``, at least 50,000, as the
    report's sizes use; ``ricochet published --rounds`` passes its own count).
    ``solo`` / ``solo_no_bonus``: finished exact N = 1 analyses to reuse.
    ``executor``: where the Monte Carlo chunks run (None: local threads; a Dask client, a
    :class:`~ricochet_math.solvers.executors.DaskExecutor`, or a scheduler address, which opens a client per
    run: pass a client for many runs); the figures do not depend on it.
    ``precision``: instead of ``rounds``, run each player count until the 95% half-widths reach
    ``(rtp_points, frequency_points)`` (one number: both): RTP at every N, fold and win frequency
    at every N they are published for, with the frequencies' control variates
    (:func:`ricochet_math.reports.reading_search.extend_to_precision`; cells kept in ``store``,
    default :func:`~ricochet_math.reports.reading_search.default_store`, and resumed from it; local,
    one thread, ``executor`` unused).
    ``runs``: finished simulations to reuse, by ``(reading or profile, players)`` (the report passes
    the runs it already made); the rows then name the rounds each run played.
    """
    readings = check_readings(readings)
    targets = _check_precision(precision) if precision is not None else None
    rules = load_rules(rules)
    players = _check_counts(players)
    rounds = check_whole(rounds, "rounds", high=MAX_ROUNDS)
    seed = check_seed(seed, allow_none=False)  # one fixed seed: the readings compare on the same deals
    weak_players = check_players(weak_players)
    t0 = time.perf_counter()
    a = solo if solo is not None else solo_analysis(rules, progress=progress)
    b = solo_no_bonus if solo_no_bonus is not None else solo_analysis(rules, use_bonus=False, progress=progress)
    per = []
    for reading in readings:
        ex = b if "no-bonus" in reading else a
        s = ex.at_threshold()
        per.append({"players": 1, "reading": reading, "method": "exact",
                    "rtp_initial": s["rtp_per_initial_bet"], "rtp_initial_low": s["rtp_per_initial_bet"],
                    "rtp_initial_high": s["rtp_per_initial_bet"], "rtp_wagered": s["rtp_per_wagered"],
                    "fold_frequency": s["fold_frequency"], "fold_frequency_low": s["fold_frequency"],
                    "fold_frequency_high": s["fold_frequency"], "win_frequency": s["win_frequency"],
                    "win_frequency_low": s["win_frequency"], "win_frequency_high": s["win_frequency"]})
        for n in players:
            if targets is not None:
                per.append(_precise_row(rules, reading, n, seed, targets, store))
                continue
            r = (runs or {}).get((reading, n))
            if r is None:
                r = simulate(rules, players=n, strategy=reading, rounds=rounds, seed=seed, progress=progress,
                             executor=executor)
            f = r.to_frame().iloc[0]
            # the RTP with the control variates when the run kept them (same rounds, narrower interval)
            rtp = "rtp_initial_cv" if "rtp_initial_cv" in f.index else "rtp_initial"
            method = f"monte carlo {r.rounds:,} rounds" + (", control variates" if rtp != "rtp_initial" else "")
            per.append({"players": n, "reading": reading, "method": method,
                        "rtp_initial": float(f[rtp]), "rtp_initial_low": float(f[f"{rtp}_low"]),
                        "rtp_initial_high": float(f[f"{rtp}_high"]),
                        "rtp_wagered": float(f["rtp_wagered_cv" if rtp != "rtp_initial" else "rtp_wagered"]),
                        **{k: float(f[k]) for k in (
                            "fold_frequency", "fold_frequency_low", "fold_frequency_high",
                            "win_frequency", "win_frequency_low", "win_frequency_high")}})
    by = pd.DataFrame(per)
    rows = []
    for reading in readings:
        g = by[by["reading"] == reading].set_index("players")
        lo, hi = g["rtp_initial"].min(), g["rtp_initial"].max()
        rows.append(_row(figure_label("rtp_low", reading), 0.9597, reading, lo,
                         g.loc[g["rtp_initial"].idxmin(), "rtp_initial_low"],
                         g.loc[g["rtp_initial"].idxmin(), "rtp_initial_high"], "min over N"))
        rows.append(_row(figure_label("rtp_high", reading), 0.9691, reading, hi,
                         g.loc[g["rtp_initial"].idxmax(), "rtp_initial_low"],
                         g.loc[g["rtp_initial"].idxmax(), "rtp_initial_high"], "max over N"))
        rows.append(_row(figure_label("fold_1", reading), 0.229, reading, g.loc[1, "fold_frequency"],
                         g.loc[1, "fold_frequency_low"], g.loc[1, "fold_frequency_high"], "exact"))
        if 7 in g.index:
            rows.append(_row(figure_label("fold_7", reading), 0.1094, reading, g.loc[7, "fold_frequency"],
                             g.loc[7, "fold_frequency_low"], g.loc[7, "fold_frequency_high"], by_method(g, 7)))
        if 3 in g.index:
            rows.append(_row(figure_label("win_3", reading), 0.2579, reading,
                             g.loc[3, "win_frequency"], g.loc[3, "win_frequency_low"], g.loc[3, "win_frequency_high"],
                             by_method(g, 3)))
    if weak_rounds is None:
        weak_rounds = max(rounds, 50_000)
    for profile in weak_profiles:
        r = (runs or {}).get((profile, weak_players))
        if r is None:
            r = simulate(rules, players=weak_players, strategy=profile, rounds=weak_rounds, seed=seed,
                         progress=progress, executor=executor)
        f = r.to_frame().iloc[0]
        rows.append(_row(f"RTP of weak players ({profile}, {weak_players} players)", 0.90, profile,
                         float(f["rtp_initial"]), float(f["rtp_initial_low"]), float(f["rtp_initial_high"]),
                         f"monte carlo {r.rounds:,} rounds"))
    table = pd.DataFrame(rows)
    return PublishedFigures(table, by, rules.name, int(rounds), int(seed), time.perf_counter() - t0, targets)


def _check_precision(precision) -> dict:
    """``{"rtp", "fold", "win"}`` half-widths (fractions) from one or two numbers in percentage points."""
    values = (precision,) if isinstance(precision, (int, float)) else tuple(precision)
    if not 1 <= len(values) <= 2:
        raise RuleError(f"precision: give one or two half-widths in percentage points, got {quote(precision)}")
    rtp, freq = (check_finite(v, "precision (percentage points)", low=1e-4, high=50.0) / 100.0
                 for v in (values * 2)[:2])
    return {"rtp": rtp, "fold": freq, "win": freq}


def _precise_row(rules, reading, n, seed, targets, store) -> dict:
    """One player count's figures at the half-widths ``targets`` (a per-N row of ``by_players``)."""
    cell = extend_to_precision(default_store() if store is None else store, rules, reading, n, seed, targets)
    f = cell_figures(cell, int(rules.kickout_value(n)))
    z = z_value(0.95)

    row = {"players": n, "reading": reading,
           "method": f"monte carlo {cell.rounds:,} rounds, control variates (RTP and frequencies), seed {cell.seed}",
           "rtp_initial": f["rtp_initial"], "rtp_initial_low": f["rtp_initial"] - z * f["rtp_initial_se"],
           "rtp_initial_high": f["rtp_initial"] + z * f["rtp_initial_se"], "rtp_wagered": f["rtp_wagered"]}
    for name, key in (("fold_frequency", "fold"), ("win_frequency", "win")):
        row[name] = f[key]
        row[f"{name}_low"] = f[key] - z * f[f"{key}_se"]
        row[f"{name}_high"] = f[key] + z * f[f"{key}_se"]
    return row


def by_method(g, n) -> str:
    return str(g.loc[n, "method"])


def _row(figure, published, reading, computed, low, high, method):
    return {"figure": figure, "published": published, "reading": reading, "computed": float(computed),
            "ci_low": float(low), "ci_high": float(high), "difference": float(computed) - published,
            "method": method}


def best_response(rules=None, *, reading: str = "pot-odds-final", players=range(2, 8), rounds: int = 20_000,
                  seed: int = 2026, progress: bool = False, executor=None):
    """RTP a single perfectly playing seat earns at a table of ``reading`` players (spec,
    "Strategy readings": the highest RTP a skilled player can reach), next to the RTP
    of the same seat playing ``reading`` itself on the same deals (common random numbers).

    The best-responding seat is seat 1 (seats are dealt in order; acting order follows
    the cards, so seat 1 acts in every position over the run).  Its look-ahead models
    the later seats as ``reading`` players.
    ``executor``: where the Monte Carlo chunks run (None: local threads; a Dask client, a
    :class:`~ricochet_math.solvers.executors.DaskExecutor`, or a scheduler address, which opens a client per
    run: pass a client for many runs); the figures do not depend on it.
    ``runs``: finished simulations to reuse, by ``(reading or profile, players)`` (the report passes
    the runs it already made); the rows then name the rounds each run played.
    """
    (reading,) = check_readings((reading,))
    rules = load_rules(rules)
    players = _check_counts(players)
    rounds = check_whole(rounds, "rounds", high=MAX_ROUNDS)
    seed = check_seed(seed, allow_none=False)  # one fixed seed: both seats' runs use the same deals
    rows = []
    for n in players:
        br = simulate(rules, players=n, strategy=[f"perfect-vs-{reading}"] + [reading] * (n - 1), rounds=rounds,
                      seed=seed, progress=progress, executor=executor).seat_frame().iloc[0]
        base = simulate(rules, players=n, strategy=reading, rounds=rounds, seed=seed,
                        progress=progress, executor=executor).seat_frame().iloc[0]
        key = "rtp_initial_cv" if "rtp_initial_cv" in br.index else "rtp_initial"  # controlled when kept
        rows.append({"players": n, "table_reading": reading,
                     "best_response_rtp": float(br[key]), "best_response_low": float(br[f"{key}_low"]),
                     "best_response_high": float(br[f"{key}_high"]),
                     "same_seat_playing_reading_rtp": float(base[key]),
                     "same_seat_low": float(base[f"{key}_low"]), "same_seat_high": float(base[f"{key}_high"]),
                     "gain": float(br[key]) - float(base[key]),
                     "method": "control variates" if key != "rtp_initial" else "plain",
                     "rounds": rounds, "seed": seed})
    return pd.DataFrame(rows)


def write_best_response(frame: pd.DataFrame, directory="reports") -> Path:
    """Write :func:`best_response`'s table as ``best-response-vs-<reading>.csv`` in ``directory``
    (complete files only: written to a temporary name, then renamed); returns the path."""
    (reading,) = check_readings(tuple(frame["table_reading"].unique()))
    path = check_writable_file(check_writable_folder(directory, "best-response folder") / f"best-response-vs-{reading}.csv")
    atomic_write_text(path, exact_seed_columns(frame).to_csv(index=False))
    return path


def check_published_folder(directory) -> Path:
    """``directory`` if the published-figures files can be written in it (checked before any work:
    :meth:`PublishedFigures.write` and :func:`write_best_response` call it again just before writing);
    else one :class:`~ricochet_math.errors.RicochetError` line.  The files it will hold must not be folders."""
    d = check_writable_folder(directory, "published-figures folder")
    for name in ("published-figures.md", "published-figures.csv", "published-figures-by-players.csv"):
        check_writable_file(d / name)
    return d


def _check_counts(players) -> tuple[int, ...]:
    """Player counts (an iterable of whole numbers 1..7), checked before any run starts."""
    if isinstance(players, (str, bytes)) or not hasattr(players, "__iter__"):
        raise RuleError(f"players must be a list of player counts, got {quote(players)}")
    return tuple(check_players(n) for n in players)


def check_readings(readings) -> tuple[str, ...]:
    """The reading names as a tuple, or a one-line :class:`~ricochet_math.errors.RuleError` naming the
    first unknown one and the choices."""
    readings = (readings,) if isinstance(readings, str) else tuple(readings)
    for r in readings:
        if r not in ALL_READINGS:
            raise RuleError(f"unknown reading {quote(r)}; choose from {', '.join(READINGS)} or a publisher-like "
                            f"reading pub-POT-TARGET[-no-bonus] ({FAMILY_NAMES[0]}, ..., {FAMILY_NAMES[-1]})")
    return readings
