"""The players' table: nicknames (``players``), and whether a player id has anything stored."""

from __future__ import annotations

from tripeaks.store import sql
from tripeaks.store.common import Db, Reader, Write


def claim(player: str, name: str, key: str, outcome: list[bool]) -> Write:
    """The write that gives the player ``name`` with its look ``key``; ``outcome`` is [True]
    after it when the player has it, [False] when another player's name has that look.

    The unique index on ``players.skeleton`` decides, inside the commit's transaction. The write
    never fails the batch it is in: the claim is an insert that does nothing on a conflict, the
    player's own row is taken out before it and put back when the claim came to nothing."""

    def write(db: Db) -> None:
        outcome.clear()  # a batch may be written more than once (Storage.flush)
        old = db.execute(
            "SELECT name, skeleton FROM players WHERE player = ?", (player,)
        ).fetchall()
        if old and old[0][1] == key:
            db.execute("UPDATE players SET name = ? WHERE player = ?", (name, player))
            outcome.append(True)
            return
        db.execute("DELETE FROM players WHERE player = ?", (player,))
        claimed = bool(db.execute(sql.CLAIM, (player, name, key)).fetchall())
        if not claimed and old:
            db.execute(sql.CLAIM, (player, *old[0])).fetchall()
        outcome.append(claimed)

    return write


class PlayerReads(Reader):
    """The players' committed reads (a mixin of the store)."""

    def known_player(self, player: str) -> bool:
        """Whether a player id has anything stored: a game, a counted result or a nickname (an
        old cookie's bare id is accepted only then, web/identity.py)."""
        rows = self._read(
            "SELECT 1 FROM games WHERE player = ?"
            " UNION ALL SELECT 1 FROM results WHERE player = ?"
            " UNION ALL SELECT 1 FROM players WHERE player = ? LIMIT 1",
            (player, player, player),
        )
        return bool(rows)

    def nickname(self, player: str) -> str | None:
        rows = self._read("SELECT name FROM players WHERE player = ?", (player,))
        return str(rows[0][0]) if rows else None

    def has_played(self, player: str) -> bool:
        """Whether the player has a game: only a player who has played may choose a name, so that
        a name change never makes a player (PUT /api/player/name)."""
        return bool(self._read("SELECT 1 FROM games WHERE player = ? LIMIT 1", (player,)))
