"""The auction games: Brisca subastada (SPEC §2.7) and Briscola chiamata (SPEC §2.8)."""

from __future__ import annotations

import itertools
import random

import attrs
import pytest
from helpers import play, stacked
from hypothesis import given
from hypothesis import strategies as st

import brisca
from brisca import (
    Bid,
    BidRank,
    CallCard,
    Card,
    IllegalActionError,
    NameTrump,
    Pass,
    Play,
    Rules,
    RulesError,
    Sing,
    Suit,
)

SUBASTADA_3P = brisca.preset("subastada-3p")
SUBASTADA_4P = brisca.preset("subastada-4p")
CHIAMATA = brisca.preset("chiamata-5p")


def refusal(state: brisca.State, action: brisca.Action) -> str:
    assert not brisca.is_legal(state, action)
    with pytest.raises(IllegalActionError) as error:
        brisca.apply(state, action)
    return str(error.value)


def run(state: brisca.State, *actions: brisca.Action) -> brisca.State:
    for action in actions:
        state = brisca.apply(state, action)
    return state


def finish(state: brisca.State, pick: int = 0) -> brisca.State:
    """Play the remaining cards, always the `pick`-th legal play."""
    while not state.is_over:
        plays = [a for a in brisca.legal_actions(state) if isinstance(a, Play)]
        state = brisca.apply(state, plays[pick % len(plays)])
    return state


# §2.7 Subastada: the auction.


def test_bids_start_at_60_in_steps_of_5_aca_ts() -> None:
    state = brisca.new_game(SUBASTADA_3P, seed=1)
    assert state.to_act == 0 and state.trump is None and state.trump_card is None
    bids = [a.points for a in brisca.legal_actions(state) if isinstance(a, Bid)]
    assert bids[0] == 60 and all(b - a == 5 for a, b in itertools.pairwise(bids))
    assert "60 or more" in refusal(state, Bid(55))
    assert "steps of 5" in refusal(state, Bid(62))
    state = run(state, Bid(70))
    assert "75 or more" in refusal(state, Bid(70))


def test_no_card_is_played_during_the_auction_spec_2_7() -> None:
    state = brisca.new_game(SUBASTADA_3P, seed=1)
    assert "auction" in refusal(state, Play(state.hands[0][0]))


def test_a_pass_is_final_and_the_last_bidder_declares_aca_ts() -> None:
    state = run(brisca.new_game(SUBASTADA_3P, seed=2), Bid(60), Bid(65), Pass())
    assert state.to_act == 0
    state = run(state, Bid(70))
    assert state.to_act == 1  # seat 2 passed for good
    state = run(state, Pass())
    assert state.ledger.contract is not None and state.ledger.contract.declarer == 0


def test_auction_ends_with_one_bidder_left_who_names_trump_s000_aca_ts() -> None:
    state = run(brisca.new_game(SUBASTADA_3P, seed=2), Bid(60), Pass(), Pass())
    contract = state.ledger.contract
    assert contract is not None and contract.declarer == 0 and state.to_act == 0
    assert {str(a) for a in brisca.legal_actions(state)} == {f"trump {s.value}" for s in Suit}
    assert "the auction is over" in refusal(state, Bid(65))
    state = run(state, NameTrump("E"))
    assert state.trump is Suit.ESPADAS and state.sides == ((0,), (1, 2))
    assert state.to_act == 0  # dealer 2: seat 0, the dealer's right, leads


def test_only_the_declarer_names_trump_s000() -> None:
    state = run(brisca.new_game(SUBASTADA_3P, seed=2), Pass(), Bid(60), Pass())
    assert state.ledger.contract is not None and state.ledger.contract.declarer == 1
    assert state.to_act == 1


def test_everyone_passes_void_hand_spec_2_7() -> None:
    """If all pass, the hand is void: no winner, no points; the match deals again [P]."""
    state = run(brisca.new_game(SUBASTADA_3P, seed=3), Pass(), Pass(), Pass())
    result = brisca.result(state)
    assert state.is_over and result.void and result.winner is None
    assert result.points == (0, 0, 0)


def test_all_pass_in_a_match_deals_the_next_hand_spec_2_7() -> None:
    match = brisca.new_match(SUBASTADA_3P, seed=4, dealer=2)
    match = run(match, Pass(), Pass(), Pass())  # type: ignore[arg-type]
    assert match.dealer == 0 and match.hands[-1].result.void
    assert not match.is_over


def test_four_player_declarer_plays_with_partner_aca_ts() -> None:
    state = run(brisca.new_game(SUBASTADA_4P, seed=5), Pass(), Bid(60), Pass(), Pass())
    state = run(state, NameTrump("O"))
    assert state.sides == ((0, 2), (1, 3))
    result = brisca.result(finish(state))
    assert result.details is not None and result.details.contract.declarer == 1
    made = result.points[1] + result.details.cantes[1] >= 60
    assert result.details.made is made and result.winner == (1 if made else 0)
    assert result.details.seat_scores == ((0, 60, 0, 60) if made else (0, -60, 0, -60))


# §2.7 Cantes (T26).


def test_cantes_follow_the_tute_rules_t26() -> None:
    """T26: trump espadas; Rey and Caballo sing 40 in espadas, 20 in copas; holding both
    pairs, the 40 first and the 20 only after another trick is won (10-card hands)."""
    rules = Rules(
        num_players=4,
        team_mode="partners_opposite",
        trump_selection="auction",
        cantes=True,
        deal_all=True,
    )
    state = stacked(rules, {0: ["1B", "12E", "11E", "12C", "11C", "1O"]})
    state = run(state, Bid(60), Pass(), Pass(), Pass(), NameTrump("E"))
    assert "winner of the last trick" in refusal(state, Sing("E"))
    state = play(state, "1B", "6O", "6C", "2B")
    assert state.tricks[-1].winner == 0 and state.to_act == 0
    assert "40 in trumps comes before" in refusal(state, Sing("C"))
    state = run(state, Sing("E"))
    assert state.ledger.cantes[-1].points == 40
    assert "one cante per trick" in refusal(state, Sing("C"))
    assert Card.parse("12E") in state.hands[0]  # the cards stay in hand
    state = play(state, "1O", "7O", "7C", "3B")
    assert state.tricks[-1].winner == 0
    state = run(state, Sing("C"))
    assert state.ledger.cantes[-1].points == 20


def test_made_contract_needed_a_cante_spec_2_7() -> None:
    """The contract counts card points plus cantes: a 40 makes a bid the cards alone miss."""
    rules = attrs.evolve(SUBASTADA_3P, bid_minimum=60)
    for seed in range(400):
        state = run(brisca.new_game(rules, seed=seed), Bid(60), Pass(), Pass())
        state = run(state, NameTrump(Suit.OROS))
        rng = random.Random(seed)
        while not state.is_over:
            actions = brisca.legal_actions(state)
            sings = [a for a in actions if isinstance(a, Sing)]
            state = brisca.apply(state, sings[0] if sings else actions[rng.randrange(len(actions))])
        result = brisca.result(state)
        if result.points[0] < 60 <= result.points[0] + result.details.cantes[0]:
            assert (
                result.details.made and result.winner == 0 and result.details.seat_scores[0] == 60
            )
            return
    raise AssertionError("no such hand found")


def test_failed_contract_costs_the_bid_spec_2_7() -> None:
    state = run(brisca.new_game(SUBASTADA_3P, seed=6), Bid(120), Pass(), Pass(), NameTrump("O"))
    result = brisca.result(finish(state))
    if result.points[0] + result.details.cantes[0] < 120:
        assert not result.details.made and result.winner == 1
        assert result.details.seat_scores == (-120, 0, 0)


def test_game_point_scoring_spec_2_7() -> None:
    rules = attrs.evolve(SUBASTADA_3P, subasta_scoring="game_point")
    state = run(brisca.new_game(rules, seed=6), Bid(120), Pass(), Pass(), NameTrump("O"))
    result = brisca.result(finish(state))
    assert result.details.seat_scores[0] in (1, -1) and result.details.seat_scores[1:] == (0, 0)


# §2.8 Chiamata.


def test_rank_bids_must_descend_t28() -> None:
    """T28: a bid of 3 after a bid of 1 is legal; a bid of 1 after a bid of 3 is illegal."""
    state = brisca.new_game(CHIAMATA, seed=1)
    assert {len(h) for h in state.hands} == {8} and state.stock == ()
    state = run(state, BidRank(1))
    assert brisca.is_legal(state, BidRank(3))
    state = run(state, BidRank(3))
    assert "lower in trick order" in refusal(state, BidRank(1))


def test_after_a_two_bids_become_points_bsk_rb() -> None:
    state = run(brisca.new_game(CHIAMATA, seed=1), BidRank(2))
    assert "2 + points" in refusal(state, BidRank(4))
    assert "from 61" in refusal(state, Bid(60))
    state = run(state, Bid(61))
    assert "from 62" in refusal(state, Bid(61))
    assert "to 120" in refusal(state, Bid(121))


def test_a_two_closes_the_auction_bjb() -> None:
    rules = attrs.evolve(CHIAMATA, chiamata_two_rule="two_closes")
    state = run(brisca.new_game(rules, seed=1), BidRank(3), BidRank(2))
    assert state.ledger.contract is not None and state.ledger.contract.declarer == 1


def _called(seed: int, holder_is_caller: bool) -> brisca.State:
    """Seat 0 wins the auction with a 3 and calls a 3 held by someone else (or itself)."""
    state = run(brisca.new_game(CHIAMATA, seed=seed), BidRank(3), Pass(), Pass(), Pass(), Pass())
    threes = [c for c in CHIAMATA.cards if c.rank == 3]
    choice = [c for c in threes if (c in state.hands[0]) is holder_is_caller]
    return run(state, CallCard(choice[0]))


def test_called_card_makes_a_secret_partner_pgc_crp() -> None:
    state = _called(seed=2, holder_is_caller=False)
    contract = state.ledger.contract
    assert contract is not None and contract.called is not None
    partner = contract.partner
    assert partner not in (None, 0) and contract.called in state.hands[partner]  # type: ignore[index]
    assert state.trump is contract.called.suit
    assert state.sides == tuple(
        sorted([tuple(sorted({0, partner})), tuple(s for s in range(5) if s not in (0, partner))])
    )  # type: ignore[misc]
    for seat in range(5):
        view = brisca.observe(state, seat)
        knows = seat == partner
        assert (view.contract.partner == partner) is knows  # type: ignore[union-attr]
        assert (view.sides == state.sides) is knows
    assert "rank the auction was won with" in refusal(
        run(brisca.new_game(CHIAMATA, seed=2), BidRank(3), Pass(), Pass(), Pass(), Pass()),
        CallCard("1O"),
    )


def test_partner_is_revealed_when_the_called_card_is_played_rb() -> None:
    state = _called(seed=2, holder_is_caller=False)
    contract = state.ledger.contract
    assert contract is not None
    while contract.called not in [c for _, c in state.trick] + [
        c for t in state.tricks for _, c in t.cards
    ]:
        seat = state.to_act
        plays = [a for a in brisca.legal_actions(state) if isinstance(a, Play)]
        pick = next((a for a in plays if a.card is contract.called), plays[0])
        state = brisca.apply(state, pick)
        assert seat is not None
    assert all(brisca.observe(state, s).sides == state.sides for s in range(5))


def test_caller_holding_the_called_card_plays_alone_t28() -> None:
    """T28: a caller who holds the called card plays alone, 1 against 4."""
    state = _called(seed=1, holder_is_caller=True)  # seat 0 was dealt the 3 of copas
    assert state.ledger.contract.partner == 0  # type: ignore[union-attr]
    assert state.sides == ((0,), (1, 2, 3, 4))
    result = brisca.result(finish(state))
    sign = 1 if result.details.made else -1
    assert result.details.seat_scores == (4 * sign, -sign, -sign, -sign, -sign)


def test_caller_side_needs_61_or_the_bid_crp() -> None:
    state = run(
        brisca.new_game(CHIAMATA, seed=3), BidRank(2), Bid(90), Pass(), Pass(), Pass(), Pass()
    )
    twos = [c for c in CHIAMATA.cards if c.rank == 2 and c not in state.hands[state.to_act]]  # type: ignore[index]
    result = brisca.result(finish(run(state, CallCard(twos[0]))))
    caller_side = result.sides.index(next(s for s in result.sides if 1 in s))
    assert result.details.made is (result.points[caller_side] >= 90)


def test_scoring_table_is_an_option_spec_2_8() -> None:
    rules = attrs.evolve(CHIAMATA, chiamata_scores=(3, 2, 1, 6))
    state = run(brisca.new_game(rules, seed=2), BidRank(3), Pass(), Pass(), Pass(), Pass())
    others = [c for c in rules.cards if c.rank == 3 and c not in state.hands[0]]
    result = brisca.result(finish(run(state, CallCard(others[0]))))
    partner = result.details.contract.partner  # type: ignore[union-attr]
    sign = 1 if result.details.made else -1
    for seat, score in enumerate(result.details.seat_scores):
        expected = 3 if seat == 0 else 2 if seat == partner else -1
        assert score == sign * expected
    with pytest.raises(RulesError, match="chiamata_scores"):
        attrs.evolve(CHIAMATA, chiamata_scores=(1, 2))


def test_observe_never_leaks_the_secret_partner_spec_2_8() -> None:
    """Moving the called card between two other seats changes no outsider's view."""
    state = _called(seed=2, holder_is_caller=False)
    contract = state.ledger.contract
    assert contract is not None and contract.called is not None and contract.partner is not None
    partner = contract.partner
    other = next(s for s in range(1, 5) if s != partner)
    outsider = next(s for s in range(1, 5) if s not in (partner, other))
    give = state.hands[other][0]
    hands = list(state.hands)
    hands[partner] = tuple(give if c is contract.called else c for c in hands[partner])
    hands[other] = tuple(contract.called if c is give else c for c in hands[other])
    moved = attrs.evolve(
        state,
        hands=tuple(hands),
        seating=brisca.game.state.seating_for(CHIAMATA, state.dealer, 0, other),
        ledger=attrs.evolve(state.ledger, contract=attrs.evolve(contract, partner=other)),
    )
    for viewer in (0, outsider):
        assert brisca.observe(moved, viewer) == brisca.observe(state, viewer)


@pytest.mark.parametrize(
    "options",
    [
        {"team_mode": "called_partner", "num_players": 5},
        {"trump_selection": "called_card", "num_players": 5, "team_mode": "called_partner"},
        {"trump_selection": "auction", "num_players": 3},
        {"cantes": True},
        {"first_leader": "declarer"},
    ],
)
def test_auction_options_clash_spec_2_7_2_8(options: dict[str, object]) -> None:
    with pytest.raises(RulesError):
        Rules(**options)  # type: ignore[arg-type]


def test_subastada_and_chiamata_presets_spec_3() -> None:
    assert SUBASTADA_3P.team_mode is brisca.TeamMode.DECLARER_VS_REST
    assert SUBASTADA_3P.removed_cards == (Card.parse("2B"),)
    assert SUBASTADA_4P.team_mode is brisca.TeamMode.PARTNERS_OPPOSITE
    for rules in (SUBASTADA_3P, SUBASTADA_4P):
        assert rules.trump_selection is brisca.TrumpSelection.AUCTION and rules.cantes
        assert (rules.bid_minimum, rules.bid_step, rules.match_target) == (60, 5, 500)
    assert CHIAMATA.team_mode is brisca.TeamMode.CALLED_PARTNER and CHIAMATA.deal_all
    assert CHIAMATA.chiamata_scores == (2, 1, 1, 4)


# Properties.

auction_presets = st.sampled_from(["subastada-3p", "subastada-4p", "chiamata-5p"])


@given(name=auction_presets, seed=st.integers(0, 2**64), choices=st.randoms(use_true_random=False))
def test_every_auction_ends_and_the_contract_follows_the_points(
    name: str, seed: int, choices: random.Random
) -> None:
    """The auction always ends, and the contract's outcome is the rule applied to the points."""
    rules = brisca.preset(name)
    state = brisca.new_game(rules, seed=seed)
    for _ in range(400):
        if state.is_over:
            break
        actions = brisca.legal_actions(state)
        state = brisca.apply(state, actions[choices.randrange(len(actions))])
    assert state.is_over
    result = brisca.result(state)
    if result.void:
        assert result.winner is None and sum(result.points) == 0
        return
    assert sum(result.points) == 120
    contract = result.details.contract
    assert contract is not None
    ours = next(i for i, side in enumerate(result.sides) if contract.declarer in side)
    if rules.trump_selection is brisca.TrumpSelection.AUCTION:
        assert isinstance(contract.bid, Bid)
        expected = result.points[ours] + result.details.cantes[ours] >= contract.bid.points
    else:
        floor = contract.bid.points if isinstance(contract.bid, Bid) else 0
        expected = result.points[ours] >= max(61, floor)
    assert result.details.made is expected
    assert result.winner == (ours if expected else 1 - ours)


def test_six_player_chiamata_dealer_sits_out_pgc() -> None:
    """SPEC §2.8 (PGC): with 6 players the dealer sits out; five play 8 cards each."""
    rules = Rules(
        num_players=6, team_mode="called_partner", trump_selection="called_card", deal_all=True
    )
    state = brisca.new_game(rules, seed=9, dealer=2)
    assert state.hands[2] == () and all(len(state.hands[s]) == 8 for s in (0, 1, 3, 4, 5))
    assert state.to_act == 3
    state = run(state, BidRank(3), Pass(), Pass(), Pass(), Pass())
    threes = [c for c in rules.cards if c.rank == 3 and c not in state.hands[3]]
    state = finish(run(state, CallCard(threes[0])))
    result = brisca.result(state)
    assert sum(result.points) == 120 and 2 not in {s for side in result.sides for s in side}
    assert result.details.seat_scores[2] == 0


def test_tampered_chiamata_record_is_refused_spec_2_8() -> None:
    """A saved state whose call is not of the rank the auction was won with is refused."""
    import json

    state = run(brisca.new_game(CHIAMATA, seed=5), BidRank(1), Pass(), Pass(), Pass(), Pass())
    state = run(state, CallCard("1O"))
    data = json.loads(brisca.dumps(state))
    assert data["actions"][-1] == "call 1O"
    data["actions"][-1] = "call 3O"
    with pytest.raises(brisca.StateError, match="called card must be a 1"):
        brisca.loads(json.dumps(data))
