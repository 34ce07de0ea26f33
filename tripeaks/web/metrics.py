"""Prometheus metrics of a hosted server at ``/metrics`` (docs/deploy.md, "Health and metrics").

Requests and their latency by route template come from prometheus-fastapi-instrumentator; the
game's own counts (actions acknowledged, games started and counted, requests refused by a rate
limit) are counted where they happen, and the solver's queue is read when Prometheus scrapes. Each
app has its own registry, so two apps in one process (the tests make many) count apart.
"""

from __future__ import annotations

from collections.abc import Iterable
from ipaddress import ip_address, ip_network

from fastapi import FastAPI
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    generate_latest,
)
from prometheus_fastapi_instrumentator import Instrumentator
from prometheus_fastapi_instrumentator import metrics as standard

from tripeaks.web.solving import Solvers

LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25)
"""Seconds: an action is answered in a few ms; a hint may take the solver up to 20 s."""
ACTIONS = ("play", "draw", "undo")
RULES = ("easy", "classic")
OUTCOMES = ("won", "lost")


class Meter:
    """The metrics of one app."""

    def __init__(self, solvers: Solvers, allow: Iterable[str]) -> None:
        self.registry = CollectorRegistry()
        self.allow = tuple(ip_network(net, strict=False) for net in allow)
        self.instrumentator = Instrumentator(
            should_group_status_codes=False,
            excluded_handlers=["^/metrics$", "^/healthz$", "^/readyz$"],
            registry=self.registry,
        )
        self.instrumentator.add(
            standard.requests(registry=self.registry),
            standard.latency(registry=self.registry, buckets=LATENCY_BUCKETS),
        )
        made = Counter(
            "tripeaks_actions", "Actions acknowledged (durable)", ["kind"], registry=self.registry
        )
        self.actions = {kind: made.labels(kind) for kind in ACTIONS}
        started = Counter(
            "tripeaks_games_started", "New games stored", ["rules"], registry=self.registry
        )
        self.started = {rules: started.labels(rules) for rules in RULES}
        counted = Counter(
            "tripeaks_games_counted",
            "Games counted in players' statistics",
            ["outcome"],
            registry=self.registry,
        )
        self.counted = {outcome: counted.labels(outcome) for outcome in OUTCOMES}
        self.limited = Counter(
            "tripeaks_rate_limited",
            "Requests refused by a rate limit (429)",
            ["kind"],
            registry=self.registry,
        )
        self.hints_waiting = Gauge(
            "tripeaks_hints_waiting", "Hint requests waiting for the solver", registry=self.registry
        )
        pending = Gauge(
            "tripeaks_verdicts_pending",
            "Deals waiting for the solver's verdict",
            registry=self.registry,
        )
        pending.set_function(solvers.verdicts_pending)

    def install(self, app: FastAPI) -> None:
        """Count every request (the instrumentator's middleware, outermost)."""
        self.instrumentator.instrument(app)

    def allows(self, client: str | None) -> bool:
        """Whether a client at this address may read the metrics."""
        try:
            address = ip_address(client or "")
        except ValueError:
            return False
        if address.version == 6 and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        return any(address in net for net in self.allow)

    def exposition(self) -> tuple[bytes, str]:
        """The text Prometheus scrapes, and its content type."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST
