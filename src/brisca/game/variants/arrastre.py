"""Arrastre: the duty to follow suit, beat and trump (SPEC §2.4).

For a follower, with L the led suit, T trump and W the card winning so far:

1. holding L: the L-cards that beat W when W is of suit L and `arrastre_must_beat`
   is on (any L-card when none does); any L-card otherwise;
2. void in L, holding trumps: any trump when no trump has been played; over a
   winning trump, the higher trumps if `arrastre_overtrump` is ``required``
   (failing those, any card, or any trump under ``must_undertrump``); any trump
   under ``any_trump``. Partner relief lifts this step when the partner holds W;
3. otherwise any card. The leader is always free.
"""

from __future__ import annotations

from typing import Any, Final

from brisca.game.cards import Card, DeckKind, Suit, deck_cards
from brisca.game.rules import CannotOvertrump, Overtrump, PlayObligation
from brisca.game.state import Played, Seat, State
from brisca.game.tricks import winning
from brisca.game.variants.variant import Variant

__all__ = ["VARIANT", "in_force", "known_voids", "playable"]

# Enum members as module constants: Python 3.11 looks `Enum.MEMBER` up through
# EnumType.__getattr__, about ten times the cost of a global, and these checks run every turn;
# Final, compiled code reads them directly.
_FREE: Final = PlayObligation.FREE
_WHOLE_HAND: Final = PlayObligation.ARRASTRE_WHOLE_HAND
_ANY_TRUMP: Final = Overtrump.ANY_TRUMP
_MUST_UNDERTRUMP: Final = CannotOvertrump.MUST_UNDERTRUMP

# What a follower void in the led suit and holding trumps must play (step 2).
_NONE: Final = 0
_ANY: Final = 1
_OVER_ELSE_ANY: Final = 2
_OVER_ELSE_FREE: Final = 3


def in_force(state: State) -> bool:
    """Whether play obligations bind now: always, or once the talon is exhausted."""
    obligation = state.seating.rules.play_obligation
    if obligation is _FREE:
        return False
    if obligation is _WHOLE_HAND:
        return True
    return not state.stock and state.trump_card is None


def _trump_duty(state: State, win_seat: Seat, win: Card, seat: Seat) -> int:
    """Step 2's duty for `seat`, void in the led suit, when `win_seat`'s `win` is winning."""
    table, rules = state.seating, state.seating.rules
    if rules.arrastre_partner_relief and table.side_of[win_seat] == table.side_of[seat]:
        return _NONE
    if win.suit is not state.trump or rules.arrastre_overtrump is _ANY_TRUMP:
        return _ANY
    if rules.arrastre_cannot_overtrump is _MUST_UNDERTRUMP:
        return _OVER_ELSE_ANY
    return _OVER_ELSE_FREE


def playable(state: State, seat: Seat) -> tuple[tuple[Card, ...], str]:
    """The cards `seat` may play now and, when they are not the whole hand, the duty why."""
    hand = state.hands[seat]
    if not state.trick or not in_force(state):
        return hand, ""
    table, rules, trump = state.seating, state.seating.rules, state.trump
    strength = table.strength
    led = state.trick[0][1].suit
    win_seat, win = winning(state.trick, trump, table)
    follow = tuple(c for c in hand if c.suit is led)
    if follow:
        if win.suit is led and rules.arrastre_must_beat:
            over = tuple(c for c in follow if strength[c] > strength[win])
            if over:
                return (
                    over,
                    f"must follow {_named(led)} and beat the {_CARD_NAMES[win]} (arrastre)",
                )
        return follow, f"must follow {_named(led)} (arrastre)"
    trumps = tuple(c for c in hand if c.suit is trump)
    if not trumps:
        return hand, ""
    duty = _trump_duty(state, win_seat, win, seat)
    if duty == _NONE:
        return hand, ""
    if duty == _ANY:
        return trumps, f"void in {_named(led)}, must trump (arrastre)"
    over = tuple(c for c in trumps if strength[c] > strength[win])
    if over:
        return (
            over,
            f"void in {_named(led)}, must beat the {_CARD_NAMES[win]} (arrastre)",
        )
    if duty == _OVER_ELSE_ANY:
        return (
            trumps,
            f"void in {_named(led)}, must play a trump (arrastre: contrafallo)",
        )
    return hand, ""


# The names a duty gives, made once: a suit's and a card's names are Python properties
# (the suit's through the enum's own), which every limited turn ran; a suit is found by
# identity, since an enum member hashes through Python code too.
_SUIT_NAMES: Final = tuple((suit, suit.spanish_name.lower()) for suit in Suit)
_CARD_NAMES: Final = {card: card.spanish_name for card in deck_cards(DeckKind.SPANISH48)}


def _named(suit: Suit) -> str:
    for known, name in _SUIT_NAMES:
        if known is suit:
            return name
    return suit.spanish_name.lower()


def known_voids(state: State) -> tuple[frozenset[Suit], ...]:
    """For each seat, the suits arrastre play has shown it holds none of.

    A follower that does not follow the led suit is void in it; one that also
    plays no trump when the duty to trump binds it is void in trumps. Only tricks
    after the last draw count, since a draw can refill a suit.
    """
    rules, table = state.seating.rules, state.seating
    voids: list[set[Suit]] = [set() for _ in range(rules.num_players)]
    if rules.play_obligation is _FREE:
        return tuple(frozenset(v) for v in voids)
    draw_rounds = (len(rules.cards) - rules.hand_size * table.seats_in_play) // table.seats_in_play
    tricks: list[tuple[Played, ...]] = [t.cards for t in state.tricks]
    if state.trick:
        tricks.append(state.trick)
    for cards in tricks[draw_rounds:]:
        led = cards[0][1].suit
        for j in range(1, len(cards)):
            seat, card = cards[j]
            if card.suit is led:
                continue
            voids[seat].add(led)
            if card.suit is state.trump:
                continue
            win_seat, win = winning(cards[:j], state.trump, table)
            if _trump_duty(state, win_seat, win, seat) in (_ANY, _OVER_ELSE_ANY):
                voids[seat].add(state.trump)  # type: ignore[arg-type]
    return tuple(frozenset(v) for v in voids)


def _observe(state: State, seat: Seat) -> dict[str, Any]:
    return {"voids": known_voids(state)}


VARIANT: Variant = Variant(
    "arrastre",
    lambda rules: rules.play_obligation is not _FREE,
    playable=playable,
    observe=_observe,
)
