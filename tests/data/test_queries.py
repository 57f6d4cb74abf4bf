"""Seed 000's query patterns 1-6 against the emulated account, checked against the generated rows."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
import row_builders

from skymarshal.data import queries as q
from skymarshal.data import schema as s
from skymarshal.data.access import AccessDenied, DataHandle


@pytest.fixture(scope="module")
def ey123(airline):
    situation = airline.situations[0]
    return next(
        f
        for f in airline.tables[s.FLIGHTS]
        if f.flight_number == situation.flight_number and f.flight_date == situation.flight_date
    )


def test_pattern_1_flight_by_number_and_local_date(handle, airline):
    for situation in airline.situations:
        flight = q.find_flight(handle, situation.flight_number, situation.flight_date)
        assert flight is not None and flight.flight_date == situation.flight_date
    assert handle.calls.get("Query:flights", 0) >= 3


def test_a_flight_that_does_not_exist_is_not_found_not_an_error(handle):
    assert q.find_flight(handle, "EY9999", date(2027, 1, 20)) is None
    assert q.find_flight(handle, "EY123", date(2031, 1, 1)) is None
    assert q.get_flight(handle, "EY123-19990101") is None
    assert q.bookings(handle, "EY123-19990101") == []
    assert q.work_orders_for_flight(handle, "EY123-19990101") == []


def test_local_date_not_utc_date_decides(handle, airline):
    # EY11 leaves AUH at 02:30 local, the evening before in UTC.
    situation = airline.situations[2]
    flight = q.find_flight(handle, "EY11", situation.flight_date)
    assert flight.scheduled_departure.date() == situation.flight_date - timedelta(days=1)


def test_pattern_2_crew_by_flight(handle, airline, ey123):
    expected = {r.crew_id for r in airline.tables[s.CREW_ROSTER] if r.flight_id == ey123.flight_id}
    rows = q.crew_assignments(handle, ey123.flight_id)
    assert {r.crew_id for r in rows} == expected
    members = q.crew_members(handle, sorted(expected))
    assert {m.crew_id for m in members} == expected


def test_pattern_3_and_4_bookings_and_baggage(handle, airline, ey123):
    expected = {b.booking_id for b in airline.tables[s.BOOKINGS] if b.flight_id == ey123.flight_id}
    found = q.bookings(handle, ey123.flight_id)
    assert {b.booking_id for b in found} == expected
    bags = q.baggage(handle, ey123.flight_id, found)
    assert {bag.bag_tag for bag in bags} == {t for b in found for t in b.bag_tags}
    first_with_bags = next(b for b in found if b.bag_tags and b.segment == 1)
    assert {bag.bag_tag for bag in q.baggage_for_booking(handle, first_with_bags.booking_id)} == set(
        first_with_bags.bag_tags
    )


def test_pattern_5_maintenance_via_registration(handle, airline, ey123):
    orders = q.work_orders_for_flight(handle, ey123.flight_id)
    assert any(w.aog and w.ata_chapter == "29" for w in orders)
    assert all(w.aircraft_registration == ey123.aircraft_registration for w in orders)


def test_pattern_6_cargo_via_assignments(handle, airline, ey123):
    expected = {a.shipment_id for a in airline.tables[s.CARGO_FLIGHT_ASSIGNMENTS] if a.flight_id == ey123.flight_id}
    loads = q.cargo(handle, ey123.flight_id)
    assert {shipment.shipment_id for _, shipment in loads} == expected
    priorities = [a.loading_priority for a, _ in loads]
    assert priorities == sorted(priorities)


def test_rotation_fleet_standby_weather_and_notams(handle, airline, ey123):
    legs = q.rotation(
        handle,
        ey123.aircraft_registration,
        ey123.scheduled_departure - timedelta(days=1),
        ey123.scheduled_departure + timedelta(days=1),
    )
    assert ey123.flight_id in {f.flight_id for f in legs}
    spares = [a for a in q.fleet_of_type(handle, ey123.aircraft_type, ey123.flight_date) if a.status == "SPARE"]
    assert len(spares) == 2
    crew_day = airline.situations[1].flight_date
    assert q.standby_crew(handle, "AUH", crew_day)
    assert (
        len(q.weather(handle, "LHR", ey123.scheduled_departure, ey123.scheduled_departure + timedelta(hours=5))) == 5
    )  # 11:00 … 15:00
    assert q.notams(handle, "JFK", ey123.scheduled_departure, ey123.scheduled_departure + timedelta(hours=1))
    assert q.airport_profile(handle, "FRA").curfews
    assert q.engineers_on_shift(
        handle, "AUH", ey123.scheduled_departure, ey123.scheduled_departure + timedelta(hours=2)
    )


def test_a_fleets_rotations_with_one_query_per_type_are_each_tails_rotation(account, ey123):
    from skymarshal.models.fleet import compatible_types

    start, end = ey123.scheduled_departure - timedelta(hours=36), ey123.scheduled_departure + timedelta(hours=36)
    types = compatible_types(ey123.aircraft_type)
    fleet = [d.aircraft_registration for t in types for d in q.fleet_of_type(account.handle(), t, ey123.flight_date)]
    handle = account.handle()
    together = q.tail_rotations(handle, types, [*fleet, "A6-NONE"], start, end)
    assert handle.calls == {f"Query:{s.FLIGHTS}": len(types)}
    assert list(together) == [*fleet, "A6-NONE"] and together["A6-NONE"] == []
    for registration in fleet:
        assert together[registration] == q.rotation(handle, registration, start, end), registration
    assert sum(map(len, together.values())) > len(fleet)  # the fleet flies
    assert q.tail_rotations(handle, types, [], start, end) == {}


def test_an_agent_outside_its_tables_gets_a_clear_access_error(account, ey123):
    guest = account.handle("guest_experience")
    assert q.bookings(guest, ey123.flight_id)
    with pytest.raises(AccessDenied, match=r"guest_experience.*CrewRoster.*flights, bookings, Baggage"):
        q.crew_assignments(guest, ey123.flight_id)
    assert guest.calls.get("Query:CrewRoster") is None  # refused before any request


def test_every_agent_handle_reads_exactly_its_matrix_row(account):
    for agent, tables in s.AGENT_TABLE_ACCESS.items():
        handle = account.handle(agent)
        for table in s.OPERATIONAL_TABLES:
            assert handle.allowed(table) == (table in tables)
    with pytest.raises(ValueError, match="unknown agent"):
        DataHandle("pilot", resource=account.resource())


def test_query_follows_every_page(blank_account):
    from boto3.dynamodb.conditions import Key

    table = blank_account.resource().Table(blank_account.naming(s.BAGGAGE))
    with table.batch_writer() as writer:
        for i in range(2600):  # ~1.3 MB under one booking: DynamoDB pages at 1 MB
            writer.put_item(Item={"bag_tag": f"{i:010d}", "booking_id": "ABCDEF-1-1", "pad": "x" * 500})
    handle = blank_account.handle()
    rows = handle.query(s.BAGGAGE, Key("booking_id").eq("ABCDEF-1-1"), index=s.BOOKING_INDEX)
    assert len(rows) == 2600 and handle.calls["Query:Baggage"] >= 2


def test_queries_sent_together_answer_as_one_at_a_time(handle, airline):
    """query_each runs Queries on several threads: each answer is its own key's, range conditions included (boto3's
    Table shares one expression builder between calls; DataHandle builds each Query's expression itself)."""
    from boto3.dynamodb.conditions import Key

    from skymarshal.models.common import iso_z

    flights = [f for f in airline.tables[s.FLIGHTS] if f.flight_date == date(2027, 1, 20)][:60]
    conditions = {
        f.flight_id: Key("aircraft_registration").eq(f.aircraft_registration)
        & Key("scheduled_departure").between(
            iso_z(f.scheduled_departure - timedelta(hours=6)), iso_z(f.scheduled_departure)
        )
        for f in flights
    }
    together = handle.query_each(s.FLIGHTS, conditions, index=s.AIRCRAFT_REGISTRATION_INDEX)
    assert together == {
        fid: handle.query(s.FLIGHTS, c, index=s.AIRCRAFT_REGISTRATION_INDEX) for fid, c in conditions.items()
    }
    assert all(any(row["flight_id"] == fid for row in rows) for fid, rows in together.items())
    crews = q.crew_assignments_of(handle, [f.flight_id for f in flights])
    assert crews == {f.flight_id: q.crew_assignments(handle, f.flight_id) for f in flights}


def test_each_query_carries_its_own_built_expression(handle):
    """boto3's Table builds a ConditionBase with one builder per client, reset on every call: threads sharing it
    could trade placeholders. The handle sends the expression already built, so that builder never runs."""
    sent: list = []
    events = handle.resource.meta.client.meta.events

    def record(params, **_):
        sent.append(params.get("KeyConditionExpression"))

    events.register_first("before-parameter-build.dynamodb.Query", record)
    try:
        q.crew_assignments_of(handle, ["EY123-20270120", "EY124-20270120"])
    finally:
        events.unregister("before-parameter-build.dynamodb.Query", record)
    assert len(sent) == 2 and all(isinstance(x, str) and x.startswith("#") for x in sent), sent


def test_a_days_crews_read_by_day_are_each_flights_crew(airline, handle):
    """`crews_of_flights` (a Query per day on sector-day-index) answers each flight's FLIGHT rows exactly as a Query
    per flight on flight-position-index does — a flight leaving after midnight UTC included."""
    flights = [f for f in airline.tables[s.FLIGHTS] if f.flight_date == date(2027, 1, 20)]
    by_day = q.crews_of_flights(handle, flights)
    by_flight = {
        f.flight_id: [r for r in q.crew_assignments(handle, f.flight_id) if r.kind == "FLIGHT"] for f in flights
    }
    assert {fid: sorted(r.duty_key + r.crew_id for r in rows) for fid, rows in by_day.items()} == {
        fid: sorted(r.duty_key + r.crew_id for r in rows) for fid, rows in by_flight.items()
    }
    assert len({f.scheduled_departure.date() for f in flights}) > 1  # the day's flights span two UTC days
    assert sum(map(len, by_day.values())) > len(flights)


def test_a_sector_moved_by_a_delay_is_indexed_at_its_new_day():
    """The sector day follows the sector's current time (an executed delay past midnight moves it), and a row
    that is not a flown sector stays out of the sparse index, whatever a writer carried over."""
    from skymarshal.models.operational import CrewDuty

    row = row_builders.sector_item(sector_day="2027-01-19")  # a stale day a writer carried over
    assert CrewDuty.model_validate(row).sector_day == "2027-01-20"
    assert CrewDuty.model_validate(row | {"sector_departure": "2027-01-21T00:30:00Z"}).sector_day == "2027-01-21"
    assert CrewDuty.model_validate(row | {"kind": "POSITIONING"}).sector_day is None
