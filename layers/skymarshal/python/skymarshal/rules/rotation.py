"""Operation integrity: can every aircraft still fly its flights in sequence, and does AircraftAvailability say
where each one really is? One function per invariant, each break typed and citing its basis.

- ``rotation_breaks``     one tail's flights in best-known departure order (the estimate, else the schedule;
                          cancelled flights left out; a diverted flight arrives at its alternate):
  WRONG_STATION           a flight leaves from an airport the previous flight did not arrive at (or, for the first,
                          the airport the tail starts at) — the aircraft is elsewhere;
  OVERLAP                 it leaves before the previous flight arrived — one tail on two flights at once;
  SHORT_TURN              it leaves before the previous arrival plus the type's minimum turn-round (operator
                          ground-handling standard, IATA AHM 810; ``models.fleet`` turn times);
  GROUNDED                it leaves while the tail is not airworthy (Part-M M.A.403(a): an open AOG defect, an MEL
                          item out of interval — ``rules.mel.aircraft_airworthiness``).
- ``availability_breaks`` AircraftAvailability against the flights: the station at 00:00 UTC is where the tail's
                          last flight before it arrived (en route: its destination) — STATION_MISMATCH; a day kept
                          SPARE while the tail flies that day — SPARE_FLYING.
- ``expected_day``        the AircraftAvailability row the flights imply (what execution writes back).

A flight already off blocks (DEPARTED, ARRIVED) is not judged for airworthiness: it has flown.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..models.fleet import AIRCRAFT_TYPES
from ..models.operational import AircraftDay, Flight, WorkOrder
from ._clock import as_utc
from .mel import aircraft_airworthiness, grounded_at

BreakCode = Literal["WRONG_STATION", "OVERLAP", "SHORT_TURN", "GROUNDED", "STATION_MISMATCH", "SPARE_FLYING"]
CONTINUITY: frozenset[str] = frozenset({"WRONG_STATION", "OVERLAP", "SHORT_TURN", "STATION_MISMATCH", "SPARE_FLYING"})
TURN_CLAUSE = "Minimum turn-round time (operator ground-handling standard, IATA AHM 810)"
CONTINUITY_CLAUSE = "Aircraft continuity: a flight departs where its aircraft last arrived (tail assignment)"
AIRWORTHY_CLAUSE = "Part-M M.A.403(a): no flight with a defect that endangers safety (AOG, MEL out of interval)"
FLOWN = ("DEPARTED", "ARRIVED")


class RotationBreak(BaseModel):
    """One place where an aircraft cannot fly what the data gives it."""

    model_config = ConfigDict(frozen=True)

    code: BreakCode
    registration: str
    flight_id: str | None  # None for an availability row's break
    day: date | None = None
    clause: str
    message: str

    @property
    def continuity(self) -> bool:
        """A break of the sequence itself (never acceptable), as opposed to a tail still planned while grounded
        (a disruption waiting for its decision)."""
        return self.code in CONTINUITY


def arrival_airport(flight: Flight) -> str:
    return flight.diverted_to if flight.status == "DIVERTED" and flight.diverted_to else flight.destination


def flying(flights: Sequence[Flight]) -> list[Flight]:
    """The flights a tail will or did fly, in best-known departure order."""
    return sorted((f for f in flights if f.status != "CANCELLED"), key=lambda f: (as_utc(f.departure), f.flight_id))


def rotation_breaks(
    registration: str,
    flights: Sequence[Flight],
    *,
    start_station: str | None = None,
    work_orders: Sequence[WorkOrder] = (),
    grounded_between: tuple[datetime, datetime | None] | None = None,
    turn_minutes: int | None = None,
) -> list[RotationBreak]:
    """Every break of one tail's sequence. ``start_station``: where the tail is before its first flight (None: not
    checked); ``work_orders``: the tail's own, for airworthiness at each departure; ``grounded_between``: a
    grounding known otherwise (a reported AOG until maintenance's estimated release; None: open-ended);
    ``turn_minutes``: the minimum turn-round (default: the type's)."""
    out: list[RotationBreak] = []
    previous: Flight | None = None
    for flight in flying(flights):

        def broken(code: BreakCode, clause: str, message: str, flight_id: str = flight.flight_id) -> None:
            out.append(
                RotationBreak(code=code, registration=registration, flight_id=flight_id, clause=clause, message=message)
            )

        turn = turn_minutes if turn_minutes is not None else _turn(flight.aircraft_type)
        where = arrival_airport(previous) if previous is not None else start_station
        if where is not None and flight.origin != where:
            after = f" after {previous.flight_id}." if previous is not None else " at the start of the data."
            broken(
                "WRONG_STATION",
                CONTINUITY_CLAUSE,
                f"{flight.flight_id} leaves {flight.origin} on {registration}, which is at {where}{after}",
            )
        if previous is not None:
            gap = (as_utc(flight.departure) - as_utc(previous.arrival)).total_seconds() / 60
            if gap < 0:
                broken(
                    "OVERLAP",
                    CONTINUITY_CLAUSE,
                    f"{registration} is on {previous.flight_id} until {previous.arrival:%Y-%m-%d %H:%MZ} and on "
                    f"{flight.flight_id} from {flight.departure:%H:%MZ}: two flights at once.",
                )
            elif gap < turn:
                broken(
                    "SHORT_TURN",
                    TURN_CLAUSE,
                    f"{flight.flight_id} leaves {gap:.0f} min after {previous.flight_id} arrives on {registration}; "
                    f"the {flight.aircraft_type} needs {turn} min.",
                )
        why = _grounded(flight, registration, work_orders, grounded_between)
        if why is not None:
            broken(
                "GROUNDED",
                AIRWORTHY_CLAUSE,
                f"{flight.flight_id} leaves {flight.departure:%Y-%m-%d %H:%MZ} on {registration}, which is grounded "
                f"then: {why}",
            )
        previous = flight
    return out


def _grounded(
    flight: Flight,
    registration: str,
    work_orders: Sequence[WorkOrder],
    window: tuple[datetime, datetime | None] | None,
) -> str | None:
    """Why the tail may not fly ``flight`` when it leaves, or None."""
    if flight.status in FLOWN:
        return None
    departure = as_utc(flight.departure)
    if window is not None and as_utc(window[0]) <= departure and (window[1] is None or departure < as_utc(window[1])):
        return "reported on ground" + (f" until its estimated release at {window[1]:%H:%MZ}" if window[1] else "")
    if work_orders and grounded_at(work_orders, departure, registration=registration):
        state = aircraft_airworthiness(work_orders, departure, registration=registration)
        if not state.airworthy:
            return next((f.message for f in state.findings if f.status == "illegal"), "not airworthy")
    return None


def _turn(aircraft_type: str) -> int:
    spec = AIRCRAFT_TYPES.get(aircraft_type)
    return spec.min_turn_minutes if spec else 0


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time(0, 0), UTC)


def station_at(flights: Sequence[Flight], instant: datetime, default: str) -> str:
    """Where the tail is (or is bound for, when airborne) at ``instant``: the arrival airport of its last flight
    that left before it; ``default`` when none did."""
    before = [f for f in flying(flights) if as_utc(f.departure) < instant]
    return arrival_airport(before[-1]) if before else default


def expected_day(row: AircraftDay, flights: Sequence[Flight], first_station: str) -> AircraftDay:
    """The availability row the flights imply: the station at 00:00 UTC (``first_station`` when no flight left
    before), the first departure and last arrival of the day, and a spare that flies that day in service."""
    start = _midnight(row.date)
    today = [f for f in flying(flights) if start <= as_utc(f.departure) < start + timedelta(days=1)]
    status = "IN_SERVICE" if row.status == "SPARE" and today else row.status
    return row.model_copy(
        update={
            "station": station_at(flights, start, first_station),
            "first_departure": today[0].departure if today else None,
            "last_arrival": today[-1].arrival if today else None,
            "status": status,
        }
    )


def availability_breaks(days: Sequence[AircraftDay], flights: Sequence[Flight]) -> list[RotationBreak]:
    """Each availability row of one tail against its flights (``days`` of that tail, any order)."""
    out: list[RotationBreak] = []
    ordered = sorted(days, key=lambda d: d.date)
    if not ordered:
        return out
    first = ordered[0].station
    for row in ordered:
        expected = station_at(flights, _midnight(row.date), first)
        if row.station != expected:
            out.append(
                RotationBreak(
                    code="STATION_MISMATCH",
                    registration=row.aircraft_registration,
                    flight_id=None,
                    day=row.date,
                    clause=CONTINUITY_CLAUSE,
                    message=f"AircraftAvailability puts {row.aircraft_registration} at {row.station} at 00:00Z on "
                    f"{row.date}; its flights leave it at {expected}.",
                )
            )
        if row.status == "SPARE" and expected_day(row, flights, first).status != "SPARE":
            out.append(
                RotationBreak(
                    code="SPARE_FLYING",
                    registration=row.aircraft_registration,
                    flight_id=None,
                    day=row.date,
                    clause=CONTINUITY_CLAUSE,
                    message=f"{row.aircraft_registration} is listed as a spare on {row.date} but flies that day.",
                )
            )
    return out
