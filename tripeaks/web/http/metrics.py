"""Prometheus metrics of a hosted server at ``/metrics`` (docs/deploy.md, "Health and metrics").

Requests and their latency are counted by route template under the names
prometheus-fastapi-instrumentator uses (``http_requests_total``, ``http_request_duration_seconds``,
labels ``handler``, ``method``, ``status``), so dashboards made for it work; but by
:class:`RequestMetrics`, not by that library's middleware, which matches every request against
every route a second time and builds a Response object for it: it added a quarter to the CPU of a
small request (docs/deploy.md has the figures). The game's own counts (actions acknowledged, games
started and counted, requests refused by a rate limit) are counted where they happen, and the
solver's queue is read when Prometheus scrapes. Each app has its own registry, so two apps in one
process (the tests make many) count apart.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable
from ipaddress import ip_address, ip_network
from typing import Protocol

from fastapi import FastAPI
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from starlette.types import ASGIApp, Scope

from tripeaks.web.http.observe import AfterReply

LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25)
"""Seconds: an action is answered in a few ms; a hint may take the solver up to 20 s."""
ACTIONS = ("play", "draw", "undo", "redo")
RULES = ("easy", "classic")
OUTCOMES = ("won", "lost")
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
"""Methods counted by name; any other is ``other`` (a client must not mint new series)."""
UNCOUNTED = frozenset({"/metrics", "/healthz", "/readyz"})
"""The operator's own requests: a probe every few seconds would drown the players' figures."""


class SolverGauges(Protocol):
    """What the metrics read of the solver's queue when Prometheus scrapes (backend/solving.py's
    Solvers)."""

    @property
    def queued(self) -> int:
        """Searches sent to the worker and not answered yet (hints and verdicts)."""
        ...

    def verdicts_pending(self) -> int:
        """Deals waiting for their verdict now."""
        ...


class Meter:
    """The metrics of one app."""

    def __init__(
        self, solvers: SolverGauges, allow: Iterable[str], token: str | None = None
    ) -> None:
        self.registry = CollectorRegistry()
        self.allow = tuple(ip_network(net, strict=False) for net in allow)
        self._bearer = None if token is None else f"Bearer {token}".encode()
        labels = ["handler", "method", "status"]
        self._requests = Counter(
            "http_requests",
            "Total number of requests by method, status and handler.",
            labels,
            registry=self.registry,
        )
        self._latency = Histogram(
            "http_request_duration_seconds",
            "Duration of HTTP requests in seconds",
            labels,
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self._series: dict[tuple[str, str, int], tuple[Counter, Histogram]] = {}
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
        queued = Gauge(
            "tripeaks_solver_queued",
            "Searches (hints and verdicts) sent to the solver and not answered yet",
            registry=self.registry,
        )
        queued.set_function(lambda: solvers.queued)

    def install(self, app: FastAPI) -> None:
        """Count every request (outermost, so refusals by the other middleware count too)."""
        app.add_middleware(RequestMetrics, meter=self)

    def request(self, handler: str, method: str, status: int, seconds: float) -> None:
        """One request answered: counted, and its duration in the histogram."""
        key = (handler, method if method in METHODS else "other", status)
        series = self._series.get(key)
        if series is None:
            labels = (key[0], key[1], str(status))
            series = self._requests.labels(*labels), self._latency.labels(*labels)
            self._series[key] = series
        series[0].inc()
        series[1].observe(seconds)

    def opens_to(self, authorization: bytes | None) -> bool:
        """Whether a request with this ``Authorization`` header carries the operator's token
        (compared in constant time); never when no token was set."""
        if self._bearer is None or authorization is None:
            return False
        return hmac.compare_digest(authorization.strip(), self._bearer)

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


class RequestMetrics(AfterReply):
    """Time each request and count it by the route that answered it (``none`` when no route did)."""

    def __init__(self, app: ASGIApp, meter: Meter) -> None:
        super().__init__(app)
        self.meter = meter

    def finished(self, scope: Scope, status: int, seconds: float) -> None:
        route = scope.get("route")
        handler = getattr(route, "path_format", None) or "none"
        if handler not in UNCOUNTED:
            self.meter.request(handler, scope["method"], status, seconds)
