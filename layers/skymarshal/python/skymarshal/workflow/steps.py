"""The work of each state-machine step, free of Lambda: Validate, Collate, Arbitrate, Execute, Learn.

Each function takes the step's input as the state machine passes it and returns the step's result as a
pydantic model (the handler dumps it). Data access comes in as arguments so tests and the local runner
call the same code the Lambdas do.
"""

from __future__ import annotations

import logging
import os
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from ..agents.disruption_facts import ReportContradictsData, report_disruption
from ..agents.extraction import extract_offline
from ..agents.graph import failure_response
from ..checkpoint.threads import BaseThreadRegistry, IllegalTransition, thread_id
from ..data import queries as q
from ..data.access import DataHandle
from ..data.schema import AGENTS, SAFETY_AGENTS
from ..models.agent_response import AgentResponse
from .audit_trail import AuditTrail
from .deployment import APPROVAL_TIMEOUT_ENV
from .models import (
    RESUME_SUFFIX,
    ApprovalDecision,
    DecisionSummary,
    DisruptionRequest,
    Escalation,
    ExecutionSummary,
    PhaseResult,
    RankedSummary,
    ValidatedRequest,
    field_error,
)
from .payloads import AGENT_INLINE_LIMIT, ArtifactStore, is_ref, run_key
from .tables import WorkflowTables

log = logging.getLogger("skymarshal.workflow")
DEFAULT_APPROVAL_TIMEOUT_S = 1800  # 30 minutes: company policy's approval window (knowledge/recovery-policy)
ARBITRATOR_THREAD = ("arbitrator", "arbitration")
STATE_KEYS = ("request", "phase1", "phase2", "decision", "approval", "execution", "escalation", "outcome")


class InvalidDisruption(Exception):
    """The request cannot be analysed; the message says what was wrong and what to do."""


def approval_timeout_seconds(*, tables: WorkflowTables) -> int:
    """The Admin's saved setting (workflow/settings.py) when there is one, else the deployment's environment."""
    from .settings import load

    stored = load(tables=tables)
    return stored.approval_timeout_minutes * 60 if stored else environment_timeout_seconds()


def environment_timeout_seconds() -> int:
    raw = os.environ.get(APPROVAL_TIMEOUT_ENV, str(DEFAULT_APPROVAL_TIMEOUT_S))
    try:
        value = int(raw)
    except ValueError:
        raise InvalidDisruption(f"{APPROVAL_TIMEOUT_ENV}={raw!r} is not a whole number of seconds") from None
    return max(1, value)


def environment_settings():
    """The settings as the deployment sets them (what GET /settings shows before an Admin saves any)."""
    from .settings import RunSettings

    return RunSettings(approval_timeout_minutes=max(1, round(environment_timeout_seconds() / 60)))


# ------------------------------------------------------------------------------------------- Validate


def validate(
    payload: Any,
    *,
    execution_name: str,
    handle: DataHandle,
    tables: WorkflowTables,
    store: ArtifactStore,
    now: datetime | None = None,
    trail: AuditTrail | None = None,
) -> dict[str, Any]:
    """The execution input → the run's initial state, or InvalidDisruption before any agent runs."""
    if not isinstance(payload, dict):
        raise InvalidDisruption(
            f"the execution input must be a JSON object with disruption_id and prompt, got {type(payload).__name__}"
        )
    try:
        request = DisruptionRequest.model_validate(payload)
    except ValidationError as exc:
        raise InvalidDisruption(field_error(exc, "disruption request")) from None
    base_name = execution_name.split(RESUME_SUFFIX)[0]
    if base_name != request.disruption_id:
        raise InvalidDisruption(
            f"execution {execution_name!r} does not belong to disruption {request.disruption_id!r}: "
            "start it with the disruption id as its name (a duplicate event then starts nothing new)"
        )

    def flight_dates(number: str):
        return [f.flight_date for f in q.flights_by_number(handle, number)]

    extraction = extract_offline(request.prompt, now=now or request.reported_at, flight_dates=flight_dates)
    info = extraction.flight_info
    if not extraction.ok or info is None:
        raise InvalidDisruption(extraction.message)
    flight = q.find_flight(handle, info.flight_number, info.date)
    if flight is None:
        raise InvalidDisruption(
            f"{info.flight_number} on {info.date} is not in the schedule: check the flight and date"
        )
    try:
        disruption = report_disruption(request.prompt, flight)
    except ReportContradictsData as exc:
        raise InvalidDisruption(str(exc)) from None
    validated = ValidatedRequest(
        disruption_id=request.disruption_id,
        execution_name=execution_name,
        prompt=request.prompt,
        source=request.source,
        requested_by=request.requested_by,
        reported_at=request.reported_at,
        flight_number=flight.flight_number,
        flight_date=info.date.isoformat(),
        flight_id=flight.flight_id,
        description=info.disruption_description,
        agents=list(AGENTS),
        approval_timeout_seconds=approval_timeout_seconds(tables=tables),
        disruption=disruption,
    )
    state: dict[str, Any] = dict.fromkeys(STATE_KEYS)
    state["request"] = validated.model_dump(mode="json")
    store.put(run_key(request.disruption_id, "request"), state["request"])
    if trail is not None:
        trail.append(
            request.disruption_id,
            "request",
            f"request:{execution_name}",
            {
                "prompt": request.prompt,
                "source": request.source,
                "flight_id": flight.flight_id,
                "resume": request.resume,
                "iata_delay_code": disruption.iata_delay_code,
                "scope": disruption.scope.kind,
                "artifact": trail.artifact(store.bucket, run_key(request.disruption_id, "request")),
            },
            actor=request.requested_by or request.source,
            execution_name=execution_name,
        )
    if request.resume:  # an earlier run's finished phases are not run again
        for key, phase in (("phase1", "initial"), ("phase2", "revision")):
            saved = store.get(run_key(request.disruption_id, f"phase-{phase}"))
            if saved is None:
                break
            state[key] = PhaseResult.model_validate({**saved, "reused": True}).model_dump(mode="json")
    return state


# -------------------------------------------------------------------------------------------- Collate


def agent_result(response: AgentResponse, *, disruption_id: str, store: ArtifactStore | None) -> dict[str, Any]:
    """What an agent Lambda returns to its Map: the response, or a reference when it is large."""
    body = response.model_dump(mode="json")
    if store is None:
        return body
    ref = store.ref(body, run_key(disruption_id, f"agent-{response.phase}-{response.agent_name}"), AGENT_INLINE_LIMIT)
    if ref.key is None:
        return body
    return {"agent_name": response.agent_name, "status": response.status, "ref": ref.model_dump(mode="json")}


def _response(entry: Any, phase: str, store: ArtifactStore) -> AgentResponse:
    if not isinstance(entry, dict) or "agent_name" not in entry:
        raise ValueError(f"a {phase} Map result is not an agent result: {str(entry)[:200]}")
    agent = entry["agent_name"]
    if "ref" in entry:
        return AgentResponse.model_validate(store.resolve(entry["ref"]))
    if "error" in entry and "recommendation" not in entry:  # the Map's Catch: the Lambda itself failed
        cause = str(entry.get("cause") or "")[:500]
        return failure_response(
            agent, phase, {}, f"the {agent} Lambda failed: {entry['error']}: {cause}", status="error"
        )
    try:
        return AgentResponse.model_validate(entry)
    except ValidationError:  # e.g. the handler's own input_error for a malformed event
        return failure_response(
            agent,
            phase,
            {},
            str(entry.get("message") or "the agent returned an unreadable result"),
            status="input_error" if entry.get("status") == "input_error" else "error",
        )


def collate(
    phase: str,
    results: list,
    *,
    disruption_id: str,
    store: ArtifactStore,
    execution_name: str | None = None,
    trail: AuditTrail | None = None,
) -> PhaseResult:
    """The Map's seven results → the collation (checkpointed in S3) and what the safety gate needs."""
    responses = {r.agent_name: r for r in (_response(e, phase, store) for e in results)}
    for agent in AGENTS:  # a missing result is a failed agent, never silently absent
        responses.setdefault(agent, failure_response(agent, phase, {}, "no result from the Map", status="error"))
    collation = {a: responses[a].model_dump(mode="json") for a in AGENTS}
    statuses = {a: responses[a].status for a in AGENTS}
    result = PhaseResult(
        phase=phase,
        collation=store.save(run_key(disruption_id, f"collation-{phase}"), collation),
        statuses=statuses,
        failed=[a for a in AGENTS if statuses[a] != "ok"],
        # As the arbitrator reads it: a safety agent that did not answer "ok" cannot clear the flight.
        safety_failed=any(statuses[a] != "ok" for a in SAFETY_AGENTS),
    )
    store.put(run_key(disruption_id, f"phase-{phase}"), result.model_dump(mode="json"))
    if trail is not None:
        trail.append(
            disruption_id,
            "round",
            f"round:{phase}:{execution_name}",
            {
                "phase": phase,
                "statuses": statuses,
                "safety_failed": result.safety_failed,
                "artifact": trail.artifact(store.bucket, run_key(disruption_id, f"collation-{phase}")),
            },
            actor="collate",
            execution_name=execution_name,
        )
    return result


def resolve_others(others: Any, store: ArtifactStore | None) -> dict | None:
    """The revision round's `others`: the collation itself, or a reference to it."""
    if others is None or not is_ref(others):
        return others
    if store is None:
        raise ValueError("the collation is in S3 but no artifact store is configured")
    return store.resolve(others)


# ------------------------------------------------------------------------------------------ Arbitrate


def arbitrate_step(
    state: dict,
    *,
    handle: DataHandle,
    store: ArtifactStore,
    registry: BaseThreadRegistry,
    now: datetime | None = None,
    trail: AuditTrail | None = None,
    **arbitrate_kwargs,
) -> DecisionSummary:
    from ..arbitration.arbitrator import arbitrate

    request = ValidatedRequest.model_validate(state["request"])
    collation = store.resolve(state["phase2"]["collation"])
    previous = DecisionSummary.model_validate(state["decision"]) if state.get("decision") else None
    approval = ApprovalDecision.model_validate(state["approval"]) if state.get("approval") else None
    excluded, instruction, attempt = [], None, 1
    if previous and approval and approval.action == "alternatives":
        excluded = previous.excluded + [r.scenario_id for r in previous.ranked]
        instruction, attempt = approval.instruction, previous.attempt + 1
    registry.start(request.execution_name, *ARBITRATOR_THREAD, detail={"attempt": attempt, "excluded": excluded})
    output = arbitrate(
        collation,
        request.prompt,
        handle=handle,
        now=now,
        exclude=frozenset(excluded),
        disruption=request.disruption,
        instruction=instruction,
        **arbitrate_kwargs,
    )
    ref = store.save(
        run_key(request.disruption_id, f"decision-{attempt}"), output.model_dump(mode="json"), inline_limit=0
    )
    ranked = [
        RankedSummary(
            rank=r.rank,
            scenario_id=r.scenario.scenario_id,
            title=r.scenario.title,
            kind=r.scenario.kind,
            score=round(r.score, 4),
            confidence=round(r.confidence, 4),
            delay_minutes=r.scenario.delay_minutes,
            cost_usd=round(r.scenario.cost_usd, 2),
        )
        for r in output.ranked
    ]
    registry.record(
        thread_id(request.execution_name, *ARBITRATOR_THREAD),
        "decision",
        confidence=output.confidence,
        detail={"status": output.status, "ranked": [r.scenario_id for r in ranked]},
    )
    if trail is not None:
        trail.append(
            request.disruption_id,
            "decision",
            f"decision:{request.execution_name}:{attempt}",
            {
                "attempt": attempt,
                "status": output.status,
                "confidence": round(output.confidence, 4),
                "ranked": [r.model_dump(mode="json") for r in ranked],
                "excluded": excluded,
                "instruction": instruction,
                "artifact": trail.artifact(store.bucket, run_key(request.disruption_id, f"decision-{attempt}")),
            },
            actor="arbitrator",
            execution_name=request.execution_name,
        )
    return DecisionSummary(
        status=output.status,
        has_plan=bool(ranked),
        final_decision=output.final_decision,
        confidence=round(output.confidence, 4),
        ranked=ranked,
        escalations=[e.code for e in output.escalations],
        attempt=attempt,
        excluded=excluded,
        instruction=instruction,
        output=ref,
    )


# -------------------------------------------------------------------------------------------- Execute


def chosen_scenario(state: dict, store: ArtifactStore):
    """The scenario the duty manager approved or selected, from the arbitrator's full output."""
    from ..arbitration.models import ArbitratorOutput

    decision = DecisionSummary.model_validate(state["decision"])
    approval = ApprovalDecision.model_validate(state["approval"])
    wanted = approval.scenario_id or (decision.ranked[0].scenario_id if decision.ranked else None)
    output = ArbitratorOutput.model_validate(store.resolve(decision.output))
    for ranked in output.ranked:
        if ranked.scenario.scenario_id == wanted:
            return ranked.scenario
    raise ValueError(
        f"scenario {wanted!r} is not one of the ranked plans: "
        + ", ".join(r.scenario.scenario_id for r in output.ranked)
    )


def execute_step(
    state: dict,
    *,
    store: ArtifactStore,
    tables: WorkflowTables,
    registry: BaseThreadRegistry | None = None,
    trail: AuditTrail | None = None,
) -> ExecutionSummary:
    from .execution import execute

    request = ValidatedRequest.model_validate(state["request"])
    scenario = chosen_scenario(state, store)
    report = execute(scenario, execution_id=request.execution_name, tables=tables)
    store.put(run_key(request.disruption_id, "execution"), report.model_dump(mode="json"))
    if trail is not None:
        trail.append(
            request.disruption_id,
            "execution",
            f"execution:{request.execution_name}",
            {
                "status": report.status,
                "scenario_id": scenario.scenario_id,
                "actions": report.actions,
                "error": report.error,
                "artifact": trail.artifact(store.bucket, run_key(request.disruption_id, "execution")),
            },
            actor="execute",
            execution_name=request.execution_name,
        )
    if registry is not None:
        _close_arbitration(
            registry,
            request.execution_name,
            "completed" if report.status == "executed" else "failed",
            {"scenario_id": scenario.scenario_id, "execution": report.status},
        )
    return ExecutionSummary(
        status=report.status,
        scenario_id=scenario.scenario_id,
        actions=report.actions,
        error=report.error,
        reason_code=report.reason_code,
    )


def _close_arbitration(registry: BaseThreadRegistry, execution_name: str, status: str, detail: dict) -> None:
    """Mark the arbitration thread with the run's human outcome (rejected, escalated, completed, failed)."""
    tid = thread_id(execution_name, *ARBITRATOR_THREAD)
    if registry.get(tid) is None:  # escalated before arbitration: the thread never started
        registry.start(execution_name, *ARBITRATOR_THREAD, detail={"escalated_before_arbitration": True})
    try:
        current = registry.status(tid)
        if status == "completed" and current == "running":
            registry.complete(tid, detail=detail)
        elif status == "failed":
            registry.fail(tid, detail.get("execution", "failed"), detail=detail)
        elif status != current:
            registry.set_status(tid, status, actor=detail.get("decided_by"), detail=detail)
    except IllegalTransition as exc:  # a retried step finds the thread already closed
        log.info("arbitration thread already closed: %s", exc)


def close_arbitration(state: dict, registry: BaseThreadRegistry) -> None:
    """Learn's view of the human outcome for the arbitration thread (execution closes its own)."""
    request = ValidatedRequest.model_validate(state["request"])
    approval = state.get("approval") or {}
    if state.get("escalation"):
        reason = Escalation.model_validate(state["escalation"]).reason
        _close_arbitration(registry, request.execution_name, "escalated", {"reason": reason})
    elif approval.get("action") == "reject":
        _close_arbitration(
            registry,
            request.execution_name,
            "rejected",
            {"decided_by": approval.get("decided_by"), "comment": approval.get("comment")},
        )
