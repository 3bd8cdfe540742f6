"""Cantes: singing the Rey and Caballo of a suit, 40 in trumps and 20 otherwise (SPEC §2.7).

Only the seat that has just won a trick may sing, after the draw and before it
leads; one cante per trick won, and the 40 before any 20. Each suit is sung at
most once. The cards are shown and stay in hand. There is no "10 de últimas".
"""

from __future__ import annotations

from typing import Final

from brisca.game.actions import Action, Sing
from brisca.game.cards import Card, Suit
from brisca.game.events import Announced
from brisca.game.rules import Rules
from brisca.game.state import Cante, Seat, State, evolve_ledger, evolve_state
from brisca.game.variants.variant import Log, Variant

__all__ = [
    "MAX_CANTE_POINTS",
    "OTHER_CANTE",
    "TRUMP_CANTE",
    "VARIANT",
    "apply",
    "cante_points",
    "offered",
    "pair",
    "refusal",
]

#: What a cante is worth: 40 in trumps, 20 in another suit.
TRUMP_CANTE, OTHER_CANTE = 40, 20
#: The most one hand's cantes can bring: the 40 and three 20s.
MAX_CANTE_POINTS = TRUMP_CANTE + 3 * OTHER_CANTE


def pair(suit: Suit) -> tuple[Card, Card]:
    """The cards a cante in `suit` shows: its Rey and its Caballo."""
    return Card(12, suit), Card(11, suit)


def cante_points(suit: Suit, trump: Suit | None) -> int:
    """What a cante in `suit` is worth when `trump` is the trump suit."""
    return TRUMP_CANTE if suit is trump else OTHER_CANTE


def _holds_pair(state: State, seat: int, suit: Suit) -> bool:
    hand = state.hands[seat]
    king, knight = pair(suit)
    return king in hand and knight in hand


def refusal(state: State, seat: Seat, action: Action) -> str | None:
    """Why `seat` may not make the cante (`Sing`) now, or ``None`` if it may."""
    assert isinstance(action, Sing)
    suit = action.suit
    if not state.seating.rules.cantes:
        return "cantes are off in these rules (cantes=False)"
    trump = state.trump
    if trump is None:
        return "no cante before the trump is named"
    if state.trick or not state.tricks or state.tricks[-1].winner != seat:
        return "only the winner of the last trick may sing, before leading"
    sung = state.ledger.cantes
    if any(c.seat == seat and c.trick == len(state.tricks) for c in sung):
        return "one cante per trick won"
    if any(c.suit is suit for c in sung):
        return f"the {suit.spanish_name.lower()} have been sung already"
    if not _holds_pair(state, seat, suit):
        return f"a cante needs the Rey and the Caballo de {suit.spanish_name}"
    if (
        suit is not trump
        and _holds_pair(state, seat, trump)
        and all(c.suit is not trump for c in sung)
    ):
        return "the 40 in trumps comes before any 20"
    return None


def offered(state: State, seat: Seat) -> tuple[Action, ...]:
    """The cantes `seat` may sing now."""
    return tuple(a for a in _SINGS if refusal(state, seat, a) is None)


def apply(state: State, seat: Seat, action: Action, log: Log) -> State:
    """The state after `seat` sings the `Sing`'s suit."""
    assert isinstance(action, Sing)
    suit = action.suit
    cante = Cante(seat, suit, cante_points(suit, state.trump), len(state.tricks))
    if log is not None:
        log.append(Announced(seat, str(action)))
    return evolve_state(
        state, ledger=evolve_ledger(state.ledger, cantes=(*state.ledger.cantes, cante))
    )


def _possible(action: Action, rules: Rules) -> bool:
    return rules.cantes


_SINGS: Final = tuple(Sing(s) for s in Suit)

VARIANT: Variant = Variant(
    "cantes",
    lambda rules: rules.cantes,
    actions=(Sing,),
    universe=_SINGS,
    possible=_possible,
    offered=offered,
    refusal=refusal,
    apply=apply,
    observe=lambda state, seat: {"cantes": state.ledger.cantes},
)
