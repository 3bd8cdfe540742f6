"""What the subcommands of ``brisca`` share: the usage error, the options every
subcommand reads the same way, files to write, and the records module."""

from __future__ import annotations

import argparse
import difflib
from typing import TextIO

import brisca
from brisca.formats.text import clean
from brisca.game.errors import BotError, describe
from brisca.game.rng import MAX_SEED
from brisca.game.rules import Rules

__all__ = [
    "INSTALL_HINT",
    "Usage",
    "add_preset_argument",
    "add_seed_argument",
    "import_hint",
    "open_for_writing",
    "preset_rules",
    "seed",
]

#: What installs the progress bars of ``brisca simulate`` and ``brisca arena``.
INSTALL_HINT = "pip install 'brisca[cli]'"


class Usage(Exception):
    """A usage error: the message is shown and the command exits with status 2."""


def seed(text: str) -> int:
    """A ``--seed`` argument: an int from 0 to ``MAX_SEED``, as every command and the
    library take, or an argparse error."""
    digits = len(str(MAX_SEED))
    significant = text.lstrip("0") or "0"  # leading zeros change nothing
    plain = text.isascii() and text.isdigit()
    if not plain or len(significant) > digits or int(significant) > MAX_SEED:
        raise argparse.ArgumentTypeError(
            f"a seed is an int from 0 to 2**1024 - 1, got {describe(text, 40, typed=False)}"
        )
    return int(significant)


def add_preset_argument(parser: argparse.ArgumentParser) -> None:
    """``--preset`` on `parser`, ``spanish-2p`` by default."""
    parser.add_argument("--preset", default="spanish-2p", help="a preset (see `brisca rules`)")


def add_seed_argument(parser: argparse.ArgumentParser) -> None:
    """``--seed`` on `parser`, none by default."""
    parser.add_argument("--seed", type=seed, default=None, help="a non-negative seed")


def preset_rules(name: str) -> Rules:
    """The rules of the preset `name`, or a one-line usage error with the close matches."""
    if name in brisca.PRESETS:
        return brisca.PRESETS[name]
    close = difflib.get_close_matches(name, brisca.PRESETS, n=3)
    hint = ""
    if close:
        listed = close[0] if len(close) == 1 else f"{', '.join(close[:-1])} or {close[-1]}"
        hint = f"; did you mean {listed}?"
    raise Usage(
        f"unknown preset {describe(name, 40, typed=False)}{hint} (`brisca rules` lists them)"
    )


def import_hint(error: BaseException) -> str:
    """What to add to the message of a bot that could not be made because a module is
    missing: the current directory is not on Python's import path. Else ``""``."""
    seen: BaseException | None = error
    while seen is not None and not isinstance(seen, ModuleNotFoundError):
        seen = seen.__cause__ or seen.__context__
    if not isinstance(error, BotError) or seen is None:
        return ""
    module = (seen.name or "the module").partition(".")[0]
    return (
        f"; brisca does not look in the current directory, which is not on Python's import "
        f"path: if {module}.py is here, run `PYTHONPATH=. brisca ...` (or `python -m brisca ...`)"
    )


def open_for_writing(path: str) -> TextIO:
    """`path` opened for writing, or a usage error saying why it cannot be."""
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as error:
        raise Usage(f"cannot write {clean(path)}: {error.strerror or error}") from None
