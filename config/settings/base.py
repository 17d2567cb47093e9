"""Settings shared by every environment. Environment variables are read in config.env only."""

from __future__ import annotations

import os

import dj_database_url

from config import env

BASE_DIR = env.BASE_DIR
VAR_DIR = env.VAR_DIR
VAR_DIR.mkdir(parents=True, exist_ok=True)

SECRET_KEY = env.env_str("SECRET_KEY", "dev-insecure-leyou-key-change-me")
DEBUG = env.env_bool("DEBUG", False)
ALLOWED_HOSTS = env.env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.env_list(
    "CSRF_TRUSTED_ORIGINS", ["http://127.0.0.1:8000", "http://localhost:8000"]
)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "axes",  # login throttling (登入鎖定): failures per user + address, resettable in the admin
    "django_prometheus",  # HTTP request metrics by view (served by ops at /metrics)
    "accounts",
    "ledger",
    "games",
    "lobby",
    "ops",
]

MIDDLEWARE = [
    "django_prometheus.middleware.PrometheusBeforeMiddleware",  # first: times the whole stack
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "config.middleware.ChineseFirstMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.middleware.UserLanguageMiddleware",  # a signed-in player's stored language wins
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",  # last of the app's, as django-axes asks
    "django_prometheus.middleware.PrometheusAfterMiddleware",  # counts the response as sent
]
# django-prometheus: no database read at start-up (its migration gauges), no server of its own
PROMETHEUS_EXPORT_MIGRATIONS = False

# django-axes: after AXES_FAILURE_LIMIT wrong passwords for one username from one address, that
# pair is refused (HTTP 429, templates/accounts/lockout.html) until the cool-off passes or staff
# reset it (admin: 登入嘗試 → delete, or `manage.py axes_reset_username NAME`).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.env_int("LEYOU_LOGIN_FAILURES", 10)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_COOLOFF_TIME = env.env_int("LEYOU_LOGIN_COOLOFF_MINUTES", 30) / 60  # hours
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "accounts/lockout.html"
AXES_CLIENT_IP_CALLABLE = "config.client_address.client_address"
AXES_VERBOSE = False
# The addresses of our own reverse proxies: only their X-Forwarded-For is believed
# (config/client_address.py); empty = every request's REMOTE_ADDR is the client.
LEYOU_TRUSTED_PROXIES = env.env_list("LEYOU_TRUSTED_PROXIES", [])

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "lobby:home"
LOGOUT_REDIRECT_URL = "lobby:home"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "accounts.context_processors.nav",
            ],
        },
    },
]

if env.DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(env.DATABASE_URL, conn_max_age=60)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "leyou.sqlite3",
            # WAL lets the web server, the clock and the worker read while one writes.
            # keep connections: opening one runs the WAL pragmas every time (bench: 8.5 % of
            # a loaded server's samples)
            "CONN_MAX_AGE": 600,
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

if env.REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": env.REDIS_URL,
                        # redis-py raises instead of waiting when its pool is full: size it.
                        "max_connections": 200,
                        # above channels-redis's 5 s blocking read, so idle consumers live on.
                        "socket_timeout": 30,
                        "socket_connect_timeout": 5,
                    }
                ],
                # past capacity, group_send drops messages silently: keep it well above a burst.
                "capacity": 5000,
                "expiry": 30,
                "group_expiry": 86400,
            },
        }
    }
    CELERY_BROKER_URL = env.REDIS_URL
    # a worker outlives a Redis restart: it reconnects for as long as it takes (the default
    # gives up after 100 tries), and a task taken but not acknowledged comes back after this
    CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
    CELERY_BROKER_CONNECTION_MAX_RETRIES = None
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 600, "socket_connect_timeout": 5}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    # The embedded broker: kombu's filesystem transport, no server process needed.
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(VAR_DIR / "broker"),
        "data_folder_out": str(VAR_DIR / "broker"),
        "processed_folder": str(VAR_DIR / "broker-done"),
        "control_folder": str(VAR_DIR / "broker-control"),
        "store_processed": False,
    }
    (VAR_DIR / "broker").mkdir(exist_ok=True)

# Counters shared by every process (the invite-code guess limit): Redis when there is one.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "ratelimit": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": env.REDIS_URL,
            "KEY_PREFIX": "leyou-rl",
        }
        if env.REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "ratelimit"}
    ),
}

CELERY_TASK_ACKS_LATE = True  # a task whose worker dies is delivered again (it is idempotent)
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ALWAYS_EAGER = env.env_bool("CELERY_TASK_ALWAYS_EAGER", False)

# Traditional Chinese is the source language of the UI strings (msgid); each language is named in
# itself in the switch. The catalogs are built from locale/*.po at set-up
# (scripts/compilemessages.py).
LANGUAGE_CODE = "zh-hant"
LANGUAGES = [("zh-hant", "繁體中文"), ("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Asia/Shanghai"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"

SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"

# Platform economy defaults (operators change the live values in the admin: ledger.EconomySettings).
LEYOU = {
    "WS_MAX_FRAME_BYTES": 4096,
    "WS_RATE_PER_SECOND": 8,
    "WS_RATE_BURST": 20,
    "DISCONNECT_GRACE_SECONDS": env.env_int("LEYOU_DISCONNECT_GRACE_SECONDS", 120),
    # Presence leases (出席租約): a socket's lease lasts this long unless its process's heartbeat
    # renews it (every HEARTBEAT seconds); the clock expires stale leases every SWEEP seconds.
    # A dead process's players are marked away within LEASE + SWEEP seconds (default 17 s).
    "PRESENCE_LEASE_SECONDS": env.env_int("LEYOU_PRESENCE_LEASE_SECONDS", 15),
    "PRESENCE_HEARTBEAT_SECONDS": float(env.env_str("LEYOU_PRESENCE_HEARTBEAT_SECONDS", "5")),
    "PRESENCE_SWEEP_SECONDS": float(env.env_str("LEYOU_PRESENCE_SWEEP_SECONDS", "2")),
    "SOCKETS_PER_USER_TABLE": env.env_int("LEYOU_SOCKETS_PER_USER_TABLE", 3),
    # open sockets per user and kind, over every table / room and every process
    # (games.socket_limits); the table cap above is per table
    "SOCKETS_PER_USER": {
        "table": env.env_int("LEYOU_SOCKETS_PER_USER_TABLES", 6),
        "wheel": env.env_int("LEYOU_SOCKETS_PER_USER_WHEEL", 3),
        "lobby": env.env_int("LEYOU_SOCKETS_PER_USER_LOBBY", 4),
    },
    # a socket closed 1008 for its rate: its user may not open that kind again for this long
    "WS_RATE_COOLDOWN_SECONDS": float(env.env_str("LEYOU_WS_RATE_COOLDOWN_SECONDS", "10")),
    # shared state of the socket caps and the settlement queue's marks (None: this process)
    "REDIS_URL": env.REDIS_URL,
    # per user, shared by all the user's sockets in one process (frames per second, burst)
    "WS_USER_RATE_PER_SECOND": 10,
    "WS_USER_RATE_BURST": 24,
    "CLOCK_INTERVAL_SECONDS": 0.25,
    "BOT_THINK_SECONDS": 0.8,
    "AUTO_PLAY_SECONDS": 1.0,
    # Bot decisions (the clock, games/decisions.py): worker processes deciding every due bot and
    # 托管 seat at once (0: one after another in the clock's thread, as before), the budget after
    # which the game's cheap fallback move is applied instead (the table never waits for a bot
    # longer than think time + budget), and the threads applying the moves (one writer on SQLite).
    "BOT_DECISION_WORKERS": env.env_int(
        "LEYOU_BOT_DECISION_WORKERS", max(1, min(4, os.cpu_count() or 1))
    ),
    "BOT_DECISION_BUDGET_SECONDS": float(env.env_str("LEYOU_BOT_DECISION_BUDGET_SECONDS", "0.2")),
    # how long before its turn clock the clock hands a seat to the pool (decided during the
    # think time, applied at the clock): longer than the budget, so that a clock loop held up
    # by the rest of its sweep (table ticks, settlements; 0.1–0.4 s on a loaded machine at 300
    # tables) still hands the seat over in time (docs/performance.md, clock21)
    "BOT_DECISION_LEAD_SECONDS": float(env.env_str("LEYOU_BOT_DECISION_LEAD_SECONDS", "0.5")),
    "BOT_APPLY_THREADS": env.env_int("LEYOU_BOT_APPLY_THREADS", 8 if env.DATABASE_URL else 1),
    # the decision processes' priority, lowered by this (nice): past what the cores can decide
    # in full, the moves keep the CPU and the decisions get the fallback. Off by default: on
    # the shared 2-core machine of 5 Dec it showed no gain (docs/performance.md, clock20)
    "BOT_DECISION_NICE": env.env_int("LEYOU_BOT_DECISION_NICE", 0),
    # test-only: game id -> seconds every decision of that game sleeps first (an overrun budget)
    "BOT_DECISION_TEST_DELAY": {},
    "RESETTLE_AFTER_SECONDS": env.env_int("LEYOU_RESETTLE_AFTER_SECONDS", 20),
    # a settlement task still marked queued this long is taken for lost and sent again
    "SETTLE_QUEUED_SECONDS": env.env_int("LEYOU_SETTLE_QUEUED_SECONDS", 600),
    # Database threads per ASGI process for the sockets' service calls. On PostgreSQL several
    # tables' transactions overlap (each thread keeps its own connection; the table row lock
    # still makes one writer per table); SQLite has one writer anyway: 0 = Channels' single
    # shared database thread.
    # 私人桌邀請碼: wrong codes allowed per user and per address in a window, then HTTP 429
    "INVITE_GUESSES_PER_USER": 10,
    "INVITE_GUESSES_PER_ADDRESS": 30,
    "INVITE_GUESS_WINDOW_SECONDS": 600,
    # 回放: who sees a finished hand's replay besides its players and staff (games.selectors)
    "REPLAY_PUBLIC_AFTER_HOURS": 24,
    "DB_THREADS": env.env_int("LEYOU_DB_THREADS", 6) if env.DATABASE_URL else 0,
    # 大廳: a lobby socket renews its 在大廳 mark and looks at its friends list this often
    "LOBBY_PRESENCE_SECONDS": float(env.env_str("LEYOU_LOBBY_PRESENCE_SECONDS", "20")),
    # 排行榜: after a settlement a board's top 100 and the totals behind the ranks are read
    # again at most this often (the viewer's own row and rank are always current)
    "LEADERBOARD_REFRESH_SECONDS": float(env.env_str("LEYOU_LEADERBOARD_REFRESH_SECONDS", "5")),
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
    "loggers": {"leyou": {"level": "INFO"}},
}
