"""How strong the search bot is, measured in the arena over duplicate deals.

Run: ``python benchmarks/search_strength.py EXPERIMENT [--deals N] [--jobs J] [--seed S]
[--only A]``

Each experiment prints one Markdown table row per line-up, as on the "Bots and
search" page: hands won, drawn and lost by the first bot, its win rate with a 95%
Wilson interval, the mean point margin a hand, the deals it was ahead, even and
behind on, the sign test's p-value, and the first bot's mean time per decision.

- ``targets``: the ``hard`` level (``search``) against the ``normal`` one
  (``heuristic``) in spanish-2p, spanish-4p, arrastre-2p and puerto-rican-2p;
- ``levels``: normal against easy and hard against normal, in spanish-2p;
- ``auctions``: search against heuristic in subastada-4p and chiamata-5p;
- ``samples``: the win rate as the worlds per decision grow (spanish-2p);
- ``exact``: the win rate as the exact phase grows (``exact_cards``, spanish-2p);
- ``exact-4p``: the same in spanish-4p, from the last two tricks and a half (ten
  cards) to the last three (twelve, from the talon's end) and 14, twelve against
  ten and 14 against twelve, and in arrastre-4p ten and twelve against the
  heuristic and each other;
- ``early``: the heuristic, rollouts or a depth-limited search before the exact
  phase (spanish-2p, eight worlds a decision).

The same seed gives the same deals to every line-up, so rows compare on equal cards.
"""

from __future__ import annotations

import argparse
import functools
import time

from brisca.agents.bots import BOTS, SearchBot
from brisca.runs.arena import ArenaResult, run_arena

EXPERIMENTS: dict[str, list[tuple[str, str, str]]] = {
    "targets": [
        ("search", "heuristic", preset)
        for preset in ("spanish-2p", "spanish-4p", "arrastre-2p", "puerto-rican-2p")
    ],
    "levels": [("heuristic", "random", "spanish-2p"), ("search", "heuristic", "spanish-2p")],
    "auctions": [
        ("search", "heuristic", "subastada-4p"),
        ("search", "heuristic", "chiamata-5p"),
    ],
    "samples": [(f"samples={n}", "heuristic", "spanish-2p") for n in (1, 2, 4, 8, 16, 32)],
    "exact": [(f"exact_cards={n}", "heuristic", "spanish-2p") for n in (6, 8, 10, 12, 14)],
    "exact-4p": [(f"exact_cards={n}", "heuristic", "spanish-4p") for n in (10, 12, 14)]
    + [("exact_cards=12", "exact_cards=10", "spanish-4p")]
    + [("exact_cards=14", "exact_cards=12", "spanish-4p")]
    + [(f"exact_cards={n}", "heuristic", "arrastre-4p") for n in (10, 12)]
    + [("exact_cards=12", "exact_cards=10", "arrastre-4p")],
    "early": [
        (f"early={mode}", "heuristic", "spanish-2p") for mode in ("heuristic", "rollouts", "1", "2")
    ],
}


def search_bot(settings: str, seed: int) -> SearchBot:
    """A search bot with some settings changed, from ``name=value[,name=value]``."""
    changed: dict[str, str | int] = {}
    for setting in settings.split(","):
        name, _, text = setting.partition("=")
        changed[name] = int(text) if text.isdigit() else text
    return SearchBot(seed=seed, **changed)  # type: ignore[arg-type]


def register(name: str) -> None:
    """Make a line-up's ``name=value`` bot known by name, to the arena's workers too."""
    if "=" in name and name not in BOTS:
        BOTS[name] = functools.partial(search_bot, name)


def row(outcome: ArenaResult, label: str) -> str:
    low, high = outcome.win_interval
    bot = outcome.bots[0]
    return (
        f"| {label} | {outcome.won}-{outcome.drawn}-{outcome.lost} "
        f"| {outcome.win_rate:.1%} [{low:.1%}, {high:.1%}] | {outcome.mean_margin:+.2f} "
        f"| {outcome.deals_won}/{outcome.deals_tied}/{outcome.deals_lost} "
        f"| {outcome.p_value:.1e} | {bot.mean_seconds * 1e3:.1f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("experiment", choices=sorted(EXPERIMENTS))
    parser.add_argument("--deals", type=int, default=1000, help="deals per line-up")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--seed", type=int, default=1, help="the deals' seed")
    parser.add_argument(
        "--only",
        action="append",
        help="run only this line-up ('A', 'A vs B' or 'A vs B, PRESET'); repeatable",
    )
    args = parser.parse_args()
    print("| line-up | hands won-drawn-lost | win rate [95% CI] | margin | deals +/=/- | p | ms |")
    print("|---|---|---|---|---|---|---|")
    for a, b, preset in EXPERIMENTS[args.experiment]:
        names = {a, f"{a} vs {b}", f"{a} vs {b}, {preset}"}
        if args.only and not names & set(args.only):
            continue
        register(a)
        register(b)
        start = time.perf_counter()
        outcome = run_arena(a, b, preset, deals=args.deals, seed=args.seed, jobs=args.jobs)
        label = f"{a} vs {b}, {preset} ({time.perf_counter() - start:.0f} s)"
        print(row(outcome, label), flush=True)


if __name__ == "__main__":
    main()
