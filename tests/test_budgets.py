"""Every search has a budget (DESIGN principle 8): the sampler refuses a view no deal can
give without spending its tries, the solver refuses (or answers partially) past its node
budget with a bounded table, and the search bot's settings are bounded ranges whose
every combination decides within its budget."""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Iterator

import attrs
import pytest
from helpers import play, stacked

import brisca
from brisca import Observation, State, Suit
from brisca.agents import sampling, search
from brisca.agents.bots import MAX_CARDS, MAX_TRICKS, HeuristicBot, SearchBot
from brisca.agents.sampling import sample_state
from brisca.agents.search import (
    BUDGET,
    INFINITE_DEPTH,
    MAX_BUDGET,
    MAX_SAMPLES,
    evaluate,
    solve,
)
from brisca.game.rng import Generator
from brisca.game.state import Cante, SignalRecord, SwapRecord


def played(rules: brisca.Rules | str, actions: int, seed: int = 3) -> State:
    """A hand of `rules` after its first `actions` legal actions, the first of each."""
    state = brisca.new_game(rules, seed=seed)
    for _ in range(actions):
        state = brisca.apply(state, brisca.legal_actions(state)[0])
    return state


def subastada() -> State:
    """subastada-4p, seat 0 declarer in espadas, holding the Rey and Caballo of oros."""
    state = stacked(brisca.preset("subastada-4p"), {0: ["12O", "11O", "1E"]})
    for action in (brisca.Bid(60), brisca.Pass(), brisca.Pass(), brisca.Pass()):
        state = brisca.apply(state, action)
    return brisca.apply(state, brisca.NameTrump("E"))


def forged_views() -> Iterator[tuple[str, Observation]]:
    """Views edited with attrs.evolve into ones that no deal of their rules can give."""
    view = brisca.observe(played("puerto-rican-2p", 6), 0)
    yield "a black hand where black hands are off", attrs.evolve(view, black_hand=1)
    casino = brisca.observe(stacked(brisca.preset("casino-2p"), {0: ["1O"]}, trump="7O"), 0)
    yield "a black hand that did not end the hand", attrs.evolve(casino, black_hand=1)
    yield (
        "a black hand whose Ace the observer holds",
        attrs.evolve(casino, black_hand=1, to_act=None),
    )
    auction = brisca.observe(subastada(), 0)
    sung = Cante(seat=1, suit=Suit.OROS, points=20, trick=0)
    yield "a cante of cards the observer holds", attrs.evolve(auction, cantes=(sung,))
    after = subastada()
    after = play(after, "12O", *(str(after.hands[s][0]) for s in (1, 2, 3)))
    lead = brisca.observe(after, 0)
    yield "a cante of a card another seat played", attrs.evolve(lead, cantes=(sung,))
    copas = Cante(seat=1, suit=Suit.COPAS, points=20, trick=0)
    yield (
        "a cante of more cards than the hand holds",
        attrs.evolve(auction, cantes=(copas,), hand_sizes=(3, 1, 3, 3)),
    )
    arrastre = brisca.observe(played("arrastre-2p", 36), 0)
    own_suit = frozenset({arrastre.hand[0].suit})
    yield "a void in a suit the seat holds", attrs.evolve(arrastre, voids=(own_suit, frozenset()))
    yield (
        "a hidden hand void in every suit",
        attrs.evolve(arrastre, voids=(frozenset(), frozenset(Suit))),
    )
    partners = stacked(brisca.preset("spanish-4p"), {0: ["1O", "2C", "3C"]}, trump="7O")
    signal = SignalRecord(seat=2, signal="lip_bite", trick=0)  # "I hold the Ace of trumps"
    yield (
        "a signal of the Ace of trumps the observer holds",
        attrs.evolve(brisca.observe(partners, 0), signals=(signal,)),
    )
    two = brisca.observe(played("spanish-2p", 2), 0)
    yield "the wrong seat to act", attrs.evolve(two, to_act=1 - two.to_act)  # type: ignore[operator]
    trick = two.tricks[0]
    wrong = attrs.evolve(trick, winner=1 - trick.winner)
    yield "a trick won by its loser", attrs.evolve(two, tricks=(wrong,))
    swap = SwapRecord(seat=0, given=two.hand[0], taken=two.trump_card, trick=0)  # type: ignore[arg-type]
    yield "a swap where swaps are off", attrs.evolve(two, swaps=(swap,))


@pytest.fixture
def tries(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many histories the sampler proposes (its budget held at 100 to stay quick)."""
    count = [0]
    propose = sampling._Model.propose

    def counted(model: sampling._Model, rng: Generator) -> list[brisca.Card] | None:
        count[0] += 1
        return propose(model, rng)

    monkeypatch.setattr(sampling._Model, "propose", counted)
    monkeypatch.setattr(sampling, "MAX_ATTEMPTS", 100)
    return count


def test_forged_views_are_refused_without_spending_the_tries(tries: list[int]) -> None:
    """Each forged view is refused with a StateError after at most one proposal, not
    after the whole budget: an impossible record is found before sampling, and a replay
    that differs where no placement of the unseen cards can help stops the tries."""
    spent = {}
    for name, view in forged_views():
        tries[0] = 0
        with pytest.raises(brisca.StateError) as refused:
            sample_state(view, Generator(1))
        assert len(str(refused.value)) < 100, name
        spent[name] = tries[0]
    assert all(count <= 1 for count in spent.values()), spent


def test_the_views_forged_from_are_sampled() -> None:
    """The views the forgeries are edited from are real, and the sampler finds them worlds:
    the refusals above come from the edits."""
    bases = [
        brisca.observe(played("puerto-rican-2p", 6), 0),
        brisca.observe(stacked(brisca.preset("casino-2p"), {0: ["1O"]}, trump="7O"), 0),
        brisca.observe(subastada(), 0),
        brisca.observe(played("arrastre-2p", 36), 0),
        brisca.observe(stacked(brisca.preset("spanish-4p"), {0: ["1O"]}, trump="7O"), 0),
        brisca.observe(played("spanish-2p", 2), 0),
    ]
    for view in bases:
        assert brisca.observe(sample_state(view, Generator(2)), view.seat) == view


def best_time(work: Callable[[], object], repeats: int = 3) -> float:
    """The least CPU time of a few runs of `work`."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def test_refusing_a_forged_view_costs_about_one_sample() -> None:
    """Refusing a forged black hand costs about what sampling the real view costs (each
    from a fresh model), not the thousands of tries of the budget."""
    view = brisca.observe(played("puerto-rican-2p", 6), 0)
    forged = attrs.evolve(view, black_hand=1)

    def sample() -> None:
        sampling._model.cache_clear()
        sample_state(view, Generator(1))

    def refuse() -> None:
        with pytest.raises(brisca.StateError):
            sample_state(forged, Generator(1))

    assert best_time(refuse) < 10 * best_time(sample) + 0.005


@pytest.fixture
def visits(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many positions the solver visits, counted as it counts them against its budget."""
    count = [0]
    visit = search._Search.visit

    def counted(self: search._Search) -> None:
        visit(self)  # raises, uncounted, once the budget is spent
        count[0] += 1

    monkeypatch.setattr(search._Search, "visit", counted)
    return count


def test_solve_refuses_a_position_beyond_its_budget(visits: list[int]) -> None:
    """From the deal, an exact search needs millions of positions: solve stops at its
    budget with a StateError that says so, having visited no more than the budget."""
    state = brisca.new_game("spanish-2p", seed=1)
    with pytest.raises(brisca.StateError, match="more than 5,000 positions") as refused:
        solve(state, budget=5000)
    assert visits[0] == 5000
    assert len(str(refused.value)) < 100
    assert inspect.signature(solve).parameters["budget"].default == BUDGET


@pytest.mark.parametrize("preset", ["spanish-2p", "spanish-4p"])
def test_a_partial_solve_answers_from_the_deepest_search_that_fits(
    preset: str, visits: list[int]
) -> None:
    """With partial=True, a position too large for the budget gets an inexact answer
    within it, as deep as a depth-limited search that fits; with no room for even one
    trick, every action is worth the score so far."""
    state = brisca.new_game(preset, seed=2)
    solution = solve(state, budget=20_000, partial=True)
    assert not solution.exact
    assert visits[0] == solution.nodes <= 20_000
    assert [a for a, _ in solution.values] == list(brisca.legal_actions(state))
    assert set(solution.best_actions) <= {a for a, _ in solution.values}
    nothing = solve(state, budget=1, partial=True)
    assert {v for _, v in nothing.values} == {0}
    assert nothing.best_actions == brisca.legal_actions(state)


def endgame(cards: int, seed: int = 4) -> State:
    """A spanish-2p position with `cards` cards left to play, reached by the heuristic."""
    state = brisca.new_game("spanish-2p", seed=seed)
    heuristic = HeuristicBot()
    while search.cards_to_play(state) > cards:
        view = brisca.observe(state, state.to_act)  # type: ignore[arg-type]
        state = brisca.apply(state, heuristic(view, brisca.legal_actions(state)))
    return state


def test_budgets_leave_exact_answers_exact() -> None:
    """An endgame within the budget is solved as before: the same values under the
    largest budget and in partial mode, and exact."""
    state = endgame(12)
    plain = solve(state)
    assert plain.exact
    assert solve(state, budget=MAX_BUDGET).values == plain.values
    assert solve(state, partial=True).values == plain.values


def test_the_transposition_table_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table stops growing at TABLE_SIZE, and the search stays exact past it."""
    state = endgame(14)
    full = solve(state)
    tables: list[dict[object, object]] = []
    init = search._Search.__init__

    def kept(self: search._Search, *args: object) -> None:
        init(self, *args)  # type: ignore[arg-type]
        tables.append(self.tt)

    monkeypatch.setattr(search._Search, "__init__", kept)
    monkeypatch.setattr(search, "TABLE_SIZE", 64)
    small = solve(state)
    assert small.values == full.values and small.exact
    assert full.nodes > 64 and len(tables[0]) == 64


ARGUMENTS: list[tuple[str, object, object, object, object]] = [
    # name, least accepted, just below, most accepted, just above
    ("samples", 1, 0, MAX_SAMPLES, MAX_SAMPLES + 1),
    ("exact_cards", 0, -1, MAX_CARDS, MAX_CARDS + 1),
    ("early", 1, 0, MAX_TRICKS, MAX_TRICKS + 1),
    ("budget", 1, 0, MAX_BUDGET, MAX_BUDGET + 1),
]


@pytest.mark.parametrize(("name", "least", "below", "most", "above"), ARGUMENTS)
def test_search_bot_settings_are_bounded_ranges(
    name: str, least: object, below: object, most: object, above: object
) -> None:
    """Each setting accepts its range's ends and refuses the value just past either, and
    10**9, with a short StateError naming the setting."""
    for value in (least, most):
        assert getattr(SearchBot(seed=1, **{name: value}), name) == value  # type: ignore[arg-type]
    for value in (below, above, 10**9):
        with pytest.raises(brisca.StateError, match=name) as refused:
            SearchBot(seed=1, **{name: value})  # type: ignore[arg-type]
        assert len(str(refused.value)) < 100


def test_evaluate_and_solve_arguments_are_bounded_ranges() -> None:
    """evaluate's samples, depth and budget, and solve's depth and budget, accept their
    ranges' ends and refuse the values just past them with a short StateError."""
    state = endgame(6)
    view, legal = brisca.observe(state, state.to_act), brisca.legal_actions(state)  # type: ignore[arg-type]
    for kwargs in (
        {"samples": 1, "depth": INFINITE_DEPTH, "budget": MAX_BUDGET},
        {"samples": MAX_SAMPLES, "depth": 1, "budget": 1},
    ):
        assert len(evaluate(view, legal, rng=Generator(1), **kwargs)) == len(legal)
    for bad in (
        {"samples": 0},
        {"samples": MAX_SAMPLES + 1},
        {"samples": 10**9},
        {"depth": 0},
        {"depth": INFINITE_DEPTH + 1},
        {"budget": 0},
        {"budget": MAX_BUDGET + 1},
    ):
        with pytest.raises(brisca.StateError, match=next(iter(bad))) as refused:
            evaluate(view, legal, **{"samples": 2, "rng": Generator(1), **bad})  # type: ignore[arg-type]
        assert len(str(refused.value)) < 100
    assert solve(state, depth=INFINITE_DEPTH, budget=MAX_BUDGET).exact
    for bad in ({"depth": INFINITE_DEPTH + 1}, {"budget": 0}, {"budget": MAX_BUDGET + 1}):
        with pytest.raises(brisca.StateError, match=next(iter(bad))):
            solve(state, **bad)  # type: ignore[arg-type]
    with pytest.raises(brisca.StateError, match="partial"):
        solve(state, partial=1)  # type: ignore[arg-type]


def test_a_decision_at_the_largest_settings_is_bounded_by_the_budget(
    visits: list[int],
) -> None:
    """On the first trick of a 4-player hand, the bot at its largest samples, exact_cards
    and early decides, and its searches visit no more positions than its budget."""
    state = brisca.new_game("spanish-4p", seed=5)
    view, legal = brisca.observe(state, 0), brisca.legal_actions(state)
    for kwargs in (
        {"samples": MAX_SAMPLES, "exact_cards": MAX_CARDS, "budget": 3000},
        {"samples": 4, "exact_cards": MAX_CARDS, "budget": 20_000},
        {"samples": 4, "exact_cards": 0, "early": MAX_TRICKS, "budget": 20_000},
    ):
        visits[0] = 0
        bot = SearchBot(seed=1, **kwargs)  # type: ignore[arg-type]
        assert bot(view, legal) in legal
        assert 0 < visits[0] <= kwargs["budget"]


def test_rollouts_are_bounded_by_the_budget(visits: list[int]) -> None:
    """An auction decision plays its worlds out, and solves their play from the first
    card when exact_cards allows it: within the budget, the heuristic finishing a
    rollout the budget cannot solve."""
    state = brisca.new_game("subastada-4p", seed=2)
    view, legal = brisca.observe(state, state.to_act), brisca.legal_actions(state)  # type: ignore[arg-type]
    bot = SearchBot(samples=2, seed=1, exact_cards=MAX_CARDS, budget=8000)
    assert bot(view, legal) in legal
    assert 0 < visits[0] <= 8000
