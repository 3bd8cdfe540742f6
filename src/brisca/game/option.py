"""`Option`: the base of every enumerated `Rules` option.

An option reads from its member or its string value, so ``Rules(deck="spanish48")``
works, and an unknown value raises a :class:`RulesError` that names the option
and lists the choices.
"""

from __future__ import annotations

import enum
import re

from brisca.game.errors import RulesError

__all__ = ["Option"]


class Option(enum.Enum):
    """An enumerated option; its value is the option's text form."""

    @classmethod
    def option_name(cls) -> str:
        """The `Rules` field this option sets: the class name in snake case, unless overridden."""
        override: str | None = getattr(cls, "__option__", None)
        return override or re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()

    @classmethod
    def _missing_(cls, value: object) -> Option:
        choices = ", ".join(repr(m.value) for m in cls)
        raise RulesError(f"{cls.option_name()} must be one of {choices}; got {value!r}")
