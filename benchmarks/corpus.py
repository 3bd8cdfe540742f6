"""A behaviour corpus of brisca, recorded through its public facade, and a comparison of two.

The corpus pins down what the library does, so that a refactor can be checked to change
nothing: it plays games with random legal actions under every preset and about forty
random option combinations (presets evolved with random values of their enumerated
options), and a few whole matches, and writes one JSON record per line (gzip'd) for:

- each rules set tried: its options, action space and encoding layout, or the error
  that refused it;
- each step of a game (random legal actions, passing half the time when a pass is
  legal): the saved state (``brisca.dumps``), the legal actions, the legal
  mask, every seat's observation (``observation_to_dict``, and ``encode_observation``),
  the chosen action, the events of ``brisca.step``, and an illegal action's refusal;
- each game's end: the result, the final state, its game record and round trips;
- each match: every step's legal actions, action and view of the seat to act, and at the
  end ``dumps_match``, ``match_result`` and ``result``.

An error anywhere is recorded as its class name and message. Everything is seeded, so two
runs of the same library give the same corpus. Only names on the ``brisca`` package are
used (``brisca.X``, ``brisca.records.X``, ``brisca.encoding.X``), never deep module paths.

Record a corpus, then compare two (exit status 1 on any difference)::

    python benchmarks/corpus.py OUT.jsonl.gz [--games N] [--seed S]
    python benchmarks/corpus.py --compare A.jsonl.gz B.jsonl.gz

``--games`` is the number of games per rules set (default 5).
"""

from __future__ import annotations

import argparse
import enum
import gzip
import hashlib
import io
import json
import random
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import attrs

import brisca

#: Random option combinations tried (each its own seed): about 40 of them are valid.
RANDOM_ATTEMPTS = 60
#: Games stop after this many steps (no single hand comes near it).
GAME_STEP_CAP = 2_000
#: Matches stop after this many steps, over or not (random play never takes subastada to 500).
MATCH_STEP_CAP = 1_500
#: A match step records the view of the seat to act every this many steps, and at each deal.
MATCH_VIEW_EVERY = 20
#: The presets played as whole matches, and the seeds of their matches.
MATCH_PRESETS = ("chilean-rematada", "subastada-4p", "chiamata-5p", "spanish-2p", "casino-2p")
MATCH_SEEDS = (1, 2)
#: Integer options drawn from these values; enumerated and boolean ones from all theirs.
INT_CHOICES: dict[str, tuple[int, ...]] = {
    "num_players": (2, 3, 4, 5, 6),
    "swap_max_per_trick": (0, 1),
    "match_target": (1, 2, 3),
}

#: How often a seat that may pass does: uniform choices would bid every auction sky-high.
PASS_CHANCE = 0.5

Record = dict[str, Any]


def error_of(error: BaseException) -> dict[str, str]:
    """An exception as data: its class name and message."""
    return {"error": type(error).__name__, "message": str(error)}


def capture(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)``, or its error as data when it raises."""
    try:
        return fn(*args)
    except Exception as error:
        return error_of(error)


def canonical(data: Any) -> str:
    """JSON text with sorted keys: the stable form of a dict."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def choose(legal: tuple[Any, ...], rng: random.Random) -> Any:
    """A random legal action, passing at `PASS_CHANCE` when a pass is among them."""
    passes = [a for a in legal if isinstance(a, brisca.Pass)]
    if passes and len(legal) > 1 and rng.random() < PASS_CHANCE:
        return passes[0]
    return rng.choice(legal)


# Rules.


def option_choices() -> dict[str, tuple[Any, ...]]:
    """Every enumerated, boolean or small-int option of `brisca.Rules`, with its values."""
    choices: dict[str, tuple[Any, ...]] = {}
    for field in attrs.fields(brisca.Rules):
        kind: Any = field.converter
        if not (isinstance(kind, type) and issubclass(kind, enum.Enum)):
            kind = type(field.default) if isinstance(field.default, enum.Enum) else None
        if kind is not None:
            choices[field.name] = tuple(member.value for member in kind)
        elif isinstance(field.default, bool):
            choices[field.name] = (False, True)
        elif field.name in INT_CHOICES:
            choices[field.name] = INT_CHOICES[field.name]
    return choices


def describe_rules(rules: brisca.Rules) -> Record:
    """The options of `rules`, and the action space and observation layout they give."""
    return {
        "options": rules.to_dict(),
        "action_space": capture(lambda: [str(a) for a in brisca.encoding.action_space(rules)]),
        "layout": capture(lambda: [list(b) for b in brisca.encoding.encoding_layout(rules)]),
    }


def rules_sets(seed: int, records: list[Record]) -> list[tuple[str, brisca.Rules]]:
    """The presets, then the valid random combinations; a record for each one tried."""
    found: list[tuple[str, brisca.Rules]] = []
    for name, rules in brisca.PRESETS.items():
        records.append({"id": f"rules {name}", "kind": "rules", **describe_rules(rules)})
        found.append((name, rules))
    choices = option_choices()
    names = sorted(choices)
    presets = sorted(brisca.PRESETS)
    for attempt in range(RANDOM_ATTEMPTS):
        rng = random.Random(f"{seed}/rules/{attempt}")
        base = rng.choice(presets)
        overrides = {k: rng.choice(choices[k]) for k in rng.sample(names, rng.randint(1, 5))}
        label = f"random-{attempt}"
        record: Record = {"id": f"rules {label}", "kind": "rules", "base": base}
        record["overrides"] = overrides
        try:
            rules = attrs.evolve(brisca.PRESETS[base], **overrides)
        except brisca.RulesError as error:
            record.update(error_of(error))
        else:
            record.update(describe_rules(rules))
            found.append((label, rules))
        records.append(record)
    return found


# Games.


def view_json(view: Any) -> str:
    """An observation (of a hand or of a match) as canonical JSON text."""
    return canonical(brisca.observation_to_dict(view))


def match_view(match: brisca.Match, seat: Any) -> str:
    """The match as `seat` sees it, as canonical JSON text."""
    return view_json(brisca.observe(match, seat))


def view_vector(view: Any) -> list[float]:
    """A hand's observation as its encoded vector."""
    return list(brisca.encode_observation(view))


def mask(state: brisca.State) -> list[int]:
    """The legal mask over the rules' action space, as 0 and 1."""
    return [int(legal) for legal in brisca.legal_mask(state)]


def event_dicts(events: tuple[Any, ...]) -> list[str]:
    """The events' JSON forms, as canonical text."""
    return [canonical(event.to_dict()) for event in events]


def views(state: brisca.State, seats: int) -> list[Any]:
    """Each seat's observation: its JSON view and its encoded vector."""
    out: list[Any] = []
    for seat in range(seats):
        try:
            view = brisca.observe(state, seat)
        except Exception as error:
            out.append(error_of(error))
            continue
        out.append(
            {
                "json": capture(view_json, view),
                "vector": capture(view_vector, view),
            }
        )
    return out


def probe(state: brisca.State, space: tuple[Any, ...], rng: random.Random) -> Record:
    """An action of the rules' space that is illegal here, and how the engine refuses it."""
    legal = set(brisca.legal_actions(state))
    illegal = [a for a in space if a not in legal]
    if not illegal:
        return {}
    action = rng.choice(illegal)
    return {
        "action": str(action),
        "is_legal": capture(lambda: brisca.is_legal(state, action)),
        "refusal": capture(lambda: brisca.refusal(state, action)),
        "apply": capture(lambda: brisca.dumps(brisca.apply(state, action))),
    }


def new_deal(rules: brisca.Rules, game: int, rng: random.Random) -> brisca.State:
    """A deal: by seed, or every fourth game by an explicit deck order."""
    dealer = rng.randrange(rules.num_players)
    hand_number = rng.randrange(4)
    if game % 4 == 3:
        deck = list(rules.cards)
        rng.shuffle(deck)
        return brisca.new_game(rules, deck=deck, dealer=dealer, hand_number=hand_number)
    seed = rng.randrange(2**32)
    return brisca.new_game(rules, seed=seed, dealer=dealer, hand_number=hand_number)


def play_game(rules: brisca.Rules, label: str, game: int, seed: int) -> Iterator[Record]:
    """The records of one game played with random legal actions."""
    key = f"game {label}/{game}"
    rng = random.Random(f"{seed}/{key}")
    try:
        state = new_deal(rules, game, rng)
    except Exception as error:
        yield {"id": f"{key} start", "kind": "start", **error_of(error)}
        return
    space = capture(lambda: tuple(brisca.encoding.action_space(rules)))
    if isinstance(space, dict):
        space = ()
    seats = rules.num_players
    step = 0
    while not state.is_over and step < GAME_STEP_CAP:
        record: Record = {"id": f"{key} step {step}", "kind": "step", "to_act": state.to_act}
        record["state"] = capture(brisca.dumps, state)
        record["views"] = views(state, seats)
        record["mask"] = capture(mask, state)
        record["probe"] = capture(probe, state, space, rng)
        try:
            legal = brisca.legal_actions(state)
        except Exception as error:
            record["legal"] = error_of(error)
            yield record
            return
        record["legal"] = [str(a) for a in legal]
        if not legal:
            yield record
            return
        action = choose(legal, rng)
        record["action"] = str(action)
        try:
            state, events = brisca.step(state, action)
        except Exception as error:
            record["events"] = error_of(error)
            yield record
            return
        record["events"] = [repr(e) for e in events]
        record["event_dicts"] = capture(event_dicts, events)
        yield record
        step += 1
    yield end_of_game(key, state, step)


def end_of_game(key: str, state: brisca.State, steps: int) -> Record:
    """The end of a game: its result, final state and record, and their round trips."""
    record: Record = {"id": f"{key} end", "kind": "end", "steps": steps, "over": state.is_over}
    record["result"] = capture(lambda: repr(brisca.result(state)))
    record["views"] = views(state, state.rules.num_players)
    text = capture(lambda: brisca.dumps(state))
    record["state"] = text
    if isinstance(text, str):
        record["state_round_trip"] = capture(lambda: brisca.dumps(brisca.loads(text)) == text)
    game_record = capture(lambda: brisca.record_game(state))
    if isinstance(game_record, dict):
        record["record"] = game_record
        return record
    written = capture(lambda: brisca.records.dumps(game_record))
    record["record"] = written
    if isinstance(written, str):
        record["record_round_trip"] = capture(lambda: brisca.records.loads(written) == game_record)
        record["validate"] = capture(lambda: repr(brisca.records.validate(written)))
    return record


# Matches.


def play_match(name: str, match_seed: int, seed: int) -> Iterator[Record]:
    """The records of one match played with random legal actions."""
    key = f"match {name}/{match_seed}"
    rng = random.Random(f"{seed}/{key}")
    try:
        match = brisca.new_match(brisca.PRESETS[name], seed=match_seed)
    except Exception as error:
        yield {"id": f"{key} start", "kind": "match_start", **error_of(error)}
        return
    step, last_hand = 0, -1
    while not match.is_over and step < MATCH_STEP_CAP:
        seat = match.to_act
        record: Record = {"id": f"{key} step {step}", "kind": "match_step", "to_act": seat}
        record["hand_number"] = match.hand_number
        if step % MATCH_VIEW_EVERY == 0 or match.hand_number != last_hand:
            # A match's view holds every hand so far: costly, so only now and then.
            record["view"] = capture(match_view, match, seat)
        last_hand = match.hand_number
        try:
            legal = brisca.legal_actions(match)
            record["legal"] = [str(a) for a in legal]
            action = choose(legal, rng)
            record["action"] = str(action)
            match = brisca.apply(match, action)
        except Exception as error:
            record["error"] = error_of(error)
            yield record
            return
        yield record
        step += 1
    record = {"id": f"{key} end", "kind": "match_end", "steps": step, "over": match.is_over}
    text = capture(lambda: brisca.dumps_match(match))
    record["match"] = text
    if isinstance(text, str):
        record["round_trip"] = capture(lambda: brisca.dumps_match(brisca.loads_match(text)) == text)
    record["match_result"] = capture(lambda: repr(brisca.match_result(match)))
    record["result"] = capture(lambda: repr(brisca.result(match)))
    yield record


# The corpus.


def corpus(games: int, seed: int) -> Iterator[Record]:
    """Every record of the corpus, in order."""
    tried: list[Record] = []
    found = rules_sets(seed, tried)
    yield from tried
    for label, rules in found:
        for game in range(games):
            yield from play_game(rules, label, game, seed)
    for name in MATCH_PRESETS:
        for match_seed in MATCH_SEEDS:
            yield from play_match(name, match_seed, seed)


def record(path: str, games: int, seed: int) -> None:
    """Write the corpus to `path`, and say how big it is and how long it took."""
    start = time.perf_counter()
    counts = {"records": 0, "games": 0, "steps": 0, "matches": 0, "match_steps": 0}
    kinds = {"end": "games", "step": "steps", "match_end": "matches", "match_step": "match_steps"}
    # No name and no time in the gzip header: the same corpus gives the same bytes.
    with (
        open(path, "wb") as raw,
        gzip.GzipFile(filename="", mode="wb", compresslevel=6, fileobj=raw, mtime=0) as packed,
        io.TextIOWrapper(packed, encoding="utf-8") as out,
    ):
        for item in corpus(games, seed):
            out.write(line_of(item) + "\n")
            counts["records"] += 1
            if item["kind"] in kinds:
                counts[kinds[item["kind"]]] += 1
    elapsed = time.perf_counter() - start
    summary = ", ".join(f"{n} {what}" for what, n in counts.items())
    print(f"wrote {path}: {summary} in {elapsed:.1f}s")


def line_of(item: Record) -> str:
    """A record as one line of JSON: its id first, then the other fields by sorted key."""
    rest = {k: v for k, v in item.items() if k != "id"}
    body = json.dumps(rest, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return '{"id":' + json.dumps(item["id"], ensure_ascii=False) + "," + body[1:]


_DECODER = json.JSONDecoder()


def lines(path: str) -> Iterator[tuple[str, str]]:
    """A corpus's lines with their record ids, read without parsing the rest of each line."""
    with gzip.open(path, "rt", encoding="utf-8") as text:
        for line in text:
            record_id, _ = _DECODER.raw_decode(line, len('{"id":'))
            yield record_id, line


def digests(path: str) -> dict[str, bytes]:
    """A digest of each record by id: equal records are equal lines."""
    return {i: hashlib.blake2b(line.encode()).digest() for i, line in lines(path)}


def shown(value: Any, limit: int = 300) -> str:
    """A field's value as text, cut to `limit` characters."""
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


def compare(path_a: str, path_b: str, show: int = 5) -> int:
    """Compare two corpora; print the count of records and of differences, and the first few.

    Returns the exit status: 0 when they agree, 1 on any difference.
    """
    a, b = digests(path_a), digests(path_b)
    ids = list(a) + [i for i in b if i not in a]
    differing = [i for i in ids if a.get(i) != b.get(i)]
    print(f"compared {len(ids)} records: {len(differing)} differences")
    first = set(differing[:show])
    left = {i: json.loads(line) for i, line in lines(path_a) if i in first}
    right = {i: json.loads(line) for i, line in lines(path_b) if i in first}
    for record_id in differing[:show]:
        if record_id not in left or record_id not in right:
            where = path_b if record_id in left else path_a
            print(f"- {record_id}: missing from {where}")
            continue
        print(f"- {record_id}:")
        one, other = left[record_id], right[record_id]
        for field in sorted(set(one) | set(other)):
            if one.get(field) != other.get(field):
                print(f"    {field}:\n      A: {shown(one.get(field))}")
                print(f"      B: {shown(other.get(field))}")
    return 1 if differing else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", help="the corpus to write, a .jsonl.gz file")
    parser.add_argument("--games", type=int, default=5, help="games per rules set (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="the corpus seed (default 0)")
    parser.add_argument(
        "--compare", nargs=2, metavar=("A", "B"), help="compare two corpora instead"
    )
    args = parser.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    if args.out is None:
        parser.error("give OUT.jsonl.gz to record, or --compare A B")
    record(args.out, args.games, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
