"""What every socket of the games app shares: close codes, the database threads, the rate
limit (a token bucket per socket and per user) and the frame checks of ``games.frames``."""

from __future__ import annotations

import logging
import time
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games import error_messages, frames
from games.engine.errors import IllegalAction

CLOSE_POLICY = 1008  # rate limit exceeded
CLOSE_UNAUTHORISED = 4401
CLOSE_UNKNOWN_TABLE = 4404

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


class LimitedJsonConsumer(AsyncWebsocketConsumer):
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
            self.closing = True
            await self.close(code=CLOSE_POLICY)
            return None
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
