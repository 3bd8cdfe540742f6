"""Matches, match views, match results, hand records and hand results built or edited by hand
with values no match makes: every entry point that takes one answers, or raises a
`BriscaError` (never a bare Python error), and leaves the value it was given unchanged.

These are public attrs classes, so ``attrs.evolve`` accepts any value for any field; the
library does not validate a match on every move (that would cost more than the move), so
the entry points turn what a contradictory value makes Python raise into a `StateError`.
The forgeries are junk of the wrong type, and well-typed parts of other matches (a 4-player
hand in a 2-player match, another preset's standings, a finished match's record). Each is
tried at several moments, the last move of a hand among them, where the hand is scored
and the next one dealt.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import attrs
import pytest
from helpers import JUNK as COMMON_JUNK
from helpers import forge, self_holding_list

import brisca
from brisca import HandResult, IllegalActionError, Match, MatchObservation, MatchResult, Rules
from brisca.formats.saves import dumps_match, loads_match
from brisca.game.actions import ACTION_TYPES
from brisca.game.match import (
    MAX_ACTIONS,
    MAX_DEALS,
    MOST_MATCH_ITEMS,
    HandRecord,
    hand_value,
    match_apply,
    match_is_legal,
    match_legal_actions,
    match_observe,
    match_result,
    match_step,
    match_with_hand,
    new_match,
)

JUNK: tuple[object, ...] = (
    *COMMON_JUNK,
    float("nan"),
    frozenset(),
    self_holding_list(),
)
FIELDS = tuple(a.alias for a in attrs.fields(Match))  # `finished`, not `_finished`
NAMES = {a.alias: a.name for a in attrs.fields(Match)}

# A plain game, partnerships, a cumulative-points match, an auction, 5 seats in rotation.
PRESETS = ("spanish-2p", "spanish-4p", "chilean-rematada", "subastada-4p", "chiamata-5p")
# The moments whose parts other matches are given, and at which copies are tried too (the
# slow entry points: a deep copy or a pickle of a match takes milliseconds).
DONOR_MOMENTS = ("hand end", "over")


def _single_hand(name: str) -> Rules:
    return attrs.evolve(brisca.preset(name), match_mode="single_hand", match_target=1)


def _until(match: Match, rng: random.Random, done: Callable[[Match], bool]) -> Match:
    """`match` played by random legal actions until the next action would make `done` true;
    the match returned is the one before that action."""
    while True:
        following = match_apply(match, rng.choice(match_legal_actions(match)))
        if done(following):
            return match
        match = following


@attrs.frozen
class Moment:
    """A genuine match, an action legal in it (or, once over, in an earlier moment) and the
    hand state that action reaches."""

    label: str
    match: Match
    action: brisca.Action
    later: brisca.State | None


def _moment(label: str, match: Match, rng: random.Random, action: Any = None) -> Moment:
    if action is None:
        action = rng.choice(match_legal_actions(match))
    later = None if match.state is None else brisca.apply(match.state, action)
    return Moment(label, match, action, later)


def _moments(name: str, seed: int = 3) -> tuple[Moment, ...]:
    rng = random.Random(seed)
    fresh = new_match(brisca.preset(name), seed=seed)
    middle = _until(fresh, rng, lambda m: m.action_count >= 5)
    # The last move of the first hand: the hand is scored and the next one dealt.
    hand_end = _until(middle, rng, lambda m: m.hand_number > 0)
    after = match_apply(hand_end, _moment("", hand_end, random.Random(0)).action)
    # The last move of a single-hand match, and the match once over.
    single = new_match(_single_hand(name), seed=seed)
    match_end = _until(single, rng, lambda m: m.is_over)
    last = _moment("match end", match_end, rng)
    over = match_apply(match_end, last.action)
    return (
        _moment("fresh", fresh, rng),
        _moment("middle", middle, rng),
        _moment("hand end", hand_end, random.Random(0)),
        _moment("second hand", after, rng),
        last,
        Moment("over", over, last.action, None),
    )


MOMENTS = {name: _moments(name) for name in PRESETS}
# Donors: the fields of a match of each preset mid-way and over, well typed but out of place.
DONORS = [m.match for moments in MOMENTS.values() for m in moments if m.label in DONOR_MOMENTS]


def _entry_points(moment: Moment) -> dict[str, Callable[[Match], object]]:
    action, later = moment.action, moment.later
    return {
        "match_legal_actions": match_legal_actions,
        "match_is_legal": lambda m: match_is_legal(m, action),
        "match_is_legal(text)": lambda m: match_is_legal(m, str(action)),
        "match_apply": lambda m: match_apply(m, action),
        "match_apply(text)": lambda m: match_apply(m, str(action)),
        "match_step": lambda m: match_step(m, action),
        "match_observe": lambda m: match_observe(m, 0),
        "match_result": match_result,
        "match_with_hand": lambda m: later is None or match_with_hand(m, later),
        "brisca.legal_actions": brisca.legal_actions,
        "brisca.is_legal": lambda m: brisca.is_legal(m, action),
        "brisca.apply": lambda m: brisca.apply(m, action),
        "brisca.step": lambda m: brisca.step(m, action),
        "brisca.observe": lambda m: brisca.observe(m, 0),
        "brisca.result": brisca.result,
        "dumps_match": dumps_match,
        "brisca.dumps": brisca.dumps,
        "repr": repr,
        "str": str,
        "hands": lambda m: m.hands,
        "actions": lambda m: m.actions,
        "action_count": lambda m: m.action_count,
        "hand_number": lambda m: m.hand_number,
        "to_act": lambda m: m.to_act,
        "dealer": lambda m: m.dealer,
        "is_over": lambda m: m.is_over,
        "==": lambda m: (m == m, m == moment.match),
        "copy": copy.copy,
    }


COPIES: dict[str, Callable[[Match], object]] = {
    "deepcopy": copy.deepcopy,
    "pickle": lambda m: pickle.loads(pickle.dumps(m)),
}


def _raw(match: Match) -> bytes:
    """The fields as stored, pickled: a forged match may not pickle as a Match."""
    return pickle.dumps(tuple(getattr(match, a.name) for a in attrs.fields(Match)))


def _edit(value: Any, **changes: Any) -> Any:
    """`attrs.evolve`, untyped: the point is to give fields values of the wrong type."""
    return attrs.evolve(value, **changes)


def _forged(value: Any, **changes: object) -> Any:
    try:
        return attrs.evolve(value, **changes)
    except brisca.BriscaError:
        return None  # refused at the door: as good as refused later


def _assert_refused_or_served(forged: Match | None, moment: Moment) -> None:
    if forged is None:  # refused as it was made
        return
    before = _raw(forged)
    entries = _entry_points(moment)
    if moment.label in DONOR_MOMENTS:
        entries.update(COPIES)
    for name, entry in entries.items():
        try:
            entry(forged)
        except brisca.BriscaError:
            pass
        except Exception as error:  # pragma: no cover - the failure being tested for
            pytest.fail(f"{moment.label}: {name} leaked {type(error).__name__}: {error}")
    assert _raw(forged) == before, f"{moment.label}: an entry point changed the match"


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("field", FIELDS)
def test_junk_in_any_field_of_a_match_is_a_brisca_error(name: str, field: str) -> None:
    for moment in MOMENTS[name]:
        for value in JUNK:
            forged = _forged(moment.match, **{field: value})
            if forged is not None:
                _assert_refused_or_served(forged, moment)


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("field", FIELDS)
def test_a_match_with_another_matchs_part_is_a_brisca_error(name: str, field: str) -> None:
    for moment in MOMENTS[name]:
        for donor in DONORS:
            part = getattr(donor, NAMES[field])
            if part is not getattr(moment.match, NAMES[field]):
                _assert_refused_or_served(attrs.evolve(moment.match, **{field: part}), moment)


def _with_newest_record(match: Match, record: object) -> Match | None:
    earlier, _, actions, taken = match._finished
    return _forged(match, finished=(earlier, record, actions, taken))


# Moments with a finished hand, whose newest record the next tests forge: early in a match
# and once over (each preset's last hand, then the match is over).
RECORDED = [
    m for moments in MOMENTS.values() for m in moments if m.label in ("second hand", "over")
]
RECORD_FIELDS = tuple(a.name for a in attrs.fields(HandRecord))
RESULT_FIELDS = tuple(a.name for a in attrs.fields(HandResult))
RESULT_DONORS = list({h.result: None for m in RECORDED for h in m.match.hands})


@pytest.mark.parametrize("field", RECORD_FIELDS)
def test_a_match_whose_hand_record_is_hand_edited_is_a_brisca_error(field: str) -> None:
    for moment in RECORDED:
        record = moment.match.hands[-1]
        for value in (*JUNK, *RESULT_DONORS[:3]):
            forged = _forged(record, **{field: value})
            if forged is not None:
                _assert_refused_or_served(_with_newest_record(moment.match, forged), moment)
    for moment in RECORDED[:4]:
        for value in JUNK:  # a record that is no record at all
            _assert_refused_or_served(_with_newest_record(moment.match, value), moment)


@pytest.mark.parametrize("slot", ["earlier deals", "actions", "actions taken"])
def test_a_match_whose_chain_of_finished_deals_is_hand_edited_is_a_brisca_error(slot: str) -> None:
    index = {"earlier deals": 0, "actions": 2, "actions taken": 3}[slot]
    for moment in RECORDED:
        for value in JUNK:
            node = list(moment.match._finished)
            node[index] = value
            _assert_refused_or_served(_forged(moment.match, finished=tuple(node)), moment)


@pytest.mark.parametrize("field", RESULT_FIELDS)
def test_a_match_whose_hand_result_is_hand_edited_is_a_brisca_error(field: str) -> None:
    for moment in RECORDED:
        record = moment.match.hands[-1]
        donors = {getattr(r, field): None for r in RESULT_DONORS}
        for value in (*JUNK, *donors):
            forged = _forged(record.result, **{field: value})
            if forged is not None:
                edited = _forged(record, result=forged)
                if edited is not None:
                    _assert_refused_or_served(_with_newest_record(moment.match, edited), moment)


# The match options that hand_value reads, each mode and margin rule.
VALUE_RULES = (
    Rules(),
    Rules(match_mode="single_hand", match_target=1),
    Rules(match_mode="hands_won"),
    Rules(match_mode="game_points", margin_points=True),
    Rules(match_mode="game_points", margin_points=True, capote_definition="all_tricks"),
    Rules(match_mode="cumulative_card_points", match_target=101),
)


@pytest.mark.parametrize("field", RESULT_FIELDS)
def test_hand_value_of_a_hand_edited_result_is_a_number_or_a_brisca_error(field: str) -> None:
    for record in {h for m in RECORDED for h in m.match.hands}:
        donors = {getattr(r, field): None for r in RESULT_DONORS}
        for value in (*JUNK, *donors):
            forged = _forged(record.result, **{field: value})
            if forged is None:
                continue
            before = pickle.dumps(forged)
            for rules in VALUE_RULES:
                try:
                    worth = hand_value(rules, forged, record.tricks_won)
                except brisca.BriscaError:
                    continue
                except Exception as error:  # pragma: no cover - the failure tested for
                    pytest.fail(f"hand_value leaked {type(error).__name__}: {error}")
                assert type(worth) is int
            assert pickle.dumps(forged) == before


def test_hand_value_refuses_a_winner_that_is_no_side() -> None:
    outcome = HandResult(
        termination=brisca.Termination.PLAYED_OUT, sides=((0,), (1,)), points=(91, 29), winner=0
    )
    for winner in (7, -1, 1.0, "0"):
        forged = forge(outcome, winner=winner)
        if forged is None:  # the compiled build refuses it as it is stored
            continue
        with pytest.raises(brisca.StateError, match="winner must be None or a side from 0 to 1"):
            hand_value(Rules(), forged, (12, 8))


OBSERVATION_FIELDS = tuple(a.name for a in attrs.fields(MatchObservation))
VIEWS = [
    match_observe(m.match, 0)
    for moments in MOMENTS.values()
    for m in moments
    if m.label in ("middle", *DONOR_MOMENTS)
]


def _view_readers() -> dict[str, Callable[[MatchObservation], object]]:
    return {
        "is_over": lambda v: v.is_over,
        "dealer": lambda v: v.dealer,
        "to_act": lambda v: v.to_act,
        "hand_number": lambda v: v.hand_number,
        "repr": repr,
        "==": lambda v: v == v,
        "pickle": lambda v: pickle.loads(pickle.dumps(v)),
    }


@pytest.mark.parametrize("field", OBSERVATION_FIELDS)
def test_a_hand_edited_match_view_is_read_or_a_brisca_error(field: str) -> None:
    donors = {id(part): part for part in (getattr(v, field) for v in VIEWS)}.values()
    for view in VIEWS:
        for value in (*JUNK, *donors):
            forged = _forged(view, **{field: value})
            if forged is None:
                continue
            before = pickle.dumps(forged)
            for name, read in _view_readers().items():
                try:
                    read(forged)
                except brisca.BriscaError:
                    pass
                except Exception as error:  # pragma: no cover - the failure tested for
                    pytest.fail(f"{name} leaked {type(error).__name__}: {error}")
            assert pickle.dumps(forged) == before


RESULT_READERS: dict[str, Callable[[MatchResult], object]] = {
    "is_draw": lambda r: r.is_draw,
    "side_standings": lambda r: r.side_standings,
    "repr": repr,
    "pickle": lambda r: pickle.loads(pickle.dumps(r)),
}
RESULTS = [
    match_result(m.match) for moments in MOMENTS.values() for m in moments if m.match.is_over
]


@pytest.mark.parametrize("field", tuple(a.name for a in attrs.fields(MatchResult)))
def test_a_hand_edited_match_result_is_read_or_a_brisca_error(field: str) -> None:
    donors = [getattr(r, field) for r in RESULTS]
    for outcome in RESULTS:
        for value in (*JUNK, *donors):
            forged = _forged(outcome, **{field: value})
            if forged is None:
                continue
            before = pickle.dumps(forged)
            for name, read in RESULT_READERS.items():
                try:
                    read(forged)
                except brisca.BriscaError:
                    pass
                except Exception as error:  # pragma: no cover - the failure tested for
                    pytest.fail(f"{name} leaked {type(error).__name__}: {error}")
            assert pickle.dumps(forged) == before


def test_the_error_names_the_match_and_the_python_error_only() -> None:
    """The message says what is inconsistent without quoting the value, hidden cards and all."""
    moment = MOMENTS["spanish-2p"][2]  # the last move of a hand
    match = moment.match
    exact = r"^the match is inconsistent \({}\)$"
    with pytest.raises(brisca.StateError, match=exact.format("TypeError")):
        _ = _edit(match, finished=7).hand_number
    with pytest.raises(brisca.StateError, match=exact.format("TypeError")):
        match_apply(_edit(match, stake=None), moment.action)
    with pytest.raises(brisca.StateError, match=exact.format("ValueError")):
        match_apply(_edit(match, standings=()), moment.action)
    with pytest.raises(brisca.StateError, match=exact.format("TypeError")):
        repr(_edit(match, standings=None))
    view = match_observe(match, 0)
    with pytest.raises(brisca.StateError, match=r"^the match view is inconsistent"):
        _ = _edit(view, hands=None).hand_number
    outcome = match_result(MOMENTS["spanish-2p"][-1].match)
    with pytest.raises(brisca.StateError, match=r"^the match result is inconsistent"):
        _ = _edit(outcome, standings=()).side_standings
    # The compiled build refuses the result as it is stored, saying what it cannot hold.
    with pytest.raises(brisca.StateError, match=r"^(the hand result is inconsistent|HandResult)"):
        hand_value(Rules(), _edit(outcome.hands[0].result, sides=None), (1, 1))


def test_a_brisca_error_from_inside_passes_through_unchanged() -> None:
    """An illegal action is still an IllegalActionError, and the engine's own guard on the
    hand in progress still names the state, however inconsistent the rest of the match."""
    moment = MOMENTS["spanish-2p"][1]
    forged = _edit(moment.match, stake=None, standings=None)
    state = moment.match.state
    assert state is not None and state.to_act is not None
    unheld = next(c for c in state.rules.cards if c not in state.hands[state.to_act])
    with pytest.raises(IllegalActionError):
        match_apply(forged, brisca.Play(unheld))
    bad_hand = _edit(moment.match.state, to_act=7)
    with pytest.raises(brisca.StateError, match=r"^the state is inconsistent \(IndexError\)$"):
        match_legal_actions(_edit(moment.match, state=bad_hand))
    with pytest.raises(brisca.StateError, match=r"^the state is inconsistent"):
        match_apply(_edit(moment.match, state=bad_hand), moment.action)


def test_endless_replayed_ties_cannot_ask_for_a_stake_too_big_to_compute() -> None:
    """A hand-edited tie count would make the next stake 2**ties; it is refused instead."""
    rules = brisca.preset("spanish-2p")  # replay_double_stake
    for seed in range(2000):
        rng = random.Random(seed)
        state = brisca.new_game(rules, seed=seed)
        actions = []
        while not state.is_over:
            actions.append(rng.choice(brisca.legal_actions(state)))
            state = brisca.apply(state, actions[-1])
        if brisca.result(state).replay:
            break
    else:  # pragma: no cover - the search always finds one
        pytest.fail("no tied hand found")
    match = new_match(rules, decks=[state.deal.deck] * 3, dealer=state.dealer)
    for action in actions[:-1]:
        match = match_apply(match, action)
    assert match_apply(match, actions[-1]).stake == 2  # a genuine tie doubles the stake
    for ties in (10**30, -1, 1.0, None):
        with pytest.raises(brisca.StateError, match="the match is inconsistent"):
            match_apply(_edit(match, ties=ties), actions[-1])


def test_a_finished_chain_that_holds_itself_is_refused_not_looped() -> None:
    match = MOMENTS["spanish-2p"][3].match
    earlier, record, actions, taken = match._finished
    loop: list[object] = [earlier, record, actions, taken]
    loop[0] = loop
    with pytest.raises(brisca.StateError, match=r"more than \d+ deals"):
        _edit(match, finished=loop)
    forged = copy.copy(match)  # the same chain, past the check a built match meets
    object.__setattr__(forged, "_finished", loop)
    with pytest.raises(brisca.StateError, match=r"more than \d+ deals"):
        _ = forged.hands
    with pytest.raises(brisca.StateError):
        dumps_match(forged)


@pytest.mark.parametrize("name", PRESETS)
def test_a_genuine_match_still_plays_copies_pickles_and_round_trips(name: str) -> None:
    rng = random.Random(11)
    rules = _single_hand(name) if name == "subastada-4p" else brisca.preset(name)  # 500 is long
    match = new_match(rules, seed=11)
    moves = 0
    while not match.is_over and moves < 400:
        action = rng.choice(match_legal_actions(match))
        if moves % 2:
            match = match_apply(match, action)
        else:
            match, _ = match_step(match, action)
        moves += 1
        if moves % 37 == 0 or match.is_over:
            assert pickle.loads(pickle.dumps(match)) == match
            assert copy.deepcopy(match) == match == copy.copy(match)
            assert loads_match(dumps_match(match)) == match
            assert repr(match) and str(match)
            assert all(type(s) is Fraction for s in match.standings)
    if match.is_over:
        assert match_result(match).standings == match.standings


def _match_values() -> list[Any]:
    """A genuine value of each class of a match: mid-way, its view, its result and a
    hand's record."""
    moments = MOMENTS["spanish-4p"]
    second = next(m for m in moments if m.label == "second hand").match
    over = next(m for m in moments if m.label == "over").match
    return [second, match_observe(second, 1), match_result(over), second.hands[-1]]


def _nested(width: int, depth: int) -> object:
    value: object = 0
    for _ in range(depth):
        value = (value,) * width
    return value


def _holding(value: Any, name: str, junk: object) -> object:
    """What field `name` of `value` holds with `junk` in it: a match's chain of finished
    deals holds it as the newest deal's actions."""
    if name != "_finished":
        return junk
    earlier, record, _, taken = value._finished
    return (earlier, record, junk, taken)


@pytest.mark.parametrize("value", _match_values(), ids=lambda v: type(v).__name__)
def test_a_match_value_nested_wide_or_deep_is_refused_as_it_is_made(value: Any) -> None:
    """A match held a tuple nested a million deep in any field, and hashing it killed the
    interpreter; a dozen tuples each holding the next ten times never finished hashing.
    Every value of a match refuses them as it is made, evolved or unpickled, as a hand's
    values do (`brisca.game.values.refuse_overgrown`), with a message naming the field."""
    deep, wide = _nested(1, 1_000_000), _nested(10, 12)
    for field in attrs.fields(type(value)):
        for junk in (deep, wide, [wide], {0: (wide,)}):
            with pytest.raises(brisca.StateError, match=rf"\.{field.name} cannot hold a"):
                attrs.evolve(value, **{field.alias: _holding(value, field.name, junk)})
        forged = copy.copy(value)  # past the check: what a pickle of a forged value holds
        object.__setattr__(forged, field.name, _holding(value, field.name, wide))
        with pytest.raises(brisca.StateError, match=rf"\.{field.name} cannot hold a"):
            pickle.loads(pickle.dumps(forged))
    assert pickle.loads(pickle.dumps(value)) == value == attrs.evolve(value)


def _items(value: Any) -> int:
    """How many items the check counts in a match value: the least budget it passes."""
    from brisca.game.match import _deals
    from brisca.game.values import refuse_overgrown

    fields = tuple(
        _deals(value._finished) if f.name == "_finished" else getattr(value, f.name)
        for f in attrs.fields(type(value))
    )
    low, high = 0, MOST_MATCH_ITEMS
    while low < high:
        middle = (low + high) // 2
        try:
            refuse_overgrown(Match, fields, middle)
            high = middle
        except brisca.StateError:
            low = middle + 1
    return low


@pytest.mark.parametrize("name", PRESETS)
def test_a_match_at_its_caps_stays_inside_the_budget_of_a_match_value(name: str) -> None:
    """The budget must not refuse a genuine match however long: from ten hands of each
    preset to twenty, the items each finished deal adds, beside its actions (an action
    and its fields), times `MAX_DEALS`, plus those of `MAX_ACTIONS` actions of the
    largest kind, stay under it."""
    rng = random.Random(5)
    rules = attrs.evolve(brisca.preset(name), match_mode="hands_won", match_target=100)
    match = new_match(rules, seed=5)
    counts = []
    for deals in (10, 20):
        while match.hand_number < deals:
            match = match_apply(match, rng.choice(match_legal_actions(match)))
        counts.append((_items(match), match.action_count, match.hand_number))
    assert not match.is_over
    per_action = 1 + max(len(attrs.fields(kind)) for kind in ACTION_TYPES)
    (items, actions, deals), (more_items, more_actions, more_deals) = counts
    per_deal = (more_items - items - per_action * (more_actions - actions)) / (more_deals - deals)
    assert per_deal > 0
    assert per_deal * MAX_DEALS + per_action * MAX_ACTIONS < MOST_MATCH_ITEMS
