"""The pure transition functions: deal, list and check actions, apply them, score.

One rule check, :func:`_refusal`, decides legality for :func:`legal_actions`,
:func:`is_legal` and :func:`apply`, so they can never disagree.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Sequence

from brisca.actions import Action, Play, Swap
from brisca.cards import Card, DeckKind, Suit, deck_cards
from brisca.errors import IllegalActionError, RulesError, StateError
from brisca.rng import Generator
from brisca.rules import SUIT_ROTATION, HandWinRule, Rules, TieRule, TrumpCardPosition
from brisca.state import HandResult, Observation, State, Table, Trick

__all__ = [
    "apply",
    "is_legal",
    "legal_actions",
    "new_game",
    "observe",
    "result",
    "trick_winner",
]

#: Cards dealt to each active seat.
HAND_SIZE = 3


@functools.lru_cache(maxsize=512)
def table_for(rules: Rules, dealer: int) -> Table:
    """The (cached) table of a hand of `rules` dealt by `dealer`."""
    return Table.create(rules, dealer)


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
    if rules is None:
        rules = Rules()
    if not isinstance(rules, Rules):
        raise RulesError(f"rules must be a brisca.Rules, got {rules!r}")
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
        if seed is None:
            seed = int.from_bytes(os.urandom(16), "big")
        elif type(seed) is not int or seed < 0:
            raise StateError(f"seed must be a non-negative int, got {seed!r}")
        order = Generator(seed).shuffle(pack)
        dealt = HAND_SIZE * rules.active_players
        if rules.turns_card and rules.trump_card_position is TrumpCardPosition.BOTTOM_OF_DECK:
            order = order[:dealt] + order[-1:] + order[dealt:-1]
    return _deal(table_for(rules, dealer), seed, order, hand_number)


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
    dealt = HAND_SIZE * len(active)
    for k, seat in enumerate(active):  # one card at a time round the table
        hands[seat] = tuple(order[k : dealt : len(active)])
    if rules.turns_card:
        trump_card: Card | None = order[dealt]
        trump: Suit = order[dealt].suit
        stock = tuple(order[dealt + 1 :])
    else:
        trump_card, trump = None, SUIT_ROTATION[hand_number % 4]
        stock = tuple(order[dealt:])
    return State(table, seed, trump, trump_card, tuple(hands), stock, (), (), table.first_leader)


def _not_a_state(state: object) -> StateError:
    return StateError(f"expected a brisca.State, got {type(state).__name__}")


# One Play per card: legal_actions hands these out instead of building new ones.
_PLAYS = {c: Play(c) for c in deck_cards(DeckKind.SPANISH48)}


def _playable(state: State, seat: int) -> tuple[tuple[Card, ...], str]:
    """The cards `seat` may play now, and the rule that narrows them (empty when free)."""
    return state.hands[seat], ""


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
        allowed, rule = _playable(state, seat)
        return None if card in allowed else rule
    if kind is Swap:
        return "swaps are off in these rules"
    return f"not a brisca action: {action!r}"


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every legal action of the seat to act, in a fixed order; ``()`` once the hand is over.

    Raises:
        StateError: `state` is not a State.
    """
    if type(state) is not State:
        raise _not_a_state(state)
    seat = state.to_act
    if seat is None:
        return ()
    plays = _PLAYS
    return tuple([plays[c] for c in _playable(state, seat)[0]])


def is_legal(state: State, action: Action) -> bool:
    """Whether `action` is legal in `state`; never raises for a bad action.

    Raises:
        StateError: `state` is not a State.
    """
    if type(state) is not State:
        raise _not_a_state(state)
    return _refusal(state, action) is None


def apply(state: State, action: Action) -> State:
    """The state after `action`; `state` itself never changes.

    Completing a trick also resolves it and draws: the winner first, then the
    others in play order, the turned trump card last.

    Raises:
        StateError: `state` is not a State.
        IllegalActionError: the action is not legal; the message says why.
    """
    if type(state) is not State:
        raise _not_a_state(state)
    reason = _refusal(state, action)
    if reason is not None:
        raise IllegalActionError(reason)
    return _play(state, action.card)


def trick_winner(cards: Sequence[tuple[int, Card]], trump: Suit | None, table: Table) -> int:
    """The seat that wins a complete trick (SPEC §1.10).

    The highest trump wins if any was played, otherwise the highest card of the
    led suit; an off-suit card that is not trump never wins.
    """
    return _winning(cards, trump, table)[0]


def _winning(
    cards: Sequence[tuple[int, Card]], trump: Suit | None, table: Table
) -> tuple[int, Card]:
    """The ``(seat, card)`` winning a trick so far; `cards` must not be empty."""
    strength = table.strength
    best = cards[0]
    for played in cards[1:]:
        card, top = played[1], best[1]
        if card.suit is top.suit:
            if strength[card] > strength[top]:
                best = played
        elif card.suit is trump:
            best = played  # the first trump over a non-trump lead
    return best


def _play(state: State, card: Card) -> State:
    table = state.table
    seat: int = state.to_act  # type: ignore[assignment]
    hands = list(state.hands)
    hand = hands[seat]
    i = hand.index(card)
    hands[seat] = hand[:i] + hand[i + 1 :]
    trick = (*state.trick, (seat, card))
    if len(trick) < table.seats_in_play:
        return State(
            table,
            state.seed,
            state.trump,
            state.trump_card,
            tuple(hands),
            state.stock,
            trick,
            state.tricks,
            table.next_seat[seat],
        )
    winner = trick_winner(trick, state.trump, table)
    points = table.points
    done = Trick(trick[0][0], trick, winner, sum([points[c] for _, c in trick]))
    tricks = (*state.tricks, done)
    stock, trump_card = state.stock, state.trump_card
    if stock or trump_card is not None:
        # Draw in play order from the winner; the turned card is the last one drawn.
        talon = stock if trump_card is None else (*stock, trump_card)
        order = table.rotation[winner]
        for k, drawer in enumerate(order):
            hands[drawer] += (talon[k],)
        stock = stock[len(order) :]
        if len(talon) == len(order):
            trump_card = None
    to_act = None if len(tricks) == table.tricks_total else winner
    return State(
        table, state.seed, state.trump, trump_card, tuple(hands), stock, (), tricks, to_act
    )


def result(state: State) -> HandResult:
    """The outcome of a finished hand, by the rules' `hand_win_rule` and `tie_rule`.

    Raises:
        StateError: the hand is not over.
    """
    if type(state) is not State:
        raise _not_a_state(state)
    if not state.is_over:
        raise StateError("the hand is not over yet: no result")
    rules, table = state.rules, state.table
    points = state.side_points
    last = table.side_of[state.tricks[-1].winner]
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


def observe(state: State, seat: int) -> Observation:
    """What `seat` may know: its own hand and everything played in view.

    Raises:
        StateError: `state` is not a State, or `seat` is not a seat of it.
    """
    if type(state) is not State:
        raise _not_a_state(state)
    n = state.rules.num_players
    if type(seat) is not int or not 0 <= seat < n:
        raise StateError(f"seat must be from 0 to {n - 1}, got {seat!r}")
    return Observation(
        seat,
        state.rules,
        state.dealer,
        state.sides,
        state.trump,
        state.trump_card,
        state.hands[seat],
        tuple(len(h) for h in state.hands),
        len(state.stock),
        state.trick,
        state.tricks,
        state.to_act,
    )
