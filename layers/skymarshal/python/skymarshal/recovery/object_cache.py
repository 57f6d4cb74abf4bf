"""A value computed once per live object, forgotten when the object is collected.

The solver costs thousands of plans against one instance and its network, so what depends only on them (trip
facts, trip prices, routing bounds) is worth keeping while they live; a cache that held them itself would keep a
whole day's network alive in a long-running process (the local server ran nine of them per cache).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class PerObject(Generic[K, V]):
    """`get(obj, build)`: `build(obj)` the first time for each live object, the same value after that."""

    def __init__(self) -> None:
        self._values: dict[int, tuple[weakref.ref[K], V]] = {}

    def get(self, obj: K, build: Callable[[K], V]) -> V:
        key = id(obj)
        cached = self._values.get(key)
        if cached is None or cached[0]() is not obj:
            cached = self._values[key] = (weakref.ref(obj), build(obj))
            weakref.finalize(obj, self._values.pop, key, None)
        return cached[1]

    def __contains__(self, obj: object) -> bool:
        cached = self._values.get(id(obj))
        return cached is not None and cached[0]() is obj

    def __len__(self) -> int:
        return len(self._values)
