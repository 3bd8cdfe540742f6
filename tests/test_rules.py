"""Rules validation and presets (SPEC §2.1, §2.6, §3)."""

from __future__ import annotations

import attrs
import pytest

import brisca
from brisca import Card, Rules, RulesError


@pytest.mark.parametrize(
    ("options", "names"),
    [
        ({"num_players": 5}, ["team_mode", "sit_out_partners"]),
        ({"num_players": 3, "removed_cards": []}, ["num_players=3", "removed_cards"]),
        ({"num_players": 6}, ["num_players=6", "deck"]),
        ({"num_players": 2, "team_mode": "partners_opposite"}, ["team_mode", "num_players"]),
        ({"num_players": 3, "hand_win_rule": "over_60"}, ["hand_win_rule", "highest"]),
        ({"removed_cards": ["1O"]}, ["removed_cards", "points"]),
        ({"removed_cards": ["8O"]}, ["removed_cards", "deck"]),
        ({"removed_cards": ["2B", "2B"]}, ["removed_cards", "twice"]),
        ({"removed_cards": ["zz"]}, ["removed_cards"]),
        ({"removed_cards": 7}, ["removed_cards"]),
        ({"num_players": 7}, ["num_players"]),
        ({"num_players": True}, ["num_players"]),
        ({"team_mode": "pairs"}, ["team_mode", "individual"]),
        ({"tie_rule": None}, ["tie_rule"]),
        (
            {"num_players": 5, "team_mode": "sit_out_partners", "first_leader": "dealer"},
            ["first_leader", "sit_out"],
        ),
    ],
)
def test_clashing_options_raise_rules_error_naming_them(
    options: dict[str, object], names: list[str]
) -> None:
    """Invalid combinations fail when the Rules is built, naming the options that clash."""
    with pytest.raises(RulesError) as error:
        Rules(**options)  # type: ignore[arg-type]
    for name in names:
        assert name in str(error.value)


def test_evolve_revalidates() -> None:
    with pytest.raises(RulesError, match="do not divide"):
        attrs.evolve(Rules(), num_players=3)


def test_defaults_follow_the_table() -> None:
    """Three players default to removing the 2 of bastos and to the highest score."""
    rules = Rules(num_players=3)
    assert rules.removed_cards == (Card.parse("2B"),)
    assert rules.hand_win_rule is brisca.HandWinRule.HIGHEST
    assert Rules().hand_win_rule is brisca.HandWinRule.OVER_60


def test_rules_round_trip_through_dicts() -> None:
    for rules in brisca.PRESETS.values():
        assert Rules.from_dict(rules.to_dict()) == rules


def test_from_dict_refuses_unknown_options() -> None:
    with pytest.raises(RulesError, match="unknown rules option"):
        Rules.from_dict({"players": 2})
    with pytest.raises(RulesError, match="mapping"):
        Rules.from_dict([("num_players", 2)])  # type: ignore[arg-type]


def test_unknown_preset_suggests_the_nearest_ones() -> None:
    with pytest.raises(RulesError, match="did you mean spanish-6p"):
        brisca.preset("spanish-7p")
    with pytest.raises(RulesError, match=r"unknown preset 3 \(int\); brisca.PRESETS"):
        brisca.preset(3)  # type: ignore[arg-type]


def test_presets_of_spec_3() -> None:
    """SPEC §3: each preset's option values."""
    p = brisca.preset
    assert p("spanish-2p") == Rules(tie_rule="replay_double_stake")
    assert p("spanish-3p").removed_cards == (Card.parse("2B"),)
    assert p("spanish-3p").hand_win_rule is brisca.HandWinRule.HIGHEST
    assert p("spanish-4p").team_mode is brisca.TeamMode.PARTNERS_OPPOSITE
    assert p("spanish-5p").team_mode is brisca.TeamMode.SIT_OUT_PARTNERS
    assert p("spanish-5p").sit_out is brisca.SitOut.DEALER_SITS_OUT
    six = p("spanish-6p")
    assert (six.num_players, six.team_mode, six.deck) == (
        6,
        brisca.TeamMode.TEAMS_ALTERNATING,
        brisca.DeckKind.SPANISH48,
    )
    for n in (2, 3, 4):
        pr = p(f"puerto-rican-{n}p")
        assert pr.tie_rule is brisca.TieRule.DRAW
        assert pr.hand_win_rule is brisca.HandWinRule.HIGHEST
        assert pr.num_players == n
    assert p("puerto-rican-3p").removed_cards == (Card.parse("4B"),)
    assert p("puerto-rican-4p").team_mode is brisca.TeamMode.PARTNERS_OPPOSITE
    for name in brisca.PRESETS:
        if name.startswith("spanish"):
            assert p(name).tie_rule is brisca.TieRule.REPLAY_DOUBLE_STAKE


def test_rules_of_a_subclass_are_refused_where_rules_are_taken() -> None:
    """The engine keys its caches by the rules' equality and hash: a subclass whose
    equality lies made a later honest deal of spanish-2p come out at a 4-player table.
    Only a `Rules` itself is taken, everywhere rules are."""
    from brisca.agents.encoding import encoding_size
    from brisca.game.match import new_match

    four = brisca.preset("spanish-4p")

    class Liar(brisca.Rules):  # type: ignore[misc]
        def __eq__(self, other: object) -> bool:
            return True

        def __hash__(self) -> int:
            return hash(brisca.preset("spanish-2p"))

    liar = Liar(**attrs.asdict(four, recurse=False))
    for door in (
        lambda: brisca.new_game(liar, seed=1),
        lambda: brisca.deal_layout(liar, 0),
        lambda: new_match(liar, seed=1),
        lambda: encoding_size(liar),
        lambda: brisca.preset_name(liar),
    ):
        with pytest.raises(brisca.RulesError, match=r"brisca\.Rules"):
            door()
    assert brisca.new_game("spanish-2p", seed=1).rules.num_players == 2
