"""Bots that fail in a Ray worker, for tests/test_simulate_ray.py, named as ``ray_bots:Class``.

The folder in the environment variable :data:`FOLDER` holds the orders, one file each,
with the seed of the bot that is to fail:

- ``die-once``: that bot's process exits at its first move, once: the first such bot
  renames the file to ``died``, so a second attempt at the same game plays on;
- ``die-always``: that bot's process exits at its first move, every time.

Without orders, or with another seed, a bot plays as ``RandomBot(seed)``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from brisca.agents.bots import RandomBot
from brisca.game.actions import Action, Pass
from brisca.game.state import Observation

FOLDER = "BRISCA_TEST_RAY_ORDERS"


def _ordered(name: str, seed: int) -> bool:
    folder = os.environ.get(FOLDER)
    if not folder:
        return False
    try:
        return (Path(folder) / name).read_text(encoding="utf-8").strip() == str(seed)
    except FileNotFoundError:
        return False


class Dying:
    """A random bot whose process may be ordered to die (see the module)."""

    def __init__(self, seed: int = 0) -> None:
        self.inner = RandomBot(seed)
        self.dies = _ordered("die-always", seed)
        if not self.dies and _ordered("die-once", seed):
            folder = Path(os.environ[FOLDER])
            try:  # one process wins the rename; it is the one that dies
                (folder / "die-once").rename(folder / "died")
                self.dies = True
            except FileNotFoundError:
                pass

    def __call__(self, observation: Observation, legal: Sequence[Action], /) -> Action:
        if self.dies:
            os._exit(3)  # as a killed worker: no exception, no clean-up
        return self.inner(observation, legal)


class Illegal:
    """Passes, which no trick-taking turn allows: the game's own error, not a lost worker."""

    def __init__(self, seed: int = 0) -> None:
        pass

    def __call__(self, observation: Observation, legal: Sequence[Action], /) -> Action:
        return Pass()
