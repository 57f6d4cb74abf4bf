"""Execute a diverted flight's continuation on emulated DynamoDB (issue 30, build item 4): the leg from the alternate
becomes a flight row on the same tail with the diverted flight's passengers, each crew member gets its sector (in the
duty they are on: the duty's end moves), the tail's later flights are re-timed behind it, and the tail flies its
flights in sequence by the library's rotation check. A flight no longer on the ground there executes nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from boto3.dynamodb.conditions import Key
from diverted import diverted
from execution_helpers import copy_rows, run

from skymarshal.arbitration.actions import RestCrew
from skymarshal.arbitration.continuation.plan import continuation_of, continuation_scenarios
from skymarshal.arbitration.plans.generator import with_operation_records
from skymarshal.arbitration.validation.scenario import validate
from skymarshal.data import queries as q
from skymarshal.data import schema as s
from skymarshal.data.access import DataHandle
from skymarshal.models.common import iso_z
from skymarshal.rules.rotation import rotation_breaks

NOW = datetime(2026, 11, 24, 18, tzinfo=UTC)


@pytest.fixture
def continued(account, blank_account):
    """EY123 (AUH-FRA, 21 January) diverted to Munich 5 h after it left: its valid in-duty continuation, the rows
    it touches copied into a fresh prefix, the flight written there on the ground at Munich."""
    flight = q.find_flight(account.handle(), "EY123", datetime(2027, 1, 21).date())
    assert flight is not None
    ctx, landed = diverted(account.handle(), flight, "MUC", 300, NOW)
    plan = next(p for p in continuation_scenarios(ctx) if validate(ctx, p).valid)
    plan = with_operation_records(ctx, plan)
    copy_rows(account, blank_account, plan)
    # the rosters of the crews whose later flights the plan re-times (their reports move with them)
    source, later = account.handle(), {a.flight_id for a in plan.actions if a.kind in ("delay", "rest_crew")}
    crews = {d.crew_id for fid in later for d in q.crew_assignments(source, fid)}
    with blank_account.resource().Table(blank_account.naming(s.CREW_ROSTER)).batch_writer() as batch:
        for crew_id in sorted(crews):
            for row in source.query(s.CREW_ROSTER, Key("crew_id").eq(crew_id)):
                batch.put_item(Item=row)
    table = blank_account.resource().Table(blank_account.naming(s.FLIGHTS))
    table.update_item(
        Key={"flight_id": flight.flight_id},
        UpdateExpression="SET #s = :s, diverted_to = :d, estimated_arrival = :a",
        ExpressionAttributeNames={"#s": "status"},
        ExpressionAttributeValues={":s": "DIVERTED", ":d": "MUC", ":a": iso_z(landed)},
    )
    return flight, plan, DataHandle(naming=blank_account.naming, resource=blank_account.resource())


def test_the_continuation_is_flown_on_the_same_tail_with_its_crew_and_the_rotation_stays_whole(
    continued, blank_account
):
    flight, plan, handle = continued
    leg = continuation_of(plan)
    assert leg is not None
    report = run(blank_account, plan)
    assert report.status == "executed", report.error
    row = q.get_flight(handle, f"{flight.flight_id}-CONT")
    assert row is not None and (row.origin, row.destination) == ("MUC", "FRA")
    assert row.aircraft_registration == flight.aircraft_registration and row.flight_number == "EY123C"
    assert row.booked == flight.booked and row.scheduled_departure == leg.departure
    crew = {d.crew_id: d for d in q.crew_assignments(handle, row.flight_id)}
    assert set(crew) == set(leg.crew)
    for crew_id in leg.in_duty:  # the duty they are on, one sector more, ending at the continuation's on blocks
        seat = next(d for d in q.crew_assignments(handle, flight.flight_id) if d.crew_id == crew_id)
        assert crew[crew_id].duty_id == seat.duty_id and crew[crew_id].sectors == (seat.sectors or 1) + 1
        assert crew[crew_id].fdp_end == leg.arrival
    for moved in (a for a in plan.actions if isinstance(a, RestCrew)):  # later crews report as much later
        seats = {d.crew_id: d for d in q.crew_assignments(handle, moved.flight_id)}
        assert all(seats[c].duty_start == at for c, at in moved.reports.items())
    tail = q.rotation(
        handle, flight.aircraft_registration, flight.scheduled_departure - timedelta(days=1),
        flight.scheduled_departure + timedelta(days=3),
    )  # fmt: skip
    broken = [b for b in rotation_breaks(flight.aircraft_registration, tail) if b.continuity]
    assert [b for b in broken if b.flight_id and b.flight_id >= flight.flight_id] == [], broken
    assert handle.query(s.FLIGHTS, Key("flight_id").eq(row.flight_id))  # one row, readable by the key


def test_a_flight_no_longer_at_the_alternate_executes_nothing(continued, blank_account):
    flight, plan, handle = continued
    table = blank_account.resource().Table(blank_account.naming(s.FLIGHTS))
    table.update_item(
        Key={"flight_id": flight.flight_id},
        UpdateExpression="SET diverted_to = :d",
        ExpressionAttributeValues={":d": "STR"},
    )
    report = run(blank_account, plan)
    assert report.status != "executed" and report.changed == []
    # Execute's re-check of the rotation refuses it before anything is written: the tail is not where the leg leaves
    assert report.reason_code == "ROTATION_BROKEN" and "which is at STR" in (report.error or "")
    assert q.get_flight(handle, f"{flight.flight_id}-CONT") is None
