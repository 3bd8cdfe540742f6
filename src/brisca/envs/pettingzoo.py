"""A PettingZoo AEC environment for any rules: ``pip install 'brisca[pettingzoo]'``.

>>> from brisca.envs.pettingzoo import env
>>> table = env(rules="spanish-4p", seed=7)
>>> table.reset()
>>> table.possible_agents
['seat_0', 'seat_1', 'seat_2', 'seat_3']
>>> observation, reward, termination, truncation, info = table.last()
>>> observation["observation"].shape
(787,)
>>> from brisca.agents.encoding import decode_mask
>>> [str(a) for a in decode_mask(observation["action_mask"], table.unwrapped.rules)]
['2O', '4C', '6B', 'signal head_shake']

One hand is one episode. The agents are ``seat_0`` ... ``seat_{n-1}``, acting in turn
as ``brisca.State.to_act`` says. A seat that sits out the hand (the dealer in
``spanish-5p``) is in ``possible_agents`` but not in ``agents``: it never acts and
gets no reward. Each agent observes a ``Dict``:

- ``observation``: :func:`brisca.agents.encoding.encode_observation` of
  ``brisca.observe(state, seat)``, a ``float32`` Box in [0, 1] of length
  :func:`brisca.agents.encoding.encoding_size`;
- ``action_mask``: an ``int8`` Box over :func:`brisca.agents.encoding.action_space`, the
  legal actions of the seat to act (all zeros for the other seats, as in
  PettingZoo's classic games).

The action space is ``Discrete(len(action_space(rules)))``. The reward comes when the
hand ends, the same for partners (see :func:`brisca.envs.common.seat_rewards`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

try:
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as missing:
    raise ImportError(
        f"brisca.envs.pettingzoo needs PettingZoo: pip install 'brisca[pettingzoo]' ({missing})"
    ) from missing
from gymnasium import spaces

from brisca.agents.encoding import action_space
from brisca.envs.common import (
    RENDER_MODES,
    HandSeeds,
    Observer,
    active_seats,
    checked_action_index,
    checked_illegal,
    checked_illegal_reward,
    checked_render_mode,
    checked_reward,
    deal,
    decoded_action,
    observation_space,
    render_table,
    seat_rewards,
)
from brisca.game.engine import apply, checked_rules, refusal, result
from brisca.game.errors import IllegalActionError, NotationError, StateError, describe
from brisca.game.rules import Rules
from brisca.game.state import HandResult, State

__all__ = ["BriscaAEC", "OrderEnforcing", "TerminateIllegal", "env", "raw_env"]

_Obs = dict[str, Any]


def _agent(seat: int) -> str:
    return f"seat_{seat}"


class BriscaAEC(AECEnv[str, _Obs, int]):  # type: ignore[misc]
    """The raw environment: one hand of `rules` per episode.

    It raises :class:`brisca.IllegalActionError` on an action outside the mask;
    :func:`env` wraps it as PettingZoo's classic games are.

    Args:
        rules: a `Rules` or a preset's name.
        seed: the seed of the first hand when :meth:`reset` gets none.
        render_mode: ``None``, ``"ansi"`` (:meth:`render` returns the table as text)
            or ``"human"`` (it prints it after every step).
        reward: ``"margin"`` (default) or ``"win"``.

    Raises:
        RulesError: `rules` is neither a Rules nor a preset's name.
        StateError: a bad seed, render mode or reward.
    """

    # The frameworks read `metadata` as a plain class attribute.
    metadata = {  # noqa: RUF012
        "name": "brisca_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules | str = "spanish-2p",
        *,
        seed: int | None = None,
        render_mode: str | None = None,
        reward: str = "margin",
    ) -> None:
        super().__init__()
        self.rules = checked_rules(rules)
        self.render_mode = checked_render_mode(render_mode)
        self.reward_mode = checked_reward(reward)
        self._seeds = HandSeeds(seed)
        n = self.rules.num_players
        self.possible_agents = [_agent(seat) for seat in range(n)]
        self._agents = tuple(self.possible_agents)  # by seat
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = len(action_space(self.rules))
        # A space object per agent, kept, so that seeding one agent's space seeds only its.
        self.observation_spaces = {a: observation_space(self.rules) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self._observer = Observer(self.rules)
        self._state: State | None = None
        self._closed = False

    @property
    def game_state(self) -> State:
        """The hand being played, hidden cards included: for a referee, never for a seat.

        Raises:
            StateError: before :meth:`reset`.
        """
        return self._live()

    @property
    def outcome(self) -> HandResult | None:
        """``brisca.result`` of the hand once it is over, else ``None``."""
        state = self._state
        return None if state is None or not state.is_over else result(state)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[self._known(agent)]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[self._known(agent)]

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """Deal a new hand: ``brisca.new_game(rules, seed=seed)`` when a seed is given.

        `options` may hold ``"dealer"`` (a seat) and ``"deck"`` (the cards in the order
        they leave the pack, as ``brisca.new_game`` takes them); other keys are ignored.

        Raises:
            StateError: the environment is closed, or a bad seed, dealer or deck.
        """
        self._check_open()
        seeds = self._seeds.copy()  # kept only if the deal succeeds
        self._state = state = deal(self.rules, seeds.next(seed), options)
        self._seeds = seeds
        self.agents = [_agent(seat) for seat in active_seats(state)]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = _agent(state.to_act) if state.to_act is not None else self.agents[0]

    def observe(self, agent: str) -> _Obs:
        """What `agent` may know of the hand: never another seat's hidden cards.

        Raises:
            StateError: an unknown agent, or before :meth:`reset`.
        """
        seat = self._seat[self._known(agent)]
        state = self._live()
        acting = agent in self.terminations and not self.terminations[agent]
        return self._observer(state, seat, acting=acting)

    def last(self, observe: bool = True) -> tuple[_Obs | None, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation (``None`` unless `observe`), cumulative reward,
        termination, truncation and info: what it acts on.

        Raises:
            StateError: the environment is closed, not reset, or every agent is done.
        """
        return _last(self, self, observe)

    def _standing(self, agent: str) -> tuple[float, bool, bool, dict[str, Any]]:
        # What `last` gives besides the observation. The selected agent is gone from the
        # loop only once every agent has taken its dead step.
        if agent not in self._cumulative_rewards:
            raise StateError("the hand is over and every agent is done: call reset()")
        return (
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: int | None) -> None:
        """The selected agent takes `action`, an index of ``action_space(rules)``.

        Raises:
            StateError: the environment is closed, not reset, or every agent is done;
                or an action other than ``None`` for an agent that is done.
            NotationError: `action` is not an index of the action space.
            IllegalActionError: the action is outside the agent's mask.
        """
        state = self._live()
        if not self.agents:
            raise StateError("the hand is over and every agent is done: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        chosen = decoded_action(action, self.rules)
        try:  # `apply` checks the action as `refusal` does: ask why only when it refuses
            self._state = state = apply(state, chosen)
        except IllegalActionError:
            why = refusal(state, chosen)
            raise IllegalActionError(
                f"{agent} cannot take action {action} ({chosen}): {why}"
            ) from None
        self._cumulative_rewards[agent] = 0.0
        if state.is_over:
            values = seat_rewards(result(state), self.rules.num_players, self.reward_mode)
            self.rewards = {a: values[self._seat[a]] for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            self._deads_step_first()
        else:
            # Mid-hand every reward is 0 and no agent is done: PettingZoo's
            # `_accumulate_rewards` and `_deads_step_first` would change nothing.
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self._agents[state.to_act]  # type: ignore[index]
        if self.render_mode == "human":
            print(render_table(state))

    def _was_dead_step(self, action: int | None) -> None:
        # PettingZoo's own raises a bare ValueError; TerminateIllegalWrapper calls it too.
        if action is not None:
            raise StateError(
                f"{self.agent_selection} is done: the only valid action is None, "
                f"got {describe(action)}"
            )
        super()._was_dead_step(None)

    def render(self) -> str | None:
        """The table, every hand shown (``ansi``), or printed (``human``).

        Raises:
            StateError: before :meth:`reset`.
        """
        text = render_table(self._live())
        if self.render_mode == "ansi":
            return text
        if self.render_mode == "human":
            print(text)
        return None

    def close(self) -> None:
        """Close the environment: it takes no further reset or step. Closing twice is fine."""
        self._closed = True

    def _check_open(self) -> None:
        if self._closed:
            raise StateError("the environment is closed")

    def _live(self) -> State:
        self._check_open()
        if self._state is None:
            raise StateError("call reset() first: no hand has been dealt")
        return self._state

    def _known(self, agent: object) -> str:
        if not isinstance(agent, str) or agent not in self._seat:
            raise StateError(
                f"unknown agent {describe(agent)}: the agents are "
                f"{self.possible_agents[0]} to {self.possible_agents[-1]}"
            )
        return agent


#: PettingZoo's name for the unwrapped environment class.
raw_env = BriscaAEC


def env(
    rules: Rules | str = "spanish-2p",
    *,
    seed: int | None = None,
    render_mode: str | None = None,
    reward: str = "margin",
    illegal: str = "terminate",
    illegal_reward: float | None = None,
) -> AECEnv[str, _Obs, int]:
    """A PettingZoo AEC environment for `rules`, wrapped as the classic games are.

    Wrappers, innermost first: :class:`TerminateIllegal`, PettingZoo's
    ``TerminateIllegalWrapper`` (unless ``illegal="raise"``), and :class:`OrderEnforcing`,
    PettingZoo's ``OrderEnforcingWrapper`` that also checks
    that an action is an index of the action space, as ``AssertOutOfBoundsWrapper`` would,
    but with a :class:`brisca.NotationError`.

    Args:
        rules: a `Rules` or a preset's name.
        seed: the seed of the first hand when ``reset`` gets none.
        render_mode: ``None``, ``"ansi"`` or ``"human"``.
        reward: ``"margin"``: the side's card points minus the mean of the other
            sides'; ``"win"``: +1, 0 for a tie, -1.
        illegal: ``"terminate"``: an action outside the mask ends the hand, as in
            PettingZoo's classic games, costing the agent `illegal_reward` (by
            default the worst reward a hand can give: -120, or -1 under ``"win"``);
            ``"raise"``: it raises :class:`brisca.IllegalActionError`.
        illegal_reward: see `illegal`.

    Raises:
        RulesError: `rules` is neither a Rules nor a preset's name.
        StateError: a bad seed, render mode, reward, illegal or illegal_reward.
    """
    raw = BriscaAEC(rules, seed=seed, render_mode=render_mode, reward=reward)
    cost = checked_illegal_reward(illegal_reward, raw.reward_mode)
    wrapped: AECEnv[str, _Obs, int] = raw
    if checked_illegal(illegal) == "terminate":
        wrapped = TerminateIllegal(wrapped, illegal_reward=cost)
    return OrderEnforcing(wrapped)


class _FromRaw:
    """An attribute of the AEC loop (``agent_selection``, ``terminations``...) that a
    wrapper reads straight from the raw environment. PettingZoo's wrappers forward it
    through ``__getattr__``, which Python calls only after a failed lookup, at every
    layer: a hand's loop read a dozen such a step, most of what the wrappers cost. The
    loop's own calls (``last``, ``observe``, ``step``) now read the raw environment
    themselves; these serve everything else that reads the wrapper.

    Only read: as with ``__getattr__``, a value set on the wrapper itself hides it.
    """

    def __init__(self, *, guarded: bool = False) -> None:
        self._guarded = guarded  # refused before reset, as OrderEnforcingWrapper does

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    def __get__(self, wrapper: Any, owner: type | None = None) -> Any:
        if wrapper is None:
            return self
        if self._guarded and not wrapper._has_reset:
            # An AttributeError here goes on to __getattr__, which refuses it in PettingZoo's
            # words.
            raise AttributeError(f"{self._name} cannot be accessed before reset")
        return getattr(wrapper._raw, self._name)


def _brisca_env(env: object) -> BriscaAEC:
    """The :class:`BriscaAEC` that `env` is or wraps.

    Raises:
        StateError: `env` is no PettingZoo environment over a BriscaAEC.
    """
    raw = env.unwrapped if isinstance(env, AECEnv) else None
    if not isinstance(raw, BriscaAEC):
        raise StateError(f"expected a BriscaAEC, or a wrapper of one, got {describe(env)}")
    return raw


def _checked_step(raw: BriscaAEC, action: object, size: int) -> int | None:
    """`action` as a wrapper's step passes it on: an index of the action space as a
    Python int, or ``None`` for an agent that is done.

    Raises:
        StateError: ``None``, and the environment is closed or not reset.
        NotationError: `action` is no index, or ``None`` from an agent that must act.
    """
    if action is not None:  # the wrapped environment's step checks that it is live
        return checked_action_index(action, size)
    raw._live()
    agent = raw.agent_selection
    if raw.agents and not (raw.terminations[agent] or raw.truncations[agent]):
        raise NotationError(f"{agent} must act: None is only for an agent that is done")
    return None


def _last(
    wrapper: AECEnv[str, _Obs, int], raw: BriscaAEC, observe: bool
) -> tuple[_Obs | None, float, bool, bool, dict[str, Any]]:
    """:meth:`BriscaAEC.last` of `raw`, the observation through `wrapper` (`raw` itself,
    or a wrapper of it)."""
    raw._live()
    agent = raw.agent_selection
    return (wrapper.observe(agent) if observe else None, *raw._standing(agent))


class TerminateIllegal(wrappers.TerminateIllegalWrapper):  # type: ignore[misc]
    """PettingZoo's ``TerminateIllegalWrapper`` around a :class:`BriscaAEC`, reading the
    loop's attributes from the raw environment directly (see :class:`_FromRaw`) and
    stepping a legal action straight through; it ends the hand on an illegal action as
    PettingZoo's does. An action must be an index of the action space, where PettingZoo's
    would read ``-1`` from the mask as the last action.

    Raises:
        StateError: `env` does not wrap a BriscaAEC, or `illegal_reward` is no number;
            on ``last`` and ``step``, the environment is closed or not reset.
        NotationError: on ``step``, an action that is neither ``None`` nor an index, or
            ``None`` from an agent that must act.
    """

    agent_selection = _FromRaw()
    agents = _FromRaw()
    terminations = _FromRaw()
    truncations = _FromRaw()
    rewards = _FromRaw()
    infos = _FromRaw()
    _cumulative_rewards = _FromRaw()
    _prev_obs: Any  # PettingZoo's: what the agent to act saw, and its info
    _prev_info: Any

    def __init__(self, env: AECEnv[str, _Obs, int], illegal_reward: float) -> None:
        self._raw = _brisca_env(env)
        self._size = len(action_space(self._raw.rules))
        cost = checked_illegal_reward(illegal_reward, self._raw.reward_mode)
        super().__init__(env, illegal_reward=cost)

    def observe(self, agent: str) -> _Obs | None:
        # PettingZoo's, reading the raw loop: the observation of the agent to act is kept
        # for step to check the action against its mask.
        obs = self.env.observe(agent)
        raw = self._raw
        if agent == raw.agent_selection:
            self._prev_obs, self._prev_info = obs, raw.infos.get(agent, {})
        return obs  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        # The common case, a legal action after `last()`, goes straight to the wrapped
        # environment; an illegal action, a dead agent's step and anything unusual take
        # PettingZoo's own path, which decides them exactly as before.
        # PettingZoo's would read -1 or a numpy int from the mask, and None from it as
        # an array.
        action = _checked_step(self._raw, action, self._size)
        seen = self._prev_obs
        if action is not None and type(seen) is dict and not self._terminated:
            mask = seen.get("action_mask")
            if mask is not None and mask[action]:
                raw = self._raw
                agent = raw.agent_selection
                if not (raw.terminations[agent] or raw.truncations[agent]):
                    self._prev_obs = self._prev_info = None
                    self.env.step(action)
                    return
        self._raw._live()  # PettingZoo's reads the loop first
        super().step(action)

    def last(self, observe: bool = True) -> tuple[_Obs | None, float, bool, bool, dict[str, Any]]:
        """See :meth:`BriscaAEC.last`; the observation comes through this wrapper."""
        return _last(self, self._raw, observe)


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper`` around a :class:`BriscaAEC`, with brisca's
    errors: a :class:`brisca.StateError` for a call before ``reset`` (where PettingZoo
    asserts), a :class:`brisca.NotationError` for an action that is no index of the
    action space (where ``AssertOutOfBoundsWrapper`` asserts, and which
    ``TerminateIllegalWrapper`` would read from the mask, ``-1`` as the last action). An
    index reaches the wrapped environment as a Python int.

    It reads the loop's attributes from the raw environment directly (see
    :class:`_FromRaw`), refusing them before ``reset`` as PettingZoo's does, and its
    ``last``, ``observe`` and ``step`` call the wrapped environment without going
    through PettingZoo's layers, checking what they check.

    Raises:
        StateError: `env` does not wrap a BriscaAEC.
    """

    agent_selection = _FromRaw(guarded=True)
    agents = _FromRaw(guarded=True)
    terminations = _FromRaw(guarded=True)
    truncations = _FromRaw(guarded=True)
    rewards = _FromRaw(guarded=True)
    infos = _FromRaw(guarded=True)
    _cumulative_rewards = _FromRaw()
    _has_reset: bool  # PettingZoo's: whether reset() has run

    def __init__(self, env: AECEnv[str, _Obs, int]) -> None:
        self._raw = _brisca_env(env)
        super().__init__(env)
        self._size = len(action_space(self._raw.rules))

    def step(self, action: Any) -> None:
        if not self._has_reset:
            raise StateError("call reset() first: no hand has been dealt")
        raw = self._raw
        action = _checked_step(raw, action, self._size)
        if not raw.agents:
            raw._live()
            super().step(action)  # PettingZoo's warning that the hand is over
            return
        self._has_updated = True
        self.env.step(action)

    def observe(self, agent: str) -> _Obs | None:
        self._check_reset("observe")
        return self.env.observe(agent)  # type: ignore[no-any-return]

    def last(self, observe: bool = True) -> tuple[_Obs | None, float, bool, bool, dict[str, Any]]:
        """See :meth:`BriscaAEC.last`; the observation comes through the wrappers."""
        self._check_reset("last")
        return _last(self, self._raw, observe)

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        # PettingZoo's counts a reset as done before it runs: one refused (a bad seed)
        # would let the loop's calls read a hand that was never dealt.
        had_reset = self._has_reset
        try:
            super().reset(seed=seed, options=options)
        except BaseException:
            self._has_reset = had_reset
            raise

    def render(self) -> str | None:
        self._check_reset("render")
        return super().render()  # type: ignore[no-any-return]

    def state(self) -> Any:
        self._check_reset("state")
        return super().state()

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        self._check_reset("agent_iter")
        return super().agent_iter(max_iter)

    def __str__(self) -> str:
        return str(self.env)

    def _check_reset(self, call: str) -> None:
        if not self._has_reset:
            raise StateError(f"call reset() before {call}(): no hand has been dealt")
