"""The daily's ranked attempts by network (issue 34): ``dailies.address``.

A ranked attempt keeps a keyed hash of the client network it was started from (Dailies.address_key:
an IPv4 address or an IPv6 /64, hashed with the server's daily secret, so that the database holds
no address), and the index that counts a day's ranked attempts from one network
(daily.RANKED_PER_ADDRESS). The attempts made before this revision have none, and count for none.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("dailies", sa.Column("address", sa.Text))
    op.create_index("dailies_address", "dailies", ["day", "address"])
