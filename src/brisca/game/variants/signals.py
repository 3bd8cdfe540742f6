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
from typing import Final

from brisca.game.actions import SIGNAL_NAMES, Action, Signal
from brisca.game.events import Signalled
from brisca.game.rules import Rules, Signals, SignalTiming, SignalVocabulary
from brisca.game.state import Seat, SignalRecord, State, evolve_ledger, evolve_state
from brisca.game.variants.variant import Log, Variant

__all__ = ["VARIANT", "VOCABULARIES", "apply", "offered", "refusal"]

Truth = Callable[[frozenset[int]], bool]

# Enum members as module constants: Python 3.11 looks `Enum.MEMBER` up through
# EnumType.__getattr__, about ten times the cost of a global, and these checks run every turn;
# Final, compiled code reads them directly.
_OFF: Final = Signals.NONE
_TEAM_PRIVATE: Final = Signals.TEAM_PRIVATE
_PRE_HAND: Final = SignalTiming.PRE_HAND
_AFTER_FIRST_TRICK: Final = SignalTiming.AFTER_FIRST_TRICK


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


def refusal(state: State, seat: Seat, action: Action) -> str | None:
    """Why `seat` may not make the `Signal` now, or ``None`` if it may."""
    assert isinstance(action, Signal)
    name = action.name
    why = _window_refusal(state, seat)
    if why:
        return why
    rules = state.seating.rules
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
    rules = state.seating.rules
    if rules.signals is _OFF:
        return "signals are off in these rules (signals='none')"
    timing = rules.signal_timing  # read once: every turn asks, and the rules are Python
    if timing is _PRE_HAND:
        if state.tricks:
            return "signals are made before the hand, in the first trick (signal_timing='pre_hand')"
    elif timing is _AFTER_FIRST_TRICK and not state.tricks:
        return "no signals in the first trick (signal_timing='after_first_trick')"
    for made in state.ledger.signals:
        if made.seat == seat:
            return f"seat {seat} has signalled already this hand"
    return None


def _trump_ranks(state: State, seat: int) -> frozenset[int]:
    return frozenset(c.rank for c in state.hands[seat] if c.suit is state.trump)


def offered(state: State, seat: Seat) -> tuple[Action, ...]:
    """The signals `seat` may make now, in vocabulary order: the true ones, in the window."""
    if _window_refusal(state, seat):
        return ()
    ranks = _trump_ranks(state, seat)
    vocabulary = VOCABULARIES[state.seating.rules.signal_vocabulary]
    return tuple(_SIGNALS[name] for name, truth in vocabulary.items() if truth(ranks))


def apply(state: State, seat: Seat, action: Action, log: Log) -> State:
    """The state after `seat` makes the `Signal`."""
    assert isinstance(action, Signal)
    record = SignalRecord(seat, action.name, len(state.tricks))
    if log is not None:
        table = state.seating
        private = table.rules.signals is _TEAM_PRIVATE
        log.append(
            Signalled(seat, action.name, table.sides[table.side_of[seat]] if private else None)
        )
    return evolve_state(
        state, ledger=evolve_ledger(state.ledger, signals=(*state.ledger.signals, record))
    )


def seen(state: State, seat: Seat) -> tuple[SignalRecord, ...]:
    """The signals `seat` has seen: all of them, or its side's only when they are team-private."""
    signals = state.ledger.signals
    if state.seating.rules.signals is not _TEAM_PRIVATE:
        return signals
    table = state.seating
    side = table.side_of[seat]
    partners = table.sides[side] if side >= 0 else ()
    return tuple(s for s in signals if s.seat in partners)


def _possible(action: Action, rules: Rules) -> bool:
    vocabulary = VOCABULARIES.get(rules.signal_vocabulary, {})
    return isinstance(action, Signal) and rules.signals is not _OFF and action.name in vocabulary


#: One `Signal` of each name, which `offered` hands out.
_SIGNALS: Final = {name: Signal(name) for name in SIGNAL_NAMES}

VARIANT: Variant = Variant(
    "signals",
    lambda rules: rules.signals is not _OFF,
    actions=(Signal,),
    universe=tuple(_SIGNALS.values()),
    possible=_possible,
    offered=offered,
    refusal=refusal,
    apply=apply,
    observe=lambda state, seat: {"signals": seen(state, seat)},
)
