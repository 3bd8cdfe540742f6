"""Every value is bounded, and every accepted value round-trips (DESIGN principle 8, issue 20 §2).

A constructor refuses what its documented range leaves out with a short `BriscaError`;
whatever it accepts compares, hashes, copies and pickles, and writes and reads back
through every document: saves, match saves and records.
"""

from __future__ import annotations

import copy
import itertools
import pickle
from typing import Any

import attrs
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import brisca
from brisca import NotationError, Rules, RulesError, StateError
from brisca.formats import records
from brisca.game import actions, events
from brisca.game.engine import MAX_HAND_NUMBER
from brisca.game.option import Option
from brisca.game.rng import MAX_SEED, Generator
from brisca.game.rules import INT_OPTIONS, MATCH_TARGET_LIMITS
from brisca.game.variants import auction

#: How long an error message about one bad value may be.
SHORT = 500
HUGE_INT = 10**5000  # past Python's 4,300-digit limit for turning an int into text
MEGABYTE = "x" * 10**6

FIELDS: list[attrs.Attribute[Any]] = list(attrs.fields(Rules))


def _junk(field: attrs.Attribute[Any]) -> list[object]:
    """Values of the wrong kind or size for `field`: a bool is junk only where no bool fits."""
    values: list[object] = [MEGABYTE, HUGE_INT, 1.5, None, [None, [1]]]
    values.append(1 if field.type in ("bool", bool) else True)
    return values


@pytest.mark.parametrize("field", FIELDS, ids=[f.name for f in FIELDS])
def test_every_rules_option_refuses_junk_with_a_short_rules_error(
    field: attrs.Attribute[Any],
) -> None:
    """A megabyte string, a 5,000-digit int, a float, None, a list and a bool (or an int
    for a flag) give a RulesError of a few hundred characters, for every field of Rules."""
    for value in _junk(field):
        options: dict[str, Any] = {field.name: value}
        with pytest.raises(RulesError) as caught:
            Rules(**options)
        assert len(str(caught.value)) < SHORT, (field.name, len(str(caught.value)))


def test_removed_cards_reads_no_more_than_a_pack() -> None:
    """A long list of cards, or an endless iterable, is refused after one pack's worth."""
    for value in (["2B"] * 100_000, itertools.repeat("2B")):
        with pytest.raises(RulesError, match="more than 48 cards") as caught:
            Rules(removed_cards=value)
        assert len(str(caught.value)) < SHORT


def _valid_with(name: str, value: int) -> dict[str, Any]:
    """Options that make `name=value` the only question: a table that fits the value."""
    if name == "num_players":
        decks = {3: "spanish40", 5: "spanish40", 6: "spanish48"}
        teams = {5: "sit_out_partners"}
        return {
            "num_players": value,
            "deck": decks.get(value, "spanish40"),
            "team_mode": teams.get(value, "individual"),
        }
    if name == "chiamata_scores":
        return {name: (value, 0, 0, 0)}
    return {name: value}


@pytest.mark.parametrize("name", sorted(INT_OPTIONS))
def test_every_int_option_has_a_documented_range(name: str) -> None:
    """Each int option accepts its least and greatest value, and refuses one beyond each."""
    least, most = INT_OPTIONS[name]
    mode: dict[str, Any] = (
        {"match_mode": "cumulative_card_points"} if name == "match_target" else {}
    )
    for value in (least, most):
        rules = Rules(**mode, **_valid_with(name, value))
        assert rules == Rules.from_dict(rules.to_dict())
    for value in (least - 1, most + 1, 2**64):
        with pytest.raises(RulesError, match=name) as caught:
            Rules(**mode, **_valid_with(name, value))
        assert len(str(caught.value)) < SHORT


@pytest.mark.parametrize("mode", list(brisca.MatchMode))
def test_match_target_is_bounded_by_its_match_mode(mode: brisca.MatchMode) -> None:
    """The target that a client may ask of a server cannot ask for an endless match:
    at most 100 hands won, 1,000 game points or 5,000 card points."""
    most = MATCH_TARGET_LIMITS[mode]
    assert Rules(match_mode=mode, match_target=most).match_target == most
    with pytest.raises(RulesError, match=rf"match_target.* {most}\b"):
        Rules(match_mode=mode, match_target=most + 1)
    assert MATCH_TARGET_LIMITS[brisca.MatchMode.HANDS_WON] == 100


def test_a_rules_value_that_plays_also_reloads() -> None:
    """Rules(match_target=2**64) played, then loads refused it: now Rules refuses it."""
    with pytest.raises(RulesError, match="match_target"):
        Rules(match_target=2**64)
    for name, (least, most) in INT_OPTIONS.items():
        assert 0 <= least <= most < 2**16, name  # far inside what from_dict reads back


# Seeds, hand numbers and bids.


@pytest.mark.parametrize("seed", [MAX_SEED + 1, HUGE_INT, -1], ids=["max+1", "huge", "-1"])
def test_seeds_past_the_documented_range_are_refused_shortly(seed: int) -> None:
    """Seeds are ints from 0 to 2**1024 - 1; beyond, new_game and Generator say so briefly."""
    for make in (lambda: brisca.new_game(seed=seed), lambda: Generator(seed)):
        with pytest.raises(StateError, match=r"seed must be an int from 0 to 2\*\*1024 - 1"):
            make()


def test_the_greatest_seed_and_hand_number_write_and_read_back() -> None:
    """A game of the greatest seed and hand number round-trips through saves and records."""
    state = brisca.new_game("spanish-2p", seed=MAX_SEED, hand_number=MAX_HAND_NUMBER)
    state = brisca.apply(state, brisca.legal_actions(state)[0])
    assert brisca.loads(brisca.dumps(state)) == state
    record = records.record_game(state)
    assert records.loads(records.dumps(record)) == record
    assert MAX_SEED == 2**1024 - 1 and MAX_HAND_NUMBER == 2**31 - 1


@pytest.mark.parametrize(
    "number",
    [MAX_HAND_NUMBER + 1, HUGE_INT, -1, True, 1.0],
    ids=["max+1", "huge", "-1", "bool", "float"],
)
def test_hand_numbers_past_the_documented_range_are_refused_shortly(number: object) -> None:
    with pytest.raises(StateError, match="hand_number must be an int from 0 to 2147483647"):
        brisca.new_game(seed=1, hand_number=number)  # type: ignore[arg-type]


def test_bids_are_bounded_by_what_an_auction_allows() -> None:
    """Bid(10**5000) was built and then could not be written: bids are 1 to 220 points."""
    assert actions.MAX_BID == auction.MAX_BID == 220
    top = brisca.Bid(actions.MAX_BID)
    assert brisca.parse_action(str(top)) == top
    for points in (actions.MAX_BID + 1, HUGE_INT, 0, True):
        with pytest.raises(NotationError, match="a bid's points must be an int from 1 to 220"):
            brisca.Bid(points)
    with pytest.raises(NotationError, match="from 1 to 220"):
        brisca.parse_action("bid 999999")


# Accepted values round-trip: a property over random Rules.


def _ints(name: str) -> st.SearchStrategy[int]:
    """Ints for the option `name`: small ones, and its bounds and just beyond, and huge."""
    least, most = INT_OPTIONS[name]
    inside = st.integers(least, min(most, least + 130))
    edges = [least - 1, least, most, most + 1, *MATCH_TARGET_LIMITS.values(), 2**64, HUGE_INT]
    return st.one_of(inside, inside, st.sampled_from(edges))


def _values(field: attrs.Attribute[Any]) -> st.SearchStrategy[object]:
    """Values for `field`, inside its range and out of it."""
    name = field.name
    if name == "removed_cards":
        codes = [c.code for c in brisca.Rules(deck="spanish48").cards]
        return st.one_of(
            st.just("all_twos"), st.lists(st.sampled_from(codes), max_size=3), st.just(["2B"])
        )
    if name == "chiamata_scores":
        return st.tuples(*[_ints(name)] * 4)
    if name in INT_OPTIONS:
        return _ints(name)
    if field.type in ("bool", bool):
        return st.booleans()
    option = field.converter  # an enumerated option's converter is its Option class
    assert isinstance(option, type) and issubclass(option, Option), name
    return st.sampled_from(list(option))


def _option(field: attrs.Attribute[Any]) -> st.SearchStrategy[tuple[str, object]]:
    return st.tuples(st.just(field.name), _values(field))


_INT_FIELDS = [f for f in FIELDS if f.name in INT_OPTIONS]
#: A few options of any kind, and always one int option, where the sizes lie.
_OVERRIDES: st.SearchStrategy[dict[str, Any]] = st.tuples(
    st.lists(st.sampled_from(FIELDS).flatmap(_option), max_size=3),
    st.sampled_from(_INT_FIELDS).flatmap(_option),
).map(lambda drawn: dict([*drawn[0], drawn[1]]))


@st.composite
def accepted_rules(draw: st.DrawFn) -> Rules:
    """A preset with a few options changed to random values; draws that clash are skipped."""
    base = draw(st.sampled_from(sorted(brisca.PRESETS)))
    overrides = draw(_OVERRIDES)
    try:
        return attrs.evolve(brisca.PRESETS[base], **overrides)
    except RulesError:
        assume(False)
        raise


def _is_a_value(value: object) -> None:
    """`value` compares, hashes, copies and pickles to an equal value."""
    for twin in (copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
        assert twin == value and hash(twin) == hash(value), value


@given(
    rules=accepted_rules(),
    seed=st.one_of(st.integers(0, 2**64), st.just(MAX_SEED)),
    hand_number=st.one_of(st.integers(0, 10), st.just(MAX_HAND_NUMBER)),
    moves=st.integers(0, 12),
)
def test_every_accepted_rules_value_round_trips(
    rules: Rules, seed: int, hand_number: int, moves: int
) -> None:
    """Whatever Rules accepts reads back from its dict, pickles and hashes; a game of it a
    few moves in, its events and result, its record and a new match of it all round-trip."""
    assert Rules.from_dict(rules.to_dict()) == rules
    _is_a_value(rules)
    state = brisca.new_game(rules, seed=seed, hand_number=hand_number)
    gen = Generator(seed)
    happened: list[events.Event] = []
    while not state.is_over:
        offered = brisca.legal_actions(state)
        action = offered[gen.below(len(offered))]
        _is_a_value(action)
        state, new = brisca.step(state, action)
        happened.extend(new)
        if moves == len(state.history):
            assert brisca.loads(brisca.dumps(state)) == state
            assert pickle.loads(pickle.dumps(state)) == state
    for event in happened:
        _is_a_value(event)
    for card in rules.cards:
        _is_a_value(card)
    _is_a_value(brisca.result(state))
    assert brisca.loads(brisca.dumps(state)) == state
    record = records.record_game(state)
    assert records.loads(records.dumps(record)) == record
    match = brisca.new_match(rules, seed=1)
    assert brisca.loads_match(brisca.dumps_match(match)) == match
