"""``brisca replay FILE`` and ``brisca validate FILE``: game records, read from a file.

A file holds one JSON document or one a line (JSON Lines). ``replay`` tells each
record trick by trick and checks its recorded result; ``validate`` checks every
document and says what it is. Saved states and matches are recognised, and named.
Records (``--game K``) and actions are counted from 1 wherever people read them;
the library's own `Problem.index` stays a Python index, from 0.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import json
import re
import sys
from collections.abc import Iterator
from typing import Any

import attrs

import brisca
from brisca.cli.common import Usage
from brisca.formats import records
from brisca.formats.text import (
    PLAIN,
    Style,
    clean,
    describe_deal,
    describe_result,
    narrate,
)
from brisca.game.actions import parse_action
from brisca.game.errors import BriscaError, describe
from brisca.game.jsonio import MAX_TEXT, parse
from brisca.game.presets import preset_name

__all__ = [
    "OTHER_DOCUMENTS",
    "add_replay_arguments",
    "add_validate_arguments",
    "replay_command",
    "validate_command",
]

#: The documents other than game records that `validate` and `replay` recognise, by
#: their ``"format"``: what each is, and what reads it.
OTHER_DOCUMENTS = {
    "brisca-state": (
        "a saved game state (written by brisca.dumps(state))",
        "brisca.loads reads it in Python, and `brisca validate` checks it",
    ),
    "brisca-match": (
        "a saved match (written by brisca.dumps(match))",
        "brisca.loads or brisca.loads_match reads it in Python, and `brisca validate` checks it",
    ),
}


def add_replay_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``brisca replay`` on `parser`."""
    parser.add_argument("file", help="a game record, or JSON Lines of records")
    parser.add_argument("--game", type=int, default=None, help="only this record (from 1)")


def add_validate_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``brisca validate`` on `parser`."""
    parser.add_argument("file", help="a game record, or JSON Lines of records")


@attrs.frozen
class _Document:
    """One JSON document of a file, as `validate` and `replay` see it."""

    label: str
    text: str
    #: Its ``"format"`` when it names one, else ``None`` (a record or garbage).
    format: str | None
    #: Why it cannot be read at all (too long, not UTF-8), else ``None``.
    unreadable: str | None = None


_NOT_UTF8 = (
    "not a record: {what} is not UTF-8 text (byte 0x{byte:02x} at offset {at}); "
    "records are UTF-8 JSON"
)
_TOO_LONG = f"not a record: longer than {MAX_TEXT // 2**20} MiB, the most one record may hold"
_CHUNK = 2**20
#: The ends of a line: ``\n``, ``\r\n`` or a lone ``\r``, but not the Unicode line
#: separators, which a record's text may hold unescaped.
_LINE_ENDS = re.compile(rb"[\r\n]+")  # a run of them; `_lines` counts its ends
#: The most of a file read, for a device or pipe that never ends (4 GiB: millions of
#: records).
MAX_FILE = 4 * 2**30


def _decoded(data: bytes | bytearray, what: str) -> tuple[str | None, str]:
    """`data` as text, or ``(None, why)`` when it is not UTF-8 (a BOM aside)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None, f"not a record: {what} is UTF-16 text, and records are UTF-8 JSON"
    try:
        return data.decode("utf-8-sig"), ""
    except UnicodeDecodeError as error:
        return None, _NOT_UTF8.format(what=what, byte=data[error.start], at=error.start)


def _format_of(text: str) -> str | None:
    """The ``"format"`` a JSON document names, or ``None``."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    found = data.get("format") if isinstance(data, dict) else None
    return found if isinstance(found, str) else None


def _documents(path: str) -> Iterator[_Document] | str:
    """The documents of a file: one JSON document, or one a line (JSON Lines), read as
    they come, each at most `MAX_TEXT` long, so that a file of any size costs the
    memory of one document.

    A string instead says why the file holds no documents at all.

    Raises:
        Usage: the file cannot be read at all (missing, a directory, no permission).
    """
    try:
        handle = open(path, "rb")  # noqa: SIM115 (closed by the generator, or below)
        # A chunk at a time, into the buffer the lines are then read from: no copy of
        # it, and no more memory than the file's for a small one.
        head = bytearray()
        while len(head) <= MAX_TEXT and (
            chunk := handle.read(min(_CHUNK, MAX_TEXT + 1 - len(head)))
        ):
            head += chunk
    except OSError as error:
        with contextlib.suppress(NameError):
            handle.close()
        raise Usage(f"cannot read {clean(path)}: {error.strerror or error}") from None
    if len(head) <= MAX_TEXT:  # the whole file: one document, or lines
        handle.close()
        text, why = _decoded(head, "the file")
        if text is None:
            return why
        try:
            json.loads(text)
            whole = True
        except (ValueError, RecursionError):
            whole = False
        lines = iter(()) if whole else _streamed(path, io.BytesIO(), head)  # as they come
        first = list(itertools.islice(lines, 2))
        if len(first) < 2:  # one document, whatever its line ends
            return iter([_Document(path, text, _format_of(text))])
        return itertools.chain(first, lines)
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        handle.close()
        return _decoded(head, "the file")[1]
    return _streamed(path, handle, head)


def _streamed(path: str, handle: Any, head: bytearray) -> Iterator[_Document]:
    """The lines of a file longer than one document may be, read a chunk at a time.

    Raises:
        Usage: the file cannot be read past some point (a disk error), or goes on past
            `MAX_FILE`.
    """
    with handle:
        lines = _lines(handle, head)
        while True:
            try:
                k, line = next(lines)
            except StopIteration:
                return
            except OSError as error:  # a read that failed part way: not a write
                raise Usage(f"cannot read {clean(path)}: {error.strerror or error}") from None
            label = f"{path}:{k}"
            if line is None:
                yield _Document(label, "", None, _TOO_LONG)
                continue
            text, why = _decoded(line, "the line") if k == 1 else _decoded_line(line)
            if text is None:
                yield _Document(label, "", None, why)
            elif text.strip():
                yield _Document(label, text, _format_of(text))


def _decoded_line(line: bytes | bytearray) -> tuple[str | None, str]:
    try:
        return line.decode("utf-8"), ""
    except UnicodeDecodeError as error:
        return None, _NOT_UTF8.format(what="the line", byte=line[error.start], at=error.start)


def _lines(handle: Any, head: bytearray) -> Iterator[tuple[int, bytes | None]]:
    """The lines of `head` (which they take over) and what follows it in `handle` that
    are not empty, each with its number (from 1) and without its end (``\\n``,
    ``\\r\\n`` or a lone ``\\r``); ``None`` for a line longer than `MAX_TEXT`, which
    is skipped to its end. A run of line ends is passed over at once, and counted.

    Raises:
        Usage: the file goes on past `MAX_FILE`.
        OSError: a read failed.
    """
    skipping = False
    read = len(head)
    buffer = head  # grows and shrinks in place: a long line costs its length
    scanned = 0  # the line ends before this offset of `buffer` are found already
    number = 1  # the number of the line that starts `buffer`
    while True:
        start = 0
        # No line end in what is new (a long line, or one skipped): no regex pass.
        found = buffer.find(b"\n", scanned) >= 0 or buffer.find(b"\r", scanned) >= 0
        for ends in _LINE_ENDS.finditer(buffer, scanned) if found else ():
            at, end = ends.span()
            run = ends.group()
            if end == len(buffer) and run[-1] == 13:  # a last \r may be half of a \r\n:
                run = run[:-1]  # held for the next chunk
            if skipping:
                skipping = False
            elif at > start:
                yield number, None if at - start > MAX_TEXT else bytes(buffer[start:at])
            number += len(run) - run.count(b"\r\n")
            start = at + len(run)
        del buffer[:start]
        held = buffer.endswith(b"\r")  # a lone \r held back is not part of the line
        if len(buffer) - held > MAX_TEXT and not skipping:
            yield number, None
            skipping = True
        if skipping:
            buffer[: len(buffer) - held] = b""
        chunk = handle.read(_CHUNK)
        read += len(chunk)
        if read > MAX_FILE:
            raise Usage(f"the file goes on past {MAX_FILE // 2**30} GiB, the most read")
        if not chunk:
            if len(buffer) > held and not skipping:
                yield number, bytes(buffer[: len(buffer) - held])
            return
        scanned = max(len(buffer) - 1, 0)
        buffer += chunk


def _other_document(document: _Document) -> str | None:
    """What a document that is not a game record is, and what reads it; ``None`` for records."""
    if document.format is None or document.format == records.FORMAT:
        return None
    if document.format in OTHER_DOCUMENTS:
        what, reader = OTHER_DOCUMENTS[document.format]
        return f"{what}, format {document.format!r}, not a game record; {reader}"
    return (
        f"a JSON document of format {clean(repr(document.format))}, "
        f"not a game record (format {records.FORMAT!r})"
    )


def validate_command(args: argparse.Namespace, style: Style = PLAIN) -> int:
    """Run ``brisca validate`` with parsed `args`: 0 when every document is valid, else 1.
    Its verdicts show no card, so `style` changes nothing.

    Raises:
        Usage: the file cannot be read.
    """
    documents = _documents(args.file)
    if isinstance(documents, str):
        print(f"{clean(args.file)}: invalid: {documents}")
        return 1
    bad = count = 0
    others = False
    for document in documents:
        count += 1
        label = clean(document.label)
        if document.unreadable is not None:
            bad += 1
            print(f"{label}: invalid: {document.unreadable}")
            continue
        others = others or document.format in OTHER_DOCUMENTS
        other = _other_document(document)
        if other is not None:
            print(f"{label}: {other}")
            if document.format not in OTHER_DOCUMENTS:
                bad += 1
                continue
            try:
                brisca.loads(document.text)
            except BriscaError as error:
                bad += 1
                print(f"{label}: invalid: {clean(_short(str(error)))}")
            else:
                print(f"{label}: valid: brisca.loads reads it")
            continue
        problem = records.validate(document.text)
        if problem is not None:
            bad += 1
            where = ""
            if problem.index is not None:  # counted from 1, as `replay --game` counts records
                shown = _short(str(problem.action), 40)
                where = f"action {problem.index + 1} ({clean(shown)}): "
            print(f"{label}: invalid: {where}{clean(_short(problem.reason))}")
    if bad:
        return 1
    kind = "document" if others else "record"
    print(f"{clean(args.file)}: valid ({count} {kind}{'s' if count > 1 else ''})")
    return 0


def replay_command(args: argparse.Namespace, style: Style = PLAIN) -> int:
    """Run ``brisca replay`` with parsed `args`, cards drawn in `style`: 0 when every
    record replays to its recorded result, else 1.

    Raises:
        Usage: the file cannot be read, or ``--game`` names no record of it.
    """
    if args.game is not None and args.game < 1:  # before a file of any length is read
        raise Usage(f"--game counts records from 1, got {args.game}")
    documents = _documents(args.file)
    if isinstance(documents, str):
        print(f"brisca: {clean(args.file)}: {documents}", file=sys.stderr)
        return 1
    if args.game is not None:
        documents = _the_game(documents, args.game)
    failed = 0
    for k, document in enumerate(documents):
        label = clean(document.label)
        if k:
            print()
        print(label)
        if document.unreadable is not None:
            failed += 1
            print(f"brisca: {label}: {document.unreadable}", file=sys.stderr)
            continue
        other = _other_document(document)
        if other is not None:
            failed += 1
            print(f"brisca: {label}: {other}", file=sys.stderr)
            continue
        try:
            # Read the form only: the replay tells the hand up to a faulty action.
            _replay_one(records, records.GameRecord.from_dict(parse(document.text)), style)
        except BriscaError as error:
            failed += 1
            print(f"brisca: {label}: {clean(_short(str(error)))}", file=sys.stderr)
    return 1 if failed else 0


def _the_game(documents: Iterator[_Document], game: int) -> Iterator[_Document]:
    """Only the `game`-th document (from 1).

    Raises:
        Usage: there is no such document.
    """
    count = 0
    for count, document in enumerate(documents, 1):
        if count == game:
            return iter([document])
    raise Usage(f"--game must be from 1 to {count}")


def _short(text: str, limit: int = 300) -> str:
    """`text` as a verdict quotes it: at most `limit` characters, a few lines at most."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _replay_one(records: Any, record: Any, style: Style) -> None:
    """Show one record trick by trick, then check its recorded result.

    Raises:
        BriscaError: an action is illegal, or the recorded result is not the game's.
    """
    state = record.initial_state()
    name = preset_name(state.rules) or "custom rules"
    print(f"{name}, seed {state.seed}" if state.seed is not None else name)
    print("\n".join(describe_deal(state, style=style)))
    for index, text in enumerate(record.actions):
        try:
            state, events = brisca.step(state, parse_action(text))
        except BriscaError as error:  # as `records.replay` words it, but counted from 1
            where = f"action {index + 1} ({describe(text, typed=False)})"
            raise type(error)(f"{where}: {error}") from None
        for line in narrate(state, events, style=style):
            print(line)
    if state.is_over:
        print("\n".join(describe_result(state)))
    problem = records.validate(record)  # the one check of a recorded result, as validate makes
    if problem is not None:
        raise BriscaError(problem.reason)
    if not state.is_over:
        print(f"unfinished: the record stops after {len(record.actions)} actions, mid-hand")
