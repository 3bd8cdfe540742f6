"""Bots play whole matches, and a match's view has a JSON form as a hand's view does."""

from __future__ import annotations

import json
from collections.abc import Sequence

import attrs
import pytest

import brisca
from brisca.agents.bots import HeuristicBot, RandomBot, play_game, play_match
from brisca.formats.views import observation_to_dict
from brisca.game.presets import rules_to_dict


def test_library_bots_act_on_a_match_view() -> None:
    """HeuristicBot and RandomBot take observe(match, seat) and choose what they would for
    the hand in progress."""
    match = brisca.new_match(brisca.preset("spanish-2p"), seed=1)
    for _ in range(5):
        match = brisca.apply(match, brisca.legal_actions(match)[0])
    view = brisca.observe(match, match.to_act)
    legal = brisca.legal_actions(match)
    assert HeuristicBot()(view, legal) == HeuristicBot()(view.current, legal)
    assert RandomBot(seed=4)(view, legal) == RandomBot(seed=4)(view.current, legal)


def test_play_match_plays_to_the_end_with_legal_actions() -> None:
    """play_match asks the bot of the seat to act, with its match view, until the match ends."""
    seen: list[tuple[int, brisca.Action]] = []

    def watch(match: brisca.Match, action: brisca.Action) -> None:
        assert brisca.is_legal(match, action)
        seen.append((match.to_act, action))  # type: ignore[arg-type]

    bots = [HeuristicBot(), RandomBot(seed=2), HeuristicBot(), RandomBot(seed=3)]
    final, outcome = play_match("chilean-rematada", bots, seed=5, on_action=watch)
    assert final.is_over and outcome == brisca.match_result(final)
    assert max(outcome.standings) >= final.rules.match_target
    assert sum(len(actions) for actions in final.actions) == len(seen)


def test_play_match_gives_each_bot_its_own_seats_view() -> None:
    """Each bot is called with match_observe of its own seat, never another seat's cards."""

    def checked(seat: int) -> object:
        def bot(view: brisca.MatchObservation, legal: Sequence[brisca.Action]) -> brisca.Action:
            assert type(view) is brisca.MatchObservation and view.seat == seat
            assert view.current is not None and view.current.seat == seat
            return legal[0]

        return bot

    final, _ = play_match(brisca.preset("spanish-2p"), [checked(0), checked(1)], seed=8)
    assert final.is_over


def test_play_match_repeats_itself_and_continues_a_started_match() -> None:
    """The same seed and bots play the same match, and a started match plays on to the same end."""
    bots = [HeuristicBot(), HeuristicBot()]
    first, _ = play_match("spanish-2p", bots, seed=11)
    again, _ = play_match("spanish-2p", bots, seed=11)
    assert first == again
    started = brisca.new_match(brisca.preset("spanish-2p"), seed=11)
    for _ in range(7):
        started = brisca.apply(
            started,
            HeuristicBot()(brisca.observe(started, started.to_act), brisca.legal_actions(started)),
        )
    assert play_match(started, bots)[0] == first


def test_play_match_refuses_bad_arguments_with_brisca_errors() -> None:
    """Wrong bots, rules or a seed for a match already dealt are refused by name."""
    with pytest.raises(brisca.StateError, match="one bot"):
        play_match("spanish-2p", [HeuristicBot()], seed=1)
    with pytest.raises(brisca.RulesError, match="preset"):
        play_match(42, [HeuristicBot()] * 2)  # type: ignore[arg-type]
    with pytest.raises(brisca.StateError, match="already dealt"):
        play_match(brisca.new_match(brisca.preset("spanish-2p"), seed=1), [RandomBot()] * 2, seed=3)

    def cheat(view: object, legal: Sequence[brisca.Action]) -> brisca.Action:
        return brisca.Pass()

    with pytest.raises(brisca.IllegalActionError, match="seat 0"):
        play_match("spanish-2p", [cheat, cheat], seed=1)


def test_a_finished_match_view_has_no_hand_to_play() -> None:
    """A bot given the view of a finished match says so with a StateError."""
    final, _ = play_match("spanish-2p", [HeuristicBot()] * 2, seed=2)
    with pytest.raises(brisca.StateError, match="over"):
        HeuristicBot()(brisca.observe(final, 0), [brisca.Pass()])


def test_rules_travel_as_a_preset_and_overrides() -> None:
    """The rules of a view are the nearest preset and what differs from it, which read back."""
    rules = attrs.evolve(brisca.preset("casino-4p"), match_target=7, tie_rule="draw")
    data = rules_to_dict(rules)
    assert data == {"preset": "casino-4p", "overrides": {"match_target": 7, "tie_rule": "draw"}}
    base = brisca.preset(data["preset"]).to_dict()
    assert brisca.Rules.from_dict({**base, **data["overrides"]}) == rules
    for name, value in brisca.PRESETS.items():
        assert rules_to_dict(value)["overrides"] == {}, name


def test_a_hand_view_as_json_is_small() -> None:
    """Sending the preset rather than every option keeps a view of a hand under 600 bytes."""
    view = brisca.observe(brisca.new_game(brisca.preset("spanish-2p"), seed=7), 0)
    assert len(json.dumps(observation_to_dict(view))) < 600


def test_a_match_view_has_a_json_form() -> None:
    """observation_to_dict takes a match's view: the public record, the standings as
    fractions, and the hand in progress in the hand's own form."""
    final, _ = play_match("chilean-rematada", [HeuristicBot()] * 4, seed=3)
    match = brisca.new_match(brisca.preset("chilean-rematada"), seed=3)
    bot = HeuristicBot()
    while len(match.hands) < 1:
        match = brisca.apply(
            match, bot(brisca.observe(match, match.to_act), brisca.legal_actions(match))
        )
    view = brisca.observe(match, 2)
    data = json.loads(json.dumps(observation_to_dict(view)))
    assert data["rules"] == {"preset": "chilean-rematada", "overrides": {}}
    assert data["seat"] == 2 and data["to_act"] == match.to_act and data["hand_number"] == 1
    assert data["standings"] == [[int(s), 1] for s in match.standings]
    assert data["hands"][0]["result"]["points"] == list(match.hands[0].result.points)
    hand = observation_to_dict(view.current)  # type: ignore[arg-type]
    del hand["rules"]
    assert data["current"] == hand
    over = observation_to_dict(brisca.observe(final, 0))
    assert over["current"] is None and over["to_act"] is None and over["winners"] == [0, 2]


def test_play_game_still_takes_hand_bots() -> None:
    """The hand loop is unchanged: a bot gets the hand's own observation."""

    def bot(view: brisca.Observation, legal: Sequence[brisca.Action]) -> brisca.Action:
        assert type(view) is brisca.Observation
        return legal[0]

    final, _ = play_game("spanish-2p", [bot, bot], seed=1)
    assert final.is_over
