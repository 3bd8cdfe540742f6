"""What the adapters share: the rewards of a hand; and the frameworks stay optional."""

from __future__ import annotations

import pytest
from helpers import python

import brisca
from brisca import HandResult, Termination
from brisca.envs.common import HandSeeds, seat_rewards, worst_reward
from brisca.game.state import BlackHandWin

TWO = ((0,), (1,))
PAIRS = ((0, 2), (1, 3))


def played(
    sides: tuple[tuple[int, ...], ...], points: tuple[int, ...], **more: object
) -> HandResult:
    winner = more.pop("winner", None)
    return HandResult(
        termination=Termination.PLAYED_OUT, sides=sides, points=points, winner=winner, **more
    )


def test_the_margin_is_the_difference_of_two_sides() -> None:
    """85 to 35: +50 and -50."""
    assert seat_rewards(played(TWO, (85, 35), winner=0), 2, "margin") == [50.0, -50.0]


def test_partners_share_the_reward() -> None:
    """Seats 0 and 2 share side 0's margin, seats 1 and 3 side 1's."""
    outcome = played(PAIRS, (50, 70), winner=1)
    assert seat_rewards(outcome, 4, "margin") == [-20.0, 20.0, -20.0, 20.0]
    assert seat_rewards(outcome, 4, "win") == [-1.0, 1.0, -1.0, 1.0]


def test_with_three_sides_the_margin_is_over_the_mean_of_the_others() -> None:
    """50, 40, 30: 50 - 35, 40 - 40, 30 - 45; the rewards sum to zero."""
    outcome = played(((0,), (1,), (2,)), (50, 40, 30), winner=0)
    assert seat_rewards(outcome, 3, "margin") == [15.0, 0.0, -15.0]


def test_a_seat_sitting_out_gets_nothing() -> None:
    """spanish-5p: seat 4 is on no side, and its reward is 0."""
    outcome = played(PAIRS, (80, 40), winner=0)
    assert seat_rewards(outcome, 5, "margin")[4] == 0.0
    assert seat_rewards(outcome, 5, "win")[4] == 0.0


def test_a_tie_is_worth_zero_to_the_sides_that_tied() -> None:
    """60-60 with nobody winning: 0 each; in a three-way game the side below loses."""
    assert seat_rewards(played(TWO, (60, 60), tied=(0, 1)), 2, "win") == [0.0, 0.0]
    assert seat_rewards(played(TWO, (60, 60), tied=(0, 1)), 2, "margin") == [0.0, 0.0]
    three = played(((0,), (1,), (2,)), (50, 50, 20), tied=(0, 1))
    assert seat_rewards(three, 3, "win") == [0.0, 0.0, -1.0]


def test_a_tie_broken_by_the_last_trick_has_a_winner() -> None:
    """casino: 60-60, the last trick's side wins: +1 and -1, though the margin is 0."""
    outcome = played(TWO, (60, 60), winner=1, tied=(0, 1), last_trick=1)
    assert seat_rewards(outcome, 2, "win") == [-1.0, 1.0]
    assert seat_rewards(outcome, 2, "margin") == [0.0, 0.0]


def test_a_void_hand_is_worth_nothing() -> None:
    """Everyone passed: 0 for all, under either reward."""
    void = HandResult(termination=Termination.VOID, sides=PAIRS, points=(0, 0), winner=None)
    assert seat_rewards(void, 4, "margin") == [0.0] * 4
    assert seat_rewards(void, 4, "win") == [0.0] * 4


def test_a_black_hand_takes_the_whole_margin() -> None:
    """A black hand wins outright: its side counts as taking all 120 points."""
    outcome = HandResult(
        termination=Termination.BLACK_HAND,
        sides=TWO,
        points=(0, 11),
        winner=0,
        details=BlackHandWin(0),
    )
    assert seat_rewards(outcome, 2, "margin") == [120.0, -120.0]


def test_the_worst_reward_is_the_lowest_a_hand_can_give() -> None:
    """-120 card points under margin, -1 under win."""
    assert (worst_reward("margin"), worst_reward("win")) == (-120.0, -1.0)


def test_hand_seeds_start_from_the_seed_given() -> None:
    """The first hand takes the seed itself; the next ones follow from it, the same each time."""
    one, two = HandSeeds(5), HandSeeds()
    assert one.next() == 5 and two.next(5) == 5
    assert one.next() == two.next() != 5


@pytest.mark.parametrize("seed", [-1, 1.5, "7", True])
def test_a_bad_seed_is_a_state_error(seed: object) -> None:
    """Seeds are non-negative integers."""
    from brisca import StateError

    expected = r"a seed must be an int from 0 to 2\*\*1024 - 1 \(a numpy integer will do\)"
    with pytest.raises(StateError, match=expected):
        HandSeeds().next(seed)


def test_import_brisca_imports_no_framework_and_the_id_needs_no_import() -> None:
    """import brisca loads neither numpy, gymnasium, pettingzoo, pyspiel, starlette,
    uvicorn nor ray, nor does the command line or the server's package; gymnasium.make
    with the module's name registers and builds the environment."""
    frameworks = (
        "numpy",
        "gymnasium",
        "pettingzoo",
        "pyspiel",
        "open_spiel",
        "starlette",
        "uvicorn",
        "ray",
    )
    script = (
        "import sys, brisca, brisca.envs, brisca.cli, brisca.server\n"
        f"print(sorted(m for m in {frameworks!r} if m in sys.modules))\n"
        "import gymnasium\n"
        "env = gymnasium.make('brisca.envs.gymnasium:brisca/Brisca-v0', rules='spanish-4p')\n"
        "print(type(env.unwrapped).__name__, env.unwrapped.rules.num_players)\n"
    )
    out = python(script)
    assert out.splitlines() == ["[]", "BriscaEnv 4"]


def test_the_gymnasium_environment_needs_no_pettingzoo() -> None:
    """brisca[gym] installs no pettingzoo: the Gymnasium environment runs without it."""
    script = (
        "import sys; sys.modules['pettingzoo'] = None\n"
        "from brisca.envs.gymnasium import BriscaEnv\n"
        "observation, info = BriscaEnv('spanish-2p').reset(seed=1)\n"
        "print(int(observation['action_mask'].sum()))\n"
    )
    out = python(script)
    assert out.split() == ["3"]  # the three cards of seat 0's hand


def test_the_openspiel_game_needs_no_gymnasium_nor_pettingzoo() -> None:
    """brisca[openspiel] installs neither: the OpenSpiel game loads and deals without them."""
    script = (
        "import sys; sys.modules['gymnasium'] = sys.modules['pettingzoo'] = None\n"
        "import pyspiel, brisca.envs.openspiel\n"
        "state = pyspiel.load_game('python_brisca').new_initial_state()\n"
        "for outcome in range(40):\n    state.apply_action(outcome)\n"
        "print(state.current_player(), len(state.legal_actions()))\n"
    )
    out = python(script)
    assert out.split() == ["0", "3"]  # seat 0 leads, with its three cards


@pytest.mark.parametrize(
    ("module", "blocked", "extra"),
    [
        ("brisca.envs.pettingzoo", "pettingzoo", "brisca[pettingzoo]"),
        ("brisca.envs.gymnasium", "gymnasium", "brisca[gym]"),
        ("brisca.envs.openspiel", "pyspiel", "brisca[openspiel]"),
    ],
)
def test_a_missing_framework_names_the_extra_to_install(
    module: str, blocked: str, extra: str
) -> None:
    """Importing an adapter without its framework says which extra installs it."""
    script = (
        f"import sys; sys.modules[{blocked!r}] = None\n"
        f"try:\n    import {module}\nexcept ImportError as error:\n    print(error)\n"
    )
    out = python(script)
    assert f"pip install '{extra}'" in out


class _Index:
    """An integer by ``__index__`` alone, as an array library's may be."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


class _BadIndex:
    """An ``__index__`` that fails with any exception: the guard's promise is the same."""

    def __init__(self, error: type[Exception]) -> None:
        self.error = error

    def __index__(self) -> int:
        raise self.error("hostile")


def test_one_integer_guard_takes_numpy_integers_and_refuses_bools_floats_and_bad_indices() -> None:
    """`brisca.game.errors.checked_integer` is the integer guard of every reader that
    meets array entries (the environments, the batch, Card's rank): an int, a numpy
    integer or any ``__index__`` will do; a bool of either kind, a float, text and an
    ``__index__`` that raises are refused with the library's error, naming the value."""
    np = pytest.importorskip("numpy")
    from brisca import Card, NotationError, StateError, Suit
    from brisca.batch import Batch
    from brisca.game.errors import as_integer, checked_integer

    for good in (1, np.int8(1), np.uint64(1), _Index(1)):
        assert as_integer(good) == 1 and type(as_integer(good)) is int
        assert checked_integer(good, "a seat", 0, 3) == 1
        assert Card(good, Suit.OROS) is Card(1, Suit.OROS)  # type: ignore[arg-type]
        assert Batch("spanish-2p", good).size == 1  # type: ignore[arg-type]
    failing = [_BadIndex(e) for e in (RecursionError, RuntimeError, ZeroDivisionError, OSError)]
    for bad in (True, np.True_, 1.0, np.float64(1), "1", None, *failing, np.array([1, 2])):
        assert as_integer(bad) is None
        with pytest.raises(StateError, match=r"a seat must be an int from 0 to 3 \(a numpy"):
            checked_integer(bad, "a seat", 0, 3)
        with pytest.raises(NotationError, match="no such card"):
            Card(bad, Suit.OROS)  # type: ignore[arg-type]
        with pytest.raises(StateError, match="size must be"):
            Batch("spanish-2p", bad)  # type: ignore[arg-type]
    with pytest.raises(StateError, match=r"a seat must be an int from 0 to 3 .* got 4 \(int64\)$"):
        checked_integer(np.int64(4), "a seat", 0, 3)
    from brisca.agents.encoding import StateEncoder, action_from_index

    rules = brisca.preset("spanish-2p")
    assert action_from_index(np.int64(3), rules) is action_from_index(3, rules)
    assert StateEncoder(rules).action(np.uint8(3)) is action_from_index(3, rules)
    with pytest.raises(NotationError, match=r"from 0 to 39 \(a numpy integer will do\), got 40"):
        action_from_index(np.int64(40), rules)
    for bad in failing:
        with pytest.raises(NotationError, match="from 0 to 39"):
            action_from_index(bad, rules)  # type: ignore[arg-type]
