"""States as JSON: :func:`dumps` and :func:`loads`, with ``loads(dumps(s)) == s``.

A state is saved as its history: the rules, the dealer, the hand number, the
seed or the deck order, and every action since the deal. :func:`loads` deals
the hand again and plays every action through :func:`brisca.apply`, so it
accepts exactly the states that play can reach: the engine's one rule check
decides, and nothing else needs trusting. A state that play cannot reach has
no history that leads to it, so it cannot be written in this format at all.

The cost is mostly the replay, one ``apply`` per recorded action: about 0.2 ms
for a whole 2-player hand on the development machine, and reading the text adds
about a quarter to that bare replay (``benchmarks/loading.py``).
A state is one hand, at most ``MAX_DEAL_ACTIONS`` actions, and its text is read
by :func:`brisca.game.jsonio.parse` (at most ``MAX_TEXT`` long, and plain JSON: no
key twice, no lone surrogate), so :func:`loads` costs time linear in the text, at
worst about 0.5 s per MiB of junk (``benchmarks/loading.py --readers 1024``).

The format (version 2) is that of a game record (:mod:`brisca.formats.records`)
without its result and metadata::

    {"format": "brisca-state", "version": 2,
     "rules": {"preset": "spanish-2p", "overrides": {}},
     "dealer": 1, "hand_number": 0, "seed": 7,
     "actions": ["2O", "2C", "11O"]}

with ``"deck": ["1O", ...]`` in place of ``"seed"`` for a hand dealt from a
given order. The JSON holds the whole truth, since the seed or deck gives every
hidden card: send a seat its :func:`brisca.observe` view instead.
"""

from __future__ import annotations

import json
import threading
from fractions import Fraction
from typing import Any

from brisca.formats.records import FORMAT as RECORD_FORMAT
from brisca.formats.records import VERSION as RECORD_VERSION
from brisca.formats.records import GameRecord, read_record_rules, record_game, replay_from
from brisca.game.actions import parse_action
from brisca.game.engine import apply, new_game
from brisca.game.errors import (
    BARE_ERRORS,
    BriscaError,
    IllegalActionError,
    NotationError,
    StateError,
    as_brisca_error,
    describe,
)
from brisca.game.jsonio import Fields, only_strings, parse
from brisca.game.match import (
    MAX_ACTIONS,
    MAX_DEAL_ACTIONS,
    MAX_DEALS,
    Match,
    match_with_hand,
    new_match,
)
from brisca.game.rules import Rules
from brisca.game.state import State

__all__ = [
    "FORMAT",
    "MATCH_FORMAT",
    "MATCH_VERSION",
    "MAX_ACTIONS",
    "MAX_DEALS",
    "MAX_DEAL_ACTIONS",
    "MAX_MATCH_TEXT",
    "VERSION",
    "check_state",
    "dumps",
    "dumps_match",
    "dumps_played",
    "loads",
    "loads_match",
]

#: The ``"format"`` of a saved state.
FORMAT = "brisca-state"
#: The version of the state format this library writes and reads.
VERSION = 2
#: The ``"format"`` of a saved match, and the version this library writes and reads.
MATCH_FORMAT = "brisca-match"
MATCH_VERSION = 1


def dumps(state: State | Match) -> str:
    """The state (or match) as JSON text, hidden cards included.

    The text holds the deal and the history, which :func:`loads` replays, so a state
    edited by hand, which they do not reach, is refused (see :func:`check_state`)
    rather than written as another.

    Raises:
        StateError: `state` is neither a State nor a Match, or is not the state its
            deal and history reach.
    """
    if type(state) is Match:
        return dumps_match(state)
    if type(state) is not State:
        raise StateError(f"expected a brisca.State or brisca.Match, got {type(state).__name__}")
    return _text(_reached(state))


def dumps_played(state: State | Match) -> str:
    """:func:`dumps` of a state that play made (the engine's, or one :func:`loads`
    gave), without the replay that refuses a hand-edited one: for a writer of its own
    states after every move, such as the server's store. It does not check a state
    edited by hand, which may come out as the state its deal and history reach.

    Raises:
        StateError: `state` is neither a State nor a Match.
    """
    if type(state) is State:
        return _text(record_game(state))
    return dumps(state)


def _text(record: GameRecord) -> str:
    data = record.to_dict()
    del data["result"]
    return json.dumps({**data, "format": FORMAT, "version": VERSION})


def loads(text: str | bytes) -> Any:
    """Read a state (or match) written by :func:`dumps`, replaying its history.

    A ``brisca-match`` document gives a `Match`, read by :func:`loads_match`.

    Raises:
        NotationError: the text is not a saved state (bad JSON, shape or notation).
        RulesError: the rules in it are invalid.
        StateError: the document reads, but play cannot reach it: an action is illegal.
    """
    data = parse(text, "a JSON state")
    kind = data.get("format") if isinstance(data, dict) else None
    if kind == MATCH_FORMAT:
        return _read_match(data)  # parsed once, read as loads_match reads it
    if kind == FORMAT and data.keys() == _USUAL_KEYS:
        usual = _usual(data)
        if usual is not None:
            return usual
    fields = Fields(data, FORMAT)
    if kind == RECORD_FORMAT:
        raise NotationError(
            f"not a {FORMAT} document but a {RECORD_FORMAT} (a game record): read it with "
            "brisca.records.loads, and brisca.records.final_state for its last state"
        )
    if kind != FORMAT:
        raise NotationError(f"not a {FORMAT} document")
    version = fields.get("version", int)
    if version != VERSION:
        raise NotationError(
            f"{FORMAT} version {describe(version, typed=False)} is not supported; "
            f"this reads {VERSION}"
        )
    fields.only(_KEYS)
    record = GameRecord.from_dict({**data, "format": RECORD_FORMAT, "version": RECORD_VERSION})
    return _replayed(record)


#: The fields of a saved state: those of a game record but its result and metadata.
_KEYS = ("format", "version", "rules", "dealer", "hand_number", "seed", "deck", "actions")
#: The fields :func:`dumps` writes for a hand dealt from a seed.
_USUAL_KEYS = frozenset(_KEYS) - {"deck"}


def _usual(data: dict[str, Any]) -> State | None:
    """The state a saved state reaches, read without building a `GameRecord`, when it
    has the shape :func:`dumps` gives a seeded hand, fields of their exact types that
    no check of the full reader refuses (the rules are read as it reads them, first);
    else ``None``, and the full reader answers. The replay is the same."""
    version, dealer, number = data["version"], data["dealer"], data["hand_number"]
    seed, actions = data["seed"], data["actions"]
    if not (
        type(version) is int
        and version == VERSION
        and type(data["rules"]) is dict
        and type(dealer) is int
        and type(number) is int
        and number >= 0
        and type(seed) is int
        and seed >= 0
        and type(actions) is list
        and len(actions) <= MAX_DEAL_ACTIONS
        and only_strings(actions)
        and "".join(actions).isascii()  # no lone surrogate, nor any text to doubt
    ):
        return None
    rules, _ = read_record_rules(data["rules"])
    if not 0 <= dealer < rules.num_players:
        return None
    state = new_game(rules, seed=seed, dealer=dealer, hand_number=number)
    try:
        return replay_from(state, actions)
    except IllegalActionError as error:
        raise StateError(f"no game reaches this state: {error}") from None


def _replayed(record: GameRecord) -> State:
    """The state the record's actions reach; an illegal one means no game reaches it."""
    try:
        return replay_from(record.initial_state(), record.actions)
    except IllegalActionError as error:
        raise StateError(f"no game reaches this state: {error}") from None


def check_state(state: State) -> None:
    """Check that play reaches `state`: deal it again and replay its history.

    Every state the engine makes passes; this catches one built or edited by
    hand (for example with ``attrs.evolve``).

    Raises:
        StateError: `state` is not a State, or is not the state its history reaches.
    """
    if type(state) is not State:
        raise StateError(f"expected a brisca.State, got {type(state).__name__}")
    _reached(state)


def _reached(state: State) -> GameRecord:
    """The record of `state`'s deal and history, once their replay is known to reach it."""
    try:
        record = record_game(state)
    except BriscaError as error:
        raise StateError(f"no game reaches this state: {error}") from None
    reached = _one_past_proved(state, record) or _replayed(record)
    try:  # a hand-edited field's own __eq__ may raise anything
        same = bool(reached == state)
    except BARE_ERRORS as error:
        raise as_brisca_error("the state", error) from None
    if not same:
        raise StateError("the state is not the one its deal and history reach")
    with _PROVED_LOCK:
        _PROVED[id(state.trail)] = (state.trail, reached, _inputs(record, len(record.actions)))
        while len(_PROVED) > _PROVED_MOST:
            del _PROVED[next(iter(_PROVED))]
    return record


#: The states `_reached` proved lately, by the id of the caller's trail (held, so that
#: no other trail takes its id): the trail, the replay's own state, never the caller's
#: (which may be edited after), and what that replay read. A state one action past one
#: of them is replayed from it by that action alone, for a caller that saves after
#: every move: the same state the whole replay gives, at the cost of one move.
_PROVED: dict[int, tuple[object, State, tuple[object, ...]]] = {}
_PROVED_MOST = 64
_PROVED_LOCK = threading.Lock()


def _inputs(record: GameRecord, actions: int) -> tuple[object, ...]:
    """What a replay of `record`'s first `actions` actions reads."""
    deal = (record.rules, record.seed, record.deck, record.dealer, record.hand_number)
    return (*deal, record.actions[:actions])


def _one_past_proved(state: State, record: GameRecord) -> State | None:
    """The replay of `record` from a state proved lately, when `state` is one action
    past it and the record reads as that state's did; else ``None`` (replay it whole)."""
    trail = state.trail
    if type(trail) is not tuple or len(trail) != 2 or not record.actions:
        return None
    found = _PROVED.get(id(trail[0]))
    if found is None:
        return None
    held, before, inputs = found
    if held is not trail[0] or inputs != _inputs(record, len(record.actions) - 1):
        return None
    try:
        return replay_from(before, record.actions[-1:])
    except BriscaError:  # the whole replay names the action by its place
        return None


#: The longest match record :func:`loads_match` reads, in characters (or bytes):
#: more than any match within the caps of `brisca.game.match` makes. Its actions
#: take at most 2.1 MB (21 characters each, quoted), its decks 3.4 MB, its hand
#: records 3 MB, and a stake doubled by replayed ties in a row (at most 5,000 of
#: them, each of 20 cards or more) adds its digits to each record: 4 MB.
MAX_MATCH_TEXT = 16 * 2**20


def dumps_match(match: Match) -> str:
    """The match as JSON text, hidden cards and the seed included.

    The record holds what decides the match (rules, seed, decks, an agreed
    first dealer, and every action in its text form, one list per deal) and,
    for readers, what follows from it (cut, hands, standings, stake, winners)::

        {"format": "brisca-match", "version": 1, "rules": {...}, "seed": 7,
         "decks": null, "first_dealer": 1, "first_dealer_agreed": false,
         "cut": [[[0, "10C"], [1, "6O"]]], "actions": [["3C", "1O", ...], [...]],
         "hands": [{"number": 0, "dealer": 1, "stake": 1, "points": [46, 74],
                    "winner": 1, "tied": [], "tricks_won": [9, 11],
                    "credits": [[0, 1], [1, 1]], "replayed": false}, ...],
         "standings": [[1, 1], [3, 1]], "stake": 1, "ties": 0, "over": true,
         "winners": [1]}

    Raises:
        StateError: `match` is not a Match, its seed is too long for JSON, or it is
            inconsistent (hand-edited fields that clash).
    """
    if type(match) is not Match:
        raise StateError(f"expected a brisca.Match, got {describe(match)}")
    try:
        record = _record(match)
    except BARE_ERRORS as error:
        raise as_brisca_error("the match", error) from None
    try:
        return json.dumps(record, allow_nan=False)  # a hand-edited NaN is no JSON either
    except ValueError as error:  # an int past Python's digit limit for text, a NaN, a cycle
        raise StateError(f"the match cannot be written as JSON: {error}") from None
    except BARE_ERRORS as error:  # a hand-edited field of no JSON type
        raise as_brisca_error("the match", error) from None


def _fraction(value: Fraction) -> list[int]:
    return [value.numerator, value.denominator]


def _record(match: Match) -> dict[str, Any]:
    return {
        "format": MATCH_FORMAT,
        "version": MATCH_VERSION,
        "rules": match.rules.to_dict(),
        "seed": match.seed,
        "decks": None if match.decks is None else [[c.code for c in d] for d in match.decks],
        "first_dealer": match.first_dealer,
        "first_dealer_agreed": match.first_dealer_agreed,
        "cut": [[[seat, c.code] for seat, c in cut] for cut in match.cut],
        "actions": [[str(a) for a in hand] for hand in match.actions],
        "hands": [
            {
                "number": h.number,
                "dealer": h.dealer,
                "stake": h.stake,
                "points": list(h.result.points),
                "winner": h.result.winner,
                "tied": list(h.result.tied),
                "tricks_won": list(h.tricks_won),
                "credits": [_fraction(c) for c in h.credits],
                "replayed": h.replayed,
            }
            for h in match.hands
        ],
        "standings": [_fraction(s) for s in match.standings],
        "stake": match.stake,
        "ties": match.ties,
        "over": match.is_over,
        "winners": list(match.winners),
    }


_RECORD_KEYS = (
    "format",
    "version",
    "rules",
    "seed",
    "decks",
    "first_dealer",
    "first_dealer_agreed",
    "cut",
    "actions",
    "hands",
    "standings",
    "stake",
    "ties",
    "over",
    "winners",
)


def _replay_deal(match: Match, k: int, texts: list[str]) -> Match:
    """`match` after deal `k`'s recorded actions, which must all belong to that deal.

    The hand is played state by state and the match taken on once, when the deal's
    actions are done (:func:`brisca.game.match.match_with_hand`): rebuilding it per
    action would copy its history every time.
    """
    state = match.state
    for j, text_action in enumerate(texts):
        action = parse_action(text_action)
        if match.hand_number != k or state is None or state.is_over:
            raise StateError(
                f"match record: action {j} of deal {k} "
                f"({describe(text_action, typed=False)}) does not belong to that deal"
            )
        try:
            state = apply(state, action)
        except BriscaError as error:
            raise StateError(
                f"match record: action {j} of deal {k} "
                f"({describe(text_action, typed=False)}): {error}"
            ) from None
    if state is None:
        return match
    return match_with_hand(match, state)


def loads_match(text: str | bytes) -> Match:
    """Read a match written by :func:`dumps_match`, replaying it to check it.

    The match is rebuilt from its rules, seed, decks and actions through
    :func:`new_match` and :func:`match_apply`, so every action must be legal;
    then the rebuilt match's record must equal the text's, field by field and
    type by type (``true`` is not ``1``, nor ``1.0``), so a tampered cut,
    result, standing or stake is refused too.

    Before anything is replayed, the record is held to the caps of what a match
    can hold: at most :data:`MAX_MATCH_TEXT` characters, :data:`MAX_DEALS` deals,
    :data:`MAX_DEAL_ACTIONS` actions in a deal and :data:`MAX_ACTIONS` in all.
    Every match play makes fits them. The cost is the replay's, linear in the
    record (``tests/test_match_bounds.py`` checks it): at worst about 5 s per MiB,
    for chiamata hands whose auctions run through every rank and point, the
    densest work (such a match is 1 MiB at `MAX_ACTIONS` and loads in 4.7 s); void
    hands about 1.7 s per MiB; junk is refused at about 0.1 s per MiB. Measured on
    the development machine, 2 cores shared with other work.

    Raises:
        NotationError: the text is not a match record (bad JSON, shape, type or
            notation), or it is past one of the caps, which the message names.
        RulesError: the rules in it are invalid.
        StateError: the record reads, but its replay fails or disagrees with it.
    """
    # Measured as parse reads it: a subclass's own len never runs.
    size = _size(text)
    if size > MAX_MATCH_TEXT:
        raise NotationError(
            f"match record: {size} characters long; brisca reads at most "
            f"{MAX_MATCH_TEXT} (MAX_MATCH_TEXT)"
        )
    return _read_match(parse(text, "a JSON match record"))


def _size(text: object) -> int:
    """The length of text or bytes, by their own type's measure; 0 for anything else
    (which `parse` refuses)."""
    try:
        if issubclass(type(text), str):
            return str.__len__(text)  # type: ignore[arg-type]
        if isinstance(text, (bytes, bytearray)):
            return memoryview(text).nbytes
    except BARE_ERRORS:  # only claims to be text or bytes
        pass
    return 0


def _read_match(data: Any) -> Match:
    """The match a parsed match record holds (see :func:`loads_match`)."""
    record = Fields(data, "match record")
    if not isinstance(data, dict):
        raise NotationError(f"a match record must be a JSON object, got {describe(data)}")
    version = data.get("version")
    if data.get("format") != MATCH_FORMAT or type(version) is not int or version != MATCH_VERSION:
        raise NotationError(f"not a {MATCH_FORMAT} record of version {MATCH_VERSION}")
    record.only(_RECORD_KEYS)
    rules = Rules.from_dict(record.get("rules", dict))
    seed = record.get("seed", int)
    agreed = record.get("first_dealer_agreed", bool)
    dealer = record.get("first_dealer", int) if agreed else None
    raw_decks = record.get("decks", list, required=False, nullable=True)
    per_hand = record.get("actions", list)
    # Refuse an oversized record before reading it further or replaying any of it.
    for name, items in (("actions", per_hand), ("decks", raw_decks or ())):
        if len(items) > MAX_DEALS:
            raise NotationError(
                f"match record: {name} lists {len(items)} deals; brisca reads at most "
                f"{MAX_DEALS} (MAX_DEALS)"
            )
    per_hand = [
        Fields(h, f"match record: actions[{k}]").texts(None) for k, h in enumerate(per_hand)
    ]
    for k, hand in enumerate(per_hand):
        if len(hand) > MAX_DEAL_ACTIONS:
            raise NotationError(
                f"match record: actions[{k}] lists {len(hand)} actions; no deal takes "
                f"more than {MAX_DEAL_ACTIONS} (MAX_DEAL_ACTIONS)"
            )
    total = sum(map(len, per_hand))
    if total > MAX_ACTIONS:
        raise NotationError(
            f"match record: {total} actions; brisca reads at most {MAX_ACTIONS} (MAX_ACTIONS)"
        )
    decks = None
    if raw_decks is not None:
        decks = [
            Fields(d, f"match record: decks[{k}]").texts(None) for k, d in enumerate(raw_decks)
        ]
    match = new_match(rules, seed=seed, decks=decks, dealer=dealer)
    for k, hand in enumerate(per_hand):
        match = _replay_deal(match, k, hand)
    replayed = _record(match)
    differ = sorted(
        key for key in set(replayed) | set(data) if not _same(replayed.get(key), data.get(key))
    )
    if differ:
        raise StateError(
            f"match record: {', '.join(differ)} disagree(s) with the replay of its actions"
        )
    return match


def _same(mine: object, theirs: object) -> bool:
    """Whether two JSON values are equal with the same type at every level: their
    canonical texts are equal (``true``, ``1`` and ``1.0`` are three texts)."""
    return json.dumps(mine, sort_keys=True) == json.dumps(theirs, sort_keys=True)
