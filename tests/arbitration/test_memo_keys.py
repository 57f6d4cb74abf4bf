"""The arbitrator's memo is keyed by one class per kind of cached read (arbitration/memo_keys.py): two kinds with
the same values are two entries, so one read never answers for another (ad-hoc tuples collided once)."""

from __future__ import annotations

import dataclasses
import inspect

from skymarshal.arbitration import memo_keys
from skymarshal.arbitration.context import DisruptionContext
from skymarshal.arbitration.memo_keys import BookingsRead, FlightRead, MemoKey, SeatsRead


def _context() -> DisruptionContext:
    """A context for its memo only."""
    ctx = DisruptionContext.__new__(DisruptionContext)
    ctx._cache = {}
    return ctx


def test_kinds_with_the_same_values_are_distinct_entries():
    ctx = _context()
    assert ctx.memo(FlightRead("EY123-20270120"), lambda: "flight") == "flight"
    assert ctx.memo(BookingsRead("EY123-20270120"), lambda: "bookings") == "bookings"
    assert ctx.memo(SeatsRead("EY123-20270120"), lambda: "seats") == "seats"
    assert len(ctx._cache) == 3
    assert FlightRead("EY123-20270120") != BookingsRead("EY123-20270120")  # one base, two kinds
    assert FlightRead("EY123-20270120") == FlightRead("EY123-20270120")


def test_the_same_key_is_computed_once():
    ctx, calls = _context(), []
    for _ in range(3):
        ctx.memo(FlightRead("EY123-20270120"), lambda: calls.append(1) or len(calls))
    assert calls == [1]


def test_every_key_is_a_frozen_dataclass_kind():
    kinds = [
        c for _, c in inspect.getmembers(memo_keys, inspect.isclass) if issubclass(c, MemoKey) and c is not MemoKey
    ]
    assert len(kinds) >= 20
    for kind in kinds:
        assert dataclasses.is_dataclass(kind) and kind.__dataclass_params__.frozen, kind  # type: ignore[attr-defined]
