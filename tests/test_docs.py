"""The documentation site: its examples run, its generated tables build, its links resolve."""

from __future__ import annotations

import doctest
import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
FENCE = re.compile(r"^```python[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)


def examples(page: Path) -> str:
    """The ``>>>`` examples of a page's ```python blocks, as one doctest text.

    Blocks are separated by blank lines, so that each block's expected output
    ends where the block ends; the blocks of a page share their names, in order.
    """
    blocks = [b for b in FENCE.findall(page.read_text(encoding="utf-8")) if ">>>" in b]
    return "\n\n".join(blocks)


@pytest.mark.parametrize(
    "page", [p for p in PAGES if examples(p)], ids=lambda p: str(p.relative_to(DOCS))
)
def test_doc_examples_run(page: Path) -> None:
    """Every ``>>>`` example in the docs gives the output shown."""
    text = examples(page)
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {"__name__": "docs"}, page.name, str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    messages: list[str] = []
    runner.run(test, out=messages.append)
    assert not messages, "".join(messages)


def test_most_pages_have_tested_examples() -> None:
    """The examples are not silently lost: most pages carry some."""
    with_examples = [page for page in PAGES if examples(page)]
    assert len(with_examples) >= 15, [p.name for p in with_examples]


def load_hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "_ext" / "hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_tables_cover_their_options_and_presets() -> None:
    """The option and preset markers expand into tables naming what they match."""
    hooks = load_hooks()
    table = hooks.expand("<!-- options: play_obligation arrastre_* -->")
    assert "| `play_obligation` | `'free'` |" in table
    assert "`arrastre_must_beat`" in table and "(S004; NC)" in table
    presets = hooks.expand("<!-- presets: casino-* -->")
    assert "| `casino-2p` | 2 |" in presets and "`black_hand='any_time'`" in presets
    with pytest.raises(ValueError, match="no option matches 'no_such_option'"):
        hooks.expand("<!-- options: no_such_option -->")


def test_every_page_marker_expands() -> None:
    """Every marker on every page names options and presets that exist."""
    hooks = load_hooks()
    for page in PAGES:
        expanded = hooks.expand(page.read_text(encoding="utf-8"))
        assert "<!-- options:" not in expanded and "<!-- presets:" not in expanded


def test_every_page_is_in_the_navigation() -> None:
    """mkdocs.yml lists every page, and every page it lists exists."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    listed = set(re.findall(r":\s*([\w/.-]+\.md)\s*$", config, re.MULTILINE))
    assert listed == {str(p.relative_to(DOCS)) for p in PAGES}


def test_readme_links_resolve() -> None:
    """The README's relative links point at files that exist."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", readme)
    assert any(link.startswith("docs/") for link in links)
    for link in links:
        assert (ROOT / link).exists(), link
