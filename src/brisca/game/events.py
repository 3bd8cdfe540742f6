"""What an action did, as small frozen events, and what each seat may see of them.

:func:`brisca.step` applies an action and returns the events of that
transition, in the order they happened: a card played, a trick won with its
points, the cards drawn, the trump revealed, a swap, a black hand, a signal,
an auction call, the hand's end. The engine emits them as it moves the cards,
so they cost little more than the transition itself.

Each event can be seen from a seat with :meth:`Event.view` (or
:func:`events_for`): a card another seat drew becomes a draw of a hidden card
(``card=None``), unless it was the face-up turned card, and a team-private
signal is seen only by the signaller's side. The views are what a server sends
to each client; :meth:`Event.to_dict` makes them JSON-ready.

>>> import brisca
>>> from brisca.game.events import events_for
>>> state = brisca.new_game(brisca.preset("spanish-2p"), seed=7)
>>> state = brisca.apply(state, brisca.Play("2O"))
>>> after, happened = brisca.step(state, brisca.Play("2C"))  # the 2 of trumps takes it
>>> [type(e).__name__ for e in happened]
['CardPlayed', 'TrickWon', 'CardsDrawn', 'CardsDrawn']
>>> [e.to_dict() for e in events_for(0, happened)][1:]  # seat 0 does not see seat 1's card
[{'type': 'trick_won', 'seat': 1, 'points': 0, 'trick': 0}, \
{'type': 'cards_drawn', 'seat': 1, 'card': None, 'public': False}, \
{'type': 'cards_drawn', 'seat': 0, 'card': '6B', 'public': False}]
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Final

import attr
import attrs

from brisca.game.cards import Card, Suit
from brisca.game.errors import (
    BARE_ERRORS,
    StateError,
    as_brisca_error,
    checked_int,
    describe,
    read_at_most,
)
from brisca.game.jsonio import readable
from brisca.game.state import Seat
from brisca.game.values import COMPILED, Kind, frozen, refuse_mistyped, sealed

_NONE: Final = type(None)

__all__ = [
    "Announced",
    "AuctionWon",
    "BlackHandClaimed",
    "CardPlayed",
    "CardsDrawn",
    "Event",
    "HandEnded",
    "PartnerRevealed",
    "Signalled",
    "Swapped",
    "TrickWon",
    "TrumpRevealed",
    "events_for",
]


@attr.s(
    auto_attribs=True, auto_detect=True, frozen=True, slots=True, order=False, weakref_slot=False
)
class Event:
    """Something that happened in a hand. Every event type is a frozen attrs class, built
    as the values of a hand are (see `brisca.game.values`)."""

    def __reduce__(self) -> tuple[Any, ...]:
        kind = type(self)
        return (kind, tuple(getattr(self, f.name) for f in attrs.fields(kind)))

    def view(self, seat: object) -> Event | None:
        """The event as `seat` sees it, or ``None`` if `seat` does not see it at all."""
        _check_seat(seat)
        return self

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON-ready data: ``{"type": "card_played", "seat": 0, "card": "3C"}``.

        Raises:
            StateError: a hand-built event holds a value that cannot be written.
        """
        try:
            name = _type_name(type(self))
            fields = {f.name: readable(getattr(self, f.name)) for f in attrs.fields(type(self))}
        except BARE_ERRORS as error:  # inline, not a with: this runs for every event sent
            raise as_brisca_error("the event", error) from None
        return {"type": name, **fields}


_TYPE_NAMES: dict[type, str] = {}  # one entry per event class, so bounded by the program


def _type_name(kind: type) -> str:
    """An event type's name in snake case: ``CardPlayed`` is ``card_played``."""
    name = _TYPE_NAMES.get(kind)
    if name is None:
        name = _TYPE_NAMES[kind] = re.sub(r"(?<!^)(?=[A-Z])", "_", kind.__name__).lower()
    return name


def _check_seat(seat: object) -> None:
    checked_int(seat, "seat")


_CARD_PLAYED_KINDS: Final[tuple[Kind, ...]] = (int, Card)


@attr.s(
    auto_attribs=True,
    auto_detect=True,
    frozen=True,
    slots=True,
    init=False,
    order=False,
    weakref_slot=False,
)
class CardPlayed(Event):
    """`seat` played `card` to the trick."""

    seat: Seat
    card: Card

    def __init__(self, seat: Any, card: Any) -> None:
        if COMPILED:  # see brisca.game.values.refuse_mistyped
            refuse_mistyped(CardPlayed, _CARD_PLAYED_KINDS, (seat, card))
        # Any, and stored under `try`: see `brisca.game.state.State.__init__`.
        try:
            self.seat = seat  # type: ignore[misc]
            self.card = card  # type: ignore[misc]
        except TypeError as error:
            raise StateError(f"CardPlayed cannot hold that: {error}") from None
        if type(self) is not CardPlayed:  # interpreted: sealed (see brisca.game.values)
            self.__class__ = CardPlayed


frozen(CardPlayed, CardPlayed)


_TRICK_WON_KINDS: Final[tuple[Kind, ...]] = (int, int, int)


@attr.s(
    auto_attribs=True,
    auto_detect=True,
    frozen=True,
    slots=True,
    init=False,
    order=False,
    weakref_slot=False,
)
class TrickWon(Event):
    """`seat` won trick number `trick` (from 0), worth `points` card points."""

    seat: Seat
    points: int
    trick: int

    def __init__(self, seat: Any, points: Any, trick: Any) -> None:
        if COMPILED:  # see brisca.game.values.refuse_mistyped
            refuse_mistyped(TrickWon, _TRICK_WON_KINDS, (seat, points, trick))
        # Any, and stored under `try`: see `brisca.game.state.State.__init__`.
        try:
            self.seat = seat  # type: ignore[misc]
            self.points = points  # type: ignore[misc]
            self.trick = trick  # type: ignore[misc]
        except TypeError as error:
            raise StateError(f"TrickWon cannot hold that: {error}") from None
        if type(self) is not TrickWon:  # interpreted: sealed (see brisca.game.values)
            self.__class__ = TrickWon


frozen(TrickWon, TrickWon)


_CARDS_DRAWN_KINDS: Final[tuple[Kind, ...]] = (int, (Card, _NONE), bool)


@attr.s(
    auto_attribs=True,
    auto_detect=True,
    frozen=True,
    slots=True,
    init=False,
    order=False,
    weakref_slot=False,
)
class CardsDrawn(Event):
    """`seat` drew `card` from the talon; ``card=None`` in the view of a seat that cannot see it.

    `public` marks the turned card, which everybody sees drawn.
    """

    seat: Seat
    card: Card | None
    public: bool = False

    def __init__(self, seat: Any, card: Any, public: Any = False) -> None:
        if COMPILED:  # see brisca.game.values.refuse_mistyped
            refuse_mistyped(CardsDrawn, _CARDS_DRAWN_KINDS, (seat, card, public))
        # Any, and stored under `try`: see `brisca.game.state.State.__init__`.
        try:
            self.seat = seat  # type: ignore[misc]
            self.card = card  # type: ignore[misc]
            self.public = public  # type: ignore[misc]
        except TypeError as error:
            raise StateError(f"CardsDrawn cannot hold that: {error}") from None
        if type(self) is not CardsDrawn:  # interpreted: sealed (see brisca.game.values)
            self.__class__ = CardsDrawn

    def view(self, seat: object) -> Event | None:
        """The draw as `seat` sees it: the card hidden unless `seat` drew it or it is public."""
        _check_seat(seat)
        try:
            if seat == self.seat or self.public or self.card is None:
                return self
        except BARE_ERRORS as error:  # a hand-built draw (an odd `public`)
            raise as_brisca_error("the event", error) from None
        return CardsDrawn(self.seat, None, False)


frozen(CardsDrawn, CardsDrawn)


_TRUMP_REVEALED_KINDS: Final[tuple[Kind, ...]] = (Suit, (Card, _NONE))


@attr.s(
    auto_attribs=True,
    auto_detect=True,
    frozen=True,
    slots=True,
    init=False,
    order=False,
    weakref_slot=False,
)
class TrumpRevealed(Event):
    """The trump became known to everybody: the covered card turned face up (cubierta),
    or drawn, or a suit named or called in an auction game (then `card` is ``None``)."""

    suit: Suit
    card: Card | None

    def __init__(self, suit: Any, card: Any) -> None:
        if COMPILED:  # see brisca.game.values.refuse_mistyped
            refuse_mistyped(TrumpRevealed, _TRUMP_REVEALED_KINDS, (suit, card))
        # Any, and stored under `try`: see `brisca.game.state.State.__init__`.
        try:
            self.suit = suit  # type: ignore[misc]
            self.card = card  # type: ignore[misc]
        except TypeError as error:
            raise StateError(f"TrumpRevealed cannot hold that: {error}") from None
        if type(self) is not TrumpRevealed:  # interpreted: sealed (see brisca.game.values)
            self.__class__ = TrumpRevealed


frozen(TrumpRevealed, TrumpRevealed)


_SWAPPED_KINDS: Final[tuple[Kind, ...]] = (int, Card, Card)


@attr.s(
    auto_attribs=True,
    auto_detect=True,
    frozen=True,
    slots=True,
    init=False,
    order=False,
    weakref_slot=False,
)
class Swapped(Event):
    """`seat` gave `given` for the turned card `taken`, in view of the table."""

    seat: Seat
    given: Card
    taken: Card

    def __init__(self, seat: Any, given: Any, taken: Any) -> None:
        if COMPILED:  # see brisca.game.values.refuse_mistyped
            refuse_mistyped(Swapped, _SWAPPED_KINDS, (seat, given, taken))
        # Any, and stored under `try`: see `brisca.game.state.State.__init__`.
        try:
            self.seat = seat  # type: ignore[misc]
            self.given = given  # type: ignore[misc]
            self.taken = taken  # type: ignore[misc]
        except TypeError as error:
            raise StateError(f"Swapped cannot hold that: {error}") from None
        if type(self) is not Swapped:  # interpreted: sealed (see brisca.game.values)
            self.__class__ = Swapped


frozen(Swapped, Swapped)


_BLACK_HAND_CLAIMED_KINDS: Final[tuple[Kind, ...]] = (int, bool)


@attr.s(
    auto_attribs=True,
    auto_detect=True,
    frozen=True,
    slots=True,
    init=False,
    order=False,
    weakref_slot=False,
)
class BlackHandClaimed(Event):
    """`seat`'s black hand (the 1, 3 and 12 of trumps) won the round; `automatic` when it
    won by itself rather than by a claim."""

    seat: Seat
    automatic: bool = False

    def __init__(self, seat: Any, automatic: Any = False) -> None:
        if COMPILED:  # see brisca.game.values.refuse_mistyped
            refuse_mistyped(BlackHandClaimed, _BLACK_HAND_CLAIMED_KINDS, (seat, automatic))
        # Any, and stored under `try`: see `brisca.game.state.State.__init__`.
        try:
            self.seat = seat  # type: ignore[misc]
            self.automatic = automatic  # type: ignore[misc]
        except TypeError as error:
            raise StateError(f"BlackHandClaimed cannot hold that: {error}") from None
        if type(self) is not BlackHandClaimed:  # interpreted: sealed (see brisca.game.values)
            self.__class__ = BlackHandClaimed


frozen(BlackHandClaimed, BlackHandClaimed)


_SIGNALLED_KINDS: Final[tuple[Kind, ...]] = (int, str, (tuple, _NONE))


@attr.s(
    auto_attribs=True,
    auto_detect=True,
    frozen=True,
    slots=True,
    init=False,
    order=False,
    weakref_slot=False,
)
class Signalled(Event):
    """`seat` made `signal`; `audience` is ``None`` when all see it, else the seats that do."""

    seat: Seat
    signal: str
    audience: tuple[Seat, ...] | None = None

    def __init__(self, seat: Any, signal: Any, audience: Any = None) -> None:
        if COMPILED:  # see brisca.game.values.refuse_mistyped
            refuse_mistyped(Signalled, _SIGNALLED_KINDS, (seat, signal, audience))
        # Any, and stored under `try`: see `brisca.game.state.State.__init__`.
        try:
            self.seat = seat  # type: ignore[misc]
            self.signal = signal  # type: ignore[misc]
            self.audience = audience  # type: ignore[misc]
        except TypeError as error:
            raise StateError(f"Signalled cannot hold that: {error}") from None
        if type(self) is not Signalled:  # interpreted: sealed (see brisca.game.values)
            self.__class__ = Signalled

    def view(self, seat: object) -> Event | None:
        """The signal if `seat` may see it, else ``None``."""
        _check_seat(seat)
        try:
            if self.audience is None or seat in self.audience:
                return self
        except BARE_ERRORS as error:  # a hand-built audience that holds no seats
            raise as_brisca_error("the event", error) from None
        return None


frozen(Signalled, Signalled)


_ANNOUNCED_KINDS: Final[tuple[Kind, ...]] = (int, str)


@attr.s(
    auto_attribs=True,
    auto_detect=True,
    frozen=True,
    slots=True,
    init=False,
    order=False,
    weakref_slot=False,
)
class Announced(Event):
    """`seat` made a public call, such as a bid, a pass, a named trump, a called card or a
    cante; `action` is its canonical notation, such as ``"bid 70"`` or ``"sing E"``."""

    seat: Seat
    action: str

    def __init__(self, seat: Any, action: Any) -> None:
        if COMPILED:  # see brisca.game.values.refuse_mistyped
            refuse_mistyped(Announced, _ANNOUNCED_KINDS, (seat, action))
        # Any, and stored under `try`: see `brisca.game.state.State.__init__`.
        try:
            self.seat = seat  # type: ignore[misc]
            self.action = action  # type: ignore[misc]
        except TypeError as error:
            raise StateError(f"Announced cannot hold that: {error}") from None
        if type(self) is not Announced:  # interpreted: sealed (see brisca.game.values)
            self.__class__ = Announced


frozen(Announced, Announced)


_AUCTION_WON_KINDS: Final[tuple[Kind, ...]] = (int, str)


@attr.s(
    auto_attribs=True,
    auto_detect=True,
    frozen=True,
    slots=True,
    init=False,
    order=False,
    weakref_slot=False,
)
class AuctionWon(Event):
    """The auction closed: `seat` is the declarer, with the winning `bid` (its notation)."""

    seat: Seat
    bid: str

    def __init__(self, seat: Any, bid: Any) -> None:
        if COMPILED:  # see brisca.game.values.refuse_mistyped
            refuse_mistyped(AuctionWon, _AUCTION_WON_KINDS, (seat, bid))
        # Any, and stored under `try`: see `brisca.game.state.State.__init__`.
        try:
            self.seat = seat  # type: ignore[misc]
            self.bid = bid  # type: ignore[misc]
        except TypeError as error:
            raise StateError(f"AuctionWon cannot hold that: {error}") from None
        if type(self) is not AuctionWon:  # interpreted: sealed (see brisca.game.values)
            self.__class__ = AuctionWon


frozen(AuctionWon, AuctionWon)


_PARTNER_REVEALED_KINDS: Final[tuple[Kind, ...]] = (int,)


@attr.s(
    auto_attribs=True,
    auto_detect=True,
    frozen=True,
    slots=True,
    init=False,
    order=False,
    weakref_slot=False,
)
class PartnerRevealed(Event):
    """Chiamata: the called card was played, so everybody now knows its holder, `seat`."""

    seat: Seat

    def __init__(self, seat: Any) -> None:
        if COMPILED:  # see brisca.game.values.refuse_mistyped
            refuse_mistyped(PartnerRevealed, _PARTNER_REVEALED_KINDS, (seat,))
        # Any, and stored under `try`: see `brisca.game.state.State.__init__`.
        try:
            self.seat = seat  # type: ignore[misc]
        except TypeError as error:
            raise StateError(f"PartnerRevealed cannot hold that: {error}") from None
        if type(self) is not PartnerRevealed:  # interpreted: sealed (see brisca.game.values)
            self.__class__ = PartnerRevealed


frozen(PartnerRevealed, PartnerRevealed)


_HAND_ENDED_KINDS: Final[tuple[Kind, ...]] = (tuple, (int, _NONE), bool)


@attr.s(
    auto_attribs=True,
    auto_detect=True,
    frozen=True,
    slots=True,
    init=False,
    order=False,
    weakref_slot=False,
)
class HandEnded(Event):
    """The hand is over: card points per side, the winning side's index (``None`` for a
    tie) and whether it was void (everyone passed in an auction)."""

    points: tuple[int, ...]
    winner: int | None
    void: bool = False

    def __init__(self, points: Any, winner: Any, void: Any = False) -> None:
        if COMPILED:  # see brisca.game.values.refuse_mistyped
            refuse_mistyped(HandEnded, _HAND_ENDED_KINDS, (points, winner, void))
        # Any, and stored under `try`: see `brisca.game.state.State.__init__`.
        try:
            self.points = points  # type: ignore[misc]
            self.winner = winner  # type: ignore[misc]
            self.void = void  # type: ignore[misc]
        except TypeError as error:
            raise StateError(f"HandEnded cannot hold that: {error}") from None
        if type(self) is not HandEnded:  # interpreted: sealed (see brisca.game.values)
            self.__class__ = HandEnded


frozen(HandEnded, HandEnded)


# Every event type is one of the above (see `brisca.game.values.sealed`).
sealed(Event)

#: The most events a reader takes from an iterable that is not a list or tuple: more than
#: a whole match makes, so that an endless one is refused rather than followed.
MAX_EVENTS = 2**21


def bounded_events(events: Iterable[Event]) -> tuple[Event, ...] | list[Event]:
    """`events` as a tuple or list of at most `MAX_EVENTS`: any other iterable is read one
    past that at most.

    Raises:
        StateError: it holds more, is not iterable, or cannot be read.
    """
    taken: tuple[Event, ...] | list[Event]
    if type(events) is tuple or type(events) is list:  # what step gives
        taken = events
    elif isinstance(events, (str, bytes)) or not isinstance(events, Iterable):
        raise StateError(f"expected brisca events, got {describe(events)}")
    else:
        taken = read_at_most(events, MAX_EVENTS + 1, "the events")
    if len(taken) > MAX_EVENTS:
        raise StateError(f"more than {MAX_EVENTS} events (MAX_EVENTS)")
    return taken


def events_for(seat: object, events: Iterable[Event]) -> tuple[Event, ...]:
    """The events as `seat` sees them, leaving out those it does not see at all.

    Raises:
        StateError: `seat` is not a seat, `events` is not an iterable of events (or
            holds more than `MAX_EVENTS`), or an event is self-contradictory.
    """
    _check_seat(seat)
    seen = []
    try:  # no check before the loop but its budget: this runs for every seat after every move
        for event in bounded_events(events):
            if not isinstance(event, Event):
                raise StateError(f"expected brisca events, got {describe(event)}")
            view = event.view(seat)
            if view is not None:
                seen.append(view)
    except BARE_ERRORS as error:
        raise as_brisca_error("an event", error) from None
    return tuple(seen)
