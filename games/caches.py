"""Every per-process cache of the live table, behind one small type with one eviction rule.

A server process keeps a few maps keyed by table or hand so that the sockets of a change share
one decode and the next move on a table need not read again what the last one committed. Each
is correct only because every change of a table moves its ``seq`` forward: an entry is used
only at (or past) the seq it names, so an entry is never wrong, at worst unused. That makes
the eviction rule simple: a cache that reaches its bound is emptied whole (the next reads
simply read again), with no per-entry bookkeeping on the hot path.

Tests empty them all with :func:`clear_all` (each test starts from a cold process).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")

_all: list[ProcessCache] = []  # type: ignore[type-arg]


class ProcessCache(Generic[K, V]):
    """A bounded map local to this process, emptied whole when full."""

    __slots__ = ("name", "max_size", "_data")

    def __init__(self, name: str, max_size: int) -> None:
        self.name = name
        self.max_size = max_size
        self._data: dict[K, V] = {}
        _all.append(self)

    def get(self, key: K) -> V | None:
        return self._data.get(key)

    def put(self, key: K, value: V) -> None:
        if key not in self._data and len(self._data) >= self.max_size:
            self._data.clear()  # a bound, not a policy: the next uses read again
        self._data[key] = value

    def pop(self, key: K) -> V | None:
        return self._data.pop(key, None)

    def clear(self) -> None:
        self._data.clear()

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __len__(self) -> int:
        return len(self._data)

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __repr__(self) -> str:
        return f"<ProcessCache {self.name}: {len(self._data)}/{self.max_size}>"


def clear_all() -> None:
    """Empty every per-process cache (tests; a process that wants a cold start)."""
    for cache in _all:
        cache.clear()


def caches() -> list[ProcessCache]:  # type: ignore[type-arg]
    """Every cache of this process (for operators' metrics and tests)."""
    return list(_all)
