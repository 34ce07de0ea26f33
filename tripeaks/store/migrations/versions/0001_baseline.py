"""The schema of commit 23cbfb5 (the issue's "today's version"): games, their actions, results.

Revision ids are numbered in order; a database made before migrations existed is recognised by
its tables and columns and stamped with the one it matches (tripeaks.store.migrations.recognise).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

ZERO = sa.text("0")
SECONDS: sa.types.TypeEngine[float] = sa.REAL().with_variant(sa.Double(), "postgresql")
"""Unix times: SQLite's REAL, PostgreSQL's double precision."""


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Text, primary_key=True, nullable=True),
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("code", sa.Text, nullable=False),
        sa.Column("created_at", SECONDS, nullable=False),
        sa.Column("version", sa.Integer, nullable=False, server_default=ZERO),
        sa.Column("moves", sa.Integer, nullable=False, server_default=ZERO),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("settled", sa.Integer, nullable=False, server_default=ZERO),
    )
    op.create_index("games_unsettled", "games", ["player", "settled"])
    op.create_table(
        "actions",
        sa.Column(
            "game",
            sa.Text,
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
            nullable=False,
        ),
        sa.Column("seq", sa.Integer, primary_key=True, nullable=False, autoincrement=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("request_id", sa.Text),
        sqlite_with_rowid=False,
    )
    op.create_index(
        "actions_request",
        "actions",
        ["game", "request_id"],
        unique=True,
        sqlite_where=sa.text("request_id IS NOT NULL"),
        postgresql_where=sa.text("request_id IS NOT NULL"),
    )
    op.create_table(
        "results",
        sa.Column(
            "seq",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            sa.Identity(always=True),
            primary_key=True,
        ),
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("game", sa.Text, nullable=False, unique=True),
        sa.Column("code", sa.Text, nullable=False),
        sa.Column("outcome", sa.Text, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("finished_at", SECONDS, nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index("results_player", "results", ["player", "seq"])
