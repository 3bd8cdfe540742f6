"""``brisca play``: a hand, or with ``--match`` a whole match, in the terminal against the bots.

Before each of the player's moves it shows the table and a numbered menu of the
legal actions, then reads an answer: a menu number, or any action in notation.
Any line at all is answered, never with a traceback. Between the hands of a
match it shows the standings and waits for Enter. ``--out`` saves every hand as
a game record, also when the player leaves early.
"""

from __future__ import annotations

import argparse
import contextlib
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
)
from brisca.formats import records
from brisca.formats.text import (
    PLAIN,
    Style,
    action_text,
    answer_hint,
    answer_kinds,
    clean,
    describe_deal,
    describe_result,
    help_lines,
    match_result_lines,
    match_target_text,
    narrate,
    standings_lines,
    turn_lines,
)
from brisca.game.actions import ACTION_TYPES, Action, Bid, parse_action
from brisca.game.errors import BriscaError, IllegalActionError, NotationError, describe
from brisca.game.events import Event
from brisca.game.match import match_with_hand
from brisca.game.rules import MatchMode, Rules
from brisca.game.state import Observation, State

__all__ = [
    "ECHO",
    "MENU_BIDS",
    "Abandoned",
    "add_arguments",
    "check_match_rules",
    "choice",
    "command",
    "prompt_text",
]

#: The menu lists at most this many point bids; any other bid is typed, such as ``bid 75``.
MENU_BIDS = 5


class Abandoned(Exception):
    """The player left the game: the message is shown and the command exits with status 1.

    `state` is the hand as far as it went, when the player left during one.
    """

    def __init__(self, message: str, state: State | None = None) -> None:
        super().__init__(message)
        self.state = state


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
    parser.add_argument(
        "--match",
        action="store_true",
        help="play a whole match, hand after hand, to the preset's target",
    )
    parser.add_argument(
        "--out",
        default=None,
        help="save the hand (with --match, every hand, one a line) to this file as game records",
    )


def command(args: argparse.Namespace, style: Style = PLAIN) -> int:
    """Run ``brisca play`` with parsed `args`, cards drawn in `style`; the exit status.

    Raises:
        Usage: a bad seat, level or output file, or ``--match`` for a single-hand preset.
    """
    rules = preset_rules(args.preset)
    n = rules.num_players
    if not 0 <= args.seat < n:
        raise Usage(f"--seat must be from 0 to {n - 1} in {args.preset}")
    if args.level is not None and args.opponents is not None:
        raise Usage("give --level or --opponents, not both")
    if args.match:
        check_match_rules(rules, args.preset)
    if args.opponents is None:
        args.opponents = LEVELS[args.level or "normal"]
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(8), "big")
    bots = [make_bot(args.opponents, bot_seed(seed, seat)) for seat in range(n)]
    if sys.stdin is None or sys.stdout is None:  # started with either closed
        raise Usage("play needs an input and an output to play on")
    _forgiving(sys.stdin)
    save = open_for_writing(args.out) if args.out is not None else None
    try:
        game = _Game(args, seed, bots, style, save)
        return game.match(rules) if args.match else game.single(rules)
    finally:
        if save is not None:
            save.close()


def check_match_rules(rules: Rules, name: str) -> None:
    """Refuse ``--match`` for rules whose match is a single hand.

    Raises:
        Usage: `rules` score no match (``match_mode='single_hand'``).
    """
    if rules.match_mode is MatchMode.SINGLE_HAND:
        raise Usage(
            f"--match: {clean(name)} is scored as a single hand (match_mode='single_hand'), "
            "so there is no match to play; leave out --match"
        )


def _forgiving(stream: IO[str]) -> None:
    """Read `stream` so that no byte can fail to decode: bad bytes become U+FFFD."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):  # a closed or an odd stream
            reconfigure(errors="replace")


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


#: The most characters of a typed line echoed back (piped input is echoed for the transcript).
ECHO = 80
#: The most characters of a typed line read: no answer is longer (the rest is skipped).
MAX_LINE = 4096
#: The most of an overlong line skipped before the input is given up on.
MAX_SKIP = 2**20


def _read_line(inp: IO[str], out: TextIO, prompt: str) -> str | None:
    """Ask `prompt` and read one answer, stripped: ``None`` when the input has ended."""
    print(prompt, end="", file=out)
    out.flush()
    line = inp.readline(MAX_LINE + 1)
    if not line:
        return None
    if len(line) > MAX_LINE and not line.endswith("\n"):  # no answer: drop the rest of it
        skipped = 0
        while (rest := inp.readline(MAX_LINE + 1)) and not rest.endswith("\n"):
            skipped += len(rest)
            if skipped > MAX_SKIP:  # input with no end of line, such as /dev/zero
                raise Usage(f"a line of input goes on past {MAX_SKIP // 2**20} MiB")
        line = line[:MAX_LINE]
    text = line.strip()
    if not inp.isatty():  # echo piped input, so that the transcript reads well
        print(clean(text if len(text) <= ECHO else text[: ECHO - 3] + "..."), file=out)
    return text


def prompt_text(menu: Sequence[Action], legal: Sequence[Action]) -> str:
    """The question asked at the player's turn: the menu's numbers and an action."""
    if len(menu) == 1:
        return f"your move (1 or {menu[0]}, or help): "
    return f"your move (1-{len(menu)}, an action such as {legal[-1]}, or help): "


def _read_choice(
    state: State, you: int, legal: Sequence[Action], inp: IO[str], out: TextIO, style: Style
) -> tuple[State, tuple[Event, ...], Action]:
    """Read until a legal action of seat `you`: the state after it, its events, and the action.

    Any line at all gets an answer and the question again: a line that is no action
    is told why, and never ends the game.

    Raises:
        Abandoned: the input ended, or the player typed ``quit``.
    """
    menu, _ = _menu(legal)
    prompt = prompt_text(menu, legal)
    while True:
        text = _read_line(inp, out, prompt)
        if text is None:
            raise Abandoned("input ended before the hand did", state)
        if not text:
            continue
        if text.lower() in ("help", "?", "h"):
            print("\n".join(help_lines(legal, state.rules)), file=out)
            _show_turn(brisca.observe(state, you), legal, out, style)
            continue
        if text.lower() in ("quit", "exit"):
            raise Abandoned("game abandoned", state)
        try:
            action = choice(text, menu, state.rules)
            return (*brisca.step(state, action), action)
        except IllegalActionError as error:
            print(f"not allowed: {clean(str(error))}", file=out)
        except BriscaError as error:
            print(f"not understood: {clean(str(error))}", file=out)


#: The action keywords, lowercase: a line that starts with none of them can only be a card.
_KEYWORDS = tuple(kind.KEYWORD for kind in ACTION_TYPES if kind.KEYWORD)


def choice(text: str, menu: Sequence[Action], rules: Rules) -> Action:
    """The action a typed answer names: a menu number (ASCII digits only) or notation.

    Raises:
        NotationError: the text is neither; a line that reads as no action at all is
            answered with the kinds of action `rules` allow.
    """
    if text.isascii() and text.isdigit():
        digits = text.lstrip("0")
        if not digits or len(digits) > len(str(len(menu))) or not 1 <= int(digits) <= len(menu):
            raise NotationError(f"choose a number from 1 to {len(menu)}")
        return menu[int(digits) - 1]
    try:
        return parse_action(text)
    except NotationError as error:
        words = text.split(maxsplit=1)
        if words and words[0].lower() in _KEYWORDS and " as an action; " not in str(error):
            raise  # the library's own words on what is wrong after the keyword
    except (ValueError, TypeError):  # not notation either
        pass
    raise NotationError(
        f"cannot read {describe(text, 40, typed=False)} as an action; type {answer_kinds(rules)}"
    )


class _Game:
    """One ``brisca play``: the player's seat, the bots, and where hands are saved."""

    def __init__(
        self,
        args: argparse.Namespace,
        seed: int,
        bots: list[Bot],
        style: Style,
        save: TextIO | None,
    ) -> None:
        self.args, self.seed, self.bots, self.style, self.save = args, seed, bots, style, save
        self.you: int = args.seat
        self.out = sys.stdout
        self.inp: IO[str] = sys.stdin

    def single(self, rules: Rules) -> int:
        """Play one hand; the exit status."""
        state = brisca.new_game(rules, seed=self.seed)
        self._introduce(state, f"{self.args.preset}, seed {self.seed}")
        try:
            final = self._hand(state)
        except Abandoned as error:
            self._leave(error, [error.state])
            return 1
        print("\n" + "\n".join(describe_result(final, self.you)))
        self._save([final], finished=True)
        return 0

    def match(self, rules: Rules) -> int:
        """Play a whole match, hand after hand, waiting for the player between them."""
        match = brisca.new_match(rules, seed=self.seed)
        assert match.state is not None
        self._introduce(
            match.state,
            f"{self.args.preset} match, seed {self.seed}, {match_target_text(rules)}",
        )
        played: list[State | None] = []
        while match.state is not None:
            state = match.state
            number = match.hand_number + 1
            if played:
                print(f"\n== hand {number} ==")
                print("\n".join(describe_deal(state, self.you, style=self.style)))
            try:
                final = self._hand(state)
            except Abandoned as error:
                self._leave(error, [*played, error.state])
                return 1
            played.append(final)
            print("\n" + "\n".join(describe_result(final, self.you)))
            match = match_with_hand(match, final)
            print("\n".join(standings_lines(brisca.observe(match, self.you))))
            if match.state is not None:
                answer = _read_line(self.inp, self.out, "press Enter for the next hand (or quit): ")
                if answer is None or answer.lower() in ("quit", "exit"):
                    why = (
                        "input ended before the match did" if answer is None else "match abandoned"
                    )
                    self._leave(Abandoned(why), played)
                    return 1
        print("\n" + "\n".join(match_result_lines(brisca.result(match), self.you)))
        self._save(played, finished=True)
        return 0

    def _introduce(self, state: State, title: str) -> None:
        """Who the player is and what it may type, then the first deal."""
        you = self.you
        view = brisca.observe(state, you)
        partners = [s for side in view.sides if you in side for s in side if s != you]
        company = ""
        if partners:
            plural = "s" if len(partners) > 1 else ""
            company = f", with seat{plural} {'+'.join(map(str, partners))}"
        print(f"{title}: you are seat {you}{company}, against {self.args.opponents} bots.")
        print(answer_hint(state.rules))
        print("\n".join(describe_deal(state, you, style=self.style)))

    def _hand(self, state: State) -> State:
        """Play `state` to the end of its hand, the player at its seat, telling it as it goes.

        Raises:
            Abandoned: the player left.
        """
        you, out = self.you, self.out
        if all(you not in side for side in state.sides):
            print("You sit out this hand: watch it.")
        while state.to_act is not None:
            seat = state.to_act
            legal = brisca.legal_actions(state)
            if seat == you:
                _show_turn(brisca.observe(state, you), legal, out, self.style)
                after, events, _ = _read_choice(state, you, legal, self.inp, out, self.style)
            else:
                action = self.bots[seat](brisca.observe(state, seat), legal)
                after, events = brisca.step(state, action)
            print("\n".join(narrate(after, events, you, plays=True, style=self.style)))
            state = after
        return state

    def _leave(self, error: Abandoned, hands: Sequence[State | None]) -> None:
        """Say why the game ended early, and save what was played."""
        print(f"\nbrisca: {error} (deal it again with --seed {self.seed})", file=sys.stderr)
        self._save([h for h in hands if h is not None], finished=False)

    def _save(self, hands: Sequence[State], *, finished: bool) -> None:
        """Write the hands to the file of ``--out``, a game record a line."""
        if self.save is None:
            return
        seats = range(len(self.bots))
        players = ["you" if seat == self.you else self.args.opponents for seat in seats]
        for hand in hands:
            records.dump(records.record_game(hand, players=players), self.save)
            self.save.write("\n")
        self.save.flush()  # a failed write is said before "saved"
        what = "the hand" if len(hands) == 1 else f"the {len(hands)} hands"
        if not finished:
            what += " so far" if len(hands) == 1 else ", the last unfinished"
        print(
            f"saved {what} to {clean(self.args.out)}", file=sys.stdout if finished else sys.stderr
        )
