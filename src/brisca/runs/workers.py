"""Worker processes for the runs that play many games: one pool, bounded, that leaves
Ctrl-C to the process that started it."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

from brisca.game.errors import checked_int

__all__ = ["MAX_JOBS", "in_workers"]

T = TypeVar("T")
R = TypeVar("R")

#: The most worker processes a run starts: far more than any machine's cores, and few
#: enough that a mistyped count cannot fork the machine to a standstill.
MAX_JOBS = 256


def in_workers(
    work: Callable[[T], R], items: Sequence[T], jobs: int, most_per_chunk: int
) -> Iterator[R]:
    """``map(work, items)`` in order, in this process when `jobs` is 1, else in at most
    `jobs` worker processes (never more than there are items), each sent chunks of at
    most `most_per_chunk` items.

    The workers ignore SIGINT: a Ctrl-C at the terminal reaches the whole process group,
    and only this process should answer it. When the caller stops early (an error, a
    Ctrl-C), the chunks not yet started are dropped and the workers end with the chunk
    they hold. ``multiprocessing.Pool`` killed them instead, and that could hang for good
    (its task thread waited for ever on its queue's lock): a bot raising under load
    stopped `brisca simulate --jobs 2` about once in twenty runs.

    Raises:
        StateError: `jobs` is not an int from 1 to `MAX_JOBS`.
    """
    checked_int(jobs, "jobs", 1, MAX_JOBS)
    jobs = min(jobs, len(items))
    if jobs <= 1:
        yield from map(work, items)
        return
    pool = ProcessPoolExecutor(jobs, initializer=_ignore_interrupts)
    try:
        chunk = max(1, min(most_per_chunk, len(items) // (8 * jobs)))
        yield from pool.map(work, items, chunksize=chunk)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
