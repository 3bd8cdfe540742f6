"""Observations as documents: every field of a seat's view as readable JSON-ready data,
safe to send to that seat.

Cards are codes (``"3C"``), suits letters, options their text, records objects,
actions their notation, and the rules a preset plus overrides.

A server writes a view after every move, for every seat, so the writer is built
for speed: each field has a converter of its own, and a finished hand of a match
(an immutable value that every later view shares) is converted once and copied
out to the next views. The output is
exactly what the library's generic converter, :func:`brisca.game.jsonio.readable`,
gives (``tests/test_views.py`` checks it over random games of every preset).
"""

from __future__ import annotations

import enum
import threading
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

import attrs

from brisca.game.cards import Card, Suit
from brisca.game.errors import BARE_ERRORS, StateError, as_brisca_error, checked_int, describe
from brisca.game.events import Event, bounded_events
from brisca.game.jsonio import readable
from brisca.game.match import HandRecord, MatchObservation
from brisca.game.presets import rules_to_dict
from brisca.game.rules import Rules
from brisca.game.state import Observation, Trick

__all__ = ["events_to_dicts", "observation_to_dict"]

Converter = Callable[[Any], Any]


def observation_to_dict(
    observation: Observation | MatchObservation, *, tricks_from: int | None = None
) -> dict[str, Any]:
    """Every field of a hand's or a match's observation as readable JSON-ready data.

    Cards are codes, suits letters, options their text, actions their notation,
    fractions ``[numerator, denominator]``, and the rules a preset plus overrides
    (:func:`rules_to_dict`). A hand's view adds ``side_points``; a match's view
    gives its hand in progress (``current``) in the same form, without the rules
    again, and adds ``to_act`` and ``hand_number``. It lists only the latest
    finished hands (``hands``, at most `brisca.game.match.VIEW_HANDS`) and counts
    the others (``earlier_hands``), so its size does not grow with the match.

    With `tricks_from`, the hand's ``tricks`` (a match's ``current.tricks``) hold
    only the finished tricks from that index on, and a ``tricks_from`` key says so:
    what a reader that holds the earlier ones needs (the server's updates). A
    match that is over has no hand, and no such key.

    Every result is new: changing it changes no other.

    >>> import brisca
    >>> view = brisca.observe(brisca.new_game(brisca.preset("spanish-2p"), seed=7), 0)
    >>> data = observation_to_dict(view)
    >>> data["hand"], data["trump"], data["trump_card"], data["stock_size"], data["sides"]
    (['2O', '11C', '4C'], 'C', '3C', 33, [[0], [1]])
    >>> data["rules"]
    {'preset': 'spanish-2p', 'overrides': {}}

    Raises:
        StateError: `observation` is not an Observation or a MatchObservation, or
            is self-contradictory; `tricks_from` is not an int from 0 to the number
            of finished tricks.
    """
    if tricks_from is not None:
        checked_int(tricks_from, "tricks_from")
    # The guards are inline, not a with: a server writes a view per seat after every move.
    if isinstance(observation, MatchObservation):
        try:
            out = {name: convert(getattr(observation, name)) for name, convert in _MATCH_FIELDS}
            current = observation.current
            if current is not None:
                out["current"] = _hand_dict(current, False, tricks_from)
            out["to_act"] = observation.to_act
            out["hand_number"] = observation.hand_number
        except BARE_ERRORS as error:
            raise as_brisca_error("the observation", error) from None
        return out
    if not isinstance(observation, Observation):
        raise StateError(
            f"expected a brisca.Observation or MatchObservation, got {describe(observation)}"
        )
    try:
        return _hand_dict(observation, True, tricks_from)
    except BARE_ERRORS as error:
        raise as_brisca_error("the observation", error) from None


def events_to_dicts(events: Iterable[Event]) -> list[dict[str, Any]]:
    """Each event as JSON-ready data: exactly what its :meth:`~brisca.game.events.Event.to_dict`
    gives, written with the fields of its type looked up once.

    >>> from brisca.game.events import CardPlayed
    >>> from brisca.game.cards import Card
    >>> events_to_dicts([CardPlayed(0, Card.parse("3C"))])
    [{'type': 'card_played', 'seat': 0, 'card': '3C'}]

    Raises:
        StateError: `events` is not a sequence of events, or holds more than
            `brisca.game.events.MAX_EVENTS` (an endless one is read no further), or an
            event is self-contradictory (a value in it that cannot be written).
    """
    if isinstance(events, (str, bytes)) or not isinstance(events, Iterable):
        raise StateError(f"expected an iterable of brisca events, got {describe(events)}")
    taken = bounded_events(events)
    out = []
    try:  # inline, not a with: this runs for every event a server sends
        for event in taken:
            kind = type(event)
            form = _EVENT_FORMS.get(kind, _UNKNOWN)
            if form is _UNKNOWN:
                if not isinstance(event, Event):
                    raise StateError(f"expected brisca events, got {describe(event)}")
                form = _EVENT_FORMS.setdefault(kind, _event_form(event))
            if form is None:
                out.append(event.to_dict())
                continue
            name, names = form
            data = {"type": name}
            for field in names:
                data[field] = readable(getattr(event, field))
            out.append(data)
    except BARE_ERRORS as error:
        raise as_brisca_error("the event", error) from None
    return out


_UNKNOWN = object()
# By event type: its name and fields as its to_dict writes them; None for a type
# whose to_dict writes more (or less) than its fields, which is asked each time.
_EVENT_FORMS: dict[type, Any] = {}


def _event_form(event: Event) -> tuple[str, tuple[str, ...]] | None:
    """How to_dict writes events of `event`'s type, read off what it writes for this one."""
    data = event.to_dict()
    names = tuple(f.name for f in attrs.fields(type(event)))
    if list(data) != ["type", *names] or not isinstance(data["type"], str):
        return None
    return data["type"], names


def _hand_dict(observation: Observation, rules: bool, tricks_from: int | None) -> dict[str, Any]:
    if tricks_from is None:
        fields = _HAND_FIELDS if rules else _HAND_FIELDS_NO_RULES
    else:  # the tricks are written below, from `tricks_from` on only
        fields = _HAND_FIELDS_LATER if rules else _HAND_FIELDS_LATER_NO_RULES
    out = {name: convert(getattr(observation, name)) for name, convert in fields}
    if tricks_from is not None:
        tricks = observation.tricks
        if tricks_from > len(tricks):
            raise StateError(
                f"tricks_from must be from 0 to {len(tricks)}, the finished tricks; "
                f"got {describe(tricks_from, typed=False)}"  # an int too long to write
            )
        out["tricks"] = _tricks(tricks[tricks_from:])
        out["tricks_from"] = tricks_from
    out["side_points"] = list(observation.side_points)
    return out


# ---------------------------------------------------------------------------
# Converters for the fields of an observation, each checking the exact types it
# expects and handing anything else (a hand-built view) to the generic one.

_SCALARS = frozenset({int, str, bool, float, type(None)})


def _scalar(value: Any) -> Any:
    return value if type(value) in _SCALARS else readable(value)


def _card(value: Any) -> Any:
    return value.code if type(value) is Card else readable(value)


def _suit(value: Any) -> Any:
    return value.value if type(value) is Suit else readable(value)


def _cards(value: Any) -> Any:
    if type(value) is tuple:
        return [c.code if type(c) is Card else readable(c) for c in value]
    return readable(value)


def _ints(value: Any) -> Any:
    if type(value) is tuple:
        return [v if type(v) is int else readable(v) for v in value]
    return readable(value)


def _sides(value: Any) -> Any:
    """Seats by side (or by seat, for the voids: sets of suits, most often empty)."""
    if type(value) is tuple:
        return [_ints(side) if type(side) is tuple else readable(side) for side in value]
    return readable(value)


def _voids(value: Any) -> Any:
    if type(value) is tuple:
        return [[] if type(v) is frozenset and not v else readable(v) for v in value]
    return readable(value)


def _played(value: Any) -> Any:
    """A trick's ``(seat, card)`` pairs."""
    if type(value) is not tuple:
        return readable(value)
    out = []
    for pair in value:
        if type(pair) is tuple and len(pair) == 2:
            seat, card = pair
            if type(seat) is int and type(card) is Card:
                out.append([seat, card.code])
                continue
        out.append(readable(pair))
    return out


def _nothing(value: Any) -> None:
    """A field written apart; its key keeps its place."""
    return None


def _few(value: Any) -> Any:
    """A field that is mostly an empty tuple (swaps, signals, bids...)."""
    return [] if type(value) is tuple and not value else readable(value)


def _rules(value: Any) -> Any:
    return rules_to_dict(value) if isinstance(value, Rules) else readable(value)


def _trick(value: Any) -> Any:
    """A finished trick, written directly when it is the library's own."""
    if type(value) is not Trick or type(value.cards) is not tuple:
        return readable(value)
    return {
        "leader": _scalar(value.leader),
        "cards": _played(value.cards),
        "winner": _scalar(value.winner),
        "points": _scalar(value.points),
    }


def _tricks(value: Any) -> Any:
    if type(value) is tuple:
        return [_trick(t) for t in value]
    return readable(value)


# A finished hand of a match, converted once, by identity (the value is kept, so the
# id is not reused while cached), and copied out: every result is the caller's own.
# A bounded cache: the oldest entries go first.
_CACHE = 4096
_DONE: dict[int, tuple[object, Any]] = {}
_LOCK = threading.Lock()


def _hand_record(value: Any) -> Any:
    known = _DONE.get(id(value))
    if known is not None and known[0] is value:
        return _copied(known[1])
    data = readable(value)
    if _immutable(value, 4096):  # a hand-built record may hold a list, changed later
        with _LOCK:
            while len(_DONE) >= _CACHE:
                del _DONE[next(iter(_DONE))]
            _DONE[id(value)] = (value, data)
        return _copied(data)
    return data


def _immutable(value: Any, budget: int) -> bool:
    """Whether `value` is made only of values that never change (attrs values of the
    library, tuples, frozensets, scalars, cards, enums, fractions), within `budget`."""
    stack = [value]
    while stack:
        budget -= 1
        if budget < 0:
            return False
        item = stack.pop()
        kind = type(item)
        if kind is tuple or kind is frozenset:
            stack.extend(item)
        elif attrs.has(kind) and kind.__module__.startswith("brisca."):
            stack.extend(getattr(item, f.name) for f in attrs.fields(kind))
        elif not (
            item is None
            or kind in (int, str, bool, float, Card, Fraction)
            or isinstance(item, enum.Enum)
        ):
            return False
    return True


def _copied(data: Any) -> Any:
    """A fresh copy of JSON-ready data: dicts and lists new, the rest shared (immutable)."""
    kind = type(data)
    if kind is list:
        return [_copied(v) for v in data]
    if kind is dict:
        return {k: _copied(v) for k, v in data.items()}
    return data


def _hands(value: Any) -> Any:
    if type(value) is tuple:
        return [_hand_record(h) if type(h) is HandRecord else readable(h) for h in value]
    return readable(value)


_BY_NAME: dict[str, Converter] = {
    "seat": _scalar,
    "rules": _rules,
    "dealer": _scalar,
    "hand_number": _scalar,
    "sides": _sides,
    "trump": _suit,
    "trump_card": _card,
    "hand": _cards,
    "hand_sizes": _ints,
    "stock_size": _scalar,
    "trick": _played,
    "tricks": _tricks,
    "to_act": _scalar,
    "swaps": _few,
    "signals": _few,
    "partner_hands": _few,
    "black_hand": _scalar,
    "voids": _voids,
    "bids": _few,
    "cantes": _few,
}

_HAND_FIELDS: tuple[tuple[str, Converter], ...] = tuple(
    (f.name, _BY_NAME.get(f.name, readable)) for f in attrs.fields(Observation)
)
_HAND_FIELDS_NO_RULES = tuple((name, c) for name, c in _HAND_FIELDS if name != "rules")
_HAND_FIELDS_LATER = tuple((n, _nothing if n == "tricks" else c) for n, c in _HAND_FIELDS)
_HAND_FIELDS_LATER_NO_RULES = tuple((n, c) for n, c in _HAND_FIELDS_LATER if n != "rules")
# A match's fields; its hand in progress is written apart (without the rules again).
_MATCH_BY_NAME: dict[str, Converter] = {"rules": _rules, "hands": _hands, "current": _nothing}
_MATCH_FIELDS: tuple[tuple[str, Converter], ...] = tuple(
    (f.name, _MATCH_BY_NAME.get(f.name, readable)) for f in attrs.fields(MatchObservation)
)
