"""The synthesized state machine, executed by moto with the real handlers: approve, reject, failures,
timeouts, duplicates, malformed input and resume."""

from __future__ import annotations

import json
import time
import uuid

import pytest
from integrity_helpers import assert_intact
from workflow_helpers import DEMO, fail
from workflow_helpers import run_id as _id
from workflow_helpers import to_approval as _to_approval

from skymarshal.checkpoint.registry_dynamodb import thread_registry_from_env
from skymarshal.checkpoint.threads import thread_id
from skymarshal.workflow.models import ApprovalDecision
from skymarshal.workflow.runs.trigger import start_for_event


def _flight_row(account, flight_id: str) -> dict:
    return account.resource().Table(account.naming("flights")).get_item(Key={"flight_id": flight_id})["Item"]


def _agent_calls(calls, phase: str) -> int:
    return sum(1 for name, p in calls if name.startswith("FunctionsAgent") and p == phase)


def test_approve_executes_the_plan_and_records_it(wf, account, calls, restore):
    name = _to_approval(wf, "approve")
    decision = wf.decision(name)
    top = decision["ranked"][0]["scenario"]
    flight_id = decision["flight_id"]
    facts = decision["disruption"]  # what Validate understood, carried into the decision
    assert (facts["iata_delay_code"], facts["family"], facts["scope"]["flights"]) == (41, "technical", [flight_id])
    assert {
        "name": "aircraft_defect",
        "value": 41,
        "source": "stated",
        "evidence": "mechanical",
        "span": [35, 45],
    } in facts["facts"]
    before = _flight_row(account, flight_id)
    wf.decide(name, ApprovalDecision(action="approve", decided_by="Dana Duty", comment="go"))
    restore.append(name)
    assert wf.follow(name).status == "SUCCEEDED"
    output = wf.output(name)
    assert output["outcome"]["status"] == "executed" and output["execution"]["scenario_id"] == top["scenario_id"]
    after = _flight_row(account, flight_id)
    assert_intact(account.handle())  # every tail and crew chain still whole after the execution
    swap = next(a for a in top["actions"] if a["kind"] == "swap_aircraft")
    assert before["aircraft_registration"] == swap["from_registration"]
    assert after["aircraft_registration"] == swap["to_registration"]
    # Both rounds ran seven agents each, once.
    assert _agent_calls(calls, "initial") == 7 and _agent_calls(calls, "revision") == 7
    audit = wf.audit(name)
    assert audit["prompt"] == DEMO and set(audit["rounds"]) == {"initial", "revision"}
    assert audit["approvals"][0]["decided_by"] == "Dana Duty" and audit["approvals"][0]["answer"]["comment"] == "go"
    assert [e["event"] for e in audit["execution_events"]][:2] == ["started", "completed"]
    assert audit["outcome"]["status"] == "executed" and audit["executions"][0]["started_at"]
    record = account.handle().get("DisruptionHistory", {"disruption_id": output["outcome"]["history_id"]})
    assert record and record["overridden"] is False and record["outcome"] == "on_plan"
    # The hash chain holds each step's record, in order, and verifies with its KMS-signed head.
    assert [r["kind"] for r in audit["trail"]] == [
        "request",
        "round",
        "round",
        "decision",
        "approval_requested",
        "approval_decided",
        "execution",
        "outcome",
        "export",  # the audit export Learn wrote, hashed like every other artifact
    ]
    assert audit["trail"][5]["actor"] == "Dana Duty" and audit["trail"][5]["body"]["comment"] == "go"
    assert audit["verification"]["ok"] and audit["verification"]["signed"]
    # The arbitration thread says what happened and who decided, not awaiting_approval.
    thread = thread_registry_from_env().get(thread_id(name, "arbitrator", "arbitration"))
    assert thread is not None and (thread.status, thread.status_actor) == ("executed", "Dana Duty")


def test_reject_changes_nothing_and_marks_the_thread_rejected(wf, account, calls):
    name = _to_approval(wf, "reject")
    flight_id = wf.decision(name)["flight_id"]
    before = _flight_row(account, flight_id)
    wf.decide(name, ApprovalDecision(action="reject", decided_by="Dana Duty", comment="not today"))
    assert wf.follow(name).status == "SUCCEEDED"
    assert wf.output(name)["outcome"]["status"] == "rejected"
    assert _flight_row(account, flight_id) == before
    assert not any(n.startswith("FunctionsExecute") for n, _ in calls)
    registry = thread_registry_from_env()
    assert registry.status(thread_id(name, "arbitrator", "arbitration")) == "rejected"


def test_a_business_agent_raising_completes_degraded(wf, calls):
    fail(calls, lambda name, event: name.startswith("FunctionsAgentcargo"))
    name = _to_approval(wf, "cargo")
    state = wf.progress(name)
    assert state.agents[("initial", "cargo")].status == "error"
    decision = wf.store.resolve(json.loads(wf.pending(name)["decision"])["output"])
    assert decision["status"] in ("decided", "escalated") and decision["ranked"]
    wf.decide(name, ApprovalDecision(action="reject", decided_by="Dana Duty", comment="test over"))
    assert wf.follow(name).status == "SUCCEEDED"


def test_a_safety_agent_raising_escalates_without_execution(wf, calls):
    fail(calls, lambda name, event: name.startswith("FunctionsAgentcrewcompliance"))
    name = wf.start(DEMO, disruption_id=_id("safety"))["execution_name"]
    assert wf.follow(name, timeout_s=600).status == "SUCCEEDED"
    output = wf.output(name)
    assert output["escalation"]["reason"] == "SAFETY_AGENT_FAILED" and output["outcome"]["status"] == "escalated"
    assert not any(n.startswith(("FunctionsArbitrate", "FunctionsExecute")) for n, _ in calls)


def test_no_decision_in_time_escalates(wf, calls, monkeypatch):
    monkeypatch.setenv("SKYMARSHAL_APPROVAL_TIMEOUT_SECONDS", "2")
    name = wf.start(DEMO, disruption_id=_id("timeout"))["execution_name"]
    wf.follow(name, timeout_s=600)  # reaches the approval that never comes
    deadline = time.monotonic() + 60
    while wf.describe(name)["status"] == "RUNNING" and time.monotonic() < deadline:
        time.sleep(0.5)
    output = wf.output(name)
    assert output["escalation"]["reason"] == "APPROVAL_TIMEOUT" and output["outcome"]["status"] == "escalated"
    assert not any(n.startswith("FunctionsExecute") for n, _ in calls)


def test_a_duplicated_event_starts_one_execution(wf):
    event = {
        "version": "0",
        "id": str(uuid.uuid4()),
        "source": "skymarshal.disruptions",
        "detail-type": "Flight Disruption Reported",
        "account": "123456789012",
        "region": "us-east-1",
        "time": "2027-01-20T06:00:00Z",
        "resources": [],
        "detail": {"prompt": "EY999 on 20 January 2027 bird strike"},
    }
    first = start_for_event(event, executions=wf.execution_port, state_machine_arn=wf.arn)
    second = start_for_event(event, executions=wf.execution_port, state_machine_arn=wf.arn)
    assert first["started"] and not second["started"] and first["execution_arn"] == second["execution_arn"]
    assert [e["name"] for e in wf.executions(limit=1000)].count(first["execution_name"]) == 1


@pytest.mark.parametrize(
    "prompt, message",
    [
        ("EY999 on 20 January 2027 had a bird strike", "EY999"),
        ("the aircraft is broken", "flight"),
        ("Flight EY123 on January 20th with A6-ZZZ had a mechanical failure", "A6-ZZZ is not EY123's aircraft"),
        # an airport report the network planner would refuse: the airline's own normal rate limits nothing
        (
            "Abu Dhabi airport is limited to 60 movements per hour from 14:00 to 17:00 UTC on January 22nd",
            "normal",
        ),
    ],
)
def test_a_malformed_disruption_fails_validation_before_any_agent(wf, calls, prompt, message):
    name = wf.start(prompt, disruption_id=_id("bad"))["execution_name"]
    assert wf.follow(name).status == "FAILED"
    described = wf.describe(name)
    assert described["error"] == "InvalidDisruption" and message in described["cause"]
    assert not any(n.startswith("FunctionsAgent") for n, _ in calls)


def test_a_run_that_failed_in_phase_two_resumes_without_rerunning_phase_one(wf, calls):
    fail(calls, lambda name, event: name.startswith("FunctionsCollate") and event.get("phase") == "revision")
    name = wf.start(DEMO, disruption_id=_id("resume"))["execution_name"]
    assert wf.follow(name, timeout_s=600).status == "FAILED"
    assert _agent_calls(calls, "initial") == 7 and _agent_calls(calls, "revision") == 7
    calls.clear()
    fail(calls, lambda name, event: False)
    resumed = wf.resume(name)["execution_name"]
    assert resumed == f"{name}--resume-1"
    assert wf.follow(resumed, timeout_s=600).awaiting_approval
    assert _agent_calls(calls, "initial") == 0 and _agent_calls(calls, "revision") == 7
    wf.decide(resumed, ApprovalDecision(action="reject", decided_by="Dana Duty", comment="test over"))
    assert wf.follow(resumed).status == "SUCCEEDED"
    audit = wf.audit(resumed)
    assert [e["name"] for e in audit["executions"]] == [name, resumed]


def test_a_failed_execution_group_rolls_back_and_the_run_is_decided_again(wf, account, monkeypatch):
    """A plan of several groups (the cancellation — cancel, then rebook — when it is among the plans shown, else the
    shown plan with the most actions): its second transaction is refused (injected at the AWS API: a row's condition
    failed, as when another run changed it), so the group already applied is compensated and the run goes back to
    the duty manager with a decision taken again (a refusal for another reason fails the run: test_network_runs)."""
    from botocore.client import BaseClient
    from botocore.exceptions import ClientError

    name = _to_approval(wf, "rollback")
    decision = wf.decision(name)
    shown = [r["scenario"] for r in decision["ranked"]]
    cancel = next((s for s in shown if s["kind"] == "cancel"), max(shown, key=lambda s: len(s["actions"])))
    assert len(cancel["actions"]) >= 2
    before = _flight_row(account, decision["flight_id"])
    real, transactions = BaseClient._make_api_call, []

    def refuse_second(self, operation, params):
        tables = {next(iter(i.values()))["TableName"] for i in params.get("TransactItems", [])}
        if operation == "TransactWriteItems" and not any(t.endswith("AuditTrail") for t in tables):
            transactions.append(params)  # the plan's groups; the audit trail's appends are transactions too
            if len(transactions) == 2:
                raise ClientError(
                    {
                        "Error": {"Code": "TransactionCanceledException", "Message": "injected"},
                        "CancellationReasons": [{"Code": "ConditionalCheckFailed"}],
                    },
                    operation,
                )
        return real(self, operation, params)

    monkeypatch.setattr(BaseClient, "_make_api_call", refuse_second)
    wf.decide(
        name,
        ApprovalDecision(
            action="select", scenario_id=cancel["scenario_id"], decided_by="Dana Duty", comment="cancel instead"
        ),
    )
    again = wf.follow(name)
    monkeypatch.setattr(BaseClient, "_make_api_call", real)
    assert again.awaiting_approval, (again.status, again.current)
    assert _flight_row(account, decision["flight_id"]) == before
    events = [e["event"] for e in wf.audit(name)["execution_events"]]
    assert events[:2] == ["started", "completed"] and "failed" in events and "compensated" in events
    summary = json.loads(wf.pending(name)["decision"])
    assert summary["attempt"] == 2 and "CONDITION_FAILED" in summary["redecided_after"]
    assert cancel["scenario_id"] in summary["excluded"]
    wf.decide(name, ApprovalDecision(action="reject", decided_by="Dana Duty", comment="test over"))
    assert wf.follow(name).status == "SUCCEEDED" and wf.output(name)["outcome"]["status"] == "rejected"
