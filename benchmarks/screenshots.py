"""Refresh the web table's screenshots in docs/images: a two-player hand, a four-player
hand with señas, an auction and a phone.

    .venv/bin/python benchmarks/screenshots.py [--out docs/images]

It runs ``brisca serve``'s application on a free port of the loopback interface, deals
known games (fixed seeds) and drives Debian's chromium with Playwright, as the browser
tests do: it needs the ``browser`` extra and chromium (``BRISCA_CHROMIUM`` for another).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import threading
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = os.environ.get("BRISCA_CHROMIUM", "/usr/bin/chromium")
DESK: Any = {"width": 1000, "height": 860}
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]


class Server:
    """The application under uvicorn in a thread, on a free port."""

    def __init__(self) -> None:
        import uvicorn

        from brisca.cli.serve import listen
        from brisca.server.app import create_app

        self.sock = listen("127.0.0.1", 0)
        self.base = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(create_app(seeds=True), log_level="warning"))
        started = threading.Event()

        async def serve() -> None:
            started.set()
            await self.server.serve(sockets=[self.sock])

        self.thread = threading.Thread(target=asyncio.run, args=(serve(),))
        self.thread.start()
        started.wait(10)

    def links(self, rules: Any, seats: list[str], seed: int, match: bool = False) -> list[str]:
        body = json.dumps({"rules": rules, "seats": seats, "seed": seed, "match": match})
        request = urllib.request.Request(
            f"{self.base}/api/tables", body.encode(), {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            return [link["url"] for link in json.loads(answer.read())["links"]]

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)
        self.sock.close()


def play(page: Any, cards: int) -> None:
    """Click the first legal card `cards` times, gathering each trick at once."""
    for _ in range(cards):
        page.wait_for_selector("#hand .card.legal, #felt.holding")
        if page.locator("#felt.holding").count():
            page.click("#felt")
            continue
        code = page.locator("#hand .card.legal").first.get_attribute("data-card")
        page.click(f'#hand [data-card="{code}"]')
        page.wait_for_selector(f'#hand [data-card="{code}"]', state="detached")


def settle(page: Any, trick: bool = True) -> None:
    """Play on until it is our turn with a card on the table (with `trick`) and no
    trick on show; then take the pointer away."""
    while True:
        page.wait_for_selector("#hand .card.legal, #actions .action")
        if not trick or page.locator("#trick .played").count():
            break
        play(page, 1)
    page.wait_for_selector("#felt:not(.holding)")
    page.mouse.move(0, 0)
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(200)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("docs/images"))
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    server = Server()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)

            page = browser.new_context(viewport=DESK).new_page()
            page.goto(server.links("spanish-2p", ["human", "heuristic"], seed=21)[0])
            play(page, 6)
            settle(page)
            page.screenshot(path=str(out / "web-table-2p.png"))

            page = browser.new_context(viewport=DESK).new_page()
            rules = {"preset": "spanish-4p", "overrides": {"signals": "team_private"}}
            page.goto(server.links(rules, ["human", "heuristic", "heuristic", "heuristic"], 0)[0])
            page.click("#actions [data-action^='signal']")
            play(page, 2)
            settle(page)
            page.screenshot(path=str(out / "web-table-4p.png"))

            page = browser.new_context(viewport=DESK).new_page()
            # Four people, so that the bids are known: 60, 65, 70 and a pass.
            links = server.links("subastada-4p", ["human"] * 4, seed=3)
            pages = [browser.new_context(viewport=DESK).new_page() for _ in links]
            for bidder, link in zip(pages, links, strict=True):
                bidder.goto(link)
            for seat, bid in enumerate(["bid 60", "bid 65", "bid 70", "pass"]):
                bidder = pages[seat]
                bidder.wait_for_selector("#actions [data-action='pass']")
                if bid == "pass":
                    bidder.click("#actions [data-action='pass']")
                else:
                    bidder.select_option("#actions select[data-kind='bid']", bid)
                    bidder.click("#actions [data-kind-go='bid']")
            page = pages[0]
            page.wait_for_selector("#auction li >> nth=3")
            settle(page, trick=False)
            page.screenshot(path=str(out / "web-table-auction.png"))

            phone = browser.new_context(
                viewport={"width": 390, "height": 844}, is_mobile=True, device_scale_factor=2
            ).new_page()
            phone.goto(server.links("spanish-4p", ["human"] + ["heuristic"] * 3, 5)[0])
            play(phone, 2)
            settle(phone)
            phone.screenshot(path=str(out / "web-table-phone.png"))
            browser.close()
    finally:
        server.stop()
    for name in ("2p", "4p", "auction", "phone"):
        print(out / f"web-table-{name}.png")


if __name__ == "__main__":
    main()
