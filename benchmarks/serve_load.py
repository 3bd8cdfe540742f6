"""A load test of ``brisca serve``: many tables played through the real WebSocket protocol.

Run: ``python benchmarks/serve_load.py [-n TABLES] [--at-once K] [--preset P]``
(needs ``pip install '.[serve]'``, whose uvicorn brings the ``websockets`` client).

It starts the real server, ``python -m brisca serve --port 0 --bot-delay 0``, as a
process of its own on the loopback interface, and plays hands there two ways:

- ``every seat a client``: each seat of each table is a WebSocket client that joins
  with its link and, whenever it is sent legal actions, plays one at random;
- ``one client + bots``: one client per table, the other seats random bots of the
  server, which play in its worker threads.

Each way plays `TABLES` hands, `K` tables at a time. In the same run, and
between the two, ``brisca.agents.bots.play_game`` plays the same number of hands between
random bots in this process: the engine alone. It reports games per second and
the CPU time per game: the server's (its process's user and system time over the
games, from ``/proc``; elsewhere its whole life, start-up included) and the
clients' (this process), against ``play_game``'s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import subprocess
import sys
import time
import urllib.request
from typing import Any

from websockets.asyncio.client import connect

import brisca
from brisca.agents.bots import RandomBot, play_game


def cpu_of(pid: int) -> float | None:
    """User and system seconds process `pid` has used so far (Linux), else ``None``."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_cpu() -> float:
    """User and system seconds of the child processes that have ended."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


async def seat(ws_url: str, table: str, token: str, rng: random.Random) -> dict[str, Any]:
    """One client at one seat, playing at random until the hand is over; its last update."""
    async with connect(ws_url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "join", "table": table, "token": token}))
        played = -1
        while True:
            message = json.loads(await ws.recv())
            if message["type"] != "update":
                raise RuntimeError(f"refused: {message}")
            if message["over"]:
                return message
            if message["legal"] and message["moves"] != played:  # once a turn
                played = message["moves"]
                action = rng.choice(message["legal"])
                await ws.send(json.dumps({"type": "action", "action": action}))


async def table(base: str, preset: str, seats: list[str], number: int) -> None:
    made = await asyncio.to_thread(post, base + "api/tables", {"rules": preset, "seats": seats})
    ws_url = base.replace("http", "ws") + "ws"
    tokens = [link["url"].split("#", 1)[1] for link in made["links"]]
    ends = await asyncio.gather(
        *(
            seat(ws_url, made["table"], token, random.Random(number * 10 + k))
            for k, token in enumerate(tokens)
        )
    )
    if any(sum(end["result"]["points"]) != 120 for end in ends):
        raise RuntimeError(f"table {made['table']}: a hand without 120 points")


async def tables(base: str, preset: str, seats: list[str], count: int, at_once: int) -> None:
    gate = asyncio.Semaphore(at_once)

    async def one(number: int) -> None:
        async with gate:
            await table(base, preset, seats, number)

    await asyncio.gather(*(one(k) for k in range(count)))


def served(preset: str, seats: list[str], count: int, at_once: int) -> tuple[float, float, float]:
    """Wall seconds, server CPU seconds and client CPU seconds for `count` hands."""
    before = children_cpu()
    server = subprocess.Popen(
        [sys.executable, "-m", "brisca", "serve", "--port", "0", "--bot-delay", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        found = re.search(r"open (http://\S+/) in a browser", server.stdout.readline())
        if found is None:
            raise RuntimeError("the server did not start")
        for page in ("", "static/table.js", "static/cards.js", "static/table.css"):
            with urllib.request.urlopen(found.group(1) + page, timeout=30) as answer:
                answer.read()  # the page and its files are served (and installed)
        started = cpu_of(server.pid)
        clients = time.process_time()
        start = time.perf_counter()
        asyncio.run(tables(found.group(1), preset, seats, count, at_once))
        wall = time.perf_counter() - start
        clients = time.process_time() - clients
        ended = cpu_of(server.pid)
    finally:
        server.terminate()
        server.wait(30)
    if started is None or ended is None:  # no /proc: the whole life of the server, start-up
        return wall, children_cpu() - before, clients  # included, an upper bound
    return wall, ended - started, clients


def engine(preset: str, count: int) -> tuple[float, float]:
    """Wall and CPU seconds of `count` hands of ``play_game`` between random bots."""
    n = brisca.preset(preset).num_players
    cpu, start = time.process_time(), time.perf_counter()
    for k in range(count):
        play_game(preset, [RandomBot(seed=k * n + s) for s in range(n)], seed=k)
    return time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=200, help="hands (tables) per way (default 200)")
    parser.add_argument("--at-once", type=int, default=50, help="tables at a time (default 50)")
    parser.add_argument("--preset", default="spanish-2p")
    args = parser.parse_args()
    n = brisca.preset(args.preset).num_players
    print(f"{args.preset}: {args.n} hands each, {args.at_once} tables at a time")
    print(f"{'':<22} {'games/s':>9} {'server ms/game':>15} {'clients ms/game':>16}")
    rows = []
    people = served(args.preset, ["human"] * n, args.n, args.at_once)
    alone = engine(args.preset, args.n)
    bots = served(args.preset, ["human", *["random"] * (n - 1)], args.n, args.at_once)
    for name, (wall, server, clients) in (
        ("every seat a client", people),
        ("one client + bots", bots),
    ):
        rows.append((name, server))
        print(
            f"{name:<22} {args.n / wall:>9.1f} {1000 * server / args.n:>15.2f} "
            f"{1000 * clients / args.n:>16.2f}"
        )
    wall, cpu = alone
    print(f"{'play_game (no server)':<22} {args.n / wall:>9.1f} {1000 * cpu / args.n:>15.2f}")
    for name, server in rows:
        print(f"server CPU per game, {name}: {server / cpu:.0f}x play_game's")


if __name__ == "__main__":
    main()
