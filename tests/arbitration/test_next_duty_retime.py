"""A delay that leaves the crew short of rest before their next rostered duty, with no reserve to take it: the plan
moves that duty's report as late as the rest needs and its first flight leaves accordingly, with the knock-on on
its tail (crew/next_duty_retime.py) — where before the plan was refused CREW_CHAIN_BROKEN, "no legal reserve
re-crews it". Seeded rotations at AUH (an A320 out-and-back, a B787) whose crews are legal at the delay but short
of rest before the next day's duty; and the demo's EY101 crew, rested, whose next day's EY102 reports later."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from reported import flight_of, reported

from skymarshal.arbitration.actions import DelayFlight, ReassignCrew, RestCrew
from skymarshal.arbitration.arbitrator import arbitrate
from skymarshal.arbitration.context import load_context
from skymarshal.arbitration.crew.chain import chain_shortfalls, next_duty
from skymarshal.arbitration.plans.operate import operate
from skymarshal.arbitration.rotation.plan import plan_breaks
from skymarshal.arbitration.validation.scenario import validate
from skymarshal.data import queries as q
from skymarshal.intake.corrected_facts import bare_disruption
from skymarshal.models.agent_response import AgentResponse

NO_RESERVE = "no legal reserve re-crews it"


def moved_next_duties(ctx, plan) -> dict[str, RestCrew]:
    """The plan's moved next duties of the disrupted flight's crew: {first flight of that duty: RestCrew}."""
    out: dict[str, RestCrew] = {}
    for a in plan.actions:
        if isinstance(a, RestCrew) and a.flight_id != ctx.flight.flight_id:
            mine = {
                c: at
                for c, at in a.reports.items()
                if (found := next_duty(ctx, c, ctx.flight)) and found[0] == a.flight_id
            }
            if mine:
                told = out.get(a.flight_id)
                out[a.flight_id] = a.model_copy(update={"reports": {**(told.reports if told else {}), **mine}})
    return out


@pytest.mark.parametrize(("flight_id", "delay"), [("EY323-20270119", 180), ("EY406-20270119", 120)])
def test_a_next_duty_no_reserve_takes_reports_once_the_crew_is_rested(account, flight_id, delay):
    handle = account.handle()
    flight = q.get_flight(handle, flight_id)
    assert flight is not None
    ctx = load_context(
        "", flight, {}, handle, flight.scheduled_departure - timedelta(hours=2), bare_disruption(flight, [], 93)
    )
    short = chain_shortfalls(ctx, flight, delay, [], [])
    assert short, "the case: the crew is short of rest before the next duty at this delay"
    plan = operate(ctx, "delay", delay, sources=["test"])
    reserves = {c for a in plan.actions if isinstance(a, ReassignCrew) for c in a.replacements}
    moved = moved_next_duties(ctx, plan)
    reports = {c: at for rest in moved.values() for c, at in rest.reports.items()}
    delays = {a.flight_id: a for a in plan.actions if isinstance(a, DelayFlight)}
    assert reports, "the case: no reserve for some of them"
    for crew_id, minutes in short.items():
        assert crew_id in reserves or crew_id in reports, crew_id  # a reserve takes the duty, or it moves
        if crew_id in reports:
            first, duty = next_duty(ctx, crew_id, flight)  # type: ignore[misc]
            assert reports[crew_id] - duty.report >= timedelta(minutes=minutes)  # the minimum rest is met
            seat = next(r for r in ctx.roster(crew_id, flight.scheduled_departure) if r.flight_id == first)
            now = q.get_flight(handle, first)
            assert now is not None
            leaves = delays[first].new_departure if first in delays else now.departure
            assert leaves - seat.sector_departure >= reports[crew_id] - duty.report  # not before the crew is there
    assert not [b for b in plan_breaks(ctx, plan.actions) if b.continuity]  # the re-timed tails fly in sequence
    checked = validate(ctx, plan)
    assert not [r for r in checked.rejections if NO_RESERVE in r.message], checked.rejections


@pytest.fixture(scope="module")
def crew_timeout(account, demo_collations):
    prompt, collation = demo_collations["crew_timeout"]
    handle = account.handle()
    flight, disruption, now = flight_of(handle, prompt), reported(handle, prompt), datetime.now(UTC)
    decision = arbitrate(collation, prompt, handle=handle, llm=None, disruption=disruption, now=now)
    responses = {a: AgentResponse.model_validate(r) for a, r in collation.items()}
    return load_context(prompt, flight, responses, handle, now, disruption), decision


def test_a_rested_crews_next_duty_reports_after_their_rest_instead_of_wanting_a_reserve(crew_timeout):
    ctx, decision = crew_timeout
    considered = [r.scenario for r in decision.ranked] + [v.scenario for v in decision.rejected]
    rested = [s for s in considered if s.crew_rested and moved_next_duties(ctx, s)]
    assert rested, [s.scenario_id for s in considered]
    for v in decision.rejected:
        if v.scenario in rested:
            assert not [r for r in v.rejections if NO_RESERVE in r.message], v.scenario.scenario_id
