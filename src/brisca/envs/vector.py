"""A Gymnasium vector environment over the batch engine: ``pip install 'brisca[batch,gym]'``.

Each of the `num_envs` sub-environments is one hand of covered rules
(:data:`brisca.batch.COVERED`); the learner holds one seat and the others play
uniformly random legal actions inside the compiled kernel. All of them move in one
call of :meth:`BriscaVectorEnv.step`.

>>> import numpy as np
>>> from brisca.envs.vector import BriscaVectorEnv
>>> env = BriscaVectorEnv("spanish-2p", num_envs=4)
>>> observations, infos = env.reset(seed=1)
>>> observations["observation"].shape, observations["action_mask"].shape
((4, 342), (4, 40))
>>> actions = observations["action_mask"].argmax(axis=1)  # the first legal action
>>> observations, rewards, terminated, truncated, infos = env.step(actions)

Each observation is a ``Dict``: ``observation``, the learner's view
(:func:`brisca.batch.observation_layout`), and ``action_mask``, its legal actions over
:func:`brisca.agents.encoding.action_space`. The reward is 0 until a hand ends, then
the learner's side's margin (card points minus the mean of the other sides') or, with
``reward="win"``, +1, 0 for a tie at the top, -1. An action outside the mask ends that
hand with the worst reward and ``infos["illegal_action"]`` set. A finished hand is
dealt again on the next step (Gymnasium's next-step autoreset), whose action for it
is ignored. Deals and the opponents' choices come from the kernel's own generator,
seeded from ``reset(seed=...)``.
"""

from __future__ import annotations

from typing import Any

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space
except ImportError as missing:
    raise ImportError(
        f"brisca.envs.vector needs Gymnasium and numpy: pip install 'brisca[batch,gym]' ({missing})"
    ) from missing

from brisca.batch import MAX_GAMES, MAX_SEED, Batch
from brisca.envs.common import checked_options, checked_reward, checked_seed
from brisca.game.errors import BARE_ERRORS, StateError, checked_int, describe
from brisca.game.rules import Rules
from brisca.game.state import seating_for

__all__ = ["BriscaVectorEnv"]

_Obs = dict[str, Any]
#: The rewards a hand can end with, and the worst, which an illegal action earns.
_WORST = {"margin": -120.0, "win": -1.0}


class BriscaVectorEnv(gymnasium.vector.VectorEnv[_Obs, Any, Any]):
    """`num_envs` hands of `rules` at once, the learner at `seat`, random play elsewhere.

    Args:
        rules: covered rules, as a `Rules` or a preset's name.
        num_envs: how many hands run side by side.
        seat: the learner's seat; the dealer is always the last seat.
        reward: ``"margin"`` (default) or ``"win"``.

    Raises:
        RulesError: the batch engine does not cover `rules`.
        StateError: a bad number of environments, seat or reward.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        rules: Rules | str = "spanish-2p",
        num_envs: int = 16,
        *,
        seat: int = 0,
        reward: str = "margin",
    ) -> None:
        self.batch = Batch(rules, checked_int(num_envs, "num_envs", 1, MAX_GAMES))
        self.rules = self.batch.rules
        self.num_envs = self.batch.size
        self.seat = checked_int(seat, "seat", 0, self.rules.num_players - 1)
        self.reward = checked_reward(reward)
        self._side = seating_for(self.rules, self.rules.num_players - 1).side_of[self.seat]
        actions = self.batch.num_actions
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    0.0, 1.0, (self.batch.observation_size,), dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._resetting = np.zeros(self.num_envs, dtype=np.bool_)
        self._dealt = False

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[_Obs, dict[str, Any]]:
        """Deal every hand afresh and play the opponents up to the learner's first turn.

        `seed` is one seed for the whole batch, as ``brisca.new_game`` takes (a numpy
        integer will do); `options` are ignored.

        Raises:
            StateError: a list or array of seeds, a bad seed, or options not a dict.
        """
        if isinstance(seed, (list, tuple, np.ndarray)):
            raise StateError("one seed seeds every hand of the batch: give an int or None")
        seed = checked_seed(seed)  # Gymnasium's seeding takes Python ints only
        checked_options(options)
        super().reset(seed=seed)
        self._deal(np.ones(self.num_envs, dtype=np.bool_))
        self._resetting[:] = False
        self._dealt = True
        return self._observations(), {}

    def _deal(self, which: npt.NDArray[np.bool_]) -> None:
        self.batch.reset(shuffle_seed=int(self.np_random.integers(MAX_SEED)), which=which)
        self.batch.play_random(until=self.seat, which=which)

    def step(
        self, actions: Any
    ) -> tuple[
        _Obs, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
        """One learner action per hand; the opponents answer until its next turn.

        Raises:
            StateError: before :meth:`reset`, or `actions` is not `num_envs` integers,
                one a hand: an array of an integer dtype and shape ``(num_envs,)``, or
                a flat sequence of ints.
        """
        if not self._dealt:
            raise StateError("call reset() first: no hand has been dealt")
        try:
            given = np.asarray(actions)
        except BARE_ERRORS:  # a ragged sequence, or one whose items numpy cannot read
            given = None
        # A float, bool or text action would be cast silently, and an array of another
        # shape reshaped as if it were one action a hand: refuse both.
        n = self.num_envs
        if given is None:
            problem = "which numpy cannot read as one array"
        elif given.dtype.kind not in "iu":
            problem = f"of dtype {given.dtype}"
        elif given.shape != (n,):
            problem = f"of shape {given.shape}"
        elif isinstance(actions, (list, tuple)) and any(
            isinstance(a, (bool, np.bool_)) for a in actions
        ):
            problem = "holding a bool"  # numpy reads True among ints as 1
        else:
            problem = None
        if problem is not None or given is None:
            raise StateError(
                f"actions must be {n} action {'index' if n == 1 else 'indices'}, integers "
                f"of shape ({n},), one a hand; got {describe(actions)} {problem}"
            )
        chosen = given.astype(np.int64, copy=False)
        resetting = self._resetting.copy()
        if resetting.any():
            self._deal(resetting)
        going = ~resetting & ~self.batch.done
        mask = self.batch.legal_mask()
        inside = (chosen >= 0) & (chosen < self.batch.num_actions)
        legal = inside & mask[np.arange(self.num_envs), np.where(inside, chosen, 0)]
        illegal = going & ~legal
        moving = going & legal
        self.batch.step(np.where(moving, chosen, 0), which=moving)
        self.batch.play_random(until=self.seat, which=moving)
        ended = moving & self.batch.done
        rewards = np.where(ended, self._rewards(), 0.0)
        rewards[illegal] = _WORST[self.reward]
        terminated = ended | illegal
        self._resetting = terminated.copy()
        infos = {"illegal_action": illegal} if illegal.any() else {}
        return self._observations(), rewards, terminated, np.zeros_like(terminated), infos

    def _rewards(self) -> npt.NDArray[np.float64]:
        points, winners = self.batch.results()
        mine = points[:, self._side].astype(np.float64)
        if self.reward == "margin":
            others = points.sum(axis=1) - mine
            margin: npt.NDArray[np.float64] = mine - others / (points.shape[1] - 1)
            return margin
        top = points.max(axis=1)
        tied = np.where(mine == top, 0.0, -1.0)
        return np.where(winners == self._side, 1.0, np.where(winners < 0, tied, -1.0))

    def _observations(self) -> _Obs:
        mask = self.batch.legal_mask().astype(np.int8)
        mask[self.batch.done] = 0
        return {"observation": self.batch.observe(self.seat), "action_mask": mask}
