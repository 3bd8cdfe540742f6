"""brisca: the rules of Brisca, Briscas and their relatives, as a Python library.

>>> import brisca
>>> state = brisca.new_game(brisca.preset("spanish-2p"), seed=7)
>>> while not state.is_over:
...     state = brisca.apply(state, brisca.legal_actions(state)[0])
>>> sum(brisca.result(state).points)
120
"""

from brisca.actions import Action, Play, Swap, parse_action
from brisca.cards import Card, DeckKind, Suit
from brisca.engine import apply, is_legal, legal_actions, new_game, observe, result
from brisca.errors import BriscaError, IllegalActionError, NotationError, RulesError, StateError
from brisca.presets import PRESETS, preset
from brisca.rules import (
    CapoteDefinition,
    DealerRotation,
    Direction,
    FirstDealer,
    FirstLeader,
    HandWinRule,
    MatchMode,
    Rules,
    SitOut,
    TeamMode,
    TieRule,
    TrumpCardPosition,
    TrumpSelection,
)
from brisca.serial import check_state, dumps, loads
from brisca.state import HandResult, Observation, State, Trick

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "Action",
    "BriscaError",
    "CapoteDefinition",
    "Card",
    "DealerRotation",
    "DeckKind",
    "Direction",
    "FirstDealer",
    "FirstLeader",
    "HandResult",
    "HandWinRule",
    "IllegalActionError",
    "MatchMode",
    "NotationError",
    "Observation",
    "Play",
    "Rules",
    "RulesError",
    "SitOut",
    "State",
    "StateError",
    "Suit",
    "Swap",
    "TeamMode",
    "TieRule",
    "Trick",
    "TrumpCardPosition",
    "TrumpSelection",
    "apply",
    "check_state",
    "dumps",
    "is_legal",
    "legal_actions",
    "loads",
    "new_game",
    "observe",
    "parse_action",
    "preset",
    "result",
]
