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
