"""The words of `brisca.formats.text`: results, the deal, the rules, matches."""

from __future__ import annotations

import re
from collections.abc import Callable

import attrs
import pytest

import brisca
from brisca.agents.bots import HeuristicBot, RandomBot, bot_seed, make_bot
from brisca.formats.text import (
    SIGNAL_MEANINGS,
    SOURCE_CODE,
    SOURCES,
    action_examples,
    answer_hint,
    card_order_lines,
    describe_deal,
    describe_result,
    direction_line,
    format_rules,
    help_lines,
    match_result_lines,
    option_docs,
    source_legend,
    standings_lines,
    turn_lines,
)
from brisca.game.variants import owner
from brisca.game.variants.signals import VOCABULARIES

Chooser = Callable[[brisca.Observation, tuple[brisca.Action, ...]], brisca.Action]


def _played(rules: brisca.Rules, seed: int, chooser: Chooser | None = None) -> brisca.State:
    """A seeded hand played to its end by `chooser` (the first legal action by default)."""
    state = brisca.new_game(rules, seed=seed)
    while not state.is_over:
        legal = brisca.legal_actions(state)
        seat: int = state.to_act  # type: ignore[assignment]
        state = brisca.apply(
            state, chooser(brisca.observe(state, seat), legal) if chooser else legal[0]
        )
    return state


def _result_line(lines: list[str]) -> str:
    return next(line for line in lines if line.startswith("result: "))


@pytest.mark.parametrize("name", ["subastada-3p", "subastada-4p", "chiamata-5p"])
def test_a_contract_result_says_the_bid_the_points_and_whether_it_was_made(name: str) -> None:
    """SPEC §2.7, §2.8: every contract hand tells the declarer (or caller), the bid, what
    the side took (and sang), and whether the contract was made or failed, to every seat
    and to nobody; a void hand says so in words."""
    rules = brisca.preset(name)
    seen = {True: 0, False: 0}
    for seed in range(12):
        state = _played(rules, seed, RandomBot(seed) if seed % 2 else HeuristicBot())
        outcome = brisca.result(state)
        details = outcome.details
        if outcome.void:
            (line,) = describe_result(state)
            assert "void hand: everyone passed, so no card was played" in line
            continue
        assert isinstance(details, brisca.ContractResult)
        contract = details.contract
        ours = next(i for i, side in enumerate(outcome.sides) if contract.declarer in side)
        verdict = "the contract was made." if details.made else "the contract failed."
        seen[details.made] += 1
        for you in (None, *range(rules.num_players)):
            lines = describe_result(state, you)
            told = next(line for line in lines if line.startswith("The "))
            who = "you" if you == contract.declarer else f"seat {contract.declarer}"
            assert told.endswith(verdict), told
            assert f"({who}" in told and str(contract.bid) in told
            if contract.called is None:
                assert f"took {outcome.points[ours]} + {details.cantes[ours]} in cantes" in told
            else:
                assert f"called {contract.called}" in told
                assert f"took {outcome.points[ours]}" in told
                if contract.partner == contract.declarer:
                    assert "played alone" in told
                else:
                    partner = "you" if you == contract.partner else f"seat {contract.partner}"
                    assert f"had {partner} for a partner" in told
    assert seen[True] and seen[False], seen


def test_the_subastada_example_of_issue_22_says_the_contract_failed() -> None:
    """Issue 22: seed 5, bid 85 in bastos, played out: the declarer's side took 74 and
    no cantes, so the contract failed, and the player reads that it lost, 74-46."""
    rules = brisca.preset("subastada-4p")
    state = brisca.new_game(rules, seed=5)
    script = iter([brisca.Bid(85), brisca.NameTrump(brisca.Suit.BASTOS)])
    bots = [make_bot("heuristic", bot_seed(5, seat)) for seat in range(4)]  # as `brisca play`
    while not state.is_over:
        legal = brisca.legal_actions(state)
        if state.to_act == 0:
            action = next(script, None) or legal[0]
        else:
            action = bots[state.to_act](brisca.observe(state, state.to_act), legal)
        state = brisca.apply(state, action)
    lines = describe_result(state, 0)
    assert lines == [
        "points: you+2 74, seats 1+3 46",
        "The declarer (you, with seat 2) bid 85 and took 74 + 0 in cantes: the contract failed.",
        "result: you lost, 74-46",
    ]


@pytest.mark.parametrize("name", ["spanish-2p", "spanish-4p", "puerto-rican-3p", "casino-4p"])
def test_a_result_reads_from_your_side_first(name: str) -> None:
    """Told to a seat, "you won, 74-46" or "you lost, 46-74", its side's points first;
    told to nobody, "seat 1 won, 74-46", the winner's first; with three sides, the
    winner's points and, if it lost, the seat's own."""
    rules = brisca.preset(name)
    checked = 0
    for seed in range(6):
        state = _played(rules, seed, RandomBot(seed))
        outcome = brisca.result(state)
        if outcome.tied or outcome.winner is None or outcome.black_hand is not None:
            continue
        points, w = outcome.points, outcome.winner
        for you in range(rules.num_players):
            line = _result_line(describe_result(state, you))
            mine = next(i for i, side in enumerate(outcome.sides) if you in side)
            if len(outcome.sides) == 2:
                verb = "won" if mine == w else "lost"
                assert line == f"result: you {verb}, {points[mine]}-{points[1 - mine]}"
            elif mine == w:
                assert line == f"result: you won with {points[w]}"
            else:
                assert line.endswith(f"won with {points[w]}; you took {points[mine]}")
        line = _result_line(describe_result(state))
        assert " you" not in line and line.startswith("result: seat")
        assert f" won, {points[w]}-" in line or f" won with {points[w]}" in line
        checked += 1
    assert checked


def _tie_seed() -> int:
    """A spanish-2p seed whose first-legal-action hand ends 60-60."""
    rules = brisca.preset("spanish-2p")
    return next(s for s in range(500) if brisca.result(_played(rules, s)).points == (60, 60))


@pytest.mark.parametrize("tie_rule", list(brisca.TieRule))
def test_a_tie_says_what_the_tie_rule_made_of_it(tie_rule: brisca.TieRule) -> None:
    """SPEC §2.6: a 60-60 hand reads "a tie, 60-60" and then what its tie rule decides:
    drawn, dealt again, dealt again at double stake, halves, or the last trick's winner."""
    seed = _tie_seed()
    rules = attrs.evolve(brisca.preset("spanish-2p"), tie_rule=tie_rule)
    state = _played(rules, seed)  # the tie rule changes nothing in play
    outcome = brisca.result(state)
    assert outcome.tied
    expected = {
        brisca.TieRule.DRAW: "the hand is drawn",
        brisca.TieRule.REPLAY: "the hand is dealt again",
        brisca.TieRule.REPLAY_DOUBLE_STAKE: "dealt again, and the next one counts double",
        brisca.TieRule.HALF_EACH: "share the hand, half each",
        brisca.TieRule.LAST_TRICK: "took the last trick, so",
    }[tie_rule]
    for you in (None, 0, 1):
        line = _result_line(describe_result(state, you))
        assert line.startswith("result: a tie, 60-60: ") and expected in line, line
    if tie_rule is brisca.TieRule.LAST_TRICK:
        last = state.tricks[-1].winner
        assert "you took the last trick, so win the hand" in describe_result(state, last)[-1]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("direction", ["ccw", "cw"])
def test_the_direction_names_who_sits_on_your_right_and_left(n: int, direction: str) -> None:
    """SPEC §0: counter-clockwise, seat i+1 sits on seat i's right; clockwise, on its left.
    `direction` is for display only, and the deal header says it to every seat."""
    mode = "sit_out_partners" if n == 5 else "individual"
    rules = brisca.Rules(num_players=n, team_mode=mode, direction=direction, deck="spanish48")
    ccw = direction == "ccw"
    for you in range(n):
        line = direction_line(rules, you)
        way = "counter-clockwise" if ccw else "clockwise"
        assert line.startswith(f"play goes {way}: ")
        if n == 2:
            assert f"seat {1 - you} sits across the table" in line
            continue
        after, before = (you + 1) % n, (you - 1) % n
        right, left = (after, before) if ccw else (before, after)
        assert f"seat {right} is on your right, seat {left} on your left" in line
    assert ("on its left" if ccw else "on its right") in direction_line(rules)
    state = brisca.new_game(rules, seed=1)
    assert direction_line(rules, 0) in describe_deal(state, 0)
    assert direction_line(rules) in describe_deal(state)


@pytest.mark.parametrize("name", sorted(brisca.PRESETS))
def test_the_answers_offered_are_actions_the_rules_allow(name: str) -> None:
    """Issue 22: the examples of actions a player is offered come from the variants'
    actions that the rules make possible: no 'swap' where swaps are off, no signal
    without señas, every kind the rules do allow."""
    rules = brisca.preset(name)
    examples = action_examples(rules)
    for text in examples:
        action = brisca.parse_action(text)
        variant = owner(type(action))
        assert variant is not None and variant.possible(action, rules), text
    hint = answer_hint(rules)
    assert ("swap" in hint) == rules.swap_enabled
    assert ("signal" in hint) == (rules.signals is not brisca.Signals.NONE)
    assert ("bid" in hint) == rules.has_auction
    kinds = {type(brisca.parse_action(e)) for e in examples}
    possible = {
        type(a) for v in brisca.game.variants.VARIANTS for a in v.universe if v.possible(a, rules)
    }
    assert kinds == possible


def test_the_auction_is_called_the_auction_not_trick_1() -> None:
    """Issue 22: while the trump is not yet chosen in an auction, the header says
    "auction", not "trick 1 of 10"; once play starts, it counts tricks again."""
    state = brisca.new_game(brisca.preset("subastada-4p"), seed=3)
    seat: int = state.to_act  # type: ignore[assignment]
    header = turn_lines(brisca.observe(state, seat), brisca.legal_actions(state))[1]
    assert header.startswith("-- auction -- ") and "trick" not in header
    while state.trump is None:
        state = brisca.apply(state, brisca.legal_actions(state)[0])
    seat = state.to_act  # type: ignore[assignment]
    header = turn_lines(brisca.observe(state, seat), brisca.legal_actions(state))[1]
    assert header.startswith("-- trick 1 of 10 -- ")


@pytest.mark.parametrize("vocabulary", list(brisca.SignalVocabulary))
def test_the_rules_explain_every_sena_of_the_vocabulary(
    vocabulary: brisca.SignalVocabulary,
) -> None:
    """SPEC §2.9: `brisca rules PRESET` names every signal of the preset's vocabulary with
    what it says; help at the prompt says what each seña offered means."""
    assert set(SIGNAL_MEANINGS[vocabulary]) == set(VOCABULARIES[vocabulary])
    rules = attrs.evolve(brisca.preset("spanish-4p"), signal_vocabulary=vocabulary)
    lines = format_rules(rules, "spanish-4p")
    for name, meaning in SIGNAL_MEANINGS[vocabulary].items():
        assert any(re.fullmatch(rf"\s+{name}\s+{re.escape(meaning)}", line) for line in lines)
    others = set(VOCABULARIES[next(v for v in VOCABULARIES if v is not vocabulary)])
    for name in others - set(VOCABULARIES[vocabulary]):
        assert not any(re.match(rf"\s+{name}\s", line) for line in lines)
    signals = [brisca.Signal(name) for name in VOCABULARIES[vocabulary]]
    shown = help_lines(signals, rules)
    for signal in signals:
        assert f"      {signal.name}: {SIGNAL_MEANINGS[vocabulary][signal.name]}" in shown
    assert not any("Señas" in line for line in format_rules(brisca.preset("spanish-2p")))


@pytest.mark.parametrize("scheme", list(brisca.RankScheme))
def test_the_card_order_and_points_come_from_the_rules(scheme: brisca.RankScheme) -> None:
    """The card order shown is the rules' `card_strength`, strongest first, and the points
    their `card_points`, 120 in the pack; the Chilean order puts the 2 second."""
    rules = brisca.Rules(rank_scheme=scheme)
    order, points = card_order_lines(rules)
    ranks = [int(r) for r in re.findall(r"(\d+) [A-Z]", order)]
    by_rank = {c.rank: c for c in rules.cards}
    assert sorted(by_rank) == sorted(ranks)
    assert ranks == sorted(ranks, key=lambda r: -rules.card_strength(by_rank[r]))
    for rank, worth in re.findall(r"(\d+) = (\d+)", points):
        assert rules.card_points(by_rank[int(rank)]) == int(worth)
    assert points.endswith("120 in the pack.")
    assert order in format_rules(rules)


def test_every_source_code_the_options_cite_has_a_meaning() -> None:
    """Issue 22: each source code of the options' documentation (SPEC §0's list) is in
    the legend, and `format_rules` ends with the legend of the codes it cites, only those."""
    cited = {code for doc in option_docs().values() for code in SOURCE_CODE.findall(doc)}
    assert cited and cited <= set(SOURCES), cited - set(SOURCES)
    for name, rules in brisca.PRESETS.items():
        lines = format_rules(rules, name)
        legend = lines[lines.index("Sources:") :]
        body = lines[: lines.index("Sources:")]
        codes = [line.split()[0] for line in legend[1:]]
        assert set(codes) == {c for line in body for c in SOURCE_CODE.findall(line)} & set(SOURCES)
    assert source_legend(["no sources here"]) == []


def test_standings_between_hands_and_the_match_result_read_from_your_side() -> None:
    """A match told to a seat: after each hand, the standings against the target and who
    deals next; at the end, who won the match, "you" when it is the seat's side."""
    rules = brisca.preset("chilean-rematada")
    match = brisca.new_match(rules, seed=4)
    bot = RandomBot(4)
    told: list[list[str]] = []
    while not match.is_over:
        number = match.hand_number
        seat: int = match.to_act  # type: ignore[assignment]
        view = brisca.observe(match, seat).current
        assert view is not None
        match = brisca.apply(match, bot(view, brisca.legal_actions(match)))
        if match.hand_number != number:
            told.append(standings_lines(brisca.observe(match, 0)))
    assert told
    for k, lines in enumerate(told, 1):
        assert lines[0].startswith(f"after hand {k}: you+2 ")
        assert lines[0].endswith("(first to 101 card points)")
    assert not any("deals next" in line for line in told[-1])
    assert all(any("deals next (hand" in line for line in lines) for lines in told[:-1])
    outcome = brisca.result(match)
    for you in range(4):
        first = match_result_lines(outcome, you)[0]
        won = you in outcome.winners
        assert first.endswith("you won the match") == won
        assert ("you lost the match" in first) == (not won and not outcome.is_draw)
