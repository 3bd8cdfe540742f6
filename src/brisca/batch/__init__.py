"""A batch engine for research: many hands at once in a compiled kernel (``brisca[batch]``).

:class:`Batch` holds N hands of one ruleset, each a row of int64 state, and moves
them with numba-compiled functions: legal-action masks over the engine's own action
index (:func:`brisca.agents.encoding.action_space`), a step that takes one action
index per game, observation tensors per seat, rewards and done flags.
:func:`random_playouts` plays whole random hands in the kernel, over a hundred
times the engine's games per second on one core (``benchmarks/batch.py``).

It covers the hands of the presets in :data:`COVERED` (señas included) and refuses
other rules with a :class:`brisca.RulesError`. Dealt from the same deck, its games
are the engine's, trick for trick: ``tests/test_batch.py`` proves it.
"""

from __future__ import annotations

try:
    import numba  # noqa: F401
    import numpy  # noqa: F401
except ImportError as missing:
    raise ImportError(
        f"brisca.batch needs numba and numpy: pip install 'brisca[batch]' ({missing})"
    ) from missing

from brisca.batch.games import (
    MAX_BATCH_BYTES,
    MAX_GAMES,
    MAX_SEED,
    Batch,
    batch_bytes,
    card_ids,
    observation_layout,
    random_playouts,
)
from brisca.batch.tables import COVERED, HAND_OPTIONS, covered_rules

__all__ = [
    "COVERED",
    "HAND_OPTIONS",
    "MAX_BATCH_BYTES",
    "MAX_GAMES",
    "MAX_SEED",
    "Batch",
    "batch_bytes",
    "card_ids",
    "covered_rules",
    "observation_layout",
    "random_playouts",
]
