"""The pure transition functions: deal, list and check actions, apply them, score.

One rule check, :func:`refusal`, decides legality for :func:`is_legal`,
:func:`apply` and :func:`step`; :func:`legal_actions` lists the plays the rules
allow and what each variant offers, through the same rule modules, and the
conformance kit (:mod:`brisca.testing`) checks at every step that the two agree.
The optional rules come from one registry, :data:`brisca.game.variants.VARIANTS`: the
engine asks each variant the rules switch on, and never names a variant itself.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any, Final, TypeVar, cast, overload

import attr

from brisca.game.actions import PLAYS, Action, Play, parse_action, well_formed
from brisca.game.cards import Card, DeckKind, Suit, deck_cards
from brisca.game.errors import (
    BARE_ERRORS,
    IllegalActionError,
    NotationError,
    RulesError,
    StateError,
    as_brisca_error,
    checked_int,
    describe,
    read_at_most,
)
from brisca.game.events import CardPlayed, CardsDrawn, Event, HandEnded, TrickWon, TrumpRevealed
from brisca.game.playable import Playable
from brisca.game.presets import preset
from brisca.game.rng import MAX_SEED, Generator
from brisca.game.rules import (
    SUIT_ROTATION,
    HandWinRule,
    PartnerHandVisibility,
    Rules,
    TieRule,
    TrumpCardPosition,
    TrumpSelection,
    TrumpVisibility,
)
from brisca.game.state import (
    DealLayout,
    HandResult,
    Ledger,
    Observation,
    Seating,
    State,
    Termination,
    build_deal,
    build_ledger,
    build_observation,
    build_result,
    build_state,
    build_trick,
    evolve_state,
    seating_for,
)
from brisca.game.tricks import winning
from brisca.game.values import frozen
from brisca.game.variants import VARIANTS, Log, Variant, owner

__all__ = [
    "MAX_HAND_NUMBER",
    "Playable",
    "apply",
    "deal_layout",
    "is_legal",
    "legal_actions",
    "new_game",
    "observe",
    "refusal",
    "result",
    "step",
    "trump_is_public",
]

#: The greatest hand number: far more hands than any match deals (a saved match holds at
#: most 10,000 deals), and an int that every JSON reader keeps exactly.
MAX_HAND_NUMBER = 2**31 - 1


@overload
def new_game(
    rules: Rules | str | None = None,
    *,
    seed: int | None = None,
    dealer: int | None = None,
    hand_number: int = 0,
) -> State: ...
@overload
def new_game(
    rules: Rules | str | None = None,
    *,
    seed: int | None = None,
    deck: Iterable[Card | str] | None = None,
    dealer: int | None = None,
    hand_number: int = 0,
) -> State: ...
# The public functions take `object` and check what they are given themselves: compiled,
# a typed parameter would refuse a wrong value with a bare TypeError.
def new_game(
    rules: object = None,
    *,
    seed: object = None,
    deck: object = None,
    dealer: object = None,
    hand_number: object = 0,
) -> State:
    """Shuffle and deal a hand.

    Args:
        rules: the variant, as a `Rules` or a preset's name; ``Rules()`` when omitted.
        seed: an int from 0 to ``2**1024 - 1`` (:data:`brisca.game.rng.MAX_SEED`). The
            shuffle comes from :class:`brisca.game.rng.Generator`, so a seed gives the same
            deal on every platform.
        deck: instead of a seed, the order in which cards leave the pack: the
            deal (one card at a time, from the seat after the dealer), then the
            turned trump card where one is turned, then the stock in draw order.
        dealer: the dealing seat; the last seat when omitted, so seat 0 leads.
        hand_number: which hand of a match this is, from 0 to ``2**31 - 1``
            (:data:`MAX_HAND_NUMBER`); it picks the trump under
            ``trump_selection='suit_rotation'``.

    With neither `seed` nor `deck`, a fresh seed is drawn from the operating
    system and kept in ``state.seed``, so that every game can be replayed.

    Raises:
        RulesError: `rules` is neither a `Rules` nor a preset's name.
        StateError: a bad seed, deck, dealer or hand number.
    """
    checked = checked_rules(rules)
    n = checked.num_players
    if dealer is None:
        seat = n - 1
    elif type(dealer) is int and 0 <= dealer < n:
        seat = dealer
    else:
        seat = checked_int(dealer, "dealer", 0, n - 1)
    if type(hand_number) is int and 0 <= hand_number <= MAX_HAND_NUMBER:
        number = hand_number
    else:
        number = checked_int(hand_number, "hand_number", 0, MAX_HAND_NUMBER)
    table = _table(checked, seat)
    pack = table.pack
    shuffled: int | None = None
    if deck is not None:
        if seed is not None:
            raise StateError("give a seed or a deck, not both")
        order = checked_deck(deck, pack)
    else:
        shuffled = checked_seed(seed)
        order = Generator(shuffled).shuffle(pack)
        layout = table.layout
        dealt = len(pack) - len(layout.stock) - (layout.turned is not None)
        bottom = checked.trump_card_position is _BOTTOM_OF_DECK
        if layout.turned is not None and bottom:
            order = order[:dealt] + order[-1:] + order[dealt:-1]
        elif layout.turned is None and not bottom and dealt < len(order):
            # SPEC §2.1 [P]: the card that would be turned stays face down, last in the stock.
            order = order[:dealt] + order[dealt + 1 :] + order[dealt : dealt + 1]
    return _deal(table, shuffled, order, number)


_BOTTOM_OF_DECK: Final = TrumpCardPosition.BOTTOM_OF_DECK  # a module constant: see _OVER_60


# The table of each rules and dealer, found by the id of the Rules object (see `_plan`):
# `seating_for`'s own cache hashes its arguments, the rules' hash a call to Python code.
_TABLES_BY_ID: Final[dict[tuple[int, int], tuple[Rules, Seating]]] = {}


def _table(rules: Rules, dealer: int) -> Seating:
    key = (id(rules), dealer)
    found = _TABLES_BY_ID.get(key)
    if found is not None and found[0] is rules:  # the entry keeps its rules, and so its id
        return found[1]
    table = seating_for(rules, dealer, None, None, _plan(rules))
    if len(_TABLES_BY_ID) >= 1024:
        _TABLES_BY_ID.clear()
    _TABLES_BY_ID[key] = (rules, table)
    return table


def checked_rules(rules: object) -> Rules:
    """`rules` as a `Rules`: itself, the preset it names, or ``Rules()`` for ``None``.

    Every function that takes rules reads them through this, so each takes a preset name.

    Raises:
        RulesError: `rules` is neither a `Rules` nor a preset's name.
    """
    if rules is None:
        return _DEFAULT_RULES
    if isinstance(rules, str):
        return preset(rules)
    # The type itself: the engine keys its caches by the rules' equality and hash, which
    # a subclass could make claim to be another game's.
    if type(rules) is not Rules:
        raise RulesError(f"rules must be a brisca.Rules or a preset name, got {describe(rules)}")
    return rules


# One value, so that `new_game()` finds its table at once (a new Rules() each time missed
# the caches, and kept each discarded one alive in them).
_DEFAULT_RULES: Final = Rules()


def checked_seed(seed: object) -> int:
    """`seed`, or a fresh one from the operating system when it is ``None``.

    Raises:
        StateError: `seed` is not an int from 0 to :data:`brisca.game.rng.MAX_SEED`.
    """
    if seed is None:
        return int.from_bytes(os.urandom(16), "big")
    if type(seed) is int and 0 <= seed <= MAX_SEED:
        return seed
    return checked_int(seed, "seed", 0, MAX_SEED)


def checked_deck(deck: object, pack: tuple[Card, ...]) -> list[Card]:
    """`deck` read as an order of the cards of `pack`, each once.

    Raises:
        StateError: it is no such order (read one card past the pack at most), or it
            cannot be read.
        NotationError: a card cannot be read.
    """
    if isinstance(deck, (str, bytes)) or not isinstance(deck, Iterable):
        raise StateError(f"deck must be a sequence of cards, got {describe(deck)}")
    # Read one card past the pack at most: an endless iterable is refused, not followed.
    given = read_at_most(deck, len(pack) + 1, "deck")
    order = [c if type(c) is Card else Card.parse(c) for c in given]
    if len(order) != len(pack):
        many = f"more than {len(pack)}" if len(order) > len(pack) else str(len(order))
        raise StateError(f"deck has {many} cards; these rules play with {len(pack)}")
    # Sets, not `in pack`: a card is found by identity, so each miss of a tuple search
    # is two refused comparisons, and a deck of 40 made 800 of them (11 µs).
    cards = set(pack)
    if not cards.issuperset(order) or len(set(order)) != len(order):
        raise StateError(_deck_fault(order, cards))
    return order


def _deck_fault(order: list[Card], cards: set[Card]) -> str:
    """What is wrong with a deck of the right length: its first card that is not in the
    pack, or is there twice."""
    seen: set[Card] = set()
    for c in order:
        if c not in cards:
            return f"deck holds {c}, which is not in this pack"
        if c in seen:
            return f"deck holds {c} twice"
        seen.add(c)
    return "deck is no order of this pack"  # the sets say so: never reached


def _deal(table: Seating, seed: int | None, order: list[Card], hand_number: int) -> State:
    rules, layout = table.rules, table.layout
    deck = tuple(order)
    # Lists made whole, then tuples: faster than map() interpreted (33 cards: 0.7 against
    # 1.4 us), and compiled far faster.
    hands = tuple([tuple([deck[i] for i in positions]) for positions in layout.hands])
    stock = tuple([deck[i] for i in layout.stock])
    trump_card: Card | None = None
    trump: Suit | None = None
    if layout.turned is not None:
        trump_card = deck[layout.turned]
        trump = trump_card.suit
    elif rules.trump_selection is _BY_ROTATION:
        trump = SUIT_ROTATION[hand_number % 4]
    deal = build_deal(deck, seed, hand_number, hands)
    state = build_state(
        table, deal, trump, trump_card, hands, stock, (), (), table.first_leader, _NO_RECORDS, ()
    )
    return _after_cards_move(state, None, table.plan) if table.plan.after_cards_move else state


_NO_RECORDS: Final = Ledger()
_BY_ROTATION: Final = TrumpSelection.SUIT_ROTATION


def deal_layout(rules: object, dealer: object) -> DealLayout:
    """Where each position of a ``new_game(deck=...)`` order goes for `rules` (a `Rules`
    or a preset's name) and `dealer`.

    Raises:
        RulesError: `rules` is not a `Rules`.
        StateError: `dealer` is not a seat.
    """
    checked = checked_rules(rules)
    return seating_for(checked, checked_int(dealer, "dealer", 0, checked.num_players - 1)).layout


# One Play per card: legal_actions hands these out instead of building new ones (a
# plain dict's lookup: the public mapping is read-only, and a step slower).
_PLAY_OF: Final[dict[Card, Play]] = dict(PLAYS)


@attr.s(
    auto_attribs=True,
    auto_detect=True,
    frozen=True,
    slots=True,
    init=False,
    eq=False,  # one per rules, so identity will do, and it hashes fast
    weakref_slot=False,
)
class _Plan:
    """What the variants a `Rules` value switches on ask of the engine, found once per rules."""

    #: The variants that offer actions before the trump is known, and after.
    offering_before_trump: tuple[Variant, ...]
    offering: tuple[Variant, ...]
    #: Whether any variant offers actions at all.
    offers: bool
    #: The variant that limits which cards a follower may play, if any.
    playable: Callable[[State, int], tuple[tuple[Card, ...], str]] | None
    after_cards_move: tuple[Callable[[State, Log], State], ...]
    on_play: tuple[Callable[[State, int, Card, Log], None], ...]
    observe: tuple[Callable[[State, int], dict[str, Any]], ...]
    result: tuple[Callable[[State, tuple[int, ...], int | None], HandResult | None], ...]
    #: Whether the trump can be covered (cubierta): only then may a known trump be unseen.
    covered_trump: bool
    #: Whether a card tells nothing but itself and what its trick brings (the winner, the
    #: draws, the end): no variant watches plays and no trump can be covered.
    quiet_plays: bool

    def __init__(
        self,
        offering_before_trump: tuple[Variant, ...],
        offering: tuple[Variant, ...],
        offers: bool,
        playable: Callable[[State, int], tuple[tuple[Card, ...], str]] | None,
        after_cards_move: tuple[Callable[[State, Log], State], ...],
        on_play: tuple[Callable[[State, int, Card, Log], None], ...],
        observe: tuple[Callable[[State, int], dict[str, Any]], ...],
        result: tuple[Callable[[State, tuple[int, ...], int | None], HandResult | None], ...],
        covered_trump: bool,
        quiet_plays: bool,
    ) -> None:
        self.offering_before_trump = offering_before_trump  # type: ignore[misc]
        self.offering = offering  # type: ignore[misc]
        self.offers = offers  # type: ignore[misc]
        self.playable = playable  # type: ignore[misc]
        self.after_cards_move = after_cards_move  # type: ignore[misc]
        self.on_play = on_play  # type: ignore[misc]
        self.observe = observe  # type: ignore[misc]
        self.result = result  # type: ignore[misc]
        self.covered_trump = covered_trump  # type: ignore[misc]
        self.quiet_plays = quiet_plays  # type: ignore[misc]
        if type(self) is not _Plan:  # interpreted: sealed (see brisca.game.values)
            self.__class__ = _Plan


# Built once per rules, so by the class itself: see `brisca.game.values`.
frozen(_Plan, _Plan)


# The plan of each rules, found by the id of the Rules object first (hashing a Rules
# value calls Python code) and then by equality, so that equal rules read from JSON
# share one plan, and so one cached table. Each table carries its plan (`Seating.plan`).
_PLANS_BY_ID: Final[dict[int, tuple[Rules, _Plan]]] = {}
_PLANS: Final[dict[Rules, _Plan]] = {}


def _plan(rules: Rules) -> _Plan:
    found = _PLANS_BY_ID.get(id(rules))
    if found is not None and found[0] is rules:  # the entry keeps its rules, and so its id
        return found[1]
    plan = _PLANS.get(rules)
    if plan is None:
        if len(_PLANS) >= 1024:
            _PLANS.clear()
        plan = _PLANS[rules] = _new_plan(rules)
    if len(_PLANS_BY_ID) >= 1024:
        _PLANS_BY_ID.clear()
    _PLANS_BY_ID[id(rules)] = (rules, plan)
    return plan


def _new_plan(rules: Rules) -> _Plan:
    on = [v for v in VARIANTS if v.switched_on(rules)]
    limits = [v.playable for v in on if v.playable is not None]
    assert len(limits) <= 1, "one variant at most limits the cards a follower may play"
    on_play = tuple(v.on_play for v in on if v.on_play is not None)
    covered_trump = rules.trump_visibility is not TrumpVisibility.FACE_UP
    return _Plan(
        tuple(v for v in on if v.actions and v.before_trump),
        tuple(v for v in on if v.actions and not v.before_trump),
        any(v.actions for v in on),
        limits[0] if limits else None,
        tuple(v.after_cards_move for v in on if v.after_cards_move is not None),
        on_play,
        tuple(v.observe for v in on if v.observe is not None),
        tuple(v.result for v in on if v.result is not None),
        covered_trump,
        not covered_trump and not on_play,
    )


def _plan_of(table: Seating) -> _Plan:
    """The table's plan; a table built by hand, without the engine, has none yet."""
    plan: _Plan | None = table.plan
    return plan if plan is not None else _plan(table.rules)


def _after_cards_move(state: State, log: Log, plan: _Plan) -> State:
    """Let the variants act on cards that changed hands (one may end the hand)."""
    for hook in plan.after_cards_move:
        state = hook(state, log)
    return state


P = TypeVar("P", bound=Playable[Any, Any])
V = TypeVar("V")
R = TypeVar("R")


def _playable(value: object) -> Playable[Any, Any]:
    # The class's own bases first: an ABC's isinstance goes through __instancecheck__,
    # which had cost a match a tenth of each move.
    if Playable in type(value).__mro__ or isinstance(value, Playable):
        return cast("Playable[Any, Any]", value)  # a string: no subscription to evaluate
    raise StateError(f"expected a brisca.State or brisca.Match, got {type(value).__name__}")


def _theirs(value: object) -> Any:
    """An argument passed on to a `Playable`'s method, which checks it itself."""
    return value


def refusal(state: object, action: object) -> str | None:
    """Why `action` is illegal in `state`, or ``None`` when it is legal: the one rule check.

    `is_legal`, `apply` and `step` decide through it. `action` may be notation text
    (``"11C"``), judged as the action it reads as; text that reads as none is refused
    with the reason it cannot be read.

    >>> import brisca
    >>> state = brisca.new_game(brisca.preset("spanish-2p"), seed=7)
    >>> brisca.refusal(state, brisca.Play("12E"))
    '12E is not in the hand of seat 0, the seat to act'

    Raises:
        StateError: `state` is not a State.
    """
    if type(state) is not State:
        raise StateError(f"expected a brisca.State, got {type(state).__name__}")
    # An inline try rather than `as_state_error`, here and in the other entry points: it
    # costs nothing until a hand-built state makes Python raise; a context manager would.
    try:
        plan = _plan_of(state.seating)
        reason = _refusal(state, action, plan)
        if reason is not None and isinstance(action, str):  # notation: read it, then judge it
            try:
                return _refusal(state, parse_action(action), plan)
            except NotationError as error:
                return str(error)
        return reason
    except BARE_ERRORS as error:
        raise as_brisca_error("the state", error) from None


def _refusal(state: State, action: object, plan: _Plan) -> str | None:
    seat = state.to_act
    if type(action) is Play:  # narrowed so: compiled, the card is read from the play itself
        if seat is None:
            return "the hand is over"
        try:
            card = action.card
        except AttributeError:
            return _MALFORMED
        if type(card) is not Card:  # set past the converter: it may compare as anything
            return _MALFORMED
        if card not in state.hands[seat]:
            return f"{card} is not in the hand of seat {seat}, the seat to act"
        if state.trump is None:
            return _before_trump(state, seat, action, plan)
        if not state.trick:  # the leader is always free
            return None
        limit = plan.playable
        if limit is None:
            return None
        allowed, duty = limit(state, seat)
        return None if card in allowed else duty
    kind = type(action)
    variant = owner(kind)
    if variant is None:
        return f"not a brisca action: a {type(action).__name__}"
    if not well_formed(action):
        return _MALFORMED
    if seat is None:
        return "the hand is over"
    if state.trump is None and not variant.before_trump:
        return _before_trump(state, seat, action, plan)
    return variant.refusal(state, seat, cast(Action, action))


def _before_trump(state: State, seat: int, action: object, plan: _Plan) -> str:
    """While the trump is still to be chosen, the rule that chooses it rules on the rest."""
    for variant in plan.offering_before_trump:
        why = variant.refusal(state, seat, cast(Action, action))
        if why is not None:
            return why
    return "nothing is played before the trump is chosen"


_MALFORMED: Final = "a malformed action: build actions with their constructors or parse_action"


def legal_actions(state: object) -> tuple[Action, ...]:
    """Every legal action of the seat to act, in a fixed order; ``()`` once it is over.

    Works on a hand's `State` and on a whole `Match` alike.

    Raises:
        StateError: `state` is neither.
    """
    if type(state) is not State:
        return _playable(state).legal_actions()
    try:
        seat = state.to_act
        if seat is None:
            return ()
        plan: _Plan = state.seating.plan or _plan(state.seating.rules)  # hand-built: no plan
        if plan.playable is None or not state.trick:  # the leader is always free
            cards = state.hands[seat]
        else:
            cards = plan.playable(state, seat)[0]
        # A list made whole, then a tuple: as fast as map() interpreted, and compiled far faster.
        plays = tuple([_PLAY_OF[c] for c in cards])
        if not plan.offers:  # no optional actions in these rules: the common case first
            return plays
        if state.trump is None:  # only the calls that choose it, no card yet
            return _offers(plan.offering_before_trump, state, seat)
        return _offers(plan.offering, state, seat) + plays
    except BARE_ERRORS as error:
        raise as_brisca_error("the state", error) from None


def _offers(variants: tuple[Variant, ...], state: State, seat: int) -> tuple[Action, ...]:
    # A plain loop, kept out of legal_actions: a generator there would give it closure
    # cells to build on every call, the cheap ones included.
    found: tuple[Action, ...] = ()
    for variant in variants:
        offered = variant.offered(state, seat)
        if offered:
            found += offered
    return found


def is_legal(state: object, action: object) -> bool:
    """Whether `action` is legal in `state` (a hand or a match); never raises for a bad action.

    `action` may be an action or its notation (``"11C"``), as read by
    :func:`brisca.parse_action`; text that reads as no action is not legal.

    Raises:
        StateError: `state` is neither a State nor a Match.
    """
    if type(state) is not State:
        return _playable(state).is_legal(_theirs(action))
    try:
        plan = _plan_of(state.seating)
        if _refusal(state, action, plan) is None:
            return True
        if isinstance(action, str):  # notation: read it, then judge it
            try:
                return _refusal(state, parse_action(action), plan) is None
            except NotationError:
                return False
        return False
    except BARE_ERRORS as error:
        raise as_brisca_error("the state", error) from None


@overload
def apply(state: State, action: Action | str) -> State: ...
@overload
def apply(state: P, action: Action | str) -> P: ...
def apply(state: object, action: object) -> Any:
    """The state after `action` (an action, or its notation such as ``"11C"``); `state`
    itself never changes.

    Completing a trick also resolves it and draws: the winner first, then the
    others in play order, the turned trump card last. Given a `Match`, the
    action goes to its hand in progress, and a finished hand is scored and the
    next one dealt.

    Raises:
        StateError: `state` is neither a State nor a Match.
        NotationError: `action` is text that reads as no action.
        IllegalActionError: the action is not legal; the message says why.
    """
    if type(state) is not State:
        return _playable(state).apply(_theirs(action))
    try:
        # `step` without the events, written out: this is the hot path of every playout.
        plan: _Plan = state.seating.plan or _plan(state.seating.rules)  # hand-built: no plan
        reason = _refusal(state, action, plan)
        if reason is not None:
            if isinstance(action, str):  # notation, off the hot path: read it, then apply it
                return apply(state, parse_action(action))
            raise IllegalActionError(reason)
        if type(action) is Play:
            return _play(state, action, None, plan)
        return _extra(state, cast(Action, action), None, plan)
    except BARE_ERRORS as error:
        raise as_brisca_error("the state", error) from None


def applied_in_turn(
    state: State, actions: tuple[Action, ...]
) -> tuple[State, int, IllegalActionError | None]:
    """`state` after `actions`, applied in turn until one is illegal: the state reached,
    how many were applied, and why the next was refused (``None`` when all were
    applied). A replay's loop, run where `apply` runs: compiled, it calls `apply`
    directly, where a loop in Python calls it through its Python entry point."""
    done = 0
    try:
        for action in actions:
            state = apply(state, action)
            done += 1
    except IllegalActionError as error:
        return state, done, error
    return state, done, None


@overload
def step(state: State, action: Action | str) -> tuple[State, tuple[Event, ...]]: ...
@overload
def step(state: P, action: Action | str) -> tuple[P, tuple[Event, ...]]: ...
def step(state: object, action: object) -> tuple[Any, tuple[Event, ...]]:
    """Apply `action` (an action, or its notation) and report what it did:
    ``(new state, events)``.

    The events come from the transition itself, in the order things happened;
    `brisca.game.events` says what each seat may see of them. Given a `Match`, the
    step goes to its hand in progress, as with :func:`apply`, and the events are
    that hand's: the rule check and the move are made once for both.

    Raises:
        IllegalActionError: the action is not legal; the message says why.
        StateError: `state` is neither a State nor a Match.
    """
    if type(state) is not State:
        return _playable(state).step(_theirs(action))
    try:
        table = state.seating
        plan: _Plan = table.plan or _plan(table.rules)  # hand-built: no plan
        reason = _refusal(state, action, plan)
        if reason is not None:
            if isinstance(action, str):  # notation: read it, then take the step
                return step(state, parse_action(action))
            raise IllegalActionError(reason)
        if type(action) is not Play:
            log: list[Event] = []
            return _advance(state, cast(Action, action), log, plan), tuple(log)
        seat: int = state.to_act  # type: ignore[assignment]
        card = action.card
        try:  # see _PLAYED
            played = _PLAYED[card][seat]
        except (IndexError, TypeError):
            played = None
        if played is None or played.seat is not seat:
            played = _seat_event(_PLAYED, CardPlayed, seat, card)
        if plan.quiet_plays:
            # No hook to run and no trump to reveal (a legal play has its trump chosen):
            # the card is the whole story, unless it completes its trick.
            if len(state.trick) + 1 < table.seats_in_play:
                return _play(state, action, None, plan), (played,)
            log = [played]
            return _ending(_play(state, action, log, plan), log), tuple(log)
        log = [played]
        return _advance(state, action, log, plan), tuple(log)
    except BARE_ERRORS as error:
        raise as_brisca_error("the state", error) from None


def _advance(state: State, action: Action, log: list[Event], plan: _Plan) -> State:
    """The state after a legal `action`; its events go to `log`, which holds a play's own."""
    hidden = state.trump is None or (plan.covered_trump and not trump_is_public(state))
    if type(action) is Play:
        seat: int = state.to_act  # type: ignore[assignment]
        card = action.card
        if card.suit is state.trump and hidden:  # a trump played shows the covered suit
            log.append(_revealed(state))
        for hook in plan.on_play:
            hook(state, seat, card, log)
        after = _play(state, action, log, plan)
    else:
        after = _extra(state, action, log, plan)
    if (
        hidden
        and after.trump is not None
        and trump_is_public(after)
        and not any(type(e) is TrumpRevealed for e in log)
    ):
        log.append(_revealed(after))
    return _ending(after, log)


def _ending(after: State, log: list[Event]) -> State:
    """`after`, with the hand's end in `log` if it is over."""
    if after.is_over:
        outcome = result(after)
        ended = (outcome.points, outcome.winner)
        if outcome.void:  # rare, and a flag, which the reused events' keys never hold
            log.append(HandEnded(outcome.points, outcome.winner, True))
        else:
            log.append(_ENDED.get(ended) or _event(_ENDED, HandEnded, *ended))
    return after


def _extra(state: State, action: Action, log: Log, plan: _Plan) -> State:
    """The state after an action that is not a play: its variant's doing."""
    rule = owner(type(action))
    assert rule is not None  # a legal action that is not a play has its variant
    seat: int = state.to_act  # type: ignore[assignment]
    after = evolve_state(rule.apply(state, seat, action, log), trail=(state.trail, action))
    return _after_cards_move(after, log, plan) if rule.moves_cards else after


def _revealed(state: State) -> TrumpRevealed:
    """The trump as it became known: with the turned card that shows it, if one does."""
    suit = state.trump
    assert suit is not None
    card = state.trump_card
    if card is None and state.ledger.trump_card_drawn is not None:
        card = state.ledger.trump_card_drawn[1]
    if card is not None and card.suit is not suit:
        card = None  # a named or called trump: no turned card shows it
    return TrumpRevealed(suit, card)


# The events of plays, draws, tricks and hand ends, made once each: they are values, few
# (seats by cards, or by points and trick), and a step makes several, so `step` reuses them.
# Kept by card, then in a list by seat, or in a list by trick, then by points and winner
# at one index: no key tuple to build and hash, nor an int to box (compiled). Only exact
# ints in range are kept, and an event found is taken only if it holds the very seat
# (and points) asked for: a game's are small ints, one object each, so a hand-built
# state's odd seat (negative, past every table, 1.0, True), which may index or hash as
# another, never takes a game's event, and its own are never kept.
_Seated = TypeVar("_Seated", CardPlayed, CardsDrawn)
_MOST_SEATS: Final = 6
_MOST_POINTS: Final = 66  # a trick's points: at most six cards of 11
_PLAYED: Final[dict[Card, list[CardPlayed | None]]] = {
    c: [None] * _MOST_SEATS for c in deck_cards(DeckKind.SPANISH48)
}
_DRAWN: Final[dict[Card, list[CardsDrawn | None]]] = {
    c: [None] * _MOST_SEATS for c in deck_cards(DeckKind.SPANISH48)
}
_MOST_TRICKS: Final = 48
_WON: Final[list[list[TrickWon | None]]] = [
    [None] * ((_MOST_POINTS + 1) * _MOST_SEATS) for _ in range(_MOST_TRICKS)
]
_ENDED: Final[dict[tuple[Any, ...], Event]] = {}


def _event(made: dict[tuple[Any, ...], Event], kind: Callable[..., Event], *fields: Any) -> Event:
    event = kind(*fields)
    # Kept only when made of exact ints and cards: 1.0 and True equal 1 as keys, and a
    # hand-built state's odd values must not come back in another game's events.
    if all(type(f) in _KEY_TYPES or _int_tuple(f) for f in fields):
        if len(made) >= 65536:  # a bound for hand-built states' odd seats; real play needs few
            made.clear()
        made[fields] = event
    return event


_KEY_TYPES: Final = frozenset({int, Card, type(None)})


def _seat_event(
    made: dict[Card, list[_Seated | None]],
    kind: Callable[[Any, Card], _Seated],
    seat: Any,
    card: Card,
) -> _Seated:
    """`kind(seat, card)`, kept by card and seat when the seat is one a table has: a
    hand-built state's odd seat must not come back in another game's events, nor grow
    the cache."""
    event = kind(seat, card)
    if type(seat) is int and 0 <= seat < _MOST_SEATS:
        made[card][seat] = event
    return event


def _trick_won(winner: Any, total: Any, number: int) -> TrickWon:
    """`TrickWon(winner, total, number)`, kept by trick, points and winner when those
    are exact ints a game gives, as `_seat_event` keeps plays."""
    event = TrickWon(winner, total, number)
    exact = type(winner) is int and type(total) is int and number < _MOST_TRICKS
    if exact and 0 <= winner < _MOST_SEATS and 0 <= total <= _MOST_POINTS:
        _WON[number][total * _MOST_SEATS + winner] = event
    return event


def _int_tuple(value: object) -> bool:
    return type(value) is tuple and all(type(v) is int for v in value)


# The method as a function: compiled, a method call by name is looked up on every call.
_INDEX: Final = tuple.index


def _play(state: State, action: Play, log: Log, plan: _Plan) -> State:
    table = state.seating
    card = action.card
    seat: int = state.to_act  # type: ignore[assignment]
    hands = list(state.hands)
    hand = hands[seat]
    i = _INDEX(hand, card)
    hands[seat] = hand[:i] + hand[i + 1 :]
    # Concatenation, not unpacking: one tuple built, where unpacking builds a list first.
    trick = state.trick + ((seat, card),)  # noqa: RUF005
    trail = (state.trail, action)
    if len(trick) < table.seats_in_play:
        return build_state(
            table,
            state.deal,
            state.trump,
            state.trump_card,
            tuple(hands),
            state.stock,
            trick,
            state.tricks,
            table.next_seat[seat],
            state.ledger,
            trail,
        )
    winner = winning(trick, state.trump, table)[0]
    points, total = table.card_points, 0
    for _, played in trick:
        total += points[played]
    tricks = state.tricks + (build_trick(trick[0][0], trick, winner, total),)  # noqa: RUF005
    if log is not None:
        number = len(state.tricks)
        try:  # see _PLAYED
            won = _WON[number][total * _MOST_SEATS + winner]  # None if not made yet
        except (IndexError, TypeError):  # no game's values
            won = None
        if won is None or won.seat is not winner or won.points is not total:
            won = _trick_won(winner, total, number)
        log.append(won)
    to_act = None if len(tricks) == table.tricks_total else winner
    stock, trump_card, ledger = state.stock, state.trump_card, state.ledger
    if stock or trump_card is not None:
        # Draw in play order from the winner; the turned card is the last one drawn.
        order = table.rotation[winner]
        if len(stock) < len(order):
            assert trump_card is not None  # the talon always splits evenly
            stock = (*stock, trump_card)
            ledger = build_ledger(
                ledger.swaps,
                ledger.signals,
                ledger.black_hand,
                (order[-1], trump_card),
                ledger.bids,
                ledger.contract,
                ledger.cantes,
            )
            trump_card = None
        if log is None:
            for k, drawer in enumerate(order):
                hands[drawer] = hands[drawer] + (stock[k],)  # `+=` on an item is generic
        else:
            turned = state.trump_card
            for k, drawer in enumerate(order):
                card = stock[k]
                hands[drawer] = hands[drawer] + (card,)
                if card is turned:  # once a hand: the turned card, drawn in view
                    log.append(CardsDrawn(drawer, card, True))
                else:
                    try:  # see _PLAYED: a hand-built table's rotation may hold any seat
                        drawn = _DRAWN[card][drawer]
                    except (IndexError, TypeError):
                        drawn = None
                    if drawn is None or drawn.seat is not drawer:
                        drawn = _seat_event(_DRAWN, CardsDrawn, drawer, card)
                    log.append(drawn)
        stock = stock[len(order) :]
    after = build_state(
        table,
        state.deal,
        state.trump,
        trump_card,
        tuple(hands),
        stock,
        (),
        tricks,
        to_act,
        ledger,
        trail,
    )
    return _after_cards_move(after, log, plan) if plan.after_cards_move else after


# Enum members as module constants: Python 3.11 looks `Enum.MEMBER` up through
# EnumType.__getattr__, about ten times the cost of a global; Final, compiled code reads
# them directly.
_OVER_60: Final = HandWinRule.OVER_60
_LAST_TRICK: Final = TieRule.LAST_TRICK
_REPLAYS: Final = (TieRule.REPLAY, TieRule.REPLAY_DOUBLE_STAKE)
_PLAYED_OUT: Final = Termination.PLAYED_OUT


@overload
def result(state: State) -> HandResult: ...
@overload
def result(state: Playable[Any, R]) -> R: ...
def result(state: object) -> Any:
    """The outcome of a finished hand, by the rules' `hand_win_rule` and `tie_rule`,
    or of a finished match.

    Raises:
        StateError: it is not over, or is neither a State nor a Match.
    """
    if type(state) is not State:
        return _playable(state).result()
    try:
        if not state.is_over:
            raise StateError("the hand is not over yet: no result")
        rules, table = state.rules, state.seating
        points = state.side_points
        last = table.side_of[state.tricks[-1].winner] if state.tricks else None
        for score in _plan_of(table).result:
            found = score(state, points, last)
            if found is not None:
                return found
        if rules.hand_win_rule is _OVER_60:
            tied = tuple(i for i, p in enumerate(points) if p >= 60)  # 60-60 when two are here
        else:
            top = max(points)
            tied = tuple(i for i, p in enumerate(points) if p == top)
        if len(tied) == 1:
            return build_result(_PLAYED_OUT, table.sides, points, tied[0], (), False, last, None)
        tie = rules.tie_rule
        winner = last if tie is _LAST_TRICK and last in tied else None
        replay = tie in _REPLAYS
        return build_result(_PLAYED_OUT, table.sides, points, winner, tied, replay, last, None)
    except BARE_ERRORS as error:
        raise as_brisca_error("the state", error) from None


@overload
def observe(state: State, seat: int) -> Observation: ...
@overload
def observe(state: Playable[V, Any], seat: int) -> V: ...
def observe(state: object, seat: object) -> Any:
    """What `seat` may know: its own hand and everything done in view.

    Hidden: the other hands, the stock's order and, under cubierta, the covered
    trump card and suit until a trump is played or the card is drawn. Given a
    `Match`, the view of its hand in progress plus the public match record.

    Raises:
        StateError: `state` is neither a State nor a Match, or `seat` is not a seat of it.
    """
    if type(state) is not State:
        return _playable(state).observe(_theirs(seat))
    try:
        table = state.seating
        rules = table.rules
        n = rules.num_players
        at = seat if type(seat) is int and 0 <= seat < n else checked_int(seat, "seat", 0, n - 1)
        public = rules.trump_visibility is _FACE_UP or trump_is_public(state)
        partner_hands: tuple[tuple[int, tuple[Card, ...]], ...] = ()
        if rules.partner_hand_visibility is _SHOW_AFTER_DEAL:
            side = table.side_of[at]
            partners = table.sides[side] if side >= 0 else ()
            partner_hands = tuple((p, state.deal.hands[p]) for p in partners if p != at)
        plan = table.plan or _plan(rules)  # a hand-built table has none
        seen: dict[str, Any] = {}
        for contribution in plan.observe:
            seen.update(contribution(state, at))
        deal = state.deal
        return build_observation(
            at,
            rules,
            state.dealer,
            deal.hand_number,
            table.sides,
            state.trump if public else None,
            state.trump_card if public else None,
            state.hands[at],
            tuple(map(len, state.hands)),
            len(state.stock),
            state.trick,
            state.tricks,
            state.to_act,
            partner_hands,
            state.ledger.trump_card_drawn,
            _NO_VOIDS * n,
            seen,
        )
    except BARE_ERRORS as error:
        raise as_brisca_error("the state", error) from None


_NO_VOIDS: Final[tuple[frozenset[Suit]]] = (frozenset(),)
_SHOW_AFTER_DEAL: Final = PartnerHandVisibility.SHOW_AFTER_DEAL


# An enum member as a module constant: Python 3.11 looks `Enum.MEMBER` up through
# EnumType.__getattr__, about ten times the cost of a global, and `step` asks twice a turn.
_FACE_UP: Final = TrumpVisibility.FACE_UP


def trump_is_public(state: object) -> bool:
    """Whether everyone knows the trump suit: always, save a still-covered cubierta card.

    Raises:
        StateError: `state` is not a State.
    """
    if type(state) is not State:
        raise StateError(f"expected a brisca.State, got {type(state).__name__}")
    try:
        if state.seating.rules.trump_visibility is _FACE_UP or state.trump_card is None:
            return True
        trump = state.trump
        return any(c.suit is trump for _, c in state.trick) or any(
            c.suit is trump for t in state.tricks for _, c in t.cards
        )
    except BARE_ERRORS as error:
        raise as_brisca_error("the state", error) from None
