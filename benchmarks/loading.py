"""What loading costs: ``loads`` replays a saved history through ``apply``.

Run: ``python benchmarks/loading.py [-n HANDS] [--presets spanish-2p,...] [--readers KIB]``

A saved state is its deal and its actions, and :func:`brisca.loads` deals the hand
again and applies every action (see ``docs/concepts/states.md``). This measures that
cost, and what it is made of, against the bare replay measured in the same run:

- for each preset, N random hands played to the end and saved with ``dumps``; the
  median milliseconds to ``loads`` one, and, in the same rounds, to replay the same
  hand by hand (``new_game`` then ``apply`` for each already-parsed action): the
  floor any loader that replays must pay. The report gives both, the microseconds per
  action of each, and the median of the per-round ratios of ``loads`` to the replay.
- a "brisca-match" record of 2,000 void subastada-4p hands (every seat passes),
  loaded with ``loads_match``, against the same match played through ``apply`` and
  against a record of 200 such hands: loading should cost about 10 times as much
  (linear in the record's size).

- with ``--readers KIB``, instead: the worst CPU seconds per KiB of every reader of
  untrusted text (the pre-scan, ``parse``, states, records, matches) over the worst
  inputs found, of about KIB KiB each, and the ratio of its cost at twice that size
  (about 2 when linear).

Lines take turns, batch by batch, so that a slow spell of a shared machine hits them
all alike.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import time
from collections.abc import Callable

import brisca
from brisca.game import jsonio
from brisca.game.match import match_apply

PRESETS = "spanish-2p,spanish-4p,subastada-4p"
MATCH_HANDS = (200, 2000)


def finished_hands(rules: brisca.Rules, n: int) -> list[brisca.State]:
    """`n` random hands of `rules`, played to the end (seeded, so every run is the same)."""
    rng = random.Random(2026)
    hands = []
    for _ in range(n):
        state = brisca.new_game(rules, seed=rng.getrandbits(64))
        while not state.is_over:
            actions = brisca.legal_actions(state)
            state = brisca.apply(state, actions[rng.randrange(len(actions))])
        hands.append(state)
    return hands


def replayer(state: brisca.State) -> Callable[[], object]:
    """The bare replay of a hand: deal it and apply its actions, with nothing read."""
    rules, seed, dealer = state.rules, state.seed, state.dealer
    history = state.history

    def replay() -> object:
        reached = brisca.new_game(rules, seed=seed, dealer=dealer)
        for action in history:
            reached = brisca.apply(reached, action)
        return reached

    return replay


def void_match(hands: int) -> brisca.Match:
    """A subastada-4p match of `hands` void hands: every seat passes."""
    game = brisca.new_match(brisca.preset("subastada-4p"), seed=1)
    while len(game.hands) < hands:
        game = match_apply(game, brisca.Pass())
    return game


def measure(lines: dict[str, list[Callable[[], object]]], rounds: int) -> dict[str, list[float]]:
    """Seconds per call of each line, one median-ready sample per round.

    Each line is a list of calls; a round times every line's calls once, lines in turn.
    """
    for calls in lines.values():  # warm up caches
        for call in calls[:3]:
            call()
    times: dict[str, list[float]] = {name: [] for name in lines}
    for _ in range(rounds):
        for name, calls in lines.items():
            start = time.perf_counter()
            for call in calls:
                call()
            times[name].append((time.perf_counter() - start) / len(calls))
    return times


def ratio(times: dict[str, list[float]], top: str, bottom: str) -> float:
    """The median of the per-round ratios of line `top` to line `bottom`."""
    return statistics.median(a / b for a, b in zip(times[top], times[bottom], strict=True))


def hands_report(presets: list[str], n: int, rounds: int) -> None:
    print(f"Loading a finished hand ({n} random hands per preset, {rounds} rounds)")
    print(
        f"{'preset':<14} {'actions':>7} {'loads ms':>9} {'replay ms':>10} "
        f"{'loads us/act':>12} {'apply us/act':>12} {'x replay':>8}"
    )
    for name in presets:
        states = finished_hands(brisca.preset(name), n)
        texts = [brisca.dumps(s) for s in states]
        assert all(brisca.loads(t) == s for t, s in zip(texts, states, strict=True))
        actions = statistics.mean(len(s.history) for s in states)
        times = measure(
            {
                "loads": [lambda t=t: brisca.loads(t) for t in texts],
                "replay": [replayer(s) for s in states],
            },
            rounds,
        )
        loads, replay = statistics.median(times["loads"]), statistics.median(times["replay"])
        print(
            f"{name:<14} {actions:>7.1f} {loads * 1e3:>9.3f} {replay * 1e3:>10.3f} "
            f"{loads / actions * 1e6:>12.1f} {replay / actions * 1e6:>12.1f} "
            f"{ratio(times, 'loads', 'replay'):>8.2f}"
        )


def match_report(rounds: int) -> None:
    small, large = MATCH_HANDS
    matches = {hands: void_match(hands) for hands in MATCH_HANDS}
    texts = {hands: brisca.dumps_match(game) for hands, game in matches.items()}
    assert brisca.loads_match(texts[large]) == matches[large]
    times = measure(
        {
            f"loads {small}": [lambda: brisca.loads_match(texts[small])],
            f"loads {large}": [lambda: brisca.loads_match(texts[large])],
            f"apply {large}": [lambda: void_match(large)],
        },
        rounds,
    )
    size = len(texts[large]) / 1024
    print(f"\nLoading a match record of void subastada-4p hands ({rounds} rounds)")
    for name, samples in times.items():
        hands = int(name.split()[1])
        median = statistics.median(samples)
        print(f"{name + ' hands':<18} {median * 1e3:>9.1f} ms {median / hands * 1e6:>8.1f} us/hand")
    print(f"record of {large} hands: {size:.0f} KiB")
    print(f"loads {large} / loads {small}: {ratio(times, f'loads {large}', f'loads {small}'):.2f}")
    print(f"loads {large} / apply {large}: {ratio(times, f'loads {large}', f'apply {large}'):.2f}")


def worst_texts(size: int) -> dict[str, str]:
    """The inputs that cost the readers most per byte, each about `size` characters.

    Junk and valid documents alike: unterminated strings full of escaped quotes,
    nesting just under the cap, many short strings, objects, numbers or brackets,
    false alarms for the surrogate check, and a state and a record padded or stuffed.
    """
    state = json.loads(brisca.dumps(brisca.new_game(seed=1)))
    record = brisca.records.record_game(brisca.new_game(seed=1)).to_dict()

    def repeat(item: str, head: str = "[", tail: str = "]") -> str:
        return head + ",".join([item] * max(1, size // (len(item) + 1))) + tail

    def padded(data: dict[str, object]) -> str:
        text = json.dumps(data)
        return text[:-1] + " " * max(0, size - len(text)) + "}"

    def stuffed(data: dict[str, object], key: str, item: object) -> str:
        each = len(json.dumps(item)) + 2
        return json.dumps({**data, key: [item] * max(1, size // each)})

    return {
        "unterminated escapes": '"' + '\\"' * (size // 2),
        "nested under the cap": repeat("[" * 63 + "]" * 63),
        "short strings": repeat('""'),
        "escaped strings": repeat('"\\u00e9\\n"'),
        "empty objects": repeat("{}"),
        "one-key objects": repeat('{"a":0}'),
        "long numbers": repeat("9" * 4000),
        "long floats": repeat("1." + "1" * 4000),
        "surrogate false alarms": repeat('"\\\\ud800"'),
        "surrogate pairs": repeat('"\\ud83d\\ude00"'),
        "brackets": "[]" * (size // 2),
        "open brackets": "[" * 64 + " " * size,
        "padded state": padded(state),
        "state with a long deck": stuffed(state, "deck", "1O"),
        "record with many tags": json.dumps(
            {**record, "tags": {str(k): "" for k in range(size // 8)}}
        ),
        "record with a long name": json.dumps({**record, "event": "x" * size}),
        "record with a long deck": stuffed(record, "deck", "1O"),
        "record with many players": stuffed(record, "players", ""),
    }


def readers() -> dict[str, Callable[[str], object]]:
    """Every reader of untrusted JSON text, by name."""
    return {
        "pre-scan (jsonio.depth)": jsonio.depth,
        "jsonio.parse": jsonio.parse,
        "loads (states)": brisca.loads,
        "records.loads": brisca.records.loads,
        "records.validate": brisca.records.validate,
        "loads_match": brisca.loads_match,
    }


def cost(read: Callable[[str], object], text: str, repeats: int = 3) -> float:
    """CPU seconds for one read of `text`, the best of `repeats`."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        with contextlib.suppress(brisca.BriscaError):
            read(text)
        best = min(best, time.process_time() - start)
    return best


def readers_report(kib: int) -> None:
    """The worst seconds per KiB of each reader, and its ratio at twice the size."""
    size = kib * 1024
    small, large = worst_texts(size), worst_texts(2 * size)
    print(f"Worst cost per KiB of each reader, on {len(small)} inputs of {kib} KiB")
    print(f"{'reader':<24} {'worst input':<26} {'ms/KiB':>8} {'s/MiB':>7} {'x2 ratio':>8}")
    for name, read in readers().items():
        worst = max(small, key=lambda k: cost(read, small[k], 1) / len(small[k]))
        seconds = cost(read, small[worst])
        doubled = cost(read, large[worst]) / seconds if seconds else float("nan")
        per_kib = seconds / (len(small[worst]) / 1024)
        print(
            f"{name:<24} {worst:<26} {per_kib * 1e3:>8.4f} {per_kib * 1024:>7.3f} {doubled:>8.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--hands", type=int, default=200, help="hands per preset")
    parser.add_argument("--rounds", type=int, default=15, help="timed rounds per line")
    parser.add_argument("--presets", default=PRESETS, help="comma-separated preset names")
    parser.add_argument("--readers", type=int, metavar="KIB", help="the readers' worst cost")
    args = parser.parse_args()
    if args.readers:
        readers_report(args.readers)
        return
    hands_report(args.presets.split(","), args.hands, args.rounds)
    match_report(max(3, args.rounds // 3))


if __name__ == "__main__":
    main()
