"""The solver (`brisca.agents.search.solve`): exact against plain minimax, and what it refuses."""

from __future__ import annotations

import random

import pytest

import brisca
from brisca.agents import search
from brisca.agents.search import INFINITE_DEPTH, cards_to_play, evaluate, score, solve
from brisca.game.rng import Generator
from brisca.game.state import ContractResult, State, Termination

# Presets whose trick play differs: free play, arrastre duties, swaps, a black hand,
# cubierta, signals, cantes after an auction, the seat sitting out, a called partner.
TWO_PLAYERS = ("spanish-2p", "arrastre-2p", "puerto-rican-2p", "casino-2p", "cubierta-2p")
FOUR_PLAYERS = ("spanish-4p", "arrastre-4p", "casino-4p", "subastada-4p", "puerto-rican-4p")
OTHERS = ("spanish-3p", "spanish-5p", "chiamata-5p", "subastada-3p", "spanish-6p")


def final_score(state: State, side: int) -> int:
    """The side's score at the end, read from `brisca.result` alone: card points, cantes,
    and for a black hand every point its holder's side had not yet taken."""
    outcome = brisca.result(state)
    total = outcome.points[side]
    if isinstance(outcome.details, ContractResult):
        total += outcome.details.cantes[side]
    if outcome.termination is Termination.BLACK_HAND and outcome.winner == side:
        pack = sum(state.rules.card_points(c) for c in state.rules.cards)
        total = pack - sum(outcome.points[s] for s in range(len(outcome.sides)) if s != side)
    return total


def minimax(state: State, side: int) -> int:
    """Plain minimax over every legal action, no pruning, no table: the side maximises,
    every other seat minimises."""
    if state.is_over:
        return final_score(state, side)
    values = [minimax(brisca.apply(state, a), side) for a in brisca.legal_actions(state)]
    assert state.to_act is not None
    return max(values) if state.seating.side_of[state.to_act] == side else min(values)


def small_position(preset: str, rng: random.Random, left: int) -> State | None:
    """A random position of `preset` with at most `left` cards still to play, or None
    when the random game ended first."""
    state = brisca.new_game(preset, seed=rng.randrange(2**32))
    while not state.is_over and cards_to_play(state) > left:
        legal = brisca.legal_actions(state)
        state = brisca.apply(state, legal[rng.randrange(len(legal))])
    if state.is_over or state.trump is None:
        return None
    return state


def check_against_minimax(state: State, every_side: bool) -> None:
    """Every action's value for the mover's side (or for every side) is plain minimax's,
    and the best actions are the mover's best: for its own side the highest value, for
    another side the lowest."""
    assert state.to_act is not None
    mover = state.seating.side_of[state.to_act]
    for side in range(len(state.sides)) if every_side else (mover,):
        solution = solve(state, side=side)
        children = [(a, minimax(brisca.apply(state, a), side)) for a in brisca.legal_actions(state)]
        best = (max if side == mover else min)(v for _, v in children)
        assert solution.exact
        assert solution.value == best
        assert solution.values == tuple(children)
        assert solution.best_actions == tuple(a for a, v in children if v == best)


@pytest.mark.parametrize(
    ("presets", "count", "sizes"),
    [
        # Mostly the last tricks, and some positions with a round of draws or a
        # third trick to go; the sizes are cards still to play, drawn uniformly.
        (TWO_PLAYERS, 6000, (6, 6, 6, 8)),
        (FOUR_PLAYERS, 4000, (8,) * 9 + (12,)),
        (OTHERS, 600, (6, 8, 9, 10)),
    ],
    ids=["2p", "4p", "3p-5p-6p"],
)
def test_solver_equals_minimax_on_random_small_positions(
    presets: tuple[str, ...], count: int, sizes: tuple[int, ...]
) -> None:
    """Alpha-beta with its table and move ordering gives every action the value plain
    minimax gives it, on thousands of random small positions of every kind of table,
    for the side to act and, on every fourth position, for every side."""
    rng = random.Random(f"solver-{presets[0]}")
    checked = 0
    while checked < count:
        preset = presets[checked % len(presets)]
        state = small_position(preset, rng, rng.choice(sizes))
        if state is None:
            continue
        check_against_minimax(state, every_side=checked % 4 == 0)
        checked += 1


def test_two_player_endgame_is_solved_exactly_once_the_stock_is_empty() -> None:
    """With the stock gone every card is known in 2p: the solver plays the last three
    tricks perfectly, each best action keeping the value through to the end."""
    rng = random.Random(3)
    for _ in range(50):
        state = small_position("spanish-2p", rng, 6)
        if state is None:
            continue
        side = state.seating.side_of[state.to_act]  # type: ignore[index]
        promised = solve(state, side=side).value
        while not state.is_over:
            mover = state.seating.side_of[state.to_act]  # type: ignore[index]
            state = brisca.apply(state, solve(state, side=mover).best_actions[0])
        assert final_score(state, side) == promised


def test_depth_limited_search_scores_the_points_taken_by_the_horizon() -> None:
    """At depth 1 the value is the side's score once the trick in progress is won,
    under best play of that trick alone; `exact` says whether the hand ended."""
    state = brisca.new_game("spanish-2p", seed=11)
    solution = solve(state, depth=1)
    assert not solution.exact
    best = -1
    for lead in brisca.legal_actions(state):
        after = brisca.apply(state, lead)
        replies = []
        for reply in brisca.legal_actions(after):
            done = brisca.apply(after, reply)
            replies.append(done.side_points[0])
        best = max(best, min(replies))
    assert solution.value == best
    late = small_position("spanish-2p", random.Random(5), 4)
    assert late is not None
    assert solve(late, depth=2).exact
    assert solve(late, depth=2).value == solve(late, depth=INFINITE_DEPTH).value


def test_score_counts_cantes_and_black_hands() -> None:
    """`score` adds a side's cantes to its card points, and a black hand gives its holder's
    side every point still in play."""
    rng = random.Random(8)
    found = {"cante": False, "black": False}
    for _ in range(400):
        preset = rng.choice(("subastada-4p", "casino-2p"))
        state = brisca.new_game(preset, seed=rng.randrange(2**32))
        while not state.is_over:
            legal = brisca.legal_actions(state)
            claims = [a for a in legal if isinstance(a, (brisca.ClaimBlackHand, brisca.Sing))]
            state = brisca.apply(state, claims[0] if claims else legal[rng.randrange(len(legal))])
        if brisca.result(state).termination is Termination.VOID:
            continue
        found["cante"] |= bool(state.ledger.cantes)
        found["black"] |= state.ledger.black_hand is not None
        for side in range(len(state.sides)):
            assert score(state, side) == final_score(state, side)
    assert found == {"cante": True, "black": True}


def test_evaluate_refuses_bad_input() -> None:
    """evaluate's bad arguments get a StateError that names the problem."""
    state = brisca.new_game("spanish-2p", seed=1)
    view, legal = brisca.observe(state, 0), brisca.legal_actions(state)
    rng = Generator(1)
    for args, message in (
        (("view", legal, 2, rng), "Observation"),
        ((view, [], 2, rng), "non-empty"),
        ((view, "2O", 2, rng), "non-empty"),
        ((view, legal, 0, rng), "samples"),
        ((view, legal, 2, 7), "Generator"),
        ((view, [brisca.Play("12E")], 2, rng), "not a legal action"),
        ((view, [["unhashable"]], 2, rng), "not a legal action"),
        ((brisca.observe(state, 1), legal, 2, rng), "not the turn of seat 1"),
    ):
        with pytest.raises(brisca.StateError, match=message):
            evaluate(args[0], args[1], samples=args[2], rng=args[3], depth=1)  # type: ignore[arg-type]


def test_solve_refuses_what_it_cannot_solve() -> None:
    """Bad input gets a StateError that says what is wrong; an auction, whose sides are
    not made yet, is solved once the trump is chosen."""
    with pytest.raises(brisca.StateError, match="auction"):
        solve(brisca.new_game("subastada-3p", seed=1), depth=1)
    state = brisca.new_game("spanish-2p", seed=1)
    with pytest.raises(brisca.StateError, match="expected a brisca\\.State"):
        solve("state")  # type: ignore[arg-type]
    with pytest.raises(brisca.StateError, match="side must be"):
        solve(state, side=2)
    with pytest.raises(brisca.StateError, match="side must be"):
        score(state, True)  # type: ignore[arg-type]
    with pytest.raises(brisca.StateError, match="depth must be"):
        solve(state, depth=0)
    with pytest.raises(brisca.StateError, match="expected a brisca"):
        cards_to_play(None)  # type: ignore[arg-type]
    assert cards_to_play(state) == 40  # every card of the pack, the turned one included
    while not state.is_over:
        state = brisca.apply(state, brisca.legal_actions(state)[0])
    with pytest.raises(brisca.StateError, match="over"):
        solve(state)


# Presets whose positions, once the talon is gone, offer only card plays: the solver
# searches them in its compact form (free play, arrastre duties, signals once made).
PLAYS_ONLY = ("spanish-2p", "arrastre-2p", "cubierta-2p", "spanish-4p", "arrastre-4p")
PLAYS_ONLY_OTHERS = ("spanish-3p", "spanish-5p", "spanish-6p", "chilean-rematada")


@pytest.mark.parametrize(
    ("presets", "count", "sizes"),
    [(PLAYS_ONLY, 1500, (4, 6, 8, 10, 12)), (PLAYS_ONLY_OTHERS, 300, (6, 8, 10))],
    ids=["2p-4p", "3p-5p-6p"],
)
def test_compact_search_equals_the_engine_search(
    presets: tuple[str, ...], count: int, sizes: tuple[int, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compact search of the positions whose talon is gone gives the same solution
    as the search over the engine's states, value, best actions and positions visited
    alike, to the end, to a horizon and within a budget too small for the whole hand."""
    rng = random.Random("compact")
    cases: list[tuple[State, int, dict[str, int | bool]]] = []
    while len(cases) < count:
        preset = presets[len(cases) % len(presets)]
        state = small_position(preset, rng, rng.choice(sizes))
        if state is None:
            continue
        side = rng.randrange(len(state.sides))
        kwargs = rng.choice(({}, {"depth": 1}, {"depth": 2}, {"budget": 40, "partial": True}))
        cases.append((state, side, kwargs))
    loaded = [0]
    load = search._Fast.load

    def counted(self: search._Fast, state: State, alone: bool = False) -> tuple[int, ...]:
        loaded[0] += 1
        return load(self, state, alone)

    monkeypatch.setattr(search._Fast, "load", counted)
    fast = [solve(state, side=side, **kwargs) for state, side, kwargs in cases]  # type: ignore[arg-type]
    assert loaded[0] >= count  # the compact form did the searching
    monkeypatch.setattr(search, "_plays_only", lambda rules: False)
    slow = [solve(state, side=side, **kwargs) for state, side, kwargs in cases]  # type: ignore[arg-type]
    assert fast == slow
    assert sum(s.nodes for s in fast) > 10 * count
