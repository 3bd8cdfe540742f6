"""The statistics of games between bots: the Wilson interval of a win rate, and the
exact sign test of duplicate deals (:mod:`brisca.runs.arena`, :mod:`brisca.runs.simulate`).
"""

from __future__ import annotations

import math

from brisca.game.errors import StateError, checked_int, describe

__all__ = ["EXACT_SIGN_TEST", "Z95", "sign_test", "wilson_interval"]

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054

#: Up to this many non-zero scores, the sign test sums the binomial tail exactly.
EXACT_SIGN_TEST = 1000


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a win rate: 95% by default. ``(0, 1)`` for no games.

    >>> low, high = wilson_interval(8, 10)
    >>> round(low, 4), round(high, 4)
    (0.4902, 0.9433)

    Raises:
        StateError: `games` is not a non-negative int, or `wins` not a number from 0
            to `games`.
    """
    checked_int(games, "games")
    if not isinstance(wins, (int, float)) or isinstance(wins, bool) or not 0 <= wins <= games:
        raise StateError(f"wins must be a number from 0 to {games}, got {describe(wins)}")
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def sign_test(positive: int, negative: int) -> float:
    """The exact two-sided sign-test p-value of `positive` against `negative` scores.

    Ties are left out before calling. Under equal strength each non-zero score is
    positive with probability 1/2, so the count is binomial; the p-value is twice
    the tail of the smaller count, at most 1. Up to :data:`EXACT_SIGN_TEST` scores
    the tail is summed in whole numbers; beyond, in log space, so that tens of
    thousands of scores cost a few milliseconds.

    >>> sign_test(10, 0) == 2 / 1024
    True
    >>> sign_test(0, 0), sign_test(3, 3)
    (1.0, 1.0)

    Raises:
        StateError: a count that is not a non-negative int.
    """
    for count in (positive, negative):
        checked_int(count, "a count")
    n = positive + negative
    k = min(positive, negative)
    if n == 0 or 2 * k + 1 >= n:  # an even split, or one away: the tail is half or more
        return 1.0
    if n <= EXACT_SIGN_TEST:  # whole numbers: exact, and still quick
        term = total = 1
        for i in range(k):
            term = term * (n - i) // (i + 1)
            total += term
        return min(1.0, 2 * total / (1 << n))
    log_n = math.lgamma(n + 1) - n * math.log(2)
    logs = [log_n - math.lgamma(i + 1) - math.lgamma(n - i + 1) for i in range(k + 1)]
    top = max(logs)
    tail = math.exp(top) * math.fsum(math.exp(x - top) for x in logs)
    return min(1.0, 2 * tail)
