"""Bots: players that choose an action from what their seat may know.

A bot is any callable that takes a seat's :class:`~brisca.Observation` and the
legal actions, and returns one of those actions (the :class:`Bot` protocol). A
plain function will do:

>>> import brisca
>>> from brisca.agents.bots import HeuristicBot, RandomBot, play_game
>>> def first_card(observation, legal):
...     return legal[0]
>>> final, outcome = play_game("spanish-2p", [first_card, HeuristicBot()], seed=7)
>>> final.is_over, sum(outcome.points)
(True, 120)

:func:`play_game` calls each seat's bot with ``observe(state, seat)`` only, so a
bot never sees hidden cards. Two bots come with the library:

- :class:`RandomBot` picks uniformly among the legal actions, from a seeded
  :class:`brisca.game.rng.Generator`;
- :class:`HeuristicBot` plays sensibly: it ducks with blank cards, wins tricks
  that hold an Ace or a Three with its cheapest winning card, trumps to capture
  them but not to take blank tricks, counts the points, and always claims a
  black hand, swaps for the turned card, sings a cante and makes an honest
  signal when offered; in the auction games it bids as far as its hand is worth.

Both choose only among the legal actions, so they obey arrastre and every other
duty by construction, and both accept action types they do not know: the random
bot picks among them like any other, and the heuristic bot falls back on the
cards it may play, or on the first legal action when it may play none.
"""

from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, TypeVar, cast

from brisca.agents.sampling import sample_state
from brisca.agents.search import (
    BUDGET,
    MAX_BUDGET,
    MAX_SAMPLES,
    cards_to_play,
    compact_endgames,
    evaluate,
    solve,
)
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
)
from brisca.game.cards import Card, DeckKind, Suit, deck_cards
from brisca.game.engine import (
    apply,
    checked_rules,
    checked_seed,
    legal_actions,
    new_game,
    observe,
    result,
)
from brisca.game.errors import (
    BARE_ERRORS,
    BotError,
    IllegalActionError,
    StateError,
    as_brisca_error,
    checked_int,
    describe,
    read_at_most,
    text_of,
)
from brisca.game.match import (
    Match,
    MatchObservation,
    MatchResult,
    new_match,
)
from brisca.game.rng import MAX_SEED, Generator
from brisca.game.rules import HandWinRule, Rules, TeamMode, TrumpSelection
from brisca.game.state import ContractResult, HandResult, Observation, State, seating_for
from brisca.game.tricks import winning
from brisca.game.variants.cantes import OTHER_CANTE, TRUMP_CANTE, pair

__all__ = [
    "BOTS",
    "LEVELS",
    "Bot",
    "HeuristicBot",
    "MatchBot",
    "RandomBot",
    "SearchBot",
    "ask",
    "bot_seed",
    "make_bot",
    "play_game",
    "play_match",
]


class Bot(Protocol):
    """A player: ``bot(observation, legal) -> action``.

    `observation` is what the seat to act may know (:func:`brisca.observe`);
    `legal` is :func:`brisca.legal_actions` of the state, never empty. The bot
    must return one of `legal`. A bot may keep state of its own between calls
    (a generator, a memory of the game), but it sees the game only through the
    observations it is given.
    """

    def __call__(self, observation: Observation, legal: Sequence[Action], /) -> Action: ...


class MatchBot(Protocol):
    """A player of whole matches: ``bot(match_observation, legal) -> action``.

    As :class:`Bot`, but `match_observation` is :func:`brisca.match_observe` of the
    match: the seat's view of the hand in progress (its ``current``) together with
    the public record, standings and stake. The bots of the library are both: they
    take either view. A hand bot plays a match as
    ``lambda view, legal: bot(view.current, legal)``.
    """

    def __call__(self, observation: MatchObservation, legal: Sequence[Action], /) -> Action: ...


def _hand_view(observation: Observation | MatchObservation) -> Observation:
    """The view of the hand in progress, from a hand's or a match's observation."""
    # By its type: isinstance would ask a value's own __class__, which may raise.
    if issubclass(type(observation), MatchObservation):
        current = cast(MatchObservation, observation).current
        if current is None:
            raise StateError("the match is over: there is no hand to play")
        return current
    return cast(Observation, observation)


class RandomBot:
    """Picks uniformly among the legal actions.

    Its choices come from ``brisca.game.rng.Generator(seed)``, so a seeded bot
    repeats itself; with no seed, one is drawn from the operating system. A seed
    is an int from 0 to :data:`brisca.game.rng.MAX_SEED`.
    """

    def __init__(self, seed: int | None = None) -> None:
        #: The seed the bot's choices come from.
        self.seed = checked_seed(seed)
        self._generator = Generator(self.seed)

    def __call__(
        self, observation: Observation | MatchObservation, legal: Sequence[Action], /
    ) -> Action:
        """One of `legal`, chosen at random: ``choose(legal)``, since the observation
        does not matter.

        Raises:
            StateError: `legal` is not a non-empty sequence of at most 10,000 actions.
        """
        return self.choose(legal)

    def choose(self, legal: Sequence[Action], /) -> Action:
        """One of `legal`, chosen at random: the bot's move, for a caller that would
        make an observation only to hand it over (an environment's opponent).

        Raises:
            StateError: `legal` is not a non-empty sequence of at most 10,000 actions,
                or cannot be read as one.
        """
        actions = _legal_actions(legal)
        return actions[self._generator.below(len(actions))]

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"


#: The most legal actions a bot reads: :func:`brisca.legal_actions` offers a few hundred
#: at most (every bid to :data:`brisca.game.actions.MAX_BID`), so more is not a game's.
MOST_LEGAL = 10_000


def _legal_actions(legal: object) -> Sequence[Action]:
    """`legal` as a sequence a bot may read freely: a tuple or list as it is, another
    sequence read into a tuple, one past `MOST_LEGAL` items at most (its own len,
    indexing and iteration may raise, or never end). A bot is only asked when there is
    at least one action. The items are not checked: a bot takes actions it does not know.
    """
    kind = type(legal)
    # legal_actions gives a tuple: that case asks no abstract class (a costly isinstance).
    if kind is tuple or kind is list:
        actions: Sequence[Action] = legal  # type: ignore[assignment]
    elif issubclass(kind, (str, bytes, bytearray)) or not issubclass(kind, Sequence):
        raise StateError(f"legal must be a sequence of actions, got {describe(legal)}")
    else:
        actions = tuple(read_at_most(cast(Sequence[Action], legal), MOST_LEGAL + 1, "legal"))
    if not actions:
        raise StateError("a bot needs at least one legal action; the hand is over")
    if len(actions) > MOST_LEGAL:
        raise StateError(f"legal holds more than {MOST_LEGAL:,} actions: no game offers so many")
    return actions


#: Card points on the table from which a trick is worth a trump or an Ace: an Ace or a Three.
RICH_TRICK = 10


class HeuristicBot:
    """Plays sensibly from the observation alone, by a few rules of thumb.

    In order of precedence:

    1. claim a black hand; swap for the turned card (a swap always gives a 7 or
       a 2 for a better card); sing a cante; make a signal (the engine offers
       only true ones);
    2. leading, play the cheapest card: blanks first, trumps last;
    3. following a partner who is winning, give it points when no opponent
       plays after us, else duck;
    4. following an opponent who is winning, win a rich trick (an Ace or a
       Three on the table, or enough points to decide the hand) with the
       cheapest card that wins it, a trump only when no card of the suit will
       do; take any trick with a card of the led suit when nobody plays after
       us; otherwise duck with the cheapest card.

    "Cheapest" weighs a card's points and, for a trump, its strength. Points
    are counted from the tricks taken, as players at the table may count them.

    In an auction it bids the lowest bid it may while the bid stays within what
    its hand is worth, and passes beyond: in subastada its side's even share of
    the 120 points, plus twice its card points over 8, plus 20 for each Rey and
    Caballo pair it could sing; in chiamata it names ranks
    down the trick order one step further for every 6 card points over 25, and
    never bids "2 + points". Naming the trump, or calling a card, it picks the
    suit it holds most points and cards in (a Rey and Caballo pair, which sings 40
    in trumps, counting 20 more), and calls a card it does not hold.
    """

    def __call__(
        self, observation: Observation | MatchObservation, legal: Sequence[Action], /
    ) -> Action:
        """The chosen action, one of `legal`; a match's view plays its hand in progress.

        Raises:
            StateError: `observation` is not an Observation or MatchObservation (or not
                one that :func:`brisca.observe` could give), the match is over, or
                `legal` is not a non-empty sequence of at most 10,000 actions.
        """
        legal = _legal_actions(legal)
        observation = _hand_view(observation)
        if not issubclass(type(observation), Observation):
            raise StateError(f"expected a brisca.Observation, got {describe(observation)}")
        try:
            return self._choose(observation, legal)
        except BARE_ERRORS as error:
            # Only a hand-edited view, or legal actions, with junk fields gets here.
            raise StateError(
                "the observation or the legal actions are not what brisca.observe and "
                f"brisca.legal_actions give ({type(error).__name__})"
            ) from None

    def _choose(self, observation: Observation, legal: Sequence[Action]) -> Action:
        plays: list[Card] = []
        for action in legal:
            kind = type(action)
            if kind in _ALWAYS:
                return action
            if kind is Play:
                plays.append(action.card)  # type: ignore[union-attr]
        if not plays:
            call = _auction_call(observation, legal)
            return legal[0] if call is None else call  # legal[0]: an action it does not know
        card = _Table(observation).choose(plays)
        for action in legal:
            if type(action) is Play and action.card is card:
                return action
        raise AssertionError("unreachable: the chosen card is one of the plays")

    def __repr__(self) -> str:
        return "HeuristicBot()"


#: Actions the heuristic always takes when offered: each only helps its side.
_ALWAYS = (ClaimBlackHand, Swap, Sing, Signal)


def _suit_value(observation: Observation, suit: Suit) -> int:
    """How much of `suit` the seat holds: its card points, and one per card."""
    points = observation.rules.card_points
    return sum(points(c) + 1 for c in observation.hand if c.suit is suit)


def _auction_call(observation: Observation, legal: Sequence[Action]) -> Action | None:
    """The heuristic's auction call, trump naming or card call; ``None`` if none is legal."""
    rules = observation.rules
    hand = observation.hand
    names = [a for a in legal if isinstance(a, NameTrump)]
    if names:  # a pair in trumps sings 40 rather than 20

        def sings(suit: Suit) -> bool:
            return rules.cantes and set(pair(suit)) <= set(hand)

        bonus = TRUMP_CANTE - OTHER_CANTE
        return max(names, key=lambda a: _suit_value(observation, a.suit) + bonus * sings(a.suit))
    calls = [a for a in legal if isinstance(a, CallCard)]
    if calls:  # a card held would mean playing alone
        return max(calls, key=lambda a: (a.card not in hand, _suit_value(observation, a.card.suit)))
    passes = [a for a in legal if isinstance(a, Pass)]
    if not passes:
        return None
    points = sum(rules.card_points(c) for c in hand)
    if rules.trump_selection is TrumpSelection.AUCTION:
        pairs = sum(set(pair(s)) <= set(hand) for s in Suit) if rules.cantes else 0
        team = 1 if rules.team_mode is TeamMode.DECLARER_VS_REST else 2
        worth = 120 * team // rules.active_players + 2 * (points - 8) + OTHER_CANTE * pairs
        bids = [a for a in legal if isinstance(a, Bid)]
        if bids and min(b.points for b in bids) <= worth:
            return min(bids, key=lambda b: b.points)
        return passes[0]
    ranks = [a for a in legal if isinstance(a, BidRank)]
    if ranks:
        order = sorted(
            {c.rank for c in rules.cards}, key=lambda r: -rules.card_strength(Card(r, Suit.OROS))
        )
        best = min(ranks, key=lambda a: order.index(a.rank))
        if order.index(best.rank) <= (points - 25) // 6:
            return best
    return passes[0]


class _Table:
    """The heuristic's reading of one observation."""

    def __init__(self, observation: Observation) -> None:
        self.obs = observation
        self.rules = observation.rules
        self.trump: Suit | None = observation.trump  # None while the seat cannot know it
        self.seating = seating_for(observation.rules, observation.dealer)
        self.side = next(
            (i for i, side in enumerate(observation.sides) if observation.seat in side), -1
        )

    def is_trump(self, card: Card) -> bool:
        return card.suit is self.trump

    def cost(self, card: Card) -> float:
        """What giving `card` away costs: its points, and a trump's power."""
        points = self.rules.card_points(card)
        if self.is_trump(card):
            return points + 6 + self.rules.card_strength(card) / 2
        return points + self.rules.card_strength(card) / 100

    def beats(self, card: Card, top: Card) -> bool:
        """Whether `card` takes the trick from `top`, the card winning it now."""
        return winning(((0, top), (1, card)), self.trump, self.seating)[0] == 1

    def opponents_after(self) -> bool:
        """Whether an opponent still plays to this trick after us."""
        obs = self.obs
        in_play = [seat for side in obs.sides for seat in side]
        n = len(obs.hand_sizes)
        seat, left = obs.seat, len(in_play) - 1 - len(obs.trick)
        mine = obs.sides[self.side] if self.side >= 0 else ()
        for _ in range(n):  # each seat once at most: a hand-edited view's may never come
            if left <= 0:
                break
            seat = (seat + 1) % n
            if seat in in_play:
                left -= 1
                if seat not in mine:
                    return True
        return False

    def decisive(self, at_stake: int) -> bool:
        """Whether `at_stake` points would carry either of two sides past 60."""
        obs = self.obs
        if self.rules.hand_win_rule is not HandWinRule.OVER_60 or len(obs.sides) != 2:
            return False
        sides = obs.side_points  # a sum over the tricks: once
        return all(points <= 60 for points in sides) and any(
            points + at_stake > 60 for points in sides
        )

    def choose(self, plays: list[Card]) -> Card:
        if not self.obs.trick:
            return min(plays, key=self.cost)
        seat, top = winning(self.obs.trick, self.trump, self.seating)
        last = not self.opponents_after()
        if seat in (self.obs.sides[self.side] if self.side >= 0 else ()):
            if last:  # give our side points: the richest card that is not a trump
                plain = [c for c in plays if not self.is_trump(c)]
                if plain:
                    return max(plain, key=lambda c: (self.rules.card_points(c), -self.cost(c)))
            return min(plays, key=self.cost)
        on_table = sum(self.rules.card_points(c) for _, c in self.obs.trick)
        beaters = [c for c in plays if self.beats(c, top)]
        plain = [c for c in beaters if not self.is_trump(c)]
        trumps = [c for c in beaters if self.is_trump(c)]
        rich = on_table >= RICH_TRICK or self.decisive(on_table)
        if plain and (last or rich):
            if last:  # safe: win with the richest card of the suit
                return max(plain, key=lambda c: (self.rules.card_points(c), -self.cost(c)))
            return max(plain, key=self.rules.card_strength)
        if trumps:
            cheapest = min(trumps, key=self.cost)
            small = (
                self.rules.card_points(cheapest) == 0 and self.rules.card_strength(cheapest) <= 4
            )
            if rich or (on_table >= 4 and small and last):
                return cheapest
        return min(plays, key=self.cost)


class SearchBot:
    """Determinized search: Perfect Information Monte Carlo over sampled worlds.

    At each decision it samples `samples` full states that its seat cannot tell
    from the real one (:func:`brisca.agents.sampling.sample_state`), values every legal
    action in each and plays the action with the best mean value:

    - **card play**, once at most `exact_cards` cards remain to be played (hands
      and talon; by default ten, and at a table of four in play whose endgame the
      solver searches compactly, twelve: the last three tricks), is solved exactly
      in every world by :func:`brisca.agents.search.solve`, for its side's points.
      Earlier a world is too large to solve, and `early` says what the bot does:
      ``"heuristic"`` (the default) plays as :class:`HeuristicBot` does;
      ``"rollouts"`` plays each world out from each action, with the heuristic at
      every seat until the solver takes over; a number searches each world that
      many tricks deep, scoring the points taken by then. The default measured
      strongest (see the "Bots and search" page);
    - **the auction** (bids, naming the trump, calling a card) is valued by
      rollouts, as above, scoring the contract the way the rules score it for the
      bot's seat. So it bids from the search's estimate of what its hand makes,
      not from a table.

    A black hand is always claimed. Among actions of equal value it keeps the one
    the heuristic would choose. It sees only its observation, and its choices come
    from ``brisca.game.rng.Generator(seed)``: a seeded bot repeats itself.

    Every decision is bounded: its searches visit at most `budget` positions in all,
    shared equally among its worlds (and, in rollouts, among the candidates). A world
    too large for its share is valued from the deepest search that fits it, as
    ``solve(..., partial=True)`` does, and a rollout whose endgame does not fit
    is played out by the heuristic.

    Args:
        samples: worlds per decision, from 1 to :data:`~brisca.agents.search.MAX_SAMPLES`
            (8 by default).
        seed: an int from 0 to :data:`brisca.game.rng.MAX_SEED`; drawn from the
            operating system when omitted.
        exact_cards: solve card play exactly once at most this many cards remain,
            from 0 to :data:`MAX_CARDS`; by default (``None``) 12 where four seats
            play and :func:`~brisca.agents.search.compact_endgames` holds of the
            rules (spanish-4p and -5p, arrastre-4p, chilean-rematada), which
            measured stronger in spanish-4p within 100 ms a decision, and 10 elsewhere.
        early: how to play before that: ``"heuristic"`` (the default), ``"rollouts"``,
            or a search depth in tricks, from 1 to :data:`MAX_TRICKS`.
        budget: the most positions a decision searches, from 1 to
            :data:`~brisca.agents.search.MAX_BUDGET`
            (:data:`~brisca.agents.search.BUDGET` by default).
    """

    def __init__(
        self,
        samples: int = 8,
        seed: int | None = None,
        exact_cards: int | None = None,
        early: str | int = "heuristic",
        budget: int = BUDGET,
    ) -> None:
        checked_int(samples, "samples", 1, MAX_SAMPLES)
        if exact_cards is not None:
            checked_int(exact_cards, "exact_cards", 0, MAX_CARDS)
        checked_int(budget, "budget", 1, MAX_BUDGET)
        depth = type(early) is int and 1 <= early <= MAX_TRICKS
        text = text_of(early)  # its plain text: a subclass's own == is not asked
        if text is not None:
            early = text
        if text not in ("heuristic", "rollouts") and not depth:
            raise StateError(
                f"early must be 'heuristic', 'rollouts' or a depth from 1 to {MAX_TRICKS}, "
                f"got {describe(early)}"
            )
        #: The seed the bot's choices come from.
        self.seed = checked_seed(seed)
        self.samples = samples
        self.exact_cards = exact_cards
        self.early = early
        self.budget = budget
        #: How many decisions it has searched (sampled worlds for) so far.
        self.searches = 0
        self._generator = Generator(self.seed)
        self._heuristic = HeuristicBot()

    def __call__(
        self, observation: Observation | MatchObservation, legal: Sequence[Action], /
    ) -> Action:
        """The chosen action, one of `legal`; a match's view plays its hand in progress.

        Raises:
            StateError: `observation` is not an Observation or MatchObservation, the
                match is over, or `legal` is not a non-empty sequence of at most 10,000
                actions; and, where the bot searches, `legal` holds an action that is
                not legal or no world is consistent with the observation. Where it
                plays as the heuristic, it trusts `legal` to be
                :func:`brisca.legal_actions`, as every bot does.
        """
        legal = _legal_actions(legal)  # read once: the search reads it again and again
        guess = self._heuristic(observation, legal)  # checks the observation
        view = _hand_view(observation)
        if len(legal) == 1 or type(guess) is ClaimBlackHand:
            return guess
        try:
            return self._search(view, legal, guess)
        except BARE_ERRORS as error:
            # Only a hand-edited view with junk fields gets here: observe() never gives one.
            raise as_brisca_error("the observation", error) from None

    def _search(self, view: Observation, legal: Sequence[Action], guess: Action) -> Action:
        if not any(type(a) is Play for a in legal):
            return self._rollouts(view, _auction_candidates(legal, guess), guess)
        depth: int | None = None
        if _cards_to_play(view) > _exact_cards(self.exact_cards, view.rules):
            if self.early == "heuristic":
                return guess
            if self.early == "rollouts":
                return self._rollouts(view, legal, guess)
            depth = int(self.early)
        self.searches += 1
        values = evaluate(
            view, legal, samples=self.samples, rng=self._generator, depth=depth, budget=self.budget
        )
        return _best(legal, values, guess)

    def _rollouts(self, view: Observation, candidates: Sequence[Action], guess: Action) -> Action:
        """The candidate whose sampled worlds, played out, score best for the bot's seat."""
        if len(candidates) == 1:
            return candidates[0]
        self.searches += 1
        totals = [0.0] * len(candidates)
        seat = view.seat
        share = self.budget // (self.samples * len(candidates))
        for _ in range(self.samples):
            world = sample_state(view, self._generator)
            for i, action in enumerate(candidates):
                final = self._rolled_out(apply(world, action), share)
                totals[i] += _seat_score(final, seat)
        return _best(candidates, totals, guess)

    def _rolled_out(self, state: State, budget: int) -> State:
        """`state` played to its end: the heuristic at every seat, and the solver once
        the cards left are few, while its `budget` of positions lasts."""
        heuristic = self._heuristic
        exact_cards = _exact_cards(self.exact_cards, state.rules)
        solving = False
        while not state.is_over:
            if not solving and not state.trick and state.trump is not None:
                solving = budget > 0 and cards_to_play(state) <= exact_cards
            if solving:  # every seat plays its best for its own side
                solution = solve(state, budget=budget, partial=True)
                budget -= solution.nodes
                solving = solution.exact and budget > 0
                if solution.exact:
                    state = apply(state, solution.best_actions[0])
                    continue
            seat: int = state.to_act  # type: ignore[assignment]
            state = apply(state, heuristic(observe(state, seat), legal_actions(state)))
        return state

    def __repr__(self) -> str:
        budget = "" if self.budget == BUDGET else f", budget={self.budget}"
        return (
            f"SearchBot(samples={self.samples}, seed={self.seed}, "
            f"exact_cards={self.exact_cards}, early={self.early!r}{budget})"
        )


#: The most cards a hand plays: the largest pack's (``exact_cards`` beyond it changes nothing).
MAX_CARDS = len(deck_cards(DeckKind.SPANISH48))
#: The most tricks a hand has: the largest pack between two players.
MAX_TRICKS = MAX_CARDS // 2


@functools.lru_cache(maxsize=64)
def _default_exact_cards(rules: Rules) -> int:
    """The search bot's `exact_cards` unless told: the last three tricks (twelve cards) at
    a table of four whose endgame the solver searches compactly, ten elsewhere."""
    return 12 if rules.active_players == 4 and compact_endgames(rules) else 10


def _exact_cards(setting: int | None, rules: Rules) -> int:
    return _default_exact_cards(rules) if setting is None else setting


def _cards_to_play(view: Observation) -> int:
    """How many cards are still to be played, as `view`'s seat counts them: in the hands,
    the stock and the turned card (:func:`brisca.agents.search.cards_to_play` of the state)."""
    turned = seating_for(view.rules, view.dealer).layout.turned is not None
    on_table = turned and view.trump_card_drawn is None
    return sum(view.hand_sizes) + view.stock_size + on_table


def _best(actions: Sequence[Action], values: Sequence[float], guess: Action) -> Action:
    """The action of best value; the heuristic's `guess` among equals, else the first."""
    top = max(values)
    best = [a for a, v in zip(actions, values, strict=True) if v >= top - 1e-9]
    return guess if guess in best else best[0]


def _auction_candidates(legal: Sequence[Action], guess: Action) -> list[Action]:
    """The auction calls worth valuing: passing, the lowest raise of each kind (an
    ascending auction gains nothing by jumping), every trump or card to name, and the
    heuristic's own call."""
    out: list[Action] = []
    bids = [a for a in legal if isinstance(a, Bid)]
    ranks = [a for a in legal if isinstance(a, BidRank)]
    if bids:
        out.append(min(bids, key=lambda b: b.points))
    if ranks:  # offered strongest first: the strongest rank left is the lowest raise
        out.append(ranks[0])
    out += [a for a in legal if not isinstance(a, (Bid, BidRank))]
    if guess not in out:
        out.append(guess)
    return out


def _seat_score(state: State, seat: int) -> float:
    """What a finished hand scores for `seat`: its contract score in the auction games."""
    outcome = result(state)
    if isinstance(outcome.details, ContractResult):
        return outcome.details.seat_scores[seat]
    side = state.seating.side_of[seat]
    return 0 if side < 0 else outcome.points[side]


def play_game(
    rules: Rules | str,
    bots: Sequence[Bot],
    *,
    seed: int | None = None,
    deck: Sequence[Card | str] | None = None,
    dealer: int | None = None,
    on_action: Callable[[State, Action], object] | None = None,
) -> tuple[State, HandResult]:
    """Deal a hand and let the bots play it out; return the final state and its result.

    Args:
        rules: a `Rules` value or a preset name.
        bots: one bot per seat, by seat number (a seat sitting out is never asked).
        seed: as for :func:`brisca.new_game`.
        deck: as for :func:`brisca.new_game`.
        dealer: as for :func:`brisca.new_game`.
        on_action: called as ``on_action(state, action)`` before each action is
            applied, to record or show the game.

    Each bot is called with ``observe(state, seat)`` and ``legal_actions(state)``
    (through :func:`ask`, which asks a `RandomBot` for the same choice without the view).

    Raises:
        BriscaError: not one bot per seat, or bad rules, seed, deck or dealer.
        IllegalActionError: a bot returned an action that is not legal; the
            message names the seat and the rule.
    """
    rules = checked_rules(rules)
    players = _check_players(bots, rules.num_players, on_action, "play_game")
    state = new_game(rules, seed=seed, deck=deck, dealer=dealer)
    final: tuple[State, HandResult] = _play_out(state, players, on_action)
    return final


def _check_players(bots: object, seats: int, on_action: object, caller: str) -> tuple[Any, ...]:
    """The bots, one callable per seat, read once and one past the seats at most (so an
    endless iterable is refused, and a generator is not read twice); and `on_action`, a
    callable or None, checked."""
    kind = type(bots)  # not isinstance, which asks a value's own __class__
    if issubclass(kind, (str, bytes, bytearray)) or not issubclass(kind, Iterable):
        raise StateError(f"{caller} needs a sequence of bots, one per seat; got {describe(bots)}")
    players = tuple(read_at_most(cast(Iterable[Any], bots), seats + 1, f"{caller}'s bots"))
    if on_action is not None and not callable(on_action):
        raise StateError(f"on_action must be a callable or None, got {describe(on_action)}")
    if len(players) != seats or not all(callable(bot) for bot in players):
        many = f"more than {seats}" if len(players) > seats else len(players)
        raise StateError(f"{caller} needs one bot (a callable) per seat: {seats}, got {many}")
    return players


G = TypeVar("G", State, Match)


def _play_out(
    game: G, bots: tuple[Any, ...], on_action: Callable[[G, Action], object] | None
) -> Any:
    """Let the bots play `game`, a hand or a match, to its end: ``(final game, result)``.

    The engine's functions take a hand and a match alike, so one loop serves both.
    """
    while (seat := game.to_act) is not None:
        action = ask(bots[seat], game, legal_actions(game))
        if on_action is not None:
            on_action(game, action)
        try:
            game = apply(game, action)
        except IllegalActionError as error:
            raise IllegalActionError(
                f"the bot of seat {seat} chose {describe(action, typed=False)}: {error}"
            ) from None
    return game, result(game)


def ask(bot: Bot | MatchBot, game: State | Match, legal: Sequence[Action]) -> Action:
    """The action `bot` chooses for the seat to act in `game`, a hand or a match, among
    its `legal` actions: ``bot(observe(game, seat), legal)``. A :class:`RandomBot` reads
    no observation, so it is asked ``choose(legal)`` instead: the same choice, without
    the cost of an observation (a quarter of a random playout's).

    Raises:
        StateError: `bot` is not callable, `game` is neither a State nor a Match, or
            it is over.
    """
    if not callable(bot):
        raise StateError(f"a bot is a callable, got {describe(bot)}")
    if type(game) is not State and not issubclass(type(game), Match):
        raise StateError(f"expected a brisca.State or Match, got {describe(game)}")
    seat = game.to_act
    if seat is None:
        raise StateError("the game is over: no seat is to act")
    if type(bot) is RandomBot:
        return bot.choose(legal)
    return bot(observe(game, seat), legal)  # type: ignore[arg-type]


def play_match(
    match: Match | Rules | str,
    bots: Sequence[MatchBot],
    *,
    seed: int | None = None,
    dealer: int | None = None,
    on_action: Callable[[Match, Action], object] | None = None,
) -> tuple[Match, MatchResult]:
    """Let the bots play a match to its end; return the final match and its result.

    Args:
        match: a match to play on, or the rules (a `Rules` value or a preset name)
            of a new one, started with :func:`brisca.new_match`.
        bots: one bot per seat, by seat number; each is called with
            ``match_observe(match, seat)`` and the legal actions.
        seed: as for :func:`brisca.new_match`; only for a new match.
        dealer: the first dealer, as for :func:`brisca.new_match`; only for a new match.
        on_action: called as ``on_action(match, action)`` before each action is
            applied, to record or show the match.

    >>> final, outcome = play_match("chilean-rematada", [HeuristicBot()] * 4, seed=3)
    >>> final.is_over, len(final.hands), outcome.winners
    (True, 2, (0, 2))

    Raises:
        BriscaError: not one bot per seat, bad rules, seed or dealer, or a seed or
            dealer given with a match already started.
        IllegalActionError: a bot returned an action that is not legal; the
            message names the seat and the rule.
    """
    game: Match | None = None
    if issubclass(type(match), Match):  # not isinstance, which asks its own __class__
        game = cast(Match, match)
        if seed is not None or dealer is not None:
            raise StateError("seed and dealer start a new match; this one is already dealt")
        rules = game.rules
    else:
        rules = checked_rules(match)
    players = _check_players(bots, rules.num_players, on_action, "play_match")
    if game is None:
        game = new_match(rules, seed=seed, dealer=dealer)
    final: tuple[Match, MatchResult] = _play_out(game, players, on_action)
    return final


#: The bots known by name, to the command line, the arena and the server: each a
#: factory from a seed to a bot. Add to it to make a bot of your own known by name.
BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "heuristic": lambda seed: HeuristicBot(),
    "search": lambda seed: SearchBot(seed=seed),
}


#: The difficulty levels of ``brisca play --level`` and of the server, easiest first: the
#: name of the bot in :data:`BOTS` that plays each.
LEVELS: dict[str, str] = {"easy": "random", "normal": "heuristic", "hard": "search"}


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot at `seat` in a game dealt from `game_seed`: how the arena,
    ``brisca simulate`` and ``brisca play`` seed their bots, so a game is replayed whole.
    It is ``(game_seed << 8) + seat + 1``, wrapped to :data:`brisca.game.rng.MAX_SEED`
    bits, so that every game seed gives seeds a bot takes.

    >>> bot_seed(7, 1), bot_seed(2**1024 - 1, 0) == 2**1024 - 255
    (1794, True)

    Raises:
        BotError: either is not a non-negative int.
    """
    checked_int(game_seed, "game_seed", error=BotError)
    checked_int(seat, "seat", error=BotError)
    # Within the seeds a bot takes: unchanged below 2**1016, wrapped above.
    return ((game_seed << 8) + seat + 1) & MAX_SEED


def make_bot(name: str, seed: int = 0) -> Bot:
    """The bot called `name`, seeded with `seed`: a name in :data:`BOTS`, or
    ``"module:Class"`` for a bot of your own.

    A ``module:Class`` bot is made as ``Class(seed=seed)`` when its constructor takes
    a ``seed`` argument, else as ``Class()``; any callable of the module will do.

    >>> make_bot("random", seed=3)
    RandomBot(seed=3)
    >>> make_bot("brisca.agents.bots:HeuristicBot")
    HeuristicBot()
    >>> make_bot("clever")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    brisca.BotError: unknown bot 'clever': the bots are random, heuristic, search, or ...

    Raises:
        BotError: an unknown name, a seed that is not an int from 0 to
            :data:`brisca.game.rng.MAX_SEED`, a module or class that cannot be imported,
            or a class whose construction fails or gives something that is not callable.
    """
    text = text_of(name)  # its plain text: a subclass's own hash or == is never run
    if text is None:
        raise BotError(f"a bot's name is a str, got {describe(name)}")
    name = text
    checked_int(seed, "a bot's seed", 0, MAX_SEED, error=BotError)
    factory = BOTS.get(name)
    if factory is not None:
        return factory(seed)
    shown = describe(name, typed=False)
    module_name, colon, attribute = name.partition(":")
    if not colon or not module_name or not attribute:
        known = ", ".join(BOTS)
        raise BotError(f"unknown bot {shown}: the bots are {known}, or module:Class")
    if module_name.startswith("."):  # import_module would want a package to start from
        raise BotError(f"cannot import the bot {shown}: name its module in full, not relative")
    try:
        made: object = getattr(importlib.import_module(module_name), attribute)
    except Exception as error:  # not found, or the module's own code failed: its reason
        raise BotError(f"cannot import the bot {shown}: {_reason(error)}") from None
    if issubclass(type(made), type):  # a class (not isinstance: its own __class__ may lie)
        kind = cast(type, made)
        try:
            takes_seed = "seed" in inspect.signature(kind).parameters
        except Exception:  # a signature Python cannot read: call it plainly
            takes_seed = False
        try:
            made = kind(seed=seed) if takes_seed else kind()
        except Exception as error:
            raise BotError(f"cannot make the bot {shown}: {_reason(error)}") from None
    if not callable(made):
        raise BotError(f"the bot {shown} is not callable")
    bot: Bot = made
    return bot


def _reason(error: Exception) -> str:
    """What `error`, raised by a user's module or class, says: capped, since its text is
    theirs, and its type alone if it has none or its text fails."""
    try:
        text = str(error)
    except Exception:  # its own __str__ fails
        text = ""
    if not text:
        return type(error).__name__
    return text if len(text) <= 200 else text[:197] + "..."
