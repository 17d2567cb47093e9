"""The production set-up, run: nginx (Debian's) in front of two Daphne processes, worker, clock.

nginx runs in the foreground with its own prefix and configuration in a temporary directory, on
free ports, from ``deploy/nginx/leyou.conf.template`` rendered by ``deploy/render_nginx.py`` —
the same file and tool an operator uses (docs/operations.md). The Daphne processes run with the
options of ``leyou-daphne@.service`` (``--proxy-headers``), plus an access log to see which
process served what and for which client address; the worker and the clock run the commands of
``leyou-worker.service`` and ``leyou-clock.service``.
"""

from __future__ import annotations

import grp
import gzip
import http.client
import json
import os
import pwd
import re
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest

from games.engine import registry
from games.models import Hand, Table
from ledger.selectors import ledger_drift
from lobby import services as lobby_services
from tests.live.conftest import ROOT, _child_env, _log, _wait_port, free_port, login_cookie
from tests.live.test_live_table import PACE, choose, state_at

RENDER = Path(ROOT) / "deploy" / "render_nginx.py"
CLIENT_ADDRESS = "127.0.0.2"  # the players' machine: a loopback address that is not nginx's own
FORGED = "203.0.113.9"  # what a client writes into X-Forwarded-For itself
# the rolling restart's pause after a process is ready: the pages' fail_timeout (docs/operations.md)
ROLLING_PAUSE = 2.0


def nginx_binary() -> str:
    found = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if found is None:
        pytest.fail("nginx is not installed (scripts/test.sh installs Debian's package)")
    return found


class Nginx:
    """nginx as a foreground process with its own prefix, proxying to the given Daphne ports."""

    def __init__(
        self, prefix: Path, static_root: Path, daphne_ports: list[int], *, tls: bool = False
    ) -> None:
        self.prefix, self.port = prefix, free_port()
        prefix.mkdir(parents=True, exist_ok=True)
        (prefix / "logs").mkdir(exist_ok=True)
        site = prefix / "leyou.conf"
        tls_options: list[str] = []
        self.tls_port = None
        if tls:  # a self-signed certificate, as a real one would be installed
            self.tls_port = free_port()
            cert, key = prefix / "cert.pem", prefix / "key.pem"
            subprocess.run(
                [
                    "openssl",
                    "req",
                    "-x509",
                    "-newkey",
                    "rsa:2048",
                    "-nodes",
                    "-subj",
                    "/CN=127.0.0.1",
                    "-days",
                    "1",
                    "-keyout",
                    str(key),
                    "-out",
                    str(cert),
                ],
                check=True,
                capture_output=True,
            )
            tls_options = [
                "--tls-listen",
                f"127.0.0.1:{self.tls_port}",
                "--tls-cert",
                str(cert),
                "--tls-key",
                str(key),
            ]
        subprocess.run(
            [
                sys.executable,
                str(RENDER),
                "--listen",
                f"127.0.0.1:{self.port}",
                "--static-root",
                str(static_root),
                "--out",
                str(site),
                *tls_options,
                *[arg for p in daphne_ports for arg in ("--daphne", f"127.0.0.1:{p}")],
            ],
            check=True,
        )
        temp = " ".join(
            f"{kind}_temp_path {prefix / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        # as root nginx would hand its workers to "nobody", who cannot read a private temp dir
        user = "user root;" if os.geteuid() == 0 else ""
        (prefix / "nginx.conf").write_text(f"""
{user}
daemon off;
worker_processes 1;
pid {prefix / "nginx.pid"};
error_log {prefix / "logs" / "error.log"} warn;
events {{ worker_connections 1024; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {prefix / "logs" / "access.log"};
    {temp}
    include {site};
}}
""")
        self.proc = subprocess.Popen(
            [nginx_binary(), "-p", str(prefix), "-c", str(prefix / "nginx.conf")],
            stdout=subprocess.DEVNULL,
            stderr=_log("nginx"),
        )
        _wait_port(self.port, timeout=10)

    def connection(self, *, tls: bool = False) -> http.client.HTTPConnection:
        """A connection from the players' address (not nginx's own)."""
        if tls:
            context = ssl.create_default_context(cafile=str(self.prefix / "cert.pem"))
            context.check_hostname = False
            return http.client.HTTPSConnection(
                "127.0.0.1",
                self.tls_port,
                timeout=10,
                source_address=(CLIENT_ADDRESS, 0),
                context=context,
            )
        return http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=10, source_address=(CLIENT_ADDRESS, 0)
        )

    def get(
        self, path: str, headers: dict | None = None, *, tls: bool = False
    ) -> tuple[http.client.HTTPResponse, bytes]:
        conn = self.connection(tls=tls)
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        body = response.read()
        conn.close()
        return response, body

    def ws(self, table_id: int, cookie: str):
        from websockets.sync.client import connect

        sock = socket.create_connection(
            ("127.0.0.1", self.port), timeout=10, source_address=(CLIENT_ADDRESS, 0)
        )
        return connect(
            f"ws://127.0.0.1:{self.port}/ws/table/{table_id}/?format=json",
            sock=sock,
            additional_headers={
                "Cookie": cookie,
                "Origin": f"http://127.0.0.1:{self.port}",
                "X-Forwarded-For": FORGED,
            },
            open_timeout=10,
            max_size=2**22,
        )

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGQUIT)  # graceful
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def static_root(tmp_path_factory) -> Path:
    """``collectstatic`` output, as the deploy step makes it (STATIC_ROOT under LEYOU_VAR_DIR)."""
    var = tmp_path_factory.mktemp("leyou-var")
    env = _child_env({"LEYOU_VAR_DIR": str(var)})
    env.pop("DATABASE_URL", None)  # collectstatic needs no database
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    root = var / "staticfiles"
    assert (root / "css" / "app.css").is_file()
    return root


@pytest.fixture
def front(tmp_path, static_root):
    """nginx over two (not yet started) Daphne ports; yields (nginx, {name: port})."""
    ports = {"a": free_port(), "b": free_port()}
    proxy = Nginx(tmp_path / "nginx", static_root, list(ports.values()))
    yield proxy, ports
    proxy.stop()


UNITS = Path(ROOT) / "deploy" / "systemd"


def unit_daphne_options() -> tuple[str, ...]:
    """The Daphne options of ``leyou-daphne@.service`` besides its address, port and app."""
    line = next(
        line
        for line in (UNITS / "leyou-daphne@.service").read_text().splitlines()
        if line.startswith("ExecStart=")
    )
    words = shlex.split(line.removeprefix("ExecStart="))
    assert words[0].endswith("/daphne") and words[-1] == "config.asgi:application", words
    options = words[1:-1]
    assert options[:4] == ["-b", "${LEYOU_BIND}", "-p", "%i"], options
    return tuple(options[4:])


def unit_command(unit: str) -> list[str]:
    """The ExecStart command of a unit, with this checkout's virtualenv for /srv/leyou/.venv."""
    line = next(
        line for line in (UNITS / unit).read_text().splitlines() if line.startswith("ExecStart=")
    )
    words = shlex.split(line.removeprefix("ExecStart="))
    prefix = "/srv/leyou/.venv/bin/"
    assert words[0].startswith(prefix), words
    program = words[0].removeprefix(prefix)
    return [
        sys.executable if program == "python" else str(Path(sys.executable).parent / program),
        *words[1:],
    ]


def unit_start(servers, name: str, unit: str) -> None:
    """Start the worker or the clock exactly as its unit does (Servers stops it at the end)."""
    servers.procs[name] = subprocess.Popen(
        unit_command(unit),
        cwd=ROOT,
        env=_child_env({"CELERY_TASK_ALWAYS_EAGER": "0"}),
        stdout=subprocess.DEVNULL,
        stderr=_log(name),
    )


def daphne_behind(servers, name: str, port: int, logs: Path) -> None:
    """A Daphne process as leyou-daphne@<port>.service runs it, with an access log."""
    options = unit_daphne_options()
    assert "--proxy-headers" in options  # else the client address below is nginx's
    servers.daphne(name, port, args=(*options, "--access-log", str(logs / f"{name}.access.log")))


def access_lines(logs: Path, name: str, pattern: str) -> list[str]:
    path = logs / f"{name}.access.log"
    if not path.exists():
        return []
    return [line for line in path.read_text().splitlines() if re.search(pattern, line)]


@pytest.mark.live
def test_nginx_serves_static_files_itself_balances_pages_and_passes_the_client_address(
    servers, front, tmp_path, make_user
):
    """Static files come from nginx (cached, compressed) with no ASGI process running; pages
    are spread over both processes; each sees the real client, never a forged X-Forwarded-For;
    a form posted through nginx passes Django's host and CSRF checks."""
    proxy, ports = front
    source = (Path(ROOT) / "static" / "css" / "app.css").read_bytes()
    # no Daphne yet: the page fails (502) but the static files are served
    response, _ = proxy.get("/accounts/login/")
    assert response.status == 502
    response, body = proxy.get("/static/css/app.css", {"Accept-Encoding": "gzip"})
    assert response.status == 200
    assert response.getheader("Server", "").startswith("nginx")
    assert response.getheader("Cache-Control") == "public, max-age=3600"
    assert response.getheader("Content-Type", "").startswith("text/css")
    assert response.getheader("Content-Encoding") == "gzip"
    assert "Accept-Encoding" in response.getheader("Vary", "")
    assert gzip.decompress(body) == source
    etag = response.getheader("ETag")
    assert etag and response.getheader("Last-Modified")
    response, body = proxy.get("/static/css/app.css", {"If-None-Match": etag.removeprefix("W/")})
    assert response.status == 304 and body == b""
    response, body = proxy.get("/static/vendor/htmx-2.0.11.min.js")
    assert response.status == 200
    assert body == (Path(ROOT) / "static" / "vendor" / "htmx-2.0.11.min.js").read_bytes()
    assert response.getheader("Cache-Control") == "public, max-age=31536000, immutable"
    response, _ = proxy.get("/static/css/no-such-file.css")
    assert response.status == 404

    logs = tmp_path / "access"
    logs.mkdir()
    for name, port in ports.items():
        daphne_behind(servers, name, port, logs)
    # nginx skips a process that refused 3 page connects for fail_timeout (2 s): wait for it
    deadline = time.time() + 15
    while proxy.get("/accounts/login/")[0].status != 200:
        assert time.time() < deadline, "nginx did not take the started processes back"
        time.sleep(0.25)
    for name in ports:
        (logs / f"{name}.access.log").write_text("")
    for _ in range(8):
        response, body = proxy.get("/accounts/login/", {"X-Forwarded-For": FORGED})
        assert response.status == 200
    served = {name: access_lines(logs, name, r'"GET /accounts/login/"') for name in ports}
    assert all(len(lines) >= 2 for lines in served.values()), served  # both processes serve
    for lines in served.values():
        for line in lines:
            assert line.startswith(f"{CLIENT_ADDRESS}:") and FORGED not in line, line
    assert access_lines(logs, "a", "/static/") + access_lines(logs, "b", "/static/") == []
    # long-lived sockets other than a table's are balanced by open connections: one each
    from websockets.sync.client import connect

    lobby = [
        connect(
            f"ws://127.0.0.1:{proxy.port}/ws/lobby/",
            open_timeout=10,
            additional_headers={"Origin": f"http://127.0.0.1:{proxy.port}"},
        )
        for _ in range(2)
    ]
    deadline = time.time() + 5  # Daphne logs the connect just after the handshake's answer
    while any(len(access_lines(logs, name, r'"WSCONNECT /ws/lobby/"')) != 1 for name in ports):
        assert time.time() < deadline, {n: access_lines(logs, n, "lobby") for n in ports}
        time.sleep(0.05)
    for ws in lobby:
        ws.close()

    # log in through nginx: Host (with the port) and the Origin match, so CSRF passes
    assert log_in_through(proxy, make_user(beans=1000)) == 302


def log_in_through(proxy: Nginx, user, *, tls: bool = False) -> int:
    """Post the login form through nginx as a browser would; return the status (302: in)."""
    origin = f"https://127.0.0.1:{proxy.tls_port}" if tls else f"http://127.0.0.1:{proxy.port}"
    conn = proxy.connection(tls=tls)
    conn.request("GET", "/accounts/login/")
    page = conn.getresponse()
    html = page.read().decode()
    assert page.status == 200, page.status
    cookie = re.search(r"csrftoken=([^;]+)", page.getheader("Set-Cookie"))[1]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)[1]
    conn.request(
        "POST",
        "/accounts/login/",
        body=urlencode(
            {"csrfmiddlewaretoken": token, "username": user.username, "password": "pw-123456"}
        ),
        headers={
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={cookie}",
            "Origin": origin,
            "Referer": f"{origin}/accounts/login/",
        },
    )
    posted = conn.getresponse()
    posted.read()
    conn.close()
    if posted.status == 302:
        assert "sessionid=" in (posted.getheader("Set-Cookie") or "")
    return posted.status


@pytest.mark.live
def test_nginx_terminates_tls_and_tells_django_the_scheme(
    servers, tmp_path, static_root, make_user
):
    """With --tls-listen, plain HTTP is redirected to HTTPS; over HTTPS static files come from
    nginx and a login form passes Django's CSRF origin check, which holds only if Django sees
    the scheme as https (X-Forwarded-Proto, taken by Daphne's --proxy-headers)."""
    port = free_port()
    proxy = Nginx(tmp_path / "nginx", static_root, [port], tls=True)
    try:
        response, _ = proxy.get("/static/css/app.css?v=1")
        assert response.status == 301
        assert (
            response.getheader("Location")
            == f"https://127.0.0.1:{proxy.tls_port}/static/css/app.css?v=1"
        )
        response, body = proxy.get("/static/css/app.css", tls=True)
        assert response.status == 200
        assert body == (Path(ROOT) / "static" / "css" / "app.css").read_bytes()
        daphne_behind(servers, "a", port, tmp_path)
        assert log_in_through(proxy, make_user(beans=1000), tls=True) == 302
    finally:
        proxy.stop()


class Player:
    """A scripted player's socket through nginx that reconnects when it is closed and resumes
    from the snapshot the server sends on connect (its seq at least the last one seen)."""

    def __init__(self, proxy: Nginx, table_id: int, seat: int, cookie: str) -> None:
        self.proxy, self.table_id, self.seat, self.cookie = proxy, table_id, seat, cookie
        self.latest: dict | None = None
        self.closes: list[int | None] = []
        self.resumed: list[tuple[int, int]] = []  # (seq before the close, seq of the snapshot)
        self.back_at: float | None = None
        self.awaiting_resume, self.seq_at_close = False, -1
        self.acted_seq = -1
        self.sent_at = 0.0
        self.ws = None
        self._open()

    def _open(self) -> None:
        deadline = time.time() + 20
        while True:
            try:
                self.ws = self.proxy.ws(self.table_id, self.cookie)
                return
            except Exception:  # nginx answers 502 while no process can take the socket
                if time.time() > deadline:
                    raise
                time.sleep(0.1)

    def _closed(self, error) -> None:
        from websockets.exceptions import ConnectionClosed

        code = error.rcvd.code if isinstance(error, ConnectionClosed) and error.rcvd else None
        self.closes.append(code)
        self.seq_at_close = self.latest["seq"] if self.latest else -1
        self._open()
        self.awaiting_resume = True

    def poll(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            frame = json.loads(self.ws.recv(timeout=0.05))
        except TimeoutError:
            return
        except ConnectionClosed as error:
            self._closed(error)
            return
        if frame["type"] != "table" or frame["view"] is None:
            return
        if self.awaiting_resume:
            self.awaiting_resume = False
            self.resumed.append((self.seq_at_close, frame["seq"]))
            self.back_at = time.monotonic()
        if self.latest is None or frame["seq"] >= self.latest["seq"]:
            self.latest = frame

    def act(self) -> bool:
        from websockets.exceptions import ConnectionClosed

        frame = self.latest
        if frame is None or frame["view"]["phase"] == "over" or self.acted_seq == frame["seq"]:
            return False
        if time.monotonic() - self.sent_at < PACE:
            return False
        action = choose(frame["view"], self.seat)
        if action is None:
            return False
        self.acted_seq, self.sent_at = frame["seq"], time.monotonic()
        try:
            self.ws.send(
                json.dumps(
                    {
                        "kind": "move",
                        "action": action,
                        "seq": frame["seq"],
                        "action_id": f"{self.seat}-{frame['seq']}",
                    }
                )
            )
        except ConnectionClosed as error:
            self._closed(error)
            return False
        return True

    def done(self) -> bool:
        frame = self.latest
        return bool(frame and frame["view"]["phase"] == "over" and frame["hand"]["settled"])


def drive(players: list[Player], *, until, limit: float = 90.0) -> None:
    deadline = time.time() + limit
    while time.time() < deadline:
        for player in players:
            player.poll()
        for player in players:
            player.act()
        if until():
            return
    raise AssertionError("the table did not get there over the sockets through nginx")


@pytest.mark.live
@pytest.mark.slow
def test_a_hand_through_nginx_survives_a_rolling_restart_of_its_daphne(
    servers, front, tmp_path, room, make_user
):
    """A table's sockets all go to one process (the hash of the path); SIGTERM to that process
    mid-hand: every client is closed, comes back through nginx on the other process at once,
    resumes from the seq it had, and the hand finishes and is settled by the worker, with the
    clock running (both as their systemd units run them). The restarted process takes new sockets
    again."""
    if not os.environ.get("REDIS_URL"):
        pytest.skip("two processes need the Redis channel layer (REDIS_URL)")
    proxy, ports = front
    logs = tmp_path / "access"
    logs.mkdir()
    for name, port in ports.items():
        daphne_behind(servers, name, port, logs)
    unit_start(servers, "worker", "leyou-worker.service")
    unit_start(servers, "clock", "leyou-clock.service")
    users = [make_user(beans=5000) for _ in range(3)]
    table = None
    for user in users:
        table = lobby_services.quick_join(user=user, room_id=room.pk)
    players = [Player(proxy, table.pk, seat, login_cookie(user)) for seat, user in enumerate(users)]
    path = rf'"WSCONNECT /ws/table/{table.pk}/"'
    drive(players, until=lambda: all(p.latest for p in players))
    on = {name: access_lines(logs, name, path) for name in ports}
    holder = next(name for name, lines in on.items() if lines)
    other = next(name for name in ports if name != holder)
    assert len(on[holder]) == 3 and on[other] == [], on  # one process holds the whole table
    for line in on[holder]:
        assert line.startswith(f"{CLIENT_ADDRESS}:") and FORGED not in line, line

    drive(players, until=lambda: min(p.latest["seq"] for p in players) >= 8)
    seq_before = Table.objects.get(pk=table.pk).seq
    hand = Hand.objects.get(table=table)
    assert hand.status != Hand.Status.FINISHED

    process = servers.procs[holder]
    stopped_at = time.monotonic()
    servers.kill(holder, signal.SIGTERM)
    exit_seconds = time.monotonic() - stopped_at
    assert process.returncode != -signal.SIGKILL, "Daphne did not stop on SIGTERM"
    drive(players, until=lambda: all(p.resumed for p in players), limit=30)
    back_seconds = max(p.back_at for p in players) - stopped_at
    after_exit = back_seconds - exit_seconds
    for player in players:
        assert len(player.closes) == 1
        before, snapshot = player.resumed[0]
        assert snapshot >= before  # resumed by seq: nothing the client had seen is lost
    moved = access_lines(logs, other, path)
    assert len(moved) == 3, moved  # the hash moved the table's sockets to the other process

    daphne_behind(servers, holder, ports[holder], logs)  # the rolling restart: back in service
    drive(players, until=lambda: all(p.done() for p in players))
    hand.refresh_from_db()
    assert hand.status == Hand.Status.FINISHED and hand.settled_at is not None
    assert Table.objects.get(pk=table.pk).seq > seq_before
    # the log is whole: it replays to the stored state
    assert registry.get("doudizhu").state_to_json(state_at(hand, 10**9)) == hand.state
    assert ledger_drift() == []
    for player in players:
        player.ws.close()
    # a socket opened now finds the restarted process again (its place on the ring)
    time.sleep(2.5)  # past the pages' fail_timeout (sockets never mark a process down)
    late = proxy.ws(table.pk, login_cookie(users[0]))
    late.recv(timeout=10)
    late.close()
    assert len(access_lines(logs, holder, path)) == 4
    print(
        f"\nnginx rolling restart: Daphne exit on SIGTERM {exit_seconds:.2f} s, "
        f"all three clients back {back_seconds:.2f} s after the signal "
        f"({after_exit:.2f} s after the exit); "
        f"close codes {[p.closes for p in players]}"
    )


def test_the_systemd_units_verify_with_this_checkout(tmp_path):
    """systemd-analyze accepts every unit (keys, commands that exist and run) with the install
    path, environment file and user of this machine put in for /srv/leyou, /etc/leyou, leyou."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    env_file = tmp_path / "leyou.env"
    shutil.copy(Path(ROOT) / "deploy" / "leyou.env.example", env_file)
    me = pwd.getpwuid(os.geteuid())
    group = grp.getgrgid(os.getegid()).gr_name
    names = []
    for unit in sorted(UNITS.iterdir()):
        text = (
            unit.read_text()
            .replace("/srv/leyou", ROOT)
            .replace("/etc/leyou/leyou.env", str(env_file))
            .replace("User=leyou", f"User={me.pw_name}")
            .replace("Group=leyou", f"Group={group}")
        )
        (tmp_path / unit.name).write_text(text)
        names.append(unit.name.replace("@.service", "@8001.service"))
    (tmp_path / "leyou-daphne@8001.service").symlink_to(tmp_path / "leyou-daphne@.service")
    assert set(names) == {
        "leyou-daphne@8001.service",
        "leyou-worker.service",
        "leyou-clock.service",
        "leyou.target",
    }
    result = subprocess.run(
        [analyze, "verify", *[str(tmp_path / n) for n in names]],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 0 and result.stderr.strip() == "", result.stderr


def test_the_renderer_refuses_bad_values_and_writes_nothing(tmp_path):
    """A bad address, port or static root is a clear message (exit 2) and no file."""
    out = tmp_path / "leyou.conf"
    for bad, message in [
        (["--daphne", "127.0.0.1"], "--daphne: expected HOST:PORT"),
        (["--daphne", "127.0.0.1:70000"], "--daphne: expected HOST:PORT"),
        (["--daphne", "127.0.0.1:8001", "--daphne", "127.0.0.1:8001"], "named twice"),
        ([], "name at least one ASGI process"),
        (["--daphne", "127.0.0.1:8001", "--listen", "80; evil"], "--listen"),
        (["--daphne", "127.0.0.1:8001", "--tls-listen", "443"], "needs --tls-cert"),
        (
            ["--daphne", "127.0.0.1:8001", "--tls-cert", "/c.pem", "--tls-key", "/k.pem"],
            "need --tls-listen",
        ),
        (
            [
                "--daphne",
                "127.0.0.1:8001",
                "--tls-listen",
                "443",
                "--tls-cert",
                "c.pem",
                "--tls-key",
                "/k.pem",
            ],
            "--tls-cert: expected an absolute path",
        ),
    ]:
        result = subprocess.run(
            [
                sys.executable,
                str(RENDER),
                "--static-root",
                "/var/lib/leyou/staticfiles",
                "--out",
                str(out),
                *bad,
            ],
            capture_output=True,
            text=True,
        )
        assert result.returncode == 2 and message in result.stderr, (bad, result.stderr)
        assert not out.exists()
    result = subprocess.run(
        [sys.executable, str(RENDER), "--daphne", "127.0.0.1:8001", "--static-root", "static"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2 and "absolute path" in result.stderr
    result = subprocess.run(
        [
            sys.executable,
            str(RENDER),
            "--daphne",
            "10.0.0.5:8001",
            "--daphne",
            "10.0.0.6:8001",
            "--static-root",
            "/var/lib/leyou/staticfiles/",
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0
    # pages count failures; the socket upstreams (tables, lobby and wheel) never mark one down
    assert result.stdout.count("server 10.0.0.5:8001 max_fails=3 fail_timeout=2s;") == 1
    assert result.stdout.count("server 10.0.0.5:8001 max_fails=0;") == 2
    assert result.stdout.count("proxy_next_upstream_tries 2;") == 3
    assert "alias /var/lib/leyou/staticfiles/;" in result.stdout and "{{" not in result.stdout


class Reconnecting(threading.Thread):
    """One client's socket through nginx, reconnecting at once whenever it is closed.

    Counts every handshake nginx answers with 502 (or another refusal) and, for each close,
    how long until the socket is back (a table socket: its first snapshot; a lobby socket: the
    handshake's 101)."""

    def __init__(self, proxy: Nginx, path: str, cookie: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.proxy, self.path, self.cookie, self.stop = proxy, path, cookie, stop
        self.table = path.startswith("/ws/table/")
        self.refusals: list[int] = []  # HTTP statuses of refused handshakes
        self.errors: list[str] = []
        self.gaps: list[float] = []  # seconds from a close to being back
        self.opened = threading.Event()

    def _connect(self):
        from websockets.sync.client import connect

        sock = socket.create_connection(
            ("127.0.0.1", self.proxy.port), timeout=10, source_address=(CLIENT_ADDRESS, 0)
        )
        return connect(
            f"ws://127.0.0.1:{self.proxy.port}{self.path}",
            sock=sock,
            additional_headers={
                "Cookie": self.cookie,
                "Origin": f"http://127.0.0.1:{self.proxy.port}",
            },
            open_timeout=10,
            max_size=2**22,
        )

    def _back(self):
        """Connect (again and again) until the socket is back; None when told to stop."""
        from websockets.exceptions import InvalidStatus

        while not self.stop.is_set():
            try:
                ws = self._connect()
            except InvalidStatus as error:
                self.refusals.append(error.response.status_code)
                time.sleep(0.05)
                continue
            except OSError as error:
                self.errors.append(repr(error))
                time.sleep(0.05)
                continue
            if not self.table:
                return ws
            try:
                while json.loads(ws.recv(timeout=10))["type"] != "table":
                    pass
                return ws
            except Exception as error:  # closed before its snapshot: try again
                self.errors.append(repr(error))
        return None

    def run(self) -> None:
        from websockets.exceptions import ConnectionClosed

        ws = self._back()
        self.opened.set()
        while ws is not None and not self.stop.is_set():
            try:
                ws.recv(timeout=0.2)
                continue
            except TimeoutError:
                continue
            except ConnectionClosed:
                closed_at = time.monotonic()
            ws = self._back()
            if ws is not None:
                self.gaps.append(time.monotonic() - closed_at)
        if ws is not None:
            ws.close()


class PagePoller(threading.Thread):
    """A page fetched through nginx every 50 ms; every status counted."""

    def __init__(self, proxy: Nginx, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.proxy, self.stop = proxy, stop
        self.statuses: dict[int, int] = {}

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                response, _ = self.proxy.get("/accounts/login/")
                status = response.status
            except OSError:
                status = 0
            self.statuses[status] = self.statuses.get(status, 0) + 1
            time.sleep(0.05)


def wait_ready(port: int, timeout: float = 30) -> float:
    """Poll the process's own /readyz (as the rolling restart in docs/operations.md does)."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/readyz")
            if conn.getresponse().status == 200:
                return time.monotonic() - started
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"the process on {port} did not become ready")


@pytest.mark.live
@pytest.mark.slow
def test_a_rolling_restart_from_a_fresh_nginx_under_28_sockets_gives_no_502(
    servers, front, tmp_path, room, make_user
):
    """The rolling restart of docs/operations.md, from an nginx that has just started: 24 table
    sockets (8 full tables) and 4 lobby sockets through nginx, a page fetched every 50 ms;
    each Daphne in turn gets SIGTERM, is started again and waited for on its /readyz (then
    the pages' fail_timeout), as the documented loop does. Not one 502 (or any refusal) on a
    handshake or a page, and every socket is back within 3 s of each close."""
    if not os.environ.get("REDIS_URL"):
        pytest.skip("two processes need the Redis channel layer (REDIS_URL)")
    proxy, ports = front
    logs = tmp_path / "access"
    logs.mkdir()
    for name, port in ports.items():
        daphne_behind(servers, name, port, logs)
        wait_ready(port)
    clients: list[Reconnecting] = []
    stop = threading.Event()
    for _ in range(8):
        users = [make_user(beans=5000) for _ in range(3)]
        table = None
        for user in users:
            table = lobby_services.quick_join(user=user, room_id=room.pk)
        clients += [
            Reconnecting(proxy, f"/ws/table/{table.pk}/?format=json", login_cookie(u), stop)
            for u in users
        ]
    clients += [
        Reconnecting(proxy, "/ws/lobby/", login_cookie(make_user(beans=100)), stop)
        for _ in range(4)
    ]
    poller = PagePoller(proxy, stop)
    try:
        for client in clients:
            client.start()
        for client in clients:
            assert client.opened.wait(30), "a socket did not open through nginx"
        poller.start()
        held = {name: len(access_lines(logs, name, r'"WSCONNECT /ws/table/')) for name in ports}
        assert all(held.values()), held  # the hash spread the tables over both processes
        started = time.monotonic()
        for name, port in ports.items():  # the documented loop
            servers.kill(name, signal.SIGTERM)
            daphne_behind(servers, name, port, logs)
            wait_ready(port)
            time.sleep(ROLLING_PAUSE)
        restart_seconds = time.monotonic() - started
        time.sleep(4)  # a client still away now would be past 3 s
    finally:
        stop.set()
        for client in clients:
            client.join(15)
        poller.join(5)
    refusals = [s for c in clients for s in c.refusals]
    gaps = [g for c in clients for g in c.gaps]
    table_clients = [c for c in clients if c.table]
    print(
        f"\nrolling restart through a fresh nginx ({restart_seconds:.1f} s): "
        f"{len(clients)} sockets, {len(gaps)} reconnections, "
        f"handshake refusals {len(refusals)} ({refusals.count(502)} × 502), "
        f"pages {poller.statuses}, time back max {max(gaps, default=0):.2f} s, "
        f"median {sorted(gaps)[len(gaps) // 2] if gaps else 0:.2f} s"
    )
    assert refusals == [], f"{len(refusals)} handshakes refused: {sorted(set(refusals))}"
    assert set(poller.statuses) == {200}, poller.statuses
    assert all(c.gaps for c in table_clients), "a table socket was never moved"
    assert max(gaps) < 3.0, sorted(gaps)[-5:]
