"""``/healthz``, ``/readyz`` and ``/metrics``, answered by the ASGI application itself.

They sit in front of Django's middleware on purpose: a probe from the machine itself (systemd,
a rolling restart, Prometheus) names the process by ``127.0.0.1:<port>``, which is no allowed
host, speaks plain HTTP where production redirects to HTTPS, and carries no session. Behind
nginx they are not served to the public (the site refuses them to any address but its own).
"""

from __future__ import annotations

import json
from typing import Any

from ops import health, metrics

PATHS = frozenset({"/healthz", "/readyz", "/metrics"})


async def _answer(send: Any, status: int, body: bytes, content_type: str) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", content_type.encode()),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _json(send: Any, status: int, payload: dict[str, Any]) -> None:
    await _answer(send, status, json.dumps(payload).encode() + b"\n", "application/json")


async def handle(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Answer one of ``PATHS`` (GET or HEAD)."""
    if scope.get("method") not in ("GET", "HEAD"):
        await _json(send, 405, {"error": "method_not_allowed"})
        return
    path = scope["path"]
    if path == "/healthz":
        await _json(send, 200, {"status": "ok", "draining": health.draining()})
    elif path == "/readyz":
        ready, checks = await health.readiness()
        await _json(send, 200 if ready else 503, {"ready": ready, "checks": checks})
    else:
        headers = dict(scope.get("headers") or [])
        client = scope.get("client")
        authorization = headers.get(b"authorization", b"").decode("latin-1")
        if not metrics.metrics_allowed(client[0] if client else None, authorization):
            await _json(send, 403, {"error": "forbidden"})
            return
        from channels.db import database_sync_to_async

        body = await database_sync_to_async(
            metrics.exposition, thread_sensitive=False, executor=health._check_thread()
        )()
        await _answer(send, 200, body, metrics.CONTENT_TYPE)
