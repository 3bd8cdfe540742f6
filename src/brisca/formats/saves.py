"""States as JSON: :func:`dumps` and :func:`loads`, with ``loads(dumps(s)) == s``.

A state is saved as its history: the rules, the dealer, the hand number, the
seed or the deck order, and every action since the deal. :func:`loads` deals
the hand again and plays every action through :func:`brisca.apply`, so it
accepts exactly the states that play can reach: the engine's one rule check
decides, and nothing else needs trusting. A state that play cannot reach has
no history that leads to it, so it cannot be written in this format at all.

The cost is mostly the replay, one ``apply`` per recorded action: about 0.2 ms
for a whole 2-player hand on the development machine (``benchmarks/loading.py``).

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

import collections
import json
from typing import Any

from brisca.formats.records import FORMAT as RECORD_FORMAT
from brisca.formats.records import VERSION as RECORD_VERSION
from brisca.formats.records import GameRecord, record_game, replay
from brisca.game.errors import BriscaError, IllegalActionError, NotationError, StateError
from brisca.game.jsonio import Fields, parse
from brisca.game.match import Match, dumps_match, loads_match
from brisca.game.state import State

__all__ = ["FORMAT", "VERSION", "check_state", "dumps", "loads"]

#: The ``"format"`` of a saved state.
FORMAT = "brisca-state"
#: The version of the state format this library writes and reads.
VERSION = 2


def dumps(state: State | Match) -> str:
    """The state (or match) as JSON text, hidden cards included.

    Raises:
        StateError: `state` is neither a State nor a Match.
    """
    if type(state) is Match:
        return dumps_match(state)
    if type(state) is not State:
        raise StateError(f"expected a brisca.State or brisca.Match, got {type(state).__name__}")
    data = record_game(state).to_dict()
    del data["result"]
    return json.dumps({**data, "format": FORMAT, "version": VERSION})


def loads(text: str | bytes) -> Any:
    """Read a state (or match) written by :func:`dumps`, replaying its history.

    A ``brisca-match`` document gives a `Match`, read by :func:`brisca.game.match.loads_match`.

    Raises:
        NotationError: the text is not a saved state (bad JSON, shape or notation).
        RulesError: the rules in it are invalid.
        StateError: the document reads, but play cannot reach it: an action is illegal.
    """
    data = parse(text, "a JSON state")
    kind = data.get("format") if isinstance(data, dict) else None
    if kind == "brisca-match":
        return loads_match(text)
    fields = Fields(data, FORMAT)
    if kind != FORMAT:
        raise NotationError(f"not a {FORMAT} document")
    version = fields.get("version", int)
    if version != VERSION:
        raise NotationError(f"{FORMAT} version {version} is not supported; this reads {VERSION}")
    fields.only(_KEYS)
    record = GameRecord.from_dict({**data, "format": RECORD_FORMAT, "version": RECORD_VERSION})
    return _replayed(record)


#: The fields of a saved state: those of a game record but its result and metadata.
_KEYS = ("format", "version", "rules", "dealer", "hand_number", "seed", "deck", "actions")


def _replayed(record: GameRecord) -> State:
    """The state the record's actions reach; an illegal one means no game reaches it."""
    try:
        return collections.deque(replay(record), maxlen=1)[0]
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
    try:
        record = record_game(state)
    except BriscaError as error:
        raise StateError(f"no game reaches this state: {error}") from None
    if _replayed(record) != state:
        raise StateError("the state is not the one its deal and history reach")
