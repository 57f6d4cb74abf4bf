"""A crew member a plan delays still reaches the next rostered duty legally, or the plan re-crews that duty.

A delay (the flight's, or its knock-on on the tail's later flights) moves each rostered member's release; when
the rest before their next rostered duty falls below the minimum (ORO.FTL.235, the ``crew.rest_after`` finding),
the plan either calls a reserve out for that duty — one on standby at the duty's station whose standby covers the
duty's report, legal for it by the same crew rules (``chain_recrews``, used by the builder) —, or moves that duty's
report as much later as the rest needs (``chain_shortfalls``; crew/next_duty_retime.py), or validation rejects it:
CREW_CHAIN_BROKEN naming the duty (``chain_checks``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import timedelta

from ...analysis.crew import replacement_findings, rostered_crew
from ...data import queries as q
from ...models.fleet import AIRCRAFT_TYPES
from ...models.operational import Flight
from ...rules.crew import OperatorRules, ProposedDuty, evaluate_swap_candidate, is_legal
from ...rules.rostered import CrewLegality, flight_crew_legality, next_rostered_duty
from ..actions import CancelFlight, ReassignCrew, RestCrew
from ..context import DisruptionContext
from ..memo_keys import CrewLegalityCheck, FlightRead, FlightRosterRead
from ..models import ConstraintCheck, RejectionCode, Scenario
from .moved_duty import moved_report

NEXT_DUTY_RULE = "crew.rest_after"  # rules.crew: the rest after this duty before the next rostered one
MAX_RESERVES_CHECKED = 8  # reserve histories are the slow read: the first legal one of the rank is enough
Check = tuple[ConstraintCheck, RejectionCode | None]


def flight_roster(ctx: DisruptionContext, flight: Flight) -> tuple:
    """The flight's roster rows, members and their rosters (``analysis.crew.rostered_crew``), read once per
    arbitration whatever the delay asked about."""
    return ctx.memo(FlightRosterRead(flight.flight_id), lambda: rostered_crew(ctx.handle, flight))


def rostered_at(ctx: DisruptionContext, flight: Flight, delay: int) -> list[CrewLegality]:
    """The flight's rostered crew judged at `delay`: the roster is read once per flight and arbitration (every
    scenario asks at its own delay, and the chain at each later flight's knock-on), the rules run at each delay. A
    member the report made unavailable is judged available for a departure at or after the disruption's estimate
    of when they are (``DisruptionContext.crew_available_from``; validation marks such a plan at risk)."""

    def judged() -> list[CrewLegality]:
        _, members, rosters = flight_roster(ctx, flight)
        departure = flight.scheduled_departure + timedelta(minutes=delay)
        awaited = {c for c, at in ctx.crew_available_from.items() if departure >= at}
        present = [m.model_copy(update={"status": "ACTIVE"}) if m.crew_id in awaited else m for m in members]
        return flight_crew_legality(flight.flight_id, present, rosters, delay, OperatorRules())

    key = CrewLegalityCheck(flight.flight_id, delay)
    return ctx.memo(key, judged)


def own_illegal(r: CrewLegality) -> list:
    """What makes the member illegal for this duty itself (the next duty's rest is the chain's question)."""
    return [f for f in r.findings if f.status == "illegal" and f.rule != NEXT_DUTY_RULE]


def chain_members(rostered: Iterable[CrewLegality], replaced: Iterable[str] = ()) -> list[CrewLegality]:
    """Members legal for this duty whose next rostered duty the delay makes illegal."""
    gone = set(replaced)
    return [
        r
        for r in rostered
        if r.crew_id not in gone
        and not own_illegal(r)
        and any(f.status == "illegal" and f.rule == NEXT_DUTY_RULE for f in r.findings)
    ]


def answered_for(ctx: DisruptionContext, s: Scenario, flight: Flight) -> set[str]:
    """The rostered crew of `flight` whose duty holding it the plan already answers for, from this sector or an
    earlier one of the same duty: a reserve takes the rest of the member's duty (execution gives the reserve those
    sectors, and validation checked the reserve for the whole duty at the plan's delay), and a rested crew reports
    again for the whole duty re-timed (``crew_rest.rest_checks``). Checking them again on a later sector by the
    roster's report would refuse a plan for a duty nobody flies as rostered."""
    answered: dict[str, str] = {}  # crew id → the flight the plan answers for them from
    for a in s.actions:
        if isinstance(a, ReassignCrew):
            answered.update(dict.fromkeys(a.replacements, a.flight_id))
        elif isinstance(a, RestCrew):
            answered.update(dict.fromkeys(a.reports, a.flight_id))
    out = set()
    for crew_id, since in answered.items():
        if since == flight.flight_id:
            out.add(crew_id)
            continue
        rows = ctx.roster(crew_id, ctx.flight.scheduled_departure)
        start = next((r for r in rows if r.flight_id == since), None)
        here = next((r for r in rows if r.flight_id == flight.flight_id), None)
        if (
            start is not None
            and here is not None
            and start.duty_id == here.duty_id
            and (start.sector_departure or start.duty_start) <= (here.sector_departure or here.duty_start)
        ):
            out.add(crew_id)
    return out


def next_duty(ctx: DisruptionContext, crew_id: str, flight: Flight) -> tuple[str, ProposedDuty] | None:
    rows = ctx.roster(crew_id, flight.scheduled_departure)
    return next_rostered_duty(rows, flight.flight_id)


def reserve_for(ctx: DisruptionContext, crew_id: str, duty: ProposedDuty, taken: set[str]) -> str | None:
    """The first reserve of the member's rank and rating on standby at the duty's station, legal for it reporting
    at its rostered report (the standby call-out finding requires a standby that covers the report)."""
    station = duty.start_station or ""
    member = q.crew_members(ctx.handle, [crew_id])
    if not member or not station:
        return None
    standby = {r.crew_id for r in ctx.standby_at(station, duty.report)}
    rating = AIRCRAFT_TYPES[duty.aircraft_type].rating_group if duty.aircraft_type in AIRCRAFT_TYPES else None
    candidates = [
        m
        for m in q.crew_members(ctx.handle, sorted(standby - taken))
        if m.rank == member[0].rank and (rating is None or rating in m.type_ratings)
    ][:MAX_RESERVES_CHECKED]
    template = duty.model_copy(update={"duty_id": None})
    for reserve in candidates:
        history = ctx.roster(reserve.crew_id, duty.report)
        if is_legal(evaluate_swap_candidate(reserve, history, template, duty.report)):
            return reserve.crew_id
    return None


def chain_recrews(
    ctx: DisruptionContext, flight: Flight, delay: int, replaced: Iterable[str], taken: set[str]
) -> list[ReassignCrew]:
    """A reserve for each next duty the delay of `flight` makes illegal (those with none are left: validation names
    them). `taken`: reserves this plan already calls out (added to as they are chosen)."""
    out = []
    try:
        rostered = rostered_at(ctx, flight, delay)
    except LookupError:
        return []  # no roster: validation rejects the plan with DATA_MISSING
    for r in chain_members(rostered, replaced):
        found = next_duty(ctx, r.crew_id, flight)
        if found is None:
            continue
        first_flight, duty = found
        reserve = reserve_for(ctx, r.crew_id, duty, taken)
        if reserve is not None:
            taken.add(reserve)
            out.append(ReassignCrew(flight_id=first_flight, replacements={r.crew_id: reserve}, report_at=duty.report))
    return out


def chain_shortfalls(
    ctx: DisruptionContext, flight: Flight, delay: int, replaced: Iterable[str], recrewed: Iterable[str]
) -> dict[str, int]:
    """Minutes short of the minimum rest before their next duty, for each member the delay of `flight` leaves short
    whom no reserve relieves (`recrewed`): what re-timing that duty must make up (crew/next_duty_retime.py)."""
    try:
        rostered = rostered_at(ctx, flight, delay)
    except LookupError:
        return {}
    relieved = set(recrewed)
    out = {}
    for r in chain_members(rostered, replaced):
        rest = next(f for f in r.findings if f.status == "illegal" and f.rule == NEXT_DUTY_RULE)
        if r.crew_id not in relieved and rest.margin_minutes is not None:
            out[r.crew_id] = -rest.margin_minutes
    return out


def _moved_next_duty(ctx: DisruptionContext, s: Scenario, r: CrewLegality, found, rest) -> Check | None:
    """The member's next duty as the plan re-times it (a RestCrew on its first flight): their rest before it counted
    to the new report, the duty itself by the crew rules there (``moved_duty.moved_report``); None when the plan
    does not move it."""
    at = next(
        (
            a.reports[r.crew_id]
            for a in s.actions
            if isinstance(a, RestCrew) and a.flight_id == found[0] and r.crew_id in a.reports
        ),
        None,
    )
    if at is None or rest.margin_minutes is None:
        return None
    later = int((at - found[1].report).total_seconds() // 60)
    label = f"{found[1].label or found[0]} (from {found[0]}) reporting {at:%d %b %H:%MZ}"
    if rest.margin_minutes + later < 0:
        message = f"{r.name} ({r.rank}) is still short of rest before {label}: {rest.message}"
        return _check(f"crew chain {r.crew_id}", rest.clause, found[0], "illegal", message), "CREW_CHAIN_BROKEN"
    try:
        findings = moved_report(ctx, r.crew_id, found[0], at)
    except (LookupError, StopIteration) as exc:
        return _check(f"crew chain {r.crew_id}", rest.clause, found[0], "illegal", str(exc)), "DATA_MISSING"
    worst = next((f for f in findings if f.status == "illegal"), None)
    if worst is not None:
        message = f"{r.name} ({r.rank}) on {label}: {worst.message}"
        return _check(f"crew chain {r.crew_id}", worst.clause, found[0], "illegal", message), "CREW_CHAIN_BROKEN"
    message = (
        f"{r.name} would not have the minimum rest before {found[1].label or found[0]}: it reports {later} min later."
    )
    return _check(f"crew chain {r.crew_id}", rest.clause, found[0], "legal", message), None


def _check(constraint: str, clause: str, subject: str, status: str, message: str) -> ConstraintCheck:
    return ConstraintCheck(
        constraint=constraint, source="rules", clause=clause, subject=subject, status=status, message=message
    )


def chain_checks(ctx: DisruptionContext, s: Scenario, flight: Flight, rostered: list[CrewLegality]) -> Iterator[Check]:
    """Each member whose next duty the plan's delay of `flight` makes illegal: re-crewed in the plan by a legal
    reserve, or CREW_CHAIN_BROKEN naming the duty."""
    recrewed = {
        (a.flight_id, old): (new, a.report_at)
        for a in s.actions
        if isinstance(a, ReassignCrew) and a.flight_id != ctx.flight.flight_id
        for old, new in a.replacements.items()
    }
    cancelled = {a.flight_id for a in s.actions if isinstance(a, CancelFlight)}
    for r in chain_members(rostered, answered_for(ctx, s, flight)):
        rest = next(f for f in r.findings if f.status == "illegal" and f.rule == NEXT_DUTY_RULE)
        found = next_duty(ctx, r.crew_id, flight)
        label = f"{found[1].label or found[0]} (from {found[0]})" if found else "their next rostered duty"
        subject = found[0] if found else r.crew_id
        if found and found[0] in cancelled:  # no duty, no rest owed before it (crew/next_duty_cancel.py)
            message = f"{r.name}'s next duty {label} is cancelled in this plan: no rest is owed before it."
            yield _check(f"crew chain {r.crew_id}", rest.clause, subject, "legal", message), None
            continue
        chosen = recrewed.get((found[0], r.crew_id)) if found else None
        moved = _moved_next_duty(ctx, s, r, found, rest) if found and not chosen else None
        if moved is not None:
            yield moved
            continue
        bad = None
        if found and chosen:
            named = ReassignCrew(flight_id=found[0], replacements={r.crew_id: chosen[0]}, report_at=chosen[1])
            bad = reserve_problem(ctx, r.crew_id, named)
            if bad is None:
                yield (
                    _check(
                        f"crew chain {r.crew_id}",
                        rest.clause,
                        subject,
                        "legal",
                        f"{r.name} would not have the minimum rest before {label}: {chosen[0]} is called out from "
                        f"standby for it, reporting {chosen[1]:%Y-%m-%d %H:%MZ}.",
                    ),
                    None,
                )
                continue
        yield (
            _check(
                f"crew chain {r.crew_id}",
                rest.clause,
                subject,
                "illegal",
                f"{r.name} ({r.rank}) of {flight.flight_id} cannot legally operate {label}: {rest.message}"
                + (f"; the reserve named for it is not legal: {bad}" if bad else "; no legal reserve re-crews it."),
            ),
            "CREW_CHAIN_BROKEN",
        )


def reserve_problem(ctx: DisruptionContext, crew_id: str, recrew: ReassignCrew) -> str | None:
    """Why the reserve a plan calls out for a rested member's next duty may not fly it (None: legal)."""
    later = ctx.memo(FlightRead(recrew.flight_id), lambda: q.get_flight(ctx.handle, recrew.flight_id))
    if later is None:
        return f"{recrew.flight_id} is not in the data"
    reserve = recrew.replacements[crew_id]
    try:
        findings = replacement_findings(ctx.handle, later, crew_id, reserve, later.delay_minutes, recrew.report_at)
    except LookupError as exc:
        return str(exc)
    return next((f.message for f in findings if f.status == "illegal"), None)
