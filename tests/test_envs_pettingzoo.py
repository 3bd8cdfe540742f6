"""The PettingZoo environment: PettingZoo's own conformance tests, rewards, seeds and secrecy."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.env import AECEnv

import brisca
from brisca.agents.encoding import action_index, action_space, encoding_size
from brisca.envs.pettingzoo import BriscaAEC, env

#: What api_test says of every Dict observation outside PettingZoo's own list of classic
#: games (it names them); anything else it warns of is a fault.
ONLY_FOR_UNLISTED_ENVS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)


def conformance_warnings(run: Any) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run()
    messages = [str(w.message) for w in caught]
    return [m for m in messages if not m.startswith(ONLY_FOR_UNLISTED_ENVS)]


@pytest.mark.parametrize("name", sorted(brisca.PRESETS))
def test_every_preset_passes_pettingzoos_api_test(name: str) -> None:
    """PettingZoo's api_test passes for every preset, with no warning about the env."""
    assert conformance_warnings(lambda: api_test(env(name), num_cycles=50)) == []


@pytest.mark.parametrize("name", sorted(brisca.PRESETS))
def test_every_preset_passes_pettingzoos_seed_test(name: str) -> None:
    """PettingZoo's seed_test: two environments reset with one seed play the same."""
    assert conformance_warnings(lambda: seed_test(lambda: env(name), num_cycles=50)) == []


def play_out(table: AECEnv, choose: Any = None) -> Iterator[tuple[str, dict[str, Any]]]:
    """Step through a hand (choosing the first legal action by default) to the end."""
    for agent in table.agent_iter():
        obs, _, termination, truncation, _ = table.last()
        if termination or truncation:
            table.step(None)
            continue
        yield agent, obs
        legal = np.flatnonzero(obs["action_mask"])
        table.step(int(legal[0]) if choose is None else choose(legal))


def test_spaces_are_the_encoding_and_the_fixed_action_index() -> None:
    """Observation: the encoding's length; mask and actions: action_space(rules)."""
    rules = brisca.preset("arrastre-4p")
    table = env(rules)
    table.reset(seed=1)
    size = len(action_space(rules))
    for agent in table.possible_agents:
        space = table.observation_space(agent)
        assert space["observation"].shape == (encoding_size(rules),)
        assert space["action_mask"].shape == (size,)
        assert table.action_space(agent).n == size


def test_the_mask_is_the_legal_actions_of_the_seat_to_act_and_zero_for_the_others() -> None:
    """The acting seat's mask marks exactly legal_actions; other seats' masks are empty."""
    table = env("puerto-rican-4p")
    table.reset(seed=5)
    for agent, obs in play_out(table):
        state = table.unwrapped.game_state
        marked = [action_space(state.rules)[i] for i in np.flatnonzero(obs["action_mask"])]
        assert set(marked) == set(brisca.legal_actions(state))
        assert agent == f"seat_{state.to_act}"
        for other in table.agents:
            if other != agent:
                assert not table.observe(other)["action_mask"].any()


def test_the_observation_is_the_encoded_view_of_the_seat() -> None:
    """observe(agent) is encode_observation(observe(state, seat)), nothing more."""
    table = env("spanish-3p")
    table.reset(seed=2)
    state = table.unwrapped.game_state
    for seat, agent in enumerate(table.possible_agents):
        expected = brisca.encode_observation(brisca.observe(state, seat))
        assert table.observe(agent)["observation"].tolist() == pytest.approx(expected)


def test_a_seat_that_sits_out_is_a_possible_agent_that_never_acts() -> None:
    """spanish-5p: the dealer sits out; it is in possible_agents, never in agents."""
    table = env("spanish-5p")
    table.reset(seed=3, options={"dealer": 2})
    assert "seat_2" in table.possible_agents
    assert table.agents == ["seat_0", "seat_1", "seat_3", "seat_4"]
    acted = {agent for agent, _ in play_out(table)}
    assert acted == {"seat_0", "seat_1", "seat_3", "seat_4"}


def test_the_margin_reward_comes_at_the_end_shared_by_partners() -> None:
    """Each seat gets its side's points minus the other side's, once, when the hand ends."""
    table = env("spanish-4p")
    table.reset(seed=11)
    totals = dict.fromkeys(table.agents, 0.0)
    for agent in table.agent_iter():
        _, reward, termination, truncation, _ = table.last()
        totals[agent] += reward
        if not (termination or truncation):
            assert reward == 0.0
        table.step(None if termination or truncation else _first_legal(table))
    outcome = brisca.result(table.unwrapped.game_state)
    margin = outcome.points[0] - outcome.points[1]
    assert totals == {"seat_0": margin, "seat_2": margin, "seat_1": -margin, "seat_3": -margin}


def _first_legal(table: AECEnv) -> int:
    return int(np.flatnonzero(table.observe(table.agent_selection)["action_mask"])[0])


def test_the_win_reward_is_plus_or_minus_one() -> None:
    """reward="win": +1 to the winning side, -1 to the other."""
    table = env("spanish-2p", reward="win")
    table.reset(seed=4)
    list(play_out(table))
    outcome = table.unwrapped.outcome
    assert outcome is not None and outcome.winner is not None
    winner = outcome.sides[outcome.winner][0]
    table.reset(seed=4)
    finals = {}
    for agent in table.agent_iter():
        _, reward, termination, _, _ = table.last()
        if termination:
            finals[agent] = reward
        table.step(None if termination else _first_legal(table))
    assert finals == {f"seat_{winner}": 1.0, f"seat_{1 - winner}": -1.0}


def test_a_void_hand_ends_with_no_reward() -> None:
    """subastada: when every seat passes, the hand ends void and nobody gains or loses."""
    rules = brisca.preset("subastada-4p")
    table = env(rules)
    table.reset(seed=1)
    passing = action_index(brisca.Pass(), rules)
    rewards: dict[str, float] = {}
    for agent in table.agent_iter():
        _, reward, termination, _, _ = table.last()
        rewards[agent] = reward
        table.step(None if termination else passing)
    assert table.unwrapped.outcome.void
    assert rewards == dict.fromkeys(table.possible_agents, 0.0)


def test_reset_with_a_seed_deals_new_game_with_that_seed() -> None:
    """reset(seed=s) is brisca.new_game(rules, seed=s); env(seed=s) deals it first."""
    table = env("arrastre-2p")
    table.reset(seed=21)
    assert table.unwrapped.game_state == brisca.new_game("arrastre-2p", seed=21)
    seeded = env("arrastre-2p", seed=21)
    seeded.reset()
    assert seeded.unwrapped.game_state == brisca.new_game("arrastre-2p", seed=21)


def test_later_hands_follow_from_the_seed() -> None:
    """Two environments reset with one seed deal the same next hands, and new ones."""
    a, b = env("spanish-2p"), env("spanish-2p")
    a.reset(seed=8)
    b.reset(seed=8)
    a.reset()
    b.reset()
    assert a.unwrapped.game_state == b.unwrapped.game_state
    assert a.unwrapped.game_state != brisca.new_game("spanish-2p", seed=8)


def hidden_swap(rules: brisca.Rules, seed: int, first: int, second: int) -> tuple[list, list]:
    """A seeded deck, and the same deck with positions `first` and `second` swapped."""
    deck = list(brisca.new_game(rules, seed=seed).deal.deck)
    swapped = list(deck)
    swapped[first], swapped[second] = swapped[second], swapped[first]
    return deck, swapped


def worlds(name: str, seed: int, where: str) -> tuple[list, list]:
    """Two decks that differ only where seat 0 cannot see: seat 1's hand or the turned card,
    swapped with a stock card."""
    rules = brisca.preset(name)
    layout = brisca.deal_layout(rules, rules.num_players - 1)
    hidden = layout.hands[1][0] if where == "hand" else layout.turned
    assert hidden is not None
    return hidden_swap(rules, seed, hidden, layout.stock[3])


@pytest.mark.parametrize(
    ("name", "where", "turns"),
    # Under cubierta seat 0's first play may reveal the covered trump, so only its view
    # before it plays is compared there.
    [("spanish-2p", "hand", 2), ("spanish-4p", "hand", 2), ("cubierta-2p", "turned", 1)],
)
def test_worlds_differing_only_in_hidden_cards_look_the_same(
    name: str, where: str, turns: int
) -> None:
    """Swapping a card seat 0 cannot see leaves its observation and mask unchanged, also
    after it has played."""
    deck, swapped = worlds(name, 5, where)
    one, two = env(name), env(name)
    one.reset(options={"deck": deck})
    two.reset(options={"deck": swapped})
    assert one.unwrapped.game_state != two.unwrapped.game_state
    for turn in range(turns):
        if turn:  # seat 0 plays the same card in both worlds
            action = _first_legal(one)
            one.step(action)
            two.step(action)
        seen_one, seen_two = one.observe("seat_0"), two.observe("seat_0")
        assert seen_one["observation"].tolist() == seen_two["observation"].tolist()
        assert seen_one["action_mask"].tolist() == seen_two["action_mask"].tolist()


def test_the_check_of_hidden_cards_can_fail() -> None:
    """Swapping one of seat 0's own cards with the stock does change its observation."""
    rules = brisca.preset("spanish-2p")
    layout = brisca.deal_layout(rules, 1)
    deck, swapped = hidden_swap(rules, 5, layout.hands[0][0], layout.stock[3])
    one, two = env(rules), env(rules)
    one.reset(options={"deck": deck})
    two.reset(options={"deck": swapped})
    assert one.observe("seat_0")["observation"].tolist() != (
        two.observe("seat_0")["observation"].tolist()
    )


def test_ansi_render_draws_the_table() -> None:
    """render_mode="ansi": the table as text, with the trump, the hands and the seat to act."""
    table = env("spanish-2p", render_mode="ansi")
    table.reset(seed=7)
    text = table.render()
    state = table.unwrapped.game_state
    assert f"trump: {state.trump.spanish_name}" in text
    assert " ".join(c.code for c in state.hands[0]) in text
    assert "to act: seat 0" in text
    list(play_out(table))
    assert "result:" in table.render()


def test_an_illegal_action_ends_the_hand_at_the_worst_reward_by_default() -> None:
    """As in PettingZoo's classic games, an action outside the mask ends the hand; it costs
    the worst reward a hand can give (-120 card points), so it never pays."""
    table = env("spanish-2p")
    table.reset(seed=3)
    obs, *_ = table.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table.step(illegal)
    assert all(table.terminations.values())
    assert table.rewards["seat_0"] == -120.0


def test_an_illegal_action_raises_when_asked() -> None:
    """illegal="raise": an action outside the mask raises IllegalActionError, saying why."""
    table = env("spanish-2p", illegal="raise")
    table.reset(seed=3)
    state = table.unwrapped.game_state
    foreign = next(c for c in state.rules.cards if c not in state.hands[0])
    with pytest.raises(brisca.IllegalActionError, match="not in the hand of seat 0"):
        table.step(action_index(brisca.Play(foreign), state.rules))


@pytest.mark.parametrize("action", [40, -1, "3", 1.5, None])
def test_an_action_outside_the_action_space_is_refused(action: object) -> None:
    """The wrapped env and the raw one both raise a NotationError (PettingZoo's classic
    games assert, which the library's promise of a BriscaError rules out)."""
    table = env("spanish-2p")
    table.reset(seed=3)
    with pytest.raises(brisca.NotationError, match=r"action index for these rules must|must act"):
        table.step(action)
    raw = BriscaAEC("spanish-2p")
    raw.reset(seed=3)
    with pytest.raises(brisca.NotationError):
        raw.step(action)  # type: ignore[arg-type]


def test_numpy_integer_actions_are_welcome() -> None:
    """An action may be any integer type, as the spaces' samples are."""
    table = env("spanish-2p")
    table.reset(seed=3)
    table.step(np.int64(_first_legal(table)))
    assert table.agent_selection == "seat_1"


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"rules": "spanish-9p"}, brisca.RulesError, "unknown preset"),
        ({"rules": 42}, brisca.RulesError, "preset name"),
        ({"reward": "points"}, brisca.StateError, "reward must be one of margin, win"),
        ({"render_mode": "rgb_array"}, brisca.StateError, "render_mode must be"),
        ({"illegal": "ignore"}, brisca.StateError, "illegal must be one of"),
        ({"illegal_reward": "low"}, brisca.StateError, "illegal_reward must be a number"),
        ({"seed": -1}, brisca.StateError, "a seed must be an int from 0"),
    ],
)
def test_bad_arguments_get_a_brisca_error(
    arguments: dict[str, Any], error: type[Exception], message: str
) -> None:
    """Unknown presets, rewards, render modes and seeds are refused, saying what is wrong."""
    with pytest.raises(error, match=message):
        env(**arguments)


def test_bad_reset_options_get_a_brisca_error() -> None:
    """A bad dealer or deck in reset's options is refused by new_game."""
    table = env("spanish-2p")
    with pytest.raises(brisca.StateError, match="dealer"):
        table.reset(options={"dealer": 7})
    with pytest.raises(brisca.StateError):
        table.reset(options={"deck": ["1O", "2O"]})


def test_a_closed_environment_takes_no_more_steps() -> None:
    """After close(), reset, step and observe raise a StateError; closing again is fine."""
    raw = BriscaAEC("spanish-2p")
    raw.reset(seed=1)
    raw.close()
    raw.close()
    for call in (raw.reset, lambda: raw.step(0), lambda: raw.observe("seat_0")):
        with pytest.raises(brisca.StateError, match="closed"):
            call()


def test_acting_after_the_end_is_refused() -> None:
    """A done agent may only step None (PettingZoo's rule); once all are done, the raw
    env asks for a reset."""
    raw = BriscaAEC("spanish-2p")
    raw.reset(seed=1)
    list(play_out(raw))
    assert raw.agents == []
    with pytest.raises(brisca.StateError, match="call reset"):
        raw.step(0)
    with pytest.raises(brisca.StateError, match="every agent is done: call reset"):
        raw.last()  # AECEnv's own would look the gone agent up: a bare KeyError
    raw.reset(seed=1)
    while not raw.game_state.is_over:
        raw.step(_first_legal(raw))
    with pytest.raises(ValueError, match="only valid action is None"):
        raw.step(0)


def test_unknown_agents_and_steps_before_reset_are_refused() -> None:
    """observe("seat_9"), and stepping or asking last() of an env never reset, raise a
    StateError, wrapped or not."""
    raw = BriscaAEC("spanish-2p")
    with pytest.raises(brisca.StateError, match="reset"):
        raw.step(0)
    for table in (raw, env("spanish-2p"), env("spanish-2p", illegal="raise")):
        with pytest.raises(brisca.StateError, match="reset"):
            table.last()
        with pytest.raises(brisca.StateError, match="reset"):
            table.last(observe=False)
    raw.reset(seed=1)
    with pytest.raises(brisca.StateError, match="unknown agent"):
        raw.observe("seat_9")


def test_each_agent_has_its_own_space_objects() -> None:
    """Seeding one agent's action space leaves the others' alone (seed_test seeds each)."""
    raw = BriscaAEC("spanish-2p")
    assert raw.action_space("seat_0") is raw.action_space("seat_0")
    assert raw.action_space("seat_0") is not raw.action_space("seat_1")
    assert raw.observation_space("seat_0") is not raw.observation_space("seat_1")


def pettingzoos_own_wrapping(name: str, illegal_reward: float | None) -> Any:
    """The raw environment in PettingZoo's own wrappers, which `env` mirrors: no
    TerminateIllegalWrapper when `illegal_reward` is None (``illegal="raise"``)."""
    from pettingzoo.utils import wrappers

    wrapped: Any = BriscaAEC(name)
    if illegal_reward is not None:
        wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=illegal_reward)
    return wrappers.OrderEnforcingWrapper(wrapped)


def loop_attributes(table: Any) -> tuple[Any, ...]:
    names = ("agent_selection", "agents", "num_agents", "terminations", "truncations")
    return (
        *(repr(getattr(table, a)) for a in names),
        table.rewards,
        table.infos,
        table._cumulative_rewards,
    )


def pettingzoo_warnings(table: Any, action: int | None) -> list[str]:
    """What PettingZoo's logger warned of while `table` took `action`."""
    from pettingzoo.utils.env_logger import EnvLogger

    EnvLogger.mqueue.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table.step(action)
    return list(EnvLogger.mqueue)


@pytest.mark.parametrize("illegal", ["terminate", "raise"])
@pytest.mark.parametrize("name", ["spanish-2p", "spanish-4p", "spanish-5p", "subastada-4p"])
def test_the_wrappers_read_the_raw_loop_as_pettingzoos_own_do(name: str, illegal: str) -> None:
    """`env`'s wrappers read the loop's attributes from the raw environment directly and
    step a legal action straight through: every attribute, the loop's `last()` (with and
    without the observation), an illegal move's end and a step after the hand, with
    PettingZoo's warnings, are those of the same raw environment in PettingZoo's own
    wrappers, hand after hand; and before reset the attributes are refused alike."""
    illegal_ends = 0
    for seed in range(4):
        ours = env(name, illegal=illegal)
        theirs = pettingzoos_own_wrapping(name, -120.0 if illegal == "terminate" else None)
        for table in (ours, theirs):
            with pytest.raises(AttributeError, match="cannot be accessed before reset"):
                table.agent_selection  # noqa: B018
            table.reset(seed=seed)
        rng = np.random.default_rng(seed)
        # Mid-hand, on some seat's turn, in the hands that end on an illegal move.
        illegal_at = 5 + seed if seed % 2 and illegal == "terminate" else None
        for step, agent in enumerate(ours.agent_iter()):
            assert loop_attributes(ours) == loop_attributes(theirs)
            assert repr(ours.last(observe=False)) == repr(theirs.last(observe=False))
            mine, their = ours.last(), theirs.last()
            assert repr(mine) == repr(their)
            observation, _, termination, truncation, _ = mine
            if termination or truncation:
                action = None
            else:
                mask = observation["action_mask"]
                pick = np.flatnonzero(mask if step != illegal_at else 1 - mask)
                action = int(pick[rng.integers(len(pick))]) if len(pick) else 0
            said = pettingzoo_warnings(ours, action)
            assert said == pettingzoo_warnings(theirs, action)
            if step == illegal_at and action is not None and not mask[action]:
                illegal_ends += 1
                assert said and "Illegal move" in said[0]
                assert ours.rewards[agent] == -120.0 and all(ours.terminations.values())
        assert loop_attributes(ours) == loop_attributes(theirs)
        assert ours.agents == [] and theirs.agents == []
        with pytest.raises(brisca.StateError, match="every agent is done: call reset"):
            ours.last()  # where PettingZoo's own raise a bare KeyError
        said = pettingzoo_warnings(ours, None)
        assert said == pettingzoo_warnings(theirs, None)
        assert said and "called after all agents are terminated" in said[0]
    assert illegal_ends == (2 if illegal == "terminate" else 0)


def test_terminate_illegal_alone_refuses_what_pettingzoos_would_misread() -> None:
    """TerminateIllegal, used on its own, checks what OrderEnforcing would have: an action
    index (PettingZoo's reads -1 from the mask as the last action, and a numpy integer
    past the end as an IndexError), the environment it wraps and the illegal reward."""
    from brisca.envs.pettingzoo import TerminateIllegal

    table = TerminateIllegal(BriscaAEC("spanish-2p"), illegal_reward=-5)
    table.reset(seed=1)
    table.last()
    before = loop_attributes(table)
    for junk in (-1, np.int64(len(action_space(table.unwrapped.rules))), 1.0, "0", True):
        with pytest.raises(brisca.NotationError, match="an action index"):
            table.step(junk)
        assert loop_attributes(table) == before
    observation, dealt = table.observe(table.agent_selection), table.unwrapped.game_state
    assert observation is not None
    table.step(np.int64(np.flatnonzero(observation["action_mask"])[0]))  # a numpy index will do
    assert len(table.unwrapped.game_state.history) == len(dealt.history) + 1
    for wrapped in (object(), None, AECEnv(), BriscaAEC):
        with pytest.raises(brisca.StateError, match="expected a BriscaAEC"):
            TerminateIllegal(wrapped, illegal_reward=-5)
    for cost in (float("nan"), "x", None.__class__):
        with pytest.raises(brisca.StateError, match="illegal_reward must be a number"):
            TerminateIllegal(BriscaAEC(), illegal_reward=cost)  # type: ignore[arg-type]


def test_the_wrappers_refuse_the_loop_until_a_reset_has_dealt_and_after_close() -> None:
    """PettingZoo's OrderEnforcingWrapper counts a reset as done before it runs: after a
    refused first reset (a bad seed), last, step and agent_iter still refuse with a
    StateError, wrapped either way or by TerminateIllegal alone, where they read a hand
    never dealt (a bare AttributeError); so do they after close(). TerminateIllegal
    alone refuses None from an agent that must act, where PettingZoo's indexes the mask
    with it (a bare ValueError)."""
    from brisca.envs.pettingzoo import TerminateIllegal

    def tables() -> list[Any]:
        return [
            env("spanish-2p"),
            env("spanish-2p", illegal="raise"),
            TerminateIllegal(BriscaAEC("spanish-2p"), illegal_reward=-5),
        ]

    calls = (
        lambda t: t.last(),
        lambda t: t.last(observe=False),
        lambda t: t.step(0),
        lambda t: t.step(None),
    )
    for table in tables():
        with pytest.raises(brisca.StateError, match="seed"):
            table.reset(seed="s")
        for call in calls:
            with pytest.raises(brisca.StateError, match="reset"):
                call(table)
        if not isinstance(table, TerminateIllegal):
            with pytest.raises(brisca.StateError, match="reset"):
                next(iter(table.agent_iter()))
        table.reset(seed=1)  # and a good reset makes it playable
        assert table.last(observe=False)[1:3] == (0.0, False)
        table.close()
        for call in calls:
            with pytest.raises(brisca.StateError, match="closed"):
                call(table)
    table = tables()[2]
    table.reset(seed=1)
    table.last()
    before = loop_attributes(table)
    with pytest.raises(brisca.NotationError, match="must act"):
        table.step(None)
    assert loop_attributes(table) == before
