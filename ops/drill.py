"""The backup drill: a backup is only known to be good once it has been restored and checked.

``drill_run`` dumps the database with ``pg_dump`` (one transaction at repeatable read: a
consistent snapshot, taken while the platform plays on), restores it with ``pg_restore`` into a
fresh database, and runs there, in a separate process with ``DATABASE_URL`` pointed at it, the
checks an operator would trust after a restore: ``ledger_verify`` (every balance from the
postings, every transfer balanced, the total 0) and ``hands_verify`` (every finished hand
replays from its seed and log to the state stored). The restored database is dropped after,
unless kept.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.db import connection


class DrillError(RuntimeError):
    """The drill could not run, or what it restored does not verify."""


def hands_replay() -> tuple[int, int, list[str]]:
    """Replay every finished hand; return (replayed, skipped: no replay for its game, problems)."""
    from games import replays
    from games.models import Hand

    replayed = skipped = 0
    problems: list[str] = []
    hands = (
        Hand.objects.exclude(status=Hand.Status.PLAYING)
        .filter(finished_at__isnull=False)
        .order_by("pk")
    )
    for hand in hands.iterator(chunk_size=200):
        if not replays.supports(hand.game):
            skipped += 1
            continue
        try:
            check = replays.seed_check(hand, replays.replay_build(hand))
        except Exception as error:  # a log the engine refuses is a finding, not a crash
            problems.append(f"hand {hand.pk} ({hand.game}): replay failed: {error!r}")
            continue
        replayed += 1
        if not check["hash_ok"]:
            problems.append(f"hand {hand.pk} ({hand.game}): sha256(seed) is not the hash shown")
        elif not check["replay_ok"]:
            problems.append(f"hand {hand.pk} ({hand.game}): seed + log do not give its state")
    return replayed, skipped, problems


def _pg_env() -> tuple[dict[str, str], dict[str, str]]:
    """(environment for the pg_* tools, the database settings) of the default database."""
    db = settings.DATABASES["default"]
    if not db["ENGINE"].endswith("postgresql"):
        raise DrillError("the backup drill needs PostgreSQL (DATABASE_URL=postgres://…)")
    env = dict(os.environ)
    for key, name in (("HOST", "PGHOST"), ("PORT", "PGPORT"), ("USER", "PGUSER")):
        if db.get(key):
            env[name] = str(db[key])
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    return env, db


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise DrillError(f"{name} is not installed (Debian: postgresql-client)")
    return found


def _run(args: list[str], env: dict[str, str], what: str) -> subprocess.CompletedProcess:
    result = subprocess.run(args, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise DrillError(f"{what} failed ({result.returncode}): {result.stderr.strip()[-2000:]}")
    return result


def _restored_url(db: dict[str, str], name: str) -> str:
    user = quote(str(db.get("USER") or ""), safe="")
    password = quote(str(db.get("PASSWORD") or ""), safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = db.get("HOST") or "localhost"
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{auth}{host}{port}/{name}"


def drill_run(
    *, keep: bool = False, dump_path: str | None = None, log: Callable[[str], object] = print
) -> str:
    """Dump, restore into a fresh database, verify there; return a one-line report.

    Raises DrillError with the failing step's output."""
    env, db = _pg_env()
    source = str(db["NAME"])
    restored = f"{source}_drill_{os.getpid()}_{int(time.time())}"[:63]
    with tempfile.TemporaryDirectory(prefix="leyou-drill-") as folder:
        dump = Path(dump_path) if dump_path else Path(folder) / "leyou.dump"
        started = time.monotonic()
        _run([_tool("pg_dump"), "-Fc", "--no-owner", "-f", str(dump), source], env, "pg_dump")
        dumped = time.monotonic() - started
        log(f"pg_dump of {source}: {dump.stat().st_size} bytes in {dumped:.1f} s")
        _run([_tool("createdb"), "-T", "template0", restored], env, "createdb")
        try:
            started = time.monotonic()
            _run(
                [_tool("pg_restore"), "--no-owner", "--exit-on-error", "-d", restored, str(dump)],
                env,
                "pg_restore",
            )
            log(f"restored into {restored} in {time.monotonic() - started:.1f} s")
            checks = _verify_in(restored, _restored_url(db, restored))
        finally:
            if not keep:
                connection.close()
                _run([_tool("dropdb"), "--if-exists", restored], env, "dropdb")
    kept = f" (kept: {restored})" if keep else ""
    return f"backup drill OK{kept}: {checks}"


def _verify_in(name: str, url: str) -> str:
    """Run ledger_verify and hands_verify against the restored database (a separate process,
    so nothing of this one's connections or caches is used)."""
    env = dict(os.environ)
    env["DATABASE_URL"] = url
    manage = str(Path(settings.BASE_DIR) / "manage.py")
    outputs = []
    for command in ("ledger_verify", "hands_verify"):
        result = subprocess.run(
            [sys.executable, manage, command], env=env, capture_output=True, text=True
        )
        if result.returncode != 0:
            raise DrillError(
                f"{command} on the restored database {name} failed: "
                f"{(result.stderr or result.stdout).strip()[-2000:]}"
            )
        outputs.append(result.stdout.strip().splitlines()[-1])
    return "; ".join(outputs)
