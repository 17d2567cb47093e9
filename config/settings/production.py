"""Scaled-out production: DATABASE_URL and REDIS_URL are required."""

from config import env
from config.settings.base import *  # noqa: F403

if not env.DATABASE_URL or not env.REDIS_URL:
    raise RuntimeError("production needs DATABASE_URL and REDIS_URL")
DEBUG = False
SESSION_COOKIE_SECURE = env.env_bool("SECURE_COOKIES", True)
CSRF_COOKIE_SECURE = env.env_bool("SECURE_COOKIES", True)
