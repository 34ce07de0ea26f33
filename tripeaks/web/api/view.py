"""Every reply's shape: the player's view of a game (what is on the table, never a face-down card
or the stock order), a hint, the statistics, a day's board and history, the numbers of the game.

The routes call the store, the solver and the policy; what they found becomes a model here, with
its words from the catalogs. A finished game's review is explaining.py's.
"""

from __future__ import annotations

import itertools
from datetime import UTC, date, datetime, timedelta
from functools import cache

from babel.numbers import format_decimal, format_percent

from tripeaks import daily, nickname
from tripeaks import stats as statistics
from tripeaks.engine import codes
from tripeaks.engine import score as scoring
from tripeaks.engine.cards import Card
from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import UNDO_LIMIT, Action, ActionKind, Game, Slot, Status, Turn
from tripeaks.engine.layout import (
    CENTRE_X,
    COVERED_BY,
    INDEX_IN_ROW,
    PEAK_OF,
    POSITIONS,
    ROW_OF,
)
from tripeaks.engine.layouts import LAYOUTS
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Scoring, Variant
from tripeaks.i18n import messages, translator
from tripeaks.i18n.describe import card_name, describe
from tripeaks.store.core import Result, Standing
from tripeaks.web.api.daily_models import (
    BoardOut,
    BoardRowOut,
    HistoryDayOut,
    HistoryOut,
    MyDailyOut,
)
from tripeaks.web.api.models import (
    GRADE,
    KIND,
    LAYOUT,
    MAX_TABLE,
    OPTION,
    OUTCOME,
    RULES,
    SCORE_PART,
    SCORING,
    SUIT,
    ByGradeOut,
    CardOut,
    CatalogOut,
    CodeOut,
    GameState,
    GradeStatsOut,
    HintAction,
    HintKindName,
    HintOut,
    Lang,
    LastOut,
    LayoutInfoOut,
    LayoutOut,
    LayoutsOut,
    LevelOut,
    LevelResultOut,
    PlaceOut,
    PositionOut,
    RecentOut,
    ResultOut,
    RulesOut,
    ScorePartOut,
    ScoringOut,
    SlotOut,
    StatsOut,
    StatsPage,
    TraditionalOut,
    UnlockedOut,
    VariantOut,
    VariantStatsOut,
)
from tripeaks.web.backend.solver_worker import Fair
from tripeaks.web.backend.solving import Verdict


@cache
def card_out(card: Card, lang: str) -> CardOut:
    """52 cards in three languages: built once, shared by every reply (they are never mutated)."""
    return CardOut(
        rank=card.rank,
        suit=SUIT[card.suit],
        label=str(card),
        name=card_name(card, lang),
    )


@cache
def variant_out(variant: Variant) -> VariantOut:
    return VariantOut(
        scoring=SCORING[variant.scoring],
        open_peaks=variant.open_peaks,
        empty_discard=variant.empty_discard,
        joker=variant.joker,
    )


_HIDDEN = tuple(SlotOut(pos=p, slot="face_down", card=None) for p in range(MAX_TABLE))
_REMOVED = tuple(SlotOut(pos=p, slot="removed", card=None) for p in range(MAX_TABLE))


@cache
def _face_up(pos: int, card: Card, lang: str) -> SlotOut:
    """35 positions × 53 cards × 3 languages at most; shared by every reply like ``card_out``."""
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
    verdict: Verdict | None = None,
    tag: daily.Tag | None = None,
    level: LevelOut | None = None,
    level_result: LevelResultOut | None = None,
    unlocked: list[UnlockedOut] | None = None,
) -> GameState:
    """The state the page draws; ``version`` is the length of the game's log. A daily game
    (``tag``) names its day; while that day is open it carries neither its code nor a verdict on
    its deal (daily.secret), and ``ranked`` says whether it still counts for the day's board. A
    level game carries its level, and once won its result (journey_view.py); ``unlocked`` the
    achievements the action replied to unlocked."""
    hidden = daily.secret(tag)
    status = game.status
    return GameState(
        id=game_id,
        code=None if hidden else str(game.code),
        rules=RULES[game.rules],
        variant=variant_out(game.variant),
        layout=LAYOUT[game.layout.id],
        version=len(game.actions),
        status=status.value,
        score=game.score,
        moves=game.moves,
        can_undo=game.can_undo and daily.may_undo(tag),
        can_redo=game.can_redo and daily.may_redo(tag),
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
        score_parts=_score_parts(game),
        result=result_out(verdict, game) if status is not Status.PLAYING and not hidden else None,
        daily=None if tag is None else tag.day.isoformat(),
        ranked=None if tag is None else daily.counts(tag),
        level=level,
        level_result=level_result,
        unlocked=unlocked or [],
    )


def _score_parts(game: Game) -> list[ScorePartOut]:
    """The score's parts from the engine (the player's own actions: nothing hidden)."""
    return [
        ScorePartOut(part=SCORE_PART[part.part], count=part.count, points=part.points)
        for part in game.score_parts()
    ]


def result_out(verdict: Verdict | None, game: Game) -> ResultOut | None:
    """The deal's verdict (the solver's) with whether this game reached the deal's best score (the
    page compares nothing): a won game under our scoring, any ended one under the traditional
    scoring (where a stuck game can score the most)."""
    if verdict is None:
        return None
    best = None
    if verdict.best is not None and (game.is_won or game.variant.scoring is Scoring.TRADITIONAL):
        best = game.score >= verdict.best
    return ResultOut(
        winnable=verdict.winnable,
        best_score=verdict.best,
        best_reached=best,
        grade=GRADE[verdict.grade],
    )


def last_out(game: Game, turn: Turn, lang: str) -> LastOut:
    """The live-region sentence: the move, the cards it turned up, and a win or a dead end."""
    _ = translator(lang)
    name = card_name(turn.card, lang)
    sentences = [_(f"announce.{turn.action.kind.value}", card=name)]
    if turn.redone:  # "Redo: " and the play's or draw's own sentence
        sentences = [_("announce.redo", move=sentences[0])]
    if turn.revealed:
        cards = ", ".join(card_name(game.deal.tableau[p], lang) for p in turn.revealed)
        sentences.append(_.plural("announce.revealed", len(turn.revealed), cards=cards))
    if turn.status is Status.WON:
        sentences.append(_("announce.won", score=turn.score_after))
    elif turn.status is Status.STUCK:
        sentences.append(_("announce.stuck"))
    undone = turn.undone.kind if turn.undone is not None else None
    return LastOut(
        kind=KIND[turn.action.kind],
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
        redo=turn.redone,
    )


# A code, a hint ----------------------------------------------------------------------------


def code_out(code: GameCode) -> CodeOut:
    """A typed code as the server reads it."""
    return CodeOut(code=str(code), rules=RULES[code.rules], variant=variant_out(code.variant))


def hint_out(game: Game, winnable: bool, action: Action | None, lang: str) -> HintOut:
    """A perfect hint: the solver's move, and whether a win is left after it."""
    _ = translator(lang)
    if action is None:
        return HintOut(winnable=winnable, action=None, message=_("hint.lost"), kind="perfect")
    # a move where no win is left: the traditional scoring's most points (solver_worker.Deal)
    points = "" if winnable else "_for_points"
    if action.pos is None:
        message = _(f"hint.perfect_draw{points}")
        return HintOut(
            winnable=winnable, action=HintAction(kind="draw"), message=message, kind="perfect"
        )
    card = game.card_at(action.pos)
    assert card is not None
    return HintOut(
        winnable=winnable,
        action=HintAction(kind="play", pos=action.pos),
        message=_(f"hint.perfect_play{points}", card=card_name(card, lang)),
        kind="perfect",
    )


def fair_hint_out(game: Game, fair: Fair, lang: str) -> HintOut:
    """A fair hint: its move and the chance that following the hints from here wins, as a whole
    percent in the language; when none or all of the deals played on were won, a sentence of its
    own that says so. Never the exact verdict, which would tell what is hidden."""
    _ = translator(lang)
    text, chance, samples, share = fair
    if text is None:
        return HintOut(winnable=None, action=None, message=_("hint.lost"), kind="fair")
    action = Action.parse(text)
    ending = "_none" if share == 0 else "_certain" if share == 1 else ""
    words = {
        "chance": format_percent(chance, locale=lang),
        "samples": format_decimal(samples, locale=lang),
    }
    if action.pos is None:
        message = _(f"hint.fair_draw{ending}", **words)
        out = HintAction(kind="draw")
    else:
        card = game.card_at(action.pos)
        assert card is not None
        message = _(f"hint.fair_play{ending}", card=card_name(card, lang), **words)
        out = HintAction(kind="play", pos=action.pos)
    return HintOut(
        winnable=None, action=out, message=message, kind="fair", chance=chance, samples=samples
    )


def ended_hint_out(game: Game, kind: HintKindName, lang: str) -> HintOut | None:
    """The hint for a game that is over: nothing to search (None while it is played)."""
    _ = translator(lang)
    if game.is_won:
        return HintOut(winnable=True, action=None, message=_("hint.won"), kind=kind)
    if game.is_over:
        return HintOut(winnable=False, action=None, message=_("hint.lost"), kind=kind)
    return None


# Statistics --------------------------------------------------------------------------------

STANDARD = (statistics.Kind(Variant(Rules.EASY)), statistics.Kind(Variant(Rules.CLASSIC)))
"""The standard games (no option) under each rules: the page's first two tables."""


def stats_page(totals: dict[statistics.Kind, statistics.Totals], latest: list[Result]) -> StatsPage:
    """The player's statistics: each kind of game apart, then the games finished last."""
    return StatsPage(
        easy=_stats_out(statistics.figures(totals.get(STANDARD[0], statistics.Totals()))),
        classic=_stats_out(statistics.figures(totals.get(STANDARD[1], statistics.Totals()))),
        variants=[
            VariantStatsOut(
                layout=LAYOUT[kind.layout.id],
                rules=RULES[kind.variant.rules],
                variant=variant_out(kind.variant),
                stats=_stats_out(statistics.figures(kept)),
            )
            for kind, kept in sorted(totals.items(), key=_listed)
            if kind not in STANDARD
        ],
        recent=[
            RecentOut(
                code=None if r.day is not None and daily.is_open(r.day) else str(r.code),
                daily=None if r.day is None else r.day.isoformat(),
                rules=RULES[r.code.rules],
                outcome=OUTCOME[r.outcome],
                score=r.score,
                finished_at=datetime.fromtimestamp(r.finished_at, UTC).isoformat(
                    timespec="seconds"
                ),
            )
            for r in latest
        ],
    )


def _listed(item: tuple[statistics.Kind, statistics.Totals]) -> tuple[int, str]:
    """The kinds in the order the statistics list them: by layout (Three Peaks first), then key."""
    kind = item[0]
    return LAYOUTS.index(kind.layout), kind.variant.key


def _stats_out(s: statistics.Stats) -> StatsOut:
    return StatsOut(
        played=s.played,
        won=s.won,
        win_rate=s.win_rate,
        current_streak=s.current_streak,
        best_streak=s.best_streak,
        best_score=s.best_score,
        average_winning_score=s.average_winning_score,
        longest_card_streak=s.longest_card_streak,
        winnable_played=s.winnable_played,
        winnable_won=s.winnable_won,
        best_share=s.best_share,
        won_with_hints=s.won_with_hints,
        won_without_hints=s.won_without_hints,
        won_with_perfect_hints=s.won_with_perfect_hints,
        won_with_fair_hints=s.won_with_fair_hints,
        by_grade=ByGradeOut(**{grade: GradeStatsOut(**n) for grade, n in s.by_grade.items()}),
    )


# The deal of the day -----------------------------------------------------------------------


Board = tuple[list[Standing], int, Standing | None, bool, int | None, str]
"""What the store says of a day's board (api/daily.py): its top rows, how many finished, the
player's ranked attempt, whether it has ended, its rank and the player's name."""
History = tuple[list[Standing], dict[date, int | None], list[date], set[date]]
"""What the store says of a player's days: the ranked attempts, their ranks, the days finished
and the days whose attempt has ended."""


def board_out(
    day: date, deal: daily.DailyDeal | None, board: Board, public: bool, lang: str
) -> BoardOut:
    """A day's board: its top rows (``board`` holds none until they may be shown), how many
    finished, and the player's own standing; the code and best score once the day is over."""
    top, players, mine, over, rank, name = board
    me = None
    if mine is not None:
        me = MyDailyOut(
            name=name,
            finished=mine.finished,
            ended=over,
            won=mine.won,
            rank=rank,
            too_fast=mine.too_fast,
            score=mine.score,
            moves=mine.moves,
            seconds=round(mine.seconds, 3),
            longest_streak=mine.streak,
            peaks=daily.peaks_of(mine.peaks),
            share=_share(mine, lang) if mine.finished else None,
        )
    return BoardOut(
        day=day.isoformat(),
        code=None if deal is None else str(deal.code),
        best_score=None if deal is None else deal.best_score,
        players=players,
        top=[
            BoardRowOut(
                rank=place,
                name=nickname.shown(row.player, row.name, lang),
                score=row.score,
                moves=row.moves,
                seconds=round(row.seconds, 3),
            )
            for place, row in zip(_ranks(top), top, strict=True)
        ],
        me=me,
        shown=public or over,
    )


def _ranks(rows: list[Standing]) -> list[int]:
    """Competition ranks of the board's first rows (all rows ahead of each are among them)."""
    ranks: list[int] = []
    for i, row in enumerate(rows):
        before = rows[i - 1] if i else None
        same = before is not None and (before.score, before.moves, before.seconds) == (
            row.score,
            row.moves,
            row.seconds,
        )
        ranks.append(ranks[-1] if same else i + 1)
    return ranks


def _share(mine: Standing, lang: str) -> str:
    _ = translator(lang)
    peaks = "".join(
        _("daily.peak_cleared" if cleared else "daily.peak_standing")
        for cleared in daily.peaks_of(mine.peaks)
    )
    return _(
        "daily.share",
        date=mine.day.isoformat(),
        score=mine.score,
        moves=mine.moves,
        streak=mine.streak,
        peaks=peaks,
    )


def history_out(today: date, first: date, last: date, history: History) -> HistoryOut:
    """The player's days from ``last`` back to ``first``, and their daily streaks."""
    rows, ranks, finished, ended = history
    by_day = {row.day: row for row in rows}
    current, best = _streaks(finished, today)
    days = []
    day = last
    while day >= first:
        row = by_day.get(day)
        days.append(
            HistoryDayOut(
                day=day.isoformat(),
                played=row is not None,
                finished=row is not None and row.finished,
                ended=day in ended,
                won=row is not None and row.won,
                score=row.score if row is not None and row.finished else None,
                rank=ranks.get(day),
            )
        )
        day -= timedelta(days=1)
    return HistoryOut(today=today.isoformat(), streak=current, best_streak=best, days=days)


def _streaks(days: list[date], today: date) -> tuple[int, int]:
    """(the streak ending today or yesterday, the longest ever) of finished days, newest first."""
    best = run = 0
    previous: date | None = None
    for day in days:
        run = run + 1 if previous is not None and previous - day == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    current = 0
    if days and today - days[0] <= timedelta(days=1):
        current = 1
        for newer, older in itertools.pairwise(days):
            if newer - older != timedelta(days=1):
                break
            current += 1
    return current, best


# The numbers of the game, made once ----------------------------------------------------------


def layout_out() -> LayoutOut:
    return LayoutOut(
        positions=[
            PositionOut(
                pos=pos,
                row=ROW_OF[pos],
                index=INDEX_IN_ROW[pos],
                peak=PEAK_OF[pos],
                covered_by=list(COVERED_BY[pos]),
                x=CENTRE_X[pos],
                y=float(ROW_OF[pos] - 1),
            )
            for pos in POSITIONS
        ]
    )


def layouts_out(lang: str) -> LayoutsOut:
    """Every layout the engine knows, Three Peaks first, with its geometry (as layout_out's)."""
    _ = translator(lang)
    return LayoutsOut(
        layouts=[
            LayoutInfoOut(
                id=layout.id,
                word=layout.word,
                name=_(f"layout.{layout.id}"),
                cards=layout.size,
                stock=codes.CARDS - 1 - layout.size,  # the rest of the deck, the discard's card off
                groups=len(layout.groups),
                offered=layout in codes.OFFERED_LAYOUTS,
                places=[
                    PlaceOut(
                        pos=pos,
                        row=layout.row_of[pos],
                        index=layout.index_in_row[pos],
                        group=layout.group_of[pos],
                        covered_by=list(layout.covered_by[pos]),
                        x=layout.centre_x[pos],
                        y=layout.centre_y[pos],
                    )
                    for pos in layout.positions
                ],
            )
            for layout in LAYOUTS
        ]
    )


def rules_out() -> RulesOut:
    return RulesOut(
        start=scoring.START,
        scoring=[
            ScoringOut(event="remove", points=scoring.MOVE),
            ScoringOut(event="draw", points=scoring.MOVE),
            ScoringOut(event="peak", points=scoring.PEAK_BONUS),
        ],
        undo_limit=UNDO_LIMIT,
        offered=[OPTION[letter] for letter in codes.OFFERED],
        traditional=TraditionalOut(
            start=scoring.TRADITIONAL_START,
            draw=scoring.TRADITIONAL_DRAW,
            peaks=list(scoring.TRADITIONAL_PEAK_BONUSES),
            best=scoring.TRADITIONAL_BEST,
        ),
    )


def catalog_out(lang: Lang) -> CatalogOut:
    return CatalogOut(lang=lang, messages=messages(lang), plural="n != 1")
