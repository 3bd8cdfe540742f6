"""Cards and notation (issue: cards, codes, names and French-deck equivalents)."""

from __future__ import annotations

import pickle

import pytest

from brisca import Card, NotationError, Suit
from brisca.game.cards import DeckKind, deck_cards


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("1O", "1O"),
        ("12e", "12E"),
        (" 7B ", "7B"),
        ("As de Oros", "1O"),
        ("caballo de copas", "11C"),
        ("Sota de Espadas", "10E"),
        ("rey de bastos", "12B"),
        ("Siete de Oros", "7O"),
        ("7 de bastos", "7B"),
        ("Ace of Coins", "1O"),
        ("Knight of Cups", "11C"),
        ("Jack of Swords", "10E"),
        ("King of Clubs", "12B"),
        ("AD", "1O"),
        ("Q♥", "11C"),
        ("K♠", "12E"),
        ("J♣", "10B"),
        ("7♣", "7B"),
        ("KC", "12B"),
        ("7C", "7C"),
        ("3H", "3C"),
        ("2S", "2E"),
        ("8O", "8O"),
        ("Nueve de Copas", "9C"),
    ],
)
def test_parse_reads_codes_names_and_french_equivalents(text: str, code: str) -> None:
    """Canonical codes, Spanish and English names and French codes all name the same cards."""
    assert Card.parse(text).code == code


@pytest.mark.parametrize("text", ["", "0O", "13B", "1X", "10D", "9♠", "As de Picas", "hello", "1"])
def test_unreadable_text_raises_notation_error(text: str) -> None:
    """Text that names no card raises NotationError, which is a BriscaError and ValueError."""
    with pytest.raises(NotationError):
        Card.parse(text)


@pytest.mark.parametrize("value", [None, 7, b"1O", ["1O"]])
def test_parse_refuses_non_text(value: object) -> None:
    with pytest.raises(NotationError, match="text"):
        Card.parse(value)  # type: ignore[arg-type]


def test_cards_are_interned_and_immutable() -> None:
    """One object per card: construction, parsing and pickling all give it back."""
    card = Card.parse("3C")
    assert Card(3, Suit.COPAS) is card
    assert pickle.loads(pickle.dumps(card)) is card
    with pytest.raises(AttributeError):
        card.rank = 4  # type: ignore[misc]


@pytest.mark.parametrize(
    ("rank", "suit"), [(0, Suit.OROS), (13, Suit.OROS), (1, "O"), ("1", Suit.OROS)]
)
def test_bad_card_construction_raises_notation_error(rank: object, suit: object) -> None:
    with pytest.raises(NotationError):
        Card(rank, suit)  # type: ignore[arg-type]


def test_points_are_11_10_4_3_2_s000_s003_s004() -> None:
    """SPEC §1.3: Ace 11, Three 10, Rey 4, Caballo 3, Sota 2, the rest nothing."""
    points = {r: Card(r, Suit.BASTOS).points for r in range(1, 13)}
    assert points == {1: 11, 2: 0, 3: 10, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0, 9: 0, 10: 2, 11: 3, 12: 4}


def test_display_forms() -> None:
    card = Card.parse("11C")
    assert (str(card), card.spanish_name, card.english_name) == (
        "11C",
        "Caballo de Copas",
        "Knight of Cups",
    )
    assert repr(card) == "Card.parse('11C')"


@pytest.mark.parametrize(
    ("kind", "size"), [(DeckKind.SPANISH40, 40), (DeckKind.SPANISH48, 48), (DeckKind.NO_TWOS36, 36)]
)
def test_deck_sizes_s000_s004_wb(kind: DeckKind, size: int) -> None:
    cards = deck_cards(kind)
    assert len(cards) == len(set(cards)) == size
