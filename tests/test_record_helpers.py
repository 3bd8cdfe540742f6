"""From a record file to its score (issue 22 §3): `records.final_state`, and `loads`
naming the reader a document needs."""

from __future__ import annotations

import pytest

import brisca
from brisca import records


def _finished(preset: str, seed: int) -> brisca.State:
    state = brisca.new_game(preset, seed=seed)
    while not state.is_over:
        state = brisca.apply(state, brisca.legal_actions(state)[-1])
    return state


@pytest.mark.parametrize("preset", ["spanish-2p", "spanish-4p", "subastada-4p", "chiamata-5p"])
def test_final_state_of_a_record_or_its_text_is_the_hands_last_state(preset: str) -> None:
    """A record, or its text, gives back the hand's last state, whose result is the
    recorded one."""
    final = _finished(preset, 3)
    record = records.record_game(final)
    for given in (record, records.dumps(record), records.dumps(record).encode()):
        state = records.final_state(given)
        assert state == final
        assert brisca.result(state) == brisca.result(final)


def test_a_record_cut_short_gives_the_state_it_reached() -> None:
    """A record of a hand in progress gives the state its actions reach."""
    state = brisca.new_game("spanish-2p", seed=5)
    for _ in range(7):
        state = brisca.apply(state, brisca.legal_actions(state)[0])
    assert records.final_state(records.dumps(records.record_game(state))) == state


def test_loads_of_a_record_names_the_reader_it_needs() -> None:
    """`brisca.loads` of a game record says to read it with records.loads and names
    final_state, instead of only 'not a brisca-state document'."""
    text = records.dumps(records.record_game(_finished("spanish-2p", 1)))
    with pytest.raises(brisca.NotationError, match=r"records\.loads.*final_state"):
        brisca.loads(text)


def test_final_state_refuses_junk_with_a_brisca_error() -> None:
    """Text that is not a record, and values that are not records, are BriscaErrors."""
    for junk in ("", "{}", "[1, 2]", b"\\xff"):
        with pytest.raises(brisca.BriscaError):
            records.final_state(junk)
    with pytest.raises(brisca.BriscaError):
        records.final_state(42)  # type: ignore[arg-type]
