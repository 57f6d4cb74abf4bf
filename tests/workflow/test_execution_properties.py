"""The all-or-nothing invariant of Execute, by property: whatever groups a plan has, whichever of them is stale
and wherever a transaction is interfered with, afterwards every touched row equals its before-image or every
group was applied — never a mix. A small synthetic schedule is reset before each example; transactions are
capped at 10 items here (DynamoDB allows 100, see test_execution_rollback.py) so a few dozen rows give groups of several
chunks, and moto, which copies a table per transaction item, stays quick."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, date, datetime, timedelta
from unittest.mock import patch

import row_builders
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skymarshal.arbitration.actions import DelayFlight, DivertFlight, RebookPassengers, SwapAircraft
from skymarshal.arbitration.models import Scenario
from skymarshal.data import schema as s
from skymarshal.data.access import DataHandle
from skymarshal.data.loader import item_of
from skymarshal.models.common import iso_z
from skymarshal.models.operational import AircraftDay, Booking, Flight
from skymarshal.workflow.execution import execute as execution
from skymarshal.workflow.tables import WorkflowTables

DAY = date(2027, 1, 20)
DEP = datetime(2027, 1, 20, 10, 0, tzinfo=UTC)
BOOKED = {"EY1-20270120": 26, "EY3-20270120": 7}  # + the flights: a rebooking of EY1 takes three transactions of 10
TARGET, CANCELLED, DEPARTED = "EY5-20270120", "EY7-20270120", "EY9-20270120"
DELAY_MINUTES = {"EY1-20270120": 0, "EY3-20270120": 40}
KINDS = ("delay", "swap", "divert", "rebook")


def _flight(flight_id: str, registration: str, hours: int, **extra) -> Flight:
    return Flight(
        flight_id=flight_id,
        flight_number=flight_id.split("-")[0],
        carrier="EY",
        origin="AUH",
        destination="FRA",
        flight_date=DAY,
        scheduled_departure=DEP + timedelta(hours=hours),
        scheduled_arrival=DEP + timedelta(hours=hours + 6),
        aircraft_registration=registration,
        aircraft_type="B789",
        block_minutes=360,
        distance_km=4800,
        capacity={"J": 28, "Y": 271},
        booked={"J": 4, "Y": BOOKED.get(flight_id, 30) - 4},
        **extra,
    )


def seed_rows() -> dict[str, list]:
    flights = [
        _flight("EY1-20270120", "A6-PF1", 0),
        _flight("EY3-20270120", "A6-PF3", 1),
        _flight(TARGET, "A6-PF5", 4),
        _flight(CANCELLED, "A6-PF7", 5, status="CANCELLED"),
        _flight(DEPARTED, "A6-PF9", -2, status="DEPARTED"),
    ]
    bookings = [
        Booking(
            booking_id=f"{fid[:3]}-{i:03d}",
            pnr=f"P{fid[2]}{i // 3:04d}",
            flight_id=fid,
            passenger_id=f"X{i}",
            passenger_name="Pax Example",
            cabin="J" if i < 4 else "Y",
            final_destination="FRA",
            fare_paid=420.5,
            ssr=["WCHR"] if i % 5 == 0 else [],
        )
        for fid, n in BOOKED.items()
        for i in range(n)
    ]
    spares = [
        AircraftDay(
            aircraft_registration=f"A6-SP{n}",
            date=DAY,
            aircraft_type="B789",
            status="SPARE",
            station="AUH",
            capacity={"J": 30, "Y": 260},
        )
        for n in (1, 3)
    ]
    return {s.FLIGHTS: flights, s.BOOKINGS: bookings, s.AIRCRAFT_AVAILABILITY: spares}


def action(kind: str, flight_id: str, stale: bool):
    """The group's action; a stale one fails its transaction's condition (the data moved on since the plan)."""
    n = flight_id[2]
    if kind == "delay":  # EY1 re-timed on time (a swap's legs keep their times), EY3 forty minutes late
        minutes = DELAY_MINUTES[flight_id]
        return DelayFlight(
            flight_id=DEPARTED if stale else flight_id,
            delay_minutes=minutes,
            new_departure=DEP + timedelta(minutes=minutes),
            new_arrival=DEP + timedelta(minutes=360 + minutes),
        )
    if kind == "swap":
        return SwapAircraft(
            flight_id=flight_id,
            from_registration="A6-ZZZ" if stale else f"A6-PF{n}",
            to_registration=f"A6-SP{n}",
            to_aircraft_type="B789",
        )
    if kind == "divert":
        return DivertFlight(
            flight_id=DEPARTED if stale else flight_id, alternate="MUC", new_arrival=DEP + timedelta(hours=6)
        )
    count = BOOKED[flight_id]
    return RebookPassengers(
        flight_id=flight_id, passengers=count, onto={CANCELLED if stale else TARGET: count - 3}, interline=3
    )


def scenario(actions) -> Scenario:
    return row_builders.bare_scenario(actions, "property")


def _key(table: str, row: dict) -> tuple:
    return (table, *(row[k] for k in s.TABLES_BY_NAME[table].key_names))


def state(account, rows) -> dict[tuple, dict]:
    handle = DataHandle(naming=account.naming, resource=account.resource())
    out = {}
    for table, models in rows.items():
        names = s.TABLES_BY_NAME[table].key_names
        for item in handle.batch_get(
            table, [{k: getattr(m, k) if k != "date" else m.date.isoformat() for k in names} for m in models]
        ):
            out[_key(table, item)] = item
    return out


groups = st.lists(
    st.tuples(st.sampled_from(KINDS), st.sampled_from(sorted(BOOKED)), st.booleans()), min_size=1, max_size=4
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=groups, interfere_at=st.none() | st.integers(min_value=0, max_value=8))
def test_after_execute_the_rows_are_all_before_images_or_every_group_is_applied(blank_account, plan, interfere_at):
    rows = seed_rows()
    resource = blank_account.resource()
    for table, models in rows.items():  # reset: the example starts from the same schedule
        with resource.Table(blank_account.naming(table)).batch_writer() as batch:
            for model in models:
                batch.put_item(Item=item_of(model))
    seeded = state(blank_account, rows)
    assert len(seeded) == sum(len(m) for m in rows.values())
    touched: list[tuple] = []
    sent: list[int] = []

    compensating: list[bool] = []

    def failed(params, **_):  # from the 'failed' event on, transactions are compensations
        if json.loads(params["body"])["Item"].get("event") == {"S": "failed"}:
            compensating.append(True)

    def interfere(params, **_):  # while the plan is applied, someone else changes a booking it is about to write
        if len(sent) == interfere_at and not compensating:
            items = json.loads(params["body"])["TransactItems"]
            booking = next(
                (
                    op["Key"]["booking_id"]["S"]
                    for item in items
                    for op in item.values()
                    if "booking_id" in op.get("Key", {})
                ),
                None,
            )
            if booking:
                touched.append((s.BOOKINGS, booking))
                resource.Table(blank_account.naming(s.BOOKINGS)).update_item(
                    Key={"booking_id": booking},
                    UpdateExpression="SET updated_by_execution = :x",
                    ExpressionAttributeValues={":x": "someone-else"},
                )
        sent.append(1)

    execution_id = "p-" + uuid.uuid4().hex[:8]
    events = resource.meta.client.meta.events
    events.register("before-call.dynamodb.TransactWriteItems", interfere)
    events.register("before-call.dynamodb.PutItem", failed)
    try:
        with patch.object(execution, "TRANSACTION_LIMIT", 10):
            report = execution.execute(
                scenario([action(k, f, stale) for k, f, stale in plan]),
                execution_id=execution_id,
                tables=WorkflowTables(resource, blank_account.naming),
            )
    finally:
        events.unregister("before-call.dynamodb.TransactWriteItems", interfere)
        events.unregister("before-call.dynamodb.PutItem", failed)
    after = state(blank_account, rows)
    for key in touched:
        assert after.pop(key)["updated_by_execution"] == "someone-else"
    expected_before = {k: v for k, v in seeded.items() if k not in touched}
    assert report.status in ("executed", "rolled_back"), report.error  # groups share no row a third party changed
    if report.status == "rolled_back":
        assert after == expected_before
        assert report.events[-1].event == "compensated" or not report.changed
        return
    assert not touched  # a stale group fails, unless it is a rebooking with nobody left to move
    assert all(kind == "rebook" for kind, _, stale in plan if stale)
    changed = {k for k in after if after[k] != seeded[k]}
    assert changed == {(c.table, *c.key.values()) for c in report.changed}
    assert all(after[k]["updated_by_execution"] == execution_id for k in changed)
    for kind, flight_id, _ in plan:
        flight = after[(s.FLIGHTS, flight_id)]
        if kind == "delay":
            minutes = DELAY_MINUTES[flight_id]
            assert flight["estimated_departure"] == iso_z(DEP + timedelta(minutes=minutes))
            if not any(k == "divert" and f == flight_id for k, f, _ in plan):  # a later divert wins
                assert flight["status"] == ("DELAYED" if minutes else "SCHEDULED")  # on time is not DELAYED
        elif kind == "swap":
            assert flight["aircraft_registration"] == f"A6-SP{flight_id[2]}"
        elif kind == "divert":
            assert flight["status"] == "DIVERTED" and flight["diverted_to"] == "MUC"
        else:
            assert not [
                b
                for k, b in after.items()
                if k[0] == s.BOOKINGS
                and b["flight_id"] == flight_id
                and b["status"] in ("CONFIRMED", "CHECKED_IN", "BOARDED")
            ]
