"""A diverted flight's continuation carried out: the leg from the alternate becomes a flight row (`{flight_id}-CONT`,
its passengers the diverted flight's: their bookings stay on the flight they are on), and each member who flies it
gets a sector row — in the duty they are on (one sector more: the duty's end moves to the continuation's), or a new
duty after the minimum rest, or, for a reserve on standby at the alternate, a new duty after the call-out (the
standby ends at the report, as a crew swap's). The diverted row must still be on the ground at the alternate."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

from ...arbitration.actions import ContinueFlight
from ...data import schema as s
from ...models.airports import airport
from ...models.common import iso_z
from ..aws.dynamodb import Attr, Key
from .changes import Change, PlanError, row_key
from .ferry import CONTINUATION_REASON, added_flight_row
from .reader import RowReader

RELEASE_AFTER_ON_BLOCKS = timedelta(minutes=30)  # post-flight duty (rules.crew.OperatorRules.post_flight_minutes)


def continuation_number(flight_number: str) -> str:
    """The continuation's flight number: the diverted flight's with the suffix C (a leg added to the flight)."""
    return (flight_number[:-1] if flight_number[-1].isalpha() else flight_number) + "C"


def continuation_changes(planner: RowReader, a: ContinueFlight) -> list[Change]:
    flight = planner._flight(a.flight_id)
    if flight.get("status") != "DIVERTED" or flight.get("diverted_to") != a.origin:
        raise PlanError("ROTATION_BROKEN", f"{a.flight_id} is no longer on the ground at {a.origin}: nothing executed")
    still = Change(s.FLIGHTS, row_key(s.FLIGHTS, flight), flight, flight, Attr("status").eq("DIVERTED"))
    local_day = a.departure.astimezone(ZoneInfo(airport(a.origin).tz)).date()
    leg_id = f"{a.flight_id}-CONT"
    block = int((a.arrival - a.departure).total_seconds() // 60)
    reason = f"{CONTINUATION_REASON} {a.flight_id} diverted to {a.origin}, flown on to {a.destination}"
    number = continuation_number(flight["flight_number"])
    row = added_flight_row(flight["carrier"], a, leg_id, number, reason, flight["capacity"], flight.get("booked", {}))
    out = [still, planner._change(s.FLIGHTS, None, row)]
    seats = {
        r["crew_id"]: r
        for r in planner._query(s.CREW_ROSTER, Key("flight_id").eq(a.flight_id), s.FLIGHT_POSITION_INDEX)
    }
    standby = (
        planner.standby(a.origin, {local_day.isoformat(), (local_day - timedelta(days=1)).isoformat()})
        if a.called_out
        else []
    )
    for crew_id, position in sorted(a.crew.items()):
        report = iso_z(a.reports[crew_id])
        seat = seats.get(crew_id)
        if crew_id in a.in_duty and seat is None:
            raise PlanError("ROW_MISSING", f"{crew_id} is no longer rostered on {a.flight_id}")
        if crew_id in a.called_out:
            out.append(planner.call_out(standby, crew_id, report, a.origin, local_day))
        duty = _duty(seat, crew_id, report, a.origin) if crew_id in a.in_duty and seat is not None else None
        duty = duty or {"key": report, "duty_id": f"D-{crew_id}-{report}", "duty_start": report,
                        "start_station": a.origin, "sectors": 1}  # fmt: skip
        out.append(
            planner._change(
                s.CREW_ROSTER,
                None,
                {
                    "crew_id": crew_id,
                    "duty_key": f"{duty['key']}#{iso_z(a.departure)}#{leg_id}",
                    "duty_id": duty["duty_id"],
                    "kind": "FLIGHT",
                    "duty_start": duty["duty_start"],
                    "duty_end": iso_z(a.arrival + RELEASE_AFTER_ON_BLOCKS),
                    "fdp_end": iso_z(a.arrival),
                    "start_station": duty["start_station"],
                    "end_station": a.destination,
                    "flight_id": leg_id,
                    "flight_number": row["flight_number"],
                    "position": position,
                    "sector_departure": iso_z(a.departure),
                    "sector_arrival": iso_z(a.arrival),
                    "sectors": duty["sectors"],
                    "block_minutes": block,
                    "aircraft_type": a.aircraft_type,
                    "pilots_on_board": int((seat or {}).get("pilots_on_board", 2)),
                },
            )
        )
    return out


def _duty(seat: dict, crew_id: str, report: str, station: str) -> dict:
    """The duty the member flies on in: the diverted sector's, one sector more."""
    return {
        "key": seat["duty_key"].split("#")[0],
        "duty_id": seat["duty_id"],
        "duty_start": seat["duty_start"],
        "start_station": seat.get("start_station") or station,
        "sectors": int(seat.get("sectors", 1)) + 1,
    }
