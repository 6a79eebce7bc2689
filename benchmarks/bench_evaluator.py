"""Speed of the ricochet_math hand evaluator against peer libraries, on the same hands.

    python benchmarks/bench_evaluator.py [--repeat 5] [--seven 10000000] [--quick]

Prints one table of MEDIAN evaluations per second (over ``--repeat`` timed
runs, after a warm-up run that also triggers numba compilation):

(a) all 2,598,960 five-card hands in a batch;
(b) random seven-card hands from an array (default ten million), one core and
    all cores;
(c) single calls from Python, one hand per call;

with the ratio ours/peer for every peer row, the issue's targets (one core:
(a) <= 10 ms, (b) >= 100 M/s, (c) faster than eval7) and the table bytes.

Peers (``pip install -e '.[bench]'``): phevaluator (C; ``_pheval`` is its raw
entry point, ``evaluate_cards`` the public one), eval7 (Cython), treys (pure
Python).  None of them has a batch API, so in (a) and (b) they are called once
per hand from a Python loop over pre-converted inputs; slow peers get a
prefix of the same hands (the "hands" column says how many) so a run stays
within a minute or two.  A missing peer is skipped.

Timings on a shared machine are noisy: the median is reported, and the
best (fastest) run is printed beside it for reference.
"""
from __future__ import annotations

import argparse
import itertools
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field

import numba
import numpy as np

from ricochet_math._numba import njit
from ricochet_math.evaluator.cards import format_card
from ricochet_math.evaluator.evaluation import all_five_card_values, eval5, eval7, evaluate, hand_value
from ricochet_math.evaluator.tables import table_sizes

N_FIVE = 2_598_960


# ---------------------------------------------------------------------------- hands
@njit
def _deal_kernel(seed, out):
    """out: uint8 (n, k): each row k distinct cards, uniformly random (partial Fisher-Yates)."""
    np.random.seed(seed)
    n, k = out.shape
    deck = np.arange(52).astype(np.uint8)
    for i in range(n):
        for j in range(k):
            m = j + np.random.randint(0, 52 - j)
            deck[j], deck[m] = deck[m], deck[j]
            out[i, j] = deck[j]


def random_hands(n: int, k: int, seed: int) -> np.ndarray:
    out = np.empty((n, k), dtype=np.uint8)
    _deal_kernel(seed, out)
    return out


def all_five_hands() -> np.ndarray:
    flat = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(52), 5)), dtype=np.uint8, count=5 * N_FIVE
    )
    return flat.reshape(N_FIVE, 5)


# ---------------------------------------------------------------------------- timing
@dataclass
class Row:
    section: str
    who: str
    how: str
    hands: int
    times: list[float] = field(default_factory=list)
    ours: bool = False
    ref: "Row | None" = None  # the ours row a peer is compared with

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    @property
    def rate(self) -> float:
        return self.hands / self.median

    @property
    def best_rate(self) -> float:
        return self.hands / min(self.times)


def timed(repeat: int, fn) -> list[float]:
    fn()  # warm-up (and numba compilation)
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def per_hand_loop(f, rows, star=True):
    if star:
        def run():
            for r in rows:
                f(*r)
    else:
        def run():
            for r in rows:
                f(r)
    return run


# ---------------------------------------------------------------------------- peers
def load_peers() -> dict:
    """The peer evaluators that are installed (the ``bench`` extra): each is optional, so each is
    imported here, inside its own ``try``, rather than at the top of the module."""
    peers = {}
    try:
        from phevaluator import _pheval
        from phevaluator.evaluator import evaluate_cards

        peers["phevaluator"] = {5: _pheval.evaluate_5cards, 7: _pheval.evaluate_7cards, "public": evaluate_cards}
    except ImportError:
        pass
    try:
        import eval7 as e7

        deck = [e7.Card(format_card(c)) for c in range(52)]
        peers["eval7"] = {"evaluate": e7.evaluate, "deck": deck}
    except ImportError:
        pass
    try:
        from treys import Card, Evaluator

        peers["treys"] = {"evaluator": Evaluator(), "deck": [Card.new(format_card(c)) for c in range(52)]}
    except ImportError:
        pass
    return peers


def peer_rows(section, hands, peers, repeat, ref, sizes, single=False):
    """Rows for each available peer on a prefix of ``hands`` (sizes: peer -> hands to use)."""
    rows = []
    k = hands.shape[1]
    if "phevaluator" in peers:
        n = sizes["phevaluator"]
        ints = hands[:n].tolist()
        f = peers["phevaluator"][k]
        r = Row(section, "phevaluator", f"_pheval.evaluate_{k}cards(*ints) (C)", len(ints), ref=ref)
        r.times = timed(repeat, per_hand_loop(f, ints))
        rows.append(r)
        if single:
            pub = peers["phevaluator"]["public"]
            r = Row(section, "phevaluator", "evaluate_cards(*ints) (public)", len(ints), ref=ref)
            r.times = timed(repeat, per_hand_loop(pub, ints))
            rows.append(r)
    if "eval7" in peers:
        n = sizes["eval7"]
        deck = peers["eval7"]["deck"]
        cards = [[deck[c] for c in row] for row in hands[:n].tolist()]
        r = Row(section, "eval7", "evaluate([Card, ...]) (Cython)", len(cards), ref=ref)
        r.times = timed(repeat, per_hand_loop(peers["eval7"]["evaluate"], cards, star=False))
        rows.append(r)
    if "treys" in peers:
        n = sizes["treys"]
        deck, ev = peers["treys"]["deck"], peers["treys"]["evaluator"]
        pairs = [([deck[c] for c in row[:2]], [deck[c] for c in row[2:]]) for row in hands[:n].tolist()]
        r = Row(section, "treys", "Evaluator.evaluate(hand, board) (Python)", len(pairs), ref=ref)
        r.times = timed(repeat, per_hand_loop(ev.evaluate, pairs))
        rows.append(r)
    return rows


# ---------------------------------------------------------------------------- sections
def section_a(repeat, peers, quick):
    rows = []
    out = np.empty(N_FIVE, dtype=np.int16)
    r = Row("a", "ours", "all_five_card_values() (1 core, incremental)", N_FIVE, ours=True)
    r.times = timed(repeat, all_five_card_values)
    rows.append(r)
    ref = r
    hands = all_five_hands()
    r = Row("a", "ours", "evaluate(array (2.6M,5), parallel=False)", N_FIVE, ours=True)
    r.times = timed(repeat, lambda: evaluate(hands, parallel=False))
    rows.append(r)
    r = Row("a", "ours", f"evaluate(array, parallel=True) ({numba.get_num_threads()} threads)", N_FIVE, ours=True)
    r.times = timed(repeat, lambda: evaluate(hands, parallel=True))
    rows.append(r)
    assert np.array_equal(evaluate(hands), all_five_card_values())
    del out
    sizes = {"phevaluator": 500_000 if quick else N_FIVE, "eval7": 200_000 if quick else 1_000_000,
             "treys": 50_000 if quick else 200_000}
    rows += peer_rows("a", hands, peers, repeat, ref, sizes)
    return rows


def section_b(repeat, peers, n_seven, quick):
    rows = []
    hands = random_hands(n_seven, 7, seed=20240607)
    r = Row("b", "ours", "evaluate(array (n,7), parallel=False) (1 core)", n_seven, ours=True)
    r.times = timed(repeat, lambda: evaluate(hands, parallel=False))
    rows.append(r)
    ref = r
    r = Row("b", "ours", f"evaluate(array, parallel=True) ({numba.get_num_threads()} threads)", n_seven, ours=True)
    r.times = timed(repeat, lambda: evaluate(hands, parallel=True))
    rows.append(r)
    sizes = {"phevaluator": 200_000 if quick else 1_000_000, "eval7": 100_000 if quick else 300_000,
             "treys": 5_000 if quick else 20_000}
    rows += peer_rows("b", hands, peers, repeat, ref, sizes)
    return rows


def section_c(repeat, peers, quick):
    rows = []
    n = 50_000 if quick else 200_000
    for k, ours_fn in ((7, eval7), (5, eval5)):
        hands = random_hands(n, k, seed=7 + k)
        ints = [tuple(h) for h in hands.tolist()]
        r = Row(f"c{k}", "ours", f"eval{k}(*ints) (numba dispatcher)", n, ours=True)
        r.times = timed(repeat, per_hand_loop(ours_fn, ints))
        rows.append(r)
        ref = r
        lists = [list(h) for h in ints]
        r = Row(f"c{k}", "ours", "hand_value([ints]) (checked)", n, ours=True)
        r.times = timed(repeat, per_hand_loop(hand_value, lists, star=False))
        rows.append(r)
        sizes = {"phevaluator": n, "eval7": n, "treys": n if k == 5 else n // 10}
        rows += peer_rows(f"c{k}", hands, peers, repeat, ref, sizes, single=True)
    return rows


# ---------------------------------------------------------------------------- report
SECTION_TITLES = {
    "a": "(a) all 2,598,960 five-card hands, batch",
    "b": "(b) random seven-card hands from an array",
    "c7": "(c) single calls from Python, seven cards",
    "c5": "(c) single calls from Python, five cards",
}


def fmt_rate(x: float) -> str:
    return f"{x / 1e6:9.2f}"


def report(rows: list[Row], repeat: int) -> str:
    lines = []
    head = f"{'evaluator':12s} {'call':50s} {'hands':>10s} {'median':>10s} {'M/s med':>9s} {'M/s best':>9s} {'ours/peer':>9s}"
    for sec, title in SECTION_TITLES.items():
        srows = [r for r in rows if r.section == sec]
        if not srows:
            continue
        lines.append("")
        lines.append(title)
        lines.append(head)
        lines.append("-" * len(head))
        for r in srows:
            ratio = f"{r.ref.rate / r.rate:9.1f}" if r.ref is not None else f"{'':9s}"
            med = f"{r.median * 1e3:8.1f}ms" if r.median < 10 else f"{r.median:8.2f}s "
            lines.append(f"{r.who:12s} {r.how:50s} {r.hands:10,d} {med:>10s} {fmt_rate(r.rate)} "
                         f"{fmt_rate(r.best_rate)} {ratio}")
    return "\n".join(lines)


def targets(rows: list[Row]) -> str:
    def find(sec, who, start):
        return next((r for r in rows if r.section == sec and r.who == who and r.how.startswith(start)), None)

    out = ["", "Targets (issue 2, one core of this machine):"]
    a = find("a", "ours", "all_five_card_values")
    if a:
        ok = a.median <= 0.010
        out.append(f"  (a) all five-card hands <= 10 ms (>= 260 M/s): {a.median * 1e3:.2f} ms, "
                   f"{a.rate / 1e6:.0f} M/s  {'MET' if ok else 'NOT MET'}")
    b = find("b", "ours", "evaluate(array (n,7), parallel=False)")
    if b:
        ok = b.rate >= 100e6
        out.append(f"  (b) random seven-card hands >= 100 M/s: {b.rate / 1e6:.0f} M/s  {'MET' if ok else 'NOT MET'}")
    c = find("c7", "ours", "eval7")
    e = find("c7", "eval7", "evaluate")
    if c and e:
        ok = c.rate > e.rate
        out.append(f"  (c) a single call faster than eval7's: ours {c.rate / 1e6:.2f} M/s vs eval7 "
                   f"{e.rate / 1e6:.2f} M/s  {'MET' if ok else 'NOT MET'}")
    p = find("c7", "phevaluator", "_pheval")
    if c and p:
        out.append(f"      (for scale: phevaluator's raw C entry point {p.rate / 1e6:.2f} M/s)")
    return "\n".join(out)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        load = ", load average %.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        load = ""
    return (f"{cpu}, {os.cpu_count()} CPUs{load}; Python {platform.python_version()}, "
            f"numpy {np.__version__}, numba {numba.__version__} ({numba.get_num_threads()} threads, "
            f"layer {numba.config.THREADING_LAYER})")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="timed runs per row (median reported)")
    ap.add_argument("--seven", type=int, default=10_000_000, help="random seven-card hands for (b)")
    ap.add_argument("--quick", action="store_true", help="smaller peer samples, for a smoke run")
    ap.add_argument("--sections", default="abc", help="which of a, b, c to run")
    args = ap.parse_args(argv)
    peers = load_peers()
    print(f"ricochet_math evaluator benchmark: median of {args.repeat} runs after a warm-up")
    print(machine())
    missing = sorted({"phevaluator", "eval7", "treys"} - set(peers))
    if missing:
        print(f"peers not installed (skipped): {', '.join(missing)}  (pip install -e '.[bench]')")
    sys.stdout.flush()
    rows: list[Row] = []
    if "a" in args.sections:
        rows += section_a(args.repeat, peers, args.quick)
    if "b" in args.sections:
        rows += section_b(args.repeat, peers, args.seven, args.quick)
    if "c" in args.sections:
        rows += section_c(args.repeat, peers, args.quick)
    print(report(rows, args.repeat))
    print(targets(rows))
    sizes = table_sizes()
    print("")
    print("Table bytes: " + ", ".join(f"{k} {v:,}" for k, v in sizes.items() if k != "total")
          + f"; total {sizes['total']:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
