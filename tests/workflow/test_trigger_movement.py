"""A movement message on the bus: the rule's pattern takes it beside a report, the Trigger starts one run with the
message as its report, and a malformed one is parked in the dead-letter queue with its reason — the Lambda
succeeds, so the feed is never stopped or retried on it."""

from __future__ import annotations

import json

import pytest
from test_trigger_calls import MACHINE, _StrictSfn

from skymarshal.workflow.aws.sfn import SfnExecutions
from skymarshal.workflow.deployment import DETAIL_TYPE, MOVEMENT_DETAIL_TYPE, SOURCE
from skymarshal.workflow.runs.trigger import RULE_PATTERN, start_for_event

DIV = "DIV\nEY123/20.A6BLA.AUH\nAD0815/0830 EA1010 MCT\nDR72\nSI FOG AT FRA"


def event(detail: dict, detail_type: str = MOVEMENT_DETAIL_TYPE, event_id: str = "mvt-1") -> dict:
    return {
        "version": "0",
        "id": event_id,
        "source": SOURCE,
        "detail-type": detail_type,
        "account": "123456789012",
        "region": "eu-west-1",
        "time": "2027-01-20T08:31:00Z",
        "resources": [],
        "detail": detail,
    }


class _Sqs:
    def __init__(self) -> None:
        self.sent: list[dict] = []

    def send_message(self, **kwargs):
        self.sent.append(kwargs)
        return {"MessageId": f"m-{len(self.sent)}"}


class _Context:
    function_name, memory_limit_in_mb, aws_request_id = "Trigger", 256, "req-1"
    invoked_function_arn = "arn:aws:lambda:eu-west-1:123456789012:function:Trigger"


def test_the_rule_takes_reports_and_movement_messages_alike():
    assert RULE_PATTERN == {"source": [SOURCE], "detail-type": [DETAIL_TYPE, MOVEMENT_DETAIL_TYPE]}


def test_a_movement_message_starts_one_run_with_the_message_as_its_report():
    sfn = _StrictSfn(set())
    started = start_for_event(event({"message": DIV}), executions=SfnExecutions(sfn), state_machine_arn=MACHINE)
    assert started["started"] and sfn.calls == ["describe_execution", "start_execution"]
    again = start_for_event(event({"message": DIV}), executions=SfnExecutions(sfn), state_machine_arn=MACHINE)
    assert again["started"] is False  # redelivered: nothing new


@pytest.mark.parametrize(
    ("detail", "reason"),
    [
        ({"message": "MVT\nEY123/20.A6BLA.AUH\nDL7X/0030"}, "DL7X: '7X' is not an IATA AHM 730 delay code"),
        ({"message": "DIV\nEY123/20.A6BLA.AUH\nDR72"}, "the DIV message names no airport diverted to"),
        ({"message": "the coffee machine is broken"}, "not a movement message"),
        ({"prompt": "EY123 on 20 Jan: AOG"}, "a movement message event carries the message text"),
    ],
)
def test_a_malformed_message_is_parked_with_its_reason_and_the_feed_goes_on(monkeypatch, detail, reason):
    from skymarshal.handlers import workflow_steps

    sqs, queue = _Sqs(), "https://sqs.eu-west-1.amazonaws.com/123456789012/TriggerDeadLetters"
    monkeypatch.setenv("SKYMARSHAL_STATE_MACHINE_ARN", MACHINE)
    monkeypatch.setenv("SKYMARSHAL_TRIGGER_DLQ_URL", queue)
    monkeypatch.setattr("boto3.client", lambda service, **kw: {"sqs": sqs, "stepfunctions": _StrictSfn(set())}[service])
    answer = workflow_steps.trigger(event(detail), _Context())
    assert answer["started"] is False and answer["dead_lettered"] is True and reason in answer["error"]
    assert "\n" not in answer["error"]
    (message,) = sqs.sent
    assert reason in message["MessageAttributes"]["reason"]["StringValue"]
    assert json.loads(message["MessageBody"])["event"]["detail"] == detail
