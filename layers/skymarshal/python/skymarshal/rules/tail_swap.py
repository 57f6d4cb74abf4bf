"""Tail swap: may this aircraft operate that flight instead of its planned tail? Typed reasons for every refusal.

One check per function, each naming its basis:
- ``type_finding``      same or compatible type (``models.fleet.compatible_types``: the same type-rating group, so
                        the rostered crew stay qualified — FCL.700, ORO.CC.125); binding when not.
- ``range_finding``     the type's typical range ≥ the flight's great-circle distance (published figure; the flight
                        plan's fuel calculation, CAT.OP.MPA.150, decides — verify); binding when short.
- airworthiness at the departure time: ``rules.mel.aircraft_airworthiness`` (binding findings).
- ``position_finding``  at the departure station, and its last arrival there + its type's minimum turn-round ≤
                        the departure (operator ground-handling standard). Exactly at the limit is legal (at risk).
- ``conflicting_flights`` its own flights that need the aircraft between the departure − turn and the arrival +
                        turn; refused unless ``SwapConfig.allow_giving_up_flights`` (then listed to give up).
- ``cabin_plan``        seats per cabin against the passengers booked: premium excess downgraded (EU261 Art. 10(2)
                        refund of 30/50/75 % of the fare), economy excess upgraded, the rest offloaded (denied
                        boarding, Art. 4). A note, not a refusal.
- notes: a type with a larger cabin crew complement (ORO.CC.100, operator complement per type), MEL dispatch
  restrictions, and a broken continuity after the swapped flight.
An AircraftAvailability row with status AOG or MAINTENANCE is refused as it stands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..models.common import UtcDatetime
from ..models.findings import DEFAULT_AT_RISK_MINUTES, Finding, status_for_margin
from ..models.fleet import AIRCRAFT_TYPES, compatible_types
from ..models.operational import AircraftDay, Cabin, Flight, WorkOrder
from ._clock import as_utc, minutes_between
from ._reasons import Reason
from .mel import aircraft_airworthiness

CABINS: tuple[Cabin, ...] = ("F", "J", "Y")  # highest first
TYPE_CLAUSE = "Same type-rating group, crew stay qualified (FCL.700, ORO.CC.125)"
RANGE_CLAUSE = "Aircraft type range (typical published figure; fuel planning CAT.OP.MPA.150 decides, verify)"
TURN_CLAUSE = "Scheduled minimum turn-round for the type (operator ground-handling standard)"
CAPACITY_CLAUSE = "Reg. (EC) 261/2004 Art. 10(2) downgrading, Art. 4 denied boarding"

SwapRefusalCode = Literal[
    "SAME_AIRCRAFT",
    "UNKNOWN_TYPE",
    "TYPE_INCOMPATIBLE",
    "UNAVAILABLE",
    "NOT_AIRWORTHY",
    "OUT_OF_RANGE",
    "WRONG_STATION",
    "NOT_READY_IN_TIME",
    "CONFLICTING_FLIGHTS",
]
SwapNoteCode = Literal[
    "DIFFERENT_TYPE",
    "DOWNGRADE",
    "UPGRADE",
    "OFFLOAD",
    "EXTRA_CABIN_CREW",
    "MEL_RESTRICTIONS",
    "GIVES_UP_FLIGHTS",
    "CONTINUITY_BREAK",
]


class SwapRefusal(Reason):
    code: SwapRefusalCode


class SwapNote(Reason):
    code: SwapNoteCode


class SwapConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    allow_giving_up_flights: bool = False
    unavailable_statuses: tuple[str, ...] = ("AOG", "MAINTENANCE")
    at_risk_minutes: int = DEFAULT_AT_RISK_MINUTES


DEFAULT_SWAP = SwapConfig()


class CabinPlan(BaseModel):
    model_config = ConfigDict(frozen=True)

    booked: dict[str, int]
    capacity: dict[str, int]
    downgraded: dict[str, int]  # "J>Y": passengers moved down
    upgraded: dict[str, int]  # "Y>J": passengers moved up
    offloaded: int

    @property
    def fits(self) -> bool:
        return not self.downgraded and not self.offloaded


class TailSwapEligibility(BaseModel):
    model_config = ConfigDict(frozen=True)

    registration: str
    aircraft_type: str
    flight_id: str
    eligible: bool
    refusals: tuple[SwapRefusal, ...]
    notes: tuple[SwapNote, ...]
    station: str  # where the aircraft is before the departure
    ready_at: UtcDatetime | None  # last arrival + minimum turn (None: on the ground since the start of the day)
    turn_margin_minutes: int | None
    flights_to_give_up: tuple[str, ...]  # own flights in the way (a refusal unless allow_giving_up_flights)
    cabin_plan: CabinPlan
    findings: tuple[Finding, ...]


def cabin_plan(booked: Mapping[Cabin, int], capacity: Mapping[Cabin, int]) -> CabinPlan:
    """Passengers per cabin onto the seats: excess downgraded to the nearest lower cabin with room, economy excess
    upgraded to the nearest higher one, the rest offloaded."""
    seated = {c: min(booked.get(c, 0), capacity.get(c, 0)) for c in CABINS}
    spare = {c: capacity.get(c, 0) - seated[c] for c in CABINS}
    over = {c: booked.get(c, 0) - seated[c] for c in CABINS}
    down: dict[str, int] = {}
    up: dict[str, int] = {}
    for i, cabin in enumerate(CABINS):
        for lower in CABINS[i + 1 :]:
            moved = min(over[cabin], spare[lower])
            if moved:
                down[f"{cabin}>{lower}"] = moved
                over[cabin], spare[lower] = over[cabin] - moved, spare[lower] - moved
    for i in range(len(CABINS) - 1, -1, -1):
        cabin = CABINS[i]
        for higher in reversed(CABINS[:i]):
            moved = min(over[cabin], spare[higher])
            if moved:
                up[f"{cabin}>{higher}"] = moved
                over[cabin], spare[higher] = over[cabin] - moved, spare[higher] - moved
    return CabinPlan(
        booked=dict(booked), capacity=dict(capacity), downgraded=down, upgraded=up, offloaded=sum(over.values())
    )


def type_finding(candidate_type: str, flight: Flight, registration: str) -> Finding:
    """Binding unless the candidate's type is in ``compatible_types`` of the flight's type."""
    ok = flight.aircraft_type in AIRCRAFT_TYPES and candidate_type in compatible_types(flight.aircraft_type)
    return Finding(
        rule="fleet.swap_type",
        clause=TYPE_CLAUSE,
        status="legal" if ok else "illegal",
        binding=not ok,
        subject=registration,
        message=(
            f"{registration} ({candidate_type}) is {'in' if ok else 'not in'} the type-rating group of "
            f"{flight.flight_number}'s {flight.aircraft_type}."
        ),
        details={"candidate_type": candidate_type, "flight_type": flight.aircraft_type},
    )


def range_finding(candidate_type: str, flight: Flight, registration: str) -> Finding:
    """Binding when the type's range is under the flight's distance."""
    range_km = AIRCRAFT_TYPES[candidate_type].range_km
    ok = range_km >= flight.distance_km
    return Finding(
        rule="fleet.swap_range",
        clause=RANGE_CLAUSE,
        status="legal" if ok else "illegal",
        binding=not ok,
        subject=registration,
        limit=range_km,
        actual=flight.distance_km,
        unit="km",
        message=(
            f"{candidate_type} range {range_km} km {'covers' if ok else 'is short of'} "
            f"{flight.origin}-{flight.destination} ({flight.distance_km} km)."
        ),
    )


def _own_flights(rotation: Sequence[Flight], flight: Flight, registration: str) -> list[Flight]:
    return sorted(
        (
            f
            for f in rotation
            if f.flight_id != flight.flight_id and f.status != "CANCELLED" and f.aircraft_registration == registration
        ),
        key=lambda f: f.departure,
    )


def position_finding(
    candidate: AircraftDay,
    own: Sequence[Flight],
    flight: Flight,
    departure: datetime,
    config: SwapConfig = DEFAULT_SWAP,
) -> tuple[Finding, str, datetime | None, int | None]:
    """Where the aircraft is before ``departure`` and when it is turned round: (finding, station, ready_at, margin).

    The last own flight departing before ``departure`` fixes the station (its destination) and ready time (its
    arrival + the candidate type's minimum turn); with none, the row's start-of-day station, ready at once.
    """
    reg, turn = candidate.aircraft_registration, AIRCRAFT_TYPES[candidate.aircraft_type].min_turn_minutes
    before = [f for f in own if f.departure < departure]
    last = before[-1] if before else None
    station = last.destination if last else candidate.station
    ready_at = last.arrival + timedelta(minutes=turn) if last else None
    margin = minutes_between(ready_at, departure) if ready_at else None
    details = {
        "station": station,
        "last_flight": last.flight_id if last else None,
        "min_turn_minutes": turn,
        "ready_at": ready_at.isoformat() if ready_at else None,
    }
    if station != flight.origin:
        return (
            Finding(
                rule="fleet.swap_position",
                clause=TURN_CLAUSE,
                status="illegal",
                subject=reg,
                message=f"{reg} is at {station}, not at {flight.origin}, before {flight.flight_number}.",
                details=details,
            ),
            station,
            ready_at,
            margin,
        )
    if last is None or margin is None:
        return (
            Finding(
                rule="fleet.swap_position",
                clause=TURN_CLAUSE,
                status="legal",
                subject=reg,
                message=f"{reg} is on the ground at {station} with no earlier flight that day.",
                details=details,
            ),
            station,
            ready_at,
            margin,
        )
    status = status_for_margin(margin, config.at_risk_minutes)
    return (
        Finding(
            rule="fleet.swap_position",
            clause=TURN_CLAUSE,
            status=status,
            subject=reg,
            margin_minutes=margin,
            message=(
                f"{reg} arrives at {station} at {last.arrival:%H:%M}Z and needs {turn} min to turn: "
                f"ready {ready_at:%H:%M}Z for a {departure:%H:%M}Z departure."
            ),
            details=details,
        ),
        station,
        ready_at,
        margin,
    )


def conflicting_flights(
    own: Sequence[Flight], departure: datetime, arrival: datetime, turn_minutes: int
) -> list[Flight]:
    """Own flights departing at/after ``departure`` and before ``arrival`` + turn: the aircraft is not free for them."""
    free_at = arrival + timedelta(minutes=turn_minutes)
    return [f for f in own if departure <= f.departure < free_at]


def tail_swap_eligibility(
    candidate: AircraftDay,
    work_orders: Sequence[WorkOrder],
    rotation: Sequence[Flight],
    flight: Flight,
    at: datetime,
    *,
    departure: datetime | None = None,
    tz: str = "UTC",
    config: SwapConfig = DEFAULT_SWAP,
) -> TailSwapEligibility:
    """Whether ``candidate`` may operate ``flight`` departing at ``departure`` (default: its best known time).

    ``work_orders`` and ``rotation`` are the candidate's (others are ignored). Flights of the rotation
    departing before ``at`` are taken as flown. ``tz`` is the zone MEL intervals are counted in.
    """
    at = as_utc(at)
    departure = as_utc(departure or flight.departure)
    arrival = departure + (flight.arrival - flight.departure)
    reg, ctype = candidate.aircraft_registration, candidate.aircraft_type
    refusals: list[SwapRefusal] = []
    notes: list[SwapNote] = []
    findings: list[Finding] = []
    plan = cabin_plan(flight.booked, candidate.capacity)

    def result(
        station: str = candidate.station,
        ready_at: datetime | None = None,
        margin: int | None = None,
        give_up: Sequence[str] = (),
    ) -> TailSwapEligibility:
        return TailSwapEligibility(
            registration=reg,
            aircraft_type=ctype,
            flight_id=flight.flight_id,
            eligible=not refusals,
            refusals=tuple(refusals),
            notes=tuple(notes),
            station=station,
            ready_at=ready_at,
            turn_margin_minutes=margin,
            flights_to_give_up=tuple(give_up),
            cabin_plan=plan,
            findings=tuple(findings),
        )

    if reg == flight.aircraft_registration:
        refusals.append(
            SwapRefusal(code="SAME_AIRCRAFT", message=f"{reg} is already the aircraft of {flight.flight_number}.")
        )
        return result()
    if ctype not in AIRCRAFT_TYPES:
        refusals.append(SwapRefusal(code="UNKNOWN_TYPE", message=f"{reg}: aircraft type {ctype!r} is not on record."))
        return result()
    findings.append(type_finding(ctype, flight, reg))
    if findings[-1].status == "illegal":
        refusals.append(SwapRefusal(code="TYPE_INCOMPATIBLE", message=findings[-1].message))
    elif ctype != flight.aircraft_type:
        notes.append(
            SwapNote(code="DIFFERENT_TYPE", message=f"{ctype} instead of {flight.aircraft_type}, same rating group.")
        )
        extra = (
            AIRCRAFT_TYPES[ctype].cabin_crew
            - AIRCRAFT_TYPES.get(flight.aircraft_type, AIRCRAFT_TYPES[ctype]).cabin_crew
        )
        if extra > 0:
            notes.append(
                SwapNote(
                    code="EXTRA_CABIN_CREW",
                    message=f"{ctype} is crewed with {extra} more cabin crew than the {flight.aircraft_type} "
                    f"(operator complement; ORO.CC.100 minimum by seats).",
                )
            )
    if candidate.status in config.unavailable_statuses:
        refusals.append(SwapRefusal(code="UNAVAILABLE", message=f"{reg} is {candidate.status} on {candidate.date}."))
    findings.append(range_finding(ctype, flight, reg))
    if findings[-1].status == "illegal":
        refusals.append(SwapRefusal(code="OUT_OF_RANGE", message=findings[-1].message))
    air = aircraft_airworthiness(work_orders, departure, registration=reg, tz=tz)
    findings.extend(air.findings)
    if not air.airworthy:
        reasons = "; ".join(f.message for f in air.findings if f.status == "illegal")
        refusals.append(
            SwapRefusal(
                code="NOT_AIRWORTHY", message=f"{reg} is not airworthy at {departure:%Y-%m-%d %H:%M}Z: {reasons}"
            )
        )
    elif air.restrictions:
        notes.append(
            SwapNote(code="MEL_RESTRICTIONS", message=f"Dispatch restrictions: {', '.join(air.restrictions)}.")
        )

    own = _own_flights(rotation, flight, reg)
    position, station, ready_at, margin = position_finding(candidate, own, flight, departure, config)
    findings.append(position)
    if station != flight.origin:
        refusals.append(SwapRefusal(code="WRONG_STATION", message=position.message))
    elif margin is not None and margin < 0:
        refusals.append(SwapRefusal(code="NOT_READY_IN_TIME", message=position.message + f" Short by {-margin} min."))

    turn = AIRCRAFT_TYPES[ctype].min_turn_minutes
    clashes = [f for f in conflicting_flights(own, departure, arrival, turn) if f.departure >= at]
    clash_ids = [f.flight_id for f in clashes]
    if clashes:
        text = f"{reg} would have to give up {', '.join(clash_ids)}."
        findings.append(
            Finding(
                rule="fleet.swap_conflict",
                clause=TURN_CLAUSE,
                status="at_risk" if config.allow_giving_up_flights else "illegal",
                subject=reg,
                message=text,
                details={"flights": clash_ids},
            )
        )
        if config.allow_giving_up_flights:
            notes.append(SwapNote(code="GIVES_UP_FLIGHTS", message=text))
        else:
            refusals.append(SwapRefusal(code="CONFLICTING_FLIGHTS", message=text))
    later = [f for f in own if f.departure >= arrival + timedelta(minutes=turn) and f.departure >= at]
    if later and later[0].origin != flight.destination:
        notes.append(
            SwapNote(
                code="CONTINUITY_BREAK",
                message=f"After {flight.flight_number} {reg} is at {flight.destination}, but its next "
                f"flight {later[0].flight_id} leaves {later[0].origin}.",
            )
        )

    _capacity_notes(plan, notes)
    findings.append(
        Finding(
            rule="fleet.swap_capacity",
            clause=CAPACITY_CLAUSE,
            status="legal" if plan.fits else "at_risk",
            subject=reg,
            limit=sum(plan.capacity.values()),
            actual=sum(plan.booked.values()),
            unit="seats",
            message=(
                f"{reg} seats every booked passenger in their cabin."
                if plan.fits and not plan.upgraded
                else f"{reg}: downgraded {_moves(plan.downgraded)}, upgraded {_moves(plan.upgraded)}, "
                f"offloaded {plan.offloaded}."
            ),
            details=plan.model_dump(),
        )
    )
    return result(station, ready_at, margin, clash_ids)


def _moves(moves: dict[str, int]) -> str:
    return ", ".join(f"{count} {move}" for move, count in moves.items()) or "none"


def _capacity_notes(plan: CabinPlan, notes: list[SwapNote]) -> None:
    for move, count in plan.downgraded.items():
        notes.append(SwapNote(code="DOWNGRADE", message=f"{count} passenger(s) downgraded {move} (EU261 Art. 10(2))."))
    for move, count in plan.upgraded.items():
        notes.append(SwapNote(code="UPGRADE", message=f"{count} passenger(s) upgraded {move}."))
    if plan.offloaded:
        notes.append(
            SwapNote(
                code="OFFLOAD",
                message=f"{plan.offloaded} passenger(s) offloaded: no seat in any cabin "
                f"(denied boarding, EU261 Art. 4).",
            )
        )


def rank_tail_swaps(results: Sequence[TailSwapEligibility]) -> list[TailSwapEligibility]:
    """Eligible candidates, best first: same type, fewest passengers moved, fewest flights given up, most turn margin."""

    def key(r: TailSwapEligibility) -> tuple[bool, int, int, int, str]:
        moved = sum(r.cabin_plan.downgraded.values()) + r.cabin_plan.offloaded
        different = any(n.code == "DIFFERENT_TYPE" for n in r.notes)
        return (
            different,
            moved,
            len(r.flights_to_give_up),
            -(r.turn_margin_minutes if r.turn_margin_minutes is not None else 10**6),
            r.registration,
        )

    return sorted((r for r in results if r.eligible), key=key)
