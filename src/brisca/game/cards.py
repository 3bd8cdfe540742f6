"""Spanish cards: suits, ranks, points, trick strength and notation.

Every card of the 48-card Spanish pack exists once, as an interned value:
``Card(rank, suit)``, :meth:`Card.parse` and the decks always return the same
object, so cards compare and hash by identity.
"""

from __future__ import annotations

import enum
import functools
import re
import unicodedata

from brisca.game.errors import NotationError, as_integer, describe, plain_text
from brisca.game.option import ByValue, Option
from brisca.game.values import held_whole

__all__ = [
    "Card",
    "DeckKind",
    "Suit",
    "card",
    "deck_cards",
]


class Suit(enum.Enum, metaclass=ByValue):
    """The four Spanish suits; the value is the suit's letter in card codes."""

    OROS = "O"
    COPAS = "C"
    ESPADAS = "E"
    BASTOS = "B"

    @property
    def letter(self) -> str:
        """The suit's letter in canonical codes: O, C, E or B."""
        return self.value

    @property
    def spanish_name(self) -> str:
        """The suit's Spanish name: Oros, Copas, Espadas, Bastos."""
        return self.name.capitalize()

    @property
    def english_name(self) -> str:
        """The suit's English name: Coins, Cups, Swords, Clubs."""
        return _ENGLISH_SUIT[self]

    def __str__(self) -> str:
        return self.value

    @classmethod
    def _refused(cls, value: object) -> NotationError:
        return NotationError(f"no such suit: the suits are O, C, E and B, got {describe(value)}")


_ENGLISH_SUIT = {
    Suit.OROS: "Coins",
    Suit.COPAS: "Cups",
    Suit.ESPADAS: "Swords",
    Suit.BASTOS: "Clubs",
}

#: Every rank of the 48-card pack, low to high by number.
RANKS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
#: Trick order, strongest first (SPEC §1.2); 8 and 9 only exist in 48-card decks.
TRICK_ORDER = (1, 3, 12, 11, 10, 9, 8, 7, 6, 5, 4, 2)
#: Card points (SPEC §1.3): 30 per suit, 120 in a deck.
POINTS = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}

_SPANISH_RANK = {
    1: "As", 2: "Dos", 3: "Tres", 4: "Cuatro", 5: "Cinco", 6: "Seis", 7: "Siete",
    8: "Ocho", 9: "Nueve", 10: "Sota", 11: "Caballo", 12: "Rey",
}  # fmt: skip
_ENGLISH_RANK = {
    1: "Ace", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven",
    8: "Eight", 9: "Nine", 10: "Jack", 11: "Knight", 12: "King",
}  # fmt: skip


class Card:
    """A Spanish card: a rank and a suit. Immutable, and interned.

    Ranks are 1-7, 8 and 9 (48-card decks only), 10 Sota, 11 Caballo, 12 Rey.
    There is one object per card, so ``Card(3, Suit.COPAS) is Card.parse("3C")``
    and cards compare and hash by identity, which keeps the engine fast.

    >>> c = Card.parse("3C")
    >>> c.rank, c.suit, c.points
    (3, <Suit.COPAS: 'C'>, 10)
    >>> str(c), c.spanish_name, c.english_name
    ('3C', 'Tres de Copas', 'Three of Cups')
    >>> Card(3, Suit.COPAS) is c
    True
    """

    __slots__ = ("code", "points", "rank", "strength", "suit")

    #: The rank: 1-7, 8 and 9, 10 (Sota), 11 (Caballo), 12 (Rey).
    rank: int
    #: The suit.
    suit: Suit
    #: Card points in the standard scheme: 1 = 11, 3 = 10, Rey = 4, Caballo = 3, Sota = 2.
    points: int
    #: Trick strength in the standard order, 12 for the Ace down to 1 for the 2.
    strength: int
    #: The canonical code: rank number then suit letter, such as ``"12E"``.
    code: str

    def __new__(cls, rank: int, suit: Suit) -> Card:
        # Exact types, or an integer (numpy's) read as one: True and 1.0 hash as 1.
        number = rank if type(rank) is int else as_integer(rank)
        card = _CARDS.get((number, suit)) if number is not None and type(suit) is Suit else None
        if card is None:
            raise NotationError(
                f"no such card: rank must be an int in 1..12 and suit a brisca.Suit, "
                f"got {describe(rank)}, {describe(suit)}"
            )
        return card

    @classmethod
    def _make(cls, rank: int, suit: Suit) -> Card:
        self = object.__new__(cls)
        for name, value in (
            ("rank", rank),
            ("suit", suit),
            ("points", POINTS.get(rank, 0)),
            ("strength", len(TRICK_ORDER) - TRICK_ORDER.index(rank)),
            ("code", f"{rank}{suit.value}"),
        ):
            object.__setattr__(self, name, value)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int, Suit]]:
        return Card, (self.rank, self.suit)

    @property
    def spanish_name(self) -> str:
        """The Spanish name, such as ``"Caballo de Copas"``."""
        return f"{_SPANISH_RANK[self.rank]} de {self.suit.spanish_name}"

    @property
    def english_name(self) -> str:
        """The English name, such as ``"Knight of Cups"``."""
        return f"{_ENGLISH_RANK[self.rank]} of {self.suit.english_name}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card from its canonical code, a Spanish or English name, or a French-deck code.

        Accepted forms (case and accents do not matter):

        - canonical codes: ``"1O"``, ``"3C"``, ``"12E"``, ``"7B"``;
        - Spanish names: ``"As de Oros"``, ``"caballo de copas"``, ``"7 de bastos"``;
        - English names: ``"Ace of Coins"``, ``"Knight of Cups"``, ``"Jack of Swords"``;
        - French-deck codes: rank ``A``, ``2``-``7``, ``J`` (Sota), ``Q`` (Caballo),
          ``K`` (Rey), then ``♦``/``D`` (oros), ``♥``/``H`` (copas), ``♠``/``S``
          (espadas) or ``♣`` (bastos). After a letter rank, ``C`` means clubs
          (``"KC"`` is the Rey de Bastos); after a number it is the canonical
          copas (``"7C"`` is the 7 de Copas). The French 8, 9 and 10 have no
          Brisca equivalent.

        >>> [str(Card.parse(t)) for t in ("as de oros", "Knight of Cups", "Q♠", "KC")]
        ['1O', '11C', '11E', '12B']

        Raises:
            NotationError: the text names no card.
        """
        if not isinstance(text, str):
            raise NotationError(f"a card must be given as text, got {describe(text)}")
        text = plain_text(text)
        found = _BY_TEXT.get(text.strip().upper())
        if found is not None:
            return found
        return _parse_slow(text)


def card(text: str) -> Card:
    """Shorthand for :meth:`Card.parse`."""
    return Card.parse(text)


# The interned cards, by (rank, suit) and by canonical code.
_CARDS: dict[tuple[int, Suit], Card] = {}
_CARDS.update({(r, s): Card._make(r, s) for s in Suit for r in RANKS})
held_whole(Card)  # interned, immutable
held_whole(Suit)
_BY_TEXT = {c.code: c for c in _CARDS.values()}


def _fold(text: str) -> str:
    """Lower-case, strip accents and collapse blanks."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return " ".join(text.lower().split())


_WORD_RANK = {
    **{_fold(n): r for r, n in _SPANISH_RANK.items()},
    **{_fold(n): r for r, n in _ENGLISH_RANK.items()},
    "uno": 1, "caballero": 11, "knave": 10, "horse": 11, "cavalier": 11,
}  # fmt: skip
_WORD_SUIT = {
    **{_fold(s.spanish_name): s for s in Suit},
    **{_fold(s.english_name): s for s in Suit},
    "oro": Suit.OROS, "copa": Suit.COPAS, "espada": Suit.ESPADAS, "basto": Suit.BASTOS,
    "coin": Suit.OROS, "cup": Suit.COPAS, "sword": Suit.ESPADAS, "club": Suit.BASTOS,
    "batons": Suit.BASTOS, "baton": Suit.BASTOS,
}  # fmt: skip
_FRENCH_RANK = {"A": 1, "J": 10, "Q": 11, "K": 12}
_FRENCH_SUIT = {
    "♦": Suit.OROS, "D": Suit.OROS, "♥": Suit.COPAS, "H": Suit.COPAS,
    "♠": Suit.ESPADAS, "S": Suit.ESPADAS, "♣": Suit.BASTOS,
}  # fmt: skip
_NAME = re.compile(r"^(\w+) (?:de|of) (?:los |las |the )?(\w+)$")
_FRENCH = re.compile(r"^(10|[2-9]|[AJQK])([♦♥♠♣DHSC])$")


def _foreign_digit(text: str) -> bool:
    """Whether `text` holds a digit or number sign other than ASCII 0-9 (such as ``²``,
    ``½`` or ``٣``), which folding would turn into ASCII digits or drop."""
    return any(c.isnumeric() and not c.isascii() for c in text)


def _parse_slow(text: str) -> Card:
    if _foreign_digit(text):
        raise NotationError(
            f"cannot read {describe(text, typed=False)} as a card: ranks are written "
            "with the ASCII digits 0-9"
        )
    name = _NAME.match(_fold(text))
    if name:
        word, suit_word = name.groups()
        # Folded text is ASCII, so only the digits 0-9 reach int().
        ascii_number = word.isascii() and word.isdigit() and len(word) < 3
        rank = int(word) if ascii_number else _WORD_RANK.get(word)
        suit = _WORD_SUIT.get(suit_word)
        if rank in RANKS and suit is not None:
            return _CARDS[rank, suit]
        raise NotationError(f"{describe(text, typed=False)} names no Spanish card")
    french = _FRENCH.match("".join(text.split()).upper().replace("\ufe0f", ""))
    if french:
        rank_text, suit_text = french.groups()
        if rank_text in ("8", "9", "10"):
            raise NotationError(
                f"{describe(text, typed=False)}: the French {rank_text} has no Brisca equivalent "
                "(the Sota is J)"
            )
        rank = _FRENCH_RANK.get(rank_text) or int(rank_text)
        if suit_text == "C":  # only after a letter rank: "7C" was read as copas above
            return _CARDS[rank, Suit.BASTOS]
        return _CARDS[rank, _FRENCH_SUIT[suit_text]]
    raise NotationError(
        f"cannot read {describe(text, typed=False)} as a card; expected a code such as '1O', "
        "'12E' or a name "
        "such as 'As de Oros'"
    )


class DeckKind(Option):
    """Which pack is used (SPEC §2.1 `deck`)."""

    __option__ = "deck"

    #: 40 cards: 1-7, Sota, Caballo, Rey in four suits.
    SPANISH40 = "spanish40"
    #: 48 cards: the 40 plus the 8s and 9s.
    SPANISH48 = "spanish48"
    #: 36 cards: the 40 without the 2s.
    NO_TWOS36 = "no_twos36"


_DECK_RANKS = {
    DeckKind.SPANISH40: (1, 2, 3, 4, 5, 6, 7, 10, 11, 12),
    DeckKind.SPANISH48: RANKS,
    DeckKind.NO_TWOS36: (1, 3, 4, 5, 6, 7, 10, 11, 12),
}


@functools.lru_cache(maxsize=64)
def deck_cards(kind: DeckKind, removed: tuple[Card, ...] = ()) -> tuple[Card, ...]:
    """The cards of a pack, suit by suit (oros, copas, espadas, bastos), rank ascending."""
    return tuple(
        _CARDS[r, s] for s in Suit for r in _DECK_RANKS[kind] if _CARDS[r, s] not in removed
    )
