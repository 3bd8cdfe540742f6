"""Search: an exact solver for positions where every card is known, and the
determinized search that :class:`brisca.agents.bots.SearchBot` plays by.

**The solver.** :func:`solve` runs alpha-beta over the engine's own
:func:`~brisca.legal_actions` and :func:`~brisca.apply`, so it plays every rule
the engine has (partnerships, arrastre duties, swaps, cantes, signals, black
hands, the seat sitting out) and can never make an illegal move. It searches a
real :class:`~brisca.State`, hidden cards included, as a perfect-information
game, with a transposition table and move ordering. Once the talon is gone and
only card plays are left (see :func:`compact_endgames`), it searches a compact
form of the positions instead, several times faster, visiting the same positions
and finding the same values.

Its value is what one side (by default the side of the seat to act) scores by
the end of the hand: the card points its tricks take, plus its cantes where the
rules sing them; a black hand gives its holder's side every point still in play.
The side maximises it and every other seat minimises it, which for two sides is
exact minimax and for three or more is the usual "paranoid" reading, where the
others play together against the side.

>>> import brisca
>>> from brisca.agents.search import solve
>>> state = brisca.new_game("spanish-2p", seed=7)
>>> while state.stock or state.trump_card is not None:  # play until every card is known
...     state = brisca.apply(state, brisca.legal_actions(state)[0])
>>> solution = solve(state)  # for the side of the seat to act
>>> solution.exact, [str(a) for a in solution.best_actions]
(True, ['6O', '12C'])
>>> while not state.is_over:  # each seat plays a best action for its own side
...     state = brisca.apply(state, solve(state).best_actions[0])
>>> brisca.result(state).points[solution.side] == solution.value
True

With ``depth=k`` it looks only `k` tricks ahead and scores the points taken by
then (``exact`` is then ``False`` unless the hand ends within the horizon).

**Budgets.** A search visits at most ``budget`` positions (:data:`BUDGET`, 200,000,
by default; up to :data:`MAX_BUDGET`), and its transposition table keeps at most
:data:`TABLE_SIZE` of them, so no call runs or grows without bound. Past its budget,
:func:`solve` refuses with a :class:`~brisca.StateError`, or with ``partial=True``
answers from the deepest search that fitted, with ``exact=False``:

>>> early = brisca.new_game("spanish-2p", seed=7)
>>> solve(early, budget=10_000)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
brisca.StateError: the search needs more than 10,000 positions: ...
>>> guess = solve(early, budget=10_000, partial=True)
>>> guess.exact, guess.nodes <= 10_000
(False, True)

**Determinized search.** :func:`evaluate` turns one seat's
:class:`~brisca.Observation` into an estimate of each legal action: it samples
worlds consistent with the observation (:func:`brisca.agents.sampling.sample_state`),
searches each world with the solver, and averages. This is Perfect Information
Monte Carlo, as in the strongest Skat and Bridge programs.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

import attrs

from brisca.agents.sampling import sample_state
from brisca.game.actions import Action, Play
from brisca.game.cards import Card, DeckKind, deck_cards
from brisca.game.engine import apply, legal_actions
from brisca.game.errors import (
    BARE_ERRORS,
    StateError,
    as_brisca_error,
    checked_int,
    checked_type,
    describe,
)
from brisca.game.rng import Generator
from brisca.game.rules import CannotOvertrump, Overtrump, Rules, SignalTiming
from brisca.game.state import Observation, State
from brisca.game.variants import VARIANTS, arrastre, signals
from brisca.game.variants.cantes import MAX_CANTE_POINTS

__all__ = [
    "BUDGET",
    "INFINITE_DEPTH",
    "MAX_BUDGET",
    "MAX_SAMPLES",
    "TABLE_SIZE",
    "Solution",
    "cards_to_play",
    "compact_endgames",
    "evaluate",
    "score",
    "solve",
]

#: The `depth` of an exact search: to the end of the hand.
INFINITE_DEPTH = 1 << 20
#: How many positions :func:`solve` and :func:`evaluate` may visit by default: a few
#: seconds of search. Every exact endgame of ten cards or fewer fits it many times over.
BUDGET = 200_000
#: The largest `budget` they accept.
MAX_BUDGET = 10**8
#: The most positions a search's transposition table keeps (about 50 MiB); past it, a
#: search goes on without storing more, so its memory is bounded whatever its budget.
TABLE_SIZE = 1 << 17
#: The most worlds :func:`evaluate` samples.
MAX_SAMPLES = 1000

# One bit per card, for the transposition table's keys.
_INDEX = {card: i for i, card in enumerate(deck_cards(DeckKind.SPANISH48))}
_BIT = {card: 1 << i for card, i in _INDEX.items()}.__getitem__
_EXACT, _LOWER, _UPPER = 0, 1, 2  # what a table entry's value is: exact, or a bound
_MAX = 1 << 16  # beyond any score


@attrs.frozen
class Solution:
    """What :func:`solve` found: the value of the position and the actions that reach it."""

    #: The side's score at the end of the hand under best play (or at the horizon).
    value: int
    #: Every legal action that reaches `value`: the best of the seat to act, for its
    #: own side when that is `side` and against it otherwise; in `legal_actions` order.
    best_actions: tuple[Action, ...]
    #: Each legal action with its value, in the order of `legal_actions`.
    values: tuple[tuple[Action, int], ...]
    #: The index in ``state.sides`` of the side whose score `value` is.
    side: int
    #: Whether `value` is exact: the search reached the end of the hand on every line.
    exact: bool
    #: How many positions the search visited.
    nodes: int


def score(state: State, side: int) -> int:
    """What `side` (an index into ``state.sides``) has scored so far: its card points,
    plus its cantes where the rules sing them; once a black hand has ended the hand,
    its holder's side also takes every point still in play.

    Raises:
        StateError: `state` is not a State, or `side` not one of its sides.
    """
    checked_type(state, State)
    try:
        _check(state, side)
        return _score(state, side)
    except BARE_ERRORS as error:
        raise as_brisca_error("the state", error) from None


def cards_to_play(state: State) -> int:
    """How many cards are still to be played: in the hands, the stock and the turned card.

    Raises:
        StateError: `state` is not a State.
    """
    checked_type(state, State)
    try:
        return sum(map(len, state.hands)) + len(state.stock) + (state.trump_card is not None)
    except BARE_ERRORS as error:
        raise as_brisca_error("the state", error) from None


def _score(state: State, side: int) -> int:
    table = state.seating
    side_of = table.side_of
    total = sum(t.points for t in state.tricks if side_of[t.winner] == side)
    total += sum(c.points for c in state.ledger.cantes if side_of[c.seat] == side)
    holder = state.ledger.black_hand
    if holder is not None and side_of[holder] == side:
        total += _in_play(state)
    return total


def _in_play(state: State) -> int:
    """The card points not yet taken in a trick: in the hands, the trick, the talon."""
    points = state.seating.card_points
    total = sum(points[c] for hand in state.hands for c in hand)
    total += sum(points[c] for c in state.stock) + sum(points[c] for _, c in state.trick)
    if state.trump_card is not None:
        total += points[state.trump_card]
    return total


def _check(state: object, side: object) -> None:
    sides = len(checked_type(state, State).seating.sides)
    checked_int(side, "side", 0, sides - 1)


def solve(
    state: State,
    *,
    side: int | None = None,
    depth: int | None = None,
    budget: int = BUDGET,
    partial: bool = False,
) -> Solution:
    """The value of `state` for `side` under best play by everyone, and the best actions.

    Args:
        state: any state of a hand; every card in it is taken as known.
        side: an index into ``state.sides``; by default the side of the seat to act.
        depth: how many tricks to look ahead (the trick in progress counts as one),
            from 1 to :data:`INFINITE_DEPTH`; by default to the end of the hand, which
            is exact.
        budget: how many positions the search may visit, from 1 to :data:`MAX_BUDGET`
            (:data:`BUDGET` by default).
        partial: what to do with a position too large for the budget: refuse it
            (the default), or deepen one trick at a time and answer from the deepest
            search that ended within the budget, with ``exact=False``; when not even
            one trick fits, every action is valued at the score so far.

    Raises:
        StateError: `state` is not a State, is over or is still in its auction, `side`
            is not one of its sides, `depth` or `budget` is out of its range, or the
            search needs more than `budget` positions and `partial` is false.
    """
    checked_type(state, State)
    # The guard wraps the whole search, once: an inline try costs nothing per position,
    # and only a hand-edited state makes Python raise inside it.
    try:
        return _solve(state, side, depth, budget, partial)
    except BARE_ERRORS as error:
        raise as_brisca_error("the state", error) from None


def _solve(
    state: State, side: int | None, depth: int | None, budget: int, partial: bool
) -> Solution:
    if state.is_over:
        raise StateError("the hand is over: there is nothing to solve")
    if state.trump is None:
        # The auction would make the sides as the search goes; solve from its end.
        raise StateError("the auction is not over: solve once the trump is chosen")
    if side is None:
        side = state.seating.side_of[state.to_act]  # type: ignore[index]
    _check(state, side)
    depth = INFINITE_DEPTH if depth is None else checked_int(depth, "depth", 1, INFINITE_DEPTH)
    budget = checked_int(budget, "budget", 1, MAX_BUDGET)
    if type(partial) is not bool:
        raise StateError(f"partial must be a bool, got {describe(partial)}")
    # A partial search tries the whole depth with half the budget first: deepening
    # costs about half as much again where the whole search would have fitted.
    search = _Search(state, side, budget // 2 if partial and budget > 1 else budget)
    values: list[tuple[Action, int]] | None = None
    exact = False
    try:
        values = search.root(state, depth)
        exact = not search.cut
    except _OutOfBudget:
        if not partial:
            raise StateError(
                f"the search needs more than {budget:,} positions: pass a larger budget, "
                "a depth, or partial=True"
            ) from None
        search.budget = budget
        with contextlib.suppress(_OutOfBudget):
            for horizon in range(1, depth):  # keep the deepest search that ended
                values = search.root(state, horizon)
                if not search.cut:
                    exact = True
                    break
    if values is None:  # not one trick within the budget
        values = [(action, 0) for action in legal_actions(state)]
    mover_side = state.seating.side_of[state.to_act]  # type: ignore[index]
    # The seat to act chooses: the best for the side when it is on it, the worst if not.
    best = (max if mover_side == side else min)(v for _, v in values)
    now = _score(state, side)
    return Solution(
        value=now + best,
        best_actions=tuple(a for a, v in values if v == best),
        values=tuple((a, now + v) for a, v in values),
        side=side,
        exact=exact,
        nodes=search.nodes,
    )


class _OutOfBudget(Exception):
    """The search has visited as many positions as its budget allows."""


class _Search:
    """One alpha-beta search for one side, with its transposition table.

    Values are what the side gains from a position on (points it has not taken
    yet), so they depend on the position alone and not on how it was reached:
    that is what lets the table share them between move orders.
    """

    def __init__(self, state: State, side: int, budget: int) -> None:
        table = state.seating
        self.side = side
        self.budget = budget
        self.side_of = table.side_of
        self.card_points = table.card_points
        self.strength = table.strength
        self.tt: dict[object, tuple[int, int, int, int]] = {}
        self.nodes = 0
        #: Whether a line stopped at the horizon: the value is then not exact.
        self.cut = False
        # Rules whose variants offer actions may hang them on the ledger and on who
        # won which trick (a swap after a trick won, one cante per trick won), so
        # their positions are told apart by those too.
        rules = table.rules
        self.full_key = any(v.actions and v.switched_on(rules) for v in VARIANTS)
        #: What a side may gain beyond the card points in play: every cante, where sung.
        self.bonus = MAX_CANTE_POINTS if rules.cantes else 0
        self.fast = _Fast(self, state) if _plays_only(rules) else None
        #: Whether a position whose talon is gone may still offer an action besides
        #: a play: then `_Fast` takes over only once it cannot.
        self.signals = signals.VARIANT.switched_on(rules)
        self.early_signals = rules.signal_timing is SignalTiming.PRE_HAND

    def key(self, state: State) -> tuple[object, ...]:
        hands = tuple(sum(map(_BIT, hand)) for hand in state.hands)
        base = (hands, state.trick, len(state.stock), state.trump_card, state.to_act)
        if self.full_key:
            return (*base, state.ledger, tuple(t.winner for t in state.tricks))
        return base

    def compact(self, state: State) -> bool:
        """Whether `_Fast` searches `state` and every position after it: the talon is
        gone and, from here on, card plays are the only actions."""
        return (
            self.fast is not None
            and not state.stock
            and state.trump_card is None
            and (not self.signals or self.signalled(state))
        )

    def signalled(self, state: State) -> bool:
        """Whether no seat may signal from `state` on: the first trick, where signals
        are made before the hand, is over, or every seat in play has signalled."""
        if self.early_signals and state.tricks:
            return True
        return len({s.seat for s in state.ledger.signals}) == state.seating.seats_in_play

    def gain(self, before: State, after: State) -> int:
        """What the side took with the step from `before` to `after`."""
        won = 0
        if len(after.tricks) > len(before.tricks):
            trick = after.tricks[-1]
            if self.side_of[trick.winner] == self.side:
                won += trick.points
        if after.ledger is not before.ledger:
            ledger = after.ledger
            if len(ledger.cantes) > len(before.ledger.cantes):
                cante = ledger.cantes[-1]
                if self.side_of[cante.seat] == self.side:
                    won += cante.points
            holder = ledger.black_hand
            ended = holder is not None and before.ledger.black_hand is None
            if ended and self.side_of[holder] == self.side:  # type: ignore[index]
                won += _in_play(after)
        return won

    def root(self, state: State, depth: int) -> list[tuple[Action, int]]:
        """Each legal action with its exact value (to the horizon)."""
        self.cut = False
        self.visit()
        in_play = _in_play(state)
        if self.compact(state):
            return self.fast.root(state, depth, in_play)  # type: ignore[union-attr]
        return [
            (action, self.through(state, action, -_MAX, _MAX, depth, in_play))
            for action in legal_actions(state)
        ]

    def through(
        self, state: State, action: Action, alpha: int, beta: int, depth: int, in_play: int
    ) -> int:
        """The side's gain from `state` on, by way of `action`, within (alpha, beta)."""
        after = apply(state, action)
        gained = self.gain(state, after)
        if len(after.tricks) > len(state.tricks):
            depth -= 1
            in_play -= after.tricks[-1].points
        return gained + self.value(after, alpha - gained, beta - gained, depth, in_play)

    def value(self, state: State, alpha: int, beta: int, depth: int, in_play: int) -> int:
        """Alpha-beta, fail-soft: the side's gain from `state` on, within (alpha, beta);
        `in_play` is the card points not yet taken."""
        if self.compact(state):
            return self.fast.enter(state, alpha, beta, depth, in_play)  # type: ignore[union-attr]
        self.visit()
        if state.is_over:
            return 0
        if depth <= 0 and not state.trick:
            self.cut = True
            return 0
        most = in_play + self.bonus
        if most <= alpha:
            return most
        if beta <= 0:
            return 0
        key = self.key(state)
        entry = self.tt.get(key)
        first = -1
        if entry is not None:
            stored_depth, flag, stored, first = entry
            if stored_depth >= depth:
                if flag == _EXACT:
                    return stored
                if flag == _LOWER:
                    if stored >= beta:
                        return stored
                    alpha = max(alpha, stored)
                elif stored <= alpha:
                    return stored
                else:
                    beta = min(beta, stored)
        actions = legal_actions(state)
        maximizing = self.side_of[state.to_act] == self.side  # type: ignore[index]
        start_alpha, start_beta = alpha, beta
        best = -_MAX if maximizing else _MAX
        best_index = first
        order = self.order(state, actions, first) if len(actions) > 1 else (0,)
        for index in order:
            v = self.through(state, actions[index], alpha, beta, depth, in_play)
            if maximizing:
                if v > best:
                    best, best_index = v, index
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, best_index = v, index
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        if best <= start_alpha:
            flag = _UPPER
        elif best >= start_beta:
            flag = _LOWER
        else:
            flag = _EXACT
        if len(self.tt) < TABLE_SIZE or key in self.tt:
            self.tt[key] = (depth, flag, best, best_index)
        return best

    def visit(self) -> None:
        """Count a position, and stop the search once the budget is spent."""
        if self.nodes >= self.budget:
            raise _OutOfBudget
        self.nodes += 1

    def order(self, state: State, actions: Sequence[Action], first: int) -> list[int]:
        """The order to try `actions` in: the table's best first, then the extras (a swap,
        a cante, a claim); a leader tries its strongest cards first and a follower its
        cheapest, which measured fewer positions than the other orders tried."""
        points, strength = self.card_points, self.strength
        sign = -1 if not state.trick else 1

        def weight(index: int) -> int:
            action = actions[index]
            if type(action) is not Play:
                return -1 << 12
            card: Card = action.card
            return sign * (16 * points[card] + strength[card])

        order = sorted(range(len(actions)), key=weight)
        if 0 <= first < len(actions):
            order.remove(first)
            order.insert(0, first)
        return order


def compact_endgames(rules: Rules) -> bool:
    """Whether :func:`solve` searches the positions of `rules` whose talon is gone in
    its compact form, several times faster than over the engine's states: where they
    offer only card plays (free play or arrastre duties, and señas made before the
    hand), not swaps, cantes, black hands or an auction.

    >>> import brisca
    >>> compact_endgames(brisca.preset("spanish-4p")), compact_endgames(brisca.preset("casino-2p"))
    (True, False)

    Raises:
        StateError: `rules` is not a Rules.
    """
    checked_type(rules, Rules)
    early = not signals.VARIANT.switched_on(rules) or rules.signal_timing is SignalTiming.PRE_HAND
    return _plays_only(rules) and early


def _plays_only(rules: Rules) -> bool:
    """Whether, once the talon is gone, `rules` come to offer only card plays, under
    free play or arrastre duties, with no rule acting on a play: what :class:`_Fast`
    searches. Signals count as none once no seat may make one (`_Search.signalled`)."""
    for variant in VARIANTS:
        if not variant.switched_on(rules) or variant is signals.VARIANT:
            continue
        if variant.actions or variant.after_cards_move or variant.on_play:
            return False
        if variant.playable is not None and variant is not arrastre.VARIANT:
            return False
    return True


class _Fast:
    """The same search as :class:`_Search`, node for node, over a compact form of the
    positions whose talon is gone: each card a small int, each hand a bitmask, the
    trick made and unmade in place, and the table key one int.

    Its keys tell positions apart exactly as :meth:`_Search.key` does (the hands,
    the trick and the seat to act, and where the rules need them the ledger and
    who won which trick; the talon is empty), and it orders, prunes, counts and
    stores as :meth:`_Search.value` does, so values, best actions and positions
    visited are the same. Cards are numbered in hand order, seat after seat, so a
    hand's bits run in the order of :func:`~brisca.legal_actions`.
    """

    def __init__(self, search: _Search, state: State) -> None:
        table, rules = state.seating, state.seating.rules
        self.search = search
        self.side = search.side
        self.bonus = search.bonus
        self.side_of = table.side_of
        self.next_seat = table.next_seat
        self.seats_in_play = table.seats_in_play
        self.trump = state.trump
        self.arrastre = arrastre.VARIANT.switched_on(rules)
        self.must_beat = rules.arrastre_must_beat
        self.relief = rules.arrastre_partner_relief
        self.any_trump = rules.arrastre_overtrump is Overtrump.ANY_TRUMP
        self.undertrump = rules.arrastre_cannot_overtrump is CannotOvertrump.MUST_UNDERTRUMP
        self.card_points, self.strength = table.card_points, table.strength
        # A key: the hands' cards, one bit per seat and card (set by `load`); above them
        # the trick's cards and the seat to act; above those, where the rules' keys hold the ledger
        # and who won which trick (`_Search.key`), the winners as base-8 digits after a
        # leading 1, and the ledger (no play changes it once the talon is gone) by number.
        self.shift = 0
        self.full = search.full_key
        self.ledgers: dict[object, int] = {}
        self.tail_shift = 0
        # The position, set by `load`: per card its owner, suit, strength, points,
        # bit in its hand, key bit and code in a trick; per seat its hand's bits, its
        # first card, and the orders its hands are tried in, found as they come.
        self.cards: list[Card] = []
        self.owner: list[int] = []
        self.suit: list[object] = []
        self.power: list[int] = []
        self.points: list[int] = []
        self.weight: list[int] = []
        self.hand_bit: list[int] = []
        self.key_bit: list[int] = []
        self.trick_code: list[int] = []
        self.start: list[int] = []
        self.hands: list[int] = []
        self.orders: list[dict[int, tuple[list[int], list[int], list[int]]]] = []
        self.trick: list[int] = []
        self.ledger = 0

    def load(self, state: State, alone: bool = False) -> tuple[int, int, int, int, int]:
        """Make `state` the compact position; its seat to act, hand key, trick key,
        winners and the card winning the trick (-1 for none). When it is `alone`, the
        only position the search loads (its root), its keys number the cards its own
        way, in a few bits; otherwise by seat and place in the pack, as every load must
        agree."""
        cards: list[Card] = []
        owner, start, hands, hand_bit = [], [], [], []
        for seat, hand in enumerate(state.hands):
            start.append(len(cards))
            hands.append((1 << len(hand)) - 1)
            hand_bit += [1 << k for k in range(len(hand))]
            cards += hand
            owner += [seat] * len(hand)
        held = len(cards)
        for seat, card in state.trick:
            cards.append(card)
            owner.append(seat)
        points, strength = self.card_points, self.strength
        index = [_INDEX[c] for c in cards]
        self.cards, self.owner, self.start, self.hands = cards, owner, start, hands
        self.hand_bit = hand_bit
        self.suit = [c.suit for c in cards]
        self.power = [strength[c] for c in cards]
        self.points = [points[c] for c in cards]
        self.weight = [16 * points[c] + strength[c] for c in cards]
        if alone:
            self.shift = 64
            self.key_bit = [1 << i for i in range(len(cards))]
            self.trick_code = [i + 1 for i in range(len(cards))]
        else:
            self.shift = 64 * len(hands)
            self.key_bit = [1 << (64 * s + g) for s, g in zip(owner, index, strict=True)]
            self.trick_code = [g + 1 for g in index]
        self.tail_shift = self.shift + 40
        self.orders = [{} for _ in hands]
        self.trick = list(range(held, len(cards)))
        trick_key = sum(self.trick_code[c] << (3 + 6 * k) for k, c in enumerate(self.trick))
        winners = 0
        if self.full:
            self.ledger = self.ledgers.setdefault(state.ledger, len(self.ledgers))
            winners = 1
            for trick in state.tricks:
                winners = 8 * winners + trick.winner
        seat = -1 if state.to_act is None else state.to_act
        win = self.winner() if self.trick else -1
        return seat, sum(self.key_bit[:held]), trick_key, winners, win

    def enter(self, state: State, alpha: int, beta: int, depth: int, in_play: int) -> int:
        """:meth:`_Search.value` of `state`, whose talon is gone."""
        seat, hand_key, trick_key, winners, win = self.load(state)
        return self.value(alpha, beta, depth, in_play, seat, hand_key, trick_key, winners, win)

    def root(self, state: State, depth: int, in_play: int) -> list[tuple[Action, int]]:
        """:meth:`_Search.root` after its count: each legal action of `state` with its value."""
        seat, hand_key, trick_key, winners, win = self.load(state, alone=True)
        actions = legal_actions(state)
        cards = self.legal(seat, win)
        assert [Play(self.cards[c]) for c in cards] == list(actions)  # one play a card
        args = (-_MAX, _MAX, depth, in_play, hand_key, trick_key, winners, win)
        return [
            (action, self.through(seat, card, *args))
            for action, card in zip(actions, cards, strict=True)
        ]

    def moves(self, seat: int, hand: int) -> tuple[list[int], list[int], list[int]]:
        """The cards of `seat`'s `hand` (a mask) in hand order, and in the orders a
        leader and a follower try them: the strongest first, the cheapest first (as
        `_Search.order`, among equals in hand order)."""
        found = self.orders[seat].get(hand)
        if found is None:
            first, weight = self.start[seat], self.weight
            cards = [first + b for b in _bits(hand)]
            lead = sorted(cards, key=lambda c: -weight[c])
            follow = sorted(cards, key=weight.__getitem__)
            found = self.orders[seat][hand] = (cards, lead, follow)
        return found

    def legal(self, seat: int, win: int) -> list[int]:
        """The cards `seat` may play, in the order of :func:`~brisca.legal_actions`:
        the whole hand, or under arrastre the cards its duty allows
        (:func:`brisca.game.variants.arrastre.playable`), `win` winning the trick."""
        cards = self.moves(seat, self.hands[seat])[0]
        trick = self.trick
        if not trick or not self.arrastre:
            return cards
        suit, power, trump = self.suit, self.power, self.trump
        led = suit[trick[0]]
        follow = [c for c in cards if suit[c] is led]
        if follow:
            if suit[win] is led and self.must_beat:
                over = [c for c in follow if power[c] > power[win]]
                if over:
                    return over
            return follow
        trumps = [c for c in cards if suit[c] is trump]
        if not trumps:
            return cards
        if self.relief and self.side_of[self.owner[win]] == self.side_of[seat]:
            return cards
        if suit[win] is not trump or self.any_trump:
            return trumps
        over = [c for c in trumps if power[c] > power[win]]
        if over:
            return over
        return trumps if self.undertrump else cards

    def winner(self) -> int:
        """The card winning the trick so far, as :func:`brisca.game.tricks.winning` finds it."""
        suit, power, trump = self.suit, self.power, self.trump
        trick = self.trick
        best = trick[0]
        for card in trick[1:]:
            if suit[card] is suit[best]:
                if power[card] > power[best]:
                    best = card
            elif suit[card] is trump:
                best = card
        return best

    def value(
        self,
        alpha: int,
        beta: int,
        depth: int,
        in_play: int,
        seat: int,
        hand_key: int,
        trick_key: int,
        winners: int,
        win: int,
    ) -> int:
        """:meth:`_Search.value`, step for step, over the compact position; `win` is the
        card winning the trick so far."""
        search = self.search
        search.visit()
        trick = self.trick
        if not trick:
            if not hand_key:  # the hand is over
                return 0
            if depth <= 0:
                search.cut = True
                return 0
        most = in_play + self.bonus
        if most <= alpha:
            return most
        if beta <= 0:
            return 0
        key = hand_key | (trick_key | seat) << self.shift
        if winners:
            key |= (winners << 32 | self.ledger) << self.tail_shift
        tt = search.tt
        entry = tt.get(key)
        first = -1
        if entry is not None:
            stored_depth, flag, stored, first = entry
            if stored_depth >= depth:
                if flag == _EXACT:
                    return stored
                if flag == _LOWER:
                    if stored >= beta:
                        return stored
                    alpha = max(alpha, stored)
                elif stored <= alpha:
                    return stored
                else:
                    beta = min(beta, stored)
        if self.arrastre and trick:
            cards = self.legal(seat, win)
            order = sorted(cards, key=self.weight.__getitem__)
        else:
            hand = self.hands[seat]
            found = self.orders[seat].get(hand)
            cards, lead, follow = self.moves(seat, hand) if found is None else found
            order = follow if trick else lead
        best_card = cards[first] if 0 <= first < len(cards) else -1
        if best_card >= 0 and order[0] != best_card:  # the table's best first
            order = [best_card, *(c for c in order if c != best_card)]
        maximizing = self.side_of[seat] == self.side
        start_alpha, start_beta = alpha, beta
        best = -_MAX if maximizing else _MAX
        through = self.through
        for card in order:
            v = through(seat, card, alpha, beta, depth, in_play, hand_key, trick_key, winners, win)
            if maximizing:
                if v > best:
                    best, best_card = v, card
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, best_card = v, card
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        if best <= start_alpha:
            flag = _UPPER
        elif best >= start_beta:
            flag = _LOWER
        else:
            flag = _EXACT
        if len(tt) < TABLE_SIZE or key in tt:
            tt[key] = (depth, flag, best, cards.index(best_card))
        return best

    def through(
        self,
        seat: int,
        card: int,
        alpha: int,
        beta: int,
        depth: int,
        in_play: int,
        hand_key: int,
        trick_key: int,
        winners: int,
        win: int,
    ) -> int:
        """:meth:`_Search.through`: `seat` plays `card` over `win`, the card winning the
        trick so far (-1 for none); the value after, and the card back."""
        hands, trick = self.hands, self.trick
        bit = self.hand_bit[card]
        hands[seat] ^= bit
        hand_key ^= self.key_bit[card]
        trick.append(card)
        if win < 0:
            win = card
        else:  # as `brisca.game.tricks.winning` finds it
            suit = self.suit
            if suit[card] is suit[win]:
                if self.power[card] > self.power[win]:
                    win = card
            elif suit[card] is self.trump:
                win = card
        if len(trick) < self.seats_in_play:
            trick_key += self.trick_code[card] << (6 * len(trick) - 3)
            v = self.value(
                alpha, beta, depth, in_play, self.next_seat[seat], hand_key, trick_key, winners, win
            )
        else:
            winner = self.owner[win]
            points = self.points
            taken = 0
            for c in trick:
                taken += points[c]
            gained = taken if self.side_of[winner] == self.side else 0
            if winners:
                winners = 8 * winners + winner
            self.trick = []
            v = gained + self.value(
                alpha - gained,
                beta - gained,
                depth - 1,
                in_play - taken,
                winner,
                hand_key,
                0,
                winners,
                -1,
            )
            self.trick = trick
        trick.pop()
        hands[seat] ^= bit
        return v


_BITS: dict[int, tuple[int, ...]] = {}


def _bits(mask: int) -> tuple[int, ...]:
    """The positions of `mask`'s set bits, lowest first."""
    found = _BITS.get(mask)
    if found is None:
        found = tuple(i for i in range(mask.bit_length()) if mask >> i & 1)
        if len(_BITS) < 1 << 16:
            _BITS[mask] = found
    return found


def evaluate(
    observation: Observation,
    legal: Sequence[Action],
    *,
    samples: int,
    rng: Generator,
    depth: int | None = None,
    budget: int = BUDGET,
) -> tuple[float, ...]:
    """The mean value of each of `legal` for `observation`'s side, over `samples` worlds.

    Each world is a :func:`~brisca.agents.sampling.sample_state` of the observation,
    solved by :func:`solve` (`depth` tricks ahead, when given); a value is the
    side's score at the end of the hand (or at the horizon), averaged over the worlds.

    Args:
        samples: how many worlds, from 1 to :data:`MAX_SAMPLES`.
        depth: as for :func:`solve`.
        budget: how many positions the searches of all the worlds may visit together,
            from 1 to :data:`MAX_BUDGET` (:data:`BUDGET` by default). Each world gets an
            equal share, and one too large for it is valued as by ``solve(...,
            partial=True)``, from the deepest search that fits (by the score so far
            when the share is not even one position).

    Raises:
        StateError: `observation` is not an Observation, its seat is not the one to
            act, `legal` holds an action that is not legal, `samples`, `depth` or
            `budget` is out of its range, `rng` is not a Generator, or no world is
            consistent with the observation.
    """
    checked_type(observation, Observation)
    try:
        return _evaluate(observation, legal, samples, rng, depth, budget)
    except BARE_ERRORS as error:
        raise as_brisca_error("the observation", error) from None


def _evaluate(
    observation: Observation,
    legal: Sequence[Action],
    samples: int,
    rng: Generator,
    depth: int | None,
    budget: int,
) -> tuple[float, ...]:
    if isinstance(legal, (str, bytes)) or not isinstance(legal, Sequence) or not legal:
        raise StateError(f"legal must be a non-empty sequence of actions, got {describe(legal)}")
    checked_int(samples, "samples", 1, MAX_SAMPLES)
    if depth is not None:
        checked_int(depth, "depth", 1, INFINITE_DEPTH)
    share = checked_int(budget, "budget", 1, MAX_BUDGET) // samples
    if not isinstance(rng, Generator):
        raise StateError(f"rng must be a brisca.game.rng.Generator, got {type(rng).__name__}")
    seat = observation.seat
    if observation.to_act != seat:
        raise StateError(f"it is not the turn of seat {seat}: it has nothing to choose")
    totals = [0.0] * len(legal)
    for k in range(samples):
        world = sample_state(observation, rng)
        if k == 0:  # the seat's legal actions are the same in every world
            offered = legal_actions(world)
            for action in legal:
                if not any(action == a for a in offered):
                    raise StateError(
                        f"{describe(action, typed=False)} is not a legal action of the observation"
                    )
        side = world.seating.side_of[seat]
        if share == 0:
            totals = [t + _score(world, side) for t in totals]
            continue
        solution = solve(world, side=side, depth=depth, budget=share, partial=True)
        values = dict(solution.values)
        for i, action in enumerate(legal):
            totals[i] += values[action]
    return tuple(t / samples for t in totals)
