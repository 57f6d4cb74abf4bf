"""Execute on emulated DynamoDB when something fails: a failing group rolls every earlier one back byte for byte,
a row changed by someone else fails its group and keeps their change, chunks of a large group are undone as a
unit, and a failed compensation is reported with the rows left changed.
"""

from __future__ import annotations

import uuid

from execution_helpers import before_transaction, copy_rows, events_of, plan, run, snapshot

from skymarshal.arbitration.actions import SwapAircraft
from skymarshal.data import schema as s
from skymarshal.workflow.execution.execute import execute
from skymarshal.workflow.execution.records import execution_events
from skymarshal.workflow.tables import WorkflowTables


def test_a_condition_failing_in_a_later_group_rolls_back_every_earlier_group_byte_for_byte(
    decisions, account, blank_account
):
    # a legal plan of several groups (the demo's cancellation; a diversion is refused before any write now), then
    # a swap whose condition no longer holds
    base = plan(decisions, "mechanical", "cancel")
    flight_id = base.actions[0].flight_id
    stale = SwapAircraft(
        flight_id=flight_id, from_registration="A6-ZZZ", to_registration="A6-BLT", to_aircraft_type="B789"
    )
    extended = base.model_copy(update={"actions": [*base.actions, stale]})
    keys = copy_rows(account, blank_account, extended)
    before = snapshot(blank_account, keys)
    report = run(blank_account, extended)
    assert report.status == "rolled_back" and report.reason_code == "CONDITION_FAILED"
    assert snapshot(blank_account, keys) == before
    last = len(base.actions)  # the stale swap: every group before it ran and is undone, newest first
    assert events_of(report) == [
        *[e for g in range(last) for e in (("started", g, None), ("completed", g, None))],
        ("started", last, None),
        ("failed", last, "CONDITION_FAILED"),
        *[("compensated", g, None) for g in reversed(range(last))],
    ]
    assert "aircraft_registration = 'A6-ZZZ'" in report.error and report.events[2 * last + 1].description.startswith(
        "Swap"
    )
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
    assert events_of(report)[-2:] == [("failed", 1, "CONDITION_FAILED"), ("compensated", 0, None)]
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
    assert events_of(report)[-2:] == [("failed", 1, "CONDITION_FAILED"), ("failed", 0, "COMPENSATION_FAILED")]
    assert [(r.table, r.key) for r in report.unrestored] == [(s.FLIGHTS, {"flight_id": flight_id})]
    assert "a human" in report.events[-1].message
    after = snapshot(blank_account, keys)  # the flight keeps the cancellation; no booking moved
    assert after.pop((s.FLIGHTS, flight_id))["delay_reason"].startswith("CANCELLED: ")
    assert after == {k: v for k, v in before.items() if k != (s.FLIGHTS, flight_id)}


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
    grown = cancel.actions[1].model_copy(  # everyone interline: one large group of moves
        update={"onto": {}, "journeys": [], "interline": cancel.actions[1].passengers + 120}
    )
    big = cancel.model_copy(  # the whole plan (its return leg cancelled too: Execute refuses a broken rotation)
        update={"actions": [grown if a is cancel.actions[1] else a for a in cancel.actions]}
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
    assert events_of(report)[-3:] == [
        ("failed", 1, "CONDITION_FAILED"),
        ("compensated", 1, None),
        ("compensated", 0, None),
    ]
    after = snapshot(blank_account, keys)
    assert after.pop(stale[0])["updated_by_execution"] == "someone-else"
    assert after == {k: v for k, v in before.items() if k != stale[0]}
    report = run(blank_account, big)
    assert report.status == "executed"
    [rebooked] = [e for e in report.events if e.event == "completed" and e.group == 1]  # the grown rebooking
    moved = int(rebooked.message.split()[0])
    assert moved > 200 and rebooked.message.endswith(f"in {-(-moved // 100)} transaction(s)")
