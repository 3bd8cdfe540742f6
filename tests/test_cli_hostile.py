"""The `brisca` command under hostile input: files of any size, endless devices, lines
that never end, counts past any machine, bots that raise, outputs that refuse writes.
Each gets a short message and an exit status, never a traceback, at a cost bounded by
the input's size (and bounded for an input that never ends)."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import assert_linear
from hypothesis import given, settings
from hypothesis import strategies as st

import brisca
from brisca.cli import documents, main, play
from brisca.formats import records
from brisca.game.rng import MAX_SEED
from brisca.runs import arena, simulate
from brisca.runs.workers import MAX_JOBS, in_workers


def _record_line(seed: int, **fields: object) -> str:
    state = start = brisca.new_game(brisca.preset("spanish-2p"), seed=seed)
    actions = []
    while not state.is_over:
        action = brisca.legal_actions(state)[0]
        actions.append(action)
        state = brisca.apply(state, action)
    record = records.record_game(start, actions, **fields)  # type: ignore[arg-type]
    return records.dumps(record) + "\n"


def _run(*args: str, stdin: str = "", **popen: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "brisca", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
        **popen,  # type: ignore[arg-type]
    )


def test_validate_reads_a_file_past_one_records_size_line_by_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file longer than one record may be is read as JSON Lines, a chunk at a time, in
    the memory of one record: a line too long is named, the others are judged. The whole
    file had been read into memory, and `/dev/zero` ran the machine out of it."""
    line = _record_line(1)
    monkeypatch.setattr(documents, "MAX_TEXT", 3 * len(line))
    monkeypatch.setattr(documents, "_CHUNK", 97)  # lines cut across chunks
    path = tmp_path / "many.jsonl"
    path.write_text(line * 4 + "x" * (4 * len(line)) + "\n" + line * 2)
    assert main(["validate", str(path)]) == 1
    verdicts = capsys.readouterr().out.splitlines()
    assert verdicts == [f"{path}:5: invalid: {documents._TOO_LONG}"]
    path.write_text(line * 7)
    assert main(["validate", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [f"{path}: valid (7 records)"]
    assert main(["replay", "--game", "7", str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"{path}:7\n")
    assert main(["replay", "--game", "8", str(path)]) == 2
    assert "--game must be from 1 to 7" in capsys.readouterr().err
    for game in ("0", "-3"):  # refused before the file is read
        monkeypatch.setattr(documents, "_documents", None)
        assert main(["replay", "--game", game, str(path)]) == 2
        assert f"--game counts records from 1, got {game}" in capsys.readouterr().err


def test_validate_gives_up_on_a_file_that_never_ends(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`/dev/zero` ends with a message once `MAX_FILE` is read, not with the memory."""
    monkeypatch.setattr(documents, "MAX_FILE", 64 * 2**20)
    assert main(["validate", "/dev/zero"]) == 2
    assert "goes on past" in capsys.readouterr().err


def test_json_lines_split_at_newlines_only(tmp_path: Path) -> None:
    """Records the library writes may hold U+2028, U+2029 or U+0085 in their text (a
    player's name), unescaped: ``str.splitlines`` broke such lines in two."""
    line = _record_line(3, players=["a\u2028b", "c\u0085d"])
    path = tmp_path / "names.jsonl"
    path.write_text(line * 2, encoding="utf-8")
    done = _run("validate", str(path))
    assert done.returncode == 0, done.stdout
    assert "valid (2 records)" in done.stdout


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_json_lines_end_in_any_newline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], end: str
) -> None:
    """Lines end in ``\\n``, ``\\r\\n`` or a lone ``\\r`` (old Mac files), in a small file
    and in one read a chunk at a time; a line exactly `MAX_TEXT` long is not too long,
    whatever its end."""
    line = _record_line(2).rstrip("\n")
    path = tmp_path / "ends.jsonl"
    path.write_bytes(((line + end) * 3).encode())
    assert main(["validate", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [f"{path}: valid (3 records)"]
    monkeypatch.setattr(documents, "MAX_TEXT", len(line))
    monkeypatch.setattr(documents, "_CHUNK", 7)
    assert main(["validate", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [f"{path}: valid (3 records)"]


@settings(max_examples=500)
@given(
    data=st.lists(st.sampled_from([b"a", b"bcd", b"\r", b"\n", b"\r\n"]), max_size=40).map(
        b"".join
    ),
    chunk=st.integers(1, 9),
    most=st.integers(1, 12),
)
def test_lines_split_as_the_newlines_say_whatever_the_chunks(
    data: bytes, chunk: int, most: int
) -> None:
    """`_lines` reads, a chunk at a time, the lines a whole-text split gives that are not
    empty, numbered from 1, with ``None`` for each longer than `MAX_TEXT`, whether its
    end is in the chunk or beyond."""
    pieces = re.split(rb"\r\n|\r|\n", data)
    expected = [
        (k, None if len(piece) > most else piece) for k, piece in enumerate(pieces, 1) if piece
    ]
    handle = io.BytesIO(data)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(documents, "MAX_TEXT", most)
        patch.setattr(documents, "_CHUNK", chunk)
        assert list(documents._lines(handle, bytearray(handle.read(chunk)))) == expected


@pytest.mark.parametrize(
    "line",
    [
        lambda n: b"x" * n,  # no end at all: each chunk joins a longer line
        lambda n: b"x\r" * (n // 2),  # a lone \r at every end of a chunk, held back
        lambda n: b"\r\n" * (n // 2),  # a line end in every second byte
        lambda n: b"\r" * n,  # nothing but line ends: passed over a run at a time
    ],
)
def test_reading_lines_costs_linear_time(line: Callable[[int], bytes]) -> None:
    """The chunk reader looks at each byte about once, whatever the line ends: a line
    that goes on over many chunks is not searched from its start at every chunk."""

    def seconds(n: int) -> Callable[[], float]:
        data = line(n)

        def run() -> float:
            handle = io.BytesIO(data)
            start = time.process_time()
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(documents, "_CHUNK", 64)
                patch.setattr(documents, "MAX_TEXT", 10**9)
                for _ in documents._lines(handle, bytearray(handle.read(64))):
                    pass
            return time.process_time() - start

        return run

    assert_linear(seconds(400_000), seconds(800_000))


def test_a_small_file_of_many_lines_is_read_as_they_come(tmp_path: Path) -> None:
    """A file within one record's size is read a line at a time as well: its first
    verdicts cost the memory of the file, where a list of its lines took about sixty
    times its size (8 million short lines, 950 MB)."""
    path = tmp_path / "short.jsonl"
    path.write_bytes(b"{}\n" * (2**20 // 3))  # a megabyte of short lines
    tracemalloc.start()
    try:
        documents_read = documents._documents(str(path))
        assert not isinstance(documents_read, str)
        first = [next(documents_read) for _ in range(3)]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [d.label for d in first] == [f"{path}:{k}" for k in (1, 2, 3)]
    assert peak < 4 * 2**20, peak


def test_a_verdict_quotes_a_long_action_shortly(tmp_path: Path) -> None:
    """A record whose action is a megabyte of junk is judged in a line, not a megabyte."""
    line = _record_line(1).replace('"actions": ["', '"actions": ["' + "x" * 10**6, 1)
    path = tmp_path / "long.json"
    path.write_text(line)
    done = _run("validate", str(path))
    assert done.returncode == 1
    assert len(done.stdout) < 1000 and "invalid" in done.stdout


def test_play_reads_a_line_no_longer_than_an_answer(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A typed line is read up to `MAX_LINE` characters and the rest skipped; input with
    no end of line (`/dev/zero`) is given up on after `MAX_SKIP`, where the whole line
    had been read into memory."""
    out = io.StringIO()
    long = io.StringIO("y" * (play.MAX_LINE * 3) + "\nnext\n")
    assert play._read_line(long, out, "? ") == "y" * play.MAX_LINE
    assert play._read_line(long, out, "? ") == "next"
    endless = io.StringIO("\0" * (play.MAX_SKIP + 3 * play.MAX_LINE))
    with pytest.raises(play.Usage, match="goes on past 1 MiB"):
        play._read_line(endless, out, "? ")
    with open("/dev/zero") as zero:
        monkeypatch.setattr(sys, "stdin", zero)
        assert main(["play", "--seed", "1"]) == 2
    assert "a line of input goes on past 1 MiB" in capsys.readouterr().err


def test_play_without_an_input_or_an_output_says_so() -> None:
    closed_in = subprocess.run(
        [sys.executable, "-m", "brisca", "play", "--seed", "1"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        preexec_fn=lambda: os.close(0),
    )
    assert closed_in.returncode == 2
    assert "needs an input and an output" in closed_in.stderr
    assert "Traceback" not in closed_in.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["simulate", "-n", str(simulate.MAX_GAMES + 1), "-q"], "-n must be from 1 to 10,000,000"),
        (["simulate", "-n", "2", "-q", "--jobs", str(MAX_JOBS + 1)], "--jobs must be from 1"),
        (["arena", "random", "random", "-q", "--deals", "10000000"], "--deals must be from 1"),
        (["arena", "random", "random", "-q", "--jobs", "6000"], "--jobs must be from 1 to 256"),
        (["show", "--seed", str(MAX_SEED + 1)], "a seed is an int from 0 to 2\\*\\*1024 - 1"),
        (["show", "--seed", "9" * 5000], "a seed is an int from 0 to 2\\*\\*1024 - 1"),
        (["serve", "--host", "\udcff", "--port", "0"], "not a host name"),
        (["serve", "--host", "ä" * 70, "--port", "0"], "not a host name"),
    ],
)
def test_counts_seeds_and_hosts_past_what_can_be_are_usage_errors(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A count of games, deals or workers past its bound is refused before anything is
    built (a trillion games filled the memory; 6,000 workers forked the machine), and
    so are a seed past `MAX_SEED` and a host name that cannot be encoded."""
    try:
        status = main(args)
    except SystemExit as exit:  # argparse's own usage errors
        status = int(exit.code or 0)
    assert status == 2
    err = capsys.readouterr().err
    assert __import__("re").search(words, err), err
    assert len(err) < 1000


def test_every_seed_the_library_takes_plays_in_every_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`show`, `simulate` and `play` take the same seeds: from 0 to `MAX_SEED`."""
    assert main(["show", "--seed", str(MAX_SEED)]) == 0
    assert main(["show", "--seed", "0" * 10**5 + str(MAX_SEED)]) == 0  # zeros in front
    assert main(["show", "--seed", "0" * 400]) == 0
    assert main(["simulate", "-n", "2", "-q", "--seed", str(MAX_SEED)]) == 0
    capsys.readouterr()


def test_the_workers_are_bounded_and_never_more_than_the_work() -> None:
    """The one pool of the runs: at most `MAX_JOBS` workers, and no more than the items."""
    assert list(in_workers(abs, [-1, -2, -3], 8, 4)) == [1, 2, 3]
    with pytest.raises(brisca.StateError, match="jobs must be an int from 1 to 256"):
        list(in_workers(abs, [-1], MAX_JOBS + 1, 4))
    with pytest.raises(brisca.StateError, match="jobs must be an int from 1 to 256"):
        arena.run_arena("random", "random", "spanish-2p", deals=1, jobs=MAX_JOBS + 1)
    run = simulate.tasks("spanish-2p", ["random", "random"], 1, 0)
    with pytest.raises(brisca.StateError, match="jobs must be an int from 1 to 256"):
        simulate.run_local(run, MAX_JOBS + 1)
    with pytest.raises(brisca.StateError, match="the number of games must be an int from 1"):
        simulate.tasks("spanish-2p", ["random", "random"], simulate.MAX_GAMES + 1, 0)
    with pytest.raises(brisca.StateError, match="deals must be an int from 1"):
        arena.run_arena("random", "random", "spanish-2p", deals=arena.MAX_DEALS + 1)


@pytest.mark.parametrize("error", ["ValueError", "OSError"])
def test_a_bot_that_raises_stops_a_simulation_with_a_line(tmp_path: Path, error: str) -> None:
    """A bot of the user's that raises ends `simulate` with its error in a line and
    status 1, in this process or in workers, where it printed a traceback; a bot's
    `OSError` is its own, not the command's "cannot write"."""
    (tmp_path / "raising_bots.py").write_text(
        f"class Raises:\n    def __call__(self, view, legal):\n        raise {error}('boom')\n"
    )
    for jobs in ("1", "2"):
        done = _run(
            "simulate",
            "-n",
            "3",
            "-q",
            "--bots",
            "raising_bots:Raises",
            "--jobs",
            jobs,
            env={**os.environ, "PYTHONPATH": str(tmp_path)},
        )
        assert done.returncode == 1
        assert done.stderr.strip() == f"brisca: a game stopped: {error}: boom"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "-n", "5", "-q", "--out", "/dev/full"],
        ["arena", "random", "random", "--deals", "2", "-q", "--json", "/dev/full"],
        ["rules"],
    ],
)
def test_a_write_that_fails_is_a_line_not_a_traceback(args: list[str]) -> None:
    """A full disk (here `/dev/full`, as the file or as the output) ends the command
    with "cannot write" and status 1."""
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "brisca", *args],
            stdout=full if args == ["rules"] else subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 1
    assert "brisca: cannot write: No space left on device" in done.stderr
    assert "Traceback" not in done.stderr
