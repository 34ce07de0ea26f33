"""The traditional best score, the visible-card strategy and everything explain.py offers, on every
layout (issue 38): the compiled and the portable kernel held to each other and to the engine.

Every best line is replayed through the engine (tripeaks.engine.game.Game) to the score it claims,
near the end of a game against an exhaustive search through the engine's own legal moves (the
reference of tests/test_streak.py), and every verdict of explain.py against a fresh exact solve.
Positions come from fixed seeds, so each run meets the same ones."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from test_streak import check, reference

from tripeaks.engine.codes import Deal, GameCode, deal
from tripeaks.engine.game import Action, ActionKind, Game
from tripeaks.engine.layout import THREE_PEAKS, Layout
from tripeaks.engine.layouts import LAYOUTS
from tripeaks.engine.rules import Rules
from tripeaks.engine.score import traditional_best
from tripeaks.engine.variant import Variant
from tripeaks.solver import compiled, explain, portable, streak
from tripeaks.solver import search as solver
from tripeaks.solver.tables import WILD

LAYOUT_IDS = [layout.id for layout in LAYOUTS]
OPTIONS = ("", "J", "O", "D", "DJ", "DJO", "JO")
"""The options each layout is met with, one set a test and layout (by the layout's place)."""


def code_on(layout: Layout, number: int, rules: Rules, options: str = "") -> GameCode:
    """Deal ``number``'s letters on ``layout`` with the rules and options (T: traditional)."""
    variant = Variant(rules).with_options(options)
    return GameCode(variant, GameCode.from_number(number).letters, layout)


def options_of(layout: Layout, shift: int = 0) -> str:
    return OPTIONS[(LAYOUTS.index(layout) + shift) % len(OPTIONS)]


def random_games(code: GameCode, seed: int) -> Iterator[Game]:
    """The game after each action of a random line of the code (plays four times in five, when
    there is one), from its start until it ends."""
    rng = random.Random(seed)
    game = Game.new(code)
    while True:
        moves = list(game.legal_moves())
        if not moves:
            return
        plays = [m for m in moves if m.kind is ActionKind.PLAY]
        game.apply(rng.choice(plays) if plays and rng.random() < 0.8 else moves[-1])
        yield game


def near_the_end(
    layout: Layout, rules: Rules, options: str, cards_left: int, count: int, seed: int
) -> list[Game]:
    """``count`` games of random deals on ``layout`` played at random to at most ``cards_left``
    cards, neither won nor stuck."""
    rng = random.Random(seed)
    games: list[Game] = []
    while len(games) < count:
        code = code_on(layout, rng.randrange(26**7), rules, options)
        for game in random_games(code, rng.randrange(1000)):
            if game.present.bit_count() <= cards_left:
                if not game.is_won and not game.is_stuck:
                    games.append(game.copy())
                break
    return games


def replayed(game: Game, line: tuple[Action, ...]) -> Game:
    after = game.copy()
    for action in line:
        after.apply(action)
    return after


# The traditional best score ------------------------------------------------------------------


@pytest.mark.parametrize("layout", LAYOUTS, ids=LAYOUT_IDS)
def test_both_kernels_equal_the_exhaustive_search_near_the_end(layout: Layout) -> None:
    """The best score over every ending and over the wins alone, as the engine's every legal line
    gives them, on the layout's groups and bonuses (15 each, 30 for the last emptied)."""
    games = near_the_end(layout, Rules.EASY, "T", 9, 3, seed=LAYOUTS.index(layout))
    games += near_the_end(layout, Rules.CLASSIC, options_of(layout) + "T", 9, 3, seed=38)
    for game in games:
        best, win = reference(game)
        for kernel in (compiled, portable):
            solution = streak.best_score(game, kernel)
            assert (solution.score, solution.win_score) == (best, win), (game.code, kernel)
            check(game, solution)


@pytest.mark.parametrize("layout", LAYOUTS, ids=LAYOUT_IDS)
def test_compiled_equals_portable_in_mid_game(layout: Layout) -> None:
    for rules, seed in ((Rules.EASY, 1), (Rules.CLASSIC, 2)):
        options = options_of(layout, seed) + "T"
        for game in near_the_end(layout, rules, options, 14, 1, seed=seed):
            built = streak.best_score(game, compiled)
            python = streak.best_score(game, portable)
            assert (built.score, built.win_score) == (python.score, python.win_score), game.code
            check(game, built)
            check(game, python)


@pytest.mark.parametrize("layout", LAYOUTS, ids=LAYOUT_IDS)
def test_a_whole_deal_s_best_line_replays_to_its_score(layout: Layout) -> None:
    """From the start of a deal (compiled; the portable search takes tens of seconds there): the
    line replays to its score, which no random line beats and which the layout's most (one streak
    of every card and every group's bonus) bounds, as the portable search's bound does."""
    most = traditional_best(layout.size, len(layout.groups))
    assert streak.bound_on(layout)(layout.all_mask, 0) == most
    for rules, options in ((Rules.EASY, ""), (Rules.CLASSIC, options_of(layout, 1))):
        code = code_on(layout, 4242 + len(rules.value), rules, options + "T")
        start = Game.new(code)
        solution = streak.best_score(code)
        check(start, solution)
        assert solution.score <= most
        for seed in range(10):
            *_, end = random_games(code, seed)
            assert end.score <= solution.score


def test_the_extension_refuses_a_malformed_layout() -> None:
    from tripeaks.solver import _streak

    layout = LAYOUTS[-1]
    ranks, stock = bytes([1] * layout.size), bytes([2] * 10)
    fits, good = compiled.streak_fits(Rules.EASY), compiled.streak_layout(layout)
    # the last card, an ace on a two: 1 point, and 30 for the last group emptied
    assert _streak.best(ranks, stock, fits, good, 1, 0, 2, 0, 0)[:2] == (31, bytes([0]))
    size = layout.size
    for bad in (
        good[:-8],  # a word short
        good + bytes(8),  # a word too many
        good[:-8] + (501).to_bytes(8, "little"),  # the last group's bonus over 500
        good[: 8 * size] + bytes(8) + good[8 * size + 8 :],  # an empty group
        (1 << size).to_bytes(8, "little") + good[8:],  # a position past the layout's
        good[:8] + (2).to_bytes(8, "little") + good[16:],  # a card over itself
        # the second group twice, the first none: its positions in no group
        good[: 8 * size] + good[8 * size + 8 : 8 * size + 16] * 2 + good[8 * size + 16 :],
    ):
        with pytest.raises(ValueError):
            _streak.best(ranks, stock, fits, bad, 1, 0, 2, 0, 0)
    with pytest.raises(ValueError):  # 52 cards are more than any layout has
        _streak.best(bytes([1] * 52), stock, fits, good, 1, 0, 2, 0, 0)


# The visible-card strategy and grades -------------------------------------------------------


def ranks_of(cards: Deal) -> tuple[bytes, bytes, int]:
    tableau = bytes(card.rank for card in cards.tableau)
    stock = bytes(card.rank for card in cards.stock)
    return tableau, stock, WILD if cards.discard is None else cards.discard.rank


@pytest.mark.parametrize("layout", LAYOUTS, ids=LAYOUT_IDS)
def test_the_compiled_plays_win_exactly_what_the_python_plays_win(layout: Layout) -> None:
    """Play for play, the ties drawn from the same Mersenne Twister (advanced to anywhere in its
    stream), on every layout and with each option."""
    rng = random.Random(LAYOUTS.index(layout))
    for i in range(6):
        rules = (Rules.EASY, Rules.CLASSIC)[i % 2]
        code = code_on(layout, rng.randrange(26**7), rules, OPTIONS[i % len(OPTIONS)])
        tableau, stock, top = ranks_of(deal(code))
        ties = random.Random(rng.randrange(2**32))
        for _ in range(rng.randrange(1500)):
            ties.getrandbits(32)
        twin = random.Random()
        twin.setstate(ties.getstate())
        won = compiled.plays_won(tableau, stock, top, rules, 60, ties, layout)
        assert won == portable.plays_won(tableau, stock, top, rules, 60, twin, layout)
        assert explain.win_share(code, 40, compiled) == explain.win_share(code, 40, portable)


@pytest.mark.parametrize("layout", LAYOUTS, ids=LAYOUT_IDS)
def test_a_grade_on_every_layout_is_the_band_of_its_first_hint(layout: Layout) -> None:
    seen = []
    for n in range(4):
        rules = (Rules.EASY, Rules.CLASSIC)[n % 2]
        code = code_on(layout, 7919 * n + 38, rules, options_of(layout, n))
        grade = explain.grade(code)
        assert explain.grade(str(code)) is grade
        seen.append(grade)
        if not solver.is_winnable(code):
            assert grade is explain.Grade.UNWINNABLE
            continue
        share = explain.first_hint(code).share
        gentle, medium = explain.GRADE_BANDS[rules, layout.id]
        expected = (
            explain.Grade.GENTLE
            if share >= gentle
            else explain.Grade.MEDIUM
            if share >= medium
            else explain.Grade.HARD
        )
        assert grade is expected


def test_the_strategy_refuses_masks_past_the_layout() -> None:
    from tripeaks.solver import _strategy

    layout = LAYOUTS[-1]
    fits, covered_by, covers = compiled.strategy_tables(Rules.EASY, layout)
    ranks, stock, state = bytes([1] * layout.size), bytes([2] * 10), tuple([0] * 624 + [624])
    assert _strategy.plays_won(ranks, stock, 1, fits, covered_by, covers, 0, state) == 0
    past = (1 << layout.size).to_bytes(8, "little")
    for bad in (
        (ranks, stock, 1, fits, past + covered_by[8:], covers, 1, state),
        (ranks, stock, 1, fits, covered_by, covers[:-8] + past, 1, state),
        (ranks[:-1], stock, 1, fits, covered_by, covers, 1, state),
        (bytes([1] * 52), stock, 1, fits, covered_by * 2, covers * 2, 1, state),
    ):
        with pytest.raises(ValueError):
            _strategy.plays_won(*bad)


# Where a game was lost, and its replay -----------------------------------------------------


def winnable_code(layout: Layout, rules: Rules, options: str, start: int) -> GameCode:
    return next(
        code
        for code in (code_on(layout, start + 101 * n, rules, options) for n in range(50))
        if solver.is_winnable(code)
    )


@pytest.mark.parametrize("layout", LAYOUTS, ids=LAYOUT_IDS)
def test_where_a_game_was_lost_on_every_layout(layout: Layout) -> None:
    """A winnable deal played at random to its end: the lost position is the last winnable one of
    its line (a fresh solve of the engine's replay says winnable there, lost one move later), and
    the win shown from it replays through the engine to a win."""
    rules = (Rules.EASY, Rules.CLASSIC)[LAYOUTS.index(layout) % 2]
    options = options_of(layout) + ("T" if LAYOUTS.index(layout) % 3 == 0 else "")
    code = winnable_code(layout, rules, options, 500)
    for seed in range(40):
        *_, game = random_games(code, seed)
        if not game.is_won:
            break
    else:
        pytest.fail("every random line won")
    lost = explain.lost_at(game)
    assert lost is not None and lost.move is not None
    line = explain.line_of_play(game)
    assert lost.line == line and lost.move == line[lost.index]
    there = replayed(Game.new(code), line[: lost.index])
    assert solver.is_winnable(there)
    assert not solver.is_winnable(replayed(there, (lost.move,)))
    assert replayed(there, lost.win).is_won
    assert explain.most_removed(game) == layout.size


@pytest.mark.parametrize("layout", LAYOUTS, ids=LAYOUT_IDS)
def test_a_won_game_counts_its_draws_on_every_layout(layout: Layout) -> None:
    code = winnable_code(layout, Rules.EASY, options_of(layout, 2), 900)
    best = explain.best_win(Game.new(code))
    game = replayed(Game.new(code), best.line)
    assert game.is_won and explain.lost_at(game) is None
    assert explain.draws_used(game) == explain.Draws(best.draws, best.draws)


# The fair hint -------------------------------------------------------------------------------


def midgame(layout: Layout, options: str, seed: int) -> Game:
    """A game on ``layout`` played at random until about a third of its cards are gone, with
    cards still face down (unless its peaks are open) and the stock not used up."""
    rules = (Rules.EASY, Rules.CLASSIC)[seed % 2]
    for number in range(seed, seed + 400, 7):
        code = code_on(layout, number, rules, options)
        for game in random_games(code, number):
            if game.present.bit_count() <= layout.size * 2 // 3:
                break
        hidden = [p for p in layout.positions if game.slot(p).value == "face_down"]
        if not game.is_over and game.stock_size >= 2 and (len(hidden) >= 2 or "O" in options):
            return game
    raise AssertionError("no game in the middle")


def swapped(game: Game, tableau: bool) -> Game:
    """The same line on a deal that differs only underneath: two face-down cards swapped (with
    ``tableau``, else two cards still in the stock)."""
    hidden = [p for p in game.layout.positions if game.slot(p).value == "face_down"]
    cards = game.deal
    table, stock = list(cards.tableau), list(cards.stock)
    if tableau:
        a, b = hidden[0], hidden[-1]
        table[a], table[b] = table[b], table[a]
    else:
        a, b = game.drawn, len(stock) - 1
        stock[a], stock[b] = stock[b], stock[a]
    other = Game(Deal(tuple(table), cards.discard, tuple(stock)), game.variant, layout=game.layout)
    for action in explain.line_of_play(game):
        other.apply(action)
    assert other.deal != game.deal
    return other


def looking_alike(layout: Layout) -> list[tuple[Game, Game]]:
    """Two pairs of games on ``layout`` in mid-game that look the same to the player: one differs
    in face-down cards (in the stock when the variant opens the peaks), one in the stock still
    to draw."""
    pairs = []
    for shift, tableau in ((0, True), (3, False)):
        options = options_of(layout, shift)
        if "O" in options:
            tableau = False  # open peaks: no card on the table is hidden
        game = midgame(layout, options, 11 + shift)
        pairs.append((game, swapped(game, tableau)))
    return pairs


@pytest.mark.parametrize("layout", LAYOUTS, ids=LAYOUT_IDS)
def test_a_fair_hint_never_depends_on_the_cards_underneath(layout: Layout) -> None:
    """The player's view of two deals that differ only in face-down cards, or only in the stock
    still to draw, is the same, and so is the fair hint; every sample agrees with that view."""
    for game, other in looking_alike(layout):
        assert explain.visible_key(other) == explain.visible_key(game)
        mine, theirs = explain.solved_hint(game, 8, seed=5), explain.solved_hint(other, 8, seed=5)
        assert mine == theirs
        assert mine.move in tuple(game.legal_moves()) and mine.samples == 8
        for sample in explain.consistent_deals(game, 8, seed=5):
            twin = Game(sample, game.variant, layout=layout)
            for action in explain.line_of_play(game):
                twin.apply(action)
            assert explain.visible_key(twin) == explain.visible_key(game)


@pytest.mark.parametrize("layout", LAYOUTS, ids=LAYOUT_IDS)
def test_a_played_hint_never_depends_on_the_cards_underneath(layout: Layout) -> None:
    """The played hint (issue 40) of two deals that differ only in face-down cards, or only in
    the stock still to draw, is the same; its rollouts agree between the kernels."""
    for game, other in looking_alike(layout):
        mine, theirs = explain.played_hint(game, 8, seed=5), explain.played_hint(other, 8, seed=5)
        assert mine == theirs
        assert mine.move in tuple(game.legal_moves()) and mine.plays == 8
        deals = explain.consistent_deals(game, 8, seed=5)
        tableaux = b"".join(bytes(c.rank for c in d.tableau) for d in deals)
        stocks = b"".join(bytes(c.rank for c in d.stock) for d in deals)
        firsts = bytes(255 if m.pos is None else m.pos for m in mine.moves)
        position = (game.present, game.drawn, game.top_rank)
        args = (tableaux, stocks, game.rules, *position, firsts, 2, explain.tie_seed(game, 5))
        won = compiled.rollouts(*args, layout)
        assert won == portable.rollouts(*args, layout)
        assert all(0 <= w <= 16 for w in won)


def test_a_fair_hint_s_chances_are_fresh_solves_on_another_layout() -> None:
    layout = next(layout for layout in LAYOUTS if layout is not THREE_PEAKS)
    game = midgame(layout, "J", 4)
    line = explain.line_of_play(game)
    hint = explain.solved_hint(game, samples=6, seed=2)
    assert hint.moves == tuple(game.legal_moves())
    wins = [0] * len(hint.moves)
    for sample in explain.consistent_deals(game, 6, seed=2):
        for i, move in enumerate(hint.moves):
            twin = Game(sample, game.variant, layout=layout)
            for action in (*line, move):
                twin.apply(action)
            wins[i] += solver.is_winnable(twin)
    assert hint.wins == tuple(wins)
    assert hint.move == hint.moves[wins.index(max(wins))]


def test_the_view_names_its_layout() -> None:
    """Two layouts' games never share a view (nor a cached fair hint); Three Peaks' view is the
    one it always was, which names no layout, as its codes do not."""
    tp = Game.new(code_on(THREE_PEAKS, 5, Rules.EASY))
    assert explain.visible_key(tp).startswith(b"E|23|")
    for layout in LAYOUTS[1:]:
        key = explain.visible_key(Game.new(code_on(layout, 5, Rules.EASY)))
        assert key.startswith(f"{layout.word}-E|".encode())


def test_a_traditional_game_s_best_line_scores_by_its_groups() -> None:
    """A layout of four groups (15, 15, 15 and 30): the best line's score is the engine's, whose
    parts add every group's bonus once."""
    layout = next(layout for layout in LAYOUTS if len(layout.groups) == 4)
    for n in range(20):
        code = code_on(layout, 77 + n, Rules.EASY, "T")
        solution = streak.best_score(code)
        if solution.won:
            break
    else:
        pytest.fail("no deal whose best line wins")
    end = replayed(Game.new(code), solution.line)
    assert end.is_won and end.score == solution.score
    parts = {part.part: (part.count, part.points) for part in end.score_parts()}
    assert parts["peaks"] == (4, 15 * 3 + 30)
    assert (
        parts["runs"][1] + parts["peaks"][1] + parts["draws"][1] + parts.get("floor", (0, 0))[1]
        == end.score
    )


@pytest.mark.parametrize("layout", LAYOUTS, ids=LAYOUT_IDS)
def test_a_played_hint_solves_as_many_samples_as_its_table_takes(
    layout: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The exact solves of a played hint's screen are the table's (explain.SOLVED_BY_LAYOUT, so
    that Valley's dear solves keep a hint within its time), else SOLVED_SAMPLES."""
    assert explain.solved_samples(layout) == explain.SOLVED_BY_LAYOUT.get(
        layout.id, explain.SOLVED_SAMPLES
    )
    monkeypatch.setattr(explain, "SOLVED_BY_LAYOUT", {layout.id: 3})
    monkeypatch.setattr(explain, "SOLVED_SAMPLES", 9)
    game = midgame(layout, options_of(layout), 3)
    assert explain.solved_samples(layout) == 3
    assert explain.played_hint(game, 12, seed=4) == explain.played_hint(game, 12, seed=4, solved=3)
    monkeypatch.setattr(explain, "SOLVED_BY_LAYOUT", {})
    assert explain.solved_samples(layout) == 9
    assert explain.played_hint(game, 12, seed=4) == explain.played_hint(game, 12, seed=4, solved=9)
