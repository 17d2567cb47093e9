"""The probes and the metrics' access rule through the ASGI application (in process)."""

from __future__ import annotations

import json

import pytest
from asgiref.testing import ApplicationCommunicator

from ops import health, metrics


async def _get(path: str, *, method: str = "GET", client: str = "127.0.0.1", headers=()):
    from config.asgi import application

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1:8001"), *headers],
        "client": (client, 50000),
        "server": ("127.0.0.1", 8001),
    }
    app = ApplicationCommunicator(application, scope)
    await app.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await app.receive_output(timeout=10)
    body = await app.receive_output(timeout=10)
    return start["status"], body["body"]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_draining_process_is_alive_but_not_ready(monkeypatch):
    """While it stops (SIGTERM received), /readyz answers 503 "draining"; /healthz stays 200."""
    status, body = await _get("/readyz")
    assert status == 200 and json.loads(body)["ready"] is True
    monkeypatch.setattr(health, "_draining", True)
    status, body = await _get("/readyz")
    assert status == 503 and json.loads(body) == {"ready": False, "checks": {"draining": "yes"}}
    status, body = await _get("/healthz")
    assert status == 200 and json.loads(body) == {"status": "ok", "draining": True}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_metrics_are_for_loopback_only_and_probes_refuse_other_methods(monkeypatch):
    """No token set: loopback (IPv4 or IPv6) reads the metrics, any other client address is
    403; a POST to a probe is 405."""
    monkeypatch.delenv(metrics.TOKEN_ENV, raising=False)
    status, body = await _get("/metrics")
    assert status == 200 and b"leyou_platform_up 1.0" in body
    assert (await _get("/metrics", client="203.0.113.9"))[0] == 403
    assert (await _get("/metrics", client="::1"))[0] == 200
    assert (await _get("/readyz", method="POST"))[0] == 405


def test_the_access_rule_reads_the_token_when_there_is_one(monkeypatch):
    """With LEYOU_METRICS_TOKEN the token decides, from any address (loopback needs it too);
    without, loopback only, and an unreadable address is refused."""
    monkeypatch.setenv(metrics.TOKEN_ENV, "t0ken")
    assert metrics.metrics_allowed("203.0.113.9", "Bearer t0ken")
    assert not metrics.metrics_allowed("127.0.0.1", None)
    assert not metrics.metrics_allowed("127.0.0.1", "Bearer t0ke")
    monkeypatch.delenv(metrics.TOKEN_ENV)
    assert metrics.metrics_allowed("127.0.0.1", None)
    assert not metrics.metrics_allowed("not-an-address", None)
    assert not metrics.metrics_allowed(None, None)


def test_socket_kinds_keep_the_label_set_small():
    """A socket's path gives one of three kinds or "other", never an id (a label per table
    would grow without end)."""
    assert metrics.socket_kind("/ws/table/12/") == "table"
    assert metrics.socket_kind("/ws/lobby/") == "lobby"
    assert metrics.socket_kind("/ws/wheel/3/") == "wheel"
    assert metrics.socket_kind("/ws/anything-else/") == "other"
    assert metrics.socket_kind("/") == "other"
