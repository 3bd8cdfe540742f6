"""What the learning environments cost per hand, against the engine alone.

Run: ``python benchmarks/envs.py [-n HANDS] [--presets spanish-2p,...] [--lines L,...] [--count]``
(needs ``pip install '.[pettingzoo,openspiel]'``).

For each preset, random hands (each seat picks uniformly among its legal actions)
played five ways, in the same run and taking turns batch by batch:

- ``engine``: ``new_game``, then ``legal_actions`` and ``apply`` to the end: the floor;
- ``engine+encode``: the same, plus what any adapter must compute for the seat to
  act at each step: ``encode_observation(observe(state, seat))`` and ``legal_mask``;
- ``engine+encoder``: the same arrays as the adapters make them, through
  ``brisca.agents.encoding.StateEncoder`` (``observation`` and ``mask``): the floor
  of every adapter below;
- ``pettingzoo``: a hand of ``brisca.envs.pettingzoo.env`` (wrapped as the classic
  games are), through ``agent_iter``, ``last`` and ``step``;
- ``pettingzoo-shell``: PettingZoo alone: the same wrappers, loop and calls around an
  environment that replays the hand's observations, made beforehand, and does nothing
  else: what the framework costs, whatever the game;
- ``gymnasium``: a hand of ``BriscaEnv`` with the learner at seat 0 and random bots
  at the others, through ``reset`` and ``step``;
- ``openspiel``: a hand of the ``python_brisca`` game: the shuffle, a chance node per
  card, then at each decision the seat's ``observation_tensor``, ``legal_actions`` and
  ``apply_action``.

It reports the median microseconds per hand and the median of the per-batch ratios
to the engine line. Time is the process's CPU time (``time.process_time``), so that
other programs on a shared machine move the figures less.

With ``--count`` it counts instructions under valgrind instead (as
``instructions.py`` does): each line plays `HANDS` hands in a child process after the
same set-up and a warm-up, the same child with no hands is taken off, and the
ratios are of what is left. Slower (a few minutes), but the figure does not move
with the load.
"""

from __future__ import annotations

import argparse
import functools
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from valgrind import difference

import brisca
from brisca.agents.encoding import StateEncoder, action_space, encode_observation, legal_mask
from brisca.envs.gymnasium import BriscaEnv
from brisca.envs.openspiel import GAME_NAME
from brisca.envs.pettingzoo import env as pettingzoo_env

PRESETS = "spanish-2p,spanish-4p"
WARM_UP = 5  # hands each line plays before it is counted


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


def encoder_hand(encoder: StateEncoder, seed: int) -> None:
    rng = random.Random(seed)
    state = brisca.new_game(encoder.rules, seed=seed)
    while not state.is_over:
        seat: int = state.to_act  # type: ignore[assignment]
        encoder.observation(state, seat)
        encoder.mask(state)
        actions = brisca.legal_actions(state)
        state = brisca.apply(state, actions[rng.randrange(len(actions))])


class Shell(AECEnv):  # type: ignore[misc]
    """An AEC environment that replays a recorded hand: the seat to act and its
    observation at each step, then the rewards; it checks nothing."""

    metadata = {"name": "shell_v0", "render_modes": [], "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, rules: brisca.Rules) -> None:
        super().__init__()
        self.rules = rules
        self.possible_agents = [f"seat_{s}" for s in range(rules.num_players)]
        size = len(action_space(rules))
        self._spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self._hands: dict[int, list[tuple[str, dict[str, Any]]]] = {}

    def record(self, seed: int) -> None:
        """Record the hand of `seed` as `pettingzoo_hand` plays it."""
        rng = random.Random(seed)
        encoder = StateEncoder(self.rules)
        state = brisca.new_game(self.rules, seed=seed)
        steps = []
        while not state.is_over:
            seat: int = state.to_act  # type: ignore[assignment]
            view: dict[str, Any] = {
                "observation": encoder.observation(state, seat),
                "action_mask": encoder.mask(state),
            }
            steps.append((f"seat_{seat}", view))
            legal = np.flatnonzero(view["action_mask"])
            index = int(legal[rng.randrange(len(legal))])
            state = brisca.apply(state, action_space(self.rules)[index])
        self._hands[seed] = steps

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._spaces[agent]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        raise NotImplementedError

    def reset(self, seed: int | None = None, options: Any = None) -> None:
        self._steps = self._hands[seed]  # type: ignore[index]
        self._at = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._steps[0][0]

    def observe(self, agent: str) -> dict[str, Any]:
        return self._steps[min(self._at, len(self._steps) - 1)][1]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent]:
            self._was_dead_step(action)
            return
        self._at += 1
        self._cumulative_rewards[agent] = 0.0
        if self._at == len(self._steps):
            self.rewards = dict.fromkeys(self.agents, 1.0)
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self._steps[self._at][0]
        self._accumulate_rewards()
        self._deads_step_first()


def shell(rules: brisca.Rules, seeds: range) -> Any:
    """A `Shell` that knows the hands of `seeds`, wrapped as `pettingzoo_env` wraps."""
    raw = Shell(rules)
    for seed in seeds:
        raw.record(seed)
    wrapped = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-120.0)
    return wrappers.OrderEnforcingWrapper(wrapped)


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


def lines(name: str, hands: int) -> dict[str, Callable[[], Callable[[int], None]]]:
    """How to set up each line of the benchmark for preset `name`: a maker of a player
    of one hand given its seed, for the seeds from 0 to `hands` - 1."""
    rules = brisca.preset(name)
    return {
        "engine": lambda: functools.partial(engine_hand, rules, encode=False),
        "engine+encode": lambda: functools.partial(engine_hand, rules, encode=True),
        "engine+encoder": lambda: functools.partial(encoder_hand, StateEncoder(rules)),
        "pettingzoo": lambda: functools.partial(pettingzoo_hand, pettingzoo_env(rules)),
        "pettingzoo-shell": lambda: functools.partial(pettingzoo_hand, shell(rules, range(hands))),
        "gymnasium": lambda: functools.partial(
            gymnasium_hand, BriscaEnv(rules, seat=0, opponents="random")
        ),
        "openspiel": lambda: functools.partial(
            openspiel_hand, pyspiel.load_game(GAME_NAME, {"preset": name})
        ),
    }


def _child(name: str, line: str, hands: int, played: int) -> None:
    """The child of ``--count``: set up for `hands` hands, warm up, play `played`."""
    play = lines(name, hands)[line]()  # this line's set-up alone
    for seed in range(hands - WARM_UP, hands):
        play(seed)
    # The frameworks' imports leave a heap that a full collection, landing in one
    # child's hands and not the other's, would scan at a cost of several hands: freeze it.
    gc.collect()
    gc.freeze()
    for seed in range(played):
        play(seed)


def count(names: list[str], hands: int, chosen: list[str]) -> None:
    """``--count``: instructions per hand of each line, and the ratio to the engine's."""
    script = str(Path(__file__).resolve())
    print(f"{'preset':<14} {'line':<16} {'instr/hand':>12} {'x engine':>9}")
    for name in names:
        setup = hands + WARM_UP
        per = {
            line: difference(
                script, (name, line, str(setup), str(hands)), (name, line, str(setup), "0")
            )
            / hands
            for line in lines(name, 0)
            if line in chosen
        }
        for line, each in per.items():
            print(f"{name:<14} {line:<16} {each:>12,.0f} {each / per['engine']:>9.2f}")


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        name, line, hands, played = sys.argv[2:6]
        _child(name, line, int(hands), int(played))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "-n", type=int, default=None, help="hands per line and preset: 200; 20 with --count"
    )
    parser.add_argument("--presets", default=PRESETS)
    parser.add_argument("--batch", type=int, default=20, help="hands per line per turn")
    parser.add_argument("--count", action="store_true", help="valgrind instructions")
    parser.add_argument(
        "--lines", default=None, help="the lines to run, comma-separated (engine always): all"
    )
    args = parser.parse_args()
    every = list(lines(PRESETS.split(",")[0], 0))
    chosen = every if args.lines is None else ["engine", *args.lines.split(",")]
    unknown = sorted(set(chosen) - set(every))
    if unknown:
        parser.error(f"unknown lines {', '.join(unknown)}; the lines are {', '.join(every)}")
    if args.count:
        count(args.presets.split(","), args.n or 20, chosen)
        return
    args.n = args.n or 200
    print(f"{'preset':<14} {'line':<16} {'µs/hand':>10} {'x engine':>9}")
    for name in args.presets.split(","):
        played = {line: make() for line, make in lines(name, args.n).items() if line in chosen}
        times: dict[str, list[float]] = {line: [] for line in played}
        for start in range(0, args.n, args.batch):
            seeds = range(start, min(start + args.batch, args.n))
            for line, play in played.items():
                began = time.process_time()
                for seed in seeds:
                    play(seed)
                times[line].append((time.process_time() - began) / len(seeds) * 1e6)
        for line in played:
            ratio = statistics.median(
                t / e for t, e in zip(times[line], times["engine"], strict=True)
            )
            median = statistics.median(times[line])
            print(f"{name:<14} {line:<16} {median:>10.0f} {ratio:>9.2f}")


if __name__ == "__main__":
    main()
