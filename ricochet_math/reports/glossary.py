"""The glossary page of each report: the terms a reader meets in its tables and captions, in words (issue 36).

One entry per term, written once here; each report lists the terms it uses (:data:`CASINO_TERMS`,
:data:`HOME_TERMS`, ...) and :func:`glossary_section` lays them out as a two-column table at the end of
the report, so a strategy name such as ``t:x,x,x,88:wary`` or an abbreviation such as VI95 is defined
where a reviewer can find it.
"""
from __future__ import annotations

from collections.abc import Iterable

from ricochet_math.reports.document import Section

__all__ = ["TERMS", "CASINO_TERMS", "HOME_TERMS", "RING_TERMS", "ROCOCO_TERMS", "FREERIDE_TERMS",
           "glossary_section"]

#: every term, by the text the reports print
TERMS = {
    "RTP per initial bet": "1 + the expected net result per ante (1 - house edge per ante).",
    "RTP per total wagered": "expected amount returned over expected amount wagered (1 - element of risk).",
    "95% CI, a ± b": "the 95% confidence interval of a Monte Carlo estimate; a ± b is the estimate and half its "
                     "width. 'exact' marks a figure counted over every case (no interval).",
    "p-value": "the chance of a test statistic at least as extreme if the hypothesis tested (equal seats, equal "
               "chances) were true; shown with four decimals, and as '< 0.0001' below that.",
    "perfect play": "each player maximises her own expected net result, knowing every card on the table, given "
                    "that every later player does too (Section 2).",
    "control variates": "a variance reduction: the sample mean corrected by quantities whose means are known "
                        "exactly; unbiased, with a narrower interval.",
    "VI95": "the volatility index at 95%: 1.96 x the standard deviation of a seat's net result per round; after n "
            "rounds the RTP lies within RTP ± VI95 / sqrt(n) with 95% confidence.",
    "kickout threshold": "the dealer folds (is kicked out) when her five-card hand is at or above it; 'AAxx' is "
                         "two pair, aces up; 'KKQ' a pair of kings with a queen; 'A2345' the lowest straight.",
    "hit frequency": "the share of rounds in which a seat's net result is positive.",
    "fold frequency": "folds per player-round (kicked-out rounds included).",
    "min-lift": "a home-game strategy: buy the fewest cards with which some draw from the unseen cards lifts the "
                "hand; fold if even the cards the hand limit allows cannot.",
    "pot-odds": "a home-game strategy: buy the number of cards k that maximises the chance that k cards lift the "
                "hand times an equal share of the pot among the survivors, minus k; fold when no k gains.",
    "optimal": "the home game's exact expectimax at the endgame (the live hands within a few cards of room), the "
               "pot-odds rule before that.",
    "Wald test": "a chi-square test that every seat (or every place in the order of play) has the same expected "
                 "result, on the covariance of the per-game nets (N - 1 degrees of freedom).",
    "order of play": "the order the players act in, set by their cards (the lowest acts first), not by their seats.",
    "jokers bug": "Ring Poker's default joker rule: a joker counts as an ace, or as any card that completes a "
                  "straight or a flush (the publisher's 'use them as bugs'); 'wild': any card; 'dead': no rank "
                  "and no suit.",
    "greedy, greedy-fast, lookahead, denial": "Ring Poker drafting strategies (docs/ring-poker.md): greedy takes "
                                              "the pair with the largest expected value of the best arrangement; "
                                              "the others use a fast integer potential.",
    "edge": "seat 1's win share minus the fair share 1/players, in percentage points.",
    "t:P1,P2,P3,P4[:strong|weak|hide][:wary]": "a Free Ride threshold strategy: with k cards face up it folds when "
                                                "its best possible hand is below Pk ('x': never folds there; '88': a "
                                                "pair of eights); strong / weak / hide: which card it shows (the "
                                                "highest, the lowest, the one that looks weakest); wary: it also "
                                                "folds when another player's face-up cards alone beat its best hand. "
                                                "So t:x,x,x,88:wary has no threshold with one to three cards face "
                                                "up and folds below a pair of eights with four; at any turn it folds "
                                                "when beaten on the table.",
    "always, computer, cautious, bold, hider": "named Free Ride threshold strategies: always never folds; computer "
                                               "t:x,x,88,TT; cautious t:A,88,TT,QQ:strong:wary; bold t:x,x,x,88:hide; "
                                               "hider t:x,x,88,TT:hide:wary.",
    "free ride": "in Free Ride Poker, a loser (or a folder) who cannot pay pays all she has and is out, however "
                 "much her last card exposed her to; without the free ride (the counterfactual that prices it) a "
                 "player may only play a card whose loss she could pay (docs/free-ride-poker.md).",
    "pot share": "the share of the pot a hand takes on average (ties split).",
    "naive rule": "Rococo's exchange rule 'keep the made hand', against which the optimal keep is measured.",
    "blind option": "Rococo's right of the first player to declare a blind game of 1 to 10 before looking at his "
                    "cards (docs/rococo-poker.md).",
    "best response": "the strategy with the highest result against the others' fixed strategies, picked on one "
                     "seed and played again on a fresh seed (the confirmation) so that its lead is not luck.",
    "no detectable difference": "the 95% interval of a difference holds zero: the data cannot tell the two apart.",
}

CASINO_TERMS = ("RTP per initial bet", "RTP per total wagered", "95% CI, a ± b", "perfect play", "control variates",
                "VI95", "kickout threshold", "hit frequency", "fold frequency", "best response")
HOME_TERMS = ("min-lift", "pot-odds", "optimal", "order of play", "Wald test", "p-value", "95% CI, a ± b")
RING_TERMS = ("jokers bug", "greedy, greedy-fast, lookahead, denial", "edge", "Wald test", "p-value",
              "best response", "no detectable difference", "95% CI, a ± b")
ROCOCO_TERMS = ("pot share", "naive rule", "blind option", "best response", "no detectable difference",
                "95% CI, a ± b")
FREERIDE_TERMS = ("t:P1,P2,P3,P4[:strong|weak|hide][:wary]", "always, computer, cautious, bold, hider",
                  "free ride", "best response", "no detectable difference", "95% CI, a ± b")


def glossary_section(number: str, terms: Iterable[str]) -> Section:
    """The report's glossary: each of ``terms`` (keys of :data:`TERMS`) with its definition."""
    s = Section(number, "Glossary")
    s.table("Terms used in this report", ["term", "meaning"], [[t, TERMS[t]] for t in terms], csv=None,
            align=["l", "l"])
    return s
