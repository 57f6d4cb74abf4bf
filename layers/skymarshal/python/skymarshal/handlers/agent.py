"""The agent Lambda: parse the event (Powertools Parser), run the agent, return its AgentResponse.

Powertools Logger (service = the agent, correlation id = the Step Functions execution id), Tracer and
Metrics; the internal deadline is the Lambda's remaining time less a margin, at most 30 s by default.
A malformed event returns status `input_error` naming the field — the state machine never sees a trace.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Literal

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.parser import parse
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..agents.runner import run_agent
from ..checkpoint.saver import checkpointer_from_env
from ..checkpoint.registry_dynamodb import thread_registry_from_env
from ..data.access import DataHandle

DEADLINE_MARGIN_MS = 5000
MAX_DEADLINE_S = float(os.environ.get("SKYMARSHAL_AGENT_DEADLINE_SECONDS", "30"))


class AgentEvent(BaseModel):
    """What the state machine's Map state sends each agent (ItemSelector)."""

    model_config = ConfigDict(extra="ignore")

    prompt: str = Field(min_length=1)
    phase: Literal["initial", "revision"] = "initial"
    execution_id: str = Field(min_length=1, max_length=200)
    others: dict[str, Any] | None = None  # the full initial collation, revision round only


def make_agent_handler(agent: str) -> Callable[[dict, Any], dict]:
    logger = Logger(service=f"skymarshal-{agent}")
    tracer = Tracer(service=f"skymarshal-{agent}")
    metrics = Metrics(namespace=os.environ.get("POWERTOOLS_METRICS_NAMESPACE", "SkyMarshal"),
                      service=f"skymarshal-{agent}")
    checkpointer = checkpointer_from_env()
    registry = thread_registry_from_env()
    handle = DataHandle(agent)

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
            return {"agent_name": agent, "status": "input_error", "message": f"{field}: {first['msg']}",
                    "binding_constraints": [], "confidence": 0.05}
        logger.set_correlation_id(request.execution_id)
        remaining = getattr(context, "get_remaining_time_in_millis", lambda: 60000)()
        deadline = max(1.0, min(MAX_DEADLINE_S, (remaining - DEADLINE_MARGIN_MS) / 1000))
        response = run_agent(agent, request.prompt, handle=handle, phase=request.phase, others=request.others,
                             execution_id=request.execution_id, checkpointer=checkpointer, registry=registry,
                             deadline_seconds=deadline)
        metrics.add_metric(name=f"Agent{response.status.title().replace('_', '')}", unit=MetricUnit.Count, value=1)
        metrics.add_metric(name="AgentDuration", unit=MetricUnit.Milliseconds, value=response.duration_ms or 0)
        logger.info("agent answered", extra={"status": response.status, "confidence": response.confidence,
                                              "binding": len(response.binding_constraints)})
        return response.model_dump(mode="json")

    return handler
