"""States are values: they pickle with the standard `pickle` under every preset, and
the conformance kit checks it at every step (issue 20 §3)."""

from __future__ import annotations

import copy
import pickle
import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import attrs
import pytest

import brisca
from brisca.game.state import Seating
from brisca.testing import ConformanceError, check_random_games


def _states(preset: str, seed: int = 3) -> list[brisca.State]:
    chooser = random.Random(seed)
    state = brisca.new_game(preset, seed=seed)
    found = [state]
    while not state.is_over:
        state = brisca.apply(state, chooser.choice(brisca.legal_actions(state)))
        found.append(state)
    return found


@pytest.mark.parametrize("preset", sorted(brisca.PRESETS))
def test_every_state_of_a_hand_pickles_and_copies_to_an_equal_state(preset: str) -> None:
    """Each state of a random hand of every preset (12 of the 17 held lambdas before)
    pickles, deep-copies and copies to an equal state that offers the same actions."""
    for state in _states(preset):
        for twin in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), copy.copy(state)):
            assert twin == state and hash(twin) == hash(state)
            assert brisca.legal_actions(twin) == brisca.legal_actions(state)
    final = _states(preset)[-1]
    assert brisca.result(pickle.loads(pickle.dumps(final))) == brisca.result(final)


def _to_act(state: brisca.State) -> int | None:
    return state.to_act


def test_states_cross_a_process_pool() -> None:
    """`ProcessPoolExecutor.map` over states of signal, swap and auction presets works."""
    states = [_states(p)[2] for p in ("spanish-4p", "puerto-rican-2p", "subastada-4p")]
    with ProcessPoolExecutor(max_workers=1) as pool:
        assert list(pool.map(_to_act, states)) == [s.to_act for s in states]


def test_the_conformance_kit_catches_a_state_that_does_not_pickle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a seating that pickles its plan of hooks again, as before the fix, the kit's
    random games fail on the pickle round trip."""

    def with_plan(self: Seating) -> tuple[Any, ...]:
        return (Seating, tuple(getattr(self, f.name) for f in attrs.fields(Seating)))

    monkeypatch.setattr(Seating, "__reduce__", with_plan)
    with pytest.raises(ConformanceError, match="pickle round trip"):
        check_random_games(brisca.preset("spanish-4p"), games=1, seed=1)


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_the_public_values_pickle_under_every_protocol(protocol: int) -> None:
    """States, matches, their views and results, records and rules pickle to equal
    values under every pickle protocol: a match's seed stream holds the library's
    generator, whose slots protocols 0 and 1 could not pickle (a bare TypeError)."""
    from brisca.game.rng import Generator

    state = _states("spanish-4p")[9]
    match = brisca.new_match("spanish-2p", seed=1)
    while match.hand_number < 1:
        match = brisca.apply(match, brisca.legal_actions(match)[0])
    generator = Generator(5)
    generator.below(1000)
    values: list[Any] = [
        state,
        brisca.observe(state, 1),
        brisca.result(_states("spanish-4p")[-1]),
        match,
        brisca.match_observe(match, 0),
        brisca.records.record_game(state),
        brisca.preset("chiamata-5p"),
    ]
    for value in values:
        assert pickle.loads(pickle.dumps(value, protocol)) == value, type(value).__name__
    again = pickle.loads(pickle.dumps(generator, protocol))
    assert [again.below(10**9) for _ in range(5)] == [generator.below(10**9) for _ in range(5)]
