"""Duty-manager alerts: an escalated run raises one. Learn publishes it to the alert topic (SNS; its subscriptions
deliver it by e-mail, SMS or a chat webhook, infra/alerts.py) and records it in the Checkpoints table, where
`skymarshal alerts`, `GET /api/alerts` and the console read it — in AWS and locally alike.

  claim    PK = "ALERT#<execution name>"  SK = "ALERT"     the run's alert, written once (a retried Learn step
                                                            finds it and publishes nothing twice)
  listing  PK = "ALERTS"                  SK = "<raised at>#<execution name>"   newest first by a Query

Escalations are rare (a handful a day at most), so one listing partition is no hot spot, and every read is a
Query or a GetItem. A publish that fails does not fail the run: the alert is recorded as not delivered, with
the error, and counted (ALERT_FAILED_METRIC), which has its own alarm.
"""

from __future__ import annotations

import json
import logging
import os
import time
import urllib.request
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..checkpoint.config import ttl_seconds
from .aws.dynamodb import Key
from .aws.errors import ClientError
from .aws.sns import SnsTopic
from .deployment import ALERT_TOPIC_ENV, CONSOLE_URL_ENV
from .models import DecisionSummary, Escalation, ValidatedRequest
from .ports import AlertTopic, ServiceError
from .tables import WorkflowTables

log = logging.getLogger("skymarshal.workflow.alerts")
LISTING_PK = "ALERTS"
CLAIM_PREFIX = "ALERT#"
CLAIM_SK = "ALERT"
SUBJECT_LIMIT = 100  # SNS: at most 100 printable ASCII characters


class Alert(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    disruption_id: str
    execution_name: str
    reason: str  # the escalation code
    message: str
    flight: str | None = None
    raised_at: datetime
    console_link: str  # the run in the SkyMarshal console, or the execution in the Step Functions console
    delivery: Literal["published", "recorded", "failed"] = "recorded"  # recorded: no topic configured
    delivery_error: str | None = None

    def subject(self) -> str:
        text = f"SkyMarshal escalation {self.reason}: {self.flight or self.disruption_id}"
        return "".join(c for c in text if 32 <= ord(c) < 127)[:SUBJECT_LIMIT]

    def text(self) -> str:
        """What an e-mail, an SMS or a chat message says: the run, the reason, where to act."""
        return (
            f"SkyMarshal escalated run {self.execution_name} (disruption {self.disruption_id}"
            + (f", {self.flight}" if self.flight else "")
            + f") to a duty manager.\nReason: {self.reason}: {self.message}\nOpen: {self.console_link}"
        )


@dataclass(frozen=True)
class AlertChannel:
    """Where alerts go: the topic (None: recorded only) and the console the link opens."""

    topic: AlertTopic | None = None
    topic_arn: str | None = None
    console_url: str | None = None

    @classmethod
    def from_env(cls) -> AlertChannel:
        topic = os.environ.get(ALERT_TOPIC_ENV) or None
        return cls(
            topic=SnsTopic() if topic else None,
            topic_arn=topic,
            console_url=os.environ.get(CONSOLE_URL_ENV) or None,
        )


def console_link(execution_name: str, execution_arn: str | None, console_url: str | None) -> str:
    """The run's page in the SkyMarshal console (`<url>#<execution name>`), else the execution in the AWS one."""
    if console_url:
        return f"{console_url.rstrip('/')}/#{execution_name}"
    region = execution_arn.split(":")[3] if execution_arn and execution_arn.count(":") >= 6 else "us-east-1"
    target = execution_arn or execution_name
    return f"https://{region}.console.aws.amazon.com/states/home?region={region}#/v2/executions/details/{target}"


def raise_alert(
    state: dict,
    *,
    tables: WorkflowTables,
    channel: AlertChannel,
    execution_arn: str | None = None,
    now: datetime | None = None,
) -> Alert | None:
    """The escalated run's alert, published once and recorded; None when the run did not escalate."""
    if not state.get("escalation"):
        return None
    request = ValidatedRequest.model_validate(state["request"])
    escalation = Escalation.model_validate(state["escalation"])
    alert = Alert(
        disruption_id=request.disruption_id,
        execution_name=request.execution_name,
        reason=escalation.reason,
        message=escalation.message,
        flight=f"{request.flight_number} {request.flight_date}",
        raised_at=now or datetime.now(UTC),
        console_link=console_link(request.execution_name, execution_arn, channel.console_url),
    )
    return _record(alert, f"{CLAIM_PREFIX}{alert.execution_name}", tables=tables, channel=channel)


def raise_decision_alert(
    execution_name: str,
    disruption_id: str,
    decision: DecisionSummary,
    *,
    tables: WorkflowTables,
    channel: AlertChannel,
    now: datetime | None = None,
) -> Alert | None:
    """A decision that waits for a duty manager with escalations (low confidence, agents far apart): alerted as it
    is asked, once per attempt, so it is in Alerts while it waits; None when the decision carries none."""
    if not decision.escalations:
        return None
    alert = Alert(
        disruption_id=disruption_id,
        execution_name=execution_name,
        reason=decision.escalations[0],
        message=f"the decision waits for a duty manager with escalation {', '.join(decision.escalations)}: "
        f"{decision.final_decision}"[:500],
        raised_at=now or datetime.now(UTC),
        console_link=console_link(execution_name, None, channel.console_url),
    )
    claim = f"{CLAIM_PREFIX}{execution_name}#attempt-{decision.attempt}"  # not the run's: Learn may still escalate
    return _record(alert, claim, tables=tables, channel=channel)


def _record(alert: Alert, claim_pk: str, *, tables: WorkflowTables, channel: AlertChannel) -> Alert | None:
    """Publish once (the claim item guards a retried step) and list it where the CLI, API and console read."""
    ttl = int(time.time()) + ttl_seconds()
    claim = {"PK": claim_pk, "SK": CLAIM_SK, "ttl": ttl}
    try:
        tables.checkpoints.put_item(
            Item={**claim, "alert": alert.model_dump_json()}, ConditionExpression="attribute_not_exists(PK)"
        )
    except ClientError as exc:
        if exc.response["Error"]["Code"] != "ConditionalCheckFailedException":
            raise
        log.info("alert of %s already raised (a retried step)", alert.execution_name)
        item = tables.checkpoints.get_item(Key={"PK": claim_pk, "SK": CLAIM_SK}).get("Item")
        return Alert.model_validate_json(item["alert"]) if item else None
    alert = _publish(alert, channel)
    body = alert.model_dump_json()
    tables.checkpoints.put_item(
        Item={
            "PK": LISTING_PK,
            "SK": f"{alert.raised_at.isoformat()}#{alert.execution_name}",
            "alert": body,
            "ttl": ttl,
        }
    )
    tables.checkpoints.put_item(Item={**claim, "alert": body})
    return alert


def _publish(alert: Alert, channel: AlertChannel) -> Alert:
    if not channel.topic_arn or channel.topic is None:
        return alert
    try:
        channel.topic.publish(
            channel.topic_arn,
            alert.subject(),
            alert.text(),
            {"reason": alert.reason, "execution_name": alert.execution_name},
        )
    except ServiceError as exc:  # the alert stays recorded; its own metric and alarm say it failed
        log.error("alert of %s not published: %s", alert.execution_name, exc)
        return alert.model_copy(update={"delivery": "failed", "delivery_error": str(exc)[:300]})
    return alert.model_copy(update={"delivery": "published"})


def alert_of(execution_name: str, *, tables: WorkflowTables) -> Alert | None:
    item = tables.checkpoints.get_item(Key={"PK": f"{CLAIM_PREFIX}{execution_name}", "SK": CLAIM_SK}).get("Item")
    return Alert.model_validate_json(item["alert"]) if item else None


def latest_alerts(*, tables: WorkflowTables, limit: int = 50) -> list[Alert]:
    """The newest alerts first (one Query on the listing partition)."""
    items = tables.checkpoints.query(
        KeyConditionExpression=Key("PK").eq(LISTING_PK), ScanIndexForward=False, Limit=limit
    ).get("Items", [])
    return [Alert.model_validate(json.loads(item["alert"])) for item in items]


def chat_message(sns_record: dict) -> dict[str, str]:
    """A chat webhook's body for one SNS record of the alert topic: the subject in bold, then the alert."""
    sns = sns_record.get("Sns") or {}
    subject, message = str(sns.get("Subject") or ""), str(sns.get("Message") or "")
    return {"text": f"*{subject}*\n{message}" if subject else message}


def post_webhook(url: str, body: dict[str, str], timeout_s: float = 10.0) -> int:
    """POST the body as JSON; the HTTP status (an error status raises urllib's HTTPError)."""
    if not url.startswith("https://"):
        raise ValueError("the chat webhook URL must start with https://")
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=timeout_s) as response:
        return int(response.status)
