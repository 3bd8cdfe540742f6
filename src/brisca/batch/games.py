"""`Batch`: N hands of one ruleset played in lock-step by the compiled kernel."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

import brisca.batch.kernel as k
from brisca.agents.encoding import action_space
from brisca.batch.tables import Tables, covered_rules, kernel_tables
from brisca.game import rng
from brisca.game.actions import Action
from brisca.game.cards import Card
from brisca.game.engine import new_game
from brisca.game.errors import (
    BARE_ERRORS,
    IllegalActionError,
    NotationError,
    StateError,
    as_integer,
    checked_integer,
    describe,
)
from brisca.game.rules import Rules

__all__ = [
    "MAX_BATCH_BYTES",
    "MAX_GAMES",
    "MAX_SEED",
    "Batch",
    "batch_bytes",
    "card_ids",
    "observation_layout",
    "random_playouts",
]

#: The greatest seed of the kernel's generator: 2**63 - 1.
MAX_SEED = 2**63 - 1

#: The most games one call of :func:`random_playouts` plays (its arrays take some 40 bytes a
#: game, under 1 GiB in all), and the most a `Batch` holds: 2**24, within `MAX_BATCH_BYTES`.
MAX_GAMES = 2**24

#: The most memory a `Batch`'s arrays may take: its games and their trick logs, and the
#: largest array one of its calls makes (the observation tensor, or a deal's copy): 4 GiB,
#: some 650,000 games at a table of six and 1,100,000 between two (`batch_bytes`).
MAX_BATCH_BYTES = 4 * 2**30

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]


def observation_layout(rules: Rules | str) -> tuple[tuple[str, int, int], ...]:
    """The blocks of :meth:`Batch.observe` for `rules`: ``(name, offset, size)``.

    Rows of per-seat blocks are relative seats, the observer first; ``D`` is
    ``len(rules.cards)`` and cards are in ``rules.cards`` order; ``N`` the seats.

    | block | size | meaning |
    |---|---|---|
    | `hand` | D | the observer's hand |
    | `played` | N x D | the cards each seat has played |
    | `trick` | N x D | each seat's card in the trick in progress |
    | `known` | N x D | the cards each seat was seen to take (a swap, the turned card) and holds |
    | `turned` | D | the turned card while it lies under the stock |
    | `trump` | 4 | one-hot trump suit: oros, copas, espadas, bastos |
    | `to_act` | N | one-hot seat to act; all 0 once over |
    | `dealer` | N | one-hot dealer |
    | `partners` | N | the seats on the observer's side |
    | `stock` | 1 | face-down stock cards / D |
    | `points` | N | card points each seat has captured / 120 |
    | `tricks_done` | 1 | completed tricks / tricks per hand |
    | `signals` | N x 4 | the señas made, in S000 order: lip_bite, shoulder, wink, head_shake |

    Raises:
        RulesError: the batch does not cover `rules`.
    """
    rules = covered_rules(rules)
    d, n = len(rules.cards), rules.num_players
    sizes = (
        ("hand", d),
        ("played", n * d),
        ("trick", n * d),
        ("known", n * d),
        ("turned", d),
        ("trump", 4),
        ("to_act", n),
        ("dealer", n),
        ("partners", n),
        ("stock", 1),
        ("points", n),
        ("tricks_done", 1),
        ("signals", n * 4),
    )
    layout, offset = [], 0
    for name, size in sizes:
        layout.append((name, offset, size))
        offset += size
    return tuple(layout)


def batch_bytes(rules: Rules | str, size: int) -> int:
    """The bytes of arrays a `Batch` of `size` games of `rules` takes at its peak: each
    game's row and trick log, and the largest array a call makes for it (the observation
    tensor of :meth:`Batch.observe`, or :meth:`Batch.reset`'s copy of the rows and decks).
    A batch is refused past :data:`MAX_BATCH_BYTES`.

    >>> batch_bytes("spanish-2p", 1000)
    3912000

    Raises:
        RulesError: the batch does not cover `rules`.
        StateError: `size` is not a non-negative int.
    """
    rules = covered_rules(rules)
    size = checked_integer(size, "size", 0)
    cards, seats = len(rules.cards), rules.num_players
    _, offset, last = observation_layout(rules)[-1]
    kept = 8 * (k.WIDTH + k.MAX_TRICKS * k.LOG_WIDTH)  # int64 rows and trick logs
    made = max(
        4 * (offset + last),  # observe: float32 observations
        8 * k.WIDTH + 17 * cards + 16,  # reset: the rows' copy, a deck array and its sort
        len(action_space(rules)) + 8 * seats + 32,  # legal_mask, or step's rewards
    )
    return size * (kept + made)


def card_ids(rules: Rules | str, cards: Iterable[Card | str]) -> list[int]:
    """The batch's ids of `cards` (Cards or codes): their positions in ``rules.cards``.

    ``card_ids(rules, state.deal.deck)`` is the deck a `Batch` deals as the engine did.

    Raises:
        RulesError: the batch does not cover `rules`.
        NotationError: `cards` is not an iterable of Cards and codes, or a code cannot
            be read.
        StateError: a card is not in the rules' pack.
    """
    pack = {card: i for i, card in enumerate(covered_rules(rules).cards)}
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise NotationError(f"cards must be an iterable of Cards or codes, got {describe(cards)}")
    ids = []
    for card in cards:
        parsed = card if isinstance(card, Card) else Card.parse(card)
        if parsed not in pack:
            raise StateError(f"{parsed} is not in the pack of these rules")
        ids.append(pack[parsed])
    return ids


def _int_array(value: object, what: str, shape: tuple[int, ...]) -> Ints:
    """`value` as an int64 array of `shape`, or a StateError saying what is wrong."""
    try:
        array = np.asarray(value)
    except (*BARE_ERRORS, OverflowError):  # an object's own __array__ may raise anything
        raise StateError(f"{what} must be an array of ints, got {describe(value)}") from None
    if array.dtype.kind not in "iu" and not (array.size == 0 and array.dtype.kind == "f"):
        raise StateError(f"{what} must be an array of ints, got {describe(value)}")
    if array.shape != shape:
        raise StateError(f"{what} must have shape {shape}, got {array.shape}")
    if array.dtype.kind == "u" and array.size and array.max() > _INT64_MAX:
        g = int(np.argmax(array > _INT64_MAX))  # an index in the flat array
        raise StateError(f"{what} must fit in int64, got {int(array.flat[g])}")
    return array.astype(np.int64)


_INT64_MAX = np.iinfo(np.int64).max


class Batch:
    """`size` hands of `rules` at once, each a row of int64 state for the compiled kernel.

    Actions are indices of ``action_space(rules)`` (:mod:`brisca.agents.encoding`): the
    same numbers as the engine's encoding. Games are dealt by :meth:`reset`, then move
    by :meth:`step` (one action per game) or :meth:`play_random`. A game not yet dealt
    counts as over.

    >>> batch = Batch("spanish-2p", 3)
    >>> batch.reset(seeds=[7, 8, 9])
    >>> batch.legal_mask().sum(axis=1).tolist()
    [3, 3, 3]

    Raises:
        RulesError: the batch does not cover `rules` (see :data:`brisca.batch.COVERED`).
        StateError: `size` is not an int from 1 to :data:`MAX_GAMES`, or its arrays would
            take more than :data:`MAX_BATCH_BYTES` (:func:`batch_bytes`).
    """

    def __init__(self, rules: Rules | str, size: int) -> None:
        self.rules: Rules = covered_rules(rules)
        self.size: int = checked_integer(size, "size", 1, MAX_GAMES)
        needed = batch_bytes(self.rules, self.size)
        if needed > MAX_BATCH_BYTES:  # refused before a byte is allocated
            most = size * MAX_BATCH_BYTES // needed
            raise StateError(
                f"a batch of {size:,} games of these rules needs {needed / 2**30:.1f} GiB of "
                f"arrays, past the {MAX_BATCH_BYTES // 2**30} GiB a batch may take: at most "
                f"{most:,} games"
            )
        #: The action of each index, as the engine's encoding numbers them.
        self.actions: tuple[Action, ...] = action_space(self.rules)
        self.layout = observation_layout(self.rules)
        self._tables: Tables = kernel_tables(self.rules)
        self._games: Ints = np.zeros((size, k.WIDTH), dtype=np.int64)
        self._games[:, k.TO_ACT] = -1
        k.seed_rows(self._games, 0, np.ones(size, dtype=np.bool_))
        self._logs: Ints = np.zeros((size, k.MAX_TRICKS, k.LOG_WIDTH), dtype=np.int64)

    @property
    def num_actions(self) -> int:
        """How many actions the index has: ``len(action_space(rules))``."""
        return len(self.actions)

    @property
    def observation_size(self) -> int:
        """The length of each observation vector of :meth:`observe`."""
        _, offset, size = self.layout[-1]
        return offset + size

    def reset(
        self,
        *,
        decks: object = None,
        seeds: Sequence[int] | None = None,
        shuffle_seed: int | None = None,
        dealers: object = None,
        which: object = None,
    ) -> None:
        """Deal the games afresh (those `which` marks, else all), from one of:

        - `decks`: an int array ``(size, len(rules.cards))`` of card ids (see
          :func:`card_ids`) in the order ``new_game(deck=...)`` takes: the same deal;
        - `seeds`: one seed per game, dealt by the library's own shuffle, exactly as
          ``new_game(rules, seed=s, dealer=d)`` (in Python, so some 30 us a game);
        - `shuffle_seed`: an int from 0 to :data:`MAX_SEED` that seeds each game's own
          generator in the kernel (game ``g`` from ``shuffle_seed`` and ``g``, see
          :mod:`brisca.batch.kernel`), which then shuffles: fast, uniform, reproducible, but
          not the library's shuffle. The same generator makes :meth:`play_random`'s choices.

        `dealers` is one seat for all, or one per game; the last seat by default.

        Raises:
            StateError: not exactly one source, or a bad deck, seed, dealer or mask.
        """
        given = [decks is not None, seeds is not None, shuffle_seed is not None]
        if sum(given) != 1:
            raise StateError("give exactly one of decks, seeds or shuffle_seed")
        n, cards = self.size, len(self.rules.cards)
        chosen = self._which(which)
        dealt = self._dealers(dealers)
        games = self._games.copy()
        if seeds is not None:
            if isinstance(seeds, np.ndarray) and seeds.ndim == 1 and seeds.dtype.kind in "iu":
                seeds = seeds.tolist()  # an array of seeds, as decks and dealers may be
            if isinstance(seeds, (str, bytes)) or not isinstance(seeds, Sequence):
                raise StateError(f"seeds must be a sequence of ints, got {describe(seeds)}")
            if len(seeds) != n:
                raise StateError(f"seeds must hold {n} ints, one a game, got {len(seeds)}")
            ids = {card: i for i, card in enumerate(self.rules.cards)}
            for g in np.flatnonzero(chosen).tolist():
                seed = checked_integer(seeds[g], f"seeds[{g}]", 0, rng.MAX_SEED)  # the library's
                state = new_game(self.rules, seed=seed, dealer=int(dealt[g]))
                games[g, k.DECK : k.DECK + cards] = [ids[c] for c in state.deal.deck]
        elif decks is not None:
            order = _int_array(decks, "decks", (n, cards))
            valid = (np.sort(order, axis=1) == np.arange(cards)).all(axis=1)
            bad = np.flatnonzero(chosen & ~valid)
            if bad.size:
                raise StateError(
                    f"decks[{bad[0]}] is not an order of the {cards} card ids 0..{cards - 1}"
                )
            games[chosen, k.DECK : k.DECK + cards] = order[chosen]
        else:
            k.seed_rows(games, checked_integer(shuffle_seed, "shuffle_seed", 0, MAX_SEED), chosen)
            k.shuffle_all(games, self._tables, chosen)
        k.deal_all(games, self._tables, dealt, chosen)
        self._games = games
        self._logs[chosen] = 0

    def _which(self, which: object) -> Bools:
        if which is None:
            return np.ones(self.size, dtype=np.bool_)
        try:
            mask = np.asarray(which)
        except (*BARE_ERRORS, OverflowError):  # an object's own __array__ may raise anything
            mask = np.zeros(0)
        if mask.dtype != np.bool_ or mask.shape != (self.size,):
            raise StateError(f"which must be {self.size} booleans, got {describe(which)}")
        # One layout for the kernel, which numba compiles anew (seconds) for each other
        # one: a read-only or strided mask, say.
        return np.array(mask, dtype=np.bool_, order="C", copy=True)

    def _dealers(self, dealers: object) -> Ints:
        seats = self.rules.num_players
        if dealers is None:
            return np.full(self.size, seats - 1, dtype=np.int64)
        if as_integer(dealers) is not None:
            return np.full(
                self.size, checked_integer(dealers, "dealer", 0, seats - 1), dtype=np.int64
            )
        array = _int_array(dealers, "dealers", (self.size,))
        if array.size and not (array.min() >= 0 and array.max() < seats):
            raise StateError(f"dealers must be seats from 0 to {seats - 1}")
        return array

    @property
    def to_act(self) -> Ints:
        """The seat to act in each game, -1 once it is over (a copy)."""
        return self._games[:, k.TO_ACT].copy()

    @property
    def done(self) -> Bools:
        """Whether each game is over (or not dealt yet)."""
        done: Bools = self._games[:, k.TO_ACT] < 0
        return done

    def legal_mask(self) -> Bools:
        """For each game and action index, whether it is legal: ``(size, num_actions)``."""
        out = np.zeros((self.size, self.num_actions), dtype=np.bool_)
        k.masks(self._games, self._tables, out)
        return out

    def step(self, actions: object, *, which: object = None) -> tuple[Floats, Bools]:
        """Take one action index in each game still going (those `which` marks, else all;
        the entries of the others are ignored).

        Returns each seat's reward, ``(size, num_players)``: in the step that ends a
        game, its side's card points minus the mean of the other sides' (the
        ``"margin"`` of :mod:`brisca.envs`), else 0; and which games this step ended.

        Raises:
            StateError: `actions` is not `size` ints, or a bad mask.
            IllegalActionError: an action is not legal in its game; no game moves.
        """
        chosen = _int_array(actions, "actions", (self.size,))
        moving = self._which(which)
        going = (self._games[:, k.TO_ACT] >= 0) & moving
        outside = going & ((chosen < 0) | (chosen >= self.num_actions))
        if outside.any():
            g = int(np.flatnonzero(outside)[0])
            raise NotationError(
                f"actions[{g}] must be an action index from 0 to {self.num_actions - 1}, "
                f"got {chosen[g]}"
            )
        bad = k.first_illegal(self._games, self._tables, chosen, moving)
        if bad >= 0:
            raise IllegalActionError(
                f"actions[{bad}], {self.actions[chosen[bad]]}, is not legal in game {bad}"
            )
        rewards = np.zeros((self.size, self.rules.num_players), dtype=np.float64)
        ended = np.zeros(self.size, dtype=np.bool_)
        k.step_all(self._games, self._tables, chosen, moving, self._logs, rewards, ended)
        return rewards, ended

    def play_random(
        self, until: int | None = None, *, which: object = None, seed: int | None = None
    ) -> None:
        """Uniformly random legal actions in each game (those `which` marks, else all),
        until seat `until` is to act or the game is over; to the end by default.

        The choices come from each game's generator in the kernel: seeded by `seed` when
        given, as :meth:`reset`'s `shuffle_seed` seeds it, else going on from where it was
        (a new batch starts every game's from seed 0).

        Raises:
            StateError: `until` is not a seat, a bad seed, or a bad mask.
        """
        seat = (
            -1 if until is None else checked_integer(until, "until", 0, self.rules.num_players - 1)
        )
        chosen = self._which(which)
        if seed is not None:
            k.seed_rows(self._games, checked_integer(seed, "seed", 0, MAX_SEED), chosen)
        k.opponents_all(self._games, self._tables, seat, self._logs, chosen)

    def observe(self, seats: object) -> npt.NDArray[np.float32]:
        """Each game as one seat sees it: ``(size, observation_size)`` float32.

        `seats` is one seat for all games, or one per game. Only what that seat may
        know goes in: no other hand, no stock order (see :func:`observation_layout`).

        Raises:
            StateError: a bad seat.
        """
        n = self.rules.num_players
        if as_integer(seats) is not None:
            seat = np.full(self.size, checked_integer(seats, "seat", 0, n - 1), dtype=np.int64)
        else:
            seat = _int_array(seats, "seats", (self.size,))
            if seat.size and not (seat.min() >= 0 and seat.max() < n):
                raise StateError(f"seats must be from 0 to {n - 1}")
        out = np.zeros((self.size, self.observation_size), dtype=np.float32)
        k.observe_all(self._games, self._tables, seat, out)
        return out

    def results(self) -> tuple[Ints, Ints]:
        """Each game's card points by side, in ``state.sides`` order, ``(size, sides)``,
        and its winner: a side's index, -1 for a tie, -2 while it goes on."""
        sides = int(self._tables[k.T_CONFIG][k.C_SIDES])
        points = np.zeros((self.size, sides), dtype=np.int64)
        winners = np.zeros(self.size, dtype=np.int64)
        k.results_all(self._games, self._tables, points, winners)
        return points, winners

    def tricks(self, game: int) -> tuple[tuple[int, tuple[tuple[int, Card], ...], int, int], ...]:
        """The completed tricks of one game: ``(leader, (seat, card) pairs, winner, points)``.

        Raises:
            StateError: `game` is not an index of the batch.
        """
        g = checked_integer(game, "game", 0, self.size - 1)
        seats, cards = self.rules.num_players, self.rules.cards
        log = self._logs[g]
        found = []
        for t in range(int(self._games[g, k.TRICKS])):
            leader = int(log[t, k.LOG_LEADER])
            played = tuple(
                ((leader + j) % seats, cards[int(log[t, k.LOG_CARDS + j])]) for j in range(seats)
            )
            found.append((leader, played, int(log[t, k.LOG_WINNER]), int(log[t, k.LOG_POINTS])))
        return tuple(found)


def random_playouts(
    rules: Rules | str, games: int, *, seed: int = 0, dealer: int | None = None
) -> tuple[Ints, Ints]:
    """`games` hands from random deals with uniformly random legal actions, in the kernel.

    Deals and choices come from the kernel's own generator seeded with `seed`, an int
    from 0 to :data:`MAX_SEED` (xorshift64*, not the library's shuffle), so a seed
    repeats its games. Returns each game's card points by side, ``(games, sides)``, and
    its winning side (-1 for a tie).

    >>> points, winners = random_playouts("spanish-2p", 1000, seed=1)
    >>> bool((points.sum(axis=1) == 120).all())
    True

    Raises:
        RulesError: the batch does not cover `rules`.
        StateError: a bad number of games, seed or dealer.
    """
    rules = covered_rules(rules)
    n = checked_integer(games, "games", 1, MAX_GAMES)
    seats = rules.num_players
    d = seats - 1 if dealer is None else checked_integer(dealer, "dealer", 0, seats - 1)
    tables = kernel_tables(rules)
    points = np.zeros((n, int(tables[k.T_CONFIG][k.C_SIDES])), dtype=np.int64)
    winners = np.zeros(n, dtype=np.int64)
    value = checked_integer(seed, "seed", 0, MAX_SEED)
    k.playouts(tables, value, np.full(n, d, dtype=np.int64), points, winners)
    return points, winners
