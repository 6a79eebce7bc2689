"""The report's PAR-sheet sections (issue 28): return by
acting position, every bet together, maximum win and liability with the cycles, and the appendix of
alternative paytables.  The figures come from :mod:`~ricochet_math.reports.par_sheet`; this module only
formats them (each table keeps its full-precision frame for its CSV).  The document-control block of the first
page is every report's, :mod:`~ricochet_math.reports.front_page` (its names re-exported here).
"""
from __future__ import annotations

from ricochet_math.reports.document import Section, ci, num, pct, whole
from ricochet_math.reports.front_page import REVIEW_FIELDS, control_rows, document_control  # noqa: F401 (re-exported)
from ricochet_math.reports.par_sheet import by_position, combined_return, cycles, max_outcomes

__all__ = ["document_control", "control_rows", "position_section", "every_bet_section", "limits_section",
           "alternatives_section", "REVIEW_FIELDS"]

CI_TEXT = "95% CI"


def position_section(d) -> Section:
    s = Section("3b", "Return by acting position (perfect play)")
    s.p("Players act in order of their two-card hands, lowest first; position 1 acts first. Per player count "
        f"and position: RTP per initial bet and hit frequency with their {CI_TEXT} (Monte Carlo, the main "
        "game's perfect-play runs of Section 3; plain sample means, as the control variates are kept per "
        "table, not per position). A seat's position changes from round to round with its cards, so these "
        "are the returns of the hands that act in each place, not of a chair.")
    pos = by_position(d.perfect)
    if not len(pos):
        s.p("No player count of two or more in this report.")
        return s
    s.table("RTP and hit frequency by acting position", ["N", "position", "rounds", "RTP per initial bet", CI_TEXT,
                                                         "hit frequency", CI_TEXT, "fold frequency"],
            [[str(r.players), str(r.position), whole(r.rounds), pct(r.rtp_initial, 2),
              ci(r.rtp_initial_low, r.rtp_initial_high), pct(r.hit_frequency, 2),
              ci(r.hit_frequency_low, r.hit_frequency_high), pct(r.fold_frequency, 1)] for r in pos.itertuples()],
            csv="rtp_by_position", data=pos, align=["r", "r", "r", "r", "r", "r", "r", "r"])
    return s


def every_bet_section(d, main) -> Section:
    q = d.quickdraw[d.rules.quickdraw.comparison]
    comb = combined_return(main, q, d.cover)
    s = Section("5c", "A player who makes every bet")
    s.p("One unit on Quickdraw and one on Cover every round beside the main game (ante and play bets, perfect "
        "play). The combined RTP is per total wagered; its interval is the main game's (the side bets are "
        "exact). The share of the hold is each bet's expected loss over the three bets' together.")
    s.table("Combined return and each bet's share of the hold",
            ["N", "wagered per round", "RTP, every bet", CI_TEXT, "main game share", "Quickdraw share",
             "Cover share"],
            [[str(r.players), num(r.wagered_per_round, 4), pct(r.rtp_combined), ci(r.rtp_combined_low,
              r.rtp_combined_high), pct(r.main_hold_share, 1), pct(r.quickdraw_hold_share, 1),
              pct(r.cover_hold_share, 1)] for r in comb.itertuples()], csv="every_bet", data=comb)
    return s


def limits_section(d) -> Section:
    rules = d.rules
    s = Section("5d", "Maximum win, maximum liability and cycles")
    mx = max_outcomes(rules)
    s.p("The most one round can move, under the rules (any decisions). A seat's largest net win: every seat "
        "plays, so the pot holds the dealer's ante and each seat's ante and play bet, and the seat wins it "
        "alone with the best-paid bonus hand. The house's largest payout in the main game: its ante, lost to "
        "the winning seat, plus every seat's bonus, the seats' final hands being distinct cards (the hands "
        "shown reach it, best-paid first; each was checked with the hand evaluator). Side bets per unit "
        "staked; they are not added to the table's figure (a Cover win needs a strong dealer hand, a "
        "Quickdraw win a weak one). The last column adds each bet's largest win for one seat: an upper bound, "
        "not shown to be reachable in one round.")
    s.table("Maximum win per seat and maximum liability per table (ante units)",
            ["N", "seat's largest net win", "the hand", "house's largest payout", "Quickdraw", "Cover",
             "every bet, bound"],
            [[str(r.players), num(r.largest_net_win, 0), r.largest_net_win_hand, num(r.largest_house_payout, 0),
              num(r.quickdraw_largest_win_per_unit, 0), num(r.cover_largest_win_per_unit, 0),
              num(r.every_bet_upper_bound, 0)] for r in mx.itertuples()], csv="max_win_liability",
            data=mx, align=["r", "r", "l", "r", "r", "r", "r"],
            note="The hands of each table's largest payout are in the CSV (largest_house_payout_hands).")
    for r in mx.itertuples():
        if r.players == max(mx["players"]):
            s.p(f"At {r.players} players the house's largest payout comes from the hands {r.largest_house_payout_hands}.")
    cy = cycles(d)
    s.p("The cycle of each exactly computed part: the number of equally likely outcomes its figures are "
        "counted over (integers, no sampling).")
    s.table("Cycles of the exact parts", ["part", "outcome", "cycle"],
            [[r.part + ("" if r.complete else " (TEST SIZE: sampled classes only)"), r.outcome, whole(r.cycle_count)]
             for r in cy.itertuples()], csv="cycles", data=cy, align=["l", "l", "r"])
    return s


def alternatives_section(d) -> Section:
    s = Section("A", "Appendix: alternative paytables")
    alt = d.alternatives
    s.p("The RTP of each alternative bonus and Cover table, everything else of the rule set kept: for a bonus "
        "table, the main game's RTP per initial bet with it, one player playing perfectly for that table, "
        "exact; for a Cover table, Cover's RTP per unit staked, exact. The "
        "rulebook says the publisher 'offers a set of pay tables' but prints one; the alternatives here are "
        "the shipped rule sets whose tables differ from this one's and the tables given to the build "
        "('ricochet report --alternative FILE').")
    if alt is None or not len(alt):
        s.p("No alternative table was given.")
        return s
    if len(alt) <= 2:
        s.note("No shipped rule set has a different bonus or Cover table, and none was given: only the tables "
               "in force are listed.")
    s.table("RTP of each paytable (N = 1 exact)", ["table", "source", "paytable (line pays)", "RTP", "unit"],
            [[r.table, r.source, r.paytable, pct(r.rtp, 3) + ("" if r.complete else " (sampled)"), r.unit]
             for r in alt.itertuples()], csv="alternative_paytables", data=alt,
            align=["l", "l", "l", "r", "l"])
    return s


def alternative_sources(rules, given=()) -> list[tuple[str, object]]:
    """(label, rule set) of the shipped rule sets other than ``rules`` and of the ``given`` rule sets (files,
    names or RuleSets), in that order; :func:`~ricochet_math.reports.par_sheet.alternative_paytables` keeps
    the tables that differ."""
    from ricochet_math.rules.files import shipped_rule_sets
    from ricochet_math.rules.ruleset import load_rules

    out = []
    for name in shipped_rule_sets():
        other = load_rules(name)
        if other.sha256 != rules.sha256:
            out.append((f"{name} (shipped)", other))
    for item in given:
        other = load_rules(item)
        out.append((f"{other.name} (given)", other))
    return out

