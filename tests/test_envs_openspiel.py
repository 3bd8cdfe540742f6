"""The OpenSpiel game: OpenSpiel's own random_sim_test, the shuffle, views, returns, secrecy,
serialization, resampling and bad input."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel
import pytest

import brisca
from brisca.agents.encoding import (
    action_from_index,
    action_index,
    encode_observation,
    encoding_size,
)
from brisca.envs.openspiel import GAME_NAME, BriscaGame, BriscaState
from brisca.formats.views import observation_to_dict
from brisca.game.events import CardsDrawn

CHANCE = pyspiel.PlayerId.CHANCE


def load(name: str = "spanish-2p", **params: Any) -> BriscaGame:
    game: BriscaGame = pyspiel.load_game(GAME_NAME, {"preset": name, **params})
    return game


def dealt(game: BriscaGame, deck: Any) -> BriscaState:
    """A state whose shuffle dealt `deck`."""
    state = game.new_initial_state()
    for outcome in game.deal_outcomes(deck):
        state.apply_action(outcome)
    return state


def seeded(game: BriscaGame, seed: int) -> BriscaState:
    return dealt(game, brisca.new_game(game.rules, seed=seed).deal.deck)


def play_first(state: BriscaState, until: int | None = None) -> BriscaState:
    """Take the first legal action until the hand ends (or `until` decisions)."""
    taken = 0
    while not state.is_terminal() and (until is None or taken < until):
        state.apply_action(state.legal_actions()[0])
        taken += 1
    return state


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("spanish-2p", {}),
        ("spanish-4p", {}),
        ("arrastre-2p", {}),
        ("arrastre-4p", {"reward": "win"}),
        ("puerto-rican-2p", {}),
        ("casino-2p", {}),
        ("subastada-4p", {}),
        ("spanish-5p", {}),
        ("chiamata-5p", {"reward": "win"}),
    ],
)
def test_openspiels_random_sim_test_passes_with_serialization(
    name: str, params: dict[str, Any]
) -> None:
    """pyspiel.random_sim_test, serialize=True: clones, serialization, legal-action masks,
    observation and information-state sizes, returns within the bounds and summing as the
    game's utility type says, the game length within its bound."""
    pyspiel.random_sim_test(load(name, **params), num_sims=3, serialize=True, verbose=False)


def test_the_shuffle_is_one_chance_node_per_card_in_deck_order() -> None:
    """Each chance node draws the next card of new_game's deck order, each card left
    equally likely; after the last, the hand is new_game(rules, deck=that order)."""
    game = load("spanish-2p")
    cards = game.rules.cards
    state = game.new_initial_state()
    order = list(reversed(range(len(cards))))
    for k, outcome in enumerate(order):
        assert state.current_player() == CHANCE
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == sorted(set(range(len(cards))) - set(order[:k]))
        assert [p for _, p in outcomes] == pytest.approx([1 / (len(cards) - k)] * len(outcomes))
        state.apply_action(outcome)
    expected = brisca.new_game(game.rules, deck=[cards[i] for i in order])
    assert state.game_state == expected
    assert state.current_player() == 0
    assert state.chance_outcomes() == []


def test_deal_outcomes_replay_a_seeded_deal() -> None:
    """deal_outcomes(new_game(rules, seed=s).deal.deck) deals brisca's seed-s hand."""
    game = load("arrastre-4p")
    state = seeded(game, 7)
    reference = brisca.new_game(game.rules, seed=7)
    assert state.game_state.hands == reference.hands
    assert state.game_state.stock == reference.stock
    assert state.game_state.trump_card == reference.trump_card


def test_the_legal_actions_are_the_engines_by_action_index() -> None:
    """legal_actions() is action_index of every brisca.legal_actions, sorted; the strings
    are the actions' notation."""
    game = load("puerto-rican-4p")
    state = seeded(game, 3)
    while not state.is_terminal():
        engine = brisca.legal_actions(state.game_state)
        assert state.legal_actions() == sorted(action_index(a, game.rules) for a in engine)
        strings = {state.action_to_string(a) for a in state.legal_actions()}
        assert strings == {str(a) for a in engine}
        state.apply_action(state.legal_actions()[-1])


def test_the_observation_is_the_seats_view_encoded() -> None:
    """observation_tensor is encode_observation(observe); the string is the JSON of
    observation_to_dict without the rules; the information state begins with them."""
    game = load("spanish-3p")
    state = play_first(seeded(game, 2), until=4)
    for seat in range(3):
        view = brisca.observe(state.game_state, seat)
        assert state.observation_tensor(seat) == pytest.approx(encode_observation(view))
        data = json.loads(state.observation_string(seat))
        expected = observation_to_dict(view)
        del expected["rules"]
        assert data == expected
        info = state.information_state_tensor(seat)
        assert info[: encoding_size(game.rules)] == pytest.approx(encode_observation(view))


def test_the_information_state_adds_the_dealt_hand_and_the_draws() -> None:
    """What observe forgets, for perfect recall: seat 0's dealt hand, and each card it
    drew with the tricks complete then (in the tensor, over tricks_per_hand)."""
    game = load("spanish-2p")
    state = play_first(seeded(game, 7), until=4)  # two tricks, two draws each
    engine = state.game_state
    info = json.loads(state.information_state_string(0))
    assert info["dealt"] == [c.code for c in engine.deal.hands[0]]
    assert [tricks for tricks, _ in info["drawn"]] == [1, 2]
    held_or_played = {c.code for c in engine.hands[0]} | {
        c.code for t in engine.tricks for s, c in t.cards if s == 0
    }
    assert {code for _, code in info["drawn"]} <= held_or_played - set(info["dealt"])
    tensor = np.asarray(state.information_state_tensor(0))
    d = len(game.rules.cards)
    index = {c.code: i for i, c in enumerate(game.rules.cards)}
    dealt_block = tensor[-2 * d : -d]
    drawn_block = tensor[-d:]
    assert sorted(np.flatnonzero(dealt_block)) == sorted(index[c] for c in info["dealt"])
    for tricks, code in info["drawn"]:
        assert drawn_block[index[code]] == pytest.approx(tricks / game.rules.tricks_per_hand)


def test_the_information_state_tells_apart_deals_the_observation_tensor_does_not() -> None:
    """Seat 0 dealt a, b, c draws x, or dealt a, b, x draws c: after it plays a, it holds the
    same cards, so the observation tensors agree; the information states do not."""
    game = load("spanish-2p")
    rules = game.rules
    layout = brisca.deal_layout(rules, 1)
    deck = list(brisca.new_game(rules, seed=11).deal.deck)
    state = dealt(game, deck)
    state.apply_action(action_index(brisca.Play(deck[layout.hands[0][0]]), rules))
    state.apply_action(state.legal_actions()[0])
    draw = layout.stock[0] if state.game_state.tricks[0].winner == 0 else layout.stock[1]
    other = list(deck)
    third = layout.hands[0][2]
    other[third], other[draw] = other[draw], other[third]
    twin = dealt(game, other)
    for action in state.history()[len(rules.cards) :]:
        twin.apply_action(action)
    assert set(twin.game_state.hands[0]) == set(state.game_state.hands[0])
    assert twin.observation_tensor(0) == state.observation_tensor(0)
    assert twin.information_state_tensor(0) != state.information_state_tensor(0)
    assert twin.information_state_string(0) != state.information_state_string(0)


def worlds(name: str, seed: int, where: str) -> tuple[list[Any], list[Any]]:
    """A seeded deck, and the same with a card seat 0 cannot see (seat 1's first card, or
    the turned card) and the fourth stock card exchanged."""
    rules = brisca.preset(name)
    layout = brisca.deal_layout(rules, rules.num_players - 1)
    hidden = layout.hands[1][0] if where == "hand" else layout.turned
    assert hidden is not None
    deck = list(brisca.new_game(rules, seed=seed).deal.deck)
    swapped = list(deck)
    swapped[hidden], swapped[layout.stock[3]] = swapped[layout.stock[3]], swapped[hidden]
    return deck, swapped


def views(state: BriscaState, seat: int) -> tuple[Any, ...]:
    return (
        state.observation_string(seat),
        state.observation_tensor(seat),
        state.information_state_string(seat),
        state.information_state_tensor(seat),
    )


@pytest.mark.parametrize(
    ("name", "where", "turns"),
    # Under cubierta seat 0's first play may reveal the covered trump, so only its views
    # before it plays are compared there.
    [("spanish-2p", "hand", 2), ("spanish-4p", "hand", 3), ("cubierta-2p", "turned", 1)],
)
def test_worlds_differing_only_in_hidden_cards_look_the_same(
    name: str, where: str, turns: int
) -> None:
    """Exchanging a card seat 0 cannot see leaves its observation and information state,
    strings and tensors, unchanged, also after it has played."""
    deck, swapped = worlds(name, 5, where)
    game = load(name)
    one, two = dealt(game, deck), dealt(game, swapped)
    assert one.game_state != two.game_state
    for turn in range(turns):
        if turn:  # the same action in both worlds
            action = one.legal_actions()[0]
            one.apply_action(action)
            two.apply_action(action)
        assert views(one, 0) == views(two, 0)


def test_the_check_of_hidden_cards_can_fail() -> None:
    """Exchanging one of seat 0's own cards with the stock does change what it sees."""
    game = load("spanish-2p")
    layout = brisca.deal_layout(game.rules, 1)
    deck = list(brisca.new_game(game.rules, seed=5).deal.deck)
    swapped = list(deck)
    own, stock = layout.hands[0][0], layout.stock[3]
    swapped[own], swapped[stock] = swapped[stock], swapped[own]
    one, two = views(dealt(game, deck), 0), views(dealt(game, swapped), 0)
    assert all(a != b for a, b in zip(one, two, strict=True))


def test_during_the_shuffle_a_seat_sees_only_how_many_cards_are_out() -> None:
    """No card is shown before the deal is complete, not even the seat's own."""
    game = load("spanish-2p")
    state = game.new_initial_state()
    for outcome in range(5):
        state.apply_action(outcome)
    assert json.loads(state.information_state_string(0)) == {"seat": 0, "shuffled": 5}
    assert not any(state.observation_tensor(0))
    assert state.game_state is None


def test_the_margin_is_shared_by_partners_at_the_end() -> None:
    """spanish-4p: returns are 0 until the end, then each side's points minus the other's."""
    game = load("spanish-4p")
    state = seeded(game, 11)
    while not state.is_terminal():
        assert state.returns() == [0.0] * 4
        state.apply_action(state.legal_actions()[0])
    points = brisca.result(state.game_state).points
    margin = points[0] - points[1]
    assert state.returns() == [margin, -margin, margin, -margin]
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM


def test_the_win_reward_is_plus_or_minus_one() -> None:
    """reward="win": +1 to the winning side's seats, -1 to the other's."""
    state = play_first(seeded(load("spanish-2p", reward="win"), 4))
    outcome = brisca.result(state.game_state)
    assert outcome.winner is not None
    expected = [-1.0, -1.0]
    expected[outcome.sides[outcome.winner][0]] = 1.0
    assert state.returns() == expected


def test_the_utility_type_follows_the_sides() -> None:
    """Fixed sides of one size are zero-sum; three seats under win, or sides formed in the
    auction, are general-sum."""
    general = pyspiel.GameType.Utility.GENERAL_SUM
    assert load("spanish-3p").get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert load("spanish-3p", reward="win").get_type().utility == general
    assert load("chiamata-5p").get_type().utility == general
    assert load("subastada-3p").get_type().utility == general
    assert load("subastada-3p").utility_sum() is None


def test_a_seat_that_sits_out_never_acts() -> None:
    """spanish-5p: the dealer sits out; it is a player that never acts and gets 0."""
    game = load("spanish-5p", dealer=2)
    state = seeded(game, 3)
    acted = set()
    while not state.is_terminal():
        acted.add(state.current_player())
        state.apply_action(state.legal_actions()[0])
    assert acted == {0, 1, 3, 4}
    assert state.returns()[2] == 0.0


def test_the_auction_comes_before_play_and_a_void_hand_returns_nothing() -> None:
    """subastada-4p: the first decisions are calls; when all four pass, the hand ends."""
    game = load("subastada-4p")
    state = seeded(game, 1)
    calls = brisca.legal_actions(state.game_state)
    assert calls and not any(isinstance(a, brisca.Play) for a in calls)
    assert state.legal_actions() == sorted(action_index(a, game.rules) for a in calls)
    passing = action_index(brisca.Pass(), game.rules)
    for _ in range(4):
        state.apply_action(passing)
    assert state.is_terminal()
    assert brisca.result(state.game_state).void
    assert state.returns() == [0.0] * 4


def test_options_over_the_preset_from_a_game_string_and_a_dict() -> None:
    """options=(...) in a game string and a nested dict both set Rules options; a list
    option reads its items separated by spaces; the game string loads the same game."""
    game = pyspiel.load_game("python_brisca(preset=arrastre-2p,options=(tie_rule=draw))")
    assert game.rules == brisca.Rules.from_dict(
        {**brisca.preset("arrastre-2p").to_dict(), "tie_rule": "draw"}
    )
    three = load("spanish-3p", options={"removed_cards": "4B"})
    assert [c.code for c in three.rules.removed_cards] == ["4B"]
    four = pyspiel.load_game("python_brisca(preset=spanish-3p,options=(removed_cards=2B 4B 2O 4O))")
    assert [c.code for c in four.rules.removed_cards] == ["2B", "4B", "2O", "4O"]
    twos = load("spanish-3p", options={"removed_cards": "all_twos"})  # text the option takes
    assert {c.rank for c in twos.rules.removed_cards} == {2}
    for loaded in (game, three, four, twos):
        assert pyspiel.load_game(str(loaded)).rules == loaded.rules
    assert str(load("spanish-2p")) == "python_brisca(dealer=-1,preset=spanish-2p,reward=margin)"


def test_serialization_carries_the_hand_and_the_draws() -> None:
    """serialize_game_and_state and back, mid-hand and mid-shuffle: the same hand, history
    and information states (the draws are rebuilt from the library's JSON)."""
    game = load("arrastre-4p")
    state = play_first(seeded(game, 9), until=10)
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert again.game_state == state.game_state
    assert again.history() == state.history()
    for seat in range(4):
        assert again.information_state_string(seat) == state.information_state_string(seat)
    shuffling = game.new_initial_state()
    shuffling.apply_action(3)
    back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, shuffling))
    assert back[1].chance_outcomes() == shuffling.chance_outcomes()


RAN: list[str] = []


def _payload() -> None:
    """What a hostile pickle would run: it leaves a mark."""
    RAN.append("ran")


class _Hostile:
    def __reduce__(self) -> tuple[Any, tuple[()]]:
        return _payload, ()


@pytest.mark.parametrize("name", ["spanish-2p", "arrastre-4p", "subastada-4p", "cubierta-2p"])
def test_deserialize_state_replays_the_history_at_every_step(name: str) -> None:
    """game.deserialize_state(state.serialize()) is the same state at every chance node
    and decision of a random hand: the hand, the history and every seat's views."""
    game = load(name)
    rng = np.random.default_rng(5)
    state = game.new_initial_state()
    while True:
        back = game.deserialize_state(state.serialize())
        assert back.history() == state.history() and back.game_state == state.game_state
        assert back.chance_outcomes() == state.chance_outcomes()
        if not state.is_chance_node():
            for seat in range(game.num_players()):
                assert back.information_state_string(seat) == state.information_state_string(seat)
        if state.is_terminal():
            assert back.returns() == state.returns()
            break
        actions = (
            [a for a, _ in state.chance_outcomes()]
            if state.is_chance_node()
            else state.legal_actions()
        )
        state.apply_action(int(rng.choice(actions)))


def test_deserialize_state_runs_nothing_pickled_in_the_text() -> None:
    """The pickled attributes OpenSpiel writes after the history are never unpickled
    (OpenSpiel's own reader would run what they name): a hostile pickle there runs
    nothing, and the state is the history's."""
    import base64
    import pickle

    game = load()
    state = play_first(seeded(game, 3), until=5)
    head = state.serialize().split("__dict__=")[0]
    hostile = head + "__dict__=" + base64.b64encode(pickle.dumps(_Hostile())).decode()
    RAN.clear()
    back = game.deserialize_state(hostile)
    assert RAN == [] and back.game_state == state.game_state


def test_deserialize_state_refuses_each_part_forged() -> None:
    """A NotationError for a player that is not the one to act, an action the state
    refuses, a move number that is not the count of steps, more steps than a hand has,
    a step that is no pair of ints, and a __dict__= line that is no whole pickle."""
    game = load()
    state = play_first(seeded(game, 3), until=5)
    history, moves, attributes = state.serialize().split("\n")
    steps = history.removeprefix("history=").split(",")
    full = (game.max_chance_nodes_in_history() + game.max_game_length()) // len(steps) + 1
    seat, legal = state.current_player(), state.legal_actions()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    forged = [
        ",".join([*steps, f"{1 - seat}:{legal[0]}"]),  # not that seat's turn
        ",".join([*steps, f"{seat}:{illegal}"]),
        ",".join([*steps[:40], "-1:0"]),  # a card the shuffle dealt already
        ",".join(steps * full),
        ",".join([*steps[:-1], "0:x"]),
        ",".join([*steps[:-1], "0:" + "9" * 40]),
        ",".join(["-0:3", *steps[1:]]),  # OpenSpiel writes none of these forms
        ",".join(["00:3", *steps[1:]]),
        ",".join([*steps[:-1], steps[-1].replace(":", ":0")]),
        ",".join([*steps[:-1], steps[-1].replace(":", ": ")]),
    ]
    for text in forged:
        with pytest.raises(brisca.NotationError):
            game.deserialize_state(f"history={text}\n{moves}\n{attributes}")
    for text in (
        f"{history}\nmove_number=3\n{attributes}",
        f"{history}\nmove_number=-45\n{attributes}",
        f"{history}\n{moves}\n{attributes[:-5]}",
        f"{history}\n{moves}\n{attributes}AAAA",
        f"{history}\n{moves}\n__dict__=not base64",
        f"{history}\n{moves}",
    ):
        with pytest.raises(brisca.NotationError):
            game.deserialize_state(text)


def test_deserialize_state_reads_a_str_subclass_as_its_plain_text() -> None:
    """A str subclass is read as the text it holds, whatever its own methods say; and a
    pickle whose string escape warns, read with warnings as errors, warns nothing out."""
    import base64
    import warnings

    game = load()
    state = play_first(seeded(game, 3), until=5)
    text = state.serialize()

    class Sneaky(str):
        def split(self, *args: Any, **kwargs: Any) -> list[str]:
            return str.split(text, *args, **kwargs)

        def __len__(self) -> int:
            raise KeyError("no length")

    with pytest.raises(brisca.NotationError):
        game.deserialize_state(Sneaky("not a serialized state"))
    assert game.deserialize_state(Sneaky(text)).history() == state.history()
    odd = text.split("__dict__=")[0] + "__dict__=" + base64.b64encode(b"S'\\q'\n.").decode()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert game.deserialize_state(odd).history() == state.history()


def test_deserialize_state_costs_are_linear_in_the_text() -> None:
    """Refusing a history of a million steps reads no more than a hand's worth of them."""
    import time

    from helpers import assert_linear

    game = load()

    def best_time(work: Any) -> float:
        times = []
        for _ in range(3):
            start = time.process_time()
            work()
            times.append(time.process_time() - start)
        return min(times)

    def text(n: int) -> str:
        return "history=" + ",".join(["-1:0"] * n) + "\nmove_number=0\n__dict__="

    def refuse(n: int) -> float:
        junk = text(n)

        def read() -> None:
            with pytest.raises(brisca.NotationError):
                game.deserialize_state(junk)

        return best_time(read)

    assert_linear(lambda: refuse(500_000), lambda: refuse(1_000_000))


def test_a_clone_shares_nothing_it_could_change() -> None:
    """Acting on a clone leaves the original as it was."""
    state = seeded(load("spanish-2p"), 1)
    before = state.game_state
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.game_state == before
    assert clone.game_state != before


def test_resample_from_infostate_keeps_the_information_state_and_changes_hidden_cards() -> None:
    """A resampled world has the seat's information state and hand, and other hands that
    vary between samples."""
    game = load("arrastre-2p")
    state = play_first(seeded(game, 6), until=9)
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    others = set()
    for _ in range(8):
        world = state.resample_from_infostate(seat, sampler)
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.game_state.hands[seat] == state.game_state.hands[seat]
        others.add(world.game_state.hands[1 - seat])
        play_first(world)  # the world plays on to its end
    assert len(others) > 1
    with pytest.raises(brisca.StateError, match="shuffle"):
        game.new_initial_state().resample_from_infostate(0, sampler)
    with pytest.raises(brisca.StateError, match="sampler"):
        state.resample_from_infostate(seat, lambda: "x")
    with pytest.raises(brisca.StateError, match="needs a deck"):
        game.deal_outcomes(None)  # type: ignore[arg-type]


def test_a_resampled_world_holds_no_action_the_seat_did_not_see() -> None:
    """Team-private señas: seat 1 signals to its partner; a world resampled for seat 0 has
    no such signal, one for seat 3, the partner, has it."""
    game = load("spanish-4p", options={"signals": "team_private"})
    state = seeded(game, 1)
    state.apply_action(state.legal_actions()[0])  # seat 0 plays
    signal = action_index(brisca.Signal("head_shake"), game.rules)
    assert signal in state.legal_actions()
    state.apply_action(signal)  # seat 1
    state.apply_action(state.legal_actions()[0])  # seat 1 plays
    sampler = pyspiel.UniformProbabilitySampler(3, 0.0, 1.0)
    opponent = state.resample_from_infostate(0, sampler)
    partner = state.resample_from_infostate(3, sampler)
    assert signal not in opponent.history()[len(game.rules.cards) :]
    assert signal in partner.history()[len(game.rules.cards) :]
    assert opponent.information_state_string(0) == state.information_state_string(0)


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    """A card not in hand raises IllegalActionError saying why; the state is unchanged."""
    game = load("spanish-2p")
    state = seeded(game, 7)
    foreign = next(c for c in game.rules.cards if c not in state.game_state.hands[0])
    text, history = str(state), state.history()
    with pytest.raises(brisca.IllegalActionError, match="not in the hand of seat 0"):
        state.apply_action(action_index(brisca.Play(foreign), game.rules))
    assert (str(state), state.history()) == (text, history)
    with pytest.raises(brisca.NotationError, match="action index"):
        state.apply_action(999)


def test_a_chance_outcome_must_be_a_card_still_in_the_pack() -> None:
    """A card twice, or an index past the pack, is refused during the shuffle."""
    state = load("spanish-2p").new_initial_state()
    state.apply_action(4)
    with pytest.raises(brisca.IllegalActionError, match="left the pack"):
        state.apply_action(4)
    with pytest.raises(brisca.NotationError, match="card's index"):
        state.apply_action(40)
    assert state.history() == [4]


@pytest.mark.parametrize(
    ("params", "error", "message"),
    [
        ({"preset": "spanish-9p"}, brisca.RulesError, "unknown preset"),
        ({"options": {"no_such_option": 1}}, brisca.RulesError, "unknown rules option"),
        ({"options": {"tie_rule": "sometimes"}}, brisca.RulesError, "tie_rule"),
        ({"reward": "points"}, brisca.StateError, "reward must be one of margin, win"),
        ({"dealer": 7}, brisca.StateError, "dealer must be"),
        ({"seed": 7}, pyspiel.SpielError, "Unknown parameter 'seed'"),
        ({"dealer": "last"}, pyspiel.SpielError, "Wrong type for parameter dealer"),
    ],
)
def test_bad_parameters_are_refused(
    params: dict[str, Any], error: type[Exception], message: str
) -> None:
    """Unknown or mistyped parameters get OpenSpiel's SpielError; bad values a BriscaError."""
    with pytest.raises(error, match=message):
        pyspiel.load_game(GAME_NAME, params)


def test_the_game_built_directly_refuses_unknown_parameters() -> None:
    """BriscaGame(params) without load_game checks the names itself."""
    with pytest.raises(brisca.StateError, match="unknown parameter"):
        BriscaGame({"seed": 1})
    with pytest.raises(brisca.RulesError, match="nested parameters"):
        BriscaGame({"options": "tie_rule=draw"})


def test_observers_of_other_kinds_are_refused() -> None:
    """Only one seat's view is offered, with or without perfect recall."""
    game = load()
    public = pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
    )
    with pytest.raises(brisca.StateError, match="one seat's view"):
        game.make_py_observer(public)
    with pytest.raises(brisca.StateError, match="no parameters"):
        game.make_py_observer(None, {"x": 1})


def test_deal_outcomes_refuses_a_deck_that_is_not_the_pack() -> None:
    """A short deck is a StateError from new_game."""
    with pytest.raises(brisca.StateError):
        load().deal_outcomes(["1O", "2O"])


@pytest.mark.parametrize(
    "name",
    ["spanish-2p", "spanish-4p", "arrastre-2p", "subastada-4p", "chiamata-5p", "spanish-6p"],
)
def test_the_python_fast_paths_give_what_openspiels_own_methods_give(name: str) -> None:
    """observation_tensor, information_state_tensor, legal_actions and is_chance_node,
    called from Python, skip OpenSpiel's C++ round trip (which builds a new state each
    call to size the tensor): at every node of random hands, shuffle included, for every
    player and the default, they give exactly what pyspiel.State's own methods give."""
    game = load(name)
    n = game.rules.num_players
    rng = np.random.default_rng(7)
    for _ in range(3):
        state = game.new_initial_state()
        while True:
            assert state.is_chance_node() is pyspiel.State.is_chance_node(state)
            for player in (None, *range(n)):
                args = () if player is None else (player,)
                assert state.legal_actions(*args) == pyspiel.State.legal_actions(state, *args)
                if player is None and state.current_player() < 0:
                    continue  # no seat's view at a chance or terminal node by default
                assert state.observation_tensor(*args) == pyspiel.State.observation_tensor(
                    state, *args
                )
                assert state.information_state_tensor(
                    *args
                ) == pyspiel.State.information_state_tensor(state, *args)
            if state.is_terminal():
                break
            state.apply_action(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("name", ["spanish-2p", "spanish-4p", "arrastre-2p", "spanish-3p"])
def test_the_deck_places_kept_for_resampling_hold_each_seats_own_cards(name: str) -> None:
    """What resample_from_infostate puts back: at every decision of random hands, the deck
    places kept for a seat hold, in order, the hand it was dealt and then each card it
    drew; each draw is kept with the number of tricks complete then."""
    game = load(name)
    n = game.rules.num_players
    rng = np.random.default_rng(3)
    for _ in range(3):
        state = seeded(game, int(rng.integers(1 << 30)))
        drawn: list[list[tuple[int, brisca.Card]]] = [[] for _ in range(n)]
        while True:
            real, hand = state.game_state, state._hand
            assert real is not None and hand is not None
            for seat in range(n):
                places = hand.positions(seat)
                own = [card for _, card in drawn[seat]]
                assert [real.deal.deck[p] for p in places] == [*real.deal.hands[seat], *own]
                assert [(t, card) for t, card, _ in hand.draws[seat]] == drawn[seat]
            if state.is_terminal():
                break
            action = int(rng.choice(state.legal_actions()))
            after, events = brisca.step(real, action_from_index(action, game.rules))
            for event in events:
                if isinstance(event, CardsDrawn) and event.card is not None:
                    drawn[event.seat].append((len(after.tricks), event.card))
            state.apply_action(action)


@pytest.mark.parametrize(
    "params",
    [
        {"preset": "spanish-4p"},
        {"preset": "arrastre-2p", "reward": "win", "dealer": 0},
        {"preset": "spanish-2p", "options": {"tie_rule": "last_trick"}},
    ],
)
def test_a_game_pickles_and_copies_to_a_game_that_plays_the_same(params: dict[str, Any]) -> None:
    """pybind11's own pickle of a Python game drops its Python half (an unpickled game
    could not even start a hand); a pickled or copied game is rebuilt from its
    parameters, and deals and plays as the original."""
    import copy
    import pickle

    game = load(**params)
    for twin in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game), copy.copy(game)):
        assert str(twin) == str(game)
        assert (twin.rules, twin.reward, twin.dealer) == (game.rules, game.reward, game.dealer)
        a, b = play_first(seeded(game, 4)), play_first(seeded(twin, 4))
        assert a.returns() == b.returns()
        assert a.game_state == b.game_state
