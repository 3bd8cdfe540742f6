"""The ``brisca`` command: play, simulate, replay, validate and look up the rules.

It is installed with the library; the ``cli`` extra, ``pip install 'brisca[cli]'``,
adds only the progress bar of ``brisca simulate`` (tqdm), and every command works
without it. ``python -m brisca`` runs the same command. Subcommands:

- ``brisca play``: a hand in the terminal against the bots;
- ``brisca simulate``: many games between bots, with a summary (:mod:`brisca.runs.simulate`),
  here or on a Ray cluster (:mod:`brisca.runs.ray`);
- ``brisca arena A B``: two bots over duplicate deals, with the statistics
  (:mod:`brisca.cli.arena`);
- ``brisca replay FILE`` and ``brisca validate FILE``: game records;
- ``brisca serve``: the web table and its game server (:mod:`brisca.cli.serve`,
  with the ``serve`` extra);
- ``brisca rules [PRESET]``: the presets, or one preset's every option;
- ``brisca show``: play out a seeded hand between random players and show it
  trick by trick (also ``brisca --preset NAME --seed N`` with no subcommand).

Exit status: 0 on success, 1 when a game or record fails (an invalid record,
input that ended mid-game), 2 on a usage error.

On a terminal, suits show in colour with their symbols; not when the output is
not a terminal, nor when ``NO_COLOR`` is set. Text read from files or typed in
is shown with its control characters escaped, so that it cannot drive the terminal.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import enum
import importlib
import inspect
import itertools
import json
import os
import re
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import IO, Any, TextIO

import attrs

import brisca
from brisca.agents.bots import BOTS, LEVELS, Bot, RandomBot, bot_seed, make_bot
from brisca.cli import arena as cli_arena
from brisca.cli import serve as cli_serve
from brisca.game.actions import (
    Action,
    Bid,
    BidRank,
    CallCard,
    ClaimBlackHand,
    NameTrump,
    Pass,
    Play,
    Signal,
    Sing,
    Swap,
    parse_action,
)
from brisca.game.errors import BriscaError, IllegalActionError, NotationError, StateError, describe
from brisca.game.events import (
    Announced,
    AuctionWon,
    BlackHandClaimed,
    CardPlayed,
    CardsDrawn,
    Event,
    PartnerRevealed,
    Signalled,
    Swapped,
    TrickWon,
    TrumpRevealed,
    events_for,
)
from brisca.game.jsonio import parse
from brisca.game.rules import Rules
from brisca.game.state import Observation, State
from brisca.runs import simulate
from brisca.runs.stats import wilson_interval

__all__ = [
    "BOTS",
    "STYLE",
    "Style",
    "changed_options",
    "clean",
    "describe_deal",
    "describe_hand",
    "describe_result",
    "format_rules",
    "main",
    "narrate",
    "option_choices",
    "option_docs",
    "option_text",
    "preset_name",
    "unused_options",
    "wilson_interval",
]


INSTALL_HINT = "pip install 'brisca[cli]'"
SUBCOMMANDS = ("play", "simulate", "replay", "validate", "rules", "show", "arena", "serve")


def clean(text: str) -> str:
    """`text` with every non-printing character escaped (``\\x1b``, ``\\u202e``, ``\\n``).

    What the command echoes from a file or from its input goes through this, so
    that escape sequences in a record cannot reach the terminal.

    >>> clean("3C\\x1b[2J")
    '3C\\\\x1b[2J'
    """
    if text.isprintable():
        return text
    return "".join(
        ch if ch.isprintable() or ch == " " else ch.encode("unicode_escape").decode("ascii")
        for ch in text
    )


#: Suit colours of the Spanish pack (ANSI codes) and the French symbols the notation reads.
_SUIT_COLOURS = {"O": "33", "C": "31", "E": "34", "B": "32"}
_SUIT_SYMBOLS = {"O": "\u2666", "C": "\u2665", "E": "\u2660", "B": "\u2663"}


@attrs.frozen
class Style:
    """How cards are drawn: in colour, and with suit symbols, on a terminal that supports it."""

    colour: bool = False
    symbols: bool = False

    @classmethod
    def for_stream(cls, stream: IO[str], environ: Any = None) -> Style:
        """The style for `stream`: plain unless it is a terminal and ``NO_COLOR`` is unset."""
        env = os.environ if environ is None else environ
        try:
            tty = stream.isatty()
        except (AttributeError, ValueError):  # a closed or odd stream
            tty = False
        if not tty or env.get("NO_COLOR") or env.get("TERM") == "dumb":
            return cls()
        try:
            "".join(_SUIT_SYMBOLS.values()).encode(getattr(stream, "encoding", None) or "ascii")
            symbols = True
        except (LookupError, UnicodeEncodeError):
            symbols = False
        colour = os.name != "nt" or "WT_SESSION" in env or "ANSICON" in env
        return cls(colour, symbols)

    def card(self, card: brisca.Card) -> str:
        """The card's code, coloured by suit and followed by its suit's symbol when enabled."""
        text = card.code
        suit = card.suit.value
        if self.symbols:
            text += _SUIT_SYMBOLS[suit]
        if self.colour:
            text = f"\x1b[{_SUIT_COLOURS[suit]}m{text}\x1b[0m"
        return text


#: The style in use: plain by default; `main` picks one for standard output.
STYLE = Style()


def _cards(cards: Sequence[brisca.Card]) -> str:
    return " ".join(STYLE.card(c) for c in cards)


class Usage(Exception):
    """A usage error: the message is shown and the command exits with status 2."""


class Abandoned(Exception):
    """The player left the game: the message is shown and the command exits with status 1."""


# ---------------------------------------------------------------------------
# Rules options, their documentation and values (also used by the docs site)


def option_docs() -> dict[str, str]:
    """Each `Rules` option's documentation, from the ``#:`` comments above its field.

    Options without such a comment map to ``""``; if the source cannot be read
    (a frozen install), every option does.
    """
    docs = {field.name: "" for field in attrs.fields(Rules)}
    try:
        source = inspect.getsource(Rules)
    except (OSError, TypeError):
        return docs
    pending: list[str] = []
    for line in source.splitlines():
        stripped = line.strip()
        if stripped.startswith("#:"):
            pending.append(stripped[2:].strip())
            continue
        found = re.match(r"(\w+)\s*:", stripped)
        if found and found.group(1) in docs and pending:
            docs[found.group(1)] = " ".join(pending)
        pending = []
    return docs


def option_text(value: object) -> str:
    """An option's value as it is written in ``Rules(...)``: ``'spanish48'``, ``['2B']``."""
    if isinstance(value, enum.Enum):
        return repr(value.value)
    if isinstance(value, tuple):  # cards by their codes, numbers as they are
        return repr([item.code if isinstance(item, brisca.Card) else item for item in value])
    return repr(value)


def option_choices(name: str) -> str:
    """The values an option takes, such as ``'free' | 'arrastre_after_stock'``."""
    kind = attrs.fields_dict(Rules)[name].type
    default = getattr(Rules(), name)
    if isinstance(default, enum.Enum):
        return " | ".join(repr(member.value) for member in type(default))
    if isinstance(default, bool) or kind in ("bool", bool):
        return "True | False"
    if isinstance(default, tuple):
        return "a list of card codes" if "Card" in str(kind) else str(kind)
    return "an int" if isinstance(default, int) else str(kind)


def preset_name(rules: Rules) -> str | None:
    """The name of the preset equal to `rules`, if there is one."""
    return next((name for name, value in brisca.PRESETS.items() if value == rules), None)


def unused_options(rules: Rules) -> dict[str, str]:
    """The options that make no difference under `rules`, each with the reason.

    ``sit_out`` when every seat plays, the swap options when swaps are off, and so
    on: the engine never reads them, whatever their value.
    """
    unused: dict[str, str] = {}

    def mark(names: Sequence[str], why: str) -> None:
        for name in names:
            unused.setdefault(name, why)

    if rules.active_players == rules.num_players:
        mark(["sit_out"], "every seat plays")
    if not rules.turns_card:
        mark(["trump_visibility"], "no card is turned")
        if rules.deal_all:  # without a stock, the shuffle's order is the deal's
            mark(["trump_card_position"], "no card is turned and deal_all=True")
    swaps = [f.name for f in attrs.fields(Rules) if f.name.startswith("swap_")]
    if not rules.swap_enabled:
        mark([n for n in swaps if n != "swap_enabled"], "swap_enabled=False")
    if rules.play_obligation is brisca.PlayObligation.FREE:
        names = [f.name for f in attrs.fields(Rules) if f.name.startswith("arrastre_")]
        mark(names, "play_obligation='free'")
    if rules.black_hand is brisca.BlackHand.OFF:
        mark(["black_hand_claim"], "black_hand='off'")
    if rules.match_mode is brisca.MatchMode.SINGLE_HAND:
        mark(["match_target"], "match_mode='single_hand'")
    if rules.match_mode is not brisca.MatchMode.GAME_POINTS:
        mark(["margin_points", "capote_definition"], "match_mode is not 'game_points'")
    elif not rules.margin_points:
        mark(["capote_definition"], "margin_points=False")
    if rules.trump_selection is not brisca.TrumpSelection.AUCTION:
        mark(["bid_minimum", "bid_step", "subasta_scoring"], "no subastada auction")
    if rules.trump_selection is not brisca.TrumpSelection.CALLED_CARD:
        names = [f.name for f in attrs.fields(Rules) if f.name.startswith("chiamata_")]
        mark(names, "no chiamata auction")
    if rules.signals is brisca.Signals.NONE:
        mark(["signal_vocabulary", "signal_timing", "signal_honesty"], "signals='none'")
    return unused


def format_rules(rules: Rules, name: str | None = None) -> list[str]:
    """The options of `rules` that matter, each with its value and documentation.

    Options that differ from ``Rules()`` are marked with ``*``; those that make no
    difference under these rules (:func:`unused_options`) are only named, at the end.
    """
    default = Rules()
    docs = option_docs()
    unused = unused_options(rules)
    title = name or preset_name(rules) or "rules"
    lines = [
        f"{title}: {rules.num_players} players, {len(rules.cards)} cards, "
        f"{rules.tricks_per_hand} tricks a hand (* differs from Rules())"
    ]
    for field in attrs.fields(Rules):
        if field.name in unused:
            continue
        value = getattr(rules, field.name)
        mark = "  *" if value != getattr(default, field.name) else ""
        lines.append(f"  {field.name} = {option_text(value)}{mark}")
        if docs[field.name]:
            lines.append(f"      {docs[field.name].replace('``', '`')}")
    if unused:
        reasons: dict[str, list[str]] = {}
        for option, why in unused.items():
            reasons.setdefault(why, []).append(option)
        lines.append("Not shown, as they make no difference here:")
        lines += [f"  {', '.join(options)} ({why})" for why, options in reasons.items()]
    return lines


def changed_options(rules: Rules) -> list[str]:
    """The options in which `rules` differs from ``Rules()``, as ``name=value`` texts."""
    default = Rules()
    return [
        f"{f.name}={option_text(getattr(rules, f.name))}"
        for f in attrs.fields(Rules)
        if getattr(rules, f.name) != getattr(default, f.name)
    ]


def _cmd_rules(args: argparse.Namespace) -> int:
    if args.preset is None:
        width = max(map(len, brisca.PRESETS))
        print(f"{'preset':<{width}}  differs from Rules() in")
        for name, rules in brisca.PRESETS.items():
            print(f"{name:<{width}}  {', '.join(changed_options(rules)) or 'the defaults'}")
        print("\n`brisca rules PRESET` shows every option of one preset.")
        return 0
    print("\n".join(format_rules(_preset(args.preset), args.preset)))
    return 0


# ---------------------------------------------------------------------------
# Describing a hand as it goes


def _name(seat: int, you: int | None) -> str:
    return "you" if seat == you else f"seat {seat}"


def _card(card: brisca.Card) -> str:
    return f"{STYLE.card(card)} ({card.spanish_name})"


def _trick_line(number: int, trick: brisca.Trick, you: int | None) -> str:
    cards = "  ".join(f"{seat}:{STYLE.card(card)}" for seat, card in trick.cards)
    shown = len("  ".join(f"{seat}:{card}" for seat, card in trick.cards))
    pad = " " * max(0, 30 - shown - (len(trick.cards) if STYLE.symbols else 0))
    return f"trick {number:>2}: {cards}{pad} {_name(trick.winner, you)} won {trick.points:>2}"


def describe_deal(state: State, you: int | None = None) -> list[str]:
    """The header of a hand: dealer, sides and trump.

    Told to seat `you`, only what that seat may know; told to nobody (a record
    being replayed), the whole truth, every hand included.
    """
    if you is not None:
        view = brisca.observe(state, you)
        sides = ", ".join("+".join(map(str, side)) for side in view.sides)
        return [f"dealer: seat {state.dealer}; sides: {sides}", _trump_line(view)]
    sides = ", ".join("+".join(map(str, side)) for side in state.sides)
    trump = state.trump.spanish_name if state.trump else "not chosen yet"
    if state.trump_card is not None:
        covered = state.rules.trump_visibility is brisca.TrumpVisibility.CUBIERTA
        trump += f" (turned card {STYLE.card(state.trump_card)}{', covered' if covered else ''})"
    lines = [f"dealer: seat {state.dealer}; sides: {sides}", f"trump: {trump}"]
    lines += [f"seat {seat} holds: {_cards(hand)}" for seat, hand in enumerate(state.hands) if hand]
    return lines


def _trump_line(view: Observation) -> str:
    if view.trump_card is not None:
        suit = view.trump.spanish_name if view.trump else "?"
        return f"trump: {suit} (turned card {STYLE.card(view.trump_card)})"
    if view.trump is None:
        covered = view.rules.trump_visibility is brisca.TrumpVisibility.CUBIERTA
        return "trump: covered (cubierta)" if covered else "trump: not chosen yet"
    drawn = ""
    if view.trump_card_drawn is not None:
        seat, card = view.trump_card_drawn
        drawn = f" (turned card {STYLE.card(card)}, drawn by seat {seat})"
    return f"trump: {view.trump.spanish_name}{drawn}"


def _verb(seat: int, you: int | None, third: str, second: str) -> str:
    """The subject and its verb: ``seat 1 names`` but ``you name``."""
    return f"you {second}" if seat == you else f"seat {seat} {third}"


def narrate(
    after: State,
    events: Iterable[Event],
    you: int | None = None,
    plays: bool = False,
) -> list[str]:
    """The `events` of one step (from :func:`brisca.step`), in words.

    With seat `you`, only what that seat saw: the events as it sees them
    (:func:`brisca.game.events.events_for`), and from `after`, the state the step led
    to, only its observation. Without `you`, everything (a hand shown or replayed).
    `after` supplies what an event names but does not hold: the cards of the trick
    it names, and the trump a cante or a black hand is worth.

    Swaps, signals, black hands, auction calls, the trump named or shown, cantes,
    the partner revealed and completed tricks always; each card played, and the
    cards seat `you` drew, when `plays` is true. The hand's end is left to
    :func:`describe_result`.

    Raises:
        StateError: `after` is not a State, an event is not a brisca event, or an
            event names a trick `after` does not have.
    """
    if type(after) is not State:
        raise StateError(f"expected a brisca.State, got {describe(after)}")
    try:
        seen = tuple(events)
    except TypeError:
        raise StateError(f"expected brisca events, got {describe(events)}") from None
    if not all(isinstance(event, Event) for event in seen):
        raise StateError("expected brisca events")
    table: State | Observation = after
    if you is not None:
        seen = events_for(you, seen)
        table = brisca.observe(after, you)
    named = any(
        isinstance(e, Announced) and isinstance(parse_action(e.action), (NameTrump, CallCard))
        for e in seen
    )
    lines: list[str] = []
    drawn: list[brisca.Card] = []
    drawn_at: int | None = None
    for event in seen:
        if isinstance(event, CardPlayed):
            if plays:
                lines.append(f"{_name(event.seat, you)} played {_card(event.card)}")
        elif isinstance(event, TrickWon):
            if not 0 <= event.trick < len(table.tricks):
                raise StateError(f"trick {event.trick} is not among the tricks of the state")
            lines.append(_trick_line(event.trick + 1, table.tricks[event.trick], you))
        elif isinstance(event, CardsDrawn):
            if plays and event.seat == you and event.card is not None:
                if drawn_at is None:  # one line for all the cards the seat draws
                    drawn_at = len(lines)
                    lines.append("")
                drawn.append(event.card)
                lines[drawn_at] = f"you drew {', '.join(map(_card, drawn))}"
            if event.public and event.card is not None:
                lines.append(f"{_name(event.seat, you)} took the turned card {event.card}")
        elif isinstance(event, TrumpRevealed):
            if not named:  # a named or called trump is told with its call
                shown = f" (turned card {STYLE.card(event.card)})" if event.card else ""
                lines.append(f"the trump is shown: {event.suit.spanish_name}{shown}")
        elif isinstance(event, Swapped):
            who = _name(event.seat, you)
            lines.append(f"{who} swapped {event.given} for the turned card {event.taken}")
        elif isinstance(event, Signalled):
            lines.append(f"{_name(event.seat, you)} signalled {event.signal}")
        elif isinstance(event, BlackHandClaimed):
            suit = table.trump.spanish_name if table.trump else "trumps"
            shows = _verb(event.seat, you, "shows", "show")
            lines.append(f"{shows} a black hand: the 1, 3 and 12 of {suit}")
        elif isinstance(event, Announced):
            lines.append(_announcement(event, table.trump, you))
        elif isinstance(event, AuctionWon):
            wins = _verb(event.seat, you, "wins", "win")
            lines.append(f"{wins} the auction with {event.bid}")
        elif isinstance(event, PartnerRevealed):
            lines.append(f"the called card shows the partner: {_name(event.seat, you)}")
    return lines


def _announcement(event: Announced, trump: brisca.Suit | None, you: int | None) -> str:
    """A public call in words: a bid, the trump named or called, a cante."""
    action = parse_action(event.action)
    seat = event.seat
    if isinstance(action, NameTrump):
        names = _verb(seat, you, "names", "name")
        return f"{names} the trump: {action.suit.spanish_name} are trumps"
    if isinstance(action, CallCard):
        calls = _verb(seat, you, "calls", "call")
        return f"{calls} {action.card}: {action.card.suit.spanish_name} are trumps"
    if isinstance(action, Sing):
        sings = _verb(seat, you, "sings", "sing")
        points = 40 if action.suit is trump else 20
        return f"{sings} {points} in {action.suit.spanish_name}"
    return f"{_name(seat, you)}: {action}"  # a bid or a pass


def describe_result(state: State, you: int | None = None) -> list[str]:
    """The points of each side and who won."""
    outcome = brisca.result(state)
    named = [_side_name(side, you) for side in outcome.sides]
    lines = ["points: " + ", ".join(f"{n} {p}" for n, p in zip(named, outcome.points, strict=True))]
    if outcome.black_hand is not None:
        lines.append(f"{_name(outcome.black_hand, you)} won with a black hand")
    if outcome.void:
        lines.append("result: a void hand, nobody played")
    elif outcome.winner is None:
        verdict = "replay" if outcome.replay else "no winner"
        lines.append(f"result: a tie ({state.rules.tie_rule.value}: {verdict})")
    else:
        winner = named[outcome.winner]
        verb = "wins" if winner.startswith("seat ") else "win"
        lines.append(f"result: {winner} {verb}")
    return lines


def _side_name(side: tuple[int, ...], you: int | None) -> str:
    if you in side:
        return "you" if len(side) == 1 else f"you+{'+'.join(str(s) for s in side if s != you)}"
    return f"seat {side[0]}" if len(side) == 1 else f"seats {'+'.join(map(str, side))}"


def describe_hand(state: State, moves_seed: int) -> list[str]:
    """Play `state` to the end with random legal moves and describe it line by line."""
    chooser = RandomBot(moves_seed)
    lines = describe_deal(state)
    while not state.is_over:
        seat: int = state.to_act  # type: ignore[assignment]
        action = chooser(brisca.observe(state, seat), brisca.legal_actions(state))
        state, events = brisca.step(state, action)
        lines += narrate(state, events)
    return lines + describe_result(state)


def _cmd_show(args: argparse.Namespace) -> int:
    state = brisca.new_game(_preset(args.preset), seed=args.seed, dealer=args.dealer)
    assert state.seed is not None
    print(f"{args.preset}, seed {state.seed}")
    print("\n".join(describe_hand(state, state.seed + 1)))
    return 0


# ---------------------------------------------------------------------------
# brisca play


def _action_text(action: Action) -> str:
    if isinstance(action, Play):
        return _card(action.card)
    if isinstance(action, Swap):
        return f"swap {STYLE.card(action.card)} for the turned card"
    if isinstance(action, ClaimBlackHand):
        return "claim: show your black hand and win the round"
    if isinstance(action, Signal):
        return f"signal {action.name} to your partner"
    return str(action)


#: The menu lists at most this many point bids; any other bid is typed, such as ``bid 75``.
MENU_BIDS = 5


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


def _show_turn(view: Observation, legal: Sequence[Action], out: TextIO) -> None:
    rules = view.rules
    number = len(view.tricks) + 1
    points = ", ".join(
        f"{_side_name(side, view.seat)} {p}"
        for side, p in zip(view.sides, view.side_points, strict=True)
    )
    lines = [
        "",
        f"-- trick {number} of {rules.tricks_per_hand} -- {_trump_line(view)} "
        f"-- stock {view.stock_size} -- points: {points}",
    ]
    lines += _auction_lines(view)
    for partner, dealt in view.partner_hands:
        lines.append(f"seat {partner} was dealt: {_cards(dealt)}")
    if view.signals:
        lines.append("signals: " + ", ".join(f"seat {s.seat} {s.signal}" for s in view.signals))
    if view.trick:
        table = ", ".join(f"{_name(seat, view.seat)} {_card(c)}" for seat, c in view.trick)
        lines.append(f"on the table: {table}")
    elif any(isinstance(a, Play) for a in legal):
        lines.append("you lead")
    lines.append(f"your hand: {_cards(view.hand)}")
    menu, note = _menu(legal)
    width = len(str(len(menu)))
    lines += [f"  {k:>{width}}) {_action_text(a)}" for k, a in enumerate(menu, 1)]
    if note is not None:
        lines.append(f"  {' ' * width}  {note}")
    print("\n".join(lines), file=out)


def _help_lines(legal: Sequence[Action]) -> list[str]:
    """What each kind of answer does, for the kinds of action `legal` offers now."""
    lines = ["", "Answer with:", "  a menu number, such as 1;"]
    kinds = {type(a): a for a in legal}
    if Play in kinds:
        lines.append(
            f"  a card you hold: its code, rank then suit (O oros, C copas, E espadas, "
            f"B bastos), such as {kinds[Play]}, or its name, such as 'cuatro de copas';"
        )
    if Swap in kinds:
        lines.append(f"  '{kinds[Swap]}': give that card of trumps and take the turned card;")
    if ClaimBlackHand in kinds:
        lines.append("  'claim': show a black hand (the 1, 3 and 12 of trumps) and win the round;")
    if Signal in kinds:
        lines.append(f"  '{kinds[Signal]}': a seña to your partner (see `brisca rules`);")
    bids = [a.points for a in legal if isinstance(a, Bid)]
    if bids:
        lines.append(f"  'bid N': bid N points, from {min(bids)} to {max(bids)}; higher bids win;")
    if BidRank in kinds:
        lines.append(
            "  'bid rank R': bid a rank, each bid lower in trick order than the last, "
            f"such as '{kinds[BidRank]}';"
        )
    if Pass in kinds:
        lines.append("  'pass': leave the auction for good;")
    if NameTrump in kinds:
        lines.append("  'trump X': name the trump suit, X one of O, C, E, B;")
    if CallCard in kinds:
        lines.append(
            f"  'call CARD', such as '{kinds[CallCard]}': its suit becomes trumps and "
            "its holder your secret partner;"
        )
    if Sing in kinds:
        lines.append(
            f"  '{kinds[Sing]}': sing the Rey and Caballo of a suit, 40 in trumps, 20 otherwise;"
        )
    lines.append("  'help' shows this and the table again; 'quit' leaves the game.")
    return lines


def _auction_lines(view: Observation) -> list[str]:
    """The auction, the contract and the cantes, as far as the seat may know them."""
    lines = []
    contract = view.contract
    if contract is None and view.bids:
        lines.append("bids: " + ", ".join(f"{_name(b.seat, view.seat)} {b.bid}" for b in view.bids))
    if contract is not None:
        text = f"contract: {_name(contract.declarer, view.seat)} {contract.bid}"
        if contract.called is not None:
            partner = "secret" if contract.partner is None else _name(contract.partner, view.seat)
            text += f", called {contract.called} (partner: {partner})"
        lines.append(text)
    if view.cantes:
        lines.append(
            "cantes: "
            + ", ".join(
                f"{_name(c.seat, view.seat)} {c.points} in {c.suit.spanish_name}"
                for c in view.cantes
            )
        )
    return lines


def _read_choice(
    state: State, you: int, legal: Sequence[Action], inp: IO[str], out: TextIO
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
            print("\n".join(_help_lines(legal)), file=out)
            _show_turn(brisca.observe(state, you), legal, out)
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


def _open_out(path: str) -> TextIO:
    """`path` opened for writing, or a usage error saying why it cannot be."""
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as error:
        raise Usage(f"cannot write {clean(path)}: {error.strerror or error}") from None


def _cmd_play(args: argparse.Namespace) -> int:
    rules = _preset(args.preset)
    n = rules.num_players
    if not 0 <= args.seat < n:
        raise Usage(f"--seat must be from 0 to {n - 1} in {args.preset}")
    if args.level is not None and args.opponents is not None:
        raise Usage("give --level or --opponents, not both")
    if args.opponents is None:
        args.opponents = LEVELS[args.level or "normal"]
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(8), "big")
    bots = [make_bot(args.opponents, bot_seed(seed, seat)) for seat in range(n)]
    save = _open_out(args.out) if args.out is not None else None
    try:
        return _play(args, rules, seed, bots, save)
    finally:
        if save is not None:
            save.close()


def _play(
    args: argparse.Namespace, rules: Rules, seed: int, bots: list[Bot], save: TextIO | None
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
    print("\n".join(describe_deal(state, you)))
    while state.to_act is not None:
        seat = state.to_act
        legal = brisca.legal_actions(state)
        if seat == you:
            _show_turn(brisca.observe(state, you), legal, out)
            try:
                after, events, action = _read_choice(state, you, legal, sys.stdin, out)
            except Abandoned as error:
                print(f"\nbrisca: {error} (deal it again with --seed {seed})", file=sys.stderr)
                _save(save, args, initial, actions, finished=False)
                return 1
        else:
            action = bots[seat](brisca.observe(state, seat), legal)
            after, events = brisca.step(state, action)
        print("\n".join(narrate(after, events, you, plays=True)))
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
    records = _records()
    seats = range(initial.rules.num_players)
    players = ["you" if seat == args.seat else args.opponents for seat in seats]
    records.dump(records.record_game(initial, actions, players=players), save)
    save.write("\n")
    what = "the hand" if finished else "the hand so far"
    print(f"saved {what} to {clean(args.out)}", file=sys.stdout if finished else sys.stderr)


# ---------------------------------------------------------------------------
# brisca simulate (the games themselves are brisca.runs.simulate's)


class _NoBar:
    """Stands in for the progress bar when tqdm, the cli extra, is not installed."""

    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress(total: int, quiet: bool) -> Any:
    if quiet:
        return _NoBar()
    try:
        tqdm = importlib.import_module("tqdm").tqdm  # the cli extra
    except ImportError:
        print(f"brisca: no progress bar without the cli extra ({INSTALL_HINT})", file=sys.stderr)
        return _NoBar()
    return tqdm(total=total, unit="game", file=sys.stderr, dynamic_ncols=True)


def _ray_backend() -> Any:
    """The `brisca.runs.ray` module, or a usage error naming the extra to install."""
    try:
        return importlib.import_module("brisca.runs.ray")
    except ImportError as error:
        raise Usage(f"--backend ray needs Ray, which is not installed: {error}") from None


def _cmd_simulate(args: argparse.Namespace) -> int:
    rules = _preset(args.preset)
    n = rules.num_players
    if args.n < 1:
        raise Usage("-n must be at least 1")
    if args.jobs is not None and args.jobs < 1:
        raise Usage("--jobs must be at least 1")
    if args.address is not None and args.backend != "ray":
        raise Usage("--address names a Ray cluster, for --backend ray")
    ray = _ray_backend() if args.backend == "ray" else None
    names = tuple(b.strip() for b in args.bots.split(","))
    seating = tuple(names[seat % len(names)] for seat in range(n))
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(8), "big")
    run = simulate.tasks(args.preset, seating, args.n, seed, keep_records=args.out is not None)
    out = _open_out(args.out) if args.out is not None else None  # closed below
    write = None if out is None else lambda game: out.write(f"{game.record}\n")
    lost: tuple[type[Exception], ...] = (ray.ShardError,) if ray is not None else ()
    try:
        if ray is None:
            games, elapsed = _gather(args, simulate.run_local(run, args.jobs or 1), write)
            note = ""
        else:
            # Ray prints its own news (a worker died) on standard output: not the summary's.
            with contextlib.redirect_stdout(sys.stderr):
                games, elapsed, note = _on_ray(args, ray, run, write)
    except lost as error:  # games lost on the cluster: no summary
        print(f"brisca: {clean(str(error))}", file=sys.stderr)
        return 1
    finally:
        if out is not None:
            out.close()
    print("\n".join(simulate.summary(args.preset, seed, seating, games, elapsed, note)))
    return 0


def _gather(
    args: argparse.Namespace,
    chunks: Iterable[simulate.Chunk],
    write: Callable[[simulate.Game], object] | None,
) -> tuple[list[simulate.Game], float]:
    """The games in task order, with the progress bar, and the seconds they took."""
    start = time.perf_counter()
    bar = _progress(args.n, args.quiet)
    try:
        games = simulate.gather(chunks, args.n, on_game=write, on_progress=bar.update)
    finally:
        bar.close()
    return games, time.perf_counter() - start


def _on_ray(
    args: argparse.Namespace,
    ray: Any,
    run: list[simulate.Task],
    write: Callable[[simulate.Game], object] | None,
) -> tuple[list[simulate.Game], float, str]:
    """The games played on Ray, the seconds they took, and what starting Ray took."""
    cluster = ray.connect(args.address)
    try:
        if not args.quiet:
            print(f"brisca: {cluster}", file=sys.stderr)
        games, elapsed = _gather(args, ray.run(run, in_flight=args.jobs), write)
    finally:
        cluster.close()
    note = f"; Ray took {cluster.seconds:.2f} s more to start" if cluster.owned else ""
    return games, elapsed, note


# ---------------------------------------------------------------------------
# brisca replay and brisca validate


def _records() -> Any:
    """The `brisca.formats.records` module, imported on first use."""
    try:
        return importlib.import_module("brisca.formats.records")
    except ImportError:
        raise Usage(
            "game records need brisca.formats.records, which this version of brisca does not have"
        ) from None


#: The documents other than game records that `validate` and `replay` recognise, by
#: their ``"format"``: what each is, and what reads it.
OTHER_DOCUMENTS = {
    "brisca-state": (
        "a saved game state (written by brisca.dumps(state))",
        "brisca.loads reads it in Python, and `brisca validate` checks it",
    ),
    "brisca-match": (
        "a saved match (written by brisca.dumps(match))",
        "brisca.loads or brisca.loads_match reads it in Python, and `brisca validate` checks it",
    ),
}


@attrs.frozen
class _Document:
    """One JSON document of a file, as `validate` and `replay` see it."""

    label: str
    text: str
    #: Its ``"format"`` when it names one, else ``None`` (a record or garbage).
    format: str | None


def _read_text(path: str) -> tuple[str | None, str]:
    """The text of `path`, or ``(None, why)`` when it is not UTF-8 text.

    Raises:
        Usage: the file cannot be read at all (missing, a directory, no permission).
    """
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise Usage(f"cannot read {clean(path)}: {error.strerror or error}") from None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None, "not a record: the file is UTF-16 text, and records are UTF-8 JSON"
    try:
        return data.decode("utf-8-sig"), ""
    except UnicodeDecodeError as error:
        return None, (
            f"not a record: the file is not UTF-8 text (byte 0x{data[error.start]:02x} "
            f"at offset {error.start}); records are UTF-8 JSON"
        )


def _format_of(text: str) -> str | None:
    """The ``"format"`` a JSON document names, or ``None``."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    found = data.get("format") if isinstance(data, dict) else None
    return found if isinstance(found, str) else None


def _documents(path: str) -> list[_Document] | str:
    """The documents of a file: one JSON document, or one a line (JSON Lines).

    A string instead says why the file holds no documents at all.
    """
    text, why = _read_text(path)
    if text is None:
        return why
    try:
        json.loads(text)
        whole = True
    except (ValueError, RecursionError):
        whole = False
    lines = [(k, line) for k, line in enumerate(text.splitlines(), 1) if line.strip()]
    if whole or len(lines) < 2:
        return [_Document(path, text, _format_of(text))]
    return [_Document(f"{path}:{k}", line, _format_of(line)) for k, line in lines]


def _other_document(document: _Document) -> str | None:
    """What a document that is not a game record is, and what reads it; ``None`` for records."""
    records = _records()
    if document.format is None or document.format == records.FORMAT:
        return None
    if document.format in OTHER_DOCUMENTS:
        what, reader = OTHER_DOCUMENTS[document.format]
        return f"{what}, format {document.format!r}, not a game record; {reader}"
    return (
        f"a JSON document of format {clean(repr(document.format))}, "
        f"not a game record (format {records.FORMAT!r})"
    )


def _cmd_validate(args: argparse.Namespace) -> int:
    records = _records()
    documents = _documents(args.file)
    if isinstance(documents, str):
        print(f"{clean(args.file)}: invalid: {documents}")
        return 1
    bad = 0
    for document in documents:
        label = clean(document.label)
        other = _other_document(document)
        if other is not None:
            print(f"{label}: {other}")
            if document.format not in OTHER_DOCUMENTS:
                bad += 1
                continue
            try:
                brisca.loads(document.text)
            except BriscaError as error:
                bad += 1
                print(f"{label}: invalid: {clean(str(error))}")
            else:
                print(f"{label}: valid: brisca.loads reads it")
            continue
        problem = records.validate(document.text)
        if problem is not None:
            bad += 1
            where = ""
            if problem.index is not None:
                where = f"action {problem.index} ({clean(str(problem.action))}): "
            print(f"{label}: invalid: {where}{clean(problem.reason)}")
    if bad:
        return 1
    count = len(documents)
    kind = "record" if all(d.format not in OTHER_DOCUMENTS for d in documents) else "document"
    print(f"{clean(args.file)}: valid ({count} {kind}{'s' if count > 1 else ''})")
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    records = _records()
    documents = _documents(args.file)
    if isinstance(documents, str):
        print(f"brisca: {clean(args.file)}: {documents}", file=sys.stderr)
        return 1
    if args.game is not None:
        if not 1 <= args.game <= len(documents):
            raise Usage(f"--game must be from 1 to {len(documents)}")
        documents = [documents[args.game - 1]]
    failed = 0
    for k, document in enumerate(documents):
        label = clean(document.label)
        if k:
            print()
        print(label)
        other = _other_document(document)
        if other is not None:
            failed += 1
            print(f"brisca: {label}: {other}", file=sys.stderr)
            continue
        try:
            # Read the form only: the replay tells the hand up to a faulty action.
            _replay_one(records, records.GameRecord.from_dict(parse(document.text)))
        except BriscaError as error:
            failed += 1
            print(f"brisca: {label}: {clean(str(error))}", file=sys.stderr)
    return 1 if failed else 0


def _replay_one(records: Any, record: Any) -> None:
    """Show one record trick by trick, then check its recorded result.

    Raises:
        BriscaError: an action is illegal, or the recorded result is not the game's.
    """
    state = record.initial_state()
    name = preset_name(state.rules) or "custom rules"
    print(f"{name}, seed {state.seed}" if state.seed is not None else name)
    print("\n".join(describe_deal(state)))
    for index, text in enumerate(record.actions):
        try:
            state, events = brisca.step(state, parse_action(text))
        except BriscaError as error:  # as `brisca.formats.records.replay` words it
            raise type(error)(f"action {index} ({describe(text, typed=False)}): {error}") from None
        for line in narrate(state, events):
            print(line)
    if state.is_over:
        print("\n".join(describe_result(state)))
    problem = records.validate(record)  # the one check of a recorded result, as validate makes
    if problem is not None:
        raise BriscaError(problem.reason)
    if not state.is_over:
        print(f"unfinished: the record stops after {len(record.actions)} actions, mid-hand")


# ---------------------------------------------------------------------------
# The parser


def _preset(name: str) -> Rules:
    try:
        return brisca.preset(name)
    except BriscaError as error:
        raise Usage(f"{error}\nthe presets: {', '.join(brisca.PRESETS)}") from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="brisca",
        description="Brisca on the command line: play against bots, simulate, replay, "
        "validate, look up the rules.",
        epilog="With no subcommand, `brisca [--preset P] [--seed S]` runs `brisca show`.",
    )
    parser.add_argument("--version", action="version", version=f"brisca {brisca.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="play a hand against bots in the terminal")
    play.add_argument("--preset", default="spanish-2p", help="a preset (see `brisca rules`)")
    play.add_argument("--seat", type=int, default=0, help="your seat; seat 0 leads (default 0)")
    play.add_argument(
        "--level",
        choices=list(LEVELS),
        default=None,
        help="the bots' strength: "
        + ", ".join(f"{level} ({bot})" for level, bot in LEVELS.items())
        + "; normal when omitted",
    )
    play.add_argument(
        "--opponents", choices=sorted(BOTS), default=None, help="the bots by name, instead"
    )
    play.add_argument("--seed", type=_seed, default=None, help="a non-negative seed")
    play.add_argument("--out", default=None, help="save the hand to this file as a game record")

    sim = sub.add_parser("simulate", help="play many games between bots and summarise them")
    sim.add_argument("--preset", default="spanish-2p", help="a preset (see `brisca rules`)")
    sim.add_argument("-n", type=int, default=1000, help="how many games (default 1000)")
    sim.add_argument(
        "--bots",
        default="heuristic,random",
        help="bots by seat, comma-separated and repeated round the table (default "
        f"heuristic,random); the bots are: {', '.join(BOTS)}, or module:Class for your own",
    )
    sim.add_argument("--seed", type=_seed, default=None, help="a non-negative seed")
    sim.add_argument(
        "--jobs",
        type=int,
        default=None,
        help="worker processes (default 1); with --backend ray, the most shards at once "
        "(default twice the cluster's CPUs)",
    )
    sim.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local: this machine (default); ray: a Ray cluster (the ray extra)",
    )
    sim.add_argument(
        "--address",
        default=None,
        help="the Ray cluster for --backend ray, host:port (default $RAY_ADDRESS, "
        "else a local Ray instance)",
    )
    sim.add_argument("--out", default=None, help="write one game record per line to this file")
    sim.add_argument("-q", "--quiet", action="store_true", help="no progress bar")

    arena = sub.add_parser("arena", help="measure bot A against bot B over duplicate deals")
    cli_arena.add_arguments(arena)

    replay = sub.add_parser("replay", help="show a recorded game trick by trick")
    replay.add_argument("file", help="a game record, or JSON Lines of records")
    replay.add_argument("--game", type=int, default=None, help="only this record (from 1)")

    validate = sub.add_parser("validate", help="check a game record; exit 1 if it is invalid")
    validate.add_argument("file", help="a game record, or JSON Lines of records")

    rules = sub.add_parser("rules", help="list the presets, or show one's every option")
    rules.add_argument("preset", nargs="?", default=None)

    show = sub.add_parser("show", help="play out a hand between random players and show it")
    _show_options(show)

    serve = sub.add_parser("serve", help="serve the web table: play in a browser")
    cli_serve.add_arguments(serve)
    return parser


def _show_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--preset", default="spanish-2p", help="a preset (see `brisca rules`)")
    parser.add_argument("--seed", type=_seed, default=None, help="a non-negative seed")
    parser.add_argument("--dealer", type=int, default=None, help="the dealer's seat")


def _seed(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"a seed is a non-negative int, got {text!r}")
    return int(text)


def _legacy(argv: list[str]) -> list[str]:
    """The arguments with the pre-subcommand forms mapped: ``--list`` and bare options."""
    if (argv and argv[0] in SUBCOMMANDS) or any(a in ("-h", "--help", "--version") for a in argv):
        return argv
    if "--list" in argv:
        return ["rules"]
    return ["show", *argv]


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "play": _cmd_play,
    "simulate": _cmd_simulate,
    "arena": cli_arena.command,
    "replay": _cmd_replay,
    "validate": _cmd_validate,
    "rules": _cmd_rules,
    "show": _cmd_show,
    "serve": cli_serve.command,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``brisca`` command with `argv` (``sys.argv[1:]`` by default); the exit status."""
    global STYLE
    given = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    if given and not given[0].startswith("-") and given[0] not in SUBCOMMANDS:
        close = difflib.get_close_matches(given[0], SUBCOMMANDS, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        parser.print_usage(sys.stderr)
        print(
            f"brisca: unknown command '{clean(given[0])}'; the commands are: "
            f"{', '.join(SUBCOMMANDS)}{hint} (`brisca COMMAND --help` for one)",
            file=sys.stderr,
        )
        return 2
    args = parser.parse_args(_legacy(given))
    STYLE = Style.for_stream(sys.stdout)
    try:
        return COMMANDS[args.command](args)
    except (Usage, BriscaError) as error:  # messages may quote what the user gave
        print(f"brisca: {clean(str(error))}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into a command that stopped reading
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (nothing more is printed)
        return 1
    except KeyboardInterrupt:
        print("\nbrisca: interrupted", file=sys.stderr)
        return 130
