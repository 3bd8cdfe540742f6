"""Bad input to every public entry point gets a BriscaError that says what is wrong,
and leaves every state unchanged."""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest
from helpers import assert_linear, cpu_seconds
from hypothesis import given
from hypothesis import strategies as st
from strategies import any_json

import brisca
from brisca import IllegalActionError, NotationError, Play, RulesError, StateError, Swap
from brisca.game.rng import Generator

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


# Text is no wrong type: it is read as notation (tests/test_text_actions.py).
@pytest.mark.parametrize("action", [None, b"1O", 3, Play, object()])
def test_action_of_the_wrong_type(action: object) -> None:
    with pytest.raises(IllegalActionError, match="not a brisca action"):
        brisca.apply(STATE, action)  # type: ignore[arg-type]
    assert not brisca.is_legal(STATE, action)  # type: ignore[arg-type]


class _EqualToAll:
    """A stand-in for a field that claims to equal everything, and has no card's code."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


class _EqualToNothing(_EqualToAll):
    """A stand-in for a field that refuses to be compared."""

    def __eq__(self, other: object) -> bool:
        raise ValueError("no comparing")

    __hash__ = object.__hash__


def _unset(kind: type) -> object | None:
    """An action of `kind` made past its constructor, its fields unset; ``None`` for a
    compiled `Play`, a native class, whose objects only its constructor makes."""
    try:
        return object.__new__(kind)
    except TypeError:
        assert kind is brisca.Play
        return None


def _hand_built_actions() -> list[object]:
    """Actions of every type set past their constructors: a field missing, or holding a
    value of another type (one that equals everything, one that cannot be compared)."""
    actions: list[object] = []
    for kind in brisca.game.actions.ACTION_TYPES:
        fields = attrs.fields(kind)
        if not fields:
            continue
        blank = _unset(kind)
        if blank is not None:
            actions.append(blank)
        for fake in (_EqualToAll(), _EqualToNothing(), "1O", None, 1.0):
            action = _unset(kind) or brisca.Play("1O")  # then its card set over
            for field in fields:
                object.__setattr__(action, field.name, fake)
            actions.append(action)
    return actions


def _short_id(action: object) -> str:
    held = getattr(action, attrs.fields(type(action))[0].name, "unset")
    return f"{type(action).__name__}-{type(held).__name__}"


@pytest.mark.parametrize("action", _hand_built_actions(), ids=_short_id)
def test_a_hand_built_action_is_malformed_everywhere(action: object) -> None:
    """An action whose fields are missing or not what its constructor keeps (a card that
    equals every card, say) is refused as malformed by the one rule check in every
    preset that offers its type, whatever it claims to equal; error texts and the action
    index name it by its type without reading its fields."""
    from brisca.agents.encoding import action_index
    from brisca.game.actions import well_formed
    from brisca.game.errors import describe

    assert not well_formed(action)
    text = describe(action)  # its repr, capped, or, when that breaks, its type alone
    assert type(action).__name__ in text and len(text) < 100
    with pytest.raises(NotationError, match="not a brisca action"):
        action_index(action, STATE.rules)  # type: ignore[arg-type]
    for name in sorted(brisca.PRESETS):
        state = brisca.new_game(name, seed=4)
        for _ in range(12):  # into the auction or the first trick, where its type is offered
            if state.is_over:
                break
            with pytest.raises(IllegalActionError):
                brisca.apply(state, action)  # type: ignore[arg-type]
            with pytest.raises(IllegalActionError):
                brisca.step(state, action)  # type: ignore[arg-type]
            assert not brisca.is_legal(state, action)  # type: ignore[arg-type]
            state = brisca.apply(state, brisca.legal_actions(state)[0])


def test_an_offered_action_set_anew_past_its_constructor_is_malformed() -> None:
    """The actions the library hands out again (each variant's offers, the actions
    parse_action reads) are known well formed at once; one whose field has been set
    anew since, to any value of another type, is refused as any hand-built action is."""
    from brisca.game.actions import well_formed
    from brisca.game.variants import VARIANTS

    offered = [action for variant in VARIANTS for action in variant.universe]
    offered.append(brisca.parse_action("signal wink"))
    assert len(offered) > 200 and all(well_formed(action) for action in offered)
    for action in offered:
        fields = attrs.fields(type(action))
        if not fields:
            continue
        name = fields[0].name
        kept = getattr(action, name)
        try:
            for fake in (_EqualToAll(), _EqualToNothing(), None, 1.0, "1O"):
                object.__setattr__(action, name, fake)
                assert not well_formed(action), (action, fake)
            object.__delattr__(action, name)
            assert not well_formed(action), action
            assert not brisca.is_legal(STATE, action)
            with pytest.raises(IllegalActionError, match="malformed"):
                brisca.apply(STATE, action)
        finally:
            object.__setattr__(action, name, kept)  # the library's own object: put back
        assert well_formed(action)


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
    with pytest.raises(StateError, match="seat must be an int from 0 to 3"):
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


class _ForgedCard(brisca.Card):
    """A card made without `Card`'s constructor, which gives only the pack's own cards,
    whose hash and comparisons raise."""

    def __hash__(self) -> int:
        raise RuntimeError("hash")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq")


def test_a_deck_is_read_as_the_packs_own_cards_or_their_codes() -> None:
    """A deck's card is one of the pack's `Card` values (or its code), each found once
    by identity; a forged subclass instance is refused as no card, not asked to hash or
    compare; the first fault of a deck is named."""
    forged = object.__new__(_ForgedCard)
    with pytest.raises(brisca.NotationError, match="a card must be given as text"):
        brisca.new_game(RULES, deck=[forged, *PACK[1:]])
    state = brisca.new_game(RULES, deck=[c.code for c in PACK])
    assert list(state.deal.deck) == PACK
    wrong = brisca.Card.parse("8O")
    for deck, message in (
        ([wrong, PACK[0], *PACK[2:]], "deck holds 8O, which is not in this pack"),
        ([PACK[1], *PACK[1:]], f"deck holds {PACK[1]} twice"),
        ([*PACK[:5], PACK[3], *PACK[6:-1], wrong], f"deck holds {PACK[3]} twice"),
    ):
        with pytest.raises(brisca.StateError) as refused:
            brisca.new_game(RULES, deck=deck)
        assert str(refused.value) == message


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
    with pytest.raises(RulesError, match=r"brisca\.Rules or a preset name"):
        brisca.new_game(7)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="unknown preset 'poker'"):
        brisca.new_game("poker")


def test_preset_names_are_accepted_wherever_rules_are() -> None:
    """new_game, new_match and play_game all take a preset's name for its rules (issue 11)."""
    from brisca import bots

    assert brisca.new_game("arrastre-2p", seed=3) == brisca.new_game(
        brisca.preset("arrastre-2p"), seed=3
    )
    assert brisca.new_match("spanish-2p", seed=3) == brisca.new_match(
        brisca.preset("spanish-2p"), seed=3
    )
    state, _ = bots.play_game("spanish-2p", [bots.RandomBot(1), bots.RandomBot(2)], seed=3)
    assert state.rules == brisca.preset("spanish-2p")


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
        (["version"], 1, NotationError, "version 1 is not supported"),
        (["rules", "overrides", "num_players"], 9, RulesError, "num_players"),
        (["rules", "overrides", "colour"], "red", RulesError, "unknown rules option"),
        (["rules", "preset"], "poker", RulesError, "unknown preset"),
        (["dealer"], 7, StateError, "dealer"),
        (["dealer"], "3", NotationError, "dealer"),
        (["seed"], -5, NotationError, "seed"),
        (["hand_number"], -1, NotationError, "hand_number"),
        (["actions", 0], "1Z", NotationError, "cannot read"),
        (["actions", 0], 5, NotationError, "actions must be a list of strings"),
        (["actions", 3], "12E", StateError, "no game reaches this state: action 3"),
        (["actions"], "2O", NotationError, "actions"),
        (["hands"], [["1O"]], NotationError, "unknown field"),
        (["result"], None, NotationError, "unknown field"),
    ],
)
def test_tampered_json_is_refused(
    path: list[object], value: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        brisca.loads(_tamper(path, value))


def test_a_deck_that_is_not_the_pack_is_refused() -> None:
    """A saved deck order with a card twice deals no game."""
    record = _record()
    deck = [c.code for c in STATE.deal.deck]
    deck[1] = deck[0]
    del record["seed"]
    record["deck"] = deck
    with pytest.raises(StateError, match="twice"):
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
        records.record_game(brisca.new_game(RULES, seed=1), 3)  # type: ignore[arg-type]
    with pytest.raises(StateError, match="sequence of bots"):
        bots.play_game(RULES, None)  # type: ignore[arg-type]


# Notation: ASCII digits only (issue 11 §2).


@pytest.mark.parametrize(
    "text",
    [
        "bid ²",
        "bid rank ²",
        "bid \u0661\u0660",
        "bid rank ٣",
        "²O",
        "٣C",
        "\uff13C",
        "½ de oros",
        "² de oros",
        "bid " + "9" * 5000,
        "0" * 5000 + "1 de oros",
    ],
)
def test_notation_reads_ascii_digits_only(text: str) -> None:
    """'bid ²' raised ValueError from int(), and '½ de oros' read as the Rey de oros."""
    with pytest.raises(NotationError):
        brisca.parse_action(text)
    with pytest.raises(NotationError):
        brisca.Card.parse(text)


def test_foreign_digits_are_refused_wherever_notation_is_read() -> None:
    """Play(), new_game(deck=...), record_game and Rules(removed_cards=...) read notation."""
    with pytest.raises(NotationError):
        Play("²O")
    with pytest.raises(NotationError):
        brisca.new_game(RULES, deck=["²O", *PACK[1:]])
    subastada = brisca.new_game(brisca.preset("subastada-4p"), seed=1)
    from brisca import records

    with pytest.raises(NotationError):
        records.record_game(subastada, ["bid ²"])
    with pytest.raises(RulesError):
        brisca.Rules(num_players=3, removed_cards=["²B"])


@given(
    head=st.sampled_from(["", "bid ", "bid rank ", "swap ", "call ", "sing "]),
    digit=st.characters(categories=["Nd", "Nl", "No"]).filter(lambda c: not c.isascii()),
    tail=st.sampled_from(["", "O", "C", " de oros", "0"]),
)
def test_any_foreign_digit_is_a_notation_error(head: str, digit: str, tail: str) -> None:
    for read in (brisca.parse_action, brisca.Card.parse):
        with pytest.raises(NotationError):
            read(head + digit + tail)


# JSON depth and encoding (issue 11 §2).


def _deep_rules_text(depth: int) -> str:
    """A match record whose rules.team_mode is nested `depth` deep."""
    from strategies import nested_json

    text = brisca.dumps(brisca.new_match(RULES, seed=1))
    return text.replace('"team_mode": "individual"', '"team_mode": ' + nested_json("x", depth))


def _at_stack_depth(frames_left: int, call: object) -> object:
    """Run `call` with only about `frames_left` frames left before the recursion limit."""
    import inspect
    import sys

    used = len(inspect.stack(0))

    def down(n: int) -> object:
        return call() if n <= 0 else down(n - 1)  # type: ignore[operator]

    return down(sys.getrecursionlimit() - used - frames_left)


@pytest.mark.parametrize("depth", [65, 1000, 100_000])
def test_deep_json_is_refused_early(depth: int) -> None:
    """JSON nested 1,000 deep raised RecursionError; now a NotationError, even when the
    caller has used most of its stack."""
    from brisca import jsonio, records
    from brisca.formats.saves import loads_match

    text = _deep_rules_text(depth)
    record = json.loads(records.dumps(records.record_game(brisca.new_game(seed=1), [])))
    record["tags"] = {"k": "v"}
    record_text = json.dumps(record).replace('{"k": "v"}', _deep_rules_text(depth))
    for call in (loads_match, jsonio.parse, records.loads):
        with pytest.raises(NotationError, match="nested"):
            _at_stack_depth(40, lambda call=call: call(text))  # type: ignore[misc]
    with pytest.raises(NotationError, match="nested"):
        records.loads(record_text)
    problem = _at_stack_depth(40, lambda: records.validate(record_text))
    assert problem is not None and "nested" in problem.reason  # type: ignore[attr-defined]
    with pytest.raises(brisca.BriscaError):
        brisca.loads(text)


def test_depth_ignores_brackets_in_strings() -> None:
    from brisca import jsonio

    assert jsonio.depth('{"a": ["[[[[", "\\"]]]"]}') == 2
    assert jsonio.parse(json.dumps({"tag": "[" * 1000})) == {"tag": "[" * 1000}


@pytest.mark.parametrize(
    "raw",
    [
        b"\xff\xfe{}",
        b"\xff",
        "\ufeff{}".encode(),
        '{"a": 1}'.encode("utf-16"),
        "\ufeff{}",
        '{"a": NaN}',
        '{"a": -Infinity}',
        5,
        None,
    ],
)
def test_json_text_must_be_plain_utf8(raw: object) -> None:
    from brisca import jsonio, records
    from brisca.formats.saves import loads_match

    for call in (jsonio.parse, loads_match, records.loads):
        with pytest.raises(NotationError):
            call(raw)  # type: ignore[arg-type]
    assert records.validate(raw) is not None  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "options",
    [
        {"team_mode": [[[[]]]]},
        {"team_mode": {"a": 1}},
        {"removed_cards": [["2B"]]},
        {"num_players": 10**5000},
        {"deck": "x" * 10_000},
        {"team_mode": [1] * 1000},
    ],
)
def test_junk_rules_options_are_refused_shortly(options: dict[str, object]) -> None:
    with pytest.raises(RulesError) as caught:
        brisca.Rules.from_dict(options)
    assert len(str(caught.value)) <= 200


# Encoding, bots and the generator check their arguments (issue 11 §2).


def test_encoding_and_bots_refuse_wrong_arguments() -> None:
    from brisca import bots, encoding
    from brisca.game.rng import Generator

    view = brisca.observe(STATE, 0)
    with pytest.raises(NotationError, match="mask"):
        encoding.decode_mask(None, RULES)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match=r"mask\[0\]"):
        encoding.decode_mask(["yes"] * 40, RULES)  # type: ignore[list-item]
    with pytest.raises(RulesError, match="Rules"):
        encoding.encoding_size({})  # type: ignore[arg-type]
    # The compiled build refuses the view as it is built, saying what it cannot hold.
    with pytest.raises(StateError, match=r"inconsistent|cannot hold"):
        brisca.observation_to_dict(attrs.evolve(view, hand=[[[]]], tricks=5))  # type: ignore[arg-type]
    chooser = bots.RandomBot(1).choose
    for ask in (bots.HeuristicBot(), bots.RandomBot(1), lambda _, legal: chooser(legal)):
        for empty in ([], ()):
            with pytest.raises(StateError, match="at least one legal action"):
                ask(view, empty)
        for junk in (None, "ab", b"ab", {brisca.Pass()}):
            with pytest.raises(StateError, match="sequence of actions"):
                ask(view, junk)  # type: ignore[arg-type]
    with pytest.raises(StateError, match="Observation"):
        bots.HeuristicBot()(None, brisca.legal_actions(STATE))  # type: ignore[arg-type]
    # The compiled build refuses the view as it is built, saying what it cannot hold.
    with pytest.raises(StateError, match=r"observe|cannot hold"):
        bots.HeuristicBot()(attrs.evolve(view, trick=5), brisca.legal_actions(STATE))  # type: ignore[arg-type]
    for bad in (None, -1, "7", 1.5):
        with pytest.raises(StateError):
            Generator(bad)  # type: ignore[arg-type]
    with pytest.raises(StateError):
        Generator(1).below(0)
    with pytest.raises(StateError):
        Generator(1).shuffle(None)  # type: ignore[arg-type]


def test_decode_mask_still_takes_ints_and_bools() -> None:
    from brisca import encoding

    mask = encoding.legal_mask(STATE)
    decoded = encoding.decode_mask([int(on) for on in mask], STATE.rules)
    assert set(decoded) == set(brisca.legal_actions(STATE)) and len(decoded) == sum(mask)


class _Unequal:
    """An entry whose comparison raises, as a hostile or broken value's may."""

    def __eq__(self, other: object) -> bool:
        raise ValueError("no comparing me")

    __hash__ = object.__hash__


def test_decode_mask_reads_no_more_than_the_action_space_and_refuses_what_it_cannot_read() -> None:
    """A mask is read one entry past the action space's length at most, so endless and
    huge iterables are refused at once as too long; what cannot be iterated, or holds
    entries that cannot be compared, is a NotationError, not a bare Python error."""
    import itertools

    import numpy as np

    from brisca import encoding

    size = len(encoding.action_space(RULES))
    for endless in (itertools.count(), itertools.repeat(True), range(10**18), iter([1] * 10**6)):
        with pytest.raises(NotationError, match="not more"):
            encoding.decode_mask((on % 2 == 1 for on in endless), RULES)  # type: ignore[operator]
    with pytest.raises(NotationError, match="not more"):
        encoding.decode_mask(itertools.repeat(True), RULES)
    for unreadable in (np.array(1), np.array(True)):
        with pytest.raises(NotationError, match="sequence of booleans"):
            encoding.decode_mask(unreadable, RULES)
    with pytest.raises(NotationError, match=r"mask\[3\]"):
        encoding.decode_mask([False] * 3 + [_Unequal()] * (size - 3), RULES)  # type: ignore[list-item]
    assert encoding.decode_mask(itertools.repeat(False, size), RULES) == ()


class _Truthless:
    """An entry equal to everything whose truth cannot be told."""

    def __eq__(self, other: object) -> bool:
        return True

    def __bool__(self) -> bool:
        raise TypeError("no truth here")

    __hash__ = object.__hash__


def test_a_mask_entry_is_a_bool_or_0_or_1_and_nothing_that_merely_compares_so() -> None:
    """Entries are bools, or 0 and 1 as ints, floats or numpy scalars (numpy's masks);
    an entry that compares equal to anything, 0.5, 2, a complex or a 1-entry array is
    refused with a NotationError, where one had let its bare TypeError out."""
    import numpy as np

    from brisca import encoding

    mask = encoding.legal_mask(STATE)
    legal = encoding.decode_mask(mask, STATE.rules)
    for same in (
        np.array(mask),
        np.array(mask, dtype=np.int8),
        np.array(mask, dtype=np.float32),
        [float(on) for on in mask],
        [np.uint8(on) for on in mask],
    ):
        assert encoding.decode_mask(same, STATE.rules) == legal  # type: ignore[arg-type]

    class Scalar:  # a 0-d tensor of another array library, as torch's is
        ndim = 0

        def __init__(self, value: object) -> None:
            self.value = value

        def item(self) -> object:
            return self.value

    assert encoding.decode_mask([Scalar(int(on)) for on in mask], STATE.rules) == legal
    for junk in (
        _Truthless(),
        0.5,
        2,
        1 + 0j,
        np.array([1]),
        np.int64(2),
        float("nan"),
        Scalar("1"),
    ):
        with pytest.raises(NotationError, match=r"mask\[0\]"):
            encoding.decode_mask([junk, *mask[1:]], STATE.rules)  # type: ignore[list-item]


# Matches load in linear time (issue 11 §3).


def _void_hands_record(hands: int) -> str:
    """A subastada match record of `hands` void hands: every seat passes."""
    from brisca.formats.saves import dumps_match
    from brisca.game.match import match_apply, new_match

    game = new_match(brisca.preset("subastada-4p"), seed=3)
    while len(game.hands) < hands:
        game = match_apply(game, brisca.Pass())
    return dumps_match(game)


def test_loading_a_match_costs_linear_time() -> None:
    """2,000 void hands took 2.4 s against 0.7 s for 1,000: the seed stream was re-read
    for every deal. Twice the hands must cost about twice as much."""
    from brisca.formats.saves import loads_match

    small, large = _void_hands_record(1000), _void_hands_record(2000)
    assert loads_match(large).hand_number == 2000
    assert_linear(
        lambda: cpu_seconds(lambda: loads_match(small), 3),
        lambda: cpu_seconds(lambda: loads_match(large), 3),
    )


def test_records_past_the_deal_limit_are_refused_before_replay() -> None:
    from brisca.formats.saves import MAX_DEALS, loads_match

    record = json.loads(_void_hands_record(2))
    record["actions"] = [[]] * (MAX_DEALS + 1)
    with pytest.raises(NotationError, match="MAX_DEALS"):
        loads_match(json.dumps(record))


def test_a_stale_seed_stream_is_not_trusted() -> None:
    """The match carries its seed stream forward as a cache; a match evolved to another
    seed still deals from the documented stream of that seed."""
    from brisca.game.match import match_apply, new_match
    from brisca.game.rng import Generator

    game = attrs.evolve(new_match(RULES, seed=1, dealer=0), seed=8)
    number = game.hand_number
    while game.hand_number == number:
        game = match_apply(game, brisca.legal_actions(game)[0])
    gen = Generator(8)
    gen.below(2**128)
    assert game.state == brisca.new_game(
        RULES, seed=gen.below(2**128), dealer=game.dealer, hand_number=1
    )


def test_an_endless_deck_is_refused_after_one_card_past_the_pack() -> None:
    """`new_game(deck=...)` reads at most one card more than the pack holds, so an
    endless iterable is refused instead of read for ever."""
    import itertools

    with pytest.raises(StateError, match="more than 40 cards"):
        brisca.new_game("spanish-2p", deck=itertools.repeat("1O"))
    with pytest.raises(StateError, match="deck has 39 cards"):
        brisca.new_game("spanish-2p", deck=list(brisca.preset("spanish-2p").cards)[:39])


class _FailingSequence:
    """An iterable whose iteration fails part-way, raising `error` after one card."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def __iter__(self) -> Iterator[str]:
        yield "1O"
        raise self.error


class _NoIterator:
    def __iter__(self) -> Any:
        return 5  # iter() raises TypeError


#: Each reader of a sequence of cards, and the error it refuses with.
CARD_SEQUENCES: dict[str, tuple[Callable[[object], object], type[brisca.BriscaError]]] = {
    "new_game deck": (lambda v: brisca.new_game("spanish-2p", deck=v), StateError),
    "new_match decks": (lambda v: brisca.match.new_match("spanish-2p", decks=v), StateError),
    "new_match a deck": (lambda v: brisca.match.new_match("spanish-2p", decks=[v]), StateError),
    "shuffle": (lambda v: Generator(1).shuffle(v), StateError),
    "removed_cards": (lambda v: brisca.Rules(removed_cards=v), RulesError),
}


@pytest.mark.parametrize("name", sorted(CARD_SEQUENCES))
@pytest.mark.parametrize(
    "sequence",
    [
        _FailingSequence(IndexError("gone")),
        _FailingSequence(ValueError("bad")),
        _FailingSequence(KeyError("x")),
        _FailingSequence(TypeError("odd")),
        _FailingSequence(RuntimeError("generator raised StopIteration")),
        _FailingSequence(OSError("the source went away")),
        _NoIterator(),
    ],
    ids=["IndexError", "ValueError", "KeyError", "TypeError", "RuntimeError", "OSError", "none"],
)
def test_a_sequence_whose_iteration_fails_is_refused_as_unreadable(
    name: str, sequence: object
) -> None:
    """Decks, shuffled items and removed cards are read through `read_at_most`: an
    iterable that raises as it is read, or gives no iterator, let its bare error out."""
    call, error = CARD_SEQUENCES[name]
    with pytest.raises(
        error,
        match=r"cannot be read \((IndexError|ValueError|KeyError|TypeError|RuntimeError|OSError)\)",
    ):
        call(sequence)


class _UnreadableList(list[int]):
    def __len__(self) -> int:
        raise KeyError("no length")

    def __getitem__(self, index: object) -> Any:
        raise IndexError("no items")

    def __iter__(self) -> Iterator[int]:
        raise ValueError("no iterating")


class _UnreadableTuple(tuple[int, ...]):
    def __len__(self) -> int:
        raise KeyError("no length")

    def __getitem__(self, index: object) -> Any:
        raise IndexError("no items")


@pytest.mark.parametrize("kind", [_UnreadableList, _UnreadableTuple])
def test_chiamata_scores_are_read_as_the_list_or_tuple_they_hold(kind: type) -> None:
    """A list or tuple subclass whose own len, items or iteration raise let KeyError or
    IndexError out of Rules; its scores are read by the built-in type's own methods."""
    chiamata = brisca.preset("chiamata-5p")
    rules = attrs.evolve(chiamata, chiamata_scores=kind((3, 2, 1, 6)))
    assert rules.chiamata_scores == (3, 2, 1, 6)
    assert type(rules.chiamata_scores) is tuple
    with pytest.raises(RulesError, match="chiamata_scores must be four ints"):
        attrs.evolve(chiamata, chiamata_scores=kind((3, 2, 1)))


# Text given as a str subclass (numpy's, or one whose own methods raise) is read as the
# plain text it holds, at every reader of text.


class _HostileText(str):
    """A str whose own hash, == and methods raise, as a hostile subclass's may."""

    def __hash__(self) -> int:
        raise ValueError("no hashing me")

    def __eq__(self, other: object) -> bool:
        raise IndexError("no comparing me")

    def strip(self, chars: str | None = None) -> str:
        raise KeyError("no stripping me")

    def upper(self) -> str:
        raise AttributeError("no upper case")


class _HostileKey(str):
    """A str that hashes as its text, so it can be a key, but whose == raises."""

    __hash__ = str.__hash__

    def __eq__(self, other: object) -> bool:
        raise IndexError("no comparing me")


def _readers_of_text() -> dict[str, tuple[str, Any]]:
    """Each reader of text, by name: the plain text it reads, and how to read it."""
    from brisca.server.tables import new_table

    state = brisca.new_game(brisca.preset("spanish-2p"), seed=7)
    match = brisca.new_match(brisca.preset("spanish-2p"), seed=7)
    records_text = brisca.records.dumps(brisca.records.record_game(brisca.apply(state, "2O")))
    table = new_table("spanish-2p", ["human", "heuristic"], seed=1)
    return {
        "preset": ("spanish-2p", brisca.preset),
        "new_game": ("spanish-2p", lambda t: brisca.new_game(t, seed=1)),
        "new_match": ("spanish-2p", lambda t: brisca.new_match(t, seed=1)),
        "rules_from_dict": ("spanish-2p", lambda t: brisca.rules_from_dict({"preset": t})),
        "rules_to_dict": (
            "spanish-2p",
            lambda t: brisca.rules_to_dict(brisca.preset("spanish-2p"), t),
        ),
        "Rules(deck=)": ("spanish48", lambda t: brisca.Rules(deck=t)),
        "Card.parse": ("2O", brisca.Card.parse),
        "parse_action": ("2O", brisca.parse_action),
        "apply": ("2O", lambda t: brisca.apply(state, t)),
        "step": ("2O", lambda t: brisca.step(state, t)),
        "is_legal": ("2O", lambda t: brisca.is_legal(state, t)),
        "refusal": ("2O", lambda t: brisca.refusal(state, t)),
        "Suit": ("E", brisca.Suit),
        "loads": (brisca.dumps(state), brisca.loads),
        "records.loads": (records_text, brisca.records.loads),
        "loads_match": (brisca.dumps_match(match), brisca.loads_match),
        "rules_from_dict keys": ("preset", lambda t: brisca.rules_from_dict({t: "spanish-2p"})),
        "option keys": (
            "tie_rule",
            lambda t: brisca.rules_from_dict({"preset": "spanish-2p", "overrides": {t: "draw"}}),
        ),
        "seat_of": (table.seats[0].token, table.seat_of),
    }


@pytest.mark.parametrize("reader", list(_readers_of_text()))
@pytest.mark.parametrize("kind", ["numpy", "hostile"])
def test_text_of_a_str_subclass_reads_as_its_plain_text(reader: str, kind: str) -> None:
    """A numpy string, and a str subclass whose hash, ==, strip and upper raise, give what
    the same plain text gives: the engine had refused numpy's notation as no action,
    and the hostile one's errors had come out bare from preset and Rules."""
    import numpy as np

    plain, read = _readers_of_text()[reader]
    hostile = _HostileKey if reader.endswith("keys") else _HostileText  # a key must hash
    given = np.str_(plain) if kind == "numpy" else hostile(plain)
    assert read(given) == read(plain)


def test_signals_hold_plain_text_and_cards_exact_ranks() -> None:
    """A Signal keeps the plain text of its name; a Card's rank must be an int, not True
    or 1.0, which hash as 1; preset_name takes only Rules."""
    from brisca.game.actions import Signal

    assert type(Signal(_HostileText("wink")).name) is str
    assert Signal(_HostileText("wink")) == Signal("wink")
    for rank in (True, 1.0, 3 + 0j):
        with pytest.raises(NotationError, match="rank must be an int"):
            brisca.Card(rank, brisca.Suit.OROS)  # type: ignore[arg-type]
    import numpy as np

    assert brisca.Card(np.int64(11), brisca.Suit.COPAS) is brisca.Card.parse("11C")  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="rank must be an int"):
        brisca.Card(np.bool_(True), brisca.Suit.OROS)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="Rules"):
        brisca.preset_name("spanish-2p")  # type: ignore[arg-type]
    import numpy as np

    assert (
        brisca.Rules(removed_cards=np.array(["2B", "2O"])).removed_cards
        == brisca.Rules(removed_cards=["2B", "2O"]).removed_cards
    )


def test_a_record_holds_the_plain_text_of_what_it_is_given() -> None:
    """Every text a GameRecord keeps (actions, players, date, event, tags, preset) is
    plain text: a str subclass's own ==, hash or repr never run on the record."""
    rules = brisca.preset("spanish-2p")
    plain = brisca.records.GameRecord(
        rules,
        1,
        ["2O"],
        seed=7,
        preset="spanish-2p",
        players=["Ana", "Luis"],
        date="2026",
        event="club",
        tags={"site": "Sevilla"},
    )
    odd = brisca.records.GameRecord(
        rules,
        1,
        [_HostileText("2O")],
        seed=7,
        preset=_HostileText("spanish-2p"),
        players=[_HostileText("Ana"), _HostileText("Luis")],
        date=_HostileText("2026"),
        event=_HostileText("club"),
        tags=[(_HostileText("site"), _HostileText("Sevilla"))],
    )
    assert odd == plain and hash(odd) == hash(plain) and repr(odd) == repr(plain)
    assert brisca.records.dumps(odd) == brisca.records.dumps(plain)


def test_keys_that_repeat_as_plain_text_are_refused_as_the_json_reader_refuses_them() -> None:
    """A caller's dict with a str subclass's key and a plain key of the same text (two keys
    to Python, one to JSON) is refused, not read with one of them dropped."""

    class Other(str):
        def __hash__(self) -> int:
            return 7

        def __eq__(self, other: object) -> bool:
            return other is self

    data = {"preset": "spanish-2p", Other("preset"): "arrastre-2p"}
    assert len(data) == 2
    with pytest.raises(NotationError, match="twice"):
        brisca.rules_from_dict(data)


def test_what_only_claims_to_be_text_is_refused_with_a_brisca_error() -> None:
    """A mock with the spec of str (or of an enum) passes isinstance by its __class__
    alone: every reader of text, and every enum, refuses it as what it is, where some let
    str.__str__'s bare TypeError out and Suit handed the mock back as a suit."""
    from unittest import mock

    from brisca.game.jsonio import parse
    from brisca.game.rules import DeckKind

    fake, fake_suit = mock.Mock(spec=str), mock.Mock(spec=brisca.Suit)
    readers = [
        lambda: brisca.Suit(fake),
        lambda: brisca.Suit(fake_suit),
        lambda: brisca.Rules(deck=mock.Mock(spec=DeckKind)),
        lambda: brisca.Rules(deck=fake),
        lambda: brisca.rules_from_dict({fake: 1}),
        lambda: brisca.loads(fake),
        lambda: brisca.loads_match(fake),
        lambda: brisca.records.loads(fake),
        lambda: parse(mock.Mock(spec=bytes)),
        lambda: brisca.preset(fake),
        lambda: brisca.Card.parse(fake),
        lambda: brisca.parse_action(fake),
    ]
    for read in readers:
        with pytest.raises(brisca.BriscaError):
            read()


def test_a_callers_own_mapping_or_bytes_is_read_by_its_content_not_its_methods() -> None:
    """A dict subclass is read as a plain dict (its keys made plain text, a key twice
    refused), bytes through their buffer (not a subclass's len or __bytes__), a suit's
    letter by its plain text (not its __str__), and a record's tags refuse a name twice."""
    import collections

    from brisca.game.actions import NameTrump
    from brisca.game.jsonio import parse

    class Odd(str):
        def __hash__(self) -> int:
            return 7

        def __eq__(self, other: object) -> bool:
            return other is self

    class Lying(bytes):
        def __bytes__(self) -> bytes:
            return b'{"b": 1}'

        def __len__(self) -> int:
            raise TypeError("no length")

    class Letter(str):
        def __str__(self) -> str:
            return "C"

    assert brisca.rules_from_dict(collections.OrderedDict(preset="arrastre-2p")) == brisca.preset(
        "arrastre-2p"
    )
    twice = collections.OrderedDict([("preset", "spanish-2p"), (Odd("preset"), "arrastre-2p")])
    with pytest.raises(NotationError, match="twice"):
        brisca.rules_from_dict(twice)
    assert parse(Lying(b'{"a": 1}')) == {"a": 1}
    assert NameTrump(Letter("O")).suit is brisca.Suit.OROS
    with pytest.raises(NotationError, match="twice"):
        brisca.records.GameRecord(
            brisca.preset("spanish-2p"), 1, [], seed=1, tags={"a": "1", Odd("a"): "2"}
        )


def test_rules_and_game_parameters_read_a_callers_keys_as_plain_text() -> None:
    """Rules.from_dict and OpenSpiel's game read the keys of a caller's mapping as plain
    text, with the errors they document: a key whose own == raises had come out bare."""
    pytest.importorskip("pyspiel")
    from brisca.envs.openspiel import BriscaGame

    options = brisca.preset("arrastre-2p").to_dict()
    hostile = {_HostileKey(k): v for k, v in options.items()}
    assert brisca.Rules.from_dict(hostile) == brisca.preset("arrastre-2p")
    assert BriscaGame({_HostileKey("preset"): "arrastre-2p"}).rules == brisca.preset("arrastre-2p")

    class Odd(str):
        def __hash__(self) -> int:
            return 7

        def __eq__(self, other: object) -> bool:
            return other is self

    with pytest.raises(RulesError, match="twice"):
        brisca.Rules.from_dict({**options, Odd("deck"): "spanish48"})
    with pytest.raises(StateError, match="twice"):
        BriscaGame({"preset": "spanish-2p", Odd("preset"): "arrastre-2p"})
