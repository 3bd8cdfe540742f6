"""The one JSON reader of brisca: states, matches and records are read through it.

:func:`parse` turns JSON text (or UTF-8 bytes) into Python data, and refuses
anything that is not plain JSON with a :class:`~brisca.NotationError`: text
longer than :data:`MAX_TEXT`, bytes that are not UTF-8, a byte-order mark,
``NaN``, ``Infinity`` or a number too large for a float, an object that names
a key twice, a string that is not Unicode text (a lone surrogate such as
``"\\ud800"``), and nesting deeper than :data:`MAX_DEPTH`. The depth is checked
by a scan of the text before the JSON is decoded, so a deeply nested document
never reaches a recursive decoder, whatever the caller's own stack depth.

Every step is linear in the text's length. On the development machine (2 cores
shared with other work) the pre-scan costs at most about 0.03 s per MiB, and
:func:`parse` at most about 0.5 s per MiB, for arrays nested just under the cap,
the densest work for the decoder (``benchmarks/loading.py --readers 1024``): a
text at the cap parses in under 10 s.

:class:`Fields` reads one decoded JSON object field by field, with type checks
and errors that name the field, such as ``record.dealer must be int, got '3' (str)``.

>>> data = parse('{"dealer": 1, "players": ["Ana", "Luis"]}')
>>> fields = Fields(data, "record")
>>> fields.get("dealer", int), fields.texts("players")
(1, ['Ana', 'Luis'])
>>> parse("[" * 100 + "]" * 100)
Traceback (most recent call last):
...
brisca.NotationError: JSON nested 100 deep; brisca reads at most 64 levels
>>> parse('{"seed": 1, "seed": 2}', "a state")
Traceback (most recent call last):
...
brisca.NotationError: not a state: the key 'seed' appears twice in one object
"""

from __future__ import annotations

import array
import enum
import itertools
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import attrs

from brisca.game.actions import ACTION_TYPES
from brisca.game.cards import Card
from brisca.game.errors import (
    BARE_ERRORS,
    NotationError,
    StateError,
    as_brisca_error,
    describe,
    plain_text,
    text_of,
)

__all__ = [
    "MAX_DEPTH",
    "MAX_KEYS",
    "MAX_TEXT",
    "Fields",
    "depth",
    "only_strings",
    "parse",
    "plain_json",
    "plain_keys",
    "readable",
    "refuse_lone_surrogates",
]

#: The deepest nesting of arrays and objects :func:`parse` reads. brisca's own
#: documents nest at most 5 deep; the limit keeps every decoder far from Python's
#: recursion limit.
MAX_DEPTH = 64

#: The longest text :func:`parse` reads, in characters (or bytes, for bytes): 16 MiB.
#: The largest document brisca writes is a match record, which its reader caps at the
#: same size (``saves.MAX_MATCH_TEXT``); the longest a match can hold (``MAX_DEALS``
#: deals with their decks, ``MAX_ACTIONS`` actions of long auctions) is under 8 MiB.
MAX_TEXT = 16 * 2**20

#: The most keys :func:`plain_keys` reads from a caller's mapping, whose items might
#: never end (a dict that :func:`parse` gives is taken as it is): brisca's objects have
#: a few dozen keys at most.
MAX_KEYS = 4096

# Brackets as signed bytes, +1 and -1, everything else deleted.
_SIGNS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
_NOT_BRACKET = bytes(sorted(set(range(256)) - set(b"[]{}")))
# The pre-scan splits the text in chunks of this many bytes, which bounds its memory.
_CHUNK = 2**16
# An escape that may give a surrogate (or, after an escaped backslash, a false alarm,
# which only costs the exact check).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _refuse_constant(name: str) -> Any:
    raise NotationError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NotationError(f"the number {describe(text, 20, typed=False)} is out of range")
    return value


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's dict; a key named twice is refused, not silently the last one."""
    data = dict(pairs)
    if len(data) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise NotationError(
                    f"the key {describe(key, 40, typed=False)} appears twice in one object"
                )
            seen.add(key)
    return data


# One decoder for every parse, as json.loads shares its default one: building one per
# call costs more than decoding a saved state.
_DECODER = json.JSONDecoder(
    parse_constant=_refuse_constant, parse_float=_finite, object_pairs_hook=_object
)


def depth(text: str) -> int:
    """How deep the arrays and objects of JSON `text` nest, brackets inside strings aside.

    The scan is linear in the text's length, runs at C speed and in bounded memory:
    with the escaped backslashes and quotes dropped, every quote left opens or closes
    a string, so the text between every other quote is outside strings; a running sum
    of its brackets gives the depth. Past the first place the text stops being JSON
    the scan may count brackets a decoder never reaches, never fewer.
    """
    text = plain_text(text)  # a subclass's own encode never runs
    raw = text.encode("utf-8", "surrogatepass").replace(b"\\\\", b"").replace(b'\\"', b"")
    level = deepest = 0
    inside = False  # whether the chunk starts inside a string
    for start in range(0, len(raw), _CHUNK):
        pieces = raw[start : start + _CHUNK].split(b'"')
        outside = b"".join(pieces[inside::2])
        inside ^= len(pieces) % 2 == 0  # an odd number of quotes
        steps = array.array("b", outside.translate(_SIGNS, _NOT_BRACKET))
        deepest = max(deepest, max(itertools.accumulate(steps, initial=level)))
        level += sum(steps)
    return deepest


def only_strings(items: Sequence[object]) -> bool:
    """Whether `items` is a list or tuple of strs, exactly (what JSON gives): a check at
    C speed, for the long lists of notation a document holds. A subclass answers
    ``False``, its own len or iter never run, and is left to the caller's full reader."""
    kind = type(items)
    if kind is not list and kind is not tuple:
        return False
    return not items or set(map(type, items)) == {str}


_SCALARS = (str, int, float, bool, type(None))
# The types parse gives.
_JSON_TYPES = frozenset({dict, list, str, int, float, bool, type(None)})


def plain_json(data: object, budget: int = 4096) -> bool:
    """Whether `data` is made of exact JSON types only (what :func:`parse` gives), within
    `budget` values: only such data may share a cache entry by its JSON text, since a
    str subclass or an IntEnum writes the same text as the plain value.

    >>> plain_json({"preset": "spanish-2p", "overrides": {"match_target": 5}})
    True
    >>> plain_json({"preset": "spanish-2p", "overrides": {"removed_cards": ("1O",)}})
    False
    """
    stack: list[Any] = [data]
    while stack:
        budget -= 1
        if budget < 0:
            return False
        value = stack.pop()
        kind = type(value)
        if kind is dict:
            if any(type(k) is not str for k in value):
                return False
            stack.extend(value.values())
        elif kind is list:
            stack.extend(value)
        elif kind not in _SCALARS:
            return False
    return True


def refuse_lone_surrogates(data: object, what: str) -> None:
    """Refuse JSON-ready `data` (such as a list of names) if a string in it is not Unicode
    text: a lone surrogate, which no UTF-8 file can hold.

    Raises:
        NotationError: a string holds a lone surrogate, or `data` is not JSON-ready.
    """
    try:
        if data is None:
            return
        if type(data) is str:
            data.encode("utf-8")
        elif (type(data) is tuple or type(data) is list) and only_strings(data):
            # Strings alone: joined, they give the first surrogate the JSON text would.
            "".join(data).encode("utf-8")
        else:
            json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as error:
        code = ord(error.object[error.start])
        raise NotationError(
            f"{what}: a string holds the lone surrogate U+{code:04X}, which is not Unicode text"
        ) from None
    except BARE_ERRORS:  # no JSON type, or a caller's mapping whose items fail
        raise NotationError(f"{what} is not JSON-ready data: {describe(data)}") from None


def parse(text: str | bytes | bytearray, what: str = "JSON") -> Any:
    """The data of JSON `text`; bytes must be UTF-8.

    Args:
        text: the JSON document, at most `MAX_TEXT` characters (or bytes).
        what: what the document should be, for error messages ("a match record").

    Raises:
        NotationError: not text, longer than `MAX_TEXT`, not UTF-8, not JSON, nested
            deeper than `MAX_DEPTH`, a key twice in one object, or a lone surrogate.
    """
    if isinstance(text, (bytes, bytearray)):
        try:  # the buffer itself: a subclass's own len or __bytes__ never run
            raw = memoryview(text)
        except BARE_ERRORS:  # only claims to be bytes
            shown = describe(text)
            raise NotationError(f"{what} must be JSON text or bytes, got {shown}") from None
        if raw.nbytes > MAX_TEXT:
            raise NotationError(f"{what}: {raw.nbytes} bytes; brisca reads at most {MAX_TEXT}")
        try:
            text = raw.tobytes().decode("utf-8")
        except UnicodeDecodeError as error:
            raise NotationError(
                f"{what}: not UTF-8 text ({error.reason} at byte {error.start})"
            ) from None
    if not isinstance(text, str):
        raise NotationError(f"{what} must be JSON text or bytes, got {describe(text)}")
    text = plain_text(text)  # a subclass's own len or methods never run
    if len(text) > MAX_TEXT:
        raise NotationError(f"{what}: {len(text)} characters; brisca reads at most {MAX_TEXT}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        code = ord(text[error.start])
        raise NotationError(
            f"{what}: the lone surrogate U+{code:04X} at character {error.start} is not "
            "Unicode text"
        ) from None
    if text.startswith("\ufeff"):
        raise NotationError(f"{what}: the text starts with a byte-order mark, which JSON forbids")
    # Nesting needs an opening bracket per level, so few brackets need no scan.
    nested = 0 if text.count("[") + text.count("{") <= MAX_DEPTH else depth(text)
    if nested > MAX_DEPTH:
        raise NotationError(f"JSON nested {nested} deep; brisca reads at most {MAX_DEPTH} levels")
    try:
        data = _DECODER.decode(text)
    except NotationError as error:
        raise NotationError(f"not {what}: {error}") from None
    except (ValueError, RecursionError) as error:  # JSONDecodeError, or an int too long
        raise NotationError(f"not {what}: {error}") from None
    if "\\u" in text and _SURROGATE_ESCAPE.search(text) is not None:
        refuse_lone_surrogates(data, f"not {what}")
    return data


def _is(value: object, kind: type | tuple[type, ...]) -> bool:
    """`isinstance` by the value's type, not its ``__class__`` (which a mock may fake),
    except that a bool is no int (JSON's true is not 1)."""
    of = type(value)
    if issubclass(of, bool) and not (kind is bool or (isinstance(kind, tuple) and bool in kind)):
        return False
    return issubclass(of, kind)


def _name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(k.__name__ for k in kinds)


def plain_keys(data: Mapping[Any, Any], where: str, *, text_only: bool = False) -> dict[Any, Any]:
    """A caller's mapping as a plain dict whose text keys are plain text (their own hash
    or == would run at every lookup), or `data` itself when it is one already. With
    `text_only`, as for a JSON object, a key that is no text is refused before any of
    its methods runs.

    Raises:
        NotationError: two keys are one once plain text, as the JSON reader refuses a key
            twice; a key is no text (with `text_only`); the mapping cannot be read, or
            has more than `MAX_KEYS` keys.
    """
    if type(data) is dict and all(type(k) is str for k in data):  # what parse gives
        return data
    try:
        # A dict's own items, not a subclass's; one past the cap at most, as a mapping's
        # items might never end.
        items = dict.items(data) if isinstance(data, dict) else data.items()
        pairs = list(itertools.islice(items, MAX_KEYS + 1))
    except BARE_ERRORS as error:
        why = type(error).__name__
        raise NotationError(f"{where} cannot be read as a mapping ({why})") from None
    if len(pairs) > MAX_KEYS:
        raise NotationError(f"{where} has more than {MAX_KEYS} keys (MAX_KEYS)")
    if text_only:
        for key, _ in pairs:
            if not issubclass(type(key), str):  # by its type: none of the key's own methods
                raise NotationError(f"{where} has a key that is no text: {describe(key, 20)}")
    try:
        plain = {_plain_key(k): v for k, v in pairs}
    except BARE_ERRORS as error:  # another key's own hash or ==
        why = type(error).__name__
        raise NotationError(f"{where} cannot be read as a mapping ({why})") from None
    if len(plain) != len(pairs):
        raise NotationError(f"{where} has a key twice, as plain text")
    return plain


def _plain_key(key: object) -> object:
    text = text_of(key)
    return key if text is None else text


class Fields:
    """Typed access to one JSON object, with errors that name the field.

    `where` names the object in messages, such as ``"record"`` or ``"tricks[3]"``.
    Nothing is checked until a field is read, so `data` may also be a list read
    with ``texts(None)``; only a caller's dict whose keys are not all plain text has
    them read at once: a key of a str subclass is made plain text (a NotationError if
    two then repeat), and a key that is no text is refused, none of its methods run.
    A field's value of a str, list or dict subclass is read as the plain type.
    """

    __slots__ = ("data", "where")

    def __init__(self, data: object, where: str) -> None:
        if isinstance(data, dict):
            data = plain_keys(data, where, text_only=True)
        #: The decoded JSON value.
        self.data: Any = data
        #: The object's name in error messages.
        self.where = where

    def _object(self) -> dict[Any, Any]:
        if not isinstance(self.data, dict):
            raise NotationError(f"{self.where} must be a JSON object, got {describe(self.data)}")
        return self.data

    def has(self, key: str) -> bool:
        """Whether the object has `key`."""
        return key in self._object()

    def only(self, keys: Sequence[str]) -> None:
        """Refuse any key not in `keys`.

        Raises:
            NotationError: the object has an unknown key (or is no object).
        """
        # Every key is plain text (see __init__): no key's own methods run.
        extra = sorted(k for k in self._object() if k not in keys)
        if extra:
            shown = ", ".join(describe(k, 20, typed=False) for k in extra[:5])
            more = f" and {len(extra) - 5} more" if len(extra) > 5 else ""
            raise NotationError(f"{self.where} has unknown field(s): {shown}{more}")

    def get(
        self,
        key: str,
        kind: type | tuple[type, ...],
        optional: bool = False,
        *,
        required: bool = True,
        nullable: bool = False,
    ) -> Any:
        """The value of `key`, of type `kind` (a bool is never an int).

        Args:
            key: the field.
            kind: its type, or a tuple of types.
            optional: the value may be null (the same as `nullable`).
            required: the key must be present; if not, an absent key gives ``None``.
            nullable: the value may be null, which gives ``None``.

        Raises:
            NotationError: the key is missing, or its value has another type.
        """
        data = self._object()
        if key not in data:
            if required:
                raise NotationError(f"{self.where} lacks {key!r}")
            return None
        value = data[key]
        if value is None and (optional or nullable):
            return None
        if not _is(value, kind):
            raise NotationError(f"{self.where}.{key} must be {_name(kind)}, got {describe(value)}")
        if type(value) in _JSON_TYPES:  # what parse gives
            return value
        return _plain_value(value, f"{self.where}.{key}")

    def texts(self, key: str | None) -> list[str]:
        """A list of strings: the field `key`, or with ``None`` the data itself.

        Raises:
            NotationError: not a list of strings.
        """
        items = self.data if key is None else self.get(key, list)
        where = self.where if key is None else f"{self.where}.{key}"
        if not _is(items, list):
            raise NotationError(f"{where} must be a list of strings, got {describe(items)}")
        texts: list[str] = items if type(items) is list else _plain_value(items, where)
        for k, item in enumerate(texts):
            if not isinstance(item, str):
                raise NotationError(f"{where}[{k}] must be a string, got {describe(item)}")
        return texts


def _plain_value(value: object, where: str) -> Any:
    """A caller's value of a str, list or dict subclass as the plain type, read by the
    plain type's own C methods (a subclass's len, iter, == or hash may raise); any other
    value (an int's subclass, which readers refuse by its type) as it is."""
    kind = type(value)
    if issubclass(kind, str):
        return plain_text(value)
    if issubclass(kind, list):
        return list(list.__iter__(value))  # type: ignore[arg-type]
    if issubclass(kind, dict):
        return plain_keys(value, where)  # type: ignore[arg-type]
    return value


def readable(value: object) -> Any:
    """A library value as JSON-ready data: the one converter of events and views.

    Cards become codes, suits and options their text, actions their notation,
    fractions ``[numerator, denominator]``, sets sorted lists, tuples lists, and
    other attrs values objects of their fields.

    >>> readable((Card.parse("1O"), frozenset({"b", "a"}), Fraction(1, 2)))
    ['1O', ['a', 'b'], [1, 2]]

    Raises:
        StateError: `value` nests deeper than `MAX_DEPTH` levels (a list that holds
            itself, say), which no JSON document brisca reads may do, or a hand-built
            value in it cannot be written (an action whose card is no card).
    """
    kind = type(value)
    if kind in _PLAIN:  # most values: as they are, without a call
        return value
    handler = _HANDLERS.get(kind)
    if handler is None:
        handler = _HANDLERS.setdefault(kind, _handler(kind))
    try:
        return handler(value, MAX_DEPTH)
    except BARE_ERRORS as error:
        raise as_brisca_error("the value", error) from None


def _readable(value: object, levels: int) -> Any:
    """`readable` for a value in which `levels` more levels may still nest."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    handler = _HANDLERS.get(kind)
    if handler is None:
        handler = _HANDLERS.setdefault(kind, _handler(kind))
    return handler(value, levels)


_PLAIN = frozenset({int, str, bool, float, type(None)})


# Each type's way of being written, worked out once from the type: a server writes
# views and events at every move, and a chain of isinstance tests for every value
# cost most of it. One entry per type the program has, so bounded by the program.
# A handler takes the value and how many levels may still nest in it: the walk
# stops there, so a value that holds itself cannot recurse until Python gives up.
_HANDLERS: dict[type, Callable[[Any, int], Any]] = {}


def _too_deep() -> StateError:
    return StateError(f"the value is nested deeper than {MAX_DEPTH} levels, too deep to write")


def _same(value: Any, levels: int) -> Any:
    return value


def _code(card: Card, levels: int) -> str:
    return card.code


def _enum(value: enum.Enum, levels: int) -> Any:
    return value.value


def _fraction(value: Fraction, levels: int) -> list[int]:
    return [value.numerator, value.denominator]


def _set(value: frozenset[Any], levels: int) -> list[Any]:
    if levels <= 0:
        raise _too_deep()
    return sorted((_readable(v, levels - 1) for v in value), key=str)


def _sequence(value: tuple[Any, ...], levels: int) -> list[Any]:
    if levels <= 0:
        raise _too_deep()
    return [_readable(v, levels - 1) for v in value]


def _text(value: object, levels: int) -> str:
    """Anything else, by its text: an action its notation."""
    try:
        return str(value)
    except RecursionError:  # the repr of a dict nested very deep
        raise _too_deep() from None


def _attrs_handler(kind: type) -> Callable[[Any, int], Any]:
    names = tuple(f.name for f in attrs.fields(kind))

    def fields(value: Any, levels: int) -> dict[str, Any]:
        if levels <= 0:
            raise _too_deep()
        return {name: _readable(getattr(value, name), levels - 1) for name in names}

    return fields


def _handler(kind: type) -> Callable[[Any, int], Any]:
    """How a value of type `kind` is written: the first of these tests it passes."""
    if kind is type(None) or issubclass(kind, (bool, int, float, str)):
        return _same
    if issubclass(kind, Card):
        return _code
    if issubclass(kind, enum.Enum):
        return _enum
    if issubclass(kind, Fraction):
        return _fraction
    if issubclass(kind, (frozenset, set)):
        return _set
    if issubclass(kind, (tuple, list)):
        return _sequence
    if kind in ACTION_TYPES:
        return _text  # an action: its notation
    if attrs.has(kind):
        return _attrs_handler(kind)
    return _text
