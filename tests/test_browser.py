"""The web table in a real browser: Playwright driving Debian's chromium.

These tests are deselected unless asked for: ``pytest -m browser`` runs them all, and
``.ci/run`` runs the short one. They need the ``browser`` extra
(``pip install -e '.[browser]'``, which brings Playwright and its driver) and chromium
(``sudo apt-get install -y chromium``); without either they fail, saying which is
missing, rather than skip. Set ``BRISCA_CHROMIUM`` to use another chromium. The
docs' screenshots come from ``benchmarks/screenshots.py``.
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
from brisca.formats.text import SIGNAL_MEANINGS
from brisca.game.rules import SignalVocabulary

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
HOLD_WAIT = 1_800  # milliseconds: longer than the table pauses on a trick


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

    def table(self, rules: Any, seats: list[str], seed: int, **options: Any) -> str:
        """A new table made through the API; the URL of seat 0."""
        return self.links(rules, seats, seed, **options)[0]

    def links(self, rules: Any, seats: list[str], seed: int, **options: Any) -> list[str]:
        """A new table made through the API; the URL of each person's seat."""
        body = {"rules": rules, "seats": seats, "seed": seed, **options}
        request = urllib.request.Request(
            f"{self.base}/api/tables",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            return [link["url"] for link in json.loads(answer.read())["links"]]

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


def wait_for_turn(page: Any) -> str:
    """Gather each completed trick at once (a click on the table) until there is a card
    to play, an optional action or the end of the hand: ``"card"``, ``"action"`` or
    ``"over"``."""
    while True:
        page.wait_for_selector(
            "#hand .card.legal, #actions .action, #over:not([hidden]), #felt.holding"
        )
        if page.locator("#felt.holding").count():
            page.click("#felt")
            page.wait_for_selector("#felt.holding", state="detached")
        elif page.locator("#over").is_visible() and page.locator("#over-title").inner_text():
            return "over"
        elif page.locator("#hand .card.legal").count():
            return "card"
        elif page.locator("#actions .action").count():
            return "action"


def play_by_clicking(page: Any, stop_after: int | None = None) -> int:
    """Click the first legal card whenever it is our turn, until the hand is over (or
    `stop_after` cards are played); the number of cards played."""
    played = 0
    while stop_after is None or played < stop_after:
        turn = wait_for_turn(page)
        if turn == "over":
            return played
        if turn == "card":
            card = page.locator("#hand .card.legal").first
            code = card.get_attribute("data-card")
            card.click()
            page.wait_for_selector(f'#hand [data-card="{code}"]', state="detached")
            played += 1
        else:  # only optional actions, such as an auction's: take the first offered
            action = page.locator("#actions .action").first.element_handle()
            action.click()
            action.wait_for_element_state("hidden")  # gone with the next update
    return played


def hand_title(outcome: Any) -> str:
    """What the result box says of a two-sided hand, told to seat 0."""
    score = f"{outcome.points[0]}\u2013{outcome.points[1]}"
    if outcome.winner is None:
        return f"A tie, {score}"
    return f"You {'won' if outcome.winner == 0 else 'lost'}, {score}"


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
    assert page.locator("#scores .side").all_text_contents() == [
        "You 0 points · 0 tricks",
        "Seat 1 0 points · 0 tricks",
    ]
    assert page.locator("#turn").inner_text() == "Your turn"
    assert table.seats[0].name == "Ana"


def test_play_a_whole_2p_hand_against_a_bot_by_clicking_cards(
    running: Running, page: Any, tmp_path: Path
) -> None:
    """Twenty cards clicked, a reload on the way (the seat rejoins); the last trick is
    shown before the result, which says who won and by how much; the record is
    downloaded, and `brisca replay` reads it."""
    url = running.table("spanish-2p", ["human", "heuristic"], seed=21)
    page.goto(url)
    assert play_by_clicking(page, stop_after=5) == 5
    before = page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")
    page.reload()
    page.wait_for_selector("#hand .card")
    after = page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")
    assert after == before  # the same seat, the same hand
    assert play_by_clicking(page, stop_after=14) == 14
    assert wait_for_turn(page) == "card"
    page.locator("#hand .card.legal").first.click()  # the last card of the hand
    page.wait_for_selector("#felt.holding")
    assert page.locator("#trick .played").count() == 2
    assert not page.locator("#over").is_visible()  # the last trick first, then the result
    page.click("#felt")
    page.wait_for_selector("#over:not([hidden])")
    outcome = brisca.result(running.stored(url).game)
    assert page.locator("#over-title").inner_text() == hand_title(outcome)
    assert page.locator("#over-text p").first.inner_text() == (
        f"Points: you {outcome.points[0]}, seat 1 {outcome.points[1]}"
    )
    with page.expect_download() as download:
        page.click("#download")
    path = tmp_path / "hand.jsonl"
    download.value.save_as(path)
    assert (
        brisca.formats.records.loads(path.read_text(encoding="utf-8")).result.points
        == outcome.points
    )
    assert main(["replay", str(path)]) == 0


def test_a_completed_trick_shows_its_winner_before_it_is_gathered(
    running: Running, page: Any
) -> None:
    """The trick stays on the table with its winning card marked, then goes by itself
    (in about 1.5 s) to the winner's side."""
    url = running.table("spanish-2p", ["human", "heuristic"], seed=4)
    page.goto(url)
    page.wait_for_selector("#hand .card.legal")
    page.locator("#hand .card.legal").first.click()
    page.wait_for_selector("#felt.holding")
    trick = running.stored(url).hand.tricks[0]
    shown = page.locator("#trick .played").evaluate_all(
        "cards => cards.map(c => [Number(c.dataset.seat), c.querySelector('.card').dataset.card])"
    )
    assert shown == [[seat, str(card)] for seat, card in trick.cards]
    winner = page.locator("#trick .played.winner")
    assert winner.get_attribute("data-seat") == str(trick.winner)
    assert winner.locator(".takes").inner_text().endswith(f"+{trick.points}")
    page.wait_for_selector("#felt.holding", state="detached", timeout=3000)  # no click
    assert page.locator("#trick .played.winner").count() == 0
    assert (
        page.locator("#scores .side")
        .first.text_content()
        .endswith("1 trick" if trick.winner == 0 else "0 tricks")
    )


def test_an_illegal_click_shows_the_rules_reason_until_the_next_update(
    running: Running, page: Any
) -> None:
    """Arrastre, once the stock is out: a card the duty bars is shown barred, and
    clicking it shows the library's reason, which goes with the next move; the hand
    then plays on to its end."""
    url = running.table("arrastre-2p", ["human", "heuristic"], seed=2)  # a duty arises
    page.goto(url)
    refused = 0
    while not refused:
        assert wait_for_turn(page) == "card"
        barred = page.locator("#hand .card.barred")
        if barred.count():
            code = barred.first.get_attribute("data-card")
            state = running.stored(url).game
            barred.first.click()
            reason = brisca.refusal(state, brisca.Play(code))
            assert reason is not None
            page.wait_for_selector("#message.error")
            assert page.locator("#message").inner_text() == reason
            assert page.locator("#turn").inner_text() == "Your turn"  # still, and truly
            assert running.stored(url).game == state  # nothing changed
            refused += 1
        else:
            play_by_clicking(page, stop_after=1)
    play_by_clicking(page, stop_after=1)
    assert page.locator("#message").inner_text() == ""
    assert page.locator("#message.error").count() == 0
    play_by_clicking(page)
    assert running.stored(url).is_over


def test_the_partner_sits_opposite_in_four_and_keys_play_cards(running: Running, page: Any) -> None:
    """Spanish 4p: you at the bottom, seat 1 on your right, your partner (seat 2)
    opposite, seat 3 on your left, each with its cards face down; the key 1 plays the
    first card of the hand."""
    url = running.table("spanish-4p", ["human", "heuristic", "heuristic", "heuristic"], seed=0)
    page.goto(url)
    page.wait_for_selector("#hand .card.legal")
    centre = {}
    for seat in range(4):
        box = page.locator(f"#seats .seat[data-seat='{seat}']").bounding_box()
        centre[seat] = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = (centre[k] for k in range(4))
    assert abs(x2 - x0) < 5 and y2 < y1 < y0 and y2 < y3 < y0  # partner opposite
    assert x3 < x0 < x1  # seat 1 on the right: play goes counter-clockwise
    assert "partner" in page.locator("#seats .seat[data-seat='2']").inner_text()
    hand = running.stored(url).hand
    for seat in (1, 2, 3):
        backs = page.locator(f"#seats .seat[data-seat='{seat}'] .backs .card")
        assert backs.count() == len(hand.hands[seat])
    first = page.locator("#hand .card").first.get_attribute("data-card")
    assert page.locator("#hand .card").first.get_attribute("aria-label") == (
        f"{first[:-1]} of {dict(O='oros', C='copas', E='espadas', B='bastos')[first[-1]]}"
    )
    page.keyboard.press("1")
    page.wait_for_selector(f'#hand [data-card="{first}"]', state="detached")
    assert page.locator(f"#trick .played[data-seat='0'] [data-card='{first}']").count() == 1


def test_a_sena_is_shown_to_the_partner_and_not_to_the_opponents(
    running: Running, browser: Any
) -> None:
    """Team-private señas: seat 0's signal is shown beside seat 0, in words, to its
    partner (seat 2), and nowhere to seat 1; the button says what it means."""
    rules = {"preset": "spanish-4p", "overrides": {"signals": "team_private"}}
    links = running.links(rules, ["human", "human", "human", "heuristic"], seed=0)
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    me, opponent, partner = (context.new_page() for _ in range(3))
    for opened, link in zip((me, opponent, partner), links, strict=True):
        opened.set_default_timeout(TIMEOUT)
        opened.goto(link)
    button = me.locator("#actions [data-action^='signal']").first
    name = button.get_attribute("data-action").split()[1]
    meaning = SIGNAL_MEANINGS[SignalVocabulary.S000][name]
    words = name.replace("_", " ")
    assert button.inner_text() == f"Seña “{words}”: {meaning}"
    button.click()
    me.wait_for_selector("#seats .seat[data-seat='0'] .sena")
    partner.wait_for_selector("#seats .seat[data-seat='0'] .sena")
    said = partner.locator("#seats .seat[data-seat='0'] .sena").inner_text()
    assert said == f"{words}: {meaning}"
    play_by_clicking(me, stop_after=1)
    opponent.wait_for_selector("#trick .played[data-seat='0']")
    assert opponent.locator(".sena").count() == 0
    context.close()


def test_the_auction_and_the_contract_are_shown_all_hand_and_explained_at_the_end(
    running: Running, page: Any
) -> None:
    """Subastada: the bids as a list, the pass as a button; the bids shown as they are
    made, then the contract named all hand; at the end, what the declarer needed and
    took."""
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
    assert "You: bid 70" in page.locator("#log").text_content()
    assert str(running.stored(url).hand.ledger.bids[0].bid) == "bid 70"
    page.wait_for_selector("#auction li, #contract:not([hidden])")
    if page.locator("#auction").is_visible():
        assert page.locator("#auction li").first.inner_text() == "You: bid 70"
    contracts = set()
    while play_by_clicking(page, stop_after=1):
        contracts.add(page.locator("#contract").inner_text())
    contract = running.stored(url).hand.ledger.contract
    declarer = "you" if contract.declarer == 0 else f"seat {contract.declarer}"
    said = f"{declarer.capitalize()} won the auction with {contract.bid}; trumps: "
    assert len(contracts) == 1 and contracts.pop().startswith(said)  # all hand the same
    outcome = brisca.result(running.stored(url).game)
    ours = next(k for k, side in enumerate(outcome.sides) if contract.declarer in side)
    cantes = outcome.details.cantes[ours]
    needed, took = contract.bid.points, outcome.points[ours] + cantes
    made = "the contract was made" if outcome.details.made else "the contract failed"
    explained = page.locator("#over-text").inner_text()
    assert f"The declarer ({declarer}) needed {needed} and took {took}" in explained
    assert f"took {took}: {made}." in explained or f"in cantes): {made}." in explained


def test_a_match_waits_between_hands(running: Running, page: Any) -> None:
    """A match: when a hand ends, its result, the standings and the next dealer are
    shown, and the next hand (which the server has dealt) waits for "Next hand"."""
    url = running.table("spanish-2p", ["human", "random"], seed=8, match=True)
    page.goto(url)
    assert play_by_clicking(page) == 20
    assert page.locator("#next-hand").is_visible()
    match = running.stored(url).game
    assert len(match.hands) == 1 and match.state is not None  # dealt already
    outcome = match.hands[0].result
    assert page.locator("#over-title").inner_text() == hand_title(outcome)
    standings = page.locator("#over-match").inner_text()
    assert "first to 3 hands won" in standings
    you, them = (int(s) for s in match.standings)
    assert f"Standings: you {you} · seat 1 {them}" in standings
    dealer = match.state.dealer
    assert ("You deal next" if dealer == 0 else "Seat 1 deals next") in standings
    page.wait_for_timeout(HOLD_WAIT)
    assert page.locator("#hand .card").count() == 0  # still the finished hand
    assert page.locator("#next-hand").is_visible()
    page.click("#next-hand")
    page.wait_for_selector("#hand .card")
    assert page.locator("#over").is_hidden()
    assert page.locator("#match-panel").inner_text().startswith("Hand 2")
    assert page.locator("#hand .card").count() == 3


def test_the_spanish_switch_is_remembered(running: Running, page: Any) -> None:
    """The language button turns the table into Spanish, cards' names too, and the
    choice outlives a reload; pressed again, English."""
    url = running.table("spanish-2p", ["human", "heuristic"], seed=21)
    page.goto(url)
    page.wait_for_selector("#hand .card.legal")
    assert page.locator("#lang").inner_text() == "Español"
    page.click("#lang")
    assert page.locator("#turn").inner_text() == "Tu turno"
    assert page.locator("html").get_attribute("lang") == "es"
    names = {1: "as", 2: "dos", 3: "tres", 4: "cuatro", 5: "cinco", 6: "seis", 7: "siete"}
    names |= {10: "sota", 11: "caballo", 12: "rey"}
    suits = {"O": "oros", "C": "copas", "E": "espadas", "B": "bastos"}
    hand = running.stored(url).hand.hands[0]
    labels = page.locator("#hand .card").evaluate_all("c => c.map(x => x.ariaLabel)")
    assert labels == [f"{names[c.rank]} de {suits[c.suit.value]}" for c in hand]
    assert page.locator("#scores .side").first.text_content() == "Tú 0 puntos · 0 bazas"
    page.reload()
    page.wait_for_selector("#hand .card.legal")
    assert page.locator("#turn").inner_text() == "Tu turno"
    assert page.locator("#lang").inner_text() == "English"
    page.click("#lang")
    assert page.locator("#turn").inner_text() == "Your turn"


def test_the_phone_screen_shows_the_whole_table(browser: Any, running: Running) -> None:
    """At 390x844, four players: every seat, the trick, the turned card, the hand and
    the legal moves are all in view at once, with nothing to scroll sideways."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone = context.new_page()
    phone.set_default_timeout(TIMEOUT)
    url = running.table("spanish-4p", ["human", "heuristic", "heuristic", "heuristic"], seed=5)
    phone.goto(url)
    phone.wait_for_selector("#hand .card.legal")
    hand = running.stored(url).hand
    legal = brisca.legal_actions(hand)
    assert phone.locator("#hand .card.legal").count() == sum(type(a) is brisca.Play for a in legal)
    shown = "#hand .card, #trump-card .card, #actions .action, #seats .seat, #trick .played"
    assert phone.locator("#seats .seat").count() == 4
    for box in phone.locator(shown).all():
        bounds = box.bounding_box()
        assert bounds is not None
        assert bounds["x"] >= 0 and bounds["x"] + bounds["width"] <= 390, bounds
        assert bounds["y"] >= 0 and bounds["y"] + bounds["height"] <= 844, bounds
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    play_by_clicking(phone, stop_after=2)
    context.close()
