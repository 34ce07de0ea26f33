"""The deal of the day through the API, on SQLite and PostgreSQL: the code withheld, a typed code
read like any other, no hint or undo in the ranked attempt, one attempt a day, forged figures ignored, the
board in its order, names, history and streaks."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_api_support import BASE_URL, api, at, on_day, player_of, send, store_of

from tripeaks import daily, nickname
from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import DRAW, UNDO, Action, Game
from tripeaks.i18n import translator
from tripeaks.solver import search as solver

COOKIE = "tripeaks_player"


class Clock:
    """The store's clock of a test: seconds that move only when told to."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(client: TestClient) -> Clock:
    fake = Clock()
    store_of(client).clock = fake
    return fake


def paced(client: TestClient) -> Clock:
    """The store's test clock, set now if it has none: a player plays at a person's pace (an
    attempt at machine speed is kept off the board, daily.too_fast)."""
    store = store_of(client)
    if not isinstance(store.clock, Clock):
        store.clock = Clock()
    return store.clock


def deal_of(client: TestClient, day: date | None = None) -> daily.DailyDeal:
    dailies = client.app.state.backend.dailies  # type: ignore[attr-defined]
    deal: daily.DailyDeal = dailies.deal(day or daily.today())
    return deal


def start(client: TestClient, expect: int | None = None, **kwargs: Any) -> dict[str, Any]:
    kwargs.setdefault("json", {})  # a write is JSON (guard.py), even with nothing in it
    reply = client.post("/api/daily", **kwargs)
    assert reply.status_code in (200, 201), reply.text
    if expect is not None:
        assert reply.status_code == expect
    state: dict[str, Any] = reply.json()
    return state


def new_player(client: TestClient) -> None:
    client.cookies.clear()


def best_line(code: GameCode) -> tuple[Action, ...]:
    return solver.solve(code).line


def greedy_line(code: GameCode) -> list[Action]:
    """Play the first playable card, else draw, until the game ends: some ending, not the best."""
    game = Game.new(code)
    line: list[Action] = []
    while not daily.ended(game):
        playable = game.playable_positions()
        action = Action.play(playable[0]) if playable else DRAW
        game.apply(action)
        line.append(action)
    return line


def play(
    client: TestClient,
    state: dict[str, Any],
    line: list[Action] | tuple[Action, ...],
    clock: Clock | None = None,
    step: float = 1.0,
    **extra: Any,
) -> dict[str, Any]:
    clock = clock or paced(client)
    for action in line:
        clock.now += step
        body: dict[str, Any] = {"version": state["version"], **extra}
        if action.pos is not None:
            body["pos"] = action.pos
        reply = client.post(
            f"/api/games/{state['id']}/{action.kind.value}",
            json=body,
            params={"score": 99_999, "moves": 0, "seconds": 0},
        )
        assert reply.status_code == 200, reply.text
        state = reply.json()
    return state


# The code is withheld -----------------------------------------------------------------------


def test_the_ranked_daily_names_its_day_and_never_its_code(client: TestClient) -> None:
    deal = deal_of(client)
    state = start(client, 201)
    assert state["code"] is None and state["daily"] == daily.today().isoformat()
    assert state["ranked"] is True and state["can_undo"] is False
    assert state["tableau"][18]["card"]["label"] == str(Game.new(deal.code).deal.tableau[18])
    line = best_line(deal.code)
    moved = play(client, state, line[:3])
    assert moved["code"] is None and moved["ranked"] is True
    read = client.get(f"/api/games/{state['id']}").json()
    assert read["code"] is None and read["version"] == 3
    stale = send(client, state, line[0])  # against version 0: refused, with the state
    assert stale.status_code == 409 and stale.json()["state"]["code"] is None
    again = start(client, 200)  # the same attempt resumed
    assert again["id"] == state["id"] and again["version"] == 3 and again["code"] is None
    day = client.get("/api/daily/history").json()["days"][0]
    assert (day["played"], day["finished"], day["ended"]) == (True, False, False)  # under way


def test_nothing_a_player_can_ask_carries_the_secret_code(client: TestClient) -> None:
    """Every route, and every reply of a ranked attempt in progress, searched for the code and
    for its seven letters."""
    deal = deal_of(client)
    secrets = (str(deal.code), deal.code.letters)
    bodies: list[str] = []
    state = start(client)
    bodies.append(client.post("/api/daily", json={}).text)
    line = best_line(deal.code)
    for action in line[:4]:
        reply = send(client, state, action)
        bodies.append(reply.text)
        state = reply.json()
    bodies.append(send(client, {**state, "version": 0}, line[0]).text)  # stale
    bodies.append(send(client, state, UNDO).text)
    bodies.append(client.get(f"/api/games/{state['id']}/hint").text)
    for lang in ("en", "fi", "ca"):
        bodies.append(client.get(f"/api/games/{state['id']}?lang={lang}").text)
    for path in (
        "/api/daily/board",
        "/api/daily/history",
        "/api/stats",
        "/api/player/name",
        "/api/rules",
        "/api/layout",
    ):
        reply = client.get(path)
        assert reply.status_code == 200, path
        bodies.append(reply.text)
    for body in bodies:
        assert not any(secret in body for secret in secrets), body[:300]


def test_a_typed_code_is_read_the_same_whether_or_not_it_is_todays(client: TestClient) -> None:
    """No code is refused for being the day's: the daily is dealt from the secret and its code is
    a long one that nothing a player sees gives away (docs/decisions.md), so whoever has it holds
    the cards anyway. Typed, today's code is checked, previewed and played as any code is: a game
    of its own, no daily, dealing the daily's cards."""
    deal = deal_of(client)
    code = deal.code
    assert code.long
    for text in (str(code), f"  {str(code).lower()} ", f"{code}-T"):
        checked = client.get("/api/code", params={"code": text, "lang": "fi"})
        assert checked.status_code == 200, checked.text
        assert checked.json()["code"] == str(GameCode.parse(text))
        preview = client.get("/api/preview", params={"code": text, "actions": "draw"})
        assert preview.status_code == 200, preview.text
        assert preview.json()["moves"] == 1
    reply = client.post("/api/games?lang=fi", json={"code": str(code)})
    assert reply.status_code == 201, reply.text
    game = reply.json()
    assert game["code"] == str(code) and game["daily"] is None and game["ranked"] is None
    # the player's ranked attempt is still to be had, with the same cards
    daily_game = start(client, params={"lang": "fi"})
    assert daily_game["ranked"] is True and daily_game["code"] is None
    assert daily_game["tableau"] == game["tableau"] and daily_game["discard"] == game["discard"]


# The ranked attempt -------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "fi", "ca"])
def test_the_ranked_attempt_refuses_undo_and_hints(client: TestClient, lang: str) -> None:
    deal = deal_of(client)
    state = play(client, start(client), best_line(deal.code)[:2])
    undo = send(client, state, UNDO, lang=lang)
    assert undo.status_code == 403
    message = translator(lang)("error.daily_ranked")
    assert undo.json()["error"] == {"reason": "daily_ranked", "message": message}
    assert undo.json()["state"]["version"] == 2 and undo.json()["state"]["code"] is None
    hint = client.get(f"/api/games/{state['id']}/hint?lang={lang}")
    assert hint.status_code == 403 and hint.json()["error"]["message"] == message
    assert client.get(f"/api/games/{state['id']}").json()["version"] == 2  # nothing changed


def test_a_refused_move_of_the_ranked_attempt_is_answered_without_asking_the_store_again(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refusal carries the daily tag of the game it was decided on, so its reply needs nothing
    more from the store: on PostgreSQL each question is a hop to a thread and back, and under
    load a refused tap waited for two such trips where a move waits for one."""
    line = best_line(deal_of(client).code)
    state = play(client, start(client), line[:2])

    def asked(game_id: str) -> None:
        raise AssertionError(f"the reply asked the store for the tag of {game_id}")

    monkeypatch.setattr(store_of(client), "daily_tag", asked)
    covered = Action.play(0)  # the first peak's top: covered until its row is cleared
    replies = [
        send(client, state, UNDO),  # the day's policy
        send(client, state, covered),  # the rules
        send(client, {**state, "version": 1}, DRAW),  # an old version (another tab)
    ]
    assert [r.status_code for r in replies] == [403, 422, 409]
    for reply in replies:
        out = reply.json()["state"]
        assert (out["daily"], out["ranked"], out["code"]) == (daily.today().isoformat(), True, None)
        assert out["version"] == 2
    moved = send(client, state, line[2])  # a move's reply takes the tag from the store's answer too
    assert moved.status_code == 200 and moved.json()["daily"] == daily.today().isoformat()
    assert moved.json()["ranked"] is True and moved.json()["version"] == 3


def secret_parts(deal: daily.DailyDeal) -> tuple[str, ...]:
    """What no reply may carry while the day is open: the code and its letters (the best score is
    checked field by field: the player's own score may equal it)."""
    return (str(deal.code), deal.code.letters)


def assert_nothing_of_the_deal(client: TestClient, deal: daily.DailyDeal, game_id: str) -> None:
    """The ended (or left) attempt's game, the board, history and stats while the day is open."""
    game = client.get(f"/api/games/{game_id}")
    assert game.status_code == 200
    assert game.json()["code"] is None and game.json()["result"] is None
    board = client.get("/api/daily/board").json()
    assert board["code"] is None and board["best_score"] is None
    stats = client.get("/api/stats").json()
    assert all(r["code"] is None for r in stats["recent"] if r["daily"])
    for reply in (
        game,
        client.get("/api/daily/board"),
        client.get("/api/daily/history"),
        client.get("/api/stats"),
        client.post("/api/daily", json={}),
        client.get(f"/api/games/{game_id}/review"),
        client.get(f"/api/games/{game_id}/hint"),
    ):
        assert not any(part in reply.text for part in secret_parts(deal)), reply.text[:300]
    for path in ("review", "hint?kind=fair", "hint?kind=perfect"):
        refused = client.get(f"/api/games/{game_id}/{path}")
        assert refused.status_code == 403 and refused.json()["error"]["reason"] == "daily_ranked"


def test_an_ended_attempt_shows_nothing_of_the_deal_until_the_day_is_over(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    deal = deal_of(client)
    ranked = start(client, 201)
    won = play(client, ranked, best_line(deal.code))
    assert won["status"] == "won" and won["code"] is None and won["result"] is None
    assert won["ranked"] is True and won["can_undo"] is False and won["can_hint"] is False
    assert_nothing_of_the_deal(client, deal, ranked["id"])
    again = start(client, 200)  # no replay of an open day: the attempt as it ended
    assert again["id"] == ranked["id"] and again["status"] == "won" and again["code"] is None
    board = client.get("/api/daily/board").json()
    assert board["shown"] is True and board["me"]["rank"] == 1 and board["top"][0]["rank"] == 1
    assert board["me"]["score"] == won["score"] and board["me"]["ended"] is True
    new_player(client)  # someone still to play sees no rows, and no figure of the deal
    other = start(client, 201)
    assert other["code"] is None and other["ranked"] is True
    theirs = client.get("/api/daily/board").json()
    assert theirs["shown"] is False and theirs["top"] == [] and theirs["players"] == 1
    assert theirs["best_score"] is None and theirs["code"] is None
    told = client.post("/api/games", json={"code": str(deal.code)})  # told it: a game of their own
    assert told.status_code == 201 and told.json()["daily"] is None
    assert told.json()["can_hint"] is True  # a game of their own, with everything
    on_day(monkeypatch, daily.today() + timedelta(days=1), hour=1)  # the day is over
    over = client.get(f"/api/games/{other['id']}").json()
    assert over["code"] == str(deal.code) and over["ranked"] is False and over["can_hint"] is True
    assert client.get(f"/api/games/{ranked['id']}/hint").status_code != 403
    past = client.get("/api/daily/board", params={"day": deal.day.isoformat()}).json()
    assert past["code"] == str(deal.code) and past["best_score"] == deal.best_score


def test_a_stuck_ranked_attempt_has_ended_and_stays_secret(client: TestClient) -> None:
    deal = deal_of(client)
    line = greedy_line(deal.code)
    ended = play(client, start(client), line)
    expected = Game.replay(deal.code, line)
    assert ended["status"] == expected.status.value
    assert ended["code"] is None and ended["result"] is None
    assert_nothing_of_the_deal(client, deal, ended["id"])
    assert start(client, 200)["id"] == ended["id"]


def test_one_ranked_attempt_a_day_and_a_left_one_shows_nothing(client: TestClient) -> None:
    deal = deal_of(client)
    ranked = play(client, start(client, 201), best_line(deal.code)[:2])
    other = client.post("/api/games", json={})  # leaves the ranked attempt (counted lost)
    assert other.status_code == 201
    left = client.get(f"/api/games/{ranked['id']}").json()
    assert left["status"] == "left" and left["code"] is None
    assert_nothing_of_the_deal(client, deal, ranked["id"])
    again = start(client, 200)
    assert again["id"] == ranked["id"] and again["status"] == "left"
    board = client.get("/api/daily/board").json()
    assert board["players"] == 0 and board["me"]["finished"] is False
    assert board["me"]["ended"] is True and board["shown"] is True
    day = client.get("/api/daily/history").json()["days"][0]  # told apart from one under way
    assert (day["played"], day["finished"], day["ended"]) == (True, False, True)


def test_two_tabs_starting_at_once_share_one_ranked_attempt(client: TestClient) -> None:
    from concurrent.futures import ThreadPoolExecutor

    start(client)  # a player (cookie) first, ranked
    cookie = client.cookies.get(COOKIE)
    with ThreadPoolExecutor(4) as pool:
        ids = set(pool.map(lambda _: client.post("/api/daily", json={}).json()["id"], range(8)))
    assert len(ids) == 1 and cookie == client.cookies.get(COOKIE)


@pytest.mark.slow
@pytest.mark.parametrize("racers", [2, 4])
def test_starts_racing_on_two_workers_make_one_ranked_game_and_no_copy(
    postgres: str, racers: int
) -> None:
    """Two apps on one PostgreSQL database are two workers; each round a new player's starts
    race across both at once (a barrier lines them up). Every start answers the one ranked
    game, the database holds one daily row for the player, and the attempt is not left."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    with api(postgres) as first, api(postgres) as second:
        deal_of(first), deal_of(second)  # each worker found the day's deal before the race
        for k in range(50):  # a network of its own each round: its cap is not what is tested
            where = (f"198.51.100.{k + 1}", 50000)
            workers = [TestClient(w.app, base_url=BASE_URL, client=where) for w in (first, second)]
            player = workers[0].post("/api/games", json={})  # a player with a game to leave
            for worker in workers:
                worker.cookies.set(COOKIE, player.cookies[COOKIE])
            barrier = threading.Barrier(racers)

            def race(n: int, workers: list[TestClient] = workers, barrier: Any = barrier) -> Any:
                barrier.wait()
                return workers[n % 2].post("/api/daily", json={})

            with ThreadPoolExecutor(racers) as pool:
                replies = list(pool.map(race, range(racers)))
            assert all(r.status_code in (200, 201) for r in replies), [r.text for r in replies]
            states = [r.json() for r in replies]
            assert len({s["id"] for s in states}) == 1
            assert all(s["ranked"] is True and s["status"] == "playing" for s in states)
            store = store_of(first)
            rows = store._read(
                "SELECT game, ranked FROM dailies WHERE player ="
                " (SELECT player FROM games WHERE id = ?)",
                (states[0]["id"],),
            )
            assert rows == [(states[0]["id"], 1)]
            assert [r.status_code for r in replies].count(201) >= 1


def test_midnight_closes_the_day_and_later_moves_are_never_ranked(
    client: TestClient, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    day = daily.today()
    deal = deal_of(client, day)
    line = best_line(deal.code)
    on_day(monkeypatch, day, hour=23)
    state = play(client, start(client), line[:2], clock)
    at(monkeypatch, daily.closes_at(day) - timedelta(seconds=1))  # a tap sent before midnight
    state = play(client, state, line[2:3], clock)
    assert state["ranked"] is True and state["code"] is None
    at(monkeypatch, daily.closes_at(day))  # the day is over: the attempt stands as it was
    later = client.get(f"/api/games/{state['id']}").json()
    assert later["ranked"] is False and later["daily"] == day.isoformat()
    assert later["code"] == str(deal.code)  # everyone's now
    won = play(client, later, line[3:], clock)
    assert won["status"] == "won"
    board = client.get("/api/daily/board", params={"day": day.isoformat()}).json()
    assert board["players"] == 0 and board["top"] == []
    assert board["me"]["moves"] == 3 and board["me"]["finished"] is False
    closed = client.get("/api/daily/history").json()["days"]
    assert [(d["finished"], d["ended"]) for d in closed if d["day"] == day.isoformat()] == [
        (False, True)  # the day closed before its end: not under way any more
    ]
    tomorrow = start(client, 201)  # the new day's own ranked attempt
    assert tomorrow["ranked"] is True and tomorrow["daily"] == (day + timedelta(days=1)).isoformat()


# One network, a few ranked attempts ---------------------------------------------------------


def test_starts_from_one_network_stay_within_its_cap(client: TestClient) -> None:
    """Second cookies, cookie-less starts and made-up cookies from one address: the first
    RANKED_PER_ADDRESS make ranked attempts, every later one a 403 that makes nothing."""
    cap = daily.RANKED_PER_ADDRESS
    ranked = []
    for _k in range(cap):
        new_player(client)
        ranked.append(start(client, 201)["id"])
    new_player(client)
    for attempt in range(3):
        client.cookies.clear()
        if attempt:
            client.cookies.set(COOKIE, f"made-up-player-{attempt:04d}-xxxxxxxx")
        refused = client.post("/api/daily?lang=fi", json={})
        assert refused.status_code == 403
        assert refused.json()["error"] == {
            "reason": "daily_capped",
            "message": translator("fi")("error.daily_capped", limit=cap),
        }
    store = store_of(client)
    made = store._read("SELECT count(*) FROM dailies WHERE day = ?", (daily.today().isoformat(),))
    assert made[0][0] == cap and len(set(ranked)) == cap
    other = TestClient(client.app, base_url=BASE_URL, client=("203.0.113.9", 50000))
    assert other.post("/api/daily", json={}).status_code == 201  # another network plays on


# The board ----------------------------------------------------------------------------------


def test_the_board_orders_by_score_then_moves_then_the_servers_time(
    client: TestClient, clock: Clock
) -> None:
    deal = deal_of(client)
    best, greedy = best_line(deal.code), greedy_line(deal.code)
    plays = {  # player: (line, seconds between actions)
        "slow": (best, 3.0),
        "fast": (best, 1.0),
        "greedy": (greedy, 0.5),
        "again": (best, 1.0),  # the same figures as "fast": the same rank
    }
    cookies = {}
    for who, (line, step) in plays.items():
        new_player(client)
        state = start(client)  # a name is for a player who has played
        assert client.put("/api/player/name", json={"name": who}).status_code == 200
        play(client, state, line, clock, step)
        cookies[who] = client.cookies.get(COOKIE)
    board = client.get("/api/daily/board").json()
    figures = {
        who: (
            Game.replay(deal.code, line).score,
            Game.replay(deal.code, line).moves,
            step * (len(line) - 1),
        )
        for who, (line, step) in plays.items()
    }

    def key(who: str) -> tuple[float, ...]:
        score, moves, seconds = figures[who]
        return (-score, moves, seconds)

    names = [row["name"] for row in board["top"]]
    assert sorted(names) == sorted(plays) and [key(n) for n in names] == sorted(map(key, plays))
    for row in board["top"]:
        assert (row["score"], row["moves"], row["seconds"]) == figures[row["name"]]
        assert row["rank"] == 1 + sum(key(other) < key(row["name"]) for other in plays)
    assert key("fast") < key("slow") and key("fast") == key("again")  # time decides, or ties
    assert board["players"] == 4 and board["best_score"] is None  # the day is still open
    # The day's deal is random: on some, the greedy line scores as the best one in as few moves, and
    # its quicker taps put it ahead. The last player, "again", is first but for that.
    me = board["me"]
    ahead = sum(key(other) < key("again") for other in plays)
    assert ahead == (key("greedy") < key("fast"))
    assert me["name"] == "again" and me["rank"] == 1 + ahead and me["finished"] and me["won"]
    assert me["peaks"] == [True, True, True]
    won = Game.replay(deal.code, best)
    assert me["longest_streak"] == won.longest_streak
    assert me["share"] == translator("en")(
        "daily.share",
        date=daily.today().isoformat(),
        score=won.score,
        moves=won.moves,
        streak=won.longest_streak,
        peaks="▲▲▲",
    )
    assert board["code"] is None  # the day is open: even players who have finished wait for it
    client.cookies.set(COOKIE, cookies["greedy"])
    mine = client.get("/api/daily/board?lang=fi").json()["me"]
    assert mine["rank"] == names.index("greedy") + 1
    greedy_game = Game.replay(deal.code, greedy)
    assert mine["peaks"] == list(daily.peaks_cleared(greedy_game))
    assert mine["won"] is greedy_game.is_won
    assert mine["share"].startswith("TriPeaks, päivän peli")


def test_no_request_can_forge_a_score_moves_or_time(client: TestClient, clock: Clock) -> None:
    """Figures sent in bodies and query strings of every request are ignored: the board holds
    what the engine's replay and the server's clock say."""
    deal = deal_of(client)
    forged = {"score": 99_999, "moves": 1, "seconds": 0.001, "won": True, "finished": True}
    reply = client.post("/api/daily", json=forged, params=forged)
    assert reply.status_code == 201
    line = best_line(deal.code)
    state = play(client, reply.json(), line, clock, 2.0, **forged)
    assert client.put("/api/player/name", json={"name": "Honest", **forged}).status_code == 200
    board = client.get("/api/daily/board", params=forged).json()
    won = Game.replay(deal.code, line)
    row = board["top"][0]
    assert (row["score"], row["moves"], row["seconds"]) == (
        won.score,
        won.moves,
        2.0 * (len(line) - 1),
    )
    assert state["score"] == won.score and board["players"] == 1
    assert client.get("/api/daily/history", params=forged).json()["days"][0]["score"] == won.score


def test_a_past_days_board_shows_its_code_and_a_coming_day_is_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    yesterday = daily.today() - timedelta(days=1)
    with monkeypatch.context() as then:
        then.setattr(daily, "today", lambda now=None: yesterday)
        start(client)  # a ranked attempt left unfinished: the day was played
    new_player(client)
    board = client.get("/api/daily/board", params={"day": yesterday.isoformat()}).json()
    assert board["code"] == str(deal_of(client, yesterday).code)
    assert board["top"] == [] and board["me"] is None and board["players"] == 0
    for bad in ((daily.today() + timedelta(days=1)).isoformat(), "2026-13-01", "yesterday"):
        reply = client.get("/api/daily/board", params={"day": bad, "lang": "ca"})
        assert reply.status_code == 422
        assert reply.json()["error"]["message"] == translator("ca")("error.daily_day")


# Names --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("  Ann  ", "Ann"),
        ("Äijä 7", "Äijä 7"),
        ("Núria", "Núria"),
        ("Nu\u0301ria", "Núria"),  # a combining accent is the letter it makes (NFC)
        ("花子", "花子"),
        ("سارة", "سارة"),
        ("42", "42"),
        ("x" * 20, "x" * 20),
    ],
)
def test_a_nickname_of_letters_digits_and_spaces_is_kept_trimmed(
    client: TestClient, typed: str, kept: str
) -> None:
    start(client)
    reply = client.put("/api/player/name", json={"name": typed})
    assert reply.status_code == 200 and reply.json() == {"name": kept, "chosen": True}
    assert client.get("/api/player/name").json() == {"name": kept, "chosen": True}


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("", "name_empty"),
        ("   ", "name_empty"),
        ("x" * 21, "name_long"),
        ("a  b", "name_spaces"),
        ("a_b", "name_characters"),
        ("smile😀", "name_characters"),
        ("tab\there", "name_characters"),
        ("<b>", "name_characters"),
    ],
)
def test_a_bad_nickname_is_refused_with_its_reason_and_changes_nothing(
    client: TestClient, typed: str, reason: str
) -> None:
    start(client)
    assert client.put("/api/player/name", json={"name": "Before"}).status_code == 200
    reply = client.put("/api/player/name?lang=fi", json={"name": typed})
    assert reply.status_code == 422
    assert reply.json()["error"] == {
        "reason": reason,
        "message": translator("fi")(f"error.{reason}", limit=nickname.MAX_LENGTH),
    }
    assert client.get("/api/player/name").json()["name"] == "Before"


def test_a_player_without_a_nickname_has_a_stable_generated_one(client: TestClient) -> None:
    start(client)
    player = player_of(client)
    names = {lang: client.get(f"/api/player/name?lang={lang}").json() for lang in ("en", "fi")}
    assert names["en"] == {"name": nickname.generated(player, "en"), "chosen": False}
    assert names["fi"]["name"] == nickname.generated(player, "fi") != names["en"]["name"]
    number = names["en"]["name"].rsplit(" ", 1)[1]
    assert names["fi"]["name"].endswith(f" {number}")
    assert client.get("/api/player/name?lang=en").json() == names["en"]  # the same every time


# History ------------------------------------------------------------------------------------


def test_history_and_the_daily_streak(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    first = daily.today()
    played = [0, 1, 2, 4, 5]  # days after ``first`` with a finished daily; 3 is missed
    for offset in range(6):
        day = first + timedelta(days=offset)
        on_day(monkeypatch, day)
        if offset in played:
            play(client, start(client), best_line(deal_of(client, day).code))
    last = first + timedelta(days=5)
    out = client.get("/api/daily/history").json()
    assert out["today"] == last.isoformat()
    assert (out["streak"], out["best_streak"]) == (2, 3)
    assert len(out["days"]) == 30 and out["days"][0]["day"] == last.isoformat()
    marks = {d["day"]: (d["played"], d["won"], d["rank"]) for d in out["days"]}
    for offset in range(6):
        day = (first + timedelta(days=offset)).isoformat()
        assert marks[day] == ((True, True, 1) if offset in played else (False, False, None))
    on_day(monkeypatch, last + timedelta(days=2))
    assert client.get("/api/daily/history").json()["streak"] == 0  # the day before missed too
    month = client.get("/api/daily/history", params={"month": first.strftime("%Y-%m")}).json()
    assert all(d["day"].startswith(first.strftime("%Y-%m")) for d in month["days"])
    assert month["days"][-1]["day"].endswith("-01")


# The secret ---------------------------------------------------------------------------------


def test_the_secret_is_made_once_and_kept_with_the_data(database: str | Path) -> None:
    with api(database) as first:
        code = deal_of(first).code
    with api(database) as second:  # a restarted server, or another worker
        assert deal_of(second).code == code


def test_an_operators_secret_decides_the_deal(
    database: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(daily.SECRET_VARIABLE, "an operator's secret of ours")
    with api(database) as client:
        code = deal_of(client).code
    assert code == daily.choose(b"an operator's secret of ours", daily.today())


def test_serve_takes_the_daily_secret_and_refuses_a_short_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from test_api_guard import served_app

    from tripeaks.cli import main as cli

    # set here, so that the test's end puts the variable back as it was (serve sets it too)
    monkeypatch.setenv(daily.SECRET_VARIABLE, "the environment's secret, overridden")
    secret = "sixteen or more characters"
    app = served_app(monkeypatch, ["--db", str(tmp_path / "a.db"), "--daily-secret", secret])
    assert app.state.backend.dailies.deal(daily.today()).code == daily.choose(
        secret.encode(), daily.today()
    )
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    argv = ["serve", "--no-browser", "--port", "8123", "--db", str(tmp_path / "b.db")]
    assert cli.main([*argv, "--daily-secret", "short"]) == 2
    assert "at least 16 characters" in capsys.readouterr().err
    monkeypatch.setenv(daily.SECRET_VARIABLE, "short")
    assert cli.main(argv) == 2


def test_ranks_from_the_score_counts_equal_a_count_of_every_standing_ahead(
    database: str | Path,
) -> None:
    """Many finished attempts with many equal figures, written as the store writes a finishing
    action (the dailies row and its score's count): every rank and the board's order."""
    import random

    from tripeaks import stats
    from tripeaks.store.sql import FINISHED
    from tripeaks.store.sqlite import open_store

    store = open_store(database, daily.Policy(stats.judge, stats.count))
    rng = random.Random(7)
    day = date(2026, 11, 30)
    rows = [
        (
            f"g{n:04d}",
            f"p{n:04d}",
            rng.choice([500, 640, 700]),
            rng.choice([40, 41]),
            rng.choice([10.0, 12.5]),
        )
        for n in range(300)
    ]
    try:
        with store._flushing, store._transaction() as db:
            for game, player, score, moves, seconds in rows:
                db.execute(
                    "INSERT INTO games (id, player, code, created_at, score, status)"
                    " VALUES (?, ?, 'TP1-E-AAAAAAA', 0, ?, 'won')",
                    (game, player, score),
                )
                db.execute(
                    "INSERT INTO dailies (game, day, player, ranked, finished, won, score, moves,"
                    " seconds) VALUES (?, ?, ?, 1, 1, 1, ?, ?, ?)",
                    (game, day.isoformat(), player, score, moves, seconds),
                )
                db.execute(FINISHED, (day.isoformat(), score))
        top, players = store.board(day, 50)
        assert players == len(rows)

        def key(row: tuple[Any, ...]) -> tuple[Any, ...]:
            return (-row[2], row[3], row[4])

        for standing in top + [s for g in rows[:40] for s in store.daily_games(g[1], day)]:
            mine = (
                standing.game,
                standing.player,
                standing.score,
                standing.moves,
                standing.seconds,
            )
            assert store.rank(standing) == 1 + sum(key(r) < key(mine) for r in rows)
        assert [key((0, 0, s.score, s.moves, s.seconds)) for s in top] == sorted(map(key, rows))[
            :50
        ]
    finally:
        store.close()


def test_a_past_days_board_names_the_code_its_games_were_dealt_from(
    database: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    yesterday = daily.today() - timedelta(days=1)
    monkeypatch.setenv(daily.SECRET_VARIABLE, "the first secret of this server")
    with monkeypatch.context() as then:
        on_day(then, yesterday)
        with api(database) as client:
            played = deal_of(client).code
            play(client, start(client), best_line(played))
    monkeypatch.setenv(daily.SECRET_VARIABLE, "another secret, after a leak")
    with api(database) as client:
        assert deal_of(client, yesterday).code != played
        board = client.get("/api/daily/board", params={"day": yesterday.isoformat()}).json()
    assert board["code"] == str(played) and board["players"] == 1
    assert board["best_score"] == solver.solve(played).final_score
