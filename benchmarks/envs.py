"""What the learning environments cost per hand, against the engine alone.

Run: ``python benchmarks/envs.py [-n HANDS] [--presets spanish-2p,...]``
(needs ``pip install '.[pettingzoo,openspiel]'``).

For each preset, random hands (each seat picks uniformly among its legal actions)
played five ways, in the same run and taking turns batch by batch:

- ``engine``: ``new_game``, then ``legal_actions`` and ``apply`` to the end: the floor;
- ``engine+encode``: the same, plus what any adapter must compute for the seat to
  act at each step: ``encode_observation(observe(state, seat))`` and ``legal_mask``;
- ``pettingzoo``: a hand of ``brisca.envs.pettingzoo.env`` (wrapped as the classic
  games are), through ``agent_iter``, ``last`` and ``step``;
- ``gymnasium``: a hand of ``BriscaEnv`` with the learner at seat 0 and random bots
  at the others, through ``reset`` and ``step``;
- ``openspiel``: a hand of the ``python_brisca`` game: the shuffle, a chance node per
  card, then at each decision the seat's ``observation_tensor``, ``legal_actions`` and
  ``apply_action``.

It reports the median microseconds per hand and the median of the per-batch ratios
to the engine line.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

import brisca
from brisca.agents.encoding import encode_observation, legal_mask
from brisca.envs.gymnasium import BriscaEnv
from brisca.envs.openspiel import GAME_NAME
from brisca.envs.pettingzoo import env as pettingzoo_env

PRESETS = "spanish-2p,spanish-4p"


def engine_hand(rules: brisca.Rules, seed: int, *, encode: bool) -> None:
    rng = random.Random(seed)
    state = brisca.new_game(rules, seed=seed)
    while not state.is_over:
        if encode:
            seat: int = state.to_act  # type: ignore[assignment]
            encode_observation(brisca.observe(state, seat))
            legal_mask(state)
        actions = brisca.legal_actions(state)
        state = brisca.apply(state, actions[rng.randrange(len(actions))])


def pettingzoo_hand(table: Any, seed: int) -> None:
    rng = random.Random(seed)
    table.reset(seed=seed)
    for _ in table.agent_iter():
        observation, _, termination, truncation, _ = table.last()
        if termination or truncation:
            table.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        table.step(int(legal[rng.randrange(len(legal))]))


def gymnasium_hand(env: BriscaEnv, seed: int) -> None:
    rng = random.Random(seed)
    observation, _ = env.reset(seed=seed)
    terminated = False
    while not terminated:
        legal = np.flatnonzero(observation["action_mask"])
        observation, _, terminated, _, _ = env.step(int(legal[rng.randrange(len(legal))]))


def openspiel_hand(game: Any, seed: int) -> None:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        state.observation_tensor(state.current_player())
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=200, help="hands per line and preset")
    parser.add_argument("--presets", default=PRESETS)
    parser.add_argument("--batch", type=int, default=20, help="hands per line per turn")
    args = parser.parse_args()
    print(f"{'preset':<14} {'line':<15} {'µs/hand':>10} {'x engine':>9}")
    for name in args.presets.split(","):
        rules = brisca.preset(name)
        table = pettingzoo_env(rules)
        gym = BriscaEnv(rules, seat=0, opponents="random")
        game = pyspiel.load_game(GAME_NAME, {"preset": name})
        lines: dict[str, Callable[[int], None]] = {
            "engine": functools.partial(engine_hand, rules, encode=False),
            "engine+encode": functools.partial(engine_hand, rules, encode=True),
            "pettingzoo": functools.partial(pettingzoo_hand, table),
            "gymnasium": functools.partial(gymnasium_hand, gym),
            "openspiel": functools.partial(openspiel_hand, game),
        }
        times: dict[str, list[float]] = {line: [] for line in lines}
        for start in range(0, args.n, args.batch):
            seeds = range(start, min(start + args.batch, args.n))
            for line, play in lines.items():
                began = time.perf_counter()
                for seed in seeds:
                    play(seed)
                times[line].append((time.perf_counter() - began) / len(seeds) * 1e6)
        for line in lines:
            ratio = statistics.median(
                t / e for t, e in zip(times[line], times["engine"], strict=True)
            )
            median = statistics.median(times[line])
            print(f"{name:<14} {line:<15} {median:>10.0f} {ratio:>9.2f}")


if __name__ == "__main__":
    main()
