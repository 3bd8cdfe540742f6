"""`Rules`: one frozen value that selects a variant.

Every option of SPEC §2 that the engine implements is a field here, with its
default and source in the field's documentation. Options are validated when the
value is built (also by :func:`attrs.evolve`); a clash raises :class:`RulesError`
naming the options involved.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

import attrs

from brisca.game.cards import TRICK_ORDER, Card, DeckKind, Suit, deck_cards
from brisca.game.errors import (
    BriscaError,
    NotationError,
    RulesError,
    checked_int,
    checked_type,
    describe,
    read_at_most,
)
from brisca.game.jsonio import plain_keys
from brisca.game.option import Option
from brisca.game.values import held_whole

__all__ = [
    "INT_OPTIONS",
    "MATCH_TARGET_LIMITS",
    "SUIT_ROTATION",
    "SWAP_BUNDLES",
    "BlackHand",
    "BlackHandClaim",
    "CannotOvertrump",
    "CapoteDefinition",
    "ChiamataTwoRule",
    "DealerRotation",
    "Direction",
    "FirstDealer",
    "FirstLeader",
    "HandWinRule",
    "MatchMode",
    "Overtrump",
    "PartnerHandVisibility",
    "PlayObligation",
    "RankScheme",
    "Rules",
    "SignalHonesty",
    "SignalTiming",
    "SignalVocabulary",
    "Signals",
    "SitOut",
    "SubastaScoring",
    "SwapDeadline",
    "SwapRequirement",
    "SwapTiming",
    "TeamMode",
    "TieRule",
    "TrumpCardPosition",
    "TrumpSelection",
    "TrumpVisibility",
]


class TeamMode(Option):
    """How seats form sides (SPEC §2.1 `team_mode`)."""

    #: Every seat plays for itself (2, 3, 4 or 6 players).
    INDIVIDUAL = "individual"
    #: 4 players: {0, 2} against {1, 3}.
    PARTNERS_OPPOSITE = "partners_opposite"
    #: 4 or 6 players, two teams on alternating seats: {0, 2, 4} against {1, 3, 5}.
    TEAMS_ALTERNATING = "teams_alternating"
    #: 5 players: one seat sits out (see `sit_out`), the other four play as two partnerships.
    SIT_OUT_PARTNERS = "sit_out_partners"
    #: Auctions: the declarer alone against the others, who pool their points (ACA-TS).
    DECLARER_VS_REST = "declarer_vs_rest"
    #: Briscola chiamata: the caller and the secret holder of the called card against the
    #: rest; with 6 players the dealer sits out (PGC).
    CALLED_PARTNER = "called_partner"


class Direction(Option):
    """Which physical way play goes round; for display only, it changes no rule."""

    CCW = "ccw"
    CW = "cw"


class FirstLeader(Option):
    """Who leads the first trick (SPEC §2.1 `first_leader`)."""

    #: The seat after the dealer (all seeds).
    DEALER_RIGHT = "dealer_right"
    #: The dealer (ABT, 2 players).
    DEALER = "dealer"
    #: The auction's winner (RB, chiamata).
    DECLARER = "declarer"


class TrumpCardPosition(Option):
    """Where a seeded shuffle takes the turned card from; `deck=` orders never change."""

    #: The card after the deal (seeds).
    NEXT_AFTER_DEAL = "next_after_deal"
    #: The bottom card of the shuffled pack (NC, VC).
    BOTTOM_OF_DECK = "bottom_of_deck"


class TrumpSelection(Option):
    """How the trump suit is chosen (SPEC §2.1 `trump_selection`)."""

    #: The card after the deal is turned up; its suit is trump (seeds).
    TURNED_CARD = "turned_card"
    #: Hand k's trump is oros, copas, espadas, bastos for k mod 4 = 0..3; no card is turned (CC).
    SUIT_ROTATION = "suit_rotation"
    #: Brisca subastada: the auction's winner names trump (S000, ACA-TS).
    AUCTION = "auction"
    #: Briscola chiamata: the auction's winner calls a card; its suit is trump (PGC).
    CALLED_CARD = "called_card"


class SubastaScoring(Option):
    """What a subastada contract scores (SPEC §2.7 `subasta_scoring`)."""

    #: The declarer's side scores plus the bid if it makes it, minus the bid if not [P].
    BID_VALUE = "bid_value"
    #: Plus or minus one.
    GAME_POINT = "game_point"


class ChiamataTwoRule(Option):
    """What follows a bid of "2" in chiamata (SPEC §2.8)."""

    #: Bids go on as "2 + points", from `chiamata_point_minimum` up to 120 (BSK, RB).
    POINTS_AFTER_TWO = "points_after_two"
    #: A "2" closes the auction (BJB).
    TWO_CLOSES = "two_closes"


class SitOut(Option):
    """Who sits out when the table has more seats than places (SPEC §2.1 `sit_out`)."""

    #: The dealer sits out; seats d+1..d+4 form {d+1, d+3} against {d+2, d+4}.
    DEALER_SITS_OUT = "dealer_sits_out"


class HandWinRule(Option):
    """Who wins a hand on card points (SPEC §2.6 `hand_win_rule`)."""

    #: Two sides: more than 60 wins, 60-60 is a tie (S000, S004).
    OVER_60 = "over_60"
    #: The highest total wins; a shared top total is a tie (S002, S004).
    HIGHEST = "highest"


class TieRule(Option):
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


class FirstDealer(Option):
    """How a match picks its first dealer (SPEC §2.1 `first_dealer`)."""

    #: Each seat cuts; the lowest card deals, the Ace low (S000); ties re-cut [P].
    CUT_LOW_ACE_LOW = "cut_low_ace_low"
    #: Each seat cuts; the highest card deals (FOU, RJN, E2); ties re-cut [P].
    CUT_HIGH = "cut_high"
    #: A seat drawn at random (S003).
    RANDOM = "random"


class DealerRotation(Option):
    """Who deals the next hand of a match (SPEC §2.1 `dealer_rotation`)."""

    #: The next seat in play order (S000, S003, FOU).
    NEXT = "next"
    #: The winner of the hand (DP).
    WINNER_DEALS = "winner_deals"


class MatchMode(Option):
    """How a match is scored and when it ends (SPEC §2.6 `match_mode`)."""

    #: One hand is the whole match.
    SINGLE_HAND = "single_hand"
    #: First to `match_target` hands won (S000).
    HANDS_WON = "hands_won"
    #: First to `match_target` game points, from winning margins (S000).
    GAME_POINTS = "game_points"
    #: First to `match_target` card points over several hands: rematada (S000).
    CUMULATIVE_CARD_POINTS = "cumulative_card_points"


class CapoteDefinition(Option):
    """What counts as a capote for margin points (SPEC §2.6 `capote_definition`)."""

    #: Taking all 120 card points (S000).
    ALL_POINTS = "all_points"
    #: Taking every trick (CL).
    ALL_TRICKS = "all_tricks"


class TrumpVisibility(Option):
    """Whether the turned card lies face up (SPEC §2.2 `trump_visibility`)."""

    #: Face up for everyone to see (S000, S002, S004).
    FACE_UP = "face_up"
    #: Brisca cubierta: face down until the first trump is played or the card is drawn (S000).
    CUBIERTA = "cubierta"


class SwapTiming(Option):
    """When a seat may exchange a trump for the turned card (SPEC §2.3 `swap_timing`)."""

    #: At any moment (S002, WB); offered to the seat to act, before it plays.
    ANY_TIME = "any_time"
    #: On one's own turn, before playing (S003).
    OWN_TURN_BEFORE_PLAY = "own_turn_before_play"
    #: Only the winner of the last trick, after the draw and before leading (S004 [P]).
    AFTER_WINNING_TRICK = "after_winning_trick"
    #: Only before the first trick is led (the Italian deuce rule).
    PRE_FIRST_TRICK_ONLY = "pre_first_trick_only"


class SwapRequirement(Option):
    """Whether a swap needs a trick won first (SPEC §2.3 `swap_requires_trick_won`)."""

    __option__ = "swap_requires_trick_won"

    NONE = "none"
    #: The swapping seat itself has won a trick (S003, WB).
    PLAYER = "player"
    #: The swapping seat's side has won a trick.
    SIDE = "side"


class SwapDeadline(Option):
    """Until when swaps are allowed (SPEC §2.3 `swap_deadline`)."""

    #: While the turned card is on the table.
    PINTA_ON_TABLE = "pinta_on_table"
    #: While at least one face-down card remains besides it (S003, WB).
    STOCK_NONEMPTY = "stock_nonempty"
    #: While the talon holds more than one round of draws (NC [P]).
    BEFORE_PENULTIMATE_TRICK = "before_penultimate_trick"


class PlayObligation(Option):
    """Whether followers must follow, beat and trump (SPEC §2.4 `play_obligation`)."""

    #: Any card, always (S000, S002, S004).
    FREE = "free"
    #: Arrastre once the talon is exhausted (S004).
    ARRASTRE_AFTER_STOCK = "arrastre_after_stock"
    #: Arrastre from the first trick (NC).
    ARRASTRE_WHOLE_HAND = "arrastre_whole_hand"


class Overtrump(Option):
    """Whether a trump must beat a trump already played (SPEC §2.4 `arrastre_overtrump`)."""

    __option__ = "arrastre_overtrump"

    #: Over a winning trump, only a higher trump will do, if the seat has one (TS "pisar").
    REQUIRED = "required"
    #: Any trump satisfies the duty to trump (S004 literal).
    ANY_TRUMP = "any_trump"


class CannotOvertrump(Option):
    """What a seat void in the led suit plays when it cannot overtrump (SPEC §2.4)."""

    __option__ = "arrastre_cannot_overtrump"

    #: Any card.
    FREE = "free"
    #: A lower trump, if it has one (TS "contrafallar").
    MUST_UNDERTRUMP = "must_undertrump"


class BlackHand(Option):
    """The black hand: the 1, 3 and 12 of trumps in one hand win the round (SPEC §2.5)."""

    OFF = "off"
    #: Only a dealt black hand counts.
    DEAL_ONLY = "deal_only"
    #: A black hand counts whenever it forms: after the deal, a draw or a swap [P].
    ANY_TIME = "any_time"


class BlackHandClaim(Option):
    """How a black hand wins (SPEC §2.5 `black_hand_claim`)."""

    #: Its holder shows it, on its turn, before its next play (S003 "show the cards").
    DECLARE = "declare"
    #: The engine ends the hand the moment it forms.
    AUTOMATIC = "automatic"


class Signals(Option):
    """Partnership signals, señas (SPEC §2.9 `signals`)."""

    NONE = "none"
    #: Signals everyone sees, as real gestures are (AW).
    PUBLIC = "public"
    #: Signals only the signaller's partners see (idealised covert signalling).
    TEAM_PRIVATE = "team_private"


class SignalVocabulary(Option):
    """Which signals exist and what they say (SPEC §2.9 `signal_vocabulary`)."""

    #: lip_bite: the trump 1 without the 3; shoulder: the 3 without the 1; wink: both;
    #: head_shake: no trumps (S000).
    S000 = "s000"
    #: lips: the trump 1; wink: the 3 (a mouth twist); eyes_up: the 12; shoulder: the 11
    #: or the 10 (the tongue) (WBi, RDO, AW, ALB).
    TRADITIONAL = "traditional"


class SignalTiming(Option):
    """When signals may be made (SPEC §2.9 `signal_timing`)."""

    #: Before the hand, which here is each seat's turn in the first trick, before it plays (S000).
    PRE_HAND = "pre_hand"
    #: From the second trick on (WBi).
    AFTER_FIRST_TRICK = "after_first_trick"


class SignalHonesty(Option):
    """Signals must be true (SPEC §2.9): the engine refuses a false one."""

    ENFORCED = "enforced"


class PartnerHandVisibility(Option):
    """Whether partners see each other's hands (SPEC §2.1 `partner_hand_visibility`)."""

    NONE = "none"
    #: Each seat sees the cards its partners were dealt (WB).
    SHOW_AFTER_DEAL = "show_after_deal"


class RankScheme(Option):
    """Card order and points (SPEC §2.6 `rank_scheme`)."""

    #: 1, 3, 12, 11, 10, (9, 8,) 7 ... 2; 1 = 11, 3 = 10 points.
    STANDARD = "standard"
    #: The Chilean porteña order, weakly sourced (one blog, CL): the 2 takes the 3's place,
    #: 1, 2, 12, 11, 10, 7 ... 4, 3; the 2 is worth 10 and the 3 nothing.
    CHILEAN_TWO_HIGH = "chilean_two_high"


#: The range of each int option, least and greatest (for `chiamata_scores`, of each of its
#: four ints). The sources stay far inside them (SPEC §2.1, §2.3, §2.6 to §2.8), and they
#: keep every accepted `Rules` small enough to be written and read back.
INT_OPTIONS: Mapping[str, tuple[int, int]] = MappingProxyType(
    {
        "num_players": (2, 6),
        "swap_max_per_trick": (0, 1),
        "match_target": (1, 5_000),  # and at most MATCH_TARGET_LIMITS[match_mode]
        "bid_minimum": (1, 120),  # the card points of a hand
        "bid_step": (1, 120),  # bid_minimum is a multiple of it
        "chiamata_point_minimum": (1, 120),
        "chiamata_scores": (0, 100),  # the Italian table is (2, 1, 1, 4)
    }
)

#: The greatest `match_target` of each `match_mode`, so that no target asks for an endless
#: match: with at most 6 sides, 100 hands won take at most 595 counted hands; 1,000 game
#: points (one or more per hand won) at most 5,995; 5,000 card points (each played hand
#: deals 120 among the sides, so the leader gains 20 or more) at most 250. The sources ask
#: for 1 to 8 hands, 10 or 500 game points (TS) and 101 card points (S000).
MATCH_TARGET_LIMITS: Mapping[MatchMode, int] = MappingProxyType(
    {
        MatchMode.SINGLE_HAND: 100,
        MatchMode.HANDS_WON: 100,
        MatchMode.GAME_POINTS: 1_000,
        MatchMode.CUMULATIVE_CARD_POINTS: 5_000,
    }
)

#: The most cards `removed_cards` may list: a whole 48-card pack.
_MOST_REMOVED = 48


def _num_players(value: object) -> int:
    return checked_int(value, "num_players", *INT_OPTIONS["num_players"], error=RulesError)


def _removed_cards(value: object) -> tuple[Card, ...]:
    """Read `removed_cards`: card codes or Cards, or ``"all_twos"``."""
    if isinstance(value, str) and str.__eq__(value, "all_twos"):  # its own == may raise
        return tuple(Card.parse(f"2{s.value}") for s in Suit)
    if isinstance(value, (str, Card)) or not isinstance(value, Iterable):
        raise RulesError(
            "removed_cards must be a list of cards such as ['2B'], or 'all_twos', "
            f"got {describe(value)}"
        )
    # A pack has at most 48 cards: read one more at most, so that no iterable is endless.
    items = read_at_most(value, _MOST_REMOVED + 1, "removed_cards", error=RulesError)
    if len(items) > _MOST_REMOVED:
        raise RulesError(f"removed_cards lists more than {_MOST_REMOVED} cards")
    cards: list[Card] = []
    for item in items:
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


#: Trump suits of `TrumpSelection.SUIT_ROTATION`, by hand number mod 4 (CC).
SUIT_ROTATION = (Suit.OROS, Suit.COPAS, Suit.ESPADAS, Suit.BASTOS)

#: Trick order of `RankScheme.CHILEAN_TWO_HIGH`, strongest first (CL).
CHILEAN_ORDER = (1, 2, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3)


def _is_bool(rules: Rules, attribute: attrs.Attribute[bool], value: object) -> None:
    checked_type(value, bool, f"{attribute.name} to be True or False", error=RulesError)


def _match_target(value: object) -> int:
    return checked_int(value, "match_target", *INT_OPTIONS["match_target"], error=RulesError)


def _scores(value: object) -> tuple[int, int, int, int]:
    # Read by the tuple's or list's own C methods: a subclass's len or items may raise.
    items: list[object] = []
    if isinstance(value, tuple):
        items = list(tuple.__iter__(value))
    elif isinstance(value, list):
        items = list(list.__iter__(value))
    if len(items) != 4:
        raise RulesError(
            "chiamata_scores must be four ints (caller, partner, defender, lone caller), "
            f"got {describe(value)}"
        )
    least, most = INT_OPTIONS["chiamata_scores"]
    caller, partner, defender, lone = (
        checked_int(score, f"chiamata_scores[{index}]", least, most, error=RulesError)
        for index, score in enumerate(items)
    )
    return (caller, partner, defender, lone)


def _in_range(rules: Rules, attribute: attrs.Attribute[int], value: object) -> None:
    checked_int(value, attribute.name, *INT_OPTIONS[attribute.name], error=RulesError)


def _swap_max_per_trick(value: object) -> int:
    least, most = INT_OPTIONS["swap_max_per_trick"]
    return checked_int(value, "swap_max_per_trick (0: unlimited)", least, most, error=RulesError)


@attrs.frozen(cache_hash=True)
class Rules:
    """The options that select a variant. ``Rules()`` is the classic Spanish 2-player game.

    Options read from their enum members or their text values, so
    ``Rules(deck="spanish48")`` works. The fields are grouped as in the rules
    specification: table and deal (§2.1), cubierta (§2.2), swaps (§2.3),
    arrastre (§2.4), black hand (§2.5), results and matches (§2.6), signals (§2.9).
    Every int option has a range, :data:`INT_OPTIONS`, so that every value that
    builds can be written and read back.

    >>> Rules(num_players=4, team_mode="partners_opposite").team_mode
    <TeamMode.PARTNERS_OPPOSITE: 'partners_opposite'>
    >>> Rules(num_players=6)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    brisca.RulesError: num_players=6 with deck='spanish40' ... use deck='spanish48' or ...
    """

    # §2.1 Table, deck, deal.
    #: Seats at the table, 2 to 6 (S000, S002).
    num_players: int = attrs.field(default=2, converter=_num_players)
    #: How seats form sides (S000, S002, CC).
    team_mode: TeamMode = attrs.field(default=TeamMode.INDIVIDUAL, converter=TeamMode)
    #: Physical direction of play, for display only.
    direction: Direction = attrs.field(default=Direction.CCW, converter=Direction)
    #: The pack (S000, S004, WB, CC, DON, WBi).
    deck: DeckKind = attrs.field(default=DeckKind.SPANISH40, converter=DeckKind)
    #: Cards taken out of the pack, publicly; by default the 2 of bastos with 3 players and
    #: 40 cards (S004, VC [P]), otherwise none. ``"all_twos"`` removes the four 2s (LUD, DON).
    removed_cards: tuple[Card, ...] = attrs.field(
        default=attrs.Factory(_default_removed, takes_self=True), converter=_removed_cards
    )
    #: Who leads the first trick (seeds; ABT).
    first_leader: FirstLeader = attrs.field(default=FirstLeader.DEALER_RIGHT, converter=FirstLeader)
    #: Where a seeded shuffle takes the turned card from (seeds; NC, VC).
    trump_card_position: TrumpCardPosition = attrs.field(
        default=TrumpCardPosition.NEXT_AFTER_DEAL, converter=TrumpCardPosition
    )
    #: How the trump suit is chosen (seeds; CC).
    trump_selection: TrumpSelection = attrs.field(
        default=TrumpSelection.TURNED_CARD, converter=TrumpSelection
    )
    #: Who sits out with 5 players (S000; PGC, TS).
    sit_out: SitOut = attrs.field(default=SitOut.DEALER_SITS_OUT, converter=SitOut)
    #: Deal the whole pack, leaving no stock and no turned card (chiamata: PGC, CRP, FRM).
    deal_all: bool = attrs.field(default=False, validator=_is_bool)
    #: Whether partners see each other's dealt cards (WB, CC).
    partner_hand_visibility: PartnerHandVisibility = attrs.field(
        default=PartnerHandVisibility.NONE, converter=PartnerHandVisibility
    )
    #: How a match picks its first dealer (S000; FOU, RJN, E2; S003).
    first_dealer: FirstDealer = attrs.field(
        default=FirstDealer.CUT_LOW_ACE_LOW, converter=FirstDealer
    )
    #: Who deals the next hand of a match (S000, S003, FOU; DP).
    dealer_rotation: DealerRotation = attrs.field(
        default=DealerRotation.NEXT, converter=DealerRotation
    )

    # §2.2 Brisca cubierta.
    #: Whether the turned card lies face up or covered (S000).
    trump_visibility: TrumpVisibility = attrs.field(
        default=TrumpVisibility.FACE_UP, converter=TrumpVisibility
    )

    # §2.3 Trump-card swap (cambiar la muestra).
    #: Whether swaps are played at all; S002, S004 and NC say to agree beforehand.
    swap_enabled: bool = attrs.field(default=False, validator=_is_bool)
    #: The 7 of trumps may take a high turned card: 1, 3, 12, 11, 10 (S002, S003, S004).
    swap_seven_for_high: bool = attrs.field(default=True, validator=_is_bool)
    #: The 2 of trumps may take a low turned card: 9 down to 4, a swapped-in 7 included.
    swap_two_for_low: bool = attrs.field(default=True, validator=_is_bool)
    #: Before the first trick is led, the 2 may take a high turned card (S002).
    swap_two_for_high_pre_first_trick: bool = attrs.field(default=False, validator=_is_bool)
    #: In that window the 2 comes before the 7: only the 2 may take a high card before the
    #: first lead, only the 7 from then on (S002).
    swap_two_precedence: bool = attrs.field(default=False, validator=_is_bool)
    #: When a swap may be made (S002, WB; S003; S004; the Italian deuce rule).
    swap_timing: SwapTiming = attrs.field(default=SwapTiming.ANY_TIME, converter=SwapTiming)
    #: Whether a swap needs a trick won first (S003, WB).
    swap_requires_trick_won: SwapRequirement = attrs.field(
        default=SwapRequirement.NONE, converter=SwapRequirement
    )
    #: At most this many swaps per trick, counted table-wide; 0 is unlimited (S003).
    swap_max_per_trick: int = attrs.field(default=0, converter=_swap_max_per_trick)
    #: Until when swaps are allowed (S003, WB; NC).
    swap_deadline: SwapDeadline = attrs.field(
        default=SwapDeadline.PINTA_ON_TABLE, converter=SwapDeadline
    )

    # §2.4 Arrastre.
    #: Whether and when followers must follow, beat and trump (S004; NC).
    play_obligation: PlayObligation = attrs.field(
        default=PlayObligation.FREE, converter=PlayObligation
    )
    #: A follower of the led suit must beat the winning card if it can (S004; NC: False).
    arrastre_must_beat: bool = attrs.field(default=True, validator=_is_bool)
    #: Over a winning trump, whether a higher trump is required (TS; S004).
    arrastre_overtrump: Overtrump = attrs.field(default=Overtrump.REQUIRED, converter=Overtrump)
    #: What a seat that cannot overtrump plays (TS).
    arrastre_cannot_overtrump: CannotOvertrump = attrs.field(
        default=CannotOvertrump.FREE, converter=CannotOvertrump
    )
    #: A seat whose partner is winning the trick need not trump (WB "boarding").
    arrastre_partner_relief: bool = attrs.field(default=False, validator=_is_bool)

    # §2.5 Black hand.
    #: Whether the 1, 3 and 12 of trumps in one hand win the round (S003).
    black_hand: BlackHand = attrs.field(default=BlackHand.OFF, converter=BlackHand)
    #: Whether the holder declares it or it wins by itself (S003).
    black_hand_claim: BlackHandClaim = attrs.field(
        default=BlackHandClaim.DECLARE, converter=BlackHandClaim
    )

    # §2.6 Results, ties, match.
    #: Who wins a hand on points; by default ``over_60`` for two sides, else ``highest``.
    hand_win_rule: HandWinRule = attrs.field(
        default=attrs.Factory(_default_win_rule, takes_self=True), converter=HandWinRule
    )
    #: What a tie for the top decides (S000, S002, S003, S004).
    tie_rule: TieRule = attrs.field(default=TieRule.REPLAY, converter=TieRule)
    #: How a match is scored and when it ends (S000, S003).
    match_mode: MatchMode = attrs.field(default=MatchMode.HANDS_WON, converter=MatchMode)
    #: What ends the match: hands won, game points or card points (S000: 3 or 5; 101 rematada);
    #: at most 100 hands, 1,000 game points or 5,000 card points (`MATCH_TARGET_LIMITS`).
    match_target: int = attrs.field(default=3, converter=_match_target)
    #: Under ``game_points``, whether a win scores by margin: 61-90 -> 1, 91-119 -> 2,
    #: capote -> 3 (S000); otherwise every win scores 1.
    margin_points: bool = attrs.field(default=False, validator=_is_bool)
    #: What counts as a capote for margin points (S000; CL).
    capote_definition: CapoteDefinition = attrs.field(
        default=CapoteDefinition.ALL_POINTS, converter=CapoteDefinition
    )
    #: Card order and points; ``chilean_two_high`` rests on a single blog (CL).
    rank_scheme: RankScheme = attrs.field(default=RankScheme.STANDARD, converter=RankScheme)

    # §2.7 Brisca subastada.
    #: The lowest bid, 1 to 120 (ACA-TS: 60).
    bid_minimum: int = attrs.field(default=60, validator=_in_range)
    #: Bids rise in steps of this many points, 1 to 120 (ACA-TS: 5).
    bid_step: int = attrs.field(default=5, validator=_in_range)
    #: What a contract scores [P].
    subasta_scoring: SubastaScoring = attrs.field(
        default=SubastaScoring.BID_VALUE, converter=SubastaScoring
    )
    #: Whether a trick's winner may sing the 20 and the 40 (S000, TUTE).
    cantes: bool = attrs.field(default=False, validator=_is_bool)

    # §2.8 Briscola chiamata.
    #: What follows a bid of "2" (BSK, RB; BJB).
    chiamata_two_rule: ChiamataTwoRule = attrs.field(
        default=ChiamataTwoRule.POINTS_AFTER_TWO, converter=ChiamataTwoRule
    )
    #: The lowest "2 + points" bid, 1 to 120 [P] (RB says 60).
    chiamata_point_minimum: int = attrs.field(default=61, validator=_in_range)
    #: Scores (caller, partner, each defender, lone caller), won or lost: the common Italian
    #: table as far as the sources go (PGC, CRP, RB); no source states it whole [P]. Each is
    #: 0 to 100.
    chiamata_scores: tuple[int, int, int, int] = attrs.field(
        default=(2, 1, 1, 4), converter=_scores
    )

    # §2.9 Signals.
    #: Whether partners may signal, and who sees it (S000; AW).
    signals: Signals = attrs.field(default=Signals.NONE, converter=Signals)
    #: What the signals are (S000; WBi, RDO, AW, ALB).
    signal_vocabulary: SignalVocabulary = attrs.field(
        default=SignalVocabulary.S000, converter=SignalVocabulary
    )
    #: When signals may be made (S000; WBi).
    signal_timing: SignalTiming = attrs.field(default=SignalTiming.PRE_HAND, converter=SignalTiming)
    #: Signals must be true; the engine refuses a false one (S000).
    signal_honesty: SignalHonesty = attrs.field(
        default=SignalHonesty.ENFORCED, converter=SignalHonesty
    )

    def __attrs_post_init__(self) -> None:
        _validate(self)

    @property
    def active_players(self) -> int:
        """Seats that play each hand: the dealer sits out of 5 partners (4 play) and of
        6 in chiamata (5 play); otherwise every seat plays."""
        if self.team_mode is _SIT_OUT_PARTNERS:
            return 4
        if self.team_mode is _CALLED_PARTNER:
            return 5
        return self.num_players

    @property
    def cards(self) -> tuple[Card, ...]:
        """The pack these rules play with, removals applied, in canonical order."""
        return deck_cards(self.deck, self.removed_cards)

    @property
    def tricks_per_hand(self) -> int:
        """How many tricks a hand has: the pack divided among the active players."""
        return len(self.cards) // self.active_players

    @property
    def has_auction(self) -> bool:
        """Whether the hand opens with an auction (subastada or chiamata)."""
        return self.trump_selection in _AUCTIONS

    @property
    def hand_size(self) -> int:
        """Cards dealt to each active seat: the whole pack under `deal_all`, else 3."""
        return self.tricks_per_hand if self.deal_all else 3

    @property
    def turns_card(self) -> bool:
        """Whether a trump card is turned up (or, under cubierta, laid covered) under the stock."""
        return self.trump_selection is _TURNED_CARD

    def card_points(self, card: Card) -> int:
        """The card's points under `rank_scheme`."""
        if self.rank_scheme is RankScheme.CHILEAN_TWO_HIGH and card.rank in (2, 3):
            return 10 if card.rank == 2 else 0
        return card.points

    def card_strength(self, card: Card) -> int:
        """The card's trick strength under `rank_scheme`: higher beats lower in a suit."""
        order = CHILEAN_ORDER if self.rank_scheme is RankScheme.CHILEAN_TWO_HIGH else TRICK_ORDER
        return len(order) - order.index(card.rank)

    def to_dict(self) -> dict[str, Any]:
        """The options as JSON-ready values; :meth:`from_dict` reads them back."""
        out: dict[str, Any] = {}
        for field in attrs.fields(Rules):
            value = getattr(self, field.name)
            if isinstance(value, enum.Enum):
                value = value.value
            elif field.name == "removed_cards":
                value = [c.code for c in value]
            elif isinstance(value, tuple):
                value = list(value)
            out[field.name] = value
        return out

    @classmethod
    def from_dict(cls, options: Mapping[str, Any]) -> Rules:
        """Build rules from option names and values, as :meth:`to_dict` writes them.

        Raises:
            RulesError: an unknown option, a bad value or a clash.
        """
        if not isinstance(options, Mapping):
            raise RulesError(
                f"rules must be a mapping of option names to values; got {describe(options)}"
            )
        try:  # a caller's keys, as plain text
            options = plain_keys(options, "rules")
        except NotationError as error:
            raise RulesError(str(error)) from None
        known = attrs.fields_dict(Rules)
        unknown = sorted(describe(k, 24, typed=False) for k in options if k not in known)
        if unknown:
            more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
            raise RulesError(f"unknown rules option(s): {', '.join(unknown[:5])}{more}")
        for name, value in options.items():
            if not _plain_option(value):
                raise RulesError(
                    f"rules option {name}: {describe(value)} is no option value "
                    "(short text, an int, a boolean or a short list of those)"
                )
        try:
            return cls(**options)
        except BriscaError:
            raise
        except (TypeError, ValueError, LookupError, AttributeError) as error:
            # A converter tripped on a value of the wrong kind: still a RulesError.
            raise RulesError(f"invalid rules options: {type(error).__name__}") from None


held_whole(Rules)  # each option is checked as it is set

#: The longest text, the most items and the largest int a rules option value may have in
#: `Rules.from_dict`: far beyond every real option, and small enough to quote in a message.
_OPTION_TEXT, _OPTION_ITEMS, _OPTION_BITS = 40, 48, 64


def _plain_option(value: object, nested: bool = False) -> bool:
    """Whether `value` has the shape of an option value: a short scalar or a short list of
    them (the removed cards, the chiamata scores)."""
    if value is None or isinstance(value, (bool, enum.Enum, Card)):
        return True
    if type(value) is int:
        return value.bit_length() <= _OPTION_BITS
    if type(value) is str:
        return len(value) <= _OPTION_TEXT
    if not nested and type(value) in (list, tuple):
        items: Any = value
        return len(items) <= _OPTION_ITEMS and all(_plain_option(v, True) for v in items)
    return False


def _validate(rules: Rules) -> None:
    n, mode = rules.num_players, rules.team_mode
    seats_for_mode = {
        TeamMode.INDIVIDUAL: (2, 3, 4, 6),
        TeamMode.PARTNERS_OPPOSITE: (4,),
        TeamMode.TEAMS_ALTERNATING: (4, 6),
        TeamMode.SIT_OUT_PARTNERS: (5,),
        TeamMode.DECLARER_VS_REST: (3, 4),
        TeamMode.CALLED_PARTNER: (5, 6),
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
        if rules.card_points(c):
            raise RulesError(
                f"removed_cards: {c} is worth {rules.card_points(c)} points; only blank cards "
                "may be removed, so that the pack still holds 120 points"
            )
    total = sum(rules.card_points(c) for c in pack if c not in removed)
    if total != 120:
        raise RulesError(
            f"deck={rules.deck.value!r} with rank_scheme={rules.rank_scheme.value!r} holds "
            f"{total} card points, not 120"
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
    if rules.first_leader is FirstLeader.DEALER and rules.active_players < n:
        raise RulesError(
            f"first_leader='dealer' clashes with team_mode={mode.value!r} and num_players={n}: "
            "the dealer sits out"
        )
    most = MATCH_TARGET_LIMITS[rules.match_mode]
    if rules.match_target > most:
        raise RulesError(
            f"match_target={rules.match_target} is more than {most}, the most for "
            f"match_mode={rules.match_mode.value!r}"
        )
    _validate_variants(rules)


def _validate_variants(rules: Rules) -> None:
    covered = rules.trump_visibility is TrumpVisibility.CUBIERTA
    if covered and not rules.turns_card:
        raise RulesError("trump_visibility='cubierta' needs trump_selection='turned_card'")
    if covered and rules.swap_enabled:
        raise RulesError("trump_visibility='cubierta' clashes with swap_enabled=True [P]")
    if covered and rules.black_hand is not BlackHand.OFF:
        raise RulesError(
            f"trump_visibility='cubierta' clashes with black_hand={rules.black_hand.value!r} [P]"
        )
    if covered and rules.play_obligation is PlayObligation.ARRASTRE_WHOLE_HAND:
        raise RulesError(
            "trump_visibility='cubierta' clashes with play_obligation='arrastre_whole_hand': "
            "nobody could know when they must trump before the covered card shows [P]"
        )
    if covered and rules.signals is not Signals.NONE:
        raise RulesError(
            f"trump_visibility='cubierta' clashes with signals={rules.signals.value!r}: "
            "an honest trump signal would reveal the covered trump"
        )
    if rules.swap_enabled and not rules.turns_card:
        raise RulesError(
            f"swap_enabled=True needs a turned card, but trump_selection="
            f"{rules.trump_selection.value!r} turns none"
        )
    if rules.swap_two_precedence and not rules.swap_two_for_high_pre_first_trick:
        raise RulesError("swap_two_precedence=True needs swap_two_for_high_pre_first_trick=True")
    _validate_auctions(rules)
    individual = rules.team_mode in (
        TeamMode.INDIVIDUAL,
        TeamMode.DECLARER_VS_REST,
        TeamMode.CALLED_PARTNER,
    )
    if individual and rules.signals is not Signals.NONE:
        raise RulesError(
            f"signals={rules.signals.value!r} needs partners, but team_mode='individual'"
        )
    if individual and rules.partner_hand_visibility is not PartnerHandVisibility.NONE:
        raise RulesError(
            "partner_hand_visibility='show_after_deal' needs fixed partners, but team_mode="
            f"{rules.team_mode.value!r}"
        )


def _validate_auctions(rules: Rules) -> None:
    selection, mode = rules.trump_selection, rules.team_mode
    auction = selection is TrumpSelection.AUCTION
    called = selection is TrumpSelection.CALLED_CARD
    if (mode is TeamMode.CALLED_PARTNER) != called:
        raise RulesError(
            "team_mode='called_partner' and trump_selection='called_card' go together "
            f"(chiamata); got team_mode={mode.value!r}, trump_selection={selection.value!r}"
        )
    if called and not rules.deal_all:
        raise RulesError("trump_selection='called_card' deals every card: set deal_all=True")
    if mode is TeamMode.DECLARER_VS_REST and not auction:
        raise RulesError("team_mode='declarer_vs_rest' needs trump_selection='auction'")
    if auction and mode not in (TeamMode.DECLARER_VS_REST, TeamMode.PARTNERS_OPPOSITE):
        raise RulesError(
            "trump_selection='auction' needs team_mode='declarer_vs_rest' or "
            f"'partners_opposite'; got {mode.value!r}"
        )
    if rules.first_leader is FirstLeader.DECLARER and not rules.has_auction:
        raise RulesError("first_leader='declarer' needs an auction to make a declarer")
    if rules.deal_all and rules.turns_card:
        raise RulesError("deal_all=True leaves no card to turn: trump_selection='turned_card'")
    if rules.cantes and not auction:
        raise RulesError("cantes=True is a subastada rule: it needs trump_selection='auction'")
    if rules.black_hand is not BlackHand.OFF and rules.has_auction:
        raise RulesError(
            f"black_hand={rules.black_hand.value!r} needs a trump known at the deal, not "
            f"trump_selection={selection.value!r}"
        )
    if called and rules.arrastre_partner_relief:
        raise RulesError(
            "arrastre_partner_relief=True clashes with trump_selection='called_card' "
            "(team_mode='called_partner'): the relief hangs on who the secret partner is, "
            "so the cards a seat may play, and the voids its play shows, would reveal it"
        )
    if auction and rules.bid_minimum % rules.bid_step:
        raise RulesError(
            f"bid_minimum={rules.bid_minimum} must be a multiple of bid_step={rules.bid_step}"
        )


#: The swap rules of each source, as `Rules` options (SPEC §2.3):
#: ``attrs.evolve(rules, **SWAP_BUNDLES["casino"])``.
SWAP_BUNDLES: Mapping[str, Mapping[str, Any]] = MappingProxyType(
    {
        "puerto_rican": MappingProxyType(
            {  # S002
                "swap_enabled": True,
                "swap_seven_for_high": True,
                "swap_two_for_low": True,
                "swap_two_for_high_pre_first_trick": True,
                "swap_two_precedence": True,
                "swap_timing": SwapTiming.ANY_TIME,
                "swap_requires_trick_won": SwapRequirement.NONE,
                "swap_max_per_trick": 0,
                "swap_deadline": SwapDeadline.PINTA_ON_TABLE,
            }
        ),
        "casino": MappingProxyType(
            {  # S003
                "swap_enabled": True,
                "swap_seven_for_high": True,
                "swap_two_for_low": True,
                "swap_two_for_high_pre_first_trick": False,
                "swap_two_precedence": False,
                "swap_timing": SwapTiming.OWN_TURN_BEFORE_PLAY,
                "swap_requires_trick_won": SwapRequirement.PLAYER,
                "swap_max_per_trick": 1,
                "swap_deadline": SwapDeadline.STOCK_NONEMPTY,
            }
        ),
        "spanish": MappingProxyType(
            {  # S004; its 2-for-low is optional ("en muchas casas"), so off here
                "swap_enabled": True,
                "swap_seven_for_high": True,
                "swap_two_for_low": False,
                "swap_two_for_high_pre_first_trick": False,
                "swap_two_precedence": False,
                "swap_timing": SwapTiming.AFTER_WINNING_TRICK,
                "swap_requires_trick_won": SwapRequirement.PLAYER,
                "swap_max_per_trick": 0,
                "swap_deadline": SwapDeadline.PINTA_ON_TABLE,
            }
        ),
        "wb": MappingProxyType(
            {  # WB
                "swap_enabled": True,
                "swap_seven_for_high": True,
                "swap_two_for_low": True,
                "swap_two_for_high_pre_first_trick": False,
                "swap_two_precedence": False,
                "swap_timing": SwapTiming.ANY_TIME,
                "swap_requires_trick_won": SwapRequirement.PLAYER,
                "swap_max_per_trick": 0,
                "swap_deadline": SwapDeadline.STOCK_NONEMPTY,
            }
        ),
    }
)


# Enum members as module constants for the properties above: Python 3.11 looks
# `Enum.MEMBER` up through EnumType.__getattr__, about ten times the cost of a global.
_SIT_OUT_PARTNERS, _CALLED_PARTNER = TeamMode.SIT_OUT_PARTNERS, TeamMode.CALLED_PARTNER
_AUCTIONS = (TrumpSelection.AUCTION, TrumpSelection.CALLED_CARD)
_TURNED_CARD = TrumpSelection.TURNED_CARD
