"""The solver explains (issue 16): the kind of hint a game had, and the grade of a counted deal.

``hinted_games.kind`` is "perfect" (the hint that knows every card) or "fair" (judged only from
what the player sees); a game that had any perfect hint is "perfect". Every hint before this
revision was a perfect one. ``verdicts`` gains the deal's difficulty ``grade`` (explain.Grade's
value; NULL for the games counted before, which are then in no grade's figures) and ``hint``, the
kind of hint of a judged game (NULL: none). ``totals`` gains the judged wins with a perfect hint
(every hinted win so far) and the counted games and wins per grade (0 for the games before).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

ZERO = sa.text("0")
GRADES = ("gentle", "medium", "hard", "unwinnable")
TOTALS = ("won_perfect", *(f"{grade}_{n}" for grade in GRADES for n in ("played", "won")))
"""The running totals this revision adds (stats.Totals), after 0004's."""


def upgrade() -> None:
    op.add_column(
        "hinted_games",
        sa.Column("kind", sa.Text, nullable=False, server_default=sa.text("'perfect'")),
    )
    op.add_column("verdicts", sa.Column("grade", sa.Text))
    op.add_column("verdicts", sa.Column("hint", sa.Text))
    op.execute("UPDATE verdicts SET hint = 'perfect' WHERE hinted = 1")
    for column in TOTALS:
        op.add_column("totals", sa.Column(column, sa.Integer, nullable=False, server_default=ZERO))
    op.execute("UPDATE totals SET won_perfect = won_hinted")
