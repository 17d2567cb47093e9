"""``config.settings.production``: no start without a real SECRET_KEY, and ``check --deploy``
passes with no warning (HTTPS redirect, HSTS, secure cookies, the proxy's scheme header)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

from config import env

KEY = secrets.token_urlsafe(64)


def _manage(*args: str, **extra: str) -> subprocess.CompletedProcess:
    # the browser tests' DJANGO_ALLOW_ASYNC_UNSAFE is no production setting (check async.E001)
    environ = {
        k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE")
    }
    environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.production",
            "DATABASE_URL": env.DATABASE_URL or "postgres://postgres@127.0.0.1:5432/leyou",
            "REDIS_URL": env.REDIS_URL or "redis://127.0.0.1:6379/0",
            "ALLOWED_HOSTS": "leyou.example",
            **extra,
        }
    )
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=env.BASE_DIR,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_refuses_to_start_without_a_secret_key():
    """No SECRET_KEY (or a short one): the process exits naming SECRET_KEY."""
    for extra in ({}, {"SECRET_KEY": "short"}):
        done = _manage("check", **extra)
        assert done.returncode != 0
        assert "production needs SECRET_KEY" in done.stderr


def test_check_deploy_passes_with_no_warning():
    """``check --deploy --fail-level WARNING`` succeeds and reports no issue at all."""
    done = _manage("check", "--deploy", "--fail-level", "WARNING", SECRET_KEY=KEY)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout
    # switching HSTS off is possible, and then check --deploy says so
    done = _manage(
        "check", "--deploy", "--fail-level", "WARNING", SECRET_KEY=KEY, SECURE_HSTS_SECONDS="0"
    )
    assert done.returncode != 0 and "security.W004" in done.stdout + done.stderr


def test_the_proxy_scheme_header_is_configurable():
    """Behind a TLS-terminating proxy X-Forwarded-Proto is believed; without one it is not."""
    code = (
        "from django.conf import settings; "
        "print(getattr(settings, 'SECURE_PROXY_SSL_HEADER', None))"
    )
    done = _manage("shell", "-c", code, SECRET_KEY=KEY)
    last = done.stdout.strip().splitlines()[-1]
    assert last == "('HTTP_X_FORWARDED_PROTO', 'https')", done.stderr
    done = _manage("shell", "-c", code, SECRET_KEY=KEY, LEYOU_PROXY_SSL_HEADER="0")
    assert done.stdout.strip().splitlines()[-1] == "None", done.stderr
