"""The black hand: the 1, 3 and 12 of trumps in one hand win the round (SPEC §2.5).

Partners' cards never combine. A turned 1, 3 or 12 blocks it until it is drawn
or swapped, since nobody holds it meanwhile. Under ``deal_only`` only a dealt
black hand counts; under ``any_time`` one formed by a draw or a swap counts too.
A ``declare`` black hand is shown by its holder on its turn, before its next
play; an ``automatic`` one ends the hand the moment it forms.
"""

from __future__ import annotations

from typing import Final

from brisca.game.actions import Action, ClaimBlackHand
from brisca.game.cards import Card
from brisca.game.events import BlackHandClaimed
from brisca.game.rules import BlackHand, BlackHandClaim, Rules
from brisca.game.state import (
    BlackHandWin,
    HandResult,
    Seat,
    State,
    Termination,
    evolve_ledger,
    evolve_state,
)
from brisca.game.variants.variant import Log, Variant

__all__ = ["RANKS", "VARIANT", "holder", "refusal", "result"]

#: The ranks of trumps that make a black hand: the ace, the three and the king.
RANKS = (1, 3, 12)
_RANK_SET: Final = frozenset(RANKS)

# Enum members as module constants: Python 3.11 looks `Enum.MEMBER` up through
# EnumType.__getattr__, about ten times the cost of a global, and these checks run every turn;
# Final, compiled code reads them directly.
_OFF: Final = BlackHand.OFF
_ANY_TIME: Final = BlackHand.ANY_TIME
_AUTOMATIC: Final = BlackHandClaim.AUTOMATIC
_DECLARE: Final = BlackHandClaim.DECLARE


def _black(hand: tuple[Card, ...], state: State) -> bool:
    trump = state.trump
    ranks = {c.rank for c in hand if c.suit is trump}
    return ranks >= _RANK_SET


def holder(state: State) -> int | None:
    """The seat holding a black hand that counts under the rules now, if any."""
    mode = state.seating.rules.black_hand
    if mode is _OFF or state.trump is None:
        return None
    for seat, hand in enumerate(state.hands):
        if _black(hand, state) and (mode is _ANY_TIME or set(hand) == set(state.deal.hands[seat])):
            return seat
    return None


def refusal(state: State, seat: Seat, action: Action | None = None) -> str | None:
    """Why `seat` may not claim a black hand now, or ``None`` if it may."""
    rules = state.seating.rules
    if rules.black_hand is _OFF:
        return "black hands are off in these rules (black_hand='off')"
    if rules.black_hand_claim is _AUTOMATIC:
        return "a black hand wins by itself here (black_hand_claim='automatic')"
    if holder(state) != seat:
        if _black(state.hands[seat], state):
            return "only a dealt black hand counts (black_hand='deal_only')"
        return f"seat {seat} does not hold the 1, 3 and 12 of trumps"
    return None


def _offered(state: State, seat: Seat) -> tuple[Action, ...]:
    return (_CLAIM,) if refusal(state, seat) is None else ()


def _won(state: State, seat: Seat, automatic: bool, log: Log) -> State:
    if log is not None:
        log.append(BlackHandClaimed(seat, automatic))
    return evolve_state(state, to_act=None, ledger=evolve_ledger(state.ledger, black_hand=seat))


def _claim(state: State, seat: Seat, action: Action, log: Log) -> State:
    return _won(state, seat, False, log)


def _formed(state: State, log: Log) -> State:
    """End the hand if a black hand that wins by itself has just formed."""
    if state.seating.rules.black_hand_claim is not _AUTOMATIC:
        return state
    seat = holder(state)
    return state if seat is None else _won(state, seat, True, log)


def result(state: State, points: tuple[int, ...], last: int | None) -> HandResult | None:
    """A hand that a black hand ended is won by its holder's side, whatever the points."""
    seat = state.ledger.black_hand
    if seat is None:
        return None
    table = state.seating
    return HandResult(
        termination=Termination.BLACK_HAND,
        sides=table.sides,
        points=points,
        winner=table.side_of[seat],
        last_trick=last,
        details=BlackHandWin(seat),
    )


def _possible(action: Action, rules: Rules) -> bool:
    return rules.black_hand is not _OFF and rules.black_hand_claim is _DECLARE


_CLAIM: Final = ClaimBlackHand()

VARIANT: Variant = Variant(
    "black_hand",
    lambda rules: rules.black_hand is not _OFF,
    actions=(ClaimBlackHand,),
    universe=(_CLAIM,),
    possible=_possible,
    offered=_offered,
    refusal=refusal,
    apply=_claim,
    after_cards_move=_formed,
    observe=lambda state, seat: {"black_hand": state.ledger.black_hand},
    result=result,
)
