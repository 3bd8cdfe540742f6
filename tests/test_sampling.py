"""Determinization: sampled states are consistent with what the seat knows, and honour
every inference the rules allow."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator

import attrs
import pytest
from helpers import forge, play, stacked
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants, play_random_game
from strategies import variant_rules

import brisca
from brisca import Card, Observation, State, Suit
from brisca.agents.encoding import encode_observation, encoding_size
from brisca.agents.sampling import known_hands, sample_state, unseen_cards
from brisca.game.rng import Generator
from brisca.game.variants.arrastre import known_voids

seeds = st.integers(min_value=0, max_value=2**64)


def random_states(rules: brisca.Rules, seed: int, rng: random.Random) -> Iterator[State]:
    """Every state of a random game, the deal first."""
    state = brisca.new_game(rules, seed=seed, dealer=rng.randrange(rules.num_players))
    yield state
    while not state.is_over:
        options = brisca.legal_actions(state)
        state = brisca.apply(state, options[rng.randrange(len(options))])
        yield state


def place(state: State, card: Card) -> str:
    """Where a card lies: a seat's hand, the stock, the covered card or the table."""
    for seat, hand in enumerate(state.hands):
        if card in hand:
            return f"hand {seat}"
    if card in state.stock:
        return "stock"
    if card == state.trump_card:
        return "turned"
    return "played"


def check_inferences(view: Observation, sample: State) -> None:
    """What no sample may contradict, checked here from the rules directly rather than through
    the sampler's own reasoning."""
    seat = view.seat
    assert brisca.observe(sample, seat) == view
    assert sample.seed is None
    brisca.check_state(sample)
    check_invariants(sample)
    # Known cards stay where they are known to be.
    for other, cards in enumerate(known_hands(view)):
        assert cards <= set(sample.hands[other])
    # SPEC §2.4: a seat that showed a void holds none of that suit.
    for other, suits in enumerate(view.voids):
        assert not any(c.suit in suits for c in sample.hands[other])
    # Arrastre once the talon is gone: a follower that followed without beating the winning
    # card of the led suit holds no higher card of it (S004: must follow and beat).
    rules = view.rules
    if rules.play_obligation is not brisca.PlayObligation.FREE and rules.arrastre_must_beat:
        strength = {c: rules.card_strength(c) for c in rules.cards}
        active = rules.active_players
        rounds = (len(rules.cards) - rules.hand_size * active) // active
        tricks = [t.cards for t in view.tricks] + [view.trick]
        for cards in tricks[rounds:]:
            if not cards:
                continue
            led, best = cards[0][1].suit, cards[0][1]
            for other, card in cards[1:]:
                if card.suit is led and best.suit is led and strength[card] < strength[best]:
                    higher = [
                        c
                        for c in sample.hands[other]
                        if c.suit is led and strength[c] > strength[best]
                    ]
                    assert not higher, (other, best, higher)
                beats = card.suit is best.suit and strength[card] > strength[best]
                if beats or (card.suit is view.trump and best.suit is not view.trump):
                    best = card
    # SPEC §2.9: honest signals: a seat that still holds its dealt hand holds what it said.
    vocab = brisca.game.variants.signals.VOCABULARIES[rules.signal_vocabulary]
    for record in view.signals:
        dealt = sample.deal.hands[record.seat]
        if record.trick == 0 and not any(s.seat == record.seat for s in view.swaps):
            ranks = frozenset(c.rank for c in dealt if c.suit is sample.trump)
            assert vocab[record.signal](ranks)
    # SPEC §2.2: a covered card is of a suit nobody has played.
    if view.trump is None and sample.trump_card is not None:
        played = {c.suit for _, c in view.trick} | {c.suit for t in view.tricks for _, c in t.cards}
        assert sample.trump_card.suit not in played


@pytest.mark.parametrize("name", sorted(brisca.PRESETS))
@settings(max_examples=3)
@given(seed=seeds, rng=st.randoms(use_true_random=False))
def test_samples_look_the_same_to_the_seat_and_honour_every_inference(
    name: str, seed: int, rng: random.Random
) -> None:
    """In random games of every preset, each sample is a legal state that the observing seat
    cannot tell from the real one, that breaks no inference, and that plays on to the end."""
    rules = brisca.preset(name)
    generator = Generator(seed)
    played_on = False
    for state in random_states(rules, seed, rng):
        if rng.random() < 0.6:
            continue
        seat = rng.randrange(rules.num_players)
        view = brisca.observe(state, seat)
        sample = sample_state(view, generator)
        check_inferences(view, sample)
        if not played_on and not sample.is_over:
            play_random_game(sample, rng, check=False)
            played_on = True


def witnesses(
    start: State, actions: list[brisca.Action], seat: int, rng: random.Random, tries: int
) -> Iterator[State]:
    """Other worlds the seat cannot tell from the real one, found independently of the
    sampler: the real game replayed from decks whose unseen cards are shuffled."""
    from brisca.formats.records import deck_order

    deck = list(deck_order(start))
    end = start
    for action in actions:
        end = brisca.apply(end, action)
    view = brisca.observe(end, seat)
    unseen = unseen_cards(view)
    positions = [i for i, c in enumerate(deck) if c in unseen]
    for _ in range(tries):
        cards = [deck[i] for i in positions]
        rng.shuffle(cards)
        other = list(deck)
        for i, card in zip(positions, cards, strict=True):
            other[i] = card
        state = brisca.new_game(start.rules, deck=other, dealer=start.dealer)
        try:
            for action in actions:
                state = brisca.apply(state, action)
        except brisca.IllegalActionError:
            continue
        if brisca.observe(state, seat) == view:
            yield state


@pytest.mark.parametrize("stage", ["early", "late"])
@pytest.mark.parametrize("name", sorted(brisca.PRESETS))
def test_every_possible_placement_turns_up(name: str, stage: str) -> None:
    """Over many samples, each unseen card turns up in every place where it lies in some
    world the seat cannot tell from the real one (the real world, and worlds found by
    replaying the real game from shuffled decks); early in a hand, and late, once the
    talon is gone and arrastre binds."""
    rules = brisca.preset(name)
    rng = random.Random(name)
    start = state = brisca.new_game(rules, seed=17, dealer=rules.num_players - 1)
    actions: list[brisca.Action] = []
    early = 4 * rules.num_players
    late = rules.tricks_per_hand * rules.active_players - 2 * rules.active_players
    while len(actions) < (early if stage == "early" else late) and not state.is_over:
        options = brisca.legal_actions(state)
        actions.append(options[rng.randrange(len(options))])
        state = brisca.apply(state, actions[-1])
    seat = next(s for s in range(rules.num_players) if state.hands[s])
    view = brisca.observe(state, seat)
    unseen = unseen_cards(view)
    possible = {(c, place(state, c)) for c in unseen}
    for world in witnesses(start, actions, seat, rng, 30):
        possible |= {(c, place(world, c)) for c in unseen}
    found = set()
    generator = Generator(7)
    for _ in range(200):
        sample = sample_state(view, generator)
        found |= {(c, place(sample, c)) for c in unseen}
    assert possible <= found, possible - found
    if len({p for _, p in found}) > 1:
        assert len(possible) > len(unseen)  # the witnesses move cards too


def test_an_arrastre_void_is_never_refilled_s004() -> None:
    """A seat that failed to follow suit after the stock never gets that suit in a sample,
    though other seats do."""
    rules = brisca.preset("arrastre-4p")

    def cases() -> Iterator[tuple[Observation, int, frozenset[Suit]]]:
        for seed in range(300):
            for state in random_states(rules, seed, random.Random(seed)):
                for seat, lacking in enumerate(known_voids(state)):
                    view = brisca.observe(state, (seat + 1) % 4)
                    unseen = unseen_cards(view)
                    if len(state.hands[seat]) >= 2 and any(c.suit in lacking for c in unseen):
                        yield view, seat, lacking

    view, void_seat, lacking = next(cases())
    generator = Generator(1)
    for _ in range(60):
        sample = sample_state(view, generator)
        assert not any(c.suit in lacking for c in sample.hands[void_seat])


def test_the_drawn_turned_card_stays_with_its_drawer_s000() -> None:
    """Everyone sees who drew the turned card: samples leave it in that hand until played."""
    rules = brisca.preset("spanish-2p")
    state = brisca.new_game(rules, seed=21)
    while state.trump_card is not None:
        state = brisca.apply(state, brisca.legal_actions(state)[0])
    drawer, card = state.ledger.trump_card_drawn  # type: ignore[misc]
    view = brisca.observe(state, 1 - drawer)
    for k in range(20):
        assert card in sample_state(view, Generator(k)).hands[drawer]


def test_a_swapped_in_card_stays_with_its_taker_spec_2_3() -> None:
    """A swap is made in view: the taker keeps the turned card, and the card given is turned."""
    rules = brisca.preset("puerto-rican-2p")
    state = brisca.apply(stacked(rules, {0: ["2O", "4C"]}, trump="5O"), brisca.Swap("2O"))
    view = brisca.observe(state, 1)
    for k in range(20):
        sample = sample_state(view, Generator(k))
        assert Card.parse("5O") in sample.hands[0]
        assert sample.trump_card == Card.parse("2O")
        assert sample.ledger.swaps == state.ledger.swaps


def test_cards_partners_showed_stay_with_them_wb() -> None:
    """Under show_after_deal, the partner's dealt hand is known: samples deal it the same."""
    rules = attrs.evolve(brisca.preset("spanish-4p"), partner_hand_visibility="show_after_deal")
    state = brisca.new_game(rules, seed=4)
    for _ in range(6):
        state = brisca.apply(state, brisca.legal_actions(state)[-1])
    view = brisca.observe(state, 0)
    for k in range(20):
        sample = sample_state(view, Generator(k))
        assert sample.deal.hands[2] == state.deal.hands[2]
        assert set(state.hands[2]) & set(state.deal.hands[2]) <= set(sample.hands[2])


def test_honest_signals_are_believed_s000() -> None:
    """A seat that signalled 'wink' (the 1 and the 3 of trumps) was dealt both in every
    sample; one that made 'lip_bite' (the 1 without the 3) was dealt the 1 and not the 3."""
    rules = brisca.preset("spanish-4p")
    state = stacked(rules, {0: ["4C", "5C", "6C"], 1: ["1O", "3O", "4E"]}, trump="7O")
    state = brisca.apply(play(state, "4C"), brisca.Signal("wink"))
    view = brisca.observe(state, 0)
    for k in range(30):
        sample = sample_state(view, Generator(k))
        assert {Card.parse("1O"), Card.parse("3O")} <= set(sample.hands[1])
    alone = stacked(rules, {0: ["4C", "5C", "6C"], 1: ["1O", "4E", "5E"]}, trump="7O")
    alone = brisca.apply(play(alone, "4C"), brisca.Signal("lip_bite"))
    view = brisca.observe(alone, 2)
    for k in range(30):
        dealt = sample_state(view, Generator(k)).deal.hands[1]
        assert Card.parse("1O") in dealt and Card.parse("3O") not in dealt


def test_a_covered_card_is_sampled_from_unplayed_suits_spec_2_2() -> None:
    """Under cubierta the covered card may be any unseen card of a suit nobody has played;
    the samples vary it and keep the trump hidden."""
    rules = brisca.preset("cubierta-2p")
    state = play(
        stacked(rules, {0: ["4C", "5E", "6E"], 1: ["5C", "6C", "7E"]}, trump="7O"), "4C", "5C"
    )
    view = brisca.observe(state, 0)
    assert view.trump is None
    covered = set()
    for k in range(80):
        sample = sample_state(view, Generator(k))
        assert sample.trump_card is not None and sample.trump_card.suit is not Suit.COPAS
        assert sample.trump is sample.trump_card.suit
        covered.add(sample.trump_card)
    assert Card.parse("7O") in covered and len({c.suit for c in covered}) == 3


def test_the_chiamata_partner_stays_secret_spec_2_8() -> None:
    """Until the called card is played, samples put it with any seat but the observer, and
    the true sides follow it."""
    rules = brisca.preset("chiamata-5p")
    state = brisca.new_game(rules, seed=2)
    for action in (brisca.BidRank(3), brisca.Pass(), brisca.Pass(), brisca.Pass(), brisca.Pass()):
        state = brisca.apply(state, action)
    caller = state.to_act
    assert caller is not None
    called = next(Card(3, s) for s in Suit if Card(3, s) not in state.hands[caller])
    state = brisca.apply(state, brisca.CallCard(called))
    observer = next(s for s in range(5) if s != caller and called not in state.hands[s])
    view = brisca.observe(state, observer)
    holders = set()
    for k in range(60):
        sample = sample_state(view, Generator(k))
        holder = next(s for s in range(5) if called in sample.hands[s])
        assert holder != observer
        assert sample.ledger.contract.partner == holder  # type: ignore[union-attr]
        holders.add(holder)
    assert len(holders) >= 3


def test_a_claimed_black_hand_is_held_s003() -> None:
    """After a black-hand claim, samples give the claimer the 1, 3 and 12 of trumps."""
    rules = brisca.preset("casino-2p")
    state = brisca.apply(
        stacked(rules, {0: ["1O", "3O", "12O"]}, trump="7O"), brisca.ClaimBlackHand()
    )
    view = brisca.observe(state, 1)
    for k in range(10):
        sample = sample_state(view, Generator(k))
        assert {Card.parse(c) for c in ("1O", "3O", "12O")} <= set(sample.hands[0])
        assert sample.is_over and sample.ledger.black_hand == 0


def test_the_same_generator_seed_gives_the_same_samples() -> None:
    """Samples come from the library's generator only: a seed fixes them."""
    state = brisca.new_game(brisca.preset("spanish-4p"), seed=9)
    for _ in range(9):
        state = brisca.apply(state, brisca.legal_actions(state)[0])
    view = brisca.observe(state, 3)
    first = [sample_state(view, Generator(5)) for _ in range(1)]
    again = [sample_state(view, Generator(5)) for _ in range(1)]
    assert first == again
    assert sample_state(view, Generator(6)) != first[0] or len(unseen_cards(view)) <= 1


def test_known_hands_and_unseen_cards_partition_the_pack() -> None:
    """Own hand, other known cards, played cards, the face-up card and the unseen cards
    account for the whole pack, once each."""
    rules = brisca.preset("puerto-rican-4p")
    for state in random_states(rules, 3, random.Random(3)):
        view = brisca.observe(state, 2)
        known = known_hands(view)
        assert known[2] == frozenset(view.hand)
        played = [c for _, c in view.trick] + [c for t in view.tricks for _, c in t.cards]
        table = [view.trump_card] if view.trump_card is not None else []
        everything = [c for k in known for c in k] + played + table + list(unseen_cards(view))
        assert sorted(map(str, everything)) == sorted(map(str, rules.cards))


def test_bad_input_is_refused_with_a_brisca_error() -> None:
    """A non-observation, a non-generator, or an observation no game could give: StateError."""
    view = brisca.observe(brisca.new_game(brisca.preset("spanish-2p"), seed=1), 0)
    with pytest.raises(brisca.StateError):
        sample_state("view", Generator(1))  # type: ignore[arg-type]
    with pytest.raises(brisca.StateError):
        sample_state(view, random.Random(1))  # type: ignore[arg-type]
    with pytest.raises(brisca.StateError):
        known_hands(None)  # type: ignore[arg-type]
    for bad in (
        attrs.evolve(view, stock_size=view.stock_size + 1),
        attrs.evolve(view, hand_sizes=(3, 4)),
        attrs.evolve(view, hand_sizes=(3,)),
        attrs.evolve(view, seat=5),
        attrs.evolve(view, hand=(*view.hand[:2], view.trump_card)),
        attrs.evolve(view, voids=(frozenset(), frozenset(Suit))),
    ):
        with pytest.raises(brisca.StateError):
            sample_state(bad, Generator(1))


@settings(max_examples=30)
@given(rules=variant_rules, seed=seeds, rng=st.randoms(use_true_random=False))
def test_samples_hold_under_any_variant_combination(
    rules: brisca.Rules, seed: int, rng: random.Random
) -> None:
    """Any valid combination of variant options (arrastre from the first trick, swaps,
    black hands, both signal vocabularies) gives samples consistent with the observation."""
    generator = Generator(seed)
    for state in random_states(rules, seed, rng):
        if rng.random() < 0.5:
            seat = rng.randrange(rules.num_players)
            view = brisca.observe(state, seat)
            check_inferences(view, sample_state(view, generator))


junk = st.one_of(
    st.none(),
    st.integers(min_value=-3, max_value=60),
    st.tuples(),
    st.tuples(st.integers(min_value=-1, max_value=6)),
    st.tuples(st.integers(min_value=0, max_value=6), st.integers(min_value=0, max_value=6)),
    st.frozensets(st.sampled_from(list(Suit)), max_size=2),
    st.sampled_from([Card.parse("1O"), Card.parse("8B"), Suit.OROS, "1O", (0, Card.parse("1O"))]),
)


@settings(max_examples=120)
@given(
    name=st.sampled_from(sorted(brisca.PRESETS)),
    pick=st.integers(min_value=0, max_value=10**6),
    field=st.sampled_from([f.name for f in attrs.fields(Observation) if f.name != "rules"]),
    value=junk,
)
def test_nonsense_observations_fail_as_brisca_errors(
    name: str, pick: int, field: str, value: object
) -> None:
    """An observation with any field replaced by junk is sampled consistently, or refused with
    a StateError; the numeric encoding likewise never fails otherwise."""
    rng = random.Random(pick)
    states = list(random_states(brisca.preset(name), pick, rng))
    state = states[rng.randrange(len(states))]
    view = brisca.observe(state, rng.randrange(state.rules.num_players))
    bad = forge(view, **{field: value})
    if bad is None:  # the compiled build refuses a field of the wrong type at once
        return
    import brisca.agents.sampling as sampling

    limit, sampling.MAX_ATTEMPTS = sampling.MAX_ATTEMPTS, 50  # keep refusals quick
    try:
        sample = sample_state(bad, Generator(pick))
    except brisca.StateError:
        pass
    else:
        assert brisca.observe(sample, bad.seat) == bad
    finally:
        sampling.MAX_ATTEMPTS = limit
    with contextlib.suppress(brisca.StateError):
        assert len(encode_observation(bad)) == encoding_size(bad.rules)


@pytest.mark.parametrize("game", [4, 8, 10, 11])
def test_subastada_with_arrastre_always_finds_a_world_spec_2_4_2_7(game: int) -> None:
    """SPEC §2.4 under §2.7: the sampler honours the arrastre duties after an auction too,
    so every view of a real game yields a sample. These games used to exhaust the tries
    for some generator seeds, when the duties were left to the replay to check."""
    rules = attrs.evolve(brisca.preset("subastada-4p"), play_obligation="arrastre_whole_hand")
    rng = random.Random(game)
    state = brisca.new_game(rules, seed=game, dealer=game % 4)
    while not state.is_over:
        if state.trump is not None and state.trick:
            view = brisca.observe(state, state.to_act)
            for k in range(3):
                check_inferences(view, sample_state(view, Generator(k)))
        options = brisca.legal_actions(state)
        state = brisca.apply(state, options[rng.randrange(len(options))])
