"""schemathesis against the app's own OpenAPI schema, with every check it has: no 5xx, replies as
documented, clear 4xx, 405 with Allow for a method a path does not take.

Four tests (valid and invalid data, each over half of the operations, so pytest-xdist can spread
them) together send well over 1,000 generated requests; a fifth runs schemathesis's coverage phase
(boundary values, missing parameters, undeclared methods). Half of the requests on a game go to a real game of the caller, often with its
current version, so plays, draws and undos are really tried and not only refused as unknown.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode, checks
from schemathesis.checks import CHECKS as REGISTERED
from schemathesis.checks import load_all_checks
from schemathesis.engine import events, from_schema

from tripeaks.web.app import create_app
from tripeaks.web.backend import solving
from tripeaks.web.backend.solving import HINT_TIMEOUT

# schemathesis sends well over 1,000 generated requests: a quick run (`-m 'not slow'`) skips it
pytestmark = pytest.mark.slow

EXAMPLES = {GenerationMode.POSITIVE: 130, GenerationMode.NEGATIVE: 40}
"""Generated cases per operation; small operations run out of distinct cases sooner (a language
path parameter has three), so the seven operations with room to vary carry the 1,000. Invalid
cases cost hypothesis several times more to make, so most of the run is valid data."""
MINIMUM = {GenerationMode.POSITIVE: 385, GenerationMode.NEGATIVE: 115}
"""Requests each test must have sent: 2 x 385 + 2 x 115 = 1,000 at least in all."""
SHARES = 2
GRADE_TRIES = 4
"""Deals a new game of a difficulty tries here before its documented 503 (the server's own is
solving.GRADE_TRIES): these tests check the replies, not the search, which test_api_explain
has. At the server's own, a rare grade of a variant searched its whole 12 s of CPU: Hard on
Classic Four Peaks with an empty discard took 19 s and on Classic Up and Down 10 s of one test's
40. With four tries, common grades still often turn up: both replies are checked. The coverage
phase keeps the server's own, since its check counts any 503 as a server error."""
HOST = "127.0.0.1"
BASE_URL = f"http://{HOST}"
"""The app answers only to its own host names (schemathesis and TestClient say testserver)."""
WRITES = {"POST", "PUT", "PATCH", "DELETE"}

load_all_checks()
CHECKS = REGISTERED.get_all()
"""Every check schemathesis has (those needing what this API has not, such as authentication or
links between operations, pass by themselves)."""
REFUSED_BY_THE_RULES = "422"
"""A value the schema allows may still be refused by the rules (a code no deal has, a day still to
come): docs/api.md's 422, which positive_data_acceptance is told is an answer, not a rejection."""


DOCUMENTED_503 = {"busy", "no_graded_deal"}
"""docs/api.md's 503s, each with Retry-After: the solver's queue is full, or no deal of the asked
grade turned up within the search's limit (a grade can be rare for a variant, which takes its
table's grade cuts: Hard on Classic Bridge with an empty discard nearly always ends so)."""


def not_a_server_error(ctx: Any, response: Any, case: Any) -> bool | None:
    """schemathesis' check of the same name, but a documented 503 with Retry-After is an answer."""
    documented = response.status_code == 503 and "retry-after" in response.headers
    if documented and response.json()["error"]["reason"] in DOCUMENTED_503:
        return None
    return checks.not_a_server_error(ctx, response, case)


def error_has_a_message(response: Any) -> None:
    """Every 4xx is docs/api.md's Error with a sentence for the player."""
    if 400 <= response.status_code < 500:
        body = response.json()
        assert isinstance(body["error"]["reason"], str) and body["error"]["reason"]
        assert isinstance(body["error"]["message"], str) and body["error"]["message"].strip()


class Target:
    """The app on a temporary database, with one real game to aim at."""

    def __init__(self, db: Path) -> None:
        self.app = create_app(db)
        self.client = TestClient(self.app, base_url=BASE_URL)
        self.client.__enter__()
        state = self.client.post("/api/games", json={"code": "TP1-E-AAABUWI"}).json()
        self.game_id: str = state["id"]
        self.player = self.client.cookies["tripeaks_player"]
        self.rng = random.Random(5)
        self.schema = schemathesis.openapi.from_asgi(
            "/openapi.json", self.app, headers={"host": HOST}
        )
        # a new game of a difficulty searches GRADE_TRIES deals in the solver worker, behind any
        # search before it and slower on a busy machine: wait past HINT_TIMEOUT
        self.schema.config.update(base_url=BASE_URL, request_timeout=HINT_TIMEOUT + 10)
        accepted = self.schema.config.checks.positive_data_acceptance.expected_statuses
        accepted.append(REFUSED_BY_THE_RULES)

    def aim(self, case: Any) -> None:
        """Point half the game cases at the real game; valid bodies often get its version."""
        if case.method.upper() in WRITES:  # as the page sends them, even without a body
            case.headers = {**(case.headers or {}), "Content-Type": "application/json"}
        if "game_id" not in (case.path_parameters or {}) or self.rng.random() < 0.5:
            return
        if case.operation.path.endswith("/hint"):
            return  # a real search per case would take most of the run; test_api_solver has it
        case.path_parameters["game_id"] = self.game_id
        case.cookies = {**(case.cookies or {}), "tripeaks_player": self.player}
        positive = case.meta is None or case.meta.generation.mode is GenerationMode.POSITIVE
        if positive and isinstance(case.body, dict) and self.rng.random() < 0.7:
            current = self.client.get(f"/api/games/{self.game_id}").json()
            case.body = {**case.body, "version": current["version"]}

    def close(self) -> None:
        self.client.__exit__(None, None, None)


def _richness(operation: Any) -> tuple[bool, str]:
    """Operations with nothing to vary (GET /api/layout) give hypothesis one case each: dealt
    round-robin after the others, they are shared evenly between the shares."""
    definition = operation.definition.raw
    return (not (definition.get("parameters") or definition.get("requestBody")), operation.label)


def run_mode(mode: GenerationMode, share: int) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        target = Target(Path(tmp) / "schema.db")
        sent = 0
        used = [check for check in CHECKS if callable(check)]
        used = [not_a_server_error if c is checks.not_a_server_error else c for c in used]
        try:
            operations = sorted((r.ok() for r in target.schema.get_all_operations()), key=_richness)
            for operation in operations[share::SHARES]:
                if operation.method.upper() == "DELETE" and mode is GenerationMode.NEGATIVE:
                    continue

                @given(case=operation.as_strategy(generation_mode=mode))
                @settings(
                    max_examples=EXAMPLES[mode],
                    deadline=None,
                    database=None,
                    derandomize=True,
                    suppress_health_check=list(HealthCheck),
                )
                def check(case: Any) -> None:
                    nonlocal sent
                    target.aim(case)
                    response = case.call_and_validate(base_url=BASE_URL, checks=used)
                    error_has_a_message(response)
                    sent += 1

                try:
                    check()
                except Unsatisfiable:  # nothing about this operation can be made invalid
                    continue
        finally:
            target.close()
    return sent


@pytest.mark.parametrize("share", range(SHARES))
@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_generated_requests_get_documented_replies(
    mode: GenerationMode, share: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(solving, "GRADE_TRIES", GRADE_TRIES)
    sent = run_mode(mode, share)
    print(f"schemathesis {mode.value} share {share}: {sent} requests")
    assert sent >= MINIMUM[mode]


def test_the_coverage_phase_finds_nothing() -> None:
    """schemathesis's own engine, coverage phase only (as_strategy has no such phase): every
    operation at its boundaries and with each undeclared method, every check on each reply."""
    with tempfile.TemporaryDirectory() as tmp:
        target = Target(Path(tmp) / "schema.db")
        try:
            phases = target.schema.config.phases
            phases.examples.enabled = phases.fuzzing.enabled = phases.stateful.enabled = False
            failures, scenarios = [], 0
            for event in from_schema(target.schema).execute():
                if isinstance(event, events.ScenarioFinished):
                    scenarios += 1
                    failures += [
                        f"{event.label}: {check.name}: {check.failure_info.failure}"
                        for checks in event.recorder.checks.values()
                        for check in checks
                        if check.failure_info is not None
                    ]
                assert not isinstance(event, events.FatalError | events.NonFatalError), event
        finally:
            target.close()
    assert scenarios == len(list(target.schema.get_all_operations()))
    assert failures == []
