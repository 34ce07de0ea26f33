"""Nicknames no one can forge or hide (issue 34): each name's look, kept once.

``players.skeleton`` is nickname.key of the name: its UTS #39 confusable skeleton, folded for
case. Its unique index lets one player at a time have a name that looks like it, across every
worker of a shared database (store.py ``stage_nickname``).

The names chosen before are given their key. Where two of them look alike, the player who played
first (their first game's ``created_at``; the smaller player id on a tie) keeps the name, and the
other's nickname is dropped: that player shows as their generated name again and may choose
another. A name that today's rules refuse (a character that draws nothing, the shape of a
generated name) is dropped the same way.
"""

from __future__ import annotations

import math

import sqlalchemy as sa
from alembic import op

from tripeaks import nickname

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def kept_and_dropped(
    rows: list[tuple[str, str, float | None]],
) -> tuple[dict[str, str], list[str]]:
    """Players' names as (player, name, first game's time or None): the key of each name kept,
    by player, and the players whose name is dropped."""
    keys: dict[str, str] = {}
    taken: set[str] = set()
    dropped: list[str] = []
    for player, name, _ in sorted(
        rows, key=lambda row: (math.inf if row[2] is None else row[2], row[0])
    ):
        try:
            fit = nickname.clean(name) == name
        except nickname.BadName:
            fit = False
        shape = nickname.key(name)
        if not fit or shape in taken:
            dropped.append(player)
            continue
        taken.add(shape)
        keys[player] = shape
    return keys, dropped


def upgrade() -> None:
    op.add_column("players", sa.Column("skeleton", sa.Text))
    bind = op.get_bind()
    rows = bind.execute(
        sa.text(
            "SELECT p.player, p.name, (SELECT min(g.created_at) FROM games g"
            " WHERE g.player = p.player) FROM players p"
        )
    ).all()
    keys, dropped = kept_and_dropped([(str(p), str(n), t) for p, n, t in rows])
    if dropped:
        bind.execute(
            sa.text("DELETE FROM players WHERE player = :player"),
            [{"player": player} for player in dropped],
        )
    if keys:
        bind.execute(
            sa.text("UPDATE players SET skeleton = :skeleton WHERE player = :player"),
            [{"player": player, "skeleton": shape} for player, shape in keys.items()],
        )
    op.create_index("players_skeleton", "players", ["skeleton"], unique=True)
