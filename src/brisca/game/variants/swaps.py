"""Cambiar la muestra: exchanging a trump in hand for the turned card (SPEC §2.3).

A "high" turned card is a 1, 3, 12, 11 or 10; a "low" one a 9, 8, 7, 6, 5 or 4;
a turned 2 can never be taken. The 7 of trumps may take a high card and the 2 a
low one (a swapped-in 7 included), each as the options allow. The swap is made
in view: the trump suit never changes.
"""

from __future__ import annotations

from typing import Final

from brisca.game.actions import Action, Swap
from brisca.game.cards import Card, DeckKind, deck_cards
from brisca.game.events import Swapped
from brisca.game.rules import Rules, SwapDeadline, SwapRequirement, SwapTiming
from brisca.game.state import Seat, State, SwapRecord, evolve_ledger, evolve_state
from brisca.game.variants.variant import Log, Variant

__all__ = ["HIGH", "VARIANT", "apply", "offered", "refusal"]

# Enum members as module constants: Python 3.11 looks `Enum.MEMBER` up through
# EnumType.__getattr__, about ten times the cost of a global, and these checks run every turn;
# Final, compiled code reads them directly.
_PRE_FIRST_TRICK_ONLY: Final = SwapTiming.PRE_FIRST_TRICK_ONLY
_AFTER_WINNING_TRICK: Final = SwapTiming.AFTER_WINNING_TRICK
_PLAYER: Final = SwapRequirement.PLAYER
_SIDE: Final = SwapRequirement.SIDE
_STOCK_NONEMPTY: Final = SwapDeadline.STOCK_NONEMPTY
_BEFORE_PENULTIMATE_TRICK: Final = SwapDeadline.BEFORE_PENULTIMATE_TRICK

#: Ranks of a "high" turned card.
HIGH = (1, 3, 12, 11, 10)


def refusal(state: State, seat: Seat, action: Action) -> str | None:
    """Why `seat` may not make the `Swap` now, or ``None`` if it may."""
    assert isinstance(action, Swap)
    card = action.card
    why = _general_refusal(state, seat)
    if why:
        return why
    if card not in state.hands[seat]:
        return f"{card} is not in the hand of seat {seat}, the seat to act"
    if card.suit is not state.trump:
        return f"only a trump can be swapped for the turned card, and {card} is not one"
    turned = state.trump_card
    assert turned is not None
    return _exchange(state, card, turned, not state.tricks and not state.trick)


def _general_refusal(state: State, seat: int) -> str | None:
    """Why `seat` may make no swap at all now, or ``None``."""
    rules = state.seating.rules
    if not rules.swap_enabled:
        return "swaps are off in these rules (swap_enabled=False)"
    if state.trump_card is None:
        return "there is no turned card left to swap for"
    why = _timing(state, seat, not state.tricks and not state.trick) or _deadline(state)
    if why:
        return why
    if rules.swap_max_per_trick and any(s.trick == len(state.tricks) for s in state.ledger.swaps):
        return "only one swap per trick (swap_max_per_trick=1)"
    return None


def _timing(state: State, seat: int, before_first_lead: bool) -> str | None:
    rules, table = state.seating.rules, state.seating
    timing = rules.swap_timing
    if timing is _PRE_FIRST_TRICK_ONLY and not before_first_lead:
        return "swaps are only allowed before the first trick (swap_timing='pre_first_trick_only')"
    if timing is _AFTER_WINNING_TRICK and (
        state.trick or not state.tricks or state.tricks[-1].winner != seat
    ):
        return (
            "only the winner of the last trick may swap, before leading "
            "(swap_timing='after_winning_trick')"
        )
    needed = rules.swap_requires_trick_won
    if needed is _PLAYER and all(t.winner != seat for t in state.tricks):
        return "a swap needs a trick won first (swap_requires_trick_won='player')"
    if needed is _SIDE and all(
        table.side_of[t.winner] != table.side_of[seat] for t in state.tricks
    ):
        return "a swap needs a trick won by the side first (swap_requires_trick_won='side')"
    return None


def _deadline(state: State) -> str | None:
    deadline = state.seating.rules.swap_deadline
    if deadline is _STOCK_NONEMPTY and not state.stock:
        return "no swap once only the turned card is left (swap_deadline='stock_nonempty')"
    if (
        deadline is _BEFORE_PENULTIMATE_TRICK
        and len(state.stock) + 1 <= state.seating.seats_in_play
    ):
        return "no swap in the last round of draws (swap_deadline='before_penultimate_trick')"
    return None


def _exchange(state: State, card: Card, turned: Card, before_first_lead: bool) -> str | None:
    rules = state.seating.rules
    if turned.rank == 2:
        return "a turned 2 can never be taken"
    high = turned.rank in HIGH
    if card.rank == 7 and high:
        if not rules.swap_seven_for_high:
            return "the 7 may not take the turned card here (swap_seven_for_high=False)"
        if rules.swap_two_precedence and before_first_lead:
            return (
                "before the first lead only the 2 may take a high turned card (swap_two_precedence)"
            )
        return None
    if card.rank == 2 and not high:
        if rules.swap_two_for_low:
            return None
        return "the 2 may not take a low turned card here (swap_two_for_low=False)"
    if card.rank == 2 and high:
        if rules.swap_two_for_high_pre_first_trick and before_first_lead:
            return None
        return f"the 2 cannot take a high turned card like the {turned.spanish_name} now"
    if card.rank == 7:
        return f"the 7 can only take a high turned card (1, 3, 12, 11 or 10), not the {turned}"
    return "only the 7 or the 2 of trumps can be swapped for the turned card"


def offered(state: State, seat: Seat) -> tuple[Action, ...]:
    """The swaps `seat` may make now, in hand order."""
    if _general_refusal(state, seat):
        return ()
    turned, trump = state.trump_card, state.trump
    assert turned is not None
    first = not state.tricks and not state.trick
    return tuple(
        _SWAPS[c]
        for c in state.hands[seat]
        if c.suit is trump and _exchange(state, c, turned, first) is None
    )


def apply(state: State, seat: Seat, action: Action, log: Log) -> State:
    """The state after `seat` gives the `Swap`'s card for the turned card."""
    assert isinstance(action, Swap)
    card, turned = action.card, state.trump_card
    assert turned is not None
    hands = list(state.hands)
    hands[seat] = (*(c for c in hands[seat] if c is not card), turned)
    record = SwapRecord(seat, card, turned, len(state.tricks))
    ledger = evolve_ledger(state.ledger, swaps=(*state.ledger.swaps, record))
    if log is not None:
        log.append(Swapped(seat, card, turned))
    return evolve_state(state, hands=tuple(hands), trump_card=card, ledger=ledger)


def _possible(action: Action, rules: Rules) -> bool:
    return isinstance(action, Swap) and rules.swap_enabled and action.card in rules.cards


#: One `Swap` of each card that may be swapped (a 2 or a 7), which `offered` hands out.
_SWAPS: Final = {c: Swap(c) for c in deck_cards(DeckKind.SPANISH48) if c.rank in (2, 7)}

VARIANT: Variant = Variant(
    "swaps",
    lambda rules: rules.swap_enabled,
    actions=(Swap,),
    universe=tuple(_SWAPS.values()),
    possible=_possible,
    offered=offered,
    refusal=refusal,
    apply=apply,
    moves_cards=True,
    observe=lambda state, seat: {"swaps": state.ledger.swaps},
)
