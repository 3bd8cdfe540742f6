"""What the search costs: the solver's endgames, its reach in a second, the search bot's decisions.

Run: ``python benchmarks/search.py [--positions N] [--hands N] [--presets spanish-2p,...]
[--settings exact_cards=12] [--engine-only] [--only speed,...]``

Five measurements, each a median over many positions, never a timed test:

- **endgame**: :func:`brisca.agents.search.solve` on random 2-player positions with an
  empty stock (every card known, three tricks to go), in milliseconds;
- **speed**: the solver's positions per second of CPU time over fixed sets of
  endgames: 2-player with an empty stock, 4-player with the last three tricks
  (12 cards, the talon just gone) and with 14 cards (a round of draws to go);
  ``--engine-only`` searches them over the engine's states alone, as before the
  compact form, for comparison;
- **reach**: from the deal of a 2-player and a 4-player hand, iterative deepening
  one trick at a time (``solve(state, depth=k)``), the deepest search that ends
  within one second and the default budget of positions, with its positions searched;
- **sampling**: :func:`brisca.agents.sampling.sample_state` from the views of the 2-player
  positions the search bot searches (ten cards to play), as many worlds a view as a
  decision draws (``SearchBot().samples``), in milliseconds per world, with the
  share of the decision's time they take;
- **decisions**: the search bot (``SearchBot()``, the ``hard`` level, or with
  ``--settings name=value,...``) playing
  against :class:`~brisca.agents.bots.HeuristicBot` in each preset, the median and 90th
  percentile of its time per decision over all its decisions and over the ones it
  searched (``SearchBot.searches``: those where it sampled worlds).

Two more say what the budgets cost:

- **refusals**: :func:`~brisca.agents.sampling.sample_state` on views edited to claim a
  black hand (at random moments of puerto-rican-2p, where black hands are off), the
  time to refuse one against the time to sample the real view, each from a fresh model;
- **budget**: ``solve(state)`` from the deal of a 2-player and a 4-player hand, the
  positions it visits and the time it takes to refuse, and ``partial=True``'s answer.

``--only refusals,budget`` runs only the sections named.

One process and one core: the figures are for a single search at a time.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import time
from collections.abc import Sequence

import attrs

import brisca
from brisca.agents import sampling as sampler
from brisca.agents import search
from brisca.agents.bots import HeuristicBot, SearchBot, play_game
from brisca.agents.sampling import sample_state
from brisca.agents.search import cards_to_play, solve
from brisca.game.rng import Generator

PRESETS = "spanish-2p,arrastre-2p,puerto-rican-2p,spanish-4p,subastada-4p,chiamata-5p"
#: The search bot's settings for ``decisions`` (``--settings exact_cards=12``).
SETTINGS: dict[str, str | int] = {}


def endgame_positions(count: int, seed: int) -> list[brisca.State]:
    """Random 2-player positions whose stock and turned card are gone."""
    rng = random.Random(seed)
    found: list[brisca.State] = []
    while len(found) < count:
        state = brisca.new_game("spanish-2p", seed=rng.randrange(2**32))
        while state.stock or state.trump_card is not None:
            legal = brisca.legal_actions(state)
            state = brisca.apply(state, legal[rng.randrange(len(legal))])
        found.append(state)
    return found


def endgame(count: int) -> None:
    times, nodes = [], []
    for state in endgame_positions(count, seed=1):
        start = time.perf_counter()
        solution = solve(state)
        times.append(time.perf_counter() - start)
        nodes.append(solution.nodes)
    print(
        f"endgame (2p, empty stock, {count} positions): median {statistics.median(times) * 1e3:.3f}"
        f" ms, 90th percentile {quantile(times, 0.9) * 1e3:.3f} ms,"
        f" median {statistics.median(nodes):.0f} positions searched"
    )


def fixed_positions(preset: str, cards: int, count: int, seed: int) -> list[brisca.State]:
    """Seeded positions of random play in `preset` with `cards` cards still to play."""
    rng = random.Random(seed)
    found: list[brisca.State] = []
    while len(found) < count:
        state = brisca.new_game(preset, seed=rng.randrange(2**32))
        while cards_to_play(state) > cards:
            legal = brisca.legal_actions(state)
            state = brisca.apply(state, legal[rng.randrange(len(legal))])
        found.append(state)
    return found


def speed(count: int) -> None:
    for preset, cards, many in (
        ("spanish-2p", 6, count),
        ("spanish-4p", 12, max(10, count // 10)),
        ("spanish-4p", 14, max(5, count // 50)),
    ):
        states = fixed_positions(preset, cards, many, seed=cards)
        start = time.process_time()
        nodes = sum(solve(state).nodes for state in states)
        spent = time.process_time() - start
        print(
            f"speed, {preset}, {cards} cards to play ({many} positions): {nodes / spent:,.0f}"
            f" positions/s, {spent / many * 1e3:.2f} ms a solve, {nodes / many:,.0f} positions"
        )


def reach(preset: str, seeds: Sequence[int], budget: float = 1.0) -> None:
    depths = []
    for seed in seeds:
        state = brisca.new_game(preset, seed=seed)
        spent, depth, nodes = 0.0, 0, 0
        while True:
            start = time.perf_counter()
            try:
                solution = solve(state, depth=depth + 1)
            except brisca.StateError:  # past the default budget of positions: as deep as it goes
                break
            spent += time.perf_counter() - start
            if spent > budget:
                break
            depth, nodes = depth + 1, solution.nodes
            if solution.exact:
                break
        depths.append((depth, nodes))
    shown = ", ".join(f"{d} tricks ({n:,} positions)" for d, n in depths)
    print(f"reach in {budget:.0f} s from the deal, {preset}: {shown}")


def sampling(count: int) -> None:
    rng = random.Random(4)
    heuristic = HeuristicBot()
    per_world, shares = [], []
    for _ in range(count):
        state = brisca.new_game("spanish-2p", seed=rng.randrange(2**32))
        while cards_to_play(state) > 10:
            view = brisca.observe(state, state.to_act)  # type: ignore[arg-type]
            state = brisca.apply(state, heuristic(view, brisca.legal_actions(state)))
        view, legal = brisca.observe(state, state.to_act), brisca.legal_actions(state)  # type: ignore[arg-type]
        generator = Generator(rng.randrange(2**32))
        bot = SearchBot(seed=1)
        start = time.perf_counter()
        for _ in range(bot.samples):
            sample_state(view, generator)
        sampled = time.perf_counter() - start
        start = time.perf_counter()
        bot(view, legal)
        decided = time.perf_counter() - start
        per_world.append(sampled / bot.samples)
        shares.append(sampled / decided)
    print(
        f"sampling (2p, ten cards to play, {count} views): median"
        f" {statistics.median(per_world) * 1e3:.2f} ms a world,"
        f" {statistics.median(shares):.0%} of a decision's time"
    )


def refusals(count: int) -> None:
    rng = random.Random(5)
    refuse, sample = [], []
    for _ in range(count):
        state = brisca.new_game("puerto-rican-2p", seed=rng.randrange(2**32))
        for _ in range(rng.randrange(30)):
            state = brisca.apply(state, rng.choice(brisca.legal_actions(state)))
        view = brisca.observe(state, 0)
        forged = attrs.evolve(view, black_hand=1)
        start = time.process_time()
        with contextlib.suppress(brisca.StateError):
            sample_state(forged, Generator(1))
        refuse.append(time.process_time() - start)
        sampler._model.cache_clear()
        start = time.process_time()
        sample_state(view, Generator(1))
        sample.append(time.process_time() - start)
    print(
        f"refusals (puerto-rican-2p, a forged black hand, {count} views): median"
        f" {statistics.median(refuse) * 1e3:.2f} ms to refuse, max {max(refuse) * 1e3:.2f} ms;"
        f" {statistics.median(sample) * 1e3:.2f} ms to sample the real view"
    )


def budget(preset: str) -> None:
    state = brisca.new_game(preset, seed=1)
    start = time.process_time()
    try:
        found = f"answered, {solve(state).nodes:,} positions"
    except brisca.StateError as error:
        found = f"refused ({error})"
    spent = time.process_time() - start
    start = time.process_time()
    guess = solve(state, partial=True)
    partial = time.process_time() - start
    print(
        f"budget, solve from the deal of {preset}: {found} in {spent:.1f} s;"
        f" partial=True: exact={guess.exact}, {guess.nodes:,} positions in {partial:.1f} s"
    )


def decisions(preset: str, hands: int) -> None:
    rules = brisca.preset(preset)
    all_times: list[float] = []
    searched: list[float] = []
    bot = SearchBot(seed=1, **SETTINGS)  # type: ignore[arg-type]
    for hand in range(hands):

        def timed(view: brisca.Observation, legal: Sequence[brisca.Action]) -> brisca.Action:
            before = bot.searches
            start = time.perf_counter()
            action = bot(view, legal)
            spent = time.perf_counter() - start
            all_times.append(spent)
            if bot.searches > before:
                searched.append(spent)
            return action

        players = [
            timed if seat % 2 == hand % 2 else HeuristicBot() for seat in range(rules.num_players)
        ]
        play_game(rules, players, seed=hand)
    print(
        f"decisions, {preset} ({hands} hands): all {spread(all_times)}; searched {spread(searched)}"
    )


def spread(times: Sequence[float]) -> str:
    """How many, their median, 90th percentile and maximum, in milliseconds."""
    if not times:
        return "none"
    return (
        f"{len(times)}, median {statistics.median(times) * 1e3:.1f} ms, "
        f"90th {quantile(times, 0.9) * 1e3:.1f} ms, max {max(times) * 1e3:.1f} ms"
    )


def quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000, help="endgame positions")
    parser.add_argument("--hands", type=int, default=20, help="hands per preset for decisions")
    parser.add_argument("--presets", default=PRESETS, help="comma-separated preset names")
    parser.add_argument("--settings", default="", help="SearchBot settings, name=value,...")
    parser.add_argument(
        "--engine-only", action="store_true", help="search without the compact form, as before"
    )
    sections = "endgame,speed,reach,sampling,refusals,budget,decisions"
    parser.add_argument("--only", default=sections, help="comma-separated sections to run")
    args = parser.parse_args()
    only = set(args.only.split(","))
    if args.engine_only:
        search._plays_only = lambda rules: False  # type: ignore[assignment]
    if args.settings:
        for setting in args.settings.split(","):
            name, _, value = setting.partition("=")
            SETTINGS[name] = int(value) if value.isdigit() else value
    if "endgame" in only:
        endgame(args.positions)
    if "speed" in only:
        speed(args.positions)
    if "reach" in only:
        reach("spanish-2p", seeds=(1, 2, 3))
        reach("spanish-4p", seeds=(1, 2, 3))
    if "sampling" in only:
        sampling(max(10, args.positions // 20))
    if "refusals" in only:
        refusals(max(10, args.positions // 20))
    if "budget" in only:
        budget("spanish-2p")
        budget("spanish-4p")
    if "decisions" in only:
        for preset in args.presets.split(","):
            decisions(preset, args.hands)


if __name__ == "__main__":
    main()
