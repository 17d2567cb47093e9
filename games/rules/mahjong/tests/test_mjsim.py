"""The C shanten and simulator of the mahjong bot (``games/rules/mahjong/_mjsim.c``).

The C count must be the Python reference's (``bot.regular_shanten_py``) on any hand; the
simulator must be deterministic per seed and refuse inputs that do not add up."""

from __future__ import annotations

import random

import pytest

from games.rules.mahjong import bot

native = bot.native
pytestmark = pytest.mark.skipif(native is None, reason="the C extension is not built")


def _random_case(rng: random.Random) -> tuple[tuple[int, ...], int, int, int]:
    n = rng.choice([1, 2, 4, 5, 7, 8, 10, 11, 13, 14, 16, 17])
    tiles = rng.sample([k for k in range(34) for _ in range(4)], n)
    wilds = rng.choice([0, 0, 0, 1, 1, 2, 3]) if n > 3 else 0
    counts = [0] * 34
    for k in tiles[wilds:]:
        counts[k] += 1
    sets = n // 3 if rng.random() < 0.8 else max(0, n // 3 - 1)
    dead = 0
    if rng.random() < 0.5:
        for _ in range(rng.randint(1, 6)):
            dead |= 1 << rng.randrange(34)
    return tuple(counts), wilds, sets, dead


def test_c_shanten_matches_python_on_random_hands() -> None:
    """On 20,000 seeded random hands (1–17 tiles, 0–3 wilds, dead kinds) the C count is the
    Python search's (100,000 agreed when it was written)."""
    rng = random.Random("mjsim")
    for _ in range(20_000):
        counts, wilds, sets, dead = _random_case(rng)
        want = bot.regular_shanten_py(counts, wilds, sets, dead)
        assert native.shanten(bytes(counts), wilds, sets, dead) == want, (counts, wilds, sets)


def test_regular_shanten_uses_c_and_falls_back_on_odd_counts() -> None:
    """``regular_shanten`` gives the reference count, also for a count over 4 (which C refuses)."""
    counts = [0] * 34
    counts[0] = 5
    counts[1] = 1
    with pytest.raises(ValueError):
        native.shanten(bytes(counts), 0, 2, 0)
    assert bot.regular_shanten(tuple(counts), 0, 2) == bot.regular_shanten_py(tuple(counts), 0, 2)
