#!/usr/bin/env bash
# The checks the suite's command runs before the tests (and .pre-commit-config.yaml runs on commit):
# ruff's lint rules, ruff's formatting, and mypy --strict over the engines, the rules and the
# ledger's services (pyproject.toml holds each tool's configuration).
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
.venv/bin/ruff check . || status=1
.venv/bin/ruff format --check . || status=1
.venv/bin/mypy games/engine games/rules ledger/services.py || status=1
exit $status
