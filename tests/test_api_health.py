"""``/healthz`` and ``/readyz`` (tripeaks/web/api/health.py): for a load balancer, answered by address."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_api_support import BASE_URL, api

from tripeaks.i18n import translator
from tripeaks.store.sqlite import Store
from tripeaks.web.app import create_app


def test_alive_and_ready_on_a_working_database(client: TestClient) -> None:
    for path in ("/healthz", "/readyz"):
        reply = client.get(path)
        assert reply.status_code == 200
        assert reply.json() == {"status": "ok"}
        assert reply.headers["x-content-type-options"] == "nosniff"  # the usual headers too


def test_a_probe_by_address_is_answered_where_the_api_is_not(tmp_path: Path) -> None:
    """A load balancer asks by the machine's address: that Host is not the site's name."""
    app = create_app(tmp_path / "games.db")
    with TestClient(app, base_url="http://10.1.2.3:8000") as probe:
        assert probe.get("/healthz").status_code == 200
        assert probe.get("/readyz").status_code == 200
        assert probe.head("/healthz").status_code == probe.head("/readyz").status_code == 200
        refused = probe.get("/api/layout")
        assert refused.status_code == 400 and refused.json()["error"]["reason"] == "bad_host"
        # only reads pass: a write to the same path still meets the host check first
        assert probe.post("/healthz", json={}).status_code == 400


def test_every_operation_in_the_api_schema_has_an_id_of_its_own(tmp_path: Path) -> None:
    """A client made from /openapi.json names each operation by its id. The probes answer HEAD as
    GET; one route for both methods gave the two one id, so only the GET is documented."""
    schema = create_app(tmp_path / "games.db").openapi()
    ids = [op["operationId"] for item in schema["paths"].values() for op in item.values()]
    assert len(ids) == len(set(ids)) > 10
    assert set(schema["paths"]["/healthz"]) == set(schema["paths"]["/readyz"]) == {"get"}


@pytest.mark.parametrize("lang", ["en", "fi", "ca"])
def test_not_ready_while_the_database_does_not_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    with api(tmp_path / "games.db") as client:

        def gone(self: Store) -> None:
            raise sqlite3.OperationalError("disk I/O error")

        monkeypatch.setattr(Store, "ping", gone)
        reply = client.get(f"/readyz?lang={lang}")
        assert reply.status_code == 503
        assert reply.headers["retry-after"] == "2"
        assert reply.json()["error"] == {
            "reason": "not_ready",
            "message": translator(lang)("error.not_ready"),
        }
        assert client.get("/healthz").status_code == 200  # alive all the same: do not restart it
        monkeypatch.undo()
        assert client.get("/readyz").status_code == 200  # ready again once it answers


def test_the_store_ping_reads_the_database(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.db")
    store.ping()
    store.close()
    with pytest.raises(sqlite3.ProgrammingError):  # a closed database does not answer
        store.ping()


def test_the_local_app_has_no_metrics(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.db"), base_url=BASE_URL) as client:
        assert client.get("/metrics").status_code == 404
