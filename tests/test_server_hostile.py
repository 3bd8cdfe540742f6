"""The game server under hostile clients: no one client denies the service to the others.

Each test drives one attack the server must bound (issue 20 §5): a client that fills
the table store, sends bodies slowly or hangs up mid-body, opens many connections on
one seat, stops reading, floods messages, or makes tables of bots alone. Most drive
the application or its hub directly, with fake clocks and connections, so that no
test depends on timing; the addresses are loopback ones.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_server import Seat, Server, running

import brisca
from brisca.server import app as app_module
from brisca.server import protocol
from brisca.server.app import (
    MAX_BODY,
    OUTBOX,
    Client,
    Connection,
    Hub,
    Limits,
    Refused,
    _read,
    create_app,
)
from brisca.server.protocol import MAX_MESSAGE, Join
from brisca.server.store import MemoryStore
from brisca.server.tables import new_table

TWO = {"rules": "spanish-2p", "seats": ["human", "random"]}


class Clock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make(client: TestClient, body: object = TWO) -> Any:
    return client.post("/api/tables", json=body)


def finish(seat: Seat, message: dict[str, Any]) -> dict[str, Any]:
    """Play the first legal action at every turn until the hand is over."""
    while not message["over"]:
        if message["legal"]:
            seat.act(message["legal"][0])
        message = seat.update()
    return message


def closed(seat: Seat, timeout: float = 10.0) -> dict[str, Any]:
    """The next raw message of the session, which must be the server's close."""
    session = seat.session

    async def next_message() -> Any:
        with anyio.fail_after(timeout):
            return await session._send_rx.receive()

    raw: dict[str, Any] = session.portal.call(next_message)
    assert raw["type"] == "websocket.close", raw
    return raw


# ---------------------------------------------------------------------------
# 1. The table store


def test_one_address_has_a_bounded_number_of_tables_in_play_and_others_still_make_theirs() -> None:
    """Past `tables_per_address` live tables an address gets 429; another address is
    served, and a table that finishes gives its maker's place back."""
    with running(limits=Limits(tables_per_address=3)) as server:
        made = [server.table("spanish-2p", ["human", "random"]) for _ in range(3)]
        refused = make(server.client)
        assert refused.status_code == 429 and "3 tables in play" in refused.json()["error"]
        other = TestClient(server.client.app, client=("127.0.0.2", 50000))
        assert make(other).status_code == 201
        table_id, tokens = made[0]
        seat, message = server.seat(table_id, tokens[0])
        finish(seat, message)
        assert make(server.client).status_code == 201  # the finished one no longer counts
        assert make(server.client).status_code == 429


def test_an_idle_table_expires_and_its_seats_are_told_before_the_close() -> None:
    """After `idle_timeout` without a change, a sweep forgets the table: each connected
    seat gets an `expired` error, then a normal close, and its maker's place is freed;
    a table changed since is kept."""
    clock = Clock()
    store = MemoryStore(clock=clock)
    with running(store=store, limits=Limits(idle_timeout=60, tables_per_address=2)) as server:
        idle_id, idle_tokens = server.table("spanish-2p", ["human", "random"])
        busy_id, busy_tokens = server.table("spanish-2p", ["human", "random"])
        assert make(server.client).status_code == 429
        seat, _ = server.seat(idle_id, idle_tokens[0])
        clock.now += 50
        busy, message = server.seat(busy_id, busy_tokens[0])  # a join is a change
        clock.now += 11
        gone = server.client.portal.call(server.hub.sweep)
        assert gone == [idle_id]
        told = seat.error()
        assert told["code"] == "expired" and "idle for 60 s" in told["error"]
        assert closed(seat)["code"] == 1000
        assert server.client.portal.call(store.get, idle_id) is None
        assert make(server.client).status_code == 201  # the expired table no longer counts
        busy.act(message["legal"][0])
        assert busy.update()["moves"] == 1


def test_the_running_application_sweeps_idle_tables_by_itself() -> None:
    """The lifespan starts the sweeper: a table idle past a short timeout goes."""
    with running(limits=Limits(idle_timeout=0.05)) as server:
        table_id, _ = server.table("spanish-2p", ["human", "random"])
        for _ in range(200):  # at most ten seconds
            if server.client.portal.call(server.hub.store.get, table_id) is None:
                break
            server.client.portal.call(asyncio.sleep, 0.05)
        assert server.client.portal.call(server.hub.store.get, table_id) is None


@pytest.mark.parametrize(
    "content_type",
    ["application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x", None],
)
def test_a_body_that_is_not_json_is_refused_so_another_site_cannot_make_tables(
    content_type: str | None,
) -> None:
    """A form on another site can POST only form or plain-text bodies: 415, and no table."""
    store = MemoryStore()
    client = TestClient(create_app(store))
    headers = {} if content_type is None else {"Content-Type": content_type}
    answer = client.post("/api/tables", content=json.dumps(TWO).encode(), headers=headers)
    assert answer.status_code == 415 and "application/json" in answer.json()["error"]
    assert len(store) == 0
    typed = {"Content-Type": "application/json; charset=utf-8"}
    assert client.post("/api/tables", content=json.dumps(TWO), headers=typed).status_code == 201


def test_tables_of_bots_alone_are_bounded_and_a_table_with_a_person_is_not() -> None:
    """Past `bot_tables` tables of bots alone in play, another is refused with 503."""
    with running(limits=Limits(bot_tables=2), bot_delay=30) as server:  # bots that wait
        alone = {"rules": "spanish-2p", "seats": ["random", "random"]}
        assert [make(server.client, alone).status_code for _ in range(3)] == [201, 201, 503]
        assert "2 tables of bots alone" in make(server.client, alone).json()["error"]
        assert make(server.client).status_code == 201
        server.client.portal.call(server.hub.close)


def test_a_finished_table_of_bots_alone_gives_its_place_back() -> None:
    """A table of bots alone counts while it plays, and not once it is over."""
    with running(limits=Limits(bot_tables=1)) as server:
        alone = {"rules": "spanish-2p", "seats": ["random", "random"]}
        assert make(server.client, alone).status_code == 201
        server.idle()
        assert make(server.client, alone).status_code == 201


class _SlowStore(MemoryStore):
    """A store whose writes wait, as a file's do on its thread: others run meanwhile."""

    def __init__(self, fail: bool = False) -> None:
        super().__init__()
        self.fail = fail
        self.gets: list[str] = []

    async def add(self, table: Any) -> None:
        await asyncio.sleep(0.01)
        if self.fail:
            raise brisca.BriscaError("the disk is full")
        await super().add(table)

    async def get(self, table_id: str) -> Any:
        self.gets.append(table_id)
        return await super().get(table_id)


@pytest.mark.parametrize(
    ("seats", "limits", "allowed", "status"),
    [
        (["human", "random"], Limits(tables_per_address=3), 3, 429),
        (["random", "random"], Limits(bot_tables=2), 2, 503),
    ],
)
def test_tables_made_at_once_all_count_against_the_limits_while_the_store_writes(
    seats: list[str], limits: Limits, allowed: int, status: int
) -> None:
    """The limits held only with a store that never waits: with a file's, which writes
    on a thread, every request that came while another was being written passed the
    check (40 of 40 past a limit of 20). A table's place is taken before the write, and
    a write that fails gives it back."""

    async def scenario() -> None:
        hub = Hub(_SlowStore(), limits=limits, bot_delay=30)
        tables = [new_table("spanish-2p", seats, seed=k) for k in range(allowed * 3)]
        outcomes = await asyncio.gather(
            *(hub.create(t, "127.0.0.1") for t in tables), return_exceptions=True
        )
        refused = [o for o in outcomes if o is not None]
        assert len(outcomes) - len(refused) == allowed
        assert all(isinstance(o, Refused) and o.status == status for o in refused)
        await hub.close()
        failing = Hub(_SlowStore(fail=True), limits=limits)
        for table in tables[:allowed]:
            with pytest.raises(brisca.BriscaError, match="disk is full"):
                await failing.create(table, "127.0.0.1")
        assert not failing.clients and not failing._bots_alone  # every place given back

    asyncio.run(scenario())


def test_a_create_whose_caller_stops_waiting_keeps_the_table_it_wrote() -> None:
    """A request cancelled while its table is being written (a client gone, a server
    stopping) leaves the write to end as it ends: a table written counts against its
    maker and its bots play; one that fails to be written gives its place back. The
    place had been given back at once, so a table the store held counted against no
    limit, and its bots never played."""

    async def scenario() -> None:
        store = _SlowStore()
        hub = Hub(store, bot_delay=30)
        table = new_table("spanish-2p", ["random", "random"], seed=1)
        creating = asyncio.create_task(hub.create(table, "127.0.0.1"))
        await asyncio.sleep(0.001)  # the write under way
        creating.cancel()
        with pytest.raises(asyncio.CancelledError):
            await creating
        await asyncio.sleep(0.05)  # the write ends
        assert await store.get(table.id) == table
        assert table.id in hub.clients["127.0.0.1"].tables and table.id in hub._bots_alone
        assert table.id in hub._runners  # its bots play
        await hub.close()
        failing = Hub(_SlowStore(fail=True))
        creating = asyncio.create_task(failing.create(table, "127.0.0.1"))
        await asyncio.sleep(0.001)
        creating.cancel()
        with pytest.raises(asyncio.CancelledError):
            await creating
        await asyncio.sleep(0.05)
        assert not failing.clients and not failing._bots_alone  # its place given back
        await failing.close()
        # Closed while the write is under way: the write ends, and no bot plays after.
        closing = Hub(_SlowStore())
        creating = asyncio.create_task(closing.create(table, "127.0.0.1"))
        await asyncio.sleep(0.001)
        creating.cancel()
        with pytest.raises(asyncio.CancelledError):
            await creating
        await closing.close()
        await asyncio.sleep(0.05)
        assert await closing.store.get(table.id) == table and not closing._runners
        assert not closing.clients and not closing._bots_alone

    asyncio.run(scenario())


def test_a_seat_that_leaves_is_told_of_no_move_still_being_written() -> None:
    """`leave` reads the table under its lock, as a move writes it: a seat that hung up
    while a move was being written made the others see the move before it was written."""

    async def scenario() -> None:
        store = _SlowStore()
        hub = Hub(store)
        table = new_table("spanish-2p", ["human", "human"], seed=1)
        await hub.create(table, "127.0.0.1")
        connection = Connection(None, "127.0.0.1")  # type: ignore[arg-type]
        connection.table = table.id
        store.gets.clear()
        async with hub.lock(table.id):  # a move being written
            leaving = asyncio.create_task(hub.leave(connection))
            await asyncio.sleep(0.05)
            assert not store.gets, "leave read the table while a move was being written"
        await leaving
        assert store.gets == [table.id]

    asyncio.run(scenario())


# ---------------------------------------------------------------------------
# 2. Bodies: a size cap, a time limit, and hanging up


def asgi_post(
    app: Any, chunks: list[dict[str, Any]], headers: list[tuple[bytes, bytes]] | None = None
) -> tuple[list[dict[str, Any]], Any]:
    """Drive one POST /api/tables through the ASGI application: the client sends
    `chunks` (ASGI messages) and then never anything more. The messages sent back."""
    sent: list[dict[str, Any]] = []
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/tables",
        "raw_path": b"/api/tables",
        "query_string": b"",
        "root_path": "",
        "headers": headers or [(b"content-type", b"application/json")],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }

    async def run() -> Any:
        waiting = list(chunks)

        async def receive() -> dict[str, Any]:
            if waiting:
                return waiting.pop(0)
            await asyncio.Event().wait()  # the client sends nothing more
            raise AssertionError("unreachable")

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        with anyio.fail_after(10):
            return await app(scope, receive, send)

    return sent, asyncio.run(run())


def status_of(sent: list[dict[str, Any]]) -> int:
    start = next(m for m in sent if m["type"] == "http.response.start")
    return int(start["status"])


def test_a_body_sent_too_slowly_is_answered_408_within_the_time_limit() -> None:
    """Half a body, then silence: the request is refused after `body_timeout`."""
    app = create_app(limits=Limits(body_timeout=0.2))
    sent, _ = asgi_post(app, [{"type": "http.request", "body": b'{"rules":', "more_body": True}])
    assert status_of(sent) == 408
    assert app.state.hub.clients == {}  # the request no longer counts against its address


def test_a_client_that_hangs_up_mid_body_leaves_no_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A disconnect in the middle of the body ends the request quietly: no exception
    comes out of the application, and nothing is logged with a traceback."""
    app = create_app()
    caplog.set_level(logging.DEBUG)
    chunks = [
        {"type": "http.request", "body": b'{"rules": "spa', "more_body": True},
        {"type": "http.disconnect"},
    ]
    asgi_post(app, chunks)  # raises if the application does
    assert not [record for record in caplog.records if record.exc_info]
    assert app.state.hub.clients == {}


def test_a_declared_length_past_the_cap_is_refused_before_the_body_is_read() -> None:
    """Content-Length over MAX_BODY: 413 without reading a byte."""
    headers = [(b"content-type", b"application/json"), (b"content-length", b"999999")]
    sent, _ = asgi_post(create_app(), [], headers)
    assert status_of(sent) == 413
    assert str(MAX_BODY) in json.loads(sent[-1]["body"])["error"]


def test_an_address_has_a_bounded_number_of_bodies_under_way() -> None:
    """Past `requests_per_address` bodies being sent at once, another gets 429 at once."""
    app = create_app(limits=Limits(requests_per_address=2, body_timeout=5))
    scope_client = ("127.0.0.1", 50000)
    statuses: list[int] = []

    async def post(hang: bool) -> None:
        sent: list[dict[str, Any]] = []
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "path": "/api/tables",
            "raw_path": b"/api/tables",
            "query_string": b"",
            "root_path": "",
            "scheme": "http",
            "headers": [(b"content-type", b"application/json")],
            "client": scope_client,
            "server": ("127.0.0.1", 8000),
        }
        first = [{"type": "http.request", "body": b"{", "more_body": hang}]
        if not hang:
            first = [{"type": "http.request", "body": json.dumps(TWO).encode()}]

        async def receive() -> dict[str, Any]:
            if first:
                return first.pop(0)
            await asyncio.Event().wait()
            raise AssertionError("unreachable")

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        await app(scope, receive, send)
        statuses.append(status_of(sent))

    async def run() -> None:
        hanging = [asyncio.create_task(post(hang=True)) for _ in range(2)]
        await asyncio.sleep(0.05)
        with anyio.fail_after(2):
            await post(hang=False)
        assert statuses == [429]
        for task in hanging:
            task.cancel()
        await asyncio.gather(*hanging, return_exceptions=True)

    asyncio.run(run())


# ---------------------------------------------------------------------------
# 3. Connections: per address and per seat


def test_one_address_holds_a_bounded_number_of_connections() -> None:
    """Past `connections_per_address` open WebSockets, one more is refused before it
    is accepted; another address connects, and a closed one frees a place."""
    with running(limits=Limits(connections_per_address=2)) as server:
        first, second = server.connect(), server.connect()
        with pytest.raises(WebSocketDisconnect) as refused, server.client.websocket_connect("/ws"):
            pass
        assert refused.value.code == 1008
        other = TestClient(server.client.app, client=("127.0.0.2", 50000))
        with other.websocket_connect("/ws") as session:
            session.send_text("{}")
            assert json.loads(session.receive_text())["code"] == "bad_message"
        first.session.close()
        for _ in range(100):  # the server sees the close on its own loop
            if server.hub.clients["testclient"].connections < 2:
                break
            server.client.portal.call(asyncio.sleep, 0.01)
        third = server.connect()
        third.send("{}")
        assert third.error()["code"] == "bad_message" and second is not third


def test_a_seat_holds_a_bounded_number_of_connections_and_a_new_one_closes_the_oldest(
    server: Server,
) -> None:
    """Past `connections_per_seat` joins on one link, the oldest is told `replaced`
    and closed; a move is then sent to the seat's remaining connections only."""
    per_seat = server.hub.limits.connections_per_seat
    table_id, tokens = server.table("spanish-2p", ["human", "human"], seed=7)
    opened = [server.seat(table_id, tokens[0])[0] for _ in range(per_seat)]
    for k, seat in enumerate(opened):  # each hears of the later arrivals
        for _ in range(per_seat - 1 - k):
            seat.update()
    newest, _ = server.seat(table_id, tokens[0])
    told = opened[0].error()
    assert told["code"] == "replaced" and closed(opened[0])["code"] == 1000
    for seat in opened[1:]:
        seat.update()  # the newest's arrival
    one, _ = server.seat(table_id, tokens[1])
    live = [*opened[1:], newest]
    for seat in live:
        seat.update()  # the arrival of seat 1
    live[0].act("2O")
    for seat in live:
        assert seat.update()["moves"] == 1
    one.update()
    assert len(server.hub.connections[table_id]) == per_seat + 1


# ---------------------------------------------------------------------------
# 4. A seat that stops reading


class Stuck:
    """A WebSocket whose client reads nothing: a send never completes."""

    def __init__(self) -> None:
        self.closed: list[int] = []
        self.sent = 0

    async def send_text(self, text: str) -> None:
        self.sent += 1
        await asyncio.Event().wait()

    async def close(self, code: int) -> None:
        self.closed.append(code)


class Reader:
    """A WebSocket whose client reads everything at once."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    async def send_text(self, text: str) -> None:
        self.messages.append(json.loads(text))

    async def close(self, code: int) -> None:
        pass


def test_a_seat_that_stops_reading_is_cut_off_and_forgotten_while_its_table_plays_on() -> None:
    """Driven through the hub: once its outbox is full, a connection whose sends never
    complete is closed (1008) and dropped from the table, which shows its seat as
    unconnected; the other seat's moves go on, every one answered."""

    async def run() -> None:
        hub = Hub(MemoryStore(), limits=Limits(connections_per_seat=OUTBOX * 2))
        table = new_table("spanish-2p", ["human", "human"], seed=7)
        await hub.create(table)
        tokens = [seat.token for seat in table.seats]
        stuck, reader = Stuck(), Reader()
        deaf = Connection(stuck, "127.0.0.1")  # type: ignore[arg-type]
        live = Connection(reader, "127.0.0.2")  # type: ignore[arg-type]
        for connection in (deaf, live):
            connection.start()
        await hub.join(deaf, Join(table.id, tokens[0] or ""))
        await hub.join(live, Join(table.id, tokens[1] or ""))
        await asyncio.sleep(0)
        for _ in range(OUTBOX + 2):  # seat 1 joins again and again: an update each time
            await hub.join(Connection(Reader(), "127.0.0.2"), Join(table.id, tokens[1] or ""))  # type: ignore[arg-type]
            await asyncio.sleep(0)
            if deaf.closed:
                break
        await asyncio.sleep(0)
        assert stuck.closed == [1008] and deaf.closed
        assert deaf not in hub.connections[table.id]
        assert stuck.sent == 1  # the one send that never completed
        await hub.handle(deaf, json.dumps({"type": "action", "action": "2O"}))
        assert (await hub.store.get(table.id)).moves == 0  # type: ignore[union-attr]
        await hub.act(live, table.id, 1, "2C")  # not its turn: refused, the table goes on
        await hub.act(Connection(Reader()), table.id, 0, "2O")  # type: ignore[arg-type]
        await asyncio.sleep(0)
        last = reader.messages[-1]
        assert last["moves"] == 1 and last["seats"][0]["connected"] is False

    asyncio.run(asyncio.wait_for(run(), 10))


class Deaf(Stuck):
    """A WebSocket whose client reads nothing, not even the close frame."""

    async def close(self, code: int) -> None:
        self.closed.append(code)
        await asyncio.Event().wait()


def test_a_connection_cut_off_lets_its_updates_go_and_gives_up_closing_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A client that reads nothing takes no close frame either: its updates are let go at
    once, and the close is given up after `CLOSE_TIMEOUT`, where the queue of 256
    updates and a close that never ended were held for as long as the client stayed."""
    monkeypatch.setattr(app_module, "CLOSE_TIMEOUT", 0.05)

    async def run() -> None:
        deaf = Deaf()
        connection = Connection(deaf, "127.0.0.1")  # type: ignore[arg-type]
        connection.start()
        for k in range(OUTBOX + 2):  # one being sent, a full outbox, and one more
            connection.send(f"update {k}")
            await asyncio.sleep(0)
        assert connection.closed and connection.closing is not None
        assert connection.outbox.empty()
        await asyncio.wait_for(connection.closing, 5)
        assert deaf.closed == [1008]

    asyncio.run(run())


# ---------------------------------------------------------------------------
# 7. Messages: the size cap, and a flood


def test_a_message_past_the_cap_is_refused_without_being_parsed(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The length is checked before the JSON reader sees the text."""
    parsed: list[int] = []
    real = protocol.parse

    def counting(text: Any, what: str) -> Any:
        parsed.append(len(text))
        return real(text, what)

    monkeypatch.setattr(protocol, "parse", counting)
    seat = server.connect()
    seat.send(json.dumps({"type": "join", "table": "t", "token": "x" * MAX_MESSAGE}))
    assert seat.error()["code"] == "bad_message" and parsed == []
    seat.send({"type": "join", "table": "t", "token": "x"})
    assert seat.error()["code"] == "no_table" and len(parsed) == 1


class Flood:
    """A WebSocket whose client sends `count` bad messages as fast as they are read
    (a receive that never waits), then hangs up."""

    def __init__(self, count: int) -> None:
        self.left = count

    async def receive(self) -> dict[str, Any]:
        if not self.left:
            return {"type": "websocket.disconnect"}
        self.left -= 1
        return {"type": "websocket.receive", "text": "{" * 10}

    async def send_text(self, text: str) -> None:
        pass

    async def close(self, code: int) -> None:
        pass


def test_a_flood_of_messages_from_one_connection_does_not_starve_the_others() -> None:
    """The reader yields to the event loop after every message: another task runs
    while a flood that never waits is being read."""

    async def run() -> tuple[int, int]:
        hub = Hub(MemoryStore(), limits=Limits(messages_per_second=10**9))
        flood = Flood(2000)
        connection = Connection(flood, "127.0.0.1")  # type: ignore[arg-type]
        connection.start()
        seen = []

        async def other() -> None:
            for _ in range(10):
                seen.append(flood.left)
                await asyncio.sleep(0)

        ticks = asyncio.create_task(other())
        await _read(hub, connection, hub.client("127.0.0.1"))
        await ticks
        connection.stop()
        return seen[1], seen[-1]

    first, last = asyncio.run(asyncio.wait_for(run(), 20))
    assert 1990 < first <= 2000 and last > 1900  # the others ran at the flood's start


def test_an_address_reads_its_messages_at_its_rate_past_a_burst() -> None:
    """The message budget: a burst of `rate` messages at once, then one each 1/rate s."""
    client = Client(rate=50, now=0.0)
    assert [client.delay(0.0) for _ in range(50)] == [0.0] * 50
    assert client.delay(0.0) == pytest.approx(1 / 50)
    assert client.delay(0.0) == pytest.approx(2 / 50)
    assert client.delay(10.0) == 0.0  # the budget refills, up to one burst
    assert [client.delay(10.0) for _ in range(49)] == [0.0] * 49
    assert client.delay(10.0) > 0


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("tables_per_address", 0),
        ("connections_per_seat", -1),
        ("bot_tables", 1.5),
        ("idle_timeout", 0),
        ("body_timeout", float("nan")),
        ("messages_per_second", "fast"),
    ],
)
def test_limits_refuse_what_is_not_positive(field: str, value: object) -> None:
    """Every limit is a positive int (times and rates, a positive number)."""
    with pytest.raises(brisca.BriscaError, match=field):
        Limits(**{field: value})  # type: ignore[arg-type]


@pytest.fixture
def server() -> Iterator[Server]:
    with running() as started:
        yield started
