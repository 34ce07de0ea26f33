"""The FastAPI app: routes of docs/api.md only; rules live in the engine, storage in the store."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request, Response
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from tripeaks import stats as statistics
from tripeaks.codes import GameCode, InvalidCode
from tripeaks.game import DRAW, UNDO, Action, Game, IllegalMove, Status
from tripeaks.i18n import messages, translator
from tripeaks.layout import CENTRE_X, COVERED_BY, INDEX_IN_ROW, PEAK_OF, POSITIONS, ROW_OF
from tripeaks.rules import Rules
from tripeaks.store import StaleVersion, Store, UnknownGame, new_id
from tripeaks.web import errors, solving
from tripeaks.web.committer import Committer
from tripeaks.web.errors import ApiError
from tripeaks.web.models import (
    ActionIn,
    CatalogOut,
    ErrorOut,
    GameState,
    HintAction,
    HintOut,
    Lang,
    LayoutOut,
    NewGameIn,
    PlayIn,
    PositionOut,
    RecentOut,
    StatsOut,
    StatsPage,
)
from tripeaks.web.turns import perform
from tripeaks.web.view import game_state

STATIC = Path(__file__).parent / "static"
COOKIE = "tripeaks_player"
COOKIE_AGE = 10 * 365 * 24 * 3600
_PLAYER_RE = re.compile(r"[A-Za-z0-9_-]{16,64}")
PREVIEW_MAX_ACTIONS = 1000

LangQuery = Annotated[Lang, Query(description="language of every word in the reply")]

_ERRORS: dict[int | str, dict[str, Any]] = {
    413: {"model": ErrorOut, "description": "body over 16 KB"},
    422: {"model": ErrorOut, "description": "refused: bad request or by the rules"},
}
_GAME_ERRORS: dict[int | str, dict[str, Any]] = {
    **_ERRORS,
    404: {"model": ErrorOut, "description": "no such game for this player"},
}
_ACTION_ERRORS: dict[int | str, dict[str, Any]] = {
    **_GAME_ERRORS,
    409: {"model": ErrorOut, "description": "stale version; carries the current state"},
}


def _player(request: Request) -> str | None:
    """The anonymous player id of the cookie, if it looks like one we issued."""
    value = request.cookies.get(COOKIE)
    return value if value and _PLAYER_RE.fullmatch(value) else None


def _layout() -> LayoutOut:
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


def _json(model: BaseModel, status: int = 200) -> Response:
    """Serialize once; FastAPI would otherwise validate the finished model a second time."""
    return Response(model.model_dump_json(), status_code=status, media_type="application/json")


NEAR_THE_END = 20
"""Cards removed (or fewer than 4 left in the stock) from which the deal's verdict is prepared."""


async def _with_result(state: GameState) -> GameState:
    """The solver's verdict on the deal once the game is over; asked for early, never waited on."""
    removed = sum(slot.slot == "removed" for slot in state.tableau)
    if state.status != Status.PLAYING.value:
        state.result = solving.deal_result(GameCode.parse(state.code))
    elif removed >= NEAR_THE_END or state.stock_size < 4:
        solving.deal_result(GameCode.parse(state.code))
    return state


def create_app(db_path: str | Path) -> FastAPI:
    """The whole app on one SQLite file; browser tests start uvicorn on this with a temporary one."""
    store = Store(db_path)
    committer = Committer(store)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        store.close()

    app = FastAPI(
        title="TriPeaks",
        version="1",
        description="The JSON API between the TriPeaks server and its page (docs/api.md).",
        lifespan=lifespan,
    )
    app.state.store = store
    errors.install(app)

    def unknown_game(lang: str) -> ApiError:
        return ApiError(404, "unknown_game", translator(lang)("error.unknown_game"))

    async def current(game_id: str, player: str | None, lang: str) -> GameState:
        try:
            state = store.view(game_id, player, lambda g: game_state(g, lang, game_id=game_id))
        except UnknownGame:
            raise unknown_game(lang) from None
        return await _with_result(state)

    async def act(
        request: Request, game_id: str, action: Action, body: ActionIn | PlayIn, lang: str
    ) -> GameState:
        player = _player(request)

        def reply(game: Game, done: Action) -> GameState:
            return game_state(game, lang, game_id=game_id, turn=perform(game, done))

        try:
            state, ticket = store.stage_apply(
                game_id, player, action, body.version, reply, body.request_id
            )
        except UnknownGame:
            raise unknown_game(lang) from None
        except StaleVersion:
            now = await current(game_id, player, lang)
            raise ApiError(409, "stale", translator(lang)("error.stale"), now) from None
        except IllegalMove as refusal:
            now = await current(game_id, player, lang)
            raise ApiError(422, refusal.reason.name.lower(), refusal.message(lang), now) from None
        await committer.durable_after(ticket)
        return await _with_result(state)

    @app.get("/", include_in_schema=False, response_model=None)
    async def index(request: Request) -> FileResponse | JSONResponse:
        page = STATIC / "index.html"
        if not page.is_file():
            lang = errors.request_language(request)
            return errors.error_response(404, "no_page", translator(lang)("error.no_page"))
        return FileResponse(page, headers={"Cache-Control": "no-cache"})

    @app.get("/api/layout", response_model=LayoutOut)
    async def layout() -> Response:
        return _json_bytes(_LAYOUT_JSON)

    @app.get("/api/i18n/{lang}", response_model=CatalogOut, responses={422: {"model": ErrorOut}})
    async def catalog(lang: Lang) -> Response:
        return _json_bytes(_catalog_json(lang))

    @app.post("/api/games", status_code=201, response_model=GameState, responses=_ERRORS)
    async def new_game(
        request: Request, body: NewGameIn | None = None, lang: LangQuery = "en"
    ) -> Response:
        body = body or NewGameIn()
        rules = Rules[body.rules.upper()]
        if body.code is not None and body.code.strip():
            try:
                code = GameCode.parse(body.code)
            except InvalidCode:
                message = translator(lang)("error.invalid_code")
                raise ApiError(422, "invalid_code", message) from None
        elif body.winnable_only:
            found = await run_in_threadpool(solving.winnable_code, rules)
            code = found or GameCode.random(rules)
        else:
            code = GameCode.random(rules)
        player = _player(request)
        fresh = player is None
        if player is None:
            player = new_id()
        record, ticket = store.stage_create(player, code)
        await committer.durable_after(ticket)
        response = _json(game_state(record.game, lang, game_id=record.id), 201)
        if fresh:
            response.set_cookie(
                COOKIE, player, max_age=COOKIE_AGE, httponly=True, samesite="strict"
            )
        return response

    @app.get("/api/games/{game_id}", response_model=GameState, responses=_GAME_ERRORS)
    async def read_game(request: Request, game_id: str, lang: LangQuery = "en") -> Response:
        return _json(await current(game_id, _player(request), lang))

    @app.post("/api/games/{game_id}/play", response_model=GameState, responses=_ACTION_ERRORS)
    async def play(
        request: Request, game_id: str, body: PlayIn, lang: LangQuery = "en"
    ) -> Response:
        return _json(await act(request, game_id, Action.play(body.pos), body, lang))

    @app.post("/api/games/{game_id}/draw", response_model=GameState, responses=_ACTION_ERRORS)
    async def draw(
        request: Request, game_id: str, body: ActionIn, lang: LangQuery = "en"
    ) -> Response:
        return _json(await act(request, game_id, DRAW, body, lang))

    @app.post("/api/games/{game_id}/undo", response_model=GameState, responses=_ACTION_ERRORS)
    async def undo(
        request: Request, game_id: str, body: ActionIn, lang: LangQuery = "en"
    ) -> Response:
        return _json(await act(request, game_id, UNDO, body, lang))

    @app.get(
        "/api/games/{game_id}/hint",
        responses={**_GAME_ERRORS, 503: {"model": ErrorOut, "description": "no solver"}},
    )
    async def hint(request: Request, game_id: str, lang: LangQuery = "en") -> HintOut:
        _ = translator(lang)
        try:
            game = store.view(game_id, _player(request), _copy)
        except UnknownGame:
            raise unknown_game(lang) from None
        if game.is_won:
            return HintOut(winnable=True, action=None, message=_("hint.won"))
        answer = await solving.hint(game)
        if answer is None:
            raise ApiError(503, "unavailable", _("hint.unavailable"))
        winnable, action = answer
        return _hint_out(game, winnable, action, lang)

    @app.get("/api/preview", responses=_ERRORS)
    async def preview(
        code: Annotated[str, Query(max_length=64)],
        actions: Annotated[str, Query(max_length=16 * 1024)] = "",
        lang: LangQuery = "en",
    ) -> GameState:
        return await _with_result(_preview(code, actions, lang))

    @app.get("/api/stats")
    async def read_stats(request: Request, lang: LangQuery = "en") -> StatsPage:
        player = _player(request)
        results = store.results(player) if player else []
        return StatsPage(
            easy=_stats_out(statistics.summarize(results, Rules.EASY)),
            classic=_stats_out(statistics.summarize(results, Rules.CLASSIC)),
            recent=[
                RecentOut(
                    code=str(r.code),
                    rules=r.code.rules.name.lower(),  # type: ignore[arg-type]
                    outcome=r.outcome,  # type: ignore[arg-type]
                    score=r.score,
                    finished_at=datetime.fromtimestamp(r.finished_at, UTC).isoformat(
                        timespec="seconds"
                    ),
                )
                for r in statistics.recent(results)
            ],
        )

    @app.delete("/api/stats", status_code=204, response_class=Response)
    async def reset_stats(request: Request) -> Response:
        player = _player(request)
        if player:
            await committer.durable_after(store.stage_reset(player))
        return Response(status_code=204)

    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app


_LAYOUT_JSON = _layout().model_dump_json().encode()


@cache
def _catalog_json(lang: Lang) -> bytes:
    """Every message of a language, serialized once: catalogs do not change while serving."""
    body = CatalogOut(lang=lang, messages=messages(lang), plural="n != 1")
    return body.model_dump_json().encode()


def _json_bytes(content: bytes) -> Response:
    return Response(content, media_type="application/json")


def _copy(game: Game) -> Game:
    """A separate game to hand to the solver, so its search never touches the live one."""
    assert game.code is not None
    return Game.replay(game.code, game.actions)


def _hint_out(game: Game, winnable: bool, action: Action | None, lang: str) -> HintOut:
    _ = translator(lang)
    if action is None:
        return HintOut(winnable=winnable, action=None, message=_("hint.lost"))
    if action.pos is None:
        return HintOut(winnable=winnable, action=HintAction(kind="draw"), message=_("hint.draw"))
    from tripeaks.describe import card_name

    card = game.card_at(action.pos)
    assert card is not None
    return HintOut(
        winnable=winnable,
        action=HintAction(kind="play", pos=action.pos),
        message=_("hint.play", card=card_name(card, lang)),
    )


def _preview(code_text: str, actions_text: str, lang: str) -> GameState:
    """A code after some actions, stored nowhere; the help's worked example draws these."""
    _ = translator(lang)
    try:
        code = GameCode.parse(code_text)
    except InvalidCode:
        raise ApiError(422, "invalid_code", _("error.invalid_code")) from None
    words = [w.strip() for w in actions_text.split(",") if w.strip()]
    if len(words) > PREVIEW_MAX_ACTIONS:
        raise ApiError(422, "bad_request", _("error.bad_request", field="actions"))
    try:
        steps = [Action.parse(w) for w in words]
    except ValueError:
        raise ApiError(422, "bad_request", _("error.bad_request", field="actions")) from None
    game = Game.new(code)
    try:
        for step in steps[:-1]:
            game.apply(step)
        turn = perform(game, steps[-1]) if steps else None
    except IllegalMove as refusal:
        raise ApiError(422, refusal.reason.name.lower(), refusal.message(lang)) from None
    return game_state(game, lang, game_id=None, turn=turn)


def _stats_out(s: statistics.Stats) -> StatsOut:
    return StatsOut(
        played=s.played,
        won=s.won,
        win_rate=s.win_rate,
        current_streak=s.current_streak,
        best_streak=s.best_streak,
        best_score=s.best_score,
        average_winning_score=s.average_winning_score,
    )
