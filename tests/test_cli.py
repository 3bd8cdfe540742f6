"""The `brisca` command, run for real as ``python -m brisca`` in a subprocess."""

from __future__ import annotations

import enum
import json
import os
import random
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from helpers import observed_cards

import brisca
from brisca.formats.text import (
    Style,
    clean,
    describe_deal,
    describe_result,
    narrate,
    option_docs,
    unused_options,
)
from brisca.game.events import Announced, CardsDrawn, Event
from brisca.runs.stats import wilson_interval


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``python -m brisca ARGS`` with `stdin` as its input."""
    return subprocess.run(
        [sys.executable, "-m", "brisca", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )


def test_rules_lists_every_preset() -> None:
    """`brisca rules` names every preset and what it changes."""
    done = run("rules")
    assert done.returncode == 0, done.stderr
    for name in brisca.PRESETS:
        assert f"\n{name} " in done.stdout
    assert "play_obligation='arrastre_after_stock'" in done.stdout


def test_rules_shows_every_option_of_a_preset_with_value_and_source() -> None:
    """`brisca rules PRESET` shows each option that matters, its value, a mark if changed,
    and its source; it names the others at the end."""
    done = run("rules", "arrastre-2p")
    assert done.returncode == 0, done.stderr
    shown, _, hidden = done.stdout.partition("Not shown, as they make no difference here:")
    for field in brisca.Rules.__attrs_attrs__:
        assert f"  {field.name} = " in shown or re.search(rf"\b{field.name}\b", hidden)
    assert "  play_obligation = 'arrastre_after_stock'  *" in done.stdout
    assert "  arrastre_must_beat = True" in shown
    assert "Whether and when followers must follow, beat and trump (S004; NC)." in done.stdout


def test_rules_leaves_out_options_that_make_no_difference() -> None:
    """All five seats play chiamata-5p: sit_out is not shown as if it applied."""
    done = run("rules", "chiamata-5p")
    assert done.returncode == 0, done.stderr
    shown, _, hidden = done.stdout.partition("Not shown, as they make no difference here:")
    assert "sit_out" not in shown
    assert "sit_out (every seat plays)" in hidden
    assert "  chiamata_two_rule = " in shown and "  swap_timing = " not in shown
    five = run("rules", "spanish-5p")  # the dealer sits out: there it matters
    assert "  sit_out = 'dealer_sits_out'" in five.stdout


def _first_moves(rules: brisca.Rules, seed: int) -> list[str]:
    """The legal actions at every step of a seeded hand, then of a match (at most 300
    steps), each with the result: a fingerprint of how the rules play."""
    state = brisca.new_game(rules, seed=seed)
    seen = []
    while not state.is_over:
        legal = brisca.legal_actions(state)
        seen.append(" ".join(map(str, legal)))
        state = brisca.apply(state, legal[len(seen) % len(legal)])
    outcome = brisca.result(state)
    seen.append(str((outcome.points, outcome.winner, getattr(outcome.details, "seat_scores", ()))))
    match = brisca.new_match(rules, seed=seed)
    for step in range(300):
        if match.is_over:
            seen.append(repr(brisca.result(match)))
            break
        legal = brisca.legal_actions(match)
        seen.append(" ".join(map(str, legal)))
        match = brisca.apply(match, legal[step % len(legal)])
    return seen


def _other_values(value: object) -> list[object]:
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, enum.Enum):
        return [member for member in type(value) if member is not value]
    if isinstance(value, int):
        return [value + 5, max(1, value - 5)]
    return []


@pytest.mark.parametrize("name", sorted(brisca.PRESETS))
def test_options_left_out_of_the_rules_display_change_nothing(name: str) -> None:
    """Whatever value an option `brisca rules` leaves out takes, the hand plays the same."""
    rules = brisca.preset(name)
    unused = unused_options(rules)
    assert unused  # every preset has options that do not apply to it
    baseline = _first_moves(rules, 5)
    tried = 0
    for option in unused:
        for value in _other_values(getattr(rules, option)):
            try:
                changed = attrs.evolve(rules, **{option: value})
            except brisca.RulesError:
                continue  # a combination Rules refuses
            tried += 1
            assert _first_moves(changed, 5) == baseline, (option, value)
    assert tried


@pytest.mark.parametrize(
    ("name", "close"),
    [("brisca-99p", ""), ("spanish2p", "spanish-2p"), ("cubierta", "cubierta-2p"), ("x" * 500, "")],
)
def test_rules_refuses_an_unknown_preset_in_one_clean_line(name: str, close: str) -> None:
    """Issue 22: an unknown preset exits 2 with one line: the name, the close matches and
    the hint `brisca rules`; no escaped newline, no Python type tag, no Python name."""
    for args in (["rules", name], ["play", "--preset", name], ["show", "--preset", name]):
        done = run(*args)
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("brisca: unknown preset '")
        assert "\\n" not in done.stderr and "(str)" not in done.stderr
        assert "PRESETS" not in done.stderr
        assert done.stderr.endswith("(`brisca rules` lists them)\n")
        assert (f"did you mean {close}" in done.stderr) == bool(close)
        assert len(done.stderr) < 160


def test_option_docs_come_from_the_rules_field_comments() -> None:
    """Every option of Rules has documentation, most with sources."""
    docs = option_docs()
    assert set(docs) == {field.name for field in brisca.Rules.__attrs_attrs__}
    assert docs["num_players"] == "Seats at the table, 2 to 6 (S000, S002)."
    assert sum(bool(text) for text in docs.values()) >= len(docs) - 2


def test_show_keeps_the_command_without_a_subcommand() -> None:
    """`brisca --preset P --seed S` still plays out a hand and shows it trick by trick."""
    done = run("--preset", "spanish-4p", "--seed", "7")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("spanish-4p, seed 7\n")
    assert "trick 10:" in done.stdout
    assert "result:" in done.stdout
    assert run("show", "--preset", "spanish-4p", "--seed", "7").stdout == done.stdout


def test_play_a_whole_hand_through_standard_input() -> None:
    """Menu numbers on stdin play a 4-player hand from seat 2 to its result."""
    done = run("play", "--preset", "spanish-4p", "--seat", "2", "--seed", "5", stdin="1\n" * 40)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "you are seat 2, with seat 0, against heuristic bots" in out
    assert "trump: " in out and "your hand: " in out and "points: " in out
    assert out.count("you played ") == 10
    assert "trick 10:" in out
    assert "\nresult: " in out


@pytest.mark.parametrize(
    ("preset", "seat", "expected"),
    [
        ("spanish-6p", 3, "you are seat 3, with seats 1+5"),
        ("spanish-5p", 4, "You sit out this hand: watch it."),
        ("chiamata-5p", 0, "you: bid rank 1"),
    ],
)
def test_play_any_preset_at_any_seat(preset: str, seat: int, expected: str) -> None:
    """Six players, a seat sitting out, an auction: each hand plays to its result."""
    done = run("play", "--preset", preset, "--seat", str(seat), "--seed", "5", stdin="1\n" * 60)
    assert done.returncode == 0, done.stderr
    assert expected in done.stdout
    assert "\nresult: " in done.stdout


@pytest.mark.parametrize(("level", "bot"), [("easy", "random"), ("hard", "search")])
def test_play_at_a_level_plays_against_its_bots(level: str, bot: str) -> None:
    """`--level` picks the bots (easy random, normal heuristic, hard search) and the hand
    plays to its result; `--level` and `--opponents` together are a usage error."""
    done = run("play", "--level", level, "--seed", "3", stdin="1\n" * 30)
    assert done.returncode == 0, done.stderr
    assert f"against {bot} bots" in done.stdout
    assert "\nresult: " in done.stdout
    done = run("play", "--level", "hard", "--opponents", "random", stdin="1\n" * 30)
    assert done.returncode == 2
    assert "give --level or --opponents, not both" in done.stderr


def test_play_refuses_illegal_input_with_the_reason_and_asks_again() -> None:
    """Bad notation, a card not held and a bad menu number are refused; play goes on."""
    state = brisca.new_game(brisca.preset("arrastre-2p"), seed=11)
    missing = next(c for c in state.rules.cards if c not in state.hands[0])
    held = state.hands[0][1]
    moves = f"12X\n{missing}\n99\n{held}\n" + "1\n" * 30
    done = run(
        "play", "--preset", "arrastre-2p", "--seed", "11", "--opponents", "random", stdin=moves
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "not understood: cannot read '12X' as an action" in out
    assert f"not allowed: {missing} is not in the hand of seat 0, the seat to act" in out
    assert "not understood: choose a number from 1 to 3" in out
    assert f"you played {held} (" in out
    assert out.count("your move") > 20


def test_play_ends_gracefully_when_input_runs_out_or_the_player_quits() -> None:
    """End of input mid-hand, or `quit`, exits 1 with a message, not a traceback."""
    done = run("play", "--preset", "casino-4p", "--seed", "2", stdin="1\n")
    assert done.returncode == 1
    assert "input ended before the hand did" in done.stderr
    assert "Traceback" not in done.stderr
    done = run("play", "--seed", "2", stdin="quit\n")
    assert done.returncode == 1
    assert "game abandoned" in done.stderr


def test_play_refuses_a_seat_that_is_not_at_the_table() -> None:
    """--seat outside the table is a usage error."""
    done = run("play", "--seat", "3")
    assert done.returncode == 2
    assert "--seat must be from 0 to 1" in done.stderr


def summary_rows(out: str) -> list[str]:
    """The summary table of `brisca simulate`, without its timing line."""
    return [line for line in out.splitlines() if "games/s" not in line]


def test_simulate_prints_a_summary_the_same_with_any_number_of_jobs() -> None:
    """Win rates with Wilson intervals, mean points and ties; --jobs gives the same games."""
    args = ("simulate", "--preset", "spanish-2p", "-n", "200", "--seed", "3")
    one = run(*args, "--bots", "heuristic,random")
    two = run(*args, "--bots", "heuristic,random", "--jobs", "2")
    assert one.returncode == 0, one.stderr
    assert two.returncode == 0, two.stderr
    assert summary_rows(one.stdout) == summary_rows(two.stdout)
    assert "200/200" in one.stderr  # the progress bar
    rows = {line.split()[0]: line.split() for line in one.stdout.splitlines()[3:5]}
    wins = int(rows["0"][3])
    assert rows["0"][1] == "heuristic" and rows["1"][1] == "random"
    low, high = wilson_interval(wins, 200)
    assert f"[{low:.1%}, {high:.1%}]" in one.stdout
    assert wins > int(rows["1"][3])
    assert "games/s" in one.stdout


def test_simulate_seats_bots_round_the_table() -> None:
    """Bots repeat round the table: partners share a bot in the summary."""
    done = run("simulate", "--preset", "spanish-4p", "-n", "20", "--seed", "1", "--bots", "random")
    assert done.returncode == 0, done.stderr
    assert "0+2        random+random" in done.stdout


def test_simulate_refuses_an_unknown_bot() -> None:
    """An unknown bot name is a usage error naming the bots there are."""
    done = run("simulate", "-n", "5", "--bots", "heuristic,genius")
    assert done.returncode == 2
    assert "unknown bot 'genius': the bots are random, heuristic" in done.stderr


def test_simulate_takes_a_bot_by_module_and_class() -> None:
    """A user's own bot plays by ``module:Class``; one that cannot be imported is refused."""
    done = run(
        "simulate", "-n", "5", "--seed", "1", "--bots", "brisca.agents.bots:HeuristicBot,random"
    )
    assert done.returncode == 0, done.stderr
    assert "brisca.agents.bots:HeuristicBot" in done.stdout
    done = run("simulate", "-n", "5", "--bots", "no_such_module:Bot")
    assert done.returncode == 2
    assert "cannot import the bot 'no_such_module:Bot'" in done.stderr


def test_wilson_interval() -> None:
    """The Wilson score interval at 95%: known values, and never outside [0, 1]."""
    low, high = wilson_interval(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775
    assert wilson_interval(0, 0) == (0.0, 1.0)


# Game records: `replay` and `validate` read what `simulate --out` writes.


@pytest.fixture(scope="module")
def records_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three casino-2p games written by `brisca simulate --out`."""
    pytest.importorskip(
        "brisca.formats.records", reason="brisca.formats.records (game records) is not there yet"
    )
    out = tmp_path_factory.mktemp("records") / "games.jsonl"
    done = run("simulate", "-n", "3", "--seed", "4", "--preset", "casino-2p", "--out", str(out))
    assert done.returncode == 0, done.stderr
    return out


def test_simulate_writes_one_record_per_line(records_file: Path) -> None:
    """--out writes a valid record per game, one JSON document a line."""
    from brisca import records

    lines = records_file.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    for line in lines:
        assert records.validate(records.loads(line)) is None


def test_validate_accepts_valid_records(records_file: Path) -> None:
    """A file of valid records exits 0."""
    done = run("validate", str(records_file))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "valid (3 records)" in done.stdout


def _tamper(record: Any) -> bool:
    """Make the second action of a record repeat the first: a card played twice."""
    if isinstance(record, dict):
        actions = record.get("actions")
        if isinstance(actions, list) and len(actions) > 1:
            actions[1] = actions[0]
            return True
        return any(_tamper(value) for value in record.values())
    return False


def test_validate_reports_the_index_and_reason_of_an_illegal_action(
    records_file: Path, tmp_path: Path
) -> None:
    """A tampered record exits 1, naming the action and the rule that refuses it."""
    from brisca import records

    data = json.loads(records_file.read_text(encoding="utf-8").splitlines()[0])
    assert _tamper(data)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    problem = records.validate(bad.read_text(encoding="utf-8"))
    assert problem is not None
    with pytest.raises(brisca.StateError, match="no game plays this record"):
        records.loads(bad.read_text(encoding="utf-8"))
    done = run("validate", str(bad))
    assert done.returncode == 1
    # Issue 22: people read actions counted from 1; the library's index counts from 0.
    assert f"action {problem.index + 1} ({problem.action}): {problem.reason}" in done.stdout


def test_replay_shows_a_record_trick_by_trick(records_file: Path) -> None:
    """`brisca replay FILE --game K` shows the deal, every trick and the result."""
    done = run("replay", str(records_file), "--game", "2")
    assert done.returncode == 0, done.stderr
    assert "casino-2p" in done.stdout
    assert "seat 0 holds: " in done.stdout
    assert "trick  1:" in done.stdout
    assert "result: " in done.stdout


def test_replay_and_validate_refuse_a_missing_file(tmp_path: Path) -> None:
    """A file that cannot be read is a usage error."""
    pytest.importorskip(
        "brisca.formats.records", reason="brisca.formats.records (game records) is not there yet"
    )
    for command in ("replay", "validate"):
        done = run(command, str(tmp_path / "nothing.json"))
        assert done.returncode == 2
        assert "cannot read" in done.stderr


# What a new user meets: bad files, bad paths, odd input, other documents.


@pytest.mark.parametrize("command", ["validate", "replay"])
@pytest.mark.parametrize(
    "content",
    [bytes(range(256)) * 3, b"\xff\xfe{\x00}\x00", b'{"format": "brisca-record"\xc3('],
    ids=["binary", "utf-16", "bad-utf-8"],
)
def test_a_file_that_is_not_utf8_text_is_refused_without_a_traceback(
    command: str, content: bytes, tmp_path: Path
) -> None:
    """Binary or UTF-16 files: a clear message and exit 1, as for any invalid record."""
    path = tmp_path / "odd.json"
    path.write_bytes(content)
    done = run(command, str(path))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    message = done.stdout + done.stderr
    assert "not a record: the file is" in message and "records are UTF-8 JSON" in message


def test_simulate_refuses_an_out_file_it_cannot_write(tmp_path: Path) -> None:
    """A missing directory or a directory as --out: a usage error before any game."""
    for target, reason in [
        (tmp_path / "missing" / "games.jsonl", "No such file or directory"),
        (tmp_path, "Is a directory"),
    ]:
        done = run("simulate", "-n", "2", "--seed", "1", "--out", str(target))
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr
        assert f"cannot write {target}: {reason}" in done.stderr


def test_play_treats_non_ascii_digits_as_input_it_does_not_understand() -> None:
    """'²', '²O', 'bid ²' and a full-width one are refused and asked again, not a crash."""
    moves = "²\n²O\nbid ²\n\uff11\n" + "1\n" * 30
    done = run("play", "--seed", "3", stdin=moves)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    for text in ("²", "²O", "bid ²", "\uff11"):
        assert f"{text}\nnot understood: " in done.stdout
    assert "\nresult: " in done.stdout


def test_clean_escapes_control_characters() -> None:
    """Escape sequences, bidi overrides and newlines come out as their escapes."""
    assert clean("3C") == "3C"
    assert clean("a\x1b[2Jb") == "a\\x1b[2Jb"
    assert clean("x\u202ey\nz\x07") == "x\\u202ey\\nz\\x07"
    assert clean("as de oros ²") == "as de oros ²"


def _one_record(records_file: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(records_file.read_text(encoding="utf-8").splitlines()[0])
    return data


def test_validate_escapes_text_from_the_file(records_file: Path, tmp_path: Path) -> None:
    """An action holding terminal escape sequences is shown escaped, never raw."""
    data = _one_record(records_file)
    data["actions"][3] = "\x1b]0;owned\x07\x1b[2J3O"
    bad = tmp_path / "escape\x1b[1m.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    for command in ("validate", "replay"):
        done = run(command, str(bad))
        assert done.returncode == 1
        output = done.stdout + done.stderr
        assert "\x1b" not in output and "\x07" not in output
        assert "\\x1b]0;owned\\x07\\x1b[2J3O" in output
        assert "escape\\x1b[1m.json" in output


def test_replay_refuses_a_record_whose_result_is_not_the_games(
    records_file: Path, tmp_path: Path
) -> None:
    """A wrong winner, wrong points or a truncated hand: replay says so and exits 1."""
    data = _one_record(records_file)
    wrong_winner = json.loads(json.dumps(data))
    wrong_winner["result"]["winner"] = 1 - data["result"]["winner"]
    wrong_points = json.loads(json.dumps(data))
    wrong_points["result"]["points"] = list(reversed(data["result"]["points"]))
    truncated = json.loads(json.dumps(data))
    truncated["actions"] = data["actions"][:-3]
    for case, expected in [
        (wrong_winner, "is not the game's"),
        (wrong_points, "is not the game's"),
        (truncated, "the hand is not over after"),
    ]:
        path = tmp_path / "case.json"
        path.write_text(json.dumps(case), encoding="utf-8")
        done = run("replay", str(path))
        assert done.returncode == 1, case
        assert expected in done.stderr
        assert run("validate", str(path)).returncode == 1


def test_replay_tells_the_hand_up_to_an_illegal_action(tmp_path: Path) -> None:
    """A record with an illegal action replays the tricks before it, then names it, exit 1."""
    from brisca import records

    state = brisca.new_game(brisca.preset("spanish-2p"), seed=3)
    for _ in range(6):
        state = brisca.apply(state, brisca.legal_actions(state)[0])
    data = records.record_game(state).to_dict()
    data["actions"][4] = "claim"  # no black hands in spanish-2p
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = run("replay", str(path))
    assert done.returncode == 1
    assert "trick  2:" in done.stdout and "trick  3:" not in done.stdout
    assert "action 5 ('claim'): black hands are off" in done.stderr  # the 5th, from 1


def test_replay_says_when_an_unfinished_record_stops(records_file: Path, tmp_path: Path) -> None:
    """A record of a hand in progress (no result) replays and says where it stops."""
    data = _one_record(records_file)
    data["actions"] = data["actions"][:5]
    data["result"] = None
    path = tmp_path / "unfinished.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = run("replay", str(path))
    assert done.returncode == 0, done.stderr
    assert "unfinished: the record stops after 5 actions, mid-hand" in done.stdout


def test_validate_recognises_a_saved_state_and_a_saved_match(tmp_path: Path) -> None:
    """`brisca.dumps` files are named for what they are, with what reads them, and checked."""
    state = brisca.new_game(brisca.preset("spanish-2p"), seed=1)
    state = brisca.apply(state, brisca.legal_actions(state)[0])
    match = brisca.new_match(brisca.preset("spanish-2p"), seed=1)
    (tmp_path / "state.json").write_text(brisca.dumps(state), encoding="utf-8")
    (tmp_path / "match.json").write_text(brisca.dumps(match), encoding="utf-8")
    done = run("validate", str(tmp_path / "state.json"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "a saved game state (written by brisca.dumps(state))" in done.stdout
    assert "not a game record; brisca.loads reads it" in done.stdout
    assert "valid: brisca.loads reads it" in done.stdout
    done = run("validate", str(tmp_path / "match.json"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "a saved match (written by brisca.dumps(match))" in done.stdout
    assert "brisca.loads_match" in done.stdout
    replayed = run("replay", str(tmp_path / "state.json"))
    assert replayed.returncode == 1
    assert "a saved game state" in replayed.stderr and "not a game record" in replayed.stderr
    data = json.loads(brisca.dumps(state))
    data["actions"][0] = "claim"  # no black hands in these rules: no game gets here
    (tmp_path / "forged.json").write_text(json.dumps(data), encoding="utf-8")
    forged = run("validate", str(tmp_path / "forged.json"))
    assert forged.returncode == 1
    assert "invalid: " in forged.stdout


def test_play_out_saves_the_hand_as_a_game_record(tmp_path: Path) -> None:
    """`brisca play --out FILE` writes a record that validates and replays to the same result."""
    from brisca import records

    path = tmp_path / "hand.json"
    done = run(
        "play", "--preset", "arrastre-2p", "--seed", "8", "--out", str(path), stdin="1\n" * 30
    )
    assert done.returncode == 0, done.stderr
    assert f"saved the hand to {path}" in done.stdout
    record = records.loads(path.read_text(encoding="utf-8"))
    assert records.validate(record) is None
    assert record.seed == 8 and record.result is not None
    assert record.players == ("you", "heuristic")
    final = list(records.replay(record))[-1]
    assert final.is_over
    assert f"points: you {record.result.points[0]}, seat 1 {record.result.points[1]}" in done.stdout
    quit_early = run("play", "--seed", "8", "--out", str(path), stdin="1\nquit\n")
    assert quit_early.returncode == 1
    assert "saved the hand so far" in quit_early.stderr
    partial = records.loads(path.read_text(encoding="utf-8"))
    assert partial.result is None and len(partial.actions) == 2
    bad = run("play", "--out", str(tmp_path / "no" / "such.json"), stdin="quit\n")
    assert bad.returncode == 2 and "cannot write" in bad.stderr


def test_help_at_the_prompt_explains_the_choices() -> None:
    """`help` says what each kind of answer does, then shows the table again."""
    done = run("play", "--preset", "casino-2p", "--seed", "2", stdin="help\n" + "1\n" * 30)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Answer with:" in out
    assert "a menu number, such as 1;" in out
    assert "rank then suit (O oros, C copas, E espadas, B bastos)" in out
    assert "'quit' leaves the game" in out
    assert out.count("your hand: ") == 1 + out.count("you played ")  # the table, shown again


def test_the_subastada_bid_menu_is_short_and_any_bid_can_be_typed() -> None:
    """A few bids and pass are numbered; any other bid is typed, as `bid 95`."""
    done = run("play", "--preset", "subastada-4p", "--seed", "3", stdin="bid 95\n" + "1\n" * 40)
    assert done.returncode == 0, done.stderr
    first = done.stdout.split("your move")[0]
    entries = re.findall(r"^\s+\d+\) ", first, re.MULTILINE)
    assert 3 <= len(entries) <= 8
    assert re.search(r"^\s+\d+\) pass$", first, re.MULTILINE)
    assert "1) bid 60" in first
    assert "or type any bid from 60 to " in first and "in steps of 5" in first
    assert "you: bid 95" in done.stdout


def test_an_unknown_command_lists_the_commands() -> None:
    """A misspelt subcommand exits 2, naming every command and the likely one."""
    done = run("plya")
    assert done.returncode == 2
    assert "unknown command 'plya'" in done.stderr
    assert "play, simulate, replay, validate, rules, show" in done.stderr
    assert "did you mean 'play'?" in done.stderr


def test_commands_other_than_the_progress_bar_need_no_extra(
    records_file: Path, tmp_path: Path
) -> None:
    """Without tqdm, rules, show, validate and replay work; simulate runs without its bar."""
    script = (
        "import sys; sys.modules['tqdm'] = None\n"
        "from brisca.cli import main; sys.exit(main(sys.argv[1:]))"
    )

    def bare(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", script, *args],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    for args in (
        ["rules"],
        ["rules", "spanish-4p"],
        ["show", "--seed", "3"],
        ["validate", str(records_file)],
        ["replay", str(records_file)],
    ):
        done = bare(*args)
        assert done.returncode == 0, (args, done.stderr)
        assert "brisca[cli]" not in done.stderr
    done = bare("simulate", "-n", "5", "--seed", "1", "--out", str(tmp_path / "g.jsonl"))
    assert done.returncode == 0, done.stderr
    assert "no progress bar without the cli extra (pip install 'brisca[cli]')" in done.stderr
    assert "5 games" in done.stdout


class _Stream:
    def __init__(self, tty: bool, encoding: str = "utf-8") -> None:
        self.tty, self.encoding = tty, encoding

    def isatty(self) -> bool:
        return self.tty


def test_cards_are_coloured_with_suit_symbols_only_on_a_terminal() -> None:
    """Colour and symbols on a terminal; plain for pipes, NO_COLOR, TERM=dumb."""
    card = brisca.Card.parse("3C")
    fancy = Style.for_stream(_Stream(True), {"TERM": "xterm"})  # type: ignore[arg-type]
    assert fancy.card(card) == "\x1b[31m3C\u2665\x1b[0m"
    for stream, env in [
        (_Stream(False), {"TERM": "xterm"}),
        (_Stream(True), {"TERM": "xterm", "NO_COLOR": "1"}),
        (_Stream(True), {"TERM": "dumb"}),
    ]:
        assert Style.for_stream(stream, env).card(card) == "3C"  # type: ignore[arg-type]
    ascii_only = Style.for_stream(_Stream(True, "ascii"), {"TERM": "xterm"})  # type: ignore[arg-type]
    assert ascii_only.card(card) == "\x1b[31m3C\x1b[0m"


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_show_on_a_terminal_colours_the_suits_unless_no_color_is_set() -> None:
    """On a real (pseudo-)terminal, cards come in colour; NO_COLOR and pipes turn it off."""
    import pty

    outputs = []
    for extra in ({}, {"NO_COLOR": "1"}):
        env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
        env.update(TERM="xterm", PYTHONIOENCODING="utf-8", **extra)
        leader, follower = pty.openpty()
        try:
            subprocess.run(
                [sys.executable, "-m", "brisca", "show", "--seed", "7"],
                stdout=follower,
                stderr=subprocess.PIPE,
                env=env,
                timeout=60,
                check=True,
            )
            os.close(follower)
            chunks = []
            while True:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:  # the terminal closed
                    break
                if not chunk:
                    break
                chunks.append(chunk)
        finally:
            os.close(leader)
        outputs.append(b"".join(chunks).decode("utf-8"))
    coloured, plain = outputs
    assert "\x1b[31m" in coloured and "\u2665" in coloured
    assert "\x1b" not in plain and "\u2665" not in plain
    piped = run("show", "--seed", "7").stdout
    assert "\x1b" not in piped


# Narration: `brisca play` tells the human seat what its seat saw, in good grammar.

#: A card code in text, such as 3C or 12O (not the 2O inside 12O).
_CODE = re.compile(r"(?<![0-9A-Za-z])(?:1[0-2]|[1-9])[OCEB](?![0-9A-Za-z])")


def _cards_named(text: str, rules: brisca.Rules) -> set[brisca.Card]:
    """Every card `text` names, by its code or by its Spanish name."""
    named = {brisca.Card.parse(code) for code in _CODE.findall(text)}
    return named | {card for card in rules.cards if card.spanish_name in text}


#: The actions the games below take whenever they may, so that swaps, signals,
#: claims and cantes happen.
_EAGER = (brisca.Swap, brisca.Signal, brisca.ClaimBlackHand, brisca.Sing)


def _steps(
    rules: brisca.Rules, seed: int
) -> Iterator[tuple[brisca.State, tuple[Event, ...], brisca.State]]:
    """A seeded random hand, step by step: (before, events, after)."""
    chooser = random.Random(seed)
    state = brisca.new_game(rules, seed=seed)
    while not state.is_over:
        legal = brisca.legal_actions(state)
        eager = [a for a in legal if isinstance(a, _EAGER)]
        action = chooser.choice(eager if eager and chooser.random() < 0.8 else legal)
        after, events = brisca.step(state, action)
        yield state, events, after
        state = after


#: Each preset, and an event its hands must include for the test to say anything.
_LEAK_PRESETS = {
    "spanish-2p": "CardsDrawn",
    "puerto-rican-2p": "Swapped",
    "cubierta-2p": "TrumpRevealed",
    "spanish-4p": "Signalled",
    "subastada-4p": "AuctionWon",
    "chiamata-5p": "PartnerRevealed",
}


@pytest.mark.parametrize("name", sorted(_LEAK_PRESETS))
def test_play_narration_shows_the_human_seat_no_card_it_may_not_see(name: str) -> None:
    """Issue 12 s.3 and the information rule: the narration `brisca play` prints for
    seat `you` names only cards that seat's observation holds (now or before); a hidden
    card another seat drew is never printed."""
    rules = brisca.preset(name)
    happened: Counter[str] = Counter()
    hidden_draws = 0
    for seed in range(4):
        you = seed % rules.num_players
        first = brisca.new_game(rules, seed=seed)
        allowed = observed_cards(brisca.observe(first, you))
        assert _cards_named("\n".join(describe_deal(first, you)), rules) <= allowed
        final = first
        for _, events, after in _steps(rules, seed):
            happened.update(type(event).__name__ for event in events)
            allowed |= observed_cards(brisca.observe(after, you))
            hidden_draws += sum(
                isinstance(e, CardsDrawn) and e.card is not None and e.card not in allowed
                for e in events
            )
            text = "\n".join(narrate(after, events, you, plays=True))
            leaked = _cards_named(text, rules) - allowed
            assert not leaked, (seed, you, sorted(map(str, leaked)), text)
            final = after
        assert _cards_named("\n".join(describe_result(final, you)), rules) <= allowed
    assert happened[_LEAK_PRESETS[name]] > 0, happened
    if not rules.deal_all:  # there were hidden cards to leak
        assert hidden_draws > 0


@pytest.mark.parametrize("name", sorted(_LEAK_PRESETS))
def test_narration_speaks_to_you_in_the_second_person(name: str) -> None:
    """Whatever happens, "you" takes "name", "call", "sing", "show", "win": never
    "you names" or "you wins"; and the same event reads "seat N names" to others."""
    rules = brisca.preset(name)
    for seed in range(4):
        for _, events, after in _steps(rules, seed):
            for you in range(rules.num_players):
                for line in narrate(after, events, you, plays=True):
                    assert not re.search(r"\byou [a-z]+s\b", line), line
                    assert not re.search(r"\bseat \d+ (name|call|sing|show|win)\b", line), line


def test_the_auction_and_the_named_trump_read_in_the_second_person() -> None:
    """Subastada (SPEC s.2.7): the seat that alone bids wins the auction and names the trump;
    it reads "you win", "you name", the others "seat N wins", "seat N names"."""
    rules = brisca.preset("subastada-4p")
    state = brisca.new_game(rules, seed=3)
    declarer = state.to_act
    assert declarer is not None
    lines: dict[int, list[str]] = {seat: [] for seat in range(4)}
    while state.trump is None:
        legal = brisca.legal_actions(state)
        if state.to_act == declarer:
            bids = [a for a in legal if isinstance(a, brisca.Bid)]
            names = [a for a in legal if isinstance(a, brisca.NameTrump)]
            action: brisca.Action = bids[0] if bids else names[-1]
        else:
            action = brisca.Pass()
        state, events = brisca.step(state, action)
        for seat in lines:
            lines[seat] += narrate(state, events, seat, plays=True)
    suit = state.trump.spanish_name
    other = (declarer + 1) % 4
    assert f"you: bid {rules.bid_minimum}" in lines[declarer]
    assert f"you win the auction with bid {rules.bid_minimum}" in lines[declarer]
    assert f"you name the trump: {suit} are trumps" in lines[declarer]
    assert f"seat {declarer} wins the auction with bid {rules.bid_minimum}" in lines[other]
    assert f"seat {declarer} names the trump: {suit} are trumps" in lines[other]
    assert "you: pass" in lines[other]


def test_a_cante_is_told_with_its_worth_40_in_trumps_and_20_otherwise() -> None:
    """Cantes (SPEC s.2.7): the singer reads "you sing 40 in Oros" (trumps) or 20; the
    others read "seat N sings"."""
    rules = brisca.preset("subastada-4p")
    sung = 0
    for seed in range(40):
        for before, events, after in _steps(rules, seed):
            sings = [e for e in events if isinstance(e, Announced) and e.action.startswith("sing ")]
            if not sings:
                continue
            singer = before.to_act
            assert singer is not None
            suit = brisca.Suit(sings[0].action[-1])
            worth = 40 if suit is before.trump else 20
            told = f"{worth} in {suit.spanish_name}"
            assert f"you sing {told}" in narrate(after, events, singer, plays=True)
            other = (singer + 1) % rules.num_players
            assert f"seat {singer} sings {told}" in narrate(after, events, other, plays=True)
            assert f"seat {singer} sings {told}" in narrate(after, events)
            sung += 1
        if sung >= 3:
            break
    assert sung >= 3


def _black_hand_deal(rules: brisca.Rules, seed: int) -> brisca.State:
    """The seeded deal with the 1, 3 and 12 of trumps moved into the leader's hand."""
    from brisca import records

    state = brisca.new_game(rules, seed=seed)
    assert state.trump is not None and state.to_act is not None
    black = [brisca.Card(rank, state.trump) for rank in (1, 3, 12)]
    assert state.trump_card not in black
    deck = list(records.deck_order(state))
    for card, held in zip(black, state.hands[state.to_act], strict=True):
        i, j = deck.index(card), deck.index(held)
        deck[i], deck[j] = deck[j], deck[i]
    return brisca.new_game(rules, deck=deck, dealer=state.dealer)


def test_a_black_hand_is_told_as_the_1_3_and_12_of_trumps() -> None:
    """Black hand (casino, S003): the claim shows the 1, 3 and 12 of trumps; the claimer
    reads "you show", the others "seat N shows", and nobody sees another card of it."""
    rules = brisca.preset("casino-2p")
    state = _black_hand_deal(rules, 1)
    claimer = state.to_act
    assert claimer is not None and state.trump is not None
    assert set(state.hands[claimer]) == {brisca.Card(r, state.trump) for r in (1, 3, 12)}
    after, events = brisca.step(state, brisca.ClaimBlackHand())
    told = f"a black hand: the 1, 3 and 12 of {state.trump.spanish_name}"
    assert f"you show {told}" in narrate(after, events, claimer, plays=True)
    other = 1 - claimer
    assert f"seat {claimer} shows {told}" in narrate(after, events, other, plays=True)
    assert f"seat {claimer} shows {told}" in narrate(after, events)
    won = f"result: you won with a black hand, the 1, 3 and 12 of {state.trump.spanish_name}"
    assert won in describe_result(after, claimer)
    assert f"result: seat {claimer} won with a black hand" in describe_result(after)[-1]


def test_narrate_refuses_what_is_not_a_state_or_events() -> None:
    """Bad arguments to the public narrate are a StateError naming what is wrong."""
    state = brisca.new_game(brisca.preset("spanish-2p"), seed=1)
    after, events = brisca.step(state, brisca.legal_actions(state)[0])
    with pytest.raises(brisca.StateError, match=r"expected a brisca\.State"):
        narrate(brisca.observe(after, 0), events)  # type: ignore[arg-type]
    with pytest.raises(brisca.StateError, match="expected brisca events"):
        narrate(after, ["3C"])  # type: ignore[list-item]
    with pytest.raises(brisca.StateError, match="expected brisca events"):
        narrate(after, ["3C"], 0)  # type: ignore[list-item]
    with pytest.raises(brisca.StateError, match="expected brisca events"):
        narrate(after, 3)  # type: ignore[arg-type]
    with pytest.raises(brisca.StateError, match="seat"):
        narrate(after, events, -1)
    before = after
    after, events = brisca.step(before, brisca.legal_actions(before)[0])  # the trick is won
    with pytest.raises(brisca.StateError, match="not among the tricks"):
        narrate(before, events)  # told against the state before the trick was won


# Issue 22 s.2: the terminal.


def test_play_tells_a_failed_subastada_contract_with_the_bid_the_points_and_the_cantes() -> None:
    """Issue 22: seed 5, bid 85 in bastos, played out: the end says the contract failed,
    with the bid and the points and cantes taken, and the result from the player's side."""
    moves = "bid 85\ntrump B\n" + "1\n" * 40
    done = run("play", "--preset", "subastada-4p", "--seed", "5", stdin=moves)
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith(
        "points: you+2 74, seats 1+3 46\n"
        "The declarer (you, with seat 2) bid 85 and took 74 + 0 in cantes: "
        "the contract failed.\n"
        "result: you lost, 74-46\n"
    )
    assert "trick 1 of 10 -- trump: not chosen yet" not in done.stdout
    assert "-- auction -- trump: not chosen yet" in done.stdout


def test_replay_tells_the_contract_in_the_third_person(tmp_path: Path) -> None:
    """`brisca replay` tells a contract hand's end through the same words: the declarer
    by seat, the bid, the points, made or failed; then "seats 1+3 won, 74-46"."""
    out = tmp_path / "auction.jsonl"
    made = run("simulate", "--preset", "subastada-4p", "-n", "6", "--seed", "2", "--out", str(out))
    assert made.returncode == 0, made.stderr
    done = run("replay", str(out))
    assert done.returncode == 0, done.stderr
    told = re.findall(
        r"^The declarer \(seat \d.*: the contract (?:was made|failed)\.$", done.stdout, re.M
    )
    assert told
    assert "you" not in done.stdout.replace("your", "")
    assert re.search(r"^result: seats \d\+\d won, \d+-\d+$", done.stdout, re.M)
    assert "play goes counter-clockwise: each seat plays after the one on its left" in done.stdout


def test_play_match_plays_hand_after_hand_to_the_match_result() -> None:
    """Issue 22: `--match` plays a whole match: after each hand the standings against the
    target and who deals next, a pause for Enter, then the next hand; at the end who won."""
    done = run("play", "--preset", "chilean-rematada", "--match", "--seed", "3", stdin="1\n" * 400)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith(
        "chilean-rematada match, seed 3, first to 101 card points: you are seat 0"
    )
    hands = len(re.findall(r"^after hand \d+: ", out, re.M))
    assert hands >= 2
    assert out.count("(first to 101 card points)") == hands
    assert out.count("press Enter for the next hand (or quit): ") == hands - 1
    assert out.count("deals next (hand ") == hands - 1
    assert out.count("\n== hand ") == hands - 1
    assert re.search(rf"^match over after {hands} hands: (you won|you lost) the match", out, re.M)
    assert "final standings: you+2 " in out


def test_play_match_saves_every_hand_and_leaves_cleanly(tmp_path: Path) -> None:
    """`--match --out` writes a record a hand, which replays; input that ends between hands
    ends the match with status 1 and a message, not a traceback."""
    path = tmp_path / "match.jsonl"
    done = run(
        "play",
        "--preset",
        "chilean-rematada",
        "--match",
        "--seed",
        "3",
        "--out",
        str(path),
        stdin="1\n" * 400,
    )
    assert done.returncode == 0, done.stderr
    hands = len(re.findall(r"^after hand \d+: ", done.stdout, re.M))
    assert len(path.read_text(encoding="utf-8").splitlines()) == hands
    assert run("validate", str(path)).returncode == 0
    first = "1\n" * 10  # exactly one hand's plays: the input ends at the pause
    stopped = run("play", "--preset", "chilean-rematada", "--match", "--seed", "3", stdin=first)
    assert stopped.returncode == 1
    assert "input ended before the match did" in stopped.stderr
    assert "Traceback" not in stopped.stderr
    quit_ = run(
        "play", "--preset", "chilean-rematada", "--match", "--seed", "3", stdin=first + "quit\n"
    )
    assert quit_.returncode == 1 and "match abandoned" in quit_.stderr


def test_match_is_refused_for_rules_scored_as_a_single_hand() -> None:
    """`--match` for rules whose match is one hand is a usage error naming why."""
    from brisca.cli.common import Usage
    from brisca.cli.play import check_match_rules

    with pytest.raises(Usage, match=r"scored as a single hand \(match_mode='single_hand'\)"):
        check_match_rules(brisca.Rules(match_mode="single_hand"), "mine")
    for name, rules in brisca.PRESETS.items():  # every preset scores a match today
        check_match_rules(rules, name)


def test_the_opening_line_offers_only_actions_the_rules_allow() -> None:
    """Issue 22: no "an action such as 'swap 7O'" where swaps are off: the opening line
    names actions these rules allow, and help explains the señas offered."""
    plain = run("play", "--seed", "2", stdin="quit\n").stdout
    assert "swap" not in plain and "signal" not in plain
    assert "Type a menu number, a card code such as 3C, 'help' or 'quit'." in plain
    swaps = run("play", "--preset", "puerto-rican-2p", "--seed", "2", stdin="quit\n").stdout
    assert "an action such as 'swap 2O'" in swaps
    senas = run("play", "--preset", "spanish-4p", "--seed", "1", stdin="help\nquit\n").stdout
    assert "'signal " in senas
    if "a seña to your partner" in senas:  # the seat is offered one at its first turn
        assert re.search(r"^      \w+: I hold ", senas, re.M)


def test_the_last_choice_is_asked_as_one_choice() -> None:
    """Issue 22: a menu of one reads "(1 or 4C, or help)", never "(1-1, ...)"."""
    from brisca.cli.play import prompt_text

    card = brisca.Play(brisca.Card.parse("4C"))
    assert prompt_text([card], [card]) == "your move (1 or 4C, or help): "
    done = run("play", "--seed", "4", stdin="1\n" * 30)
    assert done.returncode == 0, done.stderr
    assert "(1-1," not in done.stdout
    assert re.search(r"your move \(1 or \d+[OCEB], or help\): ", done.stdout)


def test_rules_explain_the_senas_the_card_order_and_the_sources() -> None:
    """Issue 22: `brisca rules PRESET` explains each seña, the card order and points, and
    ends with a legend of the source codes it cites; `brisca rules` ends with its legend."""
    done = run("rules", "spanish-4p")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Señas (signals to your partner, 'signal NAME'): everyone sees them" in out
    assert "  wink        I hold both the 1 and the 3 of trumps" in out
    assert "Card order in each suit, strongest first: 1 As, 3 Tres, 12 Rey," in out
    assert "Card points: 1 = 11, 3 = 10, 12 = 4, 11 = 3, 10 = 2, the others 0" in out
    legend = out[out.index("\nSources:\n") :]
    assert "  S000   the English rules page (a seed)" in legend
    assert "  [P]    a project convention" in legend
    listed = run("rules").stdout
    assert "\nSources:\n" in listed and "ACA-TS" in listed[listed.index("\nSources:\n") :]


#: Lines no prompt may fail on: huge numbers, huge text, control characters, odd digits.
_HOSTILE = [
    "5" * 5000,
    "0" * 5000,
    "9" * 20,
    "x" * 20000,
    "bid " + "9" * 5000,
    "\x00\x1b[2J",
    "\u202e3C",
    "swap",
    "signal",
    "1O" * 3000,
    "help me",
    "-1",
    "+1",
    "1.5",
    "\t",
]


def test_the_prompt_answers_any_line_without_a_traceback() -> None:
    """Issue 20/22: every typed line, of any length or content, gets a short message and
    the question again; a 5,000-digit number is "choose a number", not a ValueError."""
    moves = "".join(f"{line}\n" for line in _HOSTILE) + "1\n" * 30
    done = run("play", "--seed", "3", stdin=moves)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    messages = re.findall(r"^not (?:understood|allowed): .*$", done.stdout, re.M)
    assert len(messages) >= len(_HOSTILE) - 1  # a tab is a blank line, asked again
    assert all(len(line) < 300 for line in messages)
    assert "not understood: choose a number from 1 to 3" in done.stdout
    assert max(map(len, done.stdout.splitlines())) < 400  # long lines are echoed cut short


def test_the_prompt_reads_bytes_that_are_not_utf8() -> None:
    """Bytes that do not decode are read as U+FFFD and refused like any other answer."""
    done = subprocess.run(
        [sys.executable, "-m", "brisca", "play", "--seed", "3"],
        input=b"\xff\xfe\x80bad\n" + b"1\n" * 30,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    assert b"not understood: " in done.stdout


def test_a_typed_answer_is_an_action_or_a_notation_error() -> None:
    """Whatever the text, the choice parser gives an action or a NotationError naming the
    answers these rules allow; never a bare ValueError."""
    from hypothesis import given
    from hypothesis import strategies as st

    from brisca.cli.play import choice

    rules = brisca.preset("spanish-2p")
    menu = list(brisca.legal_actions(brisca.new_game(rules, seed=1)))

    @given(st.one_of(st.text(max_size=60), st.text("0123456789", min_size=1, max_size=6000)))
    def answers(text: str) -> None:
        try:
            action = choice(text, menu, rules)
        except brisca.NotationError as error:
            assert len(str(error)) < 300
            if "swap" not in text.lower():  # no swap in spanish-2p: none suggested
                assert "swap" not in str(error)
        else:
            assert isinstance(action, tuple(brisca.game.actions.ACTION_TYPES))

    answers()


def test_a_missing_bot_module_hints_at_the_import_path(tmp_path: Path) -> None:
    """Issue 22: a module:Class bot in the current directory is not found by the installed
    command; the error says the current directory is not on the import path and how to run
    it, and PYTHONPATH=. makes it work."""
    (tmp_path / "mybot.py").write_text(
        "from brisca.agents.bots import RandomBot as Mine\n", encoding="utf-8"
    )
    script = "import sys; from brisca.cli import main; sys.exit(main(sys.argv[1:]))"
    args = [sys.executable, "-P", "-c", script, "simulate", "-n", "2", "-q", "--bots", "mybot:Mine"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 2
    assert "cannot import the bot 'mybot:Mine': No module named 'mybot'" in done.stderr
    assert "not on Python's import path" in done.stderr
    assert "PYTHONPATH=. brisca" in done.stderr
    env["PYTHONPATH"] = "."
    done = subprocess.run(
        args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    unknown = run("simulate", "-n", "2", "--bots", "genius")  # no module involved: no hint
    assert "import path" not in unknown.stderr
