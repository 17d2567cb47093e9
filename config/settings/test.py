"""Tests: PostgreSQL and Redis when DATABASE_URL / REDIS_URL are set (the test command sets them)."""

from config.settings.base import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DEBUG = False
