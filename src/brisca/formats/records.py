"""Game records: a versioned JSON format for whole hands, with replay and validation.

A :class:`GameRecord` says everything needed to play a hand again: the rules,
the dealer, the seed or the deck order, and the actions in their canonical
notation (``str(action)``, read back by :func:`brisca.parse_action`). It may
carry the result and metadata: the players' names, a date, an event and free
tags. Records are plain data: the constructor checks their form, :func:`loads` plays
them too and refuses one that play does not reach (``loads(text, play=False)`` reads
the form alone), and :func:`validate` plays one through the engine to find the first
action the rules refuse.

>>> import brisca
>>> from brisca import records
>>> state = brisca.new_game(brisca.preset("spanish-2p"), seed=7)
>>> start, actions = state, []
>>> while not state.is_over:
...     action = brisca.legal_actions(state)[0]
...     actions.append(action)
...     state = brisca.apply(state, action)
>>> record = records.record_game(start, actions, players=["Ana", "Luis"], event="club")
>>> record.actions[:4], record.result
(('2O', '2C', '11O', '11C'), RecordedResult(points=(85, 35), winner=0))
>>> records.loads(records.dumps(record)) == record
True
>>> list(records.replay(record))[-1] == state
True
>>> records.validate(records.dumps(record)) is None
True

**The format, version 1** (the JSON Schema ships as ``brisca/schemas/record.schema.json``,
see :func:`record_schema`)::

    {
      "format": "brisca-record",          // always this string
      "version": 1,                       // this format's version
      "rules": {"preset": "arrastre-2p", "overrides": {"tie_rule": "draw"}},
          // or {"options": {...every option, as Rules.to_dict() writes them...}}
      "dealer": 1,                        // the dealing seat
      "hand_number": 0,                   // which hand of a match (picks a rotated trump)
      "seed": 7,                          // the shuffle's seed, any non-negative int ...
      "deck": ["1O", "3C", ...],          // ... or instead the order cards leave the pack
      "actions": ["3C", "swap 7O", "claim", "signal wink", "bid 70", ...],
      "result": {"points": [72, 48], "winner": 0},   // or null while unfinished
      "players": ["Ana", "Luis"],         // optional: names by seat
      "date": "2024-05-01",               // optional: free text, ISO 8601 advised
      "event": "Club final",              // optional
      "tags": {"site": "Sevilla"}         // optional: free string tags
    }

Exactly one of ``seed`` and ``deck`` is present. ``overrides`` holds only the
options that differ from the preset. ``result.points`` follows
``state.sides``; ``result.winner`` is an index into them, or ``null`` for a
tie. Readers must refuse another ``format`` or a ``version`` they do not know.

**Bounds.** A record is one hand, so it holds at most
:data:`brisca.game.match.MAX_DEAL_ACTIONS` actions, the most any rules let one
hand take (a long auction in one-point steps), a seed up to ``2**1024 - 1``, a
hand number up to ``2**31 - 1``, at most six players and sides, `MAX_POINTS`
card points a side and `MAX_TAGS` tags; the constructor reads any iterable one
item past its bound at most, refuses one whose iteration fails with a
:class:`~brisca.NotationError`, and refuses the values and decks the reader would
(whether the actions are legal is for :func:`validate`). Every string in it must be
Unicode text, which UTF-8 can write; its text is read by
:func:`brisca.game.jsonio.parse`, at most ``MAX_TEXT`` long. Reading and
validating cost time linear in the text: on the development machine at most
about 0.4 s per MiB for junk of any shape (``benchmarks/loading.py --readers
1024``), and well under a millisecond for a whole hand.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from importlib import resources
from typing import IO, Any

import attrs

from brisca.game.actions import ACTION_TYPES, Action, parse_action, parse_actions
from brisca.game.cards import Card
from brisca.game.engine import (
    MAX_HAND_NUMBER,
    applied_in_turn,
    apply,
    checked_deck,
    new_game,
    result,
)
from brisca.game.errors import (
    BARE_ERRORS,
    BriscaError,
    IllegalActionError,
    NotationError,
    RulesError,
    StateError,
    as_state_error,
    checked_int,
    checked_type,
    describe,
    plain_text,
    read_at_most,
    text_of,
)
from brisca.game.jsonio import (
    Fields,
    only_strings,
    parse,
    plain_json,
    plain_keys,
    refuse_lone_surrogates,
)
from brisca.game.match import MAX_DEAL_ACTIONS
from brisca.game.presets import (
    PRESETS,
    preset_name,
    read_rules,
    rules_from_dict,
    rules_to_dict,
    unknown_preset,
)
from brisca.game.rng import MAX_SEED
from brisca.game.rules import Rules
from brisca.game.state import State

__all__ = [
    "FORMAT",
    "VERSION",
    "GameRecord",
    "Problem",
    "RecordedResult",
    "deck_order",
    "dump",
    "dumps",
    "final_state",
    "load",
    "loads",
    "read_record_rules",
    "record_game",
    "record_schema",
    "replay",
    "replay_from",
    "rules_from_dict",
    "validate",
]

#: The most tags a record holds.
MAX_TAGS = 1000
#: The most card points a recorded side may hold: every card point and cante of a hand,
#: and room to spare.
MAX_POINTS = 1000
#: The most seats, and so sides, of any rules.
MAX_PLAYERS = 6
# The cards of the largest pack.
_MOST_CARDS = 48

#: The ``"format"`` of every game record.
FORMAT = "brisca-record"
#: The version of the record format this library writes and reads.
VERSION = 1


def _is_int(value: object) -> bool:
    return type(value) is int


def _action_text(value: object) -> str:
    """An action's text: kept as given when text (as plain text), else the action's
    canonical notation."""
    text = text_of(value)
    if text is not None:
        return text
    # Only the library's own actions are turned to text: another value's str, ==, or its
    # digits (an int too long to print) are never asked for.
    if type(value) in ACTION_TYPES:
        try:
            text = str(value)
            if parse_action(text) == value:
                return text
        except BARE_ERRORS:  # a hand-built action whose fields break (a BriscaError too)
            pass
    raise NotationError(f"an action must be text or a brisca action, got {describe(value)}")


def _too_many(count: int, what: str = "a record") -> None:
    if count > MAX_DEAL_ACTIONS:
        raise NotationError(
            f"{what} of {count} actions; a hand has at most {MAX_DEAL_ACTIONS} (MAX_DEAL_ACTIONS)"
        )


def _taken(items: Iterable[Any], most: int, what: str) -> tuple[Any, ...]:
    """`items`, one past `most` at most: an endless iterable is cut, not followed, and
    one whose iteration fails (an ``__iter__`` that gives no iterator, a generator that
    raises) is a NotationError, saying that `what` cannot be read."""
    return tuple(read_at_most(items, most + 1, what, error=NotationError))


def _actions(value: object) -> tuple[str, ...]:
    if type(value) is list or type(value) is tuple:
        _too_many(len(value))  # before any text is read
        if only_strings(value):  # as JSON gives
            return tuple(value)
        items: Sequence[Any] = value
    elif isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise NotationError(f"actions must be a sequence of actions, got {describe(value)}")
    else:
        items = _taken(value, MAX_DEAL_ACTIONS, "actions")
        _too_many(len(items))
    return tuple(_action_text(a) for a in items)


def _deck(value: object) -> tuple[Card, ...] | None:
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise NotationError(f"deck must be a sequence of cards, got {describe(value)}")
    cards = _taken(value, _MOST_CARDS, "deck")  # the rules' own pack is checked after
    return tuple(c if type(c) is Card else Card.parse(c) for c in cards)


def _strings(value: object) -> tuple[str, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise NotationError(f"players must be a sequence of names, got {describe(value)}")
    names = _taken(value, MAX_PLAYERS, "players")
    if not all(isinstance(n, str) for n in names):
        raise NotationError(f"players' names must be strings, got {describe(names)}")
    return tuple(map(plain_text, names))


def _tags(value: object) -> tuple[tuple[str, str], ...]:
    items: object = value
    if isinstance(value, dict):
        items = dict.items(value)  # its own items, not a subclass's
    elif isinstance(value, Mapping):
        try:
            items = value.items()
        except BARE_ERRORS as error:
            raise NotationError(f"tags cannot be read ({type(error).__name__})") from None
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise NotationError(f"tags must map names to strings, got {describe(value)}")
    pairs = []
    for k, item in enumerate(_taken(items, MAX_TAGS, "tags")):
        if k == MAX_TAGS:
            raise NotationError(f"a record holds at most {MAX_TAGS} tags (MAX_TAGS)")
        if not (
            isinstance(item, tuple)
            and len(item) == 2
            and isinstance(item[0], str)
            and isinstance(item[1], str)
        ):
            raise NotationError(f"tags must map names to strings, got {describe(value)}")
        pairs.append((plain_text(item[0]), plain_text(item[1])))
    unique = dict(pairs)
    if len(unique) != len(pairs):  # as the JSON reader refuses a key twice
        raise NotationError("tags name a tag twice")
    # Sorted, so that equal tags give equal records whatever their order.
    return tuple(sorted(unique.items()))


def _optional_text(value: object, name: str) -> str | None:
    """`value` as plain text or ``None``; anything else is refused as `name`."""
    if value is not None and not isinstance(value, str):
        raise NotationError(f"{name} must be text, got {describe(value)}")
    return None if value is None else plain_text(value)


def _date(value: object) -> str | None:
    return _optional_text(value, "date")


def _event(value: object) -> str | None:
    return _optional_text(value, "event")


def _points(value: object) -> tuple[int, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise NotationError(f"result points must be a sequence of ints, got {describe(value)}")
    points = _taken(value, MAX_PLAYERS, "result points")  # a side a seat at most
    if not all(_is_int(p) and 0 <= p <= MAX_POINTS for p in points):
        raise NotationError(
            f"result points must be ints from 0 to {MAX_POINTS}, got {describe(points)}"
        )
    if not points or len(points) > MAX_PLAYERS:
        raise NotationError(f"result points are 1 to {MAX_PLAYERS} sides', got {len(points)}")
    return points


def _winner(instance: RecordedResult, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is not None and not (_is_int(value) and 0 <= value < len(instance.points)):
        raise NotationError(
            f"result winner must be the index of one of the {len(instance.points)} sides, "
            f"or None, got {describe(value)}"
        )


@attrs.frozen
class RecordedResult:
    """A hand's result as a record states it: card points per side, and the winning side."""

    #: Card points per side, in ``state.sides`` order.
    points: tuple[int, ...] = attrs.field(converter=_points)
    #: The index of the winning side, or ``None`` for a tie (or a void auction hand).
    winner: int | None = attrs.field(validator=_winner)

    @classmethod
    def of(cls, state: State) -> RecordedResult:
        """The result of a finished hand, as a record keeps it."""
        outcome = result(state)
        return cls(outcome.points, outcome.winner)


def _result(value: object) -> RecordedResult | None:
    if value is None or isinstance(value, RecordedResult):
        return value
    raise NotationError(f"result must be a RecordedResult or None, got {describe(value)}")


def _check_rules(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if type(value) is not Rules:  # the type itself, as `checked_rules` has it
        raise RulesError(f"rules must be a brisca.Rules, got {describe(value)}")


def _preset(value: object) -> str | None:
    if value is None:
        return None
    name = text_of(value)
    if name not in PRESETS:
        raise unknown_preset(value)
    return name


@attrs.frozen
class GameRecord:
    """One hand, as a record: enough to replay it, plus its result and metadata.

    Build one with :func:`record_game` or read one with :func:`loads`; the
    constructor checks the types of every field, and :func:`validate` checks
    that the actions are legal.
    """

    #: The rules the hand was played under.
    rules: Rules = attrs.field(validator=_check_rules)
    #: The dealing seat.
    dealer: int
    #: The actions in order, as text (canonical notation when recorded by this library).
    actions: tuple[str, ...] = attrs.field(converter=_actions)
    #: The seed the hand was shuffled from, or ``None`` when `deck` gives the order.
    seed: int | None = None
    #: The order in which the cards left the pack, or ``None`` when `seed` gives it.
    deck: tuple[Card, ...] | None = attrs.field(default=None, converter=_deck)
    #: Which hand of a match this was, from 0; it picks the trump under ``suit_rotation``.
    hand_number: int = 0
    #: The preset the rules are written against in JSON (as overrides), or ``None`` to
    #: write every option.
    preset: str | None = attrs.field(default=None, converter=_preset)
    #: The result, or ``None`` when not recorded (or not over).
    result: RecordedResult | None = attrs.field(default=None, converter=_result)
    #: The players' names, by seat; empty when not recorded.
    players: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    #: When the hand was played: free text, ISO 8601 advised.
    date: str | None = attrs.field(default=None, converter=_date)
    #: The event (tournament, club, site) it was played at.
    event: str | None = attrs.field(default=None, converter=_event)
    #: Free tags, as sorted ``(name, value)`` pairs; a mapping is accepted.
    tags: tuple[tuple[str, str], ...] = attrs.field(default=(), converter=_tags)

    def __attrs_post_init__(self) -> None:
        n = self.rules.num_players
        if not _is_int(self.dealer) or not 0 <= self.dealer < n:
            raise StateError(
                f"dealer must be a seat from 0 to {n - 1}, got {describe(self.dealer)}"
            )
        if (self.seed is None) == (self.deck is None):
            raise NotationError("a record gives either a seed or a deck, not both or neither")
        # Not a count: a NotationError; past the deal's bounds, its StateError.
        if self.seed is not None:
            if not _is_int(self.seed) or self.seed < 0:
                raise NotationError(f"seed must be a non-negative int, got {describe(self.seed)}")
            checked_int(self.seed, "seed", 0, MAX_SEED)
        if not _is_int(self.hand_number) or self.hand_number < 0:
            raise NotationError(
                f"hand_number must be a non-negative int, got {describe(self.hand_number)}"
            )
        checked_int(self.hand_number, "hand_number", 0, MAX_HAND_NUMBER)
        if self.deck is not None:  # what the deal takes, checked now: it is written as it is
            checked_deck(self.deck, self.rules.cards)
        if self.players and len(self.players) != n:
            raise NotationError(f"players names {len(self.players)} seats; the rules have {n}")
        # Text a UTF-8 file cannot hold would make a record that cannot be written.
        for name in ("actions", "players", "date", "event", "tags"):
            refuse_lone_surrogates(getattr(self, name), f"record {name}")

    def initial_state(self) -> State:
        """The hand as dealt.

        Raises:
            StateError: the deck is not a permutation of the rules' pack.
        """
        return new_game(
            self.rules,
            seed=self.seed,
            deck=self.deck,
            dealer=self.dealer,
            hand_number=self.hand_number,
        )

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready data, in the documented format."""
        rules = (
            {"options": self.rules.to_dict()}
            if self.preset is None
            else rules_to_dict(self.rules, self.preset)
        )
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "rules": rules,
            "dealer": self.dealer,
            "hand_number": self.hand_number,
        }
        if self.seed is not None:
            data["seed"] = self.seed
        else:
            data["deck"] = [c.code for c in self.deck or ()]
        data["actions"] = list(self.actions)
        data["result"] = (
            None
            if self.result is None
            else {"points": list(self.result.points), "winner": self.result.winner}
        )
        if self.players:
            data["players"] = list(self.players)
        if self.date is not None:
            data["date"] = self.date
        if self.event is not None:
            data["event"] = self.event
        if self.tags:
            data["tags"] = dict(self.tags)
        return data

    @classmethod
    def from_dict(cls, data: object) -> GameRecord:
        """Read a record from JSON data, checking its form (not the legality of its actions).

        Raises:
            NotationError: the data is not a record of this format and version.
            RulesError: the rules in it are invalid.
            StateError: the dealer is not a seat of those rules.
        """
        record = Fields(data, "record")
        if record.get("format", str) != FORMAT:  # plain text, as Fields gives it
            raise NotationError(f"not a {FORMAT} record")
        version = record.get("version", int)
        if type(version) is not int or version != VERSION:  # a subclass's own != never runs
            raise NotationError(
                f"{FORMAT} version {describe(version, typed=False)} is not supported; "
                f"this reads {VERSION}"
            )
        record.only(_TOP_KEYS)
        rules, preset = read_record_rules(record.get("rules", dict))
        has_seed, has_deck = "seed" in record.data, "deck" in record.data
        if has_seed == has_deck:
            raise NotationError("a record gives either a seed or a deck, not both or neither")
        # One card past the largest pack at most: the rules' own pack is checked after.
        deck = record.get("deck", list)[: _MOST_CARDS + 1] if has_deck else None
        if deck is not None and not (only_strings(deck) or all(isinstance(c, str) for c in deck)):
            raise NotationError("deck must be a list of card codes")
        actions = record.get("actions", list)
        _too_many(len(actions))
        if not (only_strings(actions) or all(isinstance(a, str) for a in actions)):
            raise NotationError("actions must be a list of strings in action notation")
        raw_result = record.get("result", dict, required=False, nullable=True)
        outcome = None
        if raw_result is not None:
            fields = Fields(raw_result, "result")
            fields.only(("points", "winner"))
            outcome = RecordedResult(
                fields.get("points", list), fields.get("winner", int, nullable=True)
            )
        players = record.get("players", list, required=False) or ()
        tags = record.get("tags", dict, required=False) or {}
        hand_number = record.get("hand_number", int, required=False)
        return cls(
            rules,
            record.get("dealer", int),
            actions,
            seed=record.get("seed", int) if has_seed else None,
            deck=deck,
            hand_number=0 if hand_number is None else hand_number,
            preset=preset,
            result=outcome,
            players=players,
            date=record.get("date", str, required=False),
            event=record.get("event", str, required=False),
            tags=tags,
        )


# Rules read before, by the canonical text of their JSON form: a loader reads the same
# few rules over and over, and each read builds every option of the preset. Only short
# forms that read are kept, at most 256 of them, so untrusted input cannot grow it.
_RULES_READ: dict[str, tuple[Rules, str | None]] = {}
_RULES_KEY_MAX = 4096
_KEY_TEXT = json.JSONEncoder(sort_keys=True).encode  # json.dumps(data, sort_keys=True)


def read_record_rules(data: dict[str, Any]) -> tuple[Rules, str | None]:
    """The rules a record's ``"rules"`` field gives, and the preset it names: what
    :func:`brisca.game.presets.read_rules` gives, read once for each JSON form, and the
    preset's own `Rules` object when equal to one.

    Raises:
        NotationError: neither form, or a field of the wrong type.
        RulesError: an unknown preset, or options the rules refuse.
    """
    # A preset as `rules_to_dict` writes one, the form of nearly every record and save:
    # no key to write. Exact types only, keys too, as the cache below keys plain JSON only.
    if type(data) is dict and len(data) == 2 and all(type(key) is str for key in data):
        name, overrides = data.get("preset"), data.get("overrides")
        if type(name) is str and type(overrides) is dict and not overrides and name in PRESETS:
            return PRESETS[name], name
    if not plain_json(data):  # a subclass or tuple writes as plain JSON: read it uncached
        return read_rules(data)
    try:
        key = _KEY_TEXT(data)
    except (TypeError, ValueError, RecursionError):  # not plain JSON: read it uncached
        return read_rules(data)
    known = _RULES_READ.get(key)
    if known is None:
        rules, preset = read_rules(data)
        # The preset's own object when equal, so that the engine's caches, keyed by rules,
        # hit at once for states both dealt from presets and loaded.
        same = preset_name(rules)
        known = (rules if same is None else PRESETS[same]), preset
        if len(key) <= _RULES_KEY_MAX:
            if len(_RULES_READ) >= 256:
                _RULES_READ.clear()
            _RULES_READ[key] = known
    return known


_TOP_KEYS = (
    "format",
    "version",
    "rules",
    "dealer",
    "hand_number",
    "seed",
    "deck",
    "actions",
    "result",
    "players",
    "date",
    "event",
    "tags",
)


def dumps(record: GameRecord, *, indent: int | None = None) -> str:
    """The record as JSON text in the documented format; :func:`loads` reads it back.

    Raises:
        NotationError: `record` is not a GameRecord, or `indent` is not None or an int >= 0.
    """
    if not isinstance(record, GameRecord):
        raise NotationError(f"expected a GameRecord, got {type(record).__name__}")
    if indent is not None and (type(indent) is not int or not 0 <= indent <= 64):
        raise NotationError(f"indent must be None or an int from 0 to 64, got {describe(indent)}")
    return json.dumps(record.to_dict(), indent=indent, ensure_ascii=False)


def dump(record: GameRecord, fp: IO[str], *, indent: int | None = None) -> None:
    """Write the record as JSON to the text file `fp`.

    Raises:
        NotationError: as :func:`dumps`, or `fp` has no ``write`` method, or writing to
            it fails other than with an ``OSError`` (a binary file, a closed one).
    """
    text = dumps(record, indent=indent)
    try:
        write = getattr(fp, "write", None)
        if not callable(write):
            raise NotationError(f"fp must be a text file open for writing, got {describe(fp)}")
        write(text)
    except BriscaError:
        raise
    except BARE_ERRORS as error:  # a binary file, a closed one: an OSError passes
        raise NotationError(
            f"cannot write to {describe(fp)} ({type(error).__name__}): fp must be a text "
            "file open for writing"
        ) from None


def loads(text: str | bytes, *, play: bool = True) -> GameRecord:
    """Read a record written by :func:`dumps`, and play it: like :func:`brisca.loads`, it
    accepts only what play reaches. :func:`validate` reports the first problem instead.

    With ``play=False`` it reads the record's form alone, as the constructor checks it,
    so that every record :func:`dumps` writes reads back equal, a record of illegal
    moves too (for :func:`validate` to judge, say):

    >>> import brisca
    >>> odd = GameRecord(brisca.preset("spanish-2p"), 0, ["1O"], seed=1)
    >>> loads(dumps(odd), play=False) == odd
    True
    >>> validate(dumps(odd)).kind
    'illegal action'

    Raises:
        NotationError: the text is not JSON, or not a record of this format and version,
            or an action cannot be read (when played).
        RulesError: the rules in it are invalid.
        StateError: the dealer is not a seat of those rules; when played, an action is
            illegal or the recorded result is not the game's; `play` is not a bool.
    """
    checked_type(play, bool, "play to be True or False")
    record = _read(text)
    if not play:
        return record
    problem = validate(record)
    if problem is None:
        return record
    shown = describe(problem.action, 40, typed=False)
    where = "" if problem.index is None else f"action {problem.index} ({shown}): "
    error = NotationError if problem.kind == "malformed action" else StateError
    raise error(f"no game plays this record: {where}{problem.reason[:160]}")


def _read(text: str | bytes) -> GameRecord:
    """The record `text` holds, its form checked but not its actions."""
    return GameRecord.from_dict(parse(text, "a JSON game record"))


def load(fp: IO[str] | IO[bytes], *, play: bool = True) -> GameRecord:
    """Read a record from the file `fp`, as :func:`loads` does.

    Raises:
        NotationError: as :func:`loads`, or `fp` has no ``read`` method, or reading from
            it fails other than with an ``OSError`` (a closed file).
    """
    checked_type(play, bool, "play to be True or False")
    try:
        read = getattr(fp, "read", None)
        if not callable(read):
            raise NotationError(f"fp must be a file open for reading, got {describe(fp)}")
        text = read()
    except BriscaError:
        raise
    except BARE_ERRORS as error:  # a closed file, say: an OSError passes
        raise NotationError(
            f"cannot read from {describe(fp)} ({type(error).__name__}): fp must be a file "
            "open for reading"
        ) from None
    return loads(text, play=play)


def deck_order(state: State) -> tuple[Card, ...]:
    """The deck order that dealt `state`'s hand: what ``new_game(deck=...)`` takes.

    The deal one card at a time from the seat after the dealer, then the turned
    card where one is turned, then the stock in draw order.

    Raises:
        StateError: `state` is not a State.
    """
    if not isinstance(state, State):
        raise StateError(f"expected a brisca.State, got {type(state).__name__}")
    with as_state_error("the state"):
        deck = state.deal.deck
    if type(deck) is not tuple or not all(type(card) is Card for card in deck):
        raise StateError("the state is inconsistent: its deal holds no deck of cards")
    return deck


def record_game(
    state: State,
    actions: Iterable[Action | str] | None = None,
    *,
    preset: str | None = None,
    players: Sequence[str] = (),
    date: str | None = None,
    event: str | None = None,
    **tags: str,
) -> GameRecord:
    """Record a hand: `state` with its whole history, or a fresh deal then `actions`.

    A state carries its deal and every action since, so ``record_game(state)``
    records the hand so far, finished or not. Given `actions` too, `state` is
    the starting point and the record goes on with them. The record keeps the
    seed, or when there is none the deck order, the hand number, the actions in
    canonical notation and, once they end the hand, its result.

    Args:
        state: a state of the hand.
        actions: actions (or their text) to play after `state`, in order.
        preset: write the rules as this preset plus overrides; by default the
            preset the rules equal, if any, else every option.
        players: the players' names by seat; `date`, `event` and any other
            keyword (a tag) are free text.

    Raises:
        StateError: `state` is not a State.
        NotationError: an action cannot be read, or `actions` cannot be (its iteration
            fails).
        IllegalActionError: an action is illegal; the message gives its index.
    """
    if not isinstance(state, State):
        raise StateError(f"expected a brisca.State, got {type(state).__name__}")
    with as_state_error("the state"):
        rules = state.rules
        if preset is None:
            preset = preset_name(rules)
        texts = [str(a) for a in state.history]
    if actions is not None:
        if isinstance(actions, (str, bytes)) or not isinstance(actions, Iterable):
            raise NotationError(f"actions must be a sequence of actions, got {describe(actions)}")
        # One past the most a hand takes, at most: apply refuses any once the hand is over.
        items: tuple[Action | str, ...] = _taken(actions, MAX_DEAL_ACTIONS, "actions")
        for item in items:
            index = len(texts)
            action = parse_action(item) if isinstance(item, str) else item
            if not isinstance(action, ACTION_TYPES):
                raise NotationError(f"action {index} is no action: {describe(action)}")
            try:
                state = apply(state, action)
            except IllegalActionError as error:
                shown = (
                    action if type(action).__module__ == "brisca.game.actions" else describe(action)
                )
                raise IllegalActionError(f"action {index} ({shown}): {error}") from None
            texts.append(str(action))
    with as_state_error("the state"):
        deal = state.deal
        return GameRecord(
            rules,
            state.dealer,
            texts,
            seed=deal.seed,
            deck=None if deal.seed is not None else deal.deck,
            hand_number=deal.hand_number,
            preset=preset,
            result=RecordedResult.of(state) if state.is_over else None,
            players=players,
            date=date,
            event=event,
            tags=tags,
        )


def replay(record: GameRecord) -> Iterator[State]:
    """The states of the recorded hand: the deal first, then the state after each action.

    The states are made as the iterator is consumed, so an error comes when the
    faulty action is reached.

    Raises:
        StateError: the record's deck is not a permutation of the pack.
        NotationError: an action cannot be read; the message gives its index.
        IllegalActionError: an action is illegal; the message gives its index and why.
    """
    if not isinstance(record, GameRecord):
        raise NotationError(f"expected a GameRecord, got {type(record).__name__}")
    state = record.initial_state()
    yield state
    yield from _played(state, record.actions)


def _played(state: State, texts: Sequence[str]) -> Iterator[State]:
    """Each state after `state` as the actions `texts` write are read and played, with
    errors that name the action."""
    for index, text in enumerate(texts):
        try:
            action = parse_action(text)
        except NotationError as error:
            raise NotationError(_at(index, text, error)) from None
        try:
            state = apply(state, action)
        except IllegalActionError as error:
            raise IllegalActionError(_at(index, text, error)) from None
        yield state


def _at(index: int, text: str, error: BriscaError) -> str:
    """The message of `error`, raised by action `index`, which reads `text`."""
    return f"action {index} ({describe(text, typed=False)}): {error}"


def replay_from(state: State, texts: Sequence[str]) -> State:
    """`state` after the actions `texts` write, read and played in turn: the last state
    :func:`replay` gives, with its errors, without the states between.

    Raises:
        StateError: `state` is not a `State`.
        NotationError: `texts` is not a list or tuple, or holds more than
            `MAX_DEAL_ACTIONS` (refused before any is read), or an action cannot be read;
            the message gives its index.
        IllegalActionError: an action is illegal; the message gives its index and why.
    """
    if type(state) is not State:
        raise StateError(f"replay_from needs a brisca.State, got {describe(state)}")
    kind = type(texts)
    if kind is not list and kind is not tuple:
        if not issubclass(kind, (list, tuple)):
            raise NotationError(f"the actions must be a list of notation, got {describe(texts)}")
        # A subclass's items, read by list's or tuple's own C methods: its len or iter may raise.
        mine: Any = texts  # a list or a tuple, as its type says
        texts = list(list.__iter__(mine) if issubclass(kind, list) else tuple.__iter__(mine))
    _too_many(len(texts), "a replay")  # before any text is read: no hand takes them all
    actions = None
    if only_strings(texts):  # plain text, which reading can fail only with NotationError
        # On a NotationError, the loop below finds which fails, or an illegal action before.
        with contextlib.suppress(NotationError):
            actions = parse_actions(texts)
    if actions is not None:  # every text reads: only the rules can refuse one
        state, done, refused = applied_in_turn(state, actions)
        if refused is not None:
            raise IllegalActionError(_at(done, texts[done], refused))
        return state
    last = state
    for last in _played(state, texts):  # noqa: B007 (the last one)
        pass
    return last


def final_state(record: GameRecord | str | bytes) -> State:
    """The state the record's hand ends in (or reaches, for a hand cut short): its
    score is ``brisca.result(final_state(record))`` once it is over.

    `record` is a `GameRecord` or the text of one, as :func:`loads` reads it.

    >>> import brisca
    >>> state = brisca.new_game("spanish-2p", seed=7)
    >>> while not state.is_over:
    ...     state = brisca.apply(state, brisca.legal_actions(state)[0])
    >>> text = dumps(record_game(state))
    >>> brisca.result(final_state(text)).points
    (85, 35)

    Raises:
        NotationError: the text is not a record, or an action cannot be read.
        IllegalActionError: an action is illegal.
        StateError: the record's deck is not a permutation of the pack.
    """
    if isinstance(record, (str, bytes, bytearray)):
        record = loads(record)
    if not isinstance(record, GameRecord):
        raise NotationError(f"expected a GameRecord, got {type(record).__name__}")
    return replay_from(record.initial_state(), record.actions)


@attrs.frozen
class Problem:
    """What is wrong with a record: the first bad action, or the record itself."""

    #: The index of the faulty action, or ``None`` when the record itself is at fault.
    index: int | None
    #: The faulty action's text, or ``None``.
    action: str | None
    #: Why: the engine's reason for refusing the action, or what is malformed.
    reason: str
    #: ``"malformed record"``, ``"malformed action"``, ``"illegal action"`` or ``"wrong result"``.
    kind: str


def validate(record: GameRecord | str | bytes | Mapping[str, Any]) -> Problem | None:
    """The first problem with a record, or ``None`` when it is sound; never raises on bad input.

    It accepts a record, its JSON text or its JSON data. It reads the record,
    deals the hand and plays every action through the engine, and checks a
    recorded result against the game's.
    """
    try:
        if isinstance(record, (str, bytes, bytearray)):
            record = _read(record)
        elif not isinstance(record, GameRecord):
            # A mapping read as a JSON object: at most MAX_KEYS items, each key text.
            data = (
                plain_keys(record, "record", text_only=True)
                if isinstance(record, Mapping)
                else record
            )
            record = GameRecord.from_dict(data)
        state = record.initial_state()
    except BriscaError as error:
        return Problem(None, None, str(error), "malformed record")
    except BARE_ERRORS as error:
        # A Mapping or a hand-built GameRecord that breaks on reading: still no exception.
        return Problem(
            None, None, f"unreadable record ({type(error).__name__})", "malformed record"
        )
    for index, text in enumerate(record.actions):
        try:
            action = parse_action(text)
        except BriscaError as error:
            return Problem(index, text, str(error), "malformed action")
        try:
            state = apply(state, action)
        except BriscaError as error:
            return Problem(index, text, str(error), "illegal action")
    expected = record.result
    if expected is None:
        return None
    if not state.is_over:
        why = f"a result is recorded but the hand is not over after {len(record.actions)} actions"
        return Problem(None, None, why, "wrong result")
    actual = RecordedResult.of(state)
    if actual != expected:
        why = (
            f"the recorded result (points {list(expected.points)}, winner {expected.winner}) "
            f"is not the game's (points {list(actual.points)}, winner {actual.winner})"
        )
        return Problem(None, None, why, "wrong result")
    return None


def record_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the record format, as shipped with the package."""
    path = resources.files("brisca.formats").joinpath("schemas").joinpath("record.schema.json")
    text = path.read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
