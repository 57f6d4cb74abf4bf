"""Operating without an unavailable cabin crew member (issue 46 item 4): a cabin crew member sick or unfit away from
base need not cancel the flight, or wait for a replacement nobody can bring, when the cabin crew left still meet the
certified minimum (EASA ORO.CC.100(b), one per 50 seats) and one of them can be named senior cabin crew member
(ORO.CC.200) — ``cabin_minimum.operate_with``. The plan stands the member down (``StandDownCrew``: their sectors of
the duty released) and the flight leaves once the crew left are re-briefed, not before its current estimate. Below
the operator's complement it is the duty manager's commercial call, said in the plan's notes. Pilots are never flown
short: a sick pilot is the reserve, positioning and rest plans' question. Validation re-checks the minimum
(``short_checks``); nothing here decides legality.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from datetime import timedelta

from ...analysis.base import decision_time
from ...data import queries as q
from ...models.fleet import AIRCRAFT_TYPES
from ...models.operational import CABIN_RANKS, CrewDuty
from ...rules.rostered import CrewLegality
from ..actions import StandDownCrew
from ..context import DisruptionContext
from ..memo_keys import SeatsRead
from ..models import ConstraintCheck, RejectionCode, Scenario
from ..plans.operate import operate
from .cabin_minimum import CLAUSE, CabinMinimum, operate_with
from .chain import rostered_at

SENIOR_RANKS = frozenset({"CD"})  # the roster's rank that is trained as senior cabin crew member (ORO.CC.200)
AVAILABILITY_RULE = "crew.availability"  # rules.crew_qualification: the roster status (sick, leave)
REBRIEF = timedelta(minutes=30)  # company policy: the crew left re-briefed and their cabin positions reassigned


def unavailable_cabin(rostered: Sequence[CrewLegality]) -> list[CrewLegality]:
    """The rostered cabin crew whose roster status makes them unavailable for duty (what the report states: sick,
    unfit), whatever the delay."""
    return [
        r
        for r in rostered
        if r.rank in CABIN_RANKS and any(f.rule == AVAILABILITY_RULE and f.status == "illegal" for f in r.findings)
    ]


def cabin_left(ctx: DisruptionContext, stood_down: Sequence[str], delay: int) -> CabinMinimum:
    """ORO.CC.100/200 for the flight's type with the rostered cabin crew other than `stood_down`."""
    left = [r for r in rostered_at(ctx, ctx.flight, delay) if r.rank in CABIN_RANKS and r.crew_id not in stood_down]
    return operate_with(ctx.flight.aircraft_type, len(left), sum(r.rank in SENIOR_RANKS for r in left))


def with_stood_down(ctx: DisruptionContext, scenario: Scenario, stood_down: Sequence[str]) -> Scenario:
    """`scenario` with `stood_down` off the flight: the action, the record, the title and the complement note."""
    f = ctx.flight
    verdict = cabin_left(ctx, stood_down, scenario.delay_minutes)
    complement = AIRCRAFT_TYPES[f.aircraft_type].cabin_crew if f.aircraft_type in AIRCRAFT_TYPES else None
    action = StandDownCrew(
        flight_id=f.flight_id, crew_ids=sorted(stood_down), cabin_left=verdict.left, minimum=verdict.minimum
    )
    note = (
        f"{f.flight_number} flies with {verdict.left} cabin crew, below the operator's complement of {complement} "
        "(a service decision for the duty manager: legal at or above the certified minimum)"
        if complement is not None and verdict.left < complement
        else None
    )
    late = f"{scenario.delay_minutes} min late" if scenario.delay_minutes else "on time"
    return scenario.model_copy(
        update={
            "scenario_id": f"{scenario.scenario_id}:short",
            "title": f"Operate without {len(stood_down)} unavailable cabin crew ({verdict.left} left, minimum "
            f"{verdict.minimum}), {late}",
            "actions": [action, *scenario.actions],
            "crew_stood_down": sorted(stood_down),
            "execution_notes": [*scenario.execution_notes, *([note] if note else [])],
        }
    )


def short_crew(ctx: DisruptionContext) -> Scenario | None:
    """The flight flown without its unavailable cabin crew at its current estimate, or once the rest are re-briefed
    (to five minutes); None when no rostered cabin crew member is unavailable."""
    f = ctx.flight
    gone = unavailable_cabin(rostered_at(ctx, f, f.delay_minutes))
    if not gone:
        return None
    ready = decision_time(f, ctx.now) + REBRIEF
    minutes = math.ceil(max(0.0, (ready - f.scheduled_departure).total_seconds() / 60) / 5) * 5
    delay = max(f.delay_minutes, minutes)
    plan = operate(ctx, "delay", delay, sources=["generator"])
    return with_stood_down(ctx, plan, [r.crew_id for r in gone])


def later_sectors(ctx: DisruptionContext, stood_down: Sequence[str]) -> dict[str, CrewDuty]:
    """The sectors after the flight in the stood-down members' duties, by flight id in time order: Execute releases
    those too, so each of them also flies without the member."""
    f = ctx.flight
    later: dict[str, CrewDuty] = {}
    for crew_id in stood_down:
        rows = ctx.roster(crew_id, f.scheduled_departure)
        sector = next((r for r in rows if r.flight_id == f.flight_id), None)
        if sector is None:
            continue
        after = sector.sector_departure or sector.duty_start
        same_duty = (r for r in rows if r.duty_id == sector.duty_id and r.kind == "FLIGHT" and r.flight_id)
        for r in same_duty:
            if (r.sector_departure or r.duty_start) > after:
                later.setdefault(str(r.flight_id), r)
    return dict(sorted(later.items(), key=lambda kv: (kv[1].sector_departure or kv[1].duty_start, kv[0])))


def _sector_left(ctx: DisruptionContext, flight_id: str, sector: CrewDuty, stood_down: Sequence[str]) -> CabinMinimum:
    """ORO.CC.100/200 on a later sector with its rostered cabin crew other than `stood_down`."""
    seats = ctx.memo(SeatsRead(flight_id), lambda: q.crew_assignments(ctx.handle, flight_id))
    left = [d for d in seats if d.position in CABIN_RANKS and d.crew_id not in stood_down]
    return operate_with(sector.aircraft_type or "", len(left), sum(d.position in SENIOR_RANKS for d in left))


def short_checks(ctx: DisruptionContext, s: Scenario) -> Iterator[tuple[ConstraintCheck, RejectionCode | None]]:
    """The certified minimum with the cabin crew left, on the flight and on every later sector of the stood-down
    members' duty, for a plan that stands crew down (none otherwise)."""
    if not s.crew_stood_down:
        return
    verdicts = [(ctx.flight.flight_id, cabin_left(ctx, s.crew_stood_down, s.delay_minutes))]
    later = later_sectors(ctx, s.crew_stood_down)
    verdicts += [(fid, _sector_left(ctx, fid, r, s.crew_stood_down)) for fid, r in later.items()]
    for flight_id, verdict in verdicts:
        check = ConstraintCheck(
            constraint="cabin crew minimum",
            source="rules",
            clause=CLAUSE,
            subject=flight_id,
            status="legal" if verdict.operable else "illegal",
            message=verdict.message if flight_id == ctx.flight.flight_id else f"{flight_id}: {verdict.message}",
        )
        yield check, None if verdict.operable else "CREW_ILLEGAL"
