"""Who wins a trick (SPEC §1.10): shared by play, arrastre duties and state checks."""

from __future__ import annotations

from collections.abc import Sequence

from brisca.game.cards import Card, Suit
from brisca.game.state import Seating

__all__ = ["winning"]


def winning(
    cards: Sequence[tuple[int, Card]], trump: Suit | None, seating: Seating
) -> tuple[int, Card]:
    """The ``(seat, card)`` winning a trick so far; `cards` must not be empty.

    A card takes the lead from the winning card when it is of the same suit and
    stronger, or when it is the first trump over a non-trump. So the highest trump
    wins if any was played, otherwise the highest card of the led suit, and an
    off-suit card that is not trump never wins.
    """
    # A tuple, as the engine's tricks are: compiled, indexed and sliced as one.
    trick: tuple[tuple[int, Card], ...] = cards if type(cards) is tuple else tuple(cards)
    strength = seating.strength
    best = trick[0]
    # The winner's suit and strength kept, not read again for each card: compiled, a
    # card's attribute costs a lookup by name (cards are Python objects in both builds).
    top_suit, top = best[1].suit, strength[best[1]]
    for played in trick[1:]:
        card = played[1]
        suit = card.suit
        if suit is top_suit:
            stronger = strength[card]
            if stronger > top:
                best, top = played, stronger
        elif suit is trump:
            best, top_suit, top = played, suit, strength[card]
    return best
