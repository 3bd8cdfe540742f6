"""Game records: the JSON format and its schema, replay, validation, and action notation."""

from __future__ import annotations

import io
import json
import random
import re
from typing import Any

import attrs
import pytest
from helpers import play, stacked
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import any_json

import brisca
from brisca import records
from brisca.agents.encoding import ACTION_SPACE
from brisca.formats.records import GameRecord, Problem, RecordedResult

presets = st.sampled_from(sorted(brisca.PRESETS))
seeds = st.integers(min_value=0, max_value=2**64)


def random_game(
    rules: brisca.Rules, seed: int, rng: random.Random
) -> tuple[brisca.State, list[brisca.Action], brisca.State]:
    """A hand dealt from `seed` and played to the end at random: (deal, actions, end)."""
    start = state = brisca.new_game(rules, seed=seed, dealer=rng.randrange(rules.num_players))
    actions = []
    while not state.is_over:
        options = brisca.legal_actions(state)
        action = options[rng.randrange(len(options))]
        actions.append(action)
        state = brisca.apply(state, action)
    return start, actions, state


# A tiny JSON Schema checker for the keywords record.schema.json uses (jsonschema is no
# dependency of this project).
_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}
_KNOWN_KEYWORDS = {
    "$schema", "$id", "$defs", "$ref", "title", "description", "type", "const", "enum",
    "properties", "required", "additionalProperties", "items", "minimum", "maximum",
    "minLength", "pattern", "oneOf", "not", "uniqueItems", "minItems", "maxItems",
    "maxProperties",
}  # fmt: skip


def schema_errors(schema: dict[str, Any], value: Any, root: dict[str, Any]) -> list[str]:
    """Why `value` fails `schema` (empty when it conforms)."""
    unknown = set(schema) - _KNOWN_KEYWORDS
    assert not unknown, f"the checker does not know {unknown}"
    errors: list[str] = []
    if "$ref" in schema:
        target: Any = root
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        errors += schema_errors(target, value, root)
    if "type" in schema:
        kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_TYPES[k](value) for k in kinds):
            return [*errors, f"{value!r} is not of type {kinds}"]
    if "const" in schema and (value != schema["const"] or type(value) is not type(schema["const"])):
        errors.append(f"{value!r} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{value!r} not in {schema['enum']}")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                errors.append(f"missing {key!r}")
        properties = schema.get("properties", {})
        for key, item in value.items():
            if key in properties:
                errors += schema_errors(properties[key], item, root)
            elif schema.get("additionalProperties") is False:
                errors.append(f"unexpected {key!r}")
            elif isinstance(schema.get("additionalProperties"), dict):
                errors += schema_errors(schema["additionalProperties"], item, root)
    if isinstance(value, dict) and len(value) > schema.get("maxProperties", len(value)):
        errors.append(f"more than {schema['maxProperties']} properties")
    if isinstance(value, list):
        if not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", len(value)):
            errors.append(f"{len(value)} items, outside the bounds")
        if "items" in schema:
            for item in value:
                errors += schema_errors(schema["items"], item, root)
        if schema.get("uniqueItems") and len({json.dumps(v) for v in value}) != len(value):
            errors.append("items are not unique")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{value} < {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{value} > {schema['maximum']}")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            errors.append(f"{value!r} is too short")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            errors.append(f"{value!r} does not match {schema['pattern']}")
    if "oneOf" in schema:
        passing = sum(not schema_errors(s, value, root) for s in schema["oneOf"])
        if passing != 1:
            errors.append(f"{value!r} matches {passing} of oneOf, not 1")
    if "not" in schema and not schema_errors(schema["not"], value, root):
        errors.append(f"{value!r} matches a 'not'")
    return errors


SCHEMA = records.record_schema()


def conforms(data: Any) -> bool:
    return not schema_errors(SCHEMA, data, SCHEMA)


def test_schema_is_draft_2020_12_and_shipped_with_the_package() -> None:
    """The record schema ships as package data and declares JSON Schema draft 2020-12."""
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert SCHEMA["properties"]["format"]["const"] == records.FORMAT
    assert SCHEMA["properties"]["version"]["const"] == records.VERSION


def test_schema_checker_can_fail() -> None:
    """The built-in checker refuses what the schema forbids."""
    good = records.record_game(brisca.new_game(seed=3), []).to_dict()
    assert conforms(good)
    assert not conforms({**good, "deck": ["1O"]})  # a seed and a deck
    assert not conforms({k: v for k, v in good.items() if k != "seed"})  # neither
    assert not conforms({**good, "actions": [3]})
    assert not conforms({**good, "rules": {"preset": "spanish-2p", "options": {}}})
    assert not conforms({**good, "surprise": 1})
    assert not conforms({**good, "version": True})


@pytest.mark.parametrize("name", sorted(brisca.PRESETS))
@settings(max_examples=4)
@given(seed=seeds, rng=st.randoms(use_true_random=False))
def test_records_round_trip_for_every_preset(name: str, seed: int, rng: random.Random) -> None:
    """Every preset's random hand records, dumps, loads back equal, replays to the same end
    state, validates, and conforms to the shipped schema."""
    rules = brisca.preset(name)
    start, actions, end = random_game(rules, seed, rng)
    record = records.record_game(
        start, actions, players=[f"p{i}" for i in range(rules.num_players)]
    )
    assert record.preset == name and record.seed == seed and record.deck is None
    assert record.actions == tuple(str(a) for a in actions)
    assert record.result == RecordedResult(brisca.result(end).points, brisca.result(end).winner)
    text = records.dumps(record)
    assert records.loads(text) == record
    assert conforms(json.loads(text))
    states = list(records.replay(record))
    assert states[0] == start and states[-1] == end and len(states) == len(actions) + 1
    assert records.validate(text) is None


@pytest.mark.parametrize("name", sorted(brisca.PRESETS))
@settings(max_examples=2)
@given(seed=seeds, rng=st.randoms(use_true_random=False))
def test_deck_records_keep_the_deck_order(name: str, seed: int, rng: random.Random) -> None:
    """A hand dealt from an explicit deck is recorded with that deck, which deals it again."""
    rules = brisca.preset(name)
    seeded, actions, _ = random_game(rules, seed, rng)
    start = brisca.new_game(rules, deck=records.deck_order(seeded), dealer=seeded.dealer)
    assert start == attrs.evolve(seeded, deal=attrs.evolve(seeded.deal, seed=None))
    record = records.record_game(start, actions)
    assert record.seed is None and record.deck == records.deck_order(start)
    assert records.loads(records.dumps(record)) == record
    assert conforms(record.to_dict())
    assert records.validate(record) is None


def test_rules_are_written_as_a_preset_and_only_the_options_that_differ() -> None:
    """Rules derived from a preset are written as the preset plus the changed options."""
    rules = attrs.evolve(brisca.preset("arrastre-2p"), tie_rule="draw", match_target=5)
    record = records.record_game(brisca.new_game(rules, seed=1), [], preset="arrastre-2p")
    data = record.to_dict()
    assert data["rules"] == {
        "preset": "arrastre-2p",
        "overrides": {"tie_rule": "draw", "match_target": 5},
    }
    assert records.loads(records.dumps(record)).rules == rules


def test_rules_matching_no_preset_are_written_in_full() -> None:
    """Without a matching preset, every option is written."""
    rules = brisca.Rules(num_players=3, deck="no_twos36")
    data = records.record_game(brisca.new_game(rules, seed=1), []).to_dict()
    assert data["rules"] == {"options": rules.to_dict()}
    assert records.GameRecord.from_dict(data).rules == rules


def test_suit_rotation_records_keep_the_hand_number() -> None:
    """Under suit_rotation the hand number picks the trump, so the record keeps it."""
    rules = brisca.Rules(trump_selection="suit_rotation")
    start = brisca.new_game(rules, seed=4, hand_number=6)
    record = records.record_game(start, [])
    assert record.hand_number == start.hand_number == 6
    assert record.initial_state() == start
    assert records.record_game(start, [], preset=None).initial_state().trump is start.trump


def test_metadata_round_trips() -> None:
    """Players, date, event and free tags survive a round trip through a file."""
    start = brisca.new_game(brisca.preset("spanish-2p"), seed=9)
    record = records.record_game(
        start, ["1O"] if brisca.is_legal(start, brisca.Play("1O")) else [],
        players=["Ana", "Luis"], date="2024-05-01", event="Club final", site="Sevilla", round="3",
    )  # fmt: skip
    assert record.tags == (("round", "3"), ("site", "Sevilla"))
    buffer = io.StringIO()
    records.dump(record, buffer, indent=2)
    buffer.seek(0)
    assert records.load(buffer) == record
    assert json.loads(records.dumps(record))["tags"] == {"round": "3", "site": "Sevilla"}


def test_a_state_records_its_own_history() -> None:
    """A state carries its deal and actions: recording it alone gives the hand so far,
    and recording it with more actions goes on from there."""
    state = brisca.new_game(brisca.preset("spanish-2p"), seed=7)
    first = brisca.legal_actions(state)[0]
    later = brisca.apply(state, first)
    assert later.history == (first,)
    assert records.record_game(later).actions == (str(first),)
    second = brisca.legal_actions(later)[0]
    assert records.record_game(later, [second]) == records.record_game(state, [first, second])
    assert list(records.replay(records.record_game(later)))[-1] == later
    assert records.deck_order(later) == records.deck_order(state)
    with pytest.raises(brisca.StateError):
        records.deck_order("later")  # type: ignore[arg-type]


def test_record_game_refuses_an_illegal_action_with_its_index() -> None:
    """An illegal action while recording raises IllegalActionError naming its index."""
    state = brisca.new_game(brisca.preset("spanish-2p"), seed=7)
    first = brisca.legal_actions(state)[0]
    with pytest.raises(brisca.IllegalActionError, match=r"action 1 \(12E\)"):
        records.record_game(state, [first, brisca.Play("12E")])


@pytest.fixture
def finished() -> GameRecord:
    start, actions, _ = random_game(brisca.preset("arrastre-2p"), 11, random.Random(11))
    return records.record_game(start, actions)


def tampered(record: GameRecord, index: int, text: str) -> GameRecord:
    actions = list(record.actions)
    actions[index] = text
    return attrs.evolve(record, actions=actions)


def test_tampered_action_is_refused_with_its_index_and_the_engines_reason(
    finished: GameRecord,
) -> None:
    """Replacing an action by a card the seat does not hold is reported at that index,
    with the engine's reason."""
    states = list(records.replay(finished))
    index = 5
    seat = states[index].to_act
    absent = next(c for c in finished.rules.cards if c not in states[index].hands[seat])
    problem = records.validate(tampered(finished, index, str(absent)))
    assert problem == Problem(
        index, str(absent), f"{absent} is not in the hand of seat {seat}, the seat to act",
        "illegal action",
    )  # fmt: skip
    with pytest.raises(brisca.IllegalActionError, match=f"action {index} "):
        list(records.replay(tampered(finished, index, str(absent))))


def test_arrastre_violation_in_a_record_names_the_duty(finished: GameRecord) -> None:
    """A record that breaks arrastre is refused with the duty it breaks (SPEC §2.4)."""
    for index, state in enumerate(records.replay(finished)):
        allowed = brisca.legal_actions(state)
        hand = state.hands[state.to_act] if state.to_act is not None else ()
        refused = [c for c in hand if brisca.Play(c) not in allowed]
        if refused:
            problem = records.validate(tampered(finished, index, str(refused[0])))
            assert problem is not None and problem.index == index
            assert "arrastre" in problem.reason
            return
    pytest.fail("no arrastre duty arose in the recorded hand")


def test_malformed_action_is_reported(finished: GameRecord) -> None:
    """Text that is no action is reported as malformed at its index."""
    problem = records.validate(tampered(finished, 3, "swap"))
    assert problem is not None
    assert (problem.index, problem.action, problem.kind) == (3, "swap", "malformed action")
    with pytest.raises(brisca.NotationError, match="action 3"):
        list(records.replay(tampered(finished, 3, "swap")))


def test_extra_action_after_the_end_is_refused(finished: GameRecord) -> None:
    """An action after the hand is over is illegal: the hand is over."""
    problem = records.validate(attrs.evolve(finished, actions=[*finished.actions, "1O"]))
    assert problem is not None and problem.index == len(finished.actions)
    assert problem.reason == "the hand is over"


def test_a_wrong_result_is_reported(finished: GameRecord) -> None:
    """A recorded result that the game does not give is reported."""
    assert finished.result is not None
    wrong = RecordedResult(tuple(reversed(finished.result.points)), finished.result.winner)
    problem = records.validate(attrs.evolve(finished, result=wrong))
    assert problem is not None and problem.kind == "wrong result" and problem.index is None
    cut = attrs.evolve(finished, actions=finished.actions[:-1])
    problem = records.validate(cut)
    assert problem is not None and "not over" in problem.reason


def test_malformed_records_are_reported_not_raised() -> None:
    """Bad JSON, bad rules, a bad deck or a bad version: a Problem, never an exception."""
    good = records.record_game(brisca.new_game(seed=3), []).to_dict()
    deck = [c.code for c in brisca.Rules().cards]
    bad: list[Any] = [
        "{not json",
        "[]",
        json.dumps({**good, "version": 2}),
        json.dumps({**good, "format": "brisca-state"}),
        json.dumps({**good, "rules": {"preset": "no-such-game"}}),
        json.dumps({**good, "rules": {"options": {"num_players": 7}}}),
        json.dumps({**good, "rules": {"preset": "spanish-2p", "overrides": {"deck": 3}}}),
        json.dumps({**good, "dealer": 2}),
        json.dumps({**{k: v for k, v in good.items() if k != "seed"}, "deck": deck[:-1]}),
        json.dumps({**{k: v for k, v in good.items() if k != "seed"}, "deck": deck[:-1] * 2}),
        json.dumps({**good, "deck": deck}),
        json.dumps({**good, "seed": -1}),
        json.dumps({**good, "players": ["only one"]}),
        json.dumps({**good, "actions": "1O"}),
        json.dumps({**good, "result": {"points": [60, 60]}}),
        {**good, "seed": "7"},
    ]
    for item in bad:
        problem = records.validate(item)
        assert problem is not None and problem.index is None, item
        assert problem.kind == "malformed record" and problem.reason
        if isinstance(item, str):
            with pytest.raises(brisca.BriscaError):
                records.loads(item).initial_state()


json_values = any_json(text_size=8, floats=True)


@settings(max_examples=150)
@given(value=json_values)
def test_untrusted_json_never_crashes_validate(value: Any) -> None:
    """Any JSON value given to validate or loads gives a Problem or a BriscaError."""
    text = json.dumps(value)
    assert isinstance(records.validate(text), Problem)
    with pytest.raises(brisca.BriscaError):
        records.loads(text)


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data[:6]):
            found += _paths(value, (*prefix, index))
    return found


def _replaced(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    copy = json.loads(json.dumps(data))
    target = copy
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    return copy


@settings(max_examples=150)
@given(
    name=presets,
    pick=st.integers(min_value=0, max_value=10**6),
    value=json_values,
    delete=st.booleans(),
)
def test_tampered_records_never_crash_and_schema_agrees(
    name: str, pick: int, value: Any, delete: bool
) -> None:
    """A valid record with one field replaced or removed gives a Problem or passes, never an
    exception; whatever loads accepts also conforms to the schema."""
    rng = random.Random(pick)
    start, actions, _ = random_game(brisca.preset(name), pick, rng)
    data = records.record_game(start, actions[:8]).to_dict()
    paths = _paths(data)
    path = paths[pick % len(paths)]
    if delete and path:
        changed = json.loads(json.dumps(data))
        target = changed
        for part in path[:-1]:
            target = target[part]
        del target[path[-1]]
    else:
        changed = _replaced(data, path, value)
    problem = records.validate(json.dumps(changed))
    assert problem is None or isinstance(problem, Problem)
    try:
        records.loads(json.dumps(changed))
    except brisca.BriscaError:
        return
    assert conforms(changed), schema_errors(SCHEMA, changed, SCHEMA)


@pytest.mark.parametrize("name", sorted(brisca.PRESETS))
@settings(max_examples=4)
@given(seed=seeds, rng=st.randoms(use_true_random=False))
def test_notation_round_trips_for_every_legal_action(
    name: str, seed: int, rng: random.Random
) -> None:
    """Every action legal_actions offers in a random game reads back from its notation."""
    rules = brisca.preset(name)
    state = brisca.new_game(rules, seed=seed)
    while not state.is_over:
        options = brisca.legal_actions(state)
        for action in options:
            assert brisca.parse_action(str(action)) == action
        state = brisca.apply(state, options[rng.randrange(len(options))])


def test_notation_round_trips_for_every_action_kind() -> None:
    """Each action of every kind has one canonical string that parse_action reads back."""
    texts = [str(a) for a in ACTION_SPACE]
    assert len(set(texts)) == len(texts)
    for action in ACTION_SPACE:
        assert brisca.parse_action(str(action)) == action


def test_replay_of_a_stacked_deal() -> None:
    """A hand from a stacked deck replays from its record (deck recorded, no seed)."""
    rules = brisca.preset("spanish-2p")
    start = stacked(rules, {0: ["1O", "3O", "12O"], 1: ["2C", "4C", "5C"]}, trump="7O")
    after = play(start, "1O", "2C")
    record = records.record_game(start, ["1O", "2C"])
    assert record.deck is not None  # seat 0 then seat 1 receive the first cards
    assert record.deck[:2] == (brisca.Card.parse("1O"), brisca.Card.parse("2C"))
    assert list(records.replay(record))[-1] == after
    assert record.result is None


# The constructor reads a bounded amount and accepts only what dumps can write.


def _endless() -> dict[str, Any]:
    import itertools

    return {
        "actions": itertools.repeat("1O"),
        "deck": itertools.cycle(brisca.preset("spanish-2p").cards),
        "players": itertools.repeat("Ana"),
        "tags": ((f"t{k}", "v") for k in itertools.count()),
    }


@pytest.mark.parametrize("field", ["actions", "deck", "players", "tags"])
def test_a_record_reads_an_endless_iterable_one_past_its_bound(field: str) -> None:
    """Each sequence a GameRecord takes is read one item past its bound at most
    (MAX_DEAL_ACTIONS actions, the largest pack, six players, MAX_TAGS tags): an
    endless iterable is refused at once, where it had been read until memory ran out."""
    rules = brisca.preset("spanish-2p")
    given: dict[str, Any] = {"seed": 1, "actions": ()}
    if field == "deck":
        given.pop("seed")
    given[field] = _endless()[field]
    with pytest.raises(brisca.BriscaError):
        GameRecord(rules, 1, **given)
    with pytest.raises(brisca.NotationError):
        RecordedResult(iter(int, 1), None)  # zeros for ever


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"seed": 2**1024}, "seed"),
        ({"seed": 10**5000}, "seed"),
        ({"hand_number": 2**31}, "hand_number"),
        ({"hand_number": 10**5000}, "hand_number"),
        ({"seed": None, "deck": ["1O"]}, "deck has 1 cards"),
        ({"seed": None, "deck": ["1O"] * 40}, "twice"),
        ({"result": "points 10**5000"}, "points"),
        ({"result": "winner 10**5000"}, "winner"),
        ({"result": "winner 2"}, "winner"),
        ({"result": "no sides"}, "sides"),
    ],
)
def test_a_record_refuses_what_its_writer_could_not_write_or_its_reader_read(
    fields: dict[str, Any], words: str
) -> None:
    """Numbers past what the formats hold (a seed past MAX_SEED, a hand number past
    MAX_HAND_NUMBER, points past MAX_POINTS, a winner that is no side) and decks that
    are no order of the pack are refused by the constructor, as the reader refuses
    them: ``dumps`` had let a bare ValueError out of numbers of 5,000 digits."""
    rules = brisca.preset("spanish-2p")
    results = {
        "points 10**5000": lambda: RecordedResult((10**5000, 0), 0),
        "winner 10**5000": lambda: RecordedResult((60, 60), 10**5000),
        "winner 2": lambda: RecordedResult((60, 60), 2),
        "no sides": lambda: RecordedResult((), None),
    }
    with pytest.raises(brisca.BriscaError, match=words):
        if "result" in fields:
            results[fields["result"]]()
        else:
            GameRecord(rules, 1, (), **{"seed": 1, **fields})


def test_the_largest_record_values_are_written_and_read_back() -> None:
    """At their bounds, the values a record takes are written, conform to the schema and
    read back: the bounds are the reader's."""
    rules = brisca.preset("spanish-2p")
    from brisca.game.engine import MAX_HAND_NUMBER
    from brisca.game.rng import MAX_SEED

    record = GameRecord(
        rules,
        1,
        (),
        seed=MAX_SEED,
        hand_number=MAX_HAND_NUMBER,
        tags={f"t{k}": "v" for k in range(records.MAX_TAGS)},
    )
    text = records.dumps(record)
    assert conforms(json.loads(text))
    assert records.loads(text) == record
    assert not conforms({**json.loads(text), "seed": MAX_SEED + 1})
    assert RecordedResult((records.MAX_POINTS,) * 6, 5).points[5] == records.MAX_POINTS


_NOTATIONS = [str(action) for action in ACTION_SPACE] + ["zz", "", "play", "1Z"]


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(sorted(brisca.PRESETS)),
    dealer=st.integers(0, 1),
    actions=st.lists(st.sampled_from(_NOTATIONS), max_size=8),
    seed=st.integers(0, 2**64),
    points=st.none() | st.tuples(st.integers(0, 120), st.integers(0, 120)),
    winner=st.sampled_from([None, 0, 1]),
    players=st.none() | st.tuples(st.text(max_size=5), st.text(max_size=5)),
)
def test_every_record_the_constructor_accepts_is_written_and_read_back(
    name: str,
    dealer: int,
    actions: list[str],
    seed: int,
    points: tuple[int, int] | None,
    winner: int | None,
    players: tuple[str, str] | None,
) -> None:
    """A record is plain data: whatever the constructor accepts, legal or not, ``dumps``
    writes and ``loads(text, play=False)`` reads back equal; ``loads`` itself (which
    plays it) gives it back exactly when ``validate`` finds no problem, and else
    refuses it with a BriscaError (it had no way to read such a record back)."""
    rules = brisca.preset(name)
    sides = len(brisca.new_game(rules, seed=0).seating.sides)
    result = None if points is None or sides != 2 else RecordedResult(points, winner)
    try:
        record = GameRecord(
            rules,
            dealer,
            actions,
            seed=seed,
            result=result,
            players=None if players is None or rules.num_players != 2 else players,
        )
    except brisca.BriscaError:
        return  # refused at the door
    text = records.dumps(record)
    assert records.loads(text, play=False) == record
    assert records.load(io.StringIO(text), play=False) == record
    if records.validate(record) is None:
        assert records.loads(text) == record
    else:
        with pytest.raises(brisca.BriscaError):
            records.loads(text)


def test_play_is_a_bool() -> None:
    text = records.dumps(GameRecord(brisca.preset("spanish-2p"), 0, (), seed=1))
    for bad in (0, "no", None):
        with pytest.raises(brisca.StateError, match="play to be True or False"):
            records.loads(text, play=bad)  # type: ignore[arg-type]
        with pytest.raises(brisca.StateError, match="play to be True or False"):
            records.load(io.StringIO(text), play=bad)  # type: ignore[arg-type]
