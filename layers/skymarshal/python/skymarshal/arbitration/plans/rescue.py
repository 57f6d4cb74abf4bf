"""Rescue aircraft: a spare of the rating group ferried from another station to an outstation whose flight's
own tail is grounded (an OCC's answer to an outstation AOG besides waiting for the release or cancelling).

For each spare (AircraftAvailability status SPARE) of a compatible type elsewhere that day, within range:
the ferry leaves once a ferry crew is called out and the aircraft prepared (policy), takes the great-circle
distance at the type's cruise speed plus taxi, and the flight leaves after the type's minimum turn. A legal
captain and first officer on standby at the spare's station fly the ferry (the crew rules decide, as for any
reserve); without them there is no rescue from that station. Validation re-checks everything: the spare's
eligibility at the outstation, curfews at both ends of the ferry and of the flight, the ferry crew, the
flight's own crew at its new time. A spare has no flights of its own that day, so no knock-on elsewhere.
"""

from __future__ import annotations

import math
from datetime import timedelta

from ...analysis.base import decision_time
from ...analysis.crew import REPORT_BEFORE_DEPARTURE, ferry_crew
from ...data import queries as q
from ...models.airports import great_circle_km
from ...models.fleet import AIRCRAFT_TYPES, compatible_types
from ...models.operational import AircraftDay
from ...rules.ferry import ferry_departure, ferry_duty, ferry_minutes
from ..actions import FerryAircraft, ReassignCrew, SwapAircraft
from ..context import DisruptionContext
from ..crew.chain import own_illegal, rostered_at
from ..crew.positioning import CONNECTION, reserves_at
from ..models import Scenario
from ..rotation import plan as rotation_plan
from .curfew_wait import MAX_WINDOWS, after_curfews, curfew_wait
from .operate import operate

MAX_RESCUES = 2  # the nearest spares: a farther one only arrives later


def _spares(ctx: DisruptionContext) -> list[AircraftDay]:
    f = ctx.flight
    spares = [
        day
        for ctype in compatible_types(f.aircraft_type)
        for day in q.fleet_of_type(ctx.handle, ctype, f.flight_date)
        if day.status == "SPARE"
        and day.station != f.origin
        and day.aircraft_registration != f.aircraft_registration
        and day.aircraft_type in AIRCRAFT_TYPES
        and great_circle_km(day.station, f.origin) <= AIRCRAFT_TYPES[day.aircraft_type].range_km
    ]
    return sorted(spares, key=lambda d: (great_circle_km(d.station, f.origin), d.aircraft_registration))[:MAX_RESCUES]


def rescue_scenarios(ctx: DisruptionContext) -> list[Scenario]:
    """A rescue aircraft per near spare when the flight's tail is grounded and no spare is at its origin."""
    if not ctx.tail_grounded:
        return []
    f = ctx.flight
    at = decision_time(f, ctx.now)
    out = []
    for spare in _spares(ctx):
        ferry_off = ferry_departure(at)  # the spare prepared, its crew called out to report the policy's time before
        ferry_on = ferry_off + timedelta(minutes=ferry_minutes(spare.station, f.origin, spare.aircraft_type))
        for _ in range(MAX_WINDOWS):  # a ferry that would move inside a curfew at either end leaves after it
            wait = max(
                curfew_wait(ctx.profile(spare.station), ferry_off, "departure"),
                curfew_wait(ctx.profile(f.origin), ferry_on, "arrival"),
            )
            if not wait:
                break
            ferry_off, ferry_on = ferry_off + timedelta(minutes=wait), ferry_on + timedelta(minutes=wait)
        duty = ferry_duty(spare.station, f.origin, spare.aircraft_type, ferry_off, ferry_on)
        crew, found = ferry_crew(ctx.handle, duty, at)
        turn = timedelta(minutes=AIRCRAFT_TYPES[spare.aircraft_type].min_turn_minutes)
        departure = max(f.scheduled_departure, ferry_on + turn)
        ferry = FerryAircraft(
            flight_id=f.flight_id,
            registration=spare.aircraft_registration,
            aircraft_type=spare.aircraft_type,
            origin=spare.station,
            destination=f.origin,
            departure=ferry_off,
            arrival=ferry_on,
            crew=crew or {},
            crew_report_at=max(at, duty.report),
        )
        delay = max(0, math.ceil((departure - f.scheduled_departure).total_seconds() / 60))
        delay = after_curfews(ctx, delay) or delay  # a rescue landing into the night leaves after the curfew
        plans = (
            operate(
                ctx,
                "rescue_aircraft",
                delay,
                sources=["generator"],
                registration=spare.aircraft_registration,
                aircraft_type=spare.aircraft_type,
                ferry=ferry,
                notes=[f"ferry {spare.station}-{f.origin} {ferry_off:%H:%MZ}-{ferry_on:%H:%MZ}: {found}"],
                carried=block[1:],
            )
            for block in rotation_plan.blocks(ctx)
        )
        rescue = rotation_plan.first_whole(ctx, plans, lambda s: s.actions)
        out.append(rescue)
        positioned = _reserves_on_the_ferry(ctx, rescue, ferry)
        if positioned is not None:
            out.append(positioned)
    return out


def _reserves_on_the_ferry(ctx: DisruptionContext, rescue: Scenario, ferry: FerryAircraft) -> Scenario | None:
    """The rescue with the flight's rostered crew who may not operate it at its delay replaced by reserves on standby
    at the spare's station, travelling on the ferry (their FDP from the ferry crew's report, ORO.FTL.105 positioning);
    None when nobody needs replacing or a rank has no legal reserve there."""

    f = ctx.flight
    # the reserves land with the ferry and report a connection later (crew_positioning.on_the_ferry): the flight
    # leaves no earlier than that report allows
    ready = ferry.arrival + CONNECTION + REPORT_BEFORE_DEPARTURE
    delay = max(rescue.delay_minutes, math.ceil((ready - f.scheduled_departure).total_seconds() / 60))
    delay = after_curfews(ctx, delay) or delay
    try:
        illegal = [r for r in rostered_at(ctx, f, delay) if own_illegal(r)]
    except LookupError:
        return None
    if not illegal:
        return None
    report = ferry.crew_report_at
    wanted = [(r.crew_id, r.rank) for r in illegal]
    replacements = reserves_at(ctx, ferry.origin, wanted, delay, report, frozenset(ferry.crew.values()))
    if replacements is None:
        return None
    carried = [a.flight_id for a in rescue.actions if isinstance(a, SwapAircraft) and a.flight_id != f.flight_id]
    plan = operate(
        ctx,
        "rescue_aircraft",
        delay,
        sources=["generator"],
        registration=ferry.registration,
        aircraft_type=ferry.aircraft_type,
        ferry=ferry,
        replacements=replacements,
        report=report,
        notes=[*rescue.execution_notes, f"{len(replacements)} reserve(s) from {ferry.origin} travel on the ferry"],
        carried=[x for x in rotation_plan.tail_flights(ctx, f.aircraft_registration) if x.flight_id in carried],
    )
    actions = [
        a.model_copy(update={"positioning_ferry": ferry.origin})
        if isinstance(a, ReassignCrew) and a.flight_id == f.flight_id
        else a
        for a in plan.actions
    ]
    scenario_id = f"rescue_aircraft:{ferry.registration}:{delay}:reserves"
    return plan.model_copy(update={"scenario_id": scenario_id, "actions": actions})
