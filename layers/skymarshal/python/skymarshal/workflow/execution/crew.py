"""The roster follows the plan: an executed delay moves its crew's sector rows and the end of their duty, and the
cabin crew a larger type needs join the flights the swap gives it, each called out from a standby that covers the
report (the same ``call_out`` a reserve swap uses, execution_reader.py). Written in the same transaction as the flight row, so
the next disruption reads a roster that matches the flights (``data.integrity`` checks the two against each other).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from ...arbitration.actions import AddCabinCrew, DelayFlight, FerryAircraft, ReassignCrew, RestCrew
from ...data import schema as s
from ...models.airports import airport
from ...models.common import iso_z
from ..aws.dynamodb import Attr, Key
from .changes import Change, PlanError
from .reader import RowReader


def _at(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def _duty_rows(planner: RowReader, seat: dict) -> list[dict]:
    """The member's FLIGHT rows of the duty that holds `seat` (one Query on the member's rows from its report)."""
    return [
        r
        for r in planner._query(
            s.CREW_ROSTER, Key("crew_id").eq(seat["crew_id"]) & Key("duty_key").begins_with(seat["duty_start"] + "#")
        )
        if r["duty_id"] == seat["duty_id"] and r["kind"] == "FLIGHT"
    ]


def moved_rows(rows: list[dict], flight_id: str, departure: str, arrival: str, moved: int) -> list[dict]:
    """One member's rows of one duty with the sector of `flight_id` at its new times, and every row of the duty
    ending as late as its last sector now arrives (release after on-blocks kept as rostered)."""
    out = [
        {**r, "sector_departure": departure, "sector_arrival": arrival, "moved_minutes": moved}
        if r.get("flight_id") == flight_id
        else dict(r)
        for r in rows
    ]
    arrivals = [_at(r["sector_arrival"]) for r in out if r.get("sector_arrival")]
    if not arrivals:
        return out
    last = max(arrivals)
    for r in out:
        if r.get("fdp_end"):
            release = max(_at(r["duty_end"]) - _at(r["fdp_end"]), timedelta(0))
            r.update(fdp_end=iso_z(last), duty_end=iso_z(last + release))
    return out


def flight_times(flight: dict) -> tuple[str, str, int]:
    """The flight's best-known off and on blocks (the estimate, else the schedule) and its delay."""
    departure = flight.get("estimated_departure") or flight["scheduled_departure"]
    arrival = flight.get("estimated_arrival") or flight["scheduled_arrival"]
    return departure, arrival, int(flight.get("delay_minutes", 0))


def crew_to_times(planner: RowReader, flight_id: str, departure: str, arrival: str, moved: int) -> list[Change]:
    """Every rostered member's sector of the flight at the given times (an executed delay, or a flight the plan
    takes over whose roster still holds the schedule), with the end of their duty."""
    seats = planner._query(s.CREW_ROSTER, Key("flight_id").eq(flight_id), s.FLIGHT_POSITION_INDEX)
    out: list[Change] = []
    for seat in sorted(seats, key=lambda r: (r["crew_id"], r["duty_key"])):
        if seat.get("kind") != "FLIGHT":
            continue
        rows = _duty_rows(planner, seat)
        for before, after in zip(rows, moved_rows(rows, flight_id, departure, arrival, moved), strict=True):
            if after != before:
                out.append(planner._change(s.CREW_ROSTER, before, after, Attr("kind").eq("FLIGHT")))
    return out


def delay_crew_changes(planner: RowReader, a: DelayFlight) -> list[Change]:
    """The delayed flight's crew move with it (ORO.FTL.205: their FDP runs to its new on-blocks)."""
    return crew_to_times(planner, a.flight_id, iso_z(a.new_departure), iso_z(a.new_arrival), a.delay_minutes)


def rest_crew_changes(planner: RowReader, a: RestCrew) -> list[Change]:
    """Each rested member's rows of the duty holding the flight report at their new time (re-keyed: the duty key
    starts with the report); the sectors were moved by the flight's DelayFlight, applied before this action.

    Mid-duty (sectors before the flight in the same duty, flown before the crew stood down where it leaves), the
    duty is split there: the sectors flown end their duty at the stand-down, the flight and those after it are a new
    duty from the new report (its own duty id, start station and sector count), as the crew rules judged them."""
    seats = planner._query(s.CREW_ROSTER, Key("flight_id").eq(a.flight_id), s.FLIGHT_POSITION_INDEX)
    by_member = {r["crew_id"]: r for r in seats if r.get("kind") == "FLIGHT"}
    origin = planner._flight(a.flight_id)["origin"]
    out: list[Change] = []
    for crew_id, at in sorted(a.reports.items()):
        seat = by_member.get(crew_id)
        if seat is None:
            raise PlanError("ROW_MISSING", f"{crew_id} is no longer rostered on {a.flight_id}")
        rows = _duty_rows(planner, seat)
        # flown before the stand-down (sector times as ISO strings in UTC compare in order); a later sector of the
        # duty that the plan leaves where it was stays in the rested duty, whatever the flight's new time
        stood_at = iso_z(a.stood_down_at)
        flown = [
            r
            for r in rows
            if r.get("flight_id") != a.flight_id
            and r.get("sector_arrival")
            and r["sector_arrival"] <= stood_at
            and r.get("sector_departure", "") < seat.get("sector_departure", "")
        ]
        for before, after in zip(rows, _rested_rows(rows, flown, iso_z(at), stood_at, origin), strict=True):
            if after["duty_key"] != before["duty_key"]:
                out.append(planner._change(s.CREW_ROSTER, before, None, Attr("kind").eq("FLIGHT")))
                out.append(planner._change(s.CREW_ROSTER, None, after))
            elif after != before:
                out.append(planner._change(s.CREW_ROSTER, before, after, Attr("kind").eq("FLIGHT")))
    return out


def _rested_rows(rows: list[dict], flown: list[dict], report: str, stood_at: str, origin: str) -> list[dict]:
    """The duty's rows after the rest (`rest_crew_changes`): re-keyed from `report`, or split after `flown`."""
    rest = [r for r in rows if r not in flown]
    new_duty = f"{rows[0]['duty_id']}-rested" if flown else rows[0]["duty_id"]
    out = []
    for row in rows:
        if row in flown:
            last = max(r["sector_arrival"] for r in flown)
            out.append({**row, "duty_end": stood_at, "fdp_end": last, "sectors": len(flown), "end_station": origin})
            continue
        key = f"{report}#{row.get('sector_departure') or row['kind']}#{row.get('flight_id') or ''}"
        new = {**row, "duty_start": report, "duty_key": key, "duty_id": new_duty}
        if flown:
            new.update(sectors=len(rest), start_station=origin)
        out.append(new)
    return out


def cabin_crew_changes(planner: RowReader, a: AddCabinCrew) -> list[Change]:
    """Each added member is called out from their standby and rostered on the swap's flights as one duty from
    `report_at`: a copy of the rostered cabin crew's rows on those flights (times, type, sectors), their own."""
    flight = planner._flight(a.flight_id)
    report = iso_z(a.report_at)
    local_day = a.report_at.astimezone(ZoneInfo(airport(flight["origin"]).tz)).date()
    standby = planner.standby(flight["origin"], {local_day.isoformat(), str(flight["flight_date"])})
    template = moved_rows(_template(planner, a), a.flight_id, *flight_times(flight))
    first = template[0]["duty_id"] if template else None
    out: list[Change] = []
    for crew_id in a.crew_ids:
        out.append(planner.call_out(standby, crew_id, report, flight["origin"], local_day))
        for row in template:
            # the first duty is theirs from the call-out; a later one (after a layover) as the crew's own
            start = report if row["duty_id"] == first else row["duty_start"]
            new = {
                **{k: v for k, v in row.items() if k != "standby_base_date"},
                "crew_id": crew_id,
                "duty_key": f"{start}#{row.get('sector_departure', '')}#{row['flight_id']}",
                "duty_id": f"D-{crew_id}-{start}",
                "duty_start": start,
                "sectors": sum(1 for r in template if r["duty_id"] == row["duty_id"]),
                "position": a.position,
            }
            if row["duty_id"] == first:
                new["start_station"] = flight["origin"]
            out.append(planner._change(s.CREW_ROSTER, None, new))
    return out


def _template(planner: RowReader, a: AddCabinCrew) -> list[dict]:
    """The rows of one rostered cabin crew member of the flight over the swap's flights, in time order."""
    seats = planner._query(s.CREW_ROSTER, Key("flight_id").eq(a.flight_id), s.FLIGHT_POSITION_INDEX)
    cabin = sorted((r for r in seats if r.get("position") == a.position), key=lambda r: r["crew_id"])
    if not cabin:
        raise PlanError("ROW_MISSING", f"no {a.position} is rostered on {a.flight_id} to copy the duty from")
    wanted = set(a.flights)
    rows = planner._query(
        s.CREW_ROSTER, Key("crew_id").eq(cabin[0]["crew_id"]) & Key("duty_key").gte(cabin[0]["duty_start"])
    )
    chosen = (r for r in rows if r.get("flight_id") in wanted and r["kind"] == "FLIGHT")
    return sorted(chosen, key=lambda r: r["duty_key"])


def positioning_row(planner: RowReader, a: ReassignCrew, reserve: str, report: str) -> dict | None:
    """The reserve's positioning sector (ORO.FTL.105: travelled as a passenger, counted as duty, and as FDP before
    the sectors it then operates, ORO.FTL.220) as a POSITIONING row of the duty it takes: on the airline's flight
    (`positioning_flight_id`) or the plan's rescue ferry (`positioning_ferry`). It names no flight: the flight's
    index lists only the crew who operate it. None when the reserve is not positioned."""
    if a.positioning_flight_id:
        carrier = planner._flight(a.positioning_flight_id)
        origin, destination = carrier["origin"], carrier["destination"]
        departure, arrival = (
            carrier.get("estimated_departure") or carrier["scheduled_departure"],
            (carrier.get("estimated_arrival") or carrier["scheduled_arrival"]),
        )
    elif a.positioning_ferry:
        ferry = next((x for x in planner.scenario.actions if isinstance(x, FerryAircraft)), None)
        if ferry is None:
            return None
        origin, destination = ferry.origin, ferry.destination
        departure, arrival = iso_z(ferry.departure), iso_z(ferry.arrival)
    else:
        return None
    return {
        "crew_id": reserve,
        "duty_key": f"{report}#{departure}#",  # the roster key convention for a row naming no flight
        "duty_id": f"D-{reserve}-{report}",
        "kind": "POSITIONING",
        "duty_start": report,
        "duty_end": arrival,
        "start_station": origin,
        "end_station": destination,
        "sector_departure": departure,
        "sector_arrival": arrival,
        "sectors": 1,
        "block_minutes": 0,  # not flight time: positioning is duty (ORO.FTL.105)
    }
