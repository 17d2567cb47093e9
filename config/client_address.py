"""The client's address for rate limits and login throttling: one rule for every caller.

``X-Forwarded-For`` is believed only when the request comes from a trusted proxy
(``LEYOU_TRUSTED_PROXIES``, the addresses of our own nginx); then the right-most address that is
not itself a trusted proxy is the client (a client may prepend anything to the header, but the
entry our proxy appended is the one it saw). Otherwise ``REMOTE_ADDR``.
"""

from __future__ import annotations

from django.conf import settings


def client_address(request) -> str:
    """Return the address the rate limits count for ``request`` (an HttpRequest)."""
    remote = request.META.get("REMOTE_ADDR") or ""
    trusted = set(settings.LEYOU_TRUSTED_PROXIES)
    if remote not in trusted:
        return remote
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    for address in reversed([a for a in forwarded if a]):
        if address not in trusted:
            return address
    return remote
