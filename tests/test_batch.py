"""The batch engine (brisca.batch) against the engine: the same deals, the same choices,
every trick, every result, every legal mask and every observation.

``BRISCA_BATCH_DEALS`` sets the deals checked per covered preset (1,000 by default, for
CI; ``BRISCA_BATCH_DEALS=10000`` for the full proof).
"""

from __future__ import annotations

import functools
import os
import random
from collections.abc import Callable, Iterator

import attrs
import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

import brisca  # noqa: E402
from brisca.agents.encoding import action_index  # noqa: E402
from brisca.batch import COVERED, Batch, card_ids, covered_rules, random_playouts  # noqa: E402
from brisca.batch import games as batch_games  # noqa: E402
from brisca.batch import kernel as k  # noqa: E402
from brisca.batch.tables import Tables, kernel_tables  # noqa: E402
from brisca.envs.common import seat_rewards  # noqa: E402
from brisca.game.rng import Generator  # noqa: E402
from brisca.game.state import Observation, State, seating_for  # noqa: E402
from brisca.game.tricks import winning  # noqa: E402

DEALS = int(os.environ.get("BRISCA_BATCH_DEALS", "1000"))
#: Games whose observations are checked too, every step, every seat (the costly part).
OBSERVED = 40


def engine_decks(rules: brisca.Rules, deals: int, seed: int) -> list[list[brisca.Card]]:
    """Deck orders from the library's own generator, one per deal."""
    return [Generator(seed * 1_000_003 + i).shuffle(rules.cards) for i in range(deals)]


def legal_indices(state: State) -> list[int]:
    return sorted(action_index(a, state.rules) for a in brisca.legal_actions(state))


def mismatches(name: str, deals: int, seed: int = 1, observed: bool = False) -> Iterator[str]:
    """Every way the batch and the engine part, playing `deals` deals of preset `name` from
    the same decks (the dealer turning round) with the same uniformly random choices; with
    `observed`, each seat's observation at every step too."""
    rules = brisca.preset(name)
    seats = rules.num_players
    decks = engine_decks(rules, deals, seed)
    dealers = [i % seats for i in range(deals)]
    batch = Batch(rules, deals)
    batch.reset(decks=np.array([card_ids(rules, d) for d in decks]), dealers=np.array(dealers))
    states = [
        brisca.new_game(rules, deck=d, dealer=dealer)
        for d, dealer in zip(decks, dealers, strict=True)
    ]
    choose = random.Random(seed)
    rewards_seen = np.zeros((deals, seats))
    while not batch.done.all():
        mask, to_act = batch.legal_mask(), batch.to_act
        views = [batch.observe(seat) for seat in range(seats)] if observed else []
        actions = np.zeros(deals, dtype=np.int64)
        for g, state in enumerate(states):
            if state.is_over or to_act[g] < 0:
                if state.is_over != (to_act[g] < 0):
                    yield f"{name} deal {g}: over in one engine only"
                continue
            if state.to_act != to_act[g]:
                yield f"{name} deal {g}: seat {to_act[g]} to act, the engine says {state.to_act}"
            legal = legal_indices(state)
            if legal != np.flatnonzero(mask[g]).tolist():
                yield f"{name} deal {g}: legal {np.flatnonzero(mask[g]).tolist()}, engine {legal}"
            for seat, view in enumerate(views):
                expected = reference_observation(brisca.observe(state, seat))
                if not np.allclose(view[g], np.array(expected, dtype=np.float32)):
                    yield f"{name} deal {g}, seat {seat}: the observation differs"
            actions[g] = choose.choice(legal)
            states[g] = brisca.apply(state, batch.actions[actions[g]])
        rewards, _ = batch.step(actions)
        rewards_seen += rewards
    if not all(s.is_over for s in states):
        yield f"{name}: the batch ended games the engine goes on with"
        return
    points, winners = batch.results()
    for g, state in enumerate(states):
        tricks = tuple((t.leader, t.cards, t.winner, t.points) for t in state.tricks)
        if batch.tricks(g) != tricks:
            yield f"{name} deal {g}: tricks {batch.tricks(g)}, engine {tricks}"
        outcome = brisca.result(state)
        winner = -1 if outcome.winner is None else outcome.winner
        if (tuple(points[g]), winners[g]) != (outcome.points, winner):
            yield f"{name} deal {g}: result {points[g]}, {winners[g]}, engine {outcome}"
        if rewards_seen[g].tolist() != seat_rewards(outcome, seats, "margin"):
            yield f"{name} deal {g}: rewards {rewards_seen[g]}, engine {outcome}"


@functools.cache
def _reference_tables(rules: brisca.Rules) -> tuple[dict[str, int], int, dict[brisca.Card, int]]:
    layout = brisca.batch.observation_layout(rules)
    blocks = {name: offset for name, offset, _ in layout}
    return blocks, layout[-1][1] + layout[-1][2], {c: i for i, c in enumerate(rules.cards)}


def reference_observation(obs: Observation) -> list[float]:
    """The batch's observation built from the engine's `observe` alone: what it holds is
    what the seat may know."""
    rules = obs.rules
    n, d = rules.num_players, len(rules.cards)
    blocks, size, ids = _reference_tables(rules)
    out = [0.0] * size

    def rel(seat: int) -> int:
        return (seat - obs.seat) % n

    def put(block: str, index: int, value: float = 1.0) -> None:
        out[blocks[block] + index] = value

    for card in obs.hand:
        put("hand", ids[card])
    played = [(s, c) for t in obs.tricks for s, c in t.cards] + list(obs.trick)
    for seat, card in played:
        put("played", rel(seat) * d + ids[card])
    for seat, card in obs.trick:
        put("trick", rel(seat) * d + ids[card])
    known: list[set[brisca.Card]] = [set() for _ in range(n)]
    for swap in obs.swaps:
        known[swap.seat].add(swap.taken)
        known[swap.seat].discard(swap.given)
    if obs.trump_card_drawn is not None:
        known[obs.trump_card_drawn[0]].add(obs.trump_card_drawn[1])
    for seat, card in played:
        known[seat].discard(card)
    for seat in range(n):
        for card in known[seat]:
            put("known", rel(seat) * d + ids[card])
    if obs.trump_card is not None:
        put("turned", ids[obs.trump_card])
    assert obs.trump is not None
    put("trump", "OCEB".index(obs.trump.value))
    if obs.to_act is not None:
        put("to_act", rel(obs.to_act))
    put("dealer", rel(obs.dealer))
    for seat in next(side for side in obs.sides if obs.seat in side):
        put("partners", rel(seat))
    put("stock", 0, obs.stock_size / d)
    for t in obs.tricks:
        out[blocks["points"] + rel(t.winner)] += t.points / 120
    put("tricks_done", 0, len(obs.tricks) / rules.tricks_per_hand)
    for record in obs.signals:
        names = ("lip_bite", "shoulder", "wink", "head_shake")
        put("signals", rel(record.seat) * 4 + names.index(record.signal))
    return out


@pytest.mark.parametrize("name", COVERED)
def test_the_batch_plays_every_covered_preset_as_the_engine_does(name: str) -> None:
    """DEALS deals per preset, from the engine's decks with the same random choices: the
    same legal masks at every step, the same tricks, results and rewards."""
    assert list(_first(mismatches(name, DEALS), 5)) == []


@pytest.mark.parametrize("name", COVERED)
def test_each_seats_observation_is_the_engines_view_encoded(name: str) -> None:
    """At every step of OBSERVED games, each seat's observation equals one built from
    brisca.observe alone: it holds nothing the seat may not know."""
    assert list(_first(mismatches(name, OBSERVED, seed=2, observed=True), 5)) == []


def _first(items: Iterator[str], n: int) -> Iterator[str]:
    for i, item in enumerate(items):
        if i == n:
            return
        yield item


def table_mismatches(rules: brisca.Rules, tables: Tables, samples: int = 3000) -> list[str]:
    """Where the kernel's tables part from the library's: points, strength, trick winner."""
    cards = rules.cards
    found = []
    for i, card in enumerate(cards):
        if tables[k.T_POINTS][i] != rules.card_points(card):
            found.append(f"points of {card}")
        if tables[k.T_STRENGTH][i] != rules.card_strength(card):
            found.append(f"strength of {card}")
        if tables[k.T_SUIT][i] != "OCEB".index(card.suit.value):
            found.append(f"suit of {card}")
    seats = rules.num_players
    seating = seating_for(rules, seats - 1)
    choose = random.Random(5)
    row = np.zeros(k.WIDTH, dtype=np.int64)
    for _ in range(samples):
        trick = choose.sample(range(len(cards)), seats)
        trump = choose.randrange(4)
        row[k.TRUMP] = trump
        row[k.TRICK : k.TRICK + seats] = trick
        suit = brisca.Suit("OCEB"[trump])
        played = tuple((j, cards[c]) for j, c in enumerate(trick))
        expected = winning(played, suit, seating)[0]
        if k.winning(row, tables, seats) != expected:
            found.append(f"winner of {[str(c) for _, c in played]}, trump {suit.value}")
    return found


@pytest.mark.parametrize("name", COVERED)
def test_the_kernels_tables_are_the_librarys(name: str) -> None:
    """Card points and trick strength are Rules.card_points and Rules.card_strength, and
    the kernel's trick winner is brisca.game.tricks.winning, over sampled tricks."""
    rules = brisca.preset(name)
    assert table_mismatches(rules, kernel_tables(rules)) == []


def perturbed(change: Callable[[Tables], None]) -> Callable[[brisca.Rules], Tables]:
    def tables(rules: brisca.Rules) -> Tables:
        found = kernel_tables(rules).copy()
        change(found)
        return found

    return tables


def _weaker_three(tables: Tables) -> None:
    three_oros = brisca.preset("spanish-2p").cards.index(brisca.Card.parse("3O"))
    tables[k.T_STRENGTH][three_oros] -= 3  # below the 12 and the 11


def _richer_king(tables: Tables) -> None:
    king_bastos = brisca.preset("spanish-2p").cards.index(brisca.Card.parse("12B"))
    tables[k.T_POINTS][king_bastos] += 1


@pytest.mark.parametrize("bug", [_weaker_three, _richer_king], ids=["strength", "points"])
def test_a_seeded_bug_in_one_table_entry_is_caught(
    bug: Callable[[Tables], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One entry of a table off by a little: both the table check and the game-by-game
    check report it, so the equality tests above can fail."""
    rules = brisca.preset("spanish-2p")
    assert table_mismatches(rules, perturbed(bug)(rules)) != []
    monkeypatch.setattr(batch_games, "kernel_tables", perturbed(bug))
    assert list(_first(mismatches("spanish-2p", 200), 1)) != []


def test_seeds_deal_as_new_game_does() -> None:
    """reset(seeds=...) deals each game as new_game(rules, seed=s, dealer=d)."""
    rules = brisca.preset("spanish-4p")
    seeds, dealer = [3, 10**40, 0, 77], 2
    batch = Batch(rules, len(seeds))
    batch.reset(seeds=seeds, dealers=dealer)
    _, offset, size = batch.layout[0]
    for seat in range(4):
        hands = batch.observe(seat)[:, offset : offset + size]
        for g, seed in enumerate(seeds):
            state = brisca.new_game(rules, seed=seed, dealer=dealer)
            expected = sorted(rules.cards.index(c) for c in state.hands[seat])
            assert np.flatnonzero(hands[g]).tolist() == expected


@pytest.mark.parametrize("name", sorted(set(brisca.PRESETS) - set(COVERED)))
def test_other_presets_are_refused_with_a_rules_error_naming_the_covered_ones(name: str) -> None:
    with pytest.raises(brisca.RulesError, match=r"brisca\.batch covers the hands of spanish-2p"):
        Batch(name, 2)


def test_options_outside_a_hand_leave_the_rules_covered() -> None:
    """Match settings change no hand: covered; a hand option such as cubierta is not."""
    rules = attrs.evolve(brisca.preset("spanish-2p"), match_target=7, first_dealer="random")
    assert covered_rules(rules) is rules
    with pytest.raises(brisca.RulesError, match="trump_visibility='cubierta'"):
        covered_rules(attrs.evolve(rules, trump_visibility="cubierta"))
    with pytest.raises(brisca.RulesError, match=r"brisca\.Rules or a preset name"):
        covered_rules(42)  # type: ignore[arg-type]


def test_an_illegal_action_raises_and_moves_no_game() -> None:
    batch = Batch("spanish-2p", 2)
    batch.reset(shuffle_seed=3)
    before, mask = batch.observe(0), batch.legal_mask()
    wrong = [int(np.flatnonzero(mask[0])[0]), int(np.flatnonzero(~mask[1])[0])]
    with pytest.raises(brisca.IllegalActionError, match=r"actions\[1\].*is not legal in game 1"):
        batch.step(wrong)
    with pytest.raises(brisca.NotationError, match="action index from 0 to 39"):
        batch.step([0, 40])
    with pytest.raises(brisca.StateError, match=r"shape \(2,\)"):
        batch.step([0])
    assert (batch.observe(0) == before).all()
    assert (batch.legal_mask() == mask).all()


class _Unreadable:
    """An object whose own conversion to an array fails, with a bare KeyError."""

    def __array__(self, *args: object, **kwargs: object) -> object:
        raise KeyError("no array here")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({}, "exactly one of"),
        ({"shuffle_seed": 1, "seeds": [1, 2]}, "exactly one of"),
        ({"decks": [[0] * 40, list(range(40))]}, r"decks\[0\] is not an order"),
        ({"decks": [list(range(40))]}, "shape"),
        ({"decks": "no"}, "array of ints"),
        ({"seeds": [1]}, "hold 2 ints"),
        ({"seeds": [1, -1]}, "seed"),
        ({"shuffle_seed": 1, "dealers": 2}, "dealer"),
        ({"shuffle_seed": 1, "dealers": [0, 5]}, "dealers must be seats"),
        ({"shuffle_seed": 1, "which": [1, 0]}, "which must be 2 booleans"),
        ({"decks": _Unreadable()}, "array of ints"),
        ({"shuffle_seed": 1, "which": _Unreadable()}, "which must be 2 booleans"),
        ({"shuffle_seed": 1, "dealers": _Unreadable()}, "array of ints"),
        ({"seeds": [np.bool_(True), 1]}, r"seeds\[0\]"),
        ({"shuffle_seed": np.float64(1)}, "shuffle_seed"),
    ],
)
def test_bad_resets_raise_state_errors(arguments: dict[str, object], message: str) -> None:
    batch = Batch("spanish-2p", 2)
    with pytest.raises(brisca.StateError, match=message):
        batch.reset(**arguments)  # type: ignore[arg-type]


def test_numpy_integers_serve_as_ints_and_bad_action_arrays_say_why() -> None:
    """The batch takes numpy integers wherever it takes an int (an array's entries are),
    as the environments do, and deals the same games from them; actions past int64 are
    named as given, not wrapped."""
    batch, again = Batch("spanish-2p", np.int64(2)), Batch("spanish-2p", 2)
    batch.reset(seeds=[np.int64(3), np.uint8(4)], dealers=np.int64(0))
    again.reset(seeds=[3, 4], dealers=0)
    batch.play_random(until=np.int64(1), seed=np.int32(5))
    again.play_random(until=1, seed=5)
    assert (batch.observe(np.int64(1)) == again.observe(1)).all()
    batch.reset(seeds=np.array([3, 4]), dealers=np.int64(0))  # an array of seeds too
    again.reset(seeds=[3, 4], dealers=0)
    assert (batch.observe(0) == again.observe(0)).all()
    batch.reset(shuffle_seed=np.int64(7))
    again.reset(shuffle_seed=7)
    assert (batch.legal_mask() == again.legal_mask()).all()
    with pytest.raises(brisca.StateError, match="must fit in int64, got 9223372036854775808"):
        batch.step(np.array([2**63, 0], dtype=np.uint64))
    with pytest.raises(brisca.StateError, match="array of ints"):
        batch.step(_Unreadable())
    with pytest.raises(brisca.StateError, match="size"):
        Batch("spanish-2p", np.bool_(True))  # type: ignore[arg-type]


def test_random_playouts_deal_out_every_point_and_repeat_by_seed() -> None:
    for name in COVERED:
        points, winners = random_playouts(name, 500, seed=4)
        assert (points.sum(axis=1) == 120).all(), name
        top = points.max(axis=1)
        alone = (points == top[:, None]).sum(axis=1) == 1
        assert (winners[alone] == points[alone].argmax(axis=1)).all(), name
        assert (winners[~alone] == -1).all(), name
        again = random_playouts(name, 500, seed=4)
        assert (again[0] == points).all() and (again[1] == winners).all()


def test_play_random_stops_at_the_seat_asked_for() -> None:
    batch = Batch("puerto-rican-4p", 50)
    batch.reset(shuffle_seed=9)
    batch.play_random(until=2)
    assert ((batch.to_act == 2) | batch.done).all()
    batch.play_random()
    assert batch.done.all()
    assert (batch.results()[0].sum(axis=1) == 120).all()


def test_a_lowest_card_of_every_mask_bit() -> None:
    """The kernel's de Bruijn count of trailing zeros, over every bit it may see."""
    for bit in range(48):
        assert k.lowest_card((1 << bit) | (1 << 47)) == bit


def test_a_mask_of_any_layout_reaches_the_kernel_in_one_layout() -> None:
    """A read-only or strided `which` is handed to the kernel as the one layout it was
    compiled for: numba compiled it anew for each other layout, seconds on first use."""
    from brisca.batch import kernel as k

    batch, again = Batch("spanish-2p", 4), Batch("spanish-2p", 4)
    for one in (batch, again):
        one.reset(seeds=[1, 2, 3, 4])
    first = np.array([int(np.flatnonzero(row)[0]) for row in again.legal_mask()])
    Batch("spanish-2p", 4).step(first)  # the kernel's own layout, compiled once
    compiled = {name: len(getattr(k, name).signatures) for name in ("deal_all", "step_all")}
    strided = np.ones(8, dtype=np.bool_)[::2]
    frozen = np.ones(4, dtype=np.bool_)
    frozen.setflags(write=False)
    batch.reset(seeds=[1, 2, 3, 4], which=frozen)
    actions = np.array([int(np.flatnonzero(row)[0]) for row in batch.legal_mask()])
    batch.step(actions, which=strided)
    again.step(actions)
    assert (batch.observe(0) == again.observe(0)).all()
    assert all(compiled.values())
    for name, count in compiled.items():
        assert len(getattr(k, name).signatures) == count, name  # nothing compiled anew
