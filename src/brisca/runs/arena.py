"""The arena: two bots measured against each other over duplicate deals.

:func:`run_arena` deals each hand once and plays it several times, with the bots'
seats exchanged, so that what the cards give one seat they give the other bot
too: the luck of the deal cancels, and a few hundred deals tell bots apart. It
counts every hand from the point of view of bot A.

>>> from brisca.runs.arena import run_arena
>>> outcome = run_arena("heuristic", "random", "spanish-2p", deals=20, seed=1)
>>> outcome.hands_played, outcome.won + outcome.drawn + outcome.lost
(40, 40)
>>> outcome.won > outcome.lost, outcome.illegal
(True, (0, 0))

How a deal is played again depends on the table:

- **Two fixed sides** (2 players; partnerships, the seat sitting out in 5 included):
  the deal is played twice, A's bot holding the seats of the first side and B's the
  second, then the reverse. In 4-player partnerships A's bot holds seats 0 and 2,
  then 1 and 3.
- **No fixed sides** (3 or more players each for themselves, and the auction games
  where the sides come from the bidding: subastada-3p, chiamata): the deal is
  played ``2 * n`` times for ``n`` seats in play. For each seat, A's bot sits
  there alone against copies of B's bot, then B's bot alone against copies of A's.
  Every seat holds each bot equally often, and the set of seatings is the same
  with A and B exchanged, so bots of equal strength score the same.

Each hand's **margin** is, for A, the mean points of the sides A's seats were on
minus the same for B's seats: with two fixed sides, simply A's side's points minus
B's. A hand is **won** by A when the side the engine names as winner holds only A's
seats, **lost** when it holds only B's, and **drawn** otherwise: a tie, a void
auction, or a winning side holding both bots (possible only without fixed sides).

The statistics (:mod:`brisca.runs.stats`):

- the **win rate** is ``won / (won + lost)``: draws are left out, as they are from
  the sign test; its 95% interval is Wilson's;
- the **sign test** treats each deal as one duplicate set: its score is A's total
  margin over the plays of the deal, and the p-value is the exact two-sided
  binomial probability of a split at least that uneven among the deals with a
  non-zero score, under equal strength (the deals scoring zero are dropped).

A bot is made afresh for every hand with :func:`brisca.agents.bots.make_bot`, seeded
from the deal and its seat (not from its name), so the same arguments give the
same result, with any number of worker processes, and a bot against itself
scores zero on every deal. A bot that returns an action that is not legal, or
raises an exception, forfeits the hand for its side (a margin of the pack's card
points against it) and is counted, in :attr:`BotStats.illegal` or
:attr:`BotStats.errors` with the first message; the arena goes on.
"""

from __future__ import annotations

import math
import os
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs

from brisca.agents.bots import Bot, bot_seed, make_bot, play_game
from brisca.game.actions import Action
from brisca.game.engine import checked_rules, new_game
from brisca.game.errors import StateError, checked_int, describe
from brisca.game.presets import preset_name, rules_to_dict
from brisca.game.rng import Generator
from brisca.game.rules import Rules, TeamMode
from brisca.game.state import Observation
from brisca.runs.stats import sign_test, wilson_interval
from brisca.runs.workers import MAX_JOBS, in_workers

#: The most deals an arena plays: each deal's hands are kept (a few kilobytes a deal).
MAX_DEALS = 10**6

__all__ = [
    "MAX_DEALS",
    "ArenaResult",
    "BotStats",
    "HandPlayed",
    "run_arena",
    "seatings",
]

#: The labels of the two bots in a seating; a seat that sits the hand out is ``-``.
A, B, OUT = "A", "B", "-"

#: Team modes whose sides come from the play itself (the bidding), not from the seats.
_SIDES_FROM_PLAY = (TeamMode.DECLARER_VS_REST, TeamMode.CALLED_PARTNER)


def seatings(rules: Rules | str, dealer: int) -> tuple[str, ...]:
    """The seatings a deal with this dealer is played in: one string per play, the
    label of the bot at each seat (``A``, ``B``, or ``-`` for a seat sitting out).

    >>> seatings("spanish-4p", dealer=3)
    ('ABAB', 'BABA')
    >>> seatings("spanish-3p", dealer=2)
    ('ABB', 'BAA', 'BAB', 'ABA', 'BBA', 'AAB')
    >>> seatings("spanish-5p", dealer=4)
    ('ABAB-', 'BABA-')

    Raises:
        BriscaError: bad rules or dealer.
    """
    rules = checked_rules(rules)
    sides = new_game(rules, seed=0, dealer=dealer).sides
    n = rules.num_players
    if len(sides) == 2 and rules.team_mode not in _SIDES_FROM_PLAY:
        first, second = ([OUT] * n for _ in range(2))
        for seat in sides[0]:
            first[seat], second[seat] = A, B
        for seat in sides[1]:
            first[seat], second[seat] = B, A
        return "".join(first), "".join(second)
    in_play = sorted(seat for side in sides for seat in side)
    plays: list[str] = []
    for seat in in_play:
        for alone, rest in ((A, B), (B, A)):
            labels = [rest if s in in_play else OUT for s in range(n)]
            labels[seat] = alone
            plays.append("".join(labels))
    return tuple(plays)


@attrs.frozen
class HandPlayed:
    """One play of a deal, from the point of view of bot A."""

    #: The deal's number, from 0; its plays share it.
    deal: int
    #: The deal's seed for :func:`brisca.new_game`: every play of the deal has the same deck.
    seed: int
    #: The dealer, the same in every play of the deal.
    dealer: int
    #: The bot at each seat: ``"ABAB"`` (``-`` for a seat sitting out).
    seating: str
    #: The sides at the end of the hand, and their card points, as in `HandResult`.
    sides: tuple[tuple[int, ...], ...]
    points: tuple[int, ...]
    #: The index into `sides` of the winner, or ``None``.
    winner: int | None
    #: ``"won"``, ``"drawn"`` or ``"lost"``, for A.
    outcome: str
    #: A's margin: the mean points of A's seats' sides minus those of B's seats.
    margin: float
    #: ``None``, or the bot (``"A"`` or ``"B"``) that forfeited the hand, and why.
    forfeit: tuple[str, str] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The play as JSON-ready data."""
        data = attrs.asdict(self, recurse=False)
        data["sides"] = [list(side) for side in self.sides]
        data["points"] = list(self.points)
        data["forfeit"] = None if self.forfeit is None else list(self.forfeit)
        return data


@attrs.frozen
class BotStats:
    """What one bot did in the arena: its decisions, their time, and its faults."""

    #: The bot's name, as given to :func:`run_arena`.
    name: str
    #: How many times it was asked to choose.
    decisions: int
    #: The median and mean time of a decision, in seconds (``time.perf_counter``).
    median_seconds: float
    mean_seconds: float
    #: Actions it returned that were not legal (each forfeits a hand).
    illegal: int
    #: Exceptions it raised (each forfeits a hand), and the first one's message.
    errors: int
    first_error: str | None = None

    @classmethod
    def from_times(
        cls, name: str, times: Sequence[float], illegal: int, errors: int, first: str | None
    ) -> BotStats:
        median = statistics.median(times) if times else 0.0
        mean = math.fsum(times) / len(times) if times else 0.0
        return cls(name, len(times), median, mean, illegal, errors, first)


@attrs.frozen
class ArenaResult:
    """The outcome of :func:`run_arena`: every hand, and the statistics over them.

    Everything but the times (`bots`' seconds and `seconds`) depends only on the
    arguments of :func:`run_arena`, never on the number of jobs.
    """

    #: The bots' names, A first.
    a: str
    b: str
    rules: Rules
    #: The preset the rules are, if any.
    preset: str | None
    seed: int
    #: How many deals; each was played ``len(seatings)`` times.
    deals: int
    #: ``"swapped sides"`` or ``"one against the rest"``.
    scheme: str
    #: Every hand played, deal by deal.
    hands: tuple[HandPlayed, ...]
    #: Hands won, drawn and lost by A.
    won: int
    drawn: int
    lost: int
    #: A's mean margin per hand.
    mean_margin: float
    #: ``won / (won + lost)``, draws left out (0.5 when every hand was drawn).
    win_rate: float
    #: The 95% Wilson interval of `win_rate`.
    win_interval: tuple[float, float]
    #: Deals whose total margin was positive, zero and negative for A.
    deals_won: int
    deals_tied: int
    deals_lost: int
    #: The sign test's two-sided p-value over the deals, ties dropped.
    p_value: float
    #: The bots' statistics, A's then B's.
    bots: tuple[BotStats, BotStats]
    #: The wall time of the run, in seconds.
    seconds: float

    @property
    def hands_played(self) -> int:
        """How many hands were played: the deals times their plays."""
        return len(self.hands)

    @property
    def illegal(self) -> tuple[int, int]:
        """The illegal actions tried by A and by B."""
        return self.bots[0].illegal, self.bots[1].illegal

    @property
    def errors(self) -> tuple[int, int]:
        """The exceptions raised by A and by B."""
        return self.bots[0].errors, self.bots[1].errors

    @classmethod
    def from_hands(
        cls,
        *,
        a: str,
        b: str,
        rules: Rules,
        seed: int,
        deals: int,
        hands: Sequence[HandPlayed],
        bots: tuple[BotStats, BotStats],
        seconds: float,
    ) -> ArenaResult:
        """The result of these hands, with its statistics worked out."""
        count = {outcome: 0 for outcome in ("won", "drawn", "lost")}
        totals = [0.0] * deals
        for hand in hands:
            count[hand.outcome] += 1
            totals[hand.deal] += hand.margin
        decided = count["won"] + count["lost"]
        up = sum(total > 0 for total in totals)
        down = sum(total < 0 for total in totals)
        fixed = bool(hands) and len(seatings(rules, hands[0].dealer)) == 2
        return cls(
            a=a,
            b=b,
            rules=rules,
            preset=preset_name(rules),
            seed=seed,
            deals=deals,
            scheme="swapped sides" if fixed else "one against the rest",
            hands=tuple(hands),
            won=count["won"],
            drawn=count["drawn"],
            lost=count["lost"],
            mean_margin=math.fsum(h.margin for h in hands) / len(hands) if hands else 0.0,
            win_rate=count["won"] / decided if decided else 0.5,
            win_interval=wilson_interval(count["won"], decided),
            deals_won=up,
            deals_tied=deals - up - down,
            deals_lost=down,
            p_value=sign_test(up, down),
            bots=bots,
            seconds=seconds,
        )

    def summary(self) -> str:
        """The result in words and a small table, as ``brisca arena`` prints it."""
        name = self.preset or "custom rules"
        plays = self.hands_played // self.deals if self.deals else 0
        low, high = self.win_interval
        better = self.a if self.deals_won >= self.deals_lost else self.b
        lines = [
            f"{name}: A = {self.a} against B = {self.b}; {self.deals} deals x {plays} "
            f"plays ({self.scheme}), {self.hands_played} hands, seed {self.seed}",
            f"A won {self.won}, drew {self.drawn}, lost {self.lost}: win rate "
            f"{self.win_rate:.1%}, 95% CI [{low:.1%}, {high:.1%}] (draws left out)",
            f"mean margin for A: {self.mean_margin:+.2f} points a hand",
            f"deals: A ahead in {self.deals_won}, even in {self.deals_tied}, behind in "
            f"{self.deals_lost}; sign test p = {self.p_value:.3g}"
            + (f" ({better} is stronger at p < 0.01)" if self.p_value < 0.01 else ""),
        ]
        header = f"{'bot':<4}{'name':<24}{'decisions':>10}{'median ms':>11}{'mean ms':>9}"
        header += f"{'illegal':>9}{'errors':>8}"
        lines += [header, "-" * len(header)]
        for label, bot in zip((A, B), self.bots, strict=True):
            lines.append(
                f"{label:<4}{bot.name[:23]:<24}{bot.decisions:>10}"
                f"{bot.median_seconds * 1000:>11.3f}{bot.mean_seconds * 1000:>9.3f}"
                f"{bot.illegal:>9}{bot.errors:>8}"
            )
            if bot.first_error is not None:
                lines.append(f"    first error of {label}: {bot.first_error}")
        rate = self.hands_played / self.seconds if self.seconds > 0 else float("inf")
        lines.append(f"{self.hands_played} hands in {self.seconds:.2f} s, {rate:.0f} hands/s")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON-ready data: the statistics, the bots and every hand."""
        return {
            "format": "brisca-arena",
            "a": self.a,
            "b": self.b,
            "rules": rules_to_dict(self.rules),
            "preset": self.preset,
            "seed": self.seed,
            "deals": self.deals,
            "scheme": self.scheme,
            "hands_played": self.hands_played,
            "won": self.won,
            "drawn": self.drawn,
            "lost": self.lost,
            "mean_margin": self.mean_margin,
            "win_rate": self.win_rate,
            "win_interval": list(self.win_interval),
            "deals_won": self.deals_won,
            "deals_tied": self.deals_tied,
            "deals_lost": self.deals_lost,
            "p_value": self.p_value,
            "bots": {A: attrs.asdict(self.bots[0]), B: attrs.asdict(self.bots[1])},
            "seconds": self.seconds,
            "hands": [hand.to_dict() for hand in self.hands],
        }


# ---------------------------------------------------------------------------
# Playing the deals


class _Forfeit(Exception):
    """A bot broke the rules or raised: its side forfeits the hand."""

    def __init__(self, label: str, kind: str, message: str) -> None:
        super().__init__(message)
        self.label, self.kind, self.message = label, kind, message


class _Timed:
    """A bot under watch: each call is timed, and a wrong answer stops the hand."""

    def __init__(self, label: str, bot: Bot, times: list[float]) -> None:
        self.label, self.bot, self.times = label, bot, times

    def __call__(self, observation: Observation, legal: Sequence[Action], /) -> Action:
        start = time.perf_counter()
        try:
            action = self.bot(observation, legal)
            self.times.append(time.perf_counter() - start)
            legal_choice = action in legal
        except Exception as error:  # a bot's bug costs its hand, not the arena
            raise _Forfeit(self.label, "error", f"{type(error).__name__}: {error}") from None
        if not legal_choice:
            raise _Forfeit(self.label, "illegal", f"returned {describe(action, typed=False)}")
        return action


@attrs.frozen
class _Deal:
    """One deal's plays, as a worker reports them."""

    hands: tuple[HandPlayed, ...]
    times: tuple[tuple[float, ...], tuple[float, ...]]
    illegal: tuple[int, int]
    errors: tuple[int, int]
    first_errors: tuple[str | None, str | None]


def _outcome(seating: str, sides: Sequence[Sequence[int]], winner: int | None) -> str:
    if winner is None:
        return "drawn"
    labels = {seating[seat] for seat in sides[winner]}
    return "won" if labels == {A} else "lost" if labels == {B} else "drawn"


def _margin(seating: str, sides: Sequence[Sequence[int]], points: Sequence[int]) -> float:
    side_points = {seat: points[k] for k, side in enumerate(sides) for seat in side}
    mine = [side_points.get(seat, 0) for seat, label in enumerate(seating) if label == A]
    theirs = [side_points.get(seat, 0) for seat, label in enumerate(seating) if label == B]
    return math.fsum(mine) / len(mine) - math.fsum(theirs) / len(theirs)


def _play_deal(task: tuple[str, str, Rules, int, int, int]) -> _Deal:
    """Play one deal in every seating (run in a worker process with ``jobs > 1``)."""
    name_a, name_b, rules, number, seed, dealer = task
    names = {A: name_a, B: name_b, OUT: name_a}  # a seat sitting out is never asked
    times: dict[str, list[float]] = {A: [], B: []}
    faults = {(label, kind): 0 for label in (A, B) for kind in ("illegal", "error")}
    first: dict[str, str | None] = {A: None, B: None}
    pack = sum(rules.card_points(card) for card in rules.cards)
    hands: list[HandPlayed] = []
    for seating in seatings(rules, dealer):
        bots = [
            _Timed(
                A if label == OUT else label,
                make_bot(names[label], bot_seed(seed, seat)),
                times[A if label == OUT else label],
            )
            for seat, label in enumerate(seating)
        ]
        try:
            _, outcome = play_game(rules, bots, seed=seed, dealer=dealer)
        except _Forfeit as forfeit:
            faults[forfeit.label, forfeit.kind] += 1
            if forfeit.kind == "error" and first[forfeit.label] is None:
                first[forfeit.label] = forfeit.message
            lost = forfeit.label == A
            hands.append(
                HandPlayed(
                    deal=number,
                    seed=seed,
                    dealer=dealer,
                    seating=seating,
                    sides=(),
                    points=(),
                    winner=None,
                    outcome="lost" if lost else "won",
                    margin=float(-pack if lost else pack),
                    forfeit=(forfeit.label, f"{forfeit.kind}: {forfeit.message}"),
                )
            )
            continue
        hands.append(
            HandPlayed(
                deal=number,
                seed=seed,
                dealer=dealer,
                seating=seating,
                sides=outcome.sides,
                points=outcome.points,
                winner=outcome.winner,
                outcome=_outcome(seating, outcome.sides, outcome.winner),
                margin=_margin(seating, outcome.sides, outcome.points),
            )
        )
    return _Deal(
        hands=tuple(hands),
        times=(tuple(times[A]), tuple(times[B])),
        illegal=(faults[A, "illegal"], faults[B, "illegal"]),
        errors=(faults[A, "error"], faults[B, "error"]),
        first_errors=(first[A], first[B]),
    )


def _played(tasks: list[tuple[str, str, Rules, int, int, int]], jobs: int) -> Iterator[_Deal]:
    """The deals played, in order, by this process or by `jobs` workers."""
    return in_workers(_play_deal, tasks, jobs, 16)


def run_arena(
    a: str,
    b: str,
    rules: Rules | str,
    *,
    deals: int = 100,
    seed: int | None = None,
    jobs: int = 1,
    on_progress: Callable[[int, int], object] | None = None,
) -> ArenaResult:
    """Play `deals` duplicate deals between the bots named `a` and `b`; A's result.

    Args:
        a: bot A, by a name of :data:`brisca.agents.bots.BOTS` or ``"module:Class"``.
        b: bot B, likewise.
        rules: a `Rules` value or a preset name.
        deals: how many deals, at most `MAX_DEALS`; each is played in every seating of
            :func:`seatings`.
        seed: the seed of the whole run, any non-negative int; the deals' and the
            bots' seeds come from it. ``None`` draws one from the operating system
            (it is kept in the result).
        jobs: worker processes, at most :data:`brisca.runs.workers.MAX_JOBS` (and no
            more than the deals); the result is the same for any number.
        on_progress: called as ``on_progress(deals_done, deals)`` after each deal.

    The module of a ``module:Class`` bot must be importable by the worker
    processes when `jobs` is more than 1.

    Raises:
        BriscaError: an unknown bot or one that cannot be made (`BotError`), bad
            rules, or a count or seed that is not a non-negative int (`StateError`).
    """
    rules = checked_rules(rules)
    for name in (a, b):
        make_bot(name)  # an unknown bot fails here, not in a worker
    checked_int(deals, "deals", 1, MAX_DEALS)
    checked_int(jobs, "jobs", 1, MAX_JOBS)
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "big")
    checked_int(seed, "the seed", 0)
    if on_progress is not None and not callable(on_progress):
        raise StateError(f"on_progress must be a callable or None, got {describe(on_progress)}")
    stream = Generator(seed)
    n = rules.num_players
    tasks = [(a, b, rules, k, stream.below(2**64), k % n) for k in range(deals)]
    hands: list[HandPlayed] = []
    times: tuple[list[float], list[float]] = ([], [])
    illegal, errors = [0, 0], [0, 0]
    first: list[str | None] = [None, None]
    start = time.perf_counter()
    for done, deal in enumerate(_played(tasks, jobs), 1):
        hands += deal.hands
        for k in range(2):
            times[k].extend(deal.times[k])
            illegal[k] += deal.illegal[k]
            errors[k] += deal.errors[k]
            first[k] = first[k] or deal.first_errors[k]
        if on_progress is not None:
            on_progress(done, deals)
    seconds = time.perf_counter() - start
    stats = (
        BotStats.from_times(a, times[0], illegal[0], errors[0], first[0]),
        BotStats.from_times(b, times[1], illegal[1], errors[1], first[1]),
    )
    return ArenaResult.from_hands(
        a=a,
        b=b,
        rules=rules,
        seed=seed,
        deals=deals,
        hands=hands,
        bots=stats,
        seconds=seconds,
    )
