"""A crew not yet called for a flight a plan re-times reports as much later, instead of waiting on duty from the
roster's unmoved report (CS FTL.1.205(d), delayed reporting: the operator moves the report before the crew member
has left the place of rest; the FDP then runs from the new report).

A delay's knock-on moves a tail's later flights hours late; their crews, still at rest when the plan is decided,
are told to report later rather than run out of FDP on the ground — what refused every long knock-on before, by
the FDP counted from the roster's report. Only a member whose duty starts at that flight (its first sector) and who
reports more than the call-out notice after the decision is moved; each is checked at the new report by the crew
rules (FDP, rest before and after: ORO.FTL.205/235), or the plan is refused CREW_CHAIN_BROKEN naming them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from datetime import timedelta

from ...analysis.base import decision_time
from ...analysis.crew import CALL_OUT
from ...data import queries as q
from ...models.operational import CrewDuty
from ..actions import DelayFlight, ReassignCrew, RestCrew
from ..context import DisruptionContext
from ..memo_keys import FirstSector, FlightRead, MovedReportCheck, SeatsRead
from ..models import ConstraintCheck, RejectionCode
from .chain import own_illegal, rostered_at
from .moved_duty import moved_report

Check = tuple[ConstraintCheck, RejectionCode | None]


def first_sector(ctx: DisruptionContext, seat: CrewDuty) -> bool:
    """Whether `seat` is the first sector of its duty (its report can move with it; read from the member's roster
    around the duty — the read the crew checks share —, once per decision)."""
    return ctx.memo(FirstSector(seat.crew_id, seat.flight_id or ""), lambda: _first_sector(ctx, seat))


def _first_sector(ctx: DisruptionContext, seat: CrewDuty) -> bool:
    rows = ctx.roster(seat.crew_id, seat.duty_start)
    sectors = [
        r.sector_departure for r in rows if r.duty_id == seat.duty_id and r.kind == "FLIGHT" and r.sector_departure
    ]
    return seat.sector_departure is not None and seat.sector_departure <= min(sectors, default=seat.sector_departure)


def knock_on_reports(
    ctx: DisruptionContext, actions: Sequence[object], only: Iterable[str] | None = None
) -> list[RestCrew]:
    """For each later flight the plan delays (its DelayFlight in `actions`; `only`: of these flights): its crew
    members not yet called whose duty starts there and who may not operate it waiting from the roster's report, told
    to report as much later as the flight leaves (net of a delay already executed on the roster). One RestCrew per
    flight, after its DelayFlight."""
    f = ctx.flight
    notice = decision_time(f, ctx.now) + CALL_OUT
    answered = {c for a in actions if isinstance(a, ReassignCrew) for c in a.replacements}
    answered |= {c for a in actions if isinstance(a, RestCrew) for c in a.reports}
    out: list[RestCrew] = []
    for a in actions:
        if not isinstance(a, DelayFlight) or a.flight_id == f.flight_id or a.delay_minutes <= 0:
            continue
        if only is not None and a.flight_id not in only:
            continue
        later = ctx.memo(FlightRead(a.flight_id), lambda a=a: q.get_flight(ctx.handle, a.flight_id))
        try:
            illegal = (
                {r.crew_id for r in rostered_at(ctx, later, a.delay_minutes) if own_illegal(r)} if later else set()
            )
        except LookupError:
            continue  # no roster: validation names it
        seats = ctx.memo(SeatsRead(a.flight_id), lambda a=a: q.crew_assignments(ctx.handle, a.flight_id))
        reports = {
            seat.crew_id: seat.duty_start + timedelta(minutes=a.delay_minutes - seat.moved_minutes)
            for seat in seats
            if seat.kind == "FLIGHT"
            and seat.crew_id in illegal - answered
            and seat.duty_start > notice
            and first_sector(ctx, seat)
        }
        if reports:
            out.append(RestCrew(flight_id=a.flight_id, reports=reports, stood_down_at=decision_time(f, ctx.now)))
    return out


def moved_report_checks(ctx: DisruptionContext, a: RestCrew) -> Iterator[Check]:
    """Each member a RestCrew on a later flight tells to report later, by the crew rules at the new report."""
    for crew_id, at in sorted(a.reports.items()):
        try:
            key = MovedReportCheck(crew_id, a.flight_id, at)
            findings = ctx.memo(key, lambda c=crew_id, at=at: moved_report(ctx, c, a.flight_id, at))
        except (LookupError, StopIteration) as exc:
            yield _check(crew_id, "illegal", f"{crew_id}: {exc}"), "DATA_MISSING"
            continue
        worst = next((x for x in findings if x.status == "illegal"), None)
        if worst is not None:
            message = f"{crew_id} on {a.flight_id} reporting {at:%d %b %H:%MZ}: {worst.message}"
            yield _check(crew_id, "illegal", message, worst.clause), "CREW_CHAIN_BROKEN"
        else:
            yield _check(crew_id, "legal", f"{crew_id} legal for {a.flight_id} reporting {at:%d %b %H:%MZ}"), None


def _check(subject: str, status: str, message: str, clause: str = "CS FTL.1.205(d) / ORO.FTL.205") -> ConstraintCheck:
    return ConstraintCheck(
        constraint="crew chain (moved report)",
        source="rules",
        clause=clause,
        subject=subject,
        status=status,
        message=message,
    )
