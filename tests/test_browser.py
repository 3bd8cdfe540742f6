"""The web table in a real browser: Playwright driving Debian's chromium.

These tests are deselected unless asked for: ``pytest -m browser`` runs them all, and
``.ci/run`` runs the short one. They need the ``browser`` extra
(``pip install -e '.[browser]'``, which brings Playwright and its driver) and chromium
(``sudo apt-get install -y chromium``); without either they fail, saying which is
missing, rather than skip. Set ``BRISCA_CHROMIUM`` to use another chromium, and
``BRISCA_SCREENSHOT`` to a path to keep the screenshot of the table (the docs' one is
made so: ``BRISCA_SCREENSHOT=docs/images/web-table.png pytest -m browser -k four``).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import brisca
from brisca.cli import main
from brisca.cli.serve import listen

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("BRISCA_CHROMIUM", "/usr/bin/chromium")
# Headless, and nothing that reaches beyond the loopback interface.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT = 15_000  # milliseconds, for any one thing to appear


class Running:
    """The server under uvicorn in a thread of the test process, on a free port."""

    def __init__(self) -> None:
        import uvicorn

        from brisca.server.app import create_app

        self.app = create_app(seeds=True)
        self.sock = listen("127.0.0.1", 0)
        self.base = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning"))
        self.loop: asyncio.AbstractEventLoop | None = None
        started = threading.Event()

        async def serve() -> None:
            self.loop = asyncio.get_running_loop()
            started.set()
            await self.server.serve(sockets=[self.sock])

        self.thread = threading.Thread(target=asyncio.run, args=(serve(),))
        self.thread.start()
        assert started.wait(10)

    def table(self, rules: str, seats: list[str], seed: int, **options: Any) -> str:
        """A new table made through the API; the URL of seat 0."""
        body = {"rules": rules, "seats": seats, "seed": seed, **options}
        request = urllib.request.Request(
            f"{self.base}/api/tables",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            url: str = json.loads(answer.read())["links"][0]["url"]
        return url

    def stored(self, url: str) -> Any:
        """The table at `url`, as the server's store holds it now."""
        assert self.loop is not None
        table_id = url.split("/table/")[1].split("#")[0]
        found = self.app.state.hub.store.get(table_id)
        return asyncio.run_coroutine_threadsafe(found, self.loop).result(10)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)
        self.sock.close()


@pytest.fixture(scope="module")
def running() -> Iterator[Running]:
    server = Running()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as missing:
        pytest.fail(f"the browser tests need Playwright: pip install -e '.[browser]' ({missing})")
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.fail(
            f"the browser tests need chromium at {CHROMIUM}: sudo apt-get install -y chromium"
        )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1000, "height": 800}, accept_downloads=True)
    opened = context.new_page()
    opened.set_default_timeout(TIMEOUT)
    problems: list[str] = []
    opened.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    opened.on(
        "console",
        lambda message: problems.append(message.text) if message.type == "error" else None,
    )
    yield opened
    context.close()
    assert not problems, problems  # no script error, no resource or policy refused


def play_by_clicking(page: Any, stop_after: int | None = None) -> int:
    """Click the first legal card whenever it is our turn, until the hand is over (or
    `stop_after` cards are played); the number of cards played."""
    played = 0
    while stop_after is None or played < stop_after:
        page.wait_for_selector("#hand .card.legal, #actions .action, #over:not([hidden])")
        if page.locator("#over").is_visible() and page.locator("#over-title").inner_text():
            return played
        card = page.locator("#hand .card.legal").first
        if card.count():
            code = card.get_attribute("data-card")
            card.click()
            page.wait_for_selector(f'#hand [data-card="{code}"]', state="detached")
            played += 1
        else:  # only optional actions, such as an auction's: take the first offered
            action = page.locator("#actions .action").first.element_handle()
            action.click()
            action.wait_for_element_state("hidden")  # gone with the next update
    return played


def test_open_a_table(running: Running, page: Any) -> None:
    """The lobby deals a table against a bot, and the table shows the hand, the turned
    trump card, the stock, the points and the legal moves."""
    page.goto(running.base + "/")
    page.wait_for_selector("#preset option[value='spanish-2p']", state="attached")
    assert page.locator("#seat-choices select").input_value() == "heuristic"
    page.fill("#name", "Ana")
    page.click("#deal")
    page.wait_for_selector("#hand .card.legal")
    table = running.stored(page.url)
    hand = table.hand
    assert page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)") == [
        str(card) for card in hand.hands[0]
    ]
    assert page.locator("#hand .card.legal").count() == len(brisca.legal_actions(hand))
    assert page.locator("#trump-card .card").get_attribute("data-card") == str(hand.trump_card)
    assert page.locator("#stock").inner_text() == str(len(hand.stock))
    assert page.locator("#points").inner_text() == "you: 0 · seat 1: 0"
    assert page.locator("#turn").inner_text() == "Your turn"
    assert table.seats[0].name == "Ana"


def test_play_a_whole_2p_hand_against_a_bot_by_clicking_cards(
    running: Running, page: Any, tmp_path: Path
) -> None:
    """Twenty cards clicked, a reload on the way (the seat rejoins), the result shown,
    and the record downloaded, which `brisca replay` reads."""
    url = running.table("spanish-2p", ["human", "heuristic"], seed=21)
    page.goto(url)
    assert play_by_clicking(page, stop_after=5) == 5
    before = page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")
    page.reload()
    page.wait_for_selector("#hand .card")
    after = page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")
    assert after == before  # the same seat, the same hand
    assert play_by_clicking(page) == 15
    outcome = brisca.result(running.stored(url).game)
    points = page.locator("#over-text").inner_text()
    assert points == f"Points: you {outcome.points[0]}, seat 1 {outcome.points[1]}"
    with page.expect_download() as download:
        page.click("#download")
    path = tmp_path / "hand.jsonl"
    download.value.save_as(path)
    assert (
        brisca.formats.records.loads(path.read_text(encoding="utf-8")).result.points
        == outcome.points
    )
    assert main(["replay", str(path)]) == 0


def test_an_illegal_click_shows_the_rules_reason(running: Running, page: Any) -> None:
    """Arrastre, once the stock is out: a card the duty bars is shown barred, and
    clicking it shows the library's reason; the hand then plays on to its end."""
    url = running.table("arrastre-2p", ["human", "heuristic"], seed=2)  # a duty arises
    page.goto(url)
    refused = 0
    while not refused:
        page.wait_for_selector("#hand .card.legal")
        barred = page.locator("#hand .card.barred")
        if barred.count():
            code = barred.first.get_attribute("data-card")
            state = running.stored(url).game
            barred.first.click()
            reason = brisca.refusal(state, brisca.Play(code))
            assert reason is not None
            page.wait_for_selector("#message.error")
            assert page.locator("#message").inner_text() == reason
            assert running.stored(url).game == state  # nothing changed
            refused += 1
        else:
            play_by_clicking(page, stop_after=1)
    play_by_clicking(page)
    assert running.stored(url).is_over


def test_play_a_four_player_hand_with_one_person_and_three_bots(
    running: Running, page: Any, tmp_path: Path
) -> None:
    """Spanish 4p, partners opposite, señas offered: the person plays ten cards, the bots
    the rest; a screenshot of the table on the way."""
    url = running.table("spanish-4p", ["human", "heuristic", "heuristic", "heuristic"], seed=0)
    page.goto(url)
    page.wait_for_selector("#hand .card.legal")
    signals = page.locator("#actions .action").evaluate_all("b => b.map(x => x.dataset.action)")
    hand = running.stored(url).hand
    assert signals == [str(a) for a in brisca.legal_actions(hand) if type(a) is brisca.Signal]
    assert signals  # the señas are offered before the hand
    play_by_clicking(page, stop_after=3)
    page.wait_for_selector("#hand .card.legal")
    page.mouse.move(0, 0)  # no card raised by the pointer
    page.evaluate("window.scrollTo(0, 0)")
    shot = tmp_path / "web-table.png"
    page.screenshot(path=str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    keep = os.environ.get("BRISCA_SCREENSHOT")
    if keep:
        shutil.copyfile(shot, keep)
    assert play_by_clicking(page) == 7
    outcome = brisca.result(running.stored(url).game)
    titles = {0: "you + seat 2 won", 1: "seat 1 + seat 3 won", None: "No winner"}
    assert page.locator("#over-title").inner_text() == titles[outcome.winner]


def test_the_optional_actions_are_offered_when_legal(running: Running, page: Any) -> None:
    """Subastada: the bids as a list, the pass as a button; the hand is bid, the trump
    named and the cards played to the end by clicking."""
    url = running.table("subastada-4p", ["human", "heuristic", "heuristic", "heuristic"], seed=3)
    page.goto(url)
    page.wait_for_selector("#actions select[data-kind='bid']")
    options = page.locator("#actions select[data-kind='bid'] option")
    hand = running.stored(url).hand
    bids = [str(a) for a in brisca.legal_actions(hand) if type(a) is brisca.Bid]
    assert options.evaluate_all("o => o.map(x => x.value)") == bids
    assert page.locator("#actions [data-action='pass']").is_visible()
    page.select_option("#actions select[data-kind='bid']", "bid 70")
    page.click("#actions [data-kind-go='bid']")
    page.wait_for_selector("#log li", state="attached")
    assert "you: bid 70" in page.locator("#log").text_content()
    assert str(running.stored(url).hand.ledger.bids[0].bid) == "bid 70"
    play_by_clicking(page)
    assert running.stored(url).is_over


def test_the_phone_screen_shows_the_hand_and_the_legal_moves(
    browser: Any, running: Running
) -> None:
    """At 390x844 the hand, the legal moves and the turned card are all in view at once."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone = context.new_page()
    phone.set_default_timeout(TIMEOUT)
    url = running.table("puerto-rican-2p", ["human", "heuristic"], seed=6)
    phone.goto(url)
    phone.wait_for_selector("#hand .card.legal")
    hand = running.stored(url).hand
    legal = brisca.legal_actions(hand)
    assert phone.locator("#hand .card.legal").count() == sum(type(a) is brisca.Play for a in legal)
    for box in phone.locator("#hand .card, #trump-card .card, #actions .action").all():
        bounds = box.bounding_box()
        assert bounds is not None
        assert bounds["x"] >= 0 and bounds["x"] + bounds["width"] <= 390, bounds
        assert bounds["y"] >= 0 and bounds["y"] + bounds["height"] <= 844, bounds
    play_by_clicking(phone, stop_after=2)
    context.close()
