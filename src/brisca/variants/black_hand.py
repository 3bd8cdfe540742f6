"""The black hand: the 1, 3 and 12 of trumps in one hand win the round (SPEC §2.5).

Partners' cards never combine. A turned 1, 3 or 12 blocks it until it is drawn
or swapped, since nobody holds it meanwhile. Under ``deal_only`` only a dealt
black hand counts; under ``any_time`` one formed by a draw or a swap counts too.
A ``declare`` black hand is shown by its holder on its turn, before its next
play; an ``automatic`` one ends the hand the moment it forms.
"""

from __future__ import annotations

from brisca.cards import Card
from brisca.rules import BlackHand, BlackHandClaim
from brisca.state import State

__all__ = ["holder", "refusal"]

# Enum members as module constants: Python 3.11 looks `Enum.MEMBER` up through
# EnumType.__getattr__, about ten times the cost of a global, and these checks run every turn.
_OFF, _ANY_TIME, _AUTOMATIC = BlackHand.OFF, BlackHand.ANY_TIME, BlackHandClaim.AUTOMATIC


def _black(hand: tuple[Card, ...], state: State) -> bool:
    trump = state.trump
    ranks = {c.rank for c in hand if c.suit is trump}
    return {1, 3, 12} <= ranks


def holder(state: State, dealt_only: bool = False) -> int | None:
    """The seat holding a black hand that counts under the rules now, if any."""
    mode = state.table.rules.black_hand
    if mode is _OFF or state.trump is None:
        return None
    for seat, hand in enumerate(state.hands):
        if _black(hand, state) and (
            mode is _ANY_TIME or set(hand) == set(state.ledger.dealt[seat])
        ):
            return seat
    return None


def refusal(state: State, seat: int) -> str | None:
    """Why `seat` may not claim a black hand now, or ``None`` if it may."""
    rules = state.table.rules
    if rules.black_hand is _OFF:
        return "black hands are off in these rules (black_hand='off')"
    if rules.black_hand_claim is _AUTOMATIC:
        return "a black hand wins by itself here (black_hand_claim='automatic')"
    if holder(state) != seat:
        if _black(state.hands[seat], state):
            return "only a dealt black hand counts (black_hand='deal_only')"
        return f"seat {seat} does not hold the 1, 3 and 12 of trumps"
    return None
