"""The EY123 demo through the state machine: the approval shows what each plan would send (its ASM/MVT messages
and its contact list), and executing the approved plan writes exactly those messages beside its report, named
and hashed in the audit trail, and publishes them on the account's message bus; a rejected plan sends nothing."""

from __future__ import annotations

import json

from mvt_parser import MVTParser
from workflow_helpers import to_approval

from skymarshal.local.workflow import MESSAGE_BUS_NAME
from skymarshal.messages.models import PlanMessages
from skymarshal.workflow.deployment import MESSAGE_SOURCE
from skymarshal.workflow.execution.outbox import ARTIFACT, preview
from skymarshal.workflow.models import ApprovalDecision
from skymarshal.workflow.payloads import run_key


def test_the_demo_shows_its_messages_at_approval_and_execution_writes_them(wf, account, restore):
    name = to_approval(wf, "messages")
    decision = wf.decision(name)
    shown = preview(decision, account.handle())
    assert [p.scenario_id for p in shown] == [r["scenario"]["scenario_id"] for r in decision["ranked"][:3]]
    top = shown[0]
    assert top.messages and top.refused == []
    assert {m.flight_number for m in top.messages} >= {"EY123"}
    for message in top.messages:
        if message.standard == "MVT":
            assert MVTParser().parse(message.text).flight_number == message.flight_number
    assert {s.station for s in top.stations} >= {"AUH"} and top.totals.messages == len(top.messages)
    cancel = next((p for p in shown if p.scenario_id == "cancel"), None)  # the baseline tells everyone on board
    assert cancel is None or (cancel.totals.crew > 0 and cancel.totals.passengers > 0)
    downstream = _subscribe(account, name)
    wf.decide(name, ApprovalDecision(action="approve", decided_by="Dana Duty", comment="go"))
    restore.append(name)
    assert wf.follow(name).status == "SUCCEEDED"
    disruption_id = wf.output(name)["request"]["disruption_id"]
    written = PlanMessages.model_validate(wf.store.get(run_key(disruption_id, name, ARTIFACT)))
    assert written.model_copy(update={"publication": None}) == top  # what was shown is what was sent
    record = next(r for r in wf.audit(name)["trail"] if r["kind"] == "execution")["body"]
    assert record["messages"] == top.totals.model_dump() and record["messages_artifact"]["sha256"]
    # published on the account's message bus, as Execute publishes in AWS: each message and the contact list
    events = len(top.messages) + 1
    assert written.publication is not None and written.publication.status == "published"
    assert record["publication"] == {
        "status": "published",
        "bus": MESSAGE_BUS_NAME,
        "events": events,
        "published": events,
        "failed": [],
    }
    received = downstream()
    assert sorted(d["text"] for d in received if "text" in d) == sorted(m.text for m in top.messages)
    assert [d["totals"] for d in received if "totals" in d] == [top.totals.model_dump()]


def _subscribe(account, name: str):
    """A downstream system: a rule on the message bus for this run's events, into a queue; reads what came."""
    sqs, events = account.client("sqs"), account.client("events")
    queue = sqs.create_queue(QueueName=f"downstream-{name}")["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=queue, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    rule = f"downstream-{name}"
    pattern = {"source": [MESSAGE_SOURCE], "detail": {"execution_name": [name]}}
    events.put_rule(Name=rule, EventBusName=MESSAGE_BUS_NAME, EventPattern=json.dumps(pattern))
    events.put_targets(Rule=rule, EventBusName=MESSAGE_BUS_NAME, Targets=[{"Id": "queue", "Arn": arn}])

    def received() -> list[dict]:
        found = sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=10).get("Messages", [])
        return [json.loads(m["Body"])["detail"] for m in found]

    return received


def test_a_rejected_plan_writes_no_messages(wf):
    name = to_approval(wf, "messages-reject")
    wf.decide(name, ApprovalDecision(action="reject", decided_by="Dana Duty", comment="not today"))
    assert wf.follow(name).status == "SUCCEEDED"
    disruption_id = wf.output(name)["request"]["disruption_id"]
    assert wf.store.get(run_key(disruption_id, name, ARTIFACT)) is None
