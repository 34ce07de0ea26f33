"""Fixtures every API test module shares (helpers to import live in test_api_support.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_api_support import api


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The app on a fresh database, as one player (the client keeps the cookie)."""
    with api(tmp_path / "games.db") as c:
        yield c
