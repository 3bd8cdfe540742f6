"""`Option`: the base of every enumerated `Rules` option.

An option reads from its member or its string value, so ``Rules(deck="spanish48")``
works, and any other value raises a :class:`RulesError` that names the option,
lists the choices and quotes the value shortly.
"""

from __future__ import annotations

import enum
import re
from typing import Any

from brisca.game.errors import BARE_ERRORS, BriscaError, RulesError, describe, text_of

__all__ = ["ByValue", "Option"]


class ByValue(enum.EnumMeta):
    """The metaclass of the library's enums: reads a member by value itself, a str
    subclass as its plain text, and refuses any other value with the enum's own
    ``_refused(value)`` error. `enum` quotes a refused value with ``%r`` even after
    ``_missing_`` has raised, which fails on an int of 5,000 digits and copies a
    megabyte string whole, and lets a value's own failing hash out bare."""

    def __call__(cls, value: Any, *args: Any, **kwargs: Any) -> Any:
        if args or kwargs:  # the functional API, which makes a new enum
            return super().__call__(value, *args, **kwargs)
        if type(value) is cls:  # its type, not its __class__, which a mock may fake
            return value
        text = text_of(value)
        if text is not None:
            value = text
        try:
            return cls._value2member_map_[value]
        except BARE_ERRORS:  # not a value, unhashable, or a hash or == that raises
            raise cls._refused(value) from None  # type: ignore[attr-defined]


class Option(enum.Enum, metaclass=ByValue):
    """An enumerated option; its value is the option's text form."""

    @classmethod
    def _refused(cls, value: object) -> BriscaError:
        choices = ", ".join(repr(m.value) for m in cls._member_map_.values())
        return RulesError(f"{cls.option_name()} must be one of {choices}, got {describe(value)}")

    @classmethod
    def option_name(cls) -> str:
        """The `Rules` field this option sets: the class name in snake case, unless overridden."""
        override: str | None = getattr(cls, "__option__", None)
        return override or re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()
