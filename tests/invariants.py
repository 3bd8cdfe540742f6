"""The invariants of every state and transition, now the public kit `brisca.testing`.

Kept so that test modules can go on importing the names they use.
"""

from __future__ import annotations

import random

from brisca import State
from brisca.testing import check_invariants, check_playout, check_transition

__all__ = ["check_invariants", "check_transition", "play_random_game"]


def play_random_game(state: State, rng: random.Random, check: bool = True) -> State:
    """Play random legal actions to the end; with `check`, check everything at every step."""
    return check_playout(state, rng, every_step=check)
