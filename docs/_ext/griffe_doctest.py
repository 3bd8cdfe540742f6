"""Griffe extension: make docstrings written for Sphinx and doctest read well in Markdown.

- A doctest block (lines from ``>>>`` to the next blank line) becomes a fenced
  ``pycon`` code block, instead of a Markdown block quote.
- A Sphinx role such as ``:class:`~brisca.State``` becomes a code span.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|exc|obj):`~?([^`]+)`")


def fence_doctests(text: str) -> str:
    """`text` with each doctest block outside a code fence wrapped in a ``pycon`` fence."""
    out: list[str] = []
    in_fence = in_doctest = False
    indent = ""
    for line in text.splitlines():
        stripped = line.strip()
        if in_doctest and not stripped:
            out.append(f"{indent}```")
            in_doctest = False
        if stripped.startswith("```") and not in_doctest:
            in_fence = not in_fence
        elif stripped.startswith(">>>") and not in_fence and not in_doctest:
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            in_doctest = True
        out.append(line)
    if in_doctest:
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Rewrite every docstring as it is loaded."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            value = ROLE.sub(r"`\1`", obj.docstring.value)
            obj.docstring.value = fence_doctests(value)
