"""The Gymnasium environment: Gymnasium's own checker, the bots, rewards, seeds and secrecy."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import brisca
from brisca.agents.encoding import action_index, action_space, encoding_size
from brisca.envs.gymnasium import ENV_ID, BriscaEnv

#: The learner's seat in the conformance checks: it plays every preset's first hand, and
#: bots act before it.
SEAT = 1


@pytest.mark.parametrize("name", sorted(brisca.PRESETS))
def test_every_preset_passes_gymnasiums_check_env(name: str) -> None:
    """gymnasium's check_env passes, through gymnasium.make, with no warning."""
    env = gymnasium.make(ENV_ID, rules=name, seat=SEAT)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def first_legal(observation: dict[str, Any]) -> int:
    return int(np.flatnonzero(observation["action_mask"])[0])


def play_out(env: BriscaEnv, observation: dict[str, Any]) -> tuple[float, int]:
    """Play the learner's first legal action to the end: the last reward, and the steps."""
    steps = 0
    while True:
        observation, reward, terminated, truncated, _ = env.step(first_legal(observation))
        steps += 1
        assert not truncated
        if terminated:
            return reward, steps
        assert reward == 0.0


def test_spaces_are_the_encoding_and_the_fixed_action_index() -> None:
    """The observation's length is the encoding's; the actions are action_space(rules)."""
    rules = brisca.preset("subastada-4p")
    env = BriscaEnv(rules)
    assert env.observation_space["observation"].shape == (encoding_size(rules),)
    assert env.action_space.n == len(action_space(rules))


def test_the_learner_acts_only_on_its_turns_and_earns_the_margin_at_the_end() -> None:
    """Bots play the other seats; the reward is the learner's side's margin, once."""
    env = BriscaEnv("spanish-4p", seat=2, opponents="random")
    observation, _ = env.reset(seed=9)
    assert env.game_state.to_act == 2
    reward, steps = play_out(env, observation)
    outcome = brisca.result(env.game_state)
    assert reward == outcome.points[0] - outcome.points[1]  # seat 2 sits with seat 0
    assert steps == env.rules.tricks_per_hand


def test_the_win_reward_is_plus_or_minus_one() -> None:
    """reward="win": the learner gets +1 when its side wins, else -1 or 0 for a tie."""
    env = BriscaEnv("spanish-2p", reward="win")
    reward, _ = play_out(env, env.reset(seed=4)[0])
    outcome = env.outcome
    assert outcome is not None
    expected = 0.0 if outcome.winner is None else (1.0 if outcome.winner == 0 else -1.0)
    assert reward == expected


def test_a_void_hand_ends_with_no_reward() -> None:
    """subastada: when every seat passes, the learner's episode ends with 0."""
    rules = brisca.preset("subastada-4p")
    env = BriscaEnv(rules, seat=3, opponents=lambda view, legal: brisca.Pass())
    env.reset(seed=1)
    _, reward, terminated, _, _ = env.step(action_index(brisca.Pass(), rules))
    assert terminated and env.outcome is not None and env.outcome.void
    assert reward == 0.0


def test_named_bots_are_seeded_from_the_hand() -> None:
    """Two environments reset with one seed play the same hand, random bots included."""
    histories = []
    for _ in range(2):
        env = BriscaEnv("spanish-3p", seat=0, opponents=["random", "heuristic"])
        play_out(env, env.reset(seed=13)[0])
        histories.append(env.game_state.history)
    assert histories[0] == histories[1]


@pytest.mark.parametrize("name", ["spanish-2p", "spanish-4p", "arrastre-2p"])
def test_a_random_opponent_plays_as_the_seeded_random_bot_it_names(name: str) -> None:
    """The environment asks its random bots for ``choose(legal)``, making no observation:
    the hands are those of ``play_game`` with the same seeded RandomBots, observed."""
    from brisca.agents.bots import RandomBot, play_game
    from brisca.game.rng import MAX_SEED

    n = brisca.preset(name).num_players

    def learner(view: brisca.Observation, legal: Sequence[brisca.Action]) -> brisca.Action:
        return min(legal, key=lambda a: action_index(a, view.rules))  # as first_legal

    for seed in range(6):
        env = BriscaEnv(name, seat=1, opponents="random")
        play_out(env, env.reset(seed=seed)[0])
        bots = [RandomBot(seed=(seed * n + s) & MAX_SEED) for s in range(n)]
        bots[1] = learner  # type: ignore[call-overload]
        final, _ = play_game(name, bots, seed=seed)
        assert env.game_state.history == final.history


def test_bot_callables_get_the_seats_observation_only() -> None:
    """A bot callable is called with observe(state, seat) and the legal actions."""
    seen: list[tuple[int, bool]] = []

    def watcher(view: brisca.Observation, legal: Sequence[brisca.Action]) -> brisca.Action:
        seen.append((view.seat, isinstance(view, brisca.Observation)))
        return legal[0]

    env = BriscaEnv("spanish-2p", seat=1, opponents=watcher)
    env.reset(seed=2)
    assert seen == [(0, True)]


def test_reset_with_a_seed_deals_new_game_with_that_seed() -> None:
    """reset(seed=s) deals brisca.new_game(rules, seed=s), then the bots play to the learner."""
    env = BriscaEnv("arrastre-2p", seat=0)
    env.reset(seed=21)
    assert env.game_state == brisca.new_game("arrastre-2p", seed=21)


def worlds(name: str, seed: int) -> tuple[list[brisca.Card], list[brisca.Card]]:
    """Two decks that differ only in a card of seat 1's hand swapped with the stock."""
    rules = brisca.preset(name)
    layout = brisca.deal_layout(rules, rules.num_players - 1)
    deck = list(brisca.new_game(rules, seed=seed).deal.deck)
    swapped = list(deck)
    first, second = layout.hands[1][0], layout.stock[3]
    swapped[first], swapped[second] = swapped[second], swapped[first]
    return deck, swapped


@pytest.mark.parametrize("name", ["spanish-2p", "puerto-rican-4p"])
def test_worlds_differing_only_in_hidden_cards_look_the_same(name: str) -> None:
    """The learner's observation does not change when a card it cannot see moves."""
    deck, swapped = worlds(name, 6)
    one, two = BriscaEnv(name), BriscaEnv(name)
    seen_one, _ = one.reset(options={"deck": deck})
    seen_two, _ = two.reset(options={"deck": swapped})
    assert one.game_state != two.game_state
    assert seen_one["observation"].tolist() == seen_two["observation"].tolist()
    assert seen_one["action_mask"].tolist() == seen_two["action_mask"].tolist()


def test_an_illegal_action_ends_the_episode_at_the_worst_reward() -> None:
    """By default an action outside the mask ends the episode at -120, saying why."""
    env = BriscaEnv("spanish-2p")
    observation, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    observation, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -120.0
    assert "not in the hand of seat 0" in info["illegal_action"]
    assert not observation["action_mask"].any()
    with pytest.raises(brisca.StateError, match="episode is over"):
        env.step(illegal)


def test_an_illegal_action_raises_when_asked() -> None:
    """illegal="raise": an action outside the mask raises IllegalActionError."""
    env = BriscaEnv("spanish-2p", illegal="raise")
    observation, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(brisca.IllegalActionError, match="not in the hand"):
        env.step(illegal)


@pytest.mark.parametrize("action", [40, -1, "3", 1.5, None, True])
def test_an_action_outside_the_action_space_is_a_notation_error(action: object) -> None:
    """An action that is no index of the action space raises a NotationError."""
    env = BriscaEnv("spanish-2p")
    env.reset(seed=3)
    with pytest.raises(brisca.NotationError, match="action index"):
        env.step(action)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"rules": "spanish-9p"}, brisca.RulesError, "unknown preset"),
        ({"seat": 2}, brisca.StateError, "seat must be an int from 0 to 1"),
        ({"reward": "points"}, brisca.StateError, "reward must be one of"),
        ({"illegal": "ignore"}, brisca.StateError, "illegal must be one of"),
        ({"illegal_reward": "low"}, brisca.StateError, "illegal_reward must be a number"),
        ({"render_mode": "rgb_array"}, brisca.StateError, "render_mode must be"),
        ({"opponents": "clever"}, brisca.BotError, "unknown bot"),
        ({"opponents": ["random", "random"]}, brisca.BotError, "sequence of 1"),
        ({"opponents": [3]}, brisca.BotError, "a bot is a name or a callable"),
    ],
)
def test_bad_arguments_get_a_brisca_error(
    arguments: dict[str, Any], error: type[Exception], message: str
) -> None:
    """Bad rules, seats, rewards, render modes and bots are refused, saying what is wrong."""
    with pytest.raises(error, match=message):
        BriscaEnv(**arguments)


def test_a_learner_that_sits_out_is_refused_at_reset() -> None:
    """spanish-5p: the dealer sits out, so the learner may not hold the dealer's seat."""
    env = BriscaEnv("spanish-5p", seat=4)
    with pytest.raises(brisca.StateError, match="sits out"):
        env.reset(seed=1)
    observation, _ = env.reset(seed=1, options={"dealer": 0})
    assert env.game_state.to_act == 4 and observation["action_mask"].any()


def test_a_closed_or_unreset_environment_is_refused() -> None:
    """step before reset, and reset or step after close, raise a StateError."""
    env = BriscaEnv("spanish-2p")
    with pytest.raises(brisca.StateError, match="reset"):
        env.step(0)
    env.reset(seed=1)
    env.close()
    env.close()
    with pytest.raises(brisca.StateError, match="closed"):
        env.step(0)
    with pytest.raises(brisca.StateError, match="closed"):
        env.reset()


class _EqualToAll:
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


def _fake_card_play(view: brisca.Observation, legal: object) -> brisca.Action:
    """A Play set past its constructor to hold a 'card' that equals every card."""
    play = brisca.Play("1O")
    object.__setattr__(play, "card", _EqualToAll())
    return play


def _no_card_play(view: brisca.Observation, legal: object) -> brisca.Action:
    """A Play with no card at all; compiled, where only its constructor makes a Play, one
    holding None."""
    try:
        play: brisca.Play = object.__new__(brisca.Play)
    except TypeError:
        play = brisca.Play("1O")
        object.__setattr__(play, "card", None)
    return play


class _UnhashableType(type):
    __hash__ = None  # type: ignore[assignment]


class _Unhashable(metaclass=_UnhashableType):
    """An object whose type cannot be hashed."""


def _not_in_hand(view: brisca.Observation, legal: object) -> brisca.Action:
    return brisca.Play(next(c for c in view.rules.cards if c not in view.hand))


@pytest.mark.parametrize(
    "bot",
    [
        lambda view, legal: "nonsense",
        lambda view, legal: str(legal[0]),  # a legal move's notation: text, not an action
        lambda view, legal: [legal[0]],
        lambda view, legal: None,
        lambda view, legal: brisca.Signal("wink"),  # an action these rules never offer
        _not_in_hand,
        _no_card_play,
        _fake_card_play,
        lambda view, legal: _Unhashable(),
    ],
)
def test_a_bot_that_breaks_the_rules_is_named(bot: Any) -> None:
    """A bot returning anything but one of its legal actions raises a BotError naming
    its seat, and the environment stays as it was: not reset."""
    env = BriscaEnv("spanish-2p", seat=1, opponents=bot)
    with pytest.raises(brisca.BotError, match="bot at seat 0"):
        env.reset(seed=1)
    with pytest.raises(brisca.StateError, match="reset"):
        env.step(0)


def test_ansi_render_draws_the_table() -> None:
    """render_mode="ansi" gives the table as text."""
    env = BriscaEnv("spanish-2p", render_mode="ansi")
    env.reset(seed=7)
    text = env.render()
    assert text is not None and "to act: seat 0" in text and "trump:" in text


def test_action_masks_is_the_observed_mask_as_booleans() -> None:
    """action_masks() matches the observation's mask while playing, and is empty at the end."""
    env = BriscaEnv("puerto-rican-2p", opponents="random")
    observation, _ = env.reset(seed=5)
    terminated = False
    while not terminated:
        assert env.action_masks().tolist() == observation["action_mask"].astype(bool).tolist()
        observation, _, terminated, _, _ = env.step(first_legal(observation))
    assert not env.action_masks().any()
