"""From a reported disruption (an EventBridge event) to exactly one execution of the state machine.

The rule matches `RULE_PATTERN`; its target is the trigger Lambda, which names the execution after the
event id. EventBridge delivers at least once, so a redelivered or re-sent event meets an existing name and
starts nothing new. `skymarshal event put FILE.json` does what the rule and its target do, locally.
"""

from __future__ import annotations

import re
from typing import Any

from aws_lambda_powertools.utilities.parser.models import EventBridgeModel
from botocore.exceptions import ClientError
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .deployment import DETAIL_TYPE, SOURCE
from .models import DisruptionRequest, field_error

RULE_PATTERN: dict[str, list[str]] = {"source": [SOURCE], "detail-type": [DETAIL_TYPE]}
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


class DisruptionDetail(BaseModel):
    """The event's detail: a prompt in the duty manager's words, or the flight, date and what happened."""

    model_config = ConfigDict(extra="ignore")

    prompt: str | None = Field(None, min_length=1)
    flight_number: str | None = None
    date: str | None = None  # the local departure date, e.g. 2026-01-20
    description: str | None = None  # "mechanical failure"
    reported_by: str | None = Field(None, max_length=120)

    @model_validator(mode="after")
    def _something_to_analyse(self) -> DisruptionDetail:
        if not self.prompt and not (self.flight_number and self.date and self.description):
            raise ValueError("give either prompt, or flight_number, date and description")
        return self

    def as_prompt(self) -> str:
        return self.prompt or f"Flight {self.flight_number} on {self.date} had a {self.description}"


class DisruptionEvent(EventBridgeModel):
    detail: DisruptionDetail


class InvalidEvent(ValueError):
    """The event is not a disruption report; the message names the field."""


def disruption_id_for(event_id: str) -> str:
    """`evt-<event id>`, reduced to the characters an execution name allows."""
    return ("evt-" + _UNSAFE.sub("-", event_id))[:64]


def parse_event(event: Any) -> DisruptionEvent:
    try:
        parsed = DisruptionEvent.model_validate(event)
    except ValidationError as exc:
        raise InvalidEvent(field_error(exc, "event")) from None
    if parsed.source != SOURCE or parsed.detail_type != DETAIL_TYPE:
        raise InvalidEvent(
            f"source/detail-type must be {SOURCE!r}/{DETAIL_TYPE!r}, got {parsed.source!r}/{parsed.detail_type!r}"
        )
    return parsed


def request_for(event: DisruptionEvent) -> DisruptionRequest:
    return DisruptionRequest(
        disruption_id=disruption_id_for(event.id),
        prompt=event.detail.as_prompt(),
        source="eventbridge",
        requested_by=event.detail.reported_by,
        reported_at=event.time,
    )


def start_for_event(event: Any, *, sfn: Any, state_machine_arn: str) -> dict[str, Any]:
    """Start the execution for the event, or report the one it already started."""
    request = request_for(parse_event(event))
    return start(request, sfn=sfn, state_machine_arn=state_machine_arn)


def start(request: DisruptionRequest, *, sfn: Any, state_machine_arn: str, name: str | None = None) -> dict[str, Any]:
    name = name or request.disruption_id
    arn = state_machine_arn.replace(":stateMachine:", ":execution:") + f":{name}"
    try:  # Step Functions refuses a reused name anyway; moto only while the first runs, so look first
        sfn.describe_execution(executionArn=arn)
        return {"disruption_id": request.disruption_id, "execution_name": name, "execution_arn": arn, "started": False}
    except ClientError as exc:
        if exc.response["Error"]["Code"] != "ExecutionDoesNotExist":
            raise
    try:
        arn = sfn.start_execution(stateMachineArn=state_machine_arn, name=name, input=request.model_dump_json())[
            "executionArn"
        ]
        return {"disruption_id": request.disruption_id, "execution_name": name, "execution_arn": arn, "started": True}
    except ClientError as exc:
        if exc.response["Error"]["Code"] != "ExecutionAlreadyExists":
            raise
    return {"disruption_id": request.disruption_id, "execution_name": name, "execution_arn": arn, "started": False}
