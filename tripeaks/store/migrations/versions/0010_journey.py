"""The journey's stored progress (issue 39): a game's level, each player's best on each level,
their achievements, and the one-time codes that carry a player to another browser.

``games.level`` is the journey level a game was started for (NULL for every other game).
``journey`` is one row per player and level won: the best stars, whether the level's goal was
ever met, the best score and the game that earned the best, each judged by the policy from the
game's own actions when it was counted. ``achievements`` is one row per player and achievement
moved on: its progress, what it keeps besides (``bits``: the layouts won, a run going on), when
it was unlocked and by which game's count. ``transfers`` keeps each transfer code by a keyed
hash only, with its player, its expiry and whether it was spent.

Nothing is filled from older rows: the journey is new, and achievements count the games counted
from this revision on.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

ZERO = sa.text("0")
SECONDS: sa.types.TypeEngine[float] = sa.REAL().with_variant(sa.Double(), "postgresql")


def upgrade() -> None:
    op.add_column("games", sa.Column("level", sa.Integer))
    op.create_table(
        "journey",
        sa.Column("player", sa.Text, primary_key=True, nullable=False),
        sa.Column("level", sa.Integer, primary_key=True, nullable=False, autoincrement=False),
        sa.Column("code", sa.Text, nullable=False),
        sa.Column("stars", sa.Integer, nullable=False),
        sa.Column("goal_met", sa.Integer, nullable=False, server_default=ZERO),
        sa.Column("best_score", sa.Integer, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("won_at", SECONDS, nullable=False),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "achievements",
        sa.Column("player", sa.Text, primary_key=True, nullable=False),
        sa.Column("achievement", sa.Text, primary_key=True, nullable=False),
        sa.Column("progress", sa.Integer, nullable=False, server_default=ZERO),
        sa.Column("bits", sa.Integer, nullable=False, server_default=ZERO),
        sa.Column("unlocked_at", SECONDS),
        sa.Column("game", sa.Text),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "transfers",
        sa.Column("hash", sa.Text, primary_key=True, nullable=False),
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("created_at", SECONDS, nullable=False),
        sa.Column("expires_at", SECONDS, nullable=False),
        sa.Column("spent", sa.Integer, nullable=False, server_default=ZERO),
        sqlite_with_rowid=False,
    )
    op.create_index("transfers_player", "transfers", ["player", "spent"])
    op.create_index("transfers_expiry", "transfers", ["expires_at"])
