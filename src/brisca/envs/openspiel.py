"""An OpenSpiel game for any rules: ``pip install 'brisca[openspiel]'``.

Importing this module registers the game as ``python_brisca``:

>>> import pyspiel
>>> import brisca
>>> import brisca.envs.openspiel
>>> game = pyspiel.load_game("python_brisca", {"preset": "spanish-4p"})
>>> game.num_players(), game.max_chance_outcomes()
(4, 40)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 40)
>>> for outcome in game.deal_outcomes(brisca.new_game(game.rules, seed=7).deal.deck):
...     state.apply_action(outcome)
>>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()]
(0, ['2O', '4C', '6B', 'signal head_shake'])

One game is one hand. It begins with the shuffle, one chance node per card: each
outcome is the index in ``rules.cards`` of the next card to leave the pack, in the
order ``brisca.new_game(rules, deck=...)`` takes (the deal, the turned card, the
stock), each remaining card equally likely. Then come the decision nodes, auction
included, acting as ``brisca.State.to_act`` says; an action is an index of
:func:`brisca.agents.encoding.action_space`. The returns come when the hand ends, the same
for partners (see :func:`brisca.envs.common.seat_rewards`).

Game parameters:

- ``preset``: a preset's name (default ``"spanish-2p"``);
- ``options``: Rules options over the preset, as nested parameters, such as
  ``{"tie_rule": "draw"}`` or, in a game string, ``options=(tie_rule=draw)``; a list
  option takes its items separated by spaces (``removed_cards=2B 4B``);
- ``reward``: ``"margin"`` (default) or ``"win"``;
- ``dealer``: the dealer's seat, or -1 (default) for the last seat, as ``new_game``.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import json
import pickletools
import re
import warnings
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

try:
    import pyspiel
except ImportError as missing:
    raise ImportError(
        f"brisca.envs.openspiel needs OpenSpiel: pip install 'brisca[openspiel]' ({missing})"
    ) from missing
import numpy as np
import numpy.typing as npt

from brisca.agents.encoding import (
    StateEncoder,
    action_from_index,
    action_index,
    action_space,
    encoding_layout,
    encoding_size,
)
from brisca.agents.sampling import sample_state
from brisca.envs.common import (
    checked_reward,
    render_table,
    seat_rewards,
    worst_reward,
)
from brisca.formats.saves import dumps_played, loads
from brisca.formats.views import observation_to_dict
from brisca.game.actions import Play
from brisca.game.cards import Card
from brisca.game.engine import deal_layout, new_game, observe, refusal, result, step
from brisca.game.errors import (
    BARE_ERRORS,
    BriscaError,
    IllegalActionError,
    NotationError,
    RulesError,
    StateError,
    as_integer,
    checked_integer,
    describe,
    plain_text,
)
from brisca.game.events import CardsDrawn
from brisca.game.jsonio import plain_keys
from brisca.game.presets import preset
from brisca.game.rng import Generator
from brisca.game.rules import Rules, TeamMode
from brisca.game.state import State

__all__ = ["GAME_NAME", "PARAMETERS", "BriscaGame", "BriscaObserver", "BriscaState"]

#: The name the game is registered under.
GAME_NAME = "python_brisca"
#: The game parameters and their defaults; ``options`` is left out of the game's own
#: parameters when empty, since OpenSpiel cannot read an empty nested value back.
PARAMETERS: dict[str, Any] = {
    "preset": "spanish-2p",
    "options": {},
    "reward": "margin",
    "dealer": -1,
}

_MAX_PLAYERS = 6
# Team modes whose sides form during the hand (an auction, a called card), so that
# they need not be of one size.
_SIDES_IN_PLAY = (TeamMode.DECLARER_VS_REST, TeamMode.CALLED_PARTNER)
# How many worlds resample_from_infostate tries before it gives up.
_RESAMPLES = 50
# As plain ints: `current_player` runs several times a step, from C++.
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
# Past this, OpenSpiel cannot take an int as an action.
_INT64 = 1 << 63
# OpenSpiel's own methods, called as functions: cheaper than super() on a hot path.
_apply_action = pyspiel.State.apply_action
_legal_actions = pyspiel.State.legal_actions
_observation_string = pyspiel.State.observation_string
_information_state_string = pyspiel.State.information_state_string


def _game_type(num_players: int | None, zero_sum: bool) -> pyspiel.GameType:
    utility = pyspiel.GameType.Utility
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Brisca (the brisca library)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility.ZERO_SUM if zero_sum else utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=num_players or _MAX_PLAYERS,
        min_num_players=num_players or 2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=PARAMETERS,
    )


def _rules(name: object, options: object) -> Rules:
    """The preset named `name` with `options` over it, read as game records read rules.

    A list option given as text takes its items separated by spaces (``"2B 4B"``), unless
    the option takes that text itself (``removed_cards="all_twos"``).
    """
    base = preset(name).to_dict()  # type: ignore[arg-type]  # preset() refuses a non-str
    if not isinstance(options, Mapping):
        raise RulesError(f"options must be nested parameters, got {describe(options)}")
    # A nested parameter read from a game string carries a "name": the text before "(".
    if not isinstance(options.get("name", ""), str):
        raise RulesError(f"the name of the options must be text, got {describe(options['name'])}")
    changes = {k: v for k, v in options.items() if k != "name"}
    for option, value in changes.items():
        if isinstance(base.get(option), list) and isinstance(value, str):
            try:
                Rules.from_dict({**base, option: value})
            except RulesError:
                # ASCII digits only: "²".isdigit() holds, but int("²") fails.
                changes[option] = [
                    int(i) if i.isascii() and i.isdigit() else i for i in value.split()
                ]
    return Rules.from_dict({**base, **changes})


def _checked_seat(player: object, n: int) -> int:
    """`player` as a Python int, if it is a seat from 0 to `n` - 1.

    Raises:
        StateError: it is not.
    """
    if type(player) is int and 0 <= player < n:
        return player
    return checked_integer(player, "player", 0, n - 1)


def _action(action: object) -> int:
    """`action` as a Python int that OpenSpiel can take (its own checks raise SpielError or
    TypeError); whether it is an outcome or action of the state, the state says.

    Raises:
        NotationError: it is not a non-negative integer of 64 bits.
    """
    return checked_integer(
        action, "an action or chance outcome", 0, _INT64 - 1, error=NotationError
    )


# A step as OpenSpiel writes it: the chance player (-1) or a seat, then the action, in
# canonical decimal.
_SERIALIZED_STEP = re.compile(r"(-1|[0-9]):(0|[1-9][0-9]{0,18})")


def _serialized(text: str, most: int) -> tuple[list[tuple[int, int]], int]:
    """The steps (player, action) and the move number of ``state.serialize()``'s `text`,
    read without the pickled attributes after them; at most `most` steps.

    Raises:
        NotationError: `text` is not in that form, or holds more steps.
    """
    lines = text.split("\n", 2)
    if len(lines) != 3 or not (
        lines[0].startswith("history=")
        and lines[1].startswith("move_number=")
        and lines[2].startswith("__dict__=")
    ):
        raise NotationError(
            "the text is not a serialized state of this game: expected the lines "
            "history=..., move_number=... and __dict__=..."
        )
    history = lines[0].removeprefix("history=")
    pieces = history.split(",", most) if history else []  # stops after one too many
    if len(pieces) > most:
        raise NotationError(f"the text holds more than the {most} steps a hand can take")
    steps = []
    for piece in pieces:
        found = _SERIALIZED_STEP.fullmatch(piece)
        if found is None:
            raise NotationError(f"the text is not a serialized state: {piece[:40]!r} is no step")
        steps.append((int(found[1]), int(found[2])))
    moves = lines[1].removeprefix("move_number=")
    if not re.fullmatch(r"0|[1-9][0-9]{0,18}", moves):
        raise NotationError(f"the text is not a serialized state: move_number={moves[:40]!r}")
    if not _whole_pickle(lines[2].removeprefix("__dict__=")):
        raise NotationError("the text is not a serialized state: __dict__= holds no pickle")
    return steps, int(moves)


def _whole_pickle(text: str) -> bool:
    """Whether `text` is base64 of one whole pickle, read opcode by opcode as
    `pickletools` reads it: nothing in it runs, nor is anything built."""
    try:
        data = base64.b64decode(text, validate=True)
        with warnings.catch_warnings():  # an odd string escape in it warns, as it reads
            warnings.simplefilter("ignore")
            last = deque(pickletools.genops(data), maxlen=1)
    except (binascii.Error, *BARE_ERRORS):
        return False
    return bool(last) and last[0][0].name == "STOP" and last[0][2] == len(data) - 1


def _zero_sum(rules: Rules, reward: str, sides: tuple[tuple[int, ...], ...]) -> bool:
    """Whether every hand's returns add up to zero: the sides are fixed at the deal and of
    one size, and, under ``win``, two (three sides give +1 -1 -1)."""
    if rules.team_mode in _SIDES_IN_PLAY or len({len(side) for side in sides}) != 1:
        return False
    return reward == "margin" or len(sides) == 2


def _max_game_length(rules: Rules) -> int:
    """A bound on a hand's decisions: every card is played once, and no seat takes any
    other action of the index twice (bids rise; a seat signals, passes, sings a suit or
    swaps a card once)."""
    others = sum(1 for action in action_space(rules) if not isinstance(action, Play))
    return len(rules.cards) + rules.num_players * others


class BriscaGame(pyspiel.Game):  # type: ignore[misc]
    """One hand of the rules the parameters name, shuffle included.

    Attributes:
        rules: the `Rules` of the hand.
        reward: ``"margin"`` or ``"win"``.
        dealer: the dealer's seat, or ``None`` for ``new_game``'s default.

    Raises:
        RulesError: an unknown preset or option, or options that clash.
        StateError: an unknown parameter, a bad reward or dealer.
        pyspiel.SpielError: a parameter OpenSpiel does not know, or of the wrong type
            (raised by ``pyspiel.load_game`` before the game is built).
    """

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        if params is not None and not isinstance(params, Mapping):
            raise StateError(f"the game parameters must be a dict, got {describe(params)}")
        try:  # a caller's keys, as plain text
            params = plain_keys(params or {}, "the game parameters")
        except NotationError as error:
            raise StateError(str(error)) from None
        unknown = sorted(str(k) for k in params if k not in PARAMETERS)
        if unknown:
            raise StateError(
                f"unknown parameter(s) {', '.join(unknown)}; the parameters are "
                f"{', '.join(PARAMETERS)}"
            )
        given = {**PARAMETERS, **params}
        rules = _rules(given["preset"], given["options"])
        reward = checked_reward(given["reward"])
        dealer = given["dealer"]
        n = rules.num_players
        if type(dealer) is not int or not -1 <= dealer < n:
            raise StateError(
                f"dealer must be -1 (the last seat) or a seat from 0 to {n - 1}, "
                f"got {describe(dealer)}"
            )
        sides = new_game(rules, deck=rules.cards, dealer=None if dealer < 0 else dealer).sides
        zero_sum = _zero_sum(rules, reward, sides)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(action_space(rules)),
            max_chance_outcomes=len(rules.cards),
            num_players=n,
            min_utility=worst_reward(reward),
            max_utility=-worst_reward(reward),
            utility_sum=0.0 if zero_sum else None,
            max_game_length=_max_game_length(rules),
        )
        kept = {k: v for k, v in given.items() if k != "options" or v}
        try:
            super().__init__(_game_type(n, zero_sum), info, kept)
        except (TypeError, pyspiel.SpielError):  # pybind11's and OpenSpiel's own checks
            raise RulesError(
                "the options must be nested parameters of text, ints, floats and bools, "
                f"got {describe(given['options'])}"
            ) from None
        self.rules = rules
        self.reward = reward
        self.dealer: int | None = None if dealer < 0 else dealer
        self._params = kept
        # Shared by the game's states (a state's clone is a deep copy, so it keeps none).
        self.encoder = StateEncoder(rules)
        # ``rules.cards``, which the rules work out at each call: the chance outcomes' cards.
        self._pack = rules.cards
        self._cards = tuple(range(len(self._pack)))
        # The observers behind the states' tensors, by perfect recall, made when first
        # asked for. OpenSpiel's own way there sizes the tensor each call by building a
        # new state and writing a view of it.
        self._tensors: dict[bool, BriscaObserver] = {}

    # A game whose __init__ raised before OpenSpiel's has no C++ half: OpenSpiel's repr
    # of it crashes the process, and a traceback printer that shows `self` would call it.
    def __repr__(self) -> str:
        return super().__repr__() if "rules" in self.__dict__ else "<BriscaGame, not built>"

    def __str__(self) -> str:
        return super().__str__() if "rules" in self.__dict__ else "<BriscaGame, not built>"

    def __reduce__(self) -> tuple[type[BriscaGame], tuple[dict[str, Any]]]:
        # pybind11's own pickle keeps the C++ half and drops the Python one: rebuild the
        # game from its parameters instead.
        return BriscaGame, (self._params,)

    def new_initial_state(self) -> BriscaState:
        """The hand before the shuffle: a chance node."""
        return BriscaState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> BriscaObserver:
        """A seat's observer: its view (the default), or, with ``perfect_recall``, its
        information state.

        Raises:
            StateError: observer parameters, or a type other than one seat's view
                (public and own private information).
        """
        if params is not None and not (isinstance(params, Mapping) and not params):
            raise StateError(f"the observer takes no parameters, got {describe(params)}")
        if iig_obs_type is None:
            return BriscaObserver(self.rules, perfect_recall=False)
        if not isinstance(iig_obs_type, pyspiel.IIGObservationType):
            raise StateError(
                f"expected a pyspiel.IIGObservationType or None, got {describe(iig_obs_type)}"
            )
        private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if not (private and iig_obs_type.public_info):
            raise StateError(
                "the observer shows one seat's view, the public and its own private "
                "information, with or without perfect recall"
            )
        return BriscaObserver(self.rules, perfect_recall=iig_obs_type.perfect_recall)

    def _tensor(self, state: BriscaState, player: int, perfect_recall: bool) -> list[float]:
        """`player`'s view (or information state) of `state`, as the list OpenSpiel's
        ``observation_tensor`` (``information_state_tensor``) gives: the same numbers,
        without its round trip through C++."""
        observer = self._tensors.get(perfect_recall)
        if observer is None:
            observer = self._tensors[perfect_recall] = BriscaObserver(
                self.rules, perfect_recall=perfect_recall
            )
        return observer.items_from(state, player)

    def deserialize_state(self, text: str) -> BriscaState:
        """The state that ``state.serialize()`` wrote as `text`, rebuilt by replaying its
        history through ``apply_action``, which checks every step. OpenSpiel's own
        reader unpickles the Python attributes written beside the history, which can run
        any code; this one never reads them (the history alone makes them), so it may be
        given untrusted text. Its cost is linear in the text, which may hold no more
        steps than a hand has.

        Raises:
            NotationError: `text` is not a serialized state of this game.
        """
        if not isinstance(text, str):
            raise NotationError(f"a serialized state is text, got {describe(text)}")
        text = plain_text(text)  # a subclass's own methods never run
        steps, moves = _serialized(
            text, self.max_chance_nodes_in_history() + self.max_game_length()
        )
        state = self.new_initial_state()
        try:
            for player, action in steps:
                if player != state.current_player():
                    raise NotationError(f"step {len(state.history())} is not player {player}'s")
                state.apply_action(action)
        except (BriscaError, pyspiel.SpielError) as error:
            raise NotationError(
                f"the text is not a serialized state of this game: {error}"
            ) from None
        if moves != len(steps):
            raise NotationError(
                f"the text is not a serialized state of this game: move_number={moves} "
                f"after {len(steps)} steps"
            )
        return state

    def max_chance_nodes_in_history(self) -> int:
        """One chance node per card: the shuffle."""
        return len(self.rules.cards)

    def deal_outcomes(self, deck: Sequence[Card | str]) -> list[int]:
        """The chance outcomes that shuffle `deck` (in ``new_game(deck=...)`` order).

        ``game.deal_outcomes(brisca.new_game(game.rules, seed=s).deal.deck)`` deals the
        hand of brisca's seed `s`, for the game's dealer.

        Raises:
            StateError: `deck` is not an order of the rules' cards.
            NotationError: a card that cannot be read.
        """
        if deck is None:  # new_game would shuffle one at random
            raise StateError("deal_outcomes needs a deck: an order of the rules' cards")
        dealt = new_game(self.rules, deck=deck, dealer=self.dealer)
        index = {card: i for i, card in enumerate(self.rules.cards)}
        return [index[card] for card in dealt.deal.deck]


# One card a seat drew: the tricks complete then, the card, and which draw of the hand it
# was (from 0), which places it in the deck order: the stock in draw order, then the
# turned card.
_Draw = tuple[int, Card, int]


class _Hand:
    """The hand being played and the cards each seat drew (what ``observe`` does not
    keep). Immutable, so a clone shares it; it pickles as the library's own JSON
    (``brisca.dumps``), which is what OpenSpiel's serialization of the state carries."""

    __slots__ = ("draws", "state")

    def __init__(self, state: State, draws: tuple[tuple[_Draw, ...], ...]) -> None:
        self.state = state
        self.draws = draws

    @classmethod
    def dealt(cls, state: State) -> _Hand:
        return cls(state, ((),) * state.rules.num_players)

    def after(self, index: int, encoder: StateEncoder | None = None) -> _Hand:
        """The hand after the action at `index` of the action space (read through
        `encoder`, of the hand's rules, when given).

        Raises:
            NotationError: `index` is not an index of the action space.
            IllegalActionError: the action is not legal; the message says why.
        """
        if encoder is None:
            action = action_from_index(index, self.state.rules)
        else:
            action = encoder.action(index)
        try:  # `step` checks the action as `refusal` does: ask why only when it refuses
            state, events = step(self.state, action)
        except IllegalActionError:
            why = refusal(self.state, action)
            raise IllegalActionError(f"action {index} ({action}) is not legal: {why}") from None
        seats: list[tuple[_Draw, ...]] = []  # filled at the first draw: most steps have none
        count = 0
        for event in events:
            if isinstance(event, CardsDrawn) and event.card is not None:
                if not seats:
                    seats = list(self.draws)
                    count = sum(len(seat) for seat in seats)
                seats[event.seat] += ((len(state.tricks), event.card, count),)
                count += 1
        return _Hand(state, tuple(seats) if seats else self.draws)

    def positions(self, seat: int) -> list[int]:
        """The places in the deck order of the cards `seat` was dealt and drew."""
        layout = deal_layout(self.state.rules, self.state.dealer)
        stock, turned = layout.stock, layout.turned
        drawn = [stock[k] if k < len(stock) else turned for _, _, k in self.draws[seat]]
        return [*layout.hands[seat], *(p for p in drawn if p is not None)]

    def __deepcopy__(self, memo: object) -> _Hand:
        return self

    def __reduce__(self) -> tuple[Callable[[str], _Hand], tuple[str]]:
        return _hand_from_json, (dumps_played(self.state),)  # its own state: no replay


def _hand_from_json(text: str) -> _Hand:
    """A `_Hand` from ``brisca.dumps``: ``loads`` checks it, and a replay of its actions
    through ``step`` gives the draws."""
    saved = loads(text)
    hand = _Hand.dealt(new_game(saved.rules, deck=saved.deal.deck, dealer=saved.dealer))
    for action in saved.history:
        hand = hand.after(action_index(action, saved.rules))
    return hand


class BriscaState(pyspiel.State):  # type: ignore[misc]
    """A hand: the shuffle's chance nodes, then the seats' decisions."""

    # The number of seats, for the checks of a player; 0 (see `_players`) in a state
    # serialized before it was kept.
    _n = 0

    def __init__(self, game: BriscaGame) -> None:
        super().__init__(game)
        # The chance outcomes so far, until the whole deck is out; then the hand.
        self._shuffled: tuple[int, ...] = ()
        # The cards still in the pack, ascending: the chance outcomes.
        self._left: tuple[int, ...] = game._cards
        self._hand: _Hand | None = None
        self._n = game.rules.num_players

    @property
    def game_state(self) -> State | None:
        """The ``brisca.State`` of the hand, hidden cards included (for a referee, never
        for a seat), or ``None`` during the shuffle."""
        return None if self._hand is None else self._hand.state

    # OpenSpiel's own methods that take a player or an action, with brisca's errors: a
    # StateError for a bad player and a NotationError for a bad action, where pybind11
    # raises TypeError and OpenSpiel SpielError. A well-typed call takes one comparison.

    def apply_action(self, action: int) -> None:
        """Apply `action` (or chance outcome); a numpy integer will do.

        Raises:
            NotationError: it is not an index of the cards or of the action space.
            IllegalActionError: that card is out already, or the action is not legal.
        """
        if not (type(action) is int and 0 <= action < _INT64):
            action = _action(action)
        _apply_action(self, action)

    def apply_action_with_legality_check(self, action: int) -> None:
        """:meth:`apply_action`, which checks legality anyway."""
        self.apply_action(action)

    def child(self, action: int) -> BriscaState:
        """A clone of the state after `action`: it is left unchanged."""
        clone: BriscaState = self.clone()
        clone.apply_action(action)
        return clone

    def undo_action(self, player: int, action: int) -> None:
        """Not offered: clone the state before the action instead.

        Raises:
            StateError: always (OpenSpiel's default raises SpielError).
        """
        raise StateError("the brisca game cannot undo an action: clone the state before it")

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of `player` (by default, the player to act): none for
        another seat, the chance outcomes at a chance node.

        Raises:
            StateError: `player` is neither a seat nor the player to act.
        """
        hand = self._hand
        if hand is not None:  # a seat's decision: the encoder's, as OpenSpiel would ask it
            seat = hand.state.to_act
            if seat is not None and (player is None or (type(player) is int and player == seat)):
                return self._legal_actions(seat)
        if player is None:
            return _legal_actions(self)  # type: ignore[no-any-return]
        return _legal_actions(self, self._player(player))  # type: ignore[no-any-return]

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        """:meth:`legal_actions` as a mask over the actions (chance outcomes)."""
        if player is None:
            return super().legal_actions_mask()  # type: ignore[no-any-return]
        return super().legal_actions_mask(self._player(player))  # type: ignore[no-any-return]

    def action_to_string(self, *args: int) -> str:
        """``action_to_string([player,] action)``: the action (or outcome) as text.

        Raises:
            StateError: a bad player, or not one or two arguments.
            NotationError: `action` is not an action (or outcome) of the game.
        """
        if len(args) == 1:
            player, action = self.current_player(), args[0]
        elif len(args) == 2:
            # The chance player too, at any node: a history's outcomes are written so.
            chance = as_integer(args[0]) == _CHANCE
            player, action = _CHANCE if chance else self._player(args[0]), args[1]
        else:
            raise StateError(f"action_to_string takes [player,] action, got {len(args)} arguments")
        return super().action_to_string(player, _action(action))  # type: ignore[no-any-return]

    def string_to_action(self, *args: Any) -> int:
        """``string_to_action([player,] text)``: the legal action written `text`.

        Raises:
            StateError: a bad player, or not one or two arguments.
            NotationError: no legal action of the player is written so.
        """
        if len(args) == 1:
            player, text = self.current_player(), args[0]
        elif len(args) == 2:
            player, text = self._player(args[0]), args[1]
        else:
            raise StateError(f"string_to_action takes [player,] text, got {len(args)} arguments")
        if isinstance(text, str):
            text = plain_text(text)
            for action in self.legal_actions(player):
                if super().action_to_string(player, action) == text:
                    return action
        raise NotationError(f"no legal action of player {player} is {describe(text)}")

    def information_state_string(self, player: int | None = None) -> str:
        """`player`'s information state as JSON (see :class:`BriscaObserver`).

        Raises:
            StateError: `player` is not a seat (by default, the player to act).
        """
        if not (type(player) is int and 0 <= player < self._n):
            player = self._seat(player)
        return _information_state_string(self, player)  # type: ignore[no-any-return]

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """`player`'s information state as a tensor (see :class:`BriscaObserver`).

        Raises:
            StateError: `player` is not a seat (by default, the player to act).
        """
        if not (type(player) is int and 0 <= player < self._n):
            player = self._seat(player)
        game: BriscaGame = self.get_game()
        return game._tensor(self, player, True)

    def observation_string(self, player: int | None = None) -> str:
        """`player`'s view as JSON (see :class:`BriscaObserver`).

        Raises:
            StateError: `player` is not a seat (by default, the player to act).
        """
        if not (type(player) is int and 0 <= player < self._n):
            player = self._seat(player)
        return _observation_string(self, player)  # type: ignore[no-any-return]

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """`player`'s view as a tensor (see :class:`BriscaObserver`).

        Raises:
            StateError: `player` is not a seat (by default, the player to act).
        """
        if not (type(player) is int and 0 <= player < self._n):
            player = self._seat(player)
        game: BriscaGame = self.get_game()
        return game._tensor(self, player, False)

    def player_return(self, player: int) -> float:
        """`player`'s return: see :meth:`returns`.

        Raises:
            StateError: `player` is not a seat.
        """
        return self.returns()[_checked_seat(player, self._players())]

    def player_reward(self, player: int) -> float:
        """`player`'s reward for the last action: its return once the hand is over.

        Raises:
            StateError: `player` is not a seat.
        """
        seat = _checked_seat(player, self._players())
        return super().player_reward(seat)  # type: ignore[no-any-return]

    def _players(self) -> int:
        """The number of seats (a state serialized before `_n` was kept reads 0 there)."""
        if not self._n:
            self._n = self.get_game().rules.num_players
        return self._n

    def _seat(self, player: object) -> int:
        """`player`, a seat, or by default (``None``) the seat to act."""
        n = self._players()
        if player is None:
            player = self.current_player()
            if not 0 <= player < n:
                raise StateError(f"no seat is to act here: give a player from 0 to {n - 1}")
        return _checked_seat(player, n)

    def _player(self, player: object) -> int:
        """`player`, a seat or the player to act (a chance or terminal node's pseudo-player)."""
        value = as_integer(player)
        if value is not None and value == self.current_player():
            return value
        return _checked_seat(player, self._players())

    def current_player(self) -> int:
        hand = self._hand
        if hand is None:
            return _CHANCE
        seat = hand.state.to_act
        return _TERMINAL if seat is None else seat

    def is_chance_node(self) -> bool:
        # OpenSpiel's asks C++, which asks `current_player` back in Python.
        return self._hand is None

    def is_terminal(self) -> bool:
        return self._hand is not None and self._hand.state.is_over

    def _legal_actions(self, player: int) -> list[int]:
        assert self._hand is not None  # OpenSpiel asks chance nodes for chance_outcomes()
        game: BriscaGame = self.get_game()
        return game.encoder.legal(self._hand.state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards still in the pack, equally likely; none once the shuffle is over."""
        if self._hand is not None:
            return []
        left = self._left
        return list(zip(left, itertools.repeat(1.0 / len(left))))

    def _apply_action(self, action: int) -> None:
        """The next card of the shuffle at a chance node, else the seat's action.

        Raises:
            NotationError: `action` is not an index of the cards or of the action space.
            IllegalActionError: that card is out already, or the action is not legal.
        """
        game: BriscaGame = self.get_game()
        if self._hand is not None:
            self._hand = self._hand.after(action, game.encoder)
            return
        cards = game._pack
        if type(action) is not int or not 0 <= action < len(cards):
            raise NotationError(
                f"a chance outcome is a card's index from 0 to {len(cards) - 1}, "
                f"got {describe(action)}"
            )
        left = self._left
        try:
            at = left.index(action)
        except ValueError:
            raise IllegalActionError(f"{cards[action]} has left the pack already") from None
        shuffled = (*self._shuffled, action)
        if len(shuffled) < len(cards):
            self._shuffled = shuffled
            self._left = left[:at] + left[at + 1 :]
            return
        deck = [cards[i] for i in shuffled]
        self._hand = _Hand.dealt(new_game(game.rules, deck=deck, dealer=game.dealer))
        self._shuffled = self._left = ()

    def _action_to_string(self, player: int, action: int) -> str:
        game: BriscaGame = self.get_game()
        if player == pyspiel.PlayerId.CHANCE:
            cards = game.rules.cards
            if type(action) is not int or not 0 <= action < len(cards):
                raise NotationError(f"no chance outcome {describe(action)}")
            return f"deal {cards[action]}"
        return str(action_from_index(action, game.rules))

    def returns(self) -> list[float]:
        """Each seat's reward once the hand is over, else 0 for all."""
        game: BriscaGame = self.get_game()
        n = game.rules.num_players
        if self._hand is None or not self._hand.state.is_over:
            return [0.0] * n
        return seat_rewards(result(self._hand.state), n, game.reward)

    def resample_from_infostate(self, player: int, sampler: Callable[[], float]) -> BriscaState:
        """A state that `player` cannot tell from this one: the same information state,
        other hidden cards (``brisca.agents.sampling.sample_state``), drawn with a seed from
        `sampler` (a callable returning a float in [0, 1), such as
        ``pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)``).

        The sampler places the hidden cards and the moments each seat received its own;
        the player's own cards are then put back at the places in the deck order they
        came from, so that its dealt hand and draws are the real ones too.

        Raises:
            StateError: during the shuffle, a bad player or sampler, or no such world found.
        """
        game: BriscaGame = self.get_game()
        if self._hand is None:
            raise StateError("no information state to resample during the shuffle")
        player = _checked_seat(player, self._players())
        if not callable(sampler):
            raise StateError(
                f"the sampler must be a callable returning a number from 0 to 1, "
                f"got {describe(sampler)}"
            )
        real = self._hand.state
        view = observe(real, player)
        key = self.information_state_string(player)
        mine = self._hand.positions(player)
        draw = sampler()
        if isinstance(draw, bool) or not isinstance(draw, (int, float)) or not 0 <= draw <= 1:
            raise StateError(f"the sampler must return a number from 0 to 1, got {describe(draw)}")
        rng = Generator(int(draw * (1 << 53)))
        for _ in range(_RESAMPLES):
            sample = sample_state(view, rng)
            deck = list(sample.deal.deck)
            for place in mine:
                other = deck.index(real.deal.deck[place])
                deck[place], deck[other] = deck[other], deck[place]
            world = game.new_initial_state()
            for outcome in game.deal_outcomes(deck):
                world.apply_action(outcome)
            try:  # the sample's history: what the player saw, and nothing it did not
                for action in sample.history:
                    world.apply_action(action_index(action, real.rules))
            except IllegalActionError:
                continue
            if world.information_state_string(player) == key:
                return world
        raise StateError(f"found no other world for seat {player} in {_RESAMPLES} samples")

    def __str__(self) -> str:
        if self._hand is not None:
            return render_table(self._hand.state)
        cards = self.get_game().rules.cards
        return "shuffle: " + " ".join(cards[i].code for i in self._shuffled) + "\n"


class BriscaObserver:
    """A seat's observation or, with `perfect_recall`, its information state, as OpenSpiel's
    Python observers are: a ``tensor``, its named parts in ``dict``, and a string.

    The observation is ``brisca.observe(state, seat)``: its tensor is
    :func:`brisca.agents.encoding.encode_observation`, its string the JSON of
    :func:`brisca.formats.views.observation_to_dict` (without the rules, which the game
    fixes). The information state adds what the view forgets, so that it has perfect
    recall: the hand the seat was dealt (``dealt``) and each card it drew with the number
    of tricks complete then (``drawn``; in the tensor, that number over
    ``rules.tricks_per_hand``). During the shuffle a seat sees only how many cards are out.
    """

    def __init__(self, rules: Rules, *, perfect_recall: bool) -> None:
        if not isinstance(perfect_recall, (bool, np.bool_)):
            raise StateError(f"perfect_recall must be a bool, got {describe(perfect_recall)}")
        self._encoder = StateEncoder(rules)  # first: it refuses what is not a Rules
        self.rules = rules
        self.perfect_recall = bool(perfect_recall)
        size, d = encoding_size(rules), len(rules.cards)
        blocks = list(encoding_layout(rules))
        if perfect_recall:
            blocks += [("dealt", size, d), ("drawn", size + d, d)]
        _, offset, last = blocks[-1]
        self.tensor = np.zeros(offset + last, np.float32)
        self.dict = {name: self.tensor[at : at + n] for name, at, n in blocks}
        self._cards = {card: i for i, card in enumerate(rules.cards)}
        self._size = size
        # A drawn card's entry, by the tricks complete then, as the float32 tensor holds it.
        tricks = rules.tricks_per_hand
        self._drawn: list[float] = np.asarray(
            [k / tricks for k in range(tricks + 1)], np.float32
        ).tolist()
        self._n = rules.num_players
        # The view last written, by hand and player: OpenSpiel asks for one twice a step.
        self._last: tuple[_Hand, int, npt.NDArray[np.float32]] | None = None

    def set_from(self, state: BriscaState, player: int) -> None:
        """Write `player`'s view of `state` into :attr:`tensor`.

        Raises:
            StateError: `state` is not a BriscaState of these rules, or `player` not a seat.
        """
        # One test on the way OpenSpiel calls it; the encoder checks the state's rules.
        if type(state) is not BriscaState or not (type(player) is int and 0 <= player < self._n):
            self._hand(state)
            player = self._seat(player)
        hand = state._hand
        if hand is None:
            self.tensor.fill(0.0)
            return
        last = self._last
        if last is not None and last[0] is hand and last[1] == player:
            view = last[2]
        else:
            try:
                view = self._encoder.observation(hand.state, player)
            except BriscaError:
                self.tensor.fill(0.0)  # as it is left by a bad player
                raise
            self._last = (hand, player, view)
        # The view fills the tensor up to the information state's own blocks.
        self.tensor[: self._size] = view
        if self.perfect_recall:
            self.tensor[self._size :] = self._recall(hand, player)

    def items_from(self, state: BriscaState, player: int) -> list[float]:
        """What :attr:`tensor` holds after ``set_from(state, player)``, as a new list,
        made without writing the tensor: the game's tensors, when Python asks for them.

        Raises:
            StateError: `state` is not a BriscaState of these rules, or `player` not a seat.
        """
        if type(state) is not BriscaState or not (type(player) is int and 0 <= player < self._n):
            self._hand(state)
            player = _checked_seat(player, self._n)
        hand = state._hand
        if hand is None:
            return [0.0] * len(self.tensor)
        items = self._encoder.observation_list(hand.state, player)
        if self.perfect_recall:
            items += self._recall(hand, player)
        return items

    def _recall(self, hand: _Hand, player: int) -> list[float]:
        """The information state's own blocks: the cards `player` was dealt (``dealt``)
        and when it drew each (``drawn``)."""
        index, d = self._cards, len(self._cards)
        blocks = [0.0] * (2 * d)
        for card in hand.state.deal.hands[player]:
            blocks[index[card]] = 1.0
        for tricks, card, _ in hand.draws[player]:
            blocks[d + index[card]] = self._drawn[tricks]
        return blocks

    def string_from(self, state: BriscaState, player: int) -> str:
        """`player`'s view of `state` as JSON text.

        Raises:
            StateError: `state` is not a BriscaState of these rules, or `player` not a seat.
        """
        hand = self._hand(state)
        if not (type(player) is int and 0 <= player < self._n):
            player = self._seat(player)
        if hand is None:
            data: dict[str, Any] = {"seat": player, "shuffled": len(state._shuffled)}
        else:
            data = observation_to_dict(observe(hand.state, player))
            del data["rules"]
            if self.perfect_recall:
                data["dealt"] = [card.code for card in hand.state.deal.hands[player]]
                data["drawn"] = [[tricks, card.code] for tricks, card, _ in hand.draws[player]]
        return json.dumps(data, separators=(",", ":"))

    def _hand(self, state: object) -> _Hand | None:
        if not isinstance(state, BriscaState):
            raise StateError(f"expected a BriscaState, got {describe(state)}")
        hand = state._hand
        if (
            hand is not None
            and hand.state.rules is not self.rules
            and hand.state.rules != self.rules
        ):
            raise StateError("the state is of other rules than the observer's")
        return hand

    def _seat(self, player: object) -> int:
        try:
            return _checked_seat(player, self._n)
        except StateError:
            self.tensor.fill(0.0)  # as it is left by a bad player
            raise


pyspiel.register_game(_game_type(None, zero_sum=False), BriscaGame)
