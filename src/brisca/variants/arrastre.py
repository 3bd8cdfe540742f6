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

from brisca.cards import Card
from brisca.rules import CannotOvertrump, Overtrump, PlayObligation
from brisca.state import State
from brisca.tricks import winning

__all__ = ["in_force", "playable"]

# Enum members as module constants: Python 3.11 looks `Enum.MEMBER` up through
# EnumType.__getattr__, about ten times the cost of a global, and these checks run every turn.
_FREE, _WHOLE_HAND = PlayObligation.FREE, PlayObligation.ARRASTRE_WHOLE_HAND
_ANY_TRUMP, _MUST_UNDERTRUMP = Overtrump.ANY_TRUMP, CannotOvertrump.MUST_UNDERTRUMP


def in_force(state: State) -> bool:
    """Whether play obligations bind now: always, or once the talon is exhausted."""
    obligation = state.table.rules.play_obligation
    if obligation is _FREE:
        return False
    if obligation is _WHOLE_HAND:
        return True
    return not state.stock and state.trump_card is None


def playable(state: State, seat: int) -> tuple[tuple[Card, ...], str]:
    """The cards `seat` may play now and, when they are not the whole hand, the duty why."""
    hand = state.hands[seat]
    if not state.trick or not in_force(state):
        return hand, ""
    table, rules, trump = state.table, state.table.rules, state.trump
    strength = table.strength
    led = state.trick[0][1].suit
    led_name = led.spanish_name.lower()
    win_seat, win = winning(state.trick, trump, table)
    follow = tuple(c for c in hand if c.suit is led)
    if follow:
        if win.suit is led and rules.arrastre_must_beat:
            over = tuple(c for c in follow if strength[c] > strength[win])
            if over:
                return (
                    over,
                    f"must follow {led_name} and beat the {win.spanish_name} (arrastre)",
                )
        return follow, f"must follow {led_name} (arrastre)"
    trumps = tuple(c for c in hand if c.suit is trump)
    if not trumps:
        return hand, ""
    if rules.arrastre_partner_relief and table.side_of[win_seat] == table.side_of[seat]:
        return hand, ""
    if win.suit is not trump or rules.arrastre_overtrump is _ANY_TRUMP:
        return trumps, f"void in {led_name}, must trump (arrastre)"
    over = tuple(c for c in trumps if strength[c] > strength[win])
    if over:
        return (
            over,
            f"void in {led_name}, must beat the {win.spanish_name} (arrastre)",
        )
    if rules.arrastre_cannot_overtrump is _MUST_UNDERTRUMP:
        return (
            trumps,
            f"void in {led_name}, must play a trump (arrastre: contrafallo)",
        )
    return hand, ""
