"""The messages between a seat's browser and the server, as JSON text over a WebSocket.

**From the client**, each a JSON object with a ``type``:

- ``{"type": "join", "table": ID, "token": SECRET, "name": "Ana"}``: take the seat
  the token belongs to (``name`` is optional). Joining again with the same token,
  after a disconnection, gives the same seat back.
- ``{"type": "action", "action": "3C"}``: play an action in the library's
  notation (:func:`brisca.parse_action`): ``"3C"``, ``"swap 7O"``, ``"claim"``,
  ``"signal wink"``, ``"bid 70"``, ``"pass"``...
- ``{"type": "fill", "bot": "heuristic"}``: put that bot at every seat nobody has
  taken.

A message is read with :func:`brisca.game.jsonio.parse`, the library's one JSON
reader, after a size check: at most :data:`MAX_MESSAGE` characters.

**From the server**:

- ``{"type": "update", ...}`` after every change, to each seat: its view
  (``view``, :func:`brisca.observation_to_dict` of :func:`brisca.observe`), the
  events of the move as that seat saw them (``events``,
  :func:`brisca.game.events.events_for`), its legal actions when it is to act
  (``legal``, else ``[]``), the seats, ``result`` once over, and ``moves``, the
  number of actions taken so far. A seat that joins or leaves sends everyone an
  update with the same ``moves``: a client that plays once per value of
  ``moves`` never plays twice in one turn;

  the finished tricks of the hand in progress come **incrementally**: the hand's
  view (``view``, or a match's ``view.current``) holds in ``tricks`` only those
  the connection has not been sent yet, and ``tricks_from`` says at which index
  they start. A client keeps the list and, at each update, cuts it to
  ``tricks_from`` tricks and appends ``tricks``. A connection's first update
  (after a join, and so after every reconnection), the first of each new hand of
  a match, and any update the server cannot be sure of, is a full view:
  ``tricks_from`` is 0 and ``tricks`` holds every finished trick. (A connection
  gets every update, in order, so it never misses an increment.) A match that is
  over has no hand in progress, and its view no ``tricks_from``;
- ``{"type": "error", "code": CODE, "error": WHY}`` when a message is refused:
  the library's reason for an illegal or unreadable action, or what is wrong with
  the message. Nothing changes, and the connection stays open. Two codes end the
  connection instead, which the server closes after them: ``replaced`` (the seat
  was opened in more places than it may be, and this is the oldest) and
  ``expired`` (the table was idle too long and is gone).

>>> read_message('{"type": "action", "action": "3C"}')
Act(action='3C')
>>> read_message('{"type": "dance"}')
Traceback (most recent call last):
...
brisca.NotationError: unknown message type 'dance'; the types are join, action, fill
>>> error("illegal", "12E is not in the hand of seat 0, the seat to act")
'{"type": "error", "code": "illegal", "error": "12E is not in the hand of seat 0, the seat to act"}'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, TypeAlias, Union, cast

import attrs

from brisca.game.errors import (
    BARE_ERRORS,
    BriscaError,
    NotationError,
    StateError,
    as_brisca_error,
    checked_type,
    describe,
    read_at_most,
    text_of,
)
from brisca.game.events import Event
from brisca.game.jsonio import Fields, parse
from brisca.game.state import Deal, Trick
from brisca.server.tables import Table

__all__ = [
    "CODES",
    "MAX_MESSAGE",
    "Act",
    "ClientMessage",
    "Fill",
    "Join",
    "Sent",
    "error",
    "read_message",
    "sent",
    "update",
]

#: The longest message the server reads, in characters: a join is about 100.
MAX_MESSAGE = 4096

#: The error codes: what was refused.
CODES = {
    "bad_message": "the message cannot be read (not JSON, too long, an unknown type or field)",
    "no_table": "no table has that id",
    "bad_token": "the token holds no seat at that table, or the seat has gone to a bot",
    "not_joined": "join a table before playing",
    "illegal": "the rules refuse the action, or cannot read it: the library's reason",
    "bad_request": "the request is understood but cannot be done",
    "replaced": "the seat was opened in too many other places: this connection is closed",
    "expired": "the table was idle too long and is gone: this connection is closed",
}


@attrs.frozen
class Join:
    """Take the seat that `token` holds at table `table`."""

    table: str
    token: str
    name: str | None = None


@attrs.frozen
class Act:
    """Play `action`, in notation, for the joined seat."""

    action: str


@attrs.frozen
class Fill:
    """Seat the bot named `bot` at every seat nobody has taken."""

    bot: str


ClientMessage: TypeAlias = Union[Join, Act, Fill]  # noqa: UP007 (Python 3.10 needs Union)


def read_message(raw: object) -> ClientMessage:
    """The client message in `raw`, a WebSocket text frame.

    Raises:
        NotationError: not text, longer than `MAX_MESSAGE`, not JSON, or not a
            message of a known type with the fields it needs.
    """
    text = text_of(raw)  # its plain text: a subclass's own len or methods never run
    if text is None:
        raise NotationError(f"send text frames of JSON, not {describe(raw, 20)}")
    raw = text
    if len(raw) > MAX_MESSAGE:
        raise NotationError(
            f"a message of {len(raw)} characters; the server reads at most {MAX_MESSAGE}"
        )
    fields = Fields(parse(raw, "a JSON message"), "message")
    kind = fields.get("type", str)
    if kind == "join":
        fields.only(("type", "table", "token", "name"))
        return Join(
            fields.get("table", str),
            fields.get("token", str),
            fields.get("name", str, required=False, nullable=True),
        )
    if kind == "action":
        fields.only(("type", "action"))
        return Act(fields.get("action", str))
    if kind == "fill":
        fields.only(("type", "bot"))
        return Fill(fields.get("bot", str))
    raise NotationError(
        f"unknown message type {describe(kind, 20, typed=False)}; the types are join, action, fill"
    )


def error(code: str, why: str) -> str:
    """An error message: what was refused (`code`, one of :data:`CODES`) and why (`why`,
    text), as JSON text.

    Raises:
        StateError: `code` is not one of :data:`CODES`, or `why` is not text.
    """
    # Their plain text: a subclass's own hash, == or encoding is never run.
    kind = text_of(code)
    if kind not in CODES:
        raise StateError(f"an error's code is one of {', '.join(CODES)}, got {describe(code)}")
    reason = text_of(why)
    if reason is None:
        raise StateError(f"an error's reason is text, got {describe(why)}")
    return json.dumps({"type": "error", "code": kind, "error": reason})


# --8<-- [start:update]
# `json.dumps` without its check for cycles, an eighth of its work on an update: the
# message is a tree made fresh below, of the views' lists and dicts. A NaN or infinity
# is refused, not written: JSON has none.
_written = json.JSONEncoder(check_circular=False, allow_nan=False).encode


def update(
    table: Table,
    seat: int,
    events: Sequence[Event],
    connected: Sequence[bool],
    since: Sent | None = None,
) -> str:
    """The update `seat` gets after a change: its view, its events, its legal actions.

    `connected` says, by seat, whether someone is connected there now. `since` is
    what the connection was sent before (:func:`sent` of the table of its last
    update): the view then holds only the finished tricks sent since; without it, or
    when it is not of this hand, the view is whole.

    Raises:
        StateError: `table` is not a Table (or one whose game cannot be written), `seat`
            is not a seat of the table, `connected` not one bool a seat, or `since` not
            a `Sent`.
    """
    checked_type(table, Table, "a brisca.server.tables.Table")
    if since is not None and type(since) is not Sent:
        raise StateError(f"since must be a Sent or None, got {describe(since)}")
    try:
        return _update(table, seat, events, connected, since)
    except BriscaError:
        raise
    except BARE_ERRORS as error:  # a hand-built table, or Sent, of junk fields
        raise as_brisca_error("the table", error) from None


def _update(
    table: Table, seat: int, events: Sequence[Event], connected: object, since: Sent | None
) -> str:
    if type(seat) is not int or not 0 <= seat < len(table.seats):
        raise StateError(f"seat must be from 0 to {len(table.seats) - 1}, got {describe(seat)}")
    flags = _flags(connected, len(table.seats))
    message: dict[str, Any] = {
        "type": "update",
        "table": table.id,
        "seat": seat,
        "match": table.is_match,
        "moves": table.moves,
        "view": table.view(seat, tricks_from=_tricks_from(table, since)),
        "legal": table.legal(seat),
        "events": table.events_for(seat, events),
        "seats": [
            {**info.public(), "seat": k, "connected": flags[k] or info.is_bot}
            for k, info in enumerate(table.seats)
        ],
        "over": table.is_over,
        "result": table.result(),
        "hands_finished": len(table.finished),
    }
    return _written(message)


# --8<-- [end:update]


def _flags(connected: object, seats: int) -> tuple[bool, ...]:
    """`connected` read as one bool a seat: one past `seats` items at most, so that an
    endless one ends (its own len is never asked), each a bool (a NaN writes no JSON)."""
    kind = type(connected)  # not isinstance, which asks a value's own __class__
    if issubclass(kind, (str, bytes, bytearray)) or not issubclass(kind, Sequence):
        raise StateError(f"connected must be a sequence of flags, got {describe(connected)}")
    flags: tuple[Any, ...] = tuple(
        read_at_most(cast(Sequence[object], connected), seats + 1, "connected")
    )
    if len(flags) != seats:
        raise StateError(f"connected needs a flag for each of {seats} seats")
    for flag in flags:
        if type(flag) is not bool:
            raise StateError(f"connected must hold bools, got {describe(flag)}")
    return flags


@attrs.frozen(eq=False)  # told apart by identity: cheap, as a broadcast keys on it
class Sent:
    """What a connection holds of a hand after an update: whose finished tricks, how
    many, and the last of them, by which the next update checks that they are still
    the table's."""

    #: How the hand was dealt: one value for the whole hand, another for the next.
    deal: Deal
    #: How many finished tricks the connection holds.
    tricks: int
    #: The last of them, or ``None`` for none.
    last: Trick | None


def sent(table: Table) -> Sent | None:
    """What a connection holds once it has been sent an update of `table`: the finished
    tricks of its hand in progress (``None`` once a match is over). The tricks are
    public, so it is the same for every seat.

    Raises:
        StateError: `table` is not a Table, or one whose hand cannot be read.
    """
    checked_type(table, Table, "a brisca.server.tables.Table")
    try:
        return _sent(table)
    except BriscaError:
        raise
    except BARE_ERRORS as error:  # a hand-built table of junk fields
        raise as_brisca_error("the table", error) from None


def _sent(table: Table) -> Sent | None:
    hand = table.hand
    if hand is None:
        return None
    tricks = hand.tricks
    return Sent(hand.deal, len(tricks), tricks[-1] if tricks else None)


def _tricks_from(table: Table, since: Sent | None) -> int | None:
    """Where the tricks of `table`'s update for a connection holding `since` start: 0
    (the whole list) unless `since` holds a start of this very hand's tricks."""
    hand = table.hand
    if hand is None:
        return None  # a match that is over: no hand, no tricks
    if since is None or not _same(since.deal, hand.deal):
        return 0
    tricks = hand.tricks
    count = since.tricks
    if type(count) is not int or not 0 <= count <= len(tricks):
        return 0  # a Sent that no update made: in doubt, the whole view
    if count and not _same(tricks[count - 1], since.last):
        return 0
    return count


def _same(a: object, b: object) -> bool:
    return a is b or a == b  # one object, as a hand's states share them, or equal
