"""`Playable`: what the engine's functions take besides a hand's `State`.

Its own module, apart from the engine's: compiled, the engine's classes are native
ones, which a class of Python code (a `Match`, or a caller's own) cannot extend.
"""

from __future__ import annotations

import abc
from typing import Any, Generic, TypeVar

from brisca.game.actions import Action
from brisca.game.events import Event

__all__ = ["Playable"]

ObservationT = TypeVar("ObservationT", covariant=True)
ResultT = TypeVar("ResultT", covariant=True)
P = TypeVar("P", bound="Playable[Any, Any]")


class Playable(abc.ABC, Generic[ObservationT, ResultT]):
    """What the engine's functions take besides a hand's `State`: a `brisca.Match`.

    `legal_actions`, `is_legal`, `apply`, `observe` and `result` hand such a value
    to its own methods, so one loop runs a hand or a whole match, while the hand
    engine knows nothing of matches.
    """

    __slots__ = ()

    @abc.abstractmethod
    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of the seat to act, in a fixed order."""

    @abc.abstractmethod
    def is_legal(self, action: Action | str) -> bool:
        """Whether `action` is legal now."""

    @abc.abstractmethod
    def apply(self: P, action: Action | str) -> P:
        """The value after `action`."""

    @abc.abstractmethod
    def observe(self, seat: int) -> ObservationT:
        """What `seat` may know."""

    @abc.abstractmethod
    def step(self: P, action: Action | str) -> tuple[P, tuple[Event, ...]]:
        """The value after `action`, and the events of that step."""

    @abc.abstractmethod
    def result(self) -> ResultT:
        """The outcome, once over."""
