"""A plan sees only what is known when it is made: a work order the generated world opens after the report's now
(A6-BLQ's hydraulic defect, found at 08:40 on 20 January) grounds nothing in a plan made at 04:50, and grounds the
tail in one made after it (Part-M M.A.403 on what is recorded, never on the future)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from skymarshal.data import queries as q
from skymarshal.models.disruption import Window
from skymarshal.models.network_plan import NetworkRestriction
from skymarshal.network.groups import grounded
from skymarshal.network.scope import NetworkScope

FOUND = datetime(2027, 1, 20, 8, 40, tzinfo=UTC)


def _scope(known_at: datetime) -> NetworkScope:
    window = Window(start=datetime(2027, 1, 20, 6, tzinfo=UTC), end=datetime(2027, 1, 20, 10, tzinfo=UTC))
    restriction = NetworkRestriction(
        kind="closure", airport="AUH", window=window, departures_per_hour=0, arrivals_per_hour=0
    )
    decision = min(known_at, window.start)
    return NetworkScope(restriction, [], [], decision, window.end + timedelta(hours=24), [], known_at=known_at)


def test_a_defect_found_after_the_plan_is_made_grounds_nothing_and_one_found_before_grounds_the_tail(account):
    handle = account.handle()
    (day,) = [d for d in q.fleet_of_type(handle, "B789", FOUND.date()) if d.aircraft_registration == "A6-BLQ"]
    assert day.status not in ("AOG", "MAINTENANCE")
    before = grounded(handle, day, _scope(FOUND - timedelta(hours=4)))
    after = grounded(handle, day, _scope(FOUND + timedelta(minutes=5)))
    assert before.status == day.status
    assert after.status == "AOG" and "not airworthy" in (after.note or "")


def test_known_is_the_plan_s_now_else_its_decision():
    scope = _scope(FOUND)
    assert scope.known(FOUND) and not scope.known(FOUND + timedelta(seconds=1))
    bare = NetworkScope(scope.restriction, [], [], FOUND, FOUND + timedelta(hours=1), [])
    assert bare.known(FOUND - timedelta(hours=1)) and not bare.known(FOUND + timedelta(hours=1))
