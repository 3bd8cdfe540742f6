"""Independent checks of what must hold in every state and across every transition.

These re-derive the rules from SPEC §1 with straightforward code, rather than
calling the engine's own helpers, so that an engine bug cannot hide itself.
"""

from __future__ import annotations

import copy
import random
from collections import Counter

import attrs

import brisca
from brisca import Card, State


def oracle_winner(
    cards: tuple[tuple[int, Card], ...], trump: brisca.Suit | None, rules: brisca.Rules
) -> int:
    """SPEC §1.10: the highest trump if any was played, else the highest of the led suit."""
    trumps = [(seat, c) for seat, c in cards if c.suit is trump]
    led = cards[0][1].suit
    pool = trumps or [(seat, c) for seat, c in cards if c.suit is led]
    return max(pool, key=lambda pair: rules.card_strength(pair[1]))[0]


#: SPEC §2.9: what each signal says about the trump ranks held.
SIGNAL_TRUTH = {
    "s000": {
        "lip_bite": lambda r: 1 in r and 3 not in r,
        "shoulder": lambda r: 3 in r and 1 not in r,
        "wink": lambda r: 1 in r and 3 in r,
        "head_shake": lambda r: not r,
    },
    "traditional": {
        "lips": lambda r: 1 in r,
        "wink": lambda r: 3 in r,
        "eyes_up": lambda r: 12 in r,
        "shoulder": lambda r: 11 in r or 10 in r,
    },
}


def black(hand: tuple[Card, ...], trump: brisca.Suit | None) -> bool:
    return {1, 3, 12} <= {c.rank for c in hand if c.suit is trump}


def active_seats(state: State) -> list[int]:
    """Seats in play order after the dealer, without a seat that sits out."""
    n = state.rules.num_players
    seats = [(state.dealer + k) % n for k in range(1, n + 1)]
    return seats[:-1] if state.rules.active_players < n else seats


def all_cards(state: State) -> list[Card]:
    cards = [c for hand in state.hands for c in hand]
    cards += list(state.stock) + [c for _, c in state.trick]
    cards += [c for t in state.tricks for _, c in t.cards]
    if state.trump_card is not None:
        cards.append(state.trump_card)
    return cards


def check_state(state: State) -> None:
    """Invariants of a single state."""
    rules = state.rules
    cards = all_cards(state)
    assert Counter(cards) == Counter(rules.cards), "cards are not conserved"
    assert sum(rules.card_points(c) for c in rules.cards) == 120
    active = active_seats(state)
    assert sorted(s for side in state.sides for s in side) == sorted(active)
    for seat in range(rules.num_players):
        if seat not in active:
            assert state.hands[seat] == ()
    # Hand sizes: every active seat holds the same count, less one if it played this trick.
    played = {seat for seat, _ in state.trick}
    sizes = {len(state.hands[s]) + (s in played) for s in active}
    assert len(sizes) == 1, f"uneven hands {state.hands}"
    remaining = rules.tricks_per_hand - len(state.tricks)
    assert sizes == {min(rules.hand_size, remaining)}
    void = rules.has_auction and state.is_over and state.ledger.contract is None
    if rules.has_auction and (state.trump is None or void):
        assert state.hands == state.deal.hands and not state.tricks and not state.trick
    ended_by_black_hand = state.ledger.black_hand is not None or void
    if ended_by_black_hand:
        assert state.is_over and black(state.hands[state.ledger.black_hand], state.trump)
    # Turn order: the trick goes round from its leader, who won the last trick.
    first = {
        brisca.FirstLeader.DEALER: state.dealer,
        brisca.FirstLeader.DECLARER: state.ledger.contract and state.ledger.contract.declarer,
    }.get(rules.first_leader, active[0])
    leader = state.tricks[-1].winner if state.tricks else first
    order = active[active.index(leader) :] + active[: active.index(leader)]
    assert [s for s, _ in state.trick] == order[: len(state.trick)]
    if state.is_over:
        assert brisca.legal_actions(state) == ()
        assert ended_by_black_hand or (remaining == 0 and state.trick == ())
    elif state.trump is None:
        check_auction(state)
    else:
        assert state.to_act == order[len(state.trick)]
        check_plays(state)
    # The trump card is the trump suit while it lies on the table.
    if state.trump_card is not None:
        assert state.trump_card.suit is state.trump
    for t in state.tricks:
        assert t.winner == oracle_winner(t.cards, state.trump, rules)
        assert t.points == sum(rules.card_points(c) for _, c in t.cards)
    assert sum(state.side_points) == sum(t.points for t in state.tricks)


def check_auction(state: State) -> None:
    """SPEC §2.7, §2.8: bidding goes round in play order and a pass is final."""
    ledger = state.ledger
    passed = {r.seat for r in ledger.bids if isinstance(r.bid, brisca.Pass)}
    actions = brisca.legal_actions(state)
    assert actions and not any(isinstance(a, brisca.Play) for a in actions)
    if ledger.contract is not None:
        assert state.to_act == ledger.contract.declarer
        return
    assert state.to_act not in passed
    bids = [r.bid for r in ledger.bids if not isinstance(r.bid, brisca.Pass)]
    offered = [a for a in actions if not isinstance(a, brisca.Pass)]
    if state.rules.trump_selection is brisca.TrumpSelection.AUCTION:
        floor = bids[-1].points if bids else state.rules.bid_minimum - state.rules.bid_step
        assert all(a.points > floor for a in offered)
    elif bids and isinstance(bids[-1], brisca.BidRank):
        strength = {c.rank: state.rules.card_strength(c) for c in state.rules.cards}
        last = strength[bids[-1].rank]
        assert all(strength[a.rank] < last for a in offered if isinstance(a, brisca.BidRank))


def check_plays(state: State) -> None:
    """The cards on offer: never none, always from the hand, the whole hand when play is free."""
    seat = state.to_act
    assert seat is not None
    plays = [a.card for a in brisca.legal_actions(state) if isinstance(a, brisca.Play)]
    hand = state.hands[seat]
    assert plays, "no card may be played"
    assert set(plays) <= set(hand) and len(set(plays)) == len(plays)
    rules = state.rules
    talon_left = bool(state.stock) or state.trump_card is not None
    free = rules.play_obligation is brisca.PlayObligation.FREE or (
        rules.play_obligation is brisca.PlayObligation.ARRASTRE_AFTER_STOCK and talon_left
    )
    if free or not state.trick:
        assert set(plays) == set(hand), "free play offers the whole hand"
    for card in hand:
        assert brisca.is_legal(state, brisca.Play(card)) == (card in plays)


def check_observation_hides(state: State, seat: int, rng: random.Random) -> None:
    """Shuffling the cards `seat` cannot see changes nothing in its observation."""
    hidden = [c for s, hand in enumerate(state.hands) if s != seat for c in hand]
    hidden += list(state.stock)
    rng.shuffle(hidden)
    it = iter(hidden)
    hands = tuple(
        hand if s == seat else tuple(next(it) for _ in hand) for s, hand in enumerate(state.hands)
    )
    stock = tuple(next(it) for _ in state.stock)
    other = attrs.evolve(state, hands=hands, stock=stock, seed=None)
    assert brisca.observe(other, seat) == brisca.observe(state, seat)
    check_covered_card_hidden(state, seat)
    mine = brisca.observe(state, seat)
    assert mine.hand == state.hands[seat]
    assert mine.hand_sizes == tuple(len(h) for h in state.hands)


def check_covered_card_hidden(state: State, seat: int) -> None:
    """Under cubierta, before the reveal, any unseen card of an unplayed suit could be covered.

    Cards of the partners' dealt hands that the seat was shown are seen, not unseen.
    """
    pinta = state.trump_card
    if state.rules.trump_visibility is not brisca.TrumpVisibility.CUBIERTA or pinta is None:
        return
    played = {c.suit for _, c in state.trick} | {c.suit for t in state.tricks for _, c in t.cards}
    if state.trump in played:
        return  # revealed
    shown = {c for _, cards in brisca.observe(state, seat).partner_hands for c in cards}
    unseen = [c for s, hand in enumerate(state.hands) if s != seat for c in hand]
    unseen += list(state.stock)
    for card in unseen:
        if card.suit in played or card.suit is pinta.suit or card in shown:
            continue

        def put(cards: tuple[Card, ...], card: Card = card) -> tuple[Card, ...]:
            return tuple(pinta if c is card else c for c in cards)

        other = attrs.evolve(
            state,
            trump=card.suit,
            trump_card=card,
            hands=tuple(put(h) for h in state.hands),
            stock=put(state.stock),
            deal=attrs.evolve(state.deal, hands=tuple(put(h) for h in state.deal.hands)),
        )
        assert brisca.observe(other, seat) == brisca.observe(state, seat)
        return


def check_transition(before: State, action: brisca.Action, after: State) -> None:
    """What `apply` must do on one step, given it was legal."""
    seat = before.to_act
    assert seat is not None
    if isinstance(action, brisca.Swap):
        check_swap(before, seat, action.card, after)
        return
    if isinstance(action, brisca.Signal):
        trumps = {c.rank for c in before.hands[seat] if c.suit is before.trump}
        assert SIGNAL_TRUTH[before.rules.signal_vocabulary.value][action.name](trumps)
        assert attrs.evolve(after, ledger=before.ledger) == before
        assert after.ledger.signals[-1].seat == seat
        return
    if isinstance(action, (brisca.Bid, brisca.BidRank, brisca.Pass)):
        assert after.ledger.bids[-1] == brisca.BidRecord(seat, action)
        assert after.hands == before.hands and not after.tricks
        return
    if isinstance(action, (brisca.NameTrump, brisca.CallCard)):
        assert after.trump is not None and after.ledger.contract is not None
        if isinstance(action, brisca.CallCard):
            holder = next(s for s, hand in enumerate(before.hands) if action.card in hand)
            assert after.ledger.contract.partner == holder
            assert set(after.sides[0]) | set(after.sides[1]) == set(range(5))
            assert any({seat, holder} <= set(side) for side in after.sides)
        return
    if isinstance(action, brisca.Sing):
        hand = before.hands[seat]
        assert brisca.Card(12, action.suit) in hand and brisca.Card(11, action.suit) in hand
        assert after.hands == before.hands
        assert before.tricks[-1].winner == seat and not before.trick
        return
    if isinstance(action, brisca.ClaimBlackHand):
        assert black(before.hands[seat], before.trump)
        assert after.is_over and after.ledger.black_hand == seat
        return
    assert isinstance(action, brisca.Play)
    assert action.card not in after.hands[seat]
    if len(after.tricks) == len(before.tricks):
        assert after.trick == (*before.trick, (seat, action.card))
        return
    # A trick completed: it holds every active seat's card and the winner leads next.
    done = after.tricks[-1]
    assert done.cards == (*before.trick, (seat, action.card))
    talon = list(before.stock) + ([before.trump_card] if before.trump_card else [])
    if talon:
        active = active_seats(before)
        k = active.index(done.winner)
        drawers = active[k:] + active[:k]
        for j, drawer in enumerate(drawers):
            assert after.hands[drawer][-1] is talon[j], "draw order is winner first"
        assert (
            list(after.stock) + ([after.trump_card] if after.trump_card else [])
            == talon[len(drawers) :]
        )


def check_swap(before: State, seat: int, card: Card, after: State) -> None:
    """SPEC §2.3: a swap trades a trump in hand for the turned card; the trump suit stays."""
    pinta = before.trump_card
    assert pinta is not None and card.suit is before.trump
    assert after.trump is before.trump and after.trump_card is card
    assert sorted(map(str, after.hands[seat])) == sorted(
        [str(c) for c in before.hands[seat] if c is not card] + [str(pinta)]
    )
    assert Counter(all_cards(after)) == Counter(all_cards(before))
    high = pinta.rank in (1, 3, 12, 11, 10)
    assert pinta.rank != 2 and card.rank in (2, 7)
    assert (card.rank == 7 and high) or card.rank == 2


def play_random_game(state: State, rng: random.Random, check: bool = True) -> State:
    """Play random legal actions to the end, checking everything at every step."""
    while not state.is_over:
        if check:
            check_state(state)
            assert brisca.loads(brisca.dumps(state)) == state
            check_observation_hides(state, rng.randrange(state.rules.num_players), rng)
        actions = brisca.legal_actions(state)
        for action in actions:
            assert brisca.is_legal(state, action)
        action = actions[rng.randrange(len(actions))]
        snapshot = copy.deepcopy(state)
        text = brisca.dumps(state)
        after = brisca.apply(state, action)
        assert state == snapshot and brisca.dumps(state) == text, "apply changed its input"
        if check:
            check_transition(state, action, after)
        state = after
    check_state(state)
    if state.ledger.black_hand is not None:
        result = brisca.result(state)
        assert result.black_hand == state.ledger.black_hand
        assert state.ledger.black_hand in result.sides[result.winner]  # type: ignore[index]
    return state
