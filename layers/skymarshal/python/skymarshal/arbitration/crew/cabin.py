"""A swap onto a type crewed with more cabin crew (the operator's complement per type; ORO.CC.100 sets the minimum
by seats) adds the crew it needs: cabin crew on standby at the origin whose standby covers the report, legal for the
flight's duty by the same crew rules as any reserve (``AddCabinCrew``, executed with the roster rows). Validation
rejects a swap that leaves the complement short (CREW_ILLEGAL)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta

from ...analysis.base import decision_time
from ...analysis.crew import CALL_OUT, REPORT_BEFORE_DEPARTURE
from ...data import queries as q
from ...models.findings import Finding
from ...models.fleet import AIRCRAFT_TYPES
from ...rules.crew import ProposedDuty, evaluate_swap_candidate, is_legal
from ...rules.rostered import duty_at_delay
from ..actions import AddCabinCrew
from ..context import DisruptionContext
from ..memo_keys import CabinCheck
from ..models import ConstraintCheck, RejectionCode, Scenario

CABIN = "CA"
CLAUSE = "ORO.CC.100 / operator cabin crew complement per type"
MAX_CHECKED = 12


def extra_cabin_crew(from_type: str, to_type: str | None) -> int:
    """How many more cabin crew `to_type` is crewed with than `from_type` (0 when fewer or unknown)."""
    if to_type is None or to_type not in AIRCRAFT_TYPES or from_type not in AIRCRAFT_TYPES:
        return 0
    return max(0, AIRCRAFT_TYPES[to_type].cabin_crew - AIRCRAFT_TYPES[from_type].cabin_crew)


def _template(ctx: DisruptionContext, delay: int) -> ProposedDuty | None:
    """The duty of a rostered cabin crew member of the flight, at the plan's delay (what an added member flies)."""
    found = _template_rows(ctx)
    return duty_at_delay(found, ctx.flight.flight_id, delay).model_copy(update={"duty_id": None}) if found else None


def _template_rows(ctx: DisruptionContext) -> list:
    """The roster of the first rostered cabin crew member of the flight (empty: none rostered)."""
    seats = sorted(
        (r for r in q.crew_assignments(ctx.handle, ctx.flight.flight_id) if r.position == CABIN),
        key=lambda r: r.crew_id,
    )
    if not seats:
        return []
    return ctx.roster(seats[0].crew_id, seats[0].duty_start)


def _findings(ctx: DisruptionContext, crew_id: str, duty: ProposedDuty, report: datetime) -> list[Finding]:
    def compute() -> list[Finding]:
        member = q.crew_members(ctx.handle, [crew_id])
        if not member:
            raise LookupError(f"cabin crew {crew_id} is not in CrewMembers")
        history = ctx.roster(crew_id, report)
        return evaluate_swap_candidate(member[0], history, duty, report)

    return ctx.memo(CabinCheck(crew_id, duty.report, duty.fdp_end, report), compute)


def add_cabin_crew(
    ctx: DisruptionContext, aircraft_type: str, delay: int, flights: Sequence[str]
) -> AddCabinCrew | None:
    """The cabin crew a swap onto `aircraft_type` needs, from standby at the origin, flying those of `flights` the
    flight's own cabin crew fly (a later flight flown by another crew needs its own: validation says so); None
    when none are needed or not enough are legal."""
    f = ctx.flight
    need = extra_cabin_crew(f.aircraft_type, aircraft_type)
    duty = _template(ctx, delay) if need else None
    if duty is None:
        return None
    departure = f.scheduled_departure + timedelta(minutes=delay)
    report = max(decision_time(f, ctx.now) + CALL_OUT, departure - REPORT_BEFORE_DEPARTURE)
    standby = sorted({r.crew_id for r in ctx.standby_at(f.origin, report)})
    rating = AIRCRAFT_TYPES[aircraft_type].rating_group
    cabin = [m for m in q.crew_members(ctx.handle, standby) if m.rank == CABIN and rating in m.type_ratings]
    chosen: list[str] = []
    for member in cabin[:MAX_CHECKED]:
        if is_legal(_findings(ctx, member.crew_id, duty, report)):
            chosen.append(member.crew_id)
            if len(chosen) == need:
                theirs = {r.flight_id for r in _template_rows(ctx) if r.kind == "FLIGHT"}
                flown = [fid for fid in flights if fid in theirs]
                return AddCabinCrew(flight_id=f.flight_id, crew_ids=chosen, report_at=report, flights=flown)
    return None


def cabin_checks(ctx: DisruptionContext, s: Scenario) -> Iterator[tuple[ConstraintCheck, RejectionCode | None]]:
    """A swap onto a type with a larger complement: the added cabin crew are enough and each is legal."""
    need = extra_cabin_crew(ctx.flight.aircraft_type, s.aircraft_type) if s.operates else 0
    if not need:
        return
    added = next((a for a in s.actions if isinstance(a, AddCabinCrew) and a.flight_id == ctx.flight.flight_id), None)
    duty = _template(ctx, s.delay_minutes)

    def check(status: str, message: str) -> ConstraintCheck:
        return ConstraintCheck(
            constraint="cabin crew complement",
            source="rules",
            clause=CLAUSE,
            subject=ctx.flight.flight_id,
            status=status,
            message=message,
        )

    short = f"the {s.aircraft_type} is crewed with {need} more cabin crew than the {ctx.flight.aircraft_type}"
    if added is None or len(added.crew_ids) < need or duty is None:
        yield (
            check("illegal", f"{short}; no legal cabin crew on standby at {ctx.flight.origin} is added."),
            "CREW_ILLEGAL",
        )
        return
    swapped = [a.flight_id for a in s.actions if a.kind == "swap_aircraft"]
    short_on = [fid for fid in swapped if fid not in added.flights]
    if short_on:  # a later flight of the block flown by another crew (after a layover) needs its own
        yield (
            check("illegal", f"{short} on {', '.join(short_on)} too; no legal cabin crew is added there."),
            "CREW_ILLEGAL",
        )
    for crew_id in added.crew_ids:
        try:
            bad = next((x for x in _findings(ctx, crew_id, duty, added.report_at) if x.status == "illegal"), None)
        except LookupError as exc:
            yield check("illegal", str(exc)), "DATA_MISSING"
            continue
        if bad is not None:
            yield check("illegal", f"{short}; {crew_id} may not fly it: {bad.message}"), "CREW_ILLEGAL"
            return
    yield (
        check(
            "legal",
            f"{short}: {', '.join(added.crew_ids)} called out from standby, reporting {added.report_at:%H:%MZ}.",
        ),
        None,
    )
