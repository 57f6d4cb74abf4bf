"""Where things are after a plan: the grounding a report stated becomes a real work order, and every tail the plan
touches gets AircraftAvailability rows that match its flights (``rules.rotation.expected_day``), so the next
disruption plans from the truth (``data.integrity`` checks the same rows against the same flights)."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal

from ...arbitration.actions import FerryAircraft, GroundAircraft, RepositionFleet
from ...data import schema as s
from ...models.common import iso_z
from ...models.operational import AircraftDay, Flight, WorkOrder
from ...rules.rotation import expected_day
from ..aws.dynamodb import Key
from .changes import Change
from .reader import RowReader

WHATIF_NOTE = "(what-if, not yet in the maintenance system)"


def grounding_changes(planner: RowReader, a: GroundAircraft) -> list[Change]:
    """The reported defect's work order, written once: a row already there (an earlier run recorded it, or
    maintenance opened it) is left as it is."""
    order = WorkOrder.model_validate(a.work_order)
    order = order.model_copy(
        update={
            "work_order_id": order.work_order_id.replace("WHATIF-", "RPT-", 1),
            "description": order.description.replace(WHATIF_NOTE, f"(reported; recorded by {planner.execution_id})"),
        }
    )
    if planner._get(s.MAINTENANCE_WORK_ORDERS, {"work_order_id": order.work_order_id}) is not None:
        return []
    # DynamoDB takes no float: numbers as Decimal, the way boto3's resource reads them back
    item = json.loads(order.model_dump_json(exclude_none=True), parse_float=Decimal)
    return [planner._change(s.MAINTENANCE_WORK_ORDERS, None, item)]


def position_changes(planner: RowReader, a: RepositionFleet) -> list[Change]:
    """Each tail's availability rows rewritten where its flights (as the earlier groups left them) say otherwise."""
    touched = (
        {x.flight_id for x in planner.scenario.actions}
        | {x.ferry_id for x in planner.scenario.actions if isinstance(x, FerryAircraft)}
        | {f"{x.flight_id}-CONT" for x in planner.scenario.actions if x.kind == "continue"}
    )
    current = {fid: row for fid in sorted(touched) if (row := planner._get(s.FLIGHTS, {"flight_id": fid})) is not None}
    out: list[Change] = []
    for registration in a.registrations:
        rows = planner._query(s.AIRCRAFT_AVAILABILITY, Key("aircraft_registration").eq(registration))
        if not rows:
            continue
        days = sorted(((AircraftDay.model_validate(r), r) for r in rows), key=lambda pair: pair[0].date)
        flights = _flights(planner, registration, days[0][0].date, days[-1][0].date, current)
        first = days[0][0].station
        for day, row in days:
            want = expected_day(day, flights, first).model_dump(mode="json")
            after = {**row, **{k: want[k] for k in ("station", "status", "first_departure", "last_arrival")}}
            if any(
                str(after.get(k)) != str(row.get(k)) for k in ("station", "status", "first_departure", "last_arrival")
            ):
                out.append(planner._change(s.AIRCRAFT_AVAILABILITY, row, after))
    return out


def _flights(planner: RowReader, registration: str, first: date, last: date, current: dict[str, dict]) -> list[Flight]:
    """The tail's flights over its availability days: the index's answer, corrected by consistent reads of the
    flights this plan changed (an index lags a write that just committed)."""
    low = iso_z(_midnight(first) - timedelta(days=1))
    high = iso_z(_midnight(last) + timedelta(days=2))
    rows = {
        r["flight_id"]: r
        for r in planner._query(
            s.FLIGHTS,
            Key("aircraft_registration").eq(registration) & Key("scheduled_departure").between(low, high),
            s.AIRCRAFT_REGISTRATION_INDEX,
        )
    }
    for fid, row in current.items():
        if row.get("aircraft_registration") == registration:
            rows[fid] = row
        else:
            rows.pop(fid, None)
    return [Flight.model_validate(r) for r in rows.values()]


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time(0), UTC)
