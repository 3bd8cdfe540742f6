"""The caches and fast paths of the speed work against hostile and hand-built input:
no caller's edit or odd value reaches another caller, and bad input is a BriscaError."""

from __future__ import annotations

import enum
import random
from typing import Any

import attrs
import pytest
from helpers import forge

import brisca
from brisca.formats import records
from brisca.formats.views import events_to_dicts, observation_to_dict
from brisca.game.actions import parse_actions
from brisca.game.engine import step
from brisca.game.events import CardPlayed, HandEnded, TrickWon
from brisca.game.presets import rules_to_dict
from brisca.server import protocol
from brisca.server.tables import new_table


def _played_to_the_last_move(name: str, seed: int) -> tuple[brisca.State, brisca.Action]:
    state = brisca.new_game(brisca.preset(name), seed=seed)
    rng = random.Random(seed)
    while True:
        action = rng.choice(brisca.legal_actions(state))
        if brisca.apply(state, action).is_over:
            return state, action
        state = brisca.apply(state, action)


def test_rules_to_dict_gives_every_caller_its_own_lists() -> None:
    rules = attrs.evolve(brisca.preset("spanish-2p"), chiamata_scores=(3, 1, 1, 4))
    for against in (None, "spanish-2p"):
        first = rules_to_dict(rules, against)
        first["overrides"]["chiamata_scores"].append(77)
        first["overrides"]["junk"] = 1
        assert rules_to_dict(rules, against)["overrides"] == {"chiamata_scores": [3, 1, 1, 4]}
    state = brisca.new_game(rules, seed=1)
    record = records.record_game(state, preset="spanish-2p")
    record.to_dict()["rules"]["overrides"]["chiamata_scores"].append(77)
    assert "77" not in records.dumps(record)
    view = brisca.observe(state, 0)
    observation_to_dict(view)["rules"]["overrides"]["chiamata_scores"].append(99)
    assert observation_to_dict(view)["rules"]["overrides"]["chiamata_scores"] == [3, 1, 1, 4]


def test_a_hand_built_states_odd_values_do_not_come_back_in_another_games_events() -> None:
    """Event keys compare 1.0 and True equal to 1: what a forged state's step made must
    not be handed to the next genuine game."""
    state, action = _played_to_the_last_move("spanish-2p", 4)
    trick = state.tricks[0]
    forged = forge(trick, points=trick.points + 0.0)
    if forged is None:  # the compiled build refuses points that are no int at once
        return
    step(attrs.evolve(state, tricks=(forged, *state.tricks[1:])), action)
    ended = step(state, action)[1][-1]
    assert type(ended) is HandEnded
    assert all(type(p) is int for p in ended.points)
    fresh = brisca.new_game(brisca.preset("spanish-2p"), seed=9)
    seat = fresh.to_act
    assert seat is not None
    play = brisca.Play(fresh.hands[seat][0])
    step(attrs.evolve(fresh, to_act=bool(seat)), play)
    played = step(fresh, play)[1][0]
    assert played == CardPlayed(seat, play.card) and type(played.seat) is int


@pytest.mark.parametrize("junk", [None, 5, "3C", b"3C", iter(["3C"]), {"3C": 1}])
def test_list_readers_refuse_what_is_not_a_list_of_notation(junk: Any) -> None:
    with pytest.raises(brisca.NotationError, match="list"):
        parse_actions(junk)
    state = brisca.new_game(brisca.preset("spanish-2p"), seed=1)
    with pytest.raises(brisca.NotationError, match="list"):
        records.replay_from(state, junk)


def test_replay_from_refuses_what_is_not_a_state() -> None:
    for junk in ("notastate", None, brisca.preset("spanish-2p")):
        with pytest.raises(brisca.StateError, match="State"):
            records.replay_from(junk, [])  # type: ignore[arg-type]


@pytest.mark.parametrize("junk", [None, 5, "card_played", b"x"])
def test_events_to_dicts_refuses_what_is_not_events(junk: Any) -> None:
    with pytest.raises(brisca.StateError, match="events"):
        events_to_dicts(junk)


@pytest.mark.parametrize("count", [-1, 99, "1", None, True])
def test_an_update_for_a_forged_sent_is_a_whole_view(count: Any) -> None:
    table = new_table("spanish-2p", ["human", "human"], seed=3)
    rng = random.Random(3)
    for _ in range(12):
        seat = table.to_act
        assert seat is not None
        table, _ = table.act(seat, rng.choice(table.legal(seat)))
    held = protocol.sent(table)
    assert held is not None and held.tricks > 0
    forged = attrs.evolve(held, tricks=count)
    message = protocol.update(table, 0, (), [True, True], forged)
    assert '"tricks_from": 0' in message


def test_a_rules_form_is_read_alike_cold_and_warm() -> None:
    """A value that writes as the same JSON text but is not plain JSON (a str subclass,
    an IntEnum) is read on its own, never answered from the cache of the plain form."""

    class Odd(str):
        def __hash__(self) -> int:
            return 1

        def __eq__(self, other: object) -> bool:
            return False

    class Five(enum.IntEnum):
        FIVE = 5

    for odd, plain in (
        ({"preset": Odd("spanish-2p")}, {"preset": "spanish-2p"}),
        (
            {"preset": "spanish-2p", "overrides": {"match_target": Five.FIVE}},
            {"preset": "spanish-2p", "overrides": {"match_target": 5}},
        ),
    ):
        outcomes = []
        for data in (odd, plain, odd):
            try:
                outcomes.append(records.read_record_rules(data))
            except brisca.BriscaError as error:
                outcomes.append(type(error))
        assert outcomes[0] == outcomes[2]


def test_a_hand_built_match_hand_is_written_as_it_is_now() -> None:
    """A finished hand holding a list (a hand-built view) is converted afresh each time:
    the cache keeps only values that never change."""
    match = brisca.new_match(brisca.preset("spanish-2p"), seed=4)
    rng = random.Random(4)
    while not match.hands:
        match = brisca.apply(match, rng.choice(brisca.legal_actions(match)))
    view = brisca.observe(match, 0)
    hand = view.hands[0]
    points = list(hand.result.points)
    result = forge(hand.result, points=points)
    if result is None:  # the compiled build refuses a list of points at once
        return
    edited = attrs.evolve(hand, result=result)
    forged = attrs.evolve(view, hands=(edited, *view.hands[1:]))
    assert observation_to_dict(forged)["hands"][0]["result"]["points"] == points
    points[0] += 1000
    assert observation_to_dict(forged)["hands"][0]["result"]["points"] == points


def test_the_openspiel_observer_refuses_a_bool_player_after_an_int_one() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from brisca.envs.openspiel import GAME_NAME

    game = pyspiel.load_game(GAME_NAME)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    observer = game.make_py_observer()
    observer.set_from(state, 1)
    for junk in (True, 1.0):
        with pytest.raises(brisca.StateError):
            observer.set_from(state, junk)


@pytest.mark.parametrize("shift", [-67, -1, 67, 1000])
def test_a_trick_worth_what_no_deck_gives_is_reported_as_it_is(shift: int) -> None:
    """`step` keeps the trick events a game makes in a list, at an index of the trick's
    points and winner. A hand-built table's points out of range (a negative index
    counts from the end: 67 fewer points reach the same slot) still give the trick's
    own event, and leave a genuine game's events as they were."""
    state = brisca.new_game(brisca.preset("spanish-2p"), seed=5)
    first = brisca.legal_actions(state)[0]
    second = brisca.legal_actions(brisca.apply(state, first))[0]
    assert isinstance(first, brisca.Play) and isinstance(second, brisca.Play)

    def trick_won(start: brisca.State) -> TrickWon:
        after, _ = step(start, first)
        events = step(after, second)[1]
        (won,) = [e for e in events if type(e) is TrickWon]
        return won

    genuine = trick_won(state)
    assert genuine == TrickWon(
        genuine.seat,
        state.seating.card_points[first.card] + state.seating.card_points[second.card],
        0,
    )
    worth = dict.fromkeys(state.seating.card_points, 0)
    worth[first.card] = genuine.points + shift
    forged = attrs.evolve(state, seating=attrs.evolve(state.seating, card_points=worth))
    assert trick_won(forged) == TrickWon(genuine.seat, genuine.points + shift, 0)
    assert trick_won(state) == genuine
