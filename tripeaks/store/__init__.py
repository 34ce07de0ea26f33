"""Where games, results and the daily are kept: the store core, its SQLite and PostgreSQL forms,
the shared rate-limit counts and the schema's migrations. Imported by module
(``tripeaks.store.core``); this package exports nothing of its own."""
