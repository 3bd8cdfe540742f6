"""The one protocol every optional rule implements, so the engine can iterate them.

A :class:`Variant` bundles what an optional rule of SPEC §2 brings to a hand:
whether a `Rules` value switches it on, the action types it owns, what it
offers the seat to act, why it refuses an action, the state after its action
(and the events of that step), what it adds to a seat's observation, and how it
scores a hand it ends or decides. Some rules also bind the other moves: arrastre
limits which cards may be played, and an automatic black hand ends the hand when
cards change hands.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

import attrs

from brisca.game.actions import Action
from brisca.game.cards import Card
from brisca.game.events import Event
from brisca.game.rules import Rules
from brisca.game.state import HandResult, Seat, State

__all__ = ["Log", "Variant"]

#: Where a transition writes its events: a list, or ``None`` when nobody asked for them.
Log: TypeAlias = "list[Event] | None"


def _never(action: Action, rules: Rules) -> bool:
    return False


def _offers_nothing(state: State, seat: Seat) -> tuple[Action, ...]:
    return ()


def _owns_nothing(state: State, seat: Seat, action: Action) -> str | None:
    raise AssertionError("a variant without actions was asked about an action")


def _does_nothing(state: State, seat: Seat, action: Action, log: Log) -> State:
    raise AssertionError("a variant without actions was asked to apply one")


@attrs.frozen
class Variant:
    """An optional rule: its switch, its actions and its hooks into the engine."""

    #: A short name, such as ``"swaps"``.
    name: str
    #: Whether the rules play it.
    switched_on: Callable[[Rules], bool]
    #: The action types it owns; the engine hands each action to its owner.
    actions: tuple[type[Action], ...] = ()
    #: Every action of its types under any rules, in a fixed order: the encoding's
    #: action space and the notation's examples are built from these.
    universe: tuple[Action, ...] = ()
    #: Whether some state of the rules may offer the action (a superset is fine).
    possible: Callable[[Action, Rules], bool] = _never
    #: The actions the seat to act may take now, in a fixed order.
    offered: Callable[[State, Seat], tuple[Action, ...]] = _offers_nothing
    #: Why the seat to act may not take one of its actions now, or ``None`` if it may.
    refusal: Callable[[State, Seat, Action], str | None] = _owns_nothing
    #: The state after the seat to act takes one of its actions (already found legal),
    #: appending what happened to the log when there is one.
    apply: Callable[[State, Seat, Action, Log], State] = _does_nothing
    #: Whether its actions move cards between hands and the table (a swap).
    moves_cards: bool = False
    #: Whether its actions come while the trump is still unknown (the auction);
    #: every other action waits for the trump.
    before_trump: bool = False
    #: The cards a follower may play and, when that is not the whole hand, the duty why.
    playable: Callable[[State, Seat], tuple[tuple[Card, ...], str]] | None = None
    #: The state after cards changed hands (a deal, a draw, a swap), when the rule
    #: acts on that; ``None`` when it does not.
    after_cards_move: Callable[[State, Log], State] | None = None
    #: Events of this rule that a card's play causes, given the state before the play,
    #: the seat and the card; ``None`` when it has none.
    on_play: Callable[[State, Seat, Card, Log], None] | None = None
    #: What it adds to a seat's observation, by `Observation` field name.
    observe: Callable[[State, Seat], dict[str, Any]] | None = None
    #: The result of a finished hand that this rule scores (a black hand, a contract),
    #: given the state, the card points by side and the side that won the last trick;
    #: ``None`` leaves it to the next rule, and in the end to the count of card points.
    result: Callable[[State, tuple[int, ...], int | None], HandResult | None] | None = None
