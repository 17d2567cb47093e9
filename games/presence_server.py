"""This server process's side of presence (出席): its open table sockets, the heartbeat that
renews their leases, the per-user rate limit, and the graceful stop on SIGTERM.

The rows and rules live in ``games.services.presence``; this module only holds what exists
per process: the sockets (to close them with 1012 on a normal stop, or when the heartbeat finds
their lease was expired) and the user's token bucket, shared by all the user's sockets here.
"""

from __future__ import annotations

import asyncio
import logging
import signal

from channels.db import database_sync_to_async
from django.conf import settings

from games.services import presence

logger = logging.getLogger("leyou.presence")
CLOSE_SERVICE_RESTART = 1012

_sockets: dict[str, object] = {}  # lease key -> consumer
_user_buckets: dict[int, tuple[object, int]] = {}  # user id -> (bucket, sockets using it)
_started = None  # the event loop the heartbeat runs on


def _under_twisted() -> bool:
    import sys

    if "twisted.internet.reactor" not in sys.modules:
        return False
    from twisted.internet import reactor

    return bool(reactor.running)


def socket_add(key: str, consumer) -> None:
    _sockets[key] = consumer


def socket_remove(key: str) -> None:
    _sockets.pop(key, None)


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


async def heartbeat_run() -> None:
    """Renew this process's leases every PRESENCE_HEARTBEAT_SECONDS (one UPDATE).

    A socket whose lease is gone (the process stalled past the lease and the clock expired it)
    is closed with 1012, so its client reconnects and takes a fresh lease.
    """
    while True:
        await asyncio.sleep(settings.LEYOU["PRESENCE_HEARTBEAT_SECONDS"])
        try:
            mine = list(_sockets)  # before the renewal: a socket opened after it is not lost
            held = await database_sync_to_async(
                presence.lease_renew, thread_sensitive=False, executor=_heartbeat_thread()
            )()
            lost = [key for key in mine if key not in held and key in _sockets]
            if lost:
                logger.warning("presence: %d leases expired under us; closing them", len(lost))
                await _close_all(lost)
        except Exception:
            logger.exception("presence heartbeat failed")


_on_stop: list = []  # what else of this process stops with it (the clock run inside it)


def on_stop(callback) -> None:
    """Call ``callback()`` first when this process stops normally."""
    _on_stop.append(callback)


async def shutdown() -> None:
    """A normal stop: close every table socket with 1012, give up the leases, then stop."""
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
