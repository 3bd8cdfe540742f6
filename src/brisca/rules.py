"""`Rules`: one frozen value that selects a variant.

Every option of SPEC §2 that the engine implements is a field here, with its
default and source in the field's documentation. Options are validated when the
value is built (also by :func:`attrs.evolve`); a clash raises :class:`RulesError`
naming the options involved.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

import attrs

from brisca.cards import Card, DeckKind, Suit, deck_cards
from brisca.errors import BriscaError, RulesError

__all__ = [
    "CapoteDefinition",
    "DealerRotation",
    "Direction",
    "FirstDealer",
    "FirstLeader",
    "HandWinRule",
    "MatchMode",
    "Rules",
    "SitOut",
    "TeamMode",
    "TieRule",
    "TrumpCardPosition",
    "TrumpSelection",
]


class TeamMode(enum.Enum):
    """How seats form sides (SPEC §2.1 `team_mode`)."""

    #: Every seat plays for itself (2, 3, 4 or 6 players).
    INDIVIDUAL = "individual"
    #: 4 players: {0, 2} against {1, 3}.
    PARTNERS_OPPOSITE = "partners_opposite"
    #: 4 or 6 players, two teams on alternating seats: {0, 2, 4} against {1, 3, 5}.
    TEAMS_ALTERNATING = "teams_alternating"
    #: 5 players: one seat sits out (see `sit_out`), the other four play as two partnerships.
    SIT_OUT_PARTNERS = "sit_out_partners"


class Direction(enum.Enum):
    """Which physical way play goes round; for display only, it changes no rule."""

    CCW = "ccw"
    CW = "cw"


class FirstLeader(enum.Enum):
    """Who leads the first trick (SPEC §2.1 `first_leader`)."""

    #: The seat after the dealer (all seeds).
    DEALER_RIGHT = "dealer_right"
    #: The dealer (ABT, 2 players).
    DEALER = "dealer"


class TrumpCardPosition(enum.Enum):
    """Where a seeded shuffle takes the turned card from; `deck=` orders never change."""

    #: The card after the deal (seeds).
    NEXT_AFTER_DEAL = "next_after_deal"
    #: The bottom card of the shuffled pack (NC, VC).
    BOTTOM_OF_DECK = "bottom_of_deck"


class TrumpSelection(enum.Enum):
    """How the trump suit is chosen (SPEC §2.1 `trump_selection`)."""

    #: The card after the deal is turned up; its suit is trump (seeds).
    TURNED_CARD = "turned_card"
    #: Hand k's trump is oros, copas, espadas, bastos for k mod 4 = 0..3; no card is turned (CC).
    SUIT_ROTATION = "suit_rotation"


class SitOut(enum.Enum):
    """Who sits out when the table has more seats than places (SPEC §2.1 `sit_out`)."""

    #: The dealer sits out; seats d+1..d+4 form {d+1, d+3} against {d+2, d+4}.
    DEALER_SITS_OUT = "dealer_sits_out"


class HandWinRule(enum.Enum):
    """Who wins a hand on card points (SPEC §2.6 `hand_win_rule`)."""

    #: Two sides: more than 60 wins, 60-60 is a tie (S000, S004).
    OVER_60 = "over_60"
    #: The highest total wins; a shared top total is a tie (S002, S004).
    HIGHEST = "highest"


class TieRule(enum.Enum):
    """What a tie for the top decides (SPEC §2.6 `tie_rule`)."""

    #: The hand is drawn (S002).
    DRAW = "draw"
    #: The hand is dealt again (S004).
    REPLAY = "replay"
    #: The hand is dealt again and the next one counts double, x2 per consecutive tie (S000).
    REPLAY_DOUBLE_STAKE = "replay_double_stake"
    #: The tied sides share the hand, half each (S004).
    HALF_EACH = "half_each"
    #: The side that won the last trick wins; a draw if it is not among the tied (S003, PI).
    LAST_TRICK = "last_trick"


class FirstDealer(enum.Enum):
    """How a match picks its first dealer (SPEC §2.1 `first_dealer`)."""

    #: Each seat cuts; the lowest card deals, the Ace low (S000); ties re-cut [P].
    CUT_LOW_ACE_LOW = "cut_low_ace_low"
    #: Each seat cuts; the highest card deals (FOU, RJN, E2); ties re-cut [P].
    CUT_HIGH = "cut_high"
    #: A seat drawn at random (S003).
    RANDOM = "random"


class DealerRotation(enum.Enum):
    """Who deals the next hand of a match (SPEC §2.1 `dealer_rotation`)."""

    #: The next seat in play order (S000, S003, FOU).
    NEXT = "next"
    #: The winner of the hand (DP).
    WINNER_DEALS = "winner_deals"


class MatchMode(enum.Enum):
    """How a match is scored and when it ends (SPEC §2.6 `match_mode`)."""

    #: One hand is the whole match.
    SINGLE_HAND = "single_hand"
    #: First to `match_target` hands won (S000).
    HANDS_WON = "hands_won"
    #: First to `match_target` game points, from winning margins (S000).
    GAME_POINTS = "game_points"
    #: First to `match_target` card points over several hands: rematada (S000).
    CUMULATIVE_CARD_POINTS = "cumulative_card_points"


class CapoteDefinition(enum.Enum):
    """What counts as a capote for margin points (SPEC §2.6 `capote_definition`)."""

    #: Taking all 120 card points (S000).
    ALL_POINTS = "all_points"
    #: Taking every trick (CL).
    ALL_TRICKS = "all_tricks"


#: Trump suits of `TrumpSelection.SUIT_ROTATION`, by hand number mod 4 (CC).
SUIT_ROTATION = (Suit.OROS, Suit.COPAS, Suit.ESPADAS, Suit.BASTOS)

E = TypeVar("E", bound=enum.Enum)


def _option(kind: type[E], name: str, value: object) -> E:
    """Read an enum option from its member or its string value."""
    if isinstance(value, kind):
        return value
    try:
        return kind(value)
    except (ValueError, TypeError):
        choices = ", ".join(repr(m.value) for m in kind)
        raise RulesError(f"{name} must be one of {choices}; got {value!r}") from None


# Named converters, one per enum option (the attrs mypy plugin needs named functions).
def _team_mode(value: object) -> TeamMode:
    return _option(TeamMode, "team_mode", value)


def _direction(value: object) -> Direction:
    return _option(Direction, "direction", value)


def _deck(value: object) -> DeckKind:
    return _option(DeckKind, "deck", value)


def _first_leader(value: object) -> FirstLeader:
    return _option(FirstLeader, "first_leader", value)


def _trump_card_position(value: object) -> TrumpCardPosition:
    return _option(TrumpCardPosition, "trump_card_position", value)


def _trump_selection(value: object) -> TrumpSelection:
    return _option(TrumpSelection, "trump_selection", value)


def _sit_out(value: object) -> SitOut:
    return _option(SitOut, "sit_out", value)


def _hand_win_rule(value: object) -> HandWinRule:
    return _option(HandWinRule, "hand_win_rule", value)


def _tie_rule(value: object) -> TieRule:
    return _option(TieRule, "tie_rule", value)


def _first_dealer(value: object) -> FirstDealer:
    return _option(FirstDealer, "first_dealer", value)


def _dealer_rotation(value: object) -> DealerRotation:
    return _option(DealerRotation, "dealer_rotation", value)


def _match_mode(value: object) -> MatchMode:
    return _option(MatchMode, "match_mode", value)


def _capote_definition(value: object) -> CapoteDefinition:
    return _option(CapoteDefinition, "capote_definition", value)


def _match_target(value: object) -> int:
    if type(value) is not int or value < 1:
        raise RulesError(f"match_target must be a positive int; got {value!r}")
    return value


def _flag(name: str, value: object) -> bool:
    if type(value) is not bool:
        raise RulesError(f"{name} must be True or False; got {value!r}")
    return value


def _margin_points(value: object) -> bool:
    return _flag("margin_points", value)


def _num_players(value: object) -> int:
    if type(value) is not int or not 2 <= value <= 6:
        raise RulesError(f"num_players must be an int from 2 to 6; got {value!r}")
    return value


def _removed_cards(value: object) -> tuple[Card, ...]:
    """Read `removed_cards`: card codes or Cards, or ``"all_twos"``."""
    if value == "all_twos":
        return tuple(Card.parse(f"2{s.value}") for s in Suit)
    if isinstance(value, (str, Card)) or not isinstance(value, Iterable):
        raise RulesError(
            f"removed_cards must be a list of cards such as ['2B'], or 'all_twos'; got {value!r}"
        )
    cards: list[Card] = []
    for item in value:
        try:
            cards.append(item if isinstance(item, Card) else Card.parse(item))
        except BriscaError as error:
            raise RulesError(f"removed_cards: {error}") from None
    return tuple(cards)


def _default_removed(rules: Any) -> tuple[Card, ...]:
    # SPEC §2.1: the 3-player game removes the 2 of bastos [P]; nothing else removes cards.
    if rules.num_players == 3 and rules.deck is DeckKind.SPANISH40:
        return (Card.parse("2B"),)
    return ()


def _default_win_rule(rules: Any) -> HandWinRule:
    # SPEC §1.14: two sides need more than 60; three or more individuals, the highest.
    individual = rules.team_mode is TeamMode.INDIVIDUAL
    return HandWinRule.HIGHEST if individual and rules.num_players > 2 else HandWinRule.OVER_60


@attrs.frozen(cache_hash=True)
class Rules:
    """The options that select a variant. ``Rules()`` is the classic Spanish 2-player game.

    >>> Rules(num_players=4, team_mode="partners_opposite").team_mode
    <TeamMode.PARTNERS_OPPOSITE: 'partners_opposite'>
    >>> Rules(num_players=6)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    brisca.errors.RulesError: num_players=6 with deck='spanish40' ... use deck='spanish48' or ...
    """

    #: Seats at the table, 2 to 6 (S000, S002).
    num_players: int = attrs.field(default=2, converter=_num_players)
    #: How seats form sides (S000, S002, CC).
    team_mode: TeamMode = attrs.field(default=TeamMode.INDIVIDUAL, converter=_team_mode)
    #: Physical direction of play, for display only.
    direction: Direction = attrs.field(default=Direction.CCW, converter=_direction)
    #: The pack (S000, S004, WB, CC, DON, WBi).
    deck: DeckKind = attrs.field(default=DeckKind.SPANISH40, converter=_deck)
    #: Cards taken out of the pack, publicly; by default the 2 of bastos with 3 players and
    #: 40 cards (S004, VC [P]), otherwise none. ``"all_twos"`` removes the four 2s (LUD, DON).
    removed_cards: tuple[Card, ...] = attrs.field(
        default=attrs.Factory(_default_removed, takes_self=True), converter=_removed_cards
    )
    #: Who leads the first trick (seeds; ABT).
    first_leader: FirstLeader = attrs.field(
        default=FirstLeader.DEALER_RIGHT, converter=_first_leader
    )
    #: Where a seeded shuffle takes the turned card from (seeds; NC, VC).
    trump_card_position: TrumpCardPosition = attrs.field(
        default=TrumpCardPosition.NEXT_AFTER_DEAL,
        converter=_trump_card_position,
    )
    #: How the trump suit is chosen (seeds; CC).
    trump_selection: TrumpSelection = attrs.field(
        default=TrumpSelection.TURNED_CARD, converter=_trump_selection
    )
    #: Who sits out with 5 players (S000; PGC, TS).
    sit_out: SitOut = attrs.field(default=SitOut.DEALER_SITS_OUT, converter=_sit_out)
    #: Who wins a hand on points; by default ``over_60`` for two sides, else ``highest``.
    hand_win_rule: HandWinRule = attrs.field(
        default=attrs.Factory(_default_win_rule, takes_self=True),
        converter=_hand_win_rule,
    )
    #: What a tie for the top decides (S000, S002, S003, S004).
    tie_rule: TieRule = attrs.field(default=TieRule.REPLAY, converter=_tie_rule)
    #: How a match picks its first dealer (S000; FOU, RJN, E2; S003).
    first_dealer: FirstDealer = attrs.field(
        default=FirstDealer.CUT_LOW_ACE_LOW, converter=_first_dealer
    )
    #: Who deals the next hand of a match (S000, S003, FOU; DP).
    dealer_rotation: DealerRotation = attrs.field(
        default=DealerRotation.NEXT, converter=_dealer_rotation
    )
    #: How a match is scored and when it ends (S000, S003).
    match_mode: MatchMode = attrs.field(default=MatchMode.HANDS_WON, converter=_match_mode)
    #: What ends the match: hands won, game points or card points (S000: 3 or 5; 101 rematada).
    match_target: int = attrs.field(default=3, converter=_match_target)
    #: Under ``game_points``, whether a win scores by margin: 61-90 -> 1, 91-119 -> 2,
    #: capote -> 3 (S000); otherwise every win scores 1.
    margin_points: bool = attrs.field(default=False, converter=_margin_points)
    #: What counts as a capote for margin points (S000; CL).
    capote_definition: CapoteDefinition = attrs.field(
        default=CapoteDefinition.ALL_POINTS, converter=_capote_definition
    )

    def __attrs_post_init__(self) -> None:
        _validate(self)

    @property
    def active_players(self) -> int:
        """Seats that play each hand: 4 when one of 5 sits out, else `num_players`."""
        return 4 if self.team_mode is TeamMode.SIT_OUT_PARTNERS else self.num_players

    @property
    def cards(self) -> tuple[Card, ...]:
        """The pack these rules play with, removals applied, in canonical order."""
        return deck_cards(self.deck, self.removed_cards)

    @property
    def tricks_per_hand(self) -> int:
        """How many tricks a hand has: the pack divided among the active players."""
        return len(self.cards) // self.active_players

    @property
    def turns_card(self) -> bool:
        """Whether a trump card is turned up under the stock."""
        return self.trump_selection is TrumpSelection.TURNED_CARD

    def to_dict(self) -> dict[str, Any]:
        """The options as JSON-ready values; :meth:`from_dict` reads them back."""
        out: dict[str, Any] = {}
        for field in attrs.fields(Rules):
            value = getattr(self, field.name)
            if isinstance(value, enum.Enum):
                value = value.value
            elif field.name == "removed_cards":
                value = [c.code for c in value]
            out[field.name] = value
        return out

    @classmethod
    def from_dict(cls, options: Mapping[str, Any]) -> Rules:
        """Build rules from option names and values, as :meth:`to_dict` writes them.

        Raises:
            RulesError: an unknown option, a bad value or a clash.
        """
        if not isinstance(options, Mapping):
            raise RulesError(f"rules must be a mapping of option names to values; got {options!r}")
        known = attrs.fields_dict(Rules)
        unknown = sorted(str(k) for k in options if k not in known)
        if unknown:
            raise RulesError(f"unknown rules option(s): {', '.join(unknown)}")
        return cls(**options)


def _validate(rules: Rules) -> None:
    n, mode = rules.num_players, rules.team_mode
    seats_for_mode = {
        TeamMode.INDIVIDUAL: (2, 3, 4, 6),
        TeamMode.PARTNERS_OPPOSITE: (4,),
        TeamMode.TEAMS_ALTERNATING: (4, 6),
        TeamMode.SIT_OUT_PARTNERS: (5,),
    }[mode]
    if n not in seats_for_mode:
        hint = (
            "; with 5 players the dealer sits out: use team_mode='sit_out_partners'"
            if n == 5
            else ""
        )
        raise RulesError(
            f"team_mode={mode.value!r} needs num_players in {list(seats_for_mode)}, "
            f"got num_players={n}{hint}"
        )
    pack = deck_cards(rules.deck)
    removed = rules.removed_cards
    codes = [c.code for c in removed]
    if len(set(removed)) != len(removed):
        raise RulesError(f"removed_cards lists a card twice: {codes}")
    for c in removed:
        if c not in pack:
            raise RulesError(f"removed_cards: {c} is not in deck={rules.deck.value!r}")
        if c.points:
            raise RulesError(
                f"removed_cards: {c} is worth {c.points} points; only blank cards may be "
                "removed, so that the pack still holds 120 points"
            )
    size, active = len(pack) - len(removed), rules.active_players
    if size % active:
        hint = "; use deck='spanish48' or 'no_twos36'" if n == 6 else ""
        if n == 3:
            hint = "; remove a blank card, for example removed_cards=['2B']"
        raise RulesError(
            f"num_players={n} with deck={rules.deck.value!r} and removed_cards={codes} leaves "
            f"{size} cards, which do not divide among {active} active players{hint}"
        )
    sides = 2 if mode is not TeamMode.INDIVIDUAL else n
    if rules.hand_win_rule is HandWinRule.OVER_60 and sides != 2:
        raise RulesError(
            f"hand_win_rule='over_60' needs two sides, but num_players={n} with "
            f"team_mode={mode.value!r} makes {sides}; use hand_win_rule='highest'"
        )
    if rules.first_leader is FirstLeader.DEALER and mode is TeamMode.SIT_OUT_PARTNERS:
        raise RulesError(
            "first_leader='dealer' clashes with team_mode='sit_out_partners': the dealer sits out"
        )
