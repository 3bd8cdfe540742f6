"""The bots: legal play in every preset, sensible heuristic choices, and `play_game`."""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import pytest
from helpers import play, stacked

import brisca
from brisca import Action, Observation
from brisca.agents.bots import HeuristicBot, RandomBot, play_game


def choice(state: brisca.State) -> Action:
    """The heuristic bot's action for the seat to act."""
    assert state.to_act is not None
    return HeuristicBot()(brisca.observe(state, state.to_act), brisca.legal_actions(state))


def follow(lead: str, hand: Sequence[str], trump: str = "4O") -> Action:
    """What the heuristic bot (seat 1) plays after seat 0 leads `lead` in spanish-2p."""
    rules = brisca.preset("spanish-2p")
    return choice(play(stacked(rules, {0: [lead], 1: hand}, trump=trump), lead))


@pytest.mark.parametrize("name", sorted(brisca.PRESETS))
def test_bots_only_ever_choose_legal_actions(name: str) -> None:
    """Over seeded games of every preset, each bot's action is one of the legal actions."""
    rules = brisca.preset(name)
    n = rules.num_players
    chosen: list[tuple[Action, tuple[Action, ...]]] = []

    def checked(bot: brisca.agents.bots.Bot) -> brisca.agents.bots.Bot:
        def call(observation: Observation, legal: Sequence[Action]) -> Action:
            action = bot(observation, legal)
            chosen.append((action, tuple(legal)))
            return action

        return call

    for seed in range(6):
        bots = [
            checked(HeuristicBot() if (seat + seed) % 2 else RandomBot(seed * 10 + seat))
            for seat in range(n)
        ]
        final, outcome = play_game(rules, bots, seed=seed, dealer=seed % n)
        assert final.is_over
        assert outcome.void or outcome.black_hand is not None or sum(outcome.points) == 120
    assert chosen
    assert all(action in legal for action, legal in chosen)


def test_heuristic_bot_beats_the_random_bot_clearly() -> None:
    """Over 300 seeded 2-player hands, seats alternating, the heuristic bot wins most."""
    rules = brisca.preset("spanish-2p")
    games = 300
    wins = losses = 0
    for seed in range(games):
        seat = seed % 2
        bots = [HeuristicBot(), RandomBot(seed)] if seat == 0 else [RandomBot(seed), HeuristicBot()]
        _, outcome = play_game(rules, bots, seed=seed)
        wins += outcome.winner == seat
        losses += outcome.winner == 1 - seat
    # A random player wins about half; the heuristic wins about 85% here.
    assert wins / games >= 0.7, (wins, losses)
    assert wins >= 3 * losses


def test_random_bot_repeats_its_seed() -> None:
    """Two random bots with the same seed play the same game; another seed differs."""
    rules = brisca.preset("puerto-rican-4p")

    def game(seed: int) -> brisca.State:
        return play_game(rules, [RandomBot(seed + seat) for seat in range(4)], seed=1)[0]

    assert game(5) == game(5)
    assert game(5) != game(6)


@pytest.mark.parametrize("name", sorted(brisca.PRESETS))
def test_a_random_bot_asked_without_a_view_plays_as_one_handed_the_view(name: str) -> None:
    """``ask`` gives a RandomBot no observation (it reads none): the games are those of
    the same seeded bots each called with ``observe``, hand and match alike."""
    from brisca.agents.bots import play_match

    n = brisca.preset(name).num_players

    def viewed(seed: int) -> brisca.agents.bots.Bot:
        bot = RandomBot(seed)
        return lambda observation, legal: bot(observation, legal)  # not a RandomBot

    for seed in range(3):
        fast, _ = play_game(name, [RandomBot(seed + s) for s in range(n)], seed=seed)
        slow, _ = play_game(name, [viewed(seed + s) for s in range(n)], seed=seed)
        assert fast.history == slow.history
    fast_match, _ = play_match(name, [RandomBot(s) for s in range(n)], seed=1)
    slow_match, _ = play_match(name, [viewed(s) for s in range(n)], seed=1)
    assert fast_match == slow_match


def test_ask_refuses_what_is_not_a_game_in_play() -> None:
    from brisca.agents.bots import ask

    state = brisca.new_game(brisca.preset("spanish-2p"), seed=1)
    legal = brisca.legal_actions(state)
    final, _ = play_game("spanish-2p", [RandomBot(1), RandomBot(2)], seed=1)
    for bot in (RandomBot(1), HeuristicBot()):
        assert ask(bot, state, legal) in legal
        for junk in (None, "spanish-2p", brisca.observe(state, 0), 3):
            with pytest.raises(brisca.StateError, match="State or Match"):
                ask(bot, junk, legal)  # type: ignore[arg-type]
        with pytest.raises(brisca.StateError, match="over"):
            ask(bot, final, legal)
        with pytest.raises(brisca.StateError, match="legal"):
            ask(bot, state, ())
    for junk in (None, "random", 3):
        with pytest.raises(brisca.StateError, match="a bot is a callable"):
            ask(junk, state, legal)  # type: ignore[arg-type]


def test_heuristic_ducks_with_a_blank_card() -> None:
    """A blank lead is not worth a trump or a point card: throw the cheapest blank."""
    assert follow("4C", ["2O", "5E", "1O"]) == brisca.Play("5E")


def test_heuristic_wins_a_three_with_the_ace_of_its_suit() -> None:
    """A Three led is taken by a card of its suit rather than by a trump."""
    assert follow("3C", ["1C", "2O", "4E"]) == brisca.Play("1C")


def test_heuristic_trumps_an_ace_with_its_cheapest_trump() -> None:
    """An Ace led off-trump is captured with the smallest trump."""
    assert follow("1E", ["7O", "2O", "11B"]) == brisca.Play("2O")
    assert follow("3C", ["7O", "2O", "5E"]) == brisca.Play("2O")


def test_heuristic_leads_a_blank_card() -> None:
    """Leading, the bot plays a blank plain card, keeping trumps and points."""
    rules = brisca.preset("spanish-2p")
    assert choice(stacked(rules, {0: ["1C", "2O", "4E"]}, trump="4O")) == brisca.Play("4E")


def test_heuristic_gives_points_to_a_winning_partner() -> None:
    """Last to play while its partner wins, the bot adds its richest plain card."""
    rules = brisca.preset("spanish-4p")
    rules = attrs.evolve(rules, signals="none")
    state = stacked(rules, {0: ["4C"], 1: ["1C"], 2: ["5C"], 3: ["3E", "2B", "7O"]}, trump="6O")
    assert choice(play(state, "4C", "1C", "5C")) == brisca.Play("3E")
    # Against an opponent's Ace, the same hand trumps it instead.
    state = stacked(rules, {0: ["1C"], 1: ["4C"], 2: ["5C"], 3: ["3E", "2B", "7O"]}, trump="6O")
    assert choice(play(state, "1C", "4C", "5C")) == brisca.Play("7O")


def test_heuristic_claims_a_black_hand() -> None:
    """Casino: holding the 1, 3 and 12 of trumps, the bot shows them (S003)."""
    state = stacked(brisca.preset("casino-2p"), {0: ["1O", "3O", "12O"]}, trump="4O")
    assert choice(state) == brisca.ClaimBlackHand()


def test_heuristic_swaps_for_the_turned_card() -> None:
    """Puerto Rican: after the first lead the 7 of trumps takes a high turned card (S002)."""
    rules = brisca.preset("puerto-rican-2p")
    state = play(stacked(rules, {0: ["4C"], 1: ["7O", "5E", "6B"]}, trump="1O"), "4C")
    assert choice(state) == brisca.Swap("7O")


def test_heuristic_makes_the_honest_signal_offered() -> None:
    """Spanish 4p: on its first turn the bot makes the S000 seña its trumps call for."""
    state = stacked(brisca.preset("spanish-4p"), {0: ["1O", "3C", "12E"]}, trump="4O")
    assert choice(state) == brisca.Signal("lip_bite")


@attrs.frozen
class Knock:
    """An action type the bots have never heard of."""


def test_bots_accept_actions_they_do_not_know() -> None:
    """Unknown actions: the heuristic plays among the cards, or takes the first action."""
    state = brisca.new_game(brisca.preset("spanish-2p"), seed=3)
    view = brisca.observe(state, 0)
    legal = brisca.legal_actions(state)
    mixed: list[object] = [Knock(), *legal]
    assert HeuristicBot()(view, mixed) in legal  # type: ignore[arg-type]
    assert HeuristicBot()(view, [Knock()]) == Knock()  # type: ignore[list-item]
    assert RandomBot(1)(view, [Knock()]) == Knock()  # type: ignore[list-item]


def test_play_game_takes_a_preset_name_and_reports_each_action() -> None:
    """`play_game` accepts a preset name and calls `on_action` before every action."""
    seen: list[tuple[brisca.State, Action]] = []
    final, outcome = play_game(
        "spanish-2p",
        [HeuristicBot(), RandomBot(1)],
        seed=9,
        on_action=lambda state, action: seen.append((state, action)),
    )
    assert len(seen) == 40
    assert seen[0][0] == brisca.new_game(brisca.preset("spanish-2p"), seed=9)
    assert outcome == brisca.result(final)
    state = seen[0][0]
    for _, action in seen:
        state = brisca.apply(state, action)
    assert state == final


def test_play_game_refuses_the_wrong_number_of_bots() -> None:
    """One bot per seat, or a BriscaError that says so."""
    with pytest.raises(brisca.BriscaError, match="one bot"):
        play_game("spanish-4p", [HeuristicBot()], seed=1)


def test_play_game_names_the_seat_of_a_bot_that_cheats() -> None:
    """A bot's illegal action is refused with its seat and the engine's reason."""

    def cheat(observation: Observation, legal: Sequence[Action]) -> Action:
        return brisca.Play("1O") if observation.seat == 1 else legal[0]

    with pytest.raises(brisca.IllegalActionError, match=r"seat 1.*not in the hand"):
        play_game("spanish-2p", [HeuristicBot(), cheat], deck=brisca.preset("spanish-2p").cards)


def test_random_bot_refuses_a_bad_seed() -> None:
    """A negative seed is refused with a BriscaError."""
    with pytest.raises(brisca.BriscaError, match="seed"):
        RandomBot(-1)


# The auction games (SPEC §2.7, §2.8).


def test_heuristic_bids_a_strong_subastada_hand_and_passes_a_weak_one() -> None:
    """Subastada 4p: Ace, Three and Rey bid the minimum; three blanks pass."""
    rules = brisca.preset("subastada-4p")
    strong = stacked(rules, {0: ["1O", "3O", "12O"]})
    weak = stacked(rules, {0: ["2O", "4C", "5E"]})
    assert choice(strong) == brisca.Bid(rules.bid_minimum)
    assert choice(weak) == brisca.Pass()


def test_heuristic_names_its_strongest_suit_and_sings_its_cantes() -> None:
    """The declarer names the suit it holds most in; a trick won, it sings its 40."""
    rules = brisca.preset("subastada-4p")
    state = stacked(rules, {0: ["12E", "11E", "1B"]})
    for action in (brisca.Bid(60), brisca.Pass(), brisca.Pass(), brisca.Pass()):
        state = brisca.apply(state, action)
    assert choice(state) == brisca.NameTrump("E")
    state = brisca.apply(state, brisca.NameTrump("E"))
    while state.to_act != 0 or not state.tricks or state.tricks[-1].winner != 0:
        state = brisca.apply(state, choice(state))
        if state.is_over or len(state.tricks) > 3:
            pytest.fail("seat 0 did not win an early trick")
    assert brisca.Sing("E") in brisca.legal_actions(state)
    assert choice(state) == brisca.Sing("E")


def test_heuristic_calls_a_card_it_does_not_hold() -> None:
    """Chiamata: a strong hand bids the Ace, then calls an Ace held by someone else."""
    rules = brisca.preset("chiamata-5p")
    hand = ["1O", "3O", "12O", "11O", "1C", "3C", "12C", "7B"]
    state = stacked(rules, {0: hand})
    assert choice(state) == brisca.BidRank(1)
    state = brisca.apply(state, brisca.BidRank(1))
    for _ in range(4):
        state = brisca.apply(state, brisca.Pass())
    call = choice(state)
    assert isinstance(call, brisca.CallCard)
    assert call.card.rank == 1 and str(call.card) not in hand


def test_make_bot_names_the_builtin_bots_and_refuses_bad_names() -> None:
    """make_bot makes every bot of BOTS by name; bad names and seeds are BotErrors."""
    from brisca.agents.bots import BOTS, make_bot
    from brisca.game.errors import BotError

    assert repr(make_bot("random", seed=5)) == "RandomBot(seed=5)"
    assert isinstance(make_bot("heuristic"), HeuristicBot)
    assert set(BOTS) >= {"random", "heuristic"}
    for name in (
        "genius",
        "brisca.agents.bots:Nothing",
        "nowhere:Bot",
        ":Bot",
        "brisca.agents.bots:",
        7,
    ):
        with pytest.raises(BotError):
            make_bot(name)  # type: ignore[arg-type]
    with pytest.raises(BotError, match="seed"):
        make_bot("random", seed=-1)
    with pytest.raises(BotError, match="not callable"):
        make_bot("brisca.agents.bots:RICH_TRICK")


def test_play_game_reads_its_bots_once_and_one_past_the_seats_at_most() -> None:
    """A generator of bots is read once (it had been read twice, the second time empty),
    and an endless iterable of bots is refused at once, where it was read until memory
    ran out."""
    import itertools

    from brisca.agents.bots import RandomBot, play_game, play_match

    by_list = play_game("spanish-2p", [RandomBot(seed=0), RandomBot(seed=1)], seed=4)[1]
    by_generator = play_game("spanish-2p", (RandomBot(seed=k) for k in range(2)), seed=4)[1]
    assert by_generator == by_list
    for play_out in (play_game, play_match):
        with pytest.raises(brisca.StateError, match="more than 2"):
            play_out("spanish-2p", itertools.repeat(RandomBot()), seed=1)
