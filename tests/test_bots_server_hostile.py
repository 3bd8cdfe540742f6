"""Bots, the server's messages and limits, and ``brisca serve`` under hostile arguments.

Every public entry point of `brisca.agents.bots`, `brisca.server.protocol`,
`brisca.server.app` and `brisca.cli.serve` meets bad input with a `BriscaError` that
says what is wrong (never a bare KeyError, TypeError, OverflowError...), reads
untrusted sequences within a budget, quotes a wrong value through `describe`, and
writes only valid JSON.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest

import brisca
from brisca.agents.bots import (
    MOST_LEGAL,
    HeuristicBot,
    RandomBot,
    SearchBot,
    ask,
    make_bot,
    play_game,
    play_match,
)
from brisca.cli import main
from brisca.cli.serve import listen
from brisca.server import protocol
from brisca.server.tables import Table, new_table

STATE = brisca.new_game("spanish-2p", seed=3)
VIEW = brisca.observe(STATE, STATE.to_act)  # type: ignore[arg-type]
LEGAL = brisca.legal_actions(STATE)


class Sly(str):
    """A str whose own hash, ==, len and iteration raise: only its plain text may be read."""

    def __hash__(self) -> int:
        raise KeyError("hash")

    def __eq__(self, other: object) -> bool:
        raise KeyError("eq")

    def __len__(self) -> int:
        raise KeyError("len")

    def __iter__(self) -> Iterator[str]:
        raise KeyError("iter")


class Masked:
    """A value whose ``__class__`` raises, as isinstance asks it. Parametrized as the
    class itself (pytest asks its values' classes too), and made by `made`."""

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        raise KeyError("class")


def made(value: object) -> object:
    """A parameter as the test uses it: `Masked` is made at the test."""
    return Masked() if value is Masked else value


def name(value: object) -> str:
    """A parameter's id: its type's name."""
    return "Masked" if value is Masked else type(value).__name__


class Unreadable(Sequence[Any]):
    """A sequence whose len overflows and whose items raise."""

    def __len__(self) -> int:
        raise OverflowError("len")

    def __getitem__(self, index: Any) -> Any:
        raise KeyError(index)


class Endless(Sequence[Any]):
    """A sequence that says it holds one item and never ends."""

    def __len__(self) -> int:
        return 1

    def __getitem__(self, index: Any) -> Any:
        return brisca.Pass()


class Unhashable(Sequence[Any]):
    """A sequence whose iteration fails with a TypeError."""

    def __len__(self) -> int:
        return 1

    def __getitem__(self, index: Any) -> Any:
        return LEGAL[0]

    def __iter__(self) -> Iterator[Any]:
        raise TypeError("iter")


def no_constants(name: str) -> Any:
    raise AssertionError(f"{name} is not JSON")


def strict_json(text: str) -> Any:
    """`text` read as JSON, which has no NaN nor Infinity."""
    return json.loads(text, parse_constant=no_constants)


# ---------------------------------------------------------------------------
# make_bot: any failure to import or find a bot is a BotError


def _module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, source: str) -> str:
    (tmp_path / f"{name}.py").write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return name


@pytest.mark.parametrize(
    ("name", "why"),
    [
        (".foo:Bar", "name its module in full, not relative"),
        ("..foo:Bar", "name its module in full, not relative"),
        ("x..y:Z", "No module named 'x'"),
        ("\x00:Y", "No module named"),
        ("brisca.agents.bots:nothing.x", "has no attribute 'nothing.x'"),
    ],
)
def test_make_bot_refuses_a_module_class_it_cannot_import_with_a_bot_error(
    name: str, why: str
) -> None:
    with pytest.raises(brisca.BotError, match="cannot import the bot") as error:
        make_bot(name)
    assert why in str(error.value)


@pytest.mark.parametrize(
    ("source", "why"),
    [
        ("raise KeyError('boom')", "'boom'"),
        ("raise ValueError('x' * 5000)", "x..."),  # capped
        ("def __getattr__(name):\n    raise LookupError(name)", "Bot"),
    ],
)
def test_make_bot_turns_a_failing_module_of_the_users_into_a_bot_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str, why: str
) -> None:
    module = _module(tmp_path, monkeypatch, f"hostile_{abs(hash(source))}", source)
    with pytest.raises(brisca.BotError, match=f"^cannot import the bot '{module}:Bot': ") as error:
        make_bot(f"{module}:Bot")
    assert why in str(error.value) and len(str(error.value)) < 400


def test_make_bot_calls_plainly_a_class_whose_signature_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = _module(
        tmp_path,
        monkeypatch,
        "odd_signature_bot",
        "class Meta(type):\n"
        "    @property\n"
        "    def __signature__(cls):\n"
        "        raise RuntimeError('no signature')\n"
        "class Odd(metaclass=Meta):\n"
        "    def __call__(self, observation, legal):\n"
        "        return legal[0]\n",
    )
    bot = make_bot(f"{module}:Odd", seed=3)
    assert type(bot).__name__ == "Odd"


def test_make_bot_reads_a_str_subclass_as_its_plain_text() -> None:
    """Its own hash is never run: not by BOTS.get, nor by the import."""
    assert repr(make_bot(Sly("random"), seed=2)) == "RandomBot(seed=2)"
    with pytest.raises(brisca.BotError, match=r"^cannot import the bot '\.x:Y': name its module"):
        make_bot(Sly(".x:Y"))
    with pytest.raises(brisca.BotError, match=r"^a bot's name is a str, got an? \w+$"):
        make_bot(Masked())  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "args",
    [["arena", ".x:Y", "random", "-q"], ["simulate", "--bots", ".x:Y,random", "-q", "-n", "2"]],
)
def test_a_relative_module_class_bot_is_a_usage_error_of_the_cli(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "cannot import the bot '.x:Y': name its module in full" in err
    assert "Traceback" not in err


# ---------------------------------------------------------------------------
# The bots' `legal`: a readable sequence, of at most MOST_LEGAL actions


def _entry_points() -> dict[str, Callable[[object], object]]:
    return {
        "RandomBot.choose": lambda legal: RandomBot(1).choose(legal),  # type: ignore[arg-type]
        "RandomBot": lambda legal: RandomBot(1)(VIEW, legal),  # type: ignore[arg-type]
        "HeuristicBot": lambda legal: HeuristicBot()(VIEW, legal),  # type: ignore[arg-type]
        "SearchBot": lambda legal: SearchBot(samples=1, seed=1)(VIEW, legal),  # type: ignore[arg-type]
        "ask": lambda legal: ask(RandomBot(1), STATE, legal),  # type: ignore[arg-type]
    }


@pytest.mark.parametrize("entry", sorted(_entry_points()))
@pytest.mark.parametrize(
    ("legal", "words"),
    [
        (range(10**30), "more than 10,000 actions"),
        ((brisca.Pass(),) * (MOST_LEGAL + 1), "more than 10,000 actions"),
        ([brisca.Pass()] * (MOST_LEGAL + 1), "more than 10,000 actions"),
        (Endless(), "more than 10,000 actions"),
        (Unreadable(), r"^legal cannot be read \(KeyError\)$"),
        (Unhashable(), r"^legal cannot be read \(TypeError\)$"),
        (Masked, "must be a sequence of actions, got a Masked"),
        (bytearray(b"ab"), "must be a sequence of actions"),
        (Sly("3O"), "must be a sequence of actions"),
        (range(0), "at least one legal action"),
    ],
    ids=name,
)
def test_every_bot_refuses_legal_that_is_no_readable_bounded_sequence(
    entry: str, legal: object, words: str
) -> None:
    with pytest.raises(brisca.StateError, match=words):
        _entry_points()[entry](made(legal))


@pytest.mark.parametrize("entry", sorted(_entry_points()))
def test_every_bot_still_chooses_from_any_readable_sequence_of_legal_actions(entry: str) -> None:
    class Actions(Sequence[Any]):
        def __len__(self) -> int:
            return len(LEGAL)

        def __getitem__(self, index: Any) -> Any:
            return LEGAL[index]

    choose = _entry_points()[entry]
    chosen = {repr(choose(legal)) for legal in (LEGAL, list(LEGAL), Actions())}
    assert len(chosen) == 1 and next(iter(chosen)) in map(repr, LEGAL)


@pytest.mark.parametrize("play", [play_game, play_match])
@pytest.mark.parametrize(
    ("bots", "words"),
    [
        (Unreadable(), r"'s bots cannot be read \(KeyError\)$"),
        (Masked, "needs a sequence of bots, one per seat; got a Masked"),
        (bytearray(b"ab"), "needs a sequence of bots"),
    ],
    ids=name,
)
def test_play_refuses_bots_it_cannot_read(play: Any, bots: object, words: str) -> None:
    with pytest.raises(brisca.StateError, match=words):
        play("spanish-2p", made(bots), seed=1)


def test_play_match_and_ask_refuse_a_game_whose_class_lies() -> None:
    with pytest.raises(
        brisca.StateError, match=r"^expected a brisca\.State or Match, got a Masked$"
    ):
        ask(RandomBot(1), Masked(), LEGAL)  # type: ignore[arg-type]
    with pytest.raises(brisca.BriscaError):
        play_match(Masked, [RandomBot(1), RandomBot(2)])  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# protocol: the server's messages refuse bad arguments, and are always JSON


@pytest.mark.parametrize("code", [[], None, 5, Sly("dance"), "dance", Masked], ids=name)
def test_error_refuses_a_code_that_is_not_one_of_codes(code: object) -> None:
    with pytest.raises(brisca.StateError, match=r"^an error's code is one of bad_message, "):
        protocol.error(made(code), "x")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "why",
    [object(), 10**5000, math.nan, math.inf, None, b"x", ["x"], Masked],
    ids=name,
)
def test_error_refuses_a_reason_that_is_not_text(why: object) -> None:
    with pytest.raises(brisca.StateError, match=r"^an error's reason is text, got ") as error:
        protocol.error("illegal", made(why))  # type: ignore[arg-type]
    assert len(str(error.value)) < 100


def test_error_writes_json_of_the_plain_text_of_a_str_subclass() -> None:
    assert strict_json(protocol.error(Sly("illegal"), Sly("no\ud800"))) == {
        "type": "error",
        "code": "illegal",
        "error": "no\ud800",
    }


def _table() -> Table:
    return new_table("spanish-2p", ["human", "random"], seed=1)


@pytest.mark.parametrize(
    "call",
    [
        lambda table: protocol.update(table, 0, (), [True, False]),
        lambda table: protocol.sent(table),
    ],
    ids=["update", "sent"],
)
def test_update_and_sent_refuse_what_is_no_table(call: Callable[[object], object]) -> None:
    for junk in (None, object(), Masked(), attrs.asdict(_table(), recurse=False)):
        with pytest.raises(
            brisca.StateError, match=r"^expected a brisca\.server\.tables\.Table, got "
        ):
            call(junk)
    forged = attrs.evolve(_table(), seats=None, game=5)  # type: ignore[arg-type]
    with pytest.raises(brisca.StateError, match=r"^the table is inconsistent \(\w+Error\)$"):
        call(forged)


@pytest.mark.parametrize(
    ("connected", "words"),
    [
        ([math.nan, False], "connected must hold bools, got nan"),
        ([1, 0], "connected must hold bools, got 1"),
        ([True], "a flag for each of 2 seats"),
        ([True, False, True], "a flag for each of 2 seats"),
        (Endless(), "a flag for each of 2 seats"),
        (Unreadable(), r"^connected cannot be read \(KeyError\)$"),
        (Masked, "connected must be a sequence of flags, got a Masked"),
        ("ab", "connected must be a sequence of flags"),
        (None, "connected must be a sequence of flags"),
    ],
    ids=name,
)
def test_update_refuses_connected_that_is_not_one_bool_a_seat(
    connected: object, words: str
) -> None:
    with pytest.raises(brisca.StateError, match=words):
        protocol.update(_table(), 0, (), made(connected))  # type: ignore[arg-type]


def test_update_never_writes_nan(monkeypatch: pytest.MonkeyPatch) -> None:
    """JSON has no NaN: a table that would write one is refused, not written."""
    table = _table()
    strict_json(protocol.update(table, 0, (), (True, False)))  # the genuine one is JSON
    monkeypatch.setattr(Table, "result", lambda self: {"points": math.nan})
    with pytest.raises(brisca.StateError, match=r"^the table is inconsistent \(ValueError\)$"):
        protocol.update(table, 0, (), (True, False))


def test_read_message_reads_a_str_subclass_as_its_plain_text() -> None:
    assert protocol.read_message(Sly('{"type": "fill", "bot": "random"}')) == protocol.Fill(
        "random"
    )


# ---------------------------------------------------------------------------
# app: every limit finite and sane at construction


@pytest.fixture
def app() -> Any:
    pytest.importorskip("starlette")
    from brisca.server import app

    return app


COUNTS = [
    "tables_per_address",
    "connections_per_address",
    "connections_per_seat",
    "requests_per_address",
    "bot_tables",
]
NUMBERS = ["messages_per_second", "idle_timeout", "body_timeout"]


@pytest.mark.parametrize("field", COUNTS + NUMBERS)
@pytest.mark.parametrize(
    "value",
    [10**400, 2**1024, math.inf, -math.inf, math.nan, 0, -1, True, "5", None, "past the most"],
    ids=repr,
)
def test_limits_bound_every_limit_to_a_finite_sane_range(
    app: Any, field: str, value: object
) -> None:
    if value == "past the most":
        most = {"messages_per_second": app.MOST_RATE, "idle_timeout": app.MOST_SECONDS}
        value = most.get(field, app.MOST_SECONDS if field in NUMBERS else app.MOST_COUNT) + 1
    with pytest.raises(brisca.BriscaError, match=f"^{field} must be a positive ") as error:
        app.Limits(**{field: value})
    assert len(str(error.value)) < 150  # a huge int is named by its size, not written out


def test_limits_keep_every_value_in_range(app: Any) -> None:
    limits = app.Limits(
        tables_per_address=app.MOST_COUNT,
        messages_per_second=10**9,
        idle_timeout=0.05,
        body_timeout=app.MOST_SECONDS,
    )
    assert limits.idle_timeout / 4 == 0.0125 and float(limits.messages_per_second) == 1e9


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda app: app.Client(10**400, 0.0), "^rate must be a number from 0.01 to "),
        (lambda app: app.Client(math.nan, 0.0), "^rate must be a number"),
        (lambda app: app.Client(50, 10**400), "^now must be a number"),
        (lambda app: app.Client(50, 0.0).delay(10**400), "^now must be a number"),
        (lambda app: app.Client(50, 0.0).delay(math.inf), "^now must be a number"),
        (lambda app: app.Hub(None), "^store must be a brisca TableStore, got None"),
        (lambda app: app.Hub(Masked()), "^store must be a brisca TableStore, got a Masked"),
        (
            lambda app: app.create_app(bot_delay=10**400),
            "^bot_delay must be a number of seconds from 0 to 60, got ",
        ),
        (
            lambda app: app.create_app(bot_delay=math.nan),
            "^bot_delay must be a number of seconds from 0 to 60, got ",
        ),
        (
            lambda app: app.create_app(bot_delay="1"),
            "^bot_delay must be a number of seconds from 0 to 60, got ",
        ),
        (lambda app: app.create_app(limits={}), "^limits must be a Limits or None"),
        (lambda app: app.create_app(seeds="yes"), "^seeds must be True or False"),
        (lambda app: app.Hub(app.MemoryStore(), clock=5), "^clock must be a callable"),
    ],
)
def test_the_hub_its_clients_and_the_app_refuse_bad_arguments(
    app: Any, make: Callable[[Any], object], words: str
) -> None:
    with pytest.raises(brisca.BriscaError, match=words):
        make(app)


@pytest.mark.parametrize(
    ("declared", "refused"),
    [("9" * 5000, True), ("4097", True), ("\u00b2", False), ("0" * 5000 + "2", False)],
    ids=["5000 digits", "past MAX_BODY", "superscript two", "zeros"],
)
def test_a_body_length_of_any_text_is_read_without_error(
    app: Any, declared: str, refused: bool
) -> None:
    """Content-Length is read as ASCII digits, counted before int() reads them (it
    refuses "²", which isdigit() takes, and more than 4,300 digits)."""
    from starlette.requests import Request

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", declared.encode("latin-1")),
    ]
    request = Request({"type": "http", "headers": headers, "method": "POST"}, receive)
    hub = app.Hub(app.MemoryStore())
    if refused:
        with pytest.raises(app.Refused, match="more than 4096 bytes") as error:
            asyncio.run(app._body(request, hub, "127.0.0.1"))
        assert error.value.status == 413
    else:
        assert asyncio.run(app._body(request, hub, "127.0.0.1")) == b"{}"


# ---------------------------------------------------------------------------
# brisca serve: wrong values quoted through describe, the socket's bounds checked


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--port", "9" * 4000], "--port must be from 0 to 65535, got <int of 13288 bits>"),
        (["--port", "9" * 5000], "--port: invalid int value: '99999"),
        (["--port", "-1"], "--port must be from 0 to 65535, got -1"),
        (["--bot-delay", "x" * 5000], "--bot-delay: invalid float value: 'xxxx"),
        (["--bot-delay", "1e400"], "--bot-delay must be from 0 to 60 seconds, got inf"),
        (["--bot-delay", "nan"], "--bot-delay must be from 0 to 60 seconds, got nan"),
        (["--idle-timeout", "1e400", "--port", "0"], "idle_timeout must be a positive number"),
        (["--tables-per-address", "9" * 400, "--port", "0"], "got <int of 1329 bits>"),
        (["--bot-tables", "9" * 5000], "--bot-tables: invalid int value: '9999"),
    ],
)
def test_brisca_serve_quotes_a_wrong_value_through_describe(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    try:
        status = main(["serve", *args])
    except SystemExit as exit:  # argparse's own usage errors
        status = int(exit.code or 0)
    assert status == 2
    err = capsys.readouterr().err
    assert words in err and len(err) < 1000, err


@pytest.mark.parametrize(
    ("host", "port", "words"),
    [
        ("127.0.0.1", 10**5, "a port must be an int from 0 to 65535, got 100000"),
        ("127.0.0.1", 10**30, "a port must be an int from 0 to 65535, got "),
        ("127.0.0.1", -1, "a port must be an int from 0 to 65535, got -1"),
        ("127.0.0.1", 80.0, "a port must be an int from 0 to 65535, got 80.0"),
        (None, 0, "a host is text, got None"),
        (Masked, 0, "a host is text, got a Masked"),
        ("\x00", 0, "not a host name"),
        ("\udcff", 0, "not a host name"),
    ],
)
def test_listen_refuses_a_host_or_port_that_cannot_be(
    host: object, port: object, words: str
) -> None:
    with pytest.raises(brisca.BriscaError) as error:
        listen(made(host), port)  # type: ignore[arg-type]
    assert words in str(error.value)
