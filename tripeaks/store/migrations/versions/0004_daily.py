"""The deal of the day and honest statistics (issue 15): settings (the daily secret), dailies,
players' names; verdicts and hinted games, and the totals that count them.

``settings`` holds the server's own values by name (``daily_secret``: 32 random bytes in hex,
made by the first server that needs it). ``dailies`` is one row per daily game: the day it was
started for, the player, whether it is the player's one ranked attempt of that day (a partial
unique index makes the database refuse a second), and, for a ranked attempt, the figures the
store took from the engine at its last action with the server's time of its first and last
action. ``board`` is the index the day's board reads in order (score, then moves, then time; the game id last, so
that equal figures come in one order).
``daily_scores`` counts the finished ranked attempts of a day per score, kept as each one
finishes: a rank is the sum of a few hundred counts ahead of it plus a count among equal scores,
not a count of every standing ahead (100,000 of them on a busy day). ``players`` holds the
nicknames.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

ZERO = sa.text("0")
TOTALS = ("judged", "judged_winnable", "judged_won", "won_hinted", "best_share_sum")
"""The honest statistics' running totals (stats.Totals), 0 for the games counted before."""
SECONDS: sa.types.TypeEngine[float] = sa.REAL().with_variant(sa.Double(), "postgresql")


def upgrade() -> None:
    op.create_table(  # the games a hint was given in
        "hinted_games",
        sa.Column(
            "game",
            sa.Text,
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
            nullable=False,
        ),
        sqlite_with_rowid=False,
    )
    op.create_table(  # the solver's verdict on a counted game's deal, counted with it
        "verdicts",
        sa.Column("game", sa.Text, primary_key=True, nullable=False),
        sa.Column("winnable", sa.Integer, nullable=False),
        sa.Column("best", sa.Integer),
        sa.Column("hinted", sa.Integer, nullable=False),
        sqlite_with_rowid=False,
    )
    for column in TOTALS:
        op.add_column("totals", sa.Column(column, sa.Integer, nullable=False, server_default=ZERO))
    op.create_table(
        "settings",
        sa.Column("name", sa.Text, primary_key=True, nullable=False),
        sa.Column("value", sa.Text, nullable=False),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "players",
        sa.Column("player", sa.Text, primary_key=True, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "dailies",
        sa.Column(
            "game",
            sa.Text,
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
            nullable=False,
        ),
        sa.Column("day", sa.Text, nullable=False),
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("ranked", sa.Integer, nullable=False),
        sa.Column("finished", sa.Integer, nullable=False, server_default=ZERO),
        sa.Column("won", sa.Integer, nullable=False, server_default=ZERO),
        sa.Column("score", sa.Integer, nullable=False, server_default=ZERO),
        sa.Column("moves", sa.Integer, nullable=False, server_default=ZERO),
        sa.Column("seconds", SECONDS, nullable=False, server_default=ZERO),
        sa.Column("streak", sa.Integer, nullable=False, server_default=ZERO),
        sa.Column("peaks", sa.Integer, nullable=False, server_default=ZERO),
        sa.Column("first_at", SECONDS),
        sa.Column("last_at", SECONDS),
        sqlite_with_rowid=False,
    )
    ranked = sa.text("ranked = 1")
    op.create_index(
        "dailies_ranked",
        "dailies",
        ["day", "player"],
        unique=True,
        sqlite_where=ranked,
        postgresql_where=ranked,
    )
    op.create_index("dailies_player", "dailies", ["player", "day"])
    op.create_table(
        "daily_scores",
        sa.Column("day", sa.Text, primary_key=True, nullable=False),
        sa.Column("score", sa.Integer, primary_key=True, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sqlite_with_rowid=False,
    )
    op.create_index(  # covering every read of the board: its counts never visit the table
        "dailies_board",
        "dailies",
        ["day", "ranked", "finished", sa.text("score DESC"), "moves", "seconds", "game"],
    )
