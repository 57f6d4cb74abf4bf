"""Execute a network plan's positioning ferry on emulated DynamoDB: the optimizer's empty flight becomes a Flights row
of its own (the plan's id and number, the airline's carrier, no passengers) on a tail in service that day (checked,
not written), its pilots called out from standby at the origin onto it; undone, every row is back as it was. A tail
in the hangar that day, or a number another flight already has that day, refuses it and writes nothing."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from boto3.dynamodb.conditions import Key
from execution_helpers import run
from gantt_helpers import scenario

from skymarshal.analysis.crew import ferry_crew
from skymarshal.arbitration.actions import FerryAircraft, describe
from skymarshal.arbitration.plans.network import flight_actions
from skymarshal.data import queries as q
from skymarshal.data import schema as s
from skymarshal.data.access import DataHandle
from skymarshal.models.common import iso_z
from skymarshal.models.network_plan import CrewChange
from skymarshal.network.ferry import ferry_flight_number, positioning_row
from skymarshal.rules.ferry import ferry_duty, ferry_minutes
from skymarshal.workflow.execution.execute import undo
from skymarshal.workflow.tables import WorkflowTables

DAY = date(2027, 1, 22)


def _ferry(source) -> tuple[FerryAircraft, dict]:
    """A positioning ferry AUH-FRA on a tail in service at AUH that day, its crew found on standby at AUH; and the
    rows it reads (the tail's day, the pilots' rosters)."""
    flight = q.find_flight(source, "EY123", DAY)
    assert flight is not None
    tail = next(
        d for d in q.fleet_of_type(source, flight.aircraft_type, DAY) if d.status == "IN_SERVICE" and d.station == "AUH"
    )
    departure = _utc(3, 10)  # early in the day, the tail at AUH
    arrival = departure + timedelta(minutes=ferry_minutes("AUH", "FRA", tail.aircraft_type))
    duty = ferry_duty("AUH", "FRA", tail.aircraft_type, departure, arrival)
    crew, found = ferry_crew(source, duty, departure - timedelta(hours=3))
    assert crew is not None, found
    row = positioning_row(tail.aircraft_registration, "AUH", "FRA", departure, arrival, "EY", tail.aircraft_type)
    called = [
        CrewChange(rank=r, replaced="", reserve=c, report_at=duty.report, reason="ferry crew") for r, c in crew.items()
    ]
    (ferry,) = flight_actions(row.model_copy(update={"crew_changes": called}))  # the plan's row as Execute gets it
    assert isinstance(ferry, FerryAircraft) and ferry.positioning and ferry.crew_report_at == duty.report
    day = source.get(s.AIRCRAFT_AVAILABILITY, {"aircraft_registration": tail.aircraft_registration, "date": str(DAY)})
    rows = {
        s.AIRCRAFT_AVAILABILITY: [day],
        s.CREW_ROSTER: [r for c in crew.values() for r in source.query(s.CREW_ROSTER, Key("crew_id").eq(c))],
    }
    return ferry, rows


def _seed(target, rows: dict) -> None:
    resource = target.resource()
    for table, items in rows.items():
        with resource.Table(target.naming(table)).batch_writer() as batch:
            for item in items:
                batch.put_item(Item=item)


def test_the_ferry_number_is_the_carrier_s_non_revenue_block_by_slot_and_tail():
    ferry = positioning_row("A6-EJQ", "AUH", "FRA", _utc(13, 0), _utc(19, 30), "EY", "A320")
    # 13:00Z is 17:00 at AUH (UTC+4): slot 510 of the local day's two-minute slots, the mark's last letter Q
    assert (ferry.flight_id, ferry.flight_number) == ("FERRY-A6-EJQ-202701221300", "EY9510Q")
    # another tail at the same time, or the same tail two minutes later, flies under another number
    assert ferry_flight_number("EY", "A6-BLT", "AUH", _utc(13, 0)) == "EY9510T"
    assert ferry_flight_number("EY", "A6-EJQ", "AUH", _utc(13, 2)) == "EY9511Q"
    with pytest.raises(ValueError, match="own flight number"):
        FerryAircraft.model_validate({**_action(ferry).model_dump(), "flight_number": None})
    assert "as EY9510Q to position the tail" in describe(_action(ferry))


def test_a_positioning_ferry_is_its_own_flight_row_flown_by_pilots_called_out_from_standby(account, blank_account):
    source = account.handle()
    ferry, rows = _ferry(source)
    _seed(blank_account, rows)
    plan = scenario("delay", q.find_flight(source, "EY123", DAY)).model_copy(update={"actions": [ferry]})
    report = run(blank_account, plan)
    assert report.status == "executed", report.error

    resource = blank_account.resource()
    handle = DataHandle(naming=blank_account.naming, resource=resource)
    row = q.get_flight(handle, ferry.flight_id)  # the plan's own id, not a rescued flight's with -FERRY
    assert row is not None and (row.flight_number, row.carrier) == (ferry.flight_number, "EY")
    assert (row.origin, row.destination, row.aircraft_registration, row.aircraft_type) == (
        "AUH", "FRA", ferry.registration, ferry.aircraft_type,
    )  # fmt: skip
    assert (row.scheduled_departure, row.scheduled_arrival) == (ferry.departure, ferry.arrival)
    assert not any(row.booked.values()) and row.status == "SCHEDULED" and "positions" in (row.delay_reason or "")
    # the tail's day is checked, not written
    (day,) = rows[s.AIRCRAFT_AVAILABILITY]
    assert handle.get(s.AIRCRAFT_AVAILABILITY, {k: day[k] for k in ("aircraft_registration", "date")}) == day
    seats = {d.crew_id: d for d in q.crew_assignments(handle, ferry.flight_id)}
    assert set(seats) == set(ferry.crew.values())
    for rank, crew_id in ferry.crew.items():
        seat = seats[crew_id]
        assert (seat.position, seat.flight_number, seat.duty_start) == (rank, ferry.flight_number, ferry.crew_report_at)
        assert seat.sector_departure == ferry.departure and seat.fdp_end == ferry.arrival
        standby = [r for r in handle.query(s.CREW_ROSTER, Key("crew_id").eq(crew_id)) if r["kind"] == "STANDBY"]
        assert not any(r["duty_start"] < iso_z(ferry.crew_report_at) < r["duty_end"] for r in standby)

    undo(report.execution_id, tables=WorkflowTables(resource, blank_account.naming))
    assert q.get_flight(handle, ferry.flight_id) is None
    assert not q.crew_assignments(handle, ferry.flight_id)
    for crew_id in ferry.crew.values():  # the standby is back as it was
        before = sorted((r["duty_key"], r["duty_end"]) for r in rows[s.CREW_ROSTER] if r["crew_id"] == crew_id)
        after = sorted((r["duty_key"], r["duty_end"]) for r in handle.query(s.CREW_ROSTER, Key("crew_id").eq(crew_id)))
        assert after == before


@pytest.mark.parametrize("conflict", ["tail_in_the_hangar", "number_taken"])
def test_a_ferry_on_a_tail_in_the_hangar_or_under_a_taken_number_is_refused(account, blank_account, conflict):
    source = account.handle()
    ferry, rows = _ferry(source)
    if conflict == "tail_in_the_hangar":
        rows[s.AIRCRAFT_AVAILABILITY] = [{**rows[s.AIRCRAFT_AVAILABILITY][0], "status": "MAINTENANCE"}]
    else:  # another flight already flies under the number that local day
        other = source.get(s.FLIGHTS, {"flight_id": q.find_flight(source, "EY123", DAY).flight_id})
        rows[s.FLIGHTS] = [{**other, "flight_id": "OTHER-1", "flight_number": ferry.flight_number}]
    _seed(blank_account, rows)
    plan = scenario("delay", q.find_flight(source, "EY123", DAY)).model_copy(update={"actions": [ferry]})
    report = run(blank_account, plan)
    assert report.status == "rolled_back" and report.reason_code == "CONDITION_FAILED", report.error
    assert ("status" in report.error) if conflict == "tail_in_the_hangar" else ("OTHER-1" in report.error)
    handle = DataHandle(naming=blank_account.naming, resource=blank_account.resource())
    assert q.get_flight(handle, ferry.flight_id) is None and not q.crew_assignments(handle, ferry.flight_id)


def _utc(hour: int, minute: int) -> datetime:
    return datetime(2027, 1, 22, hour, minute, tzinfo=UTC)


def _action(row) -> FerryAircraft:
    return FerryAircraft(
        flight_id=row.flight_id, positioning=True, flight_number=row.flight_number, registration=row.registration,
        aircraft_type=row.aircraft_type, origin=row.origin, destination=row.destination,
        departure=row.new_departure, arrival=row.new_arrival, crew={"CPT": "C1", "FO": "C2"},
        crew_report_at=row.new_departure - timedelta(hours=1),
    )  # fmt: skip
