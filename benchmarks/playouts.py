"""How fast random games run through the public API, against a hand-written floor.

Run: ``python benchmarks/playouts.py [-n GAMES] [--presets spanish-2p,...]``

Each preset plays N random legal games through the public API
(``new_game`` -> ``legal_actions``/``apply`` until over -> ``result``), and
``match:PRESET`` N hands of random matches (``new_match``, then ``legal_actions``/
``apply`` on the `Match`, which scores each hand and deals the next). In the same
run, a minimal hand-written mutable loop of the 2-player game plays N games: the
floor. A second reference, a minimal loop over immutable tuples, shows what any
engine with immutable states pays before it checks anything.

Games are timed in batches; the games take turns, batch by batch, so that a slow
spell of a shared machine hits them all alike. The report gives the median
microseconds per game and the median of the per-round ratios to the floor. Every
game chooses its moves with the same kind of generator.

When the PyPI package ``naipes`` is installed (``pip install 'brisca[bench]'``),
its 2-player engine, a mutable one, plays the same random games as a peer line.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Iterable

from valgrind import BUILD

import brisca

try:  # an optional peer: a mutable 2-player engine from PyPI
    from naipes.games.brisca import GameState as NaipesGame
except ImportError:
    NaipesGame = None

ORDER = (1, 3, 12, 11, 10, 7, 6, 5, 4, 2)
POINTS = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}
FLOOR_DECK = [
    (len(ORDER) - ORDER.index(rank), suit, POINTS.get(rank, 0)) for suit in "OCEB" for rank in ORDER
]


def floor_game(rng: random.Random) -> tuple[int, int]:
    """One 2-player game of classic Brisca as a minimal mutable loop: the floor."""
    deck = FLOOR_DECK[:]
    rng.shuffle(deck)
    hands = [[deck[0], deck[2], deck[4]], [deck[1], deck[3], deck[5]]]
    trump_card = deck[6]
    trump = trump_card[1]
    talon = [*deck[7:], trump_card]
    points = [0, 0]
    leader = 0
    for _ in range(20):
        follower = 1 - leader
        lead = hands[leader].pop(rng.randrange(len(hands[leader])))
        follow = hands[follower].pop(rng.randrange(len(hands[follower])))
        if follow[1] == lead[1]:
            winner = follower if follow[0] > lead[0] else leader
        else:
            winner = follower if follow[1] == trump else leader
        points[winner] += lead[2] + follow[2]
        if talon:
            hands[winner].append(talon.pop(0))
            hands[1 - winner].append(talon.pop(0))
        leader = winner
    return points[0], points[1]


def immutable_floor_game(rng: random.Random) -> object:
    """The same game over immutable tuples, rebuilt on every card: no checks, no objects."""
    deck = FLOOR_DECK[:]
    rng.shuffle(deck)
    hands = ((deck[0], deck[2], deck[4]), (deck[1], deck[3], deck[5]))
    trump_card = deck[6]
    # (hands, stock, trump card, trick, tricks, to_act)
    state = (hands, tuple(deck[7:]), trump_card, (), (), 0)
    while state[5] is not None:
        hands, stock, turned, trick, tricks, seat = state
        hand = hands[seat]
        card = hand[rng.randrange(len(hand))]
        i = hand.index(card)
        hands = (*hands[:seat], hand[:i] + hand[i + 1 :], *hands[seat + 1 :])
        trick = (*trick, (seat, card))
        if len(trick) < 2:
            state = (hands, stock, turned, trick, tricks, 1 - seat)
            continue
        (leader, lead), (follower, follow) = trick
        if follow[1] == lead[1]:
            winner = follower if follow[0] > lead[0] else leader
        else:
            winner = follower if follow[1] == trump_card[1] else leader
        tricks = (*tricks, (leader, trick, winner, lead[2] + follow[2]))
        talon = stock if turned is None else (*stock, turned)
        if talon:
            drawn = [(), ()]
            drawn[winner] = (*hands[winner], talon[0])
            drawn[1 - winner] = (*hands[1 - winner], talon[1])
            hands = (drawn[0], drawn[1])
            stock, turned = stock[2:], (None if len(talon) == 2 else turned)
        state = (hands, stock, turned, (), tricks, None if len(tricks) == 20 else winner)
    return state


def library_game(rules: brisca.Rules) -> Callable[[random.Random], object]:
    def play(rng: random.Random) -> object:
        state = brisca.new_game(rules, seed=rng.getrandbits(64))
        while not state.is_over:
            actions = brisca.legal_actions(state)
            state = brisca.apply(state, actions[rng.randrange(len(actions))])
        return brisca.result(state)

    return play


def match_hand(rules: brisca.Rules) -> Callable[[random.Random], object]:
    """One hand of a match, through the same calls on the `Match`: each call plays the
    next hand of a match that goes on from call to call (a new one once it ends), so
    the scoring, the next deal and the match's own start count, shared by its hands."""
    current: list[brisca.Match] = []

    def play(rng: random.Random) -> object:
        match = current.pop() if current else None
        if match is None or match.is_over:
            match = brisca.new_match(rules, seed=rng.getrandbits(64))
        assert match.state is not None
        deal = match.state.deal
        while match.state is not None and match.state.deal is deal:
            actions = brisca.legal_actions(match)
            match = brisca.apply(match, actions[rng.randrange(len(actions))])
        current.append(match)
        return match.standings

    return play


def naipes_game(rng: random.Random) -> tuple[int, int]:
    """One random legal 2-player game through naipes: each seat plays a random card of its
    hand (any card is legal in classic Brisca), dealt from a seed as the library's are."""
    game = NaipesGame.new(rng.getrandbits(64))
    while not game.is_finished():
        seat = game.leader if game.pending_leader is None else game.pending_leader.other()
        game.play_card(seat, rng.randrange(len(game.hand_of(seat))))
    return game.score_of(game.leader), game.score_of(game.leader.other())


def measure(
    games: dict[str, Callable[[random.Random], object]], n: int, rounds: int = 21
) -> dict[str, tuple[float, float]]:
    """Median microseconds per game and median ratio to the floor, for each game.

    The games take turns, one batch of about n/rounds games each per round, so
    that a slow spell of a shared machine hits them all alike; each round's
    ratio compares batches timed side by side.
    """
    size = max(1, n // rounds)
    rngs = {name: random.Random(2026) for name in games}
    for name, game in games.items():  # warm up caches
        for _ in range(size):
            game(rngs[name])
    times: dict[str, list[float]] = {name: [] for name in games}
    for _ in range(rounds):
        for name, game in games.items():
            rng = rngs[name]
            start = time.perf_counter()
            for _ in range(size):
                game(rng)
            times[name].append((time.perf_counter() - start) / size * 1e6)
    floor = times[FLOOR]
    return {
        name: (
            statistics.median(t),
            statistics.median(a / b for a, b in zip(t, floor, strict=True)),
        )
        for name, t in times.items()
    }


FLOOR = "floor (2p, mutable)"
NAIPES = "naipes (2p, mutable)"
#: A line of one hand of a match (`match_hand`) of a preset is named with this prefix.
MATCH = "match:"
PRESETS = f"spanish-2p,spanish-4p,arrastre-2p,{MATCH}spanish-2p"


def lines(presets: Iterable[str]) -> dict[str, Callable[[random.Random], object]]:
    """The games a benchmark plays, by name: the floor, the immutable reference, the presets."""
    games: dict[str, Callable[[random.Random], object]] = {
        FLOOR: floor_game,
        "immutable tuples (2p)": immutable_floor_game,
    }
    if NaipesGame is not None:
        games[NAIPES] = naipes_game
    for name in presets:
        if name.startswith(MATCH):
            games[name] = match_hand(brisca.preset(name.removeprefix(MATCH)))
        else:
            games[name] = library_game(brisca.preset(name))
    return games


def arguments(description: str, games: int) -> argparse.Namespace:
    """The benchmarks' command line: games per line and the presets to play."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("-n", "--games", type=int, default=games, help="games per line")
    parser.add_argument("--presets", default=PRESETS, help="comma-separated preset names")
    return parser.parse_args()


def main() -> None:
    args = arguments(__doc__.splitlines()[0], 4000)
    print(f"brisca's {BUILD} build")
    print(f"{'game':<22} {'median us/game':>15} {'x floor':>8}")
    for name, (us, ratio) in measure(lines(args.presets.split(",")), args.games).items():
        print(f"{name:<22} {us:>15.1f} {ratio:>8.2f}")


if __name__ == "__main__":
    main()
