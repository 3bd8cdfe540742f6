"""A table: one hand or a whole match, and who sits at each seat.

A :class:`Table` is immutable, like the library's states: :meth:`Table.act`
returns a new table with the events of the move, so a store keeps the latest
table and nothing changes under a reader. The table holds no rule of the game:

- a move is read with :func:`brisca.parse_action`, then judged and played once by
  :func:`brisca.step`, which takes the whole match too (scoring a finished hand
  and dealing the next);
- a seat's view is :func:`brisca.observe` as :func:`brisca.observation_to_dict`
  writes it, its events :func:`brisca.game.events.events_for`, its menu
  :func:`brisca.legal_actions`, sent to the seat to act only;
- every finished hand is kept as a game record (:func:`brisca.formats.records.record_game`),
  which ``brisca replay`` reads.

>>> table = new_table("spanish-2p", ["human", "heuristic"], seed=7)
>>> table.to_act, table.legal(0), table.legal(1)
(0, ['2O', '11C', '4C'], [])
>>> table.act(0, "12E")
Traceback (most recent call last):
...
brisca.IllegalActionError: 12E is not in the hand of seat 0, the seat to act
>>> after, events = table.act(0, "4C")
>>> [event.to_dict() for event in events]
[{'type': 'card_played', 'seat': 0, 'card': '4C'}]
>>> after.view(1)["trick"], table.view(1)["trick"]  # the table itself never changes
([[0, '4C']], [])
"""

from __future__ import annotations

import functools
import hmac
import json
import secrets
import threading
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from brisca.agents.bots import BOTS
from brisca.formats.records import GameRecord, record_game
from brisca.formats.records import dumps as dump_record
from brisca.formats.records import loads as load_record
from brisca.formats.saves import dumps_played, loads
from brisca.formats.views import events_to_dicts, observation_to_dict
from brisca.game.actions import parse_action
from brisca.game.engine import (
    apply,
    checked_rules,
    legal_actions,
    new_game,
    observe,
    result,
    step,
)
from brisca.game.errors import (
    BriscaError,
    IllegalActionError,
    NotationError,
    StateError,
    describe,
    plain_text,
    text_of,
)
from brisca.game.events import Event, HandEnded, events_for
from brisca.game.jsonio import Fields, parse, readable
from brisca.game.match import Match, match_apply, new_match
from brisca.game.presets import rules_from_dict
from brisca.game.rules import Rules
from brisca.game.state import State

__all__ = [
    "HUMAN",
    "NAME_LIMIT",
    "Occupant",
    "Table",
    "clean_name",
    "new_table",
    "read_rules",
]

#: What a seat of a new table is when a person, not a bot, will sit there.
HUMAN = "human"
#: The longest player name a table keeps, in characters.
NAME_LIMIT = 24

FORMAT = "brisca-table"
VERSION = 1


@attrs.frozen
class Occupant:
    """Who sits at one seat: a person holding `token`, or the bot named `bot`."""

    #: The bot's name in :data:`brisca.agents.bots.BOTS`, or ``None`` for a person.
    bot: str | None
    #: The person's secret, which their link carries; ``None`` for a bot.
    token: str | None = attrs.field(repr=False)
    #: The name shown to the table.
    name: str
    #: Whether a person has taken the seat (a bot's seat is always taken).
    joined: bool

    @property
    def is_bot(self) -> bool:
        """Whether a bot plays this seat."""
        return self.bot is not None

    def public(self) -> dict[str, Any]:
        """What everybody at the table may know of the seat: never its token."""
        return {
            "kind": "bot" if self.is_bot else HUMAN,
            "bot": self.bot,
            "name": self.name,
            "joined": self.joined,
        }


def _bot_seat(name: str) -> Occupant:
    return Occupant(name, None, f"{name} bot", True)


def clean_name(name: object, seat: int) -> str:
    """A player's name as the table shows it: printable, at most `NAME_LIMIT`
    characters, and ``"seat N"`` when nothing is left."""
    text = text_of(name) or ""
    text = "".join(ch for ch in text if ch.isprintable()).strip()[:NAME_LIMIT].strip()
    return text or f"seat {seat}"


def read_rules(data: object) -> Rules:
    """Rules from what a client sends: a preset's name, or their JSON form as
    :func:`brisca.game.presets.rules_from_dict` reads it (``{"preset": name, "overrides":
    {option: value}}``, what :func:`brisca.game.presets.rules_to_dict` writes).

    Raises:
        RulesError: an unknown preset, or options the rules refuse.
        NotationError: neither form.
    """
    if isinstance(data, str):
        return checked_rules(data)
    return rules_from_dict(data)


def _seats(rules: Rules, seats: Sequence[object]) -> tuple[Occupant, ...]:
    if isinstance(seats, (str, bytes)) or not isinstance(seats, Sequence):
        raise NotationError(f"seats must be a list, one entry per seat; got {describe(seats)}")
    n = rules.num_players
    if len(seats) != n:
        raise StateError(f"these rules seat {n} players; seats lists {len(seats)}")
    made = []
    for k, given in enumerate(seats):
        text = text_of(given)
        kind = given if text is None else text
        if kind == HUMAN or kind is None:
            made.append(Occupant(None, secrets.token_urlsafe(16), f"seat {k}", False))
        elif isinstance(kind, str) and kind in BOTS:  # by name only: never module:Class
            made.append(_bot_seat(kind))
        else:
            raise StateError(
                f"seat {k} must be {HUMAN!r} or a bot, one of {', '.join(BOTS)}; "
                f"got {describe(given)}"
            )
    return tuple(made)


def new_table(
    rules: Rules | str | Mapping[str, Any],
    seats: Sequence[object],
    *,
    match: bool = False,
    seed: int | None = None,
    table_id: str | None = None,
) -> Table:
    """A new table, dealt: one hand, or with `match` a whole match of the rules' `match_mode`.

    Args:
        rules: a `Rules`, a preset's name, or its JSON form (see :func:`read_rules`).
        seats: per seat, ``"human"`` (or ``None``) for a person, who gets a secret
            token, or the name of a bot in :data:`brisca.agents.bots.BOTS`.
        match: play a whole match rather than one hand.
        seed: the deal's seed; from the operating system when omitted.
        table_id: the table's name; a random one when omitted.

    Raises:
        RulesError, NotationError, StateError: bad rules, seats or seed.
    """
    rules = rules if isinstance(rules, (Rules, str)) else read_rules(rules)
    rules = checked_rules(rules)
    if type(match) is not bool:
        raise StateError(f"match must be true or false, got {describe(match)}")
    game: State | Match = new_match(rules, seed=seed) if match else new_game(rules, seed=seed)
    name = None if table_id is None else text_of(table_id)
    if table_id is not None and name is None:
        raise NotationError(f"table_id must be text, got {describe(table_id)}")
    return Table(name or secrets.token_urlsafe(9), game, _seats(rules, seats))


@attrs.frozen
class Table:
    """A game and its seats at one moment. Never changes: every method returns values."""

    #: The table's name, in its links.
    id: str
    #: The hand (a `State`) or the match (a `Match`) being played.
    game: State | Match = attrs.field(repr=False)
    seats: tuple[Occupant, ...]
    #: The records of the finished hands, oldest first.
    finished: tuple[GameRecord, ...] = attrs.field(default=(), repr=False)

    @property
    def rules(self) -> Rules:
        """The rules of the game."""
        return self.game.rules

    @property
    def is_match(self) -> bool:
        """Whether a whole match is played, rather than one hand."""
        return type(self.game) is Match

    @property
    def hand(self) -> State | None:
        """The hand in progress (the last one, once a single hand is over); ``None``
        once a match is over."""
        game = self.game
        return game.state if isinstance(game, Match) else game

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` once the game is over."""
        return self.game.to_act

    @property
    def is_over(self) -> bool:
        """Whether the hand, or the whole match, is over."""
        return self.game.is_over

    @functools.cached_property
    def moves(self) -> int:
        """How many actions have been taken at the table: a count that grows with each
        move, by which a client tells a new turn from another update of the same one.
        (Counted once per table: every seat's update gives it.)"""
        game = self.game
        return game.action_count if isinstance(game, Match) else len(game.history)

    @property
    def players(self) -> tuple[str, ...]:
        """The names by seat."""
        return tuple(seat.name for seat in self.seats)

    def seat_of(self, token: object) -> int | None:
        """The seat whose secret is `token`, or ``None``: compared in constant time."""
        text = text_of(token)
        if not text:
            return None
        # As UTF-8 bytes: compare_digest refuses text that is not ASCII with a TypeError.
        given = _secret(text)
        found = None
        for k, seat in enumerate(self.seats):
            if seat.token is not None and hmac.compare_digest(_secret(seat.token), given):
                found = k
        return found

    def view(self, seat: int, *, tricks_from: int | None = None) -> dict[str, Any]:
        """What `seat` may know, as JSON-ready data: :func:`brisca.observe`, written
        by :func:`brisca.observation_to_dict` (with its `tricks_from`, the finished
        tricks from that index on only)."""
        return observation_to_dict(observe(self.game, seat), tricks_from=tricks_from)

    def legal(self, seat: int) -> list[str]:
        """The legal actions in notation, for the seat to act only; ``[]`` for the others."""
        if self.game.to_act != seat:
            return []
        return [str(action) for action in legal_actions(self.game)]

    def result(self) -> dict[str, Any] | None:
        """The result of the hand or match as JSON-ready data, once it is over."""
        return readable(result(self.game)) if self.game.is_over else None

    # --8<-- [start:act]
    def act(self, seat: int, text: object) -> tuple[Table, tuple[Event, ...]]:
        """Play `seat`'s action, written in notation: the new table and the events.

        Raises:
            IllegalActionError: the game is over, it is another seat's turn, or the
                rules refuse the action; the message says why.
            NotationError: `text` is not an action.
        """
        hand = self.hand
        if self.game.is_over or hand is None:
            raise IllegalActionError(f"the {'match' if self.is_match else 'hand'} is over")
        if seat != hand.to_act:
            raise IllegalActionError(f"it is not your turn: seat {hand.to_act} is to act")
        if not isinstance(text, str):
            raise NotationError(f"an action is text in notation, got {describe(text)}")
        action = parse_action(text)
        game, events = step(self.game, action)  # one rule check and one move, match or hand
        finished = self.finished
        if any(type(event) is HandEnded for event in events):
            # The hand's last state: the game itself, or, in a match that has dealt on,
            # the move made again on its hand, once a hand.
            after = game if isinstance(game, State) else apply(hand, action)
            record = record_game(after, players=self.players, event="brisca serve", table=self.id)
            finished = (*finished, record)
        return attrs.evolve(self, game=game, finished=finished), events

    # --8<-- [end:act]

    def events_for(self, seat: int, events: Sequence[Event]) -> list[dict[str, Any]]:
        """What `seat` saw of `events`, as JSON-ready data."""
        return events_to_dicts(events_for(seat, events))

    def join(self, seat: int, name: object = None) -> Table:
        """The table with a person at `seat`, under `name` (or the name it had).

        Raises:
            StateError: `seat` is not a seat of the table.
        """
        if type(seat) is not int or not 0 <= seat < len(self.seats):
            raise StateError(f"seat must be from 0 to {len(self.seats) - 1}, got {describe(seat)}")
        current = self.seats[seat]
        if name is None and current.joined:
            name = current.name
        taken = attrs.evolve(current, name=clean_name(name, seat), joined=True)
        return attrs.evolve(self, seats=_replaced(self.seats, seat, taken))

    def fill(self, bot: str) -> tuple[Table, tuple[int, ...]]:
        """The table with the bot named `bot` at every seat nobody has taken, and those seats.

        Raises:
            StateError: `bot` is not a name in :data:`brisca.agents.bots.BOTS`.
        """
        if not isinstance(bot, str) or bot not in BOTS:
            raise StateError(
                f"a seat is filled by a bot, one of {', '.join(BOTS)}; got {describe(bot)}"
            )
        empty = tuple(k for k, seat in enumerate(self.seats) if not seat.joined)
        seats = self.seats
        for k in empty:
            seats = _replaced(seats, k, _bot_seat(bot))
        return attrs.evolve(self, seats=seats), empty

    def records_text(self) -> str:
        """The finished hands as JSON Lines, a game record a line, as ``brisca replay`` reads."""
        return "".join(dump_record(record) + "\n" for record in self.finished)

    def to_json(self) -> str:
        """The whole table as JSON text, secrets and hidden cards included: for a store."""
        head = json.dumps(
            {
                "format": FORMAT,
                "version": VERSION,
                "id": self.id,
                "game": dumps_played(self.game),  # its own states: no replay
                "seats": [attrs.asdict(seat) for seat in self.seats],
            }
        )
        # What json.dumps would give with "finished" as the last key, its text made once.
        return f'{head[:-1]}, "finished": {_finished_text(self.finished)}}}'

    @classmethod
    def from_json(cls, text: str | bytes) -> Table:
        """Read a table written by :meth:`to_json`, replaying its game to check it.

        What a store gives back is checked as a client's input is: the game must
        replay, each person's seat must hold a token of its own and each bot's none,
        every bot must be known, and the finished records must be those of the
        game's finished hands, in order.

        Raises:
            NotationError: not such a document.
            StateError: its game does not replay, or its parts disagree.
        """
        data = Fields(parse(text, "a table"), "table")
        if data.get("format", str) != FORMAT or data.get("version", int) != VERSION:
            raise NotationError(f"not a {FORMAT} document of version {VERSION}")
        data.only(("format", "version", "id", "game", "seats", "finished"))
        table_id = data.get("id", str)
        if not table_id:
            raise StateError("table: an empty id")
        game = loads(data.get("game", str))
        seats = _read_seats(data.get("seats", list), game.rules.num_players)
        finished = tuple(load_record(record) for record in data.texts("finished"))
        played = [_bare(record_game(hand)) for hand in _finished_hands(game)]
        if [_bare(record) for record in finished] != played:
            raise StateError(
                f"table: the {len(finished)} finished records are not those of the game's "
                f"{len(played)} finished hands"
            )
        return cls(table_id, game, seats, finished)

    def change_from(self, before: object) -> str | None:
        """What made `before` into this table, as one line of JSON that :meth:`changed`
        applies: a move, or new seats. ``None`` when it is no single such change; a
        store then writes the table whole. A store that keeps the changes since it last
        wrote a table whole writes a move in the same few bytes however long the match.
        """
        if not isinstance(before, Table) or self.id != before.id:
            return None
        if self.seats != before.seats:
            if self.game is not before.game or self.finished is not before.finished:
                return None
            return json.dumps(["seats", [attrs.asdict(seat) for seat in self.seats]])
        if self.moves != before.moves + 1 or before.to_act is None:
            return None
        hand = self.hand
        if hand is not None and hand.history:
            text = str(hand.history[-1])
        elif self.finished and self.finished[-1].actions:  # it ended a hand, and one was dealt
            text = self.finished[-1].actions[-1]
        else:
            return None
        try:  # the same move again, so that `changed` is known to give this very table
            again, _ = before.act(before.to_act, text)
        except BriscaError:
            return None
        # What a move changes, compared: the hand, and the record of one it ended (the
        # match as a whole would compare every deal).
        same = (
            again.hand == self.hand
            and again.moves == self.moves
            and again.is_over == self.is_over
            and len(again.finished) == len(self.finished)
            and again.finished[-1:] == self.finished[-1:]
        )
        return json.dumps(["act", before.to_act, text]) if same else None

    def changed(self, change: str | bytes) -> Table:
        """The table after `change`, a line :meth:`change_from` wrote: the move played
        (and checked) as :meth:`act` plays it, or the seats read as :meth:`from_json`
        reads them.

        Raises:
            NotationError: `change` is not such a line.
            IllegalActionError: its move is not legal.
            StateError: its seats are not the table's.
        """
        data = parse(change, "a table's change")
        if type(data) is list and len(data) == 3 and data[0] == "act":
            seat, text = data[1], data[2]
            if type(seat) is not int or type(text) is not str:
                raise NotationError("a table's move is a seat and an action's notation")
            return self.act(seat, text)[0]
        if type(data) is list and len(data) == 2 and data[0] == "seats":
            seats = _read_seats(data[1], len(self.seats))
            return attrs.evolve(self, seats=seats)
        raise NotationError('a table\'s change is ["act", seat, action] or ["seats", seats]')


def _read_seats(raw: object, players: int) -> tuple[Occupant, ...]:
    if type(raw) is not list:
        raise StateError(f"table: the seats are a list, got {describe(raw)}")
    if len(raw) != players:
        raise StateError(f"table: {len(raw)} seats for {players} players")
    seats = tuple(_read_seat(seat) for seat in raw)
    tokens = [seat.token for seat in seats if seat.token is not None]
    if len(set(tokens)) != len(tokens):
        raise StateError("table: two seats hold the same token")
    return seats


def _read_seat(raw: object) -> Occupant:
    seat = Fields(raw, "table.seats")
    seat.only(("bot", "token", "name", "joined"))
    taken = Occupant(
        seat.get("bot", str, nullable=True),
        seat.get("token", str, nullable=True),
        seat.get("name", str),
        seat.get("joined", bool),
    )
    if taken.bot is not None:  # a bot no longer known would stall the table at its turn
        if taken.bot not in BOTS:
            raise StateError(f"table: the bot {describe(taken.bot, typed=False)} is not known")
        if taken.token is not None or not taken.joined:
            raise StateError("table: a bot's seat holds a token, or is not taken")
    elif not taken.token:  # an empty token would seat whoever sends ""
        raise StateError("table: a person's seat without a token")
    if taken.name != clean_name(taken.name, 0):
        raise StateError(f"table: the name {describe(taken.name, typed=False)} is not clean")
    return taken


def _finished_hands(game: State | Match) -> list[State]:
    """The last state of each finished hand of `game`, oldest first, replayed."""
    if isinstance(game, State):
        return [game] if game.is_over else []
    dealer = game.first_dealer if game.first_dealer_agreed else None
    match = new_match(game.rules, seed=game.seed, decks=game.decks, dealer=dealer)
    hands = []
    for deal in game.actions:
        for action in deal:
            hand = match.state
            assert hand is not None  # loads_match replayed these very actions
            after = apply(hand, action)
            match = match_apply(match, action)
            if after.is_over:
                hands.append(after)
    return hands


def _bare(record: GameRecord) -> GameRecord:
    """`record` without what the table adds (names, event, tags): the hand alone."""
    return attrs.evolve(record, players=(), date=None, event=None, tags=())


# A finished hand's record never changes, and a store writes it at every move after.
_record_text = functools.lru_cache(maxsize=1024)(dump_record)

# The finished records as the JSON array a store writes, by the tuple that holds them:
# every table of one hand shares that tuple, so a move writes (and hashes) none of them.
_FINISHED: dict[int, tuple[tuple[GameRecord, ...], str]] = {}
_FINISHED_LIMIT = 256
_FINISHED_LOCK = threading.Lock()  # a store may write from a worker thread


def _finished_text(finished: tuple[GameRecord, ...]) -> str:
    known = _FINISHED.get(id(finished))
    if known is not None and known[0] is finished:
        return known[1]
    text = json.dumps([_record_text(record) for record in finished])
    with _FINISHED_LOCK:
        while len(_FINISHED) >= _FINISHED_LIMIT:
            del _FINISHED[next(iter(_FINISHED))]
        _FINISHED[id(finished)] = (finished, text)
    return text


def _replaced(seats: tuple[Occupant, ...], k: int, seat: Occupant) -> tuple[Occupant, ...]:
    return (*seats[:k], seat, *seats[k + 1 :])


def _secret(token: str) -> bytes:
    """`token` as the bytes compared: any text, lone surrogates included, has some."""
    return plain_text(token).encode("utf-8", "surrogatepass")
