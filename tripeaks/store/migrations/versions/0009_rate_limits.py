"""The shared rate limits' hits (web/ratelimit_pg.py), PostgreSQL only: a server on SQLite is one
process and counts them in its memory.

Made here rather than by the first worker that needs it: workers of a new server all needing it at
once raced each other's CREATE, and the loser's ``DuplicateObject`` was a player's 500. The table is
UNLOGGED: its rows are minutes old at most and worth nothing after a crash (PostgreSQL empties an
unlogged table then, which only forgives a few requests), and writing them to the WAL would cost
every limited request a flush. A server of an earlier version made it already on its first limited
request: ``IF NOT EXISTS`` keeps that one (same columns, same index).
"""

from __future__ import annotations

from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(
        "CREATE UNLOGGED TABLE IF NOT EXISTS rate_hits ("
        " name text NOT NULL, key text NOT NULL, at double precision NOT NULL)"
    )
    op.execute("CREATE INDEX IF NOT EXISTS rate_hits_window ON rate_hits (name, key, at)")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TABLE rate_hits")
