"""The agents (solver, search, bots, sampler, encoder) and the batch engine, given states and
views edited by hand and arguments of the wrong kind: a `BriscaError`, never a bare Python
error, the input unchanged, and a hopeless view refused at once rather than after every try.

`State` and `Observation` are public attrs classes, so ``attrs.evolve`` accepts any value in
any field. The forgeries are junk of the wrong type, and well-typed parts of other games.
"""

from __future__ import annotations

import functools
import pickle
import random
import tracemalloc
from collections.abc import Callable
from typing import Any
from unittest import mock

import attrs
import pytest
from helpers import JUNK as COMMON_JUNK
from helpers import forge, played
from hypothesis import given, settings
from hypothesis import strategies as st

import brisca
from brisca.agents import bots, sampling, search
from brisca.game.rng import Generator

Card = brisca.Card
# Plain, partnerships, arrastre, a covered trump, swaps and cantes, an auction, five seats.
PRESETS = (
    "spanish-2p",
    "spanish-4p",
    "arrastre-2p",
    "cubierta-2p",
    "casino-2p",
    "subastada-4p",
    "chiamata-5p",
)
JUNK: tuple[object, ...] = (
    *COMMON_JUNK,
    "",
    float("nan"),
    frozenset(),
    (Card.parse("1O"),),
    ((0, Card.parse("1O")),),
)
STATE_FIELDS = tuple(f.name for f in attrs.fields(brisca.State) if f.init)
VIEW_FIELDS = tuple(f.name for f in attrs.fields(brisca.Observation) if f.init)
#: Positions each search may visit: enough to reach every part of the solver, and fast.
BUDGET = 100


@functools.cache
def _endgame(name: str, seed: int = 3) -> brisca.State:
    """A state whose talon is gone: the solver's compact search takes it."""
    state = played(name, 0, seed)
    rng = random.Random(seed)
    while not state.is_over and (state.stock or state.trump_card is not None or state.trick):
        state = brisca.apply(state, rng.choice(brisca.legal_actions(state)))
    return state


def _forged(value: Any, field: str, junk: object) -> Any:
    try:
        return attrs.evolve(value, **{field: junk})
    except brisca.BriscaError:
        return None  # refused at the door: as good as refused later


def _assert_refused_or_served(
    entries: dict[str, Callable[[Any], object]], forged: object, label: str
) -> None:
    before = pickle.dumps(forged)
    for name, entry in entries.items():
        try:
            entry(forged)
        except brisca.BriscaError:
            pass
        except Exception as error:  # pragma: no cover - the failure being tested for
            pytest.fail(f"{name} on {label} leaked {type(error).__name__}: {error}")
    assert pickle.dumps(forged) == before, f"an entry point changed the {label} it was given"


def _state_entries(rules: brisca.Rules) -> dict[str, Callable[[Any], object]]:
    from brisca.agents.encoding import StateEncoder

    encoder = StateEncoder(rules)
    return {
        "solve": lambda s: search.solve(s, budget=BUDGET, partial=True),
        "solve(side=0, depth=1)": lambda s: search.solve(s, side=0, depth=1, budget=BUDGET),
        "score": lambda s: search.score(s, 0),
        "cards_to_play": search.cards_to_play,
        "StateEncoder.mask": encoder.mask,
        "StateEncoder.legal": encoder.legal,
        "StateEncoder.observation": lambda s: encoder.observation(s, 0),
    }


def _states(name: str) -> list[brisca.State]:
    """A hand in play, its endgame (the compact search's) and a finished one."""
    return [played(name, 9), _endgame(name), played(name, 999)]


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("field", STATE_FIELDS)
def test_junk_in_any_field_of_a_state_is_a_brisca_error_to_the_solver_and_encoder(
    name: str, field: str
) -> None:
    for state in _states(name):
        entries = _state_entries(state.rules)
        for junk in JUNK:
            forged = _forged(state, field, junk)
            if forged is not None:
                _assert_refused_or_served(entries, forged, f"state {field}={junk!r}")


_STATE_DONORS = [state for name in PRESETS for state in _states(name)]


@settings(max_examples=25)
@given(
    index=st.sampled_from(range(len(_STATE_DONORS))),
    changes=st.dictionaries(
        st.sampled_from(STATE_FIELDS),
        st.sampled_from(range(len(_STATE_DONORS))),
        min_size=1,
        max_size=3,
    ),
)
def test_a_state_made_of_other_games_parts_is_a_brisca_error_to_the_solver(
    index: int, changes: dict[str, int]
) -> None:
    state = _STATE_DONORS[index]
    donated = {f: getattr(_STATE_DONORS[i], f) for f, i in changes.items()}
    forged = attrs.evolve(state, **donated)
    _assert_refused_or_served(_state_entries(state.rules), forged, f"state {sorted(donated)}")


def _view_entries(legal: list[brisca.Action]) -> dict[str, Callable[[Any], object]]:
    from brisca.agents.encoding import encode_observation

    return {
        "sample_state": lambda o: sampling.sample_state(o, Generator(1)),
        "known_hands": sampling.known_hands,
        "knowledge": sampling.knowledge,
        "unseen_cards": sampling.unseen_cards,
        "encode_observation": encode_observation,
        "evaluate": lambda o: search.evaluate(o, legal, samples=1, rng=Generator(1), budget=BUDGET),
        "HeuristicBot": lambda o: bots.HeuristicBot()(o, legal),
        "RandomBot": lambda o: bots.RandomBot(1)(o, legal),
        "SearchBot": lambda o: bots.SearchBot(samples=1, seed=1, budget=BUDGET)(o, legal),
        "SearchBot(rollouts)": lambda o: bots.SearchBot(
            samples=1, seed=1, budget=BUDGET, early="rollouts"
        )(o, legal),
        "SearchBot(depth)": lambda o: bots.SearchBot(samples=1, seed=1, budget=BUDGET, early=1)(
            o, legal
        ),
    }


@functools.cache
def _views(name: str) -> list[tuple[brisca.Observation, list[brisca.Action]]]:
    """The seat to act's view of a hand in play and of its endgame, and of a finished hand."""
    out = []
    for state in (played(name, 9), _endgame(name), played(name, 999)):
        seat = 0 if state.is_over else state.to_act
        legal = list(brisca.legal_actions(state)) or [brisca.Play(state.rules.cards[0])]
        out.append((brisca.observe(state, seat), legal))  # type: ignore[arg-type]
    return out


def _few_tries() -> Any:
    """Fewer tries per sample: a forged view that no world fits is refused sooner, the same
    way (a StateError), so that the sweep stays fast."""
    return mock.patch.object(sampling, "MAX_ATTEMPTS", 20)


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("field", VIEW_FIELDS)
def test_junk_in_any_field_of_a_view_is_a_brisca_error_to_the_bots_and_sampler(
    name: str, field: str
) -> None:
    for view, legal in _views(name):
        entries = _view_entries(legal)
        for junk in JUNK:
            forged = _forged(view, field, junk)
            if forged is not None:
                with _few_tries():
                    _assert_refused_or_served(entries, forged, f"view {field}={junk!r}")


_VIEW_DONORS = [view for name in PRESETS for view, _ in _views(name)]


@settings(max_examples=25)
@given(
    name=st.sampled_from(PRESETS),
    which=st.integers(0, 2),
    changes=st.dictionaries(
        st.sampled_from(VIEW_FIELDS),
        st.sampled_from(range(len(_VIEW_DONORS))),
        min_size=1,
        max_size=3,
    ),
)
def test_a_view_made_of_other_games_parts_is_a_brisca_error_to_the_bots_and_sampler(
    name: str, which: int, changes: dict[str, int]
) -> None:
    view, legal = _views(name)[which]
    donated = {f: getattr(_VIEW_DONORS[i], f) for f, i in changes.items()}
    forged = attrs.evolve(view, **donated)
    with _few_tries():
        _assert_refused_or_served(_view_entries(legal), forged, f"view {sorted(donated)}")


def test_the_solver_names_the_state_and_the_python_error_only() -> None:
    """The message says what is wrong without quoting the forged value, hidden cards and all."""
    state = played("spanish-2p", 3)
    with pytest.raises(brisca.StateError, match=r"^the state is inconsistent \(IndexError\)$"):
        search.solve(_forged(state, "to_act", 7))
    odd_turned = forge(state, trump_card=7)  # the compiled build refuses it at once
    if odd_turned is not None:
        with pytest.raises(brisca.StateError, match=r"^the state is inconsistent \(KeyError\)$"):
            search.solve(odd_turned, budget=1000, partial=True)
    no_hands = forge(state, hands=None)  # the compiled build refuses it as it is stored
    if no_hands is not None:
        with pytest.raises(brisca.StateError, match=r"^the state is inconsistent \(TypeError\)$"):
            search.cards_to_play(no_hands)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hand": ""}, "hand is not a tuple of Cards"),
        ({"hand": frozenset()}, "hand is not a tuple of Cards"),
        ({"hand": [Card.parse("1O")]}, "inconsistent \\(TypeError\\)"),  # unhashable
        ({"hand": ("1O",)}, "hand is not a tuple of Cards"),
        ({"hand_number": None}, "hand_number must be an int"),
        ({"hand_number": -1}, "hand_number must be an int"),
        ({"dealer": True}, "dealer must be an int"),
        ({"seat": 1.0}, "seat must be an int"),
    ],
)
def test_the_sampler_refuses_a_mistyped_view_before_any_try(
    monkeypatch: pytest.MonkeyPatch, change: dict[str, Any], message: str
) -> None:
    """A view whose seat, dealer, hand number or hand no deal can give fails every try, and
    spent the whole budget of tries (15 s and more) before it said so: refused up front."""
    proposed: list[object] = []
    propose = sampling._Model.propose

    def counted(model: sampling._Model, rng: Generator) -> list[Card] | None:
        proposed.append(model)
        return propose(model, rng)

    monkeypatch.setattr(sampling._Model, "propose", counted)
    # A hand in play and a finished one, in two and four players.
    for name, moves in (("spanish-2p", 5), ("spanish-2p", 999), ("spanish-4p", 999)):
        view = forge(brisca.observe(played(name, moves), 0), **change)
        if view is None:  # the compiled build refused it as it was stored
            continue
        with pytest.raises(brisca.StateError, match=message):
            sampling.sample_state(view, Generator(1))
    assert not proposed, "the sampler tried to deal a view it could have refused at once"


def _turn_forgeries(view: brisca.Observation) -> dict[str, brisca.Observation]:
    """Views no play gives, each a well-typed edit of `view`'s sides or tricks."""
    tricks, sides = view.tricks, view.sides
    first, second = tricks[0], tricks[1]
    return {
        "tricks reversed": attrs.evolve(view, tricks=tricks[::-1]),
        "a trick left out": attrs.evolve(view, tricks=tricks[1:]),
        "a trick in another order": attrs.evolve(
            view, tricks=(attrs.evolve(first, cards=first.cards[::-1]), *tricks[1:])
        ),
        "a trick won by a seat not in it": attrs.evolve(
            view, tricks=(attrs.evolve(first, winner=99), *tricks[1:])
        ),
        "the next trick led by another": attrs.evolve(
            view,
            tricks=(
                first,
                attrs.evolve(second, cards=second.cards[1:] + second.cards[:1]),
                *tricks[2:],
            ),
        ),
        "the sides merged": attrs.evolve(view, sides=(tuple(s for side in sides for s in side),)),
        "a side left out": attrs.evolve(view, sides=sides[1:]),
        "the sides in another order": attrs.evolve(view, sides=sides[::-1]),
    }


@pytest.mark.parametrize("name", ["spanish-4p", "arrastre-4p", "spanish-5p", "chiamata-5p"])
def test_the_sampler_refuses_sides_and_tricks_no_play_gives_before_any_try(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Sides that are not the table's (or its contract's), and tricks not played in turn
    from the winner of the one before, fail every try: they spent the whole budget of
    tries (3 to 10 s in these presets) before they were refused, and are refused at once."""
    proposed: list[object] = []
    propose = sampling._Model.propose

    def counted(model: sampling._Model, rng: Generator) -> list[Card] | None:
        proposed.append(model)
        return propose(model, rng)

    monkeypatch.setattr(sampling._Model, "propose", counted)
    state = played(name, 0)
    while len(state.tricks) < 3:
        state = brisca.apply(state, brisca.legal_actions(state)[0])
    view = brisca.observe(state, state.to_act)  # type: ignore[arg-type]
    sampling.sample_state(view, Generator(1))  # the genuine view samples
    proposed.clear()
    for what, forged in _turn_forgeries(view).items():
        with pytest.raises(brisca.StateError, match=r"^the observation's"):
            sampling.sample_state(forged, Generator(1))
        assert not proposed, f"the sampler tried to deal a view with {what}"


@pytest.mark.parametrize("change", [{"dealer": True}, {"seat": 1.0}, {"to_act": 0.0}])
def test_the_sampler_refuses_a_mistyped_view_equal_to_one_it_has_sampled(
    change: dict[str, Any],
) -> None:
    """1.0 == 1 and True == 1, so such a view hits the cached model of the genuine one: it
    is refused all the same, whatever was sampled before."""
    view = brisca.observe(played("spanish-2p", 0), 1)
    sampling.sample_state(view, Generator(1))
    forged = forge(view, **change)
    if forged is not None:  # the compiled build refuses it, or stores True as 1
        with pytest.raises(brisca.StateError, match="must be an int"):
            sampling.sample_state(forged, Generator(1))


def test_the_search_bot_refuses_a_view_it_cannot_count_the_cards_of() -> None:
    state = played("spanish-2p", 0)
    view = _forged(brisca.observe(state, 0), "hand_sizes", (None,))
    with pytest.raises(brisca.StateError, match=r"^the observation is inconsistent"):
        bots.SearchBot(samples=1, seed=1)(view, list(brisca.legal_actions(state)))


def test_genuine_values_still_solve_sample_and_play_the_same() -> None:
    """The guards change nothing for values play makes."""
    state = _endgame("spanish-2p", seed=7)
    solution = search.solve(state)
    assert solution.exact
    assert search.score(state, 0) + search.score(state, 1) + sum(
        state.seating.card_points[c] for hand in state.hands for c in hand
    ) == sum(state.seating.card_points[c] for c in state.rules.cards)
    view = brisca.observe(state, state.to_act)  # type: ignore[arg-type]
    sample = sampling.sample_state(view, Generator(1))
    assert brisca.observe(sample, view.seat) == view
    final, outcome = bots.play_game(
        "spanish-4p", [bots.SearchBot(samples=2, seed=s, budget=20_000) for s in range(4)], seed=5
    )
    assert final.is_over and sum(outcome.points) == 120


# The batch engine: its arguments.

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from brisca.batch import MAX_GAMES, Batch, card_ids  # noqa: E402
from brisca.batch import games as batch_games  # noqa: E402


@pytest.mark.parametrize(
    "cards", [None, 7, 1.0, True, "1O", b"1O", [None], [7], [(1, "O")], ["1Z"], [object()]]
)
def test_card_ids_of_anything_but_cards_is_a_brisca_error(cards: object) -> None:
    with pytest.raises(brisca.BriscaError):
        card_ids("spanish-2p", cards)  # type: ignore[arg-type]


def test_card_ids_of_a_card_of_another_pack_is_a_state_error() -> None:
    with pytest.raises(brisca.StateError, match="not in the pack"):
        card_ids("spanish-2p", ["8O"])
    assert card_ids("spanish-2p", ["1O", Card.parse("2O")]) == [0, 1]


@pytest.mark.parametrize("name", ["spanish-2p", "spanish-3p", "spanish-4p", "spanish-6p"])
def test_the_largest_batch_accepted_fits_its_memory_and_one_more_game_is_refused(
    name: str,
) -> None:
    """The arrays of a batch grow with it: 2**24 games took some 41 GB. A batch is refused
    past MAX_BATCH_BYTES, before it allocates anything, with an error saying how many fit."""
    per_game = batch_games.batch_bytes(name, 1)
    most = batch_games.MAX_BATCH_BYTES // per_game
    assert most < MAX_GAMES
    assert batch_games.batch_bytes(name, most) <= batch_games.MAX_BATCH_BYTES <= 4 * 2**30
    tracemalloc.start()
    try:
        for size in (most + 1, MAX_GAMES):
            with pytest.raises(brisca.StateError, match=f"at most {most:,} games"):
                Batch(name, size)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2**20, "the refused batch allocated its arrays first"


@pytest.mark.parametrize("name", ["spanish-2p", "spanish-6p", "puerto-rican-3p"])
def test_batch_bytes_counts_every_array_a_batch_holds_and_makes(name: str) -> None:
    """The memory check is only as good as its count: the rows, the logs and the largest array
    a call makes, measured on a small batch."""
    size = 5
    batch = Batch(name, size)
    batch.reset(shuffle_seed=1)
    kept = batch._games.nbytes + batch._logs.nbytes
    made = max(batch.observe(0).nbytes, batch.legal_mask().nbytes, batch._games.nbytes)
    assert kept + made <= batch_games.batch_bytes(name, size)
    assert batch_games.batch_bytes(name, size) <= 2 * (kept + made)


@pytest.mark.parametrize("size", [None, 0, -1, 1.0, True, "2", 10**30])
def test_a_batch_of_a_wrong_size_is_a_state_error(size: object) -> None:
    with pytest.raises(brisca.StateError):
        Batch("spanish-2p", size)  # type: ignore[arg-type]


def test_random_playouts_stay_within_memory_at_their_largest() -> None:
    """random_playouts keeps only points and winners: some 40 bytes a game, under 1 GiB at
    MAX_GAMES; it is refused past that."""
    sides = max(len(brisca.new_game(n, seed=1).sides) for n in ("spanish-3p", "spanish-6p"))
    assert MAX_GAMES * 8 * (sides + 2) < 2**30
    with pytest.raises(brisca.StateError):
        batch_games.random_playouts("spanish-2p", MAX_GAMES + 1)
