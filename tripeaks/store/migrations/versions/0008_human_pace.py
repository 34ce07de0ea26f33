"""Attempts faster than a person kept off the board (issue 34): ``dailies.too_fast``.

``too_fast`` is 1 for a finished ranked attempt whose actions, from the first to the last, averaged
less than 0.2 seconds apart (daily.HUMAN_PACE, as it was when this revision was written): it stays
the player's own result but is on no public board, in no ``daily_scores`` count and in nobody's
rank. The board's index gains the column right after ``finished``, so that the board and the
counts of equal scores still read one range of it. The attempts stored before are judged by the
same rule here, and the counts of each day's scores made again from the attempts left shown.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

PACE = 0.2
"""daily.HUMAN_PACE when this revision was written (a revision does not change with the code)."""


def upgrade() -> None:
    op.add_column(
        "dailies", sa.Column("too_fast", sa.Integer, nullable=False, server_default=sa.text("0"))
    )
    op.drop_index("dailies_board", table_name="dailies")
    op.create_index(  # covering every read of the board: its counts never visit the table
        "dailies_board",
        "dailies",
        [
            "day",
            "ranked",
            "finished",
            "too_fast",
            sa.text("score DESC"),
            "moves",
            "seconds",
            "game",
        ],
    )
    op.execute(
        "UPDATE dailies SET too_fast = 1 WHERE ranked = 1 AND finished = 1"
        f" AND (SELECT version FROM games WHERE games.id = dailies.game) > 1"
        f" AND seconds < {PACE} * ((SELECT version FROM games WHERE games.id = dailies.game) - 1)"
    )
    op.execute("DELETE FROM daily_scores")
    op.execute(
        "INSERT INTO daily_scores (day, score, players) SELECT day, score, count(*) FROM dailies"
        " WHERE ranked = 1 AND finished = 1 AND too_fast = 0 GROUP BY day, score"
    )
