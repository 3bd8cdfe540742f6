"""Actions given as notation text: `is_legal`, `refusal`, `apply` and `step` read them
as `parse_action` does, so a server that forgets to parse never refuses a legal move
(issue 22 §3)."""

from __future__ import annotations

import random

import pytest

import brisca


def _states(preset: str, seed: int, steps: int = 60) -> list[brisca.State]:
    """Every state of one random hand of `preset`."""
    chooser = random.Random(seed)
    state = brisca.new_game(preset, seed=seed)
    states = [state]
    for _ in range(steps):
        if state.is_over:
            break
        state = brisca.apply(state, chooser.choice(brisca.legal_actions(state)))
        states.append(state)
    return states


@pytest.mark.parametrize("preset", sorted(brisca.PRESETS))
def test_every_legal_action_as_text_is_legal_and_does_what_the_action_does(preset: str) -> None:
    """For each state of a random hand of every preset, each legal action's text is
    legal, has no refusal, and `apply` and `step` of it equal those of the action."""
    for state in _states(preset, seed=11):
        for action in brisca.legal_actions(state):
            text = str(action)
            assert brisca.is_legal(state, text), (preset, text)
            assert brisca.refusal(state, text) is None
            assert brisca.apply(state, text) == brisca.apply(state, action)
            assert brisca.step(state, text) == brisca.step(state, action)


@pytest.mark.parametrize("preset", ["spanish-2p", "arrastre-4p", "subastada-4p", "chiamata-5p"])
def test_an_illegal_action_as_text_is_refused_as_the_action_is(preset: str) -> None:
    """Text for an action that is not legal now gets the action's own refusal, and
    `apply` raises the same IllegalActionError; the state is unchanged."""
    space = brisca.encoding.action_space(brisca.preset(preset))
    for state in _states(preset, seed=5)[:-1]:
        legal = set(brisca.legal_actions(state))
        illegal = [a for a in space if a not in legal][:5]
        for action in illegal:
            text = str(action)
            why = brisca.refusal(state, action)
            assert not brisca.is_legal(state, text)
            assert brisca.refusal(state, text) == why
            with pytest.raises(brisca.IllegalActionError) as error:
                brisca.apply(state, text)
            assert str(error.value) == why


@pytest.mark.parametrize("junk", ["", "zz", "12Z", "swap", "bid x", "9" * 5000, "\x00"])
def test_text_that_is_no_action_is_a_notation_error(junk: str) -> None:
    """Unreadable text is not legal, its refusal says why, and `apply` and `step` raise
    a NotationError."""
    state = brisca.new_game("spanish-2p", seed=7)
    assert not brisca.is_legal(state, junk)
    reason = brisca.refusal(state, junk)
    assert reason is not None and len(reason) < 300
    for call in (brisca.apply, brisca.step):
        with pytest.raises(brisca.NotationError):
            call(state, junk)  # type: ignore[operator]


def test_a_match_takes_text_too() -> None:
    """A match's legal actions, given as text, are legal and applied to its hand."""
    match = brisca.new_match("spanish-2p", seed=7)
    for _ in range(12):
        action = brisca.legal_actions(match)[-1]
        assert brisca.is_legal(match, str(action))
        assert brisca.apply(match, str(action)) == brisca.apply(match, action)
        match = brisca.apply(match, str(action))
