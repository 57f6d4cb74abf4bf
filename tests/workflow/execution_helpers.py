"""Helpers of the execution tests (test_execution_*.py): a demo plan by kind, the rows a plan can touch copied
into a blank account and read back, a run under a fresh execution id, and a hook before a transaction is sent."""

from __future__ import annotations

import json
import uuid
from collections import defaultdict
from contextlib import contextmanager

from boto3.dynamodb.conditions import Key

from skymarshal.arbitration.actions import RebookPassengers, RepositionFleet, SwapAircraft
from skymarshal.data import schema as s
from skymarshal.data.access import DataHandle
from skymarshal.workflow.execution.execute import execute
from skymarshal.workflow.tables import WorkflowTables


def plan(decisions, situation: str, kind: str):
    """The demo's plan of this kind: ranked, else one validation rejected (the execution tests carry out an action
    kind's row changes; a diversion now breaks EY11's rotation, so it is only ever a rejected plan)."""
    considered = [r.scenario for r in decisions[situation].ranked] + [v.scenario for v in decisions[situation].rejected]
    return next(s for s in considered if s.kind == kind)


def row_key(table: str, row: dict) -> tuple:
    return (table, *(row[k] for k in s.TABLES_BY_NAME[table].key_names))


def copy_rows(account, target, scenario) -> set[tuple]:
    """The plan's flight, its bookings and crew (whole rosters), the day's standby, the swap's aircraft day and
    the rebooking's target flights with their bookings: copied into `target`; returns their keys."""
    h = account.handle()
    rows: dict[str, list[dict]] = defaultdict(list)
    flight = h.get(s.FLIGHTS, {"flight_id": scenario.actions[0].flight_id})
    rebooks = [a for a in scenario.actions if isinstance(a, RebookPassengers)]
    named = dict.fromkeys(
        [a.flight_id for a in scenario.actions]
        + [f for a in rebooks for f in a.onto]
        + [f for a in rebooks for j in a.journeys for f in j.flights]  # every flight of each way home
        + [  # the rebooked passengers' onward segments, which their journeys move or cancel
            r["onward_flight_id"]
            for a in rebooks
            for r in h.query(s.BOOKINGS, Key("flight_id").eq(a.flight_id), index=s.FLIGHT_ID_INDEX)
            if r.get("onward_flight_id")
        ]
    )
    flights = [row for f in named if (row := h.get(s.FLIGHTS, {"flight_id": f})) is not None]
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
    if scenario.crew_rested:  # the rested members' whole rosters: a mid-duty rest splits the duty they are on
        have = {row_key(s.CREW_ROSTER, r) for r in rows[s.CREW_ROSTER]}
        rows[s.CREW_ROSTER] += [
            r
            for c in sorted(scenario.crew_rested)
            for r in h.query(s.CREW_ROSTER, Key("crew_id").eq(c))
            if row_key(s.CREW_ROSTER, r) not in have
        ]
    tails = {
        reg for a in scenario.actions if isinstance(a, SwapAircraft) for reg in (a.from_registration, a.to_registration)
    }
    tails |= {reg for a in scenario.actions if isinstance(a, RepositionFleet) for reg in a.registrations}
    for reg in sorted(tails):  # the tails' days and every flight that places them
        rows[s.AIRCRAFT_AVAILABILITY] += h.query(s.AIRCRAFT_AVAILABILITY, Key("aircraft_registration").eq(reg))
        rows[s.FLIGHTS] += [
            r
            for r in h.query(s.FLIGHTS, Key("aircraft_registration").eq(reg), index=s.AIRCRAFT_REGISTRATION_INDEX)
            if r["flight_id"] not in named
        ]
    resource = target.resource()
    for table, items in rows.items():
        with resource.Table(target.naming(table)).batch_writer() as batch:
            for item in items:
                batch.put_item(Item=item)
    return {row_key(t, r) for t, items in rows.items() for r in items}


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
            found[row_key(table, item)] = item
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


def events_of(report) -> list[tuple]:
    return [(e.event, e.group, e.reason_code) for e in report.events]
