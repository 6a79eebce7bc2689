"""The commands as a user runs them (in-process, tests/cli_run.py): ricochet advise / solo / kickout / published.

Exit status 0 with the expected text, or 2 with exactly one 'ricochet: error:' line
and no traceback.  (The exact N = 1 analysis behind solo/kickout takes minutes
from scratch, so only its quick paths and errors run here.)"""
import pytest

from cli_run import run_cli


def run(*args):
    """``ricochet ARGS`` in-process (tests/cli_run.py): status, stdout, stderr."""
    p = run_cli(*args)
    return p.returncode, p.stdout, p.stderr


def test_advise_prints_the_decision():
    rc, out, err = run("advise", "--dealer", "Ks Kd 7c 4h 2s", "--players", "Ad 9c", "7s 7h", "--actions", "fold", "-")
    assert rc == 0, err
    assert "Player 2" in out and "PLAY" in out and "EV(play)" in out


def test_advise_json():
    rc, out, err = run("advise", "--dealer", "Ks Kd 7c 4h 2s", "--players", "Ad 9c", "--format", "json")
    assert rc == 0, err
    assert '"decision"' in out


def test_solo_sample_summary():
    rc, out, err = run("solo", "--sample", "2")
    assert rc == 0, err
    assert "RTP per initial bet" in out and "2/169 player classes" in out


@pytest.mark.parametrize("args, message", [
    (("advise", "--dealer", "Ks Kd 7c 4h 2s", "--players", "Ks 9c"),
     "duplicate card Ks ('Ks') in player 1's hand (already in the dealer's hand)"),
    (("play", "--dealer", "Ks Kd 7c 4h 2s", "--players", "Ks 9c"),
     "duplicate card Ks ('Ks') in the dealer's hand (already in seat 1's hand)"),
    (("advise", "--dealer", "Ks Kd 7c 4h", "--players", "Ad 9c"), "expected 5 cards"),
    (("advise", "--dealer", "Ks Kd 7c 4h 2s", "--players", "Ad 9c", "7s 7h", "--actions", "-", "fold"),
     "acts first"),
    (("advise", "--dealer", "Ks Kd 7c 4h 2s", "--players", "Ad 9c", "--reading", "perfekt"), "did you mean 'perfect'"),
    (("advise", "--dealer", "Ks Kd 7c 4h 2s", "--players", "Ad 9x"), "unknown suit 'x'"),
    (("solo", "--sample", "0"), "argument --sample: must be a whole number from 1 to 169, got 0"),
    (("solo", "--rules", "no-such-file.toml"), "rule-set file not found"),
    (("kickout", "--players", "9"), "players must be 1..7"),
    (("kickout", "--players", "x"), "--players must be a count or a range"),
    (("kickout", "--grid", "99 ZZ"), "threshold grid: bad hand pattern 'ZZ'"),
    (("published", "--readings", "perfect", "bogus"), "unknown reading 'bogus'"),
    (("published", "--rounds", "0"), "argument --rounds: must be a whole number from 1"),
    (("tune", "--bet", "bonus", "--players", "9", "--target", "0.96"),
     "argument --players: must be a whole number from 1 to 7, got 9"),
])
def test_one_line_errors(args, message):
    rc, out, err = run(*args)
    assert rc == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ricochet: error:"), err
    assert message in lines[0]
    assert "Traceback" not in err


@pytest.mark.parametrize("cmd", ["advise", "solo", "kickout", "published"])
def test_help_has_an_example(cmd):
    rc, out, err = run(cmd, "--help")
    assert rc == 0 and "example" in out.lower()
