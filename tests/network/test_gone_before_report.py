"""A flight that left before the report (an inbound in the air into a capacity cut's window) flies as it is: the hold
plan neither re-times nor cancels it, and the slot it lands in is taken before any other flight is given one (bad
day seed 1, E003: a 04:50 report was planned as of a 21:05 departure the evening before, so flown flights were
re-timed and a crew that had flown was found over its FDP and its flights cancelled)."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta

import row_builders

from skymarshal.models.disruption import Window
from skymarshal.models.network_plan import NetworkRestriction
from skymarshal.models.operational import Flight
from skymarshal.network.hold import gone_movements, hold_actions
from skymarshal.network.scope import NetworkScope

NOW = datetime(2027, 1, 20, 4, 50, tzinfo=UTC)
WINDOW = Window(start=NOW + timedelta(hours=1), end=NOW + timedelta(hours=5))


def _inbound(number: str, departs: datetime, minutes: int, tail: str) -> Flight:
    return row_builders.flight(
        number, "BKK", "AUH", departs, minutes, tail, "B789", distance_km=4900, flight_id=f"{number}-20270120"
    )


def _scope(flights: list[Flight], decision: datetime) -> NetworkScope:
    restriction = row_builders.capacity_cut(WINDOW, rate=1, normal=10)
    return NetworkScope(restriction, flights, [], decision, NOW + timedelta(days=1), flights, known_at=NOW)


def test_a_flight_in_the_air_flies_as_it_is_and_takes_its_landing_hour_first():
    hour = WINDOW.start.replace(minute=0) + timedelta(hours=1)
    airborne = _inbound("EY401", NOW - timedelta(hours=3), 4 * 60 + 25, "A6-BLA")  # lands at hour + 0:15
    waiting = _inbound("EY403", NOW + timedelta(minutes=10), 60 + 5, "A6-BLB")  # scheduled to land at hour + 0:05
    assert airborne.scheduled_arrival.replace(minute=0) == hour == waiting.scheduled_arrival.replace(minute=0)
    rotations = {"A6-BLA": [airborne], "A6-BLB": [waiting]}
    # planned as of the earliest departure (the old decision instant) the airborne flight still looks re-plannable
    scope = _scope([airborne, waiting], decision=airborne.scheduled_departure)
    assert scope.gone(airborne) and not scope.gone(waiting)  # the report's now says it has left
    used = gone_movements(rotations, scope)
    assert used == Counter({("A", hour): 1})
    rows = {a.flight_id: a for a in hold_actions(rotations, scope, used, {})}
    assert airborne.flight_id not in rows  # no row: nothing re-times or cancels it
    held = rows[waiting.flight_id]
    assert held.action == "retime" and held.new_arrival is not None
    assert held.new_arrival.replace(minute=0) == hour + timedelta(hours=1)  # the hour's one arrival is taken


def test_a_flight_a_report_names_as_held_is_on_the_ground_past_its_schedule():
    held = _inbound("EY405", NOW - timedelta(minutes=30), 300, "A6-BLC")
    other = _inbound("EY407", NOW - timedelta(minutes=40), 300, "A6-BLD")
    named = NetworkRestriction(kind="flights", airport="BKK", window=WINDOW, flight_numbers=["EY405"])
    scope = NetworkScope(named, [held], [], held.scheduled_departure, NOW + timedelta(days=1), [], known_at=NOW)
    assert not scope.gone(held) and scope.gone(other)
