"""The report's "Design rationale" section, for a rule set that came from the designer (``ricochet design``).

:meth:`~ricochet_math.design.rule_set.RuleSetDesign.write_toml` writes, beside the designed rule set
``NAME.toml``, the record ``NAME.design.json``: the band, the player model, the objective, the seed, the
confirmed RTP-by-N table (with the search's convergence label), the other models' table, the search's
iterations and convexity checks, the certificate when the band is out of reach, and the SHA-256 of the rule
set as written.  When the report's rule set is such a file and the record is beside it, this section says
why the rule set is what it is.  A record whose SHA-256 is not the rule set's (the file was edited after the
design) is said to be stale instead of being shown as the rationale.  The record is read as JSON only.
"""
from __future__ import annotations

import json
from pathlib import Path

from ricochet_math.design.design_record import DESIGN_SCHEMA, design_sidecar_path
from ricochet_math.reports.document import Section, ci, pct
from ricochet_math.rules.ruleset import RuleSet

__all__ = ["design_record", "rationale_section", "with_rationale", "answer_markdown"]

SECTION_NUMBER = "8b"


def design_record(rules: RuleSet) -> dict | None:
    """The design record beside ``rules``' file, or None (no file, no record, or not a design record)."""
    source = (rules.source or "").replace(" (modified)", "")
    if not source or rules.source.endswith("(modified)"):
        return None
    path = design_sidecar_path(Path(source))
    if not path.is_file():
        return None
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("schema") != DESIGN_SCHEMA:
        return None
    return record


def rationale_section(rules: RuleSet, number: str = SECTION_NUMBER) -> Section | None:
    """The "Design rationale" section, or None when the rule set did not come from the designer."""
    rec = design_record(rules)
    if rec is None:
        return None
    s = Section(number, "Design rationale")
    if rec.get("designed_sha256") != rules.sha256:
        s.p(f"A design record lies beside this rule set, but it was written for another version of the file "
            f"(SHA-256 {str(rec.get('designed_sha256'))[:16]}..., the file now {rules.sha256[:16]}...): the rule "
            "set was edited after the design, so the record is not its rationale.")
        return s
    lo, hi = rec["band"]
    s.p(f"This rule set was designed by `ricochet design` from '{rec['input_rules']}' (SHA-256 "
        f"{rec['input_sha256'][:16]}...): vary {', '.join(rec['vary'])}, objective {rec['objective']}, so that "
        f"every player count's RTP per initial bet lies in {pct(lo, 2)} to {pct(hi, 2)} under the player model "
        f"'{rec['reading']}' (seed {rec['seed']}, toolkit {rec['version']}).")
    verdict = ("The search put every player count's interval inside the band." if rec["feasible"] else
               f"No design on the grid puts every player count inside the band: this is the closest, missing it by "
               f"{100 * rec['miss']:.3f} points.")
    conf = ("The confirmation on fresh seeds puts every interval inside the band." if rec["confirmed"] else
            "The confirmation on fresh seeds does not put every interval inside the band (see the table).")
    if rec.get("convergence"):
        conf += f" Search: {_sentence(rec['convergence'])}"
    if rec.get("certificate"):
        conf += f" Certificate: {_sentence(rec['certificate']['text'])}"
    s.p(f"{verdict} {conf} The figures below are the confirmation: runs on seeds that took no part in the "
        f"search, to a 95% half-width of {rec['confirm_precision_pp']:g} points (N = 1 exact); the search's own "
        "estimates, biased towards the band by the choice, stand beside them.")
    labelled = all("search" in r for r in rec["table"])  # records before issue 34 carry no convergence label
    rows = [[str(r["players"]), r["was"], r["threshold"], pct(r["search_rtp"]), pct(r["rtp"]),
             ci(r["rtp_low"], r["rtp_high"]), "yes" if r["in_band"] else "no"] + ([r["search"]] if labelled else [])
            for r in rec["table"]]
    s.table("Kickout threshold and RTP per initial bet by player count (confirmed)",
            ["players", "input threshold", "designed", "search RTP", "confirmed RTP", "95% CI", "in band"]
            + (["search"] if labelled else []),
            rows, csv="design_rationale", align=["r", "l", "l", "r", "r", "r", "l"] + (["l"] if labelled else []))
    if rec["others"]:
        s.table("The same design under other player models (robustness of the band)",
                ["model", "players", "RTP", "95% CI", "in band"],
                [[r["reading"], str(r["players"]), pct(r["rtp"]), ci(r["rtp_low"], r["rtp_high"]),
                  "yes" if r["in_band"] else "no"] for r in rec["others"]],
                csv="design_other_models", align=["l", "r", "r", "r", "l"])
    if rec.get("iterations"):
        s.table("The search's iterations: at each proposed design, the linear shortcut, the cut model and the "
                "re-solved figure",
                ["iteration", "players", "threshold", "bonus", "linear", "cut model", "re-solved", "cut error (points)",
                 "step"],
                [[str(r["iteration"]), str(r["players"]), r["threshold"], r["pays"], pct(r["linear"]),
                  pct(r["predicted"]), pct(r["resolved"]), f"{100 * r['gap']:+.3f}", r["step"]]
                 for r in rec["iterations"]],
                csv="design_iterations", align=["r", "r", "l", "l", "r", "r", "r", "r", "l"])
    elif rec["shortcut"]:
        s.table("Re-solving the decisions after a bonus change: the linear shortcut against the re-solved figure",
                ["re-solve", "players", "threshold", "linear", "re-solved", "error (points)"],
                [[str(r["resolve"]), str(r["players"]), r["threshold"], pct(r["predicted"]), pct(r["resolved"]),
                  f"{100 * r['difference']:+.3f}"] for r in rec["shortcut"]],
                csv="design_shortcut", align=["r", "r", "l", "r", "r", "r"])
    return s


def _sentence(text: str) -> str:
    """``text`` as a sentence: a full stop at its end."""
    text = text.strip()
    return text if text.endswith(".") else text + "."


def with_rationale(sections: list, rules: RuleSet) -> list:
    """``sections`` with the "Design rationale" section before the last one (provenance) when the rule set
    came from the designer; unchanged otherwise."""
    s = rationale_section(rules)
    if s is None:
        return sections
    return list(sections[:-1]) + [s] + list(sections[-1:])


# ---------------------------------------------------------------- the publisher's question, as markdown

def answer_markdown(heading: str, command: str, record: dict) -> str:
    """One design record as a markdown section: the command that regenerates it, the verdict, the confirmed
    RTP-by-N table (percent, 95% intervals) and the bonus changes and shortcut error when the bonus moved."""
    lo, hi = record["band"]
    out = [f"## {heading}", "", "```", command, "```", ""]
    cert = record.get("certificate")
    if record["feasible"]:
        verdict = "**Feasible**: the search put every player count's interval inside the band"
    elif cert is not None and cert["relaxed_miss"] <= 0:  # a miss the relaxation does not prove
        verdict = (f"**No design in the band found** (not proven out of reach, see the certificate line): the closest "
                   f"design the search reached misses the band by {100 * record['miss']:.3f} points")
    elif cert is not None:
        verdict = (f"**Out of reach on this grid** (the certificate below): the closest design misses the band by "
                   f"{100 * record['miss']:.3f} points")
    else:
        verdict = f"**Infeasible on this grid**: the closest design misses the band by {100 * record['miss']:.3f} points"
    conf = ("and the confirmation on fresh seeds puts every interval inside it." if record["confirmed"] else
            "and the confirmation on fresh seeds does **not** put every interval inside it.")
    out.append(f"{verdict}, {conf} Band {pct(lo, 2)} to {pct(hi, 2)}, reading `{record['reading']}`, vary "
               f"{', '.join(record['vary'])}, seed {record['seed']}; confirmation at a 95% half-width of "
               f"{record['confirm_precision_pp']:g} points on seeds disjoint from the search's (N = 1 exact).")
    if record.get("convergence"):
        out += ["", f"**Search**: {_sentence(record['convergence'])} The design reported is the re-solved paytable "
                "with the best figures on its own surface (its own decisions). Run time "
                f"{record['seconds']:.0f} s."]
    if record.get("certificate"):
        out += ["", f"**Certificate**: {_sentence(record['certificate']['text'])}"]
    labelled = all("search" in r for r in record["table"])
    start = record.get("input_rules", "publisher")
    if start != "publisher":  # a run from a designed rule set: its "was" is that set's, not the shipped one
        out += ["", f"Started from `{start}` (`--rules`): each \"was\" below is that rule set's."]
    origin = "shipped" if start == "publisher" else f"was: {start}"
    out += ["", f"| players | threshold ({origin}) | search RTP | confirmed RTP | 95% CI | in band |"
            + (" search |" if labelled else ""), "|---|---|---|---|---|---|" + ("---|" if labelled else "")]
    for r in record["table"]:
        was = "" if r["threshold"] == r["was"] else f" (was {r['was']})"
        out.append(f"| {r['players']} | {r['threshold']}{was} | {pct(r['search_rtp'])} | {pct(r['rtp'])} | "
                   f"{ci(r['rtp_low'], r['rtp_high'], 3)} | {'yes' if r['in_band'] else 'no'} |"
                   + (f" {r['search']} |" if labelled else ""))
    if record.get("bonus_changes"):
        out += ["", "Bonus: " + ", ".join(record["bonus_changes"]) + "."]
    if record.get("iterations"):
        out += ["", "The iterations (the search keeps every re-solved surface as a cut): at each proposed design, the "
                "linear shortcut (the decisions of the centre's pays), the cut model (the largest plane known) and the "
                "re-solved figure, same seeds; the errors are prediction minus re-solved, in points (paired: the plain "
                "means on the same rounds):", "",
                "| iteration | players | threshold | bonus | linear | cut model | re-solved | linear error | cut error "
                "| paired cut error | step |",
                "|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in record["iterations"]:
            out.append(f"| {r['iteration']} | {r['players']} | {r['threshold']} | {r['pays']} | {pct(r['linear'])} | "
                       f"{pct(r['predicted'])} | {pct(r['resolved'])} | {100 * r['linear_error']:+.3f} | "
                       f"{100 * r['gap']:+.3f} | {100 * r['gap_paired']:+.3f} | {r['step']} |")
        out += ["", "Convexity: every earlier cut against the re-solved figure at each later design (a cut of a convex "
                "RTP never over-predicts; points, paired at N >= 2):", "",
                "| players | cuts checked | worst cut - re-solved | paired | every cut a lower bound |",
                "|---|---|---|---|---|"]
        for n in sorted({r["players"] for r in record.get("convexity", [])}):
            rows = [r for r in record["convexity"] if r["players"] == n]
            out.append(f"| {n} | {len(rows)} | {100 * max(r['over_prediction'] for r in rows):+.3f} | "
                       f"{100 * max(r['over_prediction_paired'] for r in rows):+.3f} | "
                       f"{'yes' if all(r['lower_bound'] for r in rows) else 'no'} |")
    elif record["shortcut"]:
        out += ["", "The linear shortcut (pays proposed with the decisions of the old pays) against the re-solved "
                "figure at the proposed design, same seeds:", "",
                "| re-solve | players | threshold | linear | re-solved | error (points) | paired error (points) |",
                "|---|---|---|---|---|---|---|"]
        for r in record["shortcut"]:
            out.append(f"| {r['resolve']} | {r['players']} | {r['threshold']} | {pct(r['predicted'])} | "
                       f"{pct(r['resolved'])} | {100 * r['difference']:+.3f} | {100 * r['difference_plain']:+.3f} |")
    return "\n".join(out) + "\n"
