"""The one JSON reader of brisca: states, matches and records are read through it.

:func:`parse` turns JSON text (or UTF-8 bytes) into Python data, and refuses
anything that is not plain JSON with a :class:`~brisca.NotationError`: bytes
that are not UTF-8, a byte-order mark, ``NaN`` or ``Infinity``, and nesting
deeper than :data:`MAX_DEPTH`. The depth is checked by a scan of the text
before the JSON is decoded, so a deeply nested document never reaches a
recursive decoder, whatever the caller's own stack depth.

:class:`Fields` reads one decoded JSON object field by field, with type checks
and errors that name the field, such as ``record.dealer must be int, got '3' (str)``.

>>> data = parse('{"dealer": 1, "hands": [["1O", "3C"], []]}')
>>> fields = Fields(data, "state")
>>> fields.seat("dealer", 2), [Fields(h, "hands").cards(None) for h in fields.get("hands", list)]
(1, [(Card.parse('1O'), Card.parse('3C')), ()])
>>> parse("[" * 100 + "]" * 100)
Traceback (most recent call last):
...
brisca.NotationError: JSON nested 100 deep; brisca reads at most 64 levels
"""

from __future__ import annotations

import enum
import itertools
import json
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import attrs

from brisca.game.actions import ACTION_TYPES
from brisca.game.cards import Card
from brisca.game.errors import NotationError, StateError, describe

__all__ = ["MAX_DEPTH", "Fields", "depth", "parse", "readable"]

#: The deepest nesting of arrays and objects :func:`parse` reads. brisca's own
#: documents nest at most 5 deep; the limit keeps every decoder far from Python's
#: recursion limit.
MAX_DEPTH = 64

# A JSON string, escapes included (the unrolled form, which the regex engine runs in a loop).
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def _refuse_constant(name: str) -> Any:
    raise NotationError(f"{name} is not a JSON number")


def depth(text: str) -> int:
    """How deep the arrays and objects of JSON `text` nest, brackets inside strings aside.

    The scan is iterative and linear in the text's length.
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(itertools.accumulate(_STEP[c] for c in brackets), default=0)


def parse(text: str | bytes | bytearray, what: str = "JSON") -> Any:
    """The data of JSON `text`; bytes must be UTF-8.

    Args:
        text: the JSON document.
        what: what the document should be, for error messages ("a match record").

    Raises:
        NotationError: not text, not UTF-8, not JSON, or nested deeper than `MAX_DEPTH`.
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as error:
            raise NotationError(
                f"{what}: not UTF-8 text ({error.reason} at byte {error.start})"
            ) from None
    if not isinstance(text, str):
        raise NotationError(f"{what} must be JSON text or bytes, got {describe(text)}")
    if text.startswith("\ufeff"):
        raise NotationError(f"{what}: the text starts with a byte-order mark, which JSON forbids")
    nested = depth(text)
    if nested > MAX_DEPTH:
        raise NotationError(f"JSON nested {nested} deep; brisca reads at most {MAX_DEPTH} levels")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except NotationError as error:
        raise NotationError(f"not {what}: {error}") from None
    except (ValueError, RecursionError) as error:  # JSONDecodeError, or an int too long
        raise NotationError(f"not {what}: {error}") from None


def _is(value: object, kind: type | tuple[type, ...]) -> bool:
    """`isinstance`, except that a bool is no int (JSON's true is not 1)."""
    if isinstance(value, bool) and not (kind is bool or (isinstance(kind, tuple) and bool in kind)):
        return False
    return isinstance(value, kind)


def _name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(k.__name__ for k in kinds)


class Fields:
    """Typed access to one JSON object, with errors that name the field.

    `where` names the object in messages, such as ``"record"`` or ``"tricks[3]"``.
    Nothing is checked until a field is read, so `data` may also be a list read
    with ``cards(None)``.
    """

    __slots__ = ("data", "where")

    def __init__(self, data: object, where: str) -> None:
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
        extra = sorted(str(k) for k in self._object() if k not in keys)
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
        return value

    def seat(self, key: str, n: int, optional: bool = False) -> Any:
        """A seat from 0 to ``n - 1`` (or null, if `optional`).

        Raises:
            NotationError: not an int.
            StateError: not a seat of `n` players.
        """
        seat = self.get(key, int, optional)
        if seat is not None and not 0 <= seat < n:
            raise StateError(
                f"{self.where}.{key} is {describe(seat, typed=False)}, not a seat from 0 to {n - 1}"
            )
        return seat

    def texts(self, key: str | None) -> list[str]:
        """A list of strings: the field `key`, or with ``None`` the data itself.

        Raises:
            NotationError: not a list of strings.
        """
        items = self.data if key is None else self.get(key, list)
        where = self.where if key is None else f"{self.where}.{key}"
        if not isinstance(items, list):
            raise NotationError(f"{where} must be a list of strings, got {describe(items)}")
        for k, item in enumerate(items):
            if not isinstance(item, str):
                raise NotationError(f"{where}[{k}] must be a string, got {describe(item)}")
        return items

    def cards(self, key: str | None) -> tuple[Card, ...]:
        """A list of card codes: the field `key`, or with ``None`` the data itself.

        Raises:
            NotationError: not a list of card codes.
        """
        items = self.data if key is None else self.get(key, list)
        if not isinstance(items, list) or not all(isinstance(c, str) for c in items):
            where = self.where if key is None else f"{self.where}.{key}"
            raise NotationError(f"{where} must be a list of card codes, got {describe(items)}")
        return tuple(Card.parse(c) for c in items)

    def plays(self, key: str, n: int) -> tuple[tuple[int, Card], ...]:
        """A list of ``[seat, card]`` pairs, seats from 0 to ``n - 1``.

        Raises:
            NotationError: not such a list, or a bad card code.
            StateError: a seat out of range.
        """
        out = []
        for item in self.get(key, list):
            seat, code = Fields.row(item, f"{self.where}.{key}", (int, str))
            if not 0 <= seat < n:
                raise StateError(
                    f"{self.where}.{key}: {describe(seat, typed=False)} is not a seat "
                    f"from 0 to {n - 1}"
                )
            out.append((seat, Card.parse(code)))
        return tuple(out)

    def rows(self, key: str, kinds: tuple[type, ...]) -> list[list[Any]]:
        """A list of rows, each a list of exactly `kinds` (see :meth:`row`)."""
        return [Fields.row(item, f"{self.where}.{key}", kinds) for item in self.get(key, list)]

    @staticmethod
    def row(item: object, where: str, kinds: tuple[type, ...]) -> list[Any]:
        """A JSON list of exactly `kinds`, such as a ``[seat, card]`` pair.

        Raises:
            NotationError: `item` is not such a list.
        """
        if not (
            isinstance(item, list)
            and len(item) == len(kinds)
            and all(_is(v, k) for v, k in zip(item, kinds, strict=True))
        ):
            names = ", ".join(k.__name__ for k in kinds)
            raise NotationError(f"{where} must hold [{names}] rows, got {describe(item)}")
        return item


def readable(value: object) -> Any:
    """A library value as JSON-ready data: the one converter of events and views.

    Cards become codes, suits and options their text, actions their notation,
    fractions ``[numerator, denominator]``, sets sorted lists, tuples lists, and
    other attrs values objects of their fields.

    >>> readable((Card.parse("1O"), frozenset({"b", "a"}), Fraction(1, 2)))
    ['1O', ['a', 'b'], [1, 2]]
    """
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Card):
        return value.code
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Fraction):
        return [value.numerator, value.denominator]
    if isinstance(value, (frozenset, set)):
        return sorted((readable(v) for v in value), key=str)
    if isinstance(value, (tuple, list)):
        return [readable(v) for v in value]
    if type(value) in ACTION_TYPES:
        return str(value)  # an action: its notation
    if attrs.has(type(value)):
        kind: Any = type(value)
        return {f.name: readable(getattr(value, f.name)) for f in attrs.fields(kind)}
    return str(value)
