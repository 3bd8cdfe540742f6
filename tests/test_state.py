"""The engine's fast constructors build the same frozen values as the attrs classes."""

from __future__ import annotations

import contextlib
import copy
import pickle
import random
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from helpers import hand_values, stacked

import brisca
from brisca.game.engine import _plan
from brisca.game.match import (
    Match,
    MatchObservation,
    _MatchObservationSlots,
    _MatchSlots,
    _with_state,
)
from brisca.game.state import (
    OBSERVED_BY_VARIANTS,
    Deal,
    HandResult,
    Ledger,
    Observation,
    Seating,
    State,
    Trick,
    build_state,
    build_trick,
    evolve_ledger,
    evolve_state,
)


@pytest.mark.parametrize(
    ("cls", "base"),
    [
        (Match, _MatchSlots),
        (MatchObservation, _MatchObservationSlots),
    ],
)
def test_slots_base_holds_every_field_and_the_class_adds_none(cls: type, base: type) -> None:
    """The plain base owns exactly the attrs fields' slots, so the class swap is layout-safe."""
    names = {field.name for field in attrs.fields(cls)}
    assert set(base.__slots__) == names | {"__weakref__"}
    assert cls.__slots__ == ()  # type: ignore[attr-defined]


def _values_of_a_hand() -> list[Any]:
    """One value of each class `brisca.game.values.frozen` finishes, as the engine built it."""
    state = brisca.new_game(brisca.preset("spanish-4p"), seed=3)
    while not state.tricks:
        state = brisca.apply(state, brisca.legal_actions(state)[0])
    return [*hand_values(state), _plan(state.rules)]


def _finished_result() -> HandResult:
    state = brisca.new_game(brisca.preset("spanish-2p"), seed=3)
    while not state.is_over:
        state = brisca.apply(state, brisca.legal_actions(state)[0])
    return brisca.result(state)


@pytest.mark.parametrize(
    "value", [*_values_of_a_hand(), _finished_result()], ids=lambda v: type(v).__name__
)
def test_a_built_value_is_its_frozen_attrs_class(value: Any) -> None:
    """Whatever built it, the engine's value is of its class itself (no builder subclass
    shows), refuses every change, and rebuilds equal through its class's own __init__
    (``attrs.evolve``), pickling and copying."""
    cls = type(value)
    assert cls in (
        State,
        Trick,
        Deal,
        Seating,
        Ledger,
        Observation,
        HandResult,
        type(_plan(brisca.Rules())),
    )
    assert attrs.has(cls)
    field = attrs.fields(cls)[0]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        setattr(value, field.name, getattr(value, field.name))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        delattr(value, field.name)
    again = attrs.evolve(value)
    assert type(again) is cls
    for f in attrs.fields(cls):
        assert getattr(again, f.name) is getattr(value, f.name), f.name
    if cls is not type(_plan(brisca.Rules())):  # the plan holds functions, and is no value
        assert again == value and hash(again) == hash(value)
        for other in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
            assert type(other) is cls and other == value


def test_built_state_is_a_frozen_state_equal_to_the_attrs_one() -> None:
    """build_state gives a real, frozen State equal to one built by State's own __init__."""
    state = brisca.new_game(brisca.preset("spanish-2p"), seed=11)
    values = [getattr(state, field.name) for field in attrs.fields(State) if field.init]
    built, slow = build_state(*values), State(*values)
    assert type(built) is State and built == slow and hash(built) == hash(slow)
    assert built.is_over is slow.is_over is False
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        built.to_act = 1  # type: ignore[misc]
    assert attrs.evolve(built, to_act=1).to_act == 1 and built.to_act == 0
    assert attrs.evolve(built, to_act=None).is_over


@pytest.mark.parametrize(
    "changes",
    [
        {"to_act": None},
        {"to_act": 1, "trail": ((), brisca.Pass())},
        {"hands": ((), ()), "trump_card": None, "stock": ()},
        {"trick": (), "tricks": (), "trump": None},
        {},
    ],
)
def test_evolve_state_is_attrs_evolve(changes: dict[str, Any]) -> None:
    """The variants' evolve_state gives the state attrs.evolve does, is_over too, and
    leaves the state it started from as it was."""
    state = brisca.new_game(brisca.preset("spanish-4p"), seed=3)
    for _ in range(6):  # mid-hand: a trick done and one under way, so no two fields alike
        state = brisca.apply(state, brisca.legal_actions(state)[-1])
    assert state.tricks and state.trick
    before = copy.copy(state)
    ledger = evolve_ledger(state.ledger, black_hand=2, swaps=())
    assert ledger == attrs.evolve(state.ledger, black_hand=2, swaps=())
    ours, theirs = (
        evolve_state(state, ledger=ledger, **changes),
        attrs.evolve(state, ledger=ledger, **changes),
    )
    assert type(ours) is State and ours == theirs and ours.trail == theirs.trail
    assert ours.is_over is theirs.is_over is (ours.to_act is None)
    assert state == before and state.ledger.black_hand is None


def test_evolve_state_refuses_a_field_it_has_not() -> None:
    """A slip in the library's own code is a TypeError, as from attrs.evolve."""
    state = brisca.new_game(brisca.preset("spanish-2p"), seed=3)
    with pytest.raises(TypeError, match="no field 'is_over'"):
        evolve_state(state, is_over=True)
    with pytest.raises(TypeError, match="no field 'signal'"):
        evolve_ledger(state.ledger, signal=())


def test_built_trick_is_a_frozen_trick() -> None:
    """build_trick gives a frozen Trick equal to Trick(...)."""
    card = brisca.Card.parse("1O")
    built = build_trick(0, ((0, card),), 0, 11)
    assert type(built) is Trick and built == Trick(0, ((0, card),), 0, 11)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        built.points = 0  # type: ignore[misc]


def test_built_observation_leaves_every_other_field_at_the_class_default() -> None:
    """build_observation leaves the fields it is not given at their defaults, which must be
    the attrs defaults too: `__init__` and the attrs fields state them each."""
    from brisca.game.state import build_observation

    state = brisca.new_game(brisca.preset("spanish-2p"), seed=11)
    core = brisca.observe(state, 0)
    given = [
        "seat",
        "rules",
        "dealer",
        "hand_number",
        "sides",
        "trump",
        "trump_card",
        "hand",
        "hand_sizes",
        "stock_size",
        "trick",
        "tricks",
        "to_act",
        "partner_hands",
        "trump_card_drawn",
        "voids",
    ]
    built = build_observation(*(getattr(core, name) for name in given), {})
    assert type(built) is Observation
    defaulted = [f for f in attrs.fields(Observation) if f.name not in given]
    assert defaulted, "the observation has fields the engine leaves at their defaults"
    for field in defaulted:
        assert field.default is not attrs.NOTHING, f"{field.name} has no default"
        assert getattr(built, field.name) == field.default, field.name
    assert built == Observation(**{name: getattr(core, name) for name in given})


def _observed_states() -> Iterator[State]:
    """Every state of a few random hands of each preset and the last of more (cantes are
    rare), and a black hand claimed."""
    for name in brisca.PRESETS:
        rules = brisca.preset(name)
        for seed in range(60):
            rng = random.Random(seed)
            state = brisca.new_game(rules, seed=seed)
            while not state.is_over:
                if seed < 3:
                    yield state
                actions = brisca.legal_actions(state)
                state = brisca.apply(state, actions[rng.randrange(len(actions))])
            yield state
    black_hand = stacked(brisca.preset("casino-2p"), {0: ["1O", "3O", "12O"]}, trump="7O")
    yield brisca.apply(black_hand, brisca.ClaimBlackHand())


def test_every_field_a_variant_observes_reaches_the_observation() -> None:
    """build_observation takes the variants' fields by name from `OBSERVED_BY_VARIANTS`:
    each variant's view gives only those, and the observation holds each value it gave."""
    assert {f.name for f in attrs.fields(Observation)} >= OBSERVED_BY_VARIANTS
    defaults = {f.name: f.default for f in attrs.fields(Observation)}
    seen: set[str] = set()  # the fields given a value other than the default
    for state in _observed_states():
        seat = 0 if state.to_act is None else state.to_act
        view = brisca.observe(state, seat)
        for contribution in _plan(state.rules).observe:
            given = contribution(state, seat)
            assert set(given) <= OBSERVED_BY_VARIANTS, set(given)
            for field, value in given.items():
                assert getattr(view, field) == value, field
                if value != defaults[field]:
                    seen.add(field)
    # Every variant field is given a value of its own somewhere: none goes untested.
    assert seen == OBSERVED_BY_VARIANTS, OBSERVED_BY_VARIANTS - seen


def test_a_match_moved_on_is_the_attrs_evolve_of_its_state() -> None:
    """The match a move makes within a hand holds every field of the last but the state:
    equal, field for field, to ``attrs.evolve(match, state=...)``, and as frozen."""
    match = brisca.new_match(brisca.preset("spanish-4p"), seed=5)
    match = brisca.apply(match, brisca.legal_actions(match)[0])
    state = brisca.apply(match.state, brisca.legal_actions(match.state)[0])
    moved, slow = _with_state(match, state), attrs.evolve(match, state=state)
    assert type(moved) is Match and moved == slow and hash(moved) == hash(slow)
    for field in attrs.fields(Match):  # the cache, `_stream`, too, which equality skips
        assert getattr(moved, field.name) is getattr(slow, field.name), field.name
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        moved.stake = 2  # type: ignore[misc]


def test_a_match_view_holds_each_field_of_the_match() -> None:
    """match_observe's view, built over the slots positionally, holds each field where
    the match keeps it (a swap of two would show: stake 1, ties 0), and is a frozen
    MatchObservation equal to one built by its own keyword __init__."""
    match = brisca.new_match(brisca.preset("spanish-2p"), seed=5)
    while match.hand_number < 2:
        match = brisca.apply(match, brisca.legal_actions(match)[0])
    view = brisca.match_observe(match, 1)
    assert type(view) is MatchObservation
    assert (view.seat, view.rules, view.first_dealer, view.cut) == (
        1,
        match.rules,
        match.first_dealer,
        match.cut,
    )
    assert view.current == brisca.observe(match.state, 1)
    assert view.hands == match.hands and view.earlier_hands == 0
    assert (view.standings, view.stake, view.ties, view.winners) == (match.standings, 1, 0, ())
    slow = MatchObservation(
        **{f.name: getattr(view, f.name) for f in attrs.fields(MatchObservation)}
    )
    assert view == slow and hash(view) == hash(slow)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        view.stake = 2  # type: ignore[misc]


def test_no_value_class_nor_event_type_takes_a_subclass() -> None:
    """Compiled, a class of Python code cannot extend a native class (its objects fail to
    be made, with a TypeError); interpreted, a subclass was sealed back into its base. In
    both builds, defining one is a TypeError, as it is for ``bool``."""
    from brisca.game import events

    kinds = [State, Trick, Deal, Seating, Ledger, Observation, HandResult, brisca.Play]
    kinds += [getattr(events, name) for name in events.__all__ if name[0].isupper()]
    for kind in kinds:
        with pytest.raises(TypeError, match="takes no subclass"):
            type("Mine", (kind,), {"__slots__": ()})


def test_a_failed_call_of_init_leaves_the_value_frozen() -> None:
    """`value.__init__(...)` with the wrong arguments raises, and the value is still of its
    class, equal to what it was and refusing changes (interpreted, the call had left it
    as the builder that stores plainly)."""
    state = brisca.new_game(brisca.preset("spanish-2p"), seed=1)
    twin = copy.copy(state)
    # Compiled, the native __init__ of a value already made does nothing again.
    with contextlib.suppress(TypeError):
        state.__init__()  # type: ignore[call-arg, misc]
    assert type(state) is State and state == twin
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.to_act = 1  # type: ignore[misc]
