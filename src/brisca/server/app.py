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
so that moves at a table happen one at a time, the open connections, what each
client address holds, and the tasks that let the bots play. The tables
themselves are in the :class:`~brisca.server.store.TableStore`.

No client may deny the service to the others: :class:`Limits` bounds what one
address holds (live tables, connections, requests under way, messages a second),
the connections on one seat, the tables of bots alone, how long a body may take
and how long a table may lie idle.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections.abc import AsyncIterator, Callable
from importlib import resources

import attrs

try:
    from starlette.applications import Starlette
    from starlette.requests import ClientDisconnect, Request
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
from brisca.server.protocol import Act, Fill, Join, Sent, error, read_message, sent, update
from brisca.server.store import MemoryStore, StoreFull, TableStore
from brisca.server.tables import Table, new_table

__all__ = [
    "MAX_BODY",
    "OUTBOX",
    "Client",
    "Connection",
    "Hub",
    "Limits",
    "Refused",
    "create_app",
]

log = logging.getLogger("brisca.server")

#: The longest request body the HTTP API reads, in bytes.
MAX_BODY = 4096
#: How many messages may wait for a client that does not read them; past that the
#: client is disconnected, so that it never holds up its table.
OUTBOX = 256
#: Seconds a close waits for its frame to be sent: a client that reads nothing never
#: takes it.
CLOSE_TIMEOUT = 10.0
# The bounds of the limits, so that each is finite, and an int one converts to a float,
# as the clocks and sleeps need (10**400 seconds passed, then overflowed in the sweeper).
#: The most a count of :class:`Limits` may be: far more than one server holds.
MOST_COUNT = 10**9
#: The bounds of a time of :class:`Limits`, in seconds: a hundredth of a second, a year.
LEAST_SECONDS, MOST_SECONDS = 0.01, 366 * 24 * 3600
#: The bounds of a rate of :class:`Limits`, in messages a second.
LEAST_RATE, MOST_RATE = 0.01, 10**9
#: The longest a bot may wait before it plays, in seconds.
MOST_BOT_DELAY = 60
#: The bounds of a clock's reading, in seconds: any clock's, for tens of millions of years.
_MOST_CLOCK = 10**15


def _number(value: object, what: str, least: float, most: float, kind: str = "a number") -> float:
    """`value` if it is an int or float (a bool is not) from `least` to `most`; otherwise
    a `BriscaError` saying that `what` must be `kind` so. A NaN or infinity is never within."""
    if type(value) not in (int, float) or not least <= value <= most:  # type: ignore[operator]
        raise BriscaError(
            f"{what} must be {kind} from {least:g} to {most:,}, got {describe(value)}"
        )
    return value  # type: ignore[return-value]


def _seconds(instance: object, attribute: attrs.Attribute[float], value: object) -> None:
    kind = "a positive number of seconds"
    _number(value, attribute.name, LEAST_SECONDS, MOST_SECONDS, kind)


def _rate(instance: object, attribute: attrs.Attribute[float], value: object) -> None:
    _number(value, attribute.name, LEAST_RATE, MOST_RATE, "a positive number")


def _count(instance: object, attribute: attrs.Attribute[int], value: object) -> None:
    if type(value) is not int or not 1 <= value <= MOST_COUNT:
        raise BriscaError(
            f"{attribute.name} must be a positive int, at most {MOST_COUNT:,}, "
            f"got {describe(value)}"
        )


# --8<-- [start:limits]
@attrs.frozen
class Limits:
    """What one client may hold, so that no client can deny the service to the others.

    A client is an address (behind a reverse proxy, every client is the proxy's:
    limit there instead). Every limit is configurable; the defaults suit a server
    open to a few hundred people.

    Raises:
        BriscaError: a count that is not an int from 1 to :data:`MOST_COUNT`, or a time
            or rate that is not a number (an int or float) within its bounds: from
            :data:`LEAST_SECONDS` to :data:`MOST_SECONDS`, from :data:`LEAST_RATE` to
            :data:`MOST_RATE`.
    """

    #: Tables in play that one address may have made: a finished or expired table
    #: no longer counts. Past it, a new table is refused with 429.
    tables_per_address: int = attrs.field(default=20, validator=_count)
    #: WebSocket connections one address may hold open; past it, one is refused.
    connections_per_address: int = attrs.field(default=32, validator=_count)
    #: Connections joined to one seat (tabs with the same link); a new one closes the
    #: oldest, which is told with a ``replaced`` error.
    connections_per_seat: int = attrs.field(default=3, validator=_count)
    #: HTTP requests of one address sending their bodies at once; past it, 429.
    requests_per_address: int = attrs.field(default=8, validator=_count)
    #: Messages a second that one address's connections may send together, with a
    #: burst of as many; past it, the server waits before it reads on.
    messages_per_second: float = attrs.field(default=50.0, validator=_rate)
    #: Tables of bots alone (no person's seat) in play on the whole server; past it,
    #: a new one is refused with 503.
    bot_tables: int = attrs.field(default=4, validator=_count)
    #: Seconds after which a table nobody has moved at, joined or made is forgotten;
    #: its seats get an ``expired`` error, and their connections are closed.
    idle_timeout: float = attrs.field(default=3600.0, validator=_seconds)
    #: Seconds a request may take to send its body; past it, 408.
    body_timeout: float = attrs.field(default=10.0, validator=_seconds)


# --8<-- [end:limits]


class Refused(BriscaError):
    """A request that the limits refuse, with its HTTP `status`."""

    def __init__(self, why: str, status: int) -> None:
        super().__init__(why)
        self.status = status


class Client:
    """What one address holds: connections, requests under way, tables in play, and
    its budget of messages (a token bucket of `rate` a second, `rate` deep).

    Raises:
        BriscaError: `rate` is not a rate a :class:`Limits` takes, or `now` not a
            clock's reading (a finite number).
    """

    def __init__(self, rate: float, now: float) -> None:
        self.rate = _number(rate, "rate", LEAST_RATE, MOST_RATE)
        _number(now, "now", -_MOST_CLOCK, _MOST_CLOCK)
        self.connections = 0
        self.requests = 0
        self.tables: set[str] = set()
        self._tokens = rate
        self._stamp = now

    def delay(self, now: float) -> float:
        """Spend a message at `now`: the seconds to wait before the next is read.

        Raises:
            BriscaError: `now` is not a clock's reading (a finite number).
        """
        _number(now, "now", -_MOST_CLOCK, _MOST_CLOCK)  # the hub's clock may be anyone's
        self._tokens = min(self.rate, self._tokens + (now - self._stamp) * self.rate) - 1
        self._stamp = now
        return max(0.0, -self._tokens / self.rate)

    @property
    def holds_nothing(self) -> bool:
        """Whether the address holds nothing, so that it need not be remembered."""
        return not (self.connections or self.requests or self.tables)


# What a page may load: its own files, and its own WebSocket; nothing inline.
_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self' ws: wss:; "
    "img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class Connection:
    """One browser's WebSocket, the seat it joined, and the messages waiting for it."""

    def __init__(self, websocket: WebSocket, address: str = "") -> None:
        self.websocket = websocket
        #: The client's address, by which its limits are counted.
        self.address = address
        self.table: str | None = None
        self.seat: int | None = None
        # The messages to send, in order; ``None`` says: close once the rest is sent.
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(OUTBOX)
        #: The task that sends the outbox, once :meth:`start` has made it.
        self.writer: asyncio.Task[None] | None = None
        #: The task that closes a connection cut off.
        self.closing: asyncio.Task[None] | None = None
        #: Whether the connection is being closed: the hub sends it nothing more.
        self.closed = False
        #: What it has been sent of the hand in progress, by which its next update
        #: holds only the new finished tricks; ``None``: the next gets a full view.
        self.sent: Sent | None = None

    def start(self) -> asyncio.Task[None]:
        """Start sending the queued messages, in order."""
        self.writer = asyncio.create_task(self._write())
        return self.writer

    def send(self, text: str) -> None:
        """Queue `text` for the client; a client too far behind is cut off instead."""
        if self.closed:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.cut_off()

    def finish(self, last: str) -> None:
        """Send `last` after what is queued, then close the connection (normally)."""
        self.send(last)
        if not self.closed:
            self.closed = True
            try:
                self.outbox.put_nowait(None)
            except asyncio.QueueFull:
                self.closed = False  # so that cut_off goes on
                self.cut_off()

    def cut_off(self) -> None:
        """Stop sending, and close the connection (policy violation: it does not read)."""
        if self.closing is not None:
            return
        log.warning("cutting off a connection to table %s that does not read", self.table)
        self.closed = True
        if self.writer is not None:
            self.writer.cancel()
        while not self.outbox.empty():  # never to be sent: let the updates go
            self.outbox.get_nowait()
        self.closing = asyncio.create_task(self._close(1008))

    def stop(self) -> None:
        """Stop sending: the client has gone."""
        self.closed = True
        if self.writer is not None:
            self.writer.cancel()

    async def _write(self) -> None:
        while (text := await self.outbox.get()) is not None:
            await self.websocket.send_text(text)
        await self._close(1000)

    async def _close(self, code: int) -> None:
        # A client that reads nothing takes no close frame either: give up on it after
        # a while. Its connection stays counted against its address until it goes.
        with contextlib.suppress(Exception):  # it may be gone already, or never read
            await asyncio.wait_for(self.websocket.close(code), CLOSE_TIMEOUT)


class Hub:
    """What one process keeps besides the store: locks, connections, clients and bot tasks.

    Raises:
        BriscaError: `store` is not a TableStore, `bot_delay` not a number from 0 to
            :data:`MOST_BOT_DELAY`, `limits` not a Limits or None, or `clock` not callable.
    """

    def __init__(
        self,
        store: TableStore,
        bot_delay: float = 0.0,
        limits: Limits | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not issubclass(type(store), TableStore):  # not isinstance: its own __class__ may lie
            raise BriscaError(f"store must be a brisca TableStore, got {describe(store)}")
        _number(bot_delay, "bot_delay", 0, MOST_BOT_DELAY, "a number of seconds")
        if limits is not None and type(limits) is not Limits:
            raise BriscaError(f"limits must be a Limits or None, got {describe(limits)}")
        if not callable(clock):
            raise BriscaError(f"clock must be a callable, got {describe(clock)}")
        self.store = store
        #: Seconds a bot waits before it plays, so that people can follow the table.
        self.bot_delay = bot_delay
        self.limits = limits if limits is not None else Limits()
        self.clock = clock
        self.bots = BotSeats()
        #: The connections joined to each table, the oldest first.
        self.connections: dict[str, list[Connection]] = {}
        #: What each address holds, while it holds anything.
        self.clients: dict[str, Client] = {}
        # Who made each table in play (by address), and which of them bots alone play.
        self._makers: dict[str, str] = {}
        self._bots_alone: set[str] = set()
        # A lock lives while a task holds it or waits for it, and no longer.
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._runners: dict[str, asyncio.Task[None]] = {}
        # The writes of new tables whose makers stopped waiting, which `close` awaits.
        self._writes: set[asyncio.Future[None]] = set()
        self._closed = False

    def lock(self, table_id: str) -> asyncio.Lock:
        """The lock that makes the changes to one table happen one at a time."""
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    def client(self, address: str) -> Client:
        """What `address` holds (made on first use; :meth:`release` forgets it)."""
        client = self.clients.get(address)
        if client is None:
            client = self.clients[address] = Client(self.limits.messages_per_second, self.clock())
        return client

    def release(self, address: str) -> None:
        """Forget `address` if it holds nothing any more."""
        client = self.clients.get(address)
        if client is not None and client.holds_nothing:
            del self.clients[address]

    async def create(self, table: Table, address: str = "") -> None:
        """Keep a new table made by `address`, and let its bots play.

        Raises:
            Refused: the address has as many tables in play as it may (429), or the
                server as many tables of bots alone (503).
            StoreFull: the store has no room.
        """
        held = self.clients[address].tables if address in self.clients else ()
        if len(held) >= self.limits.tables_per_address:
            raise Refused(
                f"you have {len(held)} tables in play, the limit; finish one, "
                f"or wait until one has been idle for {self.limits.idle_timeout:g} s",
                429,
            )
        alone = all(seat.is_bot for seat in table.seats)
        if alone and len(self._bots_alone) >= self.limits.bot_tables:
            raise Refused(
                f"the server plays {self.limits.bot_tables} tables of bots alone, its "
                "limit; seat a person, or try again later",
                503,
            )
        # Its place is taken before the store's wait (a thread's, for a file), so that
        # requests that come together all count; a failed add gives it back.
        if not table.is_over:
            self.client(address).tables.add(table.id)
            self._makers[table.id] = address
            if alone:
                self._bots_alone.add(table.id)
        adding = asyncio.ensure_future(self.store.add(table))
        try:
            await asyncio.shield(adding)
        except asyncio.CancelledError:
            # The caller stopped waiting, not the write (a file's thread goes on): how
            # the write ends decides the table's place, and wakes its bots if it landed.
            self._writes.add(adding)
            adding.add_done_callback(self._writes.discard)
            adding.add_done_callback(lambda done: self._added(table, done))
            raise
        except BaseException:
            self._settle(table.id)
            raise
        self.wake_bots(table)

    def _added(self, table: Table, done: asyncio.Future[None]) -> None:
        """A table's write ended after its maker stopped waiting: keep it or give it up
        (and its bots play only while the hub does)."""
        failed = done.cancelled() or done.exception() is not None
        if failed:
            why = "cancelled" if done.cancelled() else done.exception()
            log.warning("table %s, whose maker stopped waiting, was not written: %s", table.id, why)
        if failed or self._closed:
            self._settle(table.id)
        else:
            self.wake_bots(table)

    def _settle(self, table_id: str) -> None:
        """A table is over or gone: it no longer counts against its maker."""
        self._bots_alone.discard(table_id)
        address = self._makers.pop(table_id, None)
        if address is not None:
            self.clients[address].tables.discard(table_id)
            self.release(address)

    async def _put(self, table: Table) -> None:
        """Write a changed table, and settle it once over."""
        await self.store.put(table)
        if table.is_over:
            self._settle(table.id)

    async def handle(self, connection: Connection, raw: object) -> None:
        """Answer one message from a client (none from a connection being closed)."""
        if connection.closed:
            return
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
        """Seat `connection` where the message's token belongs, and send it the table.

        Past :attr:`Limits.connections_per_seat` connections on the seat, the oldest
        is told it was replaced and closed."""
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
            await self._put(table)
            connection.table, connection.seat = table.id, seat
            joined = self.connections.setdefault(table.id, [])
            there = [c for c in joined if c.seat == seat and not c.closed]
            for old in there[: max(0, len(there) - self.limits.connections_per_seat + 1)]:
                joined.remove(old)
                old.finish(
                    error(
                        "replaced",
                        f"this seat is open in {self.limits.connections_per_seat} other "
                        "places; this one was closed",
                    )
                )
            joined.append(connection)
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
            await self._put(table)
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
            await self._put(table)
        self.broadcast(table, ())
        self.wake_bots(table)

    async def leave(self, connection: Connection) -> None:
        """Forget a closed connection, and tell the table its seat is unconnected."""
        if connection.table is None:
            return
        connections = self.connections.get(connection.table, [])
        if connection in connections:
            connections.remove(connection)
        if not connections:
            self.connections.pop(connection.table, None)
        async with self.lock(connection.table):  # not a move still being written
            table = await self.store.get(connection.table)
            if table is not None:
                self.broadcast(table, ())

    # --8<-- [start:broadcast]
    def broadcast(self, table: Table, events: tuple[Event, ...]) -> None:
        """Send each connected seat its own update: its view, its events, its menu.

        Each connection gets the finished tricks it has not been sent yet (a new
        connection all of them), so the updates of one seat differ only by where
        their tricks start. A connection being closed (cut off, replaced) is
        forgotten here: it is sent nothing more, and its seat shows as unconnected
        from the next update."""
        connections = self.connections.get(table.id, [])
        seated = {c.seat for c in connections if not c.closed}
        connected = [seat in seated for seat in range(len(table.seats))]
        now = sent(table)
        made: dict[tuple[int, Sent | None], str] = {}
        for connection in connections:
            seat = connection.seat
            assert seat is not None
            key = (seat, connection.sent)
            if key not in made:
                made[key] = update(table, seat, events, connected, connection.sent)
            connection.send(made[key])
            connection.sent = now
        connections[:] = [c for c in connections if not c.closed]

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
                    await self._put(table)
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

    async def sweep(self) -> list[str]:
        """Forget the tables idle for :attr:`Limits.idle_timeout`: tell their seats, close
        their connections, stop their bots. The ids of the tables forgotten."""
        gone = await self.store.expire(self.limits.idle_timeout)
        for table_id in gone:
            self._settle(table_id)
            self.bots.forget(table_id)
            why = f"this table was idle for {self.limits.idle_timeout:g} s and is closed"
            for connection in self.connections.pop(table_id, []):
                connection.finish(error("expired", why))
        return gone

    async def sweeping(self) -> None:
        """Sweep every minute (or every quarter of the idle timeout, if less), for ever."""
        while True:
            await asyncio.sleep(min(self.limits.idle_timeout / 4, 60.0))
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep of idle tables failed")

    async def close(self) -> None:
        """Stop every bot task, once the writes of new tables under way have ended."""
        self._closed = True
        await asyncio.gather(*self._writes, return_exceptions=True)
        for task in list(self._runners.values()):
            task.cancel()
        await asyncio.gather(*self._runners.values(), return_exceptions=True)


def _static_text(name: str) -> str:
    return resources.files("brisca.server").joinpath("static", name).read_text(encoding="utf-8")


def create_app(
    store: TableStore | None = None,
    *,
    bot_delay: float = 0.0,
    seeds: bool = False,
    limits: Limits | None = None,
) -> Starlette:
    """The web application, with its tables in `store` (a :class:`MemoryStore` by default).

    Args:
        store: where the tables live.
        bot_delay: seconds each bot waits before it plays, so that people can follow.
        seeds: accept a ``seed`` when a table is made, which deals a known game; for
            tests and demonstrations only, since whoever picks the seed knows every card.
        limits: what one client may hold (:class:`Limits`, its defaults when omitted).

    Raises:
        BriscaError: an argument of the wrong type, or a `bot_delay` that is not a
            number from 0 to :data:`MOST_BOT_DELAY`.

    The hub is ``app.state.hub``, and the store ``app.state.hub.store``. While the
    application runs (between its lifespan's start and end), it forgets idle tables.
    """
    if type(seeds) is not bool:  # read at every request: its own __bool__ never runs there
        raise BriscaError(f"seeds must be True or False, got {describe(seeds)}")
    hub = Hub(store if store is not None else MemoryStore(), bot_delay, limits)
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
        address = request.client.host if request.client is not None else ""
        try:
            body = await _body(request, hub, address)
            fields = Fields(parse(body, "a JSON request"), "request")
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
            await hub.create(table, address)
        except ClientDisconnect:  # it hung up mid-body: nobody to answer
            return Response(status_code=400)
        except Refused as refused:
            return JSONResponse({"error": str(refused)}, status_code=refused.status)
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
        address = websocket.client.host if websocket.client is not None else ""
        client = hub.client(address)
        if client.connections >= hub.limits.connections_per_address:
            hub.release(address)
            await websocket.close(1008)  # before accepting: the handshake gets a 403
            return
        client.connections += 1
        try:
            await websocket.accept()
            connection = Connection(websocket, address)
            connection.start()
            try:
                await _read(hub, connection, client)
            finally:
                connection.stop()
                await hub.leave(connection)
        finally:
            client.connections -= 1
            hub.release(address)

    # --8<-- [end:play]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        sweeper = asyncio.create_task(hub.sweeping())
        try:
            yield
        finally:
            sweeper.cancel()
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


# --8<-- [start:read]
async def _read(hub: Hub, connection: Connection, client: Client) -> None:
    """Hand each message of the client to the hub, one at a time, until it disconnects.

    After each message the loop yields to the others, and waits as long as the
    address's budget of messages says: a flood from one client is read at
    :attr:`Limits.messages_per_second`, and never starves the other connections."""
    while True:
        message = await connection.websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        await hub.handle(connection, text if text is not None else message.get("bytes"))
        await asyncio.sleep(client.delay(hub.clock()))


# --8<-- [end:read]


def _is_json(content_type: str) -> bool:
    return content_type.split(";", 1)[0].strip().lower() == "application/json"


async def _body(request: Request, hub: Hub, address: str) -> bytes:
    """The request's body: JSON only, at most `MAX_BODY` bytes, sent within the time limit.

    A body that is not JSON is refused before it is read, so that a form on another
    site (which can only send form or plain-text bodies) cannot make tables here.

    Raises:
        Refused: not JSON (415), too long (413), too many requests of the address under
            way (429), or slower than :attr:`Limits.body_timeout` (408).
        ClientDisconnect: the client hung up.
    """
    if not _is_json(request.headers.get("content-type", "")):
        raise Refused("send the table's request as JSON (Content-Type: application/json)", 415)
    too_long = Refused(f"a request body of more than {MAX_BODY} bytes", 413)
    # ASCII digits only ("²" is a digit int() refuses), counted before int() reads them:
    # it refuses more than 4,300.
    declared = request.headers.get("content-length", "").lstrip("0")
    digits = declared.isascii() and declared.isdigit()
    if digits and (len(declared) > len(str(MAX_BODY)) or int(declared) > MAX_BODY):
        raise too_long
    client = hub.client(address)
    if client.requests >= hub.limits.requests_per_address:
        hub.release(address)
        raise Refused("too many of your requests are under way; try again later", 429)

    async def read() -> bytes:
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                raise too_long
        return bytes(body)

    client.requests += 1
    try:
        return await asyncio.wait_for(read(), hub.limits.body_timeout)
    except asyncio.TimeoutError:
        raise Refused(
            f"the request's body took more than {hub.limits.body_timeout:g} s", 408
        ) from None
    finally:
        client.requests -= 1
        hub.release(address)
