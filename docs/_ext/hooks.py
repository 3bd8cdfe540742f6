"""MkDocs hook: tables of `Rules` options and presets, generated from the code.

A page asks for them with HTML comments, so that the tables always match the
installed library:

- ``<!-- options: NAME PATTERN ... -->``: a table of the `Rules` options named
  (``fnmatch`` patterns such as ``swap_*`` allowed), with each one's default,
  values, and documentation and sources from the ``#:`` comment above its field;
- ``<!-- presets: NAME PATTERN ... -->``: a table of the presets named, with their
  table size and the options in which they differ from ``Rules()``.

A name or pattern that matches nothing is an error, so a renamed option breaks
the build instead of leaving a stale page.
"""

from __future__ import annotations

import fnmatch
import re
from typing import Any

import attrs

import brisca
from brisca.formats.text import changed_options, option_choices, option_docs, option_text

MARKER = re.compile(r"<!--\s*(options|presets):\s*(.*?)\s*-->")


def _pick(names: list[str], patterns: list[str], what: str) -> list[str]:
    chosen: list[str] = []
    for pattern in patterns:
        found = fnmatch.filter(names, pattern)
        if not found:
            raise ValueError(f"no {what} matches {pattern!r}")
        chosen += [name for name in found if name not in chosen]
    return chosen


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def options_table(patterns: list[str]) -> str:
    """A Markdown table of the options matching `patterns`."""
    names = [field.name for field in attrs.fields(brisca.Rules)]
    docs = option_docs()
    default = brisca.Rules()
    rows = [
        "| option | default | values | meaning (sources) |",
        "|---|---|---|---|",
    ]
    for name in _pick(names, patterns, "option"):
        value = option_text(getattr(default, name))
        rows.append(
            f"| `{name}` | `{_cell(value)}` | {_cell(option_choices(name))} "
            f"| {_cell(docs[name].replace('``', '`'))} |"
        )
    return "\n".join(rows)


def presets_table(patterns: list[str]) -> str:
    """A Markdown table of the presets matching `patterns`."""
    rows = ["| preset | players | differs from `Rules()` in |", "|---|---|---|"]
    for name in _pick(list(brisca.PRESETS), patterns, "preset"):
        rules = brisca.PRESETS[name]
        changed = [f"`{_cell(text)}`" for text in changed_options(rules)]
        rows.append(f"| `{name}` | {rules.num_players} | {', '.join(changed) or 'nothing'} |")
    return "\n".join(rows)


def expand(markdown: str) -> str:
    """`markdown` with every options and presets marker replaced by its table."""

    def table(found: re.Match[str]) -> str:
        patterns = found.group(2).split()
        if found.group(1) == "options":
            return options_table(patterns)
        return presets_table(patterns)

    return MARKER.sub(table, markdown)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """The MkDocs event: expand the markers of every page."""
    return expand(markdown)
