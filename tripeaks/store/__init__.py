"""Where games, results and the daily are kept. Imported by module; this package exports nothing
of its own. From low to high: policy (the one seam to the competition's rules, and the rows it
speaks of), common (errors, constants), sql (the SQL both databases share), results, dailies,
players (each table's reads and writes), staging (the cache, staging, group commit, versions and
request ids), core (Storage: what the store does with games), sqlite and postgres (the databases,
and ``open_store``), ratelimits (the shared rate-limit counts) and migrations (the schema)."""
