"""Tests: PostgreSQL and Redis when DATABASE_URL / REDIS_URL are set (the test command sets
them)."""

import os

from config.settings.base import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DEBUG = False

# With SQLite (no DATABASE_URL) the test database is a file, and the database of these settings
# is that file too: the server processes started by the live tests (with these settings) then
# read and write the test run's database, as they do its PostgreSQL test database.
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405
    _test_db = str(VAR_DIR / "test.sqlite3")  # noqa: F405
    DATABASES["default"]["NAME"] = _test_db  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": _test_db}  # noqa: F405
# Tests drive the clock themselves unless a live test starts one; bots act instantly.
LEYOU = {**LEYOU, "BOT_THINK_SECONDS": 0.0, "AUTO_PLAY_SECONDS": 0.0}  # noqa: F405
# Tasks run in place, unless a live test's process is told to publish them (a clock in front
# of a real worker and broker: CELERY_TASK_ALWAYS_EAGER=0 in its environment).
CELERY_TASK_ALWAYS_EAGER = os.environ.get("CELERY_TASK_ALWAYS_EAGER", "1") != "0"
# The guess counters of one test run are its own (the Redis db outlives a run).
CACHES["ratelimit"]["KEY_PREFIX"] = f"leyou-rl-test-{os.getpid()}"  # noqa: F405
