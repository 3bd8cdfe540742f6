"""The words shown to people: the rules' options, a hand told as it goes, and the
actions a player may answer with.

Cards are drawn in a :class:`Style` passed in, plain (:data:`PLAIN`) unless told
otherwise; text read from files or typed in goes through :func:`clean`.
"""

from __future__ import annotations

import enum
import inspect
import os
import re
from collections.abc import Iterable, Sequence
from typing import IO, Any

import attrs

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
from brisca.game.cards import Card, Suit
from brisca.game.engine import observe, result
from brisca.game.errors import StateError, describe
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
from brisca.game.presets import preset_name
from brisca.game.rules import (
    BlackHand,
    MatchMode,
    PlayObligation,
    Rules,
    Signals,
    TrumpSelection,
    TrumpVisibility,
)
from brisca.game.state import Observation, State, Trick

__all__ = [
    "PLAIN",
    "Style",
    "action_text",
    "announcement",
    "auction_lines",
    "card_text",
    "cards_text",
    "changed_options",
    "clean",
    "describe_deal",
    "describe_result",
    "format_rules",
    "help_lines",
    "narrate",
    "option_choices",
    "option_docs",
    "option_text",
    "seat_name",
    "side_name",
    "trick_line",
    "trump_line",
    "turn_lines",
    "unused_options",
]


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

    def card(self, card: Card) -> str:
        """The card's code, coloured by suit and followed by its suit's symbol when enabled."""
        text = card.code
        suit = card.suit.value
        if self.symbols:
            text += _SUIT_SYMBOLS[suit]
        if self.colour:
            text = f"\x1b[{_SUIT_COLOURS[suit]}m{text}\x1b[0m"
        return text


#: Cards as their codes alone, without colour or symbol: for files, pipes and tests.
PLAIN = Style()


def cards_text(cards: Sequence[Card], *, style: Style = PLAIN) -> str:
    """The cards' codes, separated by spaces: ``3C 11E 4O``."""
    return " ".join(style.card(c) for c in cards)


def card_text(card: Card, *, style: Style = PLAIN) -> str:
    """A card's code and its Spanish name: ``3C (Tres de Copas)``."""
    return f"{style.card(card)} ({card.spanish_name})"


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
        return repr([item.code if isinstance(item, Card) else item for item in value])
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
    if rules.play_obligation is PlayObligation.FREE:
        names = [f.name for f in attrs.fields(Rules) if f.name.startswith("arrastre_")]
        mark(names, "play_obligation='free'")
    if rules.black_hand is BlackHand.OFF:
        mark(["black_hand_claim"], "black_hand='off'")
    if rules.match_mode is MatchMode.SINGLE_HAND:
        mark(["match_target"], "match_mode='single_hand'")
    if rules.match_mode is not MatchMode.GAME_POINTS:
        mark(["margin_points", "capote_definition"], "match_mode is not 'game_points'")
    elif not rules.margin_points:
        mark(["capote_definition"], "margin_points=False")
    if rules.trump_selection is not TrumpSelection.AUCTION:
        mark(["bid_minimum", "bid_step", "subasta_scoring"], "no subastada auction")
    if rules.trump_selection is not TrumpSelection.CALLED_CARD:
        names = [f.name for f in attrs.fields(Rules) if f.name.startswith("chiamata_")]
        mark(names, "no chiamata auction")
    if rules.signals is Signals.NONE:
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


# ---------------------------------------------------------------------------
# Describing a hand as it goes


def seat_name(seat: int, you: int | None) -> str:
    """A seat as told to seat `you`: ``you``, or ``seat 2``."""
    return "you" if seat == you else f"seat {seat}"


def side_name(side: tuple[int, ...], you: int | None) -> str:
    """A side as told to seat `you`: ``you``, ``you+2``, ``seat 1`` or ``seats 1+3``."""
    if you in side:
        return "you" if len(side) == 1 else f"you+{'+'.join(str(s) for s in side if s != you)}"
    return f"seat {side[0]}" if len(side) == 1 else f"seats {'+'.join(map(str, side))}"


def _verb(seat: int, you: int | None, third: str, second: str) -> str:
    """The subject and its verb: ``seat 1 names`` but ``you name``."""
    return f"you {second}" if seat == you else f"seat {seat} {third}"


def trick_line(number: int, trick: Trick, you: int | None, *, style: Style = PLAIN) -> str:
    """A completed trick on one line: its cards by seat, who won it and its points."""
    cards = "  ".join(f"{seat}:{style.card(card)}" for seat, card in trick.cards)
    shown = len("  ".join(f"{seat}:{card}" for seat, card in trick.cards))
    pad = " " * max(0, 30 - shown - (len(trick.cards) if style.symbols else 0))
    return f"trick {number:>2}: {cards}{pad} {seat_name(trick.winner, you)} won {trick.points:>2}"


def trump_line(view: Observation, *, style: Style = PLAIN) -> str:
    """The trump as a seat knows it: the suit, the turned card, and who drew it."""
    if view.trump_card is not None:
        suit = view.trump.spanish_name if view.trump else "?"
        return f"trump: {suit} (turned card {style.card(view.trump_card)})"
    if view.trump is None:
        covered = view.rules.trump_visibility is TrumpVisibility.CUBIERTA
        return "trump: covered (cubierta)" if covered else "trump: not chosen yet"
    drawn = ""
    if view.trump_card_drawn is not None:
        seat, card = view.trump_card_drawn
        drawn = f" (turned card {style.card(card)}, drawn by seat {seat})"
    return f"trump: {view.trump.spanish_name}{drawn}"


def describe_deal(state: State, you: int | None = None, *, style: Style = PLAIN) -> list[str]:
    """The header of a hand: dealer, sides and trump.

    Told to seat `you`, only what that seat may know; told to nobody (a record
    being replayed), the whole truth, every hand included.
    """
    if you is not None:
        view = observe(state, you)
        sides = ", ".join("+".join(map(str, side)) for side in view.sides)
        return [f"dealer: seat {state.dealer}; sides: {sides}", trump_line(view, style=style)]
    sides = ", ".join("+".join(map(str, side)) for side in state.sides)
    trump = state.trump.spanish_name if state.trump else "not chosen yet"
    if state.trump_card is not None:
        covered = state.rules.trump_visibility is TrumpVisibility.CUBIERTA
        trump += f" (turned card {style.card(state.trump_card)}{', covered' if covered else ''})"
    lines = [f"dealer: seat {state.dealer}; sides: {sides}", f"trump: {trump}"]
    lines += [
        f"seat {seat} holds: {cards_text(hand, style=style)}"
        for seat, hand in enumerate(state.hands)
        if hand
    ]
    return lines


def narrate(
    after: State,
    events: Iterable[Event],
    you: int | None = None,
    plays: bool = False,
    *,
    style: Style = PLAIN,
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
        table = observe(after, you)
    named = any(
        isinstance(e, Announced) and isinstance(parse_action(e.action), (NameTrump, CallCard))
        for e in seen
    )
    lines: list[str] = []
    drawn: list[Card] = []
    drawn_at: int | None = None
    for event in seen:
        if isinstance(event, CardPlayed):
            if plays:
                lines.append(
                    f"{seat_name(event.seat, you)} played {card_text(event.card, style=style)}"
                )
        elif isinstance(event, TrickWon):
            if not 0 <= event.trick < len(table.tricks):
                raise StateError(f"trick {event.trick} is not among the tricks of the state")
            lines.append(trick_line(event.trick + 1, table.tricks[event.trick], you, style=style))
        elif isinstance(event, CardsDrawn):
            if plays and event.seat == you and event.card is not None:
                if drawn_at is None:  # one line for all the cards the seat draws
                    drawn_at = len(lines)
                    lines.append("")
                drawn.append(event.card)
                lines[drawn_at] = f"you drew {', '.join(card_text(c, style=style) for c in drawn)}"
            if event.public and event.card is not None:
                lines.append(f"{seat_name(event.seat, you)} took the turned card {event.card}")
        elif isinstance(event, TrumpRevealed):
            if not named:  # a named or called trump is told with its call
                shown = f" (turned card {style.card(event.card)})" if event.card else ""
                lines.append(f"the trump is shown: {event.suit.spanish_name}{shown}")
        elif isinstance(event, Swapped):
            who = seat_name(event.seat, you)
            lines.append(f"{who} swapped {event.given} for the turned card {event.taken}")
        elif isinstance(event, Signalled):
            lines.append(f"{seat_name(event.seat, you)} signalled {event.signal}")
        elif isinstance(event, BlackHandClaimed):
            suit = table.trump.spanish_name if table.trump else "trumps"
            shows = _verb(event.seat, you, "shows", "show")
            lines.append(f"{shows} a black hand: the 1, 3 and 12 of {suit}")
        elif isinstance(event, Announced):
            lines.append(announcement(event, table.trump, you))
        elif isinstance(event, AuctionWon):
            wins = _verb(event.seat, you, "wins", "win")
            lines.append(f"{wins} the auction with {event.bid}")
        elif isinstance(event, PartnerRevealed):
            lines.append(f"the called card shows the partner: {seat_name(event.seat, you)}")
    return lines


def announcement(event: Announced, trump: Suit | None, you: int | None) -> str:
    """A public call in words, as told to seat `you`: a bid, the trump named or called,
    a cante (worth 40 in `trump`, else 20)."""
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
    return f"{seat_name(seat, you)}: {action}"  # a bid or a pass


def describe_result(state: State, you: int | None = None) -> list[str]:
    """The points of each side and who won."""
    outcome = result(state)
    named = [side_name(side, you) for side in outcome.sides]
    lines = ["points: " + ", ".join(f"{n} {p}" for n, p in zip(named, outcome.points, strict=True))]
    if outcome.black_hand is not None:
        lines.append(f"{seat_name(outcome.black_hand, you)} won with a black hand")
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


# ---------------------------------------------------------------------------
# A player's turn: the table, the actions and what each kind of answer does


def turn_lines(view: Observation, legal: Sequence[Action], *, style: Style = PLAIN) -> list[str]:
    """The table as seat ``view.seat`` sees it at its turn, after a blank line: the
    trick, trump, stock and points; the auction; partners' hands and signals; the
    cards on the table, or that it leads; its hand. The menu of `legal` is the caller's.
    """
    rules = view.rules
    number = len(view.tricks) + 1
    points = ", ".join(
        f"{side_name(side, view.seat)} {p}"
        for side, p in zip(view.sides, view.side_points, strict=True)
    )
    lines = [
        "",
        f"-- trick {number} of {rules.tricks_per_hand} -- {trump_line(view, style=style)} "
        f"-- stock {view.stock_size} -- points: {points}",
    ]
    lines += auction_lines(view)
    for partner, dealt in view.partner_hands:
        lines.append(f"seat {partner} was dealt: {cards_text(dealt, style=style)}")
    if view.signals:
        lines.append("signals: " + ", ".join(f"seat {s.seat} {s.signal}" for s in view.signals))
    if view.trick:
        table = ", ".join(
            f"{seat_name(seat, view.seat)} {card_text(c, style=style)}" for seat, c in view.trick
        )
        lines.append(f"on the table: {table}")
    elif any(isinstance(a, Play) for a in legal):
        lines.append("you lead")
    lines.append(f"your hand: {cards_text(view.hand, style=style)}")
    return lines


def action_text(action: Action, *, style: Style = PLAIN) -> str:
    """An action as a menu shows it: a card with its name, a swap, a claim, a signal."""
    if isinstance(action, Play):
        return card_text(action.card, style=style)
    if isinstance(action, Swap):
        return f"swap {style.card(action.card)} for the turned card"
    if isinstance(action, ClaimBlackHand):
        return "claim: show your black hand and win the round"
    if isinstance(action, Signal):
        return f"signal {action.name} to your partner"
    return str(action)


def help_lines(legal: Sequence[Action]) -> list[str]:
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


def auction_lines(view: Observation) -> list[str]:
    """The auction, the contract and the cantes, as far as the seat may know them."""
    lines = []
    contract = view.contract
    if contract is None and view.bids:
        lines.append(
            "bids: " + ", ".join(f"{seat_name(b.seat, view.seat)} {b.bid}" for b in view.bids)
        )
    if contract is not None:
        text = f"contract: {seat_name(contract.declarer, view.seat)} {contract.bid}"
        if contract.called is not None:
            partner = (
                "secret" if contract.partner is None else seat_name(contract.partner, view.seat)
            )
            text += f", called {contract.called} (partner: {partner})"
        lines.append(text)
    if view.cantes:
        lines.append(
            "cantes: "
            + ", ".join(
                f"{seat_name(c.seat, view.seat)} {c.points} in {c.suit.spanish_name}"
                for c in view.cantes
            )
        )
    return lines
