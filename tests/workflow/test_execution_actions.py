"""Execute on emulated DynamoDB: each action kind changes exactly its rows (the demo flights' real plans).

Each test copies the rows a plan can touch (and their neighbours) from the session's airline into a fresh
table prefix (`blank_account`), so executions never change the shared airline.
"""

from __future__ import annotations

from execution_helpers import changed_keys, copy_rows, events_of, plan, row_key, run, snapshot

from skymarshal.data import queries as q
from skymarshal.data import schema as s
from skymarshal.data.access import DataHandle


def test_tail_swap_on_ey123_moves_the_out_and_back_and_repositions_both_tails(decisions, account, blank_account):
    swap = plan(decisions, "mechanical", "tail_swap")
    swaps = [a for a in swap.actions if a.kind == "swap_aircraft"]
    assert [a.kind for a in swap.actions] == ["swap_aircraft", "swap_aircraft", "reposition"]
    keys = copy_rows(account, blank_account, swap)
    before = snapshot(blank_account, keys)
    report = run(blank_account, swap)
    after = snapshot(blank_account, keys)
    assert report.status == "executed"
    assert events_of(report) == [(e, g, None) for g in range(3) for e in ("started", "completed")]
    flights = {(s.FLIGHTS, a.flight_id) for a in swaps}
    changed = {k for k in keys if before[k] != after[k]}
    assert changed == changed_keys(report)
    assert flights <= changed and all(k[0] == s.AIRCRAFT_AVAILABILITY for k in changed - flights)
    assert {k[1] for k in changed - flights} <= {swaps[0].from_registration, swaps[0].to_registration}
    for action in swaps:
        key = (s.FLIGHTS, action.flight_id)
        day = before[(s.AIRCRAFT_AVAILABILITY, action.to_registration, after[key]["flight_date"])]
        assert after[key] == {
            **before[key],
            "aircraft_registration": action.to_registration,
            "aircraft_type": action.to_aircraft_type,
            "capacity": day["capacity"],
            "updated_by_execution": report.execution_id,
        }
    handle = DataHandle(naming=blank_account.naming, resource=blank_account.resource())
    assert q.get_flight(handle, swaps[1].flight_id).aircraft_registration == swaps[0].to_registration  # parses
    assert report.flight_before.aircraft_registration == swaps[0].from_registration


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
        assert after[row_key(s.CREW_ROSTER, seats[original].model_dump(mode="json"))] is None  # released
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
    rejected = plan(decisions, "weather", "divert")  # rejected (EY12 leaves LHR): its diversion's own row changes
    flight_id = rejected.actions[0].flight_id
    divert = rejected.model_copy(
        update={"actions": [a for a in rejected.actions if a.flight_id == flight_id and a.kind != "reposition"]}
    )
    keys = copy_rows(account, blank_account, divert)
    before = snapshot(blank_account, keys)
    report = run(blank_account, divert)
    after = snapshot(blank_account, keys)
    assert report.status == "executed" and [a.kind for a in divert.actions] == ["delay", "divert", "rebook"]
    assert events_of(report) == [(e, g, None) for g in range(3) for e in ("started", "completed")]
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
        update={  # the counts path (a plan without journeys; test_execution_journeys.py covers the journeys)
            "actions": [
                cancel.actions[0],
                rebook.model_copy(update={"onto": onto, "interline": partners, "journeys": []}),
            ]
        }
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
