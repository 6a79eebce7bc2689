"""Every ``--help`` of the ``ricochet`` command, read from the parser (no subprocess): the command-line
convention of the games (issue 26).  Each action of a game has a description and an example that parses;
``--seed`` says its default honestly; a report writes to ``--out DIR``; runs offer ``--quiet`` (or ``--no-progress``);
no help shows a doubled percent sign; every whole-number and number option shows its range and every help
keeps to the terminal's width (issue 30)."""
from __future__ import annotations

import argparse
import shlex

import pytest

from ricochet_math.cli import build_parser

GAMES = ("home", "ring", "rococo", "freeride")


def _sub_parsers(parser: argparse.ArgumentParser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            yield from action.choices.items()


def _every_parser():
    root = build_parser()
    yield ("ricochet",), root
    for name, sub in _sub_parsers(root):
        yield ("ricochet", name), sub
        for inner, leaf in _sub_parsers(sub):
            yield ("ricochet", name, inner), leaf


PARSERS = dict(_every_parser())


@pytest.mark.parametrize("path", sorted(PARSERS), ids=" ".join)
def test_every_help_reads(path):
    parser = PARSERS[path]
    text = parser.format_help()
    assert "%%" not in text and "usage:" in text
    for action in parser._actions:
        if "--seed" in action.option_strings:
            if action.default is None:
                assert "fresh entropy" in action.help, path
            else:
                assert str(action.default) in action.help and "fresh entropy" not in action.help, path


def _actions(game: str) -> dict[str, argparse.ArgumentParser]:
    return dict(_sub_parsers(PARSERS[("ricochet", game)]))


@pytest.mark.parametrize("game", GAMES)
def test_each_game_action_has_a_description_and_an_example_that_parses(game):
    actions = _actions(game)
    assert {"simulate", "play", "report"} <= set(actions), game
    for name, parser in actions.items():
        assert parser.description and len(parser.description) > 20, (game, name)
        assert parser.epilog and parser.epilog.startswith("example:\n  ricochet " + game + " " + name), (game, name)
        argv = shlex.split(parser.epilog.split("\n  ", 1)[1])[1:]
        args = build_parser().parse_args(argv)  # parses, exits on an error
        assert args.command == game


@pytest.mark.parametrize("game", GAMES)
def test_each_game_shares_the_conventions(game):
    actions = _actions(game)
    options = {name: {o for a in p._actions for o in a.option_strings} for name, p in actions.items()}
    assert "--out" in options["report"], "a report writes to --out DIR"
    assert {"--seed", "--quiet", "--no-progress", "--format", "--players"} <= options["simulate"], game
    # one spelling for every game (issue 37): --strategy A B, one strategy (Rococo: betting policy) a word
    assert "--strategy" in options["simulate"] and "--strategy" in options["play"], game
    assert "--seed" in options["play"], game
    for name, parser in actions.items():
        for a in parser._actions:
            if "--seed" in a.option_strings and name in ("simulate", "play"):
                assert a.default is None, f"{game} {name}: the runs' default seed is fresh entropy, printed"
    count = {"rococo": "--pots"}.get(game, "--games")
    assert count in options["simulate"], game


# ------------------------------------------------------------------ every numeric option shows its range (issue 30)
def _figure(x) -> str:
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


def _ranged(parser: argparse.ArgumentParser):
    """The options whose ``type`` is a :func:`~ricochet_math.cli.app.whole` or ``number`` range."""
    return [a for a in parser._actions if hasattr(a.type, "low") and hasattr(a.type, "high")]


def test_the_ranged_options_are_many_and_every_whole_and_number_type_carries_its_range():
    from ricochet_math.cli.app import number, whole

    assert (whole(1, 7).low, whole(1, 7).high, number(0, 100, above=True).above) == (1, 7, True)
    ranged = [a for parser in PARSERS.values() for a in _ranged(parser)]
    assert len(ranged) >= 50
    names = {a.type.__name__ for a in ranged}
    assert names == {"whole number", "number"}
    # no option parses a whole number or a number through a type without its range
    for path, parser in PARSERS.items():
        for a in parser._actions:
            assert getattr(a.type, "__name__", None) not in ("whole number", "number") or a in _ranged(parser), path


@pytest.mark.parametrize("path", sorted(PARSERS), ids=" ".join)
def test_every_numeric_option_shows_its_range_in_the_help(path):
    parser = PARSERS[path]
    text = " ".join(parser.format_help().split())  # the wrapped help as one line
    for action in _ranged(parser):
        low, high = _figure(action.type.low), _figure(action.type.high)
        stated = (f"above {low}, up to {high}",) if action.type.above else (f"from {low} to {high}", f"{low}..{high}")
        own = " ".join(parser._get_formatter()._expand_help(action).split())  # this option's help, as shown
        assert own in text, (path, action.dest)
        assert any(s in own for s in stated), (path, action.dest, own)


def test_a_range_is_appended_once_and_inside_a_closing_default():
    helps = {path: " ".join(p.format_help().split()) for path, p in PARSERS.items()}
    assert "players 1..7 (default: 4) " in helps[("ricochet", "simulate")]  # stated already: as written
    assert "rounds (default: 1,000,000; from 1 to 1,000,000,000,000)" in helps[("ricochet", "simulate")]
    assert "chips in the pot (from 0 to 1,000,000)" in helps[("ricochet", "home", "solve")]
    assert ("percentage points (a pilot run on its own seed sizes the run; the figures come from the main run "
            "only) (above 0, up to 100)") in helps[("ricochet", "simulate")]


@pytest.mark.parametrize("columns", [79, 100])
def test_every_help_keeps_to_the_terminal(columns, monkeypatch):
    """Descriptions and option help are wrapped to the terminal's width (argparse reads COLUMNS); only a
    usage line with a long choice list and an example command in the epilog may run over."""
    monkeypatch.setenv("COLUMNS", str(columns))
    for path, parser in PARSERS.items():
        text = parser.format_help()
        usage, _, rest = text.partition("\n\n")
        body = rest.split("\nexample:\n")[0]
        over = [line for line in body.splitlines() if len(line) > columns]
        assert over == [], (path, over)
