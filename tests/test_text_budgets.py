"""The budgets of the text and view writers (`brisca.formats.text`, `brisca.formats.views`):
every iterable argument is read up to a documented cap, whatever its type; reading one
that fails, a seat or number too large to write, or a hostile str or stream is a
BriscaError that says what is wrong; and telling a step costs linear time."""

from __future__ import annotations

import functools
import io
import itertools
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest
from helpers import assert_linear, cpu_seconds, played

import brisca
from brisca import Card
from brisca.formats import text, views
from brisca.formats.text import MAX_ITEMS, MAX_SEAT, MAX_TRICK
from brisca.game.events import (
    MAX_EVENTS,
    BlackHandClaimed,
    CardPlayed,
    CardsDrawn,
    PartnerRevealed,
    TrickWon,
)

CARD = Card.parse("1O")
STATE = brisca.new_game(brisca.preset("spanish-2p"), seed=1)
VIEW = brisca.observe(STATE, 0)
RULES = brisca.preset("spanish-4p")
EVENT = CardPlayed(0, CARD)
HUGE = 10**5000  # Python refuses to write an int this long

# ---------------------------------------------------------------------------
# Telling a step: linear in its events


def test_narrating_the_cards_drawn_costs_linear_time() -> None:
    """The "you drew ..." line is written once, not again at each card drawn."""
    drawn = CardsDrawn(0, CARD)

    def tell(n: int) -> Callable[[], float]:
        events = [drawn] * n
        return lambda: cpu_seconds(lambda: text.narrate(STATE, events, 0, True))

    assert_linear(tell(10_000), tell(20_000))  # some 15 and 30 ms


def test_the_cards_drawn_are_told_on_one_line_where_the_first_was_drawn() -> None:
    events = [CardsDrawn(0, CARD), CardPlayed(1, CARD), CardsDrawn(0, Card.parse("3C"))]
    assert text.narrate(STATE, events, 0, True) == [
        "you drew 1O (As de Oros), 3C (Tres de Copas)",
        "seat 1 played 1O (As de Oros)",
    ]


# ---------------------------------------------------------------------------
# Events: MAX_EVENTS, whatever the iterable's type

_EVENT_READERS: dict[str, Callable[[Any], object]] = {
    "narrate": lambda events: text.narrate(STATE, events),
    "narrate[you]": lambda events: text.narrate(STATE, events, 0, True),
    "events_to_dicts": views.events_to_dicts,
}

_TOO_MANY_EVENTS: dict[str, Callable[[], object]] = {
    "list": lambda: [EVENT] * (MAX_EVENTS + 1),
    "tuple": lambda: (EVENT,) * (MAX_EVENTS + 1),
    "endless": lambda: itertools.repeat(EVENT),
    "generator": lambda: (EVENT for _ in itertools.count()),
}


@pytest.mark.parametrize("shape", sorted(_TOO_MANY_EVENTS))
@pytest.mark.parametrize("reader", sorted(_EVENT_READERS))
def test_more_events_than_max_events_are_refused_whatever_their_type(
    reader: str, shape: str
) -> None:
    with pytest.raises(brisca.StateError, match=rf"^more than {MAX_EVENTS} events \(MAX_EVENTS\)$"):
        _EVENT_READERS[reader](_TOO_MANY_EVENTS[shape]())


# ---------------------------------------------------------------------------
# Cards, actions and lines: MAX_ITEMS, whatever the iterable's type

_ITEM_READERS: dict[str, tuple[Callable[[Any], object], object, str]] = {
    "cards_text": (text.cards_text, CARD, "brisca cards"),
    "help_lines": (text.help_lines, brisca.Play(CARD), "brisca actions"),
    "turn_lines": (lambda legal: text.turn_lines(VIEW, legal), brisca.Play(CARD), "brisca actions"),
    "source_legend": (text.source_legend, "S000", "lines of text"),
}

_TOO_MANY_ITEMS: dict[str, Callable[[object], object]] = {
    "list": lambda item: [item] * (MAX_ITEMS + 1),
    "tuple": lambda item: (item,) * (MAX_ITEMS + 1),
    "endless": itertools.repeat,
    "generator": lambda item: (item for _ in itertools.count()),
}


@pytest.mark.parametrize("shape", sorted(_TOO_MANY_ITEMS))
@pytest.mark.parametrize("reader", sorted(_ITEM_READERS))
def test_more_items_than_max_items_are_refused_whatever_their_type(reader: str, shape: str) -> None:
    read, item, what = _ITEM_READERS[reader]
    with pytest.raises(brisca.StateError, match=rf"^more than {MAX_ITEMS} {what} \(MAX_ITEMS\)$"):
        read(_TOO_MANY_ITEMS[shape](item))


@pytest.mark.parametrize("reader", sorted(_ITEM_READERS))
def test_max_items_items_are_read(reader: str) -> None:
    read, item, _ = _ITEM_READERS[reader]
    assert read(itertools.repeat(item, MAX_ITEMS)) == read([item] * MAX_ITEMS)


# ---------------------------------------------------------------------------
# An iterable whose iteration fails


class _IterGivesAnInt:
    def __iter__(self) -> Any:
        return 5  # iter() refuses it with a TypeError


class _NextFails:
    def __init__(self, error: type[Exception]) -> None:
        self.error = error

    def __iter__(self) -> Iterator[object]:
        return self

    def __next__(self) -> object:
        raise self.error("boom")


def _fails_midway(item: object, error: type[Exception]) -> Iterator[object]:
    yield item
    raise error("boom")


_FAILURES: dict[str, tuple[Callable[[object], object], str]] = {
    "__iter__ gives an int": (lambda item: _IterGivesAnInt(), "TypeError"),
    **{
        f"generator raises {error.__name__}": (
            functools.partial(_fails_midway, error=error),
            error.__name__,
        )
        for error in (ValueError, IndexError, KeyError, TypeError, AttributeError)
    },
    "__next__ raises LookupError": (lambda item: _NextFails(LookupError), "LookupError"),
}

_FAILING_READERS: dict[str, tuple[Callable[[Any], object], object]] = {
    **{name: (read, item) for name, (read, item, _) in _ITEM_READERS.items()},
    **{name: (read, EVENT) for name, read in _EVENT_READERS.items()},
}


@pytest.mark.parametrize("failure", sorted(_FAILURES))
@pytest.mark.parametrize("reader", sorted(_FAILING_READERS))
def test_an_iterable_whose_iteration_fails_is_a_state_error(reader: str, failure: str) -> None:
    read, item = _FAILING_READERS[reader]
    make, error = _FAILURES[failure]
    with pytest.raises(brisca.StateError, match=rf" cannot be read \({error}\)$"):
        read(make(item))


# ---------------------------------------------------------------------------
# Seats and numbers too large to be any game's (or to be written at all)

_DONE = played("spanish-2p", 200)
_AUCTION = played("subastada-4p", 400)
_OUTCOME = brisca.result(_AUCTION)


def _match_result() -> brisca.MatchResult:
    match = brisca.new_match(brisca.preset("spanish-2p"), seed=2)
    while not match.is_over:
        match = brisca.match_apply(match, brisca.match_legal_actions(match)[0])
    return brisca.result(match)


_MATCH = _match_result()
_ANNOUNCED = brisca.game.events.Announced(0, "pass")

#: Every function that takes a seat `you`, called with it.
_YOU: dict[str, Callable[[Any], object]] = {
    "seat_name": lambda you: text.seat_name(0, you),
    "side_name": lambda you: text.side_name((0,), you),
    "direction_line": lambda you: text.direction_line(RULES, you),
    "describe_deal": lambda you: text.describe_deal(STATE, you),
    "narrate": lambda you: text.narrate(STATE, [], you),
    "announcement": lambda you: text.announcement(_ANNOUNCED, None, you),
    "describe_result": lambda you: text.describe_result(_DONE, you),
    "contract_line": lambda you: text.contract_line(_OUTCOME, _OUTCOME.details, you),  # type: ignore[arg-type]
    "trick_line": lambda you: text.trick_line(1, _DONE.tricks[0], you),
    "match_result_lines": lambda you: text.match_result_lines(_MATCH, you),
}

#: Every function that writes a seat it is given, or that an event it is given holds.
_SEAT: dict[str, Callable[[Any], object]] = {
    "seat_name": lambda seat: text.seat_name(seat, None),
    "side_name": lambda seat: text.side_name((seat,), None),
    "side_name[second]": lambda seat: text.side_name((0, seat), 0),
    "narrate[CardPlayed]": lambda seat: text.narrate(STATE, [CardPlayed(seat, CARD)], None, True),
    "narrate[CardsDrawn]": lambda seat: text.narrate(STATE, [CardsDrawn(seat, CARD, True)]),
    "narrate[BlackHandClaimed]": lambda seat: text.narrate(STATE, [BlackHandClaimed(seat)]),
    "narrate[PartnerRevealed]": lambda seat: text.narrate(STATE, [PartnerRevealed(seat)]),
    "announcement": lambda seat: text.announcement(
        brisca.game.events.Announced(seat, "pass"), None, None
    ),
    "announcement[trump]": lambda seat: text.announcement(
        brisca.game.events.Announced(seat, "trump O"), None, None
    ),
}

_TOO_LARGE = {"MAX_SEAT + 1": MAX_SEAT + 1, "2**70": 2**70, "10**5000": HUGE}


@pytest.mark.parametrize("value", sorted(_TOO_LARGE))
@pytest.mark.parametrize("entry", sorted(_YOU))
def test_a_seat_you_past_max_seat_is_refused_as_such(entry: str, value: str) -> None:
    with pytest.raises(brisca.StateError, match=r"^the seat `you` must be an int from 0 to 5, got"):
        _YOU[entry](_TOO_LARGE[value])


@pytest.mark.parametrize("value", sorted(_TOO_LARGE))
@pytest.mark.parametrize("entry", sorted(_SEAT))
def test_a_seat_past_max_seat_is_refused_as_such(entry: str, value: str) -> None:
    with pytest.raises(brisca.StateError, match=r"^seat must be an int from 0 to 5, got"):
        _SEAT[entry](_TOO_LARGE[value])


def test_every_seat_of_a_game_is_still_named() -> None:
    assert [text.seat_name(seat, 2) for seat in range(MAX_SEAT + 1)] == [
        "seat 0",
        "seat 1",
        "you",
        "seat 3",
        "seat 4",
        "seat 5",
    ]
    assert text.side_name((1, 3, 5), 3) == "you+1+5"


def test_a_side_of_more_seats_than_a_table_holds_is_refused() -> None:
    with pytest.raises(brisca.StateError, match=r"^a side must be a tuple of seats, got"):
        text.side_name((0,) * (MAX_SEAT + 2), None)


def test_a_trick_number_past_max_trick_is_refused_as_such() -> None:
    assert text.trick_line(MAX_TRICK, _DONE.tricks[0], None).startswith(f"trick {MAX_TRICK}:")
    for number in (MAX_TRICK + 1, HUGE):
        with pytest.raises(
            brisca.StateError, match=r"^the trick's number must be an int from 0 to 24, got"
        ):
            text.trick_line(number, _DONE.tricks[0], None)


def test_an_int_too_long_to_write_is_named_by_its_size_in_errors() -> None:
    """A message that quotes an int Python refuses to write names its size instead,
    rather than failing as the inconsistency of the value around it."""
    with pytest.raises(brisca.StateError, match=r"^trick <int of 16610 bits> is not among"):
        text.narrate(STATE, [TrickWon(0, 0, HUGE)])
    with pytest.raises(
        brisca.StateError, match=r"^tricks_from must be .* got <int of 16610 bits>$"
    ):
        views.observation_to_dict(VIEW, tricks_from=HUGE)


# ---------------------------------------------------------------------------
# A hostile str, stream or environment


class _HostileStr(str):
    def isprintable(self) -> bool:
        raise ValueError("boom")

    def __iter__(self) -> Iterator[str]:
        raise IndexError("boom")

    def encode(self, *args: Any, **kwargs: Any) -> bytes:
        raise TypeError("boom")


@pytest.mark.parametrize("value", ["3C", "3C\x1b[2J", "\u202e\n"])
def test_clean_never_runs_a_str_subclass_own_methods(value: str) -> None:
    cleaned = text.clean(_HostileStr(value))
    assert type(cleaned) is str and cleaned == text.clean(value)


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


class _FailingTty(io.StringIO):
    def isatty(self) -> bool:
        raise LookupError("boom")


class _TtyWithoutEncoding(_Tty):
    @property
    def encoding(self) -> str:  # type: ignore[override]
        raise ValueError("boom")


class _FailingEnviron(Mapping[str, str]):
    def __getitem__(self, key: str) -> str:
        raise ValueError("boom")

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


class _Untruthful:
    def __bool__(self) -> bool:
        raise TypeError("boom")


def test_a_stream_that_fails_is_written_plain() -> None:
    assert text.Style.for_stream(_FailingTty(), {}) == text.Style()
    assert not text.Style.for_stream(_TtyWithoutEncoding(), {}).symbols


@pytest.mark.parametrize("environ", [_FailingEnviron(), {"NO_COLOR": _Untruthful()}])
def test_an_environ_whose_lookups_fail_is_a_state_error(environ: Mapping[str, Any]) -> None:
    with pytest.raises(brisca.StateError, match=r"^the environ is inconsistent \(\w+Error\)$"):
        text.Style.for_stream(_Tty(), environ)
