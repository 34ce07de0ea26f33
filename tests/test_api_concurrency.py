"""Many players and two tabs at once: group commits lose nothing and apply nothing twice."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from fastapi import FastAPI
from test_api_support import count_commits, reopen

from tripeaks.engine.game import Action, Game
from tripeaks.web.app import create_app

T = TypeVar("T")


def run(app: FastAPI, main: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """``main`` inside the app's lifespan (so its store and workers are closed after), with
    asyncio.run in a thread of its own: another test in this worker may own a running loop."""

    async def served() -> T:
        async with app.router.lifespan_context(app):
            return await main()

    with ThreadPoolExecutor(1) as thread:
        return thread.submit(lambda: asyncio.run(served())).result()


async def one_player(app: Any, seed: int) -> tuple[str, str, list[str]]:
    """Plays 15 taps; returns the game id, its code and the acknowledged actions."""
    rng = random.Random(seed)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        state = (await client.post("/api/games", json={})).json()
        acked: list[str] = []
        for _ in range(15):
            fits = [s["pos"] for s in state["tableau"] if s["slot"] == "face_up"]
            action = f"play {rng.choice(fits)}" if rng.random() < 0.5 else "draw"
            parsed = Action.parse(action)
            body: dict[str, Any] = {
                "version": state["version"],
                "request_id": f"{seed}-{len(acked)}",
            }
            if parsed.pos is not None:
                body["pos"] = parsed.pos
            reply = await client.post(f"/api/games/{state['id']}/{parsed.kind.value}", json=body)
            assert reply.status_code in (200, 422), reply.text
            state = reply.json() if reply.status_code == 200 else reply.json()["state"]
            if reply.status_code == 200:
                acked.append(action)
        return state["id"], state["code"], acked


def test_concurrent_players_each_get_exactly_their_actions(
    database: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(database)
    batches = count_commits(monkeypatch)

    async def everyone() -> list[tuple[str, str, list[str]]]:
        return await asyncio.gather(*(one_player(app, seed) for seed in range(20)))

    played = run(app, everyone)
    print(
        f"{sum(batches)} changes in {sum(1 for b in batches if b)} commits, at most {max(batches)}"
    )
    assert max(batches) > 1, "changes staged together should share a commit"
    store = reopen(app.state.backend.store)
    for game_id, code, acked in played:
        assert [str(a) for a in store.actions(game_id)] == acked
        assert Game.replay(code, acked).actions == tuple(map(Action.parse, acked))


def test_two_tabs_sending_at_once_apply_one_action(database: str | Path) -> None:
    app = create_app(database)

    async def race() -> list[int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            state = (await client.post("/api/games", json={})).json()
            url = f"/api/games/{state['id']}/draw"
            replies = await asyncio.gather(
                *(client.post(url, json={"version": 0}) for _ in range(6))
            )
            after = (await client.get(f"/api/games/{state['id']}")).json()
            assert after["version"] == 1 and after["stock_size"] == 22
            return sorted(r.status_code for r in replies)

    assert run(app, race) == [200, 409, 409, 409, 409, 409]
