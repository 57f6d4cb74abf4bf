"""A ferry carried out: the ferry becomes a flight row (no passengers) on its tail, and the ferry crew is called out
from standby at its origin onto it, as the reserves of a crew swap are. A rescue aircraft's ferry (to a waiting
flight) is `{flight_id}-FERRY` on a spare whose day must still be SPARE; a network plan's positioning ferry is its
own flight (its id and number the plan's) on a tail whose day must be in service or spare. Both checked, not
written, like a tail swap's. Undone, the row and the crew's rows go as any created row does (execute.undo)."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

from ...arbitration.actions import ContinueFlight, FerryAircraft
from ...arbitration.rotation.checks import SWAPPABLE
from ...data import schema as s
from ...models.airports import airport, great_circle_km
from ...models.common import iso_z
from ...rules.ferry import ferry_number
from ..aws.dynamodb import Attr, ConditionBase, Key
from .changes import Change, PlanError, row_key
from .reader import RowReader

RELEASE_AFTER_ON_BLOCKS = timedelta(minutes=30)  # post-flight duty of the ferry crew
# the delay reason of a leg a plan adds, so a reader of the table knows it was never scheduled (the operation board)
FERRY_REASON, CONTINUATION_REASON = "FERRY:", "CONTINUATION:"
ADDED_LEG_REASONS = (FERRY_REASON, CONTINUATION_REASON)


def added_flight_row(
    carrier: str,
    a: FerryAircraft | ContinueFlight,
    flight_id: str,
    number: str,
    reason: str,
    capacity: dict,
    booked: dict,
) -> dict:
    """The Flights row of a leg a plan adds (a ferry, a diversion's continuation): the leg's stations, times and
    tail, its local date at the origin, the great-circle distance."""
    local_day = a.departure.astimezone(ZoneInfo(airport(a.origin).tz)).date()
    return {
        "flight_id": flight_id,
        "flight_number": number,
        "carrier": carrier,
        "origin": a.origin,
        "destination": a.destination,
        "flight_date": local_day.isoformat(),
        "scheduled_departure": iso_z(a.departure),
        "scheduled_arrival": iso_z(a.arrival),
        "aircraft_registration": a.registration,
        "aircraft_type": a.aircraft_type,
        "status": "SCHEDULED",
        "delay_reason": reason,
        "block_minutes": int((a.arrival - a.departure).total_seconds() // 60),
        "distance_km": max(1, round(great_circle_km(a.origin, a.destination))),
        "capacity": capacity,
        "booked": booked,
    }


def _tail_day(planner: RowReader, a: FerryAircraft, day: str, guard: ConditionBase) -> tuple[dict, Change]:
    """The tail's AircraftAvailability row of `day`, and the check (not a write) that it still meets `guard`."""
    row = planner._get(s.AIRCRAFT_AVAILABILITY, {"aircraft_registration": a.registration, "date": day})
    if row is None:
        raise PlanError("ROW_MISSING", f"{a.registration} has no availability row for {day}")
    return row, Change(s.AIRCRAFT_AVAILABILITY, row_key(s.AIRCRAFT_AVAILABILITY, row), row, row, guard)


def _rescue(planner: RowReader, a: FerryAircraft) -> tuple[dict, list[Change]]:
    """A rescue ferry's row: numbered after the flight it flies to, the spare's day still SPARE."""
    flight = planner._flight(a.flight_id)
    day, spare = _tail_day(planner, a, flight["flight_date"], Attr("status").eq("SPARE"))
    reason = f"{FERRY_REASON} rescue aircraft for {a.flight_id}"
    number = ferry_number(flight["flight_number"])
    return added_flight_row(flight["carrier"], a, a.ferry_id, number, reason, day["capacity"], {}), [spare]


def _positioning(planner: RowReader, a: FerryAircraft) -> tuple[dict, list[Change]]:
    """A network plan's positioning ferry: its own flight and number, the carrier the number's designator (the
    airline's, network.ferry); the tail's day in service or spare and of the ferry's type, as a tail swap's
    (AircraftAvailability days are UTC days, rules.rotation.expected_day); the number flown by no other flight that
    local day (flight-number-date-index)."""
    assert a.flight_number is not None  # FerryAircraft: a positioning ferry carries its number
    guard = Attr("status").is_in(list(SWAPPABLE)) & Attr("aircraft_type").eq(a.aircraft_type)
    day, check = _tail_day(planner, a, a.departure.date().isoformat(), guard)
    reason = f"{FERRY_REASON} positions {a.registration} at {a.destination} for the network plan"
    row = added_flight_row(a.flight_number[:2], a, a.ferry_id, a.flight_number, reason, day["capacity"], {})
    around = Key("flight_number").eq(a.flight_number) & Key("scheduled_departure").between(
        iso_z(a.departure - timedelta(days=2)), iso_z(a.departure + timedelta(days=2))
    )
    taken = [
        r["flight_id"]
        for r in planner._query(s.FLIGHTS, around, s.FLIGHT_NUMBER_DATE_INDEX)
        if r["flight_date"] == row["flight_date"] and r["flight_id"] != a.ferry_id
    ]
    if taken:
        raise PlanError(
            "CONDITION_FAILED",
            f"{a.flight_number} on {row['flight_date']} is already {taken[0]}: the ferry needs a number of its own",
        )
    return row, [check]


def ferry_changes(planner: RowReader, a: FerryAircraft) -> list[Change]:
    """The ferry's Flights row (no passengers) and its crew called out from standby at the origin onto it."""
    row, checks = _positioning(planner, a) if a.positioning else _rescue(planner, a)
    ferry_id = a.ferry_id
    local_day = a.departure.astimezone(ZoneInfo(airport(a.origin).tz)).date()
    block = row["block_minutes"]
    out = [*checks, planner._change(s.FLIGHTS, None, row)]
    report = iso_z(a.crew_report_at)
    standby = planner.standby(a.origin, {local_day.isoformat(), (local_day - timedelta(days=1)).isoformat()})
    for rank, crew_id in sorted(a.crew.items()):
        out.append(planner.call_out(standby, crew_id, report, a.origin, local_day))
        out.append(
            planner._change(
                s.CREW_ROSTER,
                None,
                {
                    "crew_id": crew_id,
                    "duty_key": f"{report}#{iso_z(a.departure)}#{ferry_id}",
                    "duty_id": f"D-{crew_id}-{report}",
                    "kind": "FLIGHT",
                    "duty_start": report,
                    "duty_end": iso_z(a.arrival + RELEASE_AFTER_ON_BLOCKS),
                    "fdp_end": iso_z(a.arrival),
                    "start_station": a.origin,
                    "end_station": a.destination,
                    "flight_id": ferry_id,
                    "flight_number": row["flight_number"],
                    "position": rank,
                    "sector_departure": iso_z(a.departure),
                    "sector_arrival": iso_z(a.arrival),
                    "sectors": 1,
                    "block_minutes": block,
                    "aircraft_type": a.aircraft_type,
                    "pilots_on_board": 2,
                },
            )
        )
    return out
