"""brisca.runs.simulate: the games of a run, gathered back in order whatever order they come in."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from brisca import BriscaError, StateError, simulate
from brisca.game.rng import Generator


def fake(k: int) -> simulate.Game:
    """A stand-in game that says which one it is by its points."""
    return simulate.Game(((0,), (1,)), (k, 120 - k), 0, (), None)


def test_the_tasks_of_a_run_come_from_one_seed_stream_with_the_dealer_going_round() -> None:
    """Game k takes the k-th number of Generator(seed) and is dealt by seat k mod n."""
    run = simulate.tasks("spanish-4p", ("heuristic", "random") * 2, 6, seed=9, keep_records=True)
    stream = Generator(9)
    assert [task.seed for task in run] == [stream.below(2**64) for _ in range(6)]
    assert [task.dealer for task in run] == [0, 1, 2, 3, 0, 1]
    assert {task.bots for task in run} == {("heuristic", "random", "heuristic", "random")}
    assert all(task.keep_record and task.preset == "spanish-4p" for task in run)
    assert simulate.tasks("spanish-4p", ("random",) * 4, 6, seed=9)[3].seed == run[3].seed


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("spanish-9p", ("random",) * 2, 5, 1), "unknown preset"),
        (("spanish-2p", ("random",) * 3, 5, 1), "spanish-2p has 2 seats, and 3 bots were given"),
        (("spanish-2p", ("random", "genius"), 5, 1), "unknown bot 'genius'"),
        (
            ("spanish-2p", ("random",) * 2, 0, 1),
            "the number of games must be an int from 1 to 10000000",
        ),
        (("spanish-2p", ("random",) * 2, 5, -1), "a seed must be a non-negative int"),
    ],
)
def test_bad_runs_are_refused_before_any_game(args: tuple[object, ...], says: str) -> None:
    with pytest.raises(BriscaError, match=says):
        simulate.tasks(*args)  # type: ignore[arg-type]


def test_gather_puts_chunks_in_order_and_counts_a_repeated_chunk_once() -> None:
    """Chunks out of order, one of them twice: each game once, in order; records are
    handed on in order as soon as the games before them are in."""
    chunks = [(4, [fake(4), fake(5)]), (0, [fake(0), fake(1)]), (4, [fake(40), fake(50)])]
    chunks += [(2, [fake(2), fake(3)])]
    written: list[int] = []
    progress: list[int] = []
    games = simulate.gather(
        chunks, 6, on_game=lambda g: written.append(g.points[0]), on_progress=progress.append
    )
    assert [game.points[0] for game in games] == [0, 1, 2, 3, 4, 5]
    assert written == [0, 1, 2, 3, 4, 5]
    assert progress == [2, 2, 2]  # the repeated chunk added nothing


def test_gather_writes_what_it_can_as_soon_as_it_can() -> None:
    """A record is handed on once every game before it is in, not at the end."""
    written: list[int] = []

    def chunks() -> Iterator[simulate.Chunk]:
        yield 1, [fake(1)]
        assert written == []  # game 0 is not in yet
        yield 0, [fake(0)]
        assert written == [0, 1]
        yield 2, [fake(2)]

    simulate.gather(chunks(), 3, on_game=lambda g: written.append(g.points[0]))
    assert written == [0, 1, 2]


def test_gather_refuses_missing_games_and_games_from_outside_the_run() -> None:
    with pytest.raises(BriscaError, match="1 of 3 games never came back, game 1 first"):
        simulate.gather([(0, [fake(0)]), (2, [fake(2)])], 3)
    with pytest.raises(BriscaError, match="games 2 to 3 are not in this run"):
        simulate.gather([(2, [fake(2), fake(3)])], 3)


def test_run_local_plays_the_tasks_in_order_one_game_a_chunk() -> None:
    run = simulate.tasks("spanish-2p", ("heuristic", "random"), 5, seed=3)
    chunks = list(simulate.run_local(run))
    assert [start for start, _ in chunks] == [0, 1, 2, 3, 4]
    assert [games[0] for _, games in chunks] == [simulate.play(task) for task in run]
    with pytest.raises(BriscaError, match="jobs must be an int from 1 to 256"):
        list(simulate.run_local(run, jobs=0))


def test_bad_input_to_each_entry_point_is_a_brisca_error() -> None:
    """Not a task, not a chunk, not a game: a BriscaError that says what it got, at the call."""
    run = simulate.tasks("spanish-2p", ("random", "random"), 2, seed=1)
    cases = [
        (lambda: simulate.play("spanish-2p"), "play takes a Task, got 'spanish-2p'"),  # type: ignore[arg-type]
        (lambda: simulate.run_local([run[0], 7]), "a run holds Task values, not 7"),  # type: ignore[list-item]
        (lambda: simulate.run_local("abc"), "a run is a sequence of Task values"),  # type: ignore[arg-type]
        (lambda: simulate.gather([(0, [1])], 1), "a chunk's games are Game values"),  # type: ignore[list-item]
        (lambda: simulate.gather([[0, [fake(0)]]], 1), r"a chunk is \(index, games\)"),  # type: ignore[list-item]
        (lambda: simulate.gather([], -1), "total must be a non-negative int"),
        (lambda: simulate.summary("spanish-2p", 1, ("random",), [None], 1.0), "Game values"),  # type: ignore[list-item]
        (lambda: simulate.summary("spanish-2p", 1, ("random",), [fake(1)], 1.0), "inconsistent"),
    ]
    for call, says in cases:
        with pytest.raises(BriscaError, match=says):
            call()


@pytest.mark.parametrize(
    "call",
    [
        lambda: simulate.tasks("spanish-2p", 5, 3, 1),  # type: ignore[arg-type]
        lambda: simulate.tasks("spanish-2p", ("random", "random"), 3, 1, "yes"),  # type: ignore[arg-type]
        lambda: simulate.play(simulate.Task("spanish-2p", None, 1, 0)),  # type: ignore[arg-type]
        lambda: simulate.play(simulate.Task("spanish-2p", ("random", "random"), -1, 0)),
        lambda: simulate.gather(5, 1),  # type: ignore[arg-type]
        lambda: simulate.summary("spanish-2p", 1, ("a", "b"), 5, 1.0),  # type: ignore[arg-type]
        lambda: simulate.summary("spanish-2p", 1, ("a", "b"), [], "x"),  # type: ignore[arg-type]
    ],
)
def test_bad_arguments_to_the_simulation_functions_are_state_errors(call: object) -> None:
    """Junk where a seating, task, chunk list, game list or time belongs is refused with
    a StateError that says so, never a bare TypeError."""
    with pytest.raises(StateError):
        call()  # type: ignore[operator]
