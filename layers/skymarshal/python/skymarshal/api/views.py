"""The API's read views of a run: its progress (phases, agents, states) and its decision (the top three plans and
everything shown above them), from the execution's description and the arbitrator's stored output."""

from __future__ import annotations

import json

from ..workflow.client import WorkflowClient, phase_of
from . import models as m
from .plans import phase_spans


def run_progress(wf: WorkflowClient, disruption_id: str) -> m.RunProgress:
    described = wf.describe(disruption_id)
    progress = wf.progress(disruption_id)
    output = json.loads(described["output"]) if described.get("output") else None
    request = json.loads(described.get("input") or "{}")
    return m.RunProgress(
        disruption_id=disruption_id,
        status=progress.status,
        phase=phase_of(progress),
        current_state=progress.current,
        awaiting_approval=progress.awaiting_approval,
        prompt=request.get("prompt"),
        agents=[
            m.AgentStatus(phase=p, agent=a, status=v.status, seconds=v.seconds)
            for (p, a), v in sorted(progress.agents.items())
        ],
        states=[m.StateEntered(name=n, at=t) for n, t in progress.states],
        phases=phase_spans(progress.states, described.get("stopDate")),
        outcome=(output or {}).get("outcome"),
        started_at=described["startDate"],
        stopped_at=described.get("stopDate"),
    )


def decision_view(disruption_id: str, output: dict, *, awaiting_approval: bool, attempt: int | None) -> m.DecisionView:
    cards = []
    for ranked in output.get("ranked", [])[:3]:
        scenario = ranked["scenario"]
        cards.append(
            m.ScenarioCard(
                rank=ranked["rank"],
                scenario_id=scenario["scenario_id"],
                title=scenario["title"],
                kind=scenario["kind"],
                score=ranked["score"],
                confidence=ranked["confidence"],
                delay_minutes=scenario["delay_minutes"],
                cost_usd=scenario["cost_usd"],
                passengers_impacted=scenario["passengers_impacted"],
                rationale=ranked["rationale"],
                pros=ranked["pros"],
                cons=ranked["cons"],
                compliance=ranked["compliance"],
                actions=scenario["actions"],
            )
        )
    return m.DecisionView(
        disruption_id=disruption_id,
        status=output.get("status", "decided"),
        final_decision=output["final_decision"],
        confidence=output["confidence"],
        justification=output.get("justification", ""),
        awaiting_approval=awaiting_approval,
        attempt=attempt,
        top=cards,
        escalations=output.get("escalations", []),
        citations=output.get("citations", []),
        disruption=output.get("disruption"),
        llm_overrides=output.get("llm_overrides", []),
        instruction=output.get("instruction"),
        removed_by_instruction=output.get("removed_by_instruction", []),
        debate=output.get("debate"),
    )
