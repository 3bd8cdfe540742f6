"""`brisca simulate --backend ray`, on one local Ray instance of two CPUs the tests start.

The command runs in this process, where it uses the tests' Ray connection, or as
``python -m brisca`` in a subprocess, which reaches the same instance by its address.
Its workers import the failing bots of ``ray_bots`` from this folder.
"""

from __future__ import annotations

import copy
import logging
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import ray
import ray_bots
from helpers import python

from brisca import BriscaError, simulate, simulate_ray
from brisca.agents.bots import bot_seed
from brisca.cli import main

TESTS = Path(__file__).resolve().parent
#: Seconds the tests let Ray's processes take to start and register, through Ray's own
#: settings: far above its defaults, so that a busy machine slows the tests, not fails them.
STARTUP_WAIT = 300
#: Ray's own wait for its node to register is fixed at 30 s, so a start is tried again.
STARTUP_ATTEMPTS = 3
STARTUP_KNOBS = (
    "RAY_raylet_start_wait_time_s",
    "RAY_worker_register_timeout_seconds",
    "RAY_gcs_rpc_server_reconnect_timeout_s",
)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A local Ray instance for this module, shut down after it; its address."""
    orders = tmp_path_factory.mktemp("orders")
    with pytest.MonkeyPatch.context() as patch:
        path = os.pathsep.join(p for p in (str(TESTS), os.environ.get("PYTHONPATH")) if p)
        patch.setenv("PYTHONPATH", path)  # the workers inherit it, and import ray_bots
        patch.setenv(ray_bots.FOLDER, str(orders))
        patch.delenv("RAY_ADDRESS", raising=False)
        patch.delenv("RAY_AUTH_MODE", raising=False)  # ray.init sets it; put back after
        # On a loaded machine Ray's processes start slowly: wait for them generously
        # (STARTUP_WAIT seconds each) rather than fail on Ray's shorter defaults.
        for knob in STARTUP_KNOBS:
            patch.setenv(knob, str(STARTUP_WAIT))
        info = None
        for attempt in range(1, STARTUP_ATTEMPTS + 1):
            try:
                info = ray.init(
                    num_cpus=2,
                    include_dashboard=False,
                    object_store_memory=100 * 2**20,
                    logging_level=logging.WARNING,
                )
                break
            except Exception as error:  # any failure to start: try again, then say so
                ray.shutdown()
                if attempt == STARTUP_ATTEMPTS:
                    pytest.fail(
                        f"a local Ray instance did not start in {STARTUP_ATTEMPTS} attempts, "
                        f"waiting up to {STARTUP_WAIT} s for its processes "
                        f"({', '.join(STARTUP_KNOBS)}): {type(error).__name__}: {error}"
                    )
        assert info is not None
        try:
            yield str(info.address_info["address"])
        finally:
            ray.shutdown()


@pytest.fixture
def orders(cluster: str) -> Iterator[Path]:
    """The folder of orders to the failing bots, emptied after each test."""
    folder = Path(os.environ[ray_bots.FOLDER])
    yield folder
    for order in folder.iterdir():
        order.unlink()


def simulate_here(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``brisca simulate ARGS`` in this process: the exit status, standard output and error."""
    capsys.readouterr()
    status = main(["simulate", "-q", *args])
    out, err = capsys.readouterr()
    return status, out, err


def summary_rows(out: str) -> list[str]:
    """The summary of `brisca simulate` without its timing line."""
    rows = [line for line in out.splitlines() if "games/s" not in line]
    assert len(rows) >= 5, out  # the title, the header, a rule and a row per side
    return rows


@pytest.mark.parametrize(
    ("preset", "bots"),
    [("spanish-2p", "heuristic,random"), ("spanish-5p", "heuristic,random,random")],
)
def test_ray_gives_the_games_of_a_local_run(
    cluster: str, capsys: pytest.CaptureFixture[str], tmp_path: Path, preset: str, bots: str
) -> None:
    """The same seed gives the same summary and the same records, line for line, on Ray
    as with one local process; spanish-5p, a seat sitting out, has a row per seat."""
    common = ("--preset", preset, "--bots", bots, "-n", "150", "--seed", "11")
    local, ray_out = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    status, here, _ = simulate_here(capsys, *common, "--jobs", "1", "--out", str(local))
    assert status == 0
    status, there, err = simulate_here(capsys, *common, "--backend", "ray", "--out", str(ray_out))
    assert status == 0, err
    assert summary_rows(there) == summary_rows(here)
    assert f"{preset}: 150 games, seed 11" in there
    assert ray_out.read_bytes() == local.read_bytes()
    assert len(local.read_text(encoding="utf-8").splitlines()) == 150


def test_a_killed_worker_costs_its_shard_a_second_run_and_no_game_twice(
    orders: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A worker dies in the middle of a shard: Ray plays that shard again, and the
    summary and records are the local run's, each game once."""
    common = ("--bots", "heuristic,ray_bots:Dying", "-n", "120", "--seed", "5")
    local = tmp_path / "local.jsonl"
    status, here, _ = simulate_here(capsys, *common, "--out", str(local))
    assert status == 0
    run = simulate.tasks("spanish-2p", ("heuristic", "ray_bots:Dying"), 120, 5)
    size = simulate_ray.shard_size(120, 2)
    doomed = size + size // 2  # in the middle of the second shard
    (orders / "die-once").write_text(str(bot_seed(run[doomed].seed, 1)), encoding="utf-8")
    out = tmp_path / "ray.jsonl"
    status, there, err = simulate_here(capsys, *common, "--backend", "ray", "--out", str(out))
    assert status == 0, err
    assert (orders / "died").exists() and not (orders / "die-once").exists()  # it did die
    assert summary_rows(there) == summary_rows(here)
    assert out.read_bytes() == local.read_bytes()


def test_a_shard_lost_more_often_than_ray_retries_fails_the_run(
    orders: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game whose worker dies at every attempt: exit 1, naming the games lost; no summary."""
    run = simulate.tasks("spanish-2p", ("random", "ray_bots:Dying"), 8, 2)
    (orders / "die-always").write_text(str(bot_seed(run[6].seed, 1)), encoding="utf-8")
    common = ("--bots", "random,ray_bots:Dying", "-n", "8", "--seed", "2", "--backend", "ray")
    status, out, err = simulate_here(capsys, *common)
    assert status == 1
    assert f"game 6 lost: Ray gave up after {simulate_ray.RETRIES} retries" in err
    assert out == ""


def test_jobs_on_ray_are_shards_in_flight_with_no_cap_of_local_workers(
    cluster: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--jobs` past the 256 local worker processes is refused locally, where each is a
    process, and taken on Ray, where it bounds only the shards in flight."""
    common = ("-n", "20", "--seed", "3", "--jobs", "1000")
    status, _, err = simulate_here(capsys, *common)
    assert status == 2 and "--jobs must be from 1 to 256" in err
    status, there, err = simulate_here(capsys, *common, "--backend", "ray")
    assert status == 0, err
    status, here, _ = simulate_here(capsys, "-n", "20", "--seed", "3")
    assert summary_rows(there) == summary_rows(here)
    status, _, err = simulate_here(capsys, "-n", "2", "--jobs", "0", "--backend", "ray")
    assert status == 2 and "--jobs must be 1 or more" in err


def test_a_games_own_error_is_reported_as_in_a_local_run(
    cluster: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bot's illegal action is the same usage error on Ray as here, not a lost shard."""
    common = ("--bots", "ray_bots:Illegal,random", "-n", "20", "--seed", "1")
    status, _, here = simulate_here(capsys, *common)
    assert status == 2 and "brisca: " in here
    status, _, there = simulate_here(capsys, *common, "--backend", "ray")
    assert status == 2
    assert here.strip().splitlines()[-1] in there


def run_command(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m brisca simulate ARGS`` in a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "brisca", "simulate", "-q", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
        env={**os.environ, **(env or {})},
    )


def test_the_command_reaches_a_cluster_by_address_or_by_ray_address(
    cluster: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--address` and, without it, RAY_ADDRESS reach the running instance: the same games."""
    common = ("-n", "60", "--seed", "8")
    status, here, _ = simulate_here(capsys, *common)
    assert status == 0
    given = run_command(*common, "--backend", "ray", "--address", cluster)
    assert given.returncode == 0, given.stderr
    assert summary_rows(given.stdout) == summary_rows(here)
    env = {"RAY_ADDRESS": cluster}
    from_env = run_command(*common, "--backend", "ray", "--jobs", "1", env=env)
    assert from_env.returncode == 0, from_env.stderr
    assert summary_rows(from_env.stdout) == summary_rows(here)


def _closed_port() -> int:
    """A port on the loopback address where nothing listens (it was just freed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.parametrize(
    ("address", "says"),
    [
        (f"127.0.0.1:{_closed_port()}", "Connection refused"),
        ("head-node", "an address is host:port, ray://host:port or auto"),
    ],
)
def test_an_address_where_no_cluster_is_is_a_clear_usage_error(address: str, says: str) -> None:
    """Nothing at the address, or no address at all: exit 2 at once, with why, no traceback."""
    done = run_command("-n", "5", "--backend", "ray", "--address", address)
    assert done.returncode == 2
    assert f"brisca: no Ray cluster at {address!r}: {says}" in done.stderr
    assert "Traceback" not in done.stderr


def test_without_ray_the_backend_names_the_extra_to_install() -> None:
    """With Ray missing, `--backend ray` is a usage error naming `pip install 'brisca[ray]'`;
    the local backend needs no Ray."""
    script = (
        "import sys; sys.modules['ray'] = None\n"
        "from brisca.cli import main\n"
        "print(main(['simulate', '-q', '-n', '3', '--seed', '1']))\n"
        "print(main(['simulate', '-n', '3', '--backend', 'ray']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.stdout.splitlines()[-1] == "2", done.stdout + done.stderr
    assert "games/s" in done.stdout  # the local run played
    assert "--backend ray needs Ray" in done.stderr
    assert "pip install 'brisca[ray]'" in done.stderr


def test_the_command_and_a_local_run_import_no_ray() -> None:
    """Ray is imported for --backend ray only: not by the command's modules,
    brisca.runs.simulate or a local run."""
    script = (
        "import sys, brisca, brisca.runs.simulate\n"
        "from brisca.cli import main\n"
        "main(['simulate', '-q', '-n', '3', '--seed', '1'])\n"
        "print('ray' in sys.modules)\n"
    )
    assert python(script).splitlines()[-1] == "False"


def test_address_without_the_ray_backend_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """--address means nothing to the local backend: said so, rather than ignored."""
    status, _, err = simulate_here(capsys, "-n", "3", "--address", "127.0.0.1:6379")
    assert status == 2
    assert "--address names a Ray cluster, for --backend ray" in err


def test_the_address_comes_from_the_option_then_the_environment_else_a_local_instance(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What connect asks Ray for: --address first, then RAY_ADDRESS, else a new local
    instance ("local", so that Ray does not join some other cluster it finds)."""
    asked: list[str | None] = []
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda address=None, **options: asked.append(address))
    monkeypatch.setattr(ray, "cluster_resources", lambda: {"CPU": 3.0})
    monkeypatch.setattr(simulate_ray, "_unreachable", lambda address: None)
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.9:6379")
    made = simulate_ray.connect("10.0.0.1:6379")
    assert (made.address, made.cpus, made.owned) == ("10.0.0.1:6379", 3, True)
    assert simulate_ray.connect().address == "10.0.0.9:6379"
    monkeypatch.delenv("RAY_ADDRESS")
    local = simulate_ray.connect()
    assert local.address is None and str(local).startswith("started a local Ray instance (3 CPUs)")
    assert asked == ["10.0.0.1:6379", "10.0.0.9:6379", "local"]


def test_run_cuts_the_games_into_contiguous_shards_and_bounds_those_in_flight(
    cluster: str,
) -> None:
    """run() yields each shard's games from its first index; gather puts them in order."""
    tasks = simulate.tasks("spanish-2p", ("random", "random"), 10, 4)
    chunks = list(simulate_ray.run(tasks, in_flight=1, size=4))
    assert sorted(start for start, _ in chunks) == [0, 4, 8]
    assert [len(games) for _, games in sorted(chunks)] == [4, 4, 2]
    games = simulate.gather(chunks, 10)
    assert games == [simulate.play(task) for task in tasks]
    with pytest.raises(BriscaError, match="in_flight must be a positive int"):
        simulate_ray.run(tasks, in_flight=0)


@pytest.mark.parametrize("total", [1, 7, 16, 1001])
@pytest.mark.parametrize("size", [1, 3, 16, 500])
def test_shards_cover_every_game_once_in_contiguous_ranges(total: int, size: int) -> None:
    parts = simulate_ray.shards(total, size)
    assert [k for part in parts for k in part] == list(range(total))
    assert all(len(part) == size for part in parts[:-1]) and 1 <= len(parts[-1]) <= size


def test_shards_are_about_eight_a_cpu_and_at_most_max_shard_games() -> None:
    assert simulate_ray.shard_size(160, 2) == 10
    assert simulate_ray.shard_size(5, 2) == 1
    assert simulate_ray.shard_size(10**7, 2) == simulate_ray.MAX_SHARD
    assert simulate_ray.shard_size(80, 0) == 10  # no CPUs yet (an autoscaling cluster): as one


def test_the_cluster_file_of_the_docs_passes_the_checks_ray_up_makes() -> None:
    """docs/howto/ray-cluster.yaml, filled out with Ray's defaults and checked against Ray's
    schema, as `ray up` does before it starts a machine; a misnamed head node type fails."""
    import yaml
    from ray.autoscaler._private.util import prepare_config, validate_config

    config = yaml.safe_load((TESTS.parent / "docs/howto/ray-cluster.yaml").read_text("utf-8"))
    full = prepare_config(copy.deepcopy(config))
    validate_config(full)
    assert full["available_node_types"]["head"]["resources"] == {"CPU": 0}  # plays no games
    assert any("brisca" in command for command in full["setup_commands"])
    config["head_node_type"] = "heads"
    with pytest.raises(ValueError, match="head_node_type"):
        validate_config(prepare_config(config))


def test_bad_input_to_the_ray_backend_is_a_brisca_error_before_anything_runs() -> None:
    """Bad tasks, counts and addresses are refused at the call, with what was given."""
    tasks = simulate.tasks("spanish-2p", ("random", "random"), 3, 1)
    cases = [
        (lambda: simulate_ray.run([*tasks, "game"]), "a run holds Task values, not 'game'"),
        (lambda: simulate_ray.run(tasks, size=0), "size must be a positive int, got 0"),
        (lambda: simulate_ray.shards(10, 0), "size must be a positive int, got 0"),
        (lambda: simulate_ray.shard_size(-1, 2), "total must be a non-negative int"),
        (lambda: simulate_ray.connect(6379), "an address is a str"),  # type: ignore[arg-type]
    ]
    for call, says in cases:
        with pytest.raises(BriscaError, match=says):
            call()


def test_an_empty_address_is_refused_not_taken_for_none() -> None:
    """`--address ""` names no cluster: refused, rather than falling through to
    RAY_ADDRESS or a new local instance."""
    with pytest.raises(simulate_ray.ClusterError, match="an address is a str"):
        simulate_ray.connect(" ")
