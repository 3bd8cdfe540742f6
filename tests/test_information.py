"""Information never leaks: two states a seat cannot tell apart look the same to it.

A seat knows its own cards, the cards it was shown and the public actions. Any two
states that agree on those must give it the same `observe` and, when it is to act,
the same `legal_actions`, under every combination of options `Rules` accepts.
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import any_rules

import brisca
from brisca import Action, Rules, State
from brisca.agents.sampling import sample_state, unseen_cards
from brisca.game.rng import Generator

seeds = st.integers(min_value=0, max_value=2**64)


def random_history(rules: Rules, rng: random.Random) -> tuple[list[brisca.Card], int, list[Action]]:
    """A shuffled deck, a dealer and the actions of a random game played from that deal."""
    deck = list(rules.cards)
    rng.shuffle(deck)
    dealer = rng.randrange(rules.num_players)
    state = brisca.new_game(rules, deck=deck, dealer=dealer)
    actions: list[Action] = []
    while not state.is_over:
        options = brisca.legal_actions(state)
        action = options[rng.randrange(len(options))]
        actions.append(action)
        state = brisca.apply(state, action)
    return deck, dealer, actions


def replay(rules: Rules, deck: list[brisca.Card], dealer: int, actions: list[Action]) -> State:
    state = brisca.new_game(rules, deck=deck, dealer=dealer)
    for action in actions:
        state = brisca.apply(state, action)
    return state


def check_same_to(seat: int, state: State, other: State) -> None:
    """`seat` cannot tell `other` from `state`: it must see and may do the same."""
    assert brisca.observe(other, seat) == brisca.observe(state, seat)
    if state.to_act == seat:
        assert brisca.legal_actions(other) == brisca.legal_actions(state)


def checkpoints(actions: list[Action], rng: random.Random, count: int) -> list[int]:
    """A few random moments of the game: how many of its actions were taken."""
    return sorted(rng.sample(range(len(actions) + 1), min(count, len(actions) + 1)))


@settings(max_examples=150)
@given(rules=any_rules, seed=seeds)
def test_sampled_worlds_give_the_seat_the_same_view_and_actions(rules: Rules, seed: int) -> None:
    """Worlds drawn by `sample_state` from a seat's view, at random moments of random games
    under random valid rules, give that seat the same observation and, when it is to act,
    the same legal actions as the real state."""
    rng = random.Random(seed)
    deck, dealer, actions = random_history(rules, rng)
    generator = Generator(seed)
    for taken in checkpoints(actions, rng, 8):
        state = replay(rules, deck, dealer, actions[:taken])
        acting = state.to_act
        seat = (
            acting
            if acting is not None and rng.random() < 0.7
            else rng.randrange(rules.num_players)
        )
        view = brisca.observe(state, seat)
        for _ in range(4):
            check_same_to(seat, state, sample_state(view, generator))


@settings(max_examples=80)
@given(rules=any_rules, seed=seeds)
def test_redealt_unseen_cards_give_the_seat_the_same_view_and_actions(
    rules: Rules, seed: int
) -> None:
    """Exchanging cards the seat never saw, in the deck of a random game, and replaying the
    same public actions gives a world the seat cannot tell apart, when every action is
    still legal and no automatic event differs: its view and its legal actions must match.

    Unlike the sampler, this does not filter worlds by the observation, so a field derived
    from hidden facts (a void that hangs on the secret partner) shows up as a difference.
    """
    rng = random.Random(seed)
    deck, dealer, actions = random_history(rules, rng)
    for taken in checkpoints(actions, rng, 6):
        done = actions[:taken]
        state = replay(rules, deck, dealer, done)
        acting = state.to_act
        seat = (
            acting
            if acting is not None and rng.random() < 0.7
            else rng.randrange(rules.num_players)
        )
        unseen = unseen_cards(brisca.observe(state, seat))
        # A covered turned card stays in place: playing its suit reveals it, an event the
        # public actions alone do not show.
        movable = [i for i, c in enumerate(deck) if c in unseen and c != state.trump_card]
        if len(movable) < 2:
            continue
        contract = state.ledger.contract
        secret = contract.called if contract is not None and contract.called in unseen else None
        # A random walk over such worlds: each step exchanges two unseen cards and is kept
        # if the public record still replays, so worlds several exchanges away are reached.
        walk = list(deck)
        for _ in range(WALK):
            i, j = rng.sample(movable, 2)
            if secret is not None and rng.random() < 0.3:
                i = walk.index(secret)  # the partner may be any seat the seat cannot rule out
                if i == j:
                    continue
            step = list(walk)
            step[i], step[j] = step[j], step[i]
            try:
                other = replay(rules, step, dealer, done)
            except brisca.IllegalActionError:
                continue  # the public record rules this world out
            if other.is_over != state.is_over or other.ledger.black_hand != state.ledger.black_hand:
                continue  # an automatic black hand is a public event
            walk = step
            check_same_to(seat, state, other)


#: Steps of the random walk over indistinguishable worlds, per moment checked.
WALK = 100


def test_chiamata_refuses_partner_relief_wb_spec_2_8() -> None:
    """SPEC §2.8: the chiamata partner is secret until the called card is played, so WB's
    partner relief, which hangs on who the partner is, is refused with both options named."""
    chiamata = brisca.preset("chiamata-5p")
    for obligation in brisca.PlayObligation:
        with pytest.raises(brisca.RulesError, match=r"arrastre_partner_relief.*called_card"):
            attrs.evolve(chiamata, play_obligation=obligation, arrastre_partner_relief=True)
    whole = attrs.evolve(chiamata, play_obligation="arrastre_whole_hand")
    assert not whole.arrastre_partner_relief
    with pytest.raises(brisca.RulesError, match="arrastre_partner_relief"):
        Rules.from_dict({**whole.to_dict(), "arrastre_partner_relief": True})
    # Where partners are public, the relief stays available.
    assert attrs.evolve(
        brisca.preset("subastada-4p"),
        play_obligation="arrastre_whole_hand",
        arrastre_partner_relief=True,
    ).arrastre_partner_relief


def test_the_dealer_leads_only_where_the_dealer_plays_spec_2_1() -> None:
    """SPEC §2.1 first_leader='dealer' (ABT) and §2.8: in chiamata for six the dealer sits
    out, so it cannot lead; the combination left the first trick with nobody to act."""
    with pytest.raises(brisca.RulesError, match=r"first_leader='dealer'.*sits out"):
        attrs.evolve(brisca.preset("chiamata-5p"), num_players=6, first_leader="dealer")
    five = attrs.evolve(brisca.preset("chiamata-5p"), first_leader="dealer")
    state = brisca.new_game(five, seed=3, dealer=2)
    while state.trump is None:
        state = brisca.apply(state, brisca.legal_actions(state)[0])
    assert state.to_act == 2
