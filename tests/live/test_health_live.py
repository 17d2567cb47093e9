"""Health probes and metrics of real processes: Daphne as its unit runs it, the clock's server.

A Daphne process answers ``/healthz`` (alive) and ``/readyz`` (database and channel layer
reachable, not stopping); with its channel layer (Redis) unreachable it stays alive but is not
ready. ``/metrics`` is Prometheus' text format, for loopback only or for the bearer of
``LEYOU_METRICS_TOKEN``, and counts what the process holds (sockets) and what the platform has
(tables, leases, the ledger's totals).
"""

from __future__ import annotations

import json
import re
import signal
import time
import urllib.error
import urllib.request

import pytest

from lobby import services as lobby_services
from ops import probe
from tests.live.conftest import free_port, login_cookie, recv_json, ws_connect

pytestmark = pytest.mark.live


def fetch(port: int, path: str, headers: dict | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def metric(text: str, name: str, labels: str = "") -> float | None:
    """The value of one sample (``name{labels}``) in an exposition, or None."""
    pattern = re.escape(name) + (r"\{" + re.escape(labels) + r"\}" if labels else "") + r" (\S+)"
    found = re.search(r"^" + pattern + r"$", text, re.M)
    return float(found[1]) if found else None


def test_a_daphne_is_alive_and_ready_and_its_metrics_count_sockets_and_the_platform(
    servers, room, make_user
):
    """/healthz and /readyz answer 200 (each check ok); /metrics from loopback counts the two
    open table sockets, their fresh leases, the playing table, a refused move, and a ledger
    that sums to 0; a stranger's address (through nginx it is the player's) is refused."""
    port = servers.daphne("a", args=("--proxy-headers",))
    status, body = fetch(port, "/healthz")
    assert status == 200 and json.loads(body) == {"status": "ok", "draining": False}
    status, body = fetch(port, "/readyz")
    assert status == 200, body
    assert json.loads(body) == {
        "ready": True,
        "checks": {"database": "ok", "channel_layer": "ok"},
    }
    assert fetch(port, "/readyz", {"Host": "not-allowed.example"})[0] == 200  # before Django
    assert probe.main([str(port)]) == 0  # the unit's ExecStartPost: ready, exit 0

    users = [make_user(beans=5000) for _ in range(3)]
    table = None
    for user in users:
        table = lobby_services.quick_join(user=user, room_id=room.pk)
    sockets = [ws_connect(port, table.pk, login_cookie(user)) for user in users[:2]]
    frames = [recv_json(ws) for ws in sockets]
    # a move against a stale seq: refused, still an action counted with its outcome
    sockets[0].send(
        json.dumps({"kind": "move", "action": {"type": "pass"}, "seq": 0, "action_id": "x1"})
    )
    reply = recv_json(sockets[0])
    while reply["type"] != "error":  # pushes of the other socket's arrival come first
        reply = recv_json(sockets[0])
    deadline = time.time() + 10
    while True:
        status, body = fetch(port, "/metrics")
        text = body.decode()
        if metric(text, "leyou_presence_leases", 'state="fresh"') == 2 or time.time() > deadline:
            break
        time.sleep(0.5)
    assert status == 200
    assert metric(text, "leyou_sockets_open", 'kind="table"') == 2
    assert metric(text, "leyou_presence_leases", 'state="fresh"') == 2
    assert metric(text, "leyou_presence_leases", 'state="stale"') == 0
    assert metric(text, "leyou_tables", 'status="playing"') == 1
    assert metric(text, "leyou_platform_up") == 1
    assert metric(text, "leyou_ledger_total_beans") == 0
    assert metric(text, "leyou_ledger_beans", 'account="players"') == 15000
    assert metric(text, "leyou_settlement_backlog_hands") == 0
    assert metric(text, "leyou_clock_lag_seconds") is not None
    moves = sum(
        float(v)
        for v in re.findall(r'^leyou_actions_total\{kind="move",[^}]*\} (\S+)$', text, re.M)
    )
    assert moves == 1, text
    assert metric(text, "leyou_action_seconds_count", 'kind="move"') == 1
    assert "django_http_requests_total_by_view_transport_method_total" in text or (
        "django_http_requests" in text
    )
    assert frames[0]["seq"] >= 0
    # through nginx Daphne takes the client from X-Forwarded-For: a player is no loopback
    status, _ = fetch(port, "/metrics", {"X-Forwarded-For": "203.0.113.9"})
    assert status == 403
    for ws in sockets:
        ws.close()


def test_metrics_with_a_token_need_the_token_even_from_loopback(servers, monkeypatch):
    """LEYOU_METRICS_TOKEN set: no token or a wrong one is 403, the bearer gets the metrics."""
    monkeypatch.setenv("LEYOU_METRICS_TOKEN", "s3cret-token")
    port = servers.daphne("a")
    assert fetch(port, "/metrics")[0] == 403
    assert fetch(port, "/metrics", {"Authorization": "Bearer wrong"})[0] == 403
    status, body = fetch(port, "/metrics", {"Authorization": "Bearer s3cret-token"})
    assert status == 200 and b"leyou_platform_up 1.0" in body
    assert fetch(port, "/healthz")[0] == 200  # the probes need no token


def test_a_daphne_without_its_channel_layer_is_alive_but_not_ready(servers, monkeypatch):
    """Redis unreachable (a port nothing listens on): /healthz 200, /readyz 503 naming the
    channel layer; the database check still passes."""
    monkeypatch.setenv("REDIS_URL", f"redis://127.0.0.1:{free_port()}/0")
    port = servers.daphne("a")
    assert fetch(port, "/healthz")[0] == 200
    status, body = fetch(port, "/readyz")
    answer = json.loads(body)
    assert status == 503 and answer["ready"] is False, answer
    assert answer["checks"]["database"] == "ok"
    assert answer["checks"]["channel_layer"] != "ok"
    assert probe.main([str(port), "--timeout", "1"]) == 1  # the unit would not start


def test_sigterm_drains_first_the_port_refuses_before_the_process_exits(servers, room, make_user):
    """On SIGTERM the process stops listening before it closes its sockets for reconnection:
    a connect made right after the close frame is refused (the proxy then tries the next
    process) — it never lands on the process that is about to exit."""
    import socket

    port = servers.daphne("a", args=("--proxy-headers",))
    users = [make_user(beans=5000) for _ in range(3)]
    table = None
    for user in users:
        table = lobby_services.quick_join(user=user, room_id=room.pk)
    ws = ws_connect(port, table.pk, login_cookie(users[0]))
    recv_json(ws)
    process = servers.procs["a"]
    process.send_signal(signal.SIGTERM)
    from websockets.exceptions import ConnectionClosed

    with pytest.raises(ConnectionClosed) as closed:
        while True:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
    probe = socket.socket()
    probe.settimeout(2)
    try:
        assert probe.connect_ex(("127.0.0.1", port)) != 0  # refused: no longer listening
    finally:
        probe.close()
    process.wait(timeout=15)
    servers.procs.pop("a")


def test_the_clock_serves_its_metrics_on_its_own_port(servers):
    """``runclock`` with LEYOU_METRICS_PORT: /metrics on loopback with the platform's gauges."""
    import subprocess
    import sys

    from tests.live.conftest import ROOT, _child_env, _log, _wait_port

    port = free_port()
    servers.procs["clock"] = subprocess.Popen(
        [sys.executable, "manage.py", "runclock", "--interval", "0.2"],
        cwd=ROOT,
        env=_child_env({"LEYOU_METRICS_PORT": str(port)}),
        stdout=subprocess.DEVNULL,
        stderr=_log("runclock"),
    )
    _wait_port(port)
    status, body = fetch(port, "/metrics")
    assert status == 200 and b"leyou_platform_up 1.0" in body
    assert b"process_cpu_seconds_total" in body
    assert fetch(port, "/healthz")[0] == 200
    assert fetch(port, "/other")[0] == 404
