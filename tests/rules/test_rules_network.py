"""Delay propagation through turn buffers, and misconnections against the MCT."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from ops_rows import booking, flight, profile, utc

from skymarshal.rules.network import NetworkConfig, connection_holds, misconnections, propagate_delay


def rotation(buffers: list[int], type_code: str = "A320", first=utc(2027, 1, 20, 4), block: int = 60):
    """Flights of one tail, each turn = the type's minimum turn (A320: 45) + the buffer given."""
    flights, dep = [], first
    stations = ["AUH", "BAH"]
    for i in range(len(buffers) + 1):
        flights.append(
            flight(
                number=f"EY{301 + i}",
                origin=stations[i % 2],
                destination=stations[(i + 1) % 2],
                dep=dep,
                block=block,
                type_code=type_code,
                reg="A6-EIA",
                booked={"Y": 100},
            )
        )
        if i < len(buffers):
            dep = dep + timedelta(minutes=block + 45 + buffers[i])
    return flights


def test_a_buffer_exactly_absorbing_the_delay():
    flights = rotation([35, 35])
    result = propagate_delay(flights, flights[0].flight_id, 35)
    assert [f.departure_delay_minutes for f in result.flights] == [35, 0]
    assert result.absorbed_by_flight_id == flights[1].flight_id and result.affected_flight_ids == ()
    assert result.end_of_day_arrival_delay_minutes == 0 and result.findings[0].status == "legal"


def test_partial_absorption_along_the_day():
    flights = rotation([35, 20, 50, 10])
    result = propagate_delay(flights, flights[0].flight_id, 100)
    assert [f.departure_delay_minutes for f in result.flights] == [100, 65, 45, 0]
    assert [f.buffer_minutes for f in result.flights] == [None, 35, 20, 50]
    assert result.affected_flight_ids == (flights[1].flight_id, flights[2].flight_id)
    assert result.absorbed_by_flight_id == flights[3].flight_id
    assert result.total_delay_minutes == 210 and result.delays()[flights[2].flight_id] == 45


def test_not_absorbed_by_the_end_of_the_day():
    flights = rotation([10, 10])
    result = propagate_delay(flights, flights[0].flight_id, 100)
    assert [f.arrival_delay_minutes for f in result.flights] == [100, 90, 80]
    assert result.absorbed_by_flight_id is None and result.end_of_day_arrival_delay_minutes == 80
    assert result.findings[0].status == "at_risk"


def test_a_delay_on_the_last_flight_ends_the_day_late_and_starting_midway_ignores_earlier_flights():
    flights = rotation([10, 10])
    assert propagate_delay(flights, flights[-1].flight_id, 30).end_of_day_arrival_delay_minutes == 30
    middle = propagate_delay(flights, flights[1].flight_id, 30)
    assert [f.flight_id for f in middle.flights] == [flights[1].flight_id, flights[2].flight_id]


def test_a_schedule_tighter_than_the_minimum_turn_adds_delay():
    flights = rotation([-10])
    assert [f.departure_delay_minutes for f in propagate_delay(flights, flights[0].flight_id, 20).flights] == [20, 30]


def test_cancelled_flights_are_skipped():
    flights = rotation([10, 10])
    flights[1] = flights[1].model_copy(update={"status": "CANCELLED"})
    result = propagate_delay(flights, flights[0].flight_id, 200)
    # flight 0 arrives at +60 min, flight 2 leaves at +230: a 170 min turn, buffer 170 - 45 = 125
    assert [f.flight_id for f in result.flights] == [flights[0].flight_id, flights[2].flight_id]
    assert result.flights[1].buffer_minutes == 125 and result.flights[1].departure_delay_minutes == 75


def test_bad_inputs():
    flights = rotation([10])
    with pytest.raises(ValueError):
        propagate_delay(flights, "EY999-20270120", 10)
    with pytest.raises(ValueError):
        propagate_delay(flights, flights[0].flight_id, -1)


INBOUND = flight(number="EY18", origin="LHR", destination="AUH", dep=utc(2027, 1, 20, 2), block=400, reg="A6-BLB")
ONWARD = flight(
    number="EY454", origin="AUH", destination="SYD", dep=utc(2027, 1, 20, 10), block=800, reg="A6-XWA", type_code="A35K"
)
HUB = profile("AUH", 24.43, 54.65, tz="Asia/Dubai", country="AE", mct=60)


def linked(n: int, inbound=INBOUND, onward=ONWARD, **kw):
    return [
        booking(
            f"B{i}-1", inbound.flight_id, onward=onward.flight_id, final=onward.destination, passenger=f"P{i}", **kw
        )
        for i in range(n)
    ]


def at_gap(minutes: int):
    return {INBOUND.flight_id: ONWARD.scheduled_departure - timedelta(minutes=minutes)}


def test_a_connection_exactly_at_the_mct_holds_and_one_minute_less_breaks():
    rows = linked(3)
    assert misconnections([INBOUND], [ONWARD], rows, hub=HUB, new_arrivals=at_gap(60)).passengers == 0
    broken = misconnections([INBOUND], [ONWARD], rows, hub=HUB, new_arrivals=at_gap(59))
    assert broken.passengers == 3 and broken.booking_ids == ("B0-1", "B1-1", "B2-1")
    assert broken.by_onward_flight[0].onward_flight_id == ONWARD.flight_id
    assert broken.broken[0].connection_minutes == 59 and broken.broken[0].reason == "SHORT_CONNECTION"
    assert broken.findings[0].status == "at_risk" and broken.findings[0].actual == 3
    assert connection_holds(utc(2027, 1, 20, 9), utc(2027, 1, 20, 10), 60)


def test_mct_comes_from_the_profile_else_the_default():
    rows = linked(1)
    assert misconnections([INBOUND], [ONWARD], rows, new_arrivals=at_gap(70)).mct_minutes == 60
    hub90 = HUB.model_copy(update={"min_connection_minutes": 90})
    assert misconnections([INBOUND], [ONWARD], rows, hub=hub90, new_arrivals=at_gap(70)).passengers == 1
    strict = NetworkConfig(default_mct=75)
    assert misconnections([INBOUND], [ONWARD], rows, new_arrivals=at_gap(70), config=strict).passengers == 1


def test_a_later_onward_departure_saves_the_connection():
    rows = linked(2)
    saved = misconnections(
        [INBOUND],
        [ONWARD],
        rows,
        hub=HUB,
        new_arrivals=at_gap(30),
        new_departures={ONWARD.flight_id: ONWARD.scheduled_departure + timedelta(minutes=30)},
    )
    assert saved.passengers == 0 and saved.connections_checked == 2


def test_both_segment_rows_count_once_and_inactive_bookings_not_at_all():
    rows = linked(2) + [
        booking("B0-2", ONWARD.flight_id, inbound=INBOUND.flight_id, final="SYD", passenger="P0"),
        booking("B9-2", ONWARD.flight_id, inbound=INBOUND.flight_id, final="SYD", passenger="P9"),
    ]
    rows.append(
        booking("BX-1", INBOUND.flight_id, onward=ONWARD.flight_id, final="SYD", passenger="PX", status="REBOOKED")
    )
    report = misconnections([INBOUND], [ONWARD], rows, hub=HUB, new_arrivals=at_gap(10))
    assert report.connections_checked == 3 and report.booking_ids == ("B0-1", "B1-1", "B9-2")


def test_a_cancelled_onward_flight_breaks_every_connection():
    cancelled = ONWARD.model_copy(update={"status": "CANCELLED"})
    report = misconnections([INBOUND], [cancelled], linked(2), hub=HUB)
    assert {b.reason for b in report.broken} == {"ONWARD_CANCELLED"} and report.passengers == 2


def test_grouped_per_onward_flight():
    other = flight(number="EY11", origin="AUH", destination="LHR", dep=utc(2027, 1, 20, 9, 30), reg="A6-BLC")
    rows = linked(2) + [booking("C0-1", INBOUND.flight_id, onward=other.flight_id, final="LHR", passenger="Q0")]
    report = misconnections([INBOUND], [ONWARD, other], rows, hub=HUB, new_arrivals=at_gap(20))
    assert [(m.onward_flight_id, m.passengers) for m in report.by_onward_flight] == [
        (other.flight_id, 1),
        (ONWARD.flight_id, 2),
    ]


def test_real_ey123_delay_propagates_along_its_tail(ops):
    flight_row = ops.flight("EY123", date(2027, 1, 20))
    tail = ops.rotation(flight_row.aircraft_registration)
    result = propagate_delay(tail, flight_row.flight_id, 405)
    chain = [f.flight_id for f in result.flights]
    assert chain[0] == flight_row.flight_id and chain[1] == "EY124-20270120"
    for prev, nxt in zip(result.flights, result.flights[1:]):
        assert nxt.departure_delay_minutes == max(0, prev.arrival_delay_minutes - nxt.buffer_minutes)
    assert result.absorbed_by_flight_id is not None and result.end_of_day_arrival_delay_minutes == 0


def test_real_hub_misconnections_from_a_late_inbound(ops):
    inbound = ops.flight("EY403", date(2027, 1, 20))
    onward = [
        f
        for f in ops.flights.values()
        if f.origin == "AUH"
        and inbound.scheduled_arrival < f.scheduled_departure < inbound.scheduled_arrival + timedelta(hours=8)
    ]
    rows = ops.bookings_on(inbound.flight_id)
    on_time = misconnections([inbound], onward, rows, hub=ops.profiles["AUH"])
    assert on_time.connections_checked > 0 and on_time.passengers == 0  # the generator keeps MCT + 15
    late = misconnections(
        [inbound],
        onward,
        rows,
        hub=ops.profiles["AUH"],
        new_arrivals={inbound.flight_id: inbound.scheduled_arrival + timedelta(hours=4)},
    )
    expected = sorted(
        b.booking_id
        for b in rows
        if b.onward_flight_id in {f.flight_id for f in onward}
        and (ops.flights[b.onward_flight_id].departure - inbound.scheduled_arrival - timedelta(hours=4))
        < timedelta(minutes=60)
    )
    assert late.passengers == len(expected) > 0 and sorted(late.booking_ids) == expected
    assert sum(m.passengers for m in late.by_onward_flight) == late.passengers
