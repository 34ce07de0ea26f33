"""totals: each player's statistics per rules, kept as running totals (commit 73db35b).

Filled here from the results log, folded by stats.count in the order the games were counted, so
a database upgraded in place shows the statistics it showed before (the one place where a game
changes the statistics stays stats.count).
"""

from __future__ import annotations

from dataclasses import asdict

import sqlalchemy as sa
from alembic import op

from tripeaks.engine.codes import GameCode
from tripeaks.stats import Totals, count

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

COLUMNS = (
    "played",
    "won",
    "won_score_sum",
    "best_score",
    "current_streak",
    "best_streak",
    "longest_card_streak",
)
NULLABLE = {"best_score", "longest_card_streak"}


def upgrade() -> None:
    totals = op.create_table(
        "totals",
        sa.Column("player", sa.Text, primary_key=True, nullable=False),
        sa.Column("rules", sa.Text, primary_key=True, nullable=False),
        *(sa.Column(name, sa.Integer, nullable=name in NULLABLE) for name in COLUMNS),
        sqlite_with_rowid=False,
    )
    rows = op.get_bind().execute(
        sa.text("SELECT player, code, outcome, score, streak FROM results ORDER BY seq")
    )
    kept: dict[tuple[str, str], Totals] = {}
    for player, code, outcome, score, streak in rows:
        key = (player, GameCode.parse(code).rules.value)
        kept[key] = count(kept.get(key, Totals()), outcome, score, streak)
    if kept:
        op.bulk_insert(
            totals,
            [
                {"player": player, "rules": rules, **{c: asdict(t)[c] for c in COLUMNS}}
                for (player, rules), t in kept.items()
            ],
        )
