"""The debate's positions read only the plans the agents proposed (debate/assess.py): generating those alone gives
every agent-proposed plan the full generation gives, with the same verdict, and none of the generator's own — so
the positions after each round cost a fraction of an arbitration, not another one."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from reported import flight_of

from skymarshal.arbitration.context import load_context
from skymarshal.arbitration.plans.generator import generate
from skymarshal.arbitration.validation.scenario import validate
from skymarshal.intake.disruption_facts import resolve_flight_report
from skymarshal.models.agent_response import AgentResponse
from skymarshal.workflow.steps.rounds import run_rounds

REPORTS = [
    "Flight EY123 on January 20th had a mechanical failure",
    "EY20 on January 21st will go late as the commander has not reported for duty",
]


@pytest.mark.parametrize("report", REPORTS)
def test_the_agents_plans_alone_are_the_full_generation_s_agent_plans(account, report):
    handle = account.handle()
    flight = flight_of(handle, report)
    disruption, overlay = resolve_flight_report(report, flight, handle, None)
    revised = run_rounds(report, handle=handle, llm=None, disruption=disruption, overlay=overlay)[1]
    collation = {a: AgentResponse.model_validate(r) for a, r in revised.items()}
    patched = handle.with_overlay(overlay)
    now = datetime(2027, 1, 19, 12, tzinfo=UTC)

    def verdicts(proposed_only: bool) -> dict[str, tuple]:
        ctx = load_context(report, flight, collation, patched, now, disruption)
        return {
            s.scenario_id: (
                tuple(s.sources),
                validate(ctx, s).valid,
                sorted(r.code for r in validate(ctx, s).rejections),
            )
            for s in generate(ctx, proposed_only=proposed_only)
        }

    full, proposed = verdicts(False), verdicts(True)
    by_agents = {k: v for k, v in full.items() if set(v[0]) - {"generator"}}
    assert by_agents, "the agents proposed nothing: the test would show nothing"
    assert proposed == by_agents
