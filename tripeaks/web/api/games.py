"""The routes of docs/api.md: each asks the store or the solver and shapes the reply with view.py.

An action goes one straight way: the page posts an intent, the route hands it to the store, the
store has the engine apply it and stages it, the route waits for the commit that holds it and sends
the state and the engine's Turn back. Rules live in the engine, storage in the store, words in the
catalogs; what a route knows is which of those to call.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar

from babel.numbers import format_percent
from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.types import Scope

from tripeaks import daily
from tripeaks import stats as statistics
from tripeaks.engine import codes
from tripeaks.engine import score as scoring
from tripeaks.engine.codes import GameCode, InvalidCode, NotOffered, offer, offered
from tripeaks.engine.game import DRAW, UNDO, UNDO_LIMIT, Action, Game, IllegalMove
from tripeaks.engine.layout import CENTRE_X, COVERED_BY, INDEX_IN_ROW, PEAK_OF, POSITIONS, ROW_OF
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import OPTION_NAMES, Scoring, Variant
from tripeaks.i18n import messages, translator
from tripeaks.store.core import ActionRefused, Refused, Storage, UnknownGame, new_id
from tripeaks.web.api import errors, explaining
from tripeaks.web.api.errors import ApiError
from tripeaks.web.api.models import (
    ActionIn,
    ByGradeOut,
    CatalogOut,
    CodeOut,
    ErrorOut,
    GameState,
    GradeStatsOut,
    HintAction,
    HintKindName,
    HintOut,
    Lang,
    LayoutOut,
    NewGameIn,
    PlayIn,
    PositionOut,
    RecentOut,
    RulesOut,
    ScoringOut,
    StatsOut,
    StatsPage,
    TraditionalOut,
    VariantStatsOut,
)
from tripeaks.web.api.view import game_state, variant_out
from tripeaks.web.backend import solver_worker, solving
from tripeaks.web.backend.committer import Committer
from tripeaks.web.backend.solving import Solvers
from tripeaks.web.http.identity import Identity
from tripeaks.web.http.ratelimit import Limiter

if TYPE_CHECKING:
    from tripeaks.web.http.metrics import Meter

STATIC = Path(__file__).parent.parent / "static"
COOKIE = "tripeaks_player"
COOKIE_AGE = 10 * 365 * 24 * 3600
PREVIEW_MAX_ACTIONS = 1000

router = APIRouter()
P = ParamSpec("P")
T = TypeVar("T")

# What a route is handed ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Backend:
    """What the app made for its routes: the store, its commit thread and the solver workers."""

    store: Storage
    committer: Committer
    solvers: Solvers
    limiter: Limiter
    identity: Identity
    """Signs and reads the player cookies (identity.py)."""
    meter: Meter | None = None
    """The metrics, when the app serves them (Hosting.metrics)."""
    dailies: daily.Dailies | None = None
    """The deals of the day (daily.py), from the server's secret."""
    ranked_per_address: int = daily.RANKED_PER_ADDRESS
    """Ranked attempts at a day's deal from one client network (Hosting.ranked_per_address)."""

    async def stored(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """A store call, made so that the event loop never waits on a database server.

        SQLite answers from this process's memory or a local file in microseconds: the call runs
        inline (a thread hop would cost more than it saves). A shared store (PostgreSQL) may read
        over the network, a round trip that would stall every other request of this worker: the
        call runs in a worker thread.
        """
        if not self.store.shared:
            return call(*args, **kwargs)
        return await run_in_threadpool(call, *args, **kwargs)


@dataclass(frozen=True, slots=True)
class Caller:
    """The backend and the player a request is for: one dependency, so FastAPI solves one per request."""

    backend: Backend
    player: str | None
    """The anonymous player id of the cookie, if the server signed it (identity.py); None for
    no cookie and for one it did not sign: such a request is a new player's."""
    scope: Scope
    """The request's ASGI scope: its client address and scheme, read only by the routes that
    need them (rate limits, the cookie's ``Secure``)."""

    @property
    def address(self) -> str | None:
        """The client's address (the declared proxy's X-Forwarded-For one behind
        ``--behind-proxy``): what the limits, the daily's network count and the solver's shares
        count by."""
        client = self.scope.get("client")
        return str(client[0]) if client else None

    async def refuse_if_limited(self, *kinds: str, player: str | None = None) -> None:
        """Count one request of each kind (ratelimit.py); raise 429 when one is over its limit.

        ``player`` is the one counted when it is not the cookie's (a new player's first game).
        Counts the workers share are a database round trip, made off the event loop.
        """
        address = self.address
        limiter, who = self.backend.limiter, player or self.player
        if not limiter.active:
            return
        if limiter.counts.shared:
            wait = await run_in_threadpool(limiter.refusal, kinds, who, address)
        else:
            wait = limiter.refusal(kinds, who, address)
        if wait is None:
            return
        if self.backend.meter is not None:
            for kind in kinds:
                self.backend.meter.limited.labels(kind).inc()
        lang = errors.scope_language(self.scope)
        message = translator(lang)("error.rate_limited", seconds=wait)
        raise ApiError(429, "rate_limited", message, headers={"Retry-After": str(wait)})


def _caller(request: Request) -> Caller:
    """What a route is for, read from ``app.state`` and the cookie.

    A plain call, not a ``Depends``: FastAPI 0.165 solves every sub-dependency with a second pass
    of its dependency machinery (a new Response, cache keys, scope checks), about 3% of the CPU of
    a whole action (cachegrind); a ``Request`` parameter costs nothing extra.
    """
    backend: Backend = request.app.state.backend
    player = backend.identity.player(request.cookies.get(COOKIE))
    return Caller(backend, player, request.scope)


async def _hint_allowed(request: Request) -> AsyncIterator[None]:
    """The hint route's rate limit, and its count of hints waiting for the solver.

    A dependency of that one route (which is not on the hot path of actions), so that its body
    stays the solver's business."""
    caller = _caller(request)
    await caller.refuse_if_limited("hints")
    meter = caller.backend.meter
    if meter is None:
        yield
        return
    meter.hints_waiting.inc()
    try:
        yield
    finally:
        meter.hints_waiting.dec()


LangQuery = Annotated[Lang, Query(description="language of every word in the reply")]

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "a Host the server was not started for"},
    413: {"model": ErrorOut, "description": "body over 16 KB"},
    422: {"model": ErrorOut, "description": "refused: bad request or by the rules"},
    503: {"model": ErrorOut, "description": "the database cannot take the change now; retry"},
}
_GAME_ERRORS: dict[int | str, dict[str, Any]] = {
    **_ERRORS,
    404: {"model": ErrorOut, "description": "no such game for this player"},
}
_WRITE_ERRORS: dict[int | str, dict[str, Any]] = {
    403: {
        "model": ErrorOut,
        "description": "a write from another site or origin; the ranked daily's policy",
    },
    415: {"model": ErrorOut, "description": "a write whose body is not application/json"},
}
_LIMITED: dict[int | str, dict[str, Any]] = {
    429: {"model": ErrorOut, "description": "over a rate limit; retry after Retry-After seconds"},
}
_ACTION_ERRORS: dict[int | str, dict[str, Any]] = {
    **_GAME_ERRORS,
    **_WRITE_ERRORS,
    409: {
        "model": ErrorOut,
        "description": "stale version, game over or a reused request id; carries the state",
    },
}

# Replies -------------------------------------------------------------------------------------


def _json(model: BaseModel, status: int = 200) -> Response:
    """Serialize once; FastAPI would otherwise validate the finished model a second time."""
    body = model.model_dump_json(by_alias=True)
    return Response(body, status_code=status, media_type="application/json")


def _json_bytes(content: bytes) -> Response:
    return Response(content, media_type="application/json")


def _unknown_game(lang: str) -> ApiError:
    return ApiError(404, "unknown_game", translator(lang)("error.unknown_game"))


def _state(
    solvers: Solvers,
    game: Game,
    game_id: str | None,
    lang: str,
    tag: daily.Tag | None = None,
    **extra: Any,
) -> GameState:
    """The player's state of a game, with the deal's verdict once over (asked for near the end);
    none for a daily of an open day, whose deal nobody is told anything of."""
    result = None
    if not daily.secret(tag):
        if game.is_over or game.is_stuck:
            result = solvers.deal_result(_code(game))
        elif game.near_the_end:
            solvers.deal_result(_code(game))  # start the search now; nobody waits for it
    return game_state(game, lang, game_id=game_id, result=result, tag=tag, **extra)


def _read_code(text: str, lang: str) -> GameCode:
    """A code from outside (TP1 or TP2), as a new game reads it: a bad one, or one with options
    this version does not offer yet, is a 422 that changes nothing. Any good code is read the same
    way, whoever's it is: the deal of the day is dealt from the secret, and its code (a long one)
    cannot be worked out from what is seen of it (docs/decisions.md)."""
    try:
        parsed = GameCode.parse(text)
    except InvalidCode:
        raise ApiError(422, "invalid_code", translator(lang)("error.invalid_code")) from None
    _offer(parsed, lang)
    return parsed


def _offer(code: GameCode | Variant, lang: str) -> None:
    """Nothing, if this version offers all the code's or the new deal's options; else a 422 that
    changes nothing."""
    try:
        if isinstance(code, GameCode):
            offered(code)
        else:
            offer(code)
    except NotOffered as refusal:
        raise ApiError(422, "options_not_offered", refusal.message(lang)) from None


def _code(game: Game) -> GameCode:
    assert game.code is not None
    return game.code


_CONFLICTS = frozenset({"stale", "request_id_reused", "game_over"})
"""Refusals that say the game moved on (another tab, an old request): 409 with the state."""


def _refusal(refused: Refused, solvers: Solvers, game_id: str, lang: str) -> ApiError:
    _ = translator(lang)
    if isinstance(refused, ActionRefused):
        message = refused.refusal.message(lang)
    else:
        message = _(f"error.{refused.reason}")
    state = _state(solvers, refused.game, game_id, lang, tag=refused.tag)
    status = 403 if refused.reason == daily.RANKED_REFUSED else 422
    return ApiError(409 if refused.reason in _CONFLICTS else status, refused.reason, message, state)


async def _act(
    caller: Caller,
    game_id: str,
    action: Action,
    body: ActionIn | PlayIn,
    lang: str,
) -> Response:
    """The one way an action goes: store (engine inside), the commit, the reply."""
    backend, store = caller.backend, caller.backend.store
    arguments = (game_id, caller.player, action, body.version, body.request_id)
    try:
        applied = store.stage_apply_cached(*arguments)  # no thread hop when nothing is read
        if applied is None:
            applied = await backend.stored(store.stage_apply, *arguments)
    except UnknownGame:
        raise _unknown_game(lang) from None
    except Refused as refused:  # it carries the game and its tag, as Applied does: no more asking
        raise _refusal(refused, backend.solvers, game_id, lang) from None
    # The reply is made from the snapshot while the commit is in flight, and sent once it is durable.
    state = _state(backend.solvers, applied.game, game_id, lang, turn=applied.turn, tag=applied.tag)
    reply = _json(state)
    try:
        await backend.committer.durable(applied.done)
    except Refused as refused:  # the game moved on through another worker before this commit
        raise _refusal(refused, backend.solvers, game_id, lang) from None
    if backend.meter is not None and not applied.again:  # a retry was counted the first time
        backend.meter.actions[action.kind.value].inc()
        if applied.game.is_won:
            backend.meter.counted["won"].inc()
    return reply


# Routes --------------------------------------------------------------------------------------


@router.get("/", include_in_schema=False, response_model=None)
async def index(request: Request) -> FileResponse | JSONResponse:
    page = STATIC / "index.html"
    if not page.is_file():
        lang = errors.request_language(request)
        return errors.error_response(404, "no_page", translator(lang)("error.no_page"))
    return FileResponse(page, headers={"Cache-Control": "no-cache"})


@router.get("/api/layout", response_model=LayoutOut)
async def layout() -> Response:
    return _json_bytes(_LAYOUT_JSON)


@router.get("/api/rules", response_model=RulesOut)
async def rules() -> Response:
    return _json_bytes(_RULES_JSON)


@router.get("/api/i18n/{lang}", response_model=CatalogOut, responses={422: {"model": ErrorOut}})
async def catalog(lang: Lang) -> Response:
    return _json_bytes(_catalog_json(lang))


@router.get("/api/code", response_model=CodeOut, responses=_ERRORS)
async def check_code(code: Annotated[str, Query(max_length=64)], lang: LangQuery = "en") -> CodeOut:
    """Read a typed code the way a new game would, and change nothing."""
    parsed = _read_code(code, lang)
    rules = parsed.rules.name.lower()
    return CodeOut(code=str(parsed), rules=rules, variant=variant_out(parsed.variant))  # type: ignore[arg-type]


@router.post(
    "/api/games",
    status_code=201,
    response_model=GameState,
    responses={**_ERRORS, **_WRITE_ERRORS, **_LIMITED},
)
async def new_game(
    request: Request,
    body: NewGameIn | None = None,
    lang: LangQuery = "en",
) -> Response:
    caller = _caller(request)
    backend, player = caller.backend, caller.player
    body = body or NewGameIn()
    rules = Rules[body.rules.upper()]
    variant = Variant(
        rules,
        Scoring[body.scoring.upper()],
        open_peaks=body.open_peaks,
        empty_discard=body.empty_discard,
        joker=body.joker,
    )
    code = None
    if body.code is not None and body.code.strip():
        code = _read_code(body.code, lang)
    fresh = player is None
    if player is None:
        player = new_id()  # made now, so that its first game counts against its own limit too
    graded = body.difficulty != "any" and code is None  # a typed code ignores the difficulty
    winnable = (body.winnable_only or graded) and code is None  # ...and never asks the solver
    kinds = ("games", *(("winnable",) if winnable else ()), *(("players",) if fresh else ()))
    await caller.refuse_if_limited(*kinds, player=player)
    if code is None:  # the options asked for must be offered, as a typed code's are
        _offer(variant, lang)
    if graded:
        code = await _graded_code(backend.solvers, variant, body.difficulty, lang)
    elif code is None and winnable:
        found = await run_in_threadpool(backend.solvers.winnable_code, variant)
        code = found or GameCode.random(variant)
    elif code is None:
        code = GameCode.random(variant)
    created = await backend.stored(backend.store.stage_create, player, code)
    response = _json(game_state(created.game, lang, game_id=created.id), 201)
    await backend.committer.durable(created.done)
    if backend.meter is not None:
        backend.meter.started[body.rules].inc()
        if created.lost:
            backend.meter.counted["lost"].inc(created.lost)
    if fresh:
        set_player_cookie(response, caller, player)
    return response


async def _graded_code(solvers: Solvers, variant: Variant, grade: str, lang: str) -> GameCode:
    """A random deal of the grade, found in the solver's worker; 503 when none turned up."""
    later = {"Retry-After": str(solving.RETRY_AFTER)}
    _ = translator(lang)
    try:
        found = await solvers.graded_code(variant, grade)
    except solving.HintRefused:
        raise ApiError(503, "busy", _("error.solver_busy"), headers=later) from None
    if found is None:
        raise ApiError(503, "no_graded_deal", _("error.no_graded_deal"), headers=later)
    return found


def set_player_cookie(response: Response, caller: Caller, player: str) -> None:
    """The new player's cookie: their id with the server's signature (identity.py)."""
    player_cookie(response, caller.scope, caller.backend.identity.token(player))


def player_cookie(response: Response, scope: Scope, token: str) -> None:
    """The player cookie with a signed id: theirs for ten years, never sent cross-site nor to
    scripts, and ``Secure`` over HTTPS (direct TLS or a trusted proxy's)."""
    response.set_cookie(
        COOKIE,
        token,
        max_age=COOKIE_AGE,
        httponly=True,
        samesite="strict",
        secure=scope.get("scheme") == "https",
    )


@router.get("/api/games/{game_id}", response_model=GameState, responses=_GAME_ERRORS)
async def read_game(request: Request, game_id: str, lang: LangQuery = "en") -> Response:
    caller = _caller(request)
    game, tag = await _players_game(caller, game_id, lang)
    return _json(_state(caller.backend.solvers, game, game_id, lang, tag=tag))


@router.post("/api/games/{game_id}/play", response_model=GameState, responses=_ACTION_ERRORS)
async def play(request: Request, game_id: str, body: PlayIn, lang: LangQuery = "en") -> Response:
    return await _act(_caller(request), game_id, Action.play(body.pos), body, lang)


@router.post("/api/games/{game_id}/draw", response_model=GameState, responses=_ACTION_ERRORS)
async def draw(request: Request, game_id: str, body: ActionIn, lang: LangQuery = "en") -> Response:
    return await _act(_caller(request), game_id, DRAW, body, lang)


@router.post("/api/games/{game_id}/undo", response_model=GameState, responses=_ACTION_ERRORS)
async def undo(request: Request, game_id: str, body: ActionIn, lang: LangQuery = "en") -> Response:
    return await _act(_caller(request), game_id, UNDO, body, lang)


MOVES: dict[Callable[..., Awaitable[Response]], type[BaseModel]] = {
    play: PlayIn,
    draw: ActionIn,
    undo: ActionIn,
}
"""The three moves' routes and their bodies, for moves.py's short way to the same route."""


@router.get(
    "/api/games/{game_id}/hint",
    responses={
        **_GAME_ERRORS,
        429: {
            "model": ErrorOut,
            "description": "this player's previous hint is still searched, or over a rate limit",
        },
        503: {"model": ErrorOut, "description": "the solver is busy or found no answer in time"},
    },
    dependencies=[Depends(_hint_allowed)],
)
async def hint(
    request: Request,
    game_id: str,
    lang: LangQuery = "en",
    kind: Annotated[
        HintKindName, Query(description="fair: from what the player sees; perfect: every card")
    ] = "fair",
) -> HintOut:
    caller = _caller(request)
    _ = translator(lang)
    game, tag = await _players_game(caller, game_id, lang)
    policy = daily.refusal(tag, None)
    if policy is not None:
        raise ApiError(403, policy, _(f"error.{policy}"))
    if game.is_won:
        return HintOut(winnable=True, action=None, message=_("hint.won"), kind=kind)
    if game.is_over:
        return HintOut(winnable=False, action=None, message=_("hint.lost"), kind=kind)
    solvers, address = caller.backend.solvers, caller.address
    if kind == "fair":
        fair = await _searched(solvers.fair_hint(game, caller.player, address), lang)
        await _hinted(caller, game_id, kind)
        return _fair_hint_out(game, fair, lang)
    winnable, action = await _searched(solvers.hint(game, caller.player, address), lang)
    await _hinted(caller, game_id, kind)
    return _hint_out(game, winnable, action, lang)


async def _players_game(caller: Caller, game_id: str, lang: str) -> tuple[Game, daily.Tag | None]:
    """The caller's game (404 for any other) and whether it is a daily."""
    try:
        game = await caller.backend.stored(caller.backend.store.game, game_id, caller.player)
    except UnknownGame:
        raise _unknown_game(lang) from None
    return game, await caller.backend.stored(caller.backend.store.daily_tag, game_id)


async def _searched(search: Awaitable[T | None], lang: str) -> T:
    """A search in the solver's worker: refused at once (429 hint_pending, 503 busy) or found no
    answer this time (503 unavailable), each with Retry-After."""
    _ = translator(lang)
    later = {"Retry-After": str(solving.RETRY_AFTER)}
    try:
        found = await search
    except solving.HintRefused as refused:
        message = _("hint.pending" if refused.reason == "hint_pending" else "hint.busy")
        raise ApiError(refused.status, refused.reason, message, headers=later) from None
    if found is None:
        raise ApiError(503, "unavailable", _("hint.unavailable"), headers=later)
    return found


async def _hinted(caller: Caller, game_id: str, kind: HintKindName) -> None:
    """The game's result will say a hint of this kind was asked (counted apart), durably."""
    backend = caller.backend
    await backend.committer.durable(
        await backend.stored(backend.store.stage_hinted, game_id, caller.player, kind)
    )


@router.get(
    "/api/games/{game_id}/review",
    responses={
        **_GAME_ERRORS,
        409: {"model": ErrorOut, "description": "the game is still being played"},
        429: {
            "model": ErrorOut,
            "description": "this player's previous search is still under way, or over a rate limit",
        },
        503: {"model": ErrorOut, "description": "the solver is busy or found no answer in time"},
    },
    dependencies=[Depends(_hint_allowed)],
)
async def review(request: Request, game_id: str, lang: LangQuery = "en") -> Response:
    """A finished game explained: where it was lost, the draws of a win, a winning line to show
    (explain.py, in the solver's worker). Nothing is stored; the replay is made by the engine."""
    caller = _caller(request)
    _ = translator(lang)
    game, tag = await _players_game(caller, game_id, lang)
    policy = daily.refusal(tag, None)  # a daily's deal is explained once its day is over
    if policy is not None:
        raise ApiError(403, policy, _(f"error.{policy}"))
    if not (game.is_over or game.is_stuck):
        raise ApiError(409, "not_over", _("error.not_over"))
    found = await _searched(
        caller.backend.solvers.review(game, caller.player, caller.address), lang
    )
    if not game.is_over and game.can_undo:
        # stuck, and an undo can still save it: where it was lost and a winning line from there
        # are the best hint there is, and the game's win is counted as one with a perfect hint
        await _hinted(caller, game_id, "perfect")
    return _json(explaining.review_out(game, found, lang, tag))


@router.get("/api/preview", responses={**_ERRORS, **_LIMITED})
async def preview(
    request: Request,
    code: Annotated[str, Query(max_length=64)],
    actions: Annotated[str, Query(max_length=16 * 1024)] = "",
    lang: LangQuery = "en",
) -> Response:
    """A code after some actions, stored nowhere; the help's worked example draws these."""
    caller = _caller(request)
    await caller.refuse_if_limited("previews")
    _ = translator(lang)
    parsed = _read_code(code, lang)
    words = [w.strip() for w in actions.split(",") if w.strip()]
    if len(words) > PREVIEW_MAX_ACTIONS:
        raise ApiError(422, "bad_request", _("error.bad_request", field="actions"))
    try:
        steps = [Action.parse(w) for w in words]
    except ValueError:
        raise ApiError(422, "bad_request", _("error.bad_request", field="actions")) from None
    game = Game.new(parsed)
    turn = None
    try:
        for step in steps:
            turn = game.act(step)
    except IllegalMove as refusal:
        raise ApiError(422, refusal.reason.name.lower(), refusal.message(lang)) from None
    return _json(_state(caller.backend.solvers, game, None, lang, turn=turn))


@router.get("/api/stats")
async def read_stats(request: Request, lang: LangQuery = "en") -> StatsPage:
    """Numbers only; ``lang`` is still checked, as on every route, so a wrong one is a 422."""
    caller = _caller(request)
    player, backend = caller.player, caller.backend
    totals = await backend.stored(backend.store.totals, player) if player else {}
    latest = await backend.stored(backend.store.recent, player, statistics.RECENT) if player else []
    standard = (Variant(Rules.EASY), Variant(Rules.CLASSIC))
    return StatsPage(
        easy=_stats_out(statistics.figures(totals.get(standard[0], statistics.Totals()))),
        classic=_stats_out(statistics.figures(totals.get(standard[1], statistics.Totals()))),
        variants=[
            VariantStatsOut(
                rules=kind.rules.name.lower(),  # type: ignore[arg-type]
                variant=variant_out(kind),
                stats=_stats_out(statistics.figures(kept)),
            )
            for kind, kept in sorted(totals.items(), key=lambda item: item[0].key)
            if kind not in standard
        ],
        recent=[
            RecentOut(
                code=None if r.day is not None and daily.is_open(r.day) else str(r.code),
                daily=None if r.day is None else r.day.isoformat(),
                rules=r.code.rules.name.lower(),  # type: ignore[arg-type]
                outcome=r.outcome,  # type: ignore[arg-type]
                score=r.score,
                finished_at=datetime.fromtimestamp(r.finished_at, UTC).isoformat(
                    timespec="seconds"
                ),
            )
            for r in latest
        ],
    )


@router.delete(
    "/api/stats", status_code=204, response_class=Response, responses={**_ERRORS, **_WRITE_ERRORS}
)
async def reset_stats(request: Request) -> Response:
    caller = _caller(request)
    if caller.player:
        backend = caller.backend
        await backend.committer.durable(
            await backend.stored(backend.store.stage_reset, caller.player)
        )
    return Response(status_code=204)


# Made once -------------------------------------------------------------------------------


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


_LAYOUT_JSON = _layout().model_dump_json().encode()
_RULES_JSON = (
    RulesOut(
        start=scoring.START,
        scoring=[
            ScoringOut(event="remove", points=scoring.MOVE),
            ScoringOut(event="draw", points=scoring.MOVE),
            ScoringOut(event="peak", points=scoring.PEAK_BONUS),
        ],
        undo_limit=UNDO_LIMIT,
        offered=[OPTION_NAMES[letter] for letter in codes.OFFERED],  # type: ignore[misc]
        traditional=TraditionalOut(
            start=scoring.TRADITIONAL_START,
            draw=scoring.TRADITIONAL_DRAW,
            peaks=list(scoring.TRADITIONAL_PEAK_BONUSES),
            best=scoring.TRADITIONAL_BEST,
        ),
    )
    .model_dump_json()
    .encode()
)


@cache
def _catalog_json(lang: Lang) -> bytes:
    """Every message of a language, serialized once: catalogs do not change while serving."""
    body = CatalogOut(lang=lang, messages=messages(lang), plural="n != 1")
    return body.model_dump_json().encode()


def _hint_out(game: Game, winnable: bool, action: Action | None, lang: str) -> HintOut:
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
    from tripeaks.i18n.describe import card_name

    card = game.card_at(action.pos)
    assert card is not None
    return HintOut(
        winnable=winnable,
        action=HintAction(kind="play", pos=action.pos),
        message=_(f"hint.perfect_play{points}", card=card_name(card, lang)),
        kind="perfect",
    )


def _fair_hint_out(game: Game, fair: solver_worker.Fair, lang: str) -> HintOut:
    """A fair hint: its move and its chance as a whole percent in the language; never the exact
    verdict, which would tell what is hidden."""
    _ = translator(lang)
    text, chance, samples = fair
    if text is None:
        return HintOut(winnable=None, action=None, message=_("hint.lost"), kind="fair")
    action = Action.parse(text)
    ending = "_none" if chance == 0 else ""
    percent = format_percent(chance, locale=lang)
    if action.pos is None:
        message = _(f"hint.fair_draw{ending}", chance=percent)
        out = HintAction(kind="draw")
    else:
        from tripeaks.i18n.describe import card_name

        card = game.card_at(action.pos)
        assert card is not None
        message = _(f"hint.fair_play{ending}", card=card_name(card, lang), chance=percent)
        out = HintAction(kind="play", pos=action.pos)
    return HintOut(
        winnable=None, action=out, message=message, kind="fair", chance=chance, samples=samples
    )


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
