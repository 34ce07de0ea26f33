"""The review of a finished game as the reply says it (docs/api.md "Explaining").

The worker found it (solver_worker.review, from explain.py); here it gets its words, from the
catalogs, and its replay: each step a state the engine makes on a copy of the deal, never the
stored game, so that the page shows it with its own motion and announcements.
"""

from __future__ import annotations

from tripeaks import daily
from tripeaks.engine.game import Action, Game
from tripeaks.i18n import translator
from tripeaks.i18n.describe import card_name
from tripeaks.web.api.models import (
    ENDED,
    GRADE,
    DrawsOut,
    GameState,
    LostAtOut,
    MoveOut,
    ReplayOut,
    ReviewOut,
)
from tripeaks.web.api.view import game_state
from tripeaks.web.backend.solver_worker import Review


def review_out(game: Game, found: Review, lang: str, tag: daily.Tag | None) -> ReviewOut:
    """The reply: what was found, one or two sentences for it, and the line to show."""
    lost = None
    if found.lost_at is not None:
        index, move, moves = found.lost_at
        lost = LostAtOut(index=index, move=_move(move), moves=moves)
    draws = None if found.draws is None else DrawsOut(used=found.draws[0], fewest=found.draws[1])
    return ReviewOut(
        status=ENDED[game.status],
        grade=GRADE[found.grade],
        winnable=found.winnable,
        lost_at=lost,
        draws=draws,
        most_removed=found.most_removed,
        message=_message(game, found, lang),
        replay=_replay(game, found, lang, tag),
    )


def _move(text: str | None) -> MoveOut | None:
    if text is None:
        return None
    action = Action.parse(text)
    return (
        MoveOut(kind="draw", pos=None)
        if action.pos is None
        else MoveOut(kind="play", pos=action.pos)
    )


def _message(game: Game, found: Review, lang: str) -> str:
    _ = translator(lang)
    if found.draws is not None:
        used, fewest = found.draws
        return _("review.draws", used=used, fewest=fewest)
    if found.most_removed is not None:
        return _("review.never", removed=found.most_removed)
    assert found.lost_at is not None and found.start is not None
    index, move, _moves = found.lost_at
    if move is None:
        return _("review.still_winnable")
    action = Action.parse(move)
    if action.pos is None:
        return _("review.lost_draw", move=index + 1)
    card = game.deal.tableau[action.pos]
    return _("review.lost_play", move=index + 1, card=card_name(card, lang))


def _replay(game: Game, found: Review, lang: str, tag: daily.Tag | None) -> ReplayOut | None:
    """The position at the replay's start, then the state after each move of the winning line."""
    if found.start is None or not found.steps:
        return None
    assert game.code is not None
    walker = Game.replay(game.code, found.start)  # the engine, on a game of its own
    steps: list[GameState] = [game_state(walker, lang, game_id=None, tag=tag)]
    for text in found.steps:
        turn = walker.apply(Action.parse(text))
        steps.append(game_state(walker, lang, game_id=None, turn=turn, tag=tag))
    return ReplayOut(start=len(found.start), steps=steps)
