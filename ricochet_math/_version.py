"""The package's version, read once from the installed distribution's metadata.

Every module that records the version (simulation results, report provenance,
``ricochet --version``) imports it from here, never from the package root,
which would import every layer.
"""
from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

__all__ = ["__version__"]

try:
    __version__ = version("ricochet_math")
except PackageNotFoundError:  # a source tree that was never installed: pyproject.toml's version
    __version__ = "0.1.0"
