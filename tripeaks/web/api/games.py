"""The routes of a game (docs/api.md): a new game, its state, its four moves, a hint, its review.

An action goes one straight way: the page posts an intent, the route hands it to the store, the
store has the engine apply it and stages it, the route waits for the commit that holds it and sends
the state and the engine's Turn back. Rules live in the engine, storage in the store, words in the
catalogs, reply shapes in view.py; what a route knows is which of those to call.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, TypeVar

from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from tripeaks import daily, i18n
from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import DRAW, REDO, UNDO, Action, Game, IllegalMove
from tripeaks.engine.layout import Layout
from tripeaks.engine.layouts import BY_ID
from tripeaks.engine.variant import Variant
from tripeaks.i18n import translator
from tripeaks.store.core import ActionRefused, Applied, Refused, UnknownGame, new_id
from tripeaks.web.api import errors, explaining, journey_view, view
from tripeaks.web.api.caller import Backend, Caller, LangQuery, caller_of, reply
from tripeaks.web.api.codes import offer, read_code
from tripeaks.web.api.errors import (
    ACTION_ERRORS,
    ERRORS,
    GAME_ERRORS,
    LIMITED,
    WRITE_ERRORS,
    ApiError,
    Busy,
    Conflict,
    NotFound,
)
from tripeaks.web.api.models import (
    REASON,
    RULES_OF,
    SCORING_OF,
    ActionIn,
    ErrorOut,
    GameState,
    HintKindName,
    HintOut,
    NewGameIn,
    PlayIn,
)
from tripeaks.web.backend import solving
from tripeaks.web.backend.solving import Solvers

PREVIEW_MAX_ACTIONS = 1000

router = APIRouter()
T = TypeVar("T")


def _unknown_game(lang: str) -> ApiError:
    return NotFound("unknown_game", translator(lang)("error.unknown_game"))


def _refusal(refused: Refused, backend: Backend, game_id: str, lang: str) -> ApiError:
    """The store's refusal of an action, with the game as it stands (errors.REFUSALS: 409 when
    the game moved on, 403 for the daily's policy, else 422)."""
    if isinstance(refused, ActionRefused):
        message = i18n.refusal(refused.refusal, lang)
    else:
        message = translator(lang)(f"error.{refused.reason}")
    level = backend.store.level_tag(game_id)  # from memory: the game was just loaded
    return errors.refusal(
        refused.reason,
        message,
        backend.state(refused.game, game_id, lang, refused.tag, level=level),
    )


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
        raise _refusal(refused, backend, game_id, lang) from None
    # The reply is made from the snapshot while the commit is in flight, and sent once it is durable.
    won = applied.game.is_won
    if not won:
        state = backend.state(applied.game, game_id, lang, applied.tag, applied.turn, applied.level)
        response = reply(state)
    try:
        await backend.committer.durable(applied.done)
    except Refused as refused:  # the game moved on through another worker before this commit
        raise _refusal(refused, backend, game_id, lang) from None
    if won:  # counted in that commit: what it unlocked, and a level's best after it, are stored
        response = reply(await _won_state(caller, game_id, applied, lang))
    if backend.meter is not None and not applied.again:  # a retry was counted the first time
        backend.meter.actions[action.kind.value].inc()
        if applied.game.is_won:
            backend.meter.counted["won"].inc()
    return response


async def _won_state(caller: Caller, game_id: str, applied: Applied, lang: str) -> GameState:
    """The reply to the action that won a game (or its retry): with the achievements its count
    unlocked and, for a level game, its stars and the player's best on the level as stored."""
    backend, player = caller.backend, caller.player
    assert player is not None  # only the player's own game takes an action
    unlocked = await backend.stored(backend.store.unlocked_by, player, (game_id,))
    best = None
    if applied.level is not None:
        best = await backend.stored(backend.store.level_best, player, applied.level.number)
    return backend.state(
        applied.game,
        game_id,
        lang,
        applied.tag,
        applied.turn,
        applied.level,
        best=best,
        unlocked=unlocked,
    )


async def _hint_allowed(request: Request) -> AsyncIterator[None]:
    """The hint route's rate limit, and its count of hints waiting for the solver.

    A dependency of that one route (which is not on the hot path of actions), so that its body
    stays the solver's business."""
    caller = caller_of(request)
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


@router.post(
    "/api/games",
    status_code=201,
    response_model=GameState,
    responses={**ERRORS, **WRITE_ERRORS, **LIMITED},
)
async def new_game(
    request: Request,
    body: NewGameIn | None = None,
    lang: LangQuery = "en",
) -> Response:
    caller = caller_of(request)
    backend, player = caller.backend, caller.player
    body = body or NewGameIn()
    variant = Variant(
        RULES_OF[body.rules],
        SCORING_OF[body.scoring],
        open_peaks=body.open_peaks,
        empty_discard=body.empty_discard,
        joker=body.joker,
    )
    code = None
    if body.code is not None and body.code.strip():
        code = read_code(body.code, lang)
    fresh = player is None
    if player is None:
        player = new_id()  # made now, so that its first game counts against its own limit too
    graded = body.difficulty != "any" and code is None  # a typed code ignores the difficulty
    winnable = (body.winnable_only or graded) and code is None  # ...and never asks the solver
    kinds = ("games", *(("winnable",) if winnable else ()), *(("players",) if fresh else ()))
    await caller.refuse_if_limited(*kinds, player=player)
    layout = BY_ID[body.layout]
    if code is None:  # the options and the table asked for must be offered, as a typed code's are
        offer(variant, lang, layout)
    if graded:
        code = await _graded_code(backend.solvers, variant, body.difficulty, lang, layout)
    elif code is None and winnable:
        found = await run_in_threadpool(backend.solvers.winnable_code, variant, layout)
        code = found or GameCode.random(variant, layout)
    elif code is None:
        code = GameCode.random(variant, layout)
    created = await backend.stored(backend.store.stage_create, player, code)
    state = view.game_state(created.game, lang, game_id=created.id)
    await backend.committer.durable(created.done)
    response = reply(await with_unlocked(caller, player, created.left, state), 201)
    if backend.meter is not None:
        backend.meter.started[body.rules].inc()
        if created.lost:
            backend.meter.counted["lost"].inc(created.lost)
    if fresh:
        caller.set_cookie(response, player)
    return response


async def with_unlocked(
    caller: Caller, player: str, left: tuple[str, ...], state: GameState
) -> GameState:
    """A new game's state with the achievements that the count of the games it ``left``
    unlocked (one read after its commit, only when it left some)."""
    if not left:
        return state
    backend = caller.backend
    found = await backend.stored(backend.store.unlocked_by, player, left)
    if not found:
        return state
    return state.model_copy(update={"unlocked": journey_view.unlocked_out(found)})


async def _graded_code(
    solvers: Solvers, variant: Variant, grade: str, lang: str, layout: Layout
) -> GameCode:
    """A random deal of the grade on ``layout``, found in the solver's worker; 503 when none
    turned up."""
    later = {"Retry-After": str(solving.RETRY_AFTER)}
    _ = translator(lang)
    try:
        found = await solvers.graded_code(variant, grade, layout)
    except solving.HintRefused:
        raise Busy("busy", _("error.solver_busy"), headers=later) from None
    if found is None:
        raise Busy("no_graded_deal", _("error.no_graded_deal"), headers=later)
    return found


@router.get("/api/games/{game_id}", response_model=GameState, responses=GAME_ERRORS)
async def read_game(request: Request, game_id: str, lang: LangQuery = "en") -> Response:
    caller = caller_of(request)
    game, tag = await _players_game(caller, game_id, lang)
    backend = caller.backend
    level = await backend.stored(backend.store.level_tag, game_id)
    best = None
    if level is not None and game.is_won and caller.player is not None:
        best = await backend.stored(backend.store.level_best, caller.player, level.number)
    return reply(backend.state(game, game_id, lang, tag, level=level, best=best))


@router.post("/api/games/{game_id}/play", response_model=GameState, responses=ACTION_ERRORS)
async def play(request: Request, game_id: str, body: PlayIn, lang: LangQuery = "en") -> Response:
    return await _act(caller_of(request), game_id, Action.play(body.pos), body, lang)


@router.post("/api/games/{game_id}/draw", response_model=GameState, responses=ACTION_ERRORS)
async def draw(request: Request, game_id: str, body: ActionIn, lang: LangQuery = "en") -> Response:
    return await _act(caller_of(request), game_id, DRAW, body, lang)


@router.post("/api/games/{game_id}/undo", response_model=GameState, responses=ACTION_ERRORS)
async def undo(request: Request, game_id: str, body: ActionIn, lang: LangQuery = "en") -> Response:
    return await _act(caller_of(request), game_id, UNDO, body, lang)


@router.post("/api/games/{game_id}/redo", response_model=GameState, responses=ACTION_ERRORS)
async def redo(request: Request, game_id: str, body: ActionIn, lang: LangQuery = "en") -> Response:
    """The newest undone action again, stored and answered as the play or draw it is."""
    return await _act(caller_of(request), game_id, REDO, body, lang)


MOVES: dict[Callable[..., Awaitable[Response]], type[BaseModel]] = {
    play: PlayIn,
    draw: ActionIn,
    undo: ActionIn,
    redo: ActionIn,
}
"""The four moves' routes and their bodies, for moves.py's short way to the same route."""


@router.get(
    "/api/games/{game_id}/hint",
    responses={
        **GAME_ERRORS,
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
    caller = caller_of(request)
    game, tag = await _players_game(caller, game_id, lang)
    _refuse_by_policy(tag, lang)
    ended = view.ended_hint_out(game, kind, lang)
    if ended is not None:
        return ended
    solvers, address = caller.backend.solvers, caller.address
    if kind == "fair":
        fair = await _searched(solvers.fair_hint(game, caller.player, address), lang)
        await _hinted(caller, game_id, kind)
        return view.fair_hint_out(game, fair, lang)
    winnable, action = await _searched(solvers.hint(game, caller.player, address), lang)
    await _hinted(caller, game_id, kind)
    return view.hint_out(game, winnable, action, lang)


async def _players_game(caller: Caller, game_id: str, lang: str) -> tuple[Game, daily.Tag | None]:
    """The caller's game (404 for any other) and whether it is a daily."""
    try:
        game = await caller.backend.stored(caller.backend.store.game, game_id, caller.player)
    except UnknownGame:
        raise _unknown_game(lang) from None
    return game, await caller.backend.stored(caller.backend.store.daily_tag, game_id)


def _refuse_by_policy(tag: daily.Tag | None, lang: str) -> None:
    """A daily of an open day has no hint and no review (daily.refusal)."""
    policy = daily.refusal(tag, None)
    if policy is not None:
        raise errors.refusal(policy, translator(lang)(f"error.{policy}"))


async def _searched(search: Awaitable[T | None], lang: str) -> T:
    """A search in the solver's worker: refused at once (429 hint_pending, 503 busy) or found no
    answer this time (503 unavailable), each with Retry-After."""
    _ = translator(lang)
    later = {"Retry-After": str(solving.RETRY_AFTER)}
    try:
        found = await search
    except solving.HintRefused as refused:
        message = _("hint.pending" if refused.reason == "hint_pending" else "hint.busy")
        raise errors.refusal(refused.reason, message, headers=later) from None
    if found is None:
        raise Busy("unavailable", _("hint.unavailable"), headers=later)
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
        **GAME_ERRORS,
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
    caller = caller_of(request)
    game, tag = await _players_game(caller, game_id, lang)
    _refuse_by_policy(tag, lang)  # a daily's deal is explained once its day is over
    if not (game.is_over or game.is_stuck):
        raise Conflict("not_over", translator(lang)("error.not_over"))
    found = await _searched(
        caller.backend.solvers.review(game, caller.player, caller.address), lang
    )
    if not game.is_over and game.can_undo:
        # stuck, and an undo can still save it: where it was lost and a winning line from there
        # are the best hint there is, and the game's win is counted as one with a perfect hint
        await _hinted(caller, game_id, "perfect")
    return reply(explaining.review_out(game, found, lang, tag))


@router.get("/api/preview", responses={**ERRORS, **LIMITED})
async def preview(
    request: Request,
    code: Annotated[str, Query(max_length=64)],
    actions: Annotated[str, Query(max_length=16 * 1024)] = "",
    lang: LangQuery = "en",
) -> Response:
    """A code after some actions, stored nowhere; the help's worked example draws these."""
    caller = caller_of(request)
    await caller.refuse_if_limited("previews")
    parsed = read_code(code, lang)
    words = [w.strip() for w in actions.split(",") if w.strip()]
    if len(words) > PREVIEW_MAX_ACTIONS:
        raise _bad_actions(lang)
    try:
        steps = [Action.parse(w) for w in words]
    except ValueError:
        raise _bad_actions(lang) from None
    game = Game.new(parsed)
    turn = None
    try:
        for step in steps:
            turn = game.apply(step)
    except IllegalMove as refusal:  # a 422 whatever the reason: a preview has no game to move on
        raise ApiError(REASON[refusal.reason], i18n.refusal(refusal, lang)) from None
    return reply(caller.backend.state(game, None, lang, turn=turn))


def _bad_actions(lang: str) -> ApiError:
    return ApiError("bad_request", translator(lang)("error.bad_request", field="actions"))
