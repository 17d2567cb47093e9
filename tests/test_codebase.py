"""Rules about the code base itself, checked by reading the source tree at run time.

Issue #17 §7: every test says what it proves. The walk happens when the test runs, so tests
that arrive on other branches are held to the rule as soon as they are merged.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the directories pytest does not collect (pyproject's norecursedirs), plus build output
SKIPPED = {"var", "node_modules", "static", "templates", "build", "__pycache__"}


def collected_test_files(root: Path = ROOT) -> Iterator[Path]:
    """Every ``test_*.py`` under ``root`` that pytest would collect, in a stable order."""
    for path in sorted(root.rglob("test_*.py")):
        parts = path.relative_to(root).parts[:-1]
        if not any(part in SKIPPED or part.startswith(".") for part in parts):
            yield path


def undocumented(source: str, filename: str = "<source>") -> list[tuple[int, str]]:
    """(line, name) of each function or method named ``test…`` without a non-blank docstring."""
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    return sorted(
        (node.lineno, node.name)
        for node in ast.walk(ast.parse(source, filename=filename))
        if isinstance(node, functions)
        and node.name.startswith("test")
        and not (ast.get_docstring(node) or "").strip()
    )


def test_every_test_function_has_a_docstring() -> None:
    """Every test function and method in every collected test file of the repository has a
    docstring; the failure names each one without (file:line name) so it can be fixed."""
    files = list(collected_test_files())
    assert len(files) > 50, f"the walk found only {len(files)} test files under {ROOT}"
    assert Path(__file__).resolve() in files
    missing = [
        f"{path.relative_to(ROOT)}:{line} {name}"
        for path in files
        for line, name in undocumented(path.read_text(encoding="utf-8"), str(path))
    ]
    assert not missing, (
        f"{len(missing)} test function(s) without a docstring saying what they prove:\n"
        + "\n".join(missing)
    )


def test_the_check_finds_what_it_should(tmp_path: Path) -> None:
    """The checker flags a test function, async test and test method without a docstring or
    with a blank one, ignores helpers and documented tests, and skips var/ and hidden dirs."""
    source = '''
def helper():
    pass

def test_documented():
    """Proves something."""

def test_bare():
    assert True

async def test_async_bare():
    pass

class TestGroup:
    def test_method_bare(self):
        pass

    def test_blank(self):
        """ """
'''
    assert undocumented(source) == [
        (8, "test_bare"),
        (11, "test_async_bare"),
        (15, "test_method_bare"),
        (18, "test_blank"),
    ]
    for folder in ("app/tests", "var/bench", ".venv/lib", "node_modules/x"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "test_x.py").write_text(source)
    (tmp_path / "app" / "tests" / "helper_x.py").write_text(source)
    assert [p.relative_to(tmp_path).as_posix() for p in collected_test_files(tmp_path)] == [
        "app/tests/test_x.py"
    ]
