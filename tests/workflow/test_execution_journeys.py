"""Execution writes a cancellation's re-accommodation as the plan's journeys (issue 46 item 2): each passenger's
rows on the journey's flights in order, to their final destination, no flight above its capacity."""

from __future__ import annotations

from collections import defaultdict
from itertools import pairwise

from boto3.dynamodb.conditions import Key
from execution_helpers import changed_keys, plan, row_key, run, snapshot

from skymarshal.arbitration.actions import RebookPassengers
from skymarshal.data import schema as s

ACTIVE = ("CONFIRMED", "CHECKED_IN", "BOARDED")


def _copy(account, target, scenario) -> set[tuple]:
    """The plan's flights, every flight of its journeys, the onward flights of its passengers, and their bookings."""
    h = account.handle()
    named = {a.flight_id for a in scenario.actions}
    named |= {f for a in scenario.actions if isinstance(a, RebookPassengers) for j in a.journeys for f in j.flights}
    for a in scenario.actions:
        if isinstance(a, RebookPassengers):
            rows = h.query(s.BOOKINGS, Key("flight_id").eq(a.flight_id), index=s.FLIGHT_ID_INDEX)
            named |= {r["onward_flight_id"] for r in rows if r.get("onward_flight_id")}
    rows: dict[str, list[dict]] = defaultdict(list)
    rows[s.FLIGHTS] = [row for f in sorted(named) if (row := h.get(s.FLIGHTS, {"flight_id": f})) is not None]
    for f in rows[s.FLIGHTS]:
        rows[s.BOOKINGS] += h.query(s.BOOKINGS, Key("flight_id").eq(f["flight_id"]), index=s.FLIGHT_ID_INDEX)
    resource = target.resource()
    for table, items in rows.items():
        with resource.Table(target.naming(table)).batch_writer() as batch:
            for item in items:
                batch.put_item(Item=item)
    return {row_key(t, r) for t, items in rows.items() for r in items}


def test_the_executed_rebookings_are_the_plans_journeys(decisions, account, blank_account):
    cancel = plan(decisions, "mechanical", "cancel")
    rebooks = [a for a in cancel.actions if isinstance(a, RebookPassengers)]
    assert rebooks and all(a.journeys for a in rebooks if a.passengers > a.interline)
    keys = _copy(account, blank_account, cancel)
    before = snapshot(blank_account, keys)
    report = run(blank_account, cancel)
    assert report.status == "executed", report.error
    after = snapshot(blank_account, {*keys, *changed_keys(report)})
    flights = {k[1]: row for k, row in after.items() if k[0] == s.FLIGHTS and row}
    for fid, f in flights.items():  # no flight above its capacity, in any cabin
        assert all(int(f["booked"].get(c, 0)) <= int(n) for c, n in f["capacity"].items()), fid
    rows = [r for k, r in after.items() if k[0] == s.BOOKINGS and r]
    for a in rebooks:
        moved = [
            r
            for k, r in after.items()
            if k[0] == s.BOOKINGS
            and k in before
            and before[k]["flight_id"] == a.flight_id
            and before[k]["status"] in ACTIVE
        ]
        taken = defaultdict(int)
        for r in moved:
            if r["status"] == "REBOOKED":
                assert r["rebooked_to"] == "INTERLINE"
                continue
            trip = sorted(
                (
                    x
                    for x in rows
                    if x["pnr"] == r["pnr"] and x["passenger_id"] == r["passenger_id"] and x["status"] in ACTIVE
                ),
                key=lambda x: int(x["segment"]),
            )
            legs = [x["flight_id"] for x in trip[trip.index(r) :]]
            taken[tuple(legs)] += 1
            assert flights[legs[-1]]["destination"] == r["final_destination"]  # home, not part-way
            for x, y in pairwise(legs):  # connected, in time order
                assert flights[x]["destination"] == flights[y]["origin"]
                assert flights[x]["scheduled_arrival"] < flights[y]["scheduled_departure"]
        planned = defaultdict(int)
        for j in a.journeys:
            planned[tuple(j.flights)] += j.passengers
        assert dict(taken) == dict(planned)
        assert sum(int(n) for n in flights[a.flight_id]["booked"].values()) == 0


def test_a_passenger_moved_a_second_time_keeps_the_flight_first_booked(decisions, account, blank_account):
    """A row a recovery already moved (rebooked_from set) moved again — onto a journey, or to a partner — still
    names the flight the passenger bought: the scorecard and EU261 count the delay from that flight's schedule."""
    cancel = plan(decisions, "mechanical", "cancel")
    rebook = next(a for a in cancel.actions if isinstance(a, RebookPassengers))
    keys = _copy(account, blank_account, cancel)
    table = blank_account.resource().Table(blank_account.naming(s.BOOKINGS))
    first = "EY999-20270119"  # as if an earlier plan had moved them off this flight onto the one cancelled now
    on_it = [
        k
        for k, r in snapshot(blank_account, keys).items()
        if k[0] == s.BOOKINGS and r and r["flight_id"] == rebook.flight_id and r["status"] in ACTIVE
    ]
    for k in on_it:
        table.update_item(
            Key={"booking_id": k[1]}, UpdateExpression="SET rebooked_from = :f", ExpressionAttributeValues={":f": first}
        )
    report = run(blank_account, cancel)
    assert report.status == "executed", report.error
    after = snapshot(blank_account, set(on_it))
    assert on_it and {r["rebooked_from"] for r in after.values() if r} == {first}
    moved = [r for r in after.values() if r and (r["flight_id"] != rebook.flight_id or r["status"] == "REBOOKED")]
    assert moved  # they did move (a journey or a partner), and each still names the first flight
