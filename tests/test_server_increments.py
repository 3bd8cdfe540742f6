"""Incremental updates: a client that applies them holds the full view at every step.

A connection is sent each finished trick of a hand once (`brisca.server.protocol`):
these tests play random hands and matches through `Table.act`, keep for each seat
what the hub keeps for a connection (`protocol.sent`), apply each update as the web
client does, and compare the result with the full view, step by step, across a
match's hands and after reconnections.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import brisca
from brisca.server import protocol
from brisca.server.tables import Table, new_table


class Client:
    """One connection: what the hub remembers of it, and the tricks the page keeps."""

    def __init__(self) -> None:
        self.sent: protocol.Sent | None = None
        self.tricks: list[Any] = []
        self.sizes: list[int] = []

    def receive(self, table: Table, seat: int, events: Any) -> dict[str, Any]:
        """The update of `table` for this client, made whole."""
        text = protocol.update(table, seat, events, [True] * len(table.seats), self.sent)
        self.sent = protocol.sent(table)
        self.sizes.append(len(text))
        message = json.loads(text)
        assert json.dumps(message) == text  # json.dumps's own text, key order and all
        hand = message["view"]["current"] if message["match"] else message["view"]
        if hand is not None:
            start = hand.pop("tricks_from")
            assert 0 <= start <= len(self.tricks)
            self.tricks[start:] = hand["tricks"]
            hand["tricks"] = list(self.tricks)
        return message


def full(table: Table, seat: int, events: Any) -> dict[str, Any]:
    """The update without increments: a new connection's."""
    message: dict[str, Any] = json.loads(
        protocol.update(table, seat, events, [True] * len(table.seats))
    )
    hand = message["view"]["current"] if message["match"] else message["view"]
    if hand is not None:
        assert hand.pop("tricks_from") == 0
    return message


def play(table: Table, seed: int, reconnect: float = 0.0, limit: int = 400) -> list[int]:
    """Play `table` at random, each seat's client checked after every move; a client
    is replaced by a new connection with probability `reconnect` a move. How many
    tricks each update skipped, in all."""
    rng = random.Random(seed)
    n = len(table.seats)
    clients = [Client() for _ in range(n)]
    skipped = []
    events: Any = ()
    for _ in range(limit):
        for seat, client in enumerate(clients):
            if rng.random() < reconnect:
                clients[seat] = client = Client()
            got = client.receive(table, seat, events)
            assert got == full(table, seat, events)
            hand = table.hand
            skipped.append(0 if hand is None else len(client.tricks))
        if table.is_over:
            break
        seat = table.to_act
        assert seat is not None
        table, events = table.act(seat, rng.choice(table.legal(seat)))
    return skipped


@pytest.mark.parametrize("name", list(brisca.PRESETS))
def test_increments_make_the_full_view_in_every_preset(name: str) -> None:
    rules = brisca.PRESETS[name]
    skipped = play(new_table(rules, ["human"] * rules.num_players, seed=3), seed=3)
    assert max(skipped) > 0  # the increments were used


def test_increments_make_the_full_view_over_a_match_crossing_hands() -> None:
    table = new_table("spanish-2p", ["human", "human"], match=True, seed=4)
    play(table, seed=4, limit=400)  # to the end of the match: several hands
    table = new_table("chiamata-5p", ["human"] * 5, match=True, seed=2)
    play(table, seed=2, limit=300)


def test_increments_make_the_full_view_with_reconnections() -> None:
    for seed in range(3):
        table = new_table("spanish-4p", ["human"] * 4, match=True, seed=seed)
        play(table, seed=seed, reconnect=0.05, limit=300)


def test_a_new_hand_and_a_foreign_sent_give_a_full_view() -> None:
    """The first update of a match's new hand, and an update for a connection whose
    record is another table's (or ahead of this one), hold every finished trick."""
    table = new_table("spanish-2p", ["human", "human"], match=True, seed=1)
    rng = random.Random(1)
    mid = None
    while True:
        seat = table.to_act
        assert seat is not None
        before = table
        table, events = table.act(seat, rng.choice(table.legal(seat)))
        hand = table.hand
        assert hand is not None
        if mid is None and len(hand.tricks) == 5:
            mid = table
        if any(event.to_dict()["type"] == "hand_ended" for event in events):
            break
    assert mid is not None
    old = protocol.sent(before)
    message = json.loads(protocol.update(table, 0, events, [True, True], old))
    assert message["view"]["current"]["tricks_from"] == 0  # a new hand: all of it
    other = new_table("spanish-2p", ["human", "human"], match=True, seed=1)
    ahead = protocol.sent(before)
    message = json.loads(protocol.update(mid, 0, (), [True, True], ahead))
    assert message["view"]["current"]["tricks_from"] == 0  # ahead of this table
    message = json.loads(protocol.update(other, 0, (), [True, True], protocol.sent(mid)))
    assert message["view"]["current"]["tricks_from"] == 0  # another table's hand
    message = json.loads(protocol.update(mid, 0, (), [True, True], protocol.sent(mid)))
    assert message["view"]["current"]["tricks_from"] == 5
    assert message["view"]["current"]["tricks"] == []


def test_update_refuses_a_since_that_is_not_a_sent() -> None:
    table = new_table("spanish-2p", ["human", "human"], seed=1)
    with pytest.raises(brisca.StateError, match="since must be a Sent"):
        protocol.update(table, 0, (), [True, True], 3)  # type: ignore[arg-type]


def test_increments_are_smaller() -> None:
    """Past the first tricks, an update is smaller than the full one."""
    rules = brisca.preset("spanish-4p")
    table = new_table(rules, ["human"] * 4, seed=9)
    client = Client()
    rng = random.Random(9)
    fulls = []
    events: Any = ()
    while not table.is_over:
        client.receive(table, 0, events)
        fulls.append(len(protocol.update(table, 0, events, [True] * 4)))
        seat = table.to_act
        assert seat is not None
        table, events = table.act(seat, rng.choice(table.legal(seat)))
    assert sum(client.sizes) < 0.8 * sum(fulls)
