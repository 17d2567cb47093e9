"""Per-user socket caps across server processes, and the wait after a rate close.

One user must not hold enough sockets to slow everyone else down, whichever kind they are
(``table``, ``wheel`` — 大豐收 —, ``lobby``) and whichever process serves them. Each open socket
is a member of its user's set for its kind, scored by when its process last vouched for it:
the presence heartbeat (``games.presence_server``) re-adds every socket its process holds open
now, so a socket that is gone — its process died, or its close never ran — stops counting
once two beats have missed it (``_window``), and a Redis that lost its data (a restart,
``FLUSHALL``) is filled again by the next beat.

A socket closed 1008 for its frame rate marks its user and kind for
``WS_RATE_COOLDOWN_SECONDS``: a socket of that kind opened meanwhile is refused, so closing a
flooding socket is not undone by reconnecting at once.

With ``REDIS_URL`` the sets live in Redis (every process counts the same sockets); without it
(the embedded default: one process) in this process's memory. The calls are blocking: the
consumers run them on ``thread``, off the event loop and off the database threads.
"""

from __future__ import annotations

import hashlib
import math
import threading
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games import redis_state
from games.exceptions import ReconnectTooSoon, TooManySockets

KINDS = ("table", "wheel", "lobby")
_PREFIX = "leyou:sockets"

_executor: ThreadPoolExecutor | None = None
# without Redis: (kind, user) -> {member: stamp}, and (kind, user) -> cool-down end (time.time())
_local: dict[tuple[str, int], dict[str, float]] = {}
_local_cool: dict[tuple[str, int], float] = {}
_local_session_cool: dict[str, float] = {}
_local_lock = threading.Lock()


def thread() -> ThreadPoolExecutor:
    """The thread the consumers' calls here run on (a slow Redis holds no database thread)."""
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="leyou-sockets")
    return _executor


def redis_client():
    """The process's Redis client for shared state (None without ``REDIS_URL``)."""
    return redis_state.client()


def _cap(kind: str) -> int:
    return int(settings.LEYOU["SOCKETS_PER_USER"][kind])


def _window() -> float:
    """How long a socket counts after its process last vouched for it: two heartbeats and a
    second (at most the lease). A process stalled longer only lets its users open more."""
    conf = settings.LEYOU
    return min(float(conf["PRESENCE_LEASE_SECONDS"]), 2 * conf["PRESENCE_HEARTBEAT_SECONDS"] + 1)


def _cooldown() -> float:
    return float(settings.LEYOU["WS_RATE_COOLDOWN_SECONDS"])


def _key(kind: str, user_id: int) -> str:
    return f"{_PREFIX}:{kind}:{user_id}"


def _cool_key(kind: str, user_id: int) -> str:
    return f"{_PREFIX}:cool:{kind}:{user_id}"


def _too_soon(seconds: float) -> ReconnectTooSoon:
    return ReconnectTooSoon(
        format_lazy(_("連線過於頻繁，請 {seconds} 秒後再連"), seconds=max(1, math.ceil(seconds)))
    )


def _too_many(cap: int) -> TooManySockets:
    return TooManySockets(format_lazy(_("每位玩家此類連線最多 {cap} 個"), cap=cap))


def claim(kind: str, user_id: int, member: str) -> None:
    """Count a new socket of the user's; raise ``ReconnectTooSoon`` while the user waits after
    a rate close, ``TooManySockets`` past the kind's cap (then nothing is counted)."""
    cap, now = _cap(kind), time.time()
    client = redis_client()
    if client is None:
        with _local_lock:
            left = _local_cool.get((kind, user_id), 0.0) - now
            if left > 0:
                raise _too_soon(left)
            held = _local.setdefault((kind, user_id), {})
            for old, stamp in list(held.items()):
                if stamp < now - _window():
                    del held[old]
            if len(held) >= cap:
                raise _too_many(cap)
            held[member] = now
        return
    counted, cool_ms = client.eval(
        _CLAIM,
        2,
        _key(kind, user_id),
        _cool_key(kind, user_id),
        now - _window(),
        now,
        cap,
        member,
        math.ceil(_window() * 4),
    )
    if counted == -1:
        raise _too_soon(cool_ms / 1000)
    if counted == -2:
        raise _too_many(cap)


# One round trip, atomic: the wait, then the live count, then the socket counted only if it
# fits (a socket refused is never counted, not even for an instant).
_CLAIM = """
local cool = redis.call('PTTL', KEYS[2])
if cool > 0 then return {-1, cool} end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return {-2, 0} end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return {redis.call('ZCARD', KEYS[1]), 0}
"""


def release(kind: str, user_id: int, member: str) -> None:
    """The socket closed: it no longer counts."""
    client = redis_client()
    if client is None:
        with _local_lock:
            _local.get((kind, user_id), {}).pop(member, None)
        return
    client.zrem(_key(kind, user_id), member)


def refresh(members: Iterable[tuple[str, int, str]]) -> None:
    """The heartbeat: every (kind, user, member) this process holds open counts again from now
    (re-added if Redis lost it); one pipeline for all."""
    now = time.time()
    by_key: dict[tuple[str, int], list[str]] = {}
    for kind, user_id, member in members:
        by_key.setdefault((kind, user_id), []).append(member)
    client = redis_client()
    if client is None:
        with _local_lock:
            for (kind, user_id), names in by_key.items():
                held = _local.setdefault((kind, user_id), {})
                for name in names:
                    held[name] = now
        return
    if not by_key:
        return
    pipe = client.pipeline(transaction=False)
    for (kind, user_id), names in by_key.items():
        key = _key(kind, user_id)
        pipe.zadd(key, dict.fromkeys(names, now))
        pipe.expire(key, math.ceil(_window() * 4))
    pipe.execute()


def _session_cool_key(kind: str, session_key: str) -> str:
    digest = hashlib.sha256(session_key.encode()).hexdigest()[:32]
    return f"{_PREFIX}:cool-session:{kind}:{digest}"


def cooldown_start(kind: str, user_id: int, session_key: str | None = None) -> None:
    """The user's socket of this kind was closed for its rate: refuse the kind for a while —
    to the user (any session), and to this session before it is even looked up."""
    seconds = _cooldown()
    if seconds <= 0:
        return
    until = time.time() + seconds
    client = redis_client()
    if client is None:
        with _local_lock:
            _local_cool[(kind, user_id)] = until
            if session_key:
                _local_session_cool[_session_cool_key(kind, session_key)] = until
        return
    pipe = client.pipeline()
    pipe.set(_cool_key(kind, user_id), 1, px=int(seconds * 1000))
    if session_key:
        pipe.set(_session_cool_key(kind, session_key), 1, px=int(seconds * 1000))
    pipe.execute()


def session_waiting(kind: str, session_key: str) -> bool:
    """Whether this session waits after a rate close of this kind (one Redis read, no
    database: the gate in front of the session and user lookups asks it)."""
    key = _session_cool_key(kind, session_key)
    client = redis_client()
    if client is None:
        with _local_lock:
            return _local_session_cool.get(key, 0.0) > time.time()
    return bool(client.exists(key))


def held(kind: str, user_id: int) -> int:
    """How many live sockets of this kind the user holds (every process): tests, operators."""
    now = time.time()
    client = redis_client()
    if client is None:
        with _local_lock:
            stamps = _local.get((kind, user_id), {}).values()
            return sum(1 for stamp in stamps if stamp >= now - _window())
    return int(client.zcount(_key(kind, user_id), now - _window(), "+inf"))
