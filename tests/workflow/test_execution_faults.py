"""Fault injection around approval and Execute, through the state machine: the run ends abruptly at each step
boundary — before Execute, after Execute (its result lost), after Learn — then
recovery settles it from the tables (workflow/execution/recovery.py, what a local restart runs) and, where it is resumable,
the resume is approved. Each time: exactly one execution of the plan and one history record of its outcome (a run that
failed before Execute also records its failure, as every failed run does).
"""

from __future__ import annotations

import pytest
from boto3.dynamodb.conditions import Attr
from workflow_helpers import to_approval

from skymarshal.local import workflow as local_workflow
from skymarshal.local.runs import settler
from skymarshal.workflow.execution.records import execution_events, run_record
from skymarshal.workflow.execution.recovery import NothingToResume
from skymarshal.workflow.models import ApprovalDecision

pytestmark = pytest.mark.system


class Ended(RuntimeError):
    """The step's Lambda failed here: its result is lost, the execution fails."""


def _inject(point: str) -> None:
    def wrapped(name, handler, event):
        context = local_workflow._Context(name)
        if "Execute" in name and point == "before-execute":
            raise Ended("ended before Execute")
        result = handler(event, context)
        if ("Execute" in name and point == "after-execute") or ("Learn" in name and point == "after-learn"):
            raise Ended(f"ended after {name}")
        return result

    local_workflow.registry().wrap = wrapped


# A kill inside Execute's transactions (the record written, the step's thread dead) is the library test's
# (test_execution_once.py: before, after the first transaction, before the record is final, then settled): moto's
# in-process interpreter cannot be stopped cleanly once a step's thread died.
@pytest.mark.parametrize("point", ["before-execute", "after-execute", "after-learn"])
def test_a_run_ended_at_each_boundary_executes_once_and_is_learned_once(wf, account, restore, point):
    name = to_approval(wf, f"fault-{point}")
    _inject(point)
    try:
        wf.decide(name, ApprovalDecision(action="approve", decided_by="Dana Duty"))
        ended = wf.follow(name, timeout_s=600)
    finally:
        local_workflow.registry().wrap = None
    restore.append(name)
    settled = settler(account)(name, wf.describe(name)["input"])
    executed_before = point in ("after-execute", "after-learn")
    assert settled.verdict == ("executed" if executed_before else "not_executed"), (
        ended.status,
        settled,
    )
    runs = [name]
    if settled.verdict == "executed":
        with pytest.raises(NothingToResume, match="ALREADY_EXECUTED"):
            wf.resume(name)
    else:
        resumed = wf.resume(name)["execution_name"]
        runs.append(resumed)
        restore.append(resumed)
        assert wf.follow(resumed, timeout_s=600).awaiting_approval
        wf.decide(resumed, ApprovalDecision(action="approve", decided_by="Dana Duty"))
        assert wf.follow(resumed, timeout_s=600).status == "SUCCEEDED"

    tables = wf.tables
    record = run_record(name, tables=tables)
    assert record is not None and record["status"] == "executed", record
    completed = [e for run in runs for e in execution_events(run, tables=tables) if e.event == "completed"]
    groups = {e.group for e in completed}
    assert len(completed) == len(groups) > 0, [(e.execution_id, e.group) for e in completed]  # each group once
    history = account.resource().Table(account.naming("DisruptionHistory"))
    learned = {
        item["disruption_id"]: item["outcome"]
        for run in runs
        for item in history.scan(FilterExpression=Attr("execution_id").eq(run))["Items"]
    }
    flown = [key for key, outcome in learned.items() if outcome in ("on_plan", "late")]
    assert flown == [f"SM-{record['execution_name']}"], learned  # the plan's outcome learned once
    # a run ended before Execute took its failure path (Catch -> Learn, issue 48): its own record says it did not fly
    assert all(outcome in ("not_executed", "failed") for key, outcome in learned.items() if key not in flown), learned
