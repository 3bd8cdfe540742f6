"""observation_to_dict's fast writer gives exactly what the generic converter gave.

The oracle below is the writer as it was before it was made fast: every field through
the generic recursion of `readable` (kept here as it was, so that a later change to
`brisca.game.jsonio.readable` cannot move the target). The fast writer must give the
same data, key order included, for every seat at every step of random games of every
preset, of hands and of whole matches.
"""

from __future__ import annotations

import enum
import json
import random
from fractions import Fraction
from typing import Any

import attrs
import pytest
from helpers import forge

import brisca
from brisca.formats import views
from brisca.formats.views import observation_to_dict
from brisca.game.actions import ACTION_TYPES
from brisca.game.cards import Card
from brisca.game.match import MatchObservation
from brisca.game.presets import rules_to_dict
from brisca.game.rules import Rules
from brisca.game.state import Observation


def oracle_readable(value: object) -> Any:
    """`brisca.game.jsonio.readable` as it was before it dispatched on the type: the
    chain of tests, value by value, which the views and `readable` itself must match."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Card):
        return value.code
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Fraction):
        return [value.numerator, value.denominator]
    if isinstance(value, (frozenset, set)):
        return sorted((oracle_readable(v) for v in value), key=str)
    if isinstance(value, (tuple, list)):
        return [oracle_readable(v) for v in value]
    if type(value) in ACTION_TYPES:
        return str(value)
    if attrs.has(type(value)):
        kind: Any = type(value)
        return {f.name: oracle_readable(getattr(value, f.name)) for f in attrs.fields(kind)}
    return str(value)


def _oracle_value(value: object) -> Any:
    return rules_to_dict(value) if isinstance(value, Rules) else oracle_readable(value)


def _oracle_fields(value: Any, kind: Any) -> dict[str, Any]:
    return {f.name: _oracle_value(getattr(value, f.name)) for f in attrs.fields(kind)}


def _oracle_hand(observation: Observation) -> dict[str, Any]:
    out = _oracle_fields(observation, Observation)
    out["side_points"] = list(observation.side_points)
    return out


def oracle(observation: Observation | MatchObservation) -> dict[str, Any]:
    """observation_to_dict as it was: the generic path."""
    if isinstance(observation, MatchObservation):
        out = _oracle_fields(observation, MatchObservation)
        if observation.current is not None:
            out["current"] = _oracle_hand(observation.current)
            del out["current"]["rules"]
        out["to_act"] = observation.to_act
        out["hand_number"] = observation.hand_number
        return out
    return _oracle_hand(observation)


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        3,
        2.5,
        "x",
        Card.parse("3C"),
        brisca.Suit.OROS,
        brisca.TieRule.DRAW,
        Fraction(1, 3),
        frozenset({"b", "a"}),
        {2, 1},
        ((1, Card.parse("1O")), [Fraction(2, 4)]),
        brisca.Play(Card.parse("3C")),
        brisca.preset("spanish-2p"),
        brisca.game.events.CardPlayed(0, Card.parse("3C")),
        object,
        b"bytes",
    ],
)
def test_readable_writes_each_value_as_the_chain_of_tests_did(value: object) -> None:
    from brisca.game.jsonio import readable

    assert readable(value) == oracle_readable(value)
    assert readable(value) == oracle_readable(value)  # the type's handler, once found


def same(observation: Observation | MatchObservation) -> None:
    fast = observation_to_dict(observation)
    expected = oracle(observation)
    assert fast == expected
    assert json.dumps(fast) == json.dumps(expected)  # the key order too


def _moves(game: Any, rng: random.Random, limit: int) -> Any:
    """`game` and each later position of a random playout, at most `limit` moves."""
    yield game
    for _ in range(limit):
        if game.is_over:
            return
        actions = brisca.legal_actions(game)
        game = brisca.apply(game, actions[rng.randrange(len(actions))])
        yield game


def _last(game: Any, seed: int, limit: int) -> Any:
    for game in _moves(game, random.Random(seed), limit):  # noqa: B020, B007 (the last one)
        pass
    return game


@pytest.mark.parametrize("name", list(brisca.PRESETS))
def test_a_hands_view_is_the_generic_one_at_every_step(name: str) -> None:
    rules = brisca.PRESETS[name]
    for seed in range(3):
        for state in _moves(brisca.new_game(rules, seed=seed), random.Random(seed), 400):
            for seat in range(rules.num_players):
                same(brisca.observe(state, seat))


@pytest.mark.parametrize("name", list(brisca.PRESETS))
def test_a_matchs_view_is_the_generic_one_at_every_step(name: str) -> None:
    """Whole matches where they are short, and their first 300 moves at least: several
    hands, so that finished hands and a new hand's first view are covered."""
    rules = brisca.PRESETS[name]
    for match in _moves(brisca.new_match(rules, seed=5), random.Random(5), 300):
        for seat in range(rules.num_players):
            same(brisca.observe(match, seat))


def test_a_view_with_tricks_from_holds_the_later_tricks_only() -> None:
    """tricks_from leaves out the earlier tricks and says where the rest start; the
    rest is the full view's."""
    rules = brisca.preset("spanish-4p")
    for match in _moves(brisca.new_match(rules, seed=2), random.Random(2), 200):
        if match.is_over:
            break
        view = brisca.observe(match, 1)
        assert view.current is not None
        full = observation_to_dict(view)
        count = len(view.current.tricks)
        for start in {0, count // 2, count}:
            part = observation_to_dict(view, tricks_from=start)
            assert part["current"]["tricks_from"] == start
            assert part["current"].pop("tricks") == full["current"]["tricks"][start:]
            del part["current"]["tricks_from"], full["current"]["tricks"]
            assert part == full
            full = observation_to_dict(view)
        hand = observation_to_dict(view.current, tricks_from=count)
        assert hand["tricks"] == [] and hand["tricks_from"] == count
        with pytest.raises(brisca.StateError, match="tricks_from must be from 0"):
            observation_to_dict(view, tricks_from=count + 1)
        for junk in (-1, True, "1", 1.0):
            with pytest.raises(brisca.StateError, match="tricks_from"):
                observation_to_dict(view, tricks_from=junk)  # type: ignore[arg-type]


def test_every_result_is_the_callers_own() -> None:
    """Changing one view's data changes no other view's: finished tricks of a hand and
    finished hands of a match (which a cache converts once) are copied out."""
    state = _last(brisca.new_game(brisca.preset("spanish-2p"), seed=3), 3, 30)
    assert len(state.tricks) >= 2
    first = observation_to_dict(brisca.observe(state, 0))
    expected = observation_to_dict(brisca.observe(state, 0))
    first["tricks"][0]["cards"][0][1] = "junk"
    first["tricks"].clear()
    assert observation_to_dict(brisca.observe(state, 0)) == expected
    match = brisca.new_match(brisca.preset("spanish-2p"), seed=4)
    rng = random.Random(4)
    while not match.hands:
        match = brisca.apply(match, rng.choice(brisca.legal_actions(match)))
    view = brisca.observe(match, 0)
    before = observation_to_dict(view)
    assert before["hands"], "the match view lists its finished hands"
    before["hands"][0]["result"].clear()
    before["hands"][0]["tricks_won"].append("junk")
    assert observation_to_dict(view) == observation_to_dict(brisca.observe(match, 0))
    assert observation_to_dict(view)["hands"][0]["result"], "the cached hand is unchanged"


def test_the_cache_of_finished_hands_stays_bounded() -> None:
    views._DONE.clear()
    for seed in range(12):
        match = brisca.new_match(brisca.preset("spanish-2p"), seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if match.is_over:
                break
            match = brisca.apply(match, rng.choice(brisca.legal_actions(match)))
            if match.hands:
                observation_to_dict(brisca.observe(match, 0))
    assert 0 < len(views._DONE) <= views._CACHE


@pytest.mark.parametrize(
    "field, value",
    [
        ("hand", [[[]]]),
        ("hand", ("3C", Card.parse("3C"), None)),
        ("trick", ((0, "3C"), (True, Card.parse("1O")), [1, Card.parse("1O")], 5)),
        ("trick", "junk"),
        ("hand_sizes", (1, True, 2.5, Fraction(1, 2))),
        ("sides", [{1, 0}]),
        ("trump", "O"),
        ("trump_card", "3C"),
        ("swaps", [1]),
        ("voids", ({"b"}, frozenset())),
        ("seat", Fraction(1, 3)),
        ("rules", "spanish-2p"),
        ("tricks", ()),
    ],
)
def test_a_hand_built_view_is_written_as_the_generic_path_does(field: str, value: object) -> None:
    view = attrs.evolve(brisca.observe(brisca.new_game(brisca.preset("spanish-2p"), seed=1), 0))
    forged = forge(view, **{field: value})
    if forged is not None:  # the compiled build refuses a field of the wrong type at once
        same(forged)


def test_views_refuse_what_is_not_a_view() -> None:
    with pytest.raises(brisca.StateError, match=r"expected a brisca\.Observation"):
        observation_to_dict(None)  # type: ignore[arg-type]
    view = brisca.observe(brisca.new_game(brisca.preset("spanish-2p"), seed=1), 0)
    # The compiled build refuses the view as it is built, saying what it cannot hold.
    with pytest.raises(brisca.StateError, match=r"inconsistent|cannot hold"):
        observation_to_dict(attrs.evolve(view, tricks=5))  # type: ignore[arg-type]


@pytest.mark.parametrize("name", list(brisca.PRESETS))
def test_events_are_written_as_their_to_dict_writes_them(name: str) -> None:
    """Every event of random hands and matches, as each seat sees it."""
    rules = brisca.PRESETS[name]
    rng = random.Random(7)
    for game in (brisca.new_game(rules, seed=7), brisca.new_match(rules, seed=7)):
        for _ in range(300):
            if game.is_over:
                break
            actions = brisca.legal_actions(game)
            game, events = brisca.step(game, actions[rng.randrange(len(actions))])
            for seat in range(rules.num_players):
                seen = brisca.events_for(seat, events)
                expected = [event.to_dict() for event in seen]
                assert json.dumps(views.events_to_dicts(seen)) == json.dumps(expected)


def test_events_to_dicts_refuses_what_is_not_an_event() -> None:
    with pytest.raises(brisca.StateError, match="expected brisca events"):
        views.events_to_dicts([Card.parse("3C")])  # type: ignore[list-item]


def _points_by_side(sides: Any, tricks: Any) -> tuple[int, ...]:
    """Each side's card points, straight from the definition: a trick counts for every
    side its winner sits on."""
    return tuple(sum(t.points for t in tricks if t.winner in side) for side in sides)


@pytest.mark.parametrize("name", list(brisca.PRESETS))
def test_a_views_side_points_are_its_sides_tricks_and_the_states_when_it_knows_the_sides(
    name: str,
) -> None:
    """The views' ``side_points`` (sent in every update): each side's tricks, as the
    seat knows the sides; the state's own count whenever the seat knows them all."""
    rules = brisca.PRESETS[name]
    for state in _moves(brisca.new_game(rules, seed=5), random.Random(5), 400):
        for seat in range(rules.num_players):
            view = brisca.observe(state, seat)
            assert view.side_points == _points_by_side(view.sides, view.tricks)
            if view.sides == state.sides:
                assert view.side_points == state.side_points


def test_a_hand_built_views_side_points_count_a_trick_for_every_side_its_winner_is_on() -> None:
    state = _last(brisca.new_game(brisca.PRESETS["spanish-2p"], seed=2), 2, 400)
    view = attrs.evolve(brisca.observe(state, 0), sides=((0, 1), (1,), (7,)))
    assert view.side_points == _points_by_side(view.sides, view.tricks)
    assert view.side_points[0] == 120 and view.side_points[2] == 0


def test_a_hand_built_views_side_points_count_a_seat_listed_twice_once() -> None:
    """A seat twice in one side counts once for it, and sides that are text are refused,
    as the definition's ``winner in side`` has it."""
    state = _last(brisca.new_game(brisca.PRESETS["spanish-4p"], seed=2), 2, 400)
    view = brisca.observe(state, 0)
    doubled = attrs.evolve(view, sides=((0, 0, 2), (1, 3)))
    assert doubled.side_points == view.side_points == _points_by_side(view.sides, view.tricks)
    with pytest.raises(brisca.StateError):
        attrs.evolve(view, sides="ab").side_points  # noqa: B018 (the property raises)
