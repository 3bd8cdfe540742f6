"""Observations as documents: every field of a seat's view as readable JSON-ready data,
safe to send to that seat.

Cards are codes (``"3C"``), suits letters, options their text, records objects,
actions their notation, and the rules a preset plus overrides.
"""

from __future__ import annotations

from typing import Any

import attrs

from brisca.game.errors import StateError, as_state_error, describe
from brisca.game.jsonio import readable
from brisca.game.match import MatchObservation
from brisca.game.presets import rules_to_dict
from brisca.game.rules import Rules
from brisca.game.state import Observation

__all__ = ["observation_to_dict"]


def _readable(value: object) -> Any:
    """A JSON-ready form of a value from an observation: its rules as a preset plus
    overrides, the rest as `brisca.game.jsonio.readable` writes it."""
    return rules_to_dict(value) if isinstance(value, Rules) else readable(value)


def observation_to_dict(observation: Observation | MatchObservation) -> dict[str, Any]:
    """Every field of a hand's or a match's observation as readable JSON-ready data.

    Cards are codes, suits letters, options their text, actions their notation,
    fractions ``[numerator, denominator]``, and the rules a preset plus overrides
    (:func:`rules_to_dict`). A hand's view adds ``side_points``; a match's view
    gives its hand in progress (``current``) in the same form, without the rules
    again, and adds ``to_act`` and ``hand_number``. It lists only the latest
    finished hands (``hands``, at most `brisca.game.match.VIEW_HANDS`) and counts
    the others (``earlier_hands``), so its size does not grow with the match.

    >>> import brisca
    >>> view = brisca.observe(brisca.new_game(brisca.preset("spanish-2p"), seed=7), 0)
    >>> data = observation_to_dict(view)
    >>> data["hand"], data["trump"], data["trump_card"], data["stock_size"], data["sides"]
    (['2O', '11C', '4C'], 'C', '3C', 33, [[0], [1]])
    >>> data["rules"]
    {'preset': 'spanish-2p', 'overrides': {}}

    Raises:
        StateError: `observation` is not an Observation or a MatchObservation, or
            is self-contradictory.
    """
    if isinstance(observation, MatchObservation):
        with as_state_error("the observation"):
            out = _fields(observation, MatchObservation)
            if observation.current is not None:
                out["current"] = _hand_dict(observation.current)
                del out["current"]["rules"]  # given once, at the top
            out["to_act"] = observation.to_act
            out["hand_number"] = observation.hand_number
        return out
    if not isinstance(observation, Observation):
        raise StateError(
            f"expected a brisca.Observation or MatchObservation, got {describe(observation)}"
        )
    with as_state_error("the observation"):
        return _hand_dict(observation)


def _fields(value: Any, kind: Any) -> dict[str, Any]:
    return {f.name: _readable(getattr(value, f.name)) for f in attrs.fields(kind)}


def _hand_dict(observation: Observation) -> dict[str, Any]:
    out = _fields(observation, Observation)
    out["side_points"] = list(observation.side_points)
    return out
