"""What a move costs the server's SQLite table store as a match grows.

Run: ``python benchmarks/store.py [--hands 125,250,500,1000] [--moves 200]``
(needs nothing beyond the library).

One long match (``subastada-3p``, to 500 game points: about 2,000 hands of random
play) is played at a table through `Table.act`, every move written by
`SQLiteStore.put` as `brisca serve --store` writes it. At each mark of finished
hands it times `--moves` further moves (act and put, wall time, the worker thread's
write included) and prints the median per move and its ratio to the mark before:
about 1 for a store whose writes do not grow with the match (every move had written
the whole match, 2 per doubling). Then it reopens the file and reads the table back.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from brisca.server.store import SQLiteStore
from brisca.server.tables import Table, new_table


async def measure(marks: list[int], moves: int, path: Path) -> Table:
    rng = random.Random(0)
    table = new_table("subastada-3p", ["human", "random", "random"], match=True, seed=5)
    store = SQLiteStore(path)
    try:
        await store.add(table)
        before = None
        for mark in marks:
            while len(table.finished) < mark and not table.is_over:
                table = await _move(store, table, rng)
            if table.is_over:
                print(f"the match ended at {len(table.finished)} hands")
                break
            times = []
            for _ in range(moves):
                start = time.perf_counter()
                table = await _move(store, table, rng)
                times.append(time.perf_counter() - start)
            median = statistics.median(times) * 1000
            ratio = "" if before is None else f"   x{median / before:.2f} the mark before"
            print(f"{mark:5d} hands, {table.moves:6d} moves: {median:6.3f} ms a move{ratio}")
            before = median
    finally:
        store.close()
    return table


async def _move(store: SQLiteStore, table: Table, rng: random.Random) -> Table:
    seat = table.to_act
    assert seat is not None
    table = table.act(seat, rng.choice(table.legal(seat)))[0]
    await store.put(table)
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", default="125,250,500,1000", help="marks of finished hands")
    parser.add_argument("--moves", type=int, default=200, help="moves timed at each mark")
    args = parser.parse_args()
    marks = [int(mark) for mark in args.hands.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tables.db"
        table = asyncio.run(measure(marks, args.moves, path))
        store = SQLiteStore(path)
        start = time.perf_counter()
        again = asyncio.run(store.get(table.id))
        took = time.perf_counter() - start
        store.close()
        same = "equal" if again == table else "NOT EQUAL"
        print(f"read back after a restart in {took:.2f} s: {same}")


if __name__ == "__main__":
    main()
