"""Issue 16's library: where a game was lost, the fair hint and the grades (tripeaks/solver/explain.py).

Every verdict here is checked against a fresh exact solve of a game the engine replays, never against
the answers table the module itself uses."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tripeaks.engine.codes import CODE_SPACE, Deal, GameCode, SplitMix64, deal
from tripeaks.engine.game import DRAW, UNDO, Action, Game
from tripeaks.engine.layout import THREE_PEAKS
from tripeaks.engine.layouts import BY_ID, LAYOUTS
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Scoring, Variant
from tripeaks.solver import COMPILED, compiled, explain, portable
from tripeaks.solver import search as solver
from tripeaks.solver.kernel import Kernel

OPTION_SETS = ("", "D", "J", "O", "T", "DJ", "JOT", "DJOT")
variants = st.builds(
    lambda rules, options: Variant(rules).with_options(options),
    st.sampled_from(list(Rules)),
    st.sampled_from(OPTION_SETS),
)


def played(code: GameCode, picks: list[int]) -> Game:
    """A game of random legal moves, every fifth pick an undo when one is allowed."""
    game = Game.new(code)
    for pick in picks:
        moves = list(game.legal_moves())
        if game.can_undo and (pick % 5 == 0 or not moves):
            game.undo()
        elif moves:
            game.apply(moves[pick % len(moves)])
        else:
            break
    return game


def at(code: GameCode, line: tuple[Action, ...]) -> Game:
    """A fresh game of the code replayed through the engine to the end of ``line``."""
    game = Game.new(code)
    for action in line:
        game.apply(action)
    return game


@settings(max_examples=80, deadline=None)
@given(
    st.integers(0, CODE_SPACE - 1),
    variants,
    st.lists(st.integers(0, 1000), min_size=5, max_size=90),
)
def test_lost_at_is_the_last_position_the_exact_solver_calls_winnable(
    number: int, variant: Variant, picks: list[int]
) -> None:
    code = GameCode.from_number(number, variant)
    game = played(code, picks)
    line = explain.line_of_play(game)
    assert UNDO not in line
    verdicts = [solver.is_winnable(at(code, line[:i])) for i in range(len(line) + 1)]
    lost = explain.lost_at(game)
    if game.is_won or not verdicts[0]:
        assert lost is None
        return
    assert lost is not None
    assert lost.line == line
    assert all(verdicts[: lost.index + 1])
    assert not any(verdicts[lost.index + 1 :])
    assert lost.move == (line[lost.index] if lost.index < len(line) else None)
    there = at(code, line[: lost.index])
    for action in lost.win:
        there.apply(action)
    assert there.is_won


def test_the_line_of_play_leaves_out_what_was_undone() -> None:
    game = Game.new("TP1-E-AAAAAAB")
    game.draw()
    game.draw()
    game.undo()
    moves = list(game.legal_moves())
    game.apply(moves[0])
    assert explain.line_of_play(game) == (DRAW, moves[0])


def test_a_deal_never_winnable_reports_the_most_cards_any_line_removes() -> None:
    code = next(
        GameCode.from_number(n, Rules.CLASSIC)
        for n in range(1000, 2000)
        if not solver.is_winnable(GameCode.from_number(n, Rules.CLASSIC))
    )
    game = Game.new(code)
    game.draw()
    assert explain.lost_at(game) is None
    best = solver.solve(code).max_removed
    assert explain.most_removed(game) == best < 28
    traditional = Game.new(GameCode(code.variant.with_options("T"), code.letters))
    assert explain.most_removed(traditional) == best


@pytest.mark.parametrize("options", ["", "T", "DJ"])
def test_a_won_game_counts_its_draws_against_the_fewest(options: str) -> None:
    variant = Variant(Rules.EASY).with_options(options)
    codes = (GameCode.from_number(n, variant) for n in range(500, 600))
    code = next(c for c in codes if solver.is_winnable(c))
    best = solver.solve(GameCode(replace(variant, scoring=Scoring.OURS), code.letters))
    game = Game.new(code)
    with pytest.raises(ValueError):
        explain.draws_used(game)
    for action in best.line:
        game.apply(action)
        if action == DRAW and game.can_undo:
            game.undo()  # an undone draw is no draw of the line
            game.draw()
    assert game.is_won
    assert explain.lost_at(game) is None
    assert explain.draws_used(game) == explain.Draws(best.draws, best.draws)


# The fair hint -------------------------------------------------------------------------------


def midgame(code: GameCode, moves: int = 8) -> tuple[Game, tuple[Action, ...]]:
    """A game of the code after up to ``moves`` moves of the perfect hint (no undo)."""
    game = Game.new(code)
    for _ in range(moves):
        move = solver.hint(replace_scoring(game)) if solver.is_winnable(game) else None
        if move is None:
            move = next(game.legal_moves(), None)
        if move is None:
            break
        game.apply(move)
    return game, game.actions


def replace_scoring(game: Game) -> Game:
    """The same position under our scoring (the perfect hint's best win is our scoring's)."""
    twin = Game(game.deal, replace(game.variant, scoring=Scoring.OURS), game.code)
    for action in game.actions:
        twin.apply(action)
    return twin


def swapped(game: Game, line: tuple[Action, ...], tableau: bool) -> Game:
    """The same line on a deal that differs only underneath: two face-down cards swapped (or, with
    ``tableau`` False or no two face-down cards, two cards still in the stock)."""
    hidden = [p for p in range(28) if game.slot(p).value == "face_down"]
    cards = game.deal
    table, stock = list(cards.tableau), list(cards.stock)
    if tableau and len(hidden) >= 2:
        a, b = hidden[0], hidden[-1]
        table[a], table[b] = table[b], table[a]
    else:
        a, b = game.drawn, len(stock) - 1
        assert b > a, "two cards left in the stock to swap"
        stock[a], stock[b] = stock[b], stock[a]
    other = Game(Deal(tuple(table), cards.discard, tuple(stock)), game.variant)
    for action in line:
        other.apply(action)
    assert other.deal != game.deal
    return other


@pytest.mark.parametrize("options", ["", "J", "O", "D", "DJOT"])
@pytest.mark.parametrize("rules", list(Rules))
@pytest.mark.parametrize("tableau", [True, False])
@pytest.mark.parametrize(
    ("hint", "counted"),
    [(explain.solved_hint, "samples"), (explain.played_hint, "plays")],
    ids=["fair", "played"],
)
def test_a_fair_hint_never_depends_on_the_cards_underneath(
    rules: Rules, options: str, tableau: bool, hint: Any, counted: str
) -> None:
    """Today's fair hint and the played hint (issue 40) alike."""
    code = GameCode(Variant(rules).with_options(options), "BCDEFGH")
    game, line = midgame(code)
    other = swapped(game, line, tableau)
    assert explain.visible_key(other) == explain.visible_key(game)
    mine, theirs = hint(game, 60, seed=7), hint(other, 60, seed=7)
    assert mine == theirs
    assert mine.move is not None and getattr(mine, counted) == 60


def test_every_sample_agrees_with_what_is_visible() -> None:
    code = GameCode(Variant(Rules.EASY).with_options("J"), "QWERTYU")
    game, line = midgame(code, 6)
    deals = explain.consistent_deals(game, 30, seed=3)
    assert len(set(deals)) > 1  # the unseen cards really are dealt differently
    for sample in deals:
        twin = Game(sample, game.variant)
        for action in line:
            twin.apply(action)
        assert explain.visible_key(twin) == explain.visible_key(game)
    assert explain.consistent_deals(game, 30, seed=3) == deals
    assert explain.consistent_deals(game, 30, seed=4) != deals


def test_open_peaks_leaves_only_the_stock_unknown() -> None:
    code = GameCode(Variant(Rules.EASY).with_options("O"), "ZXCVBNM")
    game, _line = midgame(code, 5)
    for sample in explain.consistent_deals(game, 20):
        assert sample.tableau == game.deal.tableau
        assert sample.stock[: game.drawn] == game.deal.stock[: game.drawn]
        assert sorted(c.index for c in sample.stock) == sorted(c.index for c in game.deal.stock)


@pytest.mark.parametrize("options", ["", "J"])
def test_a_moves_chance_is_the_share_of_samples_a_fresh_solve_wins(options: str) -> None:
    code = GameCode(Variant(Rules.CLASSIC).with_options(options), "LKJHGFD")
    game, line = midgame(code, 7)
    hint = explain.solved_hint(game, samples=16, seed=11)
    assert hint.moves == tuple(game.legal_moves())
    wins = [0] * len(hint.moves)
    for sample in explain.consistent_deals(game, 16, seed=11):
        for i, move in enumerate(hint.moves):
            twin = Game(sample, game.variant)
            for action in (*line, move):
                twin.apply(action)
            wins[i] += solver.is_winnable(twin)
    assert hint.wins == tuple(wins)
    best = max(wins)
    assert hint.move == hint.moves[wins.index(best)]
    assert hint.chance == best / 16 == hint.chances[hint.move]


@pytest.mark.parametrize("hint", [explain.solved_hint, explain.played_hint], ids=["fair", "played"])
def test_a_finished_game_has_no_fair_hint(hint: Any) -> None:
    """The sampling hint and the played hint (issue 40) alike: no move once the game is won, and
    no hint from no sample."""
    game = Game.new("TP1-E-AAAAAAB")
    for action in solver.solve(game).line:
        game.apply(action)
    assert hint(game).move is None
    with pytest.raises(ValueError):
        hint(Game.new("TP1-E-AAAAAAB"), samples=0)


# The played hint (issue 40) -----------------------------------------------------------------


def strategy_play(game: Game, first: Action, ties: SplitMix64) -> bool:
    """The visible-card strategy played on after ``first`` through the engine: a fitting card
    that frees another card first, then one after which another free card fits, ties drawn by
    ``ties``; else a draw. Whether it wins."""
    game.apply(first)
    while not game.is_over:
        fitting = game.playable_positions()
        if not fitting:
            if not game.stock_size:
                return False
            game.draw()
            continue
        values = {}
        for pos in fitting:
            twin = game.copy()
            twin.play(pos)
            freed = any(twin.is_free(q) and not game.is_free(q) for q in game.layout.positions)
            goes_on = any(
                q != pos and game.is_free(q) and twin.fits(card)
                for q in game.layout.positions
                if (card := game.card_at(q)) is not None
            )
            values[pos] = 2 * freed + goes_on
        best = [pos for pos in fitting if values[pos] == max(values.values())]
        game.play(best[ties.below(len(best))] if len(best) > 1 else best[0])
    return game.is_won


@pytest.mark.parametrize("options", ["", "J", "D"])
@pytest.mark.parametrize("rules", list(Rules))
def test_a_played_hint_counts_the_plays_the_engine_strategy_wins(
    rules: Rules, options: str
) -> None:
    """Each move's wins are the plays of the strategy after it, through the engine, on each
    consistent deal, its ties drawn from a SplitMix64 started afresh a sample (the same for every
    move); the move is the most won, its chance the share through the calibration map."""
    code = GameCode(Variant(rules).with_options(options), "LKJHGFD")
    game, line = midgame(code, 7)
    hint = explain.played_hint(game, samples=12, seed=11)
    assert hint.moves == tuple(game.legal_moves())
    seed = explain.tie_seed(game, 11)
    wins = [0] * len(hint.moves)
    for k, sample in enumerate(explain.consistent_deals(game, 12, seed=11)):
        for i, move in enumerate(hint.moves):
            twin = Game(sample, game.variant)
            for action in line:
                twin.apply(action)
            start = (seed + 0x632BE59BD9B4E019 * (k + 1)) % 2**64
            wins[i] += strategy_play(twin, move, SplitMix64(start))
    assert hint.wins == tuple(wins)
    # the moves worth playing on: the exact solves of the samples (all 12 here) within SCREEN
    exact = explain.solved_hint(game, 12, seed=11).wins
    worth = [i for i in range(len(wins)) if exact[i] >= max(exact) - explain.SCREEN * 12]
    if not any(wins[i] for i in worth):
        worth = list(range(len(wins)))
    best = max(wins[i] for i in worth)
    assert hint.move == hint.moves[next(i for i in worth if wins[i] == best)]
    assert hint.share == best / 12 and hint.plays == 12
    assert hint.chance == explain.calibrated(hint.share, rules, THREE_PEAKS, options)
    # without the screen, the move most won of all
    alone = explain.played_hint(game, samples=12, seed=11, solved=0)
    assert alone.move == hint.moves[wins.index(max(wins))] and alone.wins == hint.wins


def test_every_table_has_a_calibration_map_rising_from_a_share_to_a_chance() -> None:
    """Every table, each layout under each rules, has a map of its own."""
    tables = {(rules, layout.id) for rules in Rules for layout in LAYOUTS}
    assert set(explain.CALIBRATION) == tables
    for (rules, layout_id), knots in explain.CALIBRATION.items():
        layout = BY_ID[layout_id]
        assert len(knots) == 21
        assert all(0 <= a <= b <= 1 for a, b in itertools.pairwise(knots))
        assert explain.calibrated(0.0, rules, layout) == knots[0]
        assert explain.calibrated(1.0, rules, layout) == knots[-1]
        middle = explain.calibrated(0.025, rules, layout)
        assert middle == pytest.approx((knots[0] + knots[1]) / 2)


def test_a_played_hint_states_its_share_through_its_own_table_s_map() -> None:
    """Each table's followers beat the strategy's plays by their own margin, so a hint on Theatre
    states its share through Theatre's map, not Three Peaks'."""
    theatre = BY_ID["theatre"]
    game = Game.new(GameCode(Variant(Rules.CLASSIC), "LKJHGFD", theatre))
    hint = explain.played_hint(game, samples=40, seed=3)
    assert hint.chance == explain.calibrated(hint.share, Rules.CLASSIC, theatre)
    assert hint.chance == explain.on_knots(
        explain.CALIBRATION[Rules.CLASSIC, "theatre"], hint.share
    )
    assert 0 < hint.share < 1
    assert hint.chance != explain.calibrated(hint.share, Rules.CLASSIC, THREE_PEAKS)


MAPPED = {
    Rules.EASY: {"J", "O", "DJ", "DO", "JO"},
    Rules.CLASSIC: {"D", "J", "O", "DJ", "DO", "JO", "DJO"},
}
"""The options (traditional scoring left out) measured to take a map of their own on Three Peaks, by
rules (docs/solver.md); every other variant takes Three Peaks' map."""


def test_each_variant_states_its_share_through_the_map_measured_for_it() -> None:
    """On Three Peaks a variant takes the map of its options when one was measured nearer (traditional
    scoring changes nothing); the empty discard under Easy and the three options together under Easy
    keep Three Peaks' map; on another table the options take the table's map."""
    for rules in Rules:
        for options in _subsets("DJOT"):
            played = options.replace("T", "")
            knots = (
                explain.OPTION_CALIBRATION[rules, played]
                if played in MAPPED[rules]
                else explain.CALIBRATION[rules, "three_peaks"]
            )
            for share in (0.0, 0.13, 0.5, 0.77, 1.0):
                stated = explain.calibrated(share, rules, THREE_PEAKS, options)
                assert stated == explain.on_knots(knots, share), (rules, options, share)
                on_theatre = explain.calibrated(share, rules, BY_ID["theatre"], options)
                assert on_theatre == explain.calibrated(share, rules, BY_ID["theatre"])
    assert set(explain.OPTION_CALIBRATION) == {(r, played) for r in Rules for played in MAPPED[r]}
    for knots in explain.OPTION_CALIBRATION.values():
        assert len(knots) == 21 and all(0 <= a <= b <= 1 for a, b in itertools.pairwise(knots))
        assert knots[0] < 0.03 and knots[-1] > 0.99
    game = Game.new(GameCode(Variant(Rules.EASY).with_options("JO"), "LKJHGFD"))
    hint = explain.played_hint(game, samples=40, seed=3)
    assert 0 < hint.share < 1
    assert hint.chance == explain.on_knots(explain.OPTION_CALIBRATION[Rules.EASY, "JO"], hint.share)
    everything = Game.new(GameCode(Variant(Rules.EASY).with_options("DJOT"), "LKJHGFD"))
    hint = explain.played_hint(everything, samples=40, seed=3)
    three_peaks = explain.CALIBRATION[Rules.EASY, "three_peaks"]
    assert hint.chance == explain.on_knots(three_peaks, hint.share)


def _subsets(letters: str) -> list[str]:
    """Every choice of ``letters``, each in their order."""
    return [
        "".join(letter for i, letter in enumerate(letters) if mask >> i & 1)
        for mask in range(1 << len(letters))
    ]


@settings(max_examples=40, deadline=None)
@given(
    variant=variants,
    number=st.integers(0, CODE_SPACE - 1),
    picks=st.lists(st.integers(0, 1000), max_size=30),
    seed=st.integers(0, 2**64 - 1),
    plays=st.integers(1, 3),
)
def test_the_compiled_rollouts_win_exactly_what_the_python_rollouts_win(
    variant: Variant, number: int, picks: list[int], seed: int, plays: int
) -> None:
    game = Game.new(GameCode.from_number(number, variant))
    for pick in picks:
        moves = list(game.legal_moves())
        if not moves:
            break
        game.apply(moves[pick % len(moves)])
    firsts = bytes(255 if m.pos is None else m.pos for m in game.legal_moves())
    deals = explain.consistent_deals(game, 5, seed=1)
    tableaux = b"".join(bytes(c.rank for c in d.tableau) for d in deals)
    stocks = b"".join(bytes(c.rank for c in d.stock) for d in deals)
    position = (game.present, game.drawn, game.top_rank)
    args = (tableaux, stocks, variant.rules, *position, firsts, plays, seed)
    assert compiled.rollouts(*args) == portable.rollouts(*args)


def test_the_compiled_rollouts_refuse_malformed_tables() -> None:
    from tripeaks.solver import _strategy

    fits, covered_by, covers = compiled.strategy_tables(Rules.EASY)
    ranks, stock = bytes([1] * 56), bytes([2] * 46)
    full = (1 << 28) - 1
    good = (ranks, stock, fits, covered_by, covers, full, 0, 1, 1, 0, bytes([27, 255]))
    assert len(_strategy.rollouts(*good)) == 2
    for bad in [
        (ranks[:55], *good[1:]),
        (bytes([14] * 56), *good[1:]),
        (*good[:2], fits[:-1], *good[3:]),
        (*good[:5], full | 1 << 28, *good[6:]),
        (*good[:6], 24, *good[7:]),
        (*good[:7], 14, *good[8:]),
        (*good[:10], bytes([0])),  # covered
        (*good[:6], 23, *good[7:10], bytes([255])),  # nothing left to draw
    ]:
        with pytest.raises(ValueError):
            _strategy.rollouts(*bad)


# Grades --------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", list(Rules))
def test_a_grade_is_the_band_of_the_first_fair_hint(rules: Rules) -> None:
    """A winnable deal's grade is the band its first fair hint's share falls in, so that the
    grades order the deals as the hints' chances do (the map never decreases); an unwinnable deal
    is Unwinnable, whatever the hint."""
    gentle, medium = explain.GRADE_BANDS[rules, THREE_PEAKS.id]
    assert 0 < medium < gentle < 1
    seen: set[explain.Grade] = set()
    chances: dict[explain.Grade, list[float]] = {}
    for n in range(40):
        code = GameCode.from_number(7919 * n, rules)
        grade = explain.grade(code)
        assert explain.grade(str(code)) is grade
        seen.add(grade)
        if not solver.is_winnable(code):
            assert grade is explain.Grade.UNWINNABLE
            continue
        first = explain.first_hint(code)
        assert first == explain.played_hint(Game.new(code), explain.HINT_SAMPLES, seed=0)
        chances.setdefault(grade, []).append(first.chance)
        expected = (
            explain.Grade.GENTLE
            if first.share >= gentle
            else explain.Grade.MEDIUM
            if first.share >= medium
            else explain.Grade.HARD
        )
        assert grade is expected
    assert len(seen) >= 3
    order = [explain.Grade.GENTLE, explain.Grade.MEDIUM, explain.Grade.HARD]
    for easier, harder in itertools.pairwise(order):
        if easier in chances and harder in chances:
            assert min(chances[easier]) >= max(chances[harder])


def test_the_strategy_s_plays_were_compiled() -> None:
    """CI has a compiler: a grade that silently fell back on Python would cost every new game 3 ms."""
    assert COMPILED


@pytest.mark.parametrize(
    ("code", "share"),
    [
        ("TP1-E-AAAASGV", 1.0),
        ("TP1-C-AABSGON", 0.755),
        ("TP1-C-AAJHJUE", 0.0),
        ("TP1-E-AAAAADV-DJ", 0.7),
        ("TP1-C-AAABUJH-J", 0.345),
        ("TP1-E-AAKYMLS-O", 0.715),
    ],
)
@pytest.mark.parametrize("kernel", [compiled, portable], ids=["compiled", "portable"])
def test_a_deal_s_win_share_never_changes(code: str, share: float, kernel: Kernel) -> None:
    """Grades are stored with games and counted in statistics: the shares measured by the Python
    plays when grades were introduced, pinned for both kernels and for the one the seam chose."""
    assert explain.win_share(code, kernel=kernel) == share
    assert explain.win_share(code) == share


@settings(max_examples=60, deadline=None)
@given(
    variant=variants,
    number=st.integers(0, CODE_SPACE - 1),
    seed=st.integers(0, 2**64 - 1),
    advance=st.integers(0, 2000),
    plays=st.integers(0, 60),
)
def test_the_compiled_plays_win_exactly_what_the_python_plays_win(
    variant: Variant, number: int, seed: int, advance: int, plays: int
) -> None:
    """Play for play, with the ties drawn from the same Mersenne Twister, from any point of its
    stream (``advance`` words already drawn, so the state's index is anywhere, past a refill too):
    the two kernels' plays, each named explicitly."""
    cards = deal(GameCode.from_number(number, variant))
    ranks = bytes(card.rank for card in cards.tableau)
    stock = bytes(card.rank for card in cards.stock)
    top = solver.WILD if cards.discard is None else cards.discard.rank
    rng = random.Random(seed)
    for _ in range(advance):
        rng.getrandbits(32)
    twin = random.Random()
    twin.setstate(rng.getstate())
    won = compiled.plays_won(ranks, stock, top, variant.rules, plays, rng)
    assert won == portable.plays_won(ranks, stock, top, variant.rules, plays, twin)


def test_the_compiled_plays_refuse_malformed_tables() -> None:
    from tripeaks.solver import _strategy

    fits, covered_by, covers = compiled.strategy_tables(Rules.EASY)
    ranks, stock = bytes([1] * 28), bytes([2] * 23)
    state = tuple([0] * 624 + [624])
    assert _strategy.plays_won(ranks, stock, 1, fits, covered_by, covers, 0, state) == 0
    for bad in [
        (ranks[:27], stock, 1, fits, covered_by, covers, 1, state),
        (ranks, stock, 14, fits, covered_by, covers, 1, state),
        (ranks, stock, 1, fits[:-1], covered_by, covers, 1, state),
        (ranks, stock, 1, fits, covered_by, covers, 1, state[:-1]),
        (ranks, stock, 1, fits, covered_by, covers, 1, (*state[:-1], 625)),
        (bytes([14] * 28), stock, 1, fits, covered_by, covers, 1, state),
    ]:
        with pytest.raises(ValueError):
            _strategy.plays_won(*bad)
