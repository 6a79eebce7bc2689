"""The README can never drift from the data or the code.

* Every figure it states is read from the committed table it quotes, at the precision it prints.
* Every ``ricochet ...`` command it shows parses with the real parser (not run: that is what
  tests/test_cli_output.py does for each command's example).
* Every relative link points to a file or folder of the repository.
"""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pandas as pd
import pytest

from ricochet_math.cli.app import build_parser

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
BY_PLAYERS = ROOT / "reports" / "published-figures-by-players.csv"
SIDEBETS = ROOT / "reports" / "publisher" / "tables" / "sidebets_summary.csv"
#: `ricochet rtp --format csv`: what README line 1 prints, every figure
MAIN_JOB = ROOT / "reports" / "claims" / "main-job.csv"


def _percent(value: float, places: int) -> str:
    return f"{100 * value:.{places}f}"


def _perfect(players: int) -> pd.Series:
    frame = pd.read_csv(BY_PLAYERS)
    return frame[(frame.reading == "perfect") & (frame.players == players)].iloc[0]


def _expected_figures() -> list[tuple[str, str]]:
    """(what, the text the README must contain) for every figure it quotes."""
    one = _perfect(1)
    no_bonus = pd.read_csv(BY_PLAYERS)
    no_bonus = no_bonus[(no_bonus.reading == "perfect-no-bonus") & (no_bonus.players == 1)].iloc[0]
    out = [
        ("N = 1 RTP per initial bet", f"RTP **{_percent(one.rtp_initial, 4)}%** of the initial bet"),
        ("N = 1 RTP per total wagered", f"({_percent(one.rtp_wagered, 4)}% of the"),
        ("N = 1 fold frequency", f"fold frequency {_percent(one.fold_frequency, 2)}%"),
        ("N = 1 fold frequency, bonus out of the decision", f"**{_percent(no_bonus.fold_frequency, 2)}%**"),
    ]
    parts = []
    for n in range(2, 8):
        row = _perfect(n)
        half = (row.rtp_initial_high - row.rtp_initial_low) / 2
        parts.append(f"{_percent(row.rtp_initial, 2)} ± {_percent(half, 2)}")
    out.append(("N = 2..7 perfect-play RTP", ", ".join(parts[:-1]) + " and " + parts[-1] + "%"))
    times = pd.read_csv(ROOT / "benchmarks" / "main-job-time.csv").set_index("run").wall_s
    minutes, seconds = divmod(round(times["whole-line"]), 60)
    out += [("README line 1 on a fresh clone", f"the whole line took {minutes} min {seconds} s on a 2-core machine"),
            ("main job, second run", f"and `ricochet rtp` {round(times['second'])} s the\n  second time")]
    # what the main job prints (issue 37: the README quoted figures its own command does not print)
    job = pd.read_csv(MAIN_JOB)
    one = job[job.players == 1].iloc[0]
    out.append(("main job, N = 1", f"It prints RTP {_percent(one.rtp_initial, 3)}% of the initial bet at one player"))
    rounds = sorted(set(job.loc[job.players > 1, "rounds"].astype(int)))
    assert len(rounds) == 1
    out.append(("main job, rounds", f"from {rounds[0]:,} perfect-play rounds per player count"))
    parts = []
    for n in range(2, 8):
        row = job[job.players == n].iloc[0]
        half = (row.rtp_initial_cv_high - row.rtp_initial_cv_low) / 2
        parts.append(f"{_percent(row.rtp_initial_cv, 3)} ± {_percent(half, 3)}")
    out.append(("main job, N = 2..7", ", ".join(parts[:-1]) + " and " + parts[-1] + "% at two to seven players"))
    side = pd.read_csv(SIDEBETS)
    quick = side[side.bet == "Quickdraw"].set_index("reading").rtp
    top = quick[[r for r in quick.index if r.startswith("top-cards")][0]]
    kicker = quick[[r for r in quick.index if r.startswith("kicker")][0]]
    cover = side[side.bet == "Cover"].rtp.iloc[0]
    out += [("Quickdraw top-cards", f"returns {_percent(top, 2)}% (top-cards"),
            ("Quickdraw kicker", f"or {_percent(kicker, 2)}%\n  (kicker)"),
            ("Cover", f"the default Cover table {_percent(cover, 4)}%")]
    return out


@pytest.mark.parametrize("what, text", _expected_figures(), ids=lambda v: v if len(v) < 60 else None)
def test_readme_figure_comes_from_its_table(what, text):
    assert " ".join(text.split()) in " ".join(README.split()), f"{what}: the README should say {text!r}"


#: the publisher's band, "95.97% to 96.91% for 1 to 7 players"
BAND = (0.9597, 0.9691)
MAIN_GAME = ROOT / "reports" / "publisher" / "tables" / "main_game.csv"


def _counts(ns: list[int]) -> str:
    """3, 4, 5, 6, 7 -> '3 to 7'; 2 -> '2'; 1, 3 -> '1 and 3'."""
    if len(ns) > 2 and ns == list(range(ns[0], ns[-1] + 1)):
        return f"{ns[0]} to {ns[-1]}"
    return " and ".join(map(str, ns)) if len(ns) <= 2 else ", ".join(map(str, ns[:-1])) + f" and {ns[-1]}"


def band_sentence() -> str:
    """The README's sentence on the band, built from the committed table: which player counts' whole 95%
    intervals lie inside the band, above it and below it (perfect play), issue 36."""
    frame = pd.read_csv(BY_PLAYERS)
    frame = frame[frame.reading == "perfect"].sort_values("players")
    lo, hi = BAND
    inside = [int(r.players) for r in frame.itertuples() if r.rtp_initial_low >= lo and r.rtp_initial_high <= hi]
    above = [int(r.players) for r in frame.itertuples() if r.rtp_initial_low > hi]
    below = [int(r.players) for r in frame.itertuples() if r.rtp_initial_high < lo]
    assert len(inside) + len(above) + len(below) == len(frame), "an interval straddles an edge: say so in words"
    head = f"is met at N = {_counts(inside)} only" if inside else "is met at no player count"
    rest = [f"N = {_counts(ns)} {'lies' if len(ns) == 1 else 'lie'} {where} it"
            for ns, where in ((above, "above"), (below, "below")) if ns]
    return (f"The publisher's band, 95.97-96.91% \"for 1 to 7 players\", {head} under this reading: "
            + " and ".join(rest) + " (whole 95% intervals)")


def test_readme_band_claim_comes_from_its_table():
    """The claim itself, not only its figures: which player counts meet the band (issue 36)."""
    assert " ".join(band_sentence().split()) in " ".join(README.split()), band_sentence()


def test_readme_says_which_run_it_quotes():
    """The README's N = 2..7 figures name their seeds, and the casino report's own run (seed 2026) agrees
    with them within the intervals, as the README says (issue 36: two sets of digits, one explained)."""
    frame = pd.read_csv(BY_PLAYERS)
    perfect = frame[(frame.reading == "perfect") & (frame.players >= 2)].sort_values("players")
    seeds = [int(re.search(r"seed (\d+)", m).group(1)) for m in perfect.method]
    assert f"seeds {seeds[0]} to {seeds[-1]}" in " ".join(README.split())
    assert seeds == list(range(seeds[0], seeds[-1] + 1))
    main = pd.read_csv(MAIN_GAME).set_index("players")
    provenance = pd.read_csv(ROOT / "reports" / "publisher" / "tables" / "provenance.csv").set_index("item")
    seed = int(re.search(r"seed=(\d+)", provenance.loc["arguments", "value"]).group(1))
    assert f"seed {seed}" in " ".join(README.split())
    for r in perfect.itertuples():
        other = main.loc[r.players]
        # two independent estimates: their difference within 1.96 x the combined standard error
        se = ((r.rtp_initial_high - r.rtp_initial_low) ** 2 + (other.rtp_initial_high - other.rtp_initial_low) ** 2
              ) ** 0.5 / (2 * 1.96)
        assert abs(r.rtp_initial - other.rtp_initial) <= 1.96 * se, r.players


def _commands() -> list[str]:
    """Every ``ricochet ...`` command in the README's bash blocks and inline code."""
    found = []
    for block in re.findall(r"```bash\n(.*?)```", README, flags=re.S):
        found += [line.split("  #")[0].strip() for line in block.splitlines()
                  if line.strip().startswith("ricochet ")]
    # inline code that is a whole command line (options or arguments), not a verb named in passing
    found += [c for c in re.findall(r"`(ricochet [^`|\\]+)`", README) if "--" in c or '"' in c]
    return sorted(set(found))


def test_readme_shows_commands():
    assert len(_commands()) >= 12


@pytest.mark.parametrize("command", _commands())
def test_readme_command_parses(command):
    argv = shlex.split(command)[1:]
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # a usage error: one line on stderr and exit status 2
        pytest.fail(f"{command!r} does not parse (exit {exc.code})")
    assert getattr(args, "_run", None) is not None, command


def test_readme_links_exist():
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    assert links
    missing = [link for link in links if "://" not in link and not (ROOT / link).exists()]
    assert not missing


def test_readme_has_no_placeholders():
    prose = re.sub(r"`[^`]*`", "", re.sub(r"```.*?```", "", README, flags=re.S))  # code may name variables
    assert not re.search(r"\b(TODO|TBD|XXX|[A-Z]{3,}_[A-Z_]{3,})\b", prose), "a placeholder is left in the README"


def _main_job_row_again(players: int):
    """Row ``players`` of the main job recomputed as `ricochet rtp` computes it (its defaults)."""
    from ricochet_math.cli.engine import DEFAULT_RTP_SEED
    from ricochet_math.solvers.montecarlo import rtp_table

    _, frame = rtp_table("publisher", [players], "perfect", None, DEFAULT_RTP_SEED, progress=False)
    return frame.iloc[0]


@pytest.mark.parametrize("players", [2, pytest.param(4, marks=pytest.mark.slow), pytest.param(7, marks=pytest.mark.slow)])
def test_the_main_job_prints_its_committed_figures(players):
    """The committed table the README quotes is what `ricochet rtp` prints: same rounds, same seed, the
    same digits (Monte Carlo: reproducible on any core count).  N = 2 here, the others with -m slow."""
    committed = pd.read_csv(MAIN_JOB).set_index("players").loc[players]
    again = _main_job_row_again(players)
    figures = [c for c in committed.index if c.startswith(("rtp_", "fold_", "win_", "kickout_"))]
    assert figures and int(again["rounds"]) == int(committed["rounds"])
    for name in figures:
        assert float(again[name]) == pytest.approx(float(committed[name]), rel=1e-12, abs=1e-15), name


def test_readme_gives_the_suite_time_from_its_table():
    """The fast suite's time (issue 37): measured cold and quiet on the 2-core machine, one row of
    benchmarks/test-suite-time.csv (run ``cold``), quoted by the README's Tests section."""
    times = pd.read_csv(ROOT / "benchmarks" / "test-suite-time.csv").set_index("run").wall_s
    assert "cold" in times.index, "benchmarks/test-suite-time.csv has no measured cold run of `pytest`"
    minutes, seconds = divmod(round(times["cold"]), 60)
    text = f"it took {minutes} min {seconds} s"
    assert text in " ".join(README.split()), f"the README should say {text!r}"
    if "warm" in times.index:
        minutes, seconds = divmod(round(times["warm"]), 60)
        text = f"warm (the caches of an earlier run), {minutes} min {seconds} s"
        assert text in " ".join(README.split()), f"the README should say {text!r}"


def test_readme_gives_the_compile_time_from_its_table():
    """The cold run's compile time (issue 37): benchmarks/test-suite-compile.csv, one row per pytest
    process of the cold run, summed; the README quotes the sum and its share of the wall on two workers."""
    rows = pd.read_csv(ROOT / "benchmarks" / "test-suite-compile.csv")
    total = rows.compile_s.sum()
    text = (f"numba compiling the kernels took {total:,.0f} s of the workers' time "
            f"(about {total / 2:,.0f} s of the wall on two workers")
    assert text in " ".join(README.split()), f"the README should say {text!r}"
