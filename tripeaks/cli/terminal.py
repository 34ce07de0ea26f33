"""A plain terminal game: the board description, numbered free cards, typed commands."""

from __future__ import annotations

from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import Game, IllegalMove
from tripeaks.engine.rules import Rules
from tripeaks.i18n import refusal, translator
from tripeaks.i18n.describe import card_name, describe

_HELP = "commands: a number plays that free card, d draws, u undoes, r redoes, n new game, q quits"


def _show(game: Game, lang: str) -> None:
    print()
    print(describe(game, lang))
    print(f"{game.code}  score {game.score}  moves {game.moves}")
    for pos in game.free_positions():
        card = game.card_at(pos)
        assert card is not None
        print(f"  {pos:2}: {card} ({card_name(card, lang)})")


def play(code: GameCode | None, lang: str = "en", rules: str = "easy") -> int:
    rule = Rules.CLASSIC if rules == "classic" else Rules.EASY
    game = Game.new(code or GameCode.random(rule))
    print(_HELP)
    while True:
        _show(game, lang)
        if game.is_won:
            print(f"*** {game.score} ***")
        elif game.is_stuck:
            print(translator(lang)("status.stuck"))
        try:
            line = input("> ").strip().lower()
        except EOFError:
            return 0
        try:
            if line in ("q", "quit"):
                return 0
            if line in ("d", "draw"):
                game.draw()
            elif line in ("u", "undo"):
                game.undo()
            elif line in ("r", "redo"):
                game.redo()
            elif line in ("n", "new"):
                game = Game.new(GameCode.random(rule, game.layout))  # the same table
            elif line.isdigit():
                game.play(int(line))
            else:
                print(_HELP)
        except IllegalMove as refused:
            print(refusal(refused, lang))
