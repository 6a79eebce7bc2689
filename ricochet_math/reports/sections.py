"""The report's text: ten sections of paragraphs, formatted tables and plots, in the order a lab reads them.

Every number shown comes from :mod:`~ricochet_math.reports.figures` (or the
raw results of :mod:`~ricochet_math.reports.compute`) and is only formatted
here; each table keeps its full-precision DataFrame for its CSV.
"""
from __future__ import annotations

import re

import pandas as pd

from ricochet_math.errors import PatternError
from ricochet_math.evaluator.names import describe, pattern_value
from ricochet_math.reports.compute import ReportData
from ricochet_math.reports.document import Para, Section, Table, Volatile, ci, isnan, num, odds, one_in, pays, pct, whole
from ricochet_math.reports.figures import (
    BAND_ROUNDS, LEVEL, best_response_table, bet_summary, bonus_summary, bonus_table, closest_published,
    kickout_table, mc_return_table, quickdraw_table, reconciliation, rtp_range, strategy_rtps, volatility,
)
from ricochet_math.reports.front_page import band_place, control_rows, counts_text, front_sections
from ricochet_math.reports.glossary import CASINO_TERMS, glossary_section
from ricochet_math.reports.par_sections import (
    alternatives_section, every_bet_section, limits_section, position_section,
)
from ricochet_math.reports.plots import plot_band, plot_by_players, plot_distribution, plot_strategy, plot_threshold
from ricochet_math.reports.strategy_text import hand_grid_names, strategy_chart, strategy_grid, strategy_words
from ricochet_math.reports.provenance import source_text
from ricochet_math.reports.published import GAP_EXPLANATION, PUBLISHED
from ricochet_math.reports.sizes import PUBLISHER_LIKE

__all__ = ["build_sections", "volatile_tables", "headline", "BAND"]

CI_TEXT = f"{int(LEVEL * 100)}% CI"
#: the publisher's RTP band "with perfect play over 1-7 players" (reports.published.PUBLISHED)
BAND = next(value for key, _, value, _ in PUBLISHED if key == "rtp_range")

_GAME = (
    "Ricochet Poker (James Ernest / Cheapass Games), casino version. One to seven players and the dealer each "
    "ante 1 unit into the pot. Each player is dealt two cards face up and the dealer five. If the dealer's hand "
    "is at or above the kickout threshold for the number of players she folds (is kicked out); her ante stays "
    "in the pot. The players then act once each, lowest two-card hand first: fold (the ante stays in the pot) "
    "or play (1 more unit into the pot, exactly three more cards). A player who plays must reach the best "
    "five-card hand standing (the dealer's while she is in; the dealer loses ties) or is out; a better hand "
    "knocks out the hands it beats. The pot goes to the highest remaining hand (split between ties); if only "
    "the dealer remains the house takes it. A player whose five-card hand is a straight or better is paid the "
    "high-hand bonus by the house, win or lose. Two optional side bets are settled on the deal: Quickdraw (the "
    "player's two cards against the dealer's five) and Cover (on the dealer's five cards). Every amount in "
    "this report is in units of the ante."
)

_PERFECT = (
    "Perfect play (the toolkit's default strategy): each player chooses fold or play to maximise their own "
    "expected net result, knowing everything on the table (all cards are face up), given that every later "
    "player also plays perfectly; a player plays only when EV(play) > EV(fold) strictly. With one player this "
    "is solved exactly over all deals and draws. With two or more players each decision is taken by the "
    "perfect-play look-ahead of ricochet_math.strategies.perfect at the table as it stands (the later seats' draws "
    "modelled from the cards unseen at the decision), inside the Monte Carlo engine."
)

_PROFILES = {
    "always": "plays every hand",
    "pair": "plays a pair or better, folds everything else",
    "timid": "too tight: plays only a pair, A-K or A-Q, whatever the table shows",
    "chaser": "too loose: plays everything except unpaired cards against three of a kind or better",
    "dealer-only": "thinks the game is against the dealer: plays when she is kicked out, else only when the two "
                   "cards match or beat her top two ranked cards",
    "bonus-hunter": "plays for the bonus table: pairs, suited cards and cards that can share a straight",
}

_READING_TEXT = {
    "perfect": "perfect play (the default)",
    "perfect-no-bonus": "perfect play deciding on pot equity alone (the bonus is still paid)",
    "myopic": "maximise EV against the hand currently to beat, ignoring the seats still to act",
    "myopic-no-bonus": "myopic, ignoring the bonus when deciding",
    "pot-odds-now": "dealer-only pot odds, with the pot right after my play",
    "pot-odds-now-no-bonus": "pot odds now, ignoring the bonus",
    "pot-odds-final": "dealer-only pot odds, with the final pot when later seats follow the same rule",
    "pot-odds-final-no-bonus": "pot odds final, ignoring the bonus",
}


def build_sections(d: ReportData, main, run_times: list[tuple[str, str]],
                   provenance: list[tuple[str, str, bool]], run_time: float | None = None) -> list[Section]:
    """The report's sections.  ``main``: :func:`~ricochet_math.reports.figures.main_rows`; ``run_times``:
    (step, seconds as text) rows; ``provenance``: (item, value, volatile) rows; ``run_time``: the whole
    build's seconds (None: not recorded)."""
    strat = strategy_rtps(d, main)
    control = control_rows(d.rules, provenance, document=d.rules.name, size=d.size.name, seed=d.seed,
                           run_time=run_time, rules_label=d.rules.name)
    return [*front_sections(control, headline(d, main)), _game(d), _method(d), _main_game(d, main), position_section(d),
            _return_tables(d), _strategy(d), _side_bets(d, main), _volatility(d, main, strat),
            every_bet_section(d, main), limits_section(d), _weak_players(d, strat), _published(d), _plots(d, main, strat),
            _provenance(provenance, run_times), alternatives_section(d), glossary_section("G", CASINO_TERMS)]


def headline(d: ReportData, main) -> list:
    """Page 1's headline (issue 36): RTP per player count with its interval and where it lies against the
    publisher's band, the band verdict in words, the fold and hit frequencies, and the precision the
    figures are certified to."""
    lo, hi = BAND
    places = {int(r.players): band_place(r.rtp_initial_low, r.rtp_initial_high, BAND) for r in main.itertuples()}
    groups = {}
    for n, where in places.items():
        groups.setdefault(where, []).append(n)
    inside = groups.get("inside", [])
    rest = [f"N = {counts_text(ns)} {where}" for where, ns in groups.items() if where != "inside"]
    if not rest:
        verdict = f"every player count of this report lies inside it (N = {counts_text(inside)})"
    else:
        verdict = ((f"met at N = {counts_text(inside)} only" if inside else "met at no player count of this report")
                   + "; " + ", ".join(rest))
    blocks = [Para(f"Perfect play, rule set '{d.rules.name}'. The publisher's band, RTP {pct(lo, 2)} to {pct(hi, 2)} "
                   f"per initial bet 'with perfect play over 1-7 players': {verdict} (the whole {CI_TEXT} "
                   "against the band).")]
    rows = [[str(r.players), r.method, pct(r.rtp_initial), ci(r.rtp_initial_low, r.rtp_initial_high),
             places[int(r.players)], pct(r.fold_frequency, 2), pct(r.hit_frequency, 2)] for r in main.itertuples()]
    blocks.append(Table("RTP per initial bet by player count, against the publisher's band",
                        ["N", "method", "RTP per initial bet", CI_TEXT, "against the band", "fold frequency",
                         "hit frequency"], rows, csv=None, align=["r", "l", "r", "r", "l", "r", "r"],
                        note="Every figure of Section 3 (house edge, RTP per total wagered, the plain estimate); "
                             "fold frequency: folds per player-round; hit frequency: P(a seat's net > 0)."))
    mc = main[main["players"] >= 2]
    if len(mc):
        half = (mc["rtp_initial_high"] - mc["rtp_initial_low"]) / 2.0
        worst = int(mc["players"].iloc[int(half.to_numpy().argmax())])
        exact = "N = 1 exact (every deal and draw counted)" if d.solo.complete else \
            "N = 1 from sampled starting-hand classes (TEST SIZE: not the game's figures)"
        if d.size.sized(d.rounds):
            met = bool((half <= d.size.precision / 100.0 + 1e-12).all())
            precision = (f"{exact}; N >= 2 Monte Carlo sized for a 95% half-width of at most {d.size.precision:g} "
                         f"points on the RTP, {'reached' if met else 'NOT reached'} at every player count (widest "
                         f"{100 * half.max():.3f} points, N = {worst})")
        else:
            precision = (f"{exact}; N >= 2 Monte Carlo, {d.rounds:,} rounds per player count, not sized to a "
                         f"precision: 95% half-widths up to {100 * half.max():.3f} points (N = {worst})")
    else:
        precision = "exact (every deal and draw counted)" if d.solo.complete else "sampled classes (TEST SIZE)"
    blocks.append(Para(f"Certified precision: {precision}. Size {d.size.name}, seed {d.seed}."))
    return blocks


def volatile_tables(run_times: list[tuple[str, str]], provenance: list[tuple[str, str, bool]]) -> dict:
    """The run-time and provenance tables as CSV frames, with a ``volatile`` column marking the rows that
    vary between builds (every run time; the build date).  Run times are numbers (seconds; empty with a
    ``note`` where a step was resumed or the build is reproducible)."""
    def seconds(text: str) -> float:
        try:
            return float(text)
        except ValueError:  # "resumed", "not recorded": no number (the note says why)
            return float("nan")

    times = pd.DataFrame([{"step": n, "seconds": seconds(v), "note": "" if not isnan(seconds(v)) else v,
                           "volatile": True} for n, v in run_times])
    times["seconds"] = times["seconds"].astype("float64")
    return {"run_times": times,
            "provenance": pd.DataFrame([{"item": k, "value": v, "volatile": vol} for k, v, vol in provenance])}


def _game(d: ReportData) -> Section:
    rules = d.rules
    s = Section("1", "Game and rule set in force")
    s.p(_GAME)
    s.p(f"Rule set '{rules.name}': {rules.description}. File: {source_text(rules)}; SHA-256 of the file "
        f"(with the files it extends): {rules.sha256}.")
    frame = rules.to_frame(describe=True)
    s.table("Every key of the rule set in force", ["section", "key", "value", "detail"],
            [rule_words(r.section, r.key, r.value, r.detail) for r in frame.itertuples()], csv="rule_set",
            data=frame, align=["l", "l", "l", "l"],
            note="The CSV keeps the rule-set file's own keys and values.")
    kick = kickout_table(d)
    s.table("Kickout table: the dealer folds at or above the threshold (exact kickout rate over the 2,598,960 "
            "dealer hands)", ["players", "threshold", "weakest hand kicked out", "P(dealer kicked out)", "1 in N"],
            [[str(r.players), r.threshold, r.hand, pct(r.kickout_rate_exact, 4), one_in(r.kickout_rate_exact)]
             for r in kick.itertuples()], csv="kickout_table", data=kick, align=["r", "l", "l", "r", "r"])
    return s


#: the rule options in words (issue 36: the table showed True and odd-units-last)
_OPTION_WORDS = {
    "automatic_win": "a player left alone with the dealer kicked out wins without the play bet",
    "bonus_on_automatic_win": "that player is dealt three free cards and paid any bonus they make",
    "dealer_loses_ties": "a player who ties the dealer stays in",
    "split": "how a tied pot is split",
}
_VALUE_WORDS = {"odd-units-last": "whole units, the odd units to the tied player(s) who acted last",
                "fractional": "exactly, in fractions of a unit",
                "top-cards": "top cards: the category, then only as many of the dealer's ranked cards as the "
                             "player has (a tie wins for the player)",
                "kicker": "the kicker rule: the category, then the ranked cards (the dealer's extra cards count)"}


def rule_words(section: str, key: str, value, detail: str) -> list[str]:
    """One row of the rule-set table for people: keys without underscores, yes/no for a switch, payouts
    as odds, a paytable line's hand pattern described ('55' -> 'a pair of fives or better')."""
    shown_key = key.replace("_", " ")
    if isinstance(value, (bool,)) or str(value) in ("True", "False"):
        text = "yes" if str(value) == "True" else "no"
    elif section in ("bonus", "cover") or (section, key) == ("quickdraw", "pays"):
        text = pays(value)
    else:
        text = _VALUE_WORDS.get(str(value), str(value))
    if section == "kickout":
        shown_key = f"{key} player{'s' * (key != '1')}"
    if section in ("bonus", "cover") and detail:
        try:
            described = describe(pattern_value(detail))
        except PatternError:  # not a hand pattern (a category name): shown in words
            described = detail
        named = described if described != detail else detail.replace("_", " ")
        detail = named if named.lower() == shown_key.lower() else f"{named} or better"
    if section == "options":
        detail = _OPTION_WORDS.get(key, detail)
    return [section, shown_key, text, detail]


def _method(d: ReportData) -> Section:
    size = d.size
    s = Section("2", "Method")
    if size.note:
        s.note(size.note)
    solo_text = ("exact: every one of the 2,809,475,760 deals (two player cards, five dealer cards) and each "
                 "deal's 14,190 three-card draws counted as integers; perfect play solved exactly"
                 if d.solo.complete else
                 f"exact counts over {int(d.solo.classes_done.sum())} of the 169 starting-hand classes only "
                 "(test size): not the game's figures")
    if size.sized(d.rounds):  # runs sized to a precision: say so, not the nominal count
        main_rounds = (f"rounds per player count chosen by a pilot run (its own seed) for a 95% half-width of "
                       f"{size.precision:g} points on the RTP per initial bet, played again with the rounds the "
                       "main run's own error asks for where it fell short, so that every N >= 2 RTP reaches it "
                       "(each run's rounds in the table of Section 3)")
        reading_rounds = (f"rounds per player count and reading chosen by a pilot run for a 95% half-width of "
                          f"{size.reading_precision:g} points (perfect play: the main game's runs)")
    else:
        main_rounds = f"{d.rounds:,} rounds per player count"
        reading_rounds = f"{d.rounds:,} rounds per player count and reading"
    rows = [
        ("Main game, 1 player", "exact", solo_text),
        ("Main game, 2-7 players", "Monte Carlo, control variates",
         f"{main_rounds}, perfect play, seed {d.seed}; RTP by the control-variate "
         "estimate (below), the plain sample mean beside it as a check"),
        ("Chunks and seeding", "Monte Carlo",
         f"rounds in chunks ({_chunk_text(d)}); chunk i is dealt from numpy SeedSequence(seed).spawn(n)[i] "
         "(xoshiro256** in the kernel): results do not depend on the number of threads"),
        ("N = 1 perfect-play simulation", "Monte Carlo",
         f"{size.solo_rounds:,} rounds, to reconcile the engine with the exact analysis (Section 5b)"),
        ("Strategy readings, published figures", "exact (N = 1) and Monte Carlo",
         f"{reading_rounds} (ricochet_math.reports.published)"),
        ("Weak-player profiles", "Monte Carlo", f"{size.weak_rounds(d.rounds):,} rounds per player count and profile"),
        ("Perfect seat among publisher-like players", "Monte Carlo",
         f"{size.response_rounds:,} rounds per player count"),
        ("Distribution of a seat's net result", "exact (N = 1) and Monte Carlo",
         f"{size.distribution_rounds:,} rounds recorded one by one"
         + (f" at {d.distribution[0]} players" if d.distribution[0] else "")),
        ("Side bets", "exact", "Quickdraw over all 2,809,475,760 deals, Cover over all 2,598,960 dealer hands"),
        ("Kickout rate, kickout curve (N = 1)", "exact", "dealer-hand counts; the N = 1 solo analysis"),
        ("Confidence intervals", f"{int(LEVEL * 100)}%, normal approximation",
         "sample standard deviation, the round as the independent sample (the seats of a round share a pot and "
         "a deck); RTP per total wagered is a ratio estimator with a delta-method interval"),
        ("Variance reduction: control variates", "every Monte Carlo RTP",
         "RTP per initial bet (and so the house edge) is mean(X) - beta . (mean(Z) - E[Z]), X the round's net, "
         "Z controls whose means are known exactly (the bonus and the stand-against-the-dealer outcome minus "
         "their expectation over the draw; the dealer's hand bucket and the seats' chances to reach it): "
         "unbiased, beta fitted on the other half of the chunks (cross-fitted); RTP per total wagered is the "
         "controlled ratio. ricochet_math.solvers.variance"),
        ("Variance reduction: common random numbers", "every Monte Carlo run",
         "every strategy and reading is run with the same seed, so all are dealt the same cards: differences "
         "between them are more precise than either figure alone"),
        ("Plain Monte Carlo", "frequencies, standard deviation, average bet",
         "fold, win, hit and kickout frequencies, the standard deviation and the average bet are sample means "
         "(no controlled estimate exists for them); so is the plain RTP shown beside each controlled one"),
    ]
    frame = pd.DataFrame(rows, columns=["item", "method", "detail"])
    s.table("How each figure was computed", ["item", "method", "detail"], [list(r) for r in rows], csv="method",
            data=frame, align=["l", "l", "l"])
    s.p(_PERFECT)
    s.p("RTP is given both ways because the publisher does not say which convention its figures use: RTP per "
        "initial bet = 1 + E[net] per ante (1 - house edge per ante), and RTP per total wagered = E[returned] / "
        "E[wagered] (1 - element of risk). Hit frequency is P(net > 0) for a seat; fold frequency is folds per "
        "player-round (kicked-out rounds included); win frequency counts rounds in which the seat wins or "
        "shares the pot, automatic wins included.")
    s.p("One estimator throughout: every RTP, house edge and element of risk of a Monte Carlo row in this "
        "report, its CSV tables and its workbook is the control-variate estimate where the run kept the "
        "controls; the return tables show the adjustment from the plain sample mean explicitly.")
    return s

def _main_game(d: ReportData, main) -> Section:
    s = Section("3", "Main game by player count (perfect play)")
    s.p(f"One row per player count. N = 1 is exact; N >= 2 is Monte Carlo with its {CI_TEXT} beside each "
        "estimate. The RTPs of the Monte Carlo rows are the control-variate estimates (Section 2: unbiased, the "
        "same rounds, a narrower interval), and the house edge and element of risk are one minus them; the "
        "plain sample means follow as a check (CSV columns *_plain). "
        "House edge is per ante, element of risk per unit wagered, standard deviation is that of one seat's net "
        "result per round (ante units), average bet is the average amount wagered by a seat per round.")
    if d.size.name != "full" and _many(d):
        s.note(f"The Monte Carlo rows are {d.rounds:,} rounds each: read their intervals before their centres.")
    mc = main[main["players"] >= 2]
    if d.size.sized(d.rounds) and len(mc):
        half = (mc["rtp_initial_high"] - mc["rtp_initial_low"]) / 2.0
        worst = int(mc["players"].iloc[int(half.to_numpy().argmax())])
        wide = [str(n) for n, h in zip(mc["players"], half) if h > d.size.precision / 100.0]
        s.p(f"Sizing rule (Section 2): every N >= 2 RTP per initial bet has a 95% half-width of at most "
            f"{d.size.precision:g} percentage points; the widest here is {100 * half.max():.3f} points (N = {worst})."
            if not wide else
            f"Sizing rule (Section 2): a 95% half-width of at most {d.size.precision:g} points; NOT reached at "
            f"N = {', '.join(wide)} (widest {100 * half.max():.3f} points).")
    s.table("Return to player", ["N", "method", "rounds", "RTP per initial bet", CI_TEXT, "RTP per wagered",
                                 CI_TEXT, "house edge", "element of risk"],
            [[str(r.players), r.method, "" if isnan(r.rounds) or r.rounds is None else whole(r.rounds),
              pct(r.rtp_initial), ci(r.rtp_initial_low, r.rtp_initial_high), pct(r.rtp_wagered),
              ci(r.rtp_wagered_low, r.rtp_wagered_high), pct(r.house_edge), pct(r.element_of_risk)]
             for r in main.itertuples()], csv="main_game", data=main, align=["r", "l"] + ["r"] * 7)
    s.table("Frequencies, standard deviation and average bet",
            ["N", "fold frequency", CI_TEXT, "win frequency", CI_TEXT, "kickout rate", "hit frequency",
             "std dev", "average bet"],
            [[str(r.players), pct(r.fold_frequency, 2), ci(r.fold_frequency_low, r.fold_frequency_high),
              pct(r.win_frequency, 2), ci(r.win_frequency_low, r.win_frequency_high), pct(r.kickout_rate, 2),
              pct(r.hit_frequency, 2), num(r.sd_net, 4), num(r.average_wagered, 4)]
             for r in main.itertuples()], csv=None)
    checked = main[main["estimator"] == "control variates"]
    if len(checked):
        s.table("Check: the plain Monte Carlo estimate beside the controlled one",
                ["N", "rounds", "RTP per initial bet, plain", CI_TEXT, "controlled - plain", "RTP per wagered, plain",
                 CI_TEXT, "controlled - plain"],
                [[str(r.players), whole(r.rounds), pct(r.rtp_initial_plain),
                  ci(r.rtp_initial_plain_low, r.rtp_initial_plain_high),
                  f"{100 * (r.rtp_initial - r.rtp_initial_plain):+.3f} pts", pct(r.rtp_wagered_plain),
                  ci(r.rtp_wagered_plain_low, r.rtp_wagered_plain_high),
                  f"{100 * (r.rtp_wagered - r.rtp_wagered_plain):+.3f} pts"] for r in checked.itertuples()],
                csv=None, note="Both estimate the same RTP from the same rounds; the controlled interval is the "
                               "narrower one. Their difference should be within the plain interval's width.")
    return s


def _return_tables(d: ReportData) -> Section:
    s = Section("4", "Return tables")
    if 1 in d.players:
        rt = d.solo.return_table()
        s.h3("One player: exact return table (perfect play)")
        s.p("Each outcome of a round: the deal and the three-card draw, counted over all 2,809,475,760 x 14,190 "
            "equally likely (deal, draw) pairs. Net is the seat's net result in antes (bonus included); the "
            "contributions sum to the expected net per round, i.e. RTP per initial bet - 1."
            + ("" if d.solo.complete else " TEST SIZE: sampled classes only."))
        rows = [[r.outcome, r.bonus.replace("_", " "), whole(r.combinations), pct(r.probability, 5),
                 one_in(r.probability), num(r.net, 0), f"{r.contribution:+.6f}"]
                for r in rt.itertuples() if r.combinations > 0]
        rows.append(["total", "", whole(rt["combinations"].sum()), pct(rt["probability"].sum(), 5), "", "",
                     f"{rt['contribution'].sum():+.6f}"])
        s.table("Return table, 1 player", ["outcome", "bonus line", "combinations", "probability", "1 in N",
                                           "net", "contribution"], rows, csv="return_table_1",
                data=rt, align=["l", "l", "r", "r", "r", "r", "r"],
                note="Outcomes that cannot happen (0 combinations) are left out here; the CSV has every line.")
    many = _many(d)
    if many:
        s.h3("Two or more players: outcome frequencies and the return, from the simulation")
        s.p("Per player-round (perfect play). The outcome rows count what happened to a seat; the return rows "
            "decompose the seat's net result (net = pot share + bonus - wagered), so their contributions add "
            "up exactly to the sample mean of the net (the plain estimate); the control-variate adjustment "
            "row then brings the total to the report's RTP per initial bet - 1 (Section 3). A pot share varies "
            "with the pot, so its amount is the average share when won.")
        frames = []
        for n in many:
            t = mc_return_table(d.rules, d.perfect[n])
            frames.append(t)
            rows = []
            for r in t.itertuples():
                unseen = not isnan(r.count) and r.count == 0  # a Monte Carlo zero is not "never"
                rows.append([r.group, r.item, "" if r.count is None or isnan(r.count) else whole(r.count),
                             "" if isnan(r.probability) else
                             (f"not seen (95% CI 0 to {pct(r.probability_high, 4)})" if unseen
                              else pct(r.probability, 4)),
                             "" if isnan(r.probability) else
                             (f"{one_in(r.probability_high)} or rarer" if unseen else one_in(r.probability)),
                             "" if isnan(r.amount) else num(r.amount, 3),
                             "" if isnan(r.contribution) else f"{r.contribution:+.5f}"])
            last = s.table(f"{n} players ({d.perfect[n].rounds:,} rounds)",
                           ["group", "item", "count", "probability", "1 in N", "amount", "contribution"], rows,
                           csv=None, align=["l", "l", "r", "r", "r", "r", "r"])
        # one CSV holds every player count's rows; it hangs on the last player count's table
        last.csv, last.data = "return_tables_mc", pd.concat(frames, ignore_index=True)
        s.p("The CSV tables/return_tables_mc.csv holds every player count's rows.")
    return s


def _strategy(d: ReportData) -> Section:
    s = Section("4b", "Perfect-play strategy (one player)")
    chart = strategy_chart(d.solo)
    for line in strategy_words(chart, d.rules.kickout[1], d.solo.complete):
        s.p(line)
    grid = strategy_grid(chart)
    names = hand_grid_names()
    s.plot("strategy_chart", "Perfect-play strategy chart, one player",
           "Each cell is a starting hand (suited above the diagonal, offsuit below, pairs on it); its colour and "
           "percentage are the share of the dealer hands she keeps (below the kickout threshold) that the hand "
           "plays against." + ("" if d.solo.complete else " TEST SIZE: grey cells were not analysed."),
           lambda fig, box: plot_strategy(fig, box, grid, names), width=7.2, height=6.2)
    grid_rows = [[r] + [("" if isnan(grid.loc[r, c]) else f"{names.loc[r, c]} {100 * grid.loc[r, c]:.0f}")
                        for c in grid.columns] for r in grid.index]
    s.table("Strategy chart as a table: share of the dealer's kept hands played against (percent)",
            [""] + list(grid.columns), grid_rows, csv="strategy_grid",
            data=grid.reset_index(names="rank"), align=["l"] + ["r"] * 13)
    s.table("Strategy by starting hand", ["hand", "suit combinations", "plays against a dealer hand up to",
                                          "folds below it", "plays while the dealer is in"],
            [[r.hand, whole(r.weight), r.plays_up_to, whole(r.folds_below_that),
              pct(r.play_frequency_dealer_in, 2)] for r in chart.itertuples()], csv="strategy_chart",
            data=chart, align=["l", "r", "l", "r", "r"],
            note="'folds below it': dealer hands weaker than the limit that the hand still folds against (card "
                 "removal).")
    return s


def _side_bets(d: ReportData, main) -> Section:
    rules = d.rules
    s = Section("5", "Bonus and side bets")
    bs = bet_summary(d, main)
    s.p("Every bet at a glance: the main game per player count (perfect play; per ante) and the two side bets "
        "(exact; per unit staked). Hit frequency is the chance that the bet returns more than it cost.")
    s.table("Every bet: RTP, house edge, hit frequency and standard deviation",
            ["bet", "N", "method", "RTP", CI_TEXT, "house edge", "hit frequency", "std dev"],
            [[r.bet, "" if r.players is None or isnan(r.players) else str(r.players), r.method, pct(r.rtp),
              ci(r.rtp_low, r.rtp_high), pct(r.house_edge), pct(r.hit_frequency, 2), num(r.std_dev, 4)]
             for r in bs.itertuples()], csv="bet_summary", data=bs, align=["l", "r", "l"] + ["r"] * 5)
    s.p("True odds are the odds against the event, (1 - p) / p to 1; payout odds are what the paytable pays, "
        "x to 1. RTP, house edge, hit frequency and standard deviation are per unit staked (for the bonus: per "
        "ante of a seat). Every figure in this section is exact.")
    s.h3("High-hand bonus (part of the main game)")
    bt = bonus_table(d.solo, rules)
    bonus_rtp, hit, sd = bonus_summary(bt)
    s.p(f"Paid by the house on a seat's final five-card hand, win or lose. Probabilities are per round for one "
        f"player under perfect play (exact{'' if d.solo.complete else ', sampled classes'}): the bonus returns "
        f"{pct(bonus_rtp, 4)} of an ante, hits {pct(hit, 4)} of rounds ({one_in(hit)}), standard deviation "
        f"{sd:.4f} antes. With more players each seat's bonus frequencies are in Section 4.")
    s.table("Bonus paytable, 1 player", ["line", "hand", "payout odds", "probability", "true odds", "1 in N",
                                         "contribution"],
            [[r.line.replace("_", " "), r.hand, pays(r.pays), pct(r.probability, 5), odds(r.probability),
              one_in(r.probability), f"{r.contribution:.6f}"] for r in bt.itertuples()], csv="bonus_paytable",
            data=bt, align=["l", "l", "r", "r", "r", "r", "r"])
    s.h3("Quickdraw")
    qf = quickdraw_table(d)
    s.p("Wins when the player's two-card hand beats the dealer's five-card hand; ties win for the player. Both "
        "readings of the comparison (spec, 'Side bets') are shown; the rule set uses "
        f"'{rules.quickdraw.comparison}'.")
    s.table("Quickdraw paytable and figures", ["comparison", "in rules", "payout odds", "P(win)", "true odds",
                                               "RTP", "house edge", "hit frequency", "std dev", "break-even"],
            [[r.comparison, "yes" if r.in_rules else "no", pays(r.pays), pct(r.probability, 4),
              odds(r.probability), pct(r.rtp, 4), pct(r.house_edge, 4), pct(r.hit_frequency, 4),
              num(r.std_dev, 4), f"{r.break_even_pays:.3f} to 1"] for r in qf.itertuples()], csv="quickdraw",
            data=qf, align=["l", "l"] + ["r"] * 8)
    q = d.quickdraw[rules.quickdraw.comparison]
    qd_rt = q.by_dealer()
    s.table(f"Quickdraw return table by the dealer's hand ({rules.quickdraw.comparison})",
            ["dealer hand", "deals", "probability", "player wins", "P(win | hand)", "RTP contribution"],
            [[r.dealer_category, whole(r.combinations), pct(r.probability, 4), whole(r.wins), pct(r.win_rate, 3),
              f"{r.rtp_contribution:.6f}"] for r in qd_rt.itertuples()], csv="quickdraw_return_table", data=qd_rt)
    qd_pl = q.by_player("category")
    s.table(f"Quickdraw by the player's hand ({rules.quickdraw.comparison})",
            ["player hand", "deals", "probability", "player wins", "P(win | hand)", "RTP contribution"],
            [[r.player, whole(r.combinations), pct(r.probability, 4), whole(r.wins), pct(r.win_rate, 3),
              f"{r.rtp_contribution:.6f}"] for r in qd_pl.itertuples()], csv="quickdraw_by_player", data=qd_pl)
    s.h3("Cover")
    c = d.cover
    ct = c.to_frame()
    s.p(f"Pays on the dealer's five-card hand; each line pays for hands at or above it and below the next line. "
        f"RTP {pct(c.rtp, 4)} (house edge {pct(c.house_edge, 4)}), hit frequency {pct(c.hit_frequency, 4)}, "
        f"standard deviation {c.std_dev:.4f} per unit staked.")
    s.table("Cover paytable and return table", ["line", "from", "payout odds", "hands", "probability",
                                                "true odds", "1 in N", "RTP contribution"],
            [[r["key"].replace("_", " "), r["from"], pays(r["pays"]) if r["key"] != "(no line)" else "loses",
              whole(r["combinations"]), pct(r["probability"], 5), odds(r["probability"]),
              one_in(r["probability"]), f"{r['rtp_contribution']:.6f}"] for _, r in ct.iterrows()],
            csv="cover_return_table", data=ct,
            align=["l", "l"] + ["r"] * 6)
    sb = d.sidebets
    s.table("Side bets at a glance (per unit staked)", ["bet", "reading", "in rules", "RTP", "house edge",
                                                        "hit frequency", "std dev"],
            [[r.bet, r.reading if len(r.reading) < 40 else "rule set's paytable", "yes" if r.in_rules else "no",
              pct(r.rtp, 4), pct(r.house_edge, 4), pct(r.hit_frequency, 4), num(r.std_dev, 4)]
             for r in sb.itertuples()], csv="sidebets_summary", data=sb, align=["l", "l", "l"] + ["r"] * 4)
    return s


def _volatility(d: ReportData, main, strat) -> Section:
    s = Section("5b", "Volatility")
    vi, band = volatility(main)
    s.p("The volatility index is z x (standard deviation of a seat's net result per round): after n rounds the "
        "player's RTP per initial bet lies within RTP +/- VI / sqrt(n) with the stated confidence (normal "
        "approximation, perfect play).")
    s.table("Volatility index (perfect play)", ["N", "method", "std dev", "VI 90%", "VI 95%", "VI 99%"],
            [[str(r.players), r.method, num(r.sd_net, 4), num(r.vi_90, 3), num(r.vi_95, 3), num(r.vi_99, 3)]
             for r in vi.itertuples()], csv="volatility_index", data=vi, align=["r", "l", "r", "r", "r", "r"])
    wide_rows = []
    for n_rounds in BAND_ROUNDS:
        row = [f"{n_rounds:,}"]
        for n in main["players"]:
            b = band[(band.players == n) & (band.rounds == n_rounds) & (band.level == 0.95)].iloc[0]
            row.append(f"{100 * b.rtp_low:.2f} to {100 * b.rtp_high:.2f}")
        wide_rows.append(row)
    s.table("Band of the RTP per initial bet after n rounds, 95% (percent; 90% and 99% in the CSV)",
            ["rounds"] + [f"N = {n}" for n in main["players"]], wide_rows, csv="rtp_band", data=band)
    rng = rtp_range(strat)
    s.p("Lowest and highest RTP per initial bet over every strategy analysed in this report (perfect play, the "
        "solver readings of Section 7, the weak-player profiles of Section 6; every seat playing the same "
        "strategy).")
    s.table("RTP range over the strategies analysed", ["N", "strategies", "lowest", "RTP", CI_TEXT, "highest",
                                                      "RTP", CI_TEXT],
            [[str(r.players), str(r.strategies), r.min_strategy, pct(r.min_rtp, 2), ci(r.min_low, r.min_high),
              r.max_strategy, pct(r.max_rtp, 2), ci(r.max_low, r.max_high)] for r in rng.itertuples()],
            csv="rtp_range_over_strategies", data=rng, align=["r", "r", "l", "r", "r", "l", "r", "r"])
    rec = reconciliation(d)
    s.p("Exact vs Monte Carlo: where a figure is known exactly, the simulation's estimate of it, its interval "
        "and z = (estimate - exact) / standard error. About 1 row in 20 may fall outside a 95% interval by "
        "chance alone.")
    s.table("Exact vs Monte Carlo reconciliation", ["quantity", "N", "exact", "Monte Carlo", CI_TEXT, "z",
                                                    "inside"],
            [[r.quantity, str(r.players), pct(r.exact, 4), pct(r.monte_carlo, 4), ci(r.ci_low, r.ci_high),
              "n/a" if isnan(r.z) else f"{r.z:+.2f}", ("yes" if r.within_95_ci else "NO") + (" *" if r.note else "")]
             for r in rec.itertuples()], csv="reconciliation", data=rec, align=["l", "r", "r", "r", "r", "r", "l"],
            note="* the exact N = 1 side covers sampled starting-hand classes only (test size)"
            if (rec["note"] != "").any() else "")
    return s


def _by_players(d: ReportData, strat, column: str, strategies, digits: int) -> list[list[str]]:
    """One row per player count: N, then ``column`` of each strategy in percent ('' where not run)."""
    rows = []
    for n in d.players:
        g = strat[strat.players == n].set_index("strategy")
        rows.append([str(n)] + [pct(g.loc[c, column], digits) if c in g.index else "" for c in strategies])
    return rows


def _weak_players(d: ReportData, strat) -> Section:
    size = d.size
    s = Section("6", "Weak players next to perfect play")
    s.p("The weak-player profiles are models of typical mistakes, not measured behaviour: "
        + "; ".join(f"{p}: {_PROFILES.get(p, p)}" for p in size.weak_profiles)
        + ". Every seat at the table plays the profile; RTP per initial bet, Monte Carlo "
        f"({size.weak_rounds(d.rounds):,} rounds per cell, the same deals as perfect play).")
    cols = ["perfect"] + list(size.weak_profiles)
    weak_frame = strat[strat.strategy.isin(cols)].reset_index(drop=True)
    s.table("RTP per initial bet: perfect play and the weak profiles", ["N"] + cols,
            _by_players(d, strat, "rtp_initial", cols, 2), csv="weak_players", data=weak_frame)
    s.table("Fold frequency: perfect play and the weak profiles", ["N"] + cols,
            _by_players(d, strat, "fold_frequency", cols, 1), csv=None)
    readings = list(size.readings)
    s.p("The solver readings of the spec ('Strategy readings'), every seat following the same reading: "
        + "; ".join(f"{r}: {_READING_TEXT.get(r, r)}" for r in readings) + ".")
    s.table("RTP per initial bet by strategy reading", ["N"] + [r.replace("-no-bonus", " nb") for r in readings],
            _by_players(d, strat, "rtp_initial", readings, 2), csv="strategy_readings",
            data=strat[strat.strategy.isin(readings)].reset_index(drop=True),
            note="'nb' = no bonus in the decision. Intervals are in the CSV.")
    if _many(d):
        br = best_response_table(d, strat)
        s.p(f"A lab cares about the highest RTP a skilled player can reach: one seat plays perfectly against "
            f"what it knows the others do ('perfect-vs-{PUBLISHER_LIKE}') at a table where every other seat "
            f"follows the publisher-like reading '{PUBLISHER_LIKE}'.")
        s.table("A perfect seat among publisher-like players", ["N", "rounds", "skilled seat RTP", CI_TEXT,
                                                                "other seats", f"all {PUBLISHER_LIKE}"],
                [[str(r.players), whole(r.rounds), pct(r.seat_rtp, 2), ci(r.seat_rtp_low, r.seat_rtp_high),
                  pct(r.others_rtp, 2), pct(r.all_publisher_like_rtp, 2)] for r in br.itertuples()],
                csv="best_response", data=br)
    return s


def _published(d: ReportData) -> Section:
    s = Section("7", "Published figures vs computed")
    pub = d.published.to_frame()
    s.p("The publisher's figures (rulebook, second casino page) next to ours under every strategy reading. "
        f"N = 1 is exact; N >= 2 is Monte Carlo, "
        + (f"each run sized by a pilot for a 95% half-width of {d.size.reading_precision:g} points "
           f"({d.size.precision:g} for perfect play)" if d.size.sized(d.rounds)
           else f"{d.rounds:,} rounds per player count and reading")
        + f", seed {d.seed}, common random numbers across readings. RTP is per initial bet.")
    s.table("Published vs computed", ["figure", "published", "reading", "computed", CI_TEXT, "difference"],
            [[r.figure, pct(r.published, 2), r.reading, pct(r.computed, 2), ci(r.ci_low, r.ci_high),
              f"{100 * r.difference:+.2f} pts"] for r in pub.itertuples()], csv="published_vs_computed",
            data=pub, align=["l", "r", "l", "r", "r", "r"])
    best = closest_published(pub)
    s.table("The reading closest to each published figure", ["figure", "published", "closest reading",
                                                             "computed", CI_TEXT, "difference"],
            [[r.figure, pct(r.published, 2), r.closest_reading, pct(r.computed, 2), ci(r.ci_low, r.ci_high),
              f"{100 * r.difference:+.2f} pts"] for r in best.itertuples()], csv="published_closest", data=best,
            align=["l", "r", "l", "r", "r", "r"])
    for item in GAP_EXPLANATION:  # markdown in the published-figures file; plain text here
        s.p(re.sub(r"\*\*(.*?)\*\*", r"\1", item).replace("`", ""))
    return s


def _plots(d: ReportData, main, strat) -> Section:
    size, rules = d.size, d.rules
    s = Section("8", "Plots")
    s.plot("rtp_by_players", "RTP and fold frequency by player count",
           f"Perfect play: N = 1 exact, N >= 2 Monte Carlo with {CI_TEXT} bars; the shaded band is the "
           "publisher's RTP range, the crosses its fold frequencies; thin lines are the weak profiles.",
           lambda fig, box: plot_by_players(fig, box, main, strat, size.weak_profiles))
    s.plot("rtp_vs_threshold", "RTP against the kickout threshold (1 player, exact)",
           "Every threshold from the same exact analysis (the decision while the dealer is in does not depend "
           "on the threshold); the dashed line marks the rule set's threshold."
           + ("" if d.solo.complete else " TEST SIZE: sampled classes only."),
           lambda fig, box: plot_threshold(fig, box, d.curve, rules.kickout[1]))
    dist_n = d.distribution[0]
    s.plot("net_distribution", "Distribution of a seat's net result per round",
           "Left: 1 player, exact (perfect play). Right: "
           + (f"one seat at {dist_n} players, {size.distribution_rounds:,} simulated rounds (perfect play)."
              if dist_n else "no multi-player count in this report."),
           lambda fig, box: plot_distribution(fig, box, d.solo, d.distribution))
    s.plot("rtp_band", "RTP band against rounds played",
           "The RTP per initial bet a player can expect after n rounds: the solid line is the RTP, the dashed "
           "lines the 95% band RTP +/- VI95 / sqrt(n) (VI95: the volatility index at 95%, Section 5b), one colour "
           "per player count.",
           lambda fig, box: plot_band(fig, box, main))
    return s


def _provenance(provenance, run_times) -> Section:
    s = Section("9", "Provenance")
    s.table("Provenance", ["item", "value"], [[k, Volatile(v) if vol else v] for k, v, vol in provenance],
            csv=None, align=["l", "l"])
    s.table("Run time (seconds; varies between builds; every step in tables/run_times.csv)", ["step", "seconds"],
            [[name, Volatile(sec)] for name, sec in _grouped_times(run_times)], csv=None)
    return s


def _grouped_times(run_times: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The run-time rows with one row per kind of job: 'Monte Carlo: chaser N=1' .. 'N=7' become 'Monte Carlo:
    chaser, N = 1, 2, ... 7' with the seconds added up (a table of 70 rows, mostly 0.0 or 'not recorded',
    filled a page and a half of the PDF)."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for name, sec in run_times:
        m = re.fullmatch(r"(.*) N=(\d+)", name)
        key, n = (m.group(1), m.group(2)) if m else (name, "")
        groups.setdefault(key, []).append((n, sec))
    rows = []
    for key, items in groups.items():
        label = key if items[0][0] == "" else f"{key}, N = {', '.join(n for n, _ in items)}"
        texts = [sec for _, sec in items]
        try:
            total = f"{sum(float(t) for t in texts):.1f}"
        except ValueError:  # resumed or not recorded
            total = texts[0] if len(set(texts)) == 1 else "partly resumed"
        rows.append((label, total))
    return rows


def _many(d: ReportData) -> list[int]:
    """The player counts of the report that are simulated (N >= 2)."""
    return [n for n in d.players if n >= 2]


def _chunk_text(d: ReportData) -> str:
    """The chunk sizes the runs used, e.g. '256 rounds for the solver strategies, 65,536 for the weak profiles'."""
    parts = []
    solver = sorted({r.chunk_size for r in list(d.perfect.values()) + list(d.response.values())})
    fixed = sorted({r.chunk_size for r in d.weak.values()})
    if solver:
        parts.append(" / ".join(f"{c:,}" for c in solver) + " rounds for the solver strategies")
    if fixed:
        parts.append(" / ".join(f"{c:,}" for c in fixed) + " for the weak profiles")
    return ", ".join(parts) or "none run"
