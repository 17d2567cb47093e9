"""ASGI entry: HTTP through Django; WebSockets through an origin check and session auth."""

import asyncio
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402

from config import close_codes  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from games import presence_server, realtime  # noqa: E402
from games.consumers.base import RateWaitGate  # noqa: E402
from ops import endpoints, health, metrics  # noqa: E402

close_codes.install()

router = ProtocolTypeRouter(
    {
        # The embedded platform serves its own static files (htmx is vendored, nothing external).
        "http": ASGIStaticFilesHandler(django_asgi_app),
        # A WebSocket from another site (Origin not in ALLOWED_HOSTS) is refused.
        # A session waiting after a rate close is refused before its session is looked up.
        "websocket": AllowedHostsOriginValidator(
            RateWaitGate(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
    }
)


_clock_started = False


async def application(scope, receive, send):
    """The router, plus (embedded default) the turn clock as a task of this server's loop;
    the health probes and metrics (``ops.endpoints``) and the count of open sockets.

    Broadcasts made on this server's worker threads are sent on its own loop (registered
    here). With the in-memory channel layer (no REDIS_URL) a clock in another process could
    not push its moves to these sockets, so ``LEYOU_CLOCK_IN_SERVER=1`` (set by
    ``runplatform`` then) runs it here, started by the first connection.
    """
    global _clock_started
    loop = asyncio.get_running_loop()
    realtime.server_loop_register(loop)
    presence_server.start(loop)  # lease heartbeat; SIGTERM closes sockets 1012, gives up leases
    health.drain_on_sigterm(loop)  # SIGTERM: stop listening first, then the above
    if not _clock_started and os.environ.get("LEYOU_CLOCK_IN_SERVER") == "1":
        from games.clock import in_server_stop, run_in_server

        _clock_started = True
        presence_server.on_stop(in_server_stop)
        loop.create_task(run_in_server())
    if scope["type"] == "http" and scope["path"] in endpoints.PATHS:
        return await endpoints.handle(scope, receive, send)  # probes and metrics, before Django
    if scope["type"] == "websocket":
        with metrics.socket_open(scope["path"]):
            return await router(scope, receive, send)
    return await router(scope, receive, send)
