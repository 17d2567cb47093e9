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

echo "database: ${DATABASE_URL:-sqlite (embedded)}  channel layer: ${REDIS_URL:-in-memory}"
# the habits of the field first (ruff check, ruff format --check, mypy --strict): a failure there
# fails the run, after the tests have run too
bash scripts/lint.sh; lint=$?
.venv/bin/python -m pytest "$@"; tests=$?
[ $lint -eq 0 ] || echo "lint failed (scripts/lint.sh)"
[ $tests -ne 0 ] && exit $tests
exit $lint
