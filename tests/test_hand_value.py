"""`hand_value` takes a finished state, so nobody counts tricks by hand (issue 22 §3)."""

from __future__ import annotations

import attrs
import pytest

import brisca

GAME_POINTS = attrs.evolve(
    brisca.preset("spanish-2p"), match_mode="game_points", margin_points=True
)


@pytest.mark.parametrize("seed", range(12))
def test_hand_value_of_a_state_is_that_of_its_result_and_tricks(seed: int) -> None:
    """For finished hands, the state gives the value its result and tricks won give."""
    final = brisca.new_game(GAME_POINTS, seed=seed)
    while not final.is_over:
        final = brisca.apply(final, brisca.legal_actions(final)[seed % 2 - 1])
    won = [sum(t.winner in side for t in final.tricks) for side in final.sides]
    assert brisca.hand_value(GAME_POINTS, final) == brisca.hand_value(
        GAME_POINTS, brisca.result(final), won
    )


def test_hand_value_refuses_an_unfinished_state_and_tricks_given_twice() -> None:
    """A hand in progress has no value yet; with a state, tricks_won is not given."""
    state = brisca.new_game(GAME_POINTS, seed=1)
    with pytest.raises(brisca.StateError, match="not over"):
        brisca.hand_value(GAME_POINTS, state)
    while not state.is_over:
        state = brisca.apply(state, brisca.legal_actions(state)[0])
    with pytest.raises(brisca.StateError, match="one or the other"):
        brisca.hand_value(GAME_POINTS, state, (10, 10))
    with pytest.raises(brisca.StateError, match="tricks_won"):
        brisca.hand_value(GAME_POINTS, brisca.result(state))
