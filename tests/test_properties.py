"""Random legal games over every preset, with the invariants checked at every step."""

from __future__ import annotations

import random

import attrs
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from invariants import check_state, check_transition, play_random_game
from strategies import tables, variant_rules

import brisca

presets = st.sampled_from(sorted(brisca.PRESETS))
seeds = st.integers(min_value=0, max_value=2**128)


@given(name=presets, seed=seeds, choices=st.randoms(use_true_random=False))
def test_random_games_keep_every_invariant(name: str, seed: int, choices: random.Random) -> None:
    """Every preset plays to the end with all invariants holding at every step."""
    rules = brisca.preset(name)
    dealer = choices.randrange(rules.num_players)
    final = play_random_game(brisca.new_game(rules, seed=seed, dealer=dealer), choices)
    result = brisca.result(final)
    assert sum(result.points) == 120
    assert len(final.tricks) == rules.tricks_per_hand


option_sets = st.fixed_dictionaries(
    {
        "first_leader": st.sampled_from(["dealer_right", "dealer"]),
        "trump_card_position": st.sampled_from(list(brisca.TrumpCardPosition)),
        "trump_selection": st.sampled_from(["turned_card", "suit_rotation"]),
        "tie_rule": st.sampled_from(list(brisca.TieRule)),
    }
)


@given(table=tables, options=option_sets, seed=seeds, choices=st.randoms(use_true_random=False))
def test_random_option_combinations_play_out(
    table: dict[str, object], options: dict[str, object], seed: int, choices: random.Random
) -> None:
    """Any valid combination of table and deal options plays to a result."""
    rules = brisca.Rules(**table, **options)  # type: ignore[arg-type]
    final = play_random_game(brisca.new_game(rules, seed=seed, hand_number=seed % 7), choices)
    assert sum(brisca.result(final).points) == 120


@given(rules=variant_rules, seed=seeds, choices=st.randoms(use_true_random=False))
def test_random_variant_combinations_keep_every_invariant(
    rules: brisca.Rules, seed: int, choices: random.Random
) -> None:
    """Any valid combination of variant options plays out with every invariant holding."""
    final = play_random_game(brisca.new_game(rules, seed=seed), choices)
    if final.ledger.black_hand is None:
        assert sum(brisca.result(final).points) == 120


@given(name=presets, seed=seeds)
def test_same_seed_same_game(name: str, seed: int) -> None:
    """A seed, the rules and the dealer fix the deal."""
    rules = brisca.preset(name)
    assert brisca.new_game(rules, seed=seed) == brisca.new_game(rules, seed=seed)


@given(name=presets, seed=seeds)
def test_seeded_deal_equals_its_deck_order(name: str, seed: int) -> None:
    """Dealing a seeded game's cards as an explicit deck gives the same hands and stock."""
    rules = brisca.preset(name)
    state = brisca.new_game(rules, seed=seed)
    n = rules.num_players
    dealt = [c for k in range(rules.hand_size) for s in range(n) for c in state.hands[s][k : k + 1]]
    order = dealt + ([state.trump_card] if state.trump_card else []) + list(state.stock)
    assert brisca.new_game(rules, deck=order) == attrs.evolve(state, seed=None)


class HandMachine(RuleBasedStateMachine):
    """Walks hands of random presets one action at a time, checking each step."""

    @initialize(name=presets, seed=seeds)
    def deal(self, name: str, seed: int) -> None:
        self.state = brisca.new_game(brisca.preset(name), seed=seed)

    @precondition(lambda self: not self.state.is_over)
    @rule(pick=st.integers(min_value=0, max_value=50))
    def act(self, pick: int) -> None:
        actions = brisca.legal_actions(self.state)
        action = actions[pick % len(actions)]
        after = brisca.apply(self.state, action)
        check_transition(self.state, action, after)
        self.state = after

    @precondition(lambda self: not self.state.is_over)
    @rule(text=st.sampled_from(["1O", "12E", "8B", "swap 7O", "xx"]))
    def try_any_card(self, text: str) -> None:
        """Anything not offered by legal_actions is refused, and nothing changes."""
        try:
            action = brisca.parse_action(text)
        except brisca.NotationError:
            return
        before = self.state
        if action in brisca.legal_actions(before):
            return
        assert not brisca.is_legal(before, action)
        try:
            brisca.apply(before, action)
        except brisca.IllegalActionError as error:
            assert str(error)
        else:
            raise AssertionError(f"{action} was applied but not offered")

    @invariant()
    def consistent(self) -> None:
        check_state(self.state)
        assert brisca.loads(brisca.dumps(self.state)) == self.state

    @precondition(lambda self: self.state.is_over)
    @rule()
    def scored(self) -> None:
        assert sum(brisca.result(self.state).points) == 120


TestHandMachine = HandMachine.TestCase
