"""Statistics: which games count, streaks, scores, per rules and per player, and reset."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from test_api_support import (
    STUCK_CODE,
    WIN_CODE,
    api,
    new_game,
    play_line,
    player_of,
    send,
    winning_line,
)

from tripeaks import daily, stats
from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import DRAW, Game
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Variant
from tripeaks.solver import explain
from tripeaks.stats import Kind, figures, fold, recent, summarize
from tripeaks.store import sqlite
from tripeaks.store.core import Result

POLICY = daily.Policy(stats.judge, stats.count)
"""The app's policy of the competition's rules (web/app.py hands the solver worker's judge first)."""


class Store(sqlite.Store):
    """The SQLite store with the app's policy."""

    def __init__(self, path: str | Path) -> None:
        super().__init__(path, POLICY)


def result(outcome: str, score: int = 500, rules: str = "E") -> Result:
    return Result(GameCode.parse(f"TP1-{rules}-AAAAAAA"), outcome, score, 0.0)


def test_streaks_count_consecutive_wins() -> None:
    games = [result(o) for o in ("won", "won", "lost", "won", "won", "won", "lost", "won")]
    stats = summarize(games, Rules.EASY)
    assert (stats.played, stats.won) == (8, 6)
    assert stats.win_rate == 0.75
    assert (stats.current_streak, stats.best_streak) == (1, 3)


def test_scores_and_empty_statistics() -> None:
    games = [result("won", 760), result("lost", 480), result("won", 749), result("won", 700, "C")]
    easy = summarize(games, Rules.EASY)
    assert easy.best_score == 760 and easy.average_winning_score == 754.5
    classic = summarize(games, Rules.CLASSIC)
    assert (classic.played, classic.best_score, classic.average_winning_score) == (1, 700, 700.0)
    empty = summarize([], Rules.EASY)
    assert (empty.played, empty.win_rate, empty.best_score) == (0, 0.0, None)
    assert empty.average_winning_score is None
    assert recent(games, 2) == [games[3], games[2]]


def win(client: TestClient) -> dict[str, Any]:
    return play_line(client, new_game(client, WIN_CODE), winning_line())[-1]


def get_stuck(client: TestClient) -> dict[str, Any]:
    state = new_game(client, STUCK_CODE)
    return play_line(client, state, [DRAW] * 23)[-1]


def stats_best_share(score: int, code: str = WIN_CODE) -> float:
    from tripeaks.solver import search as solver

    best = solver.solve(code).final_score
    assert best is not None
    return min(1000, round(1000 * score / best)) / 1000


def test_a_win_counts_at_once(client: TestClient) -> None:
    final = win(client)
    stats = client.get("/api/stats").json()
    assert stats["easy"] == {
        "played": 1,
        "won": 1,
        "win_rate": 1.0,
        "current_streak": 1,
        "best_streak": 1,
        "best_score": final["score"],
        "average_winning_score": float(final["score"]),
        "longest_card_streak": final["longest_streak"],
        "winnable_played": 1,  # the solver judged the deal winnable: won 1 of 1
        "winnable_won": 1,
        "best_share": round(stats_best_share(final["score"]), 4),
        "won_with_hints": 0,
        "won_without_hints": 1,
        "won_with_perfect_hints": 0,
        "won_with_fair_hints": 0,
        "by_grade": {  # the deal's grade, counted with its verdict
            grade: dict.fromkeys(("played", "won"), int(grade == explain.grade(WIN_CODE).value))
            for grade in ("gentle", "medium", "hard", "unwinnable")
        },
    }
    assert stats["classic"]["played"] == 0
    assert [(r["code"], r["outcome"], r["score"]) for r in stats["recent"]] == [
        (WIN_CODE, "won", final["score"])
    ]
    new_game(client)
    assert client.get("/api/stats").json()["easy"]["played"] == 1


def test_stuck_then_left_is_a_loss(client: TestClient) -> None:
    stuck = get_stuck(client)
    assert client.get("/api/stats").json()["easy"]["played"] == 0
    new_game(client)
    stats = client.get("/api/stats").json()
    assert (stats["easy"]["played"], stats["easy"]["won"]) == (1, 0)
    assert stats["recent"][0] | {"finished_at": None} == {
        "code": STUCK_CODE,
        "daily": None,
        "rules": "easy",
        "outcome": "lost",
        "score": stuck["score"],
        "finished_at": None,
    }


def test_abandoned_after_a_move_is_a_loss_untouched_is_not_counted(client: TestClient) -> None:
    new_game(client)
    new_game(client)
    assert client.get("/api/stats").json()["easy"]["played"] == 0
    state = new_game(client, "TP1-C-AAAAAAB")
    send(client, state, DRAW)
    new_game(client)
    stats = client.get("/api/stats").json()
    assert stats["classic"]["played"] == 1 and stats["classic"]["won"] == 0
    assert stats["easy"]["played"] == 0


def test_streaks_over_the_api_and_reset(client: TestClient) -> None:
    win(client)
    win(client)
    get_stuck(client)
    win(client)
    new_game(client)
    stats = client.get("/api/stats").json()["easy"]
    assert (stats["played"], stats["won"]) == (4, 3)
    assert (stats["current_streak"], stats["best_streak"]) == (1, 2)
    assert stats["win_rate"] == 0.75
    recent_outcomes = [r["outcome"] for r in client.get("/api/stats").json()["recent"]]
    assert recent_outcomes == ["won", "lost", "won", "won"]
    reply = client.delete("/api/stats", headers={"content-type": "application/json"})
    assert reply.status_code == 204
    after = client.get("/api/stats").json()
    assert after["easy"]["played"] == 0 and after["recent"] == []


def test_each_player_sees_only_their_own(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with api(db) as alice, api(db) as bob:
        win(alice)
        assert bob.get("/api/stats").json()["easy"]["played"] == 0
        new_game(bob)
        assert bob.delete("/api/stats", headers={"content-type": "application/json"}).is_success
        assert alice.get("/api/stats").json()["easy"]["won"] == 1
        alice.cookies.clear()
        assert alice.get("/api/stats").json()["easy"]["played"] == 0


def test_a_left_game_cannot_be_taken_up_again_and_counts_once(client: TestClient) -> None:
    """Regression: a left game stayed playable, so a later win was counted beside its loss."""
    state = new_game(client, WIN_CODE)
    line = winning_line()
    state = send(client, state, line[0]).json()
    new_game(client)
    reply = send(client, state, line[1])
    assert reply.status_code == 409 and reply.json()["error"]["reason"] == "game_over"
    assert reply.json()["state"]["status"] == "left"
    new_game(client)
    stats = client.get("/api/stats").json()["easy"]
    assert (stats["played"], stats["won"]) == (1, 0)
    assert Game.replay(WIN_CODE, line).is_won


def test_a_game_left_without_a_move_can_never_be_won(client: TestClient) -> None:
    """Regression: leaving untouched games dodged every loss and a later win counted: 100%."""
    state = new_game(client, WIN_CODE)
    new_game(client)
    reply = send(client, state, winning_line()[0])
    assert reply.status_code == 409 and reply.json()["error"]["reason"] == "game_over"
    assert client.get(f"/api/games/{state['id']}").json()["status"] == "left"
    assert client.get("/api/stats").json()["easy"]["played"] == 0


def test_the_longest_card_streak_of_any_counted_game_per_rules(client: TestClient) -> None:
    assert client.get("/api/stats").json()["easy"]["longest_card_streak"] is None
    line = winning_line()
    state = new_game(client, WIN_CODE)
    final = play_line(client, state, line)[-1]
    expected = Game.replay(WIN_CODE, line).longest_streak
    assert final["longest_streak"] == expected >= 2
    stats = client.get("/api/stats").json()
    assert stats["easy"]["longest_card_streak"] == expected
    assert stats["classic"]["longest_card_streak"] is None
    short = new_game(client, WIN_CODE)
    short = send(client, short, line[0]).json()
    new_game(client)  # the short game counts lost, its streak is smaller: the best stays
    assert client.get("/api/stats").json()["easy"]["longest_card_streak"] == expected


def test_a_database_made_before_card_streaks_gets_the_column(tmp_path: Path) -> None:
    """A file made by 23cbfb5 (tests/data): no results.streak, no totals."""
    import shutil

    db = tmp_path / "old.db"
    shutil.copy(Path(__file__).parent / "data" / "tripeaks-23cbfb5.db", db)
    store = Store(db)
    log = store.results("alice")
    assert [(r.outcome, r.score, r.streak) for r in log] == [("won", 750, 0), ("lost", 499, 0)]
    store.close()
    # ...and its statistics, kept as running totals since, are rebuilt from those results
    store = Store(db)
    assert store.totals("alice") == {
        Kind(Variant(Rules.EASY)): fold(store.results("alice"), Rules.EASY)
    }
    assert figures(store.totals("alice")[Kind(Variant(Rules.EASY))]).best_score == 750
    store.close()


def test_kept_totals_always_equal_the_results_log(tmp_path: Path) -> None:
    """After wins, losses, a reset and more games, and after the totals are rebuilt from scratch."""
    import sqlite3

    db = tmp_path / "games.db"
    with api(db) as client:
        win(client)
        win(client)
        get_stuck(client)
        new_game(client)  # the stuck one counts lost
        assert client.delete("/api/stats", headers={"content-type": "application/json"}).is_success
        get_stuck(client)
        win(client)  # the stuck one counts lost, then a win: a streak of one
        short = new_game(client, WIN_CODE)
        send(client, short, winning_line()[0])
        win(client)  # the short one counts lost
        shown = client.get("/api/stats").json()
        player = player_of(client)
    store = Store(db)
    log = store.results(player)
    assert [r.outcome for r in log] == ["lost", "won", "lost", "won"]
    assert store.totals(player) == {Kind(Variant(Rules.EASY)): fold(log, Rules.EASY)}
    assert shown["easy"] == {**asdict(summarize(log, Rules.EASY))}
    assert shown["recent"][0]["outcome"] == "won" and len(shown["recent"]) == 4
    store.close()
    with sqlite3.connect(db) as old:  # as a database made before the totals were kept
        old.execute("DROP TABLE totals")
        old.execute("DROP TABLE alembic_version")  # (and before migrations)
        for table in ("settings", "players", "dailies", "daily_scores", "verdicts", "hinted_games"):
            old.execute(f"DROP TABLE {table}")  # (and before revision 0004)
        for table in ("journey", "achievements", "transfers"):
            old.execute(f"DROP TABLE {table}")  # (and before revision 0010)
        old.execute("ALTER TABLE games DROP COLUMN level")
    with api(db) as client:
        client.cookies.set("tripeaks_player", player)
        rebuilt = client.get("/api/stats").json()
    honest = ("winnable_played", "winnable_won", "won_with_hints", "won_without_hints")
    from tripeaks.solver import search as solver

    winnable = sum(solver.is_winnable(r.code) for r in log)
    assert [r.winnable for r in log] == [solver.is_winnable(r.code) for r in log]
    assert (shown["easy"]["winnable_played"], shown["easy"]["winnable_won"]) == (winnable, 2)
    # games counted before the solver's verdicts were kept were never judged: the rest is as shown
    nothing = dict.fromkeys(("played", "won"), 0)
    assert rebuilt["easy"] == {
        **shown["easy"],
        **dict.fromkeys(honest, 0),
        "best_share": None,
        "by_grade": dict.fromkeys(shown["easy"]["by_grade"], nothing),
    }
    assert rebuilt["recent"] == shown["recent"]


def test_each_scoring_and_variant_is_counted_apart(tmp_path: Path) -> None:
    """A traditional game, a joker game and a standard one, each won: three kinds, three totals;
    /api/stats shows the standard ones as ever and the others under `variants`."""
    from winning import find_win

    from tripeaks.store.core import new_id

    player = new_id()  # one the server would have issued, for its cookie
    db = tmp_path / "games.db"
    store = Store(db)
    codes = ("TP1-E-AAAAAAB-T", "TP1-E-AAAAAAB-J", "TP1-E-AAAAAAB")
    for n, text in enumerate(codes):
        code = GameCode.parse(text)
        created = store.create(player, code)
        line = find_win(Game.new(code))
        assert line is not None
        for version, action in enumerate(line, start=0):
            store.apply(created.id, player, action, version)
        assert store.game(created.id, player).is_won, n
    log = store.results(player)
    totals = store.totals(player)
    kinds = {Kind.of(GameCode.parse(text)) for text in codes}
    assert set(totals) == kinds
    for kind in kinds:
        assert totals[kind] == fold(log, kind)
        assert totals[kind].played == totals[kind].won == 1
    # the traditional score is kept as it is (not ours)
    traditional = Kind.of(GameCode.parse(codes[0]))
    assert totals[traditional].best_score == next(r.score for r in log if r.code.options == "T")
    assert totals[traditional].best_score != totals[Kind(Variant(Rules.EASY))].best_score
    store.close()
    with api(db) as client:
        client.cookies.set("tripeaks_player", player)
        shown = client.get("/api/stats").json()
    assert shown["easy"]["played"] == 1 and shown["classic"]["played"] == 0
    assert [
        (v["rules"], v["variant"]["scoring"], v["variant"]["joker"]) for v in shown["variants"]
    ] == [
        ("easy", "ours", True),
        ("easy", "traditional", False),
    ]
    assert all(v["stats"]["won"] == 1 for v in shown["variants"])
