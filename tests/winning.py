"""A tiny depth-first search over the engine, for tests that need a won game without the solver."""

import sys

from tripeaks import DRAW, Action, Game


def find_win(game: Game, limit: int = 200_000) -> list[Action] | None:
    """Some winning line from the game's current state (not the best), or None.

    The search plays and undoes on ``game`` itself, so its log grows past ACTION_LIMIT: the limit is
    for games that are kept, and is lifted here."""
    game.action_limit = sys.maxsize
    failed: set[tuple[int, int, int]] = set()
    line: list[Action] = []
    budget = [limit]

    def search() -> bool:
        if game.is_won:
            return True
        key = (game.present, game.drawn, game.discard_top.rank)
        if key in failed or budget[0] <= 0:
            return False
        budget[0] -= 1
        for action in game.legal_moves():
            game.apply(action)
            line.append(action)
            if search():
                return True
            line.pop()
            game.undo()
        failed.add(key)
        return False

    return line if search() else None


__all__ = ["DRAW", "find_win"]
