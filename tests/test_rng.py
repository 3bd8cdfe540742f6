"""The documented generator: an independent reading of its specification must agree."""

from __future__ import annotations

import hashlib
import itertools
import math
from collections.abc import Callable

import pytest
from helpers import assert_linear, cpu_seconds
from hypothesis import given
from hypothesis import strategies as st

import brisca
from brisca.game import rng
from brisca.game.rng import Generator


def reference_stream(seed: int) -> Callable[[int], int]:
    """The next `k` bits of `seed`'s stream, as the module documentation defines it."""
    seed_bytes = seed.to_bytes((seed.bit_length() + 7) // 8, "big")
    stream = ""
    block = 0

    def bits(k: int) -> int:
        nonlocal stream, block
        while len(stream) < k:
            digest = hashlib.sha256(
                b"brisca-rng-v1"
                + len(seed_bytes).to_bytes(8, "big")
                + seed_bytes
                + block.to_bytes(8, "big")
            ).digest()
            stream += "".join(f"{byte:08b}" for byte in digest)
            block += 1
        value, stream = int(stream[:k], 2), stream[k:]
        return value

    return bits


def reference_below(bits: Callable[[int], int], n: int) -> int:
    k = n.bit_length() + 64
    while True:
        r = bits(k)
        if r < 2**k - 2**k % n:
            return r % n


def reference_shuffle(seed: int, items: list[int]) -> list[int]:
    """The brisca.game.rng module documentation, followed literally and slowly."""
    m = reference_below(reference_stream(seed), math.factorial(len(items)))
    out = list(items)
    for i in range(len(out), 1, -1):
        m, j = divmod(m, i)
        out[i - 1], out[j] = out[j], out[i - 1]
    return out


@given(seed=st.integers(min_value=0, max_value=2**300), size=st.integers(0, 48))
def test_shuffle_follows_its_documentation(seed: int, size: int) -> None:
    items = list(range(size))
    assert Generator(seed).shuffle(items) == reference_shuffle(seed, items)


@given(seed=st.integers(min_value=0, max_value=2**64), size=st.integers(49, 400))
def test_a_long_shuffle_follows_its_documentation(seed: int, size: int) -> None:
    """Lengths past every pack, whose digits come in several runs, and the lengths past
    those the shuffle keeps a plan for."""
    items = list(range(size))
    assert Generator(seed).shuffle(items) == reference_shuffle(seed, items)


@given(size=st.integers(0, 200) | st.integers(2**15 - 3, 2**15 + 3) | st.just(2**40))
def test_the_digits_of_a_shuffle_come_in_runs_of_one_machine_digit(size: int) -> None:
    """The radices size .. 2, in order, in the longest runs whose product stays below
    2**30, a run of one radix past that; for a radix past 2**30 too."""
    runs = list(itertools.islice(rng._radix_runs(size), 50))
    radices = [r for _, run in runs for r in run]
    assert radices == list(range(size, max(size - len(radices), 1), -1))
    for product, run in runs:
        assert product == math.prod(run)
        assert product < 2**30 or len(run) == 1
        after = run[-1] - 1  # each run as long as it may be: the next radix overflows it
        assert after < 2 or product * after >= 2**30
    if size <= 200:
        assert len(radices) == max(size - 1, 0)
        assert math.prod(product for product, _ in runs) == math.factorial(size)


@given(
    seed=st.integers(min_value=0, max_value=2**80),
    sizes=st.lists(st.integers(1, 2**200) | st.integers(1, 60), min_size=1, max_size=40),
)
def test_a_run_of_draws_follows_the_documentation(seed: int, sizes: list[int]) -> None:
    """Draw after draw from one generator (most read bits left from an earlier block, as a
    random bot's do), small and large bounds mixed: each is the documented one."""
    gen, bits = Generator(seed), reference_stream(seed)
    assert [gen.below(n) for n in sizes] == [reference_below(bits, n) for n in sizes]


def test_below_is_in_range_and_varies() -> None:
    gen = Generator(1)
    draws = [gen.below(6) for _ in range(600)]
    assert set(draws) == set(range(6))


def test_seeded_deal_is_pinned_across_versions() -> None:
    """A seed's game must not change silently: this deal is part of the seed contract.

    If this fails, the change breaks seeded reproducibility and must be called out
    in CHANGELOG.md.
    """
    state = brisca.new_game(brisca.Rules(), seed=7)
    order = reference_shuffle(7, list(range(40)))
    pack = brisca.Rules().cards
    assert state.hands[0] == (pack[order[0]], pack[order[2]], pack[order[4]])
    assert state.trump_card is pack[order[6]]
    assert [str(c) for c in state.hands[0]] == ["2O", "11C", "4C"]
    assert str(state.trump_card) == "3C"


def test_a_shuffle_takes_at_most_its_budget_of_items() -> None:
    """Its one draw below ``len(items)!`` costs time that grows as the square of the
    length (20 s at 160,000 items): a longer list, or an endless iterable, is refused
    once the budget is read, and the longest allowed is still a true permutation."""
    longest = list(range(rng.MOST_SHUFFLED))
    assert sorted(Generator(3).shuffle(longest)) == longest
    for items in (range(rng.MOST_SHUFFLED + 1), [0] * 10**6, itertools.count()):
        with pytest.raises(brisca.StateError, match=f"at most {rng.MOST_SHUFFLED} items"):
            Generator(3).shuffle(items)
    endless = itertools.count()
    with pytest.raises(brisca.StateError):
        Generator(3).shuffle(endless)
    assert next(endless) == rng.MOST_SHUFFLED + 1, "read past the budget"


@given(seed=st.integers(min_value=0, max_value=2**64), bits=st.integers(250, 20_000))
def test_a_draw_of_many_blocks_follows_the_documentation(seed: int, bits: int) -> None:
    """A bound of thousands of bits takes many blocks of the stream at once, after a small
    draw has left part of a block unread."""
    gen, stream = Generator(seed), reference_stream(seed)
    n = 2**bits - 12345
    assert [gen.below(6), gen.below(n), gen.below(n)] == [
        reference_below(stream, 6),
        reference_below(stream, n),
        reference_below(stream, n),
    ]


def test_a_draw_costs_time_linear_in_its_bits() -> None:
    """Each block of the stream shifted the whole buffer: a draw below ``2**(2**21)``
    cost 0.38 s, six times one below ``2**(2**20)``."""
    assert_linear(
        lambda: cpu_seconds(lambda: Generator(1).below(2**2**21 + 1)),
        lambda: cpu_seconds(lambda: Generator(1).below(2**2**22 + 1)),
    )
