"""The embedded default (`./leyou start`): one command, no servers.

DEBUG stays off unless ``DEBUG=1`` is set: debug cursors keep every query and cost time on
every request (docs/performance.md); static files are served by the ASGI app either way.
"""

from config.settings.base import *  # noqa: F403
