"""What the events cost: ``step`` against ``apply`` over the same moves.

Run: ``python benchmarks/steps.py [-n GAMES] [--rounds R] [--presets spanish-2p,...]``

For each preset, `GAMES` random hands are played once and every (state, action)
pair of them kept. Then, in each of `R` rounds, the same pairs go through
``apply``, through ``step`` (the new state and its events) and through a bound:
``apply`` inside a function that also makes and returns an empty event tuple, the
least any ``step`` can cost. The three take turns within each round, so a slow
spell of a shared machine hits them alike, and the report gives the median of the
per-round ratios to ``apply``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import brisca
from brisca.game.events import Event

PRESETS = "spanish-2p,spanish-4p,arrastre-2p"


def moves(rules: brisca.Rules, games: int) -> list[tuple[brisca.State, brisca.Action]]:
    """Every (state, action) pair of `games` random hands."""
    pairs = []
    for seed in range(games):
        rng = random.Random(seed)
        state = brisca.new_game(rules, seed=seed)
        while not state.is_over:
            actions = brisca.legal_actions(state)
            action = actions[rng.randrange(len(actions))]
            pairs.append((state, action))
            state = brisca.apply(state, action)
    return pairs


def bound(state: brisca.State, action: brisca.Action) -> tuple[brisca.State, tuple[Event, ...]]:
    log: list[Event] = []
    return brisca.apply(state, action), tuple(log)


LINES: dict[str, Callable[[Any, Any], object]] = {
    "apply": brisca.apply,
    "step": brisca.step,
    "bound": bound,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--presets", default=PRESETS)
    args = parser.parse_args()
    print(f"{'preset':<14} {'moves':>6} {'apply us':>9} {'step / apply':>13} {'bound / apply':>14}")
    for name in args.presets.split(","):
        pairs = moves(brisca.preset(name), args.games)
        ratios: dict[str, list[float]] = {line: [] for line in LINES}
        spent: list[float] = []
        for _ in range(args.rounds):
            took = {}
            for line, function in LINES.items():
                start = time.perf_counter()
                for state, action in pairs:
                    function(state, action)
                took[line] = time.perf_counter() - start
            for line in LINES:
                ratios[line].append(took[line] / took["apply"])
            spent.append(took["apply"] / len(pairs))
        step, least = statistics.median(ratios["step"]), statistics.median(ratios["bound"])
        each = statistics.median(spent) * 1e6
        print(f"{name:<14} {len(pairs):>6} {each:>9.2f} {step:>13.2f} {least:>14.2f}")


if __name__ == "__main__":
    main()
