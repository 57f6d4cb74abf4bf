"""The validation of a continuation from the alternate (continuation.py): re-checked under its own times and crew —
the flight is on the ground at the leg's origin, the tail airworthy when it leaves (Part-M M.A.403), no curfew at
either end, every member who flies it legal by the crew rules (continuation_crew), and each next duty the plan
re-times checked at its new report with the rest before it (ORO.FTL.205/235). Typed reasons: ROTATION_BROKEN,
AIRCRAFT_NOT_AIRWORTHY, CURFEW, DATA_MISSING, CREW_ILLEGAL, CREW_CHAIN_BROKEN."""

from __future__ import annotations

from collections.abc import Iterator

from ...data import queries as q
from ...rules.mel import aircraft_airworthiness
from ..actions import ContinueFlight, ReassignCrew, RestCrew
from ..context import DisruptionContext
from ..crew.chain import NEXT_DUTY_RULE, reserve_problem
from ..crew.moved_duty import moved_report
from ..crew.next_duty_told import next_duty_moves
from ..memo_keys import WorkOrdersRead
from ..models import ConstraintCheck, RejectionCode, Scenario
from ..plans.ferry_checks import leg_curfews
from . import crew as crew_rules
from .plan import continuation_of, decided_at, on_ground_since

Check = tuple[ConstraintCheck, RejectionCode | None]


def _check(constraint: str, clause: str, subject: str, status: str, message: str) -> ConstraintCheck:
    return ConstraintCheck(
        constraint=constraint, source="rules", clause=clause, subject=subject, status=status, message=message
    )


def continuation_checks(ctx: DisruptionContext, s: Scenario) -> Iterator[Check]:
    """The continuation re-checked under its own times and crew: the flight is on the ground at the leg's origin,
    the tail airworthy when it leaves, no curfew at either end, every member who flies it legal by the crew rules."""
    leg = continuation_of(s)
    assert leg is not None
    f = ctx.flight
    if f.status != "DIVERTED" or f.diverted_to != leg.origin:
        yield (
            _check("continuation", "Aircraft continuity (tail assignment)", f.flight_id, "illegal",
                   f"{f.flight_number} is not on the ground at {leg.origin} ({f.status.lower()})"),
            "ROTATION_BROKEN",
        )  # fmt: skip
        return
    yield _airworthy(ctx, leg)
    yield from leg_curfews(ctx, leg, "curfew")
    yield from _crew(ctx, s, leg)


def _airworthy(ctx: DisruptionContext, leg: ContinueFlight) -> Check:
    orders = ctx.memo(
        WorkOrdersRead(leg.registration), lambda: q.work_orders_for_aircraft(ctx.handle, leg.registration)
    )
    state = aircraft_airworthiness(orders, leg.departure, registration=leg.registration)
    if state.airworthy:
        return _check("airworthiness", "Part-M M.A.403 / MEL", leg.registration, "legal",
                      f"{leg.registration} airworthy at {leg.departure:%H:%MZ}."), None  # fmt: skip
    worst = next(x for x in state.findings if x.status == "illegal")
    return _check("airworthiness", worst.clause, leg.registration, "illegal", worst.message), "AIRCRAFT_NOT_AIRWORTHY"


def _crew(ctx: DisruptionContext, s: Scenario, leg: ContinueFlight) -> Iterator[Check]:
    crew = crew_rules.onboard(ctx)
    if crew is None:
        yield _check("crew legality", "ORO.FTL", ctx.flight.flight_id, "illegal",
                     f"{ctx.flight.flight_number} has no rostered crew in the data."), "DATA_MISSING"  # fmt: skip
        return
    seats = {leg.called_out.get(c, c) for c in leg.crew}
    missing = sorted(set(crew.seats) - seats)
    if missing:
        yield _check("crew complement", "ORO.CC.100 / ORO.FC.100", ctx.flight.flight_id, "illegal",
                     f"nobody flies the seats of {', '.join(missing)}"), "CREW_ILLEGAL"  # fmt: skip
    stood_at = max(decided_at(ctx), on_ground_since(ctx) + crew_rules.POST_FLIGHT)
    recrewed = {old: r for r in s.actions if isinstance(r, ReassignCrew) for old in r.replacements}
    moves = next_duty_moves(ctx, s.actions)
    bad = 0
    for crew_id in sorted(leg.crew):
        how = "in duty" if crew_id in leg.in_duty else "reserve" if crew_id in leg.called_out else "rested"
        try:
            findings = crew_rules.findings_for(ctx, crew, crew_id, leg, stood_at, moves)
            if crew_id in moves:  # their next duty at its moved report, after the continuation
                findings = [*findings, *crew_rules.moved_duty(ctx, crew, crew_id, leg, stood_at, moves)]
        except (LookupError, KeyError) as exc:
            bad += 1
            yield _check("crew legality", "ORO.FTL", crew_id, "illegal", f"{crew_id}: {exc}"), "DATA_MISSING"
            continue
        illegal = [x for x in findings if x.status == "illegal"]
        if crew_id in recrewed and all(x.rule == NEXT_DUTY_RULE for x in illegal):
            # a reserve takes their next duty: legal for it by the same rules, or the chain stays broken
            problem = reserve_problem(ctx, crew_id, recrewed[crew_id])
            illegal = (
                [x.model_copy(update={"message": f"{x.message}; its reserve: {problem}"}) for x in illegal]
                if problem
                else []
            )
        if illegal:
            bad += 1
            worst = next((x for x in illegal if x.rule != NEXT_DUTY_RULE), illegal[0])  # the duty's own first
            code: RejectionCode = "CREW_CHAIN_BROKEN" if worst.rule == NEXT_DUTY_RULE else "CREW_ILLEGAL"
            why = "; ".join(f"{x.clause}: {x.message}" for x in illegal)
            message = f"{crew_id} ({how}) on {leg.origin}-{leg.destination}: {why}"
            yield _check("crew legality", worst.clause, crew_id, "illegal", message), code
    for a in s.actions:  # the crews of later flights told to report later (not flying the continuation)
        if not isinstance(a, RestCrew) or a.flight_id == ctx.flight.flight_id:
            continue
        for crew_id, at in sorted(a.reports.items()):
            if crew_id in leg.crew:
                continue
            try:
                later = moved_report(ctx, crew_id, a.flight_id, at)
            except (LookupError, StopIteration) as exc:
                bad += 1
                yield _check("crew chain", "ORO.FTL", crew_id, "illegal", f"{crew_id}: {exc}"), "DATA_MISSING"
                continue
            worst = next((x for x in later if x.status == "illegal"), None)
            if worst is not None:
                bad += 1
                message = f"{crew_id} on {a.flight_id} reporting {at:%d %b %H:%MZ}: {worst.message}"
                yield _check("crew chain", worst.clause, crew_id, "illegal", message), "CREW_CHAIN_BROKEN"
    if not bad:
        yield _check("crew legality", "ORO.FTL.205/210/235", ctx.flight.flight_id, "legal",
                     f"{len(leg.crew)} crew legal for {leg.origin}-{leg.destination} reporting from "
                     f"{min(leg.reports.values()):%d %b %H:%MZ}"), None  # fmt: skip
