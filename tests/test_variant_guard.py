"""Every option is offered now (codes.OFFERED): a code with options plays, is described and is solved
at every door. The guard stays for an option still being built: with one taken out of OFFERED, every
door that takes a code or options from outside refuses exactly that one, in the player's language,
and changes nothing: never the standard game instead."""

import os
import subprocess
import sys

import pytest
from fastapi.testclient import TestClient
from test_api_support import WIN_CODE, new_game, refused_by_command, send

from tripeaks import GameCode
from tripeaks.engine import codes
from tripeaks.engine.codes import OPTION_LETTERS, NotOffered, offered
from tripeaks.engine.game import DRAW, Game
from tripeaks.i18n import refusal

REFUSAL = {
    "en": "This code has options that are not offered yet: traditional scoring."
    " The same deal without them is TP1-C-AAAAAAB-J.",
    "fi": "Tämän koodin valintoja ei vielä tarjota: perinteinen pisteytys."
    " Sama jako ilman niitä on TP1-C-AAAAAAB-J.",
    "ca": "Aquest codi porta opcions que encara no s’ofereixen: puntuació tradicional."
    " El mateix repartiment sense elles és TP1-C-AAAAAAB-J.",
}
CODE = "tp1-c-aaaaaab-tj"


@pytest.fixture
def no_traditional(monkeypatch: pytest.MonkeyPatch) -> None:
    """This version as if the traditional scoring were still being built."""
    monkeypatch.setattr(codes, "OFFERED", "DJO")


def test_every_option_is_offered() -> None:
    assert codes.OFFERED == OPTION_LETTERS
    every = GameCode.parse("TP1-E-AAAAAAB-DJOT")
    assert offered(every) is every


@pytest.mark.usefixtures("no_traditional")
def test_only_the_options_not_offered_are_named() -> None:
    plain = GameCode.parse("TP1-E-AAAAAAB-DJO")
    assert offered(plain) is plain
    with pytest.raises(NotOffered) as refused:
        offered(GameCode.parse(CODE))
    assert [refusal(refused.value, lang) for lang in REFUSAL] == list(REFUSAL.values())
    with pytest.raises(NotOffered) as every:
        offered(GameCode.parse("TP1-E-AAAAAAB-DJOT"))
    assert every.value.letters == "T"
    assert refusal(every.value, "en").endswith(" The same deal without them is TP1-E-AAAAAAB-DJO.")


def test_every_door_takes_a_code_with_every_option(client: TestClient) -> None:
    code = "TP1-C-AAAAAAB-DJOT"
    state = client.post("/api/games", json={"code": code.lower()}).json()
    assert state["code"] == code and state["discard"] is None
    assert state["variant"] == {
        "scoring": "traditional",
        "open_peaks": True,
        "empty_discard": True,
        "joker": True,
    }
    assert client.get(f"/api/code?code={code}").status_code == 200
    assert client.get(f"/api/preview?code={code}&actions=draw").status_code == 200
    chosen = client.post(
        "/api/games",
        json={"scoring": "traditional", "open_peaks": True, "joker": True, "winnable_only": True},
    ).json()
    assert chosen["code"].endswith("-JOT") and chosen["score"] == 0


@pytest.mark.usefixtures("no_traditional")
@pytest.mark.parametrize("lang", sorted(REFUSAL))
def test_a_new_game_with_options_not_offered_is_refused_and_the_current_game_stays(
    client: TestClient, lang: str
) -> None:
    state = new_game(client, WIN_CODE, lang)
    state = send(client, state, DRAW).json()
    reply = client.post(f"/api/games?lang={lang}", json={"code": CODE})
    assert reply.status_code == 422
    assert reply.json()["error"] == {"reason": "options_not_offered", "message": REFUSAL[lang]}
    assert client.get(f"/api/games/{state['id']}").json()["version"] == 1
    assert client.get(f"/api/games/{state['id']}").json()["status"] == "playing"
    assert client.get("/api/stats").json()["recent"] == []


CHOSEN = {
    "en": "These options are not offered yet: traditional scoring.",
    "fi": "Näitä valintoja ei vielä tarjota: perinteinen pisteytys.",
    "ca": "Aquestes opcions encara no s’ofereixen: puntuació tradicional.",
}


@pytest.mark.usefixtures("no_traditional")
@pytest.mark.parametrize("lang", sorted(CHOSEN))
def test_options_chosen_for_a_new_deal_are_refused_too_and_change_nothing(
    client: TestClient, lang: str
) -> None:
    state = new_game(client, WIN_CODE, lang)
    for winnable in (False, True):
        reply = client.post(
            f"/api/games?lang={lang}",
            json={"scoring": "traditional", "open_peaks": True, "winnable_only": winnable},
        )
        assert reply.status_code == 422
        assert reply.json()["error"] == {"reason": "options_not_offered", "message": CHOSEN[lang]}
    assert client.get(f"/api/games/{state['id']}").json()["status"] == "playing"
    # what is offered is played; a state says what it is played with
    opened = client.post("/api/games", json={"open_peaks": True, "rules": "classic"}).json()
    assert opened["variant"] == {
        "scoring": "ours",
        "open_peaks": True,
        "empty_discard": False,
        "joker": False,
    }
    assert opened["code"].startswith("TP1-C-") and opened["code"].endswith("-O")


@pytest.mark.usefixtures("no_traditional")
@pytest.mark.parametrize("path", ["/api/code?code={code}", "/api/preview?code={code}&actions=draw"])
def test_code_queries_refuse_options_not_offered_too(client: TestClient, path: str) -> None:
    reply = client.get(path.format(code=CODE) + "&lang=fi")
    assert reply.status_code == 422
    assert reply.json()["error"] == {"reason": "options_not_offered", "message": REFUSAL["fi"]}
    for bad in ("TP1-C-AAAAAAB-", "TP1-C-AAAAAAB-X", "TP1-C-AAAAAAB-TT"):
        wrong = client.get(path.format(code=bad))
        assert wrong.status_code == 422 and wrong.json()["error"]["reason"] == "invalid_code"
    assert client.get(path.format(code="TP1-C-AAAAAAB-J")).status_code == 200


def run(*args: str, lang: str = "en") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tripeaks", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**environ, "LANG": "fi_FI.UTF-8" if lang == "fi" else "C.UTF-8"},
    )


environ = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANGUAGE")}


@pytest.mark.parametrize("command", ["deal", "describe", "solve"])
def test_every_command_takes_a_code_with_options(command: str) -> None:
    result = run(command, CODE)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "" and result.stdout


def test_a_game_with_options_is_played_in_the_terminal() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tripeaks", "play", CODE],
        input="d\nq\n",
        capture_output=True,
        text=True,
        timeout=60,
        env={**environ, "LANG": "C.UTF-8"},
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.usefixtures("no_traditional")
@pytest.mark.parametrize("command", ["deal", "describe", "play", "solve"])
def test_every_command_refuses_an_option_not_offered(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    err = refused_by_command([command, CODE], "fi_FI.UTF-8", capsys, monkeypatch)
    assert REFUSAL["fi"] in err


@pytest.mark.parametrize("compiled", [True, False])
def test_the_solver_decides_the_traditional_scoring_and_leaves_its_best_win_to_streak(
    compiled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tripeaks.solver import compiled as compiled_kernel
    from tripeaks.solver import portable
    from tripeaks.solver import search as solver

    monkeypatch.setattr("tripeaks.solver.kernel.KERNEL", compiled_kernel if compiled else portable)
    game = Game.new(CODE)
    for ask in (
        lambda: solver.solve(CODE),
        lambda: solver.solve(GameCode.parse(CODE)),
        lambda: solver.solve(game),
        lambda: solver.hint(game),
    ):
        with pytest.raises(NotOffered):
            ask()
    # whether it can be won is the same deal's answer under our scoring, from its code and its game
    ours = "TP1-C-AAAAAAB-J"
    assert solver.is_winnable(CODE) == solver.is_winnable(game) == solver.solve(ours).winnable
