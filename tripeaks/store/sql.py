"""The SQL both databases share, written once (``?`` placeholders, upserts that SQLite and
PostgreSQL both read); what one database says otherwise is spelled in its own module
(postgres.py). The tables are made and upgraded by tripeaks/store/migrations.

``games.version`` is the length of the log (the version an action's UPDATE checks); ``settled`` is
set once the game is over: won, or left for another game (``status`` then says which).
``results.streak`` is the game's longest run of removals. ``totals`` holds each player's
statistics per kind of game (``rules``: the rules letter of the code, then its options after a
hyphen, variant.Variant.key: each scoring and variant apart), folded in as each game is counted.
"""

from __future__ import annotations

from dataclasses import fields

from tripeaks.store.policy import Totals

TOTALS = ", ".join(f.name for f in fields(Totals))
TOTALS_UPSERT = (
    f"INSERT INTO totals (player, rules, {TOTALS})"
    f" VALUES (?, ?, {', '.join('?' * len(fields(Totals)))})"
    " ON CONFLICT (player, rules) DO UPDATE SET "
    + ", ".join(f"{f.name} = excluded.{f.name}" for f in fields(Totals))
)
RESULTS = (
    "SELECT r.code, r.outcome, r.score, r.finished_at, r.streak, v.winnable, v.best, v.hint,"
    " v.grade, d.day"
    " FROM results r LEFT JOIN verdicts v ON v.game = r.game"
    " LEFT JOIN dailies d ON d.game = r.game WHERE r.player = ?"
)
RESULT = (
    "INSERT INTO results (player, game, code, outcome, score, finished_at, streak)"
    " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
)
"""One result per game: a game settled once is never counted again."""
VERDICT = (
    "INSERT INTO verdicts (game, winnable, best, hinted, grade, hint) VALUES (?, ?, ?, ?, ?, ?)"
)
HINTED = (
    "INSERT INTO hinted_games (game, kind) VALUES (?, ?) ON CONFLICT (game) DO UPDATE SET kind ="
    " CASE WHEN hinted_games.kind = 'perfect' THEN 'perfect' ELSE excluded.kind END"
)
"""A hint of a kind given in a game: a game that had a perfect hint stays perfect."""
LEAVE = "UPDATE games SET settled = 1, status = ? WHERE id = ? AND version = ? AND settled = 0"
PLAYED = (
    "UPDATE games SET version = ?, moves = ?, score = ?, status = ?"
    " WHERE id = ? AND version = ? AND settled = 0"
)
"""An action's own version check: it matches no row once the game has moved on elsewhere. A move
that does not end the game leaves ``settled`` out of its SET: naming an indexed column makes the
database rewrite that index too (SQLite wrote a third page per commit, 50% more to sync;
PostgreSQL loses its in-page update)."""
WON = (
    "UPDATE games SET version = ?, moves = ?, score = ?, status = ?, settled = 1"
    " WHERE id = ? AND version = ? AND settled = 0"
)
"""PLAYED for the action that wins the game: it is settled with it."""
LOG = "INSERT INTO actions (game, seq, action, request_id) VALUES (?, ?, ?, ?)"
STORED = "SELECT version, settled FROM games WHERE id = ?"
"""A game's stored version and whether it is settled: what a shared store checks its cache by.
Read before the store's lock is taken, never while holding it: on PostgreSQL it is a round trip,
and the event loop's cached moves take that lock (``_load`` takes the row as ``stored``)."""
UNSETTLED = "SELECT id, version, settled FROM games WHERE player = ? AND settled = 0"
"""A player's games not settled, each with its ``STORED`` row: the games a new game leaves."""
CREATE = (
    "INSERT INTO games (id, player, code, created_at, score, status, level)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)
"""A new game's row (``level``: the journey level it is a game of, else NULL)."""
CREATE_ONCE = CREATE + " ON CONFLICT (id) DO NOTHING"
"""A ranked attempt's row: racing starts make it once."""
CLAIM = (
    "INSERT INTO players (player, name, skeleton) VALUES (?, ?, ?)"
    " ON CONFLICT DO NOTHING RETURNING player"
)
"""A nickname's row, unless a row holds its player or its key already (stage_nickname)."""

# The daily ---------------------------------------------------------------------------------

DAILY = "INSERT INTO dailies (game, day, player, address, ranked) VALUES (?, ?, ?, ?, ?)"
DAILY_RANKED = (
    "INSERT INTO dailies (game, day, player, address, ranked) VALUES (?, ?, ?, ?, 1)"
    " ON CONFLICT DO NOTHING"
)
"""A ranked attempt's row, unless the player has one of the day (the unique ``dailies_ranked``)."""
DAILY_MOVE = (
    "UPDATE dailies SET finished = ?, won = ?, score = ?, moves = ?, streak = ?, peaks = ?,"
    " first_at = COALESCE(first_at, ?), last_at = ?, seconds = ? - COALESCE(first_at, ?),"
    " too_fast = ? WHERE game = ? AND ranked = 1"
)
"""A ranked daily's figures after each of its actions, as the policy read them off the engine,
with the server's time of its first action (kept from the first) and of this one: the board reads
only these."""
FINISHED = (
    "INSERT INTO daily_scores (day, score, players) VALUES (?, ?, 1)"
    " ON CONFLICT (day, score) DO UPDATE SET players = daily_scores.players + 1"
)
"""A ranked attempt finished at a person's pace: one too fast for that is in no count."""
STANDING = (
    "SELECT d.day, d.player, p.name, d.game, d.ranked, d.finished, d.won, d.score, d.moves,"
    " d.seconds, d.streak, d.peaks, d.too_fast"
    " FROM dailies d LEFT JOIN players p ON p.player = d.player"
)
SHOWN = "day = ? AND ranked = 1 AND finished = 1 AND too_fast = 0"
"""The attempts on a day's public board: finished ranked ones played at a person's pace."""
BOARD = (
    f"{STANDING} WHERE d.day = ? AND d.ranked = 1 AND d.finished = 1 AND d.too_fast = 0"
    " ORDER BY d.score DESC, d.moves, d.seconds, d.game LIMIT ?"
)
"""A day's board in its order: score, then fewer moves, then less time; the game id last, so that
equal figures come in one order. The ``dailies_board`` index is this order (revision 0008) and
``daily_scores`` counts by its first key: the order is the schema's (docs/decisions.md)."""
AHEAD = (
    "SELECT (SELECT COALESCE(sum(players), 0) FROM daily_scores WHERE day = ? AND score > ?)"
    f" + (SELECT count(*) FROM dailies WHERE {SHOWN} AND score = ? AND moves < ?)"
    f" + (SELECT count(*) FROM dailies WHERE {SHOWN} AND score = ? AND moves = ? AND seconds < ?)"
)
"""Standings strictly ahead of one (score, moves, seconds less the policy's tie): its rank is one
more than that (equal figures share a rank). The higher scores from their counts, the equal score
from the board's index (a few hundred standings at most share one)."""

# The journey ------------------------------------------------------------------------------

LOADED = (
    "SELECT g.player, g.code, g.version, g.settled, g.level, j.stars FROM games g"
    " LEFT JOIN journey j ON j.player = g.player AND j.level = g.level WHERE g.id = ?"
)
"""A game's row as the store loads it, with the player's best stars on its level (if any)."""
LEVEL_UPSERT = (
    "INSERT INTO journey (player, level, code, stars, goal_met, best_score, game, won_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (player, level) DO UPDATE SET"
    " code = excluded.code, stars = excluded.stars, goal_met = excluded.goal_met,"
    " best_score = excluded.best_score, game = excluded.game, won_at = excluded.won_at"
)
LEVELS = "SELECT level, stars, goal_met, best_score FROM journey WHERE player = ? ORDER BY level"
ACHIEVED = (
    "SELECT achievement, progress, bits, unlocked_at, game FROM achievements WHERE player = ?"
)
ACHIEVEMENT_UPSERT = (
    "INSERT INTO achievements (player, achievement, progress, bits, unlocked_at, game)"
    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (player, achievement) DO UPDATE SET"
    " progress = excluded.progress, bits = excluded.bits, unlocked_at = excluded.unlocked_at,"
    " game = excluded.game"
)
FINISHED_DAYS = (
    "SELECT day FROM dailies WHERE player = ? AND ranked = 1 AND finished = 1"
    " AND day >= ? AND day <= ?"
)
"""The days of a span whose ranked attempt the player finished (ISO dates compare as text)."""
TRANSFER = "INSERT INTO transfers (hash, player, created_at, expires_at) VALUES (?, ?, ?, ?)"
TRANSFERS_SPENT = "UPDATE transfers SET spent = 1 WHERE player = ? AND spent = 0"
"""A new code spends the player's earlier ones."""
TRANSFERS_GONE = "DELETE FROM transfers WHERE expires_at < ?"
TRANSFER_FOUND = "SELECT player, expires_at, spent FROM transfers WHERE hash = ?"
TRANSFER_SPEND = "UPDATE transfers SET spent = 1 WHERE hash = ? AND spent = 0"
