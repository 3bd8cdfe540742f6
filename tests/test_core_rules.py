"""Rule-by-rule examples of the classic game (SPEC §1, §2.1, §2.6 and §4)."""

from __future__ import annotations

import itertools

import pytest
from helpers import find_finished, play, stacked

import brisca
from brisca import Card, Rules, Suit
from brisca.game.rng import Generator


def test_trump_wins_the_trick_t1_s000() -> None:
    """T1: 3-copas, 12-copas, 2-oros with oros trump: the 2 of trumps wins."""
    state = stacked(brisca.preset("spanish-3p"), {0: ["3C"], 1: ["12C"], 2: ["2O"]}, trump="7O")
    state = play(state, "3C", "12C", "2O")
    assert state.tricks[0].winner == 2
    assert state.tricks[0].points == 14


def test_off_suit_never_wins_t2_s000_s004() -> None:
    """T2: trump espadas; 7-bastos led, then 1-copas: the led 7 wins."""
    state = stacked(Rules(), {0: ["7B"], 1: ["1C"]}, trump="4E")
    state = play(state, "7B", "1C")
    assert state.tricks[0].winner == 0
    assert state.trump is Suit.ESPADAS


def test_three_beats_the_king_t3_s004() -> None:
    """T3: 12-copas led, then 3-copas: 'el Tres le gana al Rey'."""
    state = play(stacked(Rules(), {0: ["12C"], 1: ["3C"]}, trump="4E"), "12C", "3C")
    assert state.tricks[0].winner == 1


def test_higher_trump_wins_and_trick_counts_21_t4() -> None:
    """T4: 4p: 1-copas, 3-copas, 2-oros, 4-oros: the 4 of trumps wins 21 points."""
    rules = brisca.preset("spanish-4p")
    state = stacked(rules, {0: ["1C"], 1: ["3C"], 2: ["2O"], 3: ["4O"]}, trump="7O")
    state = play(state, "1C", "3C", "2O", "4O")
    assert (state.tricks[0].winner, state.tricks[0].points) == (3, 21)
    assert state.side_points == (0, 21)  # seat 3 is on the side {1, 3}


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"deck": "spanish48"},
        {"deck": "no_twos36"},
        {"num_players": 3},
        {"num_players": 3, "removed_cards": ["4B"]},
        {"num_players": 3, "removed_cards": "all_twos"},
        {"num_players": 6, "deck": "spanish48"},
    ],
)
def test_every_deck_totals_120_points_t5_s000_s003_s004(options: dict[str, object]) -> None:
    """T5: every supported deck, removals applied, holds 120 card points."""
    assert sum(c.points for c in Rules(**options).cards) == 120  # type: ignore[arg-type]


def test_side_totals_reach_all_but_1_and_119_t6() -> None:
    """T6: captured totals can be 0-120 except 1 and 119."""
    reachable = {0}
    for card in Rules().cards:
        reachable |= {total + card.points for total in reachable}
    assert reachable == set(range(121)) - {1, 119}


@pytest.mark.parametrize(
    ("options", "tricks"),
    [
        ({"num_players": 2}, 20),
        ({"num_players": 3}, 13),
        ({"num_players": 4}, 10),
        ({"num_players": 6, "deck": "spanish48"}, 8),
        ({"num_players": 6, "deck": "no_twos36"}, 6),
    ],
)
def test_tricks_per_hand_t7_s002(options: dict[str, object], tricks: int) -> None:
    """T7: a hand has as many tricks as the pack divided among the players, and plays them all."""
    rules = Rules(**options)  # type: ignore[arg-type]
    assert rules.tricks_per_hand == tricks
    state = brisca.new_game(rules, seed=3)
    while not state.is_over:
        state = brisca.apply(state, brisca.legal_actions(state)[-1])
    assert len(state.tricks) == tricks


def test_face_down_stock_size_spec_5_1() -> None:
    """SPEC §1.7 and §5 #1: the face-down stock holds D - 3n - 1 cards."""
    for options, size in [({}, 33), ({"num_players": 3}, 29), ({"num_players": 4}, 27)]:
        state = brisca.new_game(Rules(**options), seed=1)  # type: ignore[arg-type]
        assert len(state.stock) == size and state.trump_card is not None


@pytest.mark.parametrize(
    "options",
    [
        {"num_players": 3, "removed_cards": []},
        {"num_players": 6},
        {"num_players": 6, "team_mode": "teams_alternating"},
    ],
)
def test_forty_cards_cannot_split_three_or_six_ways_t9(options: dict[str, object]) -> None:
    """T9: 3 or 6 players with an undivided 40-card pack is a configuration error."""
    with pytest.raises(brisca.RulesError, match="do not divide"):
        Rules(**options)  # type: ignore[arg-type]


def test_dealer_right_leads_first_t11_s000() -> None:
    """T11 (hand part): with dealer 0 at 4 players, seat 1 leads."""
    state = brisca.new_game(brisca.preset("spanish-4p"), seed=5, dealer=0)
    assert state.to_act == 1


def test_deal_one_at_a_time_from_dealer_right_s000_s003() -> None:
    """SPEC §1.5: cards are dealt one at a time, starting at the dealer's right."""
    rules = brisca.preset("spanish-4p")
    deck = list(rules.cards)
    state = brisca.new_game(rules, deck=deck, dealer=1)
    for k, seat in enumerate([2, 3, 0, 1]):
        assert state.hands[seat] == (deck[k], deck[k + 4], deck[k + 8])
    assert state.trump_card == deck[12]
    assert state.stock == tuple(deck[13:])


def test_turned_card_is_trump_and_drawn_last_by_the_loser_s000_1_12() -> None:
    """SPEC §1.6, §1.12: the turned is trump and goes to the last drawer: in 2p, the loser."""
    state = brisca.new_game(Rules(), seed=11)
    turned = state.trump_card
    assert turned is not None and state.trump is turned.suit
    while len(state.stock) > 1:
        state = brisca.apply(state, brisca.legal_actions(state)[0])
    while state.trump_card is not None:
        before = state
        state = brisca.apply(state, brisca.legal_actions(state)[0])
    winner = state.tricks[-1].winner
    assert state.hands[1 - winner][-1] is turned
    assert state.hands[winner][-1] is before.stock[0]


def test_winner_draws_first_then_play_order_s000_s002() -> None:
    """SPEC §1.12: at 4 players the winner draws the top card, then the next seats in turn."""
    rules = brisca.preset("spanish-4p")
    state = stacked(rules, {0: ["2C"], 1: ["4C"], 2: ["1C"], 3: ["5C"]}, trump="7O")
    top = state.stock[:4]
    state = play(state, "2C", "4C", "1C", "5C")
    assert state.tricks[0].winner == 2
    assert [state.hands[s][-1] for s in (2, 3, 0, 1)] == list(top)


def test_any_card_may_be_played_s000_s002_s004() -> None:
    """SPEC §1.9: there is no duty to follow suit, trump or beat."""
    state = stacked(Rules(), {0: ["1C"], 1: ["2C", "3O", "4B"]}, trump="7O")
    state = play(state, "1C")
    assert {a.card.code for a in brisca.legal_actions(state)} == {"2C", "3O", "4B"}


def test_five_players_dealer_sits_out_s000_spec_2_1() -> None:
    """SPEC §2.1: with 5, the dealer sits out; d+1, d+3 play against d+2, d+4."""
    rules = brisca.preset("spanish-5p")
    state = brisca.new_game(rules, seed=2, dealer=2)
    assert state.hands[2] == ()
    assert state.sides == ((0, 3), (1, 4))
    assert state.to_act == 3
    for seat in (3, 4, 0, 1):
        state = brisca.apply(state, brisca.Play(state.hands[seat][0]))
    assert all(len(state.hands[s]) == 3 for s in (0, 1, 3, 4))
    assert state.hands[2] == ()


def test_six_players_teams_alternate_s000_wb_cc() -> None:
    """SPEC §2.1: 6 players play {0, 2, 4} against {1, 3, 5} with 48 cards."""
    state = brisca.new_game(brisca.preset("spanish-6p"), seed=4)
    assert state.sides == ((0, 2, 4), (1, 3, 5))
    assert len(state.stock) == 48 - 18 - 1


def test_dealer_may_lead_first_abt() -> None:
    """SPEC §2.1 first_leader='dealer' (ABT): the dealer leads the first trick."""
    state = brisca.new_game(Rules(first_leader="dealer"), seed=1, dealer=0)
    assert state.to_act == 0


def test_trump_card_from_bottom_of_deck_nc_vc() -> None:
    """SPEC §2.1 trump_card_position='bottom_of_deck': a seeded turned is the pack's last card."""
    rules = Rules(trump_card_position="bottom_of_deck")
    shuffled = Generator(99).shuffle(rules.cards)
    state = brisca.new_game(rules, seed=99)
    assert state.trump_card is shuffled[-1]
    assert state.stock == tuple(shuffled[6:-1])
    assert state.hands[0] == (shuffled[0], shuffled[2], shuffled[4])


@pytest.mark.parametrize("hand_number", range(6))
def test_suit_rotation_names_trump_without_a_turned_card_cc(hand_number: int) -> None:
    """SPEC §2.1 suit_rotation: hand k's trump is oros, copas, espadas, bastos by k mod 4."""
    state = brisca.new_game(Rules(trump_selection="suit_rotation"), seed=1, hand_number=hand_number)
    assert state.trump is [Suit.OROS, Suit.COPAS, Suit.ESPADAS, Suit.BASTOS][hand_number % 4]
    assert state.trump_card is None and len(state.stock) == 34


def test_trump_card_positions_deal_the_same_cards_from_a_deck() -> None:
    """trump_card_position changes only how a seed becomes a deal, never deck= orders."""
    deck = list(Rules().cards)
    a = brisca.new_game(Rules(), deck=deck)
    b = brisca.new_game(Rules(trump_card_position="bottom_of_deck"), deck=deck)
    assert (a.hands, a.trump_card, a.stock) == (b.hands, b.trump_card, b.stock)


# Results (SPEC §1.14, §2.6).


def test_more_than_60_wins_s000_s004() -> None:
    """SPEC §1.14: with two sides, more than 60 card points wins."""
    state = find_finished(Rules(), lambda s: s.side_points[1] > 60)
    result = brisca.result(state)
    assert result.winner == 1 and result.tied == () and not result.replay


@pytest.mark.parametrize(
    ("tie_rule", "replay"),
    [("draw", False), ("replay", True), ("replay_double_stake", True), ("half_each", False)],
)
def test_sixty_sixty_is_a_tie_s000_s004(tie_rule: str, replay: bool) -> None:
    """SPEC §1.14, §2.6: 60-60 is a tie; replay rules deal again, the others do not."""
    state = find_finished(Rules(tie_rule=tie_rule), lambda s: s.side_points == (60, 60))
    result = brisca.result(state)
    assert (result.winner, result.tied, result.replay) == (None, (0, 1), replay)


def test_tie_goes_to_the_last_trick_s003_pi() -> None:
    """SPEC §2.6 last_trick: on a tie, the side that took the last trick wins."""
    state = find_finished(Rules(tie_rule="last_trick"), lambda s: s.side_points == (60, 60))
    assert brisca.result(state).winner == state.tricks[-1].winner


def test_highest_score_wins_three_handed_s002_s004() -> None:
    """SPEC §1.14: three or more individuals: the highest total wins, even under 61."""
    state = find_finished(
        brisca.preset("spanish-3p"),
        lambda s: max(s.side_points) < 61 and len(set(s.side_points)) == 3,
    )
    result = brisca.result(state)
    assert result.winner == state.side_points.index(max(state.side_points))


def test_ffa_last_trick_tie_is_a_draw_when_last_trick_winner_not_tied_spec_2_6() -> None:
    """SPEC §2.6 [P]: a three-way top tie under last_trick goes to the last-trick side if tied."""
    rules = Rules(num_players=3, tie_rule="last_trick")

    def top_tie(s: brisca.State) -> bool:
        return sorted(s.side_points)[1] == max(s.side_points)

    state = find_finished(rules, top_tie)
    result = brisca.result(state)
    top = max(state.side_points)
    tied = tuple(i for i, p in enumerate(state.side_points) if p == top)
    last = state.tricks[-1].winner
    assert result.tied == tied
    assert result.winner == (last if last in tied else None)


def test_cards_and_seats_in_results_follow_sides() -> None:
    """HandResult.points is in sides order and sums the captured tricks."""
    state = find_finished(brisca.preset("spanish-4p"), lambda s: True)
    result = brisca.result(state)
    assert result.sides == ((0, 2), (1, 3))
    for side, points in zip(result.sides, result.points, strict=True):
        assert points == sum(t.points for t in state.tricks if t.winner in side)


def test_spanish_names_read_every_card_of_the_48_card_pack() -> None:
    """Every card reads back from its canonical code and both of its names."""
    for card in Rules(deck="spanish48").cards:
        for text in (card.code, card.spanish_name, card.english_name, card.code.lower()):
            assert Card.parse(text) is card


def test_trick_order_1_3_12_11_10_7_to_2_s000_s004() -> None:
    """SPEC §1.2: trick rank high to low is 1, 3, 12, 11, 10, (9, 8,) 7, 6, 5, 4, 2."""
    order = [1, 3, 12, 11, 10, 9, 8, 7, 6, 5, 4, 2]
    strengths = [Card(r, Suit.OROS).strength for r in order]
    assert strengths == sorted(strengths, reverse=True)
    for a, b in itertools.pairwise(order):
        state = stacked(Rules(deck="spanish48"), {0: [f"{b}C"], 1: [f"{a}C"]}, trump="4E")
        assert play(state, f"{b}C", f"{a}C").tricks[0].winner == 1


@pytest.mark.parametrize("selection", ["suit_rotation", "auction"])
def test_unturned_card_stays_last_in_the_stock_spec_2_1(selection: str) -> None:
    """SPEC §2.1 [P]: with no card turned, the card after the deal is the last stock card."""
    options: dict[str, object] = {"trump_selection": selection}
    if selection == "auction":
        options.update(num_players=3, team_mode="declarer_vs_rest")
    rules = Rules(**options)  # type: ignore[arg-type]
    shuffled = Generator(42).shuffle(rules.cards)
    dealt = 3 * rules.num_players
    state = brisca.new_game(rules, seed=42)
    assert state.trump_card is None
    assert state.stock == (*shuffled[dealt + 1 :], shuffled[dealt])
