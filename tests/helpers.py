"""Building hands for rule examples: stacked decks and searched-for finished games."""

from __future__ import annotations

import contextlib
import functools
import gc
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import attrs

import brisca
from brisca import Card, Rules, State

T = TypeVar("T")


def stacked(
    rules: Rules,
    hands: dict[int, Sequence[str]],
    trump: str | None = None,
    stock: Iterable[str] = (),
    dealer: int | None = None,
) -> State:
    """A hand dealt from a deck that gives each listed seat the listed cards.

    Unlisted seats, the rest of the stock and (if `trump` is None) the turned
    card come from the remaining cards in canonical order.
    """
    n = rules.num_players
    dealer = n - 1 if dealer is None else dealer
    seats = [(dealer + k) % n for k in range(1, n + 1)]
    if rules.active_players < n:  # the dealer sits out
        seats = seats[:-1]
    fixed = [Card.parse(c) for codes in hands.values() for c in codes]
    fixed += [Card.parse(c) for c in stock] + ([Card.parse(trump)] if trump else [])
    spare = iter(c for c in rules.cards if c not in fixed)
    full = {s: [Card.parse(c) for c in hands.get(s, ())] for s in seats}
    for s in seats:
        full[s] += [next(spare) for _ in range(rules.hand_size - len(full[s]))]
    order = [full[s][k] for k in range(rules.hand_size) for s in seats]
    if rules.turns_card:
        order.append(Card.parse(trump) if trump else next(spare))
    order += [Card.parse(c) for c in stock] + list(spare)
    return brisca.new_game(rules, deck=order, dealer=dealer)


def play(state: State, *codes: str) -> State:
    """Play the given cards in turn."""
    for code in codes:
        state = brisca.apply(state, brisca.Play(code))
    return state


def find_finished(rules: Rules, wanted: Callable[[State], bool], tries: int = 5000) -> State:
    """A finished random game (seeded, deterministic) for which `wanted` holds."""
    for seed in range(tries):
        rng = random.Random(seed)
        state = brisca.new_game(rules, seed=seed)
        while not state.is_over:
            actions = brisca.legal_actions(state)
            state = brisca.apply(state, actions[rng.randrange(len(actions))])
        if wanted(state):
            return state
    raise AssertionError("no such game found")


def observed_cards(view: brisca.Observation) -> set[Card]:
    """Every card an observation shows its seat as a card: in hand, played, swapped,
    shown by a partner, turned or drawn face up, or called."""
    cards = set(view.hand) | {card for _, card in view.trick}
    cards |= {card for trick in view.tricks for _, card in trick.cards}
    cards |= {card for swap in view.swaps for card in (swap.given, swap.taken)}
    cards |= {card for _, dealt in view.partner_hands for card in dealt}
    if view.trump_card is not None:
        cards.add(view.trump_card)
    if view.trump_card_drawn is not None:
        cards.add(view.trump_card_drawn[1])
    if view.contract is not None and view.contract.called is not None:
        cards.add(view.contract.called)
    return cards


def python(script: str) -> str:
    """What a fresh Python process running `script` prints; it must exit cleanly."""
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0, run.stderr
    return run.stdout


#: The most a doubling test lets the time grow when the input doubles. A linear cost
#: doubles and a quadratic one quadruples; 3 leaves a shared, loaded machine room.
DOUBLING_BOUND = 3.0


def assert_linear(
    small: Callable[[], float],
    large: Callable[[], float],
    attempts: int = 6,
    reference: tuple[Callable[[], float], Callable[[], float]] | None = None,
) -> None:
    """The CPU time `large` gives (the work at size 2n) is under DOUBLING_BOUND times what
    `small` gives (size n); a ratio over it is measured again, `attempts` times in all,
    since a slow spell of the machine can spoil several pairs of timings in a row (a
    clean-clone CI run once saw 4.1 three times for a reader that measures 1.3 to 2.5).
    A quadratic cost reads about 4 every time, so more attempts do not let it pass.
    Between attempts it waits, longer each time (8 s in all), for a busy spell to
    pass: in CI the other build's suite runs beside this one.

    `reference` times a job known to be linear over the same two inputs (the standard
    library's JSON decoder, for a JSON reader). Where the machine makes even that job
    grow more than twice (its caches, its page faults), the bound grows as much: a CI
    machine read 5.2 six times in a row over 8 s for a reader that measures 2.1 here,
    which is the decoder's own work and one copy. A quadratic cost still reads twice
    the reference's growth."""
    ratio = bound = 0.0
    for attempt in range(attempts):
        if attempt:
            time.sleep(0.25 * 2 ** (attempt - 1))
        ratio = large() / max(small(), 1e-6)
        bound = DOUBLING_BOUND
        if reference is not None:
            ref_small, ref_large = reference
            bound *= max(1.0, ref_large() / max(ref_small(), 1e-6) / 2)
        if ratio < bound:
            return
    raise AssertionError(
        f"doubling the input multiplied the time by {ratio:.2f} (bound {bound:.2f})"
    )


def cpu_seconds(call: Callable[[], object], repeats: int = 5) -> float:
    """The CPU seconds of one `call()`, the best of `repeats`, with the collector off;
    a BriscaError it raises counts as its end."""
    gc.collect()
    gc.disable()
    try:
        best = float("inf")
        for _ in range(repeats):
            start = time.process_time()
            with contextlib.suppress(brisca.BriscaError):
                call()
            best = min(best, time.process_time() - start)
        return best
    finally:
        gc.enable()


def self_holding_list() -> list[object]:
    """A list that holds itself: a value no walk over it may follow for ever."""
    holder: list[object] = []
    holder.append(holder)
    return holder


#: What the forged-value tests put in a field: values of a type or shape no game makes.
#: Each file adds the kinds its readers meet (NaN, cards, numpy scalars...).
JUNK: tuple[object, ...] = (
    None,
    1.0,
    7,
    -1,
    "0",
    True,
    (),
    ((),),
    (None,),
    ("x", "y"),
    [[]],
    10**30,
)


@functools.cache
def played(name: str, moves: int, seed: int = 3) -> State:
    """The state after `moves` random legal actions (seeded) of a preset's hand, or its end."""
    state = brisca.new_game(brisca.preset(name), seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state = brisca.apply(state, rng.choice(brisca.legal_actions(state)))
    return state


def hand_values(state: State) -> list[Any]:
    """The values of a hand mid-way (a trick done): the state, a trick, its deal,
    seating and ledger, and a seat's observation."""
    assert state.tricks
    view = brisca.observe(state, 1)
    return [state, state.tricks[0], state.deal, state.seating, state.ledger, view]


def forge(value: T, **changes: Any) -> T | None:
    """``attrs.evolve(value, **changes)``: a value no game makes, or ``None`` when the value
    does not take the forgery as given. Both builds refuse a hand's value (a state, its
    parts, a view, a result) whose field is of the wrong type with a `StateError` at
    once; an event, only the compiled build (the pure-Python build refuses it where it
    is read). The compiled build stores a bool given for an int field as that int."""
    try:
        made = attrs.evolve(value, **changes)
    except brisca.StateError as error:
        assert "cannot hold" in str(error), error
        return None
    for name, given in changes.items():
        held = getattr(made, name)
        if type(held) is not type(given) or (held is not given and held != given):
            return None
    return made
