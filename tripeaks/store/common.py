"""What every module of the store shares and nothing else defines: the constants the migrations
and the PostgreSQL store both read, kept here so that neither imports the other."""

from __future__ import annotations

CONNECT_WAIT = 5
"""Seconds to wait for the database at start (and for each new connection)."""
SCHEMA_LOCK = 0x7472_6970
"""The advisory lock that makes workers starting together upgrade the schema one at a time
(tripeaks.store.migrations takes it around the upgrade)."""
