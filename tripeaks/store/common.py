"""What every module of the store shares: its errors, the shape of a database connection as the
store's SQL sees it, and the constants the migrations and the PostgreSQL store both read (kept
here so that neither imports the other)."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from tripeaks.engine.game import Game, IllegalMove
from tripeaks.store.policy import Tag

CONNECT_WAIT = 5
"""Seconds to wait for the database at start (and for each new connection)."""
SCHEMA_LOCK = 0x7472_6970
"""The advisory lock that makes workers starting together upgrade the schema one at a time
(tripeaks.store.migrations takes it around the upgrade)."""


class UnknownGame(LookupError):
    """No game with this id belongs to this player (another player's game looks the same)."""


class Refused(Exception):
    """The store applied nothing; ``game`` is a snapshot of the game as it stands and ``tag`` its
    daily tag (None for any other game), so the reply needs nothing more from the store."""

    reason = "refused"

    def __init__(self, game: Game, tag: Tag | None) -> None:
        super().__init__(self.reason)
        self.game = game
        self.tag = tag


class StaleVersion(Refused):
    """The action was sent against another version of the game (another tab moved first)."""

    reason = "stale"


class RequestIdReused(Refused):
    """This request id was already used on this game for a different action or version."""

    reason = "request_id_reused"


class ActionRefused(Refused):
    """The engine refused the action; ``refusal`` says why."""

    def __init__(self, game: Game, tag: Tag | None, refusal: IllegalMove) -> None:
        self.reason = refusal.reason.name.lower()
        super().__init__(game, tag)
        self.refusal = refusal


class PolicyRefused(Refused):
    """The store's policy refused the action (Policy.refusal): an undo in the ranked attempt."""

    def __init__(self, game: Game, tag: Tag | None, reason: str) -> None:
        self.reason = reason
        super().__init__(game, tag)


class MovedOn(Exception):
    """A staged action's UPDATE matched no row: the game moved on elsewhere since it was applied."""


class NameTaken(Exception):
    """Another player has a nickname that looks like the one asked for (nickname.key)."""


class Unavailable(Exception):
    """The database cannot take the change now (full disk, read-only, I/O error); nothing was lost
    that had been acknowledged, and the same request can be sent again."""


class Rows(Protocol):
    """What a statement hands back, from either database's cursor."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Db(Protocol):
    """A connection inside the commit's transaction, taking the store's SQL (``?`` style)."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Rows: ...


Write = Callable[[Db], object]
"""A staged change: the SQL to run inside the next commit's transaction."""


class Reader:
    """A store's committed reads (the tables' read methods are mixins of this)."""

    def _read(self, sql: str, args: Sequence[Any]) -> list[Any]:
        raise NotImplementedError


def new_id() -> str:
    """An unguessable id: 192 random bits."""
    return secrets.token_urlsafe(24)
