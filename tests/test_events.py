"""The event log: what each action did, and what each seat may see of it."""

from __future__ import annotations

import contextlib
import json
import random

import attrs
import pytest
from helpers import forge, observed_cards, play, stacked
from hypothesis import given, settings
from hypothesis import strategies as st

import brisca
from brisca import Card, Observation, State
from brisca.game.events import (
    Announced,
    AuctionWon,
    BlackHandClaimed,
    CardPlayed,
    CardsDrawn,
    Event,
    HandEnded,
    PartnerRevealed,
    Signalled,
    Swapped,
    TrickWon,
    TrumpRevealed,
    events_for,
)
from brisca.game.values import COMPILED

step = brisca.step

seeds = st.integers(min_value=0, max_value=2**64)


def shown_cards(view: Observation) -> set[Card]:
    """Every card an observation shows, wherever it is: a cante shows its Rey and Caballo."""
    return observed_cards(view) | {Card(r, c.suit) for c in view.cantes for r in (11, 12)}


def event_cards(event: Event) -> set[Card]:
    return {v for f in attrs.fields(type(event)) if isinstance(v := getattr(event, f.name), Card)}


def check_against_states(
    before: State, action: brisca.Action, after: State, happened: tuple[Event, ...]
) -> None:
    """The events tell what the two states show changed, read from the states alone."""
    kinds = [type(e) for e in happened]
    assert (CardPlayed in kinds) == isinstance(action, brisca.Play)
    assert kinds.count(TrickWon) == len(after.tricks) - len(before.tricks)
    drawn = {(e.seat, e.card) for e in happened if isinstance(e, CardsDrawn)}
    if not isinstance(action, brisca.Swap):
        moved = {
            (seat, card)
            for seat in range(after.rules.num_players)
            for card in set(after.hands[seat]) - set(before.hands[seat])
        }
        assert drawn == moved
    assert (HandEnded in kinds) == (after.is_over and not before.is_over)
    assert kinds.count(Swapped) == len(after.ledger.swaps) - len(before.ledger.swaps)
    assert kinds.count(Signalled) == len(after.ledger.signals) - len(before.ledger.signals)


def check_views(
    before: State, action: brisca.Action, after: State, happened: tuple[Event, ...]
) -> None:
    """Per-seat events show nothing the seat's observation does not, and all it must."""
    json.dumps([e.to_dict() for e in happened])  # JSON-ready
    for seat in range(after.rules.num_players):
        view = brisca.observe(after, seat)
        seen = events_for(seat, happened)
        for event in seen:
            assert event_cards(event) <= shown_cards(view), (event, seat)
            if isinstance(event, CardsDrawn) and event.card is not None:
                assert event.seat == seat or view.trump_card_drawn == (event.seat, event.card)
        # A seat sees the cards it drew itself.
        mine = {e.card for e in seen if isinstance(e, CardsDrawn) and e.seat == seat}
        new = set(after.hands[seat]) - set(before.hands[seat])
        if not isinstance(action, brisca.Swap):
            assert mine == new
        # Signals: exactly those the observation shows are seen.
        signals = [e for e in seen if isinstance(e, Signalled)]
        assert len(signals) == len(view.signals) - len(brisca.observe(before, seat).signals)


@pytest.mark.parametrize("name", sorted(brisca.PRESETS))
@settings(max_examples=3)
@given(seed=seeds, rng=st.randoms(use_true_random=False))
def test_seat_views_never_reveal_hidden_cards(name: str, seed: int, rng: random.Random) -> None:
    """In random games of every preset, a seat's events show only cards its observation
    shows; a card another seat drew shows only as a draw, unless it is the turned card."""
    rules = brisca.preset(name)
    state = brisca.new_game(rules, seed=seed, dealer=rng.randrange(rules.num_players))
    while not state.is_over:
        options = brisca.legal_actions(state)
        action = options[rng.randrange(len(options))]
        after, happened = step(state, action)
        assert after == brisca.apply(state, action)
        check_against_states(state, action, after, happened)
        check_views(state, action, after, happened)
        state = after


def test_a_completed_trick_reports_the_play_the_win_and_the_draws_s000() -> None:
    """Completing a trick: the card, the winner with its points, then the draws, winner first."""
    rules = brisca.preset("spanish-2p")
    state = play(stacked(rules, {0: ["1C", "4E"], 1: ["3C", "5B"]}, trump="7O"), "1C")
    after, happened = step(state, brisca.Play("3C"))
    drawn = after.hands[0][-1], after.hands[1][-1]
    assert happened == (
        CardPlayed(1, Card.parse("3C")),
        TrickWon(0, 21, 0),
        CardsDrawn(0, drawn[0]),
        CardsDrawn(1, drawn[1]),
    )
    assert events_for(1, happened)[2:] == (CardsDrawn(0, None), CardsDrawn(1, drawn[1]))


def test_the_last_card_drawn_is_the_turned_card_seen_by_all_s000() -> None:
    """The turned card's draw is public: every seat sees who drew which card."""
    rules = brisca.preset("spanish-2p")
    state = brisca.new_game(rules, seed=3)
    while state.trump_card is not None:
        state, happened = step(state, brisca.legal_actions(state)[0])
    turned = state.ledger.trump_card_drawn
    assert turned is not None
    drawer, card = turned
    for seat in (0, 1):
        draws = [e for e in events_for(seat, happened) if isinstance(e, CardsDrawn)]
        assert CardsDrawn(drawer, card, public=True) in draws


def test_cubierta_reveal_follows_the_first_trump_played_spec_2_2() -> None:
    """Under cubierta the first trump-suit card played reveals the covered card to all."""
    rules = brisca.preset("cubierta-2p")
    state = play(stacked(rules, {0: ["4C", "2O"], 1: ["5C", "6C"]}, trump="7O"), "4C", "5C", "6C")
    _, happened = step(state, brisca.Play("2O"))
    assert happened[:2] == (
        CardPlayed(0, Card.parse("2O")),
        TrumpRevealed(brisca.Suit.OROS, Card.parse("7O")),
    )
    _, quiet = step(stacked(rules, {0: ["4C"], 1: ["5C"]}, trump="7O"), brisca.Play("4C"))
    assert not any(isinstance(e, TrumpRevealed) for e in quiet)


def test_a_swap_is_reported_in_view_of_the_table_spec_2_3() -> None:
    """A swap shows both cards to everyone."""
    rules = brisca.preset("puerto-rican-2p")
    state = stacked(rules, {0: ["2O", "4C"]}, trump="5O")
    _, happened = step(state, brisca.Swap("2O"))
    assert happened == (Swapped(0, Card.parse("2O"), Card.parse("5O")),)
    assert events_for(1, happened) == happened


def test_team_private_signals_reach_partners_only_spec_2_9() -> None:
    """A team-private signal is seen by the signaller's side and nobody else."""
    rules = attrs.evolve(brisca.preset("spanish-4p"), signals="team_private")
    state = stacked(rules, {0: ["1O", "3O", "4C"]}, trump="7O")
    _, happened = step(state, brisca.Signal("wink"))
    assert happened == (Signalled(0, "wink", (0, 2)),)
    assert [len(events_for(seat, happened)) for seat in range(4)] == [1, 0, 1, 0]
    public = stacked(brisca.preset("spanish-4p"), {0: ["1O", "3O", "4C"]}, trump="7O")
    _, seen = step(public, brisca.Signal("wink"))
    assert all(events_for(seat, seen) == (Signalled(0, "wink"),) for seat in range(4))


def test_a_black_hand_claim_ends_the_hand_s003() -> None:
    """Claiming a black hand reports the claim and the hand's end."""
    rules = brisca.preset("casino-2p")
    state = stacked(rules, {0: ["1O", "3O", "12O"]}, trump="7O")
    after, happened = step(state, brisca.ClaimBlackHand())
    outcome = brisca.result(after)
    assert happened == (BlackHandClaimed(0), HandEnded(outcome.points, outcome.winner))


def test_an_automatic_black_hand_is_reported_spec_2_5() -> None:
    """A black hand formed by a draw under automatic claims ends the hand by itself."""
    rules = attrs.evolve(brisca.preset("casino-2p"), black_hand_claim="automatic")
    state = stacked(
        rules, {0: ["1O", "3O", "5C"], 1: ["4C", "6C", "7C"]}, trump="7O", stock=["12O"]
    )
    state = play(state, "5C")
    after, happened = step(state, brisca.Play("4C"))  # seat 0 wins and draws the 12
    assert after.is_over and BlackHandClaimed(0, automatic=True) in happened
    assert isinstance(happened[-1], HandEnded)


def test_auction_calls_are_public_spec_2_7() -> None:
    """Bids, passes and the named trump are announced to all; the auction's close and the
    trump are reported."""
    state = brisca.new_game(brisca.preset("subastada-3p"), seed=1)
    log: list[Event] = []
    for action in (brisca.Bid(60), brisca.Pass(), brisca.Pass(), brisca.NameTrump("E")):
        state, happened = step(state, action)
        log += happened
    declarer = log[0].seat  # type: ignore[attr-defined]
    assert log == [
        Announced(declarer, "bid 60"),
        Announced((declarer + 1) % 3, "pass"),
        Announced((declarer + 2) % 3, "pass"),
        AuctionWon(declarer, "bid 60"),
        Announced(declarer, "trump E"),
        TrumpRevealed(brisca.Suit.ESPADAS, None),
    ]


def test_chiamata_partner_is_revealed_by_the_called_card_rb() -> None:
    """Playing the called card reveals the secret partner to everyone."""
    state = brisca.new_game(brisca.preset("chiamata-5p"), seed=2)
    for action in (brisca.BidRank(3), brisca.Pass(), brisca.Pass(), brisca.Pass(), brisca.Pass()):
        state = brisca.apply(state, action)
    caller = state.to_act
    assert caller is not None
    called = next(Card(3, s) for s in brisca.Suit if Card(3, s) not in state.hands[caller])
    state, happened = step(state, brisca.CallCard(called))
    assert TrumpRevealed(called.suit, None) in happened
    partner = state.ledger.contract.partner  # type: ignore[union-attr]
    revealed = []
    while not state.is_over:
        plays = [a for a in brisca.legal_actions(state) if isinstance(a, brisca.Play)]
        pick = next((a for a in plays if a.card is called), plays[0])
        state, happened = step(state, pick)
        revealed += [e for e in happened if isinstance(e, PartnerRevealed)]
    assert revealed == [PartnerRevealed(partner)]  # type: ignore[arg-type]


def test_step_and_views_refuse_bad_input() -> None:
    """step refuses what is not a state and an illegal action; events_for, a bad seat or event."""
    state = brisca.new_game(brisca.preset("spanish-2p"), seed=7)
    with pytest.raises(brisca.StateError):
        step("state", brisca.legal_actions(state)[0])  # type: ignore[arg-type]
    with pytest.raises(brisca.StateError):
        events_for(-1, ())
    with pytest.raises(brisca.StateError):
        events_for(0, ["not an event"])  # type: ignore[list-item]
    with pytest.raises(brisca.IllegalActionError):
        step(state, brisca.Play("12E"))


def test_event_dicts_name_their_type() -> None:
    """Events become JSON-ready dicts with a snake_case type."""
    assert CardPlayed(0, Card.parse("3C")).to_dict() == {
        "type": "card_played",
        "seat": 0,
        "card": "3C",
    }
    assert HandEnded((70, 50), 0).to_dict() == {
        "type": "hand_ended", "points": [70, 50], "winner": 0, "void": False,
    }  # fmt: skip


@pytest.mark.parametrize("name", sorted(brisca.PRESETS))
def test_the_quiet_play_shortcut_tells_what_the_full_step_tells(name: str) -> None:
    """Under rules where no variant watches plays and the trump is in view, `step` answers a
    card with its own event, and the trick it completes with its winner, the draws and the
    end, skipping the general path; that path, asked the same, agrees at every play."""
    from brisca.game.engine import _advance, _plan_of

    rng = random.Random(name)
    quiet = 0
    for seed in range(4):
        state = brisca.new_game(brisca.preset(name), seed=seed)
        while not state.is_over:
            action = rng.choice(brisca.legal_actions(state))
            if isinstance(action, brisca.Play):
                assert state.to_act is not None
                log: list[Event] = [CardPlayed(state.to_act, action.card)]
                full = _advance(state, action, log, _plan_of(state.seating))
                assert step(state, action) == (full, tuple(log))
                quiet += len(log) == 1
            state = brisca.apply(state, action)
    assert quiet > 0


def test_an_endless_iterable_of_events_is_refused_not_followed() -> None:
    """events_for and narrate read an iterable that is not a list or tuple one event
    past MAX_EVENTS at most, where an endless one had been followed until memory ran
    out; a step's own tuple is read as it is."""
    import itertools

    from brisca.formats.text import narrate
    from brisca.game.events import MAX_EVENTS, events_for

    after, happened = brisca.step(brisca.new_game(brisca.preset("spanish-2p"), seed=7), "2O")
    assert events_for(1, iter(happened)) == events_for(1, happened)
    for read in (lambda e: events_for(0, e), lambda e: narrate(after, e)):
        with pytest.raises(brisca.StateError, match="MAX_EVENTS"):
            read(itertools.repeat(happened[0]))
        with pytest.raises(brisca.StateError, match="MAX_EVENTS"):
            read(itertools.repeat(happened[0], MAX_EVENTS + 1))


_ODD_SEATS = (-1, -2, -6, 1.0, True, 6, 7, 8, 2**70)


def _check_events(state: State, action: brisca.Action, exact: bool = True) -> None:
    """The events of stepping `state` by `action` carry the seats that state and the
    next give (as exact ints, if `exact`), and the cards and points of the play."""
    after, events = brisca.step(state, action)
    for event in events:
        if exact and isinstance(event, (CardPlayed, TrickWon, CardsDrawn)):
            assert type(event.seat) is int, event  # not 1.0, nor True
        if isinstance(event, CardPlayed):
            assert (event.seat, event.card) == (state.to_act, action.card)  # type: ignore[union-attr]
            assert type(event.seat) is _held(state.to_act), event  # its own seat, True too
        elif isinstance(event, TrickWon):
            won = after.tricks[-1]
            assert (event.seat, event.points) == (won.winner, won.points), event
            assert type(event.seat) is _held(won.winner), event
            assert type(event.points) is type(won.points) and event.trick == len(after.tricks) - 1
        elif isinstance(event, CardsDrawn):
            assert event.card in after.hands[event.seat]


def _held(seat: object) -> type:
    """The type an event's seat field holds `seat` as: compiled, an int field holds a
    bool as that int (see helpers.forge)."""
    return int if COMPILED and type(seat) is bool else type(seat)


def _agree(state: State, action: brisca.Action) -> None:
    """apply and step agree on `state`, hand-built as it may be: the same state next, with
    events of its own seats, or the same refusal."""
    try:
        applied = brisca.apply(state, action)
    except brisca.BriscaError as error:
        with pytest.raises(type(error)):
            brisca.step(state, action)
        return
    assert brisca.step(state, action)[0] == applied
    _check_events(state, action, exact=False)


def _steps_of_a_game(seed: int) -> None:
    """A spanish-6p game by step, every event's seat exactly the game's own."""
    state = brisca.new_game("spanish-6p", seed=seed)
    while not state.is_over:
        action = brisca.legal_actions(state)[-1]
        _check_events(state, action)
        state = brisca.apply(state, action)


def test_a_hand_built_states_events_never_come_back_in_a_games() -> None:
    """step keeps the events of plays, draws and tricks to hand them out again. A
    hand-built state's seat that no table has (negative, past the table, or no int)
    is neither given a game's event nor kept where a game's events are looked up: each
    odd state's events carry its own seat, and real games', after, theirs."""
    for seed in range(6):  # every seat's events kept
        _steps_of_a_game(seed)
    base = brisca.new_game("spanish-6p", seed=0)
    last = base  # the game of seed 0 at the last card of its first trick, which seat 1 wins
    while len(last.trick) < 5 or not isinstance(brisca.legal_actions(last)[-1], brisca.Play):
        last = brisca.apply(last, brisca.legal_actions(last)[-1])
    winner = brisca.apply(last, brisca.legal_actions(last)[-1]).tricks[0].winner
    # Its winner as a float too: kept, that trick's event would come back to the game.
    drawing = brisca.apply(brisca.new_game("spanish-2p", seed=5), "2O")
    won = brisca.legal_actions(drawing)[0]  # it ends the trick, and its winner draws
    for odd in (*_ODD_SEATS, float(winner)):
        odd_trick = tuple((odd, card) for _, card in last.trick)
        for state in (forge(base, to_act=odd), forge(last, trick=odd_trick)):
            if state is None:  # the compiled build refuses it as it is made
                continue
            with contextlib.suppress(brisca.BriscaError):
                for action in brisca.legal_actions(state):
                    _agree(state, action)
        # A table whose rotation gives the winner of the next trick an odd seat to draw to.
        trick = brisca.apply(drawing, won)
        rotation = list(drawing.seating.rotation)
        rotation[trick.tricks[-1].winner] = (trick.tricks[-1].winner, odd)
        table = forge(drawing.seating, rotation=tuple(rotation))
        if table is not None:
            odd_table = forge(drawing, seating=table, hands=drawing.hands + ((),) * 5)
            if odd_table is not None:
                _agree(odd_table, won)
    for seed in (0, *range(6, 12)):
        _steps_of_a_game(seed)
