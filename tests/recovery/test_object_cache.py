"""A value per live object, computed once and forgotten with the object (recovery/object_cache.py)."""

from __future__ import annotations

import weakref

from hypothesis import given
from hypothesis import strategies as st

from skymarshal.recovery.object_cache import PerObject


class Thing:
    pass


@given(st.lists(st.booleans(), min_size=1, max_size=30))
def test_each_live_object_gets_its_own_value_once_and_the_dead_ones_are_forgotten(keep):
    cache: PerObject[Thing, list[int]] = PerObject()
    things = [Thing() for _ in keep]
    built: list[int] = []

    def build(thing: Thing) -> list[int]:
        built.append(id(thing))
        return [id(thing)]

    values = [cache.get(t, build) for t in things]
    assert [cache.get(t, build) for t in things] == values and len(built) == len(things)
    assert all(v is cache.get(t, build) for v, t in zip(values, things, strict=True))
    dead = [weakref.ref(t) for t, k in zip(things, keep, strict=True) if not k]
    things = [t for t, k in zip(things, keep, strict=True) if k]
    # No cycles: each dropped Thing is freed here by its reference count (a gc.collect() per example is seconds
    # in a worker that holds the seeded airline).
    assert all(ref() is None for ref in dead)
    assert len(cache) == len(things) and all(t in cache for t in things)
