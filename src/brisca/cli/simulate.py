"""``brisca simulate``: many games between bots, and their summary.

The games themselves are :mod:`brisca.runs.simulate`'s, played here or, with
``--backend ray``, on a Ray cluster (:mod:`brisca.runs.ray`, imported only then).
The progress bar is tqdm's, from the ``cli`` extra, when it is installed.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

from brisca.agents.bots import BOTS
from brisca.cli.common import (
    INSTALL_HINT,
    Usage,
    add_preset_argument,
    add_seed_argument,
    open_for_writing,
    preset_rules,
)
from brisca.formats.text import PLAIN, Style, clean
from brisca.game.errors import BriscaError
from brisca.runs import simulate
from brisca.runs.workers import MAX_JOBS

__all__ = ["add_arguments", "command"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``brisca simulate`` on `parser`."""
    add_preset_argument(parser)
    parser.add_argument("-n", type=int, default=1000, help="how many games (default 1000)")
    parser.add_argument(
        "--bots",
        default="heuristic,random",
        help="bots by seat, comma-separated and repeated round the table (default "
        f"heuristic,random); the bots are: {', '.join(BOTS)}, or module:Class for your own",
    )
    add_seed_argument(parser)
    parser.add_argument(
        "--jobs",
        type=int,
        default=None,
        help="worker processes (default 1); with --backend ray, the most shards at once "
        "(default twice the cluster's CPUs)",
    )
    parser.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local: this machine (default); ray: a Ray cluster (the ray extra)",
    )
    parser.add_argument(
        "--address",
        default=None,
        help="the Ray cluster for --backend ray, host:port (default $RAY_ADDRESS, "
        "else a local Ray instance)",
    )
    parser.add_argument("--out", default=None, help="write one game record per line to this file")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def command(args: argparse.Namespace, style: Style = PLAIN) -> int:
    """Run ``brisca simulate`` with parsed `args`; the exit status. The summary shows
    no card, so `style` changes nothing.

    Raises:
        Usage: a bad count, option or output file, or Ray missing for ``--backend ray``.
    """
    rules = preset_rules(args.preset)
    n = rules.num_players
    if not 1 <= args.n <= simulate.MAX_GAMES:
        raise Usage(f"-n must be from 1 to {simulate.MAX_GAMES:,}")
    if args.jobs is not None and args.backend == "local" and not 1 <= args.jobs <= MAX_JOBS:
        raise Usage(f"--jobs must be from 1 to {MAX_JOBS}")
    if args.jobs is not None and args.jobs < 1:  # on Ray, shards in flight: no cap but theirs
        raise Usage("--jobs must be 1 or more")
    if args.address is not None and args.backend != "ray":
        raise Usage("--address names a Ray cluster, for --backend ray")
    ray = _ray_backend() if args.backend == "ray" else None
    names = tuple(b.strip() for b in args.bots.split(","))
    seating = tuple(names[seat % len(names)] for seat in range(n))
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(8), "big")
    run = simulate.tasks(args.preset, seating, args.n, seed, keep_records=args.out is not None)
    out = open_for_writing(args.out) if args.out is not None else None  # closed below
    write = None if out is None else _writer(out)
    lost: tuple[type[Exception], ...] = (ray.ShardError,) if ray is not None else ()
    try:
        if ray is None:
            games, elapsed = _gather(args, simulate.run_local(run, args.jobs or 1), write)
            note = ""
        else:
            # Ray prints its own news (a worker died) on standard output: not the summary's.
            with contextlib.redirect_stdout(sys.stderr):
                games, elapsed, note = _on_ray(args, ray, run, write)
    except lost as error:  # games lost on the cluster: no summary
        print(f"brisca: {clean(str(error))}", file=sys.stderr)
        return 1
    except _Unwritten as error:  # the command's own write: main answers it
        raise error.cause from None
    except (BriscaError, Usage):  # main answers these: a bot's illegal action is one
        raise
    except Exception as error:  # from the games, a bot of the user's, say: no summary
        print(f"brisca: a game stopped: {_failure(error)}", file=sys.stderr)
        return 1
    finally:
        if out is not None:
            out.close()
    print("\n".join(simulate.summary(args.preset, seed, seating, games, elapsed, note)))
    return 0


class _Unwritten(Exception):
    """A record the command could not write, told apart from what the games raise (a
    bot's own `OSError` is not a full disk)."""

    def __init__(self, cause: OSError) -> None:
        super().__init__(cause)
        self.cause = cause


def _writer(out: Any) -> Callable[[simulate.Game], object]:
    def write(game: simulate.Game) -> None:
        try:
            out.write(f"{game.record}\n")
        except OSError as error:
            raise _Unwritten(error) from None

    return write


def _failure(error: BaseException) -> str:
    """What went wrong, in a line: the exception's type and its message, shortened."""
    message = str(error)
    message = message if len(message) <= 200 else message[:197] + "..."
    return clean(f"{type(error).__name__}: {message}" if message else type(error).__name__)


class _NoBar:
    """Stands in for the progress bar when tqdm, the cli extra, is not installed."""

    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress(total: int, quiet: bool) -> Any:
    if quiet:
        return _NoBar()
    try:
        tqdm = importlib.import_module("tqdm").tqdm  # the cli extra
    except ImportError:
        print(f"brisca: no progress bar without the cli extra ({INSTALL_HINT})", file=sys.stderr)
        return _NoBar()
    return tqdm(total=total, unit="game", file=sys.stderr, dynamic_ncols=True)


def _ray_backend() -> Any:
    """The `brisca.runs.ray` module, or a usage error naming the extra to install."""
    try:
        return importlib.import_module("brisca.runs.ray")
    except ImportError as error:
        raise Usage(f"--backend ray needs Ray, which is not installed: {error}") from None


def _gather(
    args: argparse.Namespace,
    chunks: Iterable[simulate.Chunk],
    write: Callable[[simulate.Game], object] | None,
) -> tuple[list[simulate.Game], float]:
    """The games in task order, with the progress bar, and the seconds they took."""
    start = time.perf_counter()
    bar = _progress(args.n, args.quiet)
    try:
        games = simulate.gather(chunks, args.n, on_game=write, on_progress=bar.update)
    finally:
        bar.close()
    return games, time.perf_counter() - start


def _on_ray(
    args: argparse.Namespace,
    ray: Any,
    run: list[simulate.Task],
    write: Callable[[simulate.Game], object] | None,
) -> tuple[list[simulate.Game], float, str]:
    """The games played on Ray, the seconds they took, and what starting Ray took."""
    cluster = ray.connect(args.address)
    try:
        if not args.quiet:
            print(f"brisca: {cluster}", file=sys.stderr)
        games, elapsed = _gather(args, ray.run(run, in_flight=args.jobs), write)
    finally:
        cluster.close()
    note = f"; Ray took {cluster.seconds:.2f} s more to start" if cluster.owned else ""
    return games, elapsed, note
