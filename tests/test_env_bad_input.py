"""The environments (Gymnasium, vector, PettingZoo, OpenSpiel) on bad input: every
argument of every entry point, junk or a well-typed value from another game, gets a
`BriscaError` (never a bare Python error, nor the framework's own assertion or
`gymnasium.error.Error`), and leaves the input and the environment as they were.

One seed contract holds for all of them: ``None``, or what ``brisca.new_game`` takes (an
int from 0 to ``brisca.game.rng.MAX_SEED``), a numpy integer included.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
import warnings
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from helpers import JUNK as COMMON_JUNK

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

import brisca  # noqa: E402
from brisca.game.errors import describe  # noqa: E402
from brisca.game.rng import MAX_SEED  # noqa: E402


class FailingIndex:
    """An object whose ``__index__`` raises, as a broken integer type would."""

    def __init__(self, error: type[Exception]) -> None:
        self.error = error

    def __index__(self) -> int:
        raise self.error("no index")

    def __repr__(self) -> str:
        return f"FailingIndex({self.error.__name__})"


JUNK: tuple[object, ...] = (
    *COMMON_JUNK,
    FailingIndex(ValueError),
    FailingIndex(OverflowError),
    10**400,
    float("nan"),
    float("inf"),
    frozenset(),
    "",
    b"x",
    object(),
    np.int64(-1),
    np.bool_(True),
    np.float64(1.0),
    np.array([1, 2]),
    np.array([]),
)
BAD_SEEDS: tuple[object, ...] = (
    -1,
    1.0,
    1.5,
    "7",
    True,
    np.bool_(False),
    (),
    [1],
    (1, 2),
    np.array([1, 2]),
    np.int64(-3),
    np.float64(3.0),
    FailingIndex(ValueError),
    MAX_SEED + 1,
    10**400,
    float("nan"),
    object(),
)
GOOD_SEEDS: tuple[object, ...] = (0, 3, np.int64(3), np.uint8(3), MAX_SEED)
# Well-typed values of other games: another table's rules, deck and dealer.
DONOR_RULES = brisca.preset("spanish-6p")
DONOR_DECK = brisca.new_game("spanish-6p", seed=1).deal.deck  # 48 cards


def short(value: object) -> str:
    """A test id: the value's repr, capped."""
    return describe(value, 24)


def refused_or_fine(call: Callable[[], Any]) -> bool:
    """Run `call`: True if it raised a BriscaError, False if it succeeded; anything else
    fails the test."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call()
    except brisca.BriscaError:
        return True
    return False


def frozen(value: object) -> bytes | str:
    """What `value` holds, to compare before and after a call."""
    try:
        return pickle.dumps(value)
    except Exception:  # an object() or other unpicklable junk: compare its repr
        return repr(value)


def check_unchanged(call: Callable[[Any], Any], value: Any) -> bool:
    before = frozen(value)
    refused = refused_or_fine(lambda: call(value))
    assert frozen(value) == before, "the input changed"
    return refused


# -- Gymnasium -------------------------------------------------------------------------


def gym_env(**kwargs: Any) -> Any:
    from brisca.envs.gymnasium import BriscaEnv

    return BriscaEnv("spanish-2p", **kwargs)


GYM_OPTIONS = ("rules", "seat", "opponents", "reward", "illegal", "illegal_reward", "render_mode")


@pytest.mark.parametrize("option", GYM_OPTIONS)
def test_every_gymnasium_constructor_option_refuses_junk_with_a_brisca_error(option: str) -> None:
    from brisca.envs.gymnasium import BriscaEnv

    for junk in (*JUNK, DONOR_RULES, [DONOR_RULES], ["random"] * 3):
        arguments = {"rules": "spanish-2p", option: junk}
        check_unchanged(lambda a: BriscaEnv(**a), arguments)


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=short)
def test_a_bad_seed_is_a_state_error_in_every_environment(seed: Any) -> None:
    """Where Gymnasium's own seeding raised gymnasium.error.Error, brisca says what a seed is."""
    from brisca.envs.pettingzoo import BriscaAEC, env

    resets: list[Callable[[], Any]] = [
        lambda: gym_env().reset(seed=seed),
        lambda: BriscaAEC().reset(seed=seed),
        lambda: env().reset(seed=seed),
        lambda: BriscaAEC(seed=seed),
    ]
    for reset in resets:
        with pytest.raises(brisca.StateError, match="seed"):
            reset()


@pytest.mark.parametrize("seed", GOOD_SEEDS, ids=short)
def test_every_environment_takes_new_games_seeds_numpy_integers_included(seed: object) -> None:
    from brisca.envs.pettingzoo import BriscaAEC

    expected = brisca.new_game("spanish-2p", seed=int(seed)).deal  # type: ignore[call-overload]
    env = gym_env()
    env.reset(seed=seed)
    assert env.game_state.deal == expected
    table = BriscaAEC()
    table.reset(seed=seed)  # type: ignore[arg-type]
    assert table.game_state.deal == expected


def test_a_refused_reset_leaves_the_gymnasium_environment_as_it_was() -> None:
    env, twin = gym_env(), gym_env()
    env.reset(seed=5)
    twin.reset(seed=5)
    before = env.game_state
    for options in ({"dealer": 7}, {"deck": DONOR_DECK}, {"deck": ["1O"]}, 7, [("dealer", 0)]):
        with pytest.raises(brisca.StateError):
            env.reset(seed=9, options=options)
    assert env.game_state == before
    env.reset()
    twin.reset()
    assert env.game_state == twin.game_state  # the seed stream did not move


def reset_with(reset: Callable[..., Any], options: object) -> Any:
    return reset(seed=1, options=options)


@pytest.mark.parametrize("key", ["deck", "dealer"])
def test_junk_reset_options_are_a_brisca_error_and_left_unchanged(key: str) -> None:
    from brisca.envs.pettingzoo import BriscaAEC

    resets = (gym_env().reset, BriscaAEC().reset)
    for junk in (*JUNK, DONOR_DECK, [*DONOR_DECK[:39], DONOR_DECK[0]], list(DONOR_DECK)):
        for reset in resets:
            check_unchanged(partial(reset_with, reset), {key: junk})
    for junk in JUNK:
        for reset in resets:
            if junk is not None:
                with pytest.raises(brisca.StateError, match="options"):
                    reset(options=junk)  # type: ignore[arg-type]


def finite_number(value: object) -> bool:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)):
        return False
    try:
        return bool(np.isfinite(float(value)))
    except OverflowError:
        return False


def bad_actions() -> tuple[object, ...]:
    """No index of spanish-2p's 40 actions: the junk but 7, and indices just past them."""
    junk = tuple(j for j in JUNK if not (type(j) is int and 0 <= j < 40))
    return (*junk, 40, 10**30, np.int64(40), np.array([0]), "3", 2.0)


@pytest.mark.parametrize("illegal", ["terminate", "raise"])
def test_every_bad_gymnasium_action_is_a_notation_error(illegal: str) -> None:
    env = gym_env(illegal=illegal)
    env.reset(seed=3)
    before = env.game_state
    for action in bad_actions():
        with pytest.raises(brisca.NotationError):
            env.step(action)
    assert env.game_state == before
    mask = env.action_masks()
    env.step(np.int64(int(np.flatnonzero(mask)[0])))  # a numpy index is welcome
    illegal_index = int(np.flatnonzero(~env.action_masks())[0])
    if illegal == "raise":
        with pytest.raises(brisca.IllegalActionError):
            env.step(illegal_index)
        return
    *_, terminated, _, info = env.step(illegal_index)
    assert terminated and "illegal_action" in info
    for action in (0, illegal_index, *bad_actions()):
        with pytest.raises(brisca.BriscaError):
            env.step(action)


# -- PettingZoo ------------------------------------------------------------------------


def pz_tables() -> dict[str, Any]:
    pytest.importorskip("pettingzoo")
    from brisca.envs.pettingzoo import BriscaAEC, env

    return {
        "raw": BriscaAEC("spanish-2p"),
        "terminate": env("spanish-2p"),
        "raise": env("spanish-2p", illegal="raise"),
    }


@pytest.mark.parametrize("option", ["rules", "seed", "render_mode", "reward"])
def test_every_pettingzoo_constructor_option_refuses_junk_with_a_brisca_error(option: str) -> None:
    pytest.importorskip("pettingzoo")
    from brisca.envs.pettingzoo import BriscaAEC, env

    for junk in (*JUNK, DONOR_RULES):
        check_unchanged(lambda a: BriscaAEC(**a), {option: junk})
        check_unchanged(lambda a: env(**a), {option: junk})


@pytest.mark.parametrize("option", ["illegal", "illegal_reward"])
def test_the_wrapped_pettingzoo_options_refuse_junk_with_a_brisca_error(option: str) -> None:
    pytest.importorskip("pettingzoo")
    from brisca.envs.pettingzoo import env

    for junk in JUNK:
        if option == "illegal" or not (junk is None or finite_number(junk)):
            with pytest.raises(brisca.StateError, match=option):
                env(**{option: junk})  # type: ignore[arg-type]
    for illegal in ("terminate", "raise"):
        with pytest.raises(brisca.StateError, match="illegal_reward"):
            env(illegal=illegal, illegal_reward=10**400)


@pytest.mark.parametrize("kind", ["raw", "terminate", "raise"])
def test_every_bad_pettingzoo_action_is_a_notation_error_raw_or_wrapped(kind: str) -> None:
    """The wrapped env no longer asserts (AssertOutOfBoundsWrapper), nor reads -1 from the
    mask as the last action (TerminateIllegalWrapper): it raises a NotationError."""
    table = pz_tables()[kind]
    table.reset(seed=3)
    before = table.unwrapped.game_state
    for action in bad_actions():
        with pytest.raises(brisca.NotationError):
            table.step(action)
    assert table.unwrapped.game_state == before
    assert not any(table.terminations.values())
    table.step(
        np.int64(int(np.flatnonzero(table.observe(table.agent_selection)["action_mask"])[0]))
    )
    assert table.unwrapped.game_state != before


@pytest.mark.parametrize("kind", ["raw", "terminate", "raise"])
def test_a_done_pettingzoo_agent_may_only_step_none(kind: str) -> None:
    """PettingZoo's own check raised a bare ValueError; brisca's is a StateError."""
    table = pz_tables()[kind]
    table.reset(seed=1)
    while not table.unwrapped.game_state.is_over:
        mask = table.observe(table.agent_selection)["action_mask"]
        table.step(int(np.flatnonzero(mask)[0]))
    for action in (0, np.int64(1)):
        with pytest.raises(brisca.StateError, match="only valid action is None"):
            table.step(action)
    while table.agents:
        table.step(None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if kind == "raw":
            with pytest.raises(brisca.StateError, match="reset"):
                table.step(0)
        else:
            table.step(0)  # PettingZoo's OrderEnforcingWrapper warns and ignores it


def test_a_wrapped_pettingzoo_env_refuses_calls_before_reset_with_a_state_error() -> None:
    """PettingZoo's OrderEnforcingWrapper asserted; brisca's raises a StateError."""
    for kind in ("terminate", "raise"):
        table = pz_tables()[kind]
        calls = (
            partial(table.step, 0),
            partial(table.observe, "seat_0"),
            table.render,
            table.agent_iter,
            table.state,
        )
        for call in calls:
            with pytest.raises(brisca.StateError, match="reset"):
                call()


def test_junk_agents_are_a_state_error() -> None:
    for table in pz_tables().values():
        table.reset(seed=1)
        for junk in (*JUNK, "seat_9", "seat_-1"):
            for call in (table.observe, table.action_space, table.observation_space):
                if refused_or_fine(partial(call, junk)):
                    continue
                raise AssertionError(f"{junk!r} accepted as an agent")


# -- Vector ----------------------------------------------------------------------------


def vector(**kwargs: Any) -> Any:
    pytest.importorskip("numba")
    from brisca.envs.vector import BriscaVectorEnv

    return BriscaVectorEnv(**{"rules": "spanish-2p", "num_envs": 2, **kwargs})


@pytest.mark.parametrize("option", ["rules", "num_envs", "seat", "reward"])
def test_every_vector_constructor_option_refuses_junk_with_a_brisca_error(option: str) -> None:
    for junk in (*JUNK, DONOR_RULES, [], {}, 0, 10**9):
        check_unchanged(lambda a: vector(**a), {option: junk})
    with pytest.raises(brisca.StateError, match="reward"):
        vector(reward=[])


@pytest.mark.parametrize("seed", [*BAD_SEEDS, [1, 2], np.array([1, 2])], ids=short)
def test_a_bad_vector_seed_is_a_state_error(seed: object) -> None:
    with pytest.raises(brisca.StateError, match="seed"):
        vector().reset(seed=seed)


def test_the_vector_env_takes_numpy_integer_seeds_as_ints() -> None:
    one, two = vector(), vector()
    first, _ = one.reset(seed=np.int64(4))
    second, _ = two.reset(seed=4)
    assert (first["observation"] == second["observation"]).all()
    one.reset(seed=MAX_SEED)
    with pytest.raises(brisca.StateError, match="options"):
        one.reset(options=7)


def test_bad_vector_actions_are_a_state_error_and_left_unchanged() -> None:
    env = vector()
    with pytest.raises(brisca.StateError, match="reset"):
        env.step(np.zeros(2, dtype=np.int64))
    env.reset(seed=1)
    junk_actions = (
        *(j for j in JUNK if not isinstance(j, np.ndarray) or j.shape != (2,)),
        [0.5, 1.5],
        np.array([0.0, 1.0]),
        np.array([True, False]),
        ["0", "1"],
        [0, 1, 2],
        [[0, 1, 0]],
        [10**30, 0],
        [None, 0],
        np.array([0, 1], dtype=object),
        # Reshapeable to one action a hand, but not that shape: read wrongly, not refused.
        [[0], [1]],
        np.zeros((1, 2), dtype=np.int64),
        np.zeros((2, 1, 1), dtype=np.int64),
        # A bool among ints, which numpy reads as 1.
        [True, 13],
        (0, np.bool_(False)),
    )
    for actions in junk_actions:
        before = frozen(actions)
        with pytest.raises(brisca.StateError, match="action indices"):
            env.step(actions)
        assert frozen(actions) == before
    # Integer indices outside the mask end the hand at the worst reward, as documented.
    _, rewards, terminated, _, infos = env.step(np.array([-1, 10**6]))
    assert terminated.all() and (rewards == -120.0).all() and infos["illegal_action"].all()
    env.step([np.int32(0), np.uint8(0)])


# -- OpenSpiel -------------------------------------------------------------------------


def spiel() -> Any:
    pytest.importorskip("pyspiel")
    import brisca.envs.openspiel as module

    return module


def dealt(game: Any, seed: int = 1) -> Any:
    state = game.new_initial_state()
    for outcome in game.deal_outcomes(brisca.new_game(game.rules, seed=seed).deal.deck):
        state.apply_action(outcome)
    return state


@pytest.mark.parametrize("key", ["preset", "options", "reward", "dealer"])
def test_every_openspiel_parameter_refuses_junk_with_a_brisca_error(key: str) -> None:
    module = spiel()
    for junk in (*JUNK, {"name": 7}, {"tie_rule": {"x": 1}}, {7: 1}, {"removed_cards": "²"}):
        check_unchanged(lambda p: module.BriscaGame(p), {key: junk})
    for junk in JUNK:
        if junk is not None:
            check_unchanged(module.BriscaGame, junk)


@pytest.mark.parametrize("text", ["²", "2B ²", "٣", "2B 4B ١٢"])
def test_a_non_ascii_digit_in_a_list_option_is_a_rules_error(text: str) -> None:
    """str.isdigit holds for "²", which int() cannot read: only ASCII digits are numbers."""
    module = spiel()
    with pytest.raises(brisca.RulesError):
        module.BriscaGame({"options": {"removed_cards": text}})
    import pyspiel

    with pytest.raises(brisca.RulesError):
        pyspiel.load_game(f"python_brisca(options=(removed_cards={text}))")


def test_make_py_observer_refuses_junk_with_a_state_error() -> None:
    module = spiel()
    game = module.BriscaGame({})
    for junk in JUNK:
        if junk is not None:
            with pytest.raises(brisca.StateError):
                game.make_py_observer(junk)
            with pytest.raises(brisca.StateError):
                game.make_py_observer(None, junk)
    assert game.make_py_observer(None, {}) is not None


def openspiel_states(module: Any) -> dict[str, Any]:
    game = module.BriscaGame({"preset": "spanish-2p"})
    shuffling = game.new_initial_state()
    shuffling.apply_action(5)
    playing = dealt(game)
    playing.apply_action(playing.legal_actions()[0])
    over = dealt(game)
    while not over.is_terminal():
        over.apply_action(over.legal_actions()[0])
    return {"shuffle": shuffling, "play": playing, "over": over}


# No seat of a 2-player game, nor a pseudo-player of OpenSpiel's (-1 chance, -4 terminal).
PLAYER_JUNK: tuple[object, ...] = (
    *(j for j in JUNK if not (j is None or (isinstance(j, (int, np.integer)) and j == -1))),
    2,
    6,
    -2,
    np.int64(9),
)


def with_player(method: Callable[[Any, Any], Any], argument: object, player: object) -> Any:
    return method(player, argument)


def half() -> float:
    return 0.5


def test_every_openspiel_state_method_refuses_junk_players_and_leaves_the_state() -> None:
    module = spiel()
    for name, state in openspiel_states(module).items():
        before = (state.serialize(), state.history())
        calls: dict[str, Callable[[Any], Any]] = {
            "legal_actions": state.legal_actions,
            "legal_actions_mask": state.legal_actions_mask,
            "information_state_string": state.information_state_string,
            "information_state_tensor": state.information_state_tensor,
            "observation_string": state.observation_string,
            "observation_tensor": state.observation_tensor,
            "player_return": state.player_return,
            "player_reward": state.player_reward,
            "action_to_string": partial(with_player, state.action_to_string, 0),
            "string_to_action": partial(with_player, state.string_to_action, "1O"),
            "resample_from_infostate": partial(with_player, state.resample_from_infostate, half),
        }
        for method, call in calls.items():
            for junk in PLAYER_JUNK:
                assert refused_or_fine(partial(call, junk)), (name, method, junk)
            for pseudo in (None, -1, -4):  # fine where OpenSpiel takes them
                refused_or_fine(partial(call, pseudo))
        assert (state.serialize(), state.history()) == before


def test_every_openspiel_state_method_refuses_junk_actions_and_leaves_the_state() -> None:
    module = spiel()
    for name, state in openspiel_states(module).items():
        before = (state.serialize(), state.history())
        calls: dict[str, Callable[[Any], Any]] = {
            "apply_action": state.apply_action,
            "apply_action_with_legality_check": state.apply_action_with_legality_check,
            "child": state.child,
            "action_to_string": state.action_to_string,
            "action_to_string(0, a)": partial(state.action_to_string, 0),
            "string_to_action": state.string_to_action,
            "undo_action": partial(state.undo_action, 0),
        }
        for method, call in calls.items():
            for junk in (*bad_actions(), 10**6, 2**63, np.int64(-5), "1O x"):
                assert refused_or_fine(partial(call, junk)), (name, method, junk)
        assert (state.serialize(), state.history()) == before


def test_openspiels_pseudo_players_still_work_where_openspiel_takes_them() -> None:
    import pyspiel

    module = spiel()
    states = openspiel_states(module)
    shuffle, play, over = states["shuffle"], states["play"], states["over"]
    assert shuffle.legal_actions(shuffle.current_player()) == shuffle.legal_actions()
    assert over.legal_actions(over.current_player()) == []
    assert play.legal_actions(1 - play.current_player()) == []
    first = play.history()[0]
    assert play.action_to_string(pyspiel.PlayerId.CHANCE, first).startswith("deal ")
    seat = play.current_player()
    legal = play.legal_actions()[0]
    assert play.string_to_action(play.action_to_string(legal)) == legal
    assert play.action_to_string(np.int64(seat), np.int64(legal)) == play.action_to_string(legal)
    assert play.observation_tensor(np.int64(seat)) == play.observation_tensor(seat)
    child = play.child(np.int64(legal))
    assert child.history() == [*play.history(), legal]


def returned(value: object) -> object:
    return value


def test_the_openspiel_resampler_refuses_junk_samplers() -> None:
    module = spiel()
    state = openspiel_states(module)["play"]
    before = state.serialize()
    for junk in JUNK:
        with pytest.raises(brisca.StateError, match="sampler"):
            state.resample_from_infostate(0, junk)
        # A number from 0 to 1 is a draw; anything else is refused.
        if not finite_number(junk) or not 0 <= float(junk) <= 1:  # type: ignore[arg-type]
            with pytest.raises(brisca.StateError, match="sampler"):
                state.resample_from_infostate(0, partial(returned, junk))
    assert state.serialize() == before


def test_the_openspiel_observer_refuses_junk_states_and_players() -> None:
    module = spiel()
    states = openspiel_states(module)
    other = dealt(module.BriscaGame({"preset": "spanish-3p"}))
    for perfect_recall in (False, True):
        observer = module.BriscaObserver(
            states["play"].get_game().rules, perfect_recall=perfect_recall
        )
        for junk in (*JUNK, other):
            for call in (observer.set_from, observer.string_from):
                with pytest.raises(brisca.StateError):
                    call(junk, 0)
        for state in states.values():
            for junk in PLAYER_JUNK:
                for call in (observer.set_from, observer.string_from):
                    with pytest.raises(brisca.StateError):
                        call(state, junk)
            assert observer.string_from(state, np.int64(0)) == observer.string_from(state, 0)
    for junk in (*JUNK, DONOR_RULES.to_dict()):
        if junk is not False:
            assert refused_or_fine(partial(module.BriscaObserver, junk, perfect_recall=False))
            if not isinstance(junk, (bool, np.bool_)):
                rules = brisca.preset("spanish-2p")
                assert refused_or_fine(partial(module.BriscaObserver, rules, perfect_recall=junk))


def test_junk_serialized_states_and_decks_are_a_brisca_error() -> None:
    module = spiel()
    game = module.BriscaGame({})
    text = openspiel_states(module)["play"].serialize()
    for junk in (*JUNK, text[:-5], "x\ny\nz", "\n\n", text + "x", text.replace("=", "?")):
        assert refused_or_fine(partial(game.deserialize_state, junk))
    for junk in (*JUNK, DONOR_DECK, list(brisca.preset("spanish-2p").cards)[:-1]):
        check_unchanged(game.deal_outcomes, junk)


def test_a_state_serialized_before_the_player_count_was_kept_still_works() -> None:
    module = spiel()
    state = openspiel_states(module)["play"]
    del state._n  # as a state pickled before it was kept
    assert state.information_state_string(0) and state.legal_actions(0) is not None
    with pytest.raises(brisca.StateError, match="from 0 to 1"):
        state.observation_tensor(2)


def test_a_game_refused_at_construction_prints_without_crashing() -> None:
    """A BriscaGame whose parameters are refused has no OpenSpiel half; OpenSpiel's repr
    of it crashed the process (pytest's traceback shows `self`). In a child process."""
    spiel()
    code = """if True:
        import brisca, brisca.envs.openspiel as module
        try:
            module.BriscaGame({"reward": "points"})
        except brisca.StateError as error:
            tb, games = error.__traceback__, []
            while tb:
                seen = tb.tb_frame.f_locals.values()
                games += [v for v in seen if isinstance(v, module.BriscaGame)]
                tb = tb.tb_next
            assert games and all("not built" in repr(g) + str(g) for g in games)
    """
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-500:]


def test_every_environment_refuses_a_bad_action_index_in_the_same_words() -> None:
    """Gymnasium and PettingZoo, raw or wrapped, read an action index through one guard
    (only the wrapped PettingZoo env reads None, as the step of a done agent)."""
    tables = [gym_env(), *pz_tables().values()]
    for table in tables:
        table.reset(seed=3)
    for action in (a for a in bad_actions() if a is not None):
        words = set()
        for table in tables:
            with pytest.raises(brisca.NotationError) as refused:
                table.step(action)
            words.add(str(refused.value))
        assert len(words) == 1, (action, words)
        (said,) = words
        assert said.startswith("an action index for these rules must be an int from 0 to 39")
