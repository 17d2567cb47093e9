"""CI runs the mahjong bot's C extension (``_mjsim``): without it the 樂清 claim search is off
and ``test_mjsim``'s checks skip, so a build that silently failed must fail the suite."""

from __future__ import annotations

import os

import pytest

from games.rules.mahjong import bot


def test_extension_in_use() -> None:
    """The extension is built and counts (unless LEYOU_NATIVE=0 asks for the Python count):
    four sets and a pair need nothing more (−1); one tile short of a pair is ready (0)."""
    if os.environ.get("LEYOU_NATIVE") == "0":
        pytest.skip("LEYOU_NATIVE=0: the Python count is asked for")
    assert bot.native is not None
    win = [0] * 34
    for k in (0, 1, 2, 9, 10, 11, 18, 19, 20, 27):
        win[k] += 1
    win[27] += 2
    win[30] += 2
    assert bot.regular_shanten(tuple(win), 0, 4) == -1
    win[30] -= 1
    assert bot.regular_shanten(tuple(win), 0, 4) == 0
