"""Prometheus metrics of this process and of the platform (prometheus_client).

Two kinds:
- this process's own: open WebSockets by kind, the players' actions and their latency,
  HTTP requests by view (django-prometheus), CPU, memory and file descriptors (the client's
  process collector);
- the platform's, read from the database when scraped (at most once per
  ``PLATFORM_CACHE_SECONDS`` per process): live tables, presence leases (fresh and stale),
  the clock's lag on due work, the settlement backlog (depth and age) and the broker's queue,
  and the ledger's totals. Every process reports the same values: alert on any one.

Daphne serves them at ``/metrics`` (``ops.endpoints``); the clock and the worker serve them on
``LEYOU_METRICS_PORT`` (``serve``). Who may read them: ``metrics_allowed``.
"""

from __future__ import annotations

import functools
import hmac
import ipaddress
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any, TypeVar

from prometheus_client import REGISTRY, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

logger = logging.getLogger("leyou.ops")

PLATFORM_CACHE_SECONDS = 5.0
TOKEN_ENV = "LEYOU_METRICS_TOKEN"

SOCKETS = Gauge("leyou_sockets_open", "WebSockets this process holds open, by kind.", ["kind"])
ACTIONS = Counter(
    "leyou_actions_total",
    "Players' actions handled by this process, by kind and outcome (ok or the refusal's code).",
    ["kind", "outcome"],
)
ACTION_SECONDS = Histogram(
    "leyou_action_seconds",
    "Time a player's action takes in its service call (lock, engine, write), by kind.",
    ["kind"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
SOCKET_KINDS = {"table", "lobby", "wheel"}

F = TypeVar("F", bound=Callable[..., Any])


def socket_kind(path: str) -> str:
    """``/ws/table/7/`` → "table"; any other socket path → its first word, or "other"."""
    parts = [p for p in path.split("/") if p]
    kind = parts[1] if len(parts) > 1 and parts[0] == "ws" else "other"
    return kind if kind in SOCKET_KINDS else "other"


@contextmanager
def socket_open(path: str) -> Iterator[None]:
    """Count a WebSocket as open while its ASGI application runs."""
    gauge = SOCKETS.labels(socket_kind(path))
    gauge.inc()
    try:
        yield
    finally:
        gauge.dec()


def timed(kind: str, service: F) -> F:
    """The service call, counted and timed as an action of this kind (its outcome: "ok" or
    the code of the refusal it raised)."""

    @functools.wraps(service)
    def call(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        outcome = "error"
        try:
            result = service(*args, **kwargs)
            outcome = "ok"
            return result
        except Exception as error:
            code = getattr(error, "code", None)
            outcome = code if isinstance(code, str) and code.isidentifier() else "error"
            raise
        finally:
            ACTION_SECONDS.labels(kind).observe(time.perf_counter() - started)
            ACTIONS.labels(kind, outcome).inc()

    return call  # type: ignore[return-value]


def _account_group(code: str | None) -> str:
    """A system account's family (``pot:12`` → "pot"), so the label set stays small."""
    return (code or "unknown").split(":", 1)[0]


def platform_read() -> dict[str, Any]:
    """The platform's figures, from the database (and the broker, when it is Redis)."""
    from django.conf import settings
    from django.db.models import Count, Min, Q, Sum
    from django.utils import timezone

    from games.models import Hand, Seat, SeatLease, Table
    from ledger.models import Account

    now = timezone.now()
    lease_seconds = settings.LEYOU["PRESENCE_LEASE_SECONDS"]
    stale_before = now - timedelta(seconds=lease_seconds)
    leases = SeatLease.objects.aggregate(
        total=Count("pk"), stale=Count("pk", filter=Q(renewed_at__lt=stale_before))
    )
    tables = dict(
        Table.objects.exclude(status=Table.Status.CLOSED)
        .values_list("status")
        .annotate(n=Count("pk"))
        .values_list("status", "n")
    )
    due = [
        Seat.objects.filter(deadline__lte=now).aggregate(m=Min("deadline"))["m"],
        Table.objects.filter(fill_deadline__lte=now).aggregate(m=Min("fill_deadline"))["m"],
        Table.objects.filter(next_hand_at__lte=now).aggregate(m=Min("next_hand_at"))["m"],
    ]
    oldest_due = min((d for d in due if d is not None), default=None)
    backlog = (
        Hand.objects.filter(settled_at__isnull=True)
        .exclude(status=Hand.Status.PLAYING)
        .aggregate(n=Count("pk"), oldest=Min("finished_at"))
    )
    players = Account.objects.filter(kind=Account.Kind.PLAYER).aggregate(
        beans=Sum("balance"), n=Count("pk")
    )
    system: dict[str, int] = {}
    for code, balance in Account.objects.filter(kind=Account.Kind.SYSTEM).values_list(
        "code", "balance"
    ):
        group = _account_group(code)
        system[group] = system.get(group, 0) + int(balance)
    return {
        "leases": int(leases["total"]),
        "leases_stale": int(leases["stale"]),
        "tables": {str(k): int(v) for k, v in tables.items()},
        "clock_lag_seconds": (now - oldest_due).total_seconds() if oldest_due else 0.0,
        "settlement_backlog": int(backlog["n"]),
        "settlement_oldest_seconds": (
            (now - backlog["oldest"]).total_seconds() if backlog["oldest"] else 0.0
        ),
        "broker_queue": _broker_queue_length(),
        "player_beans": int(players["beans"] or 0),
        "player_accounts": int(players["n"]),
        "system_beans": system,
    }


def _broker_queue_length() -> int | None:
    """Messages waiting in the Celery queue (Redis broker), or None when it cannot be read."""
    from django.conf import settings

    url = getattr(settings, "CELERY_BROKER_URL", "") or ""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return None
    import redis

    queue = getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", None) or "celery"
    client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
    try:
        return int(client.llen(queue))  # type: ignore[arg-type]
    except redis.RedisError:
        return None
    finally:
        client.close()


class PlatformCollector(Collector):
    """The platform's gauges, read at scrape time (cached briefly, so many scrapers of many
    processes cost the database little). A failed read reports ``leyou_platform_up 0``."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._read_at = -1e9
        self._figures: dict[str, Any] | None = None

    def _figures_now(self) -> dict[str, Any] | None:
        with self._lock:
            if time.monotonic() - self._read_at >= PLATFORM_CACHE_SECONDS:
                try:
                    self._figures = platform_read()
                except Exception:
                    logger.warning("ops: reading the platform's figures failed", exc_info=True)
                    self._figures = None
                finally:
                    from django.db import connection

                    connection.close_if_unusable_or_obsolete()
                self._read_at = time.monotonic()
            return self._figures

    def collect(self) -> Iterator[Metric]:
        figures = self._figures_now()
        yield GaugeMetricFamily(
            "leyou_platform_up",
            "1 if the platform's figures below were read from the database, else 0.",
            value=0 if figures is None else 1,
        )
        if figures is None:
            return
        tables = GaugeMetricFamily(
            "leyou_tables",
            "Tables not closed, by status (playing: a hand is live).",
            labels=["status"],
        )
        for status in ("waiting", "playing"):
            tables.add_metric([status], figures["tables"].get(status, 0))
        yield tables
        leases = GaugeMetricFamily(
            "leyou_presence_leases",
            "Presence leases (one per open table socket), fresh or stale (not renewed in time).",
            labels=["state"],
        )
        leases.add_metric(["fresh"], figures["leases"] - figures["leases_stale"])
        leases.add_metric(["stale"], figures["leases_stale"])
        yield leases
        yield GaugeMetricFamily(
            "leyou_clock_lag_seconds",
            "How long the oldest due turn clock, bot fill or next deal has waited for the clock.",
            value=figures["clock_lag_seconds"],
        )
        yield GaugeMetricFamily(
            "leyou_settlement_backlog_hands",
            "Finished hands not yet settled.",
            value=figures["settlement_backlog"],
        )
        yield GaugeMetricFamily(
            "leyou_settlement_oldest_seconds",
            "Age of the oldest finished hand not yet settled (0: none waits).",
            value=figures["settlement_oldest_seconds"],
        )
        if figures["broker_queue"] is not None:
            yield GaugeMetricFamily(
                "leyou_broker_queue_messages",
                "Tasks waiting in the Celery queue (settlements and their re-sends).",
                value=figures["broker_queue"],
            )
        yield GaugeMetricFamily(
            "leyou_player_accounts", "Players' bean accounts.", value=figures["player_accounts"]
        )
        beans = GaugeMetricFamily(
            "leyou_ledger_beans",
            "Beans held, by account family; they sum to 0 (the mint is negative).",
            labels=["account"],
        )
        beans.add_metric(["players"], figures["player_beans"])
        for group, value in sorted(figures["system_beans"].items()):
            beans.add_metric([group], value)
        yield beans
        yield GaugeMetricFamily(
            "leyou_ledger_total_beans",
            "The sum of every balance: anything but 0 is drift (run ledger_verify).",
            value=figures["player_beans"] + sum(figures["system_beans"].values()),
        )


_platform: PlatformCollector | None = None
_register_lock = threading.Lock()


def platform_register() -> None:
    """Register the platform's collector in the default registry, once per process."""
    global _platform
    with _register_lock:
        if _platform is None:
            _platform = PlatformCollector()
            REGISTRY.register(_platform)


def exposition() -> bytes:
    """Every metric of this process in Prometheus' text format (reads the database)."""
    platform_register()
    return generate_latest(REGISTRY)


def metrics_allowed(client_host: str | None, authorization: str | None) -> bool:
    """With ``LEYOU_METRICS_TOKEN`` set, the bearer of that token; without, loopback only
    (the address Daphne takes from nginx's X-Forwarded-For behind it: the player's, never
    loopback for a player elsewhere)."""
    token = os.environ.get(TOKEN_ENV, "")
    if token:
        given = (authorization or "").removeprefix("Bearer ").strip()
        return hmac.compare_digest(given.encode(), token.encode())
    try:
        return client_host is not None and ipaddress.ip_address(client_host).is_loopback
    except ValueError:
        return False


def serve(role: str) -> None:
    """For a process without an HTTP server (the clock, the worker): serve ``/metrics`` and
    ``/healthz`` on ``LEYOU_METRICS_PORT`` (nothing when unset), on ``LEYOU_METRICS_BIND``
    (loopback by default), in a daemon thread, with the same rule of access as Daphne's."""
    port = os.environ.get("LEYOU_METRICS_PORT")
    if not port:
        return
    from socketserver import ThreadingMixIn
    from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

    class Server(ThreadingMixIn, WSGIServer):
        daemon_threads = True

    class QuietHandler(WSGIRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        if environ.get("PATH_INFO") == "/healthz":  # liveness, as Daphne's
            start_response("200 OK", [("Content-Type", "application/json")])
            return [b'{"status": "ok"}\n']
        if environ.get("PATH_INFO") != "/metrics":
            start_response("404 Not Found", [("Content-Type", "text/plain")])
            return [b"not found\n"]
        if not metrics_allowed(environ.get("REMOTE_ADDR"), environ.get("HTTP_AUTHORIZATION")):
            start_response("403 Forbidden", [("Content-Type", "text/plain")])
            return [b"forbidden\n"]
        start_response("200 OK", [("Content-Type", CONTENT_TYPE)])
        return [exposition()]

    bind = os.environ.get("LEYOU_METRICS_BIND", "127.0.0.1")
    server = make_server(bind, int(port), app, server_class=Server, handler_class=QuietHandler)
    thread = threading.Thread(
        target=server.serve_forever, name=f"leyou-metrics-{role}", daemon=True
    )
    thread.start()
    logger.info("ops: %s metrics on http://%s:%s/metrics", role, bind, port)


CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
