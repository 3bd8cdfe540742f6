"""The library's own random generator, so a seed means the same game everywhere.

brisca never uses the global :mod:`random` module. All randomness comes from
:class:`Generator`, which is fully specified here so that any implementation,
in any language, can reproduce a seeded game:

1. **Key.** A seed is an int from 0 to :data:`MAX_SEED`, ``2**1024 - 1``: room
   for any hash a seed may be taken from (SHA-512 gives 512 bits), and at most
   309 digits, so that every save and record writes it and reads it back. Its
   bytes are its minimal big-endian encoding (``b""`` for 0).
2. **Stream.** Block ``i`` (``i = 0, 1, 2, ...``) is
   ``SHA-256(b"brisca-rng-v1" + len(seed_bytes).to_bytes(8, "big") + seed_bytes
   + i.to_bytes(8, "big"))``. The blocks are concatenated into one bit stream,
   read most significant bit first.
3. **Integers.** ``below(n)`` takes the next ``k = n.bit_length() + 64`` bits as
   an integer ``r``. If ``r < 2**k - 2**k % n`` it returns ``r % n``; otherwise
   it rejects ``r`` and tries again (which happens with probability below 2**-64).
4. **Shuffle.** ``shuffle(items)`` draws one ``m = below(len(items)!)`` and
   then, for ``i`` from ``len(items)`` down to 2, takes ``m, j = divmod(m, i)``
   and swaps positions ``i - 1`` and ``j``: a Fisher-Yates shuffle whose indices
   are the mixed-radix digits of ``m``, so every order is equally likely.

>>> Generator(7).shuffle(range(5))
[4, 1, 0, 2, 3]
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from brisca.game.errors import StateError, checked_int, describe, read_at_most

__all__ = ["MAX_SEED", "MOST_SHUFFLED", "Generator"]

T = TypeVar("T")
_DOMAIN = b"brisca-rng-v1"

#: The greatest seed: seeds are ints from 0 to ``2**1024 - 1`` (see the key, above).
MAX_SEED = 2**1024 - 1

#: The most items :meth:`Generator.shuffle` takes. Its one draw below ``len(items)!``
#: costs time that grows as the square of the length (Python divides such numbers
#: digit by digit): some 0.06 s at 10,000 items, 1.2 s at 40,000, hours at a million.
#: The library's packs hold at most 52 cards.
MOST_SHUFFLED = 10_000


class Generator:
    """Deterministic random numbers from a seed, an int from 0 to :data:`MAX_SEED`
    (see the module documentation).

    Raises:
        StateError: `seed` is not an int from 0 to `MAX_SEED`.
    """

    __slots__ = ("_bits", "_block", "_buffer", "_prefix")

    def __init__(self, seed: object) -> None:
        if type(seed) is not int or not 0 <= seed <= MAX_SEED:
            seed = checked_int(seed, "seed", 0, MAX_SEED)
        raw = seed.to_bytes((seed.bit_length() + 7) // 8, "big")
        self._prefix = _DOMAIN + len(raw).to_bytes(8, "big") + raw
        self._block = 0
        self._buffer = 0  # unread bits, most significant first
        self._bits = 0

    def _take(self, k: int) -> int:
        if self._bits < k:
            # Every block the draw still needs, joined at once: a block at a time, each
            # shift copied the whole buffer, so a draw cost the square of its bits.
            first, blocks = self._block, (k - self._bits + 255) // 256
            if blocks == 1:  # a deal's draws: no list to join
                digests = hashlib.sha256(self._prefix + first.to_bytes(8, "big")).digest()
            else:
                digests = b"".join(
                    [
                        hashlib.sha256(self._prefix + block.to_bytes(8, "big")).digest()
                        for block in range(first, first + blocks)
                    ]
                )
            self._block = first + blocks
            self._buffer = (self._buffer << 256 * blocks) | int.from_bytes(digests, "big")
            self._bits += 256 * blocks
        self._bits -= k
        value = self._buffer >> self._bits
        self._buffer &= (1 << self._bits) - 1
        return value

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt by a function of this module, under every protocol: compiled, a
        # Generator cannot be made without its __init__, as pickle's default would.
        return _restored, (self._prefix, self._block, self._buffer, self._bits)

    def __setstate__(self, state: tuple[bytes, int, int, int]) -> None:
        # What a Generator pickled by release 0.1 holds.
        self._prefix, self._block, self._buffer, self._bits = state

    def copy(self) -> Generator:
        """An independent generator at the same point of the same stream."""
        return _restored(self._prefix, self._block, self._buffer, self._bits)

    def below(self, n: object) -> int:
        """A uniform integer in ``0 .. n-1``; `n` must be positive.

        Raises:
            StateError: `n` is not a positive int.
        """
        bound = n if type(n) is int and n >= 1 else checked_int(n, "below(n): n", 1)
        return self._below(bound, *_draw_bounds(bound))

    def _below(self, n: int, k: int, limit: int) -> int:
        """`below(n)`, given its `k` bits a draw and its `limit` (see the module's 3.)."""
        while True:
            if self._bits >= k:  # `_take(k)` without a new block: most draws, written out
                self._bits -= k
                r = self._buffer >> self._bits
                self._buffer &= (1 << self._bits) - 1
            else:
                r = self._take(k)
            if r < limit:
                return r % n

    def shuffle(self, items: Iterable[T]) -> list[T]:
        """A new list holding `items` in a uniformly random order.

        Raises:
            StateError: `items` is not iterable, cannot be read, or holds more than
                `MOST_SHUFFLED` items (an endless iterable is read no further).
        """
        if type(items) is tuple or type(items) is list:  # a pack: read whole, natively
            out = list(items)
        elif not isinstance(items, Iterable):
            raise StateError(f"shuffle needs a sequence of items, got {describe(items)}")
        else:
            out = read_at_most(items, MOST_SHUFFLED + 1, "the items to shuffle")
        if len(out) > MOST_SHUFFLED:
            raise StateError(f"shuffle takes at most {MOST_SHUFFLED} items")
        size, k, limit, runs = _SHUFFLES.get(len(out)) or _shuffle_plan(len(out))
        m = self._below(size, k, limit)
        # The digits of m, from radix len(out) down to 2, as the module's 4. takes them
        # one divmod at a time: a run's digits all come from its remainder, a small int.
        for product, radices in runs:
            m, digits = divmod(m, product)
            for i in radices:
                j = digits % i
                digits //= i
                out[i - 1], out[j] = out[j], out[i - 1]
        return out


_Plan = tuple[int, int, int, tuple[tuple[int, tuple[int, ...]], ...]]
#: Shuffle plans of the lengths up to this are kept (every pack of the library's).
_KEPT = 64
_SHUFFLES: dict[int, _Plan] = {}


def _restored(prefix: bytes, block: int, buffer: int, bits: int) -> Generator:
    """A generator at the given point of its stream: a copy, or an unpickled one."""
    made = Generator(0)
    made._prefix, made._block, made._buffer, made._bits = prefix, block, buffer, bits
    return made


def _draw_bounds(n: int) -> tuple[int, int]:
    """The bits ``k`` a draw of ``below(n)`` takes, and the limit under which it is
    kept (the module's 3.)."""
    k = n.bit_length() + 64
    return k, (1 << k) - (1 << k) % n


def _shuffle_plan(n: int) -> _Plan:
    """For a shuffle of `n` items: ``n!``, the bits and the limit of its draw, and the
    radices ``n .. 2`` in runs (see `_radix_runs`)."""
    size = math.factorial(n)
    plan = (size, *_draw_bounds(size), tuple(_radix_runs(n)))
    if n <= _KEPT:
        _SHUFFLES[n] = plan
    return plan


def _radix_runs(n: int) -> Iterator[tuple[int, tuple[int, ...]]]:
    """The radices ``n .. 2`` in runs whose product stays below ``2**30``, one machine
    digit, each run with its product; a radix past that is a run alone."""
    i = n
    while i > 1:
        product, radices = i, [i]
        i -= 1
        while i > 1 and product * i < 2**30:
            product *= i
            radices.append(i)
            i -= 1
        yield product, tuple(radices)
