"""Continue from the alternate: a flight that has diverted and is on the ground there (DIVERTED, `diverted_to`: the
report's or a DIV message's fact) flies on to its destination on the same aircraft, passengers on board — the OCC's
answer to a diversion, where a plan flying it from its origin does not apply (refused ROTATION_BROKEN).

The continuation (a new leg, `ContinueFlight`, written as a Flights row like a rescue's ferry) leaves once the
aircraft has turned at the alternate (the type's minimum turn, IATA AHM 810) and not before the decision; after the
cause has cleared (the destination's no-landing window, the tail's estimated release); outside every curfew at
either end. Its block time is the great-circle distance at the type's cruise speed plus taxi. Three crews, each
checked by the crew rules (continuation_crew): the rostered crew in their duty, one sector more; when that is
illegal for what a rest cures, the whole crew after the minimum rest at the alternate (often the next day: the
passengers' care and hotel, EU261 Art. 9, costed like any wait); reserves on standby at the alternate for the
members who may not. The tail's later flights are re-timed behind the continuation (its turn at the destination),
each checked like any knock-on (rotation_checks: curfews, crews, every turn of the tail).
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from ...data import queries as q
from ...models.fleet import AIRCRAFT_TYPES
from ...models.operational import Flight
from ...network.continuity import MAX_KNOCK_ON
from ...rules import finance, guest
from ...rules.ferry import ferry_minutes
from ...rules.rotation import flying
from ..actions import ContinueFlight, DelayFlight, RestCrew
from ..context import DisruptionContext
from ..crew.chain import next_duty, reserve_for
from ..crew.moved_reports import first_sector
from ..memo_keys import SeatsRead
from ..models import ConstraintCheck, RejectionCode, Scenario
from ..plans.cancellation import cancelled
from ..plans.curfew_wait import MAX_WINDOWS, curfew_wait
from ..rotation.plan import OPERABLE, tail_flights
from . import crew as crew_rules

REPORT_BEFORE_DEPARTURE = timedelta(minutes=60)  # company policy: the crew report at the aircraft (passengers on board)
CALL_OUT = timedelta(minutes=60)  # a reserve's call to report (analysis.crew.CALL_OUT)
Check = tuple[ConstraintCheck, RejectionCode | None]


def continuation_of(s: Scenario) -> ContinueFlight | None:
    return next((a for a in s.actions if isinstance(a, ContinueFlight)), None)


def _turn(aircraft_type: str) -> timedelta:
    spec = AIRCRAFT_TYPES.get(aircraft_type)
    return timedelta(minutes=spec.min_turn_minutes if spec else 60)


def _up5(at: datetime) -> datetime:
    extra = (-at.minute) % 5
    return (at + timedelta(minutes=extra)).replace(second=0, microsecond=0)


def on_ground_since(ctx: DisruptionContext) -> datetime:
    """When the aircraft landed at the alternate (the flight's best-known arrival)."""
    return ctx.flight.arrival


def decided_at(ctx: DisruptionContext) -> datetime:
    return max(ctx.now, on_ground_since(ctx))


def earliest(ctx: DisruptionContext, ready: datetime, block: timedelta) -> datetime:
    """The first off-blocks at or after `ready` once the cause has cleared and outside every curfew."""
    f, alternate = ctx.flight, ctx.flight.diverted_to or ctx.flight.origin
    at = ready
    if ctx.weather_window is not None and ctx.weather_window[0] == f.destination:
        at = max(at, ctx.weather_window[2] - block)  # lands once the destination takes landings again
    if ctx.tail_grounded and ctx.release_at is not None:
        at = max(at, ctx.release_at)
    at = _up5(at)
    for _ in range(MAX_WINDOWS):
        wait = max(
            curfew_wait(ctx.profile(alternate), at, "departure"),
            curfew_wait(ctx.profile(f.destination), at + block, "arrival"),
        )
        if not wait:
            break
        at = _up5(at + timedelta(minutes=wait))
    return at


def _later(ctx: DisruptionContext) -> list[Flight]:
    f = ctx.flight
    return [
        x
        for x in flying(tail_flights(ctx, f.aircraft_registration))
        if x.scheduled_departure > f.scheduled_departure and x.status in OPERABLE
    ]


def _retime(later: list[Flight], ready: datetime) -> list[DelayFlight]:
    """`later` re-timed behind a tail ready at `ready` (each to the type's minimum turn after the one before it
    lands), until the schedule's slack absorbs the delay."""
    out = []
    for x in later:
        if ready <= x.departure:
            break
        minutes = math.ceil((ready - x.scheduled_departure).total_seconds() / 60)
        moved = timedelta(minutes=minutes)
        out.append(
            DelayFlight(
                flight_id=x.flight_id,
                delay_minutes=minutes,
                new_departure=x.scheduled_departure + moved,
                new_arrival=x.scheduled_arrival + moved,
            )
        )
        ready = x.scheduled_arrival + moved + _turn(x.aircraft_type)
    return out


def knock_on(ctx: DisruptionContext, leg: ContinueFlight) -> tuple[list[Flight], list[DelayFlight]]:
    """The tail's later flights behind the continuation, by network.continuity's rule: re-timed while the first is at
    most MAX_KNOCK_ON late; beyond it (a rested continuation can land a day late) cancelled up to the first that
    leaves from where the tail is within the cap — an out-and-back's return with its outbound — and the rest re-timed
    behind the tail from there. (cancelled, re-timed)."""
    later, ready = _later(ctx), leg.arrival + _turn(leg.aircraft_type)
    if not later or ready - later[0].departure <= MAX_KNOCK_ON:
        return [], _retime(later, ready)
    back = next(
        (i for i, x in enumerate(later) if i and x.origin == leg.destination and ready - x.departure <= MAX_KNOCK_ON),
        len(later),
    )
    return later[:back], _retime(later[back:], ready)


def _leg(ctx: DisruptionContext, departure: datetime, crew: dict[str, str], reports: dict, **more) -> ContinueFlight:
    f = ctx.flight
    alternate = f.diverted_to or f.origin
    block = timedelta(minutes=ferry_minutes(alternate, f.destination, f.aircraft_type))
    return ContinueFlight(
        flight_id=f.flight_id,
        registration=f.aircraft_registration,
        aircraft_type=f.aircraft_type,
        origin=alternate,
        destination=f.destination,
        departure=departure,
        arrival=departure + block,
        crew=crew,
        reports=reports,
        passengers=len(guest.active(ctx.bookings, f.flight_id)),
        **more,
    )


def continuation_scenarios(ctx: DisruptionContext) -> list[Scenario]:
    """The continuation with the rostered crew in their duty; when a member may not fly it, with the whole crew after
    the minimum rest and with reserves at the alternate (each only when it exists). [] when the flight has not
    diverted or its crew is unknown."""
    f = ctx.flight
    if f.status != "DIVERTED" or not f.diverted_to or f.diverted_to == f.destination:
        return []
    crew = crew_rules.onboard(ctx)
    if crew is None:
        return []
    block = timedelta(minutes=ferry_minutes(f.diverted_to, f.destination, f.aircraft_type))
    departure = earliest(ctx, decided_at(ctx) + _turn(f.aircraft_type), block)
    positions: dict[str, str] = {c: seat.position or crew.members[c].rank for c, seat in crew.seats.items()}
    reports = {c: rostered_report(crew, c) for c in crew.seats}
    leg = _leg(ctx, departure, positions, reports, in_duty=sorted(crew.seats))
    out = [_scenario(ctx, leg, "continue", f"Continue from {leg.origin} to {leg.destination}, crew in their duty")]
    unfit = {c for c in crew.seats if _illegal(crew_rules.in_duty(ctx, crew, c, leg))}
    if not unfit:
        return out
    stood_at = max(decided_at(ctx), on_ground_since(ctx) + crew_rules.POST_FLIGHT)
    rested = max(crew_rules.rested_from(ctx, crew, c, stood_at) for c in crew.seats)
    later = earliest(ctx, max(departure, rested + REPORT_BEFORE_DEPARTURE), block)
    anew = dict.fromkeys(crew.seats, later - REPORT_BEFORE_DEPARTURE)
    rest = _leg(ctx, later, positions, anew)
    out.append(
        _scenario(ctx, rest, "continue:rested", f"Continue from {rest.origin} after the crew's minimum rest", stood_at)
    )
    reserves = _reserves(ctx, crew, leg, unfit)
    if reserves is not None:
        out.append(reserves)
    return out


def shifted_continuation(ctx: DisruptionContext, s: Scenario, minutes: int) -> Scenario | None:
    """The same continuation `minutes` later (or earlier; a crew reporting anew reports as much later): None when it
    would leave before the aircraft has turned at the alternate."""
    leg = continuation_of(s)
    assert leg is not None
    by = timedelta(minutes=minutes)
    if leg.departure + by < decided_at(ctx) + _turn(leg.aircraft_type):
        return None
    reports = {c: at if c in leg.in_duty else at + by for c, at in leg.reports.items()}
    moved = leg.model_copy(update={"departure": leg.departure + by, "arrival": leg.arrival + by, "reports": reports})
    stood_at = max(decided_at(ctx), on_ground_since(ctx) + crew_rules.POST_FLIGHT) if s.crew_rested else None
    return _scenario(ctx, moved, s.scenario_id.rsplit(":", 1)[0], s.title.split(": off blocks")[0], stood_at)


def _next_reports(
    ctx: DisruptionContext, leg: ContinueFlight, moves: crew_rules.Moves, later: list[DelayFlight]
) -> list[RestCrew]:
    """The duties the knock-on re-times, reporting as much later (after the DelayFlight that moves their sectors:
    execution re-keys the duty at its new report): the continuing crew's next duty, and the duty a later flight
    starts for a crew not yet called (their report more than the call-out notice after the decision) — a crew kept
    waiting on duty for a long knock-on would run out of FDP, one told to report later does not."""
    by_flight: dict[str, dict[str, datetime]] = {}
    for crew_id, (flight_id, by) in sorted(moves.items()):
        found = next_duty(ctx, crew_id, ctx.flight)
        if found is not None:
            by_flight.setdefault(flight_id, {})[crew_id] = found[1].report + by
    notice = decided_at(ctx) + CALL_OUT
    for a in later:
        for seat in ctx.memo(SeatsRead(a.flight_id), lambda a=a: q.crew_assignments(ctx.handle, a.flight_id)):
            if seat.kind != "FLIGHT" or seat.crew_id in leg.crew or seat.crew_id in moves or seat.duty_start <= notice:
                continue
            if first_sector(ctx, seat):
                by_flight.setdefault(a.flight_id, {})[seat.crew_id] = seat.duty_start + timedelta(
                    minutes=a.delay_minutes
                )
    stood = leg.arrival + crew_rules.POST_FLIGHT
    return [RestCrew(flight_id=f, reports=r, stood_down_at=stood) for f, r in sorted(by_flight.items())]


def rostered_report(crew: crew_rules.Onboard, crew_id: str) -> datetime:
    return crew.seats[crew_id].duty_start


def _reserves(
    ctx: DisruptionContext, crew: crew_rules.Onboard, leg: ContinueFlight, unfit: set[str]
) -> Scenario | None:
    """The in-duty continuation with a reserve on standby at the alternate for each member who may not fly it."""
    report = max(decided_at(ctx) + CALL_OUT, leg.departure - REPORT_BEFORE_DEPARTURE)
    departure = max(leg.departure, report + REPORT_BEFORE_DEPARTURE)
    taken: set[str] = set()
    called: dict[str, str] = {}  # reserve → the rostered member whose seat it takes
    label = f"{ctx.flight.flight_number} {leg.origin}-{leg.destination}"
    template = crew_rules.one_sector(leg, report, label, crew_rules.pilots(crew))
    for crew_id in sorted(unfit):
        found = reserve_for(ctx, crew_id, template, taken)
        if found is None:
            return None
        taken.add(found)
        called[found] = crew_id
    kept = [c for c in leg.in_duty if c not in unfit]
    positions = {c: leg.crew[c] for c in kept} | {r: leg.crew[old] for r, old in called.items()}
    reports = {c: leg.reports[c] for c in kept} | dict.fromkeys(called, report)
    with_reserves = _leg(ctx, departure, positions, reports, in_duty=kept, called_out=called)
    title = f"Continue from {leg.origin} with {len(called)} reserve(s) called out there"
    return _scenario(ctx, with_reserves, "continue:reserves", title)


def _illegal(findings) -> bool:
    return any(x.status == "illegal" for x in findings)


def _scenario(
    ctx: DisruptionContext, leg: ContinueFlight, scenario_id: str, title: str, stood_at: datetime | None = None
) -> Scenario:
    f = ctx.flight
    late = max(0, int((leg.arrival - f.scheduled_arrival).total_seconds() // 60))
    wait = max(0, int((leg.departure - on_ground_since(ctx)).total_seconds() // 60))
    dropped, later = knock_on(ctx, leg)
    gone = cancelled(ctx, dropped, f"{leg.registration} is late behind the continuation beyond the knock-on cap")
    delays = {f.flight_id: late, **{a.flight_id: a.delay_minutes for a in later}}
    crew = crew_rules.onboard(ctx)
    rest_at = stood_at or max(decided_at(ctx), on_ground_since(ctx) + crew_rules.POST_FLIGHT)
    moves = crew_rules.next_duty_moves(ctx, crew, leg, delays) if crew else {}
    recrews = crew_rules.next_duty_recrews(ctx, crew, leg, rest_at, set(leg.called_out), moves) if crew else []
    kept = {c: m for c, m in moves.items() if not any(c in r.replacements for r in recrews)}
    rests = _next_reports(ctx, leg, kept, later)
    cost = finance.plan_cost(
        finance.PlanCostInput(
            flight_delays=delays,
            compensation=(
                guest.compensation_liability(
                    f, ctx.bookings, "delay", arrival_delay_minutes=late, departure_delay_minutes=late, cause=ctx.cause
                ),
                *gone.compensation,
            ),
            care=(guest.duty_of_care(f, ctx.bookings, "delay", departure_delay_minutes=wait), *gone.care),
            cancelled_bookings=tuple(gone.bookings),
            crew_overtime_member_hours=(len(leg.called_out) + len(recrews)) * 3.0,
        )
    )
    rested = sorted(c for c in leg.crew if c not in leg.in_duty and c not in leg.called_out)
    notes = [f"{f.flight_number} on the ground at {leg.origin} since {on_ground_since(ctx):%d %b %H:%MZ}"]
    if stood_at is not None:
        notes.append(
            f"the crew stand down at {stood_at:%d %b %H:%MZ} and report again {min(leg.reports.values()):%d %b %H:%MZ}, "
            "rested (ORO.FTL.235)"
        )
    pros = [f"the {leg.passengers} passengers reach {leg.destination} on their own aircraft, {late} min late"]
    cons = [*notes, f"cost USD {cost.total_usd:,.0f}"]
    if dropped:
        cons.append(
            f"{' and '.join(x.flight_number for x in dropped)} cancelled: {leg.registration} would leave over "
            f"{MAX_KNOCK_ON.total_seconds() / 3600:g} h late"
        )
    if later:
        cons.append(f"{len(later)} later flight(s) of {leg.registration} re-timed behind it")
    return Scenario(
        scenario_id=f"{scenario_id}:{leg.origin}",
        kind="divert",
        title=f"{title}: off blocks {leg.departure:%d %b %H:%MZ}, {late} min late",
        sources=["generator"],
        actions=[leg, *recrews, *gone.actions, *later, *rests],
        operates=True,
        registration=leg.registration,
        aircraft_type=leg.aircraft_type,
        crew_replacements={old: new for new, old in leg.called_out.items()},
        crew_rested=rested,
        departure=leg.departure,
        arrival=leg.arrival,
        arrival_airport=leg.destination,
        delay_minutes=late,
        arrival_delay_minutes=late,
        passengers_impacted=leg.passengers + gone.passengers,
        cost_usd=round(cost.total_usd, 2),
        cost_by_component={k: round(v, 2) for k, v in cost.by_component().items() if v},
        downstream_flights_delayed=len(later),
        execution_notes=notes,
        pros=pros,
        cons=cons,
    )
