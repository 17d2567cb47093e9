"""The games app reaches the other apps only through their services, selectors and exceptions."""

from __future__ import annotations

import ast
from pathlib import Path

GAMES_DIR = Path(__file__).resolve().parents[1]
ALLOWED = {"services", "selectors", "exceptions"}


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            out += [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            out += [a.name for a in node.names]
    return out


def test_games_uses_ledger_and_accounts_only_through_their_services_and_selectors() -> None:
    """No module of the games app (tests and migrations aside) imports ``ledger.models``,
    ``accounts.models`` or anything of ``lobby``: the ledger's lock order and transfer kinds
    stay owned by ``ledger.services``."""
    bad = []
    for path in GAMES_DIR.rglob("*.py"):
        if {"tests", "migrations"} & set(path.relative_to(GAMES_DIR).parts):
            continue
        for module in _imports(path):
            parts = module.split(".")
            if parts[0] == "lobby":
                bad.append((str(path.relative_to(GAMES_DIR)), module))
            elif parts[0] in ("ledger", "accounts") and len(parts) > 1 and parts[1] not in ALLOWED:
                bad.append((str(path.relative_to(GAMES_DIR)), module))
    assert bad == []
