"""The rescue move holds the flight onward for passengers a plan leaves behind; the seat-aware flight value.

`stranded_tiny`: the window opens at 13:00; 102 (BBB-AAA) is delayed 45 min to land at 12:45, before the
window, so itinerary 2's 5 passengers (102 -> 103 at AAA) can board nothing before 13:15 and 103 (AAA-CCC)
leaves at 13:00: no later flight reaches CCC. Holding 103 for 15 minutes takes them home.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skymarshal.recovery import moves
from skymarshal.recovery.aircraft_plan import Weights, _step_value, seat_count
from skymarshal.recovery.checker import check
from skymarshal.recovery.network import build_network
from skymarshal.recovery.passengers import plan_passengers
from skymarshal.recovery.rescue import MAX_HOLD, free_seats, holds_for, left_behind
from skymarshal.recovery.solver import _Search, construct, to_rows

from .test_solver import DISRUPTION, _disrupted_tiny
from .tiny import FILES, tiny_instance

STRANDED = {
    "config.csv": FILES["config.csv"].replace("01/01/09 08:00", "01/01/09 13:00"),
    "aircraft.csv": FILES["aircraft.csv"].replace(
        "P1 M1 FAM 0/10/50 300 1000.0 30 20", "P1 M1 FAM 0/10/50 300 1000.0 10 5"
    ),
    "alt_flights.csv": "102 01/01/09 45\n#",
}


def _reaches(search: _Search, lines, itinerary_id: int) -> int:
    net = search.net
    return sum(
        line.passengers
        for line in lines
        if net.trips[line.trip].itinerary.id == itinerary_id
        and line.legs
        and net.flights[line.legs[-1][0]].destination == net.trips[line.trip].facts.destination
    )


def test_rescue_holds_the_flight_the_stranded_passengers_just_miss(tmp_path):
    instance = tiny_instance(tmp_path, **STRANDED)
    search = _Search(instance, seed=0)
    search.offer(construct(search.net, Weights(), list(instance.aircraft)))
    assert _reaches(search, search.seating.lines, 2) == 0  # 103 left at 13:00 without them
    assert [search.net.trips[t].itinerary.id for t, _ in left_behind(search.incumbent, search.seating.lines)] == [2]
    rescued = moves.rescue(search.incumbent, search.seating.lines, random.Random(0), Weights())
    assert rescued is not None
    lines = plan_passengers(rescued)
    assert _reaches(search, lines, 2) == 5
    assert check(instance, to_rows(rescued, lines)) == []


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    disruption=DISRUPTION,
    seed=st.integers(0, 10**6),
    moves=st.integers(0, 6),
)
def test_holds_only_delay_free_flights_with_a_seat_within_the_limit(tmp_path_factory, disruption, seed, moves):
    instance = _disrupted_tiny(tmp_path_factory.mktemp("tiny"), **disruption)
    search = _Search(instance, seed)
    search.offer(construct(search.net, Weights(), list(instance.aircraft)))
    for _ in range(moves):
        search.offer(search.neighbour())
    plan, lines = search.incumbent, search.seating.lines
    free = free_seats(plan, lines)
    for t in range(len(search.net.trips)):
        for idx, departure in (holds_for(plan, t, free) or {}).items():
            f = search.net.flights[idx]
            assert f.status == "free" and plan.aircraft_of[idx] is not None and free[idx] > 0
            assert plan.departure[idx] < departure <= plan.departure[idx] + MAX_HOLD


@pytest.fixture(scope="module")
def tiny_net(tmp_path_factory):
    return build_network(tiny_instance(tmp_path_factory.mktemp("tiny")))


@given(
    passengers=st.integers(1, 400),
    small=st.integers(0, 300),
    extra=st.integers(0, 300),
    spill=st.floats(0.0, 1.0),
)
def test_a_flight_is_worth_no_less_on_a_bigger_aircraft(tiny_net, passengers, small, extra, spill):
    net = tiny_net
    f = replace(net.flights[0], passengers=passengers, cancel_worth=100.0 * passengers)
    base = net.aircraft["P1"]
    smaller = base.model_copy(update={"seats": {"F": 0, "B": 0, "E": small}})
    bigger = base.model_copy(update={"seats": {"F": 0, "B": 0, "E": small + extra}})
    weights = Weights(spill_factor=spill)
    low, high = (_step_value(net, f, a, 0, weights) for a in (smaller, bigger))
    assert low <= high
    if seat_count(smaller) >= passengers:
        assert low == _step_value(net, f, smaller, 0, Weights(spill_factor=0.0))
