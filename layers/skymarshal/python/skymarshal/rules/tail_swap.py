"""Tail swap: may this aircraft operate that flight instead of its planned tail? Typed reasons for every refusal.

One check per function, each naming its basis (the checks in ``rules.tail_swap_checks``; codes, ``SwapConfig`` and
the result models in ``rules.tail_swap_models``):
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

from collections.abc import Sequence
from datetime import datetime, timedelta

from ..models.findings import Finding
from ..models.fleet import AIRCRAFT_TYPES
from ..models.operational import AircraftDay, Flight, WorkOrder
from ._clock import as_utc
from .mel import aircraft_airworthiness
from .tail_swap_checks import (
    cabin_plan,
    conflicting_flights,
    own_flights,
    position_finding,
    range_finding,
    type_finding,
)
from .tail_swap_models import (
    CAPACITY_CLAUSE,
    DEFAULT_SWAP,
    TURN_CLAUSE,
    CabinPlan,
    SwapConfig,
    SwapNote,
    SwapRefusal,
    TailSwapEligibility,
)


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

    own = own_flights(rotation, flight, reg)
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
