"""The search bot: legal in every preset, blind to hidden cards, repeatable, exact at the end."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from helpers import stacked

import brisca
from brisca import Action, Observation
from brisca.agents.bots import BOTS, LEVELS, HeuristicBot, SearchBot, make_bot, play_game
from brisca.agents.sampling import sample_state
from brisca.agents.search import cards_to_play, solve
from brisca.game.rng import Generator


def positions(preset: str, count: int, left: int, seed: int) -> list[brisca.State]:
    """Seeded positions of heuristic games with at most `left` cards still to play, or
    for ``left=0``, the first calls of an auction."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = brisca.new_game(preset, seed=rng.randrange(2**32))
        if left == 0:
            state = brisca.apply(state, brisca.legal_actions(state)[rng.randrange(2)])
        while left and not state.is_over and (cards_to_play(state) > left or state.trump is None):
            seat: int = state.to_act  # type: ignore[assignment]
            state = brisca.apply(
                state, HeuristicBot()(brisca.observe(state, seat), brisca.legal_actions(state))
            )
        if not state.is_over and len(brisca.legal_actions(state)) > 1:
            found.append(state)
    return found


@pytest.mark.parametrize("name", sorted(brisca.PRESETS))
def test_search_bot_only_ever_chooses_legal_actions(name: str) -> None:
    """In every preset, auctions and optional actions included, the search bot's every
    choice is legal, and a searching seat does search."""
    rules = brisca.preset(name)
    bot = SearchBot(samples=3, seed=1)
    chosen: list[tuple[Action, tuple[Action, ...]]] = []

    def checked(observation: Observation, legal: Sequence[Action]) -> Action:
        action = bot(observation, legal)
        chosen.append((action, tuple(legal)))
        return action

    for seed in range(2):
        players = [
            checked if seat % 2 == seed % 2 else HeuristicBot() for seat in range(rules.num_players)
        ]
        final, _ = play_game(rules, players, seed=seed, dealer=seed % rules.num_players)
        assert final.is_over
    assert chosen and all(action in legal for action, legal in chosen)
    assert bot.searches > 0


@pytest.mark.parametrize(
    ("preset", "left"),
    [("spanish-2p", 10), ("puerto-rican-2p", 10), ("spanish-4p", 8), ("subastada-4p", 0)],
)
def test_search_bot_never_reads_hidden_cards(preset: str, left: int) -> None:
    """Two states that differ only in what the seat cannot see (other hands, the stock's
    order) give the bot the same view, and with the same seed it chooses the same action."""
    for state in positions(preset, 6, left, seed=len(preset) + left):
        seat: int = state.to_act  # type: ignore[assignment]
        view = brisca.observe(state, seat)
        other = next(
            world
            for k in range(50)
            if (world := sample_state(view, Generator(k))).hands != state.hands
            or world.stock != state.stock
        )
        assert brisca.observe(other, seat) == view
        assert brisca.legal_actions(other) == brisca.legal_actions(state)
        first, second = SearchBot(samples=4, seed=9), SearchBot(samples=4, seed=9)
        assert first(view, brisca.legal_actions(state)) == second(
            brisca.observe(other, seat), brisca.legal_actions(other)
        )
        assert first.searches == second.searches == 1


def test_search_bot_repeats_its_seed() -> None:
    """Two search bots with the same seed play the same game."""

    def game(seed: int) -> brisca.State:
        bots = [SearchBot(samples=3, seed=seed), HeuristicBot()]
        return play_game("arrastre-2p", bots, seed=4)[0]

    assert game(5) == game(5)


def test_search_bot_plays_a_known_endgame_perfectly() -> None:
    """2p with the stock gone: every card is known, so every sampled world is the real
    one and the bot's choice is one of the solver's best actions."""
    for state in positions("spanish-2p", 20, 6, seed=2):
        seat: int = state.to_act  # type: ignore[assignment]
        action = SearchBot(samples=2, seed=1)(
            brisca.observe(state, seat), brisca.legal_actions(state)
        )
        assert action in solve(state).best_actions


def test_search_bot_keeps_the_point_the_heuristic_throws_away() -> None:
    """A 2p endgame where the heuristic's rule of thumb loses points: seat 1 leads into
    seat 0's known hand, and the search bot takes the line the solver proves best."""
    for state in positions("spanish-2p", 200, 6, seed=7):
        seat: int = state.to_act  # type: ignore[assignment]
        view, legal = brisca.observe(state, seat), brisca.legal_actions(state)
        solution = solve(state)
        if HeuristicBot()(view, legal) not in solution.best_actions:
            assert SearchBot(samples=1, seed=1)(view, legal) in solution.best_actions
            return
    pytest.fail("the heuristic played every endgame perfectly")


def test_search_bot_bids_from_its_estimate_of_the_hand() -> None:
    """Subastada, first to bid with the Ace, Three and Rey of oros: with a partner (4p)
    the worlds played out make the 60 and the bot bids; alone against two (3p) they
    fail it and the bot passes, where a table of hand values would bid both."""
    for preset, expected in (("subastada-4p", brisca.Bid(60)), ("subastada-3p", brisca.Pass())):
        state = stacked(brisca.preset(preset), {0: ["1O", "3O", "12O"]})
        bot = SearchBot(samples=8, seed=3)
        assert bot(brisca.observe(state, 0), brisca.legal_actions(state)) == expected
        assert bot.searches == 1
    heuristic = HeuristicBot()
    for preset in ("subastada-4p", "subastada-3p"):
        state = stacked(brisca.preset(preset), {0: ["1O", "3O", "12O"]})
        assert heuristic(brisca.observe(state, 0), brisca.legal_actions(state)) == brisca.Bid(60)


def test_search_bot_raises_a_chiamata_auction_by_the_lowest_step() -> None:
    """Chiamata, after a bid of the Three: the bot passes, bids the Rey (the next rank
    down, the lowest raise) or makes the heuristic's call, and never jumps further."""
    rules = brisca.preset("chiamata-5p")
    for seed in range(6):
        state = brisca.apply(brisca.new_game(rules, seed=seed), brisca.BidRank(3))
        view, legal = brisca.observe(state, 1), brisca.legal_actions(state)
        guess = HeuristicBot()(view, legal)
        # The calls it weighs are the rule under test, so read them where they are made.
        weighed = brisca.agents.bots._auction_candidates(legal, guess)
        assert set(weighed) == {brisca.BidRank(12), brisca.Pass(), guess}
        assert SearchBot(samples=2, seed=seed)(view, legal) in weighed


def test_search_bot_names_the_trump_its_hand_plays_best() -> None:
    """Having won the auction with the Ace, Three and Rey of espadas, it names espadas."""
    rules = brisca.preset("subastada-4p")
    state = stacked(rules, {0: ["1E", "3E", "12E"]})
    for action in (brisca.Bid(60), brisca.Pass(), brisca.Pass(), brisca.Pass()):
        state = brisca.apply(state, action)
    bot = SearchBot(samples=8, seed=3)
    assert bot(brisca.observe(state, 0), brisca.legal_actions(state)) == brisca.NameTrump("E")


def test_search_bot_refuses_bad_arguments() -> None:
    """Bad settings and bad calls get a StateError that says what is wrong."""
    for kwargs in (
        {"samples": 0},
        {"samples": 2.5},
        {"exact_cards": -1},
        {"seed": -3},
        {"early": "guess"},
        {"early": 0},
        {"early": True},
    ):
        with pytest.raises(brisca.StateError):
            SearchBot(**kwargs)  # type: ignore[arg-type]
    state = brisca.new_game("spanish-2p", seed=1)
    bot = SearchBot(seed=1)
    with pytest.raises(brisca.StateError, match="legal"):
        bot(brisca.observe(state, 0), [])
    with pytest.raises(brisca.StateError, match="Observation"):
        bot("a view", brisca.legal_actions(state))  # type: ignore[arg-type]


def test_the_levels_name_bots_that_exist() -> None:
    """easy, normal and hard are the random, heuristic and search bots, all made by name."""
    assert list(LEVELS) == ["easy", "normal", "hard"]
    assert all(name in BOTS for name in LEVELS.values())
    assert isinstance(make_bot(LEVELS["hard"], seed=2), SearchBot)
    assert repr(make_bot("search", seed=2)) == (
        "SearchBot(samples=8, seed=2, exact_cards=None, early='heuristic')"
    )


def test_early_says_how_the_bot_plays_before_the_end() -> None:
    """At the first trick, too large to solve: the default plays the heuristic's card
    without searching; rollouts and a depth-limited search sample worlds for it."""
    state = brisca.new_game("spanish-2p", seed=6)
    view, legal = brisca.observe(state, 0), brisca.legal_actions(state)
    default = SearchBot(samples=2, seed=1)
    assert default(view, legal) == HeuristicBot()(view, legal)
    assert default.searches == 0
    for early in ("rollouts", 2):
        bot = SearchBot(samples=2, seed=1, early=early)
        assert bot(view, legal) in legal
        assert bot.searches == 1


@pytest.mark.parametrize(
    ("preset", "searches"),
    [("spanish-4p", True), ("arrastre-4p", True), ("spanish-2p", False), ("casino-4p", False)],
)
def test_by_default_four_seats_solve_the_last_three_tricks(preset: str, searches: bool) -> None:
    """With twelve cards left, the default solves at a table of four whose endgame the
    solver searches compactly, and plays the heuristic elsewhere (ten cards, as
    ``exact_cards=10`` does everywhere)."""
    for state in positions(preset, 3, 12, seed=4):
        if cards_to_play(state) < 12:
            continue
        seat: int = state.to_act  # type: ignore[assignment]
        view, legal = brisca.observe(state, seat), brisca.legal_actions(state)
        default, ten = SearchBot(samples=2, seed=1), SearchBot(samples=2, seed=1, exact_cards=10)
        assert default(view, legal) in legal and ten(view, legal) in legal
        assert (default.searches, ten.searches) == (int(searches), 0)
        return
    pytest.fail("no position with twelve cards to play")


class _Liar(str):
    """Text whose own == says yes to anything."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = str.__hash__


class _Raising(str):
    def __eq__(self, other: object) -> bool:
        raise TypeError("hostile ==")

    __hash__ = str.__hash__


def test_search_bot_reads_early_as_its_plain_text() -> None:
    """`early` is text or a depth: text is read as its plain text, as every reader of
    text is, so a subclass's own == is never asked and a plain str is kept."""
    assert SearchBot(early=_Raising("rollouts")).early == "rollouts"
    assert type(SearchBot(early=_Raising("rollouts")).early) is str
    with pytest.raises(brisca.StateError, match="early must be 'heuristic', 'rollouts'"):
        SearchBot(early=_Liar("anything"))


@pytest.mark.parametrize("game_seed", [0, 7, 2**1015, 2**1016, 2**1023, 2**1024 - 1])
def test_every_game_seed_seeds_its_bots(game_seed: int) -> None:
    """`bot_seed` gives a seed every bot takes for every game seed the engine takes (it
    wrapped past `MAX_SEED` for game seeds from 2**1016 on); below that, as before."""
    from brisca.agents.bots import bot_seed
    from brisca.game.rng import MAX_SEED

    for seat in range(4):
        seed = bot_seed(game_seed, seat)
        assert 0 <= seed <= MAX_SEED
        if game_seed < 2**1016:
            assert seed == game_seed * 256 + seat + 1
        for name in ("random", "heuristic", "search"):
            make_bot(name, seed)
    bots = [make_bot("random", bot_seed(game_seed, seat)) for seat in range(2)]
    final, _ = play_game("spanish-2p", bots, seed=game_seed)
    assert final.is_over
