"""Shared fixtures: users with beans, rooms, and helpers to drive tables."""

from __future__ import annotations

import itertools

import pytest

_counter = itertools.count(1)


@pytest.fixture(scope="session", autouse=True)
def _close_server_sessions(django_db_setup, django_db_blocker):
    """At the end, end database sessions that killed server processes left behind, so the
    test database can be dropped."""
    yield
    from django.db import connection

    if not str(connection.settings_dict.get("NAME", "")).startswith("test_"):
        return  # no test of this run used the database
    with django_db_blocker.unblock():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )


@pytest.fixture(autouse=True)
def _leaderboards_fresh():
    """Each test reads its own leaderboards: the boards cached by an earlier test (in this
    process and in the shared cache, which outlives the test's rolled-back rows) are dropped,
    and every game gets a new standings version."""
    from django.core.cache import caches

    from accounts import services
    from accounts.selectors import STANDINGS_CACHE
    from games import caches as process_caches
    from lobby import leaderboards

    leaderboards._local.clear()
    process_caches.clear_all()  # this process's table caches: each test starts cold
    for game in leaderboards.GAMES:
        services.standings_changed(game)
        # a board read by an earlier test less than the refresh bound ago would still be
        # shown after a new version: the shared cache's boards of this day and week go too
        caches[STANDINGS_CACHE].delete_many(
            [
                leaderboards._cache_key(game, period, metric, None)
                for period in leaderboards.PERIODS
                for metric in leaderboards.METRICS
            ]
        )
    yield


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the default language (繁體中文): a test that renders in another one
    must not leave its thread's language to the next test."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def make_user(db):
    from accounts import services

    def make(beans: int | None = None, name: str | None = None):
        n = next(_counter)
        user = services.user_register(
            username=name or f"player{n}", password="pw-123456", nickname=name or f"玩家{n}"
        )
        if beans is not None:
            from ledger import services as ledger
            from ledger.selectors import balance_for_user

            diff = beans - balance_for_user(user)
            if diff:
                ledger.staff_grant(
                    staff=None, user=user, amount=diff, reason="test setup", correction=True
                )
        return user

    return make


@pytest.fixture
def room(db):
    from games.tests.helpers import doudizhu_room

    return doudizhu_room()
