"""The compiled per-game kernel: numba functions over one int64 row per game.

A game is one row of an ``(N, WIDTH)`` int64 array, its fields at the offsets below;
hands and other card sets are bit masks over the pack's card ids (positions in
``rules.cards``). The rules arrive as a tuple of int64 tables built by
:mod:`brisca.batch.tables`, so one compiled kernel serves every covered preset.
Nothing here is public: :class:`brisca.batch.Batch` is the way in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

F = TypeVar("F", bound=Callable[..., Any])


def _jit(function: F) -> F:
    """`function` compiled in nopython mode, its type kept for mypy."""
    return cast(F, numba.njit(cache=True, nogil=True)(function))


def _inline(function: F) -> F:
    """`function` compiled into each caller: the per-move helpers, whose calls would
    otherwise count references to their array arguments on every move."""
    return cast(F, numba.njit(cache=True, nogil=True, inline="always")(function))


# The fields of a game's row. Per-seat blocks hold MAX_SEATS entries.
MAX_SEATS = 6
TO_ACT = 0  # the seat to act, -1 once over
LEADER = 1  # the seat that led the trick in progress
TRUMP = 2  # the trump suit, 0..3
TURNED = 3  # the turned card's id while it lies under the stock, else -1
STOCK = 4  # the deck position of the next stock card
TRICKS = 5  # completed tricks
COUNT = 6  # cards in the trick in progress
DEALER = 7
HAND = 8  # + seat: a bit mask of the seat's hand
KNOWN = HAND + MAX_SEATS  # + seat: its cards everyone has seen it take (a swap, the turned card)
PLAYED = KNOWN + MAX_SEATS  # + seat: the cards it has played
TRICK = PLAYED + MAX_SEATS  # + k: the k-th card of the trick in progress
POINTS = TRICK + MAX_SEATS  # + seat: the card points it has captured
SIGNAL = POINTS + MAX_SEATS  # + seat: 1 + its signal's id, 0 before it signals
DECK = SIGNAL + MAX_SEATS  # + position: the deck order, card ids
RNG = DECK + 48  # the game's own generator state (xorshift64*), kept across deals
WIDTH = RNG + 1

# The rules' tables: rows of one array, in the order tables.kernel_tables builds them.
TABLE_WIDTH = 64
T_CONFIG, T_SUIT, T_STRENGTH, T_POINTS, T_RANK, T_BEATS, T_SUIT_MASK, T_SIDE = range(8)
T_PLAY_ACT, T_SWAP_ACT, T_SIGNAL_ACT, T_ACT_KIND, T_ACT_ARG = range(8, 13)

# The config table's entries.
C_SEATS, C_CARDS, C_HAND_SIZE, C_TRICKS, C_ARRASTRE, C_SWAPS = range(6)
C_SEVEN_HIGH, C_TWO_LOW, C_TWO_HIGH_FIRST, C_TWO_PRECEDENCE, C_SIGNALS, C_SIDES = range(6, 12)
C_OVER_60, C_ACTIONS = range(12, 14)

# What an action does (the T_ACT_KIND table).
PLAY, SWAP, SIGNAL_ACTION = 0, 1, 2

# A trick's row in the log: leader, winner, points, then its cards in play order.
LOG_LEADER, LOG_WINNER, LOG_POINTS, LOG_CARDS = 0, 1, 2, 3
LOG_WIDTH = LOG_CARDS + MAX_SEATS
MAX_TRICKS = 24

# Count trailing zeros of a power of two by a de Bruijn multiply (int64 wraps).
_DEBRUIJN = 0x03F79D71B4CB0A89
_DEBRUIJN_INDEX = np.zeros(64, dtype=np.int64)
for _k in range(64):
    _DEBRUIJN_INDEX[((((1 << _k) * _DEBRUIJN) & (2**64 - 1)) >> 58) & 63] = _k
del _k


@_inline
def lowest_card(mask: int) -> int:
    """The lowest card id in a non-empty mask."""
    low = mask & -mask
    return int(_DEBRUIJN_INDEX[((low * _DEBRUIJN) >> 58) & 63])


@_inline
def deal(row: Any, tables: Any, dealer: int) -> None:
    """Deal the row's deck (``row[DECK:]``) as ``new_game(deck=..., dealer=...)`` does."""
    seats, hand_size = tables[T_CONFIG, C_SEATS], tables[T_CONFIG, C_HAND_SIZE]
    for k in range(DECK):
        row[k] = 0
    dealt = hand_size * seats
    first = dealer + 1 if dealer + 1 < seats else 0
    seat = first
    for i in range(dealt):  # one card at a time, from the seat after the dealer
        row[HAND + seat] |= 1 << row[DECK + i]
        seat = seat + 1 if seat + 1 < seats else 0
    row[TURNED] = row[DECK + dealt]
    row[TRUMP] = tables[T_SUIT, row[TURNED]]
    row[STOCK] = dealt + 1
    row[DEALER] = dealer
    row[LEADER] = first
    row[TO_ACT] = first


@_inline
def winning(row: Any, tables: Any, count: int) -> int:
    """The position in the trick of the card winning its first `count` cards."""
    trump = row[TRUMP]
    best = 0
    for k in range(1, count):
        card, top = row[TRICK + k], row[TRICK + best]
        if tables[T_SUIT, card] == tables[T_SUIT, top]:
            if tables[T_STRENGTH, card] > tables[T_STRENGTH, top]:
                best = k
        elif tables[T_SUIT, card] == trump:
            best = k
    return best


@_inline
def playable(row: Any, tables: Any, seat: int) -> int:
    """The mask of cards `seat` may play: its hand, or what arrastre leaves of it."""
    hand = row[HAND + seat]
    count = row[COUNT]
    if count == 0 or tables[T_CONFIG, C_ARRASTRE] == 0:
        return int(hand)
    if row[TURNED] >= 0 or row[STOCK] < tables[T_CONFIG, C_CARDS]:  # the talon is not exhausted
        return int(hand)
    led = tables[T_SUIT, row[TRICK]]
    win = row[TRICK + winning(row, tables, count)]
    follow = hand & tables[T_SUIT_MASK, led]
    if follow:
        if tables[T_SUIT, win] == led:
            over = follow & tables[T_BEATS, win]
            if over:
                return int(over)
        return int(follow)
    trumps = hand & tables[T_SUIT_MASK, row[TRUMP]]
    if trumps == 0:
        return int(hand)
    if tables[T_SUIT, win] != row[TRUMP]:
        return int(trumps)
    over = trumps & tables[T_BEATS, win]
    return int(over) if over else int(hand)


@_inline
def _swap_allowed(tables: Any, card: int, turned: int, first: bool) -> bool:
    """Whether the trump `card` may take the `turned` card (swaps.py's `_exchange`)."""
    taken = tables[T_RANK, turned]
    if taken == 2:
        return False
    high = taken == 1 or taken == 3 or taken >= 10
    if tables[T_RANK, card] == 7 and high:
        return bool(
            tables[T_CONFIG, C_SEVEN_HIGH] != 0
            and not (tables[T_CONFIG, C_TWO_PRECEDENCE] != 0 and first)
        )
    if tables[T_RANK, card] == 2 and not high:
        return bool(tables[T_CONFIG, C_TWO_LOW] != 0)
    if tables[T_RANK, card] == 2 and high:
        return bool(tables[T_CONFIG, C_TWO_HIGH_FIRST] != 0 and first)
    return False


@_inline
def legal(row: Any, tables: Any, out: Any) -> int:
    """Write the legal action indices into `out`; return how many there are."""
    seat = row[TO_ACT]
    if seat < 0:
        return 0
    n = 0
    mask = playable(row, tables, seat)
    while mask:
        card = lowest_card(mask)
        mask &= mask - 1
        out[n] = tables[T_PLAY_ACT, card]
        n += 1
    turned = row[TURNED]
    if tables[T_CONFIG, C_SWAPS] and turned >= 0:
        first = row[TRICKS] == 0 and row[COUNT] == 0
        trumps = row[HAND + seat] & tables[T_SUIT_MASK, row[TRUMP]]
        while trumps:
            card = lowest_card(trumps)
            trumps &= trumps - 1
            if tables[T_SWAP_ACT, card] >= 0 and _swap_allowed(tables, card, turned, first):
                out[n] = tables[T_SWAP_ACT, card]
                n += 1
    if tables[T_CONFIG, C_SIGNALS] and row[TRICKS] == 0 and row[SIGNAL + seat] == 0:
        # S000: lip_bite = the 1 without the 3, shoulder = the 3 without the 1,
        # wink = both, head_shake = no trump at all.
        trumps = row[HAND + seat] & tables[T_SUIT_MASK, row[TRUMP]]
        one = three = False
        while trumps:
            card = lowest_card(trumps)
            trumps &= trumps - 1
            one = one or tables[T_RANK, card] == 1
            three = three or tables[T_RANK, card] == 3
        has_trump = (row[HAND + seat] & tables[T_SUIT_MASK, row[TRUMP]]) != 0
        truths = (one and not three, three and not one, one and three, not has_trump)
        for k in range(4):
            if truths[k]:
                out[n] = tables[T_SIGNAL_ACT, k]
                n += 1
    return n


@_inline
def act(row: Any, tables: Any, action: int, log: Any) -> None:
    """Take a legal `action` in the row's game; completed tricks go to `log`."""
    seat = row[TO_ACT]
    kind, arg = tables[T_ACT_KIND, action], tables[T_ACT_ARG, action]
    if kind == SWAP:
        turned = row[TURNED]
        row[HAND + seat] = (row[HAND + seat] & ~(1 << arg)) | (1 << turned)
        row[KNOWN + seat] = (row[KNOWN + seat] & ~(1 << arg)) | (1 << turned)
        row[TURNED] = arg
        return
    if kind == SIGNAL_ACTION:
        row[SIGNAL + seat] = arg + 1
        return
    seats = tables[T_CONFIG, C_SEATS]
    bit = 1 << arg
    row[HAND + seat] &= ~bit
    row[KNOWN + seat] &= ~bit
    row[PLAYED + seat] |= bit
    count = row[COUNT]
    row[TRICK + count] = arg
    count += 1
    if count < seats:
        row[COUNT] = count
        row[TO_ACT] = seat + 1 if seat + 1 < seats else 0  # no division on the hot path
        return
    leader = row[LEADER]
    best = winning(row, tables, count)
    winner = leader + best if leader + best < seats else leader + best - seats
    total = 0
    done = row[TRICKS]
    for k in range(seats):
        total += tables[T_POINTS, row[TRICK + k]]
        log[done, LOG_CARDS + k] = row[TRICK + k]
    log[done, LOG_LEADER] = leader
    log[done, LOG_WINNER] = winner
    log[done, LOG_POINTS] = total
    row[POINTS + winner] += total
    row[TRICKS] = done + 1
    row[COUNT] = 0
    cards = tables[T_CONFIG, C_CARDS]
    if row[STOCK] < cards or row[TURNED] >= 0:
        # Draw in play order from the winner; the turned card is the last one drawn.
        drawer = winner
        for _ in range(seats):
            if row[STOCK] < cards:
                row[HAND + drawer] |= 1 << row[DECK + row[STOCK]]
                row[STOCK] += 1
            else:
                row[HAND + drawer] |= 1 << row[TURNED]
                row[KNOWN + drawer] |= 1 << row[TURNED]
                row[TURNED] = -1
            drawer = drawer + 1 if drawer + 1 < seats else 0
    row[LEADER] = winner
    row[TO_ACT] = -1 if done + 1 == tables[T_CONFIG, C_TRICKS] else winner


@_jit
def side_points(row: Any, tables: Any, out: Any) -> None:
    """The card points of each side, into `out`."""
    for s in range(tables[T_CONFIG, C_SIDES]):
        out[s] = 0
    for seat in range(tables[T_CONFIG, C_SEATS]):
        out[tables[T_SIDE, seat]] += row[POINTS + seat]


@_jit
def winner(points: Any, tables: Any) -> int:
    """The winning side by the sides' `points`, or -1 for a tie (nobody wins one under the
    covered tie rules)."""
    sides = tables[T_CONFIG, C_SIDES]
    top = 0
    for s in range(sides):
        top = max(top, points[s])
    bar = 60 if tables[T_CONFIG, C_OVER_60] else top
    found, count = -1, 0
    for s in range(sides):
        if points[s] >= bar:
            found, count = s, count + 1
    return found if count == 1 else -1


@_jit
def margins(points: Any, tables: Any, out: Any) -> None:
    """Each seat's side's `points` minus the mean of the other sides' (envs.common's margin)."""
    sides = tables[T_CONFIG, C_SIDES]
    total = 0
    for s in range(sides):
        total += points[s]
    for seat in range(tables[T_CONFIG, C_SEATS]):
        mine = points[tables[T_SIDE, seat]]
        out[seat] = mine - (total - mine) / (sides - 1)


# The kernel's generator, not the library's: each game's row holds an xorshift64* state
# (Vigna), seeded by splitmix64; below(n) is Lemire's multiply-shift of its top 32 bits,
# whose bias, under n / 2**32, no playout can see. All in uint64, which wraps.
_U12, _U25, _U27, _U30, _U31, _U32 = (np.uint64(b) for b in (12, 25, 27, 30, 31, 32))
_STAR = np.uint64(0x2545F4914F6CDD1D)
_GOLDEN, _MIX1, _MIX2 = (
    np.uint64(0x9E3779B97F4A7C15),
    np.uint64(0xBF58476D1CE4E5B9),
    np.uint64(0x94D049BB133111EB),
)


@_inline
def below(row: Any, n: int) -> int:
    """A uniform int from 0 to n - 1, from the row's generator."""
    x = np.uint64(row[RNG])
    x ^= x >> _U12
    x ^= x << _U25
    x ^= x >> _U27
    row[RNG] = np.int64(x)
    return int(np.int64((((x * _STAR) >> _U32) * np.uint64(n)) >> _U32))


@_jit
def seed_rows(games: Any, value: int, which: Any) -> None:
    """Seed the generator of each game `which` marks: splitmix64 of `value` and its index."""
    for g in range(games.shape[0]):
        if which[g]:
            z = np.uint64(value) + _GOLDEN * np.uint64(g + 1)
            z = (z ^ (z >> _U30)) * _MIX1
            z = (z ^ (z >> _U27)) * _MIX2
            z ^= z >> _U31
            games[g, RNG] = np.int64(z) if z else 1  # xorshift needs a state that is not 0


@_inline
def shuffle(row: Any, cards: int) -> None:
    """A uniform deck order (Fisher-Yates) from the row's generator."""
    for i in range(cards):
        row[DECK + i] = i
    for i in range(cards - 1, 0, -1):
        j = below(row, i + 1)
        row[DECK + i], row[DECK + j] = row[DECK + j], row[DECK + i]


@_jit
def play_random(row: Any, tables: Any, until: int, log: Any, legal_out: Any) -> None:
    """Uniformly random legal actions until the game is over or seat `until` is to act."""
    while row[TO_ACT] >= 0 and row[TO_ACT] != until:
        n = legal(row, tables, legal_out)
        act(row, tables, legal_out[below(row, n)], log)


@_jit
def playouts(tables: Any, value: int, dealers: Any, points: Any, winners: Any) -> None:
    """Random games from random deals, one per dealer, the generator seeded with `value`:
    side points and winners."""
    row = np.zeros((1, WIDTH), dtype=np.int64)
    seed_rows(row, value, np.ones(1, dtype=np.bool_))
    row = row[0]
    log = np.zeros((MAX_TRICKS, LOG_WIDTH), dtype=np.int64)
    legal_out = np.zeros(tables[T_CONFIG, C_ACTIONS], dtype=np.int64)
    for g in range(dealers.shape[0]):
        shuffle(row, tables[T_CONFIG, C_CARDS])
        deal(row, tables, dealers[g])
        play_random(row, tables, -1, log, legal_out)
        side_points(row, tables, points[g])
        winners[g] = winner(points[g], tables)


@_jit
def deal_all(games: Any, tables: Any, dealers: Any, which: Any) -> None:
    """Deal each game whose `which` entry is set from the deck already in its row."""
    for g in range(games.shape[0]):
        if which[g]:
            deal(games[g], tables, dealers[g])


@_jit
def shuffle_all(games: Any, tables: Any, which: Any) -> None:
    """A fresh random deck order in each game whose `which` entry is set."""
    cards = tables[T_CONFIG, C_CARDS]
    for g in range(games.shape[0]):
        if which[g]:
            shuffle(games[g], cards)


@_jit
def masks(games: Any, tables: Any, out: Any) -> None:
    """The legal-action mask of every game into `out` (all False once it is over)."""
    legal_out = np.zeros(tables[T_CONFIG, C_ACTIONS], dtype=np.int64)
    for g in range(games.shape[0]):
        out[g, :] = False
        for k in range(legal(games[g], tables, legal_out)):
            out[g, legal_out[k]] = True


@_jit
def first_illegal(games: Any, tables: Any, actions: Any, which: Any) -> int:
    """The first going game `which` marks whose action is not legal, or -1 when all are."""
    legal_out = np.zeros(tables[T_CONFIG, C_ACTIONS], dtype=np.int64)
    for g in range(games.shape[0]):
        if games[g, TO_ACT] < 0 or not which[g]:
            continue
        found = False
        for k in range(legal(games[g], tables, legal_out)):
            found = found or legal_out[k] == actions[g]
        if not found:
            return g
    return -1


@_jit
def step_all(
    games: Any, tables: Any, actions: Any, which: Any, logs: Any, rewards: Any, ended: Any
) -> None:
    """Take the (legal) action of each going game `which` marks; the games it ends get
    their margins."""
    points = np.zeros(MAX_SEATS, dtype=np.int64)
    for g in range(games.shape[0]):
        ended[g] = False
        rewards[g, :] = 0.0
        if games[g, TO_ACT] < 0 or not which[g]:
            continue
        act(games[g], tables, actions[g], logs[g])
        if games[g, TO_ACT] < 0:
            ended[g] = True
            side_points(games[g], tables, points)
            margins(points, tables, rewards[g])


@_jit
def opponents_all(games: Any, tables: Any, seat: int, logs: Any, which: Any) -> None:
    """In each game whose `which` entry is set, random moves until `seat` acts or it ends."""
    legal_out = np.zeros(tables[T_CONFIG, C_ACTIONS], dtype=np.int64)
    for g in range(games.shape[0]):
        if which[g]:
            play_random(games[g], tables, seat, logs[g], legal_out)


@_jit
def results_all(games: Any, tables: Any, points: Any, winners: Any) -> None:
    """Side points of every game, and the winner of each finished one (-2 while going)."""
    for g in range(games.shape[0]):
        side_points(games[g], tables, points[g])
        winners[g] = winner(points[g], tables) if games[g, TO_ACT] < 0 else -2


@_jit
def observe_all(games: Any, tables: Any, seats: Any, out: Any) -> None:
    """Each game seen by its seat in `seats`, into `out` (layout: brisca.batch.LAYOUT)."""
    n, d = tables[T_CONFIG, C_SEATS], tables[T_CONFIG, C_CARDS]
    for g in range(games.shape[0]):
        row, seat, o = games[g], seats[g], out[g]
        o[:] = 0.0
        at = 0
        _bits(o, at, row[HAND + seat], d)
        at += d
        for r in range(n):
            _bits(o, at + r * d, row[PLAYED + (seat + r) % n], d)
        at += n * d
        leader = row[LEADER]
        for k in range(row[COUNT]):
            o[at + ((leader + k - seat) % n) * d + row[TRICK + k]] = 1.0
        at += n * d
        for r in range(n):
            _bits(o, at + r * d, row[KNOWN + (seat + r) % n], d)
        at += n * d
        if row[TURNED] >= 0:
            o[at + row[TURNED]] = 1.0
        at += d
        o[at + row[TRUMP]] = 1.0
        at += 4
        if row[TO_ACT] >= 0:
            o[at + (row[TO_ACT] - seat) % n] = 1.0
        at += n
        o[at + (row[DEALER] - seat) % n] = 1.0
        at += n
        for r in range(n):
            if tables[T_SIDE, (seat + r) % n] == tables[T_SIDE, seat]:
                o[at + r] = 1.0
        at += n
        o[at] = (d - row[STOCK]) / d
        at += 1
        for r in range(n):
            o[at + r] = row[POINTS + (seat + r) % n] / 120.0
        at += n
        o[at] = row[TRICKS] / tables[T_CONFIG, C_TRICKS]
        at += 1
        for r in range(n):
            signal = row[SIGNAL + (seat + r) % n]
            if signal:
                o[at + r * 4 + signal - 1] = 1.0


@_jit
def _bits(out: Any, at: int, mask: int, cards: int) -> None:
    while mask:
        out[at + lowest_card(mask)] = 1.0
        mask &= mask - 1
