"""The actions a seat can take: small frozen records with a text notation.

Every action has one canonical text form, given by ``str(action)`` and read back
by :func:`parse_action`:

- ``Play(card)``: the card's code, such as ``"3C"``;
- ``Swap(card)``: ``"swap "`` and the code of the card given up, such as ``"swap 7O"``;
- ``ClaimBlackHand()``: ``"claim"``;
- ``Signal(name)``: ``"signal "`` and the signal's name, such as ``"signal wink"``;
- ``Bid(points)``: ``"bid 75"``; ``BidRank(rank)``: ``"bid rank 3"``; ``Pass()``: ``"pass"``;
- ``NameTrump(suit)``: ``"trump O"``; ``CallCard(card)``: ``"call 3O"``;
- ``Sing(suit)``: ``"sing E"`` (a cante of Rey and Caballo).
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, Final, TypeAlias, TypeVar, Union

import attr
import attrs

from brisca.game.cards import RANKS, Card, DeckKind, Suit, deck_cards
from brisca.game.errors import (
    BARE_ERRORS,
    BriscaError,
    NotationError,
    checked_int,
    describe,
    plain_text,
    text_of,
)
from brisca.game.values import frozen

__all__ = [
    "ACTION_TYPES",
    "MAX_BID",
    "PLAYS",
    "SIGNAL_NAMES",
    "Action",
    "Bid",
    "BidRank",
    "CallCard",
    "ClaimBlackHand",
    "NameTrump",
    "Pass",
    "Play",
    "Signal",
    "Sing",
    "Swap",
    "parse_action",
    "parse_actions",
    "well_formed",
]


def _unreadable(text: str) -> NotationError:
    return NotationError(
        f"cannot read {describe(text, typed=False)} as an action; expected one such as "
        "'3C', 'swap 7O', 'claim', 'signal wink', 'bid 75', 'pass', 'trump O' or 'call 3O'"
    )


def _to_card(value: object) -> Card:
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return Card.parse(value)
    raise NotationError(f"expected a Card or a card code, got {describe(value)}")


# Built as the values of a hand are (see `brisca.game.values`): the engine reads a play's
# card at every move, which compiled is a read from the object itself.
# Fields by attr.ib, not auto_attribs, here and in every action: compiled, mypyc hands
# attrs each class variable (KEYWORD) as an annotated one, which auto_attribs reads as a field.
@attr.s(auto_detect=True, frozen=True, slots=True, init=False, order=False, weakref_slot=False)
class Play:
    """Play `card` to the trick. ``Play("3C")`` reads the code for you."""

    #: A play is written as the card's code alone.
    KEYWORD: ClassVar[str] = ""

    card: Card = attr.ib()

    def __init__(self, card: object) -> None:
        self.card = card if type(card) is Card else _to_card(card)  # type: ignore[misc]
        if type(self) is not Play:  # interpreted: sealed (see brisca.game.values)
            self.__class__ = Play

    def __reduce__(self) -> tuple[Any, ...]:
        return (Play, (self.card,))

    def __str__(self) -> str:
        return self.card.code

    @classmethod
    def from_notation(cls, rest: str, text: str) -> Play:
        """The play that `rest` (here the whole text) writes."""
        try:
            return PLAYS[Card.parse(rest)]
        except NotationError:
            raise _unreadable(text) from None


frozen(Play, Play)

#: The one `Play` of each card of the 48-card pack: the engine's legal actions and the
#: notation reader hand these out, so code that keeps plays in a dict or a tuple meets
#: the very objects it holds and skips comparing them field by field. A `Play` made
#: anew is equal to its card's, and works the same, only a little slower.
PLAYS: Mapping[Card, Play] = MappingProxyType(
    {card: Play(card) for card in deck_cards(DeckKind.SPANISH48)}
)


@attrs.frozen(auto_attribs=False)
class Swap:
    """Exchange `card`, a trump-suit card in hand, for the turned trump card."""

    KEYWORD: ClassVar[str] = "swap"

    card: Card = attrs.field(converter=_to_card)

    def __str__(self) -> str:
        return f"swap {self.card.code}"

    @classmethod
    def from_notation(cls, rest: str, text: str) -> Swap:
        """The swap that `rest`, the text after the keyword, writes; `text` is all of it."""
        if not rest:
            raise _unreadable(text)
        return cls(Card.parse(rest))


@attrs.frozen(auto_attribs=False)
class ClaimBlackHand:
    """Show a black hand, the 1, 3 and 12 of trumps, to win the round (SPEC §2.5)."""

    KEYWORD: ClassVar[str] = "claim"

    def __str__(self) -> str:
        return "claim"

    @classmethod
    def from_notation(cls, rest: str, text: str) -> ClaimBlackHand:
        """The claim, which takes nothing after its keyword."""
        if rest:
            raise _unreadable(text)
        return cls()


#: Every signal name of both vocabularies (SPEC §2.9); the rules say which apply.
SIGNAL_NAMES = ("lip_bite", "shoulder", "wink", "head_shake", "lips", "eyes_up")


def _signal_name(value: object) -> str:
    name = text_of(value)
    if name not in SIGNAL_NAMES:
        raise NotationError(
            f"{describe(value)} is no signal; the signals are {', '.join(SIGNAL_NAMES)}"
        )
    return name


@attrs.frozen(auto_attribs=False)
class Signal:
    """Make a partnership signal (seña), such as ``Signal("wink")`` (SPEC §2.9)."""

    KEYWORD: ClassVar[str] = "signal"

    name: str = attrs.field(converter=_signal_name)

    def __str__(self) -> str:
        return f"signal {self.name}"

    @classmethod
    def from_notation(cls, rest: str, text: str) -> Signal:
        """The signal `rest` names."""
        if not rest:
            raise _unreadable(text)
        return cls(rest.lower())


#: The greatest bid of any rules: a hand's 120 card points and 100 of cantes, the 40 and
#: three 20s (SPEC §2.7); the auction refuses any bid its own rules do not reach.
MAX_BID = 220


def _points(value: object) -> int:
    return checked_int(value, "a bid's points", 1, MAX_BID, error=NotationError)


def _rank(value: object) -> int:
    return checked_int(value, "a rank bid's rank", RANKS[0], RANKS[-1], error=NotationError)


def _suit(value: object) -> Suit:
    if type(value) is Suit:
        return value
    letter = text_of(value)
    try:
        return Suit(None if letter is None else letter.upper())
    except NotationError:
        raise NotationError(
            f"expected a suit or its letter O, C, E or B, got {describe(value)}"
        ) from None


@attrs.frozen(auto_attribs=False)
class Bid:
    """Bid `points`, from 1 to :data:`MAX_BID` (SPEC §2.7): in subastada the contract; in
    chiamata "2 + points" (§2.8)."""

    KEYWORD: ClassVar[str] = "bid"

    points: int = attrs.field(converter=_points)

    def __str__(self) -> str:
        return f"bid {self.points}"

    @classmethod
    def from_notation(cls, rest: str, text: str) -> Bid:
        """The bid of the points `rest` writes."""
        return cls(_number(rest, text))


@attrs.frozen(auto_attribs=False)
class BidRank:
    """Bid a rank in briscola chiamata, each lower in trick order than the last (SPEC §2.8)."""

    KEYWORD: ClassVar[str] = "bid rank"

    rank: int = attrs.field(converter=_rank)

    def __str__(self) -> str:
        return f"bid rank {self.rank}"

    @classmethod
    def from_notation(cls, rest: str, text: str) -> BidRank:
        """The bid of the rank `rest` writes."""
        return cls(_number(rest, text))


@attrs.frozen(auto_attribs=False)
class Pass:
    """Pass in an auction; a pass is final."""

    KEYWORD: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"

    @classmethod
    def from_notation(cls, rest: str, text: str) -> Pass:
        """The pass, which takes nothing after its keyword."""
        if rest:
            raise _unreadable(text)
        return cls()


@attrs.frozen(auto_attribs=False)
class NameTrump:
    """The subastada declarer names the trump suit (SPEC §2.7)."""

    KEYWORD: ClassVar[str] = "trump"

    suit: Suit = attrs.field(converter=_suit)

    def __str__(self) -> str:
        return f"trump {self.suit.value}"

    @classmethod
    def from_notation(cls, rest: str, text: str) -> NameTrump:
        """The suit `rest` names as trump."""
        if not rest:
            raise _unreadable(text)
        return cls(_suit(rest))


@attrs.frozen(auto_attribs=False)
class CallCard:
    """The chiamata caller calls `card`: its suit is trump, its holder the secret partner."""

    KEYWORD: ClassVar[str] = "call"

    card: Card = attrs.field(converter=_to_card)

    def __str__(self) -> str:
        return f"call {self.card.code}"

    @classmethod
    def from_notation(cls, rest: str, text: str) -> CallCard:
        """The call of the card `rest` writes."""
        if not rest:
            raise _unreadable(text)
        return cls(Card.parse(rest))


@attrs.frozen(auto_attribs=False)
class Sing:
    """Sing a cante: show the Rey and Caballo of `suit`, 40 in trumps and 20 otherwise."""

    KEYWORD: ClassVar[str] = "sing"

    suit: Suit = attrs.field(converter=_suit)

    def __str__(self) -> str:
        return f"sing {self.suit.value}"

    @classmethod
    def from_notation(cls, rest: str, text: str) -> Sing:
        """The cante of the suit `rest` names."""
        if not rest:
            raise _unreadable(text)
        return cls(_suit(rest))


Action: TypeAlias = Union[  # noqa: UP007 (Python 3.10 needs Union at runtime)
    Play, Swap, ClaimBlackHand, Signal, Bid, BidRank, Pass, NameTrump, CallCard, Sing
]

#: Every action type. Each writes itself with ``str`` and reads itself back with its
#: ``from_notation``, after its ``KEYWORD``; the variants' registry owns all but `Play`.
ACTION_TYPES: tuple[type[Action], ...] = (
    Play,
    Swap,
    ClaimBlackHand,
    Signal,
    Bid,
    BidRank,
    Pass,
    NameTrump,
    CallCard,
    Sing,
)
_DIGITS = frozenset("0123456789")
# Longest keyword first, so that "bid rank 3" is not read as "bid" and "rank 3".
_KEYWORDS = sorted(
    ((kind.KEYWORD, kind) for kind in ACTION_TYPES if kind.KEYWORD), key=lambda pair: -len(pair[0])
)


#: The most digits a number in action notation may have (the greatest bid is MAX_BID).
_MAX_DIGITS = 6


def _number(digits: str, text: str) -> int:
    """A number in action notation: ASCII digits only, so ``"bid ²"`` or ``"bid ٣"`` is no bid."""
    if not (digits.isascii() and digits.isdigit() and len(digits) <= _MAX_DIGITS):
        raise NotationError(
            f"cannot read {describe(text, typed=False)} as a bid: a bid is 'bid' and "
            f"up to {_MAX_DIGITS} ASCII digits, such as 'bid 75', or 'bid rank 3'"
        )
    return int(digits)


# Canonical texts read before, with their actions: a replay reads the same few hundred
# texts over and over. Only a text that is its action's ``str`` is kept, so the cache is
# bounded by the finite vocabulary (cards, bids up to MAX_BID, signals, suits), whatever
# the input; actions are frozen, so one may be shared.
_READ: dict[str, Action] = {}


# The actions the library hands out again and again (the variants' offers, the actions
# parse_action reads), with their fields as their constructor made them, by identity:
# `well_formed` knows such an action at once while its fields are still those objects.
# Bounded by the finite vocabulary, as _READ is; an entry keeps its action alive, so
# its id is never another object's.
_MADE: dict[int, tuple[Any, tuple[str, ...], tuple[object, ...]]] = {}
_A = TypeVar("_A", bound=attrs.AttrsInstance)
_UNSET: Final = object()  # a field deleted past the constructor


def made(action: _A) -> _A:
    """`action`, a value of its constructor's, from now on known to `well_formed` at once."""
    names = tuple(f.name for f in attrs.fields(type(action)))
    _MADE[id(action)] = (action, names, tuple(getattr(action, name) for name in names))
    return action


def well_formed(action: object) -> bool:
    """Whether `action` is an action its constructor makes: of an action type, every
    field set, each of the type the constructor keeps and equal to it. One built past
    the constructor (``object.__new__``, ``object.__setattr__``) may lack a field, or
    hold a value that claims to equal anything; the engine refuses it as malformed.

    >>> well_formed(Play("1O")), well_formed(object.__new__(Play)), well_formed("1O")
    (True, False, False)
    """
    known = _MADE.get(id(action))
    if known is not None and known[0] is action:
        _, names, values = known
        # A field set anew past the constructor since is checked as any action is.
        if all(getattr(action, n, _UNSET) is v for n, v in zip(names, values, strict=True)):
            return True
    kind: Any = type(action)
    if kind not in ACTION_TYPES:
        return False
    try:
        given = {f.name: getattr(action, f.name) for f in attrs.fields(kind)}
        made = kind(**given)
        # Compared only once the types match: then both are the library's own values.
        return all(
            type(value) is type(kept) and value == kept
            for value, kept in zip(given.values(), attrs.astuple(made, recurse=False), strict=True)
        )
    except (BriscaError, *BARE_ERRORS):  # what its constructor refuses: no action
        return False


def parse_action(text: object) -> Action:
    """Read an action from its canonical text form.

    >>> parse_action("3C"), parse_action("swap 7O")
    (Play(card=Card.parse('3C')), Swap(card=Card.parse('7O')))

    Raises:
        NotationError: the text is no action.
    """
    if type(text) is not str and isinstance(text, str):  # read as the plain text it holds
        text = plain_text(text)
    if type(text) is str:
        known = _READ.get(text)
        if known is not None:
            return known
        action = _parse(text)
        if str(action) == text:
            _READ[text] = made(action)
        return action
    return _parse(text)


def parse_actions(texts: Sequence[str]) -> tuple[Action, ...]:
    """Read many actions, each as :func:`parse_action` does: at C speed when every text
    is canonical notation read before, as in a replay.

    Raises:
        NotationError: `texts` is not a list or tuple, or a text is no action (the first such).
    """
    if not isinstance(texts, (list, tuple)):
        raise NotationError(f"the actions must be a list or tuple of texts, got {describe(texts)}")
    if len(texts) >= 2 and set(map(type, texts)) == {str}:  # a subclass may hash otherwise
        try:
            found: tuple[Action, ...] = operator.itemgetter(*texts)(_READ)
            return found
        except KeyError:
            pass
    return tuple(map(parse_action, texts))


def _parse(text: object) -> Action:
    """What :func:`parse_action` reads, without the cache."""
    if not isinstance(text, str):
        raise NotationError(f"an action must be given as text, got {describe(text)}")
    stripped = text.strip()
    if stripped[:1] in _DIGITS:  # no keyword starts with a digit: a card, the common case
        return Play.from_notation(text, text)
    lowered = stripped.lower()
    for keyword, kind in _KEYWORDS:
        if lowered == keyword or lowered.startswith(keyword + " "):
            return kind.from_notation(stripped[len(keyword) :].strip(), text)
    return Play.from_notation(text, text)
