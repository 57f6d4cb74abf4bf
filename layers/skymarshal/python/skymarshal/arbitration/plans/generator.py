"""Recovery scenarios: from the agents' proposals and from a generator over the data.

Generated: delays to the moments that matter (the current estimate, the grounded tail's release, the estimate of
when the cause clears and its upper bound — waiting is always a plan, clearance_wait.py —, the end of
the weather at the destination, the crew's last legal minute), each also with a crew swap when reserves
make it legal; a tail swap with each compatible aircraft at the origin, and an exchange with an aircraft of
the type between its own flights there (exchange.py); the crew agent's reserve swap;
a diversion to each alternate the regulatory agent found; and cancellation with full re-accommodation,
the conservative baseline that always exists. Each is costed by the rules engine (rules.finance).
Nothing here decides legality: validation does, and it may reject any of these.
"""

from __future__ import annotations

import math
from datetime import datetime

from ...analysis.base import decision_time
from ...analysis.crew import reserve_swap_at
from ...data import queries as q
from ...data import schema
from ...models.fleet import compatible_types
from ...rules.rostered import flight_crew_legality
from ...rules.tail_swap_models import TailSwapEligibility
from ..actions import (
    CancelFlight,
    ContinueFlight,
    DelayFlight,
    DivertFlight,
    FerryAircraft,
    GroundAircraft,
    RepositionFleet,
    RestCrew,
    SwapAircraft,
    describe,
)
from ..bounds import CrewIllegalBound, CrewMaxDelayBound
from ..context import DisruptionContext
from ..continuation.plan import continuation_scenarios
from ..crew.chain import flight_roster
from ..crew.positioning import positioned_crew_swap
from ..crew.rest import rescue_after_rest, rested_crew_delay, with_crew_retimed
from ..crew.short import short_crew
from ..day_cost import flight as touched_flight
from ..day_cost import with_day_cost
from ..memo_keys import ClearanceWaits
from ..models import Scenario
from ..rotation import plan as rotation_plan
from ..validation.scenario import swap_eligibility
from .cancellation import cancellation, minutes_after
from .clearance_wait import annotated, clearance_waits, ready_from
from .curfew_wait import after_curfews
from .exchange import exchange_scenarios, swap_departure
from .hand_over import handed_over
from .operate import operate
from .rescue import rescue_scenarios

MAX_CREW_SWAP_DELAYS = 2  # reserve searches are the slow part (~1.5 s each)


def generate(ctx: DisruptionContext, *, proposed_only: bool = False) -> list[Scenario]:
    """Every scenario, each with its operation records and its cost to the day. `proposed_only`: only the plans an
    agent proposed, without their cost to the day — what the debate's positions read after every round
    (debate/assess.py), which the generator's own plans (the cancellation, rescues, rests) are not part of."""
    found: dict[str, Scenario] = {}

    def keep(scenario: Scenario | None) -> None:
        if scenario is None or (proposed_only and scenario.sources == ["generator"]):
            return
        if scenario.scenario_id in found:  # the same plan from another source: record who proposed it
            old = found[scenario.scenario_id]
            found[scenario.scenario_id] = old.model_copy(update={"sources": sorted({*old.sources, *scenario.sources})})
        else:
            found[scenario.scenario_id] = scenario

    if not proposed_only:
        keep(cancellation(ctx))
    _delay_plans(ctx, keep, proposed_only)
    for delay in [] if proposed_only else _crew_limited(ctx)[:MAX_CREW_SWAP_DELAYS]:
        proposal = reserve_swap_at(
            ctx.handle,
            ctx.flight,
            delay,
            now=ctx.now,
            rostered=flight_roster(ctx, ctx.flight),
            ready_from=ready_from(ctx.clears),
        )
        if proposal is not None:  # never sooner than the reserves' report before departure allows
            keep(
                operate(
                    ctx,
                    "delay",
                    max(delay, proposal.estimated_delay_minutes or 0),
                    sources=["generator"],
                    replacements=proposal.parameters["replacements"],
                    report=datetime.fromisoformat(proposal.parameters["report"]),
                )
            )
    if ctx.swap_addresses_cause:  # an aircraft change does not lift an ATC slot
        for registration, sources in _tails(ctx).items():
            if not proposed_only or sources != ["generator"]:
                keep(_tail_swap(ctx, registration, sources))
    for agent, proposal in _proposals(ctx, "crew_swap"):
        delay = max(ctx.flight.delay_minutes, proposal.estimated_delay_minutes or 0)
        keep(
            operate(
                ctx,
                "crew_swap",
                delay,
                sources=[agent],
                replacements=proposal.parameters["replacements"],
                report=datetime.fromisoformat(proposal.parameters["report"]),
            )
        )
    if not proposed_only:
        _generated_crew_and_rescue(ctx, keep)
    for agent, proposal in _proposals(ctx, "divert"):
        keep(
            operate(
                ctx, "divert", ctx.flight.delay_minutes, sources=[agent], alternate=proposal.parameters["alternate"]
            )
        )
    records = (with_operation_records(ctx, s) for s in found.values())
    costed = records if proposed_only else (with_day_cost(ctx, s) for s in records)
    return sorted(costed, key=lambda s: s.scenario_id)


def _delay_plans(ctx: DisruptionContext, keep, proposed_only: bool) -> None:
    """A wait to each moment that matters (``_delays``), the same wait with the tail's later flights handed over to
    another aircraft (plans/hand_over.py) where the wait would make them late, and with a crew's next duty it
    leaves short of rest cancelled rather than re-timed."""
    waits = _waits(ctx)
    for delay, sources in _delays(ctx).items():
        if not proposed_only or sources != ["generator"]:
            plain = operate(ctx, "delay", delay, sources=sources)
            keep(annotated(plain, waits))
            if not proposed_only:
                handed = handed_over(ctx, delay)
                keep(annotated(handed, waits) if handed else None)
                keep(_next_duty_cancelled(ctx, delay, waits) if moves_a_later_duty(ctx, plain) else None)


def moves_a_later_duty(ctx: DisruptionContext, plan: Scenario) -> bool:
    """Whether the plan moves the report of a crew's duty on another flight (a knock-on's crew, or a next duty no
    reserve takes, re-timed): only then can cancelling a next duty instead be another plan."""
    return any(isinstance(a, RestCrew) and a.flight_id != ctx.flight.flight_id for a in plan.actions)


def _next_duty_cancelled(ctx: DisruptionContext, delay: int, waits) -> Scenario | None:
    """The wait with each next duty it leaves short of rest, and no reserve can take, cancelled instead of re-timed
    (crew/next_duty_cancel.py); None when the wait leaves no such duty."""
    plan = operate(ctx, "delay", delay, sources=["generator"], cancel_next_duties=True)
    if not plan.crew_next_duty_cancelled:
        return None
    return annotated(plan.model_copy(update={"title": f"{plan.title}, a crew's next duty cancelled"}), waits)


def _generated_crew_and_rescue(ctx: DisruptionContext, keep) -> None:
    """The generator's own crew and aircraft plans: a tail exchange, a reserve positioned on our flights, operating
    short, the crew rested, a rescue aircraft (with the crew re-timed or rested for it), the flight flown on from its
    alternate."""
    for exchange in exchange_scenarios(ctx):  # another aircraft's later flights wait for this tail instead
        keep(exchange)
    keep(positioned_crew_swap(ctx))
    keep(short_crew(ctx))  # an unavailable cabin crew member stands down; the rest meet the minimum (ORO.CC.100)
    for delay in dict.fromkeys([ctx.flight.delay_minutes, *_crew_limited(ctx)[:MAX_CREW_SWAP_DELAYS]]):
        rested = rested_crew_delay(ctx, delay)
        keep(rested)
        if rested is None:
            continue
        # the rotation handed over; a next duty re-timed in the plan cancelled instead
        for handed, cancel in ((True, False), (False, True), (True, True)):
            if not cancel or moves_a_later_duty(ctx, rested):
                keep(rested_crew_delay(ctx, delay, hand_over_rotation=handed, cancel_next_duties=cancel))
    for rescue in rescue_scenarios(ctx):
        keep(rescue)
        keep(with_crew_retimed(ctx, rescue))  # a crew waiting for the rescue reports later
        keep(rescue_after_rest(ctx, rescue))  # a crew already on duty rests first: the rescue flies after
    for continued in continuation_scenarios(ctx):  # a flight on the ground at its alternate flies on from there
        keep(continued)


def with_operation_records(ctx: DisruptionContext, scenario: Scenario) -> Scenario:
    """The scenario with what execution records beyond its decisions: the grounding the report stated (as a
    work order) and where every tail it touches ends up (AircraftAvailability)."""
    f = ctx.flight
    extra: list = [
        GroundAircraft(flight_id=f.flight_id, registration=f.aircraft_registration, work_order=dict(a.item))
        for a in ctx.handle.overlay.additions
        if a.table == schema.MAINTENANCE_WORK_ORDERS and a.item.get("aircraft_registration") == f.aircraft_registration
    ]
    tails = {f.aircraft_registration}
    tails |= {a.to_registration for a in scenario.actions if isinstance(a, SwapAircraft)}
    tails |= {a.registration for a in scenario.actions if isinstance(a, (FerryAircraft, ContinueFlight))}
    # a flight of another tail the plan re-times, cancels or diverts (a crew's next duty moved, say) moves where
    # that tail is too: a delay past midnight UTC leaves it at the origin, not at the destination, the next day
    moved = {a.flight_id for a in scenario.actions if isinstance(a, (DelayFlight, CancelFlight, DivertFlight))}
    tails |= {
        x.aircraft_registration
        for fid in sorted(moved - {f.flight_id})
        if (x := touched_flight(ctx, fid)) is not None and x.aircraft_registration
    }
    extra.append(RepositionFleet(flight_id=f.flight_id, registrations=sorted(tails)))
    return scenario.model_copy(update={"actions": [*scenario.actions, *extra]})


def _waits(ctx: DisruptionContext):
    """The waits for the cause to clear (clearance_wait.py), computed once per decision."""
    return ctx.memo(ClearanceWaits(), lambda: clearance_waits(ctx.flight, ctx.clears))


def _proposals(ctx: DisruptionContext, kind: str):
    for agent, response in sorted(ctx.collation.items()):
        for proposal in response.proposals:
            if (
                proposal.kind == kind
                and (kind != "crew_swap" or proposal.parameters.get("replacements"))
                and (kind != "divert" or proposal.parameters.get("alternate"))
            ):
                yield agent, proposal


def _delays(ctx: DisruptionContext) -> dict[int, list[str]]:
    """Delay candidates (minutes from the schedule, never earlier than the current estimate nor than the decision:
    a flight still held past its estimate when it is decided again leaves from now on) and who named them."""
    f = ctx.flight
    floor = max(f.delay_minutes, minutes_after(f.scheduled_departure, decision_time(f, ctx.now)))
    named: dict[int, set[str]] = {}

    def name(minutes: int | None, source: str, earliest: bool = True) -> None:
        """To 5 minutes: up for an earliest time (a release), down for a latest one (a crew limit)."""
        if minutes is None or minutes < floor:
            return
        rounded = (math.ceil if earliest else math.floor)(minutes / 5) * 5
        named.setdefault(minutes if minutes == floor or rounded < floor else int(rounded), set()).add(source)

    if floor:
        name(floor, "generator")
    if ctx.release_at:
        name(minutes_after(f.scheduled_departure, ctx.release_at), "generator")
    for minutes in _waits(ctx):  # until the cause clears, and until the estimate's upper bound
        name(minutes, "generator")
    if ctx.weather_window and ctx.weather_window[0] == f.destination:
        name(minutes_after(f.scheduled_arrival, ctx.weather_window[2]), "generator")
    for bound in ctx.bounds:
        if isinstance(bound, CrewMaxDelayBound):
            name(bound.max_delay_minutes, "generator", earliest=False)
    for agent, response in ctx.collation.items():
        for proposal in response.proposals:
            if proposal.kind == "delay" and proposal.parameters.get("delay_minutes") is not None:
                name(int(proposal.parameters["delay_minutes"]), agent)
    for minutes in sorted(named):  # a wait into a curfew waits it out: the next morning, its night's care counted
        later = after_curfews(ctx, minutes)
        if later is not None:
            named.setdefault(later, set()).add("generator")
    return {k: sorted(v) for k, v in sorted(named.items())}


def _crew_limited(ctx: DisruptionContext) -> list[int]:
    """Delays at which the rostered crew is not legal: worth a "delay and swap the crew" scenario. First the delays
    an agent proposed a reserve swap at — the earliest a called-out reserve reports; where the rest of the crew
    cannot take that delay either, they are relieved too (a sick captain's reserve 75 min late on a long-haul whose
    other twelve can take 55 min) —, then the waits for the cause to clear (with a reserve, the wait for a crew
    member is a crewed plan), then the other candidates, latest first."""
    limit = min((b.max_delay_minutes for b in ctx.bounds if isinstance(b, CrewMaxDelayBound)), default=None)
    illegal_from = min((b.from_delay_minutes for b in ctx.bounds if isinstance(b, CrewIllegalBound)), default=None)
    floor = ctx.flight.delay_minutes
    # an agent's swap at a delay where nobody else is illegal is already that plan: no second reserve search
    proposed = sorted(d for d, relieved in _proposed_swaps(ctx).items() if d >= floor and _illegal(ctx, d) - relieved)
    waits = _waits(ctx)
    limited = [
        d
        for d in dict.fromkeys([*proposed, *sorted(_delays(ctx), reverse=True)])
        if (limit is not None and d > limit) or (illegal_from is not None and d >= illegal_from)
    ]
    return sorted(limited, key=lambda d: (d not in proposed, d not in waits))


def _proposed_swaps(ctx: DisruptionContext) -> dict[int, set[str]]:
    """Delay → the crew ids the agents' reserve swaps at that delay relieve."""
    out: dict[int, set[str]] = {}
    for _, p in _proposals(ctx, "crew_swap"):
        if p.estimated_delay_minutes is not None:
            out.setdefault(p.estimated_delay_minutes, set()).update(p.parameters["replacements"])
    return out


def _illegal(ctx: DisruptionContext, delay: int) -> set[str]:
    """The rostered crew the crew rules find illegal on the flight at `delay` (the sick included)."""
    _, members, rosters = flight_roster(ctx, ctx.flight)
    return {r.crew_id for r in flight_crew_legality(ctx.flight.flight_id, members, rosters, delay) if not r.legal}


def _tails(ctx: DisruptionContext) -> dict[str, list[str]]:
    """Every compatible aircraft at the origin that day (generator) and every tail an agent proposed."""
    f = ctx.flight
    tails: dict[str, set[str]] = {}
    for ctype in compatible_types(f.aircraft_type):
        for day in q.fleet_of_type(ctx.handle, ctype, f.flight_date):
            if day.aircraft_registration != f.aircraft_registration and day.station == f.origin:
                tails.setdefault(day.aircraft_registration, set()).add("generator")
    for agent, response in ctx.collation.items():
        for proposal in response.proposals:
            registration = proposal.parameters.get("registration")
            if proposal.kind == "tail_swap" and registration and registration != f.aircraft_registration:
                tails.setdefault(registration, set()).add(agent)
    return {k: sorted(v) for k, v in sorted(tails.items())}


def grounded_at_origin(probe: TailSwapEligibility) -> bool:
    """An aircraft the swap rules refuse only because it is grounded (AOG, in maintenance, or not airworthy at the
    departure): the duty manager's first question ("what about the spare?"), answered by its refusal."""
    codes = {r.code for r in probe.refusals}
    return bool(codes) and codes <= {"UNAVAILABLE", "NOT_AIRWORTHY"}


def _tail_swap(ctx: DisruptionContext, registration: str, sources: list[str]) -> Scenario | None:
    f = ctx.flight
    departure = swap_departure(ctx)
    probe = swap_eligibility(ctx, registration, departure)
    if probe is None:
        return None
    if probe.eligible and probe.ready_at and probe.ready_at > departure:
        departure = probe.ready_at
    elif not probe.eligible and sources == ["generator"] and not grounded_at_origin(probe):
        # the generator proposes eligible aircraft, and those only grounded at the origin (AOG, in a check,
        # unairworthy): refused by validation, they say why no swap is possible; an agent's proposal is validated
        return None

    def swap(block: list) -> Scenario:
        return operate(
            ctx,
            "tail_swap",
            minutes_after(f.scheduled_departure, departure),
            sources=sources,
            registration=registration,
            aircraft_type=probe.aircraft_type,
            moved=probe.cabin_plan.offloaded + sum(probe.cabin_plan.downgraded.values()),
            notes=[n.message for n in probe.notes if n.code != "CONTINUITY_BREAK"],
            carried=block[1:],
        )

    return rotation_plan.first_whole(ctx, (swap(block) for block in rotation_plan.blocks(ctx)), lambda s: s.actions)


__all__ = ["cancellation", "describe", "generate", "operate"]
