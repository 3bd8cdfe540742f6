"""A conformance kit: play random legal games and check, at every step, what must hold.

Like pgx's ``api_test``, these are the invariants brisca's own test suite checks,
shipped so that an adapter, a bot or a program built on the engine can run them
too. Each check re-derives the rules from the specification with plain code (the
trick winner, the draw order, the truth of a signal...), using only public names
of brisca, so that an engine bug cannot hide itself behind its own helpers.

>>> from brisca.testing import check_random_games
>>> finals = check_random_games("arrastre-2p", games=3, seed=1)
>>> len(finals), all(state.is_over for state in finals)
(3, True)

At every step of a game the kit checks:

- **cards**: every card of the pack is in exactly one place, and the pack holds 120
  points; hand sizes follow the deal, the tricks and the draws;
- **turn order**: each trick goes round from its leader, the winner of the last;
- **trick winners**, against an independent oracle;
- **legality**: a legal action exists until the end and none after;
  `legal_actions`, `is_legal` and `apply` agree; actions that are not offered are
  refused with an `IllegalActionError`, and the state is left as it was;
- **purity**: `apply` never changes its input;
- **observations**: a seat's `observe` is unchanged when the cards it cannot see are
  shuffled (or, under cubierta, when another card could be the covered one);
- **round trips**: ``loads(dumps(state)) == state``, the standard ``pickle`` gives an
  equal state that offers the same actions, and, once the hand is over, its game
  record writes, reads and replays to the same final state.

A failure raises :class:`ConformanceError`, an `AssertionError` that names the
invariant, the step and the actions that led there. The checks never use
``assert``, so they also run under ``python -O``.
"""

from __future__ import annotations

import contextlib
import copy
import pickle
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import attrs

from brisca.agents.bots import Bot
from brisca.formats.records import dumps as dumps_record
from brisca.formats.records import loads as loads_record
from brisca.formats.records import record_game, replay
from brisca.formats.saves import dumps, dumps_played, loads
from brisca.game.actions import (
    Action,
    Bid,
    BidRank,
    CallCard,
    ClaimBlackHand,
    NameTrump,
    Pass,
    Play,
    Signal,
    Sing,
    Swap,
)
from brisca.game.cards import Card, Suit
from brisca.game.engine import (
    apply,
    checked_rules,
    is_legal,
    legal_actions,
    new_game,
    observe,
    result,
)
from brisca.game.errors import (
    BARE_ERRORS,
    IllegalActionError,
    StateError,
    as_brisca_error,
    checked_int,
    checked_type,
    describe,
)
from brisca.game.rules import (
    FirstLeader,
    PlayObligation,
    Rules,
    SignalHonesty,
    TrumpSelection,
    TrumpVisibility,
)
from brisca.game.state import State

__all__ = [
    "ConformanceError",
    "check_game",
    "check_invariants",
    "check_observation",
    "check_playout",
    "check_random_games",
    "check_refusals",
    "check_transition",
]


class ConformanceError(AssertionError):
    """An invariant failed: which one, at which step, and the actions that led there."""

    def __init__(
        self,
        invariant: str,
        detail: str,
        *,
        step: int | None = None,
        actions: Sequence[str] = (),
        seed: int | None = None,
    ) -> None:
        #: The invariant that failed, such as ``"cards conserved"``.
        self.invariant = invariant
        #: What was seen.
        self.detail = detail
        #: How many actions had been applied when it failed, if known.
        self.step = step
        #: Those actions, in notation, from the deal.
        self.actions = tuple(actions)
        #: The seed of the deal, if it had one.
        self.seed = seed
        where = "" if step is None else f" at step {step}"
        dealt = "" if seed is None else f" (seed {seed})"
        text = f"invariant {invariant!r} failed{where}{dealt}: {detail}"
        if step is not None:
            text += f"\nactions: {' '.join(self.actions) or '(none)'}"
        super().__init__(text)

    def at(self, step: int, actions: Sequence[str], seed: int | None) -> ConformanceError:
        """The same failure, placed in its game."""
        return ConformanceError(self.invariant, self.detail, step=step, actions=actions, seed=seed)


def _require(ok: object, invariant: str, detail: str | Callable[[], str]) -> None:
    """Fail `invariant` unless `ok`; a callable detail is only built on failure."""
    if not ok:
        raise ConformanceError(invariant, detail() if callable(detail) else detail)


def _checked(*states: object) -> None:
    """Refuse an argument that is not a State."""
    for state in states:
        checked_type(state, State)


def _checked_rng(rng: object) -> None:
    if not isinstance(rng, random.Random):
        raise StateError(f"rng must be a random.Random, got {describe(rng)}")


@contextlib.contextmanager
def _readable() -> Iterator[None]:
    """A check's failure passes; what a state whose parts contradict each other makes
    Python raise is a StateError (a ConformanceError is an AssertionError, which the
    library's guard would otherwise take for one)."""
    try:
        yield
    except ConformanceError:
        raise
    except BARE_ERRORS as error:
        raise as_brisca_error("the state", error) from None


# What the kit reads beyond the documented State attributes is read here only, so that
# a change of the record a hand keeps (its ledger and deal) is met in one place.


def _contract(state: State) -> Any:
    return state.ledger.contract


def _black_hand(state: State) -> int | None:
    return state.ledger.black_hand


def _bids(state: State) -> tuple[Any, ...]:
    return state.ledger.bids


def _signals(state: State) -> tuple[Any, ...]:
    return state.ledger.signals


def _dealt(state: State) -> tuple[tuple[Card, ...], ...]:
    return state.deal.hands


def _recard(state: State, change: Callable[[Card], Card], **fields: Any) -> State:
    """`state` with every card, the deal included, passed through `change`."""
    hands = tuple(tuple(change(c) for c in h) for h in state.hands)
    deal = attrs.evolve(
        state.deal,
        deck=tuple(change(c) for c in state.deal.deck),
        seed=None,
        hands=tuple(tuple(change(c) for c in h) for h in _dealt(state)),
    )
    stock = tuple(change(c) for c in state.stock)
    return attrs.evolve(state, hands=hands, stock=stock, deal=deal, **fields)


def _table_cards(state: State) -> tuple[object, ...]:
    """The documented attributes that cards, tricks and turns move."""
    return (
        state.hands,
        state.stock,
        state.trump,
        state.trump_card,
        state.trick,
        state.tricks,
        state.to_act,
    )


# The rules, re-derived from SPEC §1 and §2 with plain code.


def oracle_winner(cards: Sequence[tuple[int, Card]], trump: Suit | None, rules: Rules) -> int:
    """SPEC §1.10: the highest trump if any was played, else the highest of the led suit."""
    trumps = [(seat, c) for seat, c in cards if c.suit is trump]
    led = cards[0][1].suit
    pool = trumps or [(seat, c) for seat, c in cards if c.suit is led]
    return max(pool, key=lambda pair: rules.card_strength(pair[1]))[0]


#: SPEC §2.9: what each signal says about the trump ranks held.
SIGNAL_TRUTH: dict[str, dict[str, Callable[[set[int]], bool]]] = {
    "s000": {
        "lip_bite": lambda r: 1 in r and 3 not in r,
        "shoulder": lambda r: 3 in r and 1 not in r,
        "wink": lambda r: 1 in r and 3 in r,
        "head_shake": lambda r: not r,
    },
    "traditional": {
        "lips": lambda r: 1 in r,
        "wink": lambda r: 3 in r,
        "eyes_up": lambda r: 12 in r,
        "shoulder": lambda r: 11 in r or 10 in r,
    },
}


def _black(hand: Iterable[Card], trump: Suit | None) -> bool:
    """SPEC §2.5: the 1, 3 and 12 of trumps."""
    return {1, 3, 12} <= {c.rank for c in hand if c.suit is trump}


def _active_seats(state: State) -> list[int]:
    """Seats in play order after the dealer, without a seat that sits out."""
    n = state.rules.num_players
    seats = [(state.dealer + k) % n for k in range(1, n + 1)]
    return seats[:-1] if state.rules.active_players < n else seats


def _all_cards(state: State) -> list[Card]:
    cards = [c for hand in state.hands for c in hand]
    cards += list(state.stock) + [c for _, c in state.trick]
    cards += [c for t in state.tricks for _, c in t.cards]
    if state.trump_card is not None:
        cards.append(state.trump_card)
    return cards


def _void(state: State) -> bool:
    """An auction hand that ended without play: everyone passed."""
    return state.rules.has_auction and state.is_over and _contract(state) is None


def check_invariants(state: State) -> None:
    """Check the invariants of one state: cards, hand sizes, turn order, trick winners,
    and the actions on offer.

    Raises:
        StateError: an argument of the wrong type, or a state whose parts contradict
            each other (one no game reaches) so that it cannot be checked.
        ConformanceError: an invariant fails.
    """
    _checked(state)
    with _readable():
        _invariants(state)


def _invariants(state: State) -> None:
    rules = state.rules
    _require(Counter(_all_cards(state)) == Counter(rules.cards), "cards conserved", "")
    total = sum(rules.card_points(c) for c in rules.cards)
    _require(total == 120, "card points total 120", lambda: f"the pack holds {total}")
    active = _active_seats(state)
    _require(
        sorted(s for side in state.sides for s in side) == sorted(active),
        "sides",
        lambda: f"sides {state.sides} are not the seats in play {active}",
    )
    for seat in range(rules.num_players):
        if seat not in active:
            _require(not state.hands[seat], "hand sizes", f"seat {seat} sits out but holds cards")
    # Every active seat holds the same count, less one if it played to this trick.
    played = {seat for seat, _ in state.trick}
    sizes = {len(state.hands[s]) + (s in played) for s in active}
    remaining = rules.tricks_per_hand - len(state.tricks)
    _require(
        sizes == {min(rules.hand_size, remaining)},
        "hand sizes",
        lambda: f"{[len(h) for h in state.hands]} with {remaining} tricks left",
    )
    void = _void(state)
    if rules.has_auction and (state.trump is None or void):
        _require(
            state.hands == _dealt(state) and not state.tricks and not state.trick,
            "auction before play",
            "cards moved before the auction ended",
        )
    black_hand = _black_hand(state)
    if black_hand is not None:
        _require(
            state.is_over and _black(state.hands[black_hand], state.trump),
            "black hand",
            lambda: f"seat {black_hand} ended the hand without the 1, 3 and 12 of trumps",
        )
    # The trick goes round from its leader, who won the last trick.
    contract = _contract(state)
    first = {
        FirstLeader.DEALER: state.dealer,
        FirstLeader.DECLARER: contract and contract.declarer,
    }.get(rules.first_leader, active[0])
    leader = state.tricks[-1].winner if state.tricks else first
    order = active[active.index(leader) :] + active[: active.index(leader)]
    _require(
        [s for s, _ in state.trick] == order[: len(state.trick)],
        "turn order",
        lambda: f"trick {state.trick} does not go round from seat {leader}",
    )
    if state.is_over:
        _require(legal_actions(state) == (), "legal actions", "actions offered after the end")
        _require(
            black_hand is not None or void or (remaining == 0 and not state.trick),
            "hand end",
            "the hand ended with cards still to play",
        )
    elif state.trump is None:
        _check_auction(state)
    else:
        _require(
            state.to_act == order[len(state.trick)],
            "turn order",
            lambda: f"seat {state.to_act} acts, seat {order[len(state.trick)]} should",
        )
        _check_plays(state)
    if state.trump_card is not None:
        _require(
            state.trump_card.suit is state.trump,
            "trump card",
            "the turned card is not of the trump suit",
        )
    for index, t in enumerate(state.tricks):
        winner = oracle_winner(t.cards, state.trump, rules)
        if t.winner != winner:
            detail = f"trick {index} {t.cards} went to seat {t.winner}, not seat {winner}"
            raise ConformanceError("trick winner", detail)
        if t.points != sum(rules.card_points(c) for _, c in t.cards):
            raise ConformanceError("trick points", f"trick {index} counts {t.points}")


def _check_auction(state: State) -> None:
    """SPEC §2.7, §2.8: bidding goes round in play order and a pass is final."""
    actions = legal_actions(state)
    _require(actions, "legal actions", "no action is offered in the auction")
    _require(
        not any(isinstance(a, Play) for a in actions),
        "auction",
        "a card is offered before the auction ends",
    )
    contract = _contract(state)
    if contract is not None:
        _require(state.to_act == contract.declarer, "auction", "the declarer does not act")
        return
    bids = _bids(state)
    passed = {r.seat for r in bids if isinstance(r.bid, Pass)}
    _require(state.to_act not in passed, "auction", f"seat {state.to_act} acts after passing")
    made = [r.bid for r in bids if not isinstance(r.bid, Pass)]
    offered = [a for a in actions if not isinstance(a, Pass)]
    rules = state.rules
    if rules.trump_selection is TrumpSelection.AUCTION:
        floor = made[-1].points if made else rules.bid_minimum - rules.bid_step
        _require(
            all(a.points > floor for a in offered if isinstance(a, Bid)),
            "auction",
            f"a bid at or below {floor} is offered",
        )
    elif made and isinstance(made[-1], BidRank):
        strength = {c.rank: rules.card_strength(c) for c in rules.cards}
        last = strength[made[-1].rank]
        _require(
            all(strength[a.rank] < last for a in offered if isinstance(a, BidRank)),
            "auction",
            "a rank bid that does not go lower is offered",
        )


def _check_plays(state: State) -> None:
    """The cards on offer: never none, always from the hand, the whole hand when play is
    free, and `is_legal` says the same of every card in hand."""
    seat = state.to_act
    _require(seat is not None, "turn order", "nobody acts in a hand that is not over")
    assert seat is not None  # for the type checker; checked just above
    plays = [a.card for a in legal_actions(state) if isinstance(a, Play)]
    hand = state.hands[seat]
    _require(plays, "legal actions", "no card may be played")
    _require(
        set(plays) <= set(hand) and len(set(plays)) == len(plays),
        "legal actions",
        lambda: f"plays {plays} are not distinct cards of the hand {hand}",
    )
    rules = state.rules
    talon_left = bool(state.stock) or state.trump_card is not None
    free = rules.play_obligation is PlayObligation.FREE or (
        rules.play_obligation is PlayObligation.ARRASTRE_AFTER_STOCK and talon_left
    )
    if free or not state.trick:
        _require(set(plays) == set(hand), "free play", "free play must offer the whole hand")
    for card in hand:
        if is_legal(state, Play(card)) != (card in plays):
            raise ConformanceError(
                "legality agrees", f"is_legal and legal_actions differ on {card}"
            )


def check_observation(state: State, seat: int, rng: random.Random) -> None:
    """Check that `seat`'s observation shows its own cards and hides everything else.

    Shuffling the cards `seat` cannot see (other hands, the stock) changes nothing
    in its observation; under cubierta, before the reveal, neither does putting
    another unseen card under the stock.

    Raises:
        StateError: an argument of the wrong type, or a state whose parts contradict
            each other (one no game reaches) so that it cannot be checked.
        ConformanceError: the observation gives something away, or misstates the hand.
    """
    _checked(state)
    _checked_rng(rng)
    with _readable():
        checked_int(seat, "seat", 0, state.rules.num_players - 1)
        _observation(state, seat, rng)


def _observation(state: State, seat: int, rng: random.Random) -> None:
    mine = observe(state, seat)
    _require(mine.hand == state.hands[seat], "observation", "the seat's own hand differs")
    _require(
        mine.hand_sizes == tuple(len(h) for h in state.hands),
        "observation",
        "the hand sizes differ",
    )
    hidden = [c for s, hand in enumerate(state.hands) if s != seat for c in hand]
    hidden += list(state.stock)
    rng.shuffle(hidden)
    it = iter(hidden)
    hands = tuple(
        hand if s == seat else tuple(next(it) for _ in hand) for s, hand in enumerate(state.hands)
    )
    stock = tuple(next(it) for _ in state.stock)
    other = attrs.evolve(state, hands=hands, stock=stock)
    _require(
        observe(other, seat) == mine,
        "observation hides",
        f"seat {seat}'s observation changes when hidden cards are shuffled",
    )
    _check_covered_card_hidden(state, seat, mine.partner_hands)


def _check_covered_card_hidden(state: State, seat: int, shown: Iterable[Any]) -> None:
    """Under cubierta, before the reveal, any unseen card of an unplayed suit could be covered.

    Cards of the partners' dealt hands that the seat was shown are seen, not unseen.
    """
    turned = state.trump_card
    if state.rules.trump_visibility is not TrumpVisibility.CUBIERTA or turned is None:
        return
    played = {c.suit for _, c in state.trick} | {c.suit for t in state.tricks for _, c in t.cards}
    if state.trump in played:
        return  # revealed
    seen = {c for _, cards in shown for c in cards}
    unseen = [c for s, hand in enumerate(state.hands) if s != seat for c in hand]
    unseen += list(state.stock)
    for card in unseen:
        if card.suit in played or card.suit is turned.suit or card in seen:
            continue

        def put(c: Card, card: Card = card) -> Card:
            return turned if c is card else c

        other = _recard(state, put, trump=card.suit, trump_card=card)
        _require(
            observe(other, seat) == observe(state, seat),
            "observation hides",
            f"seat {seat}'s observation shows which card is covered",
        )
        return


def check_transition(before: State, action: Action, after: State) -> None:
    """Check what ``apply(before, action)`` did, given `action` was legal.

    Raises:
        StateError: an argument of the wrong type, or a state whose parts contradict
            each other (one no game reaches) so that it cannot be checked.
        ConformanceError: the new state is not what the rules make of the action.
    """
    _checked(before, after)
    with _readable():
        _transition(before, action, after)


def _transition(before: State, action: Action, after: State) -> None:
    seat = before.to_act
    _require(seat is not None, "transition", "an action was applied after the end")
    assert seat is not None  # for the type checker; checked just above
    if isinstance(action, Swap):
        _check_swap(before, seat, action.card, after)
        return
    if isinstance(action, Signal):
        rules = before.rules
        trumps = {c.rank for c in before.hands[seat] if c.suit is before.trump}
        if rules.signal_honesty is SignalHonesty.ENFORCED:
            truth = SIGNAL_TRUTH[rules.signal_vocabulary.value].get(action.name)
            _require(
                truth is not None and truth(trumps),
                "signal",
                f"seat {seat} signalled {action.name} holding trumps {sorted(trumps)}",
            )
        _require(
            _table_cards(after) == _table_cards(before),
            "signal",
            "a signal moved cards or passed the turn",
        )
        _require(_signals(after)[-1].seat == seat, "signal", "the signal is not recorded")
        return
    if isinstance(action, (Bid, BidRank, Pass)):
        last = _bids(after)[-1]
        _require((last.seat, last.bid) == (seat, action), "auction", "the call is not recorded")
        _require(
            after.hands == before.hands and not after.tricks,
            "auction",
            "a call moved cards",
        )
        return
    if isinstance(action, (NameTrump, CallCard)):
        contract = _contract(after)
        _require(
            after.trump is not None and contract is not None,
            "auction",
            "no trump or contract after the call",
        )
        if isinstance(action, CallCard):
            holder = next(s for s, hand in enumerate(before.hands) if action.card in hand)
            _require(contract.partner == holder, "called partner", "the partner is not the holder")
            _require(
                any({seat, holder} <= set(side) for side in after.sides),
                "called partner",
                "the declarer and the holder of the called card are not one side",
            )
        return
    if isinstance(action, Sing):
        hand = before.hands[seat]
        _require(
            Card(12, action.suit) in hand and Card(11, action.suit) in hand,
            "cante",
            f"seat {seat} sang {action.suit} without the Rey and the Caballo",
        )
        _require(
            after.hands == before.hands
            and bool(before.tricks)
            and before.tricks[-1].winner == seat
            and not before.trick,
            "cante",
            "a cante sung other than by the last trick's winner, before it leads",
        )
        return
    if isinstance(action, ClaimBlackHand):
        _require(_black(before.hands[seat], before.trump), "black hand", "a false claim won")
        _require(
            after.is_over and _black_hand(after) == seat,
            "black hand",
            "the claim did not end the hand",
        )
        return
    if not isinstance(action, Play):
        return  # an action kind this kit does not know: the state checks still apply
    _require(action.card not in after.hands[seat], "play", "the card is still in hand")
    if len(after.tricks) == len(before.tricks):
        _require(
            after.trick == (*before.trick, (seat, action.card)),
            "play",
            "the card did not join the trick",
        )
        return
    # A trick completed: it holds every active seat's card and the winner draws first.
    done = after.tricks[-1]
    _require(
        done.cards == (*before.trick, (seat, action.card)),
        "play",
        "the completed trick is not the cards played",
    )
    talon = list(before.stock) + ([before.trump_card] if before.trump_card else [])
    if talon:
        active = _active_seats(before)
        k = active.index(done.winner)
        drawers = active[k:] + active[:k]
        for j, drawer in enumerate(drawers):
            if after.hands[drawer][-1] is not talon[j]:
                detail = f"seat {drawer} did not draw {talon[j]}: the winner draws first"
                raise ConformanceError("draw order", detail)
        rest = list(after.stock) + ([after.trump_card] if after.trump_card else [])
        _require(rest == talon[len(drawers) :], "draw order", "the talon is not drawn in order")


def _check_swap(before: State, seat: int, card: Card, after: State) -> None:
    """SPEC §2.3: a swap trades a trump in hand for the turned card; the trump suit stays."""
    turned = before.trump_card
    _require(
        turned is not None and card.suit is before.trump,
        "swap",
        "a swap without a turned card, or of a card not of trumps",
    )
    assert turned is not None  # for the type checker; checked just above
    _require(
        after.trump is before.trump and after.trump_card is card,
        "swap",
        "the swapped card is not the new turned card",
    )
    _require(
        Counter(after.hands[seat]) == Counter([*before.hands[seat], turned]) - Counter([card]),
        "swap",
        "the hand did not trade the card for the turned card",
    )
    _require(Counter(_all_cards(after)) == Counter(_all_cards(before)), "cards conserved", "")
    high = turned.rank in (1, 3, 12, 11, 10)
    _require(
        turned.rank != 2 and ((card.rank == 7 and high) or card.rank == 2),
        "swap",
        f"{card} may not be swapped for {turned}",
    )


def _candidates(state: State) -> list[Action]:
    """Actions worth trying on `state`: every card played or swapped, and the calls."""
    cards = state.rules.cards
    return [
        *(Play(c) for c in cards),
        *(Swap(c) for c in cards),
        ClaimBlackHand(),
        Pass(),
        Signal("wink"),
    ]


def check_refusals(state: State, rng: random.Random, tries: int = 3) -> None:
    """Check that `tries` random actions that are not offered are refused, changing nothing.

    Each is tried with `is_legal` (false) and `apply` (an `IllegalActionError`
    that says why); the state must compare and serialise as before.

    Raises:
        StateError: an argument of the wrong type, or a state whose parts contradict
            each other (one no game reaches) so that it cannot be checked.
        ConformanceError: an action not offered is accepted, or the refusal changes the state.
    """
    _checked(state)
    _checked_rng(rng)
    checked_int(tries, "tries")
    with _readable():
        _refusals(state, rng, tries)


def _refusals(state: State, rng: random.Random, tries: int = 3) -> None:
    offered = set(legal_actions(state))
    refused = [a for a in _candidates(state) if a not in offered]
    # Snapshots: its fields, and its text as the plain writer gives it (`dumps` would
    # refuse a changed state as one no game reaches, where the kit names the change).
    snapshot, text = copy.deepcopy(state), dumps_played(state)
    for action in rng.sample(refused, min(tries, len(refused))):
        _require(not is_legal(state, action), "legality agrees", f"{action} is legal, not offered")
        try:
            apply(state, action)
        except IllegalActionError as error:
            _require(str(error), "illegal refused", f"{action} is refused without a reason")
        else:
            raise ConformanceError("illegal refused", f"{action} was applied but is not offered")
        same = state == snapshot and dumps_played(state) == text
        _require(same, "purity", f"refusing {action} changed the state")


def _round_trip(state: State) -> None:
    _require(loads(dumps(state)) == state, "round trip", "loads(dumps(state)) != state")
    # The standard pickle, as a process pool sends states: a value, not only cloudpickle's.
    try:
        copied = pickle.loads(pickle.dumps(state))
    except Exception as error:  # whatever pickle trips on is the invariant failing
        raise ConformanceError(
            "pickle round trip", f"pickle fails: {type(error).__name__}"
        ) from None
    _require(copied == state, "pickle round trip", "pickle.loads(pickle.dumps(state)) != state")
    _require(
        state.is_over or legal_actions(copied) == legal_actions(state),
        "pickle round trip",
        "the unpickled state offers other actions",
    )


def _check_record(initial: State, actions: Sequence[Action], final: State) -> None:
    """The hand's record writes, reads, validates and replays to the final state."""
    record = record_game(initial, actions)
    text = dumps_record(record)
    _require(loads_record(text) == record, "record round trip", "the record reads back changed")
    *_, last = replay(loads_record(text))
    _require(last == final, "record round trip", "the record replays to another state")


def _check_result(final: State) -> None:
    rules = final.rules
    outcome = result(final)
    _require(outcome.sides == final.sides, "result", "the result's sides are not the state's")
    black_hand = _black_hand(final)
    if len(final.tricks) == rules.tricks_per_hand:
        _require(
            sum(outcome.points) == 120,
            "card points total 120",
            lambda: f"a played hand scores {outcome.points}",
        )
    if black_hand is not None:
        _require(
            outcome.winner is not None and black_hand in outcome.sides[outcome.winner],
            "black hand",
            "the black hand's side did not win",
        )
    if _void(final):
        _require(
            outcome.winner is None and not any(outcome.points),
            "void hand",
            "a hand without play has a winner or points",
        )


def check_playout(
    state: State,
    rng: random.Random,
    *,
    bots: Sequence[Bot] | None = None,
    every_step: bool = True,
    record: bool = False,
) -> State:
    """Play `state` to the end, checking every step, and return the final state.

    Args:
        state: any state, such as a fresh deal or a sampled world.
        rng: chooses the random actions, the seats observed and the refusals tried.
        bots: one bot per seat to choose the actions (each must return one of the
            legal actions); by default they are chosen at random.
        every_step: check the state, its observation, its refusals and its round
            trip at every step; when false, only the purity of `apply`, the
            transition and the final state are checked.
        record: `state` is a fresh deal: also check the hand's game record.

    Raises:
        StateError: `state` is not a State, `rng` not a `random.Random`, or `bots`
            not one bot per seat.
        ConformanceError: an invariant fails; it names the step and the actions
            from `state`. Any other error the library raises during the game is
            reported as one, caused by that error.
    """
    _checked(state)
    _checked_rng(rng)
    with _readable():
        seats = state.rules.num_players
    if bots is not None and (
        isinstance(bots, (str, bytes))
        or not isinstance(bots, Sequence)
        or len(bots) != seats
        or not all(callable(bot) for bot in bots)
    ):
        raise StateError(f"bots must hold one bot per seat, got {describe(bots)}")
    initial = state
    history: list[Action] = []
    try:
        while not state.is_over:
            if every_step:
                check_invariants(state)
                _round_trip(state)
                check_observation(state, rng.randrange(state.rules.num_players), rng)
                check_refusals(state, rng)
            actions = legal_actions(state)
            _require(actions, "legal actions", "no action is offered before the end")
            _require(
                len(set(actions)) == len(actions) and actions == legal_actions(state),
                "legal actions",
                "legal_actions repeats an action, or changes between calls",
            )
            for action in actions:
                _require(is_legal(state, action), "legality agrees", f"{action} is not legal")
            if bots is None:
                action = actions[rng.randrange(len(actions))]
            else:
                seat = state.to_act
                assert seat is not None  # the hand is not over
                action = bots[seat](observe(state, seat), actions)
                _require(action in actions, "bot", f"the bot of seat {seat} chose {action!r}")
            snapshot = copy.deepcopy(state)
            text = dumps_played(state)  # a snapshot, without the replay of dumps
            history.append(action)
            after = apply(state, action)
            _require(
                state == snapshot and dumps_played(state) == text,
                "purity",
                "apply changed its input",
            )
            check_transition(state, action, after)
            state = after
        check_invariants(state)
        _round_trip(state)
        _check_result(state)
        if record:
            _check_record(initial, history, state)
    except ConformanceError as error:
        raise error.at(len(history), [str(a) for a in history], initial.seed) from None
    except Exception as error:
        raise ConformanceError(
            "no error", repr(error), step=len(history), actions=[str(a) for a in history]
        ) from error
    return state


def check_game(
    rules: Rules | str,
    *,
    seed: int = 0,
    dealer: int | None = None,
    rng: random.Random | None = None,
    bots: Sequence[Bot] | None = None,
) -> State:
    """Deal a hand of `rules` and play it out, checking every step; return the final state.

    Args:
        rules: a `Rules` value or a preset name.
        seed: the deal's seed; it also seeds the random choices unless `rng` is given.
        dealer: as for :func:`brisca.new_game`.
        rng: chooses the actions, as for :func:`check_playout`.
        bots: one bot per seat to choose the actions, as for :func:`check_playout`.

    Raises:
        ConformanceError: an invariant fails.
        BriscaError: bad rules, seed or dealer.
    """
    state = new_game(rules, seed=seed, dealer=dealer)
    return check_playout(state, rng or random.Random(seed), bots=bots, record=True)


def check_random_games(rules: Rules | str, *, games: int = 10, seed: int = 0) -> tuple[State, ...]:
    """Play `games` random hands of `rules`, each from its own seed and dealer, checking
    every step; return the final states.

    The same arguments play the same games.

    Raises:
        ConformanceError: an invariant fails; the message gives the game's seed.
        BriscaError: bad rules, `games` or `seed`.
    """
    checked_int(games, "games")
    checked_int(seed, "seed")
    rules = checked_rules(rules)
    rng = random.Random(seed)
    finals = []
    for _ in range(games):
        deal = rng.getrandbits(64)
        dealer = rng.randrange(rules.num_players)
        finals.append(check_game(rules, seed=deal, dealer=dealer, rng=rng))
    return tuple(finals)
