"""``brisca replay FILE`` and ``brisca validate FILE``: game records, read from a file.

A file holds one JSON document or one a line (JSON Lines). ``replay`` tells each
record trick by trick and checks its recorded result; ``validate`` checks every
document and says what it is. Saved states and matches are recognised, and named.
Records (``--game K``) and actions are counted from 1 wherever people read them;
the library's own `Problem.index` stays a Python index, from 0.
"""

from __future__ import annotations

import argparse
import json
import sys
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
from brisca.game.jsonio import parse
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


def _read_text(path: str) -> tuple[str | None, str]:
    """The text of `path`, or ``(None, why)`` when it is not UTF-8 text.

    Raises:
        Usage: the file cannot be read at all (missing, a directory, no permission).
    """
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise Usage(f"cannot read {clean(path)}: {error.strerror or error}") from None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None, "not a record: the file is UTF-16 text, and records are UTF-8 JSON"
    try:
        return data.decode("utf-8-sig"), ""
    except UnicodeDecodeError as error:
        return None, (
            f"not a record: the file is not UTF-8 text (byte 0x{data[error.start]:02x} "
            f"at offset {error.start}); records are UTF-8 JSON"
        )


def _format_of(text: str) -> str | None:
    """The ``"format"`` a JSON document names, or ``None``."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    found = data.get("format") if isinstance(data, dict) else None
    return found if isinstance(found, str) else None


def _documents(path: str) -> list[_Document] | str:
    """The documents of a file: one JSON document, or one a line (JSON Lines).

    A string instead says why the file holds no documents at all.
    """
    text, why = _read_text(path)
    if text is None:
        return why
    try:
        json.loads(text)
        whole = True
    except (ValueError, RecursionError):
        whole = False
    lines = [(k, line) for k, line in enumerate(text.splitlines(), 1) if line.strip()]
    if whole or len(lines) < 2:
        return [_Document(path, text, _format_of(text))]
    return [_Document(f"{path}:{k}", line, _format_of(line)) for k, line in lines]


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
    bad = 0
    for document in documents:
        label = clean(document.label)
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
                print(f"{label}: invalid: {clean(str(error))}")
            else:
                print(f"{label}: valid: brisca.loads reads it")
            continue
        problem = records.validate(document.text)
        if problem is not None:
            bad += 1
            where = ""
            if problem.index is not None:  # counted from 1, as `replay --game` counts records
                where = f"action {problem.index + 1} ({clean(str(problem.action))}): "
            print(f"{label}: invalid: {where}{clean(problem.reason)}")
    if bad:
        return 1
    count = len(documents)
    kind = "record" if all(d.format not in OTHER_DOCUMENTS for d in documents) else "document"
    print(f"{clean(args.file)}: valid ({count} {kind}{'s' if count > 1 else ''})")
    return 0


def replay_command(args: argparse.Namespace, style: Style = PLAIN) -> int:
    """Run ``brisca replay`` with parsed `args`, cards drawn in `style`: 0 when every
    record replays to its recorded result, else 1.

    Raises:
        Usage: the file cannot be read, or ``--game`` names no record of it.
    """
    documents = _documents(args.file)
    if isinstance(documents, str):
        print(f"brisca: {clean(args.file)}: {documents}", file=sys.stderr)
        return 1
    if args.game is not None:
        if not 1 <= args.game <= len(documents):
            raise Usage(f"--game must be from 1 to {len(documents)}")
        documents = [documents[args.game - 1]]
    failed = 0
    for k, document in enumerate(documents):
        label = clean(document.label)
        if k:
            print()
        print(label)
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
            print(f"brisca: {label}: {clean(str(error))}", file=sys.stderr)
    return 1 if failed else 0


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
