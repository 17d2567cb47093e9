"""Let Daphne send the RFC 6455 close codes our clients rely on (1008, 1011, 1012, 1013).

Autobahn, under Daphne, only lets an application close with 1000 or 3000–4999, although RFC
6455 §7.4.1 defines 1008 (policy violation: our rate limit) and 1012 (service restart: clients
come back) for servers, and the htmx ws extension reconnects exactly on 1006/1011/1012/1013.
This patch sends those codes through Autobahn's own close-frame path; every other code goes
through the normal validated path unchanged.
"""

from __future__ import annotations

RFC_SERVER_CODES = {1001, 1008, 1011, 1012, 1013}


def install() -> None:
    from daphne.ws_protocol import WebSocketProtocol

    if getattr(WebSocketProtocol, "_leyou_close_codes", False):
        return
    original = WebSocketProtocol.serverClose

    def server_close(self, code=None):
        if code in RFC_SERVER_CODES:
            self.sendCloseFrame(code=code, isReply=False)
        else:
            original(self, code)

    WebSocketProtocol.serverClose = server_close
    WebSocketProtocol._leyou_close_codes = True
