"""Where the tables live: one small interface, and a store in this process's memory.

The application reads and writes tables only through :class:`TableStore`, so
a shared store (Redis, a database) can replace :class:`MemoryStore` without
touching the rest. Its methods are coroutines for that reason. A table is an
immutable value, and :meth:`brisca.server.tables.Table.to_json` writes the
whole of it as text, which is what such a store would keep:

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

from brisca.game.errors import BriscaError
from brisca.server.tables import Table

__all__ = ["MemoryStore", "StoreFull", "TableStore"]


class StoreFull(BriscaError):
    """The store holds as many tables as it may."""


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


# --8<-- [end:interface]


class MemoryStore(TableStore):
    """Tables in a dict of this process: fast, and gone when the process stops.

    It holds at most `limit` tables; when full, it forgets the oldest finished
    table to make room, and refuses a new one if none has finished.
    """

    def __init__(self, limit: int = 10_000) -> None:
        self.limit = limit
        self._tables: dict[str, Table] = {}

    async def add(self, table: Table) -> None:
        """Keep `table`, making room by forgetting the oldest finished table if full."""
        if len(self._tables) >= self.limit:
            done = next((k for k, t in self._tables.items() if t.is_over), None)
            if done is None:
                raise StoreFull(f"the server holds {self.limit} tables, its limit; try again later")
            del self._tables[done]
        self._tables[table.id] = table

    async def get(self, table_id: str) -> Table | None:
        """The table, or ``None``."""
        return self._tables.get(table_id)

    async def put(self, table: Table) -> None:
        """Replace the table (insertion order, and so age, stays that of `add`)."""
        self._tables[table.id] = table

    def __len__(self) -> int:
        return len(self._tables)
