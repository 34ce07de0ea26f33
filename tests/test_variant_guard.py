"""Until the later phases of issue 14, every door that takes a code from outside refuses a code
with options, in the player's language, and changes nothing: never the standard game instead."""

import os
import subprocess
import sys

import pytest
from fastapi.testclient import TestClient
from test_api_support import WIN_CODE, new_game, send

from tripeaks import GameCode
from tripeaks.codes import NotOffered, offered
from tripeaks.game import DRAW

REFUSAL = {
    "en": "This code has options that are not offered yet: joker, traditional scoring."
    " The same deal without them is TP1-C-AAAAAAB.",
    "fi": "Tämän koodin valintoja ei vielä tarjota: jokeri, perinteinen pisteytys."
    " Sama jako ilman niitä on TP1-C-AAAAAAB.",
    "ca": "Aquest codi porta opcions que encara no s’ofereixen: comodí, puntuació tradicional."
    " El mateix repartiment sense elles és TP1-C-AAAAAAB.",
}
CODE = "tp1-c-aaaaaab-tj"


def test_a_standard_code_is_offered_and_one_with_options_is_not() -> None:
    plain = GameCode.parse("TP1-E-AAAAAAB")
    assert offered(plain) is plain
    with pytest.raises(NotOffered) as refused:
        offered(GameCode.parse(CODE))
    assert [refused.value.message(lang) for lang in REFUSAL] == list(REFUSAL.values())
    with pytest.raises(NotOffered) as every:
        offered(GameCode.parse("TP1-E-AAAAAAB-DJOT"))
    assert every.value.message("en").startswith(
        "This code has options that are not offered yet: empty discard, joker, open peaks,"
        " traditional scoring. "
    )


@pytest.mark.parametrize("lang", sorted(REFUSAL))
def test_a_new_game_with_options_is_refused_and_the_current_game_stays(
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
    "en": "These options are not offered yet: open peaks, traditional scoring.",
    "fi": "Näitä valintoja ei vielä tarjota: avoimet huiput, perinteinen pisteytys.",
    "ca": "Aquestes opcions encara no s’ofereixen: cims oberts, puntuació tradicional.",
}


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
    # the standard choices as before; a state says what it is played with
    plain = client.post("/api/games", json={"scoring": "ours", "rules": "classic"}).json()
    assert plain["variant"] == {
        "scoring": "ours",
        "open_peaks": False,
        "empty_discard": False,
        "joker": False,
    }
    assert plain["code"].startswith("TP1-C-") and len(plain["code"]) == len("TP1-C-AAAAAAB")


@pytest.mark.parametrize("path", ["/api/code?code={code}", "/api/preview?code={code}&actions=draw"])
def test_code_queries_refuse_options_too(client: TestClient, path: str) -> None:
    reply = client.get(path.format(code=CODE) + "&lang=fi")
    assert reply.status_code == 422
    assert reply.json()["error"] == {"reason": "options_not_offered", "message": REFUSAL["fi"]}
    for bad in ("TP1-C-AAAAAAB-", "TP1-C-AAAAAAB-X", "TP1-C-AAAAAAB-TT"):
        wrong = client.get(path.format(code=bad))
        assert wrong.status_code == 422 and wrong.json()["error"]["reason"] == "invalid_code"
    assert client.get(path.format(code="TP1-C-AAAAAAB")).status_code == 200


def run(*args: str, lang: str = "en") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tripeaks", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**environ, "LANG": "fi_FI.UTF-8" if lang == "fi" else "C.UTF-8"},
    )


environ = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANGUAGE")}


@pytest.mark.parametrize("command", ["deal", "describe", "play", "solve"])
def test_every_command_refuses_a_code_with_options(command: str) -> None:
    result = run(command, CODE)
    assert result.returncode == 2 and result.stdout == ""
    assert REFUSAL["en"] in result.stderr
    assert "Traceback" not in result.stderr


def test_the_command_line_refusal_is_in_the_system_language() -> None:
    result = run("deal", CODE, lang="fi")
    assert result.returncode == 2 and REFUSAL["fi"] in result.stderr


@pytest.mark.parametrize("compiled", [True, False])
def test_the_solver_refuses_options_rather_than_answer_the_standard_game(
    compiled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tripeaks import solver
    from tripeaks.game import Game

    monkeypatch.setattr(solver, "COMPILED", compiled and solver.COMPILED)
    game = Game.new(CODE)
    for ask in (
        lambda: solver.solve(CODE),
        lambda: solver.solve(GameCode.parse(CODE)),
        lambda: solver.solve(game),
        lambda: solver.is_winnable(CODE),
        lambda: solver.is_winnable(game),
        lambda: solver.hint(game),
        lambda: solver.Answers.of(game),
    ):
        with pytest.raises(NotOffered):
            ask()
    # the standard game of the same deal is answered as ever, the same from its code and its game
    plain = "TP1-C-AAAAAAB"
    assert solver.is_winnable(plain) == solver.solve(Game.new(plain)).winnable
