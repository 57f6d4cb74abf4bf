"""Duty-manager alerts (workflow/alerts.py) on the emulated Checkpoints table: an escalation publishes once to the
topic and is recorded where the CLI, the API and the console read it; a failed publish is recorded, not raised."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

import pytest

from skymarshal.workflow.alerts import AlertChannel, alert_of, console_link, latest_alerts, raise_alert
from skymarshal.workflow.ports import ServiceError

ARN = "arn:aws:states:eu-west-1:123456789012:execution:SkyMarshal-dev-disruptions:evt-42"


def _state(name: str, reason: str | None = "SAFETY_AGENT_FAILED") -> dict:
    request = {
        "disruption_id": "dis-42",
        "execution_name": name,
        "prompt": "Flight EY123 on January 20th had a mechanical failure",
        "source": "eventbridge",
        "requested_by": None,
        "reported_at": "2027-01-20T06:00:00Z",
        "flight_number": "EY123",
        "flight_date": "2027-01-20",
        "flight_id": "EY123-20270120",
        "description": "mechanical failure",
        "agents": ["crew_compliance"],
        "approval_timeout_seconds": 60,
        "disruption": {
            "iata_delay_code": 41,
            "family": "technical",
            "cause": "aircraft defect",
            "scope": {"kind": "flight", "flight_numbers": ["EY123"], "flights": ["EY123-20270120"]},
        },
    }
    escalation = {"reason": reason, "message": "a safety agent did not complete"} if reason else None
    return {"request": request, "escalation": escalation}


class RecordingTopic:
    """An in-memory AlertTopic (workflow/ports.py): what was published, or a refusal."""

    def __init__(self, fail: bool = False) -> None:
        self.sent: list[dict] = []
        self.fail = fail

    def publish(self, topic: str, subject: str, message: str, attributes: Mapping[str, str]) -> None:
        if self.fail:
            raise ServiceError("AuthorizationError", "not allowed")
        self.sent.append({"Subject": subject, "Message": message, "MessageAttributes": dict(attributes)})


def test_an_escalation_is_published_once_and_recorded(blank_account):
    tables, sns = blank_account.tables(), RecordingTopic()
    channel = AlertChannel(topic=sns, topic_arn="arn:aws:sns:eu-west-1:123456789012:alerts", console_url=None)
    alert = raise_alert(_state("evt-42"), tables=tables, channel=channel, execution_arn=ARN)
    assert alert is not None and alert.delivery == "published" and alert.reason == "SAFETY_AGENT_FAILED"
    [sent] = sns.sent
    assert sent["Subject"] == "SkyMarshal escalation SAFETY_AGENT_FAILED: EY123 2027-01-20"
    assert "evt-42" in sent["Message"] and "a safety agent did not complete" in sent["Message"]
    assert "https://eu-west-1.console.aws.amazon.com/states/home?region=eu-west-1" in sent["Message"]
    assert ARN in sent["Message"] and sent["MessageAttributes"]["reason"] == "SAFETY_AGENT_FAILED"
    # A retried Learn step: the same alert, nothing published twice, one listing entry.
    again = raise_alert(_state("evt-42"), tables=tables, channel=channel, execution_arn=ARN)
    assert again == alert and len(sns.sent) == 1
    assert [a.execution_name for a in latest_alerts(tables=tables)] == ["evt-42"]
    assert alert_of("evt-42", tables=tables) == alert


def test_a_run_that_did_not_escalate_raises_nothing(blank_account):
    sns = RecordingTopic()
    channel = AlertChannel(topic=sns, topic_arn="arn:aws:sns:eu-west-1:123456789012:alerts")
    assert raise_alert(_state("evt-43", reason=None), tables=blank_account.tables(), channel=channel) is None
    assert sns.sent == [] and latest_alerts(tables=blank_account.tables()) == []


def test_a_failed_publish_is_recorded_with_its_error_and_the_run_goes_on(blank_account):
    tables = blank_account.tables()
    channel = AlertChannel(topic=RecordingTopic(fail=True), topic_arn="arn:aws:sns:eu-west-1:123456789012:alerts")
    alert = raise_alert(_state("evt-44", "APPROVAL_TIMEOUT"), tables=tables, channel=channel)
    assert alert is not None and alert.delivery == "failed" and "AuthorizationError" in (alert.delivery_error or "")
    assert latest_alerts(tables=tables)[0].delivery == "failed"


def test_without_a_topic_the_alert_is_recorded_and_links_to_the_console(blank_account):
    tables = blank_account.tables()
    channel = AlertChannel(console_url="https://occ.example.com/")
    earlier = raise_alert(
        _state("evt-45", "NO_VALID_PLAN"), tables=tables, channel=channel, now=datetime(2020, 1, 20, tzinfo=UTC)
    )
    later = raise_alert(_state("evt-46", "ARBITRATION_FAILED"), tables=tables, channel=channel)
    assert earlier is not None and earlier.delivery == "recorded"
    assert earlier.console_link == "https://occ.example.com/#evt-45"
    assert later is not None
    assert [a.execution_name for a in latest_alerts(tables=tables)] == ["evt-46", "evt-45"]  # newest first
    assert [a.execution_name for a in latest_alerts(tables=tables, limit=1)] == ["evt-46"]


@pytest.mark.parametrize(
    "arn,url,expected",
    [
        (None, "http://127.0.0.1:8000", "http://127.0.0.1:8000/#run-1"),
        (
            ARN,
            None,
            f"https://eu-west-1.console.aws.amazon.com/states/home?region=eu-west-1#/v2/executions/details/{ARN}",
        ),
    ],
)
def test_console_links(arn, url, expected):
    assert console_link("run-1", arn, url) == expected


def _decision(escalations: list[str], attempt: int = 1):
    from skymarshal.workflow.models import DecisionSummary

    return DecisionSummary(
        status="escalated" if escalations else "decided",
        has_plan=True,
        final_decision="Swap EY123 to A6-BLT",
        confidence=0.41,
        ranked=[],
        escalations=escalations,
        attempt=attempt,
        output={"key": "runs/x/y/decision.json"},
    )


def test_an_escalated_decision_is_alerted_while_it_waits_once_per_attempt(blank_account):
    from skymarshal.workflow.alerts import raise_decision_alert

    tables, sns = blank_account.tables(), RecordingTopic()
    channel = AlertChannel(topic=sns, topic_arn="arn:aws:sns:eu-west-1:123456789012:alerts", console_url="http://c")
    assert raise_decision_alert("evt-7", "dis-7", _decision([]), tables=tables, channel=channel) is None
    alert = raise_decision_alert("evt-7", "dis-7", _decision(["LOW_CONFIDENCE"]), tables=tables, channel=channel)
    assert alert is not None and alert.reason == "LOW_CONFIDENCE" and alert.console_link == "http://c/#evt-7"
    assert "waits for a duty manager" in alert.message and len(sns.sent) == 1
    # a retried approval step: nothing twice; a new attempt (alternatives) is alerted again
    assert raise_decision_alert("evt-7", "dis-7", _decision(["LOW_CONFIDENCE"]), tables=tables, channel=channel)
    assert len(sns.sent) == 1
    raise_decision_alert("evt-7", "dis-7", _decision(["AGENT_CONFIDENCE_GAP"], 2), tables=tables, channel=channel)
    assert [a.reason for a in latest_alerts(tables=tables)] == ["AGENT_CONFIDENCE_GAP", "LOW_CONFIDENCE"]
    # and Learn's own escalation of the same run is not taken for a retry of it
    learnt = raise_alert(_state("evt-7"), tables=tables, channel=channel, execution_arn=ARN)
    assert learnt is not None and learnt.reason == "SAFETY_AGENT_FAILED" and len(sns.sent) == 3
