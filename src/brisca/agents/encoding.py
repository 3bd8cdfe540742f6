"""Observations and actions for programs: a flat numeric vector and an action index.

(The readable JSON form of an observation is :func:`brisca.formats.views.observation_to_dict`.)

**Numeric form.** :func:`encode_observation` gives a flat ``list[float]`` whose
length depends only on the rules (:func:`encoding_size`), for learning agents.
No numpy is needed; ``numpy.asarray(vector)`` works. Seats are *relative*: row
``r`` of a per-seat block is seat ``(observer + r) % num_players``, so row 0 is
always the observer. Cards follow ``rules.cards`` (oros, copas, espadas, bastos;
rank ascending), ``D = len(rules.cards)`` of them; ``N = num_players``; suits
are ordered oros, copas, espadas, bastos. The blocks, in order
(:func:`encoding_layout` gives each one's offset and size):

| block | size | meaning |
|---|---|---|
| `hand` | D | 1 for each card in the observer's hand |
| `played` | N x D | 1 for each card a seat has played (tricks and trick) |
| `trick` | N x D | 1 for each seat's card in the trick in progress |
| `known` | N x D | 1 for each card a seat is known to hold now (`sampling.known_hands`) |
| `unseen` | D | 1 for each card whose place the observer cannot know |
| `turned` | D | 1 for the turned trump card while it lies face up |
| `trump` | 4 | one-hot trump suit; all 0 while unknown |
| `voids` | N x 4 | 1 for each suit a seat is known to lack (arrastre) |
| `to_act` | N | one-hot seat to act; all 0 once the hand is over |
| `dealer` | N | one-hot dealer |
| `partners` | N | 1 for each seat on the observer's side, as it knows it |
| `hand_sizes` | N | cards held / `rules.hand_size` |
| `stock` | 1 | face-down stock cards / D |
| `points` | N | card points each seat has captured / 120 |
| `tricks_done` | 1 | completed tricks / `rules.tricks_per_hand` |
| `signals` | N x 6 | 1 for each signal seen, in `brisca.game.actions.SIGNAL_NAMES` order |
| `passed` | N | auctions: 1 for each seat that passed |
| `bid_points` | N | auctions: each seat's highest points bid / 220 |
| `bid_rank` | N x 12 | chiamata: each seat's last rank bid, one-hot over ranks 1 to 12 |
| `declarer` | N | auctions: one-hot declarer |
| `partner` | N | chiamata: one-hot called partner, once known |
| `called` | D | chiamata: the called card |
| `contract` | 1 | auctions: the winning points bid / 220 |
| `cantes` | N x 4 | subastada: the suits each seat has sung |

**Action index.** :data:`ACTION_SPACE` lists every action of every variant
once, in a fixed order: the 48 plays, the 8 swaps (the 2s and 7s), the claim,
the 6 signals, then the auction calls (pass, bids of 1 to 220 points, rank bids
1 to 12, the 4 trump suits, the 48 calls, the 4 cantes). New action kinds will
be appended, so indices never move. :func:`action_space` is the part of it
that some rules can ever offer, in the same order; :func:`action_index`,
:func:`action_from_index` and :func:`legal_mask` work on that, so a 2-player
Spanish game has 40 actions, its plays.

>>> import brisca
>>> from brisca.agents.encoding import action_index, action_from_index, legal_mask
>>> rules = brisca.preset("spanish-2p")
>>> state = brisca.new_game(rules, seed=7)
>>> [action_from_index(i, rules) for i, ok in enumerate(legal_mask(state)) if ok]
[Play(card=Card.parse('2O')), Play(card=Card.parse('4C')), Play(card=Card.parse('11C'))]
>>> action_index(brisca.Play("4C"), rules)
13
"""

from __future__ import annotations

import array
import functools
import itertools
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, cast

import attrs

from brisca.agents.sampling import knowledge, known_hands
from brisca.game.actions import (
    PLAYS,
    SIGNAL_NAMES,
    Action,
    Bid,
    BidRank,
    Pass,
    Play,
    well_formed,
)
from brisca.game.cards import RANKS, Card, DeckKind, Suit, deck_cards
from brisca.game.engine import legal_actions, observe
from brisca.game.errors import (
    BARE_ERRORS,
    IllegalActionError,
    NotationError,
    RulesError,
    StateError,
    as_brisca_error,
    as_state_error,
    checked_integer,
    describe,
)
from brisca.game.rules import Rules
from brisca.game.state import Observation, State, Trick
from brisca.game.values import sealed
from brisca.game.variants import VARIANTS, owner
from brisca.game.variants.auction import MAX_BID

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "ACTION_SPACE",
    "MAX_BID",
    "StateEncoder",
    "action_from_index",
    "action_index",
    "action_space",
    "decode_mask",
    "encode_observation",
    "encoding_layout",
    "encoding_size",
    "legal_mask",
]

_SUITS = (Suit.OROS, Suit.COPAS, Suit.ESPADAS, Suit.BASTOS)
_ALL_CARDS = deck_cards(DeckKind.SPANISH48)


def encoding_layout(rules: object) -> tuple[tuple[str, int, int], ...]:
    """The blocks of :func:`encode_observation` for `rules`: ``(name, offset, size)``.

    Raises:
        RulesError: `rules` is not a Rules.
    """
    if type(rules) is not Rules:  # before the cache, which would hash any value
        raise RulesError(f"expected a brisca.Rules, got {describe(rules)}")
    return _layout(rules)


@functools.lru_cache(maxsize=256)
def _layout(rules: Rules) -> tuple[tuple[str, int, int], ...]:
    d, n = len(rules.cards), rules.num_players
    sizes = [
        ("hand", d),
        ("played", n * d),
        ("trick", n * d),
        ("known", n * d),
        ("unseen", d),
        ("turned", d),
        ("trump", 4),
        ("voids", n * 4),
        ("to_act", n),
        ("dealer", n),
        ("partners", n),
        ("hand_sizes", n),
        ("stock", 1),
        ("points", n),
        ("tricks_done", 1),
        ("signals", n * len(SIGNAL_NAMES)),
        ("passed", n),
        ("bid_points", n),
        ("bid_rank", n * len(RANKS)),
        ("declarer", n),
        ("partner", n),
        ("called", d),
        ("contract", 1),
        ("cantes", n * 4),
    ]
    layout = []
    offset = 0
    for name, size in sizes:
        layout.append((name, offset, size))
        offset += size
    return tuple(layout)


def encoding_size(rules: object) -> int:
    """The length of every :func:`encode_observation` vector for `rules`.

    Raises:
        RulesError: `rules` is not a Rules.
    """
    _, offset, size = encoding_layout(rules)[-1]
    return offset + size


def encode_observation(observation: object) -> list[float]:
    """`observation` as a flat list of floats, laid out as the module documentation says.

    Raises:
        StateError: `observation` is not an Observation.
    """
    if not isinstance(observation, Observation):
        raise StateError(f"expected a brisca.Observation, got {type(observation).__name__}")
    with as_state_error("the observation"):
        return _encode(observation)


@attrs.frozen(eq=False)
class _Blocks:
    """The offsets of one rules' blocks and what filling them needs, found once per rules."""

    size: int
    offset: dict[str, int]
    #: Each card of the pack by its index in ``rules.cards``.
    index: dict[Card, int]
    d: int
    n: int
    hand_size: int
    tricks: int


@functools.lru_cache(maxsize=256)
def _blocks(rules: Rules) -> _Blocks:
    layout = _layout(rules)
    _, last, size = layout[-1]
    return _Blocks(
        last + size,
        {name: offset for name, offset, _ in layout},
        {c: i for i, c in enumerate(rules.cards)},
        len(rules.cards),
        rules.num_players,
        rules.hand_size,
        rules.tricks_per_hand,
    )


_SUIT_INDEX = {suit: k for k, suit in enumerate(_SUITS)}
# The same by the suit's identity (the members are the only suits), which the fast encoder
# looks up without the enum's hash in Python; anything else is a KeyError.
_SUIT_AT = {id(suit): k for k, suit in enumerate(_SUITS)}
_SIGNAL_INDEX = {name: k for k, name in enumerate(SIGNAL_NAMES)}


def _encode(obs: Observation) -> list[float]:
    # Written out with precomputed offsets: this runs at every step of every learning
    # program, and a helper call per entry cost most of its time.
    b = _blocks(obs.rules)
    o, index, d, n, me = b.offset, b.index, b.d, b.n, obs.seat
    vector = [0.0] * b.size
    at = index.get  # a card outside the pack (a hand-built view) is left out
    hand = o["hand"]
    for card in obs.hand:
        i = at(card)
        if i is not None:
            vector[hand + i] = 1.0
    played, trick_block = o["played"], o["trick"]
    captured = [0] * n
    for t in obs.tricks:
        captured[t.winner] += t.points
        for seat, card in t.cards:
            i = at(card)
            if i is not None:
                vector[played + (seat - me) % n * d + i] = 1.0
    for seat, card in obs.trick:
        i = at(card)
        if i is not None:
            row = (seat - me) % n * d + i
            vector[played + row] = vector[trick_block + row] = 1.0
    known, unseen = knowledge(obs)
    block = o["known"]
    for seat, held in enumerate(known):
        row = block + (seat - me) % n * d
        for card in held:
            i = at(card)
            if i is not None:
                vector[row + i] = 1.0
    block = o["unseen"]
    for card in unseen:
        i = at(card)
        if i is not None:
            vector[block + i] = 1.0
    if obs.trump_card is not None:
        i = at(obs.trump_card)
        if i is not None:
            vector[o["turned"] + i] = 1.0
    if obs.trump is not None:
        vector[o["trump"] + _SUIT_INDEX[obs.trump]] = 1.0
    block = o["voids"]
    for seat, suits in enumerate(obs.voids):
        for suit in suits:
            vector[block + (seat - me) % n * 4 + _SUIT_INDEX[suit]] = 1.0
    if obs.to_act is not None:
        vector[o["to_act"] + (obs.to_act - me) % n] = 1.0
    vector[o["dealer"] + (obs.dealer - me) % n] = 1.0
    for side in obs.sides:
        if me in side:
            for seat in side:
                vector[o["partners"] + (seat - me) % n] = 1.0
    block = o["hand_sizes"]
    for seat, size in enumerate(obs.hand_sizes):
        vector[block + (seat - me) % n] = size / b.hand_size
    vector[o["stock"]] = obs.stock_size / d
    block = o["points"]
    for seat, points in enumerate(captured):
        vector[block + (seat - me) % n] = points / 120
    vector[o["tricks_done"]] = len(obs.tricks) / b.tricks
    block = o["signals"]
    for record in obs.signals:
        vector[
            block + (record.seat - me) % n * len(SIGNAL_NAMES) + _SIGNAL_INDEX[record.signal]
        ] = 1.0
    if obs.bids or obs.contract is not None or obs.cantes:
        _encode_auction(obs, vector, b)
    return vector


def _encode_auction(obs: Observation, vector: list[float], b: _Blocks) -> None:
    """The auction blocks: bids, passes, the contract and the cantes."""
    o, n, me = b.offset, b.n, obs.seat
    highest = [0] * n
    for record in obs.bids:
        bid = record.bid
        if isinstance(bid, Pass):
            vector[o["passed"] + (record.seat - me) % n] = 1.0
        elif isinstance(bid, Bid):
            highest[record.seat] = max(highest[record.seat], bid.points)
        elif isinstance(bid, BidRank):
            offset = o["bid_rank"] + (record.seat - me) % n * len(RANKS)
            for rank in RANKS:
                vector[offset + rank - 1] = 1.0 if rank == bid.rank else 0.0
    for seat, points in enumerate(highest):
        vector[o["bid_points"] + (seat - me) % n] = points / MAX_BID
    contract = obs.contract
    if contract is not None:
        vector[o["declarer"] + (contract.declarer - me) % n] = 1.0
        if contract.partner is not None:
            vector[o["partner"] + (contract.partner - me) % n] = 1.0
        if contract.called is not None and contract.called in b.index:
            vector[o["called"] + b.index[contract.called]] = 1.0
        if isinstance(contract.bid, Bid):
            vector[o["contract"]] = contract.bid.points / MAX_BID
    for cante in obs.cantes:
        vector[o["cantes"] + (cante.seat - me) % n * 4 + _SUIT_INDEX[cante.suit]] = 1.0


#: The order in which the variants' actions join the action space: the first release's
#: kinds, then the auction's and the cantes'. A variant missing here comes after them in
#: registry order, so a new one only appends and no index ever moves.
_SPACE_ORDER = ("swaps", "black_hand", "signals", "auction", "cantes")


def _universe() -> tuple[Action, ...]:
    ranked = sorted(
        VARIANTS,
        key=lambda v: _SPACE_ORDER.index(v.name) if v.name in _SPACE_ORDER else len(_SPACE_ORDER),
    )
    return (*(PLAYS[c] for c in _ALL_CARDS), *(a for v in ranked for a in v.universe))


#: Every action of every variant, each once, in a fixed order (see the module documentation).
ACTION_SPACE: tuple[Action, ...] = _universe()


def _possible(action: Action, rules: Rules) -> bool:
    """Whether some state of `rules` can offer `action` (a superset is fine, never a subset)."""
    if type(action) is Play:
        return action.card in rules.cards
    rule = owner(type(action))
    return rule is not None and rule.possible(action, rules)


@functools.lru_cache(maxsize=256)
def _space(rules: Rules) -> tuple[tuple[Action, ...], dict[Action, int]]:
    actions = tuple(a for a in ACTION_SPACE if _possible(a, rules))
    return actions, {a: i for i, a in enumerate(actions)}


def action_space(rules: object) -> tuple[Action, ...]:
    """The actions `rules` can ever offer, in :data:`ACTION_SPACE` order.

    Raises:
        RulesError: `rules` is not a Rules.
    """
    if type(rules) is not Rules:
        raise RulesError(f"expected a brisca.Rules, got {describe(rules)}")
    return _space(rules)[0]


def action_index(action: object, rules: object) -> int:
    """The index of `action` in ``action_space(rules)``.

    Raises:
        RulesError: `rules` is not a Rules.
        NotationError: `action` is not an action.
        IllegalActionError: these rules never offer `action`.
    """
    if type(rules) is not Rules:
        raise RulesError(f"expected a brisca.Rules, got {describe(rules)}")
    if not well_formed(action):  # not an action, or one built past its constructor
        raise NotationError(f"not a brisca action: {describe(action)}")
    index = _space(rules)[1].get(cast(Action, action))
    if index is not None:
        return index
    if action in ACTION_SPACE:
        raise IllegalActionError(f"these rules never offer {action}")
    raise NotationError(f"not a brisca action: {describe(action)}")


def action_from_index(index: object, rules: object) -> Action:
    """The action at `index` of ``action_space(rules)``.

    Raises:
        RulesError: `rules` is not a Rules.
        NotationError: `index` is not an index of that space.
    """
    actions = action_space(rules)
    if type(index) is int and 0 <= index < len(actions):
        return actions[index]
    at = checked_integer(  # a numpy integer will do
        index, "an action index for these rules", 0, len(actions) - 1, error=NotationError
    )
    return actions[at]


def legal_mask(state: object) -> list[bool]:
    """For each action of ``action_space(state.rules)``, whether it is legal in `state`.

    Raises:
        StateError: `state` is not a State.
    """
    if type(state) is not State:
        raise StateError(f"expected a brisca.State, got {type(state).__name__}")
    with as_state_error("the state"):
        actions, index = _space(state.rules)
        mask = [False] * len(actions)
        for action in legal_actions(state):
            mask[index[action]] = True
    return mask


def decode_mask(mask: object, rules: object) -> tuple[Action, ...]:
    """The actions a mask marks, in index order: the inverse of :func:`legal_mask`.

    `mask` is any sequence of booleans (or of 0 and 1), such as a numpy array.

    Raises:
        RulesError: `rules` is not a Rules.
        NotationError: `mask` is not such a sequence, of the length of the action space.
    """
    actions = action_space(rules)
    if isinstance(mask, (str, bytes, dict)) or not isinstance(mask, Iterable):
        raise NotationError(f"a mask is a sequence of booleans, got {describe(mask)}")
    try:  # one entry past the length at most: an endless iterable is refused as too long
        entries = list(itertools.islice(mask, len(actions) + 1))
    except BARE_ERRORS:  # a 0-d numpy array, say, is iterable by its type only
        raise NotationError(f"a mask is a sequence of booleans, got {describe(mask)}") from None
    bits = []
    for k, on in enumerate(entries):
        bit = _bit(on)
        if bit is None:
            raise NotationError(f"mask[{k}] must be a boolean, got {describe(on)}")
        bits.append(bit)
    if len(bits) != len(actions):
        found = "more" if len(bits) > len(actions) else len(bits)
        raise NotationError(f"a mask for these rules has {len(actions)} entries, not {found}")
    return tuple(a for a, on in zip(actions, bits, strict=True) if on)


def _bit(on: object) -> bool | None:
    """A mask entry as a bool: a bool, or 0 or 1 as an int, a float, or a scalar of an
    array library whose ``item()`` is one (numpy's, a 0-d tensor); ``None`` for anything
    else, whose own == or bool is never asked."""
    if type(on) is bool:
        return on
    if type(on) is int or type(on) is float:
        return _BITS.get(on)
    try:
        value = on.item() if on.ndim == 0 else None  # type: ignore[attr-defined]
    except BARE_ERRORS:  # no array scalar
        return None
    return _BITS.get(value) if type(value) in (bool, int, float) else None


_BITS: dict[object, bool] = {0: False, 1: True}  # 0.0, 1.0, False and True find them too


class StateEncoder:
    """:func:`encode_observation` of ``observe(state, seat)`` and :func:`legal_mask` for the
    states of one rules, as numpy arrays, for the learning environments (it needs numpy).

    The arrays are equal, entry for entry, to ``numpy.asarray(encode_observation(...),
    numpy.float32)`` and ``numpy.asarray(legal_mask(state), numpy.int8)``. It is faster
    at the steps of a hand one after another: what the completed tricks give (the
    ``played`` and ``points`` blocks, the cards no longer unseen) is kept for each seat
    and only the tricks completed since are added; any other state is encoded afresh.
    Threads may share an encoder.

    >>> import brisca, numpy
    >>> rules = brisca.preset("spanish-2p")
    >>> state = brisca.new_game(rules, seed=7)
    >>> encoder = StateEncoder(rules)
    >>> vector = encoder.observation(state, 0)
    >>> slow = numpy.asarray(encode_observation(brisca.observe(state, 0)), numpy.float32)
    >>> vector.dtype, bool((vector == slow).all())
    (dtype('float32'), True)
    >>> encoder.legal(state)
    [1, 13, 18]

    Raises:
        RulesError: `rules` is not a Rules.
        ImportError: numpy is not installed.
    """

    def __init__(self, rules: object) -> None:
        if type(rules) is not Rules:
            raise RulesError(f"expected a brisca.Rules, got {describe(rules)}")
        import numpy as np

        self.rules = rules
        self._equal = rules
        b = _blocks(rules)
        self._b = b
        self._actions, self._action_index = _space(rules)
        # Plays by card: a card hashes by identity, a Play through attrs' Python __hash__.
        self._play_index = {a.card: i for a, i in self._action_index.items() if type(a) is Play}
        n, d = b.n, b.d
        # rotation[me][seat]: the row of `seat` in `me`'s relative blocks.
        self._rotation = tuple(tuple((seat - me) % n for seat in range(n)) for me in range(n))
        o = b.offset
        self._hand, self._unseen, self._turned = o["hand"], o["unseen"], o["turned"]
        self._trump, self._stock, self._tricks_done = o["trump"], o["stock"], o["tricks_done"]
        self._rows = tuple(_Rows.of(o, d, rotation) for rotation in self._rotation)
        # Where the vector holds fractions other than the history's: hand sizes and the
        # stock, and the auction's points.
        self._fractions = (*range(o["hand_sizes"], o["hand_sizes"] + n), self._stock)
        self._bid_fractions = (*range(o["bid_points"], o["bid_points"] + n), o["contract"])
        self._base = np.zeros(b.size, np.float32)
        self._base[self._unseen : self._unseen + d] = 1.0
        # Each seat's history of the tricks, in a list it is taken from while in use.
        self._memo: list[list[_History]] = [[self._fresh()] for _ in range(n)]

    def __reduce__(self) -> tuple[type[StateEncoder], tuple[Rules]]:
        # Copied or pickled as its rules: what it keeps of each seat's history is a cache
        # (and a memoryview, which neither copies nor pickles).
        return StateEncoder, (self.rules,)

    def observation(self, state: object, seat: object) -> npt.NDArray[np.float32]:
        """``encode_observation(observe(state, seat))`` as a new float32 array.

        Raises:
            StateError: `state` is not a State of these rules, or `seat` not a seat.
        """
        vector: npt.NDArray[np.float32] = self._encoded(state, seat, False)
        return vector

    def observation_list(self, state: object, seat: object) -> list[float]:
        """``observation(state, seat).tolist()``, made without the array: a new list of
        the same float32 values as Python floats, as OpenSpiel's tensors are. Faster
        than the array's ``tolist``, which makes a float for every entry.

        Raises:
            StateError: `state` is not a State of these rules, or `seat` not a seat.
        """
        return self._encoded(state, seat, True)  # type: ignore[no-any-return]

    def _encoded(self, state: object, seat: object, listed: bool) -> Any:
        """`seat`'s vector of `state`: an array, or a list if `listed`."""
        view = observe(self._check(state), cast(Any, seat))  # observe checks the seat
        # An inline try here and below, not `as_state_error`: these run at every step of
        # an environment, and a try costs nothing until a hand-edited value makes Python
        # raise.
        try:
            vector, gone = self._history(view.tricks, view.seat, listed)
            self._write(view, vector if listed else vector.data, gone)
            if listed:  # the fractions as the array rounds them (the history's are)
                for i in self._fractions:
                    vector[i] = _float32(vector[i])
                if view.bids or view.contract is not None:
                    for i in self._bid_fractions:
                        vector[i] = _float32(vector[i])
        except BARE_ERRORS as error:
            raise as_brisca_error("the observation", error) from None
        return vector

    def mask(self, state: object) -> npt.NDArray[np.int8]:
        """``legal_mask(state)`` as a new int8 array of 0 and 1.

        Raises:
            StateError: `state` is not a State of these rules.
        """
        import numpy as np

        game = self._check(state)
        mask = np.zeros(len(self._actions), np.int8)
        plays, index = self._play_index, self._action_index
        try:
            for action in legal_actions(game):  # a few entries: faster one by one than indexed
                mask[plays[action.card] if type(action) is Play else index[action]] = 1
        except BARE_ERRORS as error:
            raise as_brisca_error("the state", error) from None
        return mask

    def legal(self, state: object) -> list[int]:
        """The indices of the legal actions in `state`, ascending: where the mask is 1.

        Raises:
            StateError: `state` is not a State of these rules.
        """
        game = self._check(state)
        plays, index = self._play_index, self._action_index
        try:
            return sorted(
                [plays[a.card] if type(a) is Play else index[a] for a in legal_actions(game)]
            )
        except BARE_ERRORS as error:
            raise as_brisca_error("the state", error) from None

    def action(self, index: object) -> Action:
        """``action_from_index(index, rules)``.

        Raises:
            NotationError: `index` is not an index of the rules' action space.
        """
        actions = self._actions
        if type(index) is not int or not 0 <= index < len(actions):
            return action_from_index(index, self.rules)  # which raises, saying why
        return actions[index]

    def _check(self, state: object) -> State:
        """`state`, if it is a State of the encoder's rules."""
        if type(state) is not State:
            raise StateError(f"expected a brisca.State, got {type(state).__name__}")
        try:
            rules = state.rules
            if rules is self.rules or rules is self._equal:
                return state
            same = bool(rules == self.rules)
        except BARE_ERRORS as error:
            raise as_brisca_error("the state", error) from None
        if not same:
            raise StateError("the state is of other rules than the encoder's")
        # The engine's tables may carry an equal copy of the rules: compare it once.
        self._equal = rules
        return state

    def _history(self, tricks: tuple[Trick, ...], me: int, listed: bool) -> tuple[Any, int]:
        """A new copy of the part of `me`'s vector that `tricks` alone gives (an array,
        or a list if `listed`), and the cards in them (a bit per index in ``rules.cards``).

        Each seat's history is brought up to date in place when `tricks` extends its
        tricks, else made afresh: each seat acts once a trick, so nearly every call
        meets a new trick, and a new array at each had been most of the encoder's cost.
        A history is taken from its seat's list while in use and put back after (both
        atomic), so a second thread at the same seat makes its own; a failure part
        way drops it."""
        kept = self._memo[me]
        try:
            memo = kept.pop()
        except IndexError:  # another thread holds it
            memo = self._fresh()
        try:
            if memo.tricks is not tricks:
                done = len(memo.tricks)
                if not (len(tricks) >= done and tricks[:done] == memo.tricks):
                    memo, done = self._fresh(), 0
                self._extend(memo, tricks, done, me)
            if not listed:
                vector: Any = memo.base.copy()
            else:
                if memo.items is None:  # kept from now on, beside the array
                    memo.items = memo.base.tolist()
                vector = memo.items.copy()
            cards = memo.cards
        except BaseException:
            kept.append(self._fresh())  # a hand-built trick may have raised half-way
            raise
        kept.append(memo)
        return vector, cards

    def _extend(self, memo: _History, tricks: tuple[Trick, ...], done: int, me: int) -> None:
        """Write ``tricks[done:]`` into `memo`, which holds ``tricks[:done]``."""
        b, rows = self._b, self._rows[me]
        at, played, points, unseen = b.index.get, rows.played, rows.points, self._unseen
        v: Any = memo.view
        items = memo.items  # the list form, once asked for: written alike
        cards = memo.cards
        captured = memo.captured
        for trick in tricks[done:]:
            winner = trick.winner
            captured[winner] += trick.points
            share = captured[winner] / 120
            v[points[winner]] = share
            if items is not None:
                items[points[winner]] = _float32(share)
            for seat, card in trick.cards:
                i = at(card)
                if i is not None:
                    v[played[seat] + i] = 1.0
                    v[unseen + i] = 0.0
                    if items is not None:
                        items[played[seat] + i] = 1.0
                        items[unseen + i] = 0.0
                    cards |= 1 << i
        share = len(tricks) / b.tricks
        v[self._tricks_done] = share
        if items is not None:
            items[self._tricks_done] = _float32(share)
        # A hand-built state's list of tricks is kept as a tuple: the list may change later.
        memo.tricks = tricks if type(tricks) is tuple else tuple(tricks)
        memo.cards = cards

    def _fresh(self) -> _History:
        """A history of no tricks: every card unseen."""
        return _History((), self._base.copy(), 0, [0] * self._b.n)

    def _write(self, obs: Observation, v: Any, gone: int) -> None:
        """`_encode`'s blocks but the completed tricks' (the history holds them), in its
        order, into `v` (an array's memoryview, or a list), at positions found once per
        seat: a step writes a few dozen. `gone`: the cards of those tricks."""
        b, me = self._b, obs.seat
        at, rows = b.index.get, self._rows[me]
        hand, known, unseen = self._hand, rows.known[me], self._unseen
        for card in obs.hand:  # the observer's known row is its hand
            i = at(card)
            if i is not None:
                v[hand + i] = v[known + i] = 1.0
                v[unseen + i] = 0.0
        played, trick_rows = rows.played, rows.trick
        in_trick: list[int] = []
        for seat, card in obs.trick:
            i = at(card)
            if i is not None:
                v[played[seat] + i] = v[trick_rows[seat] + i] = 1.0
                v[unseen + i] = 0.0
                in_trick.append(i)
        if obs.partner_hands or obs.swaps or obs.cantes or obs.trump_card_drawn is not None:
            for seat, held in self._claimed(obs, gone, in_trick):
                row = rows.known[seat]
                for i in held:
                    v[row + i] = 1.0
                    v[unseen + i] = 0.0
        if obs.trump_card is not None:
            i = at(obs.trump_card)
            if i is not None:
                v[self._turned + i] = 1.0
                v[unseen + i] = 0.0
        if obs.trump is not None:
            v[self._trump + _SUIT_AT[id(obs.trump)]] = 1.0  # by identity: no enum hash
        if any(obs.voids):  # mostly none: all empty sets
            for seat, suits in enumerate(obs.voids):
                for suit in suits:
                    v[rows.voids[seat] + _SUIT_AT[id(suit)]] = 1.0
        if obs.to_act is not None:
            v[rows.to_act[obs.to_act]] = 1.0
        v[rows.dealer[obs.dealer]] = 1.0
        for side in obs.sides:
            if me in side:
                for seat in side:
                    v[rows.partners[seat]] = 1.0
        sizes, full = rows.hand_sizes, b.hand_size
        for seat, size in enumerate(obs.hand_sizes):
            v[sizes[seat]] = size / full
        v[self._stock] = obs.stock_size / b.d
        for record in obs.signals:
            v[rows.signals[record.seat] + _SIGNAL_INDEX[record.signal]] = 1.0
        if obs.bids or obs.contract is not None or obs.cantes:
            self._auction(obs, v)

    def _claimed(
        self, obs: Observation, history: int, in_trick: list[int]
    ) -> list[tuple[int, set[int]]]:
        """``sampling.known_hands`` of the other seats, as card indices: what the public
        record says each holds, less the cards played (`history` and `in_trick`, which
        the common case, the turned card's drawer alone, reads without the sampler)."""
        at = self._b.index.get
        if not (obs.partner_hands or obs.swaps or obs.cantes):  # the turned card's drawer only
            seat, card = obs.trump_card_drawn  # type: ignore[misc]
            i = at(card)
            if i is None or seat == obs.seat or history >> i & 1 or i in in_trick:
                return []
            return [(seat, {i})]
        # Shown hands, swaps and cantes: the sampler's own rule, which also takes out
        # the cards played.
        return [
            (seat, {i for i in map(at, cards) if i is not None})
            for seat, cards in enumerate(known_hands(obs))
            if seat != obs.seat and cards
        ]

    def _auction(self, obs: Observation, v: Any) -> None:
        """`_encode_auction`'s blocks."""
        o, n, rot = self._b.offset, self._b.n, self._rotation[obs.seat]
        highest = [0] * n
        ranked: dict[int, int] = {}
        for record in obs.bids:
            bid = record.bid
            if isinstance(bid, Pass):
                v[o["passed"] + rot[record.seat]] = 1.0
            elif isinstance(bid, Bid):
                highest[record.seat] = max(highest[record.seat], bid.points)
            elif isinstance(bid, BidRank):
                ranked[record.seat] = bid.rank  # a seat's row is one-hot on its last
        for seat, rank in ranked.items():
            if rank in RANKS:
                v[o["bid_rank"] + rot[seat] * len(RANKS) + rank - 1] = 1.0
        for seat, points in enumerate(highest):
            v[o["bid_points"] + rot[seat]] = points / MAX_BID
        contract = obs.contract
        if contract is not None:
            v[o["declarer"] + rot[contract.declarer]] = 1.0
            if contract.partner is not None:
                v[o["partner"] + rot[contract.partner]] = 1.0
            if contract.called is not None and contract.called in self._b.index:
                v[o["called"] + self._b.index[contract.called]] = 1.0
            if isinstance(contract.bid, Bid):
                v[o["contract"]] = contract.bid.points / MAX_BID
        for cante in obs.cantes:
            v[o["cantes"] + rot[cante.seat] * 4 + _SUIT_INDEX[cante.suit]] = 1.0


# Fractions as float32 keeps them, by value: a real state's are few (points / 120, hand
# sizes...). Only floats are kept, whose equality is their value's; cleared when full.
_ROUNDED: dict[float, float] = {}


def _float32(value: float) -> float:
    """`value` rounded to the nearest float32, as a float32 array stores it."""
    if type(value) is not float:  # a hand-built state's: the cast alone, as the array's
        return array.array("f", (value,))[0]
    rounded = _ROUNDED.get(value)
    if rounded is None:
        rounded = array.array("f", (value,))[0]  # the C cast a float32 memoryview makes
        if len(_ROUNDED) >= 4096:
            _ROUNDED.clear()
        _ROUNDED[value] = rounded
    return rounded


# Compiled, no Python class can extend it; interpreted, none may either, so that both
# builds agree (and copies, which are made as a StateEncoder, lose nothing).
sealed(StateEncoder)


@attrs.frozen(eq=False)
class _Rows:
    """Where each seat's entries of the per-seat blocks start, for one observer: in
    seat order, each at its relative row."""

    played: tuple[int, ...]
    trick: tuple[int, ...]
    known: tuple[int, ...]
    voids: tuple[int, ...]
    to_act: tuple[int, ...]
    dealer: tuple[int, ...]
    partners: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    signals: tuple[int, ...]
    points: tuple[int, ...]

    @classmethod
    def of(cls, offset: dict[str, int], d: int, rotation: tuple[int, ...]) -> _Rows:
        return cls(
            _starts(offset["played"], d, rotation),
            _starts(offset["trick"], d, rotation),
            _starts(offset["known"], d, rotation),
            _starts(offset["voids"], 4, rotation),
            _starts(offset["to_act"], 1, rotation),
            _starts(offset["dealer"], 1, rotation),
            _starts(offset["partners"], 1, rotation),
            _starts(offset["hand_sizes"], 1, rotation),
            _starts(offset["signals"], len(SIGNAL_NAMES), rotation),
            _starts(offset["points"], 1, rotation),
        )


def _starts(offset: int, size: int, rotation: tuple[int, ...]) -> tuple[int, ...]:
    """Where each seat's row of a block at `offset`, of rows of `size`, starts."""
    return tuple(offset + row * size for row in rotation)


class _History:
    """What one seat's vector owes to the completed tricks, kept by a `StateEncoder` and
    brought up to date in place (a plain class: it changes at every trick)."""

    __slots__ = ("base", "captured", "cards", "items", "tricks", "view")

    def __init__(
        self,
        tricks: tuple[Trick, ...],
        base: npt.NDArray[np.float32],
        cards: int,
        captured: list[int],
        items: list[float] | None = None,
    ) -> None:
        self.tricks = tricks
        #: The vector with the tricks' blocks filled in and nothing else of the view.
        self.base = base
        #: The same, as a memoryview, written a float32 entry at a time.
        self.view = base.data
        #: The same as a list of floats, once the list form is asked for.
        self.items = items
        #: The cards they hold, a bit per index in ``rules.cards``.
        self.cards = cards
        #: Each seat's card points from them.
        self.captured = captured
