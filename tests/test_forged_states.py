"""States built or edited by hand with values no game makes, at every entry point that takes a
state: a `BriscaError` (never a bare Python error), and the state itself unchanged.

`State` is a public attrs class, so ``attrs.evolve`` and its constructor accept any value;
the engine does not validate every state on every step (that would cost more than the step),
so the entry points turn what a contradictory state makes Python raise into a `StateError`.
The forgeries are of two kinds: junk of the wrong type, and well-typed values taken from
another game (a 4-player hand in a 2-player table, a finished game's tricks in a fresh one).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import operator
import pickle
import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from helpers import JUNK, forge, hand_values, played
from hypothesis import given
from hypothesis import strategies as st

import brisca
from brisca.game.engine import trump_is_public

# The engine's sample of the traditions: plain, partnerships, arrastre duties, a covered
# trump, swaps, and an auction (nothing played before the trump is chosen).
PRESETS = ("spanish-2p", "spanish-4p", "arrastre-2p", "cubierta-2p", "casino-2p", "subastada-4p")
FIELDS = tuple(f.name for f in attrs.fields(brisca.State) if f.init)


def _entry_points(action: brisca.Action) -> dict[str, Callable[[brisca.State], object]]:
    return {
        "legal_actions": brisca.legal_actions,
        "apply": lambda s: brisca.apply(s, action),
        "apply(text)": lambda s: brisca.apply(s, str(action)),
        "step": lambda s: brisca.step(s, action),
        "is_legal": lambda s: brisca.is_legal(s, action),
        "refusal": lambda s: brisca.refusal(s, action),
        "observe": lambda s: brisca.observe(s, 0),
        "result": brisca.result,
        "trump_is_public": trump_is_public,
        "legal_mask": brisca.legal_mask,
        "dumps": brisca.dumps,
        "record_game": brisca.record_game,
        "check_state": brisca.check_state,
    }


def _forged(state: brisca.State, field: str, value: object) -> brisca.State | None:
    change: dict[str, Any] = {field: value}
    try:
        return attrs.evolve(state, **change)
    except brisca.BriscaError:
        return None  # refused at the door: as good as refused later


def _assert_refused_or_served(forged: brisca.State, action: brisca.Action) -> None:
    before = pickle.dumps(forged)
    for name, entry in _entry_points(action).items():
        try:
            entry(forged)
        except brisca.BriscaError:
            pass
        except Exception as error:  # pragma: no cover - the failure being tested for
            pytest.fail(f"{name} leaked {type(error).__name__}: {error}")
    assert pickle.dumps(forged) == before, "an entry point changed the state it was given"


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("field", FIELDS)
def test_junk_in_any_field_of_a_state_is_a_brisca_error(name: str, field: str) -> None:
    state = played(name, 5)
    action = brisca.legal_actions(state)[0]
    for value in JUNK:
        forged = _forged(state, field, value)
        if forged is not None:
            _assert_refused_or_served(forged, action)


class _Incomparable:
    """A value whose comparisons raise, as a broken or hostile one's may."""

    def __eq__(self, other: object) -> bool:
        raise TypeError("no comparing me")

    def __hash__(self) -> int:
        raise ValueError("no hashing me")


@pytest.mark.parametrize("field", FIELDS)
def test_values_that_refuse_comparison_in_any_field_are_a_brisca_error(field: str) -> None:
    """A field holding a value whose == or hash raises, or a numpy array (whose == gives
    no bool), is a BriscaError at every entry point: check_state's last comparison of
    the state with its replay had let the bare error out."""
    import numpy as np

    state = played("spanish-4p", 5)
    action = brisca.legal_actions(state)[0]
    for value in (_Incomparable(), np.array([1, 2]), np.int64(1)):
        forged = _forged(state, field, value)
        if forged is not None:
            _assert_refused_or_served(forged, action)


# Donors: real values from other games, so each forgery is well typed but contradicts the rest.
_DONORS = [
    played(name, moves, seed) for name in PRESETS for moves, seed in ((0, 1), (9, 2), (99, 4))
]


@given(
    name=st.sampled_from(PRESETS),
    moves=st.integers(0, 30),
    changes=st.dictionaries(
        st.sampled_from(FIELDS), st.sampled_from(range(len(_DONORS))), min_size=1, max_size=3
    ),
)
def test_a_state_made_of_other_games_parts_is_a_brisca_error(
    name: str, moves: int, changes: dict[str, int]
) -> None:
    state = played(name, moves)
    if state.is_over:
        return
    action = brisca.legal_actions(state)[0]
    donated: dict[str, Any] = {f: getattr(_DONORS[i], f) for f, i in changes.items()}
    forged = attrs.evolve(state, **donated)
    _assert_refused_or_served(forged, action)


def test_the_error_names_the_state_and_the_python_error_only() -> None:
    """The message says what is wrong without quoting the forged value, hidden cards and all."""
    state = played("spanish-2p", 3)
    forged = attrs.evolve(state, to_act=7)
    with pytest.raises(brisca.StateError, match=r"^the state is inconsistent \(IndexError\)$"):
        brisca.legal_actions(forged)
    # The compiled build refuses the float as it is stored, naming the types alone.
    with pytest.raises(brisca.StateError, match=r"inconsistent \(TypeError\)|cannot hold"):
        floated = attrs.evolve(state, to_act=1.0)  # type: ignore[arg-type]
        brisca.apply(floated, brisca.legal_actions(state)[0])


def test_genuine_states_still_play_and_copy() -> None:
    """The guard changes nothing for a state play makes: the same moves, copies and values."""
    state = played("spanish-4p", 7)
    assert copy.deepcopy(state) == state
    assert brisca.loads(brisca.dumps(state)) == state
    assert brisca.step(state, brisca.legal_actions(state)[0])[0] == brisca.apply(
        state, brisca.legal_actions(state)[0]
    )


@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("spanish-3p", {"seat": 1.5}),
        ("spanish-3p", {"seat": float("nan")}),
        ("spanish-2p", {"sides": ((5, 6, 7),)}),
    ],
)
def test_the_heuristic_bot_ends_on_a_view_whose_seats_never_come_round(
    name: str, change: dict[str, Any]
) -> None:
    """Its look round the table for opponents still to play visits each seat once at most:
    a hand-edited view's seat (a float, or one no side holds) looped for ever before."""
    import threading

    from brisca.agents.bots import HeuristicBot

    state = played(name, 1)
    view = forge(brisca.observe(state, 1), **change)
    if view is None:  # the compiled build refuses it as it is stored
        return
    outcome: list[object] = []

    def choose() -> None:
        try:
            outcome.append(HeuristicBot()(view, brisca.legal_actions(state)))
        except brisca.BriscaError as error:
            outcome.append(error)

    worker = threading.Thread(target=choose, daemon=True)
    worker.start()
    worker.join(timeout=60)
    assert not worker.is_alive(), "the bot did not return"
    assert outcome, "the bot raised an error that is not a BriscaError"


# What reads a state besides the engine: its own properties and text, the deck writer
# and the conformance kit, which a program checking its own states calls.
def _readers(state: brisca.State) -> dict[str, Callable[[brisca.State], object]]:
    import brisca.testing as kit

    rng = random.Random(1)
    return {
        **{name: operator.attrgetter(name) for name in _STATE_PROPERTIES},
        "str": str,
        "repr": repr,
        "deck_order": brisca.records.deck_order,
        "check_invariants": kit.check_invariants,
        "check_observation": lambda s: kit.check_observation(s, 0, rng),
        "check_refusals": lambda s: kit.check_refusals(s, rng),
        "check_transition": lambda s: kit.check_transition(state, brisca.Pass(), s),
    }


_STATE_PROPERTIES = ("history", "seed", "hand_number", "rules", "dealer", "sides", "side_points")


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("field", FIELDS)
def test_junk_in_any_field_of_a_state_is_a_brisca_error_to_its_readers(
    name: str, field: str
) -> None:
    """A state's properties, its text and the conformance kit say a forged state is bad
    with a BriscaError (the kit's checks a ConformanceError); none leaks a Python error."""
    import brisca.testing as kit

    state = played(name, 5)
    for value in JUNK:
        forged = _forged(state, field, value)
        if forged is None:
            continue
        before = pickle.dumps(forged)
        for label, read in _readers(state).items():
            try:
                read(forged)
            except (brisca.BriscaError, kit.ConformanceError):
                pass
            except Exception as error:  # pragma: no cover - the failure being tested for
                pytest.fail(f"{label} of {field}={value!r} leaked {type(error).__name__}: {error}")
        assert pickle.dumps(forged) == before, "a reader changed the state it was given"


OBSERVATION_FIELDS = tuple(f.name for f in attrs.fields(brisca.Observation))


@pytest.mark.parametrize("field", OBSERVATION_FIELDS)
def test_junk_in_any_field_of_a_view_is_a_brisca_error_to_its_points(field: str) -> None:
    view = brisca.observe(played("spanish-4p", 9), 0)
    for value in JUNK:
        forged = forge(view, **{field: value})
        if forged is None:  # the compiled build refuses it as it is stored
            continue
        try:
            points = forged.side_points
        except brisca.BriscaError:
            continue
        assert type(points) is tuple


def test_the_kit_refuses_what_is_not_a_state_and_still_fails_a_broken_rule() -> None:
    import brisca.testing as kit

    state = played("spanish-2p", 2)
    with pytest.raises(brisca.StateError, match=r"expected a brisca\.State"):
        kit.check_invariants(None)  # type: ignore[arg-type]
    with pytest.raises(brisca.StateError, match=r"rng must be a random\.Random"):
        kit.check_observation(state, 0, None)  # type: ignore[arg-type]
    with pytest.raises(brisca.StateError, match="seat must be"):
        kit.check_observation(state, 2, random.Random(1))
    with pytest.raises(brisca.StateError, match="bots must hold one bot per seat"):
        kit.check_playout(state, random.Random(1), bots=[])
    with pytest.raises(brisca.StateError, match="games must be"):
        kit.check_random_games("spanish-2p", games=-1)
    with pytest.raises(brisca.RulesError):
        kit.check_random_games(7)  # type: ignore[arg-type]
    # A well-formed state that breaks a rule is still the kit's own failure, not a StateError.
    stolen = attrs.evolve(state, hands=(state.hands[0][1:], state.hands[1]))
    with pytest.raises(kit.ConformanceError, match="cards conserved"):
        kit.check_invariants(stolen)


@pytest.mark.parametrize("part", ["seating", "deal", "ledger"])
def test_junk_inside_a_state_part_is_a_brisca_error_to_its_readers(part: str) -> None:
    """One level down: a field of the state's table, deal or ledger forged (the rules a
    table holds, say), through the same readers, the kit with bots among them."""
    import brisca.testing as kit
    from brisca.agents.bots import RandomBot

    state = played("subastada-4p", 6)
    inner = getattr(state, part)
    rng = random.Random(1)
    readers: dict[str, Callable[[brisca.State], object]] = {
        **_readers(state),
        "check_playout(bots)": lambda s: kit.check_playout(s, rng, bots=[RandomBot(1)] * 4),
    }
    for field in (f.name for f in attrs.fields(type(inner))):
        for value in JUNK:
            try:
                change: dict[str, Any] = {field: value}
                forged = attrs.evolve(state, **{part: attrs.evolve(inner, **change)})
            except brisca.BriscaError:
                continue
            for label, read in readers.items():
                try:
                    read(forged)
                except (brisca.BriscaError, kit.ConformanceError):
                    pass
                except Exception as error:  # pragma: no cover - the failure being tested for
                    pytest.fail(f"{label} of {part}.{field}={value!r} leaked {error!r}")


def _nested(depth: int) -> tuple[object, ...]:
    trail: tuple[object, ...] = ()
    for _ in range(depth):
        trail = (trail, brisca.Play("1O"))
    return trail


@pytest.mark.parametrize("kind", ["nested past the C stack", "one past a hand", "holds itself"])
def test_a_trail_longer_than_any_hand_is_refused_by_every_reader_of_it(kind: str) -> None:
    """A hand-built trail is walked with a budget, MAX_DEAL_ACTIONS, at every reader:
    nested a million deep it made hashing overflow the C stack (a crash) and pickle and
    deepcopy overflow Python's, and a list that holds itself was followed until memory
    ran out. Each is a StateError at once, and equality too: as the state is made, for
    the trail nested past `MOST_NESTING` or holding itself (see
    `brisca.game.values.refuse_overgrown`), else at every reader."""
    from brisca.game.state import MAX_DEAL_ACTIONS

    state = played("spanish-2p", 3)
    loop: list[object] = [None, brisca.Play("1O")]
    loop[0] = loop  # a pair whose earlier trail is itself
    trail = {
        "nested past the C stack": lambda: _nested(1_000_000),
        "one past a hand": lambda: _nested(MAX_DEAL_ACTIONS + 1),
        "holds itself": lambda: loop,
    }[kind]()
    forged = forge(state, trail=trail)
    if forged is None:  # refused as it is made
        assert kind != "one past a hand"
        return
    others = _entry_points(brisca.legal_actions(state)[0])
    readers: dict[str, Callable[[brisca.State], object]] = {
        "hash": hash,
        "equality": lambda s: s == state,
        "pickle": pickle.dumps,
        "deepcopy": copy.deepcopy,
        "history": lambda s: s.history,
        **{name: others.pop(name) for name in ("dumps", "record_game", "check_state")},
    }
    for name, read in readers.items():
        with pytest.raises(brisca.StateError, match="MAX_DEAL_ACTIONS"):
            read(forged)
        assert forged.trail is trail, name
    for read in others.values():  # they take the trail on without walking it
        with contextlib.suppress(brisca.BriscaError):
            read(forged)


def test_a_trail_as_long_as_a_hand_still_reads_copies_and_compares() -> None:
    """The budget is a hand's most actions: a trail of exactly that many is no error to
    the value's own readers, and equal trails nested alike compare and hash alike."""
    from brisca.game.state import MAX_DEAL_ACTIONS

    state = played("spanish-2p", 3)
    longest = attrs.evolve(state, trail=_nested(MAX_DEAL_ACTIONS))
    assert len(longest.history) == MAX_DEAL_ACTIONS
    twin = attrs.evolve(state, trail=_nested(MAX_DEAL_ACTIONS))
    assert longest == twin and hash(longest) == hash(twin) and longest != state
    assert pickle.loads(pickle.dumps(longest)) == longest == copy.deepcopy(longest)


def test_a_state_pickled_with_its_trail_nested_still_loads() -> None:
    """States pickled before the trail was written flat (a dict of the fields, the trail
    nested, as attrs pickles them) still load, equal to the state."""
    from brisca.game.values import COMPILED

    if COMPILED:
        pytest.skip("the compiled build reads no State pickled by release 0.1 (see CHANGELOG)")
    state = played("spanish-4p", 6)
    fields = {f.name: getattr(state, f.name) for f in attrs.fields(brisca.State)}
    old = object.__new__(brisca.State)
    old.__setstate__(fields)
    assert old == state and old.trail is state.trail and old.history == state.history


def _genuine_values() -> list[Any]:
    """A genuine value of each class built as `brisca.game.values` says, events included."""
    from brisca.game import events as ev

    state = played("spanish-4p", 6)
    ended = played("spanish-2p", 999)
    card = brisca.Card.parse("3C")
    return [
        *hand_values(state),
        brisca.result(ended),
        ev.CardPlayed(0, card),
        ev.TrickWon(0, 11, 0),
        ev.CardsDrawn(0, card, False),
        ev.TrumpRevealed(brisca.Suit.COPAS, card),
        ev.Swapped(0, card, card),
        ev.BlackHandClaimed(0, False),
        ev.Signalled(0, "wink", None),
        ev.Announced(0, "pass"),
        ev.AuctionWon(0, "bid 70"),
        ev.PartnerRevealed(0),
        ev.HandEnded((60, 60), None, False),
    ]


def _tuples(width: int, depth: int) -> object:
    value: object = 0
    for _ in range(depth):
        value = (value,) * width
    return value


@functools.cache
def _chain(depth: int) -> object:
    """A tuple nested `depth` deep, made once: a million tuples, which every test of a
    value's fields would otherwise make again, churning memory beside the timed tests."""
    return _tuples(1, depth)


@pytest.mark.parametrize("value", _genuine_values(), ids=lambda v: type(v).__name__)
def test_a_tuple_nested_wide_or_deep_anywhere_in_any_field_is_refused_as_it_is_made(
    value: Any,
) -> None:
    """Python hashes a tuple by recursion in C, each item anew: a million deep, a hand-built
    value's tuple crashed the interpreter wherever it was hashed (a dict lookup of a card
    in the stock, by `step`, or in a hand, by the encoder), and a dozen tuples each holding
    the next ten times never finished hashing. Compiled, mypyc's TypeError wrote such a
    tuple out (ten wide and eight deep took 20 s and a gigabyte). Every value refuses one,
    in a field or anywhere inside it, as it is made, in both builds, with a short message
    naming the field (`brisca.game.values.refuse_overgrown`)."""
    for junk in (_tuples(10, 12), _chain(1_000_000)):
        for wrapped in (junk, (junk,), ((0, junk),), (((junk,),),), [junk], {0: junk}):
            for field in attrs.fields(type(value)):
                if not field.init:
                    continue
                with pytest.raises(brisca.StateError, match=rf"\.{field.name} cannot hold a"):
                    attrs.evolve(value, **{field.alias or field.name: wrapped})


def test_nesting_and_sharing_add_up_across_the_librarys_own_values() -> None:
    """Each value is checked with what it holds of the library's own values: a trick
    nested 399 deep in a trick, a thousand times over, or tricks holding the one before
    ten times, a dozen times over, had passed one by one and crashed or never finished
    hashing once together."""
    with pytest.raises(brisca.StateError, match=r"Trick\.cards cannot hold a"):
        trick = brisca.Trick(0, (), 0, 0)
        for _ in range(1000):
            inner: object = trick
            for _ in range(399):
                inner = (inner,)
            trick = brisca.Trick(0, inner, 0, 0)  # type: ignore[arg-type]
    with pytest.raises(brisca.StateError, match=r"Trick\.cards cannot hold a"):
        trick = brisca.Trick(0, (), 0, 0)
        for _ in range(12):
            trick = brisca.Trick(0, (trick,) * 10, 0, 0)  # type: ignore[arg-type]


class _Tuple(tuple):  # type: ignore[type-arg]
    """A tuple that may carry attributes, which pickle writes out too."""


def test_what_a_tuple_subclass_carries_is_checked_with_its_items() -> None:
    state = played("spanish-2p", 3)
    stock = _Tuple(state.stock)
    stock.payload = _chain(1_000_000)  # type: ignore[attr-defined]
    with pytest.raises(brisca.StateError, match=r"State\.stock cannot hold a"):
        attrs.evolve(state, stock=stock)


@pytest.mark.parametrize("value", _genuine_values(), ids=lambda v: type(v).__name__)
def test_a_value_of_many_shared_parts_is_refused_and_a_games_largest_is_not(
    value: Any,
) -> None:
    """The budget counts items as a hash reaches them, a part held twice twice: a tuple
    of ten thousand references to one of twenty is refused. A game's values, pickled and
    evolved (both check), stay inside it, the longest hand's included."""
    wide = ((0,) * 20,) * 10_000
    field = next(f for f in attrs.fields(type(value)) if f.init)
    with pytest.raises(brisca.StateError, match=rf"\.{field.name} cannot hold a"):
        attrs.evolve(value, **{field.alias or field.name: wide})
    assert pickle.loads(pickle.dumps(value)) == value == attrs.evolve(value)


class _Odd:
    """A value of no kind any field takes but "anything"."""


def _field_kinds() -> dict[type, tuple[Any, ...]]:
    from brisca.game import state as values

    return {
        brisca.State: values._STATE_KINDS,
        values.Trick: values._TRICK_KINDS,
        values.Deal: values._DEAL_KINDS,
        values.Seating: values._SEATING_KINDS,
        values.Ledger: values._LEDGER_KINDS,
        brisca.Observation: values._OBSERVATION_KINDS,
        brisca.HandResult: values._HAND_RESULT_KINDS,
    }


@pytest.mark.parametrize(
    "value",
    [*hand_values(played("spanish-4p", 6)), brisca.result(played("spanish-2p", 999))],
    ids=lambda value: type(value).__name__,
)
def test_a_field_given_a_value_of_no_kind_it_takes_is_refused_in_both_builds(
    value: Any,
) -> None:
    """The compiled build checked the kind of each field of a value built by hand and the
    pure-Python build did not: a view whose hand was an endless iterable hung
    `encode_observation`. Both refuse it as the value is made, naming the field."""
    kind = type(value)
    kinds = _field_kinds()[kind]
    fields = [a for a in attrs.fields(kind) if a.init]
    assert len(fields) == len(kinds)
    checked = 0
    for field, accepted in zip(fields, kinds, strict=True):
        if accepted is None:  # a field that takes anything
            continue
        checked += 1
        with pytest.raises(
            brisca.StateError,
            match=rf"^{kind.__name__}\.{field.name} cannot hold a value of type _Odd$",
        ):
            attrs.evolve(value, **{field.alias: _Odd()})
    assert checked >= len(kinds) - 2
