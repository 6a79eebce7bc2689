"""The package's version: written once, here.

``VERSION`` is the one place the version is written: ``pyproject.toml`` reads it
(``[tool.setuptools.dynamic]``) when a wheel or an sdist is built, so the installed
distribution's metadata carries the same string.  ``__version__`` is what the
toolkit records (simulation results, report provenance, ``ricochet --version``):
the installed distribution's metadata, or ``VERSION`` in a source tree that was
never installed.  Every module that records the version imports it from here,
never from the package root, which would import every layer.
"""
from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

__all__ = ["VERSION", "__version__"]

VERSION = "0.1.0"

try:
    __version__ = version("ricochet_math")
except PackageNotFoundError:  # a source tree that was never installed
    __version__ = VERSION
