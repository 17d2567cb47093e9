"""Is this process alive, and may it be sent new connections? And its drain on SIGTERM.

Liveness (``/healthz``) says only that the process answers: systemd or a supervisor restarts
a process that stops answering it. Readiness (``/readyz``) says the process can serve a player
now: its database answers, its channel layer carries a message, and it is not stopping. A
rolling restart waits for readiness before it stops the next process, and a monitor alerts on
a process that stays unready.

On SIGTERM the process first stops listening (before its sockets are closed for reconnection),
so every reconnect is refused at once and the proxy passes it to the next process, instead of
landing on a process about to exit. Open-source nginx has no active health checks; a refused
connect is what it reacts to.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from concurrent.futures import ThreadPoolExecutor
from typing import Any

logger = logging.getLogger("leyou.ops")

CHECK_TIMEOUT_SECONDS = 2.0

_draining = False
_executor: ThreadPoolExecutor | None = None
_drain_installed = False


def draining() -> bool:
    return _draining


def drain_start() -> None:
    """Stop taking new connections: readiness answers 503 and the listening ports close.

    Open connections are left to the process's own stop (they are closed after this)."""
    global _draining
    if _draining:
        return
    _draining = True
    closed = _listening_ports_close()
    logger.info("ops: draining, closed %d listening ports", closed)


def _listening_ports_close() -> int:
    """Close the Twisted server's listening ports (Daphne), if this process runs one."""
    import sys

    if "twisted.internet.reactor" not in sys.modules:
        return 0
    from twisted.internet import reactor, tcp

    closed = 0
    for reader in list(reactor.getReaders()):  # type: ignore[attr-defined]
        if isinstance(reader, tcp.Port):
            reader.stopListening()
            closed += 1
    return closed


def drain_on_sigterm(loop: asyncio.AbstractEventLoop) -> None:
    """Put the drain in front of whatever SIGTERM / SIGINT handler the server has installed.

    The drain is scheduled on the server's loop before the previous handler runs, so it runs
    before anything that handler schedules (closing the sockets for reconnection). Only in
    the main thread of a server process; elsewhere (a test runner's thread) nothing happens.
    """
    global _drain_installed
    if _drain_installed:
        return
    import sys
    import threading

    if threading.current_thread() is not threading.main_thread():
        return
    if "twisted.internet.reactor" not in sys.modules:
        return
    from twisted.internet import reactor

    if not reactor.running:  # type: ignore[attr-defined]
        return
    _drain_installed = True
    for signum in (signal.SIGTERM, signal.SIGINT):
        previous = signal.getsignal(signum)

        def handler(num: int, frame: Any, previous: Any = previous) -> None:
            loop.call_soon_threadsafe(drain_start)
            if callable(previous):
                previous(num, frame)
            elif previous == signal.SIG_DFL:
                raise SystemExit(0)

        signal.signal(signum, handler)


def _check_thread() -> ThreadPoolExecutor:
    """The checks' own database thread: never queued behind the sockets' service calls."""
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="leyou-health")
    return _executor


def _database_ping() -> None:
    from django.db import connection

    connection.close_if_unusable_or_obsolete()
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


async def _database_ok() -> None:
    from channels.db import database_sync_to_async

    ping = database_sync_to_async(_database_ping, thread_sensitive=False, executor=_check_thread())
    await asyncio.wait_for(ping(), CHECK_TIMEOUT_SECONDS)


async def _channel_layer_ok() -> None:
    """A message sent to a fresh channel of this process comes back: the layer carries it."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer")
    name = await layer.new_channel("health.")
    await asyncio.wait_for(layer.send(name, {"type": "health.ping"}), CHECK_TIMEOUT_SECONDS)
    message = await asyncio.wait_for(layer.receive(name), CHECK_TIMEOUT_SECONDS)
    if message.get("type") != "health.ping":
        raise RuntimeError("the channel layer returned another message")


async def readiness() -> tuple[bool, dict[str, str]]:
    """(ready, each check's outcome): "ok", "draining", or the error's kind."""
    if _draining:
        return False, {"draining": "yes"}
    checks: dict[str, str] = {}
    for name, check in (("database", _database_ok), ("channel_layer", _channel_layer_ok)):
        try:
            await check()
            checks[name] = "ok"
        except TimeoutError:
            checks[name] = "timeout"
        except Exception as error:  # reported to the prober; the process stays up
            checks[name] = type(error).__name__
            logger.warning("ops: readiness check %s failed: %s", name, error)
    return all(v == "ok" for v in checks.values()), checks
