"""The arena: duplicate deals between two named bots, and its statistics."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import ClassVar

import pytest

import brisca
from brisca.agents.bots import HeuristicBot
from brisca.runs.arena import ArenaResult, run_arena, seatings
from brisca.runs.stats import sign_test, wilson_interval

HERE = Path(__file__).resolve().parent
MODULE = Path(__file__).stem  # the bots below, as module:Class names


class RecordingA:
    """Plays like the heuristic bot; remembers the seat and the hand it was dealt."""

    label = "A"
    seen: ClassVar[list[tuple[str, int, tuple[str, ...]]]] = []

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.first = True
        self.inner = HeuristicBot()

    def __call__(self, observation: brisca.Observation, legal: Sequence[brisca.Action]) -> object:
        if self.first:  # a seat's first decision comes before it has played a card
            self.first = False
            RecordingA.seen.append(
                (self.label, observation.seat, tuple(map(str, observation.hand)))
            )
        return self.inner(observation, legal)


class RecordingB(RecordingA):
    label = "B"


class Cheater:
    """Plays a card it does not hold on its third decision of a hand."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, observation: brisca.Observation, legal: Sequence[brisca.Action]) -> object:
        self.calls += 1
        if self.calls == 3:
            held = set(observation.hand)
            return brisca.Play(next(c for c in observation.rules.cards if c not in held))
        return legal[0]


class Crasher:
    """Raises on its first decision."""

    def __call__(self, observation: brisca.Observation, legal: Sequence[brisca.Action]) -> object:
        raise RuntimeError("out of ideas")


def dealt_hands(seed: int, dealer: int, rules: str) -> tuple[tuple[str, ...], ...]:
    state = brisca.new_game(rules, seed=seed, dealer=dealer)
    return tuple(tuple(map(str, hand)) for hand in state.hands)


# ---------------------------------------------------------------------------
# Duplicate deals


def test_each_deal_is_played_with_the_same_deck_and_the_partnerships_swapped() -> None:
    """spanish-4p: A holds seats 0 and 2, then 1 and 3, of the same deal, and each bot
    is dealt the cards the other was dealt in those seats."""
    RecordingA.seen.clear()
    outcome = run_arena(
        f"{MODULE}:RecordingA", f"{MODULE}:RecordingB", "spanish-4p", deals=4, seed=11
    )
    assert len(outcome.hands) == 8
    assert len(RecordingA.seen) == 8 * 4  # every seat decided once at least, in play order
    by_deal: dict[int, list[dict[int, tuple[str, tuple[str, ...]]]]] = {}
    for k, hand in enumerate(outcome.hands):
        seen = {seat: (label, cards) for label, seat, cards in RecordingA.seen[4 * k : 4 * k + 4]}
        dealt = dealt_hands(hand.seed, hand.dealer, "spanish-4p")
        for seat, (label, cards) in seen.items():
            assert hand.seating[seat] == label
            assert cards == dealt[seat]
        by_deal.setdefault(hand.deal, []).append(seen)
    for deal, (first, second) in by_deal.items():
        plays = [h for h in outcome.hands if h.deal == deal]
        assert [h.seating for h in plays] == ["ABAB", "BABA"]
        assert plays[0].seed == plays[1].seed and plays[0].dealer == plays[1].dealer
        for seat in range(4):  # the same cards at the same seat, held by the other bot
            assert first[seat][1] == second[seat][1]
            assert first[seat][0] != second[seat][0]
    assert len({h.dealer for h in outcome.hands}) == 4  # the deal moves round the table


def test_deals_differ_and_the_same_seed_gives_the_same_deals() -> None:
    """Deals come from the arena's seed: new cards each deal, the same for the same seed."""
    one = run_arena("random", "random", "spanish-2p", deals=5, seed=3)
    again = run_arena("random", "random", "spanish-2p", deals=5, seed=3)
    other = run_arena("random", "random", "spanish-2p", deals=5, seed=4)
    assert one.hands == again.hands
    assert len({h.seed for h in one.hands}) == 5
    assert {h.seed for h in one.hands}.isdisjoint({h.seed for h in other.hands})


@pytest.mark.parametrize("preset", sorted(brisca.PRESETS))
def test_seatings_give_each_bot_each_seat_equally_often(preset: str) -> None:
    """In every preset and for every dealer, the seatings are the same with A and B
    exchanged, each seat in play holds A in exactly half of them, and only the seats
    out of play are empty."""
    rules = brisca.preset(preset)
    for dealer in range(rules.num_players):
        plays = seatings(rules, dealer)
        swapped = {s.translate(str.maketrans("AB", "BA")) for s in plays}
        assert swapped == set(plays) and len(set(plays)) == len(plays)
        in_play = {
            seat for side in brisca.new_game(rules, seed=1, dealer=dealer).sides for seat in side
        }
        for seat in range(rules.num_players):
            column = [s[seat] for s in plays]
            if seat in in_play:
                assert column.count("A") == column.count("B") == len(plays) // 2
            else:
                assert set(column) == {"-"}


def test_fixed_sides_are_swapped_and_free_for_alls_rotate_one_bot_against_the_rest() -> None:
    """Two plays per deal with two fixed sides (2p, partnerships, 5p with a seat out),
    2 x seats in play otherwise (3p, subastada-3p, chiamata-5p)."""
    assert seatings("spanish-2p", 1) == ("AB", "BA")
    assert seatings("spanish-6p", 5) == ("ABABAB", "BABABA")
    assert seatings("spanish-5p", 2) == ("AB-AB", "BA-BA")  # the dealer sits out; 0+3 against 1+4
    assert set(seatings("spanish-3p", 2)) == {"ABB", "BAA", "BAB", "ABA", "BBA", "AAB"}
    assert len(seatings("subastada-3p", 0)) == 6
    assert len(seatings("chiamata-5p", 0)) == 10


@pytest.mark.parametrize(
    "preset", ["spanish-2p", "spanish-4p", "spanish-3p", "subastada-3p", "chiamata-5p"]
)
def test_a_bot_against_itself_scores_zero_on_every_deal(preset: str) -> None:
    """Bots are seeded by deal and seat, not by name: the same bot on both sides plays
    the same game in every seating, and the duplicate margins cancel exactly."""
    for bot in ("random", "heuristic"):
        outcome = run_arena(bot, bot, preset, deals=3, seed=5)
        assert outcome.deals_tied == 3 and outcome.p_value == 1.0
        assert outcome.won == outcome.lost
        assert outcome.mean_margin == pytest.approx(0.0, abs=1e-9)


def test_the_margin_is_a_sides_points_minus_the_others() -> None:
    """With two sides, A's margin is A's side's points minus B's; in a free-for-all, A's
    seat's points minus the mean of B's seats'."""
    two = run_arena("heuristic", "random", "spanish-4p", deals=2, seed=2)
    for hand in two.hands:
        mine = next(k for k, side in enumerate(hand.sides) if hand.seating[side[0]] == "A")
        assert hand.margin == hand.points[mine] - hand.points[1 - mine]
    three = run_arena("heuristic", "random", "spanish-3p", deals=1, seed=2)
    for hand in three.hands:
        points = {side[0]: p for side, p in zip(hand.sides, hand.points, strict=True)}
        a = [points[s] for s in range(3) if hand.seating[s] == "A"]
        b = [points[s] for s in range(3) if hand.seating[s] == "B"]
        assert hand.margin == pytest.approx(sum(a) / len(a) - sum(b) / len(b))


# ---------------------------------------------------------------------------
# The statistics


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [  # Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3 (score, no correction)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_interval_matches_the_published_values(
    wins: int, games: int, low: float, high: float
) -> None:
    """The 95% Wilson interval of the textbook examples, to the four places printed."""
    got = wilson_interval(wins, games)
    assert got == pytest.approx((low, high), abs=6e-5)


def test_wilson_bounds_solve_the_score_equation() -> None:
    """Each bound p solves (x/n - p)^2 = z^2 p (1 - p) / n, the interval's definition."""
    z = 1.959963984540054
    for wins, games in [(8, 10), (50, 100), (999, 1000), (3, 7)]:
        for bound in wilson_interval(wins, games):
            left = (wins / games - bound) ** 2
            assert left == pytest.approx(z * z * bound * (1 - bound) / games, abs=1e-12)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_sign_test_of_small_counts_is_the_binomial_tail_by_hand() -> None:
    """Ten deals all won: 2 x (1/2)^10. Nine to one: 2 x 11/1024. Eight to two:
    2 x (1 + 10 + 45)/1024. An even split, or nothing, is no evidence."""
    assert sign_test(10, 0) == pytest.approx(2 / 1024, rel=1e-12)
    assert sign_test(0, 10) == pytest.approx(2 / 1024, rel=1e-12)
    assert sign_test(9, 1) == pytest.approx(22 / 1024, rel=1e-12)
    assert sign_test(2, 8) == pytest.approx(112 / 1024, rel=1e-12)
    assert sign_test(1, 0) == 1.0  # 2 x 1/2
    assert sign_test(5, 5) == sign_test(0, 0) == sign_test(6, 5) == 1.0


def test_sign_test_agrees_with_exact_fractions_for_thousands_of_deals() -> None:
    """Log-space summation against exact integer arithmetic, and sane at 40,000 deals."""
    for up, down in [(120, 80), (1050, 950), (1000, 1100)]:
        n, k = up + down, min(up, down)
        exact = Fraction(2 * sum(math.comb(n, i) for i in range(k + 1)), 2**n)
        assert sign_test(up, down) == pytest.approx(float(exact), rel=1e-9)
    assert sign_test(20_000, 20_000) == 1.0
    assert 0 < sign_test(20_500, 19_500) < 1e-6


def test_the_statistics_refuse_counts_that_cannot_be() -> None:
    """Negative or fractional counts, and more wins than games, are a BriscaError."""
    for positive, negative in [(-1, 2), (1.5, 2), (2, "3")]:
        with pytest.raises(brisca.StateError, match="non-negative int"):
            sign_test(positive, negative)  # type: ignore[arg-type]
    for wins, games in [(5, 3), (-1, 3), ("2", 3), (1, 2.0), (1, -1)]:
        with pytest.raises(brisca.StateError):
            wilson_interval(wins, games)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# Bots of any kind


def test_heuristic_beats_random_in_a_hundred_deals() -> None:
    """spanish-2p: the heuristic bot is clearly stronger, at p < 0.01."""
    outcome = run_arena("heuristic", "random", "spanish-2p", deals=100, seed=2026)
    assert outcome.p_value < 0.01
    assert outcome.win_interval[0] > 0.5 and outcome.mean_margin > 0
    assert outcome.illegal == (0, 0) and outcome.errors == (0, 0)
    assert outcome.bots[0].decisions == outcome.bots[1].decisions == 100 * 2 * 20
    assert outcome.bots[0].median_seconds > 0 and outcome.bots[0].mean_seconds > 0


def test_an_illegal_action_forfeits_the_hand_and_is_counted() -> None:
    """A bot returning a card it does not hold loses that hand by the pack's points;
    the arena goes on."""
    outcome = run_arena(f"{MODULE}:Cheater", "random", "spanish-2p", deals=3, seed=1)
    assert outcome.illegal == (6, 0)
    assert outcome.lost == 6 and outcome.deals_lost == 3
    assert all(h.margin == -120 and h.forfeit is not None for h in outcome.hands)
    assert outcome.p_value == pytest.approx(0.25)  # 3 of 3: 2 x 1/8
    reverse = run_arena("random", f"{MODULE}:Cheater", "spanish-2p", deals=2, seed=1)
    assert reverse.illegal == (0, 4) and reverse.won == 4


def test_a_bot_that_raises_forfeits_the_hand_and_its_error_is_reported() -> None:
    """An exception in a bot is counted as an error, with its message, not a crash."""
    outcome = run_arena("heuristic", f"{MODULE}:Crasher", "spanish-4p", deals=2, seed=1)
    assert outcome.errors == (0, 4) and outcome.won == 4
    assert outcome.bots[1].first_error == "RuntimeError: out of ideas"
    assert "RuntimeError: out of ideas" in outcome.summary()


def test_bad_arguments_raise_a_brisca_error_that_names_them() -> None:
    """Unknown bots or presets, and counts that are not positive ints."""
    with pytest.raises(brisca.BotError, match="unknown bot 'clever'"):
        run_arena("clever", "random", "spanish-2p", deals=1)
    with pytest.raises(brisca.BotError, match="cannot import"):
        run_arena("random", "no_such_module:Bot", "spanish-2p", deals=1)
    with pytest.raises(brisca.RulesError, match="unknown preset"):
        run_arena("random", "random", "spanish-9p", deals=1)
    for bad in ({"deals": 0}, {"deals": 2.5}, {"jobs": 0}, {"seed": -1}, {"on_progress": 3}):
        with pytest.raises(brisca.BriscaError):
            run_arena("random", "random", "spanish-2p", **bad)  # type: ignore[arg-type]


def test_progress_is_reported_after_each_deal() -> None:
    calls: list[tuple[int, int]] = []
    run_arena(
        "random", "random", "spanish-2p", deals=3, seed=1, on_progress=lambda *a: calls.append(a)
    )
    assert calls == [(1, 3), (2, 3), (3, 3)]


# ---------------------------------------------------------------------------
# The command


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.run(
        [sys.executable, "-m", "brisca", "arena", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
        env=env,
    )


def without_times(data: dict[str, object]) -> dict[str, object]:
    bots = data["bots"]
    assert isinstance(bots, dict)
    kept = {k: v for k, v in data.items() if k not in ("seconds", "bots")}
    kept["decisions"] = [bots[label]["decisions"] for label in ("A", "B")]
    return kept


def test_the_command_gives_the_same_result_with_two_jobs_as_with_one(tmp_path: Path) -> None:
    """--jobs 2 shards the deals and gives the same hands and statistics; --json FILE
    and --json - write the same, parseable, result."""
    common = ("heuristic", "random", "--preset", "spanish-4p", "--deals", "30", "--seed", "9", "-q")
    one = run(*common, "--json", "-")
    assert one.returncode == 0, one.stderr
    path = tmp_path / "arena.json"
    two = run(*common, "--jobs", "2", "--json", str(path))
    assert two.returncode == 0, two.stderr
    first, second = json.loads(one.stdout), json.loads(path.read_text(encoding="utf-8"))
    assert without_times(first) == without_times(second)
    assert "sign test p =" in one.stderr and "sign test p =" in two.stdout
    for field in (
        "won", "drawn", "lost", "mean_margin", "win_rate", "win_interval", "p_value",
        "deals_won", "deals_tied", "deals_lost", "hands",
    ):  # fmt: skip
        assert field in first
    assert first["won"] + first["drawn"] + first["lost"] == 60 == len(first["hands"])
    assert first["bots"]["A"]["name"] == "heuristic" and first["bots"]["A"]["illegal"] == 0
    assert first["bots"]["B"]["median_seconds"] > 0


def test_the_command_plays_a_users_bot_and_exits_1_when_it_cheats() -> None:
    done = run(f"{MODULE}:Cheater", "heuristic", "--deals", "2", "--seed", "1", "-q")
    assert done.returncode == 1
    assert "A won 0, drew 0, lost 4" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("clever", "random"), "unknown bot 'clever'"),
        (("random", "random", "--preset", "nope"), "unknown preset 'nope'"),
        (("random", "random", "--deals", "0"), "--deals must be from 1 to 1,000,000"),
        (("random", "random", "--jobs", "0"), "--jobs must be from 1 to 256"),
        (("random", "random", "--seed", "-3"), "a seed is an int from 0 to 2**1024 - 1"),
        (("random",), "the following arguments are required: B"),
    ],
)
def test_the_command_refuses_bad_arguments_with_status_2(
    args: tuple[str, ...], message: str
) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert message in done.stderr


def test_the_result_reads_in_words() -> None:
    outcome: ArenaResult = run_arena("heuristic", "random", "spanish-3p", deals=2, seed=4)
    text = outcome.summary()
    assert text.startswith("spanish-3p: A = heuristic against B = random; 2 deals x 6 plays")
    assert "one against the rest" in text and "illegal" in text


def test_the_command_runs_without_the_progress_bar_of_the_cli_extra() -> None:
    """Without tqdm the arena still plays, and says how to get the bar."""
    script = "import sys; sys.modules['tqdm'] = None\nfrom brisca.cli import main; sys.exit(main())"
    done = subprocess.run(
        [sys.executable, "-c", script, "arena", "heuristic", "random", "--deals", "3"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "brisca[cli]" in done.stderr and "3 deals x 2 plays" in done.stdout
