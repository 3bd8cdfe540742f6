"""The batch engine's random playouts against the engine's own, side by side on one core.

Run: ``python benchmarks/batch.py [-n 10000] [--engine-games 500] [--rounds 5]
[--presets spanish-2p,...]``

For each preset, each round times (CPU time, ``time.process_time``) the engine's random
playouts, ``new_game`` -> ``legal_actions``/``apply`` with uniformly random choices until
over -> ``result``, and ``brisca.batch.random_playouts`` of N games (random deals and
uniformly random legal actions in the compiled kernel, one thread). numba's compile time
is excluded: every preset's kernel is warmed up before the clock starts. The report
gives games per second and the median of the rounds' ratios; the last line is the first
preset's speed-up.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import brisca
from brisca.batch import random_playouts


def engine_games(rules: brisca.Rules, games: int, seed: int) -> float:
    """CPU seconds for `games` random playouts through the engine's public API."""
    choose = random.Random(seed)
    start = time.process_time()
    for i in range(games):
        state = brisca.new_game(rules, seed=seed * 1_000_003 + i)
        while not state.is_over:
            state = brisca.apply(state, choose.choice(brisca.legal_actions(state)))
        brisca.result(state)
    return time.process_time() - start


def batch_games(rules: brisca.Rules, games: int, seed: int) -> float:
    """CPU seconds for `games` random playouts in the batch kernel."""
    start = time.process_time()
    random_playouts(rules, games, seed=seed)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=10_000, help="batch games per round")
    parser.add_argument("--engine-games", type=int, default=500, help="engine games per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--presets", default="spanish-2p,spanish-4p,arrastre-2p,puerto-rican-2p")
    args = parser.parse_args()
    names = args.presets.split(",")
    for name in names:  # compile (or load the cache) before any clock runs
        random_playouts(name, 10, seed=0)
    first = None
    for name in names:
        rules = brisca.preset(name)
        ratios, engine_rates, batch_rates = [], [], []
        for r in range(args.rounds):
            engine = args.engine_games / engine_games(rules, args.engine_games, r)
            batch = args.n / batch_games(rules, args.n, r)
            engine_rates.append(engine)
            batch_rates.append(batch)
            ratios.append(batch / engine)
        ratio = statistics.median(ratios)
        first = ratio if first is None else first
        print(
            f"{name:16} engine {statistics.median(engine_rates):>9,.0f} games/s   "
            f"batch {statistics.median(batch_rates):>11,.0f} games/s   {ratio:6.1f}x"
        )
    print(f"(N = {args.n} batch games a round, {args.rounds} rounds, compile time excluded)")
    print(f"batch speed-up: {first:.1f}x")


if __name__ == "__main__":
    main()
