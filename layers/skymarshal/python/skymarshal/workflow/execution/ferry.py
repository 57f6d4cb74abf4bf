"""A rescue aircraft's ferry carried out: the ferry becomes a flight row (no passengers) on the spare, and the
ferry crew is called out from standby onto it, as the reserves of a crew swap are. The spare's day must still
be SPARE (checked, not written, like a tail swap's)."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

from ...arbitration.actions import ContinueFlight, FerryAircraft
from ...data import schema as s
from ...models.airports import airport, great_circle_km
from ...models.common import iso_z
from ..aws.dynamodb import Attr
from .changes import Change, PlanError, row_key
from .reader import RowReader

RELEASE_AFTER_ON_BLOCKS = timedelta(minutes=30)  # post-flight duty of the ferry crew


def ferry_number(flight_number: str) -> str:
    """The ferry's flight number: the rescued flight's with the suffix F (a non-revenue positioning leg)."""
    return (flight_number[:-1] if flight_number[-1].isalpha() else flight_number) + "F"


def added_flight_row(
    flight: dict,
    a: FerryAircraft | ContinueFlight,
    flight_id: str,
    number: str,
    reason: str,
    capacity: dict,
    booked: dict,
) -> dict:
    """The Flights row of a leg a plan adds for `flight` (a rescue's ferry, a diversion's continuation): the leg's
    stations, times and tail, its local date at the origin, the great-circle distance."""
    local_day = a.departure.astimezone(ZoneInfo(airport(a.origin).tz)).date()
    return {
        "flight_id": flight_id,
        "flight_number": number,
        "carrier": flight["carrier"],
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


def ferry_changes(planner: RowReader, a: FerryAircraft) -> list[Change]:
    flight = planner._flight(a.flight_id)
    local_day = a.departure.astimezone(ZoneInfo(airport(a.origin).tz)).date()
    day = planner._get(
        s.AIRCRAFT_AVAILABILITY, {"aircraft_registration": a.registration, "date": flight["flight_date"]}
    )
    if day is None:
        raise PlanError("ROW_MISSING", f"{a.registration} has no availability row for {flight['flight_date']}")
    spare = Change(s.AIRCRAFT_AVAILABILITY, row_key(s.AIRCRAFT_AVAILABILITY, day), day, day, Attr("status").eq("SPARE"))
    ferry_id = f"{a.flight_id}-FERRY"
    block = int((a.arrival - a.departure).total_seconds() // 60)
    reason = f"FERRY: rescue aircraft for {a.flight_id}"
    row = added_flight_row(flight, a, ferry_id, ferry_number(flight["flight_number"]), reason, day["capacity"], {})
    out = [spare, planner._change(s.FLIGHTS, None, row)]
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
