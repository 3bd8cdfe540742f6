"""The Starlette application: the web table, its small HTTP API and the WebSocket.

``pip install 'brisca[serve]'`` installs Starlette and uvicorn; ``brisca serve``
runs :func:`create_app` under uvicorn. Routes:

- ``GET /`` and ``GET /table/{id}``: the web table (one page, plain HTML, CSS and
  JavaScript from ``brisca/server/static``, with no build step and nothing from
  another site);
- ``GET /api/options``: the presets and the bots a table may have;
- ``POST /api/tables``: a new table, ``{"rules": "spanish-2p", "match": false,
  "seats": ["human", "heuristic"]}``; the answer holds a link per person's seat,
  each with that seat's secret token after the ``#``, which browsers never send
  to a server;
- ``GET /api/tables/{id}/records``: the finished hands, as JSON Lines of game
  records that ``brisca replay`` reads; ``GET /api/tables/{id}/match``: a
  finished match as :func:`brisca.dumps_match` writes it;
- ``WS /ws``: the game, as :mod:`brisca.server.protocol` describes it.

One :class:`Hub` per application holds what a process must: each table's lock,
so that moves at a table happen one at a time, the open connections, and the
tasks that let the bots play. The tables themselves are in the
:class:`~brisca.server.store.TableStore`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import AsyncIterator
from importlib import resources

try:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Mount, Route, WebSocketRoute
    from starlette.staticfiles import StaticFiles
    from starlette.websockets import WebSocket
except ImportError as missing:
    raise ImportError(
        f"brisca.server.app needs Starlette: pip install 'brisca[serve]' ({missing})"
    ) from missing

from brisca.agents.bots import BOTS
from brisca.formats.saves import dumps_match
from brisca.game.errors import BriscaError, NotationError, describe
from brisca.game.events import Event
from brisca.game.jsonio import Fields, parse
from brisca.game.match import Match
from brisca.game.presets import PRESETS
from brisca.game.rules import MatchMode
from brisca.server.bot_seats import BotSeats
from brisca.server.protocol import Act, Fill, Join, error, read_message, update
from brisca.server.store import MemoryStore, StoreFull, TableStore
from brisca.server.tables import Table, new_table

__all__ = ["MAX_BODY", "OUTBOX", "Connection", "Hub", "create_app"]

log = logging.getLogger("brisca.server")

#: The longest request body the HTTP API reads, in bytes.
MAX_BODY = 4096
#: How many messages may wait for a client that does not read them; past that the
#: client is disconnected, so that it never holds up its table.
OUTBOX = 256

# What a page may load: its own files, and its own WebSocket; nothing inline.
_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self' ws: wss:; "
    "img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class Connection:
    """One browser's WebSocket, the seat it joined, and the messages waiting for it."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.table: str | None = None
        self.seat: int | None = None
        self.outbox: asyncio.Queue[str] = asyncio.Queue(OUTBOX)
        #: The task that sends the outbox, once :meth:`start` has made it.
        self.writer: asyncio.Task[None] | None = None
        #: The task that closes a connection cut off.
        self.closing: asyncio.Task[None] | None = None

    def start(self) -> asyncio.Task[None]:
        """Start sending the queued messages, in order."""
        self.writer = asyncio.create_task(self._write())
        return self.writer

    def send(self, text: str) -> None:
        """Queue `text` for the client; a client too far behind is cut off instead."""
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.cut_off()

    def cut_off(self) -> None:
        """Stop sending, and close the connection (policy violation: it does not read)."""
        if self.writer is None or self.closing is not None:
            return
        log.warning("cutting off a connection to table %s that does not read", self.table)
        self.writer.cancel()
        self.closing = asyncio.create_task(self._close(1008))

    def stop(self) -> None:
        """Stop sending: the client has gone."""
        if self.writer is not None:
            self.writer.cancel()

    async def _write(self) -> None:
        while True:
            await self.websocket.send_text(await self.outbox.get())

    async def _close(self, code: int) -> None:
        with contextlib.suppress(Exception):  # it may be gone already
            await self.websocket.close(code)


class Hub:
    """What one process keeps besides the store: locks, connections and bot tasks."""

    def __init__(self, store: TableStore, bot_delay: float = 0.0) -> None:
        self.store = store
        #: Seconds a bot waits before it plays, so that people can follow the table.
        self.bot_delay = bot_delay
        self.bots = BotSeats()
        self.connections: dict[str, set[Connection]] = {}
        # A lock lives while a task holds it or waits for it, and no longer.
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._runners: dict[str, asyncio.Task[None]] = {}

    def lock(self, table_id: str) -> asyncio.Lock:
        """The lock that makes the changes to one table happen one at a time."""
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    async def create(self, table: Table) -> None:
        """Keep a new table and let its bots play.

        Raises:
            StoreFull: the store has no room.
        """
        await self.store.add(table)
        self.wake_bots(table)

    async def handle(self, connection: Connection, raw: object) -> None:
        """Answer one message from a client."""
        try:
            message = read_message(raw)
        except NotationError as refused:
            connection.send(error("bad_message", str(refused)))
            return
        if isinstance(message, Join):
            await self.join(connection, message)
        elif connection.table is None or connection.seat is None:
            connection.send(error("not_joined", "join a table first: send a join message"))
        elif isinstance(message, Act):
            await self.act(connection, connection.table, connection.seat, message.action)
        elif isinstance(message, Fill):
            await self.fill(connection, connection.table, message.bot)

    async def join(self, connection: Connection, message: Join) -> None:
        """Seat `connection` where the message's token belongs, and send it the table."""
        if connection.table is not None:
            connection.send(
                error(
                    "bad_request",
                    f"this connection sits at seat {connection.seat} of table "
                    f"{connection.table} already; open another to join another table",
                )
            )
            return
        if await self.store.get(message.table) is None:  # no lock for a table that is not
            shown = describe(message.table, 30, typed=False)
            connection.send(error("no_table", f"no table {shown} at this server"))
            return
        async with self.lock(message.table):
            table = await self.store.get(message.table)
            if table is None:
                connection.send(error("no_table", "this table is gone"))
                return
            seat = table.seat_of(message.token)
            if seat is None:
                connection.send(error("bad_token", "that token holds no seat at this table"))
                return
            table = table.join(seat, message.name)
            await self.store.put(table)
            connection.table, connection.seat = table.id, seat
            self.connections.setdefault(table.id, set()).add(connection)
        self.broadcast(table, ())
        self.wake_bots(table)

    # --8<-- [start:act]
    async def act(self, connection: Connection, table_id: str, seat: int, text: str) -> None:
        """Play a person's action: the library's reason back to them if it is refused."""
        async with self.lock(table_id):
            table = await self.store.get(table_id)
            if table is None:
                connection.send(error("no_table", "this table is gone"))
                return
            try:
                table, events = table.act(seat, text)
            except BriscaError as refused:
                connection.send(error("illegal", str(refused)))
                return
            await self.store.put(table)
        self.broadcast(table, events)
        self.wake_bots(table)

    # --8<-- [end:act]

    async def fill(self, connection: Connection, table_id: str, bot: str) -> None:
        """Put the bot named `bot` at every seat nobody has taken."""
        async with self.lock(table_id):
            table = await self.store.get(table_id)
            if table is None:
                connection.send(error("no_table", "this table is gone"))
                return
            try:
                table, filled = table.fill(bot)
            except BriscaError as refused:
                connection.send(error("bad_request", str(refused)))
                return
            if not filled:
                connection.send(error("bad_request", "every seat is taken already"))
                return
            await self.store.put(table)
        self.broadcast(table, ())
        self.wake_bots(table)

    async def leave(self, connection: Connection) -> None:
        """Forget a closed connection, and tell the table its seat is unconnected."""
        if connection.table is None:
            return
        connections = self.connections.get(connection.table, set())
        connections.discard(connection)
        if not connections:
            self.connections.pop(connection.table, None)
        table = await self.store.get(connection.table)
        if table is not None:
            self.broadcast(table, ())

    # --8<-- [start:broadcast]
    def broadcast(self, table: Table, events: tuple[Event, ...]) -> None:
        """Send each connected seat its own update: its view, its events, its menu."""
        connections = self.connections.get(table.id, ())
        seated = {c.seat for c in connections}
        connected = [seat in seated for seat in range(len(table.seats))]
        made: dict[int, str] = {}
        for connection in connections:
            seat = connection.seat
            assert seat is not None
            if seat not in made:
                made[seat] = update(table, seat, events, connected)
            connection.send(made[seat])

    # --8<-- [end:broadcast]

    # --8<-- [start:bots]
    def wake_bots(self, table: Table) -> None:
        """Start the bots playing at `table` if a bot is to act and none is at work there."""
        seat = table.to_act
        if seat is None or not table.seats[seat].is_bot or table.id in self._runners:
            return
        self._runners[table.id] = asyncio.create_task(self._run_bots(table.id))

    async def _run_bots(self, table_id: str) -> None:
        table: Table | None = None
        try:
            while True:
                table = await self.store.get(table_id)
                seat = None if table is None else table.to_act
                if table is None or seat is None or not table.seats[seat].is_bot:
                    break
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                action = await self.bots.move(table, seat)
                async with self.lock(table_id):
                    table = await self.store.get(table_id)
                    if table is None or table.to_act != seat:
                        continue
                    table, events = table.act(seat, action)
                    await self.store.put(table)
                self.broadcast(table, events)
        except Exception:
            log.exception("the bots of table %s stopped", table_id)
        finally:
            del self._runners[table_id]
            if table is None or table.is_over:
                self.bots.forget(table_id)

    # --8<-- [end:bots]

    async def idle(self) -> None:
        """Wait until no bot is at work at any table (for tests and shutdown)."""
        while self._runners:
            await asyncio.gather(*self._runners.values(), return_exceptions=True)

    async def close(self) -> None:
        """Stop every bot task."""
        for task in list(self._runners.values()):
            task.cancel()
        await asyncio.gather(*self._runners.values(), return_exceptions=True)


def _static_text(name: str) -> str:
    return resources.files("brisca.server").joinpath("static", name).read_text(encoding="utf-8")


def create_app(
    store: TableStore | None = None, *, bot_delay: float = 0.0, seeds: bool = False
) -> Starlette:
    """The web application, with its tables in `store` (a :class:`MemoryStore` by default).

    Args:
        store: where the tables live.
        bot_delay: seconds each bot waits before it plays, so that people can follow.
        seeds: accept a ``seed`` when a table is made, which deals a known game; for
            tests and demonstrations only, since whoever picks the seed knows every card.

    The hub is ``app.state.hub``, and the store ``app.state.hub.store``.
    """
    hub = Hub(store if store is not None else MemoryStore(), bot_delay)
    page = _static_text("index.html")

    async def index(request: Request) -> Response:
        return HTMLResponse(page, headers=_HEADERS)

    async def options(request: Request) -> Response:
        presets = [
            {
                "name": name,
                "players": rules.num_players,
                "match": rules.match_mode is not MatchMode.SINGLE_HAND,
            }
            for name, rules in PRESETS.items()
        ]
        return JSONResponse({"presets": presets, "bots": list(BOTS)})

    async def create(request: Request) -> Response:
        try:
            fields = Fields(parse(await _body(request), "a JSON request"), "request")
            fields.only(("rules", "seats", "match", "seed"))
            seed = fields.get("seed", int, required=False)
            if seed is not None and not seeds:
                raise NotationError("this server deals its own games: leave the seed out")
            table = new_table(
                fields.get("rules", (str, dict)),
                fields.get("seats", list),
                match=fields.get("match", bool, required=False) or False,
                seed=seed,
            )
            await hub.create(table)
        except StoreFull as full:
            return JSONResponse({"error": str(full)}, status_code=503)
        except BriscaError as refused:
            return JSONResponse({"error": str(refused)}, status_code=400)
        base = str(request.base_url).rstrip("/")
        links = [
            {"seat": k, "url": f"{base}/table/{table.id}#{seat.token}"}
            for k, seat in enumerate(table.seats)
            if seat.token is not None
        ]
        return JSONResponse({"table": table.id, "links": links}, status_code=201)

    async def records(request: Request) -> Response:
        table = await hub.store.get(request.path_params["table_id"])
        if table is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        if not table.finished:
            return JSONResponse({"error": "no hand has finished yet"}, status_code=409)
        name = f"brisca-{table.id}.jsonl"
        return Response(
            table.records_text(),
            media_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def match(request: Request) -> Response:
        table = await hub.store.get(request.path_params["table_id"])
        if table is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        if not isinstance(table.game, Match) or not table.is_over:
            return JSONResponse({"error": "no finished match at this table"}, status_code=409)
        return Response(
            dumps_match(table.game),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="brisca-{table.id}.json"'},
        )

    # --8<-- [start:play]
    async def play(websocket: WebSocket) -> None:
        await websocket.accept()
        connection = Connection(websocket)
        connection.start()
        try:
            await _read(hub, connection)
        finally:
            connection.stop()
            await hub.leave(connection)

    # --8<-- [end:play]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await hub.close()

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/table/{table_id}", index),
            Route("/api/options", options),
            Route("/api/tables", create, methods=["POST"]),
            Route("/api/tables/{table_id}/records", records),
            Route("/api/tables/{table_id}/match", match),
            WebSocketRoute("/ws", play),
            Mount("/static", StaticFiles(packages=[("brisca.server", "static")]), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.hub = hub
    return app


async def _read(hub: Hub, connection: Connection) -> None:
    """Hand each message of the client to the hub, until it disconnects."""
    while True:
        message = await connection.websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        await hub.handle(connection, text if text is not None else message.get("bytes"))


async def _body(request: Request) -> bytes:
    """The request's body, refused past `MAX_BODY` bytes before more is read.

    Raises:
        NotationError: the body is too long.
    """
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise NotationError(f"a request body of more than {MAX_BODY} bytes")
    return body
