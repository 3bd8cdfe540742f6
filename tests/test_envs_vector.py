"""The Gymnasium vector environment over the batch engine: spaces, rewards, autoreset."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")
pytest.importorskip("gymnasium")

import brisca  # noqa: E402
from brisca.envs.vector import BriscaVectorEnv  # noqa: E402


def first_legal(observations: dict[str, np.ndarray]) -> np.ndarray:
    return observations["action_mask"].argmax(axis=1)


def test_observations_lie_in_the_spaces_and_seeds_repeat() -> None:
    env = BriscaVectorEnv("spanish-4p", num_envs=8, seat=1)
    observations, _ = env.reset(seed=3)
    assert env.observation_space.contains(observations)
    assert env.action_space.shape == (8,)
    assert (observations["action_mask"].sum(axis=1) > 0).all()  # the learner is to act
    again, _ = BriscaVectorEnv("spanish-4p", num_envs=8, seat=1).reset(seed=3)
    assert (again["observation"] == observations["observation"]).all()


@pytest.mark.parametrize("name", ["spanish-2p", "arrastre-4p", "puerto-rican-2p"])
def test_hands_end_with_the_learners_margin_and_deal_again(name: str) -> None:
    """Legal play: the reward is 0 until a hand ends, then the learner's side's margin,
    which the sides' points give; the next step deals that hand again."""
    env = BriscaVectorEnv(name, num_envs=16, seat=1)
    observations, _ = env.reset(seed=5)
    endings = 0
    for _ in range(120):
        observations, rewards, terminated, truncated, infos = env.step(first_legal(observations))
        assert not truncated.any() and "illegal_action" not in infos
        assert (rewards[~terminated] == 0).all()
        points, _ = env.batch.results()
        side = 1  # seat 1 sits on side 1, alone or with seat 3
        margin = points[:, side] - (points.sum(axis=1) - points[:, side])
        assert (rewards[terminated] == margin[terminated]).all()
        assert (observations["action_mask"][terminated] == 0).all()
        endings += int(terminated.sum())
    assert endings >= 16


def test_an_illegal_action_ends_the_hand_with_the_worst_reward() -> None:
    env = BriscaVectorEnv("spanish-2p", num_envs=2, reward="win")
    observations, _ = env.reset(seed=2)
    actions = first_legal(observations)
    actions[1] = int(np.flatnonzero(observations["action_mask"][1] == 0)[0])
    _, rewards, terminated, _, infos = env.step(actions)
    assert infos["illegal_action"].tolist() == [False, True]
    assert rewards[1] == -1.0 and terminated.tolist() == [False, True]
    observations, rewards, terminated, _, _ = env.step(first_legal(observations))
    assert rewards[1] == 0.0 and not terminated[1]  # dealt again, its action ignored
    assert observations["action_mask"][1].sum() > 0


def test_the_win_reward_is_plus_one_zero_or_minus_one() -> None:
    env = BriscaVectorEnv("puerto-rican-4p", num_envs=32, reward="win")
    observations, _ = env.reset(seed=8)
    seen = set()
    for _ in range(25):
        observations, rewards, terminated, _, _ = env.step(first_legal(observations))
        seen |= set(rewards[terminated].tolist())
    assert seen <= {-1.0, 0.0, 1.0} and {-1.0, 1.0} <= seen


def test_bad_arguments_raise_brisca_errors() -> None:
    with pytest.raises(brisca.RulesError, match="covers the hands of"):
        BriscaVectorEnv("casino-2p")
    with pytest.raises(brisca.StateError, match="reward"):
        BriscaVectorEnv(reward="money")
    with pytest.raises(brisca.StateError, match="seat"):
        BriscaVectorEnv(seat=2)
    env = BriscaVectorEnv(num_envs=2)
    env.reset(seed=0)
    with pytest.raises(brisca.StateError, match="2 action indices"):
        env.step([0, 1, 2])
