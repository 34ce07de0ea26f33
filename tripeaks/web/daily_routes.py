"""The routes of the deal of the day (docs/api.md): the daily game, its board, history and names.

What a daily is and what its ranked attempt may do is daily.py's; the store keeps the games and
the figures the engine gave at their last action; these routes only pick which game to hand back
and shape the replies. No request carries a figure: every score, move count and time on a board
is what the store took from the engine's replay of the stored actions, with the server's clock.
"""

from __future__ import annotations

import calendar
import itertools
import threading
from datetime import date, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from starlette.concurrency import run_in_threadpool

from tripeaks import daily, nickname
from tripeaks.game import Game
from tripeaks.i18n import translator
from tripeaks.stats import judge
from tripeaks.store import Standing, Storage
from tripeaks.web.daily_models import (
    BoardOut,
    BoardRowOut,
    HistoryDayOut,
    HistoryOut,
    MyDailyOut,
    NameIn,
    NameOut,
)
from tripeaks.web.errors import ApiError
from tripeaks.web.models import ErrorOut
from tripeaks.web.routes import (
    _ERRORS,
    _LIMITED,
    _WRITE_ERRORS,
    Caller,
    LangQuery,
    _caller,
    _json,
    _state,
    set_player_cookie,
)

router = APIRouter()
TOP = 50
"""Rows of a day's board."""
HISTORY_DAYS = 30
_STARTING = threading.Lock()
"""One daily start at a time in this process: a player's two tabs asking at once get one ranked
attempt (the database's unique index holds across processes, store._stage_daily)."""
_DAY_ERRORS: dict[int | str, dict[str, Any]] = {
    **_ERRORS,
    422: {"model": ErrorOut, "description": "a day that is not YYYY-MM-DD, today or earlier"},
}


def _dailies(caller: Caller) -> daily.Dailies:
    dailies = caller.backend.dailies
    assert dailies is not None  # create_app always makes them
    return dailies


async def _deal(caller: Caller, day: date) -> daily.DailyDeal:
    """The day's deal: kept once found; the first search of a day runs off the event loop."""
    dailies = _dailies(caller)
    known = dailies.known(day)
    return known if known is not None else await run_in_threadpool(dailies.deal, day)


def _start(store: Storage, player: str, deal: daily.DailyDeal) -> tuple[str, Game, daily.Tag, bool]:
    """The player's daily game of the day: (id, game, tag, made now). The ranked attempt while it
    lasts; once it has ended, the latest unranked replay not over, else a new one. Waits for the
    commit of a game it makes (it runs in a worker thread), so that the next call sees it."""
    with _STARTING:
        games = store.daily_games(player, deal.day)
        ranked = next((g for g in games if g.ranked), None)
        if ranked is not None:
            game = store.game(ranked.game, player)
            tag = daily.Tag(deal.day, True)
            if not daily.ended(game):
                return ranked.game, game, tag, False
            for replay in reversed([g for g in games if not g.ranked]):
                game = store.game(replay.game, player)
                if not game.is_over:
                    return replay.game, game, daily.Tag(deal.day, False), False
        tag = daily.Tag(deal.day, ranked is None)
        created = store.stage_create(player, deal.code, tag)
        created.done.result()
        return created.id, created.game, store.daily_tag(created.id) or tag, True


@router.post(
    "/api/daily",
    responses={
        200: {"description": "the game of the day resumed"},
        201: {"description": "the game of the day made: the ranked attempt, or a replay"},
        **_ERRORS,
        **_WRITE_ERRORS,
        **_LIMITED,
    },
)
async def start_daily(request: Request, lang: LangQuery = "en") -> Response:
    """Start or resume today's daily: the first call makes the player's one ranked attempt."""
    caller = _caller(request)
    backend, player = caller.backend, caller.player
    fresh = player is None
    if player is None:
        from tripeaks.store import new_id

        player = new_id()
    await caller.refuse_if_limited("games", player=player)
    deal = await _deal(caller, daily.today())
    game_id, game, tag, made = await run_in_threadpool(_start, backend.store, player, deal)
    response = _json(_state(backend.solvers, game, game_id, lang, tag=tag), 201 if made else 200)
    if fresh:
        set_player_cookie(response, caller, player)
    return response


def _day(text: str | None, lang: str) -> date:
    """The day asked for (today when none): a past day or today, never a coming one."""
    today = daily.today()
    if text is None:
        return today
    try:
        day = date.fromisoformat(text)
    except ValueError:
        day = None
    if day is None or day > today or len(text) != 10:
        raise ApiError(422, "daily_day", translator(lang)("error.daily_day"))
    return day


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


def _board(store: Storage, player: str | None, day: date, lang: str) -> tuple[Any, ...]:
    top, players = store.board(day, TOP)
    played = store.daily_code(day) if day < daily.today() else None
    mine = None
    over = False
    if player is not None:
        mine = next((g for g in store.daily_games(player, day) if g.ranked), None)
        if mine is not None:
            over = mine.finished or daily.ended(store.game(mine.game, player))
    rank = store.rank(mine) if mine is not None and mine.finished else None
    name = nickname.shown(player, store.nickname(player), lang) if player else ""
    return top, players, mine, over, rank, name, played


@router.get("/api/daily/board", response_model=BoardOut, responses={**_DAY_ERRORS, **_LIMITED})
async def board(
    request: Request,
    day: Annotated[str | None, Query(max_length=10)] = None,
    lang: LangQuery = "en",
) -> Response:
    """A day's top 50, the player's own standing, the deal's best score and, once public or the
    player's attempt is over, its code."""
    caller = _caller(request)
    await caller.refuse_if_limited("boards")
    backend = caller.backend
    asked = _day(day, lang)
    deal = await _deal(caller, asked)
    top, players, mine, over, rank, name, played = await backend.stored(
        _board, backend.store, caller.player, asked, lang
    )
    code, best = deal.code, deal.best_score
    if played is not None and played != code:  # the secret changed since: what was played
        verdict = await run_in_threadpool(judge, played)
        code, best = played, verdict.best if verdict is not None and verdict.best else best
    me = None
    if mine is not None:
        me = MyDailyOut(
            name=name,
            finished=mine.finished,
            won=mine.won,
            rank=rank,
            score=mine.score,
            moves=mine.moves,
            seconds=round(mine.seconds, 3),
            longest_streak=mine.streak,
            peaks=daily.peaks_of(mine.peaks),
            share=_share(mine, lang) if mine.finished else None,
        )
    shown = daily.code_public(asked) or over
    return _json(
        BoardOut(
            day=asked.isoformat(),
            code=str(code) if shown else None,
            best_score=best,
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
        )
    )


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


def _month(text: str | None, lang: str, today: date) -> tuple[date, date]:
    if text is None:
        return today - timedelta(days=HISTORY_DAYS - 1), today
    try:
        year, month = (int(part) for part in text.split("-"))
        first = date(year, month, 1)
    except ValueError:
        raise ApiError(422, "daily_day", translator(lang)("error.daily_day")) from None
    if first > today or first == date.min or len(text) != 7:  # the calendar counts down past it
        raise ApiError(422, "daily_day", translator(lang)("error.daily_day"))
    last = first.replace(day=calendar.monthrange(year, month)[1])
    return first, min(last, today)


def _history(store: Storage, player: str, first: date, last: date) -> tuple[Any, ...]:
    rows = store.daily_history(player, first, last)
    ranks = {row.day: store.rank(row) for row in rows if row.finished}
    return rows, ranks, store.finished_days(player)


@router.get("/api/daily/history", response_model=HistoryOut, responses=_DAY_ERRORS)
async def history(
    request: Request,
    month: Annotated[str | None, Query(max_length=7)] = None,
    lang: LangQuery = "en",
) -> Response:
    """The player's last 30 days (or a month, YYYY-MM: a calendar's days) and daily streaks."""
    caller = _caller(request)
    today = daily.today()
    first, last = _month(month, lang, today)
    rows: list[Standing] = []
    ranks: dict[date, int] = {}
    finished: list[date] = []
    if caller.player is not None:
        store = caller.backend.store
        rows, ranks, finished = await caller.backend.stored(
            _history, store, caller.player, first, last
        )
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
                won=row is not None and row.won,
                score=row.score if row is not None and row.finished else None,
                rank=ranks.get(day),
            )
        )
        day -= timedelta(days=1)
    return _json(HistoryOut(today=today.isoformat(), streak=current, best_streak=best, days=days))


@router.get("/api/player/name", response_model=NameOut, responses=_ERRORS)
async def read_name(request: Request, lang: LangQuery = "en") -> NameOut:
    caller = _caller(request)
    if caller.player is None:
        return NameOut(name=None, chosen=False)
    chosen = await caller.backend.stored(caller.backend.store.nickname, caller.player)
    return NameOut(name=nickname.shown(caller.player, chosen, lang), chosen=chosen is not None)


@router.put(
    "/api/player/name",
    response_model=NameOut,
    responses={**_ERRORS, **_WRITE_ERRORS, **_LIMITED},
)
async def set_name(request: Request, body: NameIn, lang: LangQuery = "en") -> Response:
    """The player's nickname on every board: 1-20 letters, digits and single spaces."""
    caller = _caller(request)
    await caller.refuse_if_limited("names")
    try:
        name = nickname.clean(body.name)
    except nickname.BadName as bad:
        raise ApiError(422, f"name_{bad.reason}", bad.message(lang)) from None
    player = caller.player
    fresh = player is None
    if player is None:
        from tripeaks.store import new_id

        player = new_id()
    backend = caller.backend
    await backend.committer.durable(
        await backend.stored(backend.store.stage_nickname, player, name)
    )
    response = _json(NameOut(name=name, chosen=True))
    if fresh:
        set_player_cookie(response, caller, player)
    return response
