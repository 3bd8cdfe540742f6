"""The `brisca` command, run for real as ``python -m brisca`` in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import brisca
from brisca.cli import option_docs, wilson_interval


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``python -m brisca ARGS`` with `stdin` as its input."""
    return subprocess.run(
        [sys.executable, "-m", "brisca", *args],
        input=stdin,
        capture_output=True,
        text=True,
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
    """`brisca rules PRESET` shows each option, its value, a mark if changed, and its source."""
    done = run("rules", "arrastre-2p")
    assert done.returncode == 0, done.stderr
    for field in brisca.Rules.__attrs_attrs__:
        assert f"  {field.name} = " in done.stdout
    assert "  play_obligation = 'arrastre_after_stock'  *" in done.stdout
    assert "Whether and when followers must follow, beat and trump (S004; NC)." in done.stdout


def test_rules_refuses_an_unknown_preset() -> None:
    """An unknown preset exits 2 with the list of presets."""
    done = run("rules", "brisca-99p")
    assert done.returncode == 2
    assert "unknown preset 'brisca-99p'" in done.stderr
    assert "spanish-2p" in done.stderr


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
    assert "unknown bot(s) genius" in done.stderr


def test_without_the_cli_extra_the_command_says_how_to_install_it() -> None:
    """With tqdm missing, the command names the extra to install."""
    code = (
        "import sys; sys.modules['tqdm'] = None\n"
        "from brisca.cli import main; sys.exit(main(['rules']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2
    assert "pip install 'brisca[cli]'" in done.stderr


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
    pytest.importorskip("brisca.records", reason="brisca.records (game records) is not there yet")
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
    problem = records.validate(records.loads(bad.read_text(encoding="utf-8")))
    done = run("validate", str(bad))
    assert done.returncode == 1
    assert f"action {problem.index} ({problem.action}): {problem.reason}" in done.stdout


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
    pytest.importorskip("brisca.records", reason="brisca.records (game records) is not there yet")
    for command in ("replay", "validate"):
        done = run(command, str(tmp_path / "nothing.json"))
        assert done.returncode == 2
        assert "cannot read" in done.stderr
