"""brisca: the rules of Brisca, Briscas and their relatives, as a Python library.

>>> import brisca
>>> state = brisca.new_game(brisca.preset("spanish-2p"), seed=7)
>>> while not state.is_over:
...     state = brisca.apply(state, brisca.legal_actions(state)[0])
>>> sum(brisca.result(state).points)
120
"""

from brisca.agents import encoding, sampling
from brisca.agents.encoding import encode_observation, legal_mask
from brisca.agents.sampling import sample_state
from brisca.formats import records
from brisca.formats.records import GameRecord, record_game
from brisca.formats.saves import check_state, dumps, dumps_match, loads, loads_match
from brisca.formats.views import observation_to_dict
from brisca.game import events
from brisca.game.actions import (
    Action,
    Bid,
    BidRank,
    CallCard,
    ClaimBlackHand,
    NameTrump,
    Pass,
    Play,
    Signal,
    Sing,
    Swap,
    parse_action,
)
from brisca.game.cards import Card, DeckKind, Suit
from brisca.game.engine import (
    Playable,
    apply,
    deal_layout,
    is_legal,
    legal_actions,
    new_game,
    observe,
    refusal,
    result,
    step,
)
from brisca.game.errors import (
    BotError,
    BriscaError,
    IllegalActionError,
    NotationError,
    RulesError,
    StateError,
)
from brisca.game.events import Event, events_for
from brisca.game.match import (
    HandRecord,
    Match,
    MatchObservation,
    MatchResult,
    hand_value,
    match_apply,
    match_is_legal,
    match_legal_actions,
    match_observe,
    match_result,
    new_match,
)
from brisca.game.presets import PRESETS, preset, preset_name, rules_from_dict, rules_to_dict
from brisca.game.rng import Generator
from brisca.game.rules import (
    SWAP_BUNDLES,
    BlackHand,
    BlackHandClaim,
    CannotOvertrump,
    CapoteDefinition,
    ChiamataTwoRule,
    DealerRotation,
    Direction,
    FirstDealer,
    FirstLeader,
    HandWinRule,
    MatchMode,
    Overtrump,
    PartnerHandVisibility,
    PlayObligation,
    RankScheme,
    Rules,
    SignalHonesty,
    Signals,
    SignalTiming,
    SignalVocabulary,
    SitOut,
    SubastaScoring,
    SwapDeadline,
    SwapRequirement,
    SwapTiming,
    TeamMode,
    TieRule,
    TrumpCardPosition,
    TrumpSelection,
    TrumpVisibility,
)
from brisca.game.state import (
    BidRecord,
    BlackHandWin,
    Cante,
    Contract,
    ContractResult,
    Deal,
    DealLayout,
    HandResult,
    Ledger,
    Observation,
    SignalRecord,
    State,
    SwapRecord,
    Termination,
    Trick,
)

__version__ = "0.1.0"

#: Modules loaded on first use as attributes (``brisca.bots``), to keep ``import brisca``
#: lean, and the modules of the flat layout before 0.2 by their old names, so that
#: ``brisca.engine`` or ``from brisca import match`` still reach them.
_LAZY_MODULES = {
    "actions": "brisca.game.actions",
    "arena": "brisca.runs.arena",
    "bots": "brisca.agents.bots",
    "cards": "brisca.game.cards",
    "cli": "brisca.cli",
    "engine": "brisca.game.engine",
    "envs": "brisca.envs",
    "errors": "brisca.game.errors",
    "jsonio": "brisca.game.jsonio",
    "match": "brisca.game.match",
    "option": "brisca.game.option",
    "presets": "brisca.game.presets",
    "rng": "brisca.game.rng",
    "rules": "brisca.game.rules",
    "search": "brisca.agents.search",
    "serial": "brisca.formats.saves",
    "server": "brisca.server",
    "simulate": "brisca.runs.simulate",
    "simulate_ray": "brisca.runs.ray",
    "state": "brisca.game.state",
    "testing": "brisca.testing",
    "tricks": "brisca.game.tricks",
    "variants": "brisca.game.variants",
}


def __getattr__(name: str) -> object:
    path = _LAZY_MODULES.get(name)
    if path is not None:
        import importlib

        return importlib.import_module(path)
    raise AttributeError(f"module 'brisca' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY_MODULES})


__all__ = [
    "PRESETS",
    "SWAP_BUNDLES",
    "Action",
    "Bid",
    "BidRank",
    "BidRecord",
    "BlackHand",
    "BlackHandClaim",
    "BlackHandWin",
    "BotError",
    "BriscaError",
    "CallCard",
    "CannotOvertrump",
    "Cante",
    "CapoteDefinition",
    "Card",
    "ChiamataTwoRule",
    "ClaimBlackHand",
    "Contract",
    "ContractResult",
    "Deal",
    "DealLayout",
    "DealerRotation",
    "DeckKind",
    "Direction",
    "Event",
    "FirstDealer",
    "FirstLeader",
    "GameRecord",
    "Generator",
    "HandRecord",
    "HandResult",
    "HandWinRule",
    "IllegalActionError",
    "Ledger",
    "Match",
    "MatchMode",
    "MatchObservation",
    "MatchResult",
    "NameTrump",
    "NotationError",
    "Observation",
    "Overtrump",
    "PartnerHandVisibility",
    "Pass",
    "Play",
    "PlayObligation",
    "Playable",
    "RankScheme",
    "Rules",
    "RulesError",
    "Signal",
    "SignalHonesty",
    "SignalRecord",
    "SignalTiming",
    "SignalVocabulary",
    "Signals",
    "Sing",
    "SitOut",
    "State",
    "StateError",
    "SubastaScoring",
    "Suit",
    "Swap",
    "SwapDeadline",
    "SwapRecord",
    "SwapRequirement",
    "SwapTiming",
    "TeamMode",
    "Termination",
    "TieRule",
    "Trick",
    "TrumpCardPosition",
    "TrumpSelection",
    "TrumpVisibility",
    "apply",
    "check_state",
    "deal_layout",
    "dumps",
    "dumps_match",
    "encode_observation",
    "encoding",
    "events",
    "events_for",
    "hand_value",
    "is_legal",
    "legal_actions",
    "legal_mask",
    "loads",
    "loads_match",
    "match_apply",
    "match_is_legal",
    "match_legal_actions",
    "match_observe",
    "match_result",
    "new_game",
    "new_match",
    "observation_to_dict",
    "observe",
    "parse_action",
    "preset",
    "preset_name",
    "record_game",
    "records",
    "refusal",
    "result",
    "rules_from_dict",
    "rules_to_dict",
    "sample_state",
    "sampling",
    "step",
]
