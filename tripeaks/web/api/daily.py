"""The routes of the deal of the day (docs/api.md): the daily game, its board and history.

What a daily is and what its ranked attempt may do is daily.py's; the store keeps the games and
the figures the engine gave at their last action; these routes only pick which game to hand back;
view.py shapes the replies. No request carries a figure: every score, move count and time on a board
is what the store took from the engine's replay of the stored actions, with the server's clock.
"""

from __future__ import annotations

import calendar
import threading
from datetime import date, timedelta
from typing import Annotated

from fastapi import APIRouter, Query, Request, Response
from starlette.concurrency import run_in_threadpool

from tripeaks import daily, nickname
from tripeaks.engine.game import Game
from tripeaks.i18n import translator
from tripeaks.stats import judge
from tripeaks.store.core import StaleVersion, Storage, new_id
from tripeaks.web.api import view
from tripeaks.web.api.caller import Caller, LangQuery, caller_of, reply
from tripeaks.web.api.daily_models import BoardOut, HistoryOut
from tripeaks.web.api.errors import (
    ERRORS,
    LIMITED,
    WRITE_ERRORS,
    ApiError,
    Forbidden,
    NotFound,
    Responses,
)
from tripeaks.web.api.games import with_unlocked
from tripeaks.web.api.models import ErrorOut
from tripeaks.web.clients import network

router = APIRouter()
TOP = 50
"""Rows of a day's board."""
HISTORY_DAYS = 30
BOARD_DAYS = 366
"""Past days whose board is shown: a year back (a leap year's), longer than any history the page
lists. Older boards are a 404, so a server's answers stay those of a year's days."""
_STARTING = threading.Lock()
"""One daily start at a time in this process, so that its checks (the player's attempt, the
network's count) see the start before; starts racing on other workers make the same game
(daily.attempt_id), which the database takes once (Storage.stage_create)."""
_DAY_ERRORS: Responses = {
    **ERRORS,
    422: {"model": ErrorOut, "description": "a day that is not YYYY-MM-DD, today or earlier"},
}
_BOARD_ERRORS: Responses = {
    **_DAY_ERRORS,
    404: {"model": ErrorOut, "description": "a past day nobody played, or over BOARD_DAYS ago"},
}


def _dailies(caller: Caller) -> daily.Dailies:
    dailies = caller.backend.dailies
    assert dailies is not None  # create_app always makes them
    return dailies


async def _todays_deal(caller: Caller) -> daily.DailyDeal:
    """Today's deal, found from the secret once (off the event loop) and then kept."""
    dailies, day = _dailies(caller), daily.today()
    known = dailies.known(day)
    return known if known is not None else await run_in_threadpool(dailies.deal, day)


async def _played_deal(caller: Caller, day: date, lang: str) -> daily.DailyDeal:
    """A past day's deal: the one its dailies were dealt from, with its best score (stats.judge,
    kept for the deals seen lately). A 404 when nobody played that day or it is over BOARD_DAYS
    ago, found by one indexed read and without any search, so that asking for arbitrary days
    costs nothing."""
    backend = caller.backend
    played = None
    if day >= daily.today() - timedelta(days=BOARD_DAYS):
        played = await backend.stored(backend.store.daily_code, day)
    if played is None:
        message = translator(lang)("error.daily_no_board", days=BOARD_DAYS)
        raise NotFound("daily_no_board", message)
    verdict = await run_in_threadpool(judge, played)
    best = verdict.best if verdict is not None and verdict.best is not None else 0
    return daily.DailyDeal(day, played, best)


class _Capped(Exception):
    """The network the start came from has had its ranked attempts of the day."""


def _start(
    store: Storage, player: str, deal: daily.DailyDeal, address: str | None, cap: int
) -> tuple[str, Game, daily.Tag, tuple[str, ...] | None]:
    """The player's ranked attempt of the day: (id, game, tag, the games it left when made now,
    else None). The first start makes it
    and every later one returns it, ended or not: nothing of a day's deal is played again while
    the day is open. A network (``address``, its key) that started ``cap`` attempts of the day
    starts no more (_Capped). Waits for the commit of the game it makes (it runs in a worker
    thread), so that the next call sees it."""
    tag = daily.Tag(deal.day, True)
    with _STARTING:
        ranked = next((g for g in store.daily_games(player, deal.day) if g.ranked), None)
        if ranked is not None:
            return ranked.game, store.game(ranked.game, player), tag, None
        if address is not None and store.ranked_from(deal.day, address) >= cap:
            raise _Capped
        game_id = daily.attempt_id(player, deal.day)
        created = store.stage_create(player, deal.code, tag, game_id=game_id, address=address)
        try:
            created.done.result()
        except StaleVersion as made:  # another worker's start made it first: the same game
            return game_id, made.game, made.tag or tag, None
        return created.id, created.game, store.daily_tag(created.id) or tag, created.left


@router.post(
    "/api/daily",
    responses={
        200: {"description": "the game of the day resumed (or as it ended)"},
        201: {"description": "the player's ranked attempt made"},
        **ERRORS,
        **WRITE_ERRORS,
        **LIMITED,
    },
)
async def start_daily(request: Request, lang: LangQuery = "en") -> Response:
    """Start or resume today's daily: the first call makes the player's one ranked attempt; a
    network over its ranked attempts of the day (daily.RANKED_PER_ADDRESS) gets a 403 and nothing."""
    caller = caller_of(request)
    backend, player = caller.backend, caller.player
    fresh = player is None
    if player is None:
        player = new_id()
    await caller.refuse_if_limited("games", *(("players",) if fresh else ()), player=player)
    deal = await _todays_deal(caller)
    where = network(caller.address, backend.limiter.loopback)  # the network, as the limits see it
    address = None if where is None else _dailies(caller).address_key(where)
    cap = backend.ranked_per_address
    try:
        game_id, game, tag, left = await run_in_threadpool(
            _start, backend.store, player, deal, address, cap
        )
    except _Capped:
        message = translator(lang)("error.daily_capped", limit=cap)
        raise Forbidden("daily_capped", message) from None
    state = backend.state(game, game_id, lang, tag)
    if left:
        state = await with_unlocked(caller, player, left, state)
    response = reply(state, 200 if left is None else 201)
    if fresh:
        caller.set_cookie(response, player)
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
        raise ApiError("daily_day", translator(lang)("error.daily_day"))
    return day


def _board(store: Storage, player: str | None, day: date, public: bool, lang: str) -> view.Board:
    """(top rows, players, the player's attempt, whether it has ended, its rank, its name). The
    rows of a day not yet ``public`` are read only for a player whose own attempt has ended:
    before that they would tell the day's best score, and so its fewest draws."""
    mine = None
    over = False
    if player is not None:
        mine = next((g for g in store.daily_games(player, day) if g.ranked), None)
        if mine is not None:
            over = mine.finished or daily.ended(store.game(mine.game, player))
    top, players = store.board(day, TOP if public or over else 0)
    rank = store.rank(mine) if mine is not None and mine.finished else None
    name = nickname.shown(player, store.nickname(player), lang) if player else ""
    return top, players, mine, over, rank, name


@router.get("/api/daily/board", response_model=BoardOut, responses={**_BOARD_ERRORS, **LIMITED})
async def board(
    request: Request,
    day: Annotated[str | None, Query(max_length=10)] = None,
    lang: LangQuery = "en",
) -> Response:
    """A day's board. While the day is open: how many have finished, and the player's own
    standing; its top rows once the player's own attempt has ended; never the deal's code or best
    score. Once the day is over: all of it, with the code that deals its cards."""
    caller = caller_of(request)
    await caller.refuse_if_limited("boards")
    backend = caller.backend
    asked = _day(day, lang)
    public = daily.code_public(asked)  # read once: the day may close meanwhile
    deal = await _played_deal(caller, asked, lang) if public else None
    found = await backend.stored(_board, backend.store, caller.player, asked, public, lang)
    return reply(view.board_out(asked, deal, found, public, lang))


def _month(text: str | None, lang: str, today: date) -> tuple[date, date]:
    if text is None:
        return today - timedelta(days=HISTORY_DAYS - 1), today
    try:
        year, month = (int(part) for part in text.split("-"))
        first = date(year, month, 1)
    except ValueError:
        raise ApiError("daily_day", translator(lang)("error.daily_day")) from None
    if first > today or first == date.min or len(text) != 7:  # the calendar counts down past it
        raise ApiError("daily_day", translator(lang)("error.daily_day"))
    last = first.replace(day=calendar.monthrange(year, month)[1])
    return first, min(last, today)


def _history(store: Storage, player: str, first: date, last: date) -> view.History:
    """(the ranked attempts, their ranks, the days finished, the days whose attempt has ended):
    an attempt not finished has ended once its day has closed or it was left for another game
    (only an open day's attempt is read, to tell)."""
    rows = store.daily_history(player, first, last)
    ranks = {row.day: store.rank(row) for row in rows if row.finished}
    ended = {
        row.day
        for row in rows
        if row.finished or not daily.is_open(row.day) or daily.ended(store.game(row.game, player))
    }
    return rows, ranks, store.finished_days(player), ended


@router.get("/api/daily/history", response_model=HistoryOut, responses=_DAY_ERRORS)
async def history(
    request: Request,
    month: Annotated[str | None, Query(max_length=7)] = None,
    lang: LangQuery = "en",
) -> Response:
    """The player's last 30 days (or a month, YYYY-MM: a calendar's days) and daily streaks."""
    caller = caller_of(request)
    today = daily.today()
    first, last = _month(month, lang, today)
    found: view.History = ([], {}, [], set())
    if caller.player is not None:
        store = caller.backend.store
        found = await caller.backend.stored(_history, store, caller.player, first, last)
    return reply(view.history_out(today, first, last, found))
