"""Write reports/rule-set-design.md, the publisher's question answered, from the committed design records.

    python reports/design/make_answers.py            # (re)write reports/rule-set-design.md
    python reports/design/make_answers.py --check    # exit 1 if the committed file differs
    python reports/design/make_answers.py --rederive-seeds   # rewrite the records' float seeds (issue 36)
    python reports/design/make_answers.py --verdict-headers  # add the verdict to the rule sets' headers (issue 36)

Each answer is one `ricochet design` run; its command (below, and in the markdown) regenerates its rule set
(``NAME.toml``), its record (``NAME.design.json``, every figure at full precision) and its table
(``NAME.csv``) in this folder.  The markdown's figures are read from the records, never typed.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ricochet_math.reports.design_rationale import answer_markdown

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "rule-set-design.md"
FINE = ("99 TT JJ QQ KK KKQ KKQ4 KKQ5 KKQ6 KKQ7 KKQ8 KKQ9 KKQT KKQJ KKA AA AAQ AAK 33xx 44xx 55xx 66xx 77xx 88xx "
        "99xx TTxx JJxx QQxx KKxx AAxx 222 333 444 555 666 777 888 999 TTT JJJ QQQ KKK AAA A2345 23456 34567 45678 "
        "56789 6789T 789TJ 89TJQ 9TJQK TJQKA flush")


#: FINE with the kicker steps between AAQ and AAKQ (N = 2's best thresholds) and the second pair's steps from
#: 88xx to TT88 (N = 3's: 88xx -> 99xx moved N = 3 by about 0.45 points, more than the flat band's room)
FINER = ("99 TT JJ QQ KK KKQ KKQ4 KKQ5 KKQ6 KKQ7 KKQ8 KKQ9 KKQT KKQJ KKA AA AAQ AAQ5 AAQ7 AAQ9 AAQJ AAK AAK5 AAK9 "
         "AAKQ 33xx 44xx 55xx 66xx 77xx 88xx 8833 8844 8855 8866 8877 99xx 9933 9944 9955 9966 9977 9988 TTxx TT44 "
         "TT66 TT88 JJxx QQxx KKxx AAxx 222 333 444 555 666 777 888 999 TTT JJJ QQQ KKK AAA A2345 23456 34567 45678 "
         "56789 6789T 789TJ 89TJQ 9TJQK TJQKA flush")


def command(name: str, reading: str, vary: str, extra: str = "", band: str = "95.97 96.91", grid: str = FINE,
            rules: str = "") -> str:
    return (f"ricochet design {f'--rules {rules} ' if rules else ''}--band {band} --reading {reading} --vary {vary} "
            f'--grid "{grid}" {extra}--write reports/design/{name}.toml --csv reports/design/{name}.csv')


#: the flat target users ask for: 96.5% +- 0.25 points
FLAT = "96.25 96.75"
#: (heading, record stem, command); an answer whose record is not there yet is left out
ANSWERS = [
    ("Perfect play, shipped bonus: which kickout table?", "perfect-shipped-bonus",
     command("perfect-shipped-bonus", "perfect", "kickout")),
    ("The best publisher-like reading (`pub-final-dealer-no-bonus`), shipped bonus: which kickout table?",
     "pub-final-dealer-no-bonus-shipped-bonus",
     command("pub-final-dealer-no-bonus-shipped-bonus", "pub-final-dealer-no-bonus", "kickout")),
    ("Perfect play, kickout and bonus varied: the smallest change that puts every N in the band",
     "perfect-kickout-bonus", command("perfect-kickout-bonus", "perfect", "kickout,bonus")),
    ("`pub-final-dealer-no-bonus`, kickout and bonus varied: the smallest change that puts every N in the band",
     "pub-final-dealer-no-bonus-kickout-bonus",
     command("pub-final-dealer-no-bonus-kickout-bonus", "pub-final-dealer-no-bonus", "kickout,bonus")),
    ("A flat target, 96.5% ± 0.25 (96.25-96.75%), perfect play, kickout and bonus varied", "perfect-flat",
     command("perfect-flat", "perfect", "kickout,bonus", band=FLAT)),
    ("The flat target under perfect play again, the search's sweeps at 0.05 points (the intervals half as wide)",
     "perfect-flat-search-0.05",
     command("perfect-flat-search-0.05", "perfect", "kickout,bonus", "--search-precision 0.05 ", band=FLAT)),
    ("The flat target under perfect play, aimed at its centre: the smallest worst deviation from 96.5% "
     "(`--objective target`), the search's sweeps at 0.05 points",
     "perfect-flat-target",
     command("perfect-flat-target", "perfect", "kickout,bonus",
             "--objective target --target 96.5 --search-precision 0.05 ", band=FLAT)),
    ("The flat target under perfect play on a finer grid where N = 2 and N = 3 bind: the smallest change to the "
     "shipped rule set (fresh seed 2029)",
     "perfect-flat-finer",
     command("perfect-flat-finer", "perfect", "kickout,bonus", "--search-precision 0.05 --seed 2029 ", band=FLAT,
             grid=FINER)),
    ("The flat target under perfect play from the centre-aimed design, on a finer grid where N = 2 and N = 3 "
     "bind, on a fresh seed (2028)",
     "perfect-flat-fine",
     command("perfect-flat-fine", "perfect", "kickout,bonus",
             "--objective target --target 96.5 --search-precision 0.05 --seed 2028 ", band=FLAT, grid=FINER,
             rules="reports/design/perfect-flat-target.toml")),
    ("A flat target, 96.5% ± 0.25 (96.25-96.75%), `pub-final-dealer-no-bonus`, kickout and bonus varied",
     "pub-final-dealer-no-bonus-flat",
     command("pub-final-dealer-no-bonus-flat", "pub-final-dealer-no-bonus", "kickout,bonus", band=FLAT)),
]
#: the two answers to the publisher's question with the shipped bonus
SHIPPED = ("perfect-shipped-bonus", "pub-final-dealer-no-bonus-shipped-bonus")
#: the four answers with the bonus varied (issue 34): the publisher's band and the flat target, two readings
JOINT = ("perfect-kickout-bonus", "pub-final-dealer-no-bonus-kickout-bonus", "perfect-flat",
         "perfect-flat-search-0.05", "perfect-flat-target", "perfect-flat-finer", "perfect-flat-fine",
         "pub-final-dealer-no-bonus-flat")


INTRO = """# The publisher's band: which rule set puts N = 1..7 in 95.97-96.91%?

The rulebook claims an RTP of 95.97% to 96.91% "with perfect play over 1-7 players".  Under game-theoretic
perfect play the shipped rule set does not land in that band (`reports/published-figures.md`, RTP by player
count).  `ricochet design` (docs/methods/rule-set-design.md) searches one kickout threshold per player count,
from a fine pattern grid (the finder's grid with the kicker and rank steps between), and optionally the
bonus, so that every player count's **whole 95% interval** lies in the band, then confirms the design on
fresh seeds.  The tables below are the confirmation; each section's command regenerates its files in
`reports/design/` (`NAME.toml`: the rule set, extending `publisher`; `NAME.design.json`: every figure at full
precision).  Generated by `python reports/design/make_answers.py` from those records.

With the bonus varied the search keeps every re-solved surface as a cut and bounds each step by a trust region
(docs/methods/rule-set-design.md); each such answer carries its iterations (the linear shortcut, the cut model
and the re-solved figure at every proposed design), says whether it converged, and, when the band is out of
reach, the certificate of the relaxation.  The perfect-play answer with the publisher's band is the timed run
of `benchmarks/bench_design.py` (the same call as its command, `--design-out`), whose row in
`benchmarks/design-timing.csv` gives its time and the load it ran under.
"""


def conclusion(records: dict) -> str:
    """The answer in one paragraph, from the records of the shipped-bonus runs."""
    done = [records[s] for s in SHIPPED if s in records]
    if len(done) < len(SHIPPED):
        return ""
    ok = [r["feasible"] and r["confirmed"] for r in done]
    if all(ok):
        a, b = ({r["players"]: r["threshold"] for r in rec["table"]} for rec in done)
        differ = [n for n in sorted(a) if a[n] != b.get(n)]
        where = (f"The two tables differ at N = {', '.join(map(str, differ))}: a kickout table is chosen for a "
                 "player model." if differ else "The two tables are the same.")
        return ("**Answer.** With the shipped bonus, a kickout table alone puts every player count from 1 to 7 in "
                "the band, confirmed on fresh seeds, under perfect play and under `pub-final-dealer-no-bonus` "
                f"(the tables below); no bonus change is needed for either.  {where}\n")
    names = ", ".join(f"`{r['reading']}`" for r, good in zip(done, ok) if not good)
    return (f"**Answer.** With the shipped bonus, no kickout table on the grid puts every player count in the band "
            f"(confirmed) under {names}: see the closest designs and their misses below.\n")


def joint_conclusion(records: dict) -> str:
    """The answers with the bonus varied (issue 34), one line each, from their records."""
    lines = []
    for heading, stem, _ in ANSWERS:
        if stem not in JOINT or stem not in records:
            continue
        r = records[stem]
        lo, hi = (100 * x for x in r["band"])
        where = f"`{r['reading']}`, band {lo:.2f}-{hi:.2f}%" + (
            f", search at {r['search_precision_pp']:g} points" if r["search_precision_pp"] != 0.1 else "") + (
            f", the finer grid ({len(r['grid'])} patterns)" if r.get("grid") == FINER.split() else "")
        search = f"the search {'converged' if r['converged'] else 'did NOT converge'} in {r['resolves']} re-solve(s)"
        kick = [f"N = {t['players']} {t['was']} -> {t['threshold']}" for t in r["table"] if t["threshold"] != t["was"]]
        start = r.get("input_rules", "publisher")
        shipped = start == "publisher"
        change = (("bonus " + ", ".join(r["bonus_changes"]) if r["bonus_changes"] else
                   "the shipped bonus" if shipped else f"`{start}`'s bonus")
                  + ("; kickout " + ", ".join(kick) if kick else
                     "; the shipped kickout table" if shipped else f"; `{start}`'s kickout table")
                  + ("" if shipped else f", changes counted from `{start}`, the rule set it started from"))
        if r["feasible"] and r["confirmed"]:
            lines.append(f"* {where}: every N in the band, confirmed on fresh seeds, with {change} ({search}).")
        elif r.get("certificate") and r["certificate"]["relaxed_miss"] > 0:
            lines.append(f"* {where}: out of reach on this grid ({search}); the closest design misses by "
                         f"{100 * r['miss']:.3f} points; certificate: relaxed worst miss "
                         f"{100 * r['certificate']['relaxed_miss']:.3f} points.")
        else:
            state = "feasible in the search but not confirmed" if r["feasible"] else (
                f"the closest design misses by {100 * r['miss']:.3f} points, no certificate")
            lines.append(f"* {where}: {state} ({search}), with {change}.")
    if not lines:
        return ""
    return ("**With the bonus varied** (the smallest change to the shipped bonus and kickout table, counted in "
            "lines and thresholds changed):\n\n" + "\n".join(lines) + "\n")


def markdown() -> str:
    records = {stem: json.loads((HERE / f"{stem}.design.json").read_text(encoding="utf-8"))
               for _, stem, _ in ANSWERS if (HERE / f"{stem}.design.json").exists()}
    parts = [INTRO, conclusion(records), joint_conclusion(records)]
    for heading, stem, cmd in ANSWERS:
        if stem in records:
            parts.append(answer_markdown(heading, cmd, records[stem]))
            parts.append(others_markdown(records[stem]))
    return "\n".join(p for p in parts if p)


def others_markdown(record: dict) -> str:
    """The design under the other player models (the record's ``others``): RTP per initial bet by N, percent,
    with the 95% half-width (N = 1 exact), and how many player counts lie wholly inside the band."""
    rows = record.get("others") or []
    if not rows:
        return ""
    players = sorted({r["players"] for r in rows})
    out = ["How robust the band is to the player model: the same rule set under the other models "
           "(RTP per initial bet, %, with the 95% half-width of the Monte Carlo runs at 0.2 points; a bare figure is exact):", "",
           "| model | " + " | ".join(f"N = {n}" for n in players) + " | N inside the band |",
           "|---|" + "---:|" * len(players) + "---:|"]
    for reading in dict.fromkeys(r["reading"] for r in rows):
        cells = {r["players"]: r for r in rows if r["reading"] == reading}
        text = []
        for n in players:
            r = cells[n]
            half = 50 * (r["rtp_high"] - r["rtp_low"])
            text.append(f"{100 * r['rtp']:.2f}" + (f" ± {half:.2f}" if half > 0 else ""))
        inside = sum(bool(cells[n]["in_band"]) for n in players)
        out.append(f"| `{reading}` | " + " | ".join(text) + f" | {inside} of {len(players)} |")
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--rederive-seeds", action="store_true",
                    help="rewrite the confirmation seeds that records written before issue 36 hold as floats "
                         "(and their CSV tables), each re-derived from the master seed and checked against the "
                         "stored digits first")
    ap.add_argument("--verdict-headers", action="store_true",
                    help="add the verdict line to the rule sets written before issue 36 (and 'not met' to the "
                         "description of a design that is not), the records' digests brought up to date")
    args = ap.parse_args(argv)
    if args.verdict_headers:
        from ricochet_math.design.design_record import add_verdict_header

        for _, stem, _ in ANSWERS:
            record = HERE / f"{stem}.design.json"
            if record.exists():
                print(f"{stem}: {add_verdict_header(record, write=True)}")
        return 0
    if args.rederive_seeds:
        from ricochet_math.design.design_record import rederive_seeds

        for _, stem, _ in ANSWERS:
            record, table = HERE / f"{stem}.design.json", HERE / f"{stem}.csv"
            if record.exists():
                for line in rederive_seeds(record, table if table.exists() else None, write=True):
                    print(line)
        return 0
    text = markdown()
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} is out of date: run python reports/design/make_answers.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
