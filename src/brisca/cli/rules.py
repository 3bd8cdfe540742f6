"""``brisca rules [PRESET]`` and ``brisca show``: the rules, and a hand played out.

``brisca rules`` lists the presets and what each changes, ``brisca rules PRESET``
every option of one; ``brisca show`` deals a seeded hand between random players
and tells it trick by trick, every hand shown.
"""

from __future__ import annotations

import argparse

import brisca
from brisca.agents.bots import RandomBot
from brisca.cli.common import add_preset_argument, add_seed_argument, preset_rules
from brisca.formats.text import (
    PLAIN,
    Style,
    changed_options,
    describe_deal,
    describe_result,
    format_rules,
    narrate,
    option_docs,
    source_legend,
)
from brisca.game.rng import MAX_SEED
from brisca.game.state import State

__all__ = [
    "add_rules_arguments",
    "add_show_arguments",
    "describe_hand",
    "rules_command",
    "show_command",
]


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``brisca rules`` on `parser`."""
    parser.add_argument(
        "preset", nargs="?", default=None, help="a preset; all of them when omitted"
    )


def rules_command(args: argparse.Namespace, style: Style = PLAIN) -> int:
    """Run ``brisca rules`` with parsed `args`; the exit status. The rules name cards by
    their codes alone, so `style` changes nothing.

    Raises:
        Usage: no preset has the name given.
    """
    if args.preset is None:
        width = max(map(len, brisca.PRESETS))
        print(f"{'preset':<{width}}  differs from Rules() in")
        for name, rules in brisca.PRESETS.items():
            print(f"{name:<{width}}  {', '.join(changed_options(rules)) or 'the defaults'}")
        print("\n`brisca rules PRESET` shows every option of one preset, the card order and")
        print("points, the señas if it has them, and the sources of each rule:")
        print("\n".join(source_legend(option_docs().values())))
        return 0
    print("\n".join(format_rules(preset_rules(args.preset), args.preset)))
    return 0


def add_show_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``brisca show`` on `parser`."""
    add_preset_argument(parser)
    add_seed_argument(parser)
    parser.add_argument("--dealer", type=int, default=None, help="the dealer's seat")


def show_command(args: argparse.Namespace, style: Style = PLAIN) -> int:
    """Run ``brisca show`` with parsed `args`, cards drawn in `style`; the exit status.

    Raises:
        Usage: no preset has the name given.
        BriscaError: a bad dealer.
    """
    state = brisca.new_game(preset_rules(args.preset), seed=args.seed, dealer=args.dealer)
    assert state.seed is not None
    print(f"{args.preset}, seed {state.seed}")
    moves = (state.seed + 1) & MAX_SEED  # the bots' seed, within the seeds they take
    print("\n".join(describe_hand(state, moves, style=style)))
    return 0


def describe_hand(state: State, moves_seed: int, *, style: Style = PLAIN) -> list[str]:
    """Play `state` to the end with random legal moves and describe it line by line."""
    chooser = RandomBot(moves_seed)
    lines = describe_deal(state, style=style)
    while not state.is_over:
        seat: int = state.to_act  # type: ignore[assignment]
        action = chooser(brisca.observe(state, seat), brisca.legal_actions(state))
        state, events = brisca.step(state, action)
        lines += narrate(state, events, style=style)
    return lines + describe_result(state)
