"""`Option`: the base of every enumerated `Rules` option.

An option reads from its member or its string value, so ``Rules(deck="spanish48")``
works, and any other value raises a :class:`RulesError` that names the option,
lists the choices and quotes the value shortly.
"""

from __future__ import annotations

import enum
import re
from typing import Any

from brisca.game.errors import BARE_ERRORS, RulesError, describe, plain_text

__all__ = ["Option"]


class _OptionType(enum.EnumMeta):
    """Reads a member by value itself: `enum` quotes a refused value with ``%r`` even
    after ``_missing_`` has raised, which fails on an int of 5,000 digits and copies a
    megabyte string whole."""

    def __call__(cls, value: Any, *args: Any, **kwargs: Any) -> Any:
        if args or kwargs:  # the functional API, which makes a new enum
            return super().__call__(value, *args, **kwargs)
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            value = plain_text(value)
        try:
            return cls._value2member_map_[value]
        except BARE_ERRORS:  # not a value, unhashable, or a hash or == that raises
            choices = ", ".join(repr(m.value) for m in cls._member_map_.values())
            name = cls.option_name()  # type: ignore[attr-defined]
            raise RulesError(f"{name} must be one of {choices}, got {describe(value)}") from None


class Option(enum.Enum, metaclass=_OptionType):
    """An enumerated option; its value is the option's text form."""

    @classmethod
    def option_name(cls) -> str:
        """The `Rules` field this option sets: the class name in snake case, unless overridden."""
        override: str | None = getattr(cls, "__option__", None)
        return override or re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()
