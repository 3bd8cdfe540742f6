"""The ``brisca`` command's parser, and `main`, which runs one subcommand.

It is installed with the library; the ``cli`` extra, ``pip install 'brisca[cli]'``,
adds only the progress bars (tqdm), and every command works without it.
``python -m brisca`` runs the same command. Each subcommand is a module of
``brisca.cli`` with its options (``add_*arguments``) and what runs it (``*command``):

- ``brisca play``: a hand, or a match, in the terminal against the bots
  (:mod:`brisca.cli.play`);
- ``brisca simulate``: many games between bots, with a summary, here or on a Ray
  cluster (:mod:`brisca.cli.simulate`);
- ``brisca arena A B``: two bots over duplicate deals (:mod:`brisca.cli.arena`);
- ``brisca replay FILE`` and ``brisca validate FILE``: game records
  (:mod:`brisca.cli.documents`);
- ``brisca serve``: the web table and its game server (:mod:`brisca.cli.serve`);
- ``brisca rules [PRESET]`` and ``brisca show``: the rules, and a seeded hand
  between random players (:mod:`brisca.cli.rules`); ``brisca --preset NAME --seed N``
  with no subcommand is ``brisca show``.

Exit status: 0 on success, 1 when a game or record fails (an invalid record,
input that ended mid-game), 2 on a usage error.

On a terminal, suits show in colour with their symbols; not when the output is
not a terminal, nor when ``NO_COLOR`` is set. `main` picks that :class:`Style`
once, for standard output, and hands it to the subcommand. Text read from files
or typed in is shown with its control characters escaped, so that it cannot
drive the terminal.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from collections.abc import Callable, Sequence

import attrs

import brisca
from brisca.cli import arena, documents, play, rules, serve, simulate
from brisca.cli.common import Usage, import_hint
from brisca.formats.text import Style, clean
from brisca.game.errors import BriscaError

__all__ = ["COMMANDS", "SUBCOMMANDS", "Subcommand", "main"]


@attrs.frozen
class Subcommand:
    """A subcommand of ``brisca``: its line in ``brisca --help``, the function that adds
    its options to its parser, and the one that runs it and gives the exit status."""

    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, Style], int]


#: Every subcommand by name, in the order ``brisca --help`` lists them.
COMMANDS: dict[str, Subcommand] = {
    "play": Subcommand(
        "play a hand, or a match, against bots in the terminal", play.add_arguments, play.command
    ),
    "simulate": Subcommand(
        "play many games between bots and summarise them",
        simulate.add_arguments,
        simulate.command,
    ),
    "arena": Subcommand(
        "measure bot A against bot B over duplicate deals", arena.add_arguments, arena.command
    ),
    "replay": Subcommand(
        "show a recorded game trick by trick",
        documents.add_replay_arguments,
        documents.replay_command,
    ),
    "validate": Subcommand(
        "check a game record; exit 1 if it is invalid",
        documents.add_validate_arguments,
        documents.validate_command,
    ),
    "rules": Subcommand(
        "list the presets, or show one's every option",
        rules.add_rules_arguments,
        rules.rules_command,
    ),
    "show": Subcommand(
        "play out a hand between random players and show it",
        rules.add_show_arguments,
        rules.show_command,
    ),
    "serve": Subcommand(
        "serve the web table: play in a browser", serve.add_arguments, serve.command
    ),
}

#: The subcommands, in the order an unknown command's message names them.
SUBCOMMANDS = ("play", "simulate", "replay", "validate", "rules", "show", "arena", "serve")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="brisca",
        description="Brisca on the command line: play against bots, simulate, replay, "
        "validate, look up the rules.",
        epilog="With no subcommand, `brisca [--preset P] [--seed S]` runs `brisca show`.",
    )
    parser.add_argument("--version", action="version", version=f"brisca {brisca.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, subcommand in COMMANDS.items():
        subcommand.add_arguments(sub.add_parser(name, help=subcommand.help))
    return parser


def _legacy(argv: list[str]) -> list[str]:
    """The arguments with the pre-subcommand forms mapped: ``--list`` and bare options."""
    if (argv and argv[0] in SUBCOMMANDS) or any(a in ("-h", "--help", "--version") for a in argv):
        return argv
    if "--list" in argv:
        return ["rules"]
    return ["show", *argv]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``brisca`` command with `argv` (``sys.argv[1:]`` by default); the exit status."""
    given = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    if given and not given[0].startswith("-") and given[0] not in SUBCOMMANDS:
        close = difflib.get_close_matches(given[0], SUBCOMMANDS, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        parser.print_usage(sys.stderr)
        print(
            f"brisca: unknown command '{clean(given[0])}'; the commands are: "
            f"{', '.join(SUBCOMMANDS)}{hint} (`brisca COMMAND --help` for one)",
            file=sys.stderr,
        )
        return 2
    args = parser.parse_args(_legacy(given))
    style = Style.for_stream(sys.stdout)
    try:
        status = COMMANDS[args.command].run(args, style)
        sys.stdout.flush()  # here, where a failed write is answered, not at exit
        return status
    except (Usage, BriscaError) as error:  # messages may quote what the user gave
        print(f"brisca: {clean(str(error))}{import_hint(error)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into a command that stopped reading
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (nothing more is printed)
        return 1
    except OSError as error:  # a write that failed: a full disk, say (reads say Usage)
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (what is left would fail again)
        print(f"brisca: cannot write: {clean(error.strerror or str(error))}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nbrisca: interrupted", file=sys.stderr)
        return 130
