"""The pure transition functions: deal, list and check actions, apply them, score.

One rule check, :func:`_refusal`, decides legality for :func:`legal_actions`,
:func:`is_legal` and :func:`apply`, so they can never disagree.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, overload

import attrs

from brisca.actions import (
    Action,
    Bid,
    BidRank,
    CallCard,
    ClaimBlackHand,
    NameTrump,
    Pass,
    Play,
    Signal,
    Sing,
    Swap,
)
from brisca.cards import Card, DeckKind, Suit, deck_cards
from brisca.errors import IllegalActionError, RulesError, StateError
from brisca.rng import Generator
from brisca.rules import (
    SUIT_ROTATION,
    BlackHand,
    CannotOvertrump,
    HandWinRule,
    Overtrump,
    PartnerHandVisibility,
    Rules,
    Signals,
    SubastaScoring,
    TieRule,
    TrumpCardPosition,
    TrumpSelection,
    TrumpVisibility,
)
from brisca.state import (
    HandResult,
    Ledger,
    Observation,
    State,
    Table,
    build_state,
    build_trick,
    table_for,
)
from brisca.tricks import winning
from brisca.variants import arrastre, auction, black_hand, cantes, signals, swaps

if TYPE_CHECKING:
    from brisca.match import Match, MatchObservation, MatchResult

__all__ = [
    "apply",
    "is_legal",
    "known_voids",
    "legal_actions",
    "new_game",
    "observe",
    "result",
    "trump_is_public",
]


def new_game(
    rules: Rules | None = None,
    *,
    seed: int | None = None,
    deck: Iterable[Card | str] | None = None,
    dealer: int | None = None,
    hand_number: int = 0,
) -> State:
    """Shuffle and deal a hand.

    Args:
        rules: the variant; ``Rules()`` when omitted.
        seed: any non-negative int. The shuffle comes from
            :class:`brisca.rng.Generator`, so a seed gives the same deal on every platform.
        deck: instead of a seed, the order in which cards leave the pack: the
            deal (one card at a time, from the seat after the dealer), then the
            turned trump card where one is turned, then the stock in draw order.
        dealer: the dealing seat; the last seat when omitted, so seat 0 leads.
        hand_number: which hand of a match this is, from 0; it picks the trump
            under ``trump_selection='suit_rotation'``.

    With neither `seed` nor `deck`, a fresh seed is drawn from the operating
    system and kept in ``state.seed``, so that every game can be replayed.

    Raises:
        RulesError: `rules` is not a `Rules`.
        StateError: a bad seed, deck, dealer or hand number.
    """
    rules = checked_rules(rules)
    n = rules.num_players
    if dealer is None:
        dealer = n - 1
    if type(dealer) is not int or not 0 <= dealer < n:
        raise StateError(f"dealer must be a seat from 0 to {n - 1}, got {dealer!r}")
    if type(hand_number) is not int or hand_number < 0:
        raise StateError(f"hand_number must be a non-negative int, got {hand_number!r}")
    pack = rules.cards
    if deck is not None:
        if seed is not None:
            raise StateError("give a seed or a deck, not both")
        order = _checked_deck(deck, pack)
    else:
        seed = checked_seed(seed)
        order = Generator(seed).shuffle(pack)
        dealt = rules.hand_size * rules.active_players
        bottom = rules.trump_card_position is TrumpCardPosition.BOTTOM_OF_DECK
        if rules.turns_card and bottom:
            order = order[:dealt] + order[-1:] + order[dealt:-1]
        elif not rules.turns_card and not bottom and dealt < len(order):
            # SPEC §2.1 [P]: the card that would be turned stays face down, last in the stock.
            order = order[:dealt] + order[dealt + 1 :] + order[dealt : dealt + 1]
    return _deal(table_for(rules, dealer), seed, order, hand_number)


def checked_rules(rules: object) -> Rules:
    """`rules`, or ``Rules()`` when it is ``None``.

    Raises:
        RulesError: `rules` is not a `Rules`.
    """
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules):
        raise RulesError(f"rules must be a brisca.Rules, got {rules!r}")
    return rules


def checked_seed(seed: object) -> int:
    """`seed`, or a fresh one from the operating system when it is ``None``.

    Raises:
        StateError: `seed` is not a non-negative int.
    """
    if seed is None:
        return int.from_bytes(os.urandom(16), "big")
    if type(seed) is not int or seed < 0:
        raise StateError(f"seed must be a non-negative int, got {seed!r}")
    return seed


def _checked_deck(deck: Iterable[Card | str], pack: tuple[Card, ...]) -> list[Card]:
    if isinstance(deck, (str, bytes)) or not isinstance(deck, Iterable):
        raise StateError(f"deck must be a sequence of cards, got {deck!r}")
    order = [c if isinstance(c, Card) else Card.parse(c) for c in deck]
    if len(order) != len(pack):
        raise StateError(f"deck has {len(order)} cards; these rules play with {len(pack)}")
    seen: set[Card] = set()
    for c in order:
        if c not in pack:
            raise StateError(f"deck holds {c}, which is not in this pack")
        if c in seen:
            raise StateError(f"deck holds {c} twice")
        seen.add(c)
    return order


def _deal(table: Table, seed: int | None, order: list[Card], hand_number: int) -> State:
    rules = table.rules
    hands: list[tuple[Card, ...]] = [() for _ in range(rules.num_players)]
    active = table.active
    dealt = rules.hand_size * len(active)
    for k, seat in enumerate(active):  # one card at a time round the table
        hands[seat] = tuple(order[k : dealt : len(active)])
    trump_card: Card | None = None
    trump: Suit | None = None
    stock = tuple(order[dealt:])
    if rules.turns_card:
        trump_card, trump, stock = stock[0], stock[0].suit, stock[1:]
    elif not rules.has_auction:
        trump = SUIT_ROTATION[hand_number % 4]
    deal = tuple(hands)
    state = build_state(
        table, seed, trump, trump_card, deal, stock, (), (), table.first_leader, Ledger(deal)
    )
    return _after_cards_move(state)


def _after_cards_move(state: State) -> State:
    """End the hand if a black hand that wins by itself has just formed (SPEC §2.5)."""
    if not state.table.black_hand_wins_alone:
        return state
    seat = black_hand.holder(state)
    if seat is None:
        return state
    return attrs.evolve(state, to_act=None, ledger=attrs.evolve(state.ledger, black_hand=seat))


def _not_a_state(state: object) -> StateError:
    return StateError(f"expected a brisca.State or brisca.Match, got {type(state).__name__}")


def _for_match(name: str, match: object, *args: Any) -> Any:
    """Hand a `Match` to the match layer's function of the same name; refuse anything else."""
    from brisca import match as layer  # imported here: the match layer builds on this module

    if type(match) is not layer.Match:
        raise _not_a_state(match)
    return getattr(layer, f"match_{name}")(match, *args)


# One Play per card: legal_actions hands these out instead of building new ones.
_PLAYS = {c: Play(c) for c in deck_cards(DeckKind.SPANISH48)}


def _refusal(state: State, action: object) -> str | None:
    """Why `action` is illegal in `state`, or ``None`` when it is legal: the one rule check."""
    seat = state.to_act
    kind = type(action)
    if kind is Play:
        if seat is None:
            return "the hand is over"
        card = action.card  # type: ignore[attr-defined]
        if card not in state.hands[seat]:
            return f"{card} is not in the hand of seat {seat}, the seat to act"
        if state.trump is None:
            return "no card is played before the auction ends and the trump is chosen"
        if state.table.free_play or not state.trick:  # the leader is always free
            return None
        allowed, rule = arrastre.playable(state, seat)
        return None if card in allowed else rule
    if kind not in _EXTRA_ACTIONS:
        return f"not a brisca action: {action!r}"
    if seat is None:
        return "the hand is over"
    if kind in _AUCTION_ACTIONS:
        return auction.refusal(state, seat, action)  # type: ignore[arg-type]
    if auction.in_auction(state):
        return "the auction is not over"
    if kind is Swap:
        return swaps.refusal(state, seat, action.card)  # type: ignore[attr-defined]
    if kind is ClaimBlackHand:
        return black_hand.refusal(state, seat)
    if kind is Sing:
        return cantes.refusal(state, seat, action.suit)  # type: ignore[attr-defined]
    return signals.refusal(state, seat, action.name)  # type: ignore[attr-defined]


_AUCTION_ACTIONS = (Bid, BidRank, Pass, NameTrump, CallCard)

# Enum members as module constants: Python 3.11 looks `Enum.MEMBER` up through
# EnumType.__getattr__, about ten times the cost of a global, and these checks run every turn.
_BLACK_HAND_OFF, _SIGNALS_OFF = BlackHand.OFF, Signals.NONE
_EXTRA_ACTIONS = (Swap, ClaimBlackHand, Signal, Sing, *_AUCTION_ACTIONS)


def _extra_actions(state: State, seat: int) -> tuple[Action, ...]:
    """The legal actions besides plays, in a fixed order: claim, swaps, cantes, signals."""
    rules = state.table.rules
    found: list[Action] = []
    if rules.black_hand is not _BLACK_HAND_OFF and black_hand.refusal(state, seat) is None:
        found.append(ClaimBlackHand())
    if rules.swap_enabled and (cards := swaps.offered(state, seat)):
        found += map(Swap, cards)
    if rules.cantes and (suits := cantes.offered(state, seat)):
        found += map(Sing, suits)
    if rules.signals is not _SIGNALS_OFF and (names := signals.offered(state, seat)):
        found += map(Signal, names)
    return tuple(found)


def legal_actions(state: State | Match) -> tuple[Action, ...]:
    """Every legal action of the seat to act, in a fixed order; ``()`` once it is over.

    Works on a hand's `State` and on a whole `Match` alike.

    Raises:
        StateError: `state` is neither.
    """
    if type(state) is not State:
        return _for_match("legal_actions", state)  # type: ignore[no-any-return]
    seat = state.to_act
    if seat is None:
        return ()
    table = state.table
    free = table.free_play or not state.trick  # the leader is always free
    cards = state.hands[seat] if free else arrastre.playable(state, seat)[0]
    if not table.has_extras:
        return tuple(map(_PLAYS.__getitem__, cards))
    if state.trump is None and auction.in_auction(state):
        return auction.offered(state, seat)
    return _extra_actions(state, seat) + tuple(map(_PLAYS.__getitem__, cards))


def is_legal(state: State | Match, action: Action) -> bool:
    """Whether `action` is legal in `state` (a hand or a match); never raises for a bad action.

    Raises:
        StateError: `state` is neither a State nor a Match.
    """
    if type(state) is not State:
        return _for_match("is_legal", state, action)  # type: ignore[no-any-return]
    return _refusal(state, action) is None


@overload
def apply(state: State, action: Action) -> State: ...
@overload
def apply(state: Match, action: Action) -> Match: ...
def apply(state: State | Match, action: Action) -> State | Match:
    """The state after `action`; `state` itself never changes.

    Completing a trick also resolves it and draws: the winner first, then the
    others in play order, the turned trump card last. Given a `Match`, the
    action goes to its hand in progress, and a finished hand is scored and the
    next one dealt.

    Raises:
        StateError: `state` is neither a State nor a Match.
        IllegalActionError: the action is not legal; the message says why.
    """
    if type(state) is not State:
        return _for_match("apply", state, action)  # type: ignore[no-any-return]
    reason = _refusal(state, action)
    if reason is not None:
        raise IllegalActionError(reason)
    if isinstance(action, Play):
        return _play(state, action.card)
    seat: int = state.to_act  # type: ignore[assignment]
    if isinstance(action, Swap):
        hands, trump_card, ledger = swaps.apply(state, seat, action.card)
        state = attrs.evolve(state, hands=hands, trump_card=trump_card, ledger=ledger)
        return _after_cards_move(state)
    if isinstance(action, ClaimBlackHand):
        return attrs.evolve(state, to_act=None, ledger=attrs.evolve(state.ledger, black_hand=seat))
    if isinstance(action, _AUCTION_ACTIONS):
        return auction.apply(state, seat, action)
    if isinstance(action, Sing):
        return attrs.evolve(state, ledger=cantes.apply(state, seat, action.suit))
    assert isinstance(action, Signal)
    return attrs.evolve(state, ledger=signals.apply(state, seat, action.name))


def _play(state: State, card: Card) -> State:
    table = state.table
    seat: int = state.to_act  # type: ignore[assignment]
    hands = list(state.hands)
    hand = hands[seat]
    i = hand.index(card)
    hands[seat] = hand[:i] + hand[i + 1 :]
    trick = (*state.trick, (seat, card))
    if len(trick) < table.seats_in_play:
        return build_state(
            table,
            state.seed,
            state.trump,
            state.trump_card,
            tuple(hands),
            state.stock,
            trick,
            state.tricks,
            table.next_seat[seat],
            state.ledger,
        )
    winner = winning(trick, state.trump, table)[0]
    points, total = table.points, 0
    for _, played in trick:
        total += points[played]
    tricks = (*state.tricks, build_trick(trick[0][0], trick, winner, total))
    to_act = None if len(tricks) == table.tricks_total else winner
    stock, trump_card, ledger = state.stock, state.trump_card, state.ledger
    if stock or trump_card is not None:
        # Draw in play order from the winner; the turned card is the last one drawn.
        order = table.rotation[winner]
        if len(stock) < len(order):
            assert trump_card is not None  # the talon always splits evenly
            stock = (*stock, trump_card)
            ledger = attrs.evolve(ledger, pinta_drawn=(order[-1], trump_card))
            trump_card = None
        for k, drawer in enumerate(order):
            hands[drawer] += (stock[k],)
        stock = stock[len(order) :]
    after = build_state(
        table, state.seed, state.trump, trump_card, tuple(hands), stock, (), tricks, to_act, ledger
    )
    return _after_cards_move(after) if table.black_hand_wins_alone else after


@overload
def result(state: State) -> HandResult: ...
@overload
def result(state: Match) -> MatchResult: ...
def result(state: State | Match) -> HandResult | MatchResult:
    """The outcome of a finished hand, by the rules' `hand_win_rule` and `tie_rule`,
    or of a finished match.

    Raises:
        StateError: it is not over, or is neither a State nor a Match.
    """
    if type(state) is not State:
        return _for_match("result", state)  # type: ignore[no-any-return]
    if not state.is_over:
        raise StateError("the hand is not over yet: no result")
    rules, table = state.rules, state.table
    points = state.side_points
    last = table.side_of[state.tricks[-1].winner] if state.tricks else None
    if rules.has_auction:
        return _contract_result(state, points, last)
    holder = state.ledger.black_hand
    if holder is not None:
        return HandResult(table.sides, points, table.side_of[holder], (), False, last, holder)
    if rules.hand_win_rule is HandWinRule.OVER_60:
        tied = tuple(i for i, p in enumerate(points) if p >= 60)  # 60-60 when two are here
    else:
        tied = tuple(i for i, p in enumerate(points) if p == max(points))
    if len(tied) == 1:
        return HandResult(table.sides, points, tied[0], (), False, last)
    tie = rules.tie_rule
    winner = last if tie is TieRule.LAST_TRICK and last in tied else None
    replay = tie in (TieRule.REPLAY, TieRule.REPLAY_DOUBLE_STAKE)
    return HandResult(table.sides, points, winner, tied, replay, last)


def _contract_result(state: State, points: tuple[int, ...], last: int | None) -> HandResult:
    """SPEC §2.7, §2.8: the declarer's side makes its contract or fails it."""
    rules, table, contract = state.rules, state.table, state.ledger.contract
    if contract is None:  # everyone passed
        zero = tuple(0 for _ in table.sides)
        return HandResult(table.sides, zero, None, (), False, None, void=True)
    sung = [0] * len(table.sides)
    for cante in state.ledger.cantes:
        sung[table.side_of[cante.seat]] += cante.points
    ours = table.side_of[contract.declarer]
    theirs = 1 - ours
    scores = [0] * rules.num_players
    if rules.trump_selection is TrumpSelection.CALLED_CARD:
        need = max(61, contract.bid.points if isinstance(contract.bid, Bid) else 0)
        made = points[ours] >= need
        caller, partner, defender, alone = rules.chiamata_scores
        sign = 1 if made else -1
        lone = contract.partner == contract.declarer
        for seat in table.active:
            if seat == contract.declarer:
                scores[seat] = sign * (alone if lone else caller)
            elif seat == contract.partner:
                scores[seat] = sign * partner
            else:
                scores[seat] = -sign * defender
    else:
        assert isinstance(contract.bid, Bid)
        made = points[ours] + sung[ours] >= contract.bid.points
        value = contract.bid.points if rules.subasta_scoring is SubastaScoring.BID_VALUE else 1
        for seat in table.sides[ours]:
            scores[seat] = value if made else -value
    return HandResult(
        table.sides,
        points,
        ours if made else theirs,
        (),
        False,
        last,
        contract=contract,
        contract_made=made,
        cantes=tuple(sung),
        seat_scores=tuple(scores),
    )


@overload
def observe(state: State, seat: int) -> Observation: ...
@overload
def observe(state: Match, seat: int) -> MatchObservation: ...
def observe(state: State | Match, seat: int) -> Observation | MatchObservation:
    """What `seat` may know: its own hand and everything done in view.

    Hidden: the other hands, the stock's order and, under cubierta, the covered
    trump card and suit until a trump is played or the card is drawn. Given a
    `Match`, the view of its hand in progress plus the public match record.

    Raises:
        StateError: `state` is neither a State nor a Match, or `seat` is not a seat of it.
    """
    if type(state) is not State:
        return _for_match("observe", state, seat)  # type: ignore[no-any-return]
    table, rules = state.table, state.rules
    n = rules.num_players
    if type(seat) is not int or not 0 <= seat < n:
        raise StateError(f"seat must be from 0 to {n - 1}, got {seat!r}")
    ledger = state.ledger
    shown = trump_is_public(state)
    sides, contract = table.sides, ledger.contract
    if not auction.partner_known(state, seat):
        # Chiamata: until the called card is played only its holder knows the partnership.
        sides = tuple((s,) for s in sorted(table.active))
        contract = None if contract is None else attrs.evolve(contract, partner=None)
    side = table.side_of[seat]
    partners = table.sides[side] if side >= 0 else ()
    seen_signals = ledger.signals
    if rules.signals is Signals.TEAM_PRIVATE:
        seen_signals = tuple(s for s in seen_signals if s.seat in partners)
    partner_hands: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    if rules.partner_hand_visibility is PartnerHandVisibility.SHOW_AFTER_DEAL:
        partner_hands = tuple((p, ledger.dealt[p]) for p in partners if p != seat)
    return Observation(
        seat,
        rules,
        state.dealer,
        sides,
        state.trump if shown else None,
        state.trump_card if shown else None,
        state.hands[seat],
        tuple(len(h) for h in state.hands),
        len(state.stock),
        state.trick,
        state.tricks,
        state.to_act,
        ledger.swaps,
        seen_signals,
        partner_hands,
        ledger.pinta_drawn,
        ledger.black_hand,
        known_voids(state),
        ledger.bids,
        contract,
        ledger.cantes,
    )


def trump_is_public(state: State) -> bool:
    """Whether everyone knows the trump suit: always, save a still-covered cubierta card."""
    if state.table.rules.trump_visibility is TrumpVisibility.FACE_UP or state.trump_card is None:
        return True
    trump = state.trump
    return any(c.suit is trump for _, c in state.trick) or any(
        c.suit is trump for t in state.tricks for _, c in t.cards
    )


def known_voids(state: State) -> tuple[frozenset[Suit], ...]:
    """For each seat, the suits arrastre play has shown it holds none of.

    A follower that does not follow the led suit is void in it; one that also
    plays no trump when the duty to trump binds it is void in trumps. Only tricks
    after the last draw count, since a draw can refill a suit.
    """
    rules, table = state.rules, state.table
    voids: list[set[Suit]] = [set() for _ in range(rules.num_players)]
    if table.free_play:
        return tuple(frozenset(v) for v in voids)
    draw_rounds = (len(rules.cards) - rules.hand_size * table.seats_in_play) // table.seats_in_play
    tricks = [t.cards for t in state.tricks] + ([state.trick] if state.trick else [])
    for k, cards in enumerate(tricks):
        if k < draw_rounds:
            continue
        led = cards[0][1].suit
        for j in range(1, len(cards)):
            seat, card = cards[j]
            if card.suit is led:
                continue
            voids[seat].add(led)
            if card.suit is not state.trump and _must_trump_when_void(state, cards[:j], seat):
                voids[seat].add(state.trump)  # type: ignore[arg-type]
    return tuple(frozenset(v) for v in voids)


def _must_trump_when_void(state: State, before: tuple[tuple[int, Card], ...], seat: int) -> bool:
    """Whether a seat void in the led suit had to play any trump it held."""
    rules, table = state.rules, state.table
    win_seat, win = winning(before, state.trump, table)
    if rules.arrastre_partner_relief and table.side_of[win_seat] == table.side_of[seat]:
        return False
    return (
        win.suit is not state.trump
        or rules.arrastre_overtrump is Overtrump.ANY_TRUMP
        or rules.arrastre_cannot_overtrump is CannotOvertrump.MUST_UNDERTRUMP
    )
