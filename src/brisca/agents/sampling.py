"""Determinization: full states consistent with what one seat knows.

:func:`sample_state` turns an :class:`~brisca.Observation` into a whole
:class:`~brisca.State` (hidden hands, stock order, a covered trump card) that
the observing seat cannot tell from the real one: ``observe(sample, seat) ==
observation``. Search bots (perfect-information Monte Carlo, ISMCTS) sample
many and play each out.

**How.** A sample is a whole history, not just a current position. The sampler
deals the unseen cards to the places they may be (each hidden hand, the stock,
a covered turned card), then to the moments each seat received its cards (the
deal, or the draw after some trick), so that every card a seat played or gave
was in its hand in time. It builds the deck order that deals that history and
replays every public action through the engine (:func:`brisca.apply`), and
keeps the sample only if every action is legal and the seat's view comes out
identical. So every rule the engine enforces is honoured, by construction:

- the turned card's known path: swaps take it, ``trump_card_drawn`` says who drew it;
- hand sizes, and cards partners showed (``partner_hand_visibility``);
- arrastre: the voids play revealed, and the higher cards a seat that did not
  beat cannot hold;
- honest signals: a seat that signalled the 1 of trumps held it then;
- a black hand's holder holds the 1, 3 and 12 of trumps; cantes' Rey and Caballo
  stay in the singer's hand until played;
- cubierta: a covered card is of a suit nobody has played yet;
- chiamata: the called card lies with a seat the observer cannot rule out.

The hard inferences above also guide the proposal, so that few candidates are
refused; the arrastre duties do so after an auction too, since `Rules` allows
partner relief only where the sides are public. Every consistent placement can
come out, but the samples are not exactly uniform over the consistent histories:
the unseen cards are dealt uniformly to the places they may be, and then each
seat's arrival order is searched at random. Samples are drawn with the library's
:class:`~brisca.game.rng.Generator`, so a seed gives the same samples everywhere.
The sample's ``seed`` is ``None`` and its ``deal`` is one consistent
deal: both are hidden.

**A view no deal can give.** A view edited by hand may contradict itself. Before
any try, the sampler refuses one whose record its rules could never produce (an
action they never offer, such as a black-hand claim where black hands are off), that
shows a card in two places, a seat holding a suit it is void in, or a black hand,
cante or honest signal whose cards are seen where its seat cannot have had them, or
whose hidden hands no dealing of the unseen cards can fill (a matching of cards to
hands, their sizes and what each is ruled out of). A replay that plays every public
action but differs from the view where the unseen cards cannot matter (whose turn it
is, a trick's winner) stops the tries at once. So such views are refused for about
the cost of one sample.

**When it gives up.** The search is randomised, not exhaustive: :func:`sample_state`
proposes at most :data:`MAX_ATTEMPTS` histories and raises :class:`StateError` if
none replays. Proposals honour the inferences listed above; the replay refuses
what they leave out, chiefly an automatic black hand (``black_hand_claim=
'automatic'``) that a proposed hidden hand would have set off. Two randomised
steps can also dead-end: dealing the unseen cards to the hidden hands, most
constrained first, and the bounded search for each seat's arrival order. So an
observation with very few consistent worlds among the proposals can, in
principle, exhaust the tries although a world exists. None did in about 36,000
samples at random moments of random games under random valid rules, nor in
47,000 under subastada-4p with arrastre (0.5 ms median per sample).

>>> import brisca
>>> from brisca.game.rng import Generator
>>> from brisca.agents.sampling import sample_state
>>> state = brisca.new_game(brisca.preset("arrastre-2p"), seed=5)
>>> for _ in range(25):
...     state = brisca.apply(state, brisca.legal_actions(state)[0])
>>> view = brisca.observe(state, 0)
>>> sample = sample_state(view, Generator(1))
>>> brisca.observe(sample, 0) == view
True
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterator, Sequence

import attrs

from brisca.game.actions import (
    Action,
    CallCard,
    ClaimBlackHand,
    NameTrump,
    Play,
    Signal,
    Sing,
    Swap,
)
from brisca.game.cards import Card, Suit
from brisca.game.engine import MAX_HAND_NUMBER, apply, deal_layout, is_legal, new_game, observe
from brisca.game.errors import (
    BriscaError,
    StateError,
    as_state_error,
    checked_int,
    checked_type,
    describe,
)
from brisca.game.rng import Generator
from brisca.game.rules import BlackHand, BlackHandClaim, PlayObligation, Rules, TeamMode
from brisca.game.state import Contract, Observation, Seating, SignalRecord, State
from brisca.game.variants import owner
from brisca.game.variants.black_hand import RANKS as BLACK_HAND_RANKS
from brisca.game.variants.cantes import pair
from brisca.game.variants.signals import VOCABULARIES, Truth

__all__ = ["MAX_ATTEMPTS", "knowledge", "known_hands", "sample_state", "unseen_cards"]

#: How many candidate histories :func:`sample_state` tries before it gives up: its
#: budget, spent only on views it cannot tell from possible ones (a try costs about
#: half a millisecond).
MAX_ATTEMPTS = 2000
#: How many arrival orders it tries per seat for one dealing of the unseen cards.
_SEAT_TRIES = 30
#: The time of a dealt card; a card drawn after trick ``r`` has time ``r``.
_DEALT = -1
#: The deadline of a card that is never needed before the present.
_NEVER = 10**9


def known_hands(observation: Observation) -> tuple[frozenset[Card], ...]:
    """For each seat, the cards `observation`'s seat knows it holds now.

    Its own hand; a partner's dealt cards it was shown; the turned card a seat
    took by a swap or drew last; the Rey and Caballo a seat sang; each until
    played or given away.

    Raises:
        StateError: `observation` is not an Observation.
    """
    _check_observation(observation)
    with as_state_error("the observation"):
        return _known_hands(observation)


def knowledge(
    observation: Observation,
) -> tuple[tuple[frozenset[Card], ...], frozenset[Card]]:
    """:func:`known_hands` and :func:`unseen_cards` of `observation` at once, for
    a program that reads both at every step (the numeric encoding).

    Raises:
        StateError: `observation` is not an Observation.
    """
    _check_observation(observation)
    with as_state_error("the observation"):
        played = _played(observation)
        known = _known_hands(observation, played)
        return known, _unseen(observation, known, played)


def _known_hands(obs: Observation, played: set[Card] | None = None) -> tuple[frozenset[Card], ...]:
    out = list(_claimed(obs, played))
    out[obs.seat] = frozenset(obs.hand)
    return tuple(out)


def _claimed(obs: Observation, played: set[Card] | None = None) -> tuple[frozenset[Card], ...]:
    """For each seat, the cards the public record says it holds, the observer's own hand
    aside: what it was shown, took by a swap, drew face up or sang, and has not played."""
    known: list[set[Card]] = [set() for _ in obs.hand_sizes]
    for seat, dealt in obs.partner_hands:
        known[seat] |= set(dealt)
    for swap in obs.swaps:  # in the order made, so a card given on is followed
        known[swap.seat].discard(swap.given)
        known[swap.seat].add(swap.taken)
    for cante in obs.cantes:
        known[cante.seat] |= set(pair(cante.suit))
    if obs.trump_card_drawn is not None:
        known[obs.trump_card_drawn[0]].add(obs.trump_card_drawn[1])
    if played is None:
        played = _played(obs)
    return tuple(frozenset(k - played) for k in known)


def unseen_cards(observation: Observation) -> frozenset[Card]:
    """The cards whose place `observation`'s seat cannot know: in other hands, the stock
    or a covered turned card.

    Raises:
        StateError: `observation` is not an Observation.
    """
    _check_observation(observation)
    with as_state_error("the observation"):
        return _unseen(observation, _known_hands(observation))


def _unseen(
    obs: Observation, known: Sequence[frozenset[Card]], played: set[Card] | None = None
) -> frozenset[Card]:
    located = set(obs.hand) | (_played(obs) if played is None else played)
    located.update(*known)
    if obs.trump_card is not None:
        located.add(obs.trump_card)
    return frozenset(c for c in obs.rules.cards if c not in located)


def _played(obs: Observation) -> set[Card]:
    return {c for _, c in obs.trick} | {c for t in obs.tricks for _, c in t.cards}


def _check_observation(observation: object) -> None:
    checked_type(observation, Observation)


def _check_shape(obs: Observation) -> None:
    """Refuse, before any try, a view whose seat, dealer or hand number, or a field that a
    try compares after its replay (`_Model.chance_fields`), is of a type or range
    :func:`~brisca.observe` never gives: every try would fail on it (the deal refuses it,
    or the view never comes out equal), after spending the whole budget of tries."""
    seats = obs.rules.num_players
    checked_int(obs.seat, "the observation's seat", 0, seats - 1)
    checked_int(obs.dealer, "the observation's dealer", 0, seats - 1)
    checked_int(obs.hand_number, "the observation's hand_number", 0, MAX_HAND_NUMBER)
    hand = obs.hand
    if type(hand) is not tuple or not all(type(card) is Card for card in hand):
        raise StateError("the observation's hand is not a tuple of Cards")
    if len(set(hand)) != len(hand):
        raise StateError("the observation's hand holds a card twice")
    seat_fields: tuple[tuple[str, object], ...] = (
        ("to_act", obs.to_act),
        ("black_hand", obs.black_hand),
    )
    for what, value in seat_fields:
        if value is not None:
            checked_int(value, f"the observation's {what}", 0, seats - 1)
    typed: tuple[tuple[str, object, type], ...] = (
        ("trump", obs.trump, Suit),
        ("trump_card", obs.trump_card, Card),
        ("contract", obs.contract, Contract),
    )
    for what, value, kind in typed:
        if value is not None and type(value) is not kind:
            raise StateError(f"the observation's {what} is not a {kind.__name__} or None")
    sides = obs.sides
    if (
        type(sides) is not tuple
        or not sides
        or not all(
            type(side) is tuple and side and all(type(s) is int and 0 <= s < seats for s in side)
            for side in sides
        )
    ):
        raise StateError("the observation's sides are not tuples of seats")
    seated = [s for side in sides for s in side]
    if len(set(seated)) != len(seated):
        raise StateError("the observation's sides hold a seat twice")
    signals = obs.signals
    if type(signals) is not tuple or not all(type(r) is SignalRecord for r in signals):
        raise StateError("the observation's signals are not a tuple of SignalRecords")


def _check_turns(obs: Observation, active: list[int]) -> None:
    """Refuse, before any try, sides and tricks that no play gives: the sides are the
    table's, or, once a contract is made, its sides as they are known (the called
    partner may still be hidden); every trick, and the one in progress, is played by
    the seats in play in turn from its leader, the winner of the trick before. A try
    replays the public actions, so such a view would fail every one."""
    table = Seating.create(obs.rules, obs.dealer)
    sides = {table.sides}
    contract = obs.contract
    if contract is not None:
        with as_state_error("the observation's contract"):
            declarer = checked_int(
                contract.declarer, "the contract's declarer", 0, len(table.side_of) - 1
            )
            partner = contract.partner
            if partner is not None:
                partner = checked_int(partner, "the contract's partner", 0, len(table.side_of) - 1)
            sides.add(Seating.create(obs.rules, obs.dealer, declarer, partner).sides)
    if obs.sides not in sides:
        raise StateError("the observation's sides are not the table's or its contract's")
    rotation = table.rotation
    leader: int | None = None
    with as_state_error("the observation's tricks"):
        for trick in (*obs.tricks, None):
            cards = obs.trick if trick is None else trick.cards
            seats = tuple(seat for seat, _ in cards)
            if not seats:
                if trick is None:
                    break
                raise StateError("the observation's tricks are not played in turn")
            first = seats[0]
            if (
                (leader is not None and first != leader)
                or first not in active
                or seats != rotation[first][: len(seats)]
                or (trick is not None and (len(seats) != len(active) or trick.leader != first))
            ):
                raise StateError(
                    "the observation's tricks are not played in turn, each led by the "
                    "winner of the one before"
                )
            if trick is not None:
                if trick.winner not in seats:
                    raise StateError("the observation's tricks are won by a seat not in them")
                leader = trick.winner


def sample_state(observation: Observation, rng: Generator) -> State:
    """A full state, hidden cards included, that `observation`'s seat cannot tell from the
    real one: ``brisca.observe(sample, observation.seat) == observation``.

    Every placement that the public record and the rules allow can come out, and
    none they rule out ever does (see the module documentation). The model of an
    observation is cached, so further samples of the same view cost less.

    Raises:
        StateError: `observation` is not an Observation, `rng` not a
            :class:`brisca.game.rng.Generator`, or no game of its rules could give
            this observation: found before any try where the view contradicts itself,
            else when none was found in :data:`MAX_ATTEMPTS` tries (see the module
            documentation).
    """
    _check_observation(observation)
    if not isinstance(rng, Generator):
        raise StateError(f"rng must be a brisca.game.rng.Generator, got {type(rng).__name__}")
    with as_state_error("the observation"):
        model = _model(observation)
        if model.obs is not observation:
            # An equal view's model: equal, yet maybe not of the same types (1.0 == 1).
            _check_shape(observation)
        for _ in range(MAX_ATTEMPTS):
            deck = model.propose(rng)
            if deck is None:
                continue
            state = model.replay(deck)
            if state is not None:
                return state
    raise StateError(
        f"found no state consistent with the observation in {MAX_ATTEMPTS} tries; "
        "it may not come from a game of its rules"
    )


@attrs.frozen
class _Step:
    """One public action of the history, with its alternatives when the order of a
    seat's extras within one turn is not on record."""

    seat: int
    #: The trick it was made in: how many tricks were complete.
    trick: int
    #: Possible orders of the actions; usually just one.
    choices: tuple[tuple[Action, ...], ...]
    #: For each swap in the choices, the turned card taken, by the card given.
    taken: tuple[tuple[Card, Card], ...] = ()


@attrs.frozen
class _Seat:
    """What one seat's history requires, apart from its unseen cards."""

    seat: int
    #: The deck positions of the cards it received with their times, not yet filled.
    slots: tuple[tuple[int, int], ...]
    #: Positions filled already (cards a partner was shown), position -> card.
    fixed: tuple[tuple[int, Card], ...]
    #: The seen cards it must have received through its open slots.
    cards: tuple[Card, ...]
    #: For each card it needs, the trick by which it must have it.
    deadlines: tuple[tuple[Card, int], ...]
    #: For each card it gave up or played, the trick it did so in.
    departures: tuple[tuple[Card, int], ...]
    #: The cards it cannot have held at each trick: ``(trick, cards)``.
    forbidden: tuple[tuple[int, frozenset[Card]], ...]
    #: How many unseen cards it holds.
    unseen: int
    #: Its history: ("deal", positions), ("act", step) and ("draw", position, card).
    timeline: tuple[tuple[object, ...], ...]

    def window(self, card: Card) -> tuple[int, int]:
        """The times ``(first, end)`` at which `card` may arrive: ``first <= t < end``."""
        leaves = dict(self.departures).get(card, _NEVER)
        first = max([_DEALT, *(k for k, cards in self.forbidden if card in cards and leaves > k)])
        return first, dict(self.deadlines).get(card, _NEVER)


class _Model:
    """Everything one observation implies, built once and reused for every sample."""

    def __init__(self, obs: Observation) -> None:
        _check_shape(obs)  # once per view: the model is cached
        rules = obs.rules
        self.obs = obs
        self.rules = rules
        n = rules.num_players
        if len(obs.hand_sizes) != n or not 0 <= obs.seat < n or not 0 <= obs.dealer < n:
            raise StateError("the observation's seats do not fit its rules")
        self.hand_number = obs.hand_number
        layout = deal_layout(rules, obs.dealer)
        self.size = len(rules.cards)
        active = [s for s in range(n) if layout.hands[s]]
        _check_turns(obs, active)
        talon = [*layout.stock, *([] if layout.turned is None else [layout.turned])]
        per_round = len(active)
        rounds = len(talon) // per_round if per_round else 0
        drawn_rounds = min(len(obs.tricks), rounds)
        claimed = _claimed(obs)
        known = (*claimed[: obs.seat], frozenset(obs.hand), *claimed[obs.seat + 1 :])
        unseen = _unseen(obs, known)
        self.unseen = tuple(c for c in rules.cards if c in unseen)
        played_suits = {c.suit for c in _played(obs)}
        # The turned card as dealt: the first swap took it; else it lies face up, was
        # drawn last, or is still covered (cubierta) and must be sampled.
        self.turned_position = layout.turned
        self.turned: Card | None = None
        self.covered: tuple[Card, ...] | None = None
        if layout.turned is not None:
            if obs.swaps:
                self.turned = obs.swaps[0].taken
            elif obs.trump_card is not None:
                self.turned = obs.trump_card
            elif obs.trump_card_drawn is not None:
                self.turned = obs.trump_card_drawn[1]
            else:
                self.covered = tuple(c for c in self.unseen if c.suit not in played_suits)
        # Draws so far: round r gives talon[r*k + j] to the j-th seat from trick r's winner.
        draws: dict[int, list[tuple[int, int]]] = {s: [] for s in active}
        turned_slot: tuple[int, int] | None = None  # (round, seat) of the turned card's draw
        for r in range(drawn_rounds):
            seats = [s for s, _ in obs.tricks[r].cards]
            w = seats.index(obs.tricks[r].winner)
            for j, drawer in enumerate(seats[w:] + seats[:w]):
                position = talon[r * per_round + j]
                if position == layout.turned:
                    turned_slot = (r, drawer)
                else:
                    draws[drawer].append((position, r))
        self.stock_positions = tuple(
            p for p in talon[drawn_rounds * per_round :] if p != layout.turned
        )
        if len(self.stock_positions) != obs.stock_size:
            raise StateError("the observation's stock size does not fit its tricks")
        if turned_slot is not None and (
            obs.trump_card_drawn is None or obs.trump_card_drawn[0] != turned_slot[1]
        ):
            raise StateError("the observation's drawn turned card does not fit its tricks")
        self.steps = _timeline(obs)
        self._refuse_impossible(claimed, known)
        self.forbidden = self._forbidden(rounds)
        self.exclusions = self._exclusions(drawn_rounds)
        self.forced = self._forced()
        self.seats = tuple(
            self._seat(s, layout.hands[s], draws[s], known[s], turned_slot, drawn_rounds)
            for s in active
        )
        hidden = sum(s.unseen for s in self.seats) + obs.stock_size
        if self.covered is not None:
            hidden += 1
        if hidden != len(self.unseen):
            raise StateError("the observation's hand sizes do not fit the cards it has seen")
        if not self._placeable():
            raise StateError("no deal of the unseen cards fits the observation's hands")
        automatic = rules.black_hand is not BlackHand.OFF and (
            rules.black_hand_claim is BlackHandClaim.AUTOMATIC
        )
        #: The fields of the view that where the unseen cards lie can still change once
        #: every public action has replayed; a difference in any other is found in every try.
        secret_sides = rules.team_mode is TeamMode.CALLED_PARTNER
        self.chance_fields = frozenset(
            {"hand"}
            | ({"black_hand", "to_act"} if automatic else set())
            | ({"trump", "trump_card"} if self.covered is not None else set())
            | ({"signals", "sides", "contract"} if secret_sides else set())
        )

    def _refuse_impossible(
        self, claimed: Sequence[frozenset[Card]], known: Sequence[frozenset[Card]]
    ) -> None:
        """Refuse, before any try, a view whose public record contradicts itself, so that
        no deal can give it: an action its rules never offer, a card in two places, a
        card held in a suit the seat is void in, or a black hand, cante or honest signal
        whose cards lie where its seat cannot have had them."""
        obs, rules = self.obs, self.rules
        for step in self.steps:
            for action in step.choices[0]:  # every choice holds the same actions
                rule = owner(type(action))
                if rule is not None and not rule.possible(action, rules):
                    raise StateError(
                        f"the observation holds {describe(action, typed=False)}, "
                        "which its rules never offer"
                    )
        places = [c for hand in known for c in hand]
        places += [c for _, c in obs.trick] + [c for t in obs.tricks for _, c in t.cards]
        places += [] if obs.trump_card is None else [obs.trump_card]
        if len(set(places)) != len(places) or not set(places) <= set(rules.cards):
            raise StateError("the observation shows a card in two places, or not of its pack")
        if not claimed[obs.seat] <= set(obs.hand):
            raise StateError("the observation's hand lacks a card its seat showed it holds")
        for seat, suits in enumerate(obs.voids):
            if any(c.suit in suits for c in known[seat]):
                raise StateError(f"the observation shows seat {seat} holding a suit it is void in")
        unseen = set(self.unseen)
        by: dict[int, set[Card]] = {s: set() for s in range(rules.num_players)}
        for seat, card in [*obs.trick, *(p for t in obs.tricks for p in t.cards)]:
            by[seat].add(card)  # it played them: a card leaves a hand only in view
        for swap in obs.swaps:
            by[swap.seat].add(swap.given)
        # (seat, cards, what, whether they may have left it since): a black hand ends the
        # hand as it forms, so its cards are still held.
        needs: list[tuple[int, frozenset[Card], str, bool]] = []
        trump = obs.trump
        if obs.black_hand is not None:
            if obs.to_act is not None:
                raise StateError("the observation's black hand has not ended the hand")
            if trump is not None:
                black = frozenset(_card(r, trump) for r in BLACK_HAND_RANKS)
                needs.append((obs.black_hand, black, "black hand", False))
        for cante in obs.cantes:
            needs.append((cante.seat, frozenset(pair(cante.suit)), "cante", True))
        if trump is not None:
            for record in obs.signals:
                needed, _ = _signal_ranks(rules, record.signal, trump)
                cards = frozenset(_card(r, trump) for r in needed)
                needs.append((record.seat, cards, "signal", True))
        for seat, cards, what, may_leave in needs:
            if not cards <= unseen | known[seat] | (by[seat] if may_leave else set()):
                raise StateError(f"the cards of seat {seat}'s {what} are seen elsewhere")

    def _placeable(self) -> bool:
        """Whether some dealing of the unseen cards gives each hidden hand its size, its
        forced cards and none it is ruled out of, and the covered card a suit it may be
        (the stock takes the rest): a matching of cards to places, found by augmenting
        paths, so that an impossible view is refused at once."""
        forced = [c for cards in self.forced.values() for c in cards]
        if len(set(forced)) != len(forced):
            return False  # two seats must both hold one card
        free = frozenset(self.unseen) - set(forced)
        demands: list[frozenset[Card]] = []
        for spec in self.seats:
            need = spec.unseen - len(self.forced.get(spec.seat, ()))
            if need < 0:
                return False
            demands += [free - self.exclusions.get(spec.seat, frozenset())] * need
        if self.covered is not None:
            demands.append(free & frozenset(self.covered))
        return _matching(demands)

    def _forbidden(self, rounds: int) -> dict[int, list[tuple[int, frozenset[Card]]]]:
        """For each seat, the cards it cannot have held at some moments: ``(trick, cards)``.

        Arrastre: a follower bound to play otherwise, had it held a card, did not hold
        it. The duties only ever narrow as cards are added to a hand, so each card can
        be tried alone, against the card played. Honest signals: a signal that says a
        seat lacks a trump rank.
        """
        obs, rules = self.obs, self.rules
        out: dict[int, list[tuple[int, frozenset[Card]]]] = {}
        trump = obs.trump
        if trump is None:
            return out
        for record in obs.signals:
            _, ranks = _signal_ranks(rules, record.signal, trump)
            lacked = frozenset(_card(r, trump) for r in ranks)
            if lacked:
                out.setdefault(record.seat, []).append((record.trick, lacked))
        obligation = rules.play_obligation
        if obligation is PlayObligation.FREE:
            return out
        # The duties hang on the sides only through partner relief, which `Rules` allows
        # only where the sides are public: replaying the auction gives the probes' sides.
        auction = _auction(obs)
        tricks = [t.cards for t in obs.tricks] + [obs.trick]
        for k, cards in enumerate(tricks):
            if obligation is not PlayObligation.ARRASTRE_WHOLE_HAND and k < rounds:
                continue  # no duties while the talon lasts
            for i in range(1, len(cards)):
                ruled_out = _ruled_out(rules, obs.dealer, auction, trump, cards[:i], cards[i])
                if ruled_out:
                    out.setdefault(cards[i][0], []).append((k, ruled_out))
        return out

    def _exclusions(self, drawn_rounds: int) -> dict[int, frozenset[Card]]:
        """For each seat, the unseen cards it cannot hold now."""
        obs = self.obs
        unseen = set(self.unseen)
        out: dict[int, set[Card]] = {s: set() for s in range(self.rules.num_players)}
        for seat, suits in enumerate(obs.voids):
            out[seat] |= {c for c in unseen if c.suit in suits}
        for seat, spans in self.forbidden.items():
            for trick, cards in spans:
                if trick >= drawn_rounds:
                    out[seat] |= cards & unseen  # nothing it holds came after that trick
        out[obs.seat] = unseen
        return {s: frozenset(v) for s, v in out.items()}

    def _forced(self) -> dict[int, frozenset[Card]]:
        """For each seat, the unseen cards it must hold now: what its honest signals
        said it held, or its black hand; such a card could only have left it in view."""
        obs, rules = self.obs, self.rules
        out: dict[int, set[Card]] = {s: set() for s in range(rules.num_players)}
        trump = obs.trump
        if trump is not None:
            for record in obs.signals:
                needed, _ = _signal_ranks(rules, record.signal, trump)
                out[record.seat] |= {_card(r, trump) for r in needed} & set(self.unseen)
            if obs.black_hand is not None:
                black = {_card(r, trump) for r in BLACK_HAND_RANKS}
                out[obs.black_hand] |= black & set(self.unseen)
        for seat, cards in out.items():
            if cards & self.exclusions.get(seat, frozenset()):
                raise StateError(f"the observation both needs and rules out cards of seat {seat}")
        return {s: frozenset(v) for s, v in out.items() if v}

    def _seat(
        self,
        seat: int,
        dealt: tuple[int, ...],
        draws: list[tuple[int, int]],
        known: frozenset[Card],
        turned_slot: tuple[int, int] | None,
        drawn_rounds: int,
    ) -> _Seat:
        obs = self.obs
        fixed: dict[int, Card] = {}
        for partner, shown in obs.partner_hands:
            if partner == seat:
                fixed = dict(zip(dealt, shown, strict=True))
        timeline: list[tuple[object, ...]] = [("deal", dealt)]
        by_trick: dict[int, list[_Step]] = {}
        for step in self.steps:
            if step.seat == seat:
                by_trick.setdefault(step.trick, []).append(step)
        deadline: dict[Card, int] = {}
        departed: dict[Card, int] = {}
        given: Counter[Card] = Counter()
        arrived: Counter[Card] = Counter()  # cards that came other than through a slot
        draw_at = {r: p for p, r in draws}
        for k in range(max([drawn_rounds, *by_trick]) + 1):
            for step in by_trick.get(k, []):
                timeline.append(("act", step))
                for action in step.choices[0]:
                    for card in _cards_needed(action, obs):
                        deadline[card] = min(deadline.get(card, _NEVER), k)
                    if isinstance(action, (Play, Swap)):
                        given[action.card] += 1
                        # A slot brings a card once: it is held until it first leaves.
                        departed.setdefault(action.card, k)
                for _, taken in step.taken:
                    arrived[taken] += 1
            if k < drawn_rounds:
                if k in draw_at:
                    timeline.append(("draw", draw_at[k], None))
                elif turned_slot == (k, seat) and obs.trump_card_drawn is not None:
                    timeline.append(("draw", None, obs.trump_card_drawn[1]))
                    arrived[obs.trump_card_drawn[1]] += 1
        for record in obs.signals:
            if record.seat == seat and obs.trump is not None:
                needed, _ = _signal_ranks(self.rules, record.signal, obs.trump)
                for rank in needed:
                    card = _card(rank, obs.trump)
                    deadline[card] = min(deadline.get(card, _NEVER), record.trick)
        received = given + Counter(known)
        received.subtract(arrived)
        if any(v < 0 for v in received.values()):
            raise StateError(f"the observation's swaps do not fit seat {seat}'s cards")
        cards = [c for c in self.rules.cards for _ in range(received[c]) if c not in fixed.values()]
        slots = tuple([(p, _DEALT) for p in dealt if p not in fixed] + [(p, r) for p, r in draws])
        unseen = obs.hand_sizes[seat] - len(known)
        if unseen < 0 or len(slots) != len(cards) + unseen or (seat == obs.seat and unseen):
            raise StateError(f"the observation's cards do not fit seat {seat}'s hand size")
        return _Seat(
            seat,
            slots,
            tuple(fixed.items()),
            tuple(cards),
            tuple(deadline.items()),
            tuple(departed.items()),
            tuple(self.forbidden.get(seat, ())),
            unseen,
            tuple(timeline),
        )

    def propose(self, rng: Generator) -> list[Card] | None:
        """A deck order that may deal a history consistent with the observation."""
        placed = self._partition(rng)
        if placed is None:
            return None
        hidden, covered, stock = placed
        order: list[Card | None] = [None] * self.size
        for spec in self.seats:
            arrivals = self._arrivals(spec, hidden.get(spec.seat, []), rng)
            if arrivals is None:
                return None
            for position, card in arrivals.items():
                order[position] = card
        if self.turned_position is not None:
            order[self.turned_position] = covered if covered is not None else self.turned
        for position, card in zip(self.stock_positions, stock, strict=True):
            order[position] = card
        if any(c is None for c in order):
            return None
        return [c for c in order if c is not None]

    def _partition(
        self, rng: Generator
    ) -> tuple[dict[int, list[Card]], Card | None, list[Card]] | None:
        """Deal the unseen cards to the hidden hands, the covered card and the stock."""
        left = rng.shuffle(self.unseen)
        hidden: dict[int, list[Card]] = {}
        for seat, cards in self.forced.items():
            hidden[seat] = [c for c in left if c in cards]
            left = [c for c in left if c not in cards]
        covered = None
        if self.covered is not None:
            options = [c for c in left if c in self.covered]
            if not options:
                return None
            covered = options[rng.below(len(options))]
            left.remove(covered)
        # The most constrained hands first; the stock, which may hold anything, last.
        order = sorted(
            (s for s in self.seats if s.unseen),
            key=lambda s: -len(self.exclusions.get(s.seat, ())),
        )
        for spec in order:
            taken = hidden.setdefault(spec.seat, [])
            need = spec.unseen - len(taken)
            if need < 0:
                return None
            banned = self.exclusions.get(spec.seat, frozenset())
            options = [c for c in left if c not in banned]  # `left` is already shuffled
            if len(options) < need:
                return None
            chosen = set(options[:need])
            taken += options[:need]
            left = [c for c in left if c not in chosen]
        if len(left) != self.obs.stock_size:
            return None
        return hidden, covered, left

    def _arrivals(self, spec: _Seat, hidden: list[Card], rng: Generator) -> dict[int, Card] | None:
        """Which card each of the seat's open slots brought, or ``None`` if none fits.

        Each card must arrive within its window (after any moment it cannot have been
        held, before it is first needed); the observer's hand must come out in the
        order it holds it, so its held cards arrive in that order. A randomised search
        fills the slots in time order.
        """
        cards = [*spec.cards, *hidden]
        windows = {c: spec.window(c) for c in cards}
        chain: list[Card] = []
        if spec.seat == self.obs.seat:
            chain = [c for c in self.obs.hand if c in cards and windows[c][1] == _NEVER]
        slots = sorted(spec.slots, key=lambda s: (s[1], s[0]))
        for _ in range(_SEAT_TRIES):
            found = _assign(slots, cards, windows, chain, rng)
            if found is not None:
                arrivals = {**found, **dict(spec.fixed)}
                if self._plausible(spec, arrivals):
                    return arrivals
        return None

    def _plausible(self, spec: _Seat, arrivals: dict[int, Card]) -> bool:
        """Walk the seat's own history: it holds every card it plays, gives or shows, its
        signals are true, and the observer's hand comes out in its order."""
        obs, trump = self.obs, self.obs.trump
        hand: list[Card] = []
        vocabulary: dict[str, Truth] = VOCABULARIES.get(self.rules.signal_vocabulary, {})
        for entry in spec.timeline:
            if entry[0] == "deal":
                hand += [arrivals[p] for p in entry[1]]  # type: ignore[attr-defined]
            elif entry[0] == "draw":
                position, card = entry[1], entry[2]
                hand.append(card if position is None else arrivals[position])  # type: ignore[index,arg-type]
            else:
                step = entry[1]
                assert isinstance(step, _Step)
                taken = dict(step.taken)
                for choice in step.choices:
                    after = _walk(list(hand), choice, taken, vocabulary, trump)
                    if after is not None:
                        hand = after
                        break
                else:
                    return False
        if spec.seat == obs.seat:
            return tuple(hand) == obs.hand
        return True

    def replay(self, deck: list[Card]) -> State | None:
        """Deal `deck` and play the public history; the state if all of it is legal and
        the observer's view comes out the same, ``None`` if not.

        Raises:
            StateError: no deck could do better: the history is out of turn, or the
                view differs in a field that the unseen cards cannot change.
        """
        try:
            state = new_game(
                self.rules, deck=deck, dealer=self.obs.dealer, hand_number=self.hand_number
            )
        except BriscaError:
            return None
        for step in self.steps:
            for choice in step.choices:
                try:
                    after = state
                    for action in choice:
                        after = apply(after, action)
                except BriscaError:
                    continue
                state = after
                break
            else:
                # Whose turn it is follows from the public actions alone.
                if state.to_act is not None and state.to_act != step.seat:
                    raise StateError(f"the observation's seat {step.seat} acts out of turn")
                return None
        seen = observe(state, self.obs.seat)
        if seen == self.obs:
            return state
        fields = [f.name for f in attrs.fields(Observation)]
        wrong = [f for f in fields if getattr(seen, f) != getattr(self.obs, f)]
        certain = [f for f in wrong if f not in self.chance_fields]
        if certain:
            raise StateError(f"no deal gives the observation's {', '.join(certain)}")
        return None


def _matching(demands: Sequence[frozenset[Card]]) -> bool:
    """Whether each demand can take a card of its own from its set: Kuhn's augmenting
    paths, in at most cards * demands**2 steps."""
    holder: dict[Card, int] = {}

    def augment(index: int, seen: set[Card]) -> bool:
        for card in demands[index]:
            if card not in seen:
                seen.add(card)
                if card not in holder or augment(holder[card], seen):
                    holder[card] = index
                    return True
        return False

    return all(augment(i, set()) for i in range(len(demands)))


def _assign(
    slots: list[tuple[int, int]],
    cards: list[Card],
    windows: dict[Card, tuple[int, int]],
    chain: list[Card],
    rng: Generator,
    budget: int = 300,
) -> dict[int, Card] | None:
    """Fill `slots` (in time order) with `cards`, each at a time ``first <= t < end`` of
    its window and the `chain` cards in their order.

    A depth-first search over the slots in time order, trying candidates from a
    random start. It never leaves a card past its last chance: when as many cards
    must arrive by now as there are slots left at this time, one of them is taken.
    """
    placed: dict[int, Card] = {}
    left = list(cards)
    link = {c: i for i, c in enumerate(chain)}
    # How many slots remain at each time and later, to keep room for late arrivals.
    times = [t for _, t in slots]
    budget_left = [budget]

    def search(i: int, next_link: int) -> bool:
        if i == len(slots):
            return True
        budget_left[0] -= 1
        if budget_left[0] < 0:
            return False
        position, time = slots[i]
        now = sum(1 for t in times[i:] if t == time)
        due = [c for c in left if windows[c][1] <= time + 1]
        if len(due) > now:
            return False
        for first in {windows[c][0] for c in left if windows[c][0] > time}:
            if sum(1 for c in left if windows[c][0] >= first) > sum(
                1 for t in times[i + 1 :] if t >= first
            ):
                return False  # too many late cards for the late slots
        pool = due if len(due) == now else left
        options = [
            c
            for c in dict.fromkeys(pool)
            if windows[c][0] <= time < windows[c][1] and link.get(c, next_link) == next_link
        ]
        if not options:
            return False
        start = rng.below(len(options))
        for k in range(len(options)):
            c = options[(start + k) % len(options)]
            left.remove(c)
            placed[position] = c
            if search(i + 1, next_link + (c in link)):
                return True
            left.append(c)
        return False

    return dict(placed) if search(0, 0) else None


@functools.lru_cache(maxsize=4096)
def _ruled_out(
    rules: Rules,
    dealer: int,
    auction: tuple[Action, ...],
    trump: Suit,
    before: tuple[tuple[int, Card], ...],
    play: tuple[int, Card],
) -> frozenset[Card]:
    """The cards whose presence in the hand would have made `play` illegal under arrastre,
    after `before` in the trick; each is tried alone with the played card."""
    seat, card = play
    led = before[0][1].suit
    base = _base(rules, dealer, auction)
    n = rules.num_players
    out = set()
    for other in rules.cards:
        if other is card or (other.suit is not led and other.suit is not trump):
            continue
        probe = attrs.evolve(
            base,
            trump=trump,
            trump_card=None,
            stock=(),
            trick=before,
            tricks=(),
            to_act=seat,
            hands=tuple((card, other) if s == seat else () for s in range(n)),
        )
        if not is_legal(probe, Play(card)):
            out.add(other)
    return frozenset(out)


@functools.lru_cache(maxsize=64)
def _base(rules: Rules, dealer: int, auction: tuple[Action, ...]) -> State:
    """A hand of `rules` dealt by `dealer`, past its `auction`, to build probe states from.

    Bids and the naming of trump do not depend on the cards held, so any deal replays
    them, and the probe gets the real declarer and sides."""
    state = new_game(rules, deck=rules.cards, dealer=dealer)
    try:
        for action in auction:
            state = apply(state, action)
    except BriscaError as error:
        raise StateError(f"the observation's auction could not be played: {error}") from None
    return state


def _auction(obs: Observation) -> tuple[Action, ...]:
    """The observation's bids and its naming of trump or of the called card, in order."""
    naming = _naming(obs)
    return (*(record.bid for record in obs.bids), *(() if naming is None else (naming,)))


def _naming(obs: Observation) -> Action | None:
    """The declarer's naming of trump or call of a card, once made."""
    contract = obs.contract
    if contract is None or contract.trump is None:
        return None
    return CallCard(contract.called) if contract.called is not None else NameTrump(contract.trump)


def _walk(
    hand: list[Card],
    actions: tuple[Action, ...],
    taken: dict[Card, Card],
    vocabulary: dict[str, Truth],
    trump: Suit | None,
) -> list[Card] | None:
    """The hand after `actions`, or ``None`` if it could not have made them."""
    for action in actions:
        if isinstance(action, (Play, Swap)):
            if action.card not in hand:
                return None
            hand.remove(action.card)
            if isinstance(action, Swap):
                hand.append(taken[action.card])
        elif isinstance(action, Signal):
            truth = vocabulary.get(action.name)
            ranks = frozenset(c.rank for c in hand if c.suit is trump)
            if truth is None or not truth(ranks):
                return None
        elif isinstance(action, Sing):
            if not set(pair(action.suit)) <= set(hand):
                return None
        elif (
            isinstance(action, ClaimBlackHand)
            and trump is not None
            and not all(_card(r, trump) in hand for r in BLACK_HAND_RANKS)
        ):
            return None
    return hand


def _cards_needed(action: Action, obs: Observation) -> tuple[Card, ...]:
    """The cards a seat must hold to take `action`."""
    if isinstance(action, (Play, Swap)):
        return (action.card,)
    if isinstance(action, Sing):
        return pair(action.suit)
    if isinstance(action, ClaimBlackHand) and obs.trump is not None:
        return tuple(_card(r, obs.trump) for r in BLACK_HAND_RANKS)
    return ()


def _card(rank: int, suit: Suit) -> Card:
    return Card(rank, suit)


@functools.lru_cache(maxsize=256)
def _signal_ranks(rules: Rules, name: str, trump: Suit) -> tuple[frozenset[int], frozenset[int]]:
    """The trump ranks an honest `name` signal says its maker held, and those it says it
    did not: found by trying every set of trump ranks against the vocabulary."""
    truth = VOCABULARIES.get(rules.signal_vocabulary, {}).get(name)
    ranks = sorted({c.rank for c in rules.cards if c.suit is trump})
    if truth is None:
        return frozenset(), frozenset()
    true_sets = [
        frozenset(combo)
        for size in range(len(ranks) + 1)
        for combo in itertools.combinations(ranks, size)
        if truth(frozenset(combo))
    ]
    if not true_sets:
        return frozenset(), frozenset()
    needed = frozenset.intersection(*true_sets)
    forbidden = frozenset(ranks) - frozenset.union(*true_sets)
    return needed, forbidden


def _interleavings(blocks: list[list[Action]]) -> Iterator[tuple[Action, ...]]:
    """Every merge of `blocks` that keeps each block's own order."""
    blocks = [b for b in blocks if b]
    if not blocks:
        yield ()
        return
    for i, block in enumerate(blocks):
        rest = [*blocks[:i], block[1:], *blocks[i + 1 :]]
        for tail in _interleavings(rest):
            yield (block[0], *tail)


def _timeline(obs: Observation) -> tuple[_Step, ...]:
    """The public actions in the order they were taken, as far as the record shows it."""
    steps: list[_Step] = []
    for record in obs.bids:
        steps.append(_Step(record.seat, 0, ((record.bid,),)))
    naming = _naming(obs)
    if naming is not None and obs.contract is not None:
        steps.append(_Step(obs.contract.declarer, 0, ((naming,),)))
    # A seat's extras (swaps, signals, cantes) in trick k come on its turn, before its play.
    extras: dict[tuple[int, int], list[list[Action]]] = {}
    taken: dict[tuple[int, int], list[tuple[Card, Card]]] = {}
    kinds: list[list[tuple[int, int, Action]]] = [
        [(s.seat, s.trick, Swap(s.given)) for s in obs.swaps],
        [(s.seat, s.trick, Signal(s.signal)) for s in obs.signals],
        [(c.seat, c.trick, Sing(c.suit)) for c in obs.cantes],
    ]
    for kind, records in enumerate(kinds):
        for seat, trick, action in records:
            blocks = extras.setdefault((seat, trick), [[], [], []])
            blocks[kind].append(action)
    for s in obs.swaps:
        taken.setdefault((s.seat, s.trick), []).append((s.given, s.taken))

    def extra_step(seat: int, trick: int) -> list[_Step]:
        blocks = extras.pop((seat, trick), None)
        if blocks is None:
            return []
        choices = tuple(dict.fromkeys(_interleavings(blocks)))
        return [_Step(seat, trick, choices, tuple(taken.get((seat, trick), ())))]

    tricks = [t.cards for t in obs.tricks] + [obs.trick]
    for k, cards in enumerate(tricks):
        for seat, card in cards:
            steps += extra_step(seat, k)
            steps.append(_Step(seat, k, ((Play(card),),)))
    for seat, trick in sorted(extras, key=lambda key: (key[1], key[0])):
        steps += extra_step(seat, trick)
    holder = obs.black_hand
    if holder is not None and obs.rules.black_hand_claim is BlackHandClaim.DECLARE:
        steps.append(_Step(holder, len(obs.tricks), ((ClaimBlackHand(),),)))
    return tuple(steps)


@functools.lru_cache(maxsize=64)
def _model(observation: Observation) -> _Model:
    """The model of an observation, kept for the next samples of the same view."""
    return _Model(observation)
