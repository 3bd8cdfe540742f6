"""Where the tables live: one small interface, a store in memory and one in a file.

The application reads and writes tables only through :class:`TableStore`, so
a shared store (Redis, a database) can replace :class:`MemoryStore` without
touching the rest. Its methods are coroutines for that reason. A table is an
immutable value, and :meth:`brisca.server.tables.Table.to_json` writes the
whole of it as text, which is what such a store keeps: :class:`SQLiteStore`
keeps it in a SQLite file, so that the tables survive a restart, with the moves
made since it was last written whole (:meth:`~brisca.server.tables.Table.change_from`),
so that a move costs the same however long the match.

>>> import asyncio
>>> from brisca.server.tables import new_table
>>> store = MemoryStore(limit=1)
>>> table = new_table("spanish-2p", ["human", "random"], table_id="t1")
>>> asyncio.run(store.add(table))
>>> asyncio.run(store.get("t1")) is table, asyncio.run(store.get("t2"))
(True, None)
>>> asyncio.run(store.add(new_table("spanish-2p", ["human", "random"])))
Traceback (most recent call last):
...
brisca.server.store.StoreFull: the server holds 1 tables, its limit; try again later
"""

from __future__ import annotations

import abc
import asyncio
import logging
import os
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from brisca.game.errors import BriscaError
from brisca.server.tables import Table

__all__ = ["MemoryStore", "SQLiteStore", "StoreError", "StoreFull", "TableStore"]

log = logging.getLogger("brisca.server")

T = TypeVar("T")


class StoreFull(BriscaError):
    """The store holds as many tables as it may."""


class StoreError(BriscaError):
    """The store's file cannot be used: not a store, or another process holds it."""


# --8<-- [start:interface]
class TableStore(abc.ABC):
    """The tables of a server, by their ids.

    One process changes a table at a time: the application holds a lock per table
    around each read-change-write, so a store need not lock. Several processes
    sharing one store need a lock that spans them, or sticky sessions that send
    every player of a table to one process (see the "Build a game server" page).
    """

    @abc.abstractmethod
    async def add(self, table: Table) -> None:
        """Keep a new table.

        Raises:
            StoreFull: no room for another table.
        """

    @abc.abstractmethod
    async def get(self, table_id: str) -> Table | None:
        """The table called `table_id`, or ``None``."""

    @abc.abstractmethod
    async def put(self, table: Table) -> None:
        """Replace a table by its new value, after a move or a seat taken."""

    async def expire(self, idle: float) -> list[str]:
        """Forget the tables that nobody has added or put for `idle` seconds or more,
        and give their ids. A store that cannot tell keeps them: this one does."""
        return []


# --8<-- [end:interface]


class MemoryStore(TableStore):
    """Tables in a dict of this process: fast, and gone when the process stops.

    It holds at most `limit` tables; when full, it forgets the oldest finished
    table to make room, and refuses a new one if none has finished. `clock`
    gives the time in seconds, by which tables expire.
    """

    def __init__(self, limit: int = 10_000, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self._clock = clock
        self._tables: dict[str, Table] = {}
        # When each table was last written, the least recent first.
        self._touched: dict[str, float] = {}

    async def add(self, table: Table) -> None:
        """Keep `table`, making room by forgetting the oldest finished table if full."""
        if len(self._tables) >= self.limit:
            done = next((k for k, t in self._tables.items() if t.is_over), None)
            if done is None:
                raise StoreFull(f"the server holds {self.limit} tables, its limit; try again later")
            del self._tables[done], self._touched[done]
        self._tables[table.id] = table
        self._touch(table.id)

    async def get(self, table_id: str) -> Table | None:
        """The table, or ``None``."""
        return self._tables.get(table_id)

    async def put(self, table: Table) -> None:
        """Replace the table (insertion order, and so age, stays that of `add`)."""
        self._tables[table.id] = table
        self._touch(table.id)

    async def expire(self, idle: float) -> list[str]:
        """Forget the tables unchanged for `idle` seconds; their ids."""
        before = self._clock() - idle
        gone = []
        for table_id, touched in self._touched.items():  # the least recent first
            if touched > before:
                break
            gone.append(table_id)
        for table_id in gone:
            del self._tables[table_id], self._touched[table_id]
        return gone

    def _touch(self, table_id: str) -> None:
        self._touched.pop(table_id, None)
        self._touched[table_id] = self._clock()

    def __len__(self) -> int:
        return len(self._tables)


# --8<-- [start:sqlite]
class SQLiteStore(TableStore):
    """Tables in a SQLite file at `path`, which survive a restart of the server.

    Each table is a row of its marks (finished, last touched), a row holding
    :meth:`~brisca.server.tables.Table.to_json` as it was when last written whole,
    and a row for each move or change of seats since
    (:meth:`~brisca.server.tables.Table.change_from`), which reading replays. A
    table is written whole again once it has as many changes as it had moves
    (and at least `WHOLE_AFTER`), so a move costs a small row however long the
    match, where writing it whole cost time in proportion to the match (137 ms a
    move 2,000 hands into one, and the file's one thread is every table's). Each
    write (a new table, a move, a seat taken, an expiry) is one transaction:
    a crash loses at most the write in flight, never a table, and the server
    sends a move to the seats only once it is written. The file is in WAL mode,
    synchronous ``NORMAL``: a killed process loses nothing committed, a power cut
    at most the last writes. It is opened by one process at a time (exclusive
    locking); another gets :class:`StoreError`.

    The tables this process has read or written are kept in memory too, so a
    table is read from the file, and checked by
    :meth:`~brisca.server.tables.Table.from_json`, once after a start. The file
    is used from one worker thread, so the event loop never waits for the disk.
    Like :class:`MemoryStore`, it holds at most `limit` tables, making room by
    forgetting the oldest finished one. `clock` is wall time, so that idle time
    counts across restarts. :meth:`close` it when done.

    Raises:
        StoreError: the file is not a store, or another process has it open.
    """

    #: What the file's ``application_id`` says: this is a brisca table store.
    APPLICATION_ID = 0x42524953  # "BRIS"
    #: The layout of the file, in its ``user_version``: 2 adds the changes (a file of
    #: version 1 is one with none, and is brought to 2 when opened).
    VERSION = 2
    #: The fewest changes kept before a table is written whole again.
    WHOLE_AFTER = 64

    def __init__(
        self,
        path: str | os.PathLike[str],
        limit: int = 10_000,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = os.fspath(path)
        self.limit = limit
        self._clock = clock
        self._tables: dict[str, Table] = {}
        # For each table in memory: its changes kept in the file since it was last
        # written whole, and its moves then.
        self._changes: dict[str, tuple[int, int]] = {}
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="brisca-store")
        try:
            self._db = self._worker.submit(self._open).result()
        except BaseException:
            self._worker.shutdown()
            raise

    def _open(self) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(self.path, isolation_level=None, timeout=0)
        except sqlite3.Error as error:
            raise StoreError(f"cannot open the table store {self.path}: {error}") from None
        try:
            db.execute("PRAGMA locking_mode = EXCLUSIVE")
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = NORMAL")
            db.execute("BEGIN IMMEDIATE")  # takes the file's lock, for this process's life
            app, version = (db.execute(f"PRAGMA {p}").fetchone()[0] for p in _MARKS)
            empty = not db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if empty:
                db.execute(f"PRAGMA application_id = {self.APPLICATION_ID}")
                for statement in _SCHEMA:
                    db.execute(statement)
            elif app != self.APPLICATION_ID or version not in (1, self.VERSION):
                raise StoreError(f"{self.path} is not a brisca table store of version 1 or 2")
            elif version == 1:  # its tables whole in one row each, with no changes yet
                for statement in _FROM_VERSION_1:
                    db.execute(statement)
            damaged = _damage(db)
            if damaged:
                raise StoreError(f"{self.path} is a brisca table store, damaged: {damaged}")
            db.execute(f"PRAGMA user_version = {self.VERSION}")
            db.execute("COMMIT")
        except sqlite3.OperationalError as error:
            db.close()
            busy = "locked" in str(error)
            why = "another process has it open" if busy else str(error)
            raise StoreError(f"cannot use the table store {self.path}: {why}") from None
        except sqlite3.DatabaseError as error:  # not a database at all
            db.close()
            raise StoreError(f"cannot use the table store {self.path}: {error}") from None
        except BaseException:
            db.close()
            raise
        return db

    async def _run(self, work: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._worker, work)

    def _read(self, reading: Callable[[], T]) -> T:
        """`reading`'s answer, on the file's thread.

        Raises:
            StoreError: the file refused the read (a damaged page, a disk error).
        """
        try:
            return reading()
        except sqlite3.Error as error:
            raise StoreError(f"a read of the table store {self.path} failed: {error}") from None

    def _write(self, statements: Callable[[sqlite3.Connection], T]) -> T:
        """Run `statements` as one transaction: all of them, or none.

        Raises:
            StoreError: the file refused the write (disk full, a duplicate id...).
        """
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                done = statements(self._db)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.Error as error:
            raise StoreError(f"a write to the table store {self.path} failed: {error}") from None
        return done

    async def add(self, table: Table) -> None:
        """Write `table`, making room by forgetting the oldest finished table if full."""
        now = self._clock()

        def add(db: sqlite3.Connection) -> str | None:
            dropped = None
            if db.execute("SELECT count(*) FROM tables").fetchone()[0] >= self.limit:
                row = db.execute("SELECT id FROM tables WHERE over ORDER BY rowid LIMIT 1")
                found = row.fetchone()
                if found is None:
                    raise StoreFull(
                        f"the server holds {self.limit} tables, its limit; try again later"
                    )
                dropped = found[0]
                for kept in ("tables", "bodies", "changes"):
                    db.execute(f"DELETE FROM {kept} WHERE id = ?", (dropped,))
            db.execute(
                "INSERT INTO tables (id, over, touched) VALUES (?, ?, ?)",
                (table.id, table.is_over, now),
            )
            db.execute("INSERT INTO bodies (id, body) VALUES (?, ?)", (table.id, table.to_json()))
            return dropped

        dropped = await self._run(lambda: self._write(add))
        if dropped is not None:
            self._forget(dropped)
        self._tables[table.id] = table
        self._changes[table.id] = (0, table.moves)

    async def get(self, table_id: str) -> Table | None:
        """The table: from memory, or read from the file and checked, once."""
        known = self._tables.get(table_id)
        if known is not None:
            return known

        def read() -> tuple[Table, tuple[int, int]] | None:
            db = self._db
            try:
                row = db.execute("SELECT body FROM bodies WHERE id = ?", (table_id,)).fetchone()
                if row is None:
                    return None
                table = Table.from_json(row[0])
                if table.id != table_id:  # a body put under another table's key
                    raise StoreError(f"its body is that of table {table.id!r}")
                whole = table.moves
                # No more changes than a writer keeps, and numbered as it numbers them.
                most = max(self.WHOLE_AFTER, whole)
                changes = db.execute(
                    "SELECT seq, change FROM changes WHERE id = ? ORDER BY seq LIMIT ?",
                    (table_id, most + 1),
                ).fetchall()
                if [seq for seq, _ in changes] != list(range(len(changes))) or len(changes) > most:
                    raise StoreError(f"its changes are not numbered 0 to at most {most - 1}")
                for _, change in changes:
                    table = table.changed(change)
            except BriscaError as refused:  # what the file says cannot be played on
                log.error("table %s in %s cannot be read: %s", table_id, self.path, refused)
                return None
            return table, (len(changes), whole)

        found = await self._run(lambda: self._read(read))
        if found is None:
            return None
        if table_id not in self._tables:  # another read may have won
            self._tables[table_id], self._changes[table_id] = found
        return self._tables[table_id]

    async def put(self, table: Table) -> None:
        """Write the table's new value: the change from the value last written, or,
        when it is no single move or change of seats or the changes have grown as
        long as the table, the table whole."""
        before = self._tables.get(table.id)
        kept, whole = self._changes.get(table.id, (None, 0))
        change = None if before is None or kept is None else table.change_from(before)
        self._tables[table.id] = table
        now = self._clock()
        if change is None or kept is None or kept >= max(self.WHOLE_AFTER, whole):
            self._changes[table.id] = (0, table.moves)
            body = table.to_json()

            def write(db: sqlite3.Connection) -> bool:
                _write_whole(db, table, now, body)
                return False  # `_changes` says so already

        else:
            self._changes[table.id] = (kept + 1, whole)
            seq = kept

            def write(db: sqlite3.Connection) -> bool:
                found = db.execute("SELECT 1 FROM bodies WHERE id = ?", (table.id,)).fetchone()
                if found is None:  # an expiry came first: a change of nothing is no table
                    _write_whole(db, table, now, table.to_json())
                    return True
                _touch(db, table, now)  # a small row: the body is not written again
                db.execute(
                    "INSERT INTO changes (id, seq, change) VALUES (?, ?, ?)",
                    (table.id, seq, change),
                )
                return False

        try:
            if await self._run(lambda: self._write(write)):
                self._changes[table.id] = (0, table.moves)  # written whole after all
        except BaseException:
            self._changes.pop(table.id, None)  # unknown now: the next write is whole
            raise

    async def expire(self, idle: float) -> list[str]:
        """Forget the tables unchanged for `idle` seconds, restarts included; their ids."""
        before = self._clock() - idle

        def expire(db: sqlite3.Connection) -> list[str]:
            rows = db.execute("SELECT id FROM tables WHERE touched <= ?", (before,)).fetchall()
            for kept in ("changes", "bodies"):
                db.execute(
                    f"DELETE FROM {kept} WHERE id IN (SELECT id FROM tables WHERE touched <= ?)",
                    (before,),
                )
            db.execute("DELETE FROM tables WHERE touched <= ?", (before,))
            return [row[0] for row in rows]

        gone = await self._run(lambda: self._write(expire))
        for table_id in gone:
            self._forget(table_id)
        return gone

    def _forget(self, table_id: str) -> None:
        self._tables.pop(table_id, None)
        self._changes.pop(table_id, None)

    def close(self) -> None:
        """Close the file (the worker finishes the writes under way first)."""
        self._worker.submit(self._db.close).result()
        self._worker.shutdown()

    def __len__(self) -> int:
        """How many tables the file holds.

        Raises:
            StoreError: the file cannot be read.
        """

        def count() -> int:
            return int(self._db.execute("SELECT count(*) FROM tables").fetchone()[0])

        return self._worker.submit(self._read, count).result()


def _touch(db: sqlite3.Connection, table: Table, now: float) -> None:
    db.execute(
        "INSERT INTO tables (id, over, touched) VALUES (?, ?, ?) ON CONFLICT (id) "
        "DO UPDATE SET over = excluded.over, touched = excluded.touched",
        (table.id, table.is_over, now),
    )


def _write_whole(db: sqlite3.Connection, table: Table, now: float, body: str) -> None:
    """`table` as its marks and its `body`, with no changes since."""
    _touch(db, table, now)
    db.execute(
        "INSERT INTO bodies (id, body) VALUES (?, ?) ON CONFLICT (id) "
        "DO UPDATE SET body = excluded.body",
        (table.id, body),
    )
    db.execute("DELETE FROM changes WHERE id = ?", (table.id,))


def _damage(db: sqlite3.Connection) -> str:
    """What is missing from the layout of a store's file (a table or a column that a
    hand or a broken copy took away), or ``""``."""
    for name, columns in _COLUMNS.items():
        found = {row[1] for row in db.execute(f"PRAGMA table_info({name})")}
        if not found:
            return f"it has no table {name!r}"
        if not found >= columns:
            return f"its table {name!r} has no column {sorted(columns - found)[0]!r}"
    return ""


_MARKS = ("application_id", "user_version")
_COLUMNS = {
    "tables": {"id", "over", "touched"},
    "bodies": {"id", "body"},
    "changes": {"id", "seq", "change"},
}
# A table's marks, its body (written whole now and then) and its changes since, apart:
# a row is written whole at each update, and a move updates the marks.
_TABLES = """CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    over INTEGER NOT NULL,
    touched REAL NOT NULL
)"""
_BODIES = "CREATE TABLE bodies (id TEXT PRIMARY KEY, body TEXT NOT NULL)"
_CHANGES = """CREATE TABLE changes (
    id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    change TEXT NOT NULL,
    PRIMARY KEY (id, seq)
) WITHOUT ROWID"""
_SCHEMA = (_TABLES, _BODIES, _CHANGES)
# Version 1 held each table in one row, body and marks: split, in the order added.
_FROM_VERSION_1 = (
    "ALTER TABLE tables RENAME TO tables_1",
    _TABLES,
    _BODIES,
    _CHANGES,
    "INSERT INTO tables (id, over, touched) SELECT id, over, touched FROM tables_1 ORDER BY rowid",
    "INSERT INTO bodies (id, body) SELECT id, body FROM tables_1",
    "DROP TABLE tables_1",
)

# --8<-- [end:sqlite]
