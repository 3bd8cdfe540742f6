"""Bad input to every public entry point gets a BriscaError that says what is wrong,
and leaves every state unchanged."""

from __future__ import annotations

import contextlib
import copy
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import any_json

import brisca
from brisca import IllegalActionError, NotationError, Play, RulesError, StateError, Swap

STATE = brisca.new_game(brisca.preset("spanish-4p"), seed=42)
SNAPSHOT = copy.deepcopy(STATE)


@pytest.fixture(autouse=True)
def _state_unchanged() -> object:
    yield
    assert STATE == SNAPSHOT


def test_card_not_in_hand_of_seat_to_act() -> None:
    foreign = STATE.hands[1][0]
    with pytest.raises(IllegalActionError, match=f"{foreign} is not in the hand of seat 0"):
        brisca.apply(STATE, Play(foreign))
    assert not brisca.is_legal(STATE, Play(foreign))


@pytest.mark.parametrize("action", [None, "1O", 3, Play, object()])
def test_action_of_the_wrong_type(action: object) -> None:
    with pytest.raises(IllegalActionError, match="not a brisca action"):
        brisca.apply(STATE, action)  # type: ignore[arg-type]
    assert not brisca.is_legal(STATE, action)  # type: ignore[arg-type]


def test_swap_when_swaps_are_off() -> None:
    with pytest.raises(IllegalActionError, match="swaps are off"):
        brisca.apply(STATE, Swap(STATE.hands[0][0]))


def test_acting_after_the_end() -> None:
    state = STATE
    while not state.is_over:
        state = brisca.apply(state, brisca.legal_actions(state)[0])
    with pytest.raises(IllegalActionError, match="over"):
        brisca.apply(state, Play("1O"))


@pytest.mark.parametrize("bad", [None, "state", 0, {}, brisca.Rules()])
def test_not_a_state(bad: object) -> None:
    for call in (brisca.legal_actions, brisca.result, brisca.dumps):
        with pytest.raises(StateError, match=r"expected a brisca\.State"):
            call(bad)  # type: ignore[arg-type]
    with pytest.raises(StateError):
        brisca.apply(bad, Play("1O"))  # type: ignore[arg-type]
    with pytest.raises(StateError):
        brisca.is_legal(bad, Play("1O"))  # type: ignore[arg-type]
    with pytest.raises(StateError):
        brisca.observe(bad, 0)  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", [-1, 4, 1.0, None, "0", True])
def test_seat_out_of_range(seat: object) -> None:
    with pytest.raises(StateError, match="seat must be from 0 to 3"):
        brisca.observe(STATE, seat)  # type: ignore[arg-type]


def test_result_before_the_end() -> None:
    with pytest.raises(StateError, match="not over"):
        brisca.result(STATE)


@pytest.mark.parametrize("text", ["", "1Z", "14O", "swap", "swap 99", "play", 5, None])
def test_bad_action_text(text: object) -> None:
    with pytest.raises(NotationError):
        brisca.parse_action(text)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [5, None, 1.5, ("1", "O")])
def test_play_of_a_non_card(value: object) -> None:
    with pytest.raises(NotationError):
        Play(value)  # type: ignore[arg-type]


RULES = brisca.Rules()
PACK = list(RULES.cards)


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        (PACK[:-1], "39 cards"),
        ([*PACK[:-1], PACK[0]], "twice"),
        ([*PACK[:-1], brisca.Card.parse("8O")], "not in this pack"),
        ([*PACK[:-1], "nonsense"], "cannot read"),
        ("1O 2O", "sequence"),
        (7, "sequence"),
    ],
)
def test_bad_decks(deck: object, message: str) -> None:
    with pytest.raises(brisca.BriscaError, match=message):
        brisca.new_game(RULES, deck=deck)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"seed": -1},
        {"seed": 1.5},
        {"seed": "7"},
        {"seed": True},
        {"dealer": 2},
        {"dealer": -1},
        {"dealer": "0"},
        {"hand_number": -1},
        {"seed": 1, "deck": PACK},
    ],
)
def test_bad_new_game_arguments(kwargs: dict[str, object]) -> None:
    with pytest.raises(StateError):
        brisca.new_game(RULES, **kwargs)  # type: ignore[arg-type]


def test_rules_of_the_wrong_type() -> None:
    with pytest.raises(RulesError, match=r"brisca\.Rules"):
        brisca.new_game("spanish-2p")  # type: ignore[arg-type]


# JSON


def _record() -> dict[str, object]:
    state = STATE
    for _ in range(6):
        state = brisca.apply(state, brisca.legal_actions(state)[0])
    return json.loads(brisca.dumps(state))  # type: ignore[no-any-return]


def _tamper(path: list[object], value: object) -> str:
    record = _record()
    target: object = record
    for key in path[:-1]:
        target = target[key]  # type: ignore[index]
    target[path[-1]] = value  # type: ignore[index]
    return json.dumps(record)


@pytest.mark.parametrize(
    ("path", "value", "error", "message"),
    [
        (["format"], "chess", NotationError, "not a brisca-state"),
        (["version"], 99, NotationError, "version"),
        (["rules", "num_players"], 9, RulesError, "num_players"),
        (["rules", "colour"], "red", RulesError, "unknown rules option"),
        (["dealer"], 7, StateError, "dealer"),
        (["dealer"], "3", NotationError, "dealer"),
        (["seed"], -5, NotationError, "seed"),
        (["trump"], "X", NotationError, "trump"),
        (["trump"], "O", StateError, "trump"),
        (["hands", 0, 0], "1Z", NotationError, "cannot read"),
        (["hands", 0, 0], 5, NotationError, "card codes"),
        (["hands"], [[], [], []], StateError, "3 seats"),
        (["stock", 0], "1O", StateError, "cards are not the pack"),
        (["trick"], [[0, "1O", 2]], NotationError, r"\[int, str\] rows"),
        (["trick"], [[9, "1O"]], StateError, "not a seat"),
        (["tricks", 0, "winner"], 3, StateError, "wrong winner"),
        (["tricks", 0, "points"], 120, StateError, "wrong points"),
        (["tricks", 0, "leader"], 2, StateError, "in turn"),
        (["tricks", 0], "trick", NotationError, "object"),
        (["to_act"], 3, StateError, "to_act"),
        (["to_act"], None, StateError, "to_act"),
    ],
)
def test_tampered_json_is_refused(
    path: list[object], value: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        brisca.loads(_tamper(path, value))


def test_swapped_cards_between_hands_are_refused() -> None:
    """A card moved from one hand to another breaks the hand sizes."""
    record = _record()
    hands = record["hands"]
    hands[0].append(hands[1].pop())  # type: ignore[index, union-attr]
    with pytest.raises(StateError, match="holds"):
        brisca.loads(json.dumps(record))


@pytest.mark.parametrize(
    "text", ["", "{", "[]", "null", "3", '{"format": 1}', b"\xff", "[" * 100000]
)
def test_malformed_json_is_refused(text: str) -> None:
    with pytest.raises(NotationError):
        brisca.loads(text)


json_values = any_json()


@given(key=st.sampled_from(sorted(_record())), value=json_values)
def test_fuzzed_fields_never_crash_loads(key: str, value: object) -> None:
    """Any value in any field is either a valid state or a BriscaError, nothing else."""
    record = _record()
    record[key] = value
    with contextlib.suppress(brisca.BriscaError):
        brisca.loads(json.dumps(record))


def test_non_sequences_of_actions_and_bots_are_refused() -> None:
    """record_game and play_game refuse a non-sequence with a BriscaError, not a TypeError."""
    from brisca import bots, records

    with pytest.raises(NotationError, match="sequence of actions"):
        records.record_game(brisca.new_game(RULES, seed=1), None)  # type: ignore[arg-type]
    with pytest.raises(StateError, match="sequence of bots"):
        bots.play_game(RULES, None)  # type: ignore[arg-type]
