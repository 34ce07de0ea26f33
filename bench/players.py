"""How the simulated players choose their next action: one policy for bench/load.py and locust.

Plain Python with no imports beyond the standard library, so bench/locustfile.py can use it on a
machine that has only locust.
"""

from __future__ import annotations

import random
from typing import Any

LANGUAGES = ("en", "fi", "ca")


def choose(state: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]]:
    """Now and then an undo or a card that may not fit; else a fitting card, else a draw."""
    body: dict[str, Any] = {"version": state["version"]}
    roll = rng.random()
    if roll < 0.08 and state["can_undo"]:
        return "undo", body
    if roll < 0.12:
        return "play", {**body, "pos": rng.randrange(28)}
    if state["playable"]:  # which cards fit is the server's word, as for the page
        return "play", {**body, "pos": rng.choice(state["playable"])}
    if state["stock_size"]:
        return "draw", body
    return "undo", body
