"""The player's view of a game: what is on the table, never a face-down card or the stock order."""

from __future__ import annotations

from functools import cache

from tripeaks import daily
from tripeaks.engine.cards import Card
from tripeaks.engine.game import ActionKind, Game, Slot, Status, Turn
from tripeaks.engine.layout import POSITIONS
from tripeaks.engine.variant import Scoring, Variant
from tripeaks.i18n import translator
from tripeaks.i18n.describe import card_name, describe
from tripeaks.web.api.models import CardOut, GameState, LastOut, ResultOut, SlotOut, VariantOut


@cache
def card_out(card: Card, lang: str) -> CardOut:
    """52 cards in three languages: built once, shared by every reply (they are never mutated)."""
    return CardOut(
        rank=card.rank,
        suit=card.suit.name.lower(),  # type: ignore[arg-type]
        label=str(card),
        name=card_name(card, lang),
    )


@cache
def variant_out(variant: Variant) -> VariantOut:
    return VariantOut(
        scoring=variant.scoring.name.lower(),  # type: ignore[arg-type]
        open_peaks=variant.open_peaks,
        empty_discard=variant.empty_discard,
        joker=variant.joker,
    )


_HIDDEN = tuple(SlotOut(pos=p, slot="face_down", card=None) for p in POSITIONS)
_REMOVED = tuple(SlotOut(pos=p, slot="removed", card=None) for p in POSITIONS)


@cache
def _face_up(pos: int, card: Card, lang: str) -> SlotOut:
    """28 positions × 52 cards × 3 languages at most; shared by every reply like ``card_out``."""
    return SlotOut(pos=pos, slot="face_up", card=card_out(card, lang))


def _tableau(game: Game, lang: str) -> list[SlotOut]:
    """Every position as the player sees it, as the engine says."""
    cards = game.deal.tableau
    return [
        _face_up(pos, cards[pos], lang)
        if slot is Slot.FACE_UP
        else (_HIDDEN[pos] if slot is Slot.FACE_DOWN else _REMOVED[pos])
        for pos, slot in enumerate(game.slots())
    ]


def _blocked(game: Game) -> list[int]:
    """With open peaks, the cards shown face up that still lie under another card."""
    if not game.variant.open_peaks:
        return []
    free = set(game.free_positions())
    return [
        pos for pos in range(len(game.deal.tableau)) if game.present >> pos & 1 and pos not in free
    ]


@cache
def _stock_label(lang: str, size: int) -> str:
    return translator(lang).plural("stock.label", size)


def game_state(
    game: Game,
    lang: str,
    *,
    game_id: str | None,
    turn: Turn | None = None,
    result: ResultOut | None = None,
    tag: daily.Tag | None = None,
) -> GameState:
    """The state the page draws; ``version`` is the length of the game's log. A daily game
    (``tag``) names its day; while that day is open it carries neither its code nor a verdict on
    its deal (daily.secret), and ``ranked`` says whether it still counts for the day's board."""
    hidden = daily.secret(tag)
    status = game.status
    return GameState(
        id=game_id,
        code=None if hidden else str(game.code),
        rules=game.rules.name.lower(),  # type: ignore[arg-type]
        variant=variant_out(game.variant),
        version=len(game.actions),
        status=status.value,
        score=game.score,
        moves=game.moves,
        can_undo=game.can_undo and daily.may_undo(tag),
        can_hint=daily.refusal(tag, None) is None,
        can_draw=game.can_draw,
        playable=[] if game.is_over else game.playable_positions(),
        blocked=_blocked(game),
        streak=game.streak,
        longest_streak=game.longest_streak,
        leaving_counts_as_loss=game.leaving_counts_as_loss,
        stock_size=game.stock_size,
        stock_label=_stock_label(lang, game.stock_size),
        discard=None if game.top is None else card_out(game.top, lang),
        tableau=_tableau(game, lang),
        description=describe(game, lang),
        last=last_out(game, turn, lang) if turn else None,
        result=_with_best(result, game) if status is not Status.PLAYING and not hidden else None,
        daily=None if tag is None else tag.day.isoformat(),
        ranked=None if tag is None else daily.counts(tag),
    )


def _with_best(result: ResultOut | None, game: Game) -> ResultOut | None:
    """The verdict with whether this game reached the deal's best score (the page compares nothing):
    a won game under our scoring, any ended one under the traditional scoring (where a stuck game
    can score the most)."""
    if result is None:
        return None
    best = None
    if result.best_score is not None and (
        game.is_won or game.variant.scoring is Scoring.TRADITIONAL
    ):
        best = game.score >= result.best_score
    return result.model_copy(update={"best_reached": best})


def last_out(game: Game, turn: Turn, lang: str) -> LastOut:
    """The live-region sentence: the move, the cards it turned up, and a win or a dead end."""
    _ = translator(lang)
    name = card_name(turn.card, lang)
    sentences = [_(f"announce.{turn.action.kind.value}", card=name)]
    if turn.revealed:
        cards = ", ".join(card_name(game.deal.tableau[p], lang) for p in turn.revealed)
        sentences.append(_.plural("announce.revealed", len(turn.revealed), cards=cards))
    if turn.status is Status.WON:
        sentences.append(_("announce.won", score=turn.score_after))
    elif turn.status is Status.STUCK:
        sentences.append(_("announce.stuck"))
    undone = turn.undone.kind if turn.undone is not None else None
    return LastOut(
        kind=turn.action.kind.value,
        undone=None if undone is None else ("play" if undone is ActionKind.PLAY else "draw"),
        card=card_out(turn.card, lang),
        source=turn.source.value,
        target=turn.target.value,
        pos=turn.pos,
        revealed=list(turn.revealed),
        covered=list(turn.covered),
        peak=turn.peak,
        score_before=turn.score_before,
        score_after=turn.score_after,
        streak=turn.streak,
        status=turn.status.value,
        announcement=" ".join(sentences),
        peak_points=turn.peak_points,
    )
