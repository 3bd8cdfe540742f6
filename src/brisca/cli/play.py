"""``brisca play``: a hand in the terminal against the bots.

Before each of the player's moves it shows the table and a numbered menu of the
legal actions, then reads an answer: a menu number, or any action in notation.
``--out`` saves the hand as a game record, also when the player leaves it early.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
from collections.abc import Sequence
from typing import IO, TextIO

import brisca
from brisca.agents.bots import BOTS, LEVELS, Bot, bot_seed, make_bot
from brisca.cli.common import (
    Usage,
    add_preset_argument,
    add_seed_argument,
    open_for_writing,
    preset_rules,
    records_module,
)
from brisca.formats.text import (
    PLAIN,
    Style,
    action_text,
    clean,
    describe_deal,
    describe_result,
    help_lines,
    narrate,
    turn_lines,
)
from brisca.game.actions import Action, Bid, parse_action
from brisca.game.errors import BriscaError, IllegalActionError, NotationError
from brisca.game.events import Event
from brisca.game.rules import Rules
from brisca.game.state import Observation, State

__all__ = ["MENU_BIDS", "Abandoned", "add_arguments", "command"]

#: The menu lists at most this many point bids; any other bid is typed, such as ``bid 75``.
MENU_BIDS = 5


class Abandoned(Exception):
    """The player left the game: the message is shown and the command exits with status 1."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``brisca play`` on `parser`."""
    add_preset_argument(parser)
    parser.add_argument("--seat", type=int, default=0, help="your seat; seat 0 leads (default 0)")
    parser.add_argument(
        "--level",
        choices=list(LEVELS),
        default=None,
        help="the bots' strength: "
        + ", ".join(f"{level} ({bot})" for level, bot in LEVELS.items())
        + "; normal when omitted",
    )
    parser.add_argument(
        "--opponents", choices=sorted(BOTS), default=None, help="the bots by name, instead"
    )
    add_seed_argument(parser)
    parser.add_argument("--out", default=None, help="save the hand to this file as a game record")


def command(args: argparse.Namespace, style: Style = PLAIN) -> int:
    """Run ``brisca play`` with parsed `args`, cards drawn in `style`; the exit status.

    Raises:
        Usage: a bad seat, level or output file.
    """
    rules = preset_rules(args.preset)
    n = rules.num_players
    if not 0 <= args.seat < n:
        raise Usage(f"--seat must be from 0 to {n - 1} in {args.preset}")
    if args.level is not None and args.opponents is not None:
        raise Usage("give --level or --opponents, not both")
    if args.opponents is None:
        args.opponents = LEVELS[args.level or "normal"]
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(8), "big")
    bots = [make_bot(args.opponents, bot_seed(seed, seat)) for seat in range(n)]
    save = open_for_writing(args.out) if args.out is not None else None
    try:
        return _play(args, rules, seed, bots, save, style)
    finally:
        if save is not None:
            save.close()


def _menu(legal: Sequence[Action]) -> tuple[list[Action], str | None]:
    """The numbered menu of `legal`, and a line on the bids left out of it, if any.

    A subastada auction allows some thirty bids and chiamata's "2 + points" sixty:
    the menu keeps the lowest few, pass and everything else, and the rest are typed.
    """
    bids = [a for a in legal if isinstance(a, Bid)]
    if len(bids) <= MENU_BIDS + 1:
        return list(legal), None
    kept = bids[:MENU_BIDS]
    menu = [a for a in legal if not isinstance(a, Bid) or a in kept]
    points = [b.points for b in bids]
    steps = {b - a for a, b in itertools.pairwise(points)}
    step = f" in steps of {steps.pop()}" if len(steps) == 1 else ""
    example = bids[(MENU_BIDS + len(bids)) // 2]
    note = f"or type any bid from {points[0]} to {points[-1]}{step}, such as '{example}'"
    return menu, note


def _show_turn(view: Observation, legal: Sequence[Action], out: TextIO, style: Style) -> None:
    """The table as the player sees it, then the menu of `legal`."""
    lines = turn_lines(view, legal, style=style)
    menu, note = _menu(legal)
    width = len(str(len(menu)))
    lines += [f"  {k:>{width}}) {action_text(a, style=style)}" for k, a in enumerate(menu, 1)]
    if note is not None:
        lines.append(f"  {' ' * width}  {note}")
    print("\n".join(lines), file=out)


def _read_choice(
    state: State, you: int, legal: Sequence[Action], inp: IO[str], out: TextIO, style: Style
) -> tuple[State, tuple[Event, ...], Action]:
    """Read until a legal action of seat `you`: the state after it, its events, and the action.

    Raises:
        Abandoned: the input ended, or the player typed ``quit``.
    """
    menu, _ = _menu(legal)
    prompt = f"your move (1-{len(menu)}, an action such as {legal[-1]}, or help): "
    while True:
        print(prompt, end="", file=out)
        out.flush()
        line = inp.readline()
        if not line:
            raise Abandoned("input ended before the hand did")
        text = line.strip()
        if not inp.isatty():
            print(clean(text), file=out)  # echo piped input, so that the transcript reads well
        if not text:
            continue
        if text.lower() in ("help", "?", "h"):
            print("\n".join(help_lines(legal)), file=out)
            _show_turn(brisca.observe(state, you), legal, out, style)
            continue
        if text.lower() in ("quit", "exit"):
            raise Abandoned("game abandoned")
        try:
            action = _choice(text, menu)
            return (*brisca.step(state, action), action)
        except IllegalActionError as error:
            print(f"not allowed: {clean(str(error))}", file=out)
        except BriscaError as error:
            print(f"not understood: {clean(str(error))}", file=out)


def _choice(text: str, menu: Sequence[Action]) -> Action:
    """The action a typed answer names: a menu number (ASCII digits only) or notation.

    Raises:
        NotationError: the text is neither.
    """
    if text.isascii() and text.isdigit():
        k = int(text)
        if not 1 <= k <= len(menu):
            raise NotationError(f"choose a number from 1 to {len(menu)}")
        return menu[k - 1]
    try:
        return parse_action(text)
    except BriscaError:
        raise
    except ValueError:  # such as int() on a non-ASCII digit: not notation either
        raise NotationError(f"cannot read {text!r} as an action; type 'help'") from None


def _play(
    args: argparse.Namespace,
    rules: Rules,
    seed: int,
    bots: list[Bot],
    save: TextIO | None,
    style: Style,
) -> int:
    you = args.seat
    state = initial = brisca.new_game(rules, seed=seed)
    actions: list[Action] = []
    out = sys.stdout
    view = brisca.observe(state, you)
    partners = [s for side in view.sides if you in side for s in side if s != you]
    company = ""
    if partners:
        company = f", with seat{'s' if len(partners) > 1 else ''} {'+'.join(map(str, partners))}"
    print(
        f"{args.preset}, seed {seed}: you are seat {you}{company}, against {args.opponents} bots."
    )
    if all(you not in side for side in view.sides):
        print("You sit out this hand: watch it.")
    print(
        "Type a menu number, a card code such as 3C, an action such as 'swap 7O', 'help' or 'quit'."
    )
    print("\n".join(describe_deal(state, you, style=style)))
    while state.to_act is not None:
        seat = state.to_act
        legal = brisca.legal_actions(state)
        if seat == you:
            _show_turn(brisca.observe(state, you), legal, out, style)
            try:
                after, events, action = _read_choice(state, you, legal, sys.stdin, out, style)
            except Abandoned as error:
                print(f"\nbrisca: {error} (deal it again with --seed {seed})", file=sys.stderr)
                _save(save, args, initial, actions, finished=False)
                return 1
        else:
            action = bots[seat](brisca.observe(state, seat), legal)
            after, events = brisca.step(state, action)
        print("\n".join(narrate(after, events, you, plays=True, style=style)))
        actions.append(action)
        state = after
    print("\n" + "\n".join(describe_result(state, you)))
    _save(save, args, initial, actions, finished=True)
    return 0


def _save(
    save: TextIO | None,
    args: argparse.Namespace,
    initial: State,
    actions: list[Action],
    *,
    finished: bool,
) -> None:
    """Write the hand so far to `save` as a game record (`brisca replay` reads it)."""
    if save is None:
        return
    records = records_module()
    seats = range(initial.rules.num_players)
    players = ["you" if seat == args.seat else args.opponents for seat in seats]
    records.dump(records.record_game(initial, actions, players=players), save)
    save.write("\n")
    what = "the hand" if finished else "the hand so far"
    print(f"saved {what} to {clean(args.out)}", file=sys.stdout if finished else sys.stderr)
