"""The game server over its real WebSocket protocol, through Starlette's ASGI test client.

Every seat here is a test client speaking the protocol of `brisca.server.protocol`;
the truth each message is checked against is the table in the server's store.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from starlette.testclient import TestClient

import brisca
from brisca import Card, records
from brisca.agents.bots import BOTS
from brisca.cli import main
from brisca.cli.serve import listen
from brisca.game.engine import trump_is_public
from brisca.game.rules import PartnerHandVisibility
from brisca.server import protocol
from brisca.server.app import OUTBOX, Connection, Limits, create_app
from brisca.server.protocol import MAX_MESSAGE
from brisca.server.store import MemoryStore, StoreFull, TableStore
from brisca.server.tables import Table, new_table, read_rules

CARD = re.compile(r"^\d{1,2}[OCEB]$")


class Seat:
    """One seat's browser: a WebSocket of the test client, and every message it got."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.messages: list[dict[str, Any]] = []
        #: The updates as they came, their finished tricks incremental.
        self.wire: list[dict[str, Any]] = []
        # The finished tricks of the hand, kept from update to update as the web
        # client keeps them.
        self.tricks: list[Any] = []

    def send(self, message: object) -> None:
        self.session.send_text(message if isinstance(message, str) else json.dumps(message))

    def receive(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message, failing after `timeout` seconds rather than hanging."""
        session = self.session

        async def next_message() -> Any:
            with anyio.fail_after(timeout):
                return await session._send_rx.receive()  # the test session's own queue

        raw = session.portal.call(next_message)
        assert raw["type"] == "websocket.send", raw
        message: dict[str, Any] = json.loads(raw["text"])
        if message["type"] == "update":
            self.wire.append(json.loads(raw["text"]))
            message = self.whole(message)
        self.messages.append(message)
        return message

    def whole(self, message: dict[str, Any]) -> dict[str, Any]:
        """The update with its finished tricks made whole, as the web client does: the
        list kept, cut to ``tricks_from`` and extended by the update's tricks."""
        hand = message["view"]["current"] if message["match"] else message["view"]
        if hand is None:  # a match that is over
            assert "tricks_from" not in json.dumps(message["view"])
            return message
        start = hand.pop("tricks_from")
        assert type(start) is int and 0 <= start <= len(self.tricks), (start, len(self.tricks))
        self.tricks[start:] = hand["tricks"]
        hand["tricks"] = list(self.tricks)
        return message

    def update(self) -> dict[str, Any]:
        message = self.receive()
        assert message["type"] == "update", message
        return message

    def error(self) -> dict[str, Any]:
        message = self.receive()
        assert message["type"] == "error", message
        return message

    def join(self, table: str, token: str, name: str | None = None) -> dict[str, Any]:
        self.send({"type": "join", "table": table, "token": token, "name": name})
        return self.update()

    def act(self, action: str) -> None:
        self.send({"type": "action", "action": action})


class Server:
    """An application under the test client, and the seats connected to it."""

    def __init__(self, client: TestClient, stack: contextlib.ExitStack) -> None:
        self.client = client
        self.stack = stack
        self.hub = client.app.state.hub  # type: ignore[attr-defined]

    def table(self, rules: object, seats: list[str], **options: Any) -> tuple[str, list[str]]:
        """A new table: its id, and the tokens of its people's seats by seat ("" for bots)."""
        answer = self.client.post("/api/tables", json={"rules": rules, "seats": seats, **options})
        assert answer.status_code == 201, answer.text
        made = answer.json()
        tokens = [""] * len(seats)
        for link in made["links"]:
            assert link["url"].startswith(f"http://testserver/table/{made['table']}#")
            tokens[link["seat"]] = link["url"].split("#", 1)[1]
        return made["table"], tokens

    def connect(self) -> Seat:
        return Seat(self.stack.enter_context(self.client.websocket_connect("/ws")))

    def seat(self, table: str, token: str, name: str | None = None) -> tuple[Seat, dict[str, Any]]:
        seat = self.connect()
        return seat, seat.join(table, token, name)

    def stored(self, table_id: str) -> Table:
        found = self.client.portal.call(self.hub.store.get, table_id)  # type: ignore[union-attr]
        assert found is not None
        return found  # type: ignore[no-any-return]

    def idle(self) -> None:
        """Wait until the bots of every table have stopped playing."""
        self.client.portal.call(self.hub.idle)  # type: ignore[union-attr]


@contextlib.contextmanager
def running(**options: Any) -> Iterator[Server]:
    """The application made with `options` (seeds allowed) under the test client."""
    with contextlib.ExitStack() as stack:
        client = stack.enter_context(TestClient(create_app(seeds=True, **options)))
        yield Server(client, stack)


@pytest.fixture
def server() -> Iterator[Server]:
    with running() as started:
        yield started


def seat_all(server: Server, table_id: str, tokens: list[str]) -> dict[int, Seat]:
    """Every seat joined in turn, each having read the news of the later arrivals."""
    seats: dict[int, Seat] = {}
    for k, token in enumerate(tokens):
        seats[k] = server.connect()
        seats[k].join(table_id, token, f"player {k}")
        for j in range(k):
            seats[j].update()
    return seats


# ---------------------------------------------------------------------------
# Secrecy: every message of every seat, whole games, every preset


def hidden_from(state: brisca.State, seat: int) -> set[Card]:
    """The cards `seat` may not see in the true state: other hands, the stock and a
    covered turned card, less those whose place is public (the turned card taken or
    drawn, a sung pair, the called card, a partner's hand shown after the deal)."""
    hidden = set(state.stock)
    for other, held in enumerate(state.hands):
        if other != seat:
            hidden |= set(held)
    if state.trump_card is not None and not trump_is_public(state):
        hidden.add(state.trump_card)
    ledger = state.ledger
    public = {swap.taken for swap in ledger.swaps}
    if ledger.trump_card_drawn is not None:
        public.add(ledger.trump_card_drawn[1])
    public |= {Card(rank, cante.suit) for cante in ledger.cantes for rank in (11, 12)}
    if ledger.contract is not None and ledger.contract.called is not None:
        public.add(ledger.contract.called)
    if state.rules.partner_hand_visibility is PartnerHandVisibility.SHOW_AFTER_DEAL:
        side = next((side for side in state.sides if seat in side), ())
        public |= {card for partner in side for card in state.deal.hands[partner]}
    return hidden - public


def cards_in(value: object) -> set[Card]:
    """Every card code written anywhere in a JSON value, alone or inside notation."""
    if isinstance(value, str):
        return {Card.parse(word) for word in value.split() if CARD.match(word)}
    if isinstance(value, dict):
        return set().union(*map(cards_in, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(cards_in, value)) if value else set()
    return set()


def shown_cards(message: dict[str, Any]) -> set[Card]:
    """The cards a message places in the hand in progress: all it names but the menu's
    calls (chiamata offers every card of the rank, wherever it lies), and in a match the
    first-dealer cut (a shuffle of its own, public by rule) and the finished hands'
    results (a called card of an earlier deal)."""
    shown = dict(message)
    shown["legal"] = [a for a in message.get("legal", []) if not a.startswith("call ")]
    if message.get("match"):
        shown["view"] = {k: v for k, v in message["view"].items() if k not in ("cut", "hands")}
    return cards_in(shown)


def test_the_hidden_card_finder_finds_cards_in_notation_and_nesting() -> None:
    """The check below is not vacuous: it finds codes in actions and nested views."""
    found = cards_in({"legal": ["swap 7O", "3C"], "view": {"trick": [[0, "12E"]]}, "n": 3})
    assert found == {Card.parse("7O"), Card.parse("3C"), Card.parse("12E")}


def check_secrecy(server: Server, table_id: str, seats: dict[int, Seat], count: int) -> None:
    """The last `count` messages of each seat hold no card hidden from it now. In a
    match, the events of a move that ended a hand are checked against that hand's
    end, and the rest of the message against the hand dealt next."""
    table = server.stored(table_id)
    hand = table.hand
    for k, seat in seats.items():
        for message in seat.messages[-count:]:
            events = message["events"]
            if any(event["type"] == "hand_ended" for event in events) and table.is_match:
                ended = list(records.replay(table.finished[-1]))[-1]
                leaked = cards_in(events) & hidden_from(ended, k)
                assert not leaked, (k, sorted(map(str, leaked)), events)
                message = {**message, "events": []}
            if hand is None:
                continue
            leaked = shown_cards(message) & hidden_from(hand, k)
            assert not leaked, (k, sorted(map(str, leaked)), json.dumps(message))
            view = message["view"]["current"] if message["match"] else message["view"]
            if view is not None and not trump_is_public(hand):
                assert view["trump"] is None and view["trump_card"] is None


def play_secretly(server: Server, rules: Any, match: bool, seed: int) -> dict[str, Any]:
    n = read_rules(rules).num_players
    table_id, tokens = server.table(rules, ["human"] * n, match=match, seed=seed)
    seats = seat_all(server, table_id, tokens)
    check_secrecy(server, table_id, seats, n)
    rng = random.Random(seed)
    last = {k: seat.messages[-1] for k, seat in seats.items()}
    actions = 0
    while not last[0]["over"]:
        actor = next(k for k, message in last.items() if message["legal"])
        assert all(not m["legal"] for k, m in last.items() if k != actor)  # the menu is private
        seats[actor].act(rng.choice(last[actor]["legal"]))
        last = {k: seat.update() for k, seat in seats.items()}
        check_secrecy(server, table_id, seats, 1)
        table = server.stored(table_id)
        for k, message in last.items():  # the increments make the whole view
            assert message["view"] == json.loads(json.dumps(table.view(k)))
        actions += 1
    sent = [len(json.dumps(m["view"])) for seat in seats.values() for m in seat.wire[n:]]
    whole = [len(json.dumps(m["view"])) for seat in seats.values() for m in seat.messages[n:]]
    assert sum(sent) < sum(whole)  # and they are smaller
    assert actions >= read_rules(rules).tricks_per_hand  # at least a hand was played
    return last[0]


@pytest.mark.parametrize("rules", list(brisca.PRESETS))
def test_no_seat_ever_receives_a_card_hidden_from_it(server: Server, rules: str) -> None:
    """Every message each seat receives over a whole hand, in every preset, holds no card
    of another hand, of the stock or a covered trump, compared with the true state."""
    final = play_secretly(server, rules, match=False, seed=11)
    table = server.stored(final["table"])
    assert final["result"] == table.result() and table.is_over


@pytest.mark.parametrize(
    "rules",
    [
        "spanish-2p",
        "chilean-rematada",
        {"preset": "chiamata-5p", "overrides": {"match_target": 4}},  # a few hands, not 20
    ],
    ids=["spanish-2p", "chilean-rematada", "chiamata-5p-to-4"],
)
def test_no_seat_receives_a_hidden_card_over_a_whole_match(server: Server, rules: Any) -> None:
    """The same over whole matches, whose next hands are dealt as the last ends."""
    final = play_secretly(server, rules, match=True, seed=5)
    table = server.stored(final["table"])
    assert table.is_over and len(final["view"]["hands"]) == len(table.finished) >= 1


# ---------------------------------------------------------------------------
# Playing


def test_a_person_plays_a_whole_hand_against_a_bot(server: Server) -> None:
    """The bot answers every move; the result sent is the library's result of the game."""
    table_id, tokens = server.table("spanish-2p", ["human", "heuristic"], seed=7)
    seat, first = server.seat(table_id, tokens[0], "Ana")
    assert first["seat"] == 0 and first["legal"] == ["2O", "11C", "4C"]
    assert [s["name"] for s in first["seats"]] == ["Ana", "heuristic bot"]
    message = first
    played = 0
    while not message["over"]:
        if message["legal"]:
            seat.act(message["legal"][-1])
            played += 1
        message = seat.update()
    assert played == 20
    state = server.stored(table_id).game
    assert message["result"]["points"] == list(brisca.result(state).points)
    assert sum(message["result"]["points"]) == 120


def test_an_illegal_or_unreadable_action_gets_the_librarys_reason_and_changes_nothing(
    server: Server,
) -> None:
    """Not in hand, not your turn, not notation: refused with the reason, nothing changes."""
    table_id, tokens = server.table("spanish-2p", ["human", "human"], seed=7)
    zero, _ = server.seat(table_id, tokens[0])
    one, _ = server.seat(table_id, tokens[1])
    zero.update()
    before = server.stored(table_id)
    state = before.game
    assert isinstance(state, brisca.State)
    zero.act("12E")
    assert zero.error() == {
        "type": "error",
        "code": "illegal",
        "error": brisca.refusal(state, brisca.Play("12E")),
    }
    one.act("2C")
    assert one.error()["error"] == "it is not your turn: seat 0 is to act"
    zero.act("twelve")
    with pytest.raises(brisca.NotationError) as unreadable:
        brisca.parse_action("twelve")
    assert zero.error()["error"] == str(unreadable.value)
    assert server.stored(table_id) is before  # nothing was written
    zero.act("4C")  # and the connection plays on
    assert zero.update()["view"]["trick"] == [[0, "4C"]]
    assert one.update()["legal"] == ["2C", "11O", "3O"]


def test_a_rule_duty_is_refused_with_the_rules_own_words(server: Server) -> None:
    """Arrastre: a card the duty forbids gets brisca.refusal's reason, word for word."""
    table_id, tokens = server.table("arrastre-2p", ["human", "human"], seed=3)
    seats = {0: server.seat(table_id, tokens[0])[0], 1: server.seat(table_id, tokens[1])[0]}
    last = {0: seats[0].update(), 1: seats[1].messages[-1]}
    refused = 0
    while not last[0]["over"]:
        actor = next(k for k, message in last.items() if message["legal"])
        state = server.stored(table_id).game
        assert isinstance(state, brisca.State)
        barred = [c for c in last[actor]["view"]["hand"] if c not in last[actor]["legal"]]
        for code in barred:
            seats[actor].act(code)
            assert seats[actor].error()["error"] == brisca.refusal(state, brisca.Play(code))
            refused += 1
        seats[actor].act(last[actor]["legal"][0])
        last = {k: seat.update() for k, seat in seats.items()}
    assert refused > 0


def test_optional_actions_are_offered_when_legal_and_played_by_notation(server: Server) -> None:
    """Bids and passes in subastada come in the menu, and play like any action."""
    table_id, tokens = server.table("subastada-4p", ["human"] * 4, seed=3)
    seats = seat_all(server, table_id, tokens)
    first = seats[0].messages[-1]
    assert "pass" in first["legal"] and "bid 60" in first["legal"]
    seats[0].act("bid 60")
    last = {k: seat.update() for k, seat in seats.items()}
    assert last[1]["events"] == [{"type": "announced", "seat": 0, "action": "bid 60"}]
    assert last[1]["view"]["bids"][0]["bid"] == "bid 60"
    assert "bid 60" not in last[1]["legal"] and "bid 65" in last[1]["legal"]


# ---------------------------------------------------------------------------
# Hostile and malformed messages


def test_hostile_messages_are_refused_and_the_connection_and_other_tables_go_on(
    server: Server,
) -> None:
    """Wrong token, wrong table, oversized, not JSON, unknown type or field, binary,
    an action before joining, a second join: each refused with an error message."""
    table_id, tokens = server.table("spanish-2p", ["human", "heuristic"], seed=7)
    other_id, other_tokens = server.table("spanish-2p", ["human", "heuristic"], seed=8)
    bystander, _ = server.seat(other_id, other_tokens[0])
    other_before = server.stored(other_id)
    seat = server.connect()
    cases: list[tuple[object, str, str]] = [
        ({"type": "action", "action": "2O"}, "not_joined", "join a table first"),
        ({"type": "join", "table": table_id, "token": other_tokens[0]}, "bad_token", "no seat"),
        ({"type": "join", "table": table_id, "token": "x" * 22}, "bad_token", "no seat"),
        # compare_digest takes only ASCII text: the seats' tokens are compared as bytes
        ({"type": "join", "table": table_id, "token": "é" * 22}, "bad_token", "no seat"),
        ({"type": "join", "table": table_id, "token": "\u2603"}, "bad_token", "no seat"),
        ({"type": "join", "table": "nowhere", "token": tokens[0]}, "no_table", "no table"),
        ("x" * (MAX_MESSAGE + 1), "bad_message", f"at most {MAX_MESSAGE}"),
        ("{not json", "bad_message", "not a JSON message"),
        ("[" * 200 + "]" * 200, "bad_message", "nested 200 deep"),
        ('"join"', "bad_message", "must be a JSON object"),
        ({"type": "dance"}, "bad_message", "unknown message type 'dance'"),
        ({"type": "action", "action": "2O", "seat": 1}, "bad_message", "unknown field"),
        ({"type": "join", "table": table_id}, "bad_message", "lacks 'token'"),
        ({"type": "action", "action": 7}, "bad_message", "must be str"),
    ]
    for message, code, words in cases:
        seat.send(message)
        refused = seat.error()
        assert refused["code"] == code and words in refused["error"], (message, refused)
    seat.session.send_bytes(b'{"type": "join"}')
    assert "text frames" in seat.error()["error"]
    joined = seat.join(table_id, tokens[0])  # the same connection still joins
    assert joined["seat"] == 0
    seat.send({"type": "join", "table": other_id, "token": other_tokens[0]})
    assert seat.error()["code"] == "bad_request"
    assert server.stored(other_id) is other_before  # the other table saw nothing
    bystander.act("2O")
    assert bystander.update()["view"]["trick"] == [[0, "2O"]]


def test_table_requests_are_checked(server: Server) -> None:
    """Making a table: bad rules, seats, bots, bodies and seeds get 400 and a reason."""
    client = server.client

    def refused(body: object, words: str, **kwargs: Any) -> None:
        answer = client.post("/api/tables", **({"json": body} if body is not None else kwargs))
        assert answer.status_code == 400 and words in answer.json()["error"], answer.text

    refused({"rules": "spanish-9p", "seats": ["human"]}, "unknown preset")
    refused({"rules": "spanish-2p", "seats": ["human"]}, "seat 2 players")
    refused({"rules": "spanish-2p", "seats": ["human", "genius"]}, "seat 1 must be")
    refused({"rules": "spanish-2p", "seats": ["human", "brisca.agents.bots:RandomBot"]}, "seat 1")
    refused({"rules": "spanish-2p", "seats": ["human", "random"], "match": "yes"}, "bool")
    refused({"rules": "spanish-2p", "seats": ["human", "random"], "color": 1}, "unknown field")
    refused(
        {"rules": {"preset": "spanish-2p", "overrides": {"num_players": 9}}, "seats": []},
        "num_players",
    )
    json_type = {"Content-Type": "application/json"}
    refused(None, "not a JSON request", content=b"{", headers=json_type)
    too_long = client.post("/api/tables", content=b" " * 5000, headers=json_type)
    assert too_long.status_code == 413 and "more than 4096 bytes" in too_long.json()["error"]
    plain = TestClient(create_app())  # a public server deals its own games
    answer = plain.post(
        "/api/tables", json={"rules": "spanish-2p", "seats": ["human"] * 2, "seed": 1}
    )
    assert answer.status_code == 400 and "leave the seed out" in answer.json()["error"]


def test_a_reader_too_slow_is_cut_off_rather_than_holding_up_its_table() -> None:
    """A connection whose client reads nothing is cut off once its outbox is full,
    and queueing for it never waits."""

    closed: list[int] = []

    class Stuck:
        async def send_text(self, text: str) -> None:
            await asyncio.Event().wait()  # the client never takes it

        async def close(self, code: int) -> None:
            closed.append(code)

    async def flood() -> asyncio.Task[None]:
        connection = Connection(Stuck())  # type: ignore[arg-type]
        writer = connection.start()
        await asyncio.sleep(0)
        for k in range(OUTBOX + 1):  # one is being sent, the outbox holds the rest
            connection.send(f"message {k}")
        assert not writer.done() and not closed
        connection.send("one too many")
        await asyncio.sleep(0)
        return writer

    assert asyncio.run(flood()).cancelled()
    assert closed == [1008]  # policy violation


# ---------------------------------------------------------------------------
# Seats: rejoining, filling, bots by name


def test_a_browser_that_disconnects_rejoins_its_seat_with_the_same_link(server: Server) -> None:
    """Closing and joining again with the token gives the same seat and the game as it is."""
    table_id, tokens = server.table("spanish-2p", ["human", "human"], seed=7)
    zero, _ = server.seat(table_id, tokens[0], "Ana")
    one, _ = server.seat(table_id, tokens[1], "Luis")
    zero.update()
    zero.act("2O")
    zero.update()
    one.update()
    zero.session.close()
    gone = one.update()
    assert [s["connected"] for s in gone["seats"]] == [False, True]
    again, back = server.seat(table_id, tokens[0])  # no name: the one it had
    assert back["seat"] == 0 and back["seats"][0]["name"] == "Ana"
    assert back["view"]["trick"] == [[0, "2O"]] and back["view"]["hand"] == ["11C", "4C"]
    assert [s["connected"] for s in one.update()["seats"]] == [True, True]
    one.act("2C")
    assert again.update()["events"][0] == {"type": "card_played", "seat": 1, "card": "2C"}


def test_bots_fill_the_seats_nobody_has_taken(server: Server) -> None:
    """Filling puts bots at empty seats only; they play, and the old links no longer seat."""
    table_id, tokens = server.table("spanish-4p", ["human"] * 4, seed=2)
    zero, _ = server.seat(table_id, tokens[0])
    two, _ = server.seat(table_id, tokens[2])
    zero.update()
    zero.send({"type": "fill", "bot": "genius"})
    assert zero.error()["code"] == "bad_request"
    zero.send({"type": "fill", "bot": "random"})
    filled = zero.update()
    assert [s["kind"] for s in filled["seats"]] == ["human", "bot", "human", "bot"]
    two.update()
    late = server.connect()
    late.send({"type": "join", "table": table_id, "token": tokens[1]})
    assert late.error()["code"] == "bad_token"
    zero.send({"type": "fill", "bot": "random"})
    assert zero.error()["error"] == "every seat is taken already"
    last = {0: filled, 2: two.messages[-1]}
    seats = {0: zero, 2: two}
    while not last[0]["over"]:
        mover = next((k for k, m in last.items() if m["legal"]), None)
        if mover is not None:
            seats[mover].act(last[mover]["legal"][0])
        last = {k: seat.update() for k, seat in seats.items()}
    assert server.stored(table_id).is_over


def test_any_bot_registered_in_brisca_bots_can_take_a_seat(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The levels offered are the names of brisca.agents.bots.BOTS, a new one included."""
    chosen: list[int] = []

    def last_card(observation: brisca.Observation, legal: Any) -> brisca.Action:
        chosen.append(observation.seat)
        return legal[-1]

    monkeypatch.setitem(BOTS, "last-card", lambda seed: last_card)
    options = server.client.get("/api/options").json()
    assert options["bots"] == list(BOTS) and "last-card" in options["bots"]
    assert [p["name"] for p in options["presets"]] == list(brisca.PRESETS)
    table_id, _ = server.table("spanish-2p", ["last-card", "heuristic"], seed=4)
    server.idle()
    table = server.stored(table_id)
    assert table.is_over and chosen == [0] * 20
    assert [s.name for s in table.seats] == ["last-card bot", "heuristic bot"]


def test_a_slow_bot_does_not_hold_up_other_tables(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While one table's bot thinks (here: until released), another table plays on."""
    release = threading.Event()

    def thinker(observation: brisca.Observation, legal: Any) -> brisca.Action:
        release.wait(30)
        return legal[0]

    monkeypatch.setitem(BOTS, "thinker", lambda seed: thinker)
    server.table("spanish-2p", ["thinker", "random"], seed=1)
    table_id, tokens = server.table("spanish-2p", ["human", "random"], seed=2)
    seat, message = server.seat(table_id, tokens[0])
    for _ in range(3):  # three tricks while the thinker has not moved
        seat.act(message["legal"][0])
        message = seat.update()
        while not message["legal"]:
            message = seat.update()
    assert not release.is_set()
    release.set()
    server.idle()


def test_a_bot_that_fails_is_replaced_by_the_first_legal_action(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot that raises, or answers an illegal action, does not stall its table."""
    calls = [0]

    def clumsy(observation: brisca.Observation, legal: Any) -> brisca.Action:
        calls[0] += 1
        if calls[0] % 2:
            raise RuntimeError("oops")
        return brisca.Play("1O") if brisca.Play("1O") not in legal else legal[0]

    monkeypatch.setitem(BOTS, "clumsy", lambda seed: clumsy)
    table_id, _ = server.table("spanish-2p", ["clumsy", "random"], seed=3)
    server.idle()
    assert server.stored(table_id).is_over and calls[0] == 20


def test_many_tables_play_at_once() -> None:
    """Thirty tables: ten of people (here, test clients) against bots, moving in turns
    table by table, and twenty of bots alone; every game ends with a valid record."""
    with running(limits=Limits(tables_per_address=30, bot_tables=20)) as server:
        play_many_tables(server)


def play_many_tables(server: Server) -> None:
    people = []
    for k in range(10):
        table_id, tokens = server.table(
            "spanish-4p" if k % 2 else "spanish-2p", ["human", *["random"] * (3 if k % 2 else 1)]
        )
        seat, message = server.seat(table_id, tokens[0])
        people.append([table_id, seat, message])
    bots_only = [
        server.table("puerto-rican-3p", ["heuristic", "random", "random"])[0] for _ in range(20)
    ]
    while any(not message["over"] for _, _, message in people):
        for entry in people:
            _, seat, message = entry
            if message["over"]:
                continue
            if message["legal"]:
                seat.act(message["legal"][0])
            entry[2] = seat.update()
    server.idle()
    for table_id in [entry[0] for entry in people] + bots_only:
        table = server.stored(table_id)
        assert table.is_over and len(table.finished) == 1
        assert records.validate(table.finished[0]) is None


# ---------------------------------------------------------------------------
# Matches and records


def test_a_whole_match_is_scored_between_hands_and_downloads_as_records(
    server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A match against a bot: the standings after each hand, then the records of every
    hand, which `brisca replay` reads, and the match, which brisca.loads reads."""
    table_id, tokens = server.table("spanish-2p", ["human", "heuristic"], match=True, seed=9)
    seat, message = server.seat(table_id, tokens[0])
    assert server.client.get(f"/api/tables/{table_id}/records").status_code == 409
    hands = 0
    while not message["over"]:
        if message["legal"]:
            seat.act(message["legal"][0])
        message = seat.update()
        if len(message["view"]["hands"]) > hands:  # a hand just ended: scored, next dealt
            hands = len(message["view"]["hands"])
            assert message["hands_finished"] == hands
            assert any(e["type"] == "hand_ended" for e in message["events"])
            credits = [h["credits"] for h in message["view"]["hands"]]
            totals = [sum(c[seat][0] / c[seat][1] for c in credits) for seat in (0, 1)]
            assert [n / d for n, d in message["view"]["standings"]] == totals
    table = server.stored(table_id)
    outcome = brisca.result(table.game)
    assert message["result"]["winners"] == list(outcome.winners) and hands == len(outcome.hands)
    download = server.client.get(f"/api/tables/{table_id}/records")
    assert download.status_code == 200
    assert "attachment" in download.headers["content-disposition"]
    lines = download.text.splitlines()
    assert len(lines) == hands
    played = [records.loads(line) for line in lines]
    assert [r.hand_number for r in played] == list(range(hands))
    assert [r.result.points for r in played] == [h.result.points for h in outcome.hands]
    path = tmp_path / "match.jsonl"
    path.write_text(download.text, encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    shown = capsys.readouterr().out
    assert shown.count("spanish-2p, seed") == hands
    whole = server.client.get(f"/api/tables/{table_id}/match")
    assert whole.status_code == 200 and brisca.loads(whole.text) == table.game


def test_a_finished_hand_downloads_as_a_record_that_brisca_replay_reads(
    server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One hand: no record before its end, then one, which replays to the same result."""
    table_id, tokens = server.table("casino-2p", ["human", "random"], seed=12)
    seat, message = server.seat(table_id, tokens[0], "Ana")
    assert server.client.get(f"/api/tables/{table_id}/records").status_code == 409
    assert server.client.get(f"/api/tables/{table_id}/match").status_code == 409
    assert server.client.get("/api/tables/nowhere/records").status_code == 404
    while not message["over"]:
        if message["legal"]:
            seat.act(message["legal"][0])
        message = seat.update()
    path = tmp_path / "hand.jsonl"
    path.write_text(server.client.get(f"/api/tables/{table_id}/records").text, encoding="utf-8")
    record = records.loads(path.read_text(encoding="utf-8"))
    assert record.players == ("Ana", "random bot") and dict(record.tags) == {"table": table_id}
    assert list(record.result.points) == message["result"]["points"]
    assert main(["replay", str(path)]) == 0
    assert "casino-2p, seed 12" in capsys.readouterr().out


# ---------------------------------------------------------------------------
# The store


class TextStore(TableStore):
    """A store that keeps each table only as JSON text, as a shared store (Redis) would."""

    def __init__(self) -> None:
        self.texts: dict[str, str] = {}

    async def add(self, table: Table) -> None:
        self.texts[table.id] = table.to_json()

    async def get(self, table_id: str) -> Table | None:
        text = self.texts.get(table_id)
        return None if text is None else Table.from_json(text)

    async def put(self, table: Table) -> None:
        self.texts[table.id] = table.to_json()


def test_the_server_runs_the_same_over_a_store_that_keeps_only_text() -> None:
    """The store interface is all the server needs: a match plays through a text store."""
    store = TextStore()
    with TestClient(create_app(store, seeds=True)) as client:
        made = client.post(
            "/api/tables",
            json={
                "rules": "chilean-rematada",
                "seats": ["human", *["heuristic"] * 3],
                "match": True,
                "seed": 2,
            },
        ).json()
        with client.websocket_connect("/ws") as session:
            seat = Seat(session)
            message = seat.join(made["table"], made["links"][0]["url"].split("#")[1])
            while not message["over"]:
                if message["legal"]:
                    seat.act(message["legal"][0])
                message = seat.update()
    table = Table.from_json(store.texts[made["table"]])
    assert table.is_over and len(table.finished) == len(brisca.result(table.game).hands)
    assert Table.from_json(table.to_json()) == table


def test_the_memory_store_forgets_finished_tables_first_when_full() -> None:
    """At its limit the memory store drops the oldest finished table, or refuses."""

    async def fill() -> None:
        store = MemoryStore(limit=2)
        done = new_table("spanish-2p", ["random", "random"], table_id="done")
        while not done.is_over:
            done = done.act(done.to_act, done.legal(done.to_act)[0])[0]  # type: ignore[arg-type]
        await store.add(done)
        await store.add(new_table("spanish-2p", ["human", "random"], table_id="a"))
        await store.add(new_table("spanish-2p", ["human", "random"], table_id="b"))
        assert await store.get("done") is None and len(store) == 2
        with pytest.raises(StoreFull, match="limit"):
            await store.add(new_table("spanish-2p", ["human", "random"], table_id="c"))

    asyncio.run(fill())


# ---------------------------------------------------------------------------
# The command


def test_brisca_serve_without_the_extra_says_which_extra_to_install() -> None:
    """Without Starlette and uvicorn, `brisca serve` names the extra and exits 2."""
    script = (
        "import sys; sys.modules['starlette'] = None; sys.modules['uvicorn'] = None\n"
        "from brisca.cli import main\nsys.exit(main(['serve']))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert run.returncode == 2
    assert "brisca serve needs the serve extra: pip install 'brisca[serve]'" in run.stderr


def test_brisca_serve_refuses_a_port_it_cannot_have(capsys: pytest.CaptureFixture[str]) -> None:
    """A port out of range, or one in use, is a usage error (exit 2) that says so."""
    assert main(["serve", "--port", "70000"]) == 2
    assert "--port must be from 0 to 65535" in capsys.readouterr().err
    taken = listen("127.0.0.1", 0)
    try:
        assert main(["serve", "--port", str(taken.getsockname()[1])]) == 2
        assert "cannot listen on 127.0.0.1 port" in capsys.readouterr().err
    finally:
        taken.close()


def test_brisca_serve_prints_its_url_and_serves_the_table_there() -> None:
    """The README's command: it prints a URL, which serves the page, the API and a game."""
    from websockets.sync.client import connect

    process = subprocess.Popen(
        [sys.executable, "-m", "brisca", "serve", "--port", "0", "--bot-delay", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"open (http://127\.0\.0\.1:\d+/) in a browser", line)
        assert found, line
        base = found.group(1)
        import urllib.request

        with urllib.request.urlopen(base, timeout=10) as page:
            html = page.read().decode()
            assert "/static/table.js" in html and "http" not in html.split("<body>")[1]
        request = urllib.request.Request(
            base + "api/tables",
            data=json.dumps({"rules": "spanish-2p", "seats": ["human", "heuristic"]}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            made = json.loads(answer.read())
        with connect(base.replace("http", "ws") + "ws", open_timeout=10) as ws:
            token = made["links"][0]["url"].split("#")[1]
            ws.send(json.dumps({"type": "join", "table": made["table"], "token": token}))
            message = json.loads(ws.recv(timeout=10))
            while not message["over"]:
                if message["legal"]:
                    ws.send(json.dumps({"type": "action", "action": message["legal"][0]}))
                message = json.loads(ws.recv(timeout=10))
        assert sum(message["result"]["points"]) == 120
    finally:
        process.terminate()
        process.wait(timeout=20)


@pytest.mark.parametrize("compress", [False, True])
def test_brisca_serve_compresses_its_websocket_only_when_asked(compress: bool) -> None:
    """A client that offers permessage-deflate, as browsers do, gets it from ``brisca
    serve --compress`` only: by default the updates go uncompressed."""
    from websockets.sync.client import connect

    command = [sys.executable, "-m", "brisca", "serve", "--port", "0", "--bot-delay", "0"]
    process = subprocess.Popen(
        command + (["--compress"] if compress else []),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        found = re.search(r"open (http://\S+/) in a browser", process.stdout.readline())
        assert found
        with connect(found.group(1).replace("http", "ws") + "ws", open_timeout=10) as ws:
            assert ws.response is not None
            agreed = ws.response.headers.get("Sec-WebSocket-Extensions") or ""
        assert ("permessage-deflate" in agreed) is compress, agreed
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_the_game_server_page_quotes_marked_sections_of_the_servers_source() -> None:
    """docs/howto/game-server.md includes the server's code by section: each exists."""
    root = Path(__file__).resolve().parent.parent
    page = (root / "docs" / "howto" / "game-server.md").read_text(encoding="utf-8")
    included = re.findall(r'^--8<-- "([^":]+):(\w+)"$', page, re.MULTILINE)
    assert len(included) >= 7
    for path, section in included:
        source = (root / path).read_text(encoding="utf-8")
        start, end = f"# --8<-- [start:{section}]", f"# --8<-- [end:{section}]"
        assert source.count(start) == 1 and source.count(end) == 1, (path, section)
        assert source.index(start) < source.index(end)


def test_tables_and_updates_refuse_bad_seats_and_unknown_bots() -> None:
    """A seat outside the table, a connection list of the wrong length, an unknown error
    code and a stored table naming a bot nobody knows are refused with a StateError."""
    table = new_table("spanish-2p", ["human", "heuristic"], seed=1)
    for seat in (5, -1, "0"):
        with pytest.raises(brisca.StateError, match="seat"):
            table.join(seat)  # type: ignore[arg-type]
    with pytest.raises(brisca.StateError, match="flag"):
        protocol.update(table, 0, (), [])
    with pytest.raises(brisca.StateError, match="seat"):
        protocol.update(table, 2, (), [True, True])
    with pytest.raises(brisca.StateError, match="code"):
        protocol.error("zz", "why")
    stored = json.loads(table.to_json())
    stored["seats"][1]["bot"] = "vanished"
    with pytest.raises(brisca.StateError, match="vanished"):
        Table.from_json(json.dumps(stored))


def test_brisca_serve_refuses_a_store_it_cannot_use_and_limits_not_positive(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A --store file that is no table store, or a limit of 0, is a usage error (exit 2)."""
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database " * 100, encoding="utf-8")
    assert main(["serve", "--port", "0", "--store", str(notes)]) == 2
    assert "cannot use the table store" in capsys.readouterr().err
    for option in ("--idle-timeout", "--tables-per-address", "--bot-tables"):
        assert main(["serve", "--port", "0", option, "0"]) == 2
        assert "must be a positive" in capsys.readouterr().err
