"""Hand-built decisions and operational rows for the Gantt builder's unit tests (no AWS): a tail flying
AUH-FRA-AUH-FRA, its crew, a spare, reserves and connecting passengers, and a plan of each kind."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import row_builders

from skymarshal.arbitration.actions import (
    CancelFlight,
    DelayFlight,
    DivertFlight,
    ReassignCrew,
    RebookPassengers,
    SwapAircraft,
)
from skymarshal.arbitration.models import ArbitratorOutput, ConstraintCheck, RankedScenario, Scenario, Sensitivity
from skymarshal.models.agent_response import RegulatoryConstraint, TimeWindow
from skymarshal.models.operational import AirportProfile, Booking, CrewDuty, Flight
from skymarshal.views.gantt_models import OpsSnapshot

T0 = datetime(2027, 1, 20, 8, 0, tzinfo=UTC)
TAIL, SPARE = "A6-BLA", "A6-BLT"
BLOCK = timedelta(hours=6)


def flight(n: int, dep: datetime, origin: str, dest: str, tail: str = TAIL, number: str | None = None) -> Flight:
    return row_builders.flight(
        number or f"EY{100 + n}",
        origin,
        dest,
        dep,
        360,
        tail,
        distance_km=4600,
        capacity={"Y": 250},
        booked={"Y": 180},
        flight_id=f"F{n}",
        flight_date=date(2027, 1, 20),
    )


def rotation(turns: list[int], first: datetime = T0) -> list[Flight]:
    """Flights F1.. on TAIL, alternating AUH→FRA and back, `turns[i]` minutes on the ground before flight i+2."""
    out, dep = [], first
    for i in range(len(turns) + 1):
        origin, dest = ("AUH", "FRA") if i % 2 == 0 else ("FRA", "AUH")
        out.append(flight(i + 1, dep, origin, dest))
        if i < len(turns):
            dep = dep + BLOCK + timedelta(minutes=turns[i])
    return out


def duty(crew_id: str, f: Flight, position: str) -> CrewDuty:
    return row_builders.flight_duty(
        crew_id, f, position, report=timedelta(hours=1), duty_key=f"{f.scheduled_departure.isoformat()}#{f.flight_id}"
    )


def standby(crew_id: str, start: datetime) -> CrewDuty:
    return row_builders.standby_duty(crew_id, "AUH", start)


def snapshot(
    rot: list[Flight], *, spare: list[Flight] | None = None, regulatory=(), bookings=(), onward=()
) -> OpsSnapshot:
    f = rot[0]
    roster = [duty("C1", f, "CPT"), duty("C2", f, "FO")]
    return OpsSnapshot(
        flight=f,
        rotations={TAIL: rot, SPARE: spare or []},
        roster=roster,
        duties={"C1": roster[:1], "C2": roster[1:], "R1": [standby("R1", T0 - timedelta(hours=3))]},
        bookings=list(bookings),
        onward={o.flight_id: o for o in onward},
        profiles={
            "FRA": AirportProfile(
                iata="FRA",
                icao="EDDF",
                name="Frankfurt",
                city="Frankfurt",
                country="DE",
                tz="Europe/Berlin",
                lat=50.03,
                lon=8.57,
                elevation_ft=364,
                min_connection_minutes=45,
            )
        },
        regulatory=list(regulatory),
    )


def check(constraint: str, subject: str) -> ConstraintCheck:
    return ConstraintCheck(
        constraint=constraint, source="rules", clause="c", subject=subject, status="legal", message="ok"
    )


def scenario(kind: str, f: Flight, delay: int = 0, **extra) -> Scenario:
    dep = f.scheduled_departure + timedelta(minutes=delay)
    actions: list = []
    operates, alternate = kind != "cancel", extra.get("alternate")
    if kind == "tail_swap":
        actions.append(
            SwapAircraft(flight_id=f.flight_id, from_registration=TAIL, to_registration=SPARE, to_aircraft_type="B789")
        )
    if kind == "crew_swap":
        actions.append(
            ReassignCrew(flight_id=f.flight_id, replacements={"C1": "R1"}, report_at=dep - timedelta(hours=1))
        )
    if kind == "cancel":
        actions += [
            CancelFlight(flight_id=f.flight_id, reason="x"),
            RebookPassengers(flight_id=f.flight_id, passengers=180),
        ]
    elif delay:
        actions.append(
            DelayFlight(flight_id=f.flight_id, delay_minutes=delay, new_departure=dep, new_arrival=dep + BLOCK)
        )
    if alternate:
        actions.append(DivertFlight(flight_id=f.flight_id, alternate=alternate, new_arrival=dep + BLOCK))
    return Scenario(
        scenario_id=f"{kind}:{delay}:{alternate or ''}",
        kind=kind,
        title=f"{kind} {delay}",
        sources=["generator"],
        actions=actions,
        operates=operates,
        registration=SPARE if kind == "tail_swap" else TAIL if operates else None,
        aircraft_type="B789" if operates else None,
        departure=dep if operates else None,
        arrival=dep + BLOCK if operates else None,
        arrival_airport=alternate or f.destination if operates else None,
        delay_minutes=delay,
        arrival_delay_minutes=extra.get("arrival_delay", delay),
        passengers_impacted=180 if delay or not operates else 0,
        cost_usd=1000.0 + delay,
        cost_by_component={"compensation": 600.0} if delay >= 180 else {},
    )


def ranked(s: Scenario, rank: int, score: float, compliance: list[ConstraintCheck] | None = None) -> RankedScenario:
    text = "-"
    return RankedScenario(
        rank=rank,
        scenario=s,
        score=score,
        criteria={},
        confidence=0.8,
        rationale=text,
        pros=[],
        cons=[],
        compliance=compliance or [],
        precedent=text,
        sensitivity=Sensitivity(delay_plus_30=text, delay_minus_30=text, one_spare_fewer=text, one_reserve_more=text),
    )


def decision(*plans: RankedScenario, flight_id: str = "F1") -> ArbitratorOutput:
    return ArbitratorOutput(
        final_decision="x",
        recommendations=[],
        conflicts_identified=[],
        conflict_resolutions=[],
        safety_overrides=[],
        justification="",
        reasoning="",
        confidence=0.8,
        status="decided",
        flight_id=flight_id,
        ranked=list(plans),
    )


def weather_window(airport: str, start: datetime, end: datetime) -> RegulatoryConstraint:
    return RegulatoryConstraint(
        constraint_type="weather",
        affected_airports=[airport],
        time_windows=[TimeWindow(start=start, end=end)],
        restrictions=[f"no landing at {airport} before {end:%H:%M}Z"],
        reasoning="crosswind",
    )


def connecting(f: Flight, onward: Flight, n: int = 1) -> list[Booking]:
    return [
        row_builders.booking(
            f"B{i}", f.flight_id, onward.destination, pnr=f"ABC{i:03d}", onward_flight_id=onward.flight_id
        )
        for i in range(n)
    ]
