"""The engine and every rules package are pure Python: no Django, no clock, no global random."""

from __future__ import annotations

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PURE = [ROOT / "games" / "engine", ROOT / "games" / "rules"]


def _modules() -> list[str]:
    names = []
    for base in PURE:
        package = "games." + base.name
        names.append(package)
        for info in pkgutil.walk_packages([str(base)], package + "."):
            if ".tests" not in info.name and not info.name.endswith(".tests"):
                names.append(info.name)
    return names


def _sources() -> list[Path]:
    return [p for base in PURE for p in sorted(base.rglob("*.py")) if "tests" not in p.parts]


def test_every_engine_and_rules_module_imports_without_django():
    """Importing games.engine and all of games.rules.* loads no django module at all."""
    modules = _modules()
    assert "games.rules.doudizhu.ruleset" in modules and len(modules) > 20
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')\n"
        "             or m.startswith(('channels', 'celery')))\n"
        "print('LOADED', len(sys.modules)); print('BAD', bad)\n"
        "sys.exit(1 if bad else 0)\n"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}  # no DJANGO_SETTINGS_MODULE
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "BAD []" in done.stdout


class _Impurities(ast.NodeVisitor):
    """Imports of random/time/secrets, and reads of the wall clock (datetime.now, today …)."""

    CLOCK = {"now", "utcnow", "today", "time", "monotonic", "perf_counter", "time_ns"}

    def __init__(self) -> None:
        self.found: list[str] = []

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._module(alias.name, node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.module:
            self._module(node.module, node)
            if node.module == "datetime":
                for alias in node.names:
                    if alias.name in ("datetime", "date"):
                        continue
                    self.found.append(f"line {node.lineno}: from datetime import {alias.name}")

    def _module(self, name: str, node: ast.AST) -> None:
        top = name.split(".")[0]
        if name == "random" and isinstance(node, ast.Import):
            return  # only seeded instances may be made of it: see visit_Attribute
        if top in ("random", "time", "secrets", "uuid", "django", "numpy"):
            self.found.append(f"line {node.lineno}: import {name}")

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "Random"
            and isinstance(func.value, ast.Name)
            and func.value.id == "random"
            and not node.args
        ):
            self.found.append(f"line {node.lineno}: random.Random() without a seed")
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr in self.CLOCK and isinstance(node.value, (ast.Name, ast.Attribute)):
            owner = node.value.attr if isinstance(node.value, ast.Attribute) else node.value.id
            if owner in ("datetime", "date", "time", "timezone"):
                self.found.append(f"line {node.lineno}: {owner}.{node.attr}")
        if isinstance(node.value, ast.Name) and node.value.id == "random" and node.attr != "Random":
            # random.Random(seed) is a generator of its own; random.random(), shuffle() … draw
            # from the process's global state
            self.found.append(f"line {node.lineno}: random.{node.attr}")
        if node.attr == "urandom":
            self.found.append(f"line {node.lineno}: os.urandom")
        self.generic_visit(node)


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_reads_the_clock_or_global_randomness(path):
    """Engines and rules never import random, time or secrets nor read datetime.now/today;
    chance.py alone may draw a fresh seed (from secrets), which only the service calls."""
    visitor = _Impurities()
    visitor.visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
    found = visitor.found
    if path.name == "chance.py" and path.parent.name == "engine":
        found = [f for f in found if not f.endswith("import secrets")]
        assert found == [], found
        return
    assert found == [], f"{path.relative_to(ROOT)}: {found}"
