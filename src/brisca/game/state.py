"""The immutable values of a hand: its table, tricks, state, observations and result.

States are built by the engine (:mod:`brisca.game.engine`) and never change. The
engine constructs them positionally, without validation, so that a transition
costs little; everything is validated where it enters the library: in
`new_game`, `apply` and `loads`.
"""

from __future__ import annotations

import enum
import functools
from typing import Any, Final

import attr
import attrs

from brisca.game.actions import Action
from brisca.game.cards import Card, Suit
from brisca.game.errors import BARE_ERRORS, BriscaError, StateError, as_brisca_error
from brisca.game.presets import preset_name
from brisca.game.rules import (
    FirstLeader,
    Rules,
    TeamMode,
)
from brisca.game.values import BUILT, COMPILED, Kind, frozen, refuse_mistyped

__all__ = [
    "BidRecord",
    "BlackHandWin",
    "Cante",
    "Contract",
    "ContractResult",
    "Deal",
    "DealLayout",
    "HandResult",
    "Ledger",
    "Observation",
    "Seating",
    "SignalRecord",
    "State",
    "SwapRecord",
    "Termination",
    "Trick",
    "rules_label",
    "seed_label",
]

Seat = int
Played = tuple[Seat, Card]
#: The actions since the deal, newest last, as nested pairs: see `State.trail`.
Trail = tuple[Any, ...]

#: The most actions one deal can take under any rules: a play for each card of a 48-card
#: pack, 2 swaps (the 7 of trumps, then the 2), 4 cantes, a signal and a pass per seat
#: (at most 6), a black-hand claim, a raise per bid value (220, every card point and
#: cante; a chiamata auction has fewer: 12 ranks, then points up to 120) and the naming
#: of the trump.
MAX_DEAL_ACTIONS = 48 + 2 + 4 + 6 + 6 + 1 + 220 + 1


def _unwound(trail: object) -> tuple[Any, ...]:
    """The actions of `trail`, oldest first.

    Raises:
        StateError: it holds more than `MAX_DEAL_ACTIONS`: a hand-built trail may nest
            past the C stack, or be a list that holds itself, which a walk without a
            budget would follow until memory ran out.
        TypeError, ValueError: it is not a chain of pairs.
    """
    found: list[Any] = []
    while trail:
        if len(found) == MAX_DEAL_ACTIONS:
            raise StateError(
                f"the state's trail holds more than the {MAX_DEAL_ACTIONS} actions "
                "(MAX_DEAL_ACTIONS) a hand can take"
            )
        trail, action = trail  # type: ignore[misc]
        found.append(action)  # type: ignore[has-type]
    found.reverse()
    return tuple(found)


_NOT_PAIRS = object()  # marks a hand-built trail that is no chain of pairs, in `_trail_key`

# Field kinds, for `brisca.game.values.refuse_mistyped`.
_NONE: Final = type(None)
_INT_OR_NONE: Final = (int, _NONE)


def _drawn_card(value: object) -> bool:
    """Whether `value` is a turned card drawn, ``(seat, card)``, or ``None``."""
    return value is None or (
        type(value) is tuple
        and len(value) == 2
        and type(value[0]) is int
        and type(value[1]) is Card
    )


def _trail_key(trail: object) -> object:
    """What equality and hashing compare of a trail: its actions, flat. Nested, a
    hand-built trail deep enough made hashing overflow the C stack; a bounded walk
    refuses it with a StateError, and one that is no chain of pairs compares as it is."""
    try:
        return _unwound(trail)
    except BriscaError:  # too long: refused
        raise
    except BARE_ERRORS:
        return (_NOT_PAIRS, trail)


@attrs.frozen
class DealLayout:
    """Where each position of a `deck` order goes, for some rules and dealer."""

    #: For each seat, the deck positions of its dealt cards, in the order received.
    hands: tuple[tuple[int, ...], ...]
    #: The position of the turned card, or ``None`` when none is turned.
    turned: int | None
    #: The positions of the stock, in draw order.
    stock: tuple[int, ...]


_SEATING_KINDS: Final[tuple[Kind, ...]] = (
    Rules,
    int,
    tuple,
    tuple,
    int,
    tuple,
    tuple,
    tuple,
    tuple,
    dict,
    dict,
    int,
    int,
    DealLayout,
    None,
)


@attr.s(
    auto_attribs=True,
    auto_detect=True,
    frozen=True,
    slots=True,
    init=False,
    order=False,
    weakref_slot=False,
)
class Seating:
    """Who sits where for one hand: the rules, the dealer, the sides and play order.

    Everything here follows from ``(rules, dealer)`` and is shared by every state
    of the hand; :meth:`create` builds it once and caches it.
    """

    rules: Rules
    dealer: Seat
    #: The sides as tuples of seats, the side holding the lowest seat first.
    sides: tuple[tuple[Seat, ...], ...]
    #: The seats that play, in play order starting after the dealer.
    active: tuple[Seat, ...] = attr.ib(eq=False, repr=False)
    #: The seat that leads the first trick.
    first_leader: Seat = attr.ib(eq=False, repr=False)
    #: For each seat, the next active seat in play order.
    next_seat: tuple[Seat, ...] = attr.ib(eq=False, repr=False)
    #: For each seat, the active seats in play order starting with it.
    rotation: tuple[tuple[Seat, ...], ...] = attr.ib(eq=False, repr=False)
    #: For each seat, the index of its side, or -1 for a seat sitting out.
    side_of: tuple[int, ...] = attr.ib(eq=False, repr=False)
    #: The pack in play, in canonical order (`Rules.cards`).
    pack: tuple[Card, ...] = attr.ib(eq=False, repr=False)
    #: Card points and trick strength by card, for the pack in play.
    card_points: dict[Card, int] = attr.ib(eq=False, repr=False)
    strength: dict[Card, int] = attr.ib(eq=False, repr=False)
    #: How many tricks the hand has.
    tricks_total: int = attr.ib(eq=False, repr=False)
    #: How many seats play each trick.
    seats_in_play: int = attr.ib(eq=False, repr=False)
    #: Where the cards of a `deck` order go.
    layout: DealLayout = attr.ib(eq=False, repr=False)
    #: What the variants the rules switch on ask of the engine, worked out once by the
    #: engine (see `brisca.game.engine`), so that a turn reads it here.
    plan: Any = attr.ib(eq=False, repr=False)

    def __init__(
        self,
        rules: Any,
        dealer: Any,
        sides: Any,
        active: Any,
        first_leader: Any,
        next_seat: Any,
        rotation: Any,
        side_of: Any,
        pack: Any,
        card_points: Any,
        strength: Any,
        tricks_total: Any,
        seats_in_play: Any,
        layout: Any,
        plan: Any,
    ) -> None:
        if COMPILED:  # see brisca.game.values.refuse_mistyped
            refuse_mistyped(
                Seating,
                _SEATING_KINDS,
                (
                    rules,
                    dealer,
                    sides,
                    active,
                    first_leader,
                    next_seat,
                    rotation,
                    side_of,
                    pack,
                    card_points,
                    strength,
                    tricks_total,
                    seats_in_play,
                    layout,
                    plan,
                ),
            )
        # Any, and stored under `try`: compiled, a field of the wrong type is a TypeError
        # as it is stored, which a forged value must not let out (see brisca.game.values).
        try:
            self.rules = rules  # type: ignore[misc]
            self.dealer = dealer  # type: ignore[misc]
            self.sides = sides  # type: ignore[misc]
            self.active = active  # type: ignore[misc]
            self.first_leader = first_leader  # type: ignore[misc]
            self.next_seat = next_seat  # type: ignore[misc]
            self.rotation = rotation  # type: ignore[misc]
            self.side_of = side_of  # type: ignore[misc]
            self.pack = pack  # type: ignore[misc]
            self.card_points = card_points  # type: ignore[misc]
            self.strength = strength  # type: ignore[misc]
            self.tricks_total = tricks_total  # type: ignore[misc]
            self.seats_in_play = seats_in_play  # type: ignore[misc]
            self.layout = layout  # type: ignore[misc]
            self.plan = plan  # type: ignore[misc]
        except TypeError as error:
            raise StateError(f"Seating cannot hold that: {error}") from None
        if type(self) is not Seating:  # interpreted: sealed (see brisca.game.values)
            self.__class__ = Seating

    def __reduce__(self) -> tuple[Any, ...]:
        # The plan holds the variants' hooks, functions that need not pickle: a table
        # pickles without it, and the engine finds the plan of its rules again.
        return (Seating, (*(getattr(self, f.name) for f in attrs.fields(Seating)[:-1]), None))

    @classmethod
    def create(
        cls,
        rules: Rules,
        dealer: Seat,
        declarer: Seat | None = None,
        partner: Seat | None = None,
        plan: Any = None,
    ) -> Seating:
        """The table for `rules` with `dealer` dealing (`dealer` must be a valid seat).

        In auction games the sides follow the contract: until the auction ends
        every seat is its own side; then the `declarer`, with its `partner` in
        chiamata, plays against the rest.
        """
        n = rules.num_players
        after = [(dealer + k) % n for k in range(1, n + 1)]  # ends with the dealer
        mode = rules.team_mode
        sitting_out = rules.active_players < n  # the dealer sits out
        active = tuple(after[:-1] if sitting_out else after)
        contract = mode in (TeamMode.DECLARER_VS_REST, TeamMode.CALLED_PARTNER)
        if mode is TeamMode.INDIVIDUAL or (contract and declarer is None):
            groups: list[tuple[Seat, ...]] = [(s,) for s in active]
        elif contract and declarer is not None:
            team = {declarer} if partner is None else {declarer, partner}
            groups = [tuple(sorted(team)), tuple(s for s in sorted(active) if s not in team)]
        else:
            # Partnerships alternate round the active seats: {0,2} v {1,3}, {0,2,4} v {1,3,5}.
            groups = [tuple(sorted(active[0::2])), tuple(sorted(active[1::2]))]
        sides = tuple(sorted(groups))
        side_of = [-1] * n
        for index, side in enumerate(sides):
            for seat in side:
                side_of[seat] = index
        next_seat = [0] * n
        for k, seat in enumerate(active):
            next_seat[seat] = active[(k + 1) % len(active)]
        if sitting_out:
            next_seat[dealer] = active[0]
        rotation = tuple(
            tuple(active[(active.index(s) + k) % len(active)] for k in range(len(active)))
            if s in active
            else active
            for s in range(n)
        )
        leader = active[0]
        if rules.first_leader is FirstLeader.DEALER:
            leader = dealer
        elif rules.first_leader is FirstLeader.DECLARER and declarer is not None:
            leader = declarer
        pack = rules.cards
        dealt = rules.hand_size * len(active)
        hands: list[tuple[int, ...]] = [()] * n
        for k, seat in enumerate(active):  # one card at a time round the table
            hands[seat] = tuple(range(k, dealt, len(active)))
        turned = dealt if rules.turns_card else None
        stock = tuple(range(dealt + rules.turns_card, len(pack)))
        return build_seating(
            rules,
            dealer,
            sides,
            active,
            leader,
            tuple(next_seat),
            rotation,
            tuple(side_of),
            pack,
            {c: rules.card_points(c) for c in pack},
            {c: rules.card_strength(c) for c in pack},
            len(pack) // len(active),
            len(active),
            DealLayout(tuple(hands), turned, stock),
            plan,
        )


# Seating.create builds the table through this, once a table: see `brisca.game.values`.
build_seating = frozen(Seating, Seating, _SEATING_KINDS)


@functools.lru_cache(maxsize=1024)
def seating_for(
    rules: Rules,
    dealer: Seat,
    declarer: Seat | None = None,
    partner: Seat | None = None,
    plan: Any = None,
) -> Seating:
    """The (cached) table of a hand of `rules` dealt by `dealer`; see :meth:`Seating.create`."""
    return Seating.create(rules, dealer, declarer, partner, plan)


_TRICK_KINDS: Final[tuple[Kind, ...]] = (int, tuple, int, int)


@attr.s(
    auto_attribs=True,
    auto_detect=True,
    frozen=True,
    slots=True,
    init=False,
    order=False,
    weakref_slot=False,
)
class Trick:
    """A completed trick."""

    #: The seat that led.
    leader: Seat
    #: The cards in the order played, as ``(seat, card)`` pairs.
    cards: tuple[Played, ...]
    #: The seat that won it.
    winner: Seat
    #: The card points it holds.
    points: int

    def __init__(
        self, leader: Any, cards: Any, winner: Any, points: Any, _built: object = None
    ) -> None:
        if COMPILED and _built is not BUILT:  # see brisca.game.values.refuse_mistyped
            refuse_mistyped(Trick, _TRICK_KINDS, (leader, cards, winner, points))
        # Any, and stored under `try`: compiled, a field of the wrong type is a TypeError
        # as it is stored, which a forged value must not let out (see brisca.game.values).
        try:
            self.leader = leader  # type: ignore[misc]
            self.cards = cards  # type: ignore[misc]
            self.winner = winner  # type: ignore[misc]
            self.points = points  # type: ignore[misc]
        except TypeError as error:
            raise StateError(f"Trick cannot hold that: {error}") from None
        if type(self) is not Trick:  # interpreted: sealed (see brisca.game.values)
            self.__class__ = Trick

    def __reduce__(self) -> tuple[Any, ...]:
        return (Trick, (self.leader, self.cards, self.winner, self.points))


def build_trick(leader: Seat, cards: tuple[Played, ...], winner: Seat, points: int) -> Trick:
    """A `Trick`, as the engine builds it (see `brisca.game.values`)."""
    return Trick(leader, cards, winner, points, BUILT)


build_trick = frozen(Trick, build_trick, _TRICK_KINDS)


@attrs.frozen
class SwapRecord:
    """A swap of a trump in hand for the turned card, made in view of the table."""

    seat: Seat
    #: The card put under the stock.
    given: Card
    #: The turned card taken into hand.
    taken: Card
    #: How many tricks were complete when it was made.
    trick: int


@attrs.frozen
class SignalRecord:
    """A partnership signal (seña)."""

    seat: Seat
    #: The signal's name in the rules' vocabulary, such as ``"wink"``.
    signal: str
    #: How many tricks were complete when it was made.
    trick: int


@attrs.frozen
class BidRecord:
    """One call in an auction: a `Bid`, a `BidRank` or a `Pass`."""

    seat: Seat
    bid: Action


@attrs.frozen
class Contract:
    """The outcome of an auction (SPEC §2.7, §2.8)."""

    #: The auction's winner.
    declarer: Seat
    #: The winning bid.
    bid: Action
    #: The trump suit, once named or called.
    trump: Suit | None = None
    #: The called card, in chiamata.
    called: Card | None = None
    #: The called card's holder, the secret partner (the declarer when it plays alone).
    #: ``None`` until the call, and in a seat's observation while it is secret.
    partner: Seat | None = None


@attrs.frozen
class Cante:
    """A sung pair of Rey and Caballo (SPEC §2.7): 40 in trumps, 20 otherwise."""

    seat: Seat
    suit: Suit
    points: int
    #: How many tricks were complete when it was sung.
    trick: int


_DEAL_KINDS: Final[tuple[Kind, ...]] = (tuple, _INT_OR_NONE, int, tuple)


@attr.s(
    auto_attribs=True,
    auto_detect=True,
    frozen=True,
    slots=True,
    init=False,
    order=False,
    weakref_slot=False,
)
class Deal:
    """How a hand was dealt; shared by every state of the hand."""

    #: The order the cards left the pack: what ``new_game(deck=...)`` takes.
    deck: tuple[Card, ...]
    #: The seed the deck was shuffled from, or ``None`` when it was given.
    seed: int | None
    #: Which hand of a match this is, from 0; it picks a rotated trump.
    hand_number: int
    #: Each seat's hand as dealt (empty for a seat sitting out).
    hands: tuple[tuple[Card, ...], ...] = attr.ib(eq=False, repr=False)

    def __init__(
        self,
        deck: Any,
        seed: Any,
        hand_number: Any,
        hands: Any,
        _built: object = None,
    ) -> None:
        if COMPILED and _built is not BUILT:  # see brisca.game.values.refuse_mistyped
            refuse_mistyped(Deal, _DEAL_KINDS, (deck, seed, hand_number, hands))
        # Any, and stored under `try`: compiled, a field of the wrong type is a TypeError
        # as it is stored, which a forged value must not let out (see brisca.game.values).
        try:
            self.deck = deck  # type: ignore[misc]
            self.seed = seed  # type: ignore[misc]
            self.hand_number = hand_number  # type: ignore[misc]
            self.hands = hands  # type: ignore[misc]
        except TypeError as error:
            raise StateError(f"Deal cannot hold that: {error}") from None
        if type(self) is not Deal:  # interpreted: sealed (see brisca.game.values)
            self.__class__ = Deal

    def __reduce__(self) -> tuple[Any, ...]:
        return (Deal, (self.deck, self.seed, self.hand_number, self.hands))


def build_deal(
    deck: tuple[Card, ...], seed: int | None, hand_number: int, hands: tuple[tuple[Card, ...], ...]
) -> Deal:
    """A `Deal`, as the engine builds it (see `brisca.game.values`)."""
    return Deal(deck, seed, hand_number, hands, BUILT)


build_deal = frozen(Deal, build_deal, _DEAL_KINDS)


_LEDGER_KINDS: Final[tuple[Kind, ...]] = (
    tuple,
    tuple,
    _INT_OR_NONE,
    _drawn_card,
    tuple,
    (Contract, _NONE),
    tuple,
)


@attr.s(
    auto_attribs=True,
    auto_detect=True,
    frozen=True,
    slots=True,
    init=False,
    order=False,
    weakref_slot=False,
)
class Ledger:
    """What a hand records besides its cards and tricks; plain plays never change it."""

    #: The swaps made, in order.
    swaps: tuple[SwapRecord, ...] = ()
    #: The signals made, in order.
    signals: tuple[SignalRecord, ...] = ()
    #: The seat whose black hand ended the hand, else ``None``.
    black_hand: Seat | None = None
    #: Once the turned card has been drawn: who drew it, and which card it was.
    trump_card_drawn: tuple[Seat, Card] | None = None
    #: The auction's calls, in order.
    bids: tuple[BidRecord, ...] = ()
    #: The contract, once the auction has a winner.
    contract: Contract | None = None
    #: The cantes sung, in order.
    cantes: tuple[Cante, ...] = ()

    def __init__(
        self,
        swaps: Any = (),
        signals: Any = (),
        black_hand: Any = None,
        trump_card_drawn: Any = None,
        bids: Any = (),
        contract: Any = None,
        cantes: Any = (),
        _built: object = None,
    ) -> None:
        if COMPILED and _built is not BUILT:  # see brisca.game.values.refuse_mistyped
            refuse_mistyped(
                Ledger,
                _LEDGER_KINDS,
                (swaps, signals, black_hand, trump_card_drawn, bids, contract, cantes),
            )
        # Any, and stored under `try`: compiled, a field of the wrong type is a TypeError
        # as it is stored, which a forged value must not let out (see brisca.game.values).
        try:
            self.swaps = swaps  # type: ignore[misc]
            self.signals = signals  # type: ignore[misc]
            self.black_hand = black_hand  # type: ignore[misc]
            self.trump_card_drawn = trump_card_drawn  # type: ignore[misc]
            self.bids = bids  # type: ignore[misc]
            self.contract = contract  # type: ignore[misc]
            self.cantes = cantes  # type: ignore[misc]
        except TypeError as error:
            raise StateError(f"Ledger cannot hold that: {error}") from None
        if type(self) is not Ledger:  # interpreted: sealed (see brisca.game.values)
            self.__class__ = Ledger

    def __reduce__(self) -> tuple[Any, ...]:
        return (Ledger, tuple(getattr(self, f.name) for f in attrs.fields(Ledger)))


def build_ledger(
    swaps: tuple[SwapRecord, ...],
    signals: tuple[SignalRecord, ...],
    black_hand: Seat | None,
    trump_card_drawn: tuple[Seat, Card] | None,
    bids: tuple[BidRecord, ...],
    contract: Contract | None,
    cantes: tuple[Cante, ...],
) -> Ledger:
    """A `Ledger`, as the engine builds it (see `brisca.game.values`)."""
    return Ledger(swaps, signals, black_hand, trump_card_drawn, bids, contract, cantes, BUILT)


build_ledger = frozen(Ledger, build_ledger, _LEDGER_KINDS)


def evolve_ledger(ledger: Ledger, **changes: Any) -> Ledger:
    """``attrs.evolve(ledger, **changes)`` for the engine's own changes (see `evolve_state`)."""
    _known(changes, _LEDGER_FIELDS, "Ledger")
    return build_ledger(
        changes.get("swaps", ledger.swaps),
        changes.get("signals", ledger.signals),
        changes.get("black_hand", ledger.black_hand),
        changes.get("trump_card_drawn", ledger.trump_card_drawn),
        changes.get("bids", ledger.bids),
        changes.get("contract", ledger.contract),
        changes.get("cantes", ledger.cantes),
    )


def _known(changes: dict[str, Any], fields: frozenset[str], name: str) -> None:
    for key in changes:
        if key not in fields:  # a slip in the library's own code, as attrs.evolve says it
            raise TypeError(f"{name} has no field {key!r}")


_LEDGER_FIELDS: Final = frozenset(f.name for f in attrs.fields(Ledger))


_STATE_KINDS: Final[tuple[Kind, ...]] = (
    Seating,
    Deal,
    (Suit, _NONE),
    (Card, _NONE),
    tuple,
    tuple,
    tuple,
    tuple,
    _INT_OR_NONE,
    Ledger,
    tuple,
)


@attr.s(
    auto_attribs=True,
    auto_detect=True,
    frozen=True,
    slots=True,
    init=False,
    order=False,
    weakref_slot=False,
)
class State:
    """The whole truth of a hand at one moment, hidden cards included.

    Never build one directly: use :func:`brisca.new_game`, :func:`brisca.apply`
    or :func:`brisca.loads`. Only :func:`brisca.observe` gives a seat's view.
    """

    #: The rules, dealer and sides, shared by every state of the hand.
    seating: Seating
    #: How the hand was dealt: the deck order, the seed and the hand number.
    deal: Deal
    #: The trump suit (the real one, even while a covered card hides it).
    trump: Suit | None
    #: The turned trump card while it lies under the stock, else ``None``.
    trump_card: Card | None
    #: Each seat's hand, in the order the cards were received.
    hands: tuple[tuple[Card, ...], ...]
    #: The face-down stock in draw order; the turned card is not part of it.
    stock: tuple[Card, ...]
    #: The trick in progress, as ``(seat, card)`` pairs.
    trick: tuple[Played, ...]
    #: The completed tricks, oldest first.
    tricks: tuple[Trick, ...]
    #: The seat to act, or ``None`` once the hand is over.
    to_act: Seat | None
    #: Swaps, signals, claims, the auction and cantes.
    ledger: Ledger
    #: Whether the hand has ended: every card played, a black hand won it, or everyone
    #: passed. It is ``to_act is None``, kept as an attribute because every game loop
    #: asks it every turn.
    is_over: bool = attr.ib(init=False, eq=False, repr=False)
    #: The actions taken since the deal as nested pairs, ``(earlier trail, last action)``,
    #: or ``()`` at the deal: a step adds one pair instead of copying a tuple. Read
    #: `history` for the flat tuple.
    trail: Trail = attr.ib(repr=False, eq=_trail_key)

    def __init__(
        self,
        seating: Any,
        deal: Any,
        trump: Any,
        trump_card: Any,
        hands: Any,
        stock: Any,
        trick: Any,
        tricks: Any,
        to_act: Any,
        ledger: Any,
        trail: Any,
        _built: object = None,
    ) -> None:
        if COMPILED and _built is not BUILT:  # see brisca.game.values.refuse_mistyped
            refuse_mistyped(
                State,
                _STATE_KINDS,
                (
                    seating,
                    deal,
                    trump,
                    trump_card,
                    hands,
                    stock,
                    trick,
                    tricks,
                    to_act,
                    ledger,
                    trail,
                ),
            )
        # Any, and stored under `try`: compiled, a field of the wrong type is a TypeError
        # as it is stored, which a forged value must not let out (see brisca.game.values).
        try:
            self.seating = seating  # type: ignore[misc]
            self.deal = deal  # type: ignore[misc]
            self.trump = trump  # type: ignore[misc]
            self.trump_card = trump_card  # type: ignore[misc]
            self.hands = hands  # type: ignore[misc]
            self.stock = stock  # type: ignore[misc]
            self.trick = trick  # type: ignore[misc]
            self.tricks = tricks  # type: ignore[misc]
            self.to_act = to_act  # type: ignore[misc]
            self.ledger = ledger  # type: ignore[misc]
            self.is_over = to_act is None  # type: ignore[misc]
            self.trail = trail  # type: ignore[misc]
        except TypeError as error:
            raise StateError(f"State cannot hold that: {error}") from None
        if type(self) is not State:  # interpreted: sealed (see brisca.game.values)
            self.__class__ = State

    # Each reader turns what a hand-edited field makes Python raise into a StateError
    # (`as_brisca_error`); a `try` costs nothing until it catches.

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action taken since the deal, in order: with `deal`, the state's whole story."""
        try:
            return _unwound(self.trail)
        except BARE_ERRORS as error:
            raise as_brisca_error("the state", error) from None

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt from its fields, once the trail is known to be no longer than a hand:
        nested deeper, a hand-built one would pass pickle's recursion limit (or hold
        itself)."""
        try:
            _unwound(self.trail)
        except BriscaError:  # too long: refused
            raise
        except BARE_ERRORS:  # no chain of pairs: pickled as it is
            pass
        return (State, tuple(getattr(self, f.name) for f in attrs.fields(State) if f.init))

    def __setstate__(self, fields: dict[str, Any]) -> None:
        # What a State pickled by release 0.1 holds: its fields by name.
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    @property
    def seed(self) -> int | None:
        """The seed the hand was shuffled from, or ``None`` when it was dealt from a deck."""
        try:
            return self.deal.seed
        except BARE_ERRORS as error:
            raise as_brisca_error("the state", error) from None

    @property
    def hand_number(self) -> int:
        """Which hand of a match this is, from 0."""
        try:
            return self.deal.hand_number
        except BARE_ERRORS as error:
            raise as_brisca_error("the state", error) from None

    @property
    def rules(self) -> Rules:
        """The rules of this hand."""
        try:
            return self.seating.rules
        except BARE_ERRORS as error:
            raise as_brisca_error("the state", error) from None

    @property
    def dealer(self) -> Seat:
        """The dealer's seat."""
        try:
            return self.seating.dealer
        except BARE_ERRORS as error:
            raise as_brisca_error("the state", error) from None

    @property
    def sides(self) -> tuple[tuple[Seat, ...], ...]:
        """The sides as tuples of seats, the one with the lowest seat first."""
        try:
            return self.seating.sides
        except BARE_ERRORS as error:
            raise as_brisca_error("the state", error) from None

    @property
    def side_points(self) -> tuple[int, ...]:
        """The card points each side has captured so far, in `sides` order."""
        try:
            totals = [0] * len(self.seating.sides)
            side_of = self.seating.side_of
            for t in self.tricks:
                side = side_of[t.winner]
                totals[side] = totals[side] + t.points  # `+=` on an item is generic, compiled
        except BARE_ERRORS as error:
            raise as_brisca_error("the state", error) from None
        return tuple(totals)

    def __repr__(self) -> str:
        # One line, as python-chess's Board does: the rules every card are in `str`.
        try:
            return f"<State {rules_label(self.rules)}, {_dealt_by(self)}: {_moment(self)}>"
        except BARE_ERRORS as error:
            raise as_brisca_error("the state", error) from None

    def __str__(self) -> str:
        """The table in a few lines: every hand, the trick, the trump, the stock, the points."""
        try:
            return _table(self)
        except BARE_ERRORS as error:
            raise as_brisca_error("the state", error) from None


def _table(state: State) -> str:
    """`str(state)`: the header, every hand, the trick and the points."""
    seating, trump = state.seating, state.trump
    turned = f" (turned {state.trump_card})" if state.trump_card is not None else ""
    header = [
        rules_label(state.rules),
        f"hand {state.hand_number}",
        f"dealer seat {state.dealer}",
        f"trump {trump.spanish_name if trump else 'not chosen'}{turned}",
        f"stock {len(state.stock)}",
    ]
    lines = [" · ".join(header)]
    for seat, hand in enumerate(state.hands):
        mark = "*" if seat == state.to_act else " "
        cards = " ".join(str(c) for c in hand) or "-"
        lines.append(f"{mark} seat {seat}: {cards}")
    if state.trick:
        lines.append("trick: " + "  ".join(f"{seat}:{card}" for seat, card in state.trick))
    won = [0] * len(seating.sides)
    for t in state.tricks:
        won[seating.side_of[t.winner]] += 1
    names = ["+".join(map(str, side)) for side in seating.sides]
    lines.append(
        "points: "
        + ", ".join(
            f"{name} {points} ({_count(tricks, 'trick')})"
            for name, points, tricks in zip(names, state.side_points, won, strict=True)
        )
    )
    if state.is_over:
        lines.append("the hand is over")
    return "\n".join(lines)


def rules_label(rules: Rules) -> str:
    """`rules` in a few words for a repr: the preset they equal, or how many play."""
    return preset_name(rules) or f"custom {rules.num_players}-player rules"


def seed_label(seed: object) -> str:
    """A seed in a few words for a repr: ``seed 7``, or ``a 901-bit seed`` past 64 bits."""
    if isinstance(seed, int) and seed >= 2**64:
        return f"a {seed.bit_length()}-bit seed"
    return f"seed {seed}"


def _dealt_by(state: State) -> str:
    return "dealt from a deck" if state.seed is None else seed_label(state.seed)


def _moment(state: State) -> str:
    if state.is_over:
        return f"over after {_count(len(state.tricks), 'trick')}"
    if state.trump is None:
        return f"auction, seat {state.to_act} to act"
    total = state.seating.tricks_total
    return f"trick {len(state.tricks) + 1} of {total}, seat {state.to_act} to act"


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}" if number == 1 else f"{number} {thing}s"


def build_state(
    seating: Seating,
    deal: Deal,
    trump: Suit | None,
    trump_card: Card | None,
    hands: tuple[tuple[Card, ...], ...],
    stock: tuple[Card, ...],
    trick: tuple[Played, ...],
    tricks: tuple[Trick, ...],
    to_act: Seat | None,
    ledger: Ledger,
    trail: Trail,
) -> State:
    """A `State`, as the engine builds it (see `brisca.game.values`)."""
    return State(
        seating, deal, trump, trump_card, hands, stock, trick, tricks, to_act, ledger, trail, BUILT
    )


build_state = frozen(State, build_state, _STATE_KINDS)


def evolve_state(state: State, **changes: Any) -> State:
    """``attrs.evolve(state, **changes)`` for the engine's own changes, which are of the
    right kinds: built as the engine builds a state. ``attrs.evolve`` goes through the
    class's ``__init__``, which the compiled build makes check every field, and reads
    the fields by name from Python: a variant's action cost several times a play."""
    _known(changes, _STATE_FIELDS, "State")
    return build_state(
        changes.get("seating", state.seating),
        changes.get("deal", state.deal),
        changes.get("trump", state.trump),
        changes.get("trump_card", state.trump_card),
        changes.get("hands", state.hands),
        changes.get("stock", state.stock),
        changes.get("trick", state.trick),
        changes.get("tricks", state.tricks),
        changes.get("to_act", state.to_act),
        changes.get("ledger", state.ledger),
        changes.get("trail", state.trail),
    )


_STATE_FIELDS: Final = frozenset(f.name for f in attrs.fields(State) if f.init)


_OBSERVATION_KINDS: Final[tuple[Kind, ...]] = (
    int,
    Rules,
    int,
    int,
    tuple,
    (Suit, _NONE),
    (Card, _NONE),
    tuple,
    tuple,
    int,
    tuple,
    tuple,
    _INT_OR_NONE,
    tuple,
    tuple,
    tuple,
    _drawn_card,
    _INT_OR_NONE,
    tuple,
    tuple,
    (Contract, _NONE),
    tuple,
)


@attr.s(
    auto_attribs=True,
    auto_detect=True,
    frozen=True,
    slots=True,
    init=False,
    order=False,
    weakref_slot=False,
    kw_only=True,
)
class Observation:
    """What one seat may know of a hand. Equal exactly when that knowledge is equal.

    The engine builds it by keyword: the core fields, then what each variant the
    rules switch on adds (swaps, signals, voids, the auction, cantes, a black hand).
    """

    #: The observing seat.
    seat: Seat
    rules: Rules
    dealer: Seat
    #: Which hand of a match this is, from 0.
    hand_number: int = 0
    #: The sides as this seat knows them: in chiamata, every seat alone until the seat
    #: knows the secret partner (it holds the called card, or the card has been played).
    sides: tuple[tuple[Seat, ...], ...]
    #: The trump suit, or ``None`` while the seat cannot know it.
    trump: Suit | None
    #: The turned trump card while it is on the table and face up.
    trump_card: Card | None
    #: The seat's own hand.
    hand: tuple[Card, ...]
    #: How many cards each seat holds.
    hand_sizes: tuple[int, ...]
    #: How many face-down cards the stock holds.
    stock_size: int
    #: The trick in progress.
    trick: tuple[Played, ...]
    #: The completed tricks: every card played is public.
    tricks: tuple[Trick, ...]
    to_act: Seat | None
    #: The swaps made, all in view.
    swaps: tuple[SwapRecord, ...] = ()
    #: The signals this seat has seen: all of them, or its partners' only if team-private.
    signals: tuple[SignalRecord, ...] = ()
    #: The hands this seat's partners were dealt, by seat, if partners show them.
    partner_hands: tuple[tuple[Seat, tuple[Card, ...]], ...] = ()
    #: Once the turned card has been drawn: who drew it, and which card it was.
    trump_card_drawn: tuple[Seat, Card] | None = None
    #: The seat whose black hand ended the hand, else ``None``.
    black_hand: Seat | None = None
    #: For each seat, the suits it is known to hold none of, from arrastre play.
    voids: tuple[frozenset[Suit], ...] = ()
    #: The auction's calls, all public.
    bids: tuple[BidRecord, ...] = ()
    #: The contract; in chiamata its partner stays ``None`` while the seat cannot know it.
    contract: Contract | None = None
    #: The cantes sung, all public.
    cantes: tuple[Cante, ...] = ()

    def __init__(
        self,
        *,
        seat: Any,
        rules: Any,
        dealer: Any,
        hand_number: Any = 0,
        sides: Any,
        trump: Any,
        trump_card: Any,
        hand: Any,
        hand_sizes: Any,
        stock_size: Any,
        trick: Any,
        tricks: Any,
        to_act: Any,
        swaps: Any = (),
        signals: Any = (),
        partner_hands: Any = (),
        trump_card_drawn: Any = None,
        black_hand: Any = None,
        voids: Any = (),
        bids: Any = (),
        contract: Any = None,
        cantes: Any = (),
        _built: object = None,
    ) -> None:
        if COMPILED and _built is not BUILT:  # see brisca.game.values.refuse_mistyped
            refuse_mistyped(
                Observation,
                _OBSERVATION_KINDS,
                (
                    seat,
                    rules,
                    dealer,
                    hand_number,
                    sides,
                    trump,
                    trump_card,
                    hand,
                    hand_sizes,
                    stock_size,
                    trick,
                    tricks,
                    to_act,
                    swaps,
                    signals,
                    partner_hands,
                    trump_card_drawn,
                    black_hand,
                    voids,
                    bids,
                    contract,
                    cantes,
                ),
            )
        # Any, and stored under `try`: compiled, a field of the wrong type is a TypeError
        # as it is stored, which a forged value must not let out (see brisca.game.values).
        try:
            self.seat = seat  # type: ignore[misc]
            self.rules = rules  # type: ignore[misc]
            self.dealer = dealer  # type: ignore[misc]
            self.hand_number = hand_number  # type: ignore[misc]
            self.sides = sides  # type: ignore[misc]
            self.trump = trump  # type: ignore[misc]
            self.trump_card = trump_card  # type: ignore[misc]
            self.hand = hand  # type: ignore[misc]
            self.hand_sizes = hand_sizes  # type: ignore[misc]
            self.stock_size = stock_size  # type: ignore[misc]
            self.trick = trick  # type: ignore[misc]
            self.tricks = tricks  # type: ignore[misc]
            self.to_act = to_act  # type: ignore[misc]
            self.swaps = swaps  # type: ignore[misc]
            self.signals = signals  # type: ignore[misc]
            self.partner_hands = partner_hands  # type: ignore[misc]
            self.trump_card_drawn = trump_card_drawn  # type: ignore[misc]
            self.black_hand = black_hand  # type: ignore[misc]
            self.voids = voids  # type: ignore[misc]
            self.bids = bids  # type: ignore[misc]
            self.contract = contract  # type: ignore[misc]
            self.cantes = cantes  # type: ignore[misc]
        except TypeError as error:
            raise StateError(f"Observation cannot hold that: {error}") from None
        if type(self) is not Observation:  # interpreted: sealed (see brisca.game.values)
            self.__class__ = Observation

    def __reduce__(self) -> tuple[Any, ...]:
        return (_observation, ({f.name: getattr(self, f.name) for f in attrs.fields(Observation)},))

    @property
    def side_points(self) -> tuple[int, ...]:
        """The card points each side has captured, as every player may count them."""
        try:
            sides = self.sides
            totals = [0] * len(sides)
            # The sides a winning seat is on, found once a seat: a server writes this for
            # every seat after every move. (A hand-built view's winner that is no int is
            # looked for each time.)
            found: dict[int, tuple[int, ...]] = {}
            for t in self.tricks:
                winner = t.winner
                on = found.get(winner) if type(winner) is int else None
                if on is None:
                    on = tuple(index for index, side in enumerate(sides) if winner in side)
                    if type(winner) is int:
                        found[winner] = on
                for index in on:
                    totals[index] += t.points
        except BARE_ERRORS as error:
            raise as_brisca_error("the view", error) from None
        return tuple(totals)


def _observation(fields: dict[str, Any]) -> Observation:
    """An `Observation` from its fields by name: what a pickled one holds."""
    return Observation(**fields)


#: The fields of an `Observation` a variant's view may give: its own, and the sides and
#: voids, which replace the core's.
OBSERVED_BY_VARIANTS: Final = frozenset(
    {"sides", "voids", "swaps", "signals", "black_hand", "bids", "contract", "cantes"}
)


def build_observation(
    seat: Seat,
    rules: Rules,
    dealer: Seat,
    hand_number: int,
    sides: tuple[tuple[Seat, ...], ...],
    trump: Suit | None,
    trump_card: Card | None,
    hand: tuple[Card, ...],
    hand_sizes: tuple[int, ...],
    stock_size: int,
    trick: tuple[Played, ...],
    tricks: tuple[Trick, ...],
    to_act: Seat | None,
    partner_hands: tuple[tuple[Seat, tuple[Card, ...]], ...],
    trump_card_drawn: tuple[Seat, Card] | None,
    voids: tuple[frozenset[Suit], ...],
    extra: dict[str, Any],
) -> Observation:
    """An `Observation` from its core fields and what the rules' variants add to it, by
    field name (`OBSERVED_BY_VARIANTS`: two replace a core field's value, such as
    arrastre's `voids`)."""
    if not extra:  # most rules add nothing
        return _built_observation(
            seat=seat,
            rules=rules,
            dealer=dealer,
            hand_number=hand_number,
            sides=sides,
            trump=trump,
            trump_card=trump_card,
            hand=hand,
            hand_sizes=hand_sizes,
            stock_size=stock_size,
            trick=trick,
            tricks=tricks,
            to_act=to_act,
            partner_hands=partner_hands,
            trump_card_drawn=trump_card_drawn,
            voids=voids,
        )
    get = extra.get
    return _built_observation(
        seat=seat,
        rules=rules,
        dealer=dealer,
        hand_number=hand_number,
        sides=get("sides", sides),
        trump=trump,
        trump_card=trump_card,
        hand=hand,
        hand_sizes=hand_sizes,
        stock_size=stock_size,
        trick=trick,
        tricks=tricks,
        to_act=to_act,
        partner_hands=partner_hands,
        trump_card_drawn=trump_card_drawn,
        voids=get("voids", voids),
        swaps=get("swaps", ()),
        signals=get("signals", ()),
        black_hand=get("black_hand"),
        bids=get("bids", ()),
        contract=get("contract"),
        cantes=get("cantes", ()),
    )


def _built_observation(
    *,
    seat: Any,
    rules: Any,
    dealer: Any,
    hand_number: Any,
    sides: Any,
    trump: Any,
    trump_card: Any,
    hand: Any,
    hand_sizes: Any,
    stock_size: Any,
    trick: Any,
    tricks: Any,
    to_act: Any,
    partner_hands: Any,
    trump_card_drawn: Any,
    voids: Any,
    swaps: Any = (),
    signals: Any = (),
    black_hand: Any = None,
    bids: Any = (),
    contract: Any = None,
    cantes: Any = (),
) -> Observation:
    """An `Observation`, called by keyword: compiled code resolves the keywords as it is
    compiled, where a dict of them would be parsed at every call."""
    return Observation(
        seat=seat,
        rules=rules,
        dealer=dealer,
        hand_number=hand_number,
        sides=sides,
        trump=trump,
        trump_card=trump_card,
        hand=hand,
        hand_sizes=hand_sizes,
        stock_size=stock_size,
        trick=trick,
        tricks=tricks,
        to_act=to_act,
        partner_hands=partner_hands,
        trump_card_drawn=trump_card_drawn,
        voids=voids,
        swaps=swaps,
        signals=signals,
        black_hand=black_hand,
        bids=bids,
        contract=contract,
        cantes=cantes,
        _built=BUILT,
    )


# Bots and learning environments observe at every decision, and the frozen keyword
# ``__init__`` of twenty-two fields had cost more than the move itself.
_built_observation = frozen(Observation, _built_observation, _OBSERVATION_KINDS)


class Termination(enum.Enum):
    """How a hand ended."""

    #: Every card was played.
    PLAYED_OUT = "played_out"
    #: A black hand won it (SPEC §2.5).
    BLACK_HAND = "black_hand"
    #: The declaring side made its contract (SPEC §2.7, §2.8).
    CONTRACT_MADE = "contract_made"
    #: The declaring side failed its contract.
    CONTRACT_FAILED = "contract_failed"
    #: Everyone passed in the auction: nothing was played.
    VOID = "void"


@attrs.frozen
class BlackHandWin:
    """What a black hand adds to a hand's result (SPEC §2.5)."""

    #: The seat whose black hand won.
    seat: Seat


@attrs.frozen
class ContractResult:
    """What a contract adds to a hand's result (SPEC §2.7, §2.8)."""

    contract: Contract
    #: Whether the declaring side made it.
    made: bool
    #: Cante points per side, in `HandResult.sides` order (subastada).
    cantes: tuple[int, ...]
    #: What each seat scores for the contract, by seat.
    seat_scores: tuple[int, ...]


_HAND_RESULT_KINDS: Final[tuple[Kind, ...]] = (
    Termination,
    tuple,
    tuple,
    _INT_OR_NONE,
    tuple,
    bool,
    _INT_OR_NONE,
    (BlackHandWin, ContractResult, _NONE),
)


@attr.s(
    auto_attribs=True,
    auto_detect=True,
    frozen=True,
    slots=True,
    init=False,
    order=False,
    weakref_slot=False,
    kw_only=True,
)
class HandResult:
    """How a finished hand came out: how it ended, the points and the winner, and
    what the variant that ended it adds (`details`)."""

    #: How the hand ended.
    termination: Termination
    #: The sides, as in `State.sides`.
    sides: tuple[tuple[Seat, ...], ...]
    #: Card points per side, in `sides` order.
    points: tuple[int, ...]
    #: The index into `sides` of the winner, or ``None`` for a tie that nobody wins.
    winner: int | None
    #: The sides that tied for the top, by index; empty when one side won outright.
    tied: tuple[int, ...] = ()
    #: Whether the tie rule deals the hand again (``replay`` and ``replay_double_stake``).
    replay: bool = False
    #: The side that won the last trick, or ``None`` when no trick was played.
    last_trick: int | None = None
    #: What a black hand or a contract adds, else ``None``.
    details: BlackHandWin | ContractResult | None = None

    def __init__(
        self,
        termination: Any,
        sides: Any,
        points: Any,
        winner: Any,
        tied: Any = (),
        replay: Any = False,
        last_trick: Any = None,
        details: Any = None,
        _built: object = None,
    ) -> None:
        if COMPILED and _built is not BUILT:  # see brisca.game.values.refuse_mistyped
            refuse_mistyped(
                HandResult,
                _HAND_RESULT_KINDS,
                (termination, sides, points, winner, tied, replay, last_trick, details),
            )
        # Any, and stored under `try`: compiled, a field of the wrong type is a TypeError
        # as it is stored, which a forged value must not let out (see brisca.game.values).
        try:
            self.termination = termination  # type: ignore[misc]
            self.sides = sides  # type: ignore[misc]
            self.points = points  # type: ignore[misc]
            self.winner = winner  # type: ignore[misc]
            self.tied = tied  # type: ignore[misc]
            self.replay = replay  # type: ignore[misc]
            self.last_trick = last_trick  # type: ignore[misc]
            self.details = details  # type: ignore[misc]
        except TypeError as error:
            raise StateError(f"HandResult cannot hold that: {error}") from None
        if type(self) is not HandResult:  # interpreted: sealed (see brisca.game.values)
            self.__class__ = HandResult

    def __reduce__(self) -> tuple[Any, ...]:
        return (HandResult, tuple(getattr(self, f.name) for f in attrs.fields(HandResult)))

    @property
    def void(self) -> bool:
        """Whether the hand ended without play (everyone passed in an auction)."""
        return self.termination is Termination.VOID

    @property
    def black_hand(self) -> Seat | None:
        """The seat whose black hand won, else ``None``."""
        return self.details.seat if isinstance(self.details, BlackHandWin) else None


def build_result(
    termination: Termination,
    sides: tuple[tuple[Seat, ...], ...],
    points: tuple[int, ...],
    winner: int | None,
    tied: tuple[int, ...],
    replay: bool,
    last_trick: int | None,
    details: BlackHandWin | ContractResult | None,
) -> HandResult:
    """A `HandResult`, as the engine builds it (see `brisca.game.values`): every playout
    ends with one, and the frozen keyword ``__init__`` had cost a tenth of what a
    finished hand's `step` costs."""
    return HandResult(termination, sides, points, winner, tied, replay, last_trick, details, BUILT)


build_result = frozen(HandResult, build_result, _HAND_RESULT_KINDS)
