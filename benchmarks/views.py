"""What a server spends per game in this process, against ``play_game``, as ratios of one run.

Run: ``python benchmarks/views.py [-n GAMES] [--preset P] [--repeat R]``
(needs ``pip install '.[serve]'`` for nothing: only the table and the protocol).

Each game is played at random through `brisca.server.tables.Table.act`, as the
server plays it, and costed in steps, each row including the ones above it:

- ``act``: `Table.act` for each move;
- ``+ updates``: every seat's update (`brisca.server.protocol.update`) after every
  move, each seat a connection that was sent the update before, as the hub sends
  them: the finished tricks incremental;
- ``+ updates, full views``: the same with every view whole, as a new connection
  gets it (and as every update was before increments);
- ``+ store text``: incremental updates and what a `SQLiteStore` writes after each
  move: the move's change (`Table.change_from`), or where a checkout has none, the
  table whole (`Table.to_json`).

``play_game`` between random bots is timed in the same run, the engine alone. Each
row is the median of `R` runs. A checkout from before incremental updates (no
``protocol.sent``) is measured too, with full views only.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import brisca
from brisca.agents.bots import RandomBot, play_game
from brisca.server import protocol
from brisca.server.tables import Table, new_table

INCREMENTAL = hasattr(protocol, "sent")
CHANGES = hasattr(Table, "change_from")


def served(preset: str, seed: int, updates: bool, full: bool, store: bool) -> None:
    """One game at a table of people, every seat connected."""
    n = brisca.preset(preset).num_players
    table = new_table(preset, ["human"] * n, seed=seed)
    rng = random.Random(seed)
    connected = [True] * n
    sent: list[Any] = [None] * n
    while not table.is_over:
        seat = table.to_act
        assert seat is not None
        before = table
        table, events = table.act(seat, rng.choice(table.legal(seat)))
        if updates:
            now = protocol.sent(table) if INCREMENTAL and not full else None
            for k in range(n):
                if now is None:
                    protocol.update(table, k, events, connected)
                else:
                    protocol.update(table, k, events, connected, sent[k])
                sent[k] = now
        if store:  # a move's change, as SQLiteStore writes it (else the table whole)
            change = table.change_from(before) if CHANGES else None
            if change is None:
                table.to_json()


def engine(preset: str, seed: int) -> None:
    n = brisca.preset(preset).num_players
    play_game(preset, [RandomBot(seed=seed * n + s) for s in range(n)], seed=seed)


def per_game(work: Callable[[int], None], games: int) -> float:
    """CPU milliseconds per game."""
    start = time.process_time()
    for seed in range(games):
        work(seed)
    return 1000 * (time.process_time() - start) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=40, help="games per row and run (default 40)")
    parser.add_argument("--preset", default="spanish-2p")
    parser.add_argument("--repeat", type=int, default=5, help="runs; medians (default 5)")
    args = parser.parse_args()
    p = args.preset
    rows: dict[str, Callable[[int], None]] = {
        "play_game": lambda seed: engine(p, seed),
        "act": lambda seed: served(p, seed, False, False, False),
    }
    if INCREMENTAL:
        rows["+ updates"] = lambda seed: served(p, seed, True, False, False)
    rows["+ updates, full views"] = lambda seed: served(p, seed, True, True, False)
    if INCREMENTAL:
        rows["+ store text"] = lambda seed: served(p, seed, True, False, True)
    times: dict[str, list[float]] = {name: [] for name in rows}
    ratios: dict[str, list[float]] = {name: [] for name in rows}
    for _ in range(args.repeat):
        once = {name: per_game(work, args.n) for name, work in rows.items()}
        for name, ms in once.items():
            times[name].append(ms)
            ratios[name].append(ms / once["play_game"])
    print(f"{p}: {args.n} games a row, medians of {args.repeat} runs")
    print(f"{'':<24} {'ms/game':>9} {'x play_game':>12}")
    for name in rows:
        print(
            f"{name:<24} {statistics.median(times[name]):>9.2f} "
            f"{statistics.median(ratios[name]):>12.1f}"
        )


if __name__ == "__main__":
    main()
