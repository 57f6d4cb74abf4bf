"""Crew positioning: when the rostered crew of a flight away from their base cannot operate it (sick, unfit, out of
hours) and no reserve stands by where it leaves, reserves on standby at the crew's base travel to the flight's
origin as passengers on one of the airline's own earlier flights, and operate it from there.

The reserves report for the positioning flight; their flight duty period runs from that report (positioning before
an operating sector is FDP, ORO.FTL.105(19) and CS FTL.1.205), so the crew rules check each reserve for the whole
duty — standby covering the report, FDP, rest, cumulative limits — exactly as any reserve (``replacement_findings``
with that report). The positioning flight must still operate, have a free seat, and arrive a connection before the
flight leaves; validation re-checks it (``positioning_checks``). Nothing here decides legality.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from datetime import datetime, timedelta

from ...analysis.base import decision_time
from ...analysis.crew import CALL_OUT, REPORT_BEFORE_DEPARTURE, replacement_findings
from ...data import queries as q
from ...data.integrity import fleet_flights
from ...models.fleet import AIRCRAFT_TYPES
from ...models.operational import Flight
from ...rules.crew import is_legal
from ...rules.standby import POSITIONING_CONNECTION
from ..actions import FerryAircraft, ReassignCrew
from ..context import DisruptionContext
from ..memo_keys import FlightRead, PositioningFlightsRead, ReserveCheck
from ..models import ConstraintCheck, RejectionCode, Scenario
from ..plans.operate import operate
from .chain import own_illegal, rostered_at

POSITIONING_REPORT = timedelta(minutes=60)  # company policy: report before a flight travelled as a passenger
CONNECTION = POSITIONING_CONNECTION  # on blocks of the positioning flight to the crew's report (rules.standby)
OPERABLE = ("SCHEDULED", "DELAYED")
MAX_CHECKED = 8  # reserves whose history is read per rank


def _free_seat(f: Flight) -> bool:
    return sum(f.capacity.values()) > sum(f.booked.values())


def positioning_flights(ctx: DisruptionContext, base: str) -> list[Flight]:
    """The airline's own flights from `base` to the flight's origin that a reserve called out now can still take,
    with a free seat, landing before the flight's latest legal departure horizon (the flight's day)."""
    f = ctx.flight
    earliest = decision_time(f, ctx.now) + CALL_OUT + POSITIONING_REPORT
    flights = ctx.memo(
        PositioningFlightsRead(base, f.origin),
        lambda: [
            x
            for legs in fleet_flights(ctx.handle, earliest - timedelta(hours=1), f.scheduled_departure).values()
            for x in legs
            if x.origin == base and x.destination == f.origin
        ],
    )
    return [x for x in flights if x.status in OPERABLE and x.departure >= earliest and _free_seat(x)]


def delay_after(flight: Flight, carrier: Flight) -> int:
    """The flight's delay (to 5 minutes, never below its current one) that lets crew landing on `carrier` report."""
    needed = (carrier.arrival + CONNECTION + REPORT_BEFORE_DEPARTURE - flight.scheduled_departure).total_seconds()
    return max(flight.delay_minutes, math.ceil(needed / 300) * 5)


def positioned_crew_swap(ctx: DisruptionContext) -> Scenario | None:
    """Reserves from the crew's base, positioned on the earliest own flight they can take, for every rostered member
    who may not operate the flight at the delay that flight imposes; None when nobody is illegal, the crew's base is
    the origin (the reserve swap there answers), or no positioning flight or legal reserve exists."""
    f = ctx.flight
    try:
        illegal = [r for r in rostered_at(ctx, f, f.delay_minutes) if own_illegal(r)]
    except LookupError:
        return None
    members = {m.crew_id: m for m in q.crew_members(ctx.handle, [r.crew_id for r in illegal])}
    bases = {members[r.crew_id].base for r in illegal if r.crew_id in members}
    if not illegal or len(bases) != 1 or f.origin in bases:
        return None
    (base,) = bases
    carriers = sorted(positioning_flights(ctx, base), key=lambda x: (x.arrival, x.flight_id))
    if not carriers:
        return None
    carrier = carriers[0]
    delay = delay_after(f, carrier)
    illegal = [r for r in rostered_at(ctx, f, delay) if own_illegal(r)]
    report = max(decision_time(f, ctx.now) + CALL_OUT, carrier.departure - POSITIONING_REPORT)
    replacements = reserves_at(ctx, base, [(r.crew_id, r.rank) for r in illegal], delay, report)
    if replacements is None:
        return None

    scenario = operate(
        ctx,
        "crew_swap",
        delay,
        sources=["generator"],
        replacements=replacements,
        report=report,
        notes=[
            f"{len(replacements)} reserve(s) position {base}-{f.origin} on {carrier.flight_number} "
            f"({carrier.departure:%H:%MZ}-{carrier.arrival:%H:%MZ}); their FDP runs from {report:%H:%MZ}"
        ],
    )
    actions = [
        a.model_copy(update={"positioning_flight_id": carrier.flight_id})
        if isinstance(a, ReassignCrew) and a.flight_id == f.flight_id
        else a
        for a in scenario.actions
    ]
    return scenario.model_copy(
        update={
            "scenario_id": f"crew_swap:{delay}:positioned:{carrier.flight_number}",
            "title": f"Position {len(replacements)} reserve(s) from {base} on {carrier.flight_number}"
            + (f", {delay} min late" if delay else ""),
            "actions": actions,
        }
    )


def reserves_at(
    ctx: DisruptionContext,
    base: str,
    wanted: list[tuple[str, str]],
    delay: int,
    report: datetime,
    taken: frozenset[str] = frozenset(),
) -> dict[str, str] | None:
    """A legal reserve on standby at `base` for each (member, rank), none of `taken` (a ferry's own crew), or None
    when a rank has none."""
    standby = sorted({r.crew_id for r in ctx.standby_at(base, report)})
    rating = AIRCRAFT_TYPES[ctx.flight.aircraft_type].rating_group
    pool = [m for m in q.crew_members(ctx.handle, standby) if rating in m.type_ratings]
    out: dict[str, str] = {}
    for crew_id, rank in wanted:
        free = [m for m in pool if m.rank == rank and m.crew_id not in out.values() and m.crew_id not in taken]
        for reserve in free[:MAX_CHECKED]:
            findings = ctx.memo(
                ReserveCheck(crew_id, reserve.crew_id, delay, report),
                lambda r=reserve, c=crew_id: replacement_findings(ctx.handle, ctx.flight, c, r.crew_id, delay, report),
            )
            if is_legal(findings):
                out[crew_id] = reserve.crew_id
                break
        else:
            return None
    return out


def on_the_ferry(s: Scenario, a: ReassignCrew) -> tuple[ConstraintCheck, RejectionCode | None]:
    """Reserves positioned on the plan's rescue ferry: it leaves from their station after they report and lands a
    connection before they report for the flight."""
    assert s.departure is not None  # the caller checks
    ferry = next((x for x in s.actions if isinstance(x, FerryAircraft)), None)
    latest = s.departure - REPORT_BEFORE_DEPARTURE - CONNECTION
    problem = (
        "the plan has no ferry"
        if ferry is None
        else f"the ferry leaves {ferry.origin}, not {a.positioning_ferry}"
        if ferry.origin != a.positioning_ferry
        else f"the ferry leaves {ferry.departure:%H:%MZ}, before the reserves report at {a.report_at:%H:%MZ}"
        if ferry.departure < a.report_at
        else f"the ferry lands {ferry.arrival:%H:%MZ}, after {latest:%H:%MZ}"
        if ferry.arrival > latest
        else None
    )
    return (
        ConstraintCheck(
            constraint="crew positioning",
            source="rules",
            clause="ORO.FTL.105 positioning (counted as FDP) / company connection policy",
            subject=a.positioning_ferry or "",
            status="illegal" if problem else "legal",
            message=problem
            or f"the reserves travel on the rescue ferry from {a.positioning_ferry} and connect in time.",
        ),
        "CREW_ILLEGAL" if problem else None,
    )


def positioning_checks(ctx: DisruptionContext, s: Scenario) -> Iterator[tuple[ConstraintCheck, RejectionCode | None]]:
    """The positioning flight of a plan's reserves still operates, has a seat and lands a connection before the
    crew report for the flight."""
    for a in s.actions:
        if isinstance(a, ReassignCrew) and a.positioning_ferry is not None and s.departure is not None:
            yield on_the_ferry(s, a)
        if not isinstance(a, ReassignCrew) or a.positioning_flight_id is None or s.departure is None:
            continue
        carrier = ctx.memo(
            FlightRead(a.positioning_flight_id), lambda a=a: q.get_flight(ctx.handle, a.positioning_flight_id)
        )
        latest = s.departure - REPORT_BEFORE_DEPARTURE - CONNECTION
        problem = (
            f"{a.positioning_flight_id} is not in the data"
            if carrier is None
            else f"{carrier.flight_id} is {carrier.status.lower()}"
            if carrier.status not in OPERABLE
            else f"{carrier.flight_id} lands {carrier.arrival:%H:%MZ}, after {latest:%H:%MZ}"
            if carrier.arrival > latest
            else f"{carrier.flight_id} has no free seat"
            if not _free_seat(carrier)
            else None
        )
        yield (
            ConstraintCheck(
                constraint="crew positioning",
                source="rules",
                clause="ORO.FTL.105 positioning (counted as FDP) / company connection policy",
                subject=a.positioning_flight_id,
                status="illegal" if problem else "legal",
                message=problem or f"the reserves travel on {a.positioning_flight_id} and connect in time.",
            ),
            "CREW_ILLEGAL" if problem else None,
        )
