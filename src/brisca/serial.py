"""States as JSON: :func:`dumps` and :func:`loads`, with ``loads(dumps(s)) == s``.

The JSON holds the whole truth, hidden cards included; send a seat its
:func:`brisca.observe` view instead. :func:`loads` trusts nothing: it checks
the shape, every card code, and that the state could arise in play (cards
conserved, hand sizes, turn order, trick winners and points), and refuses
anything else with a :class:`BriscaError` that says what is wrong.

The format (version 1)::

    {"format": "brisca-state", "version": 1,
     "rules": {...every option of Rules.to_dict()...},
     "dealer": 1, "seed": 7, "trump": "O", "trump_card": "7O",
     "hands": [["1O", "3C", "12E"], ...], "stock": ["4B", ...],
     "trick": [[0, "1O"]],
     "tricks": [{"leader": 1, "cards": [[1, "2C"], [0, "5C"]], "winner": 0, "points": 0}],
     "to_act": 1}
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any

from brisca.actions import CallCard, NameTrump, parse_action
from brisca.cards import Card, Suit
from brisca.errors import IllegalActionError, NotationError, StateError
from brisca.rules import SUIT_ROTATION, Rules

if TYPE_CHECKING:
    from brisca.match import Match

from brisca.state import (
    BidRecord,
    Cante,
    Contract,
    Ledger,
    SignalRecord,
    State,
    SwapRecord,
    Trick,
    table_for,
)
from brisca.tricks import trick_winner

__all__ = ["check_state", "dumps", "loads"]

FORMAT = "brisca-state"
VERSION = 1


def dumps(state: State | Match) -> str:
    """The state (or match) as JSON text, hidden cards included.

    Raises:
        StateError: `state` is neither a State nor a Match.
    """
    if type(state) is not State:
        from brisca.match import Match, dumps_match  # the match layer builds on this module

        if type(state) is not Match:
            raise StateError(f"expected a brisca.State or brisca.Match, got {type(state).__name__}")
        return dumps_match(state)
    return json.dumps(
        {
            "format": FORMAT,
            "version": VERSION,
            "rules": state.rules.to_dict(),
            "dealer": state.dealer,
            "seed": state.seed,
            "trump": None if state.trump is None else state.trump.value,
            "trump_card": None if state.trump_card is None else state.trump_card.code,
            "hands": [[c.code for c in hand] for hand in state.hands],
            "stock": [c.code for c in state.stock],
            "trick": [[seat, c.code] for seat, c in state.trick],
            "tricks": [
                {
                    "leader": t.leader,
                    "cards": [[seat, c.code] for seat, c in t.cards],
                    "winner": t.winner,
                    "points": t.points,
                }
                for t in state.tricks
            ],
            "to_act": state.to_act,
            "ledger": _ledger_json(state.ledger),
        }
    )


def _ledger_json(ledger: Ledger) -> dict[str, Any]:
    return {
        "dealt": [[c.code for c in hand] for hand in ledger.dealt],
        "swaps": [[s.seat, s.given.code, s.taken.code, s.trick] for s in ledger.swaps],
        "signals": [[s.seat, s.signal, s.trick] for s in ledger.signals],
        "black_hand": ledger.black_hand,
        "pinta_drawn": None
        if ledger.pinta_drawn is None
        else [ledger.pinta_drawn[0], ledger.pinta_drawn[1].code],
        "bids": [[r.seat, str(r.bid)] for r in ledger.bids],
        "contract": None if ledger.contract is None else _contract_json(ledger.contract),
        "cantes": [[c.seat, c.suit.value, c.points, c.trick] for c in ledger.cantes],
    }


def _contract_json(contract: Contract) -> dict[str, Any]:
    return {
        "declarer": contract.declarer,
        "bid": str(contract.bid),
        "trump": None if contract.trump is None else contract.trump.value,
        "called": None if contract.called is None else contract.called.code,
        "partner": contract.partner,
    }


def _read_ledger(item: object, n: int) -> Ledger:
    record = _Reader(item, "ledger")
    dealt = record.get("dealt", list)
    if len(dealt) != n:
        raise StateError(f"ledger.dealt lists {len(dealt)} seats; the rules have {n}")
    swaps = []
    for entry in record.get("swaps", list):
        row = _Reader.row(entry, "ledger.swaps", (int, str, str, int))
        swaps.append(SwapRecord(_seat(row[0], n), Card.parse(row[1]), Card.parse(row[2]), row[3]))
    signals = []
    for entry in record.get("signals", list):
        row = _Reader.row(entry, "ledger.signals", (int, str, int))
        signals.append(SignalRecord(_seat(row[0], n), row[1], row[2]))
    drawn = record.get("pinta_drawn", list, optional=True)
    if drawn is not None:
        row = _Reader.row(drawn, "ledger.pinta_drawn", (int, str))
        drawn = (_seat(row[0], n), Card.parse(row[1]))
    bids = []
    for entry in record.get("bids", list):
        row = _Reader.row(entry, "ledger.bids", (int, str))
        bids.append(BidRecord(_seat(row[0], n), parse_action(row[1])))
    cantes = []
    for entry in record.get("cantes", list):
        row = _Reader.row(entry, "ledger.cantes", (int, str, int, int))
        cantes.append(Cante(_seat(row[0], n), _suit(row[1]), row[2], row[3]))
    contract = None
    if record.get("contract", dict, optional=True) is not None:
        c = _Reader(record.get("contract", dict), "ledger.contract")
        trump = c.get("trump", str, optional=True)
        called = c.get("called", str, optional=True)
        contract = Contract(
            c.seat("declarer", n),
            parse_action(c.get("bid", str)),
            None if trump is None else _suit(trump),
            None if called is None else Card.parse(called),
            c.seat("partner", n, optional=True),
        )
    return Ledger(
        tuple(_Reader(h, "ledger.dealt").cards(None) for h in dealt),
        tuple(swaps),
        tuple(signals),
        record.seat("black_hand", n, optional=True),
        drawn,
        tuple(bids),
        contract,
        tuple(cantes),
    )


def _suit(letter: str, where: str = "suit") -> Suit:
    try:
        return Suit(letter)
    except ValueError:
        raise NotationError(
            f"{where}: expected a suit letter O, C, E or B, got {letter!r}"
        ) from None


def _seat(value: int, n: int) -> int:
    if not 0 <= value < n:
        raise StateError(f"{value} is not a seat from 0 to {n - 1}")
    return value


def loads(text: str | bytes) -> Any:
    """Read a state (or match) written by :func:`dumps`, checking that it could arise in play.

    A ``brisca-match`` record gives a `Match`, read by :func:`brisca.match.loads_match`.

    Raises:
        NotationError: the text is not a state record (bad JSON, shape or card code).
        RulesError: the rules in it are invalid.
        StateError: the record reads, but no game of its rules could reach it.
    """
    try:
        data = json.loads(text)
    except (TypeError, ValueError, RecursionError) as error:
        raise NotationError(f"not a JSON state: {error}") from None
    if isinstance(data, dict) and data.get("format") == "brisca-match":
        from brisca.match import loads_match

        return loads_match(text)
    record = _Reader(data, "state")
    if record.get("format", str) != FORMAT or record.get("version", int) != VERSION:
        raise NotationError(f"not a {FORMAT} record of version {VERSION}")
    rules = Rules.from_dict(record.get("rules", dict))
    n = rules.num_players
    dealer = record.seat("dealer", n)
    seed = record.get("seed", int, optional=True)
    if seed is not None and seed < 0:
        raise NotationError(f"seed must be a non-negative int, got {seed}")
    trump_letter = record.get("trump", str, optional=True)
    trump = None if trump_letter is None else _suit(trump_letter, "trump")
    trump_code = record.get("trump_card", str, optional=True)
    hands = record.get("hands", list)
    if len(hands) != n:
        raise StateError(f"hands lists {len(hands)} seats; the rules have {n}")
    tricks = []
    for k, item in enumerate(record.get("tricks", list)):
        t = _Reader(item, f"tricks[{k}]")
        tricks.append(
            Trick(
                t.seat("leader", n), t.plays("cards", n), t.seat("winner", n), t.get("points", int)
            )
        )
    ledger = _read_ledger(record.get("ledger", dict), n)
    contract = ledger.contract
    chosen = contract is not None and contract.trump is not None
    state = State(
        table_for(
            rules,
            dealer,
            contract.declarer if chosen and contract else None,
            contract.partner if chosen and contract else None,
        ),
        seed,
        trump,
        None if trump_code is None else Card.parse(trump_code),
        tuple(_Reader(h, "hands").cards(None) for h in hands),
        record.cards("stock"),
        record.plays("trick", n),
        tuple(tricks),
        record.seat("to_act", n, optional=True),
        ledger,
    )
    check_state(state)
    return state


class _Reader:
    """Typed access to one JSON object, with errors that name the field."""

    def __init__(self, data: object, where: str) -> None:
        self.data = data
        self.where = where

    def get(self, key: str, kind: type, optional: bool = False) -> Any:
        if not isinstance(self.data, dict):
            raise NotationError(f"{self.where} must be a JSON object")
        if key not in self.data:
            raise NotationError(f"{self.where} lacks {key!r}")
        value = self.data[key]
        if value is None and optional:
            return None
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise NotationError(f"{self.where}.{key} must be {kind.__name__}, got {value!r}")
        return value

    def seat(self, key: str, n: int, optional: bool = False) -> Any:
        seat = self.get(key, int, optional)
        if seat is not None and not 0 <= seat < n:
            raise StateError(f"{self.where}.{key} is {seat}, not a seat from 0 to {n - 1}")
        return seat

    def cards(self, key: str | None) -> tuple[Card, ...]:
        items = self.data if key is None else self.get(key, list)
        if not isinstance(items, list) or not all(isinstance(c, str) for c in items):
            raise NotationError(f"{self.where} {key or ''} must be a list of card codes")
        return tuple(Card.parse(c) for c in items)

    def plays(self, key: str, n: int) -> tuple[tuple[int, Card], ...]:
        out = []
        for item in self.get(key, list):
            seat, code = _Reader.row(item, f"{self.where}.{key}", (int, str))
            if not 0 <= seat < n:
                raise StateError(f"{self.where}.{key}: {seat} is not a seat from 0 to {n - 1}")
            out.append((seat, Card.parse(code)))
        return tuple(out)

    @staticmethod
    def row(item: object, where: str, kinds: tuple[type, ...]) -> list[Any]:
        """A JSON list of exactly `kinds`, such as a ``[seat, card]`` pair."""
        if not (
            isinstance(item, list)
            and len(item) == len(kinds)
            and all(
                isinstance(v, k) and not (k is int and isinstance(v, bool))
                for v, k in zip(item, kinds, strict=True)
            )
        ):
            names = ", ".join(k.__name__ for k in kinds)
            raise NotationError(f"{where} must hold [{names}] rows, got {item!r}")
        return item


def check_state(state: State) -> None:
    """Check that `state` could arise in a game of its rules.

    It checks that the cards are exactly the pack, the turn order, the trick
    leaders, winners and points, the hand sizes and the talon size. Who drew
    which card cannot be checked from one state.

    Raises:
        StateError: the first inconsistency found.
    """
    table, rules = state.table, state.rules
    active = table.active
    pack = rules.cards
    held = [c for hand in state.hands for c in hand]
    on_table = [c for _, c in state.trick] + [c for t in state.tricks for _, c in t.cards]
    talon = list(state.stock) + ([state.trump_card] if state.trump_card else [])
    counts = Counter(held + on_table + talon)
    extra = sorted(c.code for c in counts if c not in pack or counts[c] > 1)
    missing = sorted(c.code for c in pack if c not in counts)
    if extra or missing:
        raise StateError(f"cards are not the pack: unexpected {extra}, missing {missing}")
    if rules.turns_card:
        if state.trump is None or (state.trump_card and state.trump_card.suit is not state.trump):
            raise StateError("the trump suit is not the turned card's suit")
    elif state.trump_card is not None:
        raise StateError("these rules turn no trump card")
    elif rules.has_auction:
        _check_auction(state)
    elif state.trump not in SUIT_ROTATION:
        raise StateError("these rules rotate the trump suit but name none")
    leader = table.first_leader
    for k, t in enumerate(state.tricks):
        seats = tuple(seat for seat, _ in t.cards)
        if t.leader != leader or seats != table.rotation[leader]:
            raise StateError(f"trick {k} is not played in turn from seat {leader}")
        if t.winner != trick_winner(t.cards, state.trump, table):
            raise StateError(f"trick {k} names the wrong winner")
        if t.points != sum(table.points[c] for _, c in t.cards):
            raise StateError(f"trick {k} counts the wrong points")
        leader = t.winner
    if len(state.tricks) > table.tricks_total:
        raise StateError("more tricks than the pack allows")
    played_out = len(state.tricks) == table.tricks_total
    turn = table.rotation[leader]
    in_trick = tuple(seat for seat, _ in state.trick)
    if in_trick != turn[: len(in_trick)] or len(in_trick) == len(turn) or (played_out and in_trick):
        raise StateError(f"the trick in progress is not played in turn from seat {leader}")
    over = played_out or _check_ledger(state) or _void(state)
    if _void(state) or (rules.has_auction and state.trump is None):
        return  # the auction was replayed move by move in _check_auction
    if state.to_act != (None if over else turn[len(in_trick)]):
        raise StateError(f"to_act is {state.to_act}; the turn belongs to {turn[len(in_trick)]}")
    per_seat = min(rules.hand_size, table.tricks_total - len(state.tricks))
    for seat, hand in enumerate(state.hands):
        expected = (per_seat - (seat in in_trick)) if seat in active else 0
        if len(hand) != expected:
            raise StateError(f"seat {seat} holds {len(hand)} cards, not {expected}")
    left = max(0, len(pack) - len(active) * (rules.hand_size + len(state.tricks)))
    if len(talon) != left or (rules.turns_card and bool(left) != (state.trump_card is not None)):
        raise StateError(f"the stock and turned card hold {len(talon)} cards, not {left}")
    drawn = state.ledger.pinta_drawn
    if rules.turns_card and (drawn is None) != (state.trump_card is not None):
        raise StateError("the ledger's drawn turned card does not match the talon")
    if drawn is not None and (drawn[1].suit is not state.trump or drawn[0] not in active):
        raise StateError("the ledger's drawn turned card is not a trump drawn by a player")


def _void(state: State) -> bool:
    """Whether every seat passed in the auction."""
    return state.rules.has_auction and state.ledger.contract is None and state.to_act is None


def _check_auction(state: State) -> None:
    """Replay the recorded auction from the dealt hands; it must give this state's contract."""
    from brisca.engine import apply  # the engine's own check: serial sits beside it

    ledger, table = state.ledger, state.table
    fresh = table_for(state.rules, table.dealer)
    replay = State(
        fresh,
        None,
        None,
        None,
        ledger.dealt,
        state.stock,
        (),
        (),
        fresh.first_leader,
        Ledger(ledger.dealt),
    )
    contract = ledger.contract
    steps = [r.bid for r in ledger.bids]
    if contract is not None and contract.trump is not None:
        steps.append(
            NameTrump(contract.trump) if contract.called is None else CallCard(contract.called)
        )
    try:
        for step in steps:
            if replay.to_act is None:
                raise StateError("the recorded auction goes on after it ended")
            replay = apply(replay, step)
    except IllegalActionError as error:
        raise StateError(f"the recorded auction is not legal: {error}") from None
    if replay.ledger.bids != ledger.bids or replay.ledger.contract != contract:
        raise StateError("the recorded auction does not give the recorded contract")
    if replay.trump != state.trump or replay.table != table:
        raise StateError("the trump or sides do not follow from the recorded auction")
    if state.trump is None and (state.tricks or state.trick or state.to_act != replay.to_act):
        raise StateError("no card is played before the auction ends")
    if state.trump is None and state.hands != ledger.dealt:
        raise StateError("the hands changed before the auction ended")


def _check_ledger(state: State) -> bool:
    """Check the ledger's dealt hands and records; whether a black hand has ended the hand."""
    table, ledger = state.table, state.ledger
    dealt = [c for hand in ledger.dealt for c in hand]
    if len(set(dealt)) != len(dealt) or any(c not in table.points for c in dealt):
        raise StateError("the ledger's dealt hands are not distinct cards of the pack")
    for seat, hand in enumerate(ledger.dealt):
        if len(hand) != (table.rules.hand_size if seat in table.active else 0):
            raise StateError(f"the ledger says seat {seat} was dealt {len(hand)} cards")
    for swap in ledger.swaps:
        if swap.given.suit is not state.trump or swap.taken.suit is not state.trump:
            raise StateError("a recorded swap exchanges a card that is not a trump")
    holder = ledger.black_hand
    if holder is None:
        return False
    trumps = {c.rank for c in state.hands[holder] if c.suit is state.trump}
    if not {1, 3, 12} <= trumps:
        raise StateError(f"the ledger names seat {holder}'s black hand, but it holds none")
    return True
