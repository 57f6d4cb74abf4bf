"""Waiting for the rostered crew's minimum rest: when the crew of a flight may not operate it now — out of duty time
(ORO.FTL.205), short of rest before it (ORO.FTL.235), or unfit through fatigue as the report states
(CAT.GEN.MPA.100(c)(3), a state a rest cures where sickness is not) — the whole crew stands down and reports again
once every one of them has had the minimum rest (ORO.FTL.235: the greater of the preceding duty and 12 h at home
base, 10 h away), and the flight leaves that much later. Often the next day: the passengers' care and hotel
(EU261 Art. 9) are counted by the same costing as any delay.

A crew held mid-duty away from base (an out-and-back's return, the outbound flown) stands down where the flight
leaves once the outbound has landed, rests there (10 h away from base, or the preceding duty if longer) and flies
the rest of its duty as a new one (crew/stand_down.py); executed, the roster's duty is split there.

A crew still at rest is told to report later (CS FTL.1.205(d)). For a wait on a history estimate they report to be
ready from its early end (``_readied``), as a reserve called for it would, so the flight can leave when the cause
clears sooner — where the longer duty stays legal at the planned departure.

Each member is checked by the crew rules for the re-timed duty (``rest_checks``: report, FDP, rest before and after,
cumulative limits), a member who had already reported standing down at the decision, that duty counted before the
rest. A crew member the data marks sick stays sick: only the report's own fatigue is cured by a rest. Nothing here
decides legality: the crew rules do, and validation may reject the plan (CREW_ILLEGAL, CREW_CHAIN_BROKEN).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from datetime import datetime, timedelta

from ...data import queries as q
from ...data import schema
from ...models.operational import CrewDuty, CrewMember
from ...rules.crew import evaluate_duty
from ...rules.ftl_easa_limits import min_rest_minutes
from ...rules.rostered import duty_at_delay, rostered_duty
from ...rules.standby import REPORT_BEFORE_DEPARTURE
from ..actions import CancelFlight, DelayFlight, FerryAircraft, ReassignCrew, RestCrew, SwapAircraft
from ..context import DisruptionContext
from ..memo_keys import RestedCheck
from ..models import ConstraintCheck, RejectionCode, Scenario
from ..plans.clearance_wait import ready_from
from ..plans.curfew_wait import after_curfews
from ..plans.hand_over import hand_over
from ..plans.operate import operate
from ..rotation import plan as rotation_plan
from .chain import NEXT_DUTY_RULE, next_duty, own_illegal, reserve_for, reserve_problem, rostered_at
from .moved_duty import Moves, moved
from .moved_reports import knock_on_reports
from .next_duty_cancel import cancelled_duties, cancelled_ids, without_cancelled
from .next_duty_retime import retimed_next_duties
from .next_duty_told import next_duties_told, next_duty_moves
from .stand_down import earlier_legs, remainder, report_lead, stands_down, stood_down

# What a rest cures: a duty run out, a rest cut short, the report's fatigue (crew.availability, for those only)
CURED_BY_REST = ("crew.max_fdp", "crew.rest")
Check = tuple[ConstraintCheck, RejectionCode | None]


def fatigued(ctx: DisruptionContext) -> set[str]:
    """The crew members the report makes unavailable when it says they are unfit through fatigue."""
    d = ctx.disruption
    if d is None or not any(f.name == "crew_fatigue" for f in d.facts):
        return set()
    return {
        str(p.key["crew_id"])
        for p in ctx.handle.overlay.patches
        if p.table == schema.CREW_MEMBERS and p.fact == "crew_unavailable"
    }


def _rows(ctx: DisruptionContext, crew_id: str) -> list[CrewDuty]:
    return ctx.roster(crew_id, ctx.flight.scheduled_departure)


def _cured(finding, crew_id: str, tired: set[str]) -> bool:
    return finding.rule.startswith(CURED_BY_REST) or (finding.rule == "crew.availability" and crew_id in tired)


def _ready(
    member: CrewMember, rows: list[CrewDuty], flight_id: str, at: datetime, tired: bool, station: str
) -> datetime:
    """When the member may report again at `station` (where the flight leaves): after the minimum rest from standing
    down there (or, unfit through fatigue, from now), counted over the preceding duty, 10 h away from base and 12 h
    at it (ORO.FTL.235(a)/(b)); a member neither on duty nor tired may report at any time."""
    duty = rostered_duty(rows, flight_id)
    stood = stood_down(rows, flight_id, at, station)
    home = station == member.base
    if stood is not None:
        minutes = min_rest_minutes(int((at - stood.duty_start).total_seconds() // 60), home)
        return at + timedelta(minutes=minutes)
    if not tired:
        return duty.report
    before = [r for r in rows if r.duty_end <= duty.report and r.duty_id != duty.duty_id]
    last = max(before, key=lambda r: r.duty_end, default=None)
    preceding = int((last.duty_end - last.duty_start).total_seconds() // 60) if last else 0
    return at + timedelta(minutes=min_rest_minutes(preceding, home))


def _rest_shift(ctx: DisruptionContext, wanted: int) -> tuple[int, set[str], dict[str, CrewMember]] | None:
    """How late (minutes after their rostered report) the whole crew can report again, every member rested; None when
    no member is illegal at `wanted` for a reason a rest cures, or one is illegal for another (a reserve or a
    cancellation answers). Mid-duty (sectors before this one in the same FDP, the crew away from base after an
    outbound), the crew stands down where the flight leaves once those sectors are flown and their post-flight duties
    done (``stand_down.stands_down``), and the rest of the duty is a new one after the minimum rest there."""
    f = ctx.flight
    try:
        rostered = rostered_at(ctx, f, wanted)
    except LookupError:
        return None
    tired = fatigued(ctx)
    resting = [r for r in rostered if own_illegal(r)]
    if not resting or any(not _cured(x, r.crew_id, tired) for r in resting for x in own_illegal(r)):
        return None
    members = {m.crew_id: m for m in q.crew_members(ctx.handle, [r.crew_id for r in rostered])}
    if set(members) != {r.crew_id for r in rostered}:
        return None  # a member missing from CrewMembers: validation names it on the other plans
    shift = 0
    for r in rostered:
        late = _can_leave(ctx, members[r.crew_id], r.crew_id in tired) - f.scheduled_departure
        shift = max(shift, math.ceil(late.total_seconds() / 300) * 5)
    return shift, tired, members


def _can_leave(ctx: DisruptionContext, member: CrewMember, tired: bool) -> datetime:
    """The earliest the flight can leave with `member`: when they may report again (``_ready``) plus their sign-on
    lead (``stand_down.report_lead``)."""
    f, rows = ctx.flight, _rows(ctx, member.crew_id)
    ready = _ready(member, rows, f.flight_id, stands_down(ctx, rows), tired, f.origin)
    return ready + report_lead(rows, f.flight_id, f.scheduled_departure)


def _with_rest(
    ctx: DisruptionContext,
    scenario: Scenario,
    tired: set[str],
    members: dict[str, CrewMember],
    *,
    cancel_next: bool = False,
    on_the_cause: bool = False,
) -> Scenario:
    """`scenario` with its rostered crew reporting again for the flight `delay` late (RestCrew, right after the
    flight's own delay: their rostered report that much later, or mid-duty the company's report time before it) and
    a reserve for each next duty that leaves short of rest; a next duty no reserve takes re-timed until they are
    rested, or with `cancel_next` cancelled (crew/next_duty_cancel.py). `on_the_cause`: the flight waits on the
    cause's estimate alone (not a ferry's or a swap's), so its crew may be readied for its early end (``_readied``)."""
    f, delay = ctx.flight, scenario.delay_minutes
    leaves = f.scheduled_departure + timedelta(minutes=delay)
    reports = {c: leaves - report_lead(_rows(ctx, c), f.flight_id, f.scheduled_departure) for c in sorted(members)}
    stood_at = max(stands_down(ctx, _rows(ctx, c)) for c in sorted(members))
    rest = RestCrew(flight_id=f.flight_id, reports=reports, stood_down_at=stood_at)
    told = next_duties_told(ctx, scenario.actions, set(members))
    moves = next_duty_moves(ctx, [*scenario.actions, *told])
    rest, ready = _readied(ctx, rest, delay, tired, members, moves) if on_the_cause else (rest, None)
    recrews, short = _next_duty_recrews(ctx, rest, delay, tired, members, moves)
    told = [t for t in told if not any(set(t.reports) & set(r.replacements) for r in recrews)]
    dropped = cancelled_duties(ctx, short) if cancel_next and short else None
    # no reserve: their next duty reports once they are rested, or is cancelled
    retimed = [] if dropped else retimed_next_duties(ctx, short)
    knock_on = [*scenario.actions, rest, *retimed]
    after = next((i + 1 for i, a in enumerate(scenario.actions) if a.kind == "delay" and a.flight_id == f.flight_id), 0)
    return scenario.model_copy(
        update={
            "scenario_id": f"{scenario.scenario_id}:rested",
            "actions": [
                *scenario.actions[:after],
                rest,
                *recrews,
                *scenario.actions[after:],
                *told,
                *retimed,
                *knock_on_reports(ctx, knock_on, only=[a.flight_id for a in retimed if isinstance(a, DelayFlight)]),
                *(dropped.actions if dropped else ()),
            ],
            "crew_rested": sorted(rest.reports),
            "execution_notes": [
                *scenario.execution_notes,
                f"the crew of {f.flight_number} report again from {min(rest.reports.values()):%d %b %H:%MZ}, rested "
                "(ORO.FTL.235)" + (f", ready from {ready:%H:%MZ} should the cause clear sooner" if ready else ""),
                *([dropped.note] if dropped else []),
            ],
            **(dropped.costed(scenario) if dropped else {}),
        }
    )


def _readied(
    ctx: DisruptionContext, rest: RestCrew, delay: int, tired: set[str], members: dict[str, CrewMember], moves: Moves
) -> tuple[RestCrew, datetime | None]:
    """`rest` with the whole crew reporting to be ready when the cause may clear first (``ready_from``: a history
    estimate's low percentile), as a called-out reserve is readied (analysis.crew), so the flight can leave when the
    cause clears before the estimate instead of waiting on its crew's report — where every member is rested by then
    and the longer duty adds no illegal finding (its FDP from the earlier report, ORO.FTL.205) at the planned
    departure; else `rest` as planned. Also when the crew is ready (None: as planned)."""
    f, first = ctx.flight, ready_from(ctx.clears)
    if first is None:
        return rest, None
    lead = {c: report_lead(_rows(ctx, c), f.flight_id, f.scheduled_departure) for c in rest.reports}
    ready = max(first, *(_can_leave(ctx, members[c], c in tired) for c in rest.reports))
    if ready >= f.scheduled_departure + timedelta(minutes=delay):
        return rest, None
    readied = rest.model_copy(update={"reports": {c: ready - lead[c] for c in rest.reports}})

    def illegal(plan: RestCrew, c: str) -> set[str]:
        return {x.rule for x in _findings(ctx, members[c], plan, delay, tired, moves) if x.status == "illegal"}

    if any(illegal(readied, c) - illegal(rest, c) for c in rest.reports):
        return rest, None
    return readied, ready


def rested_crew_delay(
    ctx: DisruptionContext, wanted: int, *, hand_over_rotation: bool = False, cancel_next_duties: bool = False
) -> Scenario | None:
    """The flight at least `wanted` minutes late, its whole rostered crew reporting again once every one of them has
    had the minimum rest (a long wait re-times the crew's report, as an OCC does); None as ``_rest_shift``.
    `hand_over_rotation`: the tail's later flights flown by another aircraft instead of late (plans/hand_over.py);
    None when no aircraft can take them. `cancel_next_duties`: a next duty of the crew that no reserve takes
    cancelled instead of re-timed; None when there is none."""
    found = _rest_shift(ctx, wanted)
    if found is None:
        return None
    shift, tired, members = found
    delay = max(wanted, shift)
    delay = after_curfews(ctx, delay) or delay  # a rest ending in a curfew waits it out too

    handed = hand_over(ctx, delay) if hand_over_rotation else None
    if hand_over_rotation and handed is None:
        return None
    plan = operate(ctx, "delay", delay, sources=["generator"], handed=handed)
    scenario = _with_rest(ctx, plan, tired, members, cancel_next=cancel_next_duties, on_the_cause=True)
    if cancel_next_duties and not any(isinstance(a, CancelFlight) for a in scenario.actions):
        return None
    named = f"delay:{delay}:rested" + (f":handover:{handed.tail}" if handed else "")
    named += ":next-duty-cancelled" if cancel_next_duties else ""
    title = f"Wait for the crew's minimum rest: {delay} min late" + (handed.title_words() if handed else "")
    return scenario.model_copy(update={"scenario_id": named, "title": title})


def with_crew_retimed(ctx: DisruptionContext, scenario: Scenario | None) -> Scenario | None:
    """An operating plan whose own rostered crew would be out of duty time at its delay, with their report moved as
    late (a rescue aircraft's or a swap's wait): None when that does not cure them without a longer delay."""
    if scenario is None or not scenario.operates or scenario.crew_replacements or scenario.crew_rested:
        return None
    found = _rest_shift(ctx, scenario.delay_minutes)
    if found is None or found[0] > scenario.delay_minutes:
        return None
    plan = _with_rest(ctx, scenario, found[1], found[2])
    return plan.model_copy(update={"title": f"{scenario.title}, the crew reporting later"})


def rescue_after_rest(ctx: DisruptionContext, rescue: Scenario | None) -> Scenario | None:
    """A rescue aircraft's plan whose own crew, already on duty (or unfit through fatigue), cannot wait for it: the
    rescue flown once the whole crew has had the minimum rest (ORO.FTL.235), the ferry as planned (the aircraft
    waits at the outstation); None when the crew can wait for it as planned (``with_crew_retimed``) or a rest does
    not cure them."""
    if rescue is None or rescue.kind != "rescue_aircraft" or rescue.crew_replacements or rescue.crew_rested:
        return None
    found = _rest_shift(ctx, rescue.delay_minutes)
    if found is None or found[0] <= rescue.delay_minutes:
        return None
    delay = after_curfews(ctx, found[0]) or found[0]
    ferry = next((a for a in rescue.actions if isinstance(a, FerryAircraft)), None)
    moved = {a.flight_id for a in rescue.actions if isinstance(a, SwapAircraft) and a.flight_id != ctx.flight.flight_id}
    carried = [x for x in rotation_plan.tail_flights(ctx, ctx.flight.aircraft_registration) if x.flight_id in moved]
    plan = operate(
        ctx,
        "rescue_aircraft",
        delay,
        sources=rescue.sources,
        registration=rescue.registration,
        aircraft_type=rescue.aircraft_type,
        ferry=ferry,
        notes=rescue.execution_notes,
        carried=carried,
    )
    rested = _with_rest(ctx, plan, found[1], found[2])
    name = rescue.title.split(",")[0]
    return rested.model_copy(update={"title": f"{name}, flown after the crew's minimum rest: {delay} min late"})


def _findings(
    ctx: DisruptionContext,
    member: CrewMember,
    rest: RestCrew,
    delay: int,
    tired: set[str],
    moves: Moves,
    cancelled: frozenset[str] = frozenset(),
) -> list:
    """The crew rules for `member`'s duty re-timed to report at their new report, after standing down; their next
    duty at the report the plan moves it to (``next_duty_moves``), else the roster's; none where the plan cancels
    it (`cancelled`: the flights the plan cancels)."""
    crew_id = member.crew_id
    available = ctx.crew_available_from.get(crew_id)  # a member the report expects back: from the estimate on
    awaited = available is not None and rest.reports[crew_id] + REPORT_BEFORE_DEPARTURE >= available
    if crew_id in tired or awaited:  # the report's fatigue is what the rest cures; a sickness in the data is not
        member = member.model_copy(update={"status": "ACTIVE"})
    rows = without_cancelled(moved(_rows(ctx, crew_id), crew_id, moves), cancelled - {ctx.flight.flight_id})
    f = ctx.flight
    stood = stood_down(rows, rest.flight_id, rest.stood_down_at, f.origin)
    duty = duty_at_delay(rows, rest.flight_id, delay).model_copy(update={"report": rest.reports[crew_id]})
    earlier = earlier_legs(rows, rest.flight_id, f.scheduled_departure)
    if earlier and stood is not None:  # mid-duty: the duty so far ends where they stand down, the rest is a new one
        rows = [r for r in rows if r.duty_id != duty.duty_id]
        duty = remainder(duty, earlier, f.origin)
    key = RestedCheck(crew_id, delay, rest.reports[crew_id], rest.stood_down_at, moves.get(crew_id), cancelled)
    return ctx.memo(key, lambda: evaluate_duty(member, [*rows, stood] if stood else rows, duty))


def recrew_next_duty(ctx: DisruptionContext, crew_id: str, taken: set[str]) -> ReassignCrew | None:
    """A reserve for the member's next rostered duty after the disrupted flight's (``reserve_for``), added to `taken`;
    None when they have no next duty or it has no legal reserve (validation then names the broken chain)."""
    found = next_duty(ctx, crew_id, ctx.flight)
    chosen = reserve_for(ctx, crew_id, found[1], taken) if found else None
    if found is None or chosen is None:
        return None
    taken.add(chosen)
    return ReassignCrew(flight_id=found[0], replacements={crew_id: chosen}, report_at=found[1].report)


def _next_duty_recrews(
    ctx: DisruptionContext, rest: RestCrew, delay: int, tired: set[str], members: dict[str, CrewMember], moves: Moves
) -> tuple[list[ReassignCrew], dict[str, int]]:
    """A reserve for the next rostered duty of each rested member who would be short of rest before it, and how many
    minutes short are those no reserve can relieve (crew id → minutes)."""
    out: list[ReassignCrew] = []
    short: dict[str, int] = {}
    taken: set[str] = set()
    for crew_id in sorted(rest.reports):
        findings = _findings(ctx, members[crew_id], rest, delay, tired, moves)
        after = next((x for x in findings if x.status == "illegal" and x.rule == NEXT_DUTY_RULE), None)
        if after is None:
            continue
        recrew = recrew_next_duty(ctx, crew_id, taken)
        if recrew is not None:
            out.append(recrew)
        elif after.margin_minutes is not None:
            short[crew_id] = -after.margin_minutes
    return out, short


def rest_checks(ctx: DisruptionContext, s: Scenario) -> Iterator[Check]:
    """Each rested member by the crew rules for the duty re-timed to report at their new report: illegal for the
    duty itself → CREW_ILLEGAL; short of rest before their next rostered duty → CREW_CHAIN_BROKEN."""
    tired = fatigued(ctx)
    moves = next_duty_moves(ctx, s.actions)
    cancelled = cancelled_ids(s.actions)
    for a in s.actions:
        if not isinstance(a, RestCrew) or a.flight_id != ctx.flight.flight_id:
            continue
        members = {m.crew_id: m for m in q.crew_members(ctx.handle, sorted(a.reports))}
        recrewed = {
            old: r
            for r in s.actions
            if isinstance(r, ReassignCrew) and r.flight_id != a.flight_id
            for old in r.replacements
        }
        bad = 0
        for crew_id, report in sorted(a.reports.items()):
            member = members.get(crew_id)
            if member is None:
                yield _check(crew_id, "illegal", f"{crew_id} is not in CrewMembers."), "DATA_MISSING"
                bad += 1
                continue
            for finding in _findings(ctx, member, a, s.delay_minutes, tired, moves, cancelled):
                if finding.status == "illegal" and finding.rule == NEXT_DUTY_RULE and crew_id in recrewed:
                    # a reserve takes their next duty: legal for it by the same rules, or the chain is broken
                    problem = reserve_problem(ctx, crew_id, recrewed[crew_id])
                    if problem is None:
                        continue
                    finding = finding.model_copy(update={"message": f"{finding.message}; its reserve: {problem}"})
                if finding.status == "illegal":
                    bad += 1
                    code: RejectionCode = "CREW_CHAIN_BROKEN" if finding.rule == NEXT_DUTY_RULE else "CREW_ILLEGAL"
                    yield (
                        _check(
                            crew_id,
                            "illegal",
                            f"{member.name} reporting {report:%d %b %H:%MZ}: {finding.message}",
                            finding.clause,
                        ),
                        code,
                    )
        if not bad:
            yield (
                _check(
                    a.flight_id,
                    "legal",
                    f"{len(a.reports)} rostered crew legal after the minimum rest, reporting from "
                    f"{min(a.reports.values()):%d %b %H:%MZ}",
                ),
                None,
            )


def _check(subject: str, status: str, message: str, clause: str = "ORO.FTL.235 / ORO.FTL.205") -> ConstraintCheck:
    return ConstraintCheck(
        constraint="crew rest", source="rules", clause=clause, subject=subject, status=status, message=message
    )
