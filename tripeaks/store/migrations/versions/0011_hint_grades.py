"""The grades are measured with the fair hint (issue 40): the counted grades before are set aside.

A deal's grade used to be the visible-card strategy's share of 200 plays of it; it is now the band
its first fair hint falls in (explain.grade: by the hint's share, so by the chance it states). The Gentle, Medium and Hard grades kept
with counted games were measured the old way, so they leave the figures: their ``verdicts.grade``
becomes NULL and the players' per-grade totals of those three start again at 0, as revision 0005
left the games counted before grades existed. Unwinnable stays: the exact solver decides it, as
before. The games themselves, their wins and every other figure are untouched.
"""

from __future__ import annotations

from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

MEASURED = ("gentle", "medium", "hard")
"""The grades the old measure gave; unwinnable is the solver's and stays."""


def upgrade() -> None:
    op.execute("UPDATE verdicts SET grade = NULL WHERE grade IN ('gentle', 'medium', 'hard')")
    columns = ", ".join(f"{grade}_{n} = 0" for grade in MEASURED for n in ("played", "won"))
    op.execute(f"UPDATE totals SET {columns}")
