"""Load-test a real TriPeaks deployment from another machine with locust, playing as bench/load.py's
players do.

    pip install locust        # on the machine that sends the load; not a dependency of the app
    locust -f bench/locustfile.py --host https://games.example.org \\
        --headless --users 200 --spawn-rate 20 --run-time 5m --think-ms 100

Each locust user is one player with its own cookie: it starts a game, taps a card from the reply's
``playable`` (now and then an undo, or a card that may not fit), draws when none fits, thinks for
a random 0 to 2 × ``--think-ms`` between taps, and starts a new game when one is over. A refusal by
the rules (422 with the game's state) is part of play and counts as a success; anything else that
is not 2xx is a failure, with the server's reason. The requests are named by route
(``/api/games/[id]/play``), so locust's table has one line for each kind.

A hosted server rate-limits new games and new players per client address (docs/deploy.md, "Rate
limits"), and all of locust's users come from one address: start the server under test with
``--limit games_per_address=none --limit players_per_address=none`` (or send from several
machines), else many new games are answered 429, which counts as a failure here, and the user waits
the ``Retry-After`` it was given.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from locust import FastHttpUser, events, task

sys.path.insert(0, str(Path(__file__).resolve().parent))
from players import LANGUAGES, choose


@events.init_command_line_parser.add_listener
def _options(parser: Any) -> None:
    parser.add_argument(
        "--think-ms",
        type=float,
        default=100.0,
        include_in_web_ui=True,
        help="mean pause between a player's taps, ms (uniform 0 to twice this); 0 for none",
    )


class Player(FastHttpUser):
    """One player: its own cookie, one game at a time."""

    def on_start(self) -> None:
        self.rng = random.Random()
        self.lang = self.rng.choice(LANGUAGES)
        self.state: dict[str, Any] | None = None
        self.pause = 0.0  # a Retry-After to honour before the next request

    def wait_time(self) -> float:
        options = self.environment.parsed_options
        think = (options.think_ms if options is not None else 100.0) / 1000
        pause, self.pause = self.pause, 0.0
        return max(pause, self.rng.uniform(0, 2 * think))

    @task
    def turn(self) -> None:
        if self.state is None or self.state["status"] != "playing":
            self.new_game()
        else:
            self.act()

    def new_game(self) -> None:
        with self.client.post(
            f"/api/games?lang={self.lang}", json={}, name="/api/games", catch_response=True
        ) as reply:
            if reply.status_code == 201:
                self.state = reply.json()
                reply.success()
            else:
                self.failed(reply)

    def act(self) -> None:
        assert self.state is not None
        kind, body = choose(self.state, self.rng)
        with self.client.post(
            f"/api/games/{self.state['id']}/{kind}?lang={self.lang}",
            json=body,
            name=f"/api/games/[id]/{kind}",
            catch_response=True,
        ) as reply:
            if reply.status_code == 200:
                self.state = reply.json()
                reply.success()
            elif reply.status_code == 422 and (refused := _body(reply)).get("state"):
                self.state = refused["state"]  # refused by the rules: part of play
                reply.success()
            else:
                self.failed(reply)
                self.state = None

    def failed(self, reply: Any) -> None:
        """A failure in locust's table, with the server's reason; waits any Retry-After."""
        reason = (_body(reply).get("error") or {}).get("reason", "")
        reply.failure(f"{reply.status_code} {reason}".strip())
        retry = (reply.headers or {}).get("Retry-After")
        if retry and retry.isdigit():
            self.pause = float(retry)


def _body(reply: Any) -> dict[str, Any]:
    try:
        found = reply.json()
    except Exception:  # no JSON (a proxy's error page, a lost connection)
        return {}
    return found if isinstance(found, dict) else {}
