"""Señas: honest partnership signals about trumps (SPEC §2.9).

Vocabularies:

- ``s000``: ``lip_bite`` = the trump 1 without the 3; ``shoulder`` = the 3 without
  the 1; ``wink`` = both; ``head_shake`` = no trumps at all.
- ``traditional``: ``lips`` = the trump 1; ``wink`` = the 3 (also made as a mouth
  twist); ``eyes_up`` = the 12; ``shoulder`` = the 11 or the 10 (also made with the
  tongue).

Each seat signals at most once a hand [P]. Under ``pre_hand`` that is on its turn
in the first trick, before it plays (the one-actor reading of "before the hand");
under ``after_first_trick``, from the second trick on. A false signal is refused.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from brisca.rules import Signals, SignalTiming, SignalVocabulary
from brisca.state import Ledger, SignalRecord, State

__all__ = ["VOCABULARIES", "apply", "offered", "refusal"]

Truth = Callable[[frozenset[int]], bool]

# Enum members as module constants: Python 3.11 looks `Enum.MEMBER` up through
# EnumType.__getattr__, about ten times the cost of a global, and these checks run every turn.
_OFF, _PRE_HAND = Signals.NONE, SignalTiming.PRE_HAND
_AFTER_FIRST_TRICK = SignalTiming.AFTER_FIRST_TRICK


#: For each vocabulary, each signal and what must be true of the trump ranks held.
VOCABULARIES: dict[SignalVocabulary, dict[str, Truth]] = {
    SignalVocabulary.S000: {
        "lip_bite": lambda ranks: 1 in ranks and 3 not in ranks,
        "shoulder": lambda ranks: 3 in ranks and 1 not in ranks,
        "wink": lambda ranks: {1, 3} <= ranks,
        "head_shake": lambda ranks: not ranks,
    },
    SignalVocabulary.TRADITIONAL: {
        "lips": lambda ranks: 1 in ranks,
        "wink": lambda ranks: 3 in ranks,
        "eyes_up": lambda ranks: 12 in ranks,
        "shoulder": lambda ranks: bool({11, 10} & ranks),
    },
}


def refusal(state: State, seat: int, name: str) -> str | None:
    """Why `seat` may not make signal `name` now, or ``None`` if it may."""
    why = _window_refusal(state, seat)
    if why:
        return why
    rules = state.table.rules
    vocabulary = VOCABULARIES[rules.signal_vocabulary]
    if name not in vocabulary:
        return (
            f"{name!r} is not a signal of the {rules.signal_vocabulary.value!r} vocabulary: "
            f"{', '.join(vocabulary)}"
        )
    if not vocabulary[name](_trump_ranks(state, seat)):
        return f"a false signal: {name!r} does not match seat {seat}'s trumps (signals are honest)"
    return None


def _window_refusal(state: State, seat: int) -> str | None:
    """Why `seat` may make no signal at all now, or ``None``."""
    rules = state.table.rules
    if rules.signals is _OFF:
        return "signals are off in these rules (signals='none')"
    if rules.signal_timing is _PRE_HAND and state.tricks:
        return "signals are made before the hand, in the first trick (signal_timing='pre_hand')"
    if rules.signal_timing is _AFTER_FIRST_TRICK and not state.tricks:
        return "no signals in the first trick (signal_timing='after_first_trick')"
    if any(s.seat == seat for s in state.ledger.signals):
        return f"seat {seat} has signalled already this hand"
    return None


def _trump_ranks(state: State, seat: int) -> frozenset[int]:
    return frozenset(c.rank for c in state.hands[seat] if c.suit is state.trump)


def offered(state: State, seat: int) -> tuple[str, ...]:
    """The signals `seat` may make now, in vocabulary order: the true ones, in the window."""
    if _window_refusal(state, seat):
        return ()
    ranks = _trump_ranks(state, seat)
    vocabulary = VOCABULARIES[state.table.rules.signal_vocabulary]
    return tuple(name for name, truth in vocabulary.items() if truth(ranks))


def apply(state: State, seat: int, name: str) -> Ledger:
    """The ledger after `seat` signals `name`."""
    ledger = state.ledger
    record = SignalRecord(seat, name, len(state.tricks))
    return attrs.evolve(ledger, signals=(*ledger.signals, record))
