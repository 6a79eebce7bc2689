"""Sphinx configuration of the ricochet_math documentation site.

Build: ``sphinx-build -W --keep-going -b html docs build/docs`` (tests/test_docs.py does it with warnings as
errors).  Pages are Markdown (MyST) and notebooks (MyST-NB); the CLI reference is generated from the argparse
parsers (sphinx-argparse) and the API reference from the docstrings (autosummary, recursive).
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))

# The notebooks run at the test size when the site executes them.  Their kernels draw with matplotlib's
# inline backend, which needs no display and turns every figure into an image of the page (issue 28): with
# MPLBACKEND=Agg, which a headless shell or CI often sets, plt.show() drew nothing and the executed pages had
# no plots, so the backend is set here for the kernels the build starts, whatever the environment says.
os.environ.setdefault("RICOCHET_NB_SIZE", "tiny")
os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"

project = "ricochet_math"
author = "ricochet_math contributors"
copyright = "2026, ricochet_math contributors"

extensions = [
    "myst_nb",                 # Markdown pages (MyST) and notebooks
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "sphinxarg.ext",           # the CLI reference from ricochet_math.cli.build_parser
]

# Markdown files that are not pages of the site (issue notes, helper notes, build output).
exclude_patterns = ["_build", "_report", "notebooks/README.md", "issue-*.md", "**/issue-*.md", "HELPERS.md", ".ipynb_checkpoints"]
templates_path = ["_templates"]
# The game pages other sessions add (home-game, *-poker) are globbed in the index: a glob that matches nothing
# yet is not an error.
suppress_warnings = ["toc.empty_glob"]

# ---- MyST
myst_enable_extensions = ["dollarmath", "colon_fence", "deflist"]
myst_heading_anchors = 4          # rules.md links to its own sections by slug

# ---- API reference
autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options: dict[str, object] = {}   # the template asks for members (modules only, not packages)
autodoc_member_order = "bysource"
autodoc_typehints = "none"        # signatures as written; the docstrings give units
add_module_names = False

# ---- notebooks: copied from ../notebooks (their one home) into notebooks/ here at every build.
# RICOCHET_DOCS_EXECUTE: "all" (the default: every notebook executed at the tiny size, a few minutes),
# "subset" (only the notebooks in EXECUTED: what tests/test_docs.py builds, since tests/test_notebooks.py
# already executes every notebook), "off" (render as committed, no outputs).
EXECUTED = ["04-kickout-thresholds"]
_mode = os.environ.get("RICOCHET_DOCS_EXECUTE", "all")
if _mode not in ("off", "subset", "all"):
    raise ValueError(f"RICOCHET_DOCS_EXECUTE must be off, subset or all, not {_mode!r}")
_nb_dir = DOCS / "notebooks"
_nb_dir.mkdir(exist_ok=True)
_names = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
for _old in _nb_dir.glob("*.ipynb"):
    if _old.name not in _names:
        _old.unlink()
for _name in _names:
    _src, _dst = ROOT / "notebooks" / _name, _nb_dir / _name
    if not _dst.exists() or _dst.read_bytes() != _src.read_bytes():
        shutil.copyfile(_src, _dst)
nb_execution_mode = "off" if _mode == "off" else "force"
nb_execution_excludepatterns = ([] if _mode != "subset" else
                                [f"notebooks/{n}" for n in _names if n[:-len(".ipynb")] not in EXECUTED])
# A test build (tests/test_docs.py) sets a short limit per cell, so that a kernel's lost reply costs that long
# rather than the whole build's limit, and has a failed notebook reported as a warning naming its cause
# (CellTimeoutError: the test builds again); with -W a warning still fails the build, so nothing fails quietly.
_cell_limit = os.environ.get("RICOCHET_NB_CELL_TIMEOUT")
if _cell_limit is not None and not (_cell_limit.isdigit() and int(_cell_limit) > 0):
    raise ValueError(f"RICOCHET_NB_CELL_TIMEOUT must be a whole number of seconds, not {_cell_limit!r}")
nb_execution_timeout = 600 if _cell_limit is None else int(_cell_limit)
nb_execution_raise_on_error = _cell_limit is None
nb_execution_show_tb = True
nb_merge_streams = True

# ---- HTML
html_theme = "alabaster"
# keep "--option" and quotes as typed (the CLI reference and the code-like help texts)
smartquotes = False
html_title = "ricochet_math"
html_static_path: list[str] = []
# The committed casino report, served beside the pages (report/report.html and its tables/) so that the method
# pages can link to the report sections that use each method; copied at every build like the notebooks.
REPORT = ROOT / "reports" / "publisher"
_report_dir = DOCS / "_report"
if (REPORT / "report.html").is_file():
    # a folder of the toolkit's like any report folder (ricochet_math.storage): it carries the marker with the
    # record of the files copied, a rebuild replaces exactly those, and a file someone put there stays; a
    # folder there that the toolkit did not write (or an edited copy) is left alone, and the site is built
    # without the copy
    from ricochet_math.errors import RicochetError
    from ricochet_math.storage import copy_to_owned_folder

    _copy = {_src.relative_to(REPORT).as_posix(): _src
             for _src in [REPORT / "report.html", *sorted((REPORT / "tables").glob("*.csv"))]}
    try:
        copy_to_owned_folder(_copy, _report_dir / "report", "docs-report-copy", "documentation's report copy")
        html_extra_path = [str(_report_dir)]
    except RicochetError as _exc:
        # a copy made by a docs build of a version before the marker is refused too (nothing proves it ours)
        print(f"docs/conf.py: warning: the report copy was not written: {_exc} (a copy left by an older docs "
              f"build: delete {_report_dir / 'report'} and build again)", file=sys.stderr)

# ---- the game pages other sessions add (docs/home-game.md, docs/*-poker.md): the index lists the ones that
# exist, so the site builds before and after they arrive (a toctree entry for a missing page is a warning).
GAME_PAGES = ["home-game", "ring-poker", "rococo-poker", "free-ride-poker"]


def _game_pages(app, docname, source):
    if docname == "index":
        pages = [p for p in GAME_PAGES if (DOCS / f"{p}.md").exists()]
        pages += sorted(p.stem for p in DOCS.glob("*-poker.md") if p.stem not in pages)
        source[0] = source[0].replace("GAME_PAGES\n", "".join(f"{p}\n" for p in pages))


def setup(app):
    app.connect("source-read", _game_pages)
