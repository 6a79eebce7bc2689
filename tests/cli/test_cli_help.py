"""Every ``--help`` of the ``ricochet`` command, read from the parser (no subprocess): the command-line
convention of the games (issue 26).  Each action of a game has a description and an example that parses;
``--seed`` says its default honestly; a report writes to ``--out DIR``; runs offer ``--no-progress``;
no help shows a doubled percent sign."""
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
    assert {"--seed", "--no-progress", "--format", "--players"} <= options["simulate"], game
    assert "--seed" in options["play"], game
    for name, parser in actions.items():
        for a in parser._actions:
            if "--seed" in a.option_strings and name in ("simulate", "play"):
                assert a.default is None, f"{game} {name}: the runs' default seed is fresh entropy, printed"
    count = {"rococo": "--pots"}.get(game, "--games")
    assert count in options["simulate"], game
