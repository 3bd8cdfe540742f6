"""Observation encodings (readable and numeric) and the fixed action index."""

from __future__ import annotations

import json
import math
import random

import attrs
import pytest
from helpers import play, stacked
from hypothesis import given, settings
from hypothesis import strategies as st

import brisca
from brisca import Card, Observation
from brisca.agents.encoding import (
    ACTION_SPACE,
    action_from_index,
    action_index,
    action_space,
    decode_mask,
    encode_observation,
    encoding_layout,
    encoding_size,
    legal_mask,
)
from brisca.agents.sampling import sample_state
from brisca.formats.views import observation_to_dict
from brisca.game.rng import Generator
from brisca.game.variants.arrastre import known_voids

seeds = st.integers(min_value=0, max_value=2**64)


def block(vector: list[float], rules: brisca.Rules, name: str) -> list[float]:
    for label, offset, size in encoding_layout(rules):
        if label == name:
            return vector[offset : offset + size]
    raise KeyError(name)


@pytest.mark.parametrize("name", sorted(brisca.PRESETS))
@settings(max_examples=3)
@given(seed=seeds, rng=st.randoms(use_true_random=False))
def test_encodings_and_masks_hold_through_random_games(
    name: str, seed: int, rng: random.Random
) -> None:
    """At every step of random games of every preset: the vector has the rules' fixed length
    and values in [0, 1]; the readable form is JSON; the mask marks exactly the legal actions,
    and every legal action's index reads back."""
    rules = brisca.preset(name)
    size = encoding_size(rules)
    space = action_space(rules)
    state = brisca.new_game(rules, seed=seed, dealer=rng.randrange(rules.num_players))
    while True:
        seat = rng.randrange(rules.num_players)
        view = brisca.observe(state, seat)
        vector = encode_observation(view)
        assert len(vector) == size
        assert all(0.0 <= v <= 1.0 and math.isfinite(v) for v in vector)
        data = observation_to_dict(view)
        assert json.loads(json.dumps(data)) == data
        mask = legal_mask(state)
        assert len(mask) == len(space)
        legal = brisca.legal_actions(state)
        assert decode_mask(mask, rules) == tuple(sorted(legal, key=space.index))
        for action in legal:
            assert action_from_index(action_index(action, rules), rules) == action
        if state.is_over:
            assert not any(mask)
            break
        state = brisca.apply(state, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("name", sorted(brisca.PRESETS))
def test_action_index_round_trips_over_the_whole_space(name: str) -> None:
    """Every index of a preset's action space gives an action whose index it is."""
    rules = brisca.preset(name)
    for index, action in enumerate(action_space(rules)):
        assert action_index(action, rules) == index
        assert action_from_index(index, rules) == action


def test_action_space_is_fixed_and_every_action_appears_once() -> None:
    """ACTION_SPACE lists each action once; the plays come first, in pack order."""
    assert len(set(ACTION_SPACE)) == len(ACTION_SPACE)
    assert [str(a) for a in ACTION_SPACE[:3]] == ["1O", "2O", "3O"]
    assert str(ACTION_SPACE[48]) == "swap 2O"
    spanish = action_space(brisca.preset("spanish-2p"))
    assert spanish == tuple(brisca.Play(c) for c in brisca.preset("spanish-2p").cards)
    assert len(action_space(brisca.preset("spanish-4p"))) == 40 + 4  # the s000 signals


@pytest.mark.parametrize("name", sorted(brisca.PRESETS))
def test_plays_are_the_one_play_of_their_card_everywhere(name: str) -> None:
    """legal_actions, parse_action and the action space hand out ``PLAYS[card]`` itself,
    which the encoders' card-keyed masks rely on; a Play made anew still indexes alike."""
    from brisca.game.actions import PLAYS

    rules = brisca.preset(name)
    assert all(a is PLAYS[a.card] for a in action_space(rules) if type(a) is brisca.Play)
    rng = random.Random(name)
    state = brisca.new_game(rules, seed=5)
    plays = 0
    while not state.is_over:
        legal = brisca.legal_actions(state)
        for action in legal:
            if type(action) is brisca.Play:
                plays += 1
                assert action is PLAYS[action.card]
                assert brisca.parse_action(str(action)) is action
                fresh = brisca.Play(action.card)
                assert fresh is not action
                assert action_index(fresh, rules) == action_index(action, rules)
        state = brisca.apply(state, rng.choice(legal))
    assert plays > 0


def test_action_index_refuses_what_the_rules_never_offer() -> None:
    """An action the rules never offer, a non-action or a bad index is a BriscaError."""
    rules = brisca.preset("spanish-2p")
    with pytest.raises(brisca.IllegalActionError):
        action_index(brisca.Swap("7O"), rules)
    with pytest.raises(brisca.IllegalActionError):
        action_index(brisca.Play("8O"), rules)  # no 8s in the 40-card pack
    with pytest.raises(brisca.NotationError):
        action_index("3C", rules)  # type: ignore[arg-type]
    with pytest.raises(brisca.NotationError):
        action_index([1], rules)  # type: ignore[arg-type]
    for bad in (-1, 40, "0", 1.0, True):
        with pytest.raises(brisca.NotationError):
            action_from_index(bad, rules)  # type: ignore[arg-type]
    with pytest.raises(brisca.RulesError):
        action_space("spanish-2p")  # type: ignore[arg-type]
    with pytest.raises(brisca.StateError):
        legal_mask(brisca.observe(brisca.new_game(rules, seed=1), 0))  # type: ignore[arg-type]
    with pytest.raises(brisca.StateError):
        encode_observation("view")  # type: ignore[arg-type]
    with pytest.raises(brisca.NotationError):
        decode_mask([True], rules)


def test_layout_blocks_tile_the_vector() -> None:
    """The layout's blocks follow each other with no gap and end at encoding_size."""
    for rules in brisca.PRESETS.values():
        offset = 0
        for _, start, size in encoding_layout(rules):
            assert start == offset and size > 0
            offset += size
        assert offset == encoding_size(rules)


def test_numeric_blocks_say_what_the_documentation_says() -> None:
    """Hand, trick, trump, turned card, to_act and points land where documented, with seats
    relative to the observer."""
    rules = brisca.preset("spanish-2p")
    state = stacked(rules, {0: ["1C", "4E", "5B"], 1: ["3C", "6B", "7E"]}, trump="7O")
    state = play(state, "1C", "3C", "4E")  # seat 0 wins 21 and leads the 4 of espadas
    cards = rules.cards
    view = brisca.observe(state, 1)
    vector = encode_observation(view)
    hand = block(vector, rules, "hand")
    assert {cards[i] for i, v in enumerate(hand) if v} == set(view.hand)
    trick = block(vector, rules, "trick")
    # Seat 0 is the row after the observer (seat 1) in relative order.
    assert trick[1 * len(cards) + cards.index(Card.parse("4E"))] == 1.0
    assert block(vector, rules, "trump") == [1.0, 0.0, 0.0, 0.0]
    assert block(vector, rules, "turned")[cards.index(Card.parse("7O"))] == 1.0
    assert block(vector, rules, "to_act") == [1.0, 0.0]  # the observer acts
    assert block(vector, rules, "points") == [0.0, 21 / 120]
    assert block(vector, rules, "stock") == [view.stock_size / 40]
    known = block(vector, rules, "known")
    assert {cards[i] for i, v in enumerate(known[: len(cards)]) if v} == set(view.hand)


def test_voids_and_partners_are_encoded_spec_2_4() -> None:
    """Arrastre voids and the observer's side show in their blocks."""
    rules = brisca.preset("arrastre-4p")
    for seed in range(200):
        state = brisca.new_game(rules, seed=seed)
        while not state.is_over and not any(known_voids(state)):
            state = brisca.apply(state, brisca.legal_actions(state)[-1])
        voids = known_voids(state)
        if any(voids):
            break
    else:
        pytest.fail("no void arose")
    view = brisca.observe(state, 0)
    encoded = block(encode_observation(view), rules, "voids")
    suits = [brisca.Suit.OROS, brisca.Suit.COPAS, brisca.Suit.ESPADAS, brisca.Suit.BASTOS]
    for seat, lacking in enumerate(voids):
        assert {suits[i] for i in range(4) if encoded[seat * 4 + i]} == lacking
    assert block(encode_observation(view), rules, "partners") == [1.0, 0.0, 1.0, 0.0]


def test_readable_form_has_every_observation_field() -> None:
    """observation_to_dict gives every Observation field, cards as codes and actions as text."""
    state = brisca.new_game(brisca.preset("subastada-3p"), seed=1)
    state = brisca.apply(state, brisca.Bid(60))
    data = observation_to_dict(brisca.observe(state, 0))
    assert set(data) == {f.name for f in attrs.fields(Observation)} | {"side_points"}
    assert data["bids"] == [{"seat": state.ledger.bids[0].seat, "bid": "bid 60"}]
    assert all(isinstance(c, str) for c in data["hand"])
    assert data["rules"] == {"preset": "subastada-3p", "overrides": {}}


def test_equal_observations_encode_equally() -> None:
    """The encodings depend on the observation alone: states a seat cannot tell apart encode
    the same."""
    state = brisca.new_game(brisca.preset("spanish-2p"), seed=5)
    for _ in range(7):
        state = brisca.apply(state, brisca.legal_actions(state)[0])
    view = brisca.observe(state, 0)
    other = sample_state(view, Generator(3))
    assert other != state
    assert encode_observation(brisca.observe(other, 0)) == encode_observation(view)
    assert observation_to_dict(brisca.observe(other, 0)) == observation_to_dict(view)


def test_no_class_extends_the_state_encoder_in_either_build() -> None:
    """Compiled, the encoder is a native class no Python class can extend; interpreted it
    is sealed alike, so code that runs on one build runs on the other, and a copy (made
    as a StateEncoder of the same rules) loses nothing."""
    from brisca.agents.encoding import StateEncoder

    with pytest.raises(TypeError):

        class Mine(StateEncoder):  # type: ignore[misc]
            pass
