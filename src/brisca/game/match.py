"""Matches: hands dealt one after another, scored, until someone wins (SPEC §1.4, §2.1, §2.6).

A :class:`Match` is as immutable as a hand's :class:`~brisca.State`: it holds
the rules, the seed, the first-dealer cut, the finished hands' records, the
hand in progress and the standings, and :func:`match_apply` returns a new
match. The match functions parallel the hand functions, so a server runs a
whole match with one loop:

.. code-block:: python

    m = new_match(rules, seed=seed)
    while not m.is_over:
        view = match_observe(m, m.to_act)       # what the seat to act may know
        action = choose(view, match_legal_actions(m))
        m = match_apply(m, action)              # scores a finished hand, deals the next
    outcome = match_result(m)

>>> from brisca import preset
>>> m = new_match(preset("spanish-2p"), seed=7)
>>> [[str(card) for seat, card in cut] for cut in m.cut]  # two 2s tie, two 6s tie
[['2O', '2C'], ['6B', '6C'], ['10B', '4E']]
>>> m.first_dealer  # seat 1 cut the 4, the low card
1
>>> while not m.is_over:
...     m = match_apply(m, match_legal_actions(m)[0])
>>> outcome = match_result(m)
>>> outcome.winners, outcome.winner, [int(s) for s in outcome.standings]
((0,), 0, [3, 2])
>>> [(h.dealer, h.result.points) for h in outcome.hands]
[(1, (72, 48)), (0, (57, 63)), (1, (96, 24)), (0, (15, 105)), (1, (81, 39))]

**Randomness.** Everything random comes from one :class:`brisca.game.rng.Generator`
stream, ``Generator(seed)``, read in this order:

1. the first dealer: under ``first_dealer='random'`` one ``below(num_players)``
   picks the seat; under a cut, each round of the cut draws one
   ``shuffle(rules.cards)`` and the cutting seats, in seat order, take its first
   cards (so the cards cut in one round are distinct). Nothing is drawn when
   ``new_match`` is given an agreed ``dealer``;
2. then, for each hand dealt (a replayed hand is dealt again, and draws again),
   one ``below(2**128)``: that hand's seed, given to :func:`brisca.new_game`.

With ``decks=``, hand ``k`` (counting every deal, replays included, from 0) is
dealt from ``decks[k]`` instead, and the seed serves only the first dealer.
Either way deal ``k`` is dealt as ``hand_number=k``, which picks the trump under
``trump_selection='suit_rotation'``.
With no seed, a fresh one is drawn from the operating system and recorded in
``match.seed``, so that every match can be replayed.

**The cut** (SPEC §1.4, §2.1). Every seat cuts; seats that tie for the deal
cut again among themselves, until one is left. ``cut_low_ace_low``: the
lowest rank deals, ranks by number, so the ace is low: 1 < 2 < ... < 7 < (8 < 9)
< 10 < 11 < 12 (S000). ``cut_high`` [P]: the highest card deals, in trick
order (1, 3, 12, 11, 10, (9, 8), 7, ... 2), Brisca's own order of card
strength; equal ranks tie. Every round is kept in ``match.cut``.

**Scoring a hand.** Each played hand is scored for its sides; each active
seat is credited with its side's score, and a seat sitting out with nothing
(SPEC §3 spanish-5p). Standings are therefore kept per seat, which works both
for fixed sides and for 5 players, whose partnerships change with the
dealer. Standings and credits are exact :class:`fractions.Fraction` values,
because ``half_each`` gives halves; in JSON each is ``[numerator, denominator]``.

- A hand **won** credits the winning side with its value times the stake. The
  value is 1 under ``single_hand`` and ``hands_won`` (one hand won), and under
  ``game_points`` 1, or with ``margin_points`` 61-90 -> 1, 91-119 -> 2,
  capote -> 3, where a capote is all 120 points (``capote_definition=
  'all_points'``) or every trick (``'all_tricks'``; then 120 points without every
  trick score 2). A winner under 61 points (an FFA winner, a ``last_trick``
  winner of a tie) scores 1 [P] (S000).
- A **contract** hand (subastada, chiamata) under ``game_points`` credits each
  seat its `ContractResult.seat_scores` times the stake: plus or minus the bid (or
  one) for the declarer's side, the chiamata table for caller, partner and
  defenders (SPEC §2.7, §2.8). Under ``hands_won`` the side that won counts a hand.
- A **black hand** counts as a hand won by the holder's side: value 1, no
  margin (SPEC §2.5). Under ``cumulative_card_points`` it is worth a whole
  hand's 120 card points to that side, and nothing to the others [P].
- A **tie** follows `tie_rule`: ``replay`` deals again with the same dealer and
  counts nothing; ``replay_double_stake`` does the same and the stake of the
  next hand doubles, so the first decided hand after ``k`` consecutive ties
  counts x2^k, after which the stake is 1 again (S000); ``half_each`` credits
  each tied side half of a hand's value (S004); ``draw``, and ``last_trick``
  when the last trick's winner is not among the tied, count nothing.
- Under ``cumulative_card_points`` (rematada, S000) every played hand adds each
  side's card points, whoever won it: a tie adds its 60-60 like any other hand,
  so the tie rule has nothing to decide there and the stake is always 1 [P].
- A **void** hand (everyone passed in an auction) counts for nobody; the next
  dealer deals, and the stake and tie count stay as they were [P].

**The end.** ``single_hand`` ends after the first hand that is not replayed
(or void); it is drawn when that hand has no winner. The other modes end after
a hand when the top standing has reached `match_target` and is held by seats
of one side of that hand only: they are the winners. Equal top standings on
different sides (both rematada sides over 101 with equal totals, or halves
under ``half_each``) mean another hand is played (SPEC §2.6 [P]).

**Every match ends.** Hands that keep being void, tied and replayed, or
contracts that keep costing what they won, could go on for ever: a match has
room for :data:`MAX_DEALS` deals and :data:`MAX_ACTIONS` actions, and a deal
takes at most :data:`MAX_DEAL_ACTIONS`. When the next deal would not fit, the
match ends there instead, drawn (no winners, whatever the standings). No
`Rules` that validates asks for that many hands (``match_target`` is capped),
so only such an endless run meets the limit, and every match can be saved and
read back (:func:`brisca.loads_match` reads as much as a match holds).

**Dealers.** ``dealer_rotation='next'`` passes the deal to the next seat in play
order after every hand; ``'winner_deals'`` gives it to the winning side's
first seat after the current dealer in play order (in 2 players, the winner)
[P], and to the next seat when no side won (a draw, halves, a void hand). A
replayed hand keeps its dealer [P] (SPEC §2.1), so with 5 players its dealer
sits out again: a replay is the same hand dealt again. Between hands that are
not replays the seat sitting out always changes, under either rotation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

import attrs

from brisca.game.actions import Action
from brisca.game.cards import Card
from brisca.game.engine import (
    Playable,
    apply,
    checked_deck,
    checked_rules,
    checked_seed,
    is_legal,
    legal_actions,
    new_game,
    observe,
    result,
    step,
)
from brisca.game.errors import (
    BARE_ERRORS,
    IllegalActionError,
    RulesError,
    StateError,
    as_brisca_error,
    as_state_error,
    checked_int,
    describe,
    read_at_most,
)
from brisca.game.events import Event
from brisca.game.rng import Generator
from brisca.game.rules import (
    CapoteDefinition,
    DealerRotation,
    FirstDealer,
    MatchMode,
    Rules,
    TieRule,
)
from brisca.game.state import (
    MAX_DEAL_ACTIONS,
    ContractResult,
    HandResult,
    Observation,
    Seat,
    State,
    rules_label,
    seed_label,
)
from brisca.game.values import refuse_overgrown

__all__ = [
    "MAX_ACTIONS",
    "MAX_DEALS",
    "MAX_DEAL_ACTIONS",
    "VIEW_HANDS",
    "HandRecord",
    "Match",
    "MatchObservation",
    "MatchResult",
    "hand_value",
    "match_apply",
    "match_is_legal",
    "match_legal_actions",
    "match_observe",
    "match_result",
    "match_step",
    "match_with_hand",
    "new_match",
]

#: One round of the cut: the cutting seats, in seat order, with the cards they cut.
CutRound = tuple[tuple[Seat, Card], ...]

#: Hand seeds are drawn below this bound.
SEED_SPACE = 2**128
#: Card points in a hand: what a black hand is worth under ``cumulative_card_points`` [P].
HAND_POINTS = 120

#: The most deals a match has room for, replays and void hands included.
MAX_DEALS = 10_000
#: The most actions a match has room for, every deal's together.
MAX_ACTIONS = 100_000
#: The most finished hands a match view (`MatchObservation.hands`) lists: the latest.
VIEW_HANDS = 10

_ZERO = Fraction(0)

#: The finished deals of a match, newest first, as nested nodes
#: ``(earlier deals, record, actions, actions of all these deals)``, or ``()`` before the
#: first deal ends: ending a hand adds one node instead of copying every record.
Finished = tuple[Any, ...]


def _deals(finished: Finished) -> tuple[tuple[HandRecord, tuple[Action, ...]], ...]:
    """Each finished deal's record and actions, oldest first.

    Raises:
        StateError: `finished` is not such a chain (a hand-edited match), or is longer
            than any match makes: a list that holds itself would loop for ever.
    """
    found: list[tuple[HandRecord, tuple[Action, ...]]] = []
    try:
        while finished:
            if len(found) >= MAX_DEALS:
                raise StateError(f"the match is inconsistent (more than {MAX_DEALS} deals)")
            finished, record, actions, _ = finished
            found.append((record, actions))
    except BARE_ERRORS as error:
        raise as_brisca_error("the match", error) from None
    return tuple(reversed(found))


def _chained(deals: Iterable[tuple[HandRecord, tuple[Action, ...]]]) -> Finished:
    """The nodes of `deals` (oldest first), as :func:`_deals` reads them."""
    finished: Finished = ()
    for record, actions in deals:
        finished = (finished, record, actions, _taken(finished) + len(actions))
    return finished


def _taken(finished: Finished) -> int:
    """How many actions the finished deals took."""
    return finished[3] if finished else 0


def _count(finished: Finished) -> int:
    """How many deals are finished: the newest record's number is one less."""
    return finished[1].number + 1 if finished else 0


def _deals_repr(finished: Finished) -> str:
    return repr(_deals(finished))


#: The most items a match value built by hand may hold, as hashing reaches them (see
#: `brisca.game.values.refuse_overgrown`, whose budget for a hand's values is a tenth of
#: it): a match at its caps, `MAX_DEALS` deals and `MAX_ACTIONS` actions, holds less.
MOST_MATCH_ITEMS = 1_000_000


def _refuse_overgrown(value: Any) -> None:
    """Refuse a match value (a `Match`, its view or result, or a `HandRecord`) built by
    hand, evolved or unpickled whose fields nest too deep or hold too many items, as
    every value of a hand does: a hash recurses through what the value holds. A match's
    finished deals, a chain of nodes by design, count as the flat deals its equality
    and hash read.

    Raises:
        StateError: naming the field, never the value.
    """
    kind = type(value)
    with as_state_error("the match value"):
        values = tuple(
            _deals(value._finished) if f.name == "_finished" else getattr(value, f.name)
            for f in attrs.fields(kind)
            if f.init
        )
    refuse_overgrown(kind, values, MOST_MATCH_ITEMS)


def _fields(value: Any) -> dict[str, Any]:
    """What a match value pickles: its fields by name."""
    return {f.name: getattr(value, f.name) for f in attrs.fields(type(value))}


def _restore(value: Any, fields: dict[str, Any]) -> None:
    """Unpickle a match value: its fields, then the check a hand-built one meets."""
    for name, field in fields.items():
        object.__setattr__(value, name, field)
    _refuse_overgrown(value)


@attrs.frozen
class _SeedStream:
    """The match seed stream just after deal `number`'s seed was drawn (see the module
    documentation); `generator` is never advanced, only copied."""

    seed: int
    agreed: bool
    rules: Rules
    number: int
    generator: Generator


@attrs.frozen
class HandRecord:
    """One finished hand of a match, as everybody at the table saw it end."""

    #: Which deal of the match this was, from 0; replays are deals too.
    number: int
    #: The seat that dealt it.
    dealer: Seat
    #: What a won hand counted for: 2^k after k consecutive replayed ties, else 1.
    stake: int
    #: The hand's result, as :func:`brisca.result` gave it.
    result: HandResult
    #: Tricks won per side, in ``result.sides`` order.
    tricks_won: tuple[int, ...]
    #: What each seat was credited with, by seat; a seat sitting out gets 0.
    credits: tuple[Fraction, ...]
    #: Whether the hand was a tie dealt again, so that it counted for nothing.
    replayed: bool

    __attrs_post_init__ = _refuse_overgrown
    __getstate__ = _fields
    __setstate__ = _restore


_RECORD_FIELDS = tuple(f.name for f in attrs.fields(HandRecord))


def _record(*fields: Any) -> HandRecord:
    """A `HandRecord` of the engine's own parts, unchecked, as `_with_state` builds a
    match: the check a hand-built one meets cost a twelfth of a compiled hand."""
    record = object.__new__(HandRecord)
    for name, value in zip(_RECORD_FIELDS, fields, strict=True):
        object.__setattr__(record, name, value)
    return record


class _MatchSlots:
    """The slots of :class:`Match`, with a plain constructor that yields a `Match` (as
    `brisca.game.state` builds its states): every move makes a new match around the
    hand's new state, and ``attrs.evolve`` through the frozen keyword ``__init__`` had
    cost twice the move itself."""

    __slots__ = (
        "__weakref__",
        "_finished",
        "_stream",
        "cut",
        "decks",
        "first_dealer",
        "first_dealer_agreed",
        "rules",
        "seed",
        "stake",
        "standings",
        "state",
        "ties",
        "winners",
    )

    def __init__(self, match: Match, state: State | None) -> None:
        """`match` with `state` as its hand in progress, every other field the same."""
        self.rules = match.rules
        self.seed = match.seed
        self.decks = match.decks
        self.first_dealer = match.first_dealer
        self.first_dealer_agreed = match.first_dealer_agreed
        self.cut = match.cut
        self._finished = match._finished
        self.state = state
        self.stake = match.stake
        self.ties = match.ties
        self.standings = match.standings
        self.winners = match.winners
        self._stream = match._stream
        self.__class__ = Match


@attrs.frozen(kw_only=True)
class Match(_MatchSlots, Playable["MatchObservation", "MatchResult"]):
    """A whole match at one moment, the hand in progress included.

    Never build one directly: use :func:`new_match`, :func:`match_apply` or
    :func:`loads_match`. It holds hidden cards (in `state`) and the seed that
    decides every future deal: send a seat :func:`match_observe` instead.

    The engine's `brisca.legal_actions`, `brisca.is_legal`, `brisca.apply`,
    `brisca.observe` and `brisca.result` take a match too, through its methods
    of the same names.
    """

    rules: Rules
    #: The match seed: the first dealer and, without `decks`, every hand's shuffle.
    seed: int
    #: The explicit deck orders, one per deal, or ``None`` when hands come from `seed`.
    decks: tuple[tuple[Card, ...], ...] | None
    #: The seat that dealt the first hand.
    first_dealer: Seat
    #: Whether the first dealer was agreed (``new_match(dealer=...)``) rather than drawn.
    first_dealer_agreed: bool
    #: The cut for the first deal, round by round; empty when no cut was made.
    cut: tuple[CutRound, ...]
    # The finished deals (see `Finished`); read `hands` and `actions`. They compare, hash
    # and pickle flat, since a long match nests them past Python's recursion limit.
    _finished: Finished = attrs.field(eq=_deals, repr=_deals_repr)
    #: The hand in progress, or ``None`` once the match is over.
    state: State | None
    #: What the hand in progress counts for: 2^ties under ``replay_double_stake``, else 1.
    stake: int
    #: How many ties in a row were replayed just before the hand in progress.
    ties: int
    #: Each seat's standing: hands won, game points or card points, by `match_mode`.
    standings: tuple[Fraction, ...]
    #: The winning seats once the match is over; empty while it lasts or when drawn.
    winners: tuple[Seat, ...]
    # Where the seed stream stands after the hand in progress was dealt, so that the next
    # deal draws one seed instead of re-reading the stream from its start. A cache, so
    # it takes no part in equality; ``None`` (or a stale one) means "read from the start".
    _stream: _SeedStream | None = attrs.field(default=None, eq=False, repr=False)

    # Built by hand or evolved; the engine builds through `_MatchSlots`, unchecked.
    __attrs_post_init__ = _refuse_overgrown

    @property
    def hands(self) -> tuple[HandRecord, ...]:
        """The finished hands, oldest first."""
        return tuple(record for record, _ in _deals(self._finished))

    # The readers below turn what a hand-edited field makes Python raise into a
    # StateError; an inline `try` costs nothing until it catches.

    @property
    def actions(self) -> tuple[tuple[Action, ...], ...]:
        """The actions taken, one tuple per deal; the last is the hand in progress, if any."""
        done = tuple(actions for _, actions in _deals(self._finished))
        try:
            return done if self.state is None else (*done, self.state.history)
        except BARE_ERRORS as error:
            raise as_brisca_error("the match", error) from None

    @property
    def action_count(self) -> int:
        """How many actions the match has taken, every deal's together."""
        try:
            current = 0 if self.state is None else len(self.state.history)
            return _taken(self._finished) + current
        except BARE_ERRORS as error:
            raise as_brisca_error("the match", error) from None

    @property
    def is_over(self) -> bool:
        """Whether the match has ended."""
        return self.state is None

    @property
    def to_act(self) -> Seat | None:
        """The seat to act in the hand in progress, or ``None`` once the match is over."""
        try:
            return None if self.state is None else self.state.to_act
        except BARE_ERRORS as error:
            raise as_brisca_error("the match", error) from None

    @property
    def dealer(self) -> Seat | None:
        """The dealer of the hand in progress, or ``None`` once the match is over."""
        try:
            return None if self.state is None else self.state.dealer
        except BARE_ERRORS as error:
            raise as_brisca_error("the match", error) from None

    @property
    def hand_number(self) -> int:
        """The number of the hand in progress (or of the next one, once over), from 0."""
        try:
            return _count(self._finished)
        except BARE_ERRORS as error:
            raise as_brisca_error("the match", error) from None

    def __repr__(self) -> str:
        # One line, as for a State: the hands and the record are in `str` and the fields.
        with as_state_error("the match"):
            if self.state is not None:
                moment = f"hand {self.hand_number}, seat {self.to_act} to act"
            elif self.winners:
                moment = f"over, won by {_seats(self.winners)}"
            else:
                moment = "over, drawn"
            standings = " ".join(_number(s) for s in self.standings)
            name, seed = rules_label(self.rules), seed_label(self.seed)
            return f"<Match {name}, {seed}: {moment}; standings {standings}>"

    def __str__(self) -> str:
        """The standings and the target, then the hand in progress as ``str(state)`` draws it."""
        with as_state_error("the match"):
            return self._table()

    def _table(self) -> str:
        """`str(match)`, unguarded."""
        rules = self.rules
        target = (
            "one hand"
            if rules.match_mode is MatchMode.SINGLE_HAND
            else f"{rules.match_target} ({rules.match_mode.value})"
        )
        standings = ", ".join(
            f"seat {seat} {_number(value)}" for seat, value in enumerate(self.standings)
        )
        line = f"match to {target} · hand {self.hand_number} · standings: {standings}"
        if self.state is None:
            outcome = f"won by {_seats(self.winners)}" if self.winners else "drawn"
            return f"{line}\nthe match is over: {outcome}"
        return f"{line}\n{self.state}"

    def __getstate__(self) -> dict[str, Any]:
        """The fields, the finished deals flat (nested, they would overflow pickle's stack)."""
        state = {a.name: getattr(self, a.name) for a in attrs.fields(Match)}
        state["_finished"] = _deals(self._finished)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)
        with as_state_error("the match"):  # a hand-edited deal's actions may have no length
            object.__setattr__(self, "_finished", _chained(state["_finished"]))
        _refuse_overgrown(self)

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions of the seat to act: :func:`match_legal_actions`."""
        return match_legal_actions(self)

    def is_legal(self, action: Action | str) -> bool:
        """Whether `action` is legal now: :func:`match_is_legal`."""
        return match_is_legal(self, action)

    def apply(self, action: Action | str) -> Match:
        """The match after `action`: :func:`match_apply`."""
        return match_apply(self, action)

    def observe(self, seat: int) -> MatchObservation:
        """What `seat` may know: :func:`match_observe`."""
        return match_observe(self, seat)

    def step(self, action: Action | str) -> tuple[Match, tuple[Event, ...]]:
        """The match after `action`, with the events of its hand: :func:`match_step`."""
        return match_step(self, action)

    def result(self) -> MatchResult:
        """How the finished match came out: :func:`match_result`."""
        return match_result(self)


class _MatchObservationSlots:
    """The slots of :class:`MatchObservation`, with a plain constructor (see `_MatchSlots`):
    the frozen keyword ``__init__`` had cost a match's view twice the hand's own."""

    __slots__ = (
        "__weakref__",
        "current",
        "cut",
        "earlier_hands",
        "first_dealer",
        "hands",
        "rules",
        "seat",
        "stake",
        "standings",
        "ties",
        "winners",
    )

    def __init__(
        self,
        seat: Seat,
        rules: Rules,
        current: Observation | None,
        first_dealer: Seat,
        cut: tuple[CutRound, ...],
        hands: tuple[HandRecord, ...],
        earlier_hands: int,
        standings: tuple[Fraction, ...],
        stake: int,
        ties: int,
        winners: tuple[Seat, ...],
    ) -> None:
        self.seat = seat
        self.rules = rules
        self.current = current
        self.first_dealer = first_dealer
        self.cut = cut
        self.hands = hands
        self.earlier_hands = earlier_hands
        self.standings = standings
        self.stake = stake
        self.ties = ties
        self.winners = winners
        self.__class__ = MatchObservation


@attrs.frozen(kw_only=True)
class MatchObservation(_MatchObservationSlots):
    """What one seat may know of a match: its view of the hand in progress, and the
    public record. Equal exactly when that knowledge is equal."""

    #: The observing seat.
    seat: Seat
    rules: Rules
    #: The seat's view of the hand in progress (:func:`brisca.observe`), or ``None`` when over.
    current: Observation | None
    first_dealer: Seat
    cut: tuple[CutRound, ...]
    #: The latest finished hands, oldest first: at most `VIEW_HANDS` of them, so that a
    #: view stays small however long the match; the standings sum up every hand.
    hands: tuple[HandRecord, ...]
    #: How many finished hands came before those in `hands`.
    earlier_hands: int
    standings: tuple[Fraction, ...]
    stake: int
    ties: int
    #: The winning seats once the match is over.
    winners: tuple[Seat, ...]

    __attrs_post_init__ = _refuse_overgrown
    __getstate__ = _fields
    __setstate__ = _restore

    @property
    def is_over(self) -> bool:
        """Whether the match has ended."""
        return self.current is None

    @property
    def dealer(self) -> Seat | None:
        """The dealer of the hand in progress, or ``None`` once the match is over."""
        try:
            return None if self.current is None else self.current.dealer
        except BARE_ERRORS as error:
            raise as_brisca_error("the match view", error) from None

    @property
    def to_act(self) -> Seat | None:
        """The seat to act, or ``None`` once the match is over."""
        try:
            return None if self.current is None else self.current.to_act
        except BARE_ERRORS as error:
            raise as_brisca_error("the match view", error) from None

    @property
    def hand_number(self) -> int:
        """The number of the hand in progress (or of the next one, once over), from 0."""
        try:
            return self.earlier_hands + len(self.hands)
        except BARE_ERRORS as error:
            raise as_brisca_error("the match view", error) from None


@attrs.frozen
class MatchResult:
    """How a finished match came out."""

    #: The winning seats: a whole side with fixed sides, the top seats with 5 players;
    #: empty for a drawn match (a single hand without a winner, or no room left).
    winners: tuple[Seat, ...]
    #: The winning side as an index into `sides`, when sides were fixed for the whole match;
    #: ``None`` when drawn, or when partnerships changed (5 players, as a rule).
    winner: int | None
    #: The sides, when every played hand had the same ones; else ``None``.
    sides: tuple[tuple[Seat, ...], ...] | None
    #: The final standings, by seat.
    standings: tuple[Fraction, ...]
    #: Every hand of the match, replays included.
    hands: tuple[HandRecord, ...]

    __attrs_post_init__ = _refuse_overgrown
    __getstate__ = _fields
    __setstate__ = _restore

    @property
    def is_draw(self) -> bool:
        """Whether nobody won: a single hand without a winner, or a match out of room."""
        return not self.winners

    @property
    def side_standings(self) -> tuple[Fraction, ...] | None:
        """The standing of each side, when sides were fixed; else ``None``."""
        if self.sides is None:
            return None
        try:
            return tuple(self.standings[side[0]] for side in self.sides)
        except BARE_ERRORS as error:
            raise as_brisca_error("the match result", error) from None


def _seats(seats: tuple[Seat, ...]) -> str:
    return f"seat {seats[0]}" if len(seats) == 1 else f"seats {'+'.join(map(str, seats))}"


def _number(value: Fraction) -> str:
    """A standing as people write it: ``3``, or ``5/2`` for a split credit."""
    return str(value.numerator) if value.denominator == 1 else str(value)


def new_match(
    rules: Rules | None = None,
    *,
    seed: int | None = None,
    decks: Iterable[Iterable[Card | str]] | None = None,
    dealer: int | None = None,
) -> Match:
    """Start a match: choose the first dealer and deal the first hand.

    Args:
        rules: the variant and its match options, as a `Rules` or a preset's name;
            ``Rules()`` when omitted.
        seed: an int from 0 to ``2**1024 - 1``; the first dealer and, without `decks`, every
            hand's shuffle derive from it (see the module documentation). Drawn
            from the operating system when omitted, and recorded.
        decks: explicit deck orders, one per deal (a replayed hand uses one too),
            each in :func:`brisca.new_game`'s ``deck=`` order.
        dealer: the first dealer, agreed at the table; no cut is made and
            `first_dealer` is ignored.

    Raises:
        RulesError: `rules` is neither a `Rules` nor a preset's name.
        NotationError: a card code in `decks` cannot be read.
        StateError: a bad seed, deck or dealer.
    """
    rules = checked_rules(rules)
    n = rules.num_players
    seed = checked_seed(seed)
    orders = None if decks is None else _checked_decks(decks, rules.cards)
    if dealer is not None and (type(dealer) is not int or not 0 <= dealer < n):
        raise StateError(f"dealer must be a seat from 0 to {n - 1}, got {describe(dealer)}")
    agreed = dealer is not None
    gen = Generator(seed)
    if dealer is None:
        cut, dealer = _draw_first_dealer(rules, gen)
    else:
        cut = ()
    stream = _SeedStream(seed, agreed, rules, -1, gen)
    match = Match(
        rules=rules,
        seed=seed,
        decks=orders,
        first_dealer=dealer,
        first_dealer_agreed=agreed,
        cut=cut,
        finished=(),
        state=None,
        stake=1,
        ties=0,
        standings=(_ZERO,) * n,
        winners=(),
        stream=stream,
    )
    return _deal_from(match, dealer, (), 1, 0, match.standings)


def _checked_decks(
    decks: Iterable[Iterable[Card | str]], pack: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    if isinstance(decks, (str, bytes)) or not isinstance(decks, Iterable):
        raise StateError(f"decks must be a sequence of deck orders, got {describe(decks)}")
    orders = []
    # One deck past the most deals at most, each read one card past the pack at most: an
    # endless iterable is refused, not followed.
    for k, deck in enumerate(read_at_most(decks, MAX_DEALS + 1, "decks")):
        if k == MAX_DEALS:
            raise StateError(
                f"decks lists more than {MAX_DEALS} deck orders; a match has room for "
                f"{MAX_DEALS} deals (MAX_DEALS)"
            )
        if isinstance(deck, (str, bytes)) or not isinstance(deck, Iterable):
            raise StateError(f"decks[{k}] must be a sequence of cards, got {describe(deck)}")
        try:
            orders.append(tuple(checked_deck(deck, pack)))
        except StateError as error:
            raise StateError(
                f"decks[{k}] is not an order of this pack ({error}): it must hold each of "
                f"its {len(pack)} cards once"
            ) from None
    if not orders:
        raise StateError("decks is empty: give one deck order per deal")
    return tuple(orders)


def _draw_first_dealer(rules: Rules, gen: Generator) -> tuple[tuple[CutRound, ...], Seat]:
    """The cut rounds and the first dealer, drawn from `gen` (see the module documentation)."""
    n = rules.num_players
    how = rules.first_dealer
    if how is FirstDealer.RANDOM:
        return (), gen.below(n)
    low = how is FirstDealer.CUT_LOW_ACE_LOW
    cutters = tuple(range(n))
    rounds = []
    while True:
        cut = tuple(zip(cutters, gen.shuffle(rules.cards), strict=False))
        rounds.append(cut)
        # Low: the smallest rank number; high: the greatest trick strength.
        keys = [-c.rank if low else c.strength for _, c in cut]
        best = max(keys)
        cutters = tuple(seat for (seat, _), key in zip(cut, keys, strict=True) if key == best)
        if len(cutters) == 1:
            return tuple(rounds), cutters[0]


def _hand_seed(match: Match, number: int) -> tuple[int, _SeedStream]:
    """The seed of deal `number`: the stream after the first-dealer draws, `number` seeds on.

    The stream carried by `match` makes this one draw when it stands at deal
    ``number - 1``, so a match of H deals reads the stream once, not H times.
    """
    stream = match._stream
    if not (
        stream is not None
        and stream.number == number - 1
        and stream.seed == match.seed
        and stream.agreed == match.first_dealer_agreed
        and (stream.rules is match.rules or stream.rules == match.rules)
    ):
        gen = Generator(match.seed)
        if not match.first_dealer_agreed:
            _draw_first_dealer(match.rules, gen)
        for _ in range(number):
            gen.below(SEED_SPACE)
    else:
        gen = stream.generator.copy()
    seed = gen.below(SEED_SPACE)
    return seed, _SeedStream(match.seed, match.first_dealer_agreed, match.rules, number, gen)


def _deal(match: Match, number: int, dealer: Seat) -> tuple[State, _SeedStream | None]:
    rules = match.rules
    if match.decks is None:
        seed, stream = _hand_seed(match, number)
        return new_game(rules, seed=seed, dealer=dealer, hand_number=number), stream
    if number >= len(match.decks):
        raise StateError(
            f"the match needs a deck for deal {number}, but only {len(match.decks)} "
            "deck(s) were given"
        )
    return new_game(rules, deck=match.decks[number], dealer=dealer, hand_number=number), None


if TYPE_CHECKING:  # ``attrs.evolve(match, state=state)``, as the type checker sees it

    def _with_state(match: Match, state: State | None) -> Match: ...

else:
    _with_state = _MatchSlots


def _evolved(match: Match, **changes: Any) -> Match:
    """``attrs.evolve(match, ...)`` by field name, for the engine's own moves between
    hands: unchecked, as `_with_state` builds, since the check a hand-built match meets
    reads every finished deal, which would make a match's moves cost its length squared."""
    made = _with_state(match, match.state)
    for name, value in changes.items():
        object.__setattr__(made, name, value)
    return made


def _not_a_match(match: object) -> StateError:
    return StateError(f"expected a brisca.Match, got {type(match).__name__}")


def match_legal_actions(match: Match) -> tuple[Action, ...]:
    """The legal actions of the seat to act in the hand in progress; ``()`` once over.

    Raises:
        StateError: `match` is not a Match.
    """
    if type(match) is not Match:
        raise _not_a_match(match)
    try:
        return () if match.state is None else legal_actions(match.state)
    except BARE_ERRORS as error:
        raise as_brisca_error("the match", error) from None


def match_is_legal(match: Match, action: Action | str) -> bool:
    """Whether `action` is legal in the hand in progress; never raises for a bad action.

    Raises:
        StateError: `match` is not a Match.
    """
    if type(match) is not Match:
        raise _not_a_match(match)
    try:
        return match.state is not None and is_legal(match.state, action)
    except BARE_ERRORS as error:
        raise as_brisca_error("the match", error) from None


def match_apply(match: Match, action: Action | str) -> Match:
    """The match after `action`; `match` itself never changes.

    The action goes to the hand in progress (:func:`brisca.apply`). When it ends
    the hand, the hand is scored and the next one dealt, or the match ends.

    Raises:
        StateError: `match` is not a Match, or the next hand needs a deck and
            `decks` has run out.
        IllegalActionError: the match is over, or the action is not legal.
    """
    if type(match) is not Match:
        raise _not_a_match(match)
    state = match.state
    if state is None:
        raise IllegalActionError("the match is over")
    # An inline try, as in the engine: free until a hand-edited match makes Python raise.
    try:
        state = apply(state, action)
        if not state.is_over:
            return _with_state(match, state)  # its actions are the state's own history
        return _settle(match, state)
    except BARE_ERRORS as error:
        raise as_brisca_error("the match", error) from None


def match_step(match: Match, action: Action | str) -> tuple[Match, tuple[Event, ...]]:
    """:func:`match_apply`, with the events of the step in the hand in progress
    (:func:`brisca.step`): a hand that ends is scored, and the next one dealt.

    Raises:
        StateError: `match` is not a Match, or the next hand needs a deck and
            `decks` has run out.
        IllegalActionError: the match is over, or the action is not legal.
    """
    if type(match) is not Match:
        raise _not_a_match(match)
    state = match.state
    if state is None:
        raise IllegalActionError("the match is over")
    try:
        state, events = step(state, action)
        if not state.is_over:
            return _with_state(match, state), events
        return _settle(match, state), events
    except BARE_ERRORS as error:
        raise as_brisca_error("the match", error) from None


def _settle(match: Match, state: State) -> Match:
    """Score the finished hand `state`, then deal the next one or end the match."""
    rules = match.rules
    outcome = result(state)
    sides = outcome.sides
    side_of = {seat: i for i, side in enumerate(sides) for seat in side}
    tricks_won = [0] * len(sides)
    for t in state.tricks:
        tricks_won[side_of[t.winner]] += 1
    side_credits, winner, replayed = _score(rules, outcome, tuple(tricks_won), match.stake)
    credits = tuple(
        side_credits[side_of[seat]] if seat in side_of else _ZERO
        for seat in range(rules.num_players)
    )
    contract = outcome.details
    if isinstance(contract, ContractResult) and rules.match_mode is MatchMode.GAME_POINTS:
        # Contract games score seat by seat (SPEC §2.7, §2.8): a lost contract costs points.
        credits = tuple(Fraction(v * match.stake) for v in contract.seat_scores)
    record = _record(
        match.hand_number, state.dealer, match.stake, outcome, tuple(tricks_won), credits, replayed
    )
    history = state.history
    done = match._finished
    finished = (done, record, history, _taken(done) + len(history))
    # Most credits are the shared zero: a Fraction sum is slow, so those are not summed.
    standings = tuple(
        s if c is _ZERO and type(s) is Fraction else s + c
        for s, c in zip(match.standings, credits, strict=True)
    )
    if replayed:
        ties = match.ties + 1
        if type(ties) is not int or not 0 < ties <= MAX_DEALS:  # 2**ties must stay small
            raise StateError(f"the match is inconsistent (ties is {describe(match.ties)})")
        stake = 2**ties if rules.tie_rule is TieRule.REPLAY_DOUBLE_STAKE else 1
        return _deal_from(match, state.dealer, finished, stake, ties, standings)
    if outcome.void:
        dealer = (state.dealer + 1) % rules.num_players
        return _deal_from(match, dealer, finished, match.stake, match.ties, standings)
    winners = _match_winners(rules, standings, sides, winner)
    if winners is not None:
        return _ended(match, finished, standings, winners)
    dealer = _next_dealer(rules, state.dealer, None if winner is None else sides[winner])
    return _deal_from(match, dealer, finished, 1, 0, standings)


def _ended(
    match: Match, finished: Finished, standings: tuple[Fraction, ...], winners: tuple[Seat, ...]
) -> Match:
    return _evolved(
        match,
        _finished=finished,
        state=None,
        stake=1,
        ties=0,
        standings=standings,
        winners=winners,
        _stream=None,
    )


def _deal_from(
    match: Match,
    dealer: Seat,
    finished: Finished,
    stake: int,
    ties: int,
    standings: tuple[Fraction, ...],
) -> Match:
    """The match with the next hand dealt by `dealer`; a hand over at once is settled too.

    With no room left for another deal (`MAX_DEALS` dealt, or fewer than
    `MAX_DEAL_ACTIONS` of `MAX_ACTIONS` left), the match ends drawn instead.
    """
    number = _count(finished)
    if number >= MAX_DEALS or _taken(finished) + MAX_DEAL_ACTIONS > MAX_ACTIONS:
        return _ended(match, finished, standings, ())
    state, stream = _deal(match, number, dealer)
    following = _evolved(
        match,
        _finished=finished,
        state=state,
        stake=stake,
        ties=ties,
        standings=standings,
        winners=(),
        _stream=stream,
    )
    if state.is_over:  # a hand can end before any play, e.g. on a black hand shown at the deal
        return _settle(following, state)
    return following


def hand_value(
    rules: Rules, outcome: HandResult | State, tricks_won: Sequence[int] | None = None
) -> int:
    """What winning `outcome` is worth to its winner before the stake, by `match_mode`.

    `outcome` is a hand's result with the tricks each side won, or simply the hand's
    finished `State`, from which both are read: ``hand_value(rules, final)``.

    ``single_hand`` and ``hands_won``: 1 (one hand won). ``game_points``: 1, or
    with ``margin_points`` 61-90 -> 1, 91-119 -> 2, capote -> 3 (S000), a
    winner under 61 scoring 1 [P]; a black hand scores 1, no margin (SPEC §2.5).
    ``cumulative_card_points``: the winner's card points (120 for a black hand
    [P]). 0 when nobody won.

    >>> from brisca.game.state import Termination
    >>> r = HandResult(
    ...     termination=Termination.PLAYED_OUT, sides=((0,), (1,)), points=(91, 29), winner=0
    ... )
    >>> hand_value(Rules(match_mode="game_points", margin_points=True), r, (12, 8))
    2
    >>> import brisca
    >>> final = brisca.new_game("spanish-2p", seed=7)
    >>> while not final.is_over:
    ...     final = brisca.apply(final, brisca.legal_actions(final)[0])
    >>> hand_value(Rules(match_mode="game_points", margin_points=True), final)
    1

    Args:
        rules: the rules; only the match options matter.
        outcome: the hand's result, or its finished state.
        tricks_won: with a result, the tricks won per side, in ``outcome.sides``
            order (for ``capote_definition='all_tricks'``); read from a state.

    Raises:
        RulesError: `rules` is not a Rules.
        StateError: `outcome` is neither a HandResult nor a finished State, or
            `tricks_won` is not a count per side (or is given with a state).
    """
    if type(rules) is not Rules:
        raise RulesError(f"rules must be a brisca.Rules, got {describe(rules)}")
    if type(outcome) is State:
        if tricks_won is not None:
            raise StateError("tricks_won is read from the state: give one or the other")
        final = outcome
        outcome = result(final)  # refuses a hand that is not over
        with as_state_error("the state"):
            side_of = final.seating.side_of
            won = [0] * len(outcome.sides)
            for trick in final.tricks:
                won[side_of[trick.winner]] += 1
        tricks_won = won
    if not isinstance(outcome, HandResult):
        raise StateError(f"outcome must be a brisca.HandResult, got {describe(outcome)}")
    with as_state_error("the hand result"):  # a hand-edited result's fields may clash
        count = len(outcome.sides)
        if (
            isinstance(tricks_won, (str, bytes))
            or not isinstance(tricks_won, Sequence)
            or len(tricks_won) != count
            or not all(type(t) is int and t >= 0 for t in tricks_won)
        ):
            raise StateError(
                f"tricks_won must hold a count of tricks per side ({count}), "
                f"got {describe(tricks_won)}"
            )
        winner = _hand_winner(outcome)
        if winner is not None and (type(winner) is not int or not 0 <= winner < count):
            raise StateError(
                f"the hand result's winner must be None or a side from 0 to {count - 1}, "
                f"got {describe(winner)}"
            )
        value = _value(rules, outcome, winner, tricks_won)
        if type(value) is not int:  # a hand-edited card point, read as it is
            raise StateError(
                f"the hand result's points must be ints, got {describe(outcome.points)}"
            )
        return value


def _value(rules: Rules, outcome: HandResult, winner: int | None, tricks_won: Sequence[int]) -> int:
    """:func:`hand_value` of a result whose `winner` side (from `_hand_winner`) is known."""
    if winner is None:
        return 0
    mode = rules.match_mode
    if mode is MatchMode.CUMULATIVE_CARD_POINTS:
        return HAND_POINTS if outcome.black_hand is not None else outcome.points[winner]
    if mode is not MatchMode.GAME_POINTS or not rules.margin_points:
        return 1
    if outcome.black_hand is not None:
        return 1
    points = outcome.points[winner]
    if rules.capote_definition is CapoteDefinition.ALL_TRICKS:
        capote = tricks_won[winner] > 0 and tricks_won[winner] == sum(tricks_won)
    else:
        capote = points == HAND_POINTS
    if capote:
        return 3
    return 2 if points >= 91 else 1


def _hand_winner(outcome: HandResult) -> int | None:
    """The winning side: a black hand's side, else the result's winner."""
    if outcome.void:
        return None
    if outcome.black_hand is not None:
        for index, side in enumerate(outcome.sides):
            if outcome.black_hand in side:
                return index
    return outcome.winner


def _score(
    rules: Rules, outcome: HandResult, tricks_won: tuple[int, ...], stake: int
) -> tuple[tuple[Fraction, ...], int | None, bool]:
    """Credits per side, the winning side (or ``None``) and whether the hand is replayed."""
    count = len(outcome.sides)
    winner = _hand_winner(outcome)
    if outcome.void:
        return (_ZERO,) * count, None, False
    if rules.match_mode is MatchMode.CUMULATIVE_CARD_POINTS:
        if winner is not None and outcome.black_hand is not None:
            credits = [_ZERO] * count
            credits[winner] = Fraction(HAND_POINTS)
            return tuple(credits), winner, False
        return tuple(Fraction(p) for p in outcome.points), winner, False
    if winner is not None:
        credits = [_ZERO] * count
        credits[winner] = Fraction(_value(rules, outcome, winner, tricks_won) * stake)
        return tuple(credits), winner, False
    if outcome.replay:
        return (_ZERO,) * count, None, True
    if rules.tie_rule is TieRule.HALF_EACH:
        half = Fraction(stake, 2)
        return tuple(half if i in outcome.tied else _ZERO for i in range(count)), None, False
    return (_ZERO,) * count, None, False


def _match_winners(
    rules: Rules,
    standings: tuple[Fraction, ...],
    sides: tuple[tuple[Seat, ...], ...],
    winner: int | None,
) -> tuple[Seat, ...] | None:
    """The winners if the match ends after a counted hand, else ``None``."""
    if rules.match_mode is MatchMode.SINGLE_HAND:
        return () if winner is None else sides[winner]
    top = max(standings)
    if top < rules.match_target:
        return None
    leaders = tuple(seat for seat, s in enumerate(standings) if s == top)
    if any(set(leaders) <= set(side) for side in sides):
        return leaders
    return None  # equal top standings on different sides: another hand


def _next_dealer(rules: Rules, dealer: Seat, winners: tuple[Seat, ...] | None) -> Seat:
    n = rules.num_players
    if rules.dealer_rotation is DealerRotation.WINNER_DEALS and winners:
        for k in range(1, n + 1):
            if (dealer + k) % n in winners:
                return (dealer + k) % n
    return (dealer + 1) % n


def match_observe(match: Match, seat: int) -> MatchObservation:
    """What `seat` may know: its view of the hand in progress and the public record.

    The public record is the cut, the latest `VIEW_HANDS` finished hands and how
    many came before, the standings and the stake; never the seed, the decks or
    another seat's cards. The cost does not grow with the number of hands.

    Raises:
        StateError: `match` is not a Match, or `seat` is not a seat of it.
    """
    if type(match) is not Match:
        raise _not_a_match(match)
    try:
        n = match.rules.num_players
        checked_int(seat, "seat", 0, n - 1)
        latest: list[HandRecord] = []
        earlier = match._finished
        while earlier and len(latest) < VIEW_HANDS:
            earlier, record, _, _ = earlier
            latest.append(record)
        view = _MatchObservationSlots(  # in MatchObservation's field order
            seat,
            match.rules,
            None if match.state is None else observe(match.state, seat),
            match.first_dealer,
            match.cut,
            tuple(reversed(latest)),
            _count(earlier),
            match.standings,
            match.stake,
            match.ties,
            match.winners,
        )
        return cast(MatchObservation, view)
    except BARE_ERRORS as error:
        raise as_brisca_error("the match", error) from None


def match_result(match: Match) -> MatchResult:
    """The outcome of a finished match.

    Raises:
        StateError: `match` is not a Match, or it is not over.
    """
    if type(match) is not Match:
        raise _not_a_match(match)
    if match.state is not None:
        raise StateError("the match is not over yet: no result")
    with as_state_error("the match"):
        # Sides are fixed when every played hand had the same ones (not so with 5 players).
        hands = match.hands
        played = {h.result.sides for h in hands if not h.result.void}
        sides = played.pop() if len(played) == 1 else None
        winner = None
        if sides is not None and match.winners:
            winners = set(match.winners)
            winner = next((i for i, side in enumerate(sides) if winners <= set(side)), None)
        return MatchResult(match.winners, winner, sides, match.standings, hands)


def match_with_hand(match: Match, state: State) -> Match:
    """The match with its hand in progress taken on to `state`, a later state of that
    hand: the same as :func:`match_apply` of each action between them, with the match
    rebuilt once instead of once per action (a reader replays a whole hand this way).

    A finished `state` is scored, and the next hand dealt, as :func:`match_apply` does.

    Raises:
        StateError: `match` is not a Match in progress, or `state` is not a state of
            its hand in progress as far as it went.
    """
    if type(match) is not Match:
        raise _not_a_match(match)
    now = match.state
    if now is None:
        raise StateError("the match is over: it has no hand in progress")
    if type(state) is not State:
        raise StateError(f"expected a brisca.State, got {describe(state)}")
    try:
        done = now.history
        history = state.history
        if (
            state.deal != now.deal
            or state.dealer != now.dealer
            or state.rules != match.rules
            or history[: len(done)] != done
        ):
            raise StateError("the state is not a later state of the match's hand in progress")
        if len(history) == len(done):
            return match
        if state.is_over:
            return _settle(match, state)
        return _with_state(match, state)
    except BARE_ERRORS as error:
        raise as_brisca_error("the match", error) from None
