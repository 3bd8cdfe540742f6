"""Records and the JSON reader against hostile input: every entry point of
``brisca.records`` and ``brisca.game.jsonio`` answers a huge int, a value whose own
methods raise, a str subclass, an iterable that fails or never ends with a
`BriscaError` that says what is wrong, never a bare Python error or an endless loop."""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

import brisca
from brisca import records
from brisca.formats.records import GameRecord, RecordedResult
from brisca.game import jsonio
from brisca.game.errors import describe
from brisca.game.match import MAX_DEAL_ACTIONS

RULES = brisca.preset("spanish-2p")
HUGE = 10**5000  # more digits than Python will print


class Overread(Exception):
    """A tripwire's: raised when an iterable is read past every budget of the library,
    and caught by none of its handlers."""


class RaisingStr:
    """A value whose text cannot be asked for."""

    def __str__(self) -> str:
        raise ValueError("str")

    __repr__ = __str__


class RaisingEq:
    """A value that cannot be compared: a tuple's ``in`` or a dict's lookup raises."""

    def __eq__(self, other: object) -> bool:
        raise TypeError("==")

    __ne__ = __eq__

    def __hash__(self) -> int:
        return 0


class RaisingHash:
    """A value hashed once, to go into a dict; any later hash raises."""

    def __init__(self) -> None:
        self.hashed = False

    def __hash__(self) -> int:
        if self.hashed:
            raise TypeError("hash")
        self.hashed = True
        return 7


class HostileStr(str):
    """Text whose own methods all raise: only str's own may read it. It hashes once
    (into a dict, say), as `RaisingHash` does."""

    def _refuse(self, *args: object, **kwargs: object) -> Any:
        raise KeyError("a str subclass's own method ran")

    __eq__ = __ne__ = __lt__ = __str__ = __repr__ = __len__ = __iter__ = _refuse
    __getitem__ = __contains__ = __format__ = strip = upper = lower = encode = _refuse
    startswith = split = _refuse

    def __hash__(self) -> int:
        if getattr(self, "hashed", False):
            raise TypeError("hash")
        self.hashed = True
        return str.__hash__(self)


class HostileInt(int):
    """An int whose comparisons raise."""

    def _refuse(self, *args: object) -> Any:
        raise IndexError("an int subclass's own method ran")

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __index__ = _refuse
    __hash__ = int.__hash__


class HostileList(list[Any]):
    """A list whose own ``__iter__`` gives an int and whose ``__len__`` raises."""

    def __iter__(self) -> Any:
        return 5

    def __len__(self) -> int:
        raise IndexError("len")

    def __bool__(self) -> bool:
        raise IndexError("bool")


class HostileTuple(tuple[Any, ...]):
    """`HostileList`'s tuple."""

    def __iter__(self) -> Any:
        return 5

    def __len__(self) -> int:
        raise IndexError("len")


class IterInt:
    """An iterable whose ``__iter__`` gives an int, no iterator."""

    def __iter__(self) -> Any:
        return 5


def failing(first: object, error: Exception) -> Iterator[object]:
    """A generator that gives `first`, then raises `error`."""
    yield first
    raise error


def tripwire(item: Callable[[int], object], most: int = 10_000) -> Iterator[object]:
    """An endless iterable, as far as any reader should go: it gives ``item(k)`` for
    ever, but raises `Overread` past `most` items, far past every budget."""
    for k in itertools.count():
        if k > most:
            raise Overread(f"read {k} items")
        yield item(k)


class EndlessMapping(Mapping[str, int]):
    """A mapping whose keys never end (a tripwire past 10,000) and whose len lies."""

    def __getitem__(self, key: str) -> int:
        return 1

    def __iter__(self) -> Iterator[str]:
        return tripwire(lambda k: f"k{k}")  # type: ignore[return-value]

    def __len__(self) -> int:
        return 1


def start() -> brisca.State:
    return brisca.new_game(RULES, seed=1)


def record_data(**changes: object) -> dict[Any, Any]:
    """The JSON data of a finished record, with `changes`."""
    state = start()
    while not state.is_over:
        state = brisca.apply(state, brisca.legal_actions(state)[0])
    data = records.record_game(state, players=["Ana", "Luis"], event="club").to_dict()
    return {**data, **changes}


def raises(error: type[brisca.BriscaError], words: str, call: Callable[[], object]) -> str:
    """The message of the `error` (that very type) `call` raises, which holds `words`."""
    with pytest.raises(brisca.BriscaError) as info:
        call()
    assert type(info.value) is error, repr(info.value)
    message = str(info.value)
    assert re.search(words, message), message
    return message


# -- A value is never turned into text, compared or hashed by its own methods --------

SCALARS = {
    "huge int": lambda: HUGE,
    "raising __str__": RaisingStr,
    "raising __eq__": RaisingEq,
    "raising __hash__": RaisingHash,
}

# Each slot of a record that takes text, with the error and words its refusal gives.
TEXT_SLOTS: dict[str, tuple[Callable[[object], object], type[brisca.BriscaError], str]] = {
    "GameRecord actions": (
        lambda v: GameRecord(RULES, 0, (v,), seed=1),
        brisca.NotationError,
        "an action must be text or a brisca action, got ",
    ),
    "record_game actions": (
        lambda v: records.record_game(start(), [v]),
        brisca.NotationError,
        "action 0 is no action: ",
    ),
    "GameRecord players": (
        lambda v: GameRecord(RULES, 0, (), seed=1, players=(v, "Luis")),
        brisca.NotationError,
        "players' names must be strings",
    ),
    "GameRecord deck": (
        lambda v: GameRecord(RULES, 0, (), deck=(v,)),
        brisca.NotationError,
        "a card must be given as text, got ",
    ),
    "GameRecord tags": (
        lambda v: GameRecord(RULES, 0, (), seed=1, tags={"site": v}),
        brisca.NotationError,
        "tags must map names to strings",
    ),
    "GameRecord date": (
        lambda v: GameRecord(RULES, 0, (), seed=1, date=v),
        brisca.NotationError,
        "date must be text, got ",
    ),
    "GameRecord preset": (
        lambda v: GameRecord(RULES, 0, (), seed=1, preset=v),
        brisca.RulesError,
        "unknown preset ",
    ),
    "RecordedResult points": (
        lambda v: RecordedResult((v, 0), 0),
        brisca.NotationError,
        "result points must be ints from 0 to 1000",
    ),
    "from_dict version": (
        lambda v: GameRecord.from_dict(record_data(version=v)),
        brisca.NotationError,
        "^(record.version must be int, got|brisca-record version) ",
    ),
}


@pytest.mark.parametrize("shape", SCALARS)
@pytest.mark.parametrize("slot", TEXT_SLOTS)
def test_a_value_that_is_no_text_is_refused_without_running_its_own_methods(
    slot: str, shape: str
) -> None:
    """A huge int (past Python's int-to-text limit) or a value whose str, == or hash
    raises, where a record takes text, is refused with the slot's own error: the
    constructor had asked for ``str(value)`` of an action and let the ValueError out."""
    build, error, words = TEXT_SLOTS[slot]
    value = SCALARS[shape]()
    message = raises(error, words, lambda: build(value))
    if slot != "GameRecord tags":  # quoted whole, the tag's value elided
        assert type(value).__name__ in message or "int of 16610 bits" in message, message


def test_a_version_of_an_int_subclass_is_refused_without_comparing_it() -> None:
    """A version whose == and != raise is no version: a caller's int subclass had its
    own != run on it, and let an IndexError out."""
    raises(
        brisca.NotationError,
        "version a HostileInt is not supported",
        lambda: GameRecord.from_dict(record_data(version=HostileInt(1))),
    )


# -- Text of a str subclass is read as plain text, its own methods never run ---------


def test_a_str_subclass_is_read_as_plain_text_by_every_entry_point() -> None:
    """Keys and values of a str subclass are read as the plain text they hold, by str's
    own methods: a record's format and the rules' keys had been compared by their own
    == and hashed by their own hash."""
    data = record_data()
    record = GameRecord.from_dict(data)
    plain = {
        **data,
        "rules": {HostileStr("preset"): HostileStr("spanish-2p"), "overrides": {}},
        "actions": [HostileStr(a) for a in data["actions"]],
        "players": [HostileStr(p) for p in data["players"]],
    }
    hostile = {HostileStr(k): HostileStr(v) if type(v) is str else v for k, v in plain.items()}
    assert GameRecord.from_dict(hostile) == record
    assert records.validate(hostile) is None
    assert brisca.rules_from_dict({HostileStr("preset"): HostileStr("spanish-2p")}) == RULES
    assert records.read_record_rules({HostileStr("preset"): "spanish-2p", "overrides": {}}) == (
        RULES,
        "spanish-2p",
    )
    texts = [HostileStr(a) for a in record.actions]
    built = GameRecord(
        RULES,
        record.dealer,
        texts,
        seed=1,
        players=[HostileStr("Ana"), HostileStr("Luis")],
        event=HostileStr("club"),
        tags={HostileStr("site"): HostileStr("Sevilla")},
    )
    assert built.actions == record.actions and all(type(a) is str for a in built.actions)
    assert built.tags == (("site", "Sevilla"),) and type(built.tags[0][0]) is str
    assert records.record_game(start(), texts).actions == record.actions
    assert records.replay_from(start(), texts) == records.final_state(record)
    assert records.final_state(HostileStr(records.dumps(record))) == records.final_state(record)
    assert records.loads(HostileStr(records.dumps(record))) == record


# -- A key that is no text is refused before any of its methods runs -----------------

KEYS = {**SCALARS, "raising __eq__ str subclass": lambda: HostileStr("junk")}

# Each reader of a JSON object, given a key, with the name its message gives the object.
KEYED: dict[str, tuple[Callable[[dict[Any, Any]], object], str]] = {
    "rules_from_dict": (
        lambda extra: brisca.rules_from_dict({"preset": "spanish-2p", **extra}),
        "rules",
    ),
    "read_record_rules": (
        lambda extra: records.read_record_rules({"preset": "spanish-2p", **extra}),
        "rules",
    ),
    "from_dict": (lambda extra: GameRecord.from_dict(record_data() | extra), "record"),
    "from_dict rules": (
        lambda extra: GameRecord.from_dict(record_data(rules={"preset": "spanish-2p", **extra})),
        "rules",
    ),
    "from_dict result": (
        lambda extra: GameRecord.from_dict(record_data(result={"winner": 0, **extra})),
        "result",
    ),
    "Fields": (lambda extra: jsonio.Fields({"a": 1, **extra}, "thing").only(("a",)), "thing"),
}


@pytest.mark.parametrize("shape", KEYS)
@pytest.mark.parametrize("reader", KEYED)
def test_a_key_that_is_no_text_is_refused_before_any_of_its_methods_runs(
    reader: str, shape: str
) -> None:
    """A JSON object's key must be text: a huge int, or a key whose str, == or hash
    raises, is refused by its type and quoted through `describe`. ``rules_from_dict``
    and ``GameRecord.from_dict`` had turned it to text and compared it, letting a
    ValueError, KeyError or TypeError out. A str subclass's is read as plain text, and
    refused as an unknown field like any other."""
    read, where = KEYED[reader]
    key = KEYS[shape]()
    if isinstance(key, str):
        raises(
            brisca.NotationError,
            f"{where} has unknown field\\(s\\): 'junk'",
            lambda: read({key: 1}),
        )
    else:
        shown = re.escape(describe(key, 20))
        raises(
            brisca.NotationError,
            f"^{where} has a key that is no text: {shown}$",
            lambda: read({key: 1}),
        )


@pytest.mark.parametrize("shape", SCALARS)
def test_validate_reports_a_key_that_is_no_text_as_a_malformed_record(shape: str) -> None:
    """`validate` never raises: a key that is no text is a malformed record."""
    problem = records.validate({**record_data(), SCALARS[shape](): 1})
    assert problem is not None and problem.kind == "malformed record"
    assert problem.reason.startswith("record has a key that is no text: "), problem.reason


# -- An iterable whose iteration fails is refused as one that cannot be read ---------

FAILING = {
    "__iter__ gives an int": lambda first: IterInt(),
    "generator raising ValueError": lambda first: failing(first, ValueError("mid-way")),
    "generator raising IndexError": lambda first: failing(first, IndexError("mid-way")),
}

# Each iterable a record reads, with a good first item and the name its error gives.
ITERABLES: dict[str, tuple[Callable[[object], object], object, str]] = {
    "GameRecord actions": (lambda it: GameRecord(RULES, 0, it, seed=1), "2O", "actions"),
    "GameRecord deck": (lambda it: GameRecord(RULES, 0, (), deck=it), "1O", "deck"),
    "GameRecord players": (
        lambda it: GameRecord(RULES, 0, (), seed=1, players=it),
        "Ana",
        "players",
    ),
    "GameRecord tags": (lambda it: GameRecord(RULES, 0, (), seed=1, tags=it), ("a", "b"), "tags"),
    "RecordedResult points": (lambda it: RecordedResult(it, None), 60, "result points"),
    "record_game actions": (lambda it: records.record_game(start(), it), "2O", "actions"),
}


@pytest.mark.parametrize("shape", FAILING)
@pytest.mark.parametrize("reader", ITERABLES)
def test_an_iterable_whose_iteration_fails_is_refused_as_unreadable(
    reader: str, shape: str
) -> None:
    """An ``__iter__`` that gives no iterator, or a generator that raises part-way, is a
    NotationError naming what cannot be read and the error's type: each had let the
    bare TypeError, ValueError or IndexError out."""
    build, first, what = ITERABLES[reader]
    iterable = FAILING[shape](first)
    kind = "TypeError" if shape.startswith("__iter__") else shape.split()[-1]
    raises(brisca.NotationError, f"^{what} cannot be read \\({kind}\\)$", lambda: build(iterable))


class BrokenLookup(Mapping[str, str]):
    """A mapping whose ``__getitem__`` raises, as its items are read."""

    def __getitem__(self, key: str) -> str:
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(["site"])

    def __len__(self) -> int:
        return 1


class BrokenItems(BrokenLookup):
    """A mapping whose ``items`` raises."""

    def items(self) -> Any:
        raise ValueError("items")


@pytest.mark.parametrize(
    ("mapping", "kind"), [(BrokenLookup, "KeyError"), (BrokenItems, "ValueError")]
)
def test_a_mapping_whose_items_fail_is_refused_as_unreadable(
    mapping: Callable[[], Mapping[str, str]], kind: str
) -> None:
    """Tags given as a mapping whose items cannot be read are a NotationError: its
    KeyError or ValueError had come out bare."""
    raises(
        brisca.NotationError,
        f"^tags cannot be read \\({kind}\\)$",
        lambda: GameRecord(RULES, 0, (), seed=1, tags=mapping()),
    )


# -- An endless iterable is read no further than its budget --------------------------

ENDLESS: dict[str, tuple[Callable[[], object], type[brisca.BriscaError], str]] = {
    "GameRecord actions": (
        lambda: GameRecord(RULES, 0, tripwire(lambda k: "2O"), seed=1),
        brisca.NotationError,
        f"a record of {MAX_DEAL_ACTIONS + 1} actions; a hand has at most {MAX_DEAL_ACTIONS} "
        "\\(MAX_DEAL_ACTIONS\\)",
    ),
    "GameRecord deck": (
        lambda: GameRecord(RULES, 0, (), deck=tripwire(lambda k: "1O")),
        brisca.StateError,
        "deck has more than 40 cards",
    ),
    "GameRecord players": (
        lambda: GameRecord(RULES, 0, (), seed=1, players=tripwire(str)),
        brisca.NotationError,
        "players names 7 seats",
    ),
    "GameRecord tags": (
        lambda: GameRecord(RULES, 0, (), seed=1, tags=tripwire(lambda k: (f"t{k}", "v"))),
        brisca.NotationError,
        "at most 1000 tags \\(MAX_TAGS\\)",
    ),
    "RecordedResult points": (
        lambda: RecordedResult(tripwire(lambda k: 1), None),
        brisca.NotationError,
        "1 to 6 sides', got 7",
    ),
    "record_game actions": (
        lambda: records.record_game(start(), tripwire(lambda k: "1O")),
        brisca.IllegalActionError,
        "action 0 \\(1O\\)",
    ),
    "plain_keys mapping": (
        lambda: jsonio.plain_keys(EndlessMapping(), "options"),
        brisca.NotationError,
        "options has more than 4096 keys \\(MAX_KEYS\\)",
    ),
}


@pytest.mark.parametrize("reader", ENDLESS)
def test_an_endless_iterable_is_read_no_further_than_its_budget(reader: str) -> None:
    """An iterable that never ends is cut one past its cap (the tripwire, far past, is
    never reached) and refused: a mapping's items had been read to the end."""
    build, error, words = ENDLESS[reader]
    raises(error, words, build)


def test_validate_reads_an_endless_mapping_no_further_than_its_budget() -> None:
    """`validate` read a mapping whole, with ``dict(mapping)``, before its first check."""
    problem = records.validate(EndlessMapping())
    assert problem is not None and problem.kind == "malformed record"
    assert "record has more than 4096 keys (MAX_KEYS)" in problem.reason


# -- A list or tuple subclass is read by list's or tuple's own methods ---------------


def test_a_list_subclass_is_read_by_the_lists_own_methods() -> None:
    """A list or tuple subclass whose ``__iter__`` gives an int and whose ``len`` raises
    is read as the plain list it holds: ``replay_from`` and ``from_dict`` had asked for
    its len and iterated it, and let the TypeError or IndexError out."""
    data = record_data()
    record = GameRecord.from_dict(data)
    final = records.final_state(record)
    assert records.replay_from(start(), HostileList(record.actions)) == final
    assert records.replay_from(start(), HostileTuple(record.actions)) == final
    hostile = {
        **data,
        "actions": HostileList(data["actions"]),
        "players": HostileList(data["players"]),
        "result": {**data["result"], "points": HostileList(data["result"]["points"])},
    }
    assert GameRecord.from_dict(hostile) == record
    assert jsonio.Fields(HostileList(["a", "b"]), "texts").texts(None) == ["a", "b"]
    assert jsonio.Fields({"t": HostileList(["a"])}, "thing").texts("t") == ["a"]
    assert not jsonio.only_strings(HostileList(["a"]))


class HostileDict(dict[Any, Any]):
    """A dict whose own ``items``, ``__iter__``, ``__len__`` and ``__bool__`` raise."""

    def items(self) -> Any:
        raise KeyError("items")

    def __iter__(self) -> Any:
        return 5

    def __len__(self) -> int:
        raise IndexError("len")

    def __bool__(self) -> bool:
        raise IndexError("bool")


def test_a_dict_subclass_is_read_by_the_dicts_own_methods() -> None:
    """Tags, a record's data and its rules in a dict subclass whose own methods raise are
    read by dict's own: the tags had been read through their own ``items``."""
    data = record_data(tags={"site": "Sevilla"})
    record = GameRecord.from_dict(data)
    tags = GameRecord(RULES, 0, (), seed=1, tags=HostileDict(site="Sevilla")).tags
    assert tags == (("site", "Sevilla"),)
    hostile = HostileDict(data)
    hostile["tags"] = HostileDict(data["tags"])
    hostile["rules"] = HostileDict(data["rules"])
    assert GameRecord.from_dict(hostile) == record


def test_a_deck_of_a_list_subclass_is_read_by_the_lists_own_methods() -> None:
    state = brisca.new_game(RULES, deck=list(records.deck_order(start())))
    data = records.record_game(state).to_dict()
    hostile = {**data, "deck": HostileList(data["deck"])}
    assert GameRecord.from_dict(hostile) == GameRecord.from_dict(data)


def test_a_deck_past_the_largest_pack_is_refused_before_the_rest_is_read() -> None:
    """``from_dict`` reads one card past the largest pack (48) at most: a longer deck is
    refused by its length, whatever follows; every item had been read first."""
    state = brisca.new_game(RULES, deck=list(records.deck_order(start())))
    data = records.record_game(state).to_dict()
    long = {**data, "deck": [*data["deck"], *data["deck"], *([HUGE] * 10_000)]}
    raises(brisca.StateError, "^deck has more than 40 cards", lambda: GameRecord.from_dict(long))


# -- replay_from refuses more texts than a hand takes before reading any -------------


@pytest.mark.parametrize("kind", [list, tuple, HostileList])
def test_replay_from_refuses_more_actions_than_a_hand_takes_before_reading_any(
    kind: type[Any],
) -> None:
    """More texts than `MAX_DEAL_ACTIONS` are refused by their count, before the first is
    read: all had been read, then the first found illegal."""
    texts = kind(["1O "] * (MAX_DEAL_ACTIONS + 1))
    raises(
        brisca.NotationError,
        f"^a replay of {MAX_DEAL_ACTIONS + 1} actions; a hand has at most {MAX_DEAL_ACTIONS} "
        "\\(MAX_DEAL_ACTIONS\\)$",
        lambda: records.replay_from(start(), texts),
    )


def test_replay_from_stops_at_the_first_illegal_action() -> None:
    """Up to the cap, the first action the rules refuse is the error, whatever follows."""
    texts = ["1O ", *([HUGE] * (MAX_DEAL_ACTIONS - 1))]
    raises(
        brisca.IllegalActionError,
        "^action 0 \\('1O '\\): ",
        lambda: records.replay_from(start(), texts),
    )


# -- A file that cannot be written or read is a NotationError ------------------------


def closed() -> io.StringIO:
    fp = io.StringIO()
    fp.close()
    return fp


class RaisingWrite:
    @property
    def write(self) -> Any:
        raise ValueError("write")

    read = write


@pytest.mark.parametrize(
    ("fp", "kind"),
    [(io.BytesIO, "TypeError"), (closed, "ValueError"), (RaisingWrite, "ValueError")],
)
def test_dump_to_a_file_that_cannot_take_text_is_a_notation_error(
    fp: Callable[[], Any], kind: str
) -> None:
    """A binary file, a closed one or one whose ``write`` raises: ``dump`` had let the
    file's own TypeError or ValueError out."""
    record = GameRecord.from_dict(record_data())
    raises(
        brisca.NotationError,
        f"^cannot write to an? [A-Za-z]+ \\({kind}\\): fp must be a text file open for writing$",
        lambda: records.dump(record, fp()),
    )


@pytest.mark.parametrize(("fp", "kind"), [(closed, "ValueError"), (RaisingWrite, "ValueError")])
def test_load_from_a_file_that_cannot_be_read_is_a_notation_error(
    fp: Callable[[], Any], kind: str
) -> None:
    raises(
        brisca.NotationError,
        f"^cannot read from an? [A-Za-z]+ \\({kind}\\): fp must be a file open for reading$",
        lambda: records.load(fp()),
    )


# -- The JSON reader's helpers ------------------------------------------------------


def test_the_json_helpers_refuse_what_is_no_json_with_a_notation_error() -> None:
    """`depth` takes text only; `refuse_lone_surrogates` refuses data whose mapping's
    items raise, as data that is no JSON: they had let an AttributeError or a KeyError
    out. `only_strings` answers False for what is no list or tuple."""

    class BrokenItems(dict[str, int]):
        def items(self) -> Any:
            raise KeyError("items")

    raises(brisca.NotationError, "^expected text, got 5 \\(int\\)$", lambda: jsonio.depth(5))  # type: ignore[arg-type]
    raises(
        brisca.NotationError,
        "^names is not JSON-ready data: a BrokenItems$",
        lambda: jsonio.refuse_lone_surrogates(BrokenItems(a=1), "names"),
    )
    assert not jsonio.only_strings(5)  # type: ignore[arg-type]
    assert not jsonio.only_strings("ab")
