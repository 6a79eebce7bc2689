"""The ``ricochet`` command: output formats, help examples, one-line errors (exit 2)."""
from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path


from cli_run import run_cli as ricochet  # in-process: the parser and handlers as the entry point runs them
from ricochet_math.cli.app import build_parser, main, registry


def ricochet_process(*args: str, cwd=None) -> subprocess.CompletedProcess:
    """A real ``python -m ricochet_math`` process: the entry point, its output streams and exit status."""
    return subprocess.run(
        [sys.executable, "-m", "ricochet_math", *args],
        capture_output=True, text=True, timeout=300, cwd=cwd,
    )


def assert_user_error(result: subprocess.CompletedProcess, *fragments: str) -> str:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("ricochet: error: ")
    for fragment in fragments:
        assert fragment in lines[0]
    return lines[0]


# ---------------------------------------------------------------- rules

def test_rules_table():
    result = ricochet("rules")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for text in ("publisher", "kickout", "KKQ", "AAxx", "A2345", "royal_flush", "odd-units-last"):
        assert text in out


def test_rules_csv_is_tidy():
    result = ricochet("rules", "--format", "csv")
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert list(rows[0]) == ["section", "key", "value", "detail"]
    kickout = {r["key"]: r["value"] for r in rows if r["section"] == "kickout"}
    assert kickout == {"1": "KKQ", "2": "AAQ", "3": "TTxx", "4": "AAxx", "5": "222", "6": "QQQ", "7": "A2345"}
    # The kickout rows carry a description of the threshold hand.
    assert all(r["detail"] for r in rows if r["section"] == "kickout")


def test_rules_json_and_inherited_file():
    result = ricochet("rules", "publisher-4p-tens", "--format", "json")
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert {"section": "kickout", "key": "4"}.items() <= next(
        r for r in rows if r["section"] == "kickout" and r["key"] == "4").items()
    assert next(r["value"] for r in rows if r["section"] == "kickout" and r["key"] == "4") == "TTxx"


def test_rules_toml_round_trips(tmp_path):
    result = ricochet("rules", "--toml")
    assert result.returncode == 0, result.stderr
    (tmp_path / "copy.toml").write_text(result.stdout)
    again = ricochet("rules", str(tmp_path / "copy.toml"), "--toml")
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[1:] == result.stdout.splitlines()[1:]


def test_rules_list():
    result = ricochet("rules", "--list", "--format", "csv")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1].startswith("publisher,")
    assert "publisher-4p-tens" in result.stdout


# ---------------------------------------------------------------- hands

def test_hands_describes_each_hand():
    result = ricochet("hands", "As Ks Qs Js Ts", "2c 2d 3h 4s 5c", "--format", "csv")
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [r["hand"] for r in rows] == ["As Ks Qs Js Ts", "2c 2d 3h 4s 5c"]
    assert int(rows[0]["value"]) > int(rows[1]["value"])
    assert "flush" in rows[0]["category"].lower()
    assert "pair" in rows[1]["category"].lower()


# ---------------------------------------------------------------- errors

def test_missing_rules_file_is_one_line():
    assert_user_error(ricochet("rules", "no-such-rules.toml"), "rule-set file not found: 'no-such-rules.toml'")


def test_bad_rules_file_is_one_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('extends = "publisher"\n[options]\nspilt = "fractional"\n')
    assert_user_error(ricochet("rules", str(path)), str(path), "options.spilt", "did you mean 'split'?")


def test_toml_syntax_error_is_one_line(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text('extends = "publisher"\n[bonus\n')
    assert_user_error(ricochet("rules", str(path)), "invalid TOML", "line 2")


def test_bad_card_is_one_line():
    assert_user_error(ricochet("hands", "As Ks Qs Js Tx"), "unknown suit", "hand 1")
    assert_user_error(ricochet("hands", "As Ks Qs Js Ts", "Ah 8c"), "expected 5 or 6 or 7 cards in hand 2", "Ah 8c")
    assert_user_error(ricochet("hands", "As Ks Qs Js As"), "duplicate card As")


def test_usage_error_is_one_line():
    assert_user_error(ricochet("rules", "--format", "xml"), "invalid choice", "ricochet rules --help")
    assert_user_error(ricochet("no-such-command"), "invalid choice")


def test_main_returns_status_in_process(capsys):
    assert main(["rules", "no-such-rules.toml"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("ricochet: error: rule-set file not found")
    assert main(["rules", "--format", "csv"]) == 0
    assert capsys.readouterr().out.startswith("section,key,value,detail")


def test_no_command_prints_help_and_fails(capsys):
    assert main([]) == 2
    assert "COMMAND" in capsys.readouterr().err


# ---------------------------------------------------------------- help

def test_every_subcommand_help_has_an_example():
    commands = registry()
    assert {"rules", "hands"} <= set(commands)
    parser = build_parser()
    choices = next(a for a in parser._actions if a.dest == "command").choices
    for name, cmd in commands.items():
        assert cmd.example.startswith("ricochet "), name
        text = choices[name].format_help()
        assert "example:" in text and cmd.example in text, name


def test_help_via_subprocess_shows_example():
    result = ricochet_process("rules", "--help")
    assert result.returncode == 0
    assert "example:" in result.stdout and "ricochet rules" in result.stdout


# ---------------------------------------------------------------- the real entry point

def test_entry_point_exit_codes():
    """A real process: 0 with output on stdout, 2 with one error line on stderr, for the module and the script."""
    ok = ricochet_process("rules", "--format", "csv")
    assert ok.returncode == 0 and ok.stdout.startswith("section,key,value,detail"), ok.stderr
    assert_user_error(ricochet_process("rules", "no-such-rules.toml"), "rule-set file not found")
    assert_user_error(ricochet_process("no-such-command"), "invalid choice")
    script = shutil.which("ricochet", path=str(Path(sys.executable).parent))
    if script is not None:  # the console script installed beside this Python (pip install)
        done = subprocess.run([script, "hands", "As Ks Qs Js Tx"], capture_output=True, text=True, timeout=300)
        assert_user_error(done, "unknown suit")
