"""`loads` and `check_state` accept exactly the states that play can reach (issue 11 §1).

A state is reachable when dealing its `deal` again and playing its `history` through
`apply` gives that very state. Each property here takes a reachable state, changes one
thing and checks that the result is refused unless it is itself that replay. The
replay is done here with `new_game` and `apply` only, not with the library's own
loader, so the tests do not check the loader against itself.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from helpers import stacked
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import any_rules

import brisca
from brisca import (
    BidRecord,
    Cante,
    Card,
    Contract,
    Rules,
    SignalRecord,
    State,
    Suit,
    SwapRecord,
)
from brisca.formats import saves
from brisca.formats.records import record_game
from brisca.formats.saves import dumps_played
from brisca.game.actions import SIGNAL_NAMES

PRESET_NAMES = sorted(brisca.PRESETS)

#: How many times the CI profile's examples to run: more under HYPOTHESIS_PROFILE=thorough.
SCALE = settings.default.max_examples / 60


def examples(n: int) -> settings:
    """`n` examples in CI, scaled with the profile."""
    return settings(max_examples=max(1, int(n * SCALE)))


# --- Reachable states, and the replay of a state's deal and history -------------------


def random_state(rules: Rules, seed: int) -> State:
    """A state of a seeded random game, stopped at a random step (sometimes the end).

    Every other game is dealt from an explicit deck, so that both kinds of deal appear.
    """
    return random_state_and_parent(rules, seed)[0]


def random_state_and_parent(rules: Rules, seed: int) -> tuple[State, State]:
    """`random_state`, and the state one action before it (itself at the deal)."""
    rng = random.Random(seed)
    state = brisca.new_game(rules, seed=seed, dealer=rng.randrange(rules.num_players))
    if rng.random() < 0.5:
        state = brisca.new_game(rules, deck=state.deal.deck, dealer=state.dealer)
    parent = state
    stop = rng.choice([rng.randrange(1, 12), rng.randrange(1, 60), 10**6])
    for _ in range(stop):
        if state.is_over:
            break
        actions = brisca.legal_actions(state)
        parent, state = state, brisca.apply(state, actions[rng.randrange(len(actions))])
    return state, parent


def replay_of(state: State) -> State | None:
    """The state that `state`'s deal and history reach through the public API, if any."""
    deal = state.deal
    try:
        if deal.seed is not None:
            reached = brisca.new_game(
                state.rules, seed=deal.seed, dealer=state.dealer, hand_number=deal.hand_number
            )
        else:
            reached = brisca.new_game(
                state.rules, deck=deal.deck, dealer=state.dealer, hand_number=deal.hand_number
            )
        for action in state.history:
            reached = brisca.apply(reached, action)
    except brisca.BriscaError:
        return None
    return reached


def assert_refused_unless_reachable(state: State) -> bool:
    """`check_state` and `dumps` refuse `state` unless its own replay equals it, so that
    ``loads(dumps(state)) == state`` whenever dumps writes (it wrote the replay, as if
    it were `state`); `dumps_played`, which trusts its state, writes the same text.

    Returns whether the state was refused.
    """
    reached = replay_of(state)
    reachable = reached is not None and reached == state
    if reachable:
        brisca.check_state(state)
        assert brisca.loads(brisca.dumps(state)) == state
        assert dumps_played(state) == brisca.dumps(state)
    else:
        with pytest.raises(brisca.StateError):
            brisca.check_state(state)
        with pytest.raises(brisca.StateError):
            brisca.dumps(state)  # it wrote the replay, silently, as if it were `state`
    return not reachable


# --- One change to a state -------------------------------------------------------------

Change = Callable[[State, random.Random], "State | None"]


def _pick(rng: random.Random, items: Any) -> Any:
    items = list(items)
    return items[rng.randrange(len(items))] if items else None


def _other_card(state: State, rng: random.Random, *avoid: Card) -> Card:
    return _pick(rng, [c for c in state.rules.cards if c not in avoid])


def _other_seat(state: State, rng: random.Random, seat: int | None) -> int:
    return _pick(rng, [s for s in range(state.rules.num_players) if s != seat])


def _with_hand(
    hands: tuple[tuple[Card, ...], ...], seat: int, hand: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    return (*hands[:seat], hand, *hands[seat + 1 :])


def move_card_between_hands(state: State, rng: random.Random) -> State | None:
    holders = [s for s, hand in enumerate(state.hands) if hand]
    if not holders:
        return None
    giver = _pick(rng, holders)
    taker = _other_seat(state, rng, giver)
    card = _pick(rng, state.hands[giver])
    hands = _with_hand(state.hands, giver, tuple(c for c in state.hands[giver] if c != card))
    return attrs.evolve(state, hands=_with_hand(hands, taker, (*hands[taker], card)))


def swap_hand_card_with_stock_card(state: State, rng: random.Random) -> State | None:
    holders = [s for s, hand in enumerate(state.hands) if hand]
    if not holders or not state.stock:
        return None
    seat = _pick(rng, holders)
    i, j = rng.randrange(len(state.hands[seat])), rng.randrange(len(state.stock))
    hand, stock = list(state.hands[seat]), list(state.stock)
    hand[i], stock[j] = stock[j], hand[i]
    return attrs.evolve(state, hands=_with_hand(state.hands, seat, tuple(hand)), stock=tuple(stock))


def replace_trick_card(state: State, rng: random.Random) -> State | None:
    """A card of the trick in progress or of a completed trick replaced: by the same
    seat's hand card (cards stay conserved) or by any other card of the pack."""
    places = [(None, k) for k in range(len(state.trick))]
    places += [(t, k) for t, trick in enumerate(state.tricks) for k in range(len(trick.cards))]
    if not places:
        return None
    where, k = _pick(rng, places)
    cards = state.trick if where is None else state.tricks[where].cards
    seat, old = cards[k]
    hand = state.hands[seat]
    hands = state.hands
    if hand and rng.random() < 0.5:
        new = _pick(rng, hand)
        hands = _with_hand(hands, seat, tuple(old if c == new else c for c in hand))
    else:
        new = _other_card(state, rng, old)
    cards = (*cards[:k], (seat, new), *cards[k + 1 :])
    if where is None:
        return attrs.evolve(state, hands=hands, trick=cards)
    tricks = list(state.tricks)
    tricks[where] = attrs.evolve(tricks[where], cards=cards)
    return attrs.evolve(state, hands=hands, tricks=tuple(tricks))


def change_trick_winner_or_points(state: State, rng: random.Random) -> State | None:
    if not state.tricks:
        return None
    where = rng.randrange(len(state.tricks))
    trick = state.tricks[where]
    if rng.random() < 0.5:
        changed = attrs.evolve(trick, winner=_other_seat(state, rng, trick.winner))
    else:
        changed = attrs.evolve(trick, points=trick.points + _pick(rng, (-11, -1, 1, 10)))
    tricks = (*state.tricks[:where], changed, *state.tricks[where + 1 :])
    return attrs.evolve(state, tricks=tricks)


def _ledger(state: State, **changes: Any) -> State:
    return attrs.evolve(state, ledger=attrs.evolve(state.ledger, **changes))


def _edit_records(
    state: State,
    rng: random.Random,
    name: str,
    fresh: Callable[[], Any],
    alter: Callable[[Any], Any],
) -> State:
    """A record of the ledger's `name` list added, removed or altered."""
    records = list(getattr(state.ledger, name))
    how = _pick(rng, ("add", "remove", "alter") if records else ("add",))
    if how == "add":
        records.insert(rng.randrange(len(records) + 1), fresh())
    else:
        k = rng.randrange(len(records))
        if how == "remove":
            del records[k]
        else:
            records[k] = alter(records[k])
    return _ledger(state, **{name: tuple(records)})


def _seat(state: State, rng: random.Random) -> int:
    return rng.randrange(state.rules.num_players)


def _trick_count(state: State, rng: random.Random) -> int:
    return rng.randrange(len(state.tricks) + 1)


def edit_swap_record(state: State, rng: random.Random) -> State:
    def fresh() -> SwapRecord:
        given = _other_card(state, rng)
        return SwapRecord(
            _seat(state, rng), given, _other_card(state, rng, given), _trick_count(state, rng)
        )

    def alter(record: SwapRecord) -> SwapRecord:
        field = _pick(rng, ("seat", "given", "taken", "trick"))
        if field == "seat":
            return attrs.evolve(record, seat=_other_seat(state, rng, record.seat))
        if field == "trick":
            return attrs.evolve(record, trick=record.trick + 1)
        return attrs.evolve(record, **{field: _other_card(state, rng, getattr(record, field))})

    return _edit_records(state, rng, "swaps", fresh, alter)


def edit_signal_record(state: State, rng: random.Random) -> State:
    def fresh() -> SignalRecord:
        return SignalRecord(_seat(state, rng), _pick(rng, SIGNAL_NAMES), _trick_count(state, rng))

    def alter(record: SignalRecord) -> SignalRecord:
        field = _pick(rng, ("seat", "signal", "trick"))
        if field == "seat":
            return attrs.evolve(record, seat=_other_seat(state, rng, record.seat))
        if field == "trick":
            return attrs.evolve(record, trick=record.trick + 1)
        return attrs.evolve(record, signal=_pick(rng, set(SIGNAL_NAMES) - {record.signal}))

    return _edit_records(state, rng, "signals", fresh, alter)


def edit_cante(state: State, rng: random.Random) -> State:
    def fresh() -> Cante:
        return Cante(
            _seat(state, rng), _pick(rng, Suit), _pick(rng, (20, 40)), _trick_count(state, rng)
        )

    def alter(record: Cante) -> Cante:
        field = _pick(rng, ("seat", "suit", "points"))
        if field == "seat":
            return attrs.evolve(record, seat=_other_seat(state, rng, record.seat))
        if field == "suit":
            return attrs.evolve(record, suit=_pick(rng, set(Suit) - {record.suit}))
        return attrs.evolve(record, points=60 - record.points)

    return _edit_records(state, rng, "cantes", fresh, alter)


def _any_bid(rng: random.Random) -> brisca.Action:
    return _pick(rng, (brisca.Pass(), brisca.Bid(rng.randrange(60, 125, 5)), brisca.BidRank(3)))


def edit_bid_record(state: State, rng: random.Random) -> State:
    def fresh() -> BidRecord:
        return BidRecord(_seat(state, rng), _any_bid(rng))

    def alter(record: BidRecord) -> BidRecord:
        if rng.random() < 0.5:
            return attrs.evolve(record, seat=_other_seat(state, rng, record.seat))
        return attrs.evolve(record, bid=_pick(rng, [b for b in [_any_bid(rng)] if b != record.bid]))

    return _edit_records(state, rng, "bids", fresh, alter)


def set_black_hand(state: State, rng: random.Random) -> State:
    return _ledger(state, black_hand=_other_seat(state, rng, state.ledger.black_hand))


def alter_contract(state: State, rng: random.Random) -> State:
    contract = state.ledger.contract
    if contract is None:
        made = Contract(_seat(state, rng), brisca.Bid(60), _pick(rng, Suit))
        return _ledger(state, contract=made)
    field = _pick(rng, ("declarer", "bid", "trump", "called", "partner", "none"))
    if field == "none":
        return _ledger(state, contract=None)
    if field in ("declarer", "partner"):
        changed = {field: _other_seat(state, rng, getattr(contract, field))}
    elif field == "bid":
        changed = {"bid": brisca.Bid(125) if contract.bid != brisca.Bid(125) else brisca.Pass()}
    elif field == "trump":
        changed = {"trump": _pick(rng, set(Suit) - {contract.trump})}
    else:
        changed = {"called": _other_card(state, rng, *[c for c in [contract.called] if c])}
    return _ledger(state, contract=attrs.evolve(contract, **changed))


def alter_trump_card_drawn(state: State, rng: random.Random) -> State:
    drawn = state.ledger.trump_card_drawn
    if drawn is None:
        return _ledger(state, trump_card_drawn=(_seat(state, rng), _other_card(state, rng)))
    seat, card = drawn
    return _ledger(state, trump_card_drawn=(_other_seat(state, rng, seat), card))


def change_to_act(state: State, rng: random.Random) -> State:
    seats: list[int | None] = [s for s in range(state.rules.num_players) if s != state.to_act]
    if state.to_act is not None:
        seats.append(None)
    return attrs.evolve(state, to_act=_pick(rng, seats))


def change_trump(state: State, rng: random.Random) -> State:
    choices: list[Suit | None] = [s for s in Suit if s != state.trump]
    if state.trump is not None:
        choices.append(None)
    return attrs.evolve(state, trump=_pick(rng, choices))


def change_trump_card(state: State, rng: random.Random) -> State:
    if state.trump_card is not None and rng.random() < 0.3:
        return attrs.evolve(state, trump_card=None)
    avoid = [c for c in [state.trump_card] if c is not None]
    return attrs.evolve(state, trump_card=_other_card(state, rng, *avoid))


def truncate_history(state: State, rng: random.Random) -> State | None:
    return attrs.evolve(state, trail=state.trail[0]) if state.trail else None


def extend_history(state: State, rng: random.Random) -> State | None:
    """One legal action added to the history, the rest of the state left as it was."""
    actions = brisca.legal_actions(state)
    if not actions:
        return None
    return attrs.evolve(state, trail=(state.trail, _pick(rng, actions)))


CHANGES: dict[str, Change] = {
    "card moved between hands": move_card_between_hands,
    "hand card swapped with stock card": swap_hand_card_with_stock_card,
    "trick card replaced": replace_trick_card,
    "trick winner or points changed": change_trick_winner_or_points,
    "swap record edited": edit_swap_record,
    "signal record edited": edit_signal_record,
    "cante edited": edit_cante,
    "bid record edited": edit_bid_record,
    "black hand set": set_black_hand,
    "contract altered": alter_contract,
    "trump card drawn altered": alter_trump_card_drawn,
    "to_act changed": change_to_act,
    "trump changed": change_trump,
    "trump card changed": change_trump_card,
    "history truncated": truncate_history,
    "history extended": extend_history,
}


def every_change(state: State, rng: random.Random) -> dict[str, bool]:
    """Each kind of change applied to `state` once: whether it changed and was refused."""
    refused = {}
    for name, change in CHANGES.items():
        changed = change(state, rng)
        if changed is None or changed == state:
            continue
        refused[name] = assert_refused_unless_reachable(changed)
    return refused


@pytest.mark.parametrize("name", PRESET_NAMES)
@examples(10)
@given(seed=st.integers(0, 2**32))
def test_one_change_to_a_state_is_refused_unless_reachable_every_preset(
    name: str, seed: int
) -> None:
    """Under every preset, a random state with one thing changed is refused unless
    its deal and history reach it."""
    rules = brisca.preset(name)
    every_change(random_state(rules, seed), random.Random(seed))


@examples(80)
@given(rules=any_rules, seed=st.integers(0, 2**32))
def test_one_change_to_a_state_is_refused_unless_reachable_any_rules(
    rules: Rules, seed: int
) -> None:
    """Under random option combinations, a random state with one thing changed is
    refused unless its deal and history reach it."""
    every_change(random_state(rules, seed), random.Random(seed))


@pytest.mark.parametrize("name", PRESET_NAMES)
@examples(10)
@given(seed=st.integers(0, 2**32))
def test_a_change_one_move_past_a_proved_state_is_refused_unless_reachable(
    name: str, seed: int
) -> None:
    """`dumps` proves a state one action past a state it proved lately by that action
    alone (so that saving after every move costs a move, not a replay of the hand): a
    state so proved is the real one, and one with one thing changed is refused all the
    same unless its deal and history reach it."""
    state, parent = random_state_and_parent(brisca.preset(name), seed)
    if parent is state:  # a hand over at the deal: nothing to prove it by
        return
    brisca.dumps(parent)
    assert saves._one_past_proved(state, record_game(state)) is not None  # the short way
    assert brisca.dumps(state) == dumps_played(state)
    every_change(state, random.Random(seed))
    brisca.dumps(parent)
    forged = attrs.evolve(state, trail=(parent.trail, brisca.legal_actions(parent)[-1]))
    assert_refused_unless_reachable(forged)  # another action past the proved state


class _EqualToAll(tuple):  # type: ignore[type-arg]
    """A stock that says it equals any other."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = tuple.__hash__


def test_a_proved_state_edited_after_proves_nothing_past_it() -> None:
    """What a state proved lately lends the next is the replay's own state, not the
    caller's: a proved state edited in place after, or one whose field's own ``==``
    lied to the proof, lends nothing false to the state one move past it, which the
    whole replay refuses (`dumps` had written both, and `loads` refused its text)."""
    start = brisca.new_game(seed=1)
    proved = brisca.apply(start, brisca.legal_actions(start)[0])
    brisca.dumps(proved)
    hands = list(proved.hands)
    hands[1] = hands[0]
    object.__setattr__(proved, "hands", tuple(hands))  # edited in place, once proved
    after = brisca.apply(proved, brisca.legal_actions(proved)[0])
    with pytest.raises(brisca.StateError, match="no game reaches this state"):
        brisca.dumps(after)
    proved = brisca.apply(start, brisca.legal_actions(start)[0])
    stock = list(proved.stock)
    stock[0], stock[1] = stock[-1], stock[-2]
    liar = attrs.evolve(proved, stock=_EqualToAll(stock))
    brisca.check_state(liar)  # its own == says it is the replay's: so the replay says too
    drawn = brisca.apply(liar, brisca.legal_actions(liar)[0])  # draws the swapped cards
    with pytest.raises(brisca.StateError, match="is not the one its deal and history reach"):
        brisca.dumps(drawn)


def test_every_kind_of_change_is_tried_and_refused() -> None:
    """The changes above are not vacuous: over a few states of every preset each kind
    applies at least once, and every changed state is refused."""
    seen: dict[str, list[bool]] = {name: [] for name in CHANGES}
    for number, name in enumerate(PRESET_NAMES):
        for seed in range(3):
            state = random_state(brisca.preset(name), 100 * number + seed)
            for change, refused in every_change(state, random.Random(seed)).items():
                seen[change].append(refused)
    assert all(seen.values()), [name for name, tried in seen.items() if not tried]
    # None of these changes can give a reachable state: each one breaks a fact that
    # the deal and history fix.
    assert all(all(refused) for refused in seen.values())


def test_a_reachable_state_passes_and_round_trips() -> None:
    """The other half: every state of a played hand passes `check_state` and loads back."""
    for name in ("spanish-2p", "subastada-4p", "chiamata-5p", "casino-4p"):
        state = brisca.new_game(brisca.preset(name), seed=11)
        rng = random.Random(11)
        while not state.is_over:
            brisca.check_state(state)
            assert brisca.loads(brisca.dumps(state)) == state
            actions = brisca.legal_actions(state)
            state = brisca.apply(state, actions[rng.randrange(len(actions))])
        assert not assert_refused_unless_reachable(state)


# --- One change to a saved document ----------------------------------------------------


def _mutated_document(state: State, rng: random.Random) -> tuple[str, dict[str, Any]]:
    """One element of ``json.loads(dumps(state))`` changed: the kind of change and the
    document."""
    data = json.loads(brisca.dumps(state))
    actions: list[str] = data["actions"]
    texts = sorted({str(a) for a in state.history} | {str(a) for a in brisca.legal_actions(state)})
    kinds = ["dealer changed", "hand number changed"]
    if actions:
        kinds += ["action replaced", "action removed"]
    if texts:
        kinds.append("action inserted")
    kinds.append("seed nudged" if "seed" in data else "deck cards swapped")
    kind = _pick(rng, kinds)
    if kind == "action replaced":
        k = rng.randrange(len(actions))
        actions[k] = _pick(rng, [t for t in texts if t != actions[k]] or ["pass"])
    elif kind == "action removed":
        del actions[rng.randrange(len(actions))]
    elif kind == "action inserted":
        actions.insert(rng.randrange(len(actions) + 1), _pick(rng, texts))
    elif kind == "seed nudged":
        data["seed"] += _pick(rng, (-1, 1, 2**64))
    elif kind == "deck cards swapped":
        deck = data["deck"]
        i, j = rng.sample(range(len(deck)), 2)
        deck[i], deck[j] = deck[j], deck[i]
    elif kind == "dealer changed":
        data["dealer"] = _pick(
            rng, [s for s in range(-1, state.rules.num_players + 1) if s != state.dealer]
        )
    else:
        data["hand_number"] += _pick(rng, (-1, 1, 3))
    return kind, data


def assert_document_refused_or_described(data: dict[str, Any]) -> None:
    """`loads` refuses the document, or gives the state whose `dumps` is that document."""
    try:
        loaded = brisca.loads(json.dumps(data))
    except brisca.BriscaError:
        return
    assert json.loads(brisca.dumps(loaded)) == data


@examples(100)
@given(name=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 2**32))
def test_one_change_to_a_saved_state_is_refused_or_loaded_as_described(
    name: str, seed: int
) -> None:
    """A saved state with one element changed loads only as the state it describes."""
    state = random_state(brisca.preset(name), seed)
    rng = random.Random(seed)
    for _ in range(4):
        assert_document_refused_or_described(_mutated_document(state, rng)[1])


@examples(60)
@given(rules=any_rules, seed=st.integers(0, 2**32))
def test_one_change_to_a_saved_state_is_refused_or_loaded_as_described_any_rules(
    rules: Rules, seed: int
) -> None:
    """The same under random option combinations."""
    state = random_state(rules, seed)
    rng = random.Random(seed)
    for _ in range(4):
        assert_document_refused_or_described(_mutated_document(state, rng)[1])


# --- The hand-made impossible states of issue 11 §1 ------------------------------------
#
# Each is built the way a forger would: where a rule forbids an action, the hand is
# played under the same rules with that one option allowing it, and the state (or its
# JSON) is then labelled with the forbidding rules, so that every other fact agrees.


def _deal(rules: Rules, hands: dict[int, list[str]], trump: str | None = None) -> State:
    return stacked(rules, hands, trump=trump)


def _play(state: State, *texts: str) -> State:
    for text in texts:
        state = brisca.apply(state, brisca.parse_action(text))
    return state


def _under(state: State, rules: Rules) -> State:
    """`state` labelled with other `rules`: the same deal and history, the other table."""
    deal = state.deal
    table = brisca.new_game(
        rules, deck=deal.deck, dealer=state.dealer, hand_number=deal.hand_number
    ).seating
    return attrs.evolve(state, seating=table)


def _document_under(state: State, rules: Rules) -> dict[str, Any]:
    """The JSON of `state` with the `rules` written in place of its own."""
    data = json.loads(brisca.dumps(state))
    other = brisca.new_game(rules, deck=state.deal.deck, dealer=state.dealer)
    data["rules"] = json.loads(brisca.dumps(other))["rules"]
    return data


def _with_action(state: State, action: brisca.Action, **changes: Any) -> State:
    """`state` with `action` added to its history and `changes` made, without `apply`."""
    return attrs.evolve(state, trail=(state.trail, action), **changes)


def _random_game_until(
    rules: Rules,
    wanted: Callable[[State], bool],
    choices: Callable[[State], tuple[brisca.Action, ...]] = brisca.legal_actions,
) -> State:
    """The first state of a seeded random game for which `wanted` holds; each move is
    drawn from `choices`, the legal actions unless told."""
    for seed in range(2000):
        rng = random.Random(seed)
        state = brisca.new_game(rules, seed=seed)
        while True:
            if wanted(state):
                return state
            if state.is_over:
                break
            actions = choices(state)
            state = brisca.apply(state, actions[rng.randrange(len(actions))])
    raise AssertionError("no such state found")


def assert_impossible(state: State, document: dict[str, Any] | None = None) -> None:
    """`state` is refused by `check_state`, and `loads(dumps(state))` never gives it back;
    the forged `document`, if any, is refused by `loads`."""
    assert replay_of(state) != state
    with pytest.raises(brisca.StateError):
        brisca.check_state(state)
    try:
        loaded = brisca.loads(brisca.dumps(state))
    except brisca.BriscaError:
        pass
    else:
        assert loaded != state
    if document is not None:
        with pytest.raises(brisca.StateError):
            brisca.loads(json.dumps(document))


def test_loads_refuses_a_swap_under_rules_without_swaps_spec_2_3() -> None:
    """SPEC §2.3 (S002, S004): no swap unless the rules enable it."""
    spanish = brisca.preset("spanish-2p")
    allowing = attrs.evolve(spanish, swap_enabled=True)
    swapped = _play(_deal(allowing, {0: ["7O"]}, trump="1O"), "swap 7O")
    assert swapped.ledger.swaps and swapped.trump_card == Card.parse("7O")
    assert_impossible(_under(swapped, spanish), _document_under(swapped, spanish))


def test_loads_refuses_a_swap_before_winning_a_trick_s003() -> None:
    """S003 (casino): only a player who has won a trick may swap."""
    casino = brisca.preset("casino-2p")
    allowing = attrs.evolve(casino, swap_requires_trick_won="none")
    swapped = _play(_deal(allowing, {0: ["7O"]}, trump="1O"), "swap 7O")
    assert not swapped.tricks and swapped.ledger.swaps
    assert_impossible(_under(swapped, casino), _document_under(swapped, casino))


def test_loads_refuses_a_signal_under_rules_without_signals_spec_2_9() -> None:
    """SPEC §2.9: no signal unless the rules have signals."""
    allowing = brisca.preset("spanish-4p")
    silent = attrs.evolve(allowing, signals="none")
    signalled = _play(_deal(allowing, {0: ["1O", "3O"]}, trump="7O"), "signal wink")
    assert signalled.ledger.signals
    assert_impossible(_under(signalled, silent), _document_under(signalled, silent))


def test_loads_refuses_a_false_signal_s000() -> None:
    """S000: signals 'must be used honestly'; the wink says 'the 1 and the 3 of trumps'."""
    rules = brisca.preset("spanish-4p")
    state = _deal(rules, {0: ["4C", "5C", "6C"]}, trump="7O")
    lie = brisca.Signal("wink")
    assert not brisca.is_legal(state, lie)
    forged = _with_action(
        state, lie, ledger=attrs.evolve(state.ledger, signals=(SignalRecord(0, "wink", 0),))
    )
    document = json.loads(brisca.dumps(state))
    document["actions"] = ["signal wink"]
    assert_impossible(forged, document)


def test_loads_refuses_a_cante_under_rules_without_cantes_spec_2_7() -> None:
    """SPEC §2.7: cantes only where the rules have them."""
    allowing = brisca.preset("subastada-4p")
    silent = attrs.evolve(allowing, cantes=False)
    sung = _random_game_until(allowing, lambda s: bool(s.ledger.cantes))
    assert_impossible(_under(sung, silent), _document_under(sung, silent))


def test_loads_refuses_a_forged_cante_that_makes_a_failed_contract_spec_2_7() -> None:
    """SPEC §2.7 (TUTE): a cante needs the pair and a trick just won; one added to a
    failed contract's ledger would turn it into a made one."""
    rules = brisca.preset("subastada-4p")

    def nearly_made(state: State) -> bool:
        if not state.is_over or state.ledger.contract is None:
            return False
        outcome = brisca.result(state)
        declarers = next(
            k for k, side in enumerate(outcome.sides) if state.ledger.contract.declarer in side
        )
        bid = state.ledger.contract.bid
        short = isinstance(bid, brisca.Bid) and outcome.points[declarers] + 40 >= bid.points
        return outcome.details.made is False and short and not state.ledger.cantes

    def low_bid_no_cante(state: State) -> tuple[brisca.Action, ...]:
        """The first seat bids the minimum and the rest pass; nobody sings."""
        legal = brisca.legal_actions(state)
        bids = [a for a in legal if isinstance(a, brisca.Bid)]
        if bids:
            return (min(bids, key=lambda b: b.points) if not state.ledger.bids else brisca.Pass(),)
        return tuple(a for a in legal if not isinstance(a, brisca.Sing))

    failed = _random_game_until(rules, nearly_made, low_bid_no_cante)
    contract = failed.ledger.contract
    assert contract is not None and contract.trump is not None
    forged = attrs.evolve(
        failed,
        ledger=attrs.evolve(
            failed.ledger, cantes=(Cante(contract.declarer, contract.trump, 40, 1),)
        ),
    )
    # The forgery is worth making: it would flip the result if it were accepted.
    assert brisca.result(forged).details.made is True
    # As JSON: a sing of the trump suit put where it cannot be sung.
    document = json.loads(brisca.dumps(failed))
    history = failed.history
    sing = brisca.Sing(contract.trump)
    state = brisca.new_game(rules, seed=failed.deal.seed, dealer=failed.dealer)
    for index, action in enumerate(history):
        if len(state.tricks) >= 1 and not brisca.is_legal(state, sing):
            document["actions"].insert(index, str(sing))
            break
        state = brisca.apply(state, action)
    assert str(sing) in document["actions"]
    assert_impossible(forged, document)


def test_loads_refuses_a_black_hand_under_black_hand_off_s003() -> None:
    """S003, SPEC §2.5: a black hand wins only where the rules have it."""
    allowing = brisca.preset("casino-2p")
    off = attrs.evolve(allowing, black_hand="off")
    claimed = _play(_deal(allowing, {0: ["1O", "3O", "12O"]}, trump="7O"), "claim")
    assert claimed.is_over and claimed.ledger.black_hand == 0
    assert_impossible(_under(claimed, off), _document_under(claimed, off))


def test_loads_refuses_bids_in_spanish_2p_spec_2_7() -> None:
    """SPEC §2.7: bids exist only in auction variants; spanish-2p turns its trump."""
    state = brisca.new_game(brisca.preset("spanish-2p"), seed=4)
    bid = brisca.Bid(60)
    forged = _with_action(
        state,
        bid,
        to_act=1,
        ledger=attrs.evolve(state.ledger, bids=(BidRecord(0, bid),)),
    )
    document = json.loads(brisca.dumps(state))
    document["actions"] = ["bid 60", "pass"]
    assert_impossible(forged, document)


def test_loads_refuses_the_called_card_in_a_non_partners_hand_spec_2_8() -> None:
    """SPEC §2.8 (RB, CRP): the called card's holder is the secret partner."""
    rules = brisca.preset("chiamata-5p")

    def called(state: State) -> bool:
        contract = state.ledger.contract
        return (
            contract is not None
            and contract.called is not None
            and contract.partner not in (None, contract.declarer)
            and not state.tricks
        )

    state = _random_game_until(rules, called)
    contract = state.ledger.contract
    assert contract is not None and contract.called is not None
    assert contract.partner is not None
    other = next(s for s in range(5) if s not in (contract.declarer, contract.partner))
    given = state.hands[other][0]
    hands = list(state.hands)
    hands[contract.partner] = tuple(
        given if c == contract.called else c for c in hands[contract.partner]
    )
    hands[other] = (contract.called, *hands[other][1:])
    assert_impossible(attrs.evolve(state, hands=tuple(hands)))


def test_loads_refuses_a_seat_not_following_suit_under_arrastre_s004() -> None:
    """S004, SPEC §2.4: once the stock is gone, a seat holding the led suit follows it."""
    arrastre = brisca.preset("arrastre-2p")
    free = attrs.evolve(arrastre, play_obligation="free")

    def bound(state: State) -> bool:
        if not state.trick or state.stock or state.trump_card is not None:
            return False
        led = state.trick[0][1].suit
        hand = state.hands[state.to_act] if state.to_act is not None else ()
        return any(c.suit == led for c in hand) and any(c.suit != led for c in hand)

    state = _random_game_until(arrastre, bound)
    led = state.trick[0][1].suit
    renege = next(c for c in state.hands[state.to_act or 0] if c.suit != led)
    assert not brisca.is_legal(state, brisca.Play(renege))
    reneged = brisca.apply(_under(state, free), brisca.Play(renege))
    assert_impossible(_under(reneged, arrastre), _document_under(reneged, arrastre))


def _after_first_trick() -> State:
    state = brisca.new_game(brisca.preset("spanish-2p"), seed=9)
    while not state.tricks:
        state = brisca.apply(state, brisca.legal_actions(state)[0])
    return state


def test_loads_refuses_a_card_in_two_places_s000() -> None:
    """S000 §1.1: the pack holds each card once; a hand card is also in the stock."""
    state = _after_first_trick()
    hand = (state.stock[0], *state.hands[0][1:])
    assert_impossible(attrs.evolve(state, hands=(hand, state.hands[1])))


def test_loads_refuses_a_trick_credited_to_its_loser_s000() -> None:
    """S000 §1.10: the highest trump, else the highest card of the led suit, wins."""
    state = _after_first_trick()
    trick = state.tricks[0]
    loser = next(seat for seat, _ in trick.cards if seat != trick.winner)
    assert_impossible(attrs.evolve(state, tricks=(attrs.evolve(trick, winner=loser),)))


def test_loads_refuses_trick_points_that_are_not_the_cards_s000() -> None:
    """S000 §1.3: a trick is worth its cards' points."""
    state = _after_first_trick()
    trick = state.tricks[0]
    assert_impossible(attrs.evolve(state, tricks=(attrs.evolve(trick, points=trick.points + 10),)))


def test_loads_refuses_the_trick_loser_leading_next_s000() -> None:
    """S000 §1.8: each trick's winner leads the next."""
    state = _after_first_trick()
    assert state.to_act == state.tricks[0].winner
    assert_impossible(attrs.evolve(state, to_act=1 - state.tricks[0].winner))


def test_loads_refuses_the_trick_loser_drawing_first_s000() -> None:
    """S000 §1.12: the trick's winner draws first, then the others in play order."""
    before = brisca.new_game(brisca.preset("spanish-2p"), seed=9)
    state = _after_first_trick()
    winner = state.tricks[0].winner
    first, second = before.stock[0], before.stock[1]
    hands = [list(h) for h in state.hands]
    hands[winner] = [second if c == first else c for c in hands[winner]]
    hands[1 - winner] = [first if c == second else c for c in hands[1 - winner]]
    assert_impossible(attrs.evolve(state, hands=tuple(tuple(h) for h in hands)))


def test_loads_refuses_a_trump_that_is_not_the_turned_suit_s000() -> None:
    """S000 §1.6: the turned card's suit is trump for the whole hand."""
    state = _after_first_trick()
    assert state.trump_card is not None
    other = next(s for s in Suit if s != state.trump_card.suit)
    assert_impossible(attrs.evolve(state, trump=other))
