"""Live tables under load: T tables x 3 scripted WebSocket clients against real servers.

Benchmark, not a test. Everything runs on 127.0.0.1 and every run is bounded in time.

Each run starts its own server processes (Daphne, the clock ``manage.py runclock`` and a Celery
worker, with the project's real settings: BOT_THINK 0.8 s, turn clocks, BETWEEN_HANDS_SECONDS 8)
on a fresh database, creates 3T users with sessions directly through Django, seats them with
``lobby.services.quick_join`` (table by table, while the clients connect) and plays 斗地主 over
real sockets in one asyncio process, asking for JSON views (``?format=json``) or, with
``--frames html``, the HTML boards a browser gets (the server renders each seat's board; the
client reads seq, phase and its buttons off the HTML as a browser's page script does):

* ``--mode human``: each seat acts 1-5 s (seeded random) after its turn comes; latency is from an
  action sent to the LAST of the table's 3 seats receiving a frame whose seq is >= the seq the
  action produced (the seq is read back from ``HandEvent`` by action id after the run).
* ``--mode sat``: no think time; actions/s over the window (wall) and "in hands" (seconds in
  which >= 90 % of tables were inside a hand, as tables sit 8 s between hands).

Both modes check afterwards that every acknowledged action is a ``HandEvent`` row (by action id)
and that every frame a seat received carried that seat's own view (``frame.seat`` and
``view.seat``). Backends:

* ``--backend sqlite``: the embedded default: SQLite in a temp LEYOU_VAR_DIR, in-memory channel
  layer, ONE Daphne (the in-memory layer cannot span processes), filesystem Celery broker.
* ``--backend pg``: PostgreSQL (a bench database copied from a migrated template) + Redis
  (REDIS_URL, channel layer and broker), ``--procs`` Daphne processes (default 2, production for
  2 cores), sockets spread round-robin over them (so one table spans both processes).

    .venv/bin/python bench/table_load.py --backend sqlite --mode human --tables 10,100,300
    .venv/bin/python bench/table_load.py --backend pg --mode sat --tables 100 --duration 30

On a shared machine ``BENCH_PG_DB``, ``BENCH_PG_TEMPLATE`` and ``BENCH_REDIS_URL`` name this
engineer's database and Redis db and ``BENCH_PORTS=8110-8119`` the ports the servers take.

``--tables`` with several values runs each in a fresh child process; results are appended as JSON
lines to ``--json`` (default var/bench/table_load.jsonl). ``--profile`` runs ``py-spy record`` on
the first Daphne for the window (py-spy installed in the venv, or ``BENCH_PY_SPY`` naming it).
The result line has the latency by phase, by the action's kind (its type; ``hand_first`` and
``hand_last`` for the move that opened or ended a hand) and per second of the window.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from contextlib import closing
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
BIN = Path(PY).parent
PG_BASE = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/1")
PG_TEMPLATE = os.environ.get("BENCH_PG_TEMPLATE", "leyou_bench_tpl")
PG_DB = os.environ.get("BENCH_PG_DB", "leyou_bench")
SQLITE_TEMPLATE_DIR = Path(tempfile.gettempdir()) / "leyou-bench-sqlite-tpl"
SIMULTANEOUS = {"start", "dealing", "doubling"}


# --- environment and processes -----------------------------------------------------------------


def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# BENCH_PORTS="8110-8119": the servers take ports of that range (a shared machine's share),
# else any free port the system gives.
PORT_RANGE = os.environ.get("BENCH_PORTS", "")


def free_port() -> int:
    if PORT_RANGE:
        low, _, high = PORT_RANGE.partition("-")
        for port in range(int(low), int(high or low) + 1):
            with closing(socket.socket()) as s:
                try:
                    s.bind(("127.0.0.1", port))
                except OSError:
                    continue
                return port
        raise RuntimeError(f"no free port in BENCH_PORTS={PORT_RANGE}")
    with closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server on {port} exited with {proc.returncode}")
        with closing(socket.socket()) as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"server on {port} did not start")


def bench_env(backend: str, var_dir: Path, settings: str = "config.settings.local") -> dict:
    env = dict(os.environ)
    env["DJANGO_SETTINGS_MODULE"] = settings
    env["LEYOU_VAR_DIR"] = str(var_dir)
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    if backend == "pg":
        env["DATABASE_URL"] = f"{PG_BASE}/{PG_DB}"
        env["REDIS_URL"] = REDIS_URL
    else:
        env.pop("DATABASE_URL", None)
        env.pop("REDIS_URL", None)
        env["LEYOU_CLOCK_IN_SERVER"] = "1"  # as runplatform on the embedded default
    return env


def raise_nofile() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def pg_admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG_BASE}/postgres", autocommit=True) as conn:
        conn.execute(sql)


def prepare_database(backend: str, var_dir: Path, env: dict) -> None:
    """A fresh, migrated database: copied from a template migrated once (migrate is a no-op
    later)."""
    if backend == "pg":
        tpl_env = {**env, "DATABASE_URL": f"{PG_BASE}/{PG_TEMPLATE}"}
        try:
            pg_admin(f"CREATE DATABASE {PG_TEMPLATE}")
        except Exception:
            pass  # exists
        subprocess.run([PY, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=tpl_env, check=True)
        pg_admin(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            f"WHERE datname IN ('{PG_DB}', '{PG_TEMPLATE}') AND pid <> pg_backend_pid()"
        )
        pg_admin(f"DROP DATABASE IF EXISTS {PG_DB}")
        pg_admin(f"CREATE DATABASE {PG_DB} TEMPLATE {PG_TEMPLATE}")
    else:
        SQLITE_TEMPLATE_DIR.mkdir(parents=True, exist_ok=True)
        tpl_env = {**env, "LEYOU_VAR_DIR": str(SQLITE_TEMPLATE_DIR)}
        subprocess.run([PY, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=tpl_env, check=True)
        # fold the WAL into the main file before copying
        import sqlite3

        con = sqlite3.connect(SQLITE_TEMPLATE_DIR / "leyou.sqlite3")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.close()
        var_dir.mkdir(parents=True, exist_ok=True)
        shutil.copy(SQLITE_TEMPLATE_DIR / "leyou.sqlite3", var_dir / "leyou.sqlite3")


class Procs:
    """Server processes of one run, stopped by pid."""

    def __init__(self, env: dict, logdir: Path) -> None:
        self.env, self.logdir = env, logdir
        self.procs: dict[str, subprocess.Popen] = {}

    def _start(self, name: str, cmd: list[str]) -> subprocess.Popen:
        out = open(self.logdir / f"{name}.log", "ab")
        proc = subprocess.Popen(
            cmd, cwd=ROOT, env=self.env, stdout=out, stderr=out, preexec_fn=raise_nofile
        )
        self.procs[name] = proc
        return proc

    def daphne(self, name: str, gc_probe: bool = False) -> tuple[int, int]:
        port = free_port()
        args = ["-b", "127.0.0.1", "-p", str(port), "config.asgi:application"]
        if gc_probe:  # the same Daphne, with the collector's time written out (bench/gc_probe.py)
            cmd = [PY, str(ROOT / "bench" / "gc_probe.py"), str(self.gc_path(name)), *args]
        else:
            cmd = [str(BIN / "daphne"), *args]
        proc = self._start(name, cmd)
        wait_port(port, proc)
        return port, proc.pid

    def gc_path(self, name: str) -> Path:
        return self.logdir / f"gc-{name}.json"

    def gc_read(self) -> dict[str, dict]:
        """Each probed Daphne's collector totals so far (bench/gc_probe.py), by name."""
        out = {}
        for name in self.procs:
            try:
                out[name] = json.loads(self.gc_path(name).read_text())["gc"]
            except (OSError, ValueError, KeyError):
                continue
        return out

    def clock(self) -> int:
        return self._start("clock", [PY, "manage.py", "runclock"]).pid

    def worker(self) -> int:
        return self._start(
            "worker",
            [
                str(BIN / "celery"),
                "-A",
                "config",
                "worker",
                "--pool=solo",
                "--loglevel=WARNING",
                "--without-gossip",
                "--without-mingle",
            ],
        ).pid

    def stop(self) -> None:
        for name, proc in list(self.procs.items()):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM if name != "clock" else signal.SIGKILL)
        for proc in self.procs.values():
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.procs.clear()


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError):
        return 0.0


def pg_backend_pids() -> list[int]:
    """PostgreSQL backends serving the bench database (persistent: CONN_MAX_AGE 60)."""
    try:
        import psycopg

        with psycopg.connect(f"{PG_BASE}/postgres", autocommit=True) as conn:
            rows = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s", (PG_DB,)
            ).fetchall()
        return [r[0] for r in rows if Path(f"/proc/{r[0]}").exists()]
    except Exception:
        return []


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


# --- Django-side setup (in this process) -------------------------------------------------------


def django_setup(env: dict) -> None:
    for key in ("DJANGO_SETTINGS_MODULE", "LEYOU_VAR_DIR", "DATABASE_URL", "REDIS_URL"):
        if key in env:
            os.environ[key] = env[key]
        else:
            os.environ.pop(key, None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def make_room():
    from lobby.models import Room

    return Room.objects.create(
        name="壓測場",
        game="doudizhu",
        variant="classic",
        seats=3,
        base_score=1,
        factor=10,
        rake=5,
        min_beans=100,
        max_beans=None,
        double_threshold=1000,
        turn_seconds=20,
        bot_wait_seconds=30,
    )


def make_players(count: int, prefix: str) -> list[tuple[int, str]]:
    """``count`` players with the signup grant and a logged-in session: [(user id, cookie)]."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.db import transaction
    from django.test import override_settings
    from django.utils import timezone

    from accounts import services

    out = []
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        with transaction.atomic():
            users = [
                services.user_register(
                    username=f"{prefix}{i}", password="pw-123456", nickname=f"壓測{i}"
                )
                for i in range(count)
            ]
            store = SessionStore()
            expire = timezone.now() + timezone.timedelta(days=1)
            sessions = []
            for user in users:
                key = store._get_new_session_key()
                data = {
                    SESSION_KEY: str(user.pk),
                    BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
                    HASH_SESSION_KEY: user.get_session_auth_hash(),
                }
                sessions.append(
                    Session(session_key=key, session_data=store.encode(data), expire_date=expire)
                )
                out.append((user.pk, f"{settings.SESSION_COOKIE_NAME}={key}"))
            Session.objects.bulk_create(sessions)
    return out


def seat_table(room_id: int, user_ids: list[int]) -> int:
    """Three players quick-join the room: the table fills and its hand starts."""
    from django.db import close_old_connections

    from accounts.models import User
    from lobby import services as lobby

    close_old_connections()
    table = None
    for uid in user_ids:
        table = lobby.quick_join(user=User.objects.get(pk=uid), room_id=room_id)
    return table.pk


# --- the scripted client -----------------------------------------------------------------------


PREFERRED_OPTIONS = (
    {"type": "bid", "call": True},
    {"type": "start", "mingpai": False},
    {"type": "ready"},
    {"type": "rob", "rob": False},
    {"type": "double", "double": False},
)


def first_play(plays: list[str]) -> dict:
    """The smallest play (提示's first), or 不出 when there is none."""
    if not plays:
        return {"type": "pass"}
    cards, _, reading = plays[0].partition("/")
    return {"type": "play", "cards": cards, **({"as": reading} if reading else {})}


def pick_option(options: list[dict]) -> dict | None:
    """Of the non-play actions offered: call, no 明牌, ready, no rob, no 加倍; else the first."""
    return next((o for o in PREFERRED_OPTIONS if o in options), options[0] if options else None)


def choose(view: dict, seat: int) -> dict | None:
    """A seat's choice from its own view only (as tests/live/test_live_table.py's ``choose``)."""
    from games.rules.doudizhu import legal_plays

    if seat not in view["to_act"]:
        return None
    if view.get("can_play"):
        lead = view.get("lead")
        last = lead["cards"] if lead and lead["seat"] != seat else None
        return first_play([p for p in legal_plays(view["hand"], last) if p != "pass"])
    return pick_option(view["options"])


HX_VALS = re.compile(r"""hx-vals=(["'])(.*?)\1""")


class HtmlFrames:
    """What a browser reads of the HTML board frames (the default, no ``?format=json``).

    The board's root carries ``data-seq``, ``data-seat`` and ``data-phase``; the buttons in
    ``#actions`` exist only when this seat is to act; ``取消托管`` shows the seat is in 托管. Each
    frame becomes the same dict as a JSON frame's few fields this client reads.
    """

    ROOT = re.compile(
        r'id="board"[^>]*? data-seq="(\d+)"[^>]*? data-seat="(\d*)" '
        r'data-phase="(\w*)"'
    )
    ERROR = re.compile(r'id="toast" class="toast toast-error" data-code="([^"]*)"')

    def read(self, raw: str) -> dict:
        found = self.ROOT.search(raw, 0, 400)
        if found is None:
            error = self.ERROR.search(raw, 0, 200)
            return {"type": "error", "code": error.group(1)} if error else {"type": "other"}
        seq, seat, phase = int(found.group(1)), found.group(2), found.group(3)
        seat = int(seat) if seat else None
        start = raw.find('id="actions"')
        end = raw.find("</div>", start) if start >= 0 else -1
        acting = start >= 0 and "hx-vals" in raw[start:end]
        view = {
            "seat": seat,
            "phase": phase or "over",
            "to_act": [seat] if acting and seat is not None else [],
        }
        return {
            "type": "table",
            "seq": seq,
            "seat": seat,
            "view": view,
            "html": raw,
            "seats": [{"auto": "取消托管" in raw} if i == seat else {} for i in range(3)],
        }


def choose_html(raw: str) -> dict | None:
    """A browser player's choice from the buttons of his board: 提示's first play, else 不出, else
    the option buttons in the same order of preference as :func:`choose`."""
    start = raw.find('id="actions"')
    actions = raw[start : raw.find("</div>", start)]
    if "data-play" in actions:
        hints = re.search(r'data-hints="([^"]*)"', raw)
        return first_play(
            [p for p in json.loads(html.unescape(hints.group(1)) or "[]") if p != "pass"]
        )
    options = [
        value["action"]
        for value in (json.loads(html.unescape(v)) for _, v in HX_VALS.findall(actions))
        if value.get("kind") == "move"
    ]
    return pick_option(options)


class Pacer:
    """The server's per-socket token bucket (``LEYOU["WS_RATE_PER_SECOND"]`` / ``_BURST``),
    kept by the client with a 10 % margin, so that a client with no think time stays under the
    limit as a well-behaved program must (past it the server closes the socket with 1008).

    ``reserve`` takes a token and says how long to wait before sending; the tokens may go
    negative, so messages reserved later wait longer and keep their order.
    """

    def __init__(self) -> None:
        from django.conf import settings

        self.rate = 0.9 * settings.LEYOU["WS_RATE_PER_SECOND"]
        self.capacity = settings.LEYOU["WS_RATE_BURST"] - 2
        self.tokens, self.stamp = float(self.capacity), time.monotonic()

    def reserve(self) -> float:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        self.tokens -= 1
        return 0.0 if self.tokens >= 0 else -self.tokens / self.rate


class Stats:
    def __init__(self) -> None:
        self.sent: dict[str, dict] = {}  # action id -> {t, seq, table, seat, ok}
        self.frames: dict[tuple[int, int], list[tuple[int, float]]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.wrong_view = 0
        self.spectator = 0
        self.wrong_samples: list = []
        self.table_frames = 0
        self.closed: dict[str, int] = defaultdict(int)
        self.connect_fail = 0
        self.connect_retries = 0
        self.resyncs = 0
        self.paced = 0  # sends the client held back to stay under the rate limit
        self.paced_s = 0.0
        self.auto_offs = 0
        self.in_hand: dict[int, bool] = {}
        self.in_hand_samples: list[tuple[float, float]] = []


class Seat:
    def __init__(self, run: Run, table_id: int, seat: int, port: int, cookie: str) -> None:
        self.run, self.table_id, self.seat, self.port, self.cookie = (
            run,
            table_id,
            seat,
            port,
            cookie,
        )
        self.ws = None
        self.latest: dict | None = None
        self.pending: list[str] = []  # sent, not yet resolved (in send order)
        self.resolved: list[str] = []
        self.timer: asyncio.Task | None = None
        self.rng = random.Random(run.args.seed * 1_000_003 + table_id * 3 + seat)
        self.n = 0
        self.last_auto_off = 0.0
        self.last_frame = time.perf_counter()
        self.html = HtmlFrames() if run.args.frames == "html" else None
        self.pacer = Pacer()

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        query = "?format=json" if self.run.args.frames == "json" else ""
        url = f"ws://127.0.0.1:{self.port}/ws/table/{self.table_id}/{query}"
        for attempt in range(self.run.args.connect_attempts):
            try:
                self.ws = await connect(
                    url,
                    additional_headers={
                        "Cookie": self.cookie,
                        "Origin": f"http://127.0.0.1:{self.port}",
                    },
                    open_timeout=self.run.args.open_timeout,
                    max_size=2**22,
                    compression=None,
                    ping_interval=None,
                )
                return
            except Exception:
                # a browser's ws extension reconnects too; Daphne drops handshakes that the
                # application does not accept within its 5 s websocket_connect_timeout
                self.run.stats.connect_retries += 1
                if attempt + 1 == self.run.args.connect_attempts:
                    raise
                await asyncio.sleep(1.0 + attempt * 2.0)

    async def poller(self) -> None:
        """Ask for a snapshot when the clock should have moved the table but no frame came.

        The latest frame carries the seats' turn deadlines and the next hand's time; once one
        is more than ``--poll`` s past with no newer frame, the clock acted in another process
        (embedded default: its in-memory channel layer cannot reach Daphne's sockets).
        """
        from datetime import datetime

        while not self.run.stopping:
            await asyncio.sleep(0.5)
            frame = self.latest
            if frame is None or self.run.stopping:
                continue
            view = frame.get("view") or {}
            due = [
                s.get("deadline")
                for s in frame.get("seats", [])
                if s.get("index") in view.get("to_act", [])
            ]
            due.append((frame.get("table") or {}).get("next_hand_at"))
            due = [datetime.fromisoformat(d).timestamp() for d in due if d]
            if not due:
                continue
            wall = time.time()
            idle = time.perf_counter() - self.last_frame
            if wall - min(due) > self.run.args.poll and idle > self.run.args.poll:
                self.last_frame = time.perf_counter()
                self.run.stats.resyncs += 1
                await self._send({"kind": "resync"})

    async def loop(self) -> None:
        stats = self.run.stats
        try:
            async for raw in self.ws:
                now = time.perf_counter()
                self.last_frame = now
                frame = json.loads(raw) if self.html is None else self.html.read(raw)
                if frame["type"] == "error":
                    stats.errors[frame.get("code", "?")] += 1
                    self._reject()
                    continue
                if frame["type"] != "table":
                    continue
                stats.table_frames += 1
                view = frame.get("view")
                if frame.get("seat") != self.seat or (
                    view is not None and view.get("seat") != self.seat
                ):
                    if frame.get("seat") is None and (view is None or view.get("seat") is None):
                        stats.spectator += 1  # the player lost the seat: spectator view, no hand
                    else:
                        stats.wrong_view += 1
                        if len(stats.wrong_samples) < 5:
                            stats.wrong_samples.append(
                                [
                                    self.table_id,
                                    self.seat,
                                    frame.get("seat"),
                                    view and view.get("seat"),
                                ]
                            )
                stats.frames[(self.table_id, self.seat)].append((frame["seq"], now))
                if self.latest is None or frame["seq"] >= self.latest["seq"]:
                    self.latest = frame
                    if self.seat == 0:
                        stats.in_hand[self.table_id] = bool(view and view["phase"] != "over")
                    self._resolve(frame)
                    self._on_frame(frame)
        except Exception as error:  # a closed socket: count it by code
            code = getattr(getattr(error, "rcvd", None), "code", None)
            if not self.run.stopping:
                stats.closed[str(code or type(error).__name__)] += 1

    def _reject(self) -> None:
        if self.pending:
            self.run.stats.sent[self.pending.pop(0)]["ok"] = False
        elif self.resolved:
            self.run.stats.sent[self.resolved[-1]]["ok"] = False

    def _resolve(self, frame: dict) -> None:
        view = frame.get("view") or {}
        keep = []
        for aid in self.pending:
            info = self.run.stats.sent[aid]
            if frame["seq"] > info["seq"] and (
                self.seat not in view.get("to_act", [])
                or view.get("phase") != info["phase"]
                or frame["seq"] >= info["seq"] + 3
            ):
                info["ok"] = True
                self.resolved.append(aid)
                del self.resolved[:-4]
            else:
                keep.append(aid)
        self.pending = keep

    def _on_frame(self, frame: dict) -> None:
        if self.run.stopping:
            return
        seats = frame.get("seats") or []
        me = seats[self.seat] if self.seat < len(seats) else {}
        now = time.monotonic()
        if me.get("auto") and now - self.last_auto_off > 3:
            # a person whose seat went to 托管 (timeouts) clicks it off, as in the UI
            self.last_auto_off = now
            self.run.stats.auto_offs += 1
            asyncio.ensure_future(self._send({"kind": "auto", "on": False}))
        view = frame.get("view")
        if not view or view["phase"] == "over" or self.seat not in view["to_act"]:
            if self.timer is not None and not self.timer.done():
                self.timer.cancel()
            self.timer = None
            return
        if self.pending:
            return  # wait for the outcome of the action in flight
        if self.timer is not None and not self.timer.done():
            return  # still thinking
        delay = self.rng.uniform(1.0, 5.0) if self.run.args.mode == "human" else 0.0
        if delay == 0.0:
            self._act()
        else:
            self.timer = asyncio.ensure_future(self._think(delay))

    async def _think(self, delay: float) -> None:
        await asyncio.sleep(delay)
        self.timer = None
        if not self.run.stopping and not self.pending:
            self._act()

    def _act(self) -> None:
        frame = self.latest
        view = frame and frame.get("view")
        if not view or view["phase"] == "over":
            return
        action = choose(view, self.seat) if self.html is None else choose_html(frame["html"])
        if action is None:
            return
        self.n += 1
        aid = f"b{self.table_id}-{self.seat}-{self.n}"
        self.run.stats.sent[aid] = {
            "t": time.perf_counter(),
            "seq": frame["seq"],
            "table": self.table_id,
            "seat": self.seat,
            "ok": None,
            "phase": view["phase"],
            "kind": action.get("type", "?"),
        }
        self.pending.append(aid)
        asyncio.ensure_future(
            self._send({"kind": "move", "action": action, "seq": frame["seq"], "action_id": aid})
        )

    async def _send(self, message: dict) -> None:
        wait = self.pacer.reserve()
        if wait > 0:
            self.run.stats.paced += 1
            self.run.stats.paced_s += wait
            await asyncio.sleep(wait)
        try:
            await self.ws.send(json.dumps(message))
        except Exception:
            pass


class Run:
    def __init__(self, args) -> None:
        self.args = args
        self.stats = Stats()
        self.stopping = False
        self.seats: list[Seat] = []


async def drive(args, ports: list[int], room_id: int, players: list[tuple[int, str]]) -> Run:
    from concurrent.futures import ThreadPoolExecutor

    run = Run(args)
    loop = asyncio.get_running_loop()
    setup_pool = ThreadPoolExecutor(1)  # one Django writer for the set-up
    sem = asyncio.Semaphore(args.connect_concurrency)
    tasks = []
    sock_index = 0

    async def open_table(t: int, table_id: int, base: int) -> None:
        async with sem:
            seats = [
                Seat(
                    run,
                    table_id,
                    s,
                    ports[(t if run.args.sticky else base + s) % len(ports)],
                    players[3 * t + s][1],
                )
                for s in range(3)
            ]
            try:
                await asyncio.gather(*(seat.connect() for seat in seats))
            except Exception as error:
                run.stats.connect_fail += 1
                log(f"connect failed for table {table_id}: {error!r}")
                return
            run.seats.extend(seats)
            for seat in seats:
                tasks.append(asyncio.ensure_future(seat.loop()))
                if args.poll > 0:
                    tasks.append(asyncio.ensure_future(seat.poller()))

    t0 = time.perf_counter()
    openers = []
    run.tables_seated = 0
    for t in range(args.tables):
        if time.perf_counter() - t0 > args.ramp_limit:
            log(f"ramp limit {args.ramp_limit}s reached after {t} tables: measuring those")
            break
        run.tables_seated += 1
        uids = [players[3 * t + s][0] for s in range(3)]
        table_id = await loop.run_in_executor(setup_pool, seat_table, room_id, uids)
        openers.append(asyncio.ensure_future(open_table(t, table_id, sock_index)))
        sock_index += 3
    await asyncio.gather(*openers)
    run.ramp_seconds = time.perf_counter() - t0
    log(f"{args.tables} tables seated, {len(run.seats)} sockets open in {run.ramp_seconds:.1f}s")

    # warm-up, then the measured window
    await asyncio.sleep(args.warmup)
    run.window = [time.perf_counter(), None]
    run.wall0 = time.time()  # the wall clock at the window's start (HandEvent.created_at's)
    run.load = [os.getloadavg()[0], None]
    run.pg_pids = pg_backend_pids() if args.backend == "pg" else []
    run.cpu0 = {pid: cpu_seconds(pid) for pid in run.pids + run.pg_pids}
    run.client_cpu_window = time.process_time()
    run.gc0 = run.gc_read() if run.gc_read else {}
    end = run.window[0] + args.duration
    while time.perf_counter() < end:
        await asyncio.sleep(1.0)
        if run.stats.in_hand:
            share = sum(run.stats.in_hand.values()) / len(run.stats.in_hand)
            run.stats.in_hand_samples.append((time.perf_counter(), share))
    run.window[1] = time.perf_counter()
    run.load[1] = os.getloadavg()[0]
    run.cpu1 = {pid: cpu_seconds(pid) for pid in run.pids + run.pg_pids}
    run.client_cpu_window = time.process_time() - run.client_cpu_window
    await asyncio.sleep(1.2)  # the probes write every second: totals at least as new as the end
    run.gc1 = run.gc_read() if run.gc_read else {}
    run.stopping = True
    for seat in run.seats:
        if seat.timer is not None:
            seat.timer.cancel()
    await asyncio.sleep(args.drain)  # let frames of actions in flight arrive
    run.rss = {pid: rss_kib(pid) for pid in run.pids}
    for seat in run.seats:
        try:
            await asyncio.wait_for(seat.ws.close(), 5)
        except Exception:
            pass
    for task in tasks:
        task.cancel()
    setup_pool.shutdown()
    return run


# --- results -------------------------------------------------------------------------------------


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    values = sorted(values)
    k = min(len(values) - 1, max(0, int(round(q / 100 * (len(values) - 1)))))
    return values[k]


def analyse(args, run: Run, table_ids: set[int]) -> dict:
    from games.models import HandEvent

    st = run.stats
    ids = list(st.sent)
    saved: dict[str, tuple[int, int]] = {}
    hand_of: dict[str, int] = {}
    for i in range(0, len(ids), 2000):
        for aid, table_id, seq, hand_id in HandEvent.objects.filter(
            action_id__in=ids[i : i + 2000]
        ).values_list("action_id", "table_id", "seq", "hand_id"):
            saved[aid] = (table_id, seq)
            hand_of[aid] = hand_id
    # each hand's first and last event (any actor): a player's move that opened or ended it
    from django.db.models import Max, Min

    hand_span = {
        row["hand_id"]: (row["first"], row["last"])
        for row in HandEvent.objects.filter(table_id__in=table_ids)
        .values("hand_id")
        .annotate(first=Min("seq"), last=Max("seq"))
    }
    acked = {aid for aid, info in st.sent.items() if info["ok"]}
    unresolved = sum(1 for info in st.sent.values() if info["ok"] is None)
    events_by = dict()
    for by in ("player", "bot", "auto"):
        events_by[by] = HandEvent.objects.filter(table_id__in=table_ids, by=by).count()
    w0, w1 = run.window
    lat, in_window = [], 0
    # the moves the clock applied (bots, 托管), per table, in the window's clock (perf_counter)
    clock_moves: dict[int, list[float]] = defaultdict(list)
    for table_id, created in (
        HandEvent.objects.filter(table_id__in=table_ids)
        .exclude(by__in=("player", "escape"))
        .values_list("table_id", "created_at")
    ):
        clock_moves[table_id].append(created.timestamp() - run.wall0 + w0)
    near_clock: list[tuple[float, bool]] = []  # (ms, a clock move on the table meanwhile)
    by_phase: dict[str, list[float]] = defaultdict(list)
    by_kind: dict[str, list[float]] = defaultdict(list)  # the action's type; first/last of hand
    by_second: dict[int, list[float]] = defaultdict(list)  # second of the window it was sent in
    last_of: list[tuple[float, bool, bool]] = []  # (ms, last seat is the actor, it had a move out)
    sent_by_seat: dict[tuple[int, int], list[dict]] = defaultdict(list)
    for info in st.sent.values():
        sent_by_seat[(info["table"], info["seat"])].append(info)
    for aid, (table_id, seq) in saved.items():
        info = st.sent[aid]
        if not (w0 <= info["t"] < w1):
            continue
        in_window += 1
        worst, last_seat = 0.0, None
        for s in range(3):
            got = next(
                (t for q, t in st.frames[(table_id, s)] if q >= seq and t >= info["t"]), None
            )
            if got is None:
                worst = None
                break
            if got - info["t"] >= worst:
                worst, last_seat = got - info["t"], s
        if worst is not None:
            lat.append(worst * 1000)
            # who got the frame last: the actor, or a seat with a move of its own in flight
            # (sent before the frame came, less than 1 s before this action) — a socket
            # handles its messages in order, so its own move delays the frames behind it
            own_move_out = any(
                info["t"] - 1.0 <= other["t"] <= info["t"] + worst
                for other in sent_by_seat.get((table_id, last_seat), ())
                if other is not info
            )
            last_of.append((worst * 1000, last_seat == info["seat"], own_move_out))
            # the clock moved this table while the action was on its way (its transaction
            # holds the table's row lock: the action waits for it)
            near_clock.append(
                (
                    worst * 1000,
                    any(
                        info["t"] - 0.2 <= t <= info["t"] + worst
                        for t in clock_moves.get(table_id, ())
                    ),
                )
            )
            by_phase[info["phase"]].append(worst * 1000)
            first, last = hand_span.get(hand_of[aid], (None, None))
            kind = info.get("kind", "?")
            if seq == last:
                kind = "hand_last"  # the move that ended the hand (the settlement follows)
            elif seq == first:
                kind = "hand_first"
            by_kind[kind].append(worst * 1000)
            by_second[int(info["t"] - w0)].append(worst * 1000)
    elapsed = w1 - w0
    busy = [s for t, s in st.in_hand_samples]
    full = sum(1 for s in busy if s >= 0.9)
    # actions per second inside seconds when >= 90 % of tables were in a hand
    per_sec: dict[int, int] = defaultdict(int)
    for aid in saved:
        t = st.sent[aid]["t"]
        if w0 <= t < w1:
            per_sec[int(t - w0)] += 1
    in_hand_rates = []
    for t, share in st.in_hand_samples:
        sec = int(t - w0) - 1
        if share >= 0.9 and sec in per_sec:
            in_hand_rates.append(per_sec[sec])
    srv_cpu = sum(run.cpu1[p] - run.cpu0[p] for p in run.daphne_pids)
    slow = pct(lat, 95) if lat else 0.0  # the slowest 5 % start here
    result = {
        "backend": args.backend,
        "mode": args.mode,
        "tables": args.tables,
        "procs": args.procs,
        "sticky": args.sticky,
        "frame_format": args.frames,
        "settings": args.settings,
        "tables_seated": run.tables_seated,
        "sockets": len(run.seats),
        "connect_fail": run.stats.connect_fail,
        "ramp_s": round(run.ramp_seconds, 1),
        "window_s": round(elapsed, 1),
        "sent_total": len(st.sent),
        "acked_total": len(acked),
        "saved_total": len(saved),
        "acked_not_saved": len(acked - set(saved)),
        "saved_not_acked": len(set(saved) - acked),
        "unresolved": unresolved,
        # every move sent is either a HandEvent row or answered by an error frame (the error
        # frames carry no action id, so the per-action split above is the client's best guess)
        "unaccounted": len(st.sent) - len(saved) - sum(st.errors.values()),
        "events_by": events_by,
        "errors": dict(st.errors),
        "closed": dict(st.closed),
        "auto_offs": st.auto_offs,
        "connect_retries": st.connect_retries,
        "resyncs": st.resyncs,
        "poll_s": args.poll,
        "paced_sends": st.paced,
        "paced_wait_s": round(st.paced_s, 1),
        "frames": st.table_frames,
        "wrong_view_frames": st.wrong_view,
        "spectator_frames": st.spectator,
        "wrong_view_samples": st.wrong_samples,
        "actions_in_window": in_window,
        "actions_per_s": round(in_window / elapsed, 1),
        "in_hand_actions_per_s": round(statistics.median(in_hand_rates), 1)
        if in_hand_rates
        else None,
        "in_hand_seconds": len(in_hand_rates),
        "share_in_hand_mean": round(statistics.mean(busy), 2) if busy else None,
        "p50_ms": pct(lat, 50),
        "p95_ms": pct(lat, 95),
        "p99_ms": pct(lat, 99),
        "max_ms": max(lat) if lat else None,
        "measured": len(lat),
        "daphne_cpu_s": round(srv_cpu, 2),
        "daphne_cpu_ms_per_action": round(1000 * srv_cpu / in_window, 2) if in_window else None,
        "clock_cpu_s": (
            round(run.cpu1[run.clock_pid] - run.cpu0[run.clock_pid], 2)
            if run.clock_pid not in run.daphne_pids
            else None
        ),  # inside Daphne
        "worker_cpu_s": round(run.cpu1[run.worker_pid] - run.cpu0[run.worker_pid], 2),
        "client_cpu_s": round(run.client_cpu, 2),  # the whole run, set-up and ramp included
        "client_cpu_window_s": round(run.client_cpu_window, 2),  # the measured window only
        # backends that exited inside the window read 0 at its end: only those alive throughout
        "postgres_cpu_s": round(
            sum(run.cpu1[p] - run.cpu0[p] for p in run.pg_pids if run.cpu1[p] >= run.cpu0[p]), 2
        ),
        "daphne_rss_mib": [round(run.rss[p] / 1024, 1) for p in run.daphne_pids],
        "full_seconds": full,
        # the Daphnes' collector in the window (--gc-probe): per process and generation,
        # collections, CPU ms and the longest one (ms, over the whole run so far)
        "daphne_gc": {
            name: {
                gen: {
                    "n": run.gc1[name][gen]["n"] - run.gc0.get(name, {}).get(gen, {}).get("n", 0),
                    "ms": round(
                        run.gc1[name][gen]["ms"]
                        - run.gc0.get(name, {}).get(gen, {}).get("ms", 0.0),
                        1,
                    ),
                    "max_ms": round(run.gc1[name][gen]["max_ms"], 1),
                }
                for gen in run.gc1[name]
            }
            for name in run.gc1
        },
        "by_phase": {
            ph: {"n": len(v), "p50": round(pct(v, 50), 1), "p95": round(pct(v, 95), 1)}
            for ph, v in sorted(by_phase.items())
        },
        "by_kind": {
            kind: {
                "n": len(v),
                "p50": round(pct(v, 50), 1),
                "p95": round(pct(v, 95), 1),
                "share_of_slowest_5pc": round(
                    sum(1 for x in v if x >= slow) / max(1, len(lat) // 20), 3
                ),
            }
            for kind, v in sorted(by_kind.items())
        },
        "slowest_5pc_last_seat": {
            "n": sum(1 for ms, _, _ in last_of if ms >= slow),
            "actor": sum(1 for ms, actor, _ in last_of if ms >= slow and actor),
            "other_with_own_move_out": sum(
                1 for ms, actor, out in last_of if ms >= slow and not actor and out
            ),
        },
        # share of actions during which the clock moved the same table: all, and the slowest 5 %
        "clock_move_meanwhile": {
            "all": round(sum(1 for _, c in near_clock if c) / max(1, len(near_clock)), 3),
            "slowest_5pc": round(
                sum(1 for ms, c in near_clock if c and ms >= slow)
                / max(1, sum(1 for ms, _ in near_clock if ms >= slow)),
                3,
            ),
        },
        # per second of the window: [second, n, p50, max] — bursts show as a run of slow seconds
        "by_second": [
            [sec, len(v), round(pct(v, 50), 1), round(max(v), 1)]
            for sec, v in sorted(by_second.items())
        ],
        "loadavg_1m": [round(x, 2) for x in run.load],
        "nproc": os.cpu_count(),
    }
    for key in ("p50_ms", "p95_ms", "p99_ms", "max_ms"):
        if result[key] is not None:
            result[key] = round(result[key], 1)
    return result


def summary_line(r: dict) -> str:
    return (
        f"{r['backend']}/{r['procs']}p{'s' if r.get('sticky') else ''}"
        f"{'/html' if r.get('frame_format') == 'html' else ''} {r['mode']} T={r['tables']} "
        f"(seated {r['tables_seated']}): sockets={r['sockets']} "
        f"window={r['window_s']}s actions={r['actions_in_window']} ({r['actions_per_s']}/s, "
        f"in-hand {r['in_hand_actions_per_s']}/s) p50={r['p50_ms']} p95={r['p95_ms']} "
        f"p99={r['p99_ms']} ms (n={r['measured']}) daphne {r['daphne_cpu_ms_per_action']} "
        f"ms CPU/action; sent {r['sent_total']} = saved {r['saved_total']} + rejected "
        f"{sum(r['errors'].values())} (unaccounted {r['unaccounted']}); acked {r['acked_total']} "
        f"(acked_not_saved={r['acked_not_saved']}, saved_not_acked={r['saved_not_acked']}) "
        f"wrong_view={r['wrong_view_frames']} errors={r['errors']} closed={r['closed']} "
        f"events_by={r['events_by']} resyncs={r['resyncs']} paced={r['paced_sends']} "
        f"connect_retries={r['connect_retries']} "
        f"connect_fail={r['connect_fail']} ramp={r['ramp_s']}s load={r['loadavg_1m']}"
    )


def one_run(args) -> dict:
    raise_nofile()
    var_dir = Path(tempfile.mkdtemp(prefix=f"leyou-bench-{args.backend}-"))
    env = bench_env(args.backend, var_dir, args.settings)
    log(f"preparing {args.backend} database (var dir {var_dir})")
    prepare_database(args.backend, var_dir, env)
    django_setup(env)
    from games.models import Table

    t = time.perf_counter()
    room = make_room()
    players = make_players(3 * args.tables, prefix=f"b{int(time.time())}_")
    log(f"{len(players)} players with sessions in {time.perf_counter() - t:.1f}s")
    from django.db import connection

    connection.close()
    procs = Procs(env, var_dir)
    try:
        ports, dpids = [], []
        for i in range(args.procs):
            port, pid = procs.daphne(f"daphne{i}", gc_probe=args.gc_probe)
            ports.append(port)
            dpids.append(pid)
        # as runplatform: on the in-memory layer the clock runs inside the (one) Daphne
        clock_pid = procs.clock() if args.backend == "pg" else dpids[0]
        worker_pid = procs.worker()
        time.sleep(1.0)
        prof = None
        if args.profile:
            prof_out = Path(args.profile)
            prof = subprocess.Popen(
                [
                    os.environ.get("BENCH_PY_SPY") or str(BIN / "py-spy"),
                    "record",
                    "-p",
                    str(dpids[0]),
                    "-r",
                    "100",
                    "-f",
                    "raw",
                    "--gil",
                    "-d",
                    str(int(args.warmup + args.duration + 60)),
                    "-o",
                    str(prof_out),
                    "--nonblocking",
                ],
                stdout=subprocess.DEVNULL,
                stderr=open(var_dir / "pyspy.log", "ab"),
            )

        async def main():
            run_holder = {}
            c0 = time.process_time()

            async def go():
                run_holder["run"] = await drive_with_pids(
                    args, ports, room.pk, players, dpids, clock_pid, worker_pid, procs
                )

            await asyncio.wait_for(go(), timeout=args.hard_limit)
            run_holder["run"].client_cpu = time.process_time() - c0
            return run_holder["run"]

        run = asyncio.run(main())
        if prof is not None:
            prof.send_signal(signal.SIGINT)
            try:
                prof.wait(timeout=60)
            except subprocess.TimeoutExpired:
                prof.kill()
        table_ids = set(Table.objects.filter(room_id=room.pk).values_list("pk", flat=True))
        result = analyse(args, run, table_ids)
        result["var_dir"] = str(var_dir)
    finally:
        procs.stop()
    return result


async def drive_with_pids(
    args, ports, room_id, players, dpids, clock_pid, worker_pid, procs=None
) -> Run:
    # the pids are needed inside drive() for CPU sampling at the window's edges
    orig_init = Run.__init__

    def init(self, a):
        orig_init(self, a)
        self.daphne_pids, self.clock_pid, self.worker_pid = dpids, clock_pid, worker_pid
        self.gc_read = procs.gc_read if args.gc_probe else None
        self.pids = list(dict.fromkeys([*dpids, clock_pid, worker_pid]))

    Run.__init__ = init
    try:
        return await drive(args, ports, room_id, players)
    finally:
        Run.__init__ = orig_init


# --- per-call costs (in-process, no sockets): what one action costs the server ------------------


def micro(args) -> dict:
    """Time the pieces of one action on a mid-hand table: the move, the per-seat render, hops."""
    var_dir = Path(tempfile.mkdtemp(prefix=f"leyou-bench-micro-{args.backend}-"))
    env = bench_env(args.backend, var_dir, args.settings)
    prepare_database(args.backend, var_dir, env)
    django_setup(env)
    from asgiref.sync import async_to_sync
    from channels.db import database_sync_to_async
    from django.db import close_old_connections, connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    from accounts.models import User
    from games import caches, rendering
    from games.engine import registry
    from games.selectors import tables as table_selectors
    from games.services import tables

    rules = registry.get("doudizhu")
    room = make_room()
    players = make_players(3 * 40, prefix=f"u{int(time.time())}_")
    users = {uid: User.objects.get(pk=uid) for uid, _ in players}
    out: dict = {"backend": args.backend, "settings": args.settings}

    def timed(fn, n, rounds=5):
        # the median of several rounds: the machine is shared, single rounds are noisy
        per = []
        for _ in range(rounds):
            t = time.perf_counter()
            for _ in range(max(1, n // rounds)):
                fn()
            per.append(1000 * (time.perf_counter() - t) / max(1, n // rounds))
        return statistics.median(per)

    # moves: play whole hands through the service, as the consumer does (one call per action)
    move_ms, move_queries, n_moves = [], [], 0
    table_ids = []
    for t in range(40):
        uids = [players[3 * t + s][0] for s in range(3)]
        table_id = seat_table(room.pk, uids)
        table_ids.append(table_id)
        for k in range(200):
            if t == 39 and k == 20:
                break  # leave the last table mid-hand (playing phase) for the render timings
            snap = table_selectors.table_snapshot(table_id)
            hand = snap["hand"]
            if hand is None or hand["status"] != "playing":
                break
            state = rules.state_from_json(hand["state"])
            seat = min(rules.to_act(state))
            view = json.loads(json.dumps(rules.view(state, seat)))
            action = choose(view, seat)
            reset_queries()
            with CaptureQueriesContext(connection) as q:
                t0 = time.perf_counter()
                tables.move_submit(
                    table_id=table_id,
                    user=users[uids[seat]],
                    action=action,
                    expected_seq=snap["table"]["seq"],
                    action_id=f"m{t}-{n_moves}",
                )
                move_ms.append(1000 * (time.perf_counter() - t0))
            move_queries.append(len(q.captured_queries))
            n_moves += 1
    out["move_submit_ms_median"] = round(statistics.median(move_ms), 2)
    out["move_submit_ms_mean"] = round(statistics.mean(move_ms), 2)
    out["move_submit_queries_median"] = statistics.median(move_queries)
    out["moves_timed"] = len(move_ms)

    # a mid-hand table: render costs per frame (what each socket does on every broadcast)
    table_id = table_ids[-1]
    uids = [players[3 * 39 + s][0] for s in range(3)]
    tables_hand = table_selectors.table_snapshot(table_id)["hand"]
    user = users[uids[0]]
    n = 300
    out["table_snapshot_ms"] = round(timed(lambda: table_selectors.table_snapshot(table_id), n), 3)
    out["seat_index_ms"] = round(
        timed(lambda: table_selectors.seat_index_for_user(table_id, user), n), 3
    )
    snap = table_selectors.table_snapshot(table_id)
    out["render_json_warm_ms"] = round(timed(lambda: rendering.render_json(snap, 0, user), n), 3)

    def cold():
        caches.clear_all()
        rendering.render_json(snap, 0, user)

    out["render_json_cold_ms"] = round(timed(cold, n), 3)
    out["state_from_json_ms"] = round(
        timed(lambda: rules.state_from_json(tables_hand["state"]), n), 3
    )
    st = rules.state_from_json(tables_hand["state"])
    out["engine_view_ms"] = round(timed(lambda: rules.view(st, 0), n), 3)
    out["frame_bytes"] = len(rendering.render_json(snap, 0, user))
    out["state_json_bytes"] = len(json.dumps(tables_hand["state"]))
    reset_queries()
    with CaptureQueriesContext(connection) as q:
        table_selectors.table_snapshot(table_id)
        table_selectors.seat_index_for_user(table_id, user)
    out["render_queries"] = len(q.captured_queries)
    out["render_html_ms"] = round(timed(lambda: rendering.render_html(snap, 0, user), 100), 3)

    # the full per-frame work of TableConsumer._render, with the connection hop the consumer pays
    def full_render():
        s = table_selectors.table_snapshot(table_id)
        seat = table_selectors.seat_index_for_user(table_id, user)
        rendering.render_json(s, seat, user)

    out["consumer_render_ms"] = round(timed(full_render, n), 3)

    def fresh_connection_render():
        connection.close()  # CONN_MAX_AGE 0 (the SQLite default): every hop opens a connection
        full_render()

    out["consumer_render_new_connection_ms"] = round(timed(fresh_connection_render, 100), 3)

    async def hops(k):
        noop = database_sync_to_async(lambda: None)
        t = time.perf_counter()
        for _ in range(k):
            await noop()
        return 1000 * (time.perf_counter() - t) / k

    out["db_sync_to_async_hop_ms"] = round(async_to_sync(hops)(500), 3)
    out["close_old_connections_ms"] = round(timed(close_old_connections, n), 3)
    connection.close()
    return out


def default_duration(mode: str, tables: int) -> float:
    if mode == "sat":
        return 30.0
    # human pace: about T/3 actions per second; at least ~1000 actions, 30 s..300 s
    return max(30.0, min(300.0, 1000 / (tables / 3.0)))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--backend", choices=["sqlite", "pg"], default="sqlite")
    parser.add_argument("--mode", choices=["human", "sat"], default="human")
    parser.add_argument("--tables", default="10", help="one count, or several comma-separated")
    parser.add_argument(
        "--procs", type=int, default=None, help="Daphne processes (sqlite: 1, pg: 2)"
    )
    parser.add_argument(
        "--sticky",
        action="store_true",
        help="all sockets of a table on one Daphne (a load balancer hashing the "
        "/ws/table/<id>/ path); default: round-robin per socket",
    )
    parser.add_argument("--duration", type=float, default=None, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=None)
    parser.add_argument("--drain", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--frames",
        choices=["json", "html"],
        default="json",
        help="what the clients ask for: JSON views (?format=json) or the HTML "
        "boards a browser gets (rendered per seat by the server)",
    )
    parser.add_argument("--connect-concurrency", type=int, default=20)
    parser.add_argument("--connect-attempts", type=int, default=4)
    parser.add_argument("--open-timeout", type=float, default=20.0)
    parser.add_argument(
        "--poll",
        type=float,
        default=None,
        help="send a resync after this many seconds without a frame (0: never; "
        "default 2 on sqlite, where the clock's moves are not pushed, else 0)",
    )
    parser.add_argument("--settings", default="config.settings.local")
    parser.add_argument("--hard-limit", type=float, default=900.0)
    parser.add_argument(
        "--ramp-limit",
        type=float,
        default=240.0,
        help="stop seating tables after this many seconds and measure those",
    )
    parser.add_argument("--profile", default="", help="py-spy raw output path (first Daphne)")
    parser.add_argument(
        "--gc-probe",
        action="store_true",
        help="run the Daphnes through bench/gc_probe.py and report their collector's time",
    )
    parser.add_argument("--json", default=str(ROOT / "var" / "bench" / "table_load.jsonl"))
    parser.add_argument(
        "--micro",
        action="store_true",
        help="time the pieces of one action in-process (no servers) and exit",
    )
    args = parser.parse_args()
    if args.micro:
        result = micro(args)
        result["date"] = time.strftime("%Y-%m-%dT%H:%M:%S")
        print(json.dumps(result, ensure_ascii=False), flush=True)
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        with open(Path(args.json).with_name("micro.jsonl"), "a") as fh:
            fh.write(json.dumps(result, ensure_ascii=False) + "\n")
        return
    counts = [int(x) for x in str(args.tables).split(",") if x]
    if args.procs is None:
        args.procs = 1 if args.backend == "sqlite" else 2
    if args.backend == "sqlite" and args.procs != 1:
        parser.error("the in-memory channel layer cannot span processes: --procs 1")
    if args.poll is None:
        args.poll = 0.0  # the clock's pushes reach the sockets on both backends now
    if len(counts) > 1:
        for n in counts:
            cmd = [PY, __file__, *list(sys.argv[1:])]
            i = cmd.index("--tables")
            cmd[i + 1] = str(n)
            if args.profile:
                j = cmd.index("--profile")
                cmd[j + 1] = f"{args.profile}.T{n}"
            subprocess.run(cmd, timeout=args.hard_limit + 300)
        return
    args.tables = counts[0]
    if args.duration is None:
        args.duration = default_duration(args.mode, args.tables)
    if args.warmup is None:
        args.warmup = 10.0 if args.mode == "human" else 5.0
    result = one_run(args)
    result["date"] = time.strftime("%Y-%m-%dT%H:%M:%S")
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    with open(args.json, "a") as fh:
        fh.write(json.dumps(result, ensure_ascii=False) + "\n")
    print(summary_line(result), flush=True)


if __name__ == "__main__":
    main()
