"""What every socket of the games app shares: close codes, the database threads, the rate
limit (a token bucket per socket and per user) and the frame checks of ``games.frames``."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from redis.exceptions import RedisError

from games import error_messages, frames, presence_server, socket_limits
from games.engine.errors import IllegalAction
from games.exceptions import ReconnectTooSoon, TooManySockets

CLOSE_POLICY = 1008  # rate limit exceeded, too many sockets, reconnecting too soon
CLOSE_SERVICE_RESTART = 1012  # Redis went away under an open socket: the client reconnects
CLOSE_TRY_AGAIN = 1013  # Redis is down at the handshake: the client tries again later
CLOSE_UNAUTHORISED = 4401
CLOSE_UNKNOWN_TABLE = 4404
# what Redis (the channel layer, the socket caps) raises when it is down or restarting
LAYER_ERRORS: tuple[type[BaseException], ...] = (RedisError, OSError)

logger = logging.getLogger(__name__)


_executor: ThreadPoolExecutor | None = None


def db(func):
    """``database_sync_to_async`` for a service call, on this process's database threads.

    With ``LEYOU["DB_THREADS"]`` (PostgreSQL) the calls of different tables run on a pool of
    threads, each with its own connection, so one table's round trips to the database do not
    queue every other table behind them; otherwise on Channels' one shared thread (SQLite).
    """
    global _executor
    threads = settings.LEYOU.get("DB_THREADS") or 0
    if not threads:
        return database_sync_to_async(func)
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="leyou-db")
    return database_sync_to_async(func, thread_sensitive=False, executor=_executor)


class TokenBucket:
    """Per-socket message rate limit."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.capacity = rate, burst
        self.tokens, self.stamp = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


async def _on_sockets_thread(func, *args):
    return await asyncio.get_running_loop().run_in_executor(socket_limits.thread(), func, *args)


SOCKET_KINDS_BY_PATH = (("/ws/table/", "table"), ("/ws/wheel/", "wheel"), ("/ws/lobby/", "lobby"))


class RateWaitGate:
    """In front of the session and user lookups: a handshake from a session that waits after
    a rate close of this kind of socket is refused at once (HTTP 403; the htmx client backs
    off), at the cost of one Redis read — a client hammering reconnects costs no database.
    Another session of the same user is refused after its lookup, with ``reconnect_too_soon``.
    """

    def __init__(self, inner) -> None:
        self.inner = inner

    async def __call__(self, scope, receive, send):
        path = scope.get("path", "")
        kind = next((k for prefix, k in SOCKET_KINDS_BY_PATH if path.startswith(prefix)), "")
        session_key = _session_cookie(scope) if kind else ""
        if session_key:
            try:
                waiting = await _on_sockets_thread(socket_limits.session_waiting, kind, session_key)
            except LAYER_ERRORS:
                waiting = False  # Redis down: the consumer answers 1013
            if waiting:
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": CLOSE_POLICY})
                return
        return await self.inner(scope, receive, send)


def _session_cookie(scope: dict) -> str:
    from django.http.cookie import parse_cookie

    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            return parse_cookie(value.decode("latin-1")).get(settings.SESSION_COOKIE_NAME, "")
    return ""


class TrackedSocketMixin:
    """What every kind of socket shares (table, 大豐收, lobby): listed in this process's
    registry of open sockets, counted toward its user's cap for its kind, and closed with a
    code the client retries when Redis fails under it.

    ``socket_open`` (from ``connect``) claims the socket's place in the user's cap
    (``games.socket_limits``) and lists it (``games.presence_server``); however the consumer
    ends — a close, a raising handler, a handler killed on shutdown — it is unlisted and its
    place given back, and ``disconnect`` runs once. When Redis fails (the channel layer's
    receive, a group call, the cap), the socket is closed 1012 (open) or accepted and closed
    1013 (at the handshake) instead of Daphne's 1011 / HTTP 500; the htmx ws client
    reconnects on both after a pause.
    """

    socket_kind = ""
    registry_key: str | None = None
    cap_member: str | None = None  # "process:key" in the user's set of this kind
    cap_user_id: int | None = None
    accepted = False
    closing = False
    finished = False

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)  # type: ignore[misc]
        except LAYER_ERRORS as error:
            await self.layer_lost(error)
        finally:
            await self.socket_untrack()

    async def accept(self, subprotocol=None, headers=None) -> None:
        await super().accept(subprotocol, headers)  # type: ignore[misc]
        self.accepted = True

    async def websocket_disconnect(self, message: dict) -> None:
        await self.socket_finish(message.get("code", 1000))
        raise StopConsumer()

    async def socket_finish(self, code: int) -> None:
        """``disconnect`` once, whichever way the socket ended."""
        if self.finished:
            return
        self.finished = True
        await self.disconnect(code)  # type: ignore[attr-defined]

    async def socket_open(self, user, key: str | None = None) -> str:
        """Claim the socket's place in its user's cap and list it; return its registry key.

        Raises ``TooManySockets`` / ``ReconnectTooSoon`` (nothing held), or a Redis error
        (the handshake is then answered 1013)."""
        key = key or secrets.token_hex(16)
        if user is not None and user.is_authenticated:
            member = f"{presence_server.presence.PROCESS_ID}:{key}"
            await _on_sockets_thread(socket_limits.claim, self.socket_kind, user.pk, member)
            self.cap_member, self.cap_user_id = member, user.pk
        self.registry_key = key
        presence_server.socket_add(key, self)
        return key

    async def socket_untrack(self) -> None:
        """Unlist the socket (at once) and give its place in the user's cap back."""
        if self.registry_key is not None:
            presence_server.socket_remove(self.registry_key)
        member, self.cap_member = self.cap_member, None
        if member is not None:
            try:
                await _on_sockets_thread(
                    socket_limits.release, self.socket_kind, self.cap_user_id, member
                )
            except Exception:  # Redis down: the place is not vouched for and lapses
                logger.debug("socket cap release failed", exc_info=True)

    async def socket_refuse(self, error: TooManySockets | ReconnectTooSoon) -> None:
        """Refuse a socket past its user's cap or during his wait: an error frame, 1008."""
        await self.socket_untrack()
        await self.accept()
        self.closing = True
        await self.send_error(error.code, error.message)  # type: ignore[attr-defined]
        await self.close(code=CLOSE_POLICY)  # type: ignore[attr-defined]

    async def layer_lost(self, error: BaseException) -> None:
        logger.warning(
            "%s: Redis failed under the socket (%r); closed for the client to retry",
            type(self).__name__,
            error,
        )
        self.closing = True
        try:
            if not self.accepted:
                await self.accept()
                await self.close(code=CLOSE_TRY_AGAIN)  # type: ignore[attr-defined]
            else:
                await self.close(code=CLOSE_SERVICE_RESTART)  # type: ignore[attr-defined]
        except Exception:  # the client may be gone already
            logger.debug("close after a Redis failure failed", exc_info=True)
        try:
            await self.socket_finish(CLOSE_SERVICE_RESTART)
        except Exception:
            logger.warning("disconnect after a Redis failure failed", exc_info=True)

    async def groups_leave(self, *groups: str) -> None:
        """Leave channel groups; with Redis down there is nothing to leave (they lapse)."""
        for group in groups:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)  # type: ignore[attr-defined]
            except LAYER_ERRORS:
                logger.debug("group_discard of %s failed", group, exc_info=True)

    def layer_groups(self) -> list[str]:
        """The channel groups this socket belongs to (joined again after Redis lost them)."""
        return []

    async def layer_rejoin(self) -> None:
        """Redis lost the groups (a restart without data, FLUSHALL): join them again and send
        a fresh view, since pushes were lost meanwhile."""
        for group in self.layer_groups():
            await self.channel_layer.group_add(group, self.channel_name)  # type: ignore[attr-defined]
        await self.layer_resync()

    async def layer_resync(self) -> None:
        """Send the socket's view afresh (each kind its own)."""
        return None

    async def rate_close(self) -> None:
        """Past its frame rate: close 1008, make the user wait before this kind of socket may
        open again, and end the consumer at once (``StopConsumer``): the frames a flooding
        client still has in flight are not handled (``config.close_codes`` stops reading
        from it after a 1008)."""
        self.closing = True
        user = self.scope.get("user")  # type: ignore[attr-defined]
        if user is not None and user.is_authenticated:
            session = self.scope.get("session")  # type: ignore[attr-defined]
            session_key = getattr(session, "session_key", None)
            try:
                await _on_sockets_thread(
                    socket_limits.cooldown_start, self.socket_kind, user.pk, session_key
                )
            except Exception:
                logger.warning("rate close: the wait could not be recorded", exc_info=True)
        await self.close(code=CLOSE_POLICY)  # type: ignore[attr-defined]
        await self.socket_finish(CLOSE_POLICY)
        raise StopConsumer()


class LimitedJsonConsumer(TrackedSocketMixin, AsyncWebsocketConsumer):
    """A socket whose client frames are JSON objects: rate limited, size limited, parsed.

    ``frame_parse`` answers a bad frame with an error frame (``send_error``, per consumer) and
    past the rate limit closes with 1008; it returns the message, or None when there is none.
    The frame's checks are ``games.frames``'; ``kinds`` are the frame kinds this socket takes.
    """

    kinds: frozenset[str] = frozenset()

    @property
    def language(self) -> str:
        """The player's language: his stored choice, else the switch's cookie, else the default
        (the browser's Accept-Language is ignored, as on pages)."""
        if not hasattr(self, "_language"):
            self._language = socket_language(self.scope)
        return self._language

    def worded(self, message: object) -> str:
        """A (lazy) user message as text in this socket's language."""
        with translation.override(self.language):
            return str(message)

    def illegal_worded(self, error: IllegalAction) -> str:
        """An engine's refusal worded for this socket's player (``games.error_messages``)."""
        with translation.override(self.language):
            return error_messages.illegal_text(error)

    def limits_set(self) -> None:
        conf = settings.LEYOU
        self.bucket = TokenBucket(conf["WS_RATE_PER_SECOND"], conf["WS_RATE_BURST"])
        self.max_bytes = conf["WS_MAX_FRAME_BYTES"]

    async def frame_parse(self, text_data: str | None, bytes_data: bytes | None) -> dict | None:
        if getattr(self, "closing", False):
            return None
        user_bucket = getattr(self, "user_bucket", None)
        if not self.bucket.take() or (user_bucket is not None and not user_bucket.take()):
            await self.rate_close()
        raw = text_data if text_data is not None else (bytes_data or b"").decode("utf-8", "replace")
        if len(raw.encode()) > self.max_bytes:
            await self.send_error("too_large", _("訊息太大"))
            return None
        try:
            return frames.frame_decode(raw, kinds=self.kinds)
        except frames.FrameError as error:
            await self.send_error(error.code, error.message)
            return None

    async def frame_failed(self, error: Exception) -> None:
        """A frame whose handling raised what no check foresaw: answer it, log it once, and
        keep the socket (a bug must not become a 1011 close of a player's table)."""
        logger.warning("frame failed on %s: %r", type(self).__name__, error, exc_info=error)
        await self.send_error("server_error", _("伺服器無法處理這個訊息"))

    async def send_error(self, code: str, message: object) -> None:
        raise NotImplementedError


def socket_language(scope: dict) -> str:
    """The language a socket's frames are worded in (see LimitedJsonConsumer.language)."""
    codes = {code for code, _name in settings.LANGUAGES}
    user = scope.get("user")
    stored = getattr(user, "language", "") if user is not None and user.is_authenticated else ""
    if stored in codes:
        return stored
    cookie = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME, "")
    return cookie if cookie in codes else settings.LANGUAGE_CODE
