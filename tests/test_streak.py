"""The traditional scoring's best score (tripeaks/solver/streak.py, through the compiled and the portable
kernel, each named explicitly) against an exhaustive search through the engine itself, and every best
line replayed in the engine."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tripeaks.engine.codes import CODE_SPACE, GameCode
from tripeaks.engine.game import DRAW, Action, ActionKind, Game, Status
from tripeaks.engine.layout import THREE_PEAKS
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Scoring, Variant
from tripeaks.solver import COMPILED, compiled, portable, streak
from tripeaks.solver.kernel import Kernel
from tripeaks.solver.search import solve

BOTH = (Rules.EASY, Rules.CLASSIC)
KERNELS = (compiled, portable)


WILD = ({"empty_discard": True}, {"joker": True}, {"empty_discard": True, "joker": True})
"""The options whose top can be the wildcard (rank 0): an empty discard, a joker, both."""


def traditional(number: int, rules: Rules, **options: bool) -> GameCode:
    return GameCode.from_number(number, Variant(rules, Scoring.TRADITIONAL, **options))


def reference(game: Game) -> tuple[int, int | None]:
    """The best final score over every ending and over the wins alone (None: no win), by trying
    every legal action of the engine from every position, with no pruning at all. The only memo is
    on the state the rest of the game depends on: the cards present, the cards drawn, the rank on
    top, the streak (the peaks emptied follow from the cards present) and the score itself (a draw
    takes 5 but never below 0, so what a draw costs depends on it)."""
    memo: dict[tuple[int, int, int, int, int], tuple[int, int | None]] = {}

    def final(g: Game) -> tuple[int, int | None]:
        if g.is_won:
            return g.score, g.score
        key = (g.present, g.drawn, g.top_rank, g.streak, g.score)
        if key in memo:
            return memo[key]
        best: int | None = None
        win: int | None = None
        for action in g.legal_moves():
            after = g.copy()
            after.apply(action)
            b, w = final(after)
            best = b if best is None else max(best, b)
            if w is not None:
                win = w if win is None else max(win, w)
        memo[key] = (g.score, None) if best is None else (best, win)  # no action: stuck, the end
        return memo[key]

    return final(game)


def near_the_end(code: GameCode, seed: int, cards_left: int) -> Game | None:
    """The game after random actions (plays more often than draws) until at most ``cards_left``
    cards are on the tableau; None if it ended before."""
    rng = random.Random(seed)
    game = Game.new(code)
    while game.present.bit_count() > cards_left:
        moves = list(game.legal_moves())
        if not moves:
            return None
        plays = [m for m in moves if m.kind is ActionKind.PLAY]
        game.apply(rng.choice(plays) if plays and rng.random() < 0.8 else moves[-1])
    return None if game.is_won or game.is_stuck else game


def replayed(game: Game, line: tuple[Action, ...]) -> Game:
    """The game after the line, played through the engine (an illegal step raises)."""
    after = game.copy()
    for action in line:
        after.apply(action)
    return after


def check(game: Game, solution: streak.StreakSolution) -> None:
    """The solution's lines replay in the engine to exactly the scores it claims, and end it."""
    end = replayed(game, solution.line)
    assert end.score == solution.score
    assert end.status in (Status.WON, Status.STUCK)
    assert (end.status is Status.WON) == solution.won
    if solution.winnable:
        won = replayed(game, solution.win_line)
        assert won.status is Status.WON
        assert won.score == solution.win_score
        assert solution.win_score is not None and solution.win_score <= solution.score
    else:
        assert solution.win_score is None and solution.win_line == () and not solution.won


def sample(rules: Rules, count: int, cards_left: int, seed: int, **options: bool) -> list[Game]:
    rng = random.Random(seed)
    games: list[Game] = []
    while len(games) < count:
        code = traditional(rng.randrange(CODE_SPACE), rules, **options)
        game = near_the_end(code, rng.random(), cards_left)
        if game is not None:
            games.append(game)
    return games


@pytest.mark.parametrize("rules", BOTH)
@pytest.mark.parametrize("kernel", KERNELS, ids=["compiled", "portable"])
def test_best_score_equals_the_exhaustive_search_near_the_end(rules: Rules, kernel: Kernel) -> None:
    for game in sample(rules, 12, 11, seed=14 + len(rules.value)):
        solution = streak.best_score(game, kernel)
        best, win = reference(game)
        assert (solution.score, solution.win_score) == (best, win), game
        assert solution.winnable == (win is not None)
        check(game, solution)


def joker_on_top(game: Game) -> Game | None:
    """The game after drawing until the joker is on the discard; None if it was drawn already."""
    rest = game.deal.stock[game.drawn :]
    if not any(card.rank == 0 for card in rest):
        return None
    game = game.copy()
    while game.top_rank != 0:
        game.apply(DRAW)
    return game


@pytest.mark.parametrize("kernel", KERNELS, ids=["compiled", "portable"])
def test_a_joker_on_top_equals_the_exhaustive_search(kernel: Kernel) -> None:
    """A joker on the discard takes any card: the searches know it as the engine does."""
    games: list[Game] = []
    for rules, seed in ((Rules.CLASSIC, 31), (Rules.EASY, 32)):
        for game in sample(rules, 30, 10, seed=seed, joker=True, empty_discard=seed == 32):
            on_top = joker_on_top(game)
            if on_top is not None and not on_top.is_stuck:
                games.append(on_top)
    assert len(games) >= 8
    for game in games[:12]:
        assert game.top_rank == 0
        solution = streak.best_score(game, kernel)
        best, win = reference(game)
        assert (solution.score, solution.win_score) == (best, win), game
        check(game, solution)


@pytest.mark.parametrize("options", WILD, ids=["D", "J", "DJ"])
def test_a_wildcard_deal_is_solved_from_its_start(options: dict[str, bool]) -> None:
    """From the start of a deal (an empty discard takes any free card, and that card is the
    streak's first): the best score is the best over the engine's legal first moves of what each
    leaves, and the line replays to it; compiled and Python agree in mid-game."""
    rng = random.Random(77)
    for _ in range(2):
        code = traditional(rng.randrange(CODE_SPACE), Rules.CLASSIC, **options)
        start = Game.new(code)
        solution = streak.best_score(start)
        check(start, solution)
        followed = []
        for action in start.legal_moves():
            after = start.copy()
            after.apply(action)
            followed.append(streak.best_score(after).score)
        assert solution.score == max(followed)
    game = sample(Rules.EASY, 1, 16, seed=78, **options)[0]
    python = streak.best_score(game, portable)
    built = streak.best_score(game, compiled)
    assert (built.score, built.win_score) == (python.score, python.win_score)
    check(game, python)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    number=st.integers(0, CODE_SPACE - 1),
    rules=st.sampled_from(BOTH),
    seed=st.integers(0, 2**32),
    cards_left=st.integers(4, 12),
)
def test_compiled_equals_the_exhaustive_search_anywhere(
    number: int, rules: Rules, seed: int, cards_left: int
) -> None:
    game = near_the_end(traditional(number, rules), seed, cards_left)
    if game is None:
        return
    solution = streak.best_score(game, compiled)
    assert (solution.score, solution.win_score) == reference(game)
    check(game, solution)


def test_a_lost_position_has_a_best_score_and_no_win() -> None:
    """A position that cannot be won still ends (stuck, the stock used up) with a best score."""
    for game in sample(Rules.CLASSIC, 60, 10, seed=3):
        best, win = reference(game)
        if win is None:
            break
    else:
        pytest.fail("no lost position in the sample")
    for kernel in KERNELS:
        solution = streak.best_score(game, kernel)
        assert solution.score == best and not solution.winnable and not solution.won
        end = replayed(game, solution.line)
        assert end.status is Status.STUCK and end.stock_size == 0 and end.score == best


@pytest.mark.parametrize("rules", BOTH)
def test_compiled_equals_python_in_mid_game(rules: Rules) -> None:
    for game in sample(rules, 3, 17, seed=7):
        built = streak.best_score(game, compiled)
        python = streak.best_score(game, portable)
        assert (built.score, built.win_score) == (python.score, python.win_score)
        check(game, built)
        check(game, python)


@pytest.mark.parametrize("rules", BOTH)
def test_compiled_equals_python_from_a_wildcard_in_mid_game(rules: Rules) -> None:
    """A joker on the discard with 20 cards left: the widest runs there are (any free card first),
    where the compiled search's cache of recent run positions answers most often (a position
    reached in another order, or again from another draw with the same streak). Its key is the
    whole state, so its answers must be the Python search's, which has no such cache."""
    games = []
    for game in sample(rules, 12, 20, seed=140 + len(rules.value), joker=True, empty_discard=True):
        on_top = joker_on_top(game)
        if on_top is not None and not on_top.is_stuck:
            games.append(on_top)
    assert len(games) >= 3
    for game in games[:3]:
        assert game.top_rank == 0
        built = streak.best_score(game, compiled)
        python = streak.best_score(game, portable)
        assert (built.score, built.win_score) == (python.score, python.win_score), game
        check(game, built)
        check(game, python)


@pytest.mark.parametrize("rules", BOTH)
def test_whole_deals_replay_to_their_best_score(rules: Rules) -> None:
    """From the start the streak begins with the game's first removals: every line replays to
    exactly its claimed score, which no random line beats and the bound never falls below."""
    rng = random.Random(len(rules.value) + 2026)
    for _ in range(5):
        code = traditional(rng.randrange(CODE_SPACE), rules)
        game = Game.new(code)
        solution = streak.best_score(code)
        check(game, solution)
        assert solution.score <= streak.bound(game.present, 0)
        for seed in range(20):
            end = near_the_end(code, seed, 0)
            if end is not None:
                assert end.score <= solution.score


def test_the_bound_is_never_below_the_best_future() -> None:
    for game in sample(Rules.EASY, 15, 9, seed=11) + sample(Rules.CLASSIC, 15, 9, seed=12):
        best, _ = reference(game)
        assert best - game.score <= streak.bound(game.present, game.streak)


def test_an_ended_game_has_its_own_score() -> None:
    code = traditional(12345, Rules.EASY)
    game = Game.new(code)
    line = streak.best_score(game).line
    for action in line:
        game.apply(action)
    solution = streak.best_score(game)
    assert solution.line == () and solution.score == game.score
    assert solution.won == game.is_won == solution.winnable


def test_open_peaks_is_the_same_search() -> None:
    """Open peaks changes what the player sees, not what can be played: the same best score."""
    plain = traditional(424242, Rules.CLASSIC)
    opened = GameCode(Variant(Rules.CLASSIC, Scoring.TRADITIONAL, open_peaks=True), plain.letters)
    assert streak.best_score(opened).score == streak.best_score(plain).score


def test_our_scoring_and_a_left_game_are_refused() -> None:
    for code in ("TP1-E-ABCDEFG", "TP1-E-ABCDEFG-DJO"):
        with pytest.raises(ValueError, match="traditional"):
            streak.best_score(code)
    game = Game.new("TP1-E-ABCDEFG-T")
    game.leave()
    with pytest.raises(ValueError, match="left"):
        streak.best_score(game)


def test_the_extension_was_built() -> None:
    """CI builds the package with its compiler: a silent fall-back to Python must not pass."""
    assert COMPILED


def test_a_longer_streak_can_be_worth_a_draw() -> None:
    """The best win of TP1-E-WKHMCDT-T draws more than the fewest draws a win needs, and the
    fewest-draws win (the standard solver's) scores less under the traditional scoring."""
    code = GameCode.parse("TP1-E-WKHMCDT-T")
    solution = streak.best_score(code)
    fewest = solve(GameCode(code.rules, code.letters))
    draws = sum(1 for action in solution.win_line if action.kind is ActionKind.DRAW)
    assert fewest.winnable and draws > fewest.draws
    plain = replayed(Game.new(code), fewest.line)
    assert plain.is_won and solution.win_score is not None and plain.score < solution.win_score
    check(Game.new(code), solution)


def test_a_stuck_ending_can_beat_every_win() -> None:
    code = GameCode.parse("TP1-E-OHYPLZE-T")
    solution = streak.best_score(code)
    assert solution.winnable and not solution.won
    assert solution.win_score is not None and solution.score > solution.win_score
    assert replayed(Game.new(code), solution.line).status is Status.STUCK
    check(Game.new(code), solution)


def test_the_package_answers_without_the_extension() -> None:
    """Installed without a C compiler (here without the best score's extension: any of the three
    missing), the seam chooses the portable kernel once; tripeaks.solver.streak still imports and
    answers, in Python, as the compiled search does."""
    game = sample(Rules.EASY, 1, 14, seed=5)[0]
    assert game.code is not None
    script = (
        "import sys; sys.modules['tripeaks.solver._streak'] = None\n"
        "from tripeaks.solver import COMPILED, streak\n"
        "from tripeaks.engine.game import Game\n"
        "game = Game.replay(sys.argv[1], sys.argv[2:])\n"
        "answer = streak.best_score(game)\n"
        "print(COMPILED, answer.score, answer.win_score)\n"
    )
    actions = [str(action) for action in game.actions]
    done = subprocess.run(
        [sys.executable, "-c", script, str(game.code), *actions],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    built = streak.best_score(game, compiled)
    assert done.stdout.split() == ["False", str(built.score), str(built.win_score)]


def test_the_extension_refuses_a_malformed_position() -> None:
    from tripeaks.solver import _streak

    ranks, stock = bytes([1] * 28), bytes([2] * 23)
    fits, layout = compiled.streak_fits(Rules.EASY), compiled.streak_layout(THREE_PEAKS)
    # the last card, an ace on a two: 1 point, and 30 for the third peak emptied
    assert _streak.best(ranks, stock, fits, layout, 1, 0, 2, 0, 0)[:2] == (31, bytes([0]))
    assert _streak.best(ranks, stock, fits, layout, 1, 0, 2, 0, 12)[:2] == (43, bytes([0]))
    for bad in (
        (ranks[:27], stock, fits, layout, 1, 0, 2, 0, 0),
        (ranks, stock, fits, layout, 1, 24, 2, 0, 0),
        (ranks, stock, fits, layout, 1, 0, 14, 0, 0),
        (ranks, stock, fits, layout, 1 << 28, 0, 2, 0, 0),
        (bytes([0] * 28), stock, fits, layout, 1, 0, 2, 0, 0),
        (ranks, bytes([14] * 23), fits, layout, 1, 0, 2, 0, 0),
        (ranks, stock, fits, layout, 1, 0, -1, 0, 0),
        (ranks, stock, fits, layout, 1, 0, 2, 0, -1),  # the score is never below 0
    ):
        with pytest.raises(ValueError):
            _streak.best(*bad)
    with pytest.raises(ValueError, match="below 0"):
        portable.best_streak(ranks, stock, Rules.EASY, 1, 0, 2, 0, -1)


def test_the_score_never_goes_below_0_on_the_way_to_the_best() -> None:
    """TP1-E-AAAAAAB-T (issue 37): drawn from at the start, the score stays at 0 (each draw is
    max(score - 5, 0), as GNOME Aisleriot's Triple Peaks has it), and the best line draws early
    and often. Without the floor its best was 88, dipping to -26 on the way; with it the line that
    draws first and scores later is worth 114, and both searches say so."""
    code = GameCode.parse("TP1-E-AAAAAAB-T")
    game = Game.new(code)
    for _ in range(8):
        game.apply(DRAW)
        assert game.score == 0
    start = Game.new(code)
    for kernel in KERNELS:
        solution = streak.best_score(code, kernel)
        assert (solution.score, solution.win_score) == (114, 114)
        check(start, solution)
        after = start.copy()
        lowest = 0
        for action in solution.line:
            before = after.score
            after.apply(action)
            lowest = min(lowest, after.score)
            if action.kind is ActionKind.DRAW:
                assert after.score == max(before - 5, 0)
        assert lowest == 0


def low_score(code: GameCode, seed: int, cards_left: int, draw_rate: float) -> Game | None:
    """A game played in short streaks (after a play, a draw with ``draw_rate`` while the stock
    lasts): each play earns little and each draw takes 5, so its score stays low, and the floor at
    0 binds on the way to its best. None if it ended before ``cards_left`` cards are left."""
    rng = random.Random(seed)
    game = Game.new(code)
    while game.present.bit_count() > cards_left:
        moves = list(game.legal_moves())
        plays = [m for m in moves if m.kind is ActionKind.PLAY]
        can_draw = bool(moves) and moves[-1].kind is ActionKind.DRAW
        if can_draw and (not plays or (game.streak and rng.random() < draw_rate)):
            game.apply(DRAW)
        elif plays:
            game.apply(rng.choice(plays))
        else:
            return None
    return None if game.is_won or game.is_stuck else game


def floored(game: Game, line: tuple[Action, ...]) -> bool:
    """Does a draw of the line meet the floor (a score under 5, kept at 0)?"""
    after = game.copy()
    hit = False
    for action in line:
        hit = hit or (action.kind is ActionKind.DRAW and after.score < 5)
        after.apply(action)
    return hit


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    number=st.integers(0, CODE_SPACE - 1),
    rules=st.sampled_from(BOTH),
    seed=st.integers(0, 2**32),
    cards_left=st.integers(5, 12),
    draw_rate=st.floats(0.3, 0.9),
)
def test_both_searches_equal_the_exhaustive_search_at_a_low_score(
    number: int, rules: Rules, seed: int, cards_left: int, draw_rate: float
) -> None:
    """Mid-game positions reached drawing often, so the score is low and the floor binds: the
    compiled and the Python search equal the exhaustive search through the engine."""
    game = low_score(traditional(number, rules), seed, cards_left, draw_rate)
    if game is None:
        return
    want = reference(game)
    for kernel in KERNELS:
        solution = streak.best_score(game, kernel)
        assert (solution.score, solution.win_score) == want
        check(game, solution)


@pytest.mark.parametrize("rules", BOTH)
def test_the_floor_binds_on_best_lines_from_a_low_score(rules: Rules) -> None:
    """Low-score positions whose best line meets the floor (a draw at a score under 5) are
    common, and there both searches equal the exhaustive search through the engine."""
    rng = random.Random(37 + len(rules.value))
    bound_by_floor = 0
    for _ in range(16):
        game = low_score(traditional(rng.randrange(CODE_SPACE), rules), rng.random(), 9, 0.7)
        if game is None:
            continue
        want = reference(game)
        for kernel in KERNELS:
            solution = streak.best_score(game, kernel)
            assert (solution.score, solution.win_score) == want, game
            check(game, solution)
        bound_by_floor += floored(game, streak.best_score(game, compiled).line)
    assert bound_by_floor >= 3
