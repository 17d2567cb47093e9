"""Fixtures shared by the table, clock and bot tests of ``games``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games.decisions import DecisionPool


@pytest.fixture
def pool_factory() -> Iterator[Any]:
    """Make real decision pools (worker processes started, budget 0.25 s unless given); every
    pool made is stopped after the test."""
    made: list[DecisionPool] = []

    def make(**kwargs: Any) -> DecisionPool:
        options = {"workers": 2, "budget": 0.25, "apply_threads": 8, **kwargs}
        pool = DecisionPool(**options)
        pool.warm()
        made.append(pool)
        return pool

    yield make
    for pool in made:
        pool.stop()
