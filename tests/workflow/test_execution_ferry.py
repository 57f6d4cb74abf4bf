"""Execute a rescue aircraft's ferry on emulated DynamoDB (issue 30): the ferry becomes a Flights row on the spare
(no passengers) from the spare's station to the outstation, its pilots — found by the library on standby at the
spare's station at the ferry's report — are called out from that standby onto it (the standby ends at the report),
each with a one-sector duty row on the ferry; undone, every row is back as it was."""

from __future__ import annotations

from datetime import date, timedelta

from boto3.dynamodb.conditions import Key
from execution_helpers import run
from gantt_helpers import scenario

from skymarshal.analysis.crew import ferry_crew
from skymarshal.arbitration.actions import FerryAircraft
from skymarshal.data import queries as q
from skymarshal.data import schema as s
from skymarshal.data.access import DataHandle
from skymarshal.models.common import iso_z
from skymarshal.rules.ferry import ferry_duty, ferry_minutes, ferry_number
from skymarshal.workflow.execution.execute import undo
from skymarshal.workflow.tables import WorkflowTables


def test_a_rescue_ferry_is_a_flight_row_on_the_spare_flown_by_pilots_called_out_from_standby(account, blank_account):
    source = account.handle()
    flight = q.find_flight(source, "EY124", date(2027, 1, 21))  # FRA-AUH: the outstation's flight
    assert flight is not None
    spare = next(
        d for d in q.fleet_of_type(source, flight.aircraft_type, flight.flight_date) if d.status == "SPARE"
    )  # a spare of the type that day, wherever it is
    departure = flight.scheduled_departure - timedelta(hours=8)
    arrival = departure + timedelta(minutes=ferry_minutes(spare.station, flight.origin, spare.aircraft_type))
    duty = ferry_duty(spare.station, flight.origin, spare.aircraft_type, departure, arrival)
    crew, found = ferry_crew(source, duty, departure - timedelta(hours=3))
    assert crew is not None, found
    ferry = FerryAircraft(
        flight_id=flight.flight_id, registration=spare.aircraft_registration, aircraft_type=spare.aircraft_type,
        origin=spare.station, destination=flight.origin, departure=departure, arrival=arrival, crew=crew,
        crew_report_at=duty.report,
    )  # fmt: skip
    plan = scenario("delay", flight).model_copy(update={"actions": [ferry]})
    # the rows the ferry reads: the flight, the spare's day, the pilots' standby at the spare's station
    resource = blank_account.resource()
    day = {"aircraft_registration": spare.aircraft_registration, "date": flight.flight_date.isoformat()}
    rows = {
        s.FLIGHTS: [source.get(s.FLIGHTS, {"flight_id": flight.flight_id})],
        s.AIRCRAFT_AVAILABILITY: [source.get(s.AIRCRAFT_AVAILABILITY, day)],
        s.CREW_ROSTER: [r for c in crew.values() for r in source.query(s.CREW_ROSTER, Key("crew_id").eq(c))],
    }
    for table, items in rows.items():
        with resource.Table(blank_account.naming(table)).batch_writer() as batch:
            for item in items:
                batch.put_item(Item=item)
    report = run(blank_account, plan)
    assert report.status == "executed", report.error

    handle = DataHandle(naming=blank_account.naming, resource=resource)
    row = q.get_flight(handle, f"{flight.flight_id}-FERRY")
    assert row is not None and row.flight_number == ferry_number(flight.flight_number)
    assert (row.origin, row.destination, row.aircraft_registration) == (
        spare.station,
        flight.origin,
        spare.aircraft_registration,
    )
    assert (row.scheduled_departure, row.scheduled_arrival) == (departure, arrival) and not any(row.booked.values())
    seats = {d.crew_id: d for d in q.crew_assignments(handle, row.flight_id)}
    assert set(seats) == set(crew.values())
    for rank, crew_id in crew.items():
        assert seats[crew_id].position == rank and seats[crew_id].duty_start == duty.report
        assert seats[crew_id].sector_departure == departure and seats[crew_id].fdp_end == arrival
        # called out: no standby of theirs runs past the report any more
        standby = [r for r in handle.query(s.CREW_ROSTER, Key("crew_id").eq(crew_id)) if r["kind"] == "STANDBY"]
        assert not any(r["duty_start"] < iso_z(duty.report) < r["duty_end"] for r in standby)

    undo(report.execution_id, tables=WorkflowTables(resource, blank_account.naming))
    assert q.get_flight(handle, f"{flight.flight_id}-FERRY") is None
    assert not q.crew_assignments(handle, row.flight_id)
