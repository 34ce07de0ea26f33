"""What differs between the local app and a hosted server, in one value the app is made with.

``tripeaks`` on a player's own machine keeps the defaults: no metrics, no access log, no rate
limits (its one player is not a flood, and the benchmarks drive it as fast as they can).
``tripeaks serve`` for many players (docs/deploy.md) turns them on.

Also what a server process needs besides its app: the environment ``tripeaks serve --workers N``
hands its worker processes (each makes its own app, app.from_environment), and the garbage
collector's settings every serving process takes before its first request.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field

from tripeaks.daily import RANKED_PER_ADDRESS

PRIVATE_NETWORKS: tuple[str, ...] = (
    "127.0.0.0/8",
    "::1/128",
    "10.0.0.0/8",
    "172.16.0.0/12",
    "192.168.0.0/16",
    "fc00::/7",
)
"""Where ``/metrics`` may be read from by default: loopback and private networks, where a
Prometheus runs. Behind a container bridge every client looks private, so the networks alone open
nothing: a scrape also needs the operator's token (``Hosting.metrics_token``)."""
TOKEN_LENGTH = 16
"""Characters a metrics token has at least: guessing one must be hopeless."""


@dataclass(frozen=True, slots=True)
class Hosting:
    """The app's hosted-server settings (docs/deploy.md)."""

    hosted: bool = False
    """Serving many players (serve.is_hosted): loopback clients are limited by address too."""
    metrics: bool = False
    """Serve ``/metrics`` and count every request (a little CPU each)."""
    metrics_allow: tuple[str, ...] = PRIVATE_NETWORKS
    """Client networks ``/metrics`` answers; others get 403 (the proxy should not pass it on)."""
    metrics_token: str | None = None
    """The bearer token a scrape must carry (``Authorization: Bearer ...``); None: /metrics is
    closed to everyone (403), whatever the network."""
    access_log: bool = False
    """One JSON line per request on stderr."""
    rates: Mapping[str, str] = field(default_factory=dict)
    """Rate limits by name (ratelimit.DEFAULT_RATES); none at all when empty."""
    ranked_per_address: int = RANKED_PER_ADDRESS
    """Ranked attempts at one day's deal from one client network (daily.RANKED_PER_ADDRESS)."""

    def to_json(self) -> str:
        """The settings as text, for worker processes that make their own app (--workers)."""
        return json.dumps({**asdict(self), "rates": dict(self.rates)})

    @classmethod
    def from_json(cls, text: str) -> Hosting:
        found = json.loads(text)
        return cls(
            hosted=bool(found["hosted"]),
            metrics=bool(found["metrics"]),
            metrics_allow=tuple(found["metrics_allow"]),
            metrics_token=found["metrics_token"],
            access_log=bool(found["access_log"]),
            rates=dict(found["rates"]),
            ranked_per_address=int(found["ranked_per_address"]),
        )


DB_VARIABLE = "TRIPEAKS_DB"
"""The database of every worker process (also ``--db``'s default, cli/serve.py ENVIRONMENT)."""
HOSTS_VARIABLE = "TRIPEAKS_SERVED_HOSTS"
"""How ``--workers`` hands the host names to its worker processes (app.from_environment)."""
HOSTING_VARIABLE = "TRIPEAKS_SERVED_HOSTING"
"""... and the hosted settings (metrics, access log, rate limits), as Hosting.to_json."""


def to_workers(db: str, hosts: Sequence[str], hosting: Hosting) -> dict[str, str]:
    """The environment that tells each worker process which app to make (:func:`from_workers`)."""
    return {DB_VARIABLE: db, HOSTS_VARIABLE: ",".join(hosts), HOSTING_VARIABLE: hosting.to_json()}


def from_workers(environ: Mapping[str, str]) -> tuple[str, list[str], Hosting | None]:
    """The database, the host names (none: the defaults) and the hosted settings (None: the
    local app's) of a worker process, from its environment (:func:`to_workers`)."""
    hosts = [name for name in environ.get(HOSTS_VARIABLE, "").split(",") if name]
    settings = environ.get(HOSTING_VARIABLE)
    return environ[DB_VARIABLE], hosts, Hosting.from_json(settings) if settings else None


GC_THRESHOLDS = (10_000, 10, 100)
"""Python's default (700, 10, 10) runs a young collection every 700 new objects, ~25 times a
second under load, and a full one every few seconds as cached games pile up (tens of ms each)."""
SWITCH_INTERVAL = 0.0005
"""Seconds a busy thread may hold the GIL while another wants it (Python's default is 0.005).

The commit thread hands the GIL back and forth around every SQLite call; with the default, each
hand-off can wait 5 ms for a busy event loop, and a commit makes several.
"""


def settle_the_heap() -> None:
    """Load what every request needs, then keep the garbage collector off it for good.

    The app's own objects (FastAPI, pydantic, the catalogs) are some 60,000; a full collection
    walks them all and holds the GIL for tens of milliseconds, stalling every request and the
    commit thread. Frozen, they are never walked again; only request-made objects are, and
    less often (GC_THRESHOLDS).
    """
    import gc
    import sys

    from tripeaks.i18n import LANGUAGES, translator

    for lang in LANGUAGES:
        translator(lang)
    sys.setswitchinterval(SWITCH_INTERVAL)
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
