"""What the search costs: the solver's endgames, its reach in a second, the search bot's decisions.

Run: ``python benchmarks/search.py [--positions N] [--hands N] [--presets spanish-2p,...]``

Four measurements, each a median over many positions, never a timed test:

- **endgame**: :func:`brisca.agents.search.solve` on random 2-player positions with an
  empty stock (every card known, three tricks to go), in milliseconds;
- **reach**: from the deal of a 2-player and a 4-player hand, iterative deepening
  one trick at a time (``solve(state, depth=k)``), the deepest search that ends
  within one second, with its positions searched;
- **sampling**: :func:`brisca.agents.sampling.sample_state` from the views of the 2-player
  positions the search bot searches (ten cards to play), as many worlds a view as a
  decision draws (``SearchBot().samples``), in milliseconds per world, with the
  share of the decision's time they take;
- **decisions**: the search bot (``SearchBot()``, the ``hard`` level) playing
  against :class:`~brisca.agents.bots.HeuristicBot` in each preset, the median and 90th
  percentile of its time per decision over all its decisions and over the ones it
  searched (``SearchBot.searches``: those where it sampled worlds).

One process and one core: the figures are for a single search at a time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

import brisca
from brisca.agents.bots import HeuristicBot, SearchBot, play_game
from brisca.agents.sampling import sample_state
from brisca.agents.search import cards_to_play, solve
from brisca.game.rng import Generator

PRESETS = "spanish-2p,arrastre-2p,puerto-rican-2p,spanish-4p,subastada-4p,chiamata-5p"


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


def reach(preset: str, seeds: Sequence[int], budget: float = 1.0) -> None:
    depths = []
    for seed in seeds:
        state = brisca.new_game(preset, seed=seed)
        spent, depth, nodes = 0.0, 0, 0
        while True:
            start = time.perf_counter()
            solution = solve(state, depth=depth + 1)
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


def decisions(preset: str, hands: int) -> None:
    rules = brisca.preset(preset)
    all_times: list[float] = []
    searched: list[float] = []
    bot = SearchBot(seed=1)
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
    args = parser.parse_args()
    endgame(args.positions)
    reach("spanish-2p", seeds=(1, 2, 3))
    reach("spanish-4p", seeds=(1, 2, 3))
    sampling(max(10, args.positions // 20))
    for preset in args.presets.split(","):
        decisions(preset, args.hands)


if __name__ == "__main__":
    main()
