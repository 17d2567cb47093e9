"""ASGI entry: HTTP through Django; WebSockets through an origin check and session auth."""

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

close_codes.install()

application = ProtocolTypeRouter(
    {
        # The embedded platform serves its own static files (htmx is vendored, nothing external).
        "http": ASGIStaticFilesHandler(django_asgi_app),
        # A WebSocket from another site (Origin not in ALLOWED_HOSTS) is refused.
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
