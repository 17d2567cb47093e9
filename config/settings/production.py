"""Scaled-out production: SECRET_KEY, DATABASE_URL and REDIS_URL are required.

Behind a TLS-terminating proxy (deploy/nginx) the defaults pass ``manage.py check --deploy``
with no warning: HTTPS redirect, HSTS, secure cookies. The proxy must set ``X-Forwarded-Proto``
(``LEYOU_PROXY_SSL_HEADER=0`` when the ASGI server itself terminates TLS) and its address goes in
``LEYOU_TRUSTED_PROXIES`` so the rate limits see the client's address.
"""

from config import env
from config.settings.base import *  # noqa: F403

SECRET_KEY = env.env_str("SECRET_KEY")
if len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5:
    # never the development key: anyone could forge sessions and password reset links with it
    raise RuntimeError(
        "production needs SECRET_KEY: at least 50 random characters "
        "(python -c 'import secrets; print(secrets.token_urlsafe(64))')"
    )
if not env.DATABASE_URL or not env.REDIS_URL:
    raise RuntimeError("production needs DATABASE_URL and REDIS_URL")
DEBUG = False
SESSION_COOKIE_SECURE = env.env_bool("SECURE_COOKIES", True)
CSRF_COOKIE_SECURE = env.env_bool("SECURE_COOKIES", True)
SECURE_SSL_REDIRECT = env.env_bool("SECURE_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = env.env_int("SECURE_HSTS_SECONDS", 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env.env_bool("SECURE_HSTS_PRELOAD", True)
if env.env_bool("LEYOU_PROXY_SSL_HEADER", True):
    # the TLS-terminating proxy says the original scheme; trusted only because the ASGI
    # processes listen where only the proxy reaches them
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
