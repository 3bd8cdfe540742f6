"""The exceptions raised by brisca.

Every error the library raises on bad input is a :class:`BriscaError`, which is
a :class:`ValueError`, so callers can catch one type at the boundary.
"""

from __future__ import annotations

import contextlib
import itertools
import operator
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")

__all__ = [
    "BARE_ERRORS",
    "BotError",
    "BriscaError",
    "IllegalActionError",
    "NotationError",
    "RulesError",
    "StateError",
    "as_brisca_error",
    "as_integer",
    "as_state_error",
    "checked_int",
    "checked_integer",
    "checked_type",
    "describe",
    "int_range",
    "plain_text",
    "read_at_most",
    "text_of",
]


class BriscaError(ValueError):
    """Base class of every error brisca raises on bad input."""


class RulesError(BriscaError):
    """A `Rules` value whose options are invalid or clash with each other."""


class NotationError(BriscaError):
    """Text (a card code, an action, JSON) that cannot be read."""


class IllegalActionError(BriscaError):
    """An action that the rules do not allow in this state; the message says why."""


class StateError(BriscaError):
    """A state, deck, seat or other argument that cannot belong to a game of these rules."""


class BotError(BriscaError):
    """A bot that cannot be named or made: an unknown name, or a ``module:Class`` that fails."""


# They print as ``brisca.RulesError``, the name users import, not by the module that
# defines them; pickle finds them there too.
for _error in (BriscaError, RulesError, NotationError, IllegalActionError, StateError, BotError):
    _error.__module__ = "brisca"
del _error


#: How many characters of a wrong value an error message quotes, at most.
QUOTE_LIMIT = 60

# Values of these modules have short, public reprs: cards, suits, actions, rules options.
_SAFE_MODULES = frozenset(
    {"brisca.game.cards", "brisca.game.actions", "brisca.game.rules", "brisca.game.option"}
)
_SCALARS = (type(None), bool, float, complex, str, bytes, bytearray)
_CONTAINERS: dict[type, str] = {list: "[]", tuple: "()", set: "{}", frozenset: "{}", dict: "{}"}


def plain_text(value: object) -> str:
    """`value`, a str, as an exact str: a subclass's own hash, ``==`` or methods (a numpy
    string's, a hostile one's) are never run on it, nor kept in a value.

    >>> import numpy
    >>> type(plain_text(numpy.str_("2O")))
    <class 'str'>

    Raises:
        NotationError: `value` is no str, only claims to be one (its ``__class__``).
    """
    kind = type(value)
    if kind is str:
        return value  # type: ignore[return-value]
    if issubclass(kind, str):  # its type, not its __class__, which a mock may fake
        return str.__str__(value)
    raise NotationError(f"expected text, got {describe(value)}")


def text_of(value: object) -> str | None:
    """`value` as plain text (:func:`plain_text`) if its type is a str or a subclass, else
    ``None``: the one test of "is it text" for readers that take text or something else.

    >>> text_of("2O"), text_of(7)
    ('2O', None)
    """
    return plain_text(value) if issubclass(type(value), str) else None


def describe(value: object, limit: int = QUOTE_LIMIT, *, typed: bool = True) -> str:
    """A wrong value as an error message quotes it: a repr capped at `limit` characters
    and its type name, such as ``"'²O' (str)"``; with ``typed=False``, the repr alone.

    A value that may hold hidden cards (a State, a Match, an Observation, or any other
    object) is named by its type alone, such as ``"a State"``, so that an error
    message never leaks a hand or grows with the value.

    >>> describe("1Z"), describe(None), describe(list(range(100)), 20)
    ("'1Z' (str)", 'None (NoneType)', '[0, 1, 2, 3, 4, 5... (list)')
    >>> describe(object())
    'an object'

    It never raises: a value whose repr fails, a hand-built action without its
    fields say, is named by its type alone.
    """
    name = type(value).__name__
    try:
        shown = _short(value, max(limit, 8))
    except BARE_ERRORS:  # a hand-built value whose repr breaks: named by its type alone
        shown = None
    if shown is None:
        return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"
    return f"{shown} ({name})" if typed else shown


def _cap(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _short(value: object, limit: int, depth: int = 0) -> str | None:
    """A repr of `value` at most `limit` long, or ``None`` when it must not be shown."""
    kind = type(value)
    if isinstance(value, (str, bytes, bytearray)) and kind in _SCALARS:
        return _cap(repr(value[: limit + 1]), limit)  # the repr of the head only
    if kind in _SCALARS:
        return _cap(repr(value), limit)
    if isinstance(value, int) and kind is int:
        bits = value.bit_length()
        # Python refuses to print ints past about 4,300 digits: name the size instead.
        return _cap(repr(value), limit) if bits <= 4 * limit else f"<int of {bits} bits>"
    if kind.__module__ in _SAFE_MODULES:
        return _cap(repr(value), limit)
    if kind not in _CONTAINERS or not isinstance(value, (list, tuple, set, frozenset, dict)):
        return None
    brackets = _CONTAINERS[kind]
    if depth >= 3:  # deeper nesting (or a list holding itself) is elided
        return f"{brackets[0]}...{brackets[1]}"
    parts: list[str] = []
    size = 2
    items: Iterable[object] = value.items() if isinstance(value, dict) else value
    for item in items:
        if size > limit:
            break
        if isinstance(value, dict) and isinstance(item, tuple):
            key = _short(item[0], limit, depth + 1) or "..."
            part = f"{key}: {_short(item[1], limit, depth + 1) or '...'}"
        else:
            part = _short(item, limit, depth + 1) or f"<{type(item).__name__}>"
        parts.append(part)
        size += len(part) + 2
    return _cap(brackets[0] + ", ".join(parts) + brackets[1], limit)


#: The bare Python errors that a hand-built, self-contradictory value can raise inside
#: the library (an internal assertion among them); the public entry points turn them into
#: a `BriscaError`.
BARE_ERRORS = (
    TypeError,
    ValueError,
    LookupError,
    AttributeError,
    ArithmeticError,
    RecursionError,
    AssertionError,
)


@contextlib.contextmanager
def as_state_error(what: str) -> Iterator[None]:
    """Turn the bare Python errors that a hand-built, self-contradictory value can cause
    into a `StateError` saying that `what` is inconsistent, so that bad input always
    fails as a `BriscaError`. A `BriscaError` passes through unchanged."""
    try:
        yield
    except BriscaError:
        raise
    except BARE_ERRORS as error:
        raise as_brisca_error(what, error) from None


def as_brisca_error(what: str, error: BaseException) -> BriscaError:
    """`error` itself if it is a `BriscaError` (one is also a `ValueError`), else the
    `StateError` saying that `what` is inconsistent, for a bare Python error that a
    hand-built value caused."""
    if isinstance(error, BriscaError):
        return error
    # The error's type only: its text may quote the value, hidden cards and all.
    return StateError(f"{what} is inconsistent ({type(error).__name__})")


def checked_int(
    value: object,
    what: str,
    least: int = 0,
    most: int | None = None,
    *,
    error: type[BriscaError] = StateError,
) -> int:
    """`value`, if it is an int (a bool is not) from `least` to `most`; otherwise
    `error`, in the one shape every argument guard of the library uses.

    >>> checked_int(3, "seat", 0, 3)
    3
    >>> checked_int(True, "seat", 0, 3)
    Traceback (most recent call last):
    ...
    brisca.StateError: seat must be an int from 0 to 3, got True (bool)
    >>> checked_int(10**5000, "seed", most=2**1024 - 1)
    Traceback (most recent call last):
    ...
    brisca.StateError: seed must be an int from 0 to 2**1024 - 1, got <int of 16610 bits> (int)
    """
    if type(value) is not int or value < least or (most is not None and value > most):
        raise error(f"{what} must be {int_range(least, most)}, got {describe(value)}")
    return value


def as_integer(value: object) -> int | None:
    """`value` as a Python int if it is an integer: an int, or a value that says it is
    one through ``__index__``, as numpy's do (a bool is not, of either kind); else
    ``None``.

    >>> as_integer(3), as_integer(True), as_integer(3.0)
    (3, None, None)
    """
    if type(value) is int:
        return value
    if isinstance(value, bool):  # numpy's bool has no __index__
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except Exception:  # no __index__, or one that fails however it may: not an integer
        return None


def checked_integer(
    value: object,
    what: str,
    least: int,
    most: int | None = None,
    *,
    error: type[BriscaError] = StateError,
) -> int:
    """`checked_int` for the readers of arrays and frameworks, which hand out numpy
    integers: `value` as a Python int, if :func:`as_integer` reads it as one from `least`
    to `most`; otherwise `error`, saying what `what` must be."""
    number = as_integer(value)
    if number is None or number < least or (most is not None and number > most):
        # An integer is named by its value (which an array's scalar type would hide).
        shown = (
            describe(value)
            if number is None
            else f"{describe(number, typed=False)} ({type(value).__name__})"
        )
        raise error(
            f"{what} must be {int_range(least, most)} (a numpy integer will do), got {shown}"
        )
    return number


def int_range(least: int, most: int | None) -> str:
    """The range of :func:`checked_int` in words: ``a non-negative int``, ``a positive
    int``, ``an int of at least 2``, ``an int from 0 to 3``; a bound past 2**64 is
    written as a power of two less one."""
    if most is None:
        return {0: "a non-negative int", 1: "a positive int"}.get(
            least, f"an int of at least {least}"
        )
    top = f"2**{most.bit_length()} - 1" if most >= 2**64 and (most + 1) & most == 0 else str(most)
    return f"an int from {least} to {top}"


def checked_type(
    value: object, kind: type[T], what: str = "", *, error: type[BriscaError] = StateError
) -> T:
    """`value`, if it is exactly of type `kind` (the library's own values are never
    subclassed); otherwise `error`: ``expected a brisca.State, got a Match``."""
    if type(value) is not kind:
        name = what or f"a brisca.{kind.__name__}"
        raise error(f"expected {name}, got {describe(value)}")
    return value


def read_at_most(
    items: Iterable[T], count: int, what: str, *, error: type[BriscaError] = StateError
) -> list[T]:
    """The first `count` items of `items`, all of them if fewer: an endless iterable is
    read no further, so a caller that takes up to ``n`` items asks for ``n + 1`` and
    refuses the extra one. An iteration that fails however it may (an ``__iter__`` that
    gives no iterator, a generator that raises) is `error`, saying that `what` cannot
    be read; a `BriscaError` raised inside, and a `MemoryError`, pass through.

    >>> read_at_most(iter(range(10**9)), 3, "cards")
    [0, 1, 2]
    >>> read_at_most((int(c) for c in "12x"), 5, "cards")
    Traceback (most recent call last):
    ...
    brisca.StateError: cards cannot be read (ValueError)
    """
    try:
        return list(itertools.islice(items, count))
    except (BriscaError, MemoryError):
        raise
    except Exception as failure:  # only the caller's iteration runs here, whatever it raises
        # The failure's type only: its text may quote a value, hidden cards and all.
        raise error(f"{what} cannot be read ({type(failure).__name__})") from None
