"""results.streak: each counted game's longest run of removals (commit a5f5eb3); 0 for older games."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "results", sa.Column("streak", sa.Integer, nullable=False, server_default=sa.text("0"))
    )
