"""Matches are bounded: in deals and actions, in the time a record takes to load, in the
size of a seat's view, and in the types a record may hold (DESIGN principle 8)."""

from __future__ import annotations

import copy
import gc
import json
import pickle
import time
import tracemalloc
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest
from helpers import assert_linear

import brisca
from brisca.formats.saves import (
    MAX_ACTIONS,
    MAX_DEAL_ACTIONS,
    MAX_DEALS,
    MAX_MATCH_TEXT,
    dumps_match,
    loads_match,
)
from brisca.formats.views import observation_to_dict
from brisca.game import match as match_module
from brisca.game.actions import Bid, BidRank, Pass, Sing
from brisca.game.match import (
    VIEW_HANDS,
    Match,
    match_apply,
    match_legal_actions,
    match_observe,
    match_result,
    match_with_hand,
    new_match,
)

SUBASTADA = brisca.preset("subastada-4p")
#: Chiamata's ranks in trick order, strongest first: every rank bid of the longest auction.
RANKS = (1, 3, 12, 11, 10, 7, 6, 5, 4, 2)


def best_time(work: Callable[[], object], repeats: int = 3) -> float:
    """The least CPU time of a few runs of `work`."""
    times = []
    for _ in range(repeats):
        gc.collect()  # each run starts from the same heap
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def void_hands(match: Match, hands: int) -> Match:
    """`match` taken on until `hands` hands are finished, every seat passing."""
    while match.hand_number < hands and not match.is_over:
        match = match_apply(match, Pass())
    return match


def longest_chiamata(hands: int, m: Match | None = None) -> Match:
    """The longest chiamata match play allows (or `m` taken on), to `hands` hands: every
    auction runs through every rank and every point from 1 to 120, then the cards are played."""
    if m is None:
        rules = attrs.evolve(
            brisca.preset("chiamata-5p"), match_target=1000, chiamata_point_minimum=1
        )
        m = new_match(rules, seed=1)
    while m.hand_number < hands and not m.is_over:
        number = m.hand_number
        for bid in (*map(BidRank, RANKS), *map(Bid, range(1, 121))):
            m = match_apply(m, bid)
        while m.hand_number == number and not m.is_over:
            m = match_apply(m, match_legal_actions(m)[0])
    return m


@pytest.fixture(scope="module")
def long_void() -> dict[int, Match]:
    """A subastada match of 2,000 void hands, and its earlier moments, by hands finished."""
    moments = {}
    m = new_match(SUBASTADA, seed=3)
    for hands in (30, 250, 500, 1000, 2000):
        m = void_hands(m, hands)
        moments[hands] = m
    return moments


# Finding 1: the caps bound the work, and each is checked before any replay.


def _record_with(**changes: Any) -> str:
    record = json.loads(dumps_match(new_match(SUBASTADA, seed=3)))
    record.update(changes)
    return json.dumps(record)


@pytest.mark.parametrize(
    ("cap", "text"),
    [
        ("MAX_MATCH_TEXT", lambda: _record_with() + " " * MAX_MATCH_TEXT),
        ("MAX_DEALS", lambda: _record_with(actions=[[]] * (MAX_DEALS + 1))),
        ("MAX_DEALS", lambda: _record_with(decks=[[]] * (MAX_DEALS + 1))),
        ("MAX_DEAL_ACTIONS", lambda: _record_with(actions=[["pass"] * (MAX_DEAL_ACTIONS + 1)])),
        (
            "MAX_ACTIONS",
            lambda: _record_with(
                actions=[["pass"] * MAX_DEAL_ACTIONS] * (MAX_ACTIONS // MAX_DEAL_ACTIONS + 1)
            ),
        ),
    ],
)
def test_a_record_past_a_cap_is_refused_before_its_replay(
    cap: str, text: Callable[[], str]
) -> None:
    """Each cap is checked before the replay (which would find the second pass of a void
    deal illegal: a StateError), and its NotationError names it. A 14.3 MiB chiamata record
    of 1.15 M actions used to be replayed, for 30 s, and accepted."""
    with pytest.raises(brisca.NotationError, match=cap):
        loads_match(text())


def test_no_deal_takes_more_actions_than_max_deal_actions() -> None:
    """The longest auctions any rules allow, each raise the smallest, fit one deal's cap:
    subastada from a bid of 1 to 220 with cantes, chiamata through every rank and point."""
    rules = attrs.evolve(SUBASTADA, bid_minimum=1, bid_step=1, match_target=1000)
    m = new_match(rules, seed=2)
    while isinstance(match_legal_actions(m)[0], Bid):  # the smallest raise, up to 220
        m = match_apply(m, match_legal_actions(m)[0])
    while m.hand_number == 0:
        legal = match_legal_actions(m)
        m = match_apply(m, next((a for a in legal if isinstance(a, Sing)), legal[0]))
    chiamata = longest_chiamata(1)
    lengths = [len(m.actions[0]), len(chiamata.actions[0])]
    assert lengths[0] > 220 + 40 and max(lengths) <= MAX_DEAL_ACTIONS


def test_a_match_of_endless_void_hands_ends_drawn_at_max_deals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Void hands could go on for ever: the match ends, drawn, when no deal is left, and
    what play made reads back. (Before, a match took any number of deals.)"""
    monkeypatch.setattr(match_module, "MAX_DEALS", 30, raising=False)
    m = new_match(SUBASTADA, seed=3)
    for _ in range(4 * 40):
        if m.is_over:
            break
        m = match_apply(m, Pass())
    assert m.is_over and m.hand_number == 30 and match_result(m).is_draw
    assert loads_match(dumps_match(m)) == m


def test_a_match_ends_drawn_when_no_deal_fits_in_max_actions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A deal is dealt only if all it could take fits in the match's actions: the longest
    chiamata match ends, drawn, within the cap, and reads back."""
    monkeypatch.setattr(match_module, "MAX_ACTIONS", 1000, raising=False)
    m = longest_chiamata(10)
    assert m.is_over and not m.winners and m.hand_number == 5
    assert m.action_count == sum(map(len, m.actions)) == 5 * 175 <= 1000
    assert loads_match(dumps_match(m)) == m


def test_new_match_refuses_more_decks_than_max_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(match_module, "MAX_DEALS", 2, raising=False)
    decks = [brisca.new_game(SUBASTADA, seed=s).deal.deck for s in range(3)]
    with pytest.raises(brisca.StateError, match="MAX_DEALS"):
        new_match(SUBASTADA, decks=decks)
    assert new_match(SUBASTADA, decks=decks[:2]).hand_number == 0


# Finding 2: a step adds to the finished hands without copying them.


def _bytes_to_play_a_void_deal(m: Match) -> int:
    """The peak memory that the four passes of one void deal allocate, a hand in
    progress taken on by `match_with_hand` included."""
    peak = 0
    for _ in range(4):
        tracemalloc.start()
        after = match_apply(m, Pass())
        if not after.hand_number > m.hand_number:
            later = brisca.apply(m.state, Pass())  # type: ignore[arg-type]
            match_with_hand(m, later)
        peak = max(peak, tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        m = after
    return peak


def test_a_step_costs_the_same_memory_whatever_the_hands_before(
    long_void: dict[int, Match],
) -> None:
    """match_apply and match_with_hand used to copy one tuple of every deal's actions per
    action, and one of every record per hand: 8 bytes per hand played, every step."""
    few, many = (_bytes_to_play_a_void_deal(long_void[n]) for n in (250, 2000))
    assert many < few + 2000  # the old copies: 14,000 bytes more


def test_loading_void_hands_costs_linear_time(long_void: dict[int, Match]) -> None:
    """Void hands used to grow about 3x per doubling (10,000 took 3 s)."""
    small, large = (dumps_match(long_void[n]) for n in (250, 500))
    assert_linear(
        lambda: best_time(lambda: loads_match(small)), lambda: best_time(lambda: loads_match(large))
    )


def test_playing_a_match_costs_linear_time() -> None:
    """Each void deal used to copy every earlier deal's records and actions."""

    def playing(n: int) -> float:
        return best_time(lambda: void_hands(new_match(SUBASTADA, seed=4), n))

    assert_linear(lambda: playing(250), lambda: playing(500))


# Finding 3: a record's every field has the type the writer gives it.


def _mutations(value: Any) -> Iterator[tuple[str, Any]]:
    """`value` with one int, bool or list somewhere changed into another JSON type."""
    if isinstance(value, bool):
        yield "int", int(value)
    elif isinstance(value, int):
        yield "true", True
        yield "float", float(value)
    elif isinstance(value, list):
        yield "object", {str(k): item for k, item in enumerate(value)}
    if isinstance(value, list):
        for k, item in enumerate(value):
            for how, changed in _mutations(item):
                yield f"[{k}] {how}", [*value[:k], changed, *value[k + 1 :]]
    elif isinstance(value, dict):
        for key, item in value.items():
            for how, changed in _mutations(item):
                yield f".{key} {how}", {**value, key: changed}


def _play_out(m: Match) -> Match:
    """`m` played to its end: the first seat opens at the lowest bid, the others pass."""
    while not m.is_over:
        legal = match_legal_actions(m)
        opened = any(not isinstance(r.bid, Pass) for r in m.state.ledger.bids)  # type: ignore[union-attr]
        m = match_apply(m, legal[-1] if Pass() in legal and opened else legal[0])
    return m


def _records() -> Iterator[Match]:
    """Two short real matches: one from a seed, one from decks with an agreed dealer,
    whose void deal is followed by a contract played out."""
    yield _play_out(new_match(attrs.evolve(brisca.preset("spanish-2p"), match_target=1), seed=7))
    rules = attrs.evolve(SUBASTADA, match_mode="hands_won", match_target=1)
    decks = [brisca.new_game(rules, seed=s).deal.deck for s in range(3)]
    yield _play_out(void_hands(new_match(rules, decks=decks, dealer=1), 1))


def test_a_record_with_any_field_of_another_type_is_refused() -> None:
    """For every int (true, or a float for it), bool (0 or 1) and list (an object) of two
    real records, the changed record is refused. ``"version": true``, ``"stake": 1.0``,
    ``"over": 0`` and floats for seats used to be read, since 1 == 1.0 == True."""
    tried = 0
    for m in _records():
        text = dumps_match(m)
        assert loads_match(text) == m
        for how, changed in _mutations(json.loads(text)):
            with pytest.raises(brisca.BriscaError):
                loads_match(json.dumps(changed))
                pytest.fail(f"accepted a record with {how}")
            tried += 1
    assert tried > 250


# Finding 4: a seat's view of a long match stays small.


def _view_size(m: Match) -> int:
    return len(json.dumps(observation_to_dict(match_observe(m, 0))))


def test_a_match_view_stays_small_however_long_the_match(long_void: dict[int, Match]) -> None:
    """The view lists the latest VIEW_HANDS hands and counts the others; it used to list
    every hand, 1 MiB at 4,000 hands, rebuilt for every seat after every move."""
    m = long_void[2000]
    view = match_observe(m, 0)
    assert view.hands == m.hands[-VIEW_HANDS:] and view.earlier_hands == 2000 - VIEW_HANDS
    assert view.hand_number == m.hand_number == observation_to_dict(view)["hand_number"]
    assert _view_size(m) <= _view_size(long_void[30]) + 64  # longer numbers, other cards
    assert _view_size(m) < 16_000


def test_observing_a_match_costs_the_same_whatever_its_length(
    long_void: dict[int, Match],
) -> None:
    def observing(n: int) -> float:
        return best_time(lambda: [match_observe(long_void[n], 0) for _ in range(200)])

    assert_linear(lambda: observing(1000), lambda: observing(2000))


# Finding 5: the time to load a record is linear, at worst and on junk.


def test_loading_the_longest_legal_match_costs_linear_time() -> None:
    """The densest legal work: chiamata hands of 175 actions, 135 of them auction calls
    (about 5 s per MiB of record on the development machine)."""
    half = longest_chiamata(12)
    small, large = dumps_match(half), dumps_match(longest_chiamata(24, half))
    assert_linear(
        lambda: best_time(lambda: loads_match(small)), lambda: best_time(lambda: loads_match(large))
    )


def _junk_actions(deals: int) -> str:
    """A record under every cap whose every action is junk."""
    return _record_with(actions=[["junk"] * MAX_DEAL_ACTIONS] * deals)


def _junk_hands(hands: int) -> str:
    """A record under every cap with a hand record of junk for each of `hands` hands."""
    return _record_with(hands=[{"junk": [k, "junk"]} for k in range(hands)])


@pytest.mark.parametrize(
    ("junk", "sizes", "error"),
    [
        (_junk_actions, (100, 200), brisca.NotationError),
        (_junk_hands, (5_000, 10_000), brisca.StateError),
    ],
)
def test_loading_junk_costs_linear_time(
    junk: Callable[[int], str], sizes: tuple[int, int], error: type[Exception]
) -> None:
    """Junk is refused in time linear in its length: junk actions at the first, after
    their types are checked; junk hand records once the replay of the actions is done."""

    def refuse(text: str) -> None:
        for _ in range(4):  # long enough to time
            with pytest.raises(error):
                loads_match(text)

    small, large = map(junk, sizes)
    assert_linear(
        lambda: best_time(lambda: refuse(small), 5), lambda: best_time(lambda: refuse(large), 5)
    )


# Finding 6: matches and their views pickle, however long.


def test_a_long_match_and_its_view_pickle_copy_and_compare(long_void: dict[int, Match]) -> None:
    """2,000 finished hands nest 2,000 deep inside the match, past Python's recursion
    limit: they compare, hash, pickle and copy flat."""
    m = long_void[2000]
    view = match_observe(m, 1)
    for twin in (pickle.loads(pickle.dumps(m)), copy.deepcopy(m)):
        assert twin == m and hash(twin) == hash(m) and twin.hands == m.hands
        assert twin.actions == m.actions and twin.hand_number == m.hand_number
        assert void_hands(twin, 2001) == void_hands(m, 2001)
    assert pickle.loads(pickle.dumps(view)) == view
    assert m != long_void[1000] and attrs.evolve(m, stake=2) != m
    assert attrs.evolve(m, seed=m.seed) == m


def test_new_match_reads_endless_decks_one_past_their_bounds() -> None:
    """decks is read one deck past MAX_DEALS at most, and each deck one card past the
    pack: endless iterables are refused at once, where they were read until memory
    ran out."""
    import itertools

    pack = SUBASTADA.cards
    with pytest.raises(brisca.StateError, match="MAX_DEALS"):
        new_match(SUBASTADA, decks=itertools.repeat(pack))
    with pytest.raises(brisca.StateError, match=r"decks\[0\].*more than 40"):
        new_match(SUBASTADA, decks=[itertools.cycle(pack)])
    with pytest.raises(brisca.StateError, match=r"decks\[1\].*twice"):
        new_match(SUBASTADA, decks=[pack, (pack[0],) * len(pack)])
