"""Alembic's entry point: always run by tripeaks.store.migrations on a connection it hands over.

There is no alembic.ini and no offline mode: the caller made the connection, opened its
transaction and took the lock, so every revision (and the stamp before them) commits as one.
"""

from alembic import context

context.configure(
    connection=context.config.attributes["connection"],
    transactional_ddl=True,
)
with context.begin_transaction():
    context.run_migrations()
