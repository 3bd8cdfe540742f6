"""The Ray backend of ``brisca simulate``: the same games, played on a Ray cluster.

Needs the ``ray`` extra, ``pip install 'brisca[ray]'``, on the machine that runs the
command and on every node of the cluster.

The games of a run are :func:`brisca.runs.simulate.tasks`, each with its own seed and
dealer. :func:`run` cuts that list into shards, contiguous ranges of it, and plays
each shard as one Ray task, so a game is the same game on any node, and the
games, put back in task order, are those of a local run with the same seed.
When a worker or its node dies, Ray runs the shard again (up to :data:`RETRIES`
times); a shard is a pure function of its tasks, so the second run gives the same
games, and :func:`brisca.runs.simulate.gather` keeps each game by its index, so none
is counted twice.

>>> from brisca import simulate_ray
>>> simulate_ray.shards(10, 4)
[range(0, 4), range(4, 8), range(8, 10)]
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import socket
import time
from collections import deque
from collections.abc import Iterator, Sequence

import attrs

try:
    import ray
    from ray.exceptions import RayError, RayTaskError
except ImportError as missing:
    raise ImportError(f"brisca.runs.ray needs Ray: pip install 'brisca[ray]' ({missing})") from None

from brisca.game.errors import BriscaError, checked_int, describe
from brisca.runs.simulate import Chunk, Game, Task, checked_tasks, play

__all__ = [
    "MAX_SHARD",
    "RETRIES",
    "Cluster",
    "ClusterError",
    "ShardError",
    "connect",
    "run",
    "shard_size",
    "shards",
]

#: How many times Ray runs a shard again when the worker or node running it dies.
RETRIES = 3
#: The most games in one shard: a shard is the unit that is retried and that moves the
#: progress bar, so it stays small, at a second or so of play.
MAX_SHARD = 500
#: Seconds to wait for a cluster's address to answer before saying nothing is there.
REACH_TIMEOUT = 5.0


class ClusterError(BriscaError):
    """No Ray cluster at the address given, or none can be started or reached."""


class ShardError(BriscaError):
    """A shard of games was lost for good: its worker died more often than Ray retries."""


@attrs.frozen
class Cluster:
    """The Ray a run uses: a cluster reached at an address, or a local instance."""

    #: The address connected to, or ``None`` for a local instance started for the run
    #: or a connection the program already had.
    address: str | None
    #: The cluster's CPUs when connected.
    cpus: int
    #: Seconds it took to start or reach it.
    seconds: float
    #: Whether this program started the connection, and so ends it in :meth:`close`.
    owned: bool

    def __str__(self) -> str:
        cpus = f"{self.cpus} CPU{'s' if self.cpus != 1 else ''}"
        if not self.owned:
            return f"using this program's Ray connection ({cpus})"
        if self.address is None:
            return f"started a local Ray instance ({cpus}) in {self.seconds:.2f} s"
        return f"connected to the Ray cluster at {self.address} ({cpus}) in {self.seconds:.2f} s"

    def close(self) -> None:
        """End the connection if this program made it (a local instance stops with it)."""
        if self.owned and ray.is_initialized():
            ray.shutdown()


def connect(address: str | None = None) -> Cluster:
    """Connect to the Ray cluster at `address`, else at ``RAY_ADDRESS``, else start a local one.

    `address` is as Ray reads it: ``host:port`` of the head node, ``ray://host:port``
    for Ray Client, or ``auto`` for a cluster started on this machine with
    ``ray start``. A program already connected to Ray (``ray.init`` was called) keeps
    its connection, and `address` is not used.

    Raises:
        ClusterError: nothing answers at the address, or Ray cannot connect to it.
    """
    if address is not None and (not isinstance(address, str) or not address.strip()):
        raise ClusterError(f"an address is a str such as 'head-node:6379', got {describe(address)}")
    if ray.is_initialized():
        return Cluster(None, _cpus(), 0.0, owned=False)
    target = address or os.environ.get("RAY_ADDRESS") or None
    if target is not None:
        why = _unreachable(target)
        if why is not None:
            raise ClusterError(f"no Ray cluster at {target!r}: {why}")
    start = time.perf_counter()
    try:
        if target is None:
            # "local", not None: Ray would otherwise join a `ray start` cluster it finds.
            ray.init(address="local", include_dashboard=False, logging_level=logging.WARNING)
        else:
            ray.init(address=target, logging_level=logging.WARNING)
    except (ConnectionError, RuntimeError, ValueError) as error:
        where = f"the Ray cluster at {target!r}" if target else "a local Ray instance"
        raise ClusterError(f"cannot reach {where}: {_first_line(error)}") from None
    return Cluster(target, _cpus(), time.perf_counter() - start, owned=True)


def _first_line(error: BaseException) -> str:
    """The first line of an error's message: Ray's run on for pages."""
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def _unreachable(address: str) -> str | None:
    """Why nothing can answer at ``host:port`` (or ``ray://host:port``); ``None`` if it may.

    Ray itself waits for minutes on an address where nothing listens, so the
    address is tried first, briefly.
    """
    if address in ("auto", "local"):
        return None
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    host = host.strip("[]")  # an IPv6 host, [::1]:6379
    if not colon or not host or not port.isdigit():
        return "an address is host:port, ray://host:port or auto"
    try:
        with socket.create_connection((host, int(port)), timeout=REACH_TIMEOUT):
            return None
    except OSError as error:
        return str(error.strerror or error)


def _named(part: range) -> str:
    """A shard's games as a message names them: ``game 6``, ``games 8 to 15``."""
    return f"game {part.start}" if len(part) == 1 else f"games {part.start} to {part.stop - 1}"


def _count(name: str, value: object, least: int) -> None:
    checked_int(value, name, least, error=BriscaError)


def _cpus() -> int:
    resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
    return int(resources.get("CPU", 0))


def shards(total: int, size: int) -> list[range]:
    """The game indices ``range(total)`` cut into consecutive ranges of `size` (the last
    may be shorter).

    Raises:
        BriscaError: `total` is not a non-negative int, or `size` not a positive one.
    """
    _count("total", total, 0)
    _count("size", size, 1)
    return [range(start, min(start + size, total)) for start in range(0, total, size)]


def shard_size(total: int, cpus: int) -> int:
    """Games per shard: about eight shards per CPU, for an even load and a moving
    progress bar, and at most :data:`MAX_SHARD`.

    Raises:
        BriscaError: `total` or `cpus` is not a non-negative int.
    """
    _count("total", total, 0)
    _count("cpus", cpus, 0)
    return max(1, min(MAX_SHARD, math.ceil(total / (8 * max(1, cpus)))))


@ray.remote(max_retries=RETRIES, retry_exceptions=False)
def _play_shard(start: int, part: Sequence[Task]) -> tuple[int, list[Game]]:
    """One shard, played in a Ray worker: the games of `part`, which begins at game `start`."""
    return start, [play(task) for task in part]


def run(
    tasks: Sequence[Task], *, in_flight: int | None = None, size: int | None = None
) -> Iterator[Chunk]:
    """Play `tasks` on the Ray this program is connected to (see :func:`connect`).

    Yields each shard's games as it finishes, ``(index of its first game, games)``,
    in whatever order the shards finish; :func:`brisca.runs.simulate.gather` puts them in
    order. At most `in_flight` shards are submitted at a time; by default twice the
    cluster's CPUs, counted again as shards finish, so that a cluster that grows gets
    more. `size` is the games per shard, :func:`shard_size` by default.

    Raises:
        ClusterError: not connected to Ray.
        ShardError: a shard was lost more often than Ray retries it.
        BriscaError: bad `in_flight` or `size`, or a game's own error (a bot's illegal
            action), as a local run raises it.
    """
    tasks = checked_tasks(tasks)
    for name, value in (("in_flight", in_flight), ("size", size)):
        if value is not None:
            _count(name, value, 1)
    if not ray.is_initialized():
        raise ClusterError("not connected to Ray: call brisca.runs.ray.connect() first")
    return _run(tasks, in_flight, size or shard_size(len(tasks), _cpus()))


def _run(tasks: list[Task], in_flight: int | None, size: int) -> Iterator[Chunk]:
    todo = deque(shards(len(tasks), size))
    running: dict[ray.ObjectRef[tuple[int, list[Game]]], range] = {}
    try:
        while todo or running:
            limit = in_flight or max(2, 2 * _cpus())
            while todo and len(running) < limit:
                part = todo.popleft()
                ref = _play_shard.remote(part.start, list(tasks[part.start : part.stop]))
                running[ref] = part
            ready, _ = ray.wait(list(running), num_returns=1)
            part = running.pop(ready[0])
            try:
                yield ray.get(ready[0])
            except RayTaskError as error:  # the games raised: as in a local run
                if isinstance(error.cause, BriscaError):
                    raise error.cause from None
                raise
            except RayError as error:
                raise ShardError(
                    f"{_named(part)} lost: Ray gave up after {RETRIES} retries "
                    f"({type(error).__name__}: {_first_line(error)})"
                ) from None
    finally:
        for ref in running:  # an error, or the caller stopped reading: stop the rest
            with contextlib.suppress(RayError):
                ray.cancel(ref)
