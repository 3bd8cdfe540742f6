"""The fast paths of loading (issue 23) answer as the full readers do.

`brisca.loads` reads a saved state of the usual shape without building a GameRecord,
reads action notation through a cache, and the JSON reader skips its pre-scan when
the text has too few brackets to nest too deep. Each is checked here against the
path it shortcuts: the same states, and the same refusals, type and message alike.
"""

from __future__ import annotations

import collections
import itertools
import json
import random
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import mutated

import brisca
from brisca import records
from brisca.formats import saves
from brisca.formats.records import GameRecord, read_record_rules, replay, replay_from
from brisca.game import actions as actions_module
from brisca.game.actions import SIGNAL_NAMES, parse_action, parse_actions
from brisca.game.cards import RANKS, Card, Suit
from brisca.game.jsonio import MAX_DEPTH, depth, parse, plain_json, refuse_lone_surrogates
from brisca.game.match import MAX_DEAL_ACTIONS
from brisca.game.presets import PRESETS, read_rules

Outcome = tuple[object, ...]


def outcome(read: Callable[[], object]) -> Outcome:
    """What `read()` gives: its value, or the type and message of its BriscaError."""
    try:
        return ("value", read())
    except brisca.BriscaError as error:
        return (type(error), str(error))


# --- Action notation ----------------------------------------------------------------


def vocabulary() -> list[str]:
    """Every canonical action text: what a replay reads."""
    codes = [Card(rank, suit).code for suit in Suit for rank in RANKS]
    return [
        *codes,
        *(f"swap {c}" for c in codes),
        *(f"call {c}" for c in codes),
        *(f"bid {n}" for n in range(1, actions_module.MAX_BID + 1)),
        *(f"bid rank {r}" for r in RANKS),
        *(f"signal {name}" for name in SIGNAL_NAMES),
        *(f"trump {s.value}" for s in Suit),
        *(f"sing {s.value}" for s in Suit),
        "claim",
        "pass",
    ]


VOCABULARY = vocabulary()


def test_every_canonical_text_reads_as_without_the_cache_and_twice_alike() -> None:
    for text in VOCABULARY:
        action = parse_action(text)
        assert action == actions_module._parse(text)
        assert str(action) == text
        assert parse_action(text) == action
    assert set(actions_module._READ) <= set(VOCABULARY)


#: Texts near the vocabulary: other cases, blanks, names, leading zeros, junk.
near_texts = st.one_of(
    st.sampled_from(VOCABULARY).flatmap(
        lambda t: st.sampled_from(
            [t, t.lower(), t.upper(), f" {t}", f"{t} ", t.replace(" ", "  "), t + "x"]
        )
    ),
    st.sampled_from(["bid 075", "bid 0", "bid 221", "bid ²", "as de oros", "KC", "", " ", "3"]),
    st.text(max_size=12),
)


@given(near_texts)
def test_any_text_reads_as_without_the_cache(text: str) -> None:
    assert outcome(lambda: parse_action(text)) == outcome(lambda: actions_module._parse(text))
    assert outcome(lambda: parse_action(text)) == outcome(lambda: actions_module._parse(text))
    # Only canonical texts are kept, so the cache is bounded by the vocabulary.
    assert all(str(action) == kept for kept, action in actions_module._READ.items())


class Text(str):
    """A str subclass, which the cache leaves alone."""

    __slots__ = ()


def test_a_str_subclass_is_read_but_not_kept() -> None:
    text = Text("swap 7E")
    assert parse_action(text) == actions_module._parse("swap 7E")
    assert not any(type(k) is not str for k in actions_module._READ)


@given(st.lists(near_texts, max_size=6))
def test_reading_many_actions_is_reading_each(texts: list[str]) -> None:
    one_by_one = outcome(lambda: tuple(parse_action(t) for t in texts))
    assert outcome(lambda: parse_actions(texts)) == one_by_one
    assert outcome(lambda: parse_actions(tuple(texts))) == one_by_one
    subclassed = [Text(t) for t in texts]
    assert outcome(lambda: parse_actions(subclassed)) == outcome(
        lambda: tuple(parse_action(t) for t in subclassed)
    )


# --- The JSON reader ----------------------------------------------------------------


@given(st.text(alphabet='[]{}"\\ ,a', max_size=80))
def test_the_depth_never_passes_the_count_of_opening_brackets(text: str) -> None:
    """Why `parse` may skip the pre-scan for a text of at most MAX_DEPTH of them."""
    assert depth(text) <= text.count("[") + text.count("{")


def _reference_parse(text: str) -> Outcome:
    """`parse` as it was, with the pre-scan run on every text."""
    nested = depth(text)
    if nested > MAX_DEPTH:
        return (
            brisca.NotationError,
            f"JSON nested {nested} deep; brisca reads at most {MAX_DEPTH} levels",
        )
    return outcome(lambda: parse(text))


@pytest.mark.parametrize("levels", [1, 63, 64, 65, 66, 100])
@pytest.mark.parametrize("inside", ["", '"[[[["', '"{{"', "[]"])
def test_parse_refuses_the_same_nesting_with_and_without_the_scan(levels: int, inside: str) -> None:
    for head, tail in (("[", "]"), ('{"k":', "}")):
        text = head * levels + f"[{inside}]" + tail * levels
        assert outcome(lambda text=text: parse(text)) == _reference_parse(text)
        assert outcome(lambda text=text: parse(text[:-1])) == _reference_parse(text[:-1])


def _reference_refusal(data: object, what: str) -> None:
    """`refuse_lone_surrogates` as it was: every value through the JSON encoder."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as error:
        code = ord(error.object[error.start])
        raise brisca.NotationError(
            f"{what}: a string holds the lone surrogate U+{code:04X}, which is not Unicode text"
        ) from None
    except (TypeError, ValueError, RecursionError):
        raise brisca.NotationError(f"{what} is not JSON-ready data: {data!r}") from None


surrogate_texts = st.text(
    alphabet=st.sampled_from(["a", "é", "\ud800", "\udfff", "\ud83d", "\ude00", "😀"]), max_size=5
)


@given(
    st.one_of(
        st.none(),
        surrogate_texts,
        st.lists(surrogate_texts, max_size=4),
        st.lists(surrogate_texts, max_size=4).map(tuple),
        st.lists(st.tuples(surrogate_texts, surrogate_texts), max_size=3).map(tuple),
        st.dictionaries(surrogate_texts, surrogate_texts, max_size=3),
    )
)
def test_lone_surrogates_are_refused_as_by_the_encoder(data: object) -> None:
    assert outcome(lambda: refuse_lone_surrogates(data, "x")) == outcome(
        lambda: _reference_refusal(data, "x")
    )


# --- Rules ----------------------------------------------------------------------------


class _Named(str):
    """A preset's name that is not plain text."""


class _Posing(str):
    """A key that passes for "preset" in a dict, whatever it says."""

    def __hash__(self) -> int:
        return hash("preset")

    def __eq__(self, other: object) -> bool:
        return True


RULES_FORMS: list[object] = [
    *({"preset": name, "overrides": {}} for name in PRESETS),
    *({"preset": name} for name in PRESETS),
    {"preset": "spanish-2p", "overrides": {"match_target": 5}},
    {"preset": "spanish-2p", "overrides": {"match_target": True}},
    {"preset": "spanish-2p", "overrides": {"match_target": 5.0}},
    {"preset": "spanish-2p", "overrides": {"nonsense": 1}},
    {"preset": "spanish-9p", "overrides": {}},
    {"preset": 3, "overrides": {}},
    {"preset": "spanish-2p", "overrides": []},
    {"preset": "spanish-2p", "overrides": None},
    {"preset": "spanish-2p", "extra": 1},
    {"preset": "spanish-2p", "extra": {}},
    {"preset": "spanish-2p", "overrides": {}, "extra": {}},
    {"preset": "spanish-2p", "overrides": collections.OrderedDict()},
    {"preset": _Named("spanish-2p"), "overrides": {}},
    {_Posing("junk"): "spanish-2p", "overrides": {}},
    {"preset": "Spanish-2p", "overrides": {}},
    {"options": PRESETS["arrastre-4p"].to_dict()},
    {"options": {**PRESETS["arrastre-4p"].to_dict(), "match_target": 7}},
    {"options": {"num_players": "two"}},
    {"options": {}, "preset": "spanish-2p"},
    {},
]


@pytest.mark.parametrize("form", RULES_FORMS, ids=repr)
def test_record_rules_read_as_the_presets_read_them(form: dict[str, object]) -> None:
    expected = outcome(lambda: read_rules(form))
    for _ in range(2):  # uncached, then cached
        assert outcome(lambda: read_record_rules(form)) == expected
    if expected[0] == "value" and plain_json(form):  # else read uncached, as it reads
        rules, _ = read_record_rules(form)
        same = [p for p in PRESETS.values() if p == rules]
        assert (rules is same[0]) if same else rules not in PRESETS.values()


def test_the_rules_cache_stays_small() -> None:
    modes = ("hands_won", "game_points", "single_hand")
    for target, mode in itertools.product(range(1, 101), modes):
        overrides = {"match_target": target, "match_mode": mode}
        read_record_rules({"preset": "spanish-2p", "overrides": overrides})
    assert len(records._RULES_READ) <= 256
    long = {"preset": "spanish-2p", "overrides": {}, "pad": "x" * 10_000}
    with pytest.raises(brisca.NotationError, match="unknown field"):
        read_record_rules(long)  # refused, and nothing kept
    assert all(len(key) <= records._RULES_KEY_MAX for key in records._RULES_READ)


# --- Saved states ---------------------------------------------------------------------


def random_states(per_preset: int = 3) -> Iterator[brisca.State]:
    """Hands of every preset, played at random to the end or cut short."""
    rng = random.Random(23)
    for name in PRESETS:
        for k in range(per_preset):
            state = brisca.new_game(name, seed=rng.getrandbits(64), hand_number=rng.randrange(6))
            stop = None if k == 0 else rng.randrange(60)
            while not state.is_over and (stop is None or len(state.history) < stop):
                legal = brisca.legal_actions(state)
                state = brisca.apply(state, legal[rng.randrange(len(legal))])
            yield state


STATES = list(random_states())


def full_loads(text: str | bytes) -> object:
    """`brisca.loads` with its fast path for the usual shape switched off."""
    usual = saves._usual
    saves._usual = lambda data: None  # type: ignore[assignment]
    try:
        return brisca.loads(text)
    finally:
        saves._usual = usual


def test_states_of_every_preset_load_through_the_fast_path_as_saved() -> None:
    for state in STATES:
        text = brisca.dumps(state)
        assert saves._usual(json.loads(text)) == state  # the fast path answers
        assert brisca.loads(text) == state == full_loads(text)
        assert brisca.loads(text.encode()) == state


def _edited(state: brisca.State, **changes: object) -> str:
    data = json.loads(brisca.dumps(state))
    for key, value in changes.items():
        if value is KeyError:
            del data[key]
        else:
            data[key] = value
    return json.dumps(data)


FINISHED = STATES[0]
ACTIONS = [str(a) for a in FINISHED.history]
ILLEGAL = [*ACTIONS[:3], ACTIONS[5], *ACTIONS[4:]]

EDITS: list[dict[str, object]] = [
    *({"dealer": v} for v in (-1, 1, 2, 9, True, "1", 1.0, None)),
    *({"seed": v} for v in (-1, 0, True, 2**1100, 1.5, "7", None, KeyError)),
    *({"hand_number": v} for v in (-1, 3, 2**31, 2**40, True, "0", KeyError)),
    *({"version": v} for v in (1, 3, True, 2.0, "2", KeyError)),
    *({"format": v} for v in ("brisca-record", "x", 2)),
    *({"rules": v} for v in ({"preset": "nope"}, {"preset": "spanish-4p"}, [], "spanish-2p")),
    {"rules": {"preset": "spanish-2p", "overrides": {"match_target": "x"}}},
    *({"actions": v} for v in ([], ACTIONS[:1], ILLEGAL, [*ACTIONS, "3C"], "3C", None)),
    {"actions": [*ACTIONS[:2], "bid 075", *ACTIONS[2:]]},
    {"actions": [*ACTIONS[:2], ACTIONS[2].lower(), *ACTIONS[3:]]},
    {"actions": [*ACTIONS[:2], ACTIONS[2] + "é", *ACTIONS[3:]]},
    {"actions": [*ACTIONS[:2], 1, *ACTIONS[3:]]},
    {"actions": [*ILLEGAL[:6], "junk", *ILLEGAL[6:]]},
    {"actions": ["1O"] * (MAX_DEAL_ACTIONS + 1)},
    {"deck": ["1O"], "seed": KeyError},
    {"deck": [c.code for c in FINISHED.deal.deck]},
    {"actions": KeyError},
    {"extra": 1},
    {"players": ["a", "b"]},
]


@pytest.mark.parametrize("edit", EDITS, ids=repr)
def test_edited_states_are_read_and_refused_as_by_the_full_reader(edit: dict[str, object]) -> None:
    text = _edited(FINISHED, **edit)
    assert outcome(lambda: brisca.loads(text)) == outcome(lambda: full_loads(text))


def test_a_deck_hand_loads_as_saved() -> None:
    state = brisca.new_game("spanish-2p", deck=FINISHED.deal.deck)
    for action in FINISHED.history[:7]:
        state = brisca.apply(state, action)
    assert brisca.loads(brisca.dumps(state)) == state == full_loads(brisca.dumps(state))


@given(st.data())
def test_mutated_states_are_read_and_refused_as_by_the_full_reader(data: st.DataObject) -> None:
    state = data.draw(st.sampled_from(STATES))
    text = json.dumps(data.draw(mutated(json.loads(brisca.dumps(state)))))
    assert outcome(lambda: brisca.loads(text)) == outcome(lambda: full_loads(text))


# --- Records ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "actions",
    [ACTIONS, ILLEGAL, [*ILLEGAL[:6], "junk", *ILLEGAL[6:]], [*ACTIONS[:4], "junk", *ILLEGAL]],
    ids=["legal", "illegal", "illegal then junk", "junk then illegal"],
)
def test_replaying_from_a_state_is_the_last_state_of_the_replay(actions: list[str]) -> None:
    record = GameRecord(FINISHED.rules, FINISHED.dealer, actions, seed=FINISHED.seed)
    expected = outcome(lambda: list(replay(record))[-1])
    assert outcome(lambda: replay_from(record.initial_state(), record.actions)) == expected
    assert outcome(lambda: records.final_state(record)) == expected
    # Texts of a str subclass take the one-by-one path: the same, but for how they are shown.
    subclassed = GameRecord(record.rules, record.dealer, [Text(a) for a in actions], seed=1)
    assert outcome(lambda: replay_from(subclassed.initial_state(), subclassed.actions)) == outcome(
        lambda: list(replay(subclassed))[-1]
    )
