"""MOCKS of the explain API (branch explain-api), for the page's tests until that branch is merged:
GET /hint with a kind, GET /review, POST /api/games with a difficulty, GET /api/stats by grade. Each
reply is made from tripeaks.explain and the real server's /api/preview, in the contract's shapes."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import Page, Route

from tripeaks import explain
from tripeaks.describe import card_name
from tripeaks.game import Action, Game
from tripeaks.solver import solve

GRADED = {"gentle": "TP1-E-AAAAAAC", "medium": "TP1-E-AAAAAAD", "hard": "TP1-E-AAAAAAF"}


def _move(action: Action | None) -> dict[str, Any] | None:
    if action is None:
        return None
    return {"kind": action.kind.value, "pos": action.pos}


def mock_explain(page: Page, lines: dict[str, list[Action]] | None = None) -> None:
    lines = dict(lines or {})
    hinted: dict[str, str] = {}
    won: dict[str, tuple[str, str | None]] = {}

    def state_of(game_id: str) -> dict[str, Any]:
        return page.request.get(f"/api/games/{game_id}").json()

    def game_of(state: dict[str, Any]) -> Game:
        line = lines.get(state["code"], [])
        return Game.replay(state["code"], line[: state["version"]])

    def preview(code: str, actions: list[Action]) -> dict[str, Any]:
        query = ",".join(str(a) for a in actions)
        reply = page.request.get("/api/preview", params={"code": code, "actions": query})
        assert reply.ok, reply.text()
        return reply.json()

    def hint(route: Route) -> None:
        url = urlparse(route.request.url)
        kind = parse_qs(url.query).get("kind", ["fair"])[0]
        game_id = url.path.split("/")[3]
        if kind == "perfect" or hinted.get(game_id) != "perfect":
            hinted[game_id] = kind
        real = route.fetch()
        data = real.json()
        if kind == "perfect":
            data.update(kind="perfect", chance=None, samples=None)
            data["message"] = "Perfect hint (it knows every card): " + data["message"]
        else:
            fair = explain.fair_hint(game_of(state_of(game_id)), 200, seed=0)
            pct = round(fair.chance * 100)
            game = game_of(state_of(game_id))
            what = (
                "Draw a card"
                if fair.move.pos is None
                else f"Play the {card_name(game.card_at(fair.move.pos), 'en')}"
            )
            data.update(
                kind="fair",
                winnable=None,
                chance=fair.chance,
                samples=200,
                action=_move(fair.move),
                message=f"{what}: it keeps a {pct}% chance of winning.",
            )
        route.fulfill(status=200, content_type="application/json", body=json.dumps(data))

    def review(route: Route) -> None:
        game_id = urlparse(route.request.url).path.split("/")[3]
        state = state_of(game_id)
        code = state["code"]
        game = game_of(state)
        grade = explain.grade(code).value
        out: dict[str, Any] = {
            "status": state["status"],
            "grade": grade,
            "winnable": grade != "unwinnable",
            "lost_at": None,
            "draws": None,
            "most_removed": None,
            "replay": None,
        }
        if game.is_won:
            d = explain.draws_used(game)
            best = list(solve(code).line)
            out["draws"] = {"used": d.used, "fewest": d.fewest}
            out["message"] = f"You used {d.used} draws; the fewest any win needs is {d.fewest}."
            out["replay"] = {
                "start": 0,
                "steps": [preview(code, best[:i]) for i in range(len(best) + 1)],
            }
            won[game_id] = (grade, hinted.get(game_id))
        else:
            at = explain.lost_at(game)
            assert at is not None
            out["lost_at"] = {"index": at.index, "move": _move(at.move), "moves": len(at.line)}
            out["message"] = (
                f"This deal could be won until move {at.index + 1}; drawing a card there lost it."
            )
            before = list(at.line[: at.index])
            steps = [preview(code, before + list(at.win[:i])) for i in range(len(at.win) + 1)]
            out["replay"] = {"start": at.index, "steps": steps}
        route.fulfill(status=200, content_type="application/json", body=json.dumps(out))

    def new_game(route: Route) -> None:
        if route.request.method != "POST":
            route.fallback()
            return
        body = json.loads(route.request.post_data or "{}")
        grade = body.get("difficulty", "any")
        if body.get("code") or grade == "any":
            route.fallback()
            return
        route.fallback(post_data=json.dumps({**body, "code": GRADED[grade]}))

    def stats(route: Route) -> None:
        data = route.fetch().json()
        for table in [data["easy"], data["classic"], *[v["stats"] for v in data["variants"]]]:
            table["by_grade"] = {
                g: {"played": 0, "won": 0} for g in ("gentle", "medium", "hard", "unwinnable")
            }
            table["won_with_perfect_hints"] = 0
            table["won_with_fair_hints"] = 0
        for grade, kind in won.values():
            data["easy"]["by_grade"][grade]["played"] += 1
            data["easy"]["by_grade"][grade]["won"] += 1
            if kind:
                data["easy"][f"won_with_{kind}_hints"] += 1
        route.fulfill(status=200, content_type="application/json", body=json.dumps(data))

    page.route("**/api/games/*/hint*", hint)
    page.route("**/api/games/*/review*", review)
    page.route("**/api/games?*", new_game)
    page.route("**/api/stats?*", stats)
