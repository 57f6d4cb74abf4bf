"""The workflow's step Lambdas: Validate, Collate, Arbitrate, Await approval, Execute, Learn.

Thin by design: Powertools Logger (correlation id = the execution's name), Tracer and Metrics around a call
into `skymarshal.workflow`. Each function's Payload is set by the state machine (infra/workflow_stack.py);
clients are created once per container, on first use, from the environment the stack sets.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit

from ..checkpoint.threads import BaseThreadRegistry
from ..data.access import DataHandle
from ..llm.failures import is_fallback
from ..llm.startup import startup_check
from ..workflow.alerts import AlertChannel
from ..workflow.audit.trail import AuditTrail
from ..workflow.deployment import BEDROCK_FALLBACK_METRIC, MESSAGES_FAILED_METRIC, RECORDS_QUARANTINED_METRIC
from ..workflow.execution.publish import MessageBus
from ..workflow.models import DecisionSummary
from ..workflow.payloads import ArtifactStore
from ..workflow.tables import WorkflowTables

SERVICE = "skymarshal-workflow"
logger = Logger(service=SERVICE)
tracer = Tracer(service=SERVICE)
metrics = Metrics(namespace=os.environ.get("POWERTOOLS_METRICS_NAMESPACE", "SkyMarshal"), service=SERVICE)
ARBITRATE_SAVE_RESERVE_S = 20.0  # after the arbitrator's deadline: save the decision, append the audit trail
startup_check(logger)


@dataclass(frozen=True)
class StepClients:
    """What the steps work with, built once per container from the environment the stack sets."""

    store: ArtifactStore
    handle: DataHandle  # the workflow's own steps read every table; agents get their row of the matrix
    tables: WorkflowTables
    registry: BaseThreadRegistry
    trail: AuditTrail
    alerts: AlertChannel  # Learn's: the duty managers' topic, the console link
    bus: MessageBus  # Execute's: where the executed plan's messages are published


@lru_cache(maxsize=1)
def clients() -> StepClients:
    from ..checkpoint.registry_dynamodb import thread_registry_from_env

    store, tables = ArtifactStore(), WorkflowTables.from_env()
    return StepClients(
        store=store,
        handle=DataHandle(naming=tables.naming, resource=tables.resource),
        tables=tables,
        registry=thread_registry_from_env(),
        trail=AuditTrail(tables=tables, objects=store.objects),  # the KMS key from SKYMARSHAL_AUDIT_KEY_ID
        alerts=AlertChannel.from_env(),
        bus=MessageBus.from_env(),
    )


def reset_clients() -> None:
    """Forget the container's clients: the next step builds them again from the (changed) environment."""
    clients.cache_clear()


def step(handler: Callable[[dict, Any], dict]) -> Callable[[dict, Any], dict]:
    """Powertools around a step: Lambda context in the logs, correlation id = the execution's name,
    a trace segment, and the metrics flushed at the end."""

    @logger.inject_lambda_context(log_event=False)
    @tracer.capture_lambda_handler
    @metrics.log_metrics
    @functools.wraps(handler)
    def wrapped(event: dict, context: Any) -> dict:
        name = event.get("execution_name") or ((event.get("state") or {}).get("request") or {}).get("execution_name")
        if name:
            logger.set_correlation_id(name)
        return handler(event, context)

    return wrapped


@step
def validate(event: dict, context: Any) -> dict:
    """Payload: {"input": <execution input>, "execution_name": $$.Execution.Name}. Raises InvalidDisruption."""
    from ..workflow.steps.validate import InvalidDisruption
    from ..workflow.steps.validate import validate as run

    c = clients()
    try:
        state = run(
            event.get("input"),
            execution_name=event["execution_name"],
            handle=c.handle,
            tables=c.tables,
            store=c.store,
            trail=c.trail,
        )
    except InvalidDisruption as exc:
        logger.warning("invalid disruption", extra={"reason": str(exc), "parked": exc.parked})
        metrics.add_metric(name="DisruptionInvalid", unit=MetricUnit.Count, value=1)
        if exc.parked:  # a movement message kept in the quarantine: its own alarm (infra/alarms.py)
            metrics.add_metric(name=RECORDS_QUARANTINED_METRIC, unit=MetricUnit.Count, value=1)
        raise
    metrics.add_metric(name="DisruptionAccepted", unit=MetricUnit.Count, value=1)
    return state


@step
def collate(event: dict, context: Any) -> dict:
    """Payload: {"phase", "disruption_id", "execution_name", "results": <the Map's output>, "ran": <its items>,
    "retries": <the run a retry keeps the others' answers from, or null>}; the revision and debate rounds add
    "request" ($.request) and a debate round "debate" (the debate as the round before left it)."""
    from ..workflow.steps.collate import collate as run
    from ..workflow.steps.debate import after_revision, collate_debate

    c = clients()
    if event["phase"] == "debate":
        debate = collate_debate(
            event["results"],
            event["request"],
            event["debate"],
            store=c.store,
            handle=c.handle,
            execution_name=event.get("execution_name"),
            trail=c.trail,
        )
        logger.info("debate collated", extra={"round": debate.round, "again": debate.again, "reason": debate.reason})
        return debate.model_dump(mode="json")
    result = run(
        event["phase"],
        event["results"],
        disruption_id=event["disruption_id"],
        store=c.store,
        execution_name=event.get("execution_name"),
        trail=c.trail,
        ran=event.get("ran"),
        retries=event.get("retries"),
    )
    if event["phase"] == "revision" and event.get("request"):
        result = after_revision(result, event["request"], store=c.store, handle=c.handle)
    metrics.add_metric(name="AgentsFailed", unit=MetricUnit.Count, value=len(result.failed))
    logger.info(
        "collated", extra={"phase": result.phase, "failed": result.failed, "safety_failed": result.safety_failed}
    )
    return result.model_dump(mode="json")


@step
def arbitrate(event: dict, context: Any) -> dict:
    """Payload: {"state": $}. Knowledge base from SKYMARSHAL_KNOWLEDGE_BASE_ID (local corpus otherwise)."""
    from ..arbitration.arbitrator import arbitrator_deadline_s
    from ..workflow.steps.decision import arbitrate_step

    # The arbitrator's own deadline, never past what this invocation has left (less time to save the decision).
    remaining = getattr(context, "get_remaining_time_in_millis", lambda: None)()
    deadline = arbitrator_deadline_s()
    if remaining is not None:
        deadline = max(1.0, min(deadline, remaining / 1000 - ARBITRATE_SAVE_RESERVE_S))
    c = clients()
    summary = arbitrate_step(
        event["state"],
        handle=c.handle,
        store=c.store,
        registry=c.registry,
        trail=c.trail,
        knowledge_base_id=os.environ.get("SKYMARSHAL_KNOWLEDGE_BASE_ID") or None,
        deadline_s=deadline,
    )
    metrics.add_metric(name=f"Decision{summary.status.title().replace('_', '')}", unit=MetricUnit.Count, value=1)
    if is_fallback(summary.llm):  # the arbitrator's model failed; the rules' ranking and text stood
        metrics.add_metric(name=BEDROCK_FALLBACK_METRIC, unit=MetricUnit.Count, value=1)
    logger.info("arbitrated", extra={"status": summary.status, "top": [r.scenario_id for r in summary.ranked]})
    return summary.model_dump(mode="json")


@step
def request_approval(event: dict, context: Any) -> dict:
    """Payload: {"task_token": $$.Task.Token, "execution_name", "disruption_id", "decision", "timeout_seconds"}."""
    from ..workflow.alerts import raise_decision_alert
    from ..workflow.approvals import disruption_of
    from ..workflow.approvals import request_approval as run

    c = clients()
    decision = DecisionSummary.model_validate(event["decision"])
    pending = run(
        task_token=event["task_token"],
        execution_name=event["execution_name"],
        decision=decision,
        timeout_seconds=int(event["timeout_seconds"]),
        tables=c.tables,
        disruption_id=event.get("disruption_id"),
        registry=c.registry,
        trail=c.trail,
    )
    # an escalated decision (low confidence, agents far apart) is in Alerts while it waits, not only once it ends
    alert = raise_decision_alert(
        event["execution_name"],
        event.get("disruption_id") or disruption_of(event["execution_name"]),
        decision,
        tables=c.tables,
        channel=c.alerts,
    )
    logger.info("awaiting approval", extra={**pending, "alert": alert.reason if alert else None})
    return pending


@step
def execute(event: dict, context: Any) -> dict:
    """Payload: {"state": $}: applies the approved plan, group by group, rolled back on failure."""
    from ..workflow.steps.decision import execute_step

    c = clients()
    summary = execute_step(
        event["state"], store=c.store, tables=c.tables, registry=c.registry, trail=c.trail, bus=c.bus
    )
    metrics.add_metric(name=f"Execution{summary.status.title().replace('_', '')}", unit=MetricUnit.Count, value=1)
    if summary.messages_not_published:  # stored and audited all the same; its own alarm (infra/alarms.py)
        metrics.add_metric(name=MESSAGES_FAILED_METRIC, unit=MetricUnit.Count, value=summary.messages_not_published)
    logger.info("executed", extra={"status": summary.status, "scenario": summary.scenario_id})
    return summary.model_dump(mode="json")


@step
def learn(event: dict, context: Any) -> dict:
    """Payload: {"state": $, "execution_arn": $$.Execution.Id}: the history record, acceptance/override and
    escalation metrics, an escalation's alert (SKYMARSHAL_ALERT_TOPIC_ARN) and the audit document."""
    from ..workflow.learning.learn import learn_step

    c = clients()
    outcome = learn_step(
        event["state"],
        store=c.store,
        handle=c.handle,
        tables=c.tables,
        registry=c.registry,
        metrics=metrics,
        trail=c.trail,
        alerts=c.alerts,
        execution_arn=event.get("execution_arn"),
    )
    logger.info(
        "run finished",
        extra={
            "status": outcome.status,
            "history_id": outcome.history_id,
            "alert": (outcome.alert or {}).get("delivery"),
        },
    )
    return outcome.model_dump(mode="json")


@step
def trigger(event: dict, context: Any) -> dict:
    """The EventBridge rule's target: one execution per event id (SKYMARSHAL_STATE_MACHINE_ARN). A malformed
    event goes to the dead-letter queue (SKYMARSHAL_TRIGGER_DLQ_URL) with its reason and is not retried; a
    failure to start (throttling, a service error) raises, so EventBridge retries it."""
    from ..data import aws
    from ..workflow.aws.sfn import SfnExecutions
    from ..workflow.runs.trigger import DLQ_ENV, InvalidEvent, dead_letter, start_for_event

    try:
        started = start_for_event(
            event,
            executions=SfnExecutions(aws.client("stepfunctions")),
            state_machine_arn=os.environ["SKYMARSHAL_STATE_MACHINE_ARN"],
        )
    except InvalidEvent as exc:  # retrying cannot fix it: dead-letter it with the reason, return normally
        event_id = event.get("id") if isinstance(event, dict) else None
        queue = os.environ.get(DLQ_ENV)
        message_id = dead_letter(event, str(exc), sqs=aws.client("sqs"), queue_url=queue) if queue else None
        logger.error(
            "malformed disruption event",
            extra={"reason": str(exc), "event_id": event_id, "dead_letter_message": message_id},
        )
        metrics.add_metric(name="EventMalformed", unit=MetricUnit.Count, value=1)
        return {"started": False, "error": str(exc), "dead_lettered": message_id is not None}
    logger.set_correlation_id(started["execution_name"])
    metrics.add_metric(
        name="ExecutionStarted" if started["started"] else "EventDuplicate", unit=MetricUnit.Count, value=1
    )
    logger.info("disruption event", extra=started)
    return started
