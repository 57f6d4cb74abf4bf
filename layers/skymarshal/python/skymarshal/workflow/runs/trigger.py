"""From a reported disruption (an EventBridge event) to exactly one execution of the state machine.

The rule matches `RULE_PATTERN`; its target is the trigger Lambda, which names the execution after the
event id. EventBridge delivers at least once, so a redelivered or re-sent event meets an existing name and
starts nothing new. `skymarshal event put FILE.json` does what the rule and its target do, locally.

The name is the event id made safe for an execution name plus a short hash of the id as sent: two ids that
differ only in characters an execution name cannot hold (`relsec/collide`, `relsec:collide`) get different
names, while the same id always gets the same name (so a duplicate still starts nothing). An event that is
not a disruption report will never become one by retrying: it goes to the dead-letter queue with the reason
(`dead_letter`), and the Lambda succeeds so EventBridge does not retry it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from datetime import UTC, datetime
from typing import Any

from aws_lambda_powertools.utilities.parser.models import EventBridgeModel
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ...models.common import MAX_PROMPT_CHARS
from ..deployment import DETAIL_TYPES, MOVEMENT_DETAIL_TYPE, SOURCE
from ..deployment import TRIGGER_DLQ_ENV as DLQ_ENV  # noqa: F401  (the Trigger handler reads it from here)
from ..models import DisruptionRequest, field_error
from ..ports import Executions

RULE_PATTERN: dict[str, list[str]] = {"source": [SOURCE], "detail-type": list(DETAIL_TYPES)}
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")
_HASH_CHARS = 8  # 32 bits of the id: a collision needs ~65,000 distinct ids sanitized to the same text


class DisruptionDetail(BaseModel):
    """The event's detail: a prompt in the duty manager's words, or the flight, date and what happened."""

    model_config = ConfigDict(extra="ignore")

    prompt: str | None = Field(None, min_length=1, max_length=MAX_PROMPT_CHARS)
    message: str | None = Field(None, min_length=1, max_length=MAX_PROMPT_CHARS)  # a movement message's text
    flight_number: str | None = Field(None, max_length=16)
    date: str | None = Field(None, max_length=32)  # the local departure date, e.g. 2026-01-20
    description: str | None = Field(None, max_length=1000)  # "mechanical failure"
    reported_by: str | None = Field(None, max_length=120)
    # A producer's own id for the report (a replay names each event so): the run is named after it, so sending
    # the same report again — a producer's retry after a crash — starts nothing new, as a redelivery does.
    disruption_id: str | None = Field(None, pattern=r"^[A-Za-z0-9._-]{1,80}$")
    ops_date: dt.date | None = None  # the operating day a relative day in the report ("today") is read against

    @model_validator(mode="after")
    def _something_to_analyse(self) -> DisruptionDetail:
        if not self.prompt and not self.message and not (self.flight_number and self.date and self.description):
            raise ValueError("give either prompt, a movement message, or flight_number, date and description")
        return self

    def as_prompt(self) -> str:
        return self.message or self.prompt or f"Flight {self.flight_number} on {self.date} had a {self.description}"


class DisruptionEvent(EventBridgeModel):
    detail: DisruptionDetail


class InvalidEvent(ValueError):
    """The event is not a disruption report; the message names the field."""


def disruption_id_for(event_id: str) -> str:
    """`evt-<event id, made safe>-<hash of the id as sent>`: at most 64 characters, deterministic, and distinct
    for ids that only differ where the safe form replaced or cut characters."""
    digest = hashlib.sha256(event_id.encode()).hexdigest()[:_HASH_CHARS]
    readable = _UNSAFE.sub("-", event_id)[: 64 - len("evt-") - 1 - _HASH_CHARS]
    return f"evt-{readable}-{digest}"


def parse_event(event: Any) -> DisruptionEvent:
    try:
        parsed = DisruptionEvent.model_validate(event)
    except ValidationError as exc:
        raise InvalidEvent(field_error(exc, "event")) from None
    if parsed.source != SOURCE or parsed.detail_type not in DETAIL_TYPES:
        raise InvalidEvent(
            f"source/detail-type must be {SOURCE!r}/{' or '.join(map(repr, DETAIL_TYPES))}, got "
            f"{parsed.source!r}/{parsed.detail_type!r}"
        )
    if parsed.detail_type == MOVEMENT_DETAIL_TYPE:  # parked with its reason when malformed: the feed goes on
        from ...intake.movement import MalformedMessage, read_movement

        if not parsed.detail.message:
            raise InvalidEvent("event: detail.message: a movement message event carries the message text")
        try:
            read_movement(parsed.detail.message)
        except MalformedMessage as exc:
            raise InvalidEvent(f"event: detail.message: {exc}") from None
    return parsed


def request_for(event: DisruptionEvent) -> DisruptionRequest:
    try:
        return DisruptionRequest(
            disruption_id=disruption_id_for(event.detail.disruption_id or event.id),
            prompt=event.detail.as_prompt(),
            source="eventbridge",
            requested_by=event.detail.reported_by,
            reported_at=event.time,
            ops_date=event.detail.ops_date,
        )
    except ValidationError as exc:
        raise InvalidEvent(field_error(exc, "event")) from None


def dead_letter(event: Any, reason: str, *, sqs: Any, queue_url: str) -> str:
    """Send an event that is not a disruption report to the dead-letter queue with its reason; the message id."""
    body = json.dumps(
        {"reason": reason, "refused_at": datetime.now(UTC).isoformat(), "event": event}, default=str, ensure_ascii=False
    )
    return sqs.send_message(
        QueueUrl=queue_url,
        MessageBody=body[:250_000],  # SQS takes 256 KiB; an event is at most 256 KB, so this cuts only the absurd
        MessageAttributes={"reason": {"DataType": "String", "StringValue": reason[:1000] or "invalid"}},
    )["MessageId"]


def start_for_event(event: Any, *, executions: Executions, state_machine_arn: str) -> dict[str, Any]:
    """Start the execution for the event, or report the one it already started."""
    request = request_for(parse_event(event))
    return start(request, executions=executions, state_machine_arn=state_machine_arn)


def start(
    request: DisruptionRequest, *, executions: Executions, state_machine_arn: str, name: str | None = None
) -> dict[str, Any]:
    name = name or request.disruption_id
    arn = state_machine_arn.replace(":stateMachine:", ":execution:") + f":{name}"
    run = {"disruption_id": request.disruption_id, "execution_name": name}
    # Step Functions refuses a reused name anyway; moto only while the first runs, so look first
    if executions.status(arn) is None:
        # fields left unset stay out: a stack one field behind still reads what a newer client sends
        started = executions.start(state_machine_arn, name, request.model_dump_json(exclude_none=True))
        if started is not None:
            return {**run, "execution_arn": started, "started": True}
    return {**run, "execution_arn": arn, "started": False}
