"""The hold plan (network.hold): waiting as a plan. Property (hypothesis): on a hub-and-spoke airline whose hub
closes or loses capacity for a window, every flight leaves at or after its schedule, none moves at the hub while it
is closed, each clock hour of the window keeps to its rate (the hour it opens in, to the part it covers) and so does
the backlog held past it, every tail still
turns in its type's minimum after a late flight, and nothing is cancelled or swapped."""

from __future__ import annotations

import itertools
from collections import Counter
from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st
from test_continuity import DAY, airline

from skymarshal.models.disruption import Window
from skymarshal.models.fleet import AIRCRAFT_TYPES
from skymarshal.models.network_plan import NetworkRestriction
from skymarshal.network.hold import hold_actions
from skymarshal.network.scope import NetworkScope
from skymarshal.network.tails import broken_turn, plan_legs
from skymarshal.rules.slots import hour_allowance


def _busiest(flights, kind: str) -> int:
    hours = Counter(
        (f.scheduled_departure if kind == "D" else f.scheduled_arrival).replace(minute=0)
        for f in flights
        if (f.origin if kind == "D" else f.destination) == "AUH"
    )
    return max(hours.values(), default=0)


def _scope(rotations, window: Window, rate: int | None) -> NetworkScope:
    closure = rate is None
    flights = [f for rows in rotations.values() for f in rows]
    restriction = NetworkRestriction(
        kind="closure" if closure else "capacity",
        airport="AUH",
        window=window,
        departures_per_hour=0 if closure else rate,
        arrivals_per_hour=0 if closure else rate,
        normal_departures_per_hour=_busiest(flights, "D"),  # the airline's busiest hour there, as the scope reads it
        normal_arrivals_per_hour=_busiest(flights, "A"),
    )
    affected = [
        f
        for f in flights
        if (f.origin == "AUH" and window.start <= f.scheduled_departure < window.end)
        or (f.destination == "AUH" and window.start <= f.scheduled_arrival < window.end)
    ]
    return NetworkScope(restriction, affected, [], DAY - timedelta(hours=1), DAY + timedelta(days=2), flights)


@settings(max_examples=40, deadline=None)
@given(
    spokes=st.lists(st.integers(0, 4), min_size=4, max_size=4),
    stagger=st.lists(st.integers(0, 600), min_size=4, max_size=4),
    opens=st.integers(0, 16),
    past=st.sampled_from([0, 0, 10, 30, 50]),
    hours=st.integers(1, 6),
    rate=st.one_of(st.none(), st.integers(1, 4)),
)
def test_held_flights_leave_at_their_slots_and_every_tail_still_turns(spokes, stagger, opens, past, hours, rate):
    rotations = airline(spokes, stagger)
    start = DAY.replace(minute=0) + timedelta(hours=opens, minutes=past)
    window = Window(start=start, end=start + timedelta(hours=hours))
    scope = _scope(rotations, window, rate)
    rows = hold_actions(rotations, scope, Counter(), {})
    assert {a.action for a in rows} <= {"operate", "retime"}
    assert all(a.new_registration == a.registration for a in rows)
    r = scope.restriction
    times = {a.flight_id: (a.new_departure, a.new_arrival) for a in rows}
    used: Counter = Counter()
    for a in rows:
        assert a.new_departure is not None and a.new_arrival is not None
        assert a.new_departure >= a.scheduled_departure
        assert a.new_arrival - a.new_departure == a.scheduled_arrival - a.scheduled_departure
    for f in (f for rows_ in rotations.values() for f in rows_):
        departure, arrival = times.get(f.flight_id, (f.scheduled_departure, f.scheduled_arrival))
        for kind, airport, at in (("D", f.origin, departure), ("A", f.destination, arrival)):
            if airport == "AUH" and window.start <= at < window.end:  # the movements the restriction regulates
                used[(kind, at.replace(minute=0))] += 1
                if rate is None:
                    assert not window.start <= at < window.end, (f.flight_id, at)
    for (kind, hour), n in used.items():
        # each hour keeps to its rate, the one the window opens in for the part it covers (a partial last hour: its rate)
        assert n <= hour_allowance(rate or 0, window.start, hour), (kind, hour, n)
    backlog: Counter = Counter()  # after it, the flights held past it go at the same rate while the backlog lasts
    for a in rows:
        if a.action == "retime":
            assert a.new_departure is not None and a.new_arrival is not None
            for kind, airport, at in (("D", a.origin, a.new_departure), ("A", a.destination, a.new_arrival)):
                if airport == "AUH" and at >= window.end and "slot" in a.reason:
                    backlog[(kind, at.replace(minute=0))] += 1
    after = {"D": r.normal_departures_per_hour, "A": r.normal_arrivals_per_hour} if rate is None else None
    assert all(n <= (after[kind] if after else rate) for (kind, _), n in backlog.items()), backlog
    assert all(a.delay_minutes < 24 * 60 for a in rows)  # a backlog clears within the day
    for legs in plan_legs(rows, rotations).values():
        for previous, leg in itertools.pairwise(legs):
            assert broken_turn(previous, leg) is None


def test_a_late_tail_takes_its_minimum_turn_and_the_reason_says_so():
    rotations = airline([0, 1, 2, 3], [0, 0, 0, 0], rounds=2)
    first = rotations["A6-BLA"][1]  # LHR-AUH, lands 6 h 30 in (the 300-minute block, out at +390)
    window = Window(
        start=first.scheduled_arrival - timedelta(minutes=30), end=first.scheduled_arrival + timedelta(hours=3)
    )
    rows = {a.flight_id: a for a in hold_actions(rotations, _scope(rotations, window, None), Counter(), {})}
    held, after = rows[first.flight_id], rows[rotations["A6-BLA"][2].flight_id]
    assert held.new_arrival is not None and held.new_arrival >= window.end
    turn = timedelta(minutes=AIRCRAFT_TYPES[after.aircraft_type].min_turn_minutes)
    assert after.new_departure == max(held.new_arrival + turn, after.scheduled_departure)
    assert "knock-on" in after.reason or after.new_departure.hour == window.end.hour


def test_a_flight_an_earlier_decision_delayed_is_never_moved_earlier_and_its_tail_follows():
    rotations = airline([0, 1, 2, 3], [0, 0, 0, 0], rounds=2)
    legs = rotations["A6-BLA"]
    late = legs[1]  # an earlier decision held it 7 hours (a crew's rest): its estimate is now past the next leg's
    late_by = timedelta(hours=7)
    legs[1] = late.model_copy(
        update={
            "estimated_departure": late.scheduled_departure + late_by,
            "estimated_arrival": late.scheduled_arrival + late_by,
            "status": "DELAYED",
        }
    )
    # a cut its schedule falls in, wide enough to hold nothing: only the estimate moves it
    window = Window(
        start=late.scheduled_arrival - timedelta(minutes=30), end=late.scheduled_arrival + timedelta(hours=1)
    )
    rows = {a.flight_id: a for a in hold_actions(rotations, _scope(rotations, window, 10), Counter(), {})}
    kept = rows[late.flight_id]
    assert kept.new_departure == late.scheduled_departure + late_by, kept
    after = rows[legs[2].flight_id]
    turn = timedelta(minutes=AIRCRAFT_TYPES[after.aircraft_type].min_turn_minutes)
    assert after.new_departure is not None and after.new_departure >= late.scheduled_arrival + late_by + turn
    for tail_legs in plan_legs(list(rows.values()), rotations).values():
        for previous, leg in itertools.pairwise(tail_legs):
            assert broken_turn(previous, leg) is None
