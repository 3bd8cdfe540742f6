"""Rule-by-rule examples of the variant options (SPEC §2.2-§2.5, §2.9, §3, §4)."""

from __future__ import annotations

import attrs
import pytest
from helpers import play, stacked

import brisca
from brisca import (
    SWAP_BUNDLES,
    Card,
    ClaimBlackHand,
    IllegalActionError,
    Play,
    Rules,
    RulesError,
    Signal,
    Suit,
    Swap,
)


def legal_codes(state: brisca.State) -> set[str]:
    return {str(a) for a in brisca.legal_actions(state)}


def refusal(state: brisca.State, action: brisca.Action) -> str:
    assert not brisca.is_legal(state, action)
    with pytest.raises(IllegalActionError) as error:
        brisca.apply(state, action)
    return str(error.value)


def exhaust_talon(state: brisca.State) -> brisca.State:
    """Play the first legal card until the turned card has been drawn."""
    while state.trump_card is not None:
        plays = [a for a in brisca.legal_actions(state) if isinstance(a, Play)]
        state = brisca.apply(state, plays[0])
    return state


# §2.2 Cubierta.

CUBIERTA = brisca.preset("cubierta-2p")


def test_cubierta_hides_the_trump_from_everyone_s000() -> None:
    """Under cubierta nobody sees the turned card, the dealer included [P]."""
    state = stacked(CUBIERTA, {0: ["4C"], 1: ["5C"]}, trump="7O")
    for seat in (0, 1):
        view = brisca.observe(state, seat)
        assert view.trump is None and view.trump_card is None
    assert state.trump is Suit.OROS  # the engine knows the truth


def test_cubierta_first_trump_played_reveals_it_spec_2_2() -> None:
    """The first trump-suit card played turns the covered card face up [P]."""
    state = stacked(CUBIERTA, {0: ["4C", "2O"], 1: ["5C", "6C"]}, trump="7O")
    state = play(state, "4C", "5C", "6C")  # seat 1 wins the first trick and leads the 6
    assert brisca.observe(state, 1).trump is None  # no trump played yet
    state = play(state, "2O")
    view = brisca.observe(state, 1)
    assert view.trump is Suit.OROS and view.trump_card == Card.parse("7O")


def test_cubierta_card_shown_when_drawn_if_still_hidden_spec_2_2() -> None:
    """A covered card never revealed by play is shown as it is drawn [P]."""
    rules = attrs.evolve(CUBIERTA, num_players=4, team_mode="partners_opposite")
    pack = list(rules.cards)
    bastos = [c for c in pack if c.suit is Suit.BASTOS]
    others = [c for c in pack if c.suit is not Suit.BASTOS]
    # Bastos come last, so 4 players can play out the talon without a trump.
    state = brisca.new_game(rules, deck=[*others[:12], bastos.pop(), *others[12:], *bastos])
    while state.trump_card is not None:
        assert brisca.observe(state, 0).trump is None
        hand = state.hands[state.to_act]  # type: ignore[index]
        state = brisca.apply(state, Play(next(c for c in hand if c.suit is not Suit.BASTOS)))
    view = brisca.observe(state, 0)
    assert view.trump is Suit.BASTOS and view.trump_card_drawn is not None
    assert view.trump_card_drawn[1].suit is Suit.BASTOS


def test_cubierta_states_differing_only_in_the_covered_card_look_alike_spec_2_2() -> None:
    """Exchanging the covered card with a hidden card of another unplayed suit changes no view."""
    state = stacked(CUBIERTA, {0: ["4C", "5C", "6C"], 1: ["4E", "5E", "6E"]}, trump="7O")
    state = play(state, "4C", "4E")
    hidden = next(c for c in state.stock if c.suit is Suit.BASTOS)
    stock = tuple(Card.parse("7O") if c is hidden else c for c in state.stock)
    other = attrs.evolve(state, trump=Suit.BASTOS, trump_card=hidden, stock=stock)
    for seat in (0, 1):
        assert brisca.observe(other, seat) == brisca.observe(state, seat)


@pytest.mark.parametrize(
    "options",
    [
        {"swap_enabled": True},
        {"black_hand": "any_time"},
        {"play_obligation": "arrastre_whole_hand"},
        {"trump_selection": "suit_rotation"},
    ],
)
def test_cubierta_clashes_spec_2_2(options: dict[str, object]) -> None:
    """Cubierta is rejected with swaps, black hand, arrastre or no turned card [P]."""
    with pytest.raises(RulesError, match="cubierta"):
        Rules(trump_visibility="cubierta", **options)  # type: ignore[arg-type]


def test_cubierta_with_arrastre_after_the_stock_spec_2_2_2_4() -> None:
    """The covered card is shown by the time arrastre binds, so the two combine."""
    rules = attrs.evolve(CUBIERTA, play_obligation="arrastre_after_stock")
    state = exhaust_talon(brisca.new_game(rules, seed=3))
    assert brisca.observe(state, 0).trump is state.trump


# §2.3 Swaps.

SWAPS = Rules(swap_enabled=True)


def test_seven_takes_a_high_card_then_two_takes_the_seven_t12() -> None:
    """T12: turned 12-oros; the 7 holder swaps it, then the 2 holder takes the 7."""
    state = stacked(SWAPS, {0: ["7O", "4C"], 1: ["2O", "5C"]}, trump="12O")
    assert "swap 7O" in legal_codes(state)
    state = brisca.apply(state, Swap("7O"))
    assert state.trump_card == Card.parse("7O") and Card.parse("12O") in state.hands[0]
    assert state.trump is Suit.OROS
    state = play(state, "4C")
    assert "swap 2O" in legal_codes(state)
    state = brisca.apply(state, Swap("2O"))
    assert state.trump_card == Card.parse("2O") and Card.parse("7O") in state.hands[1]


def test_a_turned_two_is_never_taken_t13() -> None:
    """T13: a turned 2 can never be swapped for."""
    state = stacked(SWAPS, {0: ["7O", "3O"]}, trump="2O")
    assert "turned 2" in refusal(state, Swap("7O"))
    assert not any(isinstance(a, Swap) for a in brisca.legal_actions(state))


def test_seven_cannot_take_a_low_card_s002() -> None:
    state = stacked(SWAPS, {0: ["7O"]}, trump="5O")
    assert "high turned card" in refusal(state, Swap("7O"))


def test_only_a_trump_is_swapped_s002() -> None:
    state = stacked(SWAPS, {0: ["7C"]}, trump="12O")
    assert "only a trump" in refusal(state, Swap("7C"))


def test_swaps_off_by_default_s002_s004_nc() -> None:
    state = stacked(Rules(), {0: ["7O"]}, trump="12O")
    assert "swap_enabled=False" in refusal(state, Swap("7O"))


CASINO = Rules(**SWAP_BUNDLES["casino"])


def _casino_after_two_tricks() -> brisca.State:
    """Both seats have won a trick; seat 0 leads the third with the 7 of trumps in hand."""
    state = stacked(CASINO, {0: ["4C", "3C", "7O"], 1: ["1C", "5C", "2O"]}, trump="12O")
    assert "trick won first" in refusal(state, Swap("7O"))
    state = play(state, "4C", "1C")  # seat 1 wins
    return play(state, "5C", "3C")  # seat 0 wins


def test_casino_swap_needs_a_trick_won_t15_s003() -> None:
    """T15: no swap without a trick won; once won, the swap is offered."""
    state = _casino_after_two_tricks()
    assert state.to_act == 0 and "swap 7O" in legal_codes(state)


def test_casino_one_swap_per_trick_t15_s003() -> None:
    """T15: a second swap in the same trick is illegal, counted table-wide."""
    state = brisca.apply(_casino_after_two_tricks(), Swap("7O"))
    state = brisca.apply(state, Play(state.hands[0][0]))
    assert "one swap per trick" in refusal(state, Swap("2O"))


def test_casino_no_swap_once_only_the_turned_card_is_left_t15_s003() -> None:
    """T15: no swap when only the turned card remains (a state no standard deal reaches)."""
    state = _casino_after_two_tricks()
    bare = attrs.evolve(state, stock=())
    assert "stock_nonempty" in refusal(bare, Swap("7O"))


PUERTO_RICAN = brisca.preset("puerto-rican-2p")


def test_two_takes_a_high_card_before_the_first_trick_s002() -> None:
    """S002: before the first trick is led, the 2 may take a high turned card."""
    state = stacked(PUERTO_RICAN, {0: ["2O", "4C"], 1: ["5C"]}, trump="1O")
    assert "swap 2O" in legal_codes(state)
    state = play(state, "4C")
    assert "high turned card" in refusal(state, Swap("2O")) or not brisca.is_legal(
        state, Swap("2O")
    )


def test_two_precedes_the_seven_before_the_first_lead_s002() -> None:
    """S002 precedence: before the first lead only the 2 takes a high card, after it only the 7."""
    state = stacked(PUERTO_RICAN, {0: ["7O", "4C"], 1: ["2O", "5C"]}, trump="1O")
    assert "only the 2" in refusal(state, Swap("7O"))
    state = play(state, "4C")  # the first lead: now only the 7 may
    assert "2 cannot take a high" in refusal(state, Swap("2O"))


def test_puerto_rican_swap_any_time_mid_trick_s002() -> None:
    """S002: swaps at any moment, here by the follower mid-trick, no trick won needed."""
    state = stacked(PUERTO_RICAN, {0: ["4C"], 1: ["7O", "5C"]}, trump="12O")
    state = play(state, "4C")
    assert "swap 7O" in legal_codes(state)


def test_spanish_swap_only_by_the_trick_winner_before_leading_s004() -> None:
    """S004: only the winner of the last trick, after the draw and before leading."""
    rules = Rules(**SWAP_BUNDLES["spanish"])
    state = stacked(rules, {0: ["1C", "7O"], 1: ["4C", "5C"]}, trump="12O")
    assert "after_winning_trick" in refusal(state, Swap("7O"))
    state = play(state, "1C", "4C")
    assert state.to_act == 0 and "swap 7O" in legal_codes(state)


def test_swap_only_before_the_first_trick_italian_deuce() -> None:
    rules = Rules(swap_enabled=True, swap_timing="pre_first_trick_only")
    state = stacked(rules, {0: ["7O", "4C"], 1: ["5C", "2O"]}, trump="12O")
    assert "swap 7O" in legal_codes(state)
    state = play(state, "4C")
    assert "pre_first_trick_only" in refusal(state, Swap("2O"))


def test_swap_needs_a_trick_won_by_the_side_spec_2_3() -> None:
    rules = Rules(
        num_players=4,
        team_mode="partners_opposite",
        swap_enabled=True,
        swap_requires_trick_won="side",
    )
    state = stacked(rules, {0: ["1C"], 1: ["4C"], 2: ["7O", "5C"], 3: ["6C"]}, trump="12O")
    assert "side" in refusal(play(state, "1C", "4C"), Swap("7O"))
    state = play(state, "1C", "4C", "5C", "6C")  # seat 0 wins for the side {0, 2}
    state = play(state, state.hands[0][0], state.hands[1][0])
    assert state.to_act == 2 and "swap 7O" in legal_codes(state)


def test_no_swap_in_the_last_round_of_draws_nc() -> None:
    rules = Rules(swap_enabled=True, swap_deadline="before_penultimate_trick")
    state = stacked(rules, {0: ["7O"]}, trump="12O")
    assert "swap 7O" in legal_codes(state)
    late = attrs.evolve(state, stock=state.stock[:1])
    assert "before_penultimate_trick" in refusal(late, Swap("7O"))


def test_swaps_are_public_spec_2_3() -> None:
    """A swap is made in view: every seat's observation records it."""
    state = brisca.apply(stacked(SWAPS, {0: ["7O"]}, trump="12O"), Swap("7O"))
    view = brisca.observe(state, 1)
    assert [(s.seat, str(s.given), str(s.taken)) for s in view.swaps] == [(0, "7O", "12O")]
    assert view.trump_card == Card.parse("7O")


def test_swap_bundle_needs_a_turned_card_spec_2_3() -> None:
    with pytest.raises(RulesError, match="turned card"):
        Rules(trump_selection="suit_rotation", **SWAP_BUNDLES["wb"])


# §2.4 Arrastre. With `arrastre_whole_hand` the duties bind from the first trick,
# so dealt hands show them; the phase start of `arrastre_after_stock` is tested apart.

ARRASTRE = brisca.preset("arrastre-2p")
WHOLE = Rules(play_obligation="arrastre_whole_hand")
WHOLE_3P = attrs.evolve(WHOLE, num_players=3, removed_cards=["2B"], hand_win_rule="highest")


def plays(state: brisca.State) -> set[str]:
    return {str(a) for a in brisca.legal_actions(state) if isinstance(a, Play)}


@pytest.mark.parametrize("name", ["arrastre-2p", "arrastre-4p"])
def test_every_card_is_legal_before_the_stock_is_exhausted_t21(name: str) -> None:
    """T21: before the stock is exhausted, every card is legal."""
    state = brisca.new_game(brisca.preset(name), seed=21)
    while state.trump_card is not None:
        hand = state.hands[state.to_act]  # type: ignore[index]
        assert plays(state) == {str(c) for c in hand}
        state = brisca.apply(state, Play(hand[-1]))


def test_arrastre_binds_once_the_turned_card_is_drawn_s004() -> None:
    """S004: 'cuando se acaba el mazo' a follower holding the led suit must follow it."""
    for seed in range(200):
        state = exhaust_talon(brisca.new_game(ARRASTRE, seed=seed))
        state = brisca.apply(state, brisca.legal_actions(state)[0])
        led = state.trick[0][1].suit
        hand = state.hands[state.to_act]  # type: ignore[index]
        if any(c.suit is led for c in hand) and any(c.suit is not led for c in hand):
            assert all(Card.parse(p).suit is led for p in plays(state))
            return
    raise AssertionError("no such position found")


def test_must_follow_and_beat_s004() -> None:
    """S004 'matar si se puede': a follower of the led suit must beat the winning card."""
    state = play(stacked(WHOLE, {0: ["11C"], 1: ["12C", "4C", "5E"]}, trump="7O"), "11C")
    assert plays(state) == {"12C"}
    assert (
        refusal(state, Play("4C")) == "must follow copas and beat the Caballo de Copas (arrastre)"
    )


def test_must_follow_when_unable_to_beat_s004() -> None:
    state = play(stacked(WHOLE, {0: ["1C"], 1: ["4C", "5C", "1E"]}, trump="7O"), "1C")
    assert plays(state) == {"4C", "5C"}
    assert refusal(state, Play("1E")) == "must follow copas (arrastre)"


def test_follow_without_beating_a_trump_spec_2_4() -> None:
    """Over a winning trump, a follower of a plain led suit plays any card of it."""
    state = stacked(WHOLE_3P, {0: ["4C"], 1: ["2O"], 2: ["1C", "5C", "7O"]}, trump="6O")
    assert plays(play(state, "4C", "2O")) == {"1C", "5C"}


def test_void_must_trump_s004() -> None:
    state = play(stacked(WHOLE, {0: ["4C"], 1: ["2O", "5O", "1E"]}, trump="7O"), "4C")
    assert plays(state) == {"2O", "5O"}
    assert "must trump" in refusal(state, Play("1E"))


def test_void_must_overtrump_ts() -> None:
    """TS 'pisar': over a winning trump, a void follower must play a higher trump."""
    state = stacked(WHOLE_3P, {0: ["4C"], 1: ["5O"], 2: ["2O", "7O", "1E"]}, trump="6O")
    assert plays(play(state, "4C", "5O")) == {"7O"}


def test_void_unable_to_overtrump_plays_anything_ts() -> None:
    state = stacked(WHOLE_3P, {0: ["4C"], 1: ["5O"], 2: ["2O", "1E", "3E"]}, trump="6O")
    assert plays(play(state, "4C", "5O")) == {"2O", "1E", "3E"}


def test_void_unable_to_overtrump_must_undertrump_ts_contrafallo() -> None:
    rules = attrs.evolve(WHOLE_3P, arrastre_cannot_overtrump="must_undertrump")
    state = stacked(rules, {0: ["4C"], 1: ["5O"], 2: ["2O", "1E", "3E"]}, trump="6O")
    assert plays(play(state, "4C", "5O")) == {"2O"}


def test_any_trump_satisfies_the_duty_s004_literal() -> None:
    rules = attrs.evolve(WHOLE_3P, arrastre_overtrump="any_trump")
    state = stacked(rules, {0: ["4C"], 1: ["5O"], 2: ["2O", "7O", "1E"]}, trump="6O")
    assert plays(play(state, "4C", "5O")) == {"2O", "7O"}


def test_no_duty_to_beat_nc() -> None:
    rules = attrs.evolve(WHOLE, arrastre_must_beat=False)
    state = play(stacked(rules, {0: ["11C"], 1: ["12C", "4C", "5E"]}, trump="7O"), "11C")
    assert plays(state) == {"12C", "4C"}


@pytest.mark.parametrize(("relief", "expected"), [(False, {"2O"}), (True, {"2O", "5E", "6E"})])
def test_partner_winning_relieves_the_duty_to_trump_wb(relief: bool, expected: set[str]) -> None:
    """WB 'boarding': with partner relief, a seat whose partner wins need not trump."""
    rules = attrs.evolve(
        WHOLE, num_players=4, team_mode="partners_opposite", arrastre_partner_relief=relief
    )
    state = stacked(rules, {0: ["1C"], 1: ["4C"], 2: ["2O", "5E", "6E"]}, trump="7O")
    assert plays(play(state, "1C", "4C")) == expected


def test_the_leader_is_always_free_spec_2_4() -> None:
    state = stacked(WHOLE, {0: ["1C", "2O", "5E"]}, trump="7O")
    assert plays(state) == {"1C", "2O", "5E"}


def test_arrastre_play_reveals_voids_spec_2_4() -> None:
    """A follower who does not follow the led suit is known, to everyone, to be void in it."""
    for seed in range(200):
        state = exhaust_talon(brisca.new_game(ARRASTRE, seed=seed))
        while not state.is_over:
            state = brisca.apply(state, brisca.legal_actions(state)[-1])
            if state.trick:
                continue
            t = state.tricks[-1]
            (_, lead), (seat, card) = t.cards
            if card.suit is not lead.suit:
                for viewer in (0, 1):
                    assert lead.suit in brisca.observe(state, viewer).voids[seat]
                return
    raise AssertionError("no such trick found")


def test_free_play_reveals_no_voids_s000() -> None:
    state = play(stacked(Rules(), {0: ["4C"], 1: ["5E"]}, trump="7O"), "4C", "5E")
    assert brisca.observe(state, 0).voids == (frozenset(), frozenset())


# §2.5 Black hand.

BLACK = Rules(black_hand="any_time")


def test_black_hand_declared_wins_the_round_s003() -> None:
    """S003: the 1, 3 and 12 of trumps in one hand win the round when shown."""
    state = stacked(BLACK, {0: ["1O", "3O", "12O"]}, trump="7O")
    assert "claim" in legal_codes(state)
    state = brisca.apply(state, ClaimBlackHand())
    result = brisca.result(state)
    assert state.is_over and result.winner == 0 and result.black_hand == 0
    assert brisca.observe(state, 1).black_hand == 0


def test_black_hand_automatic_ends_at_the_deal_s003() -> None:
    rules = Rules(black_hand="deal_only", black_hand_claim="automatic")
    state = stacked(rules, {1: ["1O", "12O", "3O"]}, trump="7O")
    assert state.is_over and brisca.result(state).winner == 1


def _black_by_draw(rules: Rules) -> brisca.State:
    """Seat 0 wins the first trick and draws the 12 of trumps to the 1 and 3 it holds."""
    state = stacked(
        rules, {0: ["1O", "3O", "1C"], 1: ["4C", "5C", "6C"]}, trump="7O", stock=["12O"]
    )
    return play(state, "1C", "4C")


def test_black_hand_formed_by_a_draw_counts_any_time_spec_2_5() -> None:
    state = _black_by_draw(Rules(black_hand="any_time", black_hand_claim="automatic"))
    assert state.is_over and brisca.result(state).black_hand == 0


def test_black_hand_formed_by_a_draw_does_not_count_deal_only_spec_2_5() -> None:
    state = _black_by_draw(Rules(black_hand="deal_only"))
    assert "only a dealt black hand" in refusal(state, ClaimBlackHand())


def test_black_hand_formed_by_a_swap_spec_2_5() -> None:
    rules = Rules(black_hand="any_time", swap_enabled=True)
    state = stacked(rules, {0: ["1O", "3O", "7O"]}, trump="12O")
    assert "claim" not in legal_codes(state)  # the turned 12 blocks it
    state = brisca.apply(state, Swap("7O"))
    assert "claim" in legal_codes(state)


def test_partners_cards_never_combine_s003() -> None:
    rules = Rules(num_players=4, team_mode="partners_opposite", black_hand="any_time")
    state = stacked(rules, {0: ["1O", "3O"], 2: ["12O"]}, trump="7O")
    assert "does not hold" in refusal(state, ClaimBlackHand())


def test_black_hand_off_by_default() -> None:
    state = stacked(Rules(), {0: ["1O", "3O", "12O"]}, trump="7O")
    assert "off" in refusal(state, ClaimBlackHand())


# §2.9 Signals.

SIGNALLING = brisca.preset("spanish-4p")  # public, s000, pre_hand


def test_honest_signals_only_s000() -> None:
    """S000: signals 'must be used honestly': a false one is refused."""
    state = stacked(SIGNALLING, {0: ["1O", "4C", "5C"]}, trump="7O")
    assert "signal lip_bite" in legal_codes(state)
    assert "false signal" in refusal(state, Signal("wink"))
    assert "false signal" in refusal(state, Signal("head_shake"))


def test_head_shake_means_no_trumps_s000() -> None:
    state = stacked(SIGNALLING, {0: ["1C", "4C", "5C"]}, trump="7O")
    assert {c for c in legal_codes(state) if c.startswith("signal")} == {"signal head_shake"}


def test_one_signal_a_hand_and_only_before_it_s000() -> None:
    state = stacked(SIGNALLING, {0: ["1O", "3O", "5C"], 1: ["4C"]}, trump="7O")
    state = brisca.apply(state, Signal("wink"))
    assert "already" in refusal(state, Signal("wink"))
    state = play(state, "5C", "4C")
    state = play(state, *[str(state.hands[s][0]) for s in (2, 3)])
    assert "pre_hand" in refusal(state, Signal("head_shake"))


def test_no_signal_in_the_first_trick_wbi() -> None:
    rules = attrs.evolve(SIGNALLING, signal_timing="after_first_trick")
    state = stacked(rules, {0: ["1C", "4C", "5C"]}, trump="7O")
    assert "after_first_trick" in refusal(state, Signal("head_shake"))


def test_team_private_signals_reach_partners_only_spec_2_9() -> None:
    rules = attrs.evolve(SIGNALLING, signals="team_private")
    state = brisca.apply(stacked(rules, {0: ["1C", "4C", "5C"]}, trump="7O"), Signal("head_shake"))
    assert [s.signal for s in brisca.observe(state, 2).signals] == ["head_shake"]
    assert brisca.observe(state, 1).signals == () == brisca.observe(state, 3).signals


def test_public_signals_reach_everyone_aw() -> None:
    state = brisca.apply(
        stacked(SIGNALLING, {0: ["1C", "4C", "5C"]}, trump="7O"), Signal("head_shake")
    )
    assert all(len(brisca.observe(state, s).signals) == 1 for s in range(4))


def test_traditional_vocabulary_wbi_rdo() -> None:
    rules = attrs.evolve(SIGNALLING, signal_vocabulary="traditional")
    state = stacked(rules, {0: ["12O", "11O", "5C"]}, trump="7O")
    signals = {c for c in legal_codes(state) if c.startswith("signal")}
    assert signals == {"signal eyes_up", "signal shoulder"}
    assert "vocabulary" in refusal(state, Signal("lip_bite"))


def test_signals_need_partners_spec_2_9() -> None:
    with pytest.raises(RulesError, match="partners"):
        Rules(signals="public")


# §2.1 partner_hand_visibility and §2.6 rank_scheme.


def test_partners_see_each_others_dealt_hands_wb() -> None:
    rules = Rules(
        num_players=4, team_mode="partners_opposite", partner_hand_visibility="show_after_deal"
    )
    state = brisca.new_game(rules, seed=8)
    assert brisca.observe(state, 0).partner_hands == ((2, state.hands[2]),)
    assert brisca.observe(state, 1).partner_hands == ((3, state.hands[3]),)


def test_chilean_two_beats_the_king_and_the_three_cl() -> None:
    """CL (weakly sourced): the 2 takes the 3's place: it beats the Rey, and is worth 10."""
    rules = Rules(rank_scheme="chilean_two_high")
    state = play(stacked(rules, {0: ["12C"], 1: ["2C"]}, trump="7O"), "12C", "2C")
    assert state.tricks[0].winner == 1 and state.tricks[0].points == 14
    state = play(stacked(rules, {0: ["3C"], 1: ["4C"]}, trump="7O"), "3C", "4C")
    assert state.tricks[0].winner == 1 and state.tricks[0].points == 0
    assert sum(rules.card_points(c) for c in rules.cards) == 120


def test_chilean_three_player_removal_must_stay_blank_cl() -> None:
    with pytest.raises(RulesError, match="worth 10"):
        Rules(num_players=3, rank_scheme="chilean_two_high")


# §3 presets.


def test_variant_presets_of_spec_3() -> None:
    p = brisca.preset
    for name in ("arrastre-2p", "arrastre-4p"):
        rules = p(name)
        assert rules.play_obligation is brisca.PlayObligation.ARRASTRE_AFTER_STOCK
        assert rules.arrastre_must_beat and rules.arrastre_overtrump is brisca.Overtrump.REQUIRED
        assert rules.arrastre_cannot_overtrump is brisca.CannotOvertrump.FREE
    assert p("arrastre-4p").team_mode is brisca.TeamMode.PARTNERS_OPPOSITE
    assert p("cubierta-2p") == attrs.evolve(p("spanish-2p"), trump_visibility="cubierta")
    for name, n in (("casino-2p", 2), ("casino-4p", 4)):
        rules = p(name)
        assert rules.num_players == n and rules.first_dealer is brisca.FirstDealer.RANDOM
        assert rules.black_hand is brisca.BlackHand.ANY_TIME
        assert rules.black_hand_claim is brisca.BlackHandClaim.DECLARE
        assert rules.tie_rule is brisca.TieRule.LAST_TRICK and rules.match_target == 3
        assert all(getattr(rules, k) == v for k, v in SWAP_BUNDLES["casino"].items())
    for n in (2, 3, 4):
        rules = p(f"puerto-rican-{n}p")
        assert all(getattr(rules, k) == v for k, v in SWAP_BUNDLES["puerto_rican"].items())
    four = p("spanish-4p")
    assert (four.signals, four.signal_vocabulary, four.signal_timing) == (
        brisca.Signals.PUBLIC,
        brisca.SignalVocabulary.S000,
        brisca.SignalTiming.PRE_HAND,
    )
