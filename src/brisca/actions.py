"""The actions a seat can take: small frozen records with a text notation.

Every action has one canonical text form, given by ``str(action)`` and read back
by :func:`parse_action`:

- ``Play(card)``: the card's code, such as ``"3C"``;
- ``Swap(card)``: ``"swap "`` and the code of the card given up, such as ``"swap 7O"``;
- ``ClaimBlackHand()``: ``"claim"``;
- ``Signal(name)``: ``"signal "`` and the signal's name, such as ``"signal wink"``.
"""

from __future__ import annotations

from typing import TypeAlias, Union

import attrs

from brisca.cards import Card
from brisca.errors import NotationError

__all__ = ["SIGNAL_NAMES", "Action", "ClaimBlackHand", "Play", "Signal", "Swap", "parse_action"]


def _to_card(value: object) -> Card:
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return Card.parse(value)
    raise NotationError(f"expected a Card or a card code, got {value!r}")


@attrs.frozen
class Play:
    """Play `card` to the trick. ``Play("3C")`` reads the code for you."""

    card: Card = attrs.field(converter=_to_card)

    def __str__(self) -> str:
        return self.card.code


@attrs.frozen
class Swap:
    """Exchange `card`, a trump-suit card in hand, for the turned trump card."""

    card: Card = attrs.field(converter=_to_card)

    def __str__(self) -> str:
        return f"swap {self.card.code}"


@attrs.frozen
class ClaimBlackHand:
    """Show a black hand, the 1, 3 and 12 of trumps, to win the round (SPEC §2.5)."""

    def __str__(self) -> str:
        return "claim"


#: Every signal name of both vocabularies (SPEC §2.9); the rules say which apply.
SIGNAL_NAMES = ("lip_bite", "shoulder", "wink", "head_shake", "lips", "eyes_up")


def _signal_name(value: object) -> str:
    if not isinstance(value, str) or value not in SIGNAL_NAMES:
        raise NotationError(f"{value!r} is no signal; the signals are {', '.join(SIGNAL_NAMES)}")
    return value


@attrs.frozen
class Signal:
    """Make a partnership signal (seña), such as ``Signal("wink")`` (SPEC §2.9)."""

    name: str = attrs.field(converter=_signal_name)

    def __str__(self) -> str:
        return f"signal {self.name}"


Action: TypeAlias = Union[Play, Swap, ClaimBlackHand, Signal]  # noqa: UP007 (Python 3.10)


def parse_action(text: str) -> Action:
    """Read an action from its canonical text form.

    >>> parse_action("3C"), parse_action("swap 7O")
    (Play(card=Card.parse('3C')), Swap(card=Card.parse('7O')))

    Raises:
        NotationError: the text is no action.
    """
    if not isinstance(text, str):
        raise NotationError(f"an action must be given as text, got {text!r}")
    word, _, rest = text.strip().partition(" ")
    word = word.lower()
    if word == "swap" and rest:
        return Swap(Card.parse(rest))
    if word == "claim" and not rest:
        return ClaimBlackHand()
    if word == "signal" and rest:
        return Signal(rest.strip().lower())
    try:
        return Play(Card.parse(text))
    except NotationError:
        raise NotationError(
            f"cannot read {text!r} as an action; expected a card code such as '3C', "
            "'swap 7O', 'claim' or 'signal wink'"
        ) from None
