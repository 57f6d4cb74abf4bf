"""Replay, retry and alerts on the synthesized state machine run by moto: a Step Functions console "New execution"
with a copied input, the thread registry recording the approver, an escalated run alerting the duty managers and
its retry re-running only the agent that failed."""

from __future__ import annotations

import json
import uuid

import pytest
from workflow_helpers import DEMO, fail

from skymarshal.checkpoint.registry_dynamodb import thread_registry_from_env
from skymarshal.checkpoint.threads import thread_id
from skymarshal.workflow.alerts import latest_alerts
from skymarshal.workflow.models import ApprovalDecision
from skymarshal.workflow.runs.retry import NotRetryable


def _agent_calls(calls, phase: str) -> list[str]:
    return sorted(name for name, p in calls if name.startswith("FunctionsAgent") and p == phase)


def test_a_console_new_execution_with_a_copied_input_runs_and_the_thread_records_the_approver(wf, account, restore):
    original = wf.start(DEMO, disruption_id=f"t-replay-{uuid.uuid4().hex[:6]}")["execution_name"]
    assert wf.follow(original, timeout_s=600).awaiting_approval
    wf.decide(original, ApprovalDecision(action="reject", decided_by="Dana Duty", comment="replay it"))
    assert wf.follow(original).status == "SUCCEEDED"
    # What the Step Functions console does: a new execution, a generated name, the input copied as it was.
    copied = wf.describe(original)["input"]
    replay = str(uuid.uuid4())
    wf.sfn.start_execution(stateMachineArn=wf.arn, name=replay, input=copied)
    assert wf.follow(replay, timeout_s=600).awaiting_approval, wf.describe(replay).get("cause")
    wf.decide(replay, ApprovalDecision(action="approve", decided_by="Dana Duty", comment="go"))
    restore.append(replay)
    assert wf.follow(replay).status == "SUCCEEDED" and wf.output(replay)["outcome"]["status"] == "executed"
    registry = thread_registry_from_env()
    executed = registry.get(thread_id(replay, "arbitrator", "arbitration"))
    assert executed is not None and (executed.status, executed.status_actor) == ("executed", "Dana Duty")
    rejected = registry.get(thread_id(original, "arbitrator", "arbitration"))
    assert rejected is not None and (rejected.status, rejected.status_actor) == ("rejected", "Dana Duty")
    # One disruption, one audit chain: the replay's records are filed under the input's disruption id.
    disruption_id = json.loads(copied)["disruption_id"]
    trail = wf.trail.records(disruption_id)
    assert {r.execution_name for r in trail if r.kind == "approval_decided"} == {original, replay}
    # Known limitation, as with `resume` before: every run of a disruption writes the same runs/<id>/ artifacts,
    # so the earlier run's records no longer match the artifacts the replay rewrote; the hash chain holds.
    codes = {p.code for p in wf.trail.verify(disruption_id).problems}
    assert codes <= {"ARTIFACT_CHANGED"}, codes
    with pytest.raises(NotRetryable, match="only an escalated run"):
        wf.retry(replay)


def test_an_escalated_run_alerts_and_its_retry_reruns_only_the_failed_agent(wf, account, calls):
    fail(calls, lambda name, event: name.startswith("FunctionsAgentcrewcompliance"))
    name = wf.start(DEMO, disruption_id=f"t-retry-{uuid.uuid4().hex[:6]}")["execution_name"]
    assert wf.follow(name, timeout_s=600).status == "SUCCEEDED"
    outcome = wf.output(name)["outcome"]
    assert outcome["status"] == "escalated" and outcome["alert"]["reason"] == "SAFETY_AGENT_FAILED"
    # Published to the (local) alert topic, recorded where `skymarshal alerts` and GET /api/alerts read it.
    [alert] = [a for a in latest_alerts(tables=wf.tables, limit=200) if a.execution_name == name]
    assert alert.delivery == "published" and alert.console_link.endswith(f"/#{name}")
    assert alert.flight == "EY123 2027-01-20"
    calls.clear()
    fail(calls, lambda name, event: False)  # the agent works again
    retried = wf.retry(name)["execution_name"]
    assert retried == f"{name}--retry-1"
    assert wf.follow(retried, timeout_s=600).awaiting_approval, wf.describe(retried).get("cause")
    only = ["FunctionsAgentcrewcompliance"]
    assert [n[: len(only[0])] for n in _agent_calls(calls, "initial")] == only
    assert [n[: len(only[0])] for n in _agent_calls(calls, "revision")] == only
    assert wf.progress(retried).agents[("revision", "crew_compliance")].status == "ok"
    wf.decide(retried, ApprovalDecision(action="reject", decided_by="Dana Duty", comment="test over"))
    assert wf.follow(retried).status == "SUCCEEDED"
    assert [e["name"] for e in wf.audit(retried)["executions"]] == [name, retried]
