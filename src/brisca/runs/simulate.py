"""Simulations: many games between bots, played here or on a cluster, and their summary.

``brisca simulate`` is built from these pieces, and so are its backends:

- :func:`tasks` derives every game of a run from one seed, each game with its own
  seed and dealer, so that a game is the same wherever and whenever it is played;
- :func:`play` plays one task; :func:`run_local` plays a list of them in this
  process or in a pool of worker processes (``--jobs``), and the Ray backend,
  :mod:`brisca.runs.ray`, plays them on a cluster;
- :func:`gather` puts the games back in task order, whatever order they come
  in, each game once;
- :func:`summary` tells the result: win rates with Wilson intervals, ties, mean
  points and speed.

>>> from brisca import simulate
>>> run = simulate.tasks("spanish-2p", ("heuristic", "random"), 4, seed=1)
>>> [task.dealer for task in run]
[0, 1, 0, 1]
>>> games = simulate.gather(simulate.run_local(run), len(run))
>>> [game.points for game in games] == [simulate.play(task).points for task in run]
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence

import attrs

from brisca.agents.bots import bot_seed, make_bot, play_game
from brisca.formats import records
from brisca.game.errors import StateError, as_state_error, checked_int, describe
from brisca.game.presets import preset
from brisca.game.rng import Generator
from brisca.runs.stats import wilson_interval
from brisca.runs.workers import MAX_JOBS, in_workers

__all__ = [
    "MAX_GAMES",
    "Chunk",
    "Game",
    "Task",
    "checked_tasks",
    "gather",
    "play",
    "run_local",
    "summary",
    "tasks",
]


@attrs.frozen
class Task:
    """One game of a simulation: all a worker needs to play it, wherever it runs."""

    #: The preset's name.
    preset: str
    #: The bots by seat, as :func:`brisca.agents.bots.make_bot` names them.
    bots: tuple[str, ...]
    #: The game's seed, drawn from the run's seed stream.
    seed: int
    dealer: int
    #: Whether to keep the game as a game record (``--out``).
    keep_record: bool = False


@attrs.frozen
class Game:
    """One game played, as a worker reports it."""

    sides: tuple[tuple[int, ...], ...]
    points: tuple[int, ...]
    winner: int | None
    tied: tuple[int, ...]
    #: The game record as one line of JSON, when the task asked for it.
    record: str | None


#: Games of a run from an index on: ``(index of the first, the games)``.
Chunk = tuple[int, Sequence[Game]]


#: The most games a run plays: its tasks and games are kept (a few hundred bytes each).
MAX_GAMES = 10**7


def tasks(
    preset_name: str, seating: Sequence[str], n: int, seed: int, keep_records: bool = False
) -> list[Task]:
    """The `n` games of a run: game *k* takes the *k*-th number of ``Generator(seed)``
    as its seed, and seat *k* mod the table's size deals it.

    Args:
        preset_name: the preset every game plays.
        seating: a bot name per seat.
        n: how many games, at most `MAX_GAMES`.
        seed: the run's seed, a non-negative int.
        keep_records: whether the games keep their game records.

    Raises:
        BriscaError: an unknown preset or bot, not one bot per seat, a bad count or seed.
    """
    rules = preset(preset_name)
    if isinstance(seating, (str, bytes)) or not isinstance(seating, Sequence):
        raise StateError(f"seating is a sequence of bot names, got {describe(seating)}")
    if type(keep_records) is not bool:
        raise StateError(f"keep_records must be a bool, got {describe(keep_records)}")
    if len(seating) != rules.num_players:
        raise StateError(
            f"{preset_name} has {rules.num_players} seats, and {len(seating)} bots were given"
        )
    for name in seating:
        make_bot(name)  # an unknown bot fails now, not in a worker
    checked_int(n, "the number of games", 1, MAX_GAMES)
    checked_int(seed, "a seed")
    stream = Generator(seed)
    players = rules.num_players
    bots = tuple(seating)
    return [
        Task(preset_name, bots, stream.below(2**64), k % players, keep_records) for k in range(n)
    ]


def checked_tasks(run: object) -> list[Task]:
    """`run` as a list, if it is a sequence of `Task` values (as :func:`tasks` makes).

    Raises:
        BriscaError: it is not.
    """
    if not isinstance(run, Sequence) or isinstance(run, str):
        raise StateError(f"a run is a sequence of Task values, got {describe(run)}")
    for task in run:
        if not isinstance(task, Task):
            raise StateError(f"a run holds Task values, not {describe(task)}")
    return list(run)


def play(task: Task) -> Game:
    """Play one task's game (in whatever process or machine runs it).

    Raises:
        BriscaError: `task` is not a `Task`, or names a preset, bot, seed or dealer
            that cannot be.
    """
    if not isinstance(task, Task):
        raise StateError(f"play takes a Task, got {describe(task)}")
    names = task.bots
    if not isinstance(names, tuple) or not all(isinstance(name, str) for name in names):
        raise StateError(f"a task's bots are a tuple of names, got {describe(names)}")
    checked_int(task.seed, "a task's seed")
    if type(task.keep_record) is not bool:
        raise StateError(f"a task's keep_record must be a bool, got {describe(task.keep_record)}")
    bots = [make_bot(bot, bot_seed(task.seed, seat)) for seat, bot in enumerate(task.bots)]
    final, outcome = play_game(task.preset, bots, seed=task.seed, dealer=task.dealer)
    record = None
    if task.keep_record:  # the final state carries its deal and every action
        record = records.dumps(records.record_game(final, players=list(task.bots)))
        if "\n" in record:
            record = json.dumps(json.loads(record), separators=(",", ":"))
    return Game(outcome.sides, outcome.points, outcome.winner, outcome.tied, record)


def run_local(run: Sequence[Task], jobs: int = 1) -> Iterator[Chunk]:
    """Play `run` here: in this process, or with `jobs` > 1 in that many worker processes.

    Yields each game as a chunk of one, in task order.

    Raises:
        BriscaError: `run` is not a sequence of tasks, or `jobs` is not an int from 1
            to :data:`brisca.runs.workers.MAX_JOBS`.
    """
    run = checked_tasks(run)
    checked_int(jobs, "jobs", 1, MAX_JOBS)
    return _run_local(run, jobs)


def _run_local(run: list[Task], jobs: int) -> Iterator[Chunk]:
    for index, game in enumerate(in_workers(play, run, jobs, 64)):
        yield index, (game,)


def gather(
    chunks: Iterable[Chunk],
    total: int,
    on_game: Callable[[Game], object] | None = None,
    on_progress: Callable[[int], object] | None = None,
) -> list[Game]:
    """The `total` games of a run, in task order, from chunks that come in any order.

    Each game is kept by its index, so a chunk that comes twice (a shard played
    again after its worker was thought lost) counts once. `on_game` is called with
    each game in task order as soon as every game before it is in (to write records
    in order); `on_progress` with the number of games each chunk added.

    Raises:
        BriscaError: a chunk that is not an index and games, or lies outside the run;
            games missing at the end.
    """
    checked_int(total, "total")
    if not isinstance(chunks, Iterable):
        raise StateError(f"chunks must be an iterable of (index, games), got {describe(chunks)}")
    games: list[Game | None] = [None] * total
    done = written = 0
    for chunk in chunks:
        if not (isinstance(chunk, tuple) and len(chunk) == 2 and type(chunk[0]) is int):
            raise StateError(f"a chunk is (index, games), got {describe(chunk)}")
        start, part = chunk
        if not isinstance(part, Sequence) or not all(isinstance(g, Game) for g in part):
            raise StateError(f"a chunk's games are Game values, got {describe(part)}")
        if start < 0 or start + len(part) > total:
            raise StateError(f"games {start} to {start + len(part) - 1} are not in this run")
        added = 0
        for offset, game in enumerate(part):
            if games[start + offset] is None:
                games[start + offset] = game
                added += 1
        done += added
        while written < total and (next_game := games[written]) is not None:
            if on_game is not None:
                on_game(next_game)
            written += 1
        if added and on_progress is not None:
            on_progress(added)
    if done < total:
        missing = games.index(None)
        raise StateError(f"{total - done} of {total} games never came back, game {missing} first")
    return [game for game in games if game is not None]


def summary(
    preset_name: str,
    seed: int,
    seating: Sequence[str],
    games: Sequence[Game],
    elapsed: float,
    note: str = "",
) -> list[str]:
    """The lines of ``brisca simulate``'s summary; the last is the timing line, with `note`.

    Raises:
        BriscaError: `games` are not `Game` values, or do not fit `seating`.
    """
    if isinstance(games, (str, bytes)) or not isinstance(games, Sequence):
        raise StateError(f"summary takes the Game values of a run, got {describe(games)}")
    if not all(isinstance(game, Game) for game in games):
        raise StateError("summary takes the Game values of a run")
    if isinstance(elapsed, bool) or not isinstance(elapsed, (int, float)):
        raise StateError(f"elapsed must be a number of seconds, got {describe(elapsed)}")
    if isinstance(seating, (str, bytes)) or not isinstance(seating, Sequence):
        raise StateError(f"seating is a sequence of bot names, got {describe(seating)}")
    with as_state_error("the seating of these games"):
        return _summary(preset_name, seed, seating, games, elapsed, note)


def _summary(
    preset_name: str,
    seed: int,
    seating: Sequence[str],
    games: Sequence[Game],
    elapsed: float,
    note: str,
) -> list[str]:
    seats = ", ".join(f"seat {s} {bot}" for s, bot in enumerate(seating))
    lines = [f"{preset_name}: {len(games)} games, seed {seed}; {seats}"]
    # One row per side while the sides stay the same; when they change from game
    # to game (a seat sitting out, an auction's contract), one row per seat,
    # counting the games it played and the ones its side won.
    fixed = len({game.sides for game in games}) == 1
    rows: dict[tuple[int, ...], list[int]] = {}  # side or (seat,) -> games, wins, ties, points
    for game in games:
        for index, side in enumerate(game.sides):
            for key in [side] if fixed else [(seat,) for seat in side]:
                row = rows.setdefault(key, [0, 0, 0, 0])
                row[0] += 1
                row[1] += game.winner == index
                row[2] += game.winner is None and index in game.tied
                row[3] += game.points[index]
    header = (
        f"{'side' if fixed else 'seat':<10} {'bots':<20} {'games':>6} {'wins':>6} "
        f"{'win rate':>8}  {'95% CI':<16} {'ties':>5} {'mean points':>11}"
    )
    lines += [header, "-" * len(header)]
    for key in sorted(rows):
        played, wins, ties, points = rows[key]
        low, high = wilson_interval(wins, played)
        bots = "+".join(seating[s] for s in key)
        lines.append(
            f"{'+'.join(map(str, key)):<10} {bots:<20} {played:>6} {wins:>6} "
            f"{wins / played:>8.1%}  {f'[{low:.1%}, {high:.1%}]':<16} {ties:>5} "
            f"{points / played:>11.1f}"
        )
    if not fixed:
        lines.append("(sides change from game to game: a seat's wins are its side's)")
    ties = sum(game.winner is None for game in games)
    rate = len(games) / elapsed if elapsed > 0 else float("inf")
    lines.append(
        f"hands without a winner: {ties}; {len(games)} games in {elapsed:.2f} s, "
        f"{rate:.0f} games/s{note}"
    )
    return lines
