"""Matches (SPEC §1.4, §2.1, §2.6, §3, §4 T11/T22/T25): the first dealer, dealer rotation,
ties and stakes, every match mode, 5 players in rotation, results and JSON.

Hands with a wanted outcome come from a deterministic search: seeded random
games are played until one ends as wanted, and the match is then dealt that
game's deck and given its actions. Expected standings are worked out from the
rules, never read back from the code.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import pickle
import random
from collections.abc import Callable, Sequence
from fractions import Fraction

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import any_json

import brisca
from brisca import (
    BriscaError,
    Card,
    HandResult,
    IllegalActionError,
    NotationError,
    Play,
    Rules,
    RulesError,
    State,
    StateError,
)
from brisca.formats.saves import dumps_match, loads_match
from brisca.game.match import (
    HandRecord,
    Match,
    hand_value,
    match_apply,
    match_is_legal,
    match_legal_actions,
    match_observe,
    match_result,
    new_match,
)
from brisca.game.rng import Generator
from brisca.game.state import BlackHandWin, Termination

#: Trick order, strongest first (SPEC §1.2), for cut_high.
TRICK_ORDER = (1, 3, 12, 11, 10, 9, 8, 7, 6, 5, 4, 2)


# Finding hands with a wanted outcome.


@attrs.frozen
class Hand:
    """A hand to deal in a match: its deck, the actions to play and who deals it."""

    deck: tuple[Card, ...]
    actions: tuple[brisca.Action, ...]
    dealer: int


def opening_deck(state: State) -> tuple[Card, ...]:
    """The deck order that deals `state`: the deal round by round, the turned, the stock."""
    n = state.rules.num_players
    seated = {seat for side in state.sides for seat in side}
    active = [s for s in ((state.dealer + k) % n for k in range(1, n + 1)) if s in seated]
    order = [state.hands[s][k] for k in range(3) for s in active]
    if state.trump_card is not None:
        order.append(state.trump_card)
    return (*order, *state.stock)


def _wins(trick: Sequence[tuple[int, Card]], trump: brisca.Suit | None) -> int:
    trumps = [(s, c) for s, c in trick if c.suit is trump]
    pool = trumps or [(s, c) for s, c in trick if c.suit is trick[0][1].suit]
    return max(pool, key=lambda pair: TRICK_ORDER[::-1].index(pair[1].rank))[0]


def _favouring(state: State, seat: int, rng: random.Random) -> brisca.Action:
    """A move that helps `seat`'s side take the points (only to find lopsided hands fast)."""
    options = brisca.legal_actions(state)
    me = state.to_act
    friend = any(me in side and seat in side for side in state.sides)
    winning = [a for a in options if _wins((*state.trick, (me, a.card)), state.trump) == me]
    points = sorted(options, key=lambda a: (a.card.points, rng.random()))
    if friend:
        return max(winning, key=lambda a: a.card.points) if winning else points[0]
    losing = [a for a in options if a not in winning] if state.trick else options
    return max(losing, key=lambda a: a.card.points) if losing else points[0]


def random_hand(
    rules: Rules, dealer: int, seed: int, favour: int | None = None
) -> tuple[Hand, HandResult]:
    """The hand dealt from `seed` by `dealer`, played at random (or favouring a seat)."""
    rng = random.Random(seed)
    state = brisca.new_game(rules, seed=seed, dealer=dealer)
    deck = opening_deck(state)
    actions = []
    while not state.is_over:
        if favour is None:
            options = brisca.legal_actions(state)
            action = options[rng.randrange(len(options))]
        else:
            action = _favouring(state, favour, rng)
        actions.append(action)
        state = brisca.apply(state, action)
    return Hand(deck, tuple(actions), dealer), brisca.result(state)


@functools.cache
def find_hand(
    rules: Rules,
    dealer: int,
    wanted: Callable[[HandResult], bool],
    favour: int | None = None,
) -> Hand:
    """The first hand dealt by `dealer` whose result satisfies `wanted` (a seed search)."""
    for seed in range(20000):
        hand, result = random_hand(rules, dealer, seed, favour)
        if wanted(result):
            return hand
    raise AssertionError("no such hand found")


@functools.cache
def points(*wanted: int) -> Callable[[HandResult], bool]:
    """A hand whose sides took exactly these card points."""
    return lambda r: r.points == wanted


@functools.cache
def won_by(side: int) -> Callable[[HandResult], bool]:
    return lambda r: r.winner == side


@functools.cache
def tie() -> Callable[[HandResult], bool]:
    return lambda r: r.winner is None and len(r.tied) > 1


def play(m: Match, hand: Hand) -> Match:
    """Play `hand` in `m`, checking that `m` deals it as the rules say it must."""
    assert m.dealer == hand.dealer, "the match dealt with another dealer"
    assert m.state == brisca.new_game(
        m.rules, deck=hand.deck, dealer=hand.dealer, hand_number=m.hand_number
    )
    for action in hand.actions:
        m = match_apply(m, action)
    return m


def start(rules: Rules, hands: Sequence[Hand]) -> Match:
    """A match dealt from these hands' decks, its first dealer agreed; one spare deck (the
    pack in order) deals the hand after them."""
    decks = [*(h.deck for h in hands), rules.cards]
    return new_match(rules, seed=0, decks=decks, dealer=hands[0].dealer)


def play_all(rules: Rules, hands: Sequence[Hand]) -> list[Match]:
    """The match after each hand, the start first."""
    matches = [start(rules, hands)]
    for hand in hands:
        matches.append(play(matches[-1], hand))
    return matches


def standings(m: Match) -> list[Fraction]:
    return list(m.standings)


# The first dealer (SPEC §1.4, §2.1).


def test_cut_low_ace_low_deals_t11_s000() -> None:
    """T11: cuts 1, 5 and 12: the seat that cut the 1 deals (the ace is low for the cut)."""
    rules = Rules(num_players=3)
    for seed in range(20000):
        m = new_match(rules, seed=seed)
        if len(m.cut) == 1 and sorted(c.rank for _, c in m.cut[0]) == [1, 5, 12]:
            break
    else:
        raise AssertionError("no cut of 1, 5, 12 found")
    ace = next(seat for seat, c in m.cut[0] if c.rank == 1)
    assert m.first_dealer == ace and m.dealer == ace
    assert m.to_act == (ace + 1) % 3


def test_dealer_right_leads_and_deals_next_t11_s000() -> None:
    """T11: dealer 0 at 4 players: seat 1 leads, and seat 1 deals the next hand."""
    rules = brisca.Rules(num_players=4, team_mode="partners_opposite")
    first = find_hand(rules, 0, won_by(0))
    m = start(rules, [first])
    assert m.to_act == 1
    m = play(m, first)
    assert m.dealer == 1 and m.to_act == 2


def _check_cut(m: Match, key: Callable[[Card], int]) -> int:
    """Check the cut record round by round; `key` ranks the best card highest. Re-cuts seen."""
    rules = m.rules
    cutters = tuple(range(rules.num_players))
    for k, cut in enumerate(m.cut):
        assert tuple(seat for seat, _ in cut) == cutters, "only the tied seats cut again"
        cards = [c for _, c in cut]
        assert len(set(cards)) == len(cards) and set(cards) <= set(rules.cards)
        best = max(key(c) for c in cards)
        cutters = tuple(seat for seat, c in cut if key(c) == best)
        if k < len(m.cut) - 1:
            assert len(cutters) > 1, "a round without a tie ends the cut"
    assert len(cutters) == 1 and m.first_dealer == cutters[0] == m.dealer
    return len(m.cut) - 1


@pytest.mark.parametrize("n", [2, 4, 6])
def test_cut_ties_recut_among_the_tied_s000_p(n: int) -> None:
    """SPEC §1.4 [P]: seats that tie for the low card cut again, only they, until one is low."""
    rules = Rules(num_players=n, deck="spanish48" if n == 6 else "spanish40")
    recuts = sum(_check_cut(new_match(rules, seed=s), lambda c: -c.rank) for s in range(150))
    assert recuts > 0


def test_cut_high_deals_highest_in_trick_order_fou_rjn_e2() -> None:
    """cut_high [P]: the highest card in trick order deals, so a 3 beats a 12; ties re-cut."""
    rules = Rules(first_dealer="cut_high")
    strength = {rank: len(TRICK_ORDER) - i for i, rank in enumerate(TRICK_ORDER)}
    recuts = sum(
        _check_cut(new_match(rules, seed=s), lambda c: strength[c.rank]) for s in range(150)
    )
    assert recuts > 0
    for seed in range(20000):
        m = new_match(rules, seed=seed)
        if [sorted(c.rank for _, c in cut) for cut in m.cut] == [[3, 12]]:
            break
    else:
        raise AssertionError("no cut of 3 and 12 found")
    assert m.first_dealer == next(seat for seat, c in m.cut[0] if c.rank == 3)


def test_random_first_dealer_s003() -> None:
    """first_dealer='random': Generator(seed).below(num_players) picks the seat; no cut."""
    rules = Rules(num_players=4, first_dealer="random")
    dealers = set()
    for seed in range(40):
        m = new_match(rules, seed=seed)
        assert m.cut == ()
        assert m.first_dealer == Generator(seed).below(4)
        dealers.add(m.first_dealer)
    assert dealers == {0, 1, 2, 3}


def test_agreed_dealer_skips_the_cut() -> None:
    m = new_match(Rules(), seed=3, dealer=0)
    assert (m.cut, m.first_dealer, m.dealer, m.first_dealer_agreed) == ((), 0, 0, True)


@pytest.mark.parametrize("first_dealer", ["cut_low_ace_low", "cut_high", "random", None])
def test_hand_seeds_follow_the_documented_stream(first_dealer: str | None) -> None:
    """One Generator(seed) stream: the first-dealer draws, then below(2**128) per deal."""
    rules = Rules(first_dealer=first_dealer or "random")
    seed = 2024
    gen = Generator(seed)
    if first_dealer is None:
        m = new_match(rules, seed=seed, dealer=1)
    else:
        m = new_match(rules, seed=seed)
        if first_dealer == "random":
            assert gen.below(2) == m.first_dealer
        for cut in m.cut:
            shuffled = gen.shuffle(rules.cards)
            assert [c for _, c in cut] == shuffled[: len(cut)]
    for _ in range(3):
        assert m.state is not None
        assert m.state == brisca.new_game(
            rules, seed=gen.below(2**128), dealer=m.dealer, hand_number=m.hand_number
        )
        number = m.hand_number
        while m.hand_number == number and not m.is_over:
            m = match_apply(m, match_legal_actions(m)[0])


def test_no_seed_draws_and_records_one() -> None:
    """Without a seed, a fresh one is drawn and recorded, so the match can be replayed."""
    m = new_match(Rules())
    assert isinstance(m.seed, int) and m.seed >= 0
    assert new_match(Rules(), seed=m.seed) == m


# Margins and capote (SPEC §2.6, T22).

MARGINS = Rules(match_mode="game_points", margin_points=True)


@pytest.mark.parametrize(
    ("taken", "value"), [(61, 1), (75, 1), (90, 1), (91, 2), (100, 2), (118, 2), (120, 3)]
)
def test_margin_points_t22_s000(taken: int, value: int) -> None:
    """T22: 61-90 -> 1 game point, 91-119 -> 2, 120 (capote) -> 3."""
    tricks = (20, 0) if taken == 120 else (15, 5)
    result = HandResult(
        termination=Termination.PLAYED_OUT,
        sides=((0,), (1,)),
        points=(taken, 120 - taken),
        winner=0,
        last_trick=0,
    )
    assert hand_value(MARGINS, result, tricks) == value
    without = attrs.evolve(MARGINS, margin_points=False)
    assert hand_value(without, result, tricks) == 1


def test_sixty_sixty_scores_nothing_t22_s000() -> None:
    """T22: 60-60 is a tie: nobody wins a game point."""
    result = HandResult(
        termination=Termination.PLAYED_OUT,
        sides=((0,), (1,)),
        points=(60, 60),
        winner=None,
        tied=(0, 1),
        replay=True,
        last_trick=1,
    )
    assert hand_value(MARGINS, result, (10, 10)) == 0


def test_margin_points_in_a_match_t22_s000() -> None:
    """T22 over a match: 61 -> 1, 91 -> 2, 90 -> 1, a 60-60 tie replayed, 118 -> 2, 100 -> 2."""
    rules = attrs.evolve(MARGINS, match_target=6)
    hands = [
        find_hand(rules, 1, points(61, 59)),
        find_hand(rules, 0, points(29, 91)),
        find_hand(rules, 1, points(90, 30)),
        find_hand(rules, 0, points(60, 60)),
        find_hand(rules, 0, points(2, 118), favour=1),
        find_hand(rules, 1, points(100, 20), favour=0),
    ]
    after = play_all(rules, hands)
    assert [standings(m) for m in after] == [
        [0, 0], [1, 0], [1, 2], [2, 2], [2, 2], [2, 4], [4, 4],
    ]  # fmt: skip
    assert after[4].hands[-1].replayed and after[4].dealer == 0
    assert not after[-1].is_over


def test_ffa_winner_under_61_scores_one_p() -> None:
    """SPEC §2.6 [P]: a free-for-all winner with fewer than 61 points gets 1 game point."""
    rules = Rules(num_players=3, match_mode="game_points", margin_points=True)
    result = HandResult(
        termination=Termination.PLAYED_OUT,
        sides=((0,), (1,), (2,)),
        points=(50, 40, 30),
        winner=0,
        last_trick=0,
    )
    assert hand_value(rules, result, (5, 4, 4)) == 1
    hand = find_hand(rules, 2, lambda r: r.winner is not None and r.points[r.winner] < 61)
    m = play(start(rules, [hand]), hand)
    winner = m.hands[0].result.winner
    assert winner is not None
    assert m.standings[winner] == 1 and sum(m.standings) == 1


def capote_hand(all_tricks: bool) -> Hand:
    """A 2-player hand, dealer 1, in which seat 0 takes all 120 points: in every trick, or in
    all but the last, which seat 1 wins with the 4 of espadas over the 2 (no points)."""
    c = Card.parse
    a = [c(f"{r}C") for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]
    a += [c(f"{r}O") for r in (1, 3, 4, 5, 6, 7, 10, 11, 12)] + [c("2E")]
    others = [c(f"{r}{s}") for s in "EB" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]
    rest = [x for x in others if x not in (c("2E"), c("4E"))]  # ends with the 12 of bastos
    # Seat 1's 19th card meets the 2 of espadas in the last trick: the 4E wins it, a basto not.
    b = [*([c("4E")] if all_tricks else []), *rest, *([] if all_tricks else [c("4E")])]
    b.append(c("2O"))  # the turned, drawn last by seat 1
    assert len(a) == len(b) == 20 and len(set(a + b)) == 40
    deck = [a[0], b[0], a[1], b[1], a[2], b[2], c("2O")]
    deck += [x for k in range(3, 19) for x in (a[k], b[k])] + [a[19]]
    plays = [(a[k], b[k]) for k in range(17)] + [(a[17], b[19]), (a[18], b[17]), (a[19], b[18])]
    return Hand(tuple(deck), tuple(Play(x) for pair in plays for x in pair), 1)


@pytest.mark.parametrize(
    ("all_tricks", "definition", "value"),
    [
        (True, "all_points", 3),
        (True, "all_tricks", 3),
        (False, "all_points", 3),
        (False, "all_tricks", 2),
    ],
)
def test_capote_definitions_s000_cl(all_tricks: bool, definition: str, value: int) -> None:
    """Capote: all 120 points (S000) or every trick (CL); 120 points without every trick
    is 2 game points under all_tricks."""
    rules = attrs.evolve(MARGINS, capote_definition=definition)
    hand = capote_hand(all_tricks)
    m = play(start(rules, [hand]), hand)
    record = m.hands[0]
    assert record.result.points == (120, 0)
    assert record.tricks_won == ((20, 0) if all_tricks else (19, 1))
    assert standings(m) == [value, 0]
    assert m.is_over == (value >= 3)


# Hands won and single hands (S000).


def test_hands_won_first_to_target_s000() -> None:
    """hands_won: the first to match_target hands won takes the match; the deal rotates."""
    rules = Rules(match_target=2)
    hands = [
        find_hand(rules, 1, won_by(0)),
        find_hand(rules, 0, won_by(1)),
        find_hand(rules, 1, won_by(0)),
    ]
    after = play_all(rules, hands)
    assert [standings(m) for m in after] == [[0, 0], [1, 0], [1, 1], [2, 1]]
    assert [m.is_over for m in after] == [False, False, False, True]
    outcome = match_result(after[-1])
    assert (outcome.winners, outcome.winner, outcome.sides) == ((0,), 0, ((0,), (1,)))
    assert [h.dealer for h in outcome.hands] == [1, 0, 1]


def test_hands_won_by_partners_credit_both_seats_s000() -> None:
    """4 players: both partners of the winning side are credited; the side is the winner."""
    rules = Rules(num_players=4, team_mode="partners_opposite", match_target=1)
    hand = find_hand(rules, 3, won_by(1))
    m = play(start(rules, [hand]), hand)
    outcome = match_result(m)
    assert standings(m) == [0, 1, 0, 1]
    assert (outcome.winners, outcome.winner, outcome.side_standings) == ((1, 3), 1, (0, 1))


def test_single_hand_one_hand_is_the_match() -> None:
    """single_hand: the first hand decides the match."""
    rules = Rules(match_mode="single_hand")
    hand = find_hand(rules, 1, won_by(1))
    m = play(start(rules, [hand]), hand)
    assert m.is_over and match_result(m).winners == (1,) and standings(m) == [0, 1]
    assert match_legal_actions(m) == ()


def test_single_hand_tie_replays_under_replay_s004() -> None:
    """single_hand with tie_rule='replay': a 60-60 hand is dealt again by the same dealer."""
    rules = Rules(match_mode="single_hand")
    hands = [find_hand(rules, 1, tie()), find_hand(rules, 1, won_by(0))]
    after = play_all(rules, hands)
    assert not after[1].is_over and after[1].dealer == 1
    assert after[2].is_over and match_result(after[2]).winners == (0,)
    assert [h.replayed for h in after[2].hands] == [True, False]


def test_single_hand_tie_is_a_draw_under_draw_s002() -> None:
    rules = Rules(match_mode="single_hand", tie_rule="draw")
    hand = find_hand(rules, 1, tie())
    m = play(start(rules, [hand]), hand)
    outcome = match_result(m)
    assert m.is_over and outcome.is_draw and outcome.winner is None
    assert standings(m) == [0, 0]


# Ties across hands (SPEC §2.6 tie_rule).


def test_replay_deals_again_with_the_same_dealer_s004() -> None:
    """replay: a tie counts nothing; the same dealer deals again; the stake stays 1."""
    rules = Rules(match_target=3)
    hands = [
        find_hand(rules, 1, tie()),
        find_hand(rules, 1, tie()),
        find_hand(rules, 1, won_by(1)),
    ]
    after = play_all(rules, hands)
    assert [m.dealer for m in after[:3]] == [1, 1, 1] and after[3].dealer == 0
    assert [m.stake for m in after] == [1, 1, 1, 1]
    assert [m.ties for m in after] == [0, 1, 2, 0]
    assert standings(after[-1]) == [0, 1]


def test_replay_double_stake_doubles_on_each_consecutive_tie_s000() -> None:
    """replay_double_stake: after k ties in a row the next hand counts 2^k, then 1 again."""
    rules = brisca.Rules(tie_rule="replay_double_stake", match_target=9)
    hands = [
        find_hand(rules, 1, tie()),
        find_hand(rules, 1, tie()),
        find_hand(rules, 1, won_by(0)),  # counts x4
        find_hand(rules, 0, tie()),
        find_hand(rules, 0, won_by(1)),  # counts x2
        find_hand(rules, 1, won_by(1)),  # counts x1
    ]
    after = play_all(rules, hands)
    assert [m.stake for m in after] == [1, 2, 4, 1, 2, 1, 1]
    assert [h.stake for h in after[-1].hands] == [1, 2, 4, 1, 2, 1]
    assert [standings(m) for m in after] == [
        [0, 0], [0, 0], [0, 0], [4, 0], [4, 0], [4, 2], [4, 3],
    ]  # fmt: skip


def test_double_stake_in_game_points_multiplies_the_margin_s000() -> None:
    rules = attrs.evolve(MARGINS, tie_rule="replay_double_stake", match_target=9)
    hands = [find_hand(rules, 1, points(60, 60)), find_hand(rules, 1, points(95, 25), favour=0)]
    assert standings(play_all(rules, hands)[-1]) == [4, 0]  # 2 game points x2


def test_half_each_credits_half_a_hand_to_each_tied_side_s004() -> None:
    """half_each: a tie gives each side half; equal standings at the target play on."""
    rules = Rules(tie_rule="half_each", match_target=1)
    hands = [
        find_hand(rules, 1, tie()),
        find_hand(rules, 0, tie()),
        find_hand(rules, 1, won_by(1)),
    ]
    after = play_all(rules, hands)
    half = Fraction(1, 2)
    assert [standings(m) for m in after] == [[0, 0], [half, half], [1, 1], [1, 2]]
    assert [m.is_over for m in after] == [False, False, False, True]
    assert after[-1].hands[0].credits == (half, half)
    assert match_result(after[-1]).winners == (1,)


def test_draw_counts_nothing_and_the_deal_passes_s002() -> None:
    rules = Rules(tie_rule="draw", match_target=1)
    hands = [find_hand(rules, 1, tie()), find_hand(rules, 0, won_by(0))]
    after = play_all(rules, hands)
    assert standings(after[1]) == [0, 0] and after[1].dealer == 0 and after[1].stake == 1
    assert not after[1].hands[0].replayed
    assert after[2].is_over and match_result(after[2]).winners == (0,)


def test_last_trick_wins_a_tie_s003_pi() -> None:
    """last_trick: a 60-60 hand goes to the side that won the last trick."""
    rules = Rules(tie_rule="last_trick", match_target=1)
    hand = find_hand(rules, 1, points(60, 60))
    final = brisca.new_game(rules, deck=hand.deck, dealer=1)
    for action in hand.actions:
        final = brisca.apply(final, action)
    last = final.tricks[-1].winner
    m = play(start(rules, [hand]), hand)
    assert m.is_over and match_result(m).winners == (last,)
    assert m.standings[last] == 1 and m.standings[1 - last] == 0


def test_last_trick_outside_the_tie_is_a_draw_p() -> None:
    """SPEC §2.6 [P]: FFA under last_trick, the last trick's winner not among the tied: draw."""
    rules = Rules(num_players=3, tie_rule="last_trick", match_mode="single_hand")
    hand = find_hand(rules, 2, lambda r: len(r.tied) > 1 and r.winner is None)
    m = play(start(rules, [hand]), hand)
    assert m.is_over and match_result(m).is_draw and sum(m.standings) == 0


# Rematada (S000, T25).

REMATADA = Rules(
    num_players=4,
    team_mode="partners_opposite",
    match_mode="cumulative_card_points",
    match_target=101,
)


def test_rematada_t25() -> None:
    """T25: hands of 70-50 and 40-80 make 110-130: both pass 101, the second side wins."""
    hands = [find_hand(REMATADA, 3, points(70, 50)), find_hand(REMATADA, 0, points(40, 80))]
    after = play_all(REMATADA, hands)
    assert standings(after[1]) == [70, 50, 70, 50] and not after[1].is_over
    assert standings(after[2]) == [110, 130, 110, 130] and after[2].is_over
    outcome = match_result(after[2])
    assert (outcome.winners, outcome.winner, outcome.side_standings) == ((1, 3), 1, (110, 130))


def test_rematada_equal_totals_play_another_hand_p() -> None:
    """SPEC §2.6 [P]: both sides past 101 with equal totals: another hand is played."""
    hands = [
        find_hand(REMATADA, 3, points(70, 50)),
        find_hand(REMATADA, 0, points(50, 70)),
        find_hand(REMATADA, 1, points(41, 79)),
    ]
    after = play_all(REMATADA, hands)
    assert standings(after[2]) == [120, 120, 120, 120] and not after[2].is_over
    assert standings(after[3]) == [161, 199, 161, 199] and after[3].is_over
    assert match_result(after[3]).winner == 1


def test_rematada_counts_a_sixty_sixty_hand_p() -> None:
    """[P]: in rematada every hand adds its card points; a 60-60 hand is not replayed."""
    hands = [find_hand(REMATADA, 3, points(60, 60)), find_hand(REMATADA, 0, points(45, 75))]
    after = play_all(REMATADA, hands)
    assert standings(after[1]) == [60, 60, 60, 60] and after[1].dealer == 0
    assert not after[1].hands[0].replayed
    assert standings(after[2]) == [105, 135, 105, 135] and after[2].is_over


# Dealer rotation (SPEC §2.1).


def test_winner_deals_dp_p() -> None:
    """winner_deals [P]: the winning side's first seat after the dealer deals; after a
    draw, the next seat."""
    rules = Rules(
        num_players=4, team_mode="partners_opposite", dealer_rotation="winner_deals",
        tie_rule="draw", match_target=9,
    )  # fmt: skip
    hands = [
        find_hand(rules, 3, won_by(0)),  # {0, 2} won: seat 0 is first after 3
        find_hand(rules, 0, won_by(0)),  # {0, 2} won: seat 2 is first after 0
        find_hand(rules, 2, won_by(1)),  # {1, 3} won: seat 3 is first after 2
        find_hand(rules, 3, tie()),  # a draw: the next seat, 0
        find_hand(rules, 0, won_by(1)),
    ]
    after = play_all(rules, hands)
    assert [m.dealer for m in after] == [3, 0, 2, 3, 0, 1]


def test_winner_deals_two_players_dp() -> None:
    rules = Rules(dealer_rotation="winner_deals", match_target=9)
    hands = [
        find_hand(rules, 1, won_by(1)),  # the dealer won: deals again
        find_hand(rules, 1, won_by(0)),
        find_hand(rules, 0, won_by(0)),
    ]
    assert [m.dealer for m in play_all(rules, hands)] == [1, 1, 0, 0]


def test_five_players_sit_out_in_rotation_s000() -> None:
    """spanish-5p: the dealer sits out and is credited nothing; each active seat gets its
    side's result; partnerships change with the dealer."""
    rules = attrs.evolve(brisca.preset("spanish-5p"), match_target=2)
    hands = [
        find_hand(rules, 4, won_by(0)),  # sides {0, 2} v {1, 3}; 4 sits out
        find_hand(rules, 0, won_by(0)),  # sides {1, 3} v {2, 4}; 0 sits out
        find_hand(rules, 1, won_by(1)),  # sides {0, 3} v {2, 4}; 1 sits out
    ]
    after = play_all(rules, hands)
    assert [m.hands[-1].result.sides for m in after[1:]] == [
        ((0, 2), (1, 3)), ((1, 3), (2, 4)), ((0, 3), (2, 4)),
    ]  # fmt: skip
    assert [standings(m) for m in after] == [
        [0, 0, 0, 0, 0], [1, 0, 1, 0, 0], [1, 1, 1, 1, 0], [1, 1, 2, 1, 1],
    ]  # fmt: skip
    # Seat 2 alone reached 2: its partner of the last hand, seat 4, has 1.
    outcome = match_result(after[-1])
    assert (outcome.winners, outcome.winner, outcome.sides) == ((2,), None, None)


# Decks.


def test_each_deal_takes_the_next_deck_replays_included() -> None:
    rules = Rules()
    hands = [find_hand(rules, 1, tie()), find_hand(rules, 1, won_by(0))]
    after = play_all(rules, hands)  # play() checks that each deal is its deck
    assert after[2].hand_number == 2


def test_running_out_of_decks_is_a_state_error() -> None:
    rules = Rules()
    hand = find_hand(rules, 1, won_by(0))
    m = new_match(rules, seed=0, decks=[hand.deck], dealer=1)
    for action in hand.actions[:-1]:
        m = match_apply(m, action)
    before = copy.deepcopy(m)
    with pytest.raises(StateError, match="needs a deck for deal 1"):
        match_apply(m, hand.actions[-1])
    assert m == before


# Black hand (SPEC §2.5).


@pytest.mark.parametrize("mode", ["hands_won", "game_points", "cumulative_card_points"])
def test_black_hand_counts_as_a_hand_won_s003(mode: str) -> None:
    """A black hand wins the round: one hand won, 1 game point without margin, and [P]
    a whole hand's 120 card points in rematada."""
    rules = Rules(match_mode=mode, margin_points=True, match_target=100)
    # Formed mid-hand with 95 card points in: still one hand won, no margin.
    result = HandResult(
        termination=Termination.BLACK_HAND,
        sides=((0,), (1,)),
        points=(0, 95),
        winner=1,
        last_trick=1,
        details=BlackHandWin(1),
    )
    assert hand_value(rules, result, (0, 9)) == (120 if mode == "cumulative_card_points" else 1)


def test_black_hand_dealt_ends_the_hand_at_once_s003() -> None:
    """A black hand shown at the deal ends that hand before any play; the next is dealt."""
    if "black_hand_claim" not in attrs.fields_dict(Rules):
        pytest.skip("the engine has no black hand yet")
    rules = Rules(black_hand="deal_only", black_hand_claim="automatic", match_target=2)
    c = Card.parse
    mine = [c("1O"), c("3O"), c("12O")]
    rest = [x for x in rules.cards if x not in (*mine, c("7O"))]
    # Dealer 1: seat 0 receives the 1st, 3rd and 5th cards; the turned is the 7th.
    deck = [mine[0], rest[0], mine[1], rest[1], mine[2], rest[2], c("7O"), *rest[3:]]
    follow = find_hand(rules, 0, won_by(1))
    m = new_match(rules, seed=0, decks=[deck, follow.deck], dealer=1)
    assert m.hand_number == 1 and m.dealer == 0
    assert m.hands[0].result.black_hand == 0 and standings(m) == [1, 0]
    assert m.actions == ((), ())


# Observation, result, JSON.


def test_observation_is_the_hand_view_plus_the_public_record() -> None:
    rules = Rules(match_target=2)
    hand = find_hand(rules, 1, won_by(0))
    m = play(start(rules, [hand]), hand)
    m = match_apply(m, match_legal_actions(m)[0])
    for seat in (0, 1):
        view = match_observe(m, seat)
        assert m.state is not None
        assert view.current == brisca.observe(m.state, seat)
        assert (view.standings, view.hands, view.cut, view.stake) == (
            m.standings, m.hands, m.cut, m.stake,
        )  # fmt: skip
        assert (view.dealer, view.to_act, view.hand_number) == (0, m.to_act, 1)
        assert not hasattr(view, "seed") and not hasattr(view, "decks")


def test_round_trip_mid_hand_and_finished() -> None:
    rules = Rules(match_target=1)
    hand = find_hand(rules, 1, won_by(0))
    m = start(rules, [hand])
    for action in hand.actions:
        assert loads_match(dumps_match(m)) == m
        m = match_apply(m, action)
    assert m.is_over and loads_match(dumps_match(m)) == m
    record = json.loads(dumps_match(m))
    assert record["format"] == "brisca-match" and record["version"] == 1
    assert record["standings"] == [[1, 1], [0, 1]]


def test_match_result_before_the_end_is_refused() -> None:
    with pytest.raises(StateError, match="not over"):
        match_result(new_match(Rules(), seed=1))


# Bad input.

MATCH = new_match(Rules(num_players=4, team_mode="partners_opposite"), seed=42)
SNAPSHOT = copy.deepcopy(MATCH)


@pytest.fixture(autouse=True)
def _match_unchanged() -> object:
    yield
    assert MATCH == SNAPSHOT


def test_illegal_action_changes_nothing() -> None:
    assert MATCH.state is not None
    foreign = MATCH.state.hands[((MATCH.to_act or 0) + 1) % 4][0]
    with pytest.raises(IllegalActionError, match="not in the hand"):
        match_apply(MATCH, Play(foreign))
    assert not match_is_legal(MATCH, Play(foreign))
    assert not match_is_legal(MATCH, "1O")  # type: ignore[arg-type]


def test_acting_on_a_finished_match() -> None:
    m = new_match(Rules(match_mode="single_hand"), seed=5)
    while not m.is_over:
        m = match_apply(m, match_legal_actions(m)[-1])
    with pytest.raises(IllegalActionError, match="match is over"):
        match_apply(m, Play("1O"))
    assert not match_is_legal(m, Play("1O"))
    assert match_observe(m, 0).current is None and match_observe(m, 0).is_over


@pytest.mark.parametrize("bad", [None, "match", 0, brisca.new_game(Rules(), seed=1)])
def test_not_a_match(bad: object) -> None:
    for call in (match_legal_actions, match_result, dumps_match):
        with pytest.raises(StateError, match=r"expected a brisca\.Match"):
            call(bad)  # type: ignore[arg-type]
    for call2 in (match_apply, match_is_legal, match_observe):
        with pytest.raises(StateError, match=r"expected a brisca\.Match"):
            call2(bad, Play("1O"))  # type: ignore[operator]


@pytest.mark.parametrize("seat", [-1, 4, "0", None, 1.0])
def test_observe_a_bad_seat(seat: object) -> None:
    with pytest.raises(StateError, match="seat"):
        match_observe(MATCH, seat)  # type: ignore[arg-type]


PACK = list(Rules().cards)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"seed": -1}, StateError),
        ({"seed": 1.5}, StateError),
        ({"seed": "7"}, StateError),
        ({"seed": True}, StateError),
        ({"dealer": 2}, StateError),
        ({"dealer": "0"}, StateError),
        ({"decks": []}, StateError),
        ({"decks": "1O"}, StateError),
        ({"decks": 7}, StateError),
        ({"decks": [PACK[:-1]]}, StateError),
        ({"decks": [[*PACK[:-1], PACK[0]]]}, StateError),
        ({"decks": [[*PACK[:-1], "8O"]]}, StateError),
        ({"decks": [[*PACK[:-1], "nonsense"]]}, NotationError),
        ({"decks": [PACK, 5]}, StateError),
        ({"decks": [[*PACK[:-1], 5]]}, NotationError),
    ],
)
def test_bad_new_match_arguments(kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        new_match(Rules(), **kwargs)  # type: ignore[arg-type]


def test_rules_of_the_wrong_type() -> None:
    with pytest.raises(RulesError, match=r"brisca\.Rules or a preset name"):
        new_match(2)  # type: ignore[arg-type]


def _played(m: Match, count: int) -> Match:
    for _ in range(count):
        m = match_apply(m, match_legal_actions(m)[0])
    return m


RECORD_MATCH = _played(new_match(Rules(), seed=8), 45)  # into the second hand


def _record() -> dict[str, object]:
    return json.loads(dumps_match(RECORD_MATCH))  # type: ignore[no-any-return]


def _tampered(change: Callable[[dict[str, object]], object]) -> str:
    record = _record()
    change(record)
    return json.dumps(record)


def _move_action(record: dict[str, object]) -> None:
    actions: list[list[str]] = record["actions"]  # type: ignore[assignment]
    actions[0].append(actions[1].pop(0))


def _set(path: Sequence[object], value: object) -> Callable[[dict[str, object]], None]:
    def change(record: dict[str, object]) -> None:
        target: object = record
        for key in path[:-1]:
            target = target[key]  # type: ignore[index]
        target[path[-1]] = value  # type: ignore[index]

    return change


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        (_set(["format"], "brisca-state"), NotationError, "brisca-match"),
        (_set(["version"], 2), NotationError, "version"),
        (_set(["rules", "match_target"], 0), RulesError, "match_target"),
        (_set(["rules", "colour"], "red"), RulesError, "unknown"),
        (_set(["seed"], "8"), NotationError, "seed"),
        (_set(["seed"], -8), StateError, "seed"),
        (_set(["seed"], 9), StateError, None),
        (_set(["standings"], [[2, 1], [0, 1]]), StateError, "standings"),
        (_set(["cut"], []), StateError, "cut"),
        (_set(["hands", 0, "points"], [120, 0]), StateError, "hands"),
        (_set(["stake"], 2), StateError, "stake"),
        (_set(["winners"], [0]), StateError, "winners"),
        (_set(["first_dealer"], 0), StateError, "first_dealer"),
        (_set(["first_dealer_agreed"], "yes"), NotationError, "first_dealer_agreed"),
        (_set(["actions", 1, 0], "nonsense"), NotationError, "cannot read"),
        (_set(["actions", 0, 0], "swap 7O"), StateError, "action 0 of deal 0"),
        (_set(["actions"], [["1O"]]), StateError, None),
        (_set(["actions"], "1O 2O"), NotationError, "actions"),
        (_set(["actions", 0], [1]), NotationError, "actions"),
        (_set(["decks"], [["1O"]]), StateError, "decks"),
        (_set(["decks"], "1O"), NotationError, "decks"),
        (_move_action, StateError, "does not belong"),
    ],
)
def test_corrupted_match_records_are_refused(
    change: Callable[[dict[str, object]], None], error: type[Exception], message: str | None
) -> None:
    with pytest.raises(error, match=message):
        loads_match(_tampered(change))


def test_actions_after_the_end_are_refused() -> None:
    m = new_match(Rules(match_mode="single_hand"), seed=5)
    while not m.is_over:
        m = match_apply(m, match_legal_actions(m)[0])
    record = json.loads(dumps_match(m))
    record["actions"][-1].append("1O")
    with pytest.raises(StateError):
        loads_match(json.dumps(record))


@pytest.mark.parametrize("text", ["", "{", "[]", "null", '{"format": 1}', b"\xff", "[" * 100000])
def test_malformed_match_json_is_refused(text: str) -> None:
    with pytest.raises(NotationError):
        loads_match(text)


json_values = any_json(max_leaves=12)


@given(key=st.sampled_from(sorted(_record())), value=json_values)
def test_fuzzed_match_fields_never_crash_loads(key: str, value: object) -> None:
    """Any value in any field gives the same match back or a BriscaError, nothing else."""
    record = _record()
    record[key] = value
    with contextlib.suppress(BriscaError):
        assert loads_match(json.dumps(record)) == RECORD_MATCH


# Every preset plays a whole match with one loop.


@pytest.mark.parametrize("name", sorted(brisca.PRESETS))
def test_every_preset_plays_a_whole_match_with_one_loop(name: str) -> None:
    rng = random.Random(name)
    rules = brisca.preset(name)
    if rules.has_auction:
        # Random card play rarely makes a contract, so points to 500 would take for ever;
        # hands won still run the auction, the contract and the scoring through the loop.
        rules = attrs.evolve(rules, match_mode="hands_won", match_target=2)
    m = new_match(rules, seed=11)
    steps = 0
    while not m.is_over:
        view = match_observe(m, m.to_act)  # type: ignore[arg-type]
        options = match_legal_actions(m)
        assert options and view.current is not None and view.current.to_act == m.to_act
        pick = options[rng.randrange(len(options))]
        if brisca.Pass() in options:  # open at the lowest bid, then pass: a cautious table
            opened = any(not isinstance(r.bid, brisca.Pass) for r in m.state.ledger.bids)  # type: ignore[union-attr]
            pick = options[-1] if opened else options[0]
        if steps == 10:  # a match and a view in play pickle to equal values
            assert pickle.loads(pickle.dumps(m)) == m and pickle.loads(pickle.dumps(view)) == view
        m = match_apply(m, pick)
        steps += 1
        assert steps < 20000
    outcome = match_result(m)
    assert outcome.winners and loads_match(dumps_match(m)) == m
    over = match_observe(m, 0)
    assert pickle.loads(pickle.dumps(m)) == m and pickle.loads(pickle.dumps(over)) == over


@pytest.mark.parametrize("name", ["subastada-3p", "subastada-4p", "chiamata-5p"])
def test_contract_games_credit_each_seat_its_contract_score_spec_2_7_2_8(name: str) -> None:
    """Under game_points a contract hand credits every seat its seat score (±bid, ±2/±1)."""
    m = new_match(brisca.preset(name), seed=5, dealer=0)
    while not m.hands:  # the first seat opens at the lowest bid, everyone else passes
        options = match_legal_actions(m)
        pick = options[0] if not m.state.ledger.bids else options[-1]  # type: ignore[union-attr]
        m = match_apply(m, pick)
    record = m.hands[-1]
    assert record.result.details.seat_scores
    assert record.credits == tuple(Fraction(v) for v in record.result.details.seat_scores)
    assert m.standings == record.credits


# Properties over random matches.

TABLES = [
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 4},
    {"num_players": 4, "team_mode": "partners_opposite"},
    {"num_players": 5, "team_mode": "sit_out_partners"},
    {"num_players": 6, "team_mode": "teams_alternating", "deck": "spanish48"},
]


@st.composite
def match_options(draw: st.DrawFn) -> dict[str, object]:
    """Any combination of the match options (SPEC §2.1, §2.6)."""
    mode = draw(st.sampled_from(list(brisca.MatchMode)))
    cumulative = mode is brisca.MatchMode.CUMULATIVE_CARD_POINTS
    return {
        "match_mode": mode,
        "match_target": draw(st.integers(101, 240) if cumulative else st.integers(1, 5)),
        "tie_rule": draw(st.sampled_from(list(brisca.TieRule))),
        "dealer_rotation": draw(st.sampled_from(list(brisca.DealerRotation))),
        "first_dealer": draw(st.sampled_from(list(brisca.FirstDealer))),
        "margin_points": draw(st.booleans()),
        "capote_definition": draw(st.sampled_from(list(brisca.CapoteDefinition))),
    }


@st.composite
def match_rules(draw: st.DrawFn) -> Rules:
    return Rules(**draw(st.sampled_from(TABLES)), **draw(match_options()))  # type: ignore[arg-type]


def oracle_credits(rules: Rules, result: HandResult, tricks: Sequence[int], stake: int) -> list:
    """A counted hand's credit per side, from SPEC §2.6."""
    sides = len(result.sides)
    cumulative = rules.match_mode is brisca.MatchMode.CUMULATIVE_CARD_POINTS
    if cumulative:
        return [Fraction(p) for p in result.points]
    if result.winner is None:
        if rules.tie_rule is brisca.TieRule.HALF_EACH:
            return [Fraction(stake, 2) if i in result.tied else 0 for i in range(sides)]
        return [0] * sides
    value = 1
    if rules.match_mode is brisca.MatchMode.GAME_POINTS and rules.margin_points:
        taken = result.points[result.winner]
        if rules.capote_definition is brisca.CapoteDefinition.ALL_TRICKS:
            capote = tricks[result.winner] == rules.tricks_per_hand
        else:
            capote = taken == 120
        value = 3 if capote else 2 if taken >= 91 else 1
    return [value * stake if i == result.winner else 0 for i in range(sides)]


def oracle_next_dealer(rules: Rules, record: HandRecord) -> int:
    """SPEC §2.1: a replay keeps its dealer; else the next seat, or under winner_deals the
    winning side's first seat after the dealer [P]."""
    n = rules.num_players
    if record.replayed:
        return record.dealer
    winner = record.result.winner
    if rules.dealer_rotation is brisca.DealerRotation.WINNER_DEALS and winner is not None:
        side = record.result.sides[winner]
        after = [(record.dealer + k) % n for k in range(1, n + 1)]
        return next(seat for seat in after if seat in side)
    return (record.dealer + 1) % n


def check_hand_boundary(m: Match, final: State) -> None:
    """Everything that must hold once a hand has been scored."""
    rules = m.rules
    n = rules.num_players
    record = m.hands[-1]
    result = brisca.result(final)
    assert record.result == result and record.dealer == final.dealer
    tricks = [sum(1 for t in final.tricks if t.winner in side) for side in result.sides]
    assert list(record.tricks_won) == tricks
    # Replays: ties under the replay rules, except in rematada where every hand counts.
    cumulative = rules.match_mode is brisca.MatchMode.CUMULATIVE_CARD_POINTS
    assert record.replayed == (result.replay and not cumulative)
    # Stakes: 2^k after k consecutive replayed ties under replay_double_stake, else 1.
    streak = 0
    for earlier in reversed(m.hands[:-1]):
        if not earlier.replayed:
            break
        streak += 1
    doubling = rules.tie_rule is brisca.TieRule.REPLAY_DOUBLE_STAKE and not cumulative
    assert record.stake == (2**streak if doubling else 1)
    # Credits: each active seat gets its side's credit; a seat sitting out gets nothing.
    side_credit = (
        [0] * len(result.sides)
        if record.replayed
        else oracle_credits(rules, result, tricks, record.stake)
    )
    for seat in range(n):
        side = next((i for i, s in enumerate(result.sides) if seat in s), None)
        assert record.credits[seat] == (0 if side is None else side_credit[side])
    # Standings are the sums of the credits.
    for seat in range(n):
        assert m.standings[seat] == sum(h.credits[seat] for h in m.hands)
    # Who sits out: the dealer, and never the same seat twice in a row but for a replay.
    if rules.num_players == 5:
        sitting = [s for s in range(5) if not any(s in side for side in result.sides)]
        assert sitting == [record.dealer]
        if len(m.hands) > 1 and not m.hands[-2].replayed:
            assert m.hands[-2].dealer != record.dealer
    # The deal passes as configured.
    if not m.is_over:
        assert m.dealer == oracle_next_dealer(rules, record)
        assert m.stake == (2 ** (streak + 1) if doubling and record.replayed else 1)
    # The end: the target reached by seats of one side, or one hand in single_hand.
    top = max(m.standings)
    leaders = {s for s in range(n) if m.standings[s] == top}
    ends = (
        not record.replayed
        if rules.match_mode is brisca.MatchMode.SINGLE_HAND
        else top >= rules.match_target and any(leaders <= set(side) for side in result.sides)
    )
    assert m.is_over == ends
    if m.is_over and rules.match_mode is not brisca.MatchMode.SINGLE_HAND:
        assert set(match_result(m).winners) == leaders


@given(rules=match_rules(), seed=st.integers(0, 2**64), choices=st.randoms(use_true_random=False))
def test_random_matches_keep_every_match_invariant(
    rules: Rules, seed: int, choices: random.Random
) -> None:
    """Every match ends; standings are the sums of the credits under the stake rules; the
    deal rotates as configured; stakes double exactly on consecutive ties; no seat sits
    out twice in a row but for a replay; JSON round-trips."""
    m = new_match(rules, seed=seed)
    checkpoint = choices.randrange(60)
    steps = 0
    while not m.is_over:
        assert m.state is not None and m.to_act is not None
        options = match_legal_actions(m)
        action = options[choices.randrange(len(options))]
        before, hands = m, len(m.hands)
        snapshot = copy.deepcopy(m) if steps == checkpoint else m
        m = match_apply(m, action)
        assert before == snapshot, "match_apply changed its input"
        if len(m.hands) > hands:
            check_hand_boundary(m, brisca.apply(before.state, action))  # type: ignore[arg-type]
        steps += 1
        if steps == checkpoint:
            assert loads_match(dumps_match(m)) == m
        assert len(m.hands) < 200, "the match does not end"
    outcome = match_result(m)
    assert outcome.hands == m.hands and outcome.standings == m.standings
    assert loads_match(dumps_match(m)) == m


# Scripted matches: hands drawn from a pool of found hands, a third of them ties, so that
# replays, doubled stakes and halves happen often. Card play does not depend on the match
# options, so one pool per table serves every combination of them.

POOL_TABLES = TABLES[:5]


@functools.cache
def pool(table: int, dealer: int) -> tuple[tuple[Hand, ...], tuple[Hand, ...]]:
    """Two hands tied for the top and four others, dealt by `dealer` at a pool table."""
    rules = Rules(**POOL_TABLES[table])  # type: ignore[arg-type]
    ties: list[Hand] = []
    others: list[Hand] = []
    seed = 0
    while len(ties) < 2 or len(others) < 4:
        hand, result = random_hand(rules, dealer, seed)
        (ties if max(result.points) == sorted(result.points)[-2] else others).append(hand)
        seed += 1
    return tuple(ties[:2]), tuple(others[:4])


@settings(max_examples=200)
@given(
    table=st.integers(0, len(POOL_TABLES) - 1),
    options=match_options(),
    data=st.data(),
)
def test_scripted_matches_keep_every_match_invariant(
    table: int, options: dict[str, object], data: st.DataObject
) -> None:
    """The match invariants again, over matches in which a third of the hands are ties."""
    rules = Rules(**POOL_TABLES[table], **options)  # type: ignore[arg-type]
    first = data.draw(st.integers(0, rules.num_players - 1))
    chosen: list[Hand] = []
    m = new_match(rules, seed=0, decks=[rules.cards], dealer=first)
    while not m.is_over:
        assert len(chosen) < 40, "the match does not end"
        ties, others = pool(table, m.dealer)  # type: ignore[arg-type]
        # After a dozen hands, no more ties: only the rules' own ending is left to check.
        pick = data.draw(st.integers(0 if len(chosen) < 12 else 2, 5))
        chosen.append(ties[pick % 2] if pick < 2 else others[pick - 2])
        # Deal the chosen hand next: rebuild the match with its deck and replay it.
        decks = [*(h.deck for h in chosen), rules.cards]
        m = new_match(rules, seed=0, decks=decks, dealer=first)
        for hand in chosen[:-1]:
            for action in hand.actions:
                m = match_apply(m, action)
        assert m.dealer == chosen[-1].dealer
        state = m.state
        for action in chosen[-1].actions:
            assert state is not None
            state = brisca.apply(state, action)
            m = match_apply(m, action)
        assert state is not None and state.is_over
        check_hand_boundary(m, state)
    assert loads_match(dumps_match(m)) == m


def test_one_loop_runs_a_whole_match_through_the_generic_functions() -> None:
    """brisca.legal_actions/apply/observe/result/dumps/loads take a Match like a State."""
    m = brisca.new_match(brisca.preset("chilean-rematada"), seed=3)
    while not m.is_over:
        assert brisca.observe(m, m.to_act) == brisca.match_observe(m, m.to_act)
        actions = brisca.legal_actions(m)
        assert all(brisca.is_legal(m, a) for a in actions)
        m = brisca.apply(m, actions[-1])
    outcome = brisca.result(m)
    assert outcome == brisca.match_result(m)
    assert max(outcome.standings) >= 101
    assert brisca.loads(brisca.dumps(m)) == m
