#!/usr/bin/env bash
# Run the whole suite against real PostgreSQL and Redis (started here if not running) and a real
# Chromium (installed here from Debian's packages if missing).
set -uo pipefail
cd "$(dirname "$0")/.."

pg_up() { pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; }
redis_up() { redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; }

if ! pg_up && command -v pg_ctlcluster >/dev/null; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
  for _ in $(seq 1 30); do pg_up && break; sleep 1; done
fi
if ! redis_up && command -v redis-server >/dev/null; then
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log || true
  for _ in $(seq 1 30); do redis_up && break; sleep 1; done
fi
if pg_up; then export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/leyou}"; fi
if redis_up; then export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/0}"; fi

# Debian's Chromium for the browser tests, CJK fonts for legible screenshots, a C compiler
# for the 斗地主 move generator (./leyou builds it; a test fails if the suite runs without it),
# and nginx for the deploy test (tests/live/test_nginx_deploy.py runs its own, not the service)
missing=""
command -v chromium >/dev/null || missing="chromium"
{ command -v nginx || [ -x /usr/sbin/nginx ]; } >/dev/null || missing="$missing nginx"
command -v gcc >/dev/null || missing="$missing gcc"
fc-list 2>/dev/null | grep -qi "Noto Sans CJK" || missing="$missing fonts-noto-cjk"
if [ -n "$missing" ]; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing) \
    >/dev/null 2>&1 || echo "warning: could not install $missing; the tests that need it will fail"
fi

# ./leyou builds the C extensions before this script runs; if gcc came only now, build them now
if { ! ls games/rules/doudizhu/_movegen*.so || ! ls games/rules/mahjong/_mjsim*.so; } \
    >/dev/null 2>&1 && command -v gcc >/dev/null; then
  .venv/bin/python setup.py -q build_ext --inplace >/dev/null 2>&1 || echo "warning: C build failed"
fi

# The embedded default first (what `./leyou start` runs: SQLite and the in-memory channel layer,
# no servers): every hall page, the clock, a bot-filled hand of every game over its socket,
# settlement, the leaderboards, the economy report and the clock inside the server process.
# Only with no pytest arguments (a chosen test runs once, on the databases below).
EMBEDDED=(
  tests/test_i18n_pages.py
  lobby/tests/test_hall_views.py
  lobby/tests/test_views.py
  lobby/tests/test_leaderboards.py
  accounts/tests/test_hall.py
  accounts/tests/test_views.py
  games/tests/test_clock_wake.py
  games/tests/test_clock_apply.py
  games/tests/test_hand_over_socket_all_games.py
  games/tests/test_dafengshou_rounds.py
  ledger/tests/test_settlement_moves.py
  ledger/tests/test_economy.py
  ledger/tests/test_admin.py
  lobby/tests/test_rules_pages.py
  lobby/tests/test_operator_admin.py
  tests/live/test_embedded_clock.py
)
embedded=0
if [ $# -eq 0 ]; then
  echo "database: sqlite (embedded)  channel layer: in-memory  (the embedded default's part)"
  env -u DATABASE_URL -u REDIS_URL .venv/bin/python -m pytest -p no:cacheprovider "${EMBEDDED[@]}"
  embedded=$?
fi

echo "database: ${DATABASE_URL:-sqlite (embedded)}  channel layer: ${REDIS_URL:-in-memory}"
# the habits of the field first (ruff check, ruff format --check, mypy --strict): a failure there
# fails the run, after the tests have run too
bash scripts/lint.sh; lint=$?
# the whole suite last: its closing summary line is the run's
.venv/bin/python -m pytest "$@"; tests=$?
[ $lint -eq 0 ] || echo "lint failed (scripts/lint.sh)"
[ $embedded -eq 0 ] || echo "the embedded default's part failed (exit $embedded; its summary is above)"
[ $tests -ne 0 ] && exit $tests
[ $embedded -ne 0 ] && exit $embedded
exit $lint
