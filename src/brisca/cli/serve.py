"""``brisca serve``: the reference game server and its web table, on this machine.

It needs the ``serve`` extra, ``pip install 'brisca[serve]'`` (Starlette and
uvicorn); without it the command says so and exits 2. The server itself is
:mod:`brisca.server`; this module reads the options, opens the listening socket
(so that the URL it prints is the one that answers, ``--port 0`` included) and
runs the application under uvicorn until interrupted.
"""

from __future__ import annotations

import argparse
import socket
import sys

from brisca.formats.text import PLAIN, Style
from brisca.game.errors import BriscaError, checked_int, describe, text_of

__all__ = ["INSTALL_HINT", "MAX_FRAME", "add_arguments", "command", "listen"]

INSTALL_HINT = "pip install 'brisca[serve]'"
#: The largest WebSocket frame uvicorn takes before it closes the connection. Messages
#: between `brisca.server.protocol.MAX_MESSAGE` and this are refused with an error.
MAX_FRAME = 65536


def _int(text: str) -> int:
    """An int option, as argparse's ``type=int`` reads it; but one it cannot read is
    quoted through `describe`, where argparse would quote it whole, however long."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"invalid int value: {describe(text, typed=False)}"
        ) from None


def _float(text: str) -> float:
    """A number option, as argparse's ``type=float`` reads it, quoted as `_int` does."""
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"invalid float value: {describe(text, typed=False)}"
        ) from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``brisca serve`` on `parser`."""
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    parser.add_argument(
        "--port", type=_int, default=8000, help="the port (default 8000; 0 picks a free one)"
    )
    parser.add_argument(
        "--bot-delay",
        type=_float,
        default=0.4,
        help="seconds a bot waits before it plays, so that people can follow (default 0.4)",
    )
    parser.add_argument(
        "--store", metavar="PATH", help="keep the tables in this SQLite file, across restarts"
    )
    parser.add_argument(
        "--idle-timeout", type=_float, help="seconds before an idle table is closed (default 3600)"
    )
    parser.add_argument(
        "--tables-per-address", type=_int, help="tables in play one address may make (default 20)"
    )
    parser.add_argument(
        "--bot-tables", type=_int, help="tables of bots alone in play at once (default 4)"
    )
    parser.add_argument(
        "--compress",
        action="store_true",
        help="offer WebSocket compression (permessage-deflate): smaller updates, more CPU",
    )


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on `host` and `port`.

    Raises:
        BriscaError: `host` is not text, `port` not an int from 0 to 65535, or the
            address cannot be had (in use, or not this machine's).
    """
    text = text_of(host)  # its plain text: a subclass's own methods never run
    if text is None:
        raise BriscaError(f"a host is text, got {describe(host)}")
    host = text
    checked_int(port, "a port", 0, 65535, error=BriscaError)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    # A name that cannot be encoded (UnicodeError), or that holds a NUL (TypeError).
    except (OSError, TypeError, ValueError) as error:
        sock.close()
        why = (error.strerror or str(error)) if isinstance(error, OSError) else "not a host name"
        shown = host if host.isprintable() and len(host) <= 60 else describe(host, 60, typed=False)
        raise BriscaError(f"cannot listen on {shown} port {port}: {why}") from None
    sock.listen(128)
    return sock


def url(sock: socket.socket) -> str:
    """The address a browser on this machine opens for `sock`."""
    host, port = sock.getsockname()[:2]
    if host in ("0.0.0.0", "::"):
        host = "127.0.0.1" if host == "0.0.0.0" else "::1"
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def command(args: argparse.Namespace, style: Style = PLAIN) -> int:
    """Run ``brisca serve`` with parsed `args` until interrupted; the exit status. What
    it prints shows no card, so `style` changes nothing.

    Raises:
        BriscaError: the extra is missing, the address cannot be had, a limit is not
            positive or the store's file cannot be used (a usage error).
    """
    try:
        import uvicorn

        from brisca.server.app import MOST_BOT_DELAY, Limits, create_app
        from brisca.server.store import MemoryStore, SQLiteStore
    except ImportError as missing:
        raise BriscaError(
            f"brisca serve needs the serve extra: {INSTALL_HINT} ({missing})"
        ) from None
    # Quoted through describe: a port of 4,000 digits is not shown whole.
    if type(args.port) is not int or not 0 <= args.port <= 65535:
        raise BriscaError(f"--port must be from 0 to 65535, got {describe(args.port, typed=False)}")
    delay = args.bot_delay
    if type(delay) not in (int, float) or not 0 <= delay <= MOST_BOT_DELAY:
        raise BriscaError(
            f"--bot-delay must be from 0 to {MOST_BOT_DELAY} seconds, "
            f"got {describe(delay, typed=False)}"
        )
    chosen = {
        "idle_timeout": args.idle_timeout,
        "tables_per_address": args.tables_per_address,
        "bot_tables": args.bot_tables,
    }
    limits = Limits(**{name: value for name, value in chosen.items() if value is not None})
    store = MemoryStore() if args.store is None else SQLiteStore(args.store)
    try:
        sock = listen(args.host, args.port)
        print(f"brisca serve: open {url(sock)} in a browser (Ctrl+C stops it)", flush=True)
        if args.host not in ("127.0.0.1", "localhost", "::1"):
            print("brisca serve: listening beyond this machine; see the docs before going public")
        config = uvicorn.Config(
            create_app(store, bot_delay=args.bot_delay, limits=limits),
            log_level="warning",
            ws_max_size=MAX_FRAME,
            # Off unless asked: deflating every update cost 9 to 15% more server CPU a
            # game, and each connection keeps its own compressor's memory.
            ws_per_message_deflate=args.compress,
            lifespan="on",
        )
        try:
            uvicorn.Server(config).run(sockets=[sock])
        finally:
            sock.close()
    finally:
        if isinstance(store, SQLiteStore):
            store.close()
    print("brisca serve: stopped", file=sys.stderr)
    return 0
