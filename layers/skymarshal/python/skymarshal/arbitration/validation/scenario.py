"""Zero-tolerance validation: every scenario against every binding constraint, twice.

1. The safety agents' bounds (pure, `bounds.check_bound`).
2. The rules re-computed under the scenario's own times and resources: the crew who would operate it at
   its delay (rostered members kept and reserves brought in), the airworthiness of the tail that flies it
   (or the swap candidate's full eligibility), curfews at its departure and arrival, and the weather limits
   at its arrival airport and time.

One illegal check rejects the scenario with a typed reason. Missing data for a check that could forbid the
plan (no roster for a crew member, an unknown airport) rejects it too: what cannot be shown legal is not.
"""

from __future__ import annotations

from datetime import timedelta

from ...analysis.base import decision_time
from ...analysis.crew import replacement_findings
from ...data import queries as q
from ...rules.mel import aircraft_airworthiness
from ...rules.rostered import CrewLegality
from ...rules.tail_swap import tail_swap_eligibility
from ...rules.tail_swap_models import SwapRefusal, TailSwapEligibility
from ..actions import SwapAircraft
from ..bounds import SafetyBound, check_bound
from ..cause_hold import held_by_cause
from ..context import DisruptionContext
from ..continuation.checks import continuation_checks
from ..continuation.plan import continuation_of
from ..crew.cabin import cabin_checks
from ..crew.chain import chain_checks, own_illegal, rostered_at
from ..crew.positioning import positioning_checks
from ..crew.rest import rest_checks
from ..crew.short import short_checks
from ..memo_keys import ReserveCheck, SwapEligibility, WorkOrdersRead
from ..models import ConstraintCheck, RejectionCode, Scenario, ScenarioRejection, ValidatedScenario
from ..plans.ferry_checks import ferry_checks, ferry_of
from ..rotation.checks import rotation_checks
from .airport import curfew_checks, from_finding, rules_check, weather_checks

SWAP_LOOKAROUND = timedelta(hours=36)
NOT_CANCELLABLE = ("DEPARTED", "ARRIVED", "CANCELLED")  # flown, or an earlier plan already cancelled it


def validate_bounds(scenario: Scenario, bounds: list[SafetyBound]) -> ValidatedScenario:
    """Layer 1 alone: the scenario against the safety agents' bounds (pure)."""
    return _Validation(scenario).add_all(check_bound(scenario, b) for b in bounds).result()


class _Validation:
    def __init__(self, scenario: Scenario):
        self.scenario = scenario
        self.checks: list[ConstraintCheck] = []
        self.rejections: list[ScenarioRejection] = []

    def add(self, check: ConstraintCheck, code: RejectionCode | None) -> None:
        self.checks.append(check)
        if code is not None:
            self.rejections.append(ScenarioRejection(code=code, message=f"{check.constraint}: {check.message}"))

    def add_all(self, pairs) -> _Validation:
        for check, code in pairs:
            self.add(check, code)
        return self

    def result(self) -> ValidatedScenario:
        return ValidatedScenario(scenario=self.scenario, checks=self.checks, rejections=self.rejections)


def validate(ctx: DisruptionContext, scenario: Scenario) -> ValidatedScenario:
    """Both layers: the bounds, then the rules re-computed under the scenario's times and resources."""
    v = _Validation(scenario).add_all(check_bound(scenario, b) for b in ctx.bounds)
    add = v.add
    if scenario.operates and ctx.flight.status == "CANCELLED":  # a later report on a flight already cancelled
        add(
            rules_check(
                "operational status",
                "rules",
                "operational status",
                ctx.flight.flight_id,
                "illegal",
                f"{ctx.flight.flight_number} is already cancelled; a new plan for it starts from its rebooked passengers.",
            ),
            "NOT_CANCELLABLE",
        )
    if continuation_of(scenario) is not None:  # flown on from the alternate: checked at its own ends and crew
        return v.add_all(
            (*continuation_checks(ctx, scenario), *weather_checks(ctx, scenario), *rotation_checks(ctx, scenario))
        ).result()
    if scenario.operates and ctx.flight.status == "DIVERTED":  # on the ground at its alternate, not at its origin
        add(
            rules_check(
                "operational status",
                "rules",
                "aircraft continuity (the flight's diversion)",
                ctx.flight.flight_id,
                "illegal",
                f"{ctx.flight.flight_number} is on the ground at {ctx.flight.diverted_to or 'its alternate'}"
                f" since {ctx.flight.arrival:%H:%MZ}: a plan flying it from {ctx.flight.origin} does not apply.",
            ),
            "ROTATION_BROKEN",
        )
    if not scenario.operates:
        status = ctx.flight.status
        add(
            rules_check(
                "cancellation",
                "rules",
                "operational status",
                ctx.flight.flight_id,
                "illegal" if status in NOT_CANCELLABLE else "legal",
                f"{ctx.flight.flight_number} is {status.lower()}"
                + ("; it can no longer be cancelled." if status in NOT_CANCELLABLE else "; it can be cancelled."),
            ),
            "NOT_CANCELLABLE" if status in NOT_CANCELLABLE else None,
        )
        return v.add_all(rotation_checks(ctx, scenario)).result()
    return v.add_all(
        (
            *_crew(ctx, scenario),
            *cabin_checks(ctx, scenario),
            *short_checks(ctx, scenario),
            *positioning_checks(ctx, scenario),
            *rest_checks(ctx, scenario),
            _airworthiness(ctx, scenario),
            *held_by_cause(ctx, scenario),
            *curfew_checks(ctx, scenario),
            *weather_checks(ctx, scenario),
            *ferry_checks(ctx, scenario),
            *rotation_checks(ctx, scenario),
        )
    ).result()


def _crew(ctx: DisruptionContext, s: Scenario):
    try:
        rostered = rostered_at(ctx, ctx.flight, s.delay_minutes)
    except LookupError as exc:
        yield (
            rules_check("crew legality", "rules", "ORO.FTL", ctx.flight.flight_id, "illegal", str(exc)),
            "DATA_MISSING",
        )
        return
    gone = {*s.crew_replacements, *s.crew_rested, *s.crew_stood_down}
    kept = [r for r in rostered if r.crew_id not in gone]
    illegal = [r for r in kept if own_illegal(r)]  # a next duty made illegal is the chain's: re-crewed or rejected
    yield from chain_checks(ctx, s, ctx.flight, rostered)
    if illegal:
        worst = own_illegal(illegal[0])[0]
        yield (
            rules_check(
                "crew legality",
                "rules",
                worst.clause,
                ",".join(r.crew_id for r in illegal[:5]),
                "illegal",
                f"{len(illegal)} rostered crew illegal at a {s.delay_minutes}-min delay, e.g. {illegal[0].name}: "
                f"{worst.message}",
            ),
            "CREW_ILLEGAL",
        )
    else:
        at_risk = [f for r in kept for f in r.findings if f.status == "at_risk"]
        yield (
            rules_check(
                "crew legality",
                "rules",
                "ORO.FTL.205/210/235",
                ctx.flight.flight_id,
                "at_risk" if at_risk else "legal",
                (
                    f"{len(kept)} rostered crew legal at a {s.delay_minutes}-min delay"
                    if kept
                    else f"all {len(rostered)} rostered crew replaced or rested"
                )
                + (f"; {len(at_risk)} finding(s) within the margin" if at_risk else ""),
            ),
            None,
        )
    yield from _awaited(ctx, s, rostered, kept)
    report = next(
        (a.report_at for a in s.actions if a.kind == "reassign_crew" and a.flight_id == ctx.flight.flight_id), None
    )
    for replaced, reserve in s.crew_replacements.items():
        assert report is not None  # operate() adds a ReassignCrew action (report_at required) with any replacement
        key = ReserveCheck(replaced, reserve, s.delay_minutes, report)
        try:
            findings = ctx.memo(
                key,
                lambda replaced=replaced, reserve=reserve: replacement_findings(
                    ctx.handle, ctx.flight, replaced, reserve, s.delay_minutes, report
                ),
            )
        except LookupError as exc:
            yield rules_check("reserve legality", "rules", "ORO.FTL", reserve, "illegal", str(exc)), "DATA_MISSING"
            continue
        bad = next((f for f in findings if f.status == "illegal"), None)
        if bad:
            yield from_finding(f"reserve {reserve} for {replaced}", bad), "CREW_ILLEGAL"
    if s.crew_replacements:
        yield (
            rules_check(
                "reserve legality",
                "rules",
                "ORO.FTL.205/210/235, CS FTL.1.225",
                ctx.flight.flight_id,
                "legal",
                f"{len(s.crew_replacements)} reserve(s) legal for this duty reporting {report:%H:%MZ}"
                if report
                else "reserves legal for this duty",
            ),
            None,
        )


def _awaited(ctx: DisruptionContext, s: Scenario, rostered: list[CrewLegality], kept: list[CrewLegality]):
    """A plan that keeps a member the report made unavailable flies on the estimate of when they are available
    (``DisruptionContext.crew_available_from``): at risk, never certain, as a tail flying after its estimated
    release — if they are not fit by the estimate's upper bound the decision is looked at again."""
    available = ctx.crew_available_from
    flying = {r.crew_id for r in kept} | set(s.crew_rested)  # kept as rostered, or re-timed after a rest
    awaited = [r for r in rostered if r.crew_id in available and r.crew_id in flying]
    clears = ctx.clears
    if clears is None or s.departure is None:
        return
    awaited = [r for r in awaited if s.departure >= available[r.crew_id]]  # before it, the rules refuse the plan
    if not awaited:
        return
    names = ", ".join(f"{r.name} ({r.crew_id}, {r.position})" for r in awaited)
    yield (
        rules_check(
            "crew availability",
            "rules",
            "Operator roster status / ORO.FTL.205 (FDP from the rostered report)",
            ",".join(r.crew_id for r in awaited),
            "at_risk",
            f"{names} expected to report for a departure from {max(available[r.crew_id] for r in awaited):%H:%MZ} "
            f"({clears.source}: {clears.evidence}); look again at {clears.latest:%H:%MZ} if not fit by then",
        ),
        None,
    )


def swap_eligibility(
    ctx: DisruptionContext, registration: str, departure, ferried_to: str | None = None
) -> TailSwapEligibility | None:
    """The tail-swap rules for `registration` flying the flight off blocks at `departure` (None: no such aircraft);
    `ferried_to`: a rescue aircraft is checked where its ferry brings it."""

    def compute():
        days = [d for d in q.aircraft_days(ctx.handle, registration) if d.date == ctx.flight.flight_date]
        if not days:
            return None
        if ferried_to is not None:
            days = [days[0].model_copy(update={"station": ferried_to})]
        orders = q.work_orders_for_aircraft(ctx.handle, registration)
        rotation = q.rotation(
            ctx.handle, registration, ctx.flight.departure - SWAP_LOOKAROUND, ctx.flight.departure + SWAP_LOOKAROUND
        )
        return tail_swap_eligibility(
            days[0], orders, rotation, ctx.flight, decision_time(ctx.flight, ctx.now), departure=departure
        )

    return ctx.memo(SwapEligibility(registration, departure, ferried_to), compute)


def _swap_refusals(s: Scenario, result: TailSwapEligibility) -> list[SwapRefusal]:
    """The swap rules' refusals of the plan's aircraft, but for the flights it would have to give up when the plan
    gives every one of them to another tail (an exchange, plans/exchange.py): the rotation check then judges both
    tails' sequences as the plan leaves them."""
    given = {a.flight_id for a in s.actions if isinstance(a, SwapAircraft) and a.from_registration == s.registration}
    return [
        r for r in result.refusals if not (r.code == "CONFLICTING_FLIGHTS" and set(result.flights_to_give_up) <= given)
    ]


def _airworthiness(ctx: DisruptionContext, s: Scenario):
    assert s.registration is not None and s.departure is not None  # operate() sets both on an operating scenario
    if s.registration != ctx.flight.aircraft_registration:
        ferry = ferry_of(s)
        result = swap_eligibility(ctx, s.registration, s.departure, ferry.destination if ferry else None)
        if result is None:
            return rules_check(
                "tail swap",
                "rules",
                "fleet",
                s.registration,
                "illegal",
                f"{s.registration} has no availability record for {ctx.flight.flight_date}.",
            ), "DATA_MISSING"
        refusals = _swap_refusals(s, result)
        if refusals:
            code = (
                "AIRCRAFT_NOT_AIRWORTHY" if any(r.code == "NOT_AIRWORTHY" for r in refusals) else "TAIL_SWAP_INELIGIBLE"
            )
            return rules_check(
                "tail swap eligibility",
                "rules",
                "Part-M M.A.403 / MEL / fleet rules",
                s.registration,
                "illegal",
                "; ".join(r.message for r in refusals),
            ), code
        return rules_check(
            "tail swap eligibility",
            "rules",
            "Part-M M.A.403 / MEL / fleet rules",
            s.registration,
            "legal",
            f"{s.registration} airworthy, compatible, in range and at {result.station} in time.",
        ), None
    orders = ctx.memo(WorkOrdersRead(s.registration), lambda: q.work_orders_for_aircraft(ctx.handle, s.registration))
    state = aircraft_airworthiness(orders, s.departure, registration=s.registration)
    if ctx.release_at is not None and s.departure < ctx.release_at:
        # held by maintenance's estimate or the report's own (a night check "DLA 325", an AOG): the work orders may
        # not show it yet, and a report only ever makes a tail less available, never more
        return rules_check(
            "airworthiness",
            "rules",
            "Part-M M.A.403(a)",
            s.registration,
            "illegal",
            f"{s.registration} is not released before {ctx.release_at:%H:%MZ}{_release_source(ctx)}: off blocks at "
            f"{s.departure:%H:%MZ} is before it.",
        ), "AIRCRAFT_NOT_AIRWORTHY"
    if state.airworthy and ctx.release_at is None:
        return rules_check(
            "airworthiness",
            "rules",
            "Part-M M.A.403 / MEL",
            s.registration,
            "legal",
            f"{s.registration} airworthy at {s.departure:%H:%MZ}.",
        ), None
    if ctx.release_at is not None and s.departure >= ctx.release_at:
        return rules_check(
            "airworthiness",
            "rules",
            "Part-M M.A.403(a)",
            s.registration,
            "at_risk",
            f"{s.registration} flies only after its estimated release at {ctx.release_at:%H:%MZ} "
            "(certificate of release to service required).",
        ), None
    worst = next(f for f in state.findings if f.status == "illegal")
    return from_finding("airworthiness", worst), "AIRCRAFT_NOT_AIRWORTHY"


def _release_source(ctx: DisruptionContext) -> str:
    """Where the release estimate comes from, for the refusal's line (empty when maintenance's alone)."""
    clears = ctx.clears
    if clears is None or clears.kind != "aircraft_release" or clears.expected != ctx.release_at:
        return ""
    return f" ({clears.source}: {clears.evidence})"
