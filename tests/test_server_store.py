"""Where the server's tables live: what a store gives back is checked, and tables
kept in a SQLite file survive a restart of `brisca serve`, a killed one included."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import sqlite3
import subprocess
import sys
import textwrap
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

import brisca
from brisca.server.store import MemoryStore, SQLiteStore, StoreError, StoreFull
from brisca.server.tables import Occupant, Table, new_table


def played(table: Table, moves: int | None = None) -> Table:
    """`table` after `moves` first-legal actions (all of them by default)."""
    count = 0
    while not table.is_over and (moves is None or count < moves):
        seat = table.to_act
        assert seat is not None
        table = table.act(seat, table.legal(seat)[0])[0]
        count += 1
    return table


def edited(table: Table, change: Any) -> str:
    """The stored form of `table`, changed by `change(data)`."""
    data = json.loads(table.to_json())
    change(data)
    return json.dumps(data)


# ---------------------------------------------------------------------------
# Table.from_json checks what a store gives back


def test_a_stored_table_reads_back_equal_hands_and_matches() -> None:
    """The checks below refuse only what is inconsistent: real tables read back."""
    for table in (
        played(new_table("spanish-2p", ["human", "human"], seed=3), 7),
        played(new_table("spanish-2p", ["human", "random"], seed=3)),
        played(new_table("spanish-2p", ["human", "random"], match=True, seed=4), 50),
        played(new_table("spanish-2p", ["random", "random"], match=True, seed=4)),
    ):
        assert Table.from_json(table.to_json()) == table


def test_a_stored_table_is_the_text_the_plain_json_writer_gives_at_every_move() -> None:
    """to_json writes the finished records' text once; the document is what json.dumps
    of the whole table gives, byte for byte, move after move of a match."""
    from brisca.formats.records import dumps as dump_record
    from brisca.formats.saves import dumps

    table = new_table("spanish-2p", ["human", "human"], match=True, seed=4)
    while not table.is_over:
        plain = json.dumps(
            {
                "format": "brisca-table",
                "version": 1,
                "id": table.id,
                "game": dumps(table.game),
                "seats": [attrs.asdict(seat) for seat in table.seats],
                "finished": [dump_record(record) for record in table.finished],
            }
        )
        assert table.to_json() == plain
        seat = table.to_act
        assert seat is not None
        table = table.act(seat, table.legal(seat)[-1])[0]
    assert len(table.finished) >= 2 and Table.from_json(table.to_json()) == table


def test_a_stored_table_with_two_seats_holding_one_token_is_refused() -> None:
    """Two seats with the same token: a link would seat its holder at either."""
    table = new_table("spanish-2p", ["human", "human"], seed=1)
    text = edited(table, lambda d: d["seats"][1].update(token=d["seats"][0]["token"]))
    with pytest.raises(brisca.StateError, match="same token"):
        Table.from_json(text)


def test_a_stored_person_seat_with_an_empty_or_no_token_is_refused() -> None:
    """An empty token would seat whoever sends ""; no token, nobody ever."""
    table = new_table("spanish-2p", ["human", "random"], seed=1)
    for token in ("", None):
        text = edited(table, lambda d, t=token: d["seats"][0].update(token=t))
        with pytest.raises(brisca.StateError, match="without a token"):
            Table.from_json(text)


def test_an_empty_token_never_holds_a_seat() -> None:
    """seat_of("") is None, even at a table built with an empty token by hand."""
    table = new_table("spanish-2p", ["human", "random"], seed=1)
    blank = Occupant(None, "", "seat 0", False)
    assert Table(table.id, table.game, (blank, table.seats[1])).seat_of("") is None


def test_seat_of_any_text_is_a_seat_or_none() -> None:
    """Tokens are compared as UTF-8 bytes: text that is not ASCII (hmac's compare_digest
    refuses it as text), lone surrogates included, finds no seat, and a seat whose
    saved token is not ASCII is found by it."""
    table = new_table("spanish-2p", ["human", "heuristic"], seed=1)
    for token in ("é", "\ud800", "\u2603" * 30, table.seats[0].token + "é"):  # type: ignore[operator]
        assert table.seat_of(token) is None
    odd = attrs.evolve(table.seats[0], token="sécret\ud800")
    assert Table(table.id, table.game, (odd, table.seats[1])).seat_of("sécret\ud800") == 0


def test_a_stored_bot_seat_with_a_token_or_not_taken_is_refused() -> None:
    """A bot's seat holds no token and is always taken."""
    table = new_table("spanish-2p", ["human", "random"], seed=1)
    for change in ({"token": "secret"}, {"joined": False}):
        text = edited(table, lambda d, c=change: d["seats"][1].update(c))
        with pytest.raises(brisca.StateError, match="bot's seat"):
            Table.from_json(text)


def test_a_stored_table_with_an_empty_id_or_an_unclean_name_is_refused() -> None:
    """The id names the table in links; a name is what clean_name keeps."""
    table = new_table("spanish-2p", ["human", "random"], seed=1)
    with pytest.raises(brisca.StateError, match="empty id"):
        Table.from_json(edited(table, lambda d: d.update(id="")))
    for name in ("", "a\nb", "x" * 40):
        with pytest.raises(brisca.StateError, match="not clean"):
            Table.from_json(edited(table, lambda d, n=name: d["seats"][0].update(name=n)))


def test_a_stored_hand_with_the_record_of_another_game_is_refused() -> None:
    """A finished hand's record must be that hand's: not another deal's, not one at
    an unfinished hand, and not missing."""
    done = played(new_table("spanish-2p", ["human", "random"], seed=3))
    other = played(new_table("spanish-2p", ["human", "random"], seed=4))
    unfinished = played(new_table("spanish-2p", ["human", "random"], seed=4), 5)
    stolen = json.loads(other.to_json())["finished"]
    for text in (
        edited(done, lambda d: d.update(finished=stolen)),
        edited(unfinished, lambda d: d.update(finished=stolen)),
        edited(done, lambda d: d.update(finished=[])),
    ):
        with pytest.raises(brisca.StateError, match="finished records"):
            Table.from_json(text)


def test_a_stored_match_with_records_out_of_order_or_missing_is_refused() -> None:
    """A match's records are those of its finished hands, in order, each once."""
    match = played(new_table("spanish-2p", ["human", "random"], match=True, seed=4), 100)
    assert len(match.finished) >= 2
    for change in (
        lambda d: d["finished"].reverse(),
        lambda d: d["finished"].pop(),
        lambda d: d["finished"].append(d["finished"][0]),
    ):
        with pytest.raises(brisca.StateError, match="finished records"):
            Table.from_json(edited(match, change))


# ---------------------------------------------------------------------------
# The stores


def test_the_memory_store_expires_the_tables_unchanged_for_the_idle_time() -> None:
    """expire(idle) forgets what was neither added nor put for `idle` seconds."""
    now = [0.0]
    store = MemoryStore(clock=lambda: now[0])

    async def run() -> None:
        old = new_table("spanish-2p", ["human", "random"], table_id="old")
        moved = new_table("spanish-2p", ["human", "random"], table_id="moved")
        await store.add(old)
        await store.add(moved)
        now[0] = 50
        await store.put(played(moved, 1))
        now[0] = 70
        assert await store.expire(60) == ["old"]
        assert await store.get("old") is None and await store.get("moved") is not None
        assert await store.expire(60) == []

    asyncio.run(run())


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[SQLiteStore]:
    store = SQLiteStore(tmp_path / "tables.db")
    yield store
    store.close()


def test_the_sqlite_store_keeps_tables_across_a_reopening(tmp_path: Path) -> None:
    """What is added and put is read back, checked, by a store opened on the file anew."""
    path = tmp_path / "tables.db"
    table = new_table("spanish-2p", ["human", "random"], match=True, seed=2)

    async def write() -> None:
        store = SQLiteStore(path)
        await store.add(table)
        await store.put(played(table, 30))
        store.close()

    async def read() -> Table | None:
        store = SQLiteStore(path)
        try:
            return await store.get(table.id)
        finally:
            store.close()

    asyncio.run(write())
    assert asyncio.run(read()) == played(table, 30)


def test_the_sqlite_store_writes_a_move_as_a_change_and_the_table_whole_rarely(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move or a change of seats is one small row; the table is written whole again
    only once it has as many changes as it had moves, so the writes of a match grow
    with its length, not its square (every move rewrote the whole match: 137 ms a move
    2,000 hands in). Reopened at any point, the file gives the table back equal."""
    path = tmp_path / "tables.db"
    wholes: list[int] = []
    to_json = Table.to_json

    def counted(table: Table) -> str:
        wholes.append(table.moves)
        return to_json(table)

    monkeypatch.setattr(Table, "to_json", counted)
    table = new_table("subastada-3p", ["human"] * 3, match=True, seed=2)  # a long match

    async def run() -> int:
        nonlocal table
        store = SQLiteStore(path)
        await store.add(table)
        moves = 0
        rng = __import__("random").Random(1)
        while not table.is_over and moves < 700:
            if moves in (0, 5, 300):  # seats taken between moves
                table = table.join(moves % 3, f"p{moves}")
            else:
                seat = table.to_act
                assert seat is not None
                table = table.act(seat, rng.choice(table.legal(seat)))[0]
            await store.put(table)
            moves += 1
            if moves % 97 == 0:  # a restart: the file alone gives the table back
                store.close()
                store = SQLiteStore(path)
                assert await store.get(table.id) == table
        store.close()
        return moves

    moves = asyncio.run(run())
    assert moves == 700
    # Whole at the add, after 64 changes, then each time the changes match the moves
    # (restarts read the changes back, and go on counting them).
    assert len(wholes) == 5, wholes
    assert all(later >= 2 * earlier - 3 for earlier, later in itertools.pairwise(wholes[1:]))
    with sqlite3.connect(path) as db:
        changes = db.execute("SELECT count(*) FROM changes").fetchone()[0]
        (body,) = db.execute("SELECT body FROM bodies").fetchone()
    assert 0 < changes < 700 and Table.from_json(body).moves + changes == table.moves


def test_a_change_from_anything_but_the_table_just_before_is_none() -> None:
    """`change_from` names one move or one change of seats; from any other value (not a
    table, another table, the same one, one two moves back) it is ``None``, and a
    store writes the table whole; `changed` gives the very table back."""
    table = new_table("spanish-2p", ["human", "random"], seed=2)
    after = played(table, 2)
    change = after.change_from(played(table, 1))
    assert change is not None and played(table, 1).changed(change) == after
    other = new_table("spanish-2p", ["human", "random"], seed=3)
    for before in (None, 0, "table", object(), other, after, table):
        assert after.change_from(before) is None, before


def test_a_change_that_does_not_replay_makes_the_table_unreadable(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The changes are read as a client's moves are: an illegal move, seats that are not
    the table's, or junk in the file refuse the table (logged), as a bad body does."""
    path = tmp_path / "tables.db"
    table = new_table("spanish-2p", ["human", "random"], seed=2)

    async def write() -> None:
        store = SQLiteStore(path)
        await store.add(table)
        for moves in range(1, 4):  # a change a move
            await store.put(played(table, moves))
        store.close()

    async def read() -> Table | None:
        store = SQLiteStore(path)
        try:
            return await store.get(table.id)
        finally:
            store.close()

    asyncio.run(write())
    assert asyncio.run(read()) == played(table, 3)
    db = sqlite3.connect(path)
    assert db.execute("SELECT count(*) FROM changes").fetchone()[0] == 3
    db.close()
    for junk in ('["act", 0, "1Z"]', '["act", 1, "1O"]', '["seats", []]', '["steal"]', "{"):
        db = sqlite3.connect(path)
        with db:
            db.execute("UPDATE changes SET change = ? WHERE seq = 1", (junk,))
        db.close()
        assert asyncio.run(read()) is None
    assert "cannot be read" in caplog.text


@pytest.mark.parametrize(
    ("damage", "says"),
    [
        ("DROP TABLE changes", "it has no table 'changes'"),
        ("DROP TABLE bodies", "it has no table 'bodies'"),
        ("ALTER TABLE tables DROP COLUMN touched", "its table 'tables' has no column 'touched'"),
        ("ALTER TABLE bodies RENAME COLUMN body TO text", "its table 'bodies' has no column"),
    ],
)
def test_a_store_file_missing_a_table_or_column_is_refused_when_opened(
    tmp_path: Path, damage: str, says: str
) -> None:
    """A file of the right marks whose layout a hand or a broken copy damaged is refused
    with a StoreError when opened: it had opened, and every read and write then raised
    SQLite's own error."""
    path = tmp_path / "tables.db"
    store = SQLiteStore(path)
    asyncio.run(store.add(new_table("spanish-2p", ["human", "random"], table_id="t")))
    store.close()
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute(damage)
    with pytest.raises(StoreError, match=f"damaged: {re.escape(says)}"):
        SQLiteStore(path)


def test_changes_numbered_otherwise_than_a_writer_numbers_them_refuse_the_table(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A table's changes are read only as a writer leaves them: numbered 0, 1, 2 ... with
    no gap, and no more than it keeps (`WHOLE_AFTER`, or the moves of the body if more).
    A gap had read back, then lost the table at its next move (the next change sorted
    before the rest); a million rows were all replayed."""
    path = tmp_path / "tables.db"
    table = new_table("spanish-2p", ["human", "random"], seed=2, table_id="t")

    async def write(moves: int) -> None:
        store = SQLiteStore(path)
        await store.add(table)
        for k in range(1, moves + 1):
            await store.put(played(table, k))
        store.close()

    async def read() -> Table | None:
        store = SQLiteStore(path)
        try:
            return await store.get("t")
        finally:
            store.close()

    asyncio.run(write(3))
    assert asyncio.run(read()) == played(table, 3)
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE changes SET seq = seq + 100 WHERE seq > 0")  # 0, 101, 102
    assert asyncio.run(read()) is None
    assert "not numbered 0 to at most 63" in caplog.text
    # Seat changes that replay (the seats as they are), as many as a writer keeps, then
    # one more than it ever keeps.
    seats = json.dumps(["seats", [attrs.asdict(seat) for seat in table.seats]])
    for count, readable in ((SQLiteStore.WHOLE_AFTER, True), (SQLiteStore.WHOLE_AFTER + 1, False)):
        with contextlib.closing(sqlite3.connect(path)) as db, db:
            db.execute("DELETE FROM changes")
            rows = [("t", seq, seats) for seq in range(count)]
            db.executemany("INSERT INTO changes (id, seq, change) VALUES (?, ?, ?)", rows)
        assert (asyncio.run(read()) is not None) is readable, count


def test_a_move_written_after_its_table_expired_writes_it_whole(tmp_path: Path) -> None:
    """An expiry that the file's thread runs between a move and its write leaves no
    change without its body: the move writes the table whole, which reads back, where
    an orphan change had been left with no table to apply it to."""
    now = [1000.0]
    path = tmp_path / "tables.db"
    table = new_table("spanish-2p", ["human", "random"], seed=2, table_id="t")

    async def run() -> None:
        store = SQLiteStore(path, clock=lambda: now[0])
        await store.add(table)
        now[0] += 100
        # The move is queued behind the expiry on the file's one thread.
        expiry = asyncio.ensure_future(store.expire(60))
        await asyncio.sleep(0)
        await asyncio.gather(expiry, store.put(played(table, 1)))
        store.close()

    asyncio.run(run())
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        bodies = db.execute("SELECT count(*) FROM bodies").fetchone()[0]
        changes = db.execute("SELECT count(*) FROM changes").fetchone()[0]
    assert (bodies, changes) == (1, 0)
    store = SQLiteStore(path)
    try:
        assert asyncio.run(store.get("t")) == played(table, 1)
    finally:
        store.close()


def test_a_body_under_another_tables_key_is_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A table is read only under its own id: a body copied under another key was read
    as that table, kept under the key, and written back under its own id."""
    path = tmp_path / "tables.db"
    store = SQLiteStore(path)
    for table_id in ("t", "u"):
        asyncio.run(store.add(new_table("spanish-2p", ["human", "random"], table_id=table_id)))
    store.close()
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        (body,) = db.execute("SELECT body FROM bodies WHERE id = 'u'").fetchone()
        db.execute("UPDATE bodies SET body = ? WHERE id = 't'", (body,))
    store = SQLiteStore(path)
    try:
        assert asyncio.run(store.get("t")) is None
        assert asyncio.run(store.get("u")) is not None
    finally:
        store.close()
    assert "its body is that of table 'u'" in caplog.text


def test_a_damaged_page_is_a_store_error_for_every_use(tmp_path: Path) -> None:
    """A file whose layout is whole but whose tables' pages are damaged (a bad disk)
    opens, and then every use of it raises a StoreError, `len` too, never SQLite's own
    error."""
    path = tmp_path / "tables.db"
    store = SQLiteStore(path)
    for k in range(200):  # pages enough for the tables past the file's first page
        asyncio.run(store.add(new_table("spanish-2p", ["human", "random"], table_id=f"t{k}")))
    store.close()
    with open(path, "r+b") as raw:  # every page but the first, with the layout, damaged
        raw.seek(4096)
        raw.write(b"\xff" * (path.stat().st_size - 4096))
    store = SQLiteStore(path)
    uses: list[Callable[[], object]] = [
        lambda: len(store),
        lambda: asyncio.run(store.get("t5")),
        lambda: asyncio.run(store.expire(0)),
        lambda: asyncio.run(store.add(new_table("spanish-2p", ["human", "random"]))),
    ]
    try:
        for use in uses:
            with pytest.raises(StoreError):
                use()
    finally:
        store.close()


def test_a_store_file_of_version_1_is_read_and_brought_to_version_2(tmp_path: Path) -> None:
    """A file written before the changes (its tables whole) opens, reads and goes on."""
    path = tmp_path / "tables.db"
    table = played(new_table("spanish-2p", ["human", "random"], seed=2), 4)
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute(f"PRAGMA application_id = {SQLiteStore.APPLICATION_ID}")
        db.execute("PRAGMA user_version = 1")
        db.execute(
            "CREATE TABLE tables (id TEXT PRIMARY KEY, body TEXT NOT NULL, "
            "over INTEGER NOT NULL, touched REAL NOT NULL)"
        )
        db.execute("INSERT INTO tables VALUES (?, ?, 0, ?)", (table.id, table.to_json(), 0.0))

    async def run() -> None:
        store = SQLiteStore(path)
        assert await store.get(table.id) == table
        await store.put(played(table, 5))
        store.close()
        store = SQLiteStore(path)
        assert await store.get(table.id) == played(table, 5)
        store.close()

    asyncio.run(run())
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 2
        names = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        assert {"tables", "bodies", "changes"} <= names and "tables_1" not in names


def test_the_sqlite_store_forgets_the_oldest_finished_table_when_full(tmp_path: Path) -> None:
    """At its limit it drops the oldest finished table, or refuses, like the memory store."""
    store = SQLiteStore(tmp_path / "tables.db", limit=2)

    async def run() -> None:
        await store.add(played(new_table("spanish-2p", ["random", "random"], table_id="done")))
        await store.add(new_table("spanish-2p", ["human", "random"], table_id="a"))
        await store.add(new_table("spanish-2p", ["human", "random"], table_id="b"))
        assert await store.get("done") is None and len(store) == 2
        with pytest.raises(StoreFull, match="limit"):
            await store.add(new_table("spanish-2p", ["human", "random"], table_id="c"))

    try:
        asyncio.run(run())
    finally:
        store.close()


def test_a_failed_write_changes_nothing_in_the_file(tmp_path: Path) -> None:
    """A write is one transaction: when the insert after an eviction fails, the
    evicted table is still there, and the error is a StoreError."""
    path = tmp_path / "tables.db"
    store = SQLiteStore(path, limit=2)
    done = played(new_table("spanish-2p", ["random", "random"], table_id="done"))
    twin = new_table("spanish-2p", ["human", "random"], table_id="a")

    async def run() -> None:
        await store.add(done)
        await store.add(twin)
        with pytest.raises(StoreError, match="failed"):
            await store.add(new_table("spanish-2p", ["human", "random"], table_id="a"))

    try:
        asyncio.run(run())
    finally:
        store.close()
    with sqlite3.connect(path) as db:
        ids = sorted(row[0] for row in db.execute("SELECT id FROM tables"))
    assert ids == ["a", "done"]


def test_the_sqlite_store_expires_idle_tables_by_wall_time(tmp_path: Path) -> None:
    """Idle time is written in the file, so it counts across restarts too."""
    now = [1000.0]
    path = tmp_path / "tables.db"

    async def run() -> None:
        store = SQLiteStore(path, clock=lambda: now[0])
        await store.add(new_table("spanish-2p", ["human", "random"], table_id="old"))
        store.close()
        now[0] += 100
        store = SQLiteStore(path, clock=lambda: now[0])
        await store.add(new_table("spanish-2p", ["human", "random"], table_id="new"))
        assert await store.expire(60) == ["old"]
        assert await store.get("old") is None and await store.get("new") is not None
        store.close()

    asyncio.run(run())


def test_the_sqlite_store_refuses_a_file_that_is_not_a_store(tmp_path: Path) -> None:
    """Not SQLite, another application's SQLite file, or a directory: StoreError."""
    text = tmp_path / "notes.txt"
    text.write_text("not a database " * 100, encoding="utf-8")
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE t (x)")
    for path, words in ((text, "not a database"), (other, "not a brisca table store")):
        with pytest.raises(StoreError, match=words):
            SQLiteStore(path)
    with pytest.raises(StoreError, match="cannot"):
        SQLiteStore(tmp_path)


def test_a_table_store_file_is_used_by_one_process_at_a_time(tmp_path: Path) -> None:
    """A second store on a file that one holds is refused: two servers would fork it."""
    path = tmp_path / "tables.db"
    first = SQLiteStore(path)
    try:
        with pytest.raises(StoreError, match="another process has it open"):
            SQLiteStore(path)
    finally:
        first.close()
    SQLiteStore(path).close()  # free again once closed


def test_a_process_killed_while_writing_leaves_every_table_readable(tmp_path: Path) -> None:
    """kill -9 in the middle of a stream of writes: the file opens, and every table in
    it reads back and checks."""
    path = tmp_path / "tables.db"
    script = textwrap.dedent(
        f"""
        import asyncio, sys
        from brisca.server.store import SQLiteStore
        from brisca.server.tables import new_table

        async def main():
            store = SQLiteStore({str(path)!r})
            tables = [new_table("spanish-2p", ["human", "human"], table_id=f"t{{k}}")
                      for k in range(8)]
            for table in tables:
                await store.add(table)
            print("writing", flush=True)
            for step in range(20_000):  # far more than it can write before it is killed
                k = step % len(tables)
                table = tables[k]
                if table.is_over:  # a new hand at the same table
                    table = new_table("spanish-2p", ["human", "human"], table_id=table.id)
                else:
                    table = table.act(table.to_act, table.legal(table.to_act)[0])[0]
                tables[k] = table
                await store.put(table)
        asyncio.run(main())
        """
    )
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "writing"
        time.sleep(0.3)
    finally:
        process.kill()
        process.wait(timeout=20)
    assert process.returncode == -9  # killed while writing, not done
    store = SQLiteStore(path)
    try:
        tables = [asyncio.run(store.get(f"t{k}")) for k in range(8)]
    finally:
        store.close()
    assert all(table is not None for table in tables)


# ---------------------------------------------------------------------------
# brisca serve --store: a restart, even a kill, loses no table


class Served:
    """A `brisca serve --store FILE` process on a free loopback port."""

    def __init__(self, store: Path) -> None:
        command = ["serve", "--port", "0", "--bot-delay", "0", "--store", str(store)]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "brisca", *command],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"open (http://127\.0\.0\.1:\d+/) in a browser", line)
        if found is None:
            self.process.kill()
            raise AssertionError(line + self.process.communicate(timeout=20)[1])
        self.base = found.group(1)

    def post(self, body: object) -> Any:
        request = urllib.request.Request(
            self.base + "api/tables",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())

    def kill(self) -> None:
        self.process.kill()
        self.process.communicate(timeout=20)


def whole(message: dict[str, Any], tricks: list[Any]) -> dict[str, Any]:
    """An update with its view's finished tricks made whole from `tricks`, the list
    kept from the updates before, which it extends, as the web client does."""
    view = message["view"]
    start = view.pop("tricks_from")
    assert start <= len(tricks)
    tricks[start:] = view["tricks"]
    view["tricks"] = list(tricks)
    return message


def test_a_table_survives_a_killed_server_and_is_finished_after_the_restart(
    tmp_path: Path,
) -> None:
    """Half a hand against a bot, then kill -9 of `brisca serve --store FILE`; a new
    process on the same file seats the same link at the same table, moves and all,
    and the hand is finished there, its record downloadable."""
    from websockets.sync.client import connect

    path = tmp_path / "tables.db"
    server = Served(path)
    tricks: list[Any] = []
    try:
        made = server.post({"rules": "spanish-2p", "seats": ["human", "heuristic"]})
        token = made["links"][0]["url"].split("#", 1)[1]
        join = json.dumps({"type": "join", "table": made["table"], "token": token})
        with connect(server.base.replace("http", "ws") + "ws", open_timeout=10) as ws:
            ws.send(join)
            message = whole(json.loads(ws.recv(timeout=10)), tricks)
            while message["moves"] < 20:  # half of the hand's 40 actions
                if message["legal"]:
                    ws.send(json.dumps({"type": "action", "action": message["legal"][0]}))
                message = whole(json.loads(ws.recv(timeout=10)), tricks)
            before = message
    finally:
        server.kill()
    assert server.process.returncode == -9
    server = Served(path)
    try:
        with connect(server.base.replace("http", "ws") + "ws", open_timeout=10) as ws:
            ws.send(join)
            message = json.loads(ws.recv(timeout=10))
            assert message["view"]["tricks_from"] == 0  # a new connection: a full view
            message = whole(message, tricks)
            assert message["moves"] >= before["moves"]  # every move answered was kept
            if message["moves"] == before["moves"]:
                assert message["view"] == before["view"]
            while not message["over"]:
                if message["legal"]:
                    ws.send(json.dumps({"type": "action", "action": message["legal"][0]}))
                message = json.loads(ws.recv(timeout=10))
        assert message["moves"] == 40 and sum(message["result"]["points"]) == 120
        records = server.base + f"api/tables/{made['table']}/records"
        with urllib.request.urlopen(records, timeout=10) as answer:
            record = brisca.records.loads(answer.read().decode())
        assert len(record.actions) == 40
    finally:
        server.kill()


def test_a_table_reads_its_seats_id_and_names_as_plain_text() -> None:
    """Seat kinds, a table's id, a player's name and a token given as a str subclass
    are read as their plain text: the subclass's own ==, len or iteration never run."""
    import numpy as np

    class Loud(str):
        def __eq__(self, other: object) -> bool:
            raise TypeError("no comparing me")

        __hash__ = str.__hash__

        def __len__(self) -> int:
            raise TypeError("no length")

        def __iter__(self) -> Any:
            return iter("mallory")

    table = new_table(
        "spanish-2p", [Loud("human"), np.str_("heuristic")], seed=1, table_id=Loud("t1")
    )
    assert type(table.id) is str and table.id == "t1" and table.seats[1].bot == "heuristic"
    assert table.seat_of(Loud(table.seats[0].token)) == 0  # type: ignore[arg-type]
    from brisca.server.tables import clean_name

    assert clean_name(Loud("bob"), 0) == "bob"
