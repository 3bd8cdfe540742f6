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
from typing import Any, TypeAlias, Union

import attrs

from brisca.game.errors import NotationError, StateError, describe
from brisca.game.events import Event
from brisca.game.jsonio import Fields, parse
from brisca.server.tables import Table

__all__ = [
    "CODES",
    "MAX_MESSAGE",
    "Act",
    "ClientMessage",
    "Fill",
    "Join",
    "error",
    "read_message",
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
    if not isinstance(raw, str):
        raise NotationError(f"send text frames of JSON, not {describe(raw, 20)}")
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
    """An error message: what was refused (`code`, one of :data:`CODES`) and why.

    Raises:
        StateError: `code` is not one of :data:`CODES`.
    """
    if code not in CODES:
        raise StateError(f"an error's code is one of {', '.join(CODES)}, got {describe(code)}")
    return json.dumps({"type": "error", "code": code, "error": why})


# --8<-- [start:update]
def update(table: Table, seat: int, events: Sequence[Event], connected: Sequence[bool]) -> str:
    """The update `seat` gets after a change: its view, its events, its legal actions.

    `connected` says, by seat, whether someone is connected there now.

    Raises:
        StateError: `seat` is not a seat of the table, or `connected` not one flag a seat.
    """
    if type(seat) is not int or not 0 <= seat < len(table.seats):
        raise StateError(f"seat must be from 0 to {len(table.seats) - 1}, got {describe(seat)}")
    if isinstance(connected, (str, bytes)) or not isinstance(connected, Sequence):
        raise StateError(f"connected must be a sequence of flags, got {describe(connected)}")
    if len(connected) != len(table.seats):
        raise StateError(f"connected needs a flag for each of {len(table.seats)} seats")
    message: dict[str, Any] = {
        "type": "update",
        "table": table.id,
        "seat": seat,
        "match": table.is_match,
        "moves": table.moves,
        "view": table.view(seat),
        "legal": table.legal(seat),
        "events": table.events_for(seat, events),
        "seats": [
            {**info.public(), "seat": k, "connected": connected[k] or info.is_bot}
            for k, info in enumerate(table.seats)
        ],
        "over": table.is_over,
        "result": table.result(),
        "hands_finished": len(table.finished),
    }
    return json.dumps(message)


# --8<-- [end:update]
