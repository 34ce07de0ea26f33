"""Issue 35: what cookie-less reads may make a worker keep, and one client's share of the solver.

Every cache a request fills is bounded (a verdict by code, a fair answer by position, a day's deal),
a past day's board is answered only for a day that was played within BOARD_DAYS and without a
search, and one client (an IPv4 address, an IPv6 /56) holds at most ADDRESS_SHARE of the solver's
queue, so that a bystander's hint is queued rather than refused.
"""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from test_api_daily import deal_of, new_player, start
from test_api_hints import Hold, count_searches, run, served, until
from test_api_solver import HANG
from test_api_support import BASE_URL

from tripeaks import daily
from tripeaks.engine.codes import GameCode
from tripeaks.i18n import translator
from tripeaks.web.api import daily as daily_routes
from tripeaks.web.backend import solving
from tripeaks.web.backend.solving import SOLVER_QUEUE, Solvers

# A past day's board --------------------------------------------------------------------------


def counted_searches(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """From now on, every day whose deal the daily module searches for."""
    days: list[object] = []
    choose = daily.choose

    def counted(secret: bytes, day: Any) -> GameCode:
        days.append(day)
        return choose(secret, day)

    monkeypatch.setattr(daily, "choose", counted)
    return days


def test_a_past_day_nobody_played_has_no_board_and_costs_no_search(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    searched = counted_searches(monkeypatch)
    today = daily.today()
    days = [today - timedelta(days=n) for n in (1, 2, 30, 400, 9000)]
    for day in days:
        reply = client.get("/api/daily/board", params={"day": day.isoformat(), "lang": "fi"})
        assert reply.status_code == 404
        assert reply.json() == {
            "error": {
                "reason": "daily_no_board",
                "message": translator("fi")("error.daily_no_board", days=daily_routes.BOARD_DAYS),
            },
            "state": None,
        }
    assert searched == []
    dailies = client.app.state.backend.dailies  # type: ignore[attr-defined]
    assert all(dailies.known(day) is None for day in days)


def test_a_played_days_board_is_kept_for_a_year_and_no_longer(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    today = daily.today()
    oldest = today - timedelta(days=daily_routes.BOARD_DAYS)
    for day in (oldest, oldest - timedelta(days=1)):
        with monkeypatch.context() as then:
            then.setattr(daily, "today", lambda now=None, day=day: day)
            start(client)
        new_player(client)
    shown = client.get("/api/daily/board", params={"day": oldest.isoformat()})
    assert shown.status_code == 200
    assert shown.json()["code"] == str(deal_of(client, oldest).code)
    older = (oldest - timedelta(days=1)).isoformat()
    gone = client.get("/api/daily/board", params={"day": older})
    assert gone.status_code == 404 and gone.json()["error"]["reason"] == "daily_no_board"


def test_the_dailies_keep_only_their_latest_days() -> None:
    dailies = daily.Dailies(b"a secret of sixteen letters")
    today = daily.today()
    days = [today - timedelta(days=n) for n in range(daily.DAYS_KEPT + 4)]
    found = [dailies.deal(day) for day in days]
    assert dailies.known(days[0]) is None  # the least recently asked for went first
    assert dailies.known(days[-1]) == found[-1]
    assert sum(dailies.known(day) is not None for day in days) == daily.DAYS_KEPT
    assert dailies.deal(days[0]) == found[0]  # found again, the same


# What the solver's side keeps ----------------------------------------------------------------


def test_the_verdicts_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solving, "VERDICTS_KEPT", 4, raising=False)
    solvers = Solvers()
    codes = [GameCode.from_number(3000 + i) for i in range(10)]
    try:
        for code in codes:
            deadline = time.monotonic() + HANG  # a failure bound, never a measurement
            while solvers.deal_result(code) is None:
                assert time.monotonic() < deadline, "the verdict never came"
                time.sleep(0.005)
        kept = [code for code in codes if solvers.known_verdict(code) is not None]
        assert kept == codes[-4:]  # the latest, the least recently read dropped
    finally:
        solvers.close()


def test_a_fair_answer_is_kept_by_what_the_player_sees(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(solving, "FAIR_KEPT", 2, raising=False)
    searches = count_searches(monkeypatch)

    async def scenario() -> None:
        async with served(tmp_path) as (app, _):
            answers = []
            for number in (4000, 4000, 4001, 4002, 4000):  # two players on one deal, then others
                async with player(app, "192.0.2.1") as client:
                    game = await start_game(client, GameCode.from_number(number))
                    reply = await client.get(f"/api/games/{game['id']}/hint?kind=fair")
                    assert reply.status_code == 200, reply.text
                    answers.append(reply.json())
            assert answers[0] == answers[1]
            # the second player stood where the first did: no search; the fifth game's answer
            # had been dropped for the two after it (FAIR_KEPT 2), and was searched again
            assert searches.count("fair_hint") == 4
            assert answers[4] == answers[0]

    run(scenario)


# One client's share of the queue ---------------------------------------------------------------


def test_one_ipv6_prefix_cannot_fill_the_solver_queue(tmp_path: Path) -> None:
    """Sixteen /64s of one /56 ask a fair hint each, twice over, while the worker is held: the
    /56 gets ADDRESS_SHARE places and the rest is refused at once; a bystander is queued, then
    answered."""

    async def scenario() -> None:
        async with served(tmp_path) as (app, solvers):
            flood = [player(app, f"2001:db8:0:1{i % 16:02x}::7") for i in range(SOLVER_QUEUE)]
            bystander = player(app, "198.51.100.7")
            try:
                games = [
                    await start_game(p, GameCode.from_number(5000 + i)) for i, p in enumerate(flood)
                ]
                mine = await start_game(bystander, GameCode.from_number(6000))
                hold = Hold(solvers)
                asks = [
                    asyncio.ensure_future(p.get(f"/api/games/{g['id']}/hint?kind=fair"))
                    for p, g in zip(flood, games, strict=True)
                ]
                await until(lambda: solvers.waiting + sum(a.done() for a in asks) == len(asks))
                before = solvers.queued
                theirs = asyncio.ensure_future(
                    bystander.get(f"/api/games/{mine['id']}/hint?kind=fair")
                )
                await until(lambda: solvers.queued == before + 1 or theirs.done())
                assert not theirs.done()  # queued, not refused
                assert before == solving.ADDRESS_SHARE
                refused = [a.result() for a in asks if a.done()]
                queued = [a for a in asks if not a.done()]
                assert len(refused) == SOLVER_QUEUE - solving.ADDRESS_SHARE
                assert {r.status_code for r in refused} == {503}
                assert {r.json()["error"]["reason"] for r in refused} == {"busy"}
                hold.release()
                assert (await theirs).status_code == 200
                assert [(await a).status_code for a in queued] == [200] * solving.ADDRESS_SHARE
            finally:
                for p in [*flood, bystander]:
                    await p.aclose()

    run(scenario)


@pytest.mark.parametrize(
    ("address", "share"),
    [
        ("203.0.113.9", "203.0.113.9"),
        ("2001:db8:0:1ab:5::1", "2001:db8:0:100::/56"),
        ("::ffff:203.0.113.9", "203.0.113.9"),
        ("127.0.0.1", None),
        ("::1", None),
        (None, None),
    ],
)
def test_a_share_of_the_queue_is_an_ipv4_address_or_an_ipv6_56(
    address: str | None, share: str | None
) -> None:
    assert solving.share_of(address) == share


# Helpers ---------------------------------------------------------------------------------------


def player(app: FastAPI, address: str) -> httpx.AsyncClient:
    """A client of its own (its own cookie) from ``address``."""
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    return httpx.AsyncClient(transport=transport, base_url=BASE_URL)


async def start_game(client: httpx.AsyncClient, code: GameCode) -> dict[str, Any]:
    reply = await client.post("/api/games", json={"code": str(code)})
    assert reply.status_code == 201, reply.text
    state: dict[str, Any] = reply.json()
    return state
