"""The process's Redis client for state shared by every process that is not the channel
layer's nor the broker's: the socket caps (``games.socket_limits``), the presence heartbeat's
mark of the layer, the settlement queue's marks (``games.tasks``).

Short timeouts: while Redis is down a caller learns it in about a second, not thirty.
"""

from __future__ import annotations

import threading

from django.conf import settings

_client = None
_lock = threading.Lock()


def client():
    """A (thread-safe, pooled) blocking client, or None without ``REDIS_URL``."""
    global _client
    url = settings.LEYOU.get("REDIS_URL")
    if not url:
        return None
    if _client is None:
        with _lock:
            if _client is None:
                import redis

                _client = redis.Redis.from_url(
                    url, socket_timeout=2, socket_connect_timeout=1, health_check_interval=10
                )
    return _client
