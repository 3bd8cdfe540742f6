"""``brisca`` on the command line: play out a hand between random players and show it.

Usage: ``brisca [--preset NAME] [--seed N] [--dealer SEAT]`` or ``python -m brisca ...``;
``brisca --list`` lists the presets.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import brisca
from brisca.rng import Generator


def describe_hand(state: brisca.State, moves_seed: int) -> list[str]:
    """Play `state` to the end with random legal moves and describe it line by line."""
    chooser = Generator(moves_seed)
    lines = [
        f"dealer: seat {state.dealer}; sides: {', '.join(map(str, state.sides))}",
        f"trump: {state.trump.spanish_name if state.trump else '-'}"
        + (f" (turned card {state.trump_card})" if state.trump_card else ""),
    ]
    while not state.is_over:
        actions = brisca.legal_actions(state)
        state = brisca.apply(state, actions[chooser.below(len(actions))])
        if not state.trick and state.tricks:
            t = state.tricks[-1]
            cards = "  ".join(f"{seat}:{card}" for seat, card in t.cards)
            lines.append(
                f"trick {len(state.tricks):>2}: {cards:<30} seat {t.winner} wins {t.points:>2}"
            )
    result = brisca.result(state)
    lines.append(
        "points: "
        + ", ".join(f"{side} {p}" for side, p in zip(result.sides, result.points, strict=True))
    )
    if result.winner is None:
        verdict = "replay" if result.replay else "no winner"
        lines.append(f"result: a tie ({state.rules.tie_rule.value}: {verdict})")
    else:
        lines.append(f"result: side {result.sides[result.winner]} wins")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="brisca", description="Play out a hand of Brisca between random players."
    )
    parser.add_argument("--preset", default="spanish-2p", help="a preset name (see --list)")
    parser.add_argument("--seed", type=int, default=None, help="a non-negative seed")
    parser.add_argument("--dealer", type=int, default=None, help="the dealer's seat")
    parser.add_argument("--list", action="store_true", help="list the presets and exit")
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(brisca.PRESETS))
        return 0
    try:
        state = brisca.new_game(brisca.preset(args.preset), seed=args.seed, dealer=args.dealer)
    except brisca.BriscaError as error:
        print(f"brisca: {error}", file=sys.stderr)
        return 2
    assert state.seed is not None
    print(f"{args.preset}, seed {state.seed}")
    print("\n".join(describe_hand(state, state.seed + 1)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
