"""Human approval: the Await approval step's pending request, and the duty manager's answer to it.

The step's Lambda (`lambda:invoke.waitForTaskToken`) stores the task token with the decision summary in
the Checkpoints table and returns; the execution waits. `decide` — from the CLI now, the API later —
claims the request with a conditional update (so a second answer is refused, not applied twice) and
sends the answer as the task's output. Items:

  PK = "APPROVAL#<execution name>"   SK = "ATTEMPT#<n>"   (n = arbitration attempt; alternatives add one)
  status pending|decided, task_token, requested_at, expires_at, decision (JSON), answer (JSON), ttl
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta

from ..checkpoint.config import ttl_seconds
from ..checkpoint.threads import BaseThreadRegistry, IllegalTransition, thread_id
from .audit.trail import AuditTrail
from .aws.dynamodb import Key
from .aws.errors import ClientError
from .aws.sfn import SfnTaskTokens
from .models import RESUME_SUFFIX, ApprovalDecision, DecisionSummary
from .ports import ServiceError, TaskTokens
from .tables import WorkflowTables

PREFIX = "APPROVAL#"


class ApprovalError(Exception):
    """Base of the typed refusals; `code` is what an API maps to a status (404, 409, 400)."""

    code = "APPROVAL_ERROR"


class NoPendingApproval(ApprovalError):
    code = "NOT_FOUND"


class AlreadyDecided(ApprovalError):
    code = "CONFLICT"


class UnknownScenario(ApprovalError):
    code = "BAD_REQUEST"


class ApprovalExpired(ApprovalError):
    code = "CONFLICT"


def disruption_of(execution_name: str, item: dict | None = None) -> str:
    """The disruption an execution is about: stored with its approval request (the execution's name is free,
    e.g. a "New execution" from the Step Functions console), else read from a resumed run's name."""
    if item and item.get("disruption_id"):
        return str(item["disruption_id"])
    return execution_name.split(RESUME_SUFFIX)[0]


def request_approval(
    *,
    task_token: str,
    execution_name: str,
    decision: DecisionSummary,
    timeout_seconds: int,
    tables: WorkflowTables,
    disruption_id: str | None = None,
    registry: BaseThreadRegistry | None = None,
    now: datetime | None = None,
    trail: AuditTrail | None = None,
) -> dict:
    """Store the pending request (idempotent: a retried step keeps the first token's item)."""
    now = now or datetime.now(UTC)
    disruption_id = disruption_id or disruption_of(execution_name)
    item = {
        "PK": f"{PREFIX}{execution_name}",
        "SK": f"ATTEMPT#{decision.attempt:03d}",
        "status": "pending",
        "task_token": task_token,
        "execution_name": execution_name,
        "disruption_id": disruption_id,
        "requested_at": now.isoformat(),
        "expires_at": (now + timedelta(seconds=timeout_seconds)).isoformat(),
        "decision": decision.model_dump_json(),
        "ttl": int(time.time()) + ttl_seconds(),
    }
    try:
        tables.checkpoints.put_item(Item=item, ConditionExpression="attribute_not_exists(PK)")
    except ClientError as exc:
        if exc.response["Error"]["Code"] != "ConditionalCheckFailedException":
            raise
    if registry is not None:
        _set_thread(registry, execution_name, "awaiting_approval", None, {"attempt": decision.attempt})
    if trail is not None:
        trail.append(
            disruption_id,
            "approval_requested",
            f"approval_requested:{execution_name}:{decision.attempt}",
            {
                "attempt": decision.attempt,
                "expires_at": item["expires_at"],
                "ranked": [r.scenario_id for r in decision.ranked],
            },
            actor="request_approval",
            execution_name=execution_name,
        )
    return {"execution_name": execution_name, "attempt": decision.attempt, "expires_at": item["expires_at"]}


def latest(execution_name: str, *, tables: WorkflowTables) -> dict | None:
    """The newest approval item of the execution (pending or decided), or None."""
    items = tables.checkpoints.query(
        KeyConditionExpression=Key("PK").eq(f"{PREFIX}{execution_name}"), ScanIndexForward=False, Limit=1
    ).get("Items", [])
    return items[0] if items else None


def decide(
    execution_name: str,
    answer: ApprovalDecision,
    *,
    tables: WorkflowTables,
    tokens: TaskTokens | None = None,
    registry: BaseThreadRegistry | None = None,
    trail: AuditTrail | None = None,
) -> dict:
    """Answer the pending approval; raises a typed ApprovalError when it cannot be answered."""
    item = latest(execution_name, tables=tables)
    if item is None:
        raise NoPendingApproval(
            f"execution {execution_name!r} has no approval request (unknown id, or still analysing)"
        )
    if item["status"] != "pending":
        raise AlreadyDecided(
            f"execution {execution_name!r} was already decided by {item.get('decided_by')} at {item.get('decided_at')}"
        )
    if datetime.fromisoformat(item["expires_at"]) < datetime.now(UTC):
        raise ApprovalExpired(
            f"the approval window of {execution_name!r} closed at {item['expires_at']}; the run was escalated"
        )
    decision = DecisionSummary.model_validate_json(item["decision"])
    ranked = [r.scenario_id for r in decision.ranked]
    if answer.scenario_id and answer.scenario_id not in ranked:
        raise UnknownScenario(f"scenario {answer.scenario_id!r} is not one of the ranked plans: {', '.join(ranked)}")
    if answer.action == "approve" and not answer.scenario_id:
        answer = answer.model_copy(update={"scenario_id": ranked[0] if ranked else None})
    try:  # claim it first: of two concurrent answers exactly one reaches the execution
        tables.checkpoints.update_item(
            Key={"PK": item["PK"], "SK": item["SK"]},
            ConditionExpression="#s = :pending",
            UpdateExpression="SET #s = :decided, decided_by = :by, decided_at = :at, answer = :answer",
            ExpressionAttributeNames={"#s": "status"},
            ExpressionAttributeValues={
                ":pending": "pending",
                ":decided": "decided",
                ":by": answer.decided_by,
                ":at": answer.decided_at.isoformat(),
                ":answer": answer.model_dump_json(),
            },
        )
    except ClientError as exc:
        if exc.response["Error"]["Code"] != "ConditionalCheckFailedException":
            raise
        if not _claimed_by(tables, item, answer):
            raise AlreadyDecided(f"execution {execution_name!r} was decided by someone else a moment ago") from None
    if trail is not None:  # the claim is the decision: recorded before the execution is told
        trail.append(
            disruption_of(execution_name, item),
            "approval_decided",
            f"approval_decided:{execution_name}:{decision.attempt}",
            {"attempt": decision.attempt, **answer.model_dump(mode="json")},
            actor=answer.decided_by,
            execution_name=execution_name,
            at=answer.decided_at,
        )
    try:
        (tokens if tokens is not None else SfnTaskTokens()).succeed(item["task_token"], answer.model_dump_json())
    except ServiceError as exc:
        if exc.code in ("TaskTimedOut", "TaskDoesNotExist", "InvalidToken"):
            raise ApprovalExpired(
                f"the execution no longer waits for this answer ({exc.code}); it timed out or was stopped"
            ) from None
        raise
    if registry is not None:
        status = {"reject": "rejected", "alternatives": "running", "exclude": "running"}.get(answer.action, "approved")
        _set_thread(
            registry,
            execution_name,
            status,
            answer.decided_by,
            {"action": answer.action, "scenario_id": answer.scenario_id, "comment": answer.comment},
        )
    return json.loads(answer.model_dump_json())


def _claimed_by(tables: WorkflowTables, item: dict, answer: ApprovalDecision) -> bool:
    """Whether the claim that failed its condition is this very answer's: botocore retried an update whose first
    attempt was applied but whose reply was lost (a timeout), and the retry found its own write."""
    now = tables.checkpoints.get_item(Key={"PK": item["PK"], "SK": item["SK"]}, ConsistentRead=True).get("Item")
    return bool(now) and now.get("status") == "decided" and now.get("answer") == answer.model_dump_json()


def _set_thread(
    registry: BaseThreadRegistry, execution_name: str, status: str, actor: str | None, detail: dict
) -> None:
    tid = thread_id(execution_name, "arbitrator", "arbitration")
    try:
        if registry.get(tid) is not None and registry.status(tid) != status:
            registry.set_status(tid, status, actor=actor, detail=detail)
    except IllegalTransition:
        pass  # a retried step: the thread already moved on
