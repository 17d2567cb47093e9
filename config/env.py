"""The one place that reads the environment (12-factor), with the embedded default.

Unset variables give the embedded default: SQLite under ``var/``, the in-memory channel layer and
a Celery broker on the filesystem (no servers). ``DATABASE_URL`` (postgres://…) and ``REDIS_URL``
(redis://…) switch to PostgreSQL and Redis.
"""

from __future__ import annotations

import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("LEYOU_VAR_DIR", BASE_DIR / "var"))


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value else default


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    return [item.strip() for item in value.split(",") if item.strip()] if value else default


DATABASE_URL = env_str("DATABASE_URL")
REDIS_URL = env_str("REDIS_URL")
