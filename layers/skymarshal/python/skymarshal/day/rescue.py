"""A rescue aircraft on a day's tables: a spare of the same type — on the ground where the grounded tail's
flight leaves (a swap), or flown empty there from its own station — taking the tail's flights from the first the
cause catches: the answers SkyMarshal's generator gives an AOG (``arbitration.plans.rescue``, its tail swaps), here
for the planner who knows the day (``foresight``), so that no action an on-line policy takes is outside the
hindsight's repertoire.

Made as execution writes it: the ferry a leg of its own (``{flight}-FERRY``, an added leg the scorecard costs by
its block minutes), flown by a legal captain and first officer called out from standby at the spare's station
(ORO.FTL.225; the ferry duty's limits by ``rules.crew``), and the flight's members its wait makes illegal replaced
by reserves from that station travelling on the ferry (their FDP from their report there, ORO.FTL.105 positioning)
when the rules find them — else the flight's crew is left to the day's crew answers (``baselines.legalize``).
Simplifications: no curfew at either end of the ferry (the judge applies none); the spare carries every later
flight of the grounded tail, as the generator's rescue did on ordinary seed 17, its availability read for the day.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from ..models.airports import airport, great_circle_km
from ..models.fleet import AIRCRAFT_TYPES
from ..models.operational import AircraftDay, CrewDuty, Flight
from ..rules.crew import OperatorRules, ProposedDuty, evaluate_swap_candidate, is_legal
from ..rules.ferry import FERRY_RANKS, ferry_departure, ferry_duty, ferry_minutes, ferry_number
from ..rules.standby import POSITIONING_CONNECTION, REPORT_BEFORE_DEPARTURE, standby_covering
from .crew_cover import Positioned, StandbyIndex, called_out, reserve_cover, retimed_in_sequence
from .realize import DayState, realize
from .scorecard import illegal_members
from .stream import StreamEvent

RULES = OperatorRules()
MAX_RESCUES = 2  # the nearest spares, as the generator's: a farther one only arrives later


def free_spares(state: DayState, aircraft_type: str, spares: Sequence[AircraftDay]) -> list[AircraftDay]:
    """The spares of `aircraft_type` (the flights they take keep their type's turn and cabins) that fly nothing in
    `state` yet — a spare is used once — by registration."""
    flying = {x.aircraft_registration for x in state.flights.values() if x.status != "CANCELLED"}
    found = (a for a in spares if a.status == "SPARE" and a.aircraft_type == aircraft_type)
    return sorted((a for a in found if a.aircraft_registration not in flying), key=lambda a: a.aircraft_registration)


def _spares(state: DayState, f: Flight, spares: Sequence[AircraftDay]) -> list[AircraftDay]:
    """The nearest free spares for `f` (at its origin first), on its day, in range."""
    found = [
        a
        for a in free_spares(state, f.aircraft_type, spares)
        if a.date == f.flight_date
        and a.aircraft_type in AIRCRAFT_TYPES
        and great_circle_km(a.station, f.origin) <= AIRCRAFT_TYPES[a.aircraft_type].range_km
    ]
    return sorted(found, key=lambda a: (great_circle_km(a.station, f.origin), a.aircraft_registration))[:MAX_RESCUES]


def _ferry_pilots(
    state: DayState, duty: ProposedDuty, report: datetime, standby: StandbyIndex
) -> dict[str, str] | None:
    """{rank: crew id}: the first legal captain and first officer on standby at the ferry's origin (None: a rank
    has none)."""
    rating = AIRCRAFT_TYPES[duty.aircraft_type].rating_group
    chosen: dict[str, str] = {}
    for row in standby_covering(duty.start_station or "", report, standby.read):
        member = state.members.get(row.crew_id)
        if member is None or member.rank not in FERRY_RANKS or member.rank in chosen:
            continue
        history = state.rosters.get(member.crew_id, ())
        if rating in member.type_ratings and is_legal(evaluate_swap_candidate(member, history, duty, report, RULES)):
            chosen[member.rank] = member.crew_id
    return chosen if len(chosen) == len(FERRY_RANKS) else None


def _ferry_leg(f: Flight, spare: AircraftDay, off: datetime, on: datetime, by: str) -> Flight:
    """The ferry as execution writes it (``workflow.execution.ferry``): the rescued flight's number with F."""
    local_day = off.astimezone(ZoneInfo(airport(spare.station).tz)).date()
    return f.model_copy(
        update={
            "flight_id": f"{f.flight_id}-FERRY",
            "flight_number": ferry_number(f.flight_number),
            "flight_date": local_day,
            "origin": spare.station,
            "destination": f.origin,
            "scheduled_departure": off,
            "scheduled_arrival": on,
            "estimated_departure": None,
            "estimated_arrival": None,
            "aircraft_registration": spare.aircraft_registration,
            "aircraft_type": spare.aircraft_type,
            "status": "SCHEDULED",
            "delay_minutes": 0,
            "block_minutes": int((on - off).total_seconds() // 60),
            "distance_km": max(1, round(great_circle_km(spare.station, f.origin))),
            "updated_by_execution": by,
        }
    )


def _ferry_row(crew_id: str, rank: str, leg: Flight, report: datetime, by: str) -> CrewDuty:
    return CrewDuty(
        crew_id=crew_id,
        duty_key=f"{report:%Y-%m-%dT%H:%M:%SZ}#{leg.scheduled_departure:%Y-%m-%dT%H:%M:%SZ}#{leg.flight_id}",
        duty_id=f"{by}:ferry:{crew_id}:{leg.flight_id}",
        kind="FLIGHT",
        duty_start=report,
        fdp_end=leg.scheduled_arrival,
        duty_end=leg.scheduled_arrival + timedelta(minutes=RULES.post_flight_minutes),
        start_station=leg.origin,
        end_station=leg.destination,
        flight_id=leg.flight_id,
        flight_number=leg.flight_number,
        position=rank,
        sector_departure=leg.scheduled_departure,
        sector_arrival=leg.scheduled_arrival,
        block_minutes=leg.block_minutes,
        aircraft_type=leg.aircraft_type,
        pilots_on_board=2,
        updated_by_execution=by,
    )


def rescues(
    state: DayState,
    known: Sequence[StreamEvent],
    e: StreamEvent,
    f: Flight,
    spares: Sequence[AircraftDay],
    standby: StandbyIndex,
    by: str,
) -> list[DayState]:
    """`state` with a rescue aircraft for `f` (the grounded tail's first flight the event `e` catches), one per
    near spare — swapped in where it stands at `f`'s origin, else ferried in if a ferry crew can fly it — decided at
    the event's moment."""
    out = []
    tail = f.aircraft_registration
    carried = [
        x
        for x in state.flights.values()
        if x.aircraft_registration == tail
        and x.status != "CANCELLED"
        and x.scheduled_departure >= f.scheduled_departure
    ]
    for spare in _spares(state, f, spares):
        flights = dict(state.flights)
        for x in carried:
            flights[x.flight_id] = x.model_copy(
                update={"aircraft_registration": spare.aircraft_registration, "updated_by_execution": by}
            )
        if spare.station == f.origin:  # on the ground where the flight leaves: a swap, no ferry
            out.append(dataclasses.replace(state, flights=flights))
            continue
        off = ferry_departure(e.at)
        on = off + timedelta(minutes=ferry_minutes(spare.station, f.origin, spare.aircraft_type))
        duty = ferry_duty(spare.station, f.origin, spare.aircraft_type, off, on)
        report = duty.report
        pilots = _ferry_pilots(state, duty, report, standby)
        if pilots is None:
            continue
        leg = _ferry_leg(f, spare, off, on, by)
        rows = [_ferry_row(crew_id, rank, leg, report, by) for rank, crew_id in pilots.items()]
        turn = timedelta(minutes=AIRCRAFT_TYPES[spare.aircraft_type].min_turn_minutes)
        if on + turn > f.departure:  # the flight waits for the ferry, its later legs behind it (the rescue's delay)
            on_spare = dataclasses.replace(state, flights=flights)  # the ferry not yet on it: it is not overtaken
            flights = retimed_in_sequence(on_spare, flights[f.flight_id], on + turn, by)
        rescued = dataclasses.replace(
            state,
            flights={**flights, leg.flight_id: leg},
            crew_on={**state.crew_on, leg.flight_id: rows},
            rosters={
                **state.rosters,
                **{r.crew_id: [*called_out(state.rosters.get(r.crew_id, ()), report), r] for r in rows},
            },
            added_legs=state.added_legs | {leg.flight_id},
        )
        moved, leaves = rescued.flights[f.flight_id], realize(rescued, known)[f.flight_id].departure
        if illegal_members(rescued, moved, leaves):  # reserves from the spare's station on the ferry, if legal
            ready = on + POSITIONING_CONNECTION + REPORT_BEFORE_DEPARTURE
            on_the_ferry = Positioned(station=spare.station, report=report, ready=ready)
            rescued = reserve_cover(rescued, moved, leaves, e.at, known, standby, by, on_the_ferry) or rescued
        out.append(rescued)
    return out
