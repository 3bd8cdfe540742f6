"""`observe` and `result` build their values through plain slots constructors, for
speed: each must be exactly what the frozen keyword constructor gives, and a full value."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import attrs
import pytest
from helpers import find_finished

import brisca
from brisca.game.engine import _plan_of, trump_is_public
from brisca.game.rules import PartnerHandVisibility
from brisca.game.state import HandResult, Observation, State


def reference_observe(state: State, seat: int) -> Observation:
    """The view as `observe` wrote it before the plain constructor: every field by
    keyword through `Observation`'s own ``__init__``."""
    table, rules = state.seating, state.rules
    public = trump_is_public(state)
    partner_hands: tuple[Any, ...] = ()
    if rules.partner_hand_visibility is PartnerHandVisibility.SHOW_AFTER_DEAL:
        side = table.side_of[seat]
        partners = table.sides[side] if side >= 0 else ()
        partner_hands = tuple((p, state.deal.hands[p]) for p in partners if p != seat)
    seen: dict[str, Any] = {}
    for contribution in _plan_of(table).observe:
        seen.update(contribution(state, seat))
    return Observation(
        **{
            "seat": seat,
            "rules": rules,
            "dealer": state.dealer,
            "hand_number": state.deal.hand_number,
            "sides": table.sides,
            "trump": state.trump if public else None,
            "trump_card": state.trump_card if public else None,
            "hand": state.hands[seat],
            "hand_sizes": tuple(len(h) for h in state.hands),
            "stock_size": len(state.stock),
            "trick": state.trick,
            "tricks": state.tricks,
            "to_act": state.to_act,
            "partner_hands": partner_hands,
            "trump_card_drawn": state.ledger.trump_card_drawn,
            "voids": (frozenset(),) * rules.num_players,
            **seen,
        }
    )


def fields(view: Observation) -> dict[str, Any]:
    return {f.name: getattr(view, f.name) for f in attrs.fields(Observation)}


@pytest.mark.parametrize("name", sorted(brisca.PRESETS))
def test_observe_equals_the_keyword_constructor_at_every_step(name: str) -> None:
    rules = brisca.preset(name)
    for seed in range(4):
        rng = random.Random(seed)
        state = brisca.new_game(rules, seed=seed)
        while True:
            for seat in range(rules.num_players):
                view = brisca.observe(state, seat)
                expected = reference_observe(state, seat)
                assert type(view) is Observation
                assert fields(view) == fields(expected)
                assert view == expected and hash(view) == hash(expected)
            if state.is_over:
                break
            state = brisca.apply(state, rng.choice(brisca.legal_actions(state)))


def test_a_built_observation_is_a_frozen_value() -> None:
    """Frozen, evolvable, copyable and picklable, as one made by keyword is."""
    state = brisca.new_game(brisca.preset("subastada-4p"), seed=2)
    view = brisca.observe(state, 1)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        view.seat = 0  # type: ignore[misc]
    assert attrs.evolve(view, seat=1) == view
    assert copy.deepcopy(view) == view and copy.copy(view) == view
    assert pickle.loads(pickle.dumps(view)) == view
    assert attrs.evolve(view, stock_size=0) != view


@pytest.mark.parametrize("seat", [-1, 4, True, 1.0, "1", None])
def test_observe_refuses_a_seat_that_is_not_one(seat: object) -> None:
    state = brisca.new_game(brisca.preset("spanish-4p"), seed=1)
    with pytest.raises(brisca.StateError, match="seat"):
        brisca.observe(state, seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(brisca.PRESETS))
def test_a_result_is_the_keyword_constructors_value(name: str) -> None:
    """Every field set, in its place: the same value, hash and pickle as by keyword."""
    rules = brisca.preset(name)
    for seed in range(12):
        rng = random.Random(seed)
        state = brisca.new_game(rules, seed=seed)
        while not state.is_over:
            state = brisca.apply(state, rng.choice(brisca.legal_actions(state)))
        outcome = brisca.result(state)
        made = {f.name: getattr(outcome, f.name) for f in attrs.fields(HandResult)}
        again = HandResult(**made)
        assert type(outcome) is HandResult and outcome == again and hash(outcome) == hash(again)
        assert pickle.loads(pickle.dumps(outcome)) == outcome
        assert attrs.evolve(outcome, winner=outcome.winner) == outcome
        assert outcome.points == state.side_points and outcome.sides == state.sides
        if outcome.tied:
            assert len(outcome.tied) > 1 and outcome.replay == rules.tie_rule.value.startswith(
                "replay"
            )
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            outcome.winner = None  # type: ignore[misc]


@pytest.mark.parametrize("tie", list(brisca.TieRule))
def test_a_tied_result_sets_its_tie_fields_by_the_tie_rule_spec_2_6(tie: brisca.TieRule) -> None:
    rules = attrs.evolve(brisca.preset("spanish-2p"), tie_rule=tie)
    state = find_finished(rules, lambda final: bool(brisca.result(final).tied), tries=2000)
    outcome = brisca.result(state)
    last = state.seating.side_of[state.tricks[-1].winner]
    assert outcome.points == (60, 60) and outcome.tied == (0, 1)
    assert outcome.last_trick == last
    assert outcome.winner == (last if tie is brisca.TieRule.LAST_TRICK else None)
    assert outcome.replay is (tie in (brisca.TieRule.REPLAY, brisca.TieRule.REPLAY_DOUBLE_STAKE))
    assert outcome == HandResult(
        **{f.name: getattr(outcome, f.name) for f in attrs.fields(HandResult)}
    )
