"""A single-agent Gymnasium environment: ``pip install 'brisca[gym]'``.

The learner holds one seat; the library's bots (or bots of your own) hold the others.

>>> from brisca.envs.gymnasium import BriscaEnv
>>> env = BriscaEnv("spanish-2p", seat=0, opponents="heuristic")
>>> observation, info = env.reset(seed=7)
>>> observation["observation"].shape, int(observation["action_mask"].sum())
((477,), 3)

One hand is one episode. Each observation is the same ``Dict`` as the PettingZoo
environment's (:mod:`brisca.envs.pettingzoo`): ``observation``, the learner's
encoded view, and ``action_mask``, its legal actions over
:func:`brisca.agents.encoding.action_space`. An action is an index of that space. The
bots play their turns inside :meth:`BriscaEnv.step`, each seeing only its seat's
observation. The reward is 0 until the hand ends, then the learner's side's
reward (see :func:`brisca.envs.common.seat_rewards`).

Importing this module registers the environment as ``brisca/Brisca-v0``, so
``gymnasium.make("brisca.envs.gymnasium:brisca/Brisca-v0", rules="spanish-4p")``
works without importing it first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
except ImportError as missing:
    raise ImportError(
        f"brisca.envs.gymnasium needs Gymnasium and numpy: pip install 'brisca[gym]' ({missing})"
    ) from missing

from brisca.agents.bots import Bot, ask, make_bot
from brisca.agents.encoding import action_space
from brisca.envs.common import (
    RENDER_MODES,
    HandSeeds,
    Observer,
    active_seats,
    checked_illegal,
    checked_illegal_reward,
    checked_options,
    checked_render_mode,
    checked_reward,
    checked_seed,
    deal,
    decoded_action,
    observation_space,
    render_table,
    seat_rewards,
)
from brisca.game.actions import ACTION_TYPES, Action
from brisca.game.engine import apply, checked_rules, legal_actions, refusal, result
from brisca.game.errors import BotError, IllegalActionError, StateError, checked_int, describe
from brisca.game.rng import MAX_SEED
from brisca.game.rules import Rules
from brisca.game.state import HandResult, State

__all__ = ["ENV_ID", "BriscaEnv", "make"]

#: The id the environment is registered under.
ENV_ID = "brisca/Brisca-v0"

_Obs = dict[str, Any]
_ACTIONS = frozenset(ACTION_TYPES)
Opponent = str | Callable[..., Action]

#: How many hands in a row may end before the learner's first turn (a bot's black hand)
#: before :meth:`BriscaEnv.reset` gives up.
_REDEALS = 100


class BriscaEnv(gymnasium.Env[_Obs, Any]):
    """One hand of `rules` per episode, the learner at `seat`, bots at the other seats.

    Args:
        rules: a `Rules` or a preset's name.
        seat: the learner's seat.
        opponents: the bots of the other seats: one for all of them, or a sequence
            with one per other seat, in seat order. A bot is a name for
            :func:`brisca.agents.bots.make_bot` (``"heuristic"``, ``"random"``,
            ``"module:Class"``), made afresh each hand with a seed drawn from the
            hand's, or any :class:`brisca.agents.bots.Bot` callable, used as it is.
        reward: ``"margin"`` (default): the side's card points minus the mean of
            the other sides'; ``"win"``: +1, 0 for a tie, -1.
        illegal: ``"terminate"`` (default): an action outside the mask ends the
            episode with `illegal_reward` and ``info["illegal_action"]`` saying why;
            ``"raise"``: it raises :class:`brisca.IllegalActionError`.
        illegal_reward: by default the worst reward a hand can give (-120, or -1
            under ``"win"``), so that an illegal action never pays.
        render_mode: ``None``, ``"ansi"`` or ``"human"``.

    Raises:
        RulesError: `rules` is neither a Rules nor a preset's name.
        StateError: a bad seat, reward, illegal, illegal_reward or render mode.
        BotError: an unknown bot name, or a bot that is not callable.
    """

    # The frameworks read `metadata` as a plain class attribute.
    metadata = {  # noqa: RUF012
        "render_modes": list(RENDER_MODES),
        "render_fps": 4,
    }

    def __init__(
        self,
        rules: Rules | str = "spanish-2p",
        *,
        seat: int = 0,
        opponents: Opponent | Sequence[Opponent] = "heuristic",
        reward: str = "margin",
        illegal: str = "terminate",
        illegal_reward: float | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.rules = checked_rules(rules)
        n = self.rules.num_players
        self.seat = checked_int(seat, "seat", 0, n - 1)
        self.reward_mode = checked_reward(reward)
        self.illegal = checked_illegal(illegal)
        self.illegal_reward = checked_illegal_reward(illegal_reward, self.reward_mode)
        self.render_mode = checked_render_mode(render_mode)
        self._opponents = _opponents(opponents, seat, n)
        self.observation_space = observation_space(self.rules)
        self.action_space = spaces.Discrete(len(action_space(self.rules)))
        self._observer = Observer(self.rules)
        self._seeds = HandSeeds()
        self._bots: dict[int, Bot] = {}
        self._state: State | None = None
        self._done = False
        self._closed = False

    @property
    def game_state(self) -> State:
        """The hand being played, hidden cards included: for a referee, never for the learner.

        Raises:
            StateError: before :meth:`reset`.
        """
        return self._live()

    @property
    def outcome(self) -> HandResult | None:
        """``brisca.result`` of the hand once it is over, else ``None``."""
        state = self._state
        return None if state is None or not state.is_over else result(state)

    def reset(
        self, *, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[_Obs, dict[str, Any]]:
        """Deal a hand (``brisca.new_game(rules, seed=seed)`` when a seed is given) and let
        the bots play up to the learner's first turn.

        `options` may hold ``"dealer"`` and ``"deck"`` as ``brisca.new_game`` takes
        them; other keys are ignored. A hand that ends before the learner's first turn
        (a bot's black hand) is dealt again from the next seed.

        A seed is an int from 0 to ``brisca.game.rng.MAX_SEED``; a numpy integer will do.
        The environment is left as it was when reset raises.

        Raises:
            StateError: the environment is closed, a bad seed, options, dealer or deck,
                or the learner's seat sits this hand out.
        """
        if self._closed:
            raise StateError("the environment is closed")
        seed = checked_seed(seed)  # Gymnasium's seeding takes Python ints only
        options = checked_options(options)
        seeds = self._seeds.copy()  # kept only if the deal succeeds
        hand_seed = seeds.next(seed)
        for _ in range(_REDEALS):
            state = deal(self.rules, hand_seed, options)
            if self.seat not in active_seats(state):
                raise StateError(
                    f"the learner's seat {self.seat} sits out this hand: give another "
                    "seat, or a dealer in options"
                )
            bots = {s: _bot(o, hand_seed, s, self.rules.num_players) for s, o in self._opponents}
            state = self._play_bots(state, bots)
            if not state.is_over:
                break
            hand_seed = seeds.next()
        else:
            raise StateError(f"{_REDEALS} hands in a row ended before the learner's turn")
        super().reset(seed=seed)
        self._seeds, self._bots = seeds, bots
        self._state, self._done = state, False
        return self._observer(state, self.seat, acting=True), {}

    def step(self, action: int) -> tuple[_Obs, float, bool, bool, dict[str, Any]]:
        """The learner takes `action`, then the bots play up to its next turn or the end.

        Raises:
            StateError: the environment is closed, not reset, or its episode is over.
            NotationError: `action` is not an index of the action space.
            IllegalActionError: with ``illegal="raise"``, an action outside the mask.
            BotError: a bot returned an action that is not legal.
        """
        state = self._live()
        if self._done:
            raise StateError("the episode is over: call reset()")
        chosen = decoded_action(action, self.rules)
        try:  # `apply` checks the action as `refusal` does: ask why only when it refuses
            played = apply(state, chosen)
        except IllegalActionError:
            why = refusal(state, chosen)
            if self.illegal == "raise":
                raise IllegalActionError(f"action {action} ({chosen}) is illegal: {why}") from None
            self._done = True
            obs = self._observer(state, self.seat, acting=False)
            return obs, self.illegal_reward, True, False, {"illegal_action": why}
        self._state = state = self._play_bots(played, self._bots)
        reward = 0.0
        if state.is_over:
            self._done = True
            rewards = seat_rewards(result(state), self.rules.num_players, self.reward_mode)
            reward = rewards[self.seat]
        if self.render_mode == "human":
            print(render_table(state))
        return self._observer(state, self.seat, acting=True), reward, state.is_over, False, {}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions as booleans over the action space, all false once
        the episode is over: the method that action-masking learners such as
        sb3-contrib's ``MaskablePPO`` call.

        Raises:
            StateError: the environment is closed or not reset.
        """
        state = self._live()
        mask = self._observer(state, self.seat, acting=not self._done)["action_mask"]
        return np.asarray(mask, dtype=np.bool_)

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

    def _live(self) -> State:
        if self._closed:
            raise StateError("the environment is closed")
        if self._state is None:
            raise StateError("call reset() first: no hand has been dealt")
        return self._state

    def _play_bots(self, state: State, bots: Mapping[int, Bot]) -> State:
        """Let the bots act until it is the learner's turn or the hand is over."""
        while not state.is_over and state.to_act != self.seat:
            seat: int = state.to_act  # type: ignore[assignment]
            legal = legal_actions(state)
            action = ask(bots[seat], state, legal)
            try:  # apply's own rule check, rather than a search of `legal` comparing plays
                if type(action) not in _ACTIONS:  # no notation text: a bot returns an action
                    raise IllegalActionError
                state = apply(state, action)
            except (IllegalActionError, TypeError):  # TypeError: a type that cannot hash
                raise BotError(
                    f"the bot at seat {seat} chose {describe(action)}, not a legal action"
                ) from None
        return state


def _opponents(opponents: object, seat: int, n: int) -> tuple[tuple[int, Opponent], ...]:
    """The bot of every other seat, as (seat, name or callable)."""
    others = [s for s in range(n) if s != seat]
    if isinstance(opponents, str) or callable(opponents):
        chosen: list[object] = [opponents] * len(others)
    elif isinstance(opponents, Sequence) and len(opponents) == len(others):
        chosen = list(opponents)
    else:
        raise BotError(
            f"opponents must be a bot (a name or a callable) or a sequence of {len(others)}, "
            f"one per other seat; got {describe(opponents)}"
        )
    for bot in chosen:
        if isinstance(bot, str):
            make_bot(bot)  # fail now on an unknown name, not at the first reset
        elif not callable(bot):
            raise BotError(f"a bot is a name or a callable, got {describe(bot)}")
    return tuple(zip(others, chosen, strict=True))  # type: ignore[arg-type]


def _bot(opponent: Opponent, hand_seed: int, seat: int, n: int) -> Bot:
    """A named bot made for this hand and seat, seeded from the hand; a callable as it is."""
    if isinstance(opponent, str):
        # Masked to MAX_SEED, which make_bot takes at most: a hand seed near it stays valid.
        return make_bot(opponent, seed=(hand_seed * n + seat) & MAX_SEED)
    return opponent


def make(rules: Rules | str = "spanish-2p", **kwargs: Any) -> BriscaEnv:
    """``BriscaEnv(rules, **kwargs)``: the same arguments."""
    return BriscaEnv(rules, **kwargs)


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="brisca.envs.gymnasium:BriscaEnv")
