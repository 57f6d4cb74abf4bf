"""IAM by enforcement: every AWS call each Lambda makes in the local run, evaluated against that Lambda's
synthesized role (iam-simulate), so a grant missing from infra/ fails here as it would in AWS.

The run: the Trigger starts the EY123 disruption from an EventBridge event (and is sent the event again, as
EventBridge redelivers), the state machine runs both rounds, arbitrates and waits; the duty manager's API
reads the run and approves it; Execute and Learn finish. A second run is rejected. The calls of the state
machine's functions are recorded by the local adapter; the Trigger and the API, which are not states of the
machine, run inside `acting_as` their own function (the API through the WorkflowClient its routes use).
"""

from __future__ import annotations

import json
import os
import uuid

import pytest
from iam_policies import LocalNames, evaluate, function_policies, resource_policies, without
from test_audit_truncation import locked_bucket
from workflow_helpers import DEMO

from skymarshal.api.messages import messages_view
from skymarshal.local import workflow as local_workflow
from skymarshal.local.emulator import BUCKET
from skymarshal.local.iam_calls import ACCOUNT, acting_as, recording
from skymarshal.workflow.audit.anchor import ANCHOR_BUCKET_ENV
from skymarshal.workflow.deployment import DETAIL_TYPE, SOURCE
from skymarshal.workflow.models import ApprovalDecision
from skymarshal.workflow.tables import WorkflowTables

CLOSURE = "Abu Dhabi airport is closed by fog from 14:00 to 17:00 UTC on January 22nd"


def _logical(template: dict, handler: str) -> tuple[str, local_workflow.LocalFunction]:
    logical, resource = next(
        (k, r)
        for k, r in template["Resources"].items()
        if r["Type"] == "AWS::Lambda::Function" and r["Properties"].get("Handler") == handler
    )
    return logical, local_workflow.LocalFunction(logical, handler, resource["Metadata"]["aws:asset:path"])


@pytest.fixture(scope="module")
def anchor_bucket(account) -> str:
    """The audit anchors' bucket as infra/storage.py makes it (Object Lock, COMPLIANCE), in the local account."""
    return locked_bucket(account.client("s3"))


@pytest.fixture(scope="module")
def names(account, wf, anchor_bucket) -> LocalNames:
    return LocalNames(
        naming=account.naming,
        bucket=BUCKET,
        audit_key_arn=local_workflow.audit_key(account),
        state_machine_arn=wf.arn,
        anchor_bucket=anchor_bucket,
    )


@pytest.fixture(scope="module")
def policies(synthesized, names):
    return function_policies(synthesized.outdir, names)


@pytest.fixture(scope="module")
def governed(synthesized, names):
    return resource_policies(synthesized.outdir, names)


def _event(prompt: str) -> dict:
    return {
        "version": "0",
        "id": f"iam-{uuid.uuid4().hex[:8]}",
        "detail-type": DETAIL_TYPE,
        "source": SOURCE,
        "account": "123456789012",
        "time": "2027-01-20T06:00:00Z",
        "region": "us-east-1",
        "resources": [],
        "detail": {"prompt": prompt, "reported_by": "MOC Abu Dhabi"},
    }


@pytest.fixture(scope="module")
def recorded(synthesized, account, wf, anchor_bucket):
    """The distinct calls of the runs, and the function names of the Trigger and the API. Learn anchors each
    finished run in the Object Lock bucket and the API's verify reads the anchors, as deployed."""
    workflow = synthesized.template_json("SkyMarshal-Workflow")
    trigger_name, trigger_fn = _logical(workflow, "handler.trigger")
    trigger_fn = local_workflow.LocalFunction(
        trigger_name, trigger_fn.handler, synthesized.outdir / trigger_fn.asset_dir
    )
    api_name, _ = _logical(synthesized.template_json("SkyMarshal-Api"), "handler.handler")
    trigger = local_workflow.load_handler(trigger_fn)
    os.environ["SKYMARSHAL_STATE_MACHINE_ARN"] = wf.arn
    os.environ[ANCHOR_BUCKET_ENV] = anchor_bucket
    names = []
    try:
        with recording(task_token_resource=wf.arn) as log:
            event = _event(DEMO)
            with acting_as(trigger_name):
                started = trigger(event, local_workflow._Context(trigger_name))
                again = trigger(event, local_workflow._Context(trigger_name))  # a redelivery starts nothing
            assert started["started"] is True and again["started"] is False, (started, again)
            approved = started["execution_name"]
            names.append(approved)
            assert wf.follow(approved, timeout_s=600).awaiting_approval
            with acting_as(api_name):
                wf.executions(limit=10)
                wf.describe(approved), wf.progress(approved), wf.decision(approved), wf.pending(approved)
                messages_view(wf, approved)  # GET …/messages: what each plan would send, read from the tables
                wf.decide(approved, ApprovalDecision(action="approve", decided_by="Dana Duty", comment="iam"))
            assert wf.follow(approved, timeout_s=600).status == "SUCCEEDED", wf.describe(approved).get("cause")
            # One run at a time: moto's transactions deep-copy a table another run's agents may be writing.
            with acting_as(api_name):
                rejected = wf.start(DEMO, disruption_id=f"t-iam-{uuid.uuid4().hex[:6]}")["execution_name"]
            assert wf.follow(rejected, timeout_s=600).awaiting_approval
            with acting_as(api_name):
                wf.decide(rejected, ApprovalDecision(action="reject", decided_by="Dana Duty", comment="no"))
                wf.audit(approved), wf.verify(approved)
            assert wf.follow(rejected, timeout_s=600).status in ("SUCCEEDED", "FAILED", "ABORTED")
            # a network disruption: Arbitrate's planner reads, Execute's many-flight plan, Learn's rows per flight
            with acting_as(api_name):
                network = wf.start(CLOSURE, disruption_id=f"t-iam-net-{uuid.uuid4().hex[:6]}")["execution_name"]
            names.append(network)
            assert wf.follow(network, timeout_s=600).awaiting_approval
            with acting_as(api_name):
                wf.decide(network, ApprovalDecision(action="approve", decided_by="Dana Duty", comment="iam"))
            assert wf.follow(network, timeout_s=600).status == "SUCCEEDED", wf.describe(network).get("cause")
            calls = log.take()
    finally:
        os.environ.pop("SKYMARSHAL_STATE_MACHINE_ARN", None)
        os.environ.pop(ANCHOR_BUCKET_ENV, None)
        from skymarshal.workflow.execution.execute import undo

        for name in names:
            undo(name, tables=WorkflowTables(account.resource(), account.naming))
    return calls, trigger_name, api_name


def _denials(results) -> list[str]:
    return [
        f"{c.function}: {c.action} on {c.resource} → {verdict} {detail}"
        for c, verdict, detail in results
        if verdict != "Allowed"
    ]


def test_every_call_of_every_function_is_granted_by_its_synthesized_role(
    recorded, policies, governed, workflow_template, names
):
    calls, trigger, api = recorded
    learn, _ = _logical(json.loads(workflow_template.read_text()), "handler.learn")
    functions = {c.function for c in calls}
    # Every function of the run made calls: the recording saw each container, not just some.
    state_machine_functions = {fn.logical_id for fn in local_workflow.read_template(workflow_template)[1]}
    assert state_machine_functions | {trigger, api} <= functions, sorted(state_machine_functions - functions)
    assert {c.function for c in calls} <= set(policies), "a recorded function has no role in the templates"
    # the anchors' calls were made (and so evaluated below): Learn's put, the verifier's listing and read
    anchors = {(c.function, c.action) for c in calls if f":::{names.anchor_bucket}" in c.resource}
    assert anchors == {(learn, "s3:PutObject"), (api, "s3:ListBucketVersions"), (api, "s3:GetObjectVersion")}, anchors
    # the executed plan's messages were published (and so evaluated below): on the message bus, by Execute alone
    published = {(c.function, c.resource) for c in calls if c.action == "events:PutEvents"}
    execute, _ = _logical(json.loads(workflow_template.read_text()), "handler.execute")
    assert published == {(execute, f"arn:aws:events:us-east-1:{ACCOUNT}:event-bus/{names.message_bus}")}, published
    denied = _denials(evaluate(calls, policies, governed))
    assert not denied, "calls the synthesized roles do not grant:\n" + "\n".join(denied)


def test_a_grant_removed_from_the_trigger_is_caught(recorded, policies, governed):
    """The DescribeExecution bug (issue 18): without that one statement the Trigger's own calls are denied."""
    calls, trigger, _ = recorded
    trimmed = {**policies, trigger: without(policies[trigger], "states:DescribeExecution")}
    mine = {c for c in calls if c.function == trigger}
    assert not _denials(evaluate(mine, policies, governed))  # with the grant, the same calls pass
    denied = _denials(evaluate(mine, trimmed, governed))
    assert denied and all("states:DescribeExecution" in d for d in denied), denied


def test_an_agent_reading_a_table_outside_its_row_of_the_matrix_is_denied(recorded, policies, governed, account):
    """The evaluation is by resource, not by action alone: the cargo agent's role does not reach crew data."""
    calls, _, _ = recorded
    cargo = next(c for c in calls if "cargo" in c.function.lower() and c.action == "dynamodb:Query")
    crew_table = cargo.resource.split(":table/")[0] + ":table/" + account.naming("CrewRoster")
    probe = type(cargo)(cargo.function, "dynamodb:Query", crew_table)
    ((_, verdict, _),) = evaluate([probe], policies, governed)
    assert verdict == "ImplicitlyDenied", json.dumps(policies[cargo.function])[:400]
