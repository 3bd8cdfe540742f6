"""What the events cost: ``step`` against ``apply`` over the same moves.

Run: ``python benchmarks/steps.py [-n GAMES] [--rounds R] [--presets spanish-2p,...]
[--count]``

For each preset, `GAMES` random hands are played once and every (state, action)
pair of them kept. Then, in each of `R` rounds, the same pairs go through
``apply``, through ``step`` (the new state and its events) and through a bound:
``apply`` inside a function that also makes and returns an empty event tuple, the
least any ``step`` can cost. The three take turns within each round, so a slow
spell of a shared machine hits them alike, and the report gives the median of the
per-round ratios to ``apply``.

With ``--count`` it counts instructions under valgrind instead (as
``instructions.py`` does): each line runs over the pairs in a child process with 0
and with `R` rounds after a warm-up, a line that does nothing is taken off, and the
ratios are of what is left. Slower, but the figure does not move with the load.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from valgrind import difference

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


def nothing(state: brisca.State, action: brisca.Action) -> None:
    """The loop's own cost, which ``--count`` takes off each line."""


def _run(name: str, games: int, line: str, rounds: int) -> None:
    """The child of ``--count``: `rounds` passes of `line` over the pairs, after one."""
    pairs = moves(brisca.preset(name), games)
    function = nothing if line == "nothing" else LINES[line]
    for _ in range(rounds + 1):
        for state, action in pairs:
            function(state, action)


def count(name: str, games: int, rounds: int) -> None:
    """One preset's line of ``--count``: instructions per move, and the ratios."""
    script = str(Path(__file__).resolve())
    per = {
        line: difference(
            script, (name, str(games), line, str(rounds)), (name, str(games), line, "0")
        )
        for line in ("nothing", *LINES)
    }
    moved = len(moves(brisca.preset(name), games)) * rounds
    apply = per["apply"] - per["nothing"]
    step, least = per["step"] - per["nothing"], per["bound"] - per["nothing"]
    print(
        f"{name:<14} {moved // rounds:>6} {apply / moved:>9,.0f} {step / apply:>13.3f} "
        f"{least / apply:>14.3f}"
    )


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        name, games, line, rounds = sys.argv[2:6]
        _run(name, int(games), line, int(rounds))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--games", type=int, default=None, help="100; 30 with --count")
    parser.add_argument("--rounds", type=int, default=None, help="40; 3 with --count")
    parser.add_argument("--presets", default=PRESETS)
    parser.add_argument("--count", action="store_true", help="valgrind instructions")
    args = parser.parse_args()
    unit = "apply instr" if args.count else "apply us"
    print(f"{'preset':<14} {'moves':>6} {unit:>9} {'step / apply':>13} {'bound / apply':>14}")
    if args.count:
        for name in args.presets.split(","):
            count(name, args.games or 30, args.rounds or 3)
        return
    args.games, args.rounds = args.games or 100, args.rounds or 40
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
