"""The ``ricochet`` command's output: every ``--help`` example runs, tables fit 100 columns, seeds and output
paths are checked before any work (one line, exit 2, nothing written)."""
from __future__ import annotations

import shlex

import pytest

from cli_run import run_cli as ricochet  # in-process: the parser and handlers as the entry point runs them
from ricochet_math.cli.app import TABLE_WIDTH, build_parser, registry

#: extra options appended to a heavy example so that it runs in seconds (argparse keeps the last value)
SMALLER = {
    "rtp": ["--rounds", "2000"],
    "simulate": ["--rounds", "5000"],
    "solo": ["--sample", "2"],
    "report": ["--size", "tiny", "--players", "2", "--quiet"],
    "bench": ["--repeat", "1"],
    # the games' examples at a few seconds' size: the same code paths, fewer games
    "ring": ["--games", "20"],
    "freeride": ["--games", "100"],
    "home": ["--games", "500"],
    # the design's search, confirmation and other readings at two player counts and coarse precision (seconds,
    # not the six minutes of the full example): the same steps and the same --write
    "design": ["--players", "2-3", "--search-precision", "1", "--confirm-precision", "1", "--other-precision", "2",
               "--max-resolves", "1"],
}
#: examples that take minutes even when smaller (the exact solo analysis of a whole rule set, the perfect-play
#: look-ahead at seven player counts): run with -m slow
SLOW = {"kickout", "published", "report", "bench"}




def _examples() -> list:
    out = []
    for name, cmd in sorted(registry().items()):
        marks = [pytest.mark.slow] if name in SLOW else []
        out.append(pytest.param(name, cmd.example, marks=marks, id=name))
    return out


@pytest.mark.parametrize("name, example", _examples())
def test_help_example_runs(name, example, tmp_path):
    parser = build_parser()
    choices = next(a for a in parser._actions if a.dest == "command").choices
    assert f"example:\n  {example}" in choices[name].format_help()
    argv = shlex.split(example)
    assert argv[:2] == ["ricochet", name]
    result = ricochet(*argv[1:], *SMALLER.get(name, []), cwd=tmp_path)  # writes land in tmp_path
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("args", [
    ("rtp", "--rounds", "2000", "--players", "2-3", "--strategy", "always"),
    ("simulate", "--players", "4", "--rounds", "5000", "--seed", "1", "--table", "seats"),
    ("simulate", "--players", "7", "--rounds", "5000", "--seed", "1"),
    ("simulate", "--players", "3", "--rounds", "5000", "--seed", "1", "--table", "hands"),
    ("solo", "--table", "returns", "--sample", "2"),
    ("solo", "--table", "strategy", "--sample", "2"),
    ("sidebets",),
    ("sidebets", "--show", "quickdraw-classes"),
    ("rules",),
    ("tune", "--bet", "cover", "--target", "0.96"),
], ids=lambda a: " ".join(a))
def test_table_lines_fit_100_columns(args):
    result = ricochet(*args)
    assert result.returncode == 0, result.stderr[-2000:]
    long = [line for line in result.stdout.splitlines() if len(line) > TABLE_WIDTH]
    assert not long, long[:3]


def test_wide_keeps_one_table():
    narrow = ricochet("simulate", "--players", "4", "--rounds", "5000", "--seed", "1", "--table", "seats")
    wide = ricochet("simulate", "--players", "4", "--rounds", "5000", "--seed", "1", "--table", "seats", "--wide")
    assert narrow.returncode == wide.returncode == 0
    assert max(map(len, wide.stdout.splitlines())) > TABLE_WIDTH
    # split: the key columns lead every part, so the seat rows appear more than once
    assert narrow.stdout.count("  always") > wide.stdout.count("  always")


def test_table_reads_percent_intervals_csv_keeps_fractions():
    table = ricochet("simulate", "--players", "2", "--rounds", "5000", "--seed", "1", "--table", "seats")
    assert " ± " in table.stdout and "rtp_initial %" in table.stdout
    csv = ricochet("simulate", "--players", "2", "--rounds", "5000", "--seed", "1", "--table", "seats",
                   "--format", "csv")
    header, first = csv.stdout.splitlines()[:2]
    assert "rtp_initial_low" in header
    value = float(first.split(",")[header.split(",").index("rtp_initial_low")])
    assert 0.0 < value < 2.0 and len(repr(value)) > 8  # a fraction at full precision


def test_help_says_csv_json_are_full_precision():
    text = ricochet("simulate", "--help").stdout
    assert "full precision" in " ".join(text.split()) and "--wide" in text


@pytest.mark.parametrize("command", [
    ("simulate", "--rounds", "10"), ("play",), ("rtp", "--rounds", "10"), ("kickout",), ("published",),
    ("tune", "--target", "0.96"), ("report",),
])
def test_negative_seed_is_one_line(command, tmp_path):
    result = ricochet(*command, "--seed", "-1", cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ricochet: error:") and "seed" in lines[0], result.stderr
    assert not result.stdout and not list(tmp_path.iterdir())


@pytest.mark.parametrize("command, option, kind", [
    (("report", "--players", "2", "--size", "tiny"), "--out", "folder"),
    (("published", "--rounds", "10"), "--write", "folder"),
    (("tune", "--target", "0.96"), "--write", "file"),
    (("simulate", "--rounds", "10"), "--checkpoint", "file"),
])
def test_unwritable_output_path_is_one_line_before_work(command, option, kind, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    result = ricochet(*command, option, str(blocker / "inside"), cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ricochet: error:") and "not a folder" in lines[0], \
        result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]
    if kind == "file":  # an existing folder is not a file to write
        result = ricochet(*command, option, str(tmp_path), cwd=tmp_path)
        assert result.returncode == 2 and "is a folder" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_rtp_one_player_is_exact_under_perfect_play():
    result = ricochet("rtp", "--players", "1", "--format", "csv")
    assert result.returncode == 0, result.stderr[-2000:]
    header, row = result.stdout.splitlines()[:2]
    fields = dict(zip(header.split(","), row.split(",")))
    assert fields["method"] == "exact"
    assert float(fields["rtp_initial"]) == pytest.approx(0.969475203, abs=5e-10)
    assert fields["rtp_initial_low"] == fields["rtp_initial_high"] == fields["rtp_initial"]
