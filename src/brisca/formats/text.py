"""The words shown to people: the rules' options, a hand told as it goes, and the
actions a player may answer with.

Cards are drawn in a :class:`Style` passed in, plain (:data:`PLAIN`) unless told
otherwise; text read from files or typed in goes through :func:`clean`.

Every function refuses an argument of the wrong type with a `StateError` (a
`RulesError` for rules) that names what it expected, and a hand-edited value of the
right type that contradicts itself with a `StateError` saying it is inconsistent.
An iterable argument is read up to :data:`MAX_ITEMS` items (events up to
`brisca.game.events.MAX_EVENTS`), and refused past that, endless or not.
"""

from __future__ import annotations

import enum
import inspect
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import IO, Any

import attrs

from brisca.game.actions import (
    ACTION_TYPES,
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
from brisca.game.cards import Card, DeckKind, Suit, deck_cards
from brisca.game.engine import observe, result
from brisca.game.errors import (
    BARE_ERRORS,
    RulesError,
    StateError,
    as_state_error,
    checked_int,
    checked_type,
    describe,
    plain_text,
    read_at_most,
)
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
    bounded_events,
    events_for,
)
from brisca.game.match import HandRecord, MatchObservation, MatchResult
from brisca.game.presets import preset_name
from brisca.game.rules import (
    INT_OPTIONS,
    BlackHand,
    Direction,
    MatchMode,
    PlayObligation,
    Rules,
    Signals,
    SignalTiming,
    SignalVocabulary,
    TieRule,
    TrumpSelection,
    TrumpVisibility,
)
from brisca.game.state import BlackHandWin, ContractResult, HandResult, Observation, State, Trick
from brisca.game.variants import VARIANTS

__all__ = [
    "MAX_ITEMS",
    "MAX_SEAT",
    "MAX_TRICK",
    "PLAIN",
    "SIGNAL_MEANINGS",
    "SOURCES",
    "SOURCE_CODE",
    "Style",
    "action_examples",
    "action_text",
    "announcement",
    "answer_hint",
    "answer_kinds",
    "auction_lines",
    "card_order_lines",
    "card_text",
    "cards_text",
    "changed_options",
    "clean",
    "contract_line",
    "describe_deal",
    "describe_result",
    "direction_line",
    "format_rules",
    "help_lines",
    "match_result_lines",
    "match_target_text",
    "narrate",
    "option_choices",
    "option_docs",
    "option_text",
    "seat_name",
    "side_name",
    "signal_lines",
    "source_legend",
    "standings_lines",
    "trick_line",
    "trump_line",
    "turn_lines",
    "unused_options",
]

#: The most items (cards, actions, lines) a function here reads from one iterable
#: argument: a pack holds 48 cards, a turn offers some 300 actions at most and
#: `format_rules` writes about 100 lines, so only a runaway or endless iterable comes
#: near it, and it is refused rather than followed until memory runs out.
MAX_ITEMS = 2**16

#: The highest seat a text names: no rules seat more than 6 players, so a seat past 5
#: (an int of 5,000 digits, say, which Python would refuse to write) is refused.
MAX_SEAT = INT_OPTIONS["num_players"][1] - 1

#: The highest trick number :func:`trick_line` writes: a hand has at most 24 tricks
#: (the 48-card pack between two players).
MAX_TRICK = len(deck_cards(DeckKind.SPANISH48)) // INT_OPTIONS["num_players"][0]


def clean(text: str) -> str:
    """`text` with every non-printing character escaped (``\\x1b``, ``\\u202e``, ``\\n``).

    What the command echoes from a file or from its input goes through this, so
    that escape sequences in a record cannot reach the terminal.

    >>> clean("3C\\x1b[2J")
    '3C\\\\x1b[2J'
    """
    if not isinstance(text, str):
        raise StateError(f"expected a str, got {describe(text)}")
    text = plain_text(text)  # a subclass's own methods are never run
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
        if environ is not None and not isinstance(environ, Mapping):
            raise StateError(
                f"environ must be a mapping, such as os.environ, got {describe(environ)}"
            )
        env = os.environ if environ is None else environ
        try:
            tty = bool(stream.isatty())
        except BARE_ERRORS:  # a closed or odd stream
            tty = False
        if not tty:
            return cls()
        with as_state_error("the environ"):  # a mapping whose lookups fail
            if env.get("NO_COLOR") or env.get("TERM") == "dumb":
                return cls()
            colour = os.name != "nt" or "WT_SESSION" in env or "ANSICON" in env
        try:
            "".join(_SUIT_SYMBOLS.values()).encode(getattr(stream, "encoding", None) or "ascii")
            symbols = True
        except BARE_ERRORS:  # an odd encoding, or one without the symbols
            symbols = False
        return cls(colour, symbols)

    def card(self, card: Card) -> str:
        """The card's code, coloured by suit and followed by its suit's symbol when enabled."""
        if type(card) is not Card:
            raise StateError(f"expected a brisca.Card, got {describe(card)}")
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
    _check_style(style)
    return " ".join(style.card(c) for c in _taken(cards, "brisca cards"))


def card_text(card: Card, *, style: Style = PLAIN) -> str:
    """A card's code and its Spanish name: ``3C (Tres de Copas)``."""
    return f"{_check_style(style).card(card)} ({card.spanish_name})"


# Checks of the arguments, each with its own message: a wrong type is named as such, and
# only a value of the right type that contradicts itself is called inconsistent.


def _check_style(style: object) -> Style:
    return checked_type(style, Style, "a brisca.formats.text.Style")


def _check_rules(rules: object) -> Rules:
    return checked_type(rules, Rules, error=RulesError)


def _check_seat(seat: object, what: str = "seat") -> None:
    checked_int(seat, what, 0, MAX_SEAT)


def _check_you(you: object) -> None:
    if you is not None:
        _check_seat(you, "the seat `you`")


def _taken(values: object, what: str) -> tuple[Any, ...]:
    """`values` as a tuple, if it is an iterable (not text) of at most `MAX_ITEMS`: it is
    read one past that at most, and a failure to read it is a `StateError`."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise StateError(f"expected {what}, got {describe(values)}")
    taken = read_at_most(values, MAX_ITEMS + 1, f"the iterable of {what}")
    if len(taken) > MAX_ITEMS:
        raise StateError(f"more than {MAX_ITEMS} {what} (MAX_ITEMS)")
    return tuple(taken)


def _check_actions(legal: object) -> tuple[Action, ...]:
    """`legal` as a tuple, if it is a sequence of actions."""
    actions = _taken(legal, "brisca actions")
    for action in actions:
        if type(action) not in ACTION_TYPES:
            raise StateError(f"expected brisca actions, got {describe(action)}")
    return actions


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
    with as_state_error("the option's value"):  # the repr of a value nested very deep
        if isinstance(value, enum.Enum):
            return repr(value.value)
        if isinstance(value, tuple):  # cards by their codes, numbers as they are
            return repr([item.code if isinstance(item, Card) else item for item in value])
        return repr(value)


def option_choices(name: str) -> str:
    """The values an option takes, such as ``'free' | 'arrastre_after_stock'``."""
    options = attrs.fields_dict(Rules)
    if type(name) is not str or name not in options:
        raise RulesError(f"expected the name of a Rules option, got {describe(name)}")
    kind = options[name].type
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
    _check_rules(rules)
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
    Then the card order and points, the señas if the rules have them, and what the
    source codes cited stand for (:func:`source_legend`).
    """
    _check_rules(rules)
    if name is not None and type(name) is not str:
        raise StateError(f"name must be a str or None, got {describe(name)}")
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
    lines += ["", *card_order_lines(rules), *signal_lines(rules)]
    legend = source_legend(lines)
    return [*lines, "", *legend] if legend else lines


#: What each source code in the options' documentation stands for: SPEC §0's list.
SOURCES: dict[str, str] = {
    "seeds": "the four seed pages: S000, S002, S003 and S004",
    "S000": "the English rules page (a seed)",
    "S002": "Puerto Rican Briscas (a seed)",
    "S003": "casino rules, VIP Games (a seed)",
    "S004": "the Spanish page with arrastre and variants (a seed)",
    "WB": "Wikipedia, Brisca",
    "WBi": "Wikipedia, Briscola (as quoted by steinea.xyz and bridgewinners.com)",
    "CC": "cartescatalanes.com, BriscaGB",
    "LUD": "ludoteka.com, brisca-en",
    "NC": "naipes-casino.com.ar",
    "FOU": "Fournier, La brisca (studylib.es)",
    "RJN": "reglasdejuegosdenaipes.blogspot.com",
    "DON": "doncomos.com",
    "ABT": "juegos.about.com, Las briscas",
    "DP": "diariopopular.com.ar",
    "SAB": "sabelotodo.org",
    "JN": "juegosnaipes.com",
    "CL": "ideas-del-momento.blogspot.com (2012), the Chilean porteña",
    "RDO": "reglasde.org, a list of signals",
    "AW": "auraweb.it, a list of signals",
    "ALB": "albarnardon.it, a list of signals",
    "TUTE": "gambiter.com, Tute",
    "ACA-TS": "acanomas.com, Tute Subastado",
    "TS": "Tute subastado (stringtranslate, profilpelajar)",
    "PGC": "pagat.com, Briscola Chiamata",
    "CRP": "cardrulesplus.com",
    "RB": "rulebook.cpusonicatt.com",
    "BJB": "blackjack-baccarat.net",
    "BSK": "biska.com",
    "FRM": "framor.info",
    "VC": "viniciocoletti.it",
    "PI": "paginainizio.com",
    "E2": "everything2",
    "[P]": "a project convention, where the sources are silent or disagree",
}

#: A source code in running text: ``S000``, ``ACA-TS``, ``WBi``, ``[P]``, ``seeds``.
SOURCE_CODE = re.compile(r"\[P\]|\bWBi\b|\bseeds\b|\b[A-Z][A-Z0-9]+(?:-[A-Z]+)?\b")


def source_legend(lines: Iterable[str]) -> list[str]:
    """What the source codes cited in `lines` stand for, one a line, in :data:`SOURCES`
    order; nothing when they cite none."""
    texts = _taken(lines, "lines of text")
    if not all(isinstance(line, str) for line in texts):
        raise StateError("expected lines of text, one str each")
    cited = {code for line in texts for code in SOURCE_CODE.findall(line)}
    known = [code for code in SOURCES if code in cited]
    if not known:
        return []
    width = max(map(len, known))
    return ["Sources:"] + [f"  {code:<{width}}  {SOURCES[code]}" for code in known]


#: What each seña says of the signaller's trumps, by vocabulary (SPEC §2.9).
SIGNAL_MEANINGS: dict[SignalVocabulary, dict[str, str]] = {
    SignalVocabulary.S000: {
        "lip_bite": "I hold the 1 of trumps, without the 3",
        "shoulder": "I hold the 3 of trumps, without the 1",
        "wink": "I hold both the 1 and the 3 of trumps",
        "head_shake": "I hold no trumps at all",
    },
    SignalVocabulary.TRADITIONAL: {
        "lips": "I hold the 1 of trumps",
        "wink": "I hold the 3 of trumps (also made as a twist of the mouth)",
        "eyes_up": "I hold the 12 of trumps",
        "shoulder": "I hold the 11 or the 10 of trumps (also made with the tongue)",
    },
}


def signal_lines(rules: Rules) -> list[str]:
    """The señas of `rules`: who sees them, when they are made, and what each one says."""
    if _check_rules(rules).signals is Signals.NONE:
        return []
    seen = "everyone sees them" if rules.signals is Signals.PUBLIC else "only partners see them"
    when = (
        "on your first turn, before you play"
        if rules.signal_timing is SignalTiming.PRE_HAND
        else "from the second trick on"
    )
    meanings = SIGNAL_MEANINGS[rules.signal_vocabulary]
    width = max(map(len, meanings))
    return [
        f"Señas (signals to your partner, 'signal NAME'): {seen}; one a hand, made {when}, "
        "and always true:",
        *(f"  {name:<{width}}  {meaning}" for name, meaning in meanings.items()),
    ]


def card_order_lines(rules: Rules) -> list[str]:
    """The ranks in trick order, strongest first, and what each is worth: from the
    rules' own `card_strength` and `card_points` over the pack."""
    _check_rules(rules)
    by_rank = {card.rank: card for card in rules.cards}
    ranks = sorted(by_rank, key=lambda rank: -rules.card_strength(by_rank[rank]))
    named = [f"{rank} {by_rank[rank].spanish_name.split(' de ')[0]}" for rank in ranks]
    worth = [f"{rank} = {rules.card_points(by_rank[rank])}" for rank in ranks]
    blank = [rank for rank in ranks if not rules.card_points(by_rank[rank])]
    worth = [w for w, rank in zip(worth, ranks, strict=True) if rank not in blank]
    total = sum(rules.card_points(card) for card in rules.cards)
    return [
        f"Card order in each suit, strongest first: {', '.join(named)}.",
        f"Card points: {', '.join(worth)}, the others 0: {total} in the pack.",
    ]


def changed_options(rules: Rules) -> list[str]:
    """The options in which `rules` differs from ``Rules()``, as ``name=value`` texts."""
    _check_rules(rules)
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
    _check_seat(seat)
    _check_you(you)
    return "you" if seat == you else f"seat {seat}"


def side_name(side: tuple[int, ...], you: int | None) -> str:
    """A side as told to seat `you`: ``you``, ``you+2``, ``seat 1`` or ``seats 1+3``."""
    if (
        type(side) not in (tuple, list)
        or not 0 < len(side) <= MAX_SEAT + 1
        or any(type(s) is not int for s in side)
    ):
        raise StateError(f"a side must be a tuple of seats, got {describe(side)}")
    for seat in side:
        _check_seat(seat)
    _check_you(you)
    if you in side:
        return "you" if len(side) == 1 else f"you+{'+'.join(str(s) for s in side if s != you)}"
    return f"seat {side[0]}" if len(side) == 1 else f"seats {'+'.join(map(str, side))}"


def _verb(seat: int, you: int | None, third: str, second: str) -> str:
    """The subject and its verb: ``seat 1 names`` but ``you name``."""
    _check_seat(seat)
    return f"you {second}" if seat == you else f"seat {seat} {third}"


def trick_line(number: int, trick: Trick, you: int | None, *, style: Style = PLAIN) -> str:
    """A completed trick on one line: its cards by seat, who won it and its points."""
    checked_int(number, "the trick's number", 0, MAX_TRICK)
    checked_type(trick, Trick)
    _check_you(you)
    _check_style(style)
    with as_state_error("the trick"):
        cards = "  ".join(f"{seat}:{style.card(card)}" for seat, card in trick.cards)
        shown = len("  ".join(f"{seat}:{card}" for seat, card in trick.cards))
        pad = " " * max(0, 30 - shown - (len(trick.cards) if style.symbols else 0))
        return (
            f"trick {number:>2}: {cards}{pad} {seat_name(trick.winner, you)} won {trick.points:>2}"
        )


def trump_line(view: Observation, *, style: Style = PLAIN) -> str:
    """The trump as a seat knows it: the suit, the turned card, and who drew it."""
    checked_type(view, Observation)
    _check_style(style)
    with as_state_error("the view"):
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


def direction_line(rules: Rules, you: int | None = None) -> str:
    """Which way play goes round the table, the one meaning of `rules.direction`
    (SPEC §0: seat i+1 sits on the right of seat i when play goes counter-clockwise).

    Told to seat `you`, who sits on its right and on its left; to nobody, the rule.
    """
    _check_rules(rules)
    _check_you(you)
    ccw = rules.direction is Direction.CCW
    way = "counter-clockwise" if ccw else "clockwise"
    n = rules.num_players
    if you is None:
        return f"play goes {way}: each seat plays after the one on its {'left' if ccw else 'right'}"
    after, before = (you + 1) % n, (you - 1) % n
    if n == 2:
        return f"play goes {way}: seat {after} sits across the table"
    right, left = (after, before) if ccw else (before, after)
    return f"play goes {way}: seat {right} is on your right, seat {left} on your left"


def describe_deal(state: State, you: int | None = None, *, style: Style = PLAIN) -> list[str]:
    """The header of a hand: dealer, sides, which way play goes, and trump.

    Told to seat `you`, only what that seat may know; told to nobody (a record
    being replayed), the whole truth, every hand included.
    """
    checked_type(state, State)
    _check_you(you)
    _check_style(style)
    with as_state_error("the state"):
        if you is not None:
            view = observe(state, you)
            sides = ", ".join("+".join(map(str, side)) for side in view.sides)
            return [
                f"dealer: seat {state.dealer}; sides: {sides}",
                direction_line(state.rules, you),
                trump_line(view, style=style),
            ]
        sides = ", ".join("+".join(map(str, side)) for side in state.sides)
        trump = state.trump.spanish_name if state.trump else "not chosen yet"
        if state.trump_card is not None:
            covered = state.rules.trump_visibility is TrumpVisibility.CUBIERTA
            trump += (
                f" (turned card {style.card(state.trump_card)}{', covered' if covered else ''})"
            )
        lines = [
            f"dealer: seat {state.dealer}; sides: {sides}",
            direction_line(state.rules),
            f"trump: {trump}",
        ]
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
        StateError: `after` is not a State, an event is not a brisca event, there
            are more than `MAX_EVENTS`, an event names a trick `after` does not
            have, or either is inconsistent.
    """
    checked_type(after, State)
    seen = tuple(bounded_events(events))
    if not all(isinstance(event, Event) for event in seen):
        raise StateError("expected brisca events")
    _check_you(you)
    _check_style(style)
    with as_state_error("the step"):
        table: State | Observation = after
        if you is not None:
            seen = events_for(you, seen)
            table = observe(after, you)
        named = any(
            isinstance(e, Announced) and isinstance(parse_action(e.action), (NameTrump, CallCard))
            for e in seen
        )
        lines: list[str] = []
        drawn: list[str] = []
        drawn_at: int | None = None
        for event in seen:
            if isinstance(event, CardPlayed):
                if plays:
                    lines.append(
                        f"{seat_name(event.seat, you)} played {card_text(event.card, style=style)}"
                    )
            elif isinstance(event, TrickWon):
                if not 0 <= event.trick < len(table.tricks):
                    trick = describe(event.trick, typed=False)  # an int too long to write
                    raise StateError(f"trick {trick} is not among the tricks of the state")
                lines.append(
                    trick_line(event.trick + 1, table.tricks[event.trick], you, style=style)
                )
            elif isinstance(event, CardsDrawn):
                if plays and event.seat == you and event.card is not None:
                    if drawn_at is None:  # one line for all the cards the seat draws, at the end
                        drawn_at = len(lines)
                        lines.append("")
                    drawn.append(card_text(event.card, style=style))
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
        if drawn_at is not None:
            lines[drawn_at] = f"you drew {', '.join(drawn)}"
        return lines


def announcement(event: Announced, trump: Suit | None, you: int | None) -> str:
    """A public call in words, as told to seat `you`: a bid, the trump named or called,
    a cante (worth 40 in `trump`, else 20)."""
    if not isinstance(event, Announced):
        raise StateError(f"expected a brisca Announced event, got {describe(event)}")
    if trump is not None and type(trump) is not Suit:
        raise StateError(f"trump must be a brisca.Suit or None, got {describe(trump)}")
    _check_you(you)
    with as_state_error("the event"):
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
    """How a finished hand came out, in words: the points of each side; the contract
    made or failed, with the bid, the points and the cantes; a black hand; a tie and
    what the tie rule made of it; or a void hand. Told to seat `you`, from its side
    first ("result: you won, 74-46"); to nobody, in the third person.
    """
    checked_type(state, State)
    _check_you(you)
    with as_state_error("the state"):
        outcome = result(state)
        if outcome.void:
            return ["result: a void hand: everyone passed, so no card was played and nobody scores"]
        named = [side_name(side, you) for side in outcome.sides]
        lines = [
            "points: " + ", ".join(f"{n} {p}" for n, p in zip(named, outcome.points, strict=True))
        ]
        if isinstance(outcome.details, ContractResult):
            lines.append(contract_line(outcome, outcome.details, you))
        return [*lines, "result: " + _verdict(state, outcome, you)]


def contract_line(outcome: HandResult, details: ContractResult, you: int | None) -> str:
    """The contract of a hand, made or failed: who bid what, and what the side took.

    Subastada: "The declarer (you) bid 85 and took 74 + 0 in cantes: the contract
    failed." Chiamata: the caller, the called card and the partner too.
    """
    checked_type(outcome, HandResult)
    checked_type(details, ContractResult)
    _check_you(you)
    with as_state_error("the result"):
        contract = details.contract
        ours = next((i for i, side in enumerate(outcome.sides) if contract.declarer in side), None)
        if ours is None:  # a result built by hand: no StopIteration out of here
            raise StateError("the result is inconsistent: the declarer is on no side")
        outcome_words = "the contract was made" if details.made else "the contract failed"
        if contract.called is None:
            mates = [s for s in outcome.sides[ours] if s != contract.declarer]
            who = seat_name(contract.declarer, you)
            if mates:
                who += ", with " + " and ".join(seat_name(s, you) for s in mates)
            return (
                f"The declarer ({who}) {contract.bid} and took {outcome.points[ours]} + "
                f"{details.cantes[ours]} in cantes: {outcome_words}."
            )
        if contract.partner == contract.declarer:
            partner = "held it, and played alone"
        else:
            partner = f"had {seat_name(contract.partner, you)} for a partner"  # type: ignore[arg-type]
        return (
            f"The caller ({seat_name(contract.declarer, you)}) {contract.bid}, called "
            f"{contract.called} and {partner}; the side took {outcome.points[ours]}: "
            f"{outcome_words}."
        )


#: What each tie rule makes of a tie nobody wins (SPEC §2.6).
_TIE_WORDS = {
    TieRule.DRAW: "the hand is drawn",
    TieRule.REPLAY: "the hand is dealt again",
    TieRule.REPLAY_DOUBLE_STAKE: "the hand is dealt again, and the next one counts double",
    TieRule.HALF_EACH: "the tied sides share the hand, half each",
    TieRule.LAST_TRICK: "the last trick went to a side outside the tie, so the hand is drawn",
}


def _verdict(state: State, outcome: HandResult, you: int | None) -> str:
    """Who won the hand and by how much, from the side of `you` when it plays."""
    sides, points = outcome.sides, outcome.points
    mine = next((i for i, side in enumerate(sides) if you in side), None)
    named = [side_name(side, you) for side in sides]
    if outcome.tied:
        if len(sides) == 2:
            tie = f"a tie, {points[0]}-{points[1]}"
        else:
            tie = f"a tie at {points[outcome.tied[0]]} between " + " and ".join(
                named[i] for i in outcome.tied
            )
        if outcome.winner is None:
            return f"{tie}: {_TIE_WORDS[state.rules.tie_rule]}"
        wins = "win" if outcome.winner == mine else "wins"
        return f"{tie}: {named[outcome.winner]} took the last trick, so {wins} the hand"
    if outcome.winner is None:  # no rule leaves this, but a result may be built by hand
        return "no winner"
    winner = outcome.winner
    if isinstance(outcome.details, BlackHandWin):
        suit = state.trump.spanish_name if state.trump else "trumps"
        won = "you won" if winner == mine else f"{named[winner]} won"
        return f"{won} with a black hand, the 1, 3 and 12 of {suit}"
    first = winner if mine is None else mine
    if len(sides) == 2:
        score = f"{points[first]}-{points[1 - first]}"
        if mine is None:
            return f"{named[winner]} won, {score}"
        return f"you won, {score}" if winner == mine else f"you lost, {score}"
    if mine is None or winner == mine:
        return f"{named[winner]} won with {points[winner]}"
    return f"{named[winner]} won with {points[winner]}; you took {points[mine]}"


# ---------------------------------------------------------------------------
# A player's turn: the table, the actions and what each kind of answer does


def turn_lines(view: Observation, legal: Sequence[Action], *, style: Style = PLAIN) -> list[str]:
    """The table as seat ``view.seat`` sees it at its turn, after a blank line: the
    trick, trump, stock and points; the auction; partners' hands and signals; the
    cards on the table, or that it leads; its hand. The menu of `legal` is the caller's.
    """
    checked_type(view, Observation)
    legal = _check_actions(legal)
    _check_style(style)
    with as_state_error("the view"):
        rules = view.rules
        number = len(view.tricks) + 1
        points = ", ".join(
            f"{side_name(side, view.seat)} {p}"
            for side, p in zip(view.sides, view.side_points, strict=True)
        )
        bidding = rules.has_auction and view.trump is None
        stage = "auction" if bidding else f"trick {number} of {rules.tricks_per_hand}"
        lines = [
            "",
            f"-- {stage} -- {trump_line(view, style=style)} "
            f"-- stock {view.stock_size} -- points: {points}",
        ]
        lines += auction_lines(view)
        for partner, dealt in view.partner_hands:
            lines.append(f"seat {partner} was dealt: {cards_text(dealt, style=style)}")
        if view.signals:
            lines.append("signals: " + ", ".join(f"seat {s.seat} {s.signal}" for s in view.signals))
        if view.trick:
            table = ", ".join(
                f"{seat_name(seat, view.seat)} {card_text(c, style=style)}"
                for seat, c in view.trick
            )
            lines.append(f"on the table: {table}")
        elif any(isinstance(a, Play) for a in legal):
            lines.append("you lead")
        lines.append(f"your hand: {cards_text(view.hand, style=style)}")
        return lines


def action_text(action: Action, *, style: Style = PLAIN) -> str:
    """An action as a menu shows it: a card with its name, a swap, a claim, a signal."""
    if type(action) not in ACTION_TYPES:
        raise StateError(f"expected a brisca action, got {describe(action)}")
    _check_style(style)
    with as_state_error("the action"):
        if isinstance(action, Play):
            return card_text(action.card, style=style)
        if isinstance(action, Swap):
            return f"swap {style.card(action.card)} for the turned card"
        if isinstance(action, ClaimBlackHand):
            return "claim: show your black hand and win the round"
        if isinstance(action, Signal):
            return f"signal {action.name} to your partner"
        return str(action)


def action_examples(rules: Rules) -> list[str]:
    """One example of each kind of action other than a play that `rules` allow, such as
    ``'swap 2O'`` or ``'bid 60'``: the variants' actions filtered by what the rules
    make possible, so no example names an action these rules never offer."""
    _check_rules(rules)
    seen: dict[type, str] = {}
    for variant in VARIANTS:
        for action in variant.universe:
            if type(action) not in seen and variant.possible(action, rules):
                seen[type(action)] = str(action)
    return list(seen.values())


def answer_kinds(rules: Rules) -> str:
    """The kinds of answer a player may type under `rules`: a menu number, a card, an
    example of each other action the rules allow (:func:`action_examples`), help, quit."""
    _check_rules(rules)
    copas = Card.parse("3C")
    card = copas if copas in rules.cards else rules.cards[0]
    kinds = ["a menu number", f"a card code such as {card}"]
    examples = [f"'{e}'" for e in action_examples(rules)]
    if examples:
        listed = examples[-1]
        if len(examples) > 1:
            listed = f"{', '.join(examples[:-1])} or {listed}"
        kinds.append(f"an action such as {listed}")
    return f"{', '.join(kinds)}, 'help' or 'quit'"


def answer_hint(rules: Rules) -> str:
    """The line that opens a game: the kinds of answer the player may type."""
    return f"Type {answer_kinds(rules)}."


def help_lines(legal: Sequence[Action], rules: Rules | None = None) -> list[str]:
    """What each kind of answer does, for the kinds of action `legal` offers now; with
    `rules`, what each seña offered says."""
    legal = _check_actions(legal)
    if rules is not None:
        _check_rules(rules)
    with as_state_error("the actions"):
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
            lines.append(
                "  'claim': show a black hand (the 1, 3 and 12 of trumps) and win the round;"
            )
        if Signal in kinds:
            lines.append(
                f"  '{kinds[Signal]}': a seña to your partner (`brisca rules PRESET` lists them);"
            )
            if rules is not None:
                meanings = SIGNAL_MEANINGS[rules.signal_vocabulary]
                lines += [
                    f"      {a.name}: {meanings[a.name]}"
                    for a in legal
                    if isinstance(a, Signal) and a.name in meanings
                ]
        bids = [a.points for a in legal if isinstance(a, Bid)]
        if bids:
            lines.append(
                f"  'bid N': bid N points, from {min(bids)} to {max(bids)}; higher bids win;"
            )
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
                f"  '{kinds[Sing]}': sing the Rey and Caballo of a suit, 40 in trumps, "
                "20 otherwise;"
            )
        lines.append("  'help' shows this and the table again; 'quit' leaves the game.")
        return lines


def auction_lines(view: Observation) -> list[str]:
    """The auction, the contract and the cantes, as far as the seat may know them."""
    checked_type(view, Observation)
    with as_state_error("the view"):
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


# ---------------------------------------------------------------------------
# Matches: the standings between hands, and who won


#: What the standings count, by match mode.
_UNITS = {
    MatchMode.SINGLE_HAND: "hands won",
    MatchMode.HANDS_WON: "hands won",
    MatchMode.GAME_POINTS: "game points",
    MatchMode.CUMULATIVE_CARD_POINTS: "card points",
}


def _number(value: Fraction) -> str:
    """A standing as people write it: ``3``, ``-85`` or ``2.5`` (halves, from ``half_each``)."""
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def _standings(
    standings: Sequence[Fraction], sides: Sequence[tuple[int, ...]] | None, you: int | None
) -> str:
    """The standings by side when every seat of each side stands the same, else by seat."""
    seats = range(len(standings))
    groups = tuple(sides or ())
    whole = bool(groups) and sorted(s for side in groups for s in side) == list(seats)
    if whole and all(len({standings[s] for s in side}) == 1 for side in groups):
        return ", ".join(f"{side_name(side, you)} {_number(standings[side[0]])}" for side in groups)
    return ", ".join(f"{seat_name(seat, you)} {_number(standings[seat])}" for seat in seats)


def match_target_text(rules: Rules) -> str:
    """What wins a match under `rules`: ``first to 500 game points``."""
    if _check_rules(rules).match_mode is MatchMode.SINGLE_HAND:
        return "one hand"
    return f"first to {rules.match_target} {_UNITS[rules.match_mode]}"


def standings_lines(view: MatchObservation) -> list[str]:
    """The match as seat ``view.seat`` sees it between hands: the last hand's credit, the
    standings against the target, and who deals next (or that the match is over)."""
    checked_type(view, MatchObservation)
    with as_state_error("the view"):
        you = view.seat
        rules = view.rules
        done = view.earlier_hands + len(view.hands)
        last: HandRecord | None = view.hands[-1] if view.hands else None
        sides = last.result.sides if last is not None else None
        standings = _standings(view.standings, sides, you)
        lines = [f"after hand {done}: {standings} ({match_target_text(rules)})"]
        if last is not None and last.replayed:
            lines.append("the tie counts for nothing: the same dealer deals again")
        if view.stake > 1:
            lines.append(f"the next hand counts x{view.stake}")
        if view.dealer is not None:
            deals = "you deal next" if view.dealer == you else f"seat {view.dealer} deals next"
            lines.append(f"{deals} (hand {done + 1})")
        return lines


def match_result_lines(outcome: MatchResult, you: int | None = None) -> list[str]:
    """Who won the match, told to seat `you` from its side, and the final standings."""
    checked_type(outcome, MatchResult)
    _check_you(you)
    with as_state_error("the result"):
        final = _standings(outcome.standings, outcome.sides, you)
        hands = len(outcome.hands)
        over = f"match over after {hands} hand{'s' if hands != 1 else ''}"
        if outcome.is_draw:
            verdict = "the match is drawn"
        elif you in outcome.winners:
            verdict = "you won the match"
        elif outcome.winner is not None and outcome.sides is not None:
            side = outcome.sides[outcome.winner]
            verdict = f"{side_name(side, you)} won the match"
            if any(you in s for s in outcome.sides):
                verdict = f"you lost the match: {verdict}"
        else:
            names = "+".join(map(str, outcome.winners))
            verdict = f"seat{'s' if len(outcome.winners) > 1 else ''} {names} won the match"
            if you is not None:
                verdict = f"you lost the match: {verdict}"
        return [f"{over}: {verdict}", f"final standings: {final}"]
