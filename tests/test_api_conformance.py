"""HTTP conformance (issue 35, finding 9): 405 names what is allowed, the schema declares the JSON
body every write needs, the server's own 400 is the API's Error, and a code is read in ASCII."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from served import serving
from test_api_support import api
from test_serve_wire import reply_to

from tripeaks.engine.codes import GameCode, InvalidCode


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("PATCH", "/api/stats", {"GET", "DELETE"}),
        ("DELETE", "/api/games", {"POST"}),
        ("PUT", "/api/layout", {"GET"}),
        ("POST", "/readyz", {"GET", "HEAD"}),
    ],
)
def test_a_405_says_which_methods_are_allowed(
    client: TestClient, method: str, path: str, allowed: set[str]
) -> None:
    """Regression: the 405 had no Allow header, which HTTP requires (Schemathesis ST204)."""
    reply = client.request(method, path, json={})
    assert reply.status_code == 405
    assert reply.json()["error"]["reason"] == "method_not_allowed"
    assert {m.strip() for m in reply.headers["allow"].split(",")} - {"HEAD"} == allowed - {"HEAD"}


def test_a_write_no_route_takes_is_405_even_without_json(client: TestClient) -> None:
    """Regression: the guard refused it 415 before routing could say 405 (Schemathesis ST204); a
    write some route takes is still refused 415 without JSON (a form cannot send JSON)."""
    undeclared = client.put("/api/layout", content=b"x=1", headers={"Content-Type": "text/plain"})
    assert undeclared.status_code == 405
    assert undeclared.headers["allow"]
    routed = client.post("/api/games", content=b"x=1", headers={"Content-Type": "text/plain"})
    assert routed.status_code == 415


def test_the_schema_declares_the_json_body_of_every_write(tmp_path: Path) -> None:
    """Regression: DELETE /api/stats, POST /api/daily and POST /api/games declared no required
    body, yet the guard refuses a write without one as JSON (Schemathesis ST202)."""
    with api(tmp_path / "games.db") as client:
        schema = client.get("/openapi.json").json()
    writes = [
        (method, path, operation)
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if method in ("post", "put", "patch", "delete")
    ]
    assert len(writes) >= 7
    for method, path, operation in writes:
        body = operation.get("requestBody")
        assert body is not None and body["required"] is True, (method, path)
        assert list(body["content"]) == ["application/json"], (method, path)


def test_a_bodiless_write_with_a_json_body_is_answered(client: TestClient) -> None:
    assert client.request("DELETE", "/api/stats", json={}).status_code == 204
    assert client.post("/api/daily", json={}).status_code == 201


def test_a_malformed_request_line_gets_the_api_error_shape(tmp_path: Path) -> None:
    """Regression: the server's own 400 was uvicorn's text/plain "Invalid HTTP request received."."""
    with serving(tmp_path / "games.db") as served:
        for request in (b"GET /\x00 HTTP/1.1\r\n\r\n", b"NOT HTTP AT ALL\r\n\r\n"):
            with served.connect() as sock:
                sock.sendall(request)
                head, _, body = reply_to(sock).partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 400 ")
            assert b"content-type: application/json" in head.lower()
            error = json.loads(body)["error"]
            assert error["reason"] == "bad_request" and error["message"]


@pytest.mark.parametrize("code", ["TP1-E-AAABUß", "tp1-e-aaabuwı", "TP1-E-AAABUWſ"])
def test_a_code_with_a_letter_outside_ascii_is_invalid(client: TestClient, code: str) -> None:
    """Regression: str.upper read ß as SS (and ı as I, ſ as S), a code no one typed."""
    with pytest.raises(InvalidCode):
        GameCode.parse(code)
    reply = client.post("/api/games", json={"code": code})
    assert reply.status_code == 422
    assert reply.json()["error"]["reason"] == "invalid_code"
