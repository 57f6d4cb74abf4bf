"""A flight report's facts as a what-if overlay (data/overlay.py), checked against the data.

What the report states and the tables do not hold yet becomes rows seen through every agent's data handle:
- a technical defect or damage (AHM 730 41-46, 51-52) with no grounding work order on the tail → an AOG
  work order at the flight's origin, its labour from the policy table (rules/what_if_policy.py, cited);
- a crew member unable to operate (a sick captain, 64/67 with a position) → that rostered member SICK;
  a position nobody holds on the flight is a contradiction, refused;
- an ATFM regulation (81-84, 88, 89) → the flight's slot: estimated off-blocks at the stated delay, else the
  policy's, when that is later than the data's estimate; any other cause the aircraft does not own with a stated
  duration ("a 30 minute hold for the cargo documents") → the flight held that long;
- weather at the destination (72-73) → observations below limits over the stated window (or the policy's),
  unless the data already holds weather the flight cannot land in.
Where the data already holds the disruption (the demos), the overlay adds nothing and a `data` fact says so.
Facts only make a situation worse: every entry grounds, removes, delays or closes; none relaxes anything.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from ..data import queries as q
from ..data import schema as s
from ..data.access import DataHandle
from ..data.overlay import Overlay, RowAddition, RowPatch
from ..models.common import iso_z
from ..models.disruption import POSITION_RANKS, Disruption, Fact, ReportContradictsData
from ..models.fleet import AIRCRAFT_TYPES
from ..models.operational import CABIN_RANKS, CrewDuty, Flight, WeatherObservation, WorkOrder
from ..rules import what_if_policy as policy
from ..rules.mel import aircraft_airworthiness
from ..rules.weather import assess_weather
from .base import decision_time

DEFECT_CODES = frozenset({41, 42, 43, 44, 45, 46, 51, 52})
ATFM_CODES = frozenset({81, 82, 83, 84, 88, 89})
DESTINATION_WEATHER_CODES = frozenset({72, 73})
# Observations the overlay writes for a reported hazard: (words, visibility m, ceiling ft, wind kt, gust kt, METAR)
HAZARDS: tuple[tuple[tuple[str, ...], int, int | None, int, int | None, str], ...] = (
    (("fog", "visibility", "mist"), 150, 100, 5, None, "FG"),
    (("snow", "blizzard", "freezing"), 500, 400, 15, 25, "SN"),
    (("crosswind", "wind", "gust"), 8000, None, 35, 55, "SQ"),
    (("sand", "dust"), 400, None, 25, 40, "SS"),
)
STORM = (3000, 1200, 30, 55, "TSRA")  # thunderstorms, or a hazard the words do not name


def what_if(
    disruption: Disruption, flight: Flight, handle: DataHandle, now: datetime | None, words: str = ""
) -> tuple[Overlay, list[Fact]]:
    """The overlay the report's facts imply for `flight`, and the facts it rests on (data and policy). `words`: the
    report's descriptive text (instructions left out), read for what a defect is (a policy estimate's key)."""
    at = decision_time(flight, now)
    patches: list[RowPatch] = []
    additions: list[RowAddition] = []
    facts: list[Fact] = []
    code = disruption.iata_delay_code
    stated = {f.name for f in disruption.facts if f.source == "stated"}
    # A stated defect grounds the tail whatever the report's first cause: a fact only adds (a sick captain beside a
    # hydraulic leak does not make the aircraft airworthy).
    if stated & {"aircraft_defect", "aircraft_damage"}:
        _defect(disruption, flight, handle, at, words, additions, facts)
    rank = disruption.unavailable_rank()
    if any(f.name == "crew_unavailable" and f.source == "stated" for f in disruption.facts):
        patches += _crew_unavailable(disruption, flight, handle, rank, facts, words)
    else:  # a position named for any other crew cause (late for the briefing) must be on the roster too
        _position_rostered(disruption, flight, handle)
    holds = disruption.severity_minutes is not None and code not in DEFECT_CODES | DESTINATION_WEATHER_CODES
    if (code in ATFM_CODES or holds) and not patches:  # a sick captain's "two hours before departure" is no hold
        patches += _hold(disruption, flight, facts)
    if code in DESTINATION_WEATHER_CODES and "weather" in stated:
        _weather(disruption, flight, handle, additions, facts)
    return Overlay(patches=patches, additions=additions), facts


def _defect(
    disruption: Disruption,
    flight: Flight,
    handle: DataHandle,
    at: datetime,
    words: str,
    additions: list[RowAddition],
    facts: list[Fact],
) -> None:
    orders = q.work_orders_for_aircraft(handle, flight.aircraft_registration)
    words = " ".join([disruption.cause, disruption.remarks, words])
    estimate = policy.defect_estimate(words)
    held = aircraft_airworthiness(orders, flight.departure, registration=flight.aircraft_registration)
    # The data already holds the reported defect when a grounding order is open for it: any one for an unspecified
    # fault ("a mechanical failure"), one of the same ATA chapter for a named one (a bird strike is not a leak).
    same = [
        o
        for o in orders
        if o.status != "CLOSED"
        and o.aog
        and (estimate is policy.UNSPECIFIED_DEFECT or o.ata_chapter == estimate.ata_chapter)
    ]
    if not held.airworthy and (same or estimate is policy.UNSPECIFIED_DEFECT):
        grounding = next((f for f in held.findings if f.binding), None)
        facts.append(
            Fact(
                name="aircraft_on_ground",
                value=flight.aircraft_registration,
                source="data",
                evidence=f"MaintenanceWorkOrders: {grounding.message if grounding else 'the tail is not airworthy'}",
            )
        )
        return
    if disruption.severity_minutes:  # "engineering expect about six hours": the report's estimate, not the policy's
        estimate = estimate.model_copy(update={"labour_hours": round(disruption.severity_minutes / 60, 1)})
    group = AIRCRAFT_TYPES[flight.aircraft_type].rating_group if flight.aircraft_type in AIRCRAFT_TYPES else None
    order = WorkOrder(
        work_order_id=f"WHATIF-{flight.flight_id}",
        aircraft_registration=flight.aircraft_registration,
        opened_at=at,
        kind="DEFECT",
        status="OPEN",
        ata_chapter=estimate.ata_chapter,
        description=f"Reported: {disruption.cause}. {estimate.task} (what-if, not yet in the maintenance system)",
        station=flight.origin,
        aog=True,
        estimated_labour_hours=estimate.labour_hours,
        required_authorisation=f"B1-{group}" if group else None,
        parts_available_at=at,  # policy: parts on hand at the station
    )
    additions.append(
        RowAddition(table=s.MAINTENANCE_WORK_ORDERS, item=order.model_dump(mode="json"), fact="aircraft_on_ground")
    )
    facts.append(
        Fact(
            name="aircraft_on_ground",
            value=flight.aircraft_registration,
            source="stated",
            evidence=next(
                (str(f.evidence) for f in disruption.facts if f.name in ("aircraft_defect", "aircraft_damage")),
                disruption.cause,
            ),
        )
    )
    facts.append(
        Fact(
            name="estimated_rectification_hours",
            value=estimate.labour_hours,
            source="stated" if disruption.severity_minutes else "policy",
            evidence=next(
                (str(f.evidence) for f in disruption.facts if f.name == "duration_minutes"),
                f"{disruption.severity_minutes} min",
            )
            if disruption.severity_minutes
            else f"{estimate.citation()}; work starts {at:%Y-%m-%d %H:%MZ} at {flight.origin}",
        )
    )


def _position_rostered(disruption: Disruption, flight: Flight, handle: DataHandle) -> None:
    """The crew position the report names on the flight is rostered on it, or the report contradicts the data."""
    position = disruption.scope.crew_position
    rank = POSITION_RANKS.get(position or "")
    if position is None or rank is None or flight.flight_id not in disruption.scope.flights:
        return
    if not any(d.position == rank for d in q.crew_assignments(handle, flight.flight_id)):
        raise ReportContradictsData(
            f"no {position.replace('_', ' ').lower()} ({rank}) is rostered on {flight.flight_number} "
            f"{flight.flight_date}: check the flight or the crew position"
        )


def _crew_unavailable(
    disruption: Disruption, flight: Flight, handle: DataHandle, rank: str | None, facts: list[Fact], words: str
) -> list[RowPatch]:
    """The members a crew cause makes unavailable: those the report names by staff number (each rostered on the
    flight, in the position it says if it says one), else the first rostered in the position it names (as many as
    it counts: "2 cabin crew short"), else none."""
    on_flight = sorted(q.crew_assignments(handle, flight.flight_id), key=lambda d: d.crew_id)
    named = named_members(words, on_flight)
    if rank is None:
        return _unavailable(named, flight, facts, named=True)
    position = disruption.scope.crew_position or rank
    rostered = [d for d in on_flight if d.position == rank]
    if named:
        _check_positions(named, rank, position, flight)
    elif not rostered:
        raise ReportContradictsData(
            f"no {position.replace('_', ' ').lower()} ({rank}) is rostered on {flight.flight_number} "
            f"{flight.flight_date}: check the flight or the crew position"
        )
    # "The captain" of an augmented crew names one of them: the first, so the report makes one member absent; "two
    # cabin crew short" makes the first two absent
    count = next((int(f.value) for f in disruption.facts if f.name == "crew_count" and isinstance(f.value, int)), 1)
    return _unavailable(named or rostered[:count], flight, facts, named=bool(named))


def _unavailable(members: list[CrewDuty], flight: Flight, facts: list[Fact], named: bool) -> list[RowPatch]:
    for member in members:
        facts.append(
            Fact(
                name="crew_unavailable",
                value=member.crew_id,
                source="data",
                evidence=f"CrewRoster: {member.crew_id} rostered as {member.position} on {flight.flight_number} "
                f"({member.duty_key})" + ("; named in the report" if named else ""),
            )
        )
    return [
        RowPatch(
            table=s.CREW_MEMBERS, key={"crew_id": member.crew_id}, fields={"status": "SICK"}, fact="crew_unavailable"
        )
        for member in members
    ]


def named_members(words: str, on_flight: list[CrewDuty]) -> list[CrewDuty]:
    """The flight's rostered members whose staff number is a word of the report ("C/A C00912 sick")."""
    said = set(re.findall(r"\w+", words.upper()))
    return [d for d in on_flight if d.crew_id.upper() in said]


def _check_positions(named: list[CrewDuty], rank: str, position: str, flight: Flight) -> None:
    """A member named in another position than the report's words contradicts the roster: refused, never guessed."""
    cabin = rank in CABIN_RANKS
    wrong = [d for d in named if not (d.position == rank or (cabin and d.position in CABIN_RANKS))]
    if wrong:
        listed = ", ".join(f"{d.crew_id} as {d.position}" for d in wrong)
        raise ReportContradictsData(
            f"the report names a {position.replace('_', ' ').lower()} ({rank}) on {flight.flight_number} "
            f"{flight.flight_date}, but the roster has {listed}: check the staff number or the position"
        )


def _hold(disruption: Disruption, flight: Flight, facts: list[Fact]) -> list[RowPatch]:
    """The flight held at the stated duration (a slot for an ATFM regulation, else the policy's planned slot)."""
    minutes = disruption.severity_minutes
    source = "stated"
    atfm = disruption.iata_delay_code in ATFM_CODES
    if minutes is None:
        minutes, source = policy.slot_minutes(disruption.iata_delay_code), "policy"
    evidence = (
        next((str(f.evidence) for f in disruption.facts if f.name == "duration_minutes"), f"{minutes} min")
        if source == "stated"
        else f"{policy.POLICY}: AHM 730 code {disruption.iata_delay_code} planned at {minutes} min until the slot is known"
    )
    name = "slot_delay_minutes" if atfm else "hold_minutes"
    facts.append(Fact(name=name, value=minutes, source=source, evidence=evidence))
    if flight.delay_minutes >= minutes:  # the data's estimate is already as late: the report adds nothing
        return []
    off_blocks = flight.scheduled_departure + timedelta(minutes=minutes)
    on_blocks = flight.scheduled_arrival + timedelta(minutes=minutes)
    return [
        RowPatch(
            table=s.FLIGHTS,
            key={"flight_id": flight.flight_id},
            fields={
                "estimated_departure": iso_z(off_blocks),
                "estimated_arrival": iso_z(on_blocks),
                "delay_minutes": minutes,
                "delay_reason": f"ATC: {disruption.cause} (reported slot)" if atfm else f"REPORTED: {disruption.cause}",
                "status": "DELAYED",
            },
            fact=name,
        )
    ]


def _weather(
    disruption: Disruption, flight: Flight, handle: DataHandle, additions: list[RowAddition], facts: list[Fact]
) -> None:
    airport = flight.destination
    profile = q.airport_profile(handle, airport)
    if profile is None:
        return
    if disruption.window is not None:
        start, end, source = disruption.window.start, disruption.window.end, "stated"
    else:
        start = flight.arrival - timedelta(minutes=30)
        end, source = start + timedelta(hours=policy.WEATHER_HOURS), "policy"
    held = q.weather(handle, airport, start - timedelta(hours=1), end)
    if any(f.binding for obs in held for f in assess_weather(obs, profile, flight.aircraft_type).findings):
        facts.append(
            Fact(
                name="weather_below_limits",
                value=airport,
                source="data",
                evidence=f"Weather: {airport} observations below the {flight.aircraft_type}'s limits",
            )
        )
        return
    words = " ".join(str(f.evidence) for f in disruption.facts if f.source == "stated").lower()
    vis, ceiling, wind, gust, metar = next(
        ((v, c, w, g, m) for names, v, c, w, g, m in HAZARDS if any(n in words for n in names)), STORM
    )
    heading = profile.runways[0].heading_deg if profile.runways else 0
    hour = start.replace(minute=0, second=0, microsecond=0)
    while hour < end:
        obs = WeatherObservation(
            airport=airport,
            forecast_time=hour,
            visibility_m=vis,
            ceiling_ft=ceiling,
            wind_direction_deg=(heading + 90) % 360 or 360,  # across the runway: the worst case the words allow
            wind_speed_kt=wind,
            gust_kt=gust,
            temperature_c=10.0,
            phenomena=[metar],
        )
        additions.append(RowAddition(table=s.WEATHER, item=obs.model_dump(mode="json"), fact="weather"))
        hour += timedelta(hours=1)
    facts.append(
        Fact(
            name="weather_window",
            value=f"{airport} {start:%H:%M}Z-{end:%H:%M}Z",
            source=source,
            evidence=str(disruption.window)
            if source == "stated"
            else f"{policy.POLICY}: {policy.WEATHER_HOURS} h from the flight's arrival",
        )
    )
