"""Cell constructors shared by the notebook generators (``make_notebooks.py``, ``game_notebooks.py``)."""
from __future__ import annotations

import textwrap

import nbformat


def md(text: str):
    return nbformat.v4.new_markdown_cell(textwrap.dedent(text).strip())


def code(text: str):
    return nbformat.v4.new_code_cell(textwrap.dedent(text).strip())
