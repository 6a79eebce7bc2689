"""Golden figures: every number the toolkit computes today, pinned to the last bit.

Written before the package was re-laid out (issue 10) so that the move can be
shown to change no figure.  ``compute()`` recomputes everything from the public
entry points; ``tests/test_golden.py`` compares it with ``tests/golden/``.

Regenerate (only when a figure is meant to change, and say why in the commit)::

    python tests/golden_figures.py --write

Floats are stored as ``repr`` strings (exact round trip, NaN allowed), arrays
as dtype, shape and the SHA-256 of their bytes, data frames cell by cell.
"""
from __future__ import annotations

import hashlib
import json
import math
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd

import ricochet_math as rm
from ricochet_math.evaluator.cards import format_cards

GOLDEN = Path(__file__).with_name("golden")
FIGURES = GOLDEN / "figures.json"
REPORT_DIR = GOLDEN / "report-tiny"

SOLO_CLASSES = (0, 60, 84, 167)  # AA, a middle class, 97s-ish, 32o: fast enough for every run
SIM_PLAYERS = (1, 4, 7)
SIM_SEED = 20261130
REPORT_KW = dict(players=[1, 4, 7], size="tiny", seed=7, progress=False, reproducible=True)


def canon(obj):
    """A JSON-able, exactly comparable form of ``obj``."""
    if isinstance(obj, pd.DataFrame):
        return {"columns": [str(c) for c in obj.columns], "index": [canon(i) for i in obj.index],
                "rows": [[canon(v) for v in row] for row in obj.itertuples(index=False)]}
    if isinstance(obj, pd.Series):
        return canon(obj.to_frame())
    if isinstance(obj, np.ndarray):
        a = np.ascontiguousarray(obj)
        return {"dtype": str(a.dtype), "shape": list(a.shape), "sha256": hashlib.sha256(a.tobytes()).hexdigest()}
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return repr(float(obj))
    if isinstance(obj, Fraction):
        return f"{obj.numerator}/{obj.denominator}"
    if isinstance(obj, dict):
        return {str(k): canon(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [canon(v) for v in obj]
    if hasattr(obj, "__dataclass_fields__"):
        return {k: canon(getattr(obj, k)) for k in obj.__dataclass_fields__}
    if obj is None or isinstance(obj, str):
        return obj
    return repr(obj)


def solo_figures(classes=SOLO_CLASSES) -> dict:
    a = rm.solo_analysis(rm.load_rules(), classes=classes)
    b = rm.solo_analysis(rm.load_rules(), classes=classes, use_bonus=False)
    return {
        "at_threshold": canon(a.at_threshold()),
        "return_table": canon(a.return_table()),
        "strategy_chart": canon(a.strategy_chart()),
        "no_bonus_at_threshold": canon(b.at_threshold()),
        "threshold_curve": canon(a.threshold_curve(["KKQ", "AK", "A2345", "TTxx"])),
    }


def sidebet_figures() -> dict:
    out = {}
    for name, q in rm.quickdraw_both().items():
        out[f"quickdraw_{name}"] = {"rtp_fraction": canon(q.rtp_fraction), "std_dev": canon(q.std_dev),
                                     "hit_frequency": canon(q.hit_frequency),
                                     "by_group": canon(q.to_frame()), "by_dealer": canon(q.by_dealer())}
    c = rm.cover()
    out["cover"] = {"rtp_fraction": canon(c.rtp_fraction), "std_dev": canon(c.std_dev),
                    "hit_frequency": canon(c.hit_frequency), "frame": canon(c.to_frame())}
    c2 = rm.cover(four_of_a_kind=60)
    out["cover_edited"] = {"rtp_fraction": canon(c2.rtp_fraction)}
    p = rm.cover_progressive(reset=1000.0, meter_rate=0.05)
    out["cover_progressive"] = {"break_even_meter": canon(p.break_even_meter), "long_run_rtp": canon(p.long_run_rtp),
                                "rtp_at_reset": canon(p.rtp_at_reset)}
    out["summary"] = canon(rm.sidebets_summary())
    return out


def simulation_strategies() -> list[str]:
    names = [s for s in rm.strategy_names() if s not in ("beats:XY", "READING-vs-READING")]
    return names + ["beats:KK", "beats:A9", "perfect-vs-pot-odds-now"]


def simulation_figures(players=SIM_PLAYERS) -> dict:
    out = {}
    rules = rm.load_rules()
    for strategy in simulation_strategies():
        for n in players:
            r = rm.simulate(rules, players=n, strategy=strategy, rounds=600, seed=SIM_SEED + n,
                            chunk_size=150, workers=2, progress=False)
            summary = {k: canon(v) for k, v in r.summary().items() if k not in ("run_time", "seconds", "version")}
            out[f"{strategy}/N={n}"] = {"sums": canon(r.sums.to_arrays()), "summary": summary}
    return out


def advise_tables(count: int = 24, seed: int = 11):
    """Random face-up tables (N = 1..7), each advised seat by seat as the round unfolds."""
    rng = np.random.default_rng(seed)
    cases = []
    for t in range(count):
        n = 1 + t % 7
        cards = rng.permutation(52)
        dealer = format_cards(cards[:5])
        players = [format_cards(cards[5 + 2 * i: 7 + 2 * i]) for i in range(n)]
        rest = list(cards[5 + 2 * n:])
        cases.append((dealer, players, rest))
    return cases


def advise_figures() -> dict:
    rules = rm.load_rules()
    out = []
    rng = np.random.default_rng(12)
    for dealer, players, rest in advise_tables():
        actions = [None] * len(players)
        steps = []
        for _ in range(len(players)):
            try:
                a = rm.advise(rules, dealer=dealer, players=players, actions=actions)
            except rm.RicochetError as e:
                steps.append({"error": str(e)})
                break
            steps.append(canon(a))
            if rng.random() < 0.35:
                actions[a.seat] = "fold"
            else:
                actions[a.seat] = format_cards(rest[:3])
                rest = rest[3:]
        for reading in ("perfect-no-bonus", "pot-odds-final"):
            try:
                steps.append(canon(rm.advise(rules, dealer=dealer, players=players, reading=reading)))
            except rm.RicochetError as e:
                steps.append({"error": str(e)})
        out.append({"dealer": dealer, "players": players, "steps": steps})
    return {"tables": out}


def compute() -> dict:
    return {"solo": solo_figures(), "sidebets": sidebet_figures(), "simulate": simulation_figures(),
            "advise": advise_figures()}


# Provenance rows that describe the checkout, not the figures: they change with every commit.
# rows about the checkout and the machine, not figures: the operating system's build string differs from
# machine to machine (the kernel's version is in it)
CHECKOUT_ROWS = ("git commit,", "uncommitted changes to tracked files,", "platform,")


def build_report_tables(out_dir: Path) -> dict[str, str]:
    """The tiny report's CSV tables, by file name (the checkout's and the platform's provenance rows
    left out)."""
    rm.build_report(out_dir=out_dir, **REPORT_KW)
    tables = {p.name: p.read_text(encoding="utf-8") for p in sorted((out_dir / "tables").glob("*.csv"))}
    tables["provenance.csv"] = "".join(line for line in tables["provenance.csv"].splitlines(keepends=True)
                                       if not line.startswith(CHECKOUT_ROWS))
    return tables


def full_solo_figures() -> dict:
    """The exhaustive N = 1 figures (all 169 classes; slow the first time, then cached)."""
    a = rm.solo_analysis(rm.load_rules())
    return {"at_threshold": canon(a.at_threshold()), "return_table": canon(a.return_table())}


def main(argv) -> int:
    import tempfile

    if "--write" not in argv:
        print(__doc__)
        return 2
    GOLDEN.mkdir(exist_ok=True)
    figures = compute()
    if "--full" in argv:
        figures["solo_full"] = full_solo_figures()
    elif FIGURES.exists():
        figures["solo_full"] = json.loads(FIGURES.read_text())["solo_full"]
    FIGURES.write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n")
    with tempfile.TemporaryDirectory() as tmp:
        tables = build_report_tables(Path(tmp) / "report")
    REPORT_DIR.mkdir(exist_ok=True)
    for name, text in tables.items():
        (REPORT_DIR / name).write_text(text, encoding="utf-8")
    print(f"wrote {FIGURES} and {len(tables)} tables in {REPORT_DIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
