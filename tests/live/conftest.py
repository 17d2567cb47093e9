"""Real server processes for live tests: Daphne (one or more), the clock, Celery when asked.

The processes share the test database (PostgreSQL when DATABASE_URL is set) and the channel
layer (Redis when REDIS_URL is set), exactly as a scaled-out deployment does.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from contextlib import closing
from urllib.parse import urlparse, urlunparse

import pytest
from django.conf import settings
from django.db import connection

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.dirname(sys.executable)


def _log(name: str):
    """Server output goes to var/live-<name>.log, to read when a live test fails."""
    os.makedirs(os.path.join(ROOT, "var"), exist_ok=True)
    return open(os.path.join(ROOT, "var", f"live-{name}.log"), "ab")


def free_port() -> int:
    with closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _child_env(extra: dict | None = None) -> dict:
    env = dict(os.environ)
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("postgresql"):
        url = urlparse(os.environ["DATABASE_URL"])
        env["DATABASE_URL"] = urlunparse(url._replace(path="/" + db["NAME"]))
    else:
        env.pop("DATABASE_URL", None)
    env.update(extra or {})
    return env


def _wait_port(port: int, timeout: float = 30) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        with closing(socket.socket()) as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"server on {port} did not start")


class Servers:
    """Start, kill and restart server processes for one test."""

    def __init__(self) -> None:
        self.procs: dict[str, subprocess.Popen] = {}
        self.ports: dict[str, int] = {}

    def daphne(
        self,
        name: str = "web",
        port: int | None = None,
        *,
        embedded: bool = False,
        args: tuple[str, ...] = (),
    ) -> int:
        """A Daphne process; ``embedded``: the in-memory layer with the clock inside it;
        ``args``: more Daphne options (e.g. ``--proxy-headers`` behind nginx)."""
        port = port or self.ports.get(name) or free_port()
        self.ports[name] = port
        env = _child_env({"LEYOU_CLOCK_IN_SERVER": "1"} if embedded else None)
        if embedded:
            env.pop("REDIS_URL", None)
        self.procs[name] = subprocess.Popen(
            [
                os.path.join(BIN, "daphne"),
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                *args,
                "config.asgi:application",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=_log(name),
        )
        _wait_port(port)
        return port

    def clock(self) -> None:
        self.procs["clock"] = subprocess.Popen(
            [sys.executable, "manage.py", "runclock", "--interval", "0.1"],
            cwd=ROOT,
            env=_child_env(),
            stdout=subprocess.DEVNULL,
            stderr=_log("runclock"),
        )

    def worker(self, name: str = "worker") -> None:
        self.procs[name] = subprocess.Popen(
            [
                os.path.join(BIN, "celery"),
                "-A",
                "config",
                "worker",
                "--pool=solo",
                "--loglevel=WARNING",
                "--without-gossip",
                "--without-mingle",
            ],
            cwd=ROOT,
            env=_child_env({"CELERY_TASK_ALWAYS_EAGER": "0"}),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        proc = self.procs.pop(name)
        proc.send_signal(sig)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)

    def stop_all(self) -> None:
        for name in list(self.procs):
            self.kill(name, signal.SIGTERM if name != "clock" else signal.SIGKILL)


class PrivateRedis:
    """A redis-server of the test's own, on a free port, with no persistence: restarted, it
    comes back empty (as a Redis without its data does); the shared one is never touched."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_port(self.port, timeout=10)

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=10)
            self.proc = None

    def client(self):
        import redis

        return redis.Redis.from_url(self.url, socket_timeout=5)


@pytest.fixture
def own_redis(monkeypatch):
    """A private Redis; the server processes started after this use it (REDIS_URL)."""
    import shutil

    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    redis = PrivateRedis()
    redis.start()
    monkeypatch.setenv("REDIS_URL", redis.url)
    yield redis
    redis.kill()


@pytest.fixture
def servers(transactional_db):
    s = Servers()
    yield s
    s.stop_all()
    connection.close()


def login_cookie(user) -> str:
    """A session cookie for the user, as the browser would have after logging in."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def ws_connect(
    port: int, table_id: int, cookie: str, *, fmt: str = "json", origin: str | None = None
):
    from websockets.sync.client import connect

    return connect(
        f"ws://127.0.0.1:{port}/ws/table/{table_id}/?format={fmt}",
        additional_headers={"Cookie": cookie, "Origin": origin or f"http://127.0.0.1:{port}"},
        open_timeout=10,
        max_size=2**22,
    )


def recv_json(ws, timeout: float = 10.0) -> dict:
    return json.loads(ws.recv(timeout=timeout))
