"""Fuzz brisca's public entry points with mutated documents and junk arguments.

Run: ``python benchmarks/fuzz.py [-n ROUNDS] [--seed SEED]``

Each round feeds every entry point one input: mutated ``dumps`` of states,
matches and records (a field replaced, deleted or added, deep nesting, bad
bytes, a key named twice, a lone surrogate, an unterminated string full of escaped
quotes, a number past a float, a text longer than ``MAX_TEXT``), junk text for
the notation parsers, and junk arguments for the other functions. It counts the
inputs tried and every exception that is not a ``BriscaError`` (for
``records.validate``, every exception at all, since it promises never to raise),
grouped by entry point and type, and reports the longest error message. The exit
status is 1 when anything escaped.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import re
import sys
import time
from collections.abc import Callable
from typing import Any

import attrs

import brisca
from brisca import bots, encoding, records, sampling
from brisca import match as matches
from brisca.game.actions import ACTION_TYPES
from brisca.game.jsonio import MAX_TEXT
from brisca.game.rng import Generator

#: Every action type built from an argument, as the notation knows them.
TAKING_ARGUMENTS = [kind for kind in ACTION_TYPES if attrs.fields(kind)]

PRESETS = (
    "spanish-2p",
    "spanish-4p",
    "puerto-rican-3p",
    "arrastre-4p",
    "subastada-4p",
    "chiamata-5p",
    "chilean-rematada",
    "cubierta-2p",
)
WORDS = [
    "",
    " ",
    "1O",
    "3C",
    "12E",
    "²O",
    "bid ²",
    "bid rank ²",
    "bid ٣",
    "½ de oros",
    "٣C",
    "bid 99999999999999999999",
    "bid " + "9" * 5000,
    "swap 7O",
    "claim",
    "pass",
    "signal wink",
    "trump O",
    "call 3O",
    "sing E",
    "\ufeff{}",
    "\x00",
    "x" * 1000,
    "As de Oros",
    "0" * 5000 + "1 de oros",
    "K♠",
    "10♠",
    "nan",
    "null",
]
SCALARS: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -1,
    7,
    2**70,
    -(2**70),
    10**5000,
    1.5,
    float("nan"),
    float("inf"),
    *WORDS,
]


def junk(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON-like value, sometimes nested, sometimes very deep."""
    roll = rng.random()
    if roll < 0.02:
        inner: Any = rng.choice(SCALARS)
        for _ in range(rng.choice((70, 300, 1200))):
            inner = [inner] if rng.random() < 0.5 else {"k": inner}
        return inner
    if depth < 3 and roll < 0.3:
        if rng.random() < 0.5:
            return [junk(rng, depth + 1) for _ in range(rng.randrange(4))]
        return {
            rng.choice([*WORDS[:8], "rules", "seed"]): junk(rng, depth + 1)
            for _ in range(rng.randrange(4))
        }
    return rng.choice(SCALARS)


def junk_arg(rng: random.Random, pool: list[Any]) -> Any:
    """A junk Python argument: a JSON-like value, or an object of another kind."""
    if rng.random() < 0.4:
        return rng.choice(pool)
    return junk(rng)


def mutate(rng: random.Random, data: Any) -> Any:
    """`data` (decoded JSON) with one random change at a random place."""
    data = json.loads(json.dumps(data))
    path: list[Any] = []
    node = data
    while isinstance(node, (dict, list)) and node and rng.random() < 0.7:
        key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
        path.append(key)
        node = node[key]
    if not path:
        return junk(rng)
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    roll = rng.random()
    if roll < 0.15 and isinstance(parent, dict):
        del parent[key]
    elif roll < 0.25 and isinstance(parent, dict):
        parent[rng.choice(WORDS)] = junk(rng)
    elif roll < 0.35 and isinstance(node, str) and node:
        i = rng.randrange(len(node))
        parent[key] = node[:i] + rng.choice("²٣½x9 ") + node[i + 1 :]
    elif roll < 0.45 and isinstance(node, int) and not isinstance(node, bool):
        parent[key] = node + rng.choice((-1, 1, 2, 100, -(10**20)))
    else:
        parent[key] = junk(rng)
    return data


def text_of(rng: random.Random, data: Any) -> str | bytes:
    """JSON text of `data`, sometimes mangled at the byte level."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(10_000)  # the deepest junk is 1,200 levels: write it, whole
    try:
        text = json.dumps(data)
    except ValueError:  # an int too long to print
        text = "{}"
    finally:
        sys.setrecursionlimit(limit)
    roll = rng.random()
    if roll < 0.05:
        return text[: rng.randrange(len(text) + 1)]
    if roll < 0.08:
        return "\ufeff" + text
    if roll < 0.11:
        return text.encode("utf-16")
    if roll < 0.14:
        raw = bytearray(text.encode())
        raw.insert(rng.randrange(len(raw) + 1), rng.randrange(128, 256))
        return bytes(raw)
    if roll < 0.18:  # a key named twice in one object
        keys = list(re.finditer(r'\{("[^"\\]*"): ', text))
        if keys:
            found = rng.choice(keys)
            at = found.start(1)
            return text[:at] + f"{found[1]}: 0, " + text[at:]
        return text
    if roll < 0.22:  # a lone surrogate, escaped or raw, in a string or a key
        quotes = [m.start() for m in re.finditer('"', text)]
        at = rng.choice(quotes) + 1 if quotes else 0
        lone = rng.choice(["\\ud800", "\\udfff", "\\ud83d", "\ud800", "\\ude00x"])
        return text[:at] + lone + text[at:]
    if roll < 0.25:  # an unterminated string full of escaped quotes
        at = rng.randrange(len(text) + 1)
        return text[:at] + '"' + rng.choice(['\\"', "\\\\", '\\\\\\"']) * rng.randrange(1, 20_000)
    if roll < 0.27:  # a number past a float
        return re.sub(r"\b\d+\b", lambda m: rng.choice(["1e400", m[0], "-1e999"]), text, count=3)
    if roll < 0.272:  # longer than parse reads
        return text + " " * (MAX_TEXT + 1 - len(text))
    return text


def corpus(rng: random.Random) -> dict[str, list[Any]]:
    """States, matches and records to mutate, from random play."""
    states, views, match_list, record_list = [], [], [], []
    for name in PRESETS:
        rules = brisca.preset(name)
        start = brisca.new_game(rules, seed=rng.randrange(10**6))
        state, done = start, []
        for _ in range(rng.randrange(40)):
            if state.is_over:
                break
            action = rng.choice(brisca.legal_actions(state))
            done.append(action)
            state = brisca.apply(state, action)
        states.append(state)
        views.append(brisca.observe(state, rng.randrange(rules.num_players)))
        record_list.append(records.record_game(start, done, players=["a"] * rules.num_players))
        game = matches.new_match(rules, seed=rng.randrange(10**6))
        for _ in range(rng.randrange(60)):
            if game.is_over:
                break
            game = matches.match_apply(game, rng.choice(matches.match_legal_actions(game)))
        match_list.append(game)
    return {"states": states, "views": views, "matches": match_list, "records": record_list}


Call = Callable[[random.Random], object]


def entry_points(docs: dict[str, list[Any]]) -> dict[str, Call]:
    """One callable per entry point: each draws its own input and makes one call."""
    state_texts = [json.loads(brisca.dumps(s)) for s in docs["states"]]
    match_texts = [json.loads(brisca.dumps_match(m)) for m in docs["matches"]]
    record_texts = [r.to_dict() for r in docs["records"]]
    pool: list[Any] = [
        *docs["states"][:2],
        docs["matches"][0],
        docs["views"][0],
        brisca.Rules(),
        brisca.Play("1O"),
        object(),
        Generator(1),
        b"\xff",
        (1, 2),
        {1, 2},
        brisca.Card.parse("1O"),
        lambda *a: None,
    ]

    def view(rng: random.Random) -> Any:
        """An observation, sometimes with one field set to junk (a hand-edited view)."""
        obs = rng.choice(docs["views"])
        if rng.random() < 0.6:
            field = rng.choice(attrs.fields(type(obs)))
            obs = attrs.evolve(obs, **{field.alias or field.name: junk_arg(rng, pool)})
        return obs

    def rules(rng: random.Random) -> Any:
        return rng.choice([brisca.preset(rng.choice(PRESETS)), junk_arg(rng, pool)])

    def state(rng: random.Random) -> Any:
        return rng.choice(docs["states"]) if rng.random() < 0.7 else junk_arg(rng, pool)

    return {
        "loads": lambda r: brisca.loads(text_of(r, mutate(r, r.choice(state_texts)))),
        "loads_match": lambda r: brisca.loads_match(text_of(r, mutate(r, r.choice(match_texts)))),
        "records.loads": lambda r: records.loads(text_of(r, mutate(r, r.choice(record_texts)))),
        "records.validate": lambda r: records.validate(
            r.choice(
                [
                    text_of(r, mutate(r, r.choice(record_texts))),
                    mutate(r, r.choice(record_texts)),
                    junk_arg(r, pool),
                ]
            )
        ),
        "Rules.from_dict": lambda r: brisca.Rules.from_dict(
            mutate(r, brisca.preset(r.choice(PRESETS)).to_dict())
        ),
        "parse_action": lambda r: brisca.parse_action(r.choice([*WORDS, junk_arg(r, pool)])),
        "Card.parse": lambda r: brisca.Card.parse(r.choice([*WORDS, junk_arg(r, pool)])),
        "actions": lambda r: r.choice(TAKING_ARGUMENTS)(r.choice([*WORDS, junk_arg(r, pool)])),
        "new_game": lambda r: brisca.new_game(
            rules(r),
            **{
                k: junk_arg(r, pool)
                for k in r.sample(["seed", "deck", "dealer", "hand_number"], r.randrange(3))
            },
        ),
        "new_match": lambda r: matches.new_match(
            rules(r),
            **{k: junk_arg(r, pool) for k in r.sample(["seed", "decks", "dealer"], r.randrange(3))},
        ),
        "record_game": lambda r: records.record_game(
            state(r), [junk_arg(r, pool) for _ in range(r.randrange(3))]
        ),
        "engine": lambda r: r.choice(
            [
                lambda: brisca.apply(state(r), junk_arg(r, pool)),
                lambda: brisca.is_legal(state(r), junk_arg(r, pool)),
                lambda: brisca.legal_actions(junk_arg(r, pool)),
                lambda: brisca.observe(state(r), junk_arg(r, pool)),
                lambda: brisca.result(junk_arg(r, pool)),
            ]
        )(),
        "encoding": lambda r: r.choice(
            [
                lambda: brisca.observation_to_dict(view(r)),
                lambda: encoding.encode_observation(view(r)),
                lambda: encoding.encoding_size(rules(r)),
                lambda: encoding.encoding_layout(rules(r)),
                lambda: encoding.action_space(rules(r)),
                lambda: encoding.action_index(junk_arg(r, pool), rules(r)),
                lambda: encoding.action_from_index(junk_arg(r, pool), rules(r)),
                lambda: encoding.legal_mask(state(r)),
                lambda: encoding.decode_mask(junk_arg(r, pool), rules(r)),
            ]
        )(),
        "bots": lambda r: r.choice(
            [
                lambda: bots.HeuristicBot()(view(r), r.choice([(), junk_arg(r, pool)])),
                lambda: bots.RandomBot(1)(view(r), r.choice([(), junk_arg(r, pool)])),
                lambda: bots.RandomBot(junk_arg(r, pool)),
                lambda: bots.play_game(rules(r), junk_arg(r, pool), seed=1),
            ]
        )(),
        "sampling": lambda r: sampling.sample_state(
            r.choice([view(r), junk_arg(r, pool)]), r.choice([Generator(1), junk_arg(r, pool)])
        ),
        "rng": lambda r: r.choice(
            [
                lambda: Generator(junk_arg(r, pool)),
                lambda: Generator(1).below(junk_arg(r, pool)),
                lambda: Generator(1).shuffle(junk_arg(r, pool)),
            ]
        )(),
        "match": lambda r: r.choice(
            [
                lambda: matches.match_apply(r.choice(docs["matches"]), junk_arg(r, pool)),
                lambda: matches.match_observe(r.choice(docs["matches"]), junk_arg(r, pool)),
                lambda: matches.match_result(junk_arg(r, pool)),
                lambda: brisca.dumps_match(junk_arg(r, pool)),
                lambda: bots.play_game(junk_arg(r, pool), [bots.RandomBot(1)] * 2),
            ]
        )(),
    }


def _where(error: BaseException) -> str:
    """The innermost brisca source line the exception passed through."""
    tb, found = error.__traceback__, "?"
    while tb is not None:
        path = tb.tb_frame.f_code.co_filename
        if "brisca" in path and "benchmarks" not in path:
            found = f"{path.rsplit('brisca', 1)[-1].lstrip('/')}:{tb.tb_lineno}"
        tb = tb.tb_next
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--rounds", type=int, default=2000, help="inputs per entry point")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    docs = corpus(rng)
    before = [brisca.dumps(s) for s in docs["states"]]
    calls = entry_points(docs)
    tried = 0
    escaped: collections.Counter[tuple[str, str, str]] = collections.Counter()
    longest: dict[str, str] = {}
    start = time.perf_counter()
    for _ in range(args.rounds):
        for name, call in calls.items():
            tried += 1
            try:
                call(rng)
            except brisca.BriscaError as error:
                if name == "records.validate":
                    escaped[name, type(error).__name__, str(error)[:80]] += 1
                if len(str(error)) > len(longest.get(name, "")):
                    longest[name] = str(error)
            except Exception as error:  # counting what escapes is the point
                escaped[name, type(error).__name__, f"{_where(error)}: {str(error)[:60]}"] += 1
    elapsed = time.perf_counter() - start
    if [brisca.dumps(s) for s in docs["states"]] != before:
        print("A STATE CHANGED")
        escaped["(purity)", "state changed", ""] += 1
    print(f"inputs tried: {tried} in {elapsed:.1f} s ({len(calls)} entry points)")
    print(f"non-BriscaError exceptions: {sum(escaped.values())}")
    for (name, kind, message), count in escaped.most_common():
        print(f"  {count:6d}  {name}: {kind}: {message}")
    print("longest error message per entry point:")
    for name, message in sorted(longest.items(), key=lambda item: -len(item[1])):
        print(f"  {len(message):6d}  {name}: {message[:150]}")
    return 1 if escaped else 0


if __name__ == "__main__":
    sys.exit(main())
