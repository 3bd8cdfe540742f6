"""Fuzzing every public entry point: only BriscaError subclasses leave the library, the
inputs stay unchanged, and error messages stay short and keep hidden cards hidden.

Sized for CI under the default profile; ``HYPOTHESIS_PROFILE=thorough`` runs a longer,
randomised search. ``benchmarks/fuzz.py`` counts inputs and escapes over a longer run.
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest
from helpers import forge
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import any_json, mutated, to_text

import brisca
from brisca import bots, encoding, records, sampling
from brisca import match as matches
from brisca.game.actions import ACTION_TYPES
from brisca.game.rng import Generator

#: The longest error message the library may give (issue 11: capped, never giant).
MESSAGE_LIMIT = 200
#: Examples per test scale with the profile: 1x in CI, 10x under "thorough".
SCALE = min(10.0, settings.default.max_examples / 60)


def examples(n: int) -> settings:
    """`n` examples in CI, scaled up by the profile."""
    return settings(max_examples=max(1, int(n * SCALE)))


def _play(state: brisca.State, steps: int) -> brisca.State:
    for k in range(steps):
        if state.is_over:
            break
        legal = brisca.legal_actions(state)
        state = brisca.apply(state, legal[k % len(legal)])
    return state


def _played_match(name: str, steps: int) -> matches.Match:
    game = matches.new_match(brisca.preset(name), seed=5)
    for k in range(steps):
        if game.is_over:
            break
        legal = matches.match_legal_actions(game)
        game = matches.match_apply(game, legal[k % len(legal)])
    return game


PRESETS = ("spanish-4p", "puerto-rican-3p", "arrastre-2p", "subastada-4p", "chiamata-5p")
STATES = tuple(_play(brisca.new_game(brisca.preset(n), seed=11), 9) for n in PRESETS)
SNAPSHOTS = copy.deepcopy(STATES)
VIEWS = tuple(brisca.observe(s, s.to_act or 0) for s in STATES)
MATCHES = (_played_match("spanish-2p", 50), _played_match("subastada-4p", 30))
RECORDS = tuple(
    records.record_game(brisca.new_game(s.rules, seed=11), [], players=["a"] * s.rules.num_players)
    for s in STATES[:3]
)
STATE_DOCS = tuple(json.loads(brisca.dumps(s)) for s in STATES)
MATCH_DOCS = tuple(json.loads(brisca.dumps_match(m)) for m in MATCHES)
RECORD_DOCS = tuple(r.to_dict() for r in RECORDS)


class _Unreadable:
    """An iterable whose iteration fails part-way, as a generator's may."""

    def __iter__(self) -> Iterator[str]:
        yield "1O"
        raise IndexError("unreadable")


class _NoIterator:
    """An iterable by its type whose ``__iter__`` gives no iterator."""

    def __iter__(self) -> Any:
        return 5


class _Endless:
    """An iterable that never ends: each entry point reads it to a budget at most."""

    def __iter__(self) -> Iterator[str]:
        return itertools.repeat("1O")


#: Python values of every kind that a caller might pass by mistake.
OBJECTS = (STATES[0], MATCHES[0], VIEWS[0], brisca.Rules(), brisca.Play("1O"),
           brisca.Card.parse("1O"), Generator(1), object(), b"\xff", (1, 2), {1, 2},
           10**5000, float("nan"), print, _Unreadable(), _NoIterator(), _Endless())  # fmt: skip
junk = any_json(max_leaves=8) | st.sampled_from(OBJECTS)


@pytest.fixture(autouse=True)
def _inputs_unchanged() -> object:
    yield
    assert STATES == SNAPSHOTS


def _hidden_codes(state: brisca.State, seat: int = 0) -> set[str]:
    """The codes of the cards `seat` cannot see: other hands and the stock."""
    hidden = {c for s, hand in enumerate(state.hands) if s != seat for c in hand}
    return {c.code for c in hidden | set(state.stock)}


def refused(call: Callable[..., object], *args: Any, **kwargs: Any) -> brisca.BriscaError | None:
    """Call; a BriscaError is the only exception allowed out, and its message is short.

    Any other exception propagates and fails the test.
    """
    try:
        call(*args, **kwargs)
    except brisca.BriscaError as error:
        message = str(error)
        assert len(message) <= MESSAGE_LIMIT, f"{len(message)} characters: {message[:300]}"
        return error
    return None


# Mutated documents.


@examples(600)
@given(data=st.data())
def test_fuzzed_state_documents(data: st.DataObject) -> None:
    """brisca.loads: a mutated dump reads as a state or fails as a BriscaError."""
    text = to_text(data.draw(mutated(data.draw(st.sampled_from(STATE_DOCS)))))
    # Only the type is checked: serial.py is being rewritten to read through brisca.game.jsonio.
    with contextlib.suppress(brisca.BriscaError):
        brisca.loads(text)


@examples(400)
@given(data=st.data())
def test_fuzzed_match_documents(data: st.DataObject) -> None:
    """loads_match: a mutated match record reads or fails as a short BriscaError."""
    text = to_text(data.draw(mutated(data.draw(st.sampled_from(MATCH_DOCS)))))
    refused(brisca.loads_match, text)


@examples(1200)
@given(data=st.data())
def test_fuzzed_record_documents(data: st.DataObject) -> None:
    """records.loads: a mutated record reads or fails as a short BriscaError."""
    text = to_text(data.draw(mutated(data.draw(st.sampled_from(RECORD_DOCS)))))
    refused(records.loads, text)


@examples(1200)
@given(data=st.data(), form=st.sampled_from(["text", "bytes", "data", "junk"]))
def test_validate_never_raises(data: st.DataObject, form: str) -> None:
    """records.validate returns a Problem or None for any input; it never raises."""
    document = data.draw(mutated(data.draw(st.sampled_from(RECORD_DOCS))))
    subject: object = {
        "text": lambda: to_text(document),
        "bytes": lambda: to_text(document).encode(),
        "data": lambda: document,
        "junk": lambda: data.draw(junk),
    }[form]()
    problem = records.validate(subject)  # type: ignore[arg-type]
    assert problem is None or len(problem.reason) <= MESSAGE_LIMIT


@examples(1200)
@given(data=st.data())
def test_fuzzed_rules_options(data: st.DataObject) -> None:
    """Rules.from_dict: mutated options build rules or fail as a short BriscaError."""
    options = brisca.preset(data.draw(st.sampled_from(sorted(brisca.PRESETS)))).to_dict()
    refused(brisca.Rules.from_dict, data.draw(mutated(options)))


# Junk arguments.


#: What reads notation: the parsers and every action type built from an argument.
NOTATION = (
    brisca.parse_action,
    brisca.Card.parse,
    *(kind for kind in ACTION_TYPES if attrs.fields(kind)),
)
text_junk = st.text(max_size=12) | st.sampled_from(
    ["bid ²", "²O", "½ de oros", "bid rank ٣", "bid " + "9" * 5000, "0" * 5000 + "1 de oros"]
)


@examples(1200)
@given(value=text_junk | junk)
def test_fuzzed_notation(value: object) -> None:
    """parse_action, Card.parse and every action constructor: an action or a BriscaError."""
    for call in NOTATION:
        refused(call, value)


@given(rules=st.sampled_from([None, brisca.Rules(), brisca.preset("subastada-4p")]) | junk,
       seed=st.none() | junk, decks=st.none() | junk, dealer=st.none() | junk)  # fmt: skip
@examples(120)
def test_fuzzed_new_match(rules: Any, seed: Any, decks: Any, dealer: Any) -> None:
    refused(matches.new_match, rules, seed=seed, decks=decks, dealer=dealer)


@given(actions=st.lists(text_junk | junk, max_size=3) | junk, which=st.integers(0, 2))
@examples(120)
def test_fuzzed_record_game(actions: Any, which: int) -> None:
    refused(records.record_game, brisca.new_game(STATES[which].rules, seed=11), actions)


def _hand_edited(view: brisca.Observation, field: str, value: object) -> brisca.Observation:
    """`view` with `field` set to `value`; where the compiled build refuses a field of the
    wrong type at once, the view unedited (the calls below still meet the junk itself)."""
    return forge(view, **{field: value}) or view


view_fields = st.sampled_from([f.alias or f.name for f in attrs.fields(brisca.Observation)])


@examples(600)
@given(which=st.integers(0, len(VIEWS) - 1), field=view_fields, value=junk, rules=junk)
def test_fuzzed_encoding(which: int, field: str, value: object, rules: object) -> None:
    """Every encoding function meets junk arguments and hand-edited views with a BriscaError."""
    view = _hand_edited(VIEWS[which], field, value)
    refused(brisca.observation_to_dict, view)
    refused(encoding.encode_observation, view)
    for call in (encoding.encoding_size, encoding.encoding_layout, encoding.action_space):
        refused(call, rules)
    refused(encoding.action_index, value, STATES[which].rules)
    refused(encoding.action_from_index, value, STATES[which].rules)
    refused(encoding.decode_mask, value, STATES[which].rules)
    refused(encoding.legal_mask, value)


@examples(600)
@given(which=st.integers(0, len(VIEWS) - 1), field=view_fields, value=junk,
       legal=st.sampled_from([(), []]) | junk)  # fmt: skip
def test_fuzzed_bots(which: int, field: str, value: object, legal: object) -> None:
    """Bots meet no legal actions, junk and hand-edited views with a BriscaError."""
    view = _hand_edited(VIEWS[which], field, value)
    offered = brisca.legal_actions(STATES[which])
    refused(bots.HeuristicBot(), view, offered)
    for bot in (bots.HeuristicBot(), bots.RandomBot(1)):
        refused(bot, VIEWS[which], legal)
    refused(bots.RandomBot, value)
    refused(bots.play_game, value, [bots.RandomBot(1)] * 2, seed=1)
    refused(bots.play_game, "spanish-2p", value, seed=1)


@given(which=st.integers(0, len(VIEWS) - 1), field=view_fields, value=junk, rng=junk)
@examples(120)
def test_fuzzed_sampling_arguments(which: int, field: str, value: object, rng: object) -> None:
    """sample_state refuses a non-view and a non-generator with a BriscaError."""
    refused(sampling.sample_state, value, Generator(1))
    refused(sampling.sample_state, VIEWS[which], rng)


@examples(800)
@given(value=junk)
def test_fuzzed_generator(value: object) -> None:
    """brisca.game.rng.Generator refuses a bad seed, bound or sequence with a BriscaError."""
    refused(Generator, value)
    refused(Generator(1).below, value)
    refused(Generator(1).shuffle, value)


@examples(800)
@given(value=junk, which=st.integers(0, 1))
def test_fuzzed_match_functions(value: object, which: int) -> None:
    game = MATCHES[which]
    refused(matches.match_observe, game, value)
    for call in (matches.match_result, brisca.dumps_match, matches.match_legal_actions):
        refused(call, value)
    finished = MATCHES[0].hands[0]
    refused(matches.hand_value, value, finished.result, finished.tricks_won)
    refused(matches.hand_value, game.rules, value, finished.tricks_won)
    refused(matches.hand_value, game.rules, finished.result, value)


@examples(400)
@given(value=junk, which=st.integers(0, len(RECORDS) - 1))
def test_fuzzed_record_functions(value: object, which: int) -> None:
    """records.dumps, dump, load and replay refuse junk arguments with a BriscaError."""
    refused(records.dumps, RECORDS[which], indent=value)
    refused(records.dumps, value)
    refused(records.dump, RECORDS[which], value)
    refused(records.load, value)
    refused(lambda: list(records.replay(value)))  # type: ignore[arg-type]


# Messages: capped, and no hidden card of a state passed in.


@pytest.mark.parametrize(
    "call",
    [
        lambda s: bots.play_game(s, [bots.RandomBot(1)] * 4),
        lambda s: matches.new_match(s),
        lambda s: matches.new_match(brisca.Rules(), seed=s),
        lambda s: encoding.encoding_size(s),
        lambda s: encoding.decode_mask(s, brisca.Rules()),
        lambda s: encoding.action_index(s, brisca.Rules()),
        lambda s: records.record_game(brisca.new_game(seed=1), [s]),
        lambda s: records.GameRecord.from_dict({"format": "brisca-record", "version": s}),
        lambda s: Generator(s),
        lambda s: brisca.Play(s),
        lambda s: brisca.parse_action(s),
        lambda s: brisca.Rules.from_dict({"deck": s}),
        lambda s: bots.RandomBot(s),
    ],
)
@pytest.mark.parametrize("subject", [STATES[0], MATCHES[0], VIEWS[0]], ids=type)
def test_messages_name_a_game_by_its_type_only(
    call: Callable[[object], object], subject: object
) -> None:
    """A state, match or view passed where it does not belong is named by its type: the
    message is short and holds none of its hidden cards (issue 11: 5,434 characters)."""
    error = refused(call, subject)
    assert error is not None
    state = subject if isinstance(subject, brisca.State) else MATCHES[0].state
    assert state is not None
    shown = set(re.findall(r"\b\d{1,2}[OCEB]\b", str(error)))
    assert not shown & _hidden_codes(state), str(error)


def test_new_game_names_a_state_by_its_type_only() -> None:
    """new_game(state) gave a 3,146-character message with every hand."""
    refused(brisca.new_game, STATES[0])


def test_describe_caps_and_hides() -> None:
    """errors.describe quotes a capped repr and names a game's values by type alone."""
    from brisca.game.errors import QUOTE_LIMIT, describe

    assert describe("1Z") == "'1Z' (str)"
    assert len(describe("x" * 10_000)) <= QUOTE_LIMIT + len(" (str)")
    assert describe(10**5000).startswith("<int of 16610 bits>")
    assert describe(STATES[0]) == "a State"
    assert describe(MATCHES[0]) == "a Match"
    assert describe([STATES[0]]) == "[<State>] (list)"
    cyclic: list[object] = []
    cyclic.append(cyclic)
    assert describe(cyclic) == "[[[[...]]]] (list)"
