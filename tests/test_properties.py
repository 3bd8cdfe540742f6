"""Random legal games over every preset, with the invariants checked at every step."""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs
import pytest
from hypothesis import given, reject
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from strategies import tables, variant_rules

import brisca
import brisca.testing
from brisca.agents.bots import HeuristicBot
from brisca.testing import (
    ConformanceError,
    check_game,
    check_invariants,
    check_observation,
    check_playout,
    check_transition,
)

presets = st.sampled_from(sorted(brisca.PRESETS))
seeds = st.integers(min_value=0, max_value=2**128)


@given(name=presets, seed=seeds, choices=st.randoms(use_true_random=False))
def test_random_games_keep_every_invariant(name: str, seed: int, choices: random.Random) -> None:
    """Every preset plays to the end with all invariants holding at every step."""
    rules = brisca.preset(name)
    dealer = choices.randrange(rules.num_players)
    final = check_game(rules, seed=seed, dealer=dealer, rng=choices)
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
    try:
        rules = brisca.Rules(**table, **options)  # type: ignore[arg-type]
    except brisca.RulesError:  # a clash Rules refuses, such as the dealer leading while out
        reject()
    state = brisca.new_game(rules, seed=seed, hand_number=seed % 7)
    final = check_playout(state, choices, record=True)
    assert sum(brisca.result(final).points) == 120


@given(rules=variant_rules, seed=seeds, choices=st.randoms(use_true_random=False))
def test_random_variant_combinations_keep_every_invariant(
    rules: brisca.Rules, seed: int, choices: random.Random
) -> None:
    """Any valid combination of variant options plays out with every invariant holding."""
    final = check_game(rules, seed=seed, rng=choices)
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
    assert brisca.new_game(rules, deck=order) == attrs.evolve(
        state, deal=attrs.evolve(state.deal, seed=None)
    )


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
        check_invariants(self.state)
        assert brisca.loads(brisca.dumps(self.state)) == self.state

    @precondition(lambda self: self.state.is_over)
    @rule()
    def scored(self) -> None:
        assert sum(brisca.result(self.state).points) == 120


TestHandMachine = HandMachine.TestCase


# The kit itself: each check fails when its invariant is broken.


def test_kit_finds_a_card_that_left_the_game() -> None:
    """A state that lost a stock card fails 'cards conserved'."""
    state = brisca.new_game(brisca.preset("spanish-2p"), seed=1)
    broken = attrs.evolve(state, stock=state.stock[1:])
    with pytest.raises(ConformanceError) as caught:
        check_invariants(broken)
    assert caught.value.invariant == "cards conserved"


def test_kit_finds_a_trick_given_to_the_wrong_seat() -> None:
    """SPEC §1.10: a completed trick credited to the seat that lost it fails 'trick winner'."""
    state = brisca.new_game(brisca.preset("spanish-2p"), seed=1)
    while not state.tricks:
        state = brisca.apply(state, brisca.legal_actions(state)[0])
    trick = state.tricks[0]
    loser = next(seat for seat, _ in trick.cards if seat != trick.winner)
    wrong = attrs.evolve(trick, winner=loser)
    with pytest.raises(ConformanceError) as caught:
        check_invariants(attrs.evolve(state, tricks=(wrong,)))
    assert caught.value.invariant in ("trick winner", "turn order")


def test_kit_names_the_step_and_the_actions_of_a_failure() -> None:
    """A bot that answers with an action it was not offered fails at its step, with the history."""

    def cheat(view: brisca.Observation, legal: Sequence[brisca.Action]) -> brisca.Action:
        return legal[0] if len(view.tricks) < 2 else brisca.Pass()

    with pytest.raises(ConformanceError) as caught:
        check_game("spanish-2p", seed=5, bots=[cheat, cheat])
    error = caught.value
    assert isinstance(error, AssertionError)
    assert error.invariant == "bot" and error.step == 4 and len(error.actions) == 4
    assert "at step 4 (seed 5)" in str(error) and " ".join(error.actions) in str(error)


def test_kit_finds_an_observation_that_shows_the_stock(monkeypatch: pytest.MonkeyPatch) -> None:
    """An observe that gives away the stock order fails 'observation hides'."""

    def leaky(state: brisca.State, seat: int) -> brisca.Observation:
        view = brisca.observe(state, seat)
        return attrs.evolve(
            view, swaps=(brisca.SwapRecord(seat, state.stock[0], state.stock[0], 0),)
        )

    monkeypatch.setattr(brisca.testing, "observe", leaky)
    state = brisca.new_game(brisca.preset("spanish-2p"), seed=3)
    with pytest.raises(ConformanceError) as caught:
        check_observation(state, 0, random.Random(0))
    assert caught.value.invariant == "observation hides"


def test_kit_finds_an_apply_that_changes_its_input(monkeypatch: pytest.MonkeyPatch) -> None:
    """An apply that moves a card of the state it was given fails 'purity'."""

    def impure(state: brisca.State, action: brisca.Action) -> brisca.State:
        after = brisca.apply(state, action)
        object.__setattr__(state, "stock", state.stock[::-1])
        return after

    monkeypatch.setattr(brisca.testing, "apply", impure)
    with pytest.raises(ConformanceError) as caught:
        check_game("spanish-2p", seed=2)
    assert caught.value.invariant == "purity" and caught.value.step == 1


def test_kit_names_a_refusal_that_changes_the_state_purity(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An apply that refuses an action but moves a card first fails 'purity', named as
    such: the kit's snapshot is the plain writer's, not `dumps`, which would refuse the
    changed state (no game reaches it) with a StateError of its own."""

    def careless(state: brisca.State, action: brisca.Action) -> brisca.State:
        if not brisca.is_legal(state, action):
            object.__setattr__(state, "stock", state.stock[::-1])
        return brisca.apply(state, action)

    monkeypatch.setattr(brisca.testing, "apply", careless)
    state = brisca.new_game("spanish-2p", seed=2)
    with pytest.raises(ConformanceError) as caught:
        brisca.testing.check_refusals(state, random.Random(0))
    assert caught.value.invariant == "purity"


def test_kit_finds_an_apply_that_accepts_what_is_not_offered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An apply that lets a card out of turn through fails 'illegal refused'."""

    def lax(state: brisca.State, action: brisca.Action) -> brisca.State:
        try:
            return brisca.apply(state, action)
        except brisca.IllegalActionError:
            return state

    monkeypatch.setattr(brisca.testing, "apply", lax)
    with pytest.raises(ConformanceError) as caught:
        check_game("spanish-2p", seed=2)
    assert caught.value.invariant == "illegal refused" and caught.value.step == 0


def test_kit_passes_every_preset_with_the_heuristic_bot() -> None:
    """The kit plays bots too: the heuristic bot keeps every invariant in every preset."""
    for name in sorted(brisca.PRESETS):
        rules = brisca.preset(name)
        final = check_game(rules, seed=11, bots=[HeuristicBot()] * rules.num_players)
        assert final.is_over
