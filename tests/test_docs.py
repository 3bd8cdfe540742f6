"""The documentation site: its examples run, its generated tables build, its links resolve."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import re
import subprocess
import sys
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


def test_modules_named_in_the_docs_exist_and_old_names_still_reach_them() -> None:
    """Every module path the docs name (`brisca.agents.bots`) is a module of the package;
    after `import brisca`, the flat names of before the folders (`brisca.bots`) reach the
    same modules, and the programs are loaded on first use only."""
    package = ROOT / "src" / "brisca"
    modules = {
        ".".join(p.relative_to(package.parent).with_suffix("").parts).removesuffix(".__init__")
        for p in package.rglob("*.py")
    }
    texts = [page.read_text(encoding="utf-8") for page in [*PAGES, ROOT / "README.md"]]
    named = {m for text in texts for m in re.findall(r"\b(brisca(?:\.[a-z_]+)+)\b", text)}
    folders = {"game", "formats", "agents", "runs", "cli", "server", "envs"}
    deep = {m for m in named if m.split(".")[1] in folders}
    parents = {m.rsplit(".", 1)[0] for m in deep}  # `brisca.game.match.new_match` names a function
    assert {"brisca.agents.bots", "brisca.formats.records", "brisca.game.engine"} <= deep
    assert all(m in modules or m.rsplit(".", 1)[0] in modules | parents for m in deep), sorted(
        m for m in deep if m not in modules and m.rsplit(".", 1)[0] not in modules
    )
    code = (
        "import sys, brisca\n"
        "lazy = [m for m in ('brisca.agents.bots', 'brisca.cli') if m in sys.modules]\n"
        "old = ('bots', 'records', 'events', 'encoding', 'sampling', 'match', 'rng', 'engine')\n"
        "wrong = [m for m in old if getattr(brisca, m).__name__.rsplit('.', 1)[1] != m]\n"
        "print(lazy, wrong, brisca.bots.HeuristicBot.__name__, 'bots' in dir(brisca))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    # nothing wrong; bots and cli are loaded on first use, not by `import brisca`
    assert done.stdout.split() == ["[]", "[]", "HeuristicBot", "True"]
    name = "no_such_module"
    with pytest.raises(AttributeError, match=f"no attribute '{name}'"):
        getattr(importlib.import_module("brisca"), name)


def test_the_auction_example_prose_gives_the_points_the_example_prints() -> None:
    """docs/variants/auctions.md: the declaring side's points are those the game gives."""
    import brisca

    state = brisca.new_game(brisca.preset("subastada-4p"), seed=3)
    for call in ["bid 60", "bid 65", "pass", "pass", "pass"]:
        state = brisca.apply(state, brisca.parse_action(call))
    state = brisca.apply(state, brisca.NameTrump("O"))
    while not state.is_over:
        state = brisca.apply(state, brisca.legal_actions(state)[0])
    outcome = brisca.result(state)
    contract = state.ledger.contract
    assert contract is not None
    side = next(k for k, s in enumerate(outcome.sides) if contract.declarer in s)
    seats = " and ".join(map(str, outcome.sides[side]))
    took = outcome.points[side]
    text = " ".join((DOCS / "variants" / "auctions.md").read_text(encoding="utf-8").split())
    assert f"The declaring side, seats {seats}, took {took} points" in text
    assert f"short of its {contract.bid.points}" in text


def test_the_rematada_example_prose_says_when_each_side_passed_the_target() -> None:
    """docs/variants/matches.md: the hand in which each side passed 101, and the totals."""
    import brisca

    match = brisca.new_match(brisca.preset("chilean-rematada"), seed=3)
    while not match.is_over:
        match = brisca.apply(match, brisca.legal_actions(match)[0])
    outcome = brisca.result(match)
    totals, passed = [0, 0], [0, 0]
    for number, hand in enumerate(outcome.hands, 1):
        for k, points in enumerate(hand.result.points):
            totals[k] += points
            if totals[k] >= 101 and not passed[k]:
                passed[k] = number
    assert passed == [2, 2]  # the page's story: both in the same, second, hand
    text = " ".join((DOCS / "variants" / "matches.md").read_text(encoding="utf-8").split())
    first = outcome.hands[0].result.points
    assert f"Neither side reached 101 in the first hand ({first[0]} and {first[1]})" in text
    assert f"Both passed it in the second, with {totals[0]} and {totals[1]} in all" in text
    assert f"the top standing, {max(totals)}, is the second side's" in text
    assert outcome.winner == 1


def test_the_server_how_to_shows_json_views_events_and_records() -> None:
    """A server author finds, in tested examples, how to send views and events and save records."""
    examples_text = examples(DOCS / "howto" / "server.md")
    for needed in (".to_dict()", "events_for(", "step(", "records.record_game(", "records.dumps("):
        assert needed in examples_text, needed


def test_the_readme_runs_the_command_one_way() -> None:
    """The README names the command as the setup installs it: `.venv/bin/brisca`."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    verbs = "play|simulate|arena|serve|replay|validate|rules|show|--help|--preset"
    calls = re.findall(rf"(?<![\w/.\[-])((?:\.venv/bin/)?brisca) (?:{verbs})\b", readme)
    assert len(calls) >= 3
    assert set(calls) == {".venv/bin/brisca"}, calls
