"""``brisca arena A B``: two bots over duplicate deals, from the command line.

The arena itself is :mod:`brisca.runs.arena`; this module reads the command's
arguments, shows a progress bar (tqdm, from the ``cli`` extra, when installed)
and writes the summary and, with ``--json``, the result as JSON. Exit status: 0,
or 1 when a bot tried an illegal action or raised (the hand was forfeit); bad
bots, presets and counts are usage errors (a `BriscaError`, status 2).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from typing import Any, TextIO

from brisca.agents.bots import BOTS, make_bot
from brisca.cli.common import INSTALL_HINT, add_preset_argument, add_seed_argument
from brisca.formats.text import PLAIN, Style, clean
from brisca.game.errors import BriscaError
from brisca.game.presets import PRESETS
from brisca.runs.arena import MAX_DEALS, ArenaResult, run_arena
from brisca.runs.workers import MAX_JOBS

__all__ = ["add_arguments", "command"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``brisca arena`` on `parser`."""
    bots = f"{', '.join(BOTS)}, or module:Class for your own"
    parser.add_argument("a", metavar="A", help=f"bot A, whose results are counted: {bots}")
    parser.add_argument("b", metavar="B", help="bot B, its opponent")
    add_preset_argument(parser)
    parser.add_argument(
        "--deals", type=int, default=1000, help="deals, each played with the seats exchanged"
    )
    add_seed_argument(parser)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--json", default=None, metavar="FILE", help="write the result as JSON ('-': stdout)"
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


class _Bar:
    """The progress bar over deals: tqdm's when the cli extra is installed, else none."""

    def __init__(self, total: int, quiet: bool) -> None:
        self.bar: Any = None
        self.shown = 0
        if quiet:
            return
        try:
            tqdm = importlib.import_module("tqdm").tqdm  # the cli extra
        except ImportError:
            hint = f"brisca: no progress bar without the cli extra ({INSTALL_HINT})"
            print(hint, file=sys.stderr)
            return
        self.bar = tqdm(total=total, unit="deal", file=sys.stderr, dynamic_ncols=True)

    def __call__(self, done: int, total: int) -> None:
        if self.bar is not None:
            self.bar.update(done - self.shown)
        self.shown = done

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def command(args: argparse.Namespace, style: Style = PLAIN) -> int:
    """Run ``brisca arena`` with parsed `args`; the exit status. The summary shows no
    card, so `style` changes nothing.

    Raises:
        BriscaError: a bad bot, preset, count or output file (a usage error).
    """
    if args.preset not in PRESETS:
        raise BriscaError(f"unknown preset {args.preset!r}; the presets: {', '.join(PRESETS)}")
    if not 1 <= args.deals <= MAX_DEALS:
        raise BriscaError(f"--deals must be from 1 to {MAX_DEALS:,}")
    if not 1 <= args.jobs <= MAX_JOBS:
        raise BriscaError(f"--jobs must be from 1 to {MAX_JOBS}")
    for name in (args.a, args.b):
        make_bot(name)  # an unknown bot fails before the progress bar shows
    out: TextIO | None = None
    if args.json is not None and args.json != "-":
        try:
            out = open(args.json, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
        except OSError as error:
            raise BriscaError(f"cannot write {args.json!r}: {error.strerror or error}") from None
    bar = _Bar(args.deals, args.quiet)
    try:
        result = run_arena(
            args.a,
            args.b,
            args.preset,
            deals=args.deals,
            seed=args.seed,
            jobs=args.jobs,
            on_progress=bar,
        )
    except BaseException:
        if out is not None:
            out.close()
        raise
    finally:
        bar.close()
    _write(result, args.json, out)
    return 1 if any(result.illegal) or any(result.errors) else 0


def _write(result: ArenaResult, target: str | None, out: TextIO | None) -> None:
    """The summary on stdout, or on stderr when the JSON goes to stdout; the JSON."""
    data = _json(result)
    if target == "-":
        print(result.summary(), file=sys.stderr)
        print(data)
        return
    print(result.summary())
    if out is not None:
        with out:
            out.write(data + "\n")
        print(f"wrote the result as JSON to {clean(str(target))}")


def _json(result: ArenaResult) -> str:
    """The result as JSON: the statistics indented, one line a hand."""
    fields = result.to_dict()
    hands = fields.pop("hands")
    head = json.dumps(fields, indent=1)
    lines = ",\n".join("  " + json.dumps(hand) for hand in hands)
    return f'{head[:-2]},\n "hands": [\n{lines}\n ]\n}}'
