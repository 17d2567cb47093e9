"""The only source of randomness for engines: a deterministic stream derived from a hand's seed.

Algorithm (documented so that anyone can re-derive a deal from the revealed seed):

* A seed is a string of 64 hex digits (32 bytes) drawn by the service from ``secrets``.
* Its public commitment is ``sha256(seed.encode("ascii")).hexdigest()``, shown at the deal.
* The stream: block ``i`` (i = 0, 1, …) is ``sha256(f"{seed}:{label}:{i}".encode())``; the
  blocks are read as a sequence of 8-byte big-endian unsigned integers.
* ``below(n)`` draws uniform integers in ``[0, n)`` by rejection sampling on 64-bit words
  (reject words ≥ the largest multiple of n), so there is no modulo bias.
* ``shuffle(items)`` is the Fisher–Yates shuffle: for i from len−1 down to 1, swap i with
  ``below(i + 1)``.

Different ``label`` values give independent streams from one seed (``"deal"`` for the deal,
``"laizi"`` for a later draw, …), so adding a draw to one phase never changes another.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_WORD = 1 << 64


def new_seed() -> str:
    """Return a fresh seed from the operating system's CSPRNG (only the service calls this)."""
    return secrets.token_hex(32)


def seed_commitment(seed: str) -> str:
    """Return the public hash of a seed, shown before the hand and checked after it."""
    return hashlib.sha256(seed.encode("ascii")).hexdigest()


class Chance:
    """A deterministic random stream for one (seed, label)."""

    __slots__ = ("_seed", "_label", "_block", "_buffer")

    def __init__(self, seed: str | int, label: str = "deal") -> None:
        self._seed = str(seed)
        self._label = label
        self._block = 0
        self._buffer: list[int] = []

    def _word(self) -> int:
        if not self._buffer:
            digest = hashlib.sha256(f"{self._seed}:{self._label}:{self._block}".encode()).digest()
            self._block += 1
            self._buffer = [int.from_bytes(digest[i : i + 8], "big") for i in range(24, -1, -8)]
        return self._buffer.pop()

    def below(self, n: int) -> int:
        """Return a uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _WORD - (_WORD % n)
        while True:
            w = self._word()
            if w < limit:
                return w % n

    def choice(self, items: Sequence[T]) -> T:
        """Return one item, uniformly."""
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """Return a Fisher–Yates shuffled copy."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
