"""`brisca.step` takes a match as well as a hand (issue 21 §3): one rule check and one
move give the match after the action and the events of its hand."""

from __future__ import annotations

import random

import pytest

import brisca


@pytest.mark.parametrize("preset", ["spanish-2p", "chilean-rematada", "subastada-4p"])
def test_step_on_a_match_is_match_apply_with_the_hands_events(preset: str) -> None:
    """At every move of a match, step gives what match_apply gives, and the events
    that step gives for the hand in progress; a hand's end is among them."""
    chooser = random.Random(2)
    match = brisca.new_match(preset, seed=4)
    ended = 0
    for _ in range(400):
        if match.is_over:
            break
        hand = match.state
        assert hand is not None
        action = chooser.choice(brisca.legal_actions(match))
        after, events = brisca.step(match, action)
        assert after == brisca.match_apply(match, action)
        assert events == brisca.step(hand, action)[1]
        ended += any(type(e).__name__ == "HandEnded" for e in events)
        match = after
    assert ended >= 1


def test_step_on_a_finished_match_or_a_bad_action_is_refused() -> None:
    """An illegal action is an IllegalActionError, and a finished match too."""
    match = brisca.new_match("spanish-2p", seed=4)
    foreign = match.state.hands[1][0]  # type: ignore[union-attr]
    with pytest.raises(brisca.IllegalActionError, match="not in the hand"):
        brisca.step(match, brisca.Play(foreign))
    while not match.is_over:
        match = brisca.apply(match, brisca.legal_actions(match)[0])
    with pytest.raises(brisca.IllegalActionError, match="the match is over"):
        brisca.step(match, brisca.Play(foreign))
