"""What differs between the local app and a hosted server, in one value the app is made with.

``tripeaks`` on a player's own machine keeps the defaults: no metrics, no access log, no rate
limits (its one player is not a flood, and the benchmarks drive it as fast as they can).
``tripeaks serve`` for many players (docs/deploy.md) turns them on.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
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
