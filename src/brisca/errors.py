"""The exceptions raised by brisca.

Every error the library raises on bad input is a :class:`BriscaError`, which is
a :class:`ValueError`, so callers can catch one type at the boundary.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

__all__ = [
    "BriscaError",
    "IllegalActionError",
    "NotationError",
    "RulesError",
    "StateError",
    "as_state_error",
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


@contextlib.contextmanager
def as_state_error(what: str) -> Iterator[None]:
    """Turn the bare Python errors that a hand-built, self-contradictory value can cause
    into a `StateError` saying that `what` is inconsistent, so that bad input always
    fails as a `BriscaError`. A `BriscaError` passes through unchanged."""
    try:
        yield
    except BriscaError:
        raise
    except (KeyError, IndexError, TypeError, AttributeError, ValueError, RecursionError) as error:
        raise StateError(f"{what} is inconsistent: {error!r}") from None
