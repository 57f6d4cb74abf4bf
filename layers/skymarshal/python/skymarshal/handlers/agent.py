"""The agent Lambda: parse the event (Powertools Parser), run the agent, return its AgentResponse.

Powertools Logger (service = the agent, correlation id = the Step Functions execution id), Tracer and
Metrics; the internal deadline is the Lambda's remaining time less a margin, at most 30 s by default.
A malformed event returns status `input_error` naming the field — the state machine never sees a trace.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, Literal

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.parser import parse
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError

from ..agents.runner import run_agent
from ..checkpoint.config import BUCKET_ENV
from ..checkpoint.registry_dynamodb import thread_registry_from_env
from ..checkpoint.saver import checkpointer_from_env
from ..data.access import DataHandle
from ..data.overlay import Overlay
from ..llm.failures import is_fallback
from ..llm.provider import AGENT_DEADLINE_ENV
from ..llm.startup import startup_check
from ..models.debate import StatedConflict
from ..models.disruption import Disruption
from ..workflow.deployment import BEDROCK_FALLBACK_METRIC
from ..workflow.payloads import ArtifactStore
from ..workflow.steps.collate import agent_result, resolve_others

DEADLINE_MARGIN_MS = 5000
DEADLINE_ENV = AGENT_DEADLINE_ENV  # also what each model call is bounded by (llm/provider.py)


def max_deadline_s() -> float:
    """Read per call: the local runner raises it (seven agents share one machine there, not seven Lambdas)."""
    return float(os.environ.get(DEADLINE_ENV, "30"))


class AgentEvent(BaseModel):
    """What the state machine's Map state sends each agent (ItemSelector)."""

    model_config = ConfigDict(extra="ignore")

    prompt: str = Field(min_length=1)
    phase: Literal["initial", "revision", "debate"] = "initial"
    execution_id: str = Field(min_length=1, max_length=200)
    agent: str | None = None  # the Map item; must name this function's agent when present
    disruption_id: str | None = None  # where a large result is stored (runs/<disruption_id>/)
    # The full initial collation (revision round), the previous round's (debate round), or a reference to it in S3.
    others: dict[str, Any] | None = None
    conflict: StatedConflict | None = None  # a debate round: the conflict it is told (its round number inside)
    disruption: Disruption | None = None  # the report's facts, resolved once at Validate
    overlay: Overlay | None = None  # what those facts change in the data the agent reads
    # the report's moment (Validate's): the analysis is as of then, not the machine's clock (a replayed day)
    reported_at: AwareDatetime | None = None


def make_agent_handler(agent: str) -> Callable[[dict, Any], dict]:
    logger = Logger(service=f"skymarshal-{agent}")
    tracer = Tracer(service=f"skymarshal-{agent}")
    metrics = Metrics(
        namespace=os.environ.get("POWERTOOLS_METRICS_NAMESPACE", "SkyMarshal"), service=f"skymarshal-{agent}"
    )
    startup_check(logger)
    checkpointer = checkpointer_from_env()
    registry = thread_registry_from_env()
    handle = DataHandle(agent)
    store = ArtifactStore() if os.environ.get(BUCKET_ENV) else None

    @logger.inject_lambda_context(log_event=False)
    @tracer.capture_lambda_handler
    @metrics.log_metrics
    def handler(event: dict, context: Any) -> dict:
        try:
            request = parse(event=event, model=AgentEvent)
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"]) or "event"
            logger.warning("malformed agent event", extra={"field": field})
            metrics.add_metric(name="AgentMalformedEvent", unit=MetricUnit.Count, value=1)
            return {
                "agent_name": agent,
                "status": "input_error",
                "message": f"{field}: {first['msg']}",
                "binding_constraints": [],
                "confidence": 0.05,
            }
        logger.set_correlation_id(request.execution_id)
        if request.agent not in (None, agent):
            return {
                "agent_name": agent,
                "status": "input_error",
                "binding_constraints": [],
                "confidence": 0.05,
                "message": f"agent: this is the {agent} function, the event is for {request.agent}",
            }
        remaining = getattr(context, "get_remaining_time_in_millis", lambda: 60000)()
        deadline = max(1.0, min(max_deadline_s(), (remaining - DEADLINE_MARGIN_MS) / 1000))
        others = resolve_others(request.others, store)
        response = run_agent(
            agent,
            request.prompt,
            handle=handle,
            phase=request.phase,
            others=others,
            execution_id=request.execution_id,
            now=request.reported_at,
            checkpointer=checkpointer,
            registry=registry,
            deadline_seconds=deadline,
            disruption=request.disruption,
            overlay=request.overlay,
            conflict=request.conflict,
        )
        metrics.add_metric(name=f"Agent{response.status.title().replace('_', '')}", unit=MetricUnit.Count, value=1)
        metrics.add_metric(name="AgentDuration", unit=MetricUnit.Milliseconds, value=response.duration_ms or 0)
        if is_fallback(response.llm):  # the model failed and the rules' text stood in: alarmed (infra/alarms.py)
            metrics.add_metric(name=BEDROCK_FALLBACK_METRIC, unit=MetricUnit.Count, value=1)
        logger.info(
            "agent answered",
            extra={
                "status": response.status,
                "confidence": response.confidence,
                "binding": len(response.binding_constraints),
            },
        )
        return agent_result(
            response,
            disruption_id=request.disruption_id or request.execution_id,
            store=store if request.disruption_id else None,
            execution_name=request.execution_id,
            round_=request.conflict.round if request.conflict else None,
        )

    return handler
