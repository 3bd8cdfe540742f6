"""Instructions per random game, counted by valgrind: a repeatable companion to playouts.py.

Run: ``python benchmarks/instructions.py [-n GAMES] [--presets spanish-2p,...]``
(needs ``valgrind`` on the PATH).

Wall-clock time on a shared machine moves by tens of percent from run to run;
an instruction count does not. For each line of ``playouts.py`` (the floor, the
immutable-tuple reference and each preset) this runs the same games under
``valgrind --tool=callgrind`` twice, with 0 and with N games after a warm-up, and
reports the difference per game and its ratio to the floor. Instructions are not
time (memory traffic costs more in the library than in the floor), so quote
both: the count to compare two versions of the library, the time for speed.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import playouts
from valgrind import BUILD, difference

import brisca

WARM_UP = 50


def _play(line: str, n: int) -> None:
    """Play `n` games of `line` after a warm-up (the child process's job)."""
    preset = line.removeprefix(playouts.MATCH) in brisca.PRESETS
    game = playouts.lines([line] if preset else [])[line]
    rng = random.Random(2026)
    for _ in range(WARM_UP + n):
        game(rng)


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        _play(sys.argv[2], int(sys.argv[3]))
        return
    args = playouts.arguments(__doc__.splitlines()[0], 200)
    names = playouts.lines(args.presets.split(","))
    script = str(Path(__file__).resolve())
    per_game = {
        line: difference(script, (line, str(args.games)), (line, "0")) / args.games
        for line in names
    }
    floor = per_game[playouts.FLOOR]
    print(f"brisca's {BUILD} build")
    print(f"{'game':<22} {'instructions/game':>18} {'x floor':>8}")
    for line, count in per_game.items():
        print(f"{line:<22} {count:>18,.0f} {count / floor:>8.2f}")


if __name__ == "__main__":
    main()
