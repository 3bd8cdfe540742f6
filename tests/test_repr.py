"""A state and a match you can look at: a short repr that shows no card, and a `str`
that draws the table, as python-chess's `print(board)` does (issue 22 §3)."""

from __future__ import annotations

import random
import re

import pytest

import brisca


def _played(preset: str, steps: int, seed: int = 3) -> brisca.State:
    chooser = random.Random(seed)
    state = brisca.new_game(preset, seed=seed)
    for _ in range(steps):
        if state.is_over:
            break
        state = brisca.apply(state, chooser.choice(brisca.legal_actions(state)))
    return state


@pytest.mark.parametrize("preset", sorted(brisca.PRESETS))
@pytest.mark.parametrize("steps", [0, 7, 200])
def test_a_states_repr_is_one_short_line_without_a_card_in_hand(preset: str, steps: int) -> None:
    """At the deal, mid-hand and at the end, repr names the preset and the moment in one
    line of at most 100 characters, and names no card a seat holds or the stock hides."""
    state = _played(preset, steps)
    text = repr(state)
    assert "\n" not in text and len(text) <= 100, text
    assert text.startswith(f"<State {preset}, ")
    hidden = {str(c) for hand in state.hands for c in hand} | {str(c) for c in state.stock}
    assert not hidden & set(re.findall(r"\b\d+[OCEB]\b", text)), text
    assert ("over" in text) == state.is_over


@pytest.mark.parametrize("preset", ["spanish-2p", "spanish-4p", "subastada-4p", "chiamata-5p"])
def test_a_states_str_draws_every_hand_the_trick_the_trump_and_the_points(preset: str) -> None:
    """`str(state)` has a line per seat with its cards, the trick in progress, the trump,
    the stock's count and each side's points."""
    state = _played(preset, 9)
    lines = str(state).splitlines()
    assert len(lines) <= len(state.hands) + 4
    for seat, hand in enumerate(state.hands):
        (line,) = [x for x in lines if x[2:].startswith(f"seat {seat}:")]
        assert line.split(":", 1)[1].split() == ([str(c) for c in hand] or ["-"])
        assert line.startswith("*") == (seat == state.to_act)
    header = lines[0]
    assert f"stock {len(state.stock)}" in header
    assert (state.trump is None) == ("not chosen" in header)
    if state.trick:
        assert any(x.startswith("trick: ") for x in lines)
    points = next(x for x in lines if x.startswith("points: "))
    for total in state.side_points:
        assert f" {total} (" in points


def test_a_seed_past_64_bits_is_named_by_its_size() -> None:
    """A long seed does not fill the repr."""
    text = repr(brisca.new_game("spanish-2p", seed=2**900 + 5))
    assert "901-bit seed" in text and len(text) < 100


def test_a_matchs_repr_is_short_and_its_str_gives_the_standings_and_the_hand() -> None:
    """A match's repr is one short line; its str gives the target, the standings and the
    hand in progress, and once over, who won it."""
    match = brisca.new_match("chilean-rematada", seed=7)
    for _ in range(30):
        match = brisca.apply(match, brisca.legal_actions(match)[0])
    assert len(repr(match)) <= 100 and "\n" not in repr(match)
    text = str(match)
    assert text.splitlines()[0].startswith("match to 101")
    assert str(match.state) in text
    while not match.is_over:
        match = brisca.apply(match, brisca.legal_actions(match)[0])
    assert "won by seats 0+2" in repr(match)
    assert str(match).endswith("the match is over: won by seats 0+2")
