"""Hand-edited views, events and results, and arguments of the wrong type, at every entry point
of the text renderer (`brisca.formats.text`), the JSON views (`brisca.formats.views`) and the
events (`brisca.game.events`): a `BriscaError` (never a bare Python error), and the input
itself unchanged.

The values are public attrs classes, so ``attrs.evolve`` accepts any value for any field, at
any depth (a trick inside a view, a record inside a match's view); the forgeries are junk of
the wrong type and well-typed parts of other games.
"""

from __future__ import annotations

import functools
import io
import pickle
import random
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import attrs
import pytest
from helpers import JUNK as COMMON_JUNK
from helpers import forge, self_holding_list
from hypothesis import given, settings
from hypothesis import strategies as st

import brisca
from brisca.formats import text, views
from brisca.game import events as ev
from brisca.game.jsonio import MAX_DEPTH, readable

PRESETS = (
    "spanish-2p",
    "spanish-4p",
    "arrastre-2p",
    "cubierta-2p",
    "casino-2p",
    "puerto-rican-4p",
    "subastada-4p",
    "chiamata-5p",
)


def _nested(levels: int) -> object:
    value: object = ()
    for _ in range(levels):
        value = (value,)
    return value


JUNK: tuple[object, ...] = (
    *COMMON_JUNK,
    float("nan"),
    frozenset(),
    self_holding_list(),
    _nested(MAX_DEPTH + 10),
)
# Fewer values for the fields of values nested inside others, which are many more.
NESTED_JUNK: tuple[object, ...] = (None, 7, -1, "0", (None,), self_holding_list())


# ---------------------------------------------------------------------------
# Genuine values, from random games of each preset


@attrs.frozen
class Moment:
    """A step of a real game: the state before it, the action, the state after, its events."""

    before: brisca.State
    action: brisca.Action
    after: brisca.State
    events: tuple[ev.Event, ...]


@functools.cache
def _moments(name: str, seed: int = 3) -> tuple[Moment, ...]:
    state = brisca.new_game(brisca.preset(name), seed=seed)
    rng = random.Random(seed)
    out = []
    while not state.is_over:
        action = rng.choice(brisca.legal_actions(state))
        after, happened = brisca.step(state, action)
        out.append(Moment(state, action, after, happened))
        state = after
    return tuple(out)


def _picked(name: str) -> list[Moment]:
    """A few moments of a game: its start, one in the middle, one late and its last."""
    moments = _moments(name)
    return [moments[k] for k in sorted({0, 1, len(moments) // 2, len(moments) - 1})]


@functools.cache
def _match_views(name: str) -> tuple[brisca.MatchObservation, ...]:
    """A match's views: at its start, between hands (a hand finished), mid-hand, at its end."""
    match = brisca.new_match(brisca.preset(name), seed=5)
    rng = random.Random(5)
    seen: list[brisca.MatchObservation] = [brisca.match_observe(match, 0)]
    hands = 0
    for _ in range(3000):
        if match.is_over:
            break
        actions = brisca.match_legal_actions(match)
        match = brisca.match_apply(match, rng.choice(actions))
        if match.hand_number != hands and len(seen) < 3:
            hands = match.hand_number
            seen.append(brisca.match_observe(match, 1))
    seen.append(brisca.match_observe(match, 0))
    return tuple(seen)


def _view_at(moment: Moment) -> brisca.Observation:
    """The view of the seat that made the moment's move, before it."""
    seat = moment.before.to_act
    assert seat is not None
    return brisca.observe(moment.before, seat)


def _legal(moment: Moment) -> list[brisca.Action]:
    return list(brisca.legal_actions(moment.before))


def _observations() -> Iterator[tuple[brisca.Observation, list[brisca.Action]]]:
    for name in PRESETS:
        for moment in _picked(name)[1:3]:
            yield _view_at(moment), _legal(moment)


# One genuine event of every type, the hand-made ones for types the presets above never emit.
def _event_samples() -> list[tuple[ev.Event, Moment]]:
    samples: dict[type, tuple[ev.Event, Moment]] = {}
    for name in PRESETS:
        for moment in _moments(name):
            for event in moment.events:
                samples.setdefault(type(event), (event, moment))
    moment = _moments("spanish-4p")[0]
    samples.setdefault(ev.BlackHandClaimed, (ev.BlackHandClaimed(0, True), moment))
    samples[ev.Signalled] = (ev.Signalled(0, "wink", (0, 2)), moment)  # team-private
    return list(samples.values())


# ---------------------------------------------------------------------------
# The forging and the check


def _forged(value: Any, field: str, junk: object) -> Any | None:
    try:
        return attrs.evolve(value, **{field: junk})
    except brisca.BriscaError:
        return None  # refused at the door: as good as refused later


def _fields(value: Any) -> list[str]:
    return [f.alias for f in attrs.fields(type(value)) if f.init]


def _paths(value: object, depth: int = 0) -> Iterator[tuple[str | int, ...]]:
    """The paths to every part of `value` below its own fields: the fields of the attrs
    values it holds, and the first items of its tuples (Rules aside: they check themselves)."""
    if depth > 4:
        return
    if attrs.has(type(value)) and not isinstance(value, brisca.Rules):
        for field in _fields(value):
            yield (field,)
            for rest in _paths(getattr(value, field), depth + 1):
                yield (field, *rest)
    elif type(value) is tuple:
        for index, item in enumerate(value[:2]):
            yield (index,)
            for rest in _paths(item, depth + 1):
                yield (index, *rest)


def _replaced(value: Any, path: tuple[str | int, ...], new: object) -> Any:
    if not path:
        return new
    step, rest = path[0], path[1:]
    if isinstance(step, int):
        items = list(value)
        items[step] = _replaced(items[step], rest, new)
        return tuple(items)
    return attrs.evolve(value, **{step: _replaced(getattr(value, step), rest, new)})


def _nested_forgeries(value: object) -> Iterator[tuple[str, object]]:
    """`value` with one part two or more levels down replaced by junk."""
    for path in _paths(value):
        if len(path) < 2:
            continue
        for junk in NESTED_JUNK:
            try:
                yield ".".join(map(str, path)), _replaced(value, path, junk)
            except brisca.BriscaError:
                continue


def _pickled(value: object) -> bytes | None:
    try:
        return pickle.dumps(value)
    except Exception:  # a stream, or a generator: nothing to compare
        return None


def _served_or_refused(label: str, entry: Callable[..., object], *args: object) -> None:
    try:
        entry(*args)
    except brisca.BriscaError:
        pass
    except Exception as error:  # pragma: no cover - the failure being tested for
        pytest.fail(f"{label} leaked {type(error).__name__}: {error!s:.200}")


def _refused_or_served(label: str, entry: Callable[..., object], *args: object) -> None:
    before = [_pickled(arg) for arg in args]
    _served_or_refused(label, entry, *args)
    assert [_pickled(arg) for arg in args] == before, f"{label} changed its input"


def _check_all(
    label: str, entries: dict[str, Callable[..., object]], value: object, *rest: object
) -> None:
    """Every entry point on the same input, which is pickled once before and once after
    them all (pickling costs more than the calls)."""
    before = _pickled((value, *rest))
    for name, entry in entries.items():
        _served_or_refused(f"{name}[{label}]", entry, value, *rest)
    assert _pickled((value, *rest)) == before, f"one of {sorted(entries)} changed its input"


# ---------------------------------------------------------------------------
# Entry points by the value they are given

_VIEW_ENTRIES: dict[str, Callable[..., object]] = {
    "text.trump_line": lambda o, legal: text.trump_line(o),
    "text.trump_line[symbols]": lambda o, legal: text.trump_line(
        o, style=text.Style(colour=True, symbols=True)
    ),
    "text.turn_lines": lambda o, legal: text.turn_lines(o, legal),
    "text.auction_lines": lambda o, legal: text.auction_lines(o),
    "views.observation_to_dict": lambda o, legal: views.observation_to_dict(o),
    "views.observation_to_dict[tricks_from]": lambda o, legal: views.observation_to_dict(
        o, tricks_from=0
    ),
}

_MATCH_VIEW_ENTRIES: dict[str, Callable[..., object]] = {
    "text.standings_lines": text.standings_lines,
    "views.observation_to_dict": views.observation_to_dict,
    "views.observation_to_dict[tricks_from]": lambda o: views.observation_to_dict(o, tricks_from=0),
}


def _state_entries(events: tuple[ev.Event, ...]) -> dict[str, Callable[..., object]]:
    return {
        "text.describe_deal": text.describe_deal,
        "text.describe_deal[seat]": lambda s: text.describe_deal(s, 1),
        "text.describe_result": text.describe_result,
        "text.describe_result[seat]": lambda s: text.describe_result(s, 0),
        "text.narrate": lambda s: text.narrate(s, events),
        "text.narrate[seat]": lambda s: text.narrate(s, events, 0, plays=True),
    }


def _event_entries(after: brisca.State) -> dict[str, Callable[..., object]]:
    return {
        "events_for": lambda e: brisca.events_for(0, [e]),
        "events_for[1]": lambda e: brisca.events_for(1, [e]),
        "Event.view": lambda e: e.view(1),
        "Event.to_dict": lambda e: e.to_dict(),
        "views.events_to_dicts": lambda e: views.events_to_dicts([e]),
        "text.narrate": lambda e: text.narrate(after, [e]),
        "text.narrate[seat]": lambda e: text.narrate(after, [e], 0, plays=True),
        "text.announcement": lambda e: text.announcement(e, brisca.Suit("O"), 0),
    }


_TRICK_ENTRIES: dict[str, Callable[..., object]] = {
    "text.trick_line": lambda t: text.trick_line(1, t, 0),
    "text.trick_line[symbols]": lambda t: text.trick_line(
        3, t, None, style=text.Style(symbols=True)
    ),
}

_ACTION_ENTRIES: dict[str, Callable[..., object]] = {
    "text.action_text": text.action_text,
    "text.action_text[style]": lambda a: text.action_text(a, style=text.Style(True, True)),
    "text.help_lines": lambda a: text.help_lines([a], brisca.preset("spanish-4p")),
}


def _result_entries(details: object) -> dict[str, Callable[..., object]]:
    return {
        "text.contract_line": lambda r: text.contract_line(r, details, 0),  # type: ignore[arg-type]
        "text.contract_line[nobody]": lambda r: text.contract_line(r, details, None),  # type: ignore[arg-type]
    }


_MATCH_RESULT_ENTRIES: dict[str, Callable[..., object]] = {
    "text.match_result_lines": lambda r: text.match_result_lines(r, 0),
    "text.match_result_lines[nobody]": lambda r: text.match_result_lines(r),
}


# ---------------------------------------------------------------------------
# Forged values of the right type


@pytest.mark.parametrize("name", PRESETS)
def test_a_view_with_junk_in_any_field_is_a_brisca_error(name: str) -> None:
    for moment in _picked(name)[1:3]:
        view = _view_at(moment)
        legal = _legal(moment)
        _check_all("genuine", _VIEW_ENTRIES, view, legal)
        for field in _fields(view):
            for junk in JUNK:
                forged = _forged(view, field, junk)
                if forged is not None:
                    _check_all(f"{field}={junk!r:.20}", _VIEW_ENTRIES, forged, legal)


@pytest.mark.parametrize("name", PRESETS)
def test_a_view_with_junk_deep_inside_is_a_brisca_error(name: str) -> None:
    """A trick, a bid, a contract, a cante inside the view: each of their fields forged."""
    moments = _picked(name)
    moment = moments[-1] if len(moments) > 2 else moments[0]
    view = _view_at(moment)
    for label, forged in _nested_forgeries(view):
        _check_all(label, _VIEW_ENTRIES, forged, _legal(moment))


@pytest.mark.parametrize("name", ("spanish-2p", "spanish-4p", "subastada-4p", "chiamata-5p"))
def test_a_match_view_with_junk_in_any_field_or_deep_inside_is_a_brisca_error(name: str) -> None:
    for view in _match_views(name):
        _check_all("genuine", _MATCH_VIEW_ENTRIES, view)
        for field in _fields(view):
            for junk in JUNK:
                forged = _forged(view, field, junk)
                if forged is not None:
                    _check_all(f"{field}={junk!r:.20}", _MATCH_VIEW_ENTRIES, forged)
    for label, forged in _nested_forgeries(_match_views(name)[1]):
        _check_all(label, _MATCH_VIEW_ENTRIES, forged)


@pytest.mark.parametrize("name", PRESETS)
def test_a_state_told_in_words_with_junk_in_any_field_is_a_brisca_error(name: str) -> None:
    moments = _moments(name)
    for moment in (moments[1], moments[-1]):
        state = moment.after
        entries = _state_entries(moment.events)
        _check_all("genuine", entries, state)
        for field in _fields(state):
            for junk in JUNK:
                forged = _forged(state, field, junk)
                if forged is not None:
                    _check_all(f"{field}={junk!r:.20}", entries, forged)


def test_an_event_with_junk_in_any_field_is_a_brisca_error() -> None:
    for event, moment in _event_samples():
        entries = _event_entries(moment.after)
        _check_all(f"genuine {event!r}", entries, event)
        for field in _fields(event):
            for junk in JUNK:
                forged = _forged(event, field, junk)
                if forged is not None:
                    _check_all(f"{type(event).__name__}.{field}={junk!r:.20}", entries, forged)
        for label, forged in _nested_forgeries(event):
            _check_all(f"{type(event).__name__}.{label}", entries, forged)


def test_a_trick_with_junk_in_any_field_is_a_brisca_error() -> None:
    for name in PRESETS:
        trick = _moments(name)[-1].after.tricks[-1]
        for field in _fields(trick):
            for junk in JUNK:
                forged = _forged(trick, field, junk)
                if forged is not None:
                    _check_all(f"{field}={junk!r:.20}", _TRICK_ENTRIES, forged)
        for label, forged in _nested_forgeries(trick):
            _check_all(label, _TRICK_ENTRIES, forged)


def test_an_action_with_junk_in_any_field_is_a_brisca_error() -> None:
    actions: dict[type, brisca.Action] = {}
    for name in PRESETS:
        for moment in _moments(name):
            for action in _legal(moment):
                actions.setdefault(type(action), action)
    for action in actions.values():
        _check_all("genuine", _ACTION_ENTRIES, action)
        for field in _fields(action):
            for junk in JUNK:
                forged = _forged(action, field, junk)
                if forged is not None:
                    _check_all(
                        f"{type(action).__name__}.{field}={junk!r:.20}", _ACTION_ENTRIES, forged
                    )


@pytest.mark.parametrize("name", ("subastada-4p", "chiamata-5p"))
def test_a_contract_result_with_junk_in_any_field_is_a_brisca_error(name: str) -> None:
    outcome = brisca.result(_moments(name)[-1].after)
    details = outcome.details
    assert isinstance(details, brisca.game.state.ContractResult)
    _check_all("genuine", _result_entries(details), outcome)
    for field in _fields(outcome):
        for junk in JUNK:
            forged = _forged(outcome, field, junk)
            if forged is not None:
                _check_all(f"{field}={junk!r:.20}", _result_entries(details), forged)
    forgeries = [(f, _forged(details, f, j)) for f in _fields(details) for j in JUNK]
    for label, forged in [*forgeries, *_nested_forgeries(details)]:
        if forged is not None:
            _check_all(f"details.{label}", _result_entries(forged), outcome)


def test_a_match_result_with_junk_in_any_field_is_a_brisca_error() -> None:
    for name in ("spanish-2p", "spanish-4p"):
        match = brisca.new_match(brisca.preset(name), seed=2)
        rng = random.Random(2)
        while not match.is_over:
            match = brisca.match_apply(match, rng.choice(brisca.match_legal_actions(match)))
        outcome = brisca.result(match)
        _check_all("genuine", _MATCH_RESULT_ENTRIES, outcome)
        for field in _fields(outcome):
            for junk in JUNK:
                forged = _forged(outcome, field, junk)
                if forged is not None:
                    _check_all(f"{field}={junk!r:.20}", _MATCH_RESULT_ENTRIES, forged)


# Donors: views of other games, so each forgery is well typed but contradicts the rest.
@functools.cache
def _donor_views() -> tuple[brisca.Observation, ...]:
    return tuple(view for view, _ in _observations())


@settings(max_examples=40)
@given(
    which=st.integers(0, 2 * len(PRESETS) - 1),
    changes=st.dictionaries(
        st.sampled_from(tuple(f.alias for f in attrs.fields(brisca.Observation) if f.init)),
        st.integers(0, 2 * len(PRESETS) - 1),
        min_size=1,
        max_size=3,
    ),
)
def test_a_view_made_of_other_games_parts_is_a_brisca_error(
    which: int, changes: dict[str, int]
) -> None:
    donors = _donor_views()
    view = donors[which]
    legal = list(_observations())[which][1]
    forged = attrs.evolve(view, **{f: getattr(donors[i], f) for f, i in changes.items()})
    _check_all(f"donated {sorted(changes)}", _VIEW_ENTRIES, forged, legal)


# ---------------------------------------------------------------------------
# Arguments of the wrong type, at every public function of the text renderer


def _calls() -> dict[str, tuple[Callable[..., object], tuple[object, ...]]]:
    """Every public function of `brisca.formats.text` (and the views' and events'), with
    genuine arguments."""
    moment = _moments("spanish-4p")[-1]
    done = moment.after
    mid = _moments("spanish-4p")[5]
    view = _view_at(mid)
    auction = _moments("subastada-4p")[-1]
    outcome = brisca.result(auction.after)
    rules = brisca.preset("spanish-4p")
    card = brisca.Card.parse("3C")
    match_views = _match_views("spanish-4p")
    match = brisca.new_match(brisca.preset("spanish-2p"), seed=2)
    rng = random.Random(2)
    while not match.is_over:
        match = brisca.match_apply(match, rng.choice(brisca.match_legal_actions(match)))
    event = next(
        e for m in _moments("subastada-4p") for e in m.events if isinstance(e, ev.Announced)
    )
    style = text.Style(colour=True, symbols=True)
    return {
        "clean": (text.clean, ("3C\x1b",)),
        "Style.card": (style.card, (card,)),
        "Style.for_stream": (text.Style.for_stream, (io.StringIO(), {})),
        "cards_text": (lambda c, style: text.cards_text(c, style=style), ((card,), style)),
        "card_text": (lambda c, style: text.card_text(c, style=style), (card, style)),
        "option_docs": (text.option_docs, ()),
        "option_text": (text.option_text, ((card,),)),
        "option_choices": (text.option_choices, ("deck",)),
        "unused_options": (text.unused_options, (rules,)),
        "format_rules": (text.format_rules, (rules, "mine")),
        "source_legend": (text.source_legend, (["S000 and WB"],)),
        "signal_lines": (text.signal_lines, (rules,)),
        "card_order_lines": (text.card_order_lines, (rules,)),
        "changed_options": (text.changed_options, (rules,)),
        "seat_name": (text.seat_name, (1, 0)),
        "side_name": (text.side_name, ((0, 2), 0)),
        "trick_line": (
            lambda n, t, you, style: text.trick_line(n, t, you, style=style),
            (1, done.tricks[0], 0, style),
        ),
        "trump_line": (lambda v, style: text.trump_line(v, style=style), (view, style)),
        "direction_line": (text.direction_line, (rules, 1)),
        "describe_deal": (
            lambda s, you, style: text.describe_deal(s, you, style=style),
            (mid.before, 1, style),
        ),
        "narrate": (
            lambda s, e, you, style: text.narrate(s, e, you, True, style=style),
            (moment.after, moment.events, 0, style),
        ),
        "announcement": (text.announcement, (event, brisca.Suit("O"), 0)),
        "describe_result": (text.describe_result, (done, 0)),
        "contract_line": (text.contract_line, (outcome, outcome.details, 0)),
        "turn_lines": (
            lambda v, legal, style: text.turn_lines(v, legal, style=style),
            (view, _legal(mid), style),
        ),
        "action_text": (lambda a, style: text.action_text(a, style=style), (_legal(mid)[0], style)),
        "action_examples": (text.action_examples, (rules,)),
        "answer_kinds": (text.answer_kinds, (rules,)),
        "answer_hint": (text.answer_hint, (rules,)),
        "help_lines": (text.help_lines, (_legal(mid), rules)),
        "auction_lines": (text.auction_lines, (view,)),
        "match_target_text": (text.match_target_text, (rules,)),
        "standings_lines": (text.standings_lines, (match_views[1],)),
        "match_result_lines": (text.match_result_lines, (brisca.result(match), 0)),
        "observation_to_dict": (
            lambda o, tricks_from: views.observation_to_dict(o, tricks_from=tricks_from),
            (view, 0),
        ),
        "events_to_dicts": (views.events_to_dicts, (moment.events,)),
        "events_for": (brisca.events_for, (0, moment.events)),
        "Event.view": (moment.events[0].view, (0,)),
        "Signalled.view": (ev.Signalled(0, "wink", (0, 2)).view, (0,)),
        "CardsDrawn.view": (ev.CardsDrawn(0, card).view, (1,)),
        "readable": (readable, (view,)),
    }


# Calls whose arguments all take anything, so that no junk is refused.
_ANYTHING = {"option_text", "readable"}
# Arguments that may be None: `you`, a rules name, the rules of help_lines, a trump, tricks_from.
_NONE_ALLOWED = {
    ("format_rules", 1),
    ("seat_name", 1),
    ("side_name", 1),
    ("trick_line", 2),
    ("direction_line", 1),
    ("describe_deal", 1),
    ("narrate", 2),
    ("announcement", 1),
    ("announcement", 2),
    ("describe_result", 1),
    ("contract_line", 2),
    ("help_lines", 1),
    ("match_result_lines", 1),
    ("observation_to_dict", 1),
    ("Style.for_stream", 1),
}


def test_every_public_function_of_the_text_renderer_is_checked_here() -> None:
    public = {
        name
        for name in text.__all__
        if callable(getattr(text, name)) and not isinstance(getattr(text, name), type)
    }
    public |= {f"Style.{name}" for name in ("card", "for_stream")}
    assert public <= set(_calls()), sorted(public - set(_calls()))


@pytest.mark.parametrize("name", sorted(_calls()))
def test_junk_in_any_argument_is_a_brisca_error(name: str) -> None:
    """Each argument of each public function replaced in turn by each junk value."""
    entry, args = _calls()[name]
    _refused_or_served(f"{name}(genuine)", entry, *args)
    for position in range(len(args)):
        for junk in JUNK:
            changed = (*args[:position], junk, *args[position + 1 :])
            _refused_or_served(f"{name}(arg {position}={junk!r:.20})", entry, *changed)


@pytest.mark.parametrize("name", sorted(set(_calls()) - _ANYTHING))
def test_an_argument_of_the_wrong_type_is_named_in_the_error(name: str) -> None:
    """A wrong type is an explicit refusal ("expected ...", "... must be ..."), not the
    guard's "inconsistent": the first argument as None, or as an object of no brisca type."""
    entry, args = _calls()[name]
    for position in range(len(args)):
        for junk in (None, object()):
            if junk is None and (name, position) in _NONE_ALLOWED:
                continue
            if name == "Style.for_stream" and position == 0:
                continue  # any stream will do: one that is no terminal is written plain
            changed = (*args[:position], junk, *args[position + 1 :])
            with pytest.raises(brisca.BriscaError) as error:
                entry(*changed)
            assert "inconsistent" not in str(error.value), (name, position, str(error.value))


# ---------------------------------------------------------------------------
# The messages, and the values that nest or hold themselves


def test_a_forged_view_is_called_inconsistent_without_quoting_it() -> None:
    view = next(_observations())[0]
    forged = forge(view, trump=7)
    if forged is not None:  # the compiled build refuses a trump that is no suit at once
        with pytest.raises(
            brisca.StateError, match=r"^the view is inconsistent \(AttributeError\)$"
        ):
            text.trump_line(forged)
    match_view = _match_views("spanish-2p")[1]
    with pytest.raises(brisca.StateError, match=r"^the view is inconsistent \(TypeError\)$"):
        text.standings_lines(attrs.evolve(match_view, stake=None))  # type: ignore[arg-type]


def test_wrong_arguments_say_what_was_expected() -> None:
    with pytest.raises(brisca.StateError, match=r"expected a brisca\.Observation, got None"):
        text.trump_line(None)  # type: ignore[arg-type]
    with pytest.raises(brisca.StateError, match=r"expected a brisca\.State, got None"):
        text.describe_deal(None)  # type: ignore[arg-type]
    with pytest.raises(brisca.StateError, match=r"expected .*cards, got None"):
        text.cards_text(None)  # type: ignore[arg-type]
    with pytest.raises(brisca.StateError, match=r"expected brisca events, got None"):
        brisca.events_for(0, None)  # type: ignore[arg-type]


def test_a_signal_seen_by_an_audience_that_is_no_seats_is_a_brisca_error() -> None:
    # The compiled build refuses the event as it is built, saying what it cannot hold.
    with pytest.raises(brisca.StateError, match=r"the event is inconsistent|cannot hold"):
        brisca.events_for(1, [ev.Signalled(0, "wink", 7)])  # type: ignore[arg-type]


def test_a_value_that_holds_itself_is_too_deep_to_write() -> None:
    """The walk that writes events and views stops at MAX_DEPTH levels, cheaply, with a
    clear error, whatever the caller's own stack: never a RecursionError."""
    looped = self_holding_list()
    # The compiled build refuses the event as it is built: a card that is no card.
    too_deep = f"nested deeper than {MAX_DEPTH}|cannot hold"
    with pytest.raises(brisca.StateError, match=too_deep):
        ev.CardPlayed(0, looped).to_dict()  # type: ignore[arg-type]
    with pytest.raises(brisca.StateError, match=too_deep):
        views.events_to_dicts([ev.CardPlayed(0, looped)])  # type: ignore[arg-type]
    with pytest.raises(brisca.StateError, match=f"nested deeper than {MAX_DEPTH}"):
        readable((Fraction(1, 2), [looped]))
    deep: dict[str, object] = {}
    for _ in range(100_000):  # a dict is written as its text, which Python cannot make
        deep = {"k": deep}
    with pytest.raises(brisca.StateError, match=f"nested deeper than {MAX_DEPTH}"):
        readable((deep,))
    assert readable(_nested(MAX_DEPTH - 1)) is not None  # as deep as may be, written


def test_genuine_values_still_read_the_same() -> None:
    """The guards change nothing for values play makes."""
    moment = _moments("spanish-4p")[3]
    view = _view_at(moment)
    assert text.trump_line(view).startswith("trump: ")
    assert text.cards_text(view.hand) == " ".join(c.code for c in view.hand)
    assert views.observation_to_dict(view)["hand"] == [c.code for c in view.hand]
    assert views.events_to_dicts(moment.events) == [e.to_dict() for e in moment.events]
