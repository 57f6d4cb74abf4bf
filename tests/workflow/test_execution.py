"""Execute on emulated DynamoDB: each action kind changes exactly its rows (the demo flights' real plans),
a failing group rolls every earlier one back byte for byte, chunks of a large group are undone as a unit,
a failed compensation is reported, and a second call applies nothing.

Each test copies the rows a plan can touch (and their neighbours) from the session's airline into a fresh
table prefix (`blank_account`), so executions never change the shared airline.
"""

from __future__ import annotations

import json
import uuid
from collections import defaultdict
from contextlib import contextmanager

import pytest
from boto3.dynamodb.conditions import Key

from skymarshal.arbitration.actions import RebookPassengers, SwapAircraft
from skymarshal.arbitration.arbitrator import arbitrate
from skymarshal.data import queries as q
from skymarshal.data import schema as s
from skymarshal.data.access import DataHandle
from skymarshal.workflow.execution import ExecutionRefused, execute, execution_events, undo
from skymarshal.workflow.rounds import run_rounds
from skymarshal.workflow.tables import WorkflowTables

DEMO = {
    "mechanical": "Flight EY123 on January 20th 2027 had a mechanical failure",
    "crew": "EY101 on 21 January 2027 is delayed over four hours and the crew will run out of duty time",
    "weather": "Flight EY11 on January 22nd 2027: storm at Heathrow, crosswinds above limits",
}


@pytest.fixture(scope="module")
def decisions(account):
    handle = account.handle()
    return {
        name: arbitrate(run_rounds(prompt, handle=handle, llm=None)[1], prompt, handle=handle, llm=None)
        for name, prompt in DEMO.items()
    }


def plan(decisions, situation: str, kind: str):
    return next(r.scenario for r in decisions[situation].ranked if r.scenario.kind == kind)


def _key(table: str, row: dict) -> tuple:
    return (table, *(row[k] for k in s.TABLES_BY_NAME[table].key_names))


def copy_rows(account, target, scenario) -> set[tuple]:
    """The plan's flight, its bookings and crew (whole rosters), the day's standby, the swap's aircraft day and
    the rebooking's target flights with their bookings: copied into `target`; returns their keys."""
    h = account.handle()
    rows: dict[str, list[dict]] = defaultdict(list)
    flight = h.get(s.FLIGHTS, {"flight_id": scenario.actions[0].flight_id})
    flights = [flight] + [
        h.get(s.FLIGHTS, {"flight_id": f}) for a in scenario.actions if isinstance(a, RebookPassengers) for f in a.onto
    ]
    rows[s.FLIGHTS] = flights
    for f in flights:
        rows[s.BOOKINGS] += h.query(s.BOOKINGS, Key("flight_id").eq(f["flight_id"]), index=s.FLIGHT_ID_INDEX)
    rows[s.CREW_ROSTER] = h.query(
        s.CREW_ROSTER, Key("flight_id").eq(flight["flight_id"]), index=s.FLIGHT_POSITION_INDEX
    )
    rows[s.CREW_ROSTER] += h.query(
        s.CREW_ROSTER, Key("standby_base_date").eq(f"{flight['origin']}#{flight['flight_date']}"), index=s.STANDBY_INDEX
    )
    if scenario.crew_replacements:  # the whole rosters of everyone the swap names
        rows[s.CREW_ROSTER] = [
            r
            for c in sorted({*scenario.crew_replacements, *scenario.crew_replacements.values()})
            for r in h.query(s.CREW_ROSTER, Key("crew_id").eq(c))
        ]
    for a in scenario.actions:
        if isinstance(a, SwapAircraft):
            for reg in (a.from_registration, a.to_registration):
                rows[s.AIRCRAFT_AVAILABILITY] += h.query(s.AIRCRAFT_AVAILABILITY, Key("aircraft_registration").eq(reg))
    resource = target.resource()
    for table, items in rows.items():
        with resource.Table(target.naming(table)).batch_writer() as batch:
            for item in items:
                batch.put_item(Item=item)
    return {_key(t, r) for t, items in rows.items() for r in items}


def snapshot(target, keys) -> dict[tuple, dict | None]:
    """Full items by key, read back with BatchGetItem; a key with no row maps to None."""
    handle = DataHandle(naming=target.naming, resource=target.resource())
    by_table: dict[str, list[tuple]] = defaultdict(list)
    for key in keys:
        by_table[key[0]].append(key)
    found = {}
    for table, table_keys in by_table.items():
        names = s.TABLES_BY_NAME[table].key_names
        for item in handle.batch_get(table, [dict(zip(names, k[1:])) for k in table_keys]):
            found[_key(table, item)] = item
    return {k: found.get(k) for k in keys}


def changed_keys(report) -> set[tuple]:
    return {(c.table, *(c.key[k] for k in s.TABLES_BY_NAME[c.table].key_names)) for c in report.changed}


def run(target, scenario, **kwargs):
    return execute(
        scenario,
        execution_id=f"x-{uuid.uuid4().hex[:8]}",
        tables=WorkflowTables(target.resource(), target.naming),
        **kwargs,
    )


@contextmanager
def before_transaction(resource, number: int, act):
    """Call `act(first booking id in it)` just before the `number`-th (0-based) TransactWriteItems `resource` sends."""
    sent = []

    def hook(params, **_):
        if len(sent) == number:
            items = json.loads(params["body"])["TransactItems"]
            act(
                next(
                    (
                        op["Key"]["booking_id"]["S"]
                        for item in items
                        for op in item.values()
                        if "booking_id" in op.get("Key", {})
                    ),
                    None,
                )
            )
        sent.append(number)

    resource.meta.client.meta.events.register("before-call.dynamodb.TransactWriteItems", hook)
    try:
        yield sent
    finally:
        resource.meta.client.meta.events.unregister("before-call.dynamodb.TransactWriteItems", hook)


def _events(report) -> list[tuple]:
    return [(e.event, e.group, e.reason_code) for e in report.events]


def test_tail_swap_on_ey123_changes_the_flight_tail_type_and_seats_only(decisions, account, blank_account):
    swap = plan(decisions, "mechanical", "tail_swap")
    action = swap.actions[0]
    keys = copy_rows(account, blank_account, swap)
    before = snapshot(blank_account, keys)
    report = run(blank_account, swap)
    after = snapshot(blank_account, keys)
    assert report.status == "executed" and _events(report) == [("started", 0, None), ("completed", 0, None)]
    flight_key = (s.FLIGHTS, action.flight_id)
    assert changed_keys(report) == {flight_key}
    assert {k for k in keys if before[k] != after[k]} == {flight_key}
    day = before[(s.AIRCRAFT_AVAILABILITY, action.to_registration, after[flight_key]["flight_date"])]
    assert after[flight_key] == {
        **before[flight_key],
        "aircraft_registration": action.to_registration,
        "aircraft_type": action.to_aircraft_type,
        "capacity": day["capacity"],
        "updated_by_execution": report.execution_id,
    }
    handle = DataHandle(naming=blank_account.naming, resource=blank_account.resource())
    assert q.get_flight(handle, action.flight_id).aircraft_registration == action.to_registration  # still parses
    assert report.flight_before.aircraft_registration == action.from_registration


def test_crew_swap_on_ey101_releases_the_rostered_crew_and_calls_out_the_reserves(decisions, account, blank_account):
    swap = plan(decisions, "crew", "crew_swap")
    action = next(a for a in swap.actions if a.kind == "reassign_crew")
    keys = copy_rows(account, blank_account, swap)
    before = snapshot(blank_account, keys)
    handle = DataHandle(naming=blank_account.naming, resource=blank_account.resource())
    seats = {d.crew_id: d for d in q.crew_assignments(handle, action.flight_id)}
    report = run(blank_account, swap)
    assert report.status == "executed", report.error
    after = snapshot(blank_account, keys | changed_keys(report))
    now = {d.crew_id: d for d in q.crew_assignments(handle, action.flight_id)}
    kept = set(seats) - set(action.replacements)
    assert set(now) == kept | set(action.replacements.values())
    for original, reserve in action.replacements.items():
        assert after[_key(s.CREW_ROSTER, seats[original].model_dump(mode="json"))] is None  # released
        duty = now[reserve]
        assert duty.position == seats[original].position and duty.duty_start == action.report_at
        assert duty.kind == "FLIGHT" and duty.updated_by_execution == report.execution_id
    report_at = action.report_at.strftime("%Y-%m-%dT%H:%M:%SZ")
    called = [k for k in keys if k[0] == s.CREW_ROSTER and before[k]["kind"] == "STANDBY" and before[k] != after[k]]
    assert sorted(before[k]["crew_id"] for k in called) == sorted(action.replacements.values())
    for k in called:  # off the standby index: not begun → replaced by the duty; under way → ends at the report
        assert (
            after[k] is None
            if before[k]["duty_start"] >= report_at
            else ("standby_base_date" not in after[k] and after[k]["duty_end"] == min(report_at, before[k]["duty_end"]))
        )
    untouched = {k for k in keys if before[k] == after[k]}
    assert len(untouched) == len(keys) - 2 * len(action.replacements)  # nothing else: no flight, no booking


def test_a_reserve_no_longer_on_standby_stops_the_crew_swap_with_row_missing(decisions, account, blank_account):
    swap = plan(decisions, "crew", "crew_swap")
    keys = copy_rows(account, blank_account, swap)
    reserve = sorted(swap.crew_replacements.values())[0]
    for gone in [k for k in keys if k[0] == s.CREW_ROSTER and k[1] == reserve and "#STANDBY#" in k[2]]:
        blank_account.resource().Table(blank_account.naming(s.CREW_ROSTER)).delete_item(
            Key={"crew_id": gone[1], "duty_key": gone[2]}
        )
    before = snapshot(blank_account, keys)
    report = run(blank_account, swap)
    assert report.status == "rolled_back" and report.reason_code == "ROW_MISSING" and reserve in report.error
    assert snapshot(blank_account, keys) == before and report.changed == []


def test_divert_on_ey11_changes_the_flight_and_keeps_the_passengers_on_it(decisions, account, blank_account):
    divert = plan(decisions, "weather", "divert")
    keys = copy_rows(account, blank_account, divert)
    before = snapshot(blank_account, keys)
    report = run(blank_account, divert)
    after = snapshot(blank_account, keys)
    assert report.status == "executed" and [a.kind for a in divert.actions] == ["delay", "divert", "rebook"]
    assert _events(report) == [(e, g, None) for g in range(3) for e in ("started", "completed")]
    assert report.events[-1].message == "no operational row to change"  # ground transport: no table holds it
    flight_key = (s.FLIGHTS, divert.actions[0].flight_id)
    assert {k for k in keys if before[k] != after[k]} == {flight_key}
    moved = after[flight_key]
    assert moved["status"] == "DIVERTED" and moved["diverted_to"] == divert.arrival_airport
    assert moved["estimated_departure"] == divert.departure.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert moved["delay_minutes"] == divert.delay_minutes


def test_cancellation_rebooks_the_planned_numbers_onto_each_flight_and_the_rest_interline(
    decisions, account, blank_account
):
    cancel = plan(decisions, "mechanical", "cancel")
    rebook = cancel.actions[1]
    first, count = next(iter(rebook.onto.items()))
    # Ten fewer own seats on the first flight than planned (the other flights as planned): ten more go to
    # partners than the plan already sent there (none at a low load factor, some when flights are full).
    onto = {**rebook.onto, first: count - 10}
    partners = rebook.interline + 10
    cancel = cancel.model_copy(
        update={"actions": [cancel.actions[0], rebook.model_copy(update={"onto": onto, "interline": partners})]}
    )
    keys = copy_rows(account, blank_account, cancel)
    before = snapshot(blank_account, keys)
    report = run(blank_account, cancel)
    after = snapshot(blank_account, keys)
    assert report.status == "executed"
    source = (s.FLIGHTS, rebook.flight_id)
    assert after[source]["status"] == "CANCELLED" and after[source]["delay_reason"].startswith("CANCELLED: mechanical")
    bookings = [
        after[k]
        for k in keys
        if k[0] == s.BOOKINGS
        and before[k]["flight_id"] == rebook.flight_id
        and before[k]["status"] in ("CONFIRMED", "CHECKED_IN", "BOARDED")
    ]
    assert len(bookings) == rebook.passengers
    assert sum(b["flight_id"] == first for b in bookings) == count - 10
    interline = [b for b in bookings if b["status"] == "REBOOKED"]
    assert len(interline) == partners and all(
        b["rebooked_to"] == "INTERLINE" and b["flight_id"] == rebook.flight_id for b in interline
    )
    assert all(
        b["rebooked_from"] == rebook.flight_id and b["updated_by_execution"] == report.execution_id for b in bookings
    )
    target = (s.FLIGHTS, first)
    gained = {c: after[target]["booked"].get(c, 0) - before[target]["booked"].get(c, 0) for c in ("F", "J", "Y")}
    assert sum(gained.values()) == count - 10 and all(n >= 0 for n in gained.values())
    assert sum(after[source]["booked"].values()) == 0  # nobody is left on the cancelled flight
    assert {k for k in keys if before[k] != after[k]} == changed_keys(report)


def test_a_condition_failing_in_a_later_group_rolls_back_every_earlier_group_byte_for_byte(
    decisions, account, blank_account
):
    divert = plan(decisions, "weather", "divert")
    flight_id = divert.actions[0].flight_id
    stale = SwapAircraft(
        flight_id=flight_id, from_registration="A6-ZZZ", to_registration="A6-BLT", to_aircraft_type="B789"
    )
    extended = divert.model_copy(update={"actions": [*divert.actions, stale]})
    keys = copy_rows(account, blank_account, extended)
    before = snapshot(blank_account, keys)
    report = run(blank_account, extended)
    assert report.status == "rolled_back" and report.reason_code == "CONDITION_FAILED"
    assert snapshot(blank_account, keys) == before
    assert _events(report) == [
        ("started", 0, None),
        ("completed", 0, None),
        ("started", 1, None),
        ("completed", 1, None),
        ("started", 2, None),
        ("completed", 2, None),
        ("started", 3, None),
        ("failed", 3, "CONDITION_FAILED"),
        ("compensated", 2, None),
        ("compensated", 1, None),
        ("compensated", 0, None),
    ]
    assert "aircraft_registration = 'A6-ZZZ'" in report.error and report.events[7].description.startswith("Swap")
    stored = execution_events(
        report.execution_id, tables=WorkflowTables(blank_account.resource(), blank_account.naming)
    )
    assert stored == report.events and [e.seq for e in stored] == list(range(len(stored)))


def test_a_row_changed_by_someone_else_mid_plan_fails_the_group_and_their_change_survives(
    decisions, account, blank_account
):
    cancel = plan(decisions, "mechanical", "cancel")
    keys = copy_rows(account, blank_account, cancel)
    flight_id = cancel.actions[0].flight_id
    other = blank_account.resource()
    before = snapshot(blank_account, keys)
    moved = []

    def someone_else(booking_id):  # a ticket desk moves a passenger; ops control re-times the flight
        moved.append((s.BOOKINGS, booking_id))
        other.Table(blank_account.naming(s.BOOKINGS)).update_item(
            Key={"booking_id": booking_id},
            UpdateExpression="SET flight_id = :f",
            ExpressionAttributeValues={":f": "EY999-20270120"},
        )
        other.Table(blank_account.naming(s.FLIGHTS)).update_item(
            Key={"flight_id": flight_id},
            UpdateExpression="SET estimated_departure = :t",
            ExpressionAttributeValues={":t": "2027-01-20T12:00:00Z"},
        )

    resource = blank_account.resource()
    with before_transaction(resource, 1, someone_else):
        report = execute(
            cancel, execution_id="x-" + uuid.uuid4().hex[:8], tables=WorkflowTables(resource, blank_account.naming)
        )
    booking = moved[0]
    assert report.status == "rolled_back" and report.reason_code == "CONDITION_FAILED" and booking[1] in report.error
    assert _events(report)[-2:] == [("failed", 1, "CONDITION_FAILED"), ("compensated", 0, None)]
    after = snapshot(blank_account, keys)
    assert after[booking]["flight_id"] == "EY999-20270120"
    assert after[(s.FLIGHTS, flight_id)] == {
        **before[(s.FLIGHTS, flight_id)],
        "estimated_departure": "2027-01-20T12:00:00Z",
    }
    assert {k: v for k, v in after.items() if k not in (booking, (s.FLIGHTS, flight_id))} == {
        k: v for k, v in before.items() if k not in (booking, (s.FLIGHTS, flight_id))
    }


def test_a_compensation_that_cannot_restore_is_reported_with_the_rows_left_changed(decisions, account, blank_account):
    cancel = plan(decisions, "mechanical", "cancel")
    keys = copy_rows(account, blank_account, cancel)
    flight_id = cancel.actions[0].flight_id
    resource = blank_account.resource()
    before = snapshot(blank_account, keys)

    def reinstated(_):  # the flight is reinstated by hand while the rebooking is about to commit
        resource.Table(blank_account.naming(s.FLIGHTS)).update_item(
            Key={"flight_id": flight_id},
            UpdateExpression="SET #s = :s",
            ExpressionAttributeNames={"#s": "status"},
            ExpressionAttributeValues={":s": "DELAYED"},
        )

    with before_transaction(resource, 1, reinstated):
        report = execute(
            cancel, execution_id="x-" + uuid.uuid4().hex[:8], tables=WorkflowTables(resource, blank_account.naming)
        )
    assert report.status == "compensation_failed" and "status is 'DELAYED'" in report.error
    assert _events(report)[-2:] == [("failed", 1, "CONDITION_FAILED"), ("failed", 0, "COMPENSATION_FAILED")]
    assert [(r.table, r.key) for r in report.unrestored] == [(s.FLIGHTS, {"flight_id": flight_id})]
    assert "a human" in report.events[-1].message
    after = snapshot(blank_account, keys)  # the flight keeps the cancellation; no booking moved
    assert after.pop((s.FLIGHTS, flight_id))["delay_reason"].startswith("CANCELLED: ")
    assert after == {k: v for k, v in before.items() if k != (s.FLIGHTS, flight_id)}


def test_executing_the_same_id_twice_applies_once_and_a_running_id_is_refused(decisions, account, blank_account):
    swap = plan(decisions, "mechanical", "tail_swap")
    keys = copy_rows(account, blank_account, swap)
    resource, naming = blank_account.resource(), blank_account.naming
    first = execute(swap, execution_id="x-twice", tables=WorkflowTables(resource, naming))
    applied = snapshot(blank_account, keys)
    again = execute(swap, execution_id="x-twice", tables=WorkflowTables(resource, naming))
    assert again == first and snapshot(blank_account, keys) == applied
    assert len(execution_events("x-twice", tables=WorkflowTables(resource, naming))) == 2
    with pytest.raises(ExecutionRefused) as refused:
        execute(
            plan(decisions, "mechanical", "cancel"), execution_id="x-twice", tables=WorkflowTables(resource, naming)
        )
    assert refused.value.code == "SCENARIO_MISMATCH"
    resource.Table(naming(s.CHECKPOINTS)).put_item(
        Item={
            "PK": "EXECUTION#x-busy",
            "SK": "STATE",
            "status": "running",
            "scenario_id": swap.scenario_id,
            "started_at": "2027-01-20T08:00:00Z",
        }
    )
    with pytest.raises(ExecutionRefused) as busy:
        execute(swap, execution_id="x-busy", tables=WorkflowTables(resource, naming))
    assert busy.value.code == "IN_PROGRESS" and snapshot(blank_account, keys) == applied


def test_undo_puts_an_executed_plan_back_once_and_reads_never_scan(decisions, account, blank_account):
    cancel = plan(decisions, "mechanical", "cancel")
    keys = copy_rows(account, blank_account, cancel)
    before = snapshot(blank_account, keys)
    resource = blank_account.resource()
    operations = set()
    resource.meta.client.meta.events.register("before-call.dynamodb", lambda model, **_: operations.add(model.name))
    report = execute(cancel, execution_id="x-undo", tables=WorkflowTables(resource, blank_account.naming))
    assert report.status == "executed" and snapshot(blank_account, keys) != before
    assert operations <= {"GetItem", "Query", "PutItem", "UpdateItem", "TransactWriteItems"}, operations
    assert undo("x-undo", tables=WorkflowTables(resource, blank_account.naming)) == len(report.changed)
    assert snapshot(blank_account, keys) == before
    assert undo("x-undo", tables=WorkflowTables(resource, blank_account.naming)) == 0


def test_large_group_commits_in_chunks_and_a_failing_chunk_undoes_the_whole_group(decisions, account, blank_account):
    cancel = plan(decisions, "mechanical", "cancel")
    keys = copy_rows(account, blank_account, cancel)
    flight_id = cancel.actions[0].flight_id
    resource = blank_account.resource()
    template = snapshot(blank_account, [k for k in keys if k[0] == s.BOOKINGS])
    sample = next(v for v in template.values() if v["flight_id"] == flight_id)
    with resource.Table(blank_account.naming(s.BOOKINGS)).batch_writer() as batch:  # 120 more passengers
        for i in range(120):
            batch.put_item(Item={**sample, "booking_id": f"XB{i:05d}", "pnr": f"XB{i // 2:04d}"})
    keys |= {(s.BOOKINGS, f"XB{i:05d}") for i in range(120)}
    big = cancel.model_copy(
        update={
            "actions": [
                cancel.actions[0],
                cancel.actions[1].model_copy(update={"onto": {}, "interline": cancel.actions[1].passengers + 120}),
            ]
        }
    )
    before = snapshot(blank_account, keys)
    stale = []

    def second_chunk_goes_stale(booking_id):
        stale.append((s.BOOKINGS, booking_id))
        resource.Table(blank_account.naming(s.BOOKINGS)).update_item(
            Key={"booking_id": booking_id},
            UpdateExpression="SET updated_by_execution = :x",
            ExpressionAttributeValues={":x": "someone-else"},
        )

    with before_transaction(resource, 2, second_chunk_goes_stale):  # cancel, chunk 0, chunk 1 ←
        report = execute(
            big, execution_id="x-" + uuid.uuid4().hex[:8], tables=WorkflowTables(resource, blank_account.naming)
        )
    assert report.status == "rolled_back" and len(report.changed) == 1 + 100
    assert _events(report)[-3:] == [
        ("failed", 1, "CONDITION_FAILED"),
        ("compensated", 1, None),
        ("compensated", 0, None),
    ]
    after = snapshot(blank_account, keys)
    assert after.pop(stale[0])["updated_by_execution"] == "someone-else"
    assert after == {k: v for k, v in before.items() if k != stale[0]}
    report = run(blank_account, big)
    moved = len(report.changed) - 1  # all but the cancelled flight's row
    assert report.status == "executed" and report.events[-1].message.endswith(f"in {-(-moved // 100)} transaction(s)")
