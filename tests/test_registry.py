"""The variant registry drives legality, notation, the action space and events (issue 12)."""

from __future__ import annotations

import random

import pytest

import brisca
from brisca.agents.encoding import ACTION_SPACE, action_space
from brisca.game.actions import ACTION_TYPES, Play, parse_action
from brisca.game.variants import VARIANTS, owner


def test_every_action_type_but_play_has_one_owning_variant() -> None:
    """The registry and the notation know the same action types, each owned once."""
    owned = [kind for variant in VARIANTS for kind in variant.actions]
    assert len(owned) == len(set(owned))
    assert set(owned) == set(ACTION_TYPES) - {Play}
    for variant in VARIANTS:
        for kind in variant.actions:
            assert owner(kind) is variant
    assert owner(Play) is None


def test_each_variant_universe_is_its_own_actions_in_notation() -> None:
    """Every action a variant may ever offer is of its types and reads back from its text."""
    for variant in VARIANTS:
        for action in variant.universe:
            assert type(action) in variant.actions
            assert parse_action(str(action)) == action


def test_the_action_space_is_the_plays_then_every_variant_universe() -> None:
    """The encoding's action space holds each variant's universe, each action once."""
    assert len(ACTION_SPACE) == len(set(ACTION_SPACE))
    plays = [a for a in ACTION_SPACE if type(a) is Play]
    assert len(plays) == 48 and ACTION_SPACE[:48] == tuple(plays)
    assert set(ACTION_SPACE[48:]) == {a for v in VARIANTS for a in v.universe}


@pytest.mark.parametrize("name", sorted(brisca.PRESETS))
def test_offers_stay_within_the_rules_action_space(name: str) -> None:
    """Whatever legal_actions offers, the rules' action space (from `possible`) contains."""
    rules = brisca.preset(name)
    space = set(action_space(rules))
    rng = random.Random(name)
    for seed in range(3):
        state = brisca.new_game(rules, seed=seed)
        while not state.is_over:
            legal = brisca.legal_actions(state)
            assert set(legal) <= space
            state = brisca.apply(state, rng.choice(legal))


def test_a_rule_switched_off_offers_nothing_and_refuses_its_actions() -> None:
    """Under rules that play no variant, only plays are offered, and a variant's action
    is refused by its own rule."""
    state = brisca.new_game(brisca.preset("spanish-2p"), seed=1)
    assert all(type(a) is Play for a in brisca.legal_actions(state))
    assert brisca.refusal(state, brisca.Signal("wink")) == (
        "signals are off in these rules (signals='none')"
    )
    assert brisca.refusal(state, brisca.ClaimBlackHand()) == (
        "black hands are off in these rules (black_hand='off')"
    )


@pytest.mark.parametrize("name", sorted(brisca.PRESETS))
def test_a_result_names_how_the_hand_ended(name: str) -> None:
    """The termination agrees with the hand: played out, a black hand, a contract made or
    failed, or void, and the details belong to it (python-chess's Outcome, issue 12)."""
    rules = brisca.preset(name)
    rng = random.Random(name)
    for seed in range(6):
        state = brisca.new_game(rules, seed=seed)
        while not state.is_over:
            state = brisca.apply(state, rng.choice(brisca.legal_actions(state)))
        outcome = brisca.result(state)
        kind = outcome.termination
        if state.ledger.black_hand is not None:
            assert kind is brisca.Termination.BLACK_HAND
            assert outcome.details == brisca.BlackHandWin(state.ledger.black_hand)
        elif rules.has_auction and state.ledger.contract is None:
            assert kind is brisca.Termination.VOID and outcome.void and not state.tricks
        elif rules.has_auction:
            assert isinstance(outcome.details, brisca.ContractResult)
            made = outcome.details.made
            assert kind is (
                brisca.Termination.CONTRACT_MADE if made else brisca.Termination.CONTRACT_FAILED
            )
            declarer = outcome.details.contract.declarer
            ours = next(i for i, side in enumerate(outcome.sides) if declarer in side)
            assert (outcome.winner == ours) is made
        else:
            assert kind is brisca.Termination.PLAYED_OUT and outcome.details is None
            assert sum(len(t.cards) for t in state.tricks) == len(rules.cards)


def test_the_signal_names_are_those_of_the_vocabularies_spec_2_9() -> None:
    """The notation's signal names are exactly the vocabularies' names, in order."""
    from brisca.game.actions import SIGNAL_NAMES
    from brisca.game.variants.signals import VOCABULARIES

    names = [name for vocabulary in VOCABULARIES.values() for name in vocabulary]
    assert tuple(dict.fromkeys(names)) == SIGNAL_NAMES
