"""The engine on every layout (hypothesis): covered cards are never played, a play turns up exactly
the cards it frees, the score follows the layout's groups under both scorings, undo restores
everything, and the score's parts add up to it. The model here is written from docs/rules.md and
the layout's data alone, not from the engine's masks."""

from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tripeaks.engine.cards import FULL_DECK
from tripeaks.engine.codes import CODE_SPACE, GameCode
from tripeaks.engine.game import UNDO, Action, Game, IllegalMove, Reason, Slot
from tripeaks.engine.layout import Layout
from tripeaks.engine.layouts import LAYOUTS
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Scoring, Variant

variants = st.builds(Variant, st.sampled_from(list(Rules)), st.sampled_from(list(Scoring)))
"""Easy and Classic, each with our scoring and the traditional one."""
codes = st.builds(GameCode.from_number, st.integers(0, CODE_SPACE - 1), variants)
picks = st.lists(st.integers(0, 1000), min_size=1, max_size=150)
every_layout = pytest.mark.parametrize("layout", LAYOUTS, ids=lambda layout: layout.id)


def present(game: Game, layout: Layout) -> set[int]:
    return {p for p in range(layout.size) if game.card_at(p) is not None}


def uncovered(layout: Layout, left: set[int]) -> set[int]:
    return {p for p in left if not set(layout.covered_by[p]) & left}


def state(game: Game) -> tuple[object, ...]:
    size = game.layout.size
    return (
        tuple(game.card_at(p) for p in range(size)),
        tuple(game.slots()),
        tuple(game.discard),
        game.stock_size,
        game.score,
        game.streak,
        game.longest_streak,
        game.runs,
        game.status,
        game.score_parts(),
        game.near_the_end,
    )


@dataclass
class Model:
    """The score of the actions that stand, counted from docs/rules.md and the layout's groups."""

    layout: Layout
    traditional: bool
    line: list[Action] = field(default_factory=list)

    def score(self) -> int:
        groups = len(self.layout.groups)
        left = set(range(self.layout.size))
        score, streak, emptied = (0 if self.traditional else 500), 0, 0
        for action in self.line:
            if action.pos is None:
                score = max(0, score - (5 if self.traditional else 1))
                streak = 0
                continue
            left.discard(action.pos)
            group = next(g for g in self.layout.groups if action.pos in g)
            empty = not set(group) & left
            emptied += empty
            streak += 1
            if self.traditional:
                score += streak + (0 if not empty else 15 if emptied < groups else 30)
            else:
                score = max(0, score - 1) + (100 if empty else 0)
        return score


def walk(game: Game, picks: list[int]) -> None:
    """Random legal plays, draws and undos, checking every property at each step."""
    layout = game.layout
    model = Model(layout, game.variant.scoring is Scoring.TRADITIONAL)
    for pick in picks:
        left = present(game, layout)
        free = uncovered(layout, left)
        before = state(game)
        for p in left - free:  # a covered card is never playable, and a refusal changes nothing
            assert p not in game.playable_positions()
            with pytest.raises(IllegalMove) as refused:
                game.apply(Action.play(p))
            assert refused.value.reason is Reason.LOCKED
        assert state(game) == before
        moves = list(game.legal_moves())
        if game.can_undo and (pick % 6 == 0 or not moves):
            turn = game.apply(UNDO)
            model.line.pop()
            if turn.pos is not None:  # the card goes back and covers what it covered again
                assert set(turn.covered) == free - uncovered(layout, left | {turn.pos})
            assert game.code is not None
            replayed = Game.replay(game.code, model.line, layout)
            assert state(replayed) == state(game)
        elif moves:
            move = moves[pick % len(moves)]
            turn = game.apply(move)
            model.line.append(move)
            if move.pos is not None:
                assert move.pos in free
                after = left - {move.pos}
                assert set(turn.revealed) == uncovered(layout, after) - free
                group = layout.group_of[move.pos]
                assert (turn.peak == group) == (not set(layout.groups[group]) & after)
            if not game.is_over:  # the step's undo gives back the state before it
                twin = game.copy()
                twin.apply(UNDO)
                assert state(twin) == before
        else:
            break
        left = present(game, layout)
        face_up = {p for p, slot in enumerate(game.slots()) if slot is Slot.FACE_UP}
        assert face_up == uncovered(layout, left) == set(game.free_positions())
        assert game.score == model.score()
        assert sum(part.points for part in game.score_parts()) == game.score
        peaks = next(part for part in game.score_parts() if part.part == "peaks")
        assert peaks.count == sum(not set(g) & left for g in layout.groups)


@every_layout
@settings(max_examples=60, deadline=None)
@given(code=codes, picks=picks)
def test_the_engine_keeps_the_rules_on_every_layout(
    layout: Layout, code: GameCode, picks: list[int]
) -> None:
    walk(Game.new(code, layout), picks)


@every_layout
@settings(max_examples=30, deadline=None)
@given(code=codes, picks=picks)
def test_undo_after_any_line_restores_the_state_before_it(
    layout: Layout, code: GameCode, picks: list[int]
) -> None:
    game = Game.new(code, layout)
    states = [state(game)]
    for pick in picks:
        moves = list(game.legal_moves())
        if not moves:
            break
        game.apply(moves[pick % len(moves)])
        states.append(state(game))
    for _ in range(min(len(states) - 1, 100)):  # within the undo limit
        if game.is_over:
            break
        states.pop()
        game.apply(UNDO)
        assert state(game)[:-1] == states[-1][:-1]


@every_layout
def test_a_whole_table_cleared_in_one_streak_scores_every_group(layout: Layout) -> None:
    """A made-up deal where each card fits the one before (the unshuffled deck, Easy wrapping king
    to ace): the table cleared in one streak, every group emptied in turn, under both scorings."""
    order: list[int] = []  # an order that frees each card before it is played
    left = set(range(layout.size))
    while left:
        order.append(min(uncovered(layout, left)))
        left.discard(order[-1])
    tableau = [FULL_DECK[0]] * layout.size
    for k, p in enumerate(order):
        tableau[p] = FULL_DECK[k + 1]
    groups = len(layout.groups)
    for scoring in Scoring:
        game = Game.from_deal(
            tableau=tableau,
            discard=FULL_DECK[0],
            stock=FULL_DECK[layout.size + 1 :],
            rules=Variant(Rules.EASY, scoring),
            layout=layout,
        )
        bonuses = [game.apply(Action.play(p)).peak_points for p in order]
        assert game.is_won
        if scoring is Scoring.TRADITIONAL:
            assert [b for b in bonuses if b] == [15] * (groups - 1) + [30]
            assert game.score == sum(range(1, layout.size + 1)) + 15 * (groups - 1) + 30
        else:
            assert [b for b in bonuses if b] == [100] * groups
            assert game.score == 500 - layout.size + 100 * groups
