"""A rescue aircraft's ferry, re-checked like any other flight: its crew by the crew rules and the curfews at
both of its ends. The rescued flight itself is checked by validation/scenario.py as any operating scenario is."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from ...analysis.crew import ferry_crew_findings
from ...rules.curfew import Movement, check_movement_at
from ...rules.ferry import FERRY_RANKS, ferry_duty
from ..actions import ContinueFlight, FerryAircraft
from ..context import DisruptionContext
from ..memo_keys import FerryCrewCheck
from ..models import ConstraintCheck, RejectionCode, Scenario

Check = tuple[ConstraintCheck, RejectionCode | None]
FTL = "ORO.FTL.205/210/235, CS FTL.1.225"


def ferry_of(s: Scenario) -> FerryAircraft | None:
    return next((a for a in s.actions if isinstance(a, FerryAircraft)), None)


def _check(constraint: str, clause: str, subject: str, status: str, message: str) -> ConstraintCheck:
    return ConstraintCheck(
        constraint=constraint, source="rules", clause=clause, subject=subject, status=status, message=message
    )


def ferry_checks(ctx: DisruptionContext, s: Scenario) -> Iterator[Check]:
    """The ferry's crew (a legal captain and first officer, each re-checked) and its curfews."""
    ferry = ferry_of(s)
    if ferry is None:
        return
    duty = ferry_duty(ferry.origin, ferry.destination, ferry.aircraft_type, ferry.departure, ferry.arrival)
    missing = [rank for rank in FERRY_RANKS if rank not in ferry.crew]
    if missing:
        note = next((n for n in s.execution_notes if n.startswith("ferry ")), "")
        yield (
            _check(
                "ferry crew",
                FTL,
                ferry.registration,
                "illegal",
                f"no legal {' or '.join(missing)} for the ferry; {note}",
            ),
            "CREW_ILLEGAL",
        )
    for rank, crew_id in sorted(ferry.crew.items()):
        try:
            findings = ctx.memo(
                FerryCrewCheck(crew_id, ferry.departure),
                lambda crew_id=crew_id: ferry_crew_findings(ctx.handle, crew_id, duty, ferry.crew_report_at),
            )
        except LookupError as exc:
            yield _check(f"ferry crew {rank}", FTL, crew_id, "illegal", str(exc)), "DATA_MISSING"
            continue
        bad = next((f for f in findings if f.status == "illegal"), None)
        if bad is not None:
            yield _check(f"ferry crew {rank} {crew_id}", bad.clause, crew_id, "illegal", bad.message), "CREW_ILLEGAL"
        else:
            yield _check(f"ferry crew {rank} {crew_id}", FTL, crew_id, "legal", "legal for the ferry duty"), None
    yield from leg_curfews(ctx, ferry, "ferry curfew")


def leg_curfews(ctx: DisruptionContext, leg: FerryAircraft | ContinueFlight, label: str) -> Iterator[Check]:
    """The curfews at both ends of a leg a plan adds (a ferry, a continuation from the alternate): CURFEW when it
    moves inside one, DATA_MISSING when an airport has no reference (its curfew cannot be checked)."""
    movements: tuple[tuple[str, datetime, Movement], ...] = (
        (leg.origin, leg.departure, "departure"),
        (leg.destination, leg.arrival, "arrival"),
    )
    for iata, at, movement in movements:
        profile = ctx.profile(iata)
        if profile is None:
            message = f"No airport reference for {iata}."
            yield _check(f"{label} {iata}", "airport reference", iata, "illegal", message), "DATA_MISSING"
            continue
        finding = check_movement_at(profile, at, movement)
        check = _check(f"{label} {iata} ({movement})", finding.clause, iata, finding.status, finding.message)
        yield check, "CURFEW" if finding.binding else None
