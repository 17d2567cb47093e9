"""The rules' own tests run the engines as pure code: no wall clock reaches a bot's search.

The platform sets ``games.engine.budget.WALL_CLOCK`` at start-up (``games.apps``), and the test
process starts Django; without this a loaded machine could cut a search short and change a
decision that a test compares. A test of the cap itself sets its own clock.
"""

from __future__ import annotations

import pytest

from games.engine import budget


@pytest.fixture(autouse=True)
def _pure_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget, "WALL_CLOCK", None)
