"""The ``ricochet`` command line: a thin layer over the library (the top layer).

The subcommands live in the modules below, each registering its commands with
:func:`ricochet_math.cli.app.subcommand`; this list is the registry's whole
table of contents (no discovery by name).
"""
from __future__ import annotations

from ricochet_math.cli import design, engine, equilibrium, freeride, home, report, ring, rococo, sidebets, solver  # noqa: F401  (each registers its subcommands)
from ricochet_math.cli.app import build_parser, main, registry

__all__ = ["main", "build_parser", "registry"]
