"""This server process's side of presence (出席): the registry of its open sockets, the
heartbeat, the per-user rate limit, and the graceful stop on SIGTERM.

The registry (``socket_add`` / ``socket_remove``; every kind: table, 大豐收, lobby) is the one
truth of which sockets this process holds open now. A socket is listed before it takes its
lease and unlisted when its consumer ends, however it ends (a close, a raising handler, a
handler killed on shutdown: ``games.consumers.base.TrackedSocketMixin``). The heartbeat vouches
only for what is listed: it renews those sockets' leases and counts them toward their users'
socket caps (``games.socket_limits``), and gives up any other lease of this process, so a
lease cannot outlive its socket by more than a beat.

The heartbeat also watches the channel layer: when Redis comes back empty (a restart without
its data, ``FLUSHALL``) or after a beat that could not reach it, every listed socket joins its
groups again and is sent a fresh view, so no board stays frozen.

The rows and rules live in ``games.services.presence``; what is read for operators is
``sockets_open`` (this process) and ``presence.leases_by_process`` (every process).
"""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from games import socket_limits
from games.services import presence

logger = logging.getLogger("leyou.presence")
CLOSE_SERVICE_RESTART = 1012

_sockets: dict[str, Any] = {}  # registry key (a table socket's lease key) -> consumer
_user_buckets: dict[int, tuple[object, int]] = {}  # user id -> (bucket, sockets using it)
_started = None  # the event loop the heartbeat runs on
_layer = {"reached": False}  # did the last beat reach Redis?
REJOIN_BATCH = 50  # sockets rejoining their groups at once after the layer lost them


def _under_twisted() -> bool:
    import sys

    if "twisted.internet.reactor" not in sys.modules:
        return False
    from twisted.internet import reactor

    return bool(reactor.running)


def socket_add(key: str, consumer) -> None:
    """List an open socket (before it takes its lease: the beat must not take it for gone)."""
    _sockets[key] = consumer


def socket_remove(key: str) -> None:
    _sockets.pop(key, None)


def socket_listed(key: str) -> bool:
    return key in _sockets


def sockets_open(kind: str | None = None) -> int:
    """How many sockets this process holds open now (of one kind: table, wheel, lobby)."""
    if kind is None:
        return len(_sockets)
    return sum(1 for consumer in _sockets.values() if consumer.socket_kind == kind)


def _lease_keys() -> list[str]:
    return [key for key, consumer in _sockets.items() if consumer.socket_kind == "table"]


def user_bucket(user_id: int, make):
    """The user's token bucket in this process (all the user's sockets draw from it)."""
    bucket, users = _user_buckets.get(user_id, (None, 0))
    if bucket is None:
        bucket = make()
    _user_buckets[user_id] = (bucket, users + 1)
    return bucket


def user_bucket_release(user_id: int) -> None:
    bucket, users = _user_buckets.get(user_id, (None, 0))
    if users <= 1:
        _user_buckets.pop(user_id, None)
    else:
        _user_buckets[user_id] = (bucket, users - 1)


async def _close_all(keys) -> None:
    for key in list(keys):
        consumer = _sockets.pop(key, None)
        if consumer is not None:
            consumer.closing = True
            try:
                await consumer.close(code=CLOSE_SERVICE_RESTART)
            except Exception:  # the transport may be gone already
                logger.debug("close of %s failed", key, exc_info=True)


_executor = None


def _heartbeat_thread():
    """The heartbeat's own database thread: never queued behind the sockets' service calls."""
    global _executor
    if _executor is None:
        from concurrent.futures import ThreadPoolExecutor

        _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="leyou-heartbeat")
    return _executor


def _shared_beat(members: list[tuple[str, int, str]], first: bool) -> bool:
    """The Redis side of a beat (on the heartbeat's thread): count the open sockets toward
    their users' caps again, and say whether the channel layer must be joined again (Redis
    lost this process's mark: it restarted empty or was flushed)."""
    socket_limits.refresh(members)
    client = socket_limits.redis_client()
    if client is None:
        return False
    mark = f"leyou:layer:{presence.PROCESS_ID}"
    seconds = max(60, int(6 * settings.LEYOU["PRESENCE_HEARTBEAT_SECONDS"]))
    pipe = client.pipeline()
    pipe.exists(mark)
    pipe.set(mark, 1, ex=seconds)
    existed, _ = pipe.execute()
    return not existed and not first


async def _rejoin_all() -> int:
    """Every listed socket joins its channel groups again and gets a fresh view."""
    consumers = list(_sockets.values())
    for start in range(0, len(consumers), REJOIN_BATCH):
        batch = [c for c in consumers[start : start + REJOIN_BATCH] if not c.closing]
        results = await asyncio.gather(*(c.layer_rejoin() for c in batch), return_exceptions=True)
        failed = [r for r in results if isinstance(r, Exception)]
        if failed:
            logger.warning("presence: %d sockets could not rejoin: %r", len(failed), failed[0])
    return len(consumers)


async def beat(first: bool = False) -> None:
    """One heartbeat: leases (database), then socket caps and the channel layer (Redis).

    A failure of one side does not skip the other: with Redis down the leases are still
    renewed and orphans closed, and the next beat that reaches Redis rejoins the groups.
    """
    before = timezone.now()
    live = _lease_keys()  # after ``before``: a socket listed later took its lease after it
    # the sockets whose lease was taken (committed) before the renewal: one missing from its
    # answer was expired under us; a socket still connecting has no lease yet
    taken = [key for key in live if getattr(_sockets.get(key), "lease_taken", False)]
    try:
        held = await database_sync_to_async(
            presence.heartbeat, thread_sensitive=False, executor=_heartbeat_thread()
        )(live, before=before)
        lost = [key for key in taken if key not in held and key in _sockets]
        if lost:
            logger.warning("presence: %d leases expired under us; closing them", len(lost))
            await _close_all(lost)
    except Exception:
        logger.exception("presence heartbeat failed (leases)")
    members = [
        (c.socket_kind, c.cap_user_id, c.cap_member)
        for c in _sockets.values()
        if getattr(c, "cap_member", None)
    ]
    try:
        lost_layer = await asyncio.get_running_loop().run_in_executor(
            _heartbeat_thread(), _shared_beat, members, first
        )
    except Exception as error:  # Redis down: the next beat that reaches it rejoins
        if _layer["reached"]:
            logger.warning("presence: Redis unreachable (%r)", error)
        _layer["reached"] = False
        return
    if lost_layer or not _layer["reached"] and not first:
        logger.warning(
            "presence: the channel layer lost its groups; %d sockets rejoin", len(_sockets)
        )
        await _rejoin_all()
    _layer["reached"] = True


async def heartbeat_run() -> None:
    """``beat`` every PRESENCE_HEARTBEAT_SECONDS.

    A socket whose lease is gone (the process stalled past the lease and the clock expired it)
    is closed with 1012, so its client reconnects and takes a fresh lease.
    """
    first = True
    while True:
        await asyncio.sleep(settings.LEYOU["PRESENCE_HEARTBEAT_SECONDS"])
        try:
            await beat(first)
        except Exception:
            logger.exception("presence heartbeat failed")
        first = False


_on_stop: list = []  # what else of this process stops with it (the clock run inside it)


def on_stop(callback) -> None:
    """Call ``callback()`` first when this process stops normally."""
    _on_stop.append(callback)


async def shutdown() -> None:
    """A normal stop: close every socket with 1012, give up the leases, then stop."""
    for callback in _on_stop:
        callback()
    logger.info("presence: stopping, closing %d sockets with 1012", len(_sockets))
    await _close_all(list(_sockets))
    try:
        released = await database_sync_to_async(presence.process_release)()
        logger.info("presence: gave up %d leases", released)
    except Exception:
        logger.exception("presence: giving up leases failed")


def _twisted_stop() -> None:
    try:
        from twisted.internet import reactor

        if reactor.running:
            reactor.callLater(0.2, reactor.stop)  # let the close frames go out first
            return
    except Exception:
        pass
    raise SystemExit(0)


def start(loop: asyncio.AbstractEventLoop) -> None:
    """Once per process, from the first ASGI call: the heartbeat, and SIGTERM → graceful stop."""
    global _started
    if _started is loop:
        return
    first = _started is None
    _started = loop  # (a test's new event loop gets its own heartbeat)
    loop.create_task(heartbeat_run())
    if not first or not _under_twisted():
        return  # signals: only a Daphne (Twisted) server's, never a test runner's
    stopping = []

    def on_term(signum, frame) -> None:
        if stopping:  # a second TERM: stop now
            _twisted_stop()
            return
        stopping.append(True)

        async def stop() -> None:
            try:
                await asyncio.wait_for(shutdown(), timeout=10)
            finally:
                _twisted_stop()

        loop.call_soon_threadsafe(lambda: loop.create_task(stop()))

    try:
        signal.signal(signal.SIGTERM, on_term)  # replaces Twisted's: it would not close 1012
        signal.signal(signal.SIGINT, on_term)
    except ValueError:  # not the main thread (a test server): no signal handling
        pass
