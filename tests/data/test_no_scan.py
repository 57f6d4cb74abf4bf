"""Nothing in the library issues a Scan: every DynamoDB operation is counted through botocore's hooks."""

from __future__ import annotations

import inspect
from collections import Counter
from datetime import timedelta

from skymarshal.data import access
from skymarshal.data import queries as q


def test_the_data_handle_has_no_scan():
    assert not [name for name in dir(access.DataHandle) if "scan" in name.lower()]
    assert "scan(" not in inspect.getsource(q).lower()


def test_every_query_pattern_uses_getitem_query_or_batchget(account, airline):
    handle = account.handle()
    operations: Counter = Counter()
    handle.resource.meta.client.meta.events.register(
        "before-call.dynamodb", lambda model, **_: operations.update([model.name])
    )
    situation = airline.situations[0]
    flight = q.find_flight(handle, situation.flight_number, situation.flight_date)
    crew = q.crew_assignments(handle, flight.flight_id)
    q.crew_members(handle, [c.crew_id for c in crew])
    q.duty_history(handle, crew[0].crew_id, flight.scheduled_departure - timedelta(days=28), flight.scheduled_departure)
    q.standby_crew(handle, "AUH", flight.flight_date)
    q.baggage(handle, flight.flight_id)
    q.work_orders_for_flight(handle, flight.flight_id)
    q.cargo(handle, flight.flight_id)
    q.rotation(
        handle, flight.aircraft_registration, flight.scheduled_departure, flight.scheduled_departure + timedelta(days=1)
    )
    q.fleet_of_type(handle, flight.aircraft_type, flight.flight_date)
    q.weather(handle, "FRA", flight.scheduled_departure, flight.scheduled_arrival)
    q.notams(handle, "FRA", flight.scheduled_departure, flight.scheduled_arrival)
    q.airport_profile(handle, "FRA")
    q.engineers_on_shift(handle, "AUH", flight.scheduled_departure, flight.scheduled_arrival)
    assert operations and set(operations) <= {"GetItem", "Query", "BatchGetItem"}, operations
    assert operations["Scan"] == 0


def test_the_operation_board_reads_by_getitem_query_or_batchget(account, airline):
    """The board's reads (views.board_data): flights, availability, work orders, crews, and the live scorecard's
    bookings and crew rosters."""
    from datetime import UTC, datetime

    from skymarshal.views.board_data import live_day, read_board_rows

    handle = account.handle()
    operations: Counter = Counter()
    handle.resource.meta.client.meta.events.register(
        "before-call.dynamodb", lambda model, **_: operations.update([model.name])
    )
    day = airline.situations[0].flight_date
    start = datetime.combine(day, datetime.min.time(), UTC)
    rows = read_board_rows(handle, day, start, start + timedelta(days=1))
    live = live_day(handle, rows, {})
    assert rows.flights and rows.availability and live.card.flights
    assert operations and set(operations) <= {"GetItem", "Query", "BatchGetItem"}, operations
