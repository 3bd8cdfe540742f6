"""What the framework adapters share: spaces, observations, rewards, seeds and the table drawn.

It needs numpy, which every ``envs`` extra installs. Only :func:`observation_space`
needs gymnasium (the ``pettingzoo`` and ``gym`` extras), and imports it itself, so that the
OpenSpiel game (``brisca[openspiel]``) shares the rest without it. It holds no rule of the
game: observations come from :func:`brisca.observe` through
:func:`brisca.agents.encoding.encode_observation`, masks from
:func:`brisca.agents.encoding.legal_mask` (the environments take both from
:class:`Observer`, which gives the same arrays faster), actions from the fixed action index and
every check of an action from :func:`brisca.refusal`; the table drawn for people is
:mod:`brisca.formats.text`'s.
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

try:
    import numpy as np
except ImportError as missing:
    raise ImportError(
        f"brisca.envs needs numpy: pip install 'brisca[gym]' ({missing})"
    ) from missing

from brisca.agents.encoding import (
    StateEncoder,
    action_space,
    encode_observation,
    encoding_size,
    legal_mask,
)
from brisca.formats.text import describe_deal, describe_result
from brisca.game.actions import Action
from brisca.game.engine import new_game, observe
from brisca.game.errors import (
    NotationError,
    StateError,
    checked_integer,
    describe,
    text_of,
)
from brisca.game.rng import MAX_SEED, Generator
from brisca.game.rules import Rules
from brisca.game.state import HandResult, State

if TYPE_CHECKING:
    from gymnasium import spaces

__all__ = [
    "ILLEGAL",
    "RENDER_MODES",
    "REWARDS",
    "HandSeeds",
    "Observer",
    "active_seats",
    "checked_action_index",
    "checked_illegal",
    "checked_illegal_reward",
    "checked_options",
    "checked_render_mode",
    "checked_reward",
    "checked_seed",
    "deal",
    "decoded_action",
    "observation",
    "observation_space",
    "render_table",
    "seat_rewards",
    "worst_reward",
]

#: The rewards a hand can end with: ``margin``, the side's card points minus the mean of
#: the other sides'; ``win``, +1 for the winning side, 0 for a tie, -1 for a loss.
REWARDS: tuple[str, ...] = ("margin", "win")
#: What an illegal action does: ends the hand with the illegal reward, or raises.
ILLEGAL: tuple[str, ...] = ("terminate", "raise")
#: ``ansi`` returns the table as text, ``human`` prints it.
RENDER_MODES: tuple[str, ...] = ("ansi", "human")

Reward = Literal["margin", "win"]

#: Card points in a deck: a black hand counts as taking them all.
_ALL_POINTS = 120


def checked_reward(reward: object) -> str:
    """`reward` if it names a reward in :data:`REWARDS`.

    Raises:
        StateError: it does not.
    """
    name = text_of(reward)
    if name not in REWARDS:
        raise StateError(f"reward must be one of {', '.join(REWARDS)}, got {describe(reward)}")
    return name


def checked_illegal(illegal: object) -> str:
    """`illegal` if it names a behaviour in :data:`ILLEGAL`.

    Raises:
        StateError: it does not.
    """
    if not isinstance(illegal, str) or illegal not in ILLEGAL:
        raise StateError(f"illegal must be one of {', '.join(ILLEGAL)}, got {describe(illegal)}")
    return illegal


def checked_render_mode(render_mode: object) -> str | None:
    """`render_mode` if it is ``None`` or one of :data:`RENDER_MODES`.

    Raises:
        StateError: it is neither.
    """
    # `in` alone would compare an array elementwise, or call a junk value's __eq__.
    if render_mode is not None and not (
        isinstance(render_mode, str) and render_mode in RENDER_MODES
    ):
        raise StateError(
            f"render_mode must be None or one of {', '.join(RENDER_MODES)}, "
            f"got {describe(render_mode)}"
        )
    return render_mode


def checked_illegal_reward(illegal_reward: object, reward: str) -> float:
    """`illegal_reward` as a float, or :func:`worst_reward` of `reward` when it is ``None``.

    Raises:
        StateError: it is not a finite real number.
    """
    if illegal_reward is None:
        return worst_reward(reward)
    if isinstance(illegal_reward, numbers.Real) and not isinstance(
        illegal_reward, (bool, np.bool_)
    ):
        try:
            value = float(illegal_reward)
        except (OverflowError, TypeError, ValueError):
            value = math.inf
        if math.isfinite(value):
            return value
    raise StateError(f"illegal_reward must be a number, got {describe(illegal_reward)}")


def worst_reward(reward: str) -> float:
    """The lowest reward a hand can end with under `reward`: what an illegal action costs."""
    return -float(_ALL_POINTS) if reward == "margin" else -1.0


def seat_rewards(outcome: HandResult, num_players: int, reward: str) -> list[float]:
    """Each seat's reward for a finished hand, shared by the seats of a side.

    ``margin``: the side's card points minus the mean of the other sides' points (with
    two sides, the plain difference), so the sides' rewards sum to zero; a black hand
    counts as its side taking all 120 points. ``win``: +1 for the winning side and -1
    for the others; when nobody wins, 0 for the sides that tied for the top and -1 for
    the rest. A void hand (everyone passed) gives 0 to all, and a seat that sat out
    always gets 0.
    """
    rewards = [0.0] * num_players
    if outcome.void:
        return rewards
    sides = outcome.sides
    if reward == "margin":
        points = list(outcome.points)
        if outcome.black_hand is not None:
            points = [_ALL_POINTS if i == outcome.winner else 0 for i in range(len(sides))]
        total, others = sum(points), len(sides) - 1
        by_side = [p - (total - p) / others for p in points]
    elif outcome.winner is not None:
        by_side = [1.0 if i == outcome.winner else -1.0 for i in range(len(sides))]
    else:
        by_side = [0.0 if i in outcome.tied else -1.0 for i in range(len(sides))]
    for side, value in zip(sides, by_side, strict=True):
        for seat in side:
            rewards[seat] = float(value)
    return rewards


def active_seats(state: State) -> tuple[int, ...]:
    """The seats that play this hand, in seat order: a seat sitting out is on no side."""
    return tuple(sorted(seat for side in state.sides for seat in side))


def observation_space(rules: Rules) -> spaces.Dict:
    """A seat's observation: the encoded view and the mask over the rules' action index."""
    from gymnasium import spaces

    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, (encoding_size(rules),), np.float32),
            "action_mask": spaces.Box(0, 1, (len(action_space(rules)),), np.int8),
        }
    )


def observation(state: State, seat: int, *, acting: bool) -> dict[str, Any]:
    """`seat`'s observation of `state`: ``observe`` encoded, and its legal actions as a mask.

    The mask is all zeros unless `acting` (the seat is to act and may still do so), as in
    PettingZoo's classic games.
    """
    vector = np.asarray(encode_observation(observe(state, seat)), dtype=np.float32)
    if acting and state.to_act == seat:
        mask = np.asarray(legal_mask(state), dtype=np.int8)
    else:
        mask = np.zeros(len(action_space(state.rules)), dtype=np.int8)
    return {"observation": vector, "action_mask": mask}


class Observer:
    """:func:`observation` for the states of one rules, the environments' fast path: the
    same arrays, from :class:`brisca.agents.encoding.StateEncoder`, which keeps what the
    completed tricks give from one step of a hand to the next.

    Raises:
        RulesError: `rules` is not a Rules.
    """

    def __init__(self, rules: Rules) -> None:
        self.encoder = StateEncoder(rules)
        self._size = len(action_space(rules))

    def __call__(self, state: State, seat: int, *, acting: bool) -> dict[str, Any]:
        """``observation(state, seat, acting=acting)``: new arrays, equal to its.

        Raises:
            StateError: `state` is not a State of these rules, or `seat` not a seat.
        """
        vector = self.encoder.observation(state, seat)
        if acting and state.to_act == seat:
            mask = self.encoder.mask(state)
        else:
            mask = np.zeros(self._size, dtype=np.int8)
        return {"observation": vector, "action_mask": mask}


def decoded_action(action: object, rules: Rules) -> Action:
    """The action at index `action` of ``action_space(rules)``; numpy integers are welcome.

    Raises:
        NotationError: `action` is not an integer, or not an index of that space.
    """
    actions = action_space(rules)
    return actions[checked_action_index(action, len(actions))]


def checked_action_index(action: object, size: int) -> int:
    """`action` as a Python int, if it is an index of an action space of `size` actions.

    Raises:
        NotationError: it is not an integer (a bool is not), or not from 0 to `size` - 1.
    """
    if type(action) is int and 0 <= action < size:  # the hot path: one step of a hand
        return action
    return checked_integer(
        action, "an action index for these rules", 0, size - 1, error=NotationError
    )


def checked_seed(seed: object) -> int | None:
    """`seed` as a Python int, or ``None``: the one seed contract of the environments.

    A seed is what ``brisca.new_game`` takes, an int from 0 to
    :data:`brisca.game.rng.MAX_SEED`, and a numpy integer will do (Gymnasium's seeding
    itself takes Python ints only). ``None`` is no seed: the environment goes on with
    its own seed stream.

    Raises:
        StateError: `seed` is neither ``None`` nor such an integer.
    """
    return None if seed is None else checked_integer(seed, "a seed", 0, MAX_SEED)


class HandSeeds:
    """The seeds of the hands an environment deals.

    A hand reset with a seed is ``brisca.new_game(rules, seed=seed)``, so it can be
    replayed outside the environment; later hands reset without one take their seeds
    from ``brisca.game.rng.Generator(seed)``. Before any seed, the environment's own seed
    plays that part, or a fresh one from the operating system.
    """

    def __init__(self, seed: object = None) -> None:
        self._base = checked_seed(seed)
        self._stream: Generator | None = None

    def copy(self) -> HandSeeds:
        """An independent copy: a reset draws from one and keeps it only if it deals."""
        twin = HandSeeds()
        twin._base = self._base
        twin._stream = None if self._stream is None else self._stream.copy()
        return twin

    def next(self, seed: object = None) -> int:
        """The seed of the next hand: `seed` itself when given.

        Raises:
            StateError: a bad seed (see :func:`checked_seed`).
        """
        value = checked_seed(seed)
        if value is None:
            if self._stream is not None:
                return self._stream.below(1 << 64)
            value = self._base
        if value is None:
            value = int.from_bytes(os.urandom(8), "big")
        self._stream = Generator(value)
        return value


def checked_options(options: object) -> Mapping[str, Any]:
    """`options` of a reset, ``{}`` for ``None``.

    Raises:
        StateError: `options` is not a mapping.
    """
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise StateError(f"options must be a dict, got {describe(options)}")
    return options


def deal(rules: Rules, seed: int, options: Mapping[str, Any] | None) -> State:
    """A new hand: seeded, or dealt from ``options["deck"]``, with ``options["dealer"]``.

    Other keys of `options` are ignored, as Gymnasium and PettingZoo allow.

    Raises:
        StateError: `options` is not a mapping, or a bad deck or dealer.
    """
    options = checked_options(options)
    deck, dealer = options.get("deck"), options.get("dealer")
    if deck is not None:
        return new_game(rules, deck=deck, dealer=dealer)
    return new_game(rules, seed=seed, dealer=dealer)


def render_table(state: State) -> str:
    """The whole table as text, every hand shown: for a human watching, never for a seat."""
    lines = describe_deal(state)
    if state.stock:
        lines.append(f"stock: {len(state.stock)} cards")
    if state.trick:
        lines.append("trick: " + ", ".join(f"seat {s} {c.code}" for s, c in state.trick))
    if state.is_over:
        lines += describe_result(state)
    else:
        points = ", ".join(str(p) for p in state.side_points)
        lines.append(f"tricks: {len(state.tricks)}; points by side: {points}")
        lines.append(f"to act: seat {state.to_act}")
    return "\n".join(lines) + "\n"
