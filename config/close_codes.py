"""Let Daphne send the RFC 6455 close codes our clients rely on (1008, 1011, 1012, 1013).

Autobahn, under Daphne, only lets an application close with 1000 or 3000–4999, although RFC
6455 §7.4.1 defines 1008 (policy violation: our rate limit) and 1012 (service restart: clients
come back) for servers, and the htmx ws extension reconnects exactly on 1006/1011/1012/1013.
This patch sends those codes through Autobahn's own close-frame path; every other code goes
through the normal validated path unchanged. After a 1008 the server stops reading from the
client (``_stop_reading``).
"""

from __future__ import annotations

RFC_SERVER_CODES = {1001, 1008, 1011, 1012, 1013}
POLICY = 1008


def _stop_reading(protocol) -> None:
    """After a 1008 (a flood, too many sockets, reconnecting too soon) read nothing more from
    the client: whatever it still sends — a flooding client has thousands of frames in flight
    — stays in the kernel's buffers instead of being parsed, and Autobahn drops the connection
    when its close handshake times out (1 s). The close frame itself has been written."""
    try:
        protocol.transport.pauseProducing()
    except Exception:  # no transport (already gone): nothing to read anyway
        pass


def install() -> None:
    from daphne.ws_protocol import WebSocketProtocol

    if getattr(WebSocketProtocol, "_leyou_close_codes", False):
        return
    original = WebSocketProtocol.serverClose

    def server_close(self, code=None):
        if code in RFC_SERVER_CODES:
            self.sendCloseFrame(code=code, isReply=False)
            if code == POLICY:
                _stop_reading(self)
        else:
            original(self, code)

    WebSocketProtocol.serverClose = server_close
    WebSocketProtocol._leyou_close_codes = True
