"""``./leyou start`` as a newcomer runs it: SQLite in a fresh directory, the in-memory layer.

The same three commands as the README's start (``migrate``, ``seed_demo``, ``runplatform``),
with no DATABASE_URL and no REDIS_URL, in a temporary ``LEYOU_VAR_DIR``. Then, over HTTP and
real WebSockets: a player registers for each table game, quick-joins its first demo room,
turns 托管 on and lets the bots and the server's clock play the hand to its settlement; the
hall's pages (lobby, rooms, every leaderboard, profile, tasks, replays, 大豐收's wheel, the
rules pages) are opened in the three languages. Any traceback, ERROR line or HTTP 500 in the
server's log fails the test: the embedded default is the product a newcomer meets first.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from tests.live.conftest import ROOT, _wait_port, free_port

pytestmark = [pytest.mark.live, pytest.mark.slow]

LANGUAGES = ("zh-hant", "zh-hans", "en")
# what a log of a healthy run never contains
BAD_LINE = re.compile(r"Traceback|\bERROR\b|Internal Server Error|sweep failed|\" 500 ")


def _env(var_dir: str) -> dict:
    """The environment of ``./leyou start``: no servers named, the local settings."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.pop("DJANGO_SETTINGS_MODULE", None)  # manage.py's default: config.settings.local
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    env["LEYOU_VAR_DIR"] = var_dir
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _manage(env: dict, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


class Browser:
    """One person's cookies over plain HTTP (a session, the CSRF token, the language)."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def language(self, code: str) -> None:
        self.jar.set_cookie(
            http.cookiejar.Cookie(
                0, "django_language", code, None, False, "127.0.0.1", False, False, "/",
                True, False, None, False, None, None, {},
            )
        )  # fmt: skip

    def get(self, path: str) -> tuple[int, str, str]:
        try:
            with self.opener.open(self.base + path, timeout=30) as response:
                return response.status, response.geturl(), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, path, error.read().decode(errors="replace")

    def post(self, path: str, data: dict) -> tuple[int, str, str]:
        token = self.cookie("csrftoken")
        if token is None:
            self.get("/accounts/login/")
            token = self.cookie("csrftoken")
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **data}).encode()
        request = urllib.request.Request(
            self.base + path, data=body, headers={"Referer": self.base + path}
        )
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.geturl(), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, path, error.read().decode(errors="replace")

    def register(self, username: str) -> None:
        self.get("/accounts/register/")
        status, url, _ = self.post(
            "/accounts/register/",
            {"username": username, "password1": "Pw-for-tests-9", "password2": "Pw-for-tests-9"},
        )
        assert status == 200 and urllib.parse.urlparse(url).path == "/", (status, url)


def _ws(port: int, path: str, browser: Browser):
    from websockets.sync.client import connect

    cookie = "; ".join(f"{c.name}={c.value}" for c in browser.jar)
    return connect(
        f"ws://127.0.0.1:{port}{path}",
        additional_headers={"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"},
        open_timeout=10,
        max_size=2**22,
        ping_interval=None,  # read in turns with other sockets: no keepalive to time out
    )


@pytest.fixture
def platform():
    """``./leyou start`` on a free port in a fresh directory; yields (port, log path, env)."""
    with tempfile.TemporaryDirectory(prefix="leyou-start-") as var_dir:
        env = _env(var_dir)
        _manage(env, "migrate", "--noinput", "-v", "0")
        _manage(env, "seed_demo")
        port = free_port()
        log_path = os.path.join(var_dir, "platform.log")
        with open(log_path, "wb") as log:
            proc = subprocess.Popen(
                [sys.executable, "manage.py", "runplatform", "--port", str(port)],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            _wait_port(port, timeout=60)
            yield port, log_path, env
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
            with open(log_path, errors="replace") as f:
                kept = f.read()
            os.makedirs(os.path.join(ROOT, "var"), exist_ok=True)
            with open(os.path.join(ROOT, "var", "live-start-platform.log"), "w") as f:
                f.write(kept)  # to read when the test fails


def _rooms(env: dict) -> list[dict]:
    out = _manage(
        env,
        "shell",
        "-c",
        "import json; from lobby.models import Room; "
        "print(json.dumps(list(Room.objects.order_by('game', 'sort_order', 'pk')"
        ".values('pk', 'game', 'variant', 'name'))))",
    )
    return json.loads(out.strip().splitlines()[-1])


def _play_with_auto(port: int, browser: Browser, room: dict) -> tuple[int, object]:
    """Quick-join the room, open the table's socket and turn 托管 on: (table id, socket)."""
    status, url, _ = browser.post(f"/rooms/{room['pk']}/quick/", {})
    match = re.search(r"/games/table/(\d+)/", url)
    assert status == 200 and match, (room, status, url)
    table_id = int(match.group(1))
    ws = _ws(port, f"/ws/table/{table_id}/?format=json", browser)
    ws.send(json.dumps({"kind": "auto", "on": True}))
    return table_id, ws


def _settled(ws, deadline: float) -> dict | None:
    """Read the socket until a frame says the hand is over and settled (or the deadline)."""
    while time.time() < deadline:
        try:
            frame = json.loads(ws.recv(timeout=0.5))
        except TimeoutError:
            return None
        if frame.get("type") == "table" and frame.get("view") and frame.get("hand"):
            if frame["view"].get("phase") == "over" and frame["hand"].get("settled"):
                return frame
    return None


def test_start_plays_every_game_and_logs_no_error(platform):
    """A hand of every game settles over real sockets on ./leyou start's platform; every hall
    page answers 200 in three languages; the server's log has no traceback, ERROR or 500."""
    port, log_path, env = platform
    rooms = _rooms(env)
    table_rooms: dict[str, dict] = {}
    for room in rooms:
        if room["game"] != "dafengshou":
            table_rooms.setdefault(room["game"], room)
    wheel = next(r for r in rooms if r["game"] == "dafengshou")
    assert len(table_rooms) >= 6, table_rooms

    # one newcomer per game, each at his own table: the hands are played side by side
    players: dict[str, tuple[Browser, int, object]] = {}
    for n, (game, room) in enumerate(sorted(table_rooms.items())):
        browser = Browser(port)
        browser.register(f"walker{n}")
        table_id, ws = _play_with_auto(port, browser, room)
        players[game] = (browser, table_id, ws)

    # 大豐收: a newcomer stakes 10 beans on the round open now; checked after the hands
    bettor = Browser(port)
    bettor.register("walker_wheel")
    page = bettor.get(f"/games/wheel/{wheel['pk']}/")[2]
    number = int(re.search(r'id="wheel-round-total"[^>]*data-number="(\d+)"', page).group(1))
    wheel_ws = _ws(port, f"/ws/wheel/{wheel['pk']}/", bettor)
    wheel_ws.send(
        json.dumps(
            {"kind": "bet", "object": "apple", "amount": 10, "round": number, "action_id": "w1"}
        )
    )

    deadline = time.time() + 240
    finished: dict[str, dict] = {}
    while len(finished) < len(players) and time.time() < deadline:
        for game, (_, _, ws) in players.items():
            if game in finished:
                continue
            frame = _settled(ws, deadline)
            if frame is not None:
                finished[game] = frame
    for _, _, ws in players.values():
        ws.close()
    assert set(finished) == set(players), f"hands not settled: {set(players) - set(finished)}"

    # the hall, in every language, as one of the players (his tables, his replays)
    browser, table_id, _ = players["doudizhu"]
    me = re.search(r"/accounts/u/(\d+)/", browser.get("/accounts/profile/")[2])
    pages = [
        "/",
        "/rooms/",
        "/accounts/profile/",
        f"/games/table/{table_id}/",
        f"/games/wheel/{wheel['pk']}/",
    ]
    if me:
        pages.append(f"/accounts/u/{me.group(1)}/")
    for game in sorted(table_rooms):
        for period in ("today", "week", "all"):
            pages.append(f"/leaderboard/?game={game}&period={period}")
        pages.append(f"/leaderboard/?game={game}&period=week&metric=beans")
    replay_ids = sorted(set(re.findall(r"/games/replay/(\d+)/", browser.get("/")[2])))
    replay_ids += sorted(
        set(re.findall(r"/games/replay/(\d+)/", browser.get("/accounts/profile/")[2]))
    )
    pages += [f"/games/replay/{h}/" for h in sorted(set(replay_ids))]
    pages += sorted(set(re.findall(r'href="(/rules/[^"]+)"', browser.get("/")[2])))
    failures = []
    for code in LANGUAGES:
        browser.language(code)
        for path in pages:
            status, _, body = browser.get(path)
            if status != 200:
                failures.append((code, path, status))
    assert not failures, failures

    # 大豐收: the round staked on closed, spun and paid; the next one is open
    later = None
    wheel_deadline = time.time() + 60
    while later is None and time.time() < wheel_deadline:
        try:
            frame = wheel_ws.recv(timeout=1)
        except TimeoutError:
            wheel_ws.send(json.dumps({"kind": "ping"}))
            continue
        found = re.search(r'id="wheel-round-total"[^>]*data-number="(\d+)"', frame)
        if found and int(found.group(1)) > number:
            later = int(found.group(1))
    wheel_ws.close()
    assert later is not None, "the wheel's round never moved on"
    history = bettor.get(f"/games/wheel/{wheel['pk']}/verify/{number}/")
    assert history[0] == 200, history[0]

    time.sleep(2)  # a last sweep of the clock with the tables between hands
    with open(log_path, errors="replace") as f:
        bad = [line.rstrip() for line in f if BAD_LINE.search(line)]
    assert not bad, "the server logged errors:\n" + "\n".join(bad[:40])
