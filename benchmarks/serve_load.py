"""A load test of ``brisca serve``: many tables played through the real WebSocket protocol.

Run: ``python benchmarks/serve_load.py [-n TABLES] [--at-once K] [--preset P] [--compress]``
(needs ``pip install '.[serve]'``, whose uvicorn brings the ``websockets`` client).

It starts the real server, ``python -m brisca serve --port 0 --bot-delay 0``, as a
process of its own on the loopback interface, and plays hands there two ways:

- ``every seat a client``: each seat of each table is a WebSocket client that joins
  with its link and, whenever it is sent legal actions, plays one at random;
- ``one client + bots``: one client per table, the other seats random bots of the
  server, which play in its worker threads.

In the same run it measures the transport's floor: the same clients against a
server that speaks the protocol's shape under uvicorn with no game behind it, each
update a few dozen bytes (``floor:`` rows; ``--no-floor`` leaves them out). What the
real server costs above the floor is its own work; the floor is HTTP, WebSocket and
the event loop, whatever the server does. Both servers send their updates
uncompressed, as ``brisca serve`` does by default; ``--compress`` runs both with
WebSocket compression (``brisca serve --compress``).

Each table's clients come from a loopback address of their own (``127.0.x.y``),
as the people of different tables would, so that the server's limits per address
do not bind. Each way plays `TABLES` hands, `K` tables at a time. In the same run, and
between the two, ``brisca.agents.bots.play_game`` plays the same number of hands between
random bots in this process: the engine alone. It reports games per second and
the CPU time per game: the server's (its process's user and system time over the
games, from ``/proc``; elsewhere its whole life, start-up included) and the
clients' (this process), against ``play_game``'s.

``--hostile`` measures instead what hostile clients cost the others:
``python benchmarks/serve_load.py --hostile [--moves M] [--store FILE]``. One
client (from 127.0.0.1) plays against a bot and times each move's round trip,
from sending the action to the update that shows it, `M` moves at a time:

- ``quiet``: nothing else runs;
- ``worst messages``: 8 connections from 127.0.0.2 send, as fast as the server
  reads, the costliest messages it refuses: 4096-character JSON arrays of numbers
  (read whole, then refused) and joins with 4000-character tokens;
- ``store attack``: a client from 127.0.0.3 posts new tables as fast as it is
  answered, half of them whole matches of bots alone, half tables for a person
  that nobody joins, and holds bodies half-sent, while the measured client also
  makes a table for every hand it plays.

Every address is a loopback one; every loop is bounded in count and in time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import random
import re
import resource
import signal
import subprocess
import sys
import time
import urllib.error
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


def post(base: str, body: dict[str, Any], source: str) -> Any:
    """POST a new table from the loopback address `source`; the answer."""
    host, port = base.split("//", 1)[1].rstrip("/").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30, source_address=(source, 0))
    try:
        headers = {"Content-Type": "application/json"}
        connection.request("POST", "/api/tables", json.dumps(body).encode(), headers)
        answer = connection.getresponse()
        made = json.loads(answer.read())
        if answer.status != 201:
            raise RuntimeError(f"no table: {answer.status} {made}")
        return made
    finally:
        connection.close()


def address(number: int) -> str:
    """The loopback address of table `number`'s clients: one per table, as if each
    table's people came from elsewhere, so that the limits per address never bind."""
    return f"127.0.{1 + number // 250 % 250}.{1 + number % 250}"


async def seat(
    ws_url: str, table: str, token: str, rng: random.Random, source: str
) -> dict[str, Any]:
    """One client at one seat, playing at random until the hand is over; its last update."""
    async with connect(ws_url, max_size=2**22, proxy=None, local_addr=(source, 0)) as ws:
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
    source = address(number)
    made = await asyncio.to_thread(post, base, {"rules": preset, "seats": seats}, source)
    ws_url = base.replace("http", "ws") + "ws"
    tokens = [link["url"].split("#", 1)[1] for link in made["links"]]
    ends = await asyncio.gather(
        *(
            seat(ws_url, made["table"], token, random.Random(number * 10 + k), source)
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


SERVE = [sys.executable, "-m", "brisca", "serve", "--port", "0", "--bot-delay", "0"]


def served(
    preset: str, seats: list[str], count: int, at_once: int, command: list[str] = SERVE
) -> tuple[float, float, float]:
    """Wall seconds, server CPU seconds and client CPU seconds for `count` hands."""
    before = children_cpu()
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        found = re.search(r"open (http://\S+/) in a browser", server.stdout.readline())
        if found is None:
            raise RuntimeError("the server did not start")
        if "--floor-server" not in command:
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


# ---------------------------------------------------------------------------
# The transport's floor: the same protocol, tiny constant updates, no game


def floor_server(preset: str, compress: bool) -> None:
    """Serve the protocol's shape with no game behind it, under uvicorn as ``brisca
    serve`` runs it: a table is a move counter, each move (a person's, or a bot's, at
    once) sends every connected seat an update of a few dozen bytes, and a hand ends
    after as many moves as a hand of `preset` has. What it costs a game is the floor
    of HTTP, WebSocket and event loop under the real server."""
    import secrets

    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    from brisca.cli.serve import MAX_FRAME, listen, url

    n = brisca.preset(preset).num_players
    moves = len(play_game(preset, [RandomBot(seed=s) for s in range(n)], seed=0)[0].history)
    tables: dict[str, dict[str, Any]] = {}

    async def create(request: Request) -> Response:
        seats = json.loads(await request.body())["seats"]
        made = secrets.token_urlsafe(9)
        tables[made] = {"seats": seats, "moves": 0, "sockets": {}}
        links = [
            {"seat": k, "url": f"{request.base_url}table/{made}#{k}"}
            for k, kind in enumerate(seats)
            if kind == "human"
        ]
        return JSONResponse({"table": made, "links": links}, status_code=201)

    async def broadcast(table: dict[str, Any]) -> None:
        over = table["moves"] >= moves
        for seat, socket in list(table["sockets"].items()):
            mine = not over and table["moves"] % n == seat
            message = {
                "type": "update",
                "moves": table["moves"],
                "legal": ["1O"] if mine else [],
                "over": over,
                "result": {"points": [120] + [0] * (n - 1)} if over else None,
            }
            await socket.send_text(json.dumps(message))

    async def bots(table: dict[str, Any]) -> None:
        while table["moves"] < moves and table["seats"][table["moves"] % n] != "human":
            table["moves"] += 1
            await broadcast(table)

    async def play(socket: WebSocket) -> None:
        await socket.accept()
        table: dict[str, Any] | None = None
        try:
            while True:
                message = json.loads(await socket.receive_text())
                if message["type"] == "join":
                    table = tables[message["table"]]
                    table["sockets"][int(message["token"])] = socket
                    await broadcast(table)
                elif table is not None and table["moves"] < moves:
                    table["moves"] += 1
                    await broadcast(table)
                if table is not None:
                    await bots(table)
        except WebSocketDisconnect:
            pass

    app = Starlette(
        routes=[Route("/api/tables", create, methods=["POST"]), WebSocketRoute("/ws", play)]
    )
    sock = listen("127.0.0.1", 0)
    print(f"floor: open {url(sock)} in a browser", flush=True)
    # Compressed only with --compress, as `brisca serve` is.
    config = uvicorn.Config(
        app,
        log_level="warning",
        ws_max_size=MAX_FRAME,
        ws_per_message_deflate=compress,
        lifespan="off",
    )
    uvicorn.Server(config).run(sockets=[sock])


def engine(preset: str, count: int) -> tuple[float, float]:
    """Wall and CPU seconds of `count` hands of ``play_game`` between random bots."""
    n = brisca.preset(preset).num_players
    cpu, start = time.process_time(), time.perf_counter()
    for k in range(count):
        play_game(preset, [RandomBot(seed=k * n + s) for s in range(n)], seed=k)
    return time.perf_counter() - start, time.process_time() - cpu


# ---------------------------------------------------------------------------
# --hostile: the round trip of a move with and without hostile clients

#: How long any one hostile scenario may run, in seconds, whatever happens.
DEADLINE = 120.0


def start_server(store: str | None) -> tuple[subprocess.Popen[str], str]:
    """A `brisca serve` process on a free loopback port, and its base URL."""
    command = [sys.executable, "-m", "brisca", "serve", "--port", "0", "--bot-delay", "0"]
    if store is not None:
        command += ["--store", store]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    found = re.search(r"open (http://\S+/) in a browser", server.stdout.readline())
    if found is None:
        server.terminate()
        raise RuntimeError("the server did not start")
    return server, found.group(1)


def post_from(base: str, source: str, body: bytes, content_type: str = "application/json") -> int:
    """POST `body` to /api/tables from the loopback address `source`; the status."""
    host, port = base.split("//", 1)[1].rstrip("/").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30, source_address=(source, 0))
    try:
        connection.request("POST", "/api/tables", body, {"Content-Type": content_type})
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


async def timed_moves(base: str, moves: int) -> list[float]:
    """Play `moves` moves against a bot from 127.0.0.1, a new table each hand: the
    seconds from each action sent to the update that shows it."""
    rng = random.Random(1)
    times: list[float] = []
    body = json.dumps({"rules": "spanish-2p", "seats": ["human", "random"]}).encode()
    ws_url = base.replace("http", "ws") + "ws"
    while len(times) < moves:
        status, made = await asyncio.to_thread(post_made, base, body)
        if status != 201:
            raise RuntimeError(f"the measured client could not make a table: {status}")
        token = made["links"][0]["url"].split("#", 1)[1]
        async with connect(ws_url, proxy=None, local_addr=("127.0.0.1", 0)) as ws:
            await ws.send(json.dumps({"type": "join", "table": made["table"], "token": token}))
            message = json.loads(await ws.recv())
            while not message["over"] and len(times) < moves:
                if message["legal"]:
                    sent = time.perf_counter()
                    await ws.send(
                        json.dumps({"type": "action", "action": rng.choice(message["legal"])})
                    )
                    target = message["moves"] + 1
                    while message["moves"] < target:
                        message = json.loads(await ws.recv())
                    times.append(time.perf_counter() - sent)
                else:
                    message = json.loads(await ws.recv())
    return times


def post_made(base: str, body: bytes) -> tuple[int, Any]:
    request = urllib.request.Request(
        base + "api/tables", data=body, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, None


async def worst_messages(base: str, stop: asyncio.Event, counts: dict[str, int]) -> None:
    """Eight connections from 127.0.0.2 sending the costliest refused messages."""
    array = "[" + ",".join(["1"] * 2047) + "]"  # 4095 characters, every one read
    join = json.dumps({"type": "join", "table": "x" * 30, "token": "y" * 4000})
    ws_url = base.replace("http", "ws") + "ws"

    async def one() -> None:
        async with connect(ws_url, proxy=None, local_addr=("127.0.0.2", 0)) as ws:

            async def drain() -> None:
                with contextlib.suppress(Exception):  # the server may close it
                    async for _ in ws:
                        pass

            reader = asyncio.create_task(drain())
            k = 0
            while not stop.is_set() and k < 1_000_000:
                await ws.send(array if k % 2 else join)
                counts["messages sent"] = counts.get("messages sent", 0) + 1
                k += 1
            reader.cancel()

    ends = await asyncio.gather(*(one() for _ in range(8)), return_exceptions=True)
    counts["connections closed by the server"] = sum(isinstance(e, Exception) for e in ends)


async def store_attack(base: str, stop: asyncio.Event, counts: dict[str, int]) -> None:
    """Tables as fast as they are answered from 127.0.0.3 (matches of bots alone, and
    tables nobody joins), and bodies held half-sent."""
    bodies = [
        json.dumps({"rules": "spanish-2p", "seats": ["human", "random"]}).encode(),
        json.dumps({"rules": "spanish-2p", "seats": ["random", "random"], "match": True}).encode(),
    ]
    host, port = base.split("//", 1)[1].rstrip("/").split(":")

    async def maker() -> None:
        k = 0
        while not stop.is_set() and k < 100_000:
            status = await asyncio.to_thread(post_from, base, "127.0.0.3", bodies[k % 2])
            counts[f"POST {status}"] = counts.get(f"POST {status}", 0) + 1
            k += 1

    async def slow_body() -> None:
        k = 0
        while not stop.is_set() and k < 10_000:
            try:
                reader, writer = await asyncio.open_connection(
                    host, int(port), local_addr=("127.0.0.3", 0)
                )
            except OSError:
                await asyncio.sleep(0.1)
                continue
            writer.write(
                b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 1000\r\n\r\n{"
            )
            with contextlib.suppress(Exception):
                line = await asyncio.wait_for(reader.readline(), 30)
                status = int(line.split()[1]) if line else 0
                counts[f"half-sent {status}"] = counts.get(f"half-sent {status}", 0) + 1
            writer.close()
            k += 1

    await asyncio.gather(*(maker() for _ in range(4)), *(slow_body() for _ in range(16)))


ATTACKS = {"worst": worst_messages, "store": store_attack}


def attack(name: str, base: str) -> None:
    """Run one attack, in a process of its own, until SIGTERM or `DEADLINE`; print
    what it got as JSON."""

    async def run() -> dict[str, int]:
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        counts: dict[str, int] = {}
        task = asyncio.create_task(ATTACKS[name](base, stop, counts))
        print("ready", flush=True)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stop.wait(), DEADLINE)
        stop.set()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 40)
        return counts

    print(json.dumps(asyncio.run(run())), flush=True)


def round_trip(base: str, moves: int, name: str | None) -> tuple[list[float], dict[str, int]]:
    """The measured client's round trips, while the attack `name` runs in another process;
    and what the attack got."""
    attacker = None
    if name is not None:
        attacker = subprocess.Popen(
            [sys.executable, __file__, "--attack", name, "--base", base],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert attacker.stdout is not None
        if attacker.stdout.readline().strip() != "ready":
            raise RuntimeError(f"the {name} attack did not start")
        time.sleep(1.0)  # let it get going
    try:
        times = asyncio.run(asyncio.wait_for(timed_moves(base, moves), DEADLINE))
    finally:
        got: dict[str, int] = {}
        if attacker is not None:
            attacker.terminate()
            out, _ = attacker.communicate(timeout=60)
            got = json.loads(out or "{}")
    return times, got


def hostile(moves: int, store: str | None) -> None:
    server, base = start_server(store)
    try:
        print(f"move round trip, {moves} moves against a bot, ms (store: {store or 'memory'})")
        print(f"{'':<16} {'median':>8} {'p90':>8} {'max':>8} {'server CPU':>11}  the attacker got")
        for label, name in (
            ("quiet", None),
            ("worst messages", "worst"),
            ("store attack", "store"),
        ):
            cpu = cpu_of(server.pid)
            start = time.perf_counter()
            times, got = round_trip(base, moves, name)
            wall = time.perf_counter() - start
            used = cpu_of(server.pid)
            times.sort()
            median, p90 = times[len(times) // 2], times[int(len(times) * 0.9)]
            load = "" if cpu is None or used is None else f"{100 * (used - cpu) / wall:.0f}%"
            print(
                f"{label:<16} {1000 * median:>8.1f} {1000 * p90:>8.1f} {1000 * times[-1]:>8.1f} "
                f"{load:>11}  " + ", ".join(f"{n} {what}" for what, n in sorted(got.items()))
            )
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:  # uvicorn waits for every connection to close
            server.kill()
            server.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=200, help="hands (tables) per way (default 200)")
    parser.add_argument("--at-once", type=int, default=50, help="tables at a time (default 50)")
    parser.add_argument("--preset", default="spanish-2p")
    parser.add_argument("--hostile", action="store_true", help="time moves under hostile clients")
    parser.add_argument(
        "--moves", type=int, default=200, help="moves timed per scenario (--hostile)"
    )
    parser.add_argument("--store", help="run the server with --store FILE (--hostile)")
    parser.add_argument(
        "--no-floor", action="store_true", help="leave out the transport's floor (tiny updates)"
    )
    parser.add_argument(
        "--compress", action="store_true", help="both servers with WebSocket compression"
    )
    parser.add_argument("--floor-server", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--attack", choices=list(ATTACKS), help=argparse.SUPPRESS)
    parser.add_argument("--base", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.attack:
        attack(args.attack, args.base)
        return
    if args.hostile:
        hostile(args.moves, args.store)
        return
    if args.floor_server:
        floor_server(args.preset, args.compress)
        return
    n = brisca.preset(args.preset).num_players
    print(f"{args.preset}: {args.n} hands each, {args.at_once} tables at a time")
    print(f"{'':<30} {'games/s':>9} {'server ms/game':>15} {'clients ms/game':>16}")
    rows = []
    people_seats = ["human"] * n
    bot_seats = ["human", *["random"] * (n - 1)]
    compress = ["--compress"] if args.compress else []
    serve = SERVE + compress
    floor = [sys.executable, __file__, "--floor-server", "--preset", args.preset, *compress]
    people = served(args.preset, people_seats, args.n, args.at_once, serve)
    alone = engine(args.preset, args.n)
    bots = served(args.preset, bot_seats, args.n, args.at_once, serve)
    measured = [("every seat a client", people), ("one client + bots", bots)]
    if not args.no_floor:
        measured += [
            (
                "floor: every seat a client",
                served(args.preset, people_seats, args.n, args.at_once, floor),
            ),
            (
                "floor: one client + bots",
                served(args.preset, bot_seats, args.n, args.at_once, floor),
            ),
        ]
    for name, (wall, server, clients) in measured:
        rows.append((name, server))
        print(
            f"{name:<30} {args.n / wall:>9.1f} {1000 * server / args.n:>15.2f} "
            f"{1000 * clients / args.n:>16.2f}"
        )
    wall, cpu = alone
    print(f"{'play_game (no server)':<30} {args.n / wall:>9.1f} {1000 * cpu / args.n:>15.2f}")
    for name, server in rows:
        print(f"server CPU per game, {name}: {server / cpu:.0f}x play_game's")


if __name__ == "__main__":
    main()
