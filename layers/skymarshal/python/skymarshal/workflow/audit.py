"""The Learn step (history record, metrics, audit document) and the audit document itself.

The audit document answers "what was decided, on what evidence, by whom, and what was done": the prompt,
both rounds, every arbitration attempt, each approval request and answer, the actions and their events,
the outcome, and every timestamp. It is assembled from the run's artifacts in S3 and the approval and
execution items in DynamoDB, so it can be rebuilt for a run that failed half way.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

import boto3
from boto3.dynamodb.conditions import Key

from ..data.schema import CHECKPOINTS, Naming
from .models import ApprovalDecision, Escalation, ExecutionSummary, Outcome, ValidatedRequest
from .payloads import RUNS_PREFIX, ArtifactStore, run_key


def run_status(state: dict) -> str:
    if state.get("escalation"):
        return "escalated"
    if (state.get("approval") or {}).get("action") == "reject":
        return "rejected"
    execution = state.get("execution") or {}
    return "executed" if execution.get("status") == "executed" else "failed"


def _approvals(execution_names: list[str], resource: Any, naming: Naming) -> list[dict]:
    table = (resource or boto3.resource("dynamodb")).Table(naming(CHECKPOINTS))
    out = []
    for name in execution_names:
        for item in table.query(KeyConditionExpression=Key("PK").eq(f"APPROVAL#{name}")).get("Items", []):
            out.append({"execution_name": name, "attempt": int(item["SK"].split("#")[1]), "status": item["status"],
                        "requested_at": item.get("requested_at"), "expires_at": item.get("expires_at"),
                        "decided_by": item.get("decided_by"), "decided_at": item.get("decided_at"),
                        "answer": json.loads(item["answer"]) if item.get("answer") else None})
    return out


def _decisions(store: ArtifactStore, disruption_id: str) -> list[dict]:
    listing = store.client.list_objects_v2(Bucket=store.bucket, Prefix=f"{RUNS_PREFIX}/{disruption_id}/decision-")
    keys = sorted((o["Key"] for o in listing.get("Contents", [])), key=lambda k: int(k.rsplit("-", 1)[1].split(".")[0]))
    return [store.get(k) for k in keys]


def audit_document(disruption_id: str, execution_names: list[str], *, store: ArtifactStore, resource: Any = None,
                   naming: Naming | None = None, state: dict | None = None, executions: list[dict] | None = None) -> dict:
    """Everything recorded about one disruption's run(s), newest execution last."""
    from .execution import execution_events

    naming = naming or Naming.from_env()
    events = [e.model_dump(mode="json") for name in execution_names
              for e in execution_events(name, resource=resource, naming=naming)]
    request = (state or {}).get("request") or store.get(run_key(disruption_id, "request"))
    return {
        "disruption_id": disruption_id,
        "executions": executions or [{"name": n} for n in execution_names],
        "prompt": (request or {}).get("prompt"),
        "request": request,
        "rounds": {"initial": store.get(run_key(disruption_id, "collation-initial")),
                   "revision": store.get(run_key(disruption_id, "collation-revision"))},
        "decisions": _decisions(store, disruption_id),
        "approvals": _approvals(execution_names, resource, naming),
        "execution": store.get(run_key(disruption_id, "execution")),
        "execution_events": events,
        "escalation": (state or {}).get("escalation"),
        "outcome": (state or {}).get("outcome"),
        "assembled_at": datetime.now(timezone.utc).isoformat(),
    }


def learn_step(state: dict, *, store: ArtifactStore, handle, resource: Any = None, naming: Naming | None = None,
               registry=None, metrics=None, trail=None) -> Outcome:
    """Record the run in DisruptionHistory (once), count acceptance and overrides, write the audit document."""
    from ..arbitration.models import ArbitratorOutput
    from ..data import queries as q
    from . import learning
    from .steps import close_arbitration

    request = ValidatedRequest.model_validate(state["request"])
    status = run_status(state)
    approval = ApprovalDecision.model_validate(state["approval"]) if state.get("approval") else None
    decision_state = state.get("decision")
    output = ArbitratorOutput.model_validate(store.resolve(decision_state["output"])) if decision_state else None
    execution = ExecutionSummary.model_validate(state["execution"]) if state.get("execution") else None
    escalation = Escalation.model_validate(state["escalation"]) if state.get("escalation") else None
    report = store.get(run_key(request.disruption_id, "execution")) if execution else None
    if registry is not None:
        close_arbitration(state, registry)
    history_id = None
    if output is not None and output.ranked:  # nothing to learn from a run that never had a plan
        from .execution import ExecutionReport

        record = learning.learning_record(
            execution_id=request.execution_name, prompt=request.prompt, decision=output,
            chosen_scenario_id=execution.scenario_id if execution else None,
            decided_by=approval.decided_by if approval else None,
            approval_action=approval.action if approval else ("timeout" if escalation and escalation.reason ==
                                                              "APPROVAL_TIMEOUT" else "escalated"),
            report=ExecutionReport.model_validate(report) if report else None, occurred_at=request.reported_at,
            flight=q.get_flight(handle, request.flight_id))
        learning.record_learning(record, resource=resource, naming=naming)
        history_id = record.disruption_id
        if metrics is not None:
            from aws_lambda_powertools.metrics import MetricUnit

            metrics.add_metric(name="PlanAccepted" if not record.overridden else "PlanOverridden",
                               unit=MetricUnit.Count, value=1)
    if metrics is not None:
        from aws_lambda_powertools.metrics import MetricUnit

        metrics.add_metric(name=f"Run{status.title()}", unit=MetricUnit.Count, value=1)
    message = {"executed": f"executed {execution.scenario_id}: {len(execution.actions)} action(s)" if execution else "",
               "rejected": f"rejected by {approval.decided_by if approval else '?'}; nothing changed",
               "escalated": f"escalated ({escalation.reason if escalation else '?'}): {escalation.message if escalation else ''}",
               "failed": f"execution of {execution.scenario_id if execution else '?'} failed and was rolled back: "
                         f"{execution.error if execution else ''}"}[status]
    outcome = Outcome(status=status, history_id=history_id, message=message.strip())
    if trail is not None:
        trail.append(request.disruption_id, "outcome", f"outcome:{request.execution_name}", {
            **outcome.model_dump(mode="json", exclude={"audit"}),
            "escalation": escalation.model_dump(mode="json") if escalation else None},
            actor="learn", execution_name=request.execution_name)
    document = audit_document(request.disruption_id, [request.execution_name], store=store, resource=resource,
                              naming=naming, state={**state, "outcome": outcome.model_dump(mode="json")})
    audit = store.save(run_key(request.disruption_id, "audit"), document, inline_limit=0)
    return outcome.model_copy(update={"audit": audit})
